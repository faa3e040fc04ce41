"""The checker's caches (docs/performance.md): number and date readings, comparisons and
renderings are memoised, so that a check stays within its time budget. Caching must never be
visible in a decision:

- a repeated check decides exactly as the first one did;
- a caller who edits one decision cannot change the next one (cached normal forms are copied);
- 1, 1.0 and True are kept apart, although they are equal and hash alike in Python;
- text longer than a sentence is never kept as a cache key, and every cache is bounded;
- threads sharing one policy and the caches decide as they do alone.
"""

from __future__ import annotations

import concurrent.futures
import datetime as dt
import json
from pathlib import Path

import pytest

import rulekit
from rulekit import check as check_module, dates, numbers, prose, template
from rulekit.check import check
from rulekit.policy import DERIVED

CASES = Path(__file__).parent / "cases" / "claims"
POLICY = rulekit.load(CASES / "types.rules")
NOW = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.timezone.utc)
FRESH = "2026-11-30T11:58:00Z"
ROWS = {
    "product": [{"sku": "RC-500", "code": "RC-500", "barcode": "4006381333931",
                 "name": "Navy raincoat", "colour": "Navy", "stock": 1, "price": 129900,
                 "list_price": 1299.0, "deposit": 2500, "cost": 50000, "updated_at": FRESH}],
    "order": [{"id": "ord_88431", "shipped_at": "2026-07-29T23:40:00Z",
               "placed_at": "2026-07-29T02:00:00Z", "packed_at": "2026-07-29 23:30:00",
               "delivery_date": "2026-08-05", "estimated_delivery": "2026-08-05",
               "status": "shipped", "carrier": "dhl", "line_count": 3, "updated_at": FRESH}],
}


def reply(*claims: tuple[str, str, str, str, str, object]) -> str:
    template_text = " ".join(f"{{{key}}}" for key, *_ in claims)
    return json.dumps({"answer_template": template_text, "claims": [
        {"key": key, "type": type_, "entity": entity, "entity_id": entity_id, "field": field,
         "value": value} for key, type_, entity, entity_id, field, value in claims]})


def decide(*claims) -> rulekit.Decision:
    return check(POLICY, reply(*claims), ROWS, now=NOW)


PRICE = ("price", "money", "product", "RC-500", "price", "$1,299.00")
SHIPPED = ("shipped", "date", "order", "ord_88431", "shipped_at", "30 July 2026")
STOCK = ("stock", "integer", "product", "RC-500", "stock", 1)


def test_a_repeated_check_decides_as_the_first():
    first = decide(PRICE, SHIPPED, STOCK).to_dict()
    for _ in range(3):
        assert decide(PRICE, SHIPPED, STOCK).to_dict() == first
    assert first["decision"] == "answer"


def test_editing_a_decision_does_not_change_the_next_one():
    wrong = ("price", "money", "product", "RC-500", "price", "$1,300.00")
    first = decide(wrong)
    assert first.claims[0].outcome == "contradicted"
    first.claims[0].claimed_normal["minor_units"] = 1
    first.claims[0].actual_normal["currency"] = "XXX"
    second = decide(wrong)
    assert second.claims[0].claimed_normal == {"minor_units": 130000, "currency": "USD"}
    assert second.claims[0].actual_normal == {"minor_units": 129900, "currency": "USD"}


@pytest.mark.parametrize("order", [(1, True, 1.0), (True, 1.0, 1), (1.0, 1, True)])
def test_one_true_and_one_point_zero_stay_apart(order):
    """A stock of 1: the counts 1 and 1.0 confirm it, True is not a count. The three are equal
    and hash alike in Python, so a cache that did not tell their types apart would answer one
    with the result of another."""
    for value in order:
        result = decide(("stock", "integer", "product", "RC-500", "stock", value)).claims[0]
        assert type(result.claimed) is type(value)
        assert result.outcome == ("not_checkable" if value is True else "confirmed")


def test_long_text_is_never_a_cache_key():
    caches = [numbers._parse_text_cached, dates._parse_claimed_cached,
              dates._stored_text_cached, template._parse_cached, prose._matches_cached,
              prose._may_hold_figures_cached]
    before = [cache.cache_info().currsize for cache in caches]
    assert numbers.parse_number("1" * 150, "en_US") is not None
    assert dates.parse_claimed_date("30 July 2026" + " " * 150, "en_GB") is not None
    assert dates.stored_day("2026-07-30" + " " * 100, "UTC", "UTC") == dt.date(2026, 7, 30)
    long_template = "Your order {order_id} shipped." + " Thank you." * 300
    parsed = template.parse_template(long_template)
    assert parsed.slot_names == ("order_id",)
    assert prose.may_hold_figures(long_template) is False
    assert prose.matches_shapes(parsed, {"order_id": "order.id"}, ("x",)) is False
    assert [cache.cache_info().currsize for cache in caches] == before


def test_a_long_claim_is_not_memoised_but_still_read():
    padded = ("price", "money", "product", "RC-500", "price", " " * 70 + "$1,299.00")
    decision = decide(padded)
    assert decision.decision == "answer", decision.to_dict()


def test_every_cache_is_bounded():
    derived = check_module._derived(POLICY)
    caches = [numbers._parse_text_cached, dates._parse_claimed_cached,
              dates._stored_text_cached, template._parse_cached, prose._matches_cached,
              prose._may_hold_figures_cached, derived.lookup_fields,
              derived.comparison, derived.rendering]
    for cache in caches:
        assert cache.cache_parameters()["maxsize"] is not None, cache


