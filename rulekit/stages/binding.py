"""Compile stage: binding declarations (docs/binding.md).

Checks what lets the audit bind a figure in free text to the entity and field it describes:
where an entity's rows live in JSON evidence (``from evidence "$.players[*]"``), how text names
a row (``mentioned as``, ``pronouns``), the words that name a field (``said as``), compound
forms (``forms "{FGM}-of-{FGA}"``) and derived figures (``derived margin = ...``). Every
problem is reported here, at its place, so that nothing about binding can fail at audit time.
Leaves ``c.binding`` for ``build_policy``.
"""

from __future__ import annotations

import re

from rulekit import ast, policy as P, types as T
from rulekit.stages.context import Compilation, _first_seen, fold, suggest
from rulekit.stages.usage import check_field_ref
from rulekit.template import parse_template

# `$`, then `.name`, `[*]` or `[3]` steps: the paths binding can read without a JSONPath engine.
_PATH = re.compile(r"\$(?:\.[A-Za-z_][A-Za-z0-9_]*|\[\*\]|\[\d+\])*")
AGGREGATES = ("max", "min", "sum", "count", "mean")
# Fields whose `said as` words name a day: a date stated after them is bound like a figure.
DATED = ("date", "timestamp")
_RK603_HINT = ("binding checks numbers (integer, decimal, money) and dates (date, timestamp) "
               "against their row")


def check_binding(c: Compilation) -> None:
    entities = tuple(e for e in (_entity(c, entity) for entity in c.entities.values())
                     if e is not None)
    derived = _derived(c)
    c.binding = P.Binding(entities=entities, derived=derived)


def _rows_key(name: str) -> str:
    """The key an entity's rows most likely sit under in evidence, for a hint: the plural a
    reader writes, chosen among the evidence reader's own (-s; -es after s, x, z, ch, sh;
    -y to -ies after a consonant), so the hint names a key the reader also finds unaided."""
    from rulekit.entity_rows import _plurals      # only for this hint: evidence is slow to load

    s, es, *ies = _plurals(name)
    if ies and name[-2:-1].lower() not in "aeiou":
        return ies[0]
    return es if name.lower().endswith(("s", "x", "z", "ch", "sh")) else s


def _said_as_misfits(c: Compilation, entity: ast.Entity) -> set[int]:
    """RK603 for each `said as` on a field that is no figure; the ids of those options."""
    name, misfits = entity.name.value, set()
    for decl in entity.fields:
        for option in (o for o in decl.options if isinstance(o, ast.SaidAs)):
            kind = c.fields.get((name, decl.name.value))
            if kind is not None and kind.kind is not None and kind.kind not in DATED and \
                    not T.TYPES[kind.kind].NUMERIC:
                article = "an" if kind.kind[0] in "aeio" else "a"     # "a url"
                c.error("RK603", f"`said as` names the words for a figure; '{decl.name.value}' "
                        f"is {article} {kind.kind} field", option.span, hint=_RK603_HINT + (
                            "; remove `said as` here. To name a row in text by this field, list "
                            "it in `mentioned as`" if kind.kind in ("text", "identifier") else
                            ", and a link against the row its sentence names with no words "
                            "needed; remove `said as` here" if kind.kind == "url" else
                            f"; remove `said as` here ({article} {kind.kind} value of another "
                            "row is a known gap: docs/binding.md)"))
                misfits.add(id(option))
    return misfits


