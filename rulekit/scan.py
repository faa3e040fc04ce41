"""Finding every checkable mention in a model's answer, with its span in the ORIGINAL text.

``scan(text, locale)`` returns the numbers, number words, multiples, dates and times, quotes,
@handles, e-mail addresses and URLs a reader would see in ``text``. It makes no judgement about
evidence: another module decides whether each mention is backed. Values are read with
``rulekit.numbers.parse_number`` and ``rulekit.dates.parse_claimed_date``; nothing here re-does
their work.

What the reader sees (``clean``): HTML character references decoded (``&nbsp;``, ``&#8239;``),
NFKC (fullwidth forms), format characters dropped (zero-width spaces and joiners, BOM, bidi
marks, soft hyphens), every no-break or thin space made U+00A0 (the one space that may group
digits in any locale; a plain space groups only in locales that group with a space), digits of
any script read as ASCII digits, Markdown emphasis inside a number dropped (``**1**,299``,
``1,**299**``) and a capital O between digits read as a zero (``1O0``, ``2O26``). ``clean``
returns that text with a map back to the original; every mention's ``start``/``end`` are
original offsets, and ``mention.text == text[start:end]``.

Order of claims: URLs, e-mail addresses and handles first (their digits are theirs), then dates
and clock times (their digits are theirs), then numbers, multiples and number words. Quotes are
found independently: a number inside a quote is still a number, flagged ``quoted``.

Decisions on ambiguous text, each pinned by a case in ``tests/cases/scan/``:

- A lone "one" is a pronoun ("the cheaper one", "one of the best", "no one", "one day") unless
  it is "one of/in/out of N" with N a number, "one to N", or it stands before a unit-like noun
  ("one hour", "one item", "one percent"; ``ONE_NOUNS``). "a"/"an" count only inside "a dozen",
  "a hundred", "a thousand", "a million", "half a dozen", "one and a half". "first" and "second"
  are never read (an adverb and a unit of time far more often than an ordinal); "third" and up
  are ordinals, except after "a"/"one" (a fraction, not read).
- "half" is 0.5 before "of", an article or a possessive ("half the posts", "half of them"), or
  after "by", "in", "than", "about", "nearly", ...; "half as many/much/..." is the multiple 0.5;
  "the first half", "half-hearted" are not numbers. "double"/"triple" are multiples only where
  they compare ("double the average", "nearly double", "doubled", "sales doubled."), not in
  "double room" or "double-check". "N times" is a multiple before a comparative ("3 times
  higher", "three times as many") and a count otherwise ("posted 3 times").
- Chinese numerals need a unit character (十百千万亿) and two characters ("十五", "三百五十",
  "两万"), or a classifier after a single digit other than 一 ("三个", "两天"), or 〇/零 in a
  digit-by-digit number ("二〇二六"). Idioms are not numbers: 千万, 万一, 万万, 一定, 一直, 一些,
  一样, 一起, 十分 (but 十分钟), 百分百, 十万火急, weekdays (星期三, 周一) and others in
  ``CJK_IDIOMS``. 一半 is 0.5 (a computed share); 半 alone (半小时) is not read.
- Clock times ("21:00", "9 pm", "9:30 p.m.", "21 Uhr", "21h30") are kind ``date`` with ``day``
  None, ``time`` set and ``normalized`` "21:00"; a date followed by a time is one ``date``
  mention with both. Dates without a year ("July 29") have ``day`` None and ``normalized``
  "--07-29"; a month and a year ("July 2026") "2026-07". A date that cannot exist (31 February
  2026, a wrong weekday) is still a ``date`` mention, with ``day`` and ``normalized`` None.
- URLs: absolute (http, https, ftp), ``www.`` hosts, hosts without a scheme whose last label is
  a well-known top-level domain (``shop.example.com/p/1``; not ``README.md``, ``app.py``), and
  relative links: a Markdown link target (``[text](/path)``) or a path of two or more segments
  (``/insights/posts/42``). A single-segment ``/help`` in prose is not read as a link.
- Quotes: "...", “...”, „...“, ”...”, «...», »...«, ‹...›, ‘...’, ‚...‘, 「...」, 『...』,
  emitted when the quoted text has at least 2 words or 6 characters after squashing (``squash``:
  no white space, no quote marks, NFKC, casefolded), whatever their length. Quotes of different
  families nest (“He said ‘never again’”: two quotes); within one family the innermost pair
  wins. A quote does not cross a blank line; an unclosed quote is not a mention; a straight "
  right after a digit does not open a quote (12" is an inch mark), nor does ‘ after a letter.
- Handles: ``@`` plus [A-Za-z0-9_.] with at least one letter or underscore, not preceded by a
  character of an e-mail address. A name longer than 30 characters is still a handle (emitted
  whole, so that its digits are never loose numbers).
- ``4K``, ``8K`` (one digit and a capital K) are glued tokens; ``12K``, ``12k``, ``1.5K`` are
  12000, 12000, 1500. ``B`` and ``T`` are billion and trillion only after a currency (``$2B``).
- A digit run longer than 200 characters, or a grouping that long (1,234,234,...), is one
  ``number`` with ``value`` None.
- "1.2.3", "192.168.0.1" (dots only, three runs or more), "555-123-4567" (three runs joined by
  hyphens) and "555-1234" are glued tokens: each run is a number with ``glued`` set and the
  whole as ``token``. Digits touching letters (RC-500, 500ml, COVID-19, Q3) are ``glued`` too,
  with the word-like token around them; "Model 3" is not (the word is only context).
- Ordinals: 1st, 2nd, 3rd, #3, No. 3, Nr. 3, 第3, 第三, "third" (not "no 3": a determiner).
- "May" and "March" are months only when capitalised ("you may 5" is not a date).
- Ranges "10-12", "10–12", "10 to 12", "between 10 and 12": two mentions linked by
  ``range_with``; a percent sign, a currency, a scale or a multiple written on one end applies
  to the other ("10-12%", "$10-12", "1-2 million", "2-3x").

``before``/``after`` are up to three words of the cleaned text around the mention (around the
whole token for glued digits), without the punctuation around them, lower-cased; in CJK text a
character counts as half a word.

Linear time: the text is read in a few passes, each a pattern that starts with a literal or a
character class (so ``re`` skips positions that cannot start a match) or is anchored at a
position found by such a pass; no pattern can backtrack over more than a bounded window; look
backwards (the month before "29", the local part of an e-mail address) matches a reversed
window of bounded size. Dates, times and numbers are all read in one pass over the runs of
digits. The work per mention is constant, so a text made only of mentions costs a constant
per mention (see benchmarks/bench_scan.py). Patterns are compiled at import; per-locale data
(month and weekday names, grouping) are built once per locale and cached.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import html
import itertools
import re
import unicodedata
from decimal import Decimal
from types import MappingProxyType
from typing import Iterable, Mapping

from babel import Locale
from babel.core import UnknownLocaleError
from babel.dates import get_day_names, get_month_names
from babel.numbers import get_group_symbol, list_currencies

from rulekit.dates import ClaimedDate, parse_claimed_date
from rulekit.numbers import parse_number

__all__ = ["CJK_IDIOMS", "KINDS", "ONE_NOUNS", "Mention", "clean", "scan", "squash"]

KINDS = ("number", "word_number", "multiple", "date", "quote", "handle", "email", "url")

# A digit run longer than this has no value (see the module docstring).
MAX_DIGITS = 200


@dataclasses.dataclass(frozen=True, slots=True)
class Mention:
    """One checkable thing in the text. ``text == original[start:end]``."""
    kind: str
    text: str
    start: int
    end: int
    value: Decimal | None = None
    decimals: int = 0
    scaled: bool = False
    percent: bool = False
    currency: str | None = None
    sign: str | None = None
    range_with: int | None = None
    day: dt.date | None = None
    normalized: str | None = None
    token: str = ""
    glued: bool = False
    before: str = ""
    after: str = ""
    ordinal: bool = False
    # Added beyond the brief's list:
    scale: int = 1                  # what the written digits were multiplied by: 1000 for 12k
    time: dt.time | None = None     # date mentions with a clock time
    quoted: bool = False            # inside a quote mention


# --- cleaning: the text the reader sees -------------------------------------------------------

# Every Cf character (checked against unicodedata in the tests), the soft hyphen among them.
_FORMAT_CHARS = ("\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f"
                 "\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd"
                 "\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
                 "\U000e0001\U000e0020-\U000e007f")
_GROUP_SPACES = "\u00a0\u2007\u2008\u2009\u200a\u202f"
_NBSP = "\u00a0"
_SEPARATORS = ".,'\u00a0\u2019\u02bc\u066b\u066c"
_SIGNS = "+-\u2212"

# Pass 1 changes only HTML character references and runs of non-ASCII characters (a run that
# starts with a combining mark takes the character before it along).
_REFERENCE = re.compile(r"&(?:#[0-9]{1,7};?|#[xX][0-9a-fA-F]{1,6};?|[A-Za-z][A-Za-z0-9]{1,31};)")
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")
_NEEDS_WORK = re.compile(rf"[\d{_FORMAT_CHARS}{_GROUP_SPACES}]")
# Pass 2, on digits already ASCII: Markdown emphasis next to a separator, a sign or a currency
# sign inside a number (**1**,299, 1,**299**, -**5**), and a capital O between digits.
_EMPHASIS = re.compile(rf"[0-9](?:([*_]{{1,3}})[{_SEPARATORS}]([*_]{{0,3}})"
                       rf"|[{_SEPARATORS}]([*_]{{1,3}}))(?=[0-9])")
_SIGN_EMPHASIS = re.compile(r"[+\-\u2212$\u00a3\u00a5\u20ac\u20b9]([*_]{1,3})(?=[0-9])")
_DIGIT_O = re.compile(r"[0-9](O+)(?=[0-9])")

_CHAR_CACHE: dict[str, str] = {}


def _char(char: str) -> str:
    """What one character (or one character with its combining marks) reads as."""
    out = _CHAR_CACHE.get(char)
    if out is None:
        if len(char) > 1:
            out = "".join(_one_char(c) for c in unicodedata.normalize("NFKC", char))
        else:
            out = _one_char(char)
        if len(_CHAR_CACHE) < 65536:
            _CHAR_CACHE[char] = out
    return out


def _one_char(char: str) -> str:
    if char in _GROUP_SPACES:
        return _NBSP
    if unicodedata.category(char) == "Cf":
        return ""
    digit = unicodedata.decimal(char, None)
    if digit is not None:
        return str(digit)
    out = unicodedata.normalize("NFKC", char)
    if out != char and not out.isascii():
        out = "".join(c if c == char else _one_char(c) for c in out)
    return out


class _Text:
    """The cleaned text and its map back: cleaned index i comes from original[starts[i]:end],
    where end is ``ends[i]`` for a character produced from a longer chunk (an entity, a
    fullwidth form) and ``starts[i] + 1`` otherwise."""
    __slots__ = ("original", "text", "starts", "ends")

    def __init__(self, original: str, text: str, starts, ends: dict[int, int]):
        self.original, self.text, self.starts, self.ends = original, text, starts, ends

    def span(self, start: int, end: int) -> tuple[int, int]:
        last = end - 1
        return self.starts[start], self.ends.get(last, self.starts[last] + 1)


def _prepare(text: str) -> _Text:
    cleaned, starts, ends = _pass1(text)
    edits = []
    if "*" in cleaned or "_" in cleaned:
        for match in _EMPHASIS.finditer(cleaned):
            edits.extend((match.start(g), match.end(g), "") for g in (1, 2, 3) if match.group(g))
        edits.extend((m.start(1), m.end(1), "") for m in _SIGN_EMPHASIS.finditer(cleaned))
    if "O" in cleaned:
        edits.extend((m.start(1), m.end(1), "0" * len(m.group(1)))
                     for m in _DIGIT_O.finditer(cleaned))
    if edits:
        edits.sort()
        cleaned, starts, ends = _apply(cleaned, starts, ends, edits)
    return _Text(text, cleaned, starts, ends)


def _pass1(text: str):
    ascii_text = text.isascii()
    references = "&" in text and _REFERENCE.search(text) is not None
    if ascii_text and not references:
        return text, range(len(text)), {}
    if not references:
        fast = _translate(text)
        if fast is not None:
            return fast
    sites: list[tuple[int, int]] = []
    if "&" in text:
        sites.extend(m.span() for m in _REFERENCE.finditer(text))
    if not ascii_text:
        for match in _NON_ASCII.finditer(text):
            a, b = match.span()
            if a and unicodedata.combining(text[a]):
                a -= 1                      # e + U+0301 is é
            sites.append((a, b))
        sites.sort()
    pieces: list[str] = []
    starts: list[int] = []
    ends: dict[int, int] = {}
    size = pos = 0
    for a, b in sites:
        if a < pos:                         # a reference inside a non-ASCII run: already done
            continue
        if a > pos:
            pieces.append(text[pos:a])
            starts.extend(range(pos, a))
            size += a - pos
        pos = b
        found = text[a:b]
        if found[0] == "&":
            out = _unescape(found)
            if out != found:
                pieces.append(out)
                starts.extend([a] * len(out))
                ends.update(dict.fromkeys(range(size, size + len(out)), b))
                size += len(out)
                continue
        elif not unicodedata.is_normalized("NFKC", found) or _NEEDS_WORK.search(found):
            i, n = 0, len(found)
            while i < n:
                j = i + 1
                while j < n and unicodedata.combining(found[j]):
                    j += 1
                piece = found[i:j]
                out = _char(piece)
                if out == piece:
                    pieces.append(piece)
                    starts.extend(range(a + i, a + j))
                    size += j - i
                else:
                    pieces.append(out)
                    starts.extend([a + i] * len(out))
                    ends.update(dict.fromkeys(range(size, size + len(out)), a + j))
                    size += len(out)
                i = j
            continue
        pieces.append(found)
        starts.extend(range(a, b))
        size += b - a
    if pos < len(text):
        pieces.append(text[pos:])
        starts.extend(range(pos, len(text)))
    return "".join(pieces), starts, ends


def _translate(text: str):
    """Pass 1 for a text whose non-ASCII characters each read as at most one character (no
    expansion such as ﬁ -> fi, no combining marks): one ``str.translate``, and a map that is
    the identity or skips the dropped characters. None when the text needs the general path."""
    table: dict[int, str] = {}
    dropped: set[str] = set()
    chars = set(text)
    for char in chars:
        if char.isascii():
            continue
        out = _char(char)
        if len(out) > 1 or unicodedata.combining(char):
            return None
        if out != char:
            table[ord(char)] = out
            if not out:
                dropped.add(char)
    if not table:
        return text, range(len(text)), {}
    cleaned = text.translate(table)
    if not dropped:
        return cleaned, range(len(text)), {}
    keep = {ord(char): "\x00" if char in dropped else "\x01" for char in chars}
    return cleaned, list(itertools.compress(range(len(text)),
                                            text.translate(keep).encode("latin-1"))), {}


@functools.lru_cache(maxsize=1024)
def _unescape(reference: str) -> str:
    """An HTML character reference as the reader sees it (cleaned), or itself when unknown."""
    out = html.unescape(reference)
    return reference if out == reference else "".join(_char(c) for c in out)


def _apply(text: str, starts, ends: dict[int, int], edits):
    """Apply sorted, non-overlapping (start, end, replacement) edits whose replacement is empty
    or of the same length, keeping the map."""
    pieces, new_starts, new_ends = [], [], {}
    keys = sorted(ends)
    key_at = removed = pos = 0
    for a, b, replacement in edits + [(len(text), len(text), "")]:
        if a < pos:
            continue
        pieces.append(text[pos:a])
        new_starts.extend(starts[pos:a])
        if replacement:
            pieces.append(replacement)
            new_starts.extend(starts[a:b])
        limit = b if replacement else a
        while key_at < len(keys) and keys[key_at] < limit:
            new_ends[keys[key_at] - removed] = ends[keys[key_at]]
            key_at += 1
        while key_at < len(keys) and keys[key_at] < b:
            key_at += 1
        if not replacement:
            removed += b - a
        pos = b
    return "".join(pieces), new_starts, new_ends


def clean(text: str) -> tuple[str, list[int]]:
    """The text a reader sees, and for each of its characters the index in ``text`` it comes
    from, plus ``len(text)`` at the end (so ``len(map) == len(cleaned) + 1``). Monotonic."""
    prepared = _prepare(text)
    return prepared.text, list(prepared.starts) + [len(text)]


_QUOTE_MARKS = ("\"'\u2018\u2019\u201a\u201c\u201d\u201e\u00ab\u00bb\u2039\u203a"
                "\u300c\u300d\u300e\u300f")
_SQUASH = re.compile(rf"[\s{_QUOTE_MARKS}]+")


def squash(text: str) -> str:
    """Quoted text as it is compared: cleaned like ``clean``, casefolded, NFKC, without white
    space and quote marks. Evidence must be squashed with this same function."""
    return _squash_clean(_prepare(text).text)


def _squash_clean(cleaned: str) -> str:
    return _SQUASH.sub("", unicodedata.normalize("NFKC", cleaned.casefold()))


# --- vocabulary -------------------------------------------------------------------------------

def _trie(words: Iterable[str], guard: str | None = None) -> str:
    """A regex alternation of literal words built as a trie. With ``guard`` (a character class),
    each word must not follow a character of it, checked by a look-behind placed after the
    first letter: the pattern then starts with a set of literals, which lets ``re`` skip every
    position whose character cannot start a word."""
    root: dict = {}
    for word in words:
        node = root
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def build(node: dict, top: bool) -> str:
        branches = []
        for char, child in sorted(node.items()):
            if char:
                head = re.escape(char)
                if top and guard:
                    head += f"(?<!{guard}{re.escape(char)})"
                branches.append(head + build(child, False))
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body

    return build(root, True)


_WORD_GUARD = r"[\w\u2010-]"
_EN_UNITS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
             "seven": 7, "eight": 8, "nine": 9}
_EN_TEENS = {"ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
             "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19}
_EN_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
            "eighty": 80, "ninety": 90}
_EN_SCALES = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12}
_EN_ORDINAL_UNITS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
                     "seventh": 7, "eighth": 8, "ninth": 9}
_EN_ORDINALS = {"third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
                "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13,
                "fourteenth": 14, "fifteenth": 15, "sixteenth": 16, "seventeenth": 17,
                "eighteenth": 18, "nineteenth": 19, "twentieth": 20, "thirtieth": 30,
                "fortieth": 40, "fiftieth": 50, "sixtieth": 60, "seventieth": 70, "eightieth": 80,
                "ninetieth": 90, "hundredth": 100, "thousandth": 1000}
# "twenty-one" -> (21, False), "twenty-first" -> (21, True)
_EN_COMPOUNDS = {f"{tens}{dash}{unit}": (tv + uv, unit in _EN_ORDINAL_UNITS)
                 for tens, tv in _EN_TENS.items() for dash in "-\u2010"
                 for unit, uv in [*((u, v) for u, v in _EN_UNITS.items() if v),
                                  *_EN_ORDINAL_UNITS.items()]}
_EN_NUMBER_WORDS = (set(_EN_UNITS) | set(_EN_TEENS) | set(_EN_TENS) | set(_EN_SCALES)
                    | set(_EN_ORDINALS) | set(_EN_COMPOUNDS) | {"hundred", "dozen"})
_EN_MULTIPLES = {"twice": 2, "halved": 0.5, "halving": 0.5, "doubled": 2, "doubling": 2,
                 "tripled": 3, "tripling": 3, "quadrupled": 4, "quadrupling": 4, "double": 2,
                 "triple": 3, "quadruple": 4, "half": 0.5}
_EN_MULTIPLES.update({f"{word}{dash}fold": value
                      for word, value in [*_EN_UNITS.items(), *_EN_TEENS.items(),
                                          *_EN_TENS.items(), ("hundred", 100), ("thousand", 1000)]
                      if value > 1 for dash in ("", "-", "\u2010")})

# Nouns before which a lone "one" is the number 1 (see the module docstring).
ONE_NOUNS = frozenset("""
    percent per cent dollar euro pound yen yuan rupee franc cent penny
    second minute hour week month year night weekend quarter
    item unit piece order post view like follower comment customer user person
    star review point round hole shot stroke page product sale purchase return refund
    package parcel box bottle pack size share click visit visitor subscriber reply message
    kilogram kilo gram litre liter metre meter mile kilometre kilometer inch foot
