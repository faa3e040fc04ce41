"""A field's `format` pattern: checked at compile time against the field's type (the messages
are goldens in tests/cases/compile/format_*.rules), and never a crash at check time.

- every pattern the CLDR data itself uses for dates (date fields) and date-times (timestamp
  fields) compiles without a word: the check knows babel's letters, not a guess of them;
- a timestamp field whose format shows a time, claimed as a date, is shown in that format, day
  and time from the record (the compiler warns about it, RK312); claimed as a timestamp, too;
- a policy whose pattern no compiler checked (an artifact written by an older rulekit) is
  refused in the same way: the check fails closed, it does not raise into the chatbot.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest
from babel import Locale

from rulekit.check import check
from rulekit.compile import compile_source
from rulekit.policy import Policy
from rulekit.sources import MemoryResolver

NOW = dt.datetime(2026, 12, 1, 14, 30, tzinfo=dt.timezone.utc)

RULES = '''
ruleset hotel {
  version "2026.12"
  locale en_GB
  timezone "Europe/Lisbon"
}

entity booking {
  key ref
  field ref       identifier
  field check_in  date format "%s"
  field cancel_by timestamp zone "Europe/Lisbon" format "%s"
}

shape cancel "You can cancel free of charge until {deadline}." { deadline = booking.cancel_by }
shape arrive "You arrive on {day}." { day = booking.check_in }

on otherwise refuse "I could not verify that."
'''

ROWS = {"booking": [{"ref": "BK-7731", "check_in": "2026-12-20",
                     "cancel_by": "2026-12-18T23:59:00Z"}]}


def _rules(date_format: str = "long", timestamp_format: str = "long") -> str:
    return RULES % (date_format, timestamp_format)


def _codes(date_format: str = "long", timestamp_format: str = "long") -> list[tuple[str, str]]:
    result = compile_source(_rules(date_format, timestamp_format), "hotel.rules")
    return [(d.code, d.severity) for d in result.diagnostics]


def _cancel_reply(claim_type: str, value: str) -> dict:
    return {"answer_template": "You can cancel free of charge until {deadline}.",
            "claims": [{"key": "deadline", "type": claim_type, "entity": "booking",
                        "entity_id": "BK-7731", "field": "cancel_by", "value": value}]}


def _cldr_patterns(kind: str) -> set[str]:
    found: set[str] = set()
    for name in ("en_GB", "en_US", "de_DE", "pt_PT", "ja_JP", "ar_EG", "fi_FI", "zh_Hant_TW"):
        locale = Locale.parse(name)
        formats = locale.date_formats if kind == "date" else locale.datetime_skeletons
        found.update(str(p.pattern) if hasattr(p, "pattern") else str(p)
                     for p in formats.values())
        if kind == "timestamp":
            found.update(p.pattern for p in locale.time_formats.values())
            found.update(p.pattern for p in locale.date_formats.values())
    return found


@pytest.mark.parametrize("pattern", sorted(_cldr_patterns("date")))
def test_every_cldr_date_pattern_is_a_good_date_format(pattern: str):
    assert _codes(date_format=pattern.replace('"', '\\"')) == []


# de_DE's GyMMMMEd skeleton writes the era's year as 'Y', the week-based year: on 29 December
# 2024 it shows 2025. RK312 refuses 'Y' without 'w' in an author's pattern, this one included.
WEEK_YEAR_BY_MISTAKE = {"d MMMM Y G, E"}


@pytest.mark.parametrize("pattern", sorted(_cldr_patterns("timestamp") - WEEK_YEAR_BY_MISTAKE))
def test_every_cldr_date_time_pattern_is_a_good_timestamp_format(pattern: str):
    codes = _codes(timestamp_format=pattern.replace('"', '\\"'))
    assert [c for c in codes if c[1] == "error"] == []


@pytest.mark.parametrize("pattern", sorted(WEEK_YEAR_BY_MISTAKE))
def test_a_cldr_pattern_with_the_week_year_by_mistake_is_refused(pattern: str):
    assert ("RK312", "error") in _codes(timestamp_format=pattern)


@pytest.mark.parametrize("name", ["short", "medium", "long", "full"])
def test_the_named_formats_fit_both_types_silently(name: str):
    assert _codes(name, name) == []


def test_a_time_on_a_timestamp_is_a_warning_not_an_error():
    assert _codes(timestamp_format="d MMMM yyyy 'at' HH:mm") == [("RK312", "warning")]


def test_a_time_on_a_date_is_an_error():
    assert _codes(date_format="d MMMM yyyy HH:mm") == [("RK312", "error")]


def _check(policy, reply):
    return check(policy, reply, MemoryResolver(ROWS), now=NOW)


def test_a_date_claim_on_a_timestamp_whose_format_shows_a_time_shows_the_stored_time():
    # A deadline claimed as a day is shown as the author's pattern asks, day and time, both
    # from the record: "until 18 December 2026" alone would promise the whole day.
    policy = compile_source(_rules(timestamp_format="d MMMM yyyy 'at' HH:mm"),
                            "hotel.rules").policy
    decision = _check(policy, _cancel_reply("date", "2026-12-18"))
    assert decision.decision == "answer", decision.reasons
    assert decision.text == "You can cancel free of charge until 18 December 2026 at 23:59."
    wrong = _check(policy, _cancel_reply("date", "2026-12-19"))
    assert wrong.decision != "answer"


def test_a_timestamp_claim_on_the_same_field_is_answered_in_its_format():
    policy = compile_source(_rules(timestamp_format="d MMMM yyyy 'at' HH:mm"),
                            "hotel.rules").policy
    decision = _check(policy, _cancel_reply("timestamp", "2026-12-18T23:59:00Z"))
    assert decision.decision == "answer"
    assert decision.text == "You can cancel free of charge until 18 December 2026 at 23:59."


@pytest.mark.parametrize("pattern", ["dddd", "d MMM yyyy HH:mm", "xyz", "EEEEEEE"])
def test_an_unchecked_bad_pattern_is_refused_not_raised(pattern):
    result = compile_source(_rules(), "hotel.rules")
    assert result.ok
    data = json.loads(result.policy.model_dump_json())
    for entity in data["entities"]:
        for field in entity["fields"]:
            if field["name"] == "check_in":
                field["type"]["format"] = pattern
    policy = Policy.model_validate(data)
    reply = {"answer_template": "You arrive on {day}.",
             "claims": [{"key": "day", "type": "date", "entity": "booking", "entity_id": "BK-7731",
                         "field": "check_in", "value": "2026-12-20"}]}
    decision = _check(policy, reply)
    assert decision.decision == "refuse"
    (reason,) = decision.reasons
    assert reason.code == "not_checkable", reason
    assert "check_in" in reason.message and pattern in reason.message


@pytest.mark.parametrize("stored, shown", [
    # Lisbon's clocks go back from 02:00 to 01:00 on 25 October 2026: 01:30 happens twice
    ("2026-10-25T00:30:00Z", "25 October 2026 at 01:30 WEST"),
    ("2026-10-25T01:30:00Z", "25 October 2026 at 01:30 WET"),
    ("2026-10-25T03:30:00Z", "25 October 2026 at 03:30"),    # once only: as the pattern asks
])
def test_a_time_the_clock_shows_twice_names_its_zone(stored, shown):
    # "until 25 October 2026 at 01:30" alone names two instants an hour apart
    policy = compile_source(_rules(timestamp_format="d MMMM yyyy 'at' HH:mm"),
                            "hotel.rules").policy
    rows = {"booking": [dict(ROWS["booking"][0], cancel_by=stored)]}
    decision = check(policy, _cancel_reply("timestamp", stored), MemoryResolver(rows), now=NOW)
    assert decision.decision == "answer", decision.reasons
    assert decision.text == f"You can cancel free of charge until {shown}."


def test_a_pattern_that_shows_its_zone_is_not_given_a_second_one():
    policy = compile_source(_rules(timestamp_format="d MMMM yyyy 'at' HH:mm z"),
                            "hotel.rules").policy
    rows = {"booking": [dict(ROWS["booking"][0], cancel_by="2026-10-25T00:30:00Z")]}
    decision = check(policy, _cancel_reply("timestamp", "2026-10-25T00:30:00Z"),
                     MemoryResolver(rows), now=NOW)
    assert decision.decision == "answer", decision.reasons
    assert decision.text.count("Summer Time") + decision.text.count("+01:00") \
        + decision.text.count("WEST") == 1, decision.text
