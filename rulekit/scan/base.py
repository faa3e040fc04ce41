"""What every pass of the scanner shares: the ``Mention`` it returns and the ``_Hit`` it builds,
the kinds, the claim marks, and small text helpers (a regex trie of literal words, ASCII
lower-casing index for index, the word before or after a position, what glues to digits)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from decimal import Decimal
from typing import Iterable

KINDS = ("number", "word_number", "multiple", "date", "quote", "handle", "email", "url")


class _Lazy:
    """The private slots under ``Mention``: where its context words come from until they are
    read (see ``_ContextWords``), and what the scanner kept while building it (``_Hit``):
    its span in the cleaned text, the other end of a range, the digits' own span and the span
    of the token they are glued into."""
    __slots__ = ("_context", "s", "e", "pair", "core_s", "core_e", "token_span")


@dataclasses.dataclass(frozen=True, slots=True)
class Mention(_Lazy):
    """One checkable thing in the text. ``text == original[start:end]``.

    ``before`` and ``after`` are computed on first read: most mentions are judged by value
    alone, and the words around them were the largest part of a scan's cost. ``scan`` builds
    mentions as ``_Hit``s (``_Scanner.mentions``), which leave those two slots empty and record
    where to read them from; a ``Mention`` built by hand has them set by ``__init__`` like any
    field."""
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


class _ContextWords:
    """``Mention.before`` and ``Mention.after``: the slot's value, or, for a scanned mention
    whose slot is still empty, both words read from its ``_context`` and stored, so that this
    runs at most once per mention (two threads racing here store the same strings). A data
    descriptor over the slot rather than a ``__getattr__`` on the class: a class with
    ``__getattr__`` takes the slow path for every attribute read (``mention.kind``,
    ``mention.value``, ...), and those are read far more often than the context words."""
    __slots__ = ("slot",)

    def __init__(self, slot):
        self.slot = slot

    def __get__(self, mention, owner=None):
        if mention is None:
            return self.slot
        try:
            return self.slot.__get__(mention, owner)
        except AttributeError:
            pass
        try:
            text = mention._context
        except AttributeError:
            text = None
        if text is None:
            return self.slot.__get__(mention, owner)     # raises AttributeError
        # around the token the digits are glued into, else around the mention (cleaned text)
        left, right = mention.token_span or (mention.s, mention.e)
        before, after = _context_before(text, left), _context_after(text, right)
        object.__setattr__(mention, "before", before)
        object.__setattr__(mention, "after", after)
        object.__setattr__(mention, "_context", None)      # the text is no longer needed
        return self.slot.__get__(mention, owner)

    def __set__(self, mention, value) -> None:
        self.slot.__set__(mention, value)

    def __delete__(self, mention) -> None:
        self.slot.__delete__(mention)


Mention.before = _ContextWords(Mention.__dict__["before"])
Mention.after = _ContextWords(Mention.__dict__["after"])


def _trie(words: Iterable[str], guard: str | tuple[str, ...] | None = None) -> str:
    """A regex alternation of literal words built as a trie. With ``guard`` (a character class,
    or a tuple of fixed-width patterns), each word must not follow a match of it (of any of
    them), checked by a look-behind placed after the first letter: the pattern then starts
    with a set of literals, which lets ``re`` skip every position whose character cannot start
    a word."""
    guards = (guard,) if isinstance(guard, str) else guard or ()
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
                if top:
                    head += "".join(f"(?<!{one}{re.escape(char)})" for one in guards)
                branches.append(head + build(child, False))
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body

    return build(root, True)


# (Not "[0-9]+": a pattern that opens with a repeat gets no first-character prefilter from
# ``re``, which then tries a match at every position; finditer over an answer cost a third more.)
_DIGITS = re.compile(r"[0-9][0-9]*")
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_CONTEXT_STRIP = ("\"'“”‘’«»„‚‹›「」『』()[]{}<>.,;:!?*_`~|-\u2010\u2013\u2014/")

_LINK, _CLAIMED, _IDIOM = 1, 2, 3


class _Hit(_Lazy):
    """A mention while it is being built: the same slots as ``Mention`` (which is frozen), so
    that ``_Scanner.mentions`` can finish it with plain attribute stores and make it a
    ``Mention`` by assigning ``__class__``. A frozen dataclass's ``__init__`` sets each of its
    21 fields through ``object.__setattr__``, and copying a hit into a new object cost about as
    much again. ``before`` and ``after`` stay empty: they are read lazily."""
    __slots__ = tuple(field.name for field in dataclasses.fields(Mention))

    def __init__(self, kind: str, s: int, e: int, value: Decimal | None = None):
        self.kind, self.s, self.e, self.value = kind, s, e, value
        self.decimals = 0
        self.scaled = self.percent = self.glued = self.ordinal = False
        self.currency = self.sign = self.pair = self.day = self.normalized = self.time = None
        self.token = ""
        self.scale = 1
        self.core_s, self.core_e = s, e
        self.token_span: tuple[int, int] | None = None


assert _Hit.__slots__ == Mention.__slots__


def _is_glue(char: str) -> bool:
    """A letter of a script that separates words with spaces: digits touching it are part of a
    name or a unit (RC500, 500ml). CJK characters, kana and Thai do not glue."""
    if char.isascii():
        return char.isalpha()
    if not char.isalpha():
        return False
    code = ord(char)
    return code < 0x0E00 or 0x10A0 <= code < 0x1100 or 0x1E00 <= code < 0x2000


def _ascii_lower(text: str) -> str:
    """``text`` lower-cased, index for index (``str.lower`` may lengthen a few characters)."""
    lowered = text.lower()
    return lowered if len(lowered) == len(text) else text.translate(_ASCII_LOWER)


# Every byte but a-z as a space, for ``bytes.translate`` (``az_words``).
_NOT_A_TO_Z = bytes(code if 97 <= code <= 122 else 32 for code in range(256))


def az_words(low: str) -> frozenset[bytes]:
    """The maximal runs of a-z in ``low`` (a lower-cased text), as ASCII bytes: a word of
    letters a-z is one of them exactly when a regex of it guarded by ``(?<![a-z])`` and
    ``(?![a-z])`` finds it. A set test against them costs a fraction of such a search (each
    character that is not ASCII is one "?", a separator, once encoded)."""
    return frozenset(low.encode("ascii", "replace").translate(_NOT_A_TO_Z).split())


def az_text(words: frozenset[bytes]) -> str:
    """The words of ``az_words(low)`` joined by spaces: a piece of letters a-z is a substring
    of ``low`` exactly when it is one of this text, which holds each word once and nothing
    else (a substring test on it costs a third of one on a 300-character answer). The order
    of the words is the set's; no test of a piece of a-z can tell."""
    return b" ".join(words).decode("ascii")


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


