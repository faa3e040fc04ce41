"""Compile stages 1-3: read the root file and its imports (missing files, cycles), collect the
declared names (each once), and check the ruleset header's settings."""

from __future__ import annotations

import difflib
import os

from rulekit import ast
from rulekit.errors import Span
from rulekit.parse import parse_file, parse_source
from rulekit.stages.context import (SETTINGS, Compilation, Unit, _check_currency, _check_locale,
                                    _check_zone, _first_seen, _kind_words, _plain, _value_is,
                                    listing, suggest)


# --- stage 1: imports -------------------------------------------------------------------------

def resolve_imports(c: Compilation) -> None:
    """Parse the root and every imported file once, depth first; report missing files and
    cycles at the `import` that causes them."""
    seen: set[str] = set()

    def visit(display: str, stack: tuple[str, ...], via: ast.Import | None) -> None:
        real = os.path.realpath(display)
        if real in stack:
            chain = " -> ".join([_display_of(c, s) for s in stack[stack.index(real):]] + [display])
            c.error("RK208", f"import cycle: {chain}", via.path.span,
                    hint="move what these files share into a file that imports none of them")
            return
        if real in seen:
            return
        seen.add(real)
        if via is not None and os.path.isdir(display):
            inside = sorted(_rules_files(display))
            shown = listing(inside)
            c.error("RK207", f"cannot import '{via.path.value}': '{display}' is a folder; an "
                    "import names one .rules file", via.path.span,
                    hint=(f"import each file you need, e.g. `import \"{via.path.value.rstrip('/')}"
                          f"/{inside[0]}\"`; rules files there: {shown}") if inside else
                    f"there are no .rules files in {display}")
            c.failed_imports.append(display)
            return
        if via is not None and not os.path.isfile(display):
            folder = os.path.dirname(display) or "."
            others = [n for n in _rules_files(folder)]
            c.error("RK207", f"cannot import '{via.path.value}': no such file '{display}'",
                    via.path.span, hint=suggest(os.path.basename(display), others,
                                                f"rules files in {folder}"))
            c.failed_imports.append(display)
            return
        result = parse_file(display)
        if result.text:
            c.sources[display] = result.text
        c.diagnostics.extend(result.diagnostics)
        if result.file is None:
            if via is not None:
                c.failed_imports.append(display)
            return
        unit = Unit(display, result.file)
        c.units.append(unit)
        visit_imports(unit, stack + (real,))

    def visit_imports(unit: Unit, stack: tuple[str, ...]) -> None:
        for index, item in enumerate(unit.file.items):
            if isinstance(item, ast.Import):
                target = os.path.normpath(os.path.join(os.path.dirname(unit.path), item.path.value))
                unit.imports[index] = target
                visit(target, stack, item)

    if c.root in c.sources:   # compile_source: the root text is already known
        result = parse_source(c.sources[c.root], c.root)
        c.diagnostics.extend(result.diagnostics)
        if result.file is None:
            return
        unit = Unit(c.root, result.file)
        c.units.append(unit)
        real = os.path.realpath(c.root)
        seen.add(real)
        visit_imports(unit, (real,))
    else:
        visit(c.root, (), None)


def _display_of(c: Compilation, real: str) -> str:
    return next((u.path for u in c.units if os.path.realpath(u.path) == real), real)


def _rules_files(folder: str) -> list[str]:
    try:
        return [n for n in os.listdir(folder) if n.endswith(".rules")]
    except OSError:
        return []


# --- stage 2: names ---------------------------------------------------------------------------

def collect_names(c: Compilation) -> None:
    """Build the symbol tables; a name declared twice, in one file or across imports, is an
    error at the second declaration. No declaration silently overrides another."""
    tables: dict[type, tuple[dict, str]] = {
        ast.Entity: (c.entities, "entity"), ast.Aliases: (c.aliases, "alias table"),
        ast.Input: (c.inputs, "input"),
    }
    for unit, item in c.declarations():
        if isinstance(item, ast.Header):
            if unit is not c.units[0]:
                c.error("RK213", f"imported file '{unit.path}' has a ruleset header",
                        item.name.span, hint="an imported file shares declarations; keep "
                        "the `ruleset` header only in the file you compile")
            elif c.header is not None:
                c.error("RK213", "a file has one ruleset header", item.name.span,
                        hint=_first_seen(c.header.name.span))
            else:
                c.header = item
            continue
        if isinstance(item, ast.Template):
            table, what = (c.shapes, "shape") if item.kind == "shape" else (c.fallbacks, "fallback")
        elif type(item) in tables:
            table, what = tables[type(item)]
        else:
            continue
        name = item.name.value
        if name in table:
            c.error("RK201", f"{what} '{name}' is declared twice", item.name.span,
                    hint=_first_seen(table[name].name.span))
        else:
            table[name] = item


# --- stage 3: header --------------------------------------------------------------------------

def check_header(c: Compilation) -> None:
    if c.header is None:
        empty = bool(c.units) and not c.units[0].file.items
        if c.units and (c.require_header or empty):
            c.error("RK209", "no ruleset header" + (" and nothing declared" if empty else ""),
                    Span(c.root, 1, 1, 1, 2),
                    hint='start the file with `ruleset NAME { version "1" locale en_US }`')
        return
    seen: dict[str, ast.Setting] = {}
    unknown: list[str] = []
    for setting in c.header.settings:
        name = setting.name.value
        if name not in SETTINGS:
            c.error("RK210", f"unknown setting '{name}' in the ruleset header", setting.name.span,
                    hint=suggest(name, SETTINGS, "settings"))
            unknown.append(name)
            continue
        if name in seen:
            c.error("RK308", f"setting '{name}' is given twice", setting.name.span,
                    hint=_first_seen(seen[name].name.span))
            continue
        seen[name] = setting
        if not _value_is(setting.value, SETTINGS[name]):
            example = {"version": '"2026.11"', "locale": "en_GB", "currency": "EUR",
                       "timezone": '"Europe/Berlin"'}[name]
            c.error("RK304", f"setting '{name}' takes {_kind_words(SETTINGS[name])}",
                    setting.value.span, hint=f"for example `{name} {example}`")
            continue
        value = _plain(setting.value)
        if name == "version" and not value.strip():
            c.error("RK304", "a version cannot be empty", setting.value.span,
                    hint='every decision traces to the version: write one, such as `version "2026.11"`')
        elif name == "locale":
            _check_locale(c, value, setting.value.span)
        elif name == "currency":
            _check_currency(c, value, setting.value.span)
        elif name == "timezone":
            _check_zone(c, value, setting.value.span)
    # A misspelt `verison` has its own error, whose hint names `version`.
    if "version" not in seen and not difflib.get_close_matches("version", unknown, cutoff=0.6):
        c.warn("RK214", f"ruleset '{c.header.name.value}' has no version", c.header.name.span,
               hint='add `version "2026.11"` to the header: without one, every decision traces '
                    'to version "0"')
