"""Every example in the docs compiles, and the shipped rulesets compile cleanly.

A fenced block with the info string ``rules`` must compile without errors. One with
``rules-error RKnnn`` shows a mistake: the compiler must report that code. That is an error for
every code but the few the compiler reports as warnings (RK412, a declaration nothing uses; RK214,
a header without a version); an example cannot fail with a warning, so there the warning counts.
A block without a ``ruleset`` header is checked as a library. Each block is compiled as if it
were a file in the folder of its Markdown page (``docs/language.md:123.rules`` for the block whose
fence opens on line 123), so a relative ``import`` resolves against that folder:
``../rulesets/shared/glossary.rules`` from ``docs/``.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from rulekit.compile import compile_file, compile_source
from rulekit.errors import render_all

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted((ROOT / "docs").glob("*.md")) + [p for p in [ROOT / "README.md"] if p.is_file()]
RULESETS = sorted((ROOT / "rulesets").glob("*.rules"))
LIBRARIES = sorted((ROOT / "rulesets").glob("*/*.rules"))

FENCE = re.compile(r"^(`{3,})\s*(\S.*?)?\s*$")
INFO = re.compile(r"^rules(?:-error\s+(RK\d{3}))?$")


@dataclasses.dataclass(frozen=True)
class Example:
    page: Path
    line: int               # 1-based line of the opening fence
    info: str
    text: str

    @property
    def id(self) -> str:
        return f"{self.page.name}:{self.line}"

    @property
    def path(self) -> str:
        """The name the block is compiled under: beside its page, relative to the repo root."""
        folder = self.page.parent.relative_to(ROOT).as_posix()
        name = f"{self.page.name}:{self.line}.rules"
        return name if folder == "." else f"{folder}/{name}"


def examples(page: Path) -> list[Example]:
    """The blocks of a page whose info string starts with `rules`, in order."""
    found: list[Example] = []
    lines = page.read_text(encoding="utf-8").split("\n")
    index = 0
    while index < len(lines):
        match = FENCE.match(lines[index])
        if not match:
            index += 1
            continue
        fence, info = match.group(1), (match.group(2) or "")
        start = index
        index += 1
        body: list[str] = []
        while index < len(lines) and not (lines[index].startswith(fence)
                                          and not lines[index].strip("`").strip()):
            body.append(lines[index])
            index += 1
        if index >= len(lines):
            raise AssertionError(f"{page.name}:{start + 1}: code block is never closed")
        index += 1
        if info.split()[0].startswith("rules") if info else False:
            found.append(Example(page, start + 1, info, "\n".join(body) + "\n"))
    return found


ALL = [example for page in PAGES for example in examples(page)]


def _compile(example: Example, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(ROOT)
    return compile_source(example.text, path=example.path, require_header=False)


@pytest.mark.parametrize("example", ALL, ids=[e.id for e in ALL])
def test_example(example: Example, monkeypatch: pytest.MonkeyPatch) -> None:
    match = INFO.match(example.info)
    assert match, (f"{example.id}: unknown info string {example.info!r}; write `rules`, or "
                   "`rules-error RKnnn` for an example that must fail with that code")
    result = _compile(example, monkeypatch)
    errors = [d for d in result.diagnostics if d.severity == "error"]
    shown = render_all(result.diagnostics, result.sources)
    expected = match.group(1)
    if expected is None:
        assert not errors, f"{example.id}: the example does not compile:\n{shown}"
    else:
        reported = {d.code for d in errors} | {d.code for d in result.diagnostics
                                               if d.severity == "warning"}
        assert expected in reported, (f"{example.id}: expected {expected}, got "
                                      f"{sorted(reported) or 'none'}:\n{shown}")


def test_relative_imports_resolve_against_the_page_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    example = Example(ROOT / "docs" / "language.md", 1, "rules",
                      'import "../rulesets/shared/glossary.rules"\n'
                      "entity order {\n  key id\n  field id identifier\n"
                      "  field status enum order_status\n}\n")
    result = _compile(example, monkeypatch)
    assert result.ok, render_all(result.diagnostics, result.sources)
    assert any(path.endswith("rulesets/shared/glossary.rules") for path in result.sources)


def test_language_reference_has_enough_examples() -> None:
    page = ROOT / "docs" / "language.md"
    assert page.is_file(), "docs/language.md is missing"
    assert len(examples(page)) >= 15


@pytest.mark.parametrize("path", RULESETS, ids=[p.name for p in RULESETS])
def test_shipped_ruleset_compiles_without_diagnostics(path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    result = compile_file(path.relative_to(ROOT))
    assert result.diagnostics == (), render_all(result.diagnostics, result.sources)
    assert result.policy is not None and not result.is_library


@pytest.mark.parametrize("path", LIBRARIES, ids=[p.relative_to(ROOT / "rulesets").as_posix()
                                                 for p in LIBRARIES])
def test_shared_library_compiles_without_diagnostics(path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    result = compile_file(path.relative_to(ROOT), require_header=False)
    assert result.diagnostics == (), render_all(result.diagnostics, result.sources)
    assert result.is_library


def test_the_grounding_page_shows_what_the_demo_prints() -> None:
    """docs/grounding.md's end-to-end example is the demo's own output, not a hand copy."""
    import io

    from rulekit.demo import run

    out = io.StringIO()
    assert run(str(ROOT / "rulesets"), out) == 0
    printed = out.getvalue()
    start = printed.index("The grounding loop on shop")
    loop = printed[start:].split("\n\n\n", 1)[0].split("\nruleset ", 1)[0]
    page = (ROOT / "docs" / "grounding.md").read_text(encoding="utf-8")
    block = page.split("<!-- demo-output: loop -->\n```\n", 1)[1].split("\n```", 1)[0]
    assert block.strip() == loop.strip()


def _block_after(page: str, marker: str) -> str:
    """The text of the first fenced block that starts after ``marker``."""
    rest = page[page.index(marker):]
    return rest.split("```", 2)[1].split("\n", 1)[1]


def test_the_readme_check_example_prints_what_it_shows(tmp_path, monkeypatch, capsys) -> None:
    """README's reply and `rulekit check` output, run for real against the example rows."""
    import json

    from rulekit.cli import main
    from rulekit.demo import write_sqlite

    page = (ROOT / "README.md").read_text(encoding="utf-8")
    reply = _block_after(page, "The model answers with a template and typed claims")
    (tmp_path / "reply.json").write_text(reply, encoding="utf-8")
    rows = json.loads((ROOT / "rulesets" / "examples" / "orders.json").read_text("utf-8"))
    write_sqlite(tmp_path / "orders.db", rows["rows"])
    shown = _block_after(page, "from the model's strings:")
    command, printed = shown.split("\n", 2)[:2], shown.split("\n", 2)[2]
    assert command[0].startswith("$ rulekit check rulesets/orders.rules --reply reply.json "
                                 "--db sqlite:///orders.db"), command
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    assert main(["check", str(ROOT / "rulesets" / "orders.rules"), "--reply", "reply.json",
                 "--db", "sqlite:///orders.db", *command[1].split()]) == 0
    assert capsys.readouterr().out == printed


