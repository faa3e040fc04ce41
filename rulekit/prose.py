"""The text a model writes outside the slots of its template.

``prose shapes``: the template must be made of approved sentence shapes, each slot holding the
field the shape binds. ``prose guarded``: any prose is allowed except statements a slot-less
sentence cannot back: comparatives, causes, promises and generalisations. ``prose free``:
anything. In every mode the prose is then swept (see check._swept_prose): facts travel only
through slots.
"""

from __future__ import annotations

import functools
import re
from typing import Mapping, Sequence

from rulekit.policy import Template
from rulekit.template import ParsedTemplate

_SLOT_MARK = "\x00"

# Words that make a factual statement without a slot to verify it (seed 002: "a cheap
# classifier over the non-slot text, flagging comparatives, quantities and causal claims").
GUARDED_PHRASES = (
    "because", "due to", "since", "therefore", "as a result", "caused by",
    "usually", "typically", "normally", "unusual", "unusually", "always", "never", "often",
    "rarely", "guarantee", "guaranteed", "promise", "definitely", "certainly", "will arrive",
    "will be delivered", "will ship", "by tomorrow", "more than", "less than", "fewer than",
    "at least", "at most", "cheaper", "cheapest", "more expensive", "faster", "fastest",
    "slower", "higher", "highest", "lower", "lowest", "larger", "largest", "smaller",
    "smallest", "best", "worst", "most", "least", "twice", "double", "half", "dozen",
)
_GUARDED = re.compile(r"(?<![\w-])(" + "|".join(re.escape(p) for p in GUARDED_PHRASES) + r")(?![\w-])",
                      re.IGNORECASE)


def _skeleton(pieces: Sequence[str], slot_fields: Mapping[str, str]) -> str:
    """Literal text with white space collapsed, each slot replaced by a marked `entity.field`."""
    out = []
    for index, piece in enumerate(pieces):
        out.append(piece if index % 2 == 0 else f"{_SLOT_MARK}{slot_fields.get(piece, '?')}{_SLOT_MARK}")
    return " ".join("".join(out).split())


# Templates come from the model; only those of sentence length are cached, so the caches below
# stay small whatever a model writes (a longer template is simply worked out every time).
CACHED_LENGTH = 2048


def matches_shapes(template: ParsedTemplate, slot_fields: Mapping[str, str],
                   shape_skeletons: tuple[str, ...]) -> bool:
    """True when the template is one or more approved shapes, one after the other, each slot
    holding the field its shape binds (``slot_fields``: slot name -> "entity.field";
    ``shape_skeletons`` from ``skeletons(policy.shapes)``, which a Policy keeps)."""
    bindings = tuple(slot_fields.items())
    if sum(map(len, template.pieces)) <= CACHED_LENGTH:
        return _matches_cached(template.pieces, bindings, shape_skeletons)
    return _matches(template.pieces, bindings, shape_skeletons)


def _matches(pieces: tuple[str, ...], bindings: tuple[tuple[str, str], ...],
             shape_skeletons: tuple[str, ...]) -> bool:
    return _segments(_skeleton(pieces, dict(bindings)), shape_skeletons)


# A model reuses its few templates with different values, and the answer depends only on the
# template, which slot holds which field, and the approved shapes: all in the key.
_matches_cached = functools.lru_cache(maxsize=1024)(_matches)


def skeletons(shapes: Sequence[Template]) -> tuple[str, ...]:
    return tuple(_skeleton(s.pieces, {slot.name: f"{slot.entity}.{slot.field}" for slot in s.slots})
                 for s in shapes)


def _segments(text: str, candidates: tuple[str, ...]) -> bool:
    """Can ``text`` be cut into candidates separated by single spaces?"""
    reachable = {0}
    for position in range(len(text) + 1):
        if position not in reachable:
            continue
        for candidate in candidates:
            if candidate and text.startswith(candidate, position):
                end = position + len(candidate)
                reachable.add(end + 1 if text.startswith(" ", end) else end)
    return len(text) in reachable or len(text) + 1 in reachable


def guarded_phrases(prose: str) -> list[str]:
    """The phrases in slot-less text that `prose guarded` does not allow, in order."""
    return [m.group(0) for m in _GUARDED.finditer(prose)]


_WORDY_FIGURE = re.compile(r"(?i)\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|"
                          r"twelve|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|"
                          r"thousand|million|billion|dozen|half|twice|double|triple|"
                          # relative days: the sweep judges them against the evidence's dates
                          r"yesterday|today|tonight|tomorrow|last night)\b|"
                          r"[零〇一二三四五六七八九十百千万萬亿億两兩倍成]|昨天|今天|明天|前天|後天|后天|"
                          r"@|https?:|www\.|[\"“”«「『]")


def may_hold_figures(prose: str) -> bool:
    """A cheap first look, cached per template: could this prose hold a digit, a number word,
    a multiple, a handle, a link or a quote? Only then is it worth a full sweep."""
    if len(prose) <= CACHED_LENGTH:
        return _may_hold_figures_cached(prose)
    return _may_hold_figures(prose)


def _may_hold_figures(prose: str) -> bool:
    return _DIGIT.search(prose) is not None or _WORDY_FIGURE.search(prose) is not None


_may_hold_figures_cached = functools.lru_cache(maxsize=1024)(_may_hold_figures)


_DIGIT = re.compile(r"\d")
