"""Comparing a claimed value with the stored one, by the type the ruleset declares.

One small comparator per comparison type, on one base; the differences are class attributes
and two methods. ``COMPARATORS`` is the explicit registry. Every comparator reads both sides
into one normal form and compares those, never strings:

- money: integer minor units of one currency ("1299.00", "$1,299.00", 1299 and "1.299,00 €"
  are all 129900 minor units); another currency is contradicted;
- date: a calendar day in the field's zone; timestamp: an instant, compared at the claim's own
  precision, or as a day in the field's zone when the claim is a date;
- decimal: within the field's tolerance; integer: exactly; enum: through the alias table,
  case-folded; identifier: exact or case-folded; url: after the declared normalisation;
  text: with white space collapsed.

A side that cannot be read makes the claim ``not_checkable``: never confirmed.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import re
import unicodedata
from decimal import Decimal, InvalidOperation
from types import MappingProxyType
from typing import Any, ClassVar, Mapping
from urllib.parse import urlsplit, urlunsplit

from rulekit import dates, numbers
from rulekit.types import TypeSpec


@dataclasses.dataclass(frozen=True, slots=True)
class Comparison:
    outcome: str                    # "confirmed", "contradicted" or "not_checkable"
    claimed: Any = None             # the claimed value in normal form (JSON-safe)
    actual: Any = None              # the stored value in normal form (JSON-safe)
    reason: str | None = None
    # The claim could not be read (its value, or its type for the field): the model's slip in
    # writing the reply, which another attempt can fix, not a gap in the records.
    unreadable_claim: bool = False


class Unreadable(ValueError):
    """A value that cannot be read as the field's type; the message says why."""


@dataclasses.dataclass(frozen=True, slots=True)
class SinglePrecision:
    """A number from a single-precision column (MariaDB/MySQL FLOAT, PostgreSQL REAL), as the
    SQL resolvers hand it over: such a column keeps about 7 significant digits, and the driver
    reads the server's text, which MariaDB writes with 6 (12345.67 comes back as 12345.7) and
    PostgreSQL with the fewest that round-trip (1234567.89 as 1234567.9). A rounded figure
    would be confirmed, so no comparison reads it as a number: it is unreadable, with the fix."""
    value: float
    column_type: str        # as the database names it: FLOAT, REAL

    def problem(self) -> str:
        return (f"{self.value!r} comes from a {self.column_type} column, which holds a number "
                "in single precision (about 7 significant digits) and which the driver may "
                "hand over rounded (MariaDB sends 6: 12345.67 as 12345.7), so it is not "
                "compared; store it as DECIMAL(p, s) (NUMERIC on PostgreSQL), or cast it in "
                "the entity's source sql (CAST(amount AS DECIMAL(12, 2)))")


class Comparator:
    kind: ClassVar[str]
    # The claim `type` values a model may use for a field of this kind.
    claim_types: ClassVar[frozenset[str]]
    # How a claimed value of this kind is written so that it can be read, for the model's
    # feedback when one cannot be ("{currency}": the field's).
    form: ClassVar[str] = "the value as the record would state it"

    def read_actual(self, spec: TypeSpec, value: Any, claim_type: str) -> Any:
        raise NotImplementedError

    def read_claimed(self, spec: TypeSpec, value: Any, claim_type: str, locale: str) -> Any:
        raise NotImplementedError

    def equal(self, spec: TypeSpec, claimed: Any, actual: Any) -> bool:
        return claimed == actual

    def show(self, spec: TypeSpec, value: Any) -> Any:
        """The normal form as JSON-safe data, for decisions and logs."""
        return value

    def compare(self, spec: TypeSpec, claim_type: str, claimed: Any, actual: Any,
                locale: str) -> Comparison:
        if claim_type not in self.claim_types:
            return Comparison("not_checkable", reason=(
                f"a claim of type '{claim_type}' cannot be compared with a {self.kind} field; "
                f"use type {' or '.join(sorted(self.claim_types))}"), unreadable_claim=True)
        try:
            stored = self.read_actual(spec, actual, claim_type)
        except Unreadable as exc:
            return Comparison("not_checkable", reason=f"the stored value cannot be read: {exc}")
        try:
            said = self.read_claimed(spec, claimed, claim_type, locale)
        except Unreadable as exc:
            return Comparison("not_checkable", actual=self.show(spec, stored),
                              reason=f"the claimed value cannot be read: {exc}; write "
                              + self.form.format(currency=getattr(spec, "currency", None)),
                              unreadable_claim=True)
        outcome = "confirmed" if self.equal(spec, said, stored) else "contradicted"
        return Comparison(outcome, self.show(spec, said), self.show(spec, stored))


