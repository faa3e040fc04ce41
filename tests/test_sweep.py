"""Properties of the sweep (rulekit.audit), checked with hypothesis.

(a) Inserting any number that is NOT in the evidence into a faithful answer, in any notation a
    reader would read as that number (plain; grouped the en_US, de_DE, fr_FR, de_CH or en_IN
    way; with a currency symbol; as a percentage; in fullwidth or Arabic-Indic digits; with a
    zero-width character inside; with **Markdown** emphasis around a group; abbreviated with k
    or M), always yields a finding whose span covers the inserted digits (from the first digit
    to the last: emphasis markers outside the digits are decoration).
(b) Re-formatting a number the evidence holds, in any of those notations, never yields a
    finding.
(c) audit never raises, whatever the text and whatever JSON-like evidence (any nesting of
    objects, lists, strings, numbers including NaN and infinities, booleans and null), question
    and history; and its findings always point into the text.
(d) A 200 KB adversarial text completes (the 1 MB timing lives in benchmarks/).
(e) An amount the evidence holds in one currency passes in every notation of that currency
    and is caught in every other one.

Example counts are modest and there is no deadline: the whole file runs in a few seconds.
"""

from __future__ import annotations

import json
import math
import re
import time
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from rulekit.audit import audit
from rulekit.evidence import EvidenceError
from rulekit.sweep import SweepSettings

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

# --- notations -----------------------------------------------------------------------------------

FULLWIDTH = str.maketrans("0123456789,.%", "０１２３４５６７８９，．％")
ARABIC_INDIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")
ZERO_WIDTH = ["\u200b", "\u200c", "\u200d", "\u2060", "\u00ad", "\ufeff"]


def grouped(digits: str, sep: str) -> str:
    """Groups of three from the right: 1234567 -> 1,234,567."""
    head = len(digits) % 3 or 3
    return sep.join([digits[:head]] + [digits[i:i + 3] for i in range(head, len(digits), 3)])


def indian(digits: str) -> str:
    """The en_IN grouping: the last three, then groups of two: 1234567 -> 12,34,567."""
    if len(digits) <= 3:
        return digits
    rest, last = digits[:-3], digits[-3:]
    head = len(rest) % 2 or 2
    parts = [rest[:head]] + [rest[i:i + 2] for i in range(head, len(rest), 2)]
    return ",".join(parts + [last])


def short(value: Decimal) -> str:
    """A decimal without trailing zeros after its point: 12.80 -> 12.8, 1250 -> 1250."""
    text = f"{value:f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def integer_notations(n: int) -> list[tuple[str, str]]:
    """(text, locale) for a non-negative integer, every notation read as exactly n."""
    d = str(n)
    out = [(d, "en_US"), (grouped(d, ","), "en_US"), (grouped(d, "."), "de_DE"),
           (grouped(d, "\u202f"), "fr_FR"), (grouped(d, "\u00a0"), "fr_FR"),
           (grouped(d, "'"), "de_CH"), (grouped(d, "\u2019"), "de_CH"), (indian(d), "en_IN"),
           ("$" + grouped(d, ","), "en_US"), ("€" + grouped(d, "."), "de_DE"),
           ("£" + grouped(d, ","), "en_GB"), (grouped(d, ",") + " USD", "en_US"),
           ("₹" + indian(d), "en_IN"), (grouped(d, ",").translate(FULLWIDTH), "en_US"),
           (d.translate(ARABIC_INDIC), "en_US")]
    if len(d) >= 4:
        text = grouped(d, ",")
        first, rest = text.split(",", 1)
        out.append((f"**{first}**,{rest}", "en_US"))
        last_cut = text.rfind(",")
        out.append((f"{text[:last_cut + 1]}**{text[last_cut + 1:]}**", "en_US"))
    if len(d) >= 2:
        for mark in ZERO_WIDTH[:3]:
            out.append((d[:1] + mark + d[1:], "en_US"))
    if n >= 1000 and n % 100 == 0:
        out.append((short(Decimal(n) / 1000) + "k", "en_US"))
    if n >= 1_000_000 and n % 100_000 == 0:
        out.append((short(Decimal(n) / 1_000_000) + "M", "en_US"))
    return out


