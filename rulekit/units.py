"""Units of measure a number is said in, read from both sides: from a field's name, what its
number is counted in and what it is per (``warranty_years`` holds years, ``bag_allowance_kg``
kilograms, ``rate_limit_per_minute`` a number per minute), and from the words right after a
number in an answer ("2 years", "23 lb", "600 requests per second", "$9.99 a month").

Each unit has one canonical name; the words for it are reduced like ``evidence.noun`` reduces a
word (lower case, no plural "s"). A field's name is read in English; an answer's words in English
and, in a German, French, Spanish, Italian, Portuguese, Dutch, Chinese or Japanese locale, in
its language too ("2 Monate", "12 ans", "9,99 € al mes", "600 verzoeken per uur", "2个月":
``unit_after`` and ``per_after`` given the locale's language)."""

from __future__ import annotations

import functools
import re
from decimal import Decimal

def _alternation(words) -> str:
    return "|".join(sorted((re.escape(word) for word in words), key=len, reverse=True))


# The words for each unit, by its canonical name.
_WORDS = {
    "millisecond": "ms millisecond milliseconds",
    "second": "second seconds sec secs",
    "minute": "minute minutes min mins",
    "hour": "hour hours hr hrs h",
    "day": "day days",
    # a working day: another unit than a calendar day when either side says it ("2-3 days"
    # for 2-3 business days promises a quicker delivery)
    "business-day": "business_day business_days business-day business-days working_day "
                    "working_days working-day working-days workday workdays",
    # a night's stay: a hotel's price per night, a stay of 3 nights
    "night": "night nights",
    "week": "week weeks wk wks",
    "month": "month months mo mos",
    "year": "year years yr yrs",
    "kilogram": "kg kgs kilo kilos kilogram kilograms kilogramme kilogrammes",
    "gram": "g gram grams gramme grammes",
    # doses: "0.5 mg", "50 mcg", "50 µg" (the micro sign or the Greek mu), "50 ug"
    "milligram": "mg mgs milligram milligrams milligramme milligrammes",
    "microgram": "mcg mcgs \u00b5g \u03bcg ug microgram micrograms microgramme microgrammes",
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
    "litre": "l litre litres liter liters",
    "millilitre": "ml millilitre millilitres milliliter milliliters",
    "decilitre": "dl decilitre decilitres deciliter deciliters",
    "teaspoon": "tsp tsps teaspoon teaspoons",
    "tablespoon": "tbsp tbsps tablespoon tablespoons",
    # a vitamin's or an insulin's dose: "1000 IU", a kind of its own
    "IU": "iu ius",
    "gallon": "gal gallon gallons",
    "kilobyte": "kb kilobyte kilobytes",
    "megabyte": "mb megabyte megabytes",
    "gigabyte": "gb gigabyte gigabytes",
    "terabyte": "tb terabyte terabytes",
    "kilowatt-hour": "kwh",
    "watt-hour": "wh",
    "milliamp-hour": "mah",
    # vital signs: a blood pressure's millimetres of mercury (UCUM's "mm[Hg]"), a heart rate
    "mmHg": "mmhg mm_hg mm[hg]",
    "bpm": "bpm beats_per_minute beats/min beats_a_minute",
}
# Areas, whose words are often two ("sq ft", "square meters") or glue a square to a length
# ("ft²", "m2"): written here with "_" for a space. A square is part of its unit, never a figure
# (``rulekit.scan`` reads no number in "ft²").
_AREA_WORDS = {
    "square-foot": "sq_ft sq._ft sq._ft. sq.ft sq.ft. sqft sq_feet square_feet square_foot "
                   "square-foot square-feet ft² ft2 sf",
    "square-metre": "sq_m sq._m sq._m. sq.m sq.m. sqm sq_meters sq_metres square_meter "
                    "square_meters square_metre square_metres square-meter square-metre m² m2",
    "square-kilometre": "sq_km sq._km square_kilometer square_kilometers square_kilometre "
                        "square_kilometres km² km2",
    "square-mile": "sq_mi sq._mi sq._mi. square_mile square_miles square-mile mi² mi2",
    "square-yard": "sq_yd sq._yd square_yard square_yards yd² yd2",
    "acre": "ac acre acres",
    "hectare": "ha hectare hectares",
}
_WORDS.update(_AREA_WORDS)
# Volumes written with a cube ("172 m³", "40 ft3") or in words.
_WORDS.update({
    "cubic-metre": "m³ m3 cu_m cubic_meter cubic_meters cubic_metre cubic_metres",
    "cubic-foot": "ft³ ft3 cu_ft cu._ft. cubic_foot cubic_feet",
})
UNIT_OF = {word.replace("_", " "): unit for unit, words in _WORDS.items() for word in words.split()}
# What each unit measures: a unit written in the evidence's text holds its number in that unit
# among the units of its kind only (``of_kinds_written``). A night's stay is its own kind.
_KINDS = {
    "time": "millisecond second minute hour day business-day week month year",
    "night": "night",
    "mass": "kilogram gram milligram microgram pound ounce tonne ton",
    "length": "kilometre metre centimetre millimetre mile foot inch yard",
    "volume": "litre millilitre decilitre teaspoon tablespoon gallon cubic-metre cubic-foot",
    "dose": "IU",
    "data": "kilobyte megabyte gigabyte terabyte",
    "energy": "kilowatt-hour watt-hour",
    "charge": "milliamp-hour",
    "area": "square-foot square-metre square-kilometre square-mile square-yard acre hectare",
    # a blood pressure and a heart rate: "82 bpm" is no part of a text's "128/82 mmHg"
    "vital": "mmHg bpm",
}
KIND_OF = {unit: kind for kind, units in _KINDS.items() for unit in units.split()}
assert set(KIND_OF) == set(_WORDS)

# --- concentrations ------------------------------------------------------------------------
# A lab value's unit: an amount (a mass, moles, equivalents, international units, units) per
# a volume, or per an amount of substance ("mmol/mol", HbA1c in IFCC units): "112 mg/dL",
# "6.1 mmol/L", "88 µmol/L", "31 U/L", "112 milligrams per deciliter". One unit each, never a
# mass said before a "per": "112 mg/dL" is no dose of 112 mg. Read by ``concentration_after``
# (and by ``unit_after``, ``named_units`` and a sibling ``unit`` field: ``unit_named``), not in
# ``UNIT_WORDS``: most answers say none, and only a "/" or a "per" after a number is looked at
# for one.
_CONC_AMOUNTS = {
    "g": "g gram grams", "mg": "mg milligram milligrams",
    "\u00b5g": "mcg \u00b5g \u03bcg ug microgram micrograms", "ng": "ng nanogram nanograms",
    "pg": "pg picogram picograms", "mol": "mol mole moles", "mmol": "mmol millimole millimoles",
    "\u00b5mol": "\u00b5mol \u03bcmol umol micromole micromoles",
    "nmol": "nmol nanomole nanomoles", "pmol": "pmol picomole picomoles",
    "mEq": "meq milliequivalent milliequivalents", "IU": "iu",
    "mIU": "miu", "\u00b5IU": "\u00b5iu \u03bciu uiu", "U": "u", "mU": "mu"}
_CONC_VOLUMES = {"L": "l litre liter", "dL": "dl decilitre deciliter",
                 "mL": "ml millilitre milliliter", "\u00b5L": "\u00b5l \u03bcl ul microlitre microliter",
                 "mol": "mol"}
# Any of an amount's words, then a slash or "per", then any of a volume's ("mg/dL", "mg / dl",
# "milligrams per deciliter", "millimoles per litre"); per a mole only millimoles and micromoles.
_CONC_AMOUNT_OF = {word: unit for unit, words in _CONC_AMOUNTS.items() for word in words.split()}
_CONC_VOLUME_OF = {word: unit for unit, words in _CONC_VOLUMES.items() for word in words.split()}
_PER_MOLE = frozenset({"mmol", "\u00b5mol"})
# Units of one size are one unit, named as a lab most often writes it: 1 µIU/mL is 1 mIU/L
# (a TSH of 2.45 is written both ways), 1 ng/mL is 1 µg/L, 1 mg/L is 1 µg/mL, 1 IU/L is 1
# mIU/mL. Each is read as (what is counted, per what, the power of ten between their prefixes).
_PREFIX_POWER = {"": 0, "d": -1, "m": -3, "\u00b5": -6, "n": -9, "p": -12}
_PREFERRED = ("mg/dL", "g/dL", "g/L", "mg/L", "\u00b5g/dL", "ng/mL", "pg/mL", "ng/dL",
              "mmol/L", "\u00b5mol/L", "nmol/L", "pmol/L", "mEq/L", "IU/L", "\u00b5IU/mL",
              "U/L", "mmol/mol")


def _size(unit: str) -> tuple[str, str, int]:
    amount, volume = unit.split("/")
    base = next(b for b in ("mol", "Eq", "IU", "U", "g") if amount.endswith(b))
    per = "mol" if volume == "mol" else "L"
    return (base, per, _PREFIX_POWER[amount[:-len(base)]]
            - _PREFIX_POWER[volume[:-len(per)] if per == "L" else ""])


_ALL_CONCENTRATIONS = [f"{amount}/{volume}" for amount in _CONC_AMOUNTS for volume in _CONC_VOLUMES
                       if volume != "mol" or amount in _PER_MOLE]
_NAMED_BY_SIZE: dict[tuple[str, str, int], str] = {}
for _unit in (*_PREFERRED, *_ALL_CONCENTRATIONS):
    _NAMED_BY_SIZE.setdefault(_size(_unit), _unit)
_SAME_SIZE = {unit: _NAMED_BY_SIZE[_size(unit)] for unit in _ALL_CONCENTRATIONS}
CONCENTRATIONS = frozenset(_SAME_SIZE.values())
KIND_OF.update((unit, "concentration") for unit in CONCENTRATIONS)
_CONCENTRATION = re.compile(
    rf"[ \u00a0]?({_alternation(_CONC_AMOUNT_OF)})(?:[ \u00a0]?/[ \u00a0]?|[ \u00a0]+per[ \u00a0]+)"
    rf"({_alternation(_CONC_VOLUME_OF)})(?![^\W_])", re.IGNORECASE)


def _concentration(amount: str, volume: str) -> str | None:
    """The concentration an amount's word and a volume's say, named as ``_SAME_SIZE`` names
    its size ("mIU", "L" is "\u00b5IU/mL"), or None (moles per mole of anything but mmol or
    \u00b5mol)."""
    return _SAME_SIZE.get(f"{_CONC_AMOUNT_OF[amount.lower()]}/{_CONC_VOLUME_OF[volume.lower()]}")


def _concentration_of(words: list[str], volume: str) -> str | None:
    """The concentration a name's words before ``volume`` and it say: "mg", "dl" or "mg",
    "per", "dl" (``words`` ends with them), or None."""
    amount = words[-2] if words[-1].lower() == "per" and len(words) > 1 else words[-1]
    return _concentration(amount, volume) if amount.lower() in _CONC_AMOUNT_OF else None


# A share in percent, which a sibling "unit": "%" names: "6.1 mmol/L" for {"value": 6.1,
# "unit": "%"} is another quantity (a number written with "%" in an answer is a percentage,
# read by the scanner, not a unit after it).
PERCENT = "percent"
KIND_OF[PERCENT] = "share"