def _text(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int, float, Decimal)):
        raise Unreadable(f"{value!r} is not text")
    text = str(value)
    # ASCII is already in NFC; skipping the normalisation saves most of the call.
    return (text if text.isascii() else unicodedata.normalize("NFC", text)).strip()


def _fold(text: str) -> str:
    return " ".join(text.casefold().split())


# Decimal arithmetic rounds to 28 significant digits (the default context): a stored number
# with more, or of 10**28 or more, would be compared, converted to minor units and shown rounded.
DIGITS = 28
_TOO_BIG = 10 ** DIGITS


def _decimal(value: Any) -> Decimal:
    """A stored number as a finite Decimal. A NUMERIC or REAL column can hold NaN and
    Infinity (PostgreSQL, SQLite), which are no amount, count or measure at all: unreadable,
    said as such, never compared (NaN cannot be ordered) or shown. So is a number with more than
    28 significant digits, or of 10**28 or more (a NUMERIC(40, 6), a double 1e300): it is never
    rounded to fit."""
    if isinstance(value, bool):
        raise Unreadable(f"{value!r} is not a number")
    if isinstance(value, Decimal):
        number = value
    elif isinstance(value, SinglePrecision):
        raise Unreadable(value.problem())
    elif isinstance(value, int):
        if -_TOO_BIG < value < _TOO_BIG:
            return Decimal(value)
        raise Unreadable(_too_precise(value))
    elif isinstance(value, float):
        number = Decimal(str(value))
    elif isinstance(value, str):
        try:
            number = Decimal(value.strip())
        except InvalidOperation:
            raise Unreadable(f"{value!r} is not a number") from None
    else:
        raise Unreadable(f"{value!r} is not a number")
    if not number.is_finite():
        raise Unreadable(f"{value!r} is not a finite number")
    if number.adjusted() >= DIGITS or len(number.as_tuple().digits) > DIGITS:
        raise Unreadable(_too_precise(value))
    return number


def _too_precise(value: Any) -> str:
    shown = f"'{value}'" if isinstance(value, Decimal) else repr(value)
    return (f"{shown} has more than {DIGITS} significant digits or is 10^{DIGITS} or more: "
            "rulekit compares numbers exactly to 28 digits and never rounds a stored value")


def _claimed_number(value: Any, locale: str) -> numbers.ParsedNumber:
    if isinstance(value, bool):
        raise Unreadable(f"{value!r} is not a number")
    if len(text := str(value)) > DIGITS and sum(c.isdigit() for c in text) > DIGITS:
        raise Unreadable(f"{value!r} has more than {DIGITS} digits, which rulekit would round")
    parsed = numbers.parse_number(value, locale)
    if parsed is None:
        raise Unreadable(f"{value!r} is not a number")
    return parsed


class Money(Comparator):
    kind = "money"
    claim_types = frozenset({"money"})
    form = ("an amount in {currency} in digits, with a decimal point and at most the "
            "currency's decimals (1299.00)")

    def read_actual(self, spec, value, claim_type):
        amount = _decimal(value)
        if spec.storage == "minor":
            if amount != amount.to_integral_value():
                raise Unreadable(f"{value!r} is not a whole number of minor units")
            return int(amount)
        minor = numbers.to_minor_units(amount, spec.currency)
        if minor is None:
            raise Unreadable(f"{value!r} has more decimals than {spec.currency} has")
        return minor

    def read_claimed(self, spec, value, claim_type, locale):
        try:
            parsed = _claimed_number(value, locale)
        except Unreadable:
            parsed = _written_sign(value, spec.currency, locale)
            if parsed is None:
                raise
        if parsed.percent:
            raise Unreadable(f"{value!r} is a percentage, not an amount")
        if parsed.currency is not None and parsed.currency != spec.currency and \
                _sign_currency(parsed.currency_text, spec.currency, locale) != spec.currency:
            return _OtherCurrency(parsed.currency)
        if parsed.currency is None and parsed.currency_text:
            if spec.currency not in numbers.currencies_for_symbol(parsed.currency_text, locale):
                return _OtherCurrency(parsed.currency_text)
        minor = numbers.to_minor_units(parsed.value, spec.currency)
        if minor is None:
            raise Unreadable(f"{value!r} has more decimals than {spec.currency} has")
        return minor

    def show(self, spec, value):
        if isinstance(value, _OtherCurrency):
            return {"currency": value.currency}
        return {"minor_units": value, "currency": spec.currency}


