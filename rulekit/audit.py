"""Auditing free text: sweep it against the evidence, and decide.

    audit(text, evidence, policy=None, question=..., history=..., locale=..., slot_values=...)

Works with or without a ruleset. Without one, the built-in defaults apply: the sweep's rules as
documented in ``rulekit.sweep``, and for any finding: regenerate once naming up to 8 items, then
refuse. Under a ruleset that says ``prose shapes`` free text is refused unaudited: its answers
must be claims replies made of the approved shapes. ``inputs`` are what the user gave
(``{"postcode": "10115"}``): a row of an entity that ``requires postcode matching
delivery_postcode`` licenses its figures only when the postcode given is the row's; given and
not the row's, the row is as if absent; not given, its figures ask for it (``missing_input``,
the ruleset's ``on missing postcode``). See ``rulekit.entity_rows``. The question may be
quoted back as the user's own words but licenses nothing; the
history (earlier turns, the user's or the assistant's) is never evidence, so a forged earlier
turn cannot launder its numbers.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
from collections.abc import Callable, Mapping
from typing import Any, Sequence

from rulekit import dates
from rulekit.decision import Decision, Failure, Reason, attempt_problem, choose
from rulekit.evidence import Evidence, EvidenceError
from rulekit.log import Stages, record_decision
from rulekit.policy import OUTCOMES, Action, OutcomeAction, Policy
from rulekit.prose import GUARDED_ADVICE, with_guarded
from rulekit.render import fill_message
from rulekit.route import Gathered, sources_of
from rulekit.template import parse_template
from rulekit.bind import bind
from rulekit.scan.assemble import scan_words
from rulekit.scan.reader import surrogate_problem
from rulekit.sweep import IN_TEXT_ORDER, Finding, SweepSettings, sweep
from rulekit.sweep_codes import with_code_hyphens
from rulekit.sweep_flags import flag_findings, said_flags
from rulekit.sweep_free import free_findings, may_say_free
from rulekit.sweep_labels import label_findings

DEFAULT_REFUSAL = ("I couldn't find that number. Try asking another way, or open the full "
                   "report for the exact figures.")
# Under ``prose shapes`` an answer is made of approved sentence shapes whose slots code fills
# from verified claims; free text cannot be checked against them, so it is never audited.
PROSE_SHAPES_ONLY = ("the ruleset says `prose shapes`: an answer must be built from its "
                     "approved shapes in a claims reply (rulekit.check, or rulekit.ground with "
                     "source=...), and free text cannot be checked against them")


def default_policy() -> Policy:
    """The built-in rules: every outcome regenerates once naming up to 8 items, then refuses."""
    action = Action(kind="regenerate", max_attempts=1, naming=8,
                    then=Action(kind="refuse", message=DEFAULT_REFUSAL))
    return Policy(name="builtin", version="1", locale="en_US", currency=None, timezone="UTC",
                  sources_sha256="builtin", sources=(), prose="free",
                  actions=tuple(OutcomeAction(outcome=o, action=action) for o in OUTCOMES))


_DEFAULT = default_policy()


@dataclasses.dataclass(frozen=True)
class AuditResult:
    findings: tuple[Finding, ...]
    decision: Decision

    def to_dict(self) -> dict:
        return {"decision": self.decision.decision,
                "issues": [f.to_dict() for f in self.findings],
                "result": self.decision.to_dict()}


def audit(text: str, evidence: Any, *, policy: Policy | None = None, question: str | None = None,
          history: Sequence[Any] | None = None, locale: str | None = None,
          slot_values: Sequence[str] = (), attempt: int = 1,
          sources: Sequence[Mapping] | None = None, log: Any = None,
          now: dt.datetime | None = None,
          inputs: Mapping[str, str] | None = None) -> AuditResult:
    """Sweep ``text`` against ``evidence`` (a JSON object, a text document, or an ``Evidence``
    built once with ``SweepSettings.index``) and decide. Never raises on bad input: anything
    that cannot be audited is refused.

    ``evidence`` may be what ``rulekit.route.gather`` returned (the ``Gathered`` result, or
    its ``evidence``): its Sources panel then comes with it, so a routed source that failed
    fails the answer closed even when ``sources`` is not given.

    ``sources`` is the Sources panel of the evidence (``rulekit.route.gather(...).report()``):
    it is carried on the decision, and a source that failed fails the answer closed.

    ``log`` (a ``rulekit.log.DecisionLog``, a path or a callable) records the decision and its
    findings as one JSON line, with the time the sweep and the decision took; a log that fails
    never changes the result.

    ``now`` is when the evidence's entity rows are judged against their freshness budgets (the
    current time by default; an ``Evidence`` already built was judged when it was built): an
    aware datetime, or ISO 8601 text with its offset.

    ``inputs`` (input name -> what the user gave, both strings; only inputs the ruleset
    declares) open the rows of entities that ``requires`` them, as ``rulekit.entity_rows``
    says; bad inputs are refused as an ``input_error`` naming the input. An ``Evidence``
    already built was judged with the inputs it was built with (``index_given``), so inputs
    given beside it are refused too, rather than silently ignored; empty inputs are none."""
    stages = None if log is None else Stages()
    if sources is None:     # gathered evidence carries its panel, failures and all
        sources = sources_of(evidence)
    if isinstance(evidence, Gathered):
        evidence = evidence.evidence
    result = _audit(text, evidence, policy, question, locale, slot_values, attempt, sources or (),
                    stages, now, inputs)
    if sources:
        result = AuditResult(result.findings, dataclasses.replace(
            result.decision, sources=tuple(dict(s) for s in sources)))
    if stages is not None:
        stages.mark("decide")   # every path ends in deciding: the time since the last stage
        record_decision(log, result.decision, policy or _DEFAULT, kind="audit",
                        findings=result.findings, stages=stages.seconds_by_stage(),
                        data=evidence)  # never raises
    return result


def _audit(text: Any, evidence: Any, policy: Policy | None, question: Any, locale: Any,
           slot_values: Sequence[str], attempt: int, sources: Sequence[Mapping],
           stages: Stages | None = None, now: dt.datetime | None = None,
           inputs: Any = None) -> AuditResult:
    """``stages``, for a logged audit only, is told where indexing the evidence and the sweep
    end; the rest is deciding."""
    rules = policy or _DEFAULT
    where = locale or rules.locale
    if not isinstance(text, str):
        return _refused(rules, "input_error", f"the text must be a string, not {type(text).__name__}")
    if type(attempt) is not int or attempt < 1:     # an int counting from 1 pays one test
        return _refused(rules, "input_error", attempt_problem(attempt))
    if not text.isascii():      # the one test an ASCII answer pays
        problem = surrogate_problem(text, "text")
        if problem is not None:
            return _refused(rules, "input_error", problem)
    if not isinstance(where, str) or not known_locale(where):
        return _refused(rules, "input_error", f"unknown locale {where!r}; use one such as en_GB")
    if question is not None and not isinstance(question, str):
        return _refused(rules, "input_error", "the question must be a string")
    if not text.strip():
        return _refused(rules, "empty_answer", "the answer is empty: there is nothing to deliver")
    if rules.prose == "shapes":
        return _refused(rules, "unapproved_shape", PROSE_SHAPES_ONLY)
    if inputs is not None:
        problem = _inputs_problem(policy, inputs, evidence)
        if problem:
            return _refused(rules, "input_error", problem)
    if now is not None:
        try:
            now = dates.moment(now)
        except (TypeError, ValueError) as exc:
            return _refused(rules, "input_error", str(exc))
    try:
        settings, evidence = _settings_for(policy, evidence, inputs)
        index = settings.index(evidence, where, now=now)
        # a code's typographic dash read as "-" ("ORD\u20110012"): same length, same spans
        read = text if text.isascii() else with_code_hyphens(text)
        # read once, judged by binding and then by the sweep, which is handed the words of a-z
        # the scan could tell it
        mentions, words = scan_words(read, where)
        bound = bind(read, index.raw, policy, locale=where, index=index, mentions=mentions)
        if stages is not None:
            stages.mark("index")
        swept = sweep(read, index, settings, locale=where, question=question,
                      slot_values=slot_values, settled=bound.settled, mentions=mentions,
                      given=tuple(str(value) for value in inputs.values()) if inputs else (),
                      words=words)
        findings = tuple(sorted(bound.findings + tuple(swept), key=IN_TEXT_ORDER)
                         ) if bound.findings else tuple(swept)    # the sweep's are in order
        if policy is not None and policy.enum_labels:   # rule 13 (rulekit.sweep_labels)
            labelled = label_findings(read, policy, index, mentions, findings)
            if labelled:
                findings = tuple(sorted(findings + tuple(labelled), key=IN_TEXT_ORDER))
        if index.flags:     # rule 14: booleans said in words (rulekit.sweep_flags)
            flagged = flag_findings(read, index.flags, mentions, findings)
            if flagged:
                findings = tuple(sorted(findings + tuple(flagged), key=IN_TEXT_ORDER))
        if may_say_free(text.casefold()):  # rule 15: "free" of a price (rulekit.sweep_free)
            freed = free_findings(read, index, _free_covered(read, index, mentions, findings))
            if freed:
                findings = tuple(sorted(findings + tuple(freed), key=IN_TEXT_ORDER))
        if rules.prose == "guarded":    # what `prose guarded` forbids (rulekit.prose)
            findings = with_guarded(read, findings, mentions, index, question, slot_values,
                                    rules.forbidden_pattern,
                                    [(b.start, b.end) for b in bound.bound])
        if read is not text:
            findings = as_written(findings, read, text)
        if stages is not None:
            stages.mark("sweep")
    except RecursionError:
        return _refused(rules, "input_error", "the evidence is nested too deeply")
    except EvidenceError as exc:
        return _refused(rules, "input_error", str(exc))
    except Exception as exc:  # fail closed: nothing unaudited is ever delivered
        return _refused(rules, "input_error", f"the input cannot be audited: "
                        f"{exc.__class__.__name__}: {str(exc)[:200]}")
    failed = [s for s in sources if isinstance(s, Mapping) and s.get("error")]
    return AuditResult(findings, decide(rules, text, findings, attempt, failed))


def as_written(findings: Sequence[Finding], read: str, text: str) -> tuple[Finding, ...]:
    """``findings`` of ``read``, ``text`` with its codes' dashes as "-" (``with_code_hyphens``:
    the same length), each that quotes its span quoting it as ``text`` writes it."""
    return tuple(dataclasses.replace(f, text=text[f.start:f.end])
                 if read[f.start:f.end] == f.text != text[f.start:f.end] else f
                 for f in findings)


def _inputs_problem(policy: Policy | None, inputs: Any, evidence: Any) -> str | None:
    """What is wrong with ``inputs`` given beside ``evidence`` (see ``audit``), or None."""
    from rulekit.entity_rows import check_inputs

    problem = check_inputs(policy, inputs)
    if problem is None and inputs and isinstance(evidence, Evidence):
        problem = ("inputs were given with evidence already indexed, which was judged without "
                   "them; pass the evidence itself, or index it with "
                   "rulekit.entity_rows.index_given(policy, evidence, inputs)")
    return problem


def _settings_for(policy: Policy | None, evidence: Any, inputs: Mapping[str, str] | None
                  ) -> tuple[SweepSettings, Any]:
    """The sweep's settings and the evidence to index for a user who gave ``inputs``
    (checked): the rows an input given does not match are dropped, and the others' inputs
    given are met (``rulekit.entity_rows.given``). Without inputs, the policy's own."""
    if not inputs or policy is None or isinstance(evidence, Evidence):
        return SweepSettings.from_policy(policy), evidence
    from rulekit.entity_rows import given

    opened = given(policy, evidence, inputs)
    return opened.settings(policy), opened.audited


