"""Binding: each figure in free text is checked against the cell it describes.

A wrong number in model output is usually a real number in the wrong place: player A's
rebounds stated as player B's assists, the price of one product stated for another. The sweep
asks only whether a value appears anywhere in the evidence, so it cannot see that. Binding asks
*whose* value and *which* field, using what the ruleset declares (docs/binding.md):

- ``entity player from evidence "$.players[*]"``: where the rows are;
- ``mentioned as PLAYER_NAME, SECOND_NAME`` and ``pronouns "he", "his"``: how text names a row;
- ``field PTS integer said as "points"``: the words that name a field;
- ``forms "{FGM}-of-{FGA}"``: compound forms that state several fields at once ("..." in a
  form: a few words of the same clause);
- ``ranks PTS within TEAM_NAME said as "{rank} on the team"``: a row's place among its group;
- ``derived margin = max(team.PTS) - min(team.PTS) said as "won by {margin}"``: figures code
  computes, allowed in their own right and checked where a form states them.

How a figure is bound, in order:

1. Compound forms are matched first, most specific (longest literal text) first. Each figure a
   form states is bound to that field of the nearest mentioned row (or to the derived figure,
   or to the row's place for a rank's form).
2. Any other figure is bound to a field when a field word follows it ("38 points", "18-point",
   "48 percent from the field") or ends right before it ("priced at $49", "$49"). "a steal"
   is a figure of 1 only inside a list of figures; "12 of their own" takes the field of the
   figure before it, for the sentence's subject. A date is bound to a date or timestamp field
   whose word ends right before it ("due on November 15, 2026"; ``_days``).
3. Its row is the nearest compatible mention in the same sentence: the nearest one before it,
   preferring a subject over the object of a preposition ("X led *the Celtics* with 38
   points" binds to X); else the nearest one after it; else, across sentences, a pronoun or a
   possessive before it in the sentence stands for the last row named before it, when that row
   is the only one of a pronoun-taking entity in its sentence (unambiguous); "the former" and
   "the latter" stand for the earlier and the later of the last two rows named.
4. A bound figure must equal the cell, under the field's type (money in minor units, a ratio
   shown as a percentage, a decimal's tolerance; a date the row's day in the field's zone). When it differs it is a ``misattributed``
   finding that names the true value, even if the value appears elsewhere in the evidence.
   A figure that is the cell rounded to its shown precision is left to the sweep, whose
   rounding rules judge it, unless another cell holds it exactly and rounding is not allowed
   for the field: "3 bathrooms" of a row with 2.5 is misattributed, not another row's 3. A cell holding a placeholder ("N/A") or a null backs no figure:
   a figure bound to it is ``misattributed``, whatever other cell holds its value (for a row
   with no number at all, one finding on its name: ``_not_played``).
5. A score a derived form states as a pair (``max``/``min`` of one expression) after a win or
   loss verb is held to who won (``rulekit.bind_results.winners``), and a right figure after
   "team-high" or "game-high" to its place among its group (``leaders``).

A figure that cannot be bound (no field word, no compatible mention, an ambiguous name) is left
to the value-only rules of the sweep. ``bind`` returns the spans it settled so the sweep skips
them.

Linear time (up to a log factor): names, pronouns, field words and forms are each one
compiled alternation run once over the text; each figure looks at a bounded window around it;
the spans forms and field words claim are a tree of prefix maxima (``_Spans``), and the
mentions of rows are sorted lists with precomputed links to the nearest subject, name and
repeated row (``_Lookup``, ``_Runs``), so nothing is tested against every span or mention
found before it.
"""

from __future__ import annotations

import bisect
import dataclasses
import functools
import re
from collections.abc import Mapping
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any, Sequence

from rulekit.bind_results import Led, Score, leader_scope, leaders, winners
from rulekit.evidence import (PLACEHOLDER_TEXTS, Evidence, RowRule, key_words, locate,
                              _ratio_reading, _trend_name)
from rulekit.numbers import plain_decimal
from rulekit.policy import Binding, BoundEntity, Formula, Policy, Rank
from rulekit.scan import Mention, scan
from rulekit.scan.base import _CJK_CHARS, NOT_AFTER_TITLE, _is_cjk
from rulekit.scan.tables import DELIMITER_ROW, cells_of, row_span
from rulekit.scan.figures import CHANGED_BEFORE, FALL_BEFORE, RISE_BEFORE, change_word_before
from rulekit.sweep import Finding, _trend_at, phrasal_up_down
from rulekit.sweep_minor import minor_unit_said
from rulekit.evidence import _minor_word
from rulekit.units import UNIT_OF, unit_said_after, unit_word

# Number words a compound form or an implicit figure may hold ("three-of-four", "a steal").
_WORD_VALUES = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty".split())}
_WORD_VALUES.update({"thirty": 30, "forty": 40, "fifty": 50})
_NUMBER = r"(\d+(?:[.,]\d+)?|" + "|".join(sorted(_WORD_VALUES, key=len, reverse=True)) + ")"
# A place in a rank's form: "second", "2nd".
_ORDINAL_VALUES = {w: i for i, w in enumerate(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split(),
    start=1)}
_ORDINAL = (r"(\d{1,2}(?:st|nd|rd|th)|" + "|".join(sorted(_ORDINAL_VALUES, key=len, reverse=True))
            + ")")
# Words that make the next field word a figure of 1 or 2: "a steal", "a pair of steals". The
# longer phrases come first, so "a pair of" is not read as "a" before "pair".
_IMPLICIT = re.compile(r"\b(?:a\s+pair\s+of|a\s+trio\s+of|an?|one)\s+", re.IGNORECASE)
_IMPLICIT_VALUES = {"a": 1, "an": 1, "one": 1, "a pair of": 2, "a trio of": 3}
# After "a"/"an" and a field word, a figure for it: "an engagement rate of 1.5%", "a rating: 4".
_FIGURE_AFTER = re.compile(r"[ \t\u00a0]*(?:(?:of|at|was|is|=|:)[ \t\u00a0]*)?[-+$€£¥]?\d")
# Words that may stand between a figure and its field word: "12 total rebounds",
# "38 season-high points". Not "of": "12 of his 20 points" is a part, not the points.
_FILLERS = re.compile(r"^(?:[\s\-–]*(?:total|combined|more|straight|[a-z]+-high|[a-z]+-best))*"
                      r"[\s\-–]*", re.IGNORECASE)
# Before a mention, a word that makes it the object of a preposition or verb: "led the
# Celtics with 38 points" is about who led, not the Celtics' points.
_OBJECT_BEFORE = re.compile(
    r"\b(?:for|against|over|to|past|of|with|on|at|in|led|paced|beat|defeated|topped|"
    r"versus|vs\.?)\s+(?:the\s+)?$", re.IGNORECASE)
# The first mark comes before the look-behinds ("not after an initial, St, Mr..."), which then
# include it: they are tried only where a sentence can end, not at every character. Chinese and
# Japanese end a sentence at 。！？ with no space after it; a sentence of a script without case
# (Korean: "품절입니다. 배송비는") starts with a letter of that script. In Markdown a heading and a
# table row start a sentence, and so does a list item ("- ", "* ", "+ ", "1. ", "1) ") after a
# line that ended one: "- The gnocchi collab got 301,771 views." is not about the post of the
# bullet above it. Items of bare figures ("- 2,380 views" with no full stop) stay one sentence
# with the row the line after them names ("Those are for ...").
_SENTENCE_END = re.compile(r"[.!?](?<!\b[A-Z].)" + NOT_AFTER_TITLE +
                           r"[.!?]*[\"”’)]*\s+(?=[\"“(]?[A-Z0-9" + _CJK_CHARS + "])"
                           r"|\n\s*\n|[。！？][」』）)]*\s*"
                           # a list item after a line that ended a sentence
                           r"|[.!?][.!?\"”’)*_]*[ \t]*\n[ \t]*(?=(?:[-*+]|\d{1,3}[.)])[ \t])"
                           # a heading or a table row, and the line after a heading
                           r"|\n[ \t]*(?=#{1,6}[ \t]|\|)|(?m:^#{1,6}[ \t][^\n]*\n)")
# Between two figures of one list: "18 points, six rebounds and a steal".
# A figure, then "... that also included" a figure: "a 10-point double-double that also included
# an assist".
_LIST_GAP = re.compile(r"[\s)]*(?:,\s*(?:and\s+|as well as\s+|plus\s+)?|and\s+|as well as\s+|"
                       r"plus\s+|along with\s+|[\w\s-]{0,40}\b(?:included|including)\s+)",
                       re.IGNORECASE)
# "..." in a form: a few words of the same clause, with no figure and no sentence end
# ("in the third quarter, ... {q3_high}-{q3_low}" reads "in the third quarter, out-scoring the
# Jazz 29-8").
_GAP = "..."
_EDGE = " \t\n()[],;:-–"
_GAP_PATTERN = r"[^\d.!?;:()\n]{0,40}?"
_FORMER_LATTER = re.compile(r"\bthe\s+(former|latter)\b", re.IGNORECASE)
# "12 of their own", "six of his own": a figure that takes the field of the figure before it.
_OWN = re.compile(r"\s+of\s+(?:their|his|her|its)\s+own\b", re.IGNORECASE)
_WINDOW = 60        # characters after a figure in which its field word must start
# The most characters other than white space and ")" a ``_LIST_GAP`` match can hold: 40 of a
# clause and "including". A gap holding more is no list gap, nor is any longer gap holding it
# (keep this in step with ``_LIST_GAP``).
_LIST_GAP_SOLID = 49


class _Spans:
    """Spans of text claimed so far. A few are tested one by one; past ``_FEW`` they are also
    a Fenwick tree of the furthest end of the spans starting at or before each offset, so that
    adding a span and asking whether one holds or overlaps a range take O(log n) however many
    spans were claimed before."""

    __slots__ = ("_spans", "_tree", "_size")
    _FEW = 16

    def __init__(self, length: int):
        self._spans: list[tuple[int, int]] = []
        self._tree: list[int] | None = None
        self._size = length + 1                     # offsets 0..length

    def add(self, start: int, end: int) -> None:
        if self._tree is None:
            self._spans.append((start, end))
            if len(self._spans) > self._FEW:
                self._tree = [-1] * (self._size + 1)
                for span in self._spans:
                    self._raise(*span)
            return
        self._raise(start, end)

    def _raise(self, start: int, end: int) -> None:
        tree, index = self._tree, start + 1
        while index <= self._size:
            if tree[index] >= end:
                return      # each node further up covers this one, so it reaches as far
            tree[index] = end
            index += index & -index

    def _reach(self, last: int) -> int:
        """The furthest end of the spans that start at or before ``last``; -1 when none does."""
        tree, index, best = self._tree, min(last, self._size - 1) + 1, -1
        while index > 0:
            if tree[index] > best:
                best = tree[index]
            index -= index & -index
        return best

    def covers(self, start: int, end: int) -> bool:
        """Whether one span holds ``start``..``end``: ``a <= start and end <= b``."""
        if self._tree is None:
            return any(a <= start and end <= b for a, b in self._spans)
        return self._reach(start) >= end

    def overlaps(self, start: int, end: int) -> bool:
        """Whether one span overlaps ``start``..``end``: ``a < end and start < b``."""
        if self._tree is None:
            return any(a < end and start < b for a, b in self._spans)
        return self._reach(end - 1) > start


@dataclasses.dataclass(frozen=True, slots=True)
class Bound:
    """One figure bound to a cell: ``entity``/``row`` (its name in text) and ``field``, or a
    derived figure (``entity`` None). ``truth`` is the cell's value, None for a placeholder."""
    start: int
    end: int
    text: str
    value: Decimal
    entity: str | None
    row: str
    field: str
    truth: Decimal | None
    verdict: str            # "ok", "misattributed"; "rounded", "currency" (left to the sweep)
    shown: str = ""         # the true value as text shows it: money in major units
    named: tuple[int, int] | None = None    # a placeholder cell: where its row is named


@dataclasses.dataclass(frozen=True)
class BindResult:
    bound: tuple[Bound, ...]
    findings: tuple[Finding, ...]
    settled: frozenset[tuple[int, int]]     # spans the sweep must not judge again


EMPTY = BindResult((), (), frozenset())


# --- the rows ---------------------------------------------------------------------------------

def _number(raw: Any) -> Decimal | None:
    if isinstance(raw, bool) or raw is None:
        return None
    if isinstance(raw, str) and raw.strip().casefold() in PLACEHOLDER_TEXTS:
        return None
    try:
        value = Decimal(str(raw).strip())
    except InvalidOperation:
        return None
    return value if value.is_finite() else None


