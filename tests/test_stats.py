"""`rulekit stats` (rulekit.stats) on generated logs: the numbers, the flags, the pages, the exit
codes.

- outcome rates and action counts per entity.field are exact;
- a field whose contradiction rate rose between the last two windows by more than the threshold
  is flagged, one that rose by less is not, and one with too few claims is not judged;
- the prose per slot of templates, per template and per window, with its own flag;
- bad lines are counted and reported with their line numbers, and never stop the report;
- the HTML page is well-formed XML with one chart per field and no script;
- exit codes: 0 (bad lines included), 2 for a usage error or a log that cannot be read.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

import rulekit
from rulekit.check import check
from rulekit.cli import main
from rulekit.log import DecisionLog
from rulekit.stats import compute, parse_threshold, parse_window, render_html, render_text

ROOT = Path(__file__).resolve().parent.parent
DAY0 = dt.datetime(2026, 11, 1, tzinfo=dt.timezone.utc)
SVG = "{http://www.w3.org/2000/svg}svg"


def line(when: dt.datetime, action: str, claims=(), template: str | None = None,
         **extra) -> str:
    """One log line as DecisionLog writes it, with only what stats reads filled in."""
    entry = {"v": 1, "time": when.isoformat().replace("+00:00", "Z"), "kind": "check",
             "ruleset": {"name": "t", "version": "1", "hash": "h"}, "action": action,
             "next_action": None, "attempt": 1, "reasons": [],
             "claims": [{"key": f"k{i}", "entity": entity, "entity_id": "1", "field": field,
                         "outcome": outcome} for i, (entity, field, outcome) in enumerate(claims)],
             "findings": [], "sources": [], "template": None, "stage_ms": {}, "masked": [],
             "truncated": {}, **extra}
    if template is not None:
        from rulekit.log import template_info
        entry["template"] = template_info(template)
    return json.dumps(entry)


def day(n: int, minute: int = 0) -> dt.datetime:
    return DAY0 + dt.timedelta(days=n, minutes=minute)


def generated() -> list[str]:
    """Two days. order.total: 20 claims a day, 1 contradicted on day 0 (5%), 5 on day 1 (25%).
    order.eta: 20 a day, 2 then 3 contradicted (10% -> 15%). customer.tier: 3 claims on day 1
    only, all contradicted: too few to judge."""
    lines = []
    for d, (total_bad, eta_bad) in enumerate([(1, 2), (5, 3)]):
        for i in range(20):
            total = "contradicted" if i < total_bad else "confirmed"
            eta = "contradicted" if i < eta_bad else ("stale" if i == 19 else "confirmed")
            action = "regenerate" if "contradicted" in (total, eta) else "answer"
            lines.append(line(day(d, i), action,
                              [("order", "total", total), ("order", "eta", eta)],
                              template="Your order total is {total} and it arrives on {eta}."))
    for i in range(3):
        lines.append(line(day(1, 30 + i), "refuse", [("customer", "tier", "contradicted")]))
    return lines


# --- the numbers -------------------------------------------------------------------------------

def test_rates_and_action_counts_per_field():
    report = compute(generated()).to_dict()
    assert report["decisions"] == 43 and report["claims"] == 83
    total = report["fields"]["order.total"]
    assert total["claims"] == 40
    assert total["counts"]["contradicted"] == 6 and total["counts"]["confirmed"] == 34
    assert total["rates"]["contradicted"] == pytest.approx(6 / 40)
    assert total["rates"]["confirmed"] == pytest.approx(34 / 40)
    eta = report["fields"]["order.eta"]
    assert eta["rates"]["stale"] == pytest.approx(2 / 40)
    assert eta["rates"]["not_found"] == 0
    # Lines with a contradicted total or eta regenerate: max(1,2) on day 0, max(5,3) on day 1.
    assert total["actions"] == {"answer": 33, "regenerate": 7}
    assert report["fields"]["customer.tier"]["actions"] == {"refuse": 3}
    assert report["actions"] == {"answer": 33, "regenerate": 7, "refuse": 3}


def test_a_rise_over_the_threshold_is_flagged_and_one_under_it_is_not():
    report = compute(generated(), threshold=0.05).to_dict()
    total, eta = report["fields"]["order.total"], report["fields"]["order.eta"]
    assert total["previous"]["contradiction_rate"] == pytest.approx(0.05)
    assert total["latest"]["contradiction_rate"] == pytest.approx(0.25)
    assert total["rise"] == pytest.approx(0.20) and total["flagged"]
    assert eta["rise"] == pytest.approx(0.05) and not eta["flagged"]   # not *more* than 5 points
    assert report["fields"]["customer.tier"]["status"] == "too_few_claims"
    assert report["flagged"] == ["order.total"]
    assert compute(generated(), threshold=0.04).to_dict()["flagged"] == ["order.eta",
                                                                         "order.total"]
    assert compute(generated(), threshold=0.25).to_dict()["flagged"] == []
    assert compute(generated(), min_claims=3).to_dict()["fields"]["customer.tier"][
        "status"] == "too_few_claims"       # day 0 had none


def test_windows_of_a_number_of_decisions():
    # Windows of 20 decisions: day 0's 20 lines, then day 1's 20, then the 3 refusals.
    report = compute(generated(), window="20", min_claims=3).to_dict()
    total = report["fields"]["order.total"]
    assert [w["claims"] for w in total["windows"]] == [20, 20, 0]
    assert total["status"] == "too_few_claims"      # the latest window has no total claim
    report = compute(generated()[:40], window="20").to_dict()
    assert report["fields"]["order.total"]["flagged"]


def test_a_gap_leaves_an_empty_window_and_nothing_is_compared_across_it():
    lines = [line(day(0, i), "answer", [("order", "total", "confirmed")]) for i in range(20)]
    lines += [line(day(2, i), "regenerate", [("order", "total", "contradicted")])
              for i in range(20)]
    report = compute(lines).to_dict()
    total = report["fields"]["order.total"]
    assert [w["contradiction_rate"] for w in total["windows"]] == [0.0, None, 1.0]
    assert total["status"] == "too_few_claims"


def test_a_rejudged_reply_counts_its_action_but_not_its_claims_again():
    lines = [line(day(0), "regenerate", [("order", "total", "contradicted")]),
             line(day(0, 1), "fallback", [("order", "total", "contradicted")], rejudged=True,
                  stopped="deadline_exceeded")]
    report = compute(lines).to_dict()
    assert report["fields"]["order.total"]["claims"] == 1
    assert report["actions"] == {"regenerate": 1, "fallback": 1}
    assert report["rejudged"] == 1


def test_prose_per_slot_per_template_and_its_rise():
    short = "Total {t}."                                          # 1 word per slot
    chatty = "Well, as you may know, the total for this order is {t}."  # 11 words, 1 slot
    lines = [line(day(0, i), "answer", [("order", "total", "confirmed")], template=short)
             for i in range(20)]
    lines += [line(day(1, i), "answer", [("order", "total", "confirmed")],
                   template=chatty if i < 10 else short) for i in range(20)]
    prose = compute(lines).to_dict()["prose_per_slot"]
    assert prose["previous"]["mean_prose_per_slot"] == 1.0
    assert prose["latest"]["mean_prose_per_slot"] == 6.0
    assert prose["flagged"]
    top = {t["text"]: t for t in prose["top"]}
    assert top[short]["uses"] == 30 and top[short]["mean_prose_per_slot"] == 1.0
    assert top[chatty]["mean_prose_per_slot"] == 11.0
    steady = compute(lines[:20] + [line(day(1, i), "answer", [], template=short)
                                   for i in range(20)]).to_dict()["prose_per_slot"]
    assert not steady["flagged"] and steady["status"] == "ok"


def test_a_log_written_by_check_reads_back():
    policy = rulekit.load(ROOT / "rulesets/orders.rules")
    rows = json.loads((ROOT / "rulesets/examples/orders.json").read_text("utf-8"))["rows"]
    lines: list[str] = []
    log = DecisionLog(lambda entry: lines.append(json.dumps(entry)), clock=lambda: DAY0)
    for total in ("1.299,00 €", "1.300,00 €", "1.299,00 €"):
        check(policy, {"answer_template": "The order total was {total}.", "claims": [
            {"key": "total", "type": "money", "entity": "order", "entity_id": "ord_88431",
             "field": "total_minor", "value": total}]}, rows,
              now=dt.datetime(2026, 11, 30, 12, 5, tzinfo=dt.timezone.utc),
              inputs={"postcode": "10115"}, log=log)
    report = compute(lines).to_dict()
    field = report["fields"]["order.total_minor"]
    assert field["counts"]["confirmed"] == 2 and field["counts"]["contradicted"] == 1
    assert field["actions"] == {"answer": 2, "regenerate": 1}
    assert report["prose_per_slot"]["top"][0]["mean_prose_per_slot"] == 4.0


# --- bad lines -----------------------------------------------------------------------------------

def test_bad_lines_are_reported_with_their_line_numbers_and_never_stop_the_report():
    good = generated()
    lines = [good[0], "not json", "", "[1, 2]", good[1][:40],        # a torn write
             json.dumps({"time": "yesterday", "action": "answer"}),
             json.dumps({"time": "2026-11-01T00:00:00Z"}),
             json.dumps({"time": "2026-11-01T00:00:00Z", "action": "answer", "claims": [{}]}),
             "[" * 100_000 + "]" * 100_000,
             good[2]]
    stats = compute(lines)
    report = stats.to_dict()
    assert report["decisions"] == 2
    assert report["bad_lines"]["count"] == 7
    numbers = [b["line"] for b in report["bad_lines"]["shown"]]
    assert numbers == [2, 4, 5, 6, 7, 8, 9]             # line 3 is blank: not bad
    errors = {b["line"]: b["error"] for b in report["bad_lines"]["shown"]}
    assert errors[2].startswith("not JSON")
    assert "object" in errors[4]
    assert "ISO 8601" in errors[6] and errors[7] == "no action"
    assert "claims[0]" in errors[8]
    text = render_text(stats, "log.jsonl")
    assert "7 bad lines" in text and "line 5: not JSON" in text


def test_an_empty_log_reports_nothing_and_renders():
    stats = compute([])
    assert stats.to_dict()["decisions"] == 0
    assert "no claims" in render_text(stats)
    ET.fromstring(render_html(stats))


# --- HTML ----------------------------------------------------------------------------------------

class _Strict(HTMLParser):
    """Tags open and close in order (void elements aside)."""
    VOID = {"meta", "br", "hr", "img", "input", "link"}

    def __init__(self):
        super().__init__()
        self.stack: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.tags.append(tag)

    def handle_endtag(self, tag):
        assert self.stack and self.stack.pop() == tag, tag


def test_the_html_page_is_well_formed_with_one_chart_per_field():
    lines = generated()
    lines.append(line(day(1, 50), "answer", [("order", "<script>alert(1)</script>",
                                               "confirmed")]))
    stats = compute(lines)
    page = render_html(stats, "decisions & more.jsonl")
    root = ET.fromstring(page)                     # well-formed XML
    charts = [svg for svg in root.iter(SVG) if svg.get("class") == "field-chart"]
    assert len(charts) == len(stats.fields) == 4
    parser = _Strict()
    parser.feed(page)
    parser.close()
    assert parser.stack == []
    assert "script" not in parser.tags             # the field name is text, not a tag
    assert "&lt;script&gt;" in page
    flagged = [svg for svg in charts if 'stroke="#b00"' in ET.tostring(svg, encoding="unicode")]
    assert len(flagged) == 1                       # order.total, drawn in red


# --- options and the command ------------------------------------------------------------------

def test_window_and_threshold_options():
    assert parse_window("1d").seconds == 86400 and parse_window("6h").seconds == 21600
    assert parse_window("30m").seconds == 1800 and parse_window("500").lines == 500
    for bad in ("0", "1y", "-3", "d", ""):
        with pytest.raises(ValueError, match="--window"):
            parse_window(bad)
    assert parse_threshold("5%") == pytest.approx(0.05) and parse_threshold("0.1") == 0.1
    for bad in ("x", "-1", "nan"):
        with pytest.raises(ValueError, match="--threshold"):
            parse_threshold(bad)


@pytest.fixture
def log_file(tmp_path) -> Path:
    path = tmp_path / "decisions.jsonl"
    path.write_text("\n".join(generated() + ["{torn"]) + "\n", "utf-8")
    return path


def test_stats_command_text_json_and_html(log_file, tmp_path, capsys):
    assert main(["stats", str(log_file)]) == 0
    out = capsys.readouterr().out
    assert "order.total" in out and "RISING" in out and "1 bad line" in out
    page = tmp_path / "report.html"
    assert main(["stats", str(log_file), "--format", "json", "--html", str(page),
                 "--window", "1d", "--threshold", "25%"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["flagged"] == [] and report["threshold"] == 0.25
    assert report["bad_lines"]["shown"] == [{"line": 44, "error": report["bad_lines"]["shown"][0]
                                             ["error"]}]
    assert len([s for s in ET.parse(page).getroot().iter(SVG)
                if s.get("class") == "field-chart"]) == 3


def test_stats_command_reads_stdin(log_file, capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(log_file.read_text("utf-8")))
    assert main(["stats", "-", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["decisions"] == 43


def test_stats_command_exit_codes(log_file, tmp_path, capsys):
    assert main(["stats", str(tmp_path / "missing.jsonl")]) == 2
    assert "cannot read the log" in capsys.readouterr().err
    assert main(["stats", str(tmp_path)]) == 2                      # a folder
    assert main(["stats", str(log_file), "--window", "1y"]) == 2
    assert "--window '1y'" in capsys.readouterr().err
    assert main(["stats", str(log_file), "--threshold", "lots"]) == 2
    assert main(["stats", str(log_file), "--min-claims", "0"]) == 2
    assert main(["stats", str(log_file), "--html", str(tmp_path / "no" / "x.html")]) == 2
    with pytest.raises(SystemExit) as usage:
        main(["stats"])
    assert usage.value.code == 2
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\xff\xfe\x00garbage\n" + generated()[0].encode() + b"\n")
    assert main(["stats", str(binary), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["decisions"], report["bad_lines"]["count"]) == (1, 1)