def _other_currency(c: Compilation, entity: str, decl: ast.FieldDecl, word: ast.String) -> None:
    """RK609 when a `said as` word of a money field is a currency's sign or name ("$", "US$",
    "euros") that cannot be the field's currency: the amount after it is bound by its value,
    so "$1,299.00" would pass against a price in euros."""
    info = c.fields.get((entity, decl.name.value))
    if info is None or info.kind != "money":
        return
    own = getattr(info.options.get("currency") or c.header_setting("currency"), "value", None)
    locale = getattr(c.header_setting("locale"), "value", None) or "en_US"
    if not isinstance(own, str):
        return
    from rulekit.scan import scan
    from rulekit.scan.figures import currency_codes

    said = None
    for probe, at in ((f"{word.value}1", len(word.value)), (f"1 {word.value}", 0)):
        try:
            found = next(iter(scan(probe, str(locale))), None)
        except Exception:       # a locale the header already reported
            return
        if found is not None and found.currency is not None and found.end - found.start > 1:
            said = found.currency
            break
    if said is None or own.upper() in currency_codes(said):
        return
    c.warn("RK609", f"\"{word.value}\" names {said} money, but '{decl.name.value}' of entity "
           f"'{entity}' is in {own.upper()}", word.span,
           hint=f"an amount after it is bound to the field by its value alone, so an amount in "
           f"{own.upper()} would pass written in {said}; use the field's own sign or a word "
           "that names no currency (\"costs\", \"price\")")


def _entity(c: Compilation, entity: ast.Entity) -> P.BoundEntity | None:
    name = entity.name.value
    for path in entity.evidence:
        if not _PATH.fullmatch(path.value):
            c.error("RK601", f"'{path.value}' is not a JSON path binding can read", path.span,
                    hint='write `$`, then `.name`, `[*]` (every item) or `[0]` steps, as in '
                    '"$.players[*]" or "$.home"')
    misfits = _said_as_misfits(c, entity)   # first: with no evidence path, the fix is removal
    declarations = [s for s in entity.statements
                    if isinstance(s, (ast.Mentioned, ast.Pronouns, ast.Forms, ast.Ranks))]
    declarations += [o for f in entity.fields for o in f.options
                     if isinstance(o, ast.SaidAs) and id(o) not in misfits]
    if not entity.evidence:
        if declarations:    # once, at the first: each further `said as` says the same
            more = len(declarations) - 1
            c.error("RK602", f"entity '{name}' says how text names it, but not where its rows "
                    "are in the evidence" + (f" (and {more} more such line{'s' * (more > 1)})"
                                             if more else ""), declarations[0].span,
                    hint=f'add `from evidence "$.{_rows_key(name)}[*]"` after `entity {name}`, '
                    "with the path where the evidence holds its rows")
        return None
    fields = {f.name.value: f for f in entity.fields}
    mentions, aliases, pronouns, forms, ranks = [], [], [], [], []
    for statement in entity.statements:
        if isinstance(statement, ast.Mentioned):
            for item in statement.names:
                if isinstance(item, ast.String):
                    if _word_problem(c, item, "an alias"):
                        continue
                    aliases.append(item.value)
                elif item.value not in fields:
                    c.error("RK203", f"unknown field '{item.value}' on entity '{name}'",
                            item.span, hint=suggest(item.value, fields, "fields"))
                else:
                    mentions.append(item.value)
        elif isinstance(statement, ast.Pronouns):
            for word in statement.words:
                if not _word_problem(c, word, "a pronoun"):
                    pronouns.append(fold(word.value))
        elif isinstance(statement, ast.Forms):
            for form in statement.forms:
                if _form_problem(c, form, set(_numeric(c, name, fields)), "field",
                                 f"entity '{name}'"):
                    continue
                forms.append(form.value)
        elif isinstance(statement, ast.Ranks):
            rank = _rank(c, name, fields, statement)
            if rank is not None:
                ranks.append(rank)
    words: dict[str, tuple[str, ast.String]] = {}
    for decl in entity.fields:
        for option in (o for o in decl.options if isinstance(o, ast.SaidAs)):
            if id(option) in misfits:
                continue
            for word in option.words:
                if _word_problem(c, word, "a field word"):
                    continue
                key = fold(word.value)
                first = words.get(key)
                if first is not None and first[0] != decl.name.value:
                    c.error("RK605", f"\"{word.value}\" names both '{first[0]}' and "
                            f"'{decl.name.value}' of entity '{name}'", word.span,
                            hint=f"it already names '{first[0]}' at {first[1].span.at()}; a "
                            "word must name one field of an entity")
                    continue
                words.setdefault(key, (decl.name.value, word))
                _other_currency(c, name, decl, word)
    ordered = tuple(sorted(((w, f) for w, (f, _) in words.items()), key=lambda p: -len(p[0])))
    return P.BoundEntity(name=name, paths=tuple(p.value for p in entity.evidence),
                         mentions=tuple(mentions), aliases=tuple(aliases),
                         pronouns=tuple(pronouns), words=ordered, forms=tuple(forms),
                         ranks=tuple(ranks))


