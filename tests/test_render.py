"""rulekit.render: filling a message whose placeholder has nothing to show."""

from __future__ import annotations

import pytest

from rulekit.render import fill, fill_message
from rulekit.template import parse_template


@pytest.mark.parametrize("template, id_, want", [
    ("I could not find {entity} {id}, so I left it out.", "", "I could not find order, so I left it out."),
    ("I could not find {entity} {id}.", "", "I could not find order."),
    ("The {entity} {id} may be out of date.", "", "The order may be out of date."),
    ("The price ({id}) did not match.", "", "The price did not match."),
    ("The price [{id}] did not match.", "", "The price did not match."),
    ("{id} was not found.", "", "was not found."),
    ("No {entity}{id} here.", "", "No order here."),
    # a value to show is filled as it is, spaces and all
    ("I could not find {entity} {id}, so I left it out.", "ORD-9", "I could not find order ORD-9, so I left it out."),
    ("The price ({id}) did not match.", "RC-500", "The price (RC-500) did not match."),
])
def test_an_empty_value_is_left_out_with_the_space_or_brackets_around_it(template, id_, want):
    pieces = parse_template(template).pieces
    assert fill_message(pieces, {"entity": "order", "id": id_}) == want


# --- money a fallback builds: shown in the locale's pattern, and kept sweepable ------------

import datetime as dt      # noqa: E402

from rulekit.audit import audit    # noqa: E402
from rulekit.check import check    # noqa: E402
from rulekit.compile import compile_source    # noqa: E402
from local_shop import local_shop_source    # noqa: E402

_NOW = dt.datetime(2026, 11, 30, 12, tzinfo=dt.timezone.utc)


def _shop(locale: str, currency: str, template: str):
    source = local_shop_source(locale, currency, actions="on contradicted fallback facts\n",
                               fallback=f'fallback facts "{template}" {{\n  name = product.name\n'
                                        '  price = product.price\n}\n')
    result = compile_source(source, "shop.rules")
    assert result.ok, result.diagnostics
    return result.policy


def _fallback(locale: str, currency: str, template: str, stored: int, wrong: str):
    """The fallback text of a reply whose price is wrong, and the sweep of that text."""
    policy = _shop(locale, currency, template)
    rows = {"product": [{"sku": "X1", "name": "W", "price": stored}]}
    decision = check(policy, {"answer_template": "{name} is {price}.", "claims": [
        {"key": "name", "type": "text", "entity": "product", "entity_id": "X1",
         "field": "name", "value": "W"},
        {"key": "price", "type": "money", "entity": "product", "entity_id": "X1",
         "field": "price", "value": wrong}]}, rows, now=_NOW)
    assert decision.decision == "fallback", decision
    return decision.text, audit(decision.text, rows, policy=policy, now=_NOW)


@pytest.mark.parametrize("locale, currency, stored, wrong", [
    ("ar_KW", "KWD", 12345, "12.000"),
    ("ar_BH", "BHD", 1500, "2.000"),
    ("he_IL", "ILS", 129900, "1000"),
    ("ar_EG", "EGP", 129900, "1000"),
])
def test_fallback_money_has_no_direction_control_the_sweep_would_refuse(locale, currency,
                                                                       stored, wrong):
    text, swept = _fallback(locale, currency, "{name} is {price}.", stored, wrong)
    assert "\u200f" not in text
    assert [f.code for f in swept.findings] == [], text
    assert swept.decision.decision == "answer"


def test_a_price_ending_in_an_abbreviation_point_ends_the_sentence_once():
    text, _ = _fallback("da_DK", "DKK", "{name} is {price}.", 129900, "1.000,00")
    assert text == "W is 1.299,00\xa0kr."


def test_a_price_inside_a_sentence_keeps_its_abbreviation_point():
    text, _ = _fallback("da_DK", "DKK", "{name} costs {price} now.", 129900, "1.000,00")
    assert text == "W costs 1.299,00\xa0kr. now."


