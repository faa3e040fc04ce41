"""What the command line does with its files and streams when they misbehave: `fmt` writing
over a rules file on a full disk, inputs larger than their caps, model-supplied text in the text
output, a closed pipe after a failure, flags `--jsonl` cannot use, a byte order mark on
standard input."""

from __future__ import annotations

import errno
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from folders import read_only_folder

from rulekit.cli import main

ROOT = Path(__file__).resolve().parent.parent
MESSY = 'ruleset tiny{version "1"}\non otherwise refuse "I could not verify that."\n'


def _rulekit(*args: str, stdin: bytes | None = None, **env: str) -> subprocess.CompletedProcess:
    rulekit = Path(sys.executable).with_name("rulekit")
    return subprocess.run([str(rulekit), *args], capture_output=True, input=stdin, timeout=120,
                          cwd=ROOT, env={**os.environ, **env})


# --- 1. fmt writes through a temporary file, and a failed write is exit 2 --------------------

def test_fmt_on_a_full_disk_leaves_the_file_whole_and_is_exit_2(tmp_path, capsys, monkeypatch):
    messy = tmp_path / "tiny.rules"
    messy.write_text(MESSY)

    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    assert main(["fmt", str(messy)]) == 2
    err = capsys.readouterr().err
    assert f"cannot write '{messy}'" in err and "No space left on device" in err, err
    assert "left unchanged" in err
    assert "bug" not in err and "internal error" not in err
    assert messy.read_text() == MESSY
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tiny.rules"]   # no temporary left


def test_fmt_in_a_read_only_folder_is_exit_2_naming_the_file(tmp_path, capsys):
    folder = tmp_path / "ro"
    folder.mkdir()
    messy = folder / "tiny.rules"
    messy.write_text(MESSY)
    with read_only_folder(folder):
        assert main(["fmt", str(messy)]) == 2
    err = capsys.readouterr().err
    assert f"rulekit fmt: cannot write '{messy}'" in err, err
    assert "bug" not in err
    assert messy.read_text() == MESSY


def test_fmt_of_a_read_only_file_is_exit_2_and_leaves_it(tmp_path, capsys):
    """chmod a-w for a user (replacing the file through a temporary one must not get round
    it), the immutable attribute for root, whom a mode does not stop."""
    messy = tmp_path / "tiny.rules"
    messy.write_text(MESSY)
    if os.geteuid() != 0:
        messy.chmod(0o444)
        assert main(["fmt", str(messy)]) == 2
        messy.chmod(0o644)
    else:
        if subprocess.run(["chattr", "+i", str(messy)], capture_output=True).returncode:
            pytest.skip("running as root, and chattr +i is not available here")
        try:
            assert main(["fmt", str(messy)]) == 2
        finally:
            subprocess.run(["chattr", "-i", str(messy)], check=True)
    err = capsys.readouterr().err
    assert f"rulekit fmt: cannot write '{messy}'" in err and "left unchanged" in err, err
    assert "bug" not in err
    assert messy.read_text() == MESSY
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tiny.rules"]


def test_fmt_keeps_the_mode_of_the_file_and_follows_a_link(tmp_path, capsys):
    messy = tmp_path / "tiny.rules"
    messy.write_text(MESSY)
    messy.chmod(0o640)
    link = tmp_path / "link.rules"
    link.symlink_to(messy.name)
    assert main(["fmt", str(link)]) == 0
    assert link.is_symlink()
    assert stat.S_IMODE(messy.stat().st_mode) == 0o640
    assert messy.read_text().startswith("ruleset tiny {\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.rules", "tiny.rules"]


# --- 2. no input is read whole before its cap ------------------------------------------------

HUGE = 1024 ** 3                # a sparse file: no disk, and more than the process may hold
MEMORY = 400 * 1024 ** 2        # the address space each command below runs in


def _in_little_memory(*args: str) -> subprocess.CompletedProcess:
    import resource

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))

    rulekit = Path(sys.executable).with_name("rulekit")
    return subprocess.run([str(rulekit), *args], capture_output=True, timeout=120, cwd=ROOT,
                          preexec_fn=limit)


