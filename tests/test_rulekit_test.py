"""`rulekit test`: tests files beside the rulesets, coverage, mutants and the pytest plugin."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from decimal import Decimal
from pathlib import Path

import pytest

import rulekit
from rulekit.cli import main
from rulekit.testing import (Case, Mutant, Report, load_tests, mutate_value, run, run_case,
                             shapes_used)
from rulekit.types import DecimalType, EnumType, MoneyType, UrlType

ROOT = Path(__file__).resolve().parent.parent
SHOP = ROOT / "rulesets" / "shop.rules"

ROWS = """\
now: "2026-11-30T12:05:00Z"
rows:
  product:
    - {sku: RC-500, name: Navy raincoat, price: 129900, stock: 0, updated_at: "2026-11-30T12:03:00Z"}
"""
GOOD = """\
  - name: the price
    reply: {grounded: true, template: "{name} is {price}.", subject: {entity: product, id: RC-500}}
    want_decision: answer
    want_text: "Navy raincoat is $1,299.00."
"""


def write(tmp_path: Path, cases: str, head: str = ROWS, name: str = "shop.tests.yaml") -> Path:
    """A tests file beside a copy of shop.rules."""
    (tmp_path / "shop.rules").write_text(SHOP.read_text("utf-8"), "utf-8")
    path = tmp_path / name
    path.write_text(head + f"ruleset: shop.rules\ncases:\n{cases}", "utf-8")
    return path


# --- reading tests files ----------------------------------------------------------------------

def test_a_valid_file_reads_with_its_lines_and_sibling_ruleset(tmp_path):
    loaded = load_tests(write(tmp_path, GOOD))
    assert loaded.problems == ()
    (case,) = loaded.cases
    assert (case.name, case.kind, case.line) == ("the price", "check", 7)
    assert case.inputs["now"] == "2026-11-30T12:05:00Z"     # shared keys apply to every case
    assert case.want_lines == {"want_decision": 9, "want_text": 10}
    assert loaded.ruleset == str(tmp_path / "shop.rules")


@pytest.mark.parametrize("case, message, line, where", [
    ("  - name: asserts nothing\n    reply: {}\n",
     "the case asserts nothing", 7, "$.cases[0]"),
    ("  - reply: {}\n    want_decison: answer\n",
     "unknown key `want_decison`; did you mean `want_decision`?", 8, "$.cases[0].want_decison"),
    ("  - reply: {}\n    text: hi\n    want_decision: answer\n",
     "either a `reply`", 7, "$.cases[0]"),
    ("  - reply: {}\n    want_decision: approve\n",
     "`want_decision` is one of answer, regenerate", 8, "$.cases[0].want_decision"),
    ("  - reply: {}\n    want_claims: {price: ok}\n",
     "`want_claims.price` is one of confirmed", 8, "$.cases[0].want_claims"),
    ("  - text: hi\n    want_decision: answer\n",
     "the case has no `evidence`", 7, "$.cases[0]"),
    ("  - text: hi\n    evidence: {}\n    tenant: acme\n    want_decision: answer\n",
     "`tenant` applies to a case with a `reply`", 9, "$.cases[0].tenant"),
    ("  - text: hi\n    evidence: {}\n    now: yesterday\n    want_decision: answer\n",
     "`now` must be an ISO 8601 time", 9, "$.cases[0].now"),
    ("  - reply: {}\n    attempt: 0\n    want_decision: answer\n",
     "`attempt` is 1 for a first reply", 8, "$.cases[0].attempt"),
])
def test_a_bad_case_is_a_problem_naming_file_line_and_yaml_path(tmp_path, case, message, line,
                                                                 where):
    path = write(tmp_path, case)
    problems = load_tests(path).problems
    assert any(message in p.message for p in problems), problems
    problem = next(p for p in problems if message in p.message)
    assert (problem.line, problem.where) == (line, where)
    assert str(problem).startswith(f"{path}:{line}:")


def test_broken_yaml_and_unknown_top_level_keys_are_problems(tmp_path):
    path = tmp_path / "x.tests.yaml"
    path.write_text("cases:\n  - name: [unclosed\n", "utf-8")
    (problem,) = load_tests(path).problems
    assert "not valid YAML" in problem.message and problem.line == 3
    path.write_text("rowz: {}\ncases: []\n", "utf-8")
    messages = [p.message for p in load_tests(path).problems]
    assert any(m.startswith("unknown key `rowz`") for m in messages)
    assert any("`cases` must be a non-empty list" in m for m in messages)


def test_dates_in_yaml_stay_text_as_in_json(tmp_path):
    path = write(tmp_path, GOOD.replace('"2026-11-30T12:03:00Z"', "2026-11-30T12:03:00Z"),
                 head=ROWS.replace('"2026-11-30T12:05:00Z"', "2026-11-30T12:05:00Z"))
    case = load_tests(path).cases[0]
    assert case.inputs["now"] == "2026-11-30T12:05:00Z"
    assert case.inputs["rows"]["product"][0]["updated_at"] == "2026-11-30T12:03:00Z"


# --- running cases ----------------------------------------------------------------------------

def test_a_failing_case_shows_a_diff_of_want_against_got(tmp_path):
    path = write(tmp_path, GOOD.replace("$1,299.00", "$1,300.00"))
    (case,) = load_tests(path).cases
    result = run_case(rulekit.load(SHOP), case)
    assert not result.ok
    (mismatch,) = result.mismatches
    assert mismatch.line == 10
    assert "-want_text: Navy raincoat is $1,300.00." in mismatch.diff()
    assert "+want_text: Navy raincoat is $1,299.00." in mismatch.diff()


def test_issues_compare_as_a_multiset_of_codes_or_partial_mappings(tmp_path):
    cases = """\
  - name: stray
    reply: {grounded: true, template: "It is $1,350 and we have {stock} left.", subject: {entity: product, id: RC-500}}
    want_issues: [{code: stray_figure, path: $.template}]
  - name: audit
    evidence: {price: 1200}   # cents: shop stores money in minor units
    text: "It costs 12 dollars, not 13 or 14."
    want_issues: [unsupported_number, {code: unsupported_number, text: "13"}]