def concentration_after(text: str, end: int) -> str | None:
    """The concentration written right after a number that ends at ``end`` ("mg/dL" for "112
    mg/dL" and "112 milligrams per deciliter"), or None. A substring test first: a "/" or a
    "per" in the 40 characters after it."""
    window = text[end:end + 40]
    if "/" not in window and "per" not in window and "Per" not in window \
            and "PER" not in window:
        return None
    found = _CONCENTRATION.match(text, end)
    return _concentration(found[1], found[2]) if found else None


# The codes of UN/CEFACT's Recommendation 20 that a schema.org QuantitativeValue's "unitCode"
# writes ({"value": 2.5, "unitCode": "KGM"}): read as written, in capitals only.
_UNECE_CODES = {"KGM": "kilogram", "GRM": "gram", "MGM": "milligram", "LBR": "pound",
                "ONZ": "ounce", "TNE": "tonne", "KMT": "kilometre", "MTR": "metre",
                "CMT": "centimetre", "MMT": "millimetre", "INH": "inch", "FOT": "foot",
                "SMI": "mile", "LTR": "litre", "MLT": "millilitre", "SEC": "second",
                "MIN": "minute", "HUR": "hour", "DAY": "day", "WEE": "week", "MON": "month",
                "ANN": "year", "P1": PERCENT}


def unit_named(word: str) -> str | None:
    """The unit a field's value names ({"unit": "mg/dL"}, "kg", "%", "mm[Hg]", UN/CEFACT's
    "KGM"; a unit in words of English or of any language of ``_OTHER``: "business_days",
    "Werktage", "jours ouvrés"), or None."""
    stripped = word.strip()
    if stripped in _UNECE_CODES:
        return _UNECE_CODES[stripped]
    word = " ".join(stripped.lower().replace("_", " ").split())
    if word in ("%", "percent", "pct"):
        return PERCENT
    unit = UNIT_OF.get(word)
    if unit is None and (found := _CONCENTRATION.fullmatch(word)) is not None:
        unit = _concentration(found[1], found[2])
    if unit is None and word.replace(" ", "").isalpha():
        # a unit in words of another language: "Werktage", "jours ouvrés", "Stunden"
        for other in _OTHER_READERS.values():
            if (unit := other.units.get(word)) is not None:
                break
    return unit


@functools.lru_cache(maxsize=1024)
def of_kinds_written(written: frozenset[str]) -> frozenset[str]:
    """The units a number the evidence's text writes in ``written`` ("10 MB": {"megabyte"})
    may be said in: those, and every unit of a kind none of them is ("10 kg" is no other
    quantity of a text's "10 MB"; "10 GB" is)."""
    kinds = {KIND_OF[unit] for unit in written}
    return written | frozenset(unit for unit, kind in KIND_OF.items() if kind not in kinds)

# The plurals that are no unit's name with an "s": "feet", "inches".
_PLURALS = {"foot": "feet", "inch": "inches", "business-day": "business days", "IU": "IU",
            "kilowatt-hour": "kilowatt-hours", "watt-hour": "watt-hours", "milliamp-hour": "milliamp-hours",
            "square-foot": "square feet", "square-metre": "square metres",
            "square-kilometre": "square kilometres", "square-mile": "square miles",
            "square-yard": "square yards", "cubic-metre": "cubic metres",
            "cubic-foot": "cubic feet"}


def plural(unit: str) -> str:
    """A unit's canonical name in the plural, as a finding says it: "hours", "feet", "inches",
    "mg/dL", "mmHg"."""
    if KIND_OF.get(unit) in ("concentration", "share", "vital"):
        return unit
    return _PLURALS.get(unit) or unit + "s"


# --- bills: large energy, binary sizes, data rates -----------------------------------------------
# A utility's or a telecom's units: "312.4 MWh" is no "312.4 kWh", "18.6 GiB" no "18.6 GB", and a
# data rate is a kind of its own ("500 Mbps", "500 Mb/s", "500 Mbit/s"; bytes a second with a
# capital B: "500 MB/s", "500 MBps", eight times as much), never a size ("500 MB").
_BILL_WORDS = {
    "megawatt-hour": "mwh", "gigawatt-hour": "gwh",
    "kibibyte": "kib kibibyte kibibytes", "mebibyte": "mib mebibyte mebibytes",
    "gibibyte": "gib gibibyte gibibytes", "tebibyte": "tib tebibyte tebibytes",
    "kbps": "kbps kb/s kbit/s kbits/s kilobit/s", "Mbps": "mbps mb/s mbit/s mbits/s megabit/s",
    "Gbps": "gbps gb/s gbit/s gbits/s gigabit/s", "Tbps": "tbps tb/s tbit/s",
}
_BILL_KINDS = {"megawatt-hour": "energy", "gigawatt-hour": "energy", "kibibyte": "data",
               "mebibyte": "data", "gibibyte": "data", "tebibyte": "data", "kbps": "data rate",
               "Mbps": "data rate", "Gbps": "data rate", "Tbps": "data rate",
               "kB/s": "data rate", "MB/s": "data rate", "GB/s": "data rate", "TB/s": "data rate"}
# A rate of bits written with a capital B is one of bytes ("MB/s", "MBps"; not all capitals,
# "MBPS", which marketing writes for bits).
_BYTE_RATES = {"kbps": "kB/s", "Mbps": "MB/s", "Gbps": "GB/s", "Tbps": "TB/s"}
UNIT_OF.update((word, unit) for unit, words in _BILL_WORDS.items() for word in words.split())
KIND_OF.update(_BILL_KINDS)
_PLURALS.update({unit: unit for unit in _BILL_KINDS if KIND_OF[unit] == "data rate"})


def _bits_or_bytes(written: str, unit: str) -> str:
    """A data rate as written: ``unit`` for "Mb/s", "Mbps", "MBPS"; bytes for "MB/s", "MBps"."""
    byte = _BYTE_RATES.get(unit)
    return byte if byte is not None and "B" in written and not written.isupper() else unit


# Words a field's name uses as often for something else: minimum (``min_age``), secondary, a
# month's number, an "h", "g" or "l" of an abbreviation. They are units only as the name's last
# word (``response_min``, ``uptime_h``, ``weight_g``, ``tank_capacity_l``; "min" and "sec" only
# after a word for a length of time) or after "per" (``requests_per_min``, ``calls_per_h``), and
# so is "s" after "per" (``req_per_s``).
_NAME_AMBIGUOUS = frozenset({"min", "mins", "sec", "secs", "mo", "mos", "h", "g", "l", "dl", "ug",
                             "ha", "ac"})
# Those that may be a name's only word ({"h": 20}, {"l": 40}): the unit of the object holding
# it comes first (``dimensions_cm``: an "h" there is a height).
ALONE_AMBIGUOUS = frozenset(word for word in _NAME_AMBIGUOUS if len(word) == 1)
# Periods read only after a word of per or in a field's name after "per" (never as a count:
# "2 quarters", "Q3"): "$120 per quarter", "a fortnight", "per semester".
_PER_ONLY = {"s": "second", "quarter": "quarter", "qtr": "quarter", "fortnight": "fortnight",
             "semester": "half-year", "halfyear": "half-year"}
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
# After a unit in a name, maybe after its count, what makes it a window too: the extreme of a
# price over it (``week52_high``, ``fiftyTwoWeekHigh``, ``year_high``, ``dayLow``).
_EXTREME_WORDS = frozenset({"high", "low", "hi", "lo", "range"})
_NAME_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")


@functools.lru_cache(maxsize=4096)
def named_units(name: str) -> tuple[frozenset[str], frozenset[str]]:
    """(the units a field's number is counted in, the units it is per), as its name says:
    ({"year"}, {}) for ``warranty_years``, ({"hour"}, {"week"}) for ``hours_per_week``,
    ({}, {"minute"}) for ``rate_limit_per_minute``, ({"minute"}, {}) for
    ``median_first_response_min``, nothing for ``stock``, ``min_age``, ``sessions_28_days`` or
    ``week52_high`` (a window it was counted over)."""
    counted: set[str] = set()
    per: set[str] = set()
    after_per = False
    previous = ""
    words = _area_words(_NAME_WORD.findall(name))
    for index, word in enumerate(words):
        word = word.lower()
        if word == "per":
            after_per = True
            continue
        if previous.isdigit() or previous in _WINDOW_WORDS:
            previous = word
            continue                    # a window: sessions_28_days, views_last_7_days
        previous = word
        rest = [w.lower() for w in words[index + 1:] if not w.isdigit()]
        if rest[:1] and rest[0] in _EXTREME_WORDS:
            continue                    # a window: week52_high, year_high
        if "/" in word:
            counted.add(words[index])       # a concentration ``_area_words`` joined: "mg/dL"
            continue
        if after_per:
            unit = UNIT_OF.get(word) or _PER_ONLY.get(word) or (
                TOTAL if word in _WHOLE_PERIOD else None)
            if unit is not None:
                per.add(unit)           # ``max_per_rental``, ``fee_per_booking``: the whole
        elif word in UNIT_OF and (word not in _NAME_AMBIGUOUS or (
                index == len(words) - 1 and (word not in _SHORT_FOR_TIME or index and
                                             words[index - 1].lower() in _DURATION_WORDS))) \
                and (word not in _NAME_TAIL_ONLY or index == len(words) - 1
                     or words[index + 1].lower() == "per"):
            counted.add(UNIT_OF[word])
    if counted and not per:
        _price_per_unit(counted, per, words)
    if not per:
        # a period said by an adjective: ``monthly_payment``, ``annual_fee``, ``daily_limit``
        per.update(_PERIOD_ADJECTIVES[word.lower()] for word in words
                   if word.lower() in _PERIOD_ADJECTIVES)
    if not per and "total" in (lowered := {word.lower() for word in words}) and (
            len(lowered) == 1 or not _TOTAL_OF.isdisjoint(lowered)):
        per.add(TOTAL)              # ``total_price``: the whole amount, per no period
    elif not per and _cap_words(lowered):
        per.add(TOTAL)              # ``max_charge``, ``cap``: the most charged, per no period
    return frozenset(counted), frozenset(per)


def _cap_words(lowered: set[str] | frozenset[str]) -> bool:
    """Whether the lower-cased words of a field's name name a cap (``_CAP_NAME``)."""
    return not _CAP_NAME.isdisjoint(lowered) and (
        lowered <= _CAP_ALONE or not _CAP_OF.isdisjoint(lowered))


@functools.lru_cache(maxsize=1024)
def names_cap(name: str) -> bool:
    """Whether a field's name names a cap, per nothing unless a field beside it says a period
    (``max_charge``, ``usage_cap``, ``mileage_cap``; ``named_units``)."""
    return _cap_words({word.lower() for word in _NAME_WORD.findall(name)})


# Words of a unit that a field's name uses as often for a thing: a meter is a device
# (``meter_reading``, ``meter_id``, ``smart_meter_kwh``). A unit only as the name's last word or
# before "per" (``distance_meters``, ``meters_per_second``).
_NAME_TAIL_ONLY = frozenset({"meter", "meters"})
# A word of a price in a field's name: with a unit of measure and no "per" its amount is per that
# unit (``price_kwh``, ``kwh_price``, ``extra_data_price_gb``, ``prix_kwh_eur``), as
# ``price_per_kwh`` is. Not with a unit of time (``fee_days``, ``price_valid_days`` count days),
# nor "rate" with a unit of data (``data_rate_mb`` is a speed).
_PRICE_NAME = frozenset("price prices cost costs fee fees tariff tariffs rate rates prix tarif "
                        "preis precio prezzo preço".split())


