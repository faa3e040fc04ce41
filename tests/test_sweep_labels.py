"""rulekit.sweep_labels (rule 13): where a label said is a claim. The behaviour cases are in
tests/cases/sweep/labels.yaml; here, that the reading of each label's clause stays bounded on
a long answer full of labels with no sentence's end."""

from __future__ import annotations

from pathlib import Path

import pytest

import rulekit
from rulekit.audit import audit

RATES = Path(__file__).parent / "cases" / "sweep" / "rates.rules"
EVIDENCE = {"invoice": [{"id": "INV-1", "status": "open"}]}


@pytest.mark.parametrize("unit,flagged", [("INV-1 is paid ", True), ("paid ", False),
                                          ("if it is paid ", False)])
def test_labels_in_a_long_answer_without_a_sentence_end(unit: str, flagged: bool) -> None:
    text = unit * (100_000 // len(unit))
    findings = audit(text, EVIDENCE, policy=rulekit.load(RATES)).findings
    assert bool(findings) is flagged