def percent_notations(tenths: int) -> list[tuple[str, str]]:
    """(text, locale) for the percentage tenths / 10."""
    value = f"{Decimal(tenths) / 10:f}"
    return [(value + "%", "en_US"), (value + " %", "en_US"), (value + " percent", "en_US"),
            (value.replace(".", ",") + "\u00a0%", "fr_FR"), (value.replace(".", ",") + " %", "de_DE"),
            ((value + "%").translate(FULLWIDTH), "en_US")]


def digit_span(text: str) -> tuple[int, int]:
    """The offsets of the first and one past the last digit of ``text``."""
    positions = [i for i, c in enumerate(text) if c.isdigit()]
    return positions[0], positions[-1] + 1


# --- (a) a number not in the evidence is always caught ---------------------------------------------

EVIDENCE = {
    "post": {"title": "Why we post at 9 pm", "views": 2380, "likes": 96, "engagement_rate": 4.6},
    "monthly_report": {"total_views": 12034},
}
FAITHFUL = ('Your post "Why we post at 9 pm" had 2,380 views and 96 likes, a 4.6% engagement '
            'rate; 12,034 views in all.')
HELD = {Decimal(v) for v in ("9", "2380", "96", "4.6", "12034")}


def test_faithful_answer_passes():
    result = audit(FAITHFUL, EVIDENCE, locale="en_US")
    assert not result.findings, result.findings


def _assert_caught(inserted: str, locale: str, sentence: str) -> None:
    prefix = FAITHFUL + " " + sentence.split("{}")[0]
    text = FAITHFUL + " " + sentence.format(inserted)
    first, last = digit_span(inserted)
    start, end = len(prefix) + first, len(prefix) + last
    result = audit(text, EVIDENCE, locale=locale)
    assert any(f.start <= start and end <= f.end for f in result.findings), (
        text, locale, [(f.code, f.text, f.start, f.end) for f in result.findings])
    assert result.decision.decision == "regenerate"


numbers_not_held = st.integers(min_value=13, max_value=10**10).filter(
    lambda n: Decimal(n) not in HELD)


SENTENCES = ["It also reached {} people.", "({} new followers)", "{} shares came in.",
             "Shares: {}", "and {} saves!", "You gained {} followers, up from last week.",
             "它还获得了{}次转发。"]


@SETTINGS
@given(n=numbers_not_held, pick=st.integers(min_value=0, max_value=10**6),
       sentence=st.sampled_from(SENTENCES))
@example(n=3100, pick=0, sentence=SENTENCES[0])
@example(n=1299, pick=4, sentence=SENTENCES[0])
@example(n=2_500_000, pick=0, sentence=SENTENCES[0])
def test_inserted_integer_is_caught(n: int, pick: int, sentence: str) -> None:
    notations = integer_notations(n)
    inserted, locale = notations[pick % len(notations)]
    _assert_caught(inserted, locale, sentence)


@SETTINGS
@given(n=numbers_not_held)
def test_inserted_integer_is_caught_in_every_notation(n: int) -> None:
    for inserted, locale in integer_notations(n):
        _assert_caught(inserted, locale, "It also reached {} people.")


@SETTINGS
@given(k=st.integers(min_value=13, max_value=999_999).filter(lambda k: k * 1000 != 12034))
def test_inserted_abbreviation_is_caught(k: int) -> None:
    """12k, 1.2M, 12.8k: the shown value, whatever it rounds from."""
    n = k * 100
    for inserted, locale in integer_notations(n):
        if inserted[-1] in "kM":
            _assert_caught(inserted, locale, "It also reached {} people.")


