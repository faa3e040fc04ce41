"""Golden files for diagnostics: what a user sees for each malformed rules file.

``tests/cases/compile/<name>.rules`` sits beside ``<name>.expected``, the exact text of
``render_all(result.diagnostics, result.sources)`` plus a newline, compiled from the repository
root with a relative path. Files in ``tests/cases/compile/imports/`` are helpers that the cases
import; they are not cases themselves.

    .venv/bin/python -m pytest tests/test_golden.py --update-goldens

rewrites the .expected files from the current compiler; review that diff as UX (read every
message) before committing it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulekit.compile import compile_file
from rulekit.errors import CODES, render_all

REPO = Path(__file__).resolve().parent.parent
CASES = REPO / "tests" / "cases" / "compile"
DOCS = REPO / "docs" / "errors.md"
RULES = sorted(CASES.glob("*.rules"))

# Codes the compiler can emit but no checked-in case file can show, with the reason. Each one is
# covered by a test below that builds the file it needs in a temporary folder.
NOT_IN_GOLDENS = {
    "RK105": "needs a rules file over 1 MiB; a file that large does not belong in the repository "
             "(test_a_file_over_the_size_limit_is_rk105 builds one)",
    "RK108": "needs a path that exists but cannot be read, such as a folder; git cannot check "
             "one in as a .rules case (test_an_unreadable_path_is_rk108 uses a folder)",
}

# Lark's exception and class names; none may leak into what a user sees.
LARK_NAMES = ("UnexpectedToken", "UnexpectedCharacters", "UnexpectedInput", "UnexpectedEOF",
              "UnexpectedEof", "LarkError", "lark", "Token(", "Tree(", "ParseError")


def render(relative: str) -> str:
    result = compile_file(relative)
    return render_all(result.diagnostics, result.sources) + "\n"


def _relative(path: Path) -> str:
    return path.relative_to(REPO).as_posix()


def test_there_are_cases():
    assert len(RULES) >= 40, "the golden folder lost its cases"


@pytest.mark.parametrize("rules", RULES, ids=[p.stem for p in RULES])
def test_golden(rules: Path, request, monkeypatch):
    monkeypatch.chdir(REPO)
    expected_path = rules.with_suffix(".expected")
    actual = render(_relative(rules))
    if request.config.getoption("--update-goldens"):
        expected_path.write_bytes(actual.encode("utf-8"))
        return
    assert expected_path.exists(), (
        f"{_relative(expected_path)} is missing; run pytest with --update-goldens and review it")
    assert actual.encode("utf-8") == expected_path.read_bytes()


def test_every_case_has_an_error_or_a_warning(monkeypatch):
    """A case that compiles cleanly shows nothing; it belongs in the behaviour tests instead."""
    monkeypatch.chdir(REPO)
    clean = [p.name for p in RULES if not compile_file(_relative(p)).diagnostics]
    assert clean == []


def test_no_expected_file_is_orphaned():
    orphans = [p.name for p in CASES.glob("*.expected") if not p.with_suffix(".rules").exists()]
    assert orphans == []


def _codes_in_goldens() -> set[str]:
    found: set[str] = set()
    for expected in CASES.glob("*.expected"):
        found.update(re.findall(r"(?:error|warning)\[(RK\d{3})\]", expected.read_text("utf-8")))
    return found


def test_every_code_appears_in_a_golden():
    missing = sorted(set(CODES) - set(NOT_IN_GOLDENS) - _codes_in_goldens())
    assert missing == [], f"no golden shows {missing}; add a case under tests/cases/compile/"


def test_codes_left_out_of_the_goldens_are_real_codes_that_no_golden_shows():
    assert set(NOT_IN_GOLDENS) <= set(CODES)
    assert not set(NOT_IN_GOLDENS) & _codes_in_goldens(), "remove it from NOT_IN_GOLDENS"


def test_goldens_show_no_code_missing_from_the_table():
    assert _codes_in_goldens() <= set(CODES)


@pytest.mark.parametrize("expected", sorted(CASES.glob("*.expected")),
                         ids=lambda p: p.stem)
def test_goldens_show_no_traceback_or_lark_internals(expected: Path):
    text = expected.read_text("utf-8")
    assert "Traceback" not in text
    leaked = [name for name in LARK_NAMES if name in text]
    assert leaked == []


def test_a_file_over_the_size_limit_is_rk105(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("generated.rules").write_text("# padding\n" * 120_000, encoding="utf-8")
    result = compile_file("generated.rules")
    assert [d.code for d in result.diagnostics] == ["RK105"]
    text = render_all(result.diagnostics, result.sources)
    assert text == ("generated.rules:1:1: error[RK105]: file is 1.1 MiB (1,200,000 bytes); a rules "
                    "file may be at most 1 MiB (1,048,576 bytes)\n"
                    "  hint: split it into smaller files joined with `import`")
    assert "Traceback" not in text


def test_an_unreadable_path_is_rk108(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("orders.rules").mkdir()
    result = compile_file("orders.rules")
    assert [d.code for d in result.diagnostics] == ["RK108"]
    text = render_all(result.diagnostics, result.sources)
    assert text.startswith("orders.rules:1:1: error[RK108]: cannot read 'orders.rules'")
    assert "Traceback" not in text and "Errno" not in text


def test_every_code_has_a_heading_in_docs_errors_md():
    text = DOCS.read_text("utf-8")
    headings = re.findall(r"^## (RK\d{3}): (.+)$", text, flags=re.M)
    documented = [code for code, _ in headings]
    assert sorted(set(CODES) - set(documented)) == []
    assert documented == list(CODES), "docs/errors.md lists the codes once each, in table order"
    titles = dict(headings)
    assert {code: titles[code] for code in CODES} == CODES, "headings use the titles of CODES"
