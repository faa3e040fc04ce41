"""What every SQL resolver shares: run the compiled statement, bind every value, read rows back
by name, keep only the rows whose key is an id asked for (``KeyFiler``), and turn every failure
into a ``SourceError``.

The three backends (``SqliteResolver``, ``PostgresResolver``, ``MysqlResolver``) only say how
to open a read-only connection with a deadline and how to run one statement on it. The SQL
itself was written at compile time (``rulekit.sql``) and travels in the policy
(``Entity.lookup.statements``); a resolver picks its dialect's statement and fills in markers.

Why the ids are filtered before and after the query:

- before: an integer key is bound as an integer, so ``"1 OR 1=1"`` or ``"x"`` is not sent at
  all (PostgreSQL would reject the text, MySQL would quietly read it as 1); no key holds a NUL
  character, so an id with one is not sent either. Either way the id finds nothing, which is
  what the checker reports: not_found.
- after: databases compare loosely (MySQL's default collations ignore case and trailing
  spaces, SQLite's affinity matches ``'01'`` to ``1``), so a row counts only when its key, as
  text, is exactly one of the ids asked for; for a key that compares ignoring case
  (``casefold``), the statement compares ``LOWER(key)`` with the ids in lower case, and a row
  counts when the key's own comparison (``rulekit.compare.key_matches``) says it is the id.

Connections: one per thread, opened on first use and reused (opening one costs more than the
query); any error closes the calling thread's connection, so the next fetch starts afresh on a
new one. Opening one is not part of a lookup's budget: it has its own limit,
``connect_timeout`` (``CONNECT_TIMEOUT``, five seconds, by default), because a TLS handshake on
a loaded host can take longer than a lookup may, once, and throwing the answer away for it
helps nobody; a server that does not answer still fails the lookup closed within that limit.
The seconds it took are kept (``connect_seconds``) so the checker, which times every fetch,
does not count them against the lookup either. A failed fetch is not retried here (the one exception: a backend's ``_stale`` error,
PostgreSQL's plan cached before a column changed type, is run again once on a new
connection): the check fails closed (``lookup_failed``) and the next check reconnects. A caller may hand over a connection factory instead of a URL (``connect=``: a new connection,
kept by the thread), or a pool (``connect=`` and ``release=``): then a connection is
borrowed for each lookup, within its budget, and given back at its end, closed first after a
failure.
"""

from __future__ import annotations

import math
import re
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from typing import Any, ClassVar

from rulekit.compare import folds_case, key_matches
from rulekit.policy import DataSource, Statement
from rulekit.sources import LookupRequest, LookupResult, SourceError

QueryHook = Callable[[str, Sequence], None]

# Ids per statement. Every backend takes far more bound values than this (SQLite 32766,
# PostgreSQL and MySQL 65535); a longer list is split, and it is still one logical fetch.
CHUNK = 1000
_INTEGER = re.compile(r"-?(?:0|[1-9][0-9]{0,18})")
_INT64 = (-(2 ** 63), 2 ** 63 - 1)
IDENTIFIER_QUOTES = {"sqlite": '"', "postgres": '"', "mysql": "`", "duckdb": '"'}

# Seconds allowed for opening a connection (TCP, TLS, authentication, the session's settings),
# apart from the lookup's budget: see the module's docstring.
CONNECT_TIMEOUT = 5.0


class ConnectTimeout(Exception):
    """Opening a connection took longer than ``connect_timeout``: rulekit gave up on it."""


