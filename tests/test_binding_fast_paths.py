"""rulekit.bind's linear lookups must answer exactly as testing every span or mention found
before did: ``_Spans`` as a scan of the claimed spans, ``_nearest`` and ``_pronouns`` (by
``_Lookup`` and ``_Runs``) as a scan of the mentions of the sentence, ``_in_lists`` (which stops
at a gap too long to be a list gap) and ``_own`` (one sweep) as their scans of every figure.
Each reference below is the quadratic version binding used before, kept here as the
specification; the behaviour of binding as a whole is pinned by tests/test_binding.py and
tests/cases/binding/. No timing is asserted: the properties check the algorithm."""

from __future__ import annotations

import bisect
import dataclasses
import re
from decimal import Decimal
from pathlib import Path

import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st

import rulekit
from rulekit import bind as b
from rulekit.bind import _Figure, _Named, _Spans

# --- the claimed spans ------------------------------------------------------------------------

LENGTH = 40
OFFSETS = st.integers(0, LENGTH)
OPS = st.lists(st.tuples(st.sampled_from(["add", "covers", "overlaps"]), OFFSETS, OFFSETS),
               max_size=120)


@settings(max_examples=400, deadline=None)
@given(ops=OPS)
def test_spans_answer_as_a_scan_of_every_span(ops):
    spans, claimed = _Spans(LENGTH), []
    for op, start, end in ops:
        if op == "add":
            spans.add(start, end)
            claimed.append((start, end))
        elif op == "covers":
            assert spans.covers(start, end) == any(a <= start and end <= b for a, b in claimed)
        else:
            assert spans.overlaps(start, end) == any(a < end and start < b for a, b in claimed)


def test_spans_past_a_few_use_the_tree():
    spans = _Spans(100)
    for start in range(0, 80, 4):
        spans.add(start, start + 2)
    assert spans._tree is not None
    assert spans.covers(40, 42) and not spans.covers(41, 43)
    assert spans.overlaps(41, 43) and not spans.overlaps(42, 44)
    assert not spans.overlaps(0, 0) and not spans.covers(99, 100)


# --- the nearest mention of a figure ----------------------------------------------------------

def _nearest_scan(figure, named, starts, sentences, wanted, length):
    sentence = bisect.bisect_right(sentences, figure.start) - 1
    lo = sentences[sentence]
    hi = sentences[sentence + 1] if sentence + 1 < len(sentences) else length
    index = bisect.bisect_left(starts, figure.start)
    before = [n for n in named[bisect.bisect_left(starts, lo):index]
              if n.entity in wanted and n.end <= figure.start]
    if figure.subject:
        first = next((n for n in before if not n.pronoun), None)
        return first if first is not None and first.row is not None else None
    if before:
        choice = before[-1]
        if b._begins(figure) - choice.end > 3:
            subjects = [n for n in before if not n.object]
            choice = (subjects or before)[-1]
        return choice if choice.row is not None else None
    after = [n for n in named[index:bisect.bisect_left(starts, hi)]
             if n.entity in wanted and not n.pronoun]
    if after:
        return after[0] if after[0].row is not None else None
    return None


MENTIONS = st.lists(st.builds(
    lambda start, width, entity, row, pronoun, obj: _Named(
        start, start + width, entity, row, "x", pronoun=pronoun, object=obj),
    st.integers(0, 30), st.integers(1, 6), st.sampled_from("ab"), st.sampled_from([None, 0, 1]),
    st.booleans(), st.booleans()), max_size=20).map(lambda ns: sorted(ns, key=lambda n: n.start))
SENTENCES = st.lists(st.integers(1, 36), max_size=4).map(lambda xs: [0] + sorted(set(xs)))
FIGURES = st.builds(
    lambda start, width, anchor, subject: _Figure(start, start + width, "1", Decimal(1), (),
                                                  anchor=anchor, subject=subject),
    st.integers(0, 36), st.integers(1, 4), st.integers(-1, 36), st.booleans())


@settings(max_examples=2000, deadline=None)
@given(named=MENTIONS, sentences=SENTENCES, figure=FIGURES,
       wanted=st.sampled_from([frozenset("a"), frozenset("b"), frozenset("ab")]))
# The only subject (first) holds the figure, so the object after it is the nearest mention.
@example(named=[_Named(0, 6, "a", 0, "x"), _Named(1, 2, "a", 1, "x", object=True)],
         sentences=[0], figure=_Figure(5, 6, "1", Decimal(1), (), anchor=9),
         wanted=frozenset("a"))
def test_nearest_is_the_scan_of_the_sentence(named, sentences, figure, wanted):
    starts = [n.start for n in named]
    want = _nearest_scan(figure, named, starts, sentences, wanted, 80)
    got = b._nearest(figure, b._Lookup(named), sentences, wanted, 80)
    assert got is want


# --- pronouns ---------------------------------------------------------------------------------

