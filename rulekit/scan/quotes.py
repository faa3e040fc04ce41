"""Quotes: one pattern per family of quote marks, so that families nest; and which mentions
lie inside a quote."""

from __future__ import annotations

import operator
import re

from rulekit.scan.base import _Hit
from rulekit.scan.code import fenced_blocks
from rulekit.scan.reader import _squash_clean

_START = operator.attrgetter("s")
_BLANK_LINE = re.compile(r"\n[ \t\r\u00a0]*\n")
# (opening marks, the pattern of a pair), one per family of marks. A straight quote right
# after a digit does not open (12" is an inch mark); ‘ right after a letter does not either.
_QUOTE_PATTERNS = tuple((marks, re.compile(pattern)) for marks, pattern in (
    ('"', r'"(?<![0-9]")[^"]*"'),
    ("\u201c", r"\u201c[^\u201c\u201d]*\u201d"),                       # “…”
    # „…“ „…” ⹂…“, and „…" with a straight closer (a keyboard's German quote) when no curly
    # one closes it ('„Er sagte "Hallo"“' is one quote)
    ("\u201e\u2e42", r"[\u201e\u2e42](?:[^\u201e\u2e42\u201c\u201d]*[\u201c\u201d]"
                     r"|[^\u201e\u2e42\u201c\u201d\"]*\")"),
    ("\u201f", r"\u201f[^\u201f\u201c\u201d]*[\u201d\u201c]"),                 # ‟…”
    ("\u201d", r"\u201d[^\u201c\u201d\u201e]*\u201d"),                 # ”…” (Swedish)
    ("\u00ab\u00bb", r"\u00ab[^\u00ab\u00bb]*\u00bb|\u00bb[^\u00ab\u00bb]*\u00ab"),   # «…» »…«
    ("\u2039\u203a", r"\u2039[^\u2039\u203a]*\u203a|\u203a[^\u2039\u203a]*\u2039"),   # ‹…› ›…‹
    ("\u300c", r"\u300c[^\u300c\u300d]*\u300d"),                       # 「…」
    ("\u300e", r"\u300e[^\u300e\u300f]*\u300f"),                       # 『…』
    ("\u2018", r"\u2018(?<![A-Za-z0-9]\u2018)[^\u2018\u2019]*\u2019"),   # ‘…’
    ("\u201a", r"\u201a[^\u201a\u2018\u2019]*[\u2018\u2019]"),             # ‚…‘
    ("\u201b", r"\u201b[^\u201b\u2018\u2019]*[\u2019\u2018]"),             # ‛…’
    ("\u275d", r"\u275d[^\u275d\u275e]*\u275e"),                       # ❝…❞ (ornaments)
    ("\u275b", r"\u275b[^\u275b\u275c]*\u275c"),                       # ❛…❜
    ("\U0001f676\U0001f678", r"[\U0001f676\U0001f678][^\U0001f676\U0001f677\U0001f678]*\U0001f677"),
    ("\u276e\u276f", r"\u276e[^\u276e\u276f]*\u276f|\u276f[^\u276e\u276f]*\u276e"),   # ❮…❯ ❯…❮
    ("\u301d", r"\u301d[^\u301d\u301e\u301f]*[\u301e\u301f]"),             # 〝…〞 〝…〟
    # Marks that are not quote marks first: the ditto mark 〃 (a table's "same as above") and
    # the double prime ″ (seconds, inches; read as two primes ′′ after NFKC) open only before a
    # non-space and close only after one, on one line, and ′′ not after a digit (12″ is an
    # inch mark); the double acute accent ˝ (read as a space and U+030B) the same.
    ("\u3003", r"\u3003(?=[^\s\u3003|])[^\u3003\n]*(?<=[^\s|])\u3003"),      # 〃…〃
    ("\u2032", r"\u2032\u2032(?<![0-9]\u2032\u2032)(?=[^\s\u2032])[^\u2032\n]*"
                r"(?<=[^\s\u2032])\u2032\u2032"),                          # ″…″
    ("\u030b", r" \u030b(?=[^\s\u030b])[^\u030b\n]* \u030b"),                # ˝…˝
    # '…' (straight single quotes), where a ' is far more often an apostrophe: it opens only
    # after a space, a line start, a bracket or a colon and before a non-space that is not a
    # digit (Q3 '26 is a year), and closes
    # only after a non-space and before no letter or digit; inside, a ' before a letter is an
    # apostrophe (doesn't, O'Brien).
    ("'", r"'(?<![^\s(\[:\u2014]')(?=[^\s'0-9])(?:[^'\n]|'(?=[A-Za-z]))*?(?<=[^\s'])'(?![\w])"),
))

