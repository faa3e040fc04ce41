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


# Links, addresses and handles of the cases in tests/cases/scan/links.yaml (ASCII), each read
# the same whether the text around them is ASCII or not: the reading for text that is not all
# ASCII (letters of any script) is a superset of the ASCII one for ASCII links.
_ASCII_LINKS = [
    "Write to Support@Example.com today.", "mail shop42@store9.example.com.",
    "Try example.org now", "Order at shop.example.com/p/1 today", "Visit www.Example.com/Sale.",
    "Thanks to @lin.writes.", "A comment (from @LIN.WRITES) came in.", "see refunds.help now",
    "Edit README.md and app.py, e.g. Node.js", "config.json/settings", "a@b.c1 and x@y.co",
    "See https://shop.example.com/p/1299?ref=12 for details.", "evil.zzz/x", "@a @_ @12",
]


def _links(text: str) -> list[tuple[str, str, str | None]]:
    from rulekit.scan import scan

    return [(m.kind, m.text, m.normalized) for m in scan(text, "en_US")
            if m.kind in ("handle", "email", "url")]


def test_ascii_links_read_alike_in_text_that_is_not_ascii() -> None:
    for text in _ASCII_LINKS:
        assert _links("Привет. " + text) == _links("Hello. " + text), text
