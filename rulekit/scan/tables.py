"""Units written once for many numbers: a Markdown table column headed "Views (k)", "Revenue
($M)" or "CTR (%)", and a label "Revenue ($k): 3,100". The numbers under such a header, or
after such a label on its line, are read in its unit: 12.3 under "Views (k)" is 12,300 shown
to the hundred, 3,100 after "Revenue ($k):" is 3,100,000 dollars, 4.6 under "CTR (%)" is
4.6 %. A number that writes its own scale, percent sign or currency keeps what it writes."""

from __future__ import annotations

import bisect
import re

from rulekit.scan.base import _Hit
from rulekit.scan.figures import _currency_for, _iso_codes

# The unit in brackets: a currency sign or ISO code and/or a scale, or a per cent sign. Lower
# case "m" alone is metres or minutes, never millions; after a currency sign ("$m", "£mm") it
# is the finance writing of millions. German: "Mio. €", "Mrd. €", "Tsd. €", "T€", "TEUR".
_UNIT = re.compile(r"\((?:in[ \t]+)?(?:(?P<cur>[$€£¥₹]|[A-Z]{3})[ \t]*,?[ \t]*)?(?:in[ \t]+)?"
                   r"(?P<scale>k|K|'?000s?|thousands?|M|MM|mn|millions?|bn|B|billions?|"
                   r"Tsd\.?|Mio\.?|Mrd\.?|T(?=€|EUR)|(?<=[$€£¥₹])(?:mm|m|bn|k))?"
                   r"(?:[ \t]+of[ \t]+(?P<word>dollars|euros|pounds|\$|€|£))?"
                   r"[ \t]*(?P<cur2>[$€£¥₹]|EUR|USD|GBP)?[ \t]*(?P<pct>%)?[ \t]*\)")
_SCALE_OF = {"k": 10**3, "K": 10**3, "000": 10**3, "000s": 10**3, "'000": 10**3, "'000s": 10**3,
             "thousand": 10**3, "thousands": 10**3, "M": 10**6, "MM": 10**6, "mn": 10**6,
             "million": 10**6, "millions": 10**6, "bn": 10**9, "B": 10**9, "billion": 10**9,
             "billions": 10**9, "m": 10**6, "mm": 10**6, "Tsd": 10**3, "Tsd.": 10**3,
             "T": 10**3, "Mio": 10**6, "Mio.": 10**6, "Mrd": 10**9, "Mrd.": 10**9}
_WORD_SIGNS = {"dollars": "$", "euros": "€", "pounds": "£", "$": "$", "€": "€", "£": "£"}
# A Markdown table's delimiter row: | --- | :---: | ---: | (one dash is enough: |:-|-:|)
DELIMITER_ROW = re.compile(r"[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$")
# A table may stand in a blockquote ("> | Post | Views |"), as a model quoting a report writes it.
_QUOTE_MARKS = re.compile(r"[ \t]{0,3}>(?:[ \t]*>)*[ \t]?")


def row_span(text: str, start: int, end: int) -> tuple[int, int]:
    """The part of the line [start, end) that a table row may hold: after a blockquote's marks
    and before the carriage return of a CRLF line end."""
    if end > start and text[end - 1] == "\r":
        end -= 1
    marks = _QUOTE_MARKS.match(text, start, end)
    return (marks.end(), end) if marks is not None else (start, end)


# After a label's unit: its colon (maybe inside emphasis: "**Revenue ($k):** 3,100").
_LABEL_COLON = re.compile(r"[ \t]*(?:[*_]{1,2}[ \t]*)?:")
# How far a label's unit reaches: its line, up to a semicolon or the end of a sentence.
_LABEL_END = re.compile(r"[\n;]|\.(?:[ \t]|$)")
_LABEL_REACH = 200