class SqlResolver:
    """Base of the SQL resolvers. Subclasses set ``dialect`` and implement ``_open`` (a new
    read-only connection) and ``_run`` (one statement on it, within ``budget`` seconds)."""

    dialect: ClassVar[str]
    name: ClassVar[str]

    release: Callable[[Any], object] | None = None

    def __init__(self, *, timeout: float = 2.0, on_query: QueryHook | None = None,
                 connect_timeout: float | None = None):
        if not timeout > 0:
            raise ValueError(f"timeout must be positive, not {timeout!r}")
        if connect_timeout is None:
            connect_timeout = CONNECT_TIMEOUT
        if isinstance(connect_timeout, bool) or not isinstance(connect_timeout, (int, float)) \
                or not 0 < connect_timeout < math.inf:
            raise ValueError("connect_timeout must be positive, a finite number of seconds, "
                             f"not {connect_timeout!r}")
        self.timeout = float(timeout)
        self.connect_timeout = float(connect_timeout)
        self.on_query = on_query
        self._local = threading.local()

    # --- connections ---------------------------------------------------------------------

    def _open(self):
        raise NotImplementedError

    def _run(self, connection, sql: str, params: Sequence, budget: float) -> list[tuple]:
        raise NotImplementedError

    def _describe(self) -> str:
        raise NotImplementedError

    def connection(self):
        """The calling thread's connection, opened if need be. Public so that tests can prove
        that a write through it is refused, or kill it from the server's side."""
        connection = getattr(self._local, "connection", None)
        if connection is None:
            connection = self._local.connection = self._open()
        return connection

    def connect_seconds(self) -> float:
        """The seconds the calling thread's last lookup spent opening its connection (0 when
        it reused one): not part of the lookup's budget, so the checker does not count them
        as the lookup being late."""
        return getattr(self._local, "connecting", 0.0)

    def _ready(self, what: str, table: str | None) -> None:
        """Open the calling thread's connection if it has none, before the lookup's budget
        starts: opening one is bounded by ``connect_timeout`` instead (see the module's
        docstring). A failure is a SourceError naming the lookup, as a failed query is."""
        local = self._local
        local.connecting = 0.0
        if getattr(local, "connection", None) is not None:
            return
        started = time.monotonic()
        try:
            local.connection = self._open()
        except SourceError:
            raise
        except Exception as exc:
            elapsed = time.monotonic() - started
            why = (f"the connect= factory failed: {type(exc).__name__}: {exc}"
                   if self.release is not None else self._explain_connect(exc, elapsed))
            raise SourceError(f"{self._describe()}: lookup of {what!r}"
                              f"{f' in table {table!r}' if table else ''} failed: {why}",
                              entity=what, table=table) from exc
        finally:
            # A connection borrowed for this lookup alone (``release``) is waited for within
            # the lookup's budget: it is not opening one.
            local.connecting = time.monotonic() - started if self.release is None else 0.0

    def _give_back(self) -> None:
        """Hand the calling thread's borrowed connection back to ``release``."""
        connection = getattr(self._local, "connection", None)
        self._local.connection = None
        if connection is not None:
            self.release(connection)

    def _explain_connect(self, exc: Exception, elapsed: float) -> str:
        text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        if isinstance(exc, ConnectTimeout) or elapsed >= self.connect_timeout - 0.05 \
                or "timed out" in text.lower() or "timeout expired" in text.lower():
            return (f"could not connect within {self.connect_timeout:g} s (connect_timeout): "
                    f"{text}")
        return self._explain(exc, self.connect_timeout)

    def close(self) -> None:
        """Close the calling thread's connection; the next fetch opens a new one. A borrowed
        connection (``release``) is closed, then given back, so that a pool that checks the
        connections it gets back drops it."""
        connection = getattr(self._local, "connection", None)
        self._local.connection = None
        if connection is not None:
            try:
                connection.close()
            except Exception:   # closing a broken connection may fail; it is gone either way
                pass
            if self.release is not None:
                try:
                    self.release(connection)
                except Exception:   # the pool's business: the lookup has failed already
                    pass

    # --- lookups -------------------------------------------------------------------------

    def fetch(self, request: LookupRequest) -> LookupResult:
        bound = bindable_ids(request)
        if not bound:
            return {}
        statement = self._statement(request)
        if folds_case(request.key_type) and not lowers_ids(statement):
            bound = bindable_ids(request, lowered=False)
        values = self._values(statement, request.tenant, request)
        if values:
            statement = self._bind(statement, values)
        budget = min(self.timeout, request.timeout)
        table = request.table if request.lookup is None else \
            (request.lookup.table or request.entity)
        deadline = time.monotonic() + budget
        self._ready(request.entity, table)
        if self.release is None:   # a connection of the thread's own: the budget starts now
            deadline = time.monotonic() + budget
        try:
            columns = request.lookup.columns if request.lookup is not None else request.columns
            filer = KeyFiler(request, self._describe(), f"entity {request.entity!r}")
            for start in range(0, len(bound), CHUNK):
                chunk = bound[start:start + CHUNK]
                sql, params = statement.render(values, chunk)
                rows = self._guarded(sql, params, deadline - time.monotonic(), budget,
                                     request.entity, table)
                for row in rows:
                    if len(row) != len(columns):
                        raise SourceError(f"{self._describe()}: the lookup of entity "
                                          f"{request.entity!r} returned {len(row)} columns, "
                                          f"not {len(columns)}", entity=request.entity)
                    idents = filer.ids_for(row[0])
                    if idents:
                        filer.file(idents, row[0], dict(zip(columns, row)))
            return filer.found
        finally:
            if self.release is not None:
                self._give_back()

    def query(self, source: DataSource, values: Mapping[str, Any],
              timeout: float | None = None) -> list[dict[str, object]]:
        """Run a routed source with its declared parameters (the tenant, ``since``, ``until``)
        and return its rows by column name."""
        statement = source.statement(self.dialect)
        if statement is None:
            raise SourceError(f"{self._describe()}: source {source.name!r} has no statement for "
                              f"{self.dialect}; the compiler could not write it in this dialect "
                              "(see its RK507 warning)")
        missing = [p for p in statement.params if p not in values]
        if missing:
            raise SourceError(f"source {source.name!r} needs " +
                              ", ".join(f":{p}" for p in missing) + " and was not given it")
        tenant = [p for p in statement.params if p not in ("since", "until")]
        for name in tenant:
            check_tenant(values[name], f"source {source.name!r}")
        if tenant:
            statement = self._bind(statement, tenant)
        budget = min(self.timeout, timeout or self.timeout)
        sql, params = statement.render(values)
        started = time.monotonic()
        self._ready(source.name, None)
        try:
            left = budget - (time.monotonic() - started) if self.release is not None else budget
            rows = self._guarded(sql, params, left, budget, source.name, None)
        finally:
            if self.release is not None:
                self._give_back()
        return [dict(zip(source.columns, row)) for row in rows]

    def _statement(self, request: LookupRequest) -> Statement:
        if request.lookup is None:
            if request.tenant is not None:
                raise SourceError(f"entity {request.entity!r}: a tenant-scoped lookup needs the "
                                  "compiled lookup statement", entity=request.entity)
            return _table_statement(request, self.dialect)
        statement = request.lookup.statement(self.dialect)
        if statement is None:
            raise SourceError(f"{self._describe()}: entity {request.entity!r} has no lookup "
                              f"statement for {self.dialect}; the compiler could not write its "
                              "query in this dialect (see its RK507 warning)",
                              entity=request.entity)
        return statement

    @staticmethod
    def _values(statement: Statement, tenant: str | None, request: LookupRequest) -> dict:
        scoped = [p for p in statement.params if p != "ids"]
        if scoped and tenant is None:
            raise SourceError(f"entity {request.entity!r} is tenant-scoped and no verified "
                              "tenant id was given; pass tenant= from the login",
                              entity=request.entity)
        if scoped:
            check_tenant(tenant, f"entity {request.entity!r}", request.entity)
        return {p: tenant for p in scoped}

    def _bind(self, statement: Statement, tenant_params) -> Statement:
        """The statement to run when ``tenant_params`` hold the tenant: itself, where the
        database compares text exactly (a backend whose collations do not overrides this)."""
        return statement

    def _guarded(self, sql: str, params: list, remaining: float, budget: float,
                 what: str, table: str | None) -> list[tuple]:
        """Run one statement; any failure closes the connection and becomes a SourceError.
        A failure the backend calls transient for a reused connection (``_stale``: a plan
        cached before the table's columns changed type) is retried once, on a new connection,
        within what is left of the budget; any other failure is not retried."""
        if remaining <= 0:
            raise SourceError(f"{self._describe()}: lookup of {what!r} timed out after "
                              f"{budget:g} s", entity=what, table=table)
        if self.on_query is not None:
            self.on_query(sql, tuple(params))
        started = time.monotonic()
        for attempt in (1, 2):
            try:
                connection = self.connection()
                return self._run(connection, sql, params, remaining)
            except SourceError:
                self.close()
                raise
            except Exception as exc:
                self.close()
                remaining -= time.monotonic() - started
                if attempt == 1 and remaining > 0 and self._stale(exc):
                    continue
                raise SourceError(f"{self._describe()}: lookup of {what!r}"
                                  f"{f' in table {table!r}' if table else ''} failed: "
                                  f"{self._explain(exc, budget)}", entity=what,
                                  table=table) from exc
        raise AssertionError("unreachable")

    def _stale(self, exc: Exception) -> bool:
        """Whether ``exc`` is worth one retry on a new connection (see ``_guarded``)."""
        return False

    def _explain(self, exc: Exception, budget: float) -> str:
        return f"{type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''}"


