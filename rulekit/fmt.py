"""The canonical layout of a rules file: the engine behind ``rulekit fmt``.

``format_file`` prints an ``ast.File`` in one layout whatever the source looked like, and keeps
every comment. It works in rows: one printed line per statement, block opener or closing ``}``,
each remembering the stretch of source it stands for. Comments are then placed by position:

- a comment after a row, on that row's last source line, stays at the end of the row's line;
- any other comment goes on a line of its own before the next row (a comment before ``}`` is
  indented like the block's statements; a comment inside a row's source goes before the row);
- comments after the last row end the file.

An inline enum is one row (``field status enum { placed, shipped }``) unless a comment stands
inside its braces: then it is laid out one value a row, so that each comment stays by the value
it was written at.

Blank lines come from the source, squeezed: where the source had one or more blank lines (comment
lines are not blank) between two printed lines, one is kept, so paragraphs of comments stay
apart. The layout then adds its rules: no blank line at the top of the file, right after ``{`` or
right before ``}``, and a blank line between top-level items unless they are one-line items of
the same kind that were adjacent in the source.

Both ``parse(fmt(x)) == parse(x)`` and ``fmt(fmt(x)) == fmt(x)`` hold; the tests check them.
"""

from __future__ import annotations

import bisect
import dataclasses
from typing import Sequence

from rulekit import ast
from rulekit.errors import Diagnostic
from rulekit.parse import parse_source

INDENT = "  "

_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t"}
_REGENERATE_WORDS = {"max": "max", "naming": "naming", "with_values": "with values",
                     "narrow": "narrow"}
# One-line items that may stay in a run without blank lines (templates only without bindings).
_GROUPABLE = (ast.Import, ast.OnRule, ast.Prose, ast.Input, ast.Template, ast.Derived)


def quote(value: str) -> str:
    """A decoded string as a rules-language string literal."""
    return '"' + "".join(_ESCAPES.get(char, char) for char in value) + '"'


def format_source(text: str, path: str = "<string>",
                  ) -> tuple[str | None, tuple[Diagnostic, ...]]:
    """The formatted text, or ``None`` and the syntax diagnostics. Never raises on bad input."""
    result = parse_source(text, path)
    if result.file is None or result.diagnostics:
        return None, result.diagnostics
    return format_file(result.file), ()


def format_file(file: ast.File) -> str:
    """``file`` in the canonical layout; empty for an empty file, else ending in one newline."""
    comment_lines = frozenset(c.span.line for c in file.comments)
    rows = _file_rows(file, comment_lines)
    leading, trailing, closing = _place_comments(rows, file.comments)
    out: list[str] = []
    for index, row in enumerate(rows):
        after_line = rows[index - 1].end_line if index else 0
        out.extend(_gap(leading[index], after_line, row, comment_lines))
        text = INDENT * row.depth + row.text
        out.append(f"{text}  {_comment(trailing[index])}" if trailing[index] else text)
    out.extend(_gap(closing, rows[-1].end_line if rows else 0, None, comment_lines,
                    top_of_file=not rows))
    return "\n".join(out) + "\n" if out else ""


# --- rows -------------------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class _Row:
    """One printed line and the stretch of source (offsets, lines) it stands for."""
    depth: int
    text: str
    start: int
    end: int
    line: int
    end_line: int
    closes: bool = False        # a block's `}`: comments before it sit one level deeper
    tight_start: bool = False   # no blank line right after `{` or at the top of the file
    tight_end: bool = False     # no blank line right before `}`
    apart: bool = False         # at least one blank line before it (between top-level items)


def _row(node, depth: int, text: str) -> _Row:
    span = node.span
    return _Row(depth, text, span.start, span.end, span.line, span.end_line)


