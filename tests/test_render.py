"""rulekit.render: filling a message whose placeholder has nothing to show."""

from __future__ import annotations

import pytest

from rulekit.render import fill_message
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
