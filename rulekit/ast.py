"""The typed, frozen syntax tree of a rules file.

Every node carries the ``Span`` it came from. Spans take no part in equality, so two trees
parsed from differently laid-out text compare equal when they mean the same thing; that is
what ``parse(fmt(x)) == parse(x)`` relies on. Nodes hold no behaviour beyond walking.
"""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from typing import Iterator, Union

from rulekit.errors import Span

NO_SPAN = Span("<none>", 0, 0, 0, 0)


def _span():
    return dataclasses.field(default=NO_SPAN, compare=False, repr=False, kw_only=True)


node = dataclasses.dataclass(frozen=True, slots=True)


# --- literals ---------------------------------------------------------------------------------

@node
class Name:
    value: str
    span: Span = _span()


@node
class String:
    value: str          # decoded
    # As written between the quotes, escapes kept; slot spans index into it. Two strings that
    # mean the same are equal however they were written.
    raw: str = dataclasses.field(compare=False)
    triple: bool = dataclasses.field(default=False, compare=False)   # written """..."""
    span: Span = _span()

    def offset_of(self, index: int) -> int:
        """The file offset of character ``index`` of ``value``: SQL problems found in the
        decoded text are reported at their place in the rules file."""
        if self.triple:   # the value is the raw text with CRLF read as LF
            raw_index = decoded = 0
            while decoded < index and raw_index < len(self.raw):
                raw_index += 2 if self.raw.startswith("\r\n", raw_index) else 1
                decoded += 1
            return self.span.start + 3 + raw_index
        raw_index = decoded = 0
        while decoded < index and raw_index < len(self.raw):
            raw_index += 2 if self.raw[raw_index] == "\\" else 1
            decoded += 1
        return self.span.start + 1 + raw_index


@node
class Number:
    text: str
    span: Span = _span()

    @property
    def value(self) -> Decimal:
        return Decimal(self.text)


@node
class Duration:
    text: str
    span: Span = _span()

    @property
    def seconds(self) -> float:
        digits = self.text.rstrip("abcdefghijklmnopqrstuvwxyz")
        return int(digits) * DURATION_UNITS[self.text[len(digits):]]


