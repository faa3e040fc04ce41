"""rulekit.check: properties that YAML cases cannot state. The behaviour cases themselves are in
tests/cases/claims/*.yaml (run by tests/test_check_cases.py); this file uses the same ruleset,
tests/cases/claims/types.rules.

- the lookup layer is never asked for a hidden field, and not at all for a reply whose only
  claims are hidden (a recording resolver wraps MemoryResolver);
- one lookup per entity: a request per entity, a SQL statement per entity;
- a faithful reply is answered, and any change to one verified number or date in it, written in
  any notation, is not; the text always shows the stored value formatted by code;
- check() never raises, whatever the reply;
- one Policy and one resolver shared by 8 threads decide as they do alone.
"""

from __future__ import annotations

import concurrent.futures
import datetime as dt
import json
import random
import sqlite3
import threading
from decimal import Decimal
from pathlib import Path

import pytest
from local_shop import local_shop_source
from babel.dates import format_date
from babel.numbers import format_currency, format_decimal
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import rulekit
from rulekit.check import check
from rulekit.decision import Decision
from rulekit.sources import LookupRequest, MemoryResolver, SqliteResolver

CASES = Path(__file__).parent / "cases" / "claims"
POLICY = rulekit.load(CASES / "types.rules")
NOW = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.timezone.utc)
FRESH = "2026-11-30T11:58:00Z"

ROWS = {
    "product": [
        {"sku": "RC-500", "code": "RC-500", "barcode": "4006381333931", "name": "Navy raincoat",
         "colour": "Navy", "stock": 4, "price": 129900, "list_price": 1299.0, "deposit": 2500,
         "cost": 50000, "updated_at": FRESH},
        {"sku": "RC-700", "code": "RC-700", "barcode": "N/A", "name": "Rain hat",
         "colour": "Yellow", "stock": 0, "price": 4900, "list_price": 49.5, "deposit": 0,
         "cost": 1200, "updated_at": FRESH},
    ],
    "order": [
        {"id": "ord_88431", "shipped_at": "2026-07-29T23:40:00Z",
         "placed_at": "2026-07-29T02:00:00Z", "packed_at": "2026-07-29 23:30:00",
         "delivery_date": "2026-08-05", "estimated_delivery": "2026-08-05", "status": "shipped",
         "carrier": "dhl", "line_count": 3, "updated_at": FRESH},
    ],
    "parcel": [
        {"id": "P-1", "weight_kg": 4.23, "exact_kg": 4.23, "fill_rate": 64.5, "fragile": True,
         "updated_at": FRESH},
    ],
    "inventory": [
        {"sku": "RC-500", "stock": 0, "reserved": -1, "returns": 0, "returns_tracked": False,
         "updated_at": FRESH},
    ],
    "page": [
        {"id": "pg1", "url": "https://shop.example/p/rc-500?variant=navy",
         "shop_url": "https://shop.example/p/rc-500?utm_source=mail",
         "review_url": "https://shop.example/p/rc-500#reviews",
         "docs_url": "https://docs.example/guide/", "updated_at": FRESH},
    ],
    "delivery_quote": [{"id": "q1", "earliest": "2026-12-03", "updated_at": FRESH}],
    "promotion": [{"id": "WINTER", "discount": 15, "valid_on": "2026-11-29"}],
    "voucher": [{"id": "v1", "value": 1000}],
}


def claim(key, type_, entity, entity_id, field, value) -> dict:
    return {"key": key, "type": type_, "entity": entity, "entity_id": entity_id, "field": field,
            "value": value}


def reply(template: str, *claims: dict) -> dict:
    return {"answer_template": template, "claims": list(claims)}


class RecordingResolver:
    """MemoryResolver, with every LookupRequest it is asked kept in order."""

    def __init__(self, rows: dict) -> None:
        self._inner = MemoryResolver(rows)
        self._lock = threading.Lock()
        self.requests: list[LookupRequest] = []

    def fetch(self, request: LookupRequest):
        with self._lock:
            self.requests.append(request)
        return self._inner.fetch(request)


def build_sqlite(path: Path, rows: dict, *, drop_columns: dict | None = None) -> Path:
    """One table per entity, a column per declared field, no column types."""
    connection = sqlite3.connect(path)
    try:
        for table, table_rows in rows.items():
            entity = POLICY.entity(table)
            columns = list(dict.fromkeys([*(f.name for f in entity.fields),
                                          *(c for row in table_rows for c in row)]))
            columns = [c for c in columns if c not in (drop_columns or {}).get(table, ())]
            quoted = ", ".join('"' + c.replace('"', '""') + '"' for c in columns)
            connection.execute(f'CREATE TABLE "{table}" ({quoted})')
            for row in table_rows:
                connection.execute(f'INSERT INTO "{table}" ({quoted}) '
                                   f'VALUES ({", ".join("?" * len(columns))})',
                                   [row.get(c) for c in columns])
        connection.commit()
    finally:
        connection.close()
    return path


