"""rulekit.check's trusted paths build exactly what the public constructors build.

A check builds its lookup requests and claim results without the public constructors' costs
(docs/performance.md); nothing of that may be visible:

- a request the checker sends equals, and hashes like, the one the validating constructor
  builds, and that constructor still rejects what it always rejected;
- a timeout no lookup can use still fails closed before anything is asked;
- a result built by ``claim_result`` equals, hashes like and is as frozen as ``ClaimResult(...)``;
- the Sources panel has one line per entity looked up, in the order of its first claim, with the
  ids asked, the rows found and the error of a failed lookup.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import pickle
from pathlib import Path

import pytest

import rulekit
from rulekit.check import check
from rulekit.decision import ClaimResult, claim_result
from rulekit.sources import LookupRequest, MemoryResolver, SourceError

POLICY = rulekit.load(Path(__file__).parent / "cases" / "claims" / "types.rules")
NOW = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.timezone.utc)
FRESH = "2026-11-30T11:58:00Z"
ROWS = {
    "product": [{"sku": "RC-500", "name": "Navy raincoat", "price": 129900, "stock": 4,
                 "updated_at": FRESH}],
    "order": [{"id": "ord_88431", "shipped_at": "2026-07-29T23:40:00Z", "line_count": 3,
               "updated_at": FRESH}],
}


def claim(key, type_, entity, entity_id, field, value) -> dict:
    return {"key": key, "type": type_, "entity": entity, "entity_id": entity_id, "field": field,
            "value": value}


def reply(*claims: dict) -> dict:
    return {"answer_template": " ".join(f"{{{c['key']}}}" for c in claims),
            "claims": list(claims)}


class Recording:
    """MemoryResolver, keeping every request; ``failing`` entities raise instead."""

    def __init__(self, failing: tuple[str, ...] = ()) -> None:
        self._inner = MemoryResolver(ROWS)
        self._failing = failing
        self.requests: list[LookupRequest] = []

    def fetch(self, request: LookupRequest):
        self.requests.append(request)
        if request.entity in self._failing:
            raise SourceError(f"table {request.table!r} is offline")
        return self._inner.fetch(request)


ORDER_THEN_PRODUCT = reply(
    claim("shipped", "date", "order", "ord_88431", "shipped_at", "30 July 2026"),
    claim("price", "money", "product", "RC-500", "price", "$1,299.00"),
    claim("items", "integer", "order", "ord_88431", "line_count", 3),
    claim("other", "integer", "product", "RC-999", "stock", 4),
    claim("stock", "integer", "product", "RC-500", "stock", 4))


def test_a_request_the_checker_sends_is_the_validated_one():
    source = Recording()
    for _ in range(2):      # the second check takes the cached prototype
        check(POLICY, ORDER_THEN_PRODUCT, source, now=NOW, timeout=1.5, tenant=None)
    assert [r.entity for r in source.requests] == ["order", "product"] * 2
    for sent in source.requests:
        entity = POLICY.entity(sent.entity)
        built = LookupRequest(entity=sent.entity, key=entity.key, ids=list(sent.ids),
                              fields=list(sent.fields), timeout=1.5, lookup=entity.lookup,
                              key_kind=entity.field(entity.key).type.kind,
                              key_type=entity.field(entity.key).type)
        assert type(sent) is LookupRequest
        assert sent == built and hash(sent) == hash(built) and repr(sent) == repr(built)
        assert sent.table == sent.entity
        with pytest.raises(dataclasses.FrozenInstanceError):
            sent.ids = ()   # type: ignore[misc]
    assert source.requests[1].ids == ("RC-500", "RC-999")
    assert source.requests[0] == source.requests[2] and source.requests[0] is not \
        source.requests[2]


@pytest.mark.parametrize("bad, error", [
    (dict(ids=("a", "a")), ValueError),
    (dict(ids=("a", 1)), TypeError),
    (dict(fields=("",)), TypeError),
    (dict(entity=""), TypeError),
    (dict(timeout=0), ValueError),
])
def test_public_construction_still_validates(bad, error):
    arguments = dict(entity="order", key="id", ids=("a",), fields=("status",)) | bad
    with pytest.raises(error):
        LookupRequest(**arguments)


@pytest.mark.parametrize("timeout", [0, -1.0, float("nan")])
def test_a_timeout_no_lookup_can_use_fails_closed_before_asking(timeout):
    source = Recording()
    decision = check(POLICY, ORDER_THEN_PRODUCT, source, now=NOW, timeout=timeout)
    assert decision.decision == "refuse" and decision.text is None
    assert [r.code for r in decision.reasons] == ["input_error"]
    assert decision.reasons[0].message.startswith("timeout must be a positive, finite number")
    assert source.requests == []


def test_a_claim_result_is_the_one_the_constructor_builds():
    fields = dict(key="price", entity="product", entity_id="RC-500", field="price",
                  type="money", outcome="contradicted", claimed="$1,300.00", actual=129900,
                  claimed_normal={"minor_units": 130000, "currency": "USD"},
                  actual_normal={"minor_units": 129900, "currency": "USD"},
                  citation="product:RC-500#price", updated_at="2026-11-30T11:58:00Z",
                  reason=None, reason_code="contradicted", path="$.claims[0]")
    fast, slow = claim_result(**fields), ClaimResult(**fields)
    assert type(fast) is ClaimResult
    assert fast == slow and repr(fast) == repr(slow) and fast.to_dict() == slow.to_dict()
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.outcome = "confirmed"      # type: ignore[misc]
    assert dataclasses.replace(fast, outcome="confirmed").outcome == "confirmed"
    assert pickle.loads(pickle.dumps(fast)) == slow
    short = dict(key="k", entity="order", entity_id="1", field="id", type="identifier",
                 outcome="not_checkable", claimed="1")
    assert claim_result(**short) == ClaimResult(**short)
    assert hash(claim_result(**short)) == hash(ClaimResult(**short))


def test_the_sources_panel_lists_each_lookup_once_in_order():
    source = Recording(failing=("product",))
    decision = check(POLICY, ORDER_THEN_PRODUCT, source, now=NOW)
    assert decision.decision != "answer"
    assert [dict(line) for line in decision.sources] == [
        {"name": "order", "kind": "lookup", "table": "order", "ids": 1, "rows": 1,
         "empty": False, "error": None},
        {"name": "product", "kind": "lookup", "table": "product", "ids": 2, "rows": 0,
         "empty": False, "error": "SourceError: table 'product' is offline"},
    ]
    # Nothing was looked up: no panel at all.
    hidden_only = reply(claim("cost", "money", "product", "RC-500", "cost", "$500.00"))
    assert check(POLICY, hidden_only, Recording(), now=NOW).sources == ()


def test_each_decision_gets_its_own_panel():
    first = check(POLICY, ORDER_THEN_PRODUCT, Recording(), now=NOW)
    first.sources[0]["rows"] = 99
    second = check(POLICY, ORDER_THEN_PRODUCT, Recording(), now=NOW)
    assert second.sources[0]["rows"] == 1
