"""Checking a model's reply against the system of record, and deciding what reaches the user.

    read the reply -> plan one lookup per entity -> fetch -> compare each claim by type
    -> check the prose -> decide -> render from verified values

``check`` never raises into the chatbot: a malformed reply, a failed or slow lookup, an unknown
field all become a fail-closed ``Decision`` with reasons, and text is present only when every
fact in it verified (``answer``) or was built by code from verified facts (``fallback``).

Speed (docs/performance.md): a check does no I/O but its one lookup per entity, and the pure
steps are memoised, immutable values only: what is derived from a policy (``_Derived``: its
readable fields, a validated lookup request per set of fields), held by the policy itself; and
in bounded ``lru_cache``s, comparisons, renderings and cited update times of short values,
and, in their own modules, readings of numbers, dates and templates. A cache never keys on long text, and a result that
holds a dict is copied before a caller sees it. Nothing else is kept between checks.
"""

from __future__ import annotations

import calendar
import dataclasses
import datetime as dt
import functools
import math
import re
import time
import unicodedata
from decimal import Decimal, InvalidOperation
from typing import Any, Mapping, NamedTuple, Sequence

from rulekit import check_asked, check_said, dates, prose as prose_rules
from rulekit.units import TOTAL
from rulekit.compare import Unreadable, compare, folds_case, key_matches
from rulekit.decision import (ClaimResult, Decision, Fact, Failure, Reason, attempt_problem, choose,
                              claim_result)
from rulekit.log import Stages, record_decision
from rulekit.entity_rows import check_inputs
from rulekit.policy import Action, BoundEntity, Entity, Field, Policy, derived
from rulekit.render import fill, fill_message, format_value, join_words, jsonable
from rulekit.reply import Claim, Problem, Reply, read_reply
from rulekit.scan.reader import surrogate_problem
from rulekit.sources import LookupRequest, Resolver, open_source
from rulekit.sweep_flags import boolean_fields, template_failures
from rulekit.sweep_free import may_say_free, template_failures as free_failures
from rulekit.template import parse_template

DEFAULT_TIMEOUT = 2.0
DEFAULT_REFUSAL = "I could not verify the {fields}, so I have not given an answer."

# How each failure is described to the model on regenerate.
_FEEDBACK = {
    "contradicted": "does not match the record",
    "not_found": "has no recorded value; do not state one",
    "stale": "is out of date in the record; do not state it",
    "not_checkable": "cannot be checked or shared; leave it out",
    "misattributed": "belongs to another row than the one its sentence names; every slot of a "
                     "sentence must cite the row that sentence is about, or a row that belongs "
                     "to it (a review of that product)",
}


class _Planned(NamedTuple):
    """A claim after validation against the policy: what to look up, or why not.

    A NamedTuple rather than a frozen dataclass: just as immutable, and built several times
    per check at a fraction of the cost (a frozen dataclass sets each field through
    ``object.__setattr__``)."""
    index: int
    claim: Claim
    path: str
    entity: Entity | None
    field: Field | None
    blocked: ClaimResult | None     # decided without a lookup (hidden field, unknown entity...)


def check(policy: Policy, reply: Any, source: Resolver | str | Mapping, *,
          now: dt.datetime | None = None, attempt: int = 1,
          inputs: Mapping[str, str] | None = None, timeout: float = DEFAULT_TIMEOUT,
          tenant: str | None = None, log: Any = None,
          question: str | None = None) -> Decision:
    """Check one model reply. ``now`` (an aware datetime, or ISO 8601 text with its offset; a
    naive datetime is refused) makes freshness deterministic in tests; ``attempt`` is
    1 for the first reply and counts regenerations; ``inputs`` are what the user has given
    (a postcode...), which entities can require. ``tenant`` is the verified user's id from the
    login, for a tenant-scoped ruleset: every lookup runs with it, and without it every lookup
    fails closed. It never comes from the model or the question.

    ``question`` is the user's words the reply answers. With it, a reply that agrees with the
    question ("Yes, it is." to "Is the OLED TV still $899?", "Correct.", "Yes, your order
    {order_id} will." to "Will it arrive by Friday?") is held to the cited rows' stored values
    of each figure, day and state the question says (docs/claims.md); without it, nothing is
    known of what an assent agrees with.

    ``log`` (a ``rulekit.log.DecisionLog``, a path or a callable) records the decision as one
    JSON line, with the time each stage took. It is written after the decision is made and
    never changes or delays it by more than the write: a log that fails is counted, not
    raised. Without a log, nothing is timed."""
    if log is None:
        try:
            return _check(policy, reply, source, now, attempt, inputs, timeout, tenant,
                          question=question)
        except Exception as exc:  # a bug or an input nobody foresaw: fail closed, never raise
            return _internal_error(policy, attempt, exc)
    trace = Stages()
    try:
        decision = _check(policy, reply, source, now, attempt, inputs, timeout, tenant, trace,
                          question)
    except Exception as exc:
        decision = _internal_error(policy, attempt, exc)
    trace.mark("decide")    # every path ends in deciding: the time since the last stage
    record_decision(log, decision, policy, kind="check", template=trace.template,
                    stages=trace.seconds_by_stage(), data=source)   # never raises
    return decision


def _internal_error(policy: Policy, attempt: int, exc: Exception) -> Decision:
    return Decision("refuse", ruleset=policy.ruleset, attempt=attempt,
                    message=_message(policy, DEFAULT_REFUSAL, []),
                    reasons=(Reason("internal_error", f"the check could not complete: "
                                    f"{exc.__class__.__name__}: {str(exc)[:200]}"),))


def _surrogates(parsed: Reply) -> list[Problem]:
    """A template whose text holds a lone surrogate (``surrogate_problem``) is malformed, as a
    reply that is not UTF-8 is: JSON may carry one as an escape, and a client joins two of them
    into a character the sweep never read."""
    prose = parsed.template.prose
    problem = None if prose.isascii() else surrogate_problem(prose, "template")
    if problem is None:
        return []
    return [Problem(problem, "$.answer_template" if parsed.form == "claims" else "$.template")]


def _check(policy: Policy, reply: Any, source: Any, now: dt.datetime | None, attempt: int,
           inputs: Mapping[str, str] | None, timeout: float, tenant: str | None = None,
           trace: Stages | None = None, question: str | None = None) -> Decision:
    """``trace``, for a logged check only, is told where each stage ends: parse (reading the
    reply, planning the lookups), lookup (opening the source, fetching), judge (comparing each
    claim, checking the prose); the rest is deciding and rendering."""
    problem = attempt_problem(attempt) or _options_problem(timeout, tenant, question) or \
        check_inputs(policy, inputs)
    if problem is not None and type(attempt) is not int:
        attempt = 1     # the refusal below is recorded at a whole attempt
    if policy.tenant is None:
        # A ruleset with no `tenant` scopes no lookup: its id is unused, by the SQL resolvers
        # (no query binds it) and by rows in memory alike (which dropped every row for it).
        tenant = None
    if problem is None:
        try:
            now = dates.moment(now) if now is not None else dt.datetime.now(dt.timezone.utc)
        except (TypeError, ValueError) as exc:
            problem = str(exc)
    if problem is not None:
        return Decision("refuse", ruleset=policy.ruleset, attempt=attempt,
                        message=_message(policy, DEFAULT_REFUSAL, []),
                        reasons=(Reason("input_error", problem),))
    try:
        resolver = open_source(source, timeout=timeout)
    except Exception as exc:  # a bad source spec fails closed like a failed lookup
        return _decide(policy, [], [Failure("lookup_failed", Reason(
            "lookup_failed", f"the source could not be opened: {exc}"))], None, attempt, {}, now)
    if resolver is not source and callable(getattr(resolver, "close", None)):
        # Opened from a URL or a path for this check alone: its connection is closed after
        # it. A service opens its source once (``open_source``) and shares it instead.
        try:
            return _check(policy, reply, resolver, now, attempt, inputs, timeout, tenant,
                          trace, question)
        finally:
            resolver.close()
    if trace is not None:
        trace.mark("lookup")
    parsed, problems = read_reply(reply)
    if not problems:
        problems = _surrogates(parsed)
    if trace is not None:
        trace.mark("parse")
        trace.template = None if parsed is None else parsed.template
    if problems:
        failures = [Failure("malformed_reply", Reason("malformed_reply", p.message, p.path))
                    for p in problems]
        return _decide(policy, [], failures, None, attempt, {}, now)
    if parsed.form == "slots" and not parsed.grounded:
        return _decide(policy, [], [Failure("not_found", Reason(
            "not_grounded", "the model said it could not ground its answer", "$.grounded"))],
            parsed, attempt, {}, now)
    claims = parsed.claims if parsed.form == "claims" else _slot_claims(parsed)
    derived = _derived(policy)
    missing: dict[str, list[str]] = {}     # the inputs each entity lacks, worked out once
    planned = [_plan(derived, index, claim, parsed.form, inputs or {}, missing)
               for index, claim in enumerate(claims)]
    # What the template's own words state of the cited rows (an enum label) and what it
    # agrees with in the question: None for most replies, after a substring test or two.
    said = check_said.read(policy, parsed.template.pieces, question, now)
    extra = said.fields(list({p.entity.name: p.entity for p in planned
                              if p.blocked is None}.values())) if said is not None else None
    if trace is not None:
        trace.mark("parse")
    rows, lookup_errors, sources = _fetch(derived, planned, resolver, timeout, tenant,
                                          inputs or {}, extra)
    if trace is not None:
        trace.mark("lookup")
    # What one check learns about each row, for the next claim on the same row: its age, and
    # its update time as cited.
    ages: dict[tuple[str, str], float | None] = {}
    cited: dict[tuple[str, str], str | None] = {}
    results = [p.blocked or _judge(derived, p, rows, lookup_errors, now, ages, cited)
               for p in planned]
    if parsed.form == "claims" and len({(p.claim.entity, str(p.claim.entity_id))
                                        for p in planned}) > 1:
        linked, more = _link_rows(derived, planned, rows, resolver, timeout, tenant,
                                  inputs or {})
        results = _misattributed(derived, parsed, planned, results, linked)
        sources += more
    if question and parsed.form == "claims":
        asked = check_asked.asked_keys(question, planned)
        if asked:   # keys of the question no claim cites: which are rows of the entity
            found, more = _key_rows(derived, asked, resolver, timeout, tenant, inputs or {})
            named = {name: tuple(ids) for name, ids in found.items() if ids}
            if named:
                results = check_asked.misattributed_to_question(planned, results, question,
                                                                named)
            sources += more
    failures = [_failure(r) for r in results if r.outcome != "confirmed"]
    # The prose is swept against what the claims alone read: a field fetched only for the
    # readings of ``said`` licenses nothing there.
    failures += _prose_failures(policy, parsed, planned,
                                _claimed_rows(derived, planned, rows, extra) if extra else rows)
    if said is not None:
        failures += check_said.failures(
            said, policy, planned, rows,
            "$.answer_template" if parsed.form == "claims" else "$.template", question)
    if trace is not None:
        trace.mark("judge")
    return _decide(policy, results, failures, parsed, attempt, rows, now, planned, sources,
                   inputs or {})


def _options_problem(timeout: Any, tenant: Any, question: Any = None) -> str | None:
    """What is wrong with the caller's ``timeout`` or ``tenant``, or None. Said as an input
    error naming the option, before anything is looked up: a timeout of 0 or NaN would fail
    every lookup as if the source were down, and a tenant id that is not text (42) as if none
    had been given."""
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) \
            or not 0 < timeout < math.inf:
        return f"timeout must be a positive, finite number of seconds, not {timeout!r}"
    if tenant is not None and not isinstance(tenant, str):
        return (f"tenant must be a string, the verified user's id from the login (give "
                f"str(...) of a number), not {type(tenant).__name__}")
    if question is not None and not isinstance(question, str):
        return f"question must be a string, the user's words, not {type(question).__name__}"
    return None


def _slot_claims(reply: Reply) -> tuple[Claim, ...]:
    """The slot form names fields of the subject; code supplies every value."""
    subject = reply.subject
    return tuple(Claim.model_construct(key=name, type="", entity=subject.entity,
                                       entity_id=subject.id, field=name, value=None)
                 for name in reply.template.slot_names)


def _plan(derived: _Derived, index: int, claim: Claim, form: str, inputs: Mapping,
          missing_by_entity: dict[str, list[str]]) -> _Planned:
    path = f"$.claims[{index}]" if form == "claims" else "$.template"
    readable = derived.readable.get((claim.entity, claim.field))
    if readable is not None:    # the common case: a readable field of a known entity
        entity, field = readable
    else:
        blocked = _blocked(derived.policy, index, claim, path)
        if blocked is not None:
            return blocked
        entity = derived.policy.entity(claim.entity)
        field = entity.field(claim.field)
    if entity.requires:
        missing = missing_by_entity.get(entity.name)
        if missing is None:
            missing = missing_by_entity[entity.name] = [
                name for name in entity.requires if not str(inputs.get(name) or "").strip()]
        if missing:
            return _Planned(index, claim, path, entity, field, _not_checkable(
                claim, path, "missing_input", f"needs {', '.join(missing)} from the user"))
    return _Planned(index, claim, path, entity, field, None)