def known_locale(name: str) -> bool:
    """Whether babel knows ``name``. Parsing a locale costs more than a short audit, and a
    service audits with a handful of locales, so answers are cached; a name no locale is that
    long (it comes from the caller's input) is not worth a cache entry."""
    if not isinstance(name, str) or len(name) > 64:
        return _parses_as_locale(name)
    return _known_locale_cached(name)


@functools.lru_cache(maxsize=256)
def _known_locale_cached(name: str) -> bool:
    return _parses_as_locale(name)


def _parses_as_locale(name: Any) -> bool:
    from babel import Locale, UnknownLocaleError

    try:
        Locale.parse(name)
        return True
    except (UnknownLocaleError, ValueError, TypeError):
        return False


def names_only_evidence(rows: dict, locale: str) -> Evidence:
    """Evidence from looked-up rows that licenses names and codes, never a number nor a day:
    the prose of a claims reply may say "Model 3" but not "3 days", nor "December 7" (a date
    a source returns as a string, as SQLite does, is a fact like any other: it travels through
    a slot, as a date a source returns as a date does)."""
    text_only = {entity: [{k: v for k, v in row.items() if isinstance(v, str)}
                          for row in found.values()] for entity, found in rows.items()}
    index = Evidence.build(text_only, locale=locale)
    return dataclasses.replace(index, figures=(), values=frozenset(), percents=frozenset(),
                               counts=frozenset(), largest_count=0, multiples=frozenset(),
                               days=frozenset(), stated_days=frozenset(), withheld_days={},
                               months=frozenset(), years=frozenset(), clock=frozenset(),
                               utc_clock=frozenset(), offset_clock=frozenset(),
                               zoned_clock=frozenset())


