"""Formatting verified values for people, and filling template slots with them.

Slots are always filled from the source of record's values, formatted by code with babel for
the ruleset's locale and currency: the model's own strings never reach the customer.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from decimal import Decimal
from typing import Any, Mapping, Sequence

from babel import Locale
from babel.dates import format_date, format_datetime
from babel.lists import format_list
from babel.numbers import (format_currency, format_decimal, format_percent,
                           get_currency_name, get_currency_precision, get_decimal_symbol)

from rulekit import dates
from rulekit.compare import COMPARATORS, Unreadable, _sign_currency
from rulekit.policy import Field


@functools.lru_cache(maxsize=64)
def locale_of(name: str) -> Locale:
    return Locale.parse(name)


def format_value(field: Field, stored: Any, locale: str, claim_type: str | None = None) -> str:
    """The stored value of ``field`` as a customer reads it. Raises ``compare.Unreadable`` for a
    value the field's type cannot read (the caller refuses: it never renders a guess)."""
    spec = field.type
    value = COMPARATORS[spec.kind].read_actual(spec, stored, claim_type or spec.kind)
    if spec.kind == "money":
        return _money(locale, spec.currency, value)
    try:    # a pattern babel cannot apply (RK312 at compile time) is refused, never raised
        if spec.kind == "date":
            return _day(locale, spec.format, value)
        if spec.kind == "timestamp":
            # Shown as the day in the field's zone, unless the claim was about the time itself
            # or the author's pattern shows the time: a deadline "until 31 October 2027 at
            # 00:30" (the day alone would say the whole day). Both come from the record.
            if claim_type == "timestamp" or dates.shows_time(spec.format):
                return _instant(locale, spec.format, spec.zone, value)
            return _day(locale, spec.format, value.astimezone(dates.zone(spec.zone)).date())
    except (AttributeError, KeyError, TypeError, ValueError):
        shown = "the time" if claim_type == "timestamp" else "a day"
        raise Unreadable(f'field \'{field.name}\' has format "{spec.format}", which cannot show '
                         f"{shown}; `rulekit compile` says why (RK312)") from None
    if spec.kind == "decimal":
        if spec.ratio:      # 0.0484 is shown "4.84%"
            return _decimal(locale, str(Decimal(str(value)) * 100), True)
        return _decimal(locale, str(value), spec.percent)
    if spec.kind == "integer":
        return _decimal(locale, str(value), False)
    if spec.kind == "boolean":
        return "yes" if value else "no"
    if spec.kind == "enum":   # the declared label, else the value as stored (RK413 warns)
        return next((label for v, label in spec.labels if v == value), value)
    return str(stored).strip()


# babel formatting is pure but not cheap (tens of microseconds); the same prices and dates are
# shown again and again, so each formatter keeps a bounded cache of its results.

# The characters that reorder what a reader sees, which the sweep refuses in an answer
# (sweep.direction_controls): CLDR puts a right-to-left mark around money in Arabic and Hebrew
# locales ("\u200f12.345 د.ك.\u200f") and inside Arabic dates, and an app that sweeps the
# text rulekit built would block it. Code-built text carries none; a reader's bidi algorithm
# places a number and its symbol without them.
_NO_DIRECTION_CONTROLS = dict.fromkeys(map(ord, "\u061c\u200f\u202a\u202b\u202c\u202d\u202e"
                                                "\u2066\u2067\u2068\u2069"), None)


@functools.lru_cache(maxsize=4096)
def _money(locale: str, currency: str, minor_units: int) -> str:
    amount = Decimal(minor_units).scaleb(-get_currency_precision(currency))
    return format_currency(amount, currency, locale=locale_of(locale)).translate(
        _NO_DIRECTION_CONTROLS)


@functools.lru_cache(maxsize=4096)
def _day(locale: str, pattern: str, day: dt.date) -> str:
    return format_date(day, format=pattern, locale=locale_of(locale)).translate(
        _NO_DIRECTION_CONTROLS)


@functools.lru_cache(maxsize=4096)
def _instant(locale: str, pattern: str, zone: str, moment: dt.datetime) -> str:
    where, tz = locale_of(locale), dates.zone(zone)
    shown = format_datetime(moment, format=pattern, tzinfo=tz, locale=where).translate(
        _NO_DIRECTION_CONTROLS)
    if _repeated_wall_time(moment, tz) and not _shows_zone(where, pattern):
        # "1 November 2026 at 01:30" in New York names two instants an hour apart (the clock
        # goes back at 02:00): the zone's name for this one is added ("01:30 EDT")
        shown += " " + format_datetime(moment, format="z", tzinfo=tz, locale=where)
    return shown


