"""Replies a scripted model gives in the loop and adapter tests (shop.rules, product RC-500)."""

from __future__ import annotations

import json


def price_reply(price: str) -> str:
    """A claims reply naming the raincoat and its price, as the model would write it."""
    return json.dumps({"answer_template": "{name} is {price}.", "claims": [
        {"key": "name", "type": "text", "entity": "product", "entity_id": "RC-500",
         "field": "name", "value": "Navy raincoat"},
        {"key": "price", "type": "money", "entity": "product", "entity_id": "RC-500",
         "field": "price", "value": price}]})
