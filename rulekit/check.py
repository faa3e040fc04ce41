"""Checking a model's reply against the system of record, and deciding what reaches the user.

    read the reply -> plan one lookup per entity -> fetch -> compare each claim by type
    -> check the prose -> decide -> render from verified values

``check`` never raises into the chatbot: a malformed reply, a failed or slow lookup, an unknown
field all become a fail-closed ``Decision`` with reasons, and text is present only when every
fact in it verified (``answer``) or was built by code from verified facts (``fallback``).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import time
from decimal import Decimal, InvalidOperation
from typing import Any, Mapping

from rulekit import dates, prose as prose_rules
from rulekit.compare import Unreadable, compare
from rulekit.decision import ClaimResult, Decision, Fact, Failure, Reason, choose
from rulekit.policy import Action, Entity, Field, Policy
from rulekit.render import fill, format_value, join_words, jsonable
from rulekit.reply import Claim, Reply, read_reply
from rulekit.sources import LookupRequest, Resolver, open_source
from rulekit.template import parse_template

DEFAULT_TIMEOUT = 2.0
DEFAULT_REFUSAL = "I could not verify the {fields}, so I have not given an answer."

# How each failure is described to the model on regenerate.
_FEEDBACK = {
    "contradicted": "does not match the record",
    "not_found": "has no recorded value; do not state one",
    "stale": "is out of date in the record; do not state it",
    "not_checkable": "cannot be checked or shared; leave it out",
}


@dataclasses.dataclass(frozen=True, slots=True)
class _Planned:
    """A claim after validation against the policy: what to look up, or why not."""
    index: int
    claim: Claim
    path: str
    entity: Entity | None
    field: Field | None
    blocked: ClaimResult | None     # decided without a lookup (hidden field, unknown entity...)


def check(policy: Policy, reply: Any, source: Resolver | str | Mapping, *,
          now: dt.datetime | None = None, attempt: int = 1,
          inputs: Mapping[str, str] | None = None, timeout: float = DEFAULT_TIMEOUT) -> Decision:
    """Check one model reply. ``now`` makes freshness deterministic in tests; ``attempt`` is
    1 for the first reply and counts regenerations; ``inputs`` are what the user has given
    (a postcode...), which entities can require."""
    try:
        return _check(policy, reply, source, now, attempt, inputs, timeout)
    except Exception as exc:  # a bug or an input nobody foresaw: fail closed, never raise
        return Decision("refuse", ruleset=policy.ruleset, attempt=attempt,
                        message=_message(policy, DEFAULT_REFUSAL, []),
                        reasons=(Reason("internal_error", f"the check could not complete: "
                                        f"{exc.__class__.__name__}: {str(exc)[:200]}"),))


def _check(policy: Policy, reply: Any, source: Any, now: dt.datetime | None, attempt: int,
           inputs: Mapping[str, str] | None, timeout: float) -> Decision:
    now = _aware(now or dt.datetime.now(dt.timezone.utc))
    try:
        resolver = open_source(source, timeout=timeout)
    except Exception as exc:  # a bad source spec fails closed like a failed lookup
        return _decide(policy, [], [Failure("lookup_failed", Reason(
            "lookup_failed", f"the source could not be opened: {exc}"))], None, attempt, {}, now)
    parsed, problems = read_reply(reply)
    if problems:
        failures = [Failure("malformed_reply", Reason("malformed_reply", p.message, p.path))
                    for p in problems]
        return _decide(policy, [], failures, None, attempt, {}, now)
    if parsed.form == "slots" and not parsed.grounded:
        return _decide(policy, [], [Failure("not_found", Reason(
            "not_grounded", "the model said it could not ground its answer", "$.grounded"))],
            parsed, attempt, {}, now)
    claims = parsed.claims if parsed.form == "claims" else _slot_claims(parsed)
    planned = [_plan(policy, index, claim, parsed.form, inputs or {})
               for index, claim in enumerate(claims)]
    rows, lookup_errors = _fetch(policy, planned, resolver, timeout)
    ages: dict[tuple[str, str], float | None] = {}
    results = [p.blocked or _judge(policy, p, rows, lookup_errors, now, ages) for p in planned]
    failures = [_failure(r) for r in results if r.outcome != "confirmed"]
    failures += _prose_failures(policy, parsed, planned, rows)
    return _decide(policy, results, failures, parsed, attempt, rows, now)


def _aware(moment: dt.datetime) -> dt.datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.timezone.utc)


def _slot_claims(reply: Reply) -> tuple[Claim, ...]:
    """The slot form names fields of the subject; code supplies every value."""
    subject = reply.subject
    return tuple(Claim.model_construct(key=name, type="", entity=subject.entity,
                                       entity_id=subject.id, field=name, value=None)
                 for name in reply.template.slot_names)


def _plan(policy: Policy, index: int, claim: Claim, form: str, inputs: Mapping) -> _Planned:
    path = f"$.claims[{index}]" if form == "claims" else "$.template"
    entity = policy.entity(claim.entity)
    base = dict(key=claim.key, entity=claim.entity, entity_id=str(claim.entity_id),
                field=claim.field, type=claim.type, claimed=claim.value, path=path)
    if entity is None:
        known = ", ".join(e.name for e in policy.entities)
        return _Planned(index, claim, path, None, None, ClaimResult(
            **base, outcome="not_checkable", reason_code="unknown_entity",
            reason=f"'{claim.entity}' is not an entity of this ruleset (known: {known})"))
    field = entity.field(claim.field)
    if field is None or not field.readable:
        # Never looked up: the whitelist is a security control, not a hint.
        return _Planned(index, claim, path, entity, None, ClaimResult(
            **base, outcome="not_checkable",
            reason_code="hidden_field" if field else "unknown_field",
            reason=f"'{claim.entity}.{claim.field}' is not a readable field"))
    missing = [name for name in entity.requires if not str(inputs.get(name) or "").strip()]
    if missing:
        return _Planned(index, claim, path, entity, field, ClaimResult(
            **base, outcome="not_checkable", reason_code="missing_input",
            reason=f"needs {', '.join(missing)} from the user"))
    return _Planned(index, claim, path, entity, field, None)


def _fetch(policy: Policy, planned: list[_Planned], resolver: Resolver, timeout: float
           ) -> tuple[dict[str, Mapping], dict[str, str]]:
    """One lookup per entity for all its ids, with every field any claim, freshness rule,
    placeholder flag or fallback of that entity needs. Returns rows by entity and id, and the
    error of each entity whose lookup failed."""
    wanted: dict[str, tuple[list[str], set[str]]] = {}
    for item in planned:
        if item.blocked is None:
            ids, fields = wanted.setdefault(item.entity.name, ([], set()))
            if str(item.claim.entity_id) not in ids:
                ids.append(str(item.claim.entity_id))
            fields.add(item.field.name)
    for fallback in policy.fallbacks:
        for slot in fallback.slots:
            if slot.entity in wanted:
                wanted[slot.entity][1].add(slot.field)
    rows: dict[str, Mapping] = {}
    errors: dict[str, str] = {}
    for name, (ids, fields) in wanted.items():
        entity = policy.entity(name)
        for field in list(fields):
            fields.update(p.unless for p in entity.field(field).placeholders if p.unless)
        if entity.fresh_via:
            fields.add(entity.fresh_via)
        request = LookupRequest(entity=name, key=entity.key, ids=tuple(ids),
                                fields=tuple(sorted(fields)), timeout=timeout)
        started = time.monotonic()
        try:
            found = resolver.fetch(request)
        except Exception as exc:  # any failure of the source fails closed
            errors[name] = f"{exc.__class__.__name__}: {exc}" if str(exc) else exc.__class__.__name__
            continue
        if time.monotonic() - started > timeout:
            errors[name] = f"the lookup took longer than {timeout:g} s"
            continue
        if not isinstance(found, Mapping) or not all(isinstance(r, Mapping) for r in found.values()):
            errors[name] = f"the source returned {type(found).__name__}, not rows by id"
            continue
        rows[name] = found
    return rows, errors


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


def _same_literal(expected: str | int | float, value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(expected, str):
        return isinstance(value, str) and value.strip().casefold() == expected.casefold()
    try:
        return Decimal(str(value).strip()) == Decimal(str(expected))
    except InvalidOperation:
        return False


def _staleness(entity: Entity, field: Field, row: Mapping, now: dt.datetime,
               ages: dict | None = None) -> str | None:
    """Why the value is too old to verify, or None. The key cannot go stale: the row was found
    by it. ``ages`` remembers each row's age within one check."""
    budget = field.fresh_seconds or entity.fresh_seconds
    if not budget or not entity.fresh_via or field.name == entity.key:
        return None
    memo_key = (entity.name, str(row.get(entity.key)))
    if ages is not None and memo_key in ages:
        age = ages[memo_key]
    else:
        stored = row.get(entity.fresh_via)
        updated = dates.stored_instant(stored, "UTC")
        if updated is None:     # a date column: the day began at midnight (UTC)
            day = dates.stored_day(stored, "UTC", "UTC")
            updated = None if day is None else dt.datetime(day.year, day.month, day.day,
                                                           tzinfo=dt.timezone.utc)
        age = None if updated is None else (now - updated).total_seconds()
        if ages is not None:
            ages[memo_key] = age
    if age is None:
        return f"the record has no readable {entity.fresh_via}, so its age is unknown"
    if age > budget:
        return f"the value is {_duration(age)} old; the budget is {_duration(budget)}"
    return None


