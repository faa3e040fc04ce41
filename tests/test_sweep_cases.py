"""rulekit.audit / rulekit.sweep: behaviour cases from tests/cases/sweep/*.yaml.

One file per rule of the sweep (rule01_same_value.yaml ... rule11_untrusted.yaml) plus
notation.yaml, reader.yaml, question_history.yaml, decisions.yaml, seeds.yaml and
records.yaml (the rows of a ruleset's entities: hidden fields, freshness, money in minor
units). A file::

    evidence: {...}                  # the file's default evidence: a JSON-like value or a
                                     # text document (a string); a case may override it
    rules: analytics.rules           # optional, relative to rulesets/; default: no rules file
                                     # (the built-in defaults of rulekit.audit)
    locale: en_GB                    # optional: the file's default locale (default: none given
                                     # to audit, i.e. the ruleset's, else en_US)
    now: "2026-11-30T12:00:00Z"      # optional: when rows are judged against their freshness
                                     # budgets (default: the current time)
    cases:
      - note: why this case exists   # required; its slug is the test id: file.yaml:<slug>
        text: "..."                  # required: the free text to audit
        ...input and want_* keys below...

Input keys of a case (all optional but note and text):

    evidence        replaces the file's evidence (a mapping, a list or a text document)
    rules           replaces the file's rules file; null for no rules file
    question        the user's question (may be echoed in quotes, never licenses anything)
    history         earlier turns (never evidence)
    locale          how numbers and dates are read (en_GB, de_DE, zh_CN...)
    attempt         1 for a first answer (default), 2 after one regeneration...
    slot_values     values code put into slots (licensed)
    now             replaces the file's now
    inputs          what the user gave, {postcode: "10115"} (audit's inputs=)
    xfail           "<precise reason>": a known bug in rulekit; the case must fail (strict)

Expectations (a case needs at least one):

    want_decision           answer | regenerate | refuse | ask | handoff | fallback
    want_findings           the exact list of findings, in the order audit returns them; each
                            a mapping with any of kind, text, value, start, end, code, input
                            (the keys given are compared, the others are not)
    want_codes              the exact list of finding codes, in order
    want_none: true         no findings at all
    want_feedback_contains  a string or a list of strings the feedback to the model contains
    want_feedback_excludes  a string or a list of strings it does not contain
    want_message_contains   a string or a list of strings the refusal/ask message contains
    want_span: [start, end] some finding has exactly this span of the original text

Invariants checked on every case, whatever it wants: every finding's text is
``text[start:end]`` and findings come in text order; the decision is ``answer`` exactly when
there are no findings; a regenerate's feedback names at most 8 items (and says "and N more"
when there were more); ``AuditResult.to_dict()`` is plain JSON.

The loader rejects a case with no note, no text, no want_* key, an unknown key, a want_* of the
wrong shape, a duplicate id, or an unquoted YAML date.

The CLI batch path runs once over every case without a rules file: one JSONL of all of them
through ``rulekit audit --jsonl`` (``rulekit.cli.main``), which must give one result per line, in
order, with the same decision and issues as the library given the same inputs (the batch
format carries no attempt or slot values, so the library run for the comparison has none
either). A malformed line in a batch is refused with an ``input_error`` issue and the batch
goes on.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import json
import re
from pathlib import Path
from typing import Any

import caseload
import pytest
import yaml

import rulekit
from rulekit.audit import AuditResult, audit
from rulekit.cli import main as cli_main

CASES = Path(__file__).parent / "cases" / "sweep"
RULESETS = Path(__file__).parent.parent / "rulesets"

FILE_KEYS = {"evidence", "rules", "locale", "now", "cases"}
INPUT_KEYS = {"note", "text", "evidence", "rules", "question", "history", "locale", "attempt",
              "slot_values", "now", "inputs", "xfail"}
WANT_KEYS = {"want_decision", "want_findings", "want_codes", "want_none",
             "want_feedback_contains", "want_feedback_excludes", "want_message_contains",
             "want_span"}
FINDING_KEYS = {"kind", "text", "value", "start", "end", "code", "input"}
DECISIONS = {"answer", "regenerate", "refuse", "ask", "handoff", "fallback"}
CODES = {"unsupported_number", "rounded", "placeholder", "untrusted_source", "name_digits",
         "small_integer", "count_out_of_range", "computed_multiple", "unsupported_date",
         "relative_date", "unsupported_quote", "unsupported_handle", "unsupported_email",
         "unsupported_url", "input_error", "stale", "hidden_field", "misattributed",
         "missing_input", "unapproved_shape", "direction_control", "unsupported_label",
         "contradicted"}
EXPECTED_FILES = {"rule01_same_value.yaml", "rule02_arithmetic.yaml",
                  "rule03_small_integers.yaml", "rule04_name_digits.yaml", "rule05_counts.yaml",
                  "rule06_placeholders.yaml", "rule07_quotes.yaml", "rule08_handles.yaml",
                  "rule09_urls.yaml", "rule10_dates.yaml", "rule11_untrusted.yaml",
                  "notation.yaml", "reader.yaml", "question_history.yaml", "decisions.yaml",
                  "seeds.yaml", "records.yaml", "rule12_amounts.yaml",
                  "cjk_words.yaml", "english_words.yaml", "clock_times.yaml", "currencies.yaml",
                  "european_words.yaml", "zones_and_ranges.yaml", "words_more.yaml",
                  "figures_more.yaml", "dates_more.yaml", "stock_and_quotes.yaml",
                   "table_units.yaml", "scan_gaps.yaml", "inputs.yaml", "prose_guarded.yaml",
                   "two_inputs.yaml", "feedback.yaml", "labels.yaml",
                   "booleans.yaml"}


# --- loading -----------------------------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def policy(name: str | None) -> rulekit.Policy | None:
    return None if name is None else rulekit.load(RULESETS / name)


def slug(note: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", note.lower()).strip("-")[:80]


def check_plain(value: Any, where: str) -> None:
    """JSON-like values only: PyYAML turns an unquoted 2026-07-29 into a date, and on/yes/no
    keys into booleans; evidence is JSON."""
    if isinstance(value, (dt.date, dt.datetime)):
        raise ValueError(f"{where}: {value!r} is a YAML date; quote it")
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise ValueError(f"{where}: key {key!r} is not a string (quote it)")
            check_plain(item, f"{where}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            check_plain(item, f"{where}[{index}]")


def _strings(value: Any, where: str, key: str) -> None:
    if isinstance(value, str):
        return
    if not (isinstance(value, list) and value and all(isinstance(v, str) for v in value)):
        raise ValueError(f"{where}: {key} is a string or a list of strings")


def check_case(case: Any, where: str) -> None:
    """Raise ValueError for a case that asserts nothing, has no note, or carries a key the
    runner does not know (a typo would silently assert nothing)."""
    caseload.check_basics(case, where, INPUT_KEYS, WANT_KEYS)
    if not isinstance(case.get("text"), str):
        raise ValueError(f"{where}: a case needs a text (a string)")
    if "xfail" in case and not (isinstance(case["xfail"], str) and case["xfail"].strip()):
        raise ValueError(f"{where}: xfail needs a reason")
    if "attempt" in case and (not isinstance(case["attempt"], int) or case["attempt"] < 1):
        raise ValueError(f"{where}: attempt is a whole number from 1")
    for key in ("question", "locale"):
        if key in case and not isinstance(case[key], str):
            raise ValueError(f"{where}: {key} is a string")
    if "history" in case and not isinstance(case["history"], list):
        raise ValueError(f"{where}: history is a list of turns")
    if "slot_values" in case and not isinstance(case["slot_values"], list):
        raise ValueError(f"{where}: slot_values is a list")
    if "inputs" in case and not isinstance(case["inputs"], dict):
        raise ValueError(f"{where}: inputs is a mapping of input names to what the user gave")
    if "rules" in case and case["rules"] is not None and not isinstance(case["rules"], str):
        raise ValueError(f"{where}: rules is a file name under rulesets/ or null")
    for key in ("evidence", "history", "slot_values", "inputs"):
        if key in case:
            check_plain(case[key], f"{where}.{key}")
    if "want_decision" in case and case["want_decision"] not in DECISIONS:
        raise ValueError(f"{where}: want_decision {case['want_decision']!r} is not one of "
                         f"{sorted(DECISIONS)}")
    if "want_none" in case and case["want_none"] is not True:
        raise ValueError(f"{where}: want_none is `true` or absent")
    if "want_none" in case and ("want_findings" in case or "want_codes" in case):
        raise ValueError(f"{where}: want_none contradicts want_findings / want_codes")
    if "want_codes" in case:
        codes = case["want_codes"]
        if not isinstance(codes, list) or not codes or set(codes) - CODES:
            raise ValueError(f"{where}: want_codes is a non-empty list of finding codes "
                             f"({sorted(CODES)})")
    if "want_findings" in case:
        findings = case["want_findings"]
        if not isinstance(findings, list) or not findings:
            raise ValueError(f"{where}: want_findings is a non-empty list (use want_none)")
        for index, finding in enumerate(findings):
            if not isinstance(finding, dict) or not finding or set(finding) - FINDING_KEYS:
                raise ValueError(f"{where}: want_findings[{index}] is a mapping of some of "
                                 f"{sorted(FINDING_KEYS)}")
            if "code" in finding and finding["code"] not in CODES:
                raise ValueError(f"{where}: want_findings[{index}]: unknown code "
                                 f"{finding['code']!r}")
    if "want_span" in case:
        span = case["want_span"]
        if not (isinstance(span, list) and len(span) == 2 and all(isinstance(i, int) for i in span)
                and 0 <= span[0] <= span[1] <= len(case["text"])):
            raise ValueError(f"{where}: want_span is [start, end] inside the text")
    for key in ("want_feedback_contains", "want_feedback_excludes", "want_message_contains"):
        if key in case:
            _strings(case[key], where, key)


@dataclasses.dataclass
class Case:
    id: str
    file: str
    text: str
    evidence: Any
    rules: str | None
    question: str | None
    history: list | None
    locale: str | None
    attempt: int
    slot_values: list
    now: dt.datetime | None
    inputs: dict | None
    wants: dict
    xfail: str | None


def load_file(path: Path) -> list[Case]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    where = path.name
    if not isinstance(data, dict) or set(data) - FILE_KEYS or "cases" not in data:
        raise ValueError(f"{where}: a case file is a mapping of {sorted(FILE_KEYS)} "
                         "(cases required)")
    if not isinstance(data["cases"], list) or not data["cases"]:
        raise ValueError(f"{where}: cases is a non-empty list")
    check_plain(data.get("evidence"), f"{where}.evidence")
    file_rules = data.get("rules")
    policy(file_rules)
    out, seen = [], set()
    for index, case in enumerate(data["cases"]):
        check_case(case, f"{where}: cases[{index}]")
        case_id = f"{where}:{slug(case['note'])}"
        if case_id in seen:
            raise ValueError(f"{where}: cases[{index}]: duplicate id {case_id}")
        seen.add(case_id)
        if "evidence" not in case and "evidence" not in data:
            raise ValueError(f"{case_id}: no evidence (neither the file's nor the case's)")
        rules = case["rules"] if "rules" in case else file_rules
        policy(rules)
        out.append(Case(
            id=case_id, file=where, text=case["text"],
            evidence=case["evidence"] if "evidence" in case else data["evidence"],
            rules=rules, question=case.get("question"), history=case.get("history"),
            locale=case.get("locale", data.get("locale")), attempt=case.get("attempt", 1),
            slot_values=case.get("slot_values", []),
            now=_instant(case.get("now", data.get("now")), f"{case_id}: now"),
            inputs=case.get("inputs"),
            wants={k: v for k, v in case.items() if k in WANT_KEYS}, xfail=case.get("xfail")))
    return out


def _instant(text: Any, where: str) -> dt.datetime | None:
    if text is None:
        return None
    try:
        return dt.datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    except ValueError:
        raise ValueError(f"{where}: {text!r} is not an ISO 8601 instant "
                         "(2026-11-30T12:00:00Z)") from None


def load_cases() -> list[Case]:
    cases = []
    for path in sorted(CASES.glob("*.yaml")):
        cases.extend(load_file(path))
    return cases


CASES_LOADED = load_cases()


def _param(case: Case):
    marks = [pytest.mark.xfail(reason=case.xfail, strict=True)] if case.xfail else []
    return pytest.param(case, id=case.id, marks=marks)


# --- running -----------------------------------------------------------------------------------

def run(case: Case) -> AuditResult:
    return audit(case.text, case.evidence, policy=policy(case.rules), question=case.question,
                 history=case.history, locale=case.locale, slot_values=case.slot_values,
                 attempt=case.attempt, now=case.now, inputs=case.inputs)


def describe(result: AuditResult) -> str:
    return "\n".join(f"  {f.code} {f.text!r} value={f.value!r} [{f.start}:{f.end}]"
                     for f in result.findings) or "  (no findings)"


def check_invariants(case: Case, result: AuditResult) -> None:
    findings = result.findings
    for finding in findings:
        if finding.code != "input_error":
            assert case.text[finding.start:finding.end] == finding.text, finding
    assert [(f.start, f.end) for f in findings] == sorted((f.start, f.end) for f in findings)
    decision = result.decision
    assert (decision.decision == "answer") == (not findings), describe(result)
    if decision.decision == "answer":
        assert decision.text == case.text
    if decision.decision == "regenerate":
        items = list(dict.fromkeys(f.text for f in findings))
        feedback = decision.feedback or ""
        assert feedback
        named = [item for item in items[:8] if item in feedback]
        assert len(named) == min(len(items), 8), feedback
        if len(items) > 8:
            assert f"and {len(items) - 8} more" in feedback, feedback
    json.dumps(result.to_dict())


def _as_list(value: Any) -> list[str]:
    return [value] if isinstance(value, str) else list(value)


def check_wants(case: Case, result: AuditResult) -> None:
    wants = case.wants
    findings = result.findings
    shown = describe(result)
    if "want_decision" in wants:
        assert result.decision.decision == wants["want_decision"], shown
    if wants.get("want_none"):
        assert not findings, shown
    if "want_codes" in wants:
        assert [f.code for f in findings] == wants["want_codes"], shown
    if "want_findings" in wants:
        got = [{k: getattr(f, k) for k in want} for f, want in zip(findings, wants["want_findings"])]
        assert len(findings) == len(wants["want_findings"]) and got == wants["want_findings"], shown
    if "want_span" in wants:
        assert tuple(wants["want_span"]) in {(f.start, f.end) for f in findings}, shown
    feedback = result.decision.feedback or ""
    for part in _as_list(wants.get("want_feedback_contains", [])):
        assert part in feedback, feedback
    for part in _as_list(wants.get("want_feedback_excludes", [])):
        assert part not in feedback, feedback
    message = result.decision.message or ""
    for part in _as_list(wants.get("want_message_contains", [])):
        assert part in message, message


@pytest.mark.parametrize("case", [_param(c) for c in CASES_LOADED])
def test_case(case: Case) -> None:
    result = run(case)
    check_invariants(case, result)
    check_wants(case, result)


# --- the corpus itself -------------------------------------------------------------------------

def test_corpus_shape() -> None:
    """Every expected file exists; the corpus is large enough; every file has cases that flag
    and cases that pass (the pass twins)."""
    files = {case.file for case in CASES_LOADED}
    assert EXPECTED_FILES <= files, sorted(EXPECTED_FILES - files)
    assert len(CASES_LOADED) >= 320
    for name in EXPECTED_FILES:
        mine = [c for c in CASES_LOADED if c.file == name]
        flags = [c for c in mine if c.wants.get("want_findings") or c.wants.get("want_codes")
                 or c.wants.get("want_decision") in ("regenerate", "refuse")]
        passes = [c for c in mine if c.wants.get("want_none")
                  or c.wants.get("want_decision") == "answer"]
        assert flags and passes, name


@pytest.mark.parametrize("bad, message", [
    ({"text": "x", "want_none": True}, "needs a note"),
    ({"note": "  ", "text": "x", "want_none": True}, "needs a note"),
    ({"note": "n", "text": "x"}, "want_"),
    ({"note": "n", "text": "x", "want_none": True, "wanted": 1}, "unknown keys"),
    ({"note": "n", "text": "x", "want_decison": "answer"}, "unknown keys"),
    ({"note": "n", "want_none": True}, "needs a text"),
    ({"note": "n", "text": "x", "want_decision": "maybe"}, "want_decision"),
    ({"note": "n", "text": "x", "want_codes": ["made_up"]}, "want_codes"),
    ({"note": "n", "text": "x", "want_findings": [{"colour": "red"}]}, "want_findings"),
    ({"note": "n", "text": "x", "want_span": [0, 9]}, "want_span"),
    ({"note": "n", "text": "x", "want_none": True, "xfail": ""}, "xfail"),
    ({"note": "n", "text": "x", "want_none": True, "evidence": {"d": dt.date(2026, 1, 1)}},
     "YAML date"),
    ({"note": "n", "text": "x", "want_none": True, "evidence": {True: 1}}, "not a string"),
    ({"note": "n", "text": "x", "want_none": True, "want_codes": ["placeholder"]},
     "contradicts"),
    ({"note": "n", "text": "x", "want_none": True, "inputs": ["postcode"]}, "inputs is a mapping"),
])
def test_loader_rejects(bad: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        check_case(bad, "test")


def test_loader_rejects_duplicate_ids(tmp_path: Path) -> None:
    path = tmp_path / "dup.yaml"
    path.write_text(yaml.safe_dump({"evidence": {}, "cases": [
        {"note": "Same note", "text": "a", "want_none": True},
        {"note": "same note!", "text": "b", "want_none": True}]}), encoding="utf-8")
    with pytest.raises(ValueError, match="duplicate id"):
        load_file(path)


# --- the CLI batch path ------------------------------------------------------------------------

def _batch(tmp_path: Path, lines: list[str], capsys) -> list[dict]:
    path = tmp_path / "batch.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    capsys.readouterr()
    assert cli_main(["audit", "--jsonl", str(path)]) == 0
    out = capsys.readouterr().out
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def test_cli_batch_matches_library(tmp_path: Path, capsys) -> None:
    """Every case without a rules file, as one JSONL batch: one result per line, in order,
    with the library's decision and issues for the same inputs."""
    cases = [c for c in CASES_LOADED if c.rules is None]
    assert len(cases) > 200
    lines = []
    for case in cases:
        line = {"id": case.id, "evidence": case.evidence, "text": case.text}
        if case.question is not None:
            line["question"] = case.question
        if case.history is not None:
            line["history"] = case.history
        if case.locale is not None:
            line["locale"] = case.locale
        if case.inputs is not None:
            line["inputs"] = case.inputs
        lines.append(json.dumps(line, ensure_ascii=False))
    results = _batch(tmp_path, lines, capsys)
    assert len(results) == len(cases)
    for case, got in zip(cases, results):
        want = audit(case.text, case.evidence, question=case.question, history=case.history,
                     locale=case.locale, inputs=case.inputs)
        assert got["id"] == case.id
        assert got["decision"] == want.decision.decision, case.id
        wanted = json.loads(json.dumps([f.to_dict() for f in want.findings]))
        if [i["code"] for i in wanted] == ["input_error"]:     # a refused input names its line
            wanted[0]["message"] = f"line {len(lines[:cases.index(case)]) + 1}: " \
                                   f"{wanted[0]['message']}"
        assert got["issues"] == wanted, case.id