def run(message, source, **options) -> Decision:
    return check(POLICY, message, source, now=NOW, **options)


def summary(decision: Decision) -> tuple:
    return (decision.decision, decision.text, decision.message, decision.next_action,
            tuple((r.code, r.path) for r in decision.reasons),
            tuple((c.key, c.outcome, c.citation) for c in decision.claims))


# --- the lookup layer --------------------------------------------------------------------------

HIDDEN = {(e.name, f.name) for e in POLICY.entities for f in e.fields if not f.readable}


def test_the_hidden_field_is_never_requested():
    source = RecordingResolver(ROWS)
    replies = [
        reply("The {n} is {p}; it cost us {c}.",
              claim("n", "text", "product", "RC-500", "name", "Navy raincoat"),
              claim("p", "money", "product", "RC-500", "price", "$1,299.00"),
              claim("c", "money", "product", "RC-500", "cost", "$500.00")),
        {"grounded": True, "template": "The {name} cost us {cost}.",
         "subject": {"entity": "product", "id": "RC-500"}},
        reply("It cost {c} and weighs {w} kg.",
              claim("c", "money", "product", "RC-700", "cost", "$12.00"),
              claim("w", "decimal", "parcel", "P-1", "weight_kg", 4.2)),
    ]
    for message in replies:
        decision = run(message, source)
        assert decision.decision == "refuse"
        assert "hidden_field" in {c.reason_code for c in decision.claims}
    assert source.requests, "the readable claims must have been looked up"
    for request in source.requests:
        assert "cost" not in request.fields
        entity = POLICY.entity(request.entity)
        for name in request.fields:
            if (request.entity, name) in HIDDEN:
                # The one hidden field a lookup reads: the freshness column, which staleness
                # needs; it is never compared, rendered or cited.
                assert name == entity.fresh_via, (request.entity, name)


@pytest.mark.parametrize("message", [
    reply("It cost us {c}.", claim("c", "money", "product", "RC-500", "cost", "$500.00")),
    reply("Updated {u}.", claim("u", "timestamp", "product", "RC-500", "updated_at", FRESH)),
    reply("It cost us {c}; updated {u}.",
          claim("c", "money", "product", "RC-500", "cost", "$500.00"),
          claim("u", "timestamp", "order", "ord_88431", "updated_at", FRESH)),
    {"grounded": True, "template": "It cost us {cost}.",
     "subject": {"entity": "product", "id": "RC-500"}},
], ids=["cost", "updated_at", "two-entities", "slot-form"])
def test_a_reply_with_only_hidden_claims_makes_no_request(message):
    source = RecordingResolver(ROWS)
    decision = run(message, source)
    assert decision.decision == "refuse"
    assert {c.outcome for c in decision.claims} == {"not_checkable"}
    assert all(c.actual is None and c.citation is None for c in decision.claims)
    assert source.requests == []


FIVE_CLAIMS = reply(
    "The {a} is {b} ({c} in stock); the hat is {d}. Your order holds {e} items.",
    claim("a", "text", "product", "RC-500", "name", "Navy raincoat"),
    claim("b", "money", "product", "RC-500", "price", "$1,299.00"),
    claim("c", "integer", "product", "RC-500", "stock", 4),
    claim("d", "money", "product", "RC-700", "price", "$49.00"),
    claim("e", "integer", "order", "ord_88431", "line_count", 3),
)


def test_one_request_per_entity():
    source = RecordingResolver(ROWS)
    decision = run(FIVE_CLAIMS, source)
    assert decision.decision == "answer", decision.reasons
    assert len(source.requests) == 2
    by_entity = {r.entity: r for r in source.requests}
    assert set(by_entity) == {"product", "order"}
    assert by_entity["product"].ids == ("RC-500", "RC-700")
    assert by_entity["order"].ids == ("ord_88431",)
    assert {"name", "price", "stock"} <= set(by_entity["product"].fields)