@dataclasses.dataclass(frozen=True)
class _OtherCurrency:
    currency: str


def _sign_currency(sign: str | None, currency: str, locale: str) -> str | None:
    """The currency a currency sign names, for a field in ``currency``, as the free-text sweep
    reads the sign (``scan.figures``): the locale's country settles a family first ("Rs" is
    INR in en_IN, "kr" DKK in da_DK, "$" CAD in en_CA), a prefixed dollar is its own ("C$"
    CAD); a family the locale does not settle ("Rs" in en_US) names ``currency`` when it is
    one of its members. None for a sign that names no currency."""
    if not sign:
        return None
    from rulekit.scan.figures import _currency_for, currency_codes, currency_symbol

    named = _currency_for(currency_symbol(sign.strip()), locale)
    if named is None:
        return None
    if named == currency or currency in currency_codes(named):
        return currency
    return named if len(named) == 3 and named.isupper() else None


# An amount as a customer writes it that babel's patterns do not: the currency written with a
# sign babel does not give it in the locale ("Rs. 1,29,900", "C$20", "1.299 kr" in da_DK,
# whose krone babel writes "kr."), or no cents as a dash after the decimal mark ("1.299,– €",
# "49,- EUR") or as India's "/-" ("Rs. 1,29,900/-"), or whole kronor as Swedish writes them
# ("1299:-", which is "kr"). Sign, currency before, digits, the dash, currency after.
_WRITTEN_AMOUNT = re.compile(r"(?P<sign>[+-]?)\s*(?P<pre>[^\d\s+-][^\d]*?)?\s*"
                             r"(?P<core>\d(?:[\d.,' \u00a0\u202f]*\d)?)"
                             r"(?P<dash>[.,:][-\u2013\u2014]|/-)?\s*(?P<post>[^\d\s][^\d]*?)?\s*")


def _written_sign(value: Any, currency: str, locale: str) -> numbers.ParsedNumber | None:
    """``value``, which ``numbers.parse_number`` cannot read, read with its currency sign as
    the sweep reads it (``_sign_currency``) and a dash for no cents as ",00"; None when it is not
    such an amount. The sign is replaced by the ISO code it names, or by ``currency`` when it
    is a sign of ``currency``'s family that the locale does not settle ("Rs" in en_US for an
    INR field), so a sign of another currency still reads as that one."""
    if not isinstance(value, str) or len(value) > numbers.CACHED_LENGTH:
        return None
    found = _WRITTEN_AMOUNT.fullmatch(value.strip())
    if found is None or (found["pre"] and found["post"]):
        return None
    dash = found["dash"] or ""
    sign = (found["pre"] or found["post"] or ("kr" if dash[:1] == ":" else "")).strip()
    core = found["core"] + (dash[0] + "00" if dash[:1] in (".", ",") else "")
    code = _sign_currency(sign, currency, locale)
    if sign and code is None:
        return None     # a sign of no currency
    if not sign and not found["dash"]:
        return None     # nothing to read otherwise than parse_number did
    text = f"{found['sign']}{code} {core}" if code else f"{found['sign']}{core}"
    parsed = numbers.parse_number(text, locale)
    return None if parsed is None else dataclasses.replace(parsed, currency_text=sign or None)


