"""Reading a date or a timestamp a human or a model wrote, and normalising stored ones.

A claim is either about a calendar day (``2026-07-29``, ``29 July 2026``, ``05/08/2026``) or
about an instant (``2026-07-29T23:40Z``, ``29 July 2026 23:40``); ``parse_claimed_date`` says
which, and how precisely the instant was stated. The two are compared differently: a day claim
against ``stored_day`` (an instant read as a calendar day in the field's zone: 23:40 UTC on the
29th is the 30th in Berlin), an instant claim with ``same_instant`` at the claim's own precision.

What is accepted, after NFKC (fullwidth digits) and with any decimal digits (Arabic-Indic,
Devanagari) read as ASCII:

- ISO 8601: ``2026-07-29``, ``2026-07-29T23:40``, ``...:00``, ``...:00.123456``, with ``Z``, an
  offset (``+02:00``, ``+0200``, ``+02``) or naive; a space may stand for the ``T``; an offset
  no zone has (beyond -12:00 or +14:00) makes no instant: "2026-09-09 14:00-18:00" is a day
  and a range of hours, None here (the free-text scanner also reads "2026-09-09 09:00-11:00"
  so, ``hour_range``);
- numeric dates in the locale's order, learnt from babel's short date pattern (``05/08/2026`` is
  5 August in en_GB and 8 May in en_US; ``29.07.2026`` in de_DE); a four-digit first field is
  always year-month-day; a two-digit year is 20yy; separators ``/ . -``;
- a month by name, in English or the locale, wide or abbreviated (``29 July 2026``,
  ``July 29, 2026``, ``Jul 29 2026``, ``29. Juli 2026``, ``the 29th of July 2026``), with an
  optional weekday, which must then be the right one; the year must have four digits;
- ``2026年7月29日`` and ``2026년 7월 29일``;
- any of the dates followed by a time: ``, 23:40``, ``at 11:40 pm``, ``23:40:05 UTC``,
  ``23:40 +02:00``.

A time without a zone is read in ``naive_zone``; a wall time that does not exist there (inside a
DST gap) is None, an ambiguous one (DST overlap) is its first occurrence. Impossible dates
(31 February) are None, like anything that is not one date.

Everything here is pure and thread-safe: ZoneInfo objects, per-locale babel data and the results
for short texts are cached (immutable values behind bounded ``functools.lru_cache``s), nothing
else is stored. An unknown zone name or locale raises ``ValueError``: those come from a compiled
policy, which checked them.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import math
import re
import unicodedata
from decimal import Decimal, InvalidOperation
from types import MappingProxyType
from typing import Literal, Mapping
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel import Locale
from babel.core import UnknownLocaleError
from babel.dates import get_day_names, get_month_names

__all__ = [
    "ClaimedDate",
    "parse_claimed_date",
    "same_instant",
    "stored_day",
    "stored_instant",
]

Precision = Literal["day", "minute", "second", "microsecond"]

UTC = dt.timezone.utc
MAX_LENGTH = 200


@dataclasses.dataclass(frozen=True, slots=True)
class ClaimedDate:
    """A date or an instant as claimed. A ``"date"`` claim has ``day`` and no ``instant``; a
    ``"timestamp"`` claim has an aware ``instant`` and no ``day``: which day an instant falls on
    depends on a zone, so ask ``stored_day``. The instant keeps the fixed UTC offset it was
    written with (for a naive time, ``naive_zone``'s offset at that moment)."""
    kind: Literal["date", "timestamp"]
    day: dt.date | None
    instant: dt.datetime | None
    precision: Precision


# --- zones ------------------------------------------------------------------------------------

@functools.lru_cache(maxsize=512)
def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as error:
        raise ValueError(f"unknown time zone {name!r}") from error


def zone(name: str) -> ZoneInfo:
    """The named IANA zone, cached; ``ValueError`` for an unknown name."""
    return _zone(name)


def _attach(naive: dt.datetime, zone_name: str) -> dt.datetime | None:
    """``naive`` as a wall time in ``zone_name`` (the first occurrence when DST repeats it),
    with that moment's fixed UTC offset; None for a wall time the zone skips.

    A fixed offset rather than the ZoneInfo: Python never finds a datetime in a repeated hour
    equal to one in another zone (PEP 495), so ``claimed.instant == actual`` would quietly fail
    for the hour after every fall-back."""
    aware = naive.replace(tzinfo=_zone(zone_name))
    in_utc = aware.astimezone(UTC)
    if in_utc.astimezone(aware.tzinfo).replace(tzinfo=None) != naive:
        return None
    return in_utc.astimezone(_fixed(aware.utcoffset()))


# No zone is further from UTC than -12:00 or +14:00: "14:00-18:00" after a day is a range of
# hours, not 14:00 at UTC-18.
_WEST_MOST, _EAST_MOST = dt.timedelta(hours=-12), dt.timedelta(hours=14)


def real_offset(offset: dt.timedelta) -> bool:
    """Whether some zone is ``offset`` from UTC: -12:00 to +14:00."""
    return _WEST_MOST <= offset <= _EAST_MOST


# A day and a range of hours as people write them: a space, no seconds, the end with its colon.
_HOUR_RANGE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}-[0-9]{2}:[0-9]{2}")


