"""Auditing free text: audits per second for the issue's two sizes (targets: 20,000 a second
for 300 characters against 1 KB of JSON evidence, 3,000 a second for 1,500 characters against
9 KB), time growing linearly from 1 KB to 1 MB of adversarial text (under a second) and from
10 KB to 100 KB of the audit's own adversarial families (``_AUDIT_FAMILIES``), the peak
memory of a 1 MB audit, and no growth over 100,000 audits."""

from __future__ import annotations

import gc
import json
import random
import subprocess
import sys
import time
import tracemalloc

from pathlib import Path

from bench_scan import adversarial
from run import Section, best_rate

from rulekit.audit import audit
from rulekit.compile import compile_source
from rulekit.scan import scan
from rulekit.sweep import SweepSettings

SMALL_TARGET, LARGE_TARGET = 20_000, 3_000
PEAK_TARGET_MB = 200

# Run in a fresh process, so that the high-water mark is this audit's and nothing else's: the
# resident size after importing rulekit and building the text, then the peak during the audit.
_PEAK_SCRIPT = """
import sys
sys.path.insert(0, sys.argv[1])
from bench_audit import _mention_dense, _evidence
from rulekit.audit import audit
from rulekit.sweep import SweepSettings

def high_water_kb():
    # VmHWM belongs to this process's own address space; ru_maxrss would carry over the
    # parent's high-water mark across fork and exec.
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))

index = SweepSettings().index(_evidence(5), "en_US")
audit("warm-up: 1,299 views.", index)
text = _mention_dense(1_000_000)
before = high_water_kb()
result = audit(text, index)
print(before, high_water_kb(), len(result.findings))
"""


def _peak_of_a_1mb_audit() -> tuple[float, float, int]:
    """(resident MB before the audit, MB the audit added at its peak, findings)."""
    out = subprocess.run([sys.executable, "-c", _PEAK_SCRIPT, str(Path(__file__).parent)],
                         capture_output=True, text=True, check=True).stdout.split()
    before, after, findings = (int(v) for v in out)
    return before / 1024, (after - before) / 1024, findings


def _evidence(posts: int) -> dict:
    rng = random.Random(posts)
    return {"month": "2026-11", "total_views": 12034, "engagement_rate": 0.046,
            "posts": [{"id": f"p{i}", "url": f"https://threads.example/@mindthread/post/{80 + i}",
                       "views": rng.randint(900, 9000), "likes": rng.randint(10, 400),
                       "published_at": f"2026-11-{1 + i % 28:02d}T21:00:00+08:00",
                       "author_handle": "mindthread", "title": f"Post number {i} about planning"}
                      for i in range(posts)]}


def _answer(evidence: dict, length: int) -> str:
    posts = evidence["posts"]
    parts, i = [], 0
    while sum(map(len, parts)) < length:
        post = posts[i % len(posts)]
        parts.append(f"Post {post['id']} had {post['views']:,} views and {post['likes']} likes "
                     f"({post['url']}). ")
        i += 1
    return "".join(parts)[:length].rsplit(" ", 1)[0] + "."


def _typical_answer(evidence: dict) -> str:
    """About 300 characters of prose with five figures and a link, the density of a typical
    chat answer (the target rows use answers with a figure every 20 characters)."""
    post = evidence["posts"][3]
    return (f"Your best post this month had {post['views']:,} views and {post['likes']} likes, "
            f"well above the others. Overall your posts drew {evidence['total_views']:,} views, "
            f"and engagement held at 4.6% for the month. The post is at {post['url']} if you "
            "would like to share it again with your followers next week.")


def _rate(action) -> float:
    return best_rate(action)[0]


def _mention_dense(size: int) -> str:
    pieces = ["1,2,3,4,5,6,7,8,9,0 ", "9" * 50 + " ", '"""nested "quotes" ', "@@@@@@ ",
              "https://a.example/" + "x" * 40 + " ", "1.2.3.4.5 ", "**1**,**2** ", "一千二百 ",
              "twenty-one thousand ", "12k 1.2M 3x ", "\u200b1\u200b2 "]
    out, i = [], 0
    while sum(map(len, out)) < size:
        out.append(pieces[i % len(pieces)])
        i += 1
    return "".join(out)[:size]


