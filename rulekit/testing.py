"""Tests for rulesets: cases in YAML beside the rules, coverage, and mutants.

A ruleset author writes ``shop.tests.yaml`` beside ``shop.rules``::

    now: "2026-11-30T12:05:00Z"          # shared by every case unless a case says otherwise
    rows:
      product: [{sku: RC-500, name: Navy raincoat, price: 129900, stock: 0,
                 updated_at: "2026-11-30T12:03:00Z"}]
    cases:
      - name: a price in any notation is the stored price
        reply: {answer_template: "{name} is {price}.", claims: [...]}
        want_decision: answer
        want_text: "Navy raincoat is $1,299.00."

A case with a ``reply`` is checked against its ``rows`` with ``rulekit.check``; a case with a
``text`` is swept against its ``evidence`` with ``rulekit.audit``. Either may give ``inputs``,
what the user gave (``{postcode: "10115"}``; the top of the file may give them for every case):
only inputs the ruleset declares, else the case fails naming the input and its line. ``run`` returns a ``Report``;
``rulekit test`` prints it, and ``rulekit.pytest_plugin`` turns every case into a pytest item.

Three questions, three tools:

- **Does the ruleset do what its author meant?** Each case states what it wants (``want_*``),
  and a failure shows a diff of want against got.
- **What did no case exercise?** ``coverage`` lists the readable fields (and their entities)
  no claim was judged against, the alias words no claim used, the shapes no template matched,
  and the failure actions (and their ``then`` branches) no case fired.
- **Would a wrong figure get through?** ``mutants`` takes every case that was answered and
  changes one figure at a time (a number, a date, an identifier, a handle, a URL, an enum
  value) to a value the data does not hold, in the same notation. A mutant that is still
  answered *survives*: the ruleset, or rulekit, let a wrong figure through.

Everything here is a value: a bad tests file gives ``Problem``s naming the file, the line and
the YAML path; nothing raises for bad input, and nothing is kept between runs.
"""

from __future__ import annotations

import copy
import dataclasses
import datetime as dt
import difflib
import json
import re
import sys
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import yaml

from rulekit import dates
from rulekit.files import read_capped

TESTS_SUFFIX = ".tests.yaml"
# The largest tests file read: a few thousand cases. YAML is read at about 1 MB a second, and a
# larger file is generated, not written.
MAX_TESTS_BYTES = 10 * 1024 * 1024

DECISIONS = ("answer", "regenerate", "refuse", "ask", "handoff", "fallback")
CLAIM_OUTCOMES = ("confirmed", "contradicted", "misattributed", "not_found", "not_checkable",
                  "stale")

# What a case may hold. A case is a check (``reply`` against ``rows``) or an audit (``text``
# against ``evidence``); the other keys tune the run.
CHECK_INPUTS = ("rows", "reply", "now", "inputs", "attempt", "tenant")
AUDIT_INPUTS = ("evidence", "text", "question", "locale", "history", "attempt", "inputs", "now")
WANTS = ("want_decision", "want_claims", "want_issues", "want_next_action", "want_text",
         "want_message")
CASE_KEYS = frozenset(("name",) + CHECK_INPUTS + AUDIT_INPUTS + WANTS)
# Keys the top of a file may set once for every case; a case's own key wins.
SHARED_KEYS = ("rows", "evidence", "now", "inputs", "tenant", "question", "locale")
FILE_KEYS = frozenset(("ruleset", "cases") + SHARED_KEYS)



# --- problems ---------------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Problem:
    """Something wrong with a tests file (or its ruleset), with where it is."""
    path: str
    message: str
    line: int | None = None             # 1-based
    column: int | None = None           # 1-based
    where: str | None = None            # the YAML path: $.cases[2].want_claims

    def __str__(self) -> str:
        place = self.path + (f":{self.line}" if self.line else "") + (
            f":{self.column}" if self.line and self.column else "")
        return f"{place}: error: {self.message}" + (f" (at {self.where})" if self.where else "")

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


# --- reading a tests file ---------------------------------------------------------------------

class _Loader(yaml.SafeLoader):
    """Safe YAML read as JSON would be read, so that nothing an author wrote is silently turned
    into something else:

    - dates and times stay text, as in JSON: the checker reads them by the field's type, and
      the sweep reads only text and numbers in evidence;
    - a plain scalar is a number only when written as JSON writes one (``3``, ``-12``,
      ``4.23``, ``1e3``), and a boolean only as ``true`` or ``false``. YAML 1.1's other forms
      stay text: ``01067`` is the postcode, not the octal 567; ``0x1F``, ``1_000``, ``1:20``,
      ``+1``, ``yes``, ``no``, ``on``, ``off`` and ``NO`` (Norway) are what they say;
    - a key given twice in one mapping, a NaN or an infinity (``.nan``, ``.inf``) and a number
      beyond a double's range (``1e400``, an integer of hundreds of digits) are problems at
      their line and column (``problems``), never a value picked silently.
    """

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.problems: list[tuple[str, yaml.Mark]] = []

    def construct_mapping(self, node: yaml.Node, deep: bool = False) -> dict:
        if isinstance(node, yaml.MappingNode):
            seen: dict[tuple[str, str], yaml.Mark] = {}
            for key_node, _ in node.value:
                if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == _MERGE:
                    continue
                first = seen.setdefault((key_node.tag, key_node.value), key_node.start_mark)
                if first is not key_node.start_mark:
                    self.problems.append((
                        f"`{key_node.value}` is given twice in one mapping (first on line "
                        f"{first.line + 1}, column {first.column + 1}); give each key once",
                        key_node.start_mark))
        return super().construct_mapping(node, deep)

    def construct_checked_int(self, node: yaml.Node) -> int | None:
        text = str(node.value).replace("_", "")
        digits = len(text.lstrip("+-"))
        if digits <= 308:
            return self.construct_yaml_int(node)
        if digits > 309 or abs(self.construct_yaml_int(node)) > sys.float_info.max:
            self.problems.append((f"a number of {digits:,} digits is out of range: a number "
                                  "must be finite and within ±1.8e308 (quote it to keep it as "
                                  "text)", node.start_mark))
            return None
        return self.construct_yaml_int(node)

    def construct_checked_float(self, node: yaml.Node) -> float | None:
        value = self.construct_yaml_float(node)
        if value - value == 0:          # finite
            return value
        if _NOT_FINITE.match(str(node.value)):
            self.problems.append((f"`{node.value}` is not a number rulekit accepts: a NaN or an "
                                  "infinity can neither back nor contradict a figure; write "
                                  "null, or quote it to keep it as text", node.start_mark))
        else:
            self.problems.append((f"`{node.value}` is out of range: a number must be finite "
                                  "and within ±1.8e308 (quote it to keep it as text)",
                                  node.start_mark))
        return None