def _price_per_unit(counted: set[str], per: set[str], words: list[str]) -> None:
    """Move the units of measure a price's name counts (``_PRICE_NAME``) to what it is per."""
    lowered = {word.lower() for word in words}
    if _PRICE_NAME.isdisjoint(lowered):
        return
    only_rate = _PRICE_NAME.isdisjoint(lowered - {"rate", "rates"})
    for unit in list(counted):
        kind = KIND_OF[unit]
        if kind not in ("time", "night") and not (only_rate and kind == "data"):
            counted.discard(unit)
            per.add(unit)


def _area_words(words: list[str]) -> list[str]:
    """A name's words with the two of an area joined as ``UNIT_OF`` writes them: "sq", "ft"
    (``sq_ft``, ``lotSizeSqFt``) as "sq ft", "square", "feet" as "square feet", "m", "2"
    (``area_m2``) as "m2"; and those of a concentration as its unit: "mg", "dl" as "mg/dL"."""
    if len(words) < 2:
        return words
    joined: list[str] = []
    for word in words:
        if joined and joined[-1].lower() in ("business", "working") \
                and word.lower() in ("day", "days"):
            joined[-1] = f"{joined[-1]} {word}"     # ``transit_business_days``: one unit
        elif joined and (word == "2" or joined[-1].lower() in ("sq", "square")) and (
                pair := f"{joined[-1]}{'' if word == '2' else ' '}{word}".lower()) in UNIT_OF:
            joined[-1] = pair
        elif joined and word.lower() in _CONC_VOLUME_OF and (unit := _concentration_of(
                joined, word)) is not None:
            # a concentration: ``value_mg_dl``, ``ldl_mmol_l``, ``glucose_mg_per_dl``
            del joined[-2 if joined[-1].lower() == "per" else -1:]
            joined.append(unit)
        else:
            joined.append(word)
    return joined


# A word of a field's name that says what it is per as an adjective (``monthly_payment``,
# ``annual_fee``, ``yearly_interest``): "$95.00 a month" for ``annual_fee: 95`` is flagged.
_PERIOD_ADJECTIVES = {"hourly": "hour", "daily": "day", "nightly": "night", "weekly": "week",
                      "monthly": "month", "quarterly": "quarter", "annual": "year",
                      "yearly": "year"}
# What a field's name says is per nothing, being the whole amount (``total_price``,
# ``grand_total``, ``order_total``, ``total``): "per night" or "a month" beside it says another
# amount, as "in total" beside a price per night does (``per_after`` reads it as ``TOTAL``).
TOTAL = "total"
_TOTAL_OF = frozenset("price cost costs amount fare fares charge charges due paid payable grand "
                      "order booking stay trip rental reservation".split())
# A cap is per nothing too, or per what its name says (``max_charge``, ``maximum_charge``,
# ``cap``, ``max_total``, ``charge_cap``; ``max_per_rental`` by its word after "per";
# ``max_daily_charge`` is per day): "$89.94 per day" for ``max_charge`` says another amount.
# Only with a word of money (``max_guests`` counts guests), or alone as a word of a cap
# (``cap``, ``ceiling``); ``max`` and ``maximum`` alone are a range's end, whatever its unit
# (``transit_days: {"min": 2, "max": 3}`` is in days).
_CAP_NAME = frozenset("max maximum cap capped ceiling".split())
_CAP_ALONE = frozenset("cap capped ceiling".split())
_CAP_OF = _TOTAL_OF | frozenset("total fee fees cap".split())
# What an amount said per, or for the whole of, is the whole period it is for: "$30 per stay",
# "$27.00 for your entire rental", "per reservation", "für die gesamte Miete".
_WHOLE_PERIOD = frozenset("stay trip booking rental reservation order journey".split())
# A field's value that says once, not per a period (``disbursement: "one-time"``,
# ``frequency: "once"``, Stripe's ``type: "one_time"``).
_ONCE_WORDS = frozenset("once one-time one_time onetime single one-off oneoff lump-sum "
                        "lump_sum".split())


@functools.lru_cache(maxsize=256)
def period_named(value: str) -> str | None:
    """The period a field's value names as a whole (``billing_period: "semester"``, Stripe's
    ``interval: "month"``, ``frequency: "annually"``): "half-year", "month", "year"; ``TOTAL``
    for a value that says once ("one-time", "once", "single"); None for anything else (a
    phrase: "twice daily", a date: "2026-Q1")."""
    word = value.strip().lower().replace(" ", "-")
    if word in _ONCE_WORDS:
        return TOTAL
    unit = UNIT_OF.get(word) or _PER_ONLY.get(word) or _PER_ADVERBS.get(word) \
        or _PERIOD_ADJECTIVES.get(word)
    return unit if unit is not None and KIND_OF.get(unit, "time") in ("time", "night") \
        and unit not in ("second", "millisecond") else None


# "€540 in total", "insgesamt 540 €" is read before the amount by ``per_before``'s words. A
# stay said whole is a total too ("$30 per stay", "for your stay", "for the entire stay"),
# also after whom the amount is per ("$3.50 per person per stay").
# A quantity's unit may stand between ("200 miles in total", "200 miles for the whole rental").
_TOTAL_AFTER = re.compile(r"(?:[ \u00a0-]+[^\W\d_]+)?[ \u00a0]*\(?"
                          r"(?:per (?:person|guest|adult|room|pax)[ \u00a0]+)?"
                          r"(?:in total|in all|all in|all-in|altogether|"
                          r"(?:for (?:the|your|this)|per)(?: (?:whole|entire))? "
                          rf"(?:{'|'.join(sorted(_WHOLE_PERIOD))})|insgesamt|"
                          r"(?:für (?:die|ihre|deine)(?: gesamte| ganze)?|pro|je) "
                          r"(?:miete|anmietung|buchung|reise)|"
                          r"(?:pour (?:la|votre|toute la)|par) (?:location|réservation|séjour)|"
                          r"(?:para|por) (?:todo )?(?:el |su )?(?:alquiler|reserva|viaje)|"
                          r"au total|en total|in totale|no total|in totaal)(?![^\W_])",
                          re.IGNORECASE)


# A duration or a size written glued to its number ("30s", "30sec", "500ms", "24h", "10MB"):
# its unit, by the letters after the digits. Not "m" (metres, minutes or millions), nor
# another letter alone: "5G", "4K" are names.
_GLUED_UNITS = {"s": "second", "sec": "second", "secs": "second", "ms": "millisecond",
                "min": "minute", "mins": "minute", "h": "hour", "hr": "hour", "hrs": "hour",
                "kb": "kilobyte", "mb": "megabyte", "gb": "gigabyte", "tb": "terabyte"}
_GLUED_UNITS.update({"kib": "kibibyte", "mib": "mebibyte", "gib": "gibibyte", "tib": "tebibyte",
                     "kbps": "kbps", "mbps": "Mbps", "gbps": "Gbps", "mwh": "megawatt-hour",
                     "gwh": "gigawatt-hour"})
_GLUED_TOKEN = re.compile(r"\d+(?:\.\d+)?([A-Za-z]{1,4})")
# Before "30s", what makes it a decade or an age: "their 30s", "the 1990s", "mid-30s", "'90s".
_DECADE_BEFORE = re.compile(r"(?:(?<![^\W\d_])(?:their|his|her|my|your|our|the|early|mid|late)"
                            r"[ \u00a0-]+|['\u2019])\Z", re.IGNORECASE)


def glued_unit(text: str, start: int, token: str) -> str | None:
    """The unit of a number written glued to it at ``text[start:]`` (``token`` the whole glued
    token: "30s", "500ms", "10MB"), or None when the token is no such number ("BT3", "5G",
    "their 30s")."""
    found = _GLUED_TOKEN.fullmatch(token)
    if found is None:
        return None
    letters = found.group(1).lower()
    unit = _GLUED_UNITS.get(letters)
    if unit is None or letters == "s" and _DECADE_BEFORE.search(text, max(0, start - 8), start):
        return None
    return unit


# A duration of hours and minutes written as one value: "11h 10m", "11 hours and 10 minutes",
# "a 1-hour 50-minute layover", "1 hr 50 min", and ISO 8601's "PT11H10M" (Amadeus, Duffel);
# in German, French, Spanish, Portuguese, Italian and Dutch too: "2 Std. 15 Min.", "2 Stunden
# und 15 Minuten", "2 heures 15 minutes", "2 horas y 15 minutos", "2 ore e 15 minuti".
# (Digits capped: minutes are under 60, and ``int`` reads no more than 4,300 digits.)
_HOUR_WORD = (r"[ \u00a0-]?(?:hours?|hrs?|h|stunden?|std\.?|heures?|horas?|ore|uur)(?![a-z])"
              r"[ \u00a0,]*(?:(?:and|und|et|y|e|en)[ \u00a0]+)?")
_HOURS_MINUTES = re.compile(r"(?i)\d{1,5}" + _HOUR_WORD + r"(\d{1,2})[ \u00a0-]?(?:minutes?|mins?"
                            r"|m|minuten|minuti|minutos?)(?![a-z])")
# Where such a duration may be: the last digit of its hours, the hour word and the first digit
# of its minutes, a necessary condition of a match of ``_HOURS_MINUTES`` (which opens with a
# repeat, so ``re`` would try it everywhere). Searched in the lower-cased text, without
# IGNORECASE, which makes ``re`` four times slower over a whole answer (14 against 3.5 µs over
# 300 characters).
# (In an ASCII answer ``\d`` is tested as ASCII, a third fewer instructions than Unicode's.)
_DURATION_CUE = re.compile(r"\d" + _HOUR_WORD + r"\d")
_DURATION_CUE_ASCII = re.compile(r"(?a)\d" + _HOUR_WORD + r"\d")
# The hour words of ``_HOUR_WORD`` as the lower-cased answer's words of a-z hold them
# (``rulekit.scan.words.az_words``: a whole run of letters): an answer without one says no such
# duration, and the sweep tests the set before searching.
DURATION_HOUR_WORDS = frozenset(word.encode() for word in (
    "h hr hrs hour hours stunde stunden std heure heures hora horas ore uur".split()))
_ISO_DURATION = re.compile(r"PT(?:([0-9]{1,5})H)?(?:([0-9]{1,5})M)?(?:0+S)?")


def may_say_durations(text: str, low: str) -> bool:
    """Whether ``text`` (``low`` lower-cased) may say a duration of hours and minutes: a first
    look before ``compound_durations`` ("h" alone is in nearly every answer: one search in C
    then, rather than reading the durations at every figure)."""
    return "PT" in text or ("h" in low or "std" in low or "stund" in low or "ore" in low
                            or "uur" in low) and (
        _DURATION_CUE_ASCII if low.isascii() else _DURATION_CUE).search(low) is not None


