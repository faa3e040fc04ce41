"""What the command line does when the world around it fails: a full disk under its standard
output, an artifact from a newer rulekit, and the odd lines of a --jsonl batch."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from folders import read_only_folder

from rulekit.cli import main
from rulekit.policy import FORMAT_VERSION

ROOT = Path(__file__).resolve().parent.parent
GOOD = 'ruleset tiny {\n  version "3"\n}\n\non otherwise refuse "I could not verify that."\n'
FULL = "/dev/full"


def _to_full_disk(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    rulekit = Path(sys.executable).with_name("rulekit")
    with open(FULL, "wb") as out:
        return subprocess.run([str(rulekit), *args], stdout=out, stderr=subprocess.PIPE,
                              input=stdin, timeout=120, cwd=ROOT)


@pytest.mark.skipif(not os.path.exists(FULL), reason="no /dev/full on this system")
@pytest.mark.parametrize("command", ["compile", "check", "audit"])
def test_a_full_disk_under_standard_output_is_exit_2_naming_it(tmp_path, command):
    rules = tmp_path / "tiny.rules"
    rules.write_text(GOOD)
    if command == "compile":
        args = ["compile", str(rules)]
    elif command == "check":
        reply = tmp_path / "reply.json"
        reply.write_text('{"answer_template": "Hello.", "claims": []}')
        args = ["check", str(rules), "--reply", str(reply), "--rows", str(tmp_path / "r.json")]
        (tmp_path / "r.json").write_text("{}")
    else:
        batch = tmp_path / "cases.jsonl"
        batch.write_text('{"id": "a", "evidence": {"views": 4}, "text": "4 views."}\n' * 50)
        args = ["audit", "--jsonl", str(batch)]
    done = _to_full_disk(*args)
    stderr = done.stderr.decode()
    assert done.returncode == 2, stderr
    assert "cannot write standard output: No space left on device" in stderr
    assert "bug" not in stderr and "Traceback" not in stderr


def test_an_artifact_from_a_newer_rulekit_says_to_upgrade(tmp_path, capsys):
    import rulekit
    from rulekit.policy import ArtifactError, _policy_from_json

    newer = json.dumps({"format_version": FORMAT_VERSION + 1,
                        "compiled_by": "rulekit 9.9.9", "name": "x"})
    with pytest.raises(ArtifactError) as caught:
        _policy_from_json(newer, "acct.json")
    message = str(caught.value)
    assert "newer rulekit" in message and "rulekit 9.9.9" in message
    assert f"rulekit {rulekit.__version__}" in message
    assert "upgrade rulekit" in message
    assert f"format_version is {FORMAT_VERSION + 1}, this rulekit reads {FORMAT_VERSION}" in message
    older = json.dumps({"format_version": FORMAT_VERSION - 1})
    with pytest.raises(ArtifactError, match="recompile the ruleset with this version"):
        _policy_from_json(older, "acct.json")


def _batch(tmp_path, capsys, *lines: str) -> list[dict]:
    batch = tmp_path / "cases.jsonl"
    batch.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogatepass")
    assert main(["audit", "--jsonl", str(batch)]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_a_duplicate_id_is_no_valid_id_and_a_surrogate_names_its_line(tmp_path, capsys):
    results = _batch(tmp_path, capsys,
                     '{"id":"dup","id":"dup2","evidence":{},"text":"x"}',
                     '{"id": "sur", "evidence": {"views": 4120}, "text": "ok \\ud800 9,999"}',
                     '{"id": "ok", "evidence": {"views": 4120}, "text": "4,120 views."}')
    assert [r["id"] for r in results] == [None, "sur", "ok"]
    assert [r["decision"] for r in results] == ["refuse", "refuse", "answer"]
    assert results[0]["issues"][0]["message"].startswith("line 1: duplicate key `id`")
    assert results[1]["issues"][0]["message"].startswith("line 2: the text holds a lone "
                                                         "surrogate")


# --- an --out folder that exists and cannot be written: a usage error (exit 2), not a bug ----

def _unwritable_folders() -> list[str]:
    """Existing folders nobody can write an artifact into, root included (so the test runs,
    not skips, under CI as root): /proc/self (no new files) and /sys/kernel (sysfs)."""
    return [folder for folder in ("/proc/self", "/sys/kernel") if os.path.isdir(folder)]


@pytest.mark.parametrize("folder", ["/proc/self", "/sys/kernel"])
def test_compile_out_into_an_existing_unwritable_folder_is_exit_2_naming_it(tmp_path, capsys,
                                                                             folder):
    if folder not in _unwritable_folders():
        pytest.skip(f"no {folder} on this system")
    rules = tmp_path / "tiny.rules"
    rules.write_text(GOOD)
    assert main(["compile", str(rules), "--out", folder]) == 2
    stderr = capsys.readouterr().err
    assert f"cannot write the artifact '{folder}/tiny.policy.json' into --out folder " \
           f"'{folder}'" in stderr, stderr
    assert "give an --out folder you can write to" in stderr
    assert "internal error" not in stderr and "bug" not in stderr


def test_compile_out_into_a_read_only_folder_is_exit_2(tmp_path, capsys):
    rules = tmp_path / "tiny.rules"
    rules.write_text(GOOD)
    folder = tmp_path / "ro"
    folder.mkdir()
    with read_only_folder(folder):
        assert main(["compile", str(rules), "--out", str(folder)]) == 2
    err = capsys.readouterr().err
    assert "give an --out folder you can write to" in err, err
    assert "internal error" not in err


def test_on_linux_an_unwritable_out_folder_is_always_tested():
    """Under CI the /proc case must run: the skip above is for other systems only."""
    if sys.platform.startswith("linux"):
        assert "/proc/self" in _unwritable_folders()


# --- interrupted, or read by a consumer that stops early -------------------------------------

CASE = b'{"id": "a", "evidence": {"views": 4}, "text": "4 views."}\n'


def _batch_from_stdin() -> subprocess.Popen:
    rulekit = Path(sys.executable).with_name("rulekit")
    return subprocess.Popen([str(rulekit), "audit", "--jsonl", "-"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)


def test_ctrl_c_in_a_batch_is_exit_130_and_every_line_written_is_whole():
    import signal

    batch = _batch_from_stdin()
    batch.stdin.write(CASE * 3)
    batch.stdin.flush()
    first = [batch.stdout.readline() for _ in range(3)]   # then it waits for more input
    batch.send_signal(signal.SIGINT)
    rest, stderr = batch.communicate(timeout=60)
    assert batch.returncode == 130, stderr
    lines = b"".join(first) + rest
    assert lines.endswith(b"\n")
    assert [json.loads(line)["id"] for line in lines.splitlines()] == ["a", "a", "a"]
    assert b"Traceback" not in stderr


def test_a_consumer_that_stops_reading_ends_the_batch_quietly_with_0():
    """``rulekit audit --jsonl cases.jsonl | head -1``: not an error of the batch's."""
    batch = _batch_from_stdin()
    batch.stdin.write(CASE)
    batch.stdin.flush()
    assert json.loads(batch.stdout.readline())["id"] == "a"
    batch.stdout.close()                                   # the reader went away
    try:
        batch.stdin.write(CASE * 2000)
        batch.stdin.close()
    except BrokenPipeError:   # it may have ended already
        pass
    assert batch.wait(timeout=60) == 0
    stderr = batch.stderr.read()
    assert b"Traceback" not in stderr and b"Broken pipe" not in stderr, stderr
