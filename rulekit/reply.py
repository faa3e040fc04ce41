"""The reply a model produces, validated.

Two forms are accepted:

- claims (seed 002), the only channel for facts::

    {"answer_template": "Your order {order_id} shipped on {ship_date}.",
     "claims": [{"key", "type", "entity", "entity_id", "field", "value"}, ...]}

- slots (seed 000): the model names the subject, code supplies every value::

    {"grounded": true, "template": "The raincoat is {price}.",
     "subject": {"entity": "product", "id": "RC-500"}}

``read_reply`` never raises: anything malformed comes back as a list of ``Problem`` values, each
with the JSON path it is about, so the checker can turn it into the ruleset's action.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any, Union

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt, StrictStr
from pydantic import ValidationError

from rulekit.template import ParsedTemplate, parse_template

SLOT_NAME = r"^[A-Za-z_][A-Za-z0-9_]*$"
MAX_REPLY_CHARS = 1_000_000


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class Claim(_Strict):
    key: StrictStr = Field(pattern=SLOT_NAME)
    type: StrictStr
    entity: StrictStr
    entity_id: Union[StrictStr, StrictInt]
    field: StrictStr
    value: Union[StrictStr, StrictInt, StrictFloat, StrictBool]


class ClaimsReply(_Strict):
    answer_template: StrictStr
    claims: list[Claim]


class Subject(_Strict):
    entity: StrictStr
    id: Union[StrictStr, StrictInt]


class SlotReply(_Strict):
    grounded: StrictBool
    template: StrictStr
    subject: Subject | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class Problem:
    message: str
    path: str


@dataclasses.dataclass(frozen=True, slots=True)
class Reply:
    """A reply that passed validation, with its template already parsed."""
    form: str                               # "claims" or "slots"
    template: ParsedTemplate
    claims: tuple[Claim, ...] = ()
    grounded: bool = True
    subject: Subject | None = None


def json_path(loc: tuple) -> str:
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc)


_EXPECTED = {"string_type": "a string", "int_type": "an integer", "bool_type": "true or false",
             "float_type": "a number", "list_type": "a list", "model_type": "an object",
             "dict_type": "an object", "model_attributes_type": "an object"}


def _describe(kind: str, name: str, message: str) -> str:
    if kind == "missing":
        return f"`{name}` is missing"
    if kind == "extra_forbidden":
        if name in ("answer", "text", "response", "message", "prose"):
            return (f"`{name}` is not allowed: the template is the only text a reply may carry; "
                    "put facts in claims")
        return f"unexpected key `{name}`"
    if kind == "string_pattern_mismatch":
        return f"`{name}` must be a slot name (letters, digits and _, starting with a letter)"
    return f"`{name}`: {message}"


def _validation_problems(exc: ValidationError) -> list[Problem]:
    """One problem per JSON path; a union's members are folded into "a string or an integer"."""
    by_path: dict[str, list[dict]] = {}
    for error in exc.errors():
        loc = tuple(p for p in error["loc"] if not (isinstance(p, str) and p.startswith(
            ("str", "int", "float", "bool"))))
        by_path.setdefault(json_path(loc), []).append({**error, "loc": loc})
    problems = []
    for path, errors in by_path.items():
        name = str(errors[0]["loc"][-1]) if errors[0]["loc"] else "reply"
        expected = [_EXPECTED[e["type"]] for e in errors if e["type"] in _EXPECTED]
        if expected and len(expected) == len(errors):
            kinds = list(dict.fromkeys(expected))
            listed = kinds[0] if len(kinds) == 1 else ", ".join(kinds[:-1]) + " or " + kinds[-1]
            problems.append(Problem(f"`{name}` must be {listed}", path))
        else:
            first = next(e for e in errors if e["type"] not in _EXPECTED)
            problems.append(Problem(_describe(first["type"], name, first["msg"]), path))
    return problems