def derived_values(binding: Binding, evidence: Any) -> dict[str, Decimal]:
    """Every derived figure computable from ``evidence``, by name. A formula over no rows, a
    placeholder or a division by zero leaves its figure out."""
    rows = {e.name: [r for p in e.paths for r in locate(evidence, p)] for e in binding.entities}
    formulas = {d.name: d.formula for d in binding.derived}
    values: dict[str, Decimal] = {}

    def evaluate(formula: Formula) -> Decimal | None:
        if formula.op == "const":
            return Decimal(formula.value)
        if formula.op == "ref":
            if formula.name not in values:
                result = evaluate(formulas[formula.name])
                if result is None:
                    return None
                values[formula.name] = result
            return values[formula.name]
        if formula.op == "agg":
            cells = [_row_sum(r, (formula.field, *formula.more)) if formula.more
                     else r.get(formula.field) for r in rows.get(formula.entity, ())]
            if formula.function == "count":
                return Decimal(sum(1 for c in cells if c is not None))
            numbers = [n for c in cells if (n := _number(c)) is not None]
            if not numbers:
                return None
            return {"max": max, "min": min, "sum": sum,
                    "mean": lambda xs: sum(xs) / len(xs)}[formula.function](numbers)
        left, right = evaluate(formula.left), evaluate(formula.right)
        if left is None or right is None or (formula.op == "/" and right == 0):
            return None
        return {"+": left + right, "-": left - right, "*": left * right,
                "/": left / right if right else None}[formula.op]

    for name, formula in formulas.items():
        if name not in values and (result := evaluate(formula)) is not None:
            values[name] = result.normalize() if result == result.to_integral_value() \
                else result
    return values


def _row_sum(row: Mapping, fields: Sequence[str]) -> Decimal | None:
    """The fields of one row added up (a team's first half: its first two quarters); None when
    any of them is missing or a placeholder."""
    numbers = [_number(row.get(field)) for field in fields]
    return None if any(n is None for n in numbers) else sum(numbers, Decimal(0))


DERIVED_KEY = "rulekit_derived"


# --- what the ruleset declares, compiled once per policy ----------------------------------------

@dataclasses.dataclass(frozen=True)
class _Form:
    regex: re.Pattern
    slots: tuple[str, ...]
    entity: str | None              # None: the slots are derived figures
    weight: int                     # literal characters: more specific forms are tried first
    rank: Rank | None = None        # a rank's form: its one slot is a place ("second")
    literals: tuple[str, ...] = ()  # ASCII words every match holds, lower-cased (a pre-test)


@dataclasses.dataclass(frozen=True)
class _Vocabulary:
    words: re.Pattern | None        # every field word, longest first, anchored where used
    owners: Mapping[str, tuple[tuple[str, str], ...]]   # folded word -> ((entity, field), ...)
    ordered: tuple[str, ...]        # the words in the order of the groups of ``words``
    before: re.Pattern | None       # a field word ending right before a figure
    forms: tuple[_Form, ...]
    pronouns: re.Pattern | None
    pronoun_entities: Mapping[str, frozenset[str]]
    # The words of date and timestamp fields ("due on"), ending right before a date: group
    # ``d<i>`` is ``days_ordered[i]``; None when no such field has words.
    days: re.Pattern | None = None
    days_ordered: tuple[str, ...] = ()
    day_owners: Mapping[str, tuple[tuple[str, str], ...]] = dataclasses.field(
        default_factory=dict)
    # Those of them in Chinese, Japanese or Korean, which follow the date they name (12月3日送达,
    # 12月3日(木)にお届け, 12월 3일 도착), matched right after it: group ``d<i>`` as in ``days``.
    days_after: re.Pattern | None = None
    # Every word of ``owners`` as one alternative, in its order (group i + 1 is word i), and
    # the owners of each in that order: what a field word names (``_owners_named``).
    owner_words: re.Pattern | None = None
    owner_pairs: tuple[tuple[tuple[str, str], ...], ...] = ()
    # The unit of measure a field word names ("sq ft": "square-foot", ``rulekit.units``) and
    # the fields so named, one a entity: a figure in another notation of that unit ("1,850
    # ft²", "2,400-square-foot") is theirs, read as the sweep reads units.
    units: Mapping[str, tuple[tuple[str, str], ...]] = dataclasses.field(default_factory=dict)


def _word_pattern(word: str) -> str:
    """A field word as a pattern: flexible white space and hyphens, an optional plural 's'
    ("points" also reads "18-point")."""
    parts = [re.escape(p) for p in re.split(r"[\s\-–]+", word.strip()) if p]
    if parts and parts[-1].endswith("s") and len(parts[-1]) > 2 and parts[-1][-2] != "s":
        parts[-1] = parts[-1][:-1] + "s?"
    return r"[\s\-–]*".join(parts)


def _form_regex(form: str, slot: str = _NUMBER,
                ) -> tuple[re.Pattern, tuple[str, ...], int, tuple[str, ...]]:
    """The form's pattern, its slots, its weight, and the ASCII words of its literal text,
    lower-cased: each is in every match, so a text without one of them cannot match."""
    slots, pieces, weight, literals = [], [], 0, []
    for index, piece in enumerate(re.split(r"\{([A-Za-z_][A-Za-z0-9_]*)\}", form)):
        if index % 2:
            slots.append(piece)
            pieces.append(slot)
        elif piece:
            weight += len(piece.replace(_GAP, "").strip())
            parts = []
            for part in piece.split(_GAP):
                plain = [p for p in re.split(r"[\s\-–]+", part) if p]
                literals += [p.lower() for p in plain if p.isascii()]
                words = [re.escape(p) for p in plain]
                joined = r"[\s\-–]*".join(words)
                lead = r"[\s\-–]*" if part[:1] in " -–" else ""
                tail = r"[\s\-–]*" if part[-1:] in " -–" else ""
                parts.append(lead + joined + tail if words else r"[\s\-–]+" if part else "")
            pieces.append(_GAP_PATTERN.join(parts))
    pattern = "".join(pieces)
    if form[:1].isalnum() or form[:1] == "{":
        pattern = r"(?<![\w.,])" + pattern
    if form[-1:].isalnum() or form[-1:] == "}":
        pattern += r"(?![\w]|[.,]\d)"
    return re.compile(pattern, re.IGNORECASE), tuple(slots), weight, tuple(literals)


# The vocabulary of each binding object seen lately, by identity: a frozen model hashes all its
# declarations on every look-up, which costs more than binding a short answer.
_BY_IDENTITY: dict[int, tuple[Binding, Policy | None, _Vocabulary]] = {}
# "respectively" after a date, before its sentence ends: the days go with the rows in order,
# not with the nearest row named (``_days`` leaves them to the sweep).
_RESPECTIVELY = re.compile(r"[^.!?\n]{0,160}?\brespectively\b", re.IGNORECASE)


def _respectively_after(text: str, end: int) -> bool:
    """Whether "respectively" follows ``end`` within its sentence (160 characters at most)."""
    return "espectively" in text and _RESPECTIVELY.match(text, end) is not None
# Between a field word and the figure after it, a particle of Japanese, Korean or Chinese:
# 価格は1,980円, 가격은 19,900원, 售价为199元.
_PARTICLE = "(?:は|が|の|も|은|는|이|가|의|도|为|為|是)?"
# Between a field word and the figure after it, a copula or "of": "an available balance of
# $1,240.55", "your purchase APR is 19.99%", and those of German, French, Spanish, Italian,
# Portuguese and Dutch: "Die Warmmiete beträgt 1.495 €", "liegt bei", "Le loyer est de 875 €",
# "s'élève à", "La fianza asciende a", "è di", "ammonta a", "é de", "De huur bedraagt".
_LINK_GAP = r"[ \t\u00a0]+"
_LINK = (rf"(?:{_LINK_GAP}(?:of|is|was|are|were|remains|stands{_LINK_GAP}at"
         rf"|beträgt|betragen|ist|sind|war|(?:liegt|liegen){_LINK_GAP}bei|kostet|kosten"
         rf"|(?:beläuft|belaufen){_LINK_GAP}sich{_LINK_GAP}auf"
         rf"|(?:est|sont|était)(?:{_LINK_GAP}de)?|s['’](?:élève|élèvent){_LINK_GAP}à|coûtent|coûte"
         rf"|se{_LINK_GAP}monte{_LINK_GAP}à"
         rf"|(?:es|son|era)(?:{_LINK_GAP}de)?|(?:asciende|ascienden){_LINK_GAP}a|cuesta|cuestan"
         rf"|(?:è|sono|era)(?:{_LINK_GAP}di)?|(?:ammonta|ammontano){_LINK_GAP}a|costa|costano"
         rf"|(?:é|são|era)(?:{_LINK_GAP}de)?|custa|custam"
         rf"|bedraagt|bedragen|kost)(?![\w]))?")
# Fields whose words name a day: a date after them is bound (``_days``), never a number.
_DATED = ("date", "timestamp")


def _vocabulary(binding: Binding, policy: Policy | None = None) -> _Vocabulary:
    """The compiled vocabulary of ``binding``; ``policy`` says which fields are dates (without
    it, every field word names a number)."""
    found = _BY_IDENTITY.get(id(binding))
    if found is not None and found[0] is binding and found[1] is policy:
        return found[2]
    dated = frozenset((entity.name, field) for entity in binding.entities
                      for _, field in entity.words
                      if policy is not None and (spec := policy.entity(entity.name)) is not None
                      and (decl := spec.field(field)) is not None
                      and decl.type.kind in _DATED)
    percent = frozenset((entity.name, field) for entity in binding.entities
                        for _, field in entity.words
                        if policy is not None and (spec := policy.entity(entity.name)) is not None
                        and (decl := spec.field(field)) is not None
                        and decl.type.kind == "decimal" and (
                            getattr(decl.type, "percent", False) or getattr(decl.type, "ratio", False)))
    vocabulary = _compiled_vocabulary(binding, dated, percent)  # equal bindings share one
    if len(_BY_IDENTITY) >= 64:
        _BY_IDENTITY.clear()
    _BY_IDENTITY[id(binding)] = (binding, policy, vocabulary)   # holding it: its id stays
    return vocabulary


@functools.lru_cache(maxsize=64)
def _compiled_vocabulary(binding: Binding, dated: frozenset[tuple[str, str]] = frozenset(),
                         percent: frozenset[tuple[str, str]] = frozenset()) -> _Vocabulary:
    owners: dict[str, list[tuple[str, str]]] = {}
    day_owners: dict[str, list[tuple[str, str]]] = {}
    for entity in binding.entities:
        for word, field in entity.words:
            into = day_owners if (entity.name, field) in dated else owners
            into.setdefault(word, []).append((entity.name, field))
            if (entity.name, field) in percent and not word.casefold().startswith("percent"):
                # a percentage reads "29.24 percent APR" (``_word_after``): the word of a
                # percent field names it after one, as "percent APR"
                owners.setdefault(f"percent {word}", []).append((entity.name, field))
    ordered = sorted(owners, key=len, reverse=True)
    words = re.compile("|".join(f"(?P<w{i}>{_word_pattern(w)})" for i, w in enumerate(ordered)),
                       re.IGNORECASE) if ordered else None
    before = re.compile("(?P<word>" + "|".join(_word_pattern(w) for w in ordered) + ")"
                        + _PARTICLE + _LINK + r"[\s:]*(?:[*_]{1,2}[\s:]*)?$", re.IGNORECASE) \
        if ordered else None
    forms = []
    for entity in binding.entities:
        for form in entity.forms:
            regex, slots, weight, literals = _form_regex(form)
            forms.append(_Form(regex, slots, entity.name, weight, literals=literals))
        for rank in entity.ranks:
            for form in rank.forms:
                regex, slots, weight, literals = _form_regex(form, _ORDINAL)
                forms.append(_Form(regex, slots, entity.name, weight, rank, literals))
    for derived in binding.derived:
        for form in derived.said:
            regex, slots, weight, literals = _form_regex(form)
            forms.append(_Form(regex, slots, None, weight, literals=literals))
    forms.sort(key=lambda f: (-f.weight, -len(f.slots)))
    pronoun_entities: dict[str, set[str]] = {}
    for entity in binding.entities:
        for word in entity.pronouns:
            pronoun_entities.setdefault(word, set()).add(entity.name)
    pronouns = re.compile(r"\b(?:" + "|".join(re.escape(p) for p in sorted(
        pronoun_entities, key=len, reverse=True)) + r")\b", re.IGNORECASE) \
        if pronoun_entities else None
    days_ordered = sorted(day_owners, key=len, reverse=True)
    days = re.compile("(?:" + "|".join(f"(?P<d{i}>{_word_pattern(w)})" for i, w in enumerate(
        days_ordered)) + r")[\s:]*$", re.IGNORECASE) if days_ordered else None
    after = [f"(?P<d{i}>{_word_pattern(w)})" for i, w in enumerate(days_ordered)
             if _is_cjk(w.strip()[:1])]
    days_after = re.compile(_DAY_WORD_GAP + "(?:" + "|".join(after) + ")") if after else None
    units: dict[str, set[tuple[str, str]]] = {}
    for word, pairs in owners.items():
        if (unit := UNIT_OF.get(word.casefold())) is not None:
            units.setdefault(unit, set()).update(pairs)
    units = {unit: pairs for unit, pairs in units.items()     # a unit of two fields names none
             if len({entity for entity, _ in pairs}) == len(pairs)}
    return _Vocabulary(words, {w: tuple(o) for w, o in owners.items()}, tuple(ordered), before,
                       tuple(forms),
                       pronouns, {k: frozenset(v) for k, v in pronoun_entities.items()},
                       days, tuple(days_ordered), {w: tuple(o) for w, o in day_owners.items()},
                       days_after, re.compile("|".join(f"({_word_pattern(w)})" for w in owners),
                                              re.IGNORECASE) if owners else None,
                       tuple(tuple(o) for o in owners.values()),
                       {unit: tuple(sorted(pairs)) for unit, pairs in units.items()})


