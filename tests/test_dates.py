"""rulekit.dates: behaviour cases from tests/cases/dates/*.yaml, and round trips through
babel's own date formatting."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path
from zoneinfo import ZoneInfo

import caseload
import pytest
from babel.dates import format_date, get_date_format
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit import dates
from rulekit.dates import (
    ClaimedDate,
    parse_claimed_date,
    same_instant,
    stored_day,
    stored_instant,
)

CASES = Path(__file__).parent / "cases" / "dates"
UTC = dt.timezone.utc

# The input key a case is told apart by, and every key such a case may carry. Dates and times
# are quoted strings in the YAML, so that PyYAML does not turn them into naive datetimes.
CASE_KEYS = {
    "text": {"note", "text", "locale", "naive_zone", "actual", "want_none", "want_kind",
             "want_day", "want_instant", "want_precision", "want_same"},
    "value": {"note", "value", "zone", "naive_zone", "want_day", "want_instant"},
    "value_date": {"note", "value_date", "zone", "naive_zone", "want_day", "want_instant"},
    "value_datetime": {"note", "value_datetime", "zone", "naive_zone", "want_day",
                       "want_instant"},
}
STORED_KINDS = ("value", "value_date", "value_datetime")


def _want_same_needs_actual(case: dict, where: str) -> None:
    if "want_same" in case and "actual" not in case:
        raise ValueError(f"{where}: want_same needs an actual")


def check_case(case: object, where: str) -> str:
    kind = caseload.check_case(case, where, CASE_KEYS)
    _want_same_needs_actual(case, where)
    return kind


def load_cases(*kinds: str) -> list:
    return caseload.load_cases(CASES, CASE_KEYS, kinds, extra_check=_want_same_needs_actual)


def as_day(text: str | None) -> dt.date | None:
    return None if text is None else dt.date.fromisoformat(text)


def as_instant(text: str | None) -> dt.datetime | None:
    if text is None:
        return None
    moment = dt.datetime.fromisoformat(text)
    assert moment.tzinfo is not None, f"want_instant {text!r} needs an offset"
    return moment


def test_loader_rejects_a_case_that_asserts_nothing():
    with pytest.raises(ValueError, match="want_"):
        check_case({"note": "no expectation", "text": "2026-07-29", "locale": "en_US"}, "x")
    with pytest.raises(ValueError, match="unknown keys"):
        check_case({"note": "typo", "text": "x", "locale": "en_US", "want_dya": "x"}, "x")
    with pytest.raises(ValueError, match="actual"):
        check_case({"note": "half", "text": "x", "locale": "en_US", "want_same": True}, "x")
    assert check_case({"note": "ok", "value": 1, "zone": "UTC", "want_day": None}, "x")


def test_every_case_file_loads():
    assert len(load_cases(*CASE_KEYS)) > 100


@pytest.mark.parametrize("case", load_cases("text"))
def test_parse_claimed_date(case):
    claimed = parse_claimed_date(case["text"], case["locale"], case.get("naive_zone", "UTC"))
    if case.get("want_none"):
        assert claimed is None
        return
    assert claimed is not None, case["note"]
    if claimed.kind == "date":
        assert claimed.day is not None and claimed.instant is None
        assert claimed.precision == "day"
    else:
        assert claimed.day is None and claimed.instant.utcoffset() is not None
    if "want_kind" in case:
        assert claimed.kind == case["want_kind"]
    if "want_day" in case:
        assert claimed.kind == "date" and claimed.day == as_day(case["want_day"])
    if "want_instant" in case:
        assert claimed.kind == "timestamp" and claimed.instant == as_instant(case["want_instant"])
    if "want_precision" in case:
        assert claimed.precision == case["want_precision"]
    if "want_same" in case:
        assert same_instant(claimed, as_instant(case["actual"])) is case["want_same"]


def stored_value(case: dict) -> object:
    if "value_date" in case:
        return dt.date.fromisoformat(case["value_date"])
    if "value_datetime" in case:
        return dt.datetime.fromisoformat(case["value_datetime"])
    return case["value"]


@pytest.mark.parametrize("case", load_cases(*STORED_KINDS))
def test_stored(case):
    value, naive_zone = stored_value(case), case.get("naive_zone", "UTC")
    if "want_instant" in case:
        found = stored_instant(value, naive_zone)
        assert found == as_instant(case["want_instant"])
        assert found is None or found.utcoffset() is not None
    if "want_day" in case:
        assert stored_day(value, case["zone"], naive_zone) == as_day(case["want_day"])


# --- API details the data cases cannot express ------------------------------------------------

def test_epoch_as_decimal_is_exact():
    assert stored_instant(Decimal("1785368400.000001"), "UTC") == dt.datetime(
        2026, 7, 29, 23, 40, 0, 1, tzinfo=UTC)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), 10**20, -(10**20), b"2026-07-29",
                                   dt.time(23, 40), object()])
def test_unreadable_stored_values_are_none(value):
    assert stored_instant(value, "UTC") is None
    assert stored_day(value, "UTC", "UTC") is None


def test_stored_day_reads_a_claim():
    claimed = parse_claimed_date("2026-07-29T23:40Z", "en_US")
    assert stored_day(claimed, "Europe/Berlin", "UTC") == dt.date(2026, 7, 30)
    assert stored_day(parse_claimed_date("29 July 2026", "en_GB"), "Asia/Tokyo", "UTC") == \
        dt.date(2026, 7, 29)


def test_same_instant_refuses_a_naive_actual():
    claimed = parse_claimed_date("2026-07-29T23:40Z", "en_US")
    with pytest.raises(ValueError, match="aware"):
        same_instant(claimed, dt.datetime(2026, 7, 29, 23, 40))


def test_unknown_zone_and_locale_raise():
    with pytest.raises(ValueError, match="zone"):
        stored_day("2026-07-29T23:40Z", "Mars/Olympus", "UTC")
    with pytest.raises(ValueError, match="locale"):
        parse_claimed_date("2026-07-29", "xx_NOPE")


def test_claimed_date_is_frozen():
    claimed = parse_claimed_date("2026-07-29", "en_US")
    assert claimed == ClaimedDate("date", dt.date(2026, 7, 29), None, "day")
    with pytest.raises(AttributeError):
        claimed.day = dt.date(2026, 7, 30)


@pytest.mark.parametrize("value", [None, 20260729, b"2026-07-29", "x" * 1000])
def test_parse_claimed_date_takes_only_short_text(value):
    assert parse_claimed_date(value, "en_US") is None


# --- round trips through babel ----------------------------------------------------------------

ROUND_TRIP_LOCALES = ("en_US", "en_GB", "de_DE")
WIDTHS = ("short", "medium", "long", "full")


@settings(max_examples=200, deadline=None)
@given(data=st.data(), locale=st.sampled_from(ROUND_TRIP_LOCALES), width=st.sampled_from(WIDTHS))
def test_format_date_round_trips(data, locale, width):
    pattern = get_date_format(width, locale=locale).pattern
    if "yy" in pattern and "yyy" not in pattern:     # a two-digit year: 20yy by our rule
        days = st.dates(dt.date(2000, 1, 1), dt.date(2099, 12, 31))
    else:
        days = st.dates(dt.date(1000, 1, 1), dt.date(9999, 12, 31))
    day = data.draw(days)
    text = format_date(day, width, locale=locale)
    claimed = parse_claimed_date(text, locale)
    assert claimed is not None, text
    assert claimed.kind == "date" and claimed.day == day, text


ZONES = ("UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe",
         "Pacific/Chatham")
instants = st.datetimes(dt.datetime(1971, 1, 1), dt.datetime(2099, 12, 31),
                        timezones=st.sampled_from(ZONES).map(ZoneInfo))


# Compared in UTC: Python never finds a ZoneInfo datetime in a repeated (fall-back) hour equal
# to one in another zone (PEP 495), which is why rulekit.dates hands out fixed offsets.
def in_utc(moment: dt.datetime) -> dt.datetime:
    return moment.astimezone(UTC)


@settings(max_examples=200, deadline=None)
@given(moment=instants, zone=st.sampled_from(ZONES))
def test_isoformat_round_trips(moment, zone):
    text = moment.isoformat()
    claimed = parse_claimed_date(text, "en_US")
    assert claimed is not None and claimed.instant == in_utc(moment), text
    assert claimed.instant.utcoffset() == moment.utcoffset()
    assert claimed.precision == ("microsecond" if moment.microsecond else "second")
    assert same_instant(claimed, moment.astimezone(ZoneInfo(zone)))
    assert not same_instant(claimed, moment + dt.timedelta(seconds=1))
    assert stored_instant(text, "UTC") == in_utc(moment)
    # Unix seconds are believed only from 1990 up to 2100 (a number outside is something else)
    believed = dates.EPOCH_FIRST <= moment.timestamp() < dates.EPOCH_END
    assert stored_instant(moment.timestamp(), "UTC") == (in_utc(moment) if believed else None)
    assert stored_instant(moment, "UTC").tzinfo is UTC
    assert stored_day(text, zone, "UTC") == moment.astimezone(ZoneInfo(zone)).date()


@settings(max_examples=100, deadline=None)
@given(moment=instants, zone=st.sampled_from(ZONES))
def test_naive_times_read_in_naive_zone(moment, zone):
    local = in_utc(moment).astimezone(ZoneInfo(zone))
    wall = local.replace(tzinfo=None, fold=0)
    claimed = parse_claimed_date(wall.isoformat(), "en_US", naive_zone=zone)
    if local.fold:      # the second pass of a repeated hour: a naive time means the first
        assert claimed.instant < in_utc(moment)
    else:
        assert claimed.instant == in_utc(moment)
        assert stored_instant(wall, zone) == in_utc(moment)


@settings(max_examples=200, deadline=None)
@given(moment=instants)
def test_minute_claim_covers_its_minute(moment):
    claimed = parse_claimed_date(moment.strftime("%Y-%m-%dT%H:%M%z"), "en_US")
    assert claimed.precision == "minute"
    assert claimed.instant == in_utc(moment).replace(second=0, microsecond=0)
    assert same_instant(claimed, moment)
    assert not same_instant(claimed, moment + dt.timedelta(minutes=1))


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet=st.sampled_from("0123456789/.-: ,TZ+julyJULYmarthsdeof年月日"),
                    max_size=24),
       locale=st.sampled_from(ROUND_TRIP_LOCALES + ("fr_FR", "ja_JP")))
def test_never_raises(text, locale):
    claimed = parse_claimed_date(text, locale)
    assert claimed is None or (claimed.day is None) != (claimed.instant is None)
