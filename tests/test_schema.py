"""The reply schema: the whitelist is baked in, strict decoders accept it, and whatever it
accepts the checker's parser reads without a malformed-reply problem."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from jsonschema import Draft202012Validator

import rulekit
from rulekit.compare import COMPARATORS
from rulekit.reply import read_reply
from rulekit.schema import FLAVORS, reply_schema, response_format, tool

ROOT = Path(__file__).resolve().parent.parent
RULESETS = sorted((ROOT / "rulesets").glob("*.rules"))

# The keywords OpenAI's strict mode and Anthropic's strict tools accept; the schema uses no
# others (no const, oneOf, format, minLength, $ref...).
STRICT_KEYWORDS = {"type", "properties", "required", "additionalProperties", "items", "anyOf",
                   "enum", "description", "pattern", "maxItems"}

SAMPLE_VALUES = {"money": "12.99", "date": "2026-07-30", "timestamp": "2026-07-30T09:15:00Z",
                 "decimal": 4.2, "integer": 3, "boolean": True, "identifier": "ord_1",
                 "url": "https://shop.example/p/1", "text": "Navy raincoat"}


@pytest.fixture(scope="module")
def policies() -> dict[str, rulekit.Policy]:
    return {path.stem: rulekit.load(path) for path in RULESETS}


@pytest.fixture(scope="module")
def orders(policies) -> rulekit.Policy:
    return policies["orders"]


def sample_value(field):
    if field.type.kind == "enum":
        return field.type.values[0]
    return SAMPLE_VALUES[field.type.kind]


def claim(key, entity, field, value, claim_type, entity_id="ord_1") -> dict:
    return {"key": key, "type": claim_type, "entity": entity, "entity_id": entity_id,
            "field": field, "value": value}


def good_reply(policy) -> dict:
    """One claim for every readable field of every entity, each with a sample of its type."""
    claims = []
    for entity in policy.entities:
        for field in entity.readable_fields:
            claims.append(claim(f"{entity.name}_{field.name}", entity.name, field.name,
                                sample_value(field), field.type.kind))
    template = " ".join(f"{{{c['key']}}}" for c in claims)
    return {"answer_template": f"Here: {template}.", "claims": claims}


def errors(schema: dict, reply) -> list[str]:
    return [e.message for e in Draft202012Validator(schema).iter_errors(reply)]


# --- the schema is a schema, in every flavor --------------------------------------------------

@pytest.mark.parametrize("path", RULESETS, ids=[p.stem for p in RULESETS])
@pytest.mark.parametrize("flavor", FLAVORS)
@pytest.mark.parametrize("form", ["claims", "slots"])
def test_every_flavor_is_a_valid_draft_2020_12_schema(policies, path, flavor, form):
    schema = reply_schema(policies[path.stem], flavor, form)
    Draft202012Validator.check_schema(schema)
    json.dumps(schema)       # plain JSON: no tuples, no Decimals


@pytest.mark.parametrize("path", RULESETS, ids=[p.stem for p in RULESETS])
def test_a_good_reply_for_each_shipped_ruleset_passes_and_parses(policies, path):
    policy = policies[path.stem]
    reply = good_reply(policy)
    for flavor in FLAVORS:
        assert errors(reply_schema(policy, flavor), reply) == []
    parsed, problems = read_reply(reply)
    assert problems == [] and parsed is not None


def test_the_schema_is_deterministic(orders):
    assert json.dumps(reply_schema(orders)) == json.dumps(reply_schema(orders))
    schema = reply_schema(orders)
    schema["properties"].clear()             # a new dict each time: callers may change it
    assert reply_schema(orders)["properties"]


# --- what must fail ---------------------------------------------------------------------------

def _orders_reply(*claims_) -> dict:
    return {"answer_template": " ".join(f"{{{c['key']}}}" for c in claims_),
            "claims": list(claims_)}


GOOD_CLAIM = claim("total", "order", "total_minor", "€12.99", "money")

BAD_REPLIES = {
    "a hidden field": _orders_reply(claim("t", "order", "updated_at", "2026-07-30", "timestamp")),
    "a hidden field of another entity": _orders_reply(
        claim("e", "customer", "email", "a@example.com", "text", "c_1")),
    "an unknown entity": _orders_reply(claim("t", "invoice", "id", "inv_1", "identifier")),
    "an unknown field": _orders_reply(claim("t", "order", "colour", "red", "text")),
    "a field of another entity": _orders_reply(claim("t", "order", "tier", "gold", "enum")),
    "a value of the wrong type": _orders_reply(claim("n", "order", "line_count", "three",
                                                     "integer")),
    "a boolean for money": _orders_reply(claim("t", "order", "total_minor", True, "money")),
    "a claim type the field does not take": _orders_reply(
        claim("t", "order", "total_minor", "12.99", "decimal")),
    "an enum value outside the table": _orders_reply(claim("s", "order", "status", "lost",
                                                           "enum")),
    "a key that is not a slot name": _orders_reply(claim("two words", "order", "id", "ord_1",
                                                         "identifier")),
    "an extra property on the reply": {**_orders_reply(GOOD_CLAIM), "answer": "It is €12.99."},
    "an extra property on a claim": _orders_reply({**GOOD_CLAIM, "note": "from memory"}),
    "a missing claims list": {"answer_template": "Hello."},
    "a missing value": _orders_reply({k: v for k, v in GOOD_CLAIM.items() if k != "value"}),
    "a missing entity_id": _orders_reply({k: v for k, v in GOOD_CLAIM.items()
                                          if k != "entity_id"}),
    "claims that are not a list": {"answer_template": "{total}", "claims": GOOD_CLAIM},
    "a number for the template": {"answer_template": 12, "claims": []},
    "not an object": ["{total}", GOOD_CLAIM],
}


def test_the_good_claim_passes(orders):
    assert errors(reply_schema(orders), _orders_reply(GOOD_CLAIM)) == []


@pytest.mark.parametrize("flavor", FLAVORS)
@pytest.mark.parametrize("case", list(BAD_REPLIES))
def test_bad_replies_fail(orders, flavor, case):
    assert errors(reply_schema(orders, flavor), BAD_REPLIES[case]), case


def test_enum_fields_accept_values_and_aliases(orders):
    schema = reply_schema(orders)
    for word in ("shipped", "dispatched", "in transit"):
        reply = _orders_reply(claim("s", "order", "status", word, "enum"))
        assert errors(schema, reply) == [], word
    status = next(b for b in schema["properties"]["claims"]["items"]["anyOf"]
                  if b["properties"]["field"]["enum"] == ["status"])
    listed = status["properties"]["value"]["enum"]
    assert listed[:6] == list(orders.entity("order").field("status").type.values)
    assert len(listed) == len(set(listed))


def test_each_branch_takes_the_claim_types_its_comparator_takes(policies):
    for policy in policies.values():
        branches = reply_schema(policy)["properties"]["claims"]["items"]["anyOf"]
        for branch in branches:
            entity = policy.entity(branch["properties"]["entity"]["enum"][0])
            field = entity.field(branch["properties"]["field"]["enum"][0])
            assert field.readable
            assert set(branch["properties"]["type"]["enum"]) == \
                COMPARATORS[field.type.kind].claim_types


def test_integer_keys_take_integer_ids(tmp_path):
    rules = tmp_path / "tickets.rules"
    rules.write_text('ruleset tickets {\n  version "1"\n}\n\nentity ticket {\n  key number\n'
                     '  field number integer\n  field title  text\n}\n\n'
                     'on otherwise refuse "No."\n')
    schema = reply_schema(rulekit.load(rules))
    good = claim("t", "ticket", "title", "Broken zip", "text", entity_id=42)
    assert errors(schema, _orders_reply(good)) == []
    assert errors(schema, _orders_reply({**good, "entity_id": "42"}))


# --- the slot form ----------------------------------------------------------------------------

def test_slot_form(policies):
    shop = policies["shop"]
    schema = reply_schema(shop, form="slots")
    good = {"grounded": True, "template": "{name} is {price}.",
            "subject": {"entity": "product", "id": "RC-500"}}
    assert errors(schema, good) == []
    assert read_reply(good)[1] == []
    refusal = {"grounded": False, "template": "I could not find that product.", "subject": None}
    assert errors(schema, refusal) == []
    assert read_reply(refusal)[1] == []
    for bad in ({**good, "subject": {"entity": "supplier", "id": "S1"}},
                {**good, "subject": {"entity": "product", "id": "RC-500", "field": "price"}},
                {"grounded": True, "template": "{name}"},
                {**good, "grounded": "yes"},
                {**good, "answer": "It is $1,299."}):
        assert errors(schema, bad), bad


def test_a_policy_without_readable_fields_allows_no_claims(tmp_path):
    rules = tmp_path / "tiny.rules"
    rules.write_text('ruleset tiny {\n  version "1"\n}\n\non otherwise refuse "No."\n')
    policy = rulekit.load(rules)
    schema = reply_schema(policy, "openai")
    assert errors(schema, {"answer_template": "Hello.", "claims": []}) == []
    assert errors(schema, {"answer_template": "{x}", "claims": [GOOD_CLAIM]})
    assert_strict(schema)
    assert_strict(reply_schema(policy, "openai", "slots"))


# --- strict mode ------------------------------------------------------------------------------

def assert_strict(schema: dict, path: str = "$") -> None:
    """OpenAI's strict structured outputs: every object forbids extra keys and requires all of
    its properties, recursively; no keyword outside the supported subset."""
    unknown = set(schema) - STRICT_KEYWORDS
    assert not unknown, f"{path}: keywords strict mode does not take: {unknown}"
    if schema.get("type") == "object" or "properties" in schema:
        assert schema.get("additionalProperties") is False, f"{path}: additionalProperties"
        assert schema.get("required") == list(schema["properties"]), f"{path}: required"
        for name, sub in schema["properties"].items():
            assert_strict(sub, f"{path}.{name}")
    if "items" in schema:
        assert_strict(schema["items"], f"{path}[*]")
    for index, sub in enumerate(schema.get("anyOf", ())):
        assert_strict(sub, f"{path}|{index}")
    if "enum" in schema:
        assert schema["enum"] and all(isinstance(v, str) for v in schema["enum"]), path


@pytest.mark.parametrize("path", RULESETS, ids=[p.stem for p in RULESETS])
@pytest.mark.parametrize("flavor", ["openai", "anthropic"])
@pytest.mark.parametrize("form", ["claims", "slots"])
def test_openai_and_anthropic_flavors_obey_strict_mode(policies, path, flavor, form):
    schema = reply_schema(policies[path.stem], flavor, form)
    assert schema["type"] == "object" and "anyOf" not in schema    # the root is an object
    assert "$schema" not in schema
    assert_strict(schema)


def test_response_format_and_tool_wrappers(orders):
    wrapped = response_format(orders)
    assert wrapped["type"] == "json_schema"
    assert wrapped["json_schema"]["name"] == "orders_reply"
    assert wrapped["json_schema"]["strict"] is True
    assert wrapped["json_schema"]["schema"] == reply_schema(orders, "openai")
    made = tool(orders, name="give_answer", form="slots")
    assert set(made) == {"name", "description", "input_schema"}
    assert made["name"] == "give_answer"
    assert made["input_schema"] == reply_schema(orders, "anthropic", "slots")
    with pytest.raises(ValueError, match="tool name"):
        tool(orders, name="give answer")
    with pytest.raises(ValueError, match="flavor must be one of"):
        reply_schema(orders, "gemini")
    with pytest.raises(ValueError, match="form must be one of"):
        reply_schema(orders, form="prose")


# --- whatever the schema accepts, the checker reads ------------------------------------------

TYPES = sorted(COMPARATORS)
ANY_VALUE = st.one_of(st.text(max_size=8), st.integers(-10**6, 10**6),
                      st.floats(allow_nan=False, allow_infinity=False), st.booleans(),
                      st.sampled_from(["12.99", "2026-07-30", "shipped", "dispatched"]))


@st.composite
def claims_replies(draw, policy):
    """A claims reply with unique keys and a template made of them. Each claim starts right (a
    readable field, a type it compares by, a sample value) and is then, more often than not,
    bent: any entity (an unknown one too), any field (hidden ones too), any type, any value.
    The schema decides which are acceptable."""
    readable = [(e, f) for e in policy.entities for f in e.readable_fields]
    entities = [e.name for e in policy.entities] + ["invoice"]
    fields = sorted({f.name for e in policy.entities for f in e.fields} | {"colour"})
    keys = draw(st.lists(st.from_regex(r"[a-z_][a-z0-9_]{0,6}", fullmatch=True), unique=True,
                         max_size=4))
    made = []
    for key in keys:
        entity, field = draw(st.sampled_from(readable))
        item = claim(key, entity.name, field.name, sample_value(field),
                     draw(st.sampled_from(sorted(COMPARATORS[field.type.kind].claim_types))),
                     draw(st.sampled_from(["ord_1", "RC-500"])))
        bend = draw(st.sampled_from(["none", "none", "none", "entity", "field", "type", "value"]))
        if bend == "entity":
            item["entity"] = draw(st.sampled_from(entities))
        elif bend == "field":
            item["field"] = draw(st.sampled_from(fields))
        elif bend == "type":
            item["type"] = draw(st.sampled_from(TYPES + ["number"]))
        elif bend == "value":
            item["value"] = draw(ANY_VALUE)
        made.append(item)
    prose = draw(st.text(alphabet=st.characters(blacklist_characters="{}"), max_size=10))
    template = prose + " ".join(f"{{{c['key']}}}" for c in made)
    return {"answer_template": template, "claims": made}


@pytest.mark.parametrize("name", ["orders", "support", "analytics"])
@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_what_the_schema_accepts_the_checker_reads(policies, name, data):
    policy = policies[name]
    reply = data.draw(claims_replies(policy))
    validator = Draft202012Validator(reply_schema(policy))
    if not validator.is_valid(reply):
        return
    parsed, problems = read_reply(json.dumps(reply))
    assert problems == [], problems
    for item in parsed.claims:          # on the whitelist, with a type its field compares by
        field = policy.entity(item.entity).field(item.field)
        assert field is not None and field.readable
        assert item.type in COMPARATORS[field.type.kind].claim_types


def test_the_generator_reaches_accepted_replies(policies):
    """The property above is not vacuous: a good share of its replies are accepted."""
    policy = policies["orders"]
    validator = Draft202012Validator(reply_schema(policy))
    accepted = []

    @settings(max_examples=200, deadline=None, database=None)
    @given(claims_replies(policy))
    def count(reply):
        accepted.append(validator.is_valid(reply) and bool(reply["claims"]))

    count()
    assert sum(accepted) >= 10


def test_schema_does_not_mutate_the_policy(orders):
    before = copy.deepcopy(orders.model_dump())
    reply_schema(orders, "openai")
    reply_schema(orders, "jsonschema", "slots")
    assert orders.model_dump() == before
