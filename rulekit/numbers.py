"""Reading a number a human or a model wrote: ``1299``, ``$1,299.00``, ``1.299,00 €``, ``12 %``.

``parse_number`` turns one written number into a ``ParsedNumber``: its exact ``Decimal`` value,
the currency it names (if any), whether it is a percentage, and how many digits were written
after the decimal separator. It returns None for anything that is not exactly one number, so a
caller fails closed instead of guessing.

Separators (``.`` and ``,`` are the only ambiguous ones; a space of any width, an apostrophe and
the Arabic thousands separator only ever group, the Arabic decimal separator only ever separates
decimals):

- both ``.`` and ``,`` appear: the last one is the decimal separator, the other groups;
- one of them appears more than once: it groups;
- it appears once, after other grouping characters (``1 299,50``, ``1'299.50``): decimal;
- it appears once, followed by exactly three digits (``1.299``, ``1,299``): ambiguous; it is the
  decimal separator if it is the locale's, and groups otherwise;
- it appears once, followed by any other number of digits: decimal.

Grouping must be well formed: groups of three (``1,234,567``), or the Indian 2-then-3 form
(``12,34,567``), the first group without a leading zero; one grouping character throughout.

Currency symbols and ISO codes, before or after the number, resolve to ISO codes through babel's
symbols in a fixed set of reference locales plus the caller's (``REFERENCE_LOCALES``). A symbol
resolves when it is an ISO code, when the caller's locale gives it exactly one currency, or when
all reference locales together give it exactly one; otherwise ``currency`` is None and the
symbol is kept in ``currency_text``, and ``currencies_for_symbol`` says what it could be.

Everything here is pure and thread-safe: the babel look-ups are cached per locale (read-only
mappings behind ``functools.lru_cache``), and so are the results for short texts (immutable
``ParsedNumber`` values in a bounded ``lru_cache``); nothing else is stored. An unknown locale
raises ``ValueError``: locales come from a compiled policy, which checked them.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
import unicodedata
from decimal import Decimal, InvalidOperation
from types import MappingProxyType
from typing import Mapping

from babel import Locale
from babel.core import UnknownLocaleError, get_global
from babel.numbers import (
    get_currency_precision,
    get_currency_symbol,
    get_decimal_symbol,
    get_territory_currencies,
    list_currencies,
)

__all__ = [
    "REFERENCE_LOCALES",
    "ParsedNumber",
    "currencies_for_symbol",
    "parse_number",
    "to_minor_units",
]

# The locales whose currency symbols every look-up consults, besides the caller's own.
REFERENCE_LOCALES: tuple[str, ...] = (
    "en_US", "en_GB", "en_CA", "en_AU", "de_DE", "fr_FR", "ja_JP", "zh_CN", "en_IN", "de_CH",
)

# Longer input is not one number a person wrote; refusing it bounds the work per call.
MAX_LENGTH = 200


@dataclasses.dataclass(frozen=True, slots=True)
class ParsedNumber:
    """One written number. ``value`` is the number as written: ``12 %`` is ``Decimal(12)`` with
    ``percent`` set. ``decimals`` counts the digits written after the decimal separator, so
    ``1299.00`` has 2 and ``1299`` has 0 (the shown precision, not the value's)."""
    value: Decimal
    currency: str | None = None
    currency_text: str | None = None
    percent: bool = False
    decimals: int = 0


# --- text clean-up ----------------------------------------------------------------------------

_ARABIC_DECIMAL = "\u066b"      # ٫ : always a decimal separator
_CLEANUP = {
    **dict.fromkeys(map(ord, "\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e"
                             "\u2066\u2067\u2068\u2069\ufeff\u200b"), None),  # bidi marks
    0x2212: "-",    # MINUS SIGN
    0x2019: "'",    # RIGHT SINGLE QUOTATION MARK, the Swiss group separator before CLDR 48
    0x02BC: "'",    # MODIFIER LETTER APOSTROPHE
    0x066C: "'",    # ARABIC THOUSANDS SEPARATOR
    0x066A: "%",    # ARABIC PERCENT SIGN
}


def _clean(text: str) -> str:
    """NFKC (fullwidth forms, every kind of space to ' '), bidi marks dropped, signs and
    grouping characters unified, and every decimal digit (Arabic-Indic, Devanagari, ...) made
    ASCII."""
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text).translate(_CLEANUP)
        if not text.isascii():
            text = "".join(_ascii_digit(char) for char in text)
    return text.strip()


