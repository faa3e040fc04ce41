"""``now`` must say which instant it is: a naive datetime is refused, as naive text is. Read
as UTC, ``datetime.now()`` on a server west of UTC would be hours early, and every row would
look younger than it is: a stale figure could pass as fresh."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

import rulekit
from rulekit.audit import audit
from rulekit.check import check

RULES = Path(__file__).parent / "cases" / "sources" / "store.rules"
REPLY = {"answer_template": "{c}.", "claims": [{"key": "c", "type": "money", "entity": "order",
                                                "entity_id": "1042", "field": "total",
                                                "value": "$1,299.00"}]}


@pytest.mark.parametrize("now", [dt.datetime(2026, 12, 5), "2026-12-05T00:00:00"])
def test_check_refuses_a_now_without_its_zone(now):
    decision = check(rulekit.load(RULES), REPLY, {"order": []}, now=now, tenant="alice")
    assert decision.decision == "refuse" and decision.text is None
    assert [r.code for r in decision.reasons] == ["input_error"]
    assert "now" in decision.reasons[0].message
    assert "timezone" in decision.reasons[0].message or "offset" in decision.reasons[0].message


def test_audit_refuses_a_naive_now():
    result = audit("It had 4 views.", {"views": 4}, now=dt.datetime(2026, 12, 5))
    assert result.decision.decision == "refuse"
    assert [f.code for f in result.findings] == ["input_error"]
    assert "now" in result.findings[0].message and "naive" in result.findings[0].message


def test_an_aware_now_is_taken():
    result = audit("It had 4 views.", {"views": 4},
                   now=dt.datetime(2026, 12, 5, tzinfo=dt.timezone(dt.timedelta(hours=-8))))
    assert result.decision.decision == "answer"