def hour_range(text: str) -> bool:
    """Whether ``text`` is a day and a range of hours as a reader reads "2026-09-09
    09:00-11:00" (a delivery window), though its end could be an offset some zone has (UTC-11).
    A ``T`` before the time ("2026-09-09T09:00-11:00"), seconds ("09:00:00-11:00") or an
    offset written as machines write it ("09:00-1100", "09:00-11") make it one instant.
    ``stored_instant`` still reads a column's value so: a timestamp column holds instants."""
    return len(text) == 22 and _HOUR_RANGE.fullmatch(text) is not None


@functools.lru_cache(maxsize=256)
def _fixed(offset: dt.timedelta) -> dt.tzinfo:
    return UTC if not offset else dt.timezone(offset)


# Zone names written after a clock time ("9 pm PST", "21:00 ET", "9 am Eastern"). A fixed
# abbreviation is one offset. One whose offset depends on the date (ET, PT, "Eastern") is its
# IANA zone, judged against each instant converted to it. A name several zones go by (IST is
# India, Ireland and Israel; CST the US, China and Cuba; BST Britain and Bangladesh; AST the
# Atlantic and Arabia; SST Samoa and Singapore) is never guessed: it is all its readings, and
# only an instant that fits every one backs the time, which no instant does when the offsets
# differ (fail closed). EST, CDT and MST are read as the North American zones.
_FIXED_ZONES = {
    "UTC": 0, "GMT": 0, "WET": 0, "WEST": 60, "CET": 60, "CEST": 120, "MEZ": 60, "MESZ": 120,
    "EET": 120, "EEST": 180, "MSK": 180, "JST": 540, "KST": 540, "HKT": 480, "SGT": 480,
    "AWST": 480, "ACST": 570, "ACDT": 630, "AEST": 600, "AEDT": 660, "NZST": 720, "NZDT": 780,
    "NST": -210, "NDT": -150, "EST": -300, "EDT": -240, "CDT": -300, "MST": -420, "MDT": -360,
    "PST": -480, "PDT": -420, "AKST": -540, "AKDT": -480, "HST": -600}
_AMBIGUOUS_ZONES = {"IST": (330, 60, 120), "CST": (-360, 480, -300), "BST": (60, 360),
                    "AST": (-240, 180), "SST": (-660, 480)}
# The same zones spelled out ("9 pm Pacific Standard Time", "21:00 Central European Summer
# Time"), keyed in capitals with single spaces. Names that say "standard" or "summer" or
# "daylight" fix the offset; "UK time" and "Paris time" follow their zone's daylight saving.
_FIXED_ZONES.update({
    "PACIFIC STANDARD TIME": -480, "PACIFIC DAYLIGHT TIME": -420,
    "MOUNTAIN STANDARD TIME": -420, "MOUNTAIN DAYLIGHT TIME": -360,
    "CENTRAL STANDARD TIME": -360, "CENTRAL DAYLIGHT TIME": -300,
    "EASTERN STANDARD TIME": -300, "EASTERN DAYLIGHT TIME": -240,
    "ATLANTIC STANDARD TIME": -240, "ATLANTIC DAYLIGHT TIME": -180,
    "ALASKA STANDARD TIME": -540, "ALASKA DAYLIGHT TIME": -480,
    "HAWAII STANDARD TIME": -600, "HAWAII-ALEUTIAN STANDARD TIME": -600,
    "CENTRAL EUROPEAN STANDARD TIME": 60, "CENTRAL EUROPEAN SUMMER TIME": 120,
    "EASTERN EUROPEAN STANDARD TIME": 120, "EASTERN EUROPEAN SUMMER TIME": 180,
    "WESTERN EUROPEAN STANDARD TIME": 0, "WESTERN EUROPEAN SUMMER TIME": 60,
    "GREENWICH MEAN TIME": 0, "COORDINATED UNIVERSAL TIME": 0, "BRITISH SUMMER TIME": 60,
    "IRISH STANDARD TIME": 60, "MOSCOW TIME": 180, "MOSCOW STANDARD TIME": 180,
    "JAPAN TIME": 540, "JAPAN STANDARD TIME": 540, "KOREA TIME": 540,
    "KOREA STANDARD TIME": 540, "KOREAN STANDARD TIME": 540, "CHINA TIME": 480,
    "CHINA STANDARD TIME": 480, "BEIJING TIME": 480, "HONG KONG TIME": 480,
    "SINGAPORE TIME": 480, "SINGAPORE STANDARD TIME": 480, "INDIA TIME": 330,
    "INDIA STANDARD TIME": 330, "INDIAN STANDARD TIME": 330,
    "AUSTRALIAN EASTERN STANDARD TIME": 600, "AUSTRALIAN EASTERN DAYLIGHT TIME": 660,
    "AUSTRALIAN CENTRAL STANDARD TIME": 570, "AUSTRALIAN CENTRAL DAYLIGHT TIME": 630,
    "AUSTRALIAN WESTERN STANDARD TIME": 480, "TOKYO TIME": 540, "SEOUL TIME": 540,
    "SHANGHAI TIME": 480, "TAIPEI TIME": 480, "MUMBAI TIME": 330, "DELHI TIME": 330,
    "KOLKATA TIME": 330, "DUBAI TIME": 240})