"""
    report = run([str(write(tmp_path, cases))])
    assert report.files[0].results[0].ok
    mismatch = report.files[0].results[1].mismatches[0]
    assert mismatch.got == [{"code": "unsupported_number", "text": "13"},
                            {"code": "unsupported_number", "text": "14"}]


TENANTED = """\
ruleset billing {
  currency USD
}

tenant account_id

entity invoice {
  key id
  field id         identifier
  field amount_due money minor label "amount due"
}

on otherwise refuse "I could not verify the {fields}."
"""


@pytest.mark.parametrize("row, decision", [
    ("{id: INV-1042, amount_due: 129900}", "refuse"),
    ("{id: INV-1042, amount_due: 129900, account_id: acct_1}", "answer"),
])
def test_rows_of_a_tenant_scoped_ruleset_must_carry_the_tenant_column(tmp_path, row, decision):
    """Rows written as the SQL returns them (no tenant column) were dropped by the tenant scope
    and the claim read "no invoice with id INV-1042"; the failure names the rows and the
    column instead."""
    (tmp_path / "billing.rules").write_text(TENANTED, "utf-8")
    path = tmp_path / "billing.tests.yaml"
    path.write_text(f"""\
ruleset: billing.rules
tenant: acct_1
rows:
  invoice:
    - {row}
cases:
  - reply: {{answer_template: "It is {{a}}.", claims: [{{key: a, type: money, entity: invoice, entity_id: INV-1042, field: amount_due, value: "$1,299.00"}}]}}
    want_decision: {decision}
