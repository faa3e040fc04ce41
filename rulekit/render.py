"""Formatting verified values for people, and filling template slots with them.

Slots are always filled from the source of record's values, formatted by code with babel for
the ruleset's locale and currency: the model's own strings never reach the customer.
"""

from __future__ import annotations

import datetime as dt
import functools
from decimal import Decimal
from typing import Any, Mapping, Sequence

from babel import Locale
from babel.dates import format_date, format_datetime
from babel.lists import format_list
from babel.numbers import (format_currency, format_decimal, format_percent,
                           get_currency_precision)

from rulekit import dates
from rulekit.compare import COMPARATORS
from rulekit.policy import Field


@functools.lru_cache(maxsize=64)
def locale_of(name: str) -> Locale:
    return Locale.parse(name)


def format_value(field: Field, stored: Any, locale: str, claim_type: str | None = None) -> str:
    """The stored value of ``field`` as a customer reads it. Raises ``compare.Unreadable`` for a
    value the field's type cannot read (the caller refuses: it never renders a guess)."""
    spec = field.type
    value = COMPARATORS[spec.kind].read_actual(spec, stored, claim_type or spec.kind)
    where = locale_of(locale)
    if spec.kind == "money":
        amount = Decimal(value).scaleb(-get_currency_precision(spec.currency))
        return format_currency(amount, spec.currency, locale=where)
    if spec.kind == "date":
        return format_date(value, format=spec.format, locale=where)
    if spec.kind == "timestamp":
        # Shown as the day in the field's zone, unless the claim was about the time itself.
        if claim_type == "timestamp":
            return format_datetime(value, format=spec.format, tzinfo=dates.zone(spec.zone),
                                   locale=where)
        return format_date(value.astimezone(dates.zone(spec.zone)).date(), format=spec.format,
                           locale=where)
    if spec.kind == "decimal":
        if spec.percent:   # stored in percentage points: 4.6 means 4.6 %
            return format_percent(value / 100, locale=where, decimal_quantization=False)
        return format_decimal(value, locale=where, decimal_quantization=False)
    if spec.kind == "integer":
        return format_decimal(value, locale=where)
    if spec.kind == "boolean":
        return "yes" if value else "no"
    if spec.kind == "enum":
        return str(value)
    return str(stored).strip()


def fill(pieces: Sequence[str], values: Mapping[str, str]) -> str:
    """Literal text at even positions of ``pieces``, slot names at odd ones."""
    return "".join(piece if index % 2 == 0 else values[piece]
                   for index, piece in enumerate(pieces))


def join_words(words: Sequence[str], locale: str) -> str:
    """"the price, the stock and the delivery estimate", in the locale's own list style."""
    unique = list(dict.fromkeys(words))
    return format_list(unique, locale=locale_of(locale)) if unique else ""


def jsonable(value: Any) -> Any:
    """Stored values as JSON-safe data for decisions and logs."""
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return value
