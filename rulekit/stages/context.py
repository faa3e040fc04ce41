"""What every compile stage shares: the ``Compilation`` being built and its result, the
constants the stages judge against, name suggestions, and the small value helpers (plain text
of a value, locale, currency and time-zone checks, folding of enum values)."""

from __future__ import annotations

import re

import dataclasses
import functools
import difflib
from typing import Iterable

from rulekit import ast, policy as P
from rulekit.errors import Diagnostic, Span

MAX_ERRORS = 50

DEFAULT_LOCALE = "en_US"
# Suggested first when a locale is unknown, in this order, by language.
COMMON_LOCALES = ("en_US", "en_GB", "de_DE", "de_AT", "de_CH", "fr_FR", "fr_CA", "es_ES",
                  "es_MX", "it_IT", "nl_NL", "pt_BR", "pt_PT", "sv_SE", "da_DK", "nb_NO",
                  "fi_FI", "pl_PL", "cs_CZ", "ja_JP", "zh_CN", "zh_TW", "ko_KR", "en_IN",
                  "hi_IN", "ar_SA", "tr_TR", "ru_RU")
DEFAULT_TIMEZONE = "UTC"

# Names people bring from other languages, so "unknown type 'string'" can say what to write.
TYPE_SYNONYMS = {"string": "text", "str": "text", "int": "integer", "float": "decimal",
                 "number": "decimal", "double": "decimal", "bool": "boolean",
                 "datetime": "timestamp", "time": "timestamp", "currency": "money",
                 "price": "money", "link": "url", "uri": "url", "id": "identifier",
                 # a type and its flag: a percentage is a decimal field marked `percent`
                 "percent": "decimal percent", "percentage": "decimal percent",
                 "pct": "decimal percent"}

# Option names people guess, and the option rulekit calls it.
OPTION_SYNONYMS = {"case_insensitive": "casefold", "ignore_case": "casefold",
                   "insensitive": "casefold", "nocase": "casefold", "lowercase": "casefold",
                   "case_sensitive": "exact", "private": "hidden", "secret": "hidden",
                   "readonly": "hidden", "tz": "zone", "timezone": "zone", "time_zone": "zone",
                   "tol": "tolerance", "epsilon": "tolerance", "cents": "minor",
                   "fresh": "max_age", "ttl": "max_age", "percentage": "percent"}

# Statement keywords inside an entity; an unknown option that looks like one is a typo for it.
ENTITY_KEYWORDS = ("field", "key", "fresh", "requires", "source")

SETTINGS = {"version": "string", "locale": "name", "currency": "name", "timezone": "string",
            "dialect": "name"}


@dataclasses.dataclass(frozen=True)
class CompileResult:
    policy: P.Policy | None
    diagnostics: tuple[Diagnostic, ...]
    sources: dict[str, str]
    is_library: bool = False

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)


@dataclasses.dataclass
class Unit:
    """One parsed file of the ruleset: the root first, then its imports depth first."""
    path: str
    file: ast.File
    # The file each `import` statement resolved to, by the statement's position in `items`.
    imports: dict[int, str] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass
class FieldInfo:
    """What check_types learned about one field, for the later stages."""
    entity: str
    decl: ast.FieldDecl
    kind: str | None                # None when the type is unknown
    options: dict[str, ast.Value | None]
    placeholders: list[ast.PlaceholderOption]

    @property
    def readable(self) -> bool:
        return "hidden" not in self.options


@dataclasses.dataclass
class Compilation:
    root: str
    require_header: bool
    units: list[Unit] = dataclasses.field(default_factory=list)
    sources: dict[str, str] = dataclasses.field(default_factory=dict)
    diagnostics: list[Diagnostic] = dataclasses.field(default_factory=list)
    header: ast.Header | None = None
    entities: dict[str, ast.Entity] = dataclasses.field(default_factory=dict)
    fields: dict[tuple[str, str], FieldInfo] = dataclasses.field(default_factory=dict)
    aliases: dict[str, ast.Aliases] = dataclasses.field(default_factory=dict)
    inputs: dict[str, ast.Input] = dataclasses.field(default_factory=dict)
    shapes: dict[str, ast.Template] = dataclasses.field(default_factory=dict)
    fallbacks: dict[str, ast.Template] = dataclasses.field(default_factory=dict)
    used: set[tuple[str, str]] = dataclasses.field(default_factory=set)
    failed_imports: list[str] = dataclasses.field(default_factory=list)
    lookups: dict[str, P.Lookup] = dataclasses.field(default_factory=dict)
    data_sources: list[P.DataSource] = dataclasses.field(default_factory=list)
    binding: P.Binding | None = None       # from check_binding
    policy: P.Policy | None = None

    def error(self, code: str, message: str, span: Span | None, hint: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(code, message, span, hint))

    def warn(self, code: str, message: str, span: Span | None, hint: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(code, message, span, hint, severity="warning"))

    @property
    def failed(self) -> bool:
        return any(d.severity == "error" for d in self.diagnostics)

    def items(self, kind: type) -> Iterable:
        return (item for _, item in self.declarations() if isinstance(item, kind))

    def declarations(self) -> Iterable[tuple[Unit, ast.Item]]:
        """Every item of the ruleset in reading order: an imported file's items come in at
        the place of its `import`, once."""
        by_path = {unit.path: unit for unit in self.units}
        done: set[str] = set()

        def visit(unit: Unit):
            done.add(unit.path)
            for index, item in enumerate(unit.file.items):
                target = by_path.get(unit.imports.get(index, ""))
                if target is not None and target.path not in done:
                    yield from visit(target)
                yield unit, item

        if self.units:
            yield from visit(self.units[0])

    def header_setting(self, name: str) -> ast.Value | None:
        if self.header is None:
            return None
        return next((s.value for s in self.header.settings if s.name.value == name), None)


