"""Binding against human annotations: 60 NBA game reports written by neural systems from box
scores, with every factual error marked by trained annotators (../shared/data/rotowire, the
train split of the INLG accuracy shared task; see its README).

Each report is audited with rulesets/nba.rules against its own box score. Reported:

- recall: the share of NUMBER-type error spans that some finding overlaps;
- precision: the share of findings that overlap any annotated error span (of any type);
- findings on sentences with no annotated error at all;
- the baseline: the recall of "is this value anywhere in the evidence?" (the sweep without
  binding, with the built-in defaults), which the wrong numbers mostly pass because they occur
  elsewhere in the box score.

Target (issue 8): NUMBER recall >= 0.80 at precision >= 0.80.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

from run import ROOT, Section

import rulekit
from rulekit.audit import audit

DATA = ROOT.parent / "shared" / "data" / "rotowire" / "train.jsonl"
RECALL_TARGET, PRECISION_TARGET = 0.80, 0.80


def _reports() -> list[dict]:
    return [json.loads(line) for line in DATA.read_text("utf-8").splitlines() if line.strip()]


def _overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def _sentences(text: str) -> list[tuple[int, int]]:
    cuts = [0] + [m.end() for m in re.finditer(r"[.!?]\s+(?=[A-Z])", text)] + [len(text)]
    return list(zip(cuts, cuts[1:]))


def score(reports: list[dict], policy) -> dict:
    """Counts for one policy (None: the built-in value-only sweep)."""
    numbers = hit = findings = true = clean_findings = 0
    misattributed = 0
    for report in reports:
        text, errors = report["text"], report["errors"]
        spans = [(e["start"], e["end"]) for e in errors]
        number_spans = [(e["start"], e["end"]) for e in errors if e["type"] == "NUMBER"]
        result = audit(text, report["evidence"], policy=policy)
        found = [(f.start, f.end) for f in result.findings]
        misattributed += sum(f.code == "misattributed" for f in result.findings)
        numbers += len(number_spans)
        hit += sum(any(_overlaps(s, f) for f in found) for s in number_spans)
        findings += len(found)
        true += sum(any(_overlaps(f, s) for s in spans) for f in found)
        clean = [s for s in _sentences(text) if not any(_overlaps(s, e) for e in spans)]
        clean_findings += sum(any(_overlaps(f, s) for s in clean) for f in found)
    return {"numbers": numbers, "hit": hit, "findings": findings, "true": true,
            "clean": clean_findings, "misattributed": misattributed,
            "recall": hit / numbers if numbers else 0.0,
            "precision": true / findings if findings else 0.0}


def run() -> Section:
    reports = _reports()
    policy = rulekit.load(ROOT / "rulesets" / "nba.rules")
    started = time.perf_counter()
    bound = score(reports, policy)
    seconds = time.perf_counter() - started
    baseline = score(reports, None)
    rows = [
        ("binding (rulesets/nba.rules)", f"{bound['recall']:.2f} ({bound['hit']}/{bound['numbers']})",
         f"{bound['precision']:.2f} ({bound['true']}/{bound['findings']})", bound["clean"],
         bound["misattributed"]),
        ("value anywhere (no rules)", f"{baseline['recall']:.2f} ({baseline['hit']}/{baseline['numbers']})",
         f"{baseline['precision']:.2f} ({baseline['true']}/{baseline['findings']})",
         baseline["clean"], baseline["misattributed"]),
    ]
    section = Section(
        title="Binding figures: RotoWire accuracy annotations (train, 60 reports)",
        command="python benchmarks/run.py rotowire",
        header=("checker", "NUMBER-error recall", "precision (any error type)",
                "findings on error-free sentences", "misattributed findings"),
        rows=rows,
        notes=[f"{len(reports)} reports audited in {seconds:.2f} s with binding "
               f"({seconds / len(reports) * 1000:.1f} ms a report)",
               "recall: annotated NUMBER spans overlapped by a finding; precision: findings "
               "overlapping any annotated span; error-free sentences split at . ! ? before a "
               "capital"])
    if bound["recall"] < RECALL_TARGET:
        section.failed_targets.append(f"NUMBER recall {bound['recall']:.2f} < {RECALL_TARGET}")
    if bound["precision"] < PRECISION_TARGET:
        section.failed_targets.append(f"precision {bound['precision']:.2f} < {PRECISION_TARGET}")
    return section
