"""rulekit.scan.links: the built-in lists of top-level domains (the cases are in
tests/cases/scan/links.yaml and link_targets.yaml)."""

from pathlib import Path

import hypothesis

from rulekit.scan.links import _FILE_DOMAINS, _FILE_ENDINGS, _TLDS
from rulekit.scan.tlds import ROOT_ZONE


def test_file_endings_are_no_top_level_domains() -> None:
    """A host with a path is a link on any ending but these: none may be a real one."""
    assert not _FILE_ENDINGS & ROOT_ZONE


def test_the_built_in_root_zone_covers_hypothesis_snapshot() -> None:
    """The built-in list holds every ASCII name of the IANA list hypothesis ships (a newer
    snapshot may add names: then rebuild rulekit/scan/tlds.py from it)."""
    listed = Path(hypothesis.__file__).parent / "vendor" / "tlds-alpha-by-domain.txt"
    names = {line.strip().lower() for line in listed.read_text().splitlines()
             if line.strip() and not line.startswith("#")}
    assert {name for name in names if name.isascii() and name.isalpha()} <= ROOT_ZONE
    assert _TLDS >= ROOT_ZONE - _FILE_DOMAINS
