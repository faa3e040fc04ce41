"""rulekit.entity_rows: one recogniser of entity rows for the evidence block and the sweep, and
the rows an entity gives only with an input (``requires INPUT matching FIELD``).

The block and the sweep must agree on every row: a row shown to the model without its hidden
fields but audited without the rules (or the other way round) is the defect this module closes.
"""

from __future__ import annotations

import datetime as dt
import json
import re
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


SHOP = rulekit.load(ROOT / "rulesets" / "shop.rules")   # product from evidence "$.products[*]", "$.product", ...
STALE = {"sku": "RC-500", "name": "Navy raincoat", "price": 129900, "stock": 4,
         "updated_at": "2026-01-01T00:00:00Z"}


@pytest.mark.parametrize("evidence, place, fix", [
    ({"products": [{"node": STALE}]}, r"\$\.products\[0\]", r'"\$\.products\[\*\]\.node"'),
    ({"rows": {"product": [{"node": STALE}]}}, r"\$\.rows\.product\[0\]",
     r'"\$\.rows\.product\[\*\]\.node"'),
    ({"product": {"edges": [STALE]}}, r"\$\.product", r'"\$\.product\.edges\[\*\]"'),
    ({"product": {"RC-500": STALE}}, r"\$\.product", "give the rows as a list"),
])
def test_a_wrapper_at_a_declared_path_is_refused_as_under_the_entitys_name(evidence, place, fix):
    """An object found at a path the entity declares that names none of its fields but holds
    objects or lists (a GraphQL ``node``, rows keyed by id) is no row: taken as one with no
    fields, the stale row inside it answered and the block showed its hidden updated_at."""
    with pytest.raises(EntityRowError, match=place + r": .*entity 'product'.*" + fix):
        entity_rows(row_places(SHOP), evidence)
    with pytest.raises(ValueError):
        evidence_block(SHOP, evidence)
    result = audit("The Navy raincoat costs $1,299.00.", evidence, policy=SHOP, now=NOW)
    assert result.decision.decision == "refuse"
    assert [f.code for f in result.findings] == ["input_error"]
    assert re.search(fix, result.findings[0].message)     # whole, not cut before the fix


@pytest.mark.parametrize("evidence", [{"products": [STALE]}, {"product": STALE},
                                      {"rows": {"product": [STALE]}}])
def test_rows_at_a_declared_path_keep_their_rules(evidence):
    """The pass twin: the same row given as the paths say is judged (stale) and shown
    without its hidden field."""
    result = audit("The Navy raincoat costs $1,299.00.", evidence, policy=SHOP, now=NOW)
    assert [f.code for f in result.findings] == ["stale"]
    assert "updated_at" not in evidence_block(SHOP, evidence)


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


# --- audit(..., inputs=...) and index_given: given, wrong, missing -----------------------------

def test_index_given_keeps_a_row_whose_input_is_missing_and_asks_for_it():
    """The index of a user who gave no postcode holds the row as the audit without inputs
    does: its figures ask for the postcode, they are not stray ones."""
    for inputs in (None, {}, {"postcode": " "}):
        result = audit(TEXT, index_given(ORDERS, {"order": [ROW]}, inputs, now=NOW),
                       policy=ORDERS)
        assert result.decision.decision == "ask", (inputs, result.findings)
        assert {f.code for f in result.findings} == {"missing_input"}


@pytest.mark.parametrize("inputs, decision, codes", [
    ({"postcode": "10115"}, "answer", set()),
    ({"postcode": "80331"}, "refuse", {"unsupported_number"}),
    ({}, "ask", {"missing_input"}),
])
def test_audit_takes_the_users_inputs(inputs, decision, codes):
    result = audit(TEXT, {"order": [ROW]}, policy=ORDERS, now=NOW, inputs=inputs)
    assert result.decision.decision == decision, result.findings
    assert {f.code for f in result.findings} == codes
    assert "10115" not in json.dumps(result.to_dict())


def test_a_wrong_input_leaves_no_trace_of_the_row():
    """The decision for a wrong postcode is the one for evidence without the row."""
    wrong = audit(TEXT, {"order": [ROW]}, policy=ORDERS, now=NOW, inputs={"postcode": "80331"})
    none = audit(TEXT, {"order": []}, policy=ORDERS, now=NOW, inputs={"postcode": "80331"})
    assert wrong.to_dict() == none.to_dict()