def compound_durations(text: str, mentions) -> list[tuple[int, int, int, frozenset[int]]]:
    """Each duration of hours and minutes in ``text`` (``_HOURS_MINUTES``, ``_ISO_DURATION``)
    as (start, end, minutes, the indices of ``mentions`` that are its parts): one value, whose
    parts are no numbers (nor "10m" a name). Each test is anchored at a number's digits, with
    a letter after them first."""
    found: list[tuple[int, int, int, frozenset[int]]] = []
    taken = -1
    for at, mention in enumerate(mentions):
        if mention.kind != "number" or mention.start < taken or mention.value is None:
            continue
        token = mention.token or ""
        if token[:2] == "PT" and mention.glued:
            iso = _ISO_DURATION.fullmatch(token)
            if iso is None or not (iso[1] or iso[2]):
                continue
            start, end = mention.token_span
            minutes = int(iso[1] or 0) * 60 + int(iso[2] or 0)
        else:
            tail = text[mention.end:mention.end + 3].lower()
            if "h" not in tail and "st" not in tail and "or" not in tail and "uu" not in tail:
                continue
            said = _HOURS_MINUTES.match(text, mention.start)
            if said is None or int(said[1]) >= 60:
                continue
            start, end = said.span()
            minutes = int(said[0][:mention.end - mention.start]) * 60 + int(said[1])
        parts = set()
        for i in range(at, len(mentions)):      # in the order of their starts
            if mentions[i].start >= end:
                break
            if start <= mentions[i].start and mentions[i].end <= end:
                parts.add(i)
        found.append((start, end, minutes, frozenset(parts)))
        taken = end
    return found


# A blood pressure, systolic over diastolic, is one value: "128/82 mmHg", "128/82 mm Hg",
# "128 over 82 mmHg", and without its unit after the words of one in its clause ("Your blood
# pressure was 128/82", "BP: 128/82"), or in a field named for one (``"bp": "128/82"``).
_PRESSURE = re.compile(r"([0-9]{2,3})(?:[ \u00a0]?/[ \u00a0]?|[ \u00a0]+over[ \u00a0]+)"
                       r"([0-9]{2,3})(?![0-9]|[.,][0-9])(?P<unit>[ \u00a0]?mm[ \u00a0]?hg"
                       r"(?![a-z])|[ \u00a0]?mm\[hg\])?", re.IGNORECASE)
_PRESSURE_BEFORE = re.compile(r"(?:blood[ \u00a0-]pressure|(?<![a-z])b\.?p\.?)(?![a-z])"
                              r"[^.!?;\n0-9]{0,30}\Z", re.IGNORECASE)
PRESSURE_UNIT = "mmHg"


def may_say_pressure(low: str) -> bool:
    """Whether the lower-cased ``low`` may say a blood pressure: a first look before
    ``pressure_pairs``."""
    return ("/" in low or " over " in low) and ("hg" in low or "pressure" in low or "bp" in low
                                                  or "b.p" in low)


def may_write_pressure(text: str) -> bool:
    """``may_say_pressure`` for an evidence's text as written (a clinician's "BP 128/82",
    "128/82 mmHg"), without lower-casing it: most texts hold no "/" near such a word."""
    return ("/" in text or " over " in text) and (
        "Hg" in text or "hg" in text or "HG" in text or "BP" in text or "ressure" in text)


def pressure_pairs(text: str, mentions, named: bool = False
                   ) -> list[tuple[int, int, Decimal, Decimal, frozenset[int]]]:
    """Each blood pressure of ``text`` (``_PRESSURE``) as (start, end, systolic, diastolic,
    the indices of ``mentions`` that are its parts). ``named``: the text is a field named for a
    blood pressure, which needs no unit. Each test is anchored at a number's digits."""
    found = []
    taken = -1
    for at, mention in enumerate(mentions):
        if mention.kind != "number" or mention.value is None or mention.start < taken \
                or mention.percent or mention.currency is not None \
                or text[mention.end:mention.end + 1] not in ("/", " ", "\u00a0"):
            continue
        said = _PRESSURE.match(text, mention.start)
        if said is None or said.end(1) != mention.end:
            continue
        if said.group("unit") is None and not named and _PRESSURE_BEFORE.search(
                text, max(0, mention.start - 48), mention.start) is None:
            continue
        start, end = said.span()
        inside = []                     # the mentions within the pair, up to its end only
        for i in range(at, len(mentions)):
            if mentions[i].start >= end:
                break
            if start <= mentions[i].start and mentions[i].end <= end:
                inside.append(i)
        parts = frozenset(inside)
        found.append((start, end, Decimal(said[1]), Decimal(said[2]), parts))
        taken = end
    return found


def pressure_part(name: str) -> str | None:
    """"systolic" or "diastolic" for a field named for one part of a blood pressure
    (``systolic``, ``systolic_mmhg``, ``bp_diastolic``, ``sbp``, ``dbp``), else None."""
    low = name.lower()
    if "systolic" in low or low == "sbp" or low.startswith("sbp_"):
        return "systolic"
    if "diastolic" in low or low == "dbp" or low.startswith("dbp_"):
        return "diastolic"
    return None


# Every word for a unit, as a regex alternation (longest first).
UNIT_WORDS = _alternation(UNIT_OF)
# After a unit word: not "l" elided before a vowel ("5 € l'unité", "5 volte l'anno"), which is
# the article, not a litre ("2 years' warranty" keeps its unit).
_NOT_ELIDED = r"(?![\'’](?<=[lL][\'’]))"
# A unit right after a number: "2 years", "2-year", "23kg", "5 business days", "48 hrs", maybe
# with one of these words between.
_FILLERS = "business working calendar full whole more additional extra further"
# (but "business days" and "working days" are a unit of their own: a working day)
_NOT_WORKING_DAY = r"(?!(?:business|working)[ \u00a0-]days?(?![a-z]))"
_UNIT_AFTER = re.compile(rf"[ \u00a0-]?(?:{_NOT_WORKING_DAY}(?:{_alternation(_FILLERS.split())})"
                         rf"[ \u00a0-])?"
                         rf"({UNIT_WORDS})(?![a-z0-9]){_NOT_ELIDED}", re.IGNORECASE | re.ASCII)
# What a number is per, up to two words after it: "600 requests per second", "600/min", "600
# req/s", "$9.99 a month", "5 times a week".
# (Emphasis or a bracket may stand between: "**$12** per year", "$12 (per year)"; "p.a." is
# per year.)
_PER_AFTER = re.compile(rf"(?:\*{{1,2}}|_{{1,2}})?(?:[ \u00a0-]+[a-z]+){{0,2}}?[ \u00a0]*\(?"
                        rf"(?:(?:(?:per|an?|each|every)"
                        rf"[ \u00a0]+|/[ \u00a0]?)({UNIT_WORDS}|s|annum|quarter|qtr|fortnight|"
                        rf"semester)|[ \u00a0,]*(?P<adverb>"
                        rf"annually|yearly|monthly|weekly|daily|nightly|hourly|quarterly|"
                        rf"fortnightly|(?:bi|semi)-?annually|half-yearly|p\.a\.?))(?![a-z0-9])",
                        re.IGNORECASE | re.ASCII)
_PER_ADVERBS = {"annually": "year", "yearly": "year", "monthly": "month", "weekly": "week",
                "daily": "day", "nightly": "night", "hourly": "hour", "annum": "year", "p.a.": "year", "p.a": "year",
                "quarterly": "quarter", "fortnightly": "fortnight", "biannually": "half-year",
                "bi-annually": "half-year", "semiannually": "half-year",
                "semi-annually": "half-year", "half-yearly": "half-year"}


# The words of other languages, by the locale's language: for each unit, its words (read after
# a number, like ``_WORDS``, "_" for a space; German compounds too: "2-jährige",
# "2-Jahres-Garantie", "5 Werktage"; a working day is its own unit: "5 Werktage", "5 jours
# ouvrés", "5 giorni lavorativi"); the words that may stand between the number and its unit
# ("2 weitere Monate"); the words before what a number is per ("pro Sekunde", "par an", "al
# mes", "a la semana", "por mês", "per uur"; "_" for a space), those written glued to it ("l'an", "all'anno"); and
# the words that say per what alone ("monatlich", "mensuels"). A field's name is still read in
# English only.
_OTHER = {
    "de": ({
        "millisecond": "millisekunde millisekunden",
        "second": "sekunde sekunden sek",
        "minute": "minute minuten minütige minütigen minütiger",
        "hour": "stunde stunden std stündige stündigen stündiger",
        "day": "tag tage tagen tages tägige tägigen tägiger kalendertag kalendertage "
               "kalendertagen",
        "business-day": "werktag werktage werktagen werktags arbeitstag arbeitstage "
                        "arbeitstagen geschäftstag geschäftstage geschäftstagen",
        "night": "nacht nächte nächten",
        "week": "woche wochen wöchige wöchigen wöchiger",
        "month": "monat monate monaten monats monatige monatigen monatiger",
        "year": "jahr jahre jahren jahres jährige jährigen jähriger",
        "kilogram": "kilogramm", "gram": "gramm", "pound": "pfund", "ounce": "unze unzen",
        "tonne": "tonne tonnen", "centimetre": "zentimeter", "mile": "meile meilen",
        "foot": "fuß", "inch": "zoll"},
        "weitere weiteren zusätzliche zusätzlichen volle vollen ganze ganzen", "pro je im", "",
        {"jährlich": "year", "monatlich": "month", "wöchentlich": "week", "täglich": "day",
         "stündlich": "hour"}),
    "fr": ({
        "millisecond": "milliseconde millisecondes", "second": "seconde secondes",
        "hour": "heure heures", "day": "jour jours",
        "business-day": "jour_ouvré jours_ouvrés jour_ouvrable jours_ouvrables",
        "night": "nuit nuits", "week": "semaine semaines",
        "month": "mois", "year": "an ans année années", "kilogram": "kilo kilos",
        "pound": "livre livres", "ounce": "once onces", "kilometre": "kilomètre kilomètres",
        "metre": "mètre mètres", "centimetre": "centimètre centimètres",
        "millimetre": "millimètre millimètres", "foot": "pied pieds", "inch": "pouce pouces",
        "kilobyte": "ko kilooctet kilooctets", "megabyte": "mo mégaoctet mégaoctets",
        "gigabyte": "go gigaoctet gigaoctets", "terabyte": "to téraoctet téraoctets"},
        "", "par chaque", "l' l’ à_l' à_l’",
        {"annuellement": "year", "mensuellement": "month", "hebdomadairement": "week",
         "quotidiennement": "day", "annuels": "year", "mensuels": "month"}),
    "es": ({
        "millisecond": "milisegundo milisegundos", "second": "segundos seg segs",
        "minute": "minuto minutos", "hour": "hora horas", "day": "día días dia dias",
        "business-day": "día_hábil días_hábiles dia_habil dias_habiles día_laborable "
                        "días_laborables",
        "night": "noche noches", "week": "semana semanas", "month": "mes meses", "year": "año años",
        "kilogram": "kilogramo kilogramos kilo kilos", "gram": "gramo gramos",
        "pound": "libra libras", "ounce": "onza onzas", "tonne": "tonelada toneladas",
        "kilometre": "kilómetro kilómetros", "metre": "metro metros",
        "centimetre": "centímetro centímetros", "millimetre": "milímetro milímetros",
        "mile": "milla millas", "foot": "pie pies", "inch": "pulgada pulgadas",
        "litre": "litro litros", "millilitre": "mililitro mililitros"},
        "", "por al cada a_la", "",
        {"anualmente": "year", "mensualmente": "month",
         "semanalmente": "week", "diariamente": "day", "anuales": "year", "mensuales": "month",
         "semanales": "week", "diarios": "day"}),
    "it": ({
        "millisecond": "millisecondo millisecondi", "second": "secondi sec",
        "minute": "minuto minuti", "hour": "ora ore", "day": "giorno giorni gg",
        "business-day": "giorno_lavorativo giorni_lavorativi giorno_feriale giorni_feriali",
        "night": "notte notti", "week": "settimana settimane", "month": "mese mesi", "year": "anno anni",
        "kilogram": "chilogrammo chilogrammi chilo chili", "gram": "grammo grammi",
        "pound": "libbra libbre", "ounce": "oncia once", "tonne": "tonnellata tonnellate",
        "kilometre": "chilometro chilometri", "metre": "metro metri",
        "centimetre": "centimetro centimetri", "millimetre": "millimetro millimetri",
        "mile": "miglio miglia", "foot": "piede piedi", "inch": "pollice pollici",
        "litre": "litro litri", "millilitre": "millilitro millilitri"},
        "", "al allo alla a ogni", "all' all’ l' l’",
        {"annualmente": "year", "mensilmente": "month",
         "settimanalmente": "week", "giornalmente": "day", "quotidianamente": "day",
         "annui": "year", "annuali": "year", "mensili": "month", "settimanali": "week"}),
    "pt": ({
        "millisecond": "milissegundo milissegundos", "second": "segundos seg",
        "minute": "minuto minutos", "hour": "hora horas", "day": "dia dias",
        "business-day": "dia_útil dias_úteis",
        "night": "noite noites", "week": "semana semanas", "month": "mês meses", "year": "ano anos",
        "kilogram": "quilograma quilogramas quilo quilos", "gram": "grama gramas",
        "pound": "libra libras", "ounce": "onça onças", "tonne": "tonelada toneladas",
        "kilometre": "quilômetro quilômetros quilómetro quilómetros", "metre": "metro metros",
        "centimetre": "centímetro centímetros", "millimetre": "milímetro milímetros",
        "mile": "milha milhas", "foot": "pé pés", "inch": "polegada polegadas",
        "litre": "litro litros", "millilitre": "mililitro mililitros"},
        "", "por ao à cada", "",
        {"anualmente": "year", "mensalmente": "month",
         "semanalmente": "week", "diariamente": "day", "anuais": "year", "mensais": "month",
         "semanais": "week"}),
    "nl": ({
        "millisecond": "milliseconde milliseconden", "second": "seconde seconden",
        "minute": "minuut minuten", "hour": "uur uren", "day": "dag dagen",
        "business-day": "werkdag werkdagen",
        "night": "nacht nachten", "week": "weken", "month": "maand maanden", "year": "jaar jaren",
        "kilogram": "kilo kilo's", "pound": "pond", "mile": "mijl mijlen", "foot": "voet",
        "inch": "duim"},
        "volle hele", "elke iedere", "",
        {"jaarlijks": "year", "maandelijks": "month", "wekelijks": "week",
         "dagelijks": "day"}),
}

