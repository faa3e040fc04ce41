"""`rulekit audit`: the command line of the sweep.

    rulekit audit --evidence FILE --text FILE [--question TEXT] [--locale L]
                  [--format text|json] [--rules RULES]
    rulekit audit --jsonl FILE                (the batch path: tests/test_sweep_cases.py)

Exit codes: 0 for any decision (answer, regenerate, refuse); 1 when --rules does not compile;
2 for a usage error (a missing --text or --evidence, an unreadable file, JSON evidence that does
not parse, a --text over 1,000,000 characters, an --evidence over 50 MiB, an unknown flag or
format, --jsonl mixed with --evidence/--text). The JSON output is
``{decision, issues: [{kind, text, value, start, end, code, message, input}], result: {...}}``.

The commands run in-process through ``rulekit.cli.main`` (argparse's own usage errors raise
SystemExit, caught here); one test also runs the real process to see its exit status.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from rulekit.cli import main

RULESETS = Path(__file__).parent.parent / "rulesets"
EVIDENCE = {
    "post": {"views": 2380, "likes": 96, "engagement_rate": 4.6,
             "url": "https://threads.example/@mindthread/post/82"},
    "order": {"shipped_on": "2026-08-05"},
    "review": {"rating": 4},
}
ISSUE_KEYS = {"kind", "text", "value", "start", "end", "code", "message", "input"}


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    """Run `rulekit ARGV` in-process: (exit code, stdout, stderr)."""
    capsys.readouterr()
    try:
        code = main(argv)
    except SystemExit as exit_:        # argparse's usage errors
        code = exit_.code if isinstance(exit_.code, int) else 2
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def files(tmp_path: Path):
    """Write the evidence and a text; return a function making the argv of one audit."""
    evidence = tmp_path / "evidence.json"
    evidence.write_text(json.dumps(EVIDENCE), encoding="utf-8")

    def make(text: str, *extra: str, evidence_path: Path | None = None) -> list[str]:
        path = tmp_path / "answer.txt"
        path.write_text(text, encoding="utf-8")
        return ["audit", "--evidence", str(evidence_path or evidence), "--text", str(path),
                *extra]

    make.tmp = tmp_path
    return make


def as_json(out: str) -> dict:
    data = json.loads(out)
    assert set(data) >= {"decision", "issues"}
    for issue in data["issues"]:
        assert set(issue) == ISSUE_KEYS, issue
    return data


# --- output formats ----------------------------------------------------------------------------

def test_json_shape_of_a_finding(files, capsys):
    code, out, _ = run(files("Your post had 3,100 views.", "--format", "json"), capsys)
    assert code == 0
    data = as_json(out)
    assert data["decision"] == "regenerate"
    assert data["issues"] == [{
        "kind": "number", "text": "3,100", "value": "3100", "start": 14, "end": 19,
        "code": "unsupported_number", "message": data["issues"][0]["message"], "input": None}]
    assert "3,100" in data["issues"][0]["message"]
    result = data["result"]
    assert result["decision"] == "regenerate"
    assert "3,100" in result["feedback"]
    assert result["unsupported_claims"] == ["3,100"]
    assert [r["code"] for r in result["reasons"]] == ["unsupported_number"]
    assert result["reasons"][0]["path"] == "text[14:19]"
    assert result["ruleset"]["name"] == "builtin"


def test_json_of_a_faithful_answer(files, capsys):
    text = "Your post had 2,380 views, 96 likes and a 4.6% engagement rate."
    code, out, _ = run(files(text, "--format", "json"), capsys)
    assert code == 0
    data = as_json(out)
    assert data == {**data, "decision": "answer", "issues": []}
    assert data["result"]["text"] == text


def test_json_keeps_non_ascii_text(files, capsys):
    code, out, _ = run(files("这篇帖子的浏览量是平均的七倍。", "--format", "json"), capsys)
    assert code == 0
    assert "七倍" in out                 # not \\u escapes
    data = as_json(out)
    assert [(i["kind"], i["code"], i["text"], i["value"]) for i in data["issues"]] == [
        ("multiple", "computed_multiple", "七倍", "7")]


def test_json_spans_point_into_the_original_text(files, capsys):
    text = "Views: **2,4**80 and 1&#44;299 and \u200b3\u200b100."
    code, out, _ = run(files(text, "--format", "json"), capsys)
    assert code == 0
    for issue in as_json(out)["issues"]:
        assert text[issue["start"]:issue["end"]] == issue["text"]


def test_text_format_lists_findings_then_the_decision(files, capsys):
    code, out, _ = run(files("Your post had 3,100 views and @someone liked it."), capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("14-19  unsupported_number")
    assert "'3,100'" in lines[0]
    assert lines[1].startswith("30-38  unsupported_handle")
    assert "decision: regenerate" in lines
    assert any(line.startswith("feedback for the model: These items from your last answer "
                               "are not in the data: 3,100, @someone.") for line in lines)


def test_text_format_is_the_default_and_shows_an_answer(files, capsys):
    code, out, _ = run(files("Your post had 2,380 views."), capsys)
    assert code == 0
    assert out.splitlines() == ["decision: answer", "text: Your post had 2,380 views."]


def test_text_from_stdin(files, capsys, monkeypatch):
    argv = files("unused")
    argv[argv.index("--text") + 1] = "-"
    monkeypatch.setattr(sys, "stdin", io.StringIO("Your post had 3,100 views."))
    code, out, _ = run(argv + ["--format", "json"], capsys)
    assert code == 0
    assert as_json(out)["issues"][0]["text"] == "3,100"


def test_evidence_that_is_not_json_is_a_text_document(files, capsys):
    document = files.tmp / "evidence.txt"
    document.write_text("Our BT-3 speaker ships within 5 days.", encoding="utf-8")
    code, out, _ = run(files("The BT-3 ships in 3 days.", "--format", "json",
                             evidence_path=document), capsys)
    assert code == 0
    assert [(i["code"], i["text"]) for i in as_json(out)["issues"]] == [("name_digits", "3")]
    code, out, _ = run(files("The BT-3 ships in 5 days.", "--format", "json",
                             evidence_path=document), capsys)
    assert as_json(out)["decision"] == "answer"


# --- --question and --locale -------------------------------------------------------------------

def test_question_may_be_quoted_back(files, capsys):
    text = 'You asked "did my post get 5000 views?" It had 2,380.'
    code, out, _ = run(files(text, "--format", "json",
                             "--question", "Did my post get 5000 views?"), capsys)
    assert code == 0 and as_json(out)["decision"] == "answer"
    code, out, _ = run(files(text, "--format", "json"), capsys)
    assert [i["code"] for i in as_json(out)["issues"]] == ["unsupported_quote"]


def test_question_never_makes_a_claim_true(files, capsys):
    code, out, _ = run(files("Your post got 5000 views.", "--format", "json",
                             "--question", "Did my post get 5000 views?"), capsys)
    assert code == 0
    assert [(i["code"], i["text"]) for i in as_json(out)["issues"]] == [
        ("unsupported_number", "5000")]


@pytest.mark.parametrize("locale, decision", [("en_GB", "answer"), ("en_US", "regenerate")])
def test_locale_reads_numeric_dates(files, capsys, locale, decision):
    code, out, _ = run(files("It shipped on 05/08/2026.", "--format", "json",
                             "--locale", locale), capsys)
    assert code == 0
    assert as_json(out)["decision"] == decision


def test_locale_reads_separators(files, capsys):
    code, out, _ = run(files("Es hatte 2.380 Aufrufe.", "--format", "json", "--locale", "de_DE"),
                       capsys)
    assert code == 0 and as_json(out)["decision"] == "answer"
    code, out, _ = run(files("Es hatte 2.380 Aufrufe.", "--format", "json"), capsys)
    assert as_json(out)["issues"][0]["value"] == "2.380"


# --- --rules -----------------------------------------------------------------------------------

def test_rules_change_what_passes(files, capsys):
    text = "A reviewer rated it 4 out of 5."
    code, out, _ = run(files(text, "--format", "json"), capsys)
    assert code == 0 and as_json(out)["decision"] == "answer"
    code, out, _ = run(files(text, "--format", "json",
                             "--rules", str(RULESETS / "analytics.rules")), capsys)
    assert code == 0
    data = as_json(out)
    assert data["decision"] == "regenerate"
    assert [i["text"] for i in data["issues"]] == ["5"]
    assert data["result"]["ruleset"]["name"] == "analytics"


def test_rules_allow_rounding_for_a_field(files, capsys, tmp_path):
    evidence = tmp_path / "golf.json"
    evidence.write_text(json.dumps({"round_stats": {"round_id": "r5", "fairway_pct": 64.29}}),
                        encoding="utf-8")
    argv = files("You hit 64% of fairways.", "--format", "json", evidence_path=evidence)
    code, out, _ = run(argv, capsys)
    assert code == 0 and [i["code"] for i in as_json(out)["issues"]] == ["rounded"]
    code, out, _ = run(argv + ["--rules", str(RULESETS / "golf.rules")], capsys)
    assert code == 0 and as_json(out)["decision"] == "answer"


def test_now_judges_the_rows_freshness(files, capsys, tmp_path):
    """A price from a catalogue row 10 minutes old passes shop's 15-minute budget; the same
    row judged 20 minutes later is stale, and shop refuses a stale figure."""
    evidence = tmp_path / "shop.json"
    evidence.write_text(json.dumps({"products": [{
        "sku": "RC-500", "name": "Navy raincoat", "price": 129900, "stock": 7,
        "updated_at": "2026-11-30T11:50:00Z"}]}), encoding="utf-8")
    argv = files("The Navy raincoat is $1,299.00.", "--format", "json", "--rules",
                 str(RULESETS / "shop.rules"), evidence_path=evidence)
    code, out, _ = run(argv + ["--now", "2026-11-30T12:00:00Z"], capsys)
    assert code == 0 and as_json(out)["decision"] == "answer"
    code, out, _ = run(argv + ["--now", "2026-11-30T12:10:00Z"], capsys)
    data = as_json(out)
    assert code == 0 and data["decision"] == "refuse"
    assert [(i["code"], i["text"]) for i in data["issues"]] == [("stale", "$1,299.00")]
    code, _, err = run(argv + ["--now", "noon"], capsys)
    assert code == 2 and "--now 'noon' is not an ISO 8601 time" in err


def test_rules_written_here_change_the_sweep(files, capsys, tmp_path):
    """A rules file's `sweep` block changes each default: rounding for a field, small integers
    narrowed (limit and contexts), a field marked untrusted, a placeholder value, an exemption."""
    rules = tmp_path / "mine.rules"
    rules.write_text(
        'ruleset mine {\n  version "1"\n  locale en_US\n}\n\n'
        "entity post {\n  key id\n\n  field id identifier\n  field views integer\n"
        "  field engagement_rate decimal percent\n  field notes text\n"
        "  field author_title text\n}\n\n"
        "prose free\n\n"
        "sweep {\n  small integers up to 10 as ordinal\n"
        "  rounding allowed for post.engagement_rate\n"
        "  untrusted post.notes\n  authoritative post.author_title\n"
        '  exempt "24/7"\n  placeholder 999\n}\n\n'
        "on stray_figure regenerate max 1 naming 8 then refuse \"No.\"\n"
        "on otherwise refuse \"No.\"\n", encoding="utf-8")
    code, _, err = run(["compile", str(rules)], capsys)
    assert code == 0, err
    evidence = tmp_path / "posts.json"
    evidence.write_text(json.dumps({"post": {
        "id": "p1", "views": 2380, "engagement_rate": 4.62, "notes": "we hit 5400 views",
        "shares": 999, "text": "Top 40 under 40"}}), encoding="utf-8")
    checks = [("Engagement was 4.6%.", "regenerate", "answer"),        # rounding allowed
              ("Engagement was 4.62%.", "answer", "answer"),
              ("Your top 3 posts had 2,380 views.", "answer", "regenerate"),   # no rank
              ("Your 3rd post had 2,380 views.", "answer", "answer"),
              ("Your 11th post had 2,380 views.", "answer", "regenerate"),  # limit 10
              ("Your post hit 5,400 views.", "answer", "regenerate"),  # untrusted post.notes
              ("Support is open 24/7.", "regenerate", "answer")]       # exempt "24/7"
    for text, default, mine in checks:
        argv = files(text, "--format", "json", evidence_path=evidence)
        code, out, _ = run(argv, capsys)
        assert code == 0 and as_json(out)["decision"] == default, text
        code, out, _ = run(argv + ["--rules", str(rules)], capsys)
        assert code == 0 and as_json(out)["decision"] == mine, (text, out)


def test_rules_numeric_placeholder_licenses_nothing(files, capsys, tmp_path):
    rules = tmp_path / "mine.rules"
    rules.write_text(
        'ruleset mine {\n  version "1"\n  locale en_US\n}\n\n'
        "entity post {\n  key id\n\n  field id identifier\n  field shares integer\n}\n\n"
        "prose free\n\nsweep {\n  placeholder 999\n}\n\n"
        'on otherwise refuse "No."\n', encoding="utf-8")
    evidence = tmp_path / "posts.json"
    evidence.write_text(json.dumps({"post": {"id": "p1", "shares": 999}}), encoding="utf-8")
    code, out, _ = run(files("It was shared 999 times.", "--format", "json", "--rules",
                             str(rules), evidence_path=evidence), capsys)
    assert code == 0
    assert [i["code"] for i in as_json(out)["issues"]] == ["placeholder"]


def test_rules_as_a_compiled_artifact(files, capsys, tmp_path):
    out_dir = tmp_path / "compiled"
    code, _, err = run(["compile", str(RULESETS / "analytics.rules"), "--out", str(out_dir)],
                       capsys)
    assert code == 0, err
    artifact = out_dir / "analytics.policy.json"
    code, out, _ = run(files("A reviewer rated it 4 out of 5.", "--format", "json",
                             "--rules", str(artifact)), capsys)
    assert code == 0
    data = as_json(out)
    assert data["decision"] == "regenerate"
    assert data["result"]["ruleset"]["name"] == "analytics"


def test_rules_that_do_not_compile_exit_1(files, capsys, tmp_path):
    broken = tmp_path / "broken.rules"
    broken.write_text("ruleset broken {\n", encoding="utf-8")
    code, out, err = run(files("Your post had 2,380 views.", "--rules", str(broken)), capsys)
    assert code == 1
    assert out == ""
    assert "broken.rules" in err


def test_rules_file_that_does_not_exist_exits_1(files, capsys, tmp_path):
    code, out, err = run(files("Your post had 2,380 views.",
                               "--rules", str(tmp_path / "missing.rules")), capsys)
    assert code == 1
    assert out == "" and err


def test_rules_do_not_compile_in_a_batch_exits_1(capsys, tmp_path):
    broken = tmp_path / "broken.rules"
    broken.write_text("entity {", encoding="utf-8")
    batch = tmp_path / "cases.jsonl"
    batch.write_text(json.dumps({"id": 1, "evidence": {}, "text": "x"}) + "\n", encoding="utf-8")
    code, out, _ = run(["audit", "--jsonl", str(batch), "--rules", str(broken)], capsys)
    assert code == 1 and out == ""


# --- exit codes --------------------------------------------------------------------------------

@pytest.mark.parametrize("text, decision", [
    ("Your post had 2,380 views.", "answer"),
    ("Your post had 3,100 views.", "regenerate"),
])
def test_exit_0_for_any_decision(files, capsys, text, decision):
    code, out, _ = run(files(text, "--format", "json"), capsys)
    assert code == 0 and as_json(out)["decision"] == decision


def test_exit_0_for_a_refusal_in_a_batch(capsys, tmp_path):
    batch = tmp_path / "cases.jsonl"
    batch.write_text("{not json\n", encoding="utf-8")
    code, out, _ = run(["audit", "--jsonl", str(batch)], capsys)
    assert code == 0
    assert json.loads(out)["decision"] == "refuse"


def test_exit_0_and_regenerate_under_rules_on_a_first_attempt(files, capsys):
    """The CLI has no --attempt: a first attempt is never refused for a stray figure."""
    code, out, _ = run(files("Your post had 3,100 views.", "--format", "json",
                             "--rules", str(RULESETS / "shop.rules")), capsys)
    assert code == 0 and as_json(out)["decision"] == "regenerate"


@pytest.mark.parametrize("argv_of", [
    lambda f, t: ["audit", "--evidence", f],                          # no --text
    lambda f, t: ["audit", "--text", t],                              # no --evidence
    lambda f, t: ["audit"],                                           # nothing
    lambda f, t: ["audit", "--evidence", f, "--text", t + ".missing"],
    lambda f, t: ["audit", "--evidence", f + ".missing", "--text", t],
    lambda f, t: ["audit", "--evidence", f, "--text", t, "--format", "xml"],
    lambda f, t: ["audit", "--evidence", f, "--text", t, "--bogus"],
    lambda f, t: ["audit", "--evidence", f, "--text", t, "--jsonl", t],
    lambda f, t: ["audit", "--jsonl", t + ".missing"],
], ids=["no-text", "no-evidence", "nothing", "text-missing", "evidence-missing", "bad-format",
        "unknown-flag", "jsonl-and-text", "jsonl-missing"])
def test_usage_errors_exit_2(files, capsys, argv_of):
    argv = files("Your post had 2,380 views.")
    evidence, text = argv[2], argv[4]
    code, out, err = run(argv_of(evidence, text), capsys)
    assert code == 2
    assert out == ""
    assert err.strip()


def test_text_that_is_not_utf8_is_a_usage_error(files, capsys):
    argv = files("x")
    Path(argv[4]).write_bytes(b"\xff\xfe views")
    code, out, err = run(argv, capsys)
    assert code == 2 and out == "" and "cannot read" in err


def test_unknown_locale_is_a_usage_error(files, capsys):
    code, out, err = run(files("Your post had 2,380 views.", "--locale", "xx_XX"), capsys)
    assert code == 2
    assert "internal error" not in err


def test_evidence_nested_too_deep_is_not_an_internal_error(files, capsys, tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    code, _, err = run(files("Your post had 2,380 views.", evidence_path=deep), capsys)
    assert code in (0, 2)
    assert "internal error" not in err


def test_real_process_exit_codes(files, tmp_path):
    """The installed entry point, as a shell sees it."""
    def status(*argv: str) -> int:
        return subprocess.run([sys.executable, "-m", "rulekit.cli", *argv], capture_output=True,
                              text=True, timeout=120).returncode

    argv = files("Your post had 3,100 views.")
    assert status(*argv) == 0
    assert status("audit", "--evidence", argv[2]) == 2
    assert status(*argv, "--format", "yaml") == 2
    broken = tmp_path / "broken.rules"
    broken.write_text("ruleset broken {\n", encoding="utf-8")
    assert status(*argv, "--rules", str(broken)) == 1


def test_the_demo_answers_decide_as_their_titles_say():
    """rulekit demo sweeps the example answers of rulesets/examples/analytics.json: the
    faithful one must be answered, and each of the others breaks a rule and must not be."""
    from rulekit.audit import audit
    from rulekit.compile import compile_file
    from rulekit.sweep import SweepSettings

    root = Path(__file__).resolve().parent.parent / "rulesets"
    result = compile_file(root / "analytics.rules")
    assert result.policy is not None, result.diagnostics
    data = json.loads((root / "examples" / "analytics.json").read_text("utf-8"))
    evidence = SweepSettings.from_policy(result.policy).index(data["evidence"], "en_US")
    for case in data["answers"]:
        audited = audit(case["text"], evidence, policy=result.policy,
                        question=data.get("question"))
        if case["title"].startswith("faithful"):
            assert audited.decision.decision == "answer", (case, audited.findings)
        else:
            assert audited.decision.decision != "answer" and audited.findings, case


# --- reading --evidence and --text: a usage error names the flag, the file and what is wrong ---

def test_truncated_json_evidence_is_a_usage_error_at_its_line_and_column(files, capsys):
    """A .json file that does not parse was once read as a text document, so a truncated
    export licensed its own digits as prose; it must stop the run, where the JSON breaks."""
    broken = files.tmp / "broken.json"
    broken.write_text('{"post": {"views": 2380,\n  "likes": 9', encoding="utf-8")
    code, out, err = run(files("Your post had 2,380 views.", evidence_path=broken), capsys)
    assert code == 2 and out == ""
    assert f"--evidence {broken}:2:13: not valid JSON" in err
    assert "internal error" not in err


@pytest.mark.parametrize("content", ['{"views": 2380', '[1, 2,', '  {views: 2380}'])
def test_evidence_that_starts_like_json_must_parse_whatever_its_name(files, capsys, content):
    document = files.tmp / "evidence.txt"
    document.write_text(content, encoding="utf-8")
    code, out, err = run(files("Your post had 2,380 views.", evidence_path=document), capsys)
    assert code == 2 and out == ""
    assert f"--evidence {document}:1:" in err and "not valid JSON" in err


def test_json_evidence_with_a_byte_order_mark_is_json(files, capsys):
    marked = files.tmp / "marked.json"
    marked.write_bytes(b"\xef\xbb\xbf" + json.dumps({"posts": [{"id": "a"}, {"id": "b"}]}
                                                      ).encode())
    code, out, _ = run(files("You published 2 posts.", evidence_path=marked), capsys)
    assert code == 0 and "decision: answer" in out      # a list's length: read as JSON


@pytest.mark.parametrize("flag", ["--evidence", "--text"])
@pytest.mark.parametrize("kind, says", [("missing", "No such file or directory"),
                                        ("folder", "is a folder"),
                                        ("binary", "not UTF-8 text")])
def test_an_unreadable_input_names_its_flag_and_path(files, capsys, flag, kind, says):
    argv = files("Your post had 2,380 views.")
    bad = files.tmp / f"bad-{kind}"
    if kind == "folder":
        bad.mkdir()
    elif kind == "binary":
        bad.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe\x00")
    argv[argv.index(flag) + 1] = str(bad)
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    assert err.startswith(f"rulekit: cannot read {flag} {bad}: ") and says in err, err


def test_text_over_the_cap_is_a_usage_error_naming_size_and_cap(files, capsys):
    from rulekit.reply import MAX_REPLY_CHARS

    argv = files("1 " * (MAX_REPLY_CHARS // 2 + 1))
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    assert f"--text {argv[4]} is more than 1,000,000 characters" in err
    assert "the limit is 1,000,000" in err
    assert f"{MAX_REPLY_CHARS:,}" == "1,000,000"
    argv = files("views " * (MAX_REPLY_CHARS // 6))             # at the cap: audited
    code, _, _ = run(argv, capsys)
    assert code == 0


def test_text_over_the_cap_from_stdin(files, capsys, monkeypatch):
    argv = files("x")
    argv[4] = "-"
    monkeypatch.setattr(sys, "stdin", io.StringIO("x" * 1_000_001))
    code, out, err = run(argv, capsys)
    assert code == 2 and "--text standard input is more than 1,000,000 characters" in err


def test_a_batch_case_over_the_cap_is_refused_and_the_batch_goes_on(capsys, tmp_path):
    batch = tmp_path / "cases.jsonl"
    batch.write_text(json.dumps({"id": "big", "evidence": {}, "text": "x" * 1_000_001}) + "\n"
                     + json.dumps({"id": "ok", "evidence": {"views": 5}, "text": "5 views"})
                     + "\n", encoding="utf-8")
    code, out, _ = run(["audit", "--jsonl", str(batch)], capsys)
    big, ok = (json.loads(line) for line in out.splitlines())
    assert code == 0 and (big["decision"], ok["decision"]) == ("refuse", "answer")
    assert "the limit is 1,000,000" in big["issues"][0]["message"]


def test_evidence_cap_is_documented_as_50_mib():
    from rulekit import cli

    assert cli.MAX_EVIDENCE_BYTES == 50 * 1024 * 1024
    assert "50 MiB (52,428,800 bytes)" in (Path(__file__).parent.parent / "docs" / "cli.md"
                                           ).read_text(encoding="utf-8")


def test_evidence_over_the_cap_is_a_usage_error_naming_flag_size_and_cap(files, capsys,
                                                                         monkeypatch):
    from rulekit import cli

    monkeypatch.setattr(cli, "MAX_EVIDENCE_BYTES", 1000)
    big = files.tmp / "big.json"
    big.write_text(json.dumps({"rows": ["x" * 990]}), encoding="utf-8")
    assert big.stat().st_size == 1004
    code, out, err = run(files("Your post had 2,380 views.", evidence_path=big), capsys)
    assert code == 2 and out == ""
    assert err.startswith(f"rulekit: --evidence {big} is 1,004 bytes; the limit is 1,000 bytes")
    at_cap = files.tmp / "at_cap.json"
    at_cap.write_text(json.dumps({"views": 2380, "pad": "x" * 974}), encoding="utf-8")
    assert at_cap.stat().st_size == 1000
    code, out, _ = run(files("Your post had 2,380 views.", evidence_path=at_cap), capsys)
    assert code == 0 and "decision: answer" in out


def test_evidence_over_the_cap_from_stdin_is_read_no_further_than_the_cap(files, capsys,
                                                                          monkeypatch):
    from rulekit import cli

    monkeypatch.setattr(cli, "MAX_EVIDENCE_BYTES", 1000)
    stdin = io.TextIOWrapper(io.BytesIO(b"x" * 100_000), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", stdin)
    argv = files("Your post had 2,380 views.")
    argv[2] = "-"
    code, out, err = run(argv, capsys)
    assert code == 2 and "--evidence standard input is more than 1,000 bytes" in err
    assert stdin.buffer.tell() == 1001


# --- the batch contract: one result per line, paired by line and id ---------------------------

def _batch_out(tmp_path: Path, data: bytes | str, capsys, *extra: str) -> list[dict]:
    batch = tmp_path / "batch.jsonl"
    if isinstance(data, str):
        data = data.encode("utf-8")
    batch.write_bytes(data)
    code, out, err = run(["audit", "--jsonl", str(batch), *extra], capsys)
    assert code == 0, err
    return [json.loads(line) for line in out.splitlines()]


def _line_of(case: dict) -> str:
    return json.dumps(case) + "\n"


def test_a_blank_line_gets_its_own_refusal_so_results_pair_by_line(tmp_path, capsys):
    """Input ['', 9,999 case, 4,120 case] used to give two lines: a consumer pairing by line
    number gave the wrong case the other's answer."""
    wrong = {"id": "wrong", "evidence": {"views": 4120}, "text": "It got 9,999 views."}
    right = {"id": "right", "evidence": {"views": 4120}, "text": "It got 4,120 views."}
    results = _batch_out(tmp_path, "\n" + _line_of(wrong) + "  \n" + _line_of(right), capsys)
    assert [r["line"] for r in results] == [1, 2, 3, 4]
    assert [r["id"] for r in results] == [None, "wrong", None, "right"]
    assert [r["decision"] for r in results] == ["refuse", "regenerate", "refuse", "answer"]
    for blank in (results[0], results[2]):
        assert blank["issues"][0]["code"] == "input_error"
        assert f"line {blank['line']}: a blank line" in blank["issues"][0]["message"]


