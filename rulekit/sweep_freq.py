"""Frequencies: how often something is done, a count per period ("twice daily", "once a day",
"3 times a week", "every other day"; a prescription's BID, TID, QID, QD, QOD). A frequency is one
figure, not a number and a multiple: "twice daily" is backed only by a frequency the evidence
holds (a field named for a count per period, ``times_per_day: 2``, ``doses_per_day``; or the
same words or abbreviations in its text, a sig's "twice daily" or "1 tab PO BID"), never by a 2
of anything else, and never a computed multiple. Read in English only, and only when the
answer holds one of ``_CUES`` (a substring test)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from rulekit.findings import Finding, _new_finding
from rulekit.units import named_units

# A frequency's period: "day", "week", "month", "hour", "year", or "other day".
Frequency = tuple[Decimal, str]

_COUNT_WORDS = {"once": 1, "twice": 2, "thrice": 3, "one": 1, "two": 2, "three": 3, "four": 4,
                "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11,
                "twelve": 12}
_PERIOD_WORDS = {"daily": "day", "weekly": "week", "monthly": "month", "hourly": "hour",
                 "nightly": "day", "yearly": "year", "annually": "year"}
_FREQUENCY = re.compile(
    r"(?<![\w-])(?:(?P<alone>once|twice|thrice)|(?P<count>[0-9]{1,2}|one|two|three|four|five|six|"
    r"seven|eight|nine|ten|eleven|twelve)(?:[ \u00a0-]+|(?<=[0-9])[x\u00d7][ \u00a0]*)times?)"
    r"(?:[ \u00a0]+(?:(?:a|per|each|every)[ \u00a0]+(?P<period>day|week|month|hour|year|night)|"
    r"(?P<adverb>daily|weekly|monthly|hourly|nightly|yearly|annually)|(?P<other>every other day))"
    r"|(?P<glued>[ \u00a0]*/[ \u00a0]*(?:day|d|wk|week)))(?![\w-])"
    r"|(?<![\w-])(?P<alt>every other day|on alternate days)(?![\w-])", re.IGNORECASE)
# A prescription's abbreviations, in capitals as a sig writes them: per day, or every other day.
_ABBREVIATIONS = {"QD": (1, "day"), "QAM": (1, "day"), "QPM": (1, "day"), "QHS": (1, "day"),
                  "BID": (2, "day"), "TID": (3, "day"), "QID": (4, "day"),
                  "QOD": (1, "other day"), "QW": (1, "week")}
_ABBREVIATION = re.compile(r"(?<![\w.])(?:QD|QAM|QPM|QHS|BID|TID|QID|QOD|QW)(?![\w])")
# The words an answer must hold for a frequency to be read at all (lower case).
_CUES = ("once", "twice", "thrice", "times", "every other", "alternate", "x a", "x per", "x dai")
# The words of a field's name that make its number a count per period (``times_per_day``,
# ``doses_per_day``, ``daily_doses``, ``frequency_per_week``).
_COUNT_NAME = re.compile(r"(?i)(?:^|_|(?<=[a-z])(?=[A-Z]))(?:times|doses|dose|frequency|freq)"
                         r"(?:_|$|(?=[A-Z]))")


def may_say_frequency(low: str, az: str | None = None) -> bool:
    """Whether a lower-cased answer may hold a frequency (a substring test first). ``az`` is
    ``low``'s ``az_text`` when the caller has it: a cue of letters a-z, or its first word, is
    in ``az`` exactly when it is in ``low``, and a test on ``az`` costs a third as much."""
    if az is None:
        return any(cue in low for cue in _CUES)
    # ``_CUES`` written out (no generator to step through), each behind its test on ``az``
    # where it has one: "x a", "x per" and "x dai" behind "x " (a space is not in ``az``)
    return "once" in az or "twice" in az or "thrice" in az or "times" in az \
        or ("every" in az and "every other" in low) or "alternate" in az \
        or ("x " in low and ("x a" in low or "x per" in low or "x dai" in low))


assert set(_CUES) == {"once", "twice", "thrice", "times", "every other", "alternate", "x a",
                      "x per", "x dai"}, "may_say_frequency writes each cue out"


def frequencies_in(text: str) -> list[tuple[int, int, Frequency]]:
    """The frequencies ``text`` writes in words, with their spans, in text order."""
    found = []
    for match in _FREQUENCY.finditer(text):
        if match.group("alt"):
            found.append((match.start(), match.end(), (Decimal(1), "other day")))
            continue
        word = (match.group("alone") or match.group("count")).lower()
        count = Decimal(_COUNT_WORDS[word]) if word in _COUNT_WORDS else Decimal(word)
        if match.group("other"):
            period = "other day"
        elif match.group("glued"):
            period = "week" if "w" in match.group("glued").lower() else "day"
        elif match.group("adverb"):
            period = _PERIOD_WORDS[match.group("adverb").lower()]
        else:
            period = match.group("period").lower()
            period = "day" if period == "night" else period
        found.append((match.start(), match.end(), (count, period)))
    return found


def held_frequencies(raw: Any) -> frozenset[Frequency]:
    """The frequencies the evidence holds: each text's frequencies and abbreviations, and the
    number of each field named for a count per period."""
    found: set[Frequency] = set()
    todo = [(None, raw)]
    while todo:
        name, node = todo.pop()
        if isinstance(node, Mapping):
            todo.extend((str(key), child) for key, child in node.items())
        elif isinstance(node, (list, tuple)):
            todo.extend((name, child) for child in node)
        elif isinstance(node, str):
            if any(cue in node.lower() for cue in _CUES):
                found.update(frequency for _, _, frequency in frequencies_in(node))
            if "Q" in node or "BID" in node or "TID" in node:
                found.update((Decimal(_ABBREVIATIONS[word][0]), _ABBREVIATIONS[word][1])
                             for word in _ABBREVIATION.findall(node))
        elif name is not None and isinstance(node, (int, float, Decimal)) \
                and not isinstance(node, bool) and _COUNT_NAME.search(name):
            for period in named_units(name)[1]:
                found.add((Decimal(str(node)), period))
    return frozenset(found)


def unheld_frequencies(text: str, held: Iterable[Frequency]
                       ) -> tuple[list[tuple[int, int]], list[Finding]]:
    """(the spans of the frequencies ``text`` says, which no other test judges; a finding for
    each one the evidence does not hold). Nothing when the evidence holds no frequency: then
    "billed once a year" is read as before, its figures judged one by one."""
    held = frozenset(held)
    spans, findings = [], []
    if not held:
        return spans, findings      # no frequency to hold one to: each figure is judged alone
    for start, end, (count, period) in frequencies_in(text):
        spans.append((start, end))
        if (count, period) in held:
            continue
        said = text[start:end]
        holds = "; ".join(f"{c.normalize():f} per {p}" for c, p in sorted(held)) or "none"
        findings.append(_new_finding(
            "number", said, f"{count.normalize():f} per {period}", start, end,
            "unsupported_number", f"'{said}' is {count.normalize():f} per {period}; the "
            f"evidence holds no such frequency (it holds: {holds})", None, False))
    return spans, findings
