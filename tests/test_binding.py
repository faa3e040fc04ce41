"""Binding figures in free text to the entity and field they describe (rulekit.bind).

Data-file cases live in tests/cases/binding/<ruleset>.yaml: a rules file (beside the cases, else
in rulesets/), the evidence, and cases of text with the exact findings wanted, each ``{code,
text, message_contains?}``. Inline tests below pin the language (parse, fmt, compile) and the
pure pieces of ``bind``.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
import yaml

import rulekit
from rulekit.audit import audit
from rulekit.sweep import SweepSettings
from rulekit.bind import bind, derived_values, locate
from rulekit.compile import compile_source
from rulekit.fmt import format_source
from rulekit.parse import parse_source

ROOT = Path(__file__).resolve().parent.parent
CASE_DIR = ROOT / "tests" / "cases" / "binding"
CASES = sorted(CASE_DIR.glob("*.yaml"))


def _cases():
    for path in CASES:
        data = yaml.safe_load(path.read_text("utf-8"))
        for case in data["cases"]:
            yield pytest.param(data, case, id=f"{path.name}:{case['note'][:60]}")


def _load(name: str):
    """A case file's ruleset: beside the cases (a ruleset made for them), else a shipped one."""
    beside = CASE_DIR / name
    return rulekit.load(beside if beside.exists() else ROOT / "rulesets" / name)


@pytest.fixture(scope="module")
def policies():
    return {}


@pytest.mark.parametrize("data,case", list(_cases()))
def test_case(data, case, policies):
    name = data["rules"]
    if name not in policies:
        policies[name] = _load(name)
    result = audit(case["text"], case.get("evidence", data["evidence"]), policy=policies[name])
    got = [f for f in result.findings]
    assert len(got) == len(case["want"]), [(f.code, f.text, f.message) for f in got]
    for finding, want in zip(got, case["want"]):
        assert finding.code == want["code"], finding
        if "text" in want:
            assert finding.text == want["text"], finding
        if "message_contains" in want:
            assert want["message_contains"] in finding.message, finding.message
        assert case["text"][finding.start:finding.end] == finding.text
    if any(f.code == "misattributed" for f in got):
        assert result.decision.decision != "answer"
        assert any(r.code == "misattributed" for r in result.decision.reasons)


@pytest.mark.parametrize("data,case", list(_cases()))
def test_an_index_built_once_binds_as_the_raw_evidence_does(data, case, policies):
    """The grounding loop and StreamGate index the evidence once and audit against the index:
    binding and derived figures must work the same there (they once silently did not)."""
    name = data["rules"]
    if name not in policies:
        policies[name] = _load(name)
    policy = policies[name]
    evidence = case.get("evidence", data["evidence"])
    index = SweepSettings.from_policy(policy).index(evidence, policy.locale)
    raw = audit(case["text"], evidence, policy=policy)
    built = audit(case["text"], index, policy=policy)
    assert [f.to_dict() for f in built.findings] == [f.to_dict() for f in raw.findings]
    assert built.decision.decision == raw.decision.decision


RULES = '''
ruleset t { version "1" }
entity player from evidence "$.players[*]" {
  key NAME
  mentioned as NAME, "the captain"
  pronouns "he", "his"
  field NAME text
  field PTS  integer said as "points"
  field FGM  integer
  field FGA  integer
  forms "{FGM}-of-{FGA}"
}
derived total = sum(player.PTS) * 1 said as "{total} points between them"
on otherwise handoff
'''


def test_the_language_parses_formats_and_compiles():
    result = compile_source(RULES)
    assert result.ok, result.diagnostics
    binding = result.policy.binding
    (player,) = binding.entities
    assert player.paths == ("$.players[*]",)
    assert player.mentions == ("NAME",) and player.aliases == ("the captain",)
    assert player.words == (("points", "PTS"),) and player.forms == ("{FGM}-of-{FGA}",)
    assert binding.derived[0].name == "total"
    formatted, problems = format_source(RULES)
    assert not problems
    assert parse_source(formatted).file == parse_source(RULES).file
    assert format_source(formatted)[0] == formatted