def test_every_result_echoes_its_line_number_and_keeps_the_old_fields(tmp_path, capsys):
    case = {"id": 7, "evidence": {"views": 4120}, "text": "It got 4,120 views."}
    (result,) = _batch_out(tmp_path, _line_of(case), capsys)
    assert result == {"id": 7, "line": 1, "decision": "answer", "issues": []}


@pytest.mark.parametrize("line, says", [
    ('{"evidence": {"views": 1}, "text": "1 view"}', "line 1: missing `id`"),
    ('{"id": null, "evidence": {"views": 1}, "text": "1 view"}',
     "line 1: `id` must be a string or an integer"),
    ('{"id": {"a": 1}, "evidence": {"views": 1}, "text": "1 view"}',
     "line 1: `id` must be a string or an integer"),
    ('{"id": true, "evidence": {"views": 1}, "text": "1 view"}',
     "line 1: `id` must be a string or an integer"),
    ('{"id": "d", "evidence": {"views": 1}, "text": "9 views", "text": "1 view"}',
     "line 1: duplicate key `text` at $"),
    ('{"id": "d", "evidence": {"views": 9999, "views": 1}, "text": "9,999 views"}',
     "line 1: duplicate key `views` at $.evidence"),
    ('{"id": "a", "evidence": {"views": 1}, "text": "1 view", "atempt": 2}',
     "line 1: unknown key `atempt`; a case holds `id`, `evidence`, `text`, `question`, "
     "`history`, `locale`, `now`, `attempt`"),
    ('{"id": "q", "evidence": {"views": 1}, "text": "1 view", "question": 5}',
     "line 1: `question` must be a string"),
    ('{"id": "l", "evidence": {"views": 1}, "text": "1 view", "locale": ["en_GB"]}',
     "line 1: `locale` must be a string"),
    ('{"id": "h", "evidence": {"views": 1}, "text": "1 view", "history": "hi"}',
     "line 1: `history` must be a list of earlier turns"),
    ('{"id": "n", "evidence": {"views": 1}, "text": "1 view", "now": "2026-11-30T12:00:00"}',
     "line 1: `now` '2026-11-30T12:00:00' has no time zone"),
    ('{"id": "t", "evidence": {"views": 1}, "text": "1 view", "attempt": 0}',
     "line 1: `attempt` counts from 1"),
])
def test_a_bad_case_is_refused_naming_the_line_and_what_is_wrong(tmp_path, capsys, line, says):
    (result,) = _batch_out(tmp_path, line + "\n", capsys)
    assert result["decision"] == "refuse" and result["line"] == 1
    assert [i["code"] for i in result["issues"]] == ["input_error"]
    assert says in result["issues"][0]["message"], result["issues"][0]["message"]


