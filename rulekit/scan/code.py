"""Code in an answer: the spans of its fenced code blocks and inline code spans, and what a
reader of code does not read as prose there (docs/sweep.md, "Code in an answer").

A developer's answer quotes commands and programs. Inside code a string literal
(``-H "Authorization: Bearer $KEY"``, ``{"error": "..."}``) is no quotation, a decorator
(``@app.route``, ``@retry``) or a command's file argument (``curl -d @body.json``, ``-F
file=@photo.jpg``) is no handle, and a path on a file system's root (``/usr/local/bin/poll``)
is a file on the user's machine, not a relative link. Everything else in code is read as
anywhere: numbers, versions, hosts, links with a scheme and e-mail addresses.

Markdown's rules, simplified: a fence line of three or more backticks or tildes opens a block
that a fence line of the same mark, at least as long and with nothing after it, closes (an
unclosed block runs to the end of the text); outside blocks a run of backticks opens a span
that the next run of the same length closes, within its paragraph (a blank line ends it)."""

from __future__ import annotations

import bisect
import re
from typing import Iterator

# A fence line of a fenced code block: its fence and what follows on the line.
FENCE = re.compile(r"(?m)^[ \t]{0,3}(`{3,}|~{3,})([^\n]*)$")
_TICKS = re.compile(r"`+")
_BLANK_LINE = re.compile(r"\n[ \t\r\u00a0]*\n")

# Before an @ in code, what makes it a command's file argument: curl's data and upload
# options ("-d @body.json", "--data-binary @x", "-T @f"), or a form field's "=" ("-F
# file=@photo.jpg", "key=@file").
_FILE_ARGUMENT = re.compile(r"(?:(?<![\w-])(?:-d|--data(?:-binary|-raw|-urlencode|-ascii)?|"
                            r"-T|--upload-file|-K|--config|--json)[ \t]+|\w=)\Z")
# The first segment of a path on a file system's root: a file of the user's machine.
_FILE_ROOTS = frozenset("usr opt etc var home tmp bin sbin lib lib64 srv root dev proc sys mnt "
                        "media run boot snap nix Users Applications Library System Volumes "
                        "private".split())


def fenced_blocks(text: str) -> Iterator[tuple[re.Match, re.Match | None]]:
    """The fenced code blocks of ``text``: each opening fence line's match with the closing
    one's, or None for a block no fence closes (it runs to the end of the text)."""
    opening = None
    for match in FENCE.finditer(text):
        fence, rest = match.group(1), match.group(2)
        if opening is None:
            if not (fence[0] == "`" and "`" in rest):
                opening = match
        elif fence[0] == opening.group(1)[0] and len(fence) >= len(opening.group(1)) \
                and not rest.strip():
            yield opening, match
            opening = None
    if opening is not None:
        yield opening, None


def code_regions(text: str) -> list[tuple[int, int, bool]]:
    """The code of ``text`` as sorted, disjoint spans ``(start, end, fenced)``: fenced blocks
    from their opening fence to the end of their closing one, inline spans with their
    backticks. Linear: each run of backticks is read once."""
    regions: list[tuple[int, int, bool]] = []
    if "```" in text or "~~~" in text:
        regions = [(opening.start(), closing.end() if closing is not None else len(text), True)
                   for opening, closing in fenced_blocks(text)]
    if "`" not in text:
        return regions
    spans: list[tuple[int, int, bool]] = []
    blocks = iter(regions)
    block = next(blocks, None)
    opening: re.Match | None = None
    for run in _TICKS.finditer(text):
        s = run.start()
        while block is not None and block[1] <= s:
            block = next(blocks, None)
        if block is not None and block[0] <= s:
            opening = None                  # inside a fenced block: its own code
            continue
        if opening is not None and _BLANK_LINE.search(text, opening.end(), s) is not None:
            opening = None                  # a paragraph ended: the span never closed
        if opening is None:
            opening = run
        elif len(run.group()) == len(opening.group()):
            spans.append((opening.start(), run.end(), False))
            opening = None
    return sorted(regions + spans)


class Code:
    """The code regions of one text, looked up by bisection."""

    def __init__(self, text: str):
        self.text = text
        self.regions = code_regions(text)
        self.starts = [s for s, _, _ in self.regions]

    def __bool__(self) -> bool:
        return bool(self.regions)

    def region(self, s: int, e: int | None = None) -> tuple[int, int, bool] | None:
        """The region holding text[s:e] (text[s] when ``e`` is None), or None."""
        at = bisect.bisect_right(self.starts, s) - 1
        if at < 0:
            return None
        region = self.regions[at]
        return region if (e if e is not None else s + 1) <= region[1] else None

    def code_handle(self, s: int, e: int) -> bool:
        """Whether the handle at text[s:e] is code: a decorator (the first thing on its line of
        a fenced block, or at the start of an inline span when a call or a dotted name follows:
        "`@app.route`", "`@retry(3)`") or a command's file argument ("-d @body.json")."""
        region = self.region(s, e)
        if region is None:
            return False
        text = self.text
        line = max(text.rfind("\n", 0, s) + 1, region[0])
        before = text[line:s]
        if _FILE_ARGUMENT.search(before[-40:]):
            return True
        if region[2]:
            return not before.strip()
        return not before.strip("` \t") and ("." in text[s:e] or text.startswith("(", e))

    def file_path(self, s: int, e: int) -> bool:
        """Whether the relative link at text[s:e] is a path on a file system's root, in code."""
        if self.region(s, e) is None:
            return False
        first = self.text[s + 1:e].split("/", 1)[0]
        return first in _FILE_ROOTS