@SETTINGS
@given(tenths=st.integers(min_value=1, max_value=999).filter(lambda t: t != 46))
def test_inserted_percentage_is_caught(tenths: int) -> None:
    for inserted, locale in percent_notations(tenths):
        _assert_caught(inserted, locale, "Its share of all views was {}.")


# --- (b) an evidence number re-formatted never is --------------------------------------------------

def _assert_passes(text: str, evidence: dict, locale: str) -> None:
    result = audit(text, evidence, locale=locale)
    assert not result.findings, (text, locale, [(f.code, f.text) for f in result.findings])
    assert result.decision.decision == "answer"


@SETTINGS
@given(n=st.integers(min_value=0, max_value=10**10))
@example(n=1299)
@example(n=129900)
@example(n=12034)
def test_reformatted_integer_passes(n: int) -> None:
    evidence = {"campaign": {"reach": n}}
    for inserted, locale in integer_notations(n):
        _assert_passes(f"The campaign reached {inserted} people.", evidence, locale)


@SETTINGS
@given(k=st.integers(min_value=10, max_value=99_999))
@example(k=128)
@example(k=12000)
def test_reformatted_round_integer_passes_abbreviated(k: int) -> None:
    n = k * 100
    evidence = {"campaign": {"reach": n}}
    for inserted, locale in integer_notations(n):
        if inserted[-1] in "kM":
            _assert_passes(f"The campaign reached {inserted} people.", evidence, locale)


@SETTINGS
@given(cents=st.integers(min_value=1, max_value=10**8).filter(lambda c: c % 100))
@example(cents=129950)
def test_reformatted_price_with_cents_passes(cents: int) -> None:
    value = Decimal(cents) / 100
    whole, frac = f"{value:.2f}".split(".")
    evidence = {"product": {"price": float(value)}}
    for inserted, locale in [(f"${grouped(whole, ',')}.{frac}", "en_US"),
                             (f"{grouped(whole, '.')},{frac} €", "de_DE"),
                             (f"{grouped(whole, chr(0x202f))},{frac} €", "fr_FR"),
                             (f"CHF {grouped(whole, chr(39))}.{frac}", "de_CH"),
                             (f"{whole}.{frac}", "en_US"),
                             (f"{whole}.{frac}".translate(FULLWIDTH), "en_US")]:
        _assert_passes(f"It costs {inserted}.", evidence, locale)


@SETTINGS
@given(tenths=st.integers(min_value=1, max_value=999))
def test_reformatted_percentage_passes(tenths: int) -> None:
    """A field named like _pct holds points: 4.6 licenses 4.6% in every notation."""
    evidence = {"post": {"engagement_pct": float(Decimal(tenths) / 10)}}
    for inserted, locale in percent_notations(tenths):
        _assert_passes(f"Its engagement rate was {inserted}.", evidence, locale)


@SETTINGS
@given(thousandths=st.integers(min_value=1, max_value=999))
@example(thousandths=46)
def test_stored_ratio_passes_as_percentage(thousandths: int) -> None:
    """0.046 in engagement_rate licenses 4.6%."""
    ratio = Decimal(thousandths) / 1000
    evidence = {"post": {"engagement_rate": float(ratio)}}
    for inserted, locale in percent_notations(thousandths):
        _assert_passes(f"Its engagement rate was {inserted}.", evidence, locale)


# --- (c) never raises ------------------------------------------------------------------------------

TRICKY = ["1,299", "1.299,50", "4.6%", "12k", "1.2M", "2,5 Mio.", "1.2万", "1万2800", "一千二百",
          "七倍", "九成", "翻了一番", "twice", "twenty-one", "a dozen", "one", "half", "05/08/2026",
          "2026-11-03", "yesterday", "昨天", "@lin.writes", "a@b.example", "https://x.example/a",
          "/insights/posts/42", '"', "“", "「", "**", "&#44;", "&nbsp;", "\u200b", "\u00ad", "1O0",
          "１２", "٣", "४", "\u202e", "$", "€", "-", "\u2212", " of your last ", "out of", "\n"]
