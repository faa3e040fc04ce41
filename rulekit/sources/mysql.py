"""MySQL and MariaDB as the system of record, through PyMySQL (the optional extra
``rulekit[mysql]``).

- **Read-only.** A connection rulekit opens sets ``SESSION TRANSACTION READ ONLY``, so the
  server refuses a write in any statement it runs. A connection handed over by the caller is
  not ours to reconfigure: each fetch runs in ``START TRANSACTION READ ONLY`` ... ``ROLLBACK``.
- **A deadline per lookup.** On MariaDB every statement is sent as ``SET STATEMENT
  max_statement_time=<budget>, time_zone='+00:00' FOR SELECT ...``: the lookup's own budget
  (a ``ground`` deadline shorter than the resolver's timeout wins), which also stops a wait
  for a table lock, on our connections and a caller's alike. MySQL has no ``SET STATEMENT``:
  its session ``max_execution_time`` and ``lock_wait_timeout`` are set before each lookup.
  Connections we open also have socket read and write timeouts, and opening one has
  ``connect_timeout`` in all (apart from the lookup's budget: see ``sources.sql``).
- **Times in UTC**, per statement on MariaDB (per session on MySQL), so TIMESTAMP columns
  come back as UTC wall-clock even on a caller's connection set to another zone, and are
  handed over as aware UTC datetimes (``_as_typed``, by the column's type); DATETIME
  columns are naive and read in the field's ``naive`` zone (UTC unless the rules say
  otherwise). DECIMAL comes back as Decimal, DATE as date, FLOAT as ``SinglePrecision``.
- **Collations.** MySQL compares strings without regard to case or trailing spaces under its
  default collations: the shared post-filter keeps only exact key matches (see
  ``sources.sql``), and the tenant is sent as ``BINARY %s`` so it matches byte for byte.
- **TLS** from the URL's query (``ssl_mode``, ``ssl_ca``, ``ssl_cert``, ``ssl_key``,
  ``ssl_verify_cert``, ``ssl_verify_identity``); any other parameter is refused by name.
"""

from __future__ import annotations

import datetime as dt
import math
import ssl
from collections.abc import Callable, Sequence
from urllib.parse import parse_qsl, unquote, urlsplit

from rulekit.compare import SinglePrecision
from rulekit.policy import Statement

from rulekit.sources import SourceError
from rulekit.sources.postgres import WATCHDOG, _Guard, _without_password
from rulekit.sources.sql import ConnectTimeout, QueryHook, SqlResolver, exact_tenant

SCHEMES = ("mysql", "mariadb", "mysql+pymysql", "mariadb+pymysql")


def _pymysql():
    try:
        import pymysql
    except ImportError:
        raise SourceError("MySQL/MariaDB sources need PyMySQL: pip install 'rulekit[mysql]'") \
            from None
    return pymysql


# The URL's query parameters rulekit reads: TLS only. Anything else is refused by name, so a
# parameter that would have mattered (a CA file, a TLS mode) is never silently dropped.
PARAMETERS = ("ssl_mode", "ssl_ca", "ssl_cert", "ssl_key", "ssl_verify_cert",
              "ssl_verify_identity")
TLS_MODES = ("DISABLED", "PREFERRED", "REQUIRED", "VERIFY_CA", "VERIFY_IDENTITY")
_TRUE, _FALSE = ("true", "1", "yes", "on"), ("false", "0", "no", "off")


def connection_arguments(url: str) -> dict:
    """``mysql://user:password@host:port/database?ssl_...`` as PyMySQL's keyword arguments.

    TLS comes from the query: ``ssl_ca``, ``ssl_cert``, ``ssl_key`` (file paths),
    ``ssl_verify_cert`` and ``ssl_verify_identity`` (true or false), and ``ssl_mode``
    (DISABLED, PREFERRED, REQUIRED, VERIFY_CA, VERIFY_IDENTITY). Any TLS parameter but
    ``ssl_mode=PREFERRED`` makes TLS required: the connection fails rather than fall back to
    plain TCP. Another parameter, a repeated one or a bad value is a ``ValueError`` naming it.
    """
    shown = _without_password(url)
    parts = urlsplit(url)
    if parts.scheme.lower() not in SCHEMES:
        raise ValueError(f"not a MySQL URL: {shown!r}; expected "
                         "mysql://user:password@host:3306/database")
    database = parts.path.lstrip("/")
    if not database:
        raise ValueError(f"{shown!r} names no database; add it after the "
                         "host: mysql://root@127.0.0.1:3306/shop")
    arguments = {"host": parts.hostname or "127.0.0.1", "port": parts.port or 3306,
                 "user": unquote(parts.username or "root"),
                 "password": unquote(parts.password or ""), "database": unquote(database)}
    given: dict[str, str] = {}
    for name, value in parse_qsl(parts.query, keep_blank_values=True):
        if name not in PARAMETERS:
            raise ValueError(f"{shown!r}: unsupported parameter {name!r} in a MySQL URL; "
                             f"rulekit reads only {', '.join(PARAMETERS)}")
        if name in given:
            raise ValueError(f"{shown!r}: {name} is given twice")
        given[name] = value
    tls = tls_options(given, shown)
    if tls is False:
        arguments["ssl_disabled"] = True
    elif tls is not None:
        arguments["ssl"] = _tls_context(tls, shown)
    return arguments