def _blocked(policy: Policy, index: int, claim: Claim, path: str) -> _Planned | None:
    """A claim about an unknown entity, or a field that is unknown or not readable."""
    entity = policy.entity(claim.entity)
    if entity is None:
        known = ", ".join(e.name for e in policy.entities)
        return _Planned(index, claim, path, None, None, _not_checkable(
            claim, path, "unknown_entity",
            f"'{claim.entity}' is not an entity of this ruleset (known: {known})"))
    field = entity.field(claim.field)
    if field is None or not field.readable:
        # Never looked up: the whitelist is a security control, not a hint.
        return _Planned(index, claim, path, entity, None, _not_checkable(
            claim, path, "hidden_field" if field else "unknown_field",
            f"'{claim.entity}.{claim.field}' is not a readable field"))
    return None


def _not_checkable(claim: Claim, path: str, reason_code: str, reason: str) -> ClaimResult:
    """A claim decided before any lookup, with the names as the model wrote them."""
    return claim_result(key=claim.key, entity=claim.entity, entity_id=str(claim.entity_id),
                        field=claim.field, type=claim.type, outcome="not_checkable",
                        claimed=claim.value, reason=reason, reason_code=reason_code, path=path)


def _fetch(derived: _Derived, planned: list[_Planned], resolver: Resolver, timeout: float,
           tenant: str | None = None, inputs: Mapping = {},
           extra: Mapping[str, set[str]] | None = None
           ) -> tuple[dict[str, Mapping], dict[str, str], tuple[dict, ...]]:
    """One lookup per entity for all its ids, with every field any claim, freshness rule,
    placeholder flag or fallback of that entity needs. Returns rows by entity and id, the error
    of each entity whose lookup failed, and what was looked up for the decision's ``sources``
    panel: one line per entity, in the order of its first claim.

    A row that does not go with an input its entity ``requires ... matching`` is dropped here,
    as if the source had none: nothing after this (the claims' reasons, the panel's counts, a
    fallback) can tell whoever holds an order number that the order exists.

    ``extra`` names more readable fields by entity: those the template's words or the
    question need (``check_said.Said.fields``)."""
    wanted: dict[str, tuple[Entity, dict[str, None], set[str]]] = {}
    for item in planned:
        if item.blocked is None:
            _, ids, fields = wanted.setdefault(item.entity.name, (item.entity, {}, set()))
            ids[str(item.claim.entity_id)] = None   # a dict: distinct, in order of first claim
            fields.add(item.field.name)
    if extra:
        for name, more in extra.items():
            if name in wanted:
                wanted[name][2].update(more)
    policy = derived.policy
    rows: dict[str, Mapping] = {}
    errors: dict[str, str] = {}
    panel = []
    for name, (entity, ids, fields) in wanted.items():
        if policy.tenant is not None and not isinstance(tenant, str):
            # Without the verified user's id a scoped lookup could see every tenant's rows.
            errors[name] = (f"the ruleset is scoped by tenant {policy.tenant!r} and no verified "
                            "tenant id was given")
        else:
            request = derived.lookup_request(name, frozenset(fields))
            found, error = _lookup(resolver, request._for_ids(tuple(ids), timeout, tenant),
                                   timeout, entity.field(entity.key), policy.locale)
            if error is None:
                rows[name] = found if not entity.matching else {
                    row_id: row for row_id, row in found.items()
                    if _goes_with(entity, row, inputs)}
            else:
                errors[name] = error
        count = len(rows.get(name) or ())
        lookup = entity.lookup
        panel.append({"name": name, "kind": "lookup",
                      "table": lookup.table if lookup.kind == "table" else None,
                      "ids": len(ids), "rows": count, "empty": count == 0 and name not in errors,
                      "error": errors.get(name)})
    return rows, errors, tuple(panel)


def _claimed_rows(derived: _Derived, planned: list[_Planned], rows: dict,
                  extra: Mapping[str, set[str]]) -> dict:
    """``rows`` without the ``extra`` fields that the claims' own lookups would not have read
    (``_lookup_fields``)."""
    claimed: dict[str, set[str]] = {}
    for item in planned:
        if item.blocked is None:
            claimed.setdefault(item.entity.name, set()).add(item.field.name)
    kept = dict(rows)
    for name, more in extra.items():
        found = rows.get(name)
        if name not in claimed or not isinstance(found, Mapping):
            continue
        dropped = set(more) - set(derived.lookup_fields(name, frozenset(claimed[name])))
        if dropped:
            kept[name] = {row_id: {k: v for k, v in row.items() if k not in dropped}
                          if isinstance(row, Mapping) else row
                          for row_id, row in found.items()}
    return kept


def _lookup(resolver: Resolver, request: LookupRequest, timeout: float,
            key_field: Field | None = None, locale: str = "en_US"
            ) -> tuple[Mapping | None, str | None]:
    """One fetch: its rows, or why there are none. Any failure of the source fails closed: an
    error, an answer after ``timeout`` (a resolver that ignores it cannot be interrupted, but
    what it returns late is not used), an answer that is not rows by id, and rows that do not
    answer the ids asked for (``_misfiled``, with ``key_field``, the entity's key)."""
    started = time.monotonic()
    try:
        found = resolver.fetch(request)
    except Exception as exc:  # any failure of the source fails closed
        return None, f"{exc.__class__.__name__}: {exc}" if str(exc) else exc.__class__.__name__
    elapsed = time.monotonic() - started
    if elapsed > timeout:
        # Opening a connection has its own limit (a SQL resolver's connect_timeout), apart
        # from the lookup's budget: the seconds it took do not make the answer late.
        connecting = getattr(resolver, "connect_seconds", None)
        if connecting is None or elapsed - connecting() > timeout:
            return None, f"the lookup took longer than {timeout:g} s"
    if not _rows_by_id(found):
        return None, f"the source returned {type(found).__name__}, not rows by id"
    wrong = _misfiled(found, request, key_field, locale)
    if wrong is not None:
        return None, wrong
    return found, None


def _misfiled(found: Mapping, request: LookupRequest, key_field: Field | None,
              locale: str) -> str | None:
    """Why rows a resolver returned do not answer the lookup, or None. Each row must be filed
    under an id that was asked for and hold the entity's key, equal to that id as the key
    field's type compares (an integer key stored as 7, 7.0 or Decimal 7 is id "7"; a
    ``casefold`` identifier ignores case): a custom resolver that files another record's row
    under the id asked for (a cache keyed wrongly, a join gone astray) must not verify
    anything. The shipped resolvers pass by the first test; the comparison runs only when the
    key is written otherwise."""
    key = request.key
    asked = request.ids if len(request.ids) < 8 else frozenset(request.ids)
    for ident, row in found.items():
        if not isinstance(ident, str) or ident not in asked:
            return (f"the source returned a row for {ident!r}, which was not asked for "
                    f"(asked: {', '.join(map(repr, request.ids[:5]))}"
                    f"{', ...' if len(request.ids) > 5 else ''})")
        stored = row.get(key)
        if type(stored) in (str, int) and str(stored) == ident:
            continue
        if stored is None:
            return f"the source returned a row with no {key} for {ident!r}"
        if key_field is None or not key_matches(key_field.type, ident, stored, locale):
            shown = stored if isinstance(stored, (str, int, float, Decimal)) else \
                type(stored).__name__
            return (f"the source returned the row of {key} {shown!r} for {ident!r}: a row "
                    "answers only the id it was asked for")
    return None


def _rows_by_id(found: Any) -> bool:
    """Whether a resolver answered with a mapping of mappings. Plain dicts, what every shipped
    resolver returns, are recognised by type first: ``isinstance`` against the ``Mapping`` ABC
    costs a microsecond or so for each row."""
    if type(found) is dict and all(type(row) is dict for row in found.values()):
        return True
    return isinstance(found, Mapping) and all(isinstance(row, Mapping) for row in found.values())


# --- what the checker derives from a policy, once ---------------------------------------------
#
# Held by the policy itself (``policy.derived``: not compared, hashed, dumped or pickled), so a
# process with any number of policies derives each once; nothing is kept process-wide.

class _Derived:
    """Per-policy data the checker would otherwise recompute on every check. Immutable apart
    from its own bounded ``lru_cache``s, so threads share it freely."""

    def __init__(self, policy: Policy):
        self.policy = policy
        # What a claim may be about: every readable field with its entity, by their names (the
        # compiler rejects a repeated entity or field name, so each pair is one field).
        self.readable: dict[tuple[str, str], tuple[Entity, Field]] = {
            (entity.name, field.name): (entity, field)
            for entity in policy.entities for field in entity.readable_fields}
        # The fields that name a row of each entity in a template (``_misattributed``), and
        # those by which a row of each entity belongs to a row of another (``_belongs``); each
        # built in one pass over the entities, so that a policy of thousands loads in linear
        # time.
        bindings = {bound.name: bound for bound in policy.binding.entities}
        self.naming: dict[str, frozenset[str]] = {
            entity.name: _naming_fields(entity, bindings.get(entity.name))
            for entity in policy.entities}
        keys: dict[str, list[str]] = {}
        for entity in policy.entities:
            keys.setdefault(f"{entity.name}_{entity.key}", []).append(entity.name)
        self.links: dict[str, tuple[tuple[str, str], ...]] = {
            entity.name: _link_fields(entity, keys) for entity in policy.entities}
        # The same few combinations of claimed fields come back check after check. They are
        # readable fields of this policy (``_plan`` saw to it), so the keys are bounded by it.
        self.lookup_fields = functools.lru_cache(maxsize=256)(
            functools.partial(_lookup_fields, policy, self.naming, self.links))
        # A validated request per combination, copied for each check's ids.
        self.lookup_request = functools.lru_cache(maxsize=256)(
            functools.partial(_lookup_request, policy, self.lookup_fields))
        # Comparing and formatting are pure functions of the field, the claim's type and the
        # two values, and the same claims about the same rows come back again and again (a
        # product's price, an order asked about twice, a regeneration). ``typed`` keeps 1,
        # 1.0 and True apart; ``_memo_safe`` admits only values whose equality means identity.
        self.comparison = functools.lru_cache(maxsize=4096, typed=True)(
            functools.partial(_comparison, policy))
        self.rendering = functools.lru_cache(maxsize=4096, typed=True)(
            functools.partial(_rendering, policy))
        # A row's update time as cited: the same rows are asked about again and again.
        self.cited_time = functools.lru_cache(maxsize=4096, typed=True)(
            functools.partial(_cited_time_of, policy))

    @functools.cached_property
    def third_party(self) -> frozenset[tuple[str, str]]:
        """The readable text fields whose values a third party wrote (a review's body), as the
        sweep and the evidence block judge them: the ruleset's ``untrusted`` targets, then the
        default names (``rulekit.prompt._untrusted_judge``). Worked out on first use."""
        from rulekit.prompt import _untrusted_judge

        judge = _untrusted_judge(self.policy)
        return frozenset((entity.name, field.name) for entity, field in self.readable.values()
                         if field.type.kind == "text" and judge(
                             f"$.{entity.name}[0].{field.name}", (entity.name, field.name), True))


def _derived(policy: Policy) -> _Derived:
    """What the checker derives from ``policy``: worked out on its first check and held by the
    policy for the next (``policy.derived``)."""
    return derived(policy, "check", _Derived)


# Longest text kept in a cache key: a claimed value is the model's, and only short ones repeat.
_MEMO_TEXT = 64


def _memo_safe(value: Any) -> bool:
    """Whether ``value`` may be part of a cache key: a short string, an int or a bool, for
    which equal values are the same value. Not a float (``-0.0 == 0.0``), a Decimal
    (``1.0 == 1.00``) or a datetime (equal instants in two offsets), which show differently."""
    kind = type(value)
    return kind is int or kind is bool or (kind is str and len(value) <= _MEMO_TEXT)


def _comparison(policy: Policy, entity_name: str, field_name: str, claim_type: str,
                claimed: Any, stored: Any):
    field = policy.entity(entity_name).field(field_name)
    return compare(field.type, claim_type, claimed, stored, policy.locale)


def _rendering(policy: Policy, entity_name: str, field_name: str, stored: Any,
               claim_type: str | None) -> str:
    field = policy.entity(entity_name).field(field_name)
    return format_value(field, stored, policy.locale, claim_type)


def _compare(derived: _Derived, entity: Entity, field: Field, claim_type: str, claimed: Any,
             stored: Any):
    """``compare`` for a field of the policy, through its cache when both values may be
    cached."""
    if _memo_safe(claimed) and _memo_safe(stored):
        return derived.comparison(entity.name, field.name, claim_type, claimed, stored)
    return compare(field.type, claim_type, claimed, stored, derived.policy.locale)


def _format(derived: _Derived, entity: Entity, field: Field, stored: Any,
            claim_type: str | None = None) -> str:
    """``format_value`` for a field of the policy, through its cache when the value may be
    cached. Raises ``Unreadable`` like it (a failure is not cached)."""
    if _memo_safe(stored):
        return derived.rendering(entity.name, field.name, stored, claim_type)
    return format_value(field, stored, derived.policy.locale, claim_type)


