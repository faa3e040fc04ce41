"""Dates and clock times at a run of digits: ISO and numeric dates, "29 July 2026", "July 29",
East Asian 2026年7月29日, "21:00", "9 pm", "21 Uhr", "21h30", a date followed by its time.
Values are read by ``rulekit.dates.parse_claimed_date``."""

from __future__ import annotations

import datetime as dt
import functools
import re

from rulekit.dates import ClaimedDate, parse_claimed_date
from rulekit.scan.base import _DIGITS, _Hit, _is_glue
from rulekit.scan.locales import _SPACE, _name_key

@functools.lru_cache(maxsize=4096)
def _claimed(text: str, locale: str) -> ClaimedDate | None:
    """parse_claimed_date, cached: answers repeat their dates."""
    return parse_claimed_date(text, locale)


_VERB_MONTHS = frozenset(("may", "march", "mar"))

# Dates and times, each matched at the first digit of a run.
_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}"
                       r"(?:[T ][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:[.,][0-9]{1,9})?)?"
                       r"(?:Z|[+-][0-9]{2}(?::?[0-9]{2})?)?)?(?![0-9A-Za-z])")
_NUMERIC_DATE = re.compile(r"[0-9]{1,4}([./-])[0-9]{1,2}\1[0-9]{2,4}(?![0-9A-Za-z]|[.,/-][0-9])")
_EAST_ASIAN_DATE = re.compile(r"(?:([0-9]{4})\s?[年년]\s?)?([0-9]{1,2})\s?[月월]"
                              r"(?:\s?([0-9]{1,2})\s?[日号號일])?")
_CLOCK = re.compile(r"([01]?[0-9]|2[0-3]):([0-5][0-9])(?::([0-5][0-9]))?"
                    r"(?:\s?(?:([AaPp])\.\s?[Mm]\.|([AaPp])[Mm])(?![A-Za-z])|\s?Uhr(?![\w]))?"
                    r"(?![0-9]|[:.,][0-9])")
