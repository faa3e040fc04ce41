"""Hypothesis strategies shared by the tests: random but syntactically valid ASTs, and messy
variants of a formatted text (comments and blank lines inserted).

Nodes are built without spans (``ast.NO_SPAN``); spans take no part in equality.
"""

from __future__ import annotations

import re

from hypothesis import strategies as st

from rulekit import ast
from rulekit.parse import keywords

KEYWORDS = frozenset(keywords().values())

# --- literals ---------------------------------------------------------------------------------

# A few common names (cheap to draw, and they repeat like real names do) and random ones.
name_texts = st.one_of(
    st.sampled_from(["a", "b", "sku", "price", "order_total", "_", "x9", "colour"]),
    st.from_regex(r"[a-z_][a-z0-9_]{0,7}", fullmatch=True).filter(lambda t: t not in KEYWORDS),
)
names = name_texts.map(ast.Name)

numbers = st.from_regex(r"-?[0-9]{1,6}(\.[0-9]{1,3})?", fullmatch=True).map(ast.Number)
durations = st.from_regex(r"[0-9]{1,4}(ms|s|m|h|d|w)", fullmatch=True).map(ast.Duration)

# (decoded, as written) pieces of a string: any character but a quote, backslash or newline as
# itself, the four escapes, and a tab written literally (which the lexer also accepts).
_plain_characters = st.characters(blacklist_categories=("Cs",), blacklist_characters='"\\\n')
_string_pieces = st.one_of(
    _plain_characters.map(lambda char: (char, char)),
    st.sampled_from([('"', '\\"'), ("\\", "\\\\"), ("\n", "\\n"), ("\t", "\\t"), ("\t", "\t"),
                     ("#", "#"), ("é", "é"), ("€", "€"), ("{", "{"), (" ", " ")]),
)
strings = st.lists(_string_pieces, max_size=12).map(
    lambda pieces: ast.String("".join(p[0] for p in pieces), "".join(p[1] for p in pieces)))

# A triple-quoted string keeps its text as written: line breaks, backslashes, '#' and single or
# double quotes are all plain text. It cannot hold three quotes in a row or end with a quote
# (the closing """ would start early). No carriage returns: a formatted file has none.
_triple_characters = st.one_of(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\r"),
    st.sampled_from(['"', "\n", "\\", "#", " ", "  ", "\t", "'", "SELECT", ":user_id", "--"]),
)
triple_strings = st.lists(_triple_characters, max_size=12).map("".join).filter(
    lambda text: '"""' not in text and not text.endswith('"')).map(
    lambda text: ast.String(text, text, triple=True))
# The SQL of a source: a query on one line, or across lines in triple quotes. The parser does
# not judge SQL (the compiler does), so any text will do.
sql_strings = st.one_of(strings, triple_strings)

literals = st.one_of(strings, numbers, durations)
setting_values = st.one_of(strings, numbers, names)     # the grammar takes no duration here


def _tuples(elements, min_size=0, max_size=4):
    return st.lists(elements, min_size=min_size, max_size=max_size).map(tuple)


field_refs = st.builds(ast.FieldRef, names, names)

# --- entities, inputs, aliases ----------------------------------------------------------------

options = st.one_of(
    st.builds(ast.Option, names, st.none() | literals),
    st.builds(ast.Option, st.just(ast.Name("currency")), names),
    st.builds(ast.PlaceholderOption, _tuples(literals, 1, 3), st.none() | names),
)
type_exprs = st.one_of(
    st.builds(ast.TypeName, names),
    st.builds(ast.EnumRef, names),
    st.builds(ast.EnumInline, _tuples(st.builds(ast.EnumValue, names, st.none() | strings), 1, 4)),
)
entity_statements = st.one_of(
    st.builds(ast.KeyDecl, names),
    st.builds(ast.FreshDecl, durations, names),
    st.builds(ast.RequiresDecl, _tuples(names, 1, 3)),
    st.builds(ast.FieldDecl, names, type_exprs, _tuples(options, 0, 3)),
    st.builds(ast.FieldDecl, names, type_exprs, _tuples(options, 0, 3)),
    st.builds(ast.TableSource, strings, st.none() | names),
    st.builds(ast.TableSource, strings, st.none(), st.just(ast.Name("shared"))),
    st.builds(ast.SqlSource, sql_strings, st.none() | st.just(ast.Name("shared"))),
)