def _file_rows(file: ast.File, comment_lines: frozenset[int]) -> list[_Row]:
    rows: list[_Row] = []
    previous = None
    for item in file.items:
        first, *rest = _item_rows(item, comment_lines)
        if previous is None:
            first = dataclasses.replace(first, tight_start=True)
        elif not _groupable(previous, item):
            first = dataclasses.replace(first, apart=True)
        rows += [first, *rest]
        previous = item
    return rows


def _groupable(previous: ast.Item, item: ast.Item) -> bool:
    """Adjacent one-line items of the same kind may stay together (if the source had them so)."""
    if type(previous) is not type(item) or not isinstance(item, _GROUPABLE):
        return False
    return not (isinstance(item, ast.Template) and (item.bindings or previous.bindings))


def _item_rows(item: ast.Item, comment_lines: frozenset[int]) -> list[_Row]:
    match item:
        case ast.Header(name=name, settings=settings):
            inner = [_row(s, 1, f"{s.name.value} {_value(s.value)}") for s in settings]
            return _block(item, f"ruleset {name.value}", name.span, inner)
        case ast.Entity(name=name, statements=statements, evidence=evidence):
            widths = _field_widths(statements, comment_lines)
            inner = [row for s, w in zip(statements, widths)
                     for row in _entity_rows(s, w, comment_lines)]
            head = f"entity {name.value}"
            if evidence:
                head += f" from evidence {_strings(evidence)}"
            return _block(item, head, evidence[-1].span if evidence else name.span, inner)
        case ast.Aliases(name=name, entries=entries):
            width = max((len(e.value.value) for e in entries), default=0)
            inner = [_row(e, 1, _alias_entry(e, width)) for e in entries]
            return _block(item, f"aliases {name.value}", name.span, inner)
        case ast.Sweep(statements=statements):
            keyword = dataclasses.replace(item.span, end=item.span.start + len("sweep"),
                                          end_line=item.span.line)
            inner = [_row(s, 1, _sweep_statement(s)) for s in statements]
            return _block(item, "sweep", keyword, inner)
        case ast.DataSource(name=name, statements=statements):
            inner = [_row(s, 1, _source_statement(s)) for s in statements]
            return _block(item, f"source {name.value}", name.span, inner)
        case ast.Template(text=text, bindings=bindings) if bindings:
            inner = [_row(b, 1, f"{b.slot.value} = {b.ref.dotted()}") for b in bindings]
            return _block(item, _template_head(item), text.span, inner)
    return [_row(item, 0, _one_line_item(item))]


def _block(item, head: str, head_end, inner: list[_Row]) -> list[_Row]:
    """`head {`, the statements one level in, `}`; ``head_end`` is the span the head ends with."""
    span = item.span
    opener = _Row(0, head + " {", span.start, head_end.end, span.line, head_end.end_line)
    if inner:
        inner[0] = dataclasses.replace(inner[0], tight_start=True)
    closer = _Row(0, "}", span.end - 1, span.end, span.end_line, span.end_line, closes=True,
                  tight_start=not inner, tight_end=True)
    return [opener, *inner, closer]


def _field_widths(statements: Sequence[ast.EntityStatement],
                  comment_lines: frozenset[int]) -> list[int]:
    """The width each field name is padded to: the longest name in its run of `field` lines (a
    run ends at any other statement or blank line). Zero for other statements."""
    runs: list[list[int]] = []
    previous = None
    for index, statement in enumerate(statements):
        if isinstance(statement, ast.FieldDecl):
            joined = isinstance(previous, ast.FieldDecl) and not _has_blank(
                previous.span.end_line, statement.span.line, comment_lines)
            if not joined:
                runs.append([])
            runs[-1].append(index)
        previous = statement
    widths = [0] * len(statements)
    for run in runs:
        width = max(len(statements[i].name.value) for i in run)
        for i in run:
            widths[i] = width
    return widths


# --- comments and blank lines -----------------------------------------------------------------

