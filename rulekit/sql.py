"""SQL at compile time: judge the author's SELECTs with sqlglot and prepare every statement
rulekit will run, in every dialect it can run them in.

Nothing here runs at check time. The compile stage (``rulekit.stages.sources``) calls
``analyse`` on each query written in a rules file and ``prepare`` to build the statements that
go into the compiled artifact; the resolvers in ``rulekit.sources`` only fill in parameters.
That keeps sqlglot out of the chatbot's process and makes the SQL that will run reviewable in
the artifact, byte for byte.

What a query may be (each refusal is a ``SqlProblem`` with the offsets of the offending token
in the query text, which the stage maps to file:line:col):

- exactly one statement, a SELECT (or a UNION of SELECTs, or a WITH ... SELECT);
- nothing that writes or locks anywhere inside it: no INSERT, UPDATE, DELETE, MERGE, DDL,
  SELECT ... INTO, FOR UPDATE / FOR SHARE, and no unparsed command;
- only functions on ``ALLOWED_FUNCTIONS`` (so no pg_sleep, load_file, dblink, ...), and no
  table in a system catalogue (pg_catalog, information_schema, mysql, ...);
- parameters only by name (``:user_id``), and only the names the context allows;
- it names its columns (no ``SELECT *``): the compiler checks that the key and every readable
  field come back.

How a statement is stored: the SQL text is cut at its parameters into ``parts``, with the
parameter names in ``params`` (``ids`` is the id list of a lookup, expanded at run time to one
marker per id). Parts are written in the driver's paramstyle: ``?`` for SQLite and DuckDB,
``%s`` for psycopg and PyMySQL, with a literal ``%`` doubled for the latter two.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Iterable

import sqlglot
from sqlglot import exp
from sqlglot.errors import ErrorLevel, ParseError, TokenError, UnsupportedError
from sqlglot.tokens import TokenType

from rulekit import policy as P

# The dialects every query is written for, with the driver's parameter marker. MariaDB speaks
# sqlglot's "mysql".
DIALECTS: dict[str, str] = {"sqlite": "?", "postgres": "%s", "mysql": "%s", "duckdb": "?"}
PYFORMAT = frozenset(d for d, marker in DIALECTS.items() if marker == "%s")

# Functions a query may call. Reading, formatting and aggregating only: nothing that sleeps,
# reads files, opens connections, changes settings or reaches other databases.
ALLOWED_FUNCTIONS = frozenset("""
    ABS AVG CAST TRY_CAST CEIL CEILING COALESCE CONCAT CONCAT_WS COUNT COUNT_IF CURRENT_DATE
    CURRENT_TIMESTAMP CURRENT_TIME DATE DATE_TRUNC DATEDIFF DATE_DIFF DATETIME DAY EXTRACT FLOOR
    GREATEST HOUR IF IFNULL NULLIF NVL LEAST LENGTH CHAR_LENGTH LOWER UPPER LTRIM RTRIM TRIM MAX
    MIN MINUTE MOD MONTH POWER POW ROUND SIGN SQRT SUBSTRING SUBSTR SUM REPLACE STRFTIME TO_CHAR
    TIME_TO_STR STR_TO_TIME TS_OR_DS_TO_DATE YEAR ROW_NUMBER RANK DENSE_RANK LAG LEAD
    FIRST_VALUE LAST_VALUE STRING_AGG GROUP_CONCAT ARRAY_AGG CASE ANY_VALUE TRUNC LEFT RIGHT
    POSITION STRPOS INSTR STDDEV VARIANCE PERCENTILE_CONT PERCENTILE_DISC DATE_ADD DATE_SUB
    TIMESTAMP TIMESTAMP_TRUNC UNIX_TO_TIME TIME_TO_UNIX EPOCH TO_DATE TO_TIMESTAMP
    """.split())

# Schemas that hold the database's own catalogues (users, grants, settings). A read of them is
# read-only and still a leak.
SYSTEM_SCHEMAS = frozenset({"pg_catalog", "information_schema", "mysql", "performance_schema",
                            "sys", "pg_toast"})
SYSTEM_TABLES = frozenset({"sqlite_master", "sqlite_schema", "sqlite_temp_master",
                           "pg_user", "pg_shadow", "pg_authid", "pg_roles", "pg_settings",
                           "pg_stat_activity", "pg_file_settings", "pg_hba_file_rules"})

# Node types that write, lock, change the session or are not SQL sqlglot understood.
_FORBIDDEN: tuple[tuple[type, str], ...] = (
    (exp.Insert, "INSERT"), (exp.Update, "UPDATE"), (exp.Delete, "DELETE"),
    (exp.Merge, "MERGE"), (exp.Create, "CREATE"), (exp.Drop, "DROP"), (exp.Alter, "ALTER"),
    (exp.TruncateTable, "TRUNCATE"), (exp.Command, "a command"), (exp.Set, "SET"),
    (exp.Use, "USE"), (exp.Transaction, "a transaction"), (exp.Commit, "COMMIT"),
    (exp.Rollback, "ROLLBACK"), (exp.Into, "SELECT ... INTO"), (exp.Lock, "FOR UPDATE / SHARE"),
    (exp.Copy, "COPY"), (exp.Grant, "GRANT"), (exp.Pragma, "PRAGMA"), (exp.Cache, "CACHE"),
    (exp.LoadData, "LOAD DATA"), (exp.Describe, "DESCRIBE"),
)
_WRITING_TOKENS = {"INSERT", "UPDATE", "DELETE", "MERGE", "CREATE", "DROP", "ALTER", "TRUNCATE",
                   "REPLACE", "GRANT", "REVOKE", "COPY", "CALL", "EXEC", "EXECUTE", "DO", "SET",
                   "LOCK", "VACUUM", "ATTACH", "DETACH", "PRAGMA", "LOAD", "HANDLER", "RENAME",
                   "INTO", "FOR", "BEGIN", "COMMIT", "ROLLBACK"}
# The word that starts each forbidden construct, where it is not the first word of its name.
_FORBIDDEN_WORDS: dict[type, set[str]] = {exp.Into: {"INTO"}, exp.Lock: {"FOR"},
                                          exp.Transaction: {"BEGIN", "START"},
                                          exp.Command: _WRITING_TOKENS}

RESERVED_PREFIX = "__rk_"
_SENTINEL = re.compile(r"__rk_(ids|p_[A-Za-z0-9_]+)__")
ROW_ALIAS = "rk_rows"


@dataclasses.dataclass(frozen=True, slots=True)
class SqlProblem:
    """One thing wrong with a query; ``start``/``end`` are offsets into the query text."""
    code: str
    message: str
    start: int
    end: int
    hint: str | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class Analysis:
    """A query that passed (``tree`` set) or did not (``problems``)."""
    tree: exp.Expression | None
    problems: tuple[SqlProblem, ...]
    columns: tuple[str, ...] = ()        # the names of the columns it returns, in order
    params: tuple[str, ...] = ()         # the named parameters it uses, in order of first use
    tenant_column: str | None = None     # the column its tenant predicate compares


def analyse(sql: str, *, dialect: str | None, allowed_params: Iterable[str],
            tenant: str | None) -> Analysis:
    """Judge one query. ``tenant`` is the tenant parameter every query must be scoped by, or
    None when the ruleset declares no tenant scope."""
    allowed = tuple(allowed_params)
    if RESERVED_PREFIX in sql:
        at = sql.index(RESERVED_PREFIX)
        return Analysis(None, (SqlProblem("RK502", f"names starting with {RESERVED_PREFIX!r} are "
                                          "reserved for rulekit", at, at + len(RESERVED_PREFIX)),))
    try:
        tokens = sqlglot.tokenize(sql, read=dialect)
    except TokenError as exc:
        return Analysis(None, (_token_problem(sql, exc, dialect),))
    statements = _split_statements(tokens)
    if not statements:
        return Analysis(None, (SqlProblem("RK501", "the SQL is empty", 0, 0,
                                          "write one SELECT"),))
    if len(statements) > 1:
        second = statements[1][0]
        return Analysis(None, (SqlProblem(
            "RK502", "more than one statement; a source is exactly one SELECT", second.start,
            second.end + 1, "remove everything after the first statement's `;`"),))
    first = statements[0][0]
    if first.text.upper() not in ("SELECT", "WITH", "(", "VALUES") and \
            first.token_type not in (TokenType.SELECT, TokenType.WITH, TokenType.L_PAREN):
        return Analysis(None, (_not_a_select(first.text, first.start, first.end + 1),))
    try:
        trees = sqlglot.parse(sql, read=dialect, error_level=ErrorLevel.RAISE)
    except ParseError as exc:
        return Analysis(None, (_parse_problem(sql, exc, dialect),))
    trees = [t for t in trees if t is not None]
    if len(trees) != 1:
        return Analysis(None, (SqlProblem("RK502", "a source is exactly one SELECT", 0,
                                          len(sql)),))
    tree = trees[0]
    problems: list[SqlProblem] = []
    problems += _forbidden_nodes(tree, sql, tokens)
    if not isinstance(tree, (exp.Select, exp.SetOperation, exp.Subquery)) and not problems:
        problems.append(_not_a_select(type(tree).__name__.upper(), 0, min(len(sql), 6)))
    problems += _functions(tree, sql)
    problems += _catalogue_tables(tree, sql, tokens)
    params, param_problems = _parameters(sql, tokens, allowed, tenant)
    problems += param_problems
    columns, column_problems = _output_columns(tree, sql, tokens)
    problems += column_problems
    tenant_column = None
    if tenant is not None and not problems:
        tenant_column, tenant_problems = _tenant_predicate(tree, tenant, sql)
        problems += tenant_problems
    return Analysis(None if problems else tree, tuple(problems), columns, params, tenant_column)


# --- the checks -------------------------------------------------------------------------------

def _split_statements(tokens) -> list[list]:
    statements, current = [], []
    for token in tokens:
        if token.token_type == TokenType.SEMICOLON:
            if current:
                statements.append(current)
            current = []
        else:
            current.append(token)
    if current:
        statements.append(current)
    return statements


def _not_a_select(word: str, start: int, end: int) -> SqlProblem:
    return SqlProblem("RK502", f"only a SELECT may be used here, not {word}", start, end,
                      "rulekit only reads: write a SELECT that returns the rows")


def _read_as(dialect: str | None) -> str:
    if dialect is None:
        return ("the query is read as generic SQL; if it is written for one database, say "
                "which in the header: `dialect postgres`")
    return f"the query is read as {dialect} SQL (the header's `dialect`)"


def _token_problem(sql: str, exc: TokenError, dialect: str | None) -> SqlProblem:
    """The tokenizer stops at a quote or comment that is never closed; sqlglot's own message
    quotes 100 characters around the place, so the opener is found here instead (the last
    one: the ones before it were closed)."""
    missing = re.match(r"Missing (\S+) from", str(exc.__cause__ or ""))
    opener = missing.group(1) if missing else ("/*" if "/*" in sql else None)
    at = sql.rfind(opener) if opener else -1
    if at < 0:
        return SqlProblem("RK501", "the SQL does not parse: it cannot be split into words", 0,
                          min(len(sql), 1), _read_as(dialect))
    closer = "*/" if opener == "/*" else opener
    return SqlProblem("RK501", f"the SQL does not parse: this {opener} is never closed", at,
                      at + len(opener), f"close it with {closer}; " + _read_as(dialect))


# sqlglot's message for a node that lacks a part: "Required keyword: 'expression' missing for
# <class 'sqlglot.expressions.core.And'>", said in SQL words instead.
_MISSING_PART = re.compile(r"Required keyword: '(\w+)' missing for <class '[\w.]*?(\w+)'>")
_SQL_WORDS = {"And": "AND", "Or": "OR", "Not": "NOT", "EQ": "=", "NEQ": "<>", "GT": ">",
              "GTE": ">=", "LT": "<", "LTE": "<=", "Like": "LIKE", "In": "IN", "Is": "IS",
              "Add": "+", "Sub": "-", "Mul": "*", "Div": "/", "Between": "BETWEEN"}


def _plain_description(description: str) -> str:
    missing = _MISSING_PART.search(description)
    if missing is None:
        return description
    part, node = missing.groups()
    word = _SQL_WORDS.get(node)
    what = f"`{word}`" if word else f"a {node.upper()}"
    side = {"expression": "nothing after it", "this": "nothing before it"}.get(
        part, f"no {part}")
    return f"{what} has {side}"


def _parse_problem(sql: str, exc: ParseError, dialect: str | None = None) -> SqlProblem:
    error = exc.errors[0] if exc.errors else {}
    line, column = error.get("line"), error.get("col")
    highlight = error.get("highlight") or ""
    description = _plain_description(error.get("description") or str(exc))
    if line is None or column is None:
        return SqlProblem("RK501", f"the SQL does not parse: {description}", 0, min(len(sql), 1),
                          _read_as(dialect))
    lines = sql.split("\n")
    offset = sum(len(text) + 1 for text in lines[:line - 1]) + column  # sqlglot's col is the end
    start = max(0, offset - len(highlight))
    return SqlProblem("RK501", f"the SQL does not parse: {description}", start,
                      max(start + 1, offset), _read_as(dialect))


def _token_at(tokens, words: set[str], after: int = -1):
    return next((t for t in tokens if t.start > after and t.text.upper() in words), None)


def _forbidden_nodes(tree: exp.Expression, sql: str, tokens) -> list[SqlProblem]:
    for node in tree.walk():
        for kind, what in _FORBIDDEN:
            if isinstance(node, kind):
                words = _FORBIDDEN_WORDS.get(kind, {what.split()[0]})
                token = _token_at(tokens, words) or _token_at(tokens, _WRITING_TOKENS) \
                    or tokens[0]
                end = token.end + 1
                if kind is exp.Lock:    # FOR UPDATE, FOR SHARE: both words
                    following = _token_at(tokens, {"UPDATE", "SHARE", "NO", "KEY"}, token.start)
                    end = following.end + 1 if following else end
                return [SqlProblem("RK502", f"{what} is not allowed: a source only reads",
                                   token.start, end,
                                   "write one plain SELECT; rulekit opens every connection "
                                   "read-only as well")]
    return []


def function_name(node: exp.Func) -> str:
    if isinstance(node, exp.Anonymous):
        return str(node.name).upper()
    return node.sql_name().upper()


def _functions(tree: exp.Expression, sql: str) -> list[SqlProblem]:
    problems = []
    for node in tree.find_all(exp.Func):
        if isinstance(node, (exp.Connector, exp.Binary, exp.Unary, exp.Predicate)):
            continue   # AND, OR, =, NOT ...: operators that sqlglot models as functions
        name = function_name(node)
        if name in ALLOWED_FUNCTIONS:
            continue
        start, end = _locate(node, sql, name)
        problems.append(SqlProblem(
            "RK503", f"function {name.lower()}() is not allowed in a source", start, end,
            "a query may only read, format and aggregate; the functions it may call are "
            "listed under RK503 in docs/errors.md"))
    return problems


def _locate(node: exp.Expression, sql: str, word: str) -> tuple[int, int]:
    meta = node.meta
    if "start" in meta and "end" in meta:
        return meta["start"], meta["end"] + 1
    match = re.search(rf"(?i)\b{re.escape(word)}\b", sql)
    return (match.start(), match.end()) if match else (0, min(len(sql), 1))


def tables_read(sql: str, *, dialect: str | None, params: Iterable[str]) -> frozenset[str]:
    """The tables a query that passed ``analyse`` reads, lower-cased, as ``schema.name`` when it
    names a schema; empty for one that does not parse. ``params`` are the parameters it may
    use."""
    tree = analyse(sql, dialect=dialect, allowed_params=params, tenant=None).tree
    if tree is None:
        return frozenset()
    return frozenset(f"{t.db}.{t.name}".lower() if t.db else (t.name or "").lower()
                     for t in tree.find_all(exp.Table))


def _catalogue_tables(tree: exp.Expression, sql: str, tokens) -> list[SqlProblem]:
    problems = []
    for table in tree.find_all(exp.Table):
        schema = (table.db or "").lower()
        name = (table.name or "").lower()
        if schema in SYSTEM_SCHEMAS or name in SYSTEM_TABLES or name.startswith("pg_stat"):
            shown = f"{schema}.{name}" if schema else name
            token = _token_at(tokens, {(schema or name).upper()})
            start, end = (token.start, token.end + 1) if token else (0, 1)
            problems.append(SqlProblem("RK503", f"{shown} is a system catalogue; a source may "
                                       "not read it", start, end,
                                       "read the application's own tables"))
    return problems


def _parameters(sql: str, tokens, allowed: tuple[str, ...], tenant: str | None = None
                ) -> tuple[tuple[str, ...], list]:
    """Named parameters in order of first use. sqlglot reads ``:name`` as one PLACEHOLDER token
    or as COLON + VAR, by dialect; both are found here, with their offsets."""
    seen: dict[str, None] = {}
    problems = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        name = start = end = None
        if token.token_type == TokenType.PLACEHOLDER:
            text = token.text
            if text in ("?", ""):
                start, end = token.start, token.end + 1
                problems.append(SqlProblem(
                    "RK504", "parameters are named in rulekit: use "
                    f":{allowed[0] if allowed else 'name'}", start, end,
                    "write the parameter's name where its value goes; parameters here: " +
                    (", ".join(f":{a}" for a in allowed) or "none")))
            else:
                name, start, end = text.lstrip(":"), token.start, token.end + 1
        elif token.token_type == TokenType.PARAMETER or (
                token.text[:1] == "$" and token.text[1:].isdigit()):
            # "@account_id" (a MariaDB session variable), "$1" (a positional parameter): rulekit
            # binds only its own named parameters, so neither would hold what the author meant
            end = tokens[index + 1].end + 1 if token.token_type == TokenType.PARAMETER and \
                index + 1 < len(tokens) and tokens[index + 1].start == token.end + 1 \
                else token.end + 1
            problems.append(SqlProblem(
                "RK504", f"{sql[token.start:end]} is no parameter rulekit binds: use "
                f":{allowed[0] if allowed else 'name'}", token.start, end,
                "parameters are written :name, and only these: " +
                (", ".join(f":{a}" for a in allowed) or "none")))
        elif token.token_type == TokenType.COLON and index + 1 < len(tokens) and \
                tokens[index + 1].start == token.end + 1 and \
                re.fullmatch(r"[A-Za-z_]\w*", tokens[index + 1].text):
            name, start, end = tokens[index + 1].text, token.start, tokens[index + 1].end + 1
            index += 1
        index += 1
        if name is None or name in seen:
            continue
        if name not in allowed:
            problems.append(SqlProblem(
                "RK504", f"unknown parameter :{name}", start, end,
                "parameters here: " + (", ".join(f":{a}" for a in allowed) or "none") +
                "; values from the question or the model can never be parameters" +
                ("" if tenant else f"; to bind the signed-in user's id, declare `tenant {name}` "
                 "at the top level")))
        seen.setdefault(name)
    return tuple(seen), problems


def _output_columns(tree: exp.Expression, sql: str, tokens) -> tuple[tuple[str, ...], list]:
    select = tree
    while isinstance(select, (exp.SetOperation, exp.Subquery)):
        select = select.left if isinstance(select, exp.SetOperation) else select.this
    if not isinstance(select, exp.Select):
        return (), []
    names, problems = [], []
    for projection in select.expressions:
        if isinstance(projection, exp.Star) or (isinstance(projection, exp.Column)
                                                and isinstance(projection.this, exp.Star)):
            token = _token_at(tokens, {"*"})
            start, end = (token.start, token.end + 1) if token else (0, 1)
            problems.append(SqlProblem("RK505", "SELECT * hides which columns come back", start,
                                       end, "list the columns: the key and every readable field"))
            continue
        name = projection.alias_or_name
        if not name:
            start, end = _locate(projection, sql, projection.sql()[:20])
            problems.append(SqlProblem("RK505", f"the column {projection.sql()!r} has no name",
                                       start, end, "name it: `... AS field_name`"))
            continue
        names.append(name)
    return tuple(names), problems


def _conjuncts(condition: exp.Expression) -> Iterable[exp.Expression]:
    """The terms joined by AND at the top of a condition (through parentheses)."""
    if isinstance(condition, exp.Paren):
        yield from _conjuncts(condition.this)
    elif isinstance(condition, exp.And):
        yield from _conjuncts(condition.left)
        yield from _conjuncts(condition.right)
    else:
        yield condition


def _tenant_predicate(tree: exp.Expression, tenant: str, sql: str) -> tuple[str | None, list]:
    """Prove that every row the query returns is the tenant's (``_TenantProof``), and name the
    column its tenant condition compares (the lookup of rows held in memory filters on it)."""
    problem = _TenantProof(tenant, sql, tree).query(tree, {}, frozenset(), top=True)
    if problem is not None:
        return None, [problem]
    return _tenant_column(tree, tenant), []


def _tenant_column(tree: exp.Expression, tenant: str, ctes: dict | None = None,
                   depth: int = 0) -> str | None:
    """The column compared with the tenant at the top of the first SELECT: in its WHERE clause,
    else in a join's ON, else in the subquery or CTE it reads first."""
    select = tree
    ctes = dict(ctes or {})
    while isinstance(select, (exp.SetOperation, exp.Subquery)):
        with_ = select.args.get("with_") or select.args.get("with")
        if isinstance(with_, exp.With):
            ctes.update((c.alias_or_name.lower(), c.this) for c in with_.expressions)
        select = select.left if isinstance(select, exp.SetOperation) else select.this
    if not isinstance(select, exp.Select) or depth > 8:
        return None
    with_ = select.args.get("with_") or select.args.get("with")
    if isinstance(with_, exp.With):
        ctes.update((c.alias_or_name.lower(), c.this) for c in with_.expressions)
    where = select.args.get("where")
    conditions = [where.this] if where else []
    conditions += [j.args["on"] for j in select.args.get("joins") or () if j.args.get("on")]
    for condition in conditions:
        found = None
        for term in _conjuncts(condition):
            if isinstance(term, exp.EQ):
                for one, other in ((term.left, term.right), (term.right, term.left)):
                    if isinstance(one, exp.Column) and _is_param(other, tenant):
                        found = one.name
        if found is not None:
            return found
    from_ = select.args.get("from_") or select.args.get("from")
    first = from_.this if from_ is not None else None
    if isinstance(first, exp.Subquery):
        return _tenant_column(first.this, tenant, ctes, depth + 1)
    if isinstance(first, exp.Table) and not first.db and first.name.lower() in ctes:
        return _tenant_column(ctes[first.name.lower()], tenant, ctes, depth + 1)
    return None