_MERGE = "tag:yaml.org,2002:merge"
_NOT_FINITE = re.compile(r"[-+]?\.(?:inf|Inf|INF|nan|NaN|NAN)\Z")
_RETYPED = ("tag:yaml.org,2002:bool", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float",
            "tag:yaml.org,2002:timestamp")
_Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag not in _RETYPED]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}
_Loader.add_implicit_resolver("tag:yaml.org,2002:bool",
                              re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
                              list("tTfF"))
_Loader.add_implicit_resolver("tag:yaml.org,2002:int", re.compile(r"^-?(?:0|[1-9][0-9]*)$"),
                              list("-0123456789"))
_Loader.add_implicit_resolver("tag:yaml.org,2002:float", re.compile(
    r"^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+(?:[eE][-+]?[0-9]+)?|[eE][-+]?[0-9]+)$"),
    list("-0123456789"))
_Loader.add_implicit_resolver("tag:yaml.org,2002:float", _NOT_FINITE, list("-+."))
_Loader.add_constructor("tag:yaml.org,2002:int", _Loader.construct_checked_int)
_Loader.add_constructor("tag:yaml.org,2002:float", _Loader.construct_checked_float)


@dataclasses.dataclass(frozen=True)
class Case:
    """One case, with the shared keys of its file already applied."""
    file: str
    index: int
    line: int
    name: str
    kind: str                                   # check | audit
    inputs: Mapping[str, Any]                   # rows/reply/now/... or evidence/text/...
    wants: Mapping[str, Any]
    want_lines: Mapping[str, int]
    inputs_line: int | None = None              # where its `inputs` are: its own, or the file's

    @property
    def id(self) -> str:
        return f"{self.file}:{self.line}"


@dataclasses.dataclass(frozen=True)
class TestFile:
    path: str
    ruleset: str | None                         # the rules file the cases run against
    cases: tuple[Case, ...] = ()
    problems: tuple[Problem, ...] = ()


def _line(node: yaml.Node | None) -> int | None:
    return node.start_mark.line + 1 if node is not None else None


def _items(node: yaml.MappingNode) -> list[tuple[str, yaml.Node, yaml.Node]]:
    return [(str(k.value), k, v) for k, v in node.value]


def load_tests(path: str | Path) -> TestFile:
    """Read and validate one tests file. Never raises: every problem comes back with the file,
    the line and the YAML path it is about."""
    path = str(path)
    try:
        data, size = read_capped(path, MAX_TESTS_BYTES)     # never read whole before the cap
        if len(data) > MAX_TESTS_BYTES:
            cap = f"{MAX_TESTS_BYTES // 1024 // 1024} MiB ({MAX_TESTS_BYTES:,} bytes)"
            what = f"{size:,} bytes; the limit is {cap}" if size is not None else \
                f"more than {cap}, the limit"
            return TestFile(path, None, problems=(Problem(path, (
                f"the tests file is {what}: split its cases into several tests files, each "
                "naming the rules file with `ruleset:`")),))
        text = data.decode("utf-8")
    except OSError as exc:
        return TestFile(path, None, problems=(Problem(path, f"cannot read the tests file: "
                                                      f"{exc.strerror}"),))
    except UnicodeDecodeError as exc:
        return TestFile(path, None, problems=(Problem(path, f"the tests file is not UTF-8 "
                                                      f"(byte {exc.start})"),))
    try:
        loader = _Loader(text)
        try:
            root = loader.get_single_node()
            data = loader.construct_document(root) if root is not None else None
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        return TestFile(path, None, problems=(Problem(
            path, f"not valid YAML: {exc.problem or exc.context}",
            mark.line + 1 if mark else None, mark.column + 1 if mark else None),))
    except yaml.YAMLError as exc:
        return TestFile(path, None, problems=(Problem(path, f"not valid YAML: {exc}"),))
    checked = _validate(path, root, data)
    if not loader.problems:
        return checked
    # A value the loader refused was replaced by null (a key given twice kept its last value):
    # the case it is in does not run, and none does when it is in the file's shared keys.
    spans = _case_spans(root)
    spoilt = {next((i for i, (start, end) in spans.items() if start <= mark.index < end), -1)
              for _, mark in loader.problems}
    cases = () if -1 in spoilt else tuple(c for c in checked.cases if c.index not in spoilt)
    problems = [Problem(path, message, mark.line + 1, mark.column + 1)
                for message, mark in loader.problems]
    return TestFile(path, checked.ruleset, cases, tuple(sorted(
        checked.problems + tuple(problems), key=lambda p: (p.line or 0, p.column or 0))))


def _case_spans(root: yaml.Node | None) -> dict[int, tuple[int, int]]:
    """Where in the text each case is: its index, to its first and last character."""
    if not isinstance(root, yaml.MappingNode):
        return {}
    cases = next((v for k, _, v in _items(root) if k == "cases"), None)
    if not isinstance(cases, yaml.SequenceNode):
        return {}
    return {i: (node.start_mark.index, node.end_mark.index) for i, node in enumerate(cases.value)}


def _validate(path: str, root: yaml.Node | None, data: Any) -> TestFile:
    problems: list[Problem] = []

    def problem(message: str, node: yaml.Node | None, where: str) -> None:
        problems.append(Problem(path, message, _line(node),
                                node.start_mark.column + 1 if node is not None else None, where))

    if not isinstance(root, yaml.MappingNode) or not isinstance(data, dict):
        problem("a tests file is a mapping with `cases:` (and optionally `ruleset:`, `rows:`, "
                "`evidence:`, `now:` ...)", root, "$")
        return TestFile(path, None, problems=tuple(problems))
    nodes = {}
    for key, key_node, value_node in _items(root):     # a key given twice: the loader's
        nodes[key] = value_node
        if key not in FILE_KEYS:
            problem(f"unknown key `{key}`; the top of a tests file may hold "
                    f"{_names(sorted(FILE_KEYS))}", key_node, f"$.{key}")
    ruleset = _ruleset_path(path, data.get("ruleset"))
    if "ruleset" in data and not isinstance(data["ruleset"], str):
        problem("`ruleset` is the path of a rules file, relative to this file", nodes["ruleset"],
                "$.ruleset")
    shared = {key: data[key] for key in SHARED_KEYS if key in data}
    for key, value in shared.items():
        message = _input_problem(key, value)
        if message:
            problem(message, nodes[key], f"$.{key}")
    cases_node = nodes.get("cases")
    if not isinstance(cases_node, yaml.SequenceNode) or not data.get("cases"):
        problem("`cases` must be a non-empty list of cases", cases_node or root, "$.cases")
        return TestFile(path, ruleset, problems=tuple(problems))
    cases = []
    shared_lines = {key: _line(nodes[key]) for key in shared}
    for index, (node, raw) in enumerate(zip(cases_node.value, data["cases"])):
        case = _case(path, index, node, raw, shared, problem, shared_lines)
        if case is not None:
            cases.append(case)
    names: dict[str, int] = {}
    for case in cases:
        if case.name in names:
            problem(f"two cases are named {case.name!r} (the other is on line "
                    f"{names[case.name]}); give each case its own name",
                    None, f"$.cases[{case.index}].name")
            problems[-1] = dataclasses.replace(problems[-1], line=case.line)
        names.setdefault(case.name, case.line)
    problems.sort(key=lambda p: (p.line or 0, p.column or 0))
    return TestFile(path, ruleset, tuple(cases), tuple(problems))


