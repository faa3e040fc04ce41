"""URLs (absolute, ``www.``, bare hosts with a known top-level domain, relative paths and
Markdown link targets), e-mail addresses and @handles. They are claimed first: their digits are
theirs."""

from __future__ import annotations

import re

from rulekit.scan.base import _LINK, _Hit, _trie

_URL_CHARS = r"[^\s<>\"`{}|\\^\[\]（）【】「」『』，。！？、“”‘’«»]"
_ABSOLUTE_URL = re.compile(rf"(?i)(?:https?|ftp)://{_URL_CHARS}+")
_WWW_URL = re.compile(rf"www\.[a-z0-9-]+(?:\.[a-z0-9-]+)+(?::[0-9]{{1,5}})?"
                      rf"(?:[/?#]{_URL_CHARS}*)?")
_MD_LINK = re.compile(r"\]\((/[^\s()<>]*)\)")
_TLDS = frozenset("""
    com org net edu gov mil int io co ai app dev shop store info biz me tv us uk de fr es it nl
    ch at be eu ca au jp cn in br ru se no dk fi pl cz ie nz kr tw hk sg mx ar za online site
    tech xyz blog news cloud ly gl gg to fm page link live life world today email vn th id
    my ph pt gr hu ro tr il ae sa ua sk si hr bg lt lv ee is lu li mc
""".split())
_TLD_HIT = re.compile(rf"\.(?:{_trie(_TLDS)})(?![A-Za-z0-9-])")
_HOST_REVERSED = re.compile(r"[a-z0-9-]+(?:\.[a-z0-9-]+)*")
_URL_TAIL = re.compile(rf"(?::[0-9]{{1,5}})?(?:[/?#]{_URL_CHARS}*)?")
_RELATIVE = re.compile(rf"/(?<![\w/.:~\-)\]]/)(?:[A-Za-z0-9_~%+.\-]+/)+[A-Za-z0-9_~%+.\-]*"
                       rf"(?:[?#]{_URL_CHARS}*)?")
_LOCAL_REVERSED = re.compile(r"[A-Za-z0-9._%+\-]{1,64}")
_DOMAIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]*(?:\.[A-Za-z0-9-]+)+")
_EMAIL_AT = re.compile(r"@(?<=[A-Za-z0-9._%+\-]@)(?=[A-Za-z0-9][A-Za-z0-9-]*\.[A-Za-z0-9])")
_HANDLE = re.compile(r"@(?<![A-Za-z0-9._%+\-@/:]@)([A-Za-z0-9_.]+)")
_URL_TRAILING = ".,;:!?'\"*_~"
# The last letter of https, http or ftp (ſ matches s under IGNORECASE).
_SCHEME_LAST = frozenset("sSpP\u017f")
_URL_HEAD = re.compile(r"(?s)(?:.*?://)?[^/?#]*")


