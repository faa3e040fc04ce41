"""The compiled artifact: round trip, loading without the parser, and corrupt input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import rulekit
from rulekit.cli import main
from rulekit.policy import load_compiled, policy_from_json

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted((ROOT / "rulesets").glob("*.rules"))


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory):
    out = tmp_path_factory.mktemp("artifacts")
    assert main(["compile", "--out", str(out), *map(str, SHIPPED)]) == 0
    return out


@pytest.mark.parametrize("ruleset", SHIPPED, ids=lambda p: p.name)
def test_an_artifact_loads_back_to_the_same_policy(ruleset, artifacts):
    policy = rulekit.load(ruleset)
    loaded = load_compiled(artifacts / f"{policy.name}.policy.json")
    assert loaded == policy
    assert loaded.ruleset == {"name": policy.name, "version": policy.version,
                              "hash": policy.sources_sha256}


def test_loading_an_artifact_does_not_import_lark(artifacts):
    script = (
        "import sys, rulekit\n"
        f"policy = rulekit.load_compiled({str(artifacts / 'orders.policy.json')!r})\n"
        "assert policy.entity('order') is not None\n"
        "print(sorted(m for m in sys.modules if m == 'lark' or m.startswith('lark.')))\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "[]"


def test_a_corrupt_artifact_names_the_json_path(artifacts, tmp_path):
    data = json.loads((artifacts / "orders.policy.json").read_text())
    data["entities"][0]["fields"][1]["type"]["kind"] = "moneyy"
    with pytest.raises(rulekit.ArtifactError) as caught:
        policy_from_json(json.dumps(data), "orders.policy.json")
    assert "$.entities[0].fields[1].type" in str(caught.value)
    assert "recompile" in str(caught.value)


def test_an_artifact_edited_by_hand_is_refused(artifacts, tmp_path):
    """An edit that still validates (minor units read as major: every price off by 100x) kept
    the original ruleset hash, so decisions named rules that were not the ones applied."""
    data = json.loads((artifacts / "orders.policy.json").read_text())
    fields = data["entities"][0]["fields"]
    money = next(f for f in fields if f["type"].get("storage") == "minor")
    money["type"]["storage"] = "major"
    edited = tmp_path / "orders.policy.json"
    edited.write_text(json.dumps(data, indent=2))
    with pytest.raises(rulekit.ArtifactError) as caught:
        load_compiled(edited)
    message = str(caught.value)
    assert message.startswith(f"{edited}: ") and "$.artifact_sha256" in message
    assert "edited after it was compiled" in message and "recompile" in message


def test_the_digest_does_not_depend_on_layout(artifacts):
    """Re-indenting or reordering keys is not an edit: the digest is over canonical JSON."""
    data = json.loads((artifacts / "orders.policy.json").read_text())
    assert len(data["artifact_sha256"]) == 64
    reordered = dict(reversed(list(data.items())))
    assert policy_from_json(json.dumps(reordered, separators=(",", ":"))) == \
        load_compiled(artifacts / "orders.policy.json")


def test_an_artifact_without_a_digest_is_refused(artifacts):
    data = json.loads((artifacts / "orders.policy.json").read_text())
    del data["artifact_sha256"]
    with pytest.raises(rulekit.ArtifactError, match=r"no `artifact_sha256` at \$.*recompile"):
        policy_from_json(json.dumps(data), "orders.policy.json")


@pytest.mark.parametrize("content, expected", [
    (b"not json", "the JSON does not parse"),
    (b"[]", "no `format_version` at $"),
    (b'{"format_version": 99}', "$.format_version is 99, this rulekit reads 5"),
    (b'{"format_version": 4}', "$.format_version is 4, this rulekit reads 5"),
    (b'{"format_version": 3}', "$.format_version is 3, this rulekit reads 5"),
    (b'{"format_version": 2}', "$.format_version is 2, this rulekit reads 5"),
])
def test_not_an_artifact(content, expected, tmp_path):
    path = tmp_path / "x.policy.json"
    path.write_bytes(content)
    with pytest.raises(rulekit.ArtifactError, match=None) as caught:
        load_compiled(path)
    assert expected in str(caught.value)


def test_a_missing_artifact(tmp_path):
    with pytest.raises(rulekit.ArtifactError, match="cannot read the compiled policy"):
        load_compiled(tmp_path / "none.json")


@pytest.mark.parametrize("opening, closing", [(b"[", b"]"), (b'{"a":', b"}")],
                         ids=["arrays", "objects"])
def test_a_deeply_nested_artifact_is_refused_naming_the_file_and_its_depth(opening, closing,
                                                                           tmp_path):
    """Python's JSON reader recurses once a level: 100,000 levels raised RecursionError, which
    the CLI reported as a bug in rulekit (exit 3) rather than a bad artifact (exit 1)."""
    path = tmp_path / "deep.policy.json"
    path.write_bytes(opening * 100_000 + (b"1" if opening == b"[" else b"1") + closing * 100_000)
    with pytest.raises(rulekit.ArtifactError) as caught:
        load_compiled(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: not a compiled policy: ")
    assert "nested 100,000 levels deep" in message and "recompile" in message
    assert main(["schema", str(path)]) == 1


def test_an_artifact_records_the_rulekit_that_compiled_it(artifacts):
    data = json.loads((artifacts / "orders.policy.json").read_text())
    assert data["compiled_by"] == f"rulekit {rulekit.__version__}"
    assert load_compiled(artifacts / "orders.policy.json").compiled_by == data["compiled_by"]


def test_the_digest_covers_the_rulekit_that_compiled_it(artifacts):
    data = json.loads((artifacts / "orders.policy.json").read_text())
    data["compiled_by"] = "rulekit 9.9.9"
    with pytest.raises(rulekit.ArtifactError, match="edited after it was compiled"):
        policy_from_json(json.dumps(data), "orders.policy.json")


def test_an_artifact_carries_the_forbidden_phrases():
    """`prose guarded forbid` travels in the artifact (format 5) and is found after loading."""
    policy = rulekit.load(ROOT / "tests/cases/sweep/refunds_forbid.rules")
    loaded = policy_from_json(policy.to_json())
    assert loaded.forbidden_phrases == ("refund", "free of charge", "waive") == policy.forbidden_phrases
    assert loaded.forbidden_pattern.search("a REFUND, free of\ncharge") is not None
    assert rulekit.load(ROOT / "tests/cases/sweep/refunds.rules").forbidden_pattern is None
