"""Caps on what one answer may cost: rows per routed source, and the size of the evidence that
``audit``, ``ground`` and each ``--jsonl`` line index. Over a cap is never a slow answer nor a
silent truncation: the source fails closed (its rows missing, ``Gathered.failed``), and
evidence over the cap is refused as an ``input_error`` naming the cap; a batch goes on."""

from __future__ import annotations

import json

import pytest
from test_sql_sources import NOW, RULES, Store

import rulekit
from rulekit import evidence as evidence_module
from rulekit.audit import audit
from rulekit.cli import main
from rulekit.route import DEFAULT_MAX_ROWS, gather


@pytest.fixture
def crowded(tmp_path):
    store = Store("sqlite", tmp_path)
    for n in range(DEFAULT_MAX_ROWS + 5):
        store.execute("INSERT INTO products VALUES (?, 'alice', 'thing', 100, 1)",
                      (f"X-{n:05d}",))
    yield store
    store.close()


def test_a_routed_source_over_its_row_cap_fails_closed_naming_both(crowded):
    policy = rulekit.load(RULES)
    gathered = gather(policy, "anything", crowded.resolver(), tenant="alice", now=NOW)
    (failed,) = gathered.failed
    assert failed.name == "catalogue" and "catalogue" not in gathered.evidence
    assert f"more than {DEFAULT_MAX_ROWS:,} rows" in failed.error
    assert "max_rows" in failed.error


@pytest.mark.parametrize("cap, fails", [(5000, False), ({"catalogue": 5000}, False),
                                        ({"catalogue": 10}, True), ({"other": 5000}, True)])
def test_the_row_cap_is_set_in_gather(crowded, cap, fails):
    policy = rulekit.load(RULES)
    gathered = gather(policy, "anything", crowded.resolver(), tenant="alice", now=NOW,
                      max_rows=cap)
    assert bool(gathered.failed) is fails
    if not fails:
        assert len(gathered.evidence["catalogue"]) == DEFAULT_MAX_ROWS + 5 + 2  # alice's two


def _posts(count: int) -> dict:
    return {"posts": [{"id": f"p{n}", "views": n} for n in range(count)]}


def test_evidence_over_the_value_cap_is_refused_naming_the_cap():
    cap = evidence_module.MAX_VALUES
    result = audit("Your post got 4 views.", _posts(cap // 2))
    assert result.decision.decision == "refuse"
    (finding,) = result.findings
    assert finding.code == "input_error"
    assert f"{cap:,} values" in finding.message and "MAX_VALUES" in finding.message
    assert audit("Your post got 4 views.", _posts(10)).decision.decision == "answer"


def test_a_text_document_over_the_character_cap_is_refused():
    cap = evidence_module.MAX_CHARS
    result = audit("It had 4 views.", "4 views. " * (cap // 9 + 10))
    assert result.decision.decision == "refuse"
    assert f"{cap:,} characters" in result.findings[0].message


def test_the_cap_is_a_module_setting(monkeypatch):
    monkeypatch.setattr(evidence_module, "MAX_VALUES", 10)
    assert audit("Your post got 4 views.", _posts(10)).decision.decision == "refuse"
    monkeypatch.setattr(evidence_module, "MAX_VALUES", 10**6)
    assert audit("Your post got 4 views.", _posts(10)).decision.decision == "answer"


def test_a_jsonl_line_over_the_cap_is_refused_and_the_batch_goes_on(tmp_path, capsys,
                                                                     monkeypatch):
    monkeypatch.setattr(evidence_module, "MAX_VALUES", 100)
    batch = tmp_path / "cases.jsonl"
    lines = [{"id": "small", "evidence": _posts(5), "text": "Your post got 4 views."},
             {"id": "huge", "evidence": _posts(200), "text": "Your post got 4 views."},
             {"id": "after", "evidence": _posts(5), "text": "Your post got 4 views."}]
    batch.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    assert main(["audit", "--jsonl", str(batch)]) == 0
    results = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["id"], r["decision"]) for r in results] == [
        ("small", "answer"), ("huge", "refuse"), ("after", "answer")]
    message = results[1]["issues"][0]["message"]
    assert message.startswith("line 2: ") and "100 values" in message


def test_ground_refuses_evidence_over_the_cap_without_asking_the_model(monkeypatch):
    monkeypatch.setattr(evidence_module, "MAX_VALUES", 100)
    asked = []

    def generate(request):
        asked.append(request)
        return "Your post got 4 views."

    grounded = rulekit.ground(generate, None, evidence=_posts(200), question="views?")
    assert grounded.decision.decision == "refuse"
    assert any("100 values" in r.message for r in grounded.decision.reasons)
    assert asked == []


def test_a_jsonl_line_over_the_byte_cap_is_refused_unread_and_the_batch_goes_on(tmp_path,
                                                                                 capsys):
    batch = tmp_path / "cases.jsonl"
    small = json.dumps({"id": "a", "evidence": {"views": 4}, "text": "It had 4 views."})
    huge = json.dumps({"id": "huge", "evidence": {"pad": "x" * 5000}, "text": "x"})
    batch.write_bytes(("\n".join([small, huge, small, huge]) + "\n").encode())
    assert main(["audit", "--jsonl", str(batch), "--max-line-mib", "0.001"]) == 0  # 1,048 B
    results = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["id"], r["line"], r["decision"]) for r in results] == [
        ("a", 1, "answer"), (None, 2, "refuse"), ("a", 3, "answer"), (None, 4, "refuse")]
    message = results[1]["issues"][0]["message"]
    assert message.startswith("line 2: ") and "0.001 MiB" in message
    assert "--max-line-mib" in message
    assert main(["audit", "--jsonl", str(batch)]) == 0     # the default, 8 MiB, holds it
    assert [json.loads(line)["id"] for line in capsys.readouterr().out.splitlines()] \
        == ["a", "huge", "a", "huge"]


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "x"])
def test_a_bad_line_cap_is_a_usage_error(tmp_path, capsys, value):
    with pytest.raises(SystemExit) as exited:
        main(["audit", "--jsonl", "-", "--max-line-mib", value])
    assert exited.value.code == 2
    assert "--max-line-mib" in capsys.readouterr().err
