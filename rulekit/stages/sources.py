"""Compile stage: where facts come from. The tenant scope, each entity's table or SELECT, and
the sources routed by keywords; every query judged by sqlglot (``rulekit.sql``) and prepared in
every dialect, so the artifact holds the exact SQL that will run.

Problems inside a query are reported at the offending token's place in the rules file: the
query's offsets are mapped through the string literal it was written in.
"""

from __future__ import annotations

import re

from rulekit import ast, policy as P, sql as S
from rulekit.errors import Span
from rulekit.stages.context import Compilation, _first_seen, _plain

SQL_DIALECTS = {"sqlite": "sqlite", "postgres": "postgres", "postgresql": "postgres",
                "mysql": "mysql", "mariadb": "mysql", "duckdb": "duckdb"}
WINDOW_PARAMS = ("since", "until")
_PARAM_NAME = re.compile(r"[a-z_][a-z0-9_]*")
_SOURCE_WORDS = {ast.SourceSql: "sql", ast.SourceKeywords: "keywords", ast.SourceWindow: "window"}


def check_sources(c: Compilation) -> None:
    # Errors of the earlier stages may leave an entity's fields unknown: then no lookup is
    # built. Errors found here do not stop the other entities from being checked.
    earlier_errors = c.failed
    dialect = _dialect(c)
    tenant = _tenant(c)
    reads: list[tuple[frozenset[str], Span | None, str]] = []   # (tables, `shared`, what)
    for entity in c.entities.values():
        lookup = _entity_lookup(c, entity, tenant, dialect, earlier_errors)
        if lookup is not None:
            c.lookups[entity.name.value] = lookup
            if tenant is not None:
                source = next((s for s in entity.statements
                               if isinstance(s, (ast.TableSource, ast.SqlSource))), None)
                reads.append((_tables(lookup.table, lookup.sql, tenant, dialect),
                              source.shared.span if source is not None and source.shared
                              else None, f"entity '{entity.name.value}'"))
    seen: dict[str, ast.DataSource] = {}
    for source in c.items(ast.DataSource):
        name = source.name.value
        if name in seen:
            c.error("RK201", f"source '{name}' is declared twice", source.name.span,
                    hint=_first_seen(seen[name].name.span))
            continue
        seen[name] = source
        built = _data_source(c, source, tenant, dialect)
        if built is not None:
            c.data_sources.append(built)
            if tenant is not None:
                shared = next((f for f in source.statements if isinstance(f, ast.SourceFlag)
                               and f.flag.value == "shared"), None)
                reads.append((_tables(None, built.sql, tenant, dialect),
                              shared.span if shared is not None else None, f"source '{name}'"))
    _shared_tables_are_shared(c, reads)
    if seen and not any(s.default or s.always for s in c.data_sources) and not c.failed:
        first = next(iter(seen.values()))
        c.warn("RK509", "no source runs when a question matches no keyword", first.name.span,
               hint="mark the sources to run then with `default` (say, the last 30 days of "
               "posts), or the ones to run for every question with `always`")


# --- settings ---------------------------------------------------------------------------------

def _dialect(c: Compilation) -> str | None:
    value = c.header_setting("dialect")
    if value is None:
        return None
    name = _plain(value).lower()
    if name not in SQL_DIALECTS:
        c.error("RK510", f"unknown SQL dialect '{_plain(value)}'", value.span,
                hint="the dialect the rules file's queries are written in: "
                + ", ".join(sorted(SQL_DIALECTS)))
        return None
    return SQL_DIALECTS[name]


def _tenant(c: Compilation) -> str | None:
    declared = list(c.items(ast.Tenant))
    for extra in declared[1:]:
        c.error("RK201", "the tenant scope is declared twice", extra.span,
                hint=_first_seen(declared[0].span) + "; a ruleset has one tenant parameter")
    if not declared:
        return None
    param = declared[0].param
    if not _PARAM_NAME.fullmatch(param.value) or param.value in WINDOW_PARAMS + ("ids",):
        c.error("RK504", f"'{param.value}' cannot name the tenant parameter", param.span,
                hint="use a lower-case name such as `tenant user_id`; since, until and ids are "
                "taken")
        return None
    return param.value


# --- entities ---------------------------------------------------------------------------------

