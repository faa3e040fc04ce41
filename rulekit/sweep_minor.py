"""An amount said in a currency's minor unit ("24.5p", "24.5 pence", "14.2¢", "32,45 ct") is the
amount in that unit: it must be one the evidence holds in it.

A field named for its minor unit (``unit_rate_p_per_kwh: 24.5``) backs its amount in that unit
("24.5p", "24.50 pence": the notation may change, rule 1) and in the major one ("£0.245"). Its
major amount said with the minor unit ("0.245p per kWh", "0.142¢/kWh", "0,3245 ct/kWh") is a
hundred times too low: flagged, unless another field holds that number with no such reading.
Read only when the evidence holds an amount in a minor unit (``Evidence.minor_amounts``)."""

from __future__ import annotations

import re

from rulekit.numbers import plain_decimal

# After a number, the word or sign of a minor unit, by the units it may be (``_MINOR_WORDS`` of
# ``rulekit.evidence``): "p" glued or spaced (not "p.a.", "p.m."), "pence", "¢", "c" glued,
# "cents", "ct", "Cent" (German).
_MINOR_AFTER = re.compile(r"(?:(?P<p>p)(?!\.?[^\W\d_])|[ \u00a0](?P<ps>p)(?![^\W_]|\.[^\W\d_])|"
                          r"[ \u00a0]?(?P<word>pence|penny|pennies|¢|cents?|ct|cts|centimes?|"
                          r"centavos?|c[ée]ntimos?|rappen|rp\.|paise)(?![^\W_])|"
                          r"(?P<c>c)(?![^\W_]))", re.IGNORECASE)
_UNITS_OF = {"p": ("pence", "paise"), "pence": ("pence",), "penny": ("pence",),
             "pennies": ("pence",), "¢": ("cents", "centavos"), "c": ("cents",),
             "cent": ("cents",), "cents": ("cents",), "ct": ("cents",), "cts": ("cents",
             "centimes", "céntimos"), "centime": ("centimes",), "centimes": ("centimes",),
             "centavo": ("centavos",), "centavos": ("centavos",), "céntimo": ("céntimos",),
             "céntimos": ("céntimos",), "centimo": ("céntimos",), "centimos": ("céntimos",),
             "rappen": ("Rappen",), "rp.": ("Rappen",), "paise": ("paise",)}


def minor_unit_said(text: str, mention) -> tuple[str, ...] | None:
    """The minor units a number is said in by the word or sign right after it ("24.5p",
    "14.2¢", "32,45 ct/kWh"), or None."""
    if mention.text.endswith("¢"):
        return _UNITS_OF["¢"]
    found = _MINOR_AFTER.match(text, mention.end)
    if found is None:
        return None
    word = (found.group("p") or found.group("ps") or found.group("word")
            or found.group("c")).lower()
    return _UNITS_OF.get(word)


def judge_minor(text: str, mention, evidence) -> str | None:
    """For a number said in a minor unit: "" when the evidence holds it in that unit (it is
    backed), a finding's message when the evidence holds it only as the major amount of an
    amount in a minor unit ("0.245p" for 24.5 pence), else None (judged as any number)."""
    units = minor_unit_said(text, mention)
    if units is None:
        return None
    value = mention.value
    held = [(amount, unit) for amount, unit, _ in evidence.minor_amounts if amount == value]
    if any(unit in units for _, unit in held):
        return ""
    if held or value not in evidence.minor_majors:
        return None
    minor = sorted(f"{plain_decimal(amount)} {unit}" for amount, unit, path
                   in evidence.minor_amounts if amount.scaleb(-2) == value)
    return (f"{mention.text.strip()} is said in {units[0]}; the evidence holds "
            f"{' or '.join(minor)}, which is {plain_decimal(value)} in the major unit")
