"""AST -> Policy, through an ordered tuple of named stages.

Each stage reads the ``Compilation`` and adds diagnostics; none stops the run, so a user sees
every problem of a ruleset at once (sorted by position, capped at ``max_errors``). The last
stage builds the immutable ``Policy`` only when no error was found.

    resolve_imports -> collect_names -> check_header -> check_types -> check_entities
    -> check_aliases -> check_templates -> check_prose -> check_sweep -> check_actions
    -> check_sources -> check_binding -> report_unused -> build_policy
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from rulekit import policy as P
from rulekit.errors import CompileError, Diagnostic
from rulekit.stages.binding import check_binding
from rulekit.stages.build import build_policy
from rulekit.stages.context import (  # noqa: F401  (re-exported: the compile API as it was)
    MAX_ERRORS, CompileResult, Compilation, FieldInfo, Unit, fold, suggest)
from rulekit.stages.fields import check_aliases, check_entities, check_types
from rulekit.stages.imports import check_header, collect_names, resolve_imports
from rulekit.stages.sources import check_sources
from rulekit.stages.usage import (  # noqa: F401
    check_actions, check_field_ref, check_prose, check_sweep, check_templates, report_unused)

STAGES: tuple[Callable[[Compilation], None], ...] = (
    resolve_imports,
    collect_names,
    check_header,
    check_types,
    check_entities,
    check_aliases,
    check_templates,
    check_prose,
    check_sweep,
    check_actions,
    check_sources,
    check_binding,
    report_unused,
    build_policy,
)


# --- entry points -----------------------------------------------------------------------------

def _run(c: Compilation, max_errors: int) -> CompileResult:
    for stage in STAGES:
        stage(c)
        if not c.units:     # the root did not parse; later stages have nothing to judge
            break
    diagnostics = sorted(set(c.diagnostics), key=Diagnostic.sort_key)
    errors = [d for d in diagnostics if d.severity == "error"]
    if len(errors) > max_errors:
        cut = errors[max_errors - 1]
        kept = [d for d in diagnostics if d.sort_key() <= cut.sort_key()]
        kept.append(Diagnostic("RK109", f"too many errors: {len(errors)} found, showing the first "
                               f"{max_errors}", None, hint="fix these and compile again"))
        diagnostics = kept
    # A library is a file that parsed without a header; one that did not parse may have one.
    return CompileResult(c.policy, tuple(diagnostics), c.sources,
                         is_library=c.header is None and bool(c.units))


def compile_file(path: str | Path, *, require_header: bool = True,
                 max_errors: int = MAX_ERRORS) -> CompileResult:
    """Compile a rules file and everything it imports. Never raises on bad input."""
    return _run(Compilation(str(path), require_header), max_errors)


def compile_source(text: str, path: str = "<string>", *, require_header: bool = True,
                   max_errors: int = MAX_ERRORS) -> CompileResult:
    """Compile rules text; imports are read relative to the folder of ``path``."""
    c = Compilation(path, require_header)
    c.sources[path] = text
    return _run(c, max_errors)


def load(path: str | Path) -> P.Policy:
    """Compile a rules file into a Policy, raising CompileError with every diagnostic."""
    result = compile_file(path)
    if not result.ok or result.policy is None:
        raise CompileError([d for d in result.diagnostics if d.severity == "error"],
                           result.sources)
    return result.policy