def _entity_lookup(c: Compilation, entity: ast.Entity, tenant: str | None,
                   dialect: str | None, earlier_errors: bool = False) -> P.Lookup | None:
    name = entity.name.value
    declared = [s for s in entity.statements if isinstance(s, (ast.TableSource, ast.SqlSource))]
    for extra in declared[1:]:
        c.error("RK201", f"entity '{name}' says where its rows live twice", extra.span,
                hint=_first_seen(declared[0].span) + "; give one `source table` or `source sql`")
    key = next((s.field.value for s in entity.statements if isinstance(s, ast.KeyDecl)), None)
    if key is None or earlier_errors:
        return None
    columns = _columns(c, entity, key)
    source = declared[0] if declared else None
    shared_from = None      # the ruleset's tenant, when the source is every user's
    if source is not None and source.shared is not None:
        if tenant is None:
            c.error("RK506", f"`shared` says the rows of entity '{name}' are every user's, and "
                    "without a tenant scope every source is", source.shared.span,
                    hint="remove `shared`, or declare the scope at the top level: "
                    "`tenant user_id`")
            return None
        shared_from, tenant = tenant, None      # no tenant column, no tenant parameter
    if isinstance(source, ast.SqlSource):
        return _sql_lookup(c, entity, source, key, columns, tenant, dialect, shared_from)
    table = source.table.value if source else name
    if source is not None and not _valid_table_name(table):
        c.error("RK511", f"'{table}' is not a table name", source.table.span,
                hint='a table, or schema.table: `source table "orders"`')
        return None
    tenant_column = None
    if tenant is not None:
        tenant_column = source.scoped_by.value if source and source.scoped_by else tenant
    elif source is not None and source.scoped_by is not None:
        c.error("RK506", f"`scoped by {source.scoped_by.value}` needs a tenant scope",
                source.scoped_by.span, hint="declare it at the top level: `tenant user_id`")
        return None
    tree = S.lookup_tree(key=key, columns=columns, table=table, tenant_column=tenant_column,
                         tenant=tenant, fold=_key_folds(c, entity, key))
    statements = _prepare(c, tree, source.span if source else entity.name.span, f"entity '{name}'")
    return P.Lookup(kind="table", table=table, columns=tuple(f for _, f in columns),
                    tenant_column=tenant_column, shared=shared_from is not None,
                    statements=statements)


def _key_folds(c: Compilation, entity: ast.Entity, key: str) -> bool:
    """Whether the key compares ignoring case (an identifier or a text ``casefold``), so that
    its lookup must find a row whatever the case of the id."""
    info = c.fields.get((entity.name.value, key))
    return info is not None and info.kind in ("identifier", "text") and "casefold" in info.options


def _columns(c: Compilation, entity: ast.Entity, key: str) -> tuple[tuple[str, str], ...]:
    """``(stored column, field)`` for the key, the readable fields, the freshness field and the
    fields an input must equal (``requires ... matching``), in that order. Other hidden fields
    are never selected: not even the SQL asks for them."""
    name = entity.name.value
    fresh = next((s.via.value for s in entity.statements if isinstance(s, ast.FreshDecl)), None)
    wanted = [key]
    wanted += [f.name.value for f in entity.fields
               if c.fields[(name, f.name.value)].readable and f.name.value != key]
    if fresh and fresh not in wanted:
        wanted.append(fresh)
    wanted += [field.value for s in entity.statements if isinstance(s, ast.RequiresDecl)
               for _, field in s.matching
               if field.value not in wanted and (name, field.value) in c.fields]
    result = []
    for field in wanted:
        option = c.fields[(name, field)].options.get("column")
        result.append((_plain(option) if option is not None else field, field))
    return tuple(result)


