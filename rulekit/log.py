"""The decision log: one JSON line per decision, for monitoring what the checker sees.

    log = DecisionLog("decisions.jsonl")            # or DecisionLog(callable)
    decision = rulekit.check(policy, reply, source, log=log)
    ...
    $ rulekit stats decisions.jsonl

Seed 002: "the rates of confirmed, contradicted and not-found per field are the best
hallucination monitor you will ever get, because they are measured against a system of record
rather than against a judge." This module writes what those rates are computed from; the line
format is documented field by field in docs/authoring.md ("The decision log"), and
``rulekit.stats`` reads it back.

What the design protects:

- **Logging never changes a decision.** ``DecisionLog.record`` never raises: a full disk, a
  closed file, a callable that throws, or a bug in building the line is counted
  (``DecisionLog.errors``, ``last_error``), reported once through the ``rulekit.log`` logger
  each time the log starts failing, and handed to ``on_error`` if one was given. The check has
  already decided by then, and returns its decision unchanged.
- **Nothing sensitive, nothing unbounded.** A field marked ``sensitive`` in the rules has its
  claimed, stored and normalised values written as ``"***"``, and the same values are scrubbed
  from every message and quoted text in the line, with every value the field holds in what the
  decision was made from (the evidence, rows held in memory): a reply may write a sensitive
  value it never claimed. Against a database, whose hidden fields are never read, the figures
  the prose findings quote are masked instead (fail closed). ``hidden`` alone masks nothing:
  it keeps a value from the customer, ``sensitive`` keeps it from the log. Neither the customer's text, the refusal
  message nor the model's feedback is logged: they hold the values a monitor does not need.
  Long strings are cut, and at most ``MAX_CLAIMS`` claims, ``MAX_FINDINGS`` findings,
  ``MAX_REASONS`` reason codes and ``MAX_SOURCES`` sources are written per line; ``truncated``
  says how many of each were left out.
- **Whole lines only.** A file target is opened in append mode, unbuffered, and each line is
  one ``json.dumps`` written with one ``write`` under a lock, so threads never interleave and a
  reader never sees half a line from this process (O_APPEND keeps single writes from several
  processes whole too, on local file systems).

No global state: each ``DecisionLog`` owns its file, lock and counters. ``bind`` gives a view
that adds fields to every line and shares the owner's file, lock and counters.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
import logging
import math
import os
import re
import threading
import time
import warnings
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from rulekit.policy import Policy, derived

__all__ = ["DecisionLog", "FORMAT_VERSION", "MASK", "Stages", "as_log", "record_decision",
           "template_info"]

FORMAT_VERSION = 1
MASK = "***"

# Per line, so that one pathological reply cannot write megabytes.
MAX_CLAIMS = 50
MAX_FINDINGS = 20
MAX_REASONS = 50
MAX_SOURCES = 20
MAX_TEXT = 200          # characters of any one string value (a claimed value, a message...)
MAX_TEMPLATE_TEXT = 160

_logger = logging.getLogger("rulekit.log")

class _Sink:
    """Where lines go, and what went wrong: shared by a log and every view ``bind`` makes."""

    def __init__(self, on_error: Callable[[BaseException], Any] | None) -> None:
        self.lock = threading.Lock()
        self.on_error = on_error
        self.written = 0
        self.errors = 0
        self.last_error: str | None = None
        self._failing = False

    def failed(self, exc: BaseException) -> None:
        with self.lock:
            self.errors += 1
            self.last_error = f"{exc.__class__.__name__}: {exc}"[:MAX_TEXT]
            first = not self._failing
            self._failing = True
        if first:   # once per run of failures, so a full disk does not flood the app's log
            _logger.warning("rulekit decision log: a line could not be written (%s); decisions "
                            "are unaffected; see DecisionLog.errors", self.last_error)
        if self.on_error is not None:
            try:
                self.on_error(exc)
            except Exception:  # the error handler's own failure is not the check's problem
                pass

    def succeeded(self) -> None:
        with self.lock:
            self.written += 1
            self._failing = False

    def emit(self, line: dict) -> None:     # pragma: no cover - overridden
        raise NotImplementedError

    def close(self) -> None:
        pass


class _FileSink(_Sink):
    """Appends lines to a file, opened on first use and again after ``close`` or a failure (so
    a log rotated away, or a disk that filled and was cleared, is picked up again)."""

    def __init__(self, path: str, on_error) -> None:
        super().__init__(on_error)
        self.path = path
        self._file = None

    def _open(self):
        # Unbuffered binary: each line reaches the OS in one write, nothing waits in a buffer.
        return open(self.path, "ab", buffering=0)

    def open_now(self) -> None:
        with self.lock:
            if self._file is None:
                self._file = self._open()

    def emit(self, line: dict) -> None:
        data = (json.dumps(line, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
                + "\n").encode("utf-8")
        with self.lock:
            try:
                if self._file is None:
                    self._file = self._open()
                view = memoryview(data)
                while view:     # a raw write may take fewer bytes than it was given
                    view = view[self._file.write(view):]
            except BaseException:
                self._close_locked()
                raise

    def _close_locked(self) -> None:
        handle, self._file = self._file, None
        if handle is not None:
            try:
                handle.close()
            except OSError:
                pass

    def close(self) -> None:
        with self.lock:
            self._close_locked()


class _CallableSink(_Sink):
    """Hands each line, as a dict, to a callable. Not serialised: a callable shared by several
    threads is called from all of them, as it would be without rulekit."""

    def __init__(self, function: Callable[[dict], Any], on_error) -> None:
        super().__init__(on_error)
        self.function = function

    def emit(self, line: dict) -> None:
        self.function(line)


class DecisionLog:
    """A decision log: a path (JSON lines are appended to it) or a callable (it receives each
    line as a dict). Thread-safe; ``record`` never raises.

    ``clock`` returns the time a line is stamped with (an aware datetime; default: now, in UTC),
    for tests. ``on_error`` is called with the exception whenever a line cannot be recorded.

    A path is opened here, so a log that cannot be written fails loudly at start-up, where it is
    configured, rather than silently later; after that, failures are counted, never raised.
    """

    def __init__(self, target: Any, *, clock: Callable[[], dt.datetime] | None = None,
                 on_error: Callable[[BaseException], Any] | None = None,
                 _sink: _Sink | None = None, _extra: Mapping[str, Any] | None = None) -> None:
        self._clock = clock or _utc_now
        self._extra = dict(_extra or {})
        if _sink is not None:
            self._sink = _sink
        elif isinstance(target, (str, os.PathLike)):
            sink = _FileSink(os.fspath(target), on_error)
            sink.open_now()
            self._sink = sink
        elif callable(target):
            self._sink = _CallableSink(target, on_error)
        else:
            raise TypeError(f"a decision log target is a path or a callable taking a dict, not "
                            f"{type(target).__name__}")
        self.target = target

    # -- what went wrong, for health checks and tests --

    @property
    def written(self) -> int:
        """Lines recorded so far (by this log and every view of it)."""
        return self._sink.written

    @property
    def errors(self) -> int:
        """Lines that could not be recorded."""
        return self._sink.errors

    @property
    def last_error(self) -> str | None:
        return self._sink.last_error

    # -- writing --

    def bind(self, **fields: Any) -> "DecisionLog":
        """A view that adds ``fields`` to every line it records, sharing this log's file, lock
        and counters (``ground`` marks a reply judged a second time with ``rejudged=True``)."""
        return DecisionLog(self.target, clock=self._clock, _sink=self._sink,
                           _extra={**self._extra, **fields})

    def record(self, decision: Any, policy: Any, *, kind: str = "check", findings: Any = (),
               template: Any = None, stages: Mapping[str, float] | None = None,
               data: Any = None) -> dict | None:
        """Build the line for ``decision`` (made under ``policy``, whose ``sensitive`` fields
        are masked) and write it. ``findings`` are the sweep's findings (``audit``); the
        claims channel's findings are its decision's reasons. ``template`` is the reply's
        template (a ``ParsedTemplate`` or its text), for the prose-per-slot ratio; ``stages``
        the seconds spent in each stage. ``data`` is what the decision was made from (the
        evidence of an audit, the rows or source of a check): the values its sensitive fields
        hold are scrubbed from the line too, wherever the reply wrote them (see ``_Masker``).
        Returns the line, or None when it could not be recorded (counted in ``errors``).
        Never raises."""
        try:
            line = build_line(decision, policy, kind=kind, findings=findings, template=template,
                              stages=stages, now=self._clock(), extra=self._extra, data=data)
            self._sink.emit(line)
        except Exception as exc:
            self._sink.failed(exc)
            return None
        self._sink.succeeded()
        return line

    def close(self) -> None:
        """Close the file (a callable target has nothing to close). The next ``record`` opens
        the path again, so a log-rotation hook may call this after moving the file away."""
        self._sink.close()

    def __enter__(self) -> "DecisionLog":
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def __repr__(self) -> str:
        return (f"DecisionLog({self.target!r}, written={self.written}, errors={self.errors})")


def as_log(target: Any) -> tuple[DecisionLog, bool]:
    """``target`` as a ``DecisionLog``, and whether the caller made it (and so must close it):
    a ``DecisionLog`` is used as it is; a path or a callable gets one for this call."""
    if isinstance(target, DecisionLog):
        return target, False
    return DecisionLog(target), True


def record_decision(target: Any, decision: Any, policy: Any, **details: Any) -> None:
    """Record ``decision`` in ``target`` (a ``DecisionLog``, a path or a callable), for the
    checker's ``log=`` parameters. Never raises: a target that cannot even be opened is
    reported as a ``RuntimeWarning`` (there is no log to count it in), and not even a warnings
    filter set to ``error`` turns that into an exception in the check."""
    try:
        log, owned = as_log(target)
    except Exception as exc:
        try:
            warnings.warn(f"rulekit: the decision log {target!r} cannot be used, so this "
                          f"decision was not logged: {exc.__class__.__name__}: {exc}",
                          RuntimeWarning, stacklevel=3)
        except Exception:
            pass
        return
    try:
        log.record(decision, policy, **details)
    except Exception:   # record never raises; this guards a subclass that does
        pass
    finally:
        if owned:
            try:
                log.close()
            except Exception:
                pass


# --- building a line ---------------------------------------------------------------------------

def build_line(decision: Any, policy: Any, *, kind: str, findings: Any = (),
               template: Any = None, stages: Mapping[str, float] | None = None,
               now: dt.datetime | None = None, extra: Mapping[str, Any] | None = None,
               data: Any = None) -> dict:
    """The log line for ``decision``, JSON-safe, masked and bounded. See the module docstring
    and docs/authoring.md ("The decision log") for the fields."""
    masker = _Masker(policy, decision.claims, data)
    if masker.blind:
        masker.also(_stray_figures(decision.reasons))
    truncated: dict[str, int] = {}

    claims = [_claim(result, masker) for result in _capped(decision.claims, MAX_CLAIMS,
                                                             "claims", truncated)]
    if kind == "audit":
        found = [_sweep_finding(f, masker) for f in _capped(findings, MAX_FINDINGS, "findings",
                                                            truncated)]
    else:
        found = [_reason(r, masker) for r in _capped(decision.reasons, MAX_FINDINGS, "findings",
                                                      truncated)]
    reasons = [_text(r.code) for r in _capped(decision.reasons, MAX_REASONS, "reasons",
                                               truncated)]
    sources = [_safe(s, masker) for s in _capped(decision.sources, MAX_SOURCES, "sources",
                                                 truncated)]
    line: dict[str, Any] = {
        "v": FORMAT_VERSION,
        "time": _stamp(now or _utc_now()),
        "kind": kind,
        "ruleset": dict(decision.ruleset),     # the policy's own name, version and hash
        "action": decision.decision,
        "next_action": decision.next_action,
        "attempt": decision.attempt,
        "reasons": reasons,
        "claims": claims,
        "findings": found,
        "sources": sources,
        "template": None if template is None else template_info(template, masker),
        "stage_ms": {name: round(seconds * 1000, 3) for name, seconds in (stages or {}).items()},
        "masked": sorted(masker.used),
        "truncated": truncated,
    }
    for name, value in (extra or {}).items():
        line.setdefault(name, _safe(value, masker))
    return line


def _capped(items: Any, limit: int, name: str, truncated: dict) -> list:
    items = list(items or ())
    if len(items) > limit:
        truncated[name] = len(items) - limit
        return items[:limit]
    return items


def _claim(result: Any, masker: "_Masker") -> dict:
    entity, field = result.entity, result.field
    sensitive = (entity, field) in masker.rules.fields
    key_masked = entity in masker.rules.keys
    if sensitive:
        masker.used.add(f"{entity}.{field}")
    if key_masked:
        masker.used.add(f"{entity}.{masker.rules.keys[entity]}")
    if sensitive:
        claimed = None if result.claimed is None else MASK
        actual = None if result.actual is None else MASK
        claimed_normal = None if result.claimed_normal is None else MASK
        actual_normal = None if result.actual_normal is None else MASK
    elif masker.plain:
        # Nothing to scrub: only what JSON cannot hold, or too long, needs ``_safe``.
        claimed, actual = result.claimed, result.actual
        claimed_normal, actual_normal = result.claimed_normal, result.actual_normal
        if not _plain(claimed):
            claimed = _safe(claimed, masker)
        if not _plain(actual):
            actual = _safe(actual, masker)
        if not _plain(claimed_normal):
            claimed_normal = _safe(claimed_normal, masker)
        if not _plain(actual_normal):
            actual_normal = _safe(actual_normal, masker)
    else:
        claimed, actual = _safe(result.claimed, masker), _safe(result.actual, masker)
        claimed_normal = _safe(result.claimed_normal, masker)
        actual_normal = _safe(result.actual_normal, masker)
    return {"key": _text(result.key), "entity": _text(entity),
            "entity_id": MASK if key_masked else masker.scrub(_text(result.entity_id)),
            "field": _text(field), "type": _text(result.type), "outcome": result.outcome,
            "reason_code": result.reason_code,
            "claimed": claimed, "actual": actual,
            "claimed_normal": claimed_normal, "actual_normal": actual_normal,
            "updated_at": _text(result.updated_at), "path": result.path}


def _reason(reason: Any, masker: "_Masker") -> dict:
    about = masker.by_path.get(reason.path) if reason.path else None
    if about is not None:
        # The message of a sensitive claim quotes both values; only the fact of it is kept.
        message = f"{about.key} ({about.entity}.{about.field}): {about.outcome}: {MASK}"
    else:
        message = masker.scrub(_text(reason.message))
    return {"code": _text(reason.code), "message": message, "path": _text(reason.path)}


def _sweep_finding(finding: Any, masker: "_Masker") -> dict:
    text, message = finding.text, finding.message
    field = masker.withheld_field(finding)
    if field is not None:
        # A figure found only in a withheld sensitive field is a piece of its value, however
        # short ("+44" of a phone number): the fact of it is kept, the figure is not.
        masker.used.add(field)
        if isinstance(message, str) and isinstance(text, str) and message.startswith(text):
            message = MASK + message[len(text):]
        text = MASK
    return {"code": _text(finding.code), "kind": _text(finding.kind),
            "text": masker.scrub(_text(text)), "start": finding.start,
            "end": finding.end, "message": masker.scrub(_text(message))}


class _Sensitive(NamedTuple):
    """What a policy marks sensitive: ``(entity, field)`` pairs, and the entities whose key is
    sensitive (by name, to the key's name)."""
    fields: frozenset
    keys: dict


class _Identity:
    """A policy as a cache key, by identity: a ``Policy`` hashes by value, walking every field."""
    __slots__ = ("policy",)

    def __init__(self, policy: Any) -> None:
        self.policy = policy

    def __hash__(self) -> int:
        return id(self.policy)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Identity) and other.policy is self.policy


