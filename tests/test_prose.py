"""rulekit.prose: the finder of the phrases `prose guarded` does not allow, which both channels
use (a claims reply's template, ``guarded_phrases``; free text, ``with_guarded``).

The behaviour cases are data: tests/cases/claims/*.yaml for templates and
tests/cases/sweep/prose_guarded.yaml for free text. Here: the finder against a plain regex
over the same phrases (the trie is only faster), and its offsets in text that lower-casing
would lengthen.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit.prose import (_IDIOMS, GUARDED_PHRASES, _states_nothing, forbidden_pattern,
                           guarded_phrases, guarded_spans)

# The finder as it was before the trie: every phrase as an alternative, the longest first (as
# the trie prefers "best-selling" to "best"), or any word ending in n't, case-insensitive.
_ORACLE = re.compile(r"(?<![\w-])(" + "|".join(re.escape(p) for p in sorted(
    GUARDED_PHRASES, key=len, reverse=True))
                     + r")(?![\w-])|(?<![\w-])\w+n['’]t(?![\w-])", re.IGNORECASE)
_NEGATIONS = re.compile(r"not|no(?: longer| one)?|nobody|nothing|nowhere|neither|nor|\w+n['’]t",
                        re.IGNORECASE)

_pieces = st.one_of(st.sampled_from(GUARDED_PHRASES), st.sampled_from(
    ["the", "order", "best-seller", "non", "most_recent", "don't", "can’t", "re-don't", "n't",
     "Regards", "recent", "happy", "Straße", "İstanbul", "x", "7", "do my", "allow", "since",
     "you asked", "Monday", "#", "make the", "as", "soon", "the warehouse", "was", "no.",
     "problem", "No:"]))
_glue = st.sampled_from([" ", "  ", "-", ", ", ". ", "\n", "_", "", "'", "\"", "é"])


@st.composite
def texts(draw) -> str:
    words = draw(st.lists(_pieces, max_size=12))
    return "".join(draw(_glue) + (w.upper() if draw(st.booleans()) else w) for w in words)


@settings(max_examples=300, deadline=None)
@given(texts())
def test_finds_what_the_plain_pattern_finds(text: str) -> None:
    # lower-cased letter by letter, so that offsets stay those of the text ("İ" would take two)
    low = "".join(c.lower() if len(c.lower()) == 1 else c for c in text)
    want = [m.span() for m in _ORACLE.finditer(text)
            if not (_IDIOMS.match(low, m.start()) or _states_nothing(low, m.start(), m.end()))]
    assert guarded_spans(text) == want
    assert guarded_spans(text, negations=False) == [
        span for span in want if not _NEGATIONS.fullmatch(text, *span)]


def test_spans_are_offsets_of_the_text_as_written() -> None:
    # "İ" lower-cases to two characters: the spans must not move
    text = "İİ Straße: it will ship since İstanbul is closer, and we don't know."
    assert [text[a:b] for a, b in guarded_spans(text)] == [
        "will ship", "since", "don't"]
    assert guarded_phrases(text) == ["will ship", "since", "don't"]


def test_set_phrases_state_nothing() -> None:
    assert guarded_phrases("Your most recent order. More than happy to help! Best regards") == []
    assert guarded_phrases("Your most expensive order costs more than the best one") == [
        "most", "more than", "best"]


def test_forbidden_phrases_are_whole_words_in_any_case() -> None:
    pattern = forbidden_pattern(("refund", "Free of charge", "waive"))
    text = "Refund: free  of\ncharge; refunded, non-refund, waiver, WAIVE."
    assert [text[a:b] for a, b in guarded_spans(text, negations=False, forbidden=pattern)] == [
        "Refund", "free  of\ncharge", "WAIVE"]
    assert forbidden_pattern(()) is None


def test_a_promise_holds_the_phrases_inside_it() -> None:
    # "won't" is a negation of its own in a template, and part of the promise it makes here
    assert guarded_phrases("Don't worry, you won't be charged again.") == [
        "Don't", "you won't be charged"]
    # a forbidden phrase inside a promise is named once, with the promise
    assert guarded_phrases("We'll refund it.", forbidden_pattern(("refund",))) == ["We'll refund"]
