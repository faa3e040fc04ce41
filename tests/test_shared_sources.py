"""`shared` rows in a tenant-scoped ruleset, on every backend (in memory, SQLite files, and the
PostgreSQL and MariaDB servers: see tests/dbs.py).

A status page's incidents or public help articles are every account's: the ruleset says so with
`shared`, and their lookups read them whoever is signed in, while the account's own rows stay
scoped. The failure path first: another account's invoice stays invisible beside shared rows,
a shared lookup still needs a signed-in account, and the compiler refuses `shared` where it
would scope nothing or where the query names the tenant (goldens in tests/cases/compile/shared_*).
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from decimal import Decimal
from pathlib import Path

import dbs
import pytest

import rulekit
from rulekit.check import check
from rulekit.fmt import format_source
from rulekit.route import gather
from rulekit.sources import MemoryResolver, MysqlResolver, PostgresResolver, SqliteResolver

RULES = Path(__file__).parent / "cases" / "sources" / "shared.rules"
NOW = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.timezone.utc)

TABLES = {
    "invoices": (("id", "VARCHAR(32)"), ("account_id", "VARCHAR(32)"), ("amount", "INTEGER")),
    "incidents": (("id", "VARCHAR(32)"), ("uptime_30d", "DECIMAL(6, 3)")),
    "articles": (("id", "VARCHAR(32)"), ("title", "VARCHAR(200)"), ("public", "INTEGER")),
}
ROWS = {
    "invoices": [("INV-1", "acct_a", 129900), ("INV-2", "acct_b", 4900)],
    "incidents": [("inc_7", Decimal("99.950"))],
    "articles": [("kb-1", "Updating your card", 1), ("kb-2", "Internal runbook", 0)],
}


@pytest.fixture(scope="module")
def policy() -> rulekit.Policy:
    return rulekit.load(RULES)


@pytest.fixture(params=("memory", *dbs.BACKENDS))
def resolver(request, tmp_path):
    yield from _resolver(request.param, tmp_path)


@pytest.fixture(params=dbs.BACKENDS)
def sql_resolver(request, tmp_path):
    """Only SQL backends: rows in memory are a query's result, and routed sources are SQL."""
    yield from _resolver(request.param, tmp_path)


def _resolver(backend: str, tmp_path):
    if backend == "memory":
        # rows in memory are found by entity name
        yield MemoryResolver({table[:-1]: [dict(zip((c for c, _ in TABLES[table]), row))
                                           for row in rows] for table, rows in ROWS.items()})
        return
    if backend == "sqlite":
        path = tmp_path / "billing.db"
        with sqlite3.connect(path) as db:
            for table, columns in TABLES.items():
                db.execute(f"CREATE TABLE {table} ({', '.join(f'{c} {t}' for c, t in columns)})")
                db.executemany(f"INSERT INTO {table} VALUES ({', '.join('?' * len(columns))})",
                               [tuple(str(v) if isinstance(v, Decimal) else v for v in row)
                                for row in ROWS[table]])
        made = SqliteResolver(path)
        yield made
        made.close()
        return
    dbs.require(backend)
    scratch = dbs.Scratch(backend, suffix="_shared")
    for table, columns in TABLES.items():
        scratch.create_table(table, list(columns), [list(row) for row in ROWS[table]])
    made = (PostgresResolver if backend == "postgres" else MysqlResolver)(scratch.url)
    yield made
    made.close()
    scratch.drop()


def _reply(entity: str, ident: str, field: str, kind: str, value) -> dict:
    return {"answer_template": "{v}.", "claims": [{"key": "v", "type": kind, "entity": entity,
                                                   "entity_id": ident, "field": field,
                                                   "value": value}]}


def test_another_accounts_invoice_stays_invisible_beside_shared_rows(policy, resolver):
    decision = check(policy, _reply("invoice", "INV-2", "amount", "money", "$49.00"), resolver,
                     tenant="acct_a", now=NOW)
    assert decision.decision != "answer"
    assert [c.outcome for c in decision.claims] == ["not_found"]
    own = check(policy, _reply("invoice", "INV-1", "amount", "money", "$1,299.00"), resolver,
                tenant="acct_a", now=NOW)
    assert own.decision == "answer", own.reasons


@pytest.mark.parametrize("tenant", ["acct_a", "acct_b"])
def test_shared_rows_are_read_for_every_account(policy, resolver, tenant):
    decision = check(policy, _reply("incident", "inc_7", "uptime_30d", "decimal", "99.95%"),
                     resolver, tenant=tenant, now=NOW)
    assert decision.decision == "answer", decision.reasons
    assert decision.text == "99.95%."
    wrong = check(policy, _reply("incident", "inc_7", "uptime_30d", "decimal", "99.99%"),
                  resolver, tenant=tenant, now=NOW)
    assert wrong.decision != "answer"
    assert [c.outcome for c in wrong.claims] == ["contradicted"]


def test_a_shared_query_keeps_its_own_filter(policy, sql_resolver):
    resolver = sql_resolver
    public = check(policy, _reply("article", "kb-1", "title", "text", "Updating your card"),
                   resolver, tenant="acct_b", now=NOW)
    assert public.decision == "answer", public.reasons
    hidden = check(policy, _reply("article", "kb-2", "title", "text", "Internal runbook"),
                   resolver, tenant="acct_b", now=NOW)
    assert [c.outcome for c in hidden.claims] == ["not_found"]


def test_a_shared_lookup_still_needs_a_signed_in_account(policy, resolver):
    decision = check(policy, _reply("incident", "inc_7", "uptime_30d", "decimal", "99.95%"),
                     resolver, tenant=None, now=NOW)
    assert decision.decision != "answer"
    assert "lookup_failed" in {r.code for r in decision.reasons}


def test_a_shared_routed_source_runs_for_any_account(policy, sql_resolver):
    gathered = gather(policy, "is there an outage?", sql_resolver, tenant="acct_b", now=NOW)
    assert gathered.failed == ()
    (row,) = gathered.evidence["status_page"]
    assert row["id"] == "inc_7" and Decimal(str(row["uptime_30d"])) == Decimal("99.95")


def test_the_formatter_keeps_shared():
    text = RULES.read_text("utf-8")
    assert format_source(text, str(RULES)) == (text, ())
    assert format_source(text.replace(" shared\n", "\n"), str(RULES))[0] != text


def test_the_description_says_which_entities_are_shared(policy):
    from rulekit.demo import describe

    lines = describe(policy).splitlines()
    assert "  every lookup is scoped to the signed-in user's :account_id, except the shared " \
           "entities'" in lines
    assert "  entity incident (key id, shared by every user)" in lines
    assert "  entity invoice (key id)" in lines
