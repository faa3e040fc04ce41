"""AST -> Policy, through an ordered tuple of named stages.

Each stage reads the ``Compilation`` and adds diagnostics; none stops the run, so a user sees
every problem of a ruleset at once (sorted by position, capped at ``max_errors``). The last
stage builds the immutable ``Policy`` only when no error was found.

    resolve_imports -> collect_names -> check_header -> check_types -> check_entities
    -> check_aliases -> check_templates -> check_prose -> check_sweep -> check_actions
    -> report_unused -> build_policy
"""

from __future__ import annotations

import dataclasses
import difflib
import hashlib
import os
from decimal import Decimal
from pathlib import Path
from typing import Callable, Iterable

from rulekit import ast, policy as P, types as T
from rulekit.errors import CompileError, Diagnostic, Span
from rulekit.parse import parse_file, parse_source
from rulekit.template import parse_template

MAX_ERRORS = 50

DEFAULT_LOCALE = "en_US"
# Suggested first when a locale is unknown, in this order, by language.
COMMON_LOCALES = ("en_US", "en_GB", "de_DE", "de_AT", "de_CH", "fr_FR", "fr_CA", "es_ES",
                  "es_MX", "it_IT", "nl_NL", "pt_BR", "pt_PT", "sv_SE", "da_DK", "nb_NO",
                  "fi_FI", "pl_PL", "cs_CZ", "ja_JP", "zh_CN", "zh_TW", "ko_KR", "en_IN",
                  "hi_IN", "ar_SA", "tr_TR", "ru_RU")
DEFAULT_TIMEZONE = "UTC"

# Names people bring from other languages, so "unknown type 'string'" can say what to write.
TYPE_SYNONYMS = {"string": "text", "str": "text", "int": "integer", "float": "decimal",
                 "number": "decimal", "double": "decimal", "bool": "boolean",
                 "datetime": "timestamp", "time": "timestamp", "currency": "money",
                 "price": "money", "link": "url", "uri": "url", "id": "identifier"}

# Option names people guess, and the option rulekit calls it.
OPTION_SYNONYMS = {"case_insensitive": "casefold", "ignore_case": "casefold",
                   "insensitive": "casefold", "nocase": "casefold", "lowercase": "casefold",
                   "case_sensitive": "exact", "private": "hidden", "secret": "hidden",
                   "readonly": "hidden", "tz": "zone", "timezone": "zone", "time_zone": "zone",
                   "tol": "tolerance", "epsilon": "tolerance", "cents": "minor",
                   "fresh": "max_age", "ttl": "max_age", "percentage": "percent"}

# Statement keywords inside an entity; an unknown option that looks like one is a typo for it.
ENTITY_KEYWORDS = ("field", "key", "fresh", "requires")

SETTINGS = {"version": "string", "locale": "name", "currency": "name", "timezone": "string"}


@dataclasses.dataclass(frozen=True)
class CompileResult:
    policy: P.Policy | None
    diagnostics: tuple[Diagnostic, ...]
    sources: dict[str, str]
    is_library: bool = False

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)


@dataclasses.dataclass
class Unit:
    """One parsed file of the ruleset: the root first, then its imports depth first."""
    path: str
    file: ast.File
    # The file each `import` statement resolved to, by the statement's position in `items`.
    imports: dict[int, str] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass
class FieldInfo:
    """What check_types learned about one field, for the later stages."""
    entity: str
    decl: ast.FieldDecl
    kind: str | None                # None when the type is unknown
    options: dict[str, ast.Value | None]
    placeholders: list[ast.PlaceholderOption]

    @property
    def readable(self) -> bool:
        return "hidden" not in self.options


@dataclasses.dataclass
class Compilation:
    root: str
    require_header: bool
    units: list[Unit] = dataclasses.field(default_factory=list)
    sources: dict[str, str] = dataclasses.field(default_factory=dict)
    diagnostics: list[Diagnostic] = dataclasses.field(default_factory=list)
    header: ast.Header | None = None
    entities: dict[str, ast.Entity] = dataclasses.field(default_factory=dict)
    fields: dict[tuple[str, str], FieldInfo] = dataclasses.field(default_factory=dict)
    aliases: dict[str, ast.Aliases] = dataclasses.field(default_factory=dict)
    inputs: dict[str, ast.Input] = dataclasses.field(default_factory=dict)
    shapes: dict[str, ast.Template] = dataclasses.field(default_factory=dict)
    fallbacks: dict[str, ast.Template] = dataclasses.field(default_factory=dict)
    used: set[tuple[str, str]] = dataclasses.field(default_factory=set)
    failed_imports: list[str] = dataclasses.field(default_factory=list)
    policy: P.Policy | None = None

    def error(self, code: str, message: str, span: Span | None, hint: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(code, message, span, hint))

    def warn(self, code: str, message: str, span: Span | None, hint: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(code, message, span, hint, severity="warning"))

    @property
    def failed(self) -> bool:
        return any(d.severity == "error" for d in self.diagnostics)

    def items(self, kind: type) -> Iterable:
        return (item for _, item in self.declarations() if isinstance(item, kind))

    def declarations(self) -> Iterable[tuple[Unit, ast.Item]]:
        """Every item of the ruleset in reading order: an imported file's items come in at
        the place of its `import`, once."""
        by_path = {unit.path: unit for unit in self.units}
        done: set[str] = set()

        def visit(unit: Unit):
            done.add(unit.path)
            for index, item in enumerate(unit.file.items):
                target = by_path.get(unit.imports.get(index, ""))
                if target is not None and target.path not in done:
                    yield from visit(target)
                yield unit, item

        if self.units:
            yield from visit(self.units[0])

    def header_setting(self, name: str) -> ast.Value | None:
        if self.header is None:
            return None
        return next((s.value for s in self.header.settings if s.name.value == name), None)


