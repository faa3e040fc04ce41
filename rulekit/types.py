"""The comparison types a field can have, and the options each accepts.

One small pydantic model per type on one base, told apart by ``kind``. The differences between
types are data: which options apply (``OPTIONS``), and which literal kinds a placeholder may
take. ``TYPES`` is the explicit registry the compiler looks names up in.

How each type compares and formats values is added by the claims checker; this module only
describes what a ruleset declared, so loading a compiled policy stays cheap.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, ClassVar, Literal, Union

from pydantic import BaseModel, ConfigDict, Field


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class OptionSpec(Frozen):
    """One option a field may carry. ``takes`` is the literal kind of its value, or None for a
    flag. ``conflicts`` names options it cannot be combined with."""
    name: str
    takes: Literal["string", "number", "duration", "name"] | None = None
    conflicts: tuple[str, ...] = ()
    help: str


COMMON_OPTIONS = (
    OptionSpec(name="hidden", help="not readable: never looked up, never rendered"),
    OptionSpec(name="sensitive", help="masked in the decision log"),
    OptionSpec(name="label", takes="string", help='how refusals name the field, e.g. "delivery estimate"'),
    OptionSpec(name="max_age", takes="duration",
               help="a freshness budget for this field alone, e.g. `max_age 5m`"),
    OptionSpec(name="column", takes="string",
               help='the column that stores the field, where its name differs: `column "total_cents"`'),
)


class TypeSpec(Frozen):
    kind: str
    # Options besides COMMON_OPTIONS and `placeholder`.
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = ()
    # Literal kinds a placeholder value may be for this type.
    PLACEHOLDER_KINDS: ClassVar[frozenset[str]] = frozenset({"string"})
    NUMERIC: ClassVar[bool] = False


class MoneyType(TypeSpec):
    kind: Literal["money"] = "money"
    currency: str
    storage: Literal["minor", "major"] = "minor"

    OPTIONS = (
        OptionSpec(name="currency", takes="name", help="ISO 4217 code; defaults to the header's"),
        OptionSpec(name="minor", conflicts=("major",), help="stored as integer minor units (default)"),
        OptionSpec(name="major", conflicts=("minor",), help="stored as a decimal amount"),
    )
    PLACEHOLDER_KINDS = frozenset({"string", "number"})
    NUMERIC = True


class DateType(TypeSpec):
    """A calendar day. A stored instant is read as a day in ``zone``; a stored timestamp with
    no zone (a DATETIME midnight) is the day as written (``naive_zone`` None)."""
    kind: Literal["date"] = "date"
    zone: str
    format: str = "medium"
    naive_zone: ClassVar[None] = None

    OPTIONS = (
        OptionSpec(name="zone", takes="string", help="IANA time zone; defaults to the header's"),
        OptionSpec(name="format", takes="string", help="babel date format: short, medium, long, full or a pattern"),
    )


class TimestampType(TypeSpec):
    """An instant. Claimed as a date, it is compared as a calendar day in ``zone``; claimed as a
    timestamp, at the claim's own precision."""
    kind: Literal["timestamp"] = "timestamp"
    zone: str
    naive_zone: str = "UTC"
    format: str = "medium"

    OPTIONS = (
        OptionSpec(name="zone", takes="string", help="IANA time zone the day is read in"),
        OptionSpec(name="naive", takes="string", help="zone of stored timestamps without one (default UTC)"),
        OptionSpec(name="format", takes="string", help="babel datetime format"),
    )


class DecimalType(TypeSpec):
    kind: Literal["decimal"] = "decimal"
    tolerance: Decimal = Decimal(0)
    percent: bool = False
    # A ratio shown as a percentage: 0.0484 is "4.84%" (``percent`` holds points: 4.84 is 4.84%)
    ratio: bool = False

    OPTIONS = (
        OptionSpec(name="tolerance", takes="number", help="allowed difference, in the field's own units"),
        OptionSpec(name="percent", conflicts=("ratio",),
                   help="the value is a percentage in points (4.6 is 4.6%)"),
        OptionSpec(name="ratio", conflicts=("percent",),
                   help="the value is a ratio shown as a percentage (0.046 is 4.6%)"),
    )
    PLACEHOLDER_KINDS = frozenset({"string", "number"})
    NUMERIC = True


class IntegerType(TypeSpec):
    kind: Literal["integer"] = "integer"
    PLACEHOLDER_KINDS = frozenset({"string", "number"})
    NUMERIC = True


class BooleanType(TypeSpec):
    """A flag, such as ``putts_tracked``; what `placeholder ... unless FLAG` refers to."""
    kind: Literal["boolean"] = "boolean"


class EnumType(TypeSpec):
    kind: Literal["enum"] = "enum"
    table: str | None = None
    values: tuple[str, ...]
    # Casefolded alias -> canonical value; the canonical values map to themselves, and so do
    # their labels.
    aliases: tuple[tuple[str, str], ...] = ()
    # Value -> the label a customer reads (`room_only label "room only"`); a value without one
    # is shown as stored.
    labels: tuple[tuple[str, str], ...] = ()


class IdentifierType(TypeSpec):
    kind: Literal["identifier"] = "identifier"
    case: Literal["exact", "casefold"] = "exact"

    OPTIONS = (
        OptionSpec(name="exact", conflicts=("casefold",), help="compare exactly (default)"),
        OptionSpec(name="casefold", conflicts=("exact",), help="compare ignoring case"),
    )
    PLACEHOLDER_KINDS = frozenset({"string", "number"})


class UrlType(TypeSpec):
    """Scheme and host are always compared lower-cased."""
    kind: Literal["url"] = "url"
    query: Literal["keep", "drop"] = "keep"
    fragment: Literal["keep", "drop"] = "keep"
    trailing_slash: Literal["ignore", "strict"] = "ignore"

    OPTIONS = (
        OptionSpec(name="drop_query", help="ignore the query string when comparing"),
        OptionSpec(name="drop_fragment", help="ignore the #fragment when comparing"),
        OptionSpec(name="strict_slash", help="a trailing slash makes a different URL"),
    )


class TextType(TypeSpec):
    kind: Literal["text"] = "text"
    case: Literal["exact", "casefold"] = "exact"

    OPTIONS = (OptionSpec(name="casefold", help="compare ignoring case"),)


AnyType = Annotated[
    Union[MoneyType, DateType, TimestampType, DecimalType, IntegerType, BooleanType, EnumType,
          IdentifierType, UrlType, TextType],
    Field(discriminator="kind"),
]

TYPES: dict[str, type[TypeSpec]] = {
    "money": MoneyType,
    "date": DateType,
    "timestamp": TimestampType,
    "decimal": DecimalType,
    "integer": IntegerType,
    "boolean": BooleanType,
    "enum": EnumType,
    "identifier": IdentifierType,
    "url": UrlType,
    "text": TextType,
}


def options_for(kind: str) -> dict[str, OptionSpec]:
    """Every option a field of this type accepts, including the common ones."""
    specs = COMMON_OPTIONS + TYPES[kind].OPTIONS
    return {spec.name: spec for spec in specs}


def all_option_names() -> set[str]:
    names = {spec.name for spec in COMMON_OPTIONS} | {"placeholder"}
    for spec_class in TYPES.values():
        names.update(spec.name for spec in spec_class.OPTIONS)
    return names
