"""Positions, diagnostics and the exception tree.

Diagnostics are values: every stage returns them in a list, and only the public API boundary
turns them into an exception. The exception tree is small on purpose::

    RulekitError                 base of everything rulekit raises
    +-- CompileError             a rules file did not compile; ``.diagnostics`` says why
    +-- ArtifactError            a compiled artifact could not be loaded; the message names the
                                 JSON path and what would fix it

Checking a reply never raises: a failed lookup or an unknown field becomes a fail-closed
``Decision`` with a reason code.

Codes are stable and documented one by one in ``docs/errors.md``:
``RK1xx`` syntax and files, ``RK2xx`` names, ``RK3xx`` types and options, ``RK4xx`` shapes,
sweep and actions, ``RK5xx`` sources, ``RK6xx`` binding figures in free text.
"""

from __future__ import annotations

import dataclasses
from typing import Literal, Sequence

Severity = Literal["error", "warning"]


@dataclasses.dataclass(frozen=True, slots=True, order=True)
class Span:
    """A range of characters in one source file. Lines and columns are 1-based; the end column
    is exclusive. ``start`` and ``end`` are character offsets into the decoded text."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    start: int = 0
    end: int = 0

    def at(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"

    def shifted(self, offset: int, length: int) -> "Span":
        """A span of ``length`` characters, ``offset`` characters into this single-line span."""
        column = self.column + offset
        return Span(self.path, self.line, column, self.line, column + length,
                    self.start + offset, self.start + offset + length)


# Every code rulekit can emit, with the one-line title used in docs/errors.md. A test checks that
# each one is documented and that the compiler emits no code missing from this table.
CODES: dict[str, str] = {
    "RK101": "unexpected token",
    "RK102": "unexpected character",
    "RK103": "unexpected end of file",
    "RK104": "file is not valid UTF-8",
    "RK105": "file too large",
    "RK106": "unterminated string",
    "RK107": "invalid escape in a string",
    "RK108": "file cannot be read",
    "RK109": "too many errors",
    "RK201": "duplicate name",
    "RK202": "unknown entity",
    "RK203": "unknown field",
    "RK204": "unknown alias table",
    "RK205": "unknown fallback",
    "RK206": "unknown input",
    "RK207": "import not found",
    "RK208": "import cycle",
    "RK209": "no ruleset header",
    "RK210": "unknown setting",
    "RK211": "missing or invalid key",
    "RK212": "field is not readable",
    "RK213": "more than one ruleset header",
    "RK214": "ruleset without a version",
    "RK301": "unknown type",
    "RK302": "option does not apply to this type",
    "RK303": "unknown option",
    "RK304": "invalid option value",
    "RK305": "unknown locale",
    "RK306": "unknown currency",
    "RK307": "unknown time zone",
    "RK308": "option given twice",
    "RK309": "conflicting options",
    "RK310": "invalid freshness",
    "RK311": "placeholder does not fit the field's type",
    "RK312": "invalid format pattern",
    "RK313": "locale's words not read",
    "RK401": "alias mapped to two values",
    "RK402": "slot without a binding",
    "RK403": "binding without a slot",
    "RK404": "malformed template",
    "RK405": "unknown prose policy",
    "RK406": "unknown sweep setting",
    "RK407": "unknown outcome",
    "RK408": "unhandled outcome",
    "RK409": "unreachable rule",
    "RK410": "invalid action",
    "RK411": "unknown placeholder in a message",
    "RK412": "unused declaration",
    "RK413": "enum value without a label",
    "RK414": "invalid forbidden phrase",
    "RK501": "SQL does not parse",
    "RK502": "not one read-only SELECT",
    "RK503": "function or table not allowed in SQL",
    "RK504": "unknown or misplaced SQL parameter",
    "RK505": "query does not return the fields",
    "RK506": "query not scoped to the tenant",
    "RK507": "query cannot be written for a dialect",
    "RK509": "no default source",
    "RK510": "unknown SQL dialect",
    "RK511": "invalid table name",
    "RK512": "source cannot run",
    "RK601": "invalid evidence path",
    "RK602": "binding on an entity not in the evidence",
    "RK603": "field words on a field that is not a number or a date",
    "RK604": "malformed word or form",
    "RK605": "word names two fields",
    "RK606": "unknown slot in a form",
    "RK607": "unknown or misused function",
    "RK608": "unknown derived figure",
    "RK609": "field word names another currency",
}


@dataclasses.dataclass(frozen=True, slots=True)
class Diagnostic:
    code: str
    message: str
    span: Span | None
    hint: str | None = None
    severity: Severity = "error"

    def sort_key(self) -> tuple:
        span = self.span
        if span is None:
            return ("", 0, 0, self.code, self.message)
        return (span.path, span.line, span.column, self.code, self.message)

    def render(self, source: str | None = None) -> str:
        """The text a user sees: ``path:line:col: error[RKnnn]: message``, the source line, a
        caret run under the span, and the hint."""
        where = self.span.at() if self.span else "rulekit"
        lines = [f"{where}: {self.severity}[{self.code}]: {self.message}"]
        if self.span is not None and source is not None:
            lines.extend(_excerpt(self.span, source))
        if self.hint:
            lines.append(f"  hint: {self.hint}")
        return "\n".join(lines)

    def to_json(self) -> dict:
        out: dict = {"code": self.code, "severity": self.severity, "message": self.message}
        if self.span is not None:
            out.update(path=self.span.path, line=self.span.line, column=self.span.column,
                       end_line=self.span.end_line, end_column=self.span.end_column)
        if self.hint:
            out["hint"] = self.hint
        return out


def _printable(text: str) -> str:
    """Replace characters that would break the caret alignment or a terminal."""
    return "".join(c if c == "\t" or c.isprintable() else "\ufffd" for c in text)


def _excerpt(span: Span, source: str) -> list[str]:
    source_lines = source.split("\n")
    if not 1 <= span.line <= len(source_lines):
        return []
    text = _printable(source_lines[span.line - 1].rstrip("\r"))
    gutter = f"{span.line:>4} | "
    start = max(span.column - 1, 0)
    if span.end_line == span.line:
        stop = max(span.end_column - 1, start + 1)
    else:
        stop = max(len(text), start + 1)
    # Keep tabs in the padding so the carets line up under the same columns.
    padding = "".join(c if c == "\t" else " " for c in text[:start])
    padding += " " * max(0, start - len(text))
    return [gutter + text, " " * (len(gutter) - 2) + "| " + padding + "^" * (stop - start)]


def render_all(diagnostics: Sequence[Diagnostic], sources: dict[str, str]) -> str:
    return "\n\n".join(d.render(sources.get(d.span.path) if d.span else None)
                       for d in diagnostics)


def summary(diagnostics: Sequence[Diagnostic]) -> str:
    errors = sum(1 for d in diagnostics if d.severity == "error")
    warnings = len(diagnostics) - errors
    parts = [f"{errors} error{'s' if errors != 1 else ''}"]
    if warnings:
        parts.append(f"{warnings} warning{'s' if warnings != 1 else ''}")
    return ", ".join(parts)


class RulekitError(Exception):
    """Base of every exception rulekit raises."""


class CompileError(RulekitError):
    """A rules file did not compile. ``diagnostics`` holds every problem found, sorted."""

    def __init__(self, diagnostics: Sequence[Diagnostic], sources: dict[str, str] | None = None):
        self.diagnostics = tuple(diagnostics)
        self.sources = dict(sources or {})
        super().__init__(render_all(self.diagnostics, self.sources))


class ArtifactError(RulekitError):
    """A compiled artifact is missing, corrupt, edited after compile (its ``artifact_sha256``
    does not match), or from an incompatible format version."""
