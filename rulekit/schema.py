"""The JSON Schema of the reply a model must produce, built from a policy.

A model that decodes against this schema (OpenAI structured outputs, an Anthropic tool, any
JSON-Schema-constrained decoder) cannot name an entity or field that is not on the ruleset's
whitelist: the readable fields are baked in as enums, one ``anyOf`` branch per (entity, field),
so a hidden field, an unknown entity or a field of another entity is not a reply the decoder
can write. Each branch also fixes the claim's ``type`` to the types the checker compares that
field with, and the ``value`` to a JSON type the checker can read.

The schema narrows what the model writes; it never replaces the checker. ``rulekit.reply`` and
``rulekit.check`` still validate every reply, because a schema cannot say that every ``{slot}``
of the template has a claim, that claim keys are unique, or that a value is true.

Every object has ``additionalProperties: false`` and lists every property as ``required``, and
no keyword outside the small subset strict decoders accept is used (no ``const``, no
``format``, no ``oneOf``): the same schema serves all three flavors, which differ only in the
envelope (``$schema`` and ``title`` for plain JSON Schema).
"""

from __future__ import annotations

import re
from typing import Any, Callable

from rulekit.compare import COMPARATORS
from rulekit.policy import Entity, Field, Policy
from rulekit.reply import SLOT_NAME

FLAVORS = ("jsonschema", "openai", "anthropic")
FORMS = ("claims", "slots")
DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"

# OpenAI's response format name and Anthropic's tool name: letters, digits, _ and -, at most 64.
_API_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")



def _enum(*values: str) -> dict:
    """A string restricted to ``values``. A one-value enum stands in for ``const``, which
    OpenAI's strict mode does not accept."""
    return {"type": "string", "enum": list(values)}


def _obj(properties: dict[str, dict], description: str | None = None) -> dict:
    """An object that allows exactly ``properties``, every one of them required: what strict
    decoders demand, and what ``rulekit.reply`` enforces anyway (it forbids extra keys)."""
    made: dict[str, Any] = {"type": "object"}
    if description:
        made["description"] = description
    made.update(properties=properties, required=list(properties), additionalProperties=False)
    return made


# --- the value of a claim, by the field's type -----------------------------------------------

def _money(field: Field) -> dict:
    return {"anyOf": [{"type": "string"}, {"type": "number"}], "description": (
        f"the amount in {field.type.currency} as a reader would write it, e.g. \"12.99\" or "
        "12.99 (not in minor units)")}


def _date(field: Field) -> dict:
    return {"type": "string", "description": "a calendar day, e.g. \"2026-07-30\""}


def _timestamp(field: Field) -> dict:
    return {"type": "string", "description": (
        "a day (\"2026-07-30\", with type date) or an instant (\"2026-07-30T09:15:00Z\", with "
        "type timestamp)")}


def _decimal(field: Field) -> dict:
    shown = "a number, e.g. 4.6" + (" (percentage points)" if field.type.percent else
                                    " (a ratio: 0.046 is 4.6%)" if field.type.ratio else "")
    return {"anyOf": [{"type": "number"}, {"type": "string"}], "description": shown}


def _integer(field: Field) -> dict:
    return {"type": "integer", "description": "a whole number; 0 is a value"}


def _boolean(field: Field) -> dict:
    return {"type": "boolean"}


def _enum_value(field: Field) -> dict:
    """The declared values, then the alias table's other words: the checker maps every alias
    to its value (case-folded), so a schema-valid alias is never rejected. The alias keys are
    stored case-folded; a model writing "Shipped" is read as "shipped" by the checker, but the
    schema asks for the listed spelling."""
    values = list(field.type.values)
    known = set(values)
    values += [alias for alias, _ in field.type.aliases if alias not in known]
    return _enum(*values)


def _string(field: Field) -> dict:
    return {"type": "string"}


VALUE_SCHEMAS: dict[str, Callable[[Field], dict]] = {
    "money": _money,
    "date": _date,
    "timestamp": _timestamp,
    "decimal": _decimal,
    "integer": _integer,
    "boolean": _boolean,
    "enum": _enum_value,
    "identifier": _string,
    "url": _string,
    "text": _string,
}


def _entity_id(entity: Entity) -> dict:
    """The key's JSON type: an integer for an integer key, else a string (the parser accepts
    either, but a string id against an integer column is another value in some databases)."""
    key = entity.field(entity.key)
    if key is not None and key.type.kind == "integer":
        return {"type": "integer", "description": f"the {entity.name}'s {entity.key}"}
    return {"type": "string", "description": f"the {entity.name}'s {entity.key}"}


def _readable_entities(policy: Policy) -> list[Entity]:
    """The entities a reply may cite: those with at least one readable field, in policy order."""
    return [e for e in policy.entities if e.readable_fields]


# --- the two forms ----------------------------------------------------------------------------