def _repeated_wall_time(moment: dt.datetime, tz: dt.tzinfo) -> bool:
    """Whether ``moment``'s wall time in ``tz`` happens twice (the hour a clock goes back)."""
    local = moment.astimezone(tz)
    return local.replace(fold=1 - local.fold).utcoffset() != local.utcoffset()


def _shows_zone(where: Locale, pattern: str) -> bool:
    """Whether ``pattern`` (or the locale's named format: short, medium, long, full) shows a
    time zone."""
    if pattern in ("short", "medium", "long", "full"):
        pattern = str(where.time_formats[pattern].pattern)
    return any(letter in dates.ZONE_LETTERS for letter, _, _ in dates.pattern_letters(pattern)[0])


@functools.lru_cache(maxsize=4096)
def _decimal(locale: str, text: str, percent: bool) -> str:
    # Keyed by the text, not the Decimal: 4.2 and 4.20 are equal but are shown differently.
    value, where = Decimal(text), locale_of(locale)
    if percent:   # stored in percentage points: 4.6 means 4.6 %
        return format_percent(value / 100, locale=where, decimal_quantization=False)
    return format_decimal(value, locale=where, decimal_quantization=False)


def fill(pieces: Sequence[str], values: Mapping[str, str],
         currencies: Mapping[str, str] | None = None, locale: str = "en") -> str:
    """Literal text at even positions of ``pieces``, slot names at odd ones. A value that ends
    with a full stop (da_DK "1.299,00 kr.") at the end of a sentence ends it once, not "kr..".
    ``currencies`` maps each money slot to its currency: when the text right beside the slot
    writes that currency itself ("{price}円", "{price} USD", "${price}"), the slot shows the
    amount without the locale's symbol ("1,299円", not "￥1,299円")."""
    text = list(pieces)
    for at in range(1, len(text), 2):
        value, right = values[text[at]], text[at + 1]
        currency = currencies.get(text[at]) if currencies else None
        if currency and _writes_currency(text[at - 1], right, currency, locale):
            value = _without_symbol(value, currency, locale)
            if right.startswith(_WHOLE_DASHES):
                value = _whole(value, locale)           # "{price}:-": 1 299:-, not 1 299,00:-
        if value.endswith(".") and right.startswith(".") and not right.startswith(".."):
            text[at + 1] = right[1:]
        text[at] = value
    return "".join(text)


_SPACES = " \xa0\u202f"
# A currency's everyday word that CLDR does not list as its symbol or name in that language.
_CURRENCY_WORDS = {"JPY": ("円",), "CNY": ("元",), "KRW": ("원",)}