def _rank(c: Compilation, name: str, fields, statement: ast.Ranks) -> P.Rank | None:
    """``ranks PTS within TEAM_NAME said as "{rank} on the team"``: both fields declared, the
    first numeric, and every form states ``{rank}`` and nothing else."""
    ok = True
    for ref in (statement.field, statement.within):
        if ref.value not in fields:
            c.error("RK203", f"unknown field '{ref.value}' on entity '{name}'", ref.span,
                    hint=suggest(ref.value, fields, "fields"))
            ok = False
    if ok and statement.field.value not in _numeric(c, name, fields):
        kind = c.fields[(name, statement.field.value)].kind
        c.error("RK603", f"`ranks` orders rows by a figure; '{statement.field.value}' is a "
                f"{kind} field", statement.field.span,
                hint="rank by a numeric field, as in `ranks PTS within TEAM_NAME`")
        ok = False
    for form in statement.forms:
        parsed = parse_template(form.raw)
        other = [s for s in parsed.slots if s.name != "rank"]
        if not parsed.slots and not parsed.problems:
            c.error("RK604", "a rank's form states the place in `{rank}`, and this one has no "
                    "slot", form.span, hint='write it as in "{rank} on the team"')
            ok = False
        elif other:
            base = form.span.shifted(1, 0) if form.span.line == form.span.end_line else None
            span = base.shifted(other[0].start, other[0].end - other[0].start) if base \
                else form.span
            c.error("RK606", f"a rank's form states the place only, as `{{rank}}`, not "
                    f"'{other[0].name}'", span, hint='write it as in "{rank} on the team"')
            ok = False
        elif _form_problem(c, form, {"rank"}, "slot", "a rank's form"):
            ok = False
    if not ok:
        return None
    return P.Rank(field=statement.field.value, within=statement.within.value,
                  forms=tuple(f.value for f in statement.forms))


def _numeric(c: Compilation, entity: str, fields) -> list[str]:
    return [f for f in fields if (info := c.fields.get((entity, f))) is not None
            and info.kind is not None and T.TYPES[info.kind].NUMERIC]


def _word_problem(c: Compilation, word: ast.String, what: str) -> bool:
    if not fold(word.value):
        c.error("RK604", f"{what} cannot be empty", word.span)
        return True
    if "{" in word.value or "}" in word.value:
        c.error("RK604", f"{what} is a plain word, not a form with slots", word.span,
                hint='write a compound form in `forms "{FGM}-of-{FGA}"` inside the entity')
        return True
    return False


def _form_problem(c: Compilation, form: ast.String, allowed: set[str], what: str,
                  where: str) -> bool:
    parsed = parse_template(form.raw)
    base = form.span.shifted(1, 0) if form.span.line == form.span.end_line else None
    if parsed.problems:
        problem = parsed.problems[0]
        span = base.shifted(problem.start, problem.end - problem.start) if base else form.span
        c.error("RK604", f"malformed form: {problem.message}", span)
        return True
    if not parsed.slots:
        c.error("RK604", "a form states figures in slots, and this one has none", form.span,
                hint=f"name the {what} it states in braces, as in \"{{FGM}}-of-{{FGA}}\"")
        return True
    bad = False
    for slot in parsed.slots:
        if slot.name not in allowed:
            span = base.shifted(slot.start, slot.end - slot.start) if base else form.span
            c.error("RK606", f"slot '{slot.name}' is not a numeric {what} of {where}", span,
                    hint=suggest(slot.name, allowed, f"numeric {what}s"))
            bad = True
    if not bad and not parsed.prose.strip(" "):
        c.error("RK604", "a form needs words or signs between or around its slots", form.span,
                hint="a bare slot would bind every number in the text")
        return True
    return bad


