"""Text output for a terminal: what the model or the data wrote, never raw.

A model's ``entity_id`` of ``"RC-500\\n\\ndecision: answer"``, an ANSI escape in a claimed value
or a field name in a decision log would otherwise forge a line of rulekit's own output (a
``decision: answer`` that a script's ``grep -m1 '^decision:'`` reads first) or rewrite the
terminal. ``one_line`` shows every control character as an escape (``\\n``, ``\\x1b``,
``\\u2028``): C0 and C1 controls, DEL, the line and paragraph separators, the bidirectional
overrides and isolates and the other invisible format characters, lone surrogates. Letters,
punctuation, spaces of any width (a no-break space in ``1 299 €``) and emoji joiners stay as
they are. ``lines`` keeps a text's line breaks, as lines indented under a label, so that no
line of a multi-line answer starts where rulekit's own lines do. A backslash is not escaped.
"""

from __future__ import annotations

import re

# Control characters (C0 but tab and newline, DEL, C1), the line and paragraph separators, and
# the format characters that hide or reorder text: Arabic letter mark, zero width space, the
# left-to-right and right-to-left marks, embeddings and overrides, word joiner and invisible
# operators, isolates, byte order mark, interlinear annotations, tags; and lone surrogates,
# which cannot even be written to a UTF-8 terminal. ZWNJ and ZWJ (U+200C, U+200D) stay: they
# join emoji and shape scripts.
_HIDDEN = ("\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u180e\u200b\u200e\u200f\u2028-\u202e"
           "\u2060-\u206f\ufeff\ufff9-\ufffb\ud800-\udfff\U000e0000-\U000e007f")
_IN_A_LINE = re.compile(f"[\t\n{_HIDDEN}]")
_IN_LINES = re.compile(f"[{_HIDDEN}]")
_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escape(match: re.Match) -> str:
    char = match.group()
    code = ord(char)
    if char in _NAMED:
        return _NAMED[char]
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def one_line(text: object) -> str:
    """``text`` (made a string) on one line, every control character shown as an escape."""
    text = str(text)
    return _IN_A_LINE.sub(_escape, text) if _IN_A_LINE.search(text) else text


def lines(text: str, indent: str = "  ") -> list[str]:
    """``text`` as lines to print under a label: the first as it is, the rest indented by
    ``indent``; tabs stay, every other control character (a carriage return too) is shown as
    an escape."""
    if _IN_LINES.search(text):
        text = _IN_LINES.sub(_escape, text)
    first, *rest = text.split("\n")
    return [first] + [indent + line for line in rest]