def _ruleset_path(path: str, given: Any) -> str:
    """The ruleset a tests file runs against: ``ruleset:`` relative to the file, else the
    sibling of the same stem (``shop.tests.yaml`` -> ``shop.rules``)."""
    folder = Path(path).parent
    if isinstance(given, str):
        return str(folder / given)
    name = Path(path).name
    stem = name[: -len(TESTS_SUFFIX)] if name.endswith(TESTS_SUFFIX) else Path(path).stem
    return str(folder / f"{stem}.rules")


def _names(keys: Iterable[str]) -> str:
    return ", ".join(f"`{k}`" for k in keys)


def _input_problem(key: str, value: Any) -> str | None:
    """Why an input value cannot be used, or None."""
    if key == "rows":
        if not isinstance(value, dict) or not all(
                isinstance(t, list) and all(isinstance(r, dict) for r in t) for t in value.values()):
            return "`rows` maps each table to a list of rows: {product: [{sku: RC-500, ...}]}"
    elif key == "now":
        if not isinstance(value, str) or _parse_now(value) is None:
            return _now_problem(value)
    elif key == "inputs":
        if not isinstance(value, dict) or not all(
                isinstance(v, (str, int)) and not isinstance(v, bool) for v in value.values()):
            return "`inputs` maps an input's name to what the user gave: {postcode: \"10115\"}"
    elif key == "attempt":
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            return "`attempt` is 1 for a first reply, 2 for the reply after a regenerate, ..."
    elif key == "tenant":
        if value is not None and (not isinstance(value, (str, int)) or isinstance(value, bool)):
            return "`tenant` is the verified user's id, a string (null: no verified user)"
    elif key in ("question", "locale", "text"):
        if not isinstance(value, str):
            return f"`{key}` must be a string"
    elif key == "history":
        if not isinstance(value, list):
            return "`history` is a list of earlier turns"
    elif key == "reply":
        if not isinstance(value, (dict, str)):
            return "`reply` is the model's reply: a mapping, or a string of raw text"
    return None


def _want_problem(key: str, value: Any, kind: str) -> str | None:
    if key == "want_decision":
        if value not in DECISIONS:
            return f"`want_decision` is one of {', '.join(DECISIONS)}, not {value!r}"
    elif key == "want_claims":
        if kind != "check":
            return "`want_claims` applies to a case with a `reply`; a `text` has no claims"
        if not isinstance(value, dict) or not value:
            return "`want_claims` maps each claim's key to its outcome: {price: confirmed}"
        for claim, outcome in value.items():
            if outcome not in CLAIM_OUTCOMES:
                return (f"`want_claims.{claim}` is one of {', '.join(CLAIM_OUTCOMES)}, "
                        f"not {outcome!r}")
    elif key == "want_issues":
        if not isinstance(value, list):
            return "`want_issues` is a list of issue codes ([] for none), e.g. [contradicted]"
        for item in value:
            if isinstance(item, dict):
                unknown = set(item) - {"code", "text", "path"}
                if "code" not in item or unknown:
                    return ("an issue is a code, or a mapping {code, text?, path?}"
                            + (f"; unknown keys {_names(sorted(unknown))}" if unknown else ""))
            elif not isinstance(item, str):
                return "an issue is a code, or a mapping {code, text?, path?}"
    elif key in ("want_next_action", "want_text", "want_message"):
        if value is not None and not isinstance(value, str):
            return f"`{key}` is a string, or null for none"
    return None


def _case(path: str, index: int, node: yaml.Node, raw: Any, shared: Mapping[str, Any],
          problem, shared_lines: Mapping[str, int | None] = {}) -> Case | None:
    where = f"$.cases[{index}]"
    if not isinstance(node, yaml.MappingNode) or not isinstance(raw, dict):
        problem("a case is a mapping with a `reply` or a `text` and at least one want_* key",
                node, where)
        return None
    nodes: dict[str, yaml.Node] = {}
    ok = True
    for key, key_node, value_node in _items(node):
        nodes[key] = value_node
        if key not in CASE_KEYS:
            close = difflib.get_close_matches(key, sorted(CASE_KEYS), n=1)
            problem(f"unknown key `{key}`" + (f"; did you mean `{close[0]}`?" if close else
                                              f"; a case may hold {_names(sorted(CASE_KEYS))}"),
                    key_node, f"{where}.{key}")
            ok = False
    name = raw.get("name")
    if name is not None and not isinstance(name, str):
        problem("`name` is a string", nodes.get("name"), f"{where}.name")
        ok = False
    wants = {k: raw[k] for k in WANTS if k in raw}
    if not wants:
        problem(f"the case asserts nothing: give at least one of {_names(WANTS)}", node, where)
        ok = False
    has_reply, has_text = "reply" in raw, "text" in raw
    if has_reply == has_text:
        problem("a case has either a `reply` (checked against `rows`) or a `text` (swept "
                "against `evidence`)" + (", not both" if has_reply else ""), node, where)
        return None
    kind = "check" if has_reply else "audit"
    allowed, other = (CHECK_INPUTS, AUDIT_INPUTS) if kind == "check" else (AUDIT_INPUTS, CHECK_INPUTS)
    for key in raw:
        if key in other and key not in allowed:
            problem(f"`{key}` applies to a case with a `{'text' if kind == 'check' else 'reply'}`;"
                    f" this case has a `{'reply' if kind == 'check' else 'text'}`",
                    nodes[key], f"{where}.{key}")
            ok = False
    inputs = {k: shared[k] for k in allowed if k in shared}
    inputs.update({k: raw[k] for k in allowed if k in raw})
    for key, value in raw.items():
        if key in allowed:
            message = _input_problem(key, value)
            if message:
                problem(message, nodes[key], f"{where}.{key}")
                ok = False
    data_key = "rows" if kind == "check" else "evidence"
    if data_key not in inputs:
        problem(f"the case has no `{data_key}`: give it here or at the top of the file",
                node, where)
        ok = False
    for key, value in wants.items():
        message = _want_problem(key, value, kind)
        if message:
            problem(message, nodes[key], f"{where}.{key}")
            ok = False
    if not ok:
        return None
    line = _line(node) or 0
    inputs_line = _line(nodes["inputs"]) if "inputs" in raw else shared_lines.get("inputs")
    return Case(path, index, line, name or f"case {index + 1}", kind, inputs, wants,
                {k: _line(nodes[k]) or line for k in wants}, inputs_line)


