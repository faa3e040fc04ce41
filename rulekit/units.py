"""Units of measure a number is said in, read from both sides: from a field's name, what its
number is counted in and what it is per (``warranty_years`` holds years, ``bag_allowance_kg``
kilograms, ``rate_limit_per_minute`` a number per minute), and from the words right after a
number in an answer ("2 years", "23 lb", "600 requests per second", "$9.99 a month").

Each unit has one canonical name; the words for it are reduced like ``evidence.noun`` reduces a
word (lower case, no plural "s"). Units are read in English only."""

from __future__ import annotations

import functools
import re

# The words for each unit, by its canonical name.
_WORDS = {
    "millisecond": "ms millisecond milliseconds",
    "second": "second seconds sec secs",
    "minute": "minute minutes min mins",
    "hour": "hour hours hr hrs h",
    "day": "day days",
    "week": "week weeks wk wks",
    "month": "month months mo mos",
    "year": "year years yr yrs",
    "kilogram": "kg kgs kilo kilos kilogram kilograms kilogramme kilogrammes",
    "gram": "g gram grams gramme grammes",
    "pound": "lb lbs pound pounds",
    "ounce": "oz ounce ounces",
    "tonne": "tonne tonnes",
    "ton": "ton tons",
    "kilometre": "km kilometre kilometres kilometer kilometers",
    "metre": "metre metres meter meters",
    "centimetre": "cm centimetre centimetres centimeter centimeters",
    "millimetre": "mm millimetre millimetres millimeter millimeters",
    "mile": "mi mile miles",
    "foot": "ft foot feet",
    "inch": "inch inches",
    "yard": "yd yds yard yards",
    "litre": "litre litres liter liters",
    "millilitre": "ml millilitre millilitres milliliter milliliters",
    "gallon": "gal gallon gallons",
    "kilobyte": "kb kilobyte kilobytes",
    "megabyte": "mb megabyte megabytes",
    "gigabyte": "gb gigabyte gigabytes",
    "terabyte": "tb terabyte terabytes",
    "kilowatt-hour": "kwh",
    "watt-hour": "wh",
    "milliamp-hour": "mah",
}
UNIT_OF = {word: unit for unit, words in _WORDS.items() for word in words.split()}

# Words a field's name uses as often for something else: minimum (``min_age``), secondary, a
# month's number, an "h" or "g" of an abbreviation. They are units only as the name's last word
# (``response_min``, ``uptime_h``, ``weight_g``; "min" and "sec" only after a word for a length
# of time) or after "per" (``requests_per_min``, ``calls_per_h``), and so is "s" after "per"
# (``req_per_s``).
_NAME_AMBIGUOUS = frozenset({"min", "mins", "sec", "secs", "mo", "mos", "h", "g"})
_PER_ONLY = {"s": "second"}
# "min" and "sec" at the end of a name are minutes and seconds only after a word for a length
# of time (``response_min``, ``watch_time_sec``): ``age_min`` and ``price_min`` are minimums.
_SHORT_FOR_TIME = frozenset({"min", "mins", "sec", "secs"})
_DURATION_WORDS = frozenset(
    "time duration response wait waiting delay eta watch play playing runtime length sla "
    "resolution handle handling talk call session commute travel drive driving walk walking "
    "lead processing prep cook cooking load uptime downtime idle latency elapsed".split())
# Before a unit in a name, what makes it a window the number was counted over, not its unit
# (``sessions_28_days``, ``views_last_7_days``).
_WINDOW_WORDS = frozenset({"last", "past", "previous", "prior", "trailing", "rolling"})
_NAME_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")


@functools.lru_cache(maxsize=4096)
def named_units(name: str) -> tuple[frozenset[str], frozenset[str]]:
    """(the units a field's number is counted in, the units it is per), as its name says:
    ({"year"}, {}) for ``warranty_years``, ({"hour"}, {"week"}) for ``hours_per_week``,
    ({}, {"minute"}) for ``rate_limit_per_minute``, ({"minute"}, {}) for
    ``median_first_response_min``, nothing for ``stock``, ``min_age`` or ``sessions_28_days``
    (a window it was counted over)."""
    counted: set[str] = set()
    per: set[str] = set()
    after_per = False
    previous = ""
    words = _NAME_WORD.findall(name)
    for index, word in enumerate(words):
        word = word.lower()
        if word == "per":
            after_per = True
            continue
        if previous.isdigit() or previous in _WINDOW_WORDS:
            previous = word
            continue                    # a window: sessions_28_days, views_last_7_days
        previous = word
        if after_per:
            unit = UNIT_OF.get(word) or _PER_ONLY.get(word)
            if unit is not None:
                per.add(unit)
        elif word in UNIT_OF and (word not in _NAME_AMBIGUOUS or (
                index == len(words) - 1 and (word not in _SHORT_FOR_TIME or index and
                                             words[index - 1].lower() in _DURATION_WORDS))):
            counted.add(UNIT_OF[word])
    return frozenset(counted), frozenset(per)


def _alternation(words) -> str:
    return "|".join(sorted((re.escape(word) for word in words), key=len, reverse=True))


# Every word for a unit, as a regex alternation (longest first).
UNIT_WORDS = _alternation(UNIT_OF)
# A unit right after a number: "2 years", "2-year", "23kg", "5 business days", "48 hrs".
_UNIT_AFTER = re.compile(rf"[ \u00a0-]?(?:(?:business|working|calendar|full|whole|more|"
                         rf"additional|extra|further)[ \u00a0-])?({UNIT_WORDS})(?![a-z0-9])",
                         re.IGNORECASE | re.ASCII)
# What a number is per, up to two words after it: "600 requests per second", "600/min", "600
# req/s", "$9.99 a month", "5 times a week".
_PER_AFTER = re.compile(rf"(?:[ \u00a0-]+[a-z]+){{0,2}}?[ \u00a0]*(?:(?:(?:per|an?|each|every)"
                        rf"[ \u00a0]+|/[ \u00a0]?)({UNIT_WORDS}|s|annum)|[ \u00a0,]*(?P<adverb>"
                        rf"annually|yearly|monthly|weekly|daily|hourly))(?![a-z0-9])",
                        re.IGNORECASE | re.ASCII)
_PER_ADVERBS = {"annually": "year", "yearly": "year", "monthly": "month", "weekly": "week",
                "daily": "day", "hourly": "hour", "annum": "year"}


def unit_after(text: str, end: int) -> str | None:
    """The unit written right after a number that ends at ``end`` ("year" for "2 years" and
    "2-year"), or None."""
    found = _UNIT_AFTER.match(text, end)
    return UNIT_OF[found.group(1).lower()] if found else None


def per_after(text: str, end: int) -> str | None:
    """The unit a number that ends at ``end`` is said to be per ("second" for "600 requests per
    second" and "600 req/s", "month" for "$9.99 a month", "year" for "$99 annually" and "per
    annum"), or None."""
    found = _PER_AFTER.match(text, end)
    if found is None:
        return None
    word = (found.group(1) or found.group("adverb")).lower()
    return UNIT_OF.get(word) or _PER_ONLY.get(word) or _PER_ADVERBS.get(word)
