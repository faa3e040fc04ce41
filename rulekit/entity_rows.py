"""Which objects in JSON evidence are rows of a ruleset's entities.

One recogniser for everything that reads evidence with a ruleset: the evidence block
(``rulekit.prompt``: a hidden field is not shown) and the sweep's row rules (``rulekit.sweep``:
hidden and stale fields license nothing), so the model is never shown a row the audit does
not judge as one, nor the other way round.

A row of entity E is found

1. at a path the ruleset declares for it (``entity product from evidence "$.products[*]"``);
2. under a key, at any depth, that names E or its plural (``-s``, ``-es``, ``-y`` to
   ``-ies``), compared without case, ``_`` or ``-``: ``order``, ``orders``, ``Order``,
   ``ORDERS``, ``result.order``, ``data[0].orders``, ``lineItems`` for ``line_item``. What
   that key holds is

   - a row: an object that names at least one of E's fields;
   - a list of rows, in which a null, a plain value (an id) and an object of plain values
     naming none of E's fields are passed over: they are no rows;
   - a plain value (an id, a count), or an object of plain values naming none of E's fields
     (``{"orders": {"count": 2}}``): no row.

   Anything else there cannot be placed: an object naming none of E's fields that holds an
   object or a list (rows keyed by id, a wrapper such as ``{"edges": [...]}``), or a list
   holding a list. For an entity whose rows keep rules in evidence (a hidden field, or a
   freshness budget: ``keeps_rules``) that is an ``EntityRowError`` naming the place, so the
   block and the audit fail closed rather than show or license rows they cannot see; declare
   the path instead (``entity order from evidence "$.orders.edges[*].node"``). For any other
   entity it is passed over: it has nothing to withhold. The same holds for such an object
   found at a declared path (``{"node": row}`` at ``"$.products[*]"``): the error names the
   path that reaches the rows.

Within a row, a key names a field when it equals the field's name without case, ``_`` or
``-`` (``Updated_At``, ``updatedAt`` and ``updated-at`` are ``updated_at``), so a hidden
field is not shown under another spelling and a row's age is read whatever the spelling. A
row of an entity that keeps rules and names one field twice (``updated_at`` beside
``updatedAt``) cannot be placed either. Rows inside a row are found too (an order's
``customer``). A row found twice keeps its first place: declared paths first.

Rows given only with an input (``requires postcode matching delivery_postcode``): the sweep,
told no inputs, licenses nothing of such a row (``missing_input``: the ruleset's ``on missing
postcode`` action, usually to ask for it). Told the user's inputs (``given``, ``index_given``;
``audit``, ``StreamGate`` and ``rulekit test`` take ``inputs=``), a row goes three ways:

- its inputs were all given and each equals its ``matching`` field: it licenses its figures;
- an input was given and is not the row's: the row is dropped, as if the source had none, so
  its figures are stray ones and nothing says a row was there (the claims channel's
  ``not_found``);
- an input it needs was not given (absent or blank) and none given is wrong: it stays, and its
  figures still ask for that input (``missing_input``), as without inputs.

``check_inputs`` says what is wrong with inputs a caller passed (not a mapping of text to
text, a name the ruleset does not declare), naming the input. ``rulekit.ground`` uses
``given`` for the evidence it shows the model, which holds neither a wrong row nor one whose
input is missing.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import Any, NamedTuple, Sequence

from rulekit.evidence import _PATH_STEP, EvidenceError, fold_name as _folded, locate
from rulekit.policy import Entity, Field, Identity, Policy, derived

__all__ = ["EntityRowError", "Given", "PlacedRow", "check_inputs", "entity_rows", "given",
           "index_given", "keeps_rules", "row_places", "undeclared_input"]

# Where rows may be: an entity with the JSON paths binding declares for its rows.
Places = Sequence[tuple[Entity, tuple[str, ...]]]


class EntityRowError(EvidenceError):
    """An object under an entity's name, or at a path it declares, that is none of its rows,
    nor a list of them: evidence that cannot be indexed, whose message (shown whole, as an
    ``EvidenceError``'s) names the place and the fix."""


class PlacedRow(NamedTuple):
    """A row of ``entity`` at ``path`` in the evidence; ``fields`` maps each of the row's keys
    that names a field of the entity to that field."""
    entity: Entity
    row: Mapping
    path: str
    fields: Mapping[str, Field]


def row_places(policy: Policy) -> tuple[tuple[Entity, tuple[str, ...]], ...]:
    """Every entity of ``policy``, with the paths binding declares for its rows. The same
    tuple for the same policy object, so what is derived from it is derived once."""
    return derived(policy, "rows.places", _places_of)


def _places_of(policy: Policy) -> tuple[tuple[Entity, tuple[str, ...]], ...]:
    declared = {e.name: e.paths for e in policy.binding.entities}
    return tuple((entity, tuple(declared.get(entity.name, ()))) for entity in policy.entities)


def keeps_rules(entity: Entity) -> bool:
    """Whether rows of ``entity`` in evidence keep rules of the system of record: a hidden
    field, a freshness budget read from its ``via`` field, or an input it requires."""
    return bool(entity.requires) or any(not f.readable for f in entity.fields) or bool(
        entity.fresh_via and (entity.fresh_seconds or any(f.fresh_seconds
                                                          for f in entity.fields)))


class Given(NamedTuple):
    """The evidence a user who gave some inputs may be given.

    - ``evidence``: what may be shown to them (and to the model): without the rows that do
      not go with the inputs, nor those whose input is missing (the same object when every
      row goes with them);
    - ``missing``: the (entity, input) pairs whose input was not given for a row the evidence
      held;
    - ``places``: ``row_places`` with each entity's ``requires`` cut to the inputs not given,
      for indexing ``audited``;
    - ``audited``: what the audit judges: without the rows an input given does not match, so
      a row whose input is missing still asks for it (``missing_input``)."""
    evidence: Any
    missing: tuple[tuple[str, str], ...]
    places: tuple[tuple[Entity, tuple[str, ...]], ...]
    audited: Any

    def settings(self, policy: Policy):
        """The sweep's settings of ``policy`` with the rows of ``places``."""
        import dataclasses

        from rulekit.sweep import SweepSettings

        settings = SweepSettings.from_policy(policy)
        if settings.row_entities and settings.row_entities is not self.places:
            settings = dataclasses.replace(settings, row_entities=self.places)
        return settings

    def index(self, policy: Policy, *, locale: str | None = None, now: Any = None):
        """The sweep's index of ``audited`` under ``policy`` (see ``index_given``)."""
        return self.settings(policy).index(self.audited, locale or policy.locale, now=now)


def given(policy: Policy, evidence: Any, inputs: Mapping[str, Any] | None) -> Given:
    """``evidence`` as a user who gave ``inputs`` may see it: a row of an entity that
    ``requires`` an input goes only with that input given (not blank) and, under ``matching
    FIELD``, equal to the row's field, compared without case or white space, as the claims
    channel compares it. A row an input given does not match is dropped from both
    ``evidence`` and ``audited``, as if the source had none: whoever holds an order number
    learns nothing of the order. A row whose input was not given is dropped from
    ``evidence`` only: the audit still asks for the input when an answer uses its figures.
    Raises ``EntityRowError`` for an object it cannot place."""
    from rulekit.check import _squeezed

    inputs = inputs or {}
    places = row_places(policy)
    if not any(entity.requires for entity, _ in places):
        return Given(evidence, (), places, evidence)
    present = {name: _squeezed(value) for name, value in inputs.items()}
    present = {name: value for name, value in present.items() if value}
    wrong: set[int] = set()
    unopened: set[int] = set()
    missing: dict[tuple[str, str], None] = {}
    for row_id, (entity, row, _, fields) in entity_rows(places, evidence).items():
        if not entity.requires:
            continue
        lacking = [name for name in entity.requires if name not in present]
        missing.update(((entity.name, name), None) for name in lacking)
        if _mismatched(entity, row, fields, present):
            wrong.add(row_id)
        elif lacking:
            unopened.add(row_id)
    audited = _without(evidence, wrong) if wrong else evidence
    shown = _without(evidence, wrong | unopened) if unopened else audited
    needed = frozenset(name for name in present
                       if any(name in entity.requires for entity, _ in places))
    return Given(shown, tuple(missing), _places_given(Identity(policy), needed), audited)


def _mismatched(entity: Entity, row: Mapping, fields: Mapping[str, Field],
                present: Mapping[str, str]) -> bool:
    """Whether an input given (``present``, squeezed) is not the row's ``matching`` field
    (``same_input``: a postcode without its hyphen, a ZIP by its five digits)."""
    from rulekit.check import same_input

    checked = [(name, against) for name, against in entity.matching if name in present]
    if not checked:
        return False
    values = {field.name: row[key] for key, field in fields.items()}
    return any(not same_input(present[name], values.get(against), against)
               for name, against in checked)


@functools.lru_cache(maxsize=64)
def _places_given(key: Identity, present: frozenset[str]
                  ) -> tuple[tuple[Entity, tuple[str, ...]], ...]:
    """``row_places`` with each entity's ``requires`` cut to the inputs not ``present``: once
    the rows a given input does not match are dropped, the others license what they hold, but
    for a row whose input is missing, whose figures still ask for it. The same tuple for the
    same policy and inputs, so the sweep derives its row finder once."""
    places = row_places(key.policy)
    if not present:
        return places
    out = []
    for entity, paths in places:
        if any(name in present for name in entity.requires):
            entity = entity.model_copy(update={
                "requires": tuple(n for n in entity.requires if n not in present),
                "matching": tuple(m for m in entity.matching if m[0] not in present)})
        out.append((entity, paths))
    return tuple(out)


def check_inputs(policy: Policy | None, inputs: Any) -> str | None:
    """What is wrong with ``inputs`` a caller passed for the user under ``policy`` (None: the
    built-in rules, which declare no input), naming the input: not a mapping, a name that is
    not text or that the ruleset does not declare, a value that is not text. None when they
    are fine; ``None`` inputs are none given."""
    if inputs is None:
        return None
    if not isinstance(inputs, Mapping):
        return (f"inputs must be a mapping of input names to what the user gave "
                f"({{\"postcode\": \"10115\"}}), not {type(inputs).__name__}")
    for name, value in inputs.items():
        if not isinstance(name, str):
            return f"input {name!r}: an input's name must be a string, not {type(name).__name__}"
        unknown = undeclared_input(policy, name)
        if unknown:
            return f"input {name!r}: {unknown}"
        if not isinstance(value, str):
            return (f"input {name!r}: what the user gave must be a string, not "
                    f"{type(value).__name__} ({{\"{name}\": \"...\"}})")
    return None


def undeclared_input(policy: Policy | None, name: str, *, remove: str = "give none",
                     rules: str = "a ruleset") -> str | None:
    """Why ``name`` is not an input of ``policy`` (None: the built-in rules), with the inputs it
    does declare and the closest of them; None when it is one. ``remove`` and ``rules`` word
    the fixes for the caller (``rulekit audit --input``: "remove the flag", "--rules with a
    ruleset")."""
    import difflib

    declared = [item.name for item in policy.inputs] if policy is not None else []
    if name in declared:
        return None
    if policy is None:
        return f"the built-in rules declare no inputs; use {rules} that declares it, or {remove}"
    if not declared:
        return (f"the ruleset '{policy.name}' declares no inputs; {remove}, or declare one: "
                f"`input {name} label \"...\"`")
    close = difflib.get_close_matches(name, declared, n=1)
    return (f"the ruleset '{policy.name}' declares no input '{name}'; "
            + (f"did you mean '{close[0]}'? " if close else "")
            + f"declared inputs: {', '.join(sorted(declared))}")


def index_given(policy: Policy, evidence: Any, inputs: Mapping[str, Any] | None, *,
                locale: str | None = None, now: Any = None):
    """The sweep's index (``rulekit.evidence.Evidence``, for ``audit`` or ``StreamGate``) of
    ``given(...).audited``: the rows that go with ``inputs`` license their figures, those an
    input given does not match are gone, and those whose input is missing ask for it
    (``missing_input``). ``audit(..., inputs=...)`` does this itself."""
    return given(policy, evidence, inputs).index(policy, locale=locale, now=now)


def _without(node: Any, dropped: set[int]) -> Any:
    """``node`` rebuilt without the objects whose ``id()`` is in ``dropped``: an object under
    a key loses that key, one in a list leaves the list. Only what holds a dropped object is
    rebuilt."""
    shape = _shape(node)
    if not shape:
        return node
    if shape == _OBJECT:
        items = [(key, child) for key, child in node.items() if id(child) not in dropped]
        rebuilt = {key: _without(child, dropped) for key, child in items}
        same = len(items) == len(node) and all(rebuilt[key] is child for key, child in items)
    else:
        children = [child for child in node if id(child) not in dropped]
        rebuilt = [_without(child, dropped) for child in children]
        same = len(children) == len(node) and all(a is b for a, b in zip(rebuilt, children))
    return node if same else rebuilt


def entity_rows(places: Places, evidence: Any) -> dict[int, PlacedRow]:
    """The rows of the entities of ``places`` in JSON ``evidence``, by the ``id()`` of each
    row (the dict holds the rows, so an id is not reused while it lives). Raises
    ``EntityRowError`` for an object it cannot place (see the module's docstring)."""
    placed: dict[int, PlacedRow] = {}
    if not places or not _shape(evidence):
        return placed
    finder = _finder_of(Identity(places))
    for entity, paths in places:
        for path in paths:
            for row in locate(evidence, path):
                if id(row) not in placed:
                    fields = finder.fields(entity, row, path)
                    if not fields and any(_shape(v) for v in row.values()):
                        finder.wrapped(entity, evidence, path, row)
                    placed[id(row)] = PlacedRow(entity, row, path, fields)
    stack: list[tuple[Any, str]] = [(evidence, "$")]
    while stack:    # not recursive: evidence may be nested deeper than Python's stack
        node, path = stack.pop()
        if _shape(node) == _OBJECT:
            for key, child in node.items():
                if _shape(child):
                    child_path = f"{path}.{key}"
                    entity = finder.named(str(key))
                    if entity is not None:
                        finder.held(entity, child, child_path, placed)
                    stack.append((child, child_path))
        else:
            for index, child in enumerate(node):
                if _shape(child):
                    stack.append((child, f"{path}[{index}]"))
    return placed


_OBJECT, _LIST = 1, 2
_PLAIN = frozenset({str, int, float, bool, type(None)})


def _shape(value: Any) -> int:
    """``_OBJECT``, ``_LIST``, or 0 for a plain value; JSON's own types by their type first,
    as an ``isinstance`` against the ``Mapping`` ABC costs a good deal more."""
    kind = type(value)
    if kind is dict:
        return _OBJECT
    if kind is list or kind is tuple:
        return _LIST
    if kind in _PLAIN:
        return 0
    return _OBJECT if isinstance(value, Mapping) else _LIST if isinstance(value, (list, tuple)) \
        else 0


def _plurals(name: str) -> tuple[str, ...]:
    forms = (name + "s", name + "es")
    return forms + ((name[:-1] + "ies",) if name.endswith("y") else ())


@functools.lru_cache(maxsize=16)
def _finder_of(key: Identity) -> "_Finder":
    """The names of ``places`` folded once: the sweep indexes with the same tuple every time
    (``SweepSettings.row_entities``), and the block with ``row_places``'s."""
    return _Finder(key.policy)


class _Finder:
    """The names of one call's entities and of their fields, compared folded."""

    def __init__(self, places: Places):
        self.by_name: dict[str, Entity] = {}
        for entity, _ in places:        # an entity's own name wins over another's plural
            self.by_name.setdefault(_folded(entity.name), entity)
        for entity, _ in places:
            for form in _plurals(entity.name):
                self.by_name.setdefault(_folded(form), entity)
        # A field by its folded name, and by its own (the common spelling, found without
        # folding the key).
        self.field_names: dict[str, dict[str, Field]] = {
            entity.name: {**{_folded(f.name): f for f in entity.fields},
                          **{f.name: f for f in entity.fields}} for entity, _ in places}
        self.strict = {entity.name: keeps_rules(entity) for entity, _ in places}

    def named(self, key: str) -> Entity | None:
        return self.by_name.get(_folded(key))

    def fields(self, entity: Entity, row: Mapping, path: str) -> dict[str, Field]:
        names = self.field_names[entity.name]
        found: dict[str, Field] = {}
        key_of: dict[str, str] = {}     # field name -> the row's key for it
        for key in row:
            key = str(key)
            field = names.get(key) or names.get(_folded(key))
            if field is None:
                continue
            if field.name in key_of:
                if self.strict[entity.name]:
                    raise EntityRowError(
                        f"{path}: a row of entity '{entity.name}' names its field "
                        f"'{field.name}' twice ({key_of[field.name]!r} and {key!r}); give it "
                        "once")
                continue
            key_of[field.name] = key
            found[key] = field
        return found

    def held(self, entity: Entity, value: Any, path: str, placed: dict[int, PlacedRow]) -> None:
        """What a key named after ``entity`` holds: a row, a list of rows, or no row."""
        if _shape(value) == _OBJECT:
            self.row(entity, value, path, placed)
            return
        for index, item in enumerate(value):
            shape = _shape(item)
            if shape == _OBJECT:
                self.row(entity, item, f"{path}[{index}]", placed)
            elif shape == _LIST:
                self.unplaced(entity, f"{path}[{index}]", "a list inside the list of its rows")

    def row(self, entity: Entity, node: Mapping, path: str,
            placed: dict[int, PlacedRow]) -> None:
        if id(node) in placed:
            return
        fields = self.fields(entity, node, path)
        if fields:
            placed[id(node)] = PlacedRow(entity, node, path, fields)
        elif any(_shape(v) for v in node.values()):
            self.unplaced(entity, path, "an object that names none of its fields and holds "
                          "objects or lists (rows keyed by id? a wrapper?)")

    def wrapped(self, entity: Entity, evidence: Any, declared: str, node: Mapping) -> None:
        """An object at a path ``entity`` declares that names none of its fields and holds
        objects or lists: a wrapper (``{"node": row}``, ``{"edges": [...]}``) or rows keyed by
        id, refused as under the entity's name, with the path that reaches the rows."""
        if not self.strict[entity.name]:
            return
        inner = [(str(k), v) for k, v in node.items() if _shape(v)]
        fix = "give the rows as a list at that path"
        if len(inner) == 1 and _PATH_NAME.fullmatch(inner[0][0]):
            key, value = inner[0]
            to_rows = f"{declared}.{key}" + ("[*]" if _shape(value) == _LIST else "")
            fix = f"declare the rows' path: entity {entity.name} from evidence \"{to_rows}\"; or {fix}"
        raise EntityRowError(
            f"{_place_of(evidence, declared, node)}: at entity '{entity.name}''s path "
            f"{declared!r}, an object naming none of its fields that holds objects or lists (a "
            f"wrapper? rows keyed by id?): its hidden and dated fields cannot be told apart; {fix}")

    def unplaced(self, entity: Entity, path: str, what: str) -> None:
        if self.strict[entity.name]:
            raise EntityRowError(
                f"{path}: under the name of entity '{entity.name}' is {what}, not one of its "
                f"rows nor a list of them, so its hidden and dated fields cannot be told "
                f"apart; give the rows as a list, or declare where they are: "
                f"entity {entity.name} from evidence \"$.path.to.rows[*]\"")


# A step ``.name`` of a declared path (``rulekit.evidence.locate``).
_PATH_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _place_of(evidence: Any, path: str, node: Mapping) -> str:
    """Where ``node``, one of the objects at the declared ``path``, is: ``$.products[0]`` for
    ``$.products[*]``. Only for an error's message, so it walks again rather than have
    ``locate`` keep every place."""
    steps = [(evidence, "$")]
    for step in _PATH_STEP.findall(path):
        found = []
        for value, where in steps:
            if step.startswith("[") and _shape(value) == _LIST:
                indexes = range(len(value)) if step == "[*]" else [int(step[1:-1])]
                found.extend((value[i], f"{where}[{i}]") for i in indexes if i < len(value))
            elif not step.startswith("[") and _shape(value) == _OBJECT and step[1:] in value:
                found.append((value[step[1:]], where + step))
        steps = found
    return next((where for value, where in steps if value is node), path)

