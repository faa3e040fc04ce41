"""The parser: grammar health, positions, and bad input turned into diagnostics."""

from __future__ import annotations

import pytest

from rulekit import ast
from rulekit.parse import build_parser, decode_source, parse_source


def test_grammar_builds_with_strict_true():
    # strict=True fails on any shift/reduce conflict or terminal collision (needs interegular).
    build_parser(strict=True)


def test_the_grammar_lexes_exactly_the_duration_units_the_ast_reads():
    (duration,) = [t for t in build_parser().terminals if t.name == "DURATION"]
    units = duration.pattern.value.split("(?:", 1)[1].split(")", 1)[0].split("|")
    assert sorted(units) == sorted(ast.DURATION_UNITS)


def test_spans_point_at_the_source():
    text = 'entity product {\n  key sku\n  field sku identifier\n}\n'
    result = parse_source(text, "shop.rules")
    assert result.diagnostics == ()
    (entity,) = result.file.items
    field = entity.fields[0]
    assert (field.span.line, field.span.column) == (3, 3)
    assert (field.name.span.line, field.name.span.column, field.name.span.end_column) == (3, 9, 12)
    assert text[field.name.span.start:field.name.span.end] == "sku"


def test_keywords_are_ordinary_names_where_only_a_name_fits():
    result = parse_source("entity e {\n  key key\n  field key text\n  field on integer\n}\n")
    assert result.diagnostics == ()
    names = [f.name.value for f in result.file.items[0].fields]
    assert names == ["key", "on"]


def test_strings_decode_escapes_and_keep_the_raw_text():
    result = parse_source('shape s "say \\"hi\\"\\tnow\\\\" { }')
    template = result.file.items[0]
    assert template.text.value == 'say "hi"\tnow\\'
    assert template.text.raw == 'say \\"hi\\"\\tnow\\\\'


def test_comments_are_collected_but_hash_in_strings_is_not_a_comment():
    result = parse_source('# top\nshape s "a # b"  # trailing\n')
    assert [c.text for c in result.file.comments] == ["# top", "# trailing"]


def test_spans_do_not_take_part_in_equality():
    one = parse_source("entity e { key id field id identifier }").file
    two = parse_source("entity e {\n  key id\n\n  field id    identifier\n}\n").file
    assert one == two


@pytest.mark.parametrize("text, code, where", [
    ("entity e { feild id text }", "RK101", (1, 12)),
    ("entity e {\n  key id\n", "RK103", (2, 9)),
    ('shape s "unterminated\n', "RK106", (1, 9)),
    ('shape s "bad \\q escape"', "RK107", (1, 14)),
    ("entity e { key id } %", "RK102", (1, 21)),
    ("entity e { key id }\x00", "RK102", (1, 20)),
])
def test_syntax_errors_are_positioned_diagnostics(text, code, where):
    result = parse_source(text, "x.rules")
    assert result.file is None
    (diagnostic,) = result.diagnostics
    assert diagnostic.code == code
    assert (diagnostic.span.line, diagnostic.span.column) == where


def test_missing_brace_hint_names_the_open_block():
    (diagnostic,) = parse_source("entity order {\n  key id\n", "x.rules").diagnostics
    assert "`entity order {` opened at line 1 is never closed" in diagnostic.hint


def test_misspelt_keyword_gets_a_suggestion():
    (diagnostic,) = parse_source("entity e { feild id text }", "x.rules").diagnostics
    assert diagnostic.hint.startswith("did you mean `field`?")


def test_invalid_utf8_is_located_by_line_and_column():
    text, problems = decode_source(b'entity e {\n  key \xff\n}', "x.rules")
    (problem,) = problems
    assert problem.code == "RK104"
    assert (problem.span.line, problem.span.column) == (2, 7)


def test_oversized_file_is_refused_before_parsing():
    text, problems = decode_source(b"#" * (2 * 1024 * 1024), "big.rules")
    assert text is None and problems[0].code == "RK105"


def test_byte_order_mark_is_accepted():
    text, problems = decode_source("\ufeffentity e { key id field id text }".encode(), "x")
    assert problems == [] and text.startswith("entity")


def test_ast_walk_visits_every_node():
    file = parse_source('entity e { key id field id text label "x" }').file
    kinds = {type(n).__name__ for n in ast.walk(file)}
    assert {"File", "Entity", "KeyDecl", "FieldDecl", "TypeName", "Option", "String"} <= kinds


def test_a_header_setting_named_like_an_option_keyword():
    # LALR merges the states that read a literal; the header has its own value rule so that
    # `currency` after a string is still a setting name.
    result = parse_source('ruleset shop { version "3" currency EUR }')
    assert result.diagnostics == ()
    assert [s.name.value for s in result.file.items[0].settings] == ["version", "currency"]


def test_a_keyword_never_matches_the_start_of_a_longer_word():
    (diagnostic,) = parse_source("prose shapes only\n", "x.rules").diagnostics
    assert diagnostic.message == "unexpected name 'only'"
    (diagnostic,) = parse_source('inputs postcode label "x"\n', "x.rules").diagnostics
    assert diagnostic.message == "unexpected name 'inputs'"
    assert diagnostic.hint.startswith("did you mean `input`?")


@pytest.mark.parametrize("number, plain", [("1E+5", "100000"), ("1e+5", "100000"),
                                           ("2.5e+2", "250")])
def test_an_exponent_with_a_plus_sign_is_the_no_exponent_error(number, plain):
    # `1e+5` lexes as 1, the name e and a `+` that no field option allows; the message is the one
    # the compiler gives `1e5` and `1e-5`, under the whole number.
    text = f"entity e {{\n  field w decimal tolerance {number}\n}}\n"
    (problem,) = parse_source(text, "s.rules").diagnostics
    assert problem.code == "RK304"
    assert problem.message == "a tolerance is a plain number such as 0.05, with no exponent"
    assert text[problem.span.start:problem.span.end] == number
    assert (problem.span.line, problem.span.column) == (2, 29)
    assert problem.hint == f"write it out: `tolerance {plain}`"


def test_a_plus_after_a_name_ending_in_e_is_still_a_syntax_error():
    (problem,) = parse_source("entity e {\n  field w decimal tolerance 1 e+5\n}\n").diagnostics
    assert problem.code == "RK101"
