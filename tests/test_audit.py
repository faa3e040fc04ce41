"""``rulekit.audit``'s readings of a finding come from its fields, never from the words of its
message: which input a ``missing_input`` asks for (``Finding.input``), and whether the retry
feedback repeats a finding's reason (``Finding.absent``). The sweep's real findings, one case
per way each is made, are in tests/cases/sweep/feedback.yaml and two_inputs.yaml."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

import rulekit
from rulekit.audit import audit, decide, feedback
from rulekit.findings import Finding

CASES = Path(__file__).parent / "cases" / "sweep"
ROOT = Path(__file__).resolve().parent.parent
# Every code a finding of free text can carry (the sweep's, binding's, `prose guarded`'s).
CODES = ("unsupported_number", "rounded", "placeholder", "untrusted_source", "name_digits",
         "small_integer", "count_out_of_range", "computed_multiple", "unsupported_date",
         "relative_date", "unsupported_quote", "unsupported_handle", "unsupported_email",
         "unsupported_url", "stale", "hidden_field", "misattributed", "missing_input",
         "unsupported_label", "contradicted")
# Words that once decided the feedback, each put where it would mislead a reading of them.
SAYS_ABSENT = "3,100 is not in the evidence"
SAYS_WHY = "3,100 is said including tax; the evidence holds 3100 before tax"


@pytest.mark.parametrize("code", CODES)
def test_feedback_explains_a_finding_by_its_fields_not_its_words(code):
    held = Finding("number", "3,100", "3100", 8, 13, code, SAYS_ABSENT, absent=False)
    assert f"\n- 3,100: {SAYS_ABSENT}" in feedback([held], 8)
    unheld = Finding("number", "3,100", "3100", 8, 13, code, SAYS_WHY, absent=True)
    told = feedback([unheld], 8)
    assert "not in the data: 3,100." in told and "\n- " not in told


def test_a_phrase_is_never_explained_whatever_its_fields():
    phrase = Finding("phrase", "usually", "usually", 0, 7, "unapproved_shape", SAYS_WHY)
    assert "\n- " not in feedback([phrase], 8)


@pytest.mark.parametrize("asked, action", [("postcode", "ask_for_postcode"),
                                           ("surname", "ask_for_surname")])
def test_missing_input_asks_for_the_input_the_finding_names(asked, action):
    policy = rulekit.load(CASES / "two_inputs.rules")
    # the message names the other input, and no input in the words the old reading looked for
    other = "surname" if asked == "postcode" else "postcode"
    finding = Finding("number", "4.23", "4.23", 18, 22, "missing_input",
                      f"4.23 needs {other}; once the user has given {other}, which was not given",
                      input=asked)
    decision = decide(policy, "Your order weighs 4.23 kg.", [finding], 1)
    assert (decision.decision, decision.next_action) == ("ask", action)


def test_a_finding_built_without_the_new_fields_names_no_input_and_is_explained():
    finding = Finding("number", "3,100", "3100", 8, 13, "unsupported_number", SAYS_WHY)
    assert finding.input is None and finding.absent is False
    assert finding.to_dict()["input"] is None and "absent" not in finding.to_dict()


@pytest.mark.parametrize("attempt, named", [(0, "attempt 0: attempts count from 1"),
                                            (-1, "attempt -1: attempts count from 1"),
                                            ("2", "attempt must be a whole number"),
                                            (True, "attempt must be a whole number"),
                                            (1.5, "attempt must be a whole number")])
def test_an_attempt_that_does_not_count_from_1_is_an_input_error(attempt, named):
    """As `rulekit audit --attempt 0` and a JSONL line's `attempt: 0` are refused: an attempt 0
    chose no action the ruleset wrote (``regenerate max 1`` then decided on attempt 0)."""
    from rulekit.stream import StreamGate

    result = audit("It had 4 views.", {"views": 5}, attempt=attempt)
    assert result.decision.decision == "refuse" and not result.decision.delivered
    assert [f.code for f in result.findings] == ["input_error"]
    assert named in result.findings[0].message
    gate = StreamGate(None, {"views": 5}, attempt=attempt)
    assert gate.stopped and gate.feed("It had 5 views.") == "" and gate.released == ""
    assert [f.code for f in gate.findings] == ["input_error"] and named in gate.findings[0].message
    decision = rulekit.check(rulekit.load(ROOT / "rulesets" / "shop.rules"),
                             {"answer_template": "Hello.", "claims": []}, {"product": []},
                             attempt=attempt)
    assert decision.decision == "refuse" and [r.code for r in decision.reasons] == ["input_error"]
    assert named in decision.reasons[0].message


@pytest.mark.parametrize("attempt", [1, 2, 3])
def test_an_attempt_counting_from_1_is_taken(attempt):
    result = audit("It had 5 views.", {"views": 5}, attempt=attempt)
    assert result.decision.decision == "answer" and result.decision.attempt == attempt


# --- rows as database drivers return them ------------------------------------------------------

@pytest.mark.parametrize("stored", [
    dt.datetime(2026, 11, 30, 10, 0, tzinfo=dt.timezone.utc),   # psycopg TIMESTAMPTZ
    dt.datetime(2026, 11, 30, 10, 0),                           # PyMySQL DATETIME
    dt.date(2026, 11, 30),                                      # DATE
])
def test_a_date_or_datetime_object_in_the_rows_backs_its_day_as_its_iso_text_does(stored):
    """Rows handed to audit as PostgreSQL and MariaDB drivers return them hold datetime and
    date objects: each is read as its ISO text is (the claims channel reads them too), so it
    backs its day and nothing else."""
    rows = {"orders": [{"id": "ORD-0012", "shipped_at": stored}]}
    as_json = json.loads(json.dumps(rows, default=lambda value: value.isoformat()))
    for evidence in (rows, as_json):
        said = rulekit.audit("Your order ORD-0012 shipped on 30 November 2026.", evidence)
        assert said.decision.decision == "answer", said.findings
        other = rulekit.audit("Your order ORD-0012 shipped on 29 November 2026.", evidence)
        assert other.decision.decision != "answer"