def _sensitive_of(policy: Any) -> _Sensitive:
    """The sensitive fields of ``policy``, once per policy (``policy.derived``)."""
    if isinstance(policy, Policy):
        return derived(policy, "log.sensitive", _sensitive_fields)
    return _sensitive_fields(policy)


def _sensitive_fields(policy: Any) -> _Sensitive:
    pairs, keys = set(), {}
    for entity in getattr(policy, "entities", ()):
        for field in entity.fields:
            if field.sensitive:
                pairs.add((entity.name, field.name))
                if field.name == entity.key:
                    keys[entity.name] = field.name
    return _Sensitive(frozenset(pairs), keys)


_NOTHING_SENSITIVE = _Sensitive(frozenset(), {})


class _Masker:
    """Which values of one decision are sensitive, and how to scrub them out of text.

    The values come from the claims about sensitive fields (claimed, stored, normalised, as a
    customer would read them) and from ``data``, what the decision was made from: every value a
    sensitive field holds in the evidence's entity rows (an audit) or in rows held in memory (a
    check), for a reply may write a value it never claimed ("call +44 20 7946 0958"). A check
    against a source the log cannot read (a database, which is never even asked for a hidden
    field) leaves those values unknown: the masker is then ``blind``, and every figure the
    prose findings quote is masked wherever the line holds it (fail closed)."""

    def __init__(self, policy: Any, claims: Any, data: Any = None) -> None:
        self.policy = policy
        self.rules = _NOTHING_SENSITIVE if policy is None else _sensitive_of(policy)
        self.used: set[str] = set()
        self.by_path: dict[str, Any] = {}
        self._pattern = None
        self._owner: dict[str, str] = {}
        self.plain = True           # nothing to scrub out of text
        self.blind = False          # sensitive values may be in the text that are not known
        self.everything = sorted(f"{e}.{f}" for e, f in self.rules.fields)
        if not self.rules.fields:
            return      # the common case: nothing to mask, nothing to scrub
        owner: dict[str, str] = {}
        for result in claims or ():
            name = f"{result.entity}.{result.field}"
            if (result.entity, result.field) in self.rules.fields:
                if result.path:
                    self.by_path[result.path] = result
                for v in (result.claimed, result.actual, result.claimed_normal,
                          result.actual_normal):
                    owner.update(dict.fromkeys(_variants(v), name))
                owner.update(dict.fromkeys(self._formatted(result), name))
            if result.entity in self.rules.keys:
                owner.update(dict.fromkeys(_variants(result.entity_id),
                                           f"{result.entity}.{self.rules.keys[result.entity]}"))
        stored = _stored_values(_Identity(policy), data)
        if stored is None:
            self.blind = True
        else:
            for value, name in stored:
                owner.setdefault(value, name)
        owner.pop("", None)
        if owner:
            self.plain = False
            self._owner = owner
            self._pattern = _scrubber(frozenset(owner))

    def withheld_field(self, finding: Any) -> str | None:
        """The sensitive ``entity.field`` a sweep finding says its figure appears in only
        (``hidden_field``, ``stale``: "... appears in the evidence only as customer.phone"),
        or None."""
        if not self.rules.fields or finding.code not in ("hidden_field", "stale"):
            return None
        message = str(finding.message)
        return next((name for name in self.everything
                     if re.search(rf"(?<![\w.]){re.escape(name)}(?![\w.])", message)), None)

    def also(self, texts: Any) -> None:
        """Scrub ``texts`` too, as values of any sensitive field: a blind masker's figures of
        the prose, which may be stored values it cannot see."""
        owner = {text: "" for text in texts if text and text not in self._owner}
        if owner:
            self.used.update(self.everything)
            self._owner = {**self._owner, **owner}
            self.plain = False
            self._pattern = _scrubber(frozenset(self._owner))

    def _formatted(self, result: Any) -> set[str]:
        """The stored value as a customer would read it, which a message may quote."""
        if result.actual is None:
            return set()
        return _formatted(self.policy, result.entity, result.field, result.actual)

    def scrub(self, text: Any) -> Any:
        if self._pattern is None or type(text) is not str:
            return text
        return self._pattern.sub(self._mask, text)

    def _mask(self, match: re.Match) -> str:
        self.used.add(self._owner.get(match.group(), ""))
        self.used.discard("")
        return MASK


