"""PostgreSQL as the system of record, through psycopg 3 (the optional extra
``rulekit[postgres]``).

- **Read-only.** A connection rulekit opens sets ``default_transaction_read_only`` for its
  session, so every statement runs in a READ ONLY transaction and PostgreSQL itself refuses a
  write. A connection handed over by the caller (a factory or a pool) is not ours to
  reconfigure: each fetch runs in an explicit ``BEGIN READ ONLY`` ... ``ROLLBACK`` on it.
- **A deadline** on the server (``statement_timeout``), so a slow query fails within the
  budget; one on connecting (``connect_timeout``, apart from the budget: ``sources.sql``), so
  a dead host fails within that; and one on
  the client (``Watchdog``): a lookup still waiting for its answer ``GRACE`` seconds past its
  budget (a stalled network path, a hung proxy, a frozen server: the query may never have
  reached it, and its own timeout cannot fire) has its socket shut down, and fails as
  "timed out". Connections rulekit opens also set TCP keepalives and ``tcp_user_timeout``, so
  the kernel gives up on a peer that vanished (unless the URL sets them itself).
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
  format (``'$100.50'``) and is not read as a number: select it as ``numeric``. A ``real``
  (float4) is read as ``SinglePrecision``, which no comparison takes for a number: PostgreSQL
  sends it with the fewest digits that round-trip in single precision (1234567.89 as
  1234567.9). A ``double precision`` keeps 15 digits and is read as a float.
- **One round trip per lookup** on an owned connection: autocommit, so the SELECT is the whole
  transaction.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import math
import os
import socket
import threading
import time
from collections.abc import Callable, Sequence

from rulekit.compare import SinglePrecision
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


def _read_reals_as_single_precision(adapters) -> None:
    """Register on ``adapters`` a loader that reads a REAL (float4) as ``SinglePrecision``:
    PostgreSQL sends the fewest digits that round-trip in single precision (1234567.89 as
    1234567.9), and a rounded figure must not be confirmed (``rulekit.compare``)."""
    adapters.register_loader(adapters.types["float4"].oid, _single_precision_loader())


@functools.cache
def _single_precision_loader() -> type:
    _psycopg()
    from psycopg.adapt import Loader

    class SinglePrecisionLoader(Loader):
        def load(self, data):
            return SinglePrecision(float(bytes(data)), "REAL")

    return SinglePrecisionLoader


# Seconds past a lookup's budget before the client gives up on an answer: the server's own
# statement_timeout fires at the budget, and its error needs a moment to arrive.
GRACE = 0.5


class ClientTimeout(Exception):
    """No answer within the budget and its grace: the watchdog shut the connection down."""


class Watchdog:
    """One daemon thread that calls each armed callback at its deadline, unless disarmed
    first. Arming costs a heap push, not a thread per lookup."""

    def __init__(self) -> None:
        self._heap: list[list] = []
        self._order = itertools.count()
        self._condition = threading.Condition()
        self._thread: threading.Thread | None = None

    def arm(self, seconds: float, callback: Callable[[], None]) -> list:
        entry = [time.monotonic() + seconds, next(self._order), callback]
        with self._condition:
            heapq.heappush(self._heap, entry)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._loop, name="rulekit-pg-watchdog",
                                                daemon=True)
                self._thread.start()
            elif self._heap[0] is entry:
                self._condition.notify()
        return entry

    @staticmethod
    def disarm(entry: list) -> None:
        entry[2] = None   # left in the heap; popped and skipped at its deadline

    def _loop(self) -> None:
        while True:
            with self._condition:
                while not self._heap:
                    self._condition.wait()
                wait = self._heap[0][0] - time.monotonic()
                if wait > 0:
                    self._condition.wait(wait)
                    continue
                callback = heapq.heappop(self._heap)[2]
            if callback is not None:
                try:
                    callback()
                except Exception:   # a watchdog must outlive whatever it interrupts
                    pass


WATCHDOG = Watchdog()


class _Guard:
    """One lookup's watch: ``fire`` shuts its connection down unless the lookup is ``over``;
    the lock makes the two exclusive, so a lookup that ended is never cut afterwards."""

    __slots__ = ("connection", "lock", "over", "fired")

    def __init__(self, connection):
        self.connection, self.lock, self.over, self.fired = connection, threading.Lock(), \
            False, False

    def fire(self) -> None:
        with self.lock:
            if self.over:
                return
            self.fired = True
            _shut_down(self.connection)

    def end(self) -> bool:
        """Mark the lookup over; whether the watchdog had already cut it."""
        with self.lock:
            self.over = True
            return self.fired


def _shut_down(connection) -> None:
    """Wake a thread blocked reading ``connection``: shut its socket down (a dup of the
    descriptor, so the connection still owns and closes its own)."""
    try:
        descriptor = os.dup(connection.fileno())
    except Exception:   # already closed
        return
    with socket.socket(fileno=descriptor) as duplicate:
        try:
            duplicate.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


class PostgresResolver(SqlResolver):
    """Answer lookups from PostgreSQL. Give a ``postgresql://`` URL, or ``connect``: a
    zero-argument callable that returns a new psycopg connection, kept by the thread
    that got it; with ``release``, a pool: a connection is borrowed for each lookup and given
    back to ``release`` at its end (docs/sources.md)."""

    dialect = "postgres"

    def __init__(self, url: str | None = None, *, connect: Callable[[], object] | None = None,
                 timeout: float = 2.0, on_query: QueryHook | None = None,
                 connect_timeout: float | None = None,
                 release: Callable[[object], object] | None = None):
        if connect_timeout is None and url is not None and "connect_timeout" in url:
            # The URL's own connect_timeout (libpq's), when the caller did not give one.
            from psycopg.conninfo import conninfo_to_dict
            given = conninfo_to_dict(url).get("connect_timeout")
            if given is not None and float(given) > 0:
                connect_timeout = float(given)
        super().__init__(timeout=timeout, on_query=on_query, connect_timeout=connect_timeout)
        if (url is None) == (connect is None):
            raise ValueError("give a postgresql:// URL or a connect= factory, not both or neither")
        if release is not None and connect is None:
            raise ValueError("release= gives back what a connect= factory lent; give both")
        self.release = release
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
        # A peer that vanished: TCP keepalives on an idle connection, and a bound on how long
        # sent data may stay unacknowledged; unless the URL chose its own.
        network = {"keepalives": 1, "keepalives_idle": 30, "keepalives_interval": 5,
                   "keepalives_count": 3,
                   "tcp_user_timeout": int((self.timeout + GRACE) * 1000) + 1000}
        for name in list(network):
            if name in conninfo_to_dict(self.url):
                del network[name]
        connection = psycopg.connect(self.url, autocommit=True, application_name="rulekit",
                                     # whole seconds, at least 2 (libpq's rule)
                                     connect_timeout=max(2, math.ceil(self.connect_timeout)),
                                     options=options, **network)
        _read_dates_leniently(connection.adapters)
        _read_reals_as_single_precision(connection.adapters)
        return connection

    def _run(self, connection, sql: str, params: Sequence, budget: float) -> list[tuple]:
        # The server's statement_timeout cannot fire for a query that never reached it, or
        # whose answer never comes back: past the budget and its grace, shut the socket.
        # An answer that came as the watchdog fired is not used: it is late, and the
        # connection is cut (the failure closes it, and the next lookup opens a new one).
        guard = _Guard(connection)
        entry = WATCHDOG.arm(budget + GRACE, guard.fire)
        try:
            rows = self._statement_on(connection, sql, params, budget)
        except Exception as exc:
            WATCHDOG.disarm(entry)
            if guard.end():
                raise ClientTimeout(f"no answer within {budget:g} s; rulekit closed the "
                                    "connection") from exc
            raise
        WATCHDOG.disarm(entry)
        if guard.end():
            raise ClientTimeout(f"no answer within {budget:g} s; rulekit closed the connection")
        return rows

    def _statement_on(self, connection, sql: str, params: Sequence,
                      budget: float) -> list[tuple]:
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
                _read_reals_as_single_precision(cursor.adapters)
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
        if isinstance(exc, ClientTimeout):
            return f"timed out after {budget:g} s ({text})"
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
