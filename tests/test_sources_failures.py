"""Production failure modes of the SQL sources, each against the real servers (tests/dbs.py):
a caller's connection in another time zone, a SQLite file replaced under a running resolver,
exact decimals in routed evidence, tenants that a collation would merge, secrets in URLs,
TLS parameters, and per-lookup deadlines on MariaDB."""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import sqlite3
import time
from decimal import Decimal

import dbs
import pytest
from folders import read_only_folder
from test_sql_sources import DDL, NOW, RULES, Store, reply, run

import rulekit
from rulekit.check import check
from rulekit.route import _plain, gather
from rulekit.sources import (LookupRequest, MysqlResolver, PostgresResolver, SourceError,
                             SqliteResolver, open_source)
from rulekit.sources.postgres import _without_password

UTC = dt.timezone.utc


@pytest.fixture(scope="module")
def policy() -> rulekit.Policy:
    return rulekit.load(RULES)


def _scratch(backend: str, suffix: str) -> dbs.Scratch:
    dbs.require(backend)
    return dbs.Scratch(backend, suffix=suffix)


@contextlib.contextmanager
def _tables(backend: str, suffix: str, *statements: str):
    """A scratch schema on ``backend`` with ``statements`` run in it; dropped afterwards."""
    scratch = _scratch(backend, suffix)
    try:
        for statement in statements:
            scratch.execute(statement)
        yield scratch
    finally:
        scratch.drop()


def _sqlite_file(path, *statements: str):
    connection = sqlite3.connect(path)
    for statement in statements:
        connection.execute(statement)
    connection.commit()
    connection.close()
    return path


# --- 1. a caller's connection in another time zone ------------------------------------------

def test_a_mysql_factory_connection_in_another_zone_reads_timestamps_in_utc():
    import pymysql

    from rulekit.sources.mysql import connection_arguments

    scratch = _scratch("mysql", "_tz")
    try:
        scratch.execute("SET time_zone = '+00:00'")
        scratch.execute("CREATE TABLE stamps (id BIGINT PRIMARY KEY, at TIMESTAMP NULL)")
        scratch.execute("INSERT INTO stamps VALUES (1, '2026-07-29 23:40:00')")
        scratch.execute("CREATE VIEW stamp_days AS SELECT id, CAST(at AS DATE) AS day "
                        "FROM stamps")

        def factory():
            connection = pymysql.connect(**connection_arguments(scratch.url), autocommit=True)
            connection.cursor().execute("SET time_zone = '+05:00'")
            return connection

        resolver = MysqlResolver(connect=factory)
        request = LookupRequest("stamp", "id", ("1",), ("at",), table="stamps",
                                key_kind="integer")
        # a TIMESTAMP is an instant: read in UTC, and handed over as such
        assert resolver.fetch(request)["1"]["at"] == dt.datetime(2026, 7, 29, 23, 40,
                                                                 tzinfo=dt.timezone.utc)
        days = LookupRequest("stamp", "id", ("1",), ("day",), table="stamp_days",
                             key_kind="integer")
        assert resolver.fetch(days)["1"]["day"] == dt.date(2026, 7, 29)
        # The caller's session is left as the caller set it.
        with resolver.connection().cursor() as cursor:
            cursor.execute("SELECT @@session.time_zone")
            assert cursor.fetchone()[0] == "+05:00"
        resolver.close()
    finally:
        scratch.drop()


def test_a_postgres_connection_in_another_zone_reads_the_same_instant():
    import psycopg

    # A view (or a source's SELECT) that turns the instant into a day does it in the
    # session's zone: in Kolkata that day is already the 30th.
    with _tables("postgres", "_tz",
                 "CREATE TABLE stamps (id BIGINT PRIMARY KEY, at TIMESTAMPTZ)",
                 "INSERT INTO stamps VALUES (1, '2026-07-29 23:40:00+00')",
                 "CREATE VIEW stamp_days AS SELECT id, CAST(at AS DATE) AS day FROM stamps"
                 ) as scratch:
        request = LookupRequest("stamp", "id", ("1",), ("at",), table="stamps",
                                key_kind="integer")
        days = LookupRequest("stamp", "id", ("1",), ("day",), table="stamp_days",
                             key_kind="integer")
        zoned = scratch.url + "%20-cTimeZone%3DAsia/Kolkata"

        def factory():
            connection = psycopg.connect(scratch.url)
            connection.execute("SET TimeZone = 'Asia/Kolkata'")
            connection.commit()
            return connection

        for resolver in (PostgresResolver(connect=factory), PostgresResolver(zoned)):
            assert resolver.fetch(request)["1"]["at"] == dt.datetime(2026, 7, 29, 23, 40,
                                                                      tzinfo=UTC)
            assert resolver.fetch(days)["1"]["day"] == dt.date(2026, 7, 29)
            resolver.close()


