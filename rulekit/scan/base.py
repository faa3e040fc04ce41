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


_DIGITS = re.compile(r"[0-9]+")
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_CONTEXT_STRIP = ("\"'“”‘’«»„‚‹›「」『』()[]{}<>.,;:!?*_`~|-\u2010\u2013\u2014/")

_LINK, _CLAIMED, _IDIOM = 1, 2, 3


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


def _ascii_lower(text: str) -> str:
    """``text`` lower-cased, index for index (``str.lower`` may lengthen a few characters)."""
    lowered = text.lower()
    return lowered if len(lowered) == len(text) else text.translate(_ASCII_LOWER)


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