class _Tables:
    """Units in table headers and labels; a part of ``_Scanner``. Runs after the digits are
    read and before ranges are linked."""

    def header_units(self) -> None:
        text = self.text
        regions: list[tuple[int, int, _Unit]] = []
        line_end = table_end = -1
        in_table = False
        units: list[tuple[int, int]] = []       # the spans of the units read, in order
        for match in _UNIT.finditer(text):
            unit = _unit_of(match, self.info.locale)
            at = match.start()
            if unit is not None and "0" in match.group():
                units.append(match.span())
            if unit is None or at < table_end:
                continue                    # (a table's rows were read with its header)
            if at <= line_end:
                if not in_table:
                    self._label(match.end(), unit, regions)
                continue
            line_start = text.rfind("\n", 0, at) + 1
            line_end = text.find("\n", at)
            if line_end < 0:
                line_end = len(text)
            table_end = self._table(line_start, line_end, regions) \
                if "|" in text[line_start:line_end] else -1
            in_table = table_end >= 0
            if not in_table:
                self._label(match.end(), unit, regions)
        if units:
            # The digits of a unit ("('000)", "(000s)") are the unit's, not figures.
            self.hits = [hit for hit in self.hits
                         if not any(a <= hit.s and hit.e <= b for a, b in _within(units, hit.s))]
        if regions:
            regions.sort(key=_FIRST)
            _apply(self.hits, regions)

    def _label(self, after: int, unit: "_Unit", regions: list) -> None:
        """ "Revenue ($k): 3,100": the numbers after the colon, on its line, in the unit."""
        colon = _LABEL_COLON.match(self.text, after)
        if colon is None:
            return
        start = colon.end()
        stop = _LABEL_END.search(self.text, start, start + _LABEL_REACH)
        regions.append((start, stop.start() if stop else min(len(self.text), start + _LABEL_REACH),
                        unit))

    def _table(self, line_start: int, line_end: int, regions: list) -> int:
        """A header row of a Markdown table at [line_start, line_end): the cells below each
        header cell that writes a unit, in that unit. Where the table ends, or -1 when the
        line is no header row."""
        text = self.text
        next_start = line_end + 1
        next_end = text.find("\n", next_start)
        if next_end < 0:
            next_end = len(text)
        if next_start >= len(text) or not DELIMITER_ROW.match(text,
                                                              *row_span(text, next_start, next_end)):
            return -1
        units = {}
        for column, (a, b) in enumerate(cells_of(text, *row_span(text, line_start, line_end))):
            found = _UNIT.search(text, a, b)
            unit = _unit_of(found, self.info.locale) if found else None
            if unit is not None:
                units[column] = unit
        row_start = next_end + 1
        while units and row_start < len(text):
            row_end = text.find("\n", row_start)
            if row_end < 0:
                row_end = len(text)
            if "|" not in text[row_start:row_end]:
                break
            for column, (a, b) in enumerate(cells_of(text, *row_span(text, row_start, row_end))):
                unit = units.get(column)
                if unit is not None:
                    regions.append((a, b, unit))
            row_start = row_end + 1
        return row_start


class _Unit:
    __slots__ = ("scale", "currency", "percent")

    def __init__(self, scale: int, currency: str | None, percent: bool):
        self.scale, self.currency, self.percent = scale, currency, percent


def _unit_of(match: re.Match, locale: str) -> _Unit | None:
    """The unit a bracket writes, or None when it writes none ("(USA)", "(2026)")."""
    cur, scale, word, cur2, pct = match.group("cur", "scale", "word", "cur2", "pct")
    if pct:
        return _Unit(1, None, True) if not (cur or scale or word or cur2) else None
    sign = cur or cur2 or _WORD_SIGNS.get(word or "")
    if sign is not None and len(sign) == 3 and sign not in _iso_codes():
        return None
    if scale is None and sign is None:
        return None
    return _Unit(_SCALE_OF[scale] if scale else 1,
                 _currency_for(sign, locale) if sign else None, False)


def cells_of(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The cells of a table row at [start, end), split at pipes that are not escaped; the
    empty pieces outside a leading and a trailing pipe are not cells."""
    cells, a = [], start
    at = text.find("|", start, end)
    while at >= 0:
        if at == start or text[at - 1] != "\\":
            cells.append((a, at))
            a = at + 1
        at = text.find("|", at + 1, end)
    cells.append((a, end))
    if cells and not text[cells[0][0]:cells[0][1]].strip():
        del cells[0]
    if cells and not text[cells[-1][0]:cells[-1][1]].strip():
        del cells[-1]
    return cells


def _FIRST(region: tuple) -> int:
    return region[0]


def _within(spans: list[tuple[int, int]], at: int) -> list[tuple[int, int]]:
    """The span of ``spans`` (sorted, not overlapping) that starts last at or before ``at``."""
    index = bisect.bisect_right(spans, (at, float("inf"))) - 1
    return [spans[index]] if index >= 0 else []


def _apply(hits: list[_Hit], regions: list[tuple[int, int, _Unit]]) -> None:
    """Read each plain number inside a region in its unit; one bisection per hit."""
    starts = [region[0] for region in regions]
    for hit in hits:
        if hit.kind != "number" or hit.value is None or hit.scaled or hit.percent \
                or hit.glued or hit.ordinal:
            continue
        at = bisect.bisect_right(starts, hit.s) - 1
        if at < 0 or hit.e > regions[at][1]:
            continue
        unit = regions[at][2]
        if unit.percent:
            if hit.currency is None:
                hit.percent = True
            continue
        if unit.currency is not None:
            if hit.currency is None:
                hit.currency = unit.currency
            elif hit.currency != unit.currency:
                continue                    # "($k)" over "€3,100": the cell says otherwise
        if unit.scale > 1:
            hit.value *= unit.scale
            hit.scaled, hit.scale = True, unit.scale
