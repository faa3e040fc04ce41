"""The scanner: one ``_Scanner`` per text runs the passes in their order of claims (links,
CJK numerals, digits, words, ranges, quotes) and turns the hits into ``Mention``s with their
original spans (context words are read lazily, see ``Mention``); ``scan`` is the entry point."""

from __future__ import annotations

from rulekit.scan.base import _CLAIMED, _DIGITS, Mention, _ascii_lower, _Hit, _new_mention
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
            out.append(_new_mention(
                kind, original[start:end], start, end, hit.value, hit.decimals, hit.scaled,
                hit.percent, hit.currency, hit.sign,
                position[id(hit.pair)] if hit.pair is not None else None,
                hit.day, hit.normalized, hit.token, hit.glued, (text, left, right), hit.ordinal,
                hit.scale, hit.time, id(hit) in quoted))
        return out


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