def _ascii_digit(char: str) -> str:
    if char.isascii():
        return char
    digit = unicodedata.decimal(char, None)
    return char if digit is None else str(digit)


# --- the shape of a written number ------------------------------------------------------------

# Text before the number, the number itself (digits and the characters that may sit between
# them), text after. The number starts with a digit or a decimal separator and ends with a digit.
_NUMBER = re.compile(r"(?P<pre>[^0-9]*?)(?P<core>[.,\u066b]?[0-9](?:[0-9.,' \u066b]*[0-9])?)"
                     r"(?P<post>[^0-9]*)")
_AFFIX_TOKENS = re.compile(r"[+-]|%|[^\s+%-]+")
_SEPARATORS = re.compile(r"([^0-9])")
_SIGNS = frozenset("+-")


def plain_decimal(value: Decimal) -> str:
    """A finite value without trailing zeros after its point and never in exponent notation:
    1300000.0 (1.3 x 10^6) is "1300000", 4.230000 is "4.23", -0 is "0"."""
    text = format(value.normalize(), "f")
    return "0" if text == "-0" else text


def parse_number(text: str | int | float | Decimal, locale: str) -> ParsedNumber | None:
    """Read ``text`` as one number in ``locale``; None when it is not exactly one number.

    An ``int`` or ``Decimal`` is taken as it is, a ``float`` through its shortest repr; a
    ``bool`` and a non-finite value are not numbers. ``locale`` decides only the ambiguous
    ``1.299`` / ``1,299`` and which currency a symbol such as ``$`` names.
    """
    if isinstance(text, bool):
        return None
    if isinstance(text, int):
        return ParsedNumber(Decimal(text))
    if isinstance(text, float):
        if not math.isfinite(text):
            return None
        text = Decimal(repr(text))
    if isinstance(text, Decimal):
        if not text.is_finite():
            return None
        exponent = text.as_tuple().exponent
        return ParsedNumber(text, decimals=max(0, -exponent))
    if not isinstance(text, str) or len(text) > MAX_LENGTH:
        return None
    if len(text) <= CACHED_LENGTH:
        return _parse_text_cached(text, locale)
    return _parse_text(text, locale)


# The same notations come back again and again ("1.299,00 €", "$19.99"), and reading one costs
# a regex, a clean-up and a few babel look-ups; the result is immutable, so it is cached. The
# text comes from a model, so the cache is bounded twice: in entries, and by caching only short
# texts (a written amount is short; longer text is read every time).
CACHED_LENGTH = 64
_CACHE_ENTRIES = 4096


def _parse_text(text: str, locale: str) -> ParsedNumber | None:
    """``parse_number`` for a string of at most ``MAX_LENGTH`` characters."""
    match = _NUMBER.fullmatch(_clean(text))
    if match is None:
        return None
    affixes = _read_affixes(match["pre"], match["post"])
    if affixes is None:
        return None
    sign, symbol, percent = affixes
    number = _read_core(match["core"], _decimal_symbol(locale))
    if number is None:
        return None
    digits, decimals = number
    value = Decimal(digits)
    if sign == "-":
        value = -value
    currency = None if symbol is None else _resolve_currency(symbol, locale)
    if symbol is not None and currency is None and not _known_symbol(symbol, locale):
        return None
    return ParsedNumber(value, currency, symbol, percent, decimals)


_parse_text_cached = functools.lru_cache(maxsize=_CACHE_ENTRIES)(_parse_text)


