"""The grounding loop: ask the model, check its reply, and ask again only as the rules allow.

    ground(generate, policy, source=rows)            # claims channel, checked with ``check``
    ground(generate, policy, evidence=data)          # prose channel, swept with ``audit``

``generate`` is any callable that takes a ``GenerateRequest`` and returns the model's reply, a
``str`` or a ``Generation`` (the text with the tokens and cost it used).
``rulekit.adapters.openai.OpenAIChat`` is one, for any OpenAI-compatible endpoint.

What the loop owns, and what it leaves to the checker:

- **The checker decides.** Every reply is judged by ``check`` (claims) or ``audit`` (prose),
  and the loop acts on the decision: an ``answer``, ``fallback``, ``refuse``, ``ask`` or
  ``handoff`` is returned as it is; a ``regenerate`` calls ``generate`` once more with the
  decision's feedback (which names the wrong items, with the true values where the rules say
  ``with values``) and its verified facts. The attempt number is passed to the checker, so the
  ruleset's ``regenerate max N ... then X`` ends the loop by itself: once the attempts are used
  up, the checker returns ``X``. The loop never re-implements that table.
- **Budgets end it early.** ``max_attempts``, a wall-clock ``deadline`` (seconds from the
  call, on the monotonic clock; what it bounds is below), and ``max_tokens`` / ``max_cost`` as
  reported by ``generate``.
  When one runs out while the last reply still needed regenerating, the last reply is judged
  once more as a final attempt, so that the checker applies the declared ``then`` action (a
  fallback built by code from verified facts, a refusal, ...). An unchecked reply is never
  returned.
- **A failed generation fails closed.** When ``generate`` raises, times out, or returns
  something that is not a reply, and an earlier reply exists, that reply is judged as the final
  attempt, as above. With no reply at all, the ruleset's ``on malformed_reply`` rule supplies
  the final action: a model that gave no usable reply is the closest thing to a malformed one,
  and ``on lookup_failed`` is about the system of record (its messages say "our catalogue is not
  answering"). A failed call is not retried here: the adapter owns transport retries (it alone
  knows which errors are transient), and a failure says nothing feedback could fix. A reply
  ``generate`` reports as cut off (``Generation.finish_reason`` "length", "content_filter",
  or another provider's words for them: "max_tokens", "MAX_TOKENS", "SAFETY", ...; or a reason
  rulekit does not know as the end of a whole reply: ``rulekit.stream.cut_off``) is never
  judged as an answer: it takes the ``on malformed_reply`` action like an empty one.

Channels. With ``source`` (a resolver, a ``sqlite:///`` URL, a rows dict...) the reply is a
claims reply checked with ``check``, which also sweeps its prose. With ``evidence`` and no
``source``, the reply is free prose audited against the evidence. With both, the claims
channel is used: ``evidence`` is then only what the model is shown, and licenses nothing; the
facts are judged against ``source`` alone. With neither, ``ground`` raises ``ValueError``; so
it does for the prose channel under a ruleset that says ``prose shapes`` (free prose cannot be
checked against approved shapes: use the claims channel).

The ruleset's inputs hold in both channels. A row of an entity that ``requires postcode
matching delivery_postcode`` goes with the ``inputs`` only when the postcode was given and is
the row's; any other such row is dropped from ``evidence`` before the model sees it
(``rulekit.entity_rows.given``), as the claims channel drops it from a lookup, and licenses
nothing. In the prose channel, evidence holding such a row when the input was not given at
all gets the ruleset's ``on missing postcode`` action (ask for it) before any model call.

``history`` (earlier turns) is handed to the model as context and is never evidence: a number
that appears only in an earlier turn is not licensed by it.

The model sees the evidence as ``rulekit.prompt.evidence_block`` renders it (hidden fields,
and a row's figures past their freshness budget at ``now``, dropped, money in major units,
third-party text labelled, a fenced block nothing inside can close), rendered once per call;
evidence it cannot render fails closed before any model call.

``narrow``. In the claims channel, when the regenerate rule says ``narrow``, the next request
carries only the facts that verified, and no ``evidence``. In the prose channel the evidence is
the data code computed for the answer, not the model's claims; withholding it would only
guarantee a refusal, so it is kept.

The loop is pure apart from calling ``generate`` and the source: no globals, nothing kept
between calls, so one ``generate`` and one policy serve many threads.

What the ``deadline`` bounds, as well as it can in one thread:

- it is checked before every call to ``generate``, and each call runs in a daemon thread that
  the loop stops waiting for at the deadline (a cooperative adapter stops itself earlier:
  ``GenerateRequest.time_left``);
- each lookup of a judgement is given no more than the time left (``LookupRequest.timeout``;
  the SQL resolvers stop there). A resolver that ignores its timeout cannot be interrupted: the
  loop waits for it, and what it returns past its budget is refused (``lookup_failed``). A
  judgement that ends past the deadline ends the loop: no further call to ``generate``, and a
  decision that delivers nothing carries a ``deadline_exceeded`` reason;
- a reply longer than ``MAX_REPLY_CHARS`` (1,000,000 characters, the cap of a claims reply
  and of the CLI's text) is not swept: it is a ``malformed_reply``. Sweeping a reply within the
  cap is not interrupted, and a verified answer is delivered even if judging it ran late;
- the final judgement after a budget runs out may take up to one lookup ``timeout`` beyond the
  deadline, as a fallback needs the rows; in the prose channel it reuses the reply's findings
  instead of sweeping it again.

``ground`` raises only for a misuse that no reply could cure (no channel, a budget that is
not a positive number, ``generate`` not callable). Everything at run time becomes a decision.
"""

