"""Who won and who led: a score stated with a win or loss verb, held to the side the verb
names (``winners``), and a figure said as a "team-high" or "game-high", held to that place
(``leaders``).

Binding checks a final score such as "102-98" as a pair of derived figures (``max(team.PTS)``,
``min(team.PTS)``, docs/binding.md): both numbers must be the box score's, but the pair alone
says nothing of who scored which. "The Lakers beat the Celtics 102-98" names the winner with its
verb. When a derived form states such a pair (a higher and a lower of one expression over the
rows of one entity: a final score, a quarter's, a half's) and the last win or loss verb before
it in its sentence has a row of that entity as its subject, that row's own value must be the
higher one for a win ("won", "beat", "defeated", "outscored", ...) and the lower one for a loss
("lost", "fell", "was beaten by"). Otherwise the score is ``misattributed``.

A sentence with no such verb before its score, a subject that is not named (or is ambiguous),
a tie, or a row whose value is a placeholder states no winner this module can check.

"team-high" and "game-high" right before a right figure of a row state that no row of its
group (its field's ``ranks ... within``; for "game-high", its entity) holds more.

Linear: one verb pattern is searched backwards from each score within its sentence (a bounded
window), and the subject is found with ``bind``'s mention lookup; a leader word is looked for
in the few characters before each bound figure.
"""

from __future__ import annotations

import bisect
import dataclasses
import re
from decimal import Decimal
from typing import Callable, Mapping, Sequence

from rulekit.findings import Finding
from rulekit.numbers import plain_decimal
from rulekit.policy import Binding, Formula

# A verb that names the winner as its subject ("beat", "edged"), or, after "was"/"were" or with
# a loss verb, the loser ("lost", "fell", "were beaten by"). "winning streak", "losing skid"
# name no result of this game.
_VERB = re.compile(
    r"\b(?P<passive>(?:was|were|been|being|got|get|gets)\s+)?(?:"
    r"(?P<win>won|wins?|winning|beat|beats|beating|defeat(?:s|ed|ing)?|"
    r"top(?:s|ped|ping)|edg(?:e|es|ed|ing)|rout(?:s|ed|ing)?|"
    r"out[\s\-–]?scor(?:e|es|ed|ing)|outlast(?:s|ed|ing)?|dispatch(?:es|ed|ing)?|"
    r"held\s+off|holds?\s+off|holding\s+off|knock(?:s|ed|ing)?\s+off)"
    r"|(?P<loss>lost|loses?|losing|fell|falls?|falling|dropped|beaten|bowed\s+to|"
    r"succumbed\s+to)"
    r")\b(?![\s\-–]+(?:streak|skid|run|ways|record|season|effort)\b)",
    re.IGNORECASE)
_PREFILTER = ("won", "win", "beat", "defeat", "top", "edg", "rout", "scor", "outlast",
              "dispatch", "off", "los", "lost", "fell", "fall", "dropped", "bowed", "succumbed")
_BY = re.compile(r"\s+by\b", re.IGNORECASE)
_REACH = 240        # characters before a score in which its verb is looked for


@dataclasses.dataclass(frozen=True, slots=True)
class Score:
    """A pair a derived form stated: the figures' spans, and the derived names they fill."""
    start: int          # the first figure's start
    end: int            # the second figure's end
    high: str           # the derived figure of the higher value (``max(...)``)
    low: str


def score_pairs(binding: Binding) -> dict[tuple[str, str], tuple[str, str, tuple[str, ...]]]:
    """The pairs of derived figures that are the higher and the lower of one expression over an
    entity's rows: (high, low) -> (entity, field, more fields of the row added to it)."""
    aggregates: dict[str, Formula] = {d.name: d.formula for d in binding.derived
                                      if d.formula.op == "agg"
                                      and d.formula.function in ("max", "min")}
    pairs = {}
    for high, top in aggregates.items():
        for low, bottom in aggregates.items():
            if top.function == "max" and bottom.function == "min" and \
                    (top.entity, top.field, top.more) == (bottom.entity, bottom.field,
                                                          bottom.more):
                pairs[(high, low)] = (top.entity, top.field, top.more)
    return pairs