""".split())
_PRONOUN_BEFORE = frozenset("no every any some each which this that the a another such "
                            "only last one".split())
_DOUBLE_NEXT = frozenset("the that what its their your our his her this last my in as from since "
                         "compared or than".split())
_DOUBLE_PREV = frozenset("almost nearly roughly about around over more than is was were are be "
                         "been to will would could can did does do approximately exactly "
                         "basically effectively".split())
_HALF_NEXT = frozenset("of the a an your their its our his her my that those these all what "
                       "this".split())
_HALF_PREV = frozenset("by in than about nearly almost over under roughly around just only "
                       "exactly cut".split())
_HALF_NOT_PREV = frozenset("first second last other latter former top bottom upper lower "
                           "back front".split())
_HALF_AS = re.compile(r"[ \t\u00a0]+as[ \t\u00a0]+(?:many|much|often|long|large|big|high|fast|"
                      r"expensive|cheap|likely|well|good|bad|quickly|far)(?![\w-])")
_COMPARATIVES = ("more|less|fewer|higher|lower|larger|smaller|bigger|greater|faster|slower|"
                 "better|worse|longer|shorter|cheaper|as|the|what|that|over")

# Chinese idioms and words whose number characters are not numbers. Those made only of number
# characters must not touch another number character (三千万 is 30 million, not 三 + 千万).
CJK_IDIOMS = (
    "千万", "千萬", "万一", "萬一", "万万", "萬萬", "千千万万", "千千萬萬", "百分百", "百分之百",
    "十万火急", "十萬火急", "一定", "一直", "一些", "一样", "一樣", "一起", "一下", "一点", "一點",
    "一般", "一切", "一旦", "一致", "一共", "一边", "一邊", "一会", "一會", "一再", "一向", "一如",
    "统一", "統一", "唯一", "万分", "萬分", "一成不变", "一成不變", "三心二意", "一心一意",
    "七上八下", "乱七八糟", "亂七八糟", "不管三七二十一", "一石二鸟", "一石二鳥", "四面八方",
    "五花八门", "五花八門", "九死一生", "千方百计", "千方百計", "百发百中", "百發百中", "一模一样",
    "一模一樣", "一清二楚", "独一无二", "獨一無二", "十全十美", "成千上万", "成千上萬", "万无一失",
    "萬無一失", "一举两得", "一舉兩得", "十有八九", "千载难逢", "千載難逢", "九牛一毛", "一五一十",
    "三番五次", "五湖四海", "万众一心", "萬眾一心", "一帆风顺", "一帆風順", "千钧一发", "千鈞一髮",
    "一目了然", "一路顺风", "一路順風", "百闻不如一见", "百聞不如一見", "十字", "万岁", "萬歲",
    "万能", "萬能", "百货", "百貨", "百姓", "千克", "千米", "第一时间", "第一時間",
)
_CJK_NUMERALS = "零〇一二两兩三四五六七八九壹贰貳叁參肆伍陆陸柒捌玖十拾百佰千仟万萬亿億"
_CJK_DIGIT = {"零": 0, "〇": 0, "一": 1, "壹": 1, "二": 2, "贰": 2, "貳": 2, "两": 2, "兩": 2,
              "三": 3, "叁": 3, "參": 3, "四": 4, "肆": 4, "五": 5, "伍": 5, "六": 6, "陆": 6,
              "陸": 6, "七": 7, "柒": 7, "八": 8, "捌": 8, "九": 9, "玖": 9}
_CJK_SMALL = {"十": 10, "拾": 10, "百": 100, "佰": 100, "千": 1000, "仟": 1000}
_CJK_BIG = {"万": 10**4, "萬": 10**4, "亿": 10**8, "億": 10**8}
_CJK_CLASSIFIERS = frozenset("个個次条條篇位名天周週年件张張本人家台辆輛部只隻份层層分秒倍项項款")
_CJK_CHENG_NOT = frozenset("功为為立本员員绩績果交熟长長就人都")
_PURE_IDIOMS = [i for i in CJK_IDIOMS if all(c in _CJK_NUMERALS for c in i)]
_CJK_IDIOM = re.compile(
    rf"(?<![{_CJK_NUMERALS}])(?:{_trie(_PURE_IDIOMS)})(?![{_CJK_NUMERALS}])"
    rf"|(?:{_trie(i for i in CJK_IDIOMS if i not in _PURE_IDIOMS)})"
    r"|十分(?![钟鐘])|(?:星期|礼拜|禮拜|周|週)[一二三四五六日天]")
_CJK_ANY = re.compile(rf"[{_CJK_NUMERALS}翻]")
_CJK_RUN = re.compile(rf"[{_CJK_NUMERALS}]+")
_CJK_PERCENT = re.compile(rf"百分之([{_CJK_NUMERALS}]+)")
_CJK_DOUBLING = re.compile(r"翻了?([一二两兩三四])番|翻倍|加倍|翻番")
_CJK_HALF = re.compile(r"一半")

# ISO codes that are also English words, never read as a currency.
_NOT_CURRENCY = frozenset("ALL TOP CUP PEN MOP SOS BAM MAD TRY GEL BOB DOP NIO LAK ANG".split())


@functools.lru_cache(maxsize=4096)
def _claimed(text: str, locale: str) -> ClaimedDate | None:
    """parse_claimed_date, cached: answers repeat their dates."""
    return parse_claimed_date(text, locale)


@functools.lru_cache(maxsize=1)
def _iso_codes() -> frozenset[str]:
    return frozenset(list_currencies()) - _NOT_CURRENCY


@functools.lru_cache(maxsize=1024)
def _currency_for(symbol: str, locale: str) -> str | None:
    """The ISO code a currency symbol names in ``locale``, as ``parse_number`` resolves it."""
    if len(symbol) == 3 and symbol.isupper():
        return symbol
    parsed = parse_number(f"{symbol.rstrip('.')}1", locale)
    return None if parsed is None else parsed.currency


_CURRENCY_WORDS = {"dollar": "$", "dollars": "$", "euro": "EUR", "euros": "EUR", "yen": "JPY",
                   "yuan": "CNY", "rupee": "INR", "rupees": "INR", "元": "CNY", "块": "CNY",
                   "塊": "CNY", "円": "JPY", "원": "KRW"}
_SCALES = {"k": 10**3, "K": 10**3, "M": 10**6, "MM": 10**6, "mn": 10**6, "Mio": 10**6,
           "bn": 10**9, "B": 10**9, "Mrd": 10**9, "Md": 10**9, "tn": 10**12, "T": 10**12,
           "thousand": 10**3, "tausend": 10**3, "mille": 10**3, "million": 10**6,
           "millions": 10**6, "millionen": 10**6, "billion": 10**9, "milliard": 10**9,
           "milliards": 10**9, "milliarde": 10**9, "milliarden": 10**9, "trillion": 10**12,
           "billionen": 10**12, "lakh": 10**5, "lakhs": 10**5, "crore": 10**7, "crores": 10**7}


# --- per-locale data --------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class _LocaleInfo:
    locale: str
    language: str
    core: re.Pattern            # the digits and separators of one number, at a digit
    day_month: re.Pattern       # 29 July 2026, 29th of July, 29. Juli: at the day
    day_prefix: re.Pattern      # "the", a weekday: reversed, before the day
    month_before: re.Pattern    # July 29 / July 2026: reversed, the month before the digits
    months: Mapping[str, int]
    month_keys: frozenset[str]  # the month names as they look in ASCII-lower-cased text
    billion: int


_CURRENCY_SIGNS = ("$\u00a2-\u00a5\u058f\u060b\u07fe\u07ff\u09f2\u09f3\u09fb\u0af1\u0bf9\u0e3f"
                   "\u17db\u20a0-\u20c0\ua838\ufdfc")
_CORE = re.compile(rf"[0-9]+(?:[{_SEPARATORS}][0-9]+)*")
_CORE_SPACED = re.compile(rf"[0-9]+(?:[{_SEPARATORS} ][0-9]+)*")
_VERB_MONTHS = frozenset(("may", "march", "mar"))
_LONG_SCALE = frozenset("de fr es it nl pt pl sv da nb fi cs".split())
_SPACE = r"[ \t\u00a0]"


def _name_key(name: str) -> str:
    return unicodedata.normalize("NFKC", name).casefold().rstrip(".")


@functools.lru_cache(maxsize=64)
def _locale_info(locale: str) -> _LocaleInfo:
    try:
        parsed = Locale.parse(str(locale).replace("-", "_"))
    except (UnknownLocaleError, ValueError, TypeError) as error:
        raise ValueError(f"unknown locale {locale!r}") from error
    spaced = unicodedata.normalize("NFKC", get_group_symbol(parsed)).isspace()
    months: dict[str, int] = {}
    weekdays: set[str] = set()
    for source in ("en", parsed):
        for width in ("wide", "abbreviated"):
            for context in ("format", "stand-alone"):
                for number, name in get_month_names(width, context, source).items():
                    months.setdefault(_name_key(name), number)
                weekdays.update(_name_key(name)
                                for name in get_day_names(width, context, source).values())
    months.setdefault("sept", 9)
    months = {name: number for name, number in months.items() if name and "." not in name}
    weekdays = {name for name in weekdays if name and "." not in name}
    month = _trie(sorted(months))
    reversed_month = _trie(sorted(name[::-1] for name in months))
    reversed_weekday = _trie(sorted(name[::-1] for name in weekdays))
    return _LocaleInfo(
        locale=str(locale), language=parsed.language,
        core=_CORE_SPACED if spaced else _CORE,
        day_month=re.compile(
            rf"(?i)[0-9]{{1,2}}(?:st|nd|rd|th|er|\.)?{_SPACE}+(?:of{_SPACE}+)?(?P<m>{month})"
            rf"(?:\.?,?{_SPACE}+(?P<y>[0-9]{{4}})(?![0-9]))?(?![\w])"),
        day_prefix=re.compile(
            rf"(?i)(?:{_SPACE}+eht)?(?:{_SPACE}+,?\.?(?:{reversed_weekday}))?(?![\w])"),
        month_before=re.compile(
            rf"(?i){_SPACE}+\.?(?P<m>{reversed_month})"
            rf"(?:{_SPACE}+,?\.?(?:{reversed_weekday}))?(?![\w])"),
        months=MappingProxyType(months), month_keys=frozenset(_ascii_lower(m) for m in months)
        | frozenset(m.lower() for m in months),
        billion=10**12 if parsed.language in _LONG_SCALE else 10**9)


# --- patterns ---------------------------------------------------------------------------------

_DIGITS = re.compile(r"[0-9]+")
_URL_CHARS = r"[^\s<>\"`{}|\\^\[\]（）【】「」『』，。！？、“”‘’«»]"
_ABSOLUTE_URL = re.compile(rf"(?i)(?:https?|ftp)://{_URL_CHARS}+")
_WWW_URL = re.compile(rf"www\.[a-z0-9-]+(?:\.[a-z0-9-]+)+(?::[0-9]{{1,5}})?"
                      rf"(?:[/?#]{_URL_CHARS}*)?")
_MD_LINK = re.compile(r"\]\((/[^\s()<>]*)\)")
_TLDS = frozenset("""
    com org net edu gov mil int io co ai app dev shop store info biz me tv us uk de fr es it nl
    ch at be eu ca au jp cn in br ru se no dk fi pl cz ie nz kr tw hk sg mx ar za online site
    tech xyz blog news cloud ly gl gg to fm page link live life world today email vn th id
    my ph pt gr hu ro tr il ae sa ua sk si hr bg lt lv ee is lu li mc
