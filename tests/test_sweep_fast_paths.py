"""The sweep's linear lookups must answer exactly as testing every span did: ``_overlapping``
(``sweep_flags``, used by rule 14's and rule 15's covered spans and by the longer names of
``said_flags``) as a scan of the spans, and ``sweep._outside`` (frequencies, CJK magnitudes,
exempt strings) as a scan of the spans for each mention. Each reference below is the quadratic
version the sweep used before, kept here as the specification. No timing is asserted: the
properties check the algorithm (benchmarks/bench_audit.py times the audit's adversarial
families)."""

from __future__ import annotations

from typing import NamedTuple

from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit.sweep import _outside
from rulekit.sweep_flags import _by_start, _overlapping

OFFSETS = st.integers(0, 40)
SPANS = st.lists(st.tuples(OFFSETS, OFFSETS).map(sorted).map(tuple), max_size=30)


class _Mention(NamedTuple):     # what ``_outside`` reads of a mention
    start: int
    end: int


@settings(max_examples=400, deadline=None)
@given(spans=SPANS, probes=SPANS)
def test_overlapping_answers_as_a_scan_of_every_span(spans, probes):
    index = _by_start(spans)
    for start, end in probes:
        assert _overlapping(index, start, end) == any(s < end and start < e for s, e in spans)
        # [start, end] against spans with both ends in, as ``said_flags`` asks it
        assert _overlapping(index, start - 1, end + 1) == any(
            s <= end and start <= e for s, e in spans)


@settings(max_examples=400, deadline=None)
@given(spans=SPANS, probes=SPANS)
def test_outside_answers_as_a_scan_of_every_span(spans, probes):
    mentions = [_Mention(start, end) for start, end in sorted(probes, key=lambda p: p[1])]
    assert _outside(spans, mentions) == [
        m for m in mentions if not any(a <= m.start and m.end <= b for a, b in spans)]
