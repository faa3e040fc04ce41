"""Compile stages 4-6: field types and their options, entities (key, freshness, required
inputs), and alias tables."""

from __future__ import annotations

import difflib
import re

from rulekit import ast, types as T
from rulekit.errors import Span
from rulekit.parse import duration_problem, exponent_problem
from rulekit.stages.context import (ENTITY_KEYWORDS, OPTION_SYNONYMS, TYPE_SYNONYMS, Compilation,
                                    FieldInfo, _after_failed_imports, _check_currency, _check_zone,
                                    _first_seen, _kind_words, _value_is, fold, suggest)
from rulekit.stages.formats import check_format


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
        if isinstance(option, ast.SaidAs):
            continue        # field vocabulary: judged by check_binding
        if isinstance(option, ast.PlaceholderOption):
            info.placeholders.append(option)
            _check_placeholder(c, entity, decl, kind, option)
            continue
        if index > 1 and _is_exponent(options[index - 2], option):
            _exponent_error(c, options[index - 2], option)
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
        if spec.takes == "duration" and isinstance(option.value, ast.Number):
            index += _duration_error(c, option.value, options[index:index + 1])
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
    if "format" in info.options:
        check_format(c, kind, decl, info.options["format"])
    if kind == "money" and "currency" not in info.options and c.header_setting("currency") is None:
        c.error("RK306", f"money field '{decl.name.value}' has no currency", decl.name.span,
                hint="add `currency EUR` to the field, or `currency EUR` to the ruleset header")
    return info


def _is_exponent(before: object, option: ast.Option) -> bool:
    """Whether ``option`` is the exponent of the number just before it: `tolerance 1e999` lexes
    as the option `tolerance 1` and an option `e999` (`1e-5`: `e` with the value -5)."""
    name = option.name.value
    return (isinstance(before, ast.Option) and isinstance(before.value, ast.Number)
            and name[:1] in "eE" and (name[1:].isdigit() or name[1:] == "")
            and before.value.span.end == option.name.span.start)


def _exponent_error(c: Compilation, before: ast.Option, exponent: ast.Option) -> None:
    first, last = before.value.span, exponent.name.span
    if isinstance(exponent.value, ast.Number) and exponent.value.span.start == last.end:
        last = exponent.value.span                              # `1e-5`: the -5 is the exponent
    span = Span(first.path, first.line, first.column, last.end_line, last.end_column,
                first.start, last.end)
    written = c.sources[first.path][span.start:span.end] if first.path in c.sources else ""
    message, hint = exponent_problem(before.name.value, written)
    c.error("RK304", message, span, hint=hint)


def _duration_error(c: Compilation, number: ast.Number, after: list) -> int:
    """RK304 for a number where a duration belongs, with the unit glued to it when there is one
    (`max_age 1.5h` lexes as the option `max_age 1.5` and an option `h`); returns how many
    options after it the error took in."""
    first = number.span
    glued = (after and isinstance(after[0], ast.Option) and after[0].value is None
             and after[0].name.span.start == first.end)
    last = after[0].name.span if glued else first
    span = Span(first.path, first.line, first.column, last.end_line, last.end_column,
                first.start, last.end)
    message, hint = duration_problem(number.text + (after[0].name.value if glued else ""))
    c.error("RK304", message, span, hint=hint)
    return 1 if glued else 0


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
    for value in (v.name for v in type_expr.values):
        if value.value in seen:
            c.error("RK201", f"enum value '{value.value}' is listed twice", value.span,
                    hint=_first_seen(seen[value.value].span))
        seen[value.value] = value
    owner = {fold(v): (v, name.span) for v, name in seen.items()}
    for value in type_expr.values:
        if value.label:
            _check_alias(c, owner, value.name.value, value.label, "a label")
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
    elif name == "label":
        _bad_label(c, value)
    elif name == "column" and not value.value.strip():
        c.error("RK304", "a column name cannot be empty", value.span,
                hint="name the stored column the field is read from, as in "
                "`column \"price_pence\"`, or drop `column` to read the field's own name")
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
            elif age is not None and isinstance(age.value, ast.Duration) and \
                    age.value.seconds > fresh[0].budget.seconds > 0:
                budget = fresh[0].budget.text
                c.error("RK310", f"field '{decl.name.value}' has `max_age {age.value.text}`, longer "
                        f"than the budget of entity '{name}', `fresh within {budget}`", age.value.span,
                        hint=f"`max_age` can only tighten the budget: write at most "
                        f"`max_age {budget}`, or lengthen the entity's `fresh within` if this "
                        "value may be older")
        for requires in (s for s in entity.statements if isinstance(s, ast.RequiresDecl)):
            for item in requires.inputs:
                if item.value not in c.inputs:
                    c.error("RK206", f"unknown input '{item.value}'", item.span,
                            hint=suggest(item.value, c.inputs, "inputs") or
                            f"declare it: `input {item.value} label \"...\"`")
                else:
                    c.used.add(("input", item.value))
            for item, field in requires.matching:
                if field.value not in fields:
                    c.error("RK203", f"'{field.value}' is not a field of entity '{name}'",
                            field.span, hint=suggest(field.value, fields, "fields") or
                            f"declare the field the {item.value} must equal: `field "
                            f"{field.value} text hidden`")


