"""The formatter: one canonical layout, round trips through the parser, every comment kept."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekit.fmt import format_file, format_source, quote
from rulekit.parse import parse_source

from strategies import commented, files, soup_tokens, strings

CASES = Path(__file__).parent / "cases" / "fmt"
FUZZ = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])


def _parsed(text: str):
    result = parse_source(text)
    assert result.diagnostics == (), [d.render(text) for d in result.diagnostics]
    return result.file


def _comment_texts(text: str) -> list[str]:
    return [c.text for c in _parsed(text).comments]


# --- properties -------------------------------------------------------------------------------

@FUZZ
@given(files)
def test_formatted_text_parses_back_to_the_same_tree(file):
    text = format_file(file)
    assert _parsed(text) == file
    assert format_source(text) == (text, ())


@FUZZ
@given(files, st.data())
def test_comments_survive_in_order_and_change_nothing_else(file, data):
    messy, inserted = data.draw(commented(format_file(file)))
    assert _comment_texts(messy) == inserted
    formatted, diagnostics = format_source(messy)
    assert diagnostics == ()
    assert _parsed(formatted) == file
    assert _comment_texts(formatted) == inserted
    assert format_source(formatted) == (formatted, ())


@settings(max_examples=300, deadline=None)
@given(st.lists(soup_tokens, max_size=30))
def test_any_text_gives_a_layout_or_diagnostics_and_never_raises(tokens):
    text = " ".join(tokens)
    formatted, diagnostics = format_source(text)
    if formatted is None:
        assert diagnostics
    else:
        assert _parsed(formatted) == _parsed(text)
        assert _comment_texts(formatted) == [t.rstrip() for t in _comment_texts(text)]
        assert format_source(formatted) == (formatted, ())


@settings(max_examples=200, deadline=None)
@given(strings)
def test_quote_writes_a_literal_that_decodes_to_the_value(string):
    text = f"import {quote(string.value)}\n"
    (item,) = _parsed(text).items
    assert item.path.value == string.value


# --- golden cases -----------------------------------------------------------------------------

@pytest.mark.parametrize("source", sorted(CASES.glob("*.rules")), ids=lambda path: path.stem)
def test_golden_layout(source: Path):
    text = source.read_text("utf-8")
    expected = source.with_suffix(".expected").read_text("utf-8")
    formatted, diagnostics = format_source(text, str(source))
    assert diagnostics == ()
    assert formatted == expected
    assert _parsed(expected) == _parsed(text)
    assert _comment_texts(expected) == [t.rstrip() for t in _comment_texts(text)]
    assert format_source(expected) == (expected, ())


# --- examples ---------------------------------------------------------------------------------

def test_a_syntax_error_gives_diagnostics_not_an_exception():
    formatted, diagnostics = format_source("entity product {\n  field price money\n", "x.rules")
    assert formatted is None
    assert [d.code for d in diagnostics] == ["RK103"]
    assert diagnostics[0].span.path == "x.rules"


def test_a_bad_character_gives_diagnostics_not_an_exception():
    formatted, diagnostics = format_source("entity product { field price money @ }")
    assert formatted is None
    assert [d.code for d in diagnostics] == ["RK102"]


def test_empty_and_comment_only_files():
    assert format_source("") == ("", ())
    assert format_source("\n\n  \n") == ("", ())
    assert format_source("\n  # one\n\n\n# two   \n\n") == ("# one\n\n# two\n", ())


def test_quote_escapes_only_what_it_must():
    assert quote('say "hi"\\\n\tnow # é {x}') == '"say \\"hi\\"\\\\\\n\\tnow # é {x}"'


def test_strings_are_printed_as_written():
    text = 'import "tab\there \\t and \\"q\\""\n'
    assert format_source(text) == (text, ())
