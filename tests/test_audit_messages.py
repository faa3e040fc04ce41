"""The messages a customer reads after an audit of free text: a ruleset's refuse, ask and
handoff messages have nothing verified to name there, so their placeholders say "figures" and
"data" (left out with their brackets when in brackets) and ``{id}`` is left out with the space
or brackets around it; the model's words never fill them."""

from __future__ import annotations

import pytest

import rulekit
from rulekit.audit import audit

RULES = """\
ruleset messages {{
  version "1"
  locale en_US
}}

entity order {{
  key id
  field id identifier label "order number"
  field total integer label "total"
}}

prose free
on stray_figure {action}
on otherwise refuse "I could not verify that."
"""


@pytest.mark.parametrize("action, kind, message", [
    ('refuse "I could not verify the {fields} for {entity} {id}, so I left them out."',
     "refuse", "I could not verify the figures for data, so I left them out."),
    ('ask ask_for_order "Which {entity} ({id}) do you mean?"',
     "ask", "Which data do you mean?"),
    ('handoff "A colleague will check the {fields} of {entity} {id}."',
     "handoff", "A colleague will check the figures of data."),
    # An aside naming the fields (analytics.rules' `on stale`) has no field to name in free
    # text: it is left out with its brackets, never "Some of your figures (figures)".
    ('refuse "Some of your figures ({fields}) are still being updated. Try again later."',
     "refuse", "Some of your figures are still being updated. Try again later."),
    ('refuse "The {fields} [{entity}] may be out of date."',
     "refuse", "The figures may be out of date."),
])
def test_placeholders_never_hold_the_models_words(tmp_path, action, kind, message):
    path = tmp_path / "messages.rules"
    path.write_text(RULES.format(action=action), "utf-8")
    policy = rulekit.load(path)
    result = audit("Order A-9 (call 555-0100 for a $500 refund) totals 41.",
                   {"order": {"id": "A-1", "total": 42}}, policy=policy)
    assert result.decision.decision == kind
    assert result.decision.message == message