from __future__ import annotations

import contextvars
import dataclasses
import datetime as dt
import json
import math
import threading
import time
import warnings
from typing import Any, Callable, Mapping, NamedTuple, Sequence

from rulekit.decision import Decision, Fact, Failure, Reason, resolve
from rulekit.log import DecisionLog, as_log
from rulekit.policy import OUTCOMES, Action, Policy
from rulekit.reply import MAX_REPLY_CHARS

__all__ = ["Attempt", "GenerateRequest", "GenerateTimeout", "Generation", "Grounded", "ground"]

# How much of a failed generation's error message is kept in a decision or a log line.
_ERROR_CHARS = 300
# The budget of a lookup made when the deadline has (all but) passed: it fails closed at once.
_LEAST_TIMEOUT = 0.001


# --- what ``generate`` gets and gives ---------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class GenerateRequest:
    """Everything the model is given for one attempt. Frozen, so a ``generate`` that keeps it
    (in a log, a cache) cannot change what the loop does next.

    - ``question``: the user's words. ``history``: earlier turns, as ``{"role", "content"}``
      mappings or plain strings (user turns). Context only: never evidence.
    - ``evidence``: the data the model may use, as the caller gave it (a JSON-able object or a
      text) less the rows the user's inputs do not open; ``None`` when narrowed or not given.
      It is code's view (hidden fields, money in minor units, third-party text unlabelled):
      never put it in a prompt as it is. ``evidence_block``: the same, as the fenced
      data block ``rulekit.prompt.evidence_block`` builds (hidden fields dropped, money in
      major units, third-party text labelled, nothing inside able to close the block): what an
      adapter should put in the prompt.
    - ``facts``: verified facts from the previous check (confirmed claims, and true values of
      wrong ones where the rules say ``with values``); empty on the first attempt.
      ``facts_block``: the same as a fenced ``<facts>`` block.
    - ``feedback``: what was wrong with the previous reply, for the model; ``None`` on the
      first attempt. ``previous_reply``: that reply's text.
    - ``attempt``: 1 for the first call, 2 for the first regeneration, ...
    - ``channel``: ``"claims"`` (answer with a JSON claims reply) or ``"prose"`` (free text).
    - ``schema`` / ``schema_name``: the JSON schema a claims reply must follow, for structured
      output, when one is available (``rulekit.schema``); ``None`` in the prose channel.
    - ``shapes``: the ruleset's approved sentence shapes, which a ``prose shapes`` template must
      be made of. ``locale``: the ruleset's locale.
    - ``narrowed``: True when ``evidence`` was withheld by a ``narrow`` rule.
    - ``time_left``: seconds until the deadline, or ``None`` without one. An adapter should not
      wait longer than this (the loop stops waiting for it then anyway).
    """
    question: str | None
    history: tuple[Any, ...]
    evidence: Any
    facts: tuple[Fact, ...]
    feedback: str | None
    attempt: int
    channel: str
    schema: Mapping[str, Any] | None = None
    schema_name: str | None = None
    shapes: tuple[str, ...] = ()
    locale: str | None = None
    previous_reply: str | None = None
    narrowed: bool = False
    time_left: float | None = None
    evidence_block: str | None = None
    facts_block: str | None = None

    def evidence_text(self) -> str | None:
        """The evidence as the model should read it: the fenced block when there is one, else
        JSON for data and a text as it is."""
        if self.evidence_block is not None or self.evidence is None:
            return self.evidence_block
        if isinstance(self.evidence, str):
            return self.evidence
        return json.dumps(self.evidence, ensure_ascii=False, default=str)


@dataclasses.dataclass(frozen=True)
class Generation:
    """A reply with what it cost, as ``generate`` reports it. ``tokens`` and ``cost`` are
    ``None`` when unknown; a budget on an unknown quantity stops the loop (fail closed).
    ``finish_reason`` is why the model stopped, as the API says it: "stop", "end_turn" and the
    like say the reply is whole; "length" (the token limit), "content_filter", another
    provider's words for them ("max_tokens", "MAX_TOKENS", "SAFETY", ...) or a reason rulekit
    does not know mean it may be cut off, and it is judged as malformed, never answered ("got
    2" may be 2,380 cut short). ``None`` says nothing and is judged as whole."""
    text: str
    tokens: int | None = None
    cost: float | None = None
    finish_reason: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.text, str):
            raise TypeError(f"Generation.text must be a str, not {type(self.text).__name__}")
        if self.tokens is not None and (isinstance(self.tokens, bool)
                                        or not isinstance(self.tokens, int) or self.tokens < 0):
            raise ValueError(f"Generation.tokens must be a count of 0 or more, not {self.tokens!r}")
        if self.cost is not None and (isinstance(self.cost, bool)
                                      or not isinstance(self.cost, (int, float))
                                      or not math.isfinite(self.cost) or self.cost < 0):
            raise ValueError(f"Generation.cost must be a finite number of 0 or more, "
                             f"not {self.cost!r}")
        if self.finish_reason is not None and not isinstance(self.finish_reason, str):
            raise TypeError(f"Generation.finish_reason must be a str or None, "
                            f"not {type(self.finish_reason).__name__}")