def test_policy_round_trips_through_the_artifact():
    policy = compile_source(RULES).policy
    from rulekit.policy import policy_from_json
    assert policy_from_json(policy.to_json()).binding == policy.binding


def test_locate_reads_the_supported_paths():
    evidence = {"a": [{"x": 1}, {"x": 2}], "b": {"x": 3}}
    assert locate(evidence, "$.a[*]") == [{"x": 1}, {"x": 2}]
    assert locate(evidence, "$.a[1]") == [{"x": 2}]
    assert locate(evidence, "$.b") == [{"x": 3}]
    assert locate(evidence, "$.missing[*]") == []


def test_derived_figures_are_computed_and_skip_placeholders():
    policy = compile_source(RULES).policy
    values = derived_values(policy.binding, {"players": [{"PTS": 10}, {"PTS": "N/A"}, {"PTS": 5}]})
    assert values == {"total": Decimal(15)}


def test_an_alias_and_a_form_bind():
    policy = compile_source(RULES).policy
    evidence = {"players": [{"NAME": "Ann", "PTS": 10, "FGM": 4, "FGA": 9}]}
    result = bind("The captain went 4-of-8 and scored 10 points.", evidence, policy)
    assert [(b.field, b.verdict) for b in result.bound] == [("FGM", "ok"), ("FGA", "misattributed"),
                                                            ("PTS", "ok")]


def test_an_ambiguous_pronoun_binds_nothing():
    policy = compile_source(RULES).policy
    evidence = {"players": [{"NAME": "Ann", "PTS": 10}, {"NAME": "Bea", "PTS": 7}]}
    result = bind("Ann passed to Bea. He scored 7 points.", evidence, policy)
    assert result.bound == ()


def test_without_binding_declarations_nothing_is_bound():
    policy = rulekit.load(ROOT / "rulesets" / "orders.rules")
    assert bind("Order 1 has 3 points.", {"orders": []}, policy).bound == ()


RANKED = '''
ruleset t { version "1" }
entity player from evidence "$.players[*]" {
  key NAME
  mentioned as NAME
  field NAME text
  field TEAM text
  field PTS  integer said as "points"
  ranks PTS within TEAM said as "{rank} on the team"
}
derived q3_high = max(player.PTS) said as "in the third quarter, ... {q3_high} points"
on otherwise handoff
'''


def test_ranks_parse_format_compile_and_round_trip():
    result = compile_source(RANKED)
    assert result.ok, result.diagnostics
    (player,) = result.policy.binding.entities
    assert [(r.field, r.within, r.forms) for r in player.ranks] == [
        ("PTS", "TEAM", ("{rank} on the team",))]
    formatted, problems = format_source(RANKED)
    assert not problems and "ranks PTS within TEAM said as" in formatted
    assert parse_source(formatted).file == parse_source(RANKED).file
    from rulekit.policy import policy_from_json
    assert policy_from_json(result.policy.to_json()).binding == result.policy.binding


def test_a_place_counts_the_rows_above_within_the_group_and_ties_share_places():
    policy = compile_source(RANKED).policy
    evidence = {"players": [{"NAME": "Ann", "TEAM": "A", "PTS": 20},
                            {"NAME": "Bea", "TEAM": "A", "PTS": 20},
                            {"NAME": "Cy", "TEAM": "A", "PTS": 9},
                            {"NAME": "Dee", "TEAM": "B", "PTS": 30}]}

    def verdicts(text):
        return [(b.text, b.verdict) for b in bind(text, evidence, policy).bound]

    assert verdicts("Bea was first on the team.") == [("first", "ok")]
    assert verdicts("Ann was 2nd on the team.") == [("2nd", "ok")]
    assert verdicts("Cy was second on the team.") == [("second", "misattributed")]


def test_a_gap_in_a_form_stays_within_its_clause():
    policy = compile_source(RANKED).policy
    evidence = {"players": [{"NAME": "Ann", "TEAM": "A", "PTS": 20}]}
    assert [b.field for b in bind("In the third quarter, Ann rallied for 20 points.", evidence,
                                  policy).bound] == ["q3_high"]
    # No figure and no sentence end inside the gap.
    assert bind("In the third quarter, Ann rallied. She had 20 points.", evidence,
                policy).bound == ()
    assert [b.field for b in bind("In the third quarter, Ann had 4 steals and 20 points.",
                                  evidence, policy).bound] == ["PTS"]