""".split())
_TLD_HIT = re.compile(rf"\.(?:{_trie(_TLDS)})(?![A-Za-z0-9-])")
_HOST_REVERSED = re.compile(r"[a-z0-9-]+(?:\.[a-z0-9-]+)*")
_URL_TAIL = re.compile(rf"(?::[0-9]{{1,5}})?(?:[/?#]{_URL_CHARS}*)?")
_RELATIVE = re.compile(rf"/(?<![\w/.:~\-)\]]/)(?:[A-Za-z0-9_~%+.\-]+/)+[A-Za-z0-9_~%+.\-]*"
                       rf"(?:[?#]{_URL_CHARS}*)?")
_LOCAL_REVERSED = re.compile(r"[A-Za-z0-9._%+\-]{1,64}")
_DOMAIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]*(?:\.[A-Za-z0-9-]+)+")
_EMAIL_AT = re.compile(r"@(?<=[A-Za-z0-9._%+\-]@)(?=[A-Za-z0-9][A-Za-z0-9-]*\.[A-Za-z0-9])")
_HANDLE = re.compile(r"@(?<![A-Za-z0-9._%+\-@/:]@)([A-Za-z0-9_.]+)")
_URL_TRAILING = ".,;:!?'\"*_~"

# Dates and times, each matched at the first digit of a run.
_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}"
                       r"(?:[T ][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:[.,][0-9]{1,9})?)?"
                       r"(?:Z|[+-][0-9]{2}(?::?[0-9]{2})?)?)?(?![0-9A-Za-z])")
_NUMERIC_DATE = re.compile(r"[0-9]{1,4}([./-])[0-9]{1,2}\1[0-9]{2,4}(?![0-9A-Za-z]|[.,/-][0-9])")
_EAST_ASIAN_DATE = re.compile(r"(?:([0-9]{4})\s?[年년]\s?)?([0-9]{1,2})\s?[月월]"
                              r"(?:\s?([0-9]{1,2})\s?[日号號일])?")
_CLOCK = re.compile(r"([01]?[0-9]|2[0-3]):([0-5][0-9])(?::([0-5][0-9]))?"
                    r"(?:\s?(?:([AaPp])\.\s?[Mm]\.|([AaPp])[Mm])(?![A-Za-z])|\s?Uhr(?![\w]))?"
                    r"(?![0-9]|[:.,][0-9])")
_AMPM = re.compile(r"(1[0-2]|0?[1-9])\s?(?:([AaPp])\.\s?[Mm]\.|([AaPp])[Mm](?![A-Za-z]))")
_UHR = re.compile(r"([01]?[0-9]|2[0-3])(?:\s?Uhr(?![\w])|\s?h\s?([0-5][0-9])(?![0-9]))")
_TIME_AFTER = re.compile(r"(?i)(?:,?\s(?:at\s|um\s|à\s|om\s|kl\.?\s)?|T)(?=[0-9])")
_DAY_NEXT = frozenset(" \t\u00a0.sntre")        # what may follow the day of "29 July"
_AMPM_NEXT = frozenset("aApP")
_DAY_AFTER_MONTH = re.compile(r"(?:(?P<d>[0-9]{1,2})(?![0-9])(?:st|nd|rd|th)?"
                              rf"(?:,?{_SPACE}+(?P<y>[0-9]{{4}})(?![0-9]))?"
                              r"|(?P<y3>[0-9]{4})(?![0-9]))(?![\w])")

# Around a number.
_CURRENCY_BEFORE = re.compile(
    rf"((?:US|CA|AU|NZ|HK|NT|SG|MX|R|A|C|S)?\$|[{_CURRENCY_SIGNS}]"
    r"|(?<![A-Za-z])(?:[A-Z]{3}|Rs\.?|kr\.?|zł))[ \u00a0]?\Z")
_PREFIX_LAST = frozenset(_SIGNS + "$.\u00a2\u00a3\u00a4\u00a5\u20ac\u20b9\u20a9\u20bd\u20ba"
                         "\u20aa\u0e3f\u20ab\u20b1\u20a6\u20b4\u20b8\u20b2\u20b5srł"
                         "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_ORDINAL_BEFORE = re.compile(r"(?:#|(?<![A-Za-z])(?:No\.?|NO\.?|no\.|[Nn]r\.?|[Nn]°)[ \u00a0]?|第)\Z")
_CJK_SCALE = re.compile(r"[ \u00a0]?([十百千]?[万萬]|[十百千]?[亿億]|千(?![米克瓦卡]))")
_CJK_REST = re.compile(r"[0-9]+(?:\.[0-9]+)?(?=[万萬])|[0-9]{1,4}(?![0-9.,])")
_SUFFIX = re.compile(
    r"(?:(?P<sx>k|K|MM|M|bn|mn|tn|B|T)(?![A-Za-z0-9])"
    r"|[ \u00a0]?(?P<sx2>bn|tn|Mio|Mrd|Md)\.?(?![A-Za-z0-9])"
    r"|[ \u00a0]+(?i:(?P<sw>thousand|million|billion|trillion|lakhs?|crores?|tausend|millionen|"
    r"milliarden?|billionen|millions|milliards?|mille))(?![\w-]))?"
    r"(?:(?P<pct>[ \u00a0]?[%\u066a]|[ \u00a0]+(?i:percent(?!age)|per[ \u00a0]?cent|pct|prozent|"
    r"pour[ \u00a0]?cent|por[ \u00a0]?ciento|per[ \u00a0]?cento)(?![\w]))"
    rf"|[ \u00a0]?(?P<cur>[{_CURRENCY_SIGNS}]|(?P<iso>[A-Z]{{3}})(?![A-Za-z])"
    r"|(?:kr|zł|Kč|Ft|lei)\.?(?![A-Za-z])|[元円块塊원])"
    r"|[ \u00a0]+(?P<curw>(?i:dollars?|euros?|yen|yuan|rupees?))(?![\w]))?"
    r"(?P<mult>[ \u00a0]?[x×X](?![A-Za-z0-9\-])(?![ \u00a0]?[0-9])|[ \u00a0]?倍"
    r"|(?i:[-\u2010]?fold)(?![\w])"
    rf"|[ \u00a0]+(?i:times)(?=[ \u00a0]+(?i:{_COMPARATIVES})\b))?")
# The characters a suffix can start with (after at most one space).
_SUFFIX_FIRST = frozenset("kKMBTbmtlLcCpPdDeEyYrRxX×%\u066a-\u2010fF倍元円块塊원zZ"
                          "ABCDEFGHIJKLMNOPQRSTUVWXYZ$\u00a2\u00a3\u00a4\u00a5\u058f\u060b"
                          "\u07fe\u07ff\u09f2\u09f3\u09fb\u0af1\u0bf9\u0e3f\u17db\ua838\ufdfc"
                          + "".join(chr(c) for c in range(0x20A0, 0x20C1)))
_ORDINAL_SUFFIX = re.compile(r"(?:st|nd|rd|th)(?![A-Za-z])")
_WORD_SUFFIX = re.compile(
    r"(?P<pct>[ \u00a0]?%|[ \u00a0]+(?i:percent(?!age)|per[ \u00a0]?cent|prozent)(?![\w]))"
    rf"|(?P<times>[ \u00a0]+(?i:times)(?=[ \u00a0]+(?i:{_COMPARATIVES})\b))"
    r"|[ \u00a0]+(?P<curw>(?i:dollars?|euros?|yen|yuan|rupees?))(?![\w])")
_RANGE_GAP = re.compile(r"(?i)[ \u00a0]?[-\u2010\u2013\u2014~\u301c][ \u00a0]?"
                        r"|[ \u00a0]+(?:to|through|thru|bis|à|au|tot|till|until)[ \u00a0]+"
                        r"|[ \u00a0]?[至到][ \u00a0]?")

# Words, matched in the ASCII-lower-cased text.
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_EN_NUM = _trie(sorted(_EN_NUMBER_WORDS), _WORD_GUARD)
_EN_SPAN = re.compile(rf"{_EN_NUM}(?:[ \t\u00a0]+(?:and[ \t\u00a0]+)?(?:an?[ \t\u00a0]+)?"
                      rf"(?:{_trie(sorted(_EN_NUMBER_WORDS | {'half'}))}))*(?![\w\u2010-])")
_EN_TOKEN = re.compile(r"[a-z]+(?:[-\u2010][a-z]+)?")
_EN_MULTIPLE = re.compile(rf"{_trie(sorted(_EN_MULTIPLES), _WORD_GUARD)}(?![\w\u2010-])")
_ARTICLE_BEFORE = re.compile(r"[ \t\u00a0]+(?:a|na)(?:[ \t\u00a0]+flah)?(?![\w-])")
_DE_WORD = re.compile(_trie(["ein", "zwei", "drei", "vier", "fünf", "sechs", "sieb", "acht",
                             "neun", "zehn", "elf", "zwölf", "zwanzig", "dreißig", "hundert",
                             "tausend"], _WORD_GUARD) + r"[a-zäöüß]{0,57}(?![\w-])")
_DE_SCALE = re.compile(r"(?i)[ \u00a0]+(millionen|million|milliarden|milliarde|mio|mrd)\.?(?![\w])")

_BLANK_LINE = re.compile(r"\n[ \t\r\u00a0]*\n")
# (opening marks, the pattern of a pair), one per family of marks. A straight quote right
# after a digit does not open (12" is an inch mark); ‘ right after a letter does not either.
_QUOTE_PATTERNS = tuple((marks, re.compile(pattern)) for marks, pattern in (
    ('"', r'"(?<![0-9]")[^"]*"'),
    ("\u201c", r"\u201c[^\u201c\u201d]*\u201d"),                       # “…”
    ("\u201e", r"\u201e[^\u201e\u201c\u201d]*[\u201c\u201d]"),             # „…“ „…”
    ("\u201d", r"\u201d[^\u201c\u201d\u201e]*\u201d"),                 # ”…” (Swedish)
    ("\u00ab\u00bb", r"\u00ab[^\u00ab\u00bb]*\u00bb|\u00bb[^\u00ab\u00bb]*\u00ab"),   # «…» »…«
    ("\u2039\u203a", r"\u2039[^\u2039\u203a]*\u203a|\u203a[^\u2039\u203a]*\u2039"),   # ‹…› ›…‹
    ("\u300c", r"\u300c[^\u300c\u300d]*\u300d"),                       # 「…」
    ("\u300e", r"\u300e[^\u300e\u300f]*\u300f"),                       # 『…』
    ("\u2018", r"\u2018(?<![A-Za-z0-9]\u2018)[^\u2018\u2019]*\u2019"),   # ‘…’
    ("\u201a", r"\u201a[^\u201a\u2018\u2019]*[\u2018\u2019]"),             # ‚…‘
))
_CONTEXT_STRIP = ("\"'“”‘’«»„‚‹›「」『』()[]{}<>.,;:!?*_`~|-\u2010\u2013\u2014/")

_LINK, _CLAIMED, _IDIOM = 1, 2, 3
_NUMERIC_KINDS = ("number", "word_number", "multiple")


# --- the scanner ------------------------------------------------------------------------------

class _Hit:
    """A mention while it is being built (``Mention`` is frozen)."""
    __slots__ = ("kind", "s", "e", "value", "decimals", "scaled", "percent", "currency", "sign",
                 "pair", "day", "normalized", "token", "glued", "ordinal", "scale", "time",
                 "core_s", "core_e", "token_span")

    def __init__(self, kind: str, s: int, e: int, value: Decimal | None = None):
        self.kind, self.s, self.e, self.value = kind, s, e, value
        self.decimals = 0
        self.scaled = self.percent = self.glued = self.ordinal = False
        self.currency = self.sign = self.pair = self.day = self.normalized = self.time = None
        self.token = ""
        self.scale = 1
        self.core_s, self.core_e = s, e
        self.token_span: tuple[int, int] | None = None


def _is_glue(char: str) -> bool:
    """A letter of a script that separates words with spaces: digits touching it are part of a
    name or a unit (RC500, 500ml). CJK characters, kana and Thai do not glue."""
    if char.isascii():
        return char.isalpha()
    if not char.isalpha():
        return False
    code = ord(char)
    return code < 0x0E00 or 0x10A0 <= code < 0x1100 or 0x1E00 <= code < 0x2000


def _sign_ok(text: str, at: int) -> bool:
    """Whether a sign character at ``at`` may be a sign: not after a letter, digit or closing
    bracket (RC-500, 10-12)."""
    if at == 0:
        return True
    char = text[at - 1]
    return not (char.isalnum() or char in "-+.,_)]%'’/")


class _Scanner:
    def __init__(self, prepared: _Text, info: _LocaleInfo):
        self.prepared = prepared
        self.text = prepared.text
        self.low = _ascii_lower(self.text)
        self.ascii = self.text.isascii()
        self.has_east_asian = not self.ascii and ("月" in self.text or "월" in self.text)
        self.hours = info.language in ("de", "fr") or "Uhr" in self.text      # 21 Uhr, 21h30
        self.info = info
        self.mask = bytearray(len(self.text))
        self.hits: list[_Hit] = []
        self.quotes: list[_Hit] = []

    def free(self, s: int, e: int) -> bool:
        return self.mask.count(0, s, e) == e - s

    def claim(self, hit: _Hit, how: int = _CLAIMED) -> _Hit:
        self.mask[hit.s:hit.e] = bytes((how,)) * (hit.e - hit.s)
        self.hits.append(hit)
        return hit

    def run(self) -> list[Mention]:
        text = self.text
        self.links()
        if not self.ascii:
            self.cjk()
        if _DIGITS.search(text):
            self.digits()
        self.words()
        if self.info.language == "de":
            self.german()
        self.ranges()
        self.find_quotes()
        return self.mentions()

    # -- links: URLs, e-mail addresses, handles

    def add_link(self, kind: str, s: int, e: int, normalized: str, trim: bool = False) -> None:
        text = self.text
        if trim:
            opens, closes = text.count("(", s, e), text.count(")", s, e)
            while e > s:
                char = text[e - 1]
                if char in _URL_TRAILING:
                    e -= 1
                elif char == ")" and closes > opens:
                    closes -= 1
                    e -= 1
                else:
                    break
            normalized = _normalize_url(text[s:e])
        if e > s and self.free(s, e):
            hit = _Hit(kind, s, e)
            hit.normalized = normalized
            self.claim(hit, _LINK)

    def links(self) -> None:
        text, low = self.text, self.low
        if "://" in text:
            for match in _ABSOLUTE_URL.finditer(text):
                if not match.start() or not text[match.start() - 1].isalnum():
                    self.add_link("url", *match.span(), "", trim=True)
        if "](/" in text:
            for match in _MD_LINK.finditer(text):
                self.add_link("url", *match.span(1), match.group(1))
        if "www." in low:
            for match in _WWW_URL.finditer(low):
                s = match.start()
                if not s or text[s - 1] not in ".@/-" and not text[s - 1].isalnum():
                    self.add_link("url", s, match.end(), "", trim=True)
        if "@" in text:
            self.at_signs()
        if "." in text:
            for match in _TLD_HIT.finditer(low):
                dot, e = match.span()
                window = low[max(0, dot - 253):dot][::-1]
                host = _HOST_REVERSED.match(window)
                if host is None:
                    continue
                s = dot - host.end()
                if s and (text[s - 1] in ".@/:-_" or text[s - 1].isalnum()):
                    continue
                if any(not label or label[0] == "-" or label[-1] == "-"
                       for label in low[s:e].split(".")) or not self.free(s, e):
                    continue
                tail = _URL_TAIL.match(text, e)
                self.add_link("url", s, tail.end() if tail else e, "", trim=True)
        if "/" in text:
            for match in _RELATIVE.finditer(text):
                if any(c.isalpha() for c in match.group()):
                    self.add_link("url", *match.span(), "", trim=True)

    def at_signs(self) -> None:
        """E-mail addresses, then @handles, at each '@'."""
        text = self.text
        for match in _EMAIL_AT.finditer(text):
            at = match.start()
            if not self.mask[at]:
                local = _LOCAL_REVERSED.match(text[max(0, at - 64):at][::-1])
                domain = _DOMAIN.match(text, at + 1)
                if local and domain:
                    self.email(at - local.end(), at, domain)
        for match in _HANDLE.finditer(text):
            name = match.group(1).rstrip(".")
            if len(name) < 2 or not any(c.isalpha() or c == "_" for c in name):
                continue
            s, e = match.start(), match.start(1) + len(name)
            self.add_link("handle", s, e, "@" + name.lower())

    def email(self, s: int, at: int, domain: re.Match) -> bool:
        text = self.text
        if s > 0 and (text[s - 1].isalnum() or text[s - 1] in "._%+-"):
            return False                    # the local part is longer than 64 characters
        while s < at and not text[s].isalnum():
            s += 1
        labels = domain.group().split(".")
        while len(labels) > 1 and not (labels[-1].isalpha() and len(labels[-1]) >= 2):
            labels.pop()
        if s >= at or len(labels) < 2 or not all(labels) or text[at - 1] == ".":
            return False
        e = at + 1 + len(".".join(labels))
        self.add_link("email", s, e, text[s:e].lower())
        return True

    # -- dates, times and numbers, at each run of digits

    def digits(self) -> None:
        text = self.text
        consumed = 0
        for match in _DIGITS.finditer(text):
            s = match.start()
            if s < consumed or self.mask[s]:
                continue
            end = self.date_at(s, match.end())
            if end is None:
                end = self.number_at(s)
            consumed = end

    def date_at(self, s: int, e: int) -> int | None:
        """A date or a clock time whose digits start at s (the run [s, e)); its end or None."""
        text, info = self.text, self.info
        n = len(text)
        length = e - s
        after = text[e] if e < n else ""
        before = text[s - 1] if s else " "
        if _is_glue(before) or before in "./:-_":
            return None
        if after == "-" and length == 4:
            found = _ISO_DATE.match(text, s)
            if found:
                return self.add_date(s, found.end())
        if after and after in "./-" and length <= 4:
            found = _NUMERIC_DATE.match(text, s)
            if found and _claimed(found.group(), info.locale) is not None:
                return self.add_date(s, found.end())
        if self.has_east_asian and length <= 4:
            found = _EAST_ASIAN_DATE.match(text, s)
            if found and (found.group(1) or found.group(3)):
                return self.east_asian(found)
        if (length <= 2 and after in _DAY_NEXT) or (
                (length <= 2 or length == 4) and before in " \t\u00a0"):
            found = self.textual(s, e)
            if found is not None:
                return found
        if after == ":":
            found = _CLOCK.match(text, s)
            if found:
                meridiem = found.group(4) or found.group(5)
                second = found.group(3)
                return self.add_time(s, found.end(), int(found.group(1)), int(found.group(2)),
                                     int(second) if second else None, meridiem)
        if length <= 2 and after and (
                after in _AMPM_NEXT or (after == " " and text[e + 1:e + 2] in _AMPM_NEXT)):
            found = _AMPM.match(text, s)
            if found:
                return self.add_time(s, found.end(), int(found.group(1)), 0, None,
                                     found.group(2) or found.group(3))
        if length <= 2 and self.hours:
            found = _UHR.match(text, s)
            if found:
                return self.add_time(s, found.end(), int(found.group(1)),
                                     int(found.group(2) or 0), None, None)
        return None

    def textual(self, s: int, e: int) -> int | None:
        """29 July 2026, the 29th of July, July 29, 2026, July 2026: the date's end or None."""
        text, info = self.text, self.info
        if e - s <= 2:
            found = info.day_month.match(text, s)
            if found:
                prefix = info.day_prefix.match(text[max(0, s - 24):s][::-1])
                start = s - prefix.end() if prefix else s
                if found.group("m").lower() in _VERB_MONTHS and not found.group("m")[0].isupper():
                    return None             # "may", "march": verbs unless capitalised
                if found.group("y"):
                    return self.add_date(start, found.end())
                return self.yearless(start, found.end(), found.group("m"),
                                     int(_DIGITS.match(text, s).group()), None)
        if s >= 2 and text[s - 1] in " \t\u00a0" and (text[s - 2].isalpha() or text[s - 2] == "."):
            word_start = self.low.rfind(" ", max(0, s - 24), s - 1) + 1
            if self.low[word_start:s - 1].rstrip(".") not in info.month_keys:
                return None
            month = info.month_before.match(text[max(0, s - 40):s][::-1])
            if month:
                found = _DAY_AFTER_MONTH.match(text, s)
                name = month.group("m")[::-1]
                if found and (name.lower() not in _VERB_MONTHS or name[0].isupper()):
                    start = s - month.end()
                    if found.group("y"):
                        return self.add_date(start, found.end())
                    if found.group("y3"):
                        return self.yearless(start, found.end(), name, None, found.group("y3"))
                    return self.yearless(start, found.end(), name, int(found.group("d")), None)
        return None

    def yearless(self, s: int, e: int, name: str, day: int | None, year: str | None) -> int | None:
        if not self.free(s, e):
            return None
        month = self.info.months.get(_name_key(name))
        hit = _Hit("date", s, e)
        if month is not None:
            if year is not None:
                hit.normalized = f"{year}-{month:02d}"
            elif day is not None and _valid_day(month, day):
                hit.normalized = f"--{month:02d}-{day:02d}"
        return self.claim(hit).e

    def east_asian(self, found: re.Match) -> int | None:
        year, month, day = found.groups()
        s, e = found.span()
        if year and day:
            return self.add_date(s, e)
        if not self.free(s, e):
            return None
        hit = _Hit("date", s, e)
        if year is None and _valid_day(int(month), int(day)):
            hit.normalized = f"--{int(month):02d}-{int(day):02d}"
        elif day is None and 1 <= int(month) <= 12:
            hit.normalized = f"{year}-{int(month):02d}"
        return self.claim(hit).e

    def add_date(self, s: int, e: int) -> int | None:
        """A date with a year, read by parse_claimed_date; a time may follow it. A date that
        does not exist is still a date mention, with no day."""
        text, locale = self.text, self.info.locale
        if not self.free(s, e):
            return None
        claimed = _claimed(text[s:e], locale)
        hit = _Hit("date", s, e)
        if claimed is None:
            return self.claim(hit).e
        if claimed.kind == "date":
            hit.day = claimed.day
            hit.normalized = claimed.day.isoformat()
            joint = _TIME_AFTER.match(text, e)
            clock = joint and (_CLOCK.match(text, joint.end()) or _AMPM.match(text, joint.end()))
            if clock and self.free(clock.start(), clock.end()):
                timed = _claimed(text[s:clock.end()], locale)
                if timed is not None and timed.kind == "timestamp":
                    hit.e, claimed = clock.end(), timed
        if claimed.kind == "timestamp":
            hit.day = claimed.instant.date()
            hit.time = claimed.instant.time()
            hit.normalized = claimed.instant.isoformat()
        return self.claim(hit).e

    def add_time(self, s: int, e: int, hour: int, minute: int, second: int | None,
                 meridiem: str | None) -> int | None:
        if meridiem:
            if not 1 <= hour <= 12:
                return None
            hour = hour % 12 + (12 if meridiem in "pP" else 0)
        if not self.free(s, e):
            return None
        hit = _Hit("date", s, e)
        hit.time = dt.time(hour, minute, second or 0)
        hit.normalized = hit.time.isoformat("seconds" if second is not None else "minutes")
        return self.claim(hit).e

    def number_at(self, s: int) -> int:
        text, locale = self.text, self.info.locale
        core = self.info.core.match(text, s)
        end = core.end()
        if not self.free(s, end):
            # the run reaches into a link or a date: read only the digits before it
            end = s + 1
            while end < core.end() and not self.mask[end]:
                end += 1
            core = _CORE.match(text, s, end)
            end = core.end()
        consumed = s
        for piece_s, piece_e, value, decimals, token in _pieces(core.group(), locale):
            if s + piece_s < consumed:
                continue
            hit = self.number(s + piece_s, s + piece_e, value, decimals, token)
            if token:
                hit.token_span = (s, end)
            consumed = max(consumed, hit.e)
        return max(consumed, end)

    def number(self, s: int, e: int, value: Decimal | None, decimals: int,
               version: str | None) -> _Hit:
        text = self.text
        hit = _Hit("number", s, e, value)
        hit.decimals = decimals
        start, end = s, e
        # before the digits: a sign, a currency, both ("-$5", "$-5", "USD 5")
        sign = currency_text = None
        last = text[s - 1] if s else ""
        if last in (" ", _NBSP) and s >= 2:
            last = text[s - 2]
        if last in _PREFIX_LAST:
            if text[start - 1] in _SIGNS and _sign_ok(text, start - 1):
                sign, start = text[start - 1], start - 1
            found = _CURRENCY_BEFORE.search(text, max(0, start - 6), start) if start else None
            if found:
                symbol = found.group(1)
                if (not symbol.isalpha() or symbol in ("Rs", "kr", "zł", "Rs.", "kr.")
                        or (len(symbol) == 3 and symbol in _iso_codes())):
                    currency_text, start = symbol, found.start()
                    if sign is None and start and text[start - 1] in _SIGNS \
                            and _sign_ok(text, start - 1):
                        sign, start = text[start - 1], start - 1
        if start >= 3 and text[start - 1] == "之" and text[start - 3:start] == "百分之":
            start -= 3
            hit.percent = True
        if not version and start and (text[start - 1] in "#°.oO第rR" or (
                start > 1 and text[start - 1] in " \u00a0" and text[start - 2] in ".oOrR°")) \
                and _ORDINAL_BEFORE.search(text, max(0, start - 4), start):
            hit.ordinal = True
        glued_left = currency_text is None and sign is None and start > 0 and (
            _is_glue(text[start - 1])
            or (text[start - 1] in "-_" and start >= 2 and _is_glue(text[start - 2])))
        # after the digits: a scale, a percent sign or a currency, a multiple, an ordinal
        nxt = text[e:e + 1]
        if value is not None and not glued_left and nxt and (nxt in " \u00a0" or not nxt.isascii()):
            found = None if self.ascii else _CJK_SCALE.match(text, e)
            if found:
                end = self.cjk_scale(hit, found)
                value = hit.value
        if value is not None and not glued_left and end == e and nxt and (
                nxt in _SUFFIX_FIRST or (nxt in " \u00a0" and text[e + 1:e + 2] in _SUFFIX_FIRST)):
            found = _SUFFIX.match(text, e)
            if found and found.end() > e:
                end, currency_text = self.suffix(hit, found, e, currency_text)
        if currency_text is not None:
            symbol = _CURRENCY_WORDS.get(currency_text.lower(), currency_text)
            hit.currency = _currency_for(symbol, self.info.locale)
            if hit.currency is None and symbol in ("元", "块", "塊"):
                hit.currency = "CNY"
        if hit.kind == "number" and end == e and not version and hit.value is not None \
                and text[e:e + 1] in ("s", "n", "r", "t"):
            found = _ORDINAL_SUFFIX.match(text, e)
            if found:
                hit.ordinal = True
                end = found.end()
        glued_right = end == e and e < len(text) and (
            _is_glue(text[e]) or (text[e] in "-_" and e + 1 < len(text) and _is_glue(text[e + 1])))
        if version:
            hit.glued, hit.token = True, version
        elif glued_left or glued_right:
            hit.glued = True
            hit.token_span = _token_span(text, s, e)
            hit.token = text[hit.token_span[0]:hit.token_span[1]]
            if currency_text is None:
                sign, start = None, s       # +5G, -3D: a name, not a signed number
        else:
            hit.token = text[s:e]
        if sign is not None:
            hit.sign = "+" if sign == "+" else "-"
            if hit.sign == "-" and hit.value is not None:
                hit.value = -hit.value
        hit.s, hit.e, hit.core_s, hit.core_e = start, end, s, e
        return self.claim(hit)

    def cjk_scale(self, hit: _Hit, found: re.Match) -> int:
        """1.2万 (12000), 3千万, 1万2800 (12800, exact), 1亿2000万."""
        text = self.text
        unit = found.group(1)
        scale = _cjk_unit(unit)
        value = hit.value
        end = found.end()
        rest = _CJK_REST.match(text, end) if unit[-1] in "万萬亿億" else None
        if rest and value == value.to_integral_value():
            remainder, rest_end, rest_scale = Decimal(rest.group()), rest.end(), 1
            if text[rest_end:rest_end + 1] in ("万", "萬") and unit[-1] in "亿億":
                remainder, rest_end, rest_scale = remainder * 10**4, rest_end + 1, 10**4
                more = _CJK_REST.match(text, rest_end)
                if more and "." not in more.group():
                    remainder, rest_end, rest_scale = remainder + int(more.group()), more.end(), 1
            if remainder < scale:
                hit.value, hit.scaled, hit.scale = value * scale + remainder, True, rest_scale
                return rest_end
        hit.value, hit.scaled, hit.scale = value * scale, True, scale
        return end

    def suffix(self, hit: _Hit, found: re.Match, e: int, currency_text: str | None):
        """Read the scale, percent, currency and multiple written after the digits."""
        end = e
        scale_text = found.group("sx") or found.group("sx2") or found.group("sw")
        if scale_text:
            single_k = scale_text == "K" and hit.core_e - hit.core_s == 1 and currency_text is None
            if single_k or (scale_text in ("B", "T") and currency_text is None):
                return e, currency_text                    # 4K, 2B: a name, glued
            key = scale_text if scale_text in _SCALES else scale_text.lower()
            scale = self.info.billion if key == "billion" else _SCALES[key]
            hit.value *= scale
            hit.scaled, hit.scale = True, scale
            end = _scale_end(found)
        if found.group("pct") and currency_text is None:
            hit.percent = True
            end = found.end("pct")
        elif currency_text is None and (found.group("cur") or found.group("curw")):
            iso = found.group("iso")
            if iso is not None and iso not in _iso_codes():
                return end, None
            currency_text = found.group("cur") or found.group("curw")
            end = found.end("cur") if found.group("cur") else found.end("curw")
        if found.group("mult") and not hit.percent and end == (found.start("mult")):
            hit.kind = "multiple"
            end = found.end("mult")
        return end, currency_text

    # -- Chinese (and Japanese) numerals, multiples and idioms

    def cjk(self) -> None:
        text = self.text
        if _CJK_ANY.search(text) is None:
            return
        for match in _CJK_IDIOM.finditer(text):
            if self.free(*match.span()):
                self.mask[match.start():match.end()] = bytes((_IDIOM,)) * (match.end() - match.start())
        for match in _CJK_PERCENT.finditer(text):
            value = _cjk_value(match.group(1))
            if value is not None and self.free(*match.span()):
                hit = _Hit("word_number", *match.span(), Decimal(value))
                hit.percent = True
                self.claim(hit)
        for match in _CJK_DOUBLING.finditer(text):
            if self.free(*match.span()):
                times = match.group(1)
                self.claim(_Hit("multiple", *match.span(),
                                Decimal(2 ** _CJK_DIGIT[times] if times else 2)))
        for match in _CJK_HALF.finditer(text):
            s = match.start()
            if (not s or text[s - 1] not in _CJK_NUMERALS) and self.free(*match.span()):
                self.claim(_Hit("word_number", *match.span(), Decimal("0.5")))
        for match in _CJK_RUN.finditer(text):
            s, e = match.span()
            if not self.free(s, e) or (s and text[s - 1].isdigit()) \
                    or (s > 1 and text[s - 1] in " \u00a0" and text[s - 2].isdigit()):
                continue                    # 3千万, 1.2 萬: the digits' scale
            self.cjk_run(s, e, match.group())

    def cjk_run(self, s: int, e: int, run: str) -> None:
        text = self.text
        after = text[e:e + 1]
        if run == "百" and after == "分":
            return                          # 百分之, 百分比: "per cent", not a hundred
        ordinal = s > 0 and text[s - 1] == "第"
        ratio = after == "成" and text[e + 1:e + 2] not in _CJK_CHENG_NOT \
            and not text.startswith(("不变", "不變"), e + 1)
        if not any(c in _CJK_SMALL or c in _CJK_BIG for c in run):
            if len(run) >= 2 and ("〇" in run or "零" in run):
                value = int("".join(str(_CJK_DIGIT[c]) for c in run))
            elif len(run) == 1 and (after == "倍" or ratio or ordinal
                                    or (run != "一" and after in _CJK_CLASSIFIERS)):
                value = _CJK_DIGIT[run]
            else:
                return
        else:
            if len(run) < 2 and not (ordinal or after in _CJK_CLASSIFIERS):
                return
            value = _cjk_value(run)
            if value is None:
                return
        hit = _Hit("word_number", s, e, Decimal(value))
        if after == "倍":
            hit.kind, hit.e = "multiple", e + 1
        elif ratio:
            hit.kind, hit.e = "multiple", e + 1
            next_digit = _CJK_DIGIT.get(text[e + 1:e + 2])
            if next_digit is not None and value < 10:
                hit.value, hit.e = Decimal(value * 10 + next_digit) / 100, e + 2
            else:
                hit.value = Decimal(value) / 10
        elif ordinal:
            hit.ordinal, hit.s = True, s - 1
        else:
            if after in ("%", "\u066a"):
                hit.percent, hit.e = True, e + 1
            if run[-1] in _CJK_BIG:
                hit.scaled, hit.scale = True, _CJK_BIG[run[-1]]
        if self.free(hit.s, hit.e):
            self.claim(hit)

    # -- number words

    def words(self) -> None:
        low = self.low
        for match in _EN_MULTIPLE.finditer(low):
            s, e = match.span()
            if self.free(s, e):
                self.multiple_word(s, e, match.group())
        for match in _EN_SPAN.finditer(low):
            if self.free(*match.span()):
                self.english(match)

    def multiple_word(self, s: int, e: int, word: str) -> None:
        low = self.low
        factor = Decimal(str(_EN_MULTIPLES[word]))
        if word == "half":
            found = _HALF_AS.match(low, e)
            if found:
                self.claim(_Hit("multiple", s, found.end(), factor))
                return
            if low.startswith((" a ", " an "), e) and _EN_SPAN.match(low, low.index(" ", e + 1) + 1):
                return                      # half a dozen: a number word
            prev = _word_before(low, s)
            if prev in _HALF_NOT_PREV or low.startswith("and a ", max(0, s - 6)):
                return
            if _word_after(low, e) in _HALF_NEXT or prev in _HALF_PREV:
                self.claim(_Hit("word_number", s, e, factor))
            return
        if word in ("double", "triple", "quadruple") and not self.comparing(s, e):
            return
        self.claim(_Hit("multiple", s, e, factor))

    def comparing(self, s: int, e: int) -> bool:
        """Whether "double"/"triple" at [s, e) compares (see the module docstring)."""
        low = self.low
        if low[e:e + 1] in ("-", "\u2010"):
            return False
        if _word_after(low, e) in _DOUBLE_NEXT or _word_before(low, s) in _DOUBLE_PREV:
            return True
        rest = low[e:e + 2].lstrip(" ")
        return not rest or rest[0] in ".,;:!?)"

    def english(self, match: re.Match) -> None:
        low = self.low
        base = match.start()
        tokens = [(m.group(), base + m.start(), base + m.end())
                  for m in _EN_TOKEN.finditer(match.group())]
        # "a dozen", "a hundred", "half a dozen": the article before the span
        if tokens[0][0] in ("dozen", "hundred", *_EN_SCALES) or tokens[0][0] in _EN_ORDINALS:
            found = _ARTICLE_BEFORE.match(low[max(0, base - 9):base][::-1])
            if found:
                at = base - found.end()
                tokens[:0] = [(m.group(), m.start(), m.end())
                              for m in _EN_TOKEN.finditer(low, at, base)]
        i = 0
        while i < len(tokens):
            read = _read_english(tokens, i)
            if read is None:
                i += 1
                continue
            j, value, flags = read
            s, e = tokens[i][1], tokens[j - 1][2]
            i = j
            if flags.get("fraction") or (flags.get("lone_one") and not self.one_is_number(s, e)):
                continue
            hit = _Hit("word_number", s, e, value)
            hit.ordinal = bool(flags.get("ordinal"))
            if flags.get("scale"):
                hit.scaled, hit.scale = True, flags["scale"]
            found = _WORD_SUFFIX.match(self.text, e)
            if found:
                if found.group("pct"):
                    hit.percent = True
                elif found.group("times"):
                    hit.kind = "multiple"
                else:
                    word = _CURRENCY_WORDS[found.group("curw").lower()]
                    hit.currency = _currency_for(word, self.info.locale)
                hit.e = found.end()
            if self.free(hit.s, hit.e):
                self.claim(hit)

    def one_is_number(self, s: int, e: int) -> bool:
        low = self.low
        if _word_before(low, s) in _PRONOUN_BEFORE:
            return False
        nxt = _word_after(low, e)
        if nxt.rstrip("s") in ONE_NOUNS or low[e:e + 1] == "%":
            return True
        if nxt in ("of", "in", "out", "to"):
            rest = low[e:e + 24].split()
            rest = rest[2:] if rest[:2] == ["out", "of"] else rest[1:]
            if rest:
                word = rest[0].strip(_CONTEXT_STRIP)
                return word[:1].isdigit() or word in _EN_NUMBER_WORDS
        return False

    def german(self) -> None:
        text = self.text
        for match in _DE_WORD.finditer(self.low):
            s, e = match.span()
            if not self.free(s, e):
                continue
            value = _de_value(match.group())
            if value is None:
                continue
            hit = _Hit("word_number", s, e, Decimal(value))
            found = _DE_SCALE.match(text, e)
            if found:
                scale = _SCALES[{"mio": "Mio", "mrd": "Mrd"}.get(found.group(1).lower(),
                                                               found.group(1).lower())]
                hit.value *= scale
                hit.scaled, hit.scale, hit.e = True, scale, found.end()
            found = _WORD_SUFFIX.match(text, hit.e)
            if found and found.group("pct"):
                hit.percent, hit.e = True, found.end()
            self.claim(hit)

    # -- ranges

    def ranges(self) -> None:
        text = self.text
        numeric = sorted((h for h in self.hits if h.kind in _NUMERIC_KINDS), key=lambda h: h.s)
        index = 0
        while index < len(numeric) - 1:
            a, b = numeric[index], numeric[index + 1]
            index += 1
            if b.s < a.e:
                continue
            if b.sign == "-" and b.kind == "number" and a.e < b.s and text[a.e:b.s].isspace() \
                    and not a.glued and a.kind != "multiple":
                b.s, b.sign = b.s + 1, None     # 10 -12: a range, not minus twelve
                if b.value is not None:
                    b.value = -b.value
            gap = text[a.e:b.s]
            if gap == "-" and a.kind == b.kind == "number" and not (a.percent or b.percent) \
                    and a.currency is None and not a.glued:
                chain = [a, b]                  # a phone number, a code: 555-123-4567
                while index < len(numeric) - 1 and numeric[index + 1].kind == "number" \
                        and text[numeric[index].e:numeric[index + 1].s] == "-":
                    chain.append(numeric[index + 1])
                    index += 1
                if len(chain) >= 3 or (len(chain) == 2 and a.core_e - a.core_s == 3
                                       and b.core_e - b.core_s == 4 and a.s == a.core_s):
                    span = (chain[0].core_s, chain[-1].core_e)
                    for hit in chain:
                        hit.glued, hit.sign, hit.token_span = True, None, span
                        hit.token = text[span[0]:span[1]]
                    index += 1
                    continue
            if a.glued or b.glued or a.ordinal or b.ordinal or a.pair or b.pair:
                continue
            if _RANGE_GAP.fullmatch(gap) is None and not (
                    gap.strip().lower() == "and" and _word_before(self.low, a.s) == "between"):
                continue
            a.pair, b.pair = b, a
            _share_range(a, b)

    # -- quotes

    def find_quotes(self) -> None:
        """Quote pairs, one pattern per family of marks, so that pairs of different families
        nest (“He said ‘never again’”). Within a family the innermost pair wins and an
        unclosed mark pairs with nothing; a quote that spans a blank line is not a quote."""
        text = self.text
        for marks, pattern in _QUOTE_PATTERNS:
            if not any(mark in text for mark in marks):
                continue
            for match in pattern.finditer(text):
                if "\n" in match.group() and _BLANK_LINE.search(match.group()):
                    continue
                self.add_quote(*match.span())

    def add_quote(self, s: int, e: int) -> None:
        inner = self.text[s + 1:e - 1]
        squashed = _squash_clean(inner)
        if len(squashed) >= 6 or len(inner.split()) >= 2:
            hit = _Hit("quote", s, e)
            hit.normalized = squashed
            self.quotes.append(hit)

    # -- output

    def mentions(self) -> list[Mention]:
        prepared, text = self.prepared, self.text
        original = prepared.original
        identity = isinstance(prepared.starts, range)
        rows = []
        for hit in self.hits + self.quotes:
            start, end = (hit.s, hit.e) if identity else prepared.span(hit.s, hit.e)
            rows.append((start, end, hit.kind, hit))
        rows.sort(key=lambda row: row[:3])
        position = {id(row[3]): index for index, row in enumerate(rows)}
        quoted = (_covered(self.hits, self.quotes) | _nested(self.quotes)) if self.quotes else ()
        out = []
        for start, end, kind, hit in rows:
            left, right = hit.token_span or (hit.s, hit.e)
            out.append(Mention(
                kind, original[start:end], start, end, hit.value, hit.decimals, hit.scaled,
                hit.percent, hit.currency, hit.sign,
                position[id(hit.pair)] if hit.pair is not None else None,
                hit.day, hit.normalized, hit.token, hit.glued,
                _context_before(text, left), _context_after(text, right), hit.ordinal,
                hit.scale, hit.time, id(hit) in quoted))
        return out