def _stray_figures(reasons: Any) -> list[str]:
    """The figures a check's prose findings quote: each ``stray_figure`` message starts with
    the figure's ``repr`` and " written outside the slots" (``rulekit.check``)."""
    import ast

    found = []
    for reason in reasons or ():
        head, sep, _ = str(reason.message).partition(" written outside the slots")
        if reason.code != "stray_figure" or not sep:
            continue
        try:
            figure = ast.literal_eval(head)
        except (ValueError, SyntaxError):
            continue
        if isinstance(figure, str):
            found.append(figure)
    return found


def _formatted(policy: Any, entity: str, field: str, value: Any) -> set[str]:
    try:
        from rulekit.render import format_value

        return {format_value(policy.entity(entity).field(field), value, policy.locale)}
    except Exception:
        return set()


@functools.lru_cache(maxsize=64)
def _scrubber(values: frozenset) -> re.Pattern:
    """One pattern for all ``values``, longest first at each place: a trie of the long ones (a
    few thousand values cost one pass, not one pass each), and the short ones (under four
    characters) only as whole words, so that "20" is not scrubbed out of "2026"."""
    from rulekit.scan.base import _trie

    long = [v for v in values if len(v) >= 4]
    short = [v for v in values if len(v) < 4]
    parts = ([_trie(long)] if long else []) + (
        [rf"(?<!\w)(?:{_trie(short)})(?!\w)"] if short else [])
    return re.compile("|".join(parts))