# --- derived figures --------------------------------------------------------------------------

def _derived(c: Compilation) -> tuple[P.DerivedFigure, ...]:
    declared: dict[str, ast.Derived] = {}
    for item in c.items(ast.Derived):
        if item.name.value in declared:
            c.error("RK201", f"derived figure '{item.name.value}' is declared twice",
                    item.name.span, hint=_first_seen(declared[item.name.value].name.span))
            continue
        declared[item.name.value] = item
    built = []
    for name, item in declared.items():
        formula = _formula(c, item.expr, declared, (name,))
        ok = formula is not None
        for form in item.said:
            ok = not _form_problem(c, form, set(declared), "derived figure", "the ruleset") and ok
            if ok and name not in parse_template(form.raw).slot_names:
                c.error("RK606", f"a form of '{name}' must state it: `{{{name}}}` is missing",
                        form.span, hint=f"write it into the text, as in \"won by {{{name}}}\"")
                ok = False
        if ok:
            built.append(P.DerivedFigure(name=name, formula=formula,
                                         said=tuple(f.value for f in item.said)))
    return tuple(built)


def _formula(c: Compilation, expr: ast.Expr, declared: dict[str, ast.Derived],
             stack: tuple[str, ...]) -> P.Formula | None:
    if isinstance(expr, ast.Constant):
        return P.Formula(op="const", value=expr.value.text)
    if isinstance(expr, ast.DerivedRef):
        name = expr.name.value
        if name not in declared:
            c.error("RK608", f"unknown derived figure '{name}'", expr.name.span,
                    hint=suggest(name, declared, "derived figures") or
                    "a formula reads fields through an aggregate, as in `max(team.PTS)`")
            return None
        if name in stack:
            c.error("RK608", f"derived figure '{name}' depends on itself: "
                    f"{' -> '.join(stack + (name,))}", expr.name.span)
            return None
        if _formula(c, declared[name].expr, declared, stack + (name,)) is None:
            return None
        return P.Formula(op="ref", name=name)
    if isinstance(expr, ast.Aggregate):
        function = expr.function.value
        if function not in AGGREGATES:
            c.error("RK607", f"unknown function '{function}'", expr.function.span,
                    hint=suggest(function, AGGREGATES, "functions"))
            return None
        info = check_field_ref(c, expr.ref)
        if info is None:
            return None
        entity = c.entities[expr.ref.entity.value]
        if not entity.evidence:
            c.error("RK602", f"entity '{entity.name.value}' is not located in the evidence, so "
                    "a formula cannot read it", expr.ref.entity.span,
                    hint=f'add `from evidence "$.{_rows_key(entity.name.value)}[*]"` to the '
                    'entity')
            return None
        if function != "count" and info.kind is not None and not T.TYPES[info.kind].NUMERIC:
            c.error("RK607", f"{function}() needs a number; '{expr.ref.dotted()}' is a "
                    f"{info.kind} field", expr.ref.span)
            return None
        for ref in expr.more:       # max(team.PTS_QTR1 + team.PTS_QTR2): one row's sum
            if ref.entity.value != expr.ref.entity.value:
                c.error("RK607", f"{function}() adds fields of one row of "
                        f"'{expr.ref.entity.value}'; '{ref.dotted()}' is a field of another "
                        "entity", ref.span, hint="combine two entities' figures outside the "
                        f"functions, as in `{function}(a.X) + {function}(b.Y)`")
                return None
            more = check_field_ref(c, ref)
            if more is None:
                return None
            if more.kind is not None and not T.TYPES[more.kind].NUMERIC:
                c.error("RK607", f"{function}() adds numbers; '{ref.dotted()}' is a "
                        f"{more.kind} field", ref.span)
                return None
        return P.Formula(op="agg", function=function, entity=expr.ref.entity.value,
                         field=expr.ref.field.value,
                         more=tuple(r.field.value for r in expr.more))
    left = _formula(c, expr.left, declared, stack)
    right = _formula(c, expr.right, declared, stack)
    if left is None or right is None:
        return None
    return P.Formula(op=expr.op, left=left, right=right)
