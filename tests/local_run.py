"""The real-model experiment shared by ``tests/test_local_model.py`` (which judges what it
delivers with an oracle of its own) and ``benchmarks/bench_local.py`` (which reports rates and
times): the same questions, seeds, temperature and reply caps, so the test proves what the
benchmark measures.

Claims questions run against SQLite built from the example rows (the model is shown the rows
too); prose questions against the example's evidence (else its rows). Every loop is judged at
the example's own ``now``, so freshness is the same whenever the run happens: a question about
a stale row (BT-3) is in the mix, and its answer must not be the stale figure.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import rulekit
from rulekit.demo import write_sqlite
from rulekit.ground import Grounded, ground
from rulekit.sources.sqlite import SqliteResolver

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "rulesets" / "examples"

# (ruleset, channel, question), grouped by ruleset and channel: with the prompt cache on,
# consecutive questions on the same data only evaluate what differs (the question).
CASES = [
    ("shop", "claims", "How much is the navy raincoat?"),
    ("shop", "claims", "How much is the Bottle BT-3 500ml?"),
    ("shop", "prose", "How much is the navy raincoat, and how many are left?"),
    ("shop", "prose", "Tell me the price of the bottle."),
    ("shop", "prose", "Is the navy raincoat in stock?"),
    ("analytics", "prose", "Which post did best this month?"),
    ("analytics", "prose", "How many views did I get this month?"),
    ("analytics", "prose", "What was my engagement rate this month?"),
    ("analytics", "prose", "How many likes did my post about the 9 pm schedule get?"),
    ("orders", "claims", "When did my order ord_88431 ship?"),
    ("orders", "claims", "What was the total of order ord_88431?"),
    # orders.rules says `prose shapes`: its answers are built from claims, so it is grounded
    # in the claims channel only (``ground`` refuses free prose for it)
    ("orders", "claims", "When will order ord_88431 arrive, and what did it cost?"),
    ("orders", "claims", "How heavy is the parcel of order ord_88431?"),
]
REPLIES = 100
TEMPERATURE = 0.8
# Reply caps that keep the run within minutes on a 2-core machine: a claims reply with two
# claims is 100 to 150 tokens; a cut-off reply is malformed and judged so.
MAX_TOKENS = {"claims": 160, "prose": 48}


def example(name: str) -> dict:
    return json.loads((EXAMPLES / f"{name}.json").read_text("utf-8"))


def now_of(data: dict) -> dt.datetime | None:
    """The example's own "now" (None for one whose rows carry no age: the analytics posts)."""
    return dt.datetime.fromisoformat(data["now"].replace("Z", "+00:00")) if "now" in data else None


def prose_evidence(ruleset: str) -> Any:
    data = example(ruleset)
    return data["evidence"] if "evidence" in data else data["rows"]


def open_sources(folder: Path) -> dict[str, SqliteResolver]:
    """A SQLite database of the example rows for each claims ruleset, in ``folder``."""
    sources = {}
    for name in ("shop", "orders"):
        write_sqlite(folder / f"{name}.db", example(name)["rows"])
        sources[name] = SqliteResolver(folder / f"{name}.db")
    return sources


def run_one(model, case: tuple[str, str, str], seed: int, policies: dict,
            sources: dict) -> Grounded:
    """One question through the grounding loop, the model reseeded with ``seed``. The prompt
    cache is on: the run is the same sequence of requests every time, so it stays
    reproducible."""
    ruleset, channel, question = case
    data = example(ruleset)
    generate = model.reseeded(seed, temperature=TEMPERATURE, max_tokens=MAX_TOKENS[channel],
                              cache_prompt=True)
    if channel == "claims":
        return ground(generate, policies[ruleset], source=sources[ruleset],
                      evidence=data["rows"], question=question, now=now_of(data),
                      inputs=data.get("inputs", {}))
    return ground(generate, policies[ruleset], evidence=prose_evidence(ruleset),
                  question=question, now=now_of(data))


def run_all(model, folder: Path) -> list[tuple[tuple[str, str, str], int, Grounded]]:
    """Loops over ``CASES`` with seeds 0, 1, 2... until ``REPLIES`` replies were generated:
    (case, seed, grounded) per loop."""
    policies = {name: rulekit.load(ROOT / "rulesets" / f"{name}.rules")
                for name in ("shop", "orders", "analytics")}
    sources = open_sources(folder)
    runs, replies, seed = [], 0, 0
    try:
        while replies < REPLIES:
            case = CASES[seed % len(CASES)]
            grounded = run_one(model, case, seed, policies, sources)
            runs.append((case, seed, grounded))
            replies += sum(1 for a in grounded.attempts if a.reply is not None)
            seed += 1
    finally:
        for source in sources.values():
            source.close()
    return runs