def _cited_time(derived: _Derived, entity: Entity, stored: Any) -> str | None:
    """``_updated_text`` for an entity of the policy, through its cache when the value may be
    cached."""
    if _memo_safe(stored):
        return derived.cited_time(entity.name, stored)
    return _updated_text(stored, entity)


def _cited_time_of(policy: Policy, entity_name: str, stored: Any) -> str | None:
    return _updated_text(stored, policy.entity(entity_name))


def _unshared(normal: Any) -> Any:
    """A normal form as a result may carry it: a cached comparison's dict is copied, so that a
    caller who edits one decision cannot change the next."""
    return dict(normal) if type(normal) is dict else normal


def _lookup_request(policy: Policy, lookup_fields, entity_name: str,
                    claimed: frozenset[str]) -> LookupRequest:
    """The lookup of ``entity_name`` for ``claimed`` fields, built and validated once and
    without ids: each check asks with a copy for its own (``LookupRequest._for_ids``)."""
    entity = policy.entity(entity_name)
    return LookupRequest(entity=entity_name, key=entity.key, ids=(),
                         fields=lookup_fields(entity_name, claimed), lookup=entity.lookup,
                         key_kind=entity.field(entity.key).type.kind,
                         key_type=entity.field(entity.key).type)


def _lookup_fields(policy: Policy, naming: Mapping[str, frozenset[str]],
                   links: Mapping[str, tuple[tuple[str, str], ...]], entity_name: str,
                   claimed: frozenset[str]) -> tuple[str, ...]:
    """Every field one lookup of ``entity_name`` reads: the claimed ones, those that name a row
    (``_misattributed`` reads a row's name in the template's words), those that say which row
    of another entity the row belongs to (``_link_fields``), those an input must equal
    (``requires ... matching``, hidden or not: compared, never shown), those the policy's
    fallbacks show, the flags their placeholders depend on (``unless``), and the freshness
    field."""
    entity = policy.entity(entity_name)
    fields = set(claimed) | (naming[entity_name] - {entity.key})
    fields.update(field for field, _ in links[entity_name])
    fields.update(field for _, field in entity.matching)
    fields.update(boolean_fields(entity))     # rule 14: what the template says of its flags
    for fallback in policy.fallbacks:
        fields.update(slot.field for slot in fallback.slots if slot.entity == entity_name)
    for field in list(fields):
        fields.update(p.unless for p in entity.field(field).placeholders if p.unless)
    if entity.fresh_via:
        fields.add(entity.fresh_via)
    return tuple(sorted(fields))


def _goes_with(entity: Entity, row: Mapping, inputs: Mapping) -> bool:
    """Whether ``row`` goes with what the user gave: each input the entity ``requires ...
    matching`` equals its field (``same_input``), and neither is empty."""
    for name, against in entity.matching:
        given = _squeezed(inputs.get(name))
        if not given or not same_input(given, row.get(against), against):
            return False
    return True


def _weekdays_said(policy: Policy, template, planned: list[_Planned], rows: dict,
                   path: str) -> list[Failure]:
    """A weekday in the template's words beside a date slot of its sentence must be the
    weekday of that date ("{shipped_at}, a Wednesday" when it shipped on a Thursday)."""
    dated = {p.claim.key: p for p in planned
             if p.field is not None and p.field.type.kind in ("date", "timestamp")}
    if not dated or not _says_weekday(policy.locale, template.prose):
        return []
    failures = []
    for words, spans in _sentences_with_spans(tuple(template.pieces)):
        days = {slot: _stored_day(dated[slot], rows) for _, _, slot in spans if slot in dated}
        if not days:
            continue
        dated_spans = [span for span in spans if span[2] in days]
        for start, end, weekday in _weekdays_in(policy.locale, words):
            # The weekday goes with the date slot nearest to it in its sentence ("on Monday,
            # {check_in}, and check out on {check_out}" is Monday for check_in alone): a
            # weekday that is the day of another date slot of the sentence is no excuse.
            slot = _nearest_slot(dated_spans, start, end)
            day = days[slot]
            if day is None or day.weekday() == weekday:
                continue
            failures.append(Failure("contradicted", Reason(
                "contradicted", f"the template says {calendar.day_name[weekday]} beside a date "
                f"that is not one: {{{slot}}} falls on a {calendar.day_name[day.weekday()]}",
                path)))
    return failures


def _directions_said(template, planned: list[_Planned], rows: dict, path: str) -> list[Failure]:
    """A rise or fall word of the template just before a number slot, or after it, says the
    direction of its value, as the sweep reads it in free text ("{name} rose {c}", "down {c}",
    "{c} lower"): a rise of a value below zero (or a fall of one above) renders "Apple rose
    -1.33%", and is ``contradicted``; a fall of a value below zero renders "fell -1.33%", whose
    two minuses read either way, and is ``unapproved_shape`` (docs/claims.md: a change slot is
    said with no direction word)."""
    numbers = {p.claim.key: p for p in planned
               if p.field is not None and p.field.type.kind in ("decimal", "integer", "money")}
    if not numbers:
        return []
    from rulekit.evidence import _number_or_none   # (evidence and the sweep are the audit's)
    from rulekit.numbers import plain_decimal
    from rulekit.sweep import _may_trend, _trend_at

    if not _may_trend(template.prose.lower()):
        return []
    pieces, failures = template.pieces, []
    for index in range(1, len(pieces), 2):
        item = numbers.get(pieces[index])
        if item is None:
            continue
        before, after = pieces[index - 1], pieces[index + 1] if index + 1 < len(pieces) else ""
        way = _trend_at(f"{before}1{after}", len(before), len(before) + 1)
        if not way:
            continue
        row = (rows.get(item.entity.name) or {}).get(str(item.claim.entity_id)) or {}
        value = _number_or_none(row.get(item.field.name))
        if not value:
            continue
        said = "rise" if way > 0 else "fall"
        if value * way < 0:
            failures.append(Failure("contradicted", Reason(
                "contradicted", f"the words beside {{{item.claim.key}}} say a {said}, but the "
                f"{item.field.label} is {plain_decimal(value)}", path)))
        elif value < 0:
            failures.append(Failure("unapproved_shape", Reason(
                "unapproved_shape", f"the words beside {{{item.claim.key}}} say a fall, and its "
                f"value {plain_decimal(value)} has its own minus: say the change with no direction word "
                f"(\"changed {{{item.claim.key}}}\")", path)))
    return failures


@functools.lru_cache(maxsize=1024)
def _sentences_with_spans(pieces: tuple[str, ...]) -> tuple[tuple[str, tuple], ...]:
    """A template cut into sentences as ``prose.sentences`` cuts it, each with the place of
    its slots: (the sentence's text with each slot as one U+FFFC, ((start, end, slot), ...))."""
    out: list[tuple[str, list]] = [("", [])]
    for index, piece in enumerate(pieces):
        if index % 2:
            text, spans = out[-1]
            spans.append((len(text), len(text) + 1, piece))
            out[-1] = (text + "\ufffc", spans)
            continue
        at = 0
        for end in prose_rules.SENTENCE_END.finditer(piece):
            out[-1] = (out[-1][0] + piece[at:end.start()], out[-1][1])
            out.append(("", []))
            at = end.end()
        out[-1] = (out[-1][0] + piece[at:], out[-1][1])
    return tuple((text, tuple(spans)) for text, spans in out if spans or text.strip())


def _nearest_slot(spans, start: int, end: int) -> str:
    """The slot of ``spans`` ((start, end, slot), in order) nearest the words at start:end."""
    return min(spans, key=lambda span: max(span[0] - end, start - span[1]))[2]


@functools.lru_cache(maxsize=1024)
def _says_weekday(locale: str, prose: str) -> bool:
    """Whether a template's own words name a weekday; cached, as models reuse their templates."""
    from rulekit.sweep_days import _lone_weekday_names

    pattern = _lone_weekday_names(locale)[0]
    return (pattern is not None and pattern.search(prose.lower()) is not None) or (
        any(cue in prose for cue in _CJK_WEEKDAY_CUES) and _CJK_WEEKDAY.search(prose) is not None)


# A weekday of Japanese, Chinese or Korean in a template's words: in full (金曜日, 金曜, 星期五,
# 周五, 礼拜五, 금요일), or in brackets as those languages write one after a date ((金), （木曜日）,
# (周四), (목)), a lone character in brackets only right after a slot (U+FFFC), as "(月)" may be
# "a month" elsewhere. Looked for behind ``_CJK_WEEKDAY_CUES``.
_CJK_WEEKDAY = re.compile(
    r"(?P<slot>\ufffc[ \u3000]?)?[(（](?:(?P<ja>[月火水木金土日])|(?P<ko>[월화수목금토일]))[)）]"
    r"|(?P<ja_full>[月火水木金土日])曜日?|(?:星期|礼拜|禮拜|周|週)(?P<zh>[一二三四五六日天])"
    r"|(?P<ko_full>[월화수목금토일])요일")
_CJK_WEEKDAY_CUES = ("曜", "星期", "拜", "周", "週", "요일", "(", "（")
_CJK_WEEKDAY_NUMBER = {**{c: i for i, c in enumerate("月火水木金土日")},
                       **{c: i for i, c in enumerate("一二三四五六日")}, "天": 6,
                       **{c: i for i, c in enumerate("월화수목금토일")}}


def _weekdays_in(locale: str, words: str) -> list[tuple[int, int, int]]:
    """The weekdays a template's sentence names: (start, end, weekday), in the wide names of
    English and of ``locale`` (``sweep_days._lone_weekday_names``) and as ``_CJK_WEEKDAY``."""
    from rulekit.sweep_days import _lone_weekday_names

    pattern, names, _ = _lone_weekday_names(locale)
    found = [] if pattern is None else [
        (*match.span(), names[match.group(0)]) for match in pattern.finditer(words.lower())]
    if any(cue in words for cue in _CJK_WEEKDAY_CUES):
        for match in _CJK_WEEKDAY.finditer(words):
            name = next(group for group in match.groups()[1:] if group)
            if match.group("ja") or match.group("ko"):
                if not match.group("slot"):
                    continue
                found.append((match.end() - 3, match.end(), _CJK_WEEKDAY_NUMBER[name]))
                continue
            found.append((*match.span(), _CJK_WEEKDAY_NUMBER[name]))
    return found




# A delivery speed or a span of days in a template's words: when a delivery comes, said without
# a date ("next-day delivery", "Expect it overnight", "free express shipping", "within a
# business day"). Literal-first; looked for only behind the substring tests of ``_may_say_day``.
_SPEED_WORDS = re.compile(
    r"(?<![\w-])(?:(?:next|same)[- ](?:business[- ]|working[- ])?day|overnight"
    r"|(?:express|expedited|priority)[- ](?:shipping|delivery|post|postage|courier|dispatch)"
    r"|(?:within|in) (?:a|one|a few|a couple of) (?:business |working )?days?"
    r"|(?:by|before|over) the weekend|(?:this|next) week(?:end)?"
    r"|(?:in time for|before|by) (?:christmas|xmas|the holidays|new year(?:'s)?|thanksgiving"
    r"|easter))(?![\w-])", re.IGNORECASE)
_DAY_SUBSTRINGS = ("day", "overnight", "express", "expedited", "priority", "week", "christmas",
                   "xmas", "new year", "thanksgiving", "easter")
_DAY_FIELD = re.compile(r"(?:^|_)(?:days?|eta|lead_time|transit)(?:_|$)", re.IGNORECASE)
# The evidence ``_lone_weekdays`` reads a template's words against: no day, no today (so "this
# Friday" is found as a weekday, not resolved).
_NO_DAYS = NamedTuple("_NoDays", [("days", frozenset), ("withheld_days", dict),
                                  ("stated_days", frozenset), ("today", type(None))])(
    frozenset(), {}, frozenset(), None)


@functools.lru_cache(maxsize=1024)
def _days_in_words(locale: str, pieces: tuple[str, ...]) -> tuple[tuple[str, bool, int], ...]:
    """The days a template's own words say, cached as models reuse their templates: (the
    words, whether they are a weekday said as the day of something, the sentence they stand
    in). A weekday is read as the sweep reads one in free text (``sweep_days._lone_weekdays``:
    after on, by, this, arrives...; not in a range, a plural, "every", opening hours, a habit
    or a supposition); a speed or a span by ``_SPEED_WORDS``; a month named alone after "in",
    "early", "by"... by ``sweep_days.months_said_alone``."""
    from rulekit.sweep_days import _lone_weekdays, months_said_alone

    found = []
    for index, (words, _) in enumerate(prose_rules.sentences(pieces)):
        low = words.lower()
        # "in early January": a month said alone is a day no slot carries, as a speed is
        found += [(words[s:e], False, index) for s, e, _ in months_said_alone(words, low, locale)]
        if not any(part in low for part in _DAY_SUBSTRINGS) and (
                locale[:2] == "en" or not _says_weekday(locale, words)):
            continue
        found += [(m.group(0), False, index) for m in _SPEED_WORDS.finditer(words)]
        found += [(f.text, True, index) for f in _lone_weekdays(words, low, (), _NO_DAYS, locale)]
    return tuple(found)


