"""MySQL and MariaDB as the system of record, through PyMySQL (the optional extra
``rulekit[mysql]``).

- **Read-only.** A connection rulekit opens sets ``SESSION TRANSACTION READ ONLY``, so the
  server refuses a write in any statement it runs. A connection handed over by the caller is
  not ours to reconfigure: each fetch runs in ``START TRANSACTION READ ONLY`` ... ``ROLLBACK``.
- **A deadline** three ways: ``connect_timeout`` for a dead host, the socket's read timeout
  for a stalled server, and the server's own statement limit (MariaDB's
  ``max_statement_time``, MySQL's ``max_execution_time``) so the query stops there too.
- **Times in UTC.** The session's ``time_zone`` is UTC, so TIMESTAMP columns come back as UTC
  wall-clock; DATETIME columns are naive and read in the field's ``naive`` zone (UTC unless
  the rules say otherwise). DECIMAL comes back as Decimal, DATE as date.
- MySQL compares strings without regard to case or trailing spaces under its default
  collations; the shared post-filter keeps only exact key matches (see ``sources.sql``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from urllib.parse import unquote, urlsplit

from rulekit.sources import SourceError
from rulekit.sources.postgres import _without_password
from rulekit.sources.sql import QueryHook, SqlResolver

SCHEMES = ("mysql", "mariadb", "mysql+pymysql", "mariadb+pymysql")


def _pymysql():
    try:
        import pymysql
    except ImportError:
        raise SourceError("MySQL/MariaDB sources need PyMySQL: pip install 'rulekit[mysql]'") \
            from None
    return pymysql


def connection_arguments(url: str) -> dict:
    """``mysql://user:password@host:port/database`` as PyMySQL's keyword arguments."""
    parts = urlsplit(url)
    if parts.scheme.lower() not in SCHEMES:
        raise ValueError(f"not a MySQL URL: {_without_password(url)!r}; expected "
                         "mysql://user:password@host:3306/database")
    database = parts.path.lstrip("/")
    if not database:
        raise ValueError(f"{_without_password(url)!r} names no database; add it after the "
                         "host: mysql://root@127.0.0.1:3306/shop")
    return {"host": parts.hostname or "127.0.0.1", "port": parts.port or 3306,
            "user": unquote(parts.username or "root"),
            "password": unquote(parts.password or ""), "database": unquote(database)}


class MysqlResolver(SqlResolver):
    """Answer lookups from MySQL or MariaDB. Give a ``mysql://`` URL, or ``connect``: a
    zero-argument callable that returns a new PyMySQL connection."""

    dialect = "mysql"

    def __init__(self, url: str | None = None, *, connect: Callable[[], object] | None = None,
                 timeout: float = 2.0, on_query: QueryHook | None = None):
        super().__init__(timeout=timeout, on_query=on_query)
        if (url is None) == (connect is None):
            raise ValueError("give a mysql:// URL or a connect= factory, not both or neither")
        self.arguments = connection_arguments(url) if url is not None else None
        self.url = url
        self.factory = connect

    def __repr__(self) -> str:
        return f"MysqlResolver({self._describe()!r}, timeout={self.timeout:g})"

    def _describe(self) -> str:
        if self.url is None:
            return "mysql (caller's connections)"
        return "mysql " + _without_password(self.url)

    def _open(self):
        if self.factory is not None:
            return self.factory()
        pymysql = _pymysql()
        connection = pymysql.connect(
            **self.arguments, charset="utf8mb4", autocommit=True,
            connect_timeout=max(1, math.ceil(self.timeout)),
            read_timeout=self.timeout + 0.5, write_timeout=self.timeout + 0.5)
        try:
            with connection.cursor() as cursor:
                cursor.execute("SET SESSION TRANSACTION READ ONLY")
                cursor.execute("SET time_zone = '+00:00'")
                cursor.execute(self._limit_statement(connection, self.timeout))
        except Exception:
            connection.close()
            raise
        return connection

    @staticmethod
    def _limit_statement(connection, seconds: float) -> str:
        if "mariadb" in connection.get_server_info().lower():
            return f"SET SESSION max_statement_time = {seconds:.3f}"
        return f"SET SESSION max_execution_time = {max(1, int(seconds * 1000))}"

    def _run(self, connection, sql: str, params: Sequence, budget: float) -> list[tuple]:
        with connection.cursor() as cursor:
            if self.factory is None:
                cursor.execute(sql, tuple(params))
                return list(cursor.fetchall())
            # Someone else's connection: an explicit read-only transaction, rolled back.
            cursor.execute("START TRANSACTION READ ONLY")
            try:
                cursor.execute(sql, tuple(params))
                return list(cursor.fetchall())
            finally:
                connection.rollback()

    def _explain(self, exc: Exception, budget: float) -> str:
        pymysql = _pymysql()
        code = exc.args[0] if exc.args and isinstance(exc.args[0], int) else None
        text = str(exc.args[1]) if len(exc.args) > 1 else str(exc) or type(exc).__name__
        if code in (1969, 3024) or "timed out" in text.lower():
            return f"timed out after {budget:g} s ({text})"
        if code == 1146:
            return f"{text}: the database has no such table"
        if code == 1054:
            return f"{text}: the table has no such column"
        if code in (1792, 1290):
            return f"{text}: the lookup tried to write"
        if isinstance(exc, pymysql.err.OperationalError) or code in (2003, 2006, 2013):
            return f"cannot reach the database: {text}"
        return f"{type(exc).__name__}: {text}"