# --- where facts come from: the tenant and routed sources ------------------------------------

source_statements = st.one_of(
    st.builds(ast.SourceSql, sql_strings),
    st.builds(ast.SourceKeywords, _tuples(strings, 1, 3)),
    st.builds(ast.SourceWindow, durations),
    st.builds(ast.SourceFlag, st.sampled_from(["default", "always", "shared"]).map(ast.Name)),
)

# --- sweep and actions ------------------------------------------------------------------------

targets = st.one_of(field_refs, st.builds(ast.JsonPath, strings))
sweep_statements = st.one_of(
    st.builds(ast.SmallIntegers, st.none() | numbers, _tuples(names, 1, 3)),
    st.builds(ast.Rounding, _tuples(field_refs, 1, 3)),
    st.builds(ast.Authoritative, _tuples(targets, 1, 3)),
    st.builds(ast.Untrusted, _tuples(targets, 1, 3)),
    st.builds(ast.Exempt, _tuples(literals, 1, 3)),
    st.builds(ast.SweepPlaceholder, _tuples(literals, 1, 3)),
)
outcomes = st.one_of(
    st.builds(ast.Outcome, st.just("name"), names),
    st.builds(ast.Outcome, st.just("missing"), names),
    st.builds(ast.Outcome, st.just("otherwise"), st.none()),
)
regenerate_options = st.one_of(
    st.builds(ast.RegenerateOption, st.sampled_from(["max", "naming"]), numbers),
    st.builds(ast.RegenerateOption, st.sampled_from(["with_values", "narrow"]), st.none()),
)
final_actions = st.one_of(
    st.builds(ast.Refuse, strings),
    st.builds(ast.Ask, names, st.none() | strings),
    st.builds(ast.Handoff, st.none() | strings),
    st.builds(ast.UseFallback, names),
)
actions = st.one_of(final_actions,
                    st.builds(ast.Regenerate, _tuples(regenerate_options, 0, 4), final_actions))

# --- items and files --------------------------------------------------------------------------

header_settings = st.one_of(
    st.builds(ast.Setting, names, setting_values),
    st.builds(ast.Setting, st.just(ast.Name("dialect")),
              st.sampled_from(["sqlite", "postgres", "mysql", "duckdb"]).map(ast.Name)),
)
items = st.one_of(
    st.builds(ast.Header, names, _tuples(header_settings)),
    st.builds(ast.Import, strings),
    st.builds(ast.Entity, names, _tuples(entity_statements, 0, 6)),
    st.builds(ast.Aliases, names, _tuples(st.one_of(
        st.builds(ast.AliasEntry, names, _tuples(strings, 1, 3), st.none() | strings),
        st.builds(ast.AliasEntry, names, st.just(()), strings)))),
    st.builds(ast.Input, names, _tuples(options, 0, 3)),
    st.builds(ast.Template, st.sampled_from(["shape", "fallback"]), names, strings,
              _tuples(st.builds(ast.Binding, names, field_refs))),
    st.builds(ast.Prose, names),
    st.builds(ast.Sweep, _tuples(sweep_statements, 0, 6)),
    st.builds(ast.OnRule, _tuples(outcomes, 1, 3), actions),
    st.builds(ast.Tenant, names),
    st.builds(ast.DataSource, names, _tuples(source_statements, 0, 5)),
)
files = _tuples(items, 0, 6).map(lambda parts: ast.File("<generated>", parts))

# --- messy text -------------------------------------------------------------------------------

comment_texts = st.text(
    st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), max_size=20,
).map(lambda text: ("#" + text).rstrip())
_indents = st.sampled_from(["", " ", "  ", "\t", "      "])


