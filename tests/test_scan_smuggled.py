"""Markup between digits on adversarial input: each text is about 100 KB and must be read in
one pass (no timing assertion: a quadratic pattern would not finish in the suite's time)."""

from __future__ import annotations

import pytest

from rulekit.scan import clean, scan

SIZE = 100_000


def _fill(unit: str) -> str:
    return (unit * (SIZE // len(unit) + 1))[:SIZE]


@pytest.mark.parametrize("unit", ["<b>1</b>", "1<b>", "1<!--", "1<!-- ", "1<span ", "1\\",
                                  "1*1*", "**1**1", "1`", "1~~~~", "1~~1~~", "$<b>",
                                  "1<span class='" + "x" * 190])
def test_markup_between_digits_is_read_in_one_pass(unit: str) -> None:
    text = _fill(unit)
    cleaned, starts = clean(text)
    assert len(starts) == len(cleaned) + 1
    for mention in scan(text):
        assert mention.text == text[mention.start:mention.end]


def test_tags_between_digits_join_them() -> None:
    text = _fill("<b>1</b>")
    numbers = [m for m in scan(text) if m.kind == "number"]
    assert numbers and max(len(m.text) for m in numbers) > 1000