class GenerateTimeout(TimeoutError):
    """``generate`` did not return before the deadline. Adapters raise it (or a subclass) for
    their own time-outs too; ``ground`` turns it into a fail-closed decision."""


# --- what ``ground`` returns ------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Attempt:
    """One call to ``generate`` and the judgement of its reply.

    ``reply`` is ``None`` when the call failed (``error`` says why); ``decision`` is then
    ``None`` too. ``findings`` are the sweep's findings in the prose channel (the claims
    channel's per-claim results are in ``decision.claims``). Times are in seconds."""
    number: int
    reply: str | None
    decision: Decision | None
    findings: tuple = ()
    generate_seconds: float = 0.0
    check_seconds: float = 0.0
    tokens: int | None = None
    cost: float | None = None
    error: str | None = None

    def to_dict(self) -> dict:
        return {"number": self.number, "reply": self.reply,
                "decision": None if self.decision is None else self.decision.to_dict(),
                "findings": [f.to_dict() for f in self.findings],
                "generate_seconds": round(self.generate_seconds, 6),
                "check_seconds": round(self.check_seconds, 6),
                "tokens": self.tokens, "cost": self.cost, "error": self.error}


@dataclasses.dataclass(frozen=True)
class Grounded:
    """The loop's outcome: the final ``decision`` (what the customer gets) and every attempt.

    ``stopped`` names the budget or failure that ended the loop early (``deadline_exceeded``,
    ``attempts_exhausted``, ``token_budget_exhausted``, ``cost_budget_exhausted``,
    ``generate_failed``), or is ``None`` when the checker's decision ended it."""
    decision: Decision
    attempts: tuple[Attempt, ...]
    stopped: str | None = None

    @property
    def delivered(self) -> bool:
        return self.decision.delivered

    @property
    def tokens(self) -> int | None:
        """Tokens used by the attempts that produced a reply, or None when any of them did not
        report its tokens (a failed call reports nothing)."""
        return _total(a.tokens for a in self.attempts if a.reply is not None)

    @property
    def cost(self) -> float | None:
        """Cost of the attempts that produced a reply, or None when any of them did not report
        it."""
        return _total(a.cost for a in self.attempts if a.reply is not None)

    def to_dict(self) -> dict:
        """JSON-safe, for the decision log."""
        return {"decision": self.decision.to_dict(), "stopped": self.stopped,
                "tokens": self.tokens, "cost": self.cost,
                "attempts": [a.to_dict() for a in self.attempts]}


def _total(values) -> Any:
    values = list(values)
    if not values or any(v is None for v in values):
        return None
    return sum(values)


# --- the loop ---------------------------------------------------------------------------------

Generate = Callable[[GenerateRequest], "str | Generation"]