_NAMED_ZONES = {"ET": "America/New_York", "EASTERN": "America/New_York",
                "CT": "America/Chicago", "CENTRAL": "America/Chicago",
                "MT": "America/Denver", "MOUNTAIN": "America/Denver",
                "PT": "America/Los_Angeles", "PACIFIC": "America/Los_Angeles",
                "EASTERN TIME": "America/New_York", "CENTRAL TIME": "America/Chicago",
                "MOUNTAIN TIME": "America/Denver", "PACIFIC TIME": "America/Los_Angeles",
                "CENTRAL EUROPEAN TIME": "Europe/Paris", "EASTERN EUROPEAN TIME": "Europe/Athens",
                "WESTERN EUROPEAN TIME": "Europe/Lisbon", "UK TIME": "Europe/London",
                "LONDON TIME": "Europe/London", "PARIS TIME": "Europe/Paris",
                "BERLIN TIME": "Europe/Berlin", "NEW YORK TIME": "America/New_York",
                "SYDNEY TIME": "Australia/Sydney", "MELBOURNE TIME": "Australia/Melbourne",
                "LOS ANGELES TIME": "America/Los_Angeles", "CHICAGO TIME": "America/Chicago",
                "TORONTO TIME": "America/Toronto", "MADRID TIME": "Europe/Madrid",
                "ROME TIME": "Europe/Rome", "AMSTERDAM TIME": "Europe/Amsterdam",
                "DUBLIN TIME": "Europe/Dublin", "AUCKLAND TIME": "Pacific/Auckland"}
# The standard and summer offsets of each, for a machine without the zone database: both
# readings, so that nothing is backed (fail closed) rather than guessed.
_NAMED_OFFSETS = {"America/New_York": (-300, -240), "America/Chicago": (-360, -300),
                  "America/Denver": (-420, -360), "America/Los_Angeles": (-480, -420),
                  "Europe/Paris": (60, 120), "Europe/Berlin": (60, 120),
                  "Europe/Athens": (120, 180), "Europe/Lisbon": (0, 60),
                  "Europe/London": (0, 60), "Australia/Sydney": (600, 660),
                  "Australia/Melbourne": (600, 660), "America/Toronto": (-300, -240),
                  "Europe/Madrid": (60, 120), "Europe/Rome": (60, 120),
                  "Europe/Amsterdam": (60, 120), "Europe/Dublin": (0, 60),
                  "Pacific/Auckland": (720, 780)}


class Readings(dt.tzinfo):
    """The zones a name written after a time may mean (IST, CST): a time in it is backed only
    by an instant that is that time in each of them. It has no offset of its own."""

    def __init__(self, name: str, zones: tuple[dt.tzinfo, ...]) -> None:
        self.name, self.zones = name, zones

    def utcoffset(self, when: dt.datetime | None) -> None:
        return None

    def dst(self, when: dt.datetime | None) -> None:
        return None

    def tzname(self, when: dt.datetime | None) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Readings({self.name!r})"


@functools.lru_cache(maxsize=64)
def moment(value: dt.datetime | str) -> dt.datetime:
    """A ``now`` as the API takes it: an aware datetime, or ISO 8601 text with its offset
    ("2026-11-30T12:05:00Z", "2026-11-30T13:05:00+01:00"). Raises ``TypeError`` or
    ``ValueError`` saying what to pass instead. A naive datetime is refused, as naive text is:
    ``datetime.now()`` is the server's wall clock, and read as UTC on a server west of UTC it
    would make every row look younger than it is."""
    if isinstance(value, dt.datetime):
        if value.tzinfo is None or value.utcoffset() is None:
            raise ValueError(f"now {value.isoformat()} is a naive datetime: it names no "
                             "instant; pass an aware one, such as "
                             "datetime.now(timezone.utc)")
        return value
    if not isinstance(value, str):
        raise TypeError(f"now must be a datetime or ISO 8601 text, not {type(value).__name__}")
    try:
        found = dt.datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        raise ValueError(f"now {value!r} is not an ISO 8601 time, e.g. "
                         "2026-11-30T12:05:00Z") from None
    if found.tzinfo is None:
        raise ValueError(f"now {value!r} has no offset: add Z or one such as +01:00")
    return found