def test_a_refused_case_still_echoes_a_valid_id(tmp_path, capsys):
    (result,) = _batch_out(tmp_path, '{"id": "x", "evidence": {}, "text": 5}\n', capsys)
    assert (result["id"], result["decision"]) == ("x", "refuse")


def test_now_and_attempt_of_a_case_are_used(tmp_path, capsys):
    """`attempt` decides whether a stray figure regenerates or refuses; `now` judges the
    freshness of the evidence's rows, as --now does for the whole batch."""
    rules = tmp_path / "fresh.rules"
    rules.write_text('ruleset fresh {\n  version "1"\n  locale en_US\n}\n\nentity post {\n'
                     '  key id\n  fresh within 1d via updated_at\n\n  field id         identifier\n'
                     '  field views      integer\n  field updated_at timestamp hidden\n}\n\n'
                     'prose free\n\non otherwise regenerate max 1 naming 8 then refuse "No."\n',
                     encoding="utf-8")
    evidence = {"post": [{"id": "p1", "views": 4120, "updated_at": "2026-11-30T12:00:00Z"}]}
    cases = [
        {"id": "first", "evidence": evidence, "text": "It got 9,999 views."},
        {"id": "second", "evidence": evidence, "text": "It got 9,999 views.", "attempt": 2},
        {"id": "fresh", "evidence": evidence, "text": "It got 4,120 views.",
         "now": "2026-11-30T13:00:00Z"},
        {"id": "stale", "evidence": evidence, "text": "It got 4,120 views.",
         "now": "2026-12-05T13:00:00+01:00"},
    ]
    results = _batch_out(tmp_path, "".join(map(_line_of, cases)), capsys, "--rules", str(rules),
                         "--now", "2026-11-30T13:00:00Z")
    assert [r["decision"] for r in results] == ["regenerate", "refuse", "answer", "regenerate"]
    assert [i["code"] for i in results[3]["issues"]] == ["stale"]


