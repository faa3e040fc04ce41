"""PostgreSQL as the system of record, through psycopg 3 (the optional extra
``rulekit[postgres]``).

- **Read-only.** A connection rulekit opens sets ``default_transaction_read_only`` for its
  session, so every statement runs in a READ ONLY transaction and PostgreSQL itself refuses a
  write. A connection handed over by the caller (a factory or a pool) is not ours to
  reconfigure: each fetch runs in an explicit ``BEGIN READ ONLY`` ... ``ROLLBACK`` on it.
- **A deadline** on the server (``statement_timeout``) and on connecting
  (``connect_timeout``), so a slow query or a dead host fails within the budget.
- **Times in UTC.** The session's ``TimeZone`` is UTC (``SET LOCAL`` on a caller's
  connection), so a view or a source's SELECT that turns a TIMESTAMPTZ into a day or a text
  does it in UTC, whatever zone the URL or the caller's session set.
- **Native types** come back as psycopg reads them (int, Decimal for NUMERIC, date, aware
  datetime for TIMESTAMPTZ, naive for TIMESTAMP): comparing by type is the checker's job, and a
  naive timestamp is read in the field's ``naive`` zone (UTC unless the rules say otherwise).
- **A date no Python type holds is text.** PostgreSQL's ``infinity`` and ``-infinity`` (a
  ``valid_until DEFAULT 'infinity'``), BC dates and years after 9999 in a DATE, TIMESTAMP or
  TIMESTAMPTZ column make psycopg raise for the whole row; rulekit reads such a value as the
  text PostgreSQL sent (``'infinity'``), which no date field can read: a claim on that field is
  not_checkable, and the row's other fields still verify. (MariaDB's zero dates come back from
  PyMySQL as text the same way.) A ``money`` column is text in the server's ``lc_monetary``
  format (``'$100.50'``) and is not read as a number: select it as ``numeric``.
- **One round trip per lookup** on an owned connection: autocommit, so the SELECT is the whole
  transaction.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from rulekit.sources import SourceError, redact_url
from rulekit.sources.sql import QueryHook, SqlResolver


def _psycopg():
    try:
        import psycopg
    except ImportError:
        raise SourceError("PostgreSQL sources need psycopg 3: pip install 'rulekit[postgres]'") \
            from None
    return psycopg


# The types psycopg reads into date and datetime, which have no infinity and only years 1-9999.
_DATE_TYPES = ("date", "timestamp", "timestamptz")


def _read_dates_leniently(adapters) -> None:
    """Register on ``adapters`` (a connection's or a cursor's) loaders for the date types that
    return the value's text where the loader they wrap raises: one bad date blocks one field,
    not every claim on its row."""
    psycopg = _psycopg()
    from psycopg.adapt import Loader

    for name in _DATE_TYPES:
        oid = adapters.types[name].oid
        base = adapters.get_loader(oid, psycopg.pq.Format.TEXT)
        if base is None or getattr(base, "lenient", False):
            continue

        class Lenient(Loader):
            lenient = True
            wrapped = base

            def __init__(self, oid, context=None):
                super().__init__(oid, context)
                self.reader = self.wrapped(oid, context)

            def load(self, data):
                try:
                    return self.reader.load(data)
                except psycopg.DataError:   # infinity, BC, year 10000 and after
                    return bytes(data).decode("utf-8", "replace")

        adapters.register_loader(oid, Lenient)


class PostgresResolver(SqlResolver):
    """Answer lookups from PostgreSQL. Give a ``postgresql://`` URL, or ``connect``: a
    zero-argument callable that returns a new psycopg connection (from your pool, say)."""

    dialect = "postgres"

    def __init__(self, url: str | None = None, *, connect: Callable[[], object] | None = None,
                 timeout: float = 2.0, on_query: QueryHook | None = None):
        super().__init__(timeout=timeout, on_query=on_query)
        if (url is None) == (connect is None):
            raise ValueError("give a postgresql:// URL or a connect= factory, not both or neither")
        self.url = url
        self.factory = connect

    def __repr__(self) -> str:
        return f"PostgresResolver({self._describe()!r}, timeout={self.timeout:g})"

    def _describe(self) -> str:
        if self.url is None:
            return "postgres (caller's connections)"
        return "postgres " + _without_password(self.url)

    def _open(self):
        if self.factory is not None:
            return self.factory()
        psycopg = _psycopg()
        from psycopg.conninfo import conninfo_to_dict

        milliseconds = max(1, int(self.timeout * 1000))
        # Options in the URL (a search_path, say) are kept; ours come last, so they win.
        given = conninfo_to_dict(self.url).get("options") or ""
        options = (f"{given} -c default_transaction_read_only=on "
                   f"-c statement_timeout={milliseconds} -c TimeZone=UTC").strip()
        connection = psycopg.connect(self.url, autocommit=True, application_name="rulekit",
                                     connect_timeout=max(1, math.ceil(self.timeout)),
                                     options=options)
        _read_dates_leniently(connection.adapters)
        return connection

    def _run(self, connection, sql: str, params: Sequence, budget: float) -> list[tuple]:
        milliseconds = max(1, int(budget * 1000))
        if self.factory is None:
            with connection.cursor() as cursor:
                if budget < self.timeout - 0.001:   # a request with a shorter budget of its own
                    cursor.execute(f"SET statement_timeout = {milliseconds}")
                    try:
                        cursor.execute(sql, params)
                        return cursor.fetchall()
                    finally:
                        cursor.execute(f"SET statement_timeout = {int(self.timeout * 1000)}")
                cursor.execute(sql, params)
                return cursor.fetchall()
        # Someone else's connection: an explicit read-only transaction with a local timeout,
        # rolled back whatever happens, so nothing of ours outlives the fetch.
        # The three settings travel in one round trip; SET LOCAL ends with the transaction,
        # so the caller's session keeps its own zone and timeout.
        with connection.transaction(force_rollback=True):
            with connection.cursor() as cursor:
                _read_dates_leniently(cursor.adapters)     # the cursor's, not the caller's
                cursor.execute(f"SET TRANSACTION READ ONLY; "
                               f"SET LOCAL statement_timeout = {milliseconds}; "
                               "SET LOCAL TimeZone = 'UTC'")
                cursor.execute(sql, params)
                return cursor.fetchall()

    def _stale(self, exc: Exception) -> bool:
        # A statement psycopg prepared on this connection before an ALTER ... TYPE: the
        # server refuses it once; a new connection plans it afresh.
        return getattr(exc, "sqlstate", None) == "0A000" and \
            "cached plan must not change result type" in str(exc)

    def _explain(self, exc: Exception, budget: float) -> str:
        psycopg = _psycopg()
        text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        if isinstance(exc, psycopg.errors.QueryCanceled):
            return f"timed out after {budget:g} s ({text})"
        if isinstance(exc, psycopg.errors.UndefinedTable):
            return f"{text}: the database has no such table"
        if isinstance(exc, psycopg.errors.UndefinedColumn):
            return f"{text}: the table has no such column"
        if isinstance(exc, psycopg.errors.ReadOnlySqlTransaction):
            return f"{text}: the lookup tried to write"
        if isinstance(exc, psycopg.OperationalError):
            return f"cannot reach the database: {text}"
        return f"{type(exc).__name__}: {text}"


def _without_password(url: str) -> str:
    """A URL fit for a log line: its password and secret query parameters replaced by ***."""
    return redact_url(url)