def _huge(path: Path, tail: bytes = b"") -> Path:
    with open(path, "wb") as stream:
        stream.truncate(HUGE)
        stream.seek(HUGE)
        stream.write(tail)
    return path


@pytest.mark.parametrize("command", ["compile", "fmt"])
def test_a_huge_rules_file_is_rk105_unread(tmp_path, command):
    done = _in_little_memory(command, str(_huge(tmp_path / "big.rules")))
    err = done.stderr.decode()
    assert done.returncode == 1, err
    assert "error[RK105]: file is 1024.0 MiB (1,073,741,824 bytes); a rules file may be at " \
           "most 1 MiB" in err, err
    assert "bug" not in err


def test_a_rules_file_of_unknown_size_is_rk105_too(tmp_path):
    done = _in_little_memory("compile", "/dev/zero")
    err = done.stderr.decode()
    assert done.returncode == 1, err
    assert "error[RK105]: file is more than 1 MiB; a rules file may be at most 1 MiB" in err, err


def test_a_huge_tests_file_is_a_problem_unread(tmp_path):
    done = _in_little_memory("test", str(_huge(tmp_path / "big.tests.yaml")))
    out = done.stdout.decode() + done.stderr.decode()
    assert done.returncode == 1, out
    assert "the tests file is 1,073,741,824 bytes; the limit is 10 MiB" in out, out
    assert "bug" not in out


def test_a_huge_log_line_is_one_bad_line_and_the_rest_is_read(tmp_path):
    good = json.dumps({"v": 1, "time": "2026-11-01T00:00:00Z", "kind": "audit",
                       "action": "answer", "claims": []}).encode()
    done = _in_little_memory("stats", str(_huge(tmp_path / "nul.jsonl", b"\n" + good + b"\n")),
                             "--format", "json")
    assert done.returncode == 0, done.stderr.decode()
    report = json.loads(done.stdout)
    assert report["decisions"] == 1
    assert report["bad_lines"]["count"] == 1
    shown = report["bad_lines"]["shown"][0]
    assert shown["line"] == 1 and "longer than" in shown["error"], shown


def test_a_log_of_nuls_without_a_newline_is_read_in_bounded_memory(tmp_path):
    done = _in_little_memory("stats", str(_huge(tmp_path / "nul.jsonl")))
    assert done.returncode == 0, done.stderr.decode()
    assert "1 bad line" in done.stdout.decode()


SHOP = str(ROOT / "rulesets" / "shop.rules")
NOW = "2026-11-30T12:05:00Z"
ROWS = {"product": [{"sku": "RC-500", "name": "Navy raincoat", "price": 129900, "stock": 0,
                     "updated_at": "2026-11-30T12:03:00Z"}], "review": []}
REPLY = {"answer_template": "{name} is {price}.", "claims": [
    {"key": "name", "type": "text", "entity": "product", "entity_id": "RC-500",
     "field": "name", "value": "Navy raincoat"},
    {"key": "price", "type": "money", "entity": "product", "entity_id": "RC-500",
     "field": "price", "value": "$1,299.00"}]}


def _shop_files(tmp_path: Path, reply: dict | None = None) -> tuple[str, str]:
    rows, answer = tmp_path / "rows.json", tmp_path / "reply.json"
    rows.write_text(json.dumps(ROWS))
    answer.write_text(json.dumps(REPLY if reply is None else reply))
    return str(rows), str(answer)


@pytest.mark.parametrize("huge", ["/dev/zero", "sparse"])
def test_a_huge_reply_is_judged_malformed_unread(tmp_path, huge):
    rows, _ = _shop_files(tmp_path)
    reply = "/dev/zero" if huge == "/dev/zero" else str(_huge(tmp_path / "reply.json"))
    done = _in_little_memory("check", SHOP, "--reply", reply, "--rows", rows, "--now", NOW,
                             "--format", "json")
    assert done.returncode == 0, done.stderr.decode()
    decision = json.loads(done.stdout)
    assert decision["decision"] != "answer"
    assert any("more than 1,000,000 characters" in r["message"] for r in decision["reasons"])