# A hint lists every name of a short list; of a long one (a folder of 100 files), LISTED of them
# and "and N more". A list just over the line is shown whole rather than hide a name or two.
LISTED, LISTED_WHOLE = 8, 12


def listing(names: list[str], total: int | None = None) -> str:
    """``names`` joined with commas; past LISTED_WHOLE, only the first LISTED and "and N more"
    for the rest of ``total`` (``len(names)`` when not given)."""
    total = len(names) if total is None else total
    shown = names if total <= LISTED_WHOLE else names[:LISTED]
    rest = total - len(shown)
    return ", ".join(shown) + (f" and {rest} more" if rest > 0 else "")


def suggest(name: str, candidates: Iterable[str], what: str = "") -> str | None:
    """"did you mean" the closest candidate, then (when ``what`` names them) the candidates: all of
    a short list, else the LISTED closest (alphabetically) and how many more there are."""
    candidates = sorted(set(candidates))
    close = difflib.get_close_matches(name, candidates, n=1, cutoff=0.6)
    shown = candidates
    if len(candidates) > LISTED_WHOLE:
        matcher = difflib.SequenceMatcher(b=name)

        def likeness(candidate: str) -> float:
            matcher.set_seq1(candidate)
            return matcher.ratio()

        shown = sorted(sorted(candidates, key=likeness, reverse=True)[:LISTED])
    known = f"{what}: {listing(shown, len(candidates))}" if what and candidates else ""
    if close:
        return f"did you mean '{close[0]}'?" + (f" {known}" if known else "")
    return known or None


def _after_failed_imports(c: Compilation, hint: str | None) -> str | None:
    """An unknown name may live in an import that did not load: say so, not just "declare it"."""
    if not c.failed_imports:
        return hint
    note = f"{', '.join(c.failed_imports)} did not load, so its declarations are unknown"
    return f"{hint}; note: {note}" if hint else f"note: {note}"


def _first_seen(span: Span) -> str:
    return f"first declared at {span.at()}"


def _check_locale(c: Compilation, value: str, span: Span) -> None:
    from babel import Locale, UnknownLocaleError, localedata

    if value.split(".")[0].upper() in ("C", "POSIX"):
        c.error("RK305", f"locale '{value}' is the POSIX default, not a language", span,
                hint="name the language and country customers read, such as en_US or en_GB")
        return
    try:
        parsed = Locale.parse(value)
    except (UnknownLocaleError, ValueError, TypeError):
        language = value.replace("-", "_").split("_")[0].lower()
        same = [c_ for c_ in COMMON_LOCALES if c_.split("_")[0] == language] or sorted(
            i for i in localedata.locale_identifiers() if i.split("_")[0] == language
            and i.count("_") == 1 and i.split("_")[1].isalpha())[:4]
        hint = (f"did you mean {' or '.join(repr(x) for x in same[:3])}?" if same else
                suggest(value, localedata.locale_identifiers()) or "for example en_GB or de_DE")
        c.error("RK305", f"unknown locale '{value}'", span, hint=hint)
        return
    _check_words_read(c, value, parsed, span)


def _check_words_read(c: Compilation, value: str, parsed, span: Span) -> None:
    """RK313: the sweep reads each kind of word in some languages only
    (``scan.locales.WORDS_READ``); those of the locale's language it does not read pass
    unchecked."""
    from rulekit.scan.locales import WORDS_READ

    missing = [kind for kind, languages in WORDS_READ.items() if parsed.language not in languages]
    if not missing:
        return
    name = parsed.get_language_name("en") or parsed.language
    kinds = " or ".join([", ".join(missing[:-1]), missing[-1]] if len(missing) > 1 else missing)
    full = sorted(frozenset.intersection(*WORDS_READ.values()))
    c.warn("RK313", f"rulekit reads no {name} {kinds}: in locale '{value}' they pass unchecked",
           span, hint="digits, dates, amounts and links are still checked. Keep free prose out "
                      "(`prose shapes`), or answer in a language whose words rulekit reads "
                      f"({', '.join(full)})")


