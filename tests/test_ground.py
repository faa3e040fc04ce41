"""The grounding loop (rulekit.ground) with scripted ``generate`` callables.

The failure paths come first: a loop that ever hands over an unchecked reply is worse than no
loop at all.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import importlib.util
import json
import threading
import time
from pathlib import Path

import pytest
from scripted import price_reply

import rulekit
from rulekit.ground import GenerateRequest, Generation, Grounded, ground

ROOT = Path(__file__).resolve().parent.parent
SHOP = json.loads((ROOT / "rulesets/examples/shop.json").read_text("utf-8"))
ANALYTICS = json.loads((ROOT / "rulesets/examples/analytics.json").read_text("utf-8"))
NOW = dt.datetime.fromisoformat(SHOP["now"].replace("Z", "+00:00"))

SORRY = "Sorry, I could not put that answer together. Please ask again."
FALLBACK = "Navy raincoat (RC-500) is $1,299.00. In stock: 0."
STRAY_REFUSAL = ("I could not verify every figure in that answer, so I have not sent it. The "
                 "product page has the current price and stock.")
ANALYTICS_REFUSAL = ("I couldn't find that number. Try asking another way, or open Insights for "
                     "the full numbers.")


GOOD = price_reply("$1,299.00")
OLD_PRICE = price_reply("$1,199.00")
INVENTED = json.dumps({"grounded": True, "template": "It is $1,350 and we have {stock} left.",
                       "subject": {"entity": "product", "id": "RC-500"}})
HISTORY_NUMBER = "Your 9 pm post reached 3,100 views."
FAITHFUL = ANALYTICS["answers"][0]["text"]
HAS_PROMPT = importlib.util.find_spec("rulekit.prompt") is not None


@pytest.fixture(scope="module")
def shop():
    return rulekit.load(ROOT / "rulesets/shop.rules")


@pytest.fixture(scope="module")
def analytics():
    return rulekit.load(ROOT / "rulesets/analytics.rules")


def shop_variant(tmp_path: Path, old: str, new: str):
    """shop.rules with one rule changed, compiled from a temporary copy."""
    text = (ROOT / "rulesets/shop.rules").read_text("utf-8")
    assert old in text
    path = tmp_path / "shop.rules"
    path.write_text(text.replace(old, new), "utf-8")
    return rulekit.load(path)


class Script:
    """A scripted model: each call takes the next item. An exception is raised, a callable is
    called with the request, anything else is returned. Records every request."""

    def __init__(self, *items):
        self.items = list(items)
        self.requests: list[GenerateRequest] = []
        self.lock = threading.Lock()

    def __call__(self, request: GenerateRequest):
        with self.lock:
            self.requests.append(request)
            item = self.items.pop(0)
        if isinstance(item, BaseException):
            raise item
        if callable(item):
            return item(request)
        return item


def run_shop(policy, script, **options) -> Grounded:
    return ground(script, policy, source=SHOP["rows"], now=NOW, **options)


def assert_logged(result: Grounded) -> dict:
    """Every result can be logged as JSON."""
    logged = json.loads(json.dumps(result.to_dict()))
    assert logged["decision"]["decision"] == result.decision.decision
    assert len(logged["attempts"]) == len(result.attempts)
    return logged


def codes(decision) -> list[str]:
    return [reason.code for reason in decision.reasons]


# --- failure paths ----------------------------------------------------------------------------

def test_generate_raising_before_any_reply_fails_closed_with_the_malformed_reply_action(shop):
    script = Script(ConnectionError("the model endpoint refused the connection"))
    result = run_shop(shop, script)
    assert result.decision.decision == "refuse"
    assert result.decision.message == SORRY
    assert result.decision.text is None and not result.delivered
    assert codes(result.decision) == ["generate_failed"]
    assert "refused the connection" in result.decision.reasons[0].message
    assert result.stopped == "generate_failed"
    assert len(script.requests) == 1     # a failed call is not retried by the loop
    (attempt,) = result.attempts
    assert attempt.reply is None and attempt.decision is None
    assert "ConnectionError" in attempt.error
    logged = assert_logged(result)
    assert logged["attempts"][0]["decision"] is None


def test_generate_raising_on_the_retry_gives_the_then_action_of_the_last_reply(shop):
    script = Script(OLD_PRICE, RuntimeError("boom"))
    result = run_shop(shop, script)
    assert result.decision.decision == "fallback"
    assert result.decision.text == FALLBACK         # built by code from the catalogue
    assert codes(result.decision) == ["contradicted", "generate_failed"]
    assert result.stopped == "generate_failed"
    assert [a.error is None for a in result.attempts] == [True, False]
    assert result.decision.attempt == 1             # the reply judged was the first one


def test_generate_raising_in_the_prose_channel_takes_the_rulesets_malformed_action(analytics):
    result = ground(Script(TimeoutError("read timed out")), analytics,
                    evidence=ANALYTICS["evidence"])
    assert result.decision.decision == "refuse"
    assert result.decision.message.startswith("I couldn't put that answer together.")
    assert codes(result.decision) == ["generate_failed"]


def test_a_fallback_needs_verified_facts_so_no_reply_at_all_is_refused(shop, tmp_path):
    policy = shop_variant(tmp_path, "on malformed_reply regenerate max 1 then refuse "
                          '"Sorry, I could not put that answer together. Please ask again."',
                          "on malformed_reply regenerate max 1 then fallback product_facts")
    result = run_shop(policy, Script(RuntimeError("down")))
    assert result.decision.decision == "refuse" and result.decision.text is None
    assert codes(result.decision) == ["generate_failed", "fallback_unavailable"]


def test_generate_returning_something_that_is_not_a_reply_fails_closed(shop):
    result = run_shop(shop, Script({"answer_template": "x", "claims": []}))
    assert result.decision.decision == "refuse"
    assert "generate returned dict" in result.decision.reasons[0].message
    result = run_shop(shop, Script(lambda request: Generation(GOOD, tokens=-1)))
    assert result.decision.decision == "refuse"
    assert "Generation.tokens" in result.decision.reasons[0].message


def test_an_old_price_twice_gets_the_fallback_and_no_third_call(shop):
    script = Script(OLD_PRICE, OLD_PRICE, GOOD)
    result = run_shop(shop, script)
    assert result.decision.decision == "fallback"
    assert result.decision.text == FALLBACK
    assert [a.decision.decision for a in result.attempts] == ["regenerate", "fallback"]
    assert len(script.requests) == 2
    assert result.stopped is None       # the ruleset's own `then` ended it
    assert result.decision.attempt == 2
    assert_logged(result)


def test_an_invented_figure_twice_gets_the_refusal(shop):
    script = Script(INVENTED, INVENTED)
    result = run_shop(shop, script)
    assert result.decision.decision == "refuse"
    assert result.decision.message == STRAY_REFUSAL
    assert result.decision.text is None
    assert "$1,350" in script.requests[1].feedback
    assert len(result.attempts) == 2


def test_a_malformed_reply_twice_is_refused(shop):
    result = run_shop(shop, Script("The raincoat costs $1,299.", "still not JSON"))
    assert result.decision.decision == "refuse"
    assert result.decision.message == SORRY
    assert "not valid JSON" in result.attempts[0].decision.feedback


def test_a_generate_that_hangs_past_the_deadline_is_abandoned(shop):
    def slow(request):
        time.sleep(2)
        return GOOD

    started = time.monotonic()
    result = run_shop(shop, Script(OLD_PRICE, slow), deadline=0.4)
    elapsed = time.monotonic() - started
    assert elapsed < 1.5                # the loop did not wait for the hung call
    assert result.decision.decision == "fallback"
    assert result.decision.text == FALLBACK
    assert result.stopped == "deadline_exceeded"
    assert codes(result.decision)[-1] == "deadline_exceeded"
    assert result.attempts[1].reply is None and "deadline" in result.attempts[1].error


def test_a_deadline_passed_before_any_reply_fails_closed(shop):
    def slow(request):
        assert 0 < request.time_left <= 0.2     # a cooperative adapter can stop itself
        time.sleep(1)
        return GOOD

    result = run_shop(shop, Script(slow), deadline=0.2)
    assert result.decision.decision == "refuse" and result.decision.message == SORRY
    assert codes(result.decision) == ["deadline_exceeded"]
    assert result.stopped == "deadline_exceeded"


class SlowCatalogue:
    """A catalogue that ignores the budget its lookup is given (``request.timeout``, as a
    custom resolver may): it takes ``seconds``, or, without them, 0.3 s more than its budget,
    so that it outlasts the deadline however fast or loaded the machine is; records those
    budgets."""

    def __init__(self, seconds: float | None = None) -> None:
        from rulekit.sources import MemoryResolver

        self.rows = MemoryResolver(SHOP["rows"])
        self.seconds = seconds
        self.budgets: list[float] = []

    def fetch(self, request):
        self.budgets.append(request.timeout)
        time.sleep(request.timeout + 0.3 if self.seconds is None else self.seconds)
        return self.rows.fetch(request)


def test_a_lookup_outlasting_the_deadline_fails_closed_and_the_model_is_not_called_again(shop):
    """Each lookup is given no more than the time left (a SQL resolver stops there); one that
    ignores its budget cannot be interrupted, but what it returns past it is not used."""
    # The deadline leaves the work before the model's call (the evidence block, the
    # ruleset's first check) ample time on a loaded machine; the lookup outlasts whatever is
    # left of it.
    catalogue = SlowCatalogue()
    script = Script(OLD_PRICE, GOOD)
    result = ground(script, shop, source=catalogue, now=NOW, deadline=2.0)
    assert len(script.requests) == 1
    assert catalogue.budgets and catalogue.budgets[0] <= 2.0
    assert result.stopped == "deadline_exceeded"
    assert result.decision.decision == "handoff" and result.decision.text is None
    assert "lookup_failed" in codes(result.decision)
    assert codes(result.decision)[-1] == "deadline_exceeded"
    assert "past the deadline" in result.decision.reasons[-1].message


def test_a_lookup_within_the_time_left_still_answers(shop):
    catalogue = SlowCatalogue(seconds=0.3)
    result = ground(Script(GOOD), shop, source=catalogue, now=NOW, deadline=5)
    assert result.decision.decision == "answer" and result.stopped is None
    assert 0.3 < catalogue.budgets[0] <= 2.0


def test_a_token_budget_stops_the_retry_and_applies_the_then_action(shop):
    script = Script(Generation(OLD_PRICE, tokens=600), Generation(GOOD, tokens=600))
    result = run_shop(shop, script, max_tokens=1000)
    assert len(script.requests) == 1    # 600 used + 600 for another attempt > 1000
    assert result.decision.decision == "fallback"
    assert result.stopped == "token_budget_exhausted"
    assert codes(result.decision) == ["contradicted", "token_budget_exhausted"]
    assert "1000" in result.decision.reasons[-1].message
    assert result.tokens == 600


def test_a_token_budget_with_room_for_another_attempt_allows_it(shop):
    script = Script(Generation(OLD_PRICE, tokens=400), Generation(GOOD, tokens=400))
    result = run_shop(shop, script, max_tokens=1000)
    assert result.decision.decision == "answer"
    assert result.tokens == 800


def test_a_budget_on_usage_generate_does_not_report_fails_closed(shop):
    script = Script(OLD_PRICE, GOOD)        # plain strings: no token counts
    result = run_shop(shop, script, max_tokens=10_000)
    assert len(script.requests) == 1
    assert result.stopped == "token_budget_exhausted"
    assert "cannot be enforced" in result.decision.reasons[-1].message
    assert result.tokens is None


def test_a_cost_budget_stops_the_retry(shop):
    script = Script(Generation(OLD_PRICE, tokens=10, cost=0.02), GOOD)
    result = run_shop(shop, script, max_cost=0.03)
    assert result.stopped == "cost_budget_exhausted"
    assert result.decision.decision == "fallback"
    assert result.cost == pytest.approx(0.02)


def test_max_attempts_below_the_rulesets_limit_applies_the_then_action(shop):
    script = Script(INVENTED, GOOD)
    result = run_shop(shop, script, max_attempts=1)
    assert len(script.requests) == 1
    assert result.decision.decision == "refuse" and result.decision.message == STRAY_REFUSAL
    assert result.stopped == "attempts_exhausted"


def test_max_attempts_never_extends_the_ruleset(shop):
    script = Script(OLD_PRICE, OLD_PRICE, GOOD, GOOD)
    result = run_shop(shop, script, max_attempts=4)
    assert len(script.requests) == 2 and result.decision.decision == "fallback"


def test_an_unopenable_source_fails_closed_without_calling_the_model(shop):
    script = Script(GOOD)
    result = ground(script, shop, source="postgresish://nowhere", now=NOW)
    assert script.requests == []
    assert result.decision.decision == "handoff"     # shop's `on lookup_failed`
    assert "lookup_failed" in codes(result.decision)
    assert result.attempts == ()


def test_a_failing_lookup_takes_the_lookup_failed_action_at_once(shop):
    class Down:
        def fetch(self, request):
            raise OSError("connection reset")

    script = Script(GOOD, GOOD)
    result = ground(script, shop, source=Down(), now=NOW)
    assert result.decision.decision == "handoff"
    assert len(script.requests) == 1


def test_evidence_the_model_cannot_be_shown_fails_closed_without_calling_it(shop):
    if not HAS_PROMPT:
        pytest.skip("rulekit.prompt renders the evidence block")
    script = Script(GOOD)
    result = run_shop(shop, script, evidence={"product": [{"sku": "RC-500", "tags": {"a"}}]})
    assert script.requests == [] and result.decision.decision == "refuse"
    assert codes(result.decision) == ["input_error"]
    assert "cannot be shown to the model" in result.decision.reasons[0].message


def test_an_unknown_locale_is_refused_without_calling_the_model(analytics):
    script = Script(FAITHFUL)
    result = ground(script, analytics, evidence=ANALYTICS["evidence"], locale="xx_NOWHERE")
    assert script.requests == [] and result.attempts == ()
    assert result.decision.decision == "refuse"
    assert "unknown locale" in result.decision.reasons[0].message


def test_history_never_licenses_a_number(analytics):
    history = ({"role": "user", "content": "How did my 9 pm post do?"},
               {"role": "assistant", "content": HISTORY_NUMBER})
    script = Script(HISTORY_NUMBER, HISTORY_NUMBER)
    result = ground(script, analytics, evidence=ANALYTICS["evidence"],
                    question=ANALYTICS["question"], history=history)
    assert result.decision.decision == "refuse"
    assert result.decision.message == ANALYTICS_REFUSAL
    first = result.attempts[0]
    assert first.decision.decision == "regenerate"
    assert [f.text for f in first.findings] == ["3,100"]
    assert "3,100" in script.requests[1].feedback
    for request in script.requests:      # history reaches the model as context only
        assert request.history == history
        assert request.evidence is ANALYTICS["evidence"]
        assert request.channel == "prose" and request.schema is None
    logged = assert_logged(result)
    assert logged["attempts"][0]["findings"][0]["text"] == "3,100"


def test_an_empty_prose_reply_is_never_an_answer(analytics):
    result = ground(Script("  ", "\n"), analytics, evidence=ANALYTICS["evidence"])
    assert result.decision.decision == "refuse"
    assert result.decision.text is None
    assert result.attempts[0].decision.feedback.startswith("Your last reply was empty")


def test_a_reply_cut_off_at_the_token_limit_is_regenerated_never_answered(analytics):
    """"Your 9 pm post got 2" is 2,380 cut off at max_tokens: the sweep alone would pass it."""
    script = Script(Generation("Your 9 pm post got 2", finish_reason="length"),
                    Generation(FAITHFUL, finish_reason="stop"))
    result = ground(script, analytics, evidence=ANALYTICS["evidence"],
                    question=ANALYTICS["question"])
    first = result.attempts[0].decision
    assert first.decision == "regenerate" and codes(first) == ["malformed_reply"]
    assert 'finish_reason "length"' in first.reasons[0].message
    assert script.requests[1].feedback.startswith("Your last reply was cut off")
    assert result.decision.decision == "answer" and result.decision.text == FAITHFUL
    assert_logged(result)


@pytest.mark.parametrize("channel", ["prose", "claims"])
def test_a_reply_stopped_by_a_content_filter_takes_the_malformed_reply_action(
        analytics, shop, channel):
    if channel == "prose":
        cut = Generation(FAITHFUL, finish_reason="content_filter")
        result = ground(Script(cut, cut), analytics, evidence=ANALYTICS["evidence"])
        assert result.decision.message.startswith("I couldn't put that answer together.")
    else:
        cut = Generation(GOOD, finish_reason="content_filter")     # the rest was filtered
        result = run_shop(shop, Script(cut, cut))
        assert result.decision.message == SORRY
    assert result.decision.decision == "refuse" and result.decision.text is None
    assert codes(result.decision) == ["malformed_reply"]
    assert 'finish_reason "content_filter"' in result.decision.reasons[0].message


def test_a_cut_reply_judged_again_when_the_budget_runs_out_is_still_not_answered(analytics):
    script = Script(Generation("Your 9 pm post got 2", finish_reason="length"),
                    RuntimeError("boom"))
    result = ground(script, analytics, evidence=ANALYTICS["evidence"])
    assert result.decision.decision == "refuse" and result.decision.text is None
    assert codes(result.decision) == ["malformed_reply", "generate_failed"]


@pytest.mark.parametrize("finish_reason", ["max_tokens", "MAX_TOKENS", "max_output_tokens",
                                           "SAFETY", "an_unknown_reason"])
def test_a_reply_cut_off_in_any_providers_words_is_never_answered(analytics, finish_reason):
    """Anthropic says "max_tokens", Gemini "MAX_TOKENS": "Your 9 pm post got 2" is cut short
    whoever says it, and a reason rulekit does not know cannot say the reply is whole."""
    script = Script(Generation("Your 9 pm post got 2", finish_reason=finish_reason),
                    Generation(FAITHFUL, finish_reason="end_turn"))
    result = ground(script, analytics, evidence=ANALYTICS["evidence"],
                    question=ANALYTICS["question"])
    first = result.attempts[0].decision
    assert first.decision == "regenerate" and codes(first) == ["malformed_reply"]
    assert f'finish_reason "{finish_reason}"' in first.reasons[0].message
    assert result.decision.decision == "answer" and result.decision.text == FAITHFUL


def test_a_finish_reason_must_be_text():
    with pytest.raises(TypeError, match="finish_reason"):
        Generation("ok", finish_reason=3)


def test_a_prose_reply_over_the_cap_is_not_audited_nor_delivered(analytics, monkeypatch):
    """A reply longer than ``MAX_REPLY_CHARS`` (the cap a claims reply and the CLI's text have)
    fails closed as malformed without being swept: a 1.9 MB reply took minutes to audit and was
    then delivered whole, whatever the deadline."""
    import rulekit.audit

    from rulekit.reply import MAX_REPLY_CHARS

    def never(*args, **kwargs):
        raise AssertionError("a reply over the cap was audited")

    monkeypatch.setattr(rulekit.audit, "audit", never)
    huge = "Your best post got 4,120 views. " * (MAX_REPLY_CHARS // 32 + 1)
    result = ground(Script(huge, huge), analytics, evidence=ANALYTICS["evidence"], deadline=5)
    assert not result.delivered and result.decision.text is None
    assert codes(result.decision) == ["malformed_reply"]
    assert f"the limit is {MAX_REPLY_CHARS:,}" in result.decision.reasons[0].message
    assert "too long" in result.attempts[0].decision.feedback


def test_a_long_faithful_prose_reply_under_the_cap_is_delivered(analytics):
    long = " ".join([FAITHFUL] * 40)
    result = ground(Script(long), analytics, evidence=ANALYTICS["evidence"])
    assert result.decision.decision == "answer" and result.decision.text == long


def test_a_prose_reply_judged_past_the_deadline_is_not_swept_again(analytics, monkeypatch):
    """When the deadline passes while a reply that needs regenerating is judged, the final
    decision comes from the same findings at the final attempt: a second sweep would only
    overrun the deadline further."""
    import rulekit.audit

    swept = []
    real = rulekit.audit.audit

    def slow(text, *args, **kwargs):
        swept.append(text)
        time.sleep(0.3)
        return real(text, *args, **kwargs)

    monkeypatch.setattr(rulekit.audit, "audit", slow)
    lines: list[dict] = []
    script = Script(HISTORY_NUMBER, FAITHFUL)
    result = ground(script, analytics, evidence=ANALYTICS["evidence"], deadline=0.2,
                    log=lines.append)
    assert swept == [HISTORY_NUMBER] and len(script.requests) == 1
    assert result.stopped == "deadline_exceeded"
    assert result.decision.decision == "refuse" and result.decision.message == ANALYTICS_REFUSAL
    assert codes(result.decision) == ["untrusted_source", "deadline_exceeded"]
    assert [line.get("rejudged") for line in lines] == [None, True]


def test_a_misused_ground_raises_with_a_fix(shop, analytics):
    with pytest.raises(ValueError, match="needs a channel"):
        ground(Script(GOOD), shop)
    with pytest.raises(ValueError, match="deadline must be a positive number"):
        ground(Script(GOOD), shop, source=SHOP["rows"], deadline=0)
    with pytest.raises(ValueError, match="max_attempts must be a positive integer"):
        ground(Script(GOOD), shop, source=SHOP["rows"], max_attempts=1.5)
    with pytest.raises(TypeError, match="generate must be a callable"):
        ground("model", shop, source=SHOP["rows"])
    with pytest.raises(TypeError, match="needs a compiled Policy"):
        ground(Script(GOOD), None, source=SHOP["rows"])
    with pytest.raises(TypeError, match="history must be a sequence"):
        ground(Script(GOOD), analytics, evidence={}, history="earlier")


# --- the ruleset's input and prose rules in the prose channel ----------------------------------

def test_prose_shapes_cannot_be_grounded_in_the_prose_channel():
    """orders.rules allows only approved sentence shapes; free text cannot be checked against
    them, so the loop refuses the ruleset instead of delivering unapproved prose."""
    orders = rulekit.load(ROOT / "rulesets/orders.rules")
    script = Script("Your order was lost in transit, so we will refund you in full.")
    with pytest.raises(ValueError, match="prose shapes.*source="):
        ground(script, orders, evidence={"order": []}, question="Where is my order?")
    assert script.requests == []


def test_prose_guarded_holds_in_the_prose_channel():
    """A ruleset that says `prose guarded` keeps the model from promising in free text too: the
    promise is regenerated with feedback that names it, and the plain answer that follows is
    delivered."""
    refunds = rulekit.load(ROOT / "tests/cases/sweep/refunds.rules")
    plain = "Order A-1001 has shipped. Its total was £59.90."
    script = Script("Order A-1001 has shipped, so we will refund you in full, as always.", plain)
    result = ground(script, refunds, evidence={"order": [{"id": "A-1001", "total": 59.9}]})
    first = result.attempts[0].decision
    assert first.decision == "regenerate" and codes(first) == ["unapproved_shape"] * 2
    assert "'we will refund'" in first.reasons[0].message and "'always'" in first.reasons[1].message
    assert "make claims the data cannot back: we will refund, always" in script.requests[1].feedback
    assert result.decision.decision == "answer" and result.decision.text == plain


def test_prose_order_rows_need_the_postcode_before_the_model_is_called():
    from test_entity_rows import NOW as ORDERS_NOW, ORDERS, ROW

    script = Script("Your order ord_88431 weighs 4.23 kg and cost €1,299.00.")
    result = ground(script, ORDERS, evidence={"order": [ROW]}, now=ORDERS_NOW)
    assert script.requests == [] and result.attempts == ()
    assert result.decision.decision == "ask"
    assert result.decision.message == "Which postcode is the order going to?"
    assert codes(result.decision) == ["missing_input"]
    assert "postcode" in result.decision.reasons[0].message


def test_prose_order_rows_of_another_postcode_are_neither_shown_nor_licensed():
    from test_entity_rows import NOW as ORDERS_NOW, ORDERS, ROW

    text = "Your order ord_88431 weighs 4.23 kg and cost €1,299.00."
    script = Script(text, text)
    result = ground(script, ORDERS, evidence={"order": [ROW]}, now=ORDERS_NOW,
                    inputs={"postcode": "80331"})
    assert not result.delivered
    request = script.requests[0]
    assert request.evidence == {"order": []}
    assert "ord_88431" not in request.evidence_block
    assert {f.code for f in result.attempts[0].findings} == {"unsupported_number"}


def test_prose_order_rows_of_the_postcode_given_are_answered():
    from test_entity_rows import NOW as ORDERS_NOW, ORDERS, ROW

    text = "Your order ord_88431 weighs 4.23 kg and cost €1,299.00."
    script = Script(text)
    result = ground(script, ORDERS, evidence={"order": [ROW]}, now=ORDERS_NOW,
                    inputs={"postcode": "10115"})
    assert result.decision.decision == "answer", result.decision.reasons
    assert "ord_88431" in script.requests[0].evidence_block
    assert "10115" not in script.requests[0].evidence_block     # hidden, still


def test_claims_evidence_shows_no_row_the_inputs_do_not_open(shop):
    from test_entity_rows import NOW as ORDERS_NOW, ORDERS, ROW

    script = Script(json.dumps({"answer_template": "I cannot say.", "claims": []}))
    ground(script, ORDERS, source={"order": [ROW]}, evidence={"order": [ROW]}, now=ORDERS_NOW)
    assert script.requests[0].evidence == {"order": []}
    assert "ord_88431" not in script.requests[0].evidence_block


# --- success paths ----------------------------------------------------------------------------

def test_an_old_price_is_fixed_on_the_retry(shop):
    script = Script(OLD_PRICE, GOOD)
    result = run_shop(shop, script, question="How much is the navy raincoat?",
                      evidence={"product": SHOP["rows"]["product"]})
    assert result.decision.decision == "answer"
    assert result.decision.text == "Navy raincoat is $1,299.00."
    assert result.decision.attempt == 2
    assert result.stopped is None
    first, second = script.requests
    assert (first.attempt, first.feedback, first.facts, first.previous_reply) == (1, None, (), None)
    assert first.channel == "claims" and first.locale == "en_US"
    assert first.question == "How much is the navy raincoat?"
    assert second.attempt == 2 and second.previous_reply == OLD_PRICE
    assert "price: you wrote '$1,199.00'" in second.feedback
    assert "1,299" not in second.feedback           # no `with values` in shop.rules
    assert [fact.key for fact in second.facts] == ["name"]
    assert second.evidence == {"product": SHOP["rows"]["product"]} and not second.narrowed
    if HAS_PROMPT:      # the block shows money as customers write it, never 129900 "dollars"
        assert "<data>" in first.evidence_block and "1299.00 USD" in first.evidence_block
        assert second.evidence_block == first.evidence_block
        assert first.facts_block is None and "<facts>" in second.facts_block
    assert all(a.generate_seconds >= 0 and a.check_seconds > 0 for a in result.attempts)
    assert_logged(result)


def test_a_good_first_reply_is_answered_at_once(shop):
    script = Script(Generation(GOOD, tokens=120, cost=0.001))
    result = run_shop(shop, script)
    assert result.decision.decision == "answer" and len(result.attempts) == 1
    assert result.tokens == 120 and result.cost == pytest.approx(0.001)
    logged = assert_logged(result)
    assert logged["attempts"][0]["tokens"] == 120


def test_the_claims_request_carries_the_reply_schema_when_there_is_one(shop):
    script = Script(GOOD)
    run_shop(shop, script)
    (request,) = script.requests
    has_schema_module = importlib.util.find_spec("rulekit.schema") is not None
    assert (request.schema is not None) == has_schema_module
    assert request.shapes == tuple(shape.text for shape in shop.shapes)
    assert "{name} is {price}." in request.shapes


def test_with_values_gives_the_true_value_to_the_model(shop, tmp_path):
    policy = shop_variant(tmp_path, "on contradicted regenerate max 1 naming 8 then",
                          "on contradicted regenerate max 1 naming 8 with values then")
    script = Script(OLD_PRICE, GOOD)
    result = run_shop(policy, script)
    assert result.decision.decision == "answer"
    second = script.requests[1]
    assert "the record says $1,299.00" in second.feedback
    assert {fact.key for fact in second.facts} == {"name", "price"}


def test_narrow_withholds_the_evidence_and_passes_only_verified_facts(shop, tmp_path):
    policy = shop_variant(tmp_path, "on contradicted regenerate max 1 naming 8 then",
                          "on contradicted regenerate max 1 narrow naming 8 then")
    script = Script(OLD_PRICE, GOOD)
    result = run_shop(policy, script, evidence={"product": SHOP["rows"]["product"]})
    assert result.decision.decision == "answer"
    first, second = script.requests
    assert first.evidence is not None and not first.narrowed
    assert second.evidence is None and second.narrowed
    assert second.evidence_block is None and second.evidence_text() is None
    assert [fact.key for fact in second.facts] == ["name"]


def test_a_faithful_prose_answer_is_delivered(analytics):
    result = ground(Script(FAITHFUL), analytics, evidence=ANALYTICS["evidence"],
                    question=ANALYTICS["question"])
    assert result.decision.decision == "answer" and result.decision.text == FAITHFUL
    assert result.attempts[0].findings == ()


def test_prose_retry_fixes_a_number(analytics):
    script = Script("You had about 12k views this month.", FAITHFUL)
    result = ground(script, analytics, evidence=ANALYTICS["evidence"])
    assert result.decision.decision == "answer"
    assert "12k" in script.requests[1].feedback


def test_prose_without_a_ruleset_uses_the_builtin_rules():
    result = ground(Script(HISTORY_NUMBER, HISTORY_NUMBER), None, evidence=ANALYTICS["evidence"])
    assert result.decision.decision == "refuse"
    assert result.decision.message.startswith("I couldn't find that number.")


def test_concurrent_loops_share_nothing(shop):
    results: dict[int, Grounded] = {}

    def one(index: int) -> None:
        script = Script(OLD_PRICE, GOOD) if index % 2 else Script(OLD_PRICE, OLD_PRICE)
        results[index] = run_shop(shop, script, deadline=30)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for index, result in results.items():
        assert result.decision.decision == ("answer" if index % 2 else "fallback")


def test_request_and_results_are_frozen(shop):
    script = Script(GOOD)
    result = run_shop(shop, script)
    with pytest.raises(dataclasses.FrozenInstanceError):
        script.requests[0].feedback = "x"
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.attempts[0].reply = "x"


@pytest.mark.parametrize("inputs, said", [
    ({"postcode": 10115}, "must be a string"),
    ({"postcode": "10115", "zip": "x"}, "'zip'"),
    ({"zip": "1"}, "'zip'"),
])
def test_inputs_audit_would_refuse_are_refused_before_the_model_is_called(inputs, said):
    # The same verdict as audit and StreamGate on the same inputs: a typo in the app's key is
    # an input error, not an ask for the postcode nor an answer.
    from test_entity_rows import NOW as ORDERS_NOW, ORDERS, ROW

    script = Script("Your order ships soon.")
    result = ground(script, ORDERS, evidence={"order": [ROW]}, now=ORDERS_NOW, inputs=inputs)
    assert not script.requests
    assert result.decision.decision != "answer"
    assert [r.code for r in result.decision.reasons] == ["input_error"]
    assert said in result.decision.reasons[0].message


# --- the question reaches the checker -----------------------------------------------------------

SAID = ROOT / "tests/cases/claims/said.rules"
SAID_NOW = dt.datetime(2026, 12, 1, 21, 0, tzinfo=dt.timezone.utc)
SAID_ROWS = {"order": [{"id": "A1001", "status": "shipped", "estimated_delivery": "2026-12-07",
                        "total": 129900, "updated_at": "2026-12-01T20:55:00Z"}],
             "product": [{"sku": "TV-55", "name": "OLED TV", "price": 129900, "warranty_years": 2,
                          "ship_days": 5, "updated_at": "2026-12-01T20:55:00Z"}]}


def said_reply(template: str, *claims: tuple[str, str, str, str, str]) -> str:
    return json.dumps({"answer_template": template, "claims": [
        {"key": key, "type": kind, "entity": entity, "entity_id": ident, "field": field,
         "value": ident if field in ("id", "sku") else value}
        for key, kind, entity, ident, field, value in
        ((c[0], c[1], c[2], c[3], c[4], c[5] if len(c) > 5 else None) for c in claims)]})


def test_an_assent_to_a_false_figure_of_the_question_is_regenerated():
    """ground gives check the user's question: "Yes, it is." to "Is the OLED TV still $899?"
    agrees with a price the record does not hold, and the retry is told which figure."""
    policy = rulekit.load(SAID)
    name = ("name", "text", "product", "TV-55", "name", "OLED TV")
    price = ("price", "money", "product", "TV-55", "price", "$1,299.00")
    script = Script(said_reply("Yes, it is. The {name} is still at that price.", name),
                    said_reply("The {name} is {price} now.", name, price))
    result = ground(script, policy, source=SAID_ROWS, now=SAID_NOW,
                    question="Is the OLED TV still $899?")
    assert result.decision.decision == "answer"
    assert result.decision.text == "The OLED TV is $1,299.00 now."
    first = result.attempts[0].decision
    assert first.decision == "regenerate"
    assert "'Yes' agrees with '$899' in the question" in script.requests[1].feedback


@pytest.mark.parametrize("question, template", [
    ("Is the OLED TV still $899?", "Correct. The {name} price is unchanged."),
    ("When does my order arrive?", "Your order {order_id} should arrive on {eta}, so by Friday."),
    ("Is my order A1001 delivered?", "Yes, your order {order_id} is."),
    ("Status?", "Your order {order_id} has been delivered."),
])
def test_no_regenerate_decision_has_empty_feedback_items(question, template):
    """Every retry's feedback names at least one item, whatever failed: a failure of the
    template's own words (a weekday, a label, an assent) has no claim line to name it."""
    policy = rulekit.load(SAID)
    claims = [("name", "text", "product", "TV-55", "name", "OLED TV"),
              ("order_id", "identifier", "order", "A1001", "id"),
              ("eta", "date", "order", "A1001", "estimated_delivery", "2026-12-07")]
    used = [c for c in claims if "{" + c[0] + "}" in template]
    script = Script(said_reply(template, *used), said_reply(template, *used))
    result = ground(script, policy, source=SAID_ROWS, now=SAID_NOW, question=question)
    regenerated = [a.decision for a in result.attempts if a.decision.decision == "regenerate"]
    assert regenerated, [a.decision.reasons for a in result.attempts]
    for decision in regenerated:
        items = [line for line in decision.feedback.splitlines()[1:] if line.startswith("- ")]
        assert items and all(len(line) > 4 for line in items), decision.feedback


# --- stale rows are not shown to the model ----------------------------------------------------

def _shown_products(request: GenerateRequest) -> list[dict]:
    body = request.evidence_block.split("```json\n", 1)[1].rsplit("\n```", 1)[0]
    return json.loads(body)["products"]


@pytest.mark.skipif(not HAS_PROMPT, reason="rulekit.prompt is not installed")
def test_a_stale_rows_values_are_not_shown_to_the_model(shop):
    """The bottle's row is three hours old (shop.rules: `fresh within 15m`): its price and stock
    license nothing, and a model shown them states them, which shop.rules refuses with no
    retry (`on stale refuse`). It is shown by its name and code only; the fresh raincoat whole."""
    script = Script("The Navy raincoat is $1,299.00. I could not find the bottle's price.")
    result = ground(script, shop, evidence={"products": SHOP["rows"]["product"]}, now=NOW)
    assert _shown_products(script.requests[0]) == [
        {"name": "Navy raincoat", "price": "1299.00 USD", "sku": "RC-500", "stock": 0},
        {"name": "Bottle BT-3 500ml", "sku": "BT-3"}]
    assert result.decision.decision == "answer"


@pytest.mark.skipif(not HAS_PROMPT, reason="rulekit.prompt is not installed")
def test_fresh_rows_are_shown_whole(shop):
    fresh = [dict(row, updated_at="2026-11-30T12:04:00Z") for row in SHOP["rows"]["product"]]
    script = Script("The Bottle BT-3 500ml is $18.50.")
    result = ground(script, shop, evidence={"products": fresh}, now=NOW)
    assert _shown_products(script.requests[0])[1] == {
        "name": "Bottle BT-3 500ml", "price": "18.50 USD", "sku": "BT-3", "stock": 42}
    assert result.decision.decision == "answer"