# Names of two entities (Cy names two rows, so no one), pronouns of one or both, "the former".
NAMES = {"Ann": ("p", 0), "Bob": ("p", 1), "Cy": ("p", None), "Reds": ("t", 0), "Blues": ("t", 1)}
PRONOUNS = {"he": frozenset("p"), "they": frozenset("t"), "it": frozenset("pt")}
VOCABULARY = b._Vocabulary(None, {}, (), None, (), re.compile(r"\b(?:they|he|it)\b"), PRONOUNS)


def _pronouns_scan(text, named, sentences):
    ordered = sorted(named, key=lambda n: n.start)
    starts = [n.start for n in ordered]
    found = []
    for match in VOCABULARY.pronouns.finditer(text):
        entities = PRONOUNS[match.group(0)]
        index = bisect.bisect_left(starts, match.start()) - 1
        while index >= 0 and (ordered[index].entity not in entities or ordered[index].row is None):
            index -= 1
        if index < 0:
            continue
        target = ordered[index]
        sentence = bisect.bisect_right(sentences, target.start) - 1
        lo = sentences[sentence]
        hi = sentences[sentence + 1] if sentence + 1 < len(sentences) else len(text)
        rows = {(n.entity, n.row) for n in ordered if lo <= n.start < hi
                and n.entity in entities and n.start < match.start()}
        if len(rows) != 1:
            continue
        is_object = bool(b._OBJECT_BEFORE.search(text[max(0, match.start() - 20):match.start()]))
        found.append(_Named(match.start(), match.end(), target.entity, target.row, target.label,
                            pronoun=True, object=is_object))
    for match in b._FORMER_LATTER.finditer(text):
        lo = sentences[bisect.bisect_right(sentences, match.start()) - 1]
        pair = []
        for named_row in reversed(ordered[bisect.bisect_left(starts, lo):
                                          bisect.bisect_left(starts, match.start())]):
            if named_row.row is None or not any(named_row.entity in e for e in PRONOUNS.values()):
                continue
            if all((n.entity, n.row) != (named_row.entity, named_row.row) for n in pair):
                pair.append(named_row)
            if len(pair) == 2:
                break
        if len(pair) == 2 and pair[0].entity == pair[1].entity:
            target = pair[1] if match.group(1).casefold() == "former" else pair[0]
            found.append(_Named(match.start(), match.end(), target.entity, target.row,
                                target.label, pronoun=True))
    return found


WORDS = st.lists(st.sampled_from(
    [*NAMES, *PRONOUNS, "the former", "the latter", "with", "and", "scored", ". Then", "."]),
    max_size=30)


@settings(max_examples=600, deadline=None)
@given(words=WORDS)
def test_pronouns_are_the_scan_of_the_sentence(words):
    text, named = "", []
    for word in words:
        text += " " if text else ""
        if word in NAMES:
            entity, row = NAMES[word]
            named.append(_Named(len(text), len(text) + len(word), entity, row, word))
        text += word
    sentences = b._sentences(text)
    assert b._pronouns(text, VOCABULARY, named, sentences) == \
        _pronouns_scan(text, named, sentences)


# --- lists of figures -------------------------------------------------------------------------

_LIST_GAP = b._LIST_GAP


def _in_lists_scan(text, figures):
    spans = sorted((b._begins(f), max(f.reach, f.end)) for f in figures)
    kept = []
    for figure in figures:
        start = b._begins(figure)
        if not figure.implicit or any(
                _LIST_GAP.fullmatch(text[end:start]) for _, end in spans if end <= start) or any(
                _LIST_GAP.fullmatch(text[figure.reach:begin]) for begin, _ in spans
                if begin >= figure.reach):
            kept.append(figure)
    return kept


GAPS = st.lists(st.sampled_from([" ", "  ", ",", ", ", " and ", "plus ", " as well as ", ")",
                                 "\n", "including ", "that also included ", "x" * 20, "-",
                                 "a", "12", "steal", ".", "\u00a0"]), max_size=24).map("".join)


@settings(max_examples=600, deadline=None)
@given(text=GAPS, data=st.data())
def test_in_lists_is_the_scan_of_every_figure(text, data):
    spots = st.integers(0, len(text))
    figures = []
    for _ in range(data.draw(st.integers(0, 8))):
        start, width, reach = data.draw(spots), data.draw(st.integers(1, 3)), data.draw(spots)
        implicit = data.draw(st.booleans())
        figures.append(_Figure(start, start + width, "a", Decimal(1), (), implicit=implicit,
                               anchor=data.draw(st.sampled_from([-1, start])),
                               reach=max(reach, start + width) if implicit else reach))
    assert b._in_lists(text, figures) == _in_lists_scan(text, figures)


def test_a_list_gap_holds_at_most_the_solid_characters_counted():
    longest = " ) " + "x" * 39 + "-including  "     # 40 of a clause, then "including"
    assert _LIST_GAP.fullmatch(longest) and b._solid(longest) == b._LIST_GAP_SOLID
    assert not _LIST_GAP.fullmatch(" ) " + "x" * 40 + "-including  ")
    assert b._solid(" )\u00a0,\n and)") == 4


# --- "of their own" ---------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class _Mention:
    start: int
    end: int
    text: str
    value: Decimal
    decimals: int = 0
    scale: int = 1