# After what would be a period a number is per, what makes it a year or a month named, not a
# base: "im Jahr 2024", "l'an dernier", "al año siguiente", "all'anno prossimo".
_NEXT_OR_LAST = (r"[ \u00a0]+(?:prochaine?|derni[eè]re?|pass[ée]e?|suivante?|siguiente|pasado|"
                 r"pr[óo]xim[oa]|anterior|prossim[oa]|scors[oa]|successiv[oa]|seguinte|"
                 r"passad[oa]|que vem|que viene|volgend[e]?|vorig[e]?)(?![^\W_])")


class _Reader:
    """The words and patterns of one language (``_OTHER``), the English ones included."""

    def __init__(self, units: dict[str, str], fillers: str, bases: str, glued: str,
                 adverbs: dict[str, str], per_only: dict[str, str]):
        self.units = dict(UNIT_OF)
        self.units.update({word.replace("_", " "): unit for unit, words in units.items()
                           for word in words.split()})
        self.alone = {**adverbs, **per_only}
        words = _alternation(self.units)
        fill = _alternation((_FILLERS + " " + fillers).split())
        self.unit = re.compile(rf"[ \u00a0-]?(?:{_NOT_WORKING_DAY}(?:{fill})[ \u00a0-])?"
                               rf"({words})(?![^\W_])"
                               rf"{_NOT_ELIDED}", re.IGNORECASE)
        spaced = _alternation(word.replace("_", " ")
                              for word in ("per a an each every " + bases).split())
        glued = _alternation(word.replace("_", " ") for word in glued.split()) if glued else "/"
        after_per = _alternation([*per_only, "s", "annum"])
        alone = _alternation([*_PER_ADVERBS, *adverbs])
        self.per = re.compile(
            rf"(?:[ \u00a0-]+[^\W\d_]+){{0,2}}?[ \u00a0]*(?:(?:(?:{spaced})[ \u00a0]+|(?:{glued})"
            rf"[ \u00a0]?|/[ \u00a0]?)({words}|{after_per})|[ \u00a0,]*(?P<adverb>{alone}))"
            rf"(?![^\W_])(?![ \u00a0]*[0-9]|{_NEXT_OR_LAST})", re.IGNORECASE)


class _CjkReader:
    """The same for Chinese and Japanese: a unit right after the number, with no space needed
    ("2个月", "2か月", "2年間", "120毫秒", "23公斤"), and what it is per after a slash or 每,
    maybe after a counter ("9.99元/月", "600次/秒"); the English words too ("23kg的行李").
    Not a bare 月 or 日 (12月 is December, 5日 a day of a month), nor 分 (points, cents); not
    年 before a digit or 级, 級, 生, 度 (2024年3月, 3年级), nor 周 or 週 before 年 or a day
    (10周年, 周一, 周末)."""

    _UNITS = {"millisecond": "毫秒 ミリ秒", "second": "秒 秒間 秒钟 秒鐘",
              "minute": "分钟 分鐘 分間", "hour": "小时 小時 時間 个小时 個小時",
              "day": "天 日間", "business-day": "工作日 个工作日 個工作日 営業日",
              "week": "周 週 週間 个星期 個星期",
              "month": "个月 個月 ヶ月 か月 カ月 ケ月", "year": "年 年間",
              "kilogram": "公斤 千克 キロ キログラム", "gram": "克 グラム", "pound": "磅 ポンド",
              "kilometre": "公里 千米 キロメートル", "metre": "米 メートル",
              "litre": "升 公升 リットル", "millilitre": "毫升 ミリリットル"}
    _PER = {"秒": "second", "分钟": "minute", "分": "minute", "小时": "hour", "時間": "hour",
            "时": "hour", "時": "hour", "天": "day", "日": "day", "周": "week", "週": "week",
            "月": "month", "年": "year"}

    def __init__(self):
        cjk = {word: unit for unit, words in self._UNITS.items() for word in words.split()}
        self.units = {**UNIT_OF, **cjk}
        self.alone = self._PER
        self.unit = re.compile(
            rf"[ \u00a0-]?(?:{_NOT_WORKING_DAY}(?:{_alternation(_FILLERS.split())})[ \u00a0-])?"
            rf"({UNIT_WORDS})"
            rf"(?![a-zA-Z0-9]){_NOT_ELIDED}|[ \u00a0]?({_alternation(cjk)})(?![0-9０-９级級生度年])"
            rf"(?<![周週](?=[一二三四五六七日天末]))",
            re.IGNORECASE)
        self.per = re.compile(
            rf"{_PER_AFTER.pattern}|[\u3040-\u30ff\u4e00-\u9fff]{{0,3}}[/每] ?"
            rf"({_alternation(self._PER)})(?![0-9０-９年])", re.IGNORECASE)


# Read as a unit only after a word of ``per``: "por segundo", "al secondo".
_PER_ONLY_OTHER = {"es": {"segundo": "second"}, "it": {"secondo": "second"},
                   "pt": {"segundo": "second"}}
_OTHER_READERS = {lang: _Reader(*spec, _PER_ONLY_OTHER.get(lang, {}))
                  for lang, spec in _OTHER.items()}
_OTHER_READERS["zh"] = _OTHER_READERS["ja"] = _CjkReader()


def unit_after(text: str, end: int, lang: str = "en") -> str | None:
    """The unit written right after a number that ends at ``end`` ("year" for "2 years" and
    "2-year"; in German "2 Jahre" and "2-jährige"), or None. ``lang`` is the locale's language:
    the words of ``_OTHER`` for it are read besides the English ones."""
    concentration = concentration_after(text, end)
    if concentration is not None:
        return concentration            # "112 mg/dL": no mass of 112 mg
    other = _OTHER_READERS.get(lang)
    if other is None:
        found = _UNIT_AFTER.match(text, end)
        return _bits_or_bytes(found.group(1), UNIT_OF[found.group(1).lower()]) if found else None
    found = other.unit.match(text, end)
    return _bits_or_bytes(found.group(1) or "", other.units[(found.group(1) or found.group(2)).lower()]) \
        if found else None


def per_after(text: str, end: int, lang: str = "en") -> str | None:
    """The unit a number that ends at ``end`` is said to be per ("second" for "600 requests per
    second" and "600 req/s", "month" for "$9.99 a month", "year" for "$99 annually" and "per
    annum"; in French "9,99 € par an", in Spanish "al mes"); ``TOTAL`` for an amount said to be
    the whole ("€540 in total", "altogether"); or None."""
    other = _OTHER_READERS.get(lang)
    found = (_PER_AFTER if other is None else other.per).match(text, end)
    if found is None:
        return TOTAL if _TOTAL_AFTER.match(text, end) else None
    word = next(group for group in found.groups() if group).lower()
    units = UNIT_OF if other is None else other.units
    return units.get(word) or _PER_ONLY.get(word) or _PER_ADVERBS.get(word) \
        or (other.alone.get(word) if other is not None else None)


# Before an amount, a word that says what it is per: "a yearly $144", "your monthly fee of
# $12", "annual price: $144"; at most two words between, none across a comma or a stop.
# A period said as a phrase reads so too: "per-semester tuition of", "tuition for the academic
# year is $14,250".
# Per, each or every before a period's noun says it too: "Tuition per year is $14,250", "Each
# year you pay $14,250", "Per month, the plan costs $12" (a comma after it only where it opens
# its sentence).
_PERIOD_NOUNS = {"year": "year", "month": "month", "week": "week", "day": "day",
                 "night": "night", "hour": "hour", "quarter": "quarter", "term": "half-year"}
_PER_BEFORE_WORDS = {**{word: unit for word, unit in _PER_ADVERBS.items() if word != "annum"},
                     "annual": "year", "per-semester": "half-year", "semesterly": "half-year",
                     "per-term": "half-year", "for the year": "year",
                     "for the academic year": "year", "for the school year": "year",
                     "for the semester": "half-year", "per semester": "half-year",
                     "each semester": "half-year", "every semester": "half-year",
                     "per annum": "year",
                     **{f"{each} {noun}": unit for noun, unit in _PERIOD_NOUNS.items()
                        for each in ("per", "each", "every")}}
# The same before an amount in the other languages, read in their locale: the adjectives with
# their endings ("Die jährliche Studiengebühr", "Le loyer annuel", "El alquiler anual",
# "L'affitto annuale") and a word of per before a period ("Pro Jahr zahlen Sie", "par an",
# "por año", "all'anno", "per jaar").
def _periods_before(adjectives: str, pers: str, nouns: str) -> dict[str, str]:
    """``_PER_BEFORE_OTHER`` of one language: its adjectives ("annuel annuelle:year, ...":
    forms and the period after a colon, comma-separated), and each word of per (``pers``)
    before each noun of a period ("an:year mois:month ...")."""
    words = {form: unit for group in adjectives.split(", ")
             for forms, unit in [group.split(":")] for form in forms.split()}
    words.update({f"{per} {noun}": unit for per in pers.split()
                  for noun, unit in (pair.split(":") for pair in nouns.split())})
    return words