def _stored_values(policy: "_Identity", data: Any) -> list[tuple[str, str]] | None:
    """(a value as it may be written, the ``entity.field`` it is of) for every value a sensitive
    field holds in ``data``; None when ``data`` cannot be read (a database, nothing given).
    Rows held in memory are read once per source (they never change)."""
    from rulekit.evidence import Evidence
    from rulekit.sources.memory import MemoryResolver

    if isinstance(data, Evidence):
        data = data.raw
    if isinstance(data, MemoryResolver):
        return _resolver_values(policy, _Identity(data))
    if isinstance(data, str) and not _looks_like_source(data):
        return []               # a text document: it has no rows, so no field's values
    if not isinstance(data, (Mapping, list, tuple)):
        return None
    return _values_in(policy.policy, data)


def _looks_like_source(text: str) -> bool:
    """A check's source given as text: a database URL or a rows file, which the log does not
    open."""
    return "://" in text[:32] or text.endswith(".json")


@functools.lru_cache(maxsize=8)
def _resolver_values(policy: "_Identity", resolver: "_Identity") -> list[tuple[str, str]]:
    return _values_in(policy.policy, dict(resolver.policy.rows))


def _values_in(policy: Any, data: Any) -> list[tuple[str, str]]:
    """The sensitive values of the entity rows in ``data``: rows found where the sweep finds
    them (the paths binding declares, else a top-level key named after the entity, singular or
    plural) and where a rows file holds them (under the entity's table)."""
    from rulekit.evidence import locate

    found: list[tuple[str, str]] = []
    for entity, fields, paths in _sensitive_rows(policy):
        seen: set[int] = set()
        for path in paths:
            for row in locate(data, path):
                if id(row) in seen:
                    continue
                seen.add(id(row))
                for field in fields:
                    value = row.get(field.name)
                    if value is None:
                        continue
                    name = f"{entity}.{field.name}"
                    found += [(v, name) for v in _variants(value)]
                    found += [(v, name) for v in _formatted(policy, entity, field.name, value)]
    return found


