"""Reading the decision log back: outcome rates per field, and the early warnings.

    rulekit stats decisions.jsonl [--window 1d|500] [--threshold 0.05] [--format json]
                                  [--html report.html]

Seed 002 names the two signals this module computes from ``rulekit.log`` lines:

- "The rates of confirmed, contradicted and not-found per field are the best hallucination
  monitor you will ever get ... A field whose contradiction rate jumps is either a model
  regression or a schema change, and both are worth a page." For each ``entity.field`` the
  rates of each outcome, the count of each action of the decisions it was claimed in, and a
  flag when its contradiction rate in the latest window rose over the previous window by more
  than ``threshold`` (in rate points: 0.05 is five points).
- "Count the slots. A template with a great deal of prose and one slot is a model routing round
  the mechanism. Alert on the ratio; it moves before anybody notices the content." The words of
  prose per slot, per template and per window, flagged when the latest window's mean rose over
  the previous one's by more than ``prose_threshold`` (relative: 0.25 is a quarter).

Windows are either spans of time (``1d``, ``6h``, ``30m``, aligned to the Unix epoch in UTC, so
two runs over the same log cut it the same way) or counts of lines (``500``: the first 500
decisions, the next 500, ...). Either way the latest window is the one holding the latest
decision, usually still filling up: rates, not counts, are compared, and a field with fewer
than ``min_claims`` claims in either window is not judged ("too few claims"), so one
contradicted claim out of two is not a page.

The log is read once, line by line, and only counts are kept: memory grows with the number of
fields, templates and windows, not with the log. A line that is not a log line (not JSON, a
field missing, a torn write) is counted and reported with its line number, never fatal.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import html
import json
import math
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any, BinaryIO

from rulekit.files import capped_lines
from rulekit.terminal import one_line

__all__ = ["OUTCOMES", "Stats", "Window", "compute", "parse_threshold", "parse_window",
           "read_lines", "render_html", "render_text"]

# The outcomes the issue asks rates of, then the rest a claim can have.
RATED = ("confirmed", "contradicted", "not_found", "stale")
OUTCOMES = RATED + ("not_checkable",)

MAX_BAD_SHOWN = 20          # bad lines listed (all are counted)
MAX_TEMPLATES_SHOWN = 20    # templates listed, the most used first (all are counted)
MAX_WINDOWS_SHOWN = 60      # windows per chart and per JSON series, the latest ones
MAX_LINE = 1_000_000        # characters; a longer line is not one the log wrote
MAX_LINE_BYTES = 4 * MAX_LINE   # the most such a line takes in UTF-8; a longer one is not read

DEFAULT_WINDOW = "1d"
DEFAULT_THRESHOLD = 0.05
DEFAULT_MIN_CLAIMS = 10
DEFAULT_PROSE_THRESHOLD = 0.25

_UNITS = {"s": 1, "m": 60, "min": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


# --- options -----------------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Window:
    """How the log is cut: ``seconds`` of time, or ``lines`` decisions."""
    seconds: int | None = None
    lines: int | None = None
    text: str = DEFAULT_WINDOW

    def describe(self) -> str:
        return f"windows of {self.lines} decisions" if self.lines else f"windows of {self.text}"


def parse_window(text: str) -> Window:
    """``1d``, ``6h``, ``30m``, ``90s``, ``2w``: a span of time; a bare count such as ``500``:
    that many decisions. Raises ``ValueError`` with the accepted forms."""
    raw = str(text).strip().lower()
    match = re.fullmatch(r"(\d+)\s*(s|m|min|h|d|w)?", raw)
    if not match or int(match.group(1)) <= 0:
        raise ValueError(f"--window {text!r} is not a window: give a span of time such as 1d, "
                         "6h or 30m, or a number of decisions such as 500")
    count, unit = int(match.group(1)), match.group(2)
    if unit is None:
        return Window(lines=count, text=raw)
    return Window(seconds=count * _UNITS[unit], text=raw)


def parse_threshold(text: str, name: str = "--threshold") -> float:
    """``0.05`` or ``5%``; a rate rise, so between 0 and 1 (or a relative rise, above 0)."""
    raw = str(text).strip()
    try:
        value = float(raw[:-1]) / 100 if raw.endswith("%") else float(raw)
    except ValueError:
        raise ValueError(f"{name} {text!r} is not a number: give e.g. 0.05 or 5%") from None
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"{name} {text!r} must be 0 or more, e.g. 0.05 or 5%")
    return value


# --- counting ----------------------------------------------------------------------------------

@dataclasses.dataclass
class _Field:
    outcomes: Counter = dataclasses.field(default_factory=Counter)
    actions: Counter = dataclasses.field(default_factory=Counter)
    # window -> [claims, contradicted]
    windows: dict[int, list[int]] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass
class _Template:
    text: str
    slots: int
    uses: int = 0
    ratio_sum: float = 0.0
    ratio_max: float = 0.0


@dataclasses.dataclass
class Stats:
    """Everything ``rulekit stats`` reports, from one pass over a log. ``to_dict`` is the JSON
    output; ``render_text`` and ``render_html`` the others."""
    window: Window
    threshold: float
    min_claims: int
    prose_threshold: float
    decisions: int = 0
    claims: int = 0
    bad_count: int = 0
    bad: list[tuple[int, str]] = dataclasses.field(default_factory=list)
    first: dt.datetime | None = None
    last: dt.datetime | None = None
    actions: Counter = dataclasses.field(default_factory=Counter)
    kinds: Counter = dataclasses.field(default_factory=Counter)
    findings: Counter = dataclasses.field(default_factory=Counter)
    rejudged: int = 0
    fields: dict[str, _Field] = dataclasses.field(default_factory=dict)
    templates: dict[str, _Template] = dataclasses.field(default_factory=dict)
    # window -> [decisions, first time, last time]
    windows: dict[int, list] = dataclasses.field(default_factory=dict)
    # window -> [templated decisions, sum of prose per slot]
    prose: dict[int, list] = dataclasses.field(default_factory=dict)

    # -- reading --

    def add_line(self, number: int, text: str | None) -> None:
        """One line of the log (None: one too long to read, from ``read_lines``); a bad one is
        counted with its line number."""
        if text is not None and not text.strip():
            return
        try:
            self._add(json.loads(text) if text is not None and len(text) <= MAX_LINE
                      else _too_long(text))
        except Exception as exc:    # whatever is wrong with a line, the report goes on
            self.bad_count += 1
            if len(self.bad) < MAX_BAD_SHOWN:
                self.bad.append((number, _describe(exc)))

    def _add(self, line: Any) -> None:
        if not isinstance(line, dict):
            raise _Bad(f"a log line is a JSON object, not {type(line).__name__}")
        moment = _time(line.get("time"))
        action = line.get("action")
        if not isinstance(action, str) or not action:
            raise _Bad("no action")
        claims = _claims(line.get("claims"))
        template = _template(line.get("template"))
        rejudged = line.get("rejudged") is True
        # Validated: only now is anything counted, so a bad line leaves no trace.
        window = self._window(moment)
        self.decisions += 1
        self.first = moment if self.first is None or moment < self.first else self.first
        self.last = moment if self.last is None or moment > self.last else self.last
        span = self.windows.setdefault(window, [0, moment, moment])
        span[0] += 1
        span[1], span[2] = min(span[1], moment), max(span[2], moment)
        self.actions[action] += 1
        self.kinds[str(line.get("kind"))] += 1
        for finding in line.get("findings") or ():
            if isinstance(finding, dict) and isinstance(finding.get("code"), str):
                self.findings[finding["code"]] += 1
        if rejudged:
            # The same reply judged again after a budget ran out: its action is the final one,
            # its claims were counted the first time.
            self.rejudged += 1
            return
        for name in dict.fromkeys(name for name, _ in claims):
            self.fields.setdefault(name, _Field()).actions[action] += 1
        for name, outcome in claims:
            field = self.fields[name]
            field.outcomes[outcome] += 1
            counts = field.windows.setdefault(window, [0, 0])
            counts[0] += 1
            counts[1] += outcome == "contradicted"
            self.claims += 1
        if template is not None:
            template_id, text, slots, ratio = template
            seen = self.templates.get(template_id)
            if seen is None:
                seen = self.templates[template_id] = _Template(text, slots)
            seen.uses += 1
            seen.ratio_sum += ratio
            seen.ratio_max = max(seen.ratio_max, ratio)
            totals = self.prose.setdefault(window, [0, 0.0])
            totals[0] += 1
            totals[1] += ratio

    def _window(self, moment: dt.datetime) -> int:
        if self.window.lines:
            return self.decisions // self.window.lines
        return math.floor(moment.timestamp() / self.window.seconds)

    # -- the windows compared --

    def window_keys(self) -> list[int]:
        """Every window from the first to the latest, gaps included, the latest
        ``MAX_WINDOWS_SHOWN`` of them."""
        if not self.windows:
            return []
        latest = max(self.windows)
        return list(range(max(min(self.windows), latest - MAX_WINDOWS_SHOWN + 1), latest + 1))

    def window_label(self, key: int) -> str:
        if self.window.lines:
            start = key * self.window.lines + 1
            return f"decisions {start}-{start + self.window.lines - 1}"
        start = dt.datetime.fromtimestamp(key * self.window.seconds, dt.timezone.utc)
        return _short_time(start, self.window.seconds)

    def latest_pair(self) -> tuple[int | None, int | None]:
        if not self.windows:
            return None, None
        latest = max(self.windows)
        return latest, latest - 1

    def field_report(self, name: str) -> dict:
        field = self.fields[name]
        claims = sum(field.outcomes.values())
        rates = {o: _rate(field.outcomes[o], claims) for o in OUTCOMES}
        other = claims - sum(field.outcomes[o] for o in OUTCOMES)
        rates["other"] = _rate(other, claims)
        latest, previous = self.latest_pair()
        now = field.windows.get(latest, [0, 0])
        before = field.windows.get(previous, [0, 0])
        latest_rate, previous_rate = _rate(now[1], now[0]), _rate(before[1], before[0])
        if now[0] < self.min_claims or before[0] < self.min_claims:
            status, rise = "too_few_claims", None
        else:
            rise = round(latest_rate - previous_rate, 6)
            status = "rising" if rise > self.threshold else "ok"
        return {"claims": claims, "counts": {o: field.outcomes[o] for o in OUTCOMES} | {
                    "other": other},
                "rates": rates,
                "actions": dict(field.actions.most_common()),
                "latest": {"window": self.window_label(latest) if latest is not None else None,
                           "claims": now[0], "contradicted": now[1],
                           "contradiction_rate": latest_rate},
                "previous": {"window": self.window_label(previous)
                             if previous is not None else None,
                             "claims": before[0], "contradicted": before[1],
                             "contradiction_rate": previous_rate},
                "rise": rise, "status": status, "flagged": status == "rising",
                "windows": [{"window": self.window_label(k),
                             "claims": field.windows.get(k, [0, 0])[0],
                             "contradicted": field.windows.get(k, [0, 0])[1],
                             "contradiction_rate": _rate(field.windows.get(k, [0, 0])[1],
                                                         field.windows.get(k, [0, 0])[0])
                             if k in field.windows else None}
                            for k in self.window_keys()]}

    def prose_report(self) -> dict:
        uses = sum(t.uses for t in self.templates.values())
        total = sum(t.ratio_sum for t in self.templates.values())
        latest, previous = self.latest_pair()
        now = self.prose.get(latest, [0, 0.0])
        before = self.prose.get(previous, [0, 0.0])
        latest_mean = _mean(now[1], now[0])
        previous_mean = _mean(before[1], before[0])
        if now[0] < self.min_claims or before[0] < self.min_claims:
            status, rise = "too_few_templates", None
        else:
            rise = round(latest_mean - previous_mean, 6)
            status = "rising" if latest_mean > previous_mean * (1 + self.prose_threshold) \
                else "ok"
        ranked = sorted(self.templates.items(), key=lambda item: (-item[1].uses, item[0]))
        return {"templated_decisions": uses, "templates": len(self.templates),
                "mean_prose_per_slot": _mean(total, uses),
                "latest": {"window": self.window_label(latest) if latest is not None else None,
                           "decisions": now[0], "mean_prose_per_slot": latest_mean},
                "previous": {"window": self.window_label(previous)
                             if previous is not None else None,
                             "decisions": before[0], "mean_prose_per_slot": previous_mean},
                "rise": rise, "status": status, "flagged": status == "rising",
                "windows": [{"window": self.window_label(k),
                             "decisions": self.prose.get(k, [0, 0.0])[0],
                             "mean_prose_per_slot": _mean(self.prose[k][1], self.prose[k][0])
                             if k in self.prose else None}
                            for k in self.window_keys()],
                "top": [{"id": key, "uses": t.uses, "slots": t.slots,
                         "mean_prose_per_slot": _mean(t.ratio_sum, t.uses),
                         "max_prose_per_slot": round(t.ratio_max, 3), "text": t.text}
                        for key, t in ranked[:MAX_TEMPLATES_SHOWN]]}

    def to_dict(self) -> dict:
        fields = {name: self.field_report(name) for name in sorted(self.fields)}
        prose = self.prose_report()
        return {"decisions": self.decisions, "claims": self.claims,
                "first": _iso(self.first), "last": _iso(self.last),
                "window": {"text": self.window.text, "seconds": self.window.seconds,
                           "lines": self.window.lines},
                "threshold": self.threshold, "min_claims": self.min_claims,
                "prose_threshold": self.prose_threshold,
                "actions": dict(self.actions.most_common()),
                "kinds": dict(self.kinds.most_common()),
                "findings": dict(self.findings.most_common()),
                "rejudged": self.rejudged,
                "fields": fields,
                "flagged": [name for name, report in fields.items() if report["flagged"]],
                "prose_per_slot": prose,
                "bad_lines": {"count": self.bad_count,
                              "shown": [{"line": n, "error": e} for n, e in self.bad]}}


class _Bad(ValueError):
    """A line that parses but is not a log line."""


def _too_long(text: str | None) -> Any:
    length = (f"longer than {MAX_LINE_BYTES:,} bytes" if text is None else
              f"{len(text):,} characters long")
    raise _Bad(f"the line is {length}; the log never writes one over {MAX_LINE:,} characters")


def _describe(exc: Exception) -> str:
    if isinstance(exc, _Bad):
        return str(exc)
    if isinstance(exc, json.JSONDecodeError):
        return f"not JSON ({exc.msg} at column {exc.colno})"
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    return f"{exc.__class__.__name__}: {exc}"[:200]


def _time(value: Any) -> dt.datetime:
    if not isinstance(value, str):
        raise _Bad("no time")
    try:
        moment = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise _Bad(f"time {value[:40]!r} is not ISO 8601") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.timezone.utc)


def _claims(value: Any) -> list[tuple[str, str]]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise _Bad("claims is not a list")
    found = []
    for index, claim in enumerate(value):
        if not isinstance(claim, dict):
            raise _Bad(f"claims[{index}] is not an object")
        entity, field, outcome = claim.get("entity"), claim.get("field"), claim.get("outcome")
        if not all(isinstance(v, str) and v for v in (entity, field, outcome)):
            raise _Bad(f"claims[{index}] lacks entity, field or outcome")
        found.append((f"{entity}.{field}", outcome))
    return found


def _template(value: Any) -> tuple[str, str, int, float] | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise _Bad("template is not an object")
    ratio, slots = value.get("prose_per_slot"), value.get("slots")
    if isinstance(ratio, bool) or not isinstance(ratio, (int, float)) or not math.isfinite(ratio) \
            or isinstance(slots, bool) or not isinstance(slots, int):
        raise _Bad("template lacks prose_per_slot or slots")
    text = value.get("text") if isinstance(value.get("text"), str) else ""
    return str(value.get("id") or text), text, slots, float(ratio)


def _rate(part: int, whole: int) -> float:
    return round(part / whole, 6) if whole else 0.0


def _mean(total: float, count: int) -> float:
    return round(total / count, 3) if count else 0.0


def _iso(moment: dt.datetime | None) -> str | None:
    if moment is None:
        return None
    return moment.astimezone(dt.timezone.utc).isoformat().replace("+00:00", "Z")


def _short_time(moment: dt.datetime, seconds: int) -> str:
    if seconds % 86400 == 0:
        return moment.strftime("%Y-%m-%d")
    if seconds % 60 == 0:
        return moment.strftime("%Y-%m-%d %H:%M")
    return moment.strftime("%Y-%m-%d %H:%M:%S")


def read_lines(stream: BinaryIO) -> Iterator[str | None]:
    """The lines of a log opened in binary, decoded (a byte that is not UTF-8 replaced), each
    read no further than ``MAX_LINE_BYTES``: a longer one (a log of NULs without a newline) is
    None, skipped in pieces and never held whole."""
    for line in capped_lines(stream, MAX_LINE_BYTES):
        yield None if line is None else line.decode("utf-8", "replace")


def compute(lines: Iterable[str | None], *, window: Window | str = DEFAULT_WINDOW,
            threshold: float = DEFAULT_THRESHOLD, min_claims: int = DEFAULT_MIN_CLAIMS,
            prose_threshold: float = DEFAULT_PROSE_THRESHOLD) -> Stats:
    """The statistics of a log given as lines (``read_lines`` of a file, a list of strings).
    Never raises on what the lines hold; options are checked by ``parse_window`` and
    ``parse_threshold``. A byte order mark before the first line is dropped."""
    if isinstance(window, str):
        window = parse_window(window)
    stats = Stats(window=window, threshold=threshold, min_claims=min_claims,
                  prose_threshold=prose_threshold)
    for number, text in enumerate(lines, 1):
        if number == 1 and text is not None:
            text = text.removeprefix("\ufeff")
        stats.add_line(number, text)
    return stats


# --- text --------------------------------------------------------------------------------------

def _pct(rate: float) -> str:
    return f"{rate * 100:.1f}%"


def _table(rows: list[tuple], right: set[int]) -> list[str]:
    rows = [tuple(one_line(cell) for cell in row) for row in rows]     # the log's strings
    widths = [max(len(str(row[i])) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(str(cell).rjust(w) if i in right else str(cell).ljust(w)
                      for i, (cell, w) in enumerate(zip(row, widths))).rstrip() for row in rows]


def render_text(stats: Stats, source: str = "LOG") -> str:
    report = stats.to_dict()
    out = [f"{source}: {stats.decisions:,} decisions, {stats.claims:,} claims"
           + (f", {_iso(stats.first)} to {_iso(stats.last)}" if stats.first else "")
           + f"; {stats.window.describe()}"]
    if stats.bad_count:
        out[0] += f"; {stats.bad_count:,} bad line{'s' if stats.bad_count != 1 else ''}"
    out.append("")
    if report["fields"]:
        rows = [("field", "claims", "confirmed", "contradicted", "not_found", "stale", "other",
                 "contradicted: previous -> latest", "actions")]
        for name, field in report["fields"].items():
            rates = field["rates"]
            trend = (f"{_pct(field['previous']['contradiction_rate'])} -> "
                     f"{_pct(field['latest']['contradiction_rate'])}")
            if field["status"] == "rising":
                trend += f"  RISING (+{field['rise'] * 100:.1f} points)"
            elif field["status"] == "too_few_claims":
                trend += "  (too few claims)"
            actions = ", ".join(f"{a} {n}" for a, n in field["actions"].items())
            rows.append((name, f"{field['claims']:,}", _pct(rates["confirmed"]),
                         _pct(rates["contradicted"]), _pct(rates["not_found"]),
                         _pct(rates["stale"]),
                         _pct(rates["not_checkable"] + rates["other"]), trend, actions))
        out += _table(rows, {1, 2, 3, 4, 5, 6})
    else:
        out.append("no claims in the log")
    out.append("")
    out.append("actions: " + (", ".join(f"{a} {n:,}" for a, n in report["actions"].items())
                              or "none"))
    if report["rejudged"]:
        out.append(f"  {report['rejudged']:,} of them re-judged a reply after a budget ran out "
                   "(their claims are counted once)")
    if report["findings"]:
        out.append("findings: " + ", ".join(f"{c} {n:,}" for c, n in report["findings"].items()))
    if report["flagged"]:
        out.append(f"flagged: {', '.join(report['flagged'])}: the contradiction rate rose by "
                   f"more than {stats.threshold * 100:g} points between the last two windows")
    prose = report["prose_per_slot"]
    out.append("")
    if prose["templated_decisions"]:
        line = (f"prose words per slot (seed 002's early warning): mean "
                f"{prose['mean_prose_per_slot']} over {prose['templated_decisions']:,} "
                f"templates; previous window {prose['previous']['mean_prose_per_slot']} -> latest "
                f"{prose['latest']['mean_prose_per_slot']}")
        if prose["status"] == "rising":
            line += f"  RISING (more than {stats.prose_threshold * 100:g}% up)"
        elif prose["status"] == "too_few_templates":
            line += "  (too few templates to compare)"
        out.append(line)
        rows = [("template", "uses", "slots", "words/slot", "max", "text")]
        for t in prose["top"]:
            rows.append((t["id"], f"{t['uses']:,}", t["slots"], t["mean_prose_per_slot"],
                         t["max_prose_per_slot"], _clip(t["text"], 70)))
        out += ["  " + row for row in _table(rows, {1, 2, 3, 4})]
        if prose["templates"] > len(prose["top"]):
            out.append(f"  and {prose['templates'] - len(prose['top']):,} more templates")
    else:
        out.append("prose words per slot: no templates in the log")
    if stats.bad_count:
        out.append("")
        out.append(f"bad lines: {stats.bad_count:,}")
        out += [f"  line {n}: {e}" for n, e in stats.bad]
        if stats.bad_count > len(stats.bad):
            out.append(f"  and {stats.bad_count - len(stats.bad):,} more")
    # What the log holds (a field's name, an action, a template) is shown with its control
    # characters as escapes: no line of it can pass for one of the report's, nor rewrite the
    # terminal. Each item of ``out`` is one line.
    return "\n".join(one_line(line) for line in out)


def _clip(text: str, width: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[:width - 1] + "…"


# --- HTML --------------------------------------------------------------------------------------

_CSS = """
body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:72em}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:2em}
table{border-collapse:collapse;margin:1em 0}td,th{padding:.25em .6em;border-bottom:1px solid #ddd;
text-align:right}td:first-child,th:first-child{text-align:left}
.flag{color:#b00;font-weight:bold}.muted{color:#777}
figure{display:inline-block;margin:1em 1.5em 1em 0;vertical-align:top}
figcaption{font-size:.9em;margin-bottom:.3em}
"""


def _escaped(text: object) -> str:
    """Text for the page: HTML's specials escaped, and control characters (which XML does not
    allow, and a lone surrogate, which UTF-8 cannot hold) shown as escapes."""
    return html.escape(one_line(text))


def render_html(stats: Stats, source: str = "LOG") -> str:
    """A static page: a table of the rates, one chart per field of its contradiction rate per
    window, and one of the prose per slot. Inline SVG and CSS only: no script, no server, and
    well-formed XML, so any parser reads it."""
    report = stats.to_dict()
    e = _escaped
    parts = ['<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml" lang="en">',
             '<head><meta charset="utf-8"/>',
             f"<title>rulekit stats: {e(source)}</title>",
             f"<style>{_CSS}</style></head><body>",
             f"<h1>rulekit stats: {e(source)}</h1>",
             f"<p>{stats.decisions:,} decisions, {stats.claims:,} claims"
             + (f", {e(_iso(stats.first))} to {e(_iso(stats.last))}" if stats.first else "")
             + f"; {e(stats.window.describe())}; a field is flagged when its contradiction rate "
             f"rose by more than {stats.threshold * 100:g} points between the last two windows "
             f"(with at least {stats.min_claims} claims in each).</p>"]
    if report["flagged"]:
        parts.append(f'<p class="flag">Flagged: {e(", ".join(report["flagged"]))}</p>')
    parts.append("<h2>Outcomes per field</h2>")
    if report["fields"]:
        parts.append("<table><tr><th>field</th><th>claims</th><th>confirmed</th>"
                     "<th>contradicted</th><th>not_found</th><th>stale</th><th>other</th>"
                     "<th>contradicted, previous → latest</th><th>actions</th></tr>")
        for name, field in report["fields"].items():
            rates = field["rates"]
            status = {"rising": '<span class="flag">rising</span>',
                      "too_few_claims": '<span class="muted">too few claims</span>'}.get(
                          field["status"], "")
            parts.append(
                f"<tr><td>{e(name)}</td><td>{field['claims']:,}</td>"
                f"<td>{_pct(rates['confirmed'])}</td><td>{_pct(rates['contradicted'])}</td>"
                f"<td>{_pct(rates['not_found'])}</td><td>{_pct(rates['stale'])}</td>"
                f"<td>{_pct(rates['not_checkable'] + rates['other'])}</td>"
                f"<td>{_pct(field['previous']['contradiction_rate'])} → "
                f"{_pct(field['latest']['contradiction_rate'])} {status}</td>"
                f"<td>{e(', '.join(f'{a} {n}' for a, n in field['actions'].items()))}</td></tr>")
        parts.append("</table>")
        parts.append("<h2>Contradiction rate per window</h2>")
        for name, field in report["fields"].items():
            points = [(w["window"], w["contradiction_rate"], w["claims"])
                      for w in field["windows"]]
            parts.append(_chart(name, points, "field-chart", "contradiction rate",
                                field["flagged"], percent=True))
    else:
        parts.append("<p>No claims in the log.</p>")
    parts.append("<h2>Actions</h2><p>" + (e(", ".join(
        f"{a} {n:,}" for a, n in report["actions"].items())) or "none") + "</p>")
    prose = report["prose_per_slot"]
    parts.append("<h2>Prose words per slot (seed 002's early warning)</h2>")
    if prose["templated_decisions"]:
        parts.append(f"<p>Mean {prose['mean_prose_per_slot']} over "
                     f"{prose['templated_decisions']:,} templates; previous window "
                     f"{prose['previous']['mean_prose_per_slot']} → latest "
                     f"{prose['latest']['mean_prose_per_slot']}"
                     + (' <span class="flag">rising</span>' if prose["flagged"] else "")
                     + "</p>")
        points = [(w["window"], w["mean_prose_per_slot"], w["decisions"])
                  for w in prose["windows"]]
        parts.append(_chart("all templates", points, "template-chart", "prose words per slot",
                            prose["flagged"], percent=False))
        parts.append("<table><tr><th>template</th><th>uses</th><th>slots</th>"
                     "<th>words/slot</th><th>max</th><th>text</th></tr>")
        for t in prose["top"]:
            parts.append(f"<tr><td>{e(t['id'])}</td><td>{t['uses']:,}</td><td>{t['slots']}</td>"
                         f"<td>{t['mean_prose_per_slot']}</td><td>{t['max_prose_per_slot']}</td>"
                         f'<td style="text-align:left">{e(t["text"])}</td></tr>')
        parts.append("</table>")
    else:
        parts.append("<p>No templates in the log.</p>")
    if stats.bad_count:
        parts.append(f"<h2>Bad lines: {stats.bad_count:,}</h2><ul>")
        parts += [f"<li>line {n}: {e(err)}</li>" for n, err in stats.bad]
        parts.append("</ul>")
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _chart(title: str, points: list[tuple[str, float | None, int]], css_class: str,
           what: str, flagged: bool, *, percent: bool) -> str:
    """One line chart as inline SVG: a point per window that has data, joined where windows
    follow each other; each point's tooltip gives its window, value and count."""
    width, height, left, right, top, bottom = 360, 160, 44, 10, 12, 28
    values = [v for _, v, _ in points if v is not None]
    ceiling = max(values, default=0.0)
    ceiling = (min(1.0, max(0.05, ceiling * 1.15)) if percent
               else max(1.0, ceiling * 1.15))
    span_x = width - left - right
    span_y = height - top - bottom
    count = max(len(points), 1)

    def x(i: int) -> float:
        return left + (span_x * (i + 0.5) / count)

    def y(value: float) -> float:
        return top + span_y * (1 - value / ceiling)

    shown = (lambda v: f"{v * 100:.1f}%") if percent else (lambda v: f"{v:g}")
    e = _escaped
    colour = "#b00" if flagged else "#2a6fb0"
    svg = [f'<figure class="{css_class}"><figcaption>{e(title)}'
           + (' <span class="flag">(flagged)</span>' if flagged else "") + "</figcaption>",
           f'<svg xmlns="http://www.w3.org/2000/svg" class="{css_class}" width="{width}" '
           f'height="{height}" viewBox="0 0 {width} {height}" role="img" '
           f'aria-label="{e(what)} of {e(title)} per window">',
           f'<line x1="{left}" y1="{top + span_y}" x2="{width - right}" y2="{top + span_y}" '
           'stroke="#999"/>',
           f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + span_y}" stroke="#999"/>',
           f'<text x="{left - 4}" y="{top + 4}" font-size="10" text-anchor="end">'
           f"{e(shown(ceiling))}</text>",
           f'<text x="{left - 4}" y="{top + span_y}" font-size="10" text-anchor="end">'
           f"{e(shown(0.0))}</text>"]
    if points:
        svg.append(f'<text x="{left}" y="{height - 8}" font-size="10">{e(points[0][0])}</text>')
        if len(points) > 1:
            svg.append(f'<text x="{width - right}" y="{height - 8}" font-size="10" '
                       f'text-anchor="end">{e(points[-1][0])}</text>')
    run: list[str] = []
    runs: list[list[str]] = []
    for i, (_, value, _) in enumerate(points):
        if value is None:
            if run:
                runs.append(run)
            run = []
        else:
            run.append(f"{x(i):.1f},{y(value):.1f}")
    if run:
        runs.append(run)
    for segment in runs:
        if len(segment) > 1:
            svg.append(f'<polyline fill="none" stroke="{colour}" stroke-width="1.5" '
                       f'points="{" ".join(segment)}"/>')
    for i, (label, value, n) in enumerate(points):
        if value is not None:
            svg.append(f'<circle cx="{x(i):.1f}" cy="{y(value):.1f}" r="2.5" fill="{colour}">'
                       f"<title>{e(label)}: {e(shown(value))} ({n:,})</title></circle>")
    svg.append("</svg></figure>")
    return "\n".join(svg)