# The audit's own adversarial families: one sentence repeated, each once quadratic in a reader
# of the sweep (a fuzz probe's finds): (name, sentence, evidence, rules, locale, now).
_EXEMPT_RULES = """ruleset exempt {
  version "1"
  locale en_US
  currency USD
  timezone "UTC"
}

sweep {
  exempt "24/7"
}
on otherwise handoff
"""
_AUDIT_FAMILIES = (
    ("frequencies (_outside)", "Take 1 tablet twice daily. ",
     {"rx": {"drug_name": "Lorazepam", "sig": "Take 1 tablet by mouth twice daily"}},
     None, "en_US", None),
    ("CJK magnitudes (_outside)", "数百人浏览了5次。", {"views": 5}, None, "zh_CN", None),
    ("exempt strings (_outside)", "We answer 24/7 within 4 hours. ",
     {"support": {"phone_hours": "24/7", "sla_hours": 4}},
     _EXEMPT_RULES, "en_US", None),
    ("relative days (_relative_days)", "It ships tomorrow. ",
     {"today": "2026-12-02", "order": {"id": "o1", "estimated_delivery": "2026-12-09"}},
     None, "en_US", "2026-12-02T15:00:00Z"),
    ("boolean fields (said_flags)", "Return shipping is free of charge. ",
     {"return_policy": {"return_days": 30, "free_returns": False},
      "shipping": {"free_shipping": False, "free_shipping_threshold": 50}},
     None, "en_US", None),
    ("free after '!' (said_free)", "Great news! Shipping is free! ",
     {"product": {"name": "Arabica Whole Bean 500g", "price": 17.50, "shipping_fee": 4.99,
                  "currency": "USD"}}, None, "en_US", None),
    ("phone numbers (_whole_values)", "Call the store on 030 1234 5678. ",
     {"store": [{"id": "s1", "phone": "030 1234 5678"}]}, None, "en_US", None),
    ("durations of hours and minutes (compound_durations)", "The outbound flight takes 11h 10m. ",
     {"flights": [{"flight_number": "BA283", "duration": "11h 10m"}]}, None, "en_US", None),
    ("a relative day with a clock time (_clock_of_day)", "EK2 leaves at 23:30 tonight. ",
     {"today": "2026-12-09", "flights": [{"flight_number": "EK2",
                                           "departs_at": "2026-12-09T23:30:00+00:00"}]},
     None, "en_US", "2026-12-09T12:00:00Z"),
)