def _sensitive_rows(policy: Any) -> tuple[tuple[str, tuple, tuple[str, ...]], ...]:
    """Each entity with a sensitive field: its name, those fields, and the paths of its rows;
    once per policy (``policy.derived``)."""
    if isinstance(policy, Policy):
        return derived(policy, "log.sensitive_rows", _sensitive_rows_of)
    return _sensitive_rows_of(policy)


def _sensitive_rows_of(policy: Any) -> tuple[tuple[str, tuple, tuple[str, ...]], ...]:
    declared = {e.name: e.paths for e in getattr(getattr(policy, "binding", None), "entities", ())}
    found = []
    for entity in getattr(policy, "entities", ()):
        fields = tuple(f for f in entity.fields if f.sensitive)
        if not fields:
            continue
        names = (entity.name, entity.name + "s") + tuple(
            t for t in (getattr(entity.lookup, "table", None),) if t)     # a rows file's table
        paths = declared.get(entity.name, ()) + tuple(
            f"$.{name}{step}" for name in names for step in ("", "[*]"))
        found.append((entity.name, fields, tuple(dict.fromkeys(paths))))
    return tuple(found)


def _variants(value: Any) -> set[str]:
    """The ways a value may appear in a message: as written, its runs of digits, and each part
    of a normal form (``{"minor_units": 129900, "currency": "EUR"}`` is quoted as "129900 minor
    units")."""
    if value is None or isinstance(value, bool):
        return set()
    if isinstance(value, Mapping):
        found = set()
        for key, part in value.items():
            if key != "currency":   # "EUR" identifies nobody, and is in every money message
                found |= _variants(part)
        return found
    if isinstance(value, (list, tuple)):
        return set().union(*(_variants(v) for v in value)) if value else set()
    text = str(value).strip()
    if not text:
        return set()
    # Its runs of three or more digits too: a phone number or an account quoted in part
    # ("7946 0958" of "+44 20 7946 0958") still identifies someone.
    return {text, *(run for run in _DIGIT_RUNS.findall(text) if run != text)}


