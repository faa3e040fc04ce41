"""The formatter: one canonical layout, round trips through the parser, every comment kept."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit.fmt import format_file, format_source, quote
from rulekit.parse import parse_source

from strategies import commented, files, respaced, soup_pieces, strings

CASES = Path(__file__).parent / "cases" / "fmt"


def _parsed(text: str):
    result = parse_source(text)
    assert result.diagnostics == (), [d.render(text) for d in result.diagnostics]
    return result.file


def _texts(file) -> list[str]:
    return [c.text for c in file.comments]


def _assert_canonical(formatted: str, file, comments: list[str]) -> None:
    """``formatted`` means ``file``, keeps ``comments`` in order, and is its own layout."""
    again = _parsed(formatted)
    assert again == file
    assert _texts(again) == comments
    assert format_file(again) == formatted


# --- properties -------------------------------------------------------------------------------

# Budgets keep the whole file well under 30 s; drawing the examples costs more than checking.
@settings(max_examples=150, deadline=None)
@given(files)
def test_formatted_text_parses_back_to_the_same_tree(file):
    _assert_canonical(format_file(file), file, [])


@settings(max_examples=150, deadline=None)
@given(files, st.data())
def test_comments_survive_in_order_and_change_nothing_else(file, data):
    messy, inserted = data.draw(commented(format_file(file)))
    formatted, diagnostics = format_source(messy)
    assert diagnostics == ()
    _assert_canonical(formatted, file, inserted)


@settings(max_examples=100, deadline=None)
@given(files, st.data())
def test_any_layout_of_the_same_tokens_formats_the_same(file, data):
    messy, inserted = data.draw(respaced(format_file(file)))
    formatted, diagnostics = format_source(messy)
    assert diagnostics == ()
    _assert_canonical(formatted, file, inserted)
    if not inserted and not re.search(r"\n[ \t]*\n", messy):
        assert formatted == format_file(file)   # nothing to keep but the tokens


@settings(max_examples=300, deadline=None)
@given(st.lists(soup_pieces, max_size=30))
def test_any_text_gives_a_layout_or_diagnostics_and_never_raises(pieces):
    text = " ".join(pieces)
    formatted, diagnostics = format_source(text)
    if formatted is None:
        assert diagnostics
    else:
        file = _parsed(text)
        _assert_canonical(formatted, file, [t.rstrip() for t in _texts(file)])


@settings(max_examples=100, deadline=None)
@given(strings)
def test_quote_writes_a_literal_that_decodes_to_the_value(string):
    (item,) = _parsed(f"import {quote(string.value)}\n").items
    assert item.path.value == string.value


# --- golden cases -----------------------------------------------------------------------------

@pytest.mark.parametrize("source", sorted(CASES.glob("*.rules")), ids=lambda path: path.stem)
def test_golden_layout(source: Path, request):
    text = source.read_text("utf-8")
    golden = source.with_suffix(".expected")
    if request.config.getoption("--update-goldens", default=False):
        golden.write_text(format_source(text, str(source))[0], "utf-8")
    expected = golden.read_text("utf-8")
    assert format_source(text, str(source)) == (expected, ())
    file = _parsed(text)
    _assert_canonical(expected, file, [t.rstrip() for t in _texts(file)])


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


def test_windows_line_endings_and_trailing_white_space_go():
    text = 'import "a"   # note \t\r\nimport "b"\r\n\r\n\r\n# end\r\n'
    assert format_source(text) == ('import "a"  # note\nimport "b"\n\n# end\n', ())


def test_triple_quoted_strings_are_printed_as_written():
    text = ('tenant user_id\n\nsource s {\n  sql """\n    SELECT a, b  # not a comment\\n\n'
            '    FROM t WHERE user_id = :user_id\n"""  # a comment\n  default\n}\n')
    assert format_source(text) == (text, ())
    (_, source) = _parsed(text).items
    assert source.statements[0].sql.value.startswith("\n    SELECT a, b  # not a comment\\n\n")


def test_messy_sources_format_the_same_as_tidy_ones():
    messy = ('tenant   user_id source s{default sql """SELECT 1\n AS a"""\nkeywords "a","b" '
             'window 30d}\nentity e{key id source table "t" scoped by owner_id field id '
             'identifier column "ident"}')
    assert format_source(messy) == (
        'tenant user_id\n\nsource s {\n  default\n  sql """SELECT 1\n AS a"""\n'
        '  keywords "a", "b"\n  window 30d\n}\n\nentity e {\n  key id\n'
        '  source table "t" scoped by owner_id\n  field id identifier column "ident"\n}\n', ())


def test_the_shipped_rulesets_are_formatted():
    """`rulekit fmt --check rulesets/` is a promise of the project: every example is in the
    canonical layout, so a diff of a ruleset shows only what changed."""
    from pathlib import Path

    from rulekit.fmt import format_source

    root = Path(__file__).resolve().parent.parent / "rulesets"
    for path in sorted(root.glob("**/*.rules")):
        text = path.read_text(encoding="utf-8")
        formatted, diagnostics = format_source(text, str(path))
        assert not diagnostics, path
        assert formatted == text, f"{path.name} is not formatted: run rulekit fmt {path}"
