"""A SQLite file as the system of record, opened read-only.

Why it is built the way it is:

- **Read-only by construction.** The file is opened with ``file:...?mode=ro``, so SQLite itself
  refuses any write, whatever SQL reaches the connection. The checker only reads; a resolver
  that *could* write is a liability if anything upstream ever goes wrong.
- **One connection per thread, reused.** Opening the file costs some 200 microseconds here,
  as much as the rest of a check, so each thread keeps its own read-only connection
  (``threading.local``): no lock, and ``check_same_thread`` (default True) would catch a
  connection that ever crossed threads. Any SQLite error drops the thread's connection, so the
  next fetch opens a fresh one. A database file replaced under the resolver (``os.replace``
  of a freshly built file, the usual way to publish a new catalogue) is noticed before the
  next fetch by its inode, and that thread reconnects to the new file.
- **One statement per fetch, values always bound.** The SQL has a single fixed shape,
  ``SELECT "t"."k", "t"."f1", ... FROM "t" WHERE "t"."k" IN (?, ...)``: identifiers come from
  the compiled policy and are quoted (``order`` is a reserved word) with embedded quotes
  doubled, and columns are qualified with the table, because SQLite reads an unqualified
  ``"stock"`` that names no column as the string ``'stock'``. The ids come from the model, so
  they are only ever parameters. Past SQLite's limit on bound variables
  (read from the connection: 32766 or 250000 in current builds, 999 in old ones) the ids are
  split into chunks, one statement each; it is still one logical fetch.
- **A deadline, not just a lock timeout.** The connect ``timeout`` only bounds waiting for a
  lock. A slow query (a view over a large scan) is stopped by a progress handler that aborts
  the statement once the deadline has passed.
- **Values as SQLite returns them** (int, float, str, bytes, None): comparing by type is the
  checker's job, which keeps this layer the same for every database.

Statements can be observed with the ``on_query(sql, params)`` hook, called just before each one
runs: tests and benchmarks count them with it, and nothing is counted when nobody asks.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from rulekit.compare import folds_case
from rulekit.policy import DataSource
from rulekit.sources import LookupRequest, LookupResult, SourceError
from rulekit.sources.sql import (KeyFiler, SqlResolver, bindable_ids, check_tenant, exact_tenant,
                                 lowers_ids)

# How many SQLite VM instructions run between two looks at the clock: often enough to stop
# within a millisecond or so, rarely enough to cost nothing measurable.
PROGRESS_STEPS = 1000

QueryHook = Callable[[str, tuple], None]


class SqliteResolver:
    """Answer lookups from the SQLite database at ``path``, read-only.

    ``timeout`` (seconds) caps every fetch, lock waits included; a request's own, shorter
    ``timeout`` wins. ``on_query(sql, params)`` is called before each statement is executed.
    One instance can be shared by any number of threads: each thread gets its own connection.
    """

    __slots__ = ("path", "timeout", "on_query", "immutable", "_uri", "_local", "_exact")

    def __init__(self, path: str | os.PathLike, *, timeout: float = 2.0,
                 on_query: QueryHook | None = None, immutable: bool = False):
        if not timeout > 0:
            raise ValueError(f"timeout must be positive, not {timeout!r}")
        # Made absolute once, so a later chdir cannot point the resolver at another file.
        self.path = os.path.abspath(os.fspath(path))
        self.timeout = float(timeout)
        self.on_query = on_query
        # as_uri() percent-encodes '?', '#' and '%' in the path, which would otherwise be read
        # as parts of the URI.
        self._uri = Path(self.path).as_uri() + "?mode=ro"
        # An immutable snapshot: SQLite takes no locks and makes no -shm file, so a WAL
        # database in a read-only folder can be read; it must then never change while open.
        self.immutable = bool(immutable)
        if self.immutable:
            self._uri += "&immutable=1"
        self._local = threading.local()
        self._exact: dict = {}

    def __repr__(self) -> str:
        return f"SqliteResolver({self.path!r}, timeout={self.timeout:g})"

    def connect(self, timeout: float | None = None) -> sqlite3.Connection:
        """A new read-only connection to the database; every fetch uses one of these.

        Public so that tests can prove that a write through it fails. The database file is not
        created when it is missing: that is a ``SourceError`` naming the path.
        """
        try:
            return sqlite3.connect(self._uri, uri=True,
                                   timeout=self.timeout if timeout is None else timeout)
        except sqlite3.Error as exc:
            why = "no such file" if not os.path.exists(self.path) else str(exc)
            raise SourceError(f"sqlite {self.path}: cannot open the database read-only: {why}") \
                from exc

    def _connection(self) -> sqlite3.Connection:
        """The calling thread's connection, reopened when the file at ``path`` is no longer the
        one it has open: a database replaced by ``os.replace`` (or deleted) is a new inode,
        while the old connection would go on reading the old one. One ``os.stat`` per fetch
        (a microsecond or two) tells; the file we hold open keeps its inode, so no new file can
        take the same one."""
        local = self._local
        connection = getattr(local, "connection", None)
        try:
            info = os.stat(self.path)
            identity = (info.st_dev, info.st_ino)
        except OSError:
            identity = None
        if connection is not None and identity != local.identity:
            self.close()
            connection = None
        if connection is None:
            connection = self.connect()
            local.connection, local.identity = connection, identity
        return connection

    def close(self) -> None:
        """Close the calling thread's connection; the next fetch opens a new one."""
        connection = getattr(self._local, "connection", None)
        self._local.connection = None
        if connection is not None:
            connection.close()

    def fetch(self, request: LookupRequest) -> LookupResult:
        if not request.ids:
            return {}
        if request.lookup is not None:
            # The compiled statement: the entity's table or SELECT, scoped to the tenant.
            statement = request.lookup.statement("sqlite")
            if statement is None:
                raise SourceError(f"sqlite {self.path}: entity {request.entity!r} has no lookup "
                                  "statement for sqlite (see the compiler's RK507 warning)",
                                  entity=request.entity)
            values = SqlResolver._values(statement, request.tenant, request)
            if values:
                statement = self._bind(statement, values)
            columns = request.lookup.columns
            ids: list = bindable_ids(request, lowered=lowers_ids(statement))
            table_name = request.lookup.table or request.entity

            def render(chunk):
                return statement.render(values, chunk)
        else:
            if request.tenant is not None:
                raise SourceError(f"entity {request.entity!r}: a tenant-scoped lookup needs the "
                                  "compiled lookup statement", entity=request.entity)
            columns = request.columns
            ids = bindable_ids(request) if folds_case(request.key_type) else list(request.ids)
            table_name = request.table
            # Every column is qualified with the table: SQLite reads an unqualified "name"
            # that is no column as the string 'name' (its double-quoted-string quirk), which
            # would turn a missing column into a constant, and a missing key into a match on
            # every row.
            table = _quote(request.table, request)
            key = f"{table}.{_quote(request.key, request)}"
            if folds_case(request.key_type):
                key = f"LOWER({key})"
            head = (f"SELECT {', '.join(f'{table}.{_quote(c, request)}' for c in columns)} "
                    f"FROM {table} WHERE {key} IN ")

            def render(chunk):
                return f"{head}({', '.join('?' * len(chunk))})", list(chunk)
        if not ids:
            return {}
        budget = min(self.timeout, request.timeout)
        deadline = time.monotonic() + budget
        timed_out = False

        def past_deadline() -> bool:
            nonlocal timed_out
            timed_out = time.monotonic() > deadline
            return timed_out  # non-zero aborts the running statement

        connection = self._connection()
        try:
            connection.set_progress_handler(past_deadline, PROGRESS_STEPS)
            size = connection.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER) - 8  # room for the tenant
            if request.lookup is None:
                size += 8
            filer = KeyFiler(request, f"sqlite {self.path}", f"table {_quote(table_name)}")
            for start in range(0, len(ids), size):
                sql, params = render(ids[start:start + size])
                if self.on_query is not None:
                    self.on_query(sql, tuple(params))
                for row in connection.execute(sql, params):
                    # SQLite's type affinity can match '01' to the integer 1; keep only the
                    # rows whose key is an id asked for, as the memory resolver does, so the
                    # result's keys are always among the ids asked for.
                    idents = filer.ids_for(row[0])
                    if idents:
                        filer.file(idents, row[0], dict(zip(columns, row)))
            return filer.found
        except sqlite3.Error as exc:
            self.close()
            raise self._failure(request, exc, timed_out, budget, table_name) from exc
        except BaseException:
            self.close()
            raise
        finally:
            if getattr(self._local, "connection", None) is connection:
                connection.set_progress_handler(None, 0)

    def query(self, source: DataSource, values: Mapping[str, Any],
              timeout: float | None = None) -> list[dict[str, object]]:
        """Run a routed source with its declared parameters; its rows by column name."""
        statement = source.statement("sqlite")
        if statement is None:
            raise SourceError(f"sqlite {self.path}: source {source.name!r} has no statement for "
                              "sqlite (see the compiler's RK507 warning)")
        tenant = [p for p in statement.params if p not in ("since", "until")]
        for name in tenant:
            check_tenant(values.get(name), f"source {source.name!r}")
        if tenant:
            statement = self._bind(statement, tenant)
        budget = min(self.timeout, timeout or self.timeout)
        deadline = time.monotonic() + budget
        sql, params = statement.render({k: _sqlite_value(v) for k, v in values.items()})
        if self.on_query is not None:
            self.on_query(sql, tuple(params))
        connection = self._connection()
        try:
            connection.set_progress_handler(lambda: time.monotonic() > deadline, PROGRESS_STEPS)
            rows = connection.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            self.close()
            late = time.monotonic() > deadline
            raise SourceError(f"sqlite {self.path}: source {source.name!r} failed: " +
                              (f"timed out after {budget:g} s" if late else
                               str(exc) + self._wal_hint(str(exc)))) from exc
        finally:
            if getattr(self._local, "connection", None) is connection:
                connection.set_progress_handler(None, 0)
        return [dict(zip(source.columns, row)) for row in rows]

    def _bind(self, statement, tenant_params):
        # A tenant column declared COLLATE NOCASE (or RTRIM) would match "ALICE" to alice;
        # an explicit COLLATE on the bound value wins over the column's.
        return exact_tenant(statement, tenant_params, "", " COLLATE BINARY", self._exact)

    def _wal_hint(self, cause: str) -> str:
        """Why SQLite could not open a database in WAL mode, and what to do, or "". Reading
        one needs its ``-shm`` file (and ``-wal``) beside it, which SQLite creates when
        missing: in a folder this process cannot write, it cannot, and says only "unable to
        open database file". Read on this failure path only: the header's bytes 18 and 19
        are 2 in WAL mode."""
        if "unable to open" not in cause or self.immutable:
            return ""
        try:
            with open(self.path, "rb") as file:
                header = file.read(20)
        except OSError:
            return ""
        if len(header) < 20 or header[18:20] != b"\x02\x02":
            return ""
        folder = os.path.dirname(self.path)
        missing = [f"{self.path}{end}" for end in ("-shm", "-wal")
                   if not os.path.exists(self.path + end)]
        return (f": the database is in WAL mode, and reading it needs its -shm and -wal files "
                f"beside it ({', '.join(missing) or 'present, but not writable'} "
                f"{'missing, and' if missing else ''} not to be made in {folder}, which this "
                "process cannot write); make the folder writable for it, or, for a file that "
                "does not change while rulekit reads it (a published snapshot), open it "
                "immutable: SqliteResolver(path, immutable=True), or "
                "sqlite:///path.db?immutable=1; or switch the database out of WAL "
                "(PRAGMA journal_mode=DELETE where it is written)")

    def _failure(self, request: LookupRequest, exc: sqlite3.Error, timed_out: bool,
                 budget: float, table: str) -> SourceError:
        """Say what failed in the operator's terms: the entity, the table, the column."""
        where = (f"sqlite {self.path}: lookup of entity {request.entity!r} in table "
                 f"{_quote(table)}")
        cause = str(exc)
        if timed_out:
            cause = f"timed out after {budget:g} s ({len(request.ids)} ids)"
        elif "database is locked" in cause:
            cause = f"timed out after {budget:g} s waiting for a lock ({cause})"
        elif match := re.match(r"no such column: (.+)", cause):
            column = match.group(1).removeprefix(f"{table}.").removeprefix("rk_rows.")
            role = "the key" if column == request.key else f"field {column!r}"
            cause = f"{cause}: the table has no column for {role}"
        elif cause.startswith("no such table"):
            cause = f"{cause}: the database has no table for entity {request.entity!r}"
        else:
            cause += self._wal_hint(cause)
        return SourceError(f"{where}: {cause}", entity=request.entity, table=table)


def _sqlite_value(value: Any) -> Any:
    """SQLite has no time type: a window's bounds are bound as ISO 8601 text in UTC
    (``2026-10-31T04:00:00Z``), the form that compares correctly with timestamps stored that
    way. Python's own datetime adapter is deprecated, and wrote a local offset with a space."""
    if isinstance(value, dt.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(dt.timezone.utc).replace(tzinfo=None)
        return value.isoformat(timespec="seconds") + "Z"
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


def _quote(name: str, request: LookupRequest | None = None) -> str:
    """A SQL identifier, double-quoted with embedded quotes doubled: ``a"b`` -> ``"a""b"``."""
    if "\x00" in name:
        raise SourceError(f"identifier {name!r} contains a NUL character",
                          entity=request.entity if request else None,
                          table=request.table if request else None)
    return '"' + name.replace('"', '""') + '"'