def written_zone(name: str) -> dt.tzinfo | None:
    """The zone an abbreviation or a word written after a time names ("PST", "ET", "Eastern"):
    a fixed offset, an IANA zone, ``Readings`` for a name of several zones, or None."""
    key = " ".join(name.split()).upper()
    if key in _FIXED_ZONES:
        return _fixed(dt.timedelta(minutes=_FIXED_ZONES[key]))
    if key in _AMBIGUOUS_ZONES:
        return Readings(key, tuple(_fixed(dt.timedelta(minutes=m))
                                   for m in _AMBIGUOUS_ZONES[key]))
    named = _NAMED_ZONES.get(key)
    if named is None:
        return None
    try:
        return _zone(named)
    except ValueError:
        return Readings(key, tuple(_fixed(dt.timedelta(minutes=m))
                                   for m in _NAMED_OFFSETS[named]))


def is_fixed(zone: dt.tzinfo) -> bool:
    """Whether ``zone`` is one offset whatever the date."""
    return isinstance(zone, dt.timezone)


def fits_instant(instant: dt.datetime, day: dt.date | None, time: dt.time) -> bool:
    """Whether the aware ``instant`` is ``time`` (on ``day`` when given) in every zone the
    time's zone may mean."""
    zone = time.tzinfo
    for reading in zone.zones if isinstance(zone, Readings) else (zone,):
        local = instant.astimezone(reading)
        if (local.hour, local.minute) != (time.hour, time.minute) or (
                day is not None and local.date() != day):
            return False
    return True


def utc_clock_of(day: dt.date | None, time: dt.time) -> tuple[dt.date | None, int, int] | None:
    """(day, hour, minute) in UTC of a clock time written with a zone, or None when the zone
    does not fix it: a name of several zones, or a zone whose offset depends on the date and no
    date. A time alone in a fixed zone is already in UTC (the scanner converts it); its day
    stays None."""
    zone = time.tzinfo
    if zone is None or isinstance(zone, Readings):
        return None
    if day is None:
        return (None, time.hour, time.minute) if zone is UTC else None
    instant = dt.datetime.combine(day, time).astimezone(UTC)
    return instant.date(), instant.hour, instant.minute


# --- text clean-up ----------------------------------------------------------------------------

_DROP = dict.fromkeys(map(ord, "\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e"
                               "\u2066\u2067\u2068\u2069\ufeff\u200b"), None)
_DROP[0x2212] = "-"
_SPACES = re.compile(r"\s+")


def _clean(text: str) -> str:
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text).translate(_DROP)
        if not text.isascii():
            text = "".join(_ascii_digit(char) for char in text)
    return _SPACES.sub(" ", text).strip().casefold()


def _ascii_digit(char: str) -> str:
    if char.isascii():
        return char
    digit = unicodedata.decimal(char, None)
    return char if digit is None else str(digit)


# --- the time part ----------------------------------------------------------------------------

_WITH_TIME = re.compile(r"""
    (?P<date>.+?)
    (?:t|\s?,\s?|\s)(?:(?:at|um|à|a\ las|om|kl\.?|le)\s)?
    (?P<hour>\d{1,2}):(?P<minute>\d{2})
    (?::(?P<second>\d{2})(?:[.,](?P<fraction>\d{1,9}))?)?
    (?:\s?(?P<meridiem>[ap])\.?\s?m\.?)?
    (?:\s?uhr)?
    (?:\s?(?P<zone>z|utc|gmt|
        (?:utc|gmt)?\s?(?P<sign>[+-])(?P<off_h>\d{1,2})(?::?(?P<off_m>\d{2}))?))?
    """, re.VERBOSE)


def _time_of(match: re.Match[str]) -> tuple[dt.time, Precision] | None:
    hour, minute = int(match["hour"]), int(match["minute"])
    meridiem = match["meridiem"]
    if meridiem is not None:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if meridiem == "p" else 0)
    if hour > 23 or minute > 59:
        return None
    precision: Precision = "minute"
    second = microsecond = 0
    if match["second"] is not None:
        second = int(match["second"])
        if second > 59:
            return None
        precision = "second"
        if match["fraction"] is not None:
            microsecond = int(match["fraction"][:6].ljust(6, "0"))
            precision = "microsecond"
    return dt.time(hour, minute, second, microsecond), precision


def _offset_of(match: re.Match[str]) -> dt.tzinfo | None | Literal[False]:
    """The zone written after the time: a tzinfo, None when there is none, False when it is not
    a valid offset (minutes over 59, or further from UTC than any zone: ``real_offset``)."""
    if match["zone"] is None:
        return None
    if match["sign"] is None:
        return UTC
    hours, minutes = int(match["off_h"]), int(match["off_m"] or 0)
    if minutes > 59:
        return False
    offset = dt.timedelta(hours=hours, minutes=minutes)
    offset = -offset if match["sign"] == "-" else offset
    return _fixed(offset) if real_offset(offset) else False