def test_one_sql_statement_per_entity(tmp_path):
    statements: list[tuple[str, tuple]] = []
    database = build_sqlite(tmp_path / "records.db", ROWS)
    source = SqliteResolver(database, on_query=lambda sql, params: statements.append((sql, params)))
    decision = run(FIVE_CLAIMS, source)
    assert decision.decision == "answer", decision.reasons
    assert summary(decision) == summary(run(FIVE_CLAIMS, MemoryResolver(ROWS)))
    assert len(statements) == 2
    tables = sorted(sql.split(" FROM ")[1].split(" ")[0] for sql, _ in statements)
    assert tables == ['"order"', '"product"']
    assert sorted(params for _, params in statements) == [("RC-500", "RC-700"), ("ord_88431",)]


def test_a_tenant_given_to_an_unscoped_ruleset_is_ignored_in_memory_as_in_sqlite(tmp_path):
    """A ruleset with no `tenant` scopes no query, so the SQL resolvers bind no tenant id; the
    memory resolver dropped every row for it ("no product RC-500") of a product right there."""
    rows = {"product": [RAINCOAT]}
    message = reply("It is {p}.", claim("p", "money", "product", "RC-500", "price", "$1,299.00"))
    database = build_sqlite(tmp_path / "records.db", rows)
    for source in (MemoryResolver(rows), SqliteResolver(database)):
        with_tenant, without = run(message, source, tenant="u1"), run(message, source)
        assert with_tenant.decision == "answer", with_tenant.reasons
        assert summary(with_tenant) == summary(without)


def test_a_missing_column_is_decided_alike_in_memory_and_in_sqlite(tmp_path):
    """The memory resolver promises to answer "exactly as the SQL resolvers do"."""
    rows = {"product": [{k: v for k, v in ROWS["product"][0].items() if k != "colour"}]}
    message = reply("It comes in {c}.", claim("c", "text", "product", "RC-500", "colour", "Navy"))
    from_memory = run(message, MemoryResolver(rows))
    database = build_sqlite(tmp_path / "records.db", rows, drop_columns={"product": ["colour"]})
    from_sqlite = run(message, SqliteResolver(database))
    assert from_memory.decision != "answer" and from_sqlite.decision != "answer"
    assert summary(from_memory) == summary(from_sqlite)


class ScriptedResolver:
    """A custom resolver that answers every lookup with ``answer(request)``."""

    def __init__(self, answer) -> None:
        self.answer = answer

    def fetch(self, request: LookupRequest):
        return self.answer(request)


PRICE = reply("It is {p}.", claim("p", "money", "product", "RC-500", "price", "$1,299.00"))
RAINCOAT = ROWS["product"][0]


def lookup_failure(decision: Decision) -> str:
    assert decision.decision == "handoff" and decision.text is None, summary(decision)
    (reason,) = [r for r in decision.reasons if r.code == "lookup_failed"]
    return reason.message


def test_a_row_filed_under_another_id_fails_the_lookup_closed():
    """A resolver that answers the id asked for with another record's row (a cache keyed
    wrongly, a join gone astray) must not verify anything: the key decides whose row it is."""
    other = dict(RAINCOAT, sku="RC-999")
    decision = run(PRICE, ScriptedResolver(lambda request: {i: dict(other) for i in request.ids}))
    message = lookup_failure(decision)
    assert "'RC-999'" in message and "'RC-500'" in message


def test_a_row_without_its_key_fails_the_lookup_closed():
    keyless = {k: v for k, v in RAINCOAT.items() if k != "sku"}
    decision = run(PRICE, ScriptedResolver(lambda request: {i: dict(keyless)
                                                            for i in request.ids}))
    assert "no sku" in lookup_failure(decision)


def test_a_row_for_an_id_that_was_not_asked_for_fails_the_lookup_closed():
    decision = run(PRICE, ScriptedResolver(lambda request: {
        "RC-500": dict(RAINCOAT), "RC-700": dict(ROWS["product"][1])}))
    assert "'RC-700'" in lookup_failure(decision)


def test_a_custom_resolvers_own_row_still_verifies():
    decision = run(PRICE, ScriptedResolver(lambda request: {
        i: {c: RAINCOAT.get(c) for c in request.columns} for i in request.ids}))
    assert decision.decision == "answer", decision.reasons


INTEGER_KEYS = """
ruleset ints { version "1" locale en_US currency USD }
entity ticket {
  key number
  field number integer label "ticket number"
  field seats  integer label "seats"
}
on otherwise refuse "REFUSED"
on lookup_failed handoff "LOOKUP"
"""


@pytest.mark.parametrize("stored, outcome", [
    (7, "answer"), (Decimal("7"), "answer"), (7.0, "answer"), ("7", "answer"),
    (8, "handoff"), ("07x", "handoff"), (None, "handoff")])