# Between a date and a CJK word after it: its weekday in brackets ("(木)", "（周四）") and a
# particle ("に", "에").
_DAY_WORD_GAP = r"[ \t\u00a0]*(?:[(（][^()（）\n]{1,6}[)）])?[ \t\u00a0]*(?:に|에)?[ \t\u00a0]*"


def _owners_of(vocabulary: _Vocabulary, match: re.Match) -> tuple[tuple[str, str], ...]:
    return vocabulary.owners[vocabulary.ordered[int(match.lastgroup[1:])]]


# --- mentions of rows in the text ---------------------------------------------------------------

@dataclasses.dataclass(frozen=True, slots=True)
class _Named:
    start: int
    end: int
    entity: str
    row: int | None         # None: the name fits several rows (ambiguous)
    label: str
    pronoun: bool = False
    object: bool = False    # the object of a preposition or verb


# A name is a whole word; underscore emphasis around it is its edge, as asterisks are
# ("_60-second shelf hack_", "__Threads__"), not the inside of a snake_case word.
_NAME_BEFORE = r"(?:(?<![\w-])|(?<=_)(?<![^\W_]_)(?<![^\W_]__))"
_NAME_AFTER = r"(?:(?![\w-])|(?=__?(?!\w)))"
_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


class _Rows:
    """The located rows of every bound entity and the names that point at them."""

    def __init__(self, binding: Binding, evidence: Any):
        self.entities = {e.name: e for e in binding.entities}
        self.rows: dict[str, list[Mapping]] = {
            e.name: [r for p in e.paths for r in locate(evidence, p)] for e in binding.entities}
        names: dict[str, set[tuple[str, int]]] = {}
        for entity in binding.entities:
            rows = self.rows[entity.name]
            for index, row in enumerate(rows):
                for field in entity.mentions:
                    value = row.get(field)
                    if isinstance(value, str) and value.strip() and \
                            value.strip().casefold() not in PLACEHOLDER_TEXTS:
                        names.setdefault(value.strip(), set()).add((entity.name, index))
                if len(rows) == 1:
                    for alias in entity.aliases:
                        names.setdefault(alias, set()).add((entity.name, index))
        self.names = names
        # A row named by a day (``mentioned as date``: a nightly rate keyed by its night) is
        # named by that day however the text writes it ("13 December", "Sunday, 13 December",
        # "13. Dezember", read by the scanner): its ISO name by the day, and by the month and
        # day when no other year's day has them (None: ambiguous).
        self.days: dict[str, str | None] = {}
        for name in names:
            if _ISO_DAY.fullmatch(name):
                self.days[name] = name
                month_day = "--" + name[5:]
                self.days[month_day] = name if self.days.get(month_day, name) == name else None
        self.labels = {(e.name, i): self._label(e, row) for e in binding.entities
                       for i, row in enumerate(self.rows[e.name])}
        single = [n for n in names if " " not in n]
        multi = [n for n in names if " " in n]
        alternation = lambda items: "|".join(re.escape(n) for n in sorted(items, key=len, reverse=True))  # noqa: E731
        self._single = alternation(single) if single else None
        self._multi = alternation(multi) if multi else None
        self.single = re.compile(rf"{_NAME_BEFORE}(?:{self._single}){_NAME_AFTER}") \
            if single else None
        self.multi = re.compile(rf"{_NAME_BEFORE}(?:{self._multi}){_NAME_AFTER}",
                                re.IGNORECASE) if multi else None
        self.folded = {n.casefold(): n for n in multi}

    def _patterns(self, text: str) -> tuple[tuple[re.Pattern | None, bool], ...]:
        """The name patterns for ``text``. Chinese, Japanese and Korean write no spaces: a name
        there is followed by a particle or glued to the next word (トートバッグは, 保温杯售价,
        텀블러는, "ワイヤレスイヤホン X1の"), so in a text that is not ASCII a CJK character on
        either side is an edge of a name too. An ASCII text keeps the strict patterns."""
        if text.isascii():
            return (self.multi, True), (self.single, False)
        edge_before = rf"(?:{_NAME_BEFORE}|(?<=[{_CJK_CHARS}]))"
        edge_after = rf"(?:{_NAME_AFTER}|(?=[{_CJK_CHARS}]))"
        single = re.compile(rf"{edge_before}(?:{self._single}){edge_after}") \
            if self._single else None
        multi = re.compile(rf"{edge_before}(?:{self._multi}){edge_after}", re.IGNORECASE) \
            if self._multi else None
        return (multi, True), (single, False)

    @staticmethod
    def _label(entity: BoundEntity, row: Mapping) -> str:
        for field in entity.mentions:
            if isinstance(row.get(field), str):
                return row[field]
        return entity.name

    def find(self, text: str, mentions: Sequence[Mention] = ()) -> list[_Named]:
        hits: list[tuple[int, int, str]] = []
        for regex, fold in self._patterns(text):
            if regex is None:
                continue
            for match in regex.finditer(text):
                name = self.folded.get(match.group(0).casefold()) if fold else match.group(0)
                if name:
                    hits.append((match.start(), match.end(), name))
        if self.days:
            # a day the text writes that names a row (``days``)
            hits += [(m.start, m.end, name) for m in mentions if m.kind == "date"
                     and (name := self.days.get(m.normalized or ""))]
        hits.sort(key=lambda h: (h[0], -(h[1] - h[0])))
        found: list[_Named] = []
        covered = -1
        for start, end, name in hits:
            if start < covered:
                continue
            covered = end
            owners = self.names[name]
            entity = next(iter(owners))[0]
            same = {o for o in owners if o[0] == entity}
            row = next(iter(same))[1] if len(owners) == 1 else None
            label = self.labels.get((entity, row), name) if row is not None else name
            is_object = bool(_OBJECT_BEFORE.search(text[max(0, start - 20):start]))
            found.append(_Named(start, end, entity, row, label, object=is_object))
        return found

    def cell(self, entity: str, row: int, field: str) -> Any:
        return self.rows[entity][row].get(field)

    def place(self, entity: str, row: int, rank: Rank, stated: Decimal) -> Decimal | None:
        """The row's place by ``rank.field`` among the rows sharing its ``rank.within`` value:
        1 + the rows above it. Rows tied with it share its places, so the stated one counts
        when it falls among them. None when the row has no figure or no group."""
        rows = self.rows[entity]
        own, group = _number(rows[row].get(rank.field)), rows[row].get(rank.within)
        if own is None or group is None or (isinstance(group, str) and
                                            group.strip().casefold() in PLACEHOLDER_TEXTS):
            return None
        peers = [n for r in rows if r.get(rank.within) == group
                 and (n := _number(r.get(rank.field))) is not None]
        above = sum(1 for n in peers if n > own)
        tied = sum(1 for n in peers if n == own)
        return stated if above < stated <= above + tied else Decimal(above + 1)


# --- binding ----------------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True, slots=True)
class _Figure:
    start: int
    end: int
    text: str
    value: Decimal
    fields: tuple[tuple[str | None, str], ...]   # (entity, field); entity None: derived
    shown_decimals: int = 0
    scale: int = 1
    anchor: int = -1            # where its form starts: "the Lakers (17-36)" is one phrase
    reach: int = -1             # where its field word or form ends
    implicit: bool = False      # "a steal": no figure written, only an article
    subject: bool = False       # "12 of their own": the sentence's subject's figure
    minor: bool = False         # said in a currency's minor unit ("24.5p", "14.2¢": ``_in_minor``)
    rank: Rank | None = None    # a place ("second on the team"), not a cell
    sign: bool = False          # bound by its currency sign alone ("$49", "1,980円")
    named: "_Named | None" = None   # the row named between it and its word ("42 of X in stock")
    currency: str | None = None     # the currency its sign or code names ("€0.40": EUR)
    percent: bool = False           # written as a percentage ("4.84%")
    # the fields its currency sign names (``said as "$"``) of entities its word does not name:
    # bound by the sign when its sentence names no row of the word's ("Your deductible is $420")
    fallback: tuple[tuple[str, str], ...] = ()