def _instant(day: dt.date, match: re.Match[str], naive_zone: str,
             ) -> tuple[dt.datetime, Precision] | None:
    time = _time_of(match)
    zone = _offset_of(match)
    if time is None or zone is False:
        return None
    moment = dt.datetime.combine(day, time[0])
    if zone is None:
        aware = _attach(moment, naive_zone)
        if aware is None:
            return None
    else:
        aware = moment.replace(tzinfo=zone)
    return aware, time[1]


# --- the date part ----------------------------------------------------------------------------

_ISO_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_NUMERIC = re.compile(r"(\d{1,4})([./-]) ?(\d{1,2})\2 ?(\d{1,4})\.?")
_EAST_ASIAN = re.compile(r"(\d{4}) ?[年년] ?(\d{1,2}) ?[月월] ?(\d{1,2}) ?[日일](?: ?(\S+))?")
_TOKEN_SPLIT = re.compile(r"[ ,\u060c\u3001]+")   # also the Arabic and ideographic commas
_PIECE_SPLIT = re.compile(r"[-/]")
_DAY = re.compile(r"(\d{1,2})(?:st|nd|rd|th|er|\.)?")
_YEAR = re.compile(r"(\d{4})\.?")
_QUOTED = re.compile(r"'([^']+)'")
_WORD = re.compile(r"[^\W\d_]+")
_LETTER = re.compile(r"[^\W\d_]")

_ENGLISH_EXTRA_MONTHS = {"sept": 9}
_ENGLISH_EXTRA_DAYS = {"tues": 1, "weds": 2, "thur": 3, "thurs": 3}
_ENGLISH_FILLERS = frozenset({"of", "the"})


def _date(year: int, month: int, day: int) -> dt.date | None:
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None


@dataclasses.dataclass(frozen=True, slots=True)
class _LocaleDates:
    """What reading dates in one locale needs, derived once from babel."""
    order: str                              # "dmy", "mdy", "ymd", ...: the short date pattern's
    month_first: bool                       # month before day, when the year stands apart
    # A casefolded word without its trailing dot -> what it is; see _classify. Month and
    # weekday names in English and the locale, and the words the locale's patterns quote.
    words: Mapping[str, tuple[str, int]]


def _name_key(name: str) -> str:
    return _clean(name).rstrip(".")


def _field_order(pattern: str) -> str:
    """The order of year, month and day fields in a CLDR date pattern, e.g. ``"mdy"``."""
    unquoted = _QUOTED.sub("", pattern)
    order = ""
    for char in unquoted:
        field = {"y": "y", "Y": "y", "u": "y", "M": "m", "L": "m", "d": "d"}.get(char)
        if field and field not in order:
            order += field
    return order if len(order) == 3 else "ymd"


@functools.lru_cache(maxsize=256)
def _locale_dates(locale: str) -> _LocaleDates:
    try:
        parsed = Locale.parse(locale.replace("-", "_"))
    except (UnknownLocaleError, ValueError) as error:
        raise ValueError(f"unknown locale {locale!r}") from error
    order = _field_order(parsed.date_formats["short"].pattern)

    months: dict[str, int] = {}
    weekdays: dict[str, int] = {}
    # English first, so that the locale's own names win a clash.
    for source in ("en", "en_GB", parsed):
        for width in ("wide", "abbreviated"):
            for context in ("format", "stand-alone"):
                for number, name in get_month_names(width, context, source).items():
                    months[_name_key(name)] = number
                for number, name in get_day_names(width, context, source).items():
                    weekdays[_name_key(name)] = number
        if source == "en_GB":
            for name, number in _ENGLISH_EXTRA_MONTHS.items():
                months.setdefault(name, number)
            for name, number in _ENGLISH_EXTRA_DAYS.items():
                weekdays.setdefault(name, number)

    fillers = set(_ENGLISH_FILLERS)
    for width in ("short", "medium", "long", "full"):
        for quoted in _QUOTED.findall(parsed.date_formats[width].pattern):
            fillers.update(_WORD.findall(_clean(quoted)))
    words: dict[str, tuple[str, int]] = dict.fromkeys(fillers, ("filler", 0))
    words.update((name, ("weekday", number)) for name, number in weekdays.items())
    for name, number in months.items():
        if name in weekdays:
            words[name] = ("either", 10 * number + weekdays[name])
        else:
            words[name] = ("month", number)
    return _LocaleDates(order, order.index("m") < order.index("d"), MappingProxyType(words))


def _numeric_date(match: re.Match[str], info: _LocaleDates) -> dt.date | None:
    first, middle, last = match[1], match[3], match[4]
    if match[0].endswith(".") and match[2] != ".":
        return None
    if len(first) == 4 and len(last) <= 2:
        return _date(int(first), int(middle), int(last))
    if len(last) == 4 and len(first) <= 2:
        a, b = int(first), int(middle)
        return _date(int(last), a, b) if info.month_first else _date(int(last), b, a)
    if len(first) <= 2 and len(last) <= 2:
        fields = dict(zip(info.order, (first, middle, last)))
        if len(fields["y"]) != 2:
            return None
        return _date(2000 + int(fields["y"]), int(fields["m"]), int(fields["d"]))
    return None