# --- numbers: one policy for every entry point --------------------------------------------------

NOT_NUMBERS = [
    ('{"views": 4120, "ratio": NaN}', "$.ratio", "NaN"),
    ('{"views": 4120, "ratio": Infinity}', "$.ratio", "Infinity"),
    ('{"views": 4120, "ratio": -Infinity}', "$.ratio", "-Infinity"),
    ('{"views": 4120, "rows": [{"big": 1e400}]}', "$.rows[0].big", "1e400"),
    ('{"views": 4120, "big": -' + "9" * 400 + "}", "$.big", "400 digits"),
    ('{"views": 4120, "big": ' + "9" * 5000 + "}", "$.big", "5,000 digits"),
]


@pytest.mark.parametrize("evidence, path, says", NOT_NUMBERS)
def test_a_number_json_cannot_hold_in_a_batch_case_is_an_input_error(tmp_path, capsys,
                                                                      evidence, path, says):
    line = '{"id": "n", "evidence": ' + evidence + ', "text": "It got 4,120 views."}\n'
    (result,) = _batch_out(tmp_path, line, capsys)
    assert result["decision"] == "refuse" and result["issues"][0]["code"] == "input_error"
    message = result["issues"][0]["message"]
    assert message.startswith("line 1:") and says in message and "$.evidence" + path[1:] in message
    assert "set_int_max_str_digits" not in message and "Overflow" not in message