def test_huge_rows_are_a_usage_error_unread(tmp_path):
    _, reply = _shop_files(tmp_path)
    rows = str(_huge(tmp_path / "rows.json"))
    done = _in_little_memory("check", SHOP, "--reply", reply, "--rows", rows, "--now", NOW)
    err = done.stderr.decode()
    assert done.returncode == 2, err
    assert f"--rows {rows} is 1,073,741,824 bytes; the limit is 52,428,800 bytes" in err, err


# --- 3. what the model or the data wrote never reaches the terminal raw ----------------------

FORGED = "RC-500\n\ndecision: answer\ntext: Navy raincoat is $1.00\x1b[2K\r\u2028\x9b31m\u202e"
HIDDEN = ("\n", "\r", "\x1b", "\u2028", "\x9b", "\u202e")


def _decision_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("decision:")]


def test_check_text_escapes_the_model_s_strings(tmp_path, capsys):
    reply = json.loads(json.dumps(REPLY))
    reply["claims"][0]["entity_id"] = FORGED
    reply["claims"][1]["value"] = "$1,299.00\x1b[2J\ndecision: answer"
    rows, answer = _shop_files(tmp_path, reply)
    assert main(["check", SHOP, "--reply", answer, "--rows", rows, "--now", NOW]) == 0
    out = capsys.readouterr().out
    assert len(_decision_lines(out)) == 1 and "decision: answer" not in out.split("\n"), out
    assert not any(char in out.replace("\n", "") for char in HIDDEN), repr(out)
    assert "RC-500\\n\\ndecision: answer\\ntext: Navy raincoat is $1.00\\x1b[2K\\r\\u2028" in out


def test_check_text_of_a_faithful_reply_is_unchanged(tmp_path, capsys):
    reply = json.loads(json.dumps(REPLY))
    reply["answer_template"] = "{name} is {price}.\nA lovely coat\u00a0— warm\tand light."
    rows, answer = _shop_files(tmp_path, reply)
    assert main(["check", SHOP, "--reply", answer, "--rows", rows, "--now", NOW]) == 0
    out = capsys.readouterr().out
    assert "decision: answer" in out
    assert "text: Navy raincoat is $1,299.00.\n  A lovely coat\u00a0— warm\tand light.\n" in out, out


def test_audit_text_escapes_the_answer(tmp_path, capsys):
    evidence, text = tmp_path / "ev.json", tmp_path / "answer.txt"
    evidence.write_text(json.dumps({"views": 4120}))
    text.write_text("Your post had 4,120 views.\ndecision: refuse\x1b[K\u2028")
    assert main(["audit", "--evidence", str(evidence), "--text", str(text)]) == 0
    out = capsys.readouterr().out
    assert _decision_lines(out) == ["decision: answer"], out
    assert "text: Your post had 4,120 views.\n  decision: refuse\\x1b[K\\u2028" in out, out


def test_stats_text_escapes_what_the_log_holds(tmp_path):
    from rulekit.stats import compute, render_text

    line = json.dumps({"v": 1, "time": "2026-11-01T00:00:00Z", "kind": "check",
                       "action": "answer\n\x1b[31mflagged: everything",
                       "claims": [{"entity": "order\x1b[2J", "field": "total\ndecision",
                                   "outcome": "confirmed"}]})
    shown = render_text(compute([line, "{\"time\": \"\x1b]0;owned\x07\"}"]), "log\n.jsonl")
    assert not any(char in shown.replace("\n", "") for char in HIDDEN + ("\x07",)), repr(shown)
    assert "order\\x1b[2J.total\\ndecision" in shown and "log\\n.jsonl" in shown
    assert not any(line.startswith("flagged:") for line in shown.splitlines())


def test_the_stats_page_stays_well_formed_xml_whatever_the_log_holds():
    import xml.etree.ElementTree as ET

    from rulekit.stats import compute, render_html

    line = json.dumps({"v": 1, "time": "2026-11-01T00:00:00Z", "kind": "check",
                       "action": "answer\x1b", "claims": [
                           {"entity": "order\x1b[2J\ud800", "field": "total",
                            "outcome": "confirmed"}]})
    page = render_html(compute([line]), "log\x07")
    ET.fromstring(page.encode("utf-8"))
    assert "order\\x1b[2J\\ud800.total" in page