def test_an_integer_key_is_compared_as_a_number(stored, outcome):
    from rulekit.compile import compile_source
    policy = compile_source(INTEGER_KEYS).policy
    message = reply("It has {s} seats.", claim("s", "integer", "ticket", 7, "seats", 4))
    source = ScriptedResolver(lambda request: {i: {"number": stored, "seats": 4}
                                               for i in request.ids})
    decision = check(policy, message, source, now=NOW)
    assert decision.decision == outcome, decision.reasons


# --- faithful replies, changed numbers, and what is shown -----------------------------------------

MONEY_NOTATIONS = ("plain", "grouped", "symbol", "code", "code_after")
NUMBER_NOTATIONS = ("plain", "grouped")
DATE_FORMATS = ("%Y-%m-%d", "%B %d, %Y", "%m/%d/%Y", "%b %d, %Y", "%A, %B %d, %Y")


def money_text(cents: int, notation: str) -> str | int:
    sign = "-" if cents < 0 else ""
    units, rest = divmod(abs(cents), 100)
    plain, grouped = f"{units}.{rest:02d}", f"{units:,}.{rest:02d}"
    return {"plain": f"{sign}{plain}", "grouped": f"{sign}{grouped}",
            "symbol": f"{sign}${grouped}", "code": f"{sign}USD {grouped}",
            "code_after": f"{sign}{plain} USD"}[notation]


def number_text(value: int | Decimal, notation: str) -> str:
    return f"{value:,}" if notation == "grouped" else f"{value}"


def date_text(day: dt.date, pattern: str) -> str:
    return day.strftime(pattern)


FAITHFUL_TEMPLATE = ("The raincoat is {price} and {stock} are left; the parcel weighs {weight} kg, "
                     "arrives on {eta} and holds {items} items.")


@st.composite
def records(draw):
    """Stored values for the five claims of a faithful reply."""
    return {
        "price": draw(st.integers(0, 10**9)),
        "stock": draw(st.integers(0, 10**7)),
        "weight": Decimal(draw(st.integers(0, 10**6))) / 100,
        "eta": draw(st.dates(dt.date(2001, 1, 1), dt.date(2099, 12, 31))),
        "items": draw(st.integers(0, 5000)),
    }


def record_rows(stored: dict) -> dict:
    product = {**ROWS["product"][0], "price": stored["price"], "stock": stored["stock"]}
    parcel = {**ROWS["parcel"][0], "weight_kg": str(stored["weight"])}
    order = {**ROWS["order"][0], "delivery_date": stored["eta"].isoformat(),
             "line_count": stored["items"]}
    return {"product": [product], "parcel": [parcel], "order": [order]}


def five_claims(values: dict) -> dict:
    return reply(FAITHFUL_TEMPLATE,
                 claim("price", "money", "product", "RC-500", "price", values["price"]),
                 claim("stock", "integer", "product", "RC-500", "stock", values["stock"]),
                 claim("weight", "decimal", "parcel", "P-1", "weight_kg", values["weight"]),
                 claim("eta", "date", "order", "ord_88431", "delivery_date", values["eta"]),
                 claim("items", "integer", "order", "ord_88431", "line_count", values["items"]))


@st.composite
def written(draw, stored: dict) -> dict:
    """The stored values as a model might write them."""
    return {
        "price": money_text(stored["price"], draw(st.sampled_from(MONEY_NOTATIONS))),
        "stock": number_text(stored["stock"], draw(st.sampled_from(NUMBER_NOTATIONS))),
        "weight": number_text(stored["weight"], draw(st.sampled_from(NUMBER_NOTATIONS))),
        "eta": date_text(stored["eta"], draw(st.sampled_from(DATE_FORMATS))),
        "items": number_text(stored["items"], draw(st.sampled_from(NUMBER_NOTATIONS))),
    }


def expected_text(stored: dict) -> str:
    return FAITHFUL_TEMPLATE.format(
        price=format_currency(Decimal(stored["price"]) / 100, "USD", locale="en_US"),
        stock=format_decimal(stored["stock"], locale="en_US"),
        weight=format_decimal(stored["weight"], locale="en_US", decimal_quantization=False),
        eta=format_date(stored["eta"], "medium", locale="en_US"),
        items=format_decimal(stored["items"], locale="en_US"))