# --- helpers ----------------------------------------------------------------------------------

def _ascii_lower(text: str) -> str:
    """``text`` lower-cased, index for index (``str.lower`` may lengthen a few characters)."""
    lowered = text.lower()
    return lowered if len(lowered) == len(text) else text.translate(_ASCII_LOWER)


def _scale_end(found: re.Match) -> int:
    for group in ("sx", "sx2", "sw"):
        if found.group(group):
            end = found.end(group)
            if group == "sx2" and found.string[end:end + 1] == ".":
                end += 1
            return end
    return found.start()


def _normalize_url(url: str) -> str:
    if url.startswith("/"):
        return url
    scheme_end = url.find("://")
    head_start = scheme_end + 3 if scheme_end >= 0 else 0
    cut = len(url)
    for char in "/?#":
        found = url.find(char, head_start)
        if found >= 0:
            cut = min(cut, found)
    return url[:cut].lower() + url[cut:]


def _valid_day(month: int, day: int) -> bool:
    try:
        dt.date(2000, month, day)         # a leap year: 29 February exists without a year
    except ValueError:
        return False
    return True


def _cjk_unit(unit: str) -> int:
    value = 1
    for char in unit:
        value *= _CJK_SMALL.get(char) or _CJK_BIG.get(char, 1)
    return value


