"""The real database servers the SQL tests run against, and scratch schemas on them.

PostgreSQL and MariaDB run on this machine (127.0.0.1:5432 and :3306; override with
RULEKIT_TEST_POSTGRES / RULEKIT_TEST_MYSQL). Off CI, a test that needs a server that is not
there is skipped with a one-line reason; with ``CI=true`` it fails, so a CI run can never pass
by skipping them.

``Scratch`` is one schema (PostgreSQL) or database (MariaDB) of the test session's own, named
after the process, created on first use and dropped at the end; tables are written with native
column types (``native_type``) so that the resolvers read INTEGER, NUMERIC, DATE, TIMESTAMPTZ
and DATETIME as the drivers return them.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import os
import re
from decimal import Decimal
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

POSTGRES_URL = os.environ.get("RULEKIT_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
MYSQL_URL = os.environ.get("RULEKIT_TEST_MYSQL", "mysql://root@127.0.0.1:3306/test")
ON_CI = os.environ.get("CI", "").lower() == "true"
BACKENDS = ("sqlite", "postgres", "mysql")


@functools.lru_cache(maxsize=None)
def unavailable(backend: str) -> str | None:
    """Why ``backend`` cannot be used here, or None when it can."""
    if backend == "sqlite":
        return None
    try:
        connection = admin(backend)
        connection.close()
    except Exception as exc:   # the driver missing or the server down: both are reasons
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return f"{backend} server not reachable ({first})"
    return None


def require(backend: str) -> None:
    reason = unavailable(backend)
    if reason is None:
        return
    if ON_CI:
        pytest.fail(f"CI=true and {reason}: the SQL tests must run against the real server")
    pytest.skip(reason)


def admin(backend: str, database: str | None = None):
    """A plain read-write connection for setting up tables (never a resolver's)."""
    if backend == "postgres":
        import psycopg

        return psycopg.connect(POSTGRES_URL, autocommit=True, connect_timeout=3)
    import pymysql

    from rulekit.sources.mysql import connection_arguments

    arguments = connection_arguments(MYSQL_URL)
    if database is not None:
        arguments["database"] = database
    return pymysql.connect(**arguments, autocommit=True, connect_timeout=3, charset="utf8mb4")


def quote(backend: str, name: str) -> str:
    mark = "`" if backend == "mysql" else '"'
    return mark + name.replace(mark, mark * 2) + mark


class Scratch:
    """A schema or database of this test process's own on one server."""

    def __init__(self, backend: str, suffix: str = "") -> None:
        self.backend = backend
        self.name = f"rk_test_{os.getpid()}{suffix}"
        self.connection = admin(backend)
        if backend == "postgres":
            self.execute(f"DROP SCHEMA IF EXISTS {self.name} CASCADE")
            self.execute(f"CREATE SCHEMA {self.name}")
            self.execute(f"SET search_path TO {self.name}")
        else:
            self.execute(f"DROP DATABASE IF EXISTS {self.name}")
            self.execute(f"CREATE DATABASE {self.name} CHARACTER SET utf8mb4")
            self.execute(f"USE {self.name}")
        self.tables: set[str] = set()

    @property
    def url(self) -> str:
        """The URL a resolver is given: the same server, this schema or database."""
        if self.backend == "postgres":
            separator = "&" if "?" in POSTGRES_URL else "?"
            return f"{POSTGRES_URL}{separator}options=-csearch_path%3D{self.name}"
        parts = urlsplit(MYSQL_URL)
        return urlunsplit(parts._replace(path=f"/{self.name}"))

    def execute(self, sql: str, params: Any = None) -> list:
        with self.connection.cursor() as cursor:
            cursor.execute(sql, params)
            try:
                return list(cursor.fetchall())
            except Exception:   # a statement with no result set
                return []

    def create_table(self, table: str, columns: list[tuple[str, str]], rows: list[list]) -> None:
        q = functools.partial(quote, self.backend)
        self.execute(f"DROP TABLE IF EXISTS {q(table)}")
        self.execute(f"CREATE TABLE {q(table)} ({', '.join(f'{q(c)} {t}' for c, t in columns)})")
        marks = ", ".join(["%s"] * len(columns))
        with self.connection.cursor() as cursor:
            for row in rows:
                cursor.execute(f"INSERT INTO {q(table)} VALUES ({marks})", row)
        self.tables.add(table)

    def disconnect(self) -> None:
        """Close the set-up connection; ``drop`` opens a new one."""
        if self.connection is not None:
            self.connection.close()
            self.connection = None

    def drop(self) -> None:
        if self.connection is None:
            self.connection = admin(self.backend)
        try:
            if self.backend == "postgres":
                self.execute(f"DROP SCHEMA IF EXISTS {self.name} CASCADE")
            else:
                self.execute(f"DROP DATABASE IF EXISTS {self.name}")
        finally:
            self.connection.close()


# --- native column types ---------------------------------------------------------------------

_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
_NAIVE = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?")
_AWARE = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})")