def _parse_now(text: str) -> dt.datetime | None:
    """``now`` as an aware datetime, or None: ISO 8601 text with its zone, as ``rulekit check
    --now`` takes it."""
    try:
        return dates.moment(text)
    except (TypeError, ValueError):
        return None


def _now_problem(value: Any) -> str:
    """Why ``value`` is not a ``now``. A time without a zone is refused as the command line
    refuses it: read in the wrong zone it would judge freshness hours off."""
    try:
        naive = isinstance(value, str) and dt.datetime.fromisoformat(
            value.strip().replace("Z", "+00:00")).tzinfo is None
    except ValueError:
        naive = False
    if naive:
        return (f"`now` {value!r} has no time zone; add Z (UTC) or an offset such as +01:00 "
                "(\"2026-11-30T12:00:00Z\")")
    return f"`now` must be an ISO 8601 time such as \"2026-11-30T12:00:00Z\", not {value!r}"


# --- running a case ---------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Mismatch:
    """One expectation that did not hold."""
    key: str                # want_decision, want_claims, ...
    want: Any
    got: Any
    line: int

    def diff(self) -> str:
        """A unified diff of what the case wants against what rulekit decided."""
        want = _dump({self.key: self.want})
        got = _dump({self.key: self.got})
        return "".join(difflib.unified_diff(want.splitlines(True), got.splitlines(True),
                                            "want", "got", n=3)).rstrip("\n")

    def to_dict(self) -> dict:
        return {"key": self.key, "want": self.want, "got": self.got, "line": self.line}


def _dump(value: Any) -> str:
    return yaml.safe_dump(value, allow_unicode=True, sort_keys=False, width=1000,
                          default_flow_style=False)


@dataclasses.dataclass(frozen=True)
class CaseResult:
    case: Case
    mismatches: tuple[Mismatch, ...] = ()
    decision: Any = None                # rulekit.decision.Decision
    findings: tuple = ()                # audits: the sweep's findings
    error: str | None = None            # the case could not run (bad rows, ...)

    @property
    def ok(self) -> bool:
        return not self.mismatches and self.error is None

    def to_dict(self) -> dict:
        return {"name": self.case.name, "file": self.case.file, "line": self.case.line,
                "kind": self.case.kind, "ok": self.ok, "error": self.error,
                "decision": self.decision.decision if self.decision is not None else None,
                "mismatches": [m.to_dict() for m in self.mismatches]}


def run_case(policy, case: Case) -> CaseResult:
    """Run one case through ``check`` or ``audit`` and compare what it wants. Inputs the
    ruleset does not declare fail the case unrun (``check`` would ignore them)."""
    from rulekit.entity_rows import check_inputs

    undeclared = check_inputs(policy, _user_inputs(case.inputs))
    if undeclared:
        return CaseResult(case, error=f"{case.file}:{case.inputs_line or case.line}: "
                                      f"{undeclared} (at $.cases[{case.index}].inputs)")
    decision, findings, error = _decide(policy, case.kind, case.inputs)
    if error is not None:
        return CaseResult(case, error=error)
    mismatches = []
    for key, want in case.wants.items():
        got = _got(key, want, decision, findings)
        if not _same(key, want, got):
            mismatches.append(Mismatch(key, want, got, case.want_lines[key]))
    mismatches.sort(key=lambda m: m.line)
    return CaseResult(case, tuple(mismatches), decision, tuple(findings))


def _decide(policy, kind: str, inputs: Mapping[str, Any]):
    """(decision, findings, error) for one set of inputs."""
    if kind == "check":
        from rulekit.check import check
        from rulekit.sources import MemoryResolver

        try:
            source = MemoryResolver(inputs["rows"])
        except ValueError as exc:
            return None, (), f"the rows cannot be used: {exc}"
        now = _parse_now(inputs["now"]) if "now" in inputs else None
        tenant = inputs.get("tenant")
        decision = check(policy, inputs["reply"], source, now=now,
                         attempt=inputs.get("attempt", 1), inputs=_user_inputs(inputs),
                         tenant=None if tenant is None else str(tenant))
        return decision, (), None
    from rulekit.audit import audit

    result = audit(inputs["text"], inputs["evidence"], policy=policy,
                   question=inputs.get("question"), locale=inputs.get("locale"),
                   history=inputs.get("history"), attempt=inputs.get("attempt", 1),
                   inputs=_user_inputs(inputs),
                   now=_parse_now(inputs["now"]) if "now" in inputs else None)
    return result.decision, result.findings, None


def _user_inputs(inputs: Mapping[str, Any]) -> dict[str, str]:
    """A case's ``inputs`` as text: YAML reads ``postcode: 10115`` as a number."""
    return {k: str(v) for k, v in (inputs.get("inputs") or {}).items()}


def _got(key: str, want: Any, decision, findings) -> Any:
    if key == "want_decision":
        return decision.decision
    if key == "want_next_action":
        return decision.next_action
    if key == "want_text":
        return decision.text
    if key == "want_message":
        return decision.message
    if key == "want_claims":
        got = {c.key: c.outcome for c in decision.claims}
        return got
    if key == "want_issues":
        detailed = any(isinstance(item, dict) for item in want)
        issues = _issues(decision, findings)
        if not detailed:
            return [issue["code"] for issue in issues]
        fields = sorted({k for item in want if isinstance(item, dict) for k in item} | {"code"},
                        key=("code", "text", "path").index)
        return [{k: issue.get(k) for k in fields} for issue in issues]
    raise KeyError(key)


def _issues(decision, findings) -> list[dict]:
    """Every issue a decision reports, in its order: an audit's findings carry the text they
    are about; a check's reasons carry the JSON path."""
    if findings:
        issues = [{"code": f.code, "text": f.text, "path": f"text[{f.start}:{f.end}]"}
                  for f in findings if f.kind != "input"]
        issues += [{"code": r.code, "text": None, "path": r.path} for r in decision.reasons
                   if not (r.path or "").startswith("text[")]
        return issues
    return [{"code": r.code, "text": None, "path": r.path} for r in decision.reasons]


def _same(key: str, want: Any, got: Any) -> bool:
    if key == "want_claims":
        return want == got
    if key == "want_issues":
        # The order of issues is rulekit's, not the author's: compared as a multiset.
        remaining = list(got)
        for item in want:
            for index, candidate in enumerate(remaining):
                if _issue_matches(item, candidate):
                    del remaining[index]
                    break
            else:
                return False
        return not remaining
    return want == got


def _issue_matches(want: Any, got: Any) -> bool:
    if isinstance(want, str):
        return (got if isinstance(got, str) else got.get("code")) == want
    return isinstance(got, dict) and all(got.get(k) == v for k, v in want.items())


