"""The scales of scores (rule 3's scale of a rating, for grades and tests).

A number the evidence holds only as the top or the bottom of a score's scale
(``Evidence.score_scale_ends``: Canvas's ``points_possible: 40``, Moodle's ``grademax: 20``
and ``grademin: 0``, ``gpa_scale: 4.0``, ``max_score``) backs the scale said as one, and no
score: "34 out of 40", "34/40", "3.67 on a 4.0 scale", "a 40-point problem set", "worth 40
points", "20 points possible", "graded from 0 to 20" pass; "40/40", "She earned 20 points",
"Her score is 25", "a 4.0 GPA", "0 sur 20" (a null score said as the scale's top or bottom)
are flagged. ``said_as_scale_end`` reads the words around the number; the sweep asks it only
for a number in ``score_scale_ends``, so its cost is paid by the answers that say one.

A standardized test's well-known scale said after a score of that test the evidence holds
(``Evidence.test_scales``: "1450 out of 1600" for ``sat_total: 1450``, "38/45" for ``ib_total:
38``, "3.67 out of 4.0" for a ``cumulative_gpa`` with no ``gpa_scale`` beside it) is backed as
a rating's "out of 5" is (``said_on_test_scale``).
"""

from __future__ import annotations

import re
from decimal import Decimal

from rulekit.scan import Mention

# Before the number: a scale's word ("out of 40", "/40", "sur 20", "von 20", "max 40", "worth
# up to 40", "out of a possible 40", "a scale of 4.0", "barème de 20"), "N of M" and "N de M"
# with the score's digits first, and the top of a range ("0 to 20", "0–20").
_END_BEFORE = re.compile(
    r"(?:/|\bout[ \u00a0]of|\bsur|\bvon|\bmax(?:imum)?(?:[ \u00a0]of)?:?|\bmax\.|\bpossible"
    r"|\bworth(?:[ \u00a0]up[ \u00a0]to)?|\bscale[ \u00a0]of|\bscale:|\bbar[eè]me(?:[ \u00a0]de)?"
    r"|\d(?:[ \u00a0]\w+)?[ \u00a0](?:of|de|su|em|van|uit|op)"
    r"|\d[ \u00a0]?(?:to|through|[-–—]|à|bis|a)"
    r")[ \u00a0]?\Z", re.IGNORECASE)
# Earlier in the clause, a word of a maximum: "The maximum score on Problem Set 6 is 40",
# "full marks are 20", "max. points: 40", "worth up to 40".
_MAXIMUM_BEFORE = re.compile(r"(?:\b(?:max(?:imum)?|possible|full[ \u00a0]marks|up[ \u00a0]to|"
                             r"bar[eè]me|note[ \u00a0]maximale)\b|\bmax\.)[^.;!?/\n]{0,32}\Z",
                             re.IGNORECASE)
# After the number: "40-point", "40 points possible", "a 4.0 scale", "20 max", the bottom of a
# range ("0 to 20", "0–20").
_END_AFTER = re.compile(
    r"(?:[ \u00a0-]?(?:points?[ \u00a0-]|pts?[ \u00a0])?(?:scale\b|possible\b|max\b|maximum\b)"
    r"|-point\b|[ \u00a0]?(?:to|through|[-–—]|à|bis)[ \u00a0]?\d)", re.IGNORECASE)


def said_as_scale_end(text: str, mention: Mention) -> bool:
    """Whether ``mention`` (a number the evidence holds only as an end of a score's scale) is
    said as that end ("out of 40", "/40", "a 40-point quiz", "on a 4.0 scale", "from 0 to 20"),
    not as a score ("40/40", "earned 40 points", "a 4.0 GPA")."""
    if _END_BEFORE.search(text, max(0, mention.start - 24), mention.start) is not None \
            or _MAXIMUM_BEFORE.search(text, max(0, mention.start - 48), mention.start) is not None:
        return True
    return _END_AFTER.match(text, mention.end) is not None


def scale_end_message(said: str, shown: str) -> str:
    return (f"{said} is said as a score; the evidence holds {shown} only as the top or the "
            "bottom of a score's scale (the points possible, a maximum, a minimum)")


# Before a test's scale, the score said on it: "1450 out of 1600", "1,450/1600", "38 / 45",
# "3.67 out of 4.0", "32 of 36", "15 sur 20".
_SCORE_BEFORE_SCALE = re.compile(
    r"(?<![\d.,])(\d{1,3}(?:[,\u00a0 ]\d{3})?|\d{1,4})((?:[.,]\d{1,2})?)[ \u00a0]?"
    r"(?:/|out[ \u00a0]of|of|sur|von)[ \u00a0]?\Z", re.IGNORECASE)


def said_on_test_scale(text: str, mention: Mention,
                       pairs: frozenset[tuple[Decimal, Decimal]]) -> bool:
    """Whether ``mention`` is the well-known scale of a test said after a score of that test the
    evidence holds (``Evidence.test_scales``): 1600 of "1450 out of 1600" for ``sat_total:
    1450``, 45 of "38/45" for ``ib_total: 38``; not 45 of "39/45"."""
    found = _SCORE_BEFORE_SCALE.search(text, max(0, mention.start - 24), mention.start)
    if found is None:
        return False
    score = Decimal(re.sub(r"[,\u00a0 ]", "", found.group(1))
                    + found.group(2).replace(",", "."))
    return (score, mention.value) in pairs