# --- 2. a SQLite file replaced under a running resolver --------------------------------------

def _stock_db(path, stock: int) -> None:
    _sqlite_file(path, "CREATE TABLE item (sku TEXT PRIMARY KEY, stock INTEGER)",
                 f"INSERT INTO item VALUES ('A-3', {int(stock)})")


def test_a_replaced_sqlite_file_is_read_afresh(tmp_path):
    path = tmp_path / "shop.db"
    _stock_db(path, 3)
    resolver = SqliteResolver(path)
    request = LookupRequest("item", "sku", ("A-3",), ("stock",))
    assert resolver.fetch(request)["A-3"]["stock"] == 3
    _stock_db(tmp_path / "new.db", 0)
    os.replace(tmp_path / "new.db", path)
    assert resolver.fetch(request)["A-3"]["stock"] == 0
    os.remove(path)
    with pytest.raises(SourceError, match="no such file"):
        resolver.fetch(request)


def test_an_unchanged_sqlite_file_keeps_its_connection(tmp_path):
    path = tmp_path / "shop.db"
    _stock_db(path, 3)
    resolver = SqliteResolver(path)
    request = LookupRequest("item", "sku", ("A-3",), ("stock",))
    resolver.fetch(request)
    first = resolver._connection()
    writer = sqlite3.connect(path)
    writer.execute("UPDATE item SET stock = 7")
    writer.commit()
    writer.close()
    assert resolver.fetch(request)["A-3"]["stock"] == 7
    assert resolver._connection() is first


# --- 3. exact decimals in routed evidence ------------------------------------------------------

ROUTE_RULES = """
ruleset stats {
  version "1"
  locale en_US
}

tenant user_id

source stats {
  sql "SELECT post_id, views, ratio FROM probe_stats WHERE user_id = :user_id ORDER BY post_id"
  default
}

prose free

on contradicted, misattributed, stray_figure, unapproved_shape regenerate max 1 then refuse "bad"
on malformed_reply regenerate max 1 then refuse "bad"
on not_found, not_checkable, stale, missing_input, lookup_failed refuse "nope"
"""


def test_plain_keeps_exact_decimals_and_drops_what_is_not_a_number():
    assert _plain(Decimal("1234567890123.456789")) == Decimal("1234567890123.456789")
    assert isinstance(_plain(Decimal("1234567890123.456789")), Decimal)
    assert _plain(Decimal("1299.00")) == 1299 and isinstance(_plain(Decimal("1299.00")), int)
    for odd in (Decimal("NaN"), Decimal("Infinity"), Decimal("-Infinity"), float("nan"),
                float("inf"), Decimal("1e400")):
        assert _plain(odd) is None


def test_routed_numeric_evidence_is_exact_and_a_nan_spoils_only_itself(tmp_path):
    from rulekit.audit import audit

    scratch = _scratch("postgres", "_route")
    try:
        scratch.execute("CREATE TABLE probe_stats (post_id TEXT, user_id TEXT, views NUMERIC, "
                        "ratio NUMERIC)")
        scratch.execute("INSERT INTO probe_stats VALUES ('p1', 'alice', 1234567890123.456789, "
                        "0.5), ('p2', 'alice', 'NaN', 7), ('p3', 'bob', 5, 1)")
        rules = tmp_path / "stats.rules"
        rules.write_text(ROUTE_RULES)
        policy = rulekit.load(rules)
        resolver = PostgresResolver(scratch.url)
        gathered = gather(policy, "how many views", resolver, tenant="alice", now=NOW)
        assert gathered.failed == ()
        assert gathered.evidence["stats"][0]["views"] == Decimal("1234567890123.456789")
        assert gathered.evidence["stats"][1]["views"] is None

        def decide(text):
            return audit(text, gathered.evidence, policy=policy,
                         sources=gathered.report()).decision.decision

        assert decide("Your post got 1,234,567,890,123.4568 views.") != "answer"
        assert decide("Your post got 1,234,567,890,123.456789 views.") == "answer"
        # The NaN row's other figure still licenses; NaN itself licenses nothing.
        assert decide("Your second post had a ratio of 7.") == "answer"
        resolver.close()
    finally:
        scratch.drop()