# --- coverage ---------------------------------------------------------------------------------

CATEGORIES = ("entities", "fields", "aliases", "shapes", "actions")


@dataclasses.dataclass
class Coverage:
    """What a ruleset declares that cases can exercise, and what they did.

    - ``entities`` and ``fields``: readable fields a claim was judged against (confirmed,
      contradicted, stale, or found "not recorded"); an entity counts once one of its fields
      does. Hidden fields are not items: no claim can ever read them.
    - ``aliases``: the alias words of the enum fields' tables (not the canonical values, nor
      spellings that differ from them only in case) that a claim used.
    - ``shapes``: the declared shapes a template was made of (or, outside ``prose shapes``,
      contained).
    - ``actions``: each ``on`` rule's action, and for a ``regenerate`` its ``then`` action,
      that decided a case.

    Items no case can reach with this ruleset and this rulekit are listed as unreachable and
    left out of the percentage.
    """
    ruleset: str
    items: dict[str, list[str]]
    unreachable: dict[str, str]                 # item -> why
    covered: set[str] = dataclasses.field(default_factory=set)

    @classmethod
    def of(cls, policy, ruleset: str) -> "Coverage":
        items: dict[str, list[str]] = {category: [] for category in CATEGORIES}
        unreachable: dict[str, str] = {}
        for entity in policy.entities:
            readable = entity.readable_fields
            if readable:
                items["entities"].append(f"entity {entity.name}")
            items["fields"].extend(f"field {entity.name}.{f.name}" for f in readable)
        for table, words in _alias_words(policy).items():
            items["aliases"].extend(f"alias {table} {word!r}" for word in words)
        items["shapes"].extend(f"shape {s.name}" for s in policy.shapes)
        for rule in policy.actions:
            for item in _action_items(f"on {rule.outcome}", rule.action):
                items["actions"].append(item)
                why = _unreachable(policy, rule.outcome)
                if why:
                    unreachable[item] = why
        for rule in policy.missing:
            items["actions"].extend(_action_items(f"on missing {rule.input}", rule.action))
        return cls(ruleset, items, unreachable)

    @property
    def counted(self) -> list[str]:
        return [i for items in self.items.values() for i in items if i not in self.unreachable]

    @property
    def missing(self) -> dict[str, list[str]]:
        return {category: [i for i in items if i not in self.covered and i not in self.unreachable]
                for category, items in self.items.items()}

    @property
    def percent(self) -> float:
        counted = self.counted
        if not counted:
            return 100.0
        return 100.0 * sum(1 for i in counted if i in self.covered) / len(counted)

    def record(self, policy, case: Case, decision) -> None:
        """What one case exercised."""
        if case.kind == "check":
            self._claims(policy, decision)
            self._shapes(policy, case.inputs["reply"])
        fired = fired_action(policy, decision)
        if fired:
            self.covered.add(fired)

    def _claims(self, policy, decision) -> None:
        words = _alias_words(policy)
        for claim in decision.claims:
            entity = policy.entity(claim.entity)
            field = entity.field(claim.field) if entity else None
            if field is None or not field.readable:
                continue
            judged = claim.outcome in ("confirmed", "contradicted", "stale") or (
                claim.outcome == "not_found" and claim.reason_code in ("null", "placeholder"))
            if judged:
                self.covered.add(f"entity {entity.name}")
                self.covered.add(f"field {entity.name}.{field.name}")
            if field.type.kind == "enum" and isinstance(claim.claimed, str):
                table = field.type.table or f"{entity.name}.{field.name}"
                word = _fold(claim.claimed)
                if word in words.get(table, ()):
                    self.covered.add(f"alias {table} {word!r}")

    def _shapes(self, policy, reply: Any) -> None:
        for name in shapes_used(policy, reply):
            self.covered.add(f"shape {name}")

    def to_dict(self) -> dict:
        return {"ruleset": self.ruleset, "percent": round(self.percent, 1),
                "covered": len([i for i in self.counted if i in self.covered]),
                "total": len(self.counted), "missing": self.missing,
                "unreachable": dict(self.unreachable)}


def _fold(text: str) -> str:
    return " ".join(text.casefold().split())


def _alias_words(policy) -> dict[str, tuple[str, ...]]:
    """The alias words of every table an enum field uses: the words that are not the folded
    canonical value itself."""
    tables: dict[str, tuple[str, ...]] = {}
    for entity in policy.entities:
        for field in entity.fields:
            spec = field.type
            if spec.kind != "enum":
                continue
            table = spec.table or f"{entity.name}.{field.name}"
            tables[table] = tuple(word for word, value in spec.aliases if word != _fold(value))
    return {t: w for t, w in tables.items() if w}


def _action_items(rule: str, action) -> list[str]:
    items = [f"{rule}: {action.kind}"]
    if action.kind == "regenerate" and action.then is not None:
        items.append(f"{rule}: then {action.then.kind}")
    return items


def _unreachable(policy, outcome: str) -> str | None:
    if outcome == "unapproved_shape" and policy.prose == "free":
        return "`prose free` approves every template"
    if outcome == "missing_input":
        required = {name for e in policy.entities for name in e.requires}
        if not required:
            return "no entity requires an input"
        if required <= {rule.input for rule in policy.missing}:
            return "every required input has its own `on missing` rule"
    if outcome == "stale" and not any(e.fresh_via and (e.fresh_seconds or any(
            f.fresh_seconds for f in e.fields)) for e in policy.entities):
        return "no entity has a freshness budget"
    return None


# Reason codes of a check that are not outcomes, and the outcome whose action they take.
_CODE_OUTCOME = {"not_grounded": "not_found"}
_NO_ACTION = frozenset({"fallback_unavailable", "internal_error", "input_error", "empty_answer"})


def fired_action(policy, decision) -> str | None:
    """The coverage item of the ``on`` rule that decided ``decision``, worked out the way the
    checker chose it: the strictest action among the failures, the first winning a tie."""
    from rulekit.decision import Failure, choose, resolve
    from rulekit.policy import OUTCOMES

    if decision is None or decision.decision == "answer":
        return None
    failures = []
    for reason in decision.reasons:
        code = _CODE_OUTCOME.get(reason.code, reason.code)
        if code in _NO_ACTION:
            continue
        if code not in OUTCOMES:            # a finding code of the sweep
            code = "stray_figure"
        missing = None
        if code == "missing_input":
            claim = next((c for c in decision.claims if c.path == reason.path
                          and c.reason_code == "missing_input"), None)
            if claim is not None and claim.reason:
                missing = claim.reason.removeprefix("needs ").split(",")[0].split(" from ")[0]
        failures.append(Failure(code, reason, missing_input=missing))
    if not failures:
        return None
    _, failure = choose(policy, failures, decision.attempt)
    rule = f"on {failure.outcome}"
    if failure.missing_input and any(m.input == failure.missing_input for m in policy.missing):
        rule = f"on missing {failure.missing_input}"
    action = policy.action_for(failure.outcome, failure.missing_input)
    final = resolve(action, decision.attempt)
    return f"{rule}: {action.kind}" if final is action else f"{rule}: then {action.then.kind}"


