"""Run a ruleset's ``*.tests.yaml`` cases with pytest: one test item per case.

Registered through the ``pytest11`` entry point, so it is active wherever rulekit is
installed. It collects nothing unless asked, so that installing rulekit never adds tests to
someone else's suite, and a repository's own tests are never collected twice:

- ``pytest --rulekit-cases rulesets/`` collects every ``*.tests.yaml`` under the paths given;
- ``rulekit_cases = true`` in the ``[tool.pytest.ini_options]`` of a project (or its
  pytest.ini) does the same for every run, for a project whose rulesets live beside its tests;
- a ``*.tests.yaml`` file named on the command line is always collected.

A failing case fails with the same diff ``rulekit test`` prints; a tests file with problems
(or a ruleset that does not compile) is one failing item naming them. Coverage and mutants are
``rulekit test --coverage --mutate``'s job: they judge a whole ruleset, not one case.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekit.testing import TESTS_SUFFIX, load_policy, load_tests, run_case


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("rulekit")
    group.addoption("--rulekit-cases", action="store_true", default=False,
                    help=f"collect rulekit's *{TESTS_SUFFIX} ruleset test files")
    parser.addini("rulekit_cases", type="bool", default=False,
                  help=f"always collect rulekit's *{TESTS_SUFFIX} ruleset test files")


def _wanted(parent: pytest.Collector, file_path: Path) -> bool:
    if not file_path.name.endswith(TESTS_SUFFIX):
        return False
    config = parent.config
    if config.getoption("rulekit_cases") or config.getini("rulekit_cases"):
        return True
    named = {Path(arg.split("::")[0]).resolve() for arg in config.args}
    return file_path.resolve() in named


def pytest_collect_file(parent: pytest.Collector, file_path: Path):
    if _wanted(parent, file_path):
        return RulesetCases.from_parent(parent, path=file_path)
    return None


class RulesetCases(pytest.File):
    """One tests file: its cases, run against its ruleset (compiled once per file)."""

    def collect(self):
        test_file = load_tests(self.path)
        policy, problem = (None, None)
        if test_file.ruleset is not None and test_file.cases:
            policy, problem = load_policy(test_file.ruleset)
        problems = [str(p) for p in test_file.problems] + ([problem] if problem else [])
        if problems:
            yield BrokenFile.from_parent(self, name="[tests file]", problems=tuple(problems))
        if policy is None:
            return
        for case in test_file.cases:
            yield RulesetCase.from_parent(self, name=case.name, policy=policy, case=case)


class BrokenFile(pytest.Item):
    def __init__(self, *, problems: tuple[str, ...], **kwargs):
        super().__init__(**kwargs)
        self.problems = problems

    def runtest(self) -> None:
        raise CaseFailed("\n".join(self.problems))

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, CaseFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, None, f"{self.path.name}: problems"


class RulesetCase(pytest.Item):
    """One case of a tests file."""

    def __init__(self, *, policy, case, **kwargs):
        super().__init__(**kwargs)
        self.policy = policy
        self.case = case

    def runtest(self) -> None:
        result = run_case(self.policy, self.case)
        if result.ok:
            return
        lines = [f"{self.case.id}: {self.case.name}"]
        if result.error:
            lines.append(result.error)
        for mismatch in result.mismatches:
            lines.append(f"{mismatch.key} (line {mismatch.line}):")
            lines.extend("  " + line for line in mismatch.diff().splitlines())
        if result.decision is not None and result.mismatches:
            lines.append(f"rulekit decided {result.decision.decision}")
            lines.extend(f"  [{r.code}] {r.message}" for r in result.decision.reasons[:8])
        raise CaseFailed("\n".join(lines))

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, CaseFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, self.case.line - 1, f"{self.path.name}: {self.case.name}"


class CaseFailed(Exception):
    """A case's expectations did not hold; the message is the diff."""