@st.composite
def faithful_and_changed(draw):
    stored = draw(records())
    faithful = draw(written(stored))
    which = draw(st.sampled_from(("price", "stock", "weight", "eta", "items")))
    changed = dict(stored)
    if which == "price":
        changed["price"] = stored["price"] + draw(st.integers(-10**6, 10**6).filter(bool))
    elif which in ("stock", "items"):
        changed[which] = stored[which] + draw(st.integers(-10**4, 10**4).filter(bool))
    elif which == "weight":   # beyond the 0.05 kg tolerance, in hundredths
        step = draw(st.integers(6, 10**5)) * draw(st.sampled_from((-1, 1)))
        changed["weight"] = stored["weight"] + Decimal(step) / 100
    else:                     # a day or more
        shift = draw(st.integers(1, 4000)) * draw(st.sampled_from((-1, 1)))
        changed["eta"] = stored["eta"] + dt.timedelta(days=shift)
        assume(dt.date(2001, 1, 1) <= changed["eta"] <= dt.date(2099, 12, 31))
    wrong = {**faithful, which: draw(written(changed))[which]}
    return stored, faithful, wrong, which


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(faithful_and_changed())
def test_any_change_to_a_verified_number_is_never_answered(example):
    stored, faithful, wrong, which = example
    source = MemoryResolver(record_rows(stored))
    answered = run(five_claims(faithful), source)
    assert answered.decision == "answer", (faithful, answered.reasons)
    assert answered.text == expected_text(stored)
    changed = run(five_claims(wrong), source)
    assert changed.decision != "answer", (which, wrong[which], stored[which])
    outcome = {c.key: c.outcome for c in changed.claims}
    assert outcome[which] != "confirmed", (which, wrong[which], stored[which])
    assert changed.text is None


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_the_text_always_shows_the_stored_value_formatted_by_code(data):
    stored = data.draw(records())
    source = MemoryResolver(record_rows(stored))
    texts = set()
    for _ in range(3):
        decision = run(five_claims(data.draw(written(stored))), source)
        assert decision.decision == "answer", decision.reasons
        texts.add(decision.text)
    assert texts == {expected_text(stored)}


@settings(max_examples=60, deadline=None)
@given(cents=st.integers(0, 10**8), notation=st.sampled_from(MONEY_NOTATIONS + ("int", "float")),
       form=st.sampled_from(("claims", "slots")))
def test_a_price_renders_the_same_in_every_notation_and_both_reply_forms(cents, notation, form):
    rows = {"product": [{**ROWS["product"][0], "price": cents}]}
    if notation == "int":
        assume(cents % 100 == 0)
        value = cents // 100
    elif notation == "float":
        value = float(Decimal(cents) / 100)
    else:
        value = money_text(cents, notation)
    if form == "claims":
        message = reply("It is {price}.", claim("price", "money", "product", "RC-500", "price",
                                                value))
    else:
        message = {"grounded": True, "template": "It is {price}.",
                   "subject": {"entity": "product", "id": "RC-500"}}
    decision = run(message, MemoryResolver(rows))
    assert decision.decision == "answer", decision.reasons
    assert decision.text == f"It is {format_currency(Decimal(cents) / 100, 'USD', locale='en_US')}."


# --- check() never raises ----------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=12), children, max_size=4),
    max_leaves=20)

FIELDS = [(e.name, f.name, f.type.kind) for e in POLICY.entities for f in e.fields]
CLAIM_TYPES = ("money", "date", "timestamp", "decimal", "number", "integer", "boolean", "enum",
               "identifier", "url", "text", "")
IDS = ("RC-500", "RC-700", "ord_88431", "P-1", "pg1", "q1", "v1", "WINTER", "nope", 0, -1)
odd_values = (st.text(max_size=30) | st.integers(-10**20, 10**20) | st.booleans()
              | st.floats() | st.sampled_from(("$1,299.00", "1.299,00 €", "2026-07-30",
                                               "2026-07-29T23:40Z", "4.2", "64.5%", "Shipped",
                                               "https://shop.example/p/rc-500", "N/A", "-1")))


@st.composite
def near_miss_replies(draw):
    """Replies close to valid, so the checks behind the schema run on odd values."""
    claims = []
    for index in range(draw(st.integers(0, 4))):
        entity, field, kind = draw(st.sampled_from(FIELDS))
        claims.append({"key": f"k{index}",
                       "type": draw(st.sampled_from(CLAIM_TYPES + (kind,) * 3)),
                       "entity": draw(st.sampled_from((entity,) * 4 + ("ghost",))),
                       "entity_id": draw(st.sampled_from(IDS)),
                       "field": draw(st.sampled_from((field,) * 4 + ("nothing",))),
                       "value": draw(odd_values)})
    prose = draw(st.text(max_size=20))
    template = prose + " ".join("{" + c["key"] + "}" for c in claims)
    message = {"answer_template": template, "claims": claims}
    if draw(st.booleans()):
        message = {"grounded": draw(st.booleans()), "template": template,
                   "subject": {"entity": draw(st.sampled_from(("product", "order", "ghost"))),
                               "id": draw(st.sampled_from(IDS))}}
    if draw(st.integers(0, 9)) == 0:
        message[draw(st.text(max_size=8))] = draw(json_values)
    return message