def suggest(name: str, candidates: Iterable[str], what: str = "") -> str | None:
    candidates = sorted(set(candidates))
    close = difflib.get_close_matches(name, candidates, n=1, cutoff=0.6)
    known = f"{what}: {', '.join(candidates)}" if what and candidates else ""
    if close:
        return f"did you mean '{close[0]}'?" + (f" {known}" if known else "")
    return known or None


def _after_failed_imports(c: Compilation, hint: str | None) -> str | None:
    """An unknown name may live in an import that did not load: say so, not just "declare it"."""
    if not c.failed_imports:
        return hint
    note = f"{', '.join(c.failed_imports)} did not load, so its declarations are unknown"
    return f"{hint}; note: {note}" if hint else f"note: {note}"


def _first_seen(span: Span) -> str:
    return f"first declared at {span.at()}"


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
    for setting in c.header.settings:
        name = setting.name.value
        if name not in SETTINGS:
            c.error("RK210", f"unknown setting '{name}' in the ruleset header", setting.name.span,
                    hint=suggest(name, SETTINGS, "settings"))
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
        if name == "locale":
            _check_locale(c, value, setting.value.span)
        elif name == "currency":
            _check_currency(c, value, setting.value.span)
        elif name == "timezone":
            _check_zone(c, value, setting.value.span)


def _check_locale(c: Compilation, value: str, span: Span) -> None:
    from babel import Locale, UnknownLocaleError, localedata

    try:
        Locale.parse(value)
    except (UnknownLocaleError, ValueError, TypeError):
        language = value.replace("-", "_").split("_")[0].lower()
        same = [c_ for c_ in COMMON_LOCALES if c_.split("_")[0] == language] or sorted(
            i for i in localedata.locale_identifiers() if i.split("_")[0] == language
            and i.count("_") == 1 and i.split("_")[1].isalpha())[:4]
        hint = (f"did you mean {' or '.join(repr(x) for x in same[:3])}?" if same else
                suggest(value, localedata.locale_identifiers()) or "for example en_GB or de_DE")
        c.error("RK305", f"unknown locale '{value}'", span, hint=hint)


def _check_currency(c: Compilation, value: str, span: Span) -> None:
    from babel.numbers import is_currency, list_currencies

    if not is_currency(value):
        c.error("RK306", f"unknown currency '{value}'", span,
                hint=suggest(value.upper(), list_currencies()) or "use an ISO 4217 code such as EUR")


def _check_zone(c: Compilation, value: str, span: Span) -> None:
    import zoneinfo

    try:
        zoneinfo.ZoneInfo(value)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        c.error("RK307", f"unknown time zone '{value}'", span,
                hint=suggest(value, zoneinfo.available_timezones()) or
                'use an IANA name such as "Europe/Berlin" or "UTC"')


def _value_is(value: ast.Value | None, kind: str | None) -> bool:
    return {
        None: value is None,
        "string": isinstance(value, ast.String),
        "number": isinstance(value, ast.Number),
        "duration": isinstance(value, ast.Duration),
        "name": isinstance(value, ast.Name),
    }[kind]


def _kind_words(kind: str | None) -> str:
    return {None: "no value", "string": "a string in double quotes", "number": "a number",
            "duration": "a duration such as 15m", "name": "a name"}[kind]


def _plain(value: ast.Value) -> str:
    return value.value if isinstance(value, (ast.String, ast.Name)) else value.text


# --- stage 4: field types and options ---------------------------------------------------------

def check_types(c: Compilation) -> None:
    every_option = T.all_option_names()
    for entity in c.entities.values():
        seen: dict[str, ast.FieldDecl] = {}
        for decl in entity.fields:
            name = decl.name.value
            if name in seen:
                c.error("RK201", f"field '{name}' is declared twice in entity '{entity.name.value}'",
                        decl.name.span, hint=_first_seen(seen[name].name.span))
                continue
            seen[name] = decl
            c.fields[(entity.name.value, name)] = _check_field(c, entity.name.value, decl,
                                                              every_option)
    for item in c.inputs.values():
        for option in item.options:
            if not (isinstance(option, ast.Option) and option.name.value == "label"
                    and isinstance(option.value, ast.String)):
                c.error("RK302", "an input takes only `label \"...\"`", option.span,
                        hint='for example `input postcode label "your postcode"`')


