"""rulekit.render: filling a message whose placeholder has nothing to show; money as the
locales write it, without marks the sweep refuses or a stop or sign said twice."""

from __future__ import annotations

import pytest

from rulekit.audit import audit
from rulekit.policy import Field
from rulekit.render import fill, fill_message, format_value
from rulekit.types import MoneyType
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


# --- money in the locales whose notation babel writes with marks or stops (probe money f9) ------


def _price(currency: str) -> Field:
    return Field(name="price", type=MoneyType(kind="money", currency=currency, storage="minor"),
                 readable=True, sensitive=False, label="price", placeholders=(),
                 fresh_seconds=None)


@pytest.mark.parametrize("locale, currency, minor", [("ar_KW", "KWD", 12345),
                                                     ("ar_BH", "BHD", 1500),
                                                     ("ar_EG", "EGP", 129900)])
def test_money_rendered_in_arabic_holds_no_direction_mark_the_sweep_refuses(locale, currency,
                                                                            minor):
    shown = format_value(_price(currency), minor, locale)
    assert not set(shown) & {"\u200e", "\u200f", "\u061c"}, repr(shown)
    result = audit(fill(("W is ", "price", "."), {"price": shown}),
                   {"product": {"name": "W", "price_minor": minor, "currency": currency}},
                   locale=locale)
    assert "direction_control" not in {f.code for f in result.findings}, result.findings


@pytest.mark.parametrize("pieces, value, want", [
    (("W is ", "price", "."), "1.299,00\xa0kr.", "W is 1.299,00\xa0kr."),      # da_DK
    (("W is ", "price", "..."), "1.299,00\xa0kr.", "W is 1.299,00\xa0kr...."),  # an ellipsis stays
    (("W is ", "price", "."), "$1,299.00", "W is $1,299.00."),
    (("Wは", "price", "円です。"), "￥1,299", "Wは1,299円です。"),               # ja_JP
    (("Wは", "price", "です。"), "￥1,299", "Wは￥1,299です。"),
])
def test_a_value_gives_way_to_the_stop_or_currency_word_after_its_slot(pieces, value, want):
    assert fill(pieces, {"price": value}) == want