def never_raises(message, **options) -> None:
    decision = run(message, MemoryResolver(ROWS), **options)
    assert decision.decision in ("answer", "regenerate", "refuse", "ask", "handoff", "fallback")
    if decision.decision not in ("answer", "fallback"):
        assert decision.text is None


@settings(max_examples=150, deadline=None)
@given(json_values)
def test_check_never_raises_on_any_json_value(value):
    never_raises(value)
    never_raises(json.dumps(value))


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=200) | st.binary(max_size=100))
def test_check_never_raises_on_any_text(text):
    never_raises(text)


@settings(max_examples=200, deadline=None)
@given(near_miss_replies(), st.integers(1, 4), st.sampled_from(({}, {"postcode": "10115"})))
def test_check_never_raises_on_near_misses(message, attempt, inputs):
    never_raises(message, attempt=attempt, inputs=inputs)
    never_raises(json.dumps(message), attempt=attempt, inputs=inputs)


def test_check_never_raises_on_deeply_nested_json():
    never_raises("[" * 100_000)


def test_check_never_raises_on_a_huge_integer_entity_id():
    never_raises(reply("It is {p}.", claim("p", "integer", "product", 10**5000, "stock", 4)))


def test_check_never_raises_on_a_huge_integer_value():
    never_raises(reply("It is {n}.", claim("n", "text", "product", "RC-500", "name", 10**5000)))


# --- threads -----------------------------------------------------------------------------------

def varied_replies() -> list[tuple[dict, dict]]:
    """A spread of replies and options, covering every decision kind."""
    return [
        (FIVE_CLAIMS, {}),
        (reply("It is {p}.", claim("p", "money", "product", "RC-500", "price", "$1,300.00")), {}),
        (reply("It is {p}.", claim("p", "money", "product", "RC-500", "price", "$1,300.00")),
         {"attempt": 3}),
        (reply("It is {p}.", claim("p", "money", "product", "RC-999", "price", "$1.00")), {}),
        (reply("It cost {c}.", claim("c", "money", "product", "RC-500", "cost", "$500.00")), {}),
        (reply("From {d}.", claim("d", "date", "delivery_quote", "q1", "earliest",
                                  "2026-12-03")), {}),
        (reply("From {d}.", claim("d", "date", "delivery_quote", "q1", "earliest",
                                  "2026-12-03")), {"inputs": {"postcode": "10115"}}),
        (reply("Shipped {d}.", claim("d", "date", "order", "ord_88431", "shipped_at",
                                     "2026-07-30")), {}),
        (reply("It weighs {w} kg.", claim("w", "decimal", "parcel", "P-1", "weight_kg", 4.2)),
         {}),
        (reply("It is {s}, usually.", claim("s", "enum", "order", "ord_88431", "status",
                                            "dispatched")), {}),
        (reply("{r} reserved.", claim("r", "integer", "inventory", "RC-500", "reserved", 1)), {}),
        (reply("See {u}", claim("u", "url", "page", "pg1", "url",
                                "HTTPS://shop.example/p/rc-500/?variant=navy")), {}),
        ({"grounded": True, "template": "The {name} is {price}.",
          "subject": {"entity": "product", "id": "RC-700"}}, {}),
        ('{"answer_template": "x", ', {}),
        (reply("It is {p}, 20% off.", claim("p", "money", "product", "RC-500", "price",
                                            "$1,299.00")), {}),
    ]


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
def test_one_policy_and_one_resolver_shared_by_8_threads(kind, tmp_path):
    source = (MemoryResolver(ROWS) if kind == "memory"
              else SqliteResolver(build_sqlite(tmp_path / "records.db", ROWS)))
    work = varied_replies()
    expected = [summary(run(message, source, **options)) for message, options in work]
    assert {kinds[0] for kinds in expected} == {"answer", "regenerate", "refuse", "ask",
                                                "fallback"}
    start = threading.Barrier(8)

    def worker(seed: int) -> list[tuple[int, tuple]]:
        order = list(range(len(work))) * 4
        random.Random(seed).shuffle(order)
        start.wait()
        return [(index, summary(run(work[index][0], source, **work[index][1])))
                for index in order]

    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(worker, range(8)))
    for per_thread in results:
        for index, got in per_thread:
            assert got == expected[index], work[index][0]