def _textual_date(text: str, info: _LocaleDates) -> dt.date | None:
    """A date with its month by name: one month, one day number, one four-digit year, at most
    one weekday (which must match), and filler words; in any order."""
    day = year = month = weekday = None
    either: list[int] = []          # names that are a month and a weekday ("mar" in fr)
    for token in _TOKEN_SPLIT.split(text):
        if not token:
            continue
        found = _classify(token, info)
        pieces = ((found,) if found is not None
                  else tuple(_classify(piece, info) for piece in _PIECE_SPLIT.split(token)))
        for found in pieces:
            if found is None:
                return None
            kind, number = found
            if kind == "filler":
                continue
            if kind == "either":
                either.append(number)
                continue
            if kind == "day" and day is None:
                day = number
            elif kind == "year" and year is None:
                year = number
            elif kind == "month" and month is None:
                month = number
            elif kind == "weekday" and weekday is None:
                weekday = number
            else:
                return None             # a second day, year, month or weekday
    for month_number, weekday_number in ((n // 10, n % 10) for n in either):
        if month is None:
            month = month_number
        elif weekday is None:
            weekday = weekday_number
        else:
            return None
    if day is None or year is None or month is None:
        return None
    found_day = _date(year, month, day)
    if found_day is None or (weekday is not None and found_day.weekday() != weekday):
        return None
    return found_day


def _classify(piece: str, info: _LocaleDates) -> tuple[str, int] | None:
    """What one token is: ("day", 29), ("year", 2026), ("month", 7), ("weekday", 2),
    ("filler", 0), or ("either", 10 * month + weekday); None when it is none of them."""
    if not piece:
        return None
    if piece[0].isdigit():
        match = _YEAR.fullmatch(piece)
        if match:
            return "year", int(match[1])
        match = _DAY.fullmatch(piece)
        return ("day", int(match[1])) if match else None
    return info.words.get(piece.rstrip("."))


def _east_asian_date(match: re.Match[str], info: _LocaleDates) -> dt.date | None:
    day = _date(int(match[1]), int(match[2]), int(match[3]))
    weekday = match[4]
    if day is None or weekday is None:
        return day
    return day if info.words.get(weekday) == ("weekday", day.weekday()) else None


def _any_date(text: str, info: _LocaleDates | None) -> dt.date | None:
    """``text`` as a calendar day: ISO always, the locale's notations when ``info`` is given."""
    match = _ISO_DATE.fullmatch(text)
    if match:
        return _date(int(match[1]), int(match[2]), int(match[3]))
    if info is None:
        return None
    match = _NUMERIC.fullmatch(text)
    if match:
        return _numeric_date(match, info)
    match = _EAST_ASIAN.fullmatch(text)
    if match:
        return _east_asian_date(match, info)
    if _LETTER.search(text):
        return _textual_date(text, info)
    return None


def _read(text: str, info: _LocaleDates | None, naive_zone: str) -> ClaimedDate | None:
    """The cleaned ``text`` as a day or an instant."""
    timed = _WITH_TIME.fullmatch(text) if ":" in text else None
    if timed is not None:
        day = _any_date(timed["date"], info)
        if day is not None:
            found = _instant(day, timed, naive_zone)
            if found is None:
                return None
            return ClaimedDate("timestamp", None, found[0], found[1])
    day = _any_date(text, info)
    if day is None:
        return None
    return ClaimedDate("date", day, None, "day")


# --- public API -------------------------------------------------------------------------------

def parse_claimed_date(text: str, locale: str, naive_zone: str = "UTC") -> ClaimedDate | None:
    """Read ``text`` as one date or one timestamp written in ``locale``; None when it is not
    exactly one valid date. A time written without a zone is read in ``naive_zone``."""
    if not isinstance(text, str) or len(text) > MAX_LENGTH:
        return None
    if len(text) <= CACHED_LENGTH:
        return _parse_claimed_cached(text, locale, naive_zone)
    return _parse_claimed(text, locale, naive_zone)


# Reading a date by name walks the locale's month and weekday words, and the same few notations
# come back again and again ("5 August 2026"); the result is immutable, so it is cached. The
# text comes from a model, so the cache is bounded twice: in entries, and by caching only short
# texts (a written date is short; longer text is read every time). The key holds everything the
# result depends on: the text, the locale and the zone of a naive time.
CACHED_LENGTH = 64
_CACHE_ENTRIES = 4096


def _parse_claimed(text: str, locale: str, naive_zone: str) -> ClaimedDate | None:
    info = _locale_dates(locale)     # cached; raises ValueError for an unknown locale
    if len(text) == 10 and _ISO_DAY.fullmatch(text):    # the common case: 2026-07-30
        _zone(naive_zone)
        day = _date(int(text[:4]), int(text[5:7]), int(text[8:]))
        return None if day is None else ClaimedDate("date", day, None, "day")
    return _read(_clean(text), info, naive_zone)


_parse_claimed_cached = functools.lru_cache(maxsize=_CACHE_ENTRIES)(_parse_claimed)
_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def _stored(value: object, naive_zone: str) -> dt.date | dt.datetime | None:
    """A stored date or timestamp as a ``date`` or a ``datetime`` in UTC."""
    found = _written(value, naive_zone)
    return found.astimezone(UTC) if isinstance(found, dt.datetime) else found


def _written(value: object, naive_zone: str) -> dt.date | dt.datetime | None:
    """A stored date or timestamp as a ``date`` or an aware ``datetime`` in the offset it was
    written with ("2026-07-05T22:00:00-06:00" stays at -06:00; a naive time takes
    ``naive_zone``'s offset at that moment; a Unix time is in UTC, and a number is one only
    between 1990 and 2100: ``_from_epoch``)."""
    if isinstance(value, dt.datetime):
        if value.tzinfo is None or value.utcoffset() is None:
            return _attach(value.replace(tzinfo=None, fold=0), naive_zone)
        return value
    if isinstance(value, dt.date):
        return value
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float, Decimal)):
        return _from_epoch(value)
    if isinstance(value, str) and len(value) <= MAX_LENGTH:
        if len(value) <= CACHED_LENGTH:
            return _stored_text_cached(value, naive_zone)
        return _stored_text(value, naive_zone)
    return None


