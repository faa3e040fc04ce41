"""The decision log (rulekit.log): what a line holds, what it never holds, and that logging never
changes a decision.

- a wrong number is logged as contradicted, with both values in their normal form;
- a field marked ``sensitive`` is masked everywhere in the line: values, normal forms, messages,
  the entity id when the key is sensitive;
- a callable target gets each line as a dict; a path target gets whole JSON lines, also from
  many threads at once;
- a log that fails (a callable that raises, a full disk, a folder that does not exist, a bug in
  building the line) leaves the decision exactly as an unlogged check makes it;
- ``audit`` and ``ground`` log too, and a line is bounded however large the reply.
"""

from __future__ import annotations

import concurrent.futures
import datetime as dt
import json
import os
import threading
import warnings
from pathlib import Path

import pytest
from scripted import price_reply

import rulekit
from rulekit import log as log_module
from rulekit.audit import audit
from rulekit.check import check
from rulekit.compile import compile_source
from rulekit.ground import ground
from rulekit.log import MASK, DecisionLog, template_info

ROOT = Path(__file__).resolve().parent.parent
ORDERS = rulekit.load(ROOT / "rulesets/orders.rules")
ORDER_ROWS = json.loads((ROOT / "rulesets/examples/orders.json").read_text("utf-8"))["rows"]
NOW = dt.datetime(2026, 11, 30, 12, 5, tzinfo=dt.timezone.utc)
INPUTS = {"postcode": "10115"}
STAMP = dt.datetime(2026, 12, 1, 9, 30, 15, 250000, tzinfo=dt.timezone.utc)

PEOPLE_SOURCE = '''ruleset people {
  version "1"
  locale en_GB
  currency EUR
  timezone "UTC"
}

entity customer {
  key id
  field id      identifier
  field phone   text sensitive
  field balance money minor sensitive
  field email   text hidden sensitive
  field tier    enum { gold, silver }
}

entity account {
  key iban
  field iban  identifier sensitive
  field owner text
}

prose free

on contradicted regenerate max 1 naming 8 with values then refuse "I could not verify the {fields}."
on otherwise refuse "I could not verify the {fields}."
'''
PEOPLE = compile_source(PEOPLE_SOURCE, "people.rules").policy
PEOPLE_ROWS = {
    "customer": [{"id": "c1", "phone": "+44 20 7946 0958", "balance": 123456,
                  "email": "ada@example.com", "tier": "gold"}],
    "account": [{"iban": "GB33BUKB20201555555555", "owner": "Ada"}],
}


def claim(key, type_, entity, entity_id, field, value) -> dict:
    return {"key": key, "type": type_, "entity": entity, "entity_id": entity_id,
            "field": field, "value": value}


def order_reply(total: str = "1.299,00 €") -> dict:
    return {"answer_template": "The order total was {total}.",
            "claims": [claim("total", "money", "order", "ord_88431", "total_minor", total)]}


def clock() -> dt.datetime:
    return STAMP


def logged_check(policy, reply, rows, **options) -> tuple[rulekit.Decision, dict]:
    lines: list[dict] = []
    decision = check(policy, reply, rows, now=NOW, log=DecisionLog(lines.append, clock=clock),
                     **options)
    assert len(lines) == 1
    json.dumps(lines[0], allow_nan=False)       # JSON-safe as it is
    return decision, lines[0]


# --- what a line holds ------------------------------------------------------------------------