def bind(text: str, evidence: Any, policy: Policy | None, *, locale: str = "en_US",
         mentions: Sequence[Mention] | None = None, index: Evidence | None = None) -> BindResult:
    """Bind the figures of ``text`` to the cells of ``evidence`` they describe (see the module
    docstring). Pure: reads its arguments only. Without binding declarations, or when the
    evidence is not a JSON object, nothing is bound.

    With ``index`` (the sweep's index of the same evidence), a wrong figure is
    ``misattributed`` only when it is a real figure of the evidence, as the outcome means ("a
    figure is real, but belongs to another entity or field"); a value the evidence does not
    hold at all is left to the sweep, whose findings say why (unsupported, a name's digits,
    a placeholder...). A figure bound to a cell the index withholds (a hidden field, or one
    past its freshness budget) is left to the sweep too, whose finding names the reason."""
    if policy is None or not policy.binding.active or not isinstance(evidence, Mapping):
        return EMPTY
    withheld = index.row_rules if index is not None else {}
    binding = policy.binding
    vocabulary = _vocabulary(binding, policy)
    rows = _Rows(binding, evidence)
    # An index carries the derived figures it computed while indexing (``rulekit_derived``).
    derived = evidence[DERIVED_KEY] if index is not None and isinstance(
        evidence.get(DERIVED_KEY), Mapping) else derived_values(binding, evidence)
    every = mentions if mentions is not None else scan(text, locale)
    scanned = [m for m in every      # in text order, as ``scan`` returns them
               if m.kind in ("number", "word_number") and m.value is not None and not m.quoted]
    sentences = _sentences(text)
    named = rows.find(text, every)
    named += _pronouns(text, vocabulary, named, sentences)
    named.sort(key=lambda n: n.start)
    lookup = _Lookup(named, rows)

    settled: set[tuple[int, int]] = set()
    claimed = _Spans(len(text))         # text covered by forms and field words
    figures: list[_Figure] = []

    # 1. compound forms
    # A case-insensitive pattern with a look-behind first is tried at every position of the
    # text, once per form; a ruleset may declare a hundred forms. A form whose literal words are
    # not all in the text, lower-cased as the patterns read it, cannot match, and is skipped
    # for a few substring tests.
    lowered = _lowered(text)
    scores: list[Score] = []        # pairs of derived figures a form stated ("102-98")
    for form in vocabulary.forms:
        if lowered is not None and not all(word in lowered for word in form.literals):
            continue
        for match in form.regex.finditer(text):
            # A sign at a form's edge may be shared: ") 111-100" after "(7-10)".
            core = match.group(0)
            lo = match.start() + len(core) - len(core.lstrip(_EDGE))
            hi = match.end() - len(core) + len(core.rstrip(_EDGE))
            if claimed.overlaps(lo, hi):
                continue
            claimed.add(match.start(), match.end())
            if form.entity is None and len(form.slots) > 1:
                scores += [Score(match.start(i), match.end(i + 1), high, low)
                           for i, (high, low) in enumerate(zip(form.slots, form.slots[1:]),
                                                           start=1)]
            for group, slot in enumerate(form.slots, start=1):
                raw = match.group(group)
                value = _read(raw) if form.rank is None else _place(raw)
                if value is None:
                    continue
                fields = ((form.entity, slot if form.rank is None else form.rank.field),)
                figures.append(_Figure(match.start(group), match.end(group), raw, value,
                                       fields, anchor=match.start(), reach=match.end(),
                                       rank=form.rank))
    # 2. the cells of a Markdown table: the row its name cell names, the field its header names
    # (its figures are not claimed text: one rounded, "12k", is still the sweep's to judge)
    tabled: set[int] = set()
    if "|" in text and vocabulary.words is not None:
        cells = _table_cells(text, vocabulary, named, scanned, claimed)
        tabled = {f.start for f in cells}
        figures += cells
    # 3. figures with a field word after or before them, or after the name of their row
    names_from: dict[int, _Named] | None = None     # built when a figure needs it
    names_to: dict[int, _Named] | None = None
    for mention in scanned:
        if mention.start in tabled:
            continue
        if claimed.covers(mention.start, mention.end):
            settled.add((mention.start, mention.end))
            continue
        fields, span, sign, fallback = _field_words(text, mention, vocabulary)
        own_row = None
        if not fields and vocabulary.words is not None:
            if names_from is None:
                names_from = {n.start: n for n in named if not n.pronoun}
            found = _name_then_word(text, mention, vocabulary, names_from)
            if found is not None:
                fields, span, own_row = found
            elif mention.start > 8:
                if names_to is None:
                    names_to = {n.end: n for n in named if not n.pronoun}
                found = _word_then_name(text, mention, vocabulary, names_to)
                if found is not None:
                    fields, own_row = found
        if not fields:
            continue
        if span is not None:
            claimed.add(*span)
            if span[0] < mention.end and own_row is None:
                # "2× Spicy Diavola": the count's mark is its word, the name after it its row
                if names_from is None:
                    names_from = {n.start: n for n in named if not n.pronoun}
                gap = _OF_NAME.match(text, mention.end)
                after = names_from.get(gap.end()) if gap is not None else None
                if after is not None and any(e == after.entity for e, _ in fields):
                    own_row = after
        if _said_as_change(text, mention):
            # "rose 18.21 points" names a change field: held to its cell; "gained 1,326
            # followers" names the level: held to the row's change of it, or left to the sweep
            fields = _change_fields(fields, vocabulary, policy)
            if not fields:
                continue
        figures.append(_Figure(mention.start, mention.end, mention.text, mention.value, fields,
                               mention.decimals, mention.scale,
                               reach=max(span[1], mention.end) if span is not None
                               else mention.end, sign=sign,
                               named=own_row, currency=mention.currency,
                               percent=mention.percent, fallback=fallback))
    figures = _in_lists(text, figures + _implicit(text, vocabulary, claimed, scanned))
    figures += _own(text, scanned, figures, claimed, sentences)
    unread = ()             # figures the scanner does not read: the sweep cannot judge them
    if vocabulary.words is not None and ("alf" in text or "uarter" in text):
        unread = _hyphened_fractions(text, vocabulary, claimed)
        figures += unread
    # Words inside a field word ("three" of "percent from three") are not figures.
    for mention in scanned:
        if claimed.covers(mention.start, mention.end):
            settled.add((mention.start, mention.end))

    # Digits inside a name ("the BT-3 costs") are the name's, never a figure.
    names_at = _Spans(len(text))
    for n in named:
        if not n.pronoun:
            names_at.add(n.start, n.end)
    figures = [f for f in figures if not names_at.covers(f.start, f.end)]
    if "#" in text:     # "### 60-second shelf hack" over "- **Views:** 198,450"
        figures = _under_headings(text, figures, named, lookup, sentences)
    figures = _in_minor(text, figures)
    bound: list[Bound] = []
    judged = [(f, _judge(f, rows, derived, lookup, sentences, text, policy, withheld))
              for f in sorted(figures, key=lambda f: f.start)]
    for figure, result in judged:
        if result is not None and result.verdict == "ok" \
                and _against_trend(text, figure, result, index):
            result = None       # "fell 18.21 points" of a rise: the sweep's direction rule judges it
        if result is not None and result.verdict == _OTHER_AMOUNT:
            result = None if _price_beside(result, judged, sentences) \
                else dataclasses.replace(result, verdict="misattributed")
        if result is None:
            settled.discard((figure.start, figure.end))
            continue
        if result.verdict == "rounded" and index is not None and _real(result, index) \
                and not _rounding_allowed(policy, result.entity, result.field):
            # 3 bathrooms of a row holding 2.5: the sweep would take the 3 another row holds
            result = dataclasses.replace(result, verdict="misattributed")
        if result.verdict == "misattributed" and index is not None and not _real(result, index) \
                and not (figure.minor and _real_minor(figure.value, index)) and figure not in unread:
            settled.discard((figure.start, figure.end))
            continue        # not a value of the evidence at all: the sweep's finding says why
        bound.append(result)
        if result.verdict not in _LEFT:
            settled.add((figure.start, figure.end))
    findings = [_finding(b) for b in bound if b.verdict == "misattributed"
                and not _did_not_play(b, rows)]
    findings += _not_played(text, [b for b in bound if b.verdict == "misattributed"
                                   and _did_not_play(b, rows)])
    if "high" in text or "led " in text or "paced " in text:
        findings += leaders(_led(text, bound, rows))
    # Who won is asked only of a score whose figures are right: a wrong one is named already.
    right = [b for b in bound if b.verdict == "ok" and b.entity is None]
    starts, ends = {b.start for b in right}, {b.end for b in right}
    scores = [s for s in scores if s.start in starts and s.end in ends]
    findings += winners(text, scores, binding, derived, sentences,
                        functools.partial(_subject_of, lookup, rows, text), _row_value)
    findings += _links(every, rows, lookup, sentences, len(text), policy, withheld, settled)
    if vocabulary.days is not None:
        findings += _days(text, every, vocabulary, rows, lookup, sentences, policy, withheld,
                          settled, claimed, index)
    return BindResult(tuple(bound), tuple(findings), frozenset(settled))


def _did_not_play(bound: Bound, rows: "_Rows") -> bool:
    """Whether ``bound`` is a figure stated for a row none of whose numeric fields holds a
    number ("N/A" in every cell: a player who did not play)."""
    if bound.named is None or bound.truth is not None or bound.entity is None:
        return False
    table = rows.rows[bound.entity]
    where = [i for i, _ in enumerate(table) if rows.labels.get((bound.entity, i)) == bound.row]
    return len(where) == 1 and all(_number(v) is None for v in table[where[0]].values())


def _not_played(text: str, bound: list[Bound]) -> list[Finding]:
    """One finding per mention of a row that holds no figure at all, naming the figures stated
    for it: "Tarik Black had 22 points and 10 rebounds" when Black did not play is one wrong
    fact, the name or the line, not two wrong numbers."""
    by_name: dict[tuple[int, int], list[Bound]] = {}
    for item in bound:
        by_name.setdefault(item.named, []).append(item)
    findings = []
    for (start, end), items in sorted(by_name.items()):
        stated = ", ".join(f"{b.text} {b.field}" for b in items)
        label = items[0].row
        findings.append(Finding(
            "number", text[start:end], None, start, end, "misattributed",
            f"{text[start:end]} is stated with {stated}, but the evidence records no figure "
            f"for {label} (a placeholder such as N/A in every field: did not play)"))
    return findings


def _led(text: str, bound: Sequence[Bound], rows: "_Rows") -> list[Led]:
    """The right figures of rows said as their team's or game's highest ("a team-high 6
    rebounds"), with the rows they must top: those sharing the row's value of the field its
    ``ranks`` groups by, or, for "game-high", every row of its entity. A field with no ``ranks``
    says no team; a row named by a label that fits several rows, or one that is no number,
    is not read."""
    led = []
    for item in bound:
        if item.entity is None or item.verdict != "ok":
            continue
        said = leader_scope(text, item.start)
        if said is None:
            continue
        scope, start, end = said
        entity, table = rows.entities[item.entity], rows.rows[item.entity]
        where = [i for i, _ in enumerate(table) if rows.labels.get((item.entity, i)) == item.row]
        if len(where) != 1:
            continue
        row = table[where[0]]
        if scope == "team":
            rank = next((r for r in entity.ranks if r.field == item.field), None)
            if rank is None or _not_recorded(row, rank.within) or rank.within not in row:
                continue
            group = [(i, r) for i, r in enumerate(table) if r.get(rank.within) == row[rank.within]]
        else:
            group = list(enumerate(table))
        peers = tuple((rows.labels[(item.entity, i)], n) for i, r in group
                      if i != where[0] and (n := _number(r.get(item.field))) is not None)
        led.append(Led(start, end, text[start:end], item.text, item.row, item.field, scope,
                       item.value, peers))
    return led


def _subject_of(lookup: "_Lookup", rows: "_Rows", text: str, entity: str, lo: int, at: int,
                verb_end: int, score: int) -> tuple[str, Mapping] | None:
    """The row of ``entity`` named as the subject of a verb at ``at`` in the sentence that
    starts at ``lo``: the nearest mention before it, or, when that one is the object of a
    preposition or verb ("against LA, won"), the nearest subject before it. None when none is
    named, the name fits several rows, or a subject of another clause stands between the verb
    and the score at ``score`` ("the Lakers outscored ..., but the Celtics snapped a losing
    streak with a 113-107 win"): only an object ("beat the Celtics", "beaten by Boston") may."""
    items, starts, subject, _ = lookup.of(frozenset((entity,)))
    first = bisect.bisect_left(starts, lo)
    for between in items[bisect.bisect_left(starts, verb_end):bisect.bisect_left(starts, score)]:
        if not between.object and not _BY_BEFORE.search(text, max(0, between.start - 8),
                                                          between.start) \
                and not _JUST_AFTER.fullmatch(text, verb_end, between.start):
            return None     # the subject of another clause, not the verb's object
    last = bisect.bisect_left(starts, at) - 1
    while last >= first and items[last].end > at:
        last -= 1
    if last < first:
        return None
    if items[last].object and subject[last] >= first:
        last = subject[last]
    choice = items[last]
    return None if choice.row is None else (choice.label, rows.rows[entity][choice.row])


_BY_BEFORE = re.compile(r"\bby\s+(?:the\s+)?$", re.IGNORECASE)
_JUST_AFTER = re.compile(r"\s+(?:the\s+)?", re.IGNORECASE)     # "outscored the Lakers"


def _row_value(row: Mapping, field: str, more: tuple[str, ...]) -> Decimal | None:
    return _row_sum(row, (field, *more)) if more else _number(row.get(field))


# --- links ------------------------------------------------------------------------------------

def _links(mentions: Sequence[Mention], rows: "_Rows", lookup: "_Lookup", sentences: list[int],
           length: int, policy: Policy, withheld: Mapping[int, RowRule],
           settled: set[tuple[int, int]]) -> list[Finding]:
    """A link stated for a row must be that row's own link (seed 003: a real URL can point to
    the wrong product). A link that is some row's ``url`` field is bound like a figure, to the
    nearest mention in its sentence; when that row's link is another one, it is a
    ``misattributed`` finding naming the right link. A link no row holds, or one with no row
    named near it, is left to the sweep. A link bound to its own row is settled under the
    field's own policy (``drop_query``: a share link's tracking query is the same post)."""
    links = [m for m in mentions if m.kind == "url" and not m.quoted]
    if not links:
        return []
    fields = _url_fields(policy)
    owners: dict[tuple[str, str, str], set[int]] = {}     # (entity, field, link) -> rows
    for entity, field, spec in fields:
        for index, row in enumerate(rows.rows.get(entity, ())):
            cell = row.get(field)
            if isinstance(cell, str) and (key := _link_key(cell, spec)) is not None:
                owners.setdefault((entity, field, key), set()).add(index)
    findings = []
    for mention in links:
        held = [(entity, field, spec, owners.get((entity, field, _link_key(mention.text, spec))))
                for entity, field, spec in fields]
        held = [h for h in held if h[3]]
        if not held:
            continue
        probe = _Figure(mention.start, mention.end, mention.text, Decimal(0),
                        tuple((entity, field) for entity, field, _, _ in held),
                        anchor=mention.start, reach=mention.end)
        target = _nearest(probe, lookup, sentences, frozenset(h[0] for h in held), length)
        if target is None:
            continue
        entity, field, spec, rows_holding = next(h for h in held if h[0] == target.entity)
        row = rows.rows[entity][target.row]
        rule = withheld.get(id(row)) if withheld else None
        if rule is not None and field in rule.withheld:
            continue        # a hidden or stale link backs nothing: the sweep says why
        settled.add((mention.start, mention.end))
        if target.row in rows_holding:
            continue        # its own link, under the field's policy (a share link's query...)
        own = row.get(field)
        truth = f"which is {own} in the evidence" if isinstance(own, str) and own.strip() \
            else "which the evidence does not record"
        label = policy.entity(entity).field(field).label or field
        findings.append(Finding("url", mention.text, _link_key(mention.text, spec), mention.start,
                                mention.end, "misattributed", f"{mention.text} is stated as the "
                                f"{label} of {target.label}, {truth}: the link belongs to "
                                "another row"))
    return findings


# --- days -------------------------------------------------------------------------------------