def _stored_text(value: str, naive_zone: str) -> dt.date | dt.datetime | None:
    """``_written`` for a string: ISO by the standard library, anything else by ``_read``."""
    fast = _iso_fast(value, naive_zone)
    if fast is not None:
        return fast
    claimed = _read(_clean(value), None, naive_zone)
    if claimed is None:
        return None
    return claimed.day if claimed.kind == "date" else claimed.instant


# A row's timestamps are read several times per check (the claim, freshness, rendering) and the
# same rows are checked again and again; the results are immutable, so short strings are cached,
# within the same bounds as claimed dates.
_stored_text_cached = functools.lru_cache(maxsize=_CACHE_ENTRIES)(_stored_text)


_ISO_SHAPE = re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?"
                        r"(?:Z|[+-]\d{2}:\d{2})?)?")


def _iso_fast(value: str, naive_zone: str) -> dt.date | dt.datetime | None:
    """The common case, a plain ISO 8601 date or timestamp, read by the standard library; None
    sends anything else down the general reader."""
    if not _ISO_SHAPE.fullmatch(value):
        return None
    try:
        if len(value) == 10:
            return dt.date.fromisoformat(value)
        moment = dt.datetime.fromisoformat(value)
    except ValueError:
        return None
    if moment.tzinfo is None:
        return _attach(moment, naive_zone)
    return moment if real_offset(moment.utcoffset()) else None


_EPOCH = dt.datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = Decimal("0.000001")
# The instants a number is believed to be in Unix seconds: 1990-01-01 up to 2100-01-01. Outside,
# a number is most likely something else read as seconds: 20261201 (a YYYYMMDD day) is August
# 1970, a SQLite julianday January 1970, milliseconds tens of thousands of years ahead.
EPOCH_FIRST, EPOCH_END = 631152000, 4102444800


def _from_epoch(seconds: int | float | Decimal) -> dt.datetime | None:
    try:
        if not EPOCH_FIRST <= seconds < EPOCH_END:      # False for NaN
            return None
        if isinstance(seconds, float):
            if not math.isfinite(seconds):
                return None
            return dt.datetime.fromtimestamp(seconds, UTC)
        micros = int(Decimal(seconds).quantize(_MICROSECOND).scaleb(6))
        return _EPOCH + dt.timedelta(microseconds=micros)
    except (OverflowError, OSError, ValueError, InvalidOperation):
        return None


def stored_instant(value: object, naive_zone: str | None) -> dt.datetime | None:
    """What a database or JSON row holds for a timestamp column, as a ``datetime`` in UTC: an
    aware ``datetime``, a naive one (read in ``naive_zone``), an ISO or SQLite string
    (``2026-07-29 23:40:00``, ``...+00``, ``...Z``; naive ones read in ``naive_zone``), Unix
    epoch seconds (int, float, Decimal) from 1990 to 2099. None for anything else, including a plain date, which
    is a day and not an instant, and a naive wall time ``naive_zone`` skips. A ``naive_zone``
    of None (a date field's: ``stored_day``) reads a naive time in UTC."""
    found = _stored(value, naive_zone or "UTC")
    return found if isinstance(found, dt.datetime) else None