def _tests_file_examples() -> list[Example]:
    """authoring.md's ``yaml`` blocks: tests files for shop.rules, as the page says."""
    page = ROOT / "docs" / "authoring.md"
    lines = page.read_text(encoding="utf-8").split("\n")
    found = []
    for number, line in enumerate(lines):
        if line.strip() == "```yaml":
            end = lines.index("```", number + 1)
            found.append(Example(page, number + 1, "yaml", "\n".join(lines[number + 1:end])))
    return found


@pytest.mark.parametrize("example", _tests_file_examples(), ids=lambda e: e.id)
def test_the_tests_file_examples_of_authoring_md_pass(example: Example, tmp_path) -> None:
    """Copied beside shop.rules as shop.tests.yaml, every case of the example passes: the first
    one once wanted a fallback its rows could not build (no stock) in words that are not
    shop.rules' fallback."""
    from rulekit.testing import run

    (tmp_path / "shop.rules").write_text((ROOT / "rulesets" / "shop.rules").read_text("utf-8"),
                                         encoding="utf-8")
    (tmp_path / "shop.tests.yaml").write_text(example.text, encoding="utf-8")
    report = run([str(tmp_path / "shop.rules")])
    assert report.ok and report.files[0].results, report.render()


# A wrong example of errors.md and the message it shows, as for a file rulesets/orders.rules.
SHOWN_MESSAGE = re.compile(r"```rules-error (RK\d{3})\n(.*?)```\n\nThe message:\n\n```\n(.*?)```",
                           re.S)