def _duration(seconds: float) -> str:
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{seconds / size:.0f} {unit}" if seconds % size == 0 else f"{seconds / size:.1f} {unit}"
    return f"{seconds:.0f} s"


def _judge(policy: Policy, item: _Planned, rows: dict, errors: dict, now: dt.datetime,
           ages: dict) -> ClaimResult:
    claim, entity, field = item.claim, item.entity, item.field
    entity_id = str(claim.entity_id)
    base = dict(key=claim.key, entity=entity.name, entity_id=entity_id, field=field.name,
                type=claim.type, claimed=claim.value, path=item.path,
                citation=f"{entity.name}:{entity_id}#{field.name}")
    if entity.name in errors:
        return ClaimResult(**base, outcome="not_checkable", reason_code="lookup_failed",
                           reason=f"the lookup failed: {errors[entity.name]}")
    row = rows[entity.name].get(entity_id)
    if row is None:
        return ClaimResult(**base, outcome="not_found", reason_code="no_row",
                           reason=f"no {entity.name} with {entity.key} {entity_id}")
    updated = jsonable(row.get(entity.fresh_via)) if entity.fresh_via else None
    base.update(updated_at=updated if updated is None else str(updated))
    if field.name not in row:   # the source has no such column: a schema fault, fail closed
        return ClaimResult(**base, outcome="not_checkable", reason_code="lookup_failed",
                           reason=f"the source returned no column for {field.name}")
    value = row[field.name]
    if value is None or (isinstance(value, str) and not value.strip()):
        return ClaimResult(**base, outcome="not_found", reason_code="null",
                           reason="no value is recorded")
    base.update(actual=jsonable(value))
    if _is_placeholder(field, value, row):
        return ClaimResult(**base, outcome="not_found", reason_code="placeholder",
                           reason=f"{value!r} means not recorded")
    stale = _staleness(entity, field, row, now, ages)
    if stale:
        return ClaimResult(**base, outcome="stale", reason_code="stale", reason=stale)
    if item.claim.type == "" and claim.value is None:     # slot form: code supplies the value
        try:
            format_value(field, value, policy.locale)
        except Unreadable as exc:
            return ClaimResult(**base, outcome="not_checkable", reason_code="unreadable",
                               reason=str(exc))
        return ClaimResult(**base, outcome="confirmed")
    result = compare(field.type, claim.type, claim.value, value, policy.locale)
    return ClaimResult(**base, outcome=result.outcome, claimed_normal=result.claimed,
                       actual_normal=result.actual, reason=result.reason,
                       reason_code=None if result.outcome == "confirmed" else result.outcome)


