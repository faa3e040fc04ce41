"""The compiled, immutable policy, and its JSON artifact.

A ``Policy`` is what the chatbot loads at startup: plain frozen data, safe to share between
threads, with no reference to the parser. ``rulekit compile --out`` writes it as JSON;
``load_compiled`` reads it back without importing Lark.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from pathlib import Path
from collections.abc import Mapping, Sequence
from typing import Any, Callable, Literal, TypeVar

from pydantic import ValidationError

from rulekit.errors import ArtifactError
from rulekit.types import AnyType, Frozen

T = TypeVar("T")

# 2: entities carry their lookup statements; tenant; routed sources. 3: `artifact_sha256`.
# 4: `compiled_by`; enums and alias tables carry display labels (an older rulekit would show the
# stored value). 5: `forbidden_phrases` (`prose guarded forbid`); a lookup says whether its rows
# are `shared` by every user of a scoped ruleset. A reader reads only its own
# version: a format-4 reader rejects the key it does not know, so adding one is a new version,
# and an older artifact is recompiled.
FORMAT_VERSION = 5
# The field of the artifact that holds the sha256 of the rest of it (``artifact_digest``).
DIGEST_FIELD = "artifact_sha256"

# Every outcome a check can produce. Each must end in an action: the compiler rejects a ruleset
# that leaves one unhandled.
OUTCOMES: tuple[str, ...] = (
    "malformed_reply",   # the reply is not valid JSON or not of the reply schema, or a claim
                         # cannot be read as its field's type
    "contradicted",      # a claim's value differs from the source of record
    "misattributed",     # a figure is real, but belongs to another entity or field
    "not_found",         # no row, a null, or a declared placeholder
    "not_checkable",     # the field is not readable, or the stored value cannot be read
    "stale",             # the value is older than its freshness budget
    "stray_figure",      # free text holds a figure the evidence does not back
    "unapproved_shape",  # the template matches no approved sentence shape
    "missing_input",     # the user has not given something the answer needs
    "lookup_failed",     # the source of record failed or timed out
)

PROSE_MODES = ("shapes", "guarded", "free")

SMALL_INTEGER_CONTEXTS = ("ordinal", "rank", "list_position", "month", "weekday",
                          "rating_scale", "name_digits")

# Placeholders a refusal, ask or handoff message may use.
MESSAGE_PLACEHOLDERS = ("fields", "entity", "id")


class Placeholder(Frozen):
    """A stored value that means "not recorded". With ``unless``, it only means that while the
    named sibling flag is false."""
    value: str | int | float
    unless: str | None = None


class Field(Frozen):
    name: str
    type: AnyType
    readable: bool = True
    sensitive: bool = False
    label: str
    placeholders: tuple[Placeholder, ...] = ()
    fresh_seconds: float | None = None


class Statement(Frozen):
    """One prepared SQL statement in one dialect, cut at its parameters: ``parts`` has one more
    item than ``params``. ``ids`` stands for a lookup's id list, one ``marker`` per id; every
    other parameter (the tenant, a window's ``since`` and ``until``) is one marker. Built by
    ``rulekit.sql.prepare`` at compile time; nothing at check time writes SQL."""
    dialect: str
    marker: str
    parts: tuple[str, ...]
    params: tuple[str, ...]

    def render(self, values: Mapping[str, Any], ids: Sequence[Any] = ()) -> tuple[str, list]:
        """The SQL text and its bound values, in order. Values only ever travel as
        parameters. The text depends only on how many ids there are, so it is kept for small
        counts: a chatbot asks for one to a few ids, over and over."""
        count = len(ids)
        sql = self._texts.get(count)
        if sql is None:
            pieces = [self.parts[0]]
            for param, part in zip(self.params, self.parts[1:]):
                if param == "ids":
                    pieces.append(", ".join([self.marker] * count) if count else "NULL")
                else:
                    pieces.append(self.marker)
                pieces.append(part)
            sql = "".join(pieces)
            if count <= _CACHED_COUNTS:
                self._texts[count] = sql
        bound: list = []
        for param in self.params:
            if param == "ids":
                bound.extend(ids)
            else:
                bound.append(values[param])
        return sql, bound

    @functools.cached_property
    def _texts(self) -> dict[int, str]:
        return {}


_CACHED_COUNTS = 64


class _Prepared(Frozen):
    """Something with a prepared statement per dialect."""
    statements: tuple[Statement, ...] = ()

    @functools.cached_property
    def _by_dialect(self) -> dict[str, Statement]:
        return {s.dialect: s for s in self.statements}

    def statement(self, dialect: str) -> Statement | None:
        return self._by_dialect.get(dialect)


class Lookup(_Prepared):
    """Where an entity's rows live and the statement that reads them. ``columns`` are the
    names the statement returns, in order: the key first, then the readable fields (and the
    freshness field). ``tenant_column`` is the column scoped to the verified user's id;
    ``shared`` rows are every user's in a scoped ruleset (`source table "x" shared`)."""
    kind: Literal["table", "sql"] = "table"
    table: str | None = None
    sql: str | None = None
    columns: tuple[str, ...] = ()
    tenant_column: str | None = None
    shared: bool = False



class DataSource(_Prepared):
    """A query that gathers evidence for free text, run when the question's words route to it
    (seed 001's keyword routing): ``keywords`` pick it, ``default`` sources run when none
    matched, ``always`` sources run for every question. ``window_seconds`` bounds ``:since``."""
    name: str
    sql: str
    keywords: tuple[str, ...] = ()
    window_seconds: float | None = None
    default: bool = False
    always: bool = False
    columns: tuple[str, ...] = ()
    params: tuple[str, ...] = ()



class Entity(Frozen):
    name: str
    key: str
    fields: tuple[Field, ...]
    fresh_seconds: float | None = None
    fresh_via: str | None = None
    requires: tuple[str, ...] = ()
    # (input, field): the row is given only when the input equals that field of it, compared
    # without case or white space (``requires postcode matching delivery_postcode``).
    matching: tuple[tuple[str, str], ...] = ()
    lookup: Lookup = Lookup()

    @functools.cached_property
    def _by_name(self) -> dict[str, Field]:
        return {f.name: f for f in self.fields}

    def field(self, name: str) -> Field | None:
        return self._by_name.get(name)

    @property
    def readable_fields(self) -> tuple[Field, ...]:
        return tuple(f for f in self.fields if f.readable)


class AliasTable(Frozen):
    name: str
    values: tuple[str, ...]
    aliases: tuple[tuple[str, str], ...]
    labels: tuple[tuple[str, str], ...] = ()   # value -> how a customer reads it


class Input(Frozen):
    name: str
    label: str


class Slot(Frozen):
    name: str
    entity: str
    field: str


class Template(Frozen):
    """A sentence shape or a fallback text. ``pieces`` alternate literal text and slot names:
    literal text at even positions, slot names at odd ones."""
    name: str
    text: str
    pieces: tuple[str, ...]
    slots: tuple[Slot, ...]


class Sweep(Frozen):
    small_integer_limit: int = 12
    small_integer_contexts: tuple[str, ...] = ("ordinal", "rank", "list_position", "month",
                                               "weekday", "rating_scale", "name_digits")
    rounding: tuple[str, ...] = ()          # "entity.field" where rounding to shown precision is allowed
    authoritative: tuple[str, ...] = ()     # "entity.field" or JSON paths
    untrusted: tuple[str, ...] = ()
    exempt: tuple[str, ...] = ()
    placeholders: tuple[str, ...] = ()


class Rank(Frozen):
    """A row's place by ``field`` among the rows sharing its ``within`` value ("second on the
    team"), stated in the ``{rank}`` slot of ``forms``."""
    field: str
    within: str
    forms: tuple[str, ...] = ()


class BoundEntity(Frozen):
    """How free text names the rows of one entity and its fields (docs/binding.md). ``paths``
    locate the rows in JSON evidence; ``mentions`` are fields whose values name a row and
    ``aliases`` literal names; ``words`` map a word or unit to the field it names, longest
    first; ``forms`` state several fields at once ("{FGM}-of-{FGA}")."""
    name: str
    paths: tuple[str, ...]
    mentions: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    pronouns: tuple[str, ...] = ()
    words: tuple[tuple[str, str], ...] = ()
    forms: tuple[str, ...] = ()
    ranks: tuple[Rank, ...] = ()



class Formula(Frozen):
    """A derived figure's formula: ``op`` is "const" (``value``), "agg" (``function`` over
    ``entity.field``, plus the ``more`` fields of the same row, of every located row), "ref" (another derived figure, ``name``), or one of
    + - * / over ``left`` and ``right``."""
    op: str
    value: str | None = None
    function: str | None = None
    entity: str | None = None
    field: str | None = None
    more: tuple[str, ...] = ()      # fields of the same row added to ``field`` first
    name: str | None = None
    left: "Formula | None" = None
    right: "Formula | None" = None


class DerivedFigure(Frozen):
    """A figure code computes from the evidence (a winning margin, a total): allowed in text in
    its own right, and checked where a form in ``said`` states it."""
    name: str
    formula: Formula
    said: tuple[str, ...] = ()


class Binding(Frozen):
    """What binds figures in free text to the entity and field they describe."""
    entities: tuple[BoundEntity, ...] = ()
    derived: tuple[DerivedFigure, ...] = ()

    @property
    def active(self) -> bool:
        return bool(self.entities or self.derived)


class Action(Frozen):
    kind: Literal["regenerate", "refuse", "ask", "handoff", "fallback"]
    max_attempts: int | None = None          # regenerate
    naming: int | None = None                # regenerate: how many wrong items to name
    with_values: bool = False                # regenerate: name the true values too
    narrow: bool = False                     # regenerate: pass only the facts that verified
    then: "Action | None" = None             # regenerate: what happens when attempts run out
    message: str | None = None               # refuse, ask, handoff
    hint: str | None = None                  # ask: the next_action hint
    fallback: str | None = None              # fallback: the template's name


class OutcomeAction(Frozen):
    outcome: str
    action: Action


class MissingAction(Frozen):
    input: str
    action: Action


class Identity:
    """A policy as a cache key, by identity. A ``Policy`` hashes by value, walking every entity
    and field (a tenth of a millisecond), and ``model_copy`` carries cached properties over to
    a changed copy; a cache keyed by this holds what was derived from this very object. The key
    keeps its policy alive, so an identity is never reused while it is cached."""
    __slots__ = ("policy",)

    def __init__(self, policy: "Policy"):
        self.policy = policy

    def __hash__(self) -> int:
        return id(self.policy)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Identity) and other.policy is self.policy