def shown_messages(page: str) -> list[tuple[str, str, str]]:
    return SHOWN_MESSAGE.findall(page)


def real_message(code: str, source: str, folder: Path) -> str:
    """What the compiler prints for ``source`` saved as ``rulesets/orders.rules`` in ``folder``
    (beside a ``glossary.rules``, the file errors.md's imports name): the first diagnostic of
    ``code``, without the count line."""
    import os

    here = os.getcwd()
    os.chdir(folder)
    try:
        result = compile_source(source, path="rulesets/orders.rules", require_header=False)
    finally:
        os.chdir(here)
    found = [d for d in result.diagnostics if d.code == code][:1]
    return render_all(found, result.sources).split("\n\n")[0].strip() if found else "(none)"


def test_errors_md_shows_the_messages_the_compiler_prints(tmp_path) -> None:
    """Each wrong example's message block is the compiler's own text: the RK408 block had
    listed missing_input, which needs an action only in a ruleset that declares an input."""
    (tmp_path / "rulesets").mkdir()
    (tmp_path / "rulesets" / "glossary.rules").write_text(
        (ROOT / "rulesets" / "shared" / "glossary.rules").read_text("utf-8"), encoding="utf-8")
    page = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
    shown = shown_messages(page)
    assert len(shown) > 40
    drifted = [(code, message.strip(), real_message(code, source, tmp_path))
               for code, source, message in shown
               if message.strip() != real_message(code, source, tmp_path)]
    assert not drifted, "\n\n".join(f"{c}\n--- docs/errors.md\n{d}\n--- rulekit\n{r}"
                                      for c, d, r in drifted)


def test_the_readme_rk302_example_is_what_the_compiler_prints(monkeypatch) -> None:
    """README: a tolerance added to the money field of rulesets/orders.rules, and the message."""
    page = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = _block_after(page, "`rulekit compile` says:").split("\n\n")[0].strip()
    source = (ROOT / "rulesets" / "orders.rules").read_text("utf-8")
    line = next(l for l in source.split("\n") if "field total_minor" in l)
    changed = source.replace(line, line.replace("minor label", "minor tolerance 0.5 label"), 1)
    assert changed != source
    monkeypatch.chdir(ROOT)
    result = compile_source(changed, path="rulesets/orders.rules")
    found = [d for d in result.diagnostics if d.code == "RK302"]
    assert render_all(found, result.sources).split("\n\n")[0].strip() == shown


def test_errors_md_rk105_and_rk208_show_the_real_messages(tmp_path, monkeypatch) -> None:
    """The two examples errors.md cannot give as a checked block: a file over 1 MiB (300,000
    lines of a comment: 1,200,000 bytes) and an import cycle between two files."""
    from rulekit.compile import compile_file

    page = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
    too_large = page[page.index("## RK105"):]
    cycle = page[page.index("## RK208"):]
    (tmp_path / "rulesets").mkdir()
    monkeypatch.chdir(tmp_path)
    for name in ("orders", "glossary"):
        (tmp_path / "rulesets" / f"{name}.rules").write_text(
            _block_after(cycle, f"`rulesets/{name}.rules`:"), encoding="utf-8")
    (tmp_path / "big").mkdir()
    (tmp_path / "big" / "rulesets").mkdir()
    (tmp_path / "big" / "rulesets" / "orders.rules").write_text("# x\n" * 300_000, "utf-8")
    for section, folder, code in ((too_large, tmp_path / "big", "RK105"),
                                  (cycle, tmp_path, "RK208")):
        monkeypatch.chdir(folder)
        result = compile_file("rulesets/orders.rules")
        found = [d for d in result.diagnostics if d.code == code]
        assert [d.code for d in result.diagnostics if d.severity == "error"] == [code]
        shown = _block_after(section, "The message:").strip()
        assert render_all(found, result.sources).split("\n\n")[0].strip() == shown