# Verbs of saying around a short quote (see ``_Quotes.attributed``), in the lower-cased text.
_SAID = (r"(?:said|says|say|wrote|writes|write|replied|replies|commented|comments|tweeted|"
         r"posted|posts|exclaimed|added|asked|answered|told|called|calls|described|put it|"
         r"in (?:his|her|their|my|your|our) words)")
# What a verb of saying says of: called *it* "Wow", put *it as* "...".
_SAID_OBJECT = r"(?: (?:it|him|her|them|us|me|you|this|that)(?: as)?)?"
_SAID_BEFORE = re.compile(rf"(?:(?<![\w-]){_SAID}{_SAID_OBJECT}"
                          r"[ \t\u00a0]*[,:]?|[:\uff1a]|(?:说|說|道|表示|写道|寫道)[:\uff1a]?)"
                          r"[ \t\u00a0]*\Z")
# After: "Wow," she said / "Wow", the reviewer wrote: punctuation closes the quoted words.
_SAID_AFTER = re.compile(rf"(?<=[,!?.][\"'\u201d\u2019\u00bb\u300d\u300f])[ \t\u00a0]+"
                         rf"(?:[\w@.'-]+[ \t\u00a0]+){{0,2}}?{_SAID}\b"
                         rf"|,[ \t\u00a0]+(?:[\w@.'-]+[ \t\u00a0]+){{0,2}}?{_SAID}\b")

# LaTeX-style ``...'': two marks each side, so not one of the families above.
_LATEX_QUOTE = re.compile(r"``(?=[^\s`'])(?:[^`'\n]|'(?!'))*''")

# Markdown used as quote marks: a blockquote line ("> ...") or an emphasis ("*...*", "**...**",
# "_..._", or a code span after a verb of saying) counts as a quote only when introduced as someone's words (``_introduced``): a bare
# "> Note: ..." is a chat answer's own aside, and "Price: **$79**" its own label, so their
# figures stay the answer's, judged one by one.
_BLOCKQUOTE = re.compile(r"(?m)^[ \t]{0,3}>[ \t>]*")
_EMPHASIS = re.compile(r"(?<![*_`\w])(\*\*|\*|__|_|`)(?=[^\s*_`])([^*_`\n]*[^\s*_`])\1"
                       r"(?![*_`\w])")
# The introduction, at the end of the text before: a verb of saying (with what it says of and
# a colon), "a review:" or "reviews:", or a name and a colon at the start of its line ("Dana:",
# "Sam K.:", "@sam_k:", bold or in a list item). Matched in the lower-cased text, except the
# name (capitalised, in the text).
_SAID_INTRO = re.compile(rf"(?<![\w-]){_SAID}{_SAID_OBJECT}[ \t\u00a0]*[,:\uff1a]?[ \t\u00a0]*\Z"
                         r"|(?<![\w-])(?:reviews?|comments?|feedback|testimonials?)"
                         r"[ \t\u00a0]*[:\uff1a][ \t\u00a0]*\Z")