def tls_options(given: dict[str, str], shown: str = "the URL") -> dict | bool | None:
    """The TLS settings of a URL's parameters: None for PyMySQL's default (TLS when the server
    offers it), False for DISABLED, else a dict (ca, cert, key, verify_cert,
    verify_identity) of a connection that must be encrypted."""
    mode = given.get("ssl_mode", "PREFERRED").upper()
    if mode not in TLS_MODES:
        raise ValueError(f"{shown!r}: ssl_mode must be one of {', '.join(TLS_MODES)}, "
                         f"not {given['ssl_mode']!r}")
    paths = {}
    for name in ("ssl_ca", "ssl_cert", "ssl_key"):
        if name in given:
            if not given[name]:
                raise ValueError(f"{shown!r}: {name} is empty; give the PEM file's path")
            paths[name[4:]] = given[name]
    flags = {}
    for name in ("ssl_verify_cert", "ssl_verify_identity"):
        if name in given:
            value = given[name].lower()
            if value not in _TRUE + _FALSE:
                raise ValueError(f"{shown!r}: {name} must be true or false, not "
                                 f"{given[name]!r}")
            flags[name[4:]] = value in _TRUE
    others = sorted(n for n in given if n != "ssl_mode")
    if mode == "DISABLED":
        if others:
            raise ValueError(f"{shown!r}: ssl_mode=DISABLED contradicts {', '.join(others)}")
        return False
    if mode == "PREFERRED" and not others:
        return None
    identity = flags.get("verify_identity", mode == "VERIFY_IDENTITY")
    verify = flags.get("verify_cert", mode in ("VERIFY_CA", "VERIFY_IDENTITY") or identity
                       or "ca" in paths)
    if (mode in ("VERIFY_CA", "VERIFY_IDENTITY") or identity) and not verify:
        raise ValueError(f"{shown!r}: ssl_verify_cert=false contradicts "
                         f"{'ssl_mode=' + mode if mode.startswith('VERIFY') else 'ssl_verify_identity=true'}")
    if mode == "VERIFY_CA" and identity:
        raise ValueError(f"{shown!r}: ssl_verify_identity=true asks for ssl_mode=VERIFY_IDENTITY, "
                         "not VERIFY_CA")
    return {"ca": paths.get("ca"), "cert": paths.get("cert"), "key": paths.get("key"),
            "verify_cert": verify, "verify_identity": identity}


def _tls_context(tls: dict, shown: str) -> ssl.SSLContext:
    """An SSLContext for ``tls``; a file that cannot be read is a ValueError naming it."""
    try:
        if tls["verify_cert"]:
            context = ssl.create_default_context(cafile=tls["ca"])
            context.check_hostname = tls["verify_identity"]
        else:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE
    except (OSError, ssl.SSLError) as exc:
        raise ValueError(f"{shown!r}: ssl_ca {tls['ca']!r} cannot be read: {exc}") from None
    if tls["cert"] or tls["key"]:
        if not tls["cert"]:
            raise ValueError(f"{shown!r}: ssl_key needs ssl_cert, the client certificate")
        try:
            context.load_cert_chain(tls["cert"], keyfile=tls["key"])
        except (OSError, ssl.SSLError) as exc:
            raise ValueError(f"{shown!r}: ssl_cert {tls['cert']!r} / ssl_key "
                             f"{tls['key']!r} cannot be read: {exc}") from None
    return context


