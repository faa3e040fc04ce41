"""The compiler's API and the Policy it builds (the diagnostics' text is in test_golden.py)."""

from __future__ import annotations

import threading
from decimal import Decimal

import pytest

import rulekit
from rulekit.compile import compile_file, compile_source
from rulekit.policy import OUTCOMES

ORDERS = '''
ruleset orders {
  version "2026.11"
  locale de_DE
  currency EUR
  timezone "Europe/Berlin"
}

import "glossary.rules"

input postcode label "your postcode"

entity order {
  key id
  fresh within 15m via updated_at
  requires postcode
  field id                 identifier
  field shipped_at         timestamp
  field estimated_delivery date label "delivery estimate"
  field total_minor        money minor
  field status             enum order_status
  field weight_kg          decimal tolerance 0.05
  field stock              integer placeholder -1, "N/A"
  field putts              integer placeholder 0 unless putts_tracked
  field putts_tracked      boolean
  field updated_at         timestamp hidden
}

shape shipped "Your order {order_id} shipped on {ship_date}." {
  order_id  = order.id
  ship_date = order.shipped_at
}
fallback summary "Order {order_id}." { order_id = order.id }
prose shapes

sweep {
  small integers up to 10 as ordinal, month
  rounding allowed for order.weight_kg
  untrusted "$.reviews[*].body"
}

on contradicted regenerate max 2 naming 5 with values narrow then fallback summary
on not_found, stale refuse "I could not verify the {fields} for this order, so I have not given it."
on missing postcode ask ask_for_postcode "What is your postcode?"
on otherwise handoff
'''

GLOSSARY = '''
aliases order_status {
  shipped   = "Shipped", "dispatched", "SHIPPED", "on its way"
  delivered = "arrived"
}
'''


@pytest.fixture
def orders(tmp_path):
    (tmp_path / "glossary.rules").write_text(GLOSSARY)
    path = tmp_path / "orders.rules"
    path.write_text(ORDERS)
    return path


def test_a_wrong_ruleset_fails_closed_with_every_error(tmp_path):
    path = tmp_path / "bad.rules"
    path.write_text('ruleset bad { locale en_US }\nentity e { key id field id textt }\n'
                    'on contradicted refuse "no"\n')
    with pytest.raises(rulekit.CompileError) as caught:
        rulekit.load(path)
    codes = [d.code for d in caught.value.diagnostics]
    assert codes == ["RK408", "RK301"]  # sorted by position: header first
    assert "did you mean 'text'?" in str(caught.value)


def test_load_builds_the_declared_policy(orders):
    policy = rulekit.load(orders)
    assert (policy.name, policy.version, policy.locale, policy.currency) == (
        "orders", "2026.11", "de_DE", "EUR")
    order = policy.entity("order")
    assert order.key == "id" and order.fresh_seconds == 900 and order.fresh_via == "updated_at"
    assert order.requires == ("postcode",)
    assert order.field("total_minor").type.currency == "EUR"
    assert order.field("total_minor").type.storage == "minor"
    assert order.field("shipped_at").type.zone == "Europe/Berlin"
    assert order.field("weight_kg").type.tolerance == Decimal("0.05")
    assert order.field("estimated_delivery").label == "delivery estimate"
    assert not order.field("updated_at").readable
    assert [f.name for f in order.readable_fields][-1] == "putts_tracked"
    assert [(p.value, p.unless) for p in order.field("stock").placeholders] == [(-1, None), ("N/A", None)]
    assert order.field("putts").placeholders[0].unless == "putts_tracked"
    status = dict(order.field("status").type.aliases)
    assert status["dispatched"] == status["shipped"] == status["on its way"] == "shipped"
    assert status["arrived"] == "delivered"


def test_actions_resolve_for_every_outcome(orders):
    policy = rulekit.load(orders)
    assert [a.outcome for a in policy.actions] == list(OUTCOMES)
    contradicted = policy.action_for("contradicted")
    assert (contradicted.kind, contradicted.max_attempts, contradicted.naming) == ("regenerate", 2, 5)
    assert contradicted.with_values and contradicted.narrow
    assert contradicted.then.kind == "fallback" and contradicted.then.fallback == "summary"
    assert policy.action_for("stale").kind == "refuse"
    assert policy.action_for("lookup_failed").kind == "handoff"   # from `on otherwise`
    ask = policy.action_for("missing_input", missing_input="postcode")
    assert (ask.kind, ask.hint) == ("ask", "ask_for_postcode")