def _cjk_value(run: str) -> int | None:
    """A Chinese numeral: 三百五十 350, 一千二百 1200, 两万 20000, 十五 15, and the colloquial
    一千二 1200, 三万五 35000. None when it is not well formed (三四, 十百)."""
    total = section = 0
    digit: int | None = None
    last_unit = 0               # the last unit written, for the colloquial trailing digit
    last_big = 10**12
    zero = False
    for char in run:
        if char in _CJK_DIGIT:
            if digit is not None and not zero:
                return None
            digit = _CJK_DIGIT[char]
            if digit == 0:
                zero, digit = True, None
            continue
        small = _CJK_SMALL.get(char)
        if small is not None:
            if last_unit and small >= last_unit and last_unit < 10**4:
                return None
            section += (digit if digit is not None else 1) * small
            digit, last_unit, zero = None, small, False
            continue
        big = _CJK_BIG[char]
        if big >= last_big:
            return None
        if digit is not None:
            section += digit
        if section == 0:
            return None
        if big == 10**8:
            total = (total + section) * big
        else:
            total += section * big
        section, digit, last_unit, last_big, zero = 0, None, big, big, False
    if digit is not None:
        if last_unit and not zero:
            digit *= last_unit // 10       # 一千二 = 1200, 三万五 = 35000
        section += digit
    return total + section


