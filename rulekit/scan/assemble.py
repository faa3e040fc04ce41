"""The scanner: one ``_Scanner`` per text runs the passes in their order of claims (links,
CJK numerals, digits, words, ranges, quotes) and turns the hits into ``Mention``s with their
original spans and context words; ``scan`` is the entry point."""

from __future__ import annotations

import re

from rulekit.scan.base import _CLAIMED, _CONTEXT_STRIP, _DIGITS, Mention, _ascii_lower, _Hit
from rulekit.scan.cjk import _Cjk
from rulekit.scan.figures import _Figures
from rulekit.scan.links import _Links
from rulekit.scan.locales import _LocaleInfo, _locale_info
from rulekit.scan.quotes import _Quotes, _covered, _nested
from rulekit.scan.reader import _prepare, _Text
from rulekit.scan.when import _When
from rulekit.scan.words import _Words


class _Scanner(_Links, _When, _Figures, _Cjk, _Words, _Quotes):
    """One scan of one text: the cleaned text, the claim mask and the hits that every pass
    shares. The passes themselves are the methods of the mixins, one module each."""

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