# Look-behinds for a sentence's stop (the mark itself is the "." they end with): a title or an
# abbreviation before a name or a figure ends no sentence, in binding (rulekit.bind) and in the
# reading of an assent (rulekit.assent): "Dr. Priya Raman",
# "Mrs. Lee", "Mt. Sinai", "St. Mary's", "No. 4" (a "No." before a word is an answer: "No. Your
# copay is $50."). Each is a look-behind of its own, as they differ in length. Words that end a
# sentence as often ("Inc.", "Co.", "etc.") are not among them.
NOT_AFTER_TITLE = "".join(rf"(?<!\b{word}.)" for word in (
    "Mr", "Mrs", "Ms", "Mx", "Dr", "Drs", "Prof", "Jr", "Sr", "St", "Mt", "Ft", "Rev", "Fr",
    "Hon", "Gen", "Col", "Capt", "Lt", "Sgt", "Gov", "Sen", "Dept", "Messrs", "vs", "e\\.g",
    "i\\.e")) + \
    r"(?<!\bNo(?=\.\s+[0-9]).)"
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


_NAME_PUNCTUATION = "()[]{},;:!?\"'“”‘’«»"


def inside_written_name(text: str, start: int, end: int, names: Iterable[str],
                        alone: bool = True) -> str | None:
    """The name of ``names`` (case-folded, as the evidence writes them) that the text writes
    around [start, end), or None: the whole name ("小米手环9", "Kaffeevollautomat EQ.6"), a word
    of it that holds digits with the word before or after it ("Seamaster 300M"), or, when
    ``alone``, such a word by itself if it holds letters too ("EQ.6", "520BT"; not for a figure
    read with a scale, "300M", which is also 300 million). A name must stand as a whole word:
    a letter or digit beside it (that is not a CJK character, nor beside one) makes it part of
    another word ("EQ.60")."""
    for name in names:
        words = [word.strip(_NAME_PUNCTUATION) for word in name.split()]
        parts = [name]
        for at, word in enumerate(words):
            if len(words) > 1 and any(c.isdigit() for c in word):
                parts += [" ".join(pair) for pair in (words[at - 1:at + 1], words[at:at + 2])
                          if len(pair) == 2]
                if alone and any(c.isalpha() for c in word):
                    parts.append(word)
        for part in parts:
            size = len(part)
            offset = max(0, end - size)
            written = text[offset:start + size]
            window = written.casefold()
            # "ß" casefolds to "ss": each folded character's place in ``written``
            places = None if len(window) == len(written) else \
                [i for i, c in enumerate(written) for _ in c.casefold()]
            at = window.find(part)
            while at >= 0:
                if places is None:
                    s, e = offset + at, offset + at + size
                else:
                    s, e = offset + places[at], offset + places[at + size - 1] + 1
                if s <= start and end <= e and _stands_alone(text, s, e):
                    return name
                at = window.find(part, at + 1)
    return None


def _stands_alone(text: str, s: int, e: int) -> bool:
    before, after = text[s - 1:s], text[e:e + 1]
    return not (before and before.isalnum() and not _is_cjk(before) and not _is_cjk(text[s])) \
        and not (after and after.isalnum() and not _is_cjk(after) and not _is_cjk(text[e - 1]))