class _Links:
    """URLs, e-mail addresses and handles; a part of ``_Scanner``."""

    def add_link(self, kind: str, s: int, e: int, normalized: str, trim: bool = False) -> None:
        text = self.text
        if trim:
            closes = None                   # the brackets are counted only if one ends the URL
            while e > s:
                char = text[e - 1]
                if char in _URL_TRAILING:
                    e -= 1
                elif char == ")":
                    if closes is None:
                        opens, closes = text.count("(", s, e), text.count(")", s, e)
                    if closes <= opens:
                        break
                    closes -= 1
                    e -= 1
                else:
                    break
            normalized = _normalize_url(text[s:e])
        if e > s and self.free(s, e):
            hit = _Hit(kind, s, e)
            hit.normalized = normalized
            self.claim(hit, _LINK)

    def links(self) -> None:
        text, low = self.text, self.low
        rest = low              # the text outside the absolute URLs, for the tests below
        if "://" in text:
            spans = self.absolute_links()
            if spans:
                # An "@", "/" or "www." inside a URL starts no other link: each would overlap
                # a claimed span. Tested on what lies outside them, joined by spaces.
                rest = " ".join([low[a:b] for a, b in zip((0, *(e for _, e in spans)),
                                                            (*(s for s, _ in spans), len(low)))])
        if "](/" in text:
            for match in _MD_LINK.finditer(text):
                self.add_link("url", *match.span(1), match.group(1))
        if "www." in rest:
            for match in _WWW_URL.finditer(low):
                s = match.start()
                if not s or text[s - 1] not in ".@/-" and not text[s - 1].isalnum():
                    self.add_link("url", s, match.end(), "", trim=True)
        if "@" in rest:
            self.at_signs()
        if "." in text:
            for match in _TLD_HIT.finditer(low):
                dot, e = match.span()
                window = low[max(0, dot - 253):dot][::-1]
                host = _HOST_REVERSED.match(window)
                if host is None:
                    continue
                s = dot - host.end()
                if s and (text[s - 1] in ".@/:-_" or text[s - 1].isalnum()):
                    continue
                if any(not label or label[0] == "-" or label[-1] == "-"
                       for label in low[s:e].split(".")) or not self.free(s, e):
                    continue
                tail = _URL_TAIL.match(text, e)
                self.add_link("url", s, tail.end() if tail else e, "", trim=True)
        if "/" in rest:
            for match in _RELATIVE.finditer(text):
                if any(c.isalpha() for c in match.group()):
                    self.add_link("url", *match.span(), "", trim=True)

    def absolute_links(self) -> list[tuple[int, int]]:
        """URLs with a scheme (https, http, ftp), claimed; their spans as matched. A match is
        tried only where a scheme can end before a "://": 5, 4 or 3 characters before it.
        (The case-insensitive alternation at the start of ``_ABSOLUTE_URL`` defeats ``re``'s
        prefix search: ``finditer`` would try every position.)"""
        text, spans = self.text, []
        end = 0
        at = text.find("://")
        while at >= 0:
            if at and text[at - 1] in _SCHEME_LAST:
                for start in (at - 5, at - 4, at - 3):
                    if start >= end and start >= 0:
                        match = _ABSOLUTE_URL.match(text, start)
                        if match:
                            end = match.end()
                            if not start or not text[start - 1].isalnum():
                                spans.append((start, end))
                                self.add_link("url", start, end, "", trim=True)
                            break
            # the next match starts at ``end`` or later, so its "://" is at least 3 further
            at = text.find("://", max(at, end + 2) + 1)
        return spans

    def at_signs(self) -> None:
        """E-mail addresses, then @handles, at each '@'."""
        text = self.text
        for match in _EMAIL_AT.finditer(text):
            at = match.start()
            if not self.mask[at]:
                local = _LOCAL_REVERSED.match(text[max(0, at - 64):at][::-1])
                domain = _DOMAIN.match(text, at + 1)
                if local and domain:
                    self.email(at - local.end(), at, domain)
        for match in _HANDLE.finditer(text):
            name = match.group(1).rstrip(".")
            if len(name) < 2 or not any(c.isalpha() or c == "_" for c in name):
                continue
            s, e = match.start(), match.start(1) + len(name)
            self.add_link("handle", s, e, "@" + name.lower())

    def email(self, s: int, at: int, domain: re.Match) -> bool:
        text = self.text
        if s > 0 and (text[s - 1].isalnum() or text[s - 1] in "._%+-"):
            return False                    # the local part is longer than 64 characters
        while s < at and not text[s].isalnum():
            s += 1
        labels = domain.group().split(".")
        while len(labels) > 1 and not (labels[-1].isalpha() and len(labels[-1]) >= 2):
            labels.pop()
        if s >= at or len(labels) < 2 or not all(labels) or text[at - 1] == ".":
            return False
        e = at + 1 + len(".".join(labels))
        self.add_link("email", s, e, text[s:e].lower())
        return True


def _normalize_url(url: str) -> str:
    if url.startswith("/"):
        return url
    lowered = url.lower()
    if lowered == url:
        return url                          # nothing to lower-case (most URLs)
    # scheme and host (up to the first / ? or # after the first "://") lower-cased
    cut = _URL_HEAD.match(url).end()
    return url[:cut].lower() + url[cut:]