# The outcome (and so the ruleset's action) of a finding: a figure of the wrong entity or field,
# one from a record past its freshness budget, one from a field the rules do not let be shown,
# a phrase `prose guarded` forbids; any other unsupported figure is a stray one.
_OUTCOME_OF_CODE = {"misattributed": "misattributed", "stale": "stale",
                    "hidden_field": "not_checkable", "missing_input": "missing_input",
                    "unapproved_shape": "unapproved_shape", "contradicted": "contradicted"}


def decide(policy: Policy, text: str, findings: Sequence[Finding], attempt: int,
           failed_sources: Sequence[Mapping] = ()) -> Decision:
    """The decision for an audited text. A routed source that failed leaves the evidence
    incomplete, so it fails the answer closed with the ruleset's ``lookup_failed`` action even
    when every figure found support in what did arrive."""
    if not findings and not failed_sources:
        return Decision("answer", ruleset=policy.ruleset, text=text, attempt=attempt)
    failures = [Failure("lookup_failed", Reason("lookup_failed", f"source {s.get('name')!r} "
                                                 f"failed: {s.get('error')}", None))
                for s in failed_sources]
    failures += [Failure(_OUTCOME_OF_CODE.get(f.code, "stray_figure"),
                         Reason(f.code, f"{f.text!r}: {f.message}", f"text[{f.start}:{f.end}]"),
                         f.input)   # a missing_input's: the ruleset's ``on missing INPUT``
                 for f in findings]
    return decision_for(policy, failures, attempt,
                        feedback=lambda action: feedback(findings, action.naming or 8),
                        unsupported_claims=tuple(dict.fromkeys(f.text for f in findings)))