def _place_comments(rows: list[_Row], comments: Sequence[ast.Comment]):
    """Each comment trails a row, leads a row, or closes the file; in source order."""
    ends = [row.end for row in rows]
    leading: list[list[ast.Comment]] = [[] for _ in rows]
    trailing: list[ast.Comment | None] = [None] * len(rows)
    closing: list[ast.Comment] = []
    for comment in comments:
        index = bisect.bisect_right(ends, comment.span.start)   # first row ending after it
        if index and rows[index - 1].end_line == comment.span.line and not trailing[index - 1]:
            trailing[index - 1] = comment
        elif index < len(rows):
            leading[index].append(comment)
        else:
            closing.append(comment)
    return leading, trailing, closing


def _gap(comments: list[ast.Comment], after_line: int, row: _Row | None,
         comment_lines: frozenset[int], top_of_file: bool = False) -> list[str]:
    """The lines before ``row`` (``None``: the end of the file): its comments, and blank lines
    where the source had them, after the layout's rules."""
    before = [c for c in comments if row is None or c.span.start < row.start]
    inside = comments[len(before):]     # inside the row's own source: printed just before it
    stops = [c.span.line for c in before] + ([row.line] if row else [])
    blanks, last = [], after_line
    for line in stops:
        blanks.append(_has_blank(last, line, comment_lines))
        last = line
    if not blanks:
        return []
    if top_of_file or (row and row.tight_start):
        blanks[0] = False
    if row and row.tight_end:
        blanks[-1] = False
    if row and row.apart and not any(blanks):
        blanks[0] = True
    depth = 0 if row is None else row.depth + (1 if row.closes else 0)
    texts = [INDENT * depth + _comment(c) for c in before] + [None]
    out: list[str] = []
    for blank, text in zip(blanks, texts):
        if blank:
            out.append("")
        if text is not None:
            out.append(text)
    return out + [INDENT * depth + _comment(c) for c in inside]


def _has_blank(after_line: int, before_line: int, comment_lines: frozenset[int]) -> bool:
    """Whether a line strictly between the two holds neither code nor a comment. Only ever asked
    about gaps between rows, where nothing but comments and white space can stand."""
    return any(line not in comment_lines for line in range(after_line + 1, before_line))


def _comment(comment: ast.Comment) -> str:
    return comment.text.rstrip()


# --- the text of items and statements ---------------------------------------------------------

def _one_line_item(item: ast.Item) -> str:
    match item:
        case ast.Import(path=path):
            return f"import {_string(path)}"
        case ast.Input(name=name, options=options):
            return " ".join(["input", name.value, *map(_option, options)])
        case ast.Template():
            return _template_head(item)
        case ast.Prose(mode=mode, forbid=forbid):
            return f"prose {mode.value}" + (f" forbid {_strings(forbid)}" if forbid else "")
        case ast.Tenant(param=param):
            return f"tenant {param.value}"
        case ast.OnRule(outcomes=outcomes, action=action):
            return f"on {', '.join(map(_outcome, outcomes))} {_action(action)}"
        case ast.Derived(name=name, expr=expr, said=said):
            text = f"derived {name.value} = {_expr(expr)}"
            return text + (f" said as {_strings(said)}" if said else "")
    raise TypeError(f"not a rules item: {item!r}")


_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2}


def _expr(expr: ast.Expr, parent: int = 0, right_side: bool = False) -> str:
    """An expression with the parentheses its meaning needs, and no others."""
    match expr:
        case ast.Constant(value=value):
            return value.text
        case ast.DerivedRef(name=name):
            return name.value
        case ast.Aggregate(function=function, ref=ref, more=more):
            return f"{function.value}({' + '.join(r.dotted() for r in (ref, *more))})"
        case ast.BinaryOp(op=op, left=left, right=right):
            level = _PRECEDENCE[op]
            text = f"{_expr(left, level)} {op} {_expr(right, level, right_side=True)}"
            # a - (b - c) and a / (b * c) keep theirs: the right side of - and / binds first.
            needs = level < parent or (right_side and level == parent)
            return f"({text})" if needs else text
    raise TypeError(f"not an expression: {expr!r}")


