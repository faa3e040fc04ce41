"""rulekit.entity_rows: one recogniser of entity rows for the evidence block and the sweep, and
the rows an entity gives only with an input (``requires INPUT matching FIELD``).

The block and the sweep must agree on every row: a row shown to the model without its hidden
fields but audited without the rules (or the other way round) is the defect this module closes.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

import rulekit
from rulekit.audit import audit
from rulekit.compile import compile_source
from rulekit.entity_rows import EntityRowError, entity_rows, given, index_given, row_places
from rulekit.prompt import evidence_block

ROOT = Path(__file__).resolve().parent.parent
NOW = dt.datetime(2026, 11, 30, 12, 5, tzinfo=dt.timezone.utc)

# orders.rules' order entity, with free prose instead of `prose shapes`.
ORDERS = compile_source('''
ruleset parcels { version "1" locale en_GB currency EUR timezone "Europe/Berlin" }
input postcode label "the delivery postcode"
entity order {
  key id
  fresh within 15m via updated_at
  requires postcode matching delivery_postcode
  field id                identifier label "order number"
  field total_minor       money currency EUR minor label "order total"
  field weight_kg         decimal tolerance 0.05 label "parcel weight"
  field updated_at        timestamp hidden
  field delivery_postcode text hidden
}
entity store {
  key id
  field id    identifier
  field phone text
}
on missing postcode, missing_input ask ask_for_postcode "Which postcode is the order going to?"
on otherwise refuse "REFUSED"
''').policy
ROW = {"id": "ord_88431", "total_minor": 129900, "weight_kg": 4.23,
       "updated_at": "2026-11-30T12:00:00Z", "delivery_postcode": "10115"}
TEXT = "Your order ord_88431 weighs 4.23 kg and cost €1,299.00."


def shown(policy, evidence) -> dict:
    block = evidence_block(policy, evidence)
    return json.loads(block.split("```json\n", 1)[1].split("\n```", 1)[0])


# --- one recogniser ---------------------------------------------------------------------------

SHAPES = [{"order": [ROW]}, {"Order": [ROW]}, {"ORDERS": ROW}, {"result": {"order": [ROW]}},
          {"data": [{"orders": [ROW]}]}, {"order": {"id": "x", "customer": {"order": ROW}}},
          [{"order": [ROW]}]]


@pytest.mark.parametrize("evidence", SHAPES)
def test_the_block_and_the_sweep_find_the_same_rows(evidence):
    """Every row the sweep keeps rules for is a row the block drops hidden fields from."""
    from rulekit.sweep import SweepSettings

    settings = SweepSettings.from_policy(ORDERS)
    rows = entity_rows(row_places(ORDERS), evidence)
    assert ROW in [placed.row for placed in rows.values()]
    index = settings.index(evidence, "en_GB", now=NOW)
    assert {id(ROW)} <= set(index.row_rules)
    assert "10115" not in json.dumps(shown(ORDERS, evidence))


def test_an_object_under_an_entitys_name_that_is_no_row_is_an_error_for_both():
    evidence = {"orders": {"ord_88431": ROW}}
    with pytest.raises(EntityRowError, match=r"\$\.orders: .*entity 'order'"):
        entity_rows(row_places(ORDERS), evidence)
    with pytest.raises(ValueError):
        evidence_block(ORDERS, evidence)
    result = audit(TEXT, evidence, policy=ORDERS, now=NOW)
    assert result.decision.decision == "refuse"
    assert [f.code for f in result.findings] == ["input_error"]


def test_an_entity_without_rules_is_not_held_to_its_shape():
    """A store has no hidden field, no freshness budget and no input: nothing to withhold, so
    what its name holds is passed over, not refused."""
    evidence = {"stores": {"s1": {"id": "s1", "phone": "030 1234"}}}
    assert shown(ORDERS, evidence) == evidence


def test_a_row_naming_a_field_twice_cannot_be_placed():
    row = dict(ROW, updatedAt="2026-11-01T00:00:00Z")
    with pytest.raises(EntityRowError, match="updated_at' twice"):
        entity_rows(row_places(ORDERS), {"order": [row]})


# --- rows given only with an input --------------------------------------------------------------

def test_without_the_input_the_audit_licenses_nothing_of_the_row_and_asks_for_it():
    result = audit(TEXT, {"order": [ROW]}, policy=ORDERS, now=NOW)
    assert result.decision.decision == "ask"
    assert result.decision.message == "Which postcode is the order going to?"
    assert {f.code for f in result.findings} == {"missing_input"}
    assert {f.text for f in result.findings} == {"4.23", "€1,299.00"}


def test_with_the_input_given_the_row_licenses_its_figures():
    index = index_given(ORDERS, {"order": [ROW]}, {"postcode": " 10115 "}, now=NOW)
    result = audit(TEXT, index, policy=ORDERS)
    assert result.decision.decision == "answer", result.findings


def test_a_row_that_does_not_go_with_the_input_is_as_if_missing():
    kept = given(ORDERS, {"order": [ROW], "note": "x"}, {"postcode": "80331"})
    assert kept.evidence == {"order": [], "note": "x"} and kept.missing == ()
    result = audit(TEXT, index_given(ORDERS, {"order": [ROW]}, {"postcode": "80331"}, now=NOW),
                   policy=ORDERS)
    assert result.decision.decision == "refuse"
    assert {f.code for f in result.findings} == {"unsupported_number"}  # no trace of the row


def test_a_missing_input_is_named_and_its_rows_are_dropped():
    kept = given(ORDERS, {"result": {"order": ROW}}, None)
    assert kept.evidence == {"result": {}}
    assert kept.missing == (("order", "postcode"),)


def test_evidence_without_such_rows_is_kept_as_it_is():
    evidence = {"stores": [{"id": "s1", "phone": "030 1234"}]}
    assert given(ORDERS, evidence, None).evidence is evidence


# --- prose shapes -------------------------------------------------------------------------------

def test_free_text_is_not_audited_under_prose_shapes():
    """orders.rules allows only its approved sentence shapes, which free text cannot be checked
    against: the audit refuses, as ``ground`` refuses the ruleset in the prose channel."""
    orders = rulekit.load(ROOT / "rulesets" / "orders.rules")
    result = audit("Your order was lost in transit, so we will refund you in full.",
                   {"note": "x"}, policy=orders)
    assert result.decision.decision == "refuse" and result.decision.text is None
    assert [f.code for f in result.findings] == ["unapproved_shape"]
    assert "prose shapes" in result.findings[0].message