def exact_tenant(statement: Statement, tenant_params, before: str, after: str,
                 cache: dict) -> Statement:
    """``statement`` with ``before`` and ``after`` around every marker of ``tenant_params``
    (MariaDB: ``BINARY %s``; SQLite: ``? COLLATE BINARY``), so the tenant is compared byte for
    byte whatever collation the column has. Made once per statement and kept in ``cache``."""
    held = cache.get(id(statement))
    if held is not None and held[0] is statement:
        return held[1]
    parts = list(statement.parts)
    for index, param in enumerate(statement.params):
        if param in tenant_params:
            parts[index] += before
            parts[index + 1] = after + parts[index + 1]
    exact = Statement(dialect=statement.dialect, marker=statement.marker, parts=tuple(parts),
                      params=statement.params)
    cache[id(statement)] = (statement, exact)   # holding it keeps its id unique
    return exact


def check_tenant(tenant: object, what: str, entity: str | None = None) -> None:
    """A tenant id is a non-empty string, compared exactly: an int (or bytes) would be compared
    by the database's own conversions, and "" is nobody's id. A SourceError otherwise."""
    if not isinstance(tenant, str) or not tenant:
        raise SourceError(f"{what} is tenant-scoped and the tenant id must be a non-empty string "
                          f"(the verified user's id as text), not {tenant!r} "
                          f"({type(tenant).__name__})", entity=entity)