def test_a_wrong_number_is_logged_as_contradicted_with_normalised_values():
    decision, line = logged_check(ORDERS, order_reply("1.300,00 €"), ORDER_ROWS, inputs=INPUTS)
    assert decision.decision == "regenerate"
    assert line["v"] == 1
    assert line["time"] == "2026-12-01T09:30:15.250Z"
    assert line["kind"] == "check"
    assert line["ruleset"] == ORDERS.ruleset == {"name": "orders", "version": "2026.11",
                                                 "hash": ORDERS.sources_sha256}
    assert (line["action"], line["next_action"], line["attempt"]) == ("regenerate",
                                                                      "regenerate", 1)
    assert line["reasons"] == ["contradicted"]
    (logged,) = line["claims"]
    assert logged["entity"] == "order" and logged["field"] == "total_minor"
    assert logged["outcome"] == "contradicted"
    assert logged["claimed"] == "1.300,00 €" and logged["actual"] == 129900
    assert logged["claimed_normal"] == {"minor_units": 130000, "currency": "EUR"}
    assert logged["actual_normal"] == {"minor_units": 129900, "currency": "EUR"}
    assert [f["code"] for f in line["findings"]] == ["contradicted"]
    assert "130000 minor units" in line["findings"][0]["message"]
    assert line["sources"] == [dict(s) for s in decision.sources]
    assert line["masked"] == [] and line["truncated"] == {}


def test_a_line_has_the_template_and_the_time_of_each_stage():
    _, line = logged_check(ORDERS, order_reply(), ORDER_ROWS, inputs=INPUTS)
    assert line["action"] == "answer"
    template = line["template"]
    assert template["text"] == "The order total was {total}."
    assert (template["slots"], template["prose_words"]) == (1, 4)
    assert template["prose_per_slot"] == 4.0
    assert set(line["stage_ms"]) == {"parse", "lookup", "judge", "decide", "total"}
    assert all(ms >= 0 for ms in line["stage_ms"].values())
    parts = sum(ms for name, ms in line["stage_ms"].items() if name != "total")
    assert parts == pytest.approx(line["stage_ms"]["total"], abs=0.01)


def test_nothing_meant_for_people_is_logged():
    """The customer's text, a refusal and the model's feedback hold values; a monitor needs
    counts. None of them is in the line."""
    decision, line = logged_check(ORDERS, order_reply("1.300,00 €"), ORDER_ROWS, inputs=INPUTS)
    assert decision.feedback
    for key in ("text", "message", "feedback", "facts", "citations"):
        assert key not in line


def test_template_info_counts_prose_outside_slots():
    info = template_info("{a}{b}")
    assert (info["slots"], info["prose_words"], info["prose_per_slot"]) == (2, 0, 0.0)
    info = template_info("No slot at all, just words.")
    assert (info["slots"], info["prose_per_slot"]) == (0, 6.0)   # counts as one slot
    assert template_info("Order {x} shipped.")["id"] == template_info("Order {y} shipped.")["id"]
    assert template_info("注文{x}は発送済み")["prose_words"] == 7   # a CJK character is a word


# --- sensitive fields --------------------------------------------------------------------------

SECRETS = ("7946", "0958", "+44 20 7946 0958", "+44 20 7946 0000", "123456", "1,234.56",
           "654321", "ada@example.com", "GB33BUKB20201555555555")


def test_a_sensitive_field_is_masked_everywhere_in_the_line():
    reply = {"answer_template": "Call {phone}. Balance {balance}. Mail {mail}. Owner {owner}.",
             "claims": [
                 claim("phone", "text", "customer", "c1", "phone", "+44 20 7946 0000"),
                 claim("balance", "money", "customer", "c1", "balance", "€6,543.21"),
                 claim("mail", "text", "customer", "c1", "email", "ada@example.com"),
                 claim("owner", "text", "account", "GB33BUKB20201555555555", "owner", "Ada")]}
    decision, line = logged_check(PEOPLE, reply, PEOPLE_ROWS)
    # The decision itself keeps every value; only the log masks.
    assert decision.claims[0].actual == "+44 20 7946 0958"
    text = json.dumps(line, ensure_ascii=False)
    for secret in SECRETS:
        assert secret not in text, secret
    claims = {c["key"]: c for c in line["claims"]}
    for key in ("phone", "balance"):
        assert claims[key]["outcome"] == "contradicted"
        assert {claims[key][k] for k in ("claimed", "actual", "claimed_normal",
                                         "actual_normal")} == {MASK}
    assert claims["mail"]["outcome"] == "not_checkable" and claims["mail"]["claimed"] == MASK
    assert claims["mail"]["actual"] is None             # never looked up: nothing to mask
    assert claims["owner"]["entity_id"] == MASK         # the key of account is sensitive
    assert claims["owner"]["claimed"] == "Ada"          # its other fields are not
    assert line["masked"] == ["account.iban", "customer.balance", "customer.email",
                              "customer.phone"]
    messages = {f["path"]: f["message"] for f in line["findings"]}
    assert messages["$.claims[0]"] == f"phone (customer.phone): contradicted: {MASK}"