def _check_field(c: Compilation, entity: str, decl: ast.FieldDecl, every_option: set[str]) -> FieldInfo:
    kind = _type_kind(c, decl.type)
    info = FieldInfo(entity, decl, kind, {}, [])
    if kind is None:
        return info
    allowed = T.options_for(kind)
    options = list(decl.options)
    index = 0
    while index < len(options):
        option = options[index]
        index += 1
        if isinstance(option, ast.PlaceholderOption):
            info.placeholders.append(option)
            _check_placeholder(c, entity, decl, kind, option)
            continue
        name = option.name.value
        spec = allowed.get(name)
        if spec is None:
            if name in every_option:
                c.error("RK302", f"option '{name}' does not apply to {kind} fields",
                        option.name.span, hint=f"options for {kind}: " +
                        ", ".join(sorted(list(allowed) + ["placeholder"])))
                continue
            keyword = difflib.get_close_matches(name, ENTITY_KEYWORDS, n=1, cutoff=0.75)
            if keyword and option.value is None:
                # `feild total money`: the rest of the line is a statement, not options.
                c.error("RK303", f"unknown option '{name}' on field '{decl.name.value}'",
                        option.name.span, hint=f"did you mean the keyword `{keyword[0]}`? it "
                        "starts a new statement")
                break
            synonym = OPTION_SYNONYMS.get(name.lower())
            hint = (f"did you mean '{synonym}'? options for {kind}: "
                    + ", ".join(sorted(list(allowed) + ["placeholder"]))
                    if synonym in allowed else
                    suggest(name, list(allowed) + ["placeholder"], f"options for {kind}"))
            c.error("RK303", f"unknown option '{name}' on field '{decl.name.value}'",
                    option.name.span, hint=hint)
            continue
        if name in info.options:
            first = next(o for o in decl.options if isinstance(o, ast.Option) and o.name.value == name)
            c.error("RK308", f"option '{name}' is given twice", option.name.span,
                    hint=_first_seen(first.name.span))
            continue
        if spec.takes is not None and option.value is None and index < len(options) and \
                isinstance(options[index], ast.Option) and options[index].value is None and \
                options[index].name.value not in allowed:
            # `zone Europe_Berlin`: the value was written as a bare name.
            bare = options[index]
            index += 1
            c.error("RK304", f"option '{name}' takes {_kind_words(spec.takes)}, not the name "
                    f"'{bare.name.value}'", bare.name.span, hint=spec.help)
            continue
        if not _value_is(option.value, spec.takes):
            if spec.takes is None:
                message = f"option '{name}' is a flag and takes no value"
            else:
                message = f"option '{name}' takes {_kind_words(spec.takes)}"
            c.error("RK304", message, (option.value or option.name).span, hint=spec.help)
            continue
        clash = next((other for other in spec.conflicts if other in info.options), None)
        if clash:
            c.error("RK309", f"options '{clash}' and '{name}' contradict each other",
                    option.name.span, hint="keep one of them")
            continue
        info.options[name] = option.value
        _check_option_value(c, name, option.value)
    if kind == "money" and "currency" not in info.options and c.header_setting("currency") is None:
        c.error("RK306", f"money field '{decl.name.value}' has no currency", decl.name.span,
                hint="add `currency EUR` to the field, or `currency EUR` to the ruleset header")
    return info


def _type_kind(c: Compilation, type_expr: ast.TypeExpr) -> str | None:
    if isinstance(type_expr, ast.TypeName):
        name = type_expr.name.value
        if name in T.TYPES and name != "enum":
            return name
        types = [t for t in T.TYPES if t != "enum"]
        if name == "enum":
            hint = ("an enum names its alias table: `enum order_status`, or lists its values: "
                    "`enum { gold, silver }`")
        else:
            close = difflib.get_close_matches(name.lower(), types + list(TYPE_SYNONYMS), n=1)
            meant = TYPE_SYNONYMS.get(close[0], close[0]) if close else None
            hint = (f"did you mean '{meant}'? " if meant else "") + "types: " + ", ".join(sorted(types))
        c.error("RK301", f"unknown type '{name}'", type_expr.name.span, hint=hint)
        return None
    if isinstance(type_expr, ast.EnumRef):
        table = type_expr.table.value
        if table not in c.aliases:
            if table in ENTITY_KEYWORDS:
                hint = ("`enum` names its alias table on the same line: `enum order_status`, or "
                        "lists its values: `enum { gold, silver }`")
            else:
                hint = (suggest(table, c.aliases, "alias tables") or
                        f"declare it: `aliases {table} {{ value = \"Alias\" }}`")
            c.error("RK204", f"unknown alias table '{table}'", type_expr.table.span,
                    hint=_after_failed_imports(c, hint))
        else:
            c.used.add(("aliases", table))
        return "enum"
    seen: dict[str, ast.Name] = {}
    for value in type_expr.values:
        if value.value in seen:
            c.error("RK201", f"enum value '{value.value}' is listed twice", value.span,
                    hint=_first_seen(seen[value.value].span))
        seen[value.value] = value
    return "enum"


def _check_option_value(c: Compilation, name: str, value: ast.Value | None) -> None:
    if name == "tolerance" and value.value < 0:
        c.error("RK304", "a tolerance cannot be negative", value.span,
                hint="the tolerance is the largest allowed difference, e.g. `tolerance 0.05`")
    elif name in ("zone", "naive"):
        _check_zone(c, value.value, value.span)
    elif name == "currency":
        _check_currency(c, value.value, value.span)
    elif name == "max_age" and value.seconds <= 0:
        c.error("RK310", "a freshness budget must be longer than zero", value.span)
    elif name == "format" and not value.value.strip():
        c.error("RK304", "an empty format", value.span, hint="use short, medium, long or full")


