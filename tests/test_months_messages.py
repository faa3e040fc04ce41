"""A number that is the year or the month of a date the evidence holds is said to be one, not a
name (the case files compare codes, not messages)."""

from rulekit.audit import audit

NOW = "2026-12-01T15:00:00+00:00"
MONTH = {"report": {"month": "2026-11", "posts": 14}}
DAY = {"order": {"date": "2026-11-05", "total": 40}}


def _message(text: str, evidence: dict) -> str:
    (finding,) = audit(text, evidence, now=NOW).findings
    return finding.message


def test_the_year_of_a_stored_month_said_as_a_count_is_named_as_its_year() -> None:
    assert _message("It got 2026 views.", MONTH) == (
        "2026 is the year of the date '2026-11' the evidence holds, a date part, not a quantity")


def test_the_month_of_a_stored_month_said_as_a_count_is_named_as_its_month() -> None:
    assert _message("You posted 11 times.", MONTH) == (
        "11 is the month of the date '2026-11' the evidence holds, a date part, not a quantity")


def test_the_year_of_a_stored_day_said_as_a_count_is_named_as_a_year() -> None:
    assert _message("You placed a total of 2026 orders.", DAY) == (
        "2026 is the year of a date the evidence holds, a date part, not a quantity")