def stored_day(value: object, zone: str | None, naive_zone: str | None) -> dt.date | None:
    """What a row holds for a date or timestamp column, as the calendar day it is in ``zone``:
    a ``date`` (or ``YYYY-MM-DD`` string) stays that day; an instant is converted, so a shipment
    at 2026-07-29T23:40Z is 2026-07-30 in Europe/Berlin. With ``zone`` None, an instant's day
    is the day in the offset it was written with, as its reader sees it:
    2026-07-05T22:00:00-06:00 is 5 July (a Unix time's day is in UTC). A naive timestamp is in
    ``naive_zone``; with ``naive_zone`` None (a date field's), it is the day as written: a
    DATETIME or SQLite midnight, ``2026-12-03 00:00:00``, is 3 December in New York too, not
    the evening before, and so is an exact UTC midnight, ``2026-12-03T00:00:00Z`` (how JS
    ``Date`` and many APIs write a day): ``_day_as_written``. Also takes a ``ClaimedDate``."""
    if isinstance(value, ClaimedDate):
        value = value.day if value.kind == "date" else value.instant
    found = _written(value, naive_zone or "UTC")
    if isinstance(found, dt.datetime):
        if zone is None or naive_zone is None and _day_as_written(value, found):
            return found.date()     # as written: a naive time read in UTC keeps its wall date
        return found.astimezone(_zone(zone)).date()
    return found


def _day_as_written(value: object, found: dt.datetime) -> bool:
    """Whether a date field's stored time (``found``, as ``_written`` reads ``value``) stands
    for the calendar day it is written on rather than an instant to move into the field's
    zone: one written without a zone, or exactly midnight at UTC (``...T00:00:00Z``,
    ``+00:00``), the way a day leaves JS ``Date``, many ORMs and JSON APIs. Only a date
    field asks this; a timestamp's UTC midnight is an instant like any other."""
    if found.utcoffset() == dt.timedelta(0) and found.time() == dt.time(0):
        return True
    return _naive(value)


def _naive(value: object) -> bool:
    """Whether a stored time that reads as an instant was written without a zone: a naive
    ``datetime``, or text whose reading depends on the zone it is read in."""
    if isinstance(value, dt.datetime):
        return value.tzinfo is None or value.utcoffset() is None
    return isinstance(value, str) and _written(value, "UTC") != _written(value, "Etc/GMT-14")


def same_instant(claimed: ClaimedDate, actual: dt.datetime) -> bool:
    """Whether ``actual`` falls within the claim at the claim's own precision, in the claim's
    own zone: a claim of 23:40 matches 23:40:59.9, and 23:40:00 does not match 23:40:01.
    False for a date claim (compare ``stored_day`` instead); a naive ``actual`` is a
    programming error (normalise it with ``stored_instant``)."""
    if claimed.kind != "timestamp" or claimed.instant is None:
        return False
    if actual.tzinfo is None or actual.utcoffset() is None:
        raise ValueError("same_instant needs an aware datetime; use stored_instant first")
    local = actual.astimezone(claimed.instant.tzinfo)
    if claimed.precision == "minute":
        local = local.replace(second=0, microsecond=0)
    elif claimed.precision == "second":
        local = local.replace(microsecond=0)
    # Compare in UTC: two datetimes sharing a tzinfo compare by wall time, ignoring DST folds.
    return local.astimezone(UTC) == claimed.instant.astimezone(UTC)


# CLDR's letters for the time of day and for the time zone; a calendar day has neither.
TIME_LETTERS = frozenset("abBhHKkmsSA")
ZONE_LETTERS = frozenset("zZOvVxX")


def pattern_letters(pattern: str) -> tuple[list[tuple[str, int, int]], int | None]:
    """The runs of one unquoted ASCII letter in a CLDR date ``pattern``, as (letter, length,
    offset), and the offset of a quote left open (None when every quote closes). `''` is an
    apostrophe, inside quotes or out; any other character is literal."""
    runs: list[tuple[str, int, int]] = []
    index, open_quote, size = 0, None, len(pattern)
    while index < size:
        char = pattern[index]
        if char == "'":
            if pattern.startswith("''", index):
                index += 2
                continue
            open_quote = index if open_quote is None else None
            index += 1
            continue
        if open_quote is None and char.isascii() and char.isalpha():
            end = index + 1
            while end < size and pattern[end] == char:
                end += 1
            runs.append((char, end - index, index))
            index = end
            continue
        index += 1
    return runs, open_quote


@functools.lru_cache(maxsize=256)
def shows_time(pattern: str) -> bool:
    """Whether a CLDR date ``pattern`` shows a time of day or a zone ("d MMMM yyyy 'at' HH:mm");
    a named format (short, medium...) shows the day of a day."""
    return pattern not in ("short", "medium", "long", "full") and any(
        letter in TIME_LETTERS or letter in ZONE_LETTERS
        for letter, _, _ in pattern_letters(pattern)[0])
