"""Run every benchmark and write the results into docs/performance.md.

    make bench                      # all benchmarks
    python benchmarks/run.py load   # only the ones named

Each benchmark module exposes ``run() -> Section``; a Section is a titled table plus the targets
it checks. Targets are reported, never asserted in the test suite: timings on shared machines
are for humans to read, not for CI to flake on.
"""

from __future__ import annotations

import dataclasses
import datetime
import importlib
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

BENCHMARKS = ("bench_load", "bench_check", "bench_sources", "bench_scan", "bench_audit", "bench_rotowire", "bench_local")


@dataclasses.dataclass
class Section:
    title: str
    command: str
    header: tuple[str, ...]
    rows: list[tuple]
    notes: list[str] = dataclasses.field(default_factory=list)
    failed_targets: list[str] = dataclasses.field(default_factory=list)

    def markdown(self) -> str:
        lines = [f"## {self.title}", "", f"Measured with `{self.command}`.", "",
                 "| " + " | ".join(self.header) + " |",
                 "| " + " | ".join("---" for _ in self.header) + " |"]
        lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in self.rows]
        if self.notes:
            lines += [""] + [f"- {n}" for n in self.notes]
        if self.failed_targets:
            lines += [""] + [f"- **target missed**: {t}" for t in self.failed_targets]
        return "\n".join(lines)


def best_rate(action, windows: int = 7, seconds: float = 0.4) -> tuple[float, float]:
    """Calls per second of wall-clock time in the fastest of ``windows`` windows of about
    ``seconds`` each, and the CPU microseconds a call took in that window. The machines this
    runs on drift (another tenant, a slower clock): the same loop measured twice as slow a few
    minutes apart, so one long average says more about the neighbours than about the code.
    The fastest window is the code's own cost, as ``timeit`` reports the best of its repeats."""
    best = (0.0, 0.0)
    for _ in range(windows):
        count, start, cpu = 0, time.perf_counter(), time.process_time()
        while time.perf_counter() - start < seconds:
            for _ in range(20):
                action()
            count += 20
        rate = count / (time.perf_counter() - start)
        if rate > best[0]:
            best = (rate, (time.process_time() - cpu) / count * 1e6)
    return best


def machine() -> str:
    return (f"{platform.python_implementation()} {platform.python_version()} on "
            f"{platform.machine()} ({_cpu_model()}), {os.cpu_count()} cores, "
            f"{datetime.date.today().isoformat()}; reference loop {_reference_loop_us():.1f} µs")


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def _reference_loop_us() -> float:
    """The best of 20 timings of one fixed piece of pure Python (sum(range(1000))): the same
    code measures a different number on a slower core, so this says how fast this machine is.
    The tables here were measured on a core where it took this long; compare runs by it."""
    best = float("inf")
    for _ in range(20):
        start = time.perf_counter()
        for _ in range(200):
            sum(range(1000))
        best = min(best, (time.perf_counter() - start) / 200)
    return best * 1e6


# The line after which docs/performance.md holds measurements taken by hand (instruction
# counts under valgrind, experiments): a run of the bench rewrites the page above it only.
BY_HAND = "<!-- measured by hand: make bench keeps what follows -->"


def _by_hand(page: Path) -> str:
    """The hand-written part of ``page``, from ``BY_HAND`` on ("" when it has none)."""
    text = page.read_text(encoding="utf-8") if page.exists() else ""
    at = text.find(BY_HAND)
    return "\n" + text[at:] if at >= 0 else ""


def main(names: list[str]) -> int:
    chosen = names or list(BENCHMARKS)
    sections = []
    for name in chosen:
        module = importlib.import_module(name if name.startswith("bench_") else f"bench_{name}")
        section = module.run()
        print(section.markdown(), end="\n\n")
        sections.append(section)
    if not names:
        body = "\n\n".join(s.markdown() for s in sections)
        page = ROOT / "docs" / "performance.md"
        page.write_text(
            "# Performance\n\nWritten by `make bench` (benchmarks/run.py); do not edit by hand "
            f"above `{BY_HAND}`. Targets are checked here, not in the test suite.\n\n"
            f"Machine: {machine()}.\n\n{body}\n{_by_hand(page)}", encoding="utf-8")
        print(f"wrote {page.relative_to(ROOT)}")
    missed = [t for s in sections for t in s.failed_targets]
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