# --- 4. tenants are exact, and must be non-empty strings ---------------------------------------

@pytest.mark.parametrize("tenant", ["ALICE", "alice ", "Alice"])
def test_a_tenant_that_a_collation_would_merge_sees_nothing(policy, store, tenant):
    decision = run(policy, store, reply(("money", "order", "1042", "total", "$1,299.00"),
                                        ("money", "product", "RC-500", "price", "$1,299.00")),
                   tenant=tenant)
    assert [c.outcome for c in decision.claims] == ["not_found", "not_found"], decision.reasons
    gathered = gather(policy, "recent orders", store.resolver(), tenant=tenant, now=NOW)
    assert gathered.evidence["recent_orders"] == []


@pytest.fixture(params=dbs.BACKENDS)
def store(request, tmp_path):
    made = Store(request.param, tmp_path)
    yield made
    made.close()


@pytest.mark.parametrize("tenant", [42, "", b"alice"])
def test_an_empty_or_non_string_tenant_is_refused_clearly(policy, store, tenant):
    statements = []
    resolver = store.resolver(on_query=lambda sql, params: statements.append(sql))
    decision = run(policy, store, reply(("money", "order", "1042", "total", "$1,299.00")),
                   tenant=tenant, resolver=resolver)
    assert decision.decision != "answer"
    if decision.claims:     # a string: the resolver refuses it, and the lookup fails
        assert decision.claims[0].reason_code == "lookup_failed"
        assert "tenant id" in decision.claims[0].reason
    else:                   # not a string: check refuses it before any lookup
        assert [r.code for r in decision.reasons] == ["input_error"]
        assert "tenant must be a string" in decision.reasons[0].message
    assert not statements
    with pytest.raises(SourceError, match="tenant id must be a non-empty string"):
        resolver.fetch(LookupRequest("order", "id", ("1042",), ("total",), tenant=tenant,
                                     lookup=policy.entity("order").lookup, key_kind="integer"))
    gathered = gather(policy, "recent orders", resolver, tenant=tenant, now=NOW)
    assert "tenant id must be a non-empty string" in gathered.failed[0].error
    assert statements == []


# --- 5. secrets in URLs --------------------------------------------------------------------------

@pytest.mark.parametrize("url, shown", [
    ("postgresql://postgres:S3cretPW@h:5/db", "postgresql://postgres:***@h:5/db"),
    ("postgresql://postgres:S3cret%40PW@h/db", "postgresql://postgres:***@h/db"),
    ("postgresql://h/db?user=u&password=S3cretPW", "postgresql://h/db?user=u&password=***"),
    ("postgresql://h/db?sslpassword=S3cretPW&sslmode=require",
     "postgresql://h/db?sslpassword=***&sslmode=require"),
    ("mysql://h/db?PWD=S3cretPW&api_token=S3cretPW&SECRET=S3cretPW&ssl_key=/k.pem",
     "mysql://h/db?PWD=***&api_token=***&SECRET=***&ssl_key=***"),
    ("mysql://root@h/db?passwd=S3cretPW#frag", "mysql://root@h/db?passwd=***#frag"),
    ("postgresql://h/db?options=-c%20search_path%3Dx", "postgresql://h/db?options=-c%20search_path%3Dx"),
])
def test_urls_are_shown_without_their_secrets(url, shown):
    assert _without_password(url) == shown