def _check_placeholder(c: Compilation, entity: str, decl: ast.FieldDecl, kind: str,
                       option: ast.PlaceholderOption) -> None:
    allowed = T.TYPES[kind].PLACEHOLDER_KINDS
    for value in option.values:
        literal = "number" if isinstance(value, ast.Number) else (
            "string" if isinstance(value, ast.String) else "duration")
        if literal not in allowed:
            c.error("RK311", f"a {literal} cannot be a placeholder of {kind} field "
                    f"'{decl.name.value}'", value.span,
                    hint="placeholders are the stored values that mean \"not recorded\", "
                    'written as the field stores them, e.g. `placeholder "N/A"`')
    if option.unless is not None:
        flag = option.unless.value
        siblings = [f.name.value for f in c.entities[entity].fields]
        if flag not in siblings:
            c.error("RK203", f"unknown field '{flag}' on entity '{entity}'", option.unless.span,
                    hint=suggest(flag, siblings, "fields"))
        else:
            flag_decl = next(f for f in c.entities[entity].fields if f.name.value == flag)
            if not (isinstance(flag_decl.type, ast.TypeName) and flag_decl.type.name.value == "boolean"):
                c.error("RK311", f"`unless {flag}` needs a boolean flag; '{flag}' is not declared "
                        "boolean", option.unless.span,
                        hint=f"declare it `field {flag} boolean`: the placeholder then means "
                        "\"not recorded\" only while the flag is false")


# --- stage 5: entities ------------------------------------------------------------------------

def check_entities(c: Compilation) -> None:
    for entity in c.entities.values():
        name = entity.name.value
        fields = {f.name.value: f for f in entity.fields}
        keys = [s for s in entity.statements if isinstance(s, ast.KeyDecl)]
        if not keys:
            c.error("RK211", f"entity '{name}' has no key", entity.name.span,
                    hint="add `key id`, naming the field that identifies a row")
        for extra in keys[1:]:
            c.error("RK211", f"entity '{name}' has more than one key", extra.span,
                    hint=_first_seen(keys[0].span) + "; a key is one field")
        if keys and keys[0].field.value not in fields:
            c.error("RK203", f"key '{keys[0].field.value}' is not a field of entity '{name}'",
                    keys[0].field.span, hint=suggest(keys[0].field.value, fields, "fields"))
        fresh = [s for s in entity.statements if isinstance(s, ast.FreshDecl)]
        for extra in fresh[1:]:
            c.error("RK308", f"entity '{name}' declares freshness twice", extra.span,
                    hint=_first_seen(fresh[0].span))
        if fresh:
            decl = fresh[0]
            via = decl.via.value
            if decl.budget.seconds <= 0:
                c.error("RK310", "a freshness budget must be longer than zero", decl.budget.span)
            if via not in fields:
                c.error("RK203", f"unknown field '{via}' on entity '{name}'", decl.via.span,
                        hint=suggest(via, fields, "fields"))
            elif c.fields.get((name, via)) and c.fields[(name, via)].kind not in (
                    "timestamp", "date", None):
                kind = c.fields[(name, via)].kind
                article = "an" if kind[0] in "aeiou" else "a"
                c.error("RK310", f"freshness is read from '{via}', which is {article} {kind} field",
                        decl.via.span, hint="point `via` at a timestamp field such as updated_at")
        for decl in entity.fields:
            age = next((o for o in decl.options if isinstance(o, ast.Option)
                        and o.name.value == "max_age"), None)
            if age is not None and not fresh:
                c.error("RK310", f"field '{decl.name.value}' has `max_age`, but entity '{name}' "
                        "does not say where a row's age is read", age.name.span,
                        hint="add `fresh within 1d via updated_at` to the entity; `max_age` "
                        "then tightens the budget for this field")
        for requires in (s for s in entity.statements if isinstance(s, ast.RequiresDecl)):
            for item in requires.inputs:
                if item.value not in c.inputs:
                    c.error("RK206", f"unknown input '{item.value}'", item.span,
                            hint=suggest(item.value, c.inputs, "inputs") or
                            f"declare it: `input {item.value} label \"...\"`")
                else:
                    c.used.add(("input", item.value))


# --- stage 6: aliases -------------------------------------------------------------------------

def fold(text: str) -> str:
    """How enum values and aliases are compared: case-folded, inner whitespace collapsed."""
    return " ".join(text.casefold().split())


def check_aliases(c: Compilation) -> None:
    for table in c.aliases.values():
        values: dict[str, ast.AliasEntry] = {}
        for entry in table.entries:
            if entry.value.value in values:
                c.error("RK201", f"value '{entry.value.value}' appears twice in alias table "
                        f"'{table.name.value}'", entry.value.span,
                        hint=_first_seen(values[entry.value.value].value.span) +
                        "; list all its aliases on one line")
            else:
                values[entry.value.value] = entry
        owner: dict[str, tuple[str, Span]] = {fold(v): (v, e.value.span) for v, e in values.items()}
        for entry in table.entries:
            for alias in entry.aliases:
                key = fold(alias.value)
                if not key:
                    c.error("RK304", "an alias cannot be empty", alias.span)
                    continue
                first = owner.get(key)
                if first is None:
                    owner[key] = (entry.value.value, alias.span)
                elif first[0] != entry.value.value:
                    c.error("RK401", f"alias \"{alias.value}\" means both '{first[0]}' and "
                            f"'{entry.value.value}'", alias.span,
                            hint=f"it already maps to '{first[0]}' at {first[1].at()}; "
                            "an alias must mean one value")