@functools.lru_cache(maxsize=256)
def _currency_words(currency: str, locale: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """What writes ``currency`` beside an amount in ``locale``: its symbols (the locale's and
    the English one: "￥" and "¥"; matched exactly) and its code, names and their last words
    ("US dollars", "dollars"; matched in any case)."""
    where = locale_of(locale)
    symbols = {where.currency_symbols.get(currency, currency),
               locale_of("en").currency_symbols.get(currency, currency),
               *_CURRENCY_WORDS.get(currency, ())}
    names = {currency}
    for count in (None, 1, 2, 5, 1.5):     # the plural forms a language has
        name = get_currency_name(currency, count=count, locale=where)
        names.update((name, name.split()[-1]))
    return tuple(symbols), tuple({name.casefold() for name in names if name})


def _writes_currency(left: str, right: str, currency: str, locale: str) -> bool:
    """Whether the template text right before or after a money slot names its currency: a
    symbol, code or name babel gives it, or a word the sweep reads as it ("francs" for CHF in
    fr_CH, Swedish ":-" for kronor)."""
    symbols, names = _currency_words(currency, locale)
    before, after = left.rstrip(_SPACES), right.lstrip(_SPACES)
    if any(after.startswith(s) and _ends_word(after, len(s)) for s in symbols) or \
            any(before.endswith(s) and _starts_word(before, len(before) - len(s))
                for s in symbols):
        return True
    if right.startswith(":-"):
        return _says_currency("kr", currency, locale)
    word = _WORDS_AFTER.match(after)
    if word is not None and any(_says_currency(said, currency, locale)
                                for said in (word.group(), word.group(1)) if said):
        return True
    before, after = before.casefold(), after.casefold()
    return any(after.startswith(n) and _ends_word(after, len(n)) for n in names) or \
        any(before.endswith(n) and _starts_word(before, len(before) - len(n)) for n in names)


# The words right after a money slot that may name its currency: one ("francs") or two ("Swiss
# francs", "svenska kronor").
_WORDS_AFTER = re.compile(r"([^\W\d_]+)(?:[ \u00a0][^\W\d_]+)?")
# After a money slot, a dash for a whole amount (Swedish "{price}:-", "{price},-"), and the zero
# minor digits it stands for.
_WHOLE_DASHES = (":-", ",-", ".-")


def _whole(shown: str, locale: str) -> str:
    """An amount shown without its symbol, without its minor digits when they are zeros."""
    whole, mark, minor = shown.rpartition(get_decimal_symbol(locale_of(locale)))
    return whole if mark and minor and not minor.strip("0") else shown


@functools.lru_cache(maxsize=256)
def _says_currency(said: str, currency: str, locale: str) -> bool:
    """Whether a word beside an amount names ``currency`` as the sweep reads it."""
    return _sign_currency(said, currency, locale) == currency


def _ends_word(text: str, at: int) -> bool:
    """Whether a word of Latin letters ending at ``at`` is whole ("kr" in "kr." but not in
    "kronor"); a CJK or Hangul word needs no space after it ("円です")."""
    return at >= len(text) or not (text[at].isalpha() and text[at - 1].isalpha()
                                   and text[at - 1] < "\u2e80")


def _starts_word(text: str, at: int) -> bool:
    return at <= 0 or not (text[at - 1].isalpha() and text[at].isalpha() and text[at] < "\u2e80")


def _without_symbol(shown: str, currency: str, locale: str) -> str:
    """An amount ``_money`` formatted, without the currency symbol babel put in it."""
    symbol = locale_of(locale).currency_symbols.get(currency, currency)
    head, found, tail = shown.partition(symbol)
    if not found:
        return shown
    return (head.rstrip(_SPACES) + tail.lstrip(_SPACES)).strip(_SPACES)


# What may follow a left-out value without the space before it.
_GAP_CLOSERS = frozenset(",.;:!?)]")


def fill_message(pieces: Sequence[str], values: Mapping[str, str]) -> str:
    """``fill`` for a message a customer reads, where a placeholder may have nothing to show
    (``{id}`` when no id may be repeated): the empty value is left out with the space before
    it when a space or a mark follows ("for order {id}, so" reads "for order, so"), and with
    the brackets around it ("the price ({id}) did" reads "the price did")."""
    text = list(pieces)
    for at in range(1, len(text), 2):
        value = values[text[at]]
        text[at] = value
        if value:
            continue
        left, right = text[at - 1], text[at + 1]
        if left[-1:] in ("(", "[") and right[:1] in (")", "]"):
            left, right = left[:-1].rstrip(), right[1:]
        if at == 1 and not left:        # the message starts with it (or its brackets)
            right = right.lstrip()
        if left[-1:].isspace() and (not right or right[0].isspace() or right[0] in _GAP_CLOSERS):
            left = left.rstrip()
        text[at - 1], text[at + 1] = left, right
    return "".join(text)


def join_words(words: Sequence[str], locale: str) -> str:
    """"the price, the stock and the delivery estimate", in the locale's own list style."""
    unique = list(dict.fromkeys(words))
    return format_list(unique, locale=locale_of(locale)) if unique else ""


# What databases return most: already JSON-safe, recognised by one look-up.
_JSON_PLAIN = frozenset({str, int, float, bool, type(None)})


def jsonable(value: Any) -> Any:
    """Stored values as JSON-safe data for decisions and logs."""
    if type(value) in _JSON_PLAIN:
        return value
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, Decimal):
        # A NUMERIC column's value: a JSON number when one says exactly the same (4.230000 from
        # a NUMERIC(24, 6) column is 4.23, as a JSON document would hold it), else the digits
        # as a string, so no precision is ever lost on the way to the log.
        if not value.is_finite():
            return str(value)
        if value == value.to_integral_value():
            return int(value)
        # Not normalize(), which rounds to 28 significant digits.
        digits = format(value, "f").rstrip("0").rstrip(".")
        return float(digits) if repr(float(digits)) == digits else digits
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return value