def ground(generate: Generate, policy: Policy | None, *, source: Any = None,
           evidence: Any = None, question: str | None = None, history: Sequence[Any] = (),
           now: dt.datetime | None = None, tenant: str | None = None,
           inputs: Mapping[str, str] | None = None, locale: str | None = None,
           max_attempts: int | None = None, deadline: float | None = None,
           max_tokens: int | None = None, max_cost: float | None = None,
           timeout: float = 2.0, log: Any = None) -> Grounded:
    """Ask ``generate`` for a reply, check it, and regenerate as the ruleset allows, within the
    budgets. Returns the final decision and every attempt; see the module's docstring.

    ``now``, ``tenant``, ``inputs`` and ``timeout`` go to ``check`` (claims channel); ``locale``
    to ``audit`` (prose channel; default the ruleset's). ``max_attempts`` caps the calls to
    ``generate`` below what the ruleset allows (default: the ruleset's own limit).
    ``deadline`` is in seconds from now. ``policy`` may be ``None`` in the prose channel only,
    for ``audit``'s built-in rules.

    ``log`` (a ``rulekit.log.DecisionLog``, a path or a callable) gets one line per judged
    reply, from ``check`` or ``audit`` with their stage timings; a reply judged a second time
    after a budget ran out is marked ``"rejudged": true`` with the budget as ``"stopped"``
    (``rulekit stats`` counts its action but not its claims again), and a final decision made
    without judging a reply (no reply, an unusable source) is a line of kind ``ground``. A path
    is opened once for the whole loop. Logging never changes a decision."""
    channel = _channel(policy, source, evidence)
    if not callable(generate):
        raise TypeError(f"generate must be a callable taking a GenerateRequest, "
                        f"not {type(generate).__name__}")
    _positive("max_attempts", max_attempts, integer=True)
    _positive("deadline", deadline)
    _positive("max_tokens", max_tokens, integer=True)
    _positive("max_cost", max_cost)
    _positive("timeout", timeout)
    if isinstance(history, (str, bytes)) or not isinstance(history, Sequence):
        raise TypeError("history must be a sequence of turns ({'role', 'content'} mappings or "
                        f"strings), not {type(history).__name__}")
    loop = _Loop(generate=generate, policy=policy, channel=channel, source=source,
                 evidence=evidence, question=question, history=tuple(history), now=now,
                 tenant=tenant, inputs=inputs, locale=locale, max_attempts=max_attempts,
                 max_tokens=max_tokens, max_cost=max_cost, timeout=timeout,
                 ends_at=None if deadline is None else time.monotonic() + deadline,
                 deadline=deadline, log=_open_log(log))
    try:
        return loop.run()
    except Exception as exc:  # a bug here must not deliver anything: fail closed
        reason = Reason("internal_error", f"the grounding loop could not complete: "
                        f"{_describe(exc)}")
        return Grounded(loop.noted(loop.without_reply(reason)), tuple(loop.attempts),
                        "internal_error")
    finally:
        if loop.log is not None and not isinstance(log, DecisionLog):
            loop.log.close()    # made here from a path or a callable: ours to close


def _open_log(target: Any) -> DecisionLog | None:
    """The loop's decision log, opened once for every attempt; None without one, or when it
    cannot be opened (a warning says so: logging never stops an answer)."""
    if target is None:
        return None
    try:
        return as_log(target)[0]
    except Exception as exc:
        try:
            warnings.warn(f"rulekit: the decision log {target!r} cannot be used, so this "
                          f"conversation is not logged: {_describe(exc)}", RuntimeWarning,
                          stacklevel=3)
        except Exception:
            pass
        return None


def _channel(policy: Policy | None, source: Any, evidence: Any) -> str:
    if source is not None:
        if not isinstance(policy, Policy):
            raise TypeError("the claims channel (source=...) needs a compiled Policy: "
                            "rulekit.load('rules/x.rules') or rulekit.load_compiled(...)")
        return "claims"
    if evidence is not None:
        if policy is not None and not isinstance(policy, Policy):
            raise TypeError(f"policy must be a Policy or None, not {type(policy).__name__}")
        if policy is not None and policy.prose == "shapes":
            raise ValueError(f"ruleset {policy.name!r} says `prose shapes`: its answers are made "
                             "of approved sentence shapes filled from verified claims, which free "
                             "prose cannot be checked against; ground it in the claims channel "
                             "(source=... with the system of record)")
        return "prose"
    raise ValueError("ground needs a channel: source=... (a resolver, a sqlite:/// URL or rows) "
                     "to check a claims reply, or evidence=... (the data the model is given) "
                     "to audit a free-text reply")


def _positive(name: str, value: Any, *, integer: bool = False) -> None:
    if value is None:
        return
    kinds = (int,) if integer else (int, float)
    if isinstance(value, bool) or not isinstance(value, kinds) or not value > 0 \
            or (not integer and not math.isfinite(value)):
        kind = "a positive integer" if integer else "a positive number of seconds" \
            if name in ("deadline", "timeout") else "a positive number"
        raise ValueError(f"{name} must be {kind} or None, not {value!r}")


def _describe(exc: BaseException) -> str:
    text = str(exc)
    return (f"{exc.__class__.__name__}: {text}" if text else exc.__class__.__name__)[:_ERROR_CHARS]


def _final_attempt(policy: Policy) -> int:
    """An attempt number past every ``regenerate max N`` of the ruleset: judged at it, a reply
    gets each rule's final (``then``) action."""
    def deepest(action: Action | None) -> int:
        if action is None or action.kind != "regenerate":
            return 0
        return max(action.max_attempts or 0, deepest(action.then))

    rules = [rule.action for rule in policy.actions] + [rule.action for rule in policy.missing]
    return 1 + max((deepest(action) for action in rules), default=0)


class _Judged(NamedTuple):
    """A reply the checker judged, at attempt ``number``, with its findings (prose channel)
    and why it is incomplete, if it is (``_cut_off``)."""
    text: str
    number: int
    findings: tuple
    cut: str | None = None