_NAME_INTRO = re.compile(r"(?:^|(?<=\n))[ \t]{0,3}(?:[-*+][ \t]+)?(?:\*\*|__)?"
                         r"(?P<name>@[\w.]{1,30}|[A-Z][\w'.\-]{0,30}(?:[ \t][A-Z][\w'.\-]{0,30}){0,2})"
                         r"(?:\*\*|__)?[ \t]*:(?:\*\*|__)?[ \t]*\Z")
# The words an emphasis of a figure may hold besides digits ("**June 28, 2026**", "**4.5 out
# of 5 stars**"): it is then that figure, not someone's words.
_FIGURE_WORDS = frozenset("""january february march april may june july august september october
    november december jan feb mar apr jun jul aug sep sept oct nov dec star stars out of points
    pts rating ratings reviews""".split())
# Labels an answer writes before its own words ("Note:", "Price: **$79**"), never names.
_LABELS = frozenset("note notes tip tips warning important summary update example answer status "
                    "price total reminder disclaimer caution fyi ps p.s. verdict result results "
                    "details reason why how what q a question bottom line pro tip heads up tl;dr "
                    "in short step shipping delivery returns return refund refunds "
                    "availability stock size sizing fit material care pros cons recommendation "
                    "rating score subtotal cost discount offer deal sale hours address phone "
                    "contact location source sources hint highlights takeaway conclusion "
                    "overview description features specs dimensions weight color colour "
                    "option options alternative suggestion advice monday tuesday wednesday "
                    "thursday friday saturday sunday today tomorrow".split())

# HTML quote elements, matched in the lower-cased text. The inner text holds no opening or
# closing tag of the same element, so an unclosed one costs one scan to the next.
_HTML_Q = re.compile(r"<q(?:[ \t\n][^<>]{0,200})?>((?:[^<]|<(?!/?q[\s>]))*)</q>")
_HTML_BLOCKQUOTE = re.compile(r"<blockquote(?:[ \t\n][^<>]{0,200})?>"
                              r"((?:[^<]|<(?!/?blockquote[\s>]))*)</blockquote>")
_TAG = re.compile(r"<[^<>\n]{0,200}>")
# A verb of saying right before a code span without a colon ("Dana said `...`"). "calls" and
# "posts" name what code does ("it calls `save`"): they need an object ("called it `meh`").
_SAID_CODE = re.compile(rf"(?<![\w-])(?:(?!call|post){_SAID}|(?:called|calls|posted|posts)"
                        rf"(?= (?:it|him|her|them|this|that)\b)){_SAID_OBJECT}"
                        r"[ \t\u00a0]*,?[ \t\u00a0]*\Z")

# The marks of string literals: a pair of them inside code is no quote (``rulekit.scan.code``).
_CODE_MARKS = frozenset({'"', "'"})
# Marks that NFKC turns into two characters: ″ into ′′, ˝ into a space and U+030B.
_MARK_WIDTH = {"\u2032": 2, "\u030b": 2}
_ANY_MARK = re.compile("[" + "".join(marks for marks, _ in _QUOTE_PATTERNS) + "]")
assert all(len(marks) <= 2 for marks, _ in _QUOTE_PATTERNS)