def _days(text: str, mentions: Sequence[Mention], vocabulary: _Vocabulary, rows: "_Rows",
          lookup: "_Lookup", sentences: list[int], policy: Policy,
          withheld: Mapping[int, RowRule], settled: set[tuple[int, int]], claimed: "_Spans",
          index: Evidence | None) -> list[Finding]:
    """A date after the words of a date or timestamp field ("due on November 15, 2026") is
    bound like a figure, to the nearest mention in its sentence, and must be that row's day:
    a date field's day, a timestamp's day in the field's zone (23:30Z on 1 December is 2
    December in Tokyo). A day without its year ("November 15") is compared by month and day.
    Another day is ``misattributed``, and the message names the row's day as a customer reads
    it. Left to the sweep: a date with no such word, no row named, a clock time (an instant,
    not a day), a cell that is hidden, stale or a placeholder, and a day the evidence does not
    hold at all (the sweep says so). A row's own day is not settled: the sweep still reads it
    (the weekday written with it...)."""
    from rulekit import dates

    found = []
    held: set | None = None     # the days of the evidence, and their (month, day), when asked
    for mention in mentions:
        if mention.kind != "date" or mention.quoted or mention.time is not None:
            continue
        stated = mention.day or _month_day(mention.normalized)
        if stated is None or claimed.overlaps(mention.start, mention.end) \
                or _respectively_after(text, mention.end):
            continue        # "A and B are due on X and Y respectively": each in its order
        before = text[max(0, mention.start - _WINDOW):mention.start]
        hit = vocabulary.days.search(before)
        if hit is not None and hit.start() and before[hit.start() - 1].isalnum() \
                and not _is_cjk(before[hit.start()]):
            hit = None
        if hit is None and vocabulary.days_after is not None and not text.isascii():
            hit = vocabulary.days_after.match(text, mention.end)
        if hit is None:
            continue
        owners = vocabulary.day_owners[vocabulary.days_ordered[int(hit.lastgroup[1:])]]
        probe = _Figure(mention.start, mention.end, mention.text, Decimal(0), owners,
                        anchor=mention.start, reach=mention.end)
        target = _nearest(probe, lookup, sentences, frozenset(e for e, _ in owners), len(text))
        if target is None:
            continue
        field = next(f for e, f in owners if e == target.entity)
        row = rows.rows[target.entity][target.row]
        rule = withheld.get(id(row)) if withheld else None
        if rule is not None and field in rule.withheld:
            continue        # a hidden or stale day backs nothing: the sweep says why
        spec = policy.entity(target.entity).field(field)
        truth = dates.stored_day(row.get(field), spec.type.zone,
                                 getattr(spec.type, "naive_zone", "UTC"))
        if truth is None or stated == (truth if mention.day else (truth.month, truth.day)):
            continue        # a placeholder (the sweep judges), or the row's own day
        if index is not None:
            if held is None:
                held = set(index.days) | {(day.month, day.day) for day in index.days}
            if stated not in held:
                continue    # no day of the evidence at all: the sweep's finding says why
        settled.add((mention.start, mention.end))
        found.append(Finding("date", mention.text, mention.normalized, mention.start,
                             mention.end, "misattributed", f"{mention.text} is stated as "
                             f"{target.label}'s {spec.label or field}, which is "
                             f"{_day_text(spec, row.get(field), truth, policy.locale)} in the "
                             "evidence"))
    return found


def _month_day(normalized: str | None) -> tuple[int, int] | None:
    """(month, day) of a day written without its year ("--11-15"), else None."""
    if normalized and len(normalized) == 7 and normalized.startswith("--"):
        return int(normalized[2:4]), int(normalized[5:7])
    return None


def _day_text(spec: Any, raw: Any, truth: Any, locale: str) -> str:
    """The row's day as a customer reads it, in the field's format ("December 15, 2026")."""
    from rulekit.compare import Unreadable
    from rulekit.render import format_value

    try:
        return format_value(spec, raw, locale, "date")
    except (Unreadable, ValueError, TypeError):
        return truth.isoformat()


def _url_fields(policy: Policy) -> list[tuple[str, str, Any]]:
    """(entity, field, type) of every url field of a bound entity."""
    found = []
    for bound in policy.binding.entities:
        entity = policy.entity(bound.name)
        if entity is not None:
            found += [(entity.name, f.name, f.type) for f in entity.fields
                      if f.type.kind == "url" and f.readable]
    return found


def _link_key(text: str, spec: Any) -> str | None:
    """A link as the field compares it (its query, fragment and trailing-slash policy)."""
    from rulekit.compare import Unreadable, normalise_url

    try:
        return normalise_url(text, query=spec.query, fragment=spec.fragment,
                             trailing_slash=spec.trailing_slash,
                             default_scheme="https")
    except (Unreadable, ValueError):
        return None


def _against_trend(text: str, figure: _Figure, bound: Bound, index: Evidence | None) -> bool:
    """Whether an unsigned figure that equals its cell's size, a change of the evidence, has a
    rise or fall word that goes against the cell's sign ("The S&P 500 fell 18.21 points" of a
    change of +18.21): the words name the cell, not its direction, so it is left to the sweep,
    whose direction rule flags it."""
    if not bound.truth or figure.value <= 0 or figure.text[:1] in "+-\u2212" or index is None \
            or abs(bound.truth) not in index.change_magnitudes:
        return False
    return _trend_at(text, figure.start, figure.end) * bound.truth < 0


def _in_minor(text: str, figures: list[_Figure]) -> list[_Figure]:
    """``figures``, each said in a currency's minor unit marked so ("24.5p", "24.5 pence",
    "14.2¢", "32,45 ct": ``rulekit.sweep_minor``): it is compared with its cell in that unit,
    as the sweep compares it. The character after the figure is tested first."""
    marked = []
    for figure in figures:
        after = text[figure.end:figure.end + 2]
        if after and (after[0] in "pPcC" or after[0] in " \u00a0" and after[1:] in _MINOR_NEXT) \
                and not figure.currency and not figure.percent \
                and minor_unit_said(text, figure) is not None or figure.text.endswith("¢"):
            figure = dataclasses.replace(figure, minor=True)
        marked.append(figure)
    return marked


_MINOR_NEXT = frozenset("pPcCr")     # after a space: pence, cents, ct, Cent, Rappen


def _real_minor(value: Decimal, index: Evidence) -> bool:
    """Whether an amount said in a minor unit is a real figure of the evidence: one held in a
    minor unit (``unit_rate_p_per_kwh: 13.2``), or whose major amount is held (0.132)."""
    return any(value == amount for amount, _, _ in index.minor_amounts) \
        or value.scaleb(-2) in index.values


def _real(bound: Bound, index: Evidence) -> bool:
    value = bound.value
    return value in index.values or value in index.percents or -value in index.values


def _place(raw: str) -> Decimal | None:
    word = raw.casefold()
    if word in _ORDINAL_VALUES:
        return Decimal(_ORDINAL_VALUES[word])
    digits = word.rstrip("stndrh")
    return Decimal(digits) if digits.isdigit() else None


def _read(raw: str) -> Decimal | None:
    word = raw.casefold()
    if word in _WORD_VALUES:
        return Decimal(_WORD_VALUES[word])
    try:
        return Decimal(raw.replace(",", ""))
    except InvalidOperation:
        return None


def _word_after(text: str, after_start: int, mention: Mention, vocabulary: _Vocabulary):
    """The (entity, field) pairs of a field word starting at ``after_start`` (past fillers), and
    its span; ((), None) when none starts there."""
    if after_start == mention.end and mention.text[-1:] in _COUNT_MARKS \
            and mention.text[:1].isdigit():
        after_start -= 1    # "2×", "2 x": the count's mark, read in the figure, is its word
    elif text.startswith(".", after_start) and after_start == mention.end \
            and mention.text.isdigit() and len(mention.text) <= 3 \
            and _ORDINAL_BEFORE.search(text, max(0, mention.start - 12), mention.start):
        after_start += 1    # "im 5. OG", "in der 5. Etage": a German ordinal, bound as the 5
    window = text[after_start:after_start + _WINDOW]
    prefix = "percent " if mention.percent else ""
    gap = _FILLERS.match(window).end()
    if mention.kind == "word_number" and mention.value is not None and 0 < mention.value < 1:
        article = _FRACTION_OF.match(window, gap)   # "half an acre", "a quarter of an acre"
        gap = article.end() if article else gap
    probe = prefix + window[gap:]
    match = vocabulary.words.match(probe)
    # A word of Chinese, Japanese or Korean ends at its last character: the next word is glued
    # to it (3点です, 3件。), and so is the word before one (は残り3点, 保温杯售价199元).
    if match and mention.kind == "word_number" and "-" in window[:gap] \
            and _NOUN_AFTER.match(probe, match.end()):
        return (), None     # "three-point range", "a four-point lead": a kind, no count
    if match and (match.end() == len(probe) or not probe[match.end()].isalnum()
                  or _is_cjk(probe[match.end() - 1])):
        end = after_start + gap + match.end() - len(prefix)
        return _owners_of(vocabulary, match), (after_start, max(end, after_start))
    if vocabulary.units and not prefix:
        # the field's unit in another notation: "1,850 ft²", "1,850 SF", "2,400-square-foot"
        said = unit_said_after(text, after_start)
        if said is not None and said[0] in vocabulary.units:
            return vocabulary.units[said[0]], (after_start, said[1])
    return (), None


# Before a German ordinal written with a dot ("im 5. OG", "in der 5. Etage", "ab dem 3.
# Stock"), a preposition or an article: the dot is the ordinal's, no sentence's end, and the
# field word after it is the number's (``_word_after``). Without one, "Haus Nr. 12. Etage: 3"
# keeps its sentences apart.
_ORDINAL_BEFORE = re.compile(r"(?<![\w])(?:im|am|vom|zum|beim|der|die|das|dem|den|des)"
                             r"[ \t\u00a0]+\Z", re.IGNORECASE)
# The mark of a count of items the scanner reads into its figure ("2×", "2 x", "2x"): a field
# word (``said as "×"``) after the figure starts at it (``_word_after``).
_COUNT_MARKS = frozenset("×xX")
# Between a fraction in words and its field word: "half an acre", "a quarter of an acre".
_FRACTION_OF = re.compile(r"(?:of[ \t\u00a0]+)?an?[ \t\u00a0]+", re.IGNORECASE)
# A fraction glued to its field word by a hyphen, which the scanner reads as no figure (as in
# "half-price"): "a half-acre lot", "a quarter-acre lot", "a three-quarter-acre lot"; or after
# an article, spaced: "a half acre", "a quarter acre" (not the half of "2 and a half acres")
# (``_hyphened_fractions``).
_HYPHENED_FRACTION = re.compile(r"(?<![\w-])(?<!and )(?<!and\u00a0)(an?[ \t\u00a0]+)?"
                                r"(half|quarter|three-quarter)(?(1)[- \t\u00a0]|-)(?=\w)",
                                re.IGNORECASE)
_FRACTION_VALUES = {"half": Decimal("0.5"), "quarter": Decimal("0.25"),
                    "three-quarter": Decimal("0.75")}


def _hyphened_fractions(text: str, vocabulary: _Vocabulary, claimed: _Spans) -> list[_Figure]:
    """"a half-acre lot": "half" states 0.5 of the field whose word follows the hyphen (or
    the space after "a half"), when that word is a unit of measure ("acres",
    ``rulekit.units``); before any other word it names a kind ("a half-bath" is one bathroom
    of a kind, not half of the count)."""
    found = []
    for match in _HYPHENED_FRACTION.finditer(text):
        rest = text[match.end():match.end() + _WINDOW]
        word = vocabulary.words.match(rest)
        if not word or not _word_ends(rest, word.end()) \
                or unit_word(re.split(r"[\s\-–]+", word.group())[0]) is None:
            continue
        start, end = match.start(2), match.end() + word.end()
        if claimed.overlaps(start, end):
            continue
        claimed.add(match.end(), end)
        found.append(_Figure(start, match.end(2), match.group(2),
                             _FRACTION_VALUES[match.group(2).casefold()],
                             _owners_of(vocabulary, word), shown_decimals=2, reach=end))
    return found


# Between a figure and a row's name: "42 of Navy raincoat in stock", "42 Navy raincoat left".
_OF_NAME = re.compile(r"[ \t\u00a0]+(?:of[ \t\u00a0]+)?(?:the[ \t\u00a0]+)?", re.IGNORECASE)


def _name_then_word(text: str, mention: Mention, vocabulary: _Vocabulary,
                    names_from: Mapping[int, "_Named"]):
    """A row's name right after the figure ("of" and "the" may stand between) with a field word
    of its entity right after the name: "We have 42 of Navy raincoat in stock" states the
    raincoat's stock. The (entity, field) pair, the span of the word and the name; else None."""
    gap = _OF_NAME.match(text, mention.end)
    name = names_from.get(gap.end()) if gap is not None else None
    if name is None:
        return None
    owners, span = _word_after(text, name.end, mention, vocabulary)
    owners = tuple(o for o in owners if o[0] == name.entity)
    return (owners, span, name) if owners else None