def shapes_used(policy, reply: Any) -> list[str]:
    """The names of the declared shapes a reply's template is made of: the shapes of a full
    cut of the template into shapes, else (prose outside shapes) those it contains."""
    from rulekit.prose import _skeleton
    from rulekit.reply import read_reply

    if not policy.shapes:
        return []
    parsed, problems = read_reply(reply)
    if problems or parsed is None:
        return []
    if parsed.form == "claims":
        slot_fields = {c.key: f"{c.entity}.{c.field}" for c in parsed.claims}
    elif parsed.subject is not None:
        slot_fields = {n: f"{parsed.subject.entity}.{n}" for n in parsed.template.slot_names}
    else:
        return []
    text = _skeleton(parsed.template.pieces, slot_fields)
    skeletons = list(zip(policy.shape_skeletons, (s.name for s in policy.shapes)))
    cut = _cut(text, skeletons)
    if cut is not None:
        return cut
    return [name for skeleton, name in skeletons if skeleton and skeleton in text]


def _cut(text: str, skeletons: list[tuple[str, str]]) -> list[str] | None:
    """The shapes of one way to cut ``text`` into shapes separated by single spaces (as
    ``rulekit.prose.matches_shapes`` does), or None."""
    from rulekit.prose import cut

    found = cut(text, [skeleton for skeleton, _ in skeletons])
    return None if found is None else [skeletons[index][1] for index in found]


# --- mutants ----------------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Mutant:
    """One figure of an answered case changed to a value the data does not hold."""
    case: Case
    where: str                  # $.claims[1].value, $.answer_template[12:15], text[23:28]
    original: str
    mutated: str
    decision: str               # what rulekit decided for the mutant

    @property
    def survived(self) -> bool:
        """A mutant survives when it is still answered: the wrong figure would have reached
        the customer as the model wrote it. Every other decision blocks it, ``fallback``
        included: fallback text is built by code from verified facts only."""
        return self.decision == "answer"

    def to_dict(self) -> dict:
        return {"case": self.case.name, "file": self.case.file, "line": self.case.line,
                "where": self.where, "original": self.original, "mutated": self.mutated,
                "decision": self.decision, "survived": self.survived}


def mutants(policy, result: CaseResult) -> list[Mutant]:
    """Every mutant of an answered case, each with rulekit's decision."""
    if result.decision is None or result.decision.decision != "answer":
        return []
    case = result.case
    out = []
    for where, original, mutated, inputs in _mutations(policy, case):
        decision, _, error = _decide(policy, case.kind, inputs)
        out.append(Mutant(case, where, original, mutated,
                          decision.decision if decision is not None else f"error: {error}"))
    return out


def _mutations(policy, case: Case):
    """(where, original, mutated, inputs) for each figure of a case."""
    locale = case.inputs.get("locale") or policy.locale
    if case.kind == "audit":
        text = case.inputs["text"]
        from rulekit.sweep import SweepSettings

        index = SweepSettings.from_policy(policy).index(case.inputs["evidence"], locale)
        for start, end, new in _text_mutations(policy, text, locale, index):
            inputs = dict(case.inputs, text=text[:start] + new + text[end:])
            yield f"text[{start}:{end}]", text[start:end], new, inputs
        return
    reply = case.inputs["reply"]
    if isinstance(reply, str):
        try:
            reply = json.loads(reply)
        except ValueError:
            return
    if not isinstance(reply, dict):
        return
    for index, claim in enumerate(reply.get("claims") or ()):
        if not isinstance(claim, dict):
            continue
        entity = policy.entity(str(claim.get("entity")))
        field = entity.field(str(claim.get("field"))) if entity else None
        if field is None or "value" not in claim:
            continue
        new = mutate_value(field.type, claim["value"], locale)
        if new is None:
            continue
        mutated = copy.deepcopy(reply)
        mutated["claims"][index]["value"] = new
        yield (f"$.claims[{index}].value", _shown(claim["value"]), _shown(new),
               dict(case.inputs, reply=mutated))
    key = "answer_template" if "answer_template" in reply else "template"
    template = reply.get(key)
    if isinstance(template, str):
        from rulekit.evidence import Evidence

        blank = re.sub(r"\{[A-Za-z_][A-Za-z0-9_]*\}", lambda m: " " * len(m.group(0)), template)
        for start, end, new in _text_mutations(policy, blank, locale, Evidence.build({}, locale=locale)):
            mutated = copy.deepcopy(reply)
            mutated[key] = template[:start] + new + template[end:]
            yield (f"$.{key}[{start}:{end}]", template[start:end], new,
                   dict(case.inputs, reply=mutated))


