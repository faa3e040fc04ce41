"""Compile stage 12: build the immutable ``Policy`` from a ruleset that had no error."""

from __future__ import annotations

import hashlib
import os
from decimal import Decimal
from typing import Iterable

import rulekit
from rulekit import ast, policy as P, types as T
from rulekit.stages.context import (DEFAULT_LOCALE, DEFAULT_TIMEZONE, Compilation, FieldInfo,
                                    _plain, fold)
from rulekit.template import parse_template


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
        compiled_by=f"rulekit {rulekit.__version__}",
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
        forbidden_phrases=tuple(s.value for s in prose.forbid) if prose else (),
        sweep=_sweep(sweep) if sweep else P.Sweep(),
        actions=actions,
        missing=missing,
        tenant=next((t.param.value for t in c.items(ast.Tenant)), None),
        data_sources=tuple(c.data_sources),
        binding=c.binding or P.Binding(),
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
        for alias in (entry.label, *entry.aliases) if entry.label else entry.aliases:
            pairs.setdefault(fold(alias.value), entry.value.value)
    labels = tuple((e.value.value, e.label.value) for e in table.entries if e.label)
    return P.AliasTable(name=table.name.value, values=values, aliases=tuple(sorted(pairs.items())),
                        labels=labels)


def _entity(c: Compilation, entity: ast.Entity, currency: str | None, timezone: str,
            alias_tables: dict[str, P.AliasTable]) -> P.Entity:
    name = entity.name.value
    fresh = next((s for s in entity.statements if isinstance(s, ast.FreshDecl)), None)
    key = next(s for s in entity.statements if isinstance(s, ast.KeyDecl))
    requires = tuple(i.value for s in entity.statements if isinstance(s, ast.RequiresDecl)
                     for i in s.inputs)
    matching = tuple((i.value, f.value) for s in entity.statements
                     if isinstance(s, ast.RequiresDecl) for i, f in s.matching)
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
                    fresh_via=fresh.via.value if fresh else None, requires=requires,
                    matching=matching,
                    lookup=c.lookups.get(name, P.Lookup()))


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
                             percent="percent" in options, ratio="ratio" in options)
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
            return T.EnumType(table=table.name, values=table.values, aliases=table.aliases,
                              labels=table.labels)
        values = tuple(v.name.value for v in type_expr.values)
        labels = tuple((v.name.value, v.label.value) for v in type_expr.values if v.label)
        pairs = dict((fold(v), v) for v in values)
        for value, label in labels:
            pairs.setdefault(fold(label), value)
        return T.EnumType(values=values, aliases=tuple(sorted(pairs.items())), labels=labels)
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