# Between a row's name and the figure after it, a copula: "Your copay for Dr. Priya Raman is
# $50" (``_word_then_name``); and between a field word and that name, "for", "of", "with" or
# "at", maybe "the" or "your", and a title the stored name may lack ("Dr. " of "Priya Raman").
_NAME_IS = re.compile(r"[ \t\u00a0]+(?:is|was|are|were|will be|remains)[ \t\u00a0]+$",
                      re.IGNORECASE)
_WORD_FOR = re.compile(r"[ \t\u00a0]+(?:for|of|with|at)[ \t\u00a0]+(?:(?:the|your)[ \t\u00a0]+)?"
                       r"(?:(?:Dr|Mr|Mrs|Ms|Prof)\.?[ \t\u00a0]+)?$", re.IGNORECASE)


def _word_then_name(text: str, mention: Mention, vocabulary: _Vocabulary,
                    names_to: Mapping[int, "_Named"]):
    """A field word, then "for" and a row's name, then a copula, before the figure: "Your copay
    for Dr. Priya Raman is $50" states that row's copay. The (entity, field) pairs of the word's
    that are of the name's entity, and the name; else None."""
    gap = _NAME_IS.search(text, max(0, mention.start - 16), mention.start)
    name = names_to.get(gap.start()) if gap is not None else None
    if name is None:
        return None
    link = _WORD_FOR.search(text, max(0, name.start - 16), name.start)
    if link is None:
        return None
    hit = vocabulary.before.search(text, max(0, link.start() - _WINDOW), link.start())
    if hit is None or hit.start() and text[hit.start() - 1].isalnum():
        return None
    owners = tuple(o for o in _owners_named(vocabulary, hit.group("word")) if o[0] == name.entity)
    return (owners, name) if owners else None


def _field_words(text: str, mention: Mention, vocabulary: _Vocabulary):
    """The (entity, field) pairs a field word right after (or right before) the figure names,
    the span of that word, whether the word is only the figure's currency sign, and the pairs
    of the sign of other entities than the word's, when a word before the figure beats it."""
    if vocabulary.words is None:
        return (), None, False, ()
    owners, span = _word_after(text, mention.end, mention, vocabulary)
    if owners or span is not None:
        return owners, span, False, ()
    before = text[max(0, mention.start - _WINDOW):mention.start]
    signed = mention.currency and mention.text[:1] in "$€£¥"
    # the word before the figure ("available balance $1,240.55", "Your deductible is $420"),
    # else the sign written on it, a field word of its own (``said as "$"``). A word beats the
    # sign: the sign says money, the word which. The sign's fields of other entities are kept
    # as a fallback (``_Figure.fallback``), for a sentence that names none of the word's rows.
    found = None
    for probe in ((before, before + mention.text[:1]) if signed else (before,)):
        hit = vocabulary.before.search(probe)
        if hit and (hit.start() == 0 or not probe[hit.start() - 1].isalnum()):
            owners = _owners_named(vocabulary, hit.group("word"))
            sign = probe is not before and hit.start() == len(before)
            if found is not None:
                entities = {entity for entity, _ in found[0]}
                return found + (tuple(o for o in owners if o[0] not in entities),) \
                    if sign else found + ((),)
            # a word with digits ("52-week high") is claimed, so its digits are no figure
            word_at = mention.start - len(before) + hit.start("word")
            span = (word_at, word_at + len(hit.group("word"))) \
                if any(c.isdigit() for c in hit.group("word")) else None
            if probe is before and signed:
                found = (owners, span, False)
                continue
            return owners, span, sign, ()
    if found is not None:
        return found + ((),)
    if mention.currency:
        # A currency written after the figure is part of it (1,980円, 19,900원, "49,99 €"): a
        # field word as much as "$" before one.
        tail = _CURRENCY_TAIL.search(mention.text)
        hit = vocabulary.before.search(tail.group(0)) if tail is not None else None
        if hit is not None:
            return _owners_named(vocabulary, hit.group("word")), None, True, ()
    return (), None, False, ()


# Words just before a figure that make it the size of a change ("gained 1,326 followers", "grew
# by 1,326", "is up 3,900", "lost 41"), and "more" between a figure and its field word ("1,326
# more followers").
_CHANGE_WORDS = FALL_BEFORE | RISE_BEFORE | CHANGED_BEFORE
_MORE_AFTER = re.compile(r"[ \t\u00a0]+(?:more|fewer)\b", re.IGNORECASE)


def _said_as_change(text: str, mention: Mention) -> bool:
    """Whether ``mention`` states how much a field changed, not its level: a change word before
    it ("gained 1,326 followers", "grew by 1,326", "is up 3,900 subscribers"; not the end of a
    phrasal verb, "racked up 96,120 views": ``phrasal_up_down``), a plus written on it
    ("+1,326 followers"; a minus may be a level below zero, "balance -$42.10") or "more" after
    it ("1,326 more followers"). Such a figure is not held to the field's cell (the level); the
    sweep holds it to the changes the evidence holds, with the direction its words say."""
    if mention.sign == "+" or _MORE_AFTER.match(text, mention.end) is not None:
        return True
    word = change_word_before(text, mention.start)
    return word in _CHANGE_WORDS and not (word in ("up", "down")
                                          and phrasal_up_down(text, mention))


# Around a table's header or name cell: emphasis, quotes, and a unit in brackets ("Views (k)").
_HEADER_MARKS = re.compile(r"^[\s*_`\"“”']*|[\s*_`\"“”']*(?:\([^()]*\))?[\s*_`\"“”']*$")


def _table_cells(text: str, vocabulary: _Vocabulary, named: Sequence["_Named"], scanned,
                 claimed: _Spans) -> list[_Figure]:
    """The figures of the Markdown tables in ``text`` whose column header is a field word
    ("| Post | Views |") and whose row names a row in a cell ("| 60-second shelf hack |
    96,120 |"): each is bound like "<row>'s <field> is <cell>". A row that names no row, or
    two, binds nothing; nor does a column whose header is no field word."""
    found: list[_Figure] = []
    starts = [n.start for n in named]
    figures_at = [m.start for m in scanned]
    lines = _line_spans(text)
    for index in range(len(lines) - 1):
        head = lines[index]
        if "|" not in text[head[0]:head[1]]:
            continue
        head = row_span(text, *head)
        if not DELIMITER_ROW.match(text, *row_span(text, *lines[index + 1])):
            continue
        columns = {}
        for column, (a, b) in enumerate(cells_of(text, *head)):
            word = _HEADER_MARKS.sub("", text[a:b])
            match = vocabulary.words.fullmatch(word) if word else None
            if match is not None:
                columns[column] = _owners_of(vocabulary, match)
        if not columns:
            continue
        for row_start, row_end in lines[index + 2:]:
            if "|" not in text[row_start:row_end]:
                break
            cells = cells_of(text, *row_span(text, row_start, row_end))
            names = [n for n in named[bisect.bisect_left(starts, row_start):
                                      bisect.bisect_left(starts, row_end)] if not n.pronoun]
            if len({(n.entity, n.row) for n in names}) != 1:
                continue        # no row named, or two: the cells are left to the rest
            name = names[0]
            for column, owners in columns.items():
                fields = tuple(o for o in owners if o[0] == name.entity)
                if column >= len(cells) or not fields:
                    continue
                a, b = cells[column]
                for mention in scanned[bisect.bisect_left(figures_at, a):
                                       bisect.bisect_left(figures_at, b)]:
                    if mention.end > b or claimed.covers(mention.start, mention.end):
                        continue
                    found.append(_Figure(mention.start, mention.end, mention.text,
                                         mention.value, fields, mention.decimals, mention.scale,
                                         reach=mention.end, named=name,
                                         currency=mention.currency, percent=mention.percent))
    return found


# A Markdown heading ("### ...") opening a line, and the lines its block holds after it: blank
# lines, list items and table rows.
_HEADING = re.compile(r"[ ]{0,3}#{1,6}[ \t]")
_BLOCK_LINE = re.compile(r"[ \t]*(?:$|[-*+][ \t]|\d{1,3}[.)][ \t]|\|)")


def _under_headings(text: str, figures: list[_Figure], named: Sequence["_Named"],
                    lookup: "_Lookup", sentences: list[int]) -> list[_Figure]:
    """A heading that names one row ("### 60-second shelf hack") names the row of the list
    under it ("- **Views:** 198,450"), up to the first line that is no list item, table row or
    blank line: a figure there whose sentence names no row of its field's entity is that
    row's, as under a list item that names it."""
    blocks: list[tuple[int, int, _Named]] = []
    starts = [n.start for n in named]
    lines = _line_spans(text)
    for index, (start, end) in enumerate(lines):
        if not _HEADING.match(text, start, end):
            continue
        names = {(n.entity, n.row): n for n in named[bisect.bisect_left(starts, start):
                                                     bisect.bisect_left(starts, end)]
                 if not n.pronoun}
        if len(names) != 1 or next(iter(names))[1] is None:
            continue
        reach = end
        for line_start, line_end in lines[index + 1:]:
            if not _BLOCK_LINE.match(text, line_start, line_end):
                break
            reach = line_end
        blocks.append((end, reach, next(iter(names.values()))))
    if not blocks:
        return figures
    opens = [b[0] for b in blocks]
    kept = []
    for figure in figures:
        at = bisect.bisect_right(opens, figure.start) - 1
        if at >= 0 and figure.named is None and not figure.subject and figure.start < blocks[at][1]:
            heading = blocks[at][2]
            wanted = frozenset(entity for entity, _ in figure.fields)
            if heading.entity in wanted and None not in wanted \
                    and _nearest(figure, lookup, sentences, wanted, len(text)) is None:
                figure = dataclasses.replace(figure, named=heading)
        kept.append(figure)
    return kept


def _line_spans(text: str) -> list[tuple[int, int]]:
    """The (start, end) of every line of ``text``, without its line break."""
    spans, start = [], 0
    for match in re.finditer("\n", text):
        spans.append((start, match.start()))
        start = match.end()
    spans.append((start, len(text)))
    return spans


# Words of a field's name that make it a percentage ("followers_change_pct").
_PERCENT_NAME_WORDS = frozenset("pct percent perc percentage rate ratio".split())


def _change_fields(fields: tuple[tuple[str | None, str], ...], vocabulary: _Vocabulary,
                   policy: Policy) -> tuple[tuple[str | None, str], ...]:
    """The fields a figure said as a change (``_said_as_change``) is held to, of the ``fields``
    its word names: a change field as it is ("rose 0.30 points" for ``change said as
    "points"``: 0.30 is held to the row's 18.21), and for a level field the one change field
    of its entity declared for it, no percentage ("gained 2.8 followers" for ``followers`` is
    held to ``followers_change``, not its level). A level field without one is dropped: the
    sweep holds the figure to the changes the evidence holds."""
    held = []
    for entity, field in fields:
        if entity is None or _is_change_field(entity, field, vocabulary):
            held.append((entity, field))
            continue
        spec = policy.entity(entity)
        level = set(key_words(field))
        found = [f.name for f in spec.fields if f.name != field
                 and not getattr(f.type, "percent", False) and not getattr(f.type, "ratio", False)
                 and _PERCENT_NAME_WORDS.isdisjoint(words := set(key_words(f.name)))
                 and _trend_name(f.name) is not None and level <= words] \
            if spec is not None else []
        if len(found) == 1:
            held.append((entity, found[0]))
    return tuple(held)


def _is_change_field(entity: str, field: str, vocabulary: _Vocabulary) -> bool:
    """Whether ``field`` of ``entity`` holds a change, as its name ("change", "views_delta",
    "followers_gained") or one of its words ("change of", "net change") says."""
    if _trend_name(field) is not None:
        return True
    return any(_trend_name(word) is not None for word, pairs in vocabulary.owners.items()
               if (entity, field) in pairs)


# After a field word, a noun it is the adjective of: "three-point *range*".
_NOUN_AFTER = re.compile(r"[ \t\u00a0]+[^\W\d_]")
# After a figure's last digit, the currency written after it (" €", "円", "万円").
_CURRENCY_TAIL = re.compile(r"(?<=\d)[^\d]+$")


def _owners_named(vocabulary: _Vocabulary, said: str) -> tuple[tuple[str, str], ...]:
    """The (entity, field) pairs of the field word ``said`` (as ``vocabulary.before`` found it)."""
    word = _fold(said.rstrip(" :"))
    # One pattern of every word, built with the vocabulary: the first word in order that
    # matches whole is the first alternative that does (a regex per word and mention cost
    # ~140 us a money figure under a ruleset of many field words).
    hit = vocabulary.owner_words.fullmatch(word) if vocabulary.owner_words is not None else None
    return vocabulary.owner_pairs[hit.lastindex - 1] if hit is not None else ()