# A fallback is built from verified claims; free text has none, so it refuses.
_NO_FALLBACK = "free text has no verified facts to build the fallback from, so rulekit refused"


def decision_for(policy: Policy, failures: Sequence[Failure], attempt: int, *,
                 feedback: str | Callable[[Action], str] | None = None,
                 refusal: Callable[[str | None], str | None] | None = None,
                 named: Callable[[str | None], str | None] | None = None,
                 no_fallback: str = _NO_FALLBACK, recorded: int | None = None,
                 **fields: Any) -> Decision:
    """The decision of the ruleset's action for ``failures`` at ``attempt`` (``choose``) when
    nothing verified backs the reply: free text (``decide``), a streamed reply cut short
    (``rulekit.stream``), a reply ``rulekit.ground`` cannot judge at all.

    - regenerate: with ``feedback`` for the model (``feedback(action)`` when it is callable);
    - ask and handoff: with the action's message, made by ``named`` when given;
    - fallback: refused, as a fallback is built from verified facts, with a
      ``fallback_unavailable`` reason saying ``no_fallback`` and ``refusal`` of the ruleset's
      own words for a reply that cites no row, its ``on not_found`` refusal (None without
      one), as the claims channel refuses a fallback it cannot build;
    - refuse: with ``refusal(action.message)``; by default ``free_text_refusal``: the
      message (or the built-in sentence) with its placeholders read as free text's:
      "figures", "data".

    The decision is recorded at ``recorded`` when given (a final action chosen past every
    attempt, for a reply that came earlier), and carries ``fields`` as given
    (``unsupported_claims``)."""
    action, _ = choose(policy, failures, attempt)
    common: dict[str, Any] = dict(ruleset=policy.ruleset, reasons=tuple(f.reason for f in failures),
                                  attempt=attempt if recorded is None else recorded, **fields)
    refusal = refusal or functools.partial(free_text_refusal, policy)
    named = named or free_text_message
    if action.kind == "regenerate":
        return Decision("regenerate", feedback=feedback(action) if callable(feedback)
                        else feedback, next_action="regenerate", **common)
    if action.kind in ("ask", "handoff"):
        return Decision(action.kind, message=named(action.message),
                        next_action=action.hint if action.kind == "ask" else "handoff",
                        **common)
    if action.kind == "fallback":
        # Refused in the ruleset's own words for a fallback with no row to build it from, as
        # the claims channel refuses one whose reply cites none: its `on not_found` refusal.
        from rulekit.check import _refusal_for

        words = _refusal_for(policy, "not_found")
        common["reasons"] += (Reason("fallback_unavailable", no_fallback + (
            ", with the `on not_found` message" if words else "")),)
        return Decision("refuse", message=refusal(words), **common)
    return Decision("refuse", message=refusal(action.message), **common)