_AMPM = re.compile(r"(1[0-2]|0?[1-9])\s?(?:([AaPp])\.\s?[Mm]\.|([AaPp])[Mm](?![A-Za-z]))")
_UHR = re.compile(r"([01]?[0-9]|2[0-3])(?:\s?Uhr(?![\w])|\s?h\s?([0-5][0-9])(?![0-9]))")
_TIME_AFTER = re.compile(r"(?i)(?:,?\s(?:at\s|um\s|à\s|om\s|kl\.?\s)?|T)(?=[0-9])")
_DAY_NEXT = frozenset(" \t\u00a0.sntre")        # what may follow the day of "29 July"
_AMPM_NEXT = frozenset("aApP")
# What a date's first digit may not follow: an ASCII letter (``_is_glue`` for ASCII) or these.
_NOT_BEFORE = frozenset("./:-_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_DAY_AFTER_MONTH = re.compile(r"(?:(?P<d>[0-9]{1,2})(?![0-9])(?:st|nd|rd|th)?"
                              rf"(?:,?{_SPACE}+(?P<y>[0-9]{{4}})(?![0-9]))?"
                              r"|(?P<y3>[0-9]{4})(?![0-9]))(?![\w])")


class _When:
    """Dates and clock times, at each run of digits; a part of ``_Scanner``."""

    def date_at(self, s: int, e: int) -> int | None:
        """A date or a clock time whose digits start at s (the run [s, e)); its end or None."""
        text, info = self.text, self.info
        n = len(text)
        length = e - s
        after = text[e] if e < n else ""
        before = text[s - 1] if s else " "
        if before in _NOT_BEFORE or (not before.isascii() and _is_glue(before)):
            return None
        if after == "-" and length == 4:
            found = _ISO_DATE.match(text, s)
            if found:
                return self.add_date(s, found.end())
        if after and after in "./-" and length <= 4:
            found = _NUMERIC_DATE.match(text, s)
            if found and _claimed(found.group(), info.locale) is not None:
                return self.add_date(s, found.end())
        if self.has_east_asian and length <= 4:
            found = _EAST_ASIAN_DATE.match(text, s)
            if found and (found.group(1) or found.group(3)):
                return self.east_asian(found)
        if (length <= 2 and after in _DAY_NEXT) or (
                (length <= 2 or length == 4) and before in " \t\u00a0"):
            found = self.textual(s, e)
            if found is not None:
                return found
        if after == ":":
            found = _CLOCK.match(text, s)
            if found:
                meridiem = found.group(4) or found.group(5)
                second = found.group(3)
                return self.add_time(s, found.end(), int(found.group(1)), int(found.group(2)),
                                     int(second) if second else None, meridiem)
        if length <= 2 and after and (
                after in _AMPM_NEXT or (after == " " and text[e + 1:e + 2] in _AMPM_NEXT)):
            found = _AMPM.match(text, s)
            if found:
                return self.add_time(s, found.end(), int(found.group(1)), 0, None,
                                     found.group(2) or found.group(3))
        if length <= 2 and self.hours:
            found = _UHR.match(text, s)
            if found:
                return self.add_time(s, found.end(), int(found.group(1)),
                                     int(found.group(2) or 0), None, None)
        return None

    def textual(self, s: int, e: int) -> int | None:
        """29 July 2026, the 29th of July, July 29, 2026, July 2026: the date's end or None."""
        text, info = self.text, self.info
        if e - s <= 2 and text[e:e + 1] in _DAY_NEXT:     # what day_month needs after the day
            found = info.day_month.match(text, s)
            if found:
                prefix = info.day_prefix.match(text[max(0, s - 24):s][::-1])
                start = s - prefix.end() if prefix else s
                if found.group("m").lower() in _VERB_MONTHS and not found.group("m")[0].isupper():
                    return None             # "may", "march": verbs unless capitalised
                if found.group("y"):
                    return self.add_date(start, found.end())
                return self.yearless(start, found.end(), found.group("m"),
                                     int(_DIGITS.match(text, s).group()), None)
        if s >= 2 and text[s - 1] in " \t\u00a0" and (text[s - 2] == "." or (
                text[s - 2].isalpha() and self.low[s - 2] in info.month_ends)):
            if not self.month_word_before(s):
                return None
            month = info.month_before.match(text[max(0, s - 40):s][::-1])
            if month:
                found = _DAY_AFTER_MONTH.match(text, s)
                name = month.group("m")[::-1]
                if found and (name.lower() not in _VERB_MONTHS or name[0].isupper()):
                    start = s - month.end()
                    if found.group("y"):
                        return self.add_date(start, found.end())
                    if found.group("y3"):
                        return self.yearless(start, found.end(), name, None, found.group("y3"))
                    return self.yearless(start, found.end(), name, int(found.group("d")), None)
        return None

    def month_word_before(self, s: int) -> bool:
        """Whether the word before the space at s - 1 is a month name. A window of 24
        characters holds any month name. When the window has no space the word is longer than
        that (or starts the text): rfind must stay inside the window, as a slice from 0 would
        make the scan quadratic."""
        window_start = max(0, s - 24)
        word_start = self.low.rfind(" ", window_start, s - 1) + 1
        if not word_start and window_start:
            return False
        return self.low[word_start:s - 1].rstrip(".") in self.info.month_keys

    def yearless(self, s: int, e: int, name: str, day: int | None, year: str | None) -> int | None:
        if not self.free(s, e):
            return None
        month = self.info.months.get(_name_key(name))
        hit = _Hit("date", s, e)
        if month is not None:
            if year is not None:
                hit.normalized = f"{year}-{month:02d}"
            elif day is not None and _valid_day(month, day):
                hit.normalized = f"--{month:02d}-{day:02d}"
        return self.claim(hit).e

    def east_asian(self, found: re.Match) -> int | None:
        year, month, day = found.groups()
        s, e = found.span()
        if year and day:
            return self.add_date(s, e)
        if not self.free(s, e):
            return None
        hit = _Hit("date", s, e)
        if year is None and _valid_day(int(month), int(day)):
            hit.normalized = f"--{int(month):02d}-{int(day):02d}"
        elif day is None and 1 <= int(month) <= 12:
            hit.normalized = f"{year}-{int(month):02d}"
        return self.claim(hit).e

    def add_date(self, s: int, e: int) -> int | None:
        """A date with a year, read by parse_claimed_date; a time may follow it. A date that
        does not exist is still a date mention, with no day."""
        text, locale = self.text, self.info.locale
        if not self.free(s, e):
            return None
        claimed = _claimed(text[s:e], locale)
        hit = _Hit("date", s, e)
        if claimed is None:
            return self.claim(hit).e
        if claimed.kind == "date":
            hit.day = claimed.day
            hit.normalized = claimed.day.isoformat()
            joint = _TIME_AFTER.match(text, e)
            clock = joint and (_CLOCK.match(text, joint.end()) or _AMPM.match(text, joint.end()))
            if clock and self.free(clock.start(), clock.end()):
                timed = _claimed(text[s:clock.end()], locale)
                if timed is not None and timed.kind == "timestamp":
                    hit.e, claimed = clock.end(), timed
        if claimed.kind == "timestamp":
            hit.day = claimed.instant.date()
            hit.time = claimed.instant.time()
            hit.normalized = claimed.instant.isoformat()
        return self.claim(hit).e

    def add_time(self, s: int, e: int, hour: int, minute: int, second: int | None,
                 meridiem: str | None) -> int | None:
        if meridiem:
            if not 1 <= hour <= 12:
                return None
            hour = hour % 12 + (12 if meridiem in "pP" else 0)
        if not self.free(s, e):
            return None
        hit = _Hit("date", s, e)
        hit.time = dt.time(hour, minute, second or 0)
        hit.normalized = hit.time.isoformat("seconds" if second is not None else "minutes")
        return self.claim(hit).e


def _valid_day(month: int, day: int) -> bool:
    try:
        dt.date(2000, month, day)         # a leap year: 29 February exists without a year
    except ValueError:
        return False
    return True