_TENANT = ("", "")      # the tenant parameter, as a term of the equalities
_QUERY = (exp.Select, exp.SetOperation, exp.Subquery)


@dataclasses.dataclass(slots=True)
class _Source:
    """One table or subquery in a SELECT's FROM clause and its joins."""
    alias: str                      # lower-cased: how the query's columns name it
    shown: str                      # as the message names it
    start: int
    end: int
    table: bool                     # a table of the database (not a subquery or a CTE)
    body: exp.Expression | None = None  # a subquery's or CTE's own query
    ctes: dict | None = None            # the CTEs its query sees
    cte: str | None = None              # the CTE it reads, by name


class _TenantProof:
    """The compiler's proof that a query returns only the tenant's rows.

    Every table (or subquery) a SELECT reads must be restricted to the tenant:

    - a table is, when one of its columns equals the tenant parameter, or equals a column of a
      table that is (transitively): ``i.user_id = :user_id``, or ``u.id = :user_id`` with
      ``i.user_id = u.id``. Only ``=`` between plain columns and the parameter counts, and only
      as a term joined with AND at the top of the WHERE clause or of an inner join's ON; a LEFT
      JOIN's ON restricts only the table it joins; a RIGHT or FULL join's ON restricts nothing.
      An unqualified column counts only in a SELECT that reads one table;
    - a subquery in FROM, or a CTE, is when its own SELECTs are (a condition outside on its
      columns proves nothing: a column may be the parameter itself), and it restricts no other
      table through a join;
    - a subquery in the SELECT list supplies a column, so it must be restricted too: the outer
      SELECT's restricted tables count for its correlation (``l.invoice_id = i.id``).

    What it cannot follow is refused: LATERAL, WITH RECURSIVE, table functions, VALUES and
    parenthesised joins in FROM. It cannot see the schema: that the columns of a join are a
    key (that the joined row belongs to the restricted one) is the author's part.
    Subqueries in WHERE, ON or HAVING only filter the rows the proof already holds to the
    tenant, and are not judged.
    """

    def __init__(self, tenant: str, sql: str, root: exp.Expression) -> None:
        self.tenant, self.sql, self.root = tenant, sql, root

    def query(self, node: exp.Expression, ctes: dict, anchors: frozenset[str], *,
              top: bool = False) -> SqlProblem | None:
        ctes, problem = self._with(node, ctes)
        if problem is not None:
            return problem
        if isinstance(node, exp.Subquery):
            return self.query(node.this, ctes, anchors, top=top)
        if isinstance(node, exp.SetOperation):
            return (self.query(node.left, ctes, anchors, top=top)
                    or self.query(node.right, ctes, anchors, top=top))
        if isinstance(node, exp.Select):
            return self.select(node, ctes, anchors, top=top)
        return self._cannot(node, type(node).__name__.upper(), "a SELECT")

    def _with(self, node: exp.Expression, ctes: dict) -> tuple[dict, SqlProblem | None]:
        with_ = node.args.get("with_") or node.args.get("with")
        if not isinstance(with_, exp.With):
            return ctes, None
        if with_.args.get("recursive"):
            return ctes, self._cannot(with_, "RECURSIVE", "WITH RECURSIVE")
        ctes = dict(ctes)
        for cte in with_.expressions:
            # a CTE sees the ones before it; it is proven when the query reads it
            ctes[cte.alias_or_name.lower()] = [cte.this, dict(ctes), None, False]
        return ctes, None

    def select(self, select: exp.Select, ctes: dict, anchors: frozenset[str], *,
               top: bool) -> SqlProblem | None:
        ctes, problem = self._with(select, ctes)
        if problem is not None:
            return problem
        from_ = select.args.get("from_") or select.args.get("from")
        where = select.args.get("where")
        if from_ is None:
            # a SELECT of a subquery that reads no table holds nobody's rows (and a subquery
            # restricts no other table); the query itself must read one
            return _unscoped(self.root, select, where, self.tenant, self.sql) if top else None
        items = [(from_.this, None)] + [(j.this, j) for j in select.args.get("joins") or ()]
        sources: list[tuple[_Source, exp.Join | None]] = []
        for node, join in items:
            source = self._source(node, ctes)
            if isinstance(source, SqlProblem):
                return source
            if any(s.alias == source.alias for s, _ in sources):
                # a column of either would be taken for the other's
                return SqlProblem("RK506", f"the query is not scoped to the tenant as far as the "
                                  f"compiler can prove: two tables of a SELECT are named "
                                  f"{source.alias}", source.start, source.end,
                                  "give each table its own alias: `FROM invoices i JOIN "
                                  "invoices j ON j.id = i.parent_id`")
            sources.append((source, join))
        names = {s.alias for s, _ in sources}
        anchors = anchors - names                       # an inner name hides an outer one
        tables = {s.alias for s, _ in sources if s.table}
        single = sources[0][0].alias if len(sources) == 1 else None
        unqualified: list[exp.Column] = []

        def term(node: exp.Expression):
            if _is_param(node, self.tenant):
                return _TENANT
            if isinstance(node, exp.Column) and isinstance(node.this, exp.Identifier):
                if node.table:
                    return (node.table.lower(), node.name.lower())
                if single is not None:
                    return (single, node.name.lower())
            return None

        def equalities(condition) -> list[tuple]:
            pairs = []
            for part in _conjuncts(condition) if condition is not None else ():
                if isinstance(part, exp.EQ):
                    left, right = term(part.left), term(part.right)
                    if left is not None and right is not None:
                        pairs.append((left, right))
                    elif _TENANT in (left, right):
                        other = part.right if left == _TENANT else part.left
                        if isinstance(other, exp.Column) and not other.table:
                            unqualified.append(other)
            return pairs

        shared_eqs = equalities(where.this if where else None)
        local: dict[str, list] = {}                     # a LEFT JOIN's ON: its own table only
        for index, (source, join) in enumerate(sources):
            if join is None:
                continue
            side = str(join.args.get("side") or "").upper()
            pairs = equalities(join.args.get("on"))
            before = [s for s, _ in sources[:index]]
            if len(before) == 1:
                pairs += [((before[0].alias, u.name.lower()), (source.alias, u.name.lower()))
                          for u in join.args.get("using") or () if isinstance(u, exp.Identifier)]
            if side == "LEFT":
                local[source.alias] = pairs
            elif side not in ("RIGHT", "FULL"):
                shared_eqs += pairs
        proven = self._closure(shared_eqs, anchors, tables)
        grew = True
        while grew:
            grew = False
            for alias, pairs in local.items():
                if alias not in proven and alias in self._closure(shared_eqs + pairs, proven,
                                                                  tables):
                    proven = self._closure(shared_eqs, proven | {alias}, tables)
                    grew = True
        for source, _ in sources:
            if source.table and source.alias in proven:
                continue
            if not source.table:
                body = self._body(source)
                if body is None:
                    continue
                return body
            if unqualified and len(sources) > 1:
                column = unqualified[0]
                start, end = _identifier_span(column.this, self.sql, column.name)
                return SqlProblem(
                    "RK506", f"the query is not scoped to the tenant: {column.name} = "
                    f":{self.tenant} does not say whose column it is, and the query reads "
                    f"{len(sources)} tables", start, end,
                    f"qualify it with its table's name or alias: `{sources[0][0].alias}."
                    f"{column.name} = :{self.tenant}`; the compiler proves each table is the "
                    "user's")
            compared = any(_TENANT in pair for pair in shared_eqs) or \
                any(_TENANT in pair for pairs in local.values() for pair in pairs)
            if top and not compared and not anchors and all(s.table for s, _ in sources):
                return _unscoped(self.root, select, where, self.tenant, self.sql)
            return self._unrestricted(source, [s for s, _ in sources if s.alias in proven],
                                      any(not s.table for s, _ in sources))
        # a subquery in the SELECT list supplies a column: it must be the tenant's too
        inner = anchors | {a for a in proven if a in tables}
        for projection in select.expressions:
            for node in projection.walk(prune=lambda n: isinstance(n, _QUERY)):
                if isinstance(node, _QUERY):
                    problem = self.query(node, ctes, frozenset(inner))
                    if problem is not None:
                        return problem
        return None

    def _closure(self, pairs: list[tuple], proven, tables: set[str]) -> set[str]:
        """The tables of ``tables`` restricted by ``pairs`` (equal terms), given the ones
        ``proven`` already (which may include an outer query's)."""
        parent: dict[tuple, tuple] = {}

        def find(t):
            parent.setdefault(t, t)
            while parent[t] != t:
                parent[t] = parent[parent[t]]
                t = parent[t]
            return t

        for left, right in pairs:
            parent[find(left)] = find(right)
        classes: dict[tuple, set[str]] = {}
        for t in list(parent):
            classes.setdefault(find(t), set()).add(t[0])
        result = set(proven)
        grew = True
        while grew:
            grew = False
            for members in classes.values():
                if "" in members or members & result:
                    fresh = (members & tables) - result
                    if fresh:
                        result |= fresh
                        grew = True
        return result

    def _source(self, node: exp.Expression, ctes: dict) -> "_Source | SqlProblem":
        if isinstance(node, exp.Table) and isinstance(node.this, exp.Identifier) and \
                not node.args.get("joins"):
            name = node.name
            start, end = _identifier_span(node.this, self.sql, name)
            alias = node.alias_or_name
            shown = name if alias == name else f"{name} ({alias})"
            if not node.db and name.lower() in ctes:
                return _Source(alias.lower(), f"the CTE {shown}", start, end, False,
                               cte=name.lower(), ctes=ctes)
            return _Source(alias.lower(), shown, start, end, True)
        if isinstance(node, exp.Subquery) and isinstance(node.this, (exp.Select,
                                                                     exp.SetOperation)):
            alias = node.alias_or_name
            ident = node.args["alias"].this if node.args.get("alias") else None
            start, end = _identifier_span(ident, self.sql, alias or "SELECT")
            return _Source(alias.lower(), f"the subquery {alias}".rstrip(), start, end, False,
                           body=node.this, ctes=ctes)
        if isinstance(node, exp.Lateral):
            return self._cannot(node, "LATERAL", "LATERAL")
        if isinstance(node, (exp.Table, exp.Subquery)) and (
                node.args.get("joins") or isinstance(node.this, exp.Table)):
            return self._cannot(node, "(", "a join in parentheses")
        word = {exp.Values: "VALUES", exp.Unnest: "UNNEST"}.get(type(node), "")
        return self._cannot(node, word, word or "a table function")

    def _body(self, source: _Source) -> SqlProblem | None:
        """Why a subquery's or CTE's rows are not proven the tenant's; None when they are."""
        if source.cte is None:
            return self.query(source.body, source.ctes or {}, frozenset())
        entry = (source.ctes or {})[source.cte]         # [query, its CTEs, problem, proven?]
        if not entry[3]:
            entry[3] = True
            entry[2] = self.query(entry[0], entry[1], frozenset())
        return entry[2]

    def _unrestricted(self, source: _Source, proven: list[_Source],
                      subqueries: bool = False) -> SqlProblem:
        join = (f", or join it by key to {proven[0].alias}: `ON {source.alias}.<key column> = "
                f"{proven[0].alias}.<column>`" if proven else "")
        return SqlProblem(
            "RK506", f"the query is not scoped to the tenant: the rows of {source.shown} are "
            f"every user's: no column of it is compared with :{self.tenant}, and it is not "
            "joined by `=` to a table that is",
            source.start, source.end,
            f"scope it with `{source.alias}.<tenant column> = :{self.tenant}` in the WHERE "
            f"clause{join}; a condition under OR or NOT, with a function around the column, or "
            "other than `=` proves nothing" + ("; a join to a subquery or a CTE restricts "
                                               "nothing" if subqueries else ""))

    def _cannot(self, node: exp.Expression, word: str, what: str) -> SqlProblem:
        start, end = _locate(node, self.sql, word) if word else (0, min(len(self.sql), 1))
        return SqlProblem(
            "RK506", f"the query is not scoped to the tenant as far as the compiler can prove: "
            f"it cannot follow {what}", start, end,
            f"read the tables directly, each scoped with `<alias>.<tenant column> = "
            f":{self.tenant}` or joined by key to one that is")