# The letters a case-insensitive pattern reads as ASCII ones: "İ" and "ı" as "i", "ſ" as "s",
# the Kelvin sign as "k" (``re``'s simple case folding and its extra cases).
_AS_ASCII = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"})


def _lowered(text: str) -> str | None:
    """``text`` lower-cased so that an ASCII word a case-insensitive pattern matches in it is a
    substring of it (at the same offsets); None when lower-casing would change its length."""
    if text.isascii():
        return text.lower()
    lowered = text.translate(_AS_ASCII).lower()
    return lowered if len(lowered) == len(text) else None


def _fold(text: str) -> str:
    return " ".join(text.casefold().split())


def _implicit(text: str, vocabulary: _Vocabulary, claimed: _Spans, scanned) -> list[_Figure]:
    """"a steal", "an assist", "a pair of steals": a field word after an article states 1 (2,
    3) of that field. Only for words that name a single unit (no number right before)."""
    if vocabulary.words is None:
        return []
    found = []
    for match in _IMPLICIT.finditer(text):
        rest = text[match.end():match.end() + _WINDOW]
        word = vocabulary.words.match(rest)
        if not word or not _word_ends(rest, word.end()) \
                or _FIGURE_AFTER.match(rest, word.end()):
            continue    # "an engagement rate of 1.5%": the figure after it is the field's
        start, end = match.start(), match.end() + word.end()
        if claimed.overlaps(start, end):
            continue
        phrase = _fold(match.group(0))
        owners = _owners_of(vocabulary, word)
        claimed.add(match.end(), end)
        first = phrase.split()[1] if phrase.startswith(("a pair", "a trio")) else phrase
        shown_start = match.start() + match.group(0).casefold().find(first)
        found.append(_Figure(shown_start, shown_start + len(first), text[shown_start:shown_start
                             + len(first)], Decimal(_IMPLICIT_VALUES[phrase]), owners,
                             anchor=match.start(), reach=end, implicit=True))
    return found


def _own(text: str, scanned, figures: list[_Figure], claimed: _Spans, sentences: list[int]):
    """"forced 14 turnovers while committing 12 of their own": a figure followed by "of their
    own" states the field of the figure before it in its sentence, for the sentence's subject.

    One sweep in text order (``scanned`` is): the figures before each such figure in its
    sentence only grow until the sentence changes, so the nearest of them (and the last found,
    whose field must be a row's) is kept as the sweep goes rather than searched for."""
    found = []
    order = sorted((i for i, f in enumerate(figures) if not f.implicit),
                   key=lambda i: figures[i].start)      # ties keep the order found
    taken, sentence_start = 0, -1
    nearest = latest = -1       # in the sentence so far: the figure starting last, the last found
    for mention in scanned:
        own = _OWN.match(text, mention.end)
        if own is None or claimed.covers(mention.start, mention.end):
            continue
        lo = sentences[bisect.bisect_right(sentences, mention.start) - 1]
        if lo != sentence_start:
            sentence_start, nearest, latest = lo, -1, -1
        while taken < len(order) and figures[order[taken]].start < mention.start:
            index = order[taken]
            taken += 1
            if figures[index].start < lo:
                continue
            if nearest < 0 or figures[index].start > figures[nearest].start:
                nearest = index
            latest = max(latest, index)
        if latest < 0 or figures[latest].fields[0][0] is None:
            continue        # nothing to inherit, or a derived figure: no row owns it
        claimed.add(mention.end, own.end())
        found.append(_Figure(mention.start, mention.end, mention.text, mention.value,
                             figures[nearest].fields, mention.decimals,
                             mention.scale, reach=own.end(), subject=True))
    return found


def _word_ends(text: str, end: int) -> bool:
    """Whether a field word matched up to ``end`` ends there: not inside a longer word, nor the
    first part of a compound ("triple" of "triple-double")."""
    if end >= len(text):
        return True
    return not (text[end].isalnum() or (text[end] in "-–" and text[end + 1:end + 2].isalpha()))


def _in_lists(text: str, figures: list[_Figure]) -> list[_Figure]:
    """Implicit figures only inside a list of figures: "18 points and a steal", "an assist, a
    steal and a block". An article alone states no count ("escaped with a win").

    A list gap holds at most ``_LIST_GAP_SOLID`` characters other than white space, so each
    implicit figure tries the figures around it only until the gap to them is longer."""
    if not any(f.implicit for f in figures):
        return list(figures)
    spans = [(_begins(f), max(f.reach, f.end)) for f in figures]
    begins = sorted({begin for begin, _ in spans})
    ends = sorted({end for _, end in spans})
    kept = []
    for figure in figures:
        if not figure.implicit or _listed(text, ends, _begins(figure), before=True) or \
                _listed(text, begins, figure.reach, before=False):
            kept.append(figure)
    return kept


def _listed(text: str, edges: list[int], at: int, *, before: bool) -> bool:
    """Whether a list gap joins ``at`` to one of ``edges`` (sorted): the end of a figure before
    it, or the start of one after it. The nearest edges are tried first; once a gap holds more
    than a list gap can, the further ones (whose gaps hold it) cannot be one."""
    if before:
        indices = range(bisect.bisect_right(edges, at) - 1, -1, -1)
    else:
        indices = range(bisect.bisect_left(edges, at), len(edges))
    for index in indices:
        gap = text[edges[index]:at] if before else text[at:edges[index]]
        if _solid(gap) > _LIST_GAP_SOLID:
            return False
        if _LIST_GAP.fullmatch(gap):
            return True
    return False


def _solid(gap: str) -> int:
    """The characters of ``gap`` other than white space (as ``\\s`` reads it) and ")"."""
    return len("".join(gap.split())) - gap.count(")")


def _begins(figure: _Figure) -> int:
    return figure.anchor if figure.anchor >= 0 else figure.start


def _sentences(text: str) -> list[int]:
    """The start offset of every sentence. Binding reads no further than a figure's sentence
    (a pronoun looks back only), so text after a sentence's end never changes how anything
    before it is bound: ``rulekit.stream`` holds text back until its sentence ends here."""
    return [0] + [m.end() for m in _SENTENCE_END.finditer(text)]


sentence_starts = _sentences


def may_bind(text: str, policy: Policy | None, mentions: Sequence[Mention]) -> bool:
    """Whether ``text`` (its ``mentions`` as ``scan`` reads them) holds anything binding could
    bind under ``policy``, to a row named later in its sentence: a figure or a link (any
    mention, to be safe), a field word ("a like" is a figure of 1 in a list) or a form."""
    if policy is None or not policy.binding.active:
        return False
    if mentions:
        return True
    vocabulary = _vocabulary(policy.binding, policy)
    if vocabulary.words is not None and vocabulary.words.search(text):
        return True
    lowered = _lowered(text)
    return any(form.regex.search(text) for form in vocabulary.forms
               if lowered is None or all(word in lowered for word in form.literals))


def _pronouns(text: str, vocabulary: _Vocabulary, named: list[_Named],
              sentences: list[int]) -> list[_Named]:
    """Each pronoun as a mention of the row it stands for: the last row named before it, of an
    entity that takes this pronoun, when that row is the only such row in its sentence."""
    if vocabulary.pronouns is None:
        return []
    ordered = sorted(named, key=lambda n: n.start)
    by_entities: dict[frozenset[str], _Runs] = {}
    found = []
    for match in vocabulary.pronouns.finditer(text):
        entities = vocabulary.pronoun_entities[_fold(match.group(0))]
        runs = by_entities.get(entities)
        if runs is None:
            runs = by_entities[entities] = _Runs([n for n in ordered if n.entity in entities])
        index = bisect.bisect_left(runs.starts, match.start()) - 1
        index = runs.known[index] if index >= 0 else -1
        if index < 0:
            continue
        target = runs.items[index]
        sentence = bisect.bisect_right(sentences, target.start) - 1
        lo = sentences[sentence]
        hi = sentences[sentence + 1] if sentence + 1 < len(sentences) else len(text)
        first = bisect.bisect_left(runs.starts, lo)
        last = bisect.bisect_left(runs.starts, min(hi, match.start())) - 1
        if runs.run[last] > first:
            continue        # two people named in that sentence: "he" is ambiguous
        is_object = bool(_OBJECT_BEFORE.search(text[max(0, match.start() - 20):match.start()]))
        found.append(_Named(match.start(), match.end(), target.entity, target.row, target.label,
                            pronoun=True, object=is_object))
    takers = None
    for match in _FORMER_LATTER.finditer(text):
        # "Wall and Beal, with the former adding...": the earlier or the later of the last two
        # rows named before it in its sentence, when both take pronouns.
        if takers is None:
            takers = frozenset().union(*vocabulary.pronoun_entities.values())
            runs = _Runs([n for n in ordered if n.row is not None and n.entity in takers])
        lo = sentences[bisect.bisect_right(sentences, match.start()) - 1]
        first = bisect.bisect_left(runs.starts, lo)
        last = bisect.bisect_left(runs.starts, match.start()) - 1
        if last < first or runs.run[last] - 1 < first:
            continue        # fewer than two rows named before it in its sentence
        later, earlier = runs.items[last], runs.items[runs.run[last] - 1]
        if later.entity == earlier.entity:
            target = earlier if match.group(1).casefold() == "former" else later
            found.append(_Named(match.start(), match.end(), target.entity, target.row,
                                target.label, pronoun=True))
    return found


class _Runs:
    """Mentions of rows in text order (``items``, starting at ``starts``), with, for each one,
    the last one at or before it that names a single row (``known``, -1: none) and the first of
    the unbroken run of mentions of its own row that it ends (``run``): the mentions from
    ``i`` to ``j`` name one row exactly when ``run[j] <= i``."""

    __slots__ = ("items", "starts", "known", "run")

    def __init__(self, items: list[_Named]):
        self.items = items
        self.starts = [n.start for n in items]
        self.known, self.run = [], []
        known = -1
        for index, item in enumerate(items):
            if item.row is not None:
                known = index
            self.known.append(known)
            same = index and (items[index - 1].entity, items[index - 1].row) == \
                (item.entity, item.row)
            self.run.append(self.run[index - 1] if same else index)


class _Lookup:
    """The mentions of rows (names and pronouns) in text order, read per set of entities a
    figure may belong to: for each, the mentions of those entities with, for each one, the last
    subject at or before it and the first name (no pronoun) at or after it, so finding the
    nearest mention of a figure takes a few bisections however many mentions came before."""

    def __init__(self, named: list[_Named], rows: "_Rows | None" = None):
        self.named = named
        self._by_entities: dict[frozenset[str], tuple] = {}
        self.rows = rows
        self._starts: list[int] | None = None

    def alone(self, wanted: frozenset[str], lo: int, hi: int) -> _Named | None:
        """The one row of the one entity in ``wanted``, for a figure whose sentence, [lo, hi),
        names no row at all (no name, no pronoun), after its field word: "Your delivery fee is
        $4.20." of the one order located (``_nearest``: not a figure bound by its currency sign
        alone, nor one whose word follows it, "12034 views this month", which may count
        another thing). None when the entity has several rows or none, or the field word
        names fields of several entities."""
        if self.rows is None or len(wanted) != 1:
            return None
        entity = next(iter(wanted))
        if len(self.rows.rows.get(entity, ())) != 1:
            return None
        if self._starts is None:
            self._starts = sorted(n.start for n in self.named)
        at = bisect.bisect_left(self._starts, lo)
        if at < len(self._starts) and self._starts[at] < hi:
            return None     # the sentence names a row: ``_nearest`` read it
        return _Named(lo, lo, entity, 0, self.rows.labels.get((entity, 0), entity))

    def of(self, wanted: frozenset[str]) -> tuple:
        """(mentions, their starts, last subject at or before each, first name at or after
        each; ``len(mentions)`` past the last)."""
        found = self._by_entities.get(wanted)
        if found is None:
            items = [n for n in self.named if n.entity in wanted]
            subject, last = [], -1
            for index, item in enumerate(items):
                if not item.object:
                    last = index
                subject.append(last)
            name, after = [0] * (len(items) + 1), len(items)
            name[after] = after
            for index in range(len(items) - 1, -1, -1):
                if not items[index].pronoun:
                    after = index
                name[index] = after
            found = self._by_entities[wanted] = (items, [n.start for n in items], subject, name)
        return found