def test_the_first_example_of_sweep_md_runs_as_shown(monkeypatch) -> None:
    """Copied as written (it once lacked `import rulekit` and showed a list), it runs, and the
    findings are the tuple it shows."""
    page = (ROOT / "docs" / "sweep.md").read_text(encoding="utf-8")
    code = _block_after(page, "Anything the evidence does not back is a finding.")
    monkeypatch.chdir(ROOT)
    names: dict = {}
    exec(compile(code, "docs/sweep.md", "exec"), names)     # noqa: S102 (our own page)
    shown = re.search(r"result\.findings\s+# (.*?)\nresult", code, re.S).group(1)
    shown = re.sub(r"\s*\n\s*#\s*", " ", shown)     # its comment lines, joined
    start = shown.split(", message=")[0]
    assert repr(names["result"].findings).startswith(start)
    assert shown.rstrip().endswith(",)") and names["result"].decision.decision == "regenerate"


def test_errors_md_lists_every_warning_the_compiler_gives() -> None:
    """The intro's list of warnings is every code the compile stages pass to ``warn``."""
    stages = "\n".join(p.read_text("utf-8") for p in (ROOT / "rulekit").rglob("*.py"))
    warned = set(re.findall(r"\.warn\(\s*\"(RK\d{3})\"", stages))
    page = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
    listed = re.search(r"Warnings \(([^)]*)\) do not stop", page)
    assert listed and set(re.findall(r"RK\d{3}", listed.group(1))) == warned, warned


def test_cli_md_exit_codes_say_what_a_missing_rules_file_is(tmp_path, monkeypatch, capsys):
    """The exit-code table quotes `rulekit compile missing.rules` under 1 (RK108), not 2."""
    from rulekit.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["compile", "missing.rules"]) == 1
    printed = capsys.readouterr()
    first = (printed.out + printed.err).split("\n")[0]
    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    row = next(line for line in page.split("\n") if line.startswith("| 1 |"))
    assert f"`{first}`" in row, (first, row)


def test_quoted_rk302_hints_are_the_compilers(tmp_path) -> None:
    """README and docs/cli.md quote the hint for a tolerance on a money field."""
    rules = tmp_path / "t.rules"
    rules.write_text('ruleset t {\n  version "1"\n  currency EUR\n}\n\nentity e {\n  key id\n'
                     '  field id identifier\n  field p money tolerance 0.5\n}\n\n'
                     'on otherwise refuse "no"\n', encoding="utf-8")
    hint = next(d.hint for d in compile_file(str(rules)).diagnostics if d.code == "RK302")
    for page in (ROOT / "README.md", ROOT / "docs" / "cli.md"):
        text = page.read_text(encoding="utf-8")
        quoted = re.findall(r"options for money: [a-z_, ]+", text)
        assert quoted and all(q == hint for q in quoted), (page.name, quoted, hint)


def test_the_python_example_of_cli_md_shows_the_real_repr() -> None:
    import rulekit

    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    line = next(l for l in page.splitlines() if '.field("total_minor").type' in l)
    shown = line.split("# ", 1)[1].strip()
    policy = rulekit.load(ROOT / "rulesets" / "orders.rules")
    assert repr(policy.entity("order").field("total_minor").type) == shown


def test_claims_md_lists_every_field_of_the_decision_json() -> None:
    from rulekit.decision import Decision

    page = (ROOT / "docs" / "claims.md").read_text(encoding="utf-8")
    block = _block_after(page, "## The decision")
    documented = set(re.findall(r'"(\w+)":', block))
    assert set(Decision("answer", ruleset={}).to_dict()) <= documented
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    listed = readme.split("returns the same decision", 1)[1].split(")", 1)[0]
    assert set(Decision("answer", ruleset={}).to_dict()) - {"decision"} <= set(
        re.findall(r"`(\w+)`", listed))
