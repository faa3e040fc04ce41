"""URLs (every link destination whole, absolute, ``www.``, hosts without a scheme, relative
paths), e-mail addresses and @handles. They are claimed first: their digits are theirs."""

from __future__ import annotations

import re

from rulekit.scan.base import _LINK, _Hit, _trie
from rulekit.scan.tlds import RESERVED, ROOT_ZONE

_URL_CHARS = r"[^\s<>\"`{}|\\^\[\]（）【】「」『』，。！？、“”‘’«»]"
_ABSOLUTE_URL = re.compile(rf"(?i)(?:https?|ftp)://{_URL_CHARS}+")
# The same for an ASCII text: its characters of ``_URL_CHARS`` as one table of 256 bits, and
# the scheme alone case-insensitive (no character the class excludes has a case), so that
# each character of the link is one look-up rather than a Unicode category and a case fold
# (a link of 45 characters was read with 40% of the work).
_ABSOLUTE_URL_ASCII = re.compile(r"(?i:https?|ftp)://[^ \t\n\r\f\v\x1c-\x1f<>\"`{}|\\^\[\]]+")
_WWW_URL = re.compile(rf"www\.[a-z0-9-]+(?:\.[a-z0-9-]+)+(?::[0-9]{{1,5}})?"
                      rf"(?:[/?#]{_URL_CHARS}*)?")
# Endings of file names, not top-level domains (none is in ``ROOT_ZONE``: a test checks), so
# "Node.js/Deno" and "config.json/settings" are no hosts with a path.
_FILE_ENDINGS = frozenset("""
    js ts jsx tsx mjs cjs txt json yaml yml toml ini cfg conf env lock log csv tsv html htm
    xhtml css scss less xml svg pdf png jpg jpeg gif webp bmp tif tiff ico heic doc docx xls
    xlsx ppt pptx odt ods rtf exe dll bin iso dmg apk deb rpm msi rar tar gz tgz xz wav ogg
    flac aac mkv avi webm cpp hpp hh rb php sql kt kts scala swift lua dart vue rst tex bat
    cmd vb cs fs go ipynb
""".split())
# Endings that are top-level domains but name files far more often in an answer (README.md,
# app.py, Main.java): a host on them is read only with a path after it.
_FILE_DOMAINS = frozenset("md py sh rs ps java".split())
_TLDS = (ROOT_ZONE | RESERVED) - _FILE_DOMAINS
# A dot, then a known ending that ends the host, or any ending of 2 to 63 letters with a path
# after it (``_FILE_ENDINGS`` aside): "secure-login.bank/reset", "evil.zzz/x".
_TLD_HIT = re.compile(rf"\.(?:(?:{_trie(_TLDS)})(?![a-z0-9-]|\.[a-z0-9])"
                      r"|([a-z]{2,63})(?=/[^\s/]))")
_HOST_REVERSED = re.compile(r"[a-z0-9-]+(?:\.[a-z0-9-]+)*")
_URL_TAIL = re.compile(rf"(?::[0-9]{{1,5}})?(?:[/?#]{_URL_CHARS}*)?")
# After user@host, the path of an scp-style address ("git@github.com:acme/sdk.git"): a colon,
# then a path with a slash in it and no space. Before user@host, a scheme ("ssh://").
_REMOTE_PATH = re.compile(rf":(?=[\w~.-]*/)[\w~./-]{_URL_CHARS}*")
_SCHEME_BEFORE = re.compile(r"(?<![\w+.-])[a-z][a-z0-9+.-]{1,10}://\Z", re.IGNORECASE)
_RELATIVE = re.compile(rf"/(?<![\w/.:~\-)\]]/)(?:[A-Za-z0-9_~%+.\-]+/)+[A-Za-z0-9_~%+.\-]*"
                       rf"(?:[?#]{_URL_CHARS}*)?")