# A string literal: triple-quoted first, as the grammar's STRING tries it.
_STRING = r'"""(?:[^"]|"(?!""))*"""|"(?:[^"\\\n]|\\["\\nt])*"'


def _lines(text: str) -> list[str]:
    """The lines of ``text`` (which ends in a newline and has no comments), a line break inside
    a triple-quoted string not counting: nothing may be inserted there."""
    inside = [range(m.start(), m.end()) for m in re.finditer(_STRING, text) if "\n" in m.group()]
    lines, start = [], 0
    for at, char in enumerate(text):
        if char == "\n" and not any(at in span for span in inside):
            lines.append(text[start:at])
            start = at + 1
    return lines


@st.composite
def commented(draw, text: str) -> tuple[str, list[str]]:
    """``text`` (whole lines, ending in a newline) with comment lines, trailing comments and
    blank lines inserted at random line boundaries; returns the new text and the comment texts
    in order."""
    lines = _lines(text) if text else []
    out: list[str] = []
    inserted: list[str] = []
    for line in [*lines, None]:
        for _ in range(draw(st.integers(0, 2))):
            if draw(st.booleans()):
                out.append("")
            else:
                inserted.append(draw(comment_texts))
                out.append(draw(_indents) + inserted[-1])
        if line is None:
            break
        if draw(st.booleans()):
            inserted.append(draw(comment_texts))
            line += draw(st.sampled_from([" ", "  ", "\t"])) + inserted[-1]
        out.append(line)
    return "".join(line + "\n" for line in out), inserted


# A string literal, or a run of anything else up to white space or a quote.
_TOKEN = re.compile(_STRING + r'|[^\s"]+')
_separators = st.sampled_from([" ", " ", "\n", "\t", "  \n\n\n   ", "\n\n", "comment"])


@st.composite
def respaced(draw, text: str) -> tuple[str, list[str]]:
    """``text`` with its tokens laid out at random: several statements on a line, one token a
    line, odd indentation, runs of blank lines, and comments at the end of random lines; returns
    the new text and the comment texts in order."""
    out: list[str] = []
    inserted: list[str] = []
    for token in _TOKEN.findall(text):
        separator = draw(_separators)
        if separator == "comment":
            inserted.append(draw(comment_texts))
            separator = f" {inserted[-1]}\n{draw(_indents)}"
        out += [token, separator]
    return "".join(out), inserted


# Pieces of rules text for a soup: mostly whole statements, block openers and `}` (so that a fair
# share of soups parse), keywords used where only a name fits, and some stray tokens.
soup_pieces = st.sampled_from([
    'ruleset r {', "tone friendly", "limit 2", "}", "}", "}", 'import "x.rules"', "prose strict",
    "entity e {", "entity key {", "key sku", "key key", "field f text", "field on integer hidden",
    "field s enum { a, b }", "field p money currency EUR placeholder -1, \"n/a\" unless t",
    "fresh within 15m via f", "requires on, key", "aliases t {", 'a = "x", "y"',
    "input i hidden", "input on", 'shape s "t {x}" {', 'fallback f "sorry"', "x = a.b",
    "sweep {", "small integers up to 12 as month", "rounding allowed for a.b",
    'untrusted r.body, "$.x"', 'exempt "24/7", 365', "on a, missing b refuse \"no\"",
    "on otherwise regenerate max 1 with values then handoff", "ask h", "# a comment", "#",
    "\n", "\n\n", "\t", "{", ",", ".", "=", "1.5", "2h", '"q\\\\ \\" #"', '"bad\\q"', '"open', "@",
    "tenant user_id", "tenant source", "source s {", "source table {", 'sql "SELECT 1"',
    'sql """SELECT a\n  FROM t # no comment\n"""', 'keywords "which post", "best"', "window 30d",
    "default", "always", "shared", 'source table "t" scoped by owner_id', 'source table "t" shared', 'source sql """x\\n"""', '"""',
    '""""""', "dialect postgres",
])
