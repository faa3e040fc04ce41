"""The public surface: pinned names, and an installed package that finds its grammar."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import rulekit
from rulekit.parse import grammar_text

ROOT = Path(__file__).resolve().parent.parent


def test_public_api_is_pinned():
    assert rulekit.__all__ == [
        "ArtifactError", "CompileError", "Decision", "Diagnostic", "OUTCOMES", "Policy",
        "RulekitError", "Span", "StreamGate", "__version__", "audit", "check", "ground", "load",
        "load_compiled",
    ]
    for name in rulekit.__all__:
        assert hasattr(rulekit, name)


def test_the_package_reads_the_one_grammar():
    assert grammar_text() == (ROOT / "grammar" / "rulekit.lark").read_text("utf-8")


def test_the_wheel_ships_the_grammar(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "--quiet", "-w", str(tmp_path), str(ROOT)], check=True, capture_output=True)
    (wheel,) = tmp_path.glob("rulekit-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        shipped = archive.read("rulekit/grammar/rulekit.lark").decode("utf-8")
        modules = set(archive.namelist())
    assert shipped == grammar_text()
    # every subpackage ships, not only the top level
    expected = {str(p.relative_to(ROOT)) for p in (ROOT / "rulekit").rglob("*.py")}
    assert expected <= modules


def test_functions_named_like_their_modules_stay_callable():
    """Importing rulekit.check (the module) must not break rulekit.check(...) (the function)."""
    import importlib

    for name in ("check", "audit", "ground"):
        importlib.import_module(f"rulekit.{name}")
        assert callable(getattr(rulekit, name)), name
    policy = rulekit.load(ROOT / "rulesets" / "shop.rules")
    decision = rulekit.check(policy, "not json", {"product": []})
    assert decision.decision != "answer"
    assert rulekit.audit("It costs 12 dollars.", {"price": 13}).decision.decision != "answer"