@pytest.mark.parametrize("evidence, path, says", NOT_NUMBERS)
def test_a_number_json_cannot_hold_in_evidence_is_a_usage_error(files, capsys, evidence, path,
                                                                says):
    bad = files.tmp / "bad.json"
    bad.write_text(evidence, encoding="utf-8")
    code, out, err = run(files("It got 4,120 views.", evidence_path=bad), capsys)
    assert code == 2 and out == ""
    assert f"--evidence {bad}" in err and says in err and (path or "$") in err
    assert "set_int_max_str_digits" not in err


def test_a_bom_on_the_first_line_of_a_batch_is_read_as_the_evidence_file_is(tmp_path, capsys):
    case = {"id": "first", "evidence": {"views": 4120}, "text": "It got 4,120 views."}
    results = _batch_out(tmp_path, b"\xef\xbb\xbf" + _line_of(case).encode() + _line_of(
        dict(case, id="second")).encode(), capsys)
    assert [(r["id"], r["decision"]) for r in results] == [("first", "answer"),
                                                            ("second", "answer")]


def test_a_line_that_is_not_utf8_is_refused_not_read_with_replacement_characters(tmp_path,
                                                                                  capsys):
    case = {"id": "ok", "evidence": {"views": 4120}, "text": "It got 4,120 views."}
    results = _batch_out(tmp_path, b'{"id": "bad", "evidence": {}, "text": "\xff"}\n'
                         + _line_of(case).encode(), capsys)
    assert [(r["line"], r["decision"]) for r in results] == [(1, "refuse"), (2, "answer")]
    assert "line 1: not UTF-8" in results[0]["issues"][0]["message"]