def test_a_sensitive_value_quoted_in_the_prose_is_scrubbed_from_the_findings():
    reply = {"answer_template": "Your number 20 7946 0958 is {phone}.",
             "claims": [claim("phone", "text", "customer", "c1", "phone", "+44 20 7946 0958")]}
    _, line = logged_check(PEOPLE, reply, PEOPLE_ROWS)
    text = json.dumps(line, ensure_ascii=False)
    assert "7946 0958" not in text


def test_the_hidden_sensitive_email_of_the_orders_ruleset_is_masked():
    reply = {"answer_template": "Your e-mail is {mail}.",
             "claims": [claim("mail", "text", "customer", "cus_17", "email", "ada@example.com")]}
    _, line = logged_check(ORDERS, reply, ORDER_ROWS, inputs=INPUTS)
    assert "ada@example.com" not in json.dumps(line)
    assert line["masked"] == ["customer.email"]


# --- targets -----------------------------------------------------------------------------------

def test_a_callable_target_gets_each_line_as_a_dict():
    lines: list = []
    log = DecisionLog(lines.append)
    for total in ("1.299,00 €", "1.300,00 €"):
        check(ORDERS, order_reply(total), ORDER_ROWS, now=NOW, inputs=INPUTS, log=log)
    check(ORDERS, order_reply(), ORDER_ROWS, now=NOW, inputs=INPUTS, log=lines.append)
    assert [line["action"] for line in lines] == ["answer", "regenerate", "answer"]
    assert all(isinstance(line, dict) for line in lines)
    assert (log.written, log.errors) == (2, 0)


def test_a_path_target_appends_whole_lines(tmp_path):
    path = tmp_path / "decisions.jsonl"
    check(ORDERS, order_reply(), ORDER_ROWS, now=NOW, inputs=INPUTS, log=str(path))
    check(ORDERS, order_reply("1.300,00 €"), ORDER_ROWS, now=NOW, inputs=INPUTS, log=path)
    with DecisionLog(path) as log:
        check(ORDERS, "not json", ORDER_ROWS, now=NOW, log=log)
    lines = path.read_text("utf-8").splitlines()
    assert [json.loads(line)["action"] for line in lines] == ["answer", "regenerate",
                                                                "regenerate"]
    assert json.loads(lines[2])["reasons"] == ["malformed_reply"]
    assert json.loads(lines[2])["template"] is None


def test_a_path_target_under_threads_has_no_torn_lines(tmp_path):
    """8 threads share one DecisionLog, and 4 more pass the path itself on every call (a file
    opened per check, in append mode): every line is whole JSON, none is lost."""
    path = tmp_path / "decisions.jsonl"
    log = DecisionLog(path)
    # A long template makes each line several kilobytes, past any single-buffer luck.
    filler = " ".join(["word"] * 400)
    reply = {"answer_template": filler + " {total}.",
             "claims": order_reply()["claims"]}
    barrier = threading.Barrier(12)

    def work(index: int) -> int:
        target = log if index < 8 else str(path)
        barrier.wait()
        for _ in range(60):
            check(ORDERS, reply, ORDER_ROWS, now=NOW, inputs=INPUTS, log=target)
        return index

    with concurrent.futures.ThreadPoolExecutor(12) as pool:
        list(pool.map(work, range(12)))
    log.close()
    raw = path.read_bytes()
    assert raw.endswith(b"\n")
    lines = raw.decode("utf-8").split("\n")[:-1]
    assert len(lines) == 12 * 60
    parsed = [json.loads(line) for line in lines]
    assert {line["template"]["slots"] for line in parsed} == {1}
    assert (log.written, log.errors) == (8 * 60, 0)