@pytest.mark.parametrize("url", [
    "postgresql://postgres@127.0.0.1:1/test?password=S3cretPW",
    "postgresql://postgres:S3cretPW@127.0.0.1:1/test",
    "mysql://root@127.0.0.1:1/test?password=S3cretPW",
    "mysql://root@127.0.0.1:1/?password=S3cretPW",
    "mysql://root@127.0.0.1:1/test?password=S3cretPW&bogus=1",
    "oracle://scott:S3cretPW@127.0.0.1:1/test",
])
def test_a_failing_url_never_shows_its_password(policy, url, tmp_path):
    from rulekit.log import DecisionLog

    path = tmp_path / "decisions.jsonl"
    log = DecisionLog(path)
    decision = check(policy, reply(("money", "order", "1042", "total", "$1,299.00")), url,
                     now=NOW, tenant="alice", timeout=1.0, log=log)
    if hasattr(log, "close"):
        log.close()
    assert decision.decision != "answer"
    shown = " ".join(r.message for r in decision.reasons) + repr(decision.to_dict())
    assert "S3cret" not in shown and "S3cret" not in path.read_text()


# --- 6. TLS parameters of a MariaDB URL -----------------------------------------------------------

def test_mysql_url_tls_parameters_are_read():
    import ssl

    from rulekit.sources.mysql import connection_arguments, tls_options

    assert tls_options({"ssl_ca": "/ca.pem", "ssl_cert": "/c.pem", "ssl_key": "/k.pem",
                        "ssl_verify_identity": "true"}) == {
        "ca": "/ca.pem", "cert": "/c.pem", "key": "/k.pem", "verify_cert": True,
        "verify_identity": True}
    assert tls_options({"ssl_mode": "required"}) == {
        "ca": None, "cert": None, "key": None, "verify_cert": False, "verify_identity": False}
    assert tls_options({"ssl_mode": "VERIFY_CA"})["verify_cert"]
    assert tls_options({"ssl_mode": "PREFERRED"}) is None and tls_options({}) is None
    assert connection_arguments("mysql://h/db?ssl_mode=DISABLED")["ssl_disabled"] is True
    required = connection_arguments("mysql://h/db?ssl_mode=REQUIRED")["ssl"]
    assert required.verify_mode == ssl.CERT_NONE
    ca = "/etc/ssl/certs/ca-certificates.crt"
    if os.path.exists(ca):
        verified = connection_arguments(f"mysql://h/db?ssl_ca={ca}&ssl_mode=VERIFY_IDENTITY")
        assert verified["ssl"].verify_mode == ssl.CERT_REQUIRED
        assert verified["ssl"].check_hostname


@pytest.mark.parametrize("url, message", [
    ("mysql://h/db?charset=latin1", "unsupported parameter 'charset'"),
    ("mysql://h/db?ssl-mode=REQUIRED", "unsupported parameter 'ssl-mode'"),
    ("mysql://h/db?ssl_mode=STRICT", "ssl_mode must be one of"),
    ("mysql://h/db?ssl_verify_cert=maybe", "ssl_verify_cert must be true or false"),
    ("mysql://h/db?ssl_mode=DISABLED&ssl_ca=/ca.pem", "ssl_mode=DISABLED"),
    ("mysql://h/db?ssl_ca=", "ssl_ca is empty"),
    ("mysql://h/db?ssl_ca=/a&ssl_ca=/b", "ssl_ca is given twice"),
    ("mysql://h/db?ssl_ca=/nonexistent/ca.pem", "ssl_ca '/nonexistent/ca.pem' cannot be read"),
    ("mysql://h/db?ssl_mode=VERIFY_CA&ssl_verify_cert=false", "contradicts ssl_mode=VERIFY_CA"),
])
def test_mysql_url_parameters_that_are_not_supported_are_refused(url, message):
    with pytest.raises(ValueError, match=message):
        open_source(url)


@pytest.mark.parametrize("query", ["ssl_ca=/nonexistent/ca.pem&ssl_mode=REQUIRED",
                                   "ssl_mode=REQUIRED"])