def _read_affixes(pre: str, post: str) -> tuple[str | None, str | None, bool] | None:
    """(sign, currency text, percent) from the text around the number, or None when it holds
    anything else. Allowed: ``[sign] [currency] [sign]`` or ``[sign] %`` before, ``currency``
    or ``%`` after; one sign at most, one currency or one percent sign at most."""
    sign = symbol = None
    percent = False
    before = _AFFIX_TOKENS.findall(pre)
    after = _AFFIX_TOKENS.findall(post)
    if len(before) > 3 or len(after) > 1:
        return None
    for index, token in enumerate(before):
        if token in _SIGNS:
            if sign is not None:
                return None
            sign = token
        elif token == "%":
            if percent or index != len(before) - 1:
                return None
            percent = True
        elif symbol is None and not percent:
            symbol = token
        else:
            return None
    if after:
        token = after[0]
        if token in _SIGNS or symbol is not None or percent:
            return None
        if token == "%":
            percent = True
        else:
            symbol = token
    if percent and symbol is not None:
        return None
    return sign, symbol, percent


def _read_core(core: str, locale_decimal: str) -> tuple[str, int] | None:
    """The digits of ``core`` as a plain decimal string, and the count of decimals written;
    None when its separators do not make one well-formed number."""
    parts = _SEPARATORS.split(core)
    if len(parts) == 1:
        return core, 0
    runs, seps = parts[0::2], parts[1::2]
    if "" in runs[1:]:
        return None                                 # two separators in a row

    decimal_at = _decimal_separator_index(runs, seps, locale_decimal)
    if decimal_at == -2:
        return None
    if decimal_at is None:
        group_seps, int_runs, fraction = seps, runs, ""
    else:
        group_seps, int_runs, fraction = seps[:decimal_at], runs[:decimal_at + 1], runs[-1]
    if group_seps:
        if len(set(group_seps)) != 1 or not _valid_groups(int_runs):
            return None
    integer = "".join(int_runs) or "0"
    if fraction:
        return f"{integer}.{fraction}", len(fraction)
    return integer, 0


def _decimal_separator_index(runs: list[str], seps: list[str], locale_decimal: str) -> int | None:
    """Which separator is the decimal one: its index, None when all group, -2 when the
    separators contradict each other."""
    last = len(seps) - 1
    if _ARABIC_DECIMAL in seps:
        at = seps.index(_ARABIC_DECIMAL)
        return at if at == last else -2
    ambiguous = [index for index, sep in enumerate(seps) if sep in ".,"]
    if not ambiguous:
        return None                                 # spaces and apostrophes only group
    final = ambiguous[-1]
    kinds = {seps[index] for index in ambiguous}
    if len(kinds) == 2:                             # 1.299,00 / 1,299.00
        if final != last or seps.count(seps[final]) != 1:
            return -2
        return final
    if len(ambiguous) > 1:                          # 1,234,567
        return None
    if len(seps) > 1:                               # 1 299,50 / 1'299.50
        return final if final == last else -2
    if len(runs[1]) == 3:                           # 1.299 / 1,299: the locale decides
        return final if seps[final] == locale_decimal else None
    return final


def _valid_groups(runs: list[str]) -> bool:
    """Groups of three after a first group of 1-3 digits, or the Indian form: a first group of
    1-2 digits, groups of two, a last group of three. No leading zero in the first group."""
    first, rest = runs[0], runs[1:]
    if not first or first[0] == "0" or len(rest[-1]) != 3:
        return False
    if len(first) <= 3 and all(len(run) == 3 for run in rest):
        return True
    return len(first) <= 2 and all(len(run) == 2 for run in rest[:-1])


# --- locale data, cached ----------------------------------------------------------------------

@functools.lru_cache(maxsize=256)
def _locale(locale: str) -> Locale:
    try:
        return Locale.parse(locale.replace("-", "_"))
    except (UnknownLocaleError, ValueError, TypeError) as error:
        raise ValueError(f"unknown locale {locale!r}") from error


@functools.lru_cache(maxsize=256)
def _decimal_symbol(locale: str) -> str:
    """The decimal separator of ``locale`` with Latin digits, cleaned like the input. Only
    whether it is ``.`` or ``,`` matters: any other separator is unambiguous anyway."""
    return _clean(get_decimal_symbol(_locale(locale)))