class Date(Comparator):
    kind = "date"
    claim_types = frozenset({"date"})
    form = "a date as YYYY-MM-DD"

    def read_actual(self, spec, value, claim_type):
        if isinstance(value, (int, float, Decimal)) and not isinstance(value, bool):
            # 20261201 (YYYYMMDD) read as Unix seconds is 23 August 1970, and a SQLite julianday
            # is a day in January 1970: a number is no calendar day, whatever it might encode.
            raise Unreadable(f"{value!r} is a number, and a date field holds a date or ISO text "
                             "(YYYY-MM-DD); a number is read neither as YYYYMMDD nor as Unix "
                             "seconds")
        day = dates.stored_day(value, spec.zone, None)    # a naive time: its day as written
        if day is None:
            raise Unreadable(f"{value!r} is not a date{_no_day(value)}")
        return day

    def read_claimed(self, spec, value, claim_type, locale):
        claimed = dates.parse_claimed_date(_text(value), locale, naive_zone=spec.zone)
        if claimed is None:
            raise Unreadable(f"{value!r} is not a date")
        # read as a stored value is: an exact UTC midnight copied from the record is its day
        return dates.stored_day(claimed, spec.zone, None)

    def show(self, spec, value):
        return value.isoformat()


def _no_day(value: Any) -> str:
    """Why a database's date text is no day, for the ones rulekit passes on as text
    (PostgreSQL's infinity, BC and year-10000 dates; MariaDB's zero date)."""
    if isinstance(value, str) and ("infinity" in value or value.endswith(" BC")
                                   or value[:5].isdigit() or value.startswith("0000-00-00")):
        return (": infinity, a date BC or after the year 9999 and a zero date are no day "
                "rulekit can read or show")
    return ""


_NAIVE_WALL_TIME = re.compile(r"\s*([0-9]{4}-[0-9]{2}-[0-9]{2})[T ]([0-9]{2}:[0-9]{2})"
                              r"(?::[0-9]{2})?\s*")


def _skipped_wall_time(text: str, zone: str | None) -> str | None:
    """The wall time of an ISO time with no offset that ``zone`` skips as its clocks go
    forward ("2027-03-28 02:30" in Europe/Berlin), as HH:MM; None for any other text."""
    found = _NAIVE_WALL_TIME.fullmatch(text)
    if found is None or not zone:
        return None
    try:
        naive = dt.datetime.fromisoformat(f"{found.group(1)}T{found.group(2)}")
    except ValueError:
        return None
    return found.group(2) if dates._attach(naive, zone) is None else None


class Timestamp(Comparator):
    """Claimed as a date: the day in the field's zone (23:40 UTC on the 29th is the 30th in
    Berlin). Claimed as a timestamp: the same instant at the claim's precision."""
    kind = "timestamp"
    claim_types = frozenset({"timestamp", "date"})
    form = "a date as YYYY-MM-DD, or a time as YYYY-MM-DDTHH:MM with its offset (Z for UTC)"

    def read_actual(self, spec, value, claim_type):
        instant = dates.stored_instant(value, spec.naive_zone)
        if instant is None:
            if isinstance(value, (int, float, Decimal)) and not isinstance(value, bool):
                raise Unreadable(f"{value!r} is not a timestamp: a number is read as Unix "
                                 "seconds, and only as an instant from 1990 to 2099 (a number "
                                 "outside is milliseconds, a YYYYMMDD day or a Julian day)")
            raise Unreadable(f"{value!r} is not a timestamp{_no_day(value)}")
        return instant

    def read_claimed(self, spec, value, claim_type, locale):
        claimed = dates.parse_claimed_date(_text(value), locale, naive_zone=spec.zone)
        if claimed is None:
            skipped = _skipped_wall_time(_text(value), spec.zone)
            if skipped is not None:
                raise Unreadable(f"{value!r} is a time that does not exist in {spec.zone}: "
                                 f"its clocks go forward over {skipped} on that day")
            raise Unreadable(f"{value!r} is not a date or time")
        return claimed

    def equal(self, spec, claimed, actual):
        if claimed.kind == "date":
            return claimed.day == actual.astimezone(dates.zone(spec.zone)).date()
        return dates.same_instant(claimed, actual)

    def show(self, spec, value):
        if isinstance(value, dates.ClaimedDate):
            return value.day.isoformat() if value.kind == "date" else value.instant.isoformat()
        return value.isoformat()

    def compare(self, spec, claim_type, claimed, actual, locale):
        result = super().compare(spec, claim_type, claimed, actual, locale)
        said = result.claimed
        if result.actual is not None and isinstance(said, str) and "T" not in said:
            # A day was claimed: show the stored instant as the day it is in the field's zone.
            instant = self.read_actual(spec, actual, claim_type)
            day = instant.astimezone(dates.zone(spec.zone)).date()
            return Comparison(result.outcome, said,
                              f"{day.isoformat()} in {spec.zone} ({result.actual})", result.reason)
        return result


