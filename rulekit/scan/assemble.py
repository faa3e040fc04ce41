"""The scanner: one ``_Scanner`` per text runs the passes in their order of claims (links,
CJK numerals, digits, words, units of table headers and labels, ranges, quotes) and turns the hits into ``Mention``s with their
original spans (context words are read lazily, see ``Mention``); ``scan`` is the entry point."""

from __future__ import annotations

import operator

from rulekit.scan.base import _CLAIMED, _DIGITS, _NOT_A_TO_Z, Mention, _ascii_lower, _Hit
from rulekit.scan.cjk import _Cjk
from rulekit.scan.code import Code
from rulekit.scan.figures import _Figures
from rulekit.scan.links import _Links
from rulekit.scan.locales import _LocaleInfo, _locale_info
from rulekit.scan.quotes import _Quotes, _covered, _nested
from rulekit.scan.reader import _prepare, _Text
from rulekit.scan.tables import _Tables
from rulekit.scan.when import _When, says_day_part
from rulekit.scan.words import _Words

_FILL = tuple(bytes((how,)) for how in range(4))     # the claim marks as one-byte strings
_ORDER = operator.attrgetter("start", "end", "kind")


class _Scanner(_Links, _When, _Figures, _Cjk, _Words, _Tables, _Quotes):
    """One scan of one text: the cleaned text, the claim mask and the hits that every pass
    shares. The passes themselves are the methods of the mixins, one module each."""

    def __init__(self, prepared: _Text, info: _LocaleInfo):
        self.prepared = prepared
        self.text = prepared.text
        self.low = _ascii_lower(self.text)
        self.ascii = self.text.isascii()
        self.has_east_asian = not self.ascii and ("月" in self.text or "월" in self.text)
        self.hours = info.language in ("de", "fr") or "Uhr" in self.text      # 21 Uhr, 21h30
        self.day_parts = says_day_part(self.low, info.language)     # "heute Abend um 10"
        self.info = info
        self.mask = bytearray(len(self.text))
        self.hits: list[_Hit] = []
        self.quotes: list[_Hit] = []
        self.paired = False                 # whether ``ranges`` linked two hits
        self.tokens: frozenset[bytes] | None = None     # ``ascii_tokens``, once computed
        self._code: Code | None | bool = False          # ``code``, once computed
        self.long_token = (0, 0)            # ``token_span``: the last token longer than its cap

    def free(self, s: int, e: int) -> bool:
        return self.mask.count(0, s, e) == e - s

    def claim(self, hit: _Hit, how: int = _CLAIMED) -> _Hit:
        self.mask[hit.s:hit.e] = _FILL[how] * (hit.e - hit.s)
        self.hits.append(hit)
        return hit

    def code(self) -> Code | None:
        """The code blocks and spans of the text (``rulekit.scan.code``), None when it has
        none; read once, and only from a pass that found something code may hold."""
        if self._code is False:
            text = self.text
            found = Code(text) if "`" in text or "~~~" in text else None
            self._code = found if found else None
        return self._code

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
        if "cent" in self.low or "pence" in self.low:
            self.cents()
        # (")" before "):" and ")*": a search for one character, memchr, costs a
        # twentieth of one for two or more)
        if ("|" in text or ")" in text and ("):" in text or ")*" in text)) and "(" in text:
            self.header_units()             # "Views (k)" over a column, "Revenue ($k): 3,100"
        self.ranges()
        self.find_quotes()
        return self.mentions()

    def mentions(self) -> list[Mention]:
        prepared, text = self.prepared, self.text
        original = prepared.original
        hits = self.hits + self.quotes if self.quotes else self.hits
        # In the order of their original spans, then kind; the sort is stable, so ties keep
        # the order in which the passes found them.
        if isinstance(prepared.starts, range):          # the cleaned text is the original
            for hit in hits:
                hit.start, hit.end = hit.s, hit.e
        else:
            span = prepared.span
            for hit in hits:
                hit.start, hit.end = span(hit.s, hit.e)
        hits.sort(key=_ORDER)
        position = ({id(hit): index for index, hit in enumerate(hits)} if self.paired
                    else None)
        quoted = (_covered(self.hits, self.quotes) | _nested(self.quotes)) if self.quotes else None
        for hit in hits:
            # Finished in place (see ``_Hit``): a helper taking the fields as arguments cost
            # more than the stores themselves.
            hit.text = original[hit.start:hit.end]
            pair = hit.pair
            if pair is not None:
                hit.range_with = position[id(pair)]
                hit.pair = None             # no reference cycle between the two ends
            else:
                hit.range_with = None
            # (most texts quote nobody: then no call of ``id`` per hit)
            hit.quoted = quoted is not None and id(hit) in quoted
            hit._context = text           # where ``before``/``after`` are read from, lazily
            hit.__class__ = Mention
        return hits


def scan_words(text: str, locale: str = "en_US"
               ) -> tuple[list[Mention], frozenset[bytes] | None]:
    """``scan(text, locale)``, and ``az_words(text.lower())`` when the scan can tell it at a
    fraction of its cost, else None: for an ASCII text read as it stands (nothing cleaned
    away), from its tokens (``ascii_tokens``, which every such scan splits), each a run of
    letters, digits, "_" and "-" that holds whole runs of a-z, once each (splitting the
    whole answer again into its words and hashing each cost 3% of a 1,500-character audit)."""
    scanner = _scanner(text, locale)
    if scanner is None:
        return [], None
    mentions = scanner.run()
    if not scanner.ascii or scanner.text != text:
        return mentions, None
    return mentions, frozenset(b" ".join(scanner.ascii_tokens()).translate(_NOT_A_TO_Z).split())


def scan(text: str, locale: str = "en_US") -> list[Mention]:
    """Every checkable mention in ``text``, sorted by (start, end, kind); deterministic.
    ``locale`` decides ambiguous separators (1.299), day/month order (05/08/2026), which
    currency ``$`` names, and which month names and number words are read. An unknown locale
    raises ``ValueError``; any text is accepted."""
    scanner = _scanner(text, locale)
    return [] if scanner is None else scanner.run()


def _scanner(text: str, locale: str) -> _Scanner | None:
    """The scanner of ``text`` (None for an empty text), or the errors of ``scan``."""
    info = _locale_info(locale)
    if not isinstance(text, str):
        raise TypeError(f"scan needs a str, not {type(text).__name__}")
    if not text:
        return None
    return _Scanner(_prepare(text), info)