def winners(text: str, scores: Sequence[Score], binding: Binding,
            derived: Mapping[str, Decimal], sentences: list[int],
            subject_of: Callable[[str, int, int, int, int], tuple[str, Mapping] | None],
            row_value: Callable[[Mapping, str, tuple[str, ...]], Decimal | None],
            ) -> list[Finding]:
    """A finding for each score whose verb names as winner (or loser) a row whose own value is
    not the higher (lower) one. ``subject_of(entity, lo, at, verb_end, score)`` gives the row
    named as the subject of a verb at ``at``..``verb_end`` (the sentence starting at ``lo``)
    that governs the score at ``score``: its label and the row; ``row_value`` reads a row's value of a field plus ``more``."""
    if not scores:
        return []
    lowered = text.lower()
    if not any(word in lowered for word in _PREFILTER):
        return []
    pairs = score_pairs(binding)
    findings = []
    for score in scores:
        expression = pairs.get((score.high, score.low))
        high, low = derived.get(score.high), derived.get(score.low)
        if expression is None or high is None or low is None or high == low:
            continue
        lo = sentences[bisect.bisect_right(sentences, score.start) - 1]
        window = max(lo, score.start - _REACH)
        verb = None
        for verb in _VERB.finditer(text, window, score.start):
            pass
        if verb is None:
            continue
        entity, field, more = expression
        subject = subject_of(entity, lo, verb.start(), verb.end(), score.start)
        if subject is None:
            continue
        label, row = subject
        own = row_value(row, field, more)
        if own is None:
            continue
        # "were beaten", "was defeated by": the subject lost. "won by 4" is a margin.
        won = bool(verb.group("win")) and not verb.group("passive") and not (
            _BY.match(text, verb.end()) and not verb.group("win").lower().startswith("w"))
        wanted = high if won else low
        if own == wanted:
            continue
        said = text[score.start:score.end]
        result = "a win" if won else "a loss"
        findings.append(Finding(
            "number", said, said, score.start, score.end, "misattributed",
            f"{said} is stated as {result} for {label}, whose {_what(field, more)} is "
            f"{plain_decimal(own)} in the evidence, the {'lower' if won else 'higher'} of "
            f"{plain_decimal(high)} and {plain_decimal(low)}"))
    return findings


def _what(field: str, more: tuple[str, ...]) -> str:
    return " + ".join((field, *more))


# Before a figure, a word that makes it the highest of its field: "a team-high 6 rebounds" among
# the rows of the row's group (its field's ``ranks ... within``), "a game-high 18 points" among
# every located row of its entity. "season-high" and "career-high" speak of games the evidence
# does not hold, and are not read.
_LEADER = re.compile(r"\b(team|game)[\s\-–]high[\s\-–]+$", re.IGNORECASE)


@dataclasses.dataclass(frozen=True, slots=True)
class Led:
    """A figure bound to a row's field that "team-high" or "game-high" stands right before:
    ``start``..``end`` is that word, which the finding names (the figure is the row's own)."""
    start: int
    end: int
    text: str
    figure: str
    label: str              # the row, as a finding names it
    field: str
    scope: str              # "team" or "game"
    own: Decimal
    peers: tuple[tuple[str, Decimal], ...]      # (label, value) of the rows it must top


# "led all scorers with 14 points" (the game), "led the team with", "paced the Celtics with 29
# points" (the row's team): the figure right after "with" is the highest of its group. "led the
# bench", "led the reserves" name no team.
_LED = re.compile(r"\b(?:led|paced)\s+(?:(?P<all>all\s+[a-z]+)|(?:the|his|her|their)\s+team"
                  r"|the\s+(?!bench\b|reserves\b|second\b|starters\b)(?:[A-Z][\w.'’-]*\s+){1,3})"
                  r"\s*(?:in\s+[a-z]+\s+)?with\s+(?:an?\s+)?$")


def leader_scope(text: str, start: int) -> tuple[str, int, int] | None:
    """("team" or "game", the span of the words that say so) when "team-high" or "game-high"
    stands right before ``start``, or "led all scorers with", "led the team with", "paced the
    Celtics with"."""
    before = text[max(0, start - 16):start].lower()
    if "high" in before:
        found = _LEADER.search(text, max(0, start - 16), start)
        if found is not None:
            word = found.group(0).rstrip(" \t\n-–")
            return found.group(1).lower(), found.start(), found.start() + len(word)
    if "with" not in before:
        return None
    found = _LED.search(text, max(0, start - 60), start)
    if found is None:
        return None
    verb = found.group(0).split()[0]
    return ("game" if found.group("all") else "team"), found.start(), found.start() + len(verb)


def leaders(led: Sequence[Led]) -> list[Finding]:
    """A finding for each figure said as its team's or its game's highest that another row
    tops."""
    findings = []
    for item in led:
        best = max(led_value for _, led_value in item.peers) if item.peers else item.own
        if item.own >= best:
            continue
        top = next(label for label, value in item.peers if value == best)
        findings.append(Finding(
            "number", item.text, item.text, item.start, item.end, "misattributed",
            f"{item.text} is said of {item.label}'s {item.figure} {item.field}, but {top} has "
            f"{plain_decimal(best)} in the evidence"))
    return findings