text_parts = st.one_of(st.sampled_from(TRICKY), st.text(max_size=12),
                       st.integers(-10**6, 10**6).map(str))
texts = st.lists(text_parts, max_size=25).map("".join)
scalars = st.one_of(st.none(), st.booleans(), st.integers(min_value=-10**30, max_value=10**30),
                    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=20),
                    st.sampled_from(TRICKY))
keys = st.one_of(st.text(max_size=10),
                 st.sampled_from(["views", "engagement_rate", "putts", "putts_tracked", "today",
                                  "body", "comments", "author", "handle", "url", "rate",
                                  "growth_multiple", "rounds", "to_par", "price"]))
json_values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(keys, inner, max_size=5)), max_leaves=30)
LOCALES = ["en_US", "en_GB", "de_DE", "fr_FR", "de_CH", "en_IN", "zh_CN", "ja_JP", "ar_EG",
           "hi_IN", None]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts, evidence=st.one_of(json_values, texts), question=st.none() | texts,
       history=st.none() | st.lists(json_values, max_size=3), locale=st.sampled_from(LOCALES),
       attempt=st.integers(min_value=1, max_value=3))
def test_audit_never_raises(text, evidence, question, history, locale, attempt) -> None:
    result = audit(text, evidence, question=question, history=history, locale=locale,
                   attempt=attempt)
    assert result.decision.decision in ("answer", "regenerate", "refuse")
    assert (result.decision.decision == "answer") == (not result.findings)
    for finding in result.findings:
        if finding.code != "input_error":
            assert text[finding.start:finding.end] == finding.text
    json.dumps(result.to_dict(), default=str)


@settings(max_examples=40, deadline=None)
@given(text=st.one_of(st.none(), st.integers(), st.binary(max_size=5),
                      st.lists(st.text(max_size=3), max_size=2)))
def test_audit_refuses_text_that_is_not_a_string(text) -> None:
    result = audit(text, {"views": 2380})
    assert result.decision.decision == "refuse"
    assert [f.code for f in result.findings] == ["input_error"]


def test_audit_does_not_raise_on_unknown_locale() -> None:
    result = audit("It had 5 views.", {"views": 5}, locale="xx_XX")
    assert result.decision.decision == "refuse"
    assert [f.code for f in result.findings] == ["input_error"]


def test_audit_does_not_raise_on_a_question_that_is_not_a_string() -> None:
    result = audit('"It had 5 views"', {"views": 5}, question=5)
    assert result.decision.decision in ("answer", "regenerate", "refuse")


# --- (d) a 200 KB adversarial text completes ---------------------------------------------------------

ADVERSARIAL = [
    "1," * 10_000,                       # one long grouping that never closes
    "1." * 10_000,                       # dotted runs (versions, IPs)
    "9" * 20_000,                        # a digit run far past MAX_DIGITS
    '"a b ' * 4_000,                     # quotes that never close
    "「" * 10_000,
    "**1**," * 3_000,                    # emphasis inside a number, repeated
    "&#49;&#44;" * 2_000,                # references that decode to digits and commas
    "1O" * 10_000,                       # capital O between digits
    "一二三四五六七八九十百千万亿" * 1_500,  # Chinese numerals in one run
    "@a" * 10_000,                       # handles glued together
    "twenty-one thousand and a half " * 700,
    "4 of your last 5 rounds " * 900,
    "https://a.example/" + "b/" * 10_000,
    "\u200b1" * 10_000,                  # zero-width characters between digits
    "05/08/2026 " * 2_000,
]


def test_200kb_adversarial_text_completes() -> None:
    text = "".join(ADVERSARIAL)
    text = (text * math.ceil(200_000 / len(text)))[:200_000]
    evidence = {"views": 2380, "note": "1,2 3.4 " * 100, "comments": ["9" * 300]}
    started = time.perf_counter()
    result = audit(text, evidence)
    elapsed = time.perf_counter() - started
    assert len(text) == 200_000
    assert result.decision.decision == "regenerate"
    assert all(text[f.start:f.end] == f.text for f in result.findings)
    assert elapsed < 60, elapsed        # a generous guard against runaway backtracking