def _sql_lookup(c: Compilation, entity: ast.Entity, source: ast.SqlSource, key: str,
                columns: tuple[tuple[str, str], ...], tenant: str | None,
                dialect: str | None, shared_from: str | None = None) -> P.Lookup | None:
    analysis = S.analyse(source.sql.value, dialect=dialect,
                         allowed_params=(tenant,) if tenant else (), tenant=tenant)
    if not _report(c, source.sql, _shared_problems(analysis.problems, source.sql.value,
                                                   shared_from)):
        return None
    returned = set(analysis.columns)
    missing = [(column, field) for column, field in columns if column not in returned]
    if missing:
        glued = _glued_alias(source.sql.value, analysis.tree, {column for column, _ in missing})
        if glued is not None:
            column, alias, start, end = glued
            c.error("RK505", f"the query of entity '{entity.name.value}' does not return "
                    f"{column}: `{column} {alias}` reads as `{column} AS {alias}`",
                    _sql_span(c, source.sql, start, end),
                    hint=f"a comma is missing: write `{column}, {alias}`")
            return None
        names = ", ".join(column if column == field else f"{column} (for {field})"
                          for column, field in missing)
        c.error("RK505", f"the query of entity '{entity.name.value}' does not return {names}",
                _first_word(c, source.sql),
                hint="a source returns the key and every readable field, named as the fields "
                "(or as their `column`); add them to the SELECT list")
        return None
    tree = S.lookup_tree(key=key, columns=columns, query=analysis.tree,
                         fold=_key_folds(c, entity, key))
    statements = _prepare(c, tree, _first_word(c, source.sql), f"entity '{entity.name.value}'")
    return P.Lookup(kind="sql", sql=source.sql.value, columns=tuple(f for _, f in columns),
                    tenant_column=analysis.tenant_column, shared=shared_from is not None,
                    statements=statements)


def _glued_alias(sql: str, tree, missing: set[str]) -> tuple[str, str, int, int] | None:
    """A selected column the query was to return, renamed by the next word with no `AS` or
    comma between (`name price`: a comma left out): the column, the alias and the alias's
    offsets in ``sql``; or None."""
    from sqlglot import exp

    for node in getattr(tree, "expressions", ()) if isinstance(tree, exp.Select) else ():
        if isinstance(node, exp.Alias) and isinstance(node.this, exp.Column) and \
                node.this.name in missing:
            column, alias = node.this.name, node.alias
            glued = re.search(rf"\b{re.escape(column)}\s+({re.escape(alias)})\b", sql,
                              re.IGNORECASE)
            if glued is not None:
                return column, alias, glued.start(1), glued.end(1)
    return None


def _valid_table_name(table: str) -> bool:
    return bool(re.fullmatch(r"[A-Za-z_][A-Za-z0-9_$]*(\.[A-Za-z_][A-Za-z0-9_$]*)?", table))


# --- routed sources ---------------------------------------------------------------------------

def _data_source(c: Compilation, source: ast.DataSource, tenant: str | None,
                 dialect: str | None) -> P.DataSource | None:
    name = source.name.value
    by_kind: dict[type, list] = {}
    for statement in source.statements:
        by_kind.setdefault(type(statement), []).append(statement)
    for kind, statements in by_kind.items():
        if kind is not ast.SourceFlag:
            word = _SOURCE_WORDS[kind]
            for extra in statements[1:]:
                c.error("RK201", f"source '{name}' has `{word}` twice", extra.span,
                        hint=_first_seen(statements[0].span) + (
                            '; list every keyword in one: `keywords "a", "b"`'
                            if kind is ast.SourceKeywords else ""))
    flags = {f.flag.value: f for f in by_kind.get(ast.SourceFlag, [])}
    sql = by_kind.get(ast.SourceSql, [None])[0]
    keywords = by_kind.get(ast.SourceKeywords, [None])[0]
    window = by_kind.get(ast.SourceWindow, [None])[0]
    if sql is None:
        c.error("RK512", f"source '{name}' has no query", source.name.span,
                hint='give it one: `sql "SELECT ... WHERE user_id = :user_id"`')
        return None
    if keywords is None and "default" not in flags and "always" not in flags:
        c.error("RK512", f"source '{name}' can never run: it has no keywords and is neither "
                "`default` nor `always`", source.name.span,
                hint='add `keywords "which post", "best"`, or `default`')
    for keyword in keywords.keywords if keywords else ():
        if not keyword.value.strip():
            c.error("RK304", "an empty keyword would match every question", keyword.span)
    if window is not None and window.window.seconds <= 0:
        c.error("RK310", "a window must be longer than zero", window.window.span)
    shared_from = None
    if "shared" in flags:
        if tenant is None:
            c.error("RK506", f"`shared` says the rows of source '{name}' are every user's, and "
                    "without a tenant scope every source is", flags["shared"].span,
                    hint="remove `shared`, or declare the scope at the top level: "
                    "`tenant user_id`")
            return None
        shared_from, tenant = tenant, None      # every user's rows: the query names no tenant
    allowed = (tenant,) if tenant else ()
    if window is not None:
        allowed += WINDOW_PARAMS
    analysis = S.analyse(sql.sql.value, dialect=dialect, allowed_params=allowed, tenant=tenant)
    problems = _shared_problems(analysis.problems, sql.sql.value, shared_from)
    if window is None:
        problems = [p if not any(f":{w}" == sql.sql.value[p.start:p.end] for w in WINDOW_PARAMS)
                    else S.SqlProblem("RK504", f"{sql.sql.value[p.start:p.end]} needs a window",
                                      p.start, p.end, "declare the window the query looks back "
                                      "over: `window 30d`")
                    for p in problems]
    if not _report(c, sql.sql, problems):
        return None
    if window is not None and "since" not in analysis.params:
        c.error("RK504", f"source '{name}' declares a window but its query never uses :since",
                window.span, hint="bound the rows: `... AND posted_at >= :since`")
        return None
    statements = _prepare(c, analysis.tree, _first_word(c, sql.sql), f"source '{name}'")
    return P.DataSource(
        name=name, sql=sql.sql.value,
        keywords=tuple(k.value for k in keywords.keywords) if keywords else (),
        window_seconds=window.window.seconds if window else None,
        default="default" in flags, always="always" in flags, columns=analysis.columns,
        params=analysis.params, statements=statements)