# --- stage 7: templates -----------------------------------------------------------------------

def check_templates(c: Compilation) -> None:
    for template in list(c.shapes.values()) + list(c.fallbacks.values()):
        _check_template(c, template)


def _check_template(c: Compilation, template: ast.Template) -> None:
    text = template.text
    parsed = parse_template(text.raw)
    base = text.span.shifted(1, 0) if text.span.line == text.span.end_line else None
    for problem in parsed.problems:
        span = base.shifted(problem.start, problem.end - problem.start) if base else text.span
        c.error("RK404", f"malformed {template.kind} '{template.name.value}': {problem.message}",
                span)
    bound: dict[str, ast.Binding] = {}
    for binding in template.bindings:
        slot = binding.slot.value
        if slot in bound:
            c.error("RK201", f"slot '{slot}' is bound twice", binding.slot.span,
                    hint=_first_seen(bound[slot].slot.span))
            continue
        bound[slot] = binding
        check_field_ref(c, binding.ref, purpose="shown")
    used = set(parsed.slot_names)
    for slot in parsed.slots:
        if slot.name not in bound:
            span = base.shifted(slot.start, slot.end - slot.start) if base else text.span
            c.error("RK402", f"slot '{slot.name}' in {template.kind} '{template.name.value}' is "
                    "not bound to a field", span,
                    hint=f"add `{{ {slot.name} = entity.field }}` after the text, or write "
                    f"`{{{{{slot.name}}}}}` for literal braces")
            bound[slot.name] = None   # report each slot once
    for slot, binding in bound.items():
        if binding is not None and slot not in used and not parsed.problems:
            c.error("RK403", f"binding '{slot}' has no slot `{{{slot}}}` in the text",
                    binding.slot.span, hint=suggest(slot, used, "slots in the text"))


def check_field_ref(c: Compilation, ref: ast.FieldRef, purpose: str | None = None) -> FieldInfo | None:
    """Resolve `entity.field`; report an unknown name with a suggestion. With a ``purpose``,
    the field must also be readable."""
    entity, field = ref.entity.value, ref.field.value
    if entity not in c.entities:
        c.error("RK202", f"unknown entity '{entity}'", ref.entity.span,
                hint=_after_failed_imports(c, suggest(entity, c.entities, "entities")))
        return None
    info = c.fields.get((entity, field))
    if info is None:
        readable = [f for (e, f), i in c.fields.items() if e == entity and i.readable]
        c.error("RK203", f"unknown field '{field}' on entity '{entity}'", ref.field.span,
                hint=suggest(field, readable, "readable fields"))
        return None
    if purpose and not info.readable:
        c.error("RK212", f"field '{entity}.{field}' is hidden, so it can never be {purpose}",
                ref.field.span, hint="remove `hidden` from the field if customers may see it")
    return info


# --- stage 8: prose ---------------------------------------------------------------------------

def check_prose(c: Compilation) -> None:
    prose = list(c.items(ast.Prose))
    for extra in prose[1:]:
        c.error("RK201", "the prose policy is declared twice", extra.span,
                hint=_first_seen(prose[0].span))
    if not prose:
        return
    mode = prose[0].mode.value
    if mode not in P.PROSE_MODES:
        c.error("RK405", f"unknown prose policy '{mode}'", prose[0].mode.span,
                hint=suggest(mode, P.PROSE_MODES, "prose policies"))
    elif mode == "shapes" and not c.shapes:
        c.error("RK405", "`prose shapes` allows only approved shapes, and none is declared",
                prose[0].mode.span, hint='declare one: `shape NAME "text with {slot}" { ... }`')


# --- stage 9: sweep ---------------------------------------------------------------------------

def check_sweep(c: Compilation) -> None:
    sweeps = list(c.items(ast.Sweep))
    for extra in sweeps[1:]:
        c.error("RK201", "the sweep is declared twice", extra.span, hint=_first_seen(sweeps[0].span))
    if not sweeps:
        return
    seen: dict[type, ast.SweepStatement] = {}
    for statement in sweeps[0].statements:
        if type(statement) in seen and not isinstance(statement, (ast.Untrusted, ast.Authoritative)):
            c.error("RK308", "this sweep setting is given twice", statement.span,
                    hint=_first_seen(seen[type(statement)].span))
        seen.setdefault(type(statement), statement)
        if isinstance(statement, ast.SmallIntegers):
            if statement.limit is not None:
                limit = statement.limit.value
                if limit != limit.to_integral_value() or not 0 <= limit <= 1000:
                    c.error("RK304", "the small-integer limit is a whole number from 0 to 1000",
                            statement.limit.span)
            for context in statement.contexts:
                if context.value not in P.SMALL_INTEGER_CONTEXTS:
                    c.error("RK406", f"unknown small-integer context '{context.value}'",
                            context.span, hint=suggest(context.value, P.SMALL_INTEGER_CONTEXTS,
                                                       "contexts"))
        elif isinstance(statement, ast.Rounding):
            for ref in statement.fields:
                info = check_field_ref(c, ref)
                if info and info.kind and not T.TYPES[info.kind].NUMERIC:
                    c.error("RK302", f"rounding applies to numbers; '{ref.dotted()}' is a "
                            f"{info.kind} field", ref.span)
        elif isinstance(statement, (ast.Authoritative, ast.Untrusted)):
            for target in statement.targets:
                if isinstance(target, ast.FieldRef):
                    check_field_ref(c, target)
                elif not target.path.value.startswith("$"):
                    c.error("RK304", f"'{target.path.value}' is not a JSON path", target.span,
                            hint='JSON paths start at the root: "$.reviews[*].body"')