def _identifier_span(ident: exp.Expression | None, sql: str, word: str) -> tuple[int, int]:
    meta = ident.meta if ident is not None else {}
    if "start" in meta and "end" in meta:
        return meta["start"], meta["end"] + 1
    return _locate(ident if ident is not None else exp.Literal(), sql, word)


def _unscoped(tree: exp.Expression, branch: exp.Expression, where: exp.Where | None,
              tenant: str, sql: str) -> SqlProblem:
    """RK506 at the most telling place: the tenant parameter where it is used but scopes
    nothing (under an OR or a NOT), else the WHERE, else the query's first word."""
    hint = (f"add `<owner column> = :{tenant}` to the WHERE clause, joined with AND; the "
            f"ruleset declares `tenant {tenant}`, so every query reads only that user's rows")
    uses = [p for p in (where.find_all(exp.Placeholder) if where else ()) if _is_param(p, tenant)]
    used = re.search(rf":{re.escape(tenant)}(?!\w)", sql)
    if uses and used:
        under = {type(a) for p in uses for a in _ancestors(p, where)}
        if under & {exp.Or, exp.Not, exp.Xor}:
            word = "a NOT" if exp.Not in under and exp.Or not in under else "an OR"
            return SqlProblem(
                "RK506", f"the query is not scoped to the tenant: :{tenant} is under {word}, so "
                "rows of other users can match", used.start(), used.end(),
                f"the tenant condition must hold for every row: `WHERE <owner column> = "
                f":{tenant} AND (...)`, with the rest of the condition in the parentheses")
        return SqlProblem(
            "RK506", f"the query is not scoped to the tenant: :{tenant} is used, but not as "
            f"`<column> = :{tenant}` joined with AND at the top of the WHERE clause",
            used.start(), used.end(), hint)
    words = list(re.finditer(r"(?i)\bwhere\b", sql))
    if where is not None and words:
        return SqlProblem("RK506", f"the query is not scoped to the tenant: its WHERE clause "
                          f"never compares a column with :{tenant}", words[0].start(),
                          words[0].end(), hint)
    which = "the query has" if branch is tree else "a SELECT of the query has"
    return SqlProblem("RK506", f"{which} no WHERE clause, so it is not scoped to the tenant", 0,
                      min(len(sql), 6), f"add `WHERE <owner column> = :{tenant}`; the ruleset "
                      f"declares `tenant {tenant}`, so every query reads only that user's rows")