def test_a_batch_from_stdin_pairs_by_line_too(capsys, monkeypatch):
    case = {"id": "a", "evidence": {"views": 4120}, "text": "It got 4,120 views."}
    monkeypatch.setattr(sys, "stdin", io.StringIO("\ufeff" + _line_of(case) + "\n"))
    code, out, _ = run(["audit", "--jsonl", "-"], capsys)
    results = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [(r["line"], r["decision"]) for r in results] == [(1, "answer"),
                                                                           (2, "refuse")]


# --- the user's inputs: --input NAME=VALUE, and a --jsonl case's "inputs" ------------------------

POSTCODES = Path(__file__).parent / "cases" / "sweep" / "postcodes.rules"
ORDER = {"order": [{"id": "ord_88431", "weight_kg": 4.23, "updated_at": "2026-11-30T12:00:00Z",
                    "delivery_postcode": "10115"}]}
NOW = ["--now", "2026-11-30T12:05:00Z"]


@pytest.mark.parametrize("flags, decision", [
    (["--input", "postcode=10115"], "answer"),
    (["--input", "postcode=80331"], "refuse"),      # not the row's: as if there were none
    ([], "ask"),                                     # not given: ask for it
])
def test_audit_input_opens_the_rows_that_require_it(tmp_path, capsys, flags, decision):
    evidence = tmp_path / "order.json"
    evidence.write_text(json.dumps(ORDER), encoding="utf-8")
    text = tmp_path / "answer.txt"
    text.write_text("Your parcel weighs 4.23 kg.", encoding="utf-8")
    code, out, _ = run(["audit", "--rules", str(POSTCODES), "--evidence", str(evidence),
                        "--text", str(text), *NOW, "--format", "json", *flags], capsys)
    assert code == 0 and as_json(out)["decision"] == decision