def test_templates_keep_their_slots_and_bindings(orders):
    shape = rulekit.load(orders).shapes[0]
    assert shape.pieces == ("Your order ", "order_id", " shipped on ", "ship_date", ".")
    assert [(s.name, s.entity, s.field) for s in shape.slots] == [
        ("order_id", "order", "id"), ("ship_date", "order", "shipped_at")]


def test_sweep_settings(orders):
    sweep = rulekit.load(orders).sweep
    assert sweep.small_integer_limit == 10
    assert sweep.small_integer_contexts == ("ordinal", "month")
    assert sweep.rounding == ("order.weight_kg",)
    assert sweep.untrusted == ("$.reviews[*].body",)


def test_defaults_are_the_safe_ones(tmp_path):
    path = tmp_path / "min.rules"
    path.write_text("ruleset min { }\non otherwise refuse \"I can't verify that.\"\n")
    policy = rulekit.load(path)
    assert (policy.locale, policy.timezone, policy.version, policy.currency) == ("en_US", "UTC", "0", None)
    assert policy.prose == "guarded"
    assert policy.sweep.small_integer_limit == 12 and policy.sweep.rounding == ()
    assert {a.action.kind for a in policy.actions} == {"refuse"}


def test_the_hash_covers_every_source_and_is_deterministic(orders, tmp_path):
    first = rulekit.load(orders)
    assert rulekit.load(orders).sources_sha256 == first.sources_sha256
    assert first.sources == ("orders.rules", "glossary.rules")
    (tmp_path / "glossary.rules").write_text(GLOSSARY.replace("arrived", "landed"))
    assert rulekit.load(orders).sources_sha256 != first.sources_sha256


def test_a_diamond_import_is_read_once(tmp_path):
    (tmp_path / "base.rules").write_text('aliases tier { gold = "Gold" }\n')
    (tmp_path / "a.rules").write_text('import "base.rules"\n')
    (tmp_path / "b.rules").write_text('import "base.rules"\n')
    root = tmp_path / "root.rules"
    root.write_text('ruleset r { }\nimport "a.rules"\nimport "b.rules"\n'
                    'entity e { key id field id identifier field t enum tier }\n'
                    'on otherwise handoff\n')
    policy = rulekit.load(root)
    assert policy.sources == ("root.rules", "a.rules", "base.rules", "b.rules")


def test_a_declaration_in_two_files_is_an_error_not_an_override(tmp_path):
    (tmp_path / "shared.rules").write_text('aliases tier { gold = "Gold" }\n')
    root = tmp_path / "root.rules"
    root.write_text('ruleset r { }\nimport "shared.rules"\naliases tier { gold = "GOLD" }\n'
                    'on otherwise handoff\n')
    result = compile_file(root)
    (duplicate,) = [d for d in result.diagnostics if d.code == "RK201"]
    assert duplicate.span.path.endswith("root.rules")
    assert "first declared at" in duplicate.hint and "shared.rules:1:9" in duplicate.hint


@pytest.mark.parametrize("text", ['ruleset r {\n  version "1"\n}\nentity e {\n  key id\n',
                                  'aliases tier { gold = "GOLD"\n', "\x00\x01"])
def test_a_file_that_does_not_parse_is_not_called_a_library(tmp_path, text):
    """Its header cannot be known, so `compile --format json` must not say `"library": true`
    of a ruleset with a syntax error."""
    path = tmp_path / "broken.rules"
    path.write_text(text)
    result = compile_file(path, require_header=False)
    assert not result.ok and not result.is_library


def test_a_header_less_file_compiles_as_a_library(tmp_path):
    path = tmp_path / "glossary.rules"
    path.write_text(GLOSSARY)
    result = compile_file(path, require_header=False)
    assert result.ok and result.is_library and result.policy is None
    assert [d.code for d in compile_file(path).diagnostics] == ["RK209"]


def test_errors_are_capped(tmp_path):
    body = "\n".join(f"  field f{i} nosuchtype" for i in range(80))
    result = compile_source(f"ruleset r {{ }}\non otherwise handoff\nentity e {{\n  key f0\n{body}\n}}\n",
                            "many.rules")
    codes = [d.code for d in result.diagnostics]
    assert codes.count("RK301") == 50 and codes[-1] == "RK109"
    assert "80 found" in result.diagnostics[-1].message


def test_warnings_do_not_fail_the_compile(tmp_path):
    result = compile_source('ruleset r { version "1" }\naliases unused { a = "A" }\n'
                            'on otherwise handoff\n',
                            "w.rules")
    assert result.ok and result.policy is not None
    assert [(d.code, d.severity) for d in result.diagnostics] == [("RK412", "warning")]