_PER_BEFORE_OTHER = {
    "de": _periods_before(
        ", ".join(f"{stem}e {stem}en {stem}er {stem}es:{unit}" for stem, unit in (
            ("jährlich", "year"), ("monatlich", "month"), ("wöchentlich", "week"),
            ("täglich", "day"), ("halbjährlich", "half-year"), ("vierteljährlich", "quarter"))),
        "pro je jedes jeden jede im",
        "jahr:year monat:month woche:week tag:day semester:half-year nacht:night"),
    "fr": _periods_before(
        "annuel annuelle annuels annuelles:year, mensuel mensuelle mensuels mensuelles:month, "
        "hebdomadaire hebdomadaires:week, quotidien quotidienne quotidiens quotidiennes "
        "journalier journalière:day, semestriel semestrielle semestriels "
        "semestrielles:half-year, trimestriel trimestrielle trimestriels trimestrielles:quarter",
        "par chaque", "an:year année:year mois:month semaine:week jour:day nuit:night "
        "semestre:half-year"),
    "es": _periods_before(
        "anual anuales:year, mensual:month, semanal:week, diario diaria:day, "
        "semestral semestrales:half-year, trimestral trimestrales:quarter",
        "por al cada", "año:year mes:month semana:week día:day noche:night semestre:half-year"),
    "it": {**_periods_before(
        "annuale annuo annua:year, mensile:month, settimanale:week, giornaliero "
        "giornaliera:day, semestrale semestrali:half-year, trimestrale trimestrali:quarter",
        "ogni per", "anno:year mese:month settimana:week giorno:day notte:night "
        "semestre:half-year"), "all'anno": "year", "all’anno": "year", "al mese": "month"},
    "pt": _periods_before(
        "anual:year, mensal:month, semanal:week, diário diária:day, semestral "
        "semestrais:half-year, trimestral trimestrais:quarter",
        "por ao cada", "ano:year mês:month semana:week dia:day noite:night semestre:half-year"),
    "nl": _periods_before(
        ", ".join(f"{stem} {stem}e:{unit}" for stem, unit in (
            ("jaarlijks", "year"), ("maandelijks", "month"), ("wekelijks", "week"),
            ("dagelijks", "day"), ("halfjaarlijks", "half-year"))),
        "per elk elke ieder iedere",
        "jaar:year maand:month week:week dag:day nacht:night semester:half-year")}


_JOINING = r"(?:and|or|to|than|vs|versus|plus|up|und|oder|et|ou|y|o|e|en)"


@functools.lru_cache(maxsize=None)
def _per_before(lang: str) -> tuple[re.Pattern, dict[str, str]]:
    other = _OTHER_READERS.get(lang)
    alone = other.alone if other is not None else {}
    words = {**_PER_BEFORE_WORDS, **{word: unit for word, unit in alone.items()
                                     if word not in _PER_ONLY_OTHER.get(lang, ())},
             **_PER_BEFORE_OTHER.get(lang, {})}
    said = _alternation(words).replace(r"\ ", "[ \u00a0]")
    word = rf"[ \u00a0-]+(?!{_JOINING}(?![^\W_]))[^\W\d_]+"
    # (not across a joining word: "$14.99 daily or $60" says nothing of $60); or, opening its
    # sentence, before a comma and up to four words ("Per month, the plan costs $12")
    pattern = re.compile(rf"(?<![^\W_])({said})(?:{word}){{0,2}}?[ \u00a0]*:?[ \u00a0]*\Z"
                         rf"|(?:^|(?<=[.!?;\n])|(?<=[.!?;\n][ \u00a0]))[*_]{{0,2}}({said}),"
                         rf"(?:{word}){{1,4}}?[ \u00a0]*\Z", re.IGNORECASE)
    return pattern, words


def per_before(text: str, start: int, lang: str = "en") -> str | None:
    """The unit an amount that starts at ``start`` is said to be per by a word before it
    ("year" for "a yearly $144", "annual price: $144", "Tuition per year is $144" and "Per
    year, tuition is $144"; in German "monatlich 9,99 €", "Die jährliche Gebühr beträgt"), or
    None. Read in the 48 characters before it."""
    pattern, words = _per_before(lang)
    found = pattern.search(text, max(0, start - 48), start)
    if found is None:
        return None
    return words[" ".join((found.group(1) or found.group(2)).lower().split())]


def unit_word(word: str, lang: str = "en") -> str | None:
    """The unit a word names, read in English and in ``lang`` ("pound" for "livres" in French),
    or None."""
    other = _OTHER_READERS.get(lang)
    return (UNIT_OF if other is None else other.units).get(word.lower())


def unit_said_after(text: str, end: int) -> tuple[str, int] | None:
    """``unit_after`` in English, with where its word ends: ("square-foot", 11) for "1,850
    ft²" (binding reads a field's unit where its words are not written: ``rulekit.bind``)."""
    found = _UNIT_AFTER.match(text, end)
    return (UNIT_OF[found.group(1).lower()], found.end()) if found else None


# --- the tax basis of an amount ---------------------------------------------------------------
# Whether a price includes the tax on it ("incl") or not ("excl") is, like a unit, a property
# of the field that holds it (``price_incl_vat``, ``net_price``, ``amount_ex_gst``,
# ``prix_ttc``) and of the words said beside the amount ("€132.50 including VAT", "125,00 €
# zzgl. MwSt.", "125 € HT"). A field whose name says neither holds an amount of unknown basis,
# which may be said with any.

INCLUDED, EXCLUDED = "incl", "excl"
BASIS_WORDS = {INCLUDED: "including tax", EXCLUDED: "before tax"}

# A field's name, read word by word: a word for a tax, and a word that says which side of it
# the amount is (``incl_vat``, ``before_tax``, ``pretax``), or one word that says both.
_TAX_NAME = frozenset("vat tax taxes gst hst pst mwst ust iva tva btw".split())
_INCL_NAME = frozenset("incl inc including inclusive with after inkl inklusive con com "
                       "incluido incluida included".split())
_EXCL_NAME = frozenset("excl ex exc excluding exclusive without before pre zzgl plus exkl "
                       "ohne sin sem hors excluded".split())
# the same words after the tax's name (``iva_incluido``, ``tax_included``, ``vat_excluded``)
_INCL_AFTER_NAME = frozenset("incl inc included inclusive incluido incluida inclusa inclusi "
                             "compreso compresa comprise inkl".split())
_EXCL_AFTER_NAME = frozenset("excl excluded exclusive excluido excluida esclusa escluso "
                             "exkl".split())
_BOTH_NAME = {"gross": INCLUDED, "brutto": INCLUDED, "ttc": INCLUDED, "ivato": INCLUDED,
              "ivata": INCLUDED, "aftertax": INCLUDED, "taxed": INCLUDED, "net": EXCLUDED,
              "netto": EXCLUDED, "ht": EXCLUDED, "pretax": EXCLUDED, "untaxed": EXCLUDED}
# Not ``subtotal``: before the tax in a US shop, but it includes VAT wherever prices are shown
# with it (Stripe's and Shopify's subtotals follow the prices): a flag beside it says which.
# "net" and "gross" of pay, profit or weight say nothing of a sales tax (a gross salary is before
# income tax, a net profit after it): in a name with one of these words they are not read.
_NOT_SALES = frozenset("profit profits income earnings salary salaries pay wage wages margin "
                       "worth weight wt loss losses assets debt yield tonnage revenue revenues "
                       "proceeds return returns".split())


@functools.lru_cache(maxsize=4096)
def named_tax_basis(name: str) -> str | None:
    """The tax basis a field's name says its amount is on: ``INCLUDED`` for
    ``price_incl_vat``, ``gross_price``, ``price_after_tax``, ``price_inc_gst``,
    ``prix_ttc``, ``total_with_tax``; ``EXCLUDED`` for ``price_excl_vat``, ``net_price``,
    ``price_before_tax``, ``amount_ex_gst``, ``preis_zzgl_mwst``; None for a name that says
    neither (``price``, ``total``, ``subtotal``, ``vat_amount``, ``net_profit``)."""
    words = [word.lower() for word in _NAME_WORD.findall(name)]
    found = set()
    for index, word in enumerate(words):
        if word in _BOTH_NAME:
            if word in ("net", "gross", "netto", "brutto") and not _NOT_SALES.isdisjoint(words):
                continue
            found.add(_BOTH_NAME[word])
        elif word in _TAX_NAME:
            side = words[index - 1] if index else ""
            then = words[index + 1] if index + 1 < len(words) else ""
            if side in _INCL_NAME or then in _INCL_AFTER_NAME:
                found.add(INCLUDED)
            elif side in _EXCL_NAME or then in _EXCL_AFTER_NAME:
                found.add(EXCLUDED)
    return found.pop() if len(found) == 1 else None


def names_tax(name: str) -> bool:
    """Whether a field's name has a tax's name as a word: ``total_tax``, ``vat_amount``,
    ``tax``, ``price_incl_vat``."""
    return not _TAX_NAME.isdisjoint(word.lower() for word in _NAME_WORD.findall(name))


# The words said beside an amount, in English and in German, French, Spanish, Italian, Dutch and
# Portuguese. A tax's name; the words that put the amount on one side of it, before the name
# ("including VAT", "zzgl. MwSt.", "hors TVA", "más IVA") or after it ("VAT included", "IVA
# incluido", "TVA comprise"); and the words that say the side alone ("net", "brutto", "TTC").
_TAX_SAID = (r"(?:value[ \u00a0-]added[ \u00a0]tax|sales[ \u00a0]tax(?:es)?|taxes|tax|vat|gst|hst|"
             r"mwst\.?|mehrwertsteuer|ust\.?|umsatzsteuer|tva|iva|btw|impuestos?|imposte?)")
_GAP = r"[ \u00a0]*"
_BEFORE_INCL = (r"including|includes|inclusive[ \u00a0]of|incl\.?|inc\.?|with|after|inkl\.?|"
                r"inklusive|einschlie(?:ß|ss)lich|mit|incluant|avec|con|"
                r"incluido|incluida|incluso|compreso|inclusa|incluse|inclusief|met|com|"
                r"incluindo|c/")
_BEFORE_EXCL = (r"excluding|exclusive[ \u00a0]of|excl\.?|exc\.?|ex-|ex\.?|before|without|plus|\+|"
                r"zzgl\.?|zuzüglich|exkl\.?|exklusive|ohne|hors|sans|más|mas|sin|più|escluso|"
                r"esclusa|senza|exclusief|zonder|sem|mais|s/|pre-|pre")
_AFTER_INCL = r"incl\.?|inc\.?|included|inclusive|inkl\.?|inklusive|comprises?|compris|incluse?|" \
              r"incluid[oa]|inclus[oa]|compres[oa]|incluíd[oa]|inbegrepen"
_AFTER_EXCL = r"excl\.?|excluded|exclusive|exkl\.?|exclue?|non[ \u00a0]comprise?|" \
              r"no[ \u00a0]incluid[oa]|excluid[oa]|esclus[oa]|não[ \u00a0]incluíd[oa]|" \
              r"exclusief|extra"