class DecimalNumber(Comparator):
    kind = "decimal"
    claim_types = frozenset({"decimal", "number"})
    form = "a number in digits, with a decimal point (4.25)"

    def read_actual(self, spec, value, claim_type):
        return _decimal(value)

    def read_claimed(self, spec, value, claim_type, locale):
        parsed = _claimed_number(value, locale)
        if parsed.currency or parsed.currency_text:
            raise Unreadable(f"{value!r} is an amount of money, not a number")
        if parsed.percent and not (spec.percent or spec.ratio):
            raise Unreadable(f"{value!r} is a percentage, and the field is not one")
        if parsed.percent and spec.ratio:
            return parsed.value / 100   # `decimal ratio`: "4.84%" is 0.0484
        return parsed.value

    def equal(self, spec, claimed, actual):
        return abs(claimed - actual) <= spec.tolerance

    def show(self, spec, value):
        # The digits of the value, not of its storage: a NUMERIC(24, 6) column's 4.230000 and
        # a JSON 4.23 show alike. (A stored value is finite: ``_decimal``; a claimed one is
        # parsed as a number a reader writes.)
        return numbers.plain_decimal(value) if value.is_finite() else str(value)


class Integer(Comparator):
    kind = "integer"
    claim_types = frozenset({"integer", "number"})
    form = "a whole number in digits (25)"

    def read_actual(self, spec, value, claim_type):
        number = _decimal(value)
        if number != number.to_integral_value():
            raise Unreadable(f"{value!r} is not a whole number")
        return int(number)

    def read_claimed(self, spec, value, claim_type, locale):
        parsed = _claimed_number(value, locale)
        if parsed.currency or parsed.currency_text or parsed.percent:
            raise Unreadable(f"{value!r} is not a plain count")
        if parsed.value != parsed.value.to_integral_value():
            return parsed.value     # a fraction never equals a count
        return int(parsed.value)

    def show(self, spec, value):
        return value if isinstance(value, int) else str(value)


class Boolean(Comparator):
    kind = "boolean"
    claim_types = frozenset({"boolean"})
    form = "true or false"
    WORDS: ClassVar[dict[str, bool]] = {"true": True, "yes": True, "1": True,
                                        "false": False, "no": False, "0": False}

    def _read(self, value):
        if isinstance(value, bool):
            return value
        if isinstance(value, (int, str)) and _fold(str(value)) in self.WORDS:
            return self.WORDS[_fold(str(value))]
        raise Unreadable(f"{value!r} is not true or false")

    def read_actual(self, spec, value, claim_type):
        return self._read(value)

    def read_claimed(self, spec, value, claim_type, locale):
        return self._read(value)


class Enum(Comparator):
    kind = "enum"
    claim_types = frozenset({"enum", "text"})
    form = "one of the field's values, as text"

    def read_actual(self, spec, value, claim_type):
        canonical = _alias_table(spec.aliases).get(_fold(_text(value)))
        if canonical is None:
            raise Unreadable(f"{value!r} is not one of {', '.join(spec.values)} or their aliases")
        return canonical

    def read_claimed(self, spec, value, claim_type, locale):
        text = _text(value)
        # A word the alias table does not know is kept as written: it never equals a value.
        return _alias_table(spec.aliases).get(_fold(text), _NotInTable(text))

    def show(self, spec, value):
        return {"not_in_table": value.text} if isinstance(value, _NotInTable) else value


# An alias table is part of a compiled policy, so a process knows only a few of them; each is
# turned into a lookup once instead of on every comparison. Read-only: a MappingProxyType.
@functools.lru_cache(maxsize=64)
def _alias_table(aliases: tuple[tuple[str, str], ...]) -> Mapping[str, str]:
    return MappingProxyType(dict(aliases))


@dataclasses.dataclass(frozen=True)
class _NotInTable:
    text: str