class _RepeatedKey(Exception):
    """Raised inside the shared decoder at the first key given twice; not a ValueError, so it
    cannot be mistaken for invalid JSON."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict:
    made = dict(pairs)
    if len(made) != len(pairs):
        raise _RepeatedKey
    return made


# One decoder for every reply: ``json.loads`` with a hook builds a new decoder on every call (a
# few microseconds, a fifth of decoding a short reply). Its hook keeps no state, so threads
# share it.
_DECODER = json.JSONDecoder(object_pairs_hook=_unique_keys)


def _loads(text: str) -> tuple[Any, list[Problem]]:
    """``json.loads``, but a key given twice in one object is a problem: JSON would silently
    keep the last (`"value": "$9.99", "value": "$1,299.00"`). Well-formed replies take the
    shared decoder; one with a repeated key is decoded again to find every repetition."""
    if not text.startswith("\ufeff"):     # json.loads words the error for a BOM better
        try:
            return _DECODER.decode(text), []
        except _RepeatedKey:
            pass
    repeated: dict[int, list[str]] = {}

    def pairs_to_dict(pairs: list[tuple[str, Any]]) -> dict:
        made = dict(pairs)
        if len(made) != len(pairs):
            seen: set[str] = set()
            repeated[id(made)] = [k for k, _ in pairs if k in seen or seen.add(k)]
        return made

    data = json.loads(text, object_pairs_hook=pairs_to_dict)
    return data, (_repeated_keys(data, repeated) if repeated else [])


def _repeated_keys(node: Any, repeated: dict[int, list[str]], path: str = "$") -> list[Problem]:
    problems = []
    if isinstance(node, dict):
        problems += [Problem(f"`{key}` is given twice; a reply must say each thing once",
                             f"{path}.{key}") for key in repeated.get(id(node), ())]
        for key, value in node.items():
            problems += _repeated_keys(value, repeated, f"{path}.{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            problems += _repeated_keys(value, repeated, f"{path}[{index}]")
    return problems


def read_reply(raw: Any) -> tuple[Reply | None, list[Problem]]:
    """Parse and validate a reply given as JSON text, bytes or an already-decoded object."""
    if isinstance(raw, (bytes, bytearray)):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            return None, [Problem(f"the reply is not UTF-8 (byte {exc.start})", "$")]
    if isinstance(raw, str):
        if len(raw) > MAX_REPLY_CHARS:
            # "more than": a reader may stop one character over the cap (rulekit check --reply)
            return None, [Problem(f"the reply is more than {MAX_REPLY_CHARS:,} characters, the "
                                  "limit on a reply", "$")]
        try:
            raw, repeated = _loads(raw)
        except RecursionError:
            return None, [Problem("the reply is nested too deeply", "$")]
        except ValueError as exc:
            where = f" at line {exc.lineno}, column {exc.colno}" if hasattr(exc, "lineno") else ""
            return None, [Problem(f"the reply is not valid JSON{where}: {getattr(exc, 'msg', exc)}",
                                  "$")]
        if repeated:
            return None, repeated
    if not isinstance(raw, dict):
        return None, [Problem("the reply must be a JSON object", "$")]
    if "answer_template" in raw or "claims" in raw:
        return _read_claims(raw)
    if "template" in raw or "grounded" in raw:
        return _read_slots(raw)
    return None, [Problem("the reply has neither `answer_template` and `claims` nor `grounded` "
                          "and `template`", "$")]


def _read_claims(raw: dict) -> tuple[Reply | None, list[Problem]]:
    try:
        reply = ClaimsReply.model_validate(raw)
    except ValidationError as exc:
        return None, _validation_problems(exc)
    template = parse_template(reply.answer_template)
    problems = [Problem(f"malformed template: {p.message}", "$.answer_template")
                for p in template.problems]
    first: dict[str, int] = {}
    for index, claim in enumerate(reply.claims):
        if claim.key in first:
            problems.append(Problem(f"duplicate claim key `{claim.key}` (first at "
                                    f"$.claims[{first[claim.key]}])", f"$.claims[{index}].key"))
        else:
            first[claim.key] = index
    names = template.slot_names
    slots = set(names)
    for name in names:
        if name not in first:
            problems.append(Problem(f"slot `{{{name}}}` has no claim", "$.answer_template"))
    for key, index in first.items():
        if key not in slots:
            problems.append(Problem(f"claim `{key}` is used by no slot in the template",
                                    f"$.claims[{index}].key"))
    if problems:
        return None, problems
    return Reply("claims", template, claims=tuple(reply.claims)), []


def _read_slots(raw: dict) -> tuple[Reply | None, list[Problem]]:
    try:
        reply = SlotReply.model_validate(raw)
    except ValidationError as exc:
        return None, _validation_problems(exc)
    template = parse_template(reply.template)
    problems = [Problem(f"malformed template: {p.message}", "$.template")
                for p in template.problems]
    if reply.grounded and reply.subject is None:
        problems.append(Problem("`subject` is missing: a grounded reply names its entity and id",
                                "$.subject"))
    if problems:
        return None, problems
    return Reply("slots", template, grounded=reply.grounded, subject=reply.subject), []