_ALONE = {"net": EXCLUDED, "nett": EXCLUDED, "netto": EXCLUDED, "ht": EXCLUDED,
          "pre-tax": EXCLUDED, "pretax": EXCLUDED, "gross": INCLUDED, "brutto": INCLUDED,
          "ttc": INCLUDED, "ivato": INCLUDED, "ivati": INCLUDED, "after-tax": INCLUDED,
          "hors taxes": EXCLUDED, "hors taxe": EXCLUDED, "toutes taxes comprises": INCLUDED,
          "tax-inclusive": INCLUDED, "tax-exclusive": EXCLUDED, "tax inclusive": INCLUDED,
          "tax exclusive": EXCLUDED, "tax-free": None}
_ALONE_SAID = _alternation(word for word in _ALONE if _ALONE[word])
# Up to two things listed before the tax, each of one or two words: "including breakfast and
# VAT", "inkl. Frühstück und MwSt.", "including breakfast, parking and VAT", "including tourist
# tax and VAT".
_LISTED = (r"(?:[^\W\d_]+(?:[ \u00a0]+[^\W\d_]+)?"
           r"(?:[ \u00a0]*,[ \u00a0]*|[ \u00a0]+(?:and|&|und|et|y|e|en)[ \u00a0]+)){0,2}")
_BASIS = (rf"(?<![^\W\d_])(?:(?P<incl>{_BEFORE_INCL}){_GAP}{_LISTED}(?:the[ \u00a0]+)?{_TAX_SAID}"
          rf"|(?P<excl>{_BEFORE_EXCL}){_GAP}(?:the[ \u00a0]+|applicable[ \u00a0]+)?{_TAX_SAID}"
          rf"|{_TAX_SAID}(?:-|{_GAP})(?:(?P<incl2>{_AFTER_INCL})|(?P<excl2>{_AFTER_EXCL}))"
          rf"|(?P<alone>{_ALONE_SAID}))(?![^\W_])")
# Markdown emphasis marks around the amount or the basis ("**€125.00** incl. VAT", "€125.00
# _VAT included_", "**Price incl. VAT:** €132.50", "**Before tax**, ..."): not words between
# them, so each reading below steps over them where they may stand, as the scanner drops them
# inside a number (``**1**,299``). Only read when the text holds a tax word (``_CUES``).
_MARKS = r"[*_]{0,3}"
# After an amount: up to three words between ("per night", "a night", "/night", "pro Nacht"),
# each after a space or a slash (so a long word is tried once), maybe a comma or a bracket,
# then the words of a basis. No digit, currency sign or other
# amount may stand between: "€132.50 including €7.50 VAT" says the VAT is €7.50.
_BASIS_AFTER = re.compile(rf"{_MARKS}(?:(?:[ \u00a0]+|[ \u00a0]*/[ \u00a0]*)[^\W\d_]+){{0,3}}?"
                          rf"{_MARKS}[ \u00a0]*[,(]?[ \u00a0]*{_MARKS}{_BASIS}", re.IGNORECASE)
_BASIS_ALONE_AFTER = re.compile(rf"{_MARKS}[ \u00a0]*[,(]?[ \u00a0]*{_MARKS}{_BASIS}",
                                re.IGNORECASE)
# An amount right after a basis: "net: £2,612.18", "netto 2.891,47 €", "gross EUR 119".
_AMOUNT_NEXT = re.compile(r"[*_]{0,3}[ \u00a0]*:?[*_]{0,3}[ \u00a0]*(?:[$€£¥]|[A-Z]{3}[ \u00a0]?)?\d")
# Before an amount: the words of a basis right before it, maybe with a colon ("Price incl. VAT:
# €132.50", "netto 125 €"); never across a comma or another amount.
_BASIS_BEFORE = re.compile(rf"{_MARKS}{_BASIS}{_MARKS}[ \u00a0]*:?{_MARKS}[ \u00a0]*{_MARKS}$",
                           re.IGNORECASE)
_BASIS_ANYWHERE = re.compile(_BASIS, re.IGNORECASE)
# A basis that opens the amount's clause: "Before tax, the Double is €132.50", "Excluding VAT,
# it's €132.50", "Inkl. MwSt. kostet das Zimmer 125 €". The basis is set off by a comma or a
# colon, ends with an abbreviation's full stop, or is followed by a word that opens a clause
# ("Before VAT the Double is..."), so "With tax rates rising, ..." says none; and nothing
# between it and the amount may end a sentence or hold a digit (another amount).
_OPENS_CLAUSE = (r"the|it|it's|its|this|that|these|those|your|our|each|every|all|prices|"
                 r"das|der|die|kostet|kosten|ist|sind|le|la|les|il|elle|el|los|las|cuesta|"
                 r"cuestan|lo|het|de|o|os|as")
_BASIS_OPENING = re.compile(rf"{_MARKS}{_BASIS}{_MARKS}(?:[ \u00a0]*[,:]|(?<=\.)|[ \u00a0]+(?:{_OPENS_CLAUSE})"
                            rf"(?![^\W_]))[^\d.!?;\n]*$", re.IGNORECASE)
_CLAUSE_ENDS = ".!?;:\n"
_WORD_START = re.compile(r"(?<![^\s(])[^\s(]")
# The words a text must hold (lower case) for any basis to be read in it: the common answer
# holds none, and then no amount is read for one.
_CUES = ("vat", "tax", "gst", "hst", "net", "gross", "mwst", " ust", "brutto", "ttc", " ht",
         "tva", "iva", "btw", "impuest", "impost")     # not "ht" of "night", "ust" of "must"


def may_state_tax_basis(low: str) -> bool:
    """Whether the lower-cased text ``low`` holds a word a tax basis is said with: a first look
    before ``tax_basis_said`` reads any amount."""
    return any(cue in low for cue in _CUES)


def _side(found: re.Match) -> str | None:
    if found.group("incl") or found.group("incl2"):
        return INCLUDED
    if found.group("excl") or found.group("excl2"):
        return EXCLUDED
    return _ALONE.get(" ".join(found.group("alone").lower().split()))


def tax_basis_said(text: str, start: int, end: int, money: bool = True) -> str | None:
    """The tax basis the words beside the amount at ``text[start:end]`` say it is on:
    ``INCLUDED`` for "€132.50 including VAT", "€132.50 per night, VAT included", "132,50 €
    TTC", "Preis inkl. MwSt.: 132,50 €"; ``EXCLUDED`` for "€125 before VAT", "€125 + VAT",
    "125 € HT", "125,00 € zzgl. MwSt."; else None. The words that say a side alone ("net",
    "gross") are read only for an amount of ``money`` and only right beside it."""
    found = tax_basis_words(text, start, end, money)
    return found[0] if found else None


def tax_basis_words(text: str, start: int, end: int,
                    money: bool = True) -> tuple[str, int, int] | None:
    """``tax_basis_said``'s basis, with the span of the words that say it, or None."""
    found = _BASIS_AFTER.match(text, end) if _has_cue(text[end:end + 80]) else None
    if found is not None and "," in text[end:found.end()] \
            and _AMOUNT_NEXT.match(text, found.end()) is not None:
        found = None    # "€119.00, net €100.00": the basis of the amount after the comma
    if found is not None and (found.group("alone") is None or money and (
            _BASIS_ALONE_AFTER.match(text, end) is not None)):
        return _side(found), end, found.end()
    at = max(0, start - 40)
    # a basis said before an amount ends with a tax's name or a word of one ("incl. VAT:",
    # "netto", "TTC", "IVA incluido"): read only when one of the last two words holds a cue,
    # then tried where each of the last six words starts, not at every character
    if _has_cue(" ".join(text[at:start].rsplit(None, 2)[-2:])):
        for word in list(_WORD_START.finditer(text, at, start))[-6:]:
            found = _BASIS_BEFORE.match(text, word.start(), start)
            if found is not None:
                if found.group("alone") is None or money:
                    return _side(found), found.start(), start
                break
    return _basis_opening(text, start, money)


def _basis_opening(text: str, start: int, money: bool) -> tuple[str, int, int] | None:
    """The basis said where the clause holding the amount at ``start`` opens
    (``_BASIS_OPENING``), with its span, or None. Tried only at the words of the last 100
    characters that open a line or a sentence or follow a colon or semicolon, when those hold a
    cue."""
    at = max(0, start - 100)
    if not _has_cue(text[at:start]):
        return None
    for word in reversed(list(_WORD_START.finditer(text, at, start))[-12:]):
        head = text[max(0, word.start() - 40):word.start()]
        before = head.rstrip()
        if before and before[-1] not in _CLAUSE_ENDS and "\n" not in head[len(before):]:
            continue
        found = _BASIS_OPENING.match(text, word.start(), start)
        if found is not None and (found.group("alone") is None or money):
            return _side(found), found.start(), start
    return None


def _has_cue(words: str) -> bool:
    """Whether ``words`` hold a word of ``_CUES``, in any case: a first look before a regex."""
    return may_state_tax_basis(words.lower())


def stated_tax_basis(words: str) -> str | None:
    """The tax basis a label states anywhere in it ("nightly rate excluding VAT", "Preis
    inkl. MwSt."), when it states one only, or None."""
    said = {_side(found) for found in _BASIS_ANYWHERE.finditer(words)} - {None}
    return said.pop() if len(said) == 1 else None


# --- a basis said once for prices in general --------------------------------------------------
# "Prices include VAT.", "All prices are excluding VAT:", "Please note that our prices do not
# include VAT.", "Alle Preise inkl. MwSt.", "Alle Preise verstehen sich zzgl. MwSt.", "Tous les
# prix sont TTC", "Nos prix ne comprennent pas la TVA", "Todos los precios incluyen (el) IVA",
# "Tutti i prezzi sono IVA inclusa", "Alle prijzen zijn excl. btw", "Todos os preços incluem
# IVA": a sentence whose subject is prices in general, then within 40 characters of its clause
# a basis (``_BASIS``) or a verb of including or excluding before a tax's name. Its subject
# holds only words of ``_GENERAL_HEAD`` before the word for prices, so that "Room prices include
# VAT" (one kind of price), "If prices include VAT" and "Do prices include VAT?" state nothing
# for the answer's other amounts. A negation before the basis turns it around.
_PRICES = ("prices|rates|amounts|fees|charges|costs|preise|beträge|gebühren|prix|tarifs|"
           "montants|precios|importes|tarifas|prezzi|importi|tariffe|prijzen|bedragen|"
           "tarieven|preços|valores")
_INCLUDE = ("include|incluent|comprennent|incluyen|includono|comprendono|incluem|enthalten|"
            "beinhalten|bevatten|omvatten")
_EXCLUDE = "exclude|excluent|excluyen|escludono|excluem"
_GENERAL = re.compile(
    rf"(?:{_PRICES})(?![^\W_])(?P<gap>[^\d.!?;:\n]{{0,40}}?)(?:(?P<verb_incl>{_INCLUDE})|"
    rf"(?P<verb_excl>{_EXCLUDE}))?(?(verb_incl)(?P<verb_not>[ \u00a0]+(?:pas|nicht|not))?"
    rf"[ \u00a0]+(?:(?:the|la|le|l['’]|die|el|il|o|a|de|het)[ \u00a0]*)?{_TAX_SAID}(?![^\W_])|"
    rf"(?(verb_excl)[ \u00a0]+(?:(?:the|la|le|l['’]|die|el|il|o|a|de|het)[ \u00a0]*)?"
    rf"{_TAX_SAID}(?![^\W_])|{_BASIS}))", re.IGNORECASE)