# The units of a duration (`15m`, `2w`) in seconds; the grammar's DURATION lists the same ones.
DURATION_UNITS = {"ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}


Literal = Union[String, Number, Duration]
Value = Union[String, Number, Duration, Name]


# --- header and imports -----------------------------------------------------------------------

@node
class Setting:
    name: Name
    value: Value
    span: Span = _span()


@node
class Header:
    name: Name
    settings: tuple[Setting, ...]
    span: Span = _span()


@node
class Import:
    path: String
    span: Span = _span()


# --- entities ---------------------------------------------------------------------------------

@node
class TypeName:
    name: Name
    span: Span = _span()


@node
class EnumRef:
    table: Name
    span: Span = _span()


@node
class EnumValue:
    """A value an enum stores, and the label text shows for it (``room_only label "room only"``)."""
    name: Name
    label: String | None = None
    span: Span = _span()


@node
class EnumInline:
    values: tuple[EnumValue, ...]
    span: Span = _span()


TypeExpr = Union[TypeName, EnumRef, EnumInline]


@node
class Option:
    """``hidden``, ``tolerance 0.05``, ``zone "Europe/Berlin"``, ``currency EUR``..."""
    name: Name
    value: Value | None
    span: Span = _span()


@node
class PlaceholderOption:
    """``placeholder -1, "N/A"`` or ``placeholder 0 unless putts_tracked``."""
    values: tuple[Literal, ...]
    unless: Name | None
    span: Span = _span()


@node
class SaidAs:
    """``said as "points", "pts"``: the words and units that name the field in free text."""
    words: tuple[String, ...]
    span: Span = _span()


FieldOption = Union[Option, PlaceholderOption, SaidAs]


@node
class FieldDecl:
    name: Name
    type: TypeExpr
    options: tuple[FieldOption, ...]
    span: Span = _span()


@node
class KeyDecl:
    field: Name
    span: Span = _span()


@node
class FreshDecl:
    budget: Duration
    via: Name
    span: Span = _span()


@node
class RequiresDecl:
    inputs: tuple[Name, ...]
    matching: tuple[tuple[Name, Name], ...] = ()     # (input, the field it must equal)
    span: Span = _span()


@node
class TableSource:
    """``source table "orders" scoped by owner_id``: the rows live in a table. ``shared``: in a
    ruleset scoped by a tenant, its rows are every user's (no tenant column)."""
    table: String
    scoped_by: Name | None = None
    shared: Name | None = None          # `shared`, where it is written
    span: Span = _span()


@node
class SqlSource:
    """``source sql "SELECT ..."``: the rows are what the author's SELECT returns; ``shared``,
    as for ``TableSource``: the query need not (and may not) name the tenant."""
    sql: String
    shared: Name | None = None
    span: Span = _span()


@node
class Mentioned:
    """``mentioned as PLAYER_NAME, SECOND_NAME, "the home side"``: fields whose values name a row
    in free text, and literal aliases."""
    names: tuple[Union[Name, String], ...]
    span: Span = _span()


@node
class Pronouns:
    """``pronouns "he", "his"``: words that may stand for the row last named."""
    words: tuple[String, ...]
    span: Span = _span()


@node
class Forms:
    """``said as "{FGM}-of-{FGA}"``: compound forms stating several fields at once."""
    forms: tuple[String, ...]
    span: Span = _span()


@node
class Ranks:
    """``ranks PTS within TEAM_NAME said as "{rank} on the team"``: a row's place by ``field``
    among the rows with its ``within`` value, as the forms state it."""
    field: Name
    within: Name
    forms: tuple[String, ...]
    span: Span = _span()


EntityStatement = Union[KeyDecl, FreshDecl, RequiresDecl, FieldDecl, TableSource, SqlSource,
                        Mentioned, Pronouns, Forms, Ranks]


@node
class Entity:
    name: Name
    statements: tuple[EntityStatement, ...]
    # ``from evidence "$.players[*]"``: JSON paths to the rows, for binding (docs/binding.md).
    evidence: tuple[String, ...] = ()
    span: Span = _span()

    @property
    def fields(self) -> tuple[FieldDecl, ...]:
        return tuple(s for s in self.statements if isinstance(s, FieldDecl))


# --- sources of evidence, routed by keywords; the tenant scope ---------------------------------

@node
class Tenant:
    """``tenant user_id``: every query runs with the verified user's id, bound as ``:user_id``."""
    param: Name
    span: Span = _span()


@node
class SourceSql:
    sql: String
    span: Span = _span()


@node
class SourceKeywords:
    keywords: tuple[String, ...]
    span: Span = _span()


@node
class SourceWindow:
    window: Duration
    span: Span = _span()


@node
class SourceFlag:
    """``default`` (runs when no keyword matched), ``always`` (runs for every question) or
    ``shared`` (in a scoped ruleset, its rows are every user's: its query names no tenant)."""
    flag: Name
    span: Span = _span()


SourceStatement = Union[SourceSql, SourceKeywords, SourceWindow, SourceFlag]


@node
class DataSource:
    name: Name
    statements: tuple[SourceStatement, ...]
    span: Span = _span()


# --- aliases and inputs -----------------------------------------------------------------------

@node
class AliasEntry:
    """``value label "Label" = "alias", ...``: the label is optional, and so are the aliases
    when a label is given."""
    value: Name
    aliases: tuple[String, ...]
    label: String | None = None
    span: Span = _span()


@node
class Aliases:
    name: Name
    entries: tuple[AliasEntry, ...]
    span: Span = _span()


@node
class Input:
    name: Name
    options: tuple[FieldOption, ...]
    span: Span = _span()


# --- templates and prose ----------------------------------------------------------------------

@node
class FieldRef:
    entity: Name
    field: Name
    span: Span = _span()

    def dotted(self) -> str:
        return f"{self.entity.value}.{self.field.value}"


@node
class Binding:
    slot: Name
    ref: FieldRef
    span: Span = _span()


@node
class Template:
    kind: str                       # "shape" or "fallback"
    name: Name
    text: String
    bindings: tuple[Binding, ...]
    span: Span = _span()


@node
class Prose:
    """``prose guarded forbid "refund", "waive"``: the mode, and the ruleset's own forbidden
    phrases."""
    mode: Name
    forbid: tuple[String, ...] = ()
    span: Span = _span()


# --- sweep ------------------------------------------------------------------------------------

@node
class JsonPath:
    path: String
    span: Span = _span()


Target = Union[FieldRef, JsonPath]


@node
class SmallIntegers:
    limit: Number | None
    contexts: tuple[Name, ...]
    span: Span = _span()


@node
class Rounding:
    fields: tuple[FieldRef, ...]
    span: Span = _span()


@node
class Authoritative:
    targets: tuple[Target, ...]
    span: Span = _span()


@node
class Untrusted:
    targets: tuple[Target, ...]
    span: Span = _span()


@node
class Exempt:
    values: tuple[Literal, ...]
    span: Span = _span()


@node
class SweepPlaceholder:
    values: tuple[Literal, ...]
    span: Span = _span()


SweepStatement = Union[SmallIntegers, Rounding, Authoritative, Untrusted, Exempt, SweepPlaceholder]


@node
class Sweep:
    statements: tuple[SweepStatement, ...]
    span: Span = _span()


# --- derived figures ------------------------------------------------------------------------

@node
class Constant:
    value: Number
    span: Span = _span()


@node
class Aggregate:
    """``max(team.PTS)``: a function over one field of every located row; ``more`` fields of
    the same row are added to it first (``max(team.PTS_QTR1 + team.PTS_QTR2)``)."""
    function: Name
    ref: "FieldRef"
    more: tuple["FieldRef", ...] = ()
    span: Span = _span()


@node
class DerivedRef:
    """Another derived figure, by name."""
    name: Name
    span: Span = _span()


@node
class BinaryOp:
    op: str                         # "+", "-", "*" or "/"
    left: "Expr"
    right: "Expr"
    span: Span = _span()


Expr = Union[Constant, Aggregate, DerivedRef, BinaryOp]


@node
class Derived:
    """``derived margin = max(team.PTS) - min(team.PTS) said as "{margin}-point"``."""
    name: Name
    expr: Expr
    said: tuple[String, ...] = ()
    span: Span = _span()


# --- failure actions --------------------------------------------------------------------------

@node
class Outcome:
    """``contradicted``; ``missing postcode`` (kind "missing"); ``otherwise``."""
    kind: str                       # "name", "missing" or "otherwise"
    name: Name | None
    span: Span = _span()


@node
class RegenerateOption:
    kind: str                       # "max", "naming", "with_values" or "narrow"
    value: Number | None
    span: Span = _span()


@node
class Refuse:
    message: String
    span: Span = _span()


@node
class Ask:
    hint: Name
    message: String | None
    span: Span = _span()


@node
class Handoff:
    message: String | None
    span: Span = _span()


@node
class UseFallback:
    name: Name
    span: Span = _span()


FinalAction = Union[Refuse, Ask, Handoff, UseFallback]


@node
class Regenerate:
    options: tuple[RegenerateOption, ...]
    then: FinalAction
    span: Span = _span()


Action = Union[Regenerate, Refuse, Ask, Handoff, UseFallback]


@node
class OnRule:
    outcomes: tuple[Outcome, ...]
    action: Action
    span: Span = _span()


# --- the file ---------------------------------------------------------------------------------

Item = Union[Header, Import, Entity, Aliases, Input, Template, Prose, Sweep, OnRule, Tenant,
             DataSource, Derived]


@node
class Comment:
    text: str                       # including the leading '#'
    span: Span = _span()


@node
class File:
    path: str = dataclasses.field(compare=False)
    items: tuple[Item, ...]
    comments: tuple[Comment, ...] = dataclasses.field(default=(), compare=False)

    @property
    def header(self) -> Header | None:
        return next((i for i in self.items if isinstance(i, Header)), None)

    def of_type(self, kind: type) -> Iterator:
        return (i for i in self.items if isinstance(i, kind))


def walk(node) -> Iterator:
    """Every node below ``node``, depth first, in source order."""
    yield node
    if isinstance(node, tuple):
        children = node
    elif dataclasses.is_dataclass(node):
        children = tuple(getattr(node, f.name) for f in dataclasses.fields(node)
                         if f.name != "span")
    else:
        return
    for child in children:
        if isinstance(child, tuple) or dataclasses.is_dataclass(child):
            yield from walk(child)