def test_a_mysql_url_that_demands_tls_never_falls_back_to_plain_tcp(policy, query, tmp_path):
    store = Store("mysql", tmp_path)
    try:
        body = reply(("money", "order", "1042", "total", "$1,299.00"))
        assert check(policy, body, store.scratch.url, now=NOW, tenant="alice").decision == \
            "answer"
        decision = check(policy, body, f"{store.scratch.url}?{query}", now=NOW,
                         tenant="alice", timeout=2.0)
    finally:
        store.close()
    assert decision.decision != "answer"
    assert "lookup_failed" in {r.code for r in decision.reasons}
    if "nonexistent" in query:
        assert "/nonexistent/ca.pem" in decision.reasons[0].message


# --- 7. each MariaDB lookup obeys its own budget, on both paths ----------------------------------

@pytest.fixture
def sleepy_mysql():
    scratch = _scratch("mysql", "_deadline")
    scratch.execute("CREATE TABLE items (sku VARCHAR(20) PRIMARY KEY, name TEXT)")
    scratch.execute("INSERT INTO items VALUES ('S1', 'slow')")
    scratch.execute("CREATE VIEW sleepy AS SELECT sku, name FROM items WHERE sleep(4) = 0")
    yield scratch
    scratch.drop()


def _mysql_factory(scratch):
    import pymysql

    from rulekit.sources.mysql import connection_arguments

    return lambda: pymysql.connect(**connection_arguments(scratch.url), autocommit=True)


def _timed_fetch(resolver, table: str, timeout: float) -> float:
    started = time.monotonic()
    with pytest.raises(SourceError, match="timed out"):
        resolver.fetch(LookupRequest("item", "sku", ("S1",), ("name",), table=table,
                                     timeout=timeout))
    return time.monotonic() - started


def test_a_mysql_factory_lookup_stops_at_its_budget(sleepy_mysql):
    resolver = MysqlResolver(connect=_mysql_factory(sleepy_mysql), timeout=1.0)
    assert _timed_fetch(resolver, "sleepy", 1.0) < 3
    locker = dbs.admin("mysql", sleepy_mysql.name)
    locker.cursor().execute("LOCK TABLES items WRITE")
    try:
        assert _timed_fetch(resolver, "items", 1.0) < 3
    finally:
        locker.cursor().execute("UNLOCK TABLES")
        locker.close()
    found = resolver.fetch(LookupRequest("item", "sku", ("S1",), ("name",), table="items"))
    assert found["S1"]["name"] == "slow"
    resolver.close()


@pytest.mark.parametrize("path", ["url", "factory"])
def test_a_shorter_budget_of_one_lookup_wins_on_mysql(sleepy_mysql, path):
    resolver = MysqlResolver(sleepy_mysql.url, timeout=3.5) if path == "url" else \
        MysqlResolver(connect=_mysql_factory(sleepy_mysql), timeout=3.5)
    resolver.fetch(LookupRequest("item", "sku", ("S1",), ("name",), table="items"))  # warm
    assert _timed_fetch(resolver, "sleepy", 0.5) < 2
    resolver.close()


# --- 8. a changed column type, and key columns that do not compare as text -----------------------

def test_a_column_type_changed_under_a_reused_postgres_connection_is_read_again():
    with _tables("postgres", "_plan",
                 "CREATE TABLE prices (id INTEGER PRIMARY KEY, price NUMERIC(12, 2))",
                 "INSERT INTO prices VALUES (1, 2.5)") as scratch:
        resolver = PostgresResolver(scratch.url)
        request = LookupRequest("price", "id", ("1",), ("price",), table="prices",
                                key_kind="integer")
        for _ in range(7):      # past psycopg's threshold, the statement is prepared
            assert resolver.fetch(request)["1"]["price"] == Decimal("2.50")
        scratch.execute("ALTER TABLE prices ALTER COLUMN price TYPE NUMERIC")
        assert resolver.fetch(request)["1"]["price"] == Decimal("2.5")
        resolver.close()