def _check_currency(c: Compilation, value: str, span: Span) -> None:
    from babel.numbers import is_currency, list_currencies

    if not is_currency(value):
        c.error("RK306", f"unknown currency '{value}'", span,
                hint=suggest(value.upper(), list_currencies()) or "use an ISO 4217 code such as EUR")
    elif value not in _COMMON_CURRENCIES and value not in _currencies_in_use():
        c.warn("RK306", f"currency '{value}' is no country's money today", span,
               hint="XXX means no currency, XAU and the other X codes metals or funds, and codes "
               "such as DEM were withdrawn; use the currency the amounts are in, such as EUR")


_COMMON_CURRENCIES = frozenset("EUR USD GBP JPY CHF CAD AUD NZD SEK NOK DKK PLN CZK HUF CNY INR "
                               "BRL MXN ZAR SGD HKD KRW TRY".split())


@functools.lru_cache(maxsize=1)
def _currencies_in_use() -> frozenset[str]:
    """Every territory's legal tender today, from babel's data (some 0.2 s: read only for a
    code outside the common ones)."""
    import datetime as dt

    from babel.core import get_global
    from babel.numbers import get_territory_currencies

    today = dt.date.today()
    return frozenset(code for territory in get_global("territory_currencies")
                     for code in get_territory_currencies(territory, today))


# A UTC offset written as a zone: "GMT+1", "UTC-5", "CET+1", "+05:30".
_OFFSET = re.compile(r"(?:[A-Za-z]{1,5} ?)?([+-])(\d{1,2})(?::?(\d{2}))?")

# Abbreviations that tzdata keeps as fixed offsets with no summer time, and the zone of the
# places that mostly mean them (and keep summer time).
_FIXED_ABBREVIATIONS = {"EST": ("-5", "America/New_York", "the US East Coast"),
                        "MST": ("-7", "America/Denver", "the US Mountain states")}


def _check_zone(c: Compilation, value: str, span: Span) -> None:
    import zoneinfo

    fixed = _FIXED_ABBREVIATIONS.get(value)
    if fixed is not None:
        hours, place, where = fixed
        c.error("RK307", f"time zone '{value}' is a fixed UTC{hours} all year, with no summer time",
                span, hint=f'for {where} write "{place}", which follows its summer time; for a '
                f'fixed UTC{hours} all year write "Etc/GMT{"+" if hours[0] == "-" else "-"}'
                f'{hours[1:]}"')
        return
    try:
        zoneinfo.ZoneInfo(value)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        offset = _OFFSET.fullmatch(value.strip())
        if offset is not None:
            c.error("RK307", f"unknown time zone '{value}': an offset is not a time zone", span,
                    hint=_offset_hint(*offset.groups()))
            return
        c.error("RK307", f"unknown time zone '{value}'", span,
                hint=suggest(value, zoneinfo.available_timezones()) or
                'use an IANA name such as "Europe/Berlin" or "UTC"')


def _offset_hint(sign: str, hours: str, minutes: str | None) -> str:
    """Name a place (whose summer time rulekit then follows), or the Etc/GMT name of a whole
    hour's fixed offset, whose sign POSIX inverts; never another offset."""
    hint = 'name a place, as in "Europe/Paris" or "America/New_York": its zone follows its summer time'
    if int(minutes or 0) == 0 and int(hours) <= (14 if sign == "+" else 12):
        etc = f'Etc/GMT{"-" if sign == "+" else "+"}{int(hours)}' if int(hours) else "UTC"
        hint += (f'; for a fixed UTC{sign}{int(hours)} all year write "{etc}"' + (
            f" (Etc/GMT names invert the sign: {etc} is UTC{sign}{int(hours)})"
            if int(hours) else ""))
    return hint


def _value_is(value: ast.Value | None, kind: str | None) -> bool:
    return {
        None: value is None,
        "string": isinstance(value, ast.String),
        "number": isinstance(value, ast.Number),
        "duration": isinstance(value, ast.Duration),
        "name": isinstance(value, ast.Name),
    }[kind]


def _kind_words(kind: str | None) -> str:
    return {None: "no value", "string": "a string in double quotes", "number": "a number",
            "duration": "a duration such as 15m", "name": "a name"}[kind]


def _plain(value: ast.Value) -> str:
    return value.value if isinstance(value, (ast.String, ast.Name)) else value.text


def fold(text: str) -> str:
    """How enum values and aliases are compared: case-folded, inner whitespace collapsed."""
    return " ".join(text.casefold().split())
