"""rulekit.scan: behaviour cases from tests/cases/scan/*.yaml, and properties: spans always
valid, every supported notation of a number read as exactly one number, the clean() map, and
adversarial input that must finish (timed in benchmarks/bench_scan.py, not here)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import sys
import unicodedata
from decimal import Decimal
from pathlib import Path

import pytest
import yaml
from babel.numbers import format_currency, format_decimal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekit.scan import KINDS, Mention, clean, scan, squash

CASES = Path(__file__).parent / "cases" / "scan"

CASE_KEYS = {"note", "text", "locale", "want", "want_includes", "want_kinds", "want_texts",
             "want_none", "want_no_kinds"}
WANT_KEYS = {"want", "want_includes", "want_kinds", "want_texts", "want_none", "want_no_kinds"}
MENTION_KEYS = {field.name for field in dataclasses.fields(Mention)}


def check_case(case: object, where: str) -> None:
    """Raises ValueError for a case that asserts nothing, has no note, text or locale, or
    carries a key nobody reads (a typo would assert nothing)."""
    if not isinstance(case, dict):
        raise ValueError(f"{where}: a case is a mapping")
    if not str(case.get("note", "")).strip():
        raise ValueError(f"{where}: a case needs a note")
    if not isinstance(case.get("text"), str) or not isinstance(case.get("locale"), str):
        raise ValueError(f"{where}: a case needs a text and a locale")
    unknown = set(case) - CASE_KEYS
    if unknown:
        raise ValueError(f"{where}: unknown keys {sorted(unknown)}")
    if not WANT_KEYS & set(case):
        raise ValueError(f"{where}: a case needs at least one want_* field")
    for item in list(case.get("want") or ()) + list(case.get("want_includes") or ()):
        if not isinstance(item, dict) or "kind" not in item or "text" not in item:
            raise ValueError(f"{where}: each wanted mention has a kind and a text")
        if set(item) - MENTION_KEYS:
            raise ValueError(f"{where}: unknown mention keys {sorted(set(item) - MENTION_KEYS)}")


def load_cases() -> list:
    params = []
    for path in sorted(CASES.glob("*.yaml")):
        for index, case in enumerate(yaml.safe_load(path.read_text(encoding="utf-8")) or ()):
            check_case(case, f"{path.name}[{index}]")
            params.append(pytest.param(case, id=f"{path.stem}-{index}"))
    return params


def test_loader_rejects_a_case_that_asserts_nothing():
    with pytest.raises(ValueError, match="want_"):
        check_case({"note": "nothing", "text": "1", "locale": "en_US"}, "x")
    with pytest.raises(ValueError, match="unknown keys"):
        check_case({"note": "typo", "text": "1", "locale": "en_US", "want_kind": []}, "x")
    with pytest.raises(ValueError, match="unknown mention keys"):
        check_case({"note": "typo", "text": "1", "locale": "en_US",
                    "want": [{"kind": "number", "text": "1", "vaule": "1"}]}, "x")
    with pytest.raises(ValueError, match="note"):
        check_case({"text": "1", "locale": "en_US", "want_none": True}, "x")
    check_case({"note": "ok", "text": "1", "locale": "en_US", "want_kinds": ["number"]}, "x")


def test_there_are_enough_cases():
    assert len(load_cases()) >= 120


def _matches(mention: Mention, want: dict) -> list[str]:
    """The fields of ``mention`` that differ from ``want``."""
    wrong = []
    for key, expected in want.items():
        actual = getattr(mention, key)
        if key == "value" and expected is not None:
            same = actual is not None and actual == Decimal(str(expected))
        elif key == "day" and expected is not None:
            same = actual == dt.date.fromisoformat(str(expected))
        elif key == "time" and expected is not None:
            same = actual == dt.time.fromisoformat(str(expected))
        else:
            same = actual == expected
        if not same:
            wrong.append(f"{key}: want {expected!r}, got {actual!r}")
    return wrong


def _describe(found: list[Mention]) -> str:
    return "\n".join(f"  {m.kind} {m.text!r} value={m.value} {m.normalized or ''}" for m in found)


@pytest.mark.parametrize("case", load_cases())
def test_scan_case(case):
    found = scan(case["text"], case["locale"])
    shown = f"{case['note']}\nfound:\n{_describe(found)}"
    _assert_valid(case["text"], found)
    if case.get("want_none"):
        assert found == [], shown
    if "want_kinds" in case:
        assert [m.kind for m in found] == case["want_kinds"], shown
    if "want_texts" in case:
        assert [m.text for m in found] == case["want_texts"], shown
    if "want_no_kinds" in case:
        assert not [m for m in found if m.kind in case["want_no_kinds"]], shown
    if "want" in case:
        assert len(found) == len(case["want"]), shown
        for mention, want in zip(found, case["want"]):
            wrong = _matches(mention, want)
            assert not wrong, f"{shown}\n{mention.text!r}: " + "; ".join(wrong)
    for want in case.get("want_includes") or ():
        assert any(not _matches(m, want) for m in found), f"{shown}\nmissing {want}"


def _assert_valid(text: str, found: list[Mention]) -> None:
    assert found == sorted(found, key=lambda m: (m.start, m.end, m.kind))
    for index, mention in enumerate(found):
        assert mention.kind in KINDS
        assert 0 <= mention.start < mention.end <= len(text)
        assert text[mention.start:mention.end] == mention.text
        if mention.range_with is not None:
            assert found[mention.range_with].range_with == index
        if mention.kind in ("number", "word_number", "multiple") and mention.value is not None:
            assert mention.value.is_finite()


# --- API details ------------------------------------------------------------------------------

def test_mention_is_frozen():
    mention = scan("12")[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        mention.value = Decimal(13)


def test_unknown_locale_raises_and_empty_text_is_empty():
    with pytest.raises(ValueError, match="locale"):
        scan("12", "xx_NOPE")
    assert scan("", "de_DE") == []


def test_scan_is_deterministic():
    text = "It costs $1,299.00 (12k views, twice as many, “a quote here”) at 9 pm @shop."
    assert scan(text) == scan(text)


def test_every_format_character_is_dropped():
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        if unicodedata.category(char) == "Cf":
            assert clean(f"a{char}b")[0] == "ab", hex(code)


def test_squash_matches_quote_normalisation():
    found = scan("She wrote “Great  Product, 10/10” here.")
    assert found[0].kind == "quote"
    assert found[0].normalized == squash("great product, 10/10") == "greatproduct,10/10"


def test_a_range_points_both_ways():
    found = scan("between $10 and $12")
    assert [m.range_with for m in found] == [1, 0]


# --- property (a): spans are valid on any text ------------------------------------------------

INTERESTING = list("0123456789.,'’ \u00a0\u202f\u200b\u00ad%$€¥@#:/-–—x×kKMO*_&;\"“”«»「」『』‘\n"
                   "一二三四五六七八九十百千万两倍成第翻番半点时時시분分刻钟整折割만천억백원元円：（）"
                   "½¾⅓⁄¹²") + [
    "&nbsp;", "&#8239;", "&amp;", "https://", "www.", ".com", "one", " a ", "half", "dozen",
    "twice", "double", "times", "to", "and", "million", "July", "pm", "１", "٣", "३",
    "noon", "midnight", "-day", "-dollar", " off", " price", "baker's", "score of", "UTC+8",
    " GMT", "上午", "下午", "午後", "오후", "半价", "不折不扣", "mille", "cent", "deux",
    "quatre-vingt", "dreizehnhundert", "eine", " fois plus", "-mal", " Uhr", " de ", "Dec",
    "(", "ago", "yesterday", "hier", "pounds", "Rs.", " Cr", "L", "美元", "ドル"]
messy_texts = st.lists(st.one_of(st.sampled_from(INTERESTING),
                                 st.characters(blacklist_categories=("Cs",))),
                       max_size=60).map("".join)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=messy_texts, locale=st.sampled_from(["en_US", "de_DE", "fr_FR", "zh_CN", "en_IN",
                                                 "ja_JP", "ko_KR", "es_ES", "it_IT", "nl_NL",
                                                 "en_GB"]))
def test_spans_are_always_valid(text, locale):
    _assert_valid(text, scan(text, locale))


# --- property (b): every notation of a number is one number -----------------------------------

ZERO_WIDTH = ["\u200b", "\u200d", "\ufeff", "\u2060", "\u00ad"]
GROUPED = {"en_US": "#,##0", "de_DE": "#,##0", "fr_FR": "#,##0", "de_CH": "#,##0",
           "en_IN": "#,##,##0"}
FULLWIDTH = str.maketrans("0123456789,.-", "０１２３４５６７８９，．－")
ARABIC_INDIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")


def _format(value: Decimal, locale: str, places: int) -> str:
    pattern = GROUPED[locale] + ("." + "0" * places if places else "")
    return format_decimal(value, format=pattern, locale=locale)


@st.composite
def written_numbers(draw):
    """(text of one number, locale, its value, whether it is a percentage)."""
    notation = draw(st.sampled_from(["plain", "grouped", "currency", "percent", "fullwidth",
                                     "arabic_indic", "abbreviation", "zero_width", "markdown"]))
    places = draw(st.integers(0, 2))
    value = draw(st.decimals(min_value=-(10**9) + 1, max_value=10**9 - 1, places=places))
    if notation == "plain":
        return str(value), "en_US", value, False
    if notation == "grouped":
        locale = draw(st.sampled_from(sorted(GROUPED)))
        return _format(value, locale, places), locale, value, False
    if notation == "currency":
        locale, currency = draw(st.sampled_from([("en_US", "USD"), ("de_DE", "EUR"),
                                                 ("en_GB", "GBP"), ("fr_FR", "EUR"),
                                                 ("ja_JP", "JPY"), ("en_IN", "INR")]))
        if currency == "JPY":
            value = value.to_integral_value()
        return format_currency(value, currency, locale=locale), locale, value, False
    if notation == "percent":
        locale = draw(st.sampled_from(["en_US", "de_DE"]))
        return _format(value, locale, places) + "%", locale, value, True
    if notation == "fullwidth":
        return _format(value, "en_US", places).translate(FULLWIDTH), "en_US", value, False
    if notation == "arabic_indic":
        return _format(value, "en_US", places).translate(ARABIC_INDIC), "en_US", value, False
    if notation == "abbreviation":
        mantissa = draw(st.decimals(min_value=Decimal("0.01"), max_value=999, places=places))
        suffix, scale = draw(st.sampled_from([("k", 10**3), ("K", 10**3), ("M", 10**6),
                                              ("bn", 10**9)]))
        if suffix == "K" and mantissa < 10 and places == 0:
            suffix = "k"                # one digit and a capital K is a name: 4K
        return f"{mantissa}{suffix}", "en_US", mantissa * scale, False
    written = _format(value, "en_US", places)
    if notation == "zero_width":
        at = draw(st.integers(1, max(1, len(written) - 1)))
        return written[:at] + draw(st.sampled_from(ZERO_WIDTH)) + written[at:], "en_US", value, False
    groups = written.split(",")                          # markdown around one digit group
    if len(groups) == 1:
        return f"**{written}**", "en_US", value, False
    at = draw(st.integers(0, len(groups) - 1))
    head, sep, tail = groups[at].partition(".")
    sign = "-" if head.startswith("-") else ""
    groups[at] = f"{sign}**{head.lstrip('-')}**{sep}{tail}"
    return ",".join(groups), "en_US", value, False


@settings(max_examples=600, deadline=None)
@given(written=written_numbers(),
       sentence=st.sampled_from(["The total is {} today.", "{}", "Total: {} (checked).",
                                 "- {} in the report"]))
def test_every_notation_is_one_number(written, sentence):
    number, locale, value, percent = written
    text = sentence.format(number)
    found = scan(text, locale)
    assert len(found) == 1, (text, _describe(found))
    mention = found[0]
    assert mention.kind == "number", text
    assert mention.value == value, (text, mention)
    assert mention.percent is percent, text
    assert number.strip("*") in mention.text or mention.text in number, (text, mention.text)


# --- property (c): the clean() map ------------------------------------------------------------

# (as written, as read): pieces whose cleaning does not depend on their neighbours.
CLEAN_PIECES = st.one_of(
    st.sampled_from("abcdefgh xyz.,;:!?()-+=/#%$12345".replace("", " ").split()).map(lambda c: (c, c)),
    st.just((" ", " ")),
    st.sampled_from(ZERO_WIDTH).map(lambda c: (c, "")),
    st.sampled_from([("１", "1"), ("Ａ", "A"), ("٣", "3"), ("३", "3"), ("\u202f", "\u00a0"),
                     ("\u00a0", "\u00a0"), ("\u2009", "\u00a0"), ("&amp;", "&"),
                     ("&nbsp;", "\u00a0"), ("&#8239;", "\u00a0"), ("&#x202F;", "\u00a0"),
                     ("&#49;", "1"), ("e\u0301", "é"), ("é", "é"), ("ﬁ", "fi"), ("中", "中"),
                     ("\u3000", " "), ("½", "1⁄2")]),
)


@settings(max_examples=300, deadline=None)
@given(pieces=st.lists(CLEAN_PIECES, max_size=40))
def test_clean_map_is_monotonic_and_maps_back(pieces):
    original = "".join(p[0] for p in pieces)
    cleaned, mapping = clean(original)
    assert cleaned == "".join(p[1] for p in pieces)
    assert len(mapping) == len(cleaned) + 1 and mapping[-1] == len(original)
    assert all(a <= b for a, b in zip(mapping, mapping[1:]))
    expected, at = [], 0
    for written, read in pieces:
        expected.extend([at] * len(read) if len(written) > 1 or written != read
                        else [at])
        at += len(written)
    assert mapping[:-1] == expected


def test_clean_reads_emphasis_and_letter_o_inside_numbers():
    assert clean("**1**,299 and 1,**299** and 1O0 in 2O26")[0] == "**1,299 and 1,299** and 100 in 2026"
    cleaned, mapping = clean("1,**299")
    assert cleaned == "1,299" and mapping == [0, 1, 4, 5, 6, 7]


# --- property (d): adversarial input finishes -------------------------------------------------

def adversarial(size: int) -> str:
    """The brief's attacks (long digit runs, repeated separators, nested and unclosed quotes,
    runs of '@', long URLs) and some dense ones (lists, handles, words, entities)."""
    parts = ["1" * 5000, "1,2" * 800, ",.,." * 500, "1" + ",234" * 2000, "“‘«「『" * 400,
             '"' * 1001, "@" * 3000, "@ab " * 500, "a@" * 500, "https://x.com/" + "a/" * 2000,
             "www." * 300, "/a" * 1500, "1-" * 1000, "one " * 500, "一二三" * 300, "&#" * 500,
             "&amp;" * 300, "\u200b1" * 500, "**1**," * 300, "1O" * 500, "a.b." * 500,
             "x" * 3000 + "@y.com", "July " * 300, "12:" * 300, "1 " * 1000]
    text = " ".join(parts)
    return (text * (size // len(text) + 1))[:size]


def test_adversarial_text_completes():
    text = adversarial(200_000)
    found = scan(text)
    _assert_valid(text, found)
    assert found