def _ancestors(node: exp.Expression, stop: exp.Expression) -> Iterable[exp.Expression]:
    node = node.parent
    while node is not None and node is not stop:
        yield node
        node = node.parent


def _is_param(node: exp.Expression, name: str) -> bool:
    if isinstance(node, exp.Placeholder):
        return str(node.name) == name or str(node.this) == name
    return False


# --- statements for the artifact --------------------------------------------------------------

def _column(name: str, table: str | None = None) -> exp.Column:
    return exp.Column(this=exp.Identifier(this=name, quoted=True),
                      table=exp.Identifier(this=table, quoted=True) if table else None)


def _table(name: str) -> exp.Table:
    *schema, table = name.split(".") if "." in name else [name]
    return exp.Table(this=exp.Identifier(this=table, quoted=True),
                     db=exp.Identifier(this=schema[-1], quoted=True) if schema else None)


def lookup_tree(*, key: str, columns: tuple[tuple[str, str], ...], table: str | None = None,
                query: exp.Expression | None = None, tenant_column: str | None = None,
                tenant: str | None = None, fold: bool = False) -> exp.Select:
    """The one statement of an entity lookup: the key and the fields (``(column, field)``
    pairs, the column as stored and the field it answers), of the rows whose key is among the
    ids. From ``table`` (scoped by ``tenant_column = :tenant``) or from the author's ``query``
    wrapped as a subquery (scoped inside it). ``fold``: the key compares ignoring case, so
    the condition is ``LOWER(key) IN (...)`` and the resolver sends the ids in lower case (a
    plain index on the key does not serve it; docs/sources.md says which index does)."""
    alias = table.split(".")[-1] if table else ROW_ALIAS
    projections = [exp.Alias(this=_column(column, alias), alias=exp.Identifier(this=field,
                                                                                quoted=True))
                   for column, field in columns]
    if table is not None:
        source: exp.Expression = _table(table)
    else:
        source = exp.Subquery(this=query.copy(),
                              alias=exp.TableAlias(this=exp.Identifier(this=ROW_ALIAS,
                                                                      quoted=True)))
    key_column = dict((f, c) for c, f in columns).get(key, key)
    key_value: exp.Expression = _column(key_column, alias)
    if fold:
        key_value = exp.Lower(this=key_value)
    condition: exp.Expression = exp.In(this=key_value,
                                       expressions=[exp.var(f"{RESERVED_PREFIX}ids__")])
    if table is not None and tenant is not None:
        condition = exp.and_(condition, exp.EQ(this=_column(tenant_column or tenant, alias),
                                               expression=exp.Placeholder(this=tenant)))
    return exp.select(*projections).from_(source).where(condition)


def prepare(tree: exp.Expression, dialect_read: str | None = None
            ) -> tuple[tuple[P.Statement, ...], dict[str, str]]:
    """The statement in every dialect of ``DIALECTS``, and for each dialect it cannot be written
    in, why (``UnsupportedError``)."""
    marked = tree.transform(_mark_params)
    statements, failures = [], {}
    for dialect, marker in DIALECTS.items():
        try:
            text = marked.sql(dialect=dialect, unsupported_level=ErrorLevel.RAISE)
        except UnsupportedError as exc:
            failures[dialect] = str(exc).splitlines()[0]
            continue
        pieces = _SENTINEL.split(text)
        parts = pieces[0::2]
        if dialect in PYFORMAT:
            parts = [part.replace("%", "%%") for part in parts]
        params = tuple("ids" if p == "ids" else p[2:] for p in pieces[1::2])
        statements.append(P.Statement(dialect=dialect, marker=marker, parts=tuple(parts),
                                      params=params))
    return tuple(statements), failures


def _mark_params(node: exp.Expression) -> exp.Expression:
    if isinstance(node, exp.Placeholder) and node.name:
        return exp.var(f"{RESERVED_PREFIX}p_{node.name}__")
    return node
