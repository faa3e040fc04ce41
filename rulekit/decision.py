"""The decision a check returns, and how the ruleset's failure actions choose it.

When several things fail at once, the strictest action wins:

    handoff > refuse > ask > fallback > regenerate > answer

A person beats any automatic text; saying nothing beats asking; asking for what is missing beats
text that cannot hold what the user needs; code-built text beats another model attempt. A
`regenerate` whose attempts are used up becomes its `then` action before the comparison.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from rulekit.policy import Action, Policy

STRICTNESS: dict[str, int] = {"answer": 0, "regenerate": 1, "fallback": 2, "ask": 3,
                              "refuse": 4, "handoff": 5}


@dataclasses.dataclass(frozen=True, slots=True)
class Reason:
    code: str           # an outcome (contradicted, stale, ...) or malformed_reply, lookup_failed...
    message: str
    path: str | None = None

    def to_dict(self) -> dict:
        return {"code": self.code, "message": self.message, "path": self.path}


@dataclasses.dataclass(frozen=True, slots=True)
class ClaimResult:
    key: str
    entity: str
    entity_id: str
    field: str
    type: str
    outcome: str        # confirmed | contradicted | misattributed | not_found | not_checkable | stale
    claimed: Any
    actual: Any = None              # the stored value, JSON-safe (None when never read)
    claimed_normal: Any = None      # both sides in the type's normal form
    actual_normal: Any = None
    citation: str | None = None     # entity:id#field
    updated_at: str | None = None
    reason: str | None = None       # why it is not confirmed, in words
    reason_code: str | None = None  # lookup_failed, missing_input, hidden_field, ...
    path: str | None = None         # the claim's JSON path in the reply

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


class _ClaimResultDraft:
    """A mutable twin of ``ClaimResult`` (the same slots, in the same order): a check builds one
    result per claim with plain attribute stores and then makes it a ``ClaimResult`` by
    assigning ``__class__`` (as ``rulekit.findings`` does for findings), because a frozen
    dataclass's ``__init__`` sets each of its 15 fields through ``object.__setattr__``, several
    times slower."""
    __slots__ = ClaimResult.__slots__


def claim_result(key: str, entity: str, entity_id: str, field: str, type: str, outcome: str,
                 claimed: Any, actual: Any = None, claimed_normal: Any = None,
                 actual_normal: Any = None, citation: str | None = None,
                 updated_at: str | None = None, reason: str | None = None,
                 reason_code: str | None = None, path: str | None = None) -> ClaimResult:
    """``ClaimResult(...)`` with the same arguments and the same result, built faster."""
    draft = _ClaimResultDraft()
    draft.key, draft.entity, draft.entity_id, draft.field, draft.type = (
        key, entity, entity_id, field, type)
    draft.outcome, draft.claimed, draft.actual = outcome, claimed, actual
    draft.claimed_normal, draft.actual_normal = claimed_normal, actual_normal
    draft.citation, draft.updated_at, draft.reason = citation, updated_at, reason
    draft.reason_code, draft.path = reason_code, path
    draft.__class__ = ClaimResult
    return draft  # type: ignore[return-value]


@dataclasses.dataclass(frozen=True, slots=True)
class Fact:
    key: str
    citation: str
    value: Any          # the stored value, JSON-safe
    text: str           # as rendered for the customer
    updated_at: str | None = None

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True, slots=True)
class Decision:
    decision: str                   # answer | regenerate | refuse | ask | handoff | fallback
    ruleset: dict
    text: str | None = None         # only for answer and fallback
    message: str | None = None      # for refuse, ask and handoff: what the user is told
    claims: tuple[ClaimResult, ...] = ()
    unsupported_claims: tuple[str, ...] = ()
    facts: tuple[Fact, ...] = ()
    feedback: str | None = None     # for the model, on regenerate
    next_action: str | None = None  # a hint for the caller: ask_for_postcode, regenerate, ...
    citations: tuple[dict, ...] = ()
    reasons: tuple[Reason, ...] = ()
    attempt: int = 1
    # For a "Sources" panel under the answer: each lookup (claims) or routed source (free text)
    # that ran, with how many rows it returned, whether it was empty, and its error if it failed.
    sources: tuple[dict, ...] = ()

    @property
    def delivered(self) -> bool:
        """True when there is text a customer may read."""
        return self.decision in ("answer", "fallback") and self.text is not None

    def to_dict(self) -> dict:
        return {
            "decision": self.decision, "text": self.text, "message": self.message,
            "claims": [c.to_dict() for c in self.claims],
            "unsupported_claims": list(self.unsupported_claims),
            "facts": [f.to_dict() for f in self.facts], "feedback": self.feedback,
            "next_action": self.next_action, "citations": list(self.citations),
            "reasons": [r.to_dict() for r in self.reasons], "ruleset": self.ruleset,
            "attempt": self.attempt, "sources": [dict(s) for s in self.sources],
        }


@dataclasses.dataclass(frozen=True, slots=True)
class Failure:
    """One thing that went wrong, with the outcome whose action applies."""
    outcome: str
    reason: Reason
    missing_input: str | None = None
    # What the model is told instead of the reason's message when the rule does not give it
    # true values (no `with values`): the reason, for the developer, names the true value.
    feedback: str | None = None
    # Slots whose value is true but stated as another field ("{years}-year warranty" holding a
    # review's rating): their facts are not handed to a regeneration to use again.
    misbound: tuple[str, ...] = ()


def resolve(action: Action, attempt: int) -> Action:
    """A regenerate with attempts left stays; otherwise its `then` action applies."""
    while action.kind == "regenerate" and attempt > (action.max_attempts or 0):
        action = action.then
    return action


def attempt_problem(attempt: Any) -> str | None:
    """What is wrong with an ``attempt`` a caller passed (``check``, ``audit``, ``StreamGate``),
    naming it, as ``rulekit check --attempt 0`` is refused; None when it counts from 1."""
    if isinstance(attempt, bool) or not isinstance(attempt, int):
        return (f"attempt must be a whole number counting from 1, not "
                f"{type(attempt).__name__} {attempt!r}")
    if attempt < 1:
        return (f"attempt {attempt}: attempts count from 1 (the first reply), 2 for the reply "
                "after a regenerate")
    return None


def choose(policy: Policy, failures: list[Failure], attempt: int) -> tuple[Action, Failure]:
    """The strictest action among the failures' actions; the first failure wins a tie."""
    best: tuple[Action, Failure] | None = None
    for failure in failures:
        action = resolve(policy.action_for(failure.outcome, failure.missing_input), attempt)
        if best is None or STRICTNESS[action.kind] > STRICTNESS[best[0].kind]:
            best = (action, failure)
    assert best is not None
    return best
