"""Scanning answers for checkable mentions (rulekit.scan): adversarial texts from 1 KB to 1 MB,
whose time must grow linearly (targets: 1 MB under a second), mention-dense texts (the cost per
mention), and scans per second for a typical 300-character answer (aim: 20-50 µs)."""

from __future__ import annotations

import gc
import statistics
import time

from run import Section

from rulekit.scan import scan

ADVERSARIAL_TARGET_S = 1.0
ANSWER_TARGET_US = 50.0

ANSWER = ("Your best post this month was “Rainy day essentials” with 2,380 views and a 4.6% "
          "engagement rate. The five 9 p.m. posts averaged 2986 views, about twice the morning "
          "slot. The RC-500 raincoat is $1,299.00; 12 left. See /insights/posts/42 or ask "
          "@mindthread, or mail help@mindthread.example.com before 29 July 2026.")


def _fill(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


def adversarial(size: int) -> str:
    """The brief's attacks on a scanner's patterns, each given an equal share of ``size``: long
    digit runs, separators repeated, nested and unclosed quotes, '@' (about 100k of them in
    1 MB), long URLs. Each family grows with ``size``, so long runs get longer."""
    part = size // 8
    families = [
        "9" * part,                                                 # one long digit run
        _fill("1" + ",.'\u00a0" * 64 + "2 ", part),                 # separators repeated
        "1" + _fill(",234", part - 1),                              # one endless grouping
        _fill("“‘«「『‹„»", part),                                  # quotes nested, never closed
        _fill('"x ' + "“a ‘b " * 8, part),                          # straight quotes left open
        "@" * part,                                                 # '@' naming nothing
        "https://example.com/" + _fill("a/", part - 20),            # one long URL
        _fill("www.a-b.", part // 2) + _fill("/a.b", part - part // 2),  # hosts and paths
    ]
    return " ".join(families)[:size]


def dense(size: int) -> str:
    """The 300-character answer repeated: realistic mentions, about 40 per KB."""
    return _fill(ANSWER + " ", size)


def _seconds(text: str, repeat: int) -> tuple[float, int]:
    found = scan(text)
    samples = []
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        scan(text)
        samples.append(time.perf_counter() - start)
    return min(samples), len(found)


def run() -> Section:
    rows, missed = [], []
    for label, make, sizes in (("adversarial", adversarial, (1_000, 10_000, 100_000, 1_000_000)),
                               ("answers repeated", dense, (10_000, 100_000, 1_000_000))):
        for size in sizes:
            repeat = 20 if size <= 10_000 else 5 if size <= 100_000 else 2
            seconds, mentions = _seconds(make(size), repeat)
            per_mention = f"{seconds / mentions * 1e6:.1f}" if mentions else "-"
            rows.append((label, f"{size // 1000} KB", f"{seconds * 1000:.1f}",
                         f"{seconds / size * 1e9:.0f}", mentions, per_mention))
            if label == "adversarial" and size == 1_000_000 and seconds > ADVERSARIAL_TARGET_S:
                missed.append(f"adversarial 1 MB: {seconds:.2f} s > {ADVERSARIAL_TARGET_S:g} s")
    scan(ANSWER)
    samples, cpu_samples = [], []
    for _ in range(7):
        start, cpu_start = time.perf_counter(), time.process_time()
        for _ in range(500):
            scan(ANSWER)
        samples.append((time.perf_counter() - start) / 500)
        cpu_samples.append((time.process_time() - cpu_start) / 500)
    per_scan = statistics.median(samples)
    # CPU time as well: on a shared machine, wall time also counts the other processes' turns.
    cpu_per_scan = min(cpu_samples)
    rows.append((f"one answer ({len(ANSWER)} characters)", "-", f"{per_scan * 1000:.3f}",
                 f"{per_scan / len(ANSWER) * 1e9:.0f}", len(scan(ANSWER)),
                 f"{per_scan / len(scan(ANSWER)) * 1e6:.1f}"))
    if per_scan * 1e6 > ANSWER_TARGET_US:
        missed.append(f"one answer: {per_scan * 1e6:.0f} µs > {ANSWER_TARGET_US:g} µs "
                      f"({1 / per_scan:,.0f} scans/s)")
    return Section(
        title="Scanning answers for mentions",
        command="make bench (benchmarks/bench_scan.py)",
        header=("text", "size", "ms (best)", "µs per KB", "mentions", "µs per mention"),
        rows=rows,
        notes=[f"one {len(ANSWER)}-character answer: {1 / per_scan:,.0f} scans per second "
               f"(CPU time {cpu_per_scan * 1e6:.0f} µs per scan, best of 7)",
               "adversarial: the brief's families (long digit runs, separators repeated, nested "
               "and unclosed quotes, about 100k '@' per MB, long URLs); a constant µs per KB "
               "is linear time",
               "answers repeated: the cost is per mention (reading the figure and building "
               "its Mention; the words around it are read only when a rule asks for them), so "
               "a text made of mentions costs that much per mention whatever its length; bound "
               "the length of an answer before scanning it",
               f"targets: adversarial 1 MB under {ADVERSARIAL_TARGET_S:g} s; one answer under "
               f"{ANSWER_TARGET_US:g} µs"],
        failed_targets=missed)


if __name__ == "__main__":
    print(run().markdown())