@pytest.mark.parametrize("flags, says", [
    (["--rules", str(POSTCODES), "--input", "postcde=1"], "--input postcde: the ruleset "
     "'postcodes' declares no input 'postcde'; did you mean 'postcode'? declared inputs: "
     "postcode"),
    (["--input", "postcode=1"], "--input postcode: the built-in rules declare no inputs; use "
     "--rules with a ruleset that declares it, or remove the flag"),
    (["--rules", str(POSTCODES), "--input", "postcode"], "--input 'postcode' must be "
     "NAME=VALUE, e.g. --input postcode=10115"),
    (["--rules", str(POSTCODES), "--input", "postcode=1", "--input", "postcode=2"],
     "--input postcode is given twice ('1', then '2'); give each input once"),
])
def test_audit_input_usage_errors_as_for_check(files, capsys, flags, says):
    code, out, err = run(files("It had 2,380 views.", *flags), capsys)
    assert (code, out, err) == (2, "", f"rulekit: {says}\n")


def test_a_batch_case_gives_its_own_inputs_which_replace_the_flags(tmp_path, capsys):
    lines = [{"id": "flag", "evidence": ORDER, "text": "It weighs 4.23 kg."},
             {"id": "own", "evidence": ORDER, "text": "It weighs 4.23 kg.",
              "inputs": {"postcode": "80331"}},
             {"id": "none", "evidence": ORDER, "text": "It weighs 4.23 kg.", "inputs": {}},
             {"id": "typo", "evidence": ORDER, "text": "It weighs 4.23 kg.",
              "inputs": {"postcde": "10115"}},
             {"id": "list", "evidence": ORDER, "text": "It weighs 4.23 kg.",
              "inputs": ["postcode"]}]
    results = _batch_out(tmp_path, "".join(map(_line_of, lines)), capsys, "--rules",
                         str(POSTCODES), "--input", "postcode=10115", *NOW)
    assert [r["decision"] for r in results] == ["answer", "refuse", "ask", "refuse", "refuse"]
    assert "'postcde'" in results[3]["issues"][0]["message"]
    assert results[4]["issues"][0]["message"].startswith("line 5: `inputs` must be an object")