# --- stage 10: actions ------------------------------------------------------------------------

def check_actions(c: Compilation) -> None:
    handled: dict[str, ast.Outcome] = {}
    missing: dict[str, ast.Outcome] = {}
    otherwise: ast.Outcome | None = None
    for rule in c.items(ast.OnRule):
        for outcome in rule.outcomes:
            if outcome.kind == "otherwise":
                if otherwise is not None:
                    c.error("RK409", "this `on otherwise` rule is never used", outcome.span,
                            hint=f"another `on otherwise` at {otherwise.span.at()} comes first")
                otherwise = otherwise or outcome
                continue
            name = outcome.name.value
            if outcome.kind == "missing":
                if name not in c.inputs:
                    c.error("RK206", f"unknown input '{name}'", outcome.name.span,
                            hint=suggest(name, c.inputs, "inputs") or
                            f"declare it: `input {name} label \"...\"`")
                elif name in missing:
                    c.error("RK409", f"this rule for `missing {name}` is never used",
                            outcome.span, hint=f"`missing {name}` is already handled at "
                            f"{missing[name].span.at()}")
                else:
                    missing[name] = outcome
                    c.used.add(("input", name))
                continue
            if name not in P.OUTCOMES:
                c.error("RK407", f"unknown outcome '{name}'", outcome.name.span,
                        hint=suggest(name, P.OUTCOMES, "outcomes"))
            elif name in handled:
                c.error("RK409", f"this rule for '{name}' is never used", outcome.span,
                        hint=f"'{name}' is already handled at {handled[name].span.at()}")
            else:
                handled[name] = outcome
        _check_action(c, rule.action)
    if otherwise is not None and all(handled.get(o) is not None for o in P.OUTCOMES):
        c.error("RK409", "this `on otherwise` rule is never used", otherwise.span,
                hint="every outcome already has its own rule; remove it")
    # `missing_input` cannot happen without inputs, nor need a rule when each input has its own.
    if "missing_input" not in handled and all(name in missing for name in c.inputs):
        handled["missing_input"] = None
    if c.header is not None and otherwise is None:
        unhandled = [o for o in P.OUTCOMES if o not in handled]
        if unhandled:
            c.error("RK408", "outcome" + ("s" if len(unhandled) > 1 else "") + " without an "
                    f"action: {', '.join(unhandled)}", c.header.name.span,
                    hint=f"add `on {unhandled[0]} refuse \"...\"` (or any action) for each, or a "
                    "catch-all `on otherwise handoff`; rulekit fails closed and will not guess")


def _check_action(c: Compilation, action: ast.Action) -> None:
    if isinstance(action, ast.Regenerate):
        seen: dict[str, ast.RegenerateOption] = {}
        for option in action.options:
            if option.kind in seen:
                c.error("RK308", f"regenerate option '{option.kind.replace('_', ' ')}' is given "
                        "twice", option.span, hint=_first_seen(seen[option.kind].span))
                continue
            seen[option.kind] = option
            if option.value is not None:
                number = option.value.value
                if number != number.to_integral_value() or not 1 <= number <= 10:
                    what = "attempts" if option.kind == "max" else "items to name"
                    c.error("RK410", f"the number of {what} must be a whole number from 1 to 10",
                            option.value.span,
                            hint="regenerate max 1 retries once, which is where nearly all the "
                            "benefit is" if option.kind == "max" else None)
        action = action.then
    if isinstance(action, ast.UseFallback):
        name = action.name.value
        if name not in c.fallbacks:
            c.error("RK205", f"unknown fallback '{name}'", action.name.span,
                    hint=_after_failed_imports(c, suggest(name, c.fallbacks, "fallbacks") or
                    f"declare it: `fallback {name} \"text with {{slot}}\" {{ slot = entity.field }}`"))
        else:
            c.used.add(("fallback", name))
        return
    message = getattr(action, "message", None)
    if message is not None:
        _check_message(c, message)


def _check_message(c: Compilation, message: ast.String) -> None:
    parsed = parse_template(message.raw)
    base = message.span.shifted(1, 0) if message.span.line == message.span.end_line else None
    for problem in parsed.problems:
        span = base.shifted(problem.start, problem.end - problem.start) if base else message.span
        c.error("RK404", f"malformed message: {problem.message}", span)
    for slot in parsed.slots:
        if slot.name not in P.MESSAGE_PLACEHOLDERS:
            span = base.shifted(slot.start, slot.end - slot.start) if base else message.span
            c.error("RK411", f"unknown placeholder '{{{slot.name}}}' in a message", span,
                    hint=suggest(slot.name, P.MESSAGE_PLACEHOLDERS, "a message may use"))