def free_text_refusal(policy: Policy, message: str | None) -> str | None:
    """A refusal with nothing verified to name: ``message`` (the ruleset's) read as free
    text's (``free_text_message``); without one, the built-in rules' ``DEFAULT_REFUSAL`` under
    them, and under a ruleset rulekit's neutral sentence (``rulekit.check.DEFAULT_REFUSAL``,
    the claims channel's), which promises no report the product may not have."""
    if message is None:
        from rulekit.check import DEFAULT_REFUSAL as NEUTRAL

        message = DEFAULT_REFUSAL if _built_in(policy) else NEUTRAL
    return free_text_message(message)


def _built_in(policy: Policy) -> bool:
    """Whether ``policy`` is the built-in rules (``default_policy``), its actions changed or
    not."""
    return policy.sources_sha256 == _DEFAULT.sources_sha256 and policy.name == _DEFAULT.name


# Free text verifies nothing a message could name: its fields are "figures", its entity "data",
# and no id may be repeated (the model's would be unverified). In brackets, a placeholder is an
# aside that names what the words before it say in general ("Some of your figures ({fields})"):
# free text has nothing to add there, and the aside is left out (``_ASIDE``, filled with "").
_FREE_TEXT_NAMES = {"fields": "figures", "entity": "data", "id": ""}
_ASIDE = ""