# --- stage 6: aliases -------------------------------------------------------------------------

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
            if entry.label:
                _check_alias(c, owner, entry.value.value, entry.label, "a label")
            for alias in entry.aliases:
                _check_alias(c, owner, entry.value.value, alias, "an alias")
    _check_labels_declared(c)


def _check_alias(c: Compilation, owner: dict[str, tuple[str, Span]], value: str,
                 alias: ast.String, what: str) -> None:
    """RK304 for an empty alias or label, RK401 for one that already means another value. A
    label is also an alias: a claim may say it."""
    key = fold(alias.value)
    if not key:
        c.error("RK304", f"{what} cannot be empty", alias.span)
        return
    if what == "a label" and _bad_label(c, alias):
        return
    first = owner.get(key)
    if first is None:
        owner[key] = (value, alias.span)
    elif first[0] != value:
        c.error("RK401", f"{what.split()[-1]} \"{alias.value}\" means both '{first[0]}' and "
                f"'{value}'", alias.span,
                hint=f"it already maps to '{first[0]}' at {first[1].at()}; "
                f"{what} must mean one value")


def _bad_label(c: Compilation, label: ast.String) -> bool:
    """RK304 for a label that cannot be shown to customers as written: blank, or with { or }
    (a literal "{date}" would reach them). True when one was reported."""
    if not label.value.strip():
        c.error("RK304", "a label cannot be empty", label.span,
                hint="write the words a customer reads, as in `label \"delivery date\"`")
        return True
    if "{" in label.value or "}" in label.value:
        c.error("RK304", "a label is shown to customers as written, so it cannot hold { or }",
                label.span, hint="write the words a customer reads; a label is plain text, "
                "not a template with slots")
        return True
    return False


def _check_labels_declared(c: Compilation) -> None:
    """RK413 (a warning) for an enum value a customer would read as stored, `room_only`, when
    a readable field can show it: without a label, a slot renders the value unchanged."""
    warned: set[Span] = set()
    for entity in c.entities.values():
        for decl in entity.statements:
            if not isinstance(decl, ast.FieldDecl) or any(
                    isinstance(o, ast.Option) and o.name.value == "hidden" for o in decl.options):
                continue
            if isinstance(decl.type, ast.EnumInline):
                unlabelled = [v.name for v in decl.type.values if v.label is None]
            elif isinstance(decl.type, ast.EnumRef) and decl.type.table.value in c.aliases:
                table = c.aliases[decl.type.table.value]
                unlabelled = [e.value for e in table.entries if e.label is None]
            else:
                continue
            for value in unlabelled:
                if value.span in warned or not _reads_as_code(value.value):
                    continue
                warned.add(value.span)
                c.warn("RK413", f"enum value '{value.value}' has no label, so field "
                       f"'{decl.name.value}' shows it to customers as stored", value.span,
                       hint=f"give it the words a customer reads: "
                       f"`{value.value} label \"{_spaced(value.value)}\"`")


def _reads_as_code(value: str) -> bool:
    """A value no customer writes: `room_only`, `roomOnly`; not a name such as `iPhone`, `eBay`
    or `YouTube` (a word of two lower-case letters or more must start the camel case)."""
    return "_" in value or (value[:1].islower() and _CAMEL.search(value) is not None)


_CAMEL = re.compile(r"[a-z]{2}[A-Z]")


def _spaced(value: str) -> str:
    words = "".join(f" {ch}" if prev.islower() and ch.isupper() else ch
                    for prev, ch in zip(" " + value, value))
    return " ".join(words.replace("_", " ").split()).lower()