@pytest.mark.parametrize("inputs, named", [
    ({"postcod": "10115"}, "postcod"),
    ({"postcode": 10115}, "postcode"),
    ({"postcode": None}, "postcode"),
    ({3: "10115"}, "3"),
    (["postcode"], "mapping"),
    ("postcode=10115", "mapping"),
])
def test_bad_inputs_are_an_input_error_naming_the_input(inputs, named):
    result = audit(TEXT, {"order": [ROW]}, policy=ORDERS, now=NOW, inputs=inputs)
    assert result.decision.decision == "refuse"
    assert [f.code for f in result.findings] == ["input_error"]
    assert named in result.findings[0].message


def test_an_undeclared_input_gets_a_hint():
    result = audit(TEXT, {"order": [ROW]}, policy=ORDERS, inputs={"postcod": "10115"})
    assert "did you mean 'postcode'" in result.findings[0].message


def test_inputs_with_evidence_already_indexed_are_an_input_error():
    """An ``Evidence`` was judged when it was built; inputs given beside it would be ignored,
    so they are refused: index with ``index_given`` instead."""
    from rulekit.sweep import SweepSettings

    index = SweepSettings.from_policy(ORDERS).index({"order": [ROW]}, "en_GB", now=NOW)
    result = audit(TEXT, index, policy=ORDERS, inputs={"postcode": "10115"})
    assert [f.code for f in result.findings] == ["input_error"]
    assert "index_given" in result.findings[0].message
    assert audit(TEXT, index, policy=ORDERS, inputs={}).decision.decision == "ask"


TWO = compile_source('''
ruleset parcels { version "1" locale en_GB currency EUR timezone "Europe/Berlin" }
input postcode label "the delivery postcode"
input surname label "the surname on the order"
entity order {
  key id
  requires postcode matching delivery_postcode, surname matching surname
  field id                identifier
  field weight_kg         decimal
  field delivery_postcode text hidden
  field surname           text hidden
}
on missing postcode ask ask_for_postcode "Which postcode?"
on missing surname ask ask_for_surname "Which surname?"
on missing_input ask ask_for_details "More, please."
on otherwise refuse "REFUSED"
''').policy
TWO_ROW = {"id": "o1", "weight_kg": 4.23, "delivery_postcode": "10115", "surname": "Weber"}


@pytest.mark.parametrize("inputs, decision, message", [
    ({"postcode": "10115", "surname": "weber"}, "answer", None),
    ({"postcode": "10115"}, "ask", "Which surname?"),       # the one that was not given
    ({"surname": "Weber"}, "ask", "Which postcode?"),
    ({"postcode": "80331"}, "refuse", "REFUSED"),           # a wrong one: no such row
    ({"postcode": "10115", "surname": "Bauer"}, "refuse", "REFUSED"),
])
def test_an_entity_needing_two_inputs(inputs, decision, message):
    result = audit("It weighs 4.23 kg.", {"order": [TWO_ROW]}, policy=TWO, inputs=inputs)
    assert result.decision.decision == decision, result.findings
    assert result.decision.message == message


def test_the_stream_gate_takes_the_users_inputs():
    from rulekit.stream import StreamGate

    def streamed(inputs):
        gate = StreamGate(ORDERS, {"order": [ROW]}, now=NOW, inputs=inputs)
        gate.feed(TEXT + " Thanks for waiting.")
        decision = gate.close()
        return gate.released, decision

    released, decision = streamed({"postcode": "10115"})
    assert decision.decision == "answer" and released == TEXT + " Thanks for waiting."
    for inputs, want in (({"postcode": "80331"}, "refuse"), ({}, "ask"), (None, "ask")):
        released, decision = streamed(inputs)
        assert (released, decision.decision) == ("", want), inputs
    released, decision = streamed({"postcod": "10115"})
    assert released == "" and decision.decision == "refuse"
    assert "postcod" in decision.reasons[0].message
    built = index_given(ORDERS, {"order": [ROW]}, {"postcode": "10115"}, now=NOW)
    gate = StreamGate(ORDERS, built, inputs={"postcode": "10115"})
    assert gate.stopped and "index_given" in gate.decision.reasons[0].message
    gate = StreamGate(ORDERS, built)        # the inputs it was built with hold
    gate.feed(TEXT)
    assert gate.close().decision == "answer"