class _Quotes:
    """Quote pairs; a part of ``_Scanner``."""

    def find_quotes(self) -> None:
        """Quote pairs, one pattern per family of marks, so that pairs of different families
        nest (“He said ‘never again’”). Within a family the innermost pair wins and an
        unclosed mark pairs with nothing; a quote that spans a blank line is not a quote."""
        text = self.text
        if ">" in text:
            self.blockquotes()
        if "*" in text or "_" in text or "`" in text:
            self.emphasis_quotes()
        low = self.low
        # (each search of several characters behind one for a character of it: a search
        # for one character, memchr, costs a twentieth of one for two or more)
        if "<" in low and ("<q" in low or "<blockquote" in low):
            self.html_quotes()
        if "`" in text and "```" in text or "~" in text and "~~~" in text:
            self.fenced_quotes()
        if "`" in text and "``" in text:
            for match in _LATEX_QUOTE.finditer(text):
                self.add_quote(*match.span(), marks=2)
        # The ASCII marks are '"' and "'": in an ASCII text two substring tests decide;
        # otherwise one C-level pass over the marks.
        if ('"' not in text and "'" not in text) if self.ascii \
                else _ANY_MARK.search(text) is None:
            return
        for marks, pattern in _QUOTE_PATTERNS:
            if marks[0] not in text and (len(marks) == 1 or marks[1] not in text):
                continue
            code = self.code() if marks in _CODE_MARKS else None
            for match in pattern.finditer(text):
                if "\n" in match.group() and _BLANK_LINE.search(match.group()):
                    continue
                s = match.start()
                if "=" in text[max(0, s - 2):s] and text[s] in "\"'":
                    continue            # an HTML attribute's value (href="..."), no quotation
                if code is not None and code.region(s, match.end()) is not None:
                    continue            # a string literal in code ("-H \"Accept: ...\"")
                self.add_quote(*match.span(), marks=_MARK_WIDTH.get(marks, 1))

    def add_quote(self, s: int, e: int, marks: int = 1) -> None:
        inner = self.text[s + marks:e - marks]
        squashed = _squash_clean(inner)
        if len(squashed) >= 6 or len(inner.split()) >= 2 or (
                squashed and self.attributed(s, e)):
            self.quote_hit(s, e, squashed)

    def quote_hit(self, s: int, e: int, squashed: str) -> None:
        hit = _Hit("quote", s, e)
        hit.normalized = squashed
        self.quotes.append(hit)

    def html_quotes(self) -> None:
        """An HTML <q> element is a quote, like quotation marks; a <blockquote> element is one
        when introduced as someone's words, like a Markdown blockquote. Their tags (<p>, <em>)
        are not their words."""
        low = self.low
        if "<q" in low:
            for match in _HTML_Q.finditer(low):
                s, e = match.span()
                inner = _TAG.sub("", self.text[match.start(1):match.end(1)])
                if _BLANK_LINE.search(inner):
                    continue
                squashed = _squash_clean(inner)
                if len(squashed) >= 6 or len(inner.split()) >= 2 or (
                        squashed and self.attributed(s, e)):
                    self.quote_hit(s, e, squashed)
        if "<blockquote" in low:
            for match in _HTML_BLOCKQUOTE.finditer(low):
                s = match.start()
                inner = _TAG.sub(" ", self.text[match.start(1):match.end(1)]).strip()
                # "<blockquote>Dana: ...</blockquote>", "<blockquote>... — Dana</blockquote>":
                # introduced inside, by its first words or its last
                head = _head(inner)
                attribution = _ATTRIBUTION.search(inner, max(0, len(inner) - 80))
                if attribution is not None:
                    inner = inner[:attribution.start()]
                squashed = _squash_clean(inner[head:])
                if squashed and (head or attribution or self.introduced_block(s)):
                    self.quote_hit(s, match.end(), squashed)

    def fenced_quotes(self) -> None:
        """A fenced code block (```) after a verb of saying is a quote, like a code span: from
        its opening fence to its closing one; its words are the lines between."""
        for opening, closing in fenced_blocks(self.text):
            if closing is None:
                continue
            squashed = _squash_clean(self.text[opening.end():closing.start()])
            if squashed and self.introduced_block(opening.start()) == "said":
                self.quote_hit(opening.start(1), closing.end(), squashed)

    def introduced_block(self, s: int) -> str:
        """``introduced`` for a block starting at s: the text before it on its line, or when
        none, the last non-blank line before it (read back at most 400 characters)."""
        text = self.text
        line = text.rfind("\n", 0, s) + 1
        if text[line:s].strip():
            return self.introduced(line, s)
        start = max(0, line - 400)
        before = text[start:line].rstrip()
        if not before:
            return ""
        return self.introduced(start + before.rfind("\n") + 1, start + len(before))

    def blockquotes(self) -> None:
        """Each line of a Markdown blockquote introduced as someone's words (``introduced``,
        on the last line before the block) is a quote: from its ">" to its last non-space."""
        text = self.text
        block_end, block_quoted = -1, False
        for match in _BLOCKQUOTE.finditer(text):
            s = match.start()
            line_end = text.find("\n", s)
            if line_end < 0:
                line_end = len(text)
            if block_end < 0 or text[block_end:s].strip():
                # a new block: its introduction is the last non-blank line before it (read in a
                # bounded window: copying all the text before each block was quadratic)
                block_quoted = bool(self.introduced_block(s))
                # or an attribution after it: "> It leaks. — Dana", a last line "— Dana"
                block_quoted = block_quoted or _attributed_block(text, s)
                # or a name that opens it: "> Dana: ...", "> Dana wrote: ..." (not the quote's
                # words, also in a block introduced as quotes: "### Comments", "Comments:")
                head = _head(text[match.end():line_end])
                block_quoted = block_quoted or head > 0
            else:
                head = 0
            block_end = line_end
            content = text[match.end() + head:line_end].rstrip()
            attribution = _ATTRIBUTION.search(content) if block_quoted else None
            if attribution is not None:
                content = content[:attribution.start()].rstrip()    # "... — Dana" is not Dana's
            if head and content[:1] in _OPENING_MARKS and content[-1:] in _CLOSING_MARKS:
                continue    # "> Dana wrote: "..."": the quote in its marks is read as one
            if block_quoted and content:
                self.quote_hit(text.index(">", s), match.end() + head + len(content),
                               _squash_clean(content))

    def emphasis_quotes(self) -> None:
        """An emphasis right after an introduction and a colon on its line ("Dana wrote:
        *...*", "Dana: *...*") is a quote; without the colon it is stress ("I'd say *yes*").
        After a single word and a colon it may be a label's value ("Status: *out for
        delivery*"): the sweep keeps it a quote only when the word names an author of the
        evidence (``rulekit.sweep._label_emphasis``). A code span (`...`) counts only after a
        verb of saying, with or without a colon ("Dana wrote: `...`", "Dana said `...`"), not
        after "Command:"."""
        text = self.text
        for match in _EMPHASIS.finditer(text):
            s = match.start()
            line = text.rfind("\n", 0, s) + 1
            if s - line > 200 or text[line:s].rstrip(" \t*_")[-1:] not in (":", "\uff1a"):
                if match.group(1) == "`" and _SAID_CODE.search(self.low, max(line, s - 40), s):
                    self.quote_hit(s, match.end(), _squash_clean(match.group(2)))
                continue
            content = match.group(2)
            if any(char.isdigit() for char in content) and all(
                    word.strip(".,!?").lower() in _FIGURE_WORDS
                    for word in content.split() if any(c.isalpha() for c in word)):
                continue        # "Latest review: **June 28, 2026**", "**2 stars**": a figure
            said = self.introduced(line, s)
            if said == "name" and match.group(1) == "`":
                continue        # a code span is a quote only after a verb of saying
            if said:
                self.quote_hit(s, match.end(), _squash_clean(content))

    def introduced(self, s: int, e: int) -> str:
        """How text[s:e] (the start of a line up to a quote) introduces someone's words:
        "said" (a verb of saying or "a review:" at its end), "name" (only a name and a colon,
        "Dana:"), or "" (it does not)."""
        if e - s > 200:
            s = e - 200
        if _SAID_INTRO.search(self.low, s, e):
            return "said"
        found = _NAME_INTRO.search(self.text, s, e)
        if found and found.group("name").lower().rstrip(".") not in _LABELS:
            return "name"
        return ""

    def attributed(self, s: int, e: int) -> bool:
        """Whether a short quote is presented as someone's words: a verb of saying just before
        it (she called it "Wow", he wrote: "No") or just after it ("Wow," she said). A short
        quote without one is a term or a scare quote (the "Pro" plan), not a citation."""
        low = self.low
        return _SAID_BEFORE.search(low, max(0, s - 40), s) is not None \
            or _SAID_AFTER.match(low, e) is not None