def _judge(figure: _Figure, rows: _Rows, derived: Mapping[str, Decimal], lookup: _Lookup,
           sentences: list[int], text: str, policy: Policy,
           withheld: Mapping[int, RowRule]) -> Bound | None:
    if figure.fields and figure.fields[0][0] is None:       # a derived figure
        name = figure.fields[0][1]
        truth = derived.get(name)
        if truth is None:
            return None
        return _verdict(figure, None, name, name, truth, policy)
    wanted = frozenset(entity for entity, _ in figure.fields)
    target = figure.named if figure.named is not None \
        else _nearest(figure, lookup, sentences, wanted, len(text))
    if target is None and figure.fallback:
        # no row of the word's entity named: the sign names money of a row that may be
        figure = dataclasses.replace(figure, fields=figure.fallback, sign=True, fallback=())
        target = _nearest(figure, lookup, sentences,
                          frozenset(entity for entity, _ in figure.fields), len(text))
    if target is None or target.row is None:     # no row, or a name two rows share
        return None
    field = next(f for e, f in figure.fields if e == target.entity)
    if figure.rank is not None:
        truth = rows.place(target.entity, target.row, figure.rank, figure.value)
        if truth is None:
            return None
        return _verdict(figure, target.entity, target.label,
                        f"place by {field} among its {figure.rank.within}", truth, policy)
    rule = withheld.get(id(rows.rows[target.entity][target.row])) if withheld else None
    if rule is not None and field in rule.withheld:
        return None     # a hidden or stale cell backs nothing: the sweep's finding says why
    raw = rows.cell(target.entity, target.row, field)
    if _number(raw) is None:
        # A placeholder ("N/A": did not play) or a null backs nothing: a figure stated for it
        # is wrong wherever else its value appears (issue rule 6). A cell the row lacks, or
        # one that is not a number, is left to the sweep.
        if not _not_recorded(rows.rows[target.entity][target.row], field):
            return None
        return dataclasses.replace(
            _verdict(figure, target.entity, target.label, field, None, policy),
            named=(target.start, target.end))
    verdict = _verdict(figure, target.entity, target.label, field, raw, policy)
    if verdict.verdict == "misattributed" and figure.sign and _another_amount(
            figure, rows.rows[target.entity][target.row], target.entity, field, policy):
        # "kostet 1.299,00 € statt 1.529,00 €": a sign says money, not which (``bind``)
        return dataclasses.replace(verdict, verdict=_OTHER_AMOUNT)
    return verdict


def _not_recorded(row: Mapping, field: str) -> bool:
    """Whether ``row`` holds ``field`` as a placeholder ("N/A", "-") or a null."""
    if field not in row:
        return False
    raw = row[field]
    return raw is None or (isinstance(raw, str) and raw.strip().casefold() in PLACEHOLDER_TEXTS)


# A verdict of ``_judge``: a figure bound by its currency sign alone is another money field of
# its row, not the one bound. ``bind`` leaves it to the sweep when the row's own amount of that
# field is stated in the same sentence (a was-price beside the price: "kostet 1.299,00 € statt
# 1.529,00 €", "1,980円（通常価格2,830円）"), else it is misattributed ("X1は2,830円です").
_OTHER_AMOUNT = "other_amount"


def _price_beside(result: Bound, judged: list, sentences: list[int]) -> bool:
    """Whether a figure of ``judged`` in the sentence of ``result`` is its row's own value of
    its field."""
    sentence = bisect.bisect_right(sentences, result.start) - 1
    return any(other is not None and other.verdict == "ok" and other.entity == result.entity
               and other.row == result.row and other.field == result.field
               and bisect.bisect_right(sentences, other.start) - 1 == sentence
               for _, other in judged)


def _another_amount(figure: _Figure, row: Mapping, entity: str, field: str,
                    policy: Policy) -> bool:
    """Whether ``figure``, bound to ``field`` by its currency sign alone, is the amount of
    another money field of the same row."""
    spec = policy.entity(entity)
    for other, raw in row.items():
        decl = spec.field(other) if spec is not None and other != field else None
        if decl is None or decl.type.kind != "money" or (truth := _number(raw)) is None:
            continue
        if any(figure.value == v for v in _shown_forms(policy, entity, other, truth)):
            return True
    return False


def _nearest(figure: _Figure, lookup: _Lookup, sentences: list[int], wanted: frozenset[str],
             length: int) -> _Named | None:
    """The mention of a row in ``wanted`` that ``figure`` is about (the module docstring, 3),
    by bisection and ``_Lookup``'s links: the mentions before it in its sentence that end
    before it, the nearest last (preferring a subject when it is not right before the figure);
    for "12 of their own" the first row named in the sentence; else the first row named after
    it in the sentence."""
    items, starts, subject, name = lookup.of(wanted)
    start = figure.start
    sentence = bisect.bisect_right(sentences, start) - 1
    first = bisect.bisect_left(starts, sentences[sentence])
    hi = sentences[sentence + 1] if sentence + 1 < len(sentences) else length
    index = bisect.bisect_left(starts, start)       # items[first:index]: before it
    if figure.subject:      # "12 of their own": the first row named in the sentence
        pick = name[first]
        while pick < index and items[pick].end > start:
            pick = name[pick + 1]
        choice = items[pick] if pick < index else None
        return choice if choice is not None and choice.row is not None else None
    last = index - 1
    while last >= first and items[last].end > start:
        last -= 1
    if last >= first:
        choice = items[last]
        if _begins(figure) - choice.end > 3:    # not "the Lakers (17-36)": prefer a subject
            pick = subject[last]
            while pick >= first and items[pick].end > start:
                pick = subject[pick - 1] if pick else -1
            if pick >= first:
                choice = items[pick]
        return choice if choice.row is not None else None
    pick = name[index]
    if pick < bisect.bisect_left(starts, hi):
        return items[pick] if items[pick].row is not None else None
    if figure.sign or figure.reach > figure.end or figure.anchor >= 0:
        return None     # "$24" says money, not which; "12034 views" may be another thing's
    return lookup.alone(wanted, sentences[sentence], hi)


def _verdict(figure: _Figure, entity: str | None, label: str, field: str, raw: Any,
             policy: Policy) -> Bound:
    truth = raw if isinstance(raw, Decimal) else _number(raw)
    forms = _shown_forms(policy, entity, field, truth, figure.percent, figure.minor) \
        if truth is not None else []
    shown = _money_text(policy, entity, field, raw) or (_plain(forms[-1]) if forms else "")
    make = functools.partial(Bound, figure.start, figure.end, figure.text, figure.value, entity,
                             label, field, truth, shown=shown)
    if truth is None:
        return make("misattributed")
    if figure.currency is not None and _other_money(policy, entity, field, figure.currency):
        return make("currency")
    if truth < 0 and figure.text[:1] == "+":
        # "Threads: +41 followers" of a change of -41: a plus says the sign, not a size
        forms = [v for v in forms if v < 0]
    if any(figure.value == v for v in forms):
        return make("ok")
    tolerance = _tolerance(policy, entity, field)
    if tolerance and any(abs(figure.value - v) <= tolerance for v in forms):
        return make("ok")
    if _rounds_to(figure, forms):
        return make("rounded")
    return make("misattributed")


# Verdicts ``bind`` leaves to the sweep, unsettled: a cell rounded to its shown precision, whose
# rounding rules the sweep judges, and an amount in another currency than its field's ("€0.40
# per 1,000 calls" for a rate in USD), or with a currency on a number that is no money ("closed
# at $6,032.38" for an index level): the field words say which cell, not which money, and the
# sweep's currency check says what the evidence holds the value in.
_LEFT = frozenset({"rounded", "currency"})


def _rounding_allowed(policy: Policy, entity: str | None, field: str) -> bool:
    """Whether `rounding allowed for` names ``field`` (alone or as ``entity.field``): a rounding
    of a cell binding left to the sweep is judged there only then; else a rounded figure some
    other cell holds exactly would pass as that cell's value."""
    allowed = policy.sweep.rounding if policy.sweep is not None else ()
    return field in allowed or f"{entity}.{field}" in allowed


def _other_money(policy: Policy, entity: str | None, field: str, currency: str) -> bool:
    """Whether ``currency`` (a ``Mention.currency``: a code, or a family a sign names) cannot be
    the currency of ``field``: money in another currency than its own, else the ruleset's; or a
    number that is no money ("The S&P 500 closed at $6,032.38" for an index's `level decimal`),
    whose words say which cell, not that it is money. False for money with no currency
    declared."""
    spec = policy.entity(entity).field(field) if entity and policy.entity(entity) else None
    if spec is None:
        return False
    if spec.type.kind != "money":
        return spec.type.kind in ("decimal", "integer")
    own = spec.type.currency or policy.currency
    if not own:
        return False
    from rulekit.scan.figures import currency_codes

    return own.upper() not in currency_codes(currency)


def _shown_forms(policy: Policy, entity: str | None, field: str, truth: Decimal,
                 percent: bool = False, minor: bool = False) -> list[Decimal]:
    """The cell as text may show it: as stored, money stored in minor units in major ones only
    (129900 is "$1,299.00", never "$129,900"), a ratio also as a percentage; a ``decimal
    ratio``'s only as a percentage when the figure is written as one (``percent``); not a
    percent field whose name says it holds points (``dividend_yield_pct: 0.45`` is 0.45 %,
    never 45 %). Money said in a minor unit (``minor``: "24.5p") is compared in that unit:
    the cell of a field stored in minor units as stored (24.5 pence, whatever its decimals),
    one stored in major units times a hundred (0.245 is 24.5p); in major units, a cell in minor
    units is read in them whatever its decimals (24.5 pence is £0.245)."""
    spec = policy.entity(entity).field(field) if entity and policy.entity(entity) else None
    stored_minor = spec is not None and spec.type.kind == "money" and \
        getattr(spec.type, "storage", None) == "minor"
    if minor and spec is not None and spec.type.kind == "money":
        from babel.numbers import get_currency_precision

        digits = get_currency_precision(spec.type.currency or policy.currency or "USD")
        return [abs(truth if stored_minor else truth.scaleb(digits)).normalize()]
    if stored_minor and (truth == truth.to_integral_value() or _minor_word(field)):
        from babel.numbers import get_currency_precision

        truth = truth.scaleb(-get_currency_precision(spec.type.currency or policy.currency or "USD"))
    forms = [abs(truth), truth]
    if spec is not None and spec.type.kind == "decimal" and getattr(spec.type, "ratio", False) \
            and percent:
        return [(abs(truth) * 100).normalize(), (truth * 100).normalize()]  # never "0.0484%"
    if spec is not None:
        kind = spec.type.kind
        if kind == "decimal" and (getattr(spec.type, "percent", False) and 0 < abs(truth) <= 1
                                  and _ratio_reading(field) != "points"
                                  or getattr(spec.type, "ratio", False)):
            forms.append(truth * 100)
    return forms


def _money_text(policy: Policy, entity: str | None, field: str, raw: Any) -> str | None:
    """A money cell as a customer reads it ("$1,299.00", with its currency), for the message;
    None for any other cell, or one the field's type cannot read."""
    spec = policy.entity(entity).field(field) if entity and policy.entity(entity) else None
    if spec is None or spec.type.kind != "money":
        return None
    from rulekit.compare import Unreadable
    from rulekit.render import format_value

    try:
        return format_value(spec, raw, policy.locale)
    except (Unreadable, ValueError, TypeError):
        return None


def _tolerance(policy: Policy, entity: str | None, field: str) -> Decimal:
    spec = policy.entity(entity).field(field) if entity and policy.entity(entity) else None
    return Decimal(getattr(spec.type, "tolerance", 0) or 0) if spec is not None else Decimal(0)


def _rounds_to(figure: _Figure, forms: list[Decimal]) -> bool:
    """Whether the figure is a cell rounded to the precision shown ("12k" of 12034, "4.6%" of
    4.62): the sweep's rounding rules judge that, not binding."""
    quantum = Decimal(figure.scale or 1).scaleb(-figure.shown_decimals).normalize()
    for form in forms:
        try:
            if abs(form) < quantum or abs(form).quantize(quantum) == abs(form):
                continue        # the cell has no more precision than shown: not a rounding
            if any(abs(form).quantize(quantum, rounding=mode) == abs(figure.value)
                   for mode in (ROUND_HALF_UP, ROUND_HALF_EVEN)):
                return True
        except InvalidOperation:
            return False
    return False


def _finding(bound: Bound) -> Finding:
    what = f"{bound.row}'s {bound.field}" if bound.entity else f"the {bound.field}"
    if bound.truth is None:
        message = (f"{bound.text} is stated as {what}, which the evidence does not record "
                   "(a placeholder such as N/A backs no figure)")
    else:
        message = (f"{bound.text} is stated as {what}, which is {bound.shown} in the evidence")
    return Finding("number", bound.text, str(bound.value), bound.start, bound.end,
                   "misattributed", message)


def _plain(value: Decimal) -> str:
    """A whole number without its exponent; any other value with the precision it is shown at."""
    return plain_decimal(value) if value == value.to_integral_value() else str(value)