def test_cli_batch_malformed_line_is_refused_and_the_batch_goes_on(tmp_path: Path, capsys):
    good = json.dumps({"id": "good", "evidence": {"views": 2380}, "text": "It had 2,380 views."})
    bad_number = json.dumps({"id": "bad", "evidence": {"views": 2380},
                             "text": "It had 3,100 views."})
    lines = [good, "{this is not json", bad_number, "[1, 2]",
             json.dumps({"id": "no-text", "evidence": {}}),
             json.dumps({"id": "text-not-string", "evidence": {}, "text": 5}), good]
    results = _batch(tmp_path, lines, capsys)
    assert [r["decision"] for r in results] == ["answer", "refuse", "regenerate", "refuse",
                                                "refuse", "refuse", "answer"]
    for index in (1, 3, 4, 5):
        issues = results[index]["issues"]
        assert len(issues) == 1 and issues[0]["code"] == "input_error", results[index]
        assert issues[0]["message"]
    assert results[4]["id"] == "no-text" and results[5]["id"] == "text-not-string"
    assert results[2]["issues"][0]["text"] == "3,100"


def test_cli_batch_unknown_locale_line_is_refused_and_the_batch_goes_on(tmp_path, capsys):
    good = json.dumps({"id": "good", "evidence": {"views": 2380}, "text": "2,380 views"})
    odd = json.dumps({"id": "odd", "evidence": {"views": 2380}, "text": "2,380 views",
                      "locale": "xx_XX"})
    results = _batch(tmp_path, [good, odd, good], capsys)
    assert [r["decision"] for r in results] == ["answer", "refuse", "answer"]
    assert results[1]["issues"][0]["code"] == "input_error"