def _aware(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


def native_type(backend: str, kind: str | None, values: list, *, naive_zone: str = "UTC",
                storage: str | None = None) -> tuple[str, Any]:
    """The column type for a field of ``kind`` holding ``values`` (None = NULL), and a function
    that turns a value into what the driver inserts. A column whose values do not all fit the
    native type falls back to text, as a real database with a loose legacy column would hold
    them; the checker must cope with both."""
    present = [v for v in values if v is not None]
    text_type = "TEXT"

    def as_text(value):
        if value is None or isinstance(value, str):
            return value
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, (dict, list)):
            return json.dumps(value)
        return str(value)

    def every(test) -> bool:
        return all(test(v) for v in present)

    ints = every(lambda v: isinstance(v, int) and not isinstance(v, bool))
    numbers = every(lambda v: isinstance(v, (int, float)) and not isinstance(v, bool))
    if not present:
        return text_type, as_text
    if kind == "boolean" and every(lambda v: isinstance(v, bool)):
        return "BOOLEAN", lambda v: v
    if ints and (kind in ("integer", "timestamp", "date") or kind == "money" and storage == "minor"):
        return "BIGINT", lambda v: v
    if kind in ("decimal", "money") and numbers:
        return "NUMERIC(24, 6)", lambda v: None if v is None else Decimal(str(v))
    if kind == "date" and every(lambda v: isinstance(v, str) and _DAY.fullmatch(v)):
        return "DATE", lambda v: None if v is None else dt.date.fromisoformat(v)
    if kind in ("timestamp", "date") and every(lambda v: isinstance(v, str) and _AWARE.fullmatch(v)):
        if backend == "postgres":
            return "TIMESTAMPTZ", lambda v: None if v is None else _aware(v)
        if naive_zone == "UTC":   # DATETIME holds UTC wall-clock, read back as UTC
            return "DATETIME(6)", lambda v: None if v is None else \
                _aware(v).astimezone(dt.timezone.utc).replace(tzinfo=None)
        return text_type, as_text
    if kind in ("timestamp", "date") and every(lambda v: isinstance(v, str) and _NAIVE.fullmatch(v)):
        return ("TIMESTAMP" if backend == "postgres" else "DATETIME(6)",
                lambda v: None if v is None else dt.datetime.fromisoformat(v))
    if kind is None and ints:
        return "BIGINT", lambda v: v
    return text_type, as_text


def load_rows(scratch: Scratch, policy, rows: dict) -> None:
    """One table per entity (its lookup table), typed from the entity's fields."""
    for table, records in rows.items():
        entity = policy.entity(table)
        fields = {f.name: f for f in entity.fields} if entity is not None else {}
        names = list(dict.fromkeys([*fields, *(c for r in records for c in r)])) or ["id"]
        columns, converters = [], []
        for name in names:
            field = fields.get(name)
            kind = field.type.kind if field else None
            sql_type, convert = native_type(
                scratch.backend, kind, [r.get(name) for r in records],
                naive_zone=getattr(field.type, "naive_zone", "UTC") if field else "UTC",
                storage=getattr(field.type, "storage", None) if field else None)
            columns.append((name, sql_type))
            converters.append(convert)
        target = entity.lookup.table if entity is not None and entity.lookup.table else table
        scratch.create_table(target, columns,
                             [[convert(r.get(n)) for n, convert in zip(names, converters)]
                              for r in records])