@pytest.mark.parametrize("backend", ["sqlite", "postgres", "mysql"])
def test_a_blank_padded_key_column_is_named_not_silently_not_found(backend, tmp_path):
    if backend == "sqlite":
        path = _sqlite_file(tmp_path / "pad.db",
                            "CREATE TABLE items (sku TEXT COLLATE RTRIM, stock INTEGER)",
                            "INSERT INTO items VALUES ('BT-3  ', 4)")
        resolver, scratch = SqliteResolver(path), None
    else:
        scratch = _scratch(backend, "_pad")
        column = "CHAR(10)" if backend == "postgres" else "VARCHAR(10)"
        scratch.execute(f"CREATE TABLE items (sku {column}, stock INTEGER)")
        scratch.execute("INSERT INTO items VALUES ('BT-3', 4), ('SP-1 ', 5)")
        resolver = (PostgresResolver if backend == "postgres" else MysqlResolver)(scratch.url)
    try:
        ident = "BT-3" if backend != "mysql" else "SP-1"
        with pytest.raises(SourceError, match="pads keys with blanks"):
            resolver.fetch(LookupRequest("item", "sku", (ident,), ("stock",), table="items"))
    finally:
        resolver.close()
        if scratch is not None:
            scratch.drop()


def test_a_numeric_integer_key_is_found(tmp_path):
    with _tables("postgres", "_numkey", "CREATE TABLE accounts (id NUMERIC(10, 2), label TEXT)",
                 "INSERT INTO accounts VALUES (7, 'seven')") as scratch:
        resolver = PostgresResolver(scratch.url)
        found = resolver.fetch(LookupRequest("acct", "id", ("7",), ("label",),
                                             table="accounts", key_kind="integer"))
        assert found["7"]["label"] == "seven" and found["7"]["id"] == Decimal("7.00")
        resolver.close()


def test_a_sqlite_tenant_column_declared_nocase_still_compares_exactly(policy, tmp_path):
    store = Store("sqlite", tmp_path)
    try:
        store.execute("ALTER TABLE orders RENAME TO orders_plain")
        store.execute(DDL["sqlite"][0].replace("owner_id TEXT NOT NULL",
                                               "owner_id TEXT NOT NULL COLLATE NOCASE"))
        store.execute("INSERT INTO orders SELECT * FROM orders_plain")
        body = reply(("money", "order", "1042", "total", "$1,299.00"))
        assert run(policy, store, body).decision == "answer"
        assert [c.outcome for c in run(policy, store, body, tenant="ALICE").claims] == \
            ["not_found"]
        assert gather(policy, "recent orders", store.resolver(), tenant="ALICE",
                      now=NOW).evidence["recent_orders"] == []
    finally:
        store.close()


# --- a WAL database in a folder the reader cannot write ---------------------------------------

def _wal_database(folder):
    folder.mkdir()
    path = folder / "stock.db"
    with contextlib.closing(sqlite3.connect(path)) as connection:
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("CREATE TABLE item (id TEXT PRIMARY KEY, stock INTEGER)")
        connection.execute("INSERT INTO item VALUES ('a', 3)")
        connection.commit()
    assert not (folder / "stock.db-shm").exists()   # removed by the last connection's close
    return path


REQUEST = LookupRequest("item", "id", ("a",), ("stock",))


def test_a_wal_database_in_a_read_only_folder_says_why_and_what_to_do(tmp_path):
    path = _wal_database(tmp_path / "ro")
    with read_only_folder(tmp_path / "ro"):
        with pytest.raises(SourceError) as failed:
            SqliteResolver(path).fetch(REQUEST)
        message = str(failed.value)
        assert "unable to open database file" in message
        assert "in WAL mode" in message and f"{path}-shm" in message, message
        assert "immutable=True" in message and "writable" in message, message
        # The fix it names works: read as an immutable snapshot.
        assert SqliteResolver(path, immutable=True).fetch(REQUEST) == {"a": {"id": "a",
                                                                             "stock": 3}}
        assert open_source(f"sqlite:///{path}?immutable=1").fetch(REQUEST)["a"]["stock"] == 3


def test_a_wal_database_in_a_writable_folder_is_read(tmp_path):
    """The pass twin: the same database where SQLite may make its -shm file."""
    path = _wal_database(tmp_path / "rw")
    assert SqliteResolver(path).fetch(REQUEST) == {"a": {"id": "a", "stock": 3}}