def _claim_branch(entity: Entity, field: Field) -> dict:
    kind = field.type.kind
    claim_types = sorted(COMPARATORS[kind].claim_types)
    about = f"{entity.name}.{field.name}: {field.label} ({kind})"
    return _obj({
        "key": {"type": "string", "pattern": SLOT_NAME,
                "description": "the {slot} of the template this claim fills"},
        "type": _enum(*claim_types),
        "entity": _enum(entity.name),
        "entity_id": _entity_id(entity),
        "field": _enum(field.name),
        "value": VALUE_SCHEMAS[kind](field),
    }, about)


def _claims_form(policy: Policy) -> dict:
    branches = [_claim_branch(entity, field) for entity in _readable_entities(policy)
                for field in entity.readable_fields]
    if branches:
        claims: dict[str, Any] = {"type": "array", "items": {"anyOf": branches}}
    else:   # nothing is readable: the array can hold nothing, and stays a strict schema
        claims = {"type": "array", "maxItems": 0, "items": _obj({})}
    claims["description"] = ("one claim per {slot} of the template, the only way to state a "
                             "fact: which entity, which row, which field, and the value")
    return _obj({
        "answer_template": {"type": "string", "description": (
            "the answer, with a {key} slot wherever a fact goes; code fills each slot from the "
            "record. No figures, dates, prices or links outside slots")},
        "claims": claims,
    }, f"a reply for ruleset {policy.name}: a template and the typed claims that fill it")


def _subject_branch(entity: Entity) -> dict:
    slots = ", ".join(f"{{{f.name}}}" for f in entity.readable_fields)
    return _obj({"entity": _enum(entity.name), "id": _entity_id(entity)},
                f"subject {entity.name}; the template's slots may be {slots}")


def _slots_form(policy: Policy) -> dict:
    subjects = [_subject_branch(e) for e in _readable_entities(policy)]
    return _obj({
        "grounded": {"type": "boolean", "description": (
            "false when the answer cannot be grounded in one record: the customer is told so")},
        "template": {"type": "string", "description": (
            "the answer, with a {field} slot wherever a fact of the subject goes; code fills "
            "every slot. No figures, dates, prices or links outside slots")},
        "subject": {"anyOf": subjects + [{"type": "null"}], "description": (
            "the record the answer is about; null only when grounded is false")},
    }, f"a reply for ruleset {policy.name}: a template whose slots code fills from one record")


_FORMS: dict[str, Callable[[Policy], dict]] = {"claims": _claims_form, "slots": _slots_form}


def reply_schema(policy: Policy, flavor: str = "jsonschema", form: str = "claims") -> dict:
    """The JSON Schema of a reply under ``policy``, as a new dict (callers may change it).

    ``flavor`` is ``"jsonschema"`` (draft 2020-12, with ``$schema``), ``"openai"`` (the
    ``schema`` of a strict ``response_format``; see ``response_format``) or ``"anthropic"``
    (a tool's ``input_schema``; see ``tool``). ``form`` is ``"claims"`` or ``"slots"``.
    Raises ValueError for an unknown flavor or form.
    """
    if flavor not in FLAVORS:
        raise ValueError(f"flavor must be one of {', '.join(FLAVORS)}, not {flavor!r}")
    if form not in FORMS:
        raise ValueError(f"form must be one of {', '.join(FORMS)}, not {form!r}")
    body = _FORMS[form](policy)
    if flavor != "jsonschema":
        return body
    return {"$schema": DRAFT_2020_12, "title": f"{policy.name} {policy.version} {form} reply",
            **body}


def _api_name(name: str, what: str) -> str:
    if not _API_NAME.match(name):
        raise ValueError(f"{what} {name!r} must be 1 to 64 letters, digits, '_' or '-'")
    return name


def response_format(policy: Policy, *, name: str | None = None, form: str = "claims") -> dict:
    """OpenAI's ``response_format`` for a strict structured output: pass it as is to
    ``chat.completions.create(response_format=...)``. ``name`` defaults to
    ``<ruleset>_reply``."""
    chosen = name if name is not None else re.sub(r"[^A-Za-z0-9_-]", "_",
                                                  f"{policy.name}_reply")[:64]
    return {"type": "json_schema", "json_schema": {
        "name": _api_name(chosen, "the response format name"), "strict": True,
        "schema": reply_schema(policy, "openai", form)}}


def tool(policy: Policy, name: str = "reply", *, form: str = "claims",
         description: str | None = None) -> dict:
    """An Anthropic tool definition ``{"name", "description", "input_schema"}`` whose input is
    the reply; force it with ``tool_choice={"type": "tool", "name": name}`` and read the
    ``tool_use`` block's ``input`` as the reply."""
    return {
        "name": _api_name(name, "the tool name"),
        "description": description or (
            f"Give your answer for {policy.name}: a template with a slot for every fact, "
            + ("and one typed claim per slot saying where the fact lives."
               if form == "claims" else "and the one record whose fields fill the slots.")),
        "input_schema": reply_schema(policy, "anthropic", form),
    }