@pytest.mark.parametrize("locale, currency, template, stored, want", [
    ("ja_JP", "JPY", "{name}は{price}円です。", 1299, "Wは1,299円です。"),
    ("en_US", "USD", "{name} is {price} USD.", 129900, "W is 1,299.00 USD."),
    ("en_US", "USD", "{name} is {price} dollars.", 129900, "W is 1,299.00 dollars."),
    ("en_US", "USD", "{name} is ${price}.", 129900, "W is $1,299.00."),
    ("sv_SE", "SEK", "{name} kostar {price} kr.", 129900, "W kostar 1\xa0299,00 kr."),
    ("zh_CN", "CNY", "{name}售价{price}元。", 129900, "W售价1,299.00元。"),
    # the pass twins: no currency written beside the slot, so the symbol stays
    ("ja_JP", "JPY", "{name}は{price}です。", 1299, "Wは￥1,299です。"),
    ("en_US", "USD", "{name} is {price}, paid in USD.", 129900, "W is $1,299.00, paid in USD."),
])
def test_a_template_that_writes_the_currency_beside_a_slot_gets_the_amount_without_its_symbol(
        locale, currency, template, stored, want):
    text, swept = _fallback(locale, currency, template, stored, "1")
    assert text == want
    assert swept.decision.decision == "answer", [f.code for f in swept.findings]


def test_an_answer_template_that_writes_the_currency_gets_the_amount_without_its_symbol():
    policy = _shop("ja_JP", "JPY", "{name} is {price}.")
    rows = {"product": [{"sku": "X1", "name": "W", "price": 1299}]}
    decision = check(policy, {"answer_template": "{name}は{price}円です。", "claims": [
        {"key": "name", "type": "text", "entity": "product", "entity_id": "X1",
         "field": "name", "value": "W"},
        {"key": "price", "type": "money", "entity": "product", "entity_id": "X1",
         "field": "price", "value": "1299"}]}, rows, now=_NOW)
    assert (decision.decision, decision.text) == ("answer", "Wは1,299円です。")


# --- fill() alone: the stop and the currency word after a slot ------------------------------

@pytest.mark.parametrize("pieces, value, currencies, locale, want", [
    (("W is ", "price", "."), "1.299,00\xa0kr.", {"price": "DKK"}, "da_DK", "W is 1.299,00\xa0kr."),
    (("W is ", "price", "..."), "1.299,00\xa0kr.", {"price": "DKK"}, "da_DK",
     "W is 1.299,00\xa0kr...."),                                   # an ellipsis stays
    (("W is ", "price", "."), "$1,299.00", {"price": "USD"}, "en_US", "W is $1,299.00."),
    (("Wは", "price", "円です。"), "￥1,299", {"price": "JPY"}, "ja_JP", "Wは1,299円です。"),
    (("Wは", "price", "です。"), "￥1,299", {"price": "JPY"}, "ja_JP", "Wは￥1,299です。"),
    (("Wは", "price", "円です。"), "￥1,299", None, "ja_JP", "Wは￥1,299円です。"),  # not money
])
def test_fill_gives_way_to_the_stop_or_currency_word_after_a_slot(pieces, value, currencies,
                                                                  locale, want):
    assert fill(pieces, {"price": value}, currencies, locale) == want


@pytest.mark.parametrize("type_, stored, locale, want", [
    ({"ratio": True}, 0.0484, "en_US", "4.84%"),        # `decimal ratio`: a ratio
    ({"ratio": True}, "1.056", "de_DE", "105,6\u00a0%"),
    ({"percent": True}, 4.84, "en_US", "4.84%"),        # `decimal percent`: points
])
def test_a_ratio_field_is_shown_as_a_percentage(type_, stored, locale, want):
    from types import SimpleNamespace

    from rulekit.render import format_value
    from rulekit.types import DecimalType
    field = SimpleNamespace(name="engagement_rate", type=DecimalType(**type_))
    assert format_value(field, stored, locale) == want