def test_a_log_that_cannot_be_opened_fails_at_start_up_where_it_is_configured(tmp_path):
    with pytest.raises(OSError):
        DecisionLog(tmp_path / "no such folder" / "decisions.jsonl")
    with pytest.raises(TypeError, match="a path or a callable"):
        DecisionLog(42)


# --- a failing log never changes a decision ------------------------------------------------------

REPLIES = [order_reply(), order_reply("1.300,00 €"), "not json",
           {"answer_template": "{x}", "claims": [claim("x", "text", "customer", "cus_17",
                                                       "email", "a@b.example")]}]


def unlogged(reply) -> dict:
    return check(ORDERS, reply, ORDER_ROWS, now=NOW, inputs=INPUTS).to_dict()


@pytest.mark.parametrize("reply", REPLIES)
def test_a_callable_that_raises_does_not_change_the_decision(reply):
    seen: list = []

    def broken(line):
        raise RuntimeError("the log collector is down")

    log = DecisionLog(broken, on_error=seen.append)
    decision = check(ORDERS, reply, ORDER_ROWS, now=NOW, inputs=INPUTS, log=log)
    assert decision.to_dict() == unlogged(reply)
    assert (log.written, log.errors) == (0, 1)
    assert log.last_error == "RuntimeError: the log collector is down"
    assert isinstance(seen[0], RuntimeError)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_does_not_change_the_decision_and_is_counted(caplog):
    log = DecisionLog("/dev/full")
    with caplog.at_level("WARNING", logger="rulekit.log"):
        for reply in REPLIES:
            assert check(ORDERS, reply, ORDER_ROWS, now=NOW, inputs=INPUTS,
                         log=log).to_dict() == unlogged(reply)
    assert (log.written, log.errors) == (0, len(REPLIES))
    assert "No space left" in log.last_error
    # Reported once when the log starts failing, not once per decision.
    assert len([r for r in caplog.records if r.name == "rulekit.log"]) == 1


def test_a_path_that_cannot_be_opened_per_call_warns_and_decides_the_same(tmp_path):
    target = str(tmp_path / "missing" / "decisions.jsonl")
    with pytest.warns(RuntimeWarning, match="was not logged"):
        decision = check(ORDERS, order_reply(), ORDER_ROWS, now=NOW, inputs=INPUTS, log=target)
    assert decision.to_dict() == unlogged(order_reply())
    with warnings.catch_warnings():
        warnings.simplefilter("error")      # not even warnings-as-errors reaches the caller
        decision = check(ORDERS, order_reply(), ORDER_ROWS, now=NOW, inputs=INPUTS, log=target)
    assert decision.to_dict() == unlogged(order_reply())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert check(ORDERS, order_reply(), ORDER_ROWS, now=NOW, inputs=INPUTS,
                     log=object()).decision == "answer"


def test_a_bug_in_building_the_line_does_not_change_the_decision(monkeypatch):
    def broken(*args, **kwargs):
        raise KeyError("a bug")

    monkeypatch.setattr(log_module, "build_line", broken)
    log = DecisionLog(lambda line: None)
    decision = check(ORDERS, order_reply("1.300,00 €"), ORDER_ROWS, now=NOW, inputs=INPUTS,
                     log=log)
    assert decision.to_dict() == unlogged(order_reply("1.300,00 €"))
    assert log.errors == 1


def test_a_log_recovers_after_a_failure(tmp_path):
    path = tmp_path / "decisions.jsonl"
    log = DecisionLog(path)
    calls = {"n": 0}
    real_emit = log._sink.emit

    def flaky(line):
        calls["n"] += 1
        if calls["n"] == 1:
            raise OSError(28, "No space left on device")
        real_emit(line)

    log._sink.emit = flaky
    check(ORDERS, order_reply(), ORDER_ROWS, now=NOW, inputs=INPUTS, log=log)
    check(ORDERS, order_reply(), ORDER_ROWS, now=NOW, inputs=INPUTS, log=log)
    assert (log.written, log.errors) == (1, 1)
    assert len(path.read_text("utf-8").splitlines()) == 1