def _failure(result: ClaimResult) -> Failure:
    code = result.reason_code if result.reason_code in ("lookup_failed", "missing_input") else result.outcome
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


def _swept_prose(policy: Policy, template, rows: dict) -> list:
    """Sweep the text outside the slots (seed 000: render, then sweep). No number is licensed
    there: facts travel through slots. Only what the sweep lets pass without a fact gets
    through: small integers as ordinals and the like, and digits that keep the company they
    keep in the rows' names and codes (the "3" of "Model 3"), never "ships in 3 days"."""
    prose = " ".join(template.pieces[0::2])
    if not prose_rules.may_hold_figures(prose):
        return []
    from rulekit.audit import names_only_evidence
    from rulekit.sweep import SweepSettings, sweep

    settings = SweepSettings.from_policy(policy)
    return sweep(prose, names_only_evidence(rows, policy.locale), settings, locale=policy.locale)


def _shown(normal: Any) -> str:
    if isinstance(normal, dict) and "minor_units" in normal:
        return f"{normal['minor_units']} minor units of {normal['currency']}"
    if isinstance(normal, dict):
        return ", ".join(f"{k} {v}" for k, v in normal.items())
    return str(normal)


def _prose_failures(policy: Policy, reply: Reply, planned: list[_Planned],
                    rows: dict) -> list[Failure]:
    template = reply.template
    failures = []
    path = "$.answer_template" if reply.form == "claims" else "$.template"
    for finding in _swept_prose(policy, template, rows):
        failures.append(Failure("stray_figure", Reason(
            "stray_figure", f"{finding.text!r} written outside the slots: {finding.message}; "
            "every figure must come from a claim", path)))
    if policy.prose == "shapes":
        slot_fields = {p.claim.key: f"{p.claim.entity}.{p.claim.field}" for p in planned}
        if not prose_rules.matches_shapes(template, slot_fields, policy.shape_skeletons):
            names = ", ".join(s.name for s in policy.shapes)
            failures.append(Failure("unapproved_shape", Reason(
                "unapproved_shape", f"the template is not made of approved shapes ({names})",
                path)))
    elif policy.prose == "guarded":
        phrases = prose_rules.guarded_phrases(template.prose)
        if phrases:
            failures.append(Failure("unapproved_shape", Reason(
                "unapproved_shape", "the prose makes claims no slot backs: "
                + ", ".join(f"'{p}'" for p in dict.fromkeys(phrases)), path)))
    return failures