# The key under which what is derived from a policy (``derived``) is kept, in the policy's
# ``__dict__``: no field, so never compared, hashed, dumped, or pickled.
DERIVED = "_rulekit_derived"


def derived(policy: "Policy", name: str, build: Callable[["Policy"], T]) -> T:
    """What ``build`` derives from ``policy`` (the checker's readable fields, the log's
    sensitive fields...), worked out on first use and held by the policy itself under ``name``,
    so a process with any number of policies derives each once and nothing is kept
    process-wide (a bounded cache keyed by policy re-derived everything on every check once a
    process held more policies than its size). The entry names the very policy it belongs to:
    ``model_copy`` carries it over to a changed copy, which derives its own. Two threads
    deriving at once each get a correct value; one is kept."""
    held = policy.__dict__.get(DERIVED)
    if held is None or held[0] is not policy:
        held = (policy, {})
        object.__setattr__(policy, DERIVED, held)       # frozen: no field changes
    table = held[1]
    value = table.get(name)
    if value is None:
        value = table[name] = build(policy)
    return value


class Policy(Frozen):
    format_version: int = FORMAT_VERSION
    # Which rulekit compiled it ("rulekit 0.1.0"), for whoever reads an artifact; None for a
    # policy built by hand. Covered by the artifact's digest like the rest.
    compiled_by: str | None = None
    name: str
    version: str
    locale: str
    currency: str | None
    timezone: str
    sources_sha256: str
    sources: tuple[str, ...]
    entities: tuple[Entity, ...] = ()
    aliases: tuple[AliasTable, ...] = ()
    inputs: tuple[Input, ...] = ()
    shapes: tuple[Template, ...] = ()
    fallbacks: tuple[Template, ...] = ()
    prose: Literal["shapes", "guarded", "free"] = "guarded"
    # `prose guarded forbid "refund", ...`: the product's own phrases, as written
    forbidden_phrases: tuple[str, ...] = ()
    sweep: Sweep = Sweep()
    actions: tuple[OutcomeAction, ...]
    missing: tuple[MissingAction, ...] = ()
    tenant: str | None = None                   # the parameter every query is scoped by
    data_sources: tuple[DataSource, ...] = ()   # routed by keywords; see ``route``
    binding: Binding = Binding()                # figures in free text -> entity and field

    @functools.cached_property
    def _entities(self) -> dict[str, Entity]:
        return {e.name: e for e in self.entities}

    @functools.cached_property
    def _actions(self) -> dict[str, Action]:
        return {a.outcome: a.action for a in self.actions}

    @functools.cached_property
    def shape_skeletons(self) -> tuple[str, ...]:
        """The approved shapes in the form templates are matched against, computed once."""
        from rulekit.prose import skeletons

        return skeletons(self.shapes)

    @functools.cached_property
    def enum_labels(self) -> tuple:
        """The labels of its readable enum fields as free text says them, computed once
        (``rulekit.sweep_labels``)."""
        from rulekit.sweep_labels import labels_of

        return labels_of(self)

    @functools.cached_property
    def forbidden_pattern(self) -> re.Pattern | None:
        """The ruleset's forbidden phrases as one pattern (``rulekit.prose.forbidden_pattern``),
        compiled once; None without any."""
        from rulekit.prose import forbidden_pattern

        return forbidden_pattern(self.forbidden_phrases) if self.forbidden_phrases else None

    @functools.cached_property
    def shape_wordings(self) -> tuple[str, ...]:
        """The approved shapes' words with their slots unbound, computed once: a template
        worded as shapes is held to their bindings in every prose mode."""
        from rulekit.prose import wordings

        return wordings(self.shapes)

    def entity(self, name: str) -> Entity | None:
        return self._entities.get(name)

    def action_for(self, outcome: str, missing_input: str | None = None) -> Action:
        """The declared action for an outcome. Every outcome has one: the compiler saw to it."""
        if missing_input is not None:
            for rule in self.missing:
                if rule.input == missing_input:
                    return rule.action
        return self._actions[outcome]

    def check(self, reply, source, **options):
        """Check one model reply against ``source``; see ``rulekit.check.check``."""
        from rulekit.check import check

        return check(self, reply, source, **options)

    def route(self, question: str | None) -> tuple[DataSource, ...]:
        """The declared sources to run for ``question``: those whose keywords it contains, else
        the default ones; ``always`` sources in both cases. See ``rulekit.route``."""
        from rulekit.route import route

        return route(self, question)

    def reply_schema(self, flavor: str = "jsonschema", form: str = "claims") -> dict:
        """The JSON Schema of the reply the model must produce, with the readable whitelist
        baked in; see ``rulekit.schema.reply_schema``."""
        from rulekit.schema import reply_schema

        return reply_schema(self, flavor=flavor, form=form)

    def evidence_block(self, facts, *, label: str = "facts") -> str:
        """The facts the model may use, as a fenced data block; see
        ``rulekit.prompt.evidence_block``."""
        from rulekit.prompt import evidence_block

        return evidence_block(self, facts, label=label)

    @property
    def ruleset(self) -> dict[str, str]:
        """What every decision records about the rules that made it."""
        return {"name": self.name, "version": self.version, "hash": self.sources_sha256}

    def __getstate__(self) -> dict:
        # What was derived from the policy (``DERIVED``) holds caches that do not pickle, and
        # is derived again on the copy's first use.
        state = super().__getstate__()
        if DERIVED in state.get("__dict__", ()):
            state = {**state, "__dict__": {name: value for name, value
                                           in state["__dict__"].items() if name != DERIVED}}
        return state

    def to_json(self) -> str:
        """The artifact: the policy as JSON, with the digest of its content after its format
        version, so that ``load_compiled`` refuses an artifact edited after compile."""
        data = json.loads(self.model_dump_json(exclude_defaults=False))
        data = {"format_version": data["format_version"], DIGEST_FIELD: artifact_digest(data),
                **data}
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def artifact_digest(data: Mapping[str, Any]) -> str:
    """The sha256 of an artifact's content without its digest field, over canonical JSON
    (sorted keys, no spaces, UTF-8), so the layout of the file does not count."""
    content = {k: v for k, v in data.items() if k != DIGEST_FIELD}
    canonical = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def load_compiled(path: str | Path) -> Policy:
    """Load a compiled artifact written by ``rulekit compile --out``. Does not import Lark."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise ArtifactError(f"{path}: cannot read the compiled policy: {exc.strerror}") from None
    return policy_from_json(data, str(path))


def policy_from_json(data: bytes | str, where: str = "<artifact>") -> Policy:
    try:
        return _policy_from_json(data, where)
    except RecursionError:
        # Reading JSON, validating it and digesting it each recurse once a level; an artifact
        # compiled by rulekit is nested about ten levels (a long formula adds a few), so a
        # JSON document too deep for them is not one.
        raise ArtifactError(f"{where}: not a compiled policy: its JSON is nested "
                            f"{_nesting(data):,} levels deep, too deep to read; recompile with "
                            "`rulekit compile --out`") from None


# A JSON string, or a bracket: what nesting is counted from (brackets inside strings are text).
_JSON_NESTING = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def _nesting(data: bytes | str) -> int:
    """How deeply ``data`` nests its arrays and objects: linear, and run only for an artifact
    too deep to read, to say how deep it is."""
    raw = data.encode("utf-8", "replace") if isinstance(data, str) else data
    depth = deepest = 0
    for match in _JSON_NESTING.finditer(raw):
        token = match.group()
        if token in (b"[", b"{"):
            depth += 1
            deepest = max(deepest, depth)
        elif token in (b"]", b"}"):
            depth -= 1
    return deepest


def _policy_from_json(data: bytes | str, where: str) -> Policy:
    try:
        raw = json.loads(data)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ArtifactError(f"{where}: not a compiled policy: the JSON does not parse ({exc}); "
                            "recompile with `rulekit compile --out`") from None
    if not isinstance(raw, dict) or "format_version" not in raw:
        raise ArtifactError(f"{where}: not a compiled policy: no `format_version` at $; "
                            "recompile with `rulekit compile --out`")
    version = raw["format_version"]
    if isinstance(version, int) and not isinstance(version, bool) and version > FORMAT_VERSION:
        from rulekit import __version__

        built = raw.get("compiled_by")
        built = built if isinstance(built, str) and len(built) <= 80 else "a newer rulekit"
        raise ArtifactError(
            f"{where}: $.format_version is {version}, this rulekit reads {FORMAT_VERSION}: the "
            f"artifact was built by a newer rulekit ({built}) than this one (rulekit "
            f"{__version__}); upgrade rulekit, or rebuild the artifact with this one "
            "(`rulekit compile --out`)")
    if raw["format_version"] != FORMAT_VERSION:
        raise ArtifactError(
            f"{where}: $.format_version is {raw['format_version']!r}, this rulekit reads "
            f"{FORMAT_VERSION}; recompile the ruleset with this version of rulekit")
    digest = raw.pop(DIGEST_FIELD, None)
    try:
        policy = Policy.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        path = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in first["loc"])
        raise ArtifactError(f"{where}: invalid compiled policy at {path}: {first['msg']} "
                            f"({exc.error_count()} problem(s)); recompile with "
                            "`rulekit compile --out`") from None
    # Checked after the shape, so an edit that breaks it is named by its JSON path; one that
    # validates (minor units made major) would run under the original ruleset hash.
    if digest is None:
        raise ArtifactError(f"{where}: no `{DIGEST_FIELD}` at $: the artifact cannot be "
                            "verified; recompile with `rulekit compile --out`")
    if digest != artifact_digest(raw):
        raise ArtifactError(f"{where}: $.{DIGEST_FIELD} does not match the content: the artifact "
                            "was edited after it was compiled; never edit an artifact, edit the "
                            "rules and recompile with `rulekit compile --out`")
    return policy