# --- bounded lines -------------------------------------------------------------------------------

def test_a_huge_reply_makes_a_bounded_line():
    count = 60
    reply = {"answer_template": " ".join(f"{{k{i}}}" for i in range(count)),
             "claims": [claim(f"k{i}", "text", "order", "ord_88431", "status", "x" * 5000)
                        for i in range(count)]}
    _, line = logged_check(ORDERS, reply, ORDER_ROWS, inputs=INPUTS)
    assert len(line["claims"]) == log_module.MAX_CLAIMS
    assert len(line["findings"]) == log_module.MAX_FINDINGS
    assert line["truncated"]["claims"] == count - log_module.MAX_CLAIMS
    assert line["truncated"]["findings"] > 0
    assert all(len(c["claimed"]) < 300 for c in line["claims"])
    assert len(json.dumps(line)) < 60_000


# --- audit and ground ----------------------------------------------------------------------------

def test_audit_logs_its_findings():
    lines: list = []
    result = audit("Revenue was 3,100 last week.", {"revenue": 2900},
                   log=DecisionLog(lines.append))
    (line,) = lines
    assert line["kind"] == "audit" and line["action"] == result.decision.decision
    assert [f["text"] for f in line["findings"]] == ["3,100"]
    assert line["claims"] == [] and line["template"] is None
    assert {"index", "sweep", "decide", "total"} <= set(line["stage_ms"])


def test_ground_logs_each_judged_reply(tmp_path):
    shop = rulekit.load(ROOT / "rulesets/shop.rules")
    data = json.loads((ROOT / "rulesets/examples/shop.json").read_text("utf-8"))
    now = dt.datetime.fromisoformat(data["now"].replace("Z", "+00:00"))
    replies = iter([price_reply("$1,199.00"), price_reply("$1,299.00")])
    path = tmp_path / "decisions.jsonl"
    result = ground(lambda request: next(replies), shop, source=data["rows"], now=now,
                    log=str(path))
    assert result.decision.decision == "answer"
    lines = [json.loads(line) for line in path.read_text("utf-8").splitlines()]
    assert [(line["attempt"], line["action"]) for line in lines] == [(1, "regenerate"),
                                                                     (2, "answer")]
    prices = [c for line in lines for c in line["claims"] if c["field"] == "price"]
    assert [c["outcome"] for c in prices] == ["contradicted", "confirmed"]


def test_ground_logs_a_decision_made_without_a_reply():
    shop = rulekit.load(ROOT / "rulesets/shop.rules")
    data = json.loads((ROOT / "rulesets/examples/shop.json").read_text("utf-8"))
    lines: list = []

    def down(request):
        raise ConnectionError("the model is down")

    result = ground(down, shop, source=data["rows"], log=lines.append)
    assert [line["kind"] for line in lines] == ["ground"]
    assert lines[0]["action"] == result.decision.decision


def test_ground_marks_a_reply_judged_again_after_a_budget_ran_out():
    from rulekit.ground import Generation
    from rulekit.stats import compute

    shop = rulekit.load(ROOT / "rulesets/shop.rules")
    data = json.loads((ROOT / "rulesets/examples/shop.json").read_text("utf-8"))
    now = dt.datetime.fromisoformat(data["now"].replace("Z", "+00:00"))
    replies = iter([Generation(price_reply("$1,199.00"), tokens=600)])
    lines: list = []
    result = ground(lambda request: next(replies), shop, source=data["rows"], now=now,
                    max_tokens=1000, log=lines.append)
    assert result.stopped == "token_budget_exhausted"
    assert [(line["action"], line.get("rejudged"), line.get("stopped")) for line in lines] == [
        ("regenerate", None, None), (result.decision.decision, True, "token_budget_exhausted")]
    report = compute([json.dumps(line) for line in lines]).to_dict()
    assert report["fields"]["product.price"]["claims"] == 1     # counted once
    assert report["actions"] == {"regenerate": 1, result.decision.decision: 1}


# --- sensitive values the reply never claimed --------------------------------------------------