class KeyFiler:
    """Files the rows a lookup returned under the ids asked for, as every resolver must.

    An exact key (the default) files a row under the id its key is, as text; a row matched
    only by the database's loose comparison is dropped (``unmatched_key``). A key that compares
    ignoring case (``folds_case``: an identifier or a text ``casefold``) files a row under each
    id asked for whose lower case is the key's and that the key's own comparison accepts
    (``key_matches``, the one claims use). Two rows filed under one id are a ``SourceError``:
    a duplicate key, or, under a casefold key, two keys differing only in case, named both."""

    __slots__ = ("request", "where", "what", "wanted", "folded", "found")

    def __init__(self, request: LookupRequest, where: str, what: str):
        self.request, self.where, self.what = request, where, what
        self.wanted = set(request.ids)
        self.folded: dict[str, list[str]] | None = None
        if folds_case(request.key_type):
            self.folded = {}
            for ident in request.ids:
                self.folded.setdefault(ident.lower(), []).append(ident)
        self.found: dict[str, dict[str, object]] = {}

    def ids_for(self, value: object) -> tuple[str, ...] | list[str]:
        """The ids asked for that a row whose key is ``value`` answers; often none."""
        if value is None:
            return ()
        text = _key_text(value)
        if self.folded is None:
            if text in self.wanted:
                return (text,)
            ident = unmatched_key(value, text, self.wanted, self.request, self.where)
            return () if ident is None else (ident,)
        candidates = self.folded.get(text.lower())
        if candidates is None:
            if text.endswith(" ") and text.rstrip(" ").lower() in self.folded:
                # A key padded with blanks: the same SourceError as for an exact key.
                unmatched_key(value, text, {text.rstrip(" ")}, self.request, self.where)
            return ()
        spec = self.request.key_type
        return [ident for ident in candidates if ident == text or key_matches(spec, ident, text)]

    def file(self, idents, value: object, row: dict[str, object]) -> None:
        request = self.request
        for ident in idents:
            held = self.found.get(ident)
            if held is not None:
                first = _key_text(held.get(request.key))
                if self.folded is not None and first != _key_text(value):
                    raise SourceError(
                        f"{self.where}: {self.what} has two rows whose {request.key} is "
                        f"{ident!r} ignoring case, {first!r} and {_key_text(value)!r}: "
                        f"{request.key} compares ignoring case (casefold), so the id names no "
                        "single row; make the key unique ignoring case, or declare it exact",
                        entity=request.entity, table=request.table)
                raise SourceError(
                    f"{self.where}: {self.what} has more than one row with {request.key} = "
                    f"{ident!r}; the key must be unique", entity=request.entity,
                    table=request.table)
            self.found[ident] = row


