"""Lookups per second on each backend (SQLite, and the PostgreSQL and MariaDB servers of this
machine), and queries per check.

One table of 10,000 orders with native column types, scoped to a tenant; the compiled
statement of tests/cases/sources/store.rules is run through each resolver, as a check runs it.
A lookup is one parameterised statement: one id, and ten ids in one IN list; a check of three
claims on two orders makes one query.
"""

from __future__ import annotations

import datetime as dt
import os
import sqlite3
import tempfile
import time
from decimal import Decimal
from pathlib import Path

from run import ROOT, Section

import rulekit
from rulekit.check import check
from rulekit.sources import LookupRequest, MysqlResolver, PostgresResolver, SqliteResolver

POSTGRES_URL = os.environ.get("RULEKIT_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
MYSQL_URL = os.environ.get("RULEKIT_TEST_MYSQL", "mysql://root@127.0.0.1:3306/test")
ROWS = 10_000
SCHEMA = f"rk_bench_{os.getpid()}"
NOW = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.timezone.utc)
UPDATED = dt.datetime(2026, 11, 30, 11, 0, tzinfo=dt.timezone.utc)

COLUMNS = {
    "sqlite": "id INTEGER PRIMARY KEY, owner_id TEXT, total_amount NUMERIC, placed_on TEXT, "
              "shipped_at TEXT, weight NUMERIC, status TEXT, note TEXT, updated_at TEXT",
    "postgres": "id BIGINT PRIMARY KEY, owner_id TEXT, total_amount NUMERIC(12, 2), "
                "placed_on DATE, shipped_at TIMESTAMPTZ, weight NUMERIC(10, 3), status TEXT, "
                "note TEXT, updated_at TIMESTAMPTZ",
    "mysql": "id BIGINT PRIMARY KEY, owner_id VARCHAR(64), total_amount DECIMAL(12, 2), "
             "placed_on DATE, shipped_at DATETIME(6), weight DECIMAL(10, 3), status VARCHAR(32), "
             "note TEXT, updated_at DATETIME(6)",
}


def _rows(backend: str) -> list[tuple]:
    rows = []
    for n in range(1, ROWS + 1):
        shipped = UPDATED - dt.timedelta(hours=n % 48)
        updated = UPDATED
        if backend == "mysql":
            shipped, updated = shipped.replace(tzinfo=None), updated.replace(tzinfo=None)
        row = (n, "alice" if n % 2 else "bob", Decimal(n) + Decimal("0.99"),
               dt.date(2026, 11, 1) + dt.timedelta(days=n % 28), shipped,
               Decimal("1.250"), "shipped", None, updated)
        if backend == "sqlite":
            row = tuple(v.isoformat() if isinstance(v, (dt.date, dt.datetime)) else
                        str(v) if isinstance(v, Decimal) else v for v in row)
        rows.append(row)
    return rows


