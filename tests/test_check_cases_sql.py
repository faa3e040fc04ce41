"""The claims corpus (tests/cases/claims) against the real PostgreSQL and MariaDB servers.

Every run of ``test_check_cases`` whose rows come from memory is made again against each
server, with the rows written into tables of native column types (``dbs.load_rows``): BIGINT,
NUMERIC, DATE, TIMESTAMPTZ / DATETIME, BOOLEAN, TEXT. The decision must be the one the rows in
memory gave (``test_check_cases.summary``), and meet the case's expectations. One schema (or
database) per distinct set of rows, created once per session and dropped at its end.

Off CI a missing server skips these with one line; with ``CI=true`` it fails them.
"""

from __future__ import annotations

import hashlib
import json

import dbs
import pytest
import test_check_cases as corpus

from rulekit.sources import MemoryResolver, MysqlResolver, PostgresResolver

SERVERS = ("postgres", "mysql")
RESOLVERS = {"postgres": PostgresResolver, "mysql": MysqlResolver}

RUNS = [param for param in corpus.RUNS
        if param.values[0].source == "memory" and not param.marks]


class Databases:
    """Scratch schemas by (backend, ruleset, rows), each with its resolver."""

    def __init__(self) -> None:
        self.made: dict[tuple, tuple[dbs.Scratch, object]] = {}

    def resolver(self, backend: str, run: corpus.Run):
        rows_key = hashlib.sha1(json.dumps([run.ruleset, run.rows], sort_keys=True,
                                           default=str).encode()).hexdigest()[:10]
        key = (backend, rows_key)
        if key not in self.made:
            scratch = dbs.Scratch(backend, suffix=f"_{rows_key}")
            try:
                dbs.load_rows(scratch, corpus.policy(run.ruleset), run.rows)
            except Exception:
                scratch.drop()
                raise
            scratch.disconnect()    # a server takes ~100 connections; hold none while idle
            self.made[key] = (scratch, RESOLVERS[backend](scratch.url, timeout=5.0))
        return self.made[key][1]

    def drop(self) -> None:
        for scratch, resolver in self.made.values():
            resolver.close()
            scratch.drop()


@pytest.fixture(scope="module")
def databases():
    made = Databases()
    yield made
    made.drop()


@pytest.mark.parametrize("backend", SERVERS)
@pytest.mark.parametrize("run", [p.values[0] for p in RUNS], ids=[p.id for p in RUNS])
def test_case_on_a_real_server(run, backend, databases):
    dbs.require(backend)
    resolver = databases.resolver(backend, run)
    where = f"{run.id} [{backend}]"
    expected = corpus.run_check(run, MemoryResolver(run.rows), run.reply)
    try:
        decision = corpus.run_check(run, resolver, run.reply)
    finally:
        resolver.close()
    corpus.check_invariants(run, decision, where)
    corpus.check_wants_met(run, decision, where)
    assert corpus.summary(decision) == corpus.summary(expected), (
        f"{where}: {backend} and memory disagree:\n {corpus.summary(decision)}\n"
        f" {corpus.summary(expected)}")
