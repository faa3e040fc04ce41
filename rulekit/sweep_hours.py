"""Rule 10, opening hours said of a day: "Luigi's is open today until 22:30", "Tonight they're
open until 10:30 pm", "It closes at 9 today", "On Saturday we close at 6", "Wir haben heute bis
22:30 geöffnet", "Nous sommes ouverts aujourd'hui jusqu'à 22h30".

When the evidence keeps its hours by weekday (``held_week_hours``: a mapping keyed by weekday,
``{"hours": {"monday": "11:30-21:00"}}``; a list of rows with a day, ``[{"day": "Wednesday",
"open": "11:30", "close": "21:00"}]`` or schema.org's ``openingHoursSpecification`` with
``dayOfWeek``; Google Places' ``weekday_text`` and ``periods``; a string of day ranges,
schema.org's ``openingHours: "Mo-Fr 11:30-21:00, Su closed"`` or OSM's ``opening_hours: "Mo-Fr
11:30-21:00; Su off"``, or a list of them, or keys of them, ``{"mon-fri": "11:30-21:00"}``; a
string not read in full is not read at all), a clock time said in a clause of
the store's opening hours with a day (``week_hours_said``) is held to that day's hours: "today"
and "tonight" are the weekday of the evidence's today, "tomorrow" the one after, a weekday by
name itself. A day the evidence marks closed ("closed", null, false; a day no Google period
opens on) backs no time. A time said of no day, a relative day without a today, a day the
hours do not give (or whose date has hours of its own: ``special_days``) and a time with a zone
are left to ``rulekit.sweep._Judge._date``, which any clock time of the evidence backs.
Read only when the answer holds a word of opening hours (``may_say_hours``).
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from babel.dates import get_day_names

from rulekit.evidence import object_offset
from rulekit.findings import Finding, _new_finding
from rulekit.scan import Mention
from rulekit.sweep_days import _LONE_HOURS_WORDS, _NOT_THE_STORE as _NOT_STORE, \
    _STORE_WORDS as _EN_STORE_WORDS

# The clock times, (hour, minute), of one weekday's hours; empty when it is closed.
DayHours = frozenset[tuple[int, int]]


class WeekHours(NamedTuple):
    """The hours the evidence keeps by weekday: for each day from Monday, its clock times (an
    empty set when closed), or None when the evidence does not say; and the dates that have
    hours of their own (a holiday's), which the weekday's hours do not judge."""
    days: tuple[DayHours | None, ...]
    special: frozenset[dt.date]
    # the zone the rows holding the hours name (``"timezone": "America/New_York"``,
    # ``"utc_offset": "-05:00"``), when they name one and all the same: their "today" is the
    # day there, not in UTC
    zone: dt.tzinfo | None = None


_WEEKDAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_KEY_LOCALES = ("en", "de", "fr", "es", "it", "pt", "nl")


@functools.lru_cache(maxsize=1)
def _day_keys() -> Mapping[str, int]:
    """The weekday of each name a key or a day field may give it by, lower-cased: the English
    names and their short forms ("mon", "tues", "thurs"), and the wide names of the languages
    the sweep reads ("mittwoch", "mercredi", "miércoles")."""
    keys: dict[str, int] = {}
    for number, name in enumerate(_WEEKDAY_NAMES):
        keys[name] = number
        keys[name[:3]] = number
    keys.update({"tues": 1, "weds": 2, "thur": 3, "thurs": 3})
    for locale in _KEY_LOCALES:
        for number, name in get_day_names("wide", "format", locale).items():
            keys.setdefault(name.lower(), number)
    return keys


def _weekday_of(value: Any) -> int | None:
    """The weekday a key or a day field names: "Wednesday", "wed", "mercredi",
    "https://schema.org/Wednesday"; None for anything else (a number is no weekday here)."""
    if not isinstance(value, str) or len(value) > 40:
        return None
    name = value.strip().rsplit("/", 1)[-1].rsplit(":", 1)[-1].strip().lower()
    return _day_keys().get(name)


# A clock time in a stored value of hours: "11:30", "11.30", "22h30", "19h", "9:00 PM", "9 pm",
# "11:30:00"; and a bare hour only in a range of them ("10-18").
_HELD_TIME = re.compile(r"(?i)(?<![\w:.,])([01]?[0-9]|2[0-4])(?:([:.h])([0-5][0-9])"
                        r"(?::[0-5][0-9])?|(h))?(?:[ \u00a0\u202f]?([ap])\.?m\.?(?![a-z]))?"
                        r"(?![\w:])")
_HELD_RANGE = re.compile(r"(?<![\w:.,])(?:[01]?[0-9]|2[0-4])[ \u00a0\u202f\u2009]*"
                         r"[-\u2013\u2014][ \u00a0\u202f\u2009]*(?:[01]?[0-9]|2[0-4])(?![\w:.,])")
_ALL_DAY = re.compile(r"(?i)24[ \u00a0]*(?:hours|hrs|h\b|/7|std)|round the clock|all day|"
                      r"rund um die uhr|24h/24")
_CLOSED_WORDS = re.compile(r"(?i)^[ \t]*(?:closed|geschlossen|ruhetag|fermé|fermée|ferme|"
                           r"cerrado|chiuso|fechado|gesloten|stängt|lukket|stengt|zamknięte)\b")
_HHMM = re.compile(r"([01][0-9]|2[0-4])([0-5][0-9])")


def _times_in(text: str) -> DayHours | None:
    """The clock times of a stored value of one day's hours: empty when it says closed, None
    when it is no value of hours ("3 posts", "open 24 hours")."""
    if _CLOSED_WORDS.match(text):
        return frozenset()
    if _ALL_DAY.search(text):
        return None
    ranged = _HELD_RANGE.search(text) is not None
    found = set()
    for match in _HELD_TIME.finditer(text):
        hour, minute = int(match.group(1)), int(match.group(3) or 0)
        if not (match.group(2) or match.group(4) or match.group(5) or ranged):
            continue                        # a bare number, in no range of hours
        if match.group(5):
            if hour > 12:
                continue
            hour = hour % 12 + (12 if match.group(5).lower() == "p" else 0)
        found.add((hour % 24, minute))
    return frozenset(found) or None


_CLOSED_FLAGS = frozenset(("closed", "is_closed", "isclosed", "closed_all_day"))
_OPEN_FLAGS = frozenset(("is_open", "isopen", "open_today"))
_DAY_FIELDS = frozenset(("day", "weekday", "day_of_week", "dayofweek", "day_name", "dayname",
                         "week_day"))
# The fields of a row of hours that may write a time as four digits ("2100").
_TIME_FIELDS = frozenset(("open", "close", "opens", "closes", "time", "start", "end", "from",
                          "to", "open_time", "close_time", "opening_time", "closing_time"))
_DATE_FIELDS = frozenset(("date", "validfrom", "valid_from", "start_date"))
_DATE_END_FIELDS = frozenset(("validthrough", "valid_through", "end_date"))


def _state(value: Any, depth: int = 0) -> DayHours | None:
    """One day's hours as a value says them: a string ("11:30-21:00", "Closed"), null or false
    (closed), a list of them ("11:30-14:30", "18:00-22:30"), or a row of them ({"open": "11:30",
    "close": "21:00"}, {"closed": true}); None when it says nothing of hours."""
    if value is None or value is False:
        return frozenset()
    if isinstance(value, str):
        return _times_in(value) if value.strip() else None
    if depth > 3:
        return None
    if isinstance(value, (list, tuple)):
        parts = [_state(part, depth + 1) for part in value]
        if not parts:
            return frozenset()
        if any(part is None for part in parts):
            return None
        return frozenset().union(*parts)
    if isinstance(value, Mapping):
        flags = {str(key).lower(): flag for key, flag in value.items()
                 if isinstance(flag, bool)}
        if any(flags.get(key) for key in _CLOSED_FLAGS) or any(
                flags.get(key) is False for key in _OPEN_FLAGS):
            return frozenset()
        found: set[tuple[int, int]] = set()
        for key, part in value.items():
            if isinstance(part, bool) or str(key).lower() in _DAY_FIELDS:
                continue
            glued = _HHMM.fullmatch(part.strip()) if isinstance(part, str) \
                and str(key).lower() in _TIME_FIELDS else None
            if glued is not None:           # "close": "2100", as Google writes a time
                found.add((int(glued.group(1)) % 24, int(glued.group(2))))
            elif isinstance(part, (str, list, tuple, Mapping)):
                said = _state(part, depth + 1)
                if said:
                    found |= said
        return frozenset(found) or None
    return None


def _merge(tables: Sequence[tuple[DayHours | None, ...]]) -> tuple[DayHours | None, ...]:
    """Several tables' hours as one: a day any of them leaves unsaid is unsaid (what it holds
    is not known), else the union of their times (a store's hours and its kitchen's)."""
    days: list[DayHours | None] = []
    for number in range(7):
        said = [table[number] for table in tables]
        days.append(None if any(day is None for day in said) else frozenset().union(*said))
    return tuple(days)


def held_week_hours(raw: Any) -> WeekHours | None:
    """The hours ``raw`` (JSON evidence) keeps by weekday (see the module's text), merged over
    every table of them it holds; None when it holds none. A table counts at the top of the
    evidence or under a key named for hours (``_HOURS_KEY``: ``hours``, ``opening_hours``,
    ``openingHoursSpecification``, ``horaires``), not under another one (a weekly schedule of
    delivery slots is no opening hours)."""
    tables: list[tuple[DayHours | None, ...]] = []
    special: set[dt.date] = set()
    zones: list[dt.tzinfo | None] = []
    _walk(raw, False, tables, special, zones, 0)
    if not tables:
        return None
    return WeekHours(_merge(tables), frozenset(special),
                     zones[0] if len(set(zones)) == 1 else None)


# The words of a key under which weekly hours are opening hours.
_HOURS_KEY = re.compile(r"(?i)hour|open|horaire|öffnung|oeffnung|horario|orari|openingstijd|"
                        r"periods|weekday_text")


# The words of a key under which rows of dates are days with hours of their own.
_SPECIAL_KEY = re.compile(r"(?i)special|holiday|exception|closure|feiertag|férié|festivo")


def _walk(node: Any, under: bool, tables: list, special: set, zones: list, depth: int,
          key: str = "", zone: dt.tzinfo | None = None) -> None:
    """Collect the tables of weekly hours under ``node``: at the top of the evidence, or when
    ``under`` a key named for opening hours (its own or one above it); and in ``zones`` the
    zone of each, the one the nearest object around it names (``object_offset``)."""
    if depth > 12:
        return
    table_here = under or depth == 0
    if isinstance(node, Mapping):
        zone = object_offset(node) or zone
        if under or _SPECIAL_KEY.search(key) is not None:
            _special_date(node, special)
        table = _keyed_by_day(node) if table_here else None
        if table is not None:
            tables.append(table)
            zones.append(zone)
        for child_key, child in node.items():
            if isinstance(child, str) and (under or _HOURS_KEY.search(str(child_key))):
                spec = _spec_table(child)   # "openingHours": "Mo-Fr 11:30-21:00"
                if spec is not None:
                    tables.append(spec)
                    zones.append(zone)
            if isinstance(child, (Mapping, list, tuple)):
                name = str(child_key)
                _walk(child, under or _HOURS_KEY.search(name) is not None, tables, special,
                      zones, depth + 1, name, zone)
    elif isinstance(node, (list, tuple)):
        table = None
        if table_here:
            table = _periods(node) if key.lower() == "periods" else None
            if table is None:
                table = _day_rows(node) or _day_lines(node) or _spec_lines(node)
        if table is not None:
            tables.append(table)
            zones.append(zone)
        for child in node:
            if isinstance(child, (Mapping, list, tuple)):
                _walk(child, under, tables, special, zones, depth + 1, key, zone)


def _keyed_by_day(node: Mapping) -> tuple[DayHours | None, ...] | None:
    """``{"monday": "11:30-21:00", "tuesday": "closed", ...}``: a table when a key names a
    weekday (or a range or list of them: ``"mon-fri"``, ``"sat,sun"``) and some day's value
    holds times of hours."""
    days: list[DayHours | None] = [None] * 7
    timed = False
    for key, value in node.items():
        if not isinstance(key, str) or len(key) > 30:
            continue
        number = _weekday_of(key) if len(key) <= 12 else None
        numbers = [number] if number is not None else \
            _spec_days(key) if ("-" in key or "," in key) else None
        if not numbers:
            continue
        state = _state(value)
        for number in numbers:
            days[number] = state
        timed = timed or bool(state)
    return tuple(days) if timed else None


# Hours kept as a string of day ranges: schema.org's ``openingHours`` ("Mo-Fr 11:30-21:00,
# Sa 12:00-22:30, Su closed") and OSM's ``opening_hours`` ("Mo-Fr 11:30-21:00; Su off").
_SHORT_DAYS = {"mo": 0, "tu": 1, "we": 2, "th": 3, "fr": 4, "sa": 5, "su": 6}
_SPEC_DAY = r"[A-Za-z]{2,9}\.?"
_SPEC_DAY_ITEM = re.compile(rf"[ \t]*({_SPEC_DAY})(?:[ \t]*[-\u2013][ \t]*({_SPEC_DAY}))?[ \t]*")
_SPEC_TIME = r"\d{1,2}(?:[:.]\d{2})?(?:[ \u00a0\u202f]?[ap]\.?m\.?)?"
_SPEC_SPAN = rf"{_SPEC_TIME}[ \t]*[-\u2013\u2014][ \t]*{_SPEC_TIME}"
_SPEC_RULE = re.compile(
    rf"[ \t]*((?:{_SPEC_DAY})(?:[ \t]*[-\u2013,][ \t]*{_SPEC_DAY})*)[ \t]*:?[ \t]*"
    rf"((?:{_SPEC_SPAN})(?:[ \t]*,[ \t]*{_SPEC_SPAN})*|off|closed)(?![\w:])[ \t]*"
    r"(?:[;,|\n][ \t\n]*|$)", re.IGNORECASE)


def _spec_day(name: str) -> int | None:
    name = name.rstrip(".")
    short = _SHORT_DAYS.get(name.lower())
    return short if short is not None else _weekday_of(name)


def _spec_days(text: str) -> list[int] | None:
    """The weekdays of a day spec, "Mo-Fr", "Sa-Mo" (wrapping), "Mo,We", "mon-fri",
    "Monday-Friday"; None unless all of it names days."""
    numbers: list[int] = []
    for item in text.split(","):
        found = _SPEC_DAY_ITEM.fullmatch(item)
        if found is None:
            return None
        first = _spec_day(found.group(1))
        last = _spec_day(found.group(2)) if found.group(2) else first
        if first is None or last is None:
            return None
        numbers.extend((first + step) % 7 for step in range((last - first) % 7 + 1))
    return numbers


def _spec_table(text: str) -> tuple[DayHours | None, ...] | None:
    """A string of day ranges and their hours as the weekly table (a later rule of a day
    overrides an earlier one, as in OSM); None unless all of it reads."""
    if not 4 <= len(text) <= 400 or text.lstrip()[:2].lower() not in _SPEC_STARTS:
        return None
    days: list[DayHours | None] = [None] * 7
    timed, at = False, 0
    while at < len(text):
        found = _SPEC_RULE.match(text, at)
        if found is None or found.end() == at:
            return None
        numbers = _spec_days(found.group(1))
        if not numbers:
            return None
        said = found.group(2).lower()
        state = frozenset() if said in ("off", "closed") else _times_in(found.group(2))
        if state == frozenset({(0, 0)}):
            state = None                    # 00:00-24:00, all day: not read
        for number in numbers:
            days[number] = state
        timed = timed or bool(state)
        at = found.end()
    return tuple(days) if timed else None


# The first two letters a string of day ranges may start with (a cheap test before the rest).
_SPEC_STARTS = frozenset(_SHORT_DAYS)


def _spec_lines(node: Sequence) -> tuple[DayHours | None, ...] | None:
    """schema.org's ``openingHours`` as a list: ["Mo-Fr 11:30-21:00", "Sa 12:00-22:30"]."""
    if not node or not all(isinstance(line, str) for line in node):
        return None
    return _spec_table("; ".join(line.strip() for line in node))


def _day_rows(node: Sequence) -> tuple[DayHours | None, ...] | None:
    """``[{"day": "Wednesday", "open": "11:30", "close": "21:00"}, ...]`` and schema.org's
    ``openingHoursSpecification`` (``dayOfWeek``: one name or a list, ``opens``, ``closes``):
    each row's day has its times; a day of no row is not said. A row valid from a date on
    (a holiday's) is no weekday's."""
    days: list[DayHours | None] = [None] * 7
    timed = False
    for row in node:
        if not isinstance(row, Mapping):
            return None
        named = next((value for name, value in row.items()
                      if str(name).lower() in _DAY_FIELDS), None)
        names = named if isinstance(named, (list, tuple)) else [named]
        numbers = [_weekday_of(name) for name in names]
        if not numbers or None in numbers:
            return None
        if any(str(name).lower() in _DATE_FIELDS for name in row):
            continue
        state = _state({name: value for name, value in row.items()
                        if str(name).lower() not in _DAY_FIELDS})
        opens_closes = {str(name).lower(): value for name, value in row.items()}
        if state == frozenset({(0, 0)}) and opens_closes.get("opens") is not None:
            state = None            # schema.org's 00:00-00:00 (closed) or all day: not read
        for number in numbers:
            days[number] = state if days[number] is None or state is None \
                else days[number] | state
        timed = timed or bool(state)
    return tuple(days) if timed else None


_DAY_LINE = re.compile(r"[ \t]*([^\W\d_]+)[ \t]*:[ \t]*(.+)")


def _day_lines(node: Sequence) -> tuple[DayHours | None, ...] | None:
    """Google Places' ``weekday_text``: ["Monday: 11:30 AM – 9:00 PM", "Sunday: Closed"]."""
    days: list[DayHours | None] = [None] * 7
    timed = False
    for line in node:
        if not isinstance(line, str):
            return None
        found = _DAY_LINE.match(line)
        number = _weekday_of(found.group(1)) if found else None
        if number is None:
            return None
        days[number] = _times_in(found.group(2))
        timed = timed or bool(days[number])
    return tuple(days) if timed else None


def _period_time(point: Any) -> tuple[int, tuple[int, int]] | None:
    """The (weekday from Monday, (hour, minute)) of a Google period's ``open`` or ``close``:
    ``{"day": 3, "time": "1130"}``, or the Places API's ``{"day": 3, "hour": 11, "minute": 30}``
    (day 0 is Sunday)."""
    if not isinstance(point, Mapping) or not isinstance(point.get("day"), int) \
            or isinstance(point.get("day"), bool) or not 0 <= point["day"] <= 6:
        return None
    weekday = (point["day"] + 6) % 7
    written = point.get("time")
    if isinstance(written, str):
        found = _HHMM.fullmatch(written.strip())
        return (weekday, (int(found.group(1)) % 24, int(found.group(2)))) if found else None
    hour, minute = point.get("hour"), point.get("minute", 0)
    if isinstance(hour, int) and isinstance(minute, int) and 0 <= hour <= 24 \
            and 0 <= minute < 60:
        return weekday, (hour % 24, minute)
    return None


def _periods(node: Sequence) -> tuple[DayHours | None, ...] | None:
    """Google Places' ``periods``: [{"open": {"day": 3, "time": "1130"}, "close": {"day": 3,
    "time": "2100"}}]. A day no period opens on is closed; a closing time after midnight is the
    opening day's; a period with no close (open all week) says no day's hours."""
    days: list[set[tuple[int, int]]] = [set() for _ in range(7)]
    for period in node:
        if not isinstance(period, Mapping):
            return None
        opened = _period_time(period.get("open"))
        if opened is None:
            return None
        closed = _period_time(period.get("close"))
        if closed is None:
            return None                     # open around the clock
        days[opened[0]].add(opened[1])
        days[opened[0]].add(closed[1])
    if not any(days):
        return None
    return tuple(frozenset(day) for day in days)


def _special_date(node: Mapping, special: set) -> None:
    """A date with hours of its own (Google's ``special_days``, a holiday's row, schema.org's
    ``validFrom``/``validThrough``): the weekday's hours do not judge it."""
    start = end = None
    for name, value in node.items():
        low = str(name).lower()
        if low in _DATE_FIELDS and isinstance(value, str):
            start = _iso_day(value)
        elif low in _DATE_END_FIELDS and isinstance(value, str):
            end = _iso_day(value)
    if start is None:
        return
    end = end if end is not None and start <= end <= start + dt.timedelta(days=62) else start
    while start <= end:
        special.add(start)
        start += dt.timedelta(days=1)


def _iso_day(value: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat(value.strip()[:10])
    except ValueError:
        return None


# --- the answer ---------------------------------------------------------------------------------

# Words of opening hours: an answer with none of them is not read (a substring test, in the
# text lower-cased); then a clause must hold one of ``_HOURS_WORDS``.
_CUES = ("open", "clos", "hours", "geöffnet", "öffn", "offen", "schließ", "schliess", "ouvert",
         "ouvr", "ferm", "horaire", "abiert", "abre", "abri", "cierr", "cerra", "horario",
         "aperto", "apert", "apre", "apri", "chiu", "orari", "geopend", "sluit", "aberto",
         "fech", "horário")
_HOURS_WORDS = _LONE_HOURS_WORDS | frozenset(
    "open opens opened opening close closes closing closed reopen reopens hours "
    "öffnet öffnen offen schließt schließen schliessen ouverte ouverts ouvertes ouvre ouvrons "
    "ferme fermons fermée abierta abiertos abre abrimos cierra cerramos "
    "aperto aperta aperti apre apriamo chiude chiudiamo chiuso orari orario "
    "geopend sluit sluiten gesloten openingstijden "
    "aberto aberta abertos fecha fechamos fechado horário".split())
# Who keeps the hours: a clause naming one of them (or a row of the evidence by its name, or
# starting with its day or an hours word: "Open today until 9", "Heute bis 22 Uhr geöffnet")
# speaks of the store's.
_STORE_WORDS = _EN_STORE_WORDS | frozenset(
    "wir unser unsere laden geschäft küche nous il elle magasin boutique cuisine estamos "
    "abrimos cerramos tienda cocina local siamo negozio cucina wij zijn winkel keuken loja "
    "cozinha".split())
# What else may open or close with a day and a time ("the return window closes at 6 today").
_NOT_THE_STORE = _NOT_STORE | frozenset(
    "voting registration bidding auction market enrollment enrolment applications application "
    "polls order orders delivery arrives arrive delivered ships shipped".split())
_HOURS_NOUNS = frozenset("hours öffnungszeiten horaires horario orari orario openingstijden "
                        "horário".split())
# A denial says no hours: "Today we don't close at 10:30 pm".
_DENYING = frozenset("not don't doesn't don’t doesn’t isn't aren't won't never no "
                     "nicht kein keine pas ne n' no nunca non niet geen não".split())
_CLAUSE_CUT = re.compile(r"[,;!?]|[ \t](?:and|but|while|whereas|because|und|aber|et|mais|y|"
                         r"pero|ma|maar|mas)[ \t]")
# (not the full stops of "p.m.": a letter alone before one)
_SENTENCE_END = re.compile(r"[!?;\n]|(?<![ \t.(][a-z])\.(?![0-9])")
_LEADING = frozenset("on am le el il op no and und et y e".split())
_WORD = re.compile(r"[^\W\d_][\w'’]*")
_RELATIVE = {
    "en": {"today": 0, "tonight": 0, "tomorrow": 1},
    "de": {"heute": 0, "morgen": 1},
    "fr": {"aujourd'hui": 0, "aujourd’hui": 0, "ce soir": 0, "demain": 1},
    "es": {"hoy": 0, "esta noche": 0, "mañana": 1},
    "it": {"oggi": 0, "stasera": 0, "domani": 1},
    "pt": {"hoje": 0, "esta noite": 0, "amanhã": 1},
    "nl": {"vandaag": 0, "vanavond": 0, "morgen": 1},
}
# "heute morgen", "esta mañana": a morning, no next day.
_MORNING_BEFORE = ("heute ", "la ", "esta ", "de ", "deze ", "am ", "this ")


@functools.lru_cache(maxsize=32)
def _day_pattern(language: str) -> tuple[re.Pattern, Mapping[str, int | str]]:
    """The days an answer of ``language`` may give hours of, as one pattern over lower-cased
    text: its relative days and English's, and the weekdays of both, plural too ("Saturdays",
    "samstags"; not "morgens", the mornings), each maybe with a possessive ("Tomorrow's");
    each with its offset from today (an int) or its weekday ("w3")."""
    days: dict[str, int | str] = dict(_RELATIVE["en"])
    days.update(_RELATIVE.get(language, {}))
    for source in {"en", language}:
        try:
            names = get_day_names("wide", "format", source)
        except (ValueError, LookupError):
            continue
        for number, name in names.items():
            days.setdefault(name.lower(), f"w{number}")
    weekdays = sorted((name for name, said in days.items() if isinstance(said, str)),
                      key=len, reverse=True)
    relative = sorted((name for name, said in days.items() if isinstance(said, int)),
                      key=len, reverse=True)
    pattern = re.compile(r"(?<![\w'’-])(?:(" + "|".join(map(re.escape, weekdays)) + r")s?|("
                         + "|".join(map(re.escape, relative)) + r"))(?:['’]s)?(?![\w'’-])")
    return pattern, days


def may_say_hours(low: str) -> bool:
    """Whether a lower-cased answer may speak of opening hours (substring tests)."""
    return any(cue in low for cue in _CUES)


def _clauses(low: str) -> list[tuple[int, int]]:
    """The clauses of ``low``: each sentence cut at commas, semicolons and joining words (not at
    a colon or a dash: "Today's hours: 11:30 – 21:00"), as (start, end)."""
    spans, start = [], 0
    for end in [m.start() for m in _SENTENCE_END.finditer(low)] + [len(low)]:
        at = start
        for cut in _CLAUSE_CUT.finditer(low, start, end):
            spans.append((at, cut.start()))
            at = cut.end()
        spans.append((at, end))
        start = end + 1
    return [(s, e) for s, e in spans if e > s]


def week_hours_said(text: str, low: str, mentions: Sequence[Mention], hours: WeekHours,
                    today: dt.date | None, locale: str, names: frozenset[str] = frozenset()
                    ) -> tuple[list[Finding], set[tuple[int, int]], set[tuple[int, int]]]:
    """The clock times said in a clause of the store's opening hours with a day, held to that
    day's ``hours`` (see the module's text): the findings, the spans of the times judged (no
    other reading judges them), and the spans of the relative days of their clauses (no day of
    the data: the store's hours). ``low`` is ``text`` lower-cased, of its length; ``names``
    the evidence's row names (``Evidence.row_name_texts``)."""
    findings: list[Finding] = []
    settled: set[tuple[int, int]] = set()
    days_said: set[tuple[int, int]] = set()
    clocks = [m for m in mentions if m.kind == "date" and m.time is not None and m.day is None
              and m.time.tzinfo is None and (m.normalized or "")[:1].isdigit()]
    if not clocks or len(low) != len(text):
        return findings, settled, days_said
    pattern, day_words = _day_pattern(locale.split("_")[0].lower())
    carried: tuple[int, int, int | str] | None = None      # "Today, we're open until 9"
    said_hours = False          # whether a clause of the sentence spoke of the store's hours
    previous_end, next_clock = -1, 0
    for start, end in _clauses(low):
        if _SENTENCE_END.search(low, max(previous_end, 0), start) is not None:
            carried, said_hours = None, False
        previous_end = end
        while next_clock < len(clocks) and clocks[next_clock].start < start:
            next_clock += 1                 # (both in text order: one pass over the clocks)
        inside = []
        while next_clock < len(clocks) and clocks[next_clock].start < end:
            if clocks[next_clock].end <= end:
                inside.append(clocks[next_clock])
            next_clock += 1
        if not inside and end - start > 24:
            continue                        # no time, and more than a day alone
        found = [match for match in pattern.finditer(low, start, end)
                 if not _morning(low, match)]
        words = [word.strip("'’") for word in _WORD.findall(low, start, end)]
        if not inside:
            if len(found) == 1 and len(words) <= 2 and (
                    len(words) == 1 or words[0] in _LEADING):
                carried = _day_of(found[0], day_words)
            continue
        if len(found) == 1:
            day = _day_of(found[0], day_words)
        elif not found and carried is not None:
            day = carried
        else:
            continue                        # no day, or two ("Monday to Friday")
        # "... today until 9 pm and tomorrow until 10:30 pm": the clause goes on with the
        # hours its sentence speaks of
        if _hours_clause(low[start:end], words, day, low, names):
            said_hours = True
        elif not (said_hours and _NOT_THE_STORE.isdisjoint(words)
                  and _DENYING.isdisjoint(words)):
            continue
        weekday, date = _weekday_said(day[2], today)
        if weekday is None or date in hours.special:
            continue
        held = hours.days[weekday]
        if held is None:
            continue
        if isinstance(day[2], int):
            days_said.add((day[0], day[1]))
        name = _WEEKDAY_NAMES[weekday].capitalize()
        said_day = f"{name} ({text[day[0]:day[1]]}, {date.isoformat()})" if date else name
        for mention in inside:
            settled.add((mention.start, mention.end))
            if not held:
                findings.append(_new_finding(
                    "date", mention.text, mention.normalized, mention.start, mention.end,
                    "unsupported_date", f"{mention.text} is said as opening hours on "
                    f"{said_day}, and the evidence's hours say it is closed that day"))
            elif not _held_time(mention, held):
                shown = ", ".join(f"{h:02d}:{m:02d}" for h, m in sorted(held))
                findings.append(_new_finding(
                    "date", mention.text, mention.normalized, mention.start, mention.end,
                    "unsupported_date", f"{mention.text} is not a time of the evidence's hours "
                    f"on {said_day}, which are {shown}"))
    return findings, settled, days_said


def _day_of(match: re.Match, day_words: Mapping[str, int | str]) -> tuple[int, int, int | str]:
    """The span of the day a match of ``_day_pattern`` names (without a plural or a
    possessive), and what it means: an offset from today, or a weekday ("w3")."""
    group = 1 if match.group(1) else 2
    return (*match.span(group), day_words[match.group(group)])


def _morning(low: str, match: re.Match) -> bool:
    """"heute morgen", "esta mañana": the morning of today, not tomorrow."""
    return match.group(2) in ("morgen", "mañana") \
        and low.endswith(_MORNING_BEFORE, 0, match.start())


def _hours_clause(clause: str, words: list[str], day: tuple, low: str,
                  names: frozenset[str]) -> bool:
    """Whether a clause speaks of the store's own opening hours: it holds a word of them, no
    other thing that opens or closes, and names the store (``_STORE_WORDS``, a row's name) or
    starts with its day or with the word of hours."""
    bare = {word[:-2] if word.endswith(("'s", "’s")) else word for word in words}
    if _HOURS_WORDS.isdisjoint(bare) or not _NOT_THE_STORE.isdisjoint(bare) \
            or not _DENYING.isdisjoint(bare):
        return False
    if not _STORE_WORDS.isdisjoint(bare) or any(name in clause for name in names):
        return True
    if not _HOURS_NOUNS.isdisjoint(bare):
        return True                 # "Tomorrow's hours: 11:30–21:00"
    first = next((word for word in words if word not in _LEADING), "")
    first = first[:-2] if first.endswith(("'s", "’s")) else first
    return first in _HOURS_WORDS or low[day[0]:day[1]].startswith(first) and bool(first)


def _weekday_said(said: int | str, today: dt.date | None
                  ) -> tuple[int | None, dt.date | None]:
    """The weekday a day word means, and its date when it is relative to ``today``."""
    if isinstance(said, str):
        return int(said[1:]), None
    if today is None:
        return None, None
    date = today + dt.timedelta(days=said)
    return date.weekday(), date


_HALF_SAID = re.compile(r"(?i)[ap]\.?[ \u00a0\u202f]?m(?![a-z])|morning|evening|afternoon|noon|"
                        r"night|0[0-9]:")


def _held_time(mention: Mention, held: DayHours) -> bool:
    """Whether the day's hours hold the time said: either half of the day when it does not say
    which ("closes at 9"), and midnight as 23:59 too."""
    time = mention.time
    said = (time.hour, time.minute)
    if said in held:
        return True
    if said == (0, 0) and (23, 59) in held:
        return True
    if _HALF_SAID.search(mention.text) is not None:
        return False
    # "8 o'clock", "until 9": the scanner picks a half the hours may not
    other = time.hour + 12 if time.hour < 12 else time.hour - 12
    return (other, time.minute) in held and (time.hour < 12 or mention.text.strip().isdigit())