def _template_head(template: ast.Template) -> str:
    return f"{template.kind} {template.name.value} {_string(template.text)}"


def _entity_rows(statement: ast.EntityStatement, width: int,
                 comment_lines: frozenset[int]) -> list[_Row]:
    """The rows of an entity statement: one, but for a field whose inline enum has comments
    inside its braces, which is laid out one value a line so that they stay beside the values
    they were written at: ``field status enum {``, each value, ``}`` and the field's options."""
    type_expr = getattr(statement, "type", None)
    if not (isinstance(type_expr, ast.EnumInline) and any(
            line in comment_lines for line in range(type_expr.span.line,
                                                    type_expr.span.end_line))):
        return [_row(statement, 1, _entity_statement(statement, width))]
    span, values = statement.span, type_expr.values
    keyword_end = type_expr.span.start + len("enum")    # the `{` follows, on this line
    opener = _Row(1, f"field {statement.name.value.ljust(width)} enum {{", span.start,
                  keyword_end, span.line, type_expr.span.line)
    inner = [_row(v, 2, _labelled(v.name, v.label) + ("," if i < len(values) - 1 else ""))
             for i, v in enumerate(values)]
    inner[0] = dataclasses.replace(inner[0], tight_start=True)
    closer = _Row(1, " ".join(["}", *map(_option, statement.options)]), type_expr.span.end - 1,
                  span.end, type_expr.span.end_line, span.end_line, closes=True, tight_end=True)
    return [opener, *inner, closer]


def _entity_statement(statement: ast.EntityStatement, width: int) -> str:
    match statement:
        case ast.KeyDecl(field=field):
            return f"key {field.value}"
        case ast.FreshDecl(budget=budget, via=via):
            return f"fresh within {budget.text} via {via.value}"
        case ast.RequiresDecl(inputs=inputs, matching=matching):
            fields = {name.value: field.value for name, field in matching}
            return "requires " + ", ".join(
                name.value + (f" matching {fields[name.value]}" if name.value in fields else "")
                for name in inputs)
        case ast.FieldDecl(name=name, type=type_expr, options=options):
            return " ".join(["field", name.value.ljust(width), _type(type_expr),
                             *map(_option, options)])
        case ast.TableSource(table=table, scoped_by=scoped_by, shared=shared):
            scope = f" scoped by {scoped_by.value}" if scoped_by else " shared" if shared else ""
            return f"source table {_string(table)}{scope}"
        case ast.SqlSource(sql=sql, shared=shared):
            return f"source sql {_string(sql)}" + (" shared" if shared else "")
        case ast.Mentioned(names=names):
            return "mentioned as " + ", ".join(
                _string(n) if isinstance(n, ast.String) else n.value for n in names)
        case ast.Pronouns(words=words):
            return f"pronouns {_strings(words)}"
        case ast.Forms(forms=forms):
            return f"forms {_strings(forms)}"
        case ast.Ranks(field=field, within=within, forms=forms):
            return f"ranks {field.value} within {within.value} said as {_strings(forms)}"
    raise TypeError(f"not an entity statement: {statement!r}")


def _source_statement(statement: ast.SourceStatement) -> str:
    match statement:
        case ast.SourceSql(sql=sql):
            return f"sql {_string(sql)}"
        case ast.SourceKeywords(keywords=keywords):
            return f"keywords {_strings(keywords)}"
        case ast.SourceWindow(window=window):
            return f"window {window.text}"
        case ast.SourceFlag(flag=flag):
            return flag.value
    raise TypeError(f"not a source statement: {statement!r}")


def _type(type_expr: ast.TypeExpr) -> str:
    match type_expr:
        case ast.TypeName(name=name):
            return name.value
        case ast.EnumRef(table=table):
            return f"enum {table.value}"
        case ast.EnumInline(values=values):
            return f"enum {{ {', '.join(_labelled(v.name, v.label) for v in values)} }}"
    raise TypeError(f"not a type: {type_expr!r}")