PEOPLE_SECRETS = ("+44 20 7946 0958", "7946", "0958", "ada@example.com", "123456", "1,234.56",
                  "GB33BUKB20201555555555")


def test_an_audit_never_logs_a_sensitive_value_of_the_evidence():
    """The masker was built from the claims only, and an audit has none: a hidden sensitive
    phone quoted in the answer was logged in the findings' text and messages."""
    lines: list = []
    evidence = {"customer": PEOPLE_ROWS["customer"], "account": PEOPLE_ROWS["account"]}
    result = audit("Ada, we will call you on +44 20 7946 0958 or write to ada@example.com. "
                   "Your balance is €1,234.56 on GB33BUKB20201555555555.", evidence,
                   policy=PEOPLE, log=DecisionLog(lines.append))
    assert result.decision.decision != "answer"
    (line,) = lines
    text = json.dumps(line, ensure_ascii=False)
    for secret in PEOPLE_SECRETS:
        assert secret not in text, secret
    assert line["findings"] and all(f["text"] == MASK or MASK in f["text"]
                                    for f in line["findings"] if f["text"] not in ("+44", "20"))
    assert "customer.email" in line["masked"]


def test_a_check_never_logs_a_sensitive_value_of_the_rows_written_in_the_prose():
    reply = {"answer_template": "We will call +44 20 7946 0958 and mail ada@example.com about "
                                "your {tier} balance of 123456.",
             "claims": [claim("tier", "enum", "customer", "c1", "tier", "gold")]}
    decision, line = logged_check(PEOPLE, reply, PEOPLE_ROWS)
    assert any(r.code == "stray_figure" for r in decision.reasons)
    text = json.dumps(line, ensure_ascii=False)
    for secret in PEOPLE_SECRETS:
        assert secret not in text, secret
    assert "customer.phone" in line["masked"]


class _Remote:
    """A source whose rows the log cannot see, as a database's."""

    def __init__(self, rows):
        from rulekit.sources import MemoryResolver

        self._inner = MemoryResolver(rows)

    def fetch(self, request):
        return self._inner.fetch(request)


def test_a_check_against_a_source_the_log_cannot_read_masks_the_figures_of_the_prose():
    """A hidden field is never read from a database, so the log cannot know its values: any
    figure the prose quotes might be one, and is masked (fail closed)."""
    reply = {"answer_template": "We will call +44 20 7946 0958 about your {tier} tier.",
             "claims": [claim("tier", "enum", "customer", "c1", "tier", "gold")]}
    decision, line = logged_check(PEOPLE, reply, _Remote(PEOPLE_ROWS))
    assert decision.decision != "answer"
    text = json.dumps(line, ensure_ascii=False)
    assert "7946" not in text and "0958" not in text
    strays = [f for f in line["findings"] if f["code"] == "stray_figure"]
    assert strays and all(f["message"].startswith(f"'{MASK}' written outside the slots")
                          for f in strays)
    assert line["masked"] == ["account.iban", "customer.balance", "customer.email",
                              "customer.phone"]


def test_without_sensitive_fields_the_prose_figures_are_logged_as_written():
    reply = {"answer_template": "Your order {oid} has 12 boxes.",
             "claims": [claim("oid", "identifier", "order", "ord_88431", "id", "ord_88431")]}
    policy = compile_source(ORDERS_WITHOUT_SENSITIVE, "o.rules").policy
    _, line = logged_check(policy, reply, _Remote(ORDER_ROWS), inputs=INPUTS)
    assert any("'12' written outside the slots" in f["message"] for f in line["findings"])


ORDERS_WITHOUT_SENSITIVE = (ROOT / "rulesets/orders.rules").read_text("utf-8").replace(
    " sensitive", "").replace('import "shared/glossary.rules"', "").replace(
    "enum order_status", "enum { shipped, delivered, processing, cancelled }")


