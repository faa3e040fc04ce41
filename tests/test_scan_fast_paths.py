"""rulekit.scan's fast paths must find exactly what the full reading finds: a plain number read
by ``plain_number`` is the hit ``date_at`` then ``number_at`` would build, with the same claim
mask, and ``absolute_links`` finds the matches of ``_ABSOLUTE_URL.finditer``. The whole-scan
behaviour is pinned by tests/test_scan.py; these properties aim at the shortcuts' own tests
(what may stand before and after the digits)."""

from __future__ import annotations

import dataclasses
import re

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from rulekit.scan.assemble import _Scanner
from rulekit.scan.base import _DIGITS
from rulekit.scan.links import _ABSOLUTE_URL
from rulekit.scan.locales import _locale_info
from rulekit.scan.reader import _prepare

HIT_FIELDS = ("kind", "s", "e", "value", "decimals", "scaled", "percent", "currency", "sign",
              "day", "normalized", "token", "glued", "ordinal", "scale", "time", "core_s",
              "core_e", "token_span")

# What stands around a figure in prose, and what makes it something else: months, "of", am/pm,
# Uhr, scales, percent words, currencies, ordinal marks, glue, CJK scales and dates, and
# letters that IGNORECASE matches to ASCII (İ, ſ).
AROUND = ["views", "left", "likes", "July", "Juli", "7月", "of", "Mai", "may", "March", "mar",
          "Sept", "pm", "p.m.", "am", "Uhr", "h", "and", "to", "percent", "per cent", "lakh",
          "lei", "kr", "x", "times", "k", "K", "M", "bn", "Mio.", "million", "thousand", "tim",
          "okt", "März", "İ", "ſ", "十", "万", "年", "月", "日", "st", "nd", "th", ".", ",", ";",
          ":", "-", "/", "%", "€", "$", "USD", "US", "元", "倍", "个", "the", "No", "No.", "Nr",
          "Rs", "is", "zł", "(", ")", "“", "”", '"', "\n", "\t", "\u00a0", "  ", "p", "v", "q",
          "之", "百分之", "第", "#", "°", "+", "−", "²", ""]
NUMBERS = st.one_of(
    st.integers(0, 99_999).map(str),
    st.integers(1000, 10**7).map("{:,}".format),
    st.decimals(0, 1000, places=2).map(str),
    st.sampled_from(["4.6.2026", "29.07.2026", "21:00", "1'299", "1 299", "12,34,567",
                     "1.299,50", "9" * 201, "1" + ",234" * 70]),
)
SPACES = st.sampled_from([" ", "", "\u00a0", "\t", "  "])
TEXTS = st.lists(st.tuples(st.sampled_from(AROUND), SPACES, NUMBERS, SPACES), min_size=1,
                 max_size=4).map(lambda parts: "".join("".join(p) for p in parts) + " end")
LOCALES = ["en_US", "de_DE", "fr_FR", "zh_CN", "en_IN", "de_CH", "tr_TR"]


def _fields(hit) -> tuple:
    return tuple((getattr(hit, name), type(getattr(hit, name))) for name in HIT_FIELDS)


def check_plain_numbers(text: str, locale: str) -> None:
    """Every run of digits in ``text``, after the links and CJK passes: ``plain_number``
    declines without a trace, or claims what ``date_at`` then ``number_at`` would."""
    info = _locale_info(locale)
    prepared = _prepare(text)
    fast = _Scanner(prepared, info)
    fast.links()
    if not fast.ascii:
        fast.cjk()
    for match in _DIGITS.finditer(prepared.text):
        s, e = match.span()
        if fast.mask[s]:
            continue
        full = _Scanner(prepared, info)
        full.mask[:] = fast.mask
        full.hits = list(fast.hits)
        before = len(fast.hits)
        end = fast.plain_number(s, e)
        if end is None:
            assert fast.mask == full.mask and len(fast.hits) == before
            continue
        full_end = full.date_at(s, e)
        if full_end is None:
            full_end = full.number_at(s)
        assert end == full_end
        assert fast.mask == full.mask
        assert [_fields(h) for h in fast.hits[before:]] == [_fields(h) for h in full.hits[before:]]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=TEXTS, locale=st.sampled_from(LOCALES))