# --- now ---------------------------------------------------------------------------------------

STALE_PRICE = reply("It is {p}.", claim("p", "money", "product", "RC-500", "price", "$1,299.00"))


@pytest.mark.parametrize("now, decision", [
    ("2026-11-30T12:00:00Z", "answer"),             # two minutes after the row's update
    ("2026-11-30T13:00:00+01:00", "answer"),        # the same instant
    ("2026-11-30T15:00:00Z", "refuse"),             # past the hour's budget: stale
])
def test_now_may_be_iso_text_with_its_offset(now, decision):
    assert check(POLICY, STALE_PRICE, ROWS, now=now).decision == decision


@pytest.mark.parametrize("now, says", [
    ("2026-11-30T12:00:00", "has no offset: add Z"),
    ("yesterday", "is not an ISO 8601 time"),
    (1764504000, "must be a datetime or ISO 8601 text, not int"),
])
def test_a_now_that_is_no_instant_refuses_with_a_reason_that_says_why(now, says):
    decision = check(POLICY, STALE_PRICE, ROWS, now=now)
    assert decision.decision == "refuse"
    assert [r.code for r in decision.reasons] == ["input_error"]
    assert says in decision.reasons[0].message


# --- tenant and timeout: input errors, named ------------------------------------------------

SCOPED = rulekit.load(Path(__file__).parent / "cases" / "sources" / "store.rules")


@pytest.mark.parametrize("policy", [POLICY, SCOPED], ids=["unscoped", "scoped"])
@pytest.mark.parametrize("tenant", [42, 4.2, True, b"alice", ["alice"]])
def test_a_tenant_that_is_not_a_string_is_an_input_error_that_says_so(policy, tenant):
    decision = check(policy, STALE_PRICE, ROWS, now=NOW, tenant=tenant)
    assert decision.decision == "refuse"
    assert [r.code for r in decision.reasons] == ["input_error"]
    message = decision.reasons[0].message
    assert "tenant must be a string" in message and type(tenant).__name__ in message
    assert "no verified tenant id was given" not in message


@pytest.mark.parametrize("question", [42, b"Is it $899?", ["Is it $899?"]])
def test_a_question_that_is_not_a_string_is_an_input_error_that_says_so(question):
    decision = check(POLICY, STALE_PRICE, ROWS, now=NOW, question=question)
    assert decision.decision == "refuse"
    assert [r.code for r in decision.reasons] == ["input_error"]
    assert decision.reasons[0].message.startswith("question must be a string")


@pytest.mark.parametrize("timeout", [0, -1, 0.0, float("nan"), float("inf"), "2", True, None])
def test_a_timeout_that_is_no_positive_finite_number_is_an_input_error_that_names_it(timeout):
    for source in (ROWS, "sqlite:///nowhere.db"):
        decision = check(POLICY, STALE_PRICE, source, now=NOW, timeout=timeout)
        assert decision.decision == "refuse"
        assert [r.code for r in decision.reasons] == ["input_error"]
        assert decision.reasons[0].message.startswith(
            f"timeout must be a positive, finite number of seconds, not {timeout!r}")


@pytest.mark.parametrize("timeout", [0.001, 1, 2.5, 1e9])
def test_a_positive_finite_timeout_is_accepted(timeout):
    assert check(POLICY, STALE_PRICE, ROWS, now=NOW, timeout=timeout).decision == "answer"


# --- requires ... matching ---------------------------------------------------------------------

def test_a_row_that_does_not_go_with_the_input_is_told_apart_from_no_row_by_nothing():
    """The decision for an order whose postcode differs is the decision for an order that does
    not exist: outcomes, reasons, the sources panel, the message."""
    policy = rulekit.load(CASES / "matching.rules")
    rows = {"order": [{"id": "o1", "total": 42, "delivery_postcode": "SW1A 1AA"}]}

    def decided(order_id: str) -> tuple:
        decision = check(policy, reply("Order {t}.", claim("t", "integer", "order", order_id,
                                                          "total", 42)),
                         rows, now=NOW, inputs={"postcode": "EC1A 1BB"})
        shown = decision.to_dict()
        return json.dumps(shown, sort_keys=True).replace(order_id, "ID")

    assert decided("o1") == decided("o404")
    assert '"rows": 0' in decided("o1")


