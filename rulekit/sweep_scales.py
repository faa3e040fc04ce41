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

A figure said as a score ("Your GPA is 4.0", "You have a 4.0 GPA", "Your credit score is
850", "Its rating is 5") is held to the numbers the evidence holds as a score
(``Evidence.scores``), not to a count beside it (``days_absent: 4``), a scale's end or a
target; the level a score reached ("went from 18 to 20", "rose to 20", "is now 20") to those
it holds as the score now, not to a ``previous_score`` nor a ``best_score`` (a null ``score``
backs none). ``said_as_score`` reads the words before and after the number; the sweep asks it
only when the text holds a word of a score (``may_say_score``) and the evidence names one.
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


# The words of a score a text may say a figure as (``may_say_score``: a plain substring test
# of the lowered text first).
_SCORE_CUES = ("gpa", "score", "grade", "rating", "rated", "note", "moyenne", "nota")
# A score's word, then the words that link it to the figure ("Your GPA is 4.0", "GPA: 4.0",
# "credit score of 850", "score went up to 20", "score is now 20", "la moyenne est de 14",
# "Note 2"), maybe after what it is of ("score on Quiz 5 is 18", "moyenne de Léa est de 14")
# and through "from X to" ("score went from 18 to 20"). "grade", "rating" and the words of other
# languages need a link ("in grade 4" is a grade level).
_SCORE_LINKS = (r"is|was|are|were|'s|’s|of|at|now|currently|then|stands|stood|sits|sat|"
                r"remains|remained|reached|hits?|has|had|have|been|went|gone|goes|moved|up|down|"
                r"rose|risen|fell|fallen|dropped|improved|increased|decreased|climbed|jumped|"
                r"slipped|grew|changed|came|in|a|an|to|from|de|del|ist|est|es|è|é|war|era|foi|"
                r"auf|à|para|naar|van|von|liegt|bei|beträgt|vaut|sera|will|be|would|actuelle|"
                r"actuellement|jetzt|ahora|ora|agora|passé|passée|gestiegen|gesunken|subido|"
                r"bajado|salito|sceso")
_SCORE_BEFORE = re.compile(
    r"\b(?:(GPA|grade[ \u00a0]point[ \u00a0]average|score|rated)|(grade|rating|moyenne|nota|"
    r"note))"
    r"(?:'s|’s)?([ \u00a0]+(?:on|in|for|this|last|so)(?:[ \u00a0]+[\w'’-]+){1,4}?)?"
    r"((?:[ \u00a0]*[:=]|[ \u00a0]+(?:" + _SCORE_LINKS + r")(?!\w)"
    r"|[ \u00a0]+(?:de|di|da|do|von|van)[ \u00a0]+[A-ZÀ-Ý][\w'’-]*)*)"
    r"([ \u00a0]+(?:from|de|von|da|van)[ \u00a0]+\d[\d.,]*[ \u00a0]+(?:to|à|a|auf|para|naar|→))?"
    r"[ \u00a0]*\Z", re.IGNORECASE)
# The links that make the figure the level a score reached: a change's verb and "to", "now".
_SCORE_REACHED = re.compile(
    r"(?:went|gone|goes|moved|up|down|rose|risen|fell|fallen|dropped|improved|increased|"
    r"decreased|climbed|jumped|slipped|grew|changed|passé|passée|gestiegen|gesunken|subido|"
    r"bajado|salito|sceso)\b.*\b(?:to|à|a|auf|para|naar)[ \u00a0]*\Z"
    r"|\b(?:now|currently|actuellement|jetzt|ahora|ora|agora)\b", re.IGNORECASE)
# A change's verb before "from" ("went from 18", "rose from 698").
_SCORE_REACHED_FROM = re.compile(
    r"\b(?:went|gone|goes|moved|rose|risen|fell|fallen|dropped|improved|increased|decreased|"
    r"climbed|jumped|slipped|grew|changed)\b", re.IGNORECASE)
# After the number, a score's word, maybe after one word ("a 4.0 GPA", "an 850 credit score",
# "a 4.2-star rating").
_SCORE_AFTER = re.compile(r"[ \u00a0-]?(?:([A-Za-z]+)[ \u00a0])?(?:GPA|grade[ \u00a0]point"
                          r"[ \u00a0]average|score|rating)\b", re.IGNORECASE)
# After the number, what makes it no score: a difference ("3 points higher", "62 points above"),
# a count of time ("4 days").
_NO_SCORE_AFTER = re.compile(r"[ \u00a0]*(?:points?\b|pts\b|higher|lower|more|less|above|"
                             r"below|better|worse|percent|times|days?\b|weeks?\b|months?\b|"
                             r"years?\b|hours?\b|ratings|reviews|votes|scores|grades|users|"
                             r"students|people|customers|guests)", re.IGNORECASE)
# The word before a score's word that makes it no score of the one scored ("your target score
# is 20", "the passing grade is 60", "a perfect score of 100"), and one that makes it another
# time's or others' ("your previous score was 18", "the class average GPA is 3.1").
_NOT_THE_SCORE = frozenset({
    "target", "goal", "passing", "pass", "minimum", "min", "maximum", "max", "required",
    "cutoff", "threshold", "perfect", "top", "full", "possible", "needed", "qualifying"})
# The one word between the number and a score's word after it that makes the word no name of
# the number ("4 on the GPA scale", "18 for the score").
_SCORE_AFTER_BREAK = frozenset({
    "on", "and", "or", "the", "your", "a", "an", "for", "to", "in", "of", "his", "her",
    "their", "its", "my", "our", "this", "that", "per", "by", "with", "at", "out", "from"})
_OTHER_SCORE = frozenset({
    "previous", "prev", "prior", "last", "old", "initial", "original", "baseline", "former",
    "starting", "first", "earlier", "past", "best", "highest", "lowest", "average", "avg",
    "mean", "median", "class", "cohort", "peer", "national", "worst"})
_WORD_BEFORE = re.compile(r"([A-Za-z]+)[ \u00a0-]*\Z")
# Languages whose words of a score ("note", "nota", "moyenne") are read.
_SCORE_LANGUAGES = frozenset({"fr", "de", "es", "it", "pt"})


def may_say_score(low: str) -> bool:
    """Whether the lowered text holds a word of a score at all (one substring test each)."""
    return any(cue in low for cue in _SCORE_CUES)


def said_as_score(text: str, mention: Mention, lang: str) -> str | None:
    """How ``mention`` is said as a score: "now" when it is the level a score reached ("went
    from 18 to 20", "rose to 20", "is now 20"), "any" when it is said as a score ("Your GPA is
    4.0", "a 4.0 GPA", "credit score: 850", "your previous score was 18"), None when it is not
    ("4 days absent", "in grade 4", "your target score is 20", "3 points higher")."""
    if _NO_SCORE_AFTER.match(text, mention.end) is not None:
        return None
    start = max(0, mention.start - 64)
    found = _SCORE_BEFORE.search(text, start, mention.start)
    if found is not None:
        phrase, links, change = found.group(3), found.group(4), found.group(5)
        word = found.group(2)
        if phrase and not links.strip() and not change:
            return None     # "score in grade 4": what the phrase says, no score
        if word is not None:
            if not links.strip() and not change and not (
                    lang == "de" and word == "Note"):
                return None     # "in grade 4", "rating 5" (a grade level, a label)
            if word.lower() in ("note", "nota", "moyenne") and lang not in _SCORE_LANGUAGES:
                return None     # English "note: 3 items"
        if links.endswith("from") and _SCORE_REACHED_FROM.search(links) is None:
            return None     # "a 4.6 rating from 1,284 users": no score went from it
        before = _WORD_BEFORE.search(text, start, found.start())
        said = before.group(1).lower() if before is not None else ""
        if said in _OTHER_SCORE:
            return "any"
        if said in _NOT_THE_SCORE:
            return None
        if change or _SCORE_REACHED.search(links) is not None:
            return "now"
        return "any"
    after = _SCORE_AFTER.match(text, mention.end)
    if after is not None:
        word = (after.group(1) or "").lower()
        if word in _NOT_THE_SCORE or word in _SCORE_AFTER_BREAK:
            return None     # "a 20 target score", "4 on the GPA scale"
        return "any"
    return None


def unscored(text: str, mention: Mention, scores: tuple[frozenset[Decimal], frozenset[Decimal]],
             lang: str) -> str | None:
    """How ``mention`` is said as a score (``said_as_score``) when the evidence holds its
    number as no such score (``Evidence.scores``: all of them, or those of now), else None."""
    said = said_as_score(text, mention, lang)
    if said is None or mention.value in scores[said == "now"]:
        return None
    return said


def unscored_message(said: str, shown: str, how: str) -> str:
    if how == "now":
        return (f"{said} is said as the level a score reached; the evidence holds {shown} as "
                "no current score (a null score backs none; a previous score, a target or a "
                "scale's end is no level reached)")
    return (f"{said} is said as a score; the evidence holds {shown} in no score field (a "
            "count, a target or a scale's end is no score)")