_DIGIT_RUNS = re.compile(r"\d{3,}")


def _plain(value: Any) -> bool:
    """A value a line may hold as it is: None, an int, a bool, a short string."""
    kind = type(value)
    return (value is None or kind is int or kind is bool
            or (kind is str and len(value) <= MAX_TEXT))


def _safe(value: Any, masker: "_Masker | None", depth: int = 0) -> Any:
    """``value`` as JSON can hold it, with long strings cut and, in text, sensitive values
    scrubbed. Exact types are tried first: they are nearly all a line holds."""
    kind = type(value)
    if kind is str:
        text = value if len(value) <= MAX_TEXT else _text(value)
        return masker.scrub(text) if masker is not None else text
    if value is None or kind is int or kind is bool:
        return value
    if kind is float:
        return value if math.isfinite(value) else str(value)
    if depth > 4:
        return _safe(str(value), masker)
    if kind is dict or isinstance(value, Mapping):
        return {_text(str(k)): _safe(v, masker, depth + 1) for k, v in list(value.items())[:50]}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_safe(v, masker, depth + 1) for v in list(value)[:50]]
    if isinstance(value, int):      # an int subclass (an IntEnum...) as a plain int
        return int(value)
    return _safe(str(value), masker)


def _text(value: Any) -> Any:
    if not isinstance(value, str) or len(value) <= MAX_TEXT:
        return value
    return f"{value[:MAX_TEXT]}…[+{len(value) - MAX_TEXT} chars]"


