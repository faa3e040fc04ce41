"""Lone surrogates in a str: no character, but JSON writes them as escapes that a client joins
into the character they encode ("$\\ud835\\udfd3\\ud835\\udfce\\ud835\\udfce" shows as "$𝟓𝟎𝟎").
The audit, a stream and a claims reply refuse them; the same digits as real characters are
read and judged (tests/cases/sweep/smuggled.yaml)."""

from __future__ import annotations

import rulekit
from rulekit.audit import audit
from rulekit.stream import StreamGate

SMUGGLED = "It costs $\ud835\udfd3\ud835\udfce\ud835\udfce."
ROWS = {"product": [{"sku": "RC-500", "name": "Navy raincoat", "price": 129900, "stock": 12,
                     "updated_at": "2026-11-30T12:03:00Z"}], "review": []}
NOW = "2026-11-30T12:05:00Z"


def _claim(key: str, field: str, value, kind: str) -> dict:
    return {"key": key, "type": kind, "entity": "product", "entity_id": "RC-500",
            "field": field, "value": value}


def test_audit_refuses_lone_surrogates() -> None:
    result = audit(SMUGGLED, {"price_usd": 49.99})
    assert result.decision.decision == "refuse"
    assert [f.code for f in result.findings] == ["input_error"]
    assert "U+D835 at character 10" in result.findings[0].message


def test_audit_reads_the_real_characters() -> None:
    assert audit("It costs $𝟓𝟎𝟎.", {"price_usd": 500}).decision.decision == "answer"
    assert audit("It costs $𝟓𝟎𝟎.", {"price_usd": 49.99}).decision.decision != "answer"


def test_stream_stops_at_a_chunk_with_lone_surrogates() -> None:
    gate = StreamGate(None, {"price_usd": 49.99})
    released = "".join(gate.consume(["It costs $", "\ud835\udfd3", "\ud835\udfce\ud835\udfce."]))
    assert "\ud835" not in released
    assert gate.decision.decision == "refuse"
    assert gate.decision.reasons[0].code == "input_error"


def test_stream_passes_the_real_characters() -> None:
    gate = StreamGate(None, {"price_usd": 500})
    assert "".join(gate.consume(["It costs $", "𝟓𝟎", "𝟎."])) == "It costs $𝟓𝟎𝟎."
    assert gate.decision.decision == "answer"


def test_claims_template_with_lone_surrogates_is_malformed() -> None:
    shop = rulekit.load("rulesets/shop.rules")
    name = _claim("name", "name", "Navy raincoat", "text")
    price = _claim("price", "price", "$1,299.00", "money")
    bad = rulekit.check(shop, {"answer_template": "{name} is {price}, was $\ud835\udfd3.",
                               "claims": [name, price]}, ROWS, now=NOW)
    assert bad.decision != "answer"
    assert any(r.code == "malformed_reply" and "surrogate" in r.message for r in bad.reasons)
    good = rulekit.check(shop, {"answer_template": "{name} is {price}.", "claims": [name, price]},
                         ROWS, now=NOW)
    assert good.decision == "answer"