_LOCAL_REVERSED = re.compile(r"[A-Za-z0-9._%+\-]{1,64}")
_DOMAIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]*(?:\.[A-Za-z0-9-]+)+")
_EMAIL_AT = re.compile(r"@(?<=[A-Za-z0-9._%+\-]@)(?=[A-Za-z0-9][A-Za-z0-9-]*\.[A-Za-z0-9])")
_HANDLE = re.compile(r"@(?<![A-Za-z0-9._%+\-@/:]@)([A-Za-z0-9_.]+)")
_URL_TRAILING = ".,;:!?'\"*_~"
_LINK_BYTE = bytes((_LINK,))
# The same for text that is not all ASCII (``_Scanner.ascii`` false; the patterns above serve
# ASCII text alone): e-mail addresses, handles and hosts whose letters are any letters
# (internationalised domains and local parts, a handle in another script, a lookalike that
# mixes scripts: "support@еvil.example" with a Cyrillic е). Scripts written without spaces
# between words (Han, kana, Hangul, Thai, Lao, Myanmar, Khmer, Yi; ``_UNSPACED``) are no part
# of one, so an address glued to a Chinese sentence ends where the sentence goes on
# ("请发邮件至help@shop.example。"), and "例えば@マーク" holds no handle. Combining marks are
# part of a letter (``_MARKS``: vowel signs of Indic scripts, Hebrew and Arabic points, the
# diacritics NFKC leaves apart), though ``\w`` holds none.
_UNSPACED = ("\u0e00-\u0eff\u1000-\u109f\u1100-\u11ff\u1780-\u17ff\u2e80-\u2fdf\u3000-\u33ff"
             "\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\ua960-\ua97f\uac00-\ud7ff\uf900-\ufaff"
             "\uff00-\uffef\U00020000-\U0003ffff")
_MARKS = ("\u0300-\u036f\u0483-\u0489\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7"
          "\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06dc\u06df-\u06e4\u06e7\u06e8\u06ea-\u06ed"
          "\u0900-\u0963\u0966-\u0dff\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f")
_U_LETTER = rf"(?:[^\W\d_{_UNSPACED}]|[{_MARKS}])"               # a letter of a spaced script
_U_PART = rf"(?:[^\W_{_UNSPACED}]|[{_MARKS}])"                   # ... or a digit
_U_LABEL = rf"(?:[^\W_{_UNSPACED}]|[{_MARKS}-])"                 # ... or a hyphen
_U_JOINS = re.compile(_U_PART)
_U_LETTERS = re.compile(rf"{_U_LETTER}{{2,}}")
_U_WWW_URL = re.compile(rf"www\.{_U_LABEL}+(?:\.{_U_LABEL}+)+(?::[0-9]{{1,5}})?"
                        rf"(?:[/?#]{_URL_CHARS}*)?")
_U_TLD_HIT = re.compile(rf"\.(?:(?:{_trie(_TLDS)})(?!{_U_LABEL}|\.{_U_PART})"
                        rf"|({_U_LETTER}{{2,63}})(?=/[^\s/]))")
_U_HOST_REVERSED = re.compile(rf"{_U_LABEL}+(?:\.{_U_LABEL}+)*")
_U_LOCAL_REVERSED = re.compile(rf"(?:{_U_PART}|[._%+\-]){{1,64}}")
_U_DOMAIN = re.compile(rf"{_U_PART}{_U_LABEL}*(?:\.{_U_LABEL}+)+")
_U_EMAIL_AT = re.compile(rf"@(?<=(?:{_U_PART}|[._%+\-])@)(?={_U_PART}{_U_LABEL}*\.{_U_PART})")
_U_HANDLE = re.compile(rf"@(?<!(?:{_U_PART}|[._%+\-@/:])@)((?:{_U_PART}|[_.])+)")
# Link destinations: a Markdown link's "](", a reference definition's "]:", an autolink
# "<scheme:...>", and an HTML attribute that holds a URL (matched in the lower-cased text).
_MD_TARGET = re.compile(r"\]\([ \t]*\n?[ \t]*")
_MD_REFERENCE = re.compile(r"\]:[ \t]*\n?[ \t]*")
_REFERENCE_LABEL = re.compile(r"[ \t]{0,3}\[[^\]\n^][^\]\n]{0,998}")     # not a footnote [^1]:
_ANGLE_TARGET = re.compile(r"<([^<>\n]*)>")
# A destination as Markdown reads it: no white space, brackets balanced (two deep), a backslash
# escaping the next character.
# (Each branch starts with its own character, so no text is matched two ways.)
_BARE_TARGET = re.compile(r"(?:[^\s()\\]|\\\S|\((?:[^\s()\\]|\\\S|\((?:[^\s()\\]|\\\S)*\))*\))+")
_AUTOLINK = re.compile(r"<([a-z][a-z0-9+.\-]{1,31}:[^\s<>]*)>", re.IGNORECASE)
_URL_ATTRIBUTE = re.compile(r"(?:href|src|srcset|action|formaction|poster|background)"
                            r"[ \t\n]*=[ \t\n]*(?:\"([^\"]*)\"|'([^']*)'|([^\s\"'=<>`]+))")