def _shown(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def mutate_value(spec, value: Any, locale: str) -> Any:
    """A claimed value changed to another value of the field's type, in the same notation, or
    None for a type that is not a figure (text, boolean)."""
    kind = spec.kind
    if isinstance(value, bool):
        return None
    if kind in ("money", "integer"):
        return _bump_number(value, 1)
    if kind == "decimal":
        return _bump_decimal(value, spec.tolerance)
    if kind in ("date", "timestamp"):
        return _shift_date(value, locale) if isinstance(value, str) else None
    if kind == "enum":
        current = dict(spec.aliases).get(_fold(str(value)))
        return next((v for v in spec.values if v != current), None)
    if kind in ("identifier", "url"):
        return _change_character(str(value), url=kind == "url") if isinstance(value, str) else None
    return None


def _bump_number(value: Any, step: int) -> Any:
    """The number one unit of its last written digit higher, in the same notation:
    "$1,299.00" -> "$1,299.01", 99 -> 100, "1.299,00 €" -> "1.299,01 €"."""
    if isinstance(value, int):
        return value + step
    if isinstance(value, float):
        return float(_bump_digits(repr(value), step))
    return _bump_digits(str(value), step)


def _bump_digits(text: str, step: int) -> str:
    positions = [i for i, c in enumerate(text) if c.isascii() and c.isdigit()]
    if not positions:
        return text
    number = int("".join(text[i] for i in positions)) + step
    digits = str(max(number, 0)).rjust(len(positions), "0")
    extra, digits = digits[: len(digits) - len(positions)], digits[len(digits) - len(positions):]
    chars = list(text)
    for position, digit in zip(positions, digits):
        chars[position] = digit
    return text[: positions[0]] + extra + "".join(chars)[positions[0]:]


def _bump_decimal(value: Any, tolerance: Decimal) -> Any:
    """Far enough from the claimed value to be outside the field's tolerance, in the same
    number of decimals."""
    text = repr(value) if isinstance(value, float) else str(value)
    positions = [i for i, c in enumerate(text) if c.isascii() and c.isdigit()]
    if not positions:
        return None
    try:
        written = Decimal(re.sub(r"[^0-9.\-]", "", text.replace(",", ".")) or "0")
    except InvalidOperation:
        return None
    exponent = written.as_tuple().exponent
    unit = Decimal(1).scaleb(exponent if isinstance(exponent, int) else 0)
    steps = int((2 * tolerance) / unit) + 1 if tolerance else 1
    bumped = _bump_digits(text, steps)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return type(value)(bumped) if isinstance(value, int) else float(bumped)
    return bumped


def _digit_runs(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in re.finditer(r"\d+", text)]


def _shift_date(text: str, locale: str, avoid: frozenset = frozenset()) -> str | None:
    """The same date notation, one day later (or earlier): each run of digits is tried one up
    and one down, and the first candidate read as a day next to the original is kept."""
    from rulekit import dates

    original = dates.parse_claimed_date(text, locale)
    if original is None:
        return None
    day = original.day or (original.instant.date() if original.instant else None)
    for start, end in reversed(_digit_runs(text)):
        for step in (1, -1):
            number = int(text[start:end]) + step
            if number < 0:
                continue
            candidate = text[:start] + str(number).rjust(end - start, "0") + text[end:]
            parsed = dates.parse_claimed_date(candidate, locale)
            if parsed is None:
                continue
            new = parsed.day or (parsed.instant.date() if parsed.instant else None)
            if day and new and abs((new - day).days) == 1 and new not in avoid:
                return candidate
    return None


def _change_character(text: str, *, url: bool = False, step: int = 1) -> str | None:
    """One letter or digit changed, the last one that matters: for a URL, the last one of its
    path (a query or fragment may be ignored by the field); the change survives case-folding."""
    limit = len(text)
    if url:
        cut = min([i for i in (text.find("?"), text.find("#")) if i >= 0], default=len(text))
        limit = cut
        while limit > 0 and text[limit - 1] == "/":
            limit -= 1
    for index in range(limit - 1, -1, -1):
        char = text[index]
        if char.isascii() and char.isdigit():
            return text[:index] + str((int(char) + step) % 10) + text[index + 1:]
        if char.isascii() and char.isalpha():
            base = ord("a") if char.islower() else ord("A")
            return text[:index] + chr(base + (ord(char) - base + step) % 26) + text[index + 1:]
    return None


_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen "
          "fourteen fifteen sixteen seventeen eighteen nineteen twenty").split()
_MUTABLE = frozenset({"number", "word_number", "date", "handle", "email", "url"})


def _text_mutations(policy, text: str, locale: str, index) -> list[tuple[int, int, str]]:
    """(start, end, replacement) for each figure in ``text`` that carries a fact: a mention
    the sweep would flag against empty evidence. Ordinals, rating scales and the like pass
    without a fact, so changing them proves nothing."""
    from rulekit.evidence import Evidence
    from rulekit.scan import scan
    from rulekit.sweep import SweepSettings, sweep

    settings = SweepSettings.from_policy(policy)
    empty = Evidence.build({}, locale=locale)
    flagged = [(f.start, f.end) for f in sweep(text, empty, settings, locale=locale)]
    out = []
    for mention in scan(text, locale):
        if mention.kind not in _MUTABLE or mention.quoted:
            continue
        if not any(s < mention.end and mention.start < e for s, e in flagged):
            continue
        new = _mutate_mention(mention, locale, index)
        if new is not None and new != mention.text:
            out.append((mention.start, mention.end, new))
    return out


def _mutate_mention(mention, locale: str, index) -> str | None:
    text = mention.text
    if mention.kind == "number":
        if mention.value is None:
            return None
        for step in range(1, 50):
            candidate = _bump_digits(text, step)
            value = _number_value(candidate, locale)
            if value is not None and value not in index.values and value not in index.percents \
                    and (value != value.to_integral_value() or int(value) not in index.count_lengths):
                return candidate
        return None
    if mention.kind == "word_number":
        word = text.casefold()
        if word not in _WORDS:
            return None
        for number in range(_WORDS.index(word) + 1, len(_WORDS)):
            if Decimal(number) not in index.values and number not in index.count_lengths:
                new = _WORDS[number]
                return new.capitalize() if text[:1].isupper() else new
        return None
    if mention.kind == "date":
        if mention.day is not None:
            return _shift_date(text, locale, avoid=frozenset(index.days))
        runs = _digit_runs(text)
        if not runs:
            return None
        start, end = runs[0]
        return text[:start] + str(int(text[start:end]) % 12 + 1) + text[end:]
    if mention.kind in ("handle", "email"):
        known = index.handles if mention.kind == "handle" else index.emails
        local, at, domain = text.rpartition("@") if mention.kind == "email" else ("", "", text)
        for step in range(1, 26):
            changed = _change_character(local if mention.kind == "email" else domain, step=step)
            candidate = changed + at + domain if mention.kind == "email" else changed
            if candidate and candidate.casefold().lstrip("@") not in known \
                    and candidate.casefold() not in known:
                return candidate
        return None
    if mention.kind == "url":
        from rulekit.evidence import _url

        for step in range(1, 10):
            candidate = _change_character(text, url=True, step=step)
            if candidate and _url(candidate) not in index.urls \
                    and _url(candidate) not in index.relative_links:
                return candidate
        return None
    return None


def _number_value(text: str, locale: str) -> Decimal | None:
    from rulekit.scan import scan

    found = [m for m in scan(text, locale) if m.kind == "number" and m.value is not None]
    return abs(found[0].value) if found else None