# --- stage 11: unused declarations ------------------------------------------------------------

def report_unused(c: Compilation) -> None:
    if c.header is None:    # a library's declarations are used by the files that import it
        return
    for kind, table in (("aliases", c.aliases), ("fallback", c.fallbacks), ("input", c.inputs)):
        for name, item in table.items():
            # A shared library declares more than any one ruleset uses: judge only the root.
            if (kind, name) not in c.used and item.name.span.path == c.root:
                what = {"aliases": "alias table", "fallback": "fallback", "input": "input"}[kind]
                c.warn("RK412", f"{what} '{name}' is never used", item.name.span,
                       hint="remove it, or refer to it")


# --- stage 12: the policy ---------------------------------------------------------------------

def build_policy(c: Compilation) -> None:
    if c.failed or c.header is None:
        return
    setting = lambda name, default: _plain(v) if (v := c.header_setting(name)) is not None else default  # noqa: E731
    currency = setting("currency", None)
    timezone = setting("timezone", DEFAULT_TIMEZONE)
    alias_tables = {name: _alias_table(table) for name, table in c.aliases.items()}
    entities = tuple(_entity(c, e, currency, timezone, alias_tables) for e in c.entities.values())
    actions, missing = _actions(c)
    sweep = next(c.items(ast.Sweep), None)
    prose = next(c.items(ast.Prose), None)
    c.policy = P.Policy(
        name=c.header.name.value,
        version=setting("version", "0"),
        locale=setting("locale", DEFAULT_LOCALE),
        currency=currency,
        timezone=timezone,
        sources_sha256=_sources_hash(c),
        sources=tuple(_relative(c, u.path) for u in c.units),
        entities=entities,
        aliases=tuple(alias_tables.values()),
        inputs=tuple(P.Input(name=i.name.value, label=_label(i.options, i.name.value))
                     for i in c.inputs.values()),
        shapes=tuple(_template(c, t) for t in c.shapes.values()),
        fallbacks=tuple(_template(c, t) for t in c.fallbacks.values()),
        prose=prose.mode.value if prose else "guarded",
        sweep=_sweep(sweep) if sweep else P.Sweep(),
        actions=actions,
        missing=missing,
    )


def _label(options: Iterable[ast.FieldOption], name: str) -> str:
    for option in options:
        if isinstance(option, ast.Option) and option.name.value == "label":
            return option.value.value
    return name.replace("_", " ")


def _alias_table(table: ast.Aliases) -> P.AliasTable:
    values = tuple(e.value.value for e in table.entries)
    pairs = {fold(v): v for v in values}
    for entry in table.entries:
        for alias in entry.aliases:
            pairs.setdefault(fold(alias.value), entry.value.value)
    return P.AliasTable(name=table.name.value, values=values, aliases=tuple(sorted(pairs.items())))


def _entity(c: Compilation, entity: ast.Entity, currency: str | None, timezone: str,
            alias_tables: dict[str, P.AliasTable]) -> P.Entity:
    name = entity.name.value
    fresh = next((s for s in entity.statements if isinstance(s, ast.FreshDecl)), None)
    key = next(s for s in entity.statements if isinstance(s, ast.KeyDecl))
    requires = tuple(i.value for s in entity.statements if isinstance(s, ast.RequiresDecl)
                     for i in s.inputs)
    fields = []
    for decl in entity.fields:
        info = c.fields[(name, decl.name.value)]
        options = {k: (_plain(v) if v is not None else True) for k, v in info.options.items()}
        fields.append(P.Field(
            name=decl.name.value,
            type=_type_spec(info, options, decl.type, currency, timezone, alias_tables),
            readable=info.readable,
            sensitive="sensitive" in options,
            label=options.get("label", decl.name.value.replace("_", " ")),
            placeholders=tuple(P.Placeholder(value=_placeholder_value(v),
                                             unless=p.unless.value if p.unless else None)
                               for p in info.placeholders for v in p.values),
            fresh_seconds=info.options["max_age"].seconds if "max_age" in info.options else None,
        ))
    return P.Entity(name=name, key=key.field.value, fields=tuple(fields),
                    fresh_seconds=fresh.budget.seconds if fresh else None,
                    fresh_via=fresh.via.value if fresh else None, requires=requires)


def _placeholder_value(value: ast.Literal) -> str | int | float:
    if isinstance(value, ast.Number):
        number = value.value
        return int(number) if number == number.to_integral_value() else float(number)
    return value.value if isinstance(value, ast.String) else value.text