def _own_scan(text, scanned, figures, claimed, sentences):
    found = []
    for mention in scanned:
        own = b._OWN.match(text, mention.end)
        if own is None or any(a <= mention.start and mention.end <= b for a, b in claimed):
            continue
        lo = sentences[bisect.bisect_right(sentences, mention.start) - 1]
        before = [f for f in figures if lo <= f.start < mention.start and not f.implicit]
        if not before or before[-1].fields[0][0] is None:
            continue
        claimed.append((mention.end, own.end()))
        found.append(_Figure(mention.start, mention.end, mention.text, mention.value,
                             max(before, key=lambda f: f.start).fields, mention.decimals,
                             mention.scale, reach=own.end(), subject=True))
    return found


PIECES = st.lists(st.sampled_from(["7", "12", " of their own", " of his own", " points", ", ",
                                   ". The", " and "]), max_size=30)


@settings(max_examples=1500, deadline=None)
@given(pieces=PIECES, data=st.data())
def test_own_is_the_scan_of_every_figure(pieces, data):
    text, scanned = "", []
    for piece in pieces:
        if piece.isdigit():
            scanned.append(_Mention(len(text), len(text) + len(piece), piece, Decimal(piece)))
        text += piece
    fields = st.sampled_from([(("p", "PTS"),), (("p", "REB"),), ((None, "margin"),)])
    spots = data.draw(st.lists(st.integers(0, len(text)), max_size=10))
    figures = [_Figure(at, at + 1, "1", Decimal(1), data.draw(fields),
                       implicit=data.draw(st.booleans())) for at in spots]
    figures = data.draw(st.permutations(figures))     # forms' figures come first, by form
    covered = [s for s in data.draw(st.lists(st.tuples(st.integers(0, len(text)),
                                                       st.integers(0, len(text))), max_size=3))]
    spans = _Spans(len(text))
    for span in covered:
        spans.add(*span)
    sentences = b._sentences(text)
    assert b._own(text, scanned, list(figures), spans, sentences) == \
        _own_scan(text, scanned, list(figures), list(covered), sentences)


# --- sentences --------------------------------------------------------------------------------

_SENTENCE_END_BEFORE = re.compile(r"(?<!\b[A-Z])(?<!\bSt)(?<!\bMr)(?<!\bJr)(?<!\bSr)(?<!\bvs)"
                                  r"[.!?]+[\"”’)]*\s+(?=[\"“(]?[A-Z0-9])|\n\s*\n")


@settings(max_examples=800, deadline=None)
@given(text=st.lists(st.sampled_from(list("aAbSsMrJtvV.!?\n\"”’)(“0 ") + ["St", "Mr", "vs"]),
                     max_size=30).map("".join))
def test_sentence_ends_are_found_as_before_the_marks_came_first(text):
    """The look-behinds moved after the first mark (so they are tried only at a mark)."""
    assert [(m.start(), m.end()) for m in b._SENTENCE_END.finditer(text)] == \
        [(m.start(), m.end()) for m in _SENTENCE_END_BEFORE.finditer(text)]


# --- the forms' pre-test ----------------------------------------------------------------------

_HERE = Path(__file__).resolve().parent
NBA_FORMS = b._vocabulary(rulekit.load(_HERE.parent / "rulesets" / "nba.rules").binding).forms
NBA_TEXTS = [case["text"] for case in yaml.safe_load(
    (_HERE / "cases" / "binding" / "nba.yaml").read_text("utf-8"))["cases"]]
# What a letter may be written as and still match it case-insensitively, and other non-ASCII.
SPELLINGS = {"i": ["İ", "ı", "I"], "s": ["ſ", "S"], "k": ["\u212a", "K"]}


@settings(max_examples=300, deadline=None)
@given(text=st.sampled_from(NBA_TEXTS), data=st.data())
def test_a_form_whose_words_the_lowered_text_lacks_cannot_match(text, data):
    """``_lowered`` lets the forms' pre-test run on any text, not only an ASCII one: "İ", "ı",
    "ſ" and the Kelvin sign, which a case-insensitive pattern reads as ASCII letters, are those
    letters in it. The binding cases with such letters (and "é", "Σ") put in."""
    chars = list(text)
    for index in data.draw(st.lists(st.integers(0, len(chars) - 1), max_size=12)):
        options = SPELLINGS.get(chars[index].lower(), [chars[index].upper(), "é", "Σ"])
        chars[index] = data.draw(st.sampled_from(options))
    text = "".join(chars)
    lowered = b._lowered(text)
    assert lowered is None or len(lowered) == len(text)
    for form in NBA_FORMS:
        if lowered is not None and form.regex.search(text):
            assert all(word in lowered for word in form.literals), form.regex.pattern


def test_letters_a_pattern_reads_as_ascii_are_those_letters_when_lowered():
    assert b._lowered("\u0130\u0131\u017f\u212aÉ") == "iiské"
    assert re.fullmatch("iisk", "\u0130\u0131\u017f\u212a", re.IGNORECASE)
