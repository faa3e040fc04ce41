"""`rulekit compile`, `rulekit fmt` and `rulekit demo` as a user runs them: exit codes, output,
artifacts, and no traceback whatever bytes come in."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rulekit.policy import FORMAT_VERSION
from hypothesis import HealthCheck, given, settings, strategies as st

from rulekit.cli import main
from rulekit.parse import keywords

ROOT = Path(__file__).resolve().parent.parent
GOOD = 'ruleset tiny {\n  version "3"\n}\n\non otherwise refuse "I could not verify that."\n'


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """The installed console script, as a user runs it."""
    rulekit = Path(sys.executable).with_name("rulekit")
    return subprocess.run([str(rulekit), *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120)


def test_compile_exit_codes(tmp_path, capsys):
    good = tmp_path / "good.rules"
    good.write_text(GOOD)
    bad = tmp_path / "bad.rules"
    bad.write_text("ruleset bad {\n")
    assert main(["compile", str(good)]) == 0
    assert main(["compile", str(good), str(bad)]) == 1
    err = capsys.readouterr().err
    assert f"{bad}:1:14: error[RK103]: unexpected end of file" in err
    with pytest.raises(SystemExit) as usage:
        main(["compile"])
    assert usage.value.code == 2
    with pytest.raises(SystemExit) as usage:
        main(["compile", "--format", "yaml", str(good)])
    assert usage.value.code == 2


def test_compile_out_writes_one_artifact_per_ruleset(tmp_path):
    good = tmp_path / "good.rules"
    good.write_text(GOOD)
    out = tmp_path / "out"
    assert main(["compile", str(good), "--out", str(out)]) == 0
    artifact = json.loads((out / "tiny.policy.json").read_text())
    assert artifact["format_version"] == FORMAT_VERSION
    assert (artifact["name"], artifact["version"]) == ("tiny", "3")
    assert len(artifact["sources_sha256"]) == 64


def test_compile_json_format_carries_the_same_diagnostics(tmp_path, capsys):
    bad = tmp_path / "bad.rules"
    bad.write_text('ruleset b { version "1" }\nentity e { key id field id strng }\n'
                   'on otherwise handoff\n')
    assert main(["compile", "--format", "json", str(bad)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False
    (diagnostic,) = report["files"][0]["diagnostics"]
    assert diagnostic == {"code": "RK301", "severity": "error", "message": "unknown type 'strng'",
                          "path": str(bad), "line": 2, "column": 28, "end_line": 2,
                          "end_column": 33,
                          "hint": "did you mean 'text'? types: boolean, date, decimal, identifier, integer, money, text, timestamp, url"}  # noqa: E501


def test_compile_accepts_a_folder(tmp_path, capsys):
    (tmp_path / "a.rules").write_text(GOOD)
    (tmp_path / "lib.rules").write_text('aliases tier { gold = "Gold" }\n')
    assert main(["compile", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "a.rules: ok: ruleset tiny 3" in out
    assert "lib.rules: library checked" in out


@pytest.mark.parametrize("command", ["compile", "fmt", "test"])
@pytest.mark.parametrize("folder", ["empty", "empty.rules"])
def test_a_folder_without_rules_files_is_a_usage_error(tmp_path, capsys, command, folder):
    """A CI job given a wrong folder must not pass by compiling nothing."""
    (tmp_path / folder).mkdir()
    (tmp_path / "good.rules").write_text(GOOD)
    assert main([command, str(tmp_path / folder), str(tmp_path / "good.rules")]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"rulekit {command}: no .rules files under {tmp_path / folder}")


def test_a_missing_file_is_a_diagnostic_not_a_crash(tmp_path, capsys):
    assert main(["compile", str(tmp_path / "nope.rules")]) == 1
    assert "error[RK108]: cannot read" in capsys.readouterr().err


def test_fmt_check_and_rewrite(tmp_path, capsys):
    messy = tmp_path / "messy.rules"
    messy.write_text("ruleset tiny{version \"3\"}\non otherwise refuse \"no\"")
    assert main(["fmt", "--check", str(messy)]) == 1
    assert "would be reformatted" in capsys.readouterr().out
    assert main(["fmt", str(messy)]) == 0
    assert main(["fmt", "--check", str(messy)]) == 0
    assert messy.read_text().startswith("ruleset tiny {\n")


def test_demo_compiles_and_describes_the_shipped_rulesets():
    result = run("demo")
    assert result.returncode == 0, result.stdout + result.stderr
    for name in ("shop", "orders", "analytics", "golf", "support"):
        assert f"ruleset {name} " in result.stdout
    assert "HIDDEN: never looked up or shown" in result.stdout


def test_the_console_script_never_prints_a_traceback(tmp_path):
    weird = tmp_path / "weird.rules"
    weird.write_bytes(b"\xff\xfe\x00entity {{{ \"\\")
    result = run("compile", str(weird))
    assert result.returncode == 1
    assert "Traceback" not in result.stderr and "error[RK104]" in result.stderr


def test_a_ten_megabyte_file_is_refused_cleanly(tmp_path):
    big = tmp_path / "big.rules"
    big.write_bytes(b"entity e { key id field id text }\n" * 300_000)
    assert big.stat().st_size > 10_000_000
    result = run("compile", str(big))
    assert result.returncode == 1
    assert "error[RK105]: file is 9.7 MiB (10,200,000 bytes)" in result.stderr and "Traceback" not in result.stderr


TOKENS = sorted(keywords().values()) + ["{", "}", ",", ".", "=", "x", "order", '"s"', "12",
                                        "15m", "-1", "#c\n", "\n", '"{a}"', "\x00", "é"]


def _compile_bytes_in_process(data: bytes, tmp_path: Path, capsys) -> None:
    path = tmp_path / "fuzz.rules"
    path.write_bytes(data)
    code = main(["compile", str(path)])
    captured = capsys.readouterr()
    assert code in (0, 1), captured.err
    assert "internal error" not in captured.err and "Traceback" not in captured.err
    if code == 1:
        assert "error[RK" in captured.err


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=300))
def test_any_bytes_give_diagnostics_never_a_crash(tmp_path, capsys, data):
    _compile_bytes_in_process(data, tmp_path, capsys)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(TOKENS), max_size=60))
def test_random_token_streams_give_diagnostics_never_a_crash(tmp_path, capsys, tokens):
    _compile_bytes_in_process(" ".join(tokens).encode(), tmp_path, capsys)


@pytest.mark.parametrize("ruleset", sorted((ROOT / "rulesets").glob("*.rules")), ids=lambda p: p.name)
def test_every_truncation_of_a_shipped_ruleset_is_handled(ruleset, tmp_path, capsys):
    data = ruleset.read_bytes()
    step = max(1, len(data) // 60)
    for cut in range(0, len(data), step):
        _compile_bytes_in_process(data[:cut], tmp_path, capsys)


CHECK_ROWS = {"order": [{"id": "ord_1", "shipped_at": "2026-07-29T23:40:00Z",
                         "estimated_delivery": "2026-08-05", "line_count": 3,
                         "total_minor": 129900, "status": "SHIPPED", "weight_kg": 4.23,
                         "updated_at": "2026-11-30T12:00:00Z", "delivery_postcode": "10115"}]}


def _check_files(tmp_path, ship_date: str):
    rows = tmp_path / "rows.json"
    rows.write_text(json.dumps(CHECK_ROWS))
    reply = tmp_path / "reply.json"
    reply.write_text(json.dumps({
        "answer_template": "Your order {order_id} is {status}.",
        "claims": [{"key": "order_id", "type": "identifier", "entity": "order",
                    "entity_id": "ord_1", "field": "id", "value": "ord_1"},
                   {"key": "status", "type": "enum", "entity": "order", "entity_id": "ord_1",
                    "field": "status", "value": ship_date}]}))
    return str(rows), str(reply)


def test_check_prints_the_decision_and_exits_0_whatever_it_is(tmp_path, capsys):
    rows, reply = _check_files(tmp_path, "dispatched")
    args = ["check", str(ROOT / "rulesets" / "orders.rules"), "--reply", reply, "--rows", rows,
            "--now", "2026-11-30T12:05:00Z", "--input", "postcode=10115", "--format", "json"]
    assert main(args) == 0
    decision = json.loads(capsys.readouterr().out)
    assert decision["decision"] == "answer"
    assert decision["text"] == "Your order ord_1 is shipped."
    rows, reply = _check_files(tmp_path, "cancelled")
    assert main(args[:3] + [reply] + args[4:]) == 0
    decision = json.loads(capsys.readouterr().out)
    assert decision["decision"] == "regenerate" and decision["text"] is None
    assert decision["unsupported_claims"] == ["status"]


def test_check_text_format_shows_the_claims_table(tmp_path, capsys):
    rows, reply = _check_files(tmp_path, "dispatched")
    assert main(["check", str(ROOT / "rulesets" / "orders.rules"), "--reply", reply, "--rows",
                 rows, "--now", "2026-11-30T12:05:00Z", "--input", "postcode=10115"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^status +order:ord_1#status +\"dispatched\" +\"SHIPPED\" +confirmed$", out, re.M)
    assert "decision: answer" in out


def test_check_exit_codes_for_rules_and_usage_errors(tmp_path, capsys):
    rows, reply = _check_files(tmp_path, "dispatched")
    bad = tmp_path / "bad.rules"
    bad.write_text("ruleset bad {\n")
    assert main(["check", str(bad), "--reply", reply, "--rows", rows]) == 1
    assert main(["check", str(ROOT / "rulesets" / "orders.rules"), "--reply", reply,
                 "--rows", rows, "--now", "yesterday"]) == 2
    assert main(["check", str(ROOT / "rulesets" / "orders.rules"), "--reply", reply,
                 "--db", "oracle://x/y"]) == 2
    with pytest.raises(SystemExit) as usage:
        main(["check", str(ROOT / "rulesets" / "orders.rules"), "--reply", reply])
    assert usage.value.code == 2


@pytest.mark.parametrize("flags, says", [
    (["--input", "postcde=1"], "--input postcde: the ruleset 'orders' declares no input "
     "'postcde'; did you mean 'postcode'? declared inputs: postcode"),
    (["--attempt", "0"], "--attempt 0: attempts count from 1"),
    (["--attempt", "-2"], "--attempt -2: attempts count from 1"),
    (["--now", "2026-11-30T12:05:00"], "--now '2026-11-30T12:05:00' has no time zone; add Z "
     "(UTC) or an offset such as +01:00"),
], ids=["unknown-input", "attempt-0", "attempt-negative", "now-without-zone"])
def test_check_usage_errors_name_the_flag_and_the_fix(tmp_path, capsys, flags, says):
    """Each was once accepted silently: an input the rules never read, an attempt 0 that is
    not a first try, a --now read as UTC whatever the writer meant."""
    rows, reply = _check_files(tmp_path, "dispatched")
    capsys.readouterr()
    assert main(["check", str(ROOT / "rulesets" / "orders.rules"), "--reply", reply, "--rows",
                 rows, "--now", "2026-11-30T12:05:00Z", "--input", "postcode=10115",
                 *flags]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"rulekit: {says}\n"


def test_check_names_the_ruleset_without_inputs(tmp_path, capsys):
    rules = tmp_path / "tiny.rules"
    rules.write_text(GOOD)
    rows, reply = _check_files(tmp_path, "dispatched")
    assert main(["check", str(rules), "--reply", reply, "--rows", rows, "--input", "a=1"]) == 2
    assert "the ruleset 'tiny' declares no inputs" in capsys.readouterr().err


def test_schema_prints_the_reply_schema_from_rules_or_an_artifact(tmp_path, capsys):
    from jsonschema import Draft202012Validator

    from rulekit.schema import reply_schema

    rules = str(ROOT / "rulesets" / "orders.rules")
    assert main(["schema", rules]) == 0
    printed = json.loads(capsys.readouterr().out)
    Draft202012Validator.check_schema(printed)
    assert printed["$schema"].endswith("/draft/2020-12/schema")
    assert main(["compile", rules, "--out", str(tmp_path)]) == 0
    capsys.readouterr()
    artifact = str(tmp_path / "orders.policy.json")
    assert main(["schema", artifact, "--flavor", "openai", "--form", "slots"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == reply_schema(rulekit_load(rules), "openai", "slots")
    assert "$schema" not in printed


def test_schema_exit_codes(tmp_path, capsys):
    bad = tmp_path / "bad.rules"
    bad.write_text("ruleset bad {\n")
    assert main(["schema", str(bad)]) == 1
    assert "error[RK103]" in capsys.readouterr().err
    for usage in (["schema"], ["schema", str(ROOT / "rulesets" / "orders.rules"), "--flavor",
                                "gemini"],
                  ["schema", str(ROOT / "rulesets" / "orders.rules"), "--form", "prose"]):
        with pytest.raises(SystemExit) as exit_:
            main(usage)
        assert exit_.value.code == 2


def rulekit_load(path: str):
    import rulekit

    return rulekit.load(path)


def test_test_on_a_folder_of_rulesets_without_tests_fails_but_is_no_usage_error(tmp_path, capsys):
    (tmp_path / "good.rules").write_text(GOOD)
    assert main(["test", str(tmp_path)]) == 1
    assert f"no tests file beside it: write {tmp_path / 'good.tests.yaml'}" in \
        capsys.readouterr().out     # each ruleset's missing tests file is a problem


# --- check: inputs and rows are never silently coerced ------------------------------------------

def _check_with(tmp_path, capsys, *flags: str, rows_text: str | None = None):
    rows, reply = _check_files(tmp_path, "dispatched")
    if rows_text is not None:
        Path(rows).write_bytes(rows_text.encode("utf-8"))
    capsys.readouterr()
    code = main(["check", str(ROOT / "rulesets" / "orders.rules"), "--reply", reply, "--rows",
                 rows, "--now", "2026-11-30T12:05:00Z", "--format", "json", *flags])
    out, err = capsys.readouterr()
    return code, out, err, rows


def test_check_an_input_given_twice_is_a_usage_error_naming_it(tmp_path, capsys):
    """`--input postcode=10115 --input postcode=99999` used the last one: which of the two the
    user gave is a guess."""
    code, out, err, _ = _check_with(tmp_path, capsys, "--input", "postcode=10115",
                                    "--input", "postcode=99999")
    assert code == 2 and out == ""
    assert err == ("rulekit: --input postcode is given twice ('10115', then '99999'); give "
                   "each input once\n")


@pytest.mark.parametrize("rows_text, says", [
    ('{"order": [{"id": "ord_1", "total_minor": 99900, "total_minor": 129900}]}',
     "duplicate key `total_minor` at $.order[0]"),
    ('{"order": [{"id": "ord_1", "weight_kg": NaN}]}', "NaN at $.order[0].weight_kg"),
    ('{"order": [{"id": "ord_1", "weight_kg": 1e400}]}', "1e400 at $.order[0].weight_kg is out "
     "of range"),
])
def test_check_rows_json_cannot_be_trusted_with_is_a_usage_error(tmp_path, capsys, rows_text,
                                                                 says):
    code, out, err, rows = _check_with(tmp_path, capsys, "--input", "postcode=10115",
                                       rows_text=rows_text)
    assert code == 2 and out == ""
    assert err.startswith(f"rulekit: {rows}: ") and says in err, err


def test_check_rows_with_a_byte_order_mark_are_read(tmp_path, capsys):
    code, out, err, _ = _check_with(tmp_path, capsys, "--input", "postcode=10115",
                                    rows_text="\ufeff" + json.dumps(CHECK_ROWS))
    assert code == 0 and json.loads(out)["decision"] == "answer", err


@pytest.mark.parametrize("rows_text, says", [
    ("{not json", ":1:2: invalid JSON: Expecting property name"),
    ('{"order": 5}', "$.order: a table must be a list of rows, not a number"),
])
def test_check_rows_that_do_not_parse_keep_their_message(tmp_path, capsys, rows_text, says):
    code, out, err, rows = _check_with(tmp_path, capsys, rows_text=rows_text)
    assert code == 2 and err.startswith(f"rulekit: {rows}") and says in err, err


def test_python_dash_m_rulekit_runs_the_command(tmp_path):
    result = subprocess.run([sys.executable, "-m", "rulekit", "compile", str(tmp_path)],
                            cwd=ROOT, capture_output=True, text=True, timeout=120,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert result.returncode == 2 and "no .rules files under" in result.stderr


def test_check_question_holds_an_assent_to_the_record(tmp_path, capsys):
    """--question is check(question=...): "Yes, the {name} is." to "Is the OLED TV still
    $899?" agrees with a price the record does not hold; to "$1,299?" it is answered."""
    rows = tmp_path / "rows.json"
    rows.write_text(json.dumps({"product": [
        {"sku": "TV-55", "name": "OLED TV", "price": 129900, "warranty_years": 2,
         "ship_days": 5, "updated_at": "2026-12-01T20:55:00Z"}]}))
    reply = tmp_path / "reply.json"
    reply.write_text(json.dumps({"answer_template": "Yes, the {name} is.", "claims": [
        {"key": "name", "type": "text", "entity": "product", "entity_id": "TV-55",
         "field": "name", "value": "OLED TV"}]}))
    args = ["check", str(ROOT / "tests/cases/claims/said.rules"), "--reply", str(reply),
            "--rows", str(rows), "--now", "2026-12-01T21:00:00Z", "--format", "json"]
    assert main(args + ["--question", "Is the OLED TV still $899?"]) == 0
    decision = json.loads(capsys.readouterr().out)
    assert decision["decision"] == "regenerate"
    assert "agrees with '$899' in the question" in decision["reasons"][0]["message"]
    assert main(args + ["--question", "Is the OLED TV still $1,299?"]) == 0
    assert json.loads(capsys.readouterr().out)["decision"] == "answer"