_DE_UNITS = {"ein": 1, "eins": 1, "zwei": 2, "drei": 3, "vier": 4, "fünf": 5, "sechs": 6,
             "sieben": 7, "acht": 8, "neun": 9}
_DE_SMALL = {**_DE_UNITS, "zehn": 10, "elf": 11, "zwölf": 12, "dreizehn": 13, "vierzehn": 14,
             "fünfzehn": 15, "sechzehn": 16, "siebzehn": 17, "achtzehn": 18, "neunzehn": 19,
             "zwanzig": 20, "dreissig": 30, "vierzig": 40, "fünfzig": 50, "sechzig": 60,
             "siebzig": 70, "achtzig": 80, "neunzig": 90}


def _de_value(word: str) -> int | None:
    """A German number word of the basic kind: zwei, einundzwanzig, dreihundertfünf,
    zweitausendsechsundzwanzig. None for anything else, and for ein/eins (an article)."""
    word = word.replace("ß", "ss")
    if word.startswith("ein") and word in ("ein", "eine", "eins", "einer", "einen", "einem"):
        return None
    if "tausend" in word:
        left, _, right = word.partition("tausend")
        high = _de_below_thousand(left) if left else 1
        low = _de_below_thousand(right) if right else 0
        return None if high is None or low is None else high * 1000 + low
    return _de_below_thousand(word)


