"""The rows the user's question names, against the rows the claims cite (``check(question=)``).

"What was the total of order ORD-0012?" answered "The order total was {total}." with the total
of ORD-0013, another of the customer's orders, reads as ORD-0012's total: every claim is true
of its own row, and the shape does not say which order it speaks of. So a key of an entity the
reply cites that the question names, that no claim cites, and that is a row of that entity (one
more lookup finds it, scoped to the tenant as every lookup is) makes each confirmed claim on a
row of that entity that the question does not name ``misattributed``. An assent ("Yes, the
order total was {total}." to "Was ORD-0012 $45.50?") is held the same way.

The question's words are read for keys cheaply: only a question with a digit is read, and only
tokens with a digit are keys (``ORD-0012``, ``A1001``); a bare number (``1042``) is a key of an
integer-keyed entity only after ``#`` or the entity's name ("order 1042", "order #1042"), so
the figures of a question ("Is it $45?", "2 items") name no row.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from typing import Any

from rulekit.compare import key_matches
from rulekit.decision import ClaimResult

# A token with a digit: letters, digits and the joiners of a code (ORD-0012, A/1001, 12.345-B).
_TOKEN = re.compile(r"#?[^\W_]+(?:[-_./][^\W_]+)*")
# Keys looked up per entity: a question naming more is no question about one row.
MAX_KEYS = 8


def asked_keys(question: str, planned: Sequence[Any]) -> dict[str, tuple[str, ...]]:
    """Per entity the reply cites (by a claim that was looked up), the key-shaped tokens of
    ``question`` that no claim of that entity cites, in the question's order; {} for most
    questions (no digit)."""
    if not any(c.isdigit() for c in question):
        return {}
    cited: dict[str, tuple[Any, list[str]]] = {}
    for item in planned:
        if item.blocked is None and item.entity is not None:
            entity = item.entity
            _, ids = cited.setdefault(entity.name, (entity, []))
            ids.append(str(item.claim.entity_id))
    wanted: dict[str, tuple[str, ...]] = {}
    for name, (entity, ids) in cited.items():
        key = entity.field(entity.key)
        found = [token for token in _tokens(question, name, key.type.kind)
                 if not any(key_matches(key.type, token, ident) for ident in ids)]
        if found:
            wanted[name] = tuple(dict.fromkeys(found))[:MAX_KEYS]
    return wanted


def _tokens(question: str, entity: str, key_kind: str) -> list[str]:
    words = entity.replace("_", " ").casefold()
    found = []
    for match in _TOKEN.finditer(question):
        token = match.group()
        if not any(c.isdigit() for c in token):
            continue
        bare = token.lstrip("#")
        if bare.isdigit():
            before = question[:match.start()].rstrip(" :").casefold()
            if not (token.startswith("#") or before.endswith(words)
                    or before.endswith(words + " no.") or before.endswith(words + " number")):
                continue    # a figure of the question, not a key
        elif key_kind == "integer":
            continue
        found.append(bare)
    return found


def misattributed_to_question(planned: Sequence[Any], results: list[ClaimResult],
                              question: str, named: Mapping[str, Sequence[str]]
                              ) -> list[ClaimResult]:
    """``results`` with each confirmed claim on a row of an entity in ``named`` (the keys the
    question names that are rows and that no claim cites) that the question does not name
    itself made ``misattributed``."""
    out = list(results)
    for item in planned:
        keys = named.get(item.entity.name) if item.entity is not None else None
        if not keys or out[item.index].outcome != "confirmed":
            continue
        key = item.entity.field(item.entity.key)
        own = str(item.claim.entity_id)
        if any(key_matches(key.type, token, own)
               for token in _tokens(question, item.entity.name, key.type.kind)):
            continue    # a row the question names too: one of those it asks about
        asked = ", ".join(f"{item.entity.name} {k}" for k in keys)
        out[item.index] = dataclasses.replace(
            out[item.index], outcome="misattributed", reason_code="misattributed",
            reason=(f"{{{item.claim.key}}} is the {item.field.name} of {item.entity.name} "
                    f"{own}, but the question asks about {asked}, which no claim cites; "
                    f"answer about the {item.entity.name} the question names"))
    return out