def test_the_policy_is_immutable(orders):
    policy = rulekit.load(orders)
    with pytest.raises(Exception):
        policy.name = "other"
    with pytest.raises(Exception):
        policy.entities[0].fields[0].readable = False
    with pytest.raises(AttributeError):
        policy.entities[0].fields.append(None)  # tuples all the way down


def test_one_policy_is_shared_safely_between_threads(orders):
    policy = rulekit.load(orders)
    seen, errors = [], []

    def read():
        try:
            for _ in range(200):
                seen.append((policy.entity("order").field("status").type.kind,
                             policy.action_for("stale").kind))
        except Exception as exc:  # pragma: no cover - the assertion below reports it
            errors.append(exc)

    threads = [threading.Thread(target=read) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == [] and set(seen) == {("enum", "refuse")}


def test_a_missing_import_among_many_files_lists_a_few_names_not_all(tmp_path):
    for number in range(100):
        (tmp_path / f"part{number:03}.rules").write_text("")
    (tmp_path / "glossary.rules").write_text("")
    root = tmp_path / "root.rules"
    root.write_text('ruleset r { }\nimport "glosary.rules"\non otherwise handoff\n')
    (missing,) = [d for d in compile_file(root).diagnostics if d.code == "RK207"]
    assert missing.hint.startswith("did you mean 'glossary.rules'? rules files in ")
    listed = missing.hint.split(": ", 1)[1]
    assert listed.endswith(" and 94 more")
    names = listed.removesuffix(" and 94 more").split(", ")
    assert len(names) == 8 and "glossary.rules" in names


def test_a_short_list_of_names_is_shown_whole():
    from rulekit.stages.context import suggest
    twelve = [f"name{n:02}" for n in range(12)]
    assert suggest("other", twelve, "names") == "names: " + ", ".join(twelve)
    thirteen = twelve + ["name12"]
    assert suggest("other", thirteen, "names").endswith(" and 5 more")


def test_a_ruleset_without_a_version_compiles_with_a_warning():
    result = compile_source('ruleset r {\n  locale en_GB\n}\n'
                            'entity e { key id field id identifier }\non otherwise handoff\n',
                            path="r.rules")
    assert result.ok and result.policy.version == "0"
    (warning,) = result.diagnostics
    assert (warning.code, warning.severity) == ("RK214", "warning")
    assert (warning.span.line, warning.span.column) == (1, 9)
    assert warning.hint.startswith('add `version "2026.11"`')


@pytest.mark.parametrize("header", ['ruleset r { version "1" }', 'ruleset r { version 1 }',
                                    'ruleset r { verison "1" }'])
def test_a_version_given_or_misspelt_is_not_warned_about(header):
    result = compile_source(header + '\nentity e { key id field id identifier }\n'
                            'on otherwise handoff\n', path="r.rules")
    assert "RK214" not in {d.code for d in result.diagnostics}


@pytest.mark.parametrize("written, seconds", [("250ms", 0.25), ("90s", 90), ("15m", 900),
                                              ("6h", 21_600), ("1d", 86_400), ("2w", 1_209_600)])
def test_a_duration_is_a_whole_number_and_one_unit(written, seconds):
    """The units of `fresh within` and `max_age` are those of `rulekit stats --window`, and
    weeks besides."""
    result = compile_source('ruleset r { version "1" locale en_GB currency EUR }\n'
                            f"entity rate {{\n  key id\n  fresh within {written} via updated_at\n"
                            f"  field id identifier\n  field price money max_age {written}\n"
                            "  field updated_at timestamp hidden\n}\non otherwise handoff\n")
    assert result.ok, result.diagnostics
    rate = result.policy.entity("rate")
    assert rate.fresh_seconds == seconds and rate.field("price").fresh_seconds == seconds


def test_rk313_names_the_languages_the_sweep_reads_relative_days_in():
    """RK313's table of what the sweep reads (``scan.locales.WORDS_READ``) is built apart from
    the sweep's own tables, so that compiling needs none of them: they must agree."""
    from rulekit.scan.locales import WORDS_READ
    from rulekit.scan.words import _ROLES
    from rulekit.sweep_days import _RELATIVE_WORDS

    assert WORDS_READ["relative days"] == set(_RELATIVE_WORDS) | {"zh", "ja", "ko"}
    assert set(_ROLES) | {"en", "de", "zh", "ja", "ko"} == WORDS_READ["numbers in words"]
    assert WORDS_READ["stock words"] == WORDS_READ["relative days"]