@dataclasses.dataclass
class _Loop:
    """The state of one ``ground`` call. Never shared between calls."""
    generate: Generate
    policy: Policy | None
    channel: str
    source: Any
    evidence: Any
    question: str | None
    history: tuple
    now: dt.datetime | None
    tenant: str | None
    inputs: Mapping[str, str] | None
    locale: str | None
    max_attempts: int | None
    max_tokens: int | None
    max_cost: float | None
    timeout: float
    ends_at: float | None
    deadline: float | None
    log: DecisionLog | None = None
    attempts: list[Attempt] = dataclasses.field(default_factory=list)

    def __post_init__(self) -> None:
        if self.policy is None:
            from rulekit.audit import default_policy
            self.rules = default_policy()
        else:
            self.rules = self.policy
        self.final = _final_attempt(self.rules)
        self.schema: Mapping | None = None
        self.schema_name: str | None = None
        self.evidence_block: str | None = None
        self.given: Any = None      # ``rulekit.entity_rows.Given``: what the inputs open
        # The Sources panel gathered evidence carries (``rulekit.route.sources_of``), kept
        # apart: the inputs narrow the evidence into a plain copy, and a failed source must
        # still fail the answer closed.
        from rulekit.route import sources_of
        self.sources = sources_of(self.evidence)

    # -- the loop itself --

    def run(self) -> Grounded:
        prepared = self.prepare()
        if prepared is not None:        # the source or the evidence is unusable: no model call
            return Grounded(self.noted(prepared), (), None)
        cap = self.final if self.max_attempts is None else min(self.max_attempts, self.final)
        feedback: str | None = None
        facts: tuple[Fact, ...] = ()
        narrowed = False
        last: _Judged | None = None             # the last reply judged
        number = 1
        while True:
            stop = self.budget_left(number, cap)
            if stop is not None:
                return self.finish(last, stop)
            request = GenerateRequest(
                question=self.question, history=self.history,
                evidence=None if narrowed else self.evidence, facts=facts, feedback=feedback,
                attempt=number, channel=self.channel, schema=self.schema,
                schema_name=self.schema_name,
                shapes=tuple(shape.text for shape in self.rules.shapes),
                locale=self.locale or self.rules.locale,
                previous_reply=None if last is None else last.text, narrowed=narrowed,
                time_left=self.time_left(),
                evidence_block=None if narrowed else self.evidence_block,
                facts_block=self.facts_block(facts))
            started = time.monotonic()
            try:
                produced = _generation(self.call(request))
            except Exception as exc:
                self.attempts.append(Attempt(number, None, None,
                                             generate_seconds=time.monotonic() - started,
                                             error=_describe(exc)))
                code = "deadline_exceeded" if isinstance(exc, GenerateTimeout) \
                    and self.expired() else "generate_failed"
                return self.finish(last, Reason(code, f"attempt {number}: the model gave no "
                                                f"reply: {_describe(exc)}"))
            generated = time.monotonic() - started
            cut = _cut_off(produced)
            decision, findings, checked = self.judge(produced.text, number, cut=cut)
            self.attempts.append(Attempt(number, produced.text, decision, findings,
                                         generated, checked, produced.tokens, produced.cost))
            if decision.decision != "regenerate":
                if decision.delivered or not self.expired():
                    return Grounded(decision, tuple(self.attempts), None)
                why = Reason("deadline_exceeded", f"attempt {number} was judged past the "
                             f"deadline of {self.deadline:g} s (a lookup outlasted it)")
                return Grounded(dataclasses.replace(decision, reasons=decision.reasons + (why,)),
                                tuple(self.attempts), why.code)
            feedback, facts = decision.feedback, decision.facts
            narrowed = self.channel == "claims" and self.narrows(decision)
            last = _Judged(produced.text, number, findings, cut)
            number += 1

    def prepare(self) -> Decision | None:
        """Open the source once (or index the evidence once), and render the evidence block
        once, for every attempt. When that fails, no reply could ever verify: the checker's own
        fail-closed decision is returned without calling the model.

        Rows the user's ``inputs`` do not open (``requires postcode matching ...``) are
        dropped from the evidence first, in both channels: the model is never shown them, and
        in the prose channel they license nothing. When an input such a row needs was not
        given at all, the prose channel returns the ruleset's ``missing`` action (ask for it)
        without calling the model, as ``check`` does for a claim that needs it. Inputs that are
        not a mapping of strings, or that name an input the ruleset does not declare, refuse as
        ``audit`` and ``check`` do (``input_error``), before anything else; so does a ``now``
        that names no instant (a naive datetime, text without an offset)."""
        from rulekit.entity_rows import check_inputs

        problem = check_inputs(self.policy, self.inputs)
        if problem is not None:
            return self.without_reply(Reason("input_error", problem))
        if self.now is not None:    # as check and audit read it: an instant, or refused
            from rulekit import dates

            try:
                self.now = dates.moment(self.now)
            except (TypeError, ValueError) as exc:
                return self.without_reply(Reason("input_error", str(exc)))
        try:
            if self.evidence is not None and self.policy is not None:
                from rulekit.entity_rows import given

                self.given = given(self.policy, self.evidence, self.inputs)
                if self.given.missing and self.channel == "prose":
                    return self.asked(self.given.missing)
                self.evidence = self.given.evidence
            self.evidence_block = None if self.evidence is None else self.block(
                self.evidence, "data", now=self.now or dt.datetime.now(dt.timezone.utc))
        except Exception as exc:    # a value the model cannot be shown: fail closed
            from rulekit.evidence import EvidenceError

            # An EvidenceError names the place and the fix: shown whole, not cut short.
            why = str(exc) if isinstance(exc, EvidenceError) else _describe(exc)
            return self.without_reply(Reason("input_error", "the evidence cannot be shown to "
                                             f"the model: {why}"))
        if self.channel == "claims":
            from rulekit.check import check
            from rulekit.sources import open_source

            try:
                self.source = open_source(self.source, timeout=self.timeout)
            except Exception:
                # The checker turns an unopenable source into its `lookup_failed` decision.
                return self.stamped(check(self.rules, "", self.source, now=self.now,
                                          attempt=self.final, inputs=self.inputs,
                                          timeout=self.timeout, tenant=self.tenant), 0)
            self.schema, self.schema_name = _reply_schema(self.rules)
            return None
        from rulekit.audit import audit, known_locale
        from rulekit.sweep import SweepSettings

        where = self.locale or self.rules.locale
        try:
            if not known_locale(where):
                raise ValueError(f"unknown locale {where!r}")
            self.evidence_index = SweepSettings.from_policy(self.policy).index(
                self.evidence, where, now=self.now) if self.given is None else \
                self.given.index(self.policy, locale=where, now=self.now)
        except Exception as exc:
            # ``audit`` refuses evidence (or a locale) it cannot use, with the reason: ask it.
            refused = audit(".", self.evidence, policy=self.policy, locale=where,
                            attempt=self.final).decision
            if refused.delivered:   # it could use them after all; still no reply to give
                refused = self.without_reply(Reason("input_error", _describe(exc)))
            return self.stamped(refused, 0)
        return None

    def block(self, data: Any, label: str, now: dt.datetime | None = None) -> str | None:
        """``data`` as a fenced block for the prompt (``rulekit.prompt``), or None when that
        module is not installed (the adapter then shows the data as JSON). A text document is
        shown as ``{"document": ...}``. With ``now``, a row's fields past their freshness
        budget are left out: they license nothing, and a model shown them states them."""
        try:
            from rulekit.prompt import evidence_block
        except ModuleNotFoundError as exc:
            if exc.name == "rulekit.prompt":
                return None
            raise
        return evidence_block(self.rules, {"document": data} if isinstance(data, str) else data,
                              label=label, now=now)

    def facts_block(self, facts: tuple[Fact, ...]) -> str | None:
        """The verified facts as a ``<facts>`` block. They only help the model: if they cannot
        be rendered, the request goes without them (the check still judges every reply)."""
        if not facts:
            return None
        try:
            return self.block(facts, "facts")
        except Exception:
            return None

    def budget_left(self, number: int, cap: int) -> Reason | None:
        """Why attempt ``number`` may not start, or None. The first attempt always starts
        (within the deadline); another starts only if the tokens and cost left cover the
        costliest attempt so far, so a budget is a ceiling, not a trigger."""
        if self.expired():
            return Reason("deadline_exceeded", f"the deadline of {self.deadline:g} s passed "
                          f"before attempt {number}")
        if number > cap:
            limit = (f"max_attempts={self.max_attempts}" if self.max_attempts is not None
                     and self.max_attempts < self.final else "the ruleset")
            return Reason("attempts_exhausted", f"{limit} allows no attempt {number}")
        if number == 1:
            return None
        for name, limit, code, what in (("tokens", self.max_tokens, "token_budget_exhausted",
                                         "token"), ("cost", self.max_cost,
                                                    "cost_budget_exhausted", "cost")):
            if limit is None:
                continue
            spent = [getattr(a, name) for a in self.attempts]
            if any(value is None for value in spent):
                return Reason(code, f"the {what} budget cannot be enforced: generate did not "
                              f"report the {name} of every attempt (return a Generation with "
                              f"{name}=...)")
            used, costliest = sum(spent), max(spent, default=0)
            if used + costliest > limit:
                return Reason(code, f"the {what} budget is {limit:g}; {used:g} used, and the "
                              f"costliest attempt took {costliest:g}")
        return None

    def time_left(self) -> float | None:
        return None if self.ends_at is None else max(0.0, self.ends_at - time.monotonic())

    def expired(self) -> bool:
        return self.ends_at is not None and time.monotonic() >= self.ends_at

    def call(self, request: GenerateRequest) -> Any:
        """``generate(request)``, abandoned at the deadline when there is one."""
        if self.ends_at is None:
            return self.generate(request)
        outcome: dict[str, Any] = {}
        finished = threading.Event()
        context = contextvars.copy_context()    # tracing and the like follow the call

        def work() -> None:
            try:
                outcome["value"] = context.run(self.generate, request)
            except BaseException as exc:  # handed to the waiting thread, which decides
                outcome["error"] = exc
            finally:
                finished.set()

        threading.Thread(target=work, name=f"rulekit-generate-{request.attempt}",
                         daemon=True).start()
        if not finished.wait(self.time_left()):
            raise GenerateTimeout(f"generate did not return within the deadline of "
                                  f"{self.deadline:g} s")
        if "error" in outcome:
            raise outcome["error"]
        return outcome["value"]

    # -- judging --

    def judge(self, text: str, number: int, rejudged: str | None = None,
              cut: str | None = None) -> tuple[Decision, tuple, float]:
        """The checker's decision on one reply at attempt ``number``, its findings, and how
        long the check took. ``rejudged`` is the budget that ended the loop when this reply
        was judged before, which its log line carries. ``cut`` says why the reply is
        incomplete (``_cut_off``): it is then malformed, whatever it says."""
        started = time.monotonic()
        findings: tuple = ()
        log = self.log
        if log is not None and rejudged is not None:
            log = log.bind(rejudged=True, stopped=rejudged)
        if cut is not None:
            decision = self.noted(self.malformed(
                number, Reason("malformed_reply", f"the reply is incomplete: {cut}"),
                f"Your last reply was cut off before it ended ({cut}). Answer again, more "
                "briefly, using only the data given."), log)
        elif self.channel == "claims":
            from rulekit.check import check

            # A lookup gets no more than the time left (the source stops there, or what it
            # returns later is refused: ``lookup_failed``); the final judgement after a budget
            # ran out gets a whole ``timeout``, as a fallback needs the rows.
            left = self.time_left()
            timeout = self.timeout if left is None or rejudged is not None \
                else max(min(self.timeout, left), _LEAST_TIMEOUT)
            decision = check(self.rules, text, self.source, now=self.now, attempt=number,
                             inputs=self.inputs, timeout=timeout, tenant=self.tenant,
                             log=log, question=self.question)
        elif len(text) > MAX_REPLY_CHARS:
            # A claims reply has this cap (``rulekit.reply``), and so has the CLI's text. Past it
            # the sweep alone could outlast any deadline, and no chat answer is that long.
            decision = self.noted(self.malformed(
                number, Reason("malformed_reply", f"the reply is {len(text):,} characters; the "
                               f"limit is {MAX_REPLY_CHARS:,}"),
                f"Your last reply was too long ({len(text):,} characters). Answer the question "
                "briefly, using only the data given."), log)
        elif not text.strip():
            # ``audit`` would pass an empty text (nothing in it is unsupported); it is no answer.
            decision = self.noted(self.malformed(
                number, Reason("malformed_reply", "the reply is empty"),
                "Your last reply was empty. Answer the question using only the data given."), log)
        else:
            from rulekit.audit import audit

            result = audit(text, self.evidence_index, policy=self.policy, question=self.question,
                           history=self.history, locale=self.locale, attempt=number, log=log,
                           sources=self.sources)
            decision, findings = result.decision, result.findings
        return decision, findings, time.monotonic() - started

    def narrows(self, decision: Decision) -> bool:
        """Whether a regenerate rule behind ``decision`` says ``narrow``. A regenerate decision
        means every failure's rule was a regenerate (it is the least strict action), so any of
        them narrowing narrows the next attempt: the stricter reading."""
        for reason in decision.reasons:
            outcome = "not_found" if reason.code == "not_grounded" else reason.code
            if outcome in OUTCOMES and outcome != "missing_input":
                action = resolve(self.rules.action_for(outcome), decision.attempt)
                if action.kind == "regenerate" and action.narrow:
                    return True
        return False

    def finish(self, last: _Judged | None, why: Reason) -> Grounded:
        """The loop stopped before the checker's decision ended it. The last reply, if any, is
        judged as a final attempt so that the declared ``then`` action applies; without one,
        the decision fails closed."""
        if last is None:
            return Grounded(self.noted(self.without_reply(why)), tuple(self.attempts), why.code)
        text, number = last.text, last.number
        decision = self.decided_again(last, why.code)
        if decision is None:
            decision, _, _ = self.judge(text, self.final, rejudged=why.code, cut=last.cut)
        decision = self.stamped(decision, number)
        if decision.decision == "regenerate":   # cannot happen past every max; fail closed
            decision = self.without_reply(why)
        return Grounded(dataclasses.replace(decision, reasons=decision.reasons + (why,)),
                        tuple(self.attempts), why.code)

    def decided_again(self, last: _Judged, stopped: str) -> Decision | None:
        """A prose reply's decision at the final attempt, from the findings it was judged with:
        they do not depend on the attempt, and sweeping the reply again would only take the
        loop further past its deadline. Logged as ``audit`` would log it, marked rejudged.
        None in the claims channel (a fallback needs the rows, so it is checked again) and
        for a reply without findings: one that was not swept (empty, or over the cap), which
        is judged again as it was (``decide`` would answer a text with no findings)."""
        if self.channel != "prose" or not last.findings:
            return None
        from rulekit.audit import decide

        decision = decide(self.rules, last.text, last.findings, self.final)
        if self.log is not None:
            self.log.bind(rejudged=True, stopped=stopped).record(
                decision, self.rules, kind="audit", findings=last.findings)   # never raises
        return decision

    def noted(self, decision: Decision, log: DecisionLog | None = None) -> Decision:
        """``decision``, recorded in the log (``self.log``, or a view of it) as a line of kind
        ``ground``: a decision no ``check`` or ``audit`` call logged (no reply, an empty one,
        an unusable source)."""
        log = log or self.log
        if log is not None:
            log.record(decision, self.rules, kind="ground")    # never raises
        return decision

    def stamped(self, decision: Decision, number: int) -> Decision:
        """A decision judged at the final attempt number, recorded with the real one."""
        return dataclasses.replace(decision, attempt=number)

    def without_reply(self, why: Reason) -> Decision:
        """The final decision when no reply can be judged: the ``malformed_reply`` rule's final
        action, with ``why`` as the reason."""
        number = max((a.number for a in self.attempts), default=0)
        return self.malformed(self.final, why, None, number)

    def asked(self, missing: tuple[tuple[str, str], ...]) -> Decision:
        """The final decision when the evidence holds rows given only with an input the user
        has not given: the ruleset's ``on missing INPUT`` action for the first such input."""
        entity, name = missing[0]
        why = Reason("missing_input", f"the evidence holds a record of {entity}, which is given "
                     f"only once the user has given {name}; no {name} was given")
        return self.malformed(self.final, why, None, 0, outcome="missing_input",
                              missing_input=name)

    def malformed(self, attempt: int, why: Reason, feedback: str | None,
                  recorded: int | None = None, *, outcome: str = "malformed_reply",
                  missing_input: str | None = None) -> Decision:
        """A decision for a reply that cannot be judged at all (none, or an empty one), built
        from the ruleset's ``on malformed_reply`` rule (or ``outcome``'s) at ``attempt``, as
        ``rulekit.audit.decision_for`` builds one with nothing verified: a fallback cannot be
        built and refuses, as the checker does; every message is filled as ``message`` says.
        Recorded at ``recorded`` when given."""
        from rulekit.audit import decision_for

        return decision_for(
            self.rules, [Failure(outcome, why, missing_input=missing_input)], attempt,
            feedback=feedback, refusal=self.message, named=self.message,
            no_fallback="there is no verified fact to build the fallback from, so rulekit refused",
            recorded=recorded)

    def message(self, template: str | None) -> str | None:
        """A refuse, ask or handoff message with nothing verified to name."""
        if self.channel != "claims":
            from rulekit.audit import free_text_refusal
            return free_text_refusal(self.rules, template)
        from rulekit.check import DEFAULT_REFUSAL, _message

        return _message(self.rules, template or DEFAULT_REFUSAL, [])   # nothing failed to name