def _setup(backend: str, folder: Path):
    """Create the table; returns (resolver, cleanup) or raises when the server is missing."""
    if backend == "sqlite":
        path = folder / "bench.db"
        with sqlite3.connect(path) as connection:
            connection.execute(f"CREATE TABLE orders ({COLUMNS['sqlite']})")
            connection.executemany(f"INSERT INTO orders VALUES ({', '.join('?' * 9)})",
                                   _rows("sqlite"))
        connection.close()
        return SqliteResolver(path), lambda: None
    if backend == "postgres":
        import psycopg

        admin = psycopg.connect(POSTGRES_URL, autocommit=True, connect_timeout=3)
        admin.execute(f"DROP SCHEMA IF EXISTS {SCHEMA} CASCADE")
        admin.execute(f"CREATE SCHEMA {SCHEMA}")
        admin.execute(f"SET search_path TO {SCHEMA}")
        admin.execute(f"CREATE TABLE orders ({COLUMNS['postgres']})")
        with admin.cursor() as cursor:
            cursor.executemany(f"INSERT INTO orders VALUES ({', '.join(['%s'] * 9)})",
                               _rows("postgres"))
        separator = "&" if "?" in POSTGRES_URL else "?"
        resolver = PostgresResolver(f"{POSTGRES_URL}{separator}options=-csearch_path%3D{SCHEMA}")

        def cleanup():
            resolver.close()
            admin.execute(f"DROP SCHEMA IF EXISTS {SCHEMA} CASCADE")
            admin.close()
        return resolver, cleanup
    import pymysql

    from rulekit.sources.mysql import connection_arguments

    arguments = connection_arguments(MYSQL_URL)
    admin = pymysql.connect(**{**arguments, "database": None}, autocommit=True, connect_timeout=3)
    with admin.cursor() as cursor:
        cursor.execute(f"DROP DATABASE IF EXISTS {SCHEMA}")
        cursor.execute(f"CREATE DATABASE {SCHEMA}")
        cursor.execute(f"USE {SCHEMA}")
        cursor.execute(f"CREATE TABLE orders ({COLUMNS['mysql']})")
        cursor.executemany(f"INSERT INTO orders VALUES ({', '.join(['%s'] * 9)})", _rows("mysql"))
    resolver = MysqlResolver(MYSQL_URL.rsplit("/", 1)[0] + f"/{SCHEMA}")

    def cleanup():
        resolver.close()
        with admin.cursor() as cursor:
            cursor.execute(f"DROP DATABASE IF EXISTS {SCHEMA}")
        admin.close()
    return resolver, cleanup


def _rate(action, seconds: float = 2.0) -> float:
    action()   # connect and warm up outside the clock
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(50):
            action()
        count += 50
    return count / (time.perf_counter() - start)


def run() -> Section:
    policy = rulekit.load(ROOT / "tests" / "cases" / "sources" / "store.rules")
    order = policy.entity("order")

    def request(*ids: int) -> LookupRequest:
        return LookupRequest("order", "id", tuple(map(str, ids)), ("total", "shipped_at"),
                             lookup=order.lookup, tenant="alice", key_kind="integer")

    reply = {"answer_template": "{a} {b} {c}", "claims": [
        {"key": "a", "type": "money", "entity": "order", "entity_id": "101", "field": "total",
         "value": "$101.99"},
        {"key": "b", "type": "date", "entity": "order", "entity_id": "101",
         "field": "shipped_at", "value": "2026-11-30"},
        {"key": "c", "type": "money", "entity": "order", "entity_id": "203", "field": "total",
         "value": "$203.99"}]}
    rows, notes, failed = [], [], []
    with tempfile.TemporaryDirectory() as folder:
        for backend in ("sqlite", "postgres", "mysql"):
            try:
                resolver, cleanup = _setup(backend, Path(folder))
            except Exception as exc:
                rows.append((backend, "not reachable", "-", "-", "-"))
                notes.append(f"{backend}: {str(exc).splitlines()[0]}")
                continue
            try:
                one = _rate(lambda: resolver.fetch(request(101)))
                ten = _rate(lambda: resolver.fetch(request(*range(101, 121, 2))))
                queries: list[str] = []
                resolver.on_query = lambda sql, params: queries.append(sql)
                decision = check(policy, reply, resolver, now=NOW, tenant="alice")
                resolver.on_query = None
                per_check = len(queries)
                checks = _rate(lambda: check(policy, reply, resolver, now=NOW, tenant="alice"))
                if decision.decision != "answer":
                    failed.append(f"{backend}: the benchmark reply was not answered: "
                                  f"{[r.message for r in decision.reasons]}")
                if per_check != 1:
                    failed.append(f"{backend}: {per_check} queries per check, not 1")
                rows.append((backend, f"{one:,.0f}", f"{ten:,.0f}", per_check, f"{checks:,.0f}"))
            finally:
                cleanup()
    notes.append(f"{ROWS:,} rows, half of them another tenant's; one core; the resolver keeps "
                 "one connection per thread, so connecting is outside the clock")
    notes.append("a check here is three claims on two orders of one entity: one statement")
    return Section("Lookups on each backend", "make bench (benchmarks/bench_sources.py)",
                   ("backend", "lookups/s, 1 id", "lookups/s, 10 ids", "queries per check",
                    "checks/s, 3 claims"), rows, notes, failed)


if __name__ == "__main__":
    print(run().markdown())