""", "utf-8")
    result = run([str(path)]).files[0].results[0]
    assert result.ok, result.decision
    reasons = [r.message for r in result.decision.reasons]
    if decision == "refuse":
        assert reasons and all("rows of invoice carry no 'account_id' value ($.invoice[0]); each "
                               "row must carry the tenant column" in m for m in reasons), reasons
        assert not any("no invoice with id" in m for m in reasons)
    else:
        assert reasons == []


def test_a_case_with_bad_rows_is_an_error_not_a_crash(tmp_path):
    cases = GOOD.replace("    want_decision", "    rows: {product: [{1: x}]}\n    want_decision")
    result = run([str(write(tmp_path, cases))]).files[0].results[0]
    assert not result.ok and "column names must be strings" in result.error


# --- coverage ---------------------------------------------------------------------------------

def test_coverage_lists_what_no_case_exercised(tmp_path):
    report = run([str(write(tmp_path, GOOD))], coverage=True, threshold=50)
    (coverage,) = report.coverage
    missing = coverage.missing
    assert "field product.stock" in missing["fields"] and "entity review" in missing["entities"]
    assert "field product.price" not in missing["fields"]
    assert missing["shapes"] == ["shape stock", "shape price_and_stock", "shape rating"]
    assert "on contradicted: then fallback" in missing["actions"]
    assert "on missing_input: ask" in coverage.unreachable
    assert coverage.percent < 50 and not report.ok
    assert "below the threshold of 50%" in report.render()


def test_the_shapes_a_template_is_made_of():
    policy = rulekit.load(ROOT / "rulesets" / "orders.rules")
    claim = {"type": "identifier", "entity": "order", "entity_id": "o", "field": "id", "value": "o"}
    reply = {"answer_template": "Your order {a} is {s}. It contains {n} items.", "claims": [
        dict(claim, key="a"), dict(claim, key="s", field="status"),
        dict(claim, key="n", field="line_count")]}
    assert shapes_used(policy, reply) == ["status", "contents"]


# --- mutants ----------------------------------------------------------------------------------

@pytest.mark.parametrize("spec, value, mutated", [
    (MoneyType(currency="USD"), "$1,299.00", "$1,299.01"),
    (MoneyType(currency="EUR"), "1.299,99 €", "1.300,00 €"),
    (MoneyType(currency="USD"), 999, 1000),
    (DecimalType(tolerance=Decimal("0.05")), 4.2, 4.4),
    (DecimalType(), "4.6%", "4.7%"),
    (EnumType(values=("shipped", "delivered"), aliases=(("dispatched", "shipped"),
                                                        ("shipped", "shipped"),
                                                        ("delivered", "delivered"))),
     "Dispatched", "delivered"),
    (UrlType(query="drop"), "https://a.example/p/rc-500?utm=x", "https://a.example/p/rc-501?utm=x"),
])
def test_a_claimed_value_is_changed_in_its_own_notation(spec, value, mutated):
    assert mutate_value(spec, value, "en_US") == mutated


def test_a_date_moves_one_day_in_its_own_notation():
    from rulekit.types import DateType

    spec = DateType(zone="UTC")
    assert mutate_value(spec, "30 July 2026", "en_GB") == "31 July 2026"
    assert mutate_value(spec, "2026-07-31", "en_GB") == "2026-07-30"
    assert mutate_value(spec, "07/30/2026", "en_US") == "07/31/2026"


def test_mutants_of_an_answered_audit_avoid_every_value_of_the_evidence(tmp_path):
    cases = """\
  - name: two posts
    evidence: {posts: [{views: 81, url: "https://t.example/post/81"}, {views: 82, url: "https://t.example/post/82"}]}
    text: "Your post https://t.example/post/81 had 81 views."
    want_decision: answer