def _de_below_thousand(word: str) -> int | None:
    if "hundert" in word:
        left, _, right = word.partition("hundert")
        high = _DE_UNITS.get(left) if left else 1
        low = _de_below_hundred(right) if right else 0
        return None if high is None or low is None else high * 100 + low
    return _de_below_hundred(word)


def _de_below_hundred(word: str) -> int | None:
    if word in _DE_SMALL and word != "ein":
        return _DE_SMALL[word]
    unit, _, tens = word.partition("und")
    if tens and unit in _DE_UNITS and unit != "eins" and _DE_SMALL.get(tens, 0) >= 20 \
            and _DE_SMALL[tens] % 10 == 0:
        return _DE_UNITS[unit] + _DE_SMALL[tens]
    return None


def _read_english(tokens: list[tuple[str, int, int]], i: int):
    """Read one English number starting at tokens[i]: (end index, value, flags), or None when
    no number starts there. Flags: lone_one, ordinal, scale, fraction."""
    n = len(tokens)
    word = tokens[i][0]
    flags: dict = {}
    total = group = 0
    last = None
    last_scale = 10**15
    k = i
    half = Decimal(0)
    if word == "half":
        if k + 2 < n and tokens[k + 1][0] in ("a", "an") and tokens[k + 2][0] in (
                "dozen", "hundred", *_EN_SCALES):
            unit = tokens[k + 2][0]
            whole = 12 if unit == "dozen" else 100 if unit == "hundred" else _EN_SCALES[unit]
            if unit in _EN_SCALES:
                flags["scale"] = whole
            return k + 3, Decimal(whole) / 2, flags
        return None
    if word in ("a", "an"):
        if k + 1 < n and tokens[k + 1][0] in ("dozen", "hundred", *_EN_SCALES):
            group, last, k = 1, "a", k + 1
        elif k + 1 < n and tokens[k + 1][0] in _EN_ORDINALS:
            return k + 2, Decimal(0), {"fraction": True}      # "a third": not read
        else:
            return None
    while k < n:
        word = tokens[k][0]
        if word in _EN_UNITS:
            if last in (None, "hundred", "scale", "and") or (last == "tens" and group % 10 == 0):
                group += _EN_UNITS[word]
                last = "unit"
            else:
                break
        elif word in _EN_TEENS or word in _EN_TENS or word in _EN_COMPOUNDS:
            if last not in (None, "hundred", "scale", "and"):
                break
            if word in _EN_COMPOUNDS:
                value, is_ordinal = _EN_COMPOUNDS[word]
                group += value
                last = "unit"
                if is_ordinal:
                    flags["ordinal"] = True
                    k += 1
                    break
            else:
                group += _EN_TEENS.get(word) or _EN_TENS[word]
                last = "teen" if word in _EN_TEENS else "tens"
        elif word == "hundred":
            if last in ("unit", "teen", "tens", "a") and 0 < group < 100:
                group *= 100
                last = "hundred"
            else:
                break
        elif word in _EN_SCALES:
            scale = _EN_SCALES[word]
            if last in ("unit", "teen", "tens", "hundred", "a") and scale < last_scale and group:
                total += group * scale
                group, last, last_scale = 0, "scale", scale
            else:
                break
        elif word == "dozen":
            if last in (None, "a", "unit", "teen", "tens"):
                group = (group or 1) * 12
                k += 1
                last = "dozen"
            break
        elif word in _EN_ORDINALS:
            if last in (None, "hundred", "scale", "and"):
                if last is None and i > 0 and tokens[i - 1][0] in ("a", "an", "one") \
                        and tokens[i - 1][2] + 3 >= tokens[i][1]:
                    return k + 1, Decimal(0), {"fraction": True}
                group += _EN_ORDINALS[word]
                flags["ordinal"] = True
                last = "ordinal"
                k += 1
            break
        elif word == "and":
            if k + 2 < n and tokens[k + 1][0] == "a" and tokens[k + 2][0] == "half" \
                    and last in ("unit", "teen", "tens", "hundred", "scale"):
                half = Decimal("0.5")
                k += 3
                if k < n and tokens[k][0] in _EN_SCALES and not total and last != "scale":
                    scale = _EN_SCALES[tokens[k][0]]
                    flags["scale"] = scale
                    return k + 1, (Decimal(group) + half) * scale, flags
                break
            if last in ("hundred", "scale") and k + 1 < n and (
                    tokens[k + 1][0] in _EN_UNITS or tokens[k + 1][0] in _EN_TEENS
                    or tokens[k + 1][0] in _EN_TENS or tokens[k + 1][0] in _EN_COMPOUNDS):
                last = "and"
            else:
                break
        else:
            break
        k += 1
    if last in (None, "a"):
        return None
    if last == "and":
        k -= 1
    if k == i + 1 and tokens[i][0] == "one":
        flags["lone_one"] = True
    if last == "scale" and group == 0:
        flags["scale"] = last_scale
    return k, Decimal(total + group) + half, flags