def test_plain_number_is_what_the_full_reading_finds(text, locale):
    check_plain_numbers(text, locale)


@pytest.mark.parametrize("text", [
    "a 4.6% rate", "$1,299.00; 12 left", "p0 had 6,002 views", "(42)", "x " + "9" * 201 + "%",
    "No $5", "US$5", "29 July 2026", "9 pm", "12 apples", "with 2,380 views", "4.6.2026",
])
def test_plain_number_examples(text):
    check_plain_numbers(text, "en_US")


URL_PIECES = ["http", "https", "ftp", "HTTP", "hTTpS", "FTP", "httpſ", "://", ":/", "//", "s://",
              "p://", "a", "/", " ", ".", "x", "ſ", "ht", "tp", "s", "(", ")", "\n", "é"]


def _absolute_spans(text: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """(what ``absolute_links`` returns, the spans of the pattern's matches, whatever stands
    before them: "Visithttps://..." is a link), on the cleaned text."""
    scanner = _Scanner(_prepare(text), _locale_info("en_US"))
    return scanner.absolute_links(), [m.span() for m in _ABSOLUTE_URL.finditer(scanner.text)]


@settings(max_examples=500, deadline=None)
@given(text=st.lists(st.sampled_from(URL_PIECES), max_size=14).map("".join))
def test_absolute_links_are_the_pattern_matches(text):
    found, expected = _absolute_spans(text)
    assert found == expected


def test_absolute_links_case_and_long_s():
    found, expected = _absolute_spans("see HTTPS://A.example/x and httpſ://b.example, ftp://c")
    assert found == expected and len(found) == 3
    # a "://" at the very start has no scheme, and does not end the search
    found, expected = _absolute_spans("://x then https://a.example/b")
    assert found == expected == [(10, 29)]


@pytest.mark.parametrize("text,locale,value", [
    ("12 mİllion", "en_US", 12_000_000),        # "İ" lower-cases to "i" plus a combining dot
    ("3 bİllion", "en_US", 3_000_000_000),
    ("zwei mİllionen", "de_DE", 2_000_000),
])
def test_a_scale_word_with_a_dotted_capital_i_is_read_not_raised(text, locale, value):
    from rulekit.scan import scan

    assert [m.value for m in scan(text, locale)] == [value]


# Pieces of ASCII prose around the range and word passes' shortcuts: joining words, dashes,
# "between", number words and multiples, glued to punctuation and underscores or not.
SHORTCUT_PIECES = ["10", "12", "1,299", "5%", "$3", " ", "  ", "-", "~", " to ", " through ",
                   " thru ", " bis ", " au ", " tot ", " till ", " until ", " and ", "between",
                   "between_", "(between", "TO", "Between", "one", "twenty-one", "a dozen",
                   "half", "twice", "doubled", "three-fold", "the", "cheaper", "times", "more",
                   ",", ".", "(", ")", "_", '"', "quoted words here", "x", "views",
                   "a quarter", "two-thirds", "third", " of "]


def _mentions(text: str, shortcuts: bool) -> list[tuple]:
    scanner = _Scanner(_prepare(text), _locale_info("en_US"))
    scanner.ascii = scanner.ascii and shortcuts     # off: the passes run as for any text
    return [tuple(repr(getattr(m, f.name)) for f in dataclasses.fields(m))
            for m in scanner.run()]


@settings(max_examples=800, deadline=None)
@given(text=st.lists(st.sampled_from(SHORTCUT_PIECES), min_size=1, max_size=16).map("".join))
@example(text="between 10 and 12 views")
@example(text="(between 10 and 12)")
@example(text="10 till 12 views")
@example(text="3 TO 5")
@example(text="1,299 - 5% and twenty-one")
@example(text='he said "twice the views" and a dozen more')
@example(text="a quarter of views and two-thirds of the third")
def test_ascii_shortcuts_skip_only_passes_that_find_nothing(text):
    """The word, range and quote passes skip an ASCII text on C-level tests of its tokens and
    marks; with those tests off, the text scans to exactly the same mentions."""
    assert _mentions(text, True) == _mentions(text, False)