HALVES = '''
ruleset t { version "1" }
entity team from evidence "$.teams[*]" {
  key NAME
  field NAME text
  field Q1   integer
  field Q2   integer
}
derived half = max(team.Q1 + team.Q2) said as "{half} in the first half"
on otherwise handoff
'''


def test_an_aggregate_adds_fields_of_one_row_first_and_skips_placeholders():
    result = compile_source(HALVES)
    assert result.ok, result.diagnostics
    formatted, problems = format_source(HALVES)
    assert not problems and "max(team.Q1 + team.Q2)" in formatted
    assert parse_source(formatted).file == parse_source(HALVES).file
    values = derived_values(result.policy.binding, {"teams": [
        {"NAME": "a", "Q1": 20, "Q2": 30}, {"NAME": "b", "Q1": 40, "Q2": 1},
        {"NAME": "c", "Q1": "N/A", "Q2": 99}]})
    assert values == {"half": Decimal(50)}


def test_a_form_is_skipped_only_when_it_cannot_match():
    """``bind`` skips a form whose literal words are not all in an ASCII text: every match of
    every form of nba.rules, on the binding cases (and the RotoWire reports, when the shared
    data sits beside the checkout), and on those texts upper-cased and with "(" and "," taken
    out, holds its literal words."""
    import json

    from rulekit.bind import _vocabulary

    forms = _vocabulary(rulekit.load(ROOT / "rulesets" / "nba.rules").binding).forms
    assert sum(1 for form in forms if form.literals) > 100
    reports = ROOT.parent / "shared" / "data" / "rotowire" / "train.jsonl"
    texts = [case["text"] for case in yaml.safe_load((ROOT / "tests" / "cases" / "binding" /
                                                      "nba.yaml").read_text())["cases"]]
    if reports.exists():
        with reports.open() as lines:
            texts += [json.loads(line)["text"] for _, line in zip(range(60), lines)]
    texts += [t.upper() for t in texts] + [t.replace("(", "").replace(",", "") for t in texts]
    matched = 0
    for text in filter(str.isascii, texts):
        lowered = text.lower()
        for form in forms:
            if form.regex.search(text):
                matched += 1
                assert all(word in lowered for word in form.literals), (form.regex.pattern, text)
    assert matched >= 50            # the cases alone give 75 matches


def test_date_field_words_name_days_only_and_cost_nothing_without_them():
    """The words of a date field bind the date after them, never a number; a ruleset with no
    such words builds no pattern for them, so its audits do no new work."""
    from rulekit.bind import _vocabulary

    billing = _load("billing.rules")
    vocabulary = _vocabulary(billing.binding, billing)
    assert vocabulary.days is not None and "due on" in vocabulary.day_owners
    assert "due on" not in vocabulary.owners and "for" in vocabulary.owners
    analytics = _load("analytics.rules")
    assert _vocabulary(analytics.binding, analytics).days is None


def test_a_rounding_another_row_holds_is_the_sweeps_only_where_rounding_is_allowed():
    """"3 bathrooms" of a listing with 2.5, beside a listing with 3: misattributed, unless
    `rounding allowed for` names the field (then the sweep's rounding rules judge it)."""
    source = (CASE_DIR / "property.rules").read_text("utf-8")
    evidence = {"listings": [
        {"mls_id": "MLS-1", "address": "42 Maple Street", "bathrooms": 2.5},
        {"mls_id": "MLS-2", "address": "7 Birch Lane", "bathrooms": 3}]}
    text = "42 Maple Street has 3 bathrooms."
    strict = compile_source(source).policy
    assert [f.code for f in audit(text, evidence, policy=strict).findings] == ["misattributed"]
    allowed = compile_source(source.replace(
        "prose guarded", "sweep {\n  rounding allowed for listing.bathrooms\n}\n\nprose guarded"
    )).policy
    assert not audit(text, evidence, policy=allowed).findings
