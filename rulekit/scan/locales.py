"""Per-locale data, built once per locale and cached: the number core (whether a space groups
digits), month and weekday names as patterns, and whether a billion is 10**9 or 10**12."""

from __future__ import annotations

import dataclasses
import functools
import re
import unicodedata
from types import MappingProxyType
from typing import Mapping

from babel import Locale
from babel.core import UnknownLocaleError
from babel.dates import get_day_names, get_month_names
from babel.numbers import get_decimal_symbol, get_group_symbol

from rulekit.scan.base import _ascii_lower, _trie
from rulekit.scan.reader import _SEPARATORS

# The languages whose words the sweep reads, by kind of word: numbers in words, relative days
# ("today", "gestern", "idag", 明日; ``sweep_days._RELATIVE_WORDS``, and the CJK ones in any
# locale) and stock words ("in stock", "ausverkauft", "slutsåld", 在庫あり;
# ``sweep_amounts._FOREIGN_STOCK``). In another locale's language
# they pass unread; the compiler warns of it (RK313).
_MOST = "en de fr es it pt nl zh ja ko"
WORDS_READ = {"numbers in words": frozenset(_MOST.split()),
              "relative days": frozenset(f"{_MOST} sv da nb no pl".split()),
              "stock words": frozenset(f"{_MOST} sv da nb no pl".split())}


@dataclasses.dataclass(frozen=True)
class _LocaleInfo:
    locale: str
    language: str
    core: re.Pattern            # the digits and separators of one number, at a digit
    core_on: frozenset[str]     # what after a run of digits lets ``core`` match past it
    day_month: re.Pattern       # 29 July 2026, 29th of July, 29. Juli, *29* July: at the day
    day_prefix: re.Pattern      # "the", a weekday: reversed, before the day
    month_before: re.Pattern    # July 29 / July 2026: reversed, the month before the digits
    months: Mapping[str, int]
    month_keys: frozenset[str]  # the month names as they look in ASCII-lower-cased text
    month_ends: frozenset[str]  # their last characters: a cheap test before the look-up
    after_day: frozenset[str]   # ASCII that may follow "29 " in a date or time (July, of, pm)
    billion: int
    day_dot_month: bool         # "29.7." is 29 July: dotted day-month dates, a decimal comma
    decimal: str                # the decimal mark, "," or "." (or another the text never holds)
    spaced_cents: bool          # a plain space may group before the decimal comma: "1 299,– €"


_CORE = re.compile(rf"[0-9]+(?:[{_SEPARATORS}][0-9]+)*")
_CORE_SPACED = re.compile(rf"[0-9]+(?:[{_SEPARATORS} ][0-9]+)*")
_LONG_SCALE = frozenset("de fr es it nl pt pl sv da nb fi cs".split())
_ORDINAL_O_DAYS = frozenset(("es", "it", "pt"))     # 1.º, 1º, 1° before a month (``day_month``)
_SPACE = r"[ \t\u00a0]"


def _name_key(name: str) -> str:
    return unicodedata.normalize("NFKC", name).casefold().rstrip(".")


def _after_day(months: Mapping[str, int]) -> frozenset[str]:
    """The ASCII characters that may follow the space after a day in ``day_month`` (the first
    letter of a month name or of "of"/"de", as IGNORECASE matches them), or after an hour ("9
    pm", "12 noon", "8 o'clock", "8 tonight", "3 in the afternoon", "24 hours"), or a day or an
    hour that starts a range ("3 to 4 December", "3 bis 4. Dezember", "9 until 5"), and the
    spaces (more may follow)."""
    letters = "".join(sorted({re.escape(name[0]) for name in months}))
    first = re.compile("(?i)[odnmtuhib" + letters + "]")
    return frozenset(c for c in map(chr, range(128)) if first.match(c)) | frozenset(" \taApP")


@functools.lru_cache(maxsize=64)
def _locale_info(locale: str) -> _LocaleInfo:
    try:
        parsed = Locale.parse(str(locale).replace("-", "_"))
    except (UnknownLocaleError, ValueError, TypeError) as error:
        raise ValueError(f"unknown locale {locale!r}") from error
    # French groups thousands with a space, in Switzerland too, where CLDR gives "'" ("1 299
    # CHF" and "1'299 CHF" are both written there)
    spaced = unicodedata.normalize("NFKC", get_group_symbol(parsed)).isspace() \
        or parsed.language == "fr"
    months: dict[str, int] = {}
    weekdays: set[str] = set()
    for source in ("en", parsed):
        for width in ("wide", "abbreviated"):
            for context in ("format", "stand-alone"):
                for number, name in get_month_names(width, context, source).items():
                    months.setdefault(_name_key(name), number)
                weekdays.update(_name_key(name)
                                for name in get_day_names(width, context, source).values())
    months.setdefault("sept", 9)
    months = {name: number for name, number in months.items() if name and "." not in name}
    weekdays = {name for name in weekdays if name and "." not in name}
    month = _trie(sorted(months))
    reversed_month = _trie(sorted(name[::-1] for name in months))
    reversed_weekday = _trie(sorted(name[::-1] for name in weekdays))
    month_keys = frozenset(_ascii_lower(m) for m in months) | frozenset(m.lower() for m in months)
    # "28 de agosto de 2026": the word the locale's long date pattern puts between day, month
    # and year (es, pt, gl); English "of" everywhere.
    of = "(?:of|de)" if "'de'" in parsed.date_formats["long"].pattern else "of"
    short = parsed.date_formats["short"].pattern
    # "1.º de diciembre", "1º de janeiro", "1° dicembre" (NFKC makes º an o): a day written as an
    # ordinal in Spanish, Portuguese and Italian, a date and never a rank (docs/sweep.md, rule 3)
    ordinal = r"|\.?o|°" if parsed.language in _ORDINAL_O_DAYS else ""
    return _LocaleInfo(
        locale=str(locale), language=parsed.language,
        core=_CORE_SPACED if spaced else _CORE,
        core_on=frozenset(_SEPARATORS + " " if spaced else _SEPARATORS),
        day_month=re.compile(
            rf"(?i)[0-9]{{1,2}}(?:st|nd|rd|th|er|\.{ordinal})?"
            rf"(?:\*{{1,3}}|</[a-z]{{1,10}}>)?{_SPACE}+"
            rf"(?:{of}{_SPACE}+)?(?P<m>{month})"
            rf"(?:(?:\.?,?|{_SPACE}+{of}){_SPACE}+(?P<y>[0-9]{{4}})(?![0-9]))?(?![\w])"),
        day_prefix=re.compile(
            rf"(?i)(?:{_SPACE}+eht)?(?:{_SPACE}+,?\.?(?:{reversed_weekday}))?(?![\w])"),
        month_before=re.compile(
            rf"(?i){_SPACE}+(?:\*{{1,3}}|>[a-z]{{1,10}}/<)?\.?(?P<m>{reversed_month})"
            rf"(?:{_SPACE}+,?\.?(?:{reversed_weekday}))?(?![\w])"),
        months=MappingProxyType(months), month_keys=month_keys,
        month_ends=frozenset(key[-1] for key in month_keys),
        after_day=_after_day(months),
        billion=10**12 if parsed.language in _LONG_SCALE else 10**9,
        day_dot_month=short.startswith("d") and "." in short
        and get_decimal_symbol(parsed) == ",",
        decimal=unicodedata.normalize("NFKC", get_decimal_symbol(parsed)),
        spaced_cents=not spaced and get_decimal_symbol(parsed) == ",")