def _type_spec(info: FieldInfo, options: dict, type_expr: ast.TypeExpr, currency: str | None,
               timezone: str, alias_tables: dict[str, P.AliasTable]) -> T.TypeSpec:
    kind = info.kind
    if kind == "money":
        return T.MoneyType(currency=options.get("currency", currency),
                           storage="major" if "major" in options else "minor")
    if kind == "date":
        return T.DateType(zone=options.get("zone", timezone), format=options.get("format", "medium"))
    if kind == "timestamp":
        return T.TimestampType(zone=options.get("zone", timezone),
                               naive_zone=options.get("naive", "UTC"),
                               format=options.get("format", "medium"))
    if kind == "decimal":
        return T.DecimalType(tolerance=Decimal(options.get("tolerance", "0")),
                             percent="percent" in options)
    if kind == "identifier":
        return T.IdentifierType(case="casefold" if "casefold" in options else "exact")
    if kind == "url":
        return T.UrlType(query="drop" if "drop_query" in options else "keep",
                         fragment="drop" if "drop_fragment" in options else "keep",
                         trailing_slash="strict" if "strict_slash" in options else "ignore")
    if kind == "text":
        return T.TextType(case="casefold" if "casefold" in options else "exact")
    if kind == "enum":
        if isinstance(type_expr, ast.EnumRef):
            table = alias_tables[type_expr.table.value]
            return T.EnumType(table=table.name, values=table.values, aliases=table.aliases)
        values = tuple(v.value for v in type_expr.values)
        return T.EnumType(values=values, aliases=tuple(sorted((fold(v), v) for v in values)))
    return T.TYPES[kind]()


def _template(c: Compilation, template: ast.Template) -> P.Template:
    parsed = parse_template(template.text.value)
    bindings = {b.slot.value: b.ref for b in template.bindings}
    return P.Template(
        name=template.name.value, text=template.text.value, pieces=parsed.pieces,
        slots=tuple(P.Slot(name=s, entity=bindings[s].entity.value, field=bindings[s].field.value)
                    for s in parsed.slot_names))


def _sweep(sweep: ast.Sweep) -> P.Sweep:
    values: dict = {}
    for statement in sweep.statements:
        if isinstance(statement, ast.SmallIntegers):
            if statement.limit is not None:
                values["small_integer_limit"] = int(statement.limit.value)
            values["small_integer_contexts"] = tuple(n.value for n in statement.contexts)
        elif isinstance(statement, ast.Rounding):
            values["rounding"] = tuple(r.dotted() for r in statement.fields)
        elif isinstance(statement, (ast.Authoritative, ast.Untrusted)):
            key = "authoritative" if isinstance(statement, ast.Authoritative) else "untrusted"
            values[key] = values.get(key, ()) + tuple(
                t.dotted() if isinstance(t, ast.FieldRef) else t.path.value
                for t in statement.targets)
        elif isinstance(statement, ast.Exempt):
            values["exempt"] = tuple(_plain(v) for v in statement.values)
        elif isinstance(statement, ast.SweepPlaceholder):
            values["placeholders"] = tuple(_plain(v) for v in statement.values)
    return P.Sweep(**values)


def _action(action: ast.Action) -> P.Action:
    if isinstance(action, ast.Regenerate):
        options = {o.kind: o for o in action.options}
        return P.Action(
            kind="regenerate",
            max_attempts=int(options["max"].value.value) if "max" in options else 1,
            naming=int(options["naming"].value.value) if "naming" in options else 8,
            with_values="with_values" in options, narrow="narrow" in options,
            then=_action(action.then))
    if isinstance(action, ast.Refuse):
        return P.Action(kind="refuse", message=action.message.value)
    if isinstance(action, ast.Ask):
        return P.Action(kind="ask", hint=action.hint.value,
                        message=action.message.value if action.message else None)
    if isinstance(action, ast.Handoff):
        return P.Action(kind="handoff", message=action.message.value if action.message else None)
    return P.Action(kind="fallback", fallback=action.name.value)


def _actions(c: Compilation) -> tuple[tuple[P.OutcomeAction, ...], tuple[P.MissingAction, ...]]:
    by_outcome: dict[str, P.Action] = {}
    missing: list[P.MissingAction] = []
    otherwise: P.Action | None = None
    for rule in c.items(ast.OnRule):
        action = _action(rule.action)
        for outcome in rule.outcomes:
            if outcome.kind == "otherwise":
                otherwise = otherwise or action
            elif outcome.kind == "missing":
                missing.append(P.MissingAction(input=outcome.name.value, action=action))
            else:
                by_outcome.setdefault(outcome.name.value, action)
    # Only `missing_input` can be left without a rule (when every input has its own, or there
    # are no inputs): it can never be chosen then, and if it ever were, a person takes over.
    unreachable = P.Action(kind="handoff")
    resolved = tuple(P.OutcomeAction(outcome=o, action=by_outcome.get(o) or otherwise or unreachable)
                     for o in P.OUTCOMES)
    return resolved, tuple(missing)


def _relative(c: Compilation, path: str) -> str:
    base = os.path.dirname(os.path.abspath(c.root))
    return os.path.relpath(os.path.abspath(path), base).replace(os.sep, "/")


def _sources_hash(c: Compilation) -> str:
    digest = hashlib.sha256()
    for unit in c.units:
        digest.update(_relative(c, unit.path).encode() + b"\0")
        digest.update(c.sources[unit.path].encode("utf-8") + b"\0")
    return digest.hexdigest()


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
    return CompileResult(c.policy, tuple(diagnostics), c.sources, is_library=c.header is None)


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