# The marks a quote opens and closes with, on a blockquote's line after its author's name.
_OPENING_MARKS = frozenset('"\u201c\u201e\u00ab\u300c')
_CLOSING_MARKS = frozenset('"\u201d\u00bb\u300d')

# An attribution that ends a blockquote: "— Dana", "-- Dana K., verified buyer", "~ @sam".
_ATTRIBUTION = re.compile(r"(?:^|[ \t])(?:[\u2014\u2013]|--|~)[ \t]*(?:@[\w.]{1,30}|"
                          r"[A-Z][\w'.\-]{0,30}(?:[ \t][A-Z][\w'.\-]{0,30}){0,2})"
                          r"(?:,[ \t]*[^\n]{0,40})?[ \t]*\Z")


# A name (with a verb of saying, maybe) and a colon that open a blockquote: "Dana:", "**Dana
# K.:**", "Dana wrote:". A label of the answer's own ("Note:", "Shipping:") is no name.
_HEAD = re.compile(r"[ \t]*(?:\*\*|__)?(?P<name>@[\w.]{1,30}|[A-Z][\w'.\-]{0,30}"
                   r"(?:[ \t][A-Z][\w'.\-]{0,30}){0,2})"
                   rf"(?P<said>[ \t]+(?i:{_SAID}){_SAID_OBJECT})?"
                   r"(?:\*\*|__)?[ \t]*[:\uff1a](?:\*\*|__)?[ \t]*(?=\S)")


