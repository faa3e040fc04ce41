"""A query that joins two tables, scoped as the compiler proves it (RK506; tests/
test_tenant_proof.py), returns only the signed-in user's rows on every backend: SQLite files
and the PostgreSQL and MariaDB servers (tests/dbs.py). The leak first: the probe's query, which
no longer compiles, really does return another user's invoice when run as written.
"""

from __future__ import annotations

import datetime as dt
import sqlite3

import dbs
import pytest

from rulekit.check import check
from rulekit.compile import compile_source
from rulekit.route import gather
from rulekit.sources import MysqlResolver, PostgresResolver, SqliteResolver

NOW = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.timezone.utc)
USERS = "tsq_users"
INVOICES = "tsq_invoices"
TABLES = {
    USERS: (("id", "VARCHAR(32)"), ("name", "VARCHAR(64)")),
    INVOICES: (("id", "VARCHAR(32)"), ("owner_id", "VARCHAR(32)"), ("amount", "INTEGER")),
}
ROWS = {
    USERS: [("alice", "Alice"), ("bob", "Bob")],
    INVOICES: [("INV-1", "alice", 12900), ("INV-2", "bob", 99999), ("INV-3", "alice", 500)],
}
SCOPED = (f"SELECT i.id, i.amount, u.name AS owner_name FROM {INVOICES} i "
          f"JOIN {USERS} u ON u.id = i.owner_id WHERE i.owner_id = :user_id")
LEAK = f"SELECT i.id, i.amount FROM {INVOICES} AS i JOIN {USERS} AS u ON TRUE WHERE u.id = :user_id"


def _rules(query: str) -> str:
    return f'''ruleset billing {{
  version "1"
  currency USD
}}

tenant user_id

entity invoice {{
  key id
  source sql "{query}"
  field id         identifier
  field amount     money minor
  field owner_name text
}}

source my_invoices {{
  sql "{query}"
  default
}}

on otherwise refuse "Sorry."
'''


@pytest.fixture(scope="module")
def policy():
    result = compile_source(_rules(SCOPED))
    assert result.ok, result.diagnostics
    return result.policy


class Backend:
    """The two tables on one backend: a resolver for them, and the admin's own connection."""

    def __init__(self, backend: str, tmp_path) -> None:
        self.backend, self.scratch = backend, None
        if backend == "sqlite":
            path = tmp_path / "tenant_joins.db"
            self.admin = sqlite3.connect(path)
            for table, columns in TABLES.items():
                self.admin.execute(f"CREATE TABLE {table} "
                                   f"({', '.join(f'{c} {t}' for c, t in columns)})")
                self.admin.executemany(f"INSERT INTO {table} VALUES "
                                       f"({', '.join('?' * len(columns))})", ROWS[table])
            self.admin.commit()
            self.resolver = SqliteResolver(path)
            return
        dbs.require(backend)
        self.scratch = dbs.Scratch(backend, suffix="_tenant_joins")
        for table, columns in TABLES.items():
            self.scratch.create_table(table, list(columns), [list(row) for row in ROWS[table]])
        self.resolver = (PostgresResolver if backend == "postgres" else MysqlResolver)(
            self.scratch.url)

    def run_as_written(self, query: str, tenant: str) -> list:
        """The author's query, bound as the user would be, outside rulekit."""
        if self.scratch is None:
            return self.admin.execute(query.replace(":user_id", "?"), (tenant,)).fetchall()
        return self.scratch.execute(query.replace(":user_id", "%s"), (tenant,))

    def close(self) -> None:
        self.resolver.close()
        (self.admin.close if self.scratch is None else self.scratch.drop)()


@pytest.fixture(params=dbs.BACKENDS)
def backend(request, tmp_path):
    made = Backend(request.param, tmp_path)
    yield made
    made.close()


def _claim(ident: str, amount: str) -> dict:
    return {"answer_template": "Invoice total: {a}.",
            "claims": [{"key": "a", "type": "money", "entity": "invoice", "entity_id": ident,
                        "field": "amount", "value": amount}]}


def test_the_probes_query_leaks_and_does_not_compile(backend):
    rows = backend.run_as_written(LEAK, "alice")
    assert "INV-2" in {row[0] for row in rows}          # bob's invoice, shown to alice
    result = compile_source(_rules(LEAK))
    assert not result.ok
    assert {d.code for d in result.diagnostics} == {"RK506"}


def test_a_scoped_join_finds_only_the_users_invoices(policy, backend):
    mine = check(policy, _claim("INV-1", "$129.00"), backend.resolver, tenant="alice", now=NOW)
    assert mine.decision == "answer", mine.reasons
    bobs = check(policy, _claim("INV-2", "$999.99"), backend.resolver, tenant="alice", now=NOW)
    assert [c.outcome for c in bobs.claims] == ["not_found"]
    as_bob = check(policy, _claim("INV-2", "$999.99"), backend.resolver, tenant="bob", now=NOW)
    assert as_bob.decision == "answer", as_bob.reasons


def test_a_scoped_join_gathers_only_the_users_rows(policy, backend):
    for tenant, ids, name in (("alice", {"INV-1", "INV-3"}, "Alice"), ("bob", {"INV-2"}, "Bob")):
        gathered = gather(policy, "my invoices", backend.resolver, tenant=tenant, now=NOW)
        assert gathered.failed == ()
        rows = gathered.evidence["my_invoices"]
        assert {row["id"] for row in rows} == ids
        assert {row["owner_name"] for row in rows} == {name}
    assert sorted(row[0] for row in backend.run_as_written(SCOPED, "alice")) == ["INV-1", "INV-3"]
