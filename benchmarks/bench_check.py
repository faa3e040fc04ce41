"""Checking a 5-claim reply against SQLite: checks per second on one core (target: at least
5,000), queries per check (target: one per entity), and memory over 100,000 checks (target:
no growth)."""

from __future__ import annotations

import datetime as dt
import gc
import json
import tempfile
import tracemalloc
from pathlib import Path

from run import ROOT, Section, best_rate

import rulekit
from rulekit.check import check
from rulekit.demo import write_sqlite
from rulekit.sources.sqlite import SqliteResolver

CHECKS_TARGET = 5000
NOW = dt.datetime(2026, 11, 30, 12, 5, tzinfo=dt.timezone.utc)
INPUTS = {"postcode": "10115"}


def _reply() -> str:
    order = "ord_88431"
    claims = [
        ("order_id", "identifier", "id", order),
        ("ship_date", "date", "shipped_at", "2026-07-30"),
        ("eta", "date", "estimated_delivery", "5 August 2026"),
        ("items", "integer", "line_count", 3),
        ("total", "money", "total_minor", "1.299,00 €"),
    ]
    return json.dumps({
        "answer_template": ("Your order {order_id} shipped on {ship_date} and is expected to arrive "
                            "on {eta}. It contains {items} items. The order total was {total}."),
        "claims": [{"key": k, "type": t, "entity": "order", "entity_id": order, "field": f,
                    "value": v} for k, t, f, v in claims]})


def _rate(action) -> tuple[float, float]:
    """Checks per second of wall-clock time, and CPU microseconds per check, in the fastest of
    seven windows (``run.best_rate``). The CPU time (``time.process_time``) is what one check
    costs on one core; on a machine shared with other work the wall-clock rate can be lower,
    and it is the one the target is for."""
    return best_rate(action)


def run() -> Section:
    policy = rulekit.load(ROOT / "rulesets" / "orders.rules")
    rows = json.loads((ROOT / "rulesets" / "examples" / "orders.json").read_text())["rows"]
    reply = _reply()
    queries: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "orders.db"
        write_sqlite(database, rows)
        counted = SqliteResolver(database, on_query=lambda sql, params: queries.append(sql))
        decision = check(policy, reply, counted, now=NOW, inputs=INPUTS)
        assert decision.decision == "answer", decision.to_dict()
        per_check = len(queries)

        source = SqliteResolver(database)
        one = lambda: check(policy, reply, source, now=NOW, inputs=INPUTS)  # noqa: E731
        for _ in range(500):
            one()
        rate, cpu_us = _rate(one)

        gc.collect()
        tracemalloc.start()
        for _ in range(20_000):
            one()
        gc.collect()
        after_20k, _ = tracemalloc.get_traced_memory()
        for _ in range(80_000):
            one()
        gc.collect()
        after_100k, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    growth_kb = (after_100k - after_20k) / 1000
    missed = []
    if rate < CHECKS_TARGET:
        missed.append(f"{rate:,.0f} checks/s < {CHECKS_TARGET:,}")
    if per_check != 1:
        missed.append(f"{per_check} queries for a one-entity reply")
    if growth_kb > 100:
        missed.append(f"memory grew {growth_kb:.0f} KB between 20,000 and 100,000 checks")
    return Section(
        title="Checking claims against SQLite",
        command="make bench (benchmarks/bench_check.py)",
        header=("reply", "checks per second (one core)", "CPU µs per check", "queries per check",
                "memory growth, checks 20k -> 100k", "traced peak"),
        rows=[("5 claims on one order, answered", f"{rate:,.0f}", f"{cpu_us:.0f}", per_check,
               f"{growth_kb:+.0f} KB", f"{peak / 1_000_000:.1f} MB")],
        notes=["checks per second in the fastest of 7 windows of 0.4 s: the machine's speed "
               "drifts (see the reference loop above)",
               f"targets: at least {CHECKS_TARGET:,} checks a second, one query per entity, no "
               "growth over 100,000 checks; the reply mixes notations (an ISO day, a spelled-out "
               "date, a de_DE amount) so parsing is measured too",
               "what the checker derives from a ruleset (its readable fields, a lookup request "
               "per set of fields, caches of comparisons and renderings) is worked out on the "
               "ruleset's first check and held by the `Policy` object itself, so a process that "
               "serves many rulesets (fifty, one per tenant) checks each as fast as one: keep "
               "each loaded `Policy` and reuse it, rather than loading the ruleset again per "
               "request"],
        failed_targets=missed)