# Destinations left to other passes: an address (mailto:, judged as an e-mail address), a phone
# number (tel:, sms:, whose digits are judged as a number) and a place on the same page (#...).
_LEFT_TO_OTHERS = re.compile(r"(?i)(?:mailto|tel|sms|callto):|#")
# Resolving a destination as a browser does (the WHATWG URL standard), for special schemes.
_SPECIAL_SCHEMES = frozenset("http https ftp ws wss file".split())
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")
_C0_AND_SPACE = "".join(map(chr, range(0x21)))
_NO_TAB_NEWLINE = str.maketrans("", "", "\t\n\r")
_MD_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
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
        mask = self.mask
        if e > s and mask.count(0, s, e) == e - s:          # self.free(s, e), inlined
            hit = _Hit(kind, s, e)
            hit.normalized = normalized
            mask[s:e] = _LINK_BYTE * (e - s)                # self.claim(hit, _LINK), inlined
            self.hits.append(hit)

    def links(self) -> None:
        text, low = self.text, self.low
        rest = low              # the text outside the absolute URLs, for the tests below
        # ("]" before "](" and "]:": a search for one character, memchr, costs a
        # twentieth of one for two or more)
        if "]" in text and ("](" in text or "]:" in text) or "<" in text:
            self.destinations()
        if "://" in text:
            spans = self.absolute_links()
            if spans:
                # An "@", "/" or "www." inside a URL starts no other link: each would overlap
                # a claimed span. Tested on what lies outside them, joined by spaces.
                rest = " ".join([low[a:b] for a, b in zip((0, *(e for _, e in spans)),
                                                            (*(s for s, _ in spans), len(low)))])
        ascii_text = self.ascii
        if "www." in rest:
            for match in (_WWW_URL if ascii_text else _U_WWW_URL).finditer(low):
                s = match.start()
                if not s or text[s - 1] not in ".@/-" and not _joins(text[s - 1]):
                    self.add_link("url", s, match.end(), "", trim=True)
        if "@" in rest:
            self.at_signs()
        if "." in rest and (_TLD_HIT if ascii_text else _U_TLD_HIT).search(rest) is not None:
            self.hosts()        # (tested outside the URLs: "threads.example/@..." is one)
        if "/" in rest:
            for match in _RELATIVE.finditer(text):
                if any(c.isalpha() for c in match.group()):
                    code = self.code()
                    if code is not None and code.file_path(*match.span()):
                        continue        # "/usr/local/bin/poll" in code: a file, no link
                    self.add_link("url", *match.span(), "", trim=True)

    def hosts(self) -> None:
        """Hosts without a scheme (``_TLD_HIT``), with their port and path. A dot inside a
        link already claimed ("threads.example/@mindthread") is passed over first."""
        text, low, mask = self.text, self.low, self.mask
        hits, reversed_host = (_TLD_HIT, _HOST_REVERSED) if self.ascii else (_U_TLD_HIT,
                                                                             _U_HOST_REVERSED)
        for match in hits.finditer(low):
            dot, e = match.span()
            if mask[dot] or match.group(1) in _FILE_ENDINGS:
                continue
            window = low[max(0, dot - 253):dot][::-1]
            host = reversed_host.match(window)
            if host is None:
                continue
            s = dot - host.end()
            if s and (text[s - 1] in ".@/:-_" or _joins(text[s - 1])):
                continue
            if any(not label or label[0] == "-" or label[-1] == "-"
                   for label in low[s:e].split(".")) or not self.free(s, e):
                continue
            tail = _URL_TAIL.match(text, e)
            end = tail.end() if tail else e
            if end == e and low[s:dot].replace(".", "").isdigit():
                continue    # "el 1.er puesto", "163.com" alone: digits and an ending, no host
            self.add_link("url", s, end, "", trim=True)

    def destinations(self) -> None:
        """Every link destination, claimed whole as one URL: a Markdown inline link's and a
        reference definition's target, an autolink, an HTML href, src, action... A browser
        follows the whole of it, so no part of it is another link ("https:\\\\evil.zip/x",
        "https://shop.example\t.evil.zip"). Its ``normalized`` is where a browser goes
        (``_resolve``); it is judged as written. Each search starts after the last
        destination, so the text is read once."""
        text = self.text
        if "](" in text:
            at = 0
            while (found := _MD_TARGET.search(text, at)) is not None:
                at = self.destination(found.end(), markdown=True)
        if "]:" in text:
            at = 0
            while (found := _MD_REFERENCE.search(text, at)) is not None:
                # its line, read back at most as far as a label may be long (999)
                start = found.start()
                line = text.rfind("\n", max(0, start - 1004), start) + 1
                at = found.end()
                if (line or start <= 1004) and _REFERENCE_LABEL.fullmatch(text, line, start):
                    at = self.destination(at, markdown=True)
        if "<" in text:
            if ":" in text:
                for match in _AUTOLINK.finditer(text):
                    self.add_destination(*match.span(1), markdown=False)
            if "=" in text:
                low = self.low
                for match in _URL_ATTRIBUTE.finditer(low):
                    s = match.start()
                    if s and (low[s - 1].isalnum() or low[s - 1] in "-_"):
                        continue                # data-href=, x_src=: another name
                    group = next(g for g in (1, 2, 3) if match.group(g) is not None)
                    self.add_destination(*match.span(group), markdown=False)

    def destination(self, at: int, markdown: bool) -> int:
        """The Markdown destination starting at ``at`` (in angle brackets, or bare up to a
        space or its closing bracket), claimed; where the next search starts."""
        text = self.text
        if text.startswith("<", at):
            angle = _ANGLE_TARGET.match(text, at)
            if angle is not None:
                self.add_destination(*angle.span(1), markdown=markdown)
                return angle.end()
        bare = _BARE_TARGET.match(text, at)
        if bare is None:
            return at
        self.add_destination(at, bare.end(), markdown=markdown)
        return bare.end()

    def add_destination(self, s: int, e: int, markdown: bool) -> None:
        text = self.text
        while s < e and text[s] in _C0_AND_SPACE:
            s += 1
        while e > s and text[e - 1] in _C0_AND_SPACE:
            e -= 1
        if e > s and not _LEFT_TO_OTHERS.match(text, s) and self.free(s, e):
            hit = _Hit("url", s, e)
            hit.normalized = _resolve(text[s:e], markdown)
            self.claim(hit, _LINK)

    def absolute_links(self) -> list[tuple[int, int]]:
        """URLs with a scheme (https, http, ftp), claimed; their spans as matched. A match is
        tried only where a scheme can end before a "://": 5, 4 or 3 characters before it. The
        link is read from its scheme whatever stands before it: a browser or a chat client
        links "https://..." glued to a word ("请访问https://...", "Visithttps://...").
        (The case-insensitive alternation at the start of ``_ABSOLUTE_URL`` defeats ``re``'s
        prefix search: ``finditer`` would try every position.)"""
        text, spans = self.text, []
        absolute = _ABSOLUTE_URL_ASCII if self.ascii else _ABSOLUTE_URL
        end = 0
        at = text.find("://")
        while at >= 0:
            if at and text[at - 1] in _SCHEME_LAST:
                for start in (at - 5, at - 4, at - 3):
                    if start >= end and start >= 0:
                        match = absolute.match(text, start)
                        if match:
                            end = match.end()
                            spans.append((start, end))
                            self.add_link("url", start, end, "", trim=True)
                            break
            # the next match starts at ``end`` or later, so its "://" is at least 3 further
            at = text.find("://", max(at, end + 2) + 1)
        return spans

    def at_signs(self) -> None:
        """E-mail addresses, then @handles, at each '@'."""
        text, ascii_text = self.text, self.ascii
        email_at, local_reversed, domain_at, handle_at = (
            (_EMAIL_AT, _LOCAL_REVERSED, _DOMAIN, _HANDLE) if ascii_text else
            (_U_EMAIL_AT, _U_LOCAL_REVERSED, _U_DOMAIN, _U_HANDLE))
        for match in email_at.finditer(text):
            at = match.start()
            if not self.mask[at]:
                local = local_reversed.match(text[max(0, at - 64):at][::-1])
                domain = domain_at.match(text, at + 1)
                if local and domain:
                    self.email(at - local.end(), at, domain)
        for match in handle_at.finditer(text):
            name = match.group(1).rstrip(".")
            if len(name) < 2 or not any(c.isalpha() or c == "_" for c in name):
                continue
            s, e = match.start(), match.start(1) + len(name)
            if self.mask[s]:
                continue        # inside an ssh address claimed as a link
            code = self.code()
            if code is not None and code.code_handle(s, e):
                continue        # a decorator or a command's @file in code: no handle
            # case-folded beyond ASCII ("@STRAẞE" is "@strasse"), as the sweep compares them
            self.add_link("handle", s, e, "@" + (name.lower() if ascii_text else name.casefold()))

    def email(self, s: int, at: int, domain: re.Match) -> bool:
        text = self.text
        if s > 0 and (_joins(text[s - 1]) or text[s - 1] in "._%+-"):
            return False                    # the local part is longer than 64 characters
        while s < at and not text[s].isalnum():
            s += 1
        labels = domain.group().split(".")
        while len(labels) > 1 and not _is_ending(labels[-1]):
            labels.pop()
        if s >= at or len(labels) < 2 or not all(labels) or text[at - 1] == ".":
            return False
        e = at + 1 + len(".".join(labels))
        remote = _REMOTE_PATH.match(text, e)
        scheme = _SCHEME_BEFORE.search(text, max(0, s - 12), s)
        if remote is not None or scheme is not None:
            # "git@github.com:acme/sdk.git", "ssh://git@host/x.git": a repository's address,
            # judged as a link of the evidence, not as an e-mail address
            start = scheme.start() if scheme is not None else s
            end = remote.end() if remote is not None else _URL_TAIL.match(text, e).end()
            self.add_link("url", start, end, "", trim=True)
            return True
        address = text[s:e]
        self.add_link("email", s, e, address.lower() if address.isascii() else address.casefold())
        return True