# --- URLs are never fetched ------------------------------------------------------------------------

def test_urls_are_never_fetched(monkeypatch) -> None:
    """Rule 9: a link is judged by its text alone; no connection, no name lookup."""
    import socket

    def refuse(*args, **kwargs):
        raise AssertionError(f"the sweep tried to reach the network: {args!r}")

    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)
    evidence = {"post": {"url": "https://threads.example/@mindthread/post/81/"},
                "help": "See https://help.example.com/guide and /insights/posts/42"}
    text = ("Read https://threads.example/@mindthread/post/81, https://help.example.com/guide, "
            "/insights/posts/42, https://evil.example/x?y=1, www.other.example/p and "
            "shop.example.com/p/1.")
    result = audit(text, evidence)
    assert [f.text for f in result.findings] == ["https://evil.example/x?y=1",
                                                 "www.other.example/p", "shop.example.com/p/1"]


# --- the fast paths keep the answers ---------------------------------------------------------------

def test_list_position_behind_many_blanks() -> None:
    """The look back for a line start is done a window at a time: a list item far behind a line
    break is still at the start of its line, and text anywhere before it on the line is not."""
    evidence = {"rounds": [70, 72]}
    at_line_start = "Your rounds:\n" + " " * 300 + "3. best round"
    assert not audit(at_line_start, evidence).findings
    after_words = "Your rounds: see" + " " * 300 + "3. best round"
    assert [f.code for f in audit(after_words, evidence).findings] == ["small_integer"]


def test_context_words_are_read_only_when_asked_for() -> None:
    """A scanned mention reads its context lazily; it then equals one built by hand."""
    import dataclasses

    from rulekit.scan import Mention, scan

    found = scan("Model 3 ships in 3 days")
    assert [(m.before, m.after) for m in found] == [("model", "ships in 3"),
                                                    ("3 ships in", "days")]
    by_hand = Mention(**{f.name: getattr(found[1], f.name) for f in dataclasses.fields(Mention)})
    assert by_hand == found[1] and hash(by_hand) == hash(found[1])
    assert not audit("The BT-3 ships", {"product": "BT-3"}).findings
    assert [f.code for f in audit("The BT-3 ships in 3 days", {"product": "BT-3"}).findings] \
        == ["name_digits"]


# --- an amount keeps its currency --------------------------------------------------------------

# (currency of the evidence, how the answer writes an amount in it, locale)
CURRENCY_NOTATIONS = {
    "USD": [(lambda w, f: f"${grouped(w, ',')}.{f}", "en_US"), (lambda w, f: f"USD {w}.{f}", "en_US")],
    "EUR": [(lambda w, f: f"{grouped(w, '.')},{f} €", "de_DE"), (lambda w, f: f"€{w}.{f}", "en_IE")],
    "GBP": [(lambda w, f: f"£{grouped(w, ',')}.{f}", "en_GB")],
    "CHF": [(lambda w, f: f"CHF {grouped(w, chr(39))}.{f}", "de_CH")],
}


@SETTINGS
@given(cents=st.integers(min_value=1, max_value=10**8).filter(lambda c: c % 100),
       stored=st.sampled_from(sorted(CURRENCY_NOTATIONS)),
       shown=st.sampled_from(sorted(CURRENCY_NOTATIONS)),
       in_cents=st.booleans())
@example(cents=4999, stored="USD", shown="EUR", in_cents=False)
@example(cents=129950, stored="EUR", shown="EUR", in_cents=True)
def test_an_amount_passes_only_in_its_own_currency(cents: int, stored: str, shown: str,
                                                     in_cents: bool) -> None:
    """An amount the evidence holds in one currency (as a decimal, or in cents by the field's
    name) passes in every notation of that currency and is caught in every other one."""
    value = Decimal(cents) / 100
    whole, frac = f"{value:.2f}".split(".")
    order = {"total_cents": cents} if in_cents else {"total": float(value)}
    evidence = {"order": {**order, "currency": stored}}
    _assert_only_in(stored, shown, "Your total was {}.", whole, frac, evidence)