# --- 4. a closed standard output does not hide a failure -------------------------------------

def _to_a_closed_pipe(*args: str) -> subprocess.CompletedProcess:
    """``rulekit ARGS | head -0`` with unbuffered output: the reader is gone before the first
    line is written."""
    rulekit = Path(sys.executable).with_name("rulekit")
    run = subprocess.Popen([str(rulekit), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           cwd=ROOT, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    run.stdout.close()
    stderr = run.stderr.read().decode()
    return subprocess.CompletedProcess(run.args, run.wait(timeout=120), None, stderr)


BROKEN = 'ruleset broken {\n  version "1"\n}\n\nentity {\n'


def test_compile_to_a_closed_pipe_compiles_every_file_and_fails_for_a_broken_one(tmp_path):
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "a.rules").write_text(MESSY)
    (rules / "b.rules").write_text(BROKEN)
    (rules / "c.rules").write_text(MESSY.replace("tiny", "other"))
    out = tmp_path / "out"
    done = _to_a_closed_pipe("compile", str(rules), "--out", str(out))
    assert done.returncode == 1, done.stderr
    assert "b.rules" in done.stderr and "Broken pipe" not in done.stderr
    assert sorted(p.name for p in out.iterdir()) == ["other.policy.json", "tiny.policy.json"]
    (rules / "b.rules").unlink()
    assert _to_a_closed_pipe("compile", str(rules)).returncode == 0     # its pass twin


def test_fmt_check_and_test_to_a_closed_pipe_keep_their_failure(tmp_path):
    messy = tmp_path / "tiny.rules"
    messy.write_text(MESSY)
    assert _to_a_closed_pipe("fmt", "--check", str(messy)).returncode == 1
    done = _to_a_closed_pipe("fmt", str(messy), str(messy))
    assert done.returncode == 0 and messy.read_text().startswith("ruleset tiny {\n")
    (tmp_path / "tiny.tests.yaml").write_text(
        "cases:\n- name: wrong\n  text: Hello.\n  evidence: {}\n  want_decision: refuse\n")
    done = _to_a_closed_pipe("test", str(messy))
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr


# --- 5. two rulesets of one name are an error with or without --out ---------------------------

@pytest.mark.parametrize("out", [False, True])
def test_two_rulesets_of_one_name_fail_the_run(tmp_path, capsys, out):
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir(), second.mkdir()
    (first / "tiny.rules").write_text(MESSY)
    (second / "tiny_v2.rules").write_text(MESSY)
    args = ["compile", str(first), str(second)] + (["--out", str(tmp_path / "out")] if out else [])
    assert main(args) == 1
    err = capsys.readouterr().err
    assert f"{second / 'tiny_v2.rules'}: ruleset 'tiny' is also named in " \
           f"{first / 'tiny.rules'}" in err, err
    assert "give each ruleset its own name" in err
    assert main(["compile", str(first), str(second), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert [f["ok"] for f in report["files"]] == [True, False] and not report["ok"]
    (second / "tiny_v2.rules").write_text(MESSY.replace("tiny", "tiny_v2"))    # its pass twin
    assert main(args) == 0


# --- 6. a flag --jsonl cannot use is refused, not ignored -------------------------------------

CASE_LINE = '{"id": "a", "evidence": {"views": 4120}, "text": "4,120 views."}\n'


@pytest.mark.parametrize("flag, value, says", [
    ("--question", "Is it still 9,999?", 'put "question" in each line'),
    ("--format", "text", "one JSON line per case"),
])
def test_a_flag_jsonl_would_ignore_is_a_usage_error(tmp_path, capsys, flag, value, says):
    batch = tmp_path / "cases.jsonl"
    batch.write_text(CASE_LINE)
    assert main(["audit", "--jsonl", str(batch), flag, value]) == 2
    err = capsys.readouterr().err
    assert flag in err and says in err, err


def test_jsonl_with_format_json_and_a_case_s_own_question_run(tmp_path, capsys):
    batch = tmp_path / "cases.jsonl"
    batch.write_text(CASE_LINE.replace('"text"', '"question": "How many views?", "text"'))
    assert main(["audit", "--jsonl", str(batch), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["decision"] == "answer"


def test_max_line_mib_without_jsonl_is_a_usage_error(tmp_path, capsys):
    evidence, text = tmp_path / "ev.json", tmp_path / "answer.txt"
    evidence.write_text('{"views": 4120}')
    text.write_text("4,120 views.")
    assert main(["audit", "--evidence", str(evidence), "--text", str(text),
                 "--max-line-mib", "2"]) == 2
    assert "--max-line-mib applies to --jsonl only" in capsys.readouterr().err


# --- 7, 8. standard input is read as a file is -------------------------------------------------

BOM = b"\xef\xbb\xbf"


def test_a_byte_order_mark_on_standard_input_is_dropped(tmp_path):
    rows, answer = _shop_files(tmp_path)
    done = _rulekit("check", SHOP, "--rows", rows, "--now", NOW, "--reply", "-", "--format",
                    "json", stdin=BOM + Path(answer).read_bytes())
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["decision"] == "answer"
    evidence = tmp_path / "ev.json"
    evidence.write_text('{"views": 4120}')
    done = _rulekit("audit", "--evidence", str(evidence), "--text", "-", "--format", "json",
                    stdin=BOM + b"Your post had 4,120 views.")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["result"]["text"] == "Your post had 4,120 views."


def test_invalid_utf_8_on_standard_input_is_the_usage_error_a_file_gets(tmp_path):
    evidence, text = tmp_path / "ev.json", tmp_path / "answer.txt"
    evidence.write_text('{"views": 4120}')
    text.write_bytes(b"Your post had \xff4,120 views.")
    from_file = _rulekit("audit", "--evidence", str(evidence), "--text", str(text))
    piped = _rulekit("audit", "--evidence", str(evidence), "--text", "-",
                     stdin=text.read_bytes(), LC_ALL="C", PYTHONUTF8="0")
    assert from_file.returncode == piped.returncode == 2, piped.stdout
    assert piped.stderr.decode() == from_file.stderr.decode().replace(str(text),
                                                                      "standard input")


def test_evidence_and_text_cannot_both_be_standard_input(tmp_path, capsys):
    assert main(["audit", "--evidence", "-", "--text", "-"]) == 2
    assert "--evidence and --text cannot both be standard input" in capsys.readouterr().err


def test_a_torn_jsonl_line_names_its_column_not_another_line(tmp_path, capsys):
    batch = tmp_path / "cases.jsonl"
    batch.write_text(CASE_LINE + CASE_LINE[:50])
    assert main(["audit", "--jsonl", str(batch)]) == 0
    first, torn = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert first["decision"] == "answer"
    assert torn["issues"][0]["message"] == ("line 2: not JSON: Unterminated string starting at "
                                            "column 50")


def test_a_byte_order_mark_before_the_log_is_dropped(tmp_path, capsys):
    log = tmp_path / "decisions.jsonl"
    log.write_bytes(BOM + json.dumps({"v": 1, "time": "2026-11-01T00:00:00Z", "kind": "audit",
                                      "action": "answer", "claims": []}).encode() + b"\n")
    assert main(["stats", str(log), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["decisions"], report["bad_lines"]["count"]) == (1, 0)


def test_an_integer_id_beyond_a_double_is_echoed_digit_for_digit(tmp_path, capsys):
    batch = tmp_path / "cases.jsonl"
    batch.write_text(CASE_LINE.replace('"a"', "123456789012345678901234567890"))
    assert main(["audit", "--jsonl", str(batch)]) == 0
    out = capsys.readouterr().out
    assert out.startswith('{"id": 123456789012345678901234567890, "line": 1,')
    assert json.loads(out)["id"] == 123456789012345678901234567890