# --- deciding ---------------------------------------------------------------------------------

def _decide(policy: Policy, results: list[ClaimResult], failures: list[Failure],
            reply: Reply | None, attempt: int, rows: dict, now: dt.datetime) -> Decision:
    common = dict(ruleset=policy.ruleset, claims=tuple(results), attempt=attempt,
                  unsupported_claims=tuple(r.key for r in results if r.outcome != "confirmed"))
    if not failures:
        return _answer(policy, results, reply, rows, common)
    action, _ = choose(policy, failures, attempt)
    reasons = tuple(f.reason for f in failures)
    facts = _facts(policy, results, rows, with_true_values=action.kind == "regenerate" and action.with_values,
                   narrow=action.kind == "regenerate" and action.narrow)
    common.update(reasons=reasons, facts=facts)
    if action.kind == "regenerate":
        return Decision("regenerate", feedback=_feedback(policy, results, failures, action),
                        next_action="regenerate", **common)
    if action.kind == "fallback":
        rendered = _render_fallback(policy, action, results, rows, now)
        if rendered is not None:
            text, citations = rendered
            return Decision("fallback", text=text, citations=citations, **common)
        common["reasons"] = reasons + (Reason(
            "fallback_unavailable", f"the fallback '{action.fallback}' needs a value that did "
            "not verify, so rulekit refused instead"),)
        return Decision("refuse", message=_message(policy, DEFAULT_REFUSAL, results), **common)
    message = _message(policy, action.message, results) if action.message else None
    if action.kind == "ask":
        return Decision("ask", message=message, next_action=action.hint, **common)
    if action.kind == "handoff":
        return Decision("handoff", message=message, next_action="handoff", **common)
    return Decision("refuse", message=message, **common)


def _answer(policy: Policy, results: list[ClaimResult], reply: Reply, rows: dict,
            common: dict) -> Decision:
    """Every claim confirmed: fill each slot from the stored value, formatted by code."""
    values, citations = {}, []
    for result in results:
        entity = policy.entity(result.entity)
        field = entity.field(result.field)
        stored = rows[result.entity][result.entity_id][result.field]
        try:
            values[result.key] = format_value(field, stored, policy.locale, result.type or None)
        except Unreadable as exc:   # never render a guess
            reason = Reason("not_checkable", f"{result.key}: the stored value cannot be shown: {exc}",
                            result.path)
            return Decision("refuse", message=_message(policy, DEFAULT_REFUSAL, [result]),
                            reasons=(reason,), **common)
        citations.append({"slot": result.key, "ref": result.citation, "updated_at": result.updated_at})
    return Decision("answer", text=fill(reply.template.pieces, values), citations=tuple(citations),
                    **common)


