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
                                  "1<span class='" + "x" * 190, "<span>1</span>.<span>2</span>",
                                  "1.<b>", "1<b><b>.<b>"])
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


def test_number_chars_are_every_other_number_of_unicode() -> None:
    """``_NUMBER_CHARS`` holds every No and Nl character but the ideographic zero (which the
    CJK reader reads): a run holding one is read character by character."""
    import re
    import sys
    import unicodedata

    from rulekit.scan.reader import _NUMBER_CHARS

    listed = re.compile(f"[{_NUMBER_CHARS}]")
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        wanted = unicodedata.category(char) in ("No", "Nl") and char != "\u3007"
        assert bool(listed.match(char)) == wanted, f"U+{code:04X}"


@pytest.mark.parametrize(("text", "value"), [("$➎⓿⓿", "500"), ("Ⅻ", "12"), ("❺", "5"),
                                             ("➓", "10"), ("㊄", "5"), ("〥", "5"), ("፭", "5"),
                                             ("𝍤", "5"), ("༳", "-0.5")])
def test_number_characters_are_read_by_their_value(text: str, value: str) -> None:
    for form in (text, text + " &amp; ﬁ"):      # the general path of the reader too
        (mention,) = [m for m in scan(form) if m.kind == "number"]
        assert (mention.text, str(mention.value)) == (text, value)