def test_a_postcode_stored_as_a_whole_float_matches_its_digits():
    """A source that hands back 10115.0 for a postcode column still means 10115 (in memory: a
    SQL column holds one type, so the case files cannot mix them)."""
    policy = rulekit.load(CASES / "matching.rules")
    rows = {"order": [{"id": "o1", "total": 42, "delivery_postcode": 10115.0}]}
    body = reply("Order {t}.", claim("t", "integer", "order", "o1", "total", 42))
    assert check(policy, body, rows, now=NOW, inputs={"postcode": "10115"}).decision == "answer"
    assert check(policy, body, rows, now=NOW, inputs={"postcode": "10116"}).decision == "refuse"


@pytest.mark.parametrize("template, said", [
    ("We have {r} of the {n}.", ["We have {r} of"]),
    ("Only {r} left!", ["{r} left"]),
    ("{r} units still in stock", ["{r} units still in stock"]),
    ("only {r} remaining", ["{r} remaining"]),
    ("Stock: {r}.", ["Stock: {r}"]),
    ("a stock of {r}", ["stock of {r}"]),
    ("We've got {r} pieces.", ["We've got {r} pieces"]),
    # none of these states a stock level
    ("A reviewer left {r} stars.", []),
    ("You have {r} days left to return it.", []),
    ("{r} left to sell", []),
    ("You have {r} left.", []),
    ("Rated {r}; {n} is available.", []),
    ("We have {r} reviews.", []),
])
def test_stock_words_around_a_count_that_is_not_a_stock(template, said):
    """``prose.stock_figures``: the words that state a slot as a stock level, beside a count
    that is not one ("{rating} left"); the check flags them as ``unapproved_shape`` in every
    prose mode. Words that only look alike ("left {rating} stars") are not such a statement."""
    from rulekit.prose import stock_figures
    from rulekit.template import parse_template

    assert stock_figures(parse_template(template).pieces, {"r"}) == said


@pytest.mark.parametrize("inputs, said", [
    ({"post_code": "SW1A 1AA"}, "input 'post_code'"),
    ({"postcode": 10115}, "must be a string"),
    (["postcode"], "inputs must be a mapping"),
])
def test_inputs_the_ruleset_does_not_declare_are_an_input_error(inputs, said):
    # A typo in the app's input key would otherwise ask every customer for their postcode.
    policy = rulekit.load(CASES / "matching.rules")
    reply = {"answer_template": "Order {t}.", "claims": [
        {"key": "t", "type": "integer", "entity": "order", "entity_id": "o1", "field": "total",
         "value": 42}]}
    decision = check(policy, reply, {"order": [{"id": "o1", "total": 42,
                                                 "delivery_postcode": "SW1A 1AA"}]}, inputs=inputs)
    assert decision.decision == "refuse" and not decision.claims
    assert [r.code for r in decision.reasons] == ["input_error"]
    assert said in decision.reasons[0].message




@pytest.mark.parametrize("locale, currency, stored, claimed, outcome", [
    # read as the sweep reads them (probe money f8): "Rs" is INR in en_IN, not SCR
    ("en_IN", "INR", 12990000, "Rs 1,29,900", "confirmed"),
    ("en_IN", "INR", 12990000, "Rs. 1,29,900", "confirmed"),
    ("en_IN", "INR", 12990000, "Rs. 1,29,901", "contradicted"),
    ("en_CA", "CAD", 2000, "C$20", "confirmed"),
    ("en_CA", "CAD", 2000, "C$21", "contradicted"),
    ("en_CA", "CAD", 2000, "US$20", "contradicted"),
    ("da_DK", "DKK", 129900, "1.299 kr", "confirmed"),
    ("da_DK", "DKK", 129900, "1.300 kr", "contradicted"),
    ("de_DE", "EUR", 129900, "1.299,– €", "confirmed"),
    ("de_DE", "EUR", 129900, "1.298,– €", "contradicted"),
])
def test_a_claimed_amount_is_read_as_the_sweep_reads_it(tmp_path, locale, currency, stored,
                                                        claimed, outcome):
    path = tmp_path / "shop.rules"
    path.write_text(local_shop_source(locale, currency))
    decision = check(rulekit.load(path), {"answer_template": "{name} is {price}.", "claims": [
        {"key": "name", "type": "text", "entity": "product", "entity_id": "X1", "field": "name",
         "value": "W"},
        {"key": "price", "type": "money", "entity": "product", "entity_id": "X1",
         "field": "price", "value": claimed}]},
        {"product": [{"sku": "X1", "name": "W", "price": stored}]}, now=NOW)
    assert decision.claims[1].outcome == outcome, decision.claims[1]