def _assert_only_in(stored: str, shown: str, template: str, whole: str, frac: str,
                    evidence: dict) -> None:
    """The amount written in every notation of ``shown`` passes if it is the ``stored``
    currency, and is caught as an unsupported number otherwise."""
    for write, locale in CURRENCY_NOTATIONS[shown]:
        text = template.format(write(whole, frac))
        if shown == stored:
            _assert_passes(text, evidence, locale)
        else:
            result = audit(text, evidence, locale=locale)
            assert [f.code for f in result.findings] == ["unsupported_number"], (text, locale)


@SETTINGS
@given(cents=st.integers(min_value=1, max_value=10**8).filter(lambda c: c % 100),
       stored=st.sampled_from(sorted(CURRENCY_NOTATIONS)),
       shown=st.sampled_from(sorted(CURRENCY_NOTATIONS)),
       where=st.sampled_from(["root", "order", "store", "field", "name"]))
@example(cents=8999, stored="USD", shown="EUR", where="order")
def test_a_currency_declared_around_an_amount_is_its_own(cents: int, stored: str, shown: str,
                                                         where: str) -> None:
    """A line item's price takes the currency declared around it (by the root, by its order,
    by a settings object beside the orders, by a ``price_currency`` or in its field's name):
    it passes in that currency only."""
    value = float(Decimal(cents) / 100)
    whole, frac = f"{Decimal(cents) / 100:.2f}".split(".")
    item = {"name": "Rain Jacket", "qty": 2, "price": value}
    if where == "field":
        item["price_currency"] = stored
    elif where == "name":
        item = {"name": "Rain Jacket", "qty": 2, f"price_{stored.lower()}": value}
    order = {"id": "A1", "line_items": [item], **({"currency": stored} if where == "order" else {})}
    evidence = {"orders": [order], **({"currency": stored} if where == "root" else {}),
                **({"store": {"name": "Shop", "currency": stored}} if where == "store" else {})}
    _assert_only_in(stored, shown, "The jacket was {}.", whole, frac, evidence)


FALLS = ["Views were down {}.", "Views fell {}.", "Views decreased by {}.", "Views were {} lower.",
         "That is a drop of {} in views.", "Views: ▼{}."]
RISES = ["Views were up {}.", "Views rose {}.", "Views increased by {}.", "Views were {} higher.",
         "That is an increase of {} in views.", "Views: ▲{}."]


@SETTINGS
@given(tenths=st.integers(min_value=1, max_value=9999), negative=st.booleans(),
       percent=st.booleans())
@example(tenths=125, negative=False, percent=True)
def test_a_change_passes_only_in_its_own_direction(tenths: int, negative: bool,
                                                   percent: bool) -> None:
    """A change the evidence holds with its sign passes said with its direction, and is
    caught said with the other."""
    size = Decimal(tenths) / 10
    field = "views_change_pct" if percent else "views_change"
    evidence = {"post": {"views": 123456789, field: float(-size if negative else size)}}
    shown = f"{size}%" if percent else str(size)
    for template in FALLS + RISES:
        text = template.format(shown)
        if (template in FALLS) == negative:
            _assert_passes(text, evidence, "en_US")
        else:
            result = audit(text, evidence, locale="en_US")
            assert [f.code for f in result.findings] == ["unsupported_number"], text