def unmatched_key(value: object, text: str, wanted: set, request: LookupRequest,
                  where: str) -> str | None:
    """A row the database matched whose key, as text, is none of the ids asked for: the id it
    stands for, when the key is a whole number in a NUMERIC column (``7.00`` for id ``7``,
    exactly equal); None when the database compared loosely (a collation, an affinity) and
    the row does not count. A key padded with blanks (CHAR(n), a PAD SPACE or RTRIM
    collation) is a SourceError naming the column's type, rather than a silent not_found."""
    if request.key_kind == "integer" and isinstance(value, (Decimal, float)) \
            and not isinstance(value, bool):
        if math.isfinite(value) and value == int(value) and str(int(value)) in wanted:
            return str(int(value))
    if text.endswith(" ") and text.rstrip(" ") in wanted:
        raise SourceError(f"{where}: the key column of entity {request.entity!r} holds "
                          f"{text!r} for id {text.rstrip(' ')!r}: it pads keys with blanks "
                          "(a CHAR(n) column, or a PAD SPACE or RTRIM collation), so no key "
                          "matches an id exactly; store the key as VARCHAR or TEXT, or trim "
                          "it in the entity's source sql", entity=request.entity,
                          table=request.table)
    return None


def _key_text(value: object) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def lowers_ids(statement: Statement) -> bool:
    """Whether a lookup statement compares ``LOWER(key) IN (...)``, as the compiler writes it
    for a key that compares ignoring case. An artifact compiled before it did compares the key
    itself, and is sent the ids as written (``bindable_ids(lowered=False)``): in lower case they
    would miss every key stored otherwise."""
    if "ids" not in statement.params:
        return False
    return statement.parts[statement.params.index("ids")].rstrip().upper().endswith(") IN (")


def bindable_ids(request: LookupRequest, lowered: bool = True) -> list:
    """The ids worth sending, as the values to bind; the rest cannot match any row. A key that
    compares ignoring case is looked up as ``LOWER(key) IN (...)``, so its ids are sent in
    lower case, each once (unless ``lowered`` is False: see ``lowers_ids``)."""
    if lowered and folds_case(request.key_type):
        return list(dict.fromkeys(i.lower() for i in request.ids if "\x00" not in i))
    bound = []
    for ident in request.ids:
        if "\x00" in ident:
            continue
        if request.key_kind == "integer":
            if not _INTEGER.fullmatch(ident):
                continue
            number = int(ident)
            if not _INT64[0] <= number <= _INT64[1]:
                continue
            bound.append(number)
        else:
            bound.append(ident)
    return bound


def _table_statement(request: LookupRequest, dialect: str) -> Statement:
    """For a bare ``LookupRequest`` (no compiled lookup): the same fixed shape the compiler
    writes for `source table`, with quoted identifiers, built without sqlglot."""
    quote = IDENTIFIER_QUOTES[dialect]

    def q(name: str) -> str:
        if "\x00" in name:
            raise SourceError(f"identifier {name!r} contains a NUL character",
                              entity=request.entity, table=request.table)
        return quote + name.replace(quote, quote * 2) + quote

    table = q(request.table)
    columns = ", ".join(f"{table}.{q(c)}" for c in request.columns)
    key = f"{table}.{q(request.key)}"
    if folds_case(request.key_type):
        key = f"LOWER({key})"
    head = f"SELECT {columns} FROM {table} WHERE {key} IN ("
    if dialect in ("postgres", "mysql"):
        head = head.replace("%", "%%")
    marker = "%s" if dialect in ("postgres", "mysql") else "?"
    return Statement(dialect=dialect, marker=marker, parts=(head, ")"), params=("ids",))