# --- a run over files -------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class FileReport:
    path: str
    ruleset: str | None
    results: tuple[CaseResult, ...] = ()
    problems: tuple[Problem, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems and all(r.ok for r in self.results)

    def to_dict(self) -> dict:
        return {"path": self.path, "ruleset": self.ruleset, "ok": self.ok,
                "problems": [p.to_dict() for p in self.problems],
                "cases": [r.to_dict() for r in self.results]}


@dataclasses.dataclass(frozen=True)
class Report:
    files: tuple[FileReport, ...]
    coverage: tuple[Coverage, ...] = ()
    mutants: tuple[Mutant, ...] = ()
    threshold: float | None = None
    mutated: bool = False

    @property
    def below_threshold(self) -> list[Coverage]:
        if self.threshold is None:
            return []
        return [c for c in self.coverage if c.percent + 1e-9 < self.threshold]

    @property
    def survivors(self) -> list[Mutant]:
        return [m for m in self.mutants if m.survived]

    @property
    def ok(self) -> bool:
        return (all(f.ok for f in self.files) and not self.below_threshold
                and not self.survivors)

    def to_dict(self) -> dict:
        out = {"ok": self.ok, "files": [f.to_dict() for f in self.files],
               "passed": sum(r.ok for f in self.files for r in f.results),
               "failed": sum(not r.ok for f in self.files for r in f.results)}
        if self.coverage:
            out["coverage"] = [dict(c.to_dict(), ok=c not in self.below_threshold)
                               for c in self.coverage]
            out["threshold"] = self.threshold
        if self.mutated:
            out["mutants"] = {"total": len(self.mutants), "survived": len(self.survivors),
                              "survivors": [m.to_dict() for m in self.survivors]}
        return out

    def render(self) -> str:
        """The text report: failures with their diffs first, then coverage and mutants."""
        lines: list[str] = []
        for report in self.files:
            for problem in report.problems:
                lines.append(str(problem))
            for result in report.results:
                if result.ok:
                    continue
                case = result.case
                lines.append(f"FAIL {case.id}: {case.name}")
                if result.error:
                    lines.append(f"  {result.error}")
                for mismatch in result.mismatches:
                    lines.append(f"  {mismatch.key} (line {mismatch.line}):")
                    lines.extend("    " + line for line in mismatch.diff().splitlines())
                decision = result.decision
                if decision is not None and result.mismatches:
                    lines.append(f"  rulekit decided {decision.decision}"
                                 + (f" (next_action: {decision.next_action})"
                                    if decision.next_action else ""))
                    for reason in decision.reasons[:8]:
                        lines.append(f"    [{reason.code}] {reason.message}")
                lines.append("")
        for report in self.files:
            passed = sum(r.ok for r in report.results)
            status = "ok" if report.ok else "FAILED"
            lines.append(f"{report.path}: {passed} of {len(report.results)} cases passed"
                         + (f", {len(report.problems)} problem(s)" if report.problems else "")
                         + f": {status}")
        for coverage in self.coverage:
            counted = coverage.counted
            covered = sum(1 for i in counted if i in coverage.covered)
            flag = "  (below the threshold of " + f"{self.threshold:g}%)" \
                if coverage in self.below_threshold else ""
            lines.append(f"coverage of {coverage.ruleset}: {coverage.percent:.1f}% "
                         f"({covered} of {len(counted)}){flag}")
            for category, missing in coverage.missing.items():
                if missing:
                    lines.append(f"  not exercised ({category}): " + ", ".join(
                        m.split(" ", 1)[1] for m in missing))
            for item, why in coverage.unreachable.items():
                lines.append(f"  unreachable: {item.split(' ', 1)[1]}: {why}")
        if self.mutated:
            lines.append(f"mutants: {len(self.mutants)}, blocked {len(self.mutants) - len(self.survivors)}, "
                         f"survived {len(self.survivors)}")
            for mutant in self.survivors:
                lines.append(f"  SURVIVED {mutant.case.id}: {mutant.case.name}: {mutant.where} "
                             f"{mutant.original} -> {mutant.mutated}: decided {mutant.decision}")
        lines.append("ok" if self.ok else "FAILED")
        return "\n".join(lines)


def find_tests(paths: Sequence[str]) -> tuple[list[str], list[Problem]]:
    """The tests files a list of paths stands for: a ``.tests.yaml`` file as given, a
    ``.rules`` file its sibling tests file, a folder the tests files directly inside it. A
    ``.rules`` file without its sibling tests file is a problem, named or in a folder: left
    out silently, a ruleset would escape the run, its coverage and its threshold."""
    found, problems = [], []
    for path in paths:
        target = Path(path)
        if target.is_dir():
            files = sorted(str(p) for p in target.glob(f"*{TESTS_SUFFIX}"))
            rules = sorted(str(p) for p in target.glob("*.rules"))
            if not files and not rules:
                problems.append(Problem(path, f"no *{TESTS_SUFFIX} files in this folder"))
            found.extend(files)
            for ruleset in rules:
                _sibling_tests(ruleset, found, problems)
        elif path.endswith(".rules"):
            _sibling_tests(path, found, problems)
        else:
            found.append(path)
    return list(dict.fromkeys(found)), problems


def _sibling_tests(path: str, found: list[str], problems: list[Problem]) -> None:
    """The tests file beside the rules file ``path`` into ``found``, else a problem."""
    target = Path(path)
    sibling = target.with_name(target.name[: -len(".rules")] + TESTS_SUFFIX)
    if sibling.is_file():
        found.append(str(sibling))
    else:
        problems.append(Problem(path, f"no tests file beside it: write {sibling}"))


def load_policy(path: str):
    """(policy, problem): a rules file is compiled, a .json path read as an artifact."""
    import rulekit
    from rulekit.errors import ArtifactError, CompileError

    try:
        policy = rulekit.load_compiled(path) if path.endswith(".json") else rulekit.load(path)
        return policy, None
    except CompileError as exc:
        return None, f"the ruleset does not compile:\n{exc}"
    except ArtifactError as exc:
        return None, str(exc)
    except OSError as exc:
        return None, f"cannot read the ruleset: {exc.strerror}"


def run(paths: Sequence[str], *, coverage: bool = False, threshold: float | None = None,
        mutate: bool = False) -> Report:
    """Run every case of the tests files ``paths`` stand for."""
    files, problems = find_tests(paths)
    reports = [FileReport(p.path, None, problems=(p,)) for p in problems]
    policies: dict[str, Any] = {}
    coverages: dict[str, Coverage] = {}
    found_mutants: list[Mutant] = []
    for path in files:
        test_file = load_tests(path)
        if not test_file.cases or test_file.ruleset is None:
            reports.append(FileReport(path, test_file.ruleset, problems=test_file.problems))
            continue
        ruleset = test_file.ruleset
        if ruleset not in policies:
            policies[ruleset] = load_policy(ruleset)
        policy, problem = policies[ruleset]
        if policy is None:
            reports.append(FileReport(path, ruleset, problems=test_file.problems + (
                Problem(path, problem),)))
            continue
        if coverage and ruleset not in coverages:
            coverages[ruleset] = Coverage.of(policy, ruleset)
        results = []
        for case in test_file.cases:
            result = run_case(policy, case)
            results.append(result)
            if coverage and result.decision is not None:
                coverages[ruleset].record(policy, case, result.decision)
            if mutate and result.ok:
                found_mutants.extend(mutants(policy, result))
        # The valid cases of a file with problems still run: the file fails either way, and
        # the author sees every problem at once.
        reports.append(FileReport(path, ruleset, tuple(results), test_file.problems))
    return Report(tuple(reports), tuple(coverages.values()), tuple(found_mutants),
                  threshold if coverage else None, mutate)


__all__ = ["Case", "CaseResult", "Coverage", "FileReport", "Mismatch", "Mutant", "Problem",
           "Report", "TestFile", "find_tests", "fired_action", "load_tests", "mutants",
           "run", "run_case", "shapes_used"]
