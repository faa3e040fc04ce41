"""rulekit.compare: a claimed amount read in the ruleset's locale, as a customer writes it."""

from __future__ import annotations

import pytest

from rulekit.compare import compare
from rulekit.types import MoneyType


@pytest.mark.parametrize("locale, currency, claimed, stored", [
    # Rs, Rs. and ₹ are the rupee of an Indian shop, not the Seychelles one
    ("en_IN", "INR", "Rs 1,29,900", 12990000),
    ("en_IN", "INR", "Rs. 1,29,900", 12990000),
    ("en_IN", "INR", "₹1,29,900", 12990000),
    ("en_IN", "INR", "Rs. 1,29,900/-", 12990000),
    ("en_US", "INR", "Rs 1,299", 129900),            # a ruleset whose currency is INR
    ("en_CA", "CAD", "C$20", 2000),
    ("en_US", "CAD", "C$20", 2000),
    ("da_DK", "DKK", "1.299 kr", 129900),
    ("da_DK", "DKK", "1 299 kr", 129900),
    ("da_DK", "DKK", "1.299,00 kr.", 129900),
    ("sv_SE", "SEK", "1 299 kr", 129900),
    ("de_DE", "EUR", "1.299,– €", 129900),
    ("de_DE", "EUR", "49,- EUR", 4900),
    ("de_DE", "EUR", "1.299,00 €", 129900),
])
def test_a_local_notation_of_the_fields_currency_is_confirmed(locale, currency, claimed, stored):
    result = compare(MoneyType(currency=currency), "money", claimed, stored, locale)
    assert result.outcome == "confirmed", result


@pytest.mark.parametrize("locale, currency, claimed, stored", [
    ("en_IN", "INR", "Rs 1,29,901", 12990000),       # the wrong amount
    ("en_IN", "INR", "Rs. 1,29,901", 12990000),
    ("en_IN", "INR", "Rs. 1,29,901/-", 12990000),
    ("da_DK", "DKK", "1.300 kr", 129900),
    ("de_DE", "EUR", "1.300,– €", 129900),
    ("en_US", "USD", "C$20", 2000),                  # Canadian dollars against US ones
    ("en_CA", "USD", "$20", 2000),                   # "$" is CAD in Canada
    ("en_SC", "INR", "Rs 1,299", 129900),            # "Rs" is the Seychelles rupee there
    ("da_DK", "EUR", "1.299 kr", 129900),            # crowns against euros
])
def test_another_amount_or_currency_is_contradicted(locale, currency, claimed, stored):
    result = compare(MoneyType(currency=currency), "money", claimed, stored, locale)
    assert result.outcome == "contradicted", result


@pytest.mark.parametrize("claimed, outcome", [
    ("4.84%", "confirmed"),         # `decimal ratio`: 0.0484 is 4.84 %
    ("0.0484", "confirmed"),        # the ratio as stored
    ("0.0484%", "contradicted"),    # the ratio read as points
    ("7.37%", "contradicted"),
])
def test_a_ratio_field_is_claimed_as_a_percentage(claimed, outcome):
    from decimal import Decimal

    from rulekit.types import DecimalType
    result = compare(DecimalType(ratio=True), "decimal", claimed, Decimal("0.0484"), "en_US")
    assert result.outcome == outcome, result