def _facts(policy: Policy, results: list[ClaimResult], rows: dict, *, with_true_values: bool,
           narrow: bool) -> tuple[Fact, ...]:
    """Verified values for a regeneration prompt: confirmed ones always; the true value of a
    contradicted claim only when the rules allow showing it, and never with `narrow`."""
    facts = []
    for result in results:
        allowed = result.outcome == "confirmed" or (
            result.outcome == "contradicted" and with_true_values and not narrow)
        if not allowed:
            continue
        field = policy.entity(result.entity).field(result.field)
        stored = rows[result.entity][result.entity_id][result.field]
        facts.append(Fact(result.key, result.citation, jsonable(stored),
                          format_value(field, stored, policy.locale, result.type or None),
                          result.updated_at))
    return tuple(facts)


def _feedback(policy: Policy, results: list[ClaimResult], failures: list[Failure],
              action: Action) -> str:
    lines = []
    for result in results:
        if result.outcome == "confirmed":
            continue
        line = f"- {result.key}: you wrote {result.claimed!r}, which {_FEEDBACK.get(result.outcome, result.outcome)}"
        if result.outcome == "contradicted" and action.with_values:
            field = policy.entity(result.entity).field(result.field)
            try:
                line += f"; the record says {format_value(field, result.actual, policy.locale, result.type)}"
            except Unreadable:
                pass
        lines.append(line)
    for failure in failures:
        if failure.outcome in ("malformed_reply", "stray_figure", "unapproved_shape"):
            where = f" (at {failure.reason.path})" if failure.reason.path else ""
            lines.append(f"- {failure.reason.message}{where}")
    shown = lines[: action.naming or 8]
    more = len(lines) - len(shown)
    return ("Your last reply cannot be shown. Fix these items and use only the facts given:\n"
            + "\n".join(shown) + (f"\n- and {more} more" if more > 0 else ""))


def _message(policy: Policy, template: str, results: list[ClaimResult]) -> str:
    """A refusal that names exactly what could not be verified."""
    failed = [r for r in results if r.outcome != "confirmed"] or list(results)
    labels, entities, ids = [], [], []
    for result in failed:
        entity = policy.entity(result.entity)
        field = entity.field(result.field) if entity else None
        labels.append(field.label if field else result.field.replace("_", " "))
        entities.append(result.entity)
        ids.append(result.entity_id)
    values = {"fields": join_words(labels, policy.locale) or "answer",
              "entity": join_words(entities, policy.locale) or "record",
              "id": join_words(ids, policy.locale)}
    return fill(parse_template(template).pieces, values)


def _render_fallback(policy: Policy, action: Action, results: list[ClaimResult], rows: dict,
                     now: dt.datetime) -> tuple[str, tuple[dict, ...]] | None:
    """Text built by code from verified facts: every slot from a row that was found, fresh and
    not a placeholder. The entity's id is the one the reply was about; if the reply named
    several, the fallback cannot choose and refuses."""
    template = next(t for t in policy.fallbacks if t.name == action.fallback)
    ids_by_entity: dict[str, set[str]] = {}
    for result in results:
        if result.reason_code not in ("lookup_failed", "unknown_entity", "missing_input"):
            ids_by_entity.setdefault(result.entity, set()).add(result.entity_id)
    values, citations = {}, []
    for slot in template.slots:
        ids = ids_by_entity.get(slot.entity, set())
        if len(ids) != 1 or slot.entity not in rows:
            return None
        (entity_id,) = ids
        row = rows[slot.entity].get(entity_id)
        entity = policy.entity(slot.entity)
        field = entity.field(slot.field)
        value = None if row is None else row.get(slot.field)
        if value is None or _is_placeholder(field, value, row) or _staleness(entity, field, row, now):
            return None
        try:
            values[slot.name] = format_value(field, value, policy.locale)
        except Unreadable:
            return None
        citations.append({"slot": slot.name, "ref": f"{slot.entity}:{entity_id}#{slot.field}",
                          "updated_at": str(jsonable(row.get(entity.fresh_via))) if entity.fresh_via else None})
    return fill(template.pieces, values), tuple(citations)