def _tables(table: str | None, sql: str | None, tenant: str,
            dialect: str | None) -> frozenset[str]:
    """The tables a lookup or a routed source reads: its table, or those its query names."""
    if sql is None:
        return frozenset({(table or "").lower()})
    return S.tables_read(sql, dialect=dialect, params=(tenant, *WINDOW_PARAMS))


def _shared_tables_are_shared(c: Compilation, reads) -> None:
    """A `shared` source may not read a table that a source scoped to the tenant reads: that
    table holds each user's rows, and the shared one would show every user's (RK506)."""
    scoped: dict[str, str] = {}
    for tables, shared, what in reads:
        if shared is None:
            for table in tables:
                scoped.setdefault(table, what)
    for tables, shared, what in reads:
        both = sorted(tables & scoped.keys()) if shared is not None else ()
        if both:
            c.error("RK506", f"{what} is `shared` but reads {both[0]}, which "
                    f"{scoped[both[0]]} reads scoped to the tenant: its rows are each user's, "
                    "and a shared source would show them to every user", shared,
                    hint="drop `shared`, or read a table or view of rows every user may see")


def _shared_problems(problems, sql: str, tenant: str | None) -> list:
    """``problems`` of a `shared` source's query, where ``tenant`` is the ruleset's tenant
    parameter (None for a source scoped as usual): naming the tenant there is said as such."""
    if tenant is None:
        return list(problems)
    return [S.SqlProblem("RK504", f"a `shared` source is every user's, so its query may not "
                         f"use the tenant :{tenant}", p.start, p.end,
                         "drop the condition on the tenant, or drop `shared` to read only the "
                         "signed-in user's rows")
            if p.code == "RK504" and sql[p.start:p.end] == f":{tenant}" else p
            for p in problems]


# --- shared -----------------------------------------------------------------------------------

def _prepare(c: Compilation, tree, span: Span, what: str) -> tuple[P.Statement, ...]:
    statements, failures = S.prepare(tree)
    for dialect, why in failures.items():
        c.warn("RK507", f"the query of {what} cannot be written for {dialect}: {why}", span,
               hint=f"it will not run against {dialect}; use SQL that every backend you run "
               "understands")
    return statements


def _report(c: Compilation, string: ast.String, problems) -> bool:
    for problem in problems:
        c.error(problem.code, problem.message, _sql_span(c, string, problem.start, problem.end),
                hint=problem.hint)
    return not problems


def _first_word(c: Compilation, string: ast.String) -> Span:
    """The span of the query's first word (SELECT, WITH): where a problem of the whole query is
    shown."""
    word = re.search(r"\S+", string.value)
    return _sql_span(c, string, word.start(), word.end()) if word else string.span


def _sql_span(c: Compilation, string: ast.String, start: int, end: int) -> Span:
    """The file span of characters ``start:end`` of a string's decoded text."""
    text = c.sources.get(string.span.path)
    begin, finish = string.offset_of(start), string.offset_of(max(end, start + 1))
    if text is None:
        return string.span
    line = text.count("\n", 0, begin) + 1
    column = begin - (text.rfind("\n", 0, begin) + 1) + 1
    end_line = text.count("\n", 0, finish) + 1
    end_column = finish - (text.rfind("\n", 0, finish) + 1) + 1
    return Span(string.span.path, line, column, end_line, end_column, begin, finish)