def _family_growth() -> tuple[list[str], list[str]]:
    """Each of ``_AUDIT_FAMILIES`` audited at 10 KB and 100 KB: its note and, where the time
    grew more than 25-fold (linear is about 10, quadratic 100), a missed target."""
    out, missed = [], []
    for name, sentence, evidence, rules, locale, now in _AUDIT_FAMILIES:
        policy = compile_source(rules).policy if rules else None
        times = []
        for size in (10_000, 100_000):
            text = sentence * (size // len(sentence))
            samples = []
            for _ in range(3 if size == 10_000 else 1):
                start = time.perf_counter()
                audit(text, evidence, policy=policy, locale=locale, now=now)
                samples.append(time.perf_counter() - start)
            times.append(min(samples))
        growth = times[1] / max(times[0], 1e-9)
        out.append(f"{name} {times[0] * 1000:.0f} ms, {times[1] * 1000:.0f} ms (x{growth:.0f})")
        if growth > 25:
            missed.append(f"{name}: 10 KB to 100 KB grew the audit's time {growth:.0f}-fold")
    return out, missed


def _growth_over_100k_audits(settings: SweepSettings) -> tuple[float, float]:
    """(KB traced memory grew from the 20,000th audit to the 100,000th, traced peak MB)."""
    evidence = _evidence(5)
    index = settings.index(evidence, "en_US")
    rng = random.Random(5)
    answer = _answer(evidence, 300)
    answers = [answer.replace("had ", f"had {rng.randint(2, 99)} new followers and ", 1)
               + f" It was shared {rng.randint(1, 9_999):,} times." for _ in range(1000)]
    gc.collect()
    tracemalloc.start()
    for i in range(20_000):
        audit(answers[i % 1000], index)
    gc.collect()
    after_20k, _ = tracemalloc.get_traced_memory()
    for i in range(80_000):
        audit(answers[i % 1000], index)
    gc.collect()
    after_100k, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return (after_100k - after_20k) / 1000, peak / 1e6


def run() -> Section:
    rows, notes, missed, shares = [], [], [], []
    settings = SweepSettings()
    for chars, posts, target in ((300, 5, SMALL_TARGET), (1500, 45, LARGE_TARGET)):
        evidence = _evidence(posts)
        size = len(json.dumps(evidence))
        text = _answer(evidence, chars)
        assert audit(text, evidence).decision.decision == "answer"
        raw_rate = _rate(lambda: audit(text, evidence))
        index = settings.index(evidence, "en_US")
        built_rate = _rate(lambda: audit(text, index))
        rows.append((f"{len(text)} chars, {size / 1000:.1f} KB JSON evidence",
                     f"{raw_rate:,.0f}", f"{built_rate:,.0f}", f"{target:,}"))
        # Where an audit's time goes: reading the figures, then judging them and deciding.
        mentions = len(scan(text, "en_US"))
        audit_us, scan_us = 1e6 / built_rate, 1e6 / _rate(lambda: scan(text, "en_US"))
        shares.append(f"{len(text)} chars ({mentions} mentions): {audit_us:.0f} µs an audit, of "
                      f"which scanning {scan_us:.0f} µs ({scan_us / mentions:.1f} µs a mention) "
                      f"and judging and deciding {audit_us - scan_us:.0f} µs")
        if built_rate < target:
            missed.append(f"{len(text)}-character audits: {built_rate:,.0f}/s < {target:,}/s")
    notes.append("one core, evidence built once, the fastest of 7 windows of 0.4 s (the "
                 "machine's speed drifts; see the reference loop above); " + "; ".join(shares)
                 + ". The answers are "
                 "dense (a figure every 20 characters: views, likes, a post id and its link per "
                 "sentence), and the cost is per mention")
    evidence = _evidence(5)
    index = settings.index(evidence, "en_US")
    text = _typical_answer(evidence)
    assert audit(text, index).decision.decision == "answer"
    notes.append(f"for comparison, no target: a {len(text)}-character answer with "
                 f"{len(scan(text, 'en_US'))} mentions (the density of a typical chat answer) "
                 f"audits at {_rate(lambda: audit(text, index)):,.0f}/s with the same 1.1 KB "
                 "evidence built once")
    growth, dense_growth = [], []
    evidence = _evidence(5)
    index = settings.index(evidence, "en_US")
    for size in (1_000, 10_000, 100_000, 1_000_000):
        for make, out in ((adversarial, growth), (_mention_dense, dense_growth)):
            text = make(size)
            start = time.perf_counter()
            result = audit(text, index)
            elapsed = time.perf_counter() - start
            out.append(f"{size // 1000} KB: {elapsed * 1000:.0f} ms ({elapsed * 1e6 / (size / 1000):.0f} "
                       f"µs/KB, {len(result.findings):,} findings)")
            if make is adversarial and size == 1_000_000 and elapsed > 1.0:
                missed.append(f"1 MB adversarial text took {elapsed:.2f} s > 1 s")
    notes.append("adversarial text, the brief's families (one long digit run, separators "
                 "repeated, an endless grouping, nested and unclosed quotes, 100k '@', long URLs; "
                 "benchmarks/bench_scan.py), target under 1 s for 1 MB: " + "; ".join(growth))
    notes.append("mention-dense text (every piece a figure: digit lists, markdown inside numbers, "
                 "CJK numerals, number words, 12k 1.2M 3x, zero-width characters; about 116k "
                 "mentions per MB), no target: " + "; ".join(dense_growth) + ". Its cost is per "
                 "mention, a few µs each, so bound the length of an answer a model may write")
    families, family_missed = _family_growth()
    missed += family_missed
    notes.append("the audit's adversarial families (one sentence repeated; each was quadratic in "
                 "a reader of the sweep), 10 KB then 100 KB, target under 25-fold: "
                 + "; ".join(families))
    indexed = []
    for name, make in (("the adversarial text", adversarial), ("one run of 1,000,000 letters",
                                                               lambda n: "x" * n)):
        text = make(1_000_000)
        start = time.perf_counter()
        settings.index({"notes": text}, "en_US")
        indexed.append(f"{name} {time.perf_counter() - start:.2f} s")
    notes.append("indexing 1 MB of evidence text in one field (no target; the evidence is read "
                 "once per question): " + "; ".join(indexed) + ". A run of letters once took "
                 "minutes (a pattern retried at each letter), now linear")
    before_mb, added_mb, findings = _peak_of_a_1mb_audit()
    notes.append(f"memory: auditing the 1 MB mention-dense text ({findings:,} findings) raised the "
                 f"process's peak resident size by {added_mb:.0f} MB (from {before_mb:.0f} MB "
                 f"after imports; target: the audit peaks under {PEAK_TARGET_MB} MB)")
    if added_mb > PEAK_TARGET_MB:
        missed.append(f"auditing 1 MB peaked at +{added_mb:.0f} MB > {PEAK_TARGET_MB} MB")
    growth_kb, peak_mb = _growth_over_100k_audits(settings)
    notes.append(f"memory over 100,000 audits of 1,000 distinct answers (each with figures the "
                 f"evidence lacks, so findings and a decision to regenerate): {growth_kb:+.0f} KB "
                 f"between the 20,000th and the 100,000th (traced peak {peak_mb:.1f} MB; target: "
                 "no growth)")
    if growth_kb > 100:
        missed.append(f"memory grew {growth_kb:.0f} KB between 20,000 and 100,000 audits")
    notes.append("'evidence built once' is the loop's case: the grounding loop indexes the "
                 "evidence once per question and audits every attempt and streamed chunk against it")
    return Section(
        title="Auditing free text (the sweep)",
        command="make bench (benchmarks/bench_audit.py)",
        header=("answer and evidence", "audits/s, raw evidence", "audits/s, evidence built once",
                "target"),
        rows=rows, notes=notes, failed_targets=missed)