def _days_outside_slots(policy: Policy, template, planned: list[_Planned],
                        path: str) -> list[Failure]:
    """A day in the template's own words is a fact that did not travel through a slot: a
    weekday said as the day of something (in every prose mode, as a date written out is: the
    sweep), and under ``prose guarded`` a delivery speed or a span of days. A weekday passes
    beside a date slot of its sentence, which ``_weekdays_said`` holds it to."""
    said = _days_in_words(policy.locale, tuple(template.pieces))
    if not said:
        return []
    sentences = prose_rules.sentences(template.pieces)
    dated = {p.claim.key for p in planned
             if p.field is not None and p.field.type.kind in ("date", "timestamp")}
    stray = [words for words, weekday, at in said
             if (not weekday and policy.prose == "guarded")
             or (weekday and dated.isdisjoint(sentences[at][1]))]
    return [Failure("stray_figure", Reason("stray_figure", f"{words!r} written outside the "
                                           f"slots: {_put_day_in_slot(planned)}", path))
            for words in dict.fromkeys(stray)]


def _put_day_in_slot(planned: list[_Planned]) -> str:
    """What a reason says of a day written outside the slots: where the day should come from,
    naming the cited entities' fields that hold a day (dates, and counts of days)."""
    fields = []
    entities = {p.entity.name: p.entity for p in planned if p.entity is not None}
    for entity in entities.values():
        fields += [f"{entity.name}.{field.name}" for field in entity.readable_fields
                   if (field.type.kind in ("date", "timestamp")
                        or (field.type.kind == "integer" and _DAY_FIELD.search(field.name)))]
    where = f" ({', '.join(fields[:6])})" if fields else ""
    return ("a day is a fact, and facts travel only through slots: put the date in a slot of "
            f"the field that holds it{where}, or leave the day out")


# Quote marks that may open and close a quote around a slot ('wrote: "{body}"', « {body} »).
_OPEN_QUOTES = "\"'“‘„«‹「『"
_CLOSE_QUOTES = "\"'”’“»›」』"
# Words that say whose the text after them is ("Review {id} says: {body}").
_SAYING = re.compile(r"(?i)\b(?:says?|said|wrote|writes?|comment(?:s|ed)?|posts?|posted|"
                     r"repl(?:y|ies|ied)|reviews?|reviewed|asked|shared|reported|tweeted|"
                     r"according to)\b")


def _attributed(pieces: Sequence[str], index: int, entity: str, own: set[str]) -> bool:
    """Whether the slot at ``pieces[index]`` stands as someone's words: inside quote marks
    ('wrote: "{body}"'), as a Markdown quote ("> {body}"), or after a colon or a verb of saying
    in a sentence that says whose ("Review {review} of {sku} says: {body}", "Comment {id} by
    {author}: {body}": a verb of saying, the entity's name, or another slot of the same row)."""
    before = pieces[index - 1].rstrip(" \u00a0")
    after = pieces[index + 1].lstrip(" \u00a0") if index + 1 < len(pieces) else ""
    if after[:1] in ".,!?…" and after[1:2] and after[1:2] in _CLOSE_QUOTES:
        after = after[1:]               # "{body}." with the stop inside the quote
    if before[-1:] and before[-1:] in _OPEN_QUOTES and after[:1] and after[:1] in _CLOSE_QUOTES:
        return True
    if before.endswith(">") and before[:-1].rstrip(" \t")[-1:] in ("", "\n"):
        return True                     # a Markdown quote
    head = []
    for at in range(index - 1, -1, -1):
        if at % 2:
            head.append("{" + pieces[at] + "}")
            continue
        ends = list(prose_rules.SENTENCE_END.finditer(pieces[at]))
        head.append(pieces[at][ends[-1].end():] if ends else pieces[at])
        if ends:
            break
    sentence = "".join(reversed(head)).rstrip(" \u00a0")
    if not (sentence.endswith(":") or _SAYING.search(sentence[-12:])):
        return False
    return _SAYING.search(sentence) is not None \
        or re.search(rf"(?i)\b{re.escape(entity)}", sentence) is not None \
        or any(f"{{{key}}}" in sentence for key in own)


def _unquoted_third_party(policy: Policy, template, planned: list[_Planned],
                          path: str) -> list[Failure]:
    """A slot of a field a third party wrote (``_Derived.third_party``: a review's body) stands
    only as someone's words (``_attributed``): 'One reviewer wrote: "{body}"'. Anywhere else the
    template renders the review as the shop's own words: "Warranty for the {name}: {body}"
    says the reviewer's "5-year warranty" in the shop's voice."""
    third_party = _derived(policy).third_party
    if not third_party:
        return []
    fields = {p.claim.key: f"{p.entity.name}.{p.field.name}" for p in planned
              if p.field is not None and (p.entity.name, p.field.name) in third_party}
    if not fields:
        return []
    pieces = template.pieces
    rows = {p.claim.key: (p.entity.name, str(p.claim.entity_id)) for p in planned
            if p.entity is not None}
    bare = []
    for index in range(1, len(pieces), 2):
        slot = pieces[index]
        if slot not in fields:
            continue
        own = {key for key, row in rows.items() if row == rows[slot] and key != slot}
        if not _attributed(pieces, index, rows[slot][0], own):
            bare.append(slot)
    return [Failure("unapproved_shape", Reason(
        "unapproved_shape", f"{{{slot}}} holds {fields[slot]}, text a third party wrote, but "
        "the template says it in the shop's own words: quote it and say whose it is (One "
        f"reviewer wrote: \"{{{slot}}}\"), or leave it out", path))
        for slot in dict.fromkeys(bare)]


# What a link, a handle or an e-mail address needs (a cheap test before the sweep runs).
_MAY_LINK = re.compile(r"[@/]|\.[A-Za-z]")
_LINK_KINDS = {"url": "link", "handle": "handle", "email": "e-mail address"}


def _third_party_links(policy: Policy, planned: list[_Planned], rows: dict,
                       path: str) -> list[Failure]:
    """A slot of a field a third party wrote is shown as its author's words, but a link, a
    handle or an e-mail address in it takes the customer somewhere: as in free text (sweep
    rule 7: `Lin wrote: "my deal: https://spam.example/deal"` is flagged), each must be one the
    rows' own fields hold, not only the third party's text. A stray figure, named with the slot
    and the field."""
    third_party = _derived(policy).third_party
    if not third_party:
        return []
    slots = []
    for item in planned:
        if item.field is None or (item.entity.name, item.field.name) not in third_party:
            continue
        row = (rows.get(item.entity.name) or {}).get(str(item.claim.entity_id)) or {}
        value = row.get(item.field.name)
        if isinstance(value, str) and _MAY_LINK.search(value):
            slots.append((item, value))
    if not slots:
        return []
    from rulekit.audit import names_only_evidence
    from rulekit.sweep import SweepSettings, sweep

    own = {entity: {key: {name: value for name, value in row.items()
                          if (entity, name) not in third_party}
                    for key, row in found.items()} for entity, found in rows.items()}
    evidence = names_only_evidence(own, policy.locale)
    settings = SweepSettings.from_policy(policy)
    failures = []
    for item, value in slots:
        for finding in sweep(value, evidence, settings, locale=policy.locale):
            if finding.kind in ("url", "handle", "email"):
                failures.append(Failure("stray_figure", Reason(
                    "stray_figure", f"{finding.text!r} in {{{item.claim.key}}} "
                    f"({item.entity.name}.{item.field.name}): a third party's "
                    f"{_LINK_KINDS[finding.kind]} "
                    "that no other field holds; a quote shows its author's words, not their "
                    "links, handles or e-mail addresses: quote a review without them, or leave "
                    "it out", path)))
    return failures


def _stored_day(item: _Planned, rows: dict) -> dt.date | None:
    row = (rows.get(item.entity.name) or {}).get(str(item.claim.entity_id)) or {}
    field_type = item.field.type
    return dates.stored_day(row.get(item.field.name), field_type.zone,
                            getattr(field_type, "naive_zone", "UTC"))


# A field that holds a stock level: what stock words in a template must agree with.
_STOCK_FIELD = re.compile(r"(?:^|_)(?:stock|inventory|qty|quantity|on_hand|in_stock|available|"
                          r"availability)(?:_|$)", re.IGNORECASE)


def _stock_agrees(word: str, level: Decimal) -> bool:
    """Whether a stock word says what a stock level is: some, none or exactly one."""
    if word in prose_rules.STOCK_NONE:
        return level <= 0
    if word in prose_rules.STOCK_ONE:
        return level == 1
    return level > 0


_PLAIN_LETTERS = str.maketrans({"đ": "d", "Đ": "d", "ð": "d", "Ð": "d", "ł": "l", "Ł": "l",
                                "ø": "o", "Ø": "o", "ı": "i", "ħ": "h", "Ħ": "h", "æ": "ae",
                                "Æ": "ae", "œ": "oe", "Œ": "oe", "þ": "th", "Þ": "th",
                                "\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u00b4": "'"})


def _squeezed(value: Any) -> str:
    """An input or the field it must equal, as compared: NFKC (full-width digits are digits),
    without case, accents, white space or invisible format characters ("SW1A 1AA" is
    "sw1a1aa", "Müller" is "muller" and "Łukasz" "lukasz", as typed on a keyboard without
    them; "O’Brien" is "o'brien"); a whole float is its
    integer (10115.0 is "10115"); "" for nothing."""
    if value is None or isinstance(value, bool):
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = str(value)
    if text.isascii():                  # the common case: nothing to normalise or drop
        return "".join(text.split()).casefold()
    # NFKD splits a letter from its accents and folds full-width forms as NFKC does; only the
    # accents of Latin, Greek and Cyrillic letters go (U+0300-U+036F): a kana's voicing mark
    # makes another letter (ガ is not カ). Letters with a stroke, which NFKD keeps whole, are
    # written as a keyboard without them would (Đorđević as dordevic), and so are apostrophes.
    text = unicodedata.normalize("NFKD", text.translate(_PLAIN_LETTERS))
    return unicodedata.normalize("NFC", "".join(
        c for c in "".join(text.split())
        if not "\u0300" <= c <= "\u036f" and unicodedata.category(c) != "Cf")).casefold()


def same_input(given: str, stored: Any, field: str) -> bool:
    """Whether an input given (``given``, ``_squeezed``) equals the field ``field`` of a row,
    which holds ``stored``. A postcode field's (``postcode_name``) is compared without hyphens
    too ("SW1A-1AA" is "SW1A 1AA"), and a US ZIP of five digits is a ZIP+4 of those five
    ("94105" is "94105-1234"; two ZIP+4s must be one)."""
    held = _squeezed(stored)
    if held == given:
        return True
    from rulekit.evidence import postcode_name  # (evidence is the audit's: imported late)

    if not held or not postcode_name(field):
        return False
    held, given = held.replace("-", ""), given.replace("-", "")
    if held == given:
        return True
    return held.isdigit() and given.isdigit() and 5 in (len(held), len(given)) \
        and {len(held), len(given)} <= {5, 9} and held[:5] == given[:5]


_FALSY_TEXT = frozenset({"false", "0", "no", "n", "f", ""})


def _falsy(flag: Any) -> bool:
    if isinstance(flag, str):
        return flag.strip().casefold() in _FALSY_TEXT
    return flag is None or flag is False or flag == 0


def _is_placeholder(field: Field, value: Any, row: Mapping) -> bool:
    """A stored value that means "not recorded". With ``unless FLAG``, only while the flag is
    false: a real zero is a fact."""
    for placeholder in field.placeholders:
        if placeholder.unless is not None and not _falsy(row.get(placeholder.unless)):
            continue
        if _same_literal(placeholder.value, value):
            return True
    return False


def _placeholder_in_prose(policy: Policy, field: Field, value: Any, row: Mapping) -> bool:
    """Whether free text would read a stored value as "not recorded" (sweep rule 6), though
    the field declares no placeholder: a -1 in a field not named like a change, a -1 or 0
    beside a sibling flag that says no (``putts_tracked``), "N/A" and the sweep's placeholders.
    A fallback built by code must not show what the audit of free text would flag."""
    from rulekit.evidence import PLACEHOLDER_TEXTS, _untracked

    if isinstance(value, str):
        text = value.strip().casefold()
        return text in PLACEHOLDER_TEXTS or any(text == str(p).casefold()
                                                for p in policy.sweep.placeholders)
    if isinstance(value, bool) or not isinstance(value, (int, float, Decimal)):
        return False
    number = Decimal(str(value))
    return number in (0, -1) and _untracked(field.name, number, row) or any(
        _same_literal(p, value) for p in policy.sweep.placeholders)