def test_every_direction_word_is_found_by_the_prefilter() -> None:
    """A text is read for directions only if it holds one of ``_TREND_MARKS``: every word and
    arrow ``_trend`` reads must hold one, or it would never be read."""
    from rulekit import sweep

    # ("rate" stands between a figure and its word: "a 25 bps rate increase")
    after = set(re.findall(r"\b[a-z]{2,}\b", sweep._TREND_AFTER.pattern)) - {"u00a0", "fall",
                                                                          "rise", "rate"} \
        - set(re.findall(r"\b[a-z]{2,}\b", sweep._POINT_UNITS))    # "a 25 bp cut": units
    read = (sweep._FALL_BEFORE | sweep._RISE_BEFORE | sweep._FALL_NOUNS | sweep._RISE_NOUNS
            | after | {"lower", "higher"} | set(sweep._FALL_ARROWS + sweep._RISE_ARROWS)
            | set(sweep._FALL_CJK + sweep._RISE_CJK))
    for group in re.findall(r"\(\?P<\w+>([^()]*)\)", sweep._TREND_AFTER_OTHER.pattern):
        read |= set(group.split("|"))
    assert [word for word in read if not sweep._may_trend(word.lower())] == []


# --- rule 12's findings outside the spans already judged ----------------------------------------

@SETTINGS
@given(st.lists(st.tuples(st.integers(0, 40), st.integers(0, 8)), max_size=12),
       st.lists(st.tuples(st.integers(0, 40), st.integers(0, 8)), max_size=12))
def test_not_overlapping_keeps_exactly_the_findings_no_span_overlaps(found, spans):
    from rulekit.sweep import _new_finding, _not_overlapping

    findings = [_new_finding("word_number", "x", None, s, s + n, "unsupported_number", "")
                for s, n in found]
    spans = [(s, s + n) for s, n in spans]
    wanted = [f for f in findings if not any(a < f.end and f.start < b for a, b in spans)]
    assert _not_overlapping(findings, spans) == wanted


@pytest.mark.parametrize("number, shown", [
    (float("inf"), "inf"), (float("-inf"), "-inf"), (float("nan"), "nan"),
    (Decimal("NaN"), "Decimal('NaN')"), (10**400, "a 401-digit number")],
    ids=["inf", "-inf", "nan", "decimal-nan", "401-digits"])
def test_a_number_json_cannot_hold_refuses_the_audit_naming_its_path(number, shown):
    # a non-finite or out-of-range number could back nothing: the audit refuses, naming where
    result = audit("It has 5 views.", {"posts": [{"views": 5}, {"views": number}]})
    assert result.decision.decision == "refuse"
    (finding,) = result.findings
    assert finding.code == "input_error"
    assert f"holds {shown} at $.posts[1].views" in finding.message
    with pytest.raises(EvidenceError, match=r"\$\.posts\[1\]\.views"):
        SweepSettings().index({"posts": [{"views": 1}, {"views": number}]}, "en_US")


def test_a_lookalike_in_mixed_scripts_is_named_so_in_the_message() -> None:
    """A handle, an address or a host whose one word mixes scripts (a Cyrillic ѕ in "@ѕhop")
    is flagged like any other, its message saying which scripts it mixes; a name all in one
    script per word ("пример.рф/reset", "@José_García") says nothing of scripts."""
    from rulekit.audit import audit

    found = audit("Ask @ѕhop, hеlp@shop.example, www.раypal.com/x, @José_García or "
                  "пример.рф/reset.", {"shop": {"handle": "@shop"}}).findings
    assert [f.code for f in found] == ["unsupported_handle", "unsupported_email",
                                       "unsupported_url", "unsupported_handle", "unsupported_url"]
    assert ["mixes Cyrillic and Latin letters" in f.message for f in found] == [
        True, True, True, False, False]


@pytest.mark.parametrize("text", ["11h " + "9" * 4301 + "m", "1h " + "1" * 4301 + " minutes",
                                  "PT" + "1" * 4301 + "H10M"])
def test_a_duration_with_thousands_of_digits_is_audited_not_an_input_error(text):
    """Digits past ``int``'s 4,300 after an hour word are no duration (probe fuzz2 f13)."""
    result = audit(text, {"flight": {"duration": "PT11H10M"}})
    assert not any("cannot be audited" in (f.message or "") for f in result.findings)