def _share_range(a: _Hit, b: _Hit) -> None:
    """What one end of a range writes applies to the other: 10-12%, $10-12, 1-2 million."""
    if b.percent and not a.percent and a.currency is None:
        a.percent = True
    if a.percent and not b.percent and b.currency is None:
        b.percent = True
    if a.currency and not b.currency and not b.percent:
        b.currency = a.currency
    if b.currency and not a.currency and not a.percent:
        a.currency = b.currency
    if b.scale > 1 and a.scale == 1 and not a.scaled and a.value is not None \
            and b.value is not None and a.value <= b.value / b.scale:
        a.value *= b.scale
        a.scaled, a.scale = True, b.scale
    if b.kind == "multiple" and a.kind == "number":
        a.kind = "multiple"


def _covered(hits: list[_Hit], quotes: list[_Hit]) -> set[int]:
    """ids of the hits inside some quote."""
    merged: list[list[int]] = []
    for s, e in sorted((q.s, q.e) for q in quotes):
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    inside = set()
    at = 0
    for hit in sorted(hits, key=lambda h: h.s):
        while at < len(merged) and merged[at][1] <= hit.s:
            at += 1
        if at < len(merged) and merged[at][0] <= hit.s and hit.e <= merged[at][1]:
            inside.add(id(hit))
    return inside


def _nested(quotes: list[_Hit]) -> set[int]:
    """ids of the quotes inside another quote (quotes nest or are disjoint)."""
    inside, reach = set(), -1
    for quote in sorted(quotes, key=lambda q: (q.s, -q.e)):
        if quote.e <= reach:
            inside.add(id(quote))
        reach = max(reach, quote.e)
    return inside


def _pieces(core: str, locale: str) -> list[tuple[int, int, Decimal | None, int, str | None]]:
    """The numbers in one run of digits and separators: (start, end, value, decimals, token of
    a glued whole). Usually one; "1,2,3" is three, "1.2.3" three runs of one glued token."""
    if core.isdigit():
        return [(0, len(core), Decimal(core) if len(core) <= MAX_DIGITS else None, 0, None)]
    read = _core_value(core, locale) if len(core) <= MAX_DIGITS else None
    if read is not None:
        return [(0, len(core), read[0], read[1], None)]
    runs = [m.span() for m in _DIGITS.finditer(core)]
    seps = [core[runs[k][1]] for k in range(len(runs) - 1)]
    if len(core) > MAX_DIGITS and len(set(seps)) == 1 and runs[0][1] <= 3 \
            and all(b - a == 3 for a, b in runs[1:-1]):
        return [(0, len(core), None, 0, None)]      # 1,234,234,...: one number, too long
    if len(runs) >= 3 and len(core) <= 64 and all(sep == "." for sep in seps):
        return [(a, b, Decimal(core[a:b]), 0, core) for a, b in runs]
    groups: list[list[tuple[int, int]]] = [[]]
    split_commas = seps.count(",") >= 2
    for k, run in enumerate(runs):
        groups[-1].append(run)
        if split_commas and k < len(seps) and seps[k] == ",":
            groups.append([])
    out = []
    for group in groups:
        k = 0
        while k < len(group):
            best = None
            for j in range(min(len(group), k + 6) - 1, k, -1):
                if not _may_group(core, group, k, j):
                    continue
                read = _core_value(core[group[k][0]:group[j][1]], locale)
                if read is not None:
                    best = (j, read)
                    break
            if best is not None:
                j, read = best
                out.append((group[k][0], group[j][1], read[0], read[1], None))
                k = j + 1
            else:
                a, b = group[k]
                out.append((a, b, Decimal(core[a:b]) if b - a <= MAX_DIGITS else None, 0, None))
                k += 1
    return out


def _may_group(core: str, group: list[tuple[int, int]], k: int, j: int) -> bool:
    """A cheap test before asking parse_number: inner runs have 2 or 3 digits, and a run after a
    space-like separator (which never separates decimals) has exactly 3."""
    for m in range(k + 1, j):
        if group[m][1] - group[m][0] not in (2, 3):
            return False
    if core[group[j][0] - 1] not in ".,\u066b" and group[j][1] - group[j][0] != 3:
        return False
    return group[j][1] - group[k][0] <= MAX_DIGITS


@functools.lru_cache(maxsize=8192)
def _core_value(core: str, locale: str) -> tuple[Decimal, int] | None:
    parsed = parse_number(core, locale)
    return None if parsed is None else (parsed.value, parsed.decimals)


def _token_span(text: str, s: int, e: int) -> tuple[int, int]:
    """The word-like token around the digits at [s, e): letters, digits, and '-'/'_' between
    letters and digits (RC-500, COVID-19, 500ml); at most 32 characters each side."""
    left, limit = s, max(0, s - 32)
    while left > limit:
        char = text[left - 1]
        if _is_glue(char) or char.isdigit() or (
                char in "-_" and left >= 2 and _is_glue(text[left - 2])):
            left -= 1
        else:
            break
    right, limit = e, min(len(text), e + 32)
    while right < limit:
        char = text[right]
        if _is_glue(char) or char.isdigit() or (
                char in "-_" and right + 1 < len(text) and _is_glue(text[right + 1])):
            right += 1
        else:
            break
    return left, right


def _word_before(text: str, s: int) -> str:
    if s and text[s - 1].isalnum():
        return ""
    words = text[max(0, s - 24):s].split()
    return words[-1].strip(_CONTEXT_STRIP).lower() if words else ""


def _word_after(text: str, e: int) -> str:
    if text[e:e + 1].isalnum():
        return ""
    words = text[e:e + 24].split()
    return words[0].strip(_CONTEXT_STRIP).lower() if words else ""


_CJK_CHARS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_CONTEXT_TOKEN = re.compile(rf"[{_CJK_CHARS}]|[^\s{_CJK_CHARS}\u3000-\u303f\uff00-\uffef]+")


def _context_before(text: str, s: int) -> str:
    """Up to three words before s (a CJK character counts as half a word), without the
    punctuation around them, lower-cased."""
    a = s - 48 if s > 48 else 0
    window = text[a:s]
    cut = a > 0 and not text[a - 1].isspace() and not text[a].isspace()
    if window.isascii():
        words = window.split()
        if cut and words:
            del words[0]                    # cut by the window
        out = [word.strip(_CONTEXT_STRIP) for word in words[-3:]]
        if "" in out:
            out = [w for w in (word.strip(_CONTEXT_STRIP) for word in words) if w][-3:]
        return " ".join(out).lower()
    words = _CONTEXT_TOKEN.findall(window)
    if cut and words and len(words[0]) > 1:
        del words[0]
    return _join_context(reversed([w for w in (word.strip(_CONTEXT_STRIP) for word in
                                               reversed(words[-12:])) if w]), True)


def _context_after(text: str, e: int) -> str:
    """Up to three words after e, like ``_context_before``."""
    b = e + 48
    window = text[e:b]
    cut = b < len(text) and not text[b].isspace() and not text[b - 1].isspace()
    if window.isascii():
        words = window.split()
        if cut and words:
            del words[-1]
        out = [word.strip(_CONTEXT_STRIP) for word in words[:3]]
        if "" in out:
            out = [w for w in (word.strip(_CONTEXT_STRIP) for word in words) if w][:3]
        return " ".join(out).lower()
    words = _CONTEXT_TOKEN.findall(window)
    if cut and words and len(words[-1]) > 1:
        del words[-1]
    return _join_context([w for w in (word.strip(_CONTEXT_STRIP) for word in words[:12]) if w],
                         False)


def _join_context(words, from_end: bool) -> str:
    """Join up to three words' worth (a CJK character is half a word) without spaces between
    CJK characters."""
    words = list(words)
    if from_end:
        words.reverse()
    kept, weight = [], 0.0
    for word in words:
        weight += 0.5 if len(word) == 1 and _is_cjk(word) else 1
        if weight > 3:
            break
        kept.append(word)
    if from_end:
        kept.reverse()
    out = ""
    for word in kept:
        if out and not (_is_cjk(word[0]) and _is_cjk(out[-1])):
            out += " "
        out += word
    return out.lower()


def _is_cjk(char: str) -> bool:
    return "\u3040" <= char <= "\u30ff" or "\u3400" <= char <= "\u9fff" \
        or "\uac00" <= char <= "\ud7af" or "\uf900" <= char <= "\ufaff"


# --- public API -------------------------------------------------------------------------------

def scan(text: str, locale: str = "en_US") -> list[Mention]:
    """Every checkable mention in ``text``, sorted by (start, end, kind); deterministic.
    ``locale`` decides ambiguous separators (1.299), day/month order (05/08/2026), which
    currency ``$`` names, and which month names and number words are read. An unknown locale
    raises ``ValueError``; any text is accepted."""
    info = _locale_info(locale)
    if not isinstance(text, str):
        raise TypeError(f"scan needs a str, not {type(text).__name__}")
    if not text:
        return []
    return _Scanner(_prepare(text), info).run()