"""
    report = run([str(write(tmp_path, cases))], mutate=True)
    assert [(m.original, m.mutated) for m in report.mutants] == [
        ("https://t.example/post/81", "https://t.example/post/83"), ("81", "83")]
    assert report.ok and not report.survivors


def test_a_surviving_mutant_fails_the_run_and_is_reported_with_its_mutation(tmp_path):
    case = Case("x.tests.yaml", 0, 3, "the price", "check", {}, {}, {})
    survivor = Mutant(case, "$.claims[1].value", '"$1,299.00"', '"$1,299.01"', "answer")
    blocked = Mutant(case, "$.claims[0].value", "3", "4", "fallback")
    report = Report((), mutants=(survivor, blocked), mutated=True)
    assert survivor.survived and not blocked.survived and not report.ok
    assert ('SURVIVED x.tests.yaml:3: the price: $.claims[1].value "$1,299.00" -> "$1,299.01"'
            in report.render())
    assert report.to_dict()["mutants"]["survived"] == 1


# --- the command ------------------------------------------------------------------------------

def test_the_command_exit_codes(tmp_path, capsys):
    good = write(tmp_path, GOOD)
    assert main(["test", str(good)]) == 0
    assert main(["test", str(tmp_path / "shop.rules")]) == 0       # its sibling tests file
    assert main(["test", str(tmp_path)]) == 0                      # a folder
    bad = write(tmp_path, GOOD.replace("answer", "refuse"), name="bad.tests.yaml")
    assert main(["test", str(bad)]) == 1
    out = capsys.readouterr().out
    assert f"FAIL {bad}:7: the price" in out and "-want_decision: refuse" in out
    assert main(["test", str(tmp_path / "missing.tests.yaml")]) == 2
    assert main(["test", str(good), "--threshold", "90"]) == 2    # needs --coverage
    assert main(["test", str(good), "--coverage", "--threshold", "101"]) == 2


def test_a_folder_reports_each_ruleset_without_a_tests_file(tmp_path, capsys):
    """docs/cli.md: each ruleset's missing tests file is a problem, in a folder too; skipped,
    it was left out of the run, of --coverage and of --threshold, and CI passed."""
    write(tmp_path, GOOD)
    (tmp_path / "nba.rules").write_text((ROOT / "rulesets" / "nba.rules").read_text("utf-8"),
                                        "utf-8")
    assert main(["test", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert f"{tmp_path / 'nba.rules'}: error: no tests file beside it: write " \
           f"{tmp_path / 'nba.tests.yaml'}" in out
    assert f"{tmp_path / 'shop.tests.yaml'}: 1 of 1 cases passed" in out    # still run
    (tmp_path / "nba.tests.yaml").write_text(
        "ruleset: shop.rules\n" + ROWS + "cases:\n" + GOOD, "utf-8")   # the twin: given one
    assert main(["test", str(tmp_path)]) == 0


def test_the_command_prints_json(tmp_path, capsys):
    assert main(["test", str(write(tmp_path, GOOD)), "--coverage", "--mutate",
                 "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] and report["passed"] == 1 and report["failed"] == 0
    assert report["files"][0]["cases"][0]["decision"] == "answer"
    assert report["coverage"][0]["missing"]["shapes"] == ["shape stock", "shape price_and_stock",
                                                          "shape rating"]
    assert report["mutants"] == {"total": 0, "survived": 0, "survivors": []}


def test_the_shipped_rulesets_pass_with_full_coverage_and_no_surviving_mutant(capsys,
                                                                             monkeypatch):
    """The Done-when of issue 7: every example ruleset has a full tests file."""
    monkeypatch.chdir(ROOT)
    status = main(["test", "rulesets/", "--coverage", "--threshold", "90", "--mutate"])
    out = capsys.readouterr().out
    assert status == 0, out
    for name in ("analytics", "golf", "nba", "orders", "shop", "support"):
        assert f"rulesets/{name}.tests.yaml: " in out


# --- the pytest plugin ------------------------------------------------------------------------

def _pytest(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "--rootdir", str(tmp_path), *args],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)


def test_the_pytest_plugin_collects_cases_only_when_asked(tmp_path):
    write(tmp_path, GOOD + GOOD.replace("the price", "the same price"))
    write(tmp_path, GOOD.replace("answer", "refuse"), name="bad.tests.yaml")
    quiet = _pytest(tmp_path, str(tmp_path))
    assert "no tests ran" in quiet.stdout, quiet.stdout
    asked = _pytest(tmp_path, "--rulekit-cases", str(tmp_path))
    assert "1 failed, 2 passed" in asked.stdout, asked.stdout
    assert "-want_decision: refuse" in asked.stdout
    named = _pytest(tmp_path, str(tmp_path / "shop.tests.yaml"))
    assert "2 passed" in named.stdout, named.stdout


# --- YAML read as JSON would be: nothing coerced, nothing given twice ----------------------------

def test_a_number_with_a_leading_zero_stays_text(tmp_path):
    """YAML 1.1 read the postcode 01067 as the octal 567: a postcode case failed for the
    wrong reason. A plain scalar is a number only when written as a decimal, as in JSON."""
    head = ROWS + "inputs: {postcode: 01067}\n"
    loaded = load_tests(write(tmp_path, GOOD, head=head))
    assert loaded.problems == ()
    (case,) = loaded.cases
    assert case.inputs["inputs"] == {"postcode": "01067"}


@pytest.mark.parametrize("scalar, value", [
    ("01067", "01067"), ("0x1F", "0x1F"), ("0o17", "0o17"), ("1_000", "1_000"), ("1:20", "1:20"),
    ("+1", "+1"), (".5", ".5"), ("yes", "yes"), ("no", "no"), ("on", "on"), ("off", "off"),
    ("NO", "NO"), ("y", "y"),
    ("0", 0), ("-12", -12), ("129900", 129900), ("4.23", 4.23), ("1e3", 1000.0),
    ("-1.5E-3", -0.0015), ("true", True), ("false", False), ("null", None), ("~", None),
])
def test_a_plain_scalar_is_a_number_or_a_boolean_only_as_json_writes_one(tmp_path, scalar,
                                                                          value):
    head = ROWS.replace("stock: 0,", f"stock: 0, note: {scalar},")
    (case,) = load_tests(write(tmp_path, GOOD, head=head)).cases
    got = case.inputs["rows"]["product"][0]["note"]
    assert got == value and type(got) is type(value)


@pytest.mark.parametrize("scalar, says", [
    (".nan", "`.nan` is not a number rulekit accepts"),
    (".inf", "`.inf` is not a number rulekit accepts"),
    ("-.Inf", "`-.Inf` is not a number rulekit accepts"),
    ("1e400", "`1e400` is out of range"),
    ("9" * 400, "a number of 400 digits is out of range"),
])
def test_a_number_no_json_holds_is_a_problem_at_its_line_and_column(tmp_path, scalar, says):
    head = ROWS.replace("stock: 0,", f"stock: {scalar},")
    path = write(tmp_path, GOOD, head=head)
    loaded = load_tests(path)
    assert loaded.cases == ()
    (problem,) = loaded.problems
    assert says in problem.message and (problem.line, problem.column) == (4, 64), problem
    assert str(problem).startswith(f"{path}:4:64: error:")


@pytest.mark.parametrize("cases, line, column, says", [
    (GOOD.replace("subject: {entity: product, id: RC-500}",
                  "subject: {entity: product, id: RC-500, id: RC-501}"), 8, 100,
     "`id` is given twice in one mapping (first on line 8, column 88)"),
    (GOOD + "    want_text: other\n", 11, 5, "`want_text` is given twice"),
])
def test_a_key_given_twice_anywhere_is_a_problem_at_its_line_and_column(tmp_path, cases, line,
                                                                        column, says):
    path = write(tmp_path, cases)
    loaded = load_tests(path)
    assert loaded.cases == ()
    problem = next(p for p in loaded.problems if "given twice" in p.message)
    assert says in problem.message and (problem.line, problem.column) == (line, column), problem


@pytest.mark.parametrize("now, says", [
    ("2026-11-30T12:05:00", "has no time zone; add Z (UTC) or an offset such as +01:00"),
    ("yesterday", "must be an ISO 8601 time such as"),
])
def test_a_now_without_a_zone_is_a_problem_as_on_the_command_line(tmp_path, now, says):
    path = write(tmp_path, GOOD, head=ROWS.replace('"2026-11-30T12:05:00Z"', f'"{now}"'))
    (problem,) = load_tests(path).problems
    assert says in problem.message and (problem.line, problem.where) == (1, "$.now"), problem


def test_a_key_given_twice_in_one_case_keeps_the_other_cases_running(tmp_path):
    spoilt = GOOD.replace("name: the price", "name: spoilt").replace(
        "subject: {entity: product, id: RC-500}", "subject: {entity: product, id: RC-500, id: X}")
    loaded = load_tests(write(tmp_path, GOOD + spoilt))
    assert [c.name for c in loaded.cases] == ["the price"]
    assert [p.line for p in loaded.problems] == [12]


# --- inputs in an audit case ------------------------------------------------------------------

POSTCODES = ROOT / "tests" / "cases" / "sweep" / "postcodes.rules"
POSTCODE_CASES = """\
evidence:
  order: [{id: ord_88431, weight_kg: 4.23, delivery_postcode: "10115"}]