_GENERAL_HEAD = frozenset(
    "all our the these those any listed quoted shown displayed stated above below of please "
    "note that also and remember alle unsere die angegebenen genannten hinweis bitte beachten "
    "sie dass tous toutes les nos ces todos todas los las nuestros nuestras estos estas tutti "
    "tutte i gli le nostri nostre questi queste onze de deze todos os as nossos nossas estes "
    "estas".split())
_NEGATION = re.compile(r"(?<![^\W\d_])(?:not|never|nicht|kein|keine|ne|pas|no|non|niet|geen|não)"
                       r"(?![^\W_])|n['’]t(?![^\W_])|(?<![^\W\d_])n['’]")
_HEAD_WORD = re.compile(r"[^\W\d_]+")


# The word for prices is found first with ``str.find`` (``_GENERAL`` starts with no one literal,
# and ``re`` would try each of its words at every position of the text): its stems.
_PRICE_STEMS = ("price", "rate", "amount", "fee", "charge", "cost", "preis", "betr", "gebühr",
                "prix", "tarif", "tariev", "montant", "precio", "import", "prezz", "prijz",
                "bedrag", "preço", "valor")


def general_bases(text: str) -> tuple[tuple[int, str], ...]:
    """Where ``text`` says a tax basis for prices in general, and which (``_GENERAL``): (start
    of the statement, ``INCLUDED`` or ``EXCLUDED``), in text order. Read only when the
    evidence holds an amount on a basis and the text a tax word (``may_state_tax_basis``)."""
    low = text.lower()
    if len(low) != len(text):
        candidates = list(_GENERAL.finditer(text))
    else:
        candidates = []
        for stem in _PRICE_STEMS:
            if stem not in low:
                continue                                # a substring test: no call
            at = low.find(stem)
            while at >= 0:
                said = _GENERAL.match(text, at)
                if said is not None:
                    candidates.append(said)
                at = low.find(stem, at + len(stem))
        if len(candidates) > 1:
            candidates.sort(key=re.Match.start)
    found = []
    for said in candidates:
        start = said.start()
        if start and text[start - 1].isalpha():
            continue                                    # "surprices"
        head = text[max(0, start - 60):start]
        cut = max(head.rfind(end) for end in ".!?;:\n(")
        if not all(word.lower() in _GENERAL_HEAD for word in _HEAD_WORD.findall(head[cut + 1:])):
            continue                                    # "Room prices", "If prices", "Do prices"
        after = text[said.end():said.end() + 200]
        ends = [after.find(end) for end in ".!?\n" if end in after]
        if ends and after[min(ends)] == "?":
            continue                                    # "Are prices shown incl. VAT?"
        if said.group("verb_incl"):
            side = INCLUDED
        elif said.group("verb_excl"):
            side = EXCLUDED
        else:
            side = _side(said)
            if said.group("alone") and re.match(r"[ \u00a0]+of(?![^\W_])", after):
                continue                                # "prices are net of discounts"
        if side is None:
            continue
        if _NEGATION.search(said.group("gap")) or said.group("verb_not"):
            side = EXCLUDED if side == INCLUDED else INCLUDED
        found.append((start - len(head) + cut + 1, side))
    return tuple(found)


# An amount said as a total or as a tax amount in its own clause: "total: €119.00", "total due
# €119.00", "€119.00 total", "= €119.00", "VAT: €19.00", "Gesamtbetrag 119,00 €". A basis said
# once for prices (``general_bases``) does not reach it: an invoice's summary says its subtotal
# before tax and its total after ("All prices exclude VAT. Subtotal: €100.00, VAT: €19.00,
# total: €119.00."). "Subtotal" is no total. The clause before the amount ends at a comma,
# a full stop, a bracket, "+" or "=" (an "=" just before it makes it a total); the words after
# it at the same marks.
_TOTAL_WORDS = re.compile(
    r"(?<![^\W\d_])(?:total|totals|amount[ \u00a0]+due|balance|to[ \u00a0]+pay|gesamt\w*|summe|"
    r"endbetrag|totale|totaal|vat|tax|gst|hst|mwst|ust|tva|iva|btw)"
    r"(?![^\W_])", re.IGNORECASE)
_CLAUSE_ENDS = ",;.!?\n(+=:"


def said_as_total(text: str, start: int, end: int) -> bool:
    """Whether the amount at ``text[start:end]`` is said as a total or a tax amount in its own
    clause (``_TOTAL_WORDS``)."""
    head = text[max(0, start - 60):start]
    cut = max(head.rfind(mark) for mark in _CLAUSE_ENDS if mark != ":")
    if cut >= 0 and head[cut] == "=" and not head[cut + 1:].strip(" \u00a0*_"):
        return True
    if _TOTAL_WORDS.search(head, cut + 1):
        return True
    tail = text[end:end + 60]
    stops = [tail.find(mark) for mark in _CLAUSE_ENDS + ")" if mark in tail]
    return _TOTAL_WORDS.search(tail, 0, min(stops) if stops else len(tail)) is not None


def general_basis_at(bases: tuple[tuple[int, str], ...], at: int) -> str | None:
    """The basis of ``general_bases`` that applies to an amount at ``at`` which says none of
    its own: the nearest statement before it, else the first after it; None without one."""
    chosen = None
    for start, side in bases:
        if start > at:
            return chosen if chosen is not None else side
        chosen = side
    return chosen


# --- the base of a rate -------------------------------------------------------------------------
# A field named for an amount per N things (``price_per_1000_calls``, ``unit_price_per_100g``,
# ``cost_per_1k_calls``) holds the amount for N of them: said per another base ("each call costs
# $0.40", "$0.40 per million calls", "$3.50 per kg", "$3.50 per 100 ml") it is another price.

_BASE_SCALES = {"k": 1000, "thousand": 1000, "m": 10**6, "mm": 10**6, "mn": 10**6,
                "million": 10**6, "bn": 10**9, "billion": 10**9, "hundred": 100}


def _thing(word: str) -> str:
    """A thing a rate is per, compared as one: a unit by its canonical name ("g" and "grams"
    are "gram"), another word without its plural ("calls" is "call")."""
    word = word.lower()
    unit = UNIT_OF.get(word)
    if unit is not None:
        return unit
    return word[:-1] if word.endswith("s") and not word.endswith("ss") and len(word) > 3 \
        else word


@functools.lru_cache(maxsize=4096)
def named_base(name: str) -> tuple[Decimal, str | None] | None:
    """(N, the thing) of a field named for an amount per N things: (1000, "call") for
    ``price_per_1000_calls`` and ``cost_per_1k_calls``, (100, "gram") for
    ``unit_price_per_100g``, (90, None) for ``goals_per_90``; None for a name with no number
    after "per" (``price_per_kg``, read by ``named_units``)."""
    words = [word.lower() for word in _NAME_WORD.findall(name)]
    for at, word in enumerate(words[:-1]):
        # "per" as a word of the name (not "super7", "upper_2"), then its digits
        if word == "per" and words[at + 1].isdigit() and len(words[at + 1]) <= 7:
            count, rest = Decimal(words[at + 1]), words[at + 2:]
            if rest and rest[0] in _BASE_SCALES and rest[0] != "hundred":
                count, rest = count * _BASE_SCALES[rest[0]], rest[1:]
            return count, (_thing(rest[0]) if rest else None)
    return None


# After an amount, what it is said to be per, with a number or not: "per 1,000 calls", "per 1k
# requests", "per million calls", "per thousand", "/100g", "/ 100 g", "per kg", "a call", "for
# 1,000 calls" (a number after "for"); up to two words may stand before ("billed per call").
_BASE_AFTER = re.compile(
    r"(?:\*{1,2}|_{1,2})?(?:(?:[ \u00a0]+(?!(?:and|or|but)\b)[a-z]+){0,2}?[ \u00a0]*\(?"
    r"(?:per[ \u00a0]+|/[ \u00a0]*)|[ \u00a0]*\(?(?:an?|each|every)[ \u00a0]+|[ \u00a0]+for[ \u00a0]+"
    r"(?=[0-9]|(?:a|one)[ \u00a0]+(?:hundred|thousand|million|billion)\b))"
    r"(?:(?P<count>[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+(?:\.[0-9]+)?)"
    r"(?:[ \u00a0]*(?P<scale>k|mn|bn|thousand|million|billion|hundred)(?![a-z]))?"
    r"|(?:(?:a|one)[ \u00a0]+)?(?P<word>hundred|thousand|million|billion)\b)?[ \u00a0-]*"
    r"(?P<thing>[a-z]+)?", re.IGNORECASE)
# Before an amount, a thing it is said to be for one of: "each call costs $0.40", "every
# request is $0.40", "per call: $0.40".
_BASE_BEFORE = re.compile(
    r"(?<![a-z])(?:(?:each|every|per|a|one|a single)[ \u00a0]+(?P<thing>[a-z]+)[ \u00a0]+"
    r"(?:costs?|is|will cost|would cost|runs|comes to)[ \u00a0]+(?:you[ \u00a0]+)?"
    r"(?:only[ \u00a0]+|just[ \u00a0]+)?|per[ \u00a0]+(?P<label>[a-z]+)[ \u00a0]*[:=][ \u00a0]*)\Z",
    re.IGNORECASE)
# Words after "per" or "a" that are no base: "a month" is a period (``per_after``), "per cent".
_NO_BASE_THING = frozenset("cent percent the this that your our their its my his her".split())


def base_said(text: str, start: int, end: int) -> tuple[Decimal, str | None] | None:
    """(N, the thing) an amount at [start, end) is said to be for, in English: (1000, "call")
    for "$0.40 per 1,000 calls" and "per 1k calls", (1, "call") for "$0.40 per call" and "each
    call costs $0.40", (1000000, "call") for "per million calls", (100, "gram") for
    "$3.50/100g", (1, "kilogram") for "per kg"; None when nothing is said."""
    found = _BASE_AFTER.match(text, end)
    if found is not None and (found.group("count") or found.group("word")
                              or found.group("thing")):
        thing = found.group("thing")
        if thing is not None and thing.lower() in _NO_BASE_THING \
                and not (found.group("count") or found.group("word")):
            return None
        if found.group("count"):
            count = Decimal(found.group("count").replace(",", ""))
            scale = found.group("scale")
            if scale is not None:
                count *= _BASE_SCALES[scale.lower()]
        elif found.group("word"):
            count = Decimal(_BASE_SCALES[found.group("word").lower()])
        else:
            count = Decimal(1)
        return count, (_thing(thing) if thing else None)
    found = _BASE_BEFORE.search(text, max(0, start - 48), start)
    if found is not None:
        thing = found.group("thing") or found.group("label")
        if thing.lower() not in _NO_BASE_THING:
            return Decimal(1), _thing(thing)
    return None


def other_base(said: tuple[Decimal, str | None], held: frozenset[tuple[Decimal, str | None]]
               ) -> bool:
    """Whether a base said (``base_said``) is none of the bases the evidence holds an amount
    per (``named_base``): another number of things, or another unit ("100 ml" for 100 g).
    Other words for a thing that is no unit ("requests" for calls) are the same thing."""
    count, thing = said
    for held_count, held_thing in held:
        if count != held_count:
            continue
        if thing is None or held_thing is None or thing == held_thing \
                or not (thing in _UNITS and held_thing in _UNITS):
            return False
    return True


_UNITS = frozenset(UNIT_OF.values())
