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


SHOP = rulekit.load(Path(__file__).parent.parent / "rulesets" / "shop.rules")
# Updated at 04:20 UTC: at 12:30 UTC it is 8h10m old, stale under shop.rules' 15-minute budget.
# A server at UTC-8 reads 04:30 on its wall clock (``datetime.now()``), which read as UTC makes
# the row ten minutes old: fresh.
STALE = {"products": [{"sku": "RC-500", "name": "Navy raincoat", "price": 129900, "stock": 3,
                       "updated_at": "2026-11-30T04:20:00Z"}]}
SAID = "The Navy raincoat costs $1,299.00."
NAIVE_LOCAL = dt.datetime(2026, 11, 30, 4, 30)


def _ground(now):
    return rulekit.ground(lambda request: SAID, SHOP, evidence=STALE,
                          question="How much is the navy raincoat?", now=now)


@pytest.mark.parametrize("now, named", [(NAIVE_LOCAL, "naive"),
                                        ("2026-11-30T04:30:00", "no offset"),
                                        ("yesterday", "not an ISO 8601 time"),
                                        (1764505800, "must be a datetime")])
def test_ground_refuses_a_now_that_names_no_instant_as_audit_does(now, named):
    grounded = _ground(now)
    assert not grounded.decision.delivered and grounded.decision.text is None
    assert [r.code for r in grounded.decision.reasons] == ["input_error"]
    assert named in grounded.decision.reasons[0].message
    assert grounded.attempts == ()      # the model is not asked for a reply no one can judge


@pytest.mark.parametrize("now", ["2026-11-30T12:30:00Z", "2026-11-30T13:30:00+01:00",
                                 dt.datetime(2026, 11, 30, 12, 30, tzinfo=dt.timezone.utc)])
def test_ground_takes_an_aware_now_or_iso_text_with_its_offset(now):
    """The pass twin: the real instant, in either form, finds the row stale."""
    grounded = _ground(now)
    assert [r.code for r in grounded.decision.reasons] == ["stale"]


def test_ground_takes_iso_text_in_the_prose_channel_without_a_ruleset_too():
    grounded = rulekit.ground(lambda request: "Your post had 4,120 views.", None,
                              evidence={"posts": [{"id": "p1", "views": 4120}]},
                              question="How did my post do?", now="2026-11-30T12:05:00Z")
    assert grounded.decision.decision == "answer"


def test_the_stream_gate_refuses_a_naive_now_before_releasing_anything():
    from rulekit.stream import StreamGate

    gate = StreamGate(SHOP, STALE, now=NAIVE_LOCAL)
    assert gate.stopped and gate.feed(SAID) == "" and gate.released == ""
    assert [f.code for f in gate.findings] == ["input_error"]
    assert "naive" in gate.findings[0].message


@pytest.mark.parametrize("now", ["2026-11-30T12:30:00Z",
                                 dt.datetime(2026, 11, 30, 12, 30, tzinfo=dt.timezone.utc)])
def test_the_stream_gate_takes_an_aware_now(now):
    from rulekit.stream import StreamGate

    gate = StreamGate(SHOP, STALE, now=now)
    gate.feed(SAID)
    decision = gate.close()
    assert decision.decision != "answer" and gate.released == ""
    assert "stale" in [f.code for f in gate.findings]