def free_text_message(template: str | None) -> str | None:
    """A ruleset's refuse, ask or handoff message for a reply with nothing verified to name:
    ``{fields}`` says "figures", ``{entity}`` "data", and ``{id}`` is left out with the space or
    brackets around it ("for data, so"), never filled with the model's words. Any of them in
    brackets is left out with its brackets: "Some of your figures ({fields}) are" reads "Some
    of your figures are", not "Some of your figures (figures) are"."""
    if template is None:
        return None
    pieces = list(parse_template(template).pieces)
    for at in range(1, len(pieces), 2):
        if pieces[at - 1][-1:] in ("(", "[") and pieces[at + 1][:1] in (")", "]"):
            pieces[at] = _ASIDE
    return fill_message(pieces, {**_FREE_TEXT_NAMES, _ASIDE: ""})


def feedback(findings: Sequence[Finding], naming: int) -> str:
    """Seed 001's retry message: the items, then what to do instead. An item the data holds
    but the answer said wrongly (on another tax basis, in another unit, on another scale) is
    then named with why, so the model changes the words around it, not the figure."""
    items = list(dict.fromkeys(f.text for f in findings))
    shown = ", ".join(items[:naming]) + (f" and {len(items) - naming} more" if len(items) > naming else "")
    phrases = sum(f.kind == "phrase" for f in findings)     # `prose guarded` (rulekit.prose)
    if phrases == len(findings):
        return (f"These words from your last answer make claims the data cannot back: {shown}. "
                f"Say only what the data states: {GUARDED_ADVICE}.")
    named = set(items[:naming])
    why = list(dict.fromkeys(f"{f.text}: {f.message}" for f in findings
                             if f.text in named and _explains(f)))
    return (f"These items from your last answer are not in the data"
            f"{' or make claims it cannot back' if phrases else ''}: {shown}. Use only numbers, "
            "quotes, handles and links that appear in the data exactly; do not compute, round "
            f"or convert them; {GUARDED_ADVICE + '; ' if phrases else ''}say you could not find "
            "anything else." + ("".join(f"\n- {line}" for line in why) if why else ""))


def _explains(finding: Finding) -> bool:
    """Whether a finding's message says more than that its item is not in the data
    (``Finding.absent``): a figure the data holds, said on another tax basis, in another unit
    or on another scale, or withheld by a rule."""
    return not finding.absent and finding.kind != "phrase"


def _free_covered(text: str, index, mentions, findings) -> list[tuple[int, int]]:
    """What rule 15 leaves alone: the words of a finding, a quote or a link, and the words
    of a boolean field said in the text ("free returns" is rule 14's)."""
    covered = [(f.start, f.end) for f in findings] + [
        (m.start, m.end) for m in mentions if m.kind in ("quote", "url", "email", "handle")]
    if index.flags:
        covered += [(s.start, s.end) for s in said_flags(text, (f.reading for f in index.flags))]
    return covered


def _refused(policy: Policy, code: str, message: str) -> AuditResult:
    """Input that cannot be audited is refused, with an input-error issue: it fails closed."""
    decision = Decision("refuse", ruleset=policy.ruleset, message=free_text_refusal(policy, None),
                        reasons=(Reason(code, message, None),))
    return AuditResult((Finding("input", "", None, 0, 0, code, message),), decision)


def refused(policy: Policy | None, message: str) -> AuditResult:
    """An input error as an audit result (a malformed line of a batch, say)."""
    return _refused(policy or _DEFAULT, "input_error", message)


__all__ = ["AuditResult", "Evidence", "audit", "decide", "decision_for", "default_policy",
           "feedback", "names_only_evidence", "refused"]


# ``rulekit.audit(...)`` works even after this module was imported as ``rulekit.audit``.
from rulekit import _callable_module  # noqa: E402

_callable_module(__name__, audit)