# --- templates: seed 002's early warning -------------------------------------------------------

# A word is a run of letters or digits; a CJK character counts as a word of its own, since
# those scripts do not separate words with spaces.
_WORDS = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]|[^\W_]+")


def template_info(template: Any, masker: "_Masker | None" = None) -> dict:
    """How much of a template is prose outside its slots (seed 002: "a template with a great
    deal of prose and one slot is a model routing round the mechanism. Alert on the ratio").

    ``prose_per_slot`` is the words outside slots per slot, a template without slots counting
    as one slot (all its prose weighs fully); ``prose_share`` is the share of the template's
    characters outside slots. ``id`` names the template's prose with its slots blanked, so the
    same sentence with other slot names is the same template."""
    if isinstance(template, str):
        from rulekit.template import parse_template

        template = parse_template(template)
    pieces = tuple(template.pieces)
    # The same templates come back check after check; only sentence-length ones are cached.
    info = dict(_template_info(pieces) if sum(map(len, pieces)) <= 2048
                else _template_info.__wrapped__(pieces))
    if masker is not None:
        info["text"] = masker.scrub(info["text"])
    return info


@functools.lru_cache(maxsize=1024)
def _template_info(pieces: tuple[str, ...]) -> dict:
    prose_parts = pieces[0::2]
    prose = "".join(prose_parts)
    slots = len(pieces) // 2
    text = "".join(p if i % 2 == 0 else "{" + p + "}" for i, p in enumerate(pieces))
    skeleton = "{}".join(prose_parts)
    words = len(_WORDS.findall(prose))
    shown = text if len(text) <= MAX_TEMPLATE_TEXT else text[:MAX_TEMPLATE_TEXT] + "…"
    return {"id": hashlib.sha256(skeleton.encode("utf-8")).hexdigest()[:12],
            "text": shown, "slots": slots, "prose_words": words, "prose_chars": len(prose),
            "chars": len(text),
            "prose_per_slot": round(words / max(slots, 1), 3),
            "prose_share": round(len(prose) / len(text), 3) if text else 0.0}


# --- time ------------------------------------------------------------------------------------

class Stages:
    """The time each stage of one logged check or audit took (``time.perf_counter``), and the
    reply's template for the prose-per-slot ratio. Made only when a decision is logged: an
    unlogged check pays one ``is not None`` test per stage and never reads the clock."""
    __slots__ = ("started", "last", "seconds", "template")

    def __init__(self) -> None:
        self.started = self.last = time.perf_counter()
        self.seconds: dict[str, float] = {}
        self.template = None

    def mark(self, stage: str) -> None:
        """The time since the previous mark (or the start) was spent in ``stage``."""
        now = time.perf_counter()
        self.seconds[stage] = self.seconds.get(stage, 0.0) + now - self.last
        self.last = now

    def seconds_by_stage(self) -> dict[str, float]:
        """Each stage's seconds, and ``total`` from the start to the last mark."""
        return {**self.seconds, "total": self.last - self.started}


def _utc_now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


def _stamp(moment: dt.datetime) -> str:
    """ISO 8601 in UTC with milliseconds and a ``Z``: sortable as text."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.timezone.utc)
    elif moment.utcoffset():
        moment = moment.astimezone(dt.timezone.utc)
    return moment.replace(tzinfo=None).isoformat(timespec="milliseconds") + "Z"