def _cut_off(produced: Generation) -> str | None:
    """Why ``produced`` is incomplete, or None when nothing says it is."""
    from rulekit.stream import cut_off

    return cut_off(produced.finish_reason)


def _generation(produced: Any) -> Generation:
    """What ``generate`` returned, as a ``Generation``; anything else is a failed call."""
    if isinstance(produced, Generation):
        return produced
    if isinstance(produced, str):
        return Generation(produced)
    raise TypeError(f"generate returned {type(produced).__name__}; it must return the reply "
                    "as a str or a rulekit.ground.Generation")


def _reply_schema(policy: Policy) -> tuple[Mapping | None, str | None]:
    """The JSON schema of a claims reply under ``policy``, for structured output, and its name
    (``rulekit.schema.response_format``: the OpenAI flavor, named ``<ruleset>_reply``).
    ``rulekit.schema`` is optional here: without it the model is asked for JSON without a
    schema, and the checker still validates every reply."""
    try:
        from rulekit.schema import response_format
    except ModuleNotFoundError as exc:
        if exc.name == "rulekit.schema":
            return None, None
        raise
    spec = response_format(policy)["json_schema"]
    return spec["schema"], spec["name"]



# --- for adapters: the chat messages every chat model is given --------------------------------

def history_message(turn: Any) -> dict:
    """An earlier turn as a chat message. Only ``user`` and ``assistant`` turns keep their
    role: anything else (a ``system`` turn among the history) is sent as the user's words, so
    the history can never raise itself to instructions."""
    if isinstance(turn, str):
        return {"role": "user", "content": turn}
    if isinstance(turn, Mapping):
        role = turn.get("role")
        content = turn.get("content")
        if not isinstance(content, str):
            content = json.dumps(content, ensure_ascii=False, default=str)
        return {"role": role if role in ("user", "assistant") else "user", "content": content}
    return {"role": "user", "content": str(turn)}


def facts_message(request: GenerateRequest) -> str:
    """The verified facts of a retry as one prompt message, for every chat adapter."""
    if request.facts_block is not None:
        return f"Verified facts (use these values):\n{request.facts_block}"
    lines = [f"- {fact.key}: {fact.text} ({fact.citation})" for fact in request.facts]
    return "Verified facts (use these values):\n" + "\n".join(lines)

# ``rulekit.ground(...)`` works even after this module was imported as ``rulekit.ground``.
from rulekit import _callable_module  # noqa: E402

_callable_module(__name__, ground)