def _head(content: str) -> int:
    """The length of the name and colon that open a blockquote's first line (``_HEAD``), or 0
    when it opens with none or with a label."""
    found = _HEAD.match(content)
    if found is None:
        return 0
    words = found.group("name").lower().rstrip(".").split()
    if not found.group("said") and (words[0] in _LABELS or words[-1] in _LABELS):
        return 0
    return found.end()


def _attributed_block(text: str, s: int) -> bool:
    """Whether the blockquote starting at s ends with an attribution, on its last line or on
    the line right after it ("> It leaks everywhere. — Dana"). Reads at most 40 lines."""
    at, lines = s, 0
    while lines < 40:
        end = text.find("\n", at)
        line = text[at:end if end >= 0 else len(text)].rstrip()
        if not line.lstrip(" \t").startswith(">"):
            return bool(line) and _ATTRIBUTION.match(line.lstrip(" \t")) is not None \
                and _ATTRIBUTION.match(line.lstrip(" \t")).end() == len(line.lstrip(" \t"))
        if _ATTRIBUTION.search(line, max(0, len(line) - 80)) and (
                end < 0 or not text[end + 1:end + 2] == ">"):
            return True
        if end < 0:
            return False
        at, lines = end + 1, lines + 1
    return False


def _covered(hits: list[_Hit], quotes: list[_Hit]) -> set[int]:
    """ids of the hits inside some quote."""
    merged: list[list[int]] = []
    for s, e in sorted((q.s, q.e) for q in quotes):
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    inside = set()
    at = 0
    for hit in sorted(hits, key=_START):
        while at < len(merged) and merged[at][1] <= hit.s:
            at += 1
        if at < len(merged) and merged[at][0] <= hit.s and hit.e <= merged[at][1]:
            inside.add(id(hit))
    return inside


def _nested(quotes: list[_Hit]) -> set[int]:
    """ids of the quotes inside another quote (quotes nest or are disjoint)."""
    inside, reach = set(), -1
    for quote in sorted(quotes, key=lambda q: (q.s, -q.e)):
        if quote.e <= reach:
            inside.add(id(quote))
        reach = max(reach, quote.e)
    return inside