class MysqlResolver(SqlResolver):
    """Answer lookups from MySQL or MariaDB. Give a ``mysql://`` URL, or ``connect``: a
    zero-argument callable that returns a new PyMySQL connection, kept by the thread
    that got it; with ``release``, a pool: a connection is borrowed for each lookup and given
    back to ``release`` at its end (docs/sources.md)."""

    dialect = "mysql"

    def __init__(self, url: str | None = None, *, connect: Callable[[], object] | None = None,
                 timeout: float = 2.0, on_query: QueryHook | None = None,
                 connect_timeout: float | None = None,
                 release: Callable[[object], object] | None = None):
        super().__init__(timeout=timeout, on_query=on_query, connect_timeout=connect_timeout)
        if (url is None) == (connect is None):
            raise ValueError("give a mysql:// URL or a connect= factory, not both or neither")
        if release is not None and connect is None:
            raise ValueError("release= gives back what a connect= factory lent; give both")
        self.release = release
        self.arguments = connection_arguments(url) if url is not None else None
        self.url = url
        self.factory = connect
        self._exact: dict[int, tuple[Statement, Statement]] = {}

    def __repr__(self) -> str:
        return f"MysqlResolver({self._describe()!r}, timeout={self.timeout:g})"

    def _describe(self) -> str:
        if self.url is None:
            return "mysql (caller's connections)"
        return "mysql " + _without_password(self.url)

    def _open(self):
        if self.factory is not None:
            connection = self.factory()
            if not _is_mariadb(connection):
                # MySQL has no per-statement time zone: the caller's session is set to UTC
                # once, when rulekit first uses the connection.
                with connection.cursor() as cursor:
                    cursor.execute("SET time_zone = '+00:00'")
            return connection
        pymysql = _pymysql()
        # Connecting (TCP, the greeting, TLS, authentication, the session's settings) has
        # connect_timeout in all: each read and write may take that long, and the watchdog
        # shuts the socket down once the whole has. Then the lookups' own read timeouts.
        limit = self.connect_timeout
        connection = pymysql.Connection(
            **self.arguments, charset="utf8mb4", autocommit=True, defer_connect=True,
            connect_timeout=limit, read_timeout=limit, write_timeout=limit)
        guard = _Guard(_SocketOf(connection))
        entry = WATCHDOG.arm(limit, guard.fire)
        try:
            connection.connect()
            with connection.cursor() as cursor:
                cursor.execute("SET SESSION TRANSACTION READ ONLY")
                cursor.execute("SET time_zone = '+00:00'")
        except Exception as exc:
            WATCHDOG.disarm(entry)
            try:
                connection.close()
            except Exception:   # never opened, or already closed by PyMySQL
                pass
            if guard.end():
                raise ConnectTimeout(f"no connection within {limit:g} s; rulekit closed the "
                                     "socket") from exc
            raise
        WATCHDOG.disarm(entry)
        if guard.end():
            connection.close()
            raise ConnectTimeout(f"no connection within {limit:g} s; rulekit closed the socket")
        # PyMySQL applies these before each read and write (2.x keeps them here).
        connection._read_timeout = connection._write_timeout = self.timeout + 0.5
        return connection

    def _bind(self, statement: Statement, tenant_params) -> Statement:
        # MariaDB's default collations ignore case and trailing spaces: "ALICE" and "alice "
        # would read alice's rows. BINARY compares bytes, and the column's index still serves.
        return exact_tenant(statement, tenant_params, " BINARY ", "", self._exact)

    def _run(self, connection, sql: str, params: Sequence, budget: float) -> list[tuple]:
        with connection.cursor() as cursor:
            if _is_mariadb(connection):
                # One statement carries its own limits: this lookup's budget (lock waits
                # included) and UTC, on our connections and the caller's alike.
                sql = (f"SET STATEMENT max_statement_time = {budget:.3f}, "
                       f"time_zone = '+00:00' FOR {sql}")
            else:
                cursor.execute(f"SET SESSION max_execution_time = {max(1, int(budget * 1000))}, "
                               f"lock_wait_timeout = {max(1, math.ceil(budget))}")
            if self.factory is None:
                cursor.execute(sql, tuple(params))
                return _as_typed(cursor.description, cursor.fetchall())
            # Someone else's connection: an explicit read-only transaction, rolled back.
            cursor.execute("START TRANSACTION READ ONLY")
            try:
                cursor.execute(sql, tuple(params))
                return _as_typed(cursor.description, cursor.fetchall())
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


class _SocketOf:
    """A PyMySQL connection's socket, for the watchdog's ``_shut_down`` (none before the TCP
    connect, which its own timeout bounds)."""

    __slots__ = ("connection",)

    def __init__(self, connection):
        self.connection = connection

    def fileno(self) -> int:
        return self.connection._sock.fileno()


# PyMySQL's codes for the column types whose values need their type said
# (``pymysql.constants.FIELD_TYPE``; the column's type is the second item of a description).
_FLOAT, _TIMESTAMP = 4, 7


def _as_typed(description, rows) -> list:
    """``rows`` as the checker reads them. A FLOAT column's numbers, which MariaDB sends with
    6 significant digits (12345.67 as 12345.7), become ``SinglePrecision``, which no comparison
    reads as a number (``rulekit.compare``). A TIMESTAMP column holds an instant, which the
    lookup reads at time_zone '+00:00' as a naive UTC wall time: it becomes an aware UTC
    datetime, so a field's ``naive`` zone (meant for its DATETIME columns) does not move it.
    DATETIME stays naive."""
    typed_at = [(at, column[1]) for at, column in enumerate(description or ())
                if column[1] in (_FLOAT, _TIMESTAMP)]
    if not typed_at:
        return list(rows)
    typed = []
    for row in rows:
        row = list(row)
        for at, kind in typed_at:
            value = row[at]
            if kind == _FLOAT and isinstance(value, float):
                row[at] = SinglePrecision(value, "FLOAT")
            elif kind == _TIMESTAMP and isinstance(value, dt.datetime) and value.tzinfo is None:
                row[at] = value.replace(tzinfo=dt.timezone.utc)
        typed.append(tuple(row))
    return typed


def _is_mariadb(connection) -> bool:
    """From the server's greeting, kept by PyMySQL: no round trip."""
    return "mariadb" in connection.get_server_info().lower()