def _same_literal(expected: str | int | float, value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(expected, str):
        return isinstance(value, str) and value.strip().casefold() == expected.casefold()
    try:
        return Decimal(str(value).strip()) == Decimal(str(expected))
    except InvalidOperation:
        return False


# How far a row's updated_at may be ahead of ``now`` and still count as fresh: clocks of two
# machines differ by seconds, not minutes. Further ahead, the time is wrong (a local time stored
# without its zone, a clock set wrong, a placeholder such as 2099-01-01), so the age is unknown.
ALLOWED_SKEW = 300
# A date column's day is taken to begin at midnight UTC; a day already begun east of UTC (up to
# UTC+14) is not ahead of now.
_DAY_AHEAD = 14 * 3600


def staleness(entity: Entity, field: Field, row: Mapping, now: dt.datetime,
               ages: dict | None = None) -> str | None:
    """Why the value is too old to verify, or None. The key cannot go stale: the row was found
    by it. ``ages`` remembers each row's age within one check. The sweep judges the entity rows
    of free-text evidence with it too. An updated_at more than ``ALLOWED_SKEW`` ahead of
    ``now`` is no age at all: stale, said so."""
    budget = field.fresh_seconds or entity.fresh_seconds
    if not budget or not entity.fresh_via or field.name == entity.key:
        return None
    memo_key = (entity.name, str(row.get(entity.key)))
    if ages is not None and memo_key in ages:
        age = ages[memo_key]
    else:
        stored = row.get(entity.fresh_via)
        via = entity.field(entity.fresh_via)
        updated = dates.stored_instant(stored, getattr(via and via.type, "naive_zone", "UTC"))
        if updated is None:     # a date column: the day began at midnight (UTC)
            day = dates.stored_day(stored, "UTC", "UTC")
            updated = None if day is None else dt.datetime(day.year, day.month, day.day,
                                                           tzinfo=dt.timezone.utc)
            if updated is not None and 0 < (updated - now).total_seconds() <= _DAY_AHEAD:
                updated = now
        age = None if updated is None else (now - updated).total_seconds()
        if ages is not None:
            ages[memo_key] = age
    if age is None:
        return f"the record has no readable {entity.fresh_via}, so its age is unknown"
    if age < -ALLOWED_SKEW:
        return (f"the record's {entity.fresh_via} is {_duration(-age)} ahead of now: a clock or "
                "time-zone error, so its age is unknown")
    if age > budget:
        return f"the value is {_duration(age)} old; the budget is {_duration(budget)}"
    return None


def _updated_text(value: Any, entity) -> str | None:
    """A row's ``updated_at`` as the decision cites it: a timestamp, native or text, is written
    in UTC as ISO 8601 with a ``Z`` (a naive one read in the field's ``naive`` zone), so a
    citation reads the same whichever backend holds the row. Anything else is cited as stored."""
    if value is None:
        return None
    if isinstance(value, (dt.datetime, str)) and not isinstance(value, bool):
        field = entity.field(entity.fresh_via)
        instant = dates.stored_instant(value, getattr(field.type, "naive_zone", "UTC"))
        if isinstance(instant, dt.datetime):
            return instant.astimezone(dt.timezone.utc).replace(tzinfo=None).isoformat() + "Z"
    return str(jsonable(value))


def _duration(seconds: float) -> str:
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{seconds / size:.0f} {unit}" if seconds % size == 0 else f"{seconds / size:.1f} {unit}"
    return f"{seconds:.0f} s"


def _judge(derived: _Derived, item: _Planned, rows: dict, errors: dict, now: dt.datetime,
           ages: dict, cited: dict) -> ClaimResult:
    policy = derived.policy
    claim, entity, field = item.claim, item.entity, item.field
    entity_id = str(claim.entity_id)
    if entity.name in errors:
        return _judged(item, entity_id, "not_checkable", reason_code="lookup_failed",
                       reason=f"the lookup failed: {errors[entity.name]}")
    row = rows[entity.name].get(entity_id)
    if row is None:
        return _judged(item, entity_id, "not_found", reason_code="no_row",
                       reason=f"no {entity.name} with {entity.key} {entity_id}")
    cite = _row_id(entity, row, entity_id)
    if not entity.fresh_via:
        updated = None
    elif (entity.name, entity_id) in cited:
        updated = cited[entity.name, entity_id]
    else:
        updated = cited[entity.name, entity_id] = _cited_time(derived, entity,
                                                              row.get(entity.fresh_via))
    if field.name not in row:   # the source has no such column: a schema fault, fail closed
        return _judged(item, entity_id, "not_checkable", cite=cite,
                       updated_at=updated,
                       reason_code="lookup_failed",
                       reason=f"the source returned no column for {field.name}")
    value = row[field.name]
    if value is None or (isinstance(value, str) and not value.strip()):
        return _judged(item, entity_id, "not_found", cite=cite,
                       updated_at=updated, reason_code="null",
                       reason="no value is recorded")
    actual = jsonable(value)
    if field.placeholders and _is_placeholder(field, value, row):
        return _judged(item, entity_id, "not_found", cite=cite,
                       updated_at=updated, actual=actual,
                       reason_code="placeholder", reason=f"{value!r} means not recorded")
    stale = staleness(entity, field, row, now, ages)
    if stale:
        return _judged(item, entity_id, "stale", cite=cite,
                       updated_at=updated, actual=actual,
                       reason_code="stale", reason=stale)
    if claim.type == "" and claim.value is None:     # slot form: code supplies the value
        try:
            format_value(field, value, policy.locale)
        except Unreadable as exc:
            return _judged(item, entity_id, "not_checkable", cite=cite,
                           updated_at=updated, actual=actual,
                           reason_code="unreadable", reason=str(exc))
        return _judged(item, entity_id, "confirmed", cite=cite,
                       updated_at=updated, actual=actual)
    result = _compare(derived, entity, field, claim.type, claim.value, value)
    # The common end, built here rather than through _judged: one call fewer per claim.
    return claim_result(key=claim.key, entity=entity.name, entity_id=entity_id, field=field.name,
                        type=claim.type, outcome=result.outcome, claimed=claim.value,
                        actual=actual, claimed_normal=_unshared(result.claimed),
                        actual_normal=_unshared(result.actual),
                        citation=f"{entity.name}:{cite}#{field.name}", updated_at=updated,
                        reason=result.reason,
                        reason_code=None if result.outcome == "confirmed" else
                        "malformed_reply" if result.unreadable_claim else result.outcome,
                        path=item.path)


def _judged(item: _Planned, entity_id: str, outcome: str, *, updated_at: str | None = None,
            actual: Any = None, claimed_normal: Any = None, actual_normal: Any = None,
            reason: str | None = None, reason_code: str | None = None,
            cite: str | None = None) -> ClaimResult:
    """The result of a claim that was looked up, cited as ``entity:id#field`` (``cite``, the
    row's stored key, when it was found under a casefold key: ``_row_id``)."""
    claim, entity, field = item.claim, item.entity.name, item.field.name
    return claim_result(key=claim.key, entity=entity, entity_id=entity_id, field=field,
                        type=claim.type, outcome=outcome, claimed=claim.value, actual=actual,
                        claimed_normal=claimed_normal, actual_normal=actual_normal,
                        citation=f"{entity}:{cite or entity_id}#{field}", updated_at=updated_at,
                        reason=reason, reason_code=reason_code, path=item.path)


def _row_id(entity: Entity, row: Mapping, entity_id: str) -> str:
    """The id a decision cites a found row by: under a key that compares ignoring case, the
    key as stored (the model's "bk-7731" cites BK-7731, the row the lookup found); otherwise
    the id as asked, which is the key."""
    stored = row.get(entity.key)
    if stored is None or stored == entity_id or not folds_case(entity.field(entity.key).type):
        return entity_id
    return str(stored)


# The reason codes of a claim that is not_checkable whose failure takes another outcome's action.
_ROUTED_BY_REASON = frozenset(("lookup_failed", "missing_input", "malformed_reply"))


def _failure(result: ClaimResult) -> Failure:
    # A claim the model wrote so that it cannot be read is a slip in the reply, which another
    # attempt can fix: it takes the malformed_reply action, not not_checkable's refusal.
    code = result.reason_code if result.reason_code in _ROUTED_BY_REASON else result.outcome
    what = f"{result.key} ({result.entity}.{result.field})"
    detail = result.reason
    if result.outcome == "contradicted":
        detail = f"claimed {_shown(result.claimed_normal)}, the record has {_shown(result.actual_normal)}"
    message = f"{what}: {result.outcome}" + (f": {detail}" if detail else "")
    reason = Reason(code, message, result.path)
    if code == "missing_input":
        missing = result.reason.removeprefix("needs ").removesuffix(" from the user").split(", ")[0]
        return Failure("missing_input", reason, missing_input=missing)
    return Failure(code, reason)


# A text field that names its row when the ruleset says nothing (``mentioned as``).
_NAME_FIELD = re.compile(r"(?:^|_)(?:name|title)$")
# In a template's own words: where a sentence ends (a stop, or a line break: one list item per
# line), where a clause ends, and a word that may name a row.
_TEMPLATE_WORDS = re.compile(rf"(?P<end>{prose_rules.SENTENCE_END.pattern})"
                             r"|(?P<clause>[,;:\u3001\uff0c\uff1b]|\b(?i:and|but|while|whereas|vs\.?|versus|than"
                             r"|compared (?:to|with))\b)"
                             r"|(?P<word>[^\W_][\w-]*)")
# Words of a name too common to tell one row from another.
_COMMON_WORDS = frozenset("the and for with from our your its this that are was has have not "
                          "new all one two".split())


def _naming_fields(entity: Entity, bound: BoundEntity | None) -> frozenset[str]:
    """The fields that name a row of ``entity`` in a template: its key and the fields it is
    ``mentioned as`` (``bound``, its binding), else its readable text fields named like a name
    or a title."""
    if bound is not None and bound.mentions:
        return frozenset((entity.key, *(name for name in bound.mentions
                                        if (field := entity.field(name)) and field.readable)))
    return frozenset((entity.key, *(f.name for f in entity.readable_fields
                                    if f.type.kind == "text" and _NAME_FIELD.search(f.name))))


def _link_fields(entity: Entity, keys: Mapping[str, list[str]]) -> tuple[tuple[str, str], ...]:
    """(field, entity) for each field by which a row of ``entity`` belongs to a row of another
    entity: a readable field named after that entity and its key (``review.product_sku`` for a
    ``product`` keyed by ``sku``; ``delivery_quote.variant_code``). Readable, so that every
    source returns it; never a sensitive one. ``keys`` maps each ``<name>_<key>`` to the
    entities it names, in order, the last other one winning (``_Derived`` builds it once:
    built for each entity, it made a policy of 3,000 entities take seconds to check the first
    time)."""
    links = []
    for field in entity.readable_fields:
        others = [name for name in keys.get(field.name, ()) if name != entity.name]
        if others and not field.sensitive:
            links.append((field.name, others[-1]))
    return tuple(links)


def _link_rows(derived: _Derived, planned: list[_Planned], rows: dict, resolver: Resolver,
               timeout: float, tenant: str | None, inputs: Mapping
               ) -> tuple[dict, tuple[dict, ...]]:
    """The fetched rows, with the rows a link passes through on its way from one cited row to
    an entity another claim cites (a delivery quote's variant, on the way to the product named
    beside it) when the reply does not cite them: one more lookup per such entity, listed in
    the sources panel. Such a row only shows whether two cited rows belong together
    (``_belongs``); nothing renders it. A lookup that fails, or an entity that needs an input
    the user has not given, leaves the link unfollowed, which fails closed."""
    cited = {p.entity.name for p in planned if p.entity is not None}
    wanted: dict[str, dict[str, None]] = {}
    for entity in cited:
        for row in (rows.get(entity) or {}).values():
            for field, between in derived.links[entity]:
                value = row.get(field)
                if value is None or between in cited and _cited_id(derived, rows, between, value):
                    continue
                if any(parent in cited and parent != entity
                       for _, parent in derived.links[between]):
                    wanted.setdefault(between, {})[str(value)] = None
    if not wanted:
        return rows, ()
    found, panel = _key_rows(derived, wanted, resolver, timeout, tenant, inputs)
    merged = dict(rows)
    for name, more in found.items():
        merged[name] = {**more, **(rows.get(name) or {})}
    return merged, panel


def _key_rows(derived: _Derived, wanted: Mapping[str, Sequence[str]], resolver: Resolver,
              timeout: float, tenant: str | None, inputs: Mapping
              ) -> tuple[dict[str, Mapping], tuple[dict, ...]]:
    """The rows of the ``wanted`` ids of each entity that no claim cites, by one lookup of the
    key per entity (listed in the sources panel): rows that only show how cited rows relate,
    never rendered. An entity that needs an input the user has not given is not looked up, and
    a lookup that fails finds nothing; either way, nothing is learnt."""
    policy = derived.policy
    extra = []
    for name, ids in wanted.items():
        entity = policy.entity(name)
        if any(not str(inputs.get(need) or "").strip() for need in entity.requires):
            continue
        key = entity.field(entity.key)
        extra += [_Planned(-1, Claim.model_construct(key="", type="", entity=name, entity_id=row_id,
                                                     field=key.name, value=None),
                           "", entity, key, None) for row_id in ids]
    found, _, panel = _fetch(derived, extra, resolver, timeout, tenant, inputs)
    return found, panel


def _misattributed(derived: _Derived, reply: Reply, planned: list[_Planned],
                   results: list[ClaimResult], rows: dict) -> list[ClaimResult]:
    """A claim that is true of its own row but stated for another: "{name} is {price}." with
    the name cited from RC-500 and the price from BT-3 renders the speaker's price as the
    raincoat's. Each slot of an entity's field is read as said of the row named nearest to it:
    by a slot of a field that names a row (``_naming_fields``), or in the template's own words
    by the row's key or a word of its name that no other fetched row's name shares ("the hat
    is {price}"). The nearest in its clause (before it, else after it: "{days} days in
    {market}, ..."), else in its sentence (before, else after), else the last one named in an
    earlier sentence (the subject carried over, "In stock: {stock}."). A confirmed claim that
    cites another row than the nearest row of its own entity is ``misattributed``.

    A row of another entity named at least as near is what the value is stated of too: "{name}
    is rated {rating}" says a review's rating of the product. The claim's row must belong to
    it (``_belongs``): through the links the rules declare, directly or through a row the reply
    cites. Where the recorded links lead elsewhere, or cannot be followed, it is
    ``misattributed``. Where the rules link the two entities in no way, only a row named in the
    value's own clause, with no row of the value's entity named there, binds it: "{name} can
    be returned within {days} days" is flagged, "... within {days} days in {market}" and a
    sentence of its own ("Returns are accepted within {days} days.") are not. A slot that
    names a row is held to the nearest row of an entity its row is linked to, and to nothing
    else: "{author_name} reviewed the {name}" with a review of another product is flagged, a
    customer's name beside an order's number is not."""
    by_key = {p.claim.key: p for p in planned if p.entity is not None and p.field is not None}
    from rulekit.evidence import noun      # (evidence is the audit's: imported late)

    naming = derived.naming
    one_row = _same_rows(planned, rows)
    words = _row_words(derived, planned, rows, one_row)
    # (entity, the row it names or None for a figure, the claim or None, (sentence, clause)),
    # in the template's order
    events: list[tuple[str, str | None, _Planned | None, tuple[int, int]]] = []
    sentence = clause = 0
    for position, piece in enumerate(reply.template.pieces):
        if position % 2:
            item = by_key.get(piece)
            if item is not None:
                names = item.field.name in naming[item.entity.name]
                row_id = str(item.claim.entity_id)
                events.append((item.entity.name,
                               one_row.get((item.entity.name, row_id), row_id) if names
                               else None,
                               item, (sentence, clause)))
            continue
        for match in _TEMPLATE_WORDS.finditer(piece):
            if match.lastgroup == "end":
                sentence, clause = sentence + 1, 0
            elif match.lastgroup == "clause":
                clause += 1
            else:
                word = match.group().casefold()
                for entity, row in words.get(word) or words.get(noun(word), ()):
                    events.append((entity, row, None, (sentence, clause)))
    out = list(results)
    named = _Named(events)
    # The figures of each (sentence, entity) said of no row named anywhere before or in it.
    unnamed: dict[tuple[int, str], list[_Planned]] = {}
    for at, (entity, names, item, where) in enumerate(events):
        if item is None or out[item.index].outcome != "confirmed":
            continue
        claim, own = item.claim, str(item.claim.entity_id)
        own = one_row.get((entity, own), own)
        what = f"{{{claim.key}}} is the {item.field.name} of {entity} {own}"
        if names is None:
            same, rank = _subject(named, at, where, lambda other: other == entity)
            if same is None:
                unnamed.setdefault((where[0], entity), []).append(item)
            elif same[1] != own:
                out[item.index] = _misattributed_result(out[item.index], (
                    f"{what}, but its sentence is about {entity} {same[1]}; cite the row the "
                    "sentence is about"))
                continue
            subject, near = _subject(named, at, where, lambda other: other != entity)
        else:
            # A name is held only to the rows its own row belongs to: "{author} reviewed the
            # {name}" says the review is of that product.
            subject, near = _subject(named, at, where, lambda other: other != entity
                                     and _reaches(derived, entity, other, 2))
            rank = 3
        if subject is None or near > rank:
            continue
        tie = _belongs(derived, rows, entity, own, *subject)
        if tie == "yes" or (tie == "unlinked" and (near > 0 or rank == 0)):
            continue
        about = f"{subject[0]} {subject[1]}"
        out[item.index] = _misattributed_result(out[item.index], (
            f"{what}, but its {'clause' if near == 0 else 'sentence'} is about {about}" + {
                "no": f", and {entity} {own} is not of {about}",
                "unknown": f", and the rows the reply cites do not show that {entity} {own} is "
                           f"of {about}",
                "unlinked": f", and the rules do not link {entity} to {subject[0]}; name the "
                            f"{entity} the value is of"}[tie]))
    for (_, entity), items in unnamed.items():
        _mixed_rows(entity, [i for i in items if out[i.index].outcome == "confirmed"], out)
    return out


def _mixed_rows(entity: str, items: list[_Planned], out: list[ClaimResult]) -> None:
    """One sentence that names no row of ``entity`` speaks of one row, or of several alike:
    "On {night} we have {rooms} rooms." with the night of one row and the rooms of another
    states a count for a night that has another; each of its figures is ``misattributed``.
    Rows that each share a field with another row cited there are a list or a comparison,
    and pass: "from {p1} to {p2}", "{p1} with {s1} in stock, the other {p2} with {s2}", "the
    first is {p1} with {s1} in stock; the second is {p2}". A row that shares none is a mix."""
    fields: dict[str, set[str]] = {}
    for item in items:
        fields.setdefault(str(item.claim.entity_id), set()).add(item.field.name)
    if len(fields) < 2 or all(any(own & other for row, other in fields.items() if row != cited)
                              for cited, own in fields.items()):
        return
    cited = ", ".join(f"{entity} {row} ({', '.join(sorted(f))})" for row, f in fields.items())
    for item in items:
        out[item.index] = _misattributed_result(out[item.index], (
            f"{{{item.claim.key}}} is the {item.field.name} of {entity} "
            f"{item.claim.entity_id}, but its sentence names no {entity} and takes its figures "
            f"from different rows: {cited}; cite one row, or name each row beside its figures"))


def _misattributed_result(result: ClaimResult, reason: str) -> ClaimResult:
    return dataclasses.replace(result, outcome="misattributed", reason_code="misattributed",
                               reason=reason)


class _Named:
    """Where the rows a template names stand, for ``_subject``: for each entity and each event,
    the last event before it that names a row of that entity, and the first one after it.
    Built once per template, so that finding a figure's subject costs the same however long
    the template is (a scan from each figure would be quadratic)."""

    def __init__(self, events: list):
        self.events = events
        count = len(events)
        entities = {entity for entity, names, _, _ in events if names is not None}
        self.entities = entities
        self.before: dict[str, list[int | None]] = {}
        self.after: dict[str, list[int | None]] = {}
        for entity in entities:
            before, after = [None] * count, [None] * count
            last = None
            for index in range(count):
                before[index] = last
                if events[index][0] == entity and events[index][1] is not None:
                    last = index
            last = None
            for index in range(count - 1, -1, -1):
                after[index] = last
                if events[index][0] == entity and events[index][1] is not None:
                    last = index
            self.before[entity], self.after[entity] = before, after


def _subject(named: _Named, at: int, where: tuple[int, int], wanted
             ) -> tuple[tuple[str, str] | None, int]:
    """The row named nearest to the figure at ``events[at]``, which stands in ``where`` (its
    sentence and clause), among the rows of the entities ``wanted`` accepts, as (entity, row),
    and how far it is: 0 in the figure's clause (before it, else after it), 1 in its sentence
    (before, else after), 2 in an earlier sentence (the last one named), 3 for none."""
    entities = [entity for entity in named.entities if wanted(entity)]
    before = max((i for e in entities if (i := named.before[e][at]) is not None), default=None)
    after = min((i for e in entities if (i := named.after[e][at]) is not None), default=None)
    events = named.events
    for rank, scope in enumerate((lambda w: w == where, lambda w: w[0] == where[0])):
        for index in (before, after):
            if index is not None and scope(events[index][3]):
                return (events[index][0], events[index][1]), rank
    if before is not None:
        return (events[before][0], events[before][1]), 2
    return None, 3


def _belongs(derived: _Derived, rows: dict, entity: str, row_id: str, target: str,
             target_id: str) -> str:
    """How the row ``row_id`` of ``entity`` stands to the row ``target_id`` of ``target``, by
    the links the rules declare (``_link_fields``), followed either way and through at most one
    row between (a delivery quote's variant belongs to a product): "yes" when one row belongs
    to the other, "no" when a recorded link leads to another row, "unknown" when a link is
    declared but not recorded or the row between is not one the reply cites, "unlinked" when
    the rules declare no link at all."""
    verdicts = {_follow(derived, rows, entity, row_id, target, target_id, 2),
                _follow(derived, rows, target, target_id, entity, row_id, 2)}
    return next((v for v in ("no", "yes", "unknown") if v in verdicts), "unlinked")


def _follow(derived: _Derived, rows: dict, entity: str, row_id: str | None, target: str,
            target_id: str, depth: int) -> str | None:
    """Up the links of ``entity`` from the row ``row_id`` to the row ``target_id`` of
    ``target``, at most ``depth`` links: "yes", "no", "unknown" (see ``_belongs``), or None
    when no declared link leads there. A link to another row wins over one to this row (the
    rows disagree: fail closed), and one to this row over one that cannot be followed."""
    row = (rows.get(entity) or {}).get(row_id) if row_id is not None else None
    verdicts = set()
    for field, parent in derived.links[entity]:
        value = None if row is None else row.get(field)
        if parent == target:
            verdicts.add("unknown" if value is None else
                          "yes" if _same_key(derived, rows, target, value, target_id) else "no")
        elif depth > 1 and parent != entity and _reaches(derived, parent, target, depth - 1):
            between = None if value is None else _cited_id(derived, rows, parent, value)
            verdicts.add("unknown" if between is None else _follow(
                derived, rows, parent, between, target, target_id, depth - 1))
    return next((v for v in ("no", "yes", "unknown") if v in verdicts), None)


def _reaches(derived: _Derived, entity: str, target: str, depth: int) -> bool:
    """Whether a declared link leads from ``entity`` to ``target`` in at most ``depth`` links."""
    return any(parent == target or (depth > 1 and _reaches(derived, parent, target, depth - 1))
               for _, parent in derived.links[entity])


def _same_key(derived: _Derived, rows: dict, target: str, value: Any, target_id: str) -> bool:
    """Whether a link's ``value`` is the key of the fetched row ``target_id`` of ``target``,
    compared as that key compares (an identifier exactly, or case-folded when it says so)."""
    entity = derived.policy.entity(target)
    row = (rows.get(target) or {}).get(target_id) or {}
    key = row.get(entity.key)
    return _key_equal(derived, entity, value, target_id if key is None else key)


def _key_equal(derived: _Derived, entity: Entity, value: Any, key: Any) -> bool:
    """Whether a link's ``value`` and a stored ``key`` of ``entity`` are one key, compared as
    a claim on the key would be."""
    return key_matches(entity.field(entity.key).type, value, key, derived.policy.locale)


def _cited_id(derived: _Derived, rows: dict, entity: str, value: Any) -> str | None:
    """The id of the fetched row of ``entity`` whose key a link holds, or None."""
    fetched = rows.get(entity) or {}
    if str(value) in fetched:
        return str(value)
    policy_entity = derived.policy.entity(entity)
    return next((row_id for row_id, row in fetched.items()
                 if _key_equal(derived, policy_entity, value, row.get(policy_entity.key, row_id))),
                None)


def _same_rows(planned: list[_Planned], rows: dict) -> dict[tuple[str, str], str]:
    """Ids that name one row: under a key that compares ignoring case, the ids a reply wrote in
    different cases ("Bk-7731", "bK-7731") fetch the same row, so each maps to the first of
    them, and the misattribution check sees one row, not two. ``(entity, id) -> id``; empty
    when no claimed entity's key folds case (the common case)."""
    first: dict[tuple[str, str], str] = {}
    same: dict[tuple[str, str], str] = {}
    for item in planned:
        entity = item.entity
        if entity is None or not folds_case(entity.field(entity.key).type):
            continue
        asked = str(item.claim.entity_id)
        row = (rows.get(entity.name) or {}).get(asked)
        stored = row.get(entity.key) if isinstance(row, Mapping) else None
        if stored is not None:
            same[entity.name, asked] = first.setdefault((entity.name, str(stored)), asked)
    return same


def _row_words(derived: _Derived, planned: list[_Planned], rows: dict,
               same: dict[tuple[str, str], str]) -> dict[str, list[tuple[str, str]]]:
    """The words of a template that name one fetched row of an entity two or more claims cite
    apart: each row's key, and each word of its naming fields' values that no other row of
    that entity shares (not "the", not "raincoat" when two raincoats are cited). A row is named
    by one id (``same``: ``_same_rows``)."""
    cited: dict[str, set[str]] = {}
    for item in planned:
        if item.entity is not None:
            row_id = str(item.claim.entity_id)
            cited.setdefault(item.entity.name, set()).add(
                same.get((item.entity.name, row_id), row_id))
    found: dict[str, list[tuple[str, str]]] = {}
    for name, ids in cited.items():
        fetched = rows.get(name) or {}
        if len(ids) < 2 or not isinstance(fetched, Mapping):
            continue
        entity = derived.policy.entity(name)
        fields = derived.naming[name] - {entity.key}
        owners: dict[str, set[str]] = {}
        for row_id in ids:
            owners.setdefault(row_id.casefold(), set()).add(row_id)
            row = fetched.get(row_id)
            if not isinstance(row, Mapping):
                continue
            for field in fields:
                value = row.get(field)
                if isinstance(value, str):
                    for word in _TEMPLATE_WORDS.finditer(value):
                        text = word.group().casefold()
                        if word.lastgroup == "word" and len(text) >= 3 \
                                and text not in _COMMON_WORDS:
                            owners.setdefault(text, set()).add(row_id)
        for word, owned in owners.items():
            if len(owned) == 1:
                found.setdefault(word, []).append((name, next(iter(owned))))
    return found


def _swept_prose(policy: Policy, template, rows: dict) -> list:
    """Sweep the text outside the slots (seed 000: render, then sweep). No number is licensed
    there: facts travel through slots. Only what the sweep lets pass without a fact gets
    through: small integers as ordinals and the like, and digits that keep the company they
    keep in the rows' names and codes (the "3" of "Model 3"), never "ships in 3 days"."""
    prose = " ".join(template.pieces[0::2])
    from rulekit.audit import as_written, names_only_evidence
    from rulekit.sweep import SweepSettings, direction_controls, sweep

    if not prose_rules.may_hold_figures(prose):
        # "We have \u202e{stock}\u202c left": a slot shown in another order than it was checked
        return [] if prose.isascii() else direction_controls(prose)

    settings = SweepSettings.from_policy(policy)
    read = prose
    if not prose.isascii():     # "RC\u2011500": a code's typographic dash read as "-"
        from rulekit.sweep_codes import with_code_hyphens

        read = with_code_hyphens(prose)
    found = sweep(read, names_only_evidence(rows, policy.locale), settings, locale=policy.locale)
    return found if read is prose else list(as_written(found, read, prose))


def _shown(normal: Any) -> str:
    if isinstance(normal, dict) and "minor_units" in normal:
        return f"{normal['minor_units']} minor units of {normal['currency']}"
    if isinstance(normal, dict):
        return ", ".join(f"{k} {v}" for k, v in normal.items())
    return str(normal)


def _price_words_failures(policy: Policy, planned: list[_Planned], template: Any,
                          path: str) -> list[Failure]:
    """Words right before a money slot that name another price of its row ("{name} was
    {price}, now {list_price}": the list price shown as the price paid), in every prose mode
    (``prose.slot_price_words``): `unapproved_shape`, naming the words and the field they
    name."""
    words_of = derived(policy, "check.price_words", _entity_price_words)
    slots = {p.claim.key: (p.field.name, words_of[p.entity.name]) for p in planned
             if p.field is not None and p.entity is not None and p.field.type.kind == "money"
             and words_of.get(p.entity.name)}
    said = prose_rules.slot_price_words(template.pieces, slots) if slots else ()
    if not said:
        return []
    fields = {p.claim.key: p for p in planned if p.claim.key in slots}
    return [Failure("unapproved_shape", Reason(
        "unapproved_shape", "words before a slot name another price of its row than the slot "
        "holds: " + ", ".join(
            f"'{words}' names the {' or '.join(sorted(named))}, but {{{slot}}} is the "
            f"{fields[slot].field.label}" for words, slot, named in said), path),
        misbound=tuple(dict.fromkeys(slot for _, slot, _ in said)))]


def _entity_price_words(policy: Policy) -> dict[str, dict[str, frozenset[str]]]:
    """``prose.price_words`` of each entity of ``policy`` with two money fields or more."""
    bound = {entity.name: entity.words for entity in policy.binding.entities}
    out = {}
    for entity in policy.entities:
        money = [field.name for field in entity.fields if field.type.kind == "money"]
        if len(money) > 1:
            words = prose_rules.price_words(bound.get(entity.name, ()), money)
            if words:
                out[entity.name] = words
    return out


def _prose_failures(policy: Policy, reply: Reply, planned: list[_Planned],
                    rows: dict) -> list[Failure]:
    template = reply.template
    failures = []
    path = "$.answer_template" if reply.form == "claims" else "$.template"
    approved = False
    if policy.shapes:
        slot_fields = {p.claim.key: f"{p.claim.entity}.{p.claim.field}" for p in planned}
        approved = prose_rules.matches_shapes(template, slot_fields, policy.shape_skeletons)
    # Text made only of approved shapes is the product team's own wording ("Ordered today, it
    # should arrive between {a} and {b}."), not the model's: there is nothing of the model's
    # outside the slots to sweep.
    for finding in () if approved else _swept_prose(policy, template, rows):
        failures.append(Failure("stray_figure", Reason(
            "stray_figure", f"{finding.text!r} written outside the slots: " + (
                _put_day_in_slot(planned) if finding.kind == "date" else
                f"{finding.message}; every figure must come from a claim"), path)))
    if not approved:
        failures += _days_outside_slots(policy, template, planned, path)
        failures += _unquoted_third_party(policy, template, planned, path)
    failures += _third_party_links(policy, planned, rows, path)
    # A template worded as approved shapes is held to the fields they bind in every prose
    # mode: "Your subscription renews on {renews_on}." citing the trial's end renders a wrong
    # renewal date in the product team's own words.
    rebound, misbound = (None, ()) if approved or not policy.shapes \
        else _rebound(policy, template, slot_fields) or (None, ())
    if policy.prose == "shapes" and not approved:
        names = ", ".join(s.name for s in policy.shapes)
        failures.append(Failure("unapproved_shape", Reason(
            "unapproved_shape", f"the template is not made of approved shapes ({names})"
            + (f": {rebound}" if rebound else ""), path), misbound=misbound))
    elif rebound:
        failures.append(Failure("unapproved_shape", Reason("unapproved_shape", rebound, path),
                                misbound=misbound))
    if policy.prose == "guarded":
        phrases = prose_rules.guarded_phrases(template.prose, policy.forbidden_pattern)
        if phrases:
            failures.append(Failure("unapproved_shape", Reason(
                "unapproved_shape", "the prose makes claims no slot backs: "
                + ", ".join(f"'{p}'" for p in dict.fromkeys(phrases)), path)))
    fields = {p.claim.key: p.field for p in planned if p.field is not None}
    if not approved and prose_rules.may_state_stock(template.prose):
        # In every prose mode: "{rating} left" states a stock figure that nothing backs.
        counts = {key for key, field in fields.items()
                  if field.type.kind in ("integer", "decimal") and not _STOCK_FIELD.search(field.name)}
        said = prose_rules.stock_figures(template.pieces, counts) if counts else ()
        if said:
            failures.append(Failure("unapproved_shape", Reason(
                "unapproved_shape", "stock words beside a slot that is not a stock level: "
                + ", ".join(f"'{p}'" for p in dict.fromkeys(said)), path),
                misbound=tuple(key for key in counts if any(f"{{{key}}}" in p for p in said))))
    stated = []
    if prose_rules.says_stock(template.prose):
        from rulekit.evidence import _number_or_none   # (evidence is the audit's: imported late)

        stock_slots = {key: field for key, field in fields.items()
                       if _STOCK_FIELD.search(field.name)}
        stated = prose_rules.stock_words(template.pieces, stock_slots)
    for word, slot in stated:
        if slot is None:
            continue
        item = next(p for p in planned if p.claim.key == slot)
        row = (rows.get(item.entity.name) or {}).get(str(item.claim.entity_id)) or {}
        level = _number_or_none(row.get(item.field.name))
        if level is None or not _stock_agrees(word, level):
            failures.append(Failure("contradicted", Reason(
                "contradicted", f"'{word}' beside {{{slot}}} says what the record does not: "
                f"the {item.field.label} is {level if level is not None else 'not recorded'}",
                path)))
    failures += _weekdays_said(policy, template, planned, rows, path)
    failures += _directions_said(template, planned, rows, path)
    if not approved:    # rule 14 (rulekit.sweep_flags): "returns are free" of free_returns false
        failures += template_failures(template, planned, rows, path)
    if not approved and may_say_free(template.prose.casefold()):
        # rule 15 (rulekit.sweep_free): "{name} is free." of a price of $20.00
        failures += free_failures(policy, template, planned, rows, path)
    if not approved and any(field.type.kind == "money" for field in fields.values()):
        # "{name} was {price}, now {list_price}": the words name the other price of the row
        failures += _price_words_failures(policy, planned, template, path)
    periods = {key: held for key, field in fields.items()
               if field.type.kind == "money"
               and (held := prose_rules.field_periods(field.name, field.label))}
    if periods and not approved:
        # In every prose mode, as the sweep reads free text: "{price} per year" for a price
        # held per month states a twelfth of the cost.
        said = prose_rules.slot_periods(template.pieces, periods, policy.locale[:2])
        if said:
            failures.append(Failure("unapproved_shape", Reason(
                "unapproved_shape", "words beside a slot say another period than its field "
                "holds: " + ", ".join(
                    f"'{words}' (the {fields[slot].label} is " + (
                        "a total" if periods[slot] == {TOTAL} else
                        f"per {' or '.join(sorted(periods[slot]))}") + ")"
                    for words, slot in said), path)))
    if policy.prose != "guarded" and not approved:
        # In every prose mode (under `guarded`, ``slot_modifiers`` below reads them too): "{price}
        # in euros" states a price in another currency than the one verified
        said = prose_rules.slot_currencies(template.pieces, fields, policy.locale)
        if said:
            failures.append(Failure("unapproved_shape", Reason(
                "unapproved_shape", "words beside a slot say another currency than its field "
                "holds: " + ", ".join(f"'{p}'" for p in dict.fromkeys(said)), path)))
    if policy.prose == "guarded" and not approved:
        glued = prose_rules.slot_modifiers(template.pieces, fields, policy.locale)
        if glued:
            failures.append(Failure("unapproved_shape", Reason(
                "unapproved_shape", "words beside a slot change what it says: "
                + ", ".join(f"'{p}'" for p in dict.fromkeys(glued)), path)))
        unbacked = [word for word, slot in stated if slot is None]
        if unbacked:
            failures.append(Failure("unapproved_shape", Reason(
                "unapproved_shape", "stock words with no stock slot in their sentence: "
                + ", ".join(f"'{p}'" for p in dict.fromkeys(unbacked)), path)))
    return failures


def _rebound(policy: Policy, template, slot_fields: Mapping[str, str]
             ) -> tuple[str, tuple[str, ...]] | None:
    """Why a template that is worded as approved shapes (``prose.worded_as``: the same words,
    whatever its slots are named) but not made of them holds other fields than they bind, with
    the slots that do, or None when its words are not the shapes'. The shapes' slots apply by
    position: the n-th slot of the template holds what the n-th slot of its shapes binds."""
    worded = prose_rules.worded_as(template, policy.shape_wordings)
    if worded is None:
        return None
    shapes = [policy.shapes[index] for index in worded]
    bound = [f"{slot.entity}.{slot.field}" for shape in shapes
             for name in shape.pieces[1::2] for slot in shape.slots if slot.name == name]
    slots = [(name, want) for name, want in zip(template.pieces[1::2], bound)
             if slot_fields.get(name) != want]
    if not slots:
        return None
    wrong = [f"{{{name}}} holds {slot_fields.get(name, 'no claim')} where the shape binds {want}"
             for name, want in slots]
    names = ", ".join(f"'{name}'" for name in dict.fromkeys(shape.name for shape in shapes))
    return (f"the template is worded as the approved shape{'s' if len(shapes) > 1 else ''} "
            f"{names}, but {'; '.join(wrong)}: cite the field the shape binds in each slot",
            tuple(dict.fromkeys(name for name, _ in slots)))


# --- deciding ---------------------------------------------------------------------------------

def _decide(policy: Policy, results: list[ClaimResult], failures: list[Failure],
            reply: Reply | None, attempt: int, rows: dict, now: dt.datetime,
            planned: list[_Planned] = (), sources: tuple[dict, ...] = (),
            inputs: Mapping = {}) -> Decision:
    """``planned`` are the claims ``results`` judged, in the same order; ``sources`` is the
    panel of the lookups that ran; ``inputs`` what the user gave (a message may repeat it)."""
    failed = [r for r in results if r.outcome != "confirmed"]
    common = dict(ruleset=policy.ruleset, claims=tuple(results), attempt=attempt,
                  unsupported_claims=tuple(r.key for r in failed), sources=sources)
    if not failures:
        return _answer(policy, results, reply, rows, common, planned)
    action, _ = choose(policy, failures, attempt)
    reasons = tuple(f.reason for f in failures)
    facts = _facts(policy, results, rows, with_true_values=action.kind == "regenerate" and action.with_values,
                   narrow=action.kind == "regenerate" and action.narrow,
                   misbound={key for f in failures for key in f.misbound})
    common.update(reasons=reasons, facts=facts)
    if action.kind == "regenerate":
        return Decision("regenerate", feedback=_feedback(policy, results, failures, action),
                        next_action="regenerate", **common)
    if action.kind == "fallback":
        rendered = _render_fallback(policy, action, results, rows, now)
        if not isinstance(rendered, _Unfilled):
            text, citations = rendered
            return Decision("fallback", text=text, citations=citations, **common)
        # Refused in the ruleset's own words for what the fallback met, when it has them.
        refusal = _refusal_for(policy, rendered.outcome)
        common["reasons"] = reasons + (Reason(
            "fallback_unavailable", f"the fallback '{action.fallback}' needs {rendered.why}, so "
            "rulekit refused instead" + (f", with the `on {rendered.outcome}` message"
                                         if refusal else ""),),)
        # "{fields}" is what the fallback met (its stock that is out of date), not the claim
        # that failed before it (a wrong price)
        named = [rendered.named] if rendered.named is not None else failed
        return Decision("refuse", message=_message(policy, refusal or DEFAULT_REFUSAL, named,
                                                   rows, inputs), **common)
    # An ask for what the user has not given names it: "{fields}" is the input's label.
    asked = [f.missing_input for f in failures if f.missing_input] if action.kind == "ask" else []
    message = _message(policy, action.message, failed, rows, inputs, asked) \
        if action.message else None
    if action.kind == "ask":
        return Decision("ask", message=message, next_action=action.hint, **common)
    if action.kind == "handoff":
        return Decision("handoff", message=message, next_action="handoff", **common)
    return Decision("refuse", message=message, **common)


def _answer(policy: Policy, results: list[ClaimResult], reply: Reply, rows: dict,
            common: dict, planned: list[_Planned]) -> Decision:
    """Every claim confirmed: fill each slot from the stored value, formatted by code."""
    derived = _derived(policy)
    values, citations = {}, []
    for result, item in zip(results, planned, strict=True):
        entity, field = item.entity, item.field     # confirmed, so both are the policy's
        stored = rows[result.entity][result.entity_id][result.field]
        try:
            values[result.key] = _format(derived, entity, field, stored, result.type or None)
        except Unreadable as exc:   # never render a guess
            reason = Reason("not_checkable", f"{result.key}: the stored value cannot be shown: {exc}",
                            result.path)
            return Decision("refuse", message=_message(policy, DEFAULT_REFUSAL, [result], rows),
                            reasons=(reason,), **common)
        citations.append({"slot": result.key, "ref": result.citation, "updated_at": result.updated_at})
    currencies = {result.key: item.field.type.currency
                  for result, item in zip(results, planned, strict=True)
                  if item.field.type.kind == "money"}
    return Decision("answer", text=fill(reply.template.pieces, values, currencies, policy.locale),
                    citations=tuple(citations), **common)


def _facts(policy: Policy, results: list[ClaimResult], rows: dict, *, with_true_values: bool,
           narrow: bool, misbound: set[str] | frozenset[str] = frozenset()) -> tuple[Fact, ...]:
    """Verified values for a regeneration prompt: confirmed ones always; the true value of a
    contradicted claim only when the rules allow showing it, and never with `narrow`. A slot
    whose value was stated as another field (``misbound``) gives none: keyed by its slot, the
    fact would have the model say it for that field again."""
    derived = _derived(policy)
    facts = []
    for result in results:
        allowed = result.outcome == "confirmed" or (
            result.outcome == "contradicted" and with_true_values and not narrow)
        if not allowed or result.key in misbound:
            continue
        entity = policy.entity(result.entity)
        field = entity.field(result.field)
        stored = rows[result.entity][result.entity_id][result.field]
        facts.append(Fact(result.key, result.citation, jsonable(stored),
                          _format(derived, entity, field, stored, result.type or None),
                          result.updated_at))
    return tuple(facts)


def _written_by_others(policy: Policy, entity: str, field: Field) -> bool:
    """Whether a field's value is a third party's words: a field the sweep reads as
    third-party (``_Derived.third_party``), or a text field that says who wrote its row (a
    review's ``author``, which its reviewer chose)."""
    from rulekit.evidence import _author_key

    return (entity, field.name) in _derived(policy).third_party \
        or field.type.kind == "text" and _author_key(field.name)


def _feedback(policy: Policy, results: list[ClaimResult], failures: list[Failure],
              action: Action) -> str:
    lines = []
    for result in results:
        if result.outcome == "confirmed":
            continue
        said = "cannot be read: " + result.reason.removeprefix("the claimed value cannot be "
                                                               "read: ") \
            if result.reason_code == "malformed_reply" else _FEEDBACK.get(result.outcome,
                                                                         result.outcome)
        line = f"- {result.key}: you wrote {result.claimed!r}, which {said}"
        if result.outcome == "contradicted" and action.with_values:
            field = policy.entity(result.entity).field(result.field)
            try:
                shown = format_value(field, result.actual, policy.locale, result.type)
            except Unreadable:
                shown = None
            if shown is not None and _written_by_others(policy, result.entity, field):
                # a review's text or a reviewer's chosen name: labelled, never bare words
                from rulekit.prompt import labelled_untrusted

                line += ("; the record holds what a third party wrote: "
                         f"{labelled_untrusted(shown)}")
            elif shown is not None:
                line += f"; the record says {shown}"
        lines.append(line)
    # Every failure that no claim's line above names gets its own line, whatever its outcome:
    # a weekday or a stock word of the template's own words contradicted by the record is a
    # `contradicted` failure with no claim behind it, and a feedback that listed only some
    # outcomes said "Fix these items" and named none.
    unread = {result.path for result in results if result.reason_code == "malformed_reply"}
    named = {_failure(result).reason for result in results if result.outcome != "confirmed"}
    for failure in failures:
        if failure.reason.path in unread or failure.reason in named:
            continue        # named above, with what the model wrote
        where = f" (at {failure.reason.path})" if failure.reason.path else ""
        # A true value the rule does not give the model stays in the reason, for the developer.
        said = failure.reason.message if action.with_values or failure.feedback is None \
            else failure.feedback
        lines.append(f"- {said}{where}")
    if not lines:   # never "Fix these items" with none: say what failed, by its reasons
        lines = [f"- {failure.reason.message}" for failure in failures] or [
            "- the reply could not be verified"]
    shown = lines[: action.naming or 8]
    more = len(lines) - len(shown)
    return ("Your last reply cannot be shown. Fix these items and use only the facts given:\n"
            + "\n".join(shown) + (f"\n- and {more} more" if more > 0 else ""))


# What a message says where the thing that failed cannot be named (docs/claims.md).
_NO_FIELDS, _NO_ENTITY = "answer", "record"


def _message(policy: Policy, template: str, failed: list[ClaimResult], rows: Mapping = {},
             inputs: Mapping = {}, asked: Sequence[str] = ()) -> str:
    """A refuse, ask or handoff message naming what could not be verified (``failed``). The
    customer reads it, so nothing of the model's is ever in it: ``{fields}`` holds the declared
    labels of the fields that failed, ``{entity}`` the declared names of their entities, and
    ``{id}`` the ids of their rows, each only as the record holds it (``_shown_ids``). A claim
    on a field or entity the ruleset does not declare, or on an id no row has, is named by the
    model's own string, so it cannot be named: ``{fields}`` then says "answer", ``{entity}``
    "record", and ``{id}`` is left out. Each names all that failed or nothing, as a part would
    tell the customer that only that part failed. What the model wrote stays in the reasons,
    for the developer. An ask for inputs the user has not given (``asked``) names them instead:
    ``{fields}`` holds their declared labels ("the delivery postcode")."""
    labels: list[str] | None = []
    entities: list[str] | None = []
    for result in failed:
        entity = policy.entity(result.entity)
        field = entity.field(result.field) if entity is not None else None
        if entity is None:
            entities = None
        elif entities is not None:
            entities.append(entity.name)
        if field is None:
            labels = None
        elif labels is not None:
            labels.append(field.label)
    if asked:
        labels = [item.label for item in policy.inputs if item.name in asked]
    values = {"fields": join_words(labels or (), policy.locale) or _NO_FIELDS,
              "entity": join_words(entities or (), policy.locale) or _NO_ENTITY,
              "id": join_words(_shown_ids(policy, failed, rows, inputs), policy.locale)}
    return fill_message(parse_template(template).pieces, values)


def _shown_ids(policy: Policy, failed: list[ClaimResult], rows: Mapping,
               inputs: Mapping) -> list[str]:
    """The ids of the rows ``failed`` cite, as a message may repeat them, or none at all. An id
    is a claim of the model's until a row answers it: the key of a row the lookup found is the
    record's (tenant-scoped, and only a row that goes with the user's inputs is ever found), so
    it is shown as stored; an id no row has, or one never looked up, is shown only when it is
    what the user gave for a declared input (an order number they typed), as they gave it:
    repeating the user's own words tells them nothing new. Anything else, the model's text, is
    never shown, and then neither is any other id."""
    given = {_squeezed(inputs.get(i.name)): str(inputs[i.name]).strip()
             for i in policy.inputs if _squeezed(inputs.get(i.name))} if inputs else {}
    shown = []
    for result in failed:
        entity = policy.entity(result.entity)
        found = None if entity is None else (rows.get(entity.name) or {}).get(result.entity_id)
        if isinstance(found, Mapping):
            key = jsonable(found.get(entity.key))
            shown.append(key.strip() if type(key) is str else
                         str(key) if type(key) is int else result.entity_id)
        elif _squeezed(result.entity_id) in given:
            shown.append(given[_squeezed(result.entity_id)])
        else:
            return []
    return shown


class _Unfilled(NamedTuple):
    """Why a fallback cannot be filled: the outcome its slot met, and in words; and the slot's
    field, when it is one field's value (stale, not recorded), which the refusal names."""
    outcome: str        # not_found, stale or not_checkable
    why: str
    named: "_FieldNamed | None" = None


class _FieldNamed(NamedTuple):
    """A field of a row, as a refusal's message names it (``_message`` reads these three)."""
    entity: str
    field: str
    entity_id: str


def _refusal_for(policy: Policy, outcome: str) -> str | None:
    """The refuse message the ruleset gives ``outcome``: its rule's action, or the action its
    ``regenerate ... then`` leads to; None when that is no refusal."""
    action = policy.action_for(outcome)
    while action is not None and action.kind == "regenerate":
        action = action.then
    return action.message if action is not None and action.kind == "refuse" else None


def _render_fallback(policy: Policy, action: Action, results: list[ClaimResult], rows: dict,
                     now: dt.datetime) -> tuple[str, tuple[dict, ...]] | _Unfilled:
    """Text built by code from verified facts: every slot from a row that was found (a row that
    does not go with the user's inputs never is: ``_fetch``), fresh and not a placeholder. The
    entity's id is the one the reply was about; if the reply named several, the fallback cannot
    choose and refuses. Otherwise ``_Unfilled``: a row the reply did not cite or a value not
    recorded is ``not_found``, an old one ``stale``, several rows or a value that cannot be
    shown ``not_checkable``."""
    template = next(t for t in policy.fallbacks if t.name == action.fallback)
    ids_by_entity: dict[str, set[str]] = {}
    for result in results:
        if result.reason_code not in ("lookup_failed", "unknown_entity", "missing_input"):
            ids_by_entity.setdefault(result.entity, set()).add(result.entity_id)
    values, citations, currencies = {}, [], {}
    for slot in template.slots:
        ids = ids_by_entity.get(slot.entity, set())
        if len(ids) > 1:
            return _Unfilled("not_checkable", f"one row of {slot.entity} and the reply cites "
                             f"{len(ids)}")
        if not ids or slot.entity not in rows:
            return _Unfilled("not_found", f"a row of {slot.entity} the reply did not cite")
        (entity_id,) = ids
        row = rows[slot.entity].get(entity_id)
        entity = policy.entity(slot.entity)
        field = entity.field(slot.field)
        value = None if row is None else row.get(slot.field)
        if row is None:
            return _Unfilled("not_found", f"the row of {slot.entity} {entity_id}, which was not "
                             "found")
        named = _FieldNamed(slot.entity, slot.field, entity_id)
        if value is None or _is_placeholder(field, value, row) \
                or _placeholder_in_prose(policy, field, value, row):
            return _Unfilled("not_found", f"the {field.label} of {slot.entity} {entity_id}, "
                             "which is not recorded", named)
        if staleness(entity, field, row, now):
            return _Unfilled("stale", f"the {field.label} of {slot.entity} {entity_id}, which "
                             "is out of date", named)
        try:
            values[slot.name] = format_value(field, value, policy.locale)
            if field.type.kind == "money":
                currencies[slot.name] = field.type.currency
        except Unreadable:
            return _Unfilled("not_checkable", f"the {field.label} of {slot.entity} "
                             f"{entity_id}, which cannot be shown", named)
        citations.append({"slot": slot.name,
                          "ref": f"{slot.entity}:{_row_id(entity, row, entity_id)}#{slot.field}",
                          "updated_at": _updated_text(row.get(entity.fresh_via), entity)
                          if entity.fresh_via else None})
    return fill(template.pieces, values, currencies, policy.locale), tuple(citations)


# ``rulekit.check(...)`` works even after this module was imported as ``rulekit.check``.
from rulekit import _callable_module  # noqa: E402

_callable_module(__name__, check)