inputs: {postcode: "10115"}
cases:
  - name: the right postcode opens the order
    text: "Your parcel weighs 4.23 kg."
    want_decision: answer
  - name: a wrong postcode licenses nothing, as if there were no order
    inputs: {postcode: "80331"}
    text: "Your parcel weighs 4.23 kg."
    want_decision: refuse
    want_issues: [unsupported_number]
  - name: no postcode asks for it
    inputs: {}
    text: "Your parcel weighs 4.23 kg."
    want_decision: ask
    want_next_action: ask_for_postcode
    want_issues: [missing_input]
  - name: a postcode written as a number is the same postcode
    inputs: {postcode: 10115}
    text: "Your parcel weighs 4.23 kg."
    want_decision: answer
"""


def _postcodes(tmp_path: Path, cases: str) -> Path:
    (tmp_path / "postcodes.rules").write_text(POSTCODES.read_text("utf-8"), "utf-8")
    path = tmp_path / "postcodes.tests.yaml"
    path.write_text(cases, "utf-8")
    return path


def test_an_audit_case_gives_the_users_inputs(tmp_path):
    report = run([str(_postcodes(tmp_path, POSTCODE_CASES))])
    assert report.ok, report.render()
    assert len(report.files[0].results) == 4


def test_an_undeclared_input_fails_the_case_naming_it_and_its_line(tmp_path):
    cases = POSTCODE_CASES.replace('    inputs: {postcode: "80331"}', '    inputs: {postcod: "80331"}')
    report = run([str(_postcodes(tmp_path, cases))])
    assert not report.ok
    (failed,) = [r for r in report.files[0].results if not r.ok]
    assert failed.error == (f"{tmp_path / 'postcodes.tests.yaml'}:9: input 'postcod': the "
                            "ruleset 'postcodes' declares no input 'postcod'; did you mean "
                            "'postcode'? declared inputs: postcode (at $.cases[1].inputs)")


def test_inputs_that_are_not_a_mapping_are_a_problem_at_their_line(tmp_path):
    loaded = load_tests(_postcodes(tmp_path, POSTCODE_CASES.replace(
        "    inputs: {}\n", "    inputs: [postcode]\n")))
    (problem,) = loaded.problems
    assert (problem.line, problem.where) == (14, "$.cases[2].inputs")
    assert "`inputs` maps an input's name to what the user gave" in problem.message


def test_misattributed_is_reachable_without_binding(tmp_path):
    # A claims reply can cite two rows in one sentence whether or not free text is bound to
    # entities, so `on misattributed` is an item to cover, not an unreachable one.
    shutil.copy(ROOT / "tests" / "cases" / "claims" / "types.rules", tmp_path / "types.rules")
    tests = tmp_path / "types.tests.yaml"
    tests.write_text("ruleset: types.rules\nrows: {product: []}\ncases:\n"
                     "  - name: nothing\n    reply: {answer_template: \"Hi.\", claims: []}\n"
                     "    want_decision: answer\n", "utf-8")
    (coverage,) = run([str(tests)], coverage=True).coverage
    assert not any("misattributed" in item for item in coverage.unreachable)
    assert any("misattributed" in item for item in coverage.missing["actions"])


def test_a_text_case_is_judged_at_the_files_now(tmp_path):
    # The row was fresh at the file's `now` and is stale today: judged at `now`, the case
    # stays the same whatever day the suite runs.
    evidence = ('  - name: a fresh price\n    evidence: {product: {sku: RC-500, name: Navy raincoat,'
                ' price: 129900, updated_at: "2026-11-30T12:03:00Z"}}\n'
                '    text: "The Navy raincoat is $1,299.00."\n')
    fresh = run([str(write(tmp_path, evidence + "    want_decision: answer\n"))])
    assert fresh.ok, fresh.render()
    later = run([str(write(tmp_path, evidence + "    now: \"2026-11-30T13:00:00Z\"\n"
                           "    want_issues: [stale]\n"))])
    assert later.ok, later.render()