@functools.lru_cache(maxsize=1)
def _currency_codes() -> frozenset[str]:
    return frozenset(list_currencies())


def _symbol_key(symbol: str) -> str:
    return _clean(symbol).casefold()


@functools.lru_cache(maxsize=1)
def _tender_codes() -> frozenset[str]:
    """The currencies legal tender somewhere today, without the X-codes (gold, test, none).
    Only these are looked up by symbol: babel also knows the symbols of withdrawn currencies
    (``F`` for FRF, ``öS`` for ATS), which would turn stray letters into money."""
    codes: set[str] = set()
    for territory in get_global("territory_currencies"):
        codes.update(get_territory_currencies(territory, tender=True))
    return frozenset(code for code in codes if not code.startswith("X")) & _currency_codes()


@functools.lru_cache(maxsize=256)
def _symbols_in(locale: str) -> Mapping[str, frozenset[str]]:
    """Every symbol babel writes a current currency with in ``locale``, as a key of
    ``_symbol_key``, mapped to the currencies it stands for there."""
    parsed = _locale(locale)
    index: dict[str, set[str]] = {}
    for code in sorted(_tender_codes()):
        symbol = get_currency_symbol(code, parsed)
        index.setdefault(_symbol_key(symbol), set()).add(code)
    return MappingProxyType({key: frozenset(codes) for key, codes in index.items()})


@functools.lru_cache(maxsize=1)
def _reference_symbols() -> Mapping[str, frozenset[str]]:
    merged: dict[str, set[str]] = {}
    for locale in REFERENCE_LOCALES:
        for key, codes in _symbols_in(locale).items():
            merged.setdefault(key, set()).update(codes)
    return MappingProxyType({key: frozenset(codes) for key, codes in merged.items()})


def currencies_for_symbol(symbol: str, locale: str) -> frozenset[str]:
    """Every ISO code ``symbol`` may stand for: itself when it is an ISO code, and the
    currencies babel writes with it in ``locale`` or in any of ``REFERENCE_LOCALES``.

    ``"USD" in currencies_for_symbol("$", "en_CA")`` answers "could this $ be US dollars?".
    """
    key = _symbol_key(symbol)
    found = _reference_symbols().get(key, frozenset()) | _symbols_in(locale).get(key, frozenset())
    code = key.upper()
    if code in _currency_codes():
        found |= {code}
    return found


@functools.lru_cache(maxsize=4096)
def _resolve_currency(symbol: str, locale: str) -> str | None:
    key = _symbol_key(symbol)
    code = key.upper()
    if code in _currency_codes():
        return code
    here = _symbols_in(locale).get(key)
    if here:
        return next(iter(here)) if len(here) == 1 else None
    anywhere = _reference_symbols().get(key, frozenset())
    return next(iter(anywhere)) if len(anywhere) == 1 else None


@functools.lru_cache(maxsize=512)
def _currency_digits(code: str) -> int:
    return get_currency_precision(code)


def _known_symbol(symbol: str, locale: str) -> bool:
    return bool(currencies_for_symbol(symbol, locale))


# --- money ------------------------------------------------------------------------------------

def to_minor_units(amount: Decimal | int, currency: str) -> int | None:
    """``amount`` of ``currency`` as an integer count of its minor units (cents for USD, yen for
    JPY, fils for BHD), by babel's currency digits. None when the amount does not fit a whole
    number of minor units (``12.345`` USD), is not finite, or the currency is unknown. The test
    is on the value: ``12.340`` USD is 1234."""
    if isinstance(amount, bool) or not isinstance(amount, (int, Decimal)):
        raise TypeError(f"amount must be a Decimal or an int, not {type(amount).__name__}")
    code = currency.upper()
    if code not in _currency_codes():
        return None
    amount = Decimal(amount)
    if not amount.is_finite():
        return None
    try:
        scaled = amount.scaleb(_currency_digits(code))
        whole = scaled.to_integral_value()
    except InvalidOperation:
        return None
    if scaled != whole:
        return None
    return int(whole)
