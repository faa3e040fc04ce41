"""Keyword routing of the declared sources, and gathering their rows as evidence (seed 001).

Which queries run is decided here, by code, from the words of the question; the model never
chooses. ``route`` picks the declared sources whose keywords the question contains, or the
``default`` ones when none matched, plus the ``always`` ones. ``gather`` runs them with the
only parameters a source can have: the verified tenant id the caller passes in (never from the
question or the model), and ``since``/``until`` computed from ``now`` and the source's declared
window. Nothing in the question can name another query or widen a window.

What ``gather`` returns is the evidence for the sweep (one list of rows per source) and a
``sources`` report for a "Sources" panel under the answer: which sources ran, over which
window, how many rows each returned, which came back empty, and which failed. A failed source
makes the evidence incomplete, and the evidence says so: ``Gathered.evidence`` is a
``GatheredRows``, a plain dict of rows that also carries the report, so ``audit(text,
gathered)`` and ``audit(text, gathered.evidence)`` both fail closed with ``lookup_failed``
when a source failed, without the caller having to pass ``sources=``.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import math
import re
import unicodedata
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from rulekit import dates
from rulekit.compare import SinglePrecision
from rulekit.policy import DataSource, Policy

__all__ = ["DEFAULT_MAX_ROWS", "Gathered", "GatheredRows", "SourceRun", "gather", "route",
           "sources_of"]


def _normal(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def _keyword_pattern(keyword: str) -> re.Pattern:
    # Whole words only: "best" must not fire on "bestow", nor "post" on "postcode".
    return re.compile(rf"(?<!\w){re.escape(_normal(keyword))}(?!\w)")


def route(policy: Policy, question: str | None) -> tuple[DataSource, ...]:
    """The sources to run for ``question``, in declaration order."""
    text = _normal(question) if isinstance(question, str) else ""
    matched = [s for s in policy.data_sources
               if text and any(_keyword_pattern(k).search(text) for k in s.keywords)]
    chosen = matched or [s for s in policy.data_sources if s.default]
    names = {s.name for s in chosen} | {s.name for s in policy.data_sources if s.always}
    return tuple(s for s in policy.data_sources if s.name in names)


@dataclasses.dataclass(frozen=True, slots=True)
class SourceRun:
    """One line of the Sources panel."""
    name: str
    since: str | None           # ISO 8601, the start of the window; None without a window
    until: str | None
    rows: int
    empty: bool
    matched: tuple[str, ...]    # the keywords of the question that picked it; () for default
    error: str | None = None    # why it failed, for the operator; the rows are then missing

    def to_dict(self) -> dict:
        return dataclasses.asdict(self) | {"matched": list(self.matched)}


class GatheredRows(dict):
    """The rows of each source that answered, by source name: a plain dict (JSON, the sweep,
    the prompt read it as one) that also keeps the Sources panel it was gathered with, so a
    failed source travels with the evidence and ``audit`` cannot miss it. A copy made with
    ``dict(...)`` or ``json`` is plain rows again, and carries no failure."""
    __slots__ = ("sources",)

    def __init__(self, rows: Mapping[str, list[dict[str, Any]]] | None = None,
                 sources: tuple[dict, ...] = ()) -> None:
        super().__init__(rows or {})
        self.sources = tuple(sources)


@dataclasses.dataclass(frozen=True, slots=True)
class Gathered:
    evidence: GatheredRows
    sources: tuple[SourceRun, ...]

    @property
    def failed(self) -> tuple[SourceRun, ...]:
        return tuple(s for s in self.sources if s.error is not None)

    def report(self) -> list[dict]:
        return [s.to_dict() for s in self.sources]


def sources_of(evidence: Any) -> list[dict] | None:
    """The Sources panel that came with ``evidence`` from ``gather``: a ``Gathered``, its
    ``GatheredRows``, or an index built from them (``Evidence.raw``); None for other
    evidence."""
    if isinstance(evidence, Gathered):
        return evidence.report()
    raw = getattr(evidence, "raw", evidence)     # an Evidence index keeps what it indexed
    if isinstance(raw, GatheredRows):
        return [dict(s) for s in raw.sources]
    return None


# Rows one routed source may return (``gather(max_rows=...)``). A source over its cap fails
# closed, rather than turn one question into minutes of indexing (100,000 rows took 26 s and
# 430 MB to audit) or be cut to a part of its rows the answer would take for the whole.
DEFAULT_MAX_ROWS = 1000


def gather(policy: Policy, question: str | None, resolver: Any, *, tenant: str | None = None,
           now: dt.datetime | None = None, timeout: float = 2.0,
           max_rows: int | Mapping[str, int] = DEFAULT_MAX_ROWS) -> Gathered:
    """Run the routed sources against ``resolver`` (a SQL resolver from ``open_source``).
    Never raises for a failing source: it is reported in ``sources`` with its error.

    ``max_rows`` caps the rows of each source: one number for all, or a cap per source name
    (a source it does not name keeps ``DEFAULT_MAX_ROWS``). A source that returns more fails
    (its error names the source and the cap), and its rows are not evidence."""
    if isinstance(max_rows, Mapping):
        caps = dict(max_rows)
        default_cap = DEFAULT_MAX_ROWS
    else:
        caps, default_cap = {}, max_rows
    for cap in (default_cap, *caps.values()):
        if isinstance(cap, bool) or not isinstance(cap, int) or cap < 1:
            raise ValueError(f"max_rows must be a positive whole number, not {cap!r}")
    now = now or dt.datetime.now(dt.timezone.utc)
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware")
    text = _normal(question) if isinstance(question, str) else ""
    zone = dates.zone(policy.timezone)     # the instants of the rows are the shop's days
    evidence: dict[str, list[dict[str, Any]]] = {}
    runs = []
    for source in route(policy, question):
        matched = tuple(k for k in source.keywords if text and _keyword_pattern(k).search(text))
        since = now - dt.timedelta(seconds=source.window_seconds) \
            if source.window_seconds is not None else None
        values: dict[str, Any] = {}
        if policy.tenant is not None:
            values[policy.tenant] = tenant
        if since is not None:
            values["since"], values["until"] = since, now
        window = (since.isoformat() if since else None, now.isoformat() if since else None)
        error = None
        rows: list[dict[str, Any]] = []
        if policy.tenant is not None and tenant is None:
            error = "no verified tenant id was given; pass tenant= from the login"
        elif policy.tenant is not None and (not isinstance(tenant, str) or not tenant):
            error = (f"the tenant id must be a non-empty string (the verified user's id as "
                     f"text), not {tenant!r} ({type(tenant).__name__})")
        elif not callable(getattr(resolver, "query", None)):
            error = f"{type(resolver).__name__} cannot run SQL sources"
        else:
            try:
                found = resolver.query(source, values, timeout)
                cap = caps.get(source.name, default_cap)
                if len(found) > cap:
                    error = (f"source {source.name!r} returned {len(found):,} rows, more than "
                             f"{cap:,} rows, its cap (max_rows): narrow its sql or window, or "
                             f"raise the cap, gather(..., max_rows={{{source.name!r}: N}})")
                else:
                    rows = [{k: _plain(v, zone) for k, v in row.items()} for row in found]
            except Exception as exc:    # any failure is reported, and fails the answer closed
                error = str(exc) or type(exc).__name__
        if error is None:
            evidence[source.name] = rows
        runs.append(SourceRun(source.name, *window, rows=len(rows), empty=not rows and not error,
                              matched=matched, error=error))
    return Gathered(GatheredRows(evidence, tuple(r.to_dict() for r in runs)), tuple(runs))


_LARGEST = Decimal("1e308")


def _plain(value: Any, zone: dt.tzinfo | None = None) -> Any:
    """A database value as evidence: a whole Decimal as an int, any other Decimal kept as it is
    (a float would round NUMERIC 1234567890123.456789 to ...123.4568, and the rounded figure
    would be the one licensed; the evidence reader takes Decimals exactly), times as ISO 8601.
    An instant (an aware datetime, or ISO text with its offset) is written in ``zone``, the
    ruleset's: the sweep reads an instant's day and clock in the offset it is written with, so
    a TIMESTAMPTZ of 23:40 UTC on 29 November backs the 30th for a Berlin shop, not the 29th.
    A naive time stays as written.
    NaN, an infinity, a number past 10^308 or one from a single-precision column (FLOAT, REAL:
    the driver may have rounded it) becomes None: that one value licenses nothing,
    while the row's other figures still do (the evidence reader refuses the whole evidence
    for a number JSON cannot hold)."""
    if isinstance(value, Decimal):
        if not value.is_finite() or abs(value) >= _LARGEST:
            return None
        return int(value) if value == value.to_integral_value() else value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, SinglePrecision):     # maybe rounded by the driver: backs nothing
        return None
    if isinstance(value, dt.datetime) and zone is not None and value.utcoffset() is not None:
        return value.astimezone(zone).isoformat()
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, str) and zone is not None and len(value) >= 20 \
            and value[4:5] == "-" and value[10:11] in ("T", " "):    # ISO text with an offset?
        try:
            moment = dt.datetime.fromisoformat(value)
        except ValueError:
            return value
        return moment.astimezone(zone).isoformat() if moment.utcoffset() is not None else value
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return value
