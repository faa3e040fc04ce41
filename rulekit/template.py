"""Slots in template text: ``"Your order {order_id} shipped on {ship_date}."``

A slot is ``{name}``; a literal brace is written ``{{`` or ``}}``. Used by the compiler for the
shapes and fallbacks a ruleset declares, and by the checker for the templates a model returns.
"""

from __future__ import annotations

import dataclasses
import functools
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
    # Distinct slot names in order of first use; worked out once, as every reply asks for them.
    slot_names: tuple[str, ...] = dataclasses.field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "slot_names", tuple(dict.fromkeys(s.name for s in self.slots)))

    @property
    def prose(self) -> str:
        """The literal text outside the slots."""
        return "".join(self.pieces[0::2])


# One token at a time: an escaped brace, a well-formed slot, or a lone brace (a problem).
_TOKEN = re.compile(r"\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}|[{}]")


# Templates come from rulesets and from models; a model's can be as long as its reply. Only
# templates of sentence length are cached, so the cache stays small whatever a model writes.
CACHED_LENGTH = 2048


def parse_template(text: str) -> ParsedTemplate:
    """Split a template into literal text and slots. Cached: a process sees the same shapes,
    fallbacks and model templates again and again, and the result is immutable."""
    if len(text) <= CACHED_LENGTH:
        return _parse_cached(text)
    return _parse(text)


def _parse(text: str) -> ParsedTemplate:
    if "{" not in text and "}" not in text:
        return ParsedTemplate((text,), (), ())
    pieces: list[str] = []
    slots: list[SlotAt] = []
    problems: list[TemplateProblem] = []
    literal: list[str] = []
    position = 0
    for match in _TOKEN.finditer(text):
        if match.start() < position:    # inside a malformed `{...}` already reported
            continue
        literal.append(text[position:match.start()])
        position = match.end()
        token = match.group(0)
        if token in ("{{", "}}"):
            literal.append(token[0])
        elif match.group(1) is not None:
            pieces.append("".join(literal))
            pieces.append(match.group(1))
            literal = []
            slots.append(SlotAt(match.group(1), match.start(), match.end()))
        elif token == "}":
            problems.append(TemplateProblem(
                "`}` closes no slot; write `}}` for a literal brace", match.start(), match.end()))
            literal.append(token)
        else:
            problem, skip_to = _bad_opening(text, match.start())
            problems.append(problem)
            if skip_to is None:
                literal.append(token)
            else:
                position = skip_to
    literal.append(text[position:])
    pieces.append("".join(literal))
    return ParsedTemplate(tuple(pieces), tuple(slots), tuple(problems))


_parse_cached = functools.lru_cache(maxsize=1024)(_parse)


def _bad_opening(text: str, index: int) -> tuple[TemplateProblem, int | None]:
    """A `{` that does not start a well-formed slot: never closed, or closing something that is
    not a slot name. Returns the problem and where reading resumes (None: right after `{`)."""
    close = text.find("}", index + 1)
    opened = text.find("{", index + 1)
    if close < 0 or 0 <= opened < close:
        return TemplateProblem("`{` opens a slot that is never closed; write `{{` for a literal "
                               "brace", index, index + 1), None
    name = text[index + 1: close]
    what = "an empty slot `{}`" if not name else f"`{{{name}}}` is not a slot name"
    candidate = "_".join(name.split())
    if name and candidate != name and _NAME.match(candidate):
        what += f" (did you mean `{{{candidate}}}`?)"
    return TemplateProblem(f"{what}; slot names are letters, digits and `_`, starting with a "
                           "letter", index, close + 1), close + 1
