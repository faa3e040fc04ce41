"""Slots in template text: ``"Your order {order_id} shipped on {ship_date}."``

A slot is ``{name}``; a literal brace is written ``{{`` or ``}}``. Used by the compiler for the
shapes and fallbacks a ruleset declares, and by the checker for the templates a model returns.
"""

from __future__ import annotations

import dataclasses
import re

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


@dataclasses.dataclass(frozen=True, slots=True)
class SlotAt:
    name: str
    start: int      # offset of '{' in the text
    end: int        # offset after '}'


@dataclasses.dataclass(frozen=True, slots=True)
class TemplateProblem:
    message: str
    start: int
    end: int


@dataclasses.dataclass(frozen=True, slots=True)
class ParsedTemplate:
    pieces: tuple[str, ...]         # literal text at even positions, slot names at odd ones
    slots: tuple[SlotAt, ...]
    problems: tuple[TemplateProblem, ...]

    @property
    def slot_names(self) -> tuple[str, ...]:
        """Distinct slot names in order of first use."""
        return tuple(dict.fromkeys(s.name for s in self.slots))

    @property
    def prose(self) -> str:
        """The literal text outside the slots."""
        return "".join(self.pieces[0::2])


def parse_template(text: str) -> ParsedTemplate:
    pieces: list[str] = []
    slots: list[SlotAt] = []
    problems: list[TemplateProblem] = []
    literal: list[str] = []
    index = 0
    while index < len(text):
        char = text[index]
        if text.startswith("{{", index) or text.startswith("}}", index):
            literal.append(char)
            index += 2
        elif char == "{":
            close = text.find("}", index + 1)
            opened = text.find("{", index + 1)
            if close < 0 or 0 <= opened < close:
                problems.append(TemplateProblem(
                    "`{` opens a slot that is never closed; write `{{` for a literal brace",
                    index, index + 1))
                literal.append(char)
                index += 1
                continue
            name = text[index + 1: close]
            if not _NAME.match(name):
                what = "an empty slot `{}`" if not name else f"`{{{name}}}` is not a slot name"
                candidate = "_".join(name.split())
                if name and candidate != name and _NAME.match(candidate):
                    what += f" (did you mean `{{{candidate}}}`?)"
                problems.append(TemplateProblem(
                    f"{what}; slot names are letters, digits and `_`, starting with a letter",
                    index, close + 1))
            else:
                pieces.append("".join(literal))
                pieces.append(name)
                literal = []
                slots.append(SlotAt(name, index, close + 1))
            index = close + 1
        elif char == "}":
            problems.append(TemplateProblem(
                "`}` closes no slot; write `}}` for a literal brace", index, index + 1))
            literal.append(char)
            index += 1
        else:
            literal.append(char)
            index += 1
    pieces.append("".join(literal))
    return ParsedTemplate(tuple(pieces), tuple(slots), tuple(problems))
