"""Compiling the shipped rulesets, and loading their artifacts (target: under 20 ms each, and
under 10 MB of memory for a loaded policy)."""

from __future__ import annotations

import gc
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from run import ROOT, Section

import rulekit
from rulekit.compile import compile_file

LOAD_TARGET_MS = 20.0
MEMORY_TARGET_MB = 10.0


def _median_ms(action, repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def _retained_mb(action) -> float:
    gc.collect()
    tracemalloc.start()
    kept = action()
    current, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del kept
    return current / 1_000_000


def _cold_load_ms(artifact: Path) -> float:
    """A fresh interpreter: import rulekit and load one artifact, minus bare interpreter start."""
    code = ("import time; t = time.perf_counter(); import rulekit; "
            f"rulekit.load_compiled({str(artifact)!r}); print((time.perf_counter() - t) * 1000)")
    runs = [float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                 check=True).stdout) for _ in range(5)]
    return statistics.median(runs)


def run() -> Section:
    rows, missed = [], []
    with tempfile.TemporaryDirectory() as out:
        for path in sorted((ROOT / "rulesets").glob("*.rules")):
            policy = rulekit.load(path)
            artifact = Path(out) / f"{policy.name}.policy.json"
            artifact.write_text(policy.to_json(), encoding="utf-8")
            compile_ms = _median_ms(lambda: compile_file(path), 20)
            load_ms = _median_ms(lambda: rulekit.load_compiled(artifact), 50)
            memory_mb = _retained_mb(lambda: rulekit.load_compiled(artifact))
            cold_ms = _cold_load_ms(artifact)
            rows.append((path.name, f"{artifact.stat().st_size / 1000:.1f} KB",
                         f"{compile_ms:.1f}", f"{load_ms:.2f}", f"{cold_ms:.0f}",
                         f"{memory_mb:.2f}"))
            if load_ms > LOAD_TARGET_MS:
                missed.append(f"{path.name}: load {load_ms:.1f} ms > {LOAD_TARGET_MS} ms")
            if memory_mb > MEMORY_TARGET_MB:
                missed.append(f"{path.name}: policy {memory_mb:.1f} MB > {MEMORY_TARGET_MB} MB")
    return Section(
        title="Compiling and loading rulesets",
        command="make bench (benchmarks/bench_load.py)",
        header=("ruleset", "artifact", "compile ms (median)", "load ms (median, warm)",
                "import + load ms (fresh process)", "loaded policy MB"),
        rows=rows,
        notes=[f"target: loading an artifact under {LOAD_TARGET_MS:g} ms (warm process) and a "
               f"loaded policy under {MEMORY_TARGET_MB:g} MB; the fresh-process column includes "
               "importing rulekit and pydantic, and never imports lark"],
        failed_targets=missed)