def test_a_reloaded_policy_does_not_use_the_old_ones_entries():
    """Two loads of one file are equal policies, but the checker keys its per-policy data by
    identity; both decide alike."""
    again = rulekit.load(CASES / "types.rules")
    assert again == POLICY and again is not POLICY
    one = check(POLICY, reply(PRICE, SHIPPED), ROWS, now=NOW).to_dict()
    two = check(again, reply(PRICE, SHIPPED), ROWS, now=NOW).to_dict()
    assert one == two


def test_threads_decide_as_a_single_thread_does():
    notations = ["$1,299.00", "1299", "USD 1,299.00", "$1,300.00", "1.299,00 $", "$12.345"]
    days = ["30 July 2026", "2026-07-30", "07/30/2026", "29 July 2026", "July 30, 2026"]
    replies = [reply(("price", "money", "product", "RC-500", "price", money),
                     ("shipped", "date", "order", "ord_88431", "shipped_at", day))
               for money in notations for day in days]
    alone = [check(POLICY, text, ROWS, now=NOW).to_dict() for text in replies]
    for cache in (numbers._parse_text_cached, dates._parse_claimed_cached):
        cache.cache_clear()
    POLICY.__dict__.pop(DERIVED, None)   # derived again, by whichever thread comes first
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        shared = list(pool.map(lambda text: check(POLICY, text, ROWS, now=NOW).to_dict(),
                               replies * 8))
    assert shared == alone * 8


class _CountedWalks(tuple):
    """A policy's entities that count how often they are walked."""
    walks = 0

    def __iter__(self):
        type(self).walks += 1
        return super().__iter__()


def test_what_a_check_derives_from_a_policy_walks_its_entities_a_fixed_number_of_times():
    """Derived once per policy, before its first check: the links of each entity were found by
    walking every entity again, so a policy of 3,000 entities took seconds to check the first
    time, past any timeout. Counted, not timed: the walks must not grow with the entities."""
    walks = []
    for count in (10, 40):
        entity = POLICY.entity("product")
        many = _CountedWalks(entity.model_copy(update={"name": f"product{i}"})
                             for i in range(count))
        policy = POLICY.model_copy(update={"entities": many})
        _CountedWalks.walks = 0
        derived = check_module._Derived(policy)
        walks.append(_CountedWalks.walks)
        assert set(derived.links) == {f"product{i}" for i in range(count)}
    assert walks[0] == walks[1], walks


def test_what_is_derived_from_a_policy_is_kept_with_it_however_many_policies_run():
    """A process that serves many rulesets (a tenant each, one per product line) must not
    derive each policy's data again on every check: it is held by the policy, not by a
    process-wide cache of eight."""
    policies = [rulekit.load(CASES / "types.rules") for _ in range(12)]
    first = [check_module._derived(policy) for policy in policies]
    for _ in range(2):
        for policy in policies:
            assert check(policy, reply(PRICE), ROWS, now=NOW).decision == "answer"
    assert all(check_module._derived(policy) is held for policy, held in zip(policies, first))


def test_a_changed_copy_of_a_policy_derives_its_own_data():
    """The pass twin: ``model_copy`` carries the held data over to the copy, which must not
    use it; and a policy still pickles with its data held (it is left out and derived again)."""
    import pickle

    held = check_module._derived(POLICY)
    changed = POLICY.model_copy(update={"version": "changed"})
    assert check_module._derived(changed) is not held
    assert check_module._derived(changed).policy is changed
    assert check_module._derived(POLICY) is held
    again = pickle.loads(pickle.dumps(POLICY))
    assert again == POLICY and check_module._derived(again).policy is again
    assert check(again, reply(PRICE), ROWS, now=NOW).decision == "answer"


def test_the_log_and_the_assent_reader_keep_their_data_with_each_policy_too():
    """The decision log's sensitive fields and the assent reader's state words were bounded
    caches of eight policies, re-derived on every check in a process that held more."""
    from rulekit import check_said, log
    from rulekit.policy import derived

    policies = [rulekit.load(CASES / "types.rules") for _ in range(12)]
    held = [(log._sensitive_of(p), log._sensitive_rows(p),
             derived(p, "said.state_words", check_said._state_words)) for p in policies]
    for policy, (sensitive, rows, words) in zip(policies, held):
        assert log._sensitive_of(policy) is sensitive
        assert log._sensitive_rows(policy) is rows
        assert derived(policy, "said.state_words", check_said._state_words) is words


def test_a_copy_of_a_copy_never_takes_data_derived_for_another_policy():
    """The held data names its policy by reference, not by ``id``: a copy made after the
    original is gone, which may get the original's id, still derives its own."""
    from rulekit.policy import derived

    original = rulekit.load(CASES / "types.rules")
    derived(original, "test.version", lambda p: p.version)
    copy = original.model_copy(update={"version": "second"})
    del original
    again = copy.model_copy(update={"version": "third"})
    assert derived(copy, "test.version", lambda p: p.version) == "second"
    assert derived(again, "test.version", lambda p: p.version) == "third"


def test_the_sweep_settings_and_row_places_of_each_policy_are_derived_once():
    """An audit derives its settings and where each entity's rows are from the policy: held by
    the policy however many run in the process (they were bounded caches of 16)."""
    from rulekit.entity_rows import row_places
    from rulekit.sweep import SweepSettings

    policies = [rulekit.load(CASES / "types.rules") for _ in range(20)]
    held = [(SweepSettings.from_policy(p), row_places(p)) for p in policies]
    for policy, (settings, places) in zip(policies, held):
        assert SweepSettings.from_policy(policy) is settings
        assert row_places(policy) is places