def test_a_hidden_field_that_is_not_sensitive_is_logged_as_claimed():
    """`hidden` keeps a value from the customer; `sensitive` keeps it out of the log. A field
    private enough for both is declared `hidden sensitive` (docs/authoring.md)."""
    reply = {"answer_template": "It was updated {at}.",
             "claims": [claim("at", "timestamp", "order", "ord_88431", "updated_at",
                              "2026-11-30T10:00:00Z")]}
    _, line = logged_check(ORDERS, reply, ORDER_ROWS, inputs=INPUTS)
    (logged,) = line["claims"]
    assert (logged["outcome"], logged["claimed"], logged["actual"]) == (
        "not_checkable", "2026-11-30T10:00:00Z", None)
    # the delivery postcode is `hidden sensitive` in orders.rules: masked
    reply = {"answer_template": "Your postcode is {pc}.",
             "claims": [claim("pc", "text", "order", "ord_88431", "delivery_postcode", "99999")]}
    _, line = logged_check(ORDERS, reply, ORDER_ROWS, inputs=INPUTS)
    (logged,) = line["claims"]
    assert (logged["outcome"], logged["claimed"]) == ("not_checkable", "***")


def test_the_model_is_never_told_a_hidden_value():
    """A hidden field is never looked up, so its stored value cannot reach the decision or the
    feedback, not even under `with values`; the audit's feedback names only what the model
    wrote."""
    reply = {"answer_template": "Mail {mail}, balance {balance}.",
             "claims": [claim("mail", "text", "customer", "c1", "email", "bob@example.com"),
                        claim("balance", "money", "customer", "c1", "balance", "€1.00")]}
    decision = check(PEOPLE, reply, PEOPLE_ROWS, now=NOW)
    assert "ada@example.com" not in json.dumps(decision.to_dict(), default=str)
    reply["claims"].pop(0)
    reply["answer_template"] = "Balance {balance}."
    decision = check(PEOPLE, reply, PEOPLE_ROWS, now=NOW)
    assert decision.decision == "regenerate" and "ada@example.com" not in decision.feedback
    answer = "Your e-mail is bob@example.com."
    result = audit(answer, {"customer": PEOPLE_ROWS["customer"]}, policy=PEOPLE)
    assert "ada@example.com" not in (result.decision.feedback or "")
    assert "ada@example.com" not in json.dumps(result.decision.to_dict())


def _logged_with_hidden_phone(answer: str) -> dict:
    """The log line of auditing ``answer`` with the customer's phone hidden and sensitive."""
    policy = compile_source(PEOPLE_SOURCE.replace("field phone   text sensitive",
                                                  "field phone   text hidden sensitive"),
                            "people.rules").policy
    lines: list = []
    audit(answer, {"customer": PEOPLE_ROWS["customer"]}, policy=policy,
          log=DecisionLog(lines.append))
    (line,) = lines
    return line


def test_a_hidden_sensitive_phone_number_found_by_the_sweep_is_masked_whole():
    """The sweep reads "+44 20 7946 0958" as one phone number, which appears only in the hidden
    sensitive phone: its finding says so, and the number is masked in the text and the message,
    with the field named in `masked`."""
    line = _logged_with_hidden_phone("We will call you on +44 20 7946 0958.")
    (hidden,) = line["findings"]
    assert hidden["code"] == "hidden_field" and hidden["text"] == MASK
    assert hidden["message"].startswith(
        f"the phone number {MASK} appears in the evidence only as customer.phone")
    assert "7946" not in json.dumps(line)
    assert line["masked"] == ["customer.phone"]


def test_every_piece_of_a_hidden_sensitive_value_found_by_the_sweep_is_masked():
    """Spaced groups with no "+" or brackets are figures, each found alone; each appears only
    in the hidden sensitive phone, so even "44" and "20" are masked."""
    line = _logged_with_hidden_phone("We will call you on 44 20 7946 0958.")
    hidden = [f for f in line["findings"] if f["code"] == "hidden_field"]
    assert len(hidden) == 4 and {f["text"] for f in hidden} == {MASK}
    assert all(f["message"].startswith(f"{MASK} appears in the evidence only as customer.phone")
               for f in hidden)
    assert line["masked"] == ["customer.phone"]