def _option(option: ast.FieldOption) -> str:
    if isinstance(option, ast.SaidAs):
        return f"said as {_strings(option.words)}"
    if isinstance(option, ast.PlaceholderOption):
        unless = [f"unless {option.unless.value}"] if option.unless else []
        return " ".join([f"placeholder {_literals(option.values)}", *unless])
    if option.value is None:
        return option.name.value
    return f"{option.name.value} {_value(option.value)}"


def _sweep_statement(statement: ast.SweepStatement) -> str:
    match statement:
        case ast.SmallIntegers(limit=limit, contexts=contexts):
            up_to = f" up to {limit.text}" if limit else ""
            return f"small integers{up_to} as {_names(contexts)}"
        case ast.Rounding(fields=fields):
            return "rounding allowed for " + ", ".join(f.dotted() for f in fields)
        case ast.Authoritative(targets=targets):
            return f"authoritative {_targets(targets)}"
        case ast.Untrusted(targets=targets):
            return f"untrusted {_targets(targets)}"
        case ast.Exempt(values=values):
            return f"exempt {_literals(values)}"
        case ast.SweepPlaceholder(values=values):
            return f"placeholder {_literals(values)}"
    raise TypeError(f"not a sweep statement: {statement!r}")


def _outcome(outcome: ast.Outcome) -> str:
    if outcome.kind == "otherwise":
        return "otherwise"
    prefix = "missing " if outcome.kind == "missing" else ""
    return prefix + outcome.name.value


def _action(action: ast.Action) -> str:
    match action:
        case ast.Regenerate(options=options, then=then):
            words = [_REGENERATE_WORDS[o.kind] + (f" {o.value.text}" if o.value else "")
                     for o in options]
            return " ".join(["regenerate", *words, "then", _action(then)])
        case ast.Refuse(message=message):
            return f"refuse {_string(message)}"
        case ast.Ask(hint=hint, message=message):
            return " ".join(["ask", hint.value, *_optional_string(message)])
        case ast.Handoff(message=message):
            return " ".join(["handoff", *_optional_string(message)])
        case ast.UseFallback(name=name):
            return f"fallback {name.value}"
    raise TypeError(f"not an action: {action!r}")


# --- shared pieces ----------------------------------------------------------------------------

def _string(string: ast.String) -> str:
    if string.triple:   # SQL across lines: kept exactly as written, indentation and all
        return f'"""{string.raw}"""'
    return f'"{string.raw}"'


def _optional_string(string: ast.String | None) -> list[str]:
    return [_string(string)] if string else []


def _value(value: ast.Value) -> str:
    match value:
        case ast.String():
            return _string(value)
        case ast.Name(value=text) | ast.Number(text=text) | ast.Duration(text=text):
            return text
    raise TypeError(f"not a value: {value!r}")


def _names(names: Sequence[ast.Name]) -> str:
    return ", ".join(name.value for name in names)


def _alias_entry(entry: ast.AliasEntry, width: int) -> str:
    """`room_only  label "room only" = "RO"`: the values aligned, then the label, the aliases."""
    text = entry.value.value.ljust(width)
    if entry.label:
        text += f" label {_string(entry.label)}"
    return (text + f" = {_strings(entry.aliases)}" if entry.aliases else text).rstrip()


def _labelled(value: ast.Name, label: ast.String | None) -> str:
    """An enum value with its label, if it has one: `room_only label "room only"`."""
    return f"{value.value} label {_string(label)}" if label else value.value


def _strings(strings: Sequence[ast.String]) -> str:
    return ", ".join(map(_string, strings))


def _literals(values: Sequence[ast.Literal]) -> str:
    return ", ".join(map(_value, values))


def _targets(targets: Sequence[ast.Target]) -> str:
    return ", ".join(t.dotted() if isinstance(t, ast.FieldRef) else _string(t.path)
                     for t in targets)