class Identifier(Comparator):
    kind = "identifier"
    claim_types = frozenset({"identifier", "text"})
    form = "the identifier as text"

    def _read(self, spec, value):
        text = _text(value)
        return text.casefold() if spec.case == "casefold" else text

    def read_actual(self, spec, value, claim_type):
        return self._read(spec, value)

    def read_claimed(self, spec, value, claim_type, locale):
        return self._read(spec, value)


_DEFAULT_PORTS = {"http": 80, "https": 443}
_WHITE_SPACE = re.compile(r"\s")


def normalise_url(text: str, *, query: str = "keep", fragment: str = "keep",
                  trailing_slash: str = "ignore", default_scheme: str | None = None) -> str:
    """Lower-case the scheme and host, drop a default port, and apply the field's policy for the
    query, the fragment and one trailing slash. The path keeps its case."""
    raw = text.strip()
    if "://" not in raw and default_scheme and not raw.startswith("/"):
        raw = f"{default_scheme}://{raw}"
    parts = urlsplit(raw)
    host = (parts.hostname or "").lower()
    try:
        port = parts.port
    except ValueError:
        raise Unreadable(f"{text!r} has an invalid port") from None
    netloc = host if port in (None, _DEFAULT_PORTS.get(parts.scheme.lower())) else f"{host}:{port}"
    if parts.username:
        netloc = f"{parts.username}@{netloc}"
    path = parts.path
    if trailing_slash == "ignore" and path.endswith("/"):
        path = path[:-1]
    return urlunsplit((parts.scheme.lower(), netloc, path,
                       parts.query if query == "keep" else "",
                       parts.fragment if fragment == "keep" else ""))


class Url(Comparator):
    kind = "url"
    claim_types = frozenset({"url"})
    form = "a full URL with its scheme (https://...)"

    def _read(self, spec, value, default_scheme=None):
        text = _text(value)
        if not text or _WHITE_SPACE.search(text):
            raise Unreadable(f"{value!r} is not a URL")
        return normalise_url(text, query=spec.query, fragment=spec.fragment,
                             trailing_slash=spec.trailing_slash, default_scheme=default_scheme)

    def read_actual(self, spec, value, claim_type):
        return self._read(spec, value)

    def read_claimed(self, spec, value, claim_type, locale):
        # A claim without a scheme ("shop.example/rc-500") is read as https: the rendered link
        # is the stored one anyway, and host and path must still match exactly.
        return self._read(spec, value, default_scheme="https")


class Text(Comparator):
    kind = "text"
    claim_types = frozenset({"text"})
    form = "the text as a string"

    def _read(self, spec, value):
        text = " ".join(_text(value).split())
        return text.casefold() if spec.case == "casefold" else text

    def read_actual(self, spec, value, claim_type):
        return self._read(spec, value)

    def read_claimed(self, spec, value, claim_type, locale):
        return self._read(spec, value)


COMPARATORS: dict[str, Comparator] = {c.kind: c() for c in (
    Money, Date, Timestamp, DecimalNumber, Integer, Boolean, Enum, Identifier, Url, Text)}


def compare(spec: TypeSpec, claim_type: str, claimed: Any, actual: Any, locale: str) -> Comparison:
    return COMPARATORS[spec.kind].compare(spec, claim_type, claimed, actual, locale)


def folds_case(spec: TypeSpec | None) -> bool:
    """Whether values of ``spec`` compare ignoring case (an identifier or a text ``casefold``):
    for a key, the lookup then finds a row whatever the case of the id."""
    return getattr(spec, "case", None) == "casefold"


def key_matches(spec: TypeSpec, ident: Any, stored: Any, locale: str = "en_US") -> bool:
    """Whether a ``stored`` key is the id ``ident``, compared as a claim of the key's type
    compares a claimed value with a stored one (an integer key stored as 7.00 is id "7", a
    ``casefold`` identifier ignores case). A side that cannot be read is not the id. The one
    key comparison: the resolvers' re-check of the rows a database matched, the checker's of
    the rows any resolver returned, and the links between rows all use it."""
    try:
        return compare(spec, spec.kind, ident, stored, locale).outcome == "confirmed"
    except Exception:   # a key that cannot be read is not the id asked for
        return False