def _joins(char: str) -> bool:
    """Whether ``char`` before an address, a handle or a host makes it part of a longer word: a
    letter or a digit, not of a script written without spaces (``_UNSPACED``)."""
    return char.isalnum() if char.isascii() else _U_JOINS.match(char) is not None


def _is_ending(label: str) -> bool:
    """Whether ``label`` can end a domain: two letters or more (marks with their letters)."""
    if label.isascii():
        return label.isalpha() and len(label) >= 2
    return _U_LETTERS.fullmatch(label) is not None


def _resolve(target: str, markdown: bool) -> str:
    """Where a browser goes for a link destination (the WHATWG URL standard, without a base):
    Markdown's backslash escapes undone, C0 controls and spaces stripped at both ends, tabs and
    newlines dropped; for http(s), ftp, ws(s) and file a backslash is a slash and the host
    comes after any number of slashes, none too ("https:evil.zip/x", "https:\\\\evil.zip");
    a destination that starts with two slashes or backslashes ("//host", "\\\\host") is
    https. Other destinations (a relative path, another scheme) as written."""
    url = _MD_ESCAPE.sub(r"\1", target) if markdown and "\\" in target else target
    url = url.strip(_C0_AND_SPACE).translate(_NO_TAB_NEWLINE)
    scheme = _SCHEME.match(url)
    if scheme is not None and scheme.group(1).lower() in _SPECIAL_SCHEMES:
        name, rest = scheme.group(1).lower(), url[scheme.end():]
    elif scheme is None and url[:1] in "/\\" and url[1:2] in "/\\" and url[:2]:
        name, rest = "https", url
    else:
        return url
    return _normalize_url(f"{name}://{rest.replace(chr(92), '/').lstrip('/')}")


def _normalize_url(url: str) -> str:
    if url.startswith("/"):
        return url
    lowered = url.lower()
    if lowered == url:
        return url                          # nothing to lower-case (most URLs)
    # scheme and host (up to the first / ? or # after the first "://") lower-cased
    cut = _URL_HEAD.match(url).end()
    return url[:cut].lower() + url[cut:]
