"""What the reader sees: ``clean`` (HTML references decoded, NFKC, format characters and other
characters that show nothing dropped,
group spaces unified, digits of any script as ASCII, other number characters by their value
(➎ 5, Ⅻ 12), emphasis inside numbers dropped, markup between digits dropped (inline HTML tags
and comments, paired emphasis and code marks, a backslash), O between digits read as 0,
underscore emphasis read as asterisks) with the map of each cleaned index
back to the original, and ``squash``, the form quoted text is compared in."""

from __future__ import annotations

import fractions
import functools
import html
import itertools
import re
import unicodedata

# Every Cf character (checked against unicodedata in the tests), the soft hyphen among them.
_FORMAT_CHARS = ("\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f"
                 "\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd"
                 "\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
                 "\U000e0001\U000e0020-\U000e007f")
# Every character of Unicode's No and Nl (numbers that are no decimal digit: ➎ ⓿ ❺ ➓ Ⅻ 〥 ፭
# ㊄ ½ ²), but the ideographic zero 〇, which the CJK reader reads (checked against unicodedata in
# the tests).
_NUMBER_CHARS = ("\u00b2\u00b3\u00b9\u00bc-\u00be\u09f4-\u09f9\u0b72-\u0b77\u0bf0-\u0bf2\u0c78-\u0c7e"
                 "\u0d58-\u0d5e\u0d70-\u0d78\u0f2a-\u0f33\u1369-\u137c\u16ee-\u16f0\u17f0-\u17f9\u19da"
                 "\u2070\u2074-\u2079\u2080-\u2089\u2150-\u2182\u2185-\u2189\u2460-\u249b\u24ea-\u24ff"
                 "\u2776-\u2793\u2cfd\u3021-\u3029\u3038-\u303a\u3192-\u3195\u3220-\u3229\u3248-\u324f"
                 "\u3251-\u325f\u3280-\u3289\u32b1-\u32bf\ua6e6-\ua6ef\ua830-\ua835"
                 "\U00010107-\U00010133\U00010140-\U00010178\U0001018a\U0001018b\U000102e1-\U000102fb"
                 "\U00010320-\U00010323\U00010341\U0001034a\U000103d1-\U000103d5\U00010858-\U0001085f"
                 "\U00010879-\U0001087f\U000108a7-\U000108af\U000108fb-\U000108ff\U00010916-\U0001091b"
                 "\U000109bc\U000109bd\U000109c0-\U000109cf\U000109d2-\U000109ff\U00010a40-\U00010a48"
                 "\U00010a7d\U00010a7e\U00010a9d-\U00010a9f\U00010aeb-\U00010aef\U00010b58-\U00010b5f"
                 "\U00010b78-\U00010b7f\U00010ba9-\U00010baf\U00010cfa-\U00010cff\U00010e60-\U00010e7e"
                 "\U00010f1d-\U00010f26\U00010f51-\U00010f54\U00010fc5-\U00010fcb\U00011052-\U00011065"
                 "\U000111e1-\U000111f4\U0001173a\U0001173b\U000118ea-\U000118f2\U00011c5a-\U00011c6c"
                 "\U00011fc0-\U00011fd4\U00012400-\U0001246e\U00016b5b-\U00016b61\U00016e80-\U00016e96"
                 "\U0001d2e0-\U0001d2f3\U0001d360-\U0001d378\U0001e8c7-\U0001e8cf\U0001ec71-\U0001ecab"
                 "\U0001ecad-\U0001ecaf\U0001ecb1-\U0001ecb4\U0001ed01-\U0001ed2d\U0001ed2f-\U0001ed3d"
                 "\U0001f100-\U0001f10c")
# The default-ignorable characters that are not Cf (Unicode's Default_Ignorable_Code_Point,
# assigned, minus Cf): variation selectors, the combining grapheme joiner, Mongolian free
# variation selectors, Khmer inherent vowels, Hangul fillers. A renderer shows nothing for them,
# so "12<U+FE0F>96" is 1296 (probe fuzz f3); they are dropped like the format characters.
_IGNORABLE_CHARS = ("\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180d\u180f\u3164\ufe00-\ufe0f"
                    "\uffa0\U000e0100-\U000e01ef")
# The keycap that encloses a digit ("1️⃣" is 1, U+FE0F, U+20E3) shows the digit: dropped too, so
# "1️⃣2️⃣" is 12 (a keycap alone before a line's text is a list marker: ``sweep_codes.list_marker``).
_KEYCAP = "\u20e3"
_GROUP_SPACES = "\u00a0\u2007\u2008\u2009\u200a\u202f"
_NBSP = "\u00a0"
_SEPARATORS = ".,'\u00a0\u2019\u02bc\u066b\u066c"
_SIGNS = "+-\u2212"

# Pass 1 changes only HTML character references and runs of non-ASCII characters (a run that
# starts with a combining mark takes the character before it along).
_REFERENCE = re.compile(r"&(?:#[0-9]{1,7};?|#[xX][0-9a-fA-F]{1,6};?|[A-Za-z][A-Za-z0-9]{1,31};)")
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")
_NEEDS_WORK = re.compile(rf"[\d{_FORMAT_CHARS}{_IGNORABLE_CHARS}{_KEYCAP}{_GROUP_SPACES}"
                         rf"{_NUMBER_CHARS}]")
_IGNORABLE = re.compile(f"[{_IGNORABLE_CHARS}{_KEYCAP}]")
# Pass 2, on digits already ASCII: Markdown emphasis next to a separator, a sign or a currency
# sign inside a number (**1**,299, 1,**299**, -**5**), and a capital O between digits.
_EMPHASIS = re.compile(rf"[0-9](?:([*_]{{1,3}})[{_SEPARATORS}]([*_]{{0,3}})"
                       rf"|[{_SEPARATORS}]([*_]{{1,3}}))(?=[0-9])")
_SIGN_EMPHASIS = re.compile(r"[+\-\u2212$\u00a3\u00a5\u20ac\u20b9]([*_]{1,3})(?=[0-9])")
# Markup a reader does not see between the digits of one number, which a renderer shows as one
# number: "$5<b>00</b>", "$5<!-- -->00", "$5<wbr>00", "$5<sup>00</sup>" (read as displayed,
# 500, not as cents), a backslash ("5\00", "5\.00") and an empty strikethrough ("5~~~~00")
# after a digit or a currency sign and before a digit (or a separator and a digit). Inline tags
# only: a cell, a line break or a paragraph ends the number ("5</td><td>0", "5<br>0"). Tags on
# both sides of one decimal separator join too ("$<span>49</span>.<span>99</span>",
# "$49.<span>99</span>" are 49.99): the second branch, the separator kept. Tag names in any
# case, as HTML reads them ("<B>", "<Span>", "<WBR>"), and the empty comments "<!-->",
# "<!--->" (a browser ends a comment there).
_INLINE_TAG = (r"<(?:/?(?i:a|abbr|b|bdi|big|cite|code|data|dfn|em|font|i|ins|kbd|mark|q|samp|"
               r"small|span|strong|sub|sup|time|tt|u|var|wbr)(?![\w-])[^<>]{0,200}"
               r"|!--(?:-?|[^>]{0,200}?--))>")
_JOINED = re.compile(rf"[0-9$\u00a3\u00a5\u20ac\u20b9]((?:{_INLINE_TAG}|\\(?=[.,]?[0-9])|~~~~)+)"
                     rf"(?=[.,]?[0-9])|[0-9]((?:{_INLINE_TAG})*)[.,]((?:{_INLINE_TAG})+)(?=[0-9])")
# A pair of emphasis, code or strikethrough marks around digits glued to more digits ("5*00*",
# "**5**00", "5`00`", "5~~00~~"): the marks are dropped. A single mark is left ("2*3").
_PAIRED = re.compile(r"[0-9](\*{1,3}|~~|`{1,2})[0-9][0-9.,]{0,60}(\1)"
                     r"|(\*{1,3}|~~|`{1,2})[0-9][0-9.,]{0,60}?(\3)(?=[0-9])")
_DIGIT_O = re.compile(r"[0-9](O+)(?=[0-9])")
# Capital Os ending a number that no letter or digit touches, after two digits or more or two
# or more of them ("$299O", "1,29O", "2OOO"): the zeros they look like. "B52O", "A10O" (a word
# before) and "5O" stay as written.
_TRAILING_O = re.compile(r"(?<![\w.,])[0-9](?:[0-9.,]*[0-9](O+)|(OO+))(?![\w])")
# A lower-case l or a capital I right after a currency sign, before digits ("$l,299", "$I,299",
# "€l.5"): the one it looks like.
_CURRENCY_ONE = re.compile("[$\u00a3\u20ac\u00a5]([lI])(?=[.,]?[0-9])")
# Markdown emphasis with underscores around words ("_July 2_", "__9 pm__") reads as if written
# with asterisks: an underscore is a word character, so "_July 2_" would hide the date from
# every pattern that wants a word to end. An opener follows the start, a space, an opening
# bracket or quote or an asterisk (``_UNDERSCORE_BEFORE``, checked after the match, so that the
# pattern starts with its literal) and a closer of the same length ends the run before a space
# or punctuation, on the same line, with no underscore between: snake_case, "_private_var" and
# "a=_x_" in a link are left alone.
_UNDERSCORE_EMPHASIS = re.compile(r"(_{1,3})(?=[^\s_])[^_\n]{0,200}(?<=[^\s_])(\1)"
                                  r"(?![^\s.,;:!?)\]}*\"'\u201d\u2019\u00bb])")
_UNDERSCORE_BEFORE = frozenset(" \t\n\r\u00a0([{*\"'\u201c\u2018\u00ab")

_CHAR_CACHE: dict[str, str] = {}


def _char(char: str) -> str:
    """What one character (or one character with its combining marks) reads as."""
    out = _CHAR_CACHE.get(char)
    if out is None:
        if len(char) > 1:
            out = "".join(_one_char(c) for c in unicodedata.normalize("NFKC", char))
            if out[:1].isdigit() and out[:1].isascii():
                out = out[0]                # an accent on a digit ("12\u0301 96") is no gap
        else:
            out = _one_char(char)
        if len(_CHAR_CACHE) < 65536:
            _CHAR_CACHE[char] = out
    return out


def _one_char(char: str) -> str:
    if char in _GROUP_SPACES:
        return _NBSP
    category = unicodedata.category(char)
    if category == "Cf" or _IGNORABLE.match(char):
        return ""
    digit = unicodedata.decimal(char, None)
    if digit is not None:
        return str(digit)
    out = unicodedata.normalize("NFKC", char)
    if category in ("No", "Nl") and char != "\u3007" and not _ASCII_DIGIT.search(out):
        return _numeric(char)
    if out != char and not out.isascii():
        out = "".join(c if c == char else _one_char(c) for c in out)
    return out


_ASCII_DIGIT = re.compile("[0-9]")


def _numeric(char: str) -> str:
    """A number character that NFKC leaves without a digit (➎ ⓿ ❺ ➓ Ⅻ 〥 ፭ ㊄ 𐄑) as the digits of its
    value: "Price: $➎⓿⓿" is $500, "Ⅻ left" 12 left (a Roman numeral in Latin letters is not
    read). A value that is no whole number is written as a fraction, which the scanner reads
    (and which matches no rounded figure when its decimals do not end)."""
    value = fractions.Fraction(unicodedata.numeric(char)).limit_denominator(1000)
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value.numerator}\u2044{value.denominator}"


class _Text:
    """The cleaned text and its map back: cleaned index i comes from original[starts[i]:end],
    where end is ``ends[i]`` for a character produced from a longer chunk (an entity, a
    fullwidth form) and ``starts[i] + 1`` otherwise."""
    __slots__ = ("original", "text", "starts", "ends")

    def __init__(self, original: str, text: str, starts, ends: dict[int, int]):
        self.original, self.text, self.starts, self.ends = original, text, starts, ends

    def span(self, start: int, end: int) -> tuple[int, int]:
        last = end - 1
        return self.starts[start], self.ends.get(last, self.starts[last] + 1)


def _prepare(text: str) -> _Text:
    cleaned, starts, ends = _pass1(text)
    if "_" in cleaned:
        # the same length, so the map stays as it is
        cleaned = _UNDERSCORE_EMPHASIS.sub(_as_asterisks, cleaned)
    edits = []
    if "*" in cleaned or "_" in cleaned:
        for match in _EMPHASIS.finditer(cleaned):
            edits.extend((match.start(g), match.end(g), "") for g in (1, 2, 3) if match.group(g))
        edits.extend((m.start(1), m.end(1), "") for m in _SIGN_EMPHASIS.finditer(cleaned))
    # (each search of several characters behind one for a character of it: a search for
    # one character, memchr, costs a twentieth of one for two or more)
    if "<" in cleaned or "\\" in cleaned or "~" in cleaned and "~~~~" in cleaned:
        for match in _JOINED.finditer(cleaned):
            edits.extend((match.start(g), match.end(g), "") for g in (1, 2, 3) if match.group(g))
    if "*" in cleaned or "`" in cleaned or "~" in cleaned and "~~" in cleaned:
        for match in _PAIRED.finditer(cleaned):
            edits.extend((match.start(g), match.end(g), "") for g in (1, 2, 3, 4) if match.group(g))
    if "O" in cleaned:
        edits.extend((m.start(1), m.end(1), "0" * len(m.group(1)))
                     for m in _DIGIT_O.finditer(cleaned))
        for match in _TRAILING_O.finditer(cleaned):
            group = 1 if match.group(1) else 2
            edits.append((match.start(group), match.end(group), "0" * len(match.group(group))))
    if "$" in cleaned and ("$l" in cleaned or "$I" in cleaned) or not cleaned.isascii():
        edits.extend((m.start(1), m.end(1), "1") for m in _CURRENCY_ONE.finditer(cleaned))
    if edits:
        edits.sort()
        cleaned, starts, ends = _apply(cleaned, starts, ends, edits)
    return _Text(text, cleaned, starts, ends)


def _as_asterisks(match: re.Match) -> str:
    """An underscore emphasis (``_UNDERSCORE_EMPHASIS``) with asterisks for its marks, or as it
    is when its opener follows a character of a word (snake_case) or of a link."""
    s, found = match.start(), match.group()
    if s and match.string[s - 1] not in _UNDERSCORE_BEFORE:
        return found
    marks = "*" * len(match.group(1))
    return marks + found[len(marks):-len(marks)] + marks


def _pass1(text: str):
    ascii_text = text.isascii()
    references = "&" in text and _REFERENCE.search(text) is not None
    if ascii_text and not references:
        return text, range(len(text)), {}
    if not references:
        fast = _translate(text)
        if fast is not None:
            return fast
    sites: list[tuple[int, int]] = []
    if "&" in text:
        sites.extend(m.span() for m in _REFERENCE.finditer(text))
    if not ascii_text:
        for match in _NON_ASCII.finditer(text):
            a, b = match.span()
            if a and unicodedata.combining(text[a]):
                a -= 1                      # e + U+0301 is é
            sites.append((a, b))
        sites.sort()
    pieces: list[str] = []
    starts: list[int] = []
    ends: dict[int, int] = {}
    size = pos = 0
    for a, b in sites:
        if a < pos:                         # a reference inside a non-ASCII run: already done
            continue
        if a > pos:
            pieces.append(text[pos:a])
            starts.extend(range(pos, a))
            size += a - pos
        pos = b
        found = text[a:b]
        if found[0] == "&":
            out = _unescape(found)
            if out != found:
                pieces.append(out)
                starts.extend([a] * len(out))
                ends.update(dict.fromkeys(range(size, size + len(out)), b))
                size += len(out)
                continue
        elif not unicodedata.is_normalized("NFKC", found) or _NEEDS_WORK.search(found):
            i, n = 0, len(found)
            while i < n:
                j = i + 1
                while j < n and unicodedata.combining(found[j]):
                    j += 1
                piece = found[i:j]
                out = _char(piece)
                if out == piece:
                    pieces.append(piece)
                    starts.extend(range(a + i, a + j))
                    size += j - i
                else:
                    pieces.append(out)
                    starts.extend([a + i] * len(out))
                    ends.update(dict.fromkeys(range(size, size + len(out)), a + j))
                    size += len(out)
                i = j
            continue
        pieces.append(found)
        starts.extend(range(a, b))
        size += b - a
    if pos < len(text):
        pieces.append(text[pos:])
        starts.extend(range(pos, len(text)))
    return "".join(pieces), starts, ends


def _translate(text: str):
    """Pass 1 for a text whose non-ASCII characters each read as at most one character (no
    expansion such as ﬁ -> fi, no combining marks): one ``str.translate``, and a map that is
    the identity or skips the dropped characters. None when the text needs the general path."""
    # The few distinct non-ASCII characters, found in C (a set of the whole text costs more).
    chars = frozenset(_ASCII_RUN.sub("", text))
    found = _translation(chars) if len(chars) <= 32 else _build_translation(chars)
    if found is None:
        return None
    table, dropped = found
    if not table:
        return text, range(len(text)), {}
    cleaned = text.translate(table)
    if not dropped:
        return cleaned, range(len(text)), {}
    keep = {ord(char): "\x00" if char in dropped else "\x01" for char in set(text)}
    return cleaned, list(itertools.compress(range(len(text)),
                                            text.translate(keep).encode("latin-1"))), {}


_ASCII_RUN = re.compile(r"[\x00-\x7f]+")


def _build_translation(chars: frozenset[str]) -> tuple[dict[int, str], frozenset[str]] | None:
    """The ``str.translate`` table for these non-ASCII characters and those it drops; None when
    one of them reads as more than one character or is a combining mark."""
    table: dict[int, str] = {}
    dropped: set[str] = set()
    for char in chars:
        out = _char(char)
        if len(out) > 1 or unicodedata.combining(char):
            return None
        if out != char:
            table[ord(char)] = out
            if not out:
                dropped.add(char)
    return table, frozenset(dropped)


# Answers reuse the same few non-ASCII characters (curly quotes, €, no-break spaces): the table
# for a small set of them (at most 32) is built once; bounded in entries too.
_translation = functools.lru_cache(maxsize=1024)(_build_translation)


@functools.lru_cache(maxsize=1024)
def _unescape(reference: str) -> str:
    """An HTML character reference as the reader sees it (cleaned), or itself when unknown."""
    out = html.unescape(reference)
    return reference if out == reference else "".join(_char(c) for c in out)


def _apply(text: str, starts, ends: dict[int, int], edits):
    """Apply sorted, non-overlapping (start, end, replacement) edits whose replacement is empty
    or of the same length, keeping the map."""
    pieces, new_starts, new_ends = [], [], {}
    keys = sorted(ends)
    key_at = removed = pos = 0
    for a, b, replacement in edits + [(len(text), len(text), "")]:
        if a < pos:
            continue
        pieces.append(text[pos:a])
        new_starts.extend(starts[pos:a])
        if replacement:
            pieces.append(replacement)
            new_starts.extend(starts[a:b])
        limit = b if replacement else a
        while key_at < len(keys) and keys[key_at] < limit:
            new_ends[keys[key_at] - removed] = ends[keys[key_at]]
            key_at += 1
        while key_at < len(keys) and keys[key_at] < b:
            key_at += 1
        if not replacement:
            removed += b - a
        pos = b
    return "".join(pieces), new_starts, new_ends


_SURROGATE = re.compile("[\ud800-\udfff]")


def surrogate_problem(text: str, what: str) -> str | None:
    """What is wrong with ``text`` holding a surrogate code point, or None. A Python ``str``
    can hold one, but it is no character: JSON writes it as an escape, and a client that reads
    the JSON joins two of them into the character they encode ("$\\ud835\\udfd3" shows as
    "$𝟓"), which the audit never read. So such a text is refused, as invalid UTF-8 is."""
    if text.isascii():
        return None
    found = _SURROGATE.search(text)
    if found is None:
        return None
    return (f"the {what} holds a lone surrogate, U+{ord(found.group()):04X} at character "
            f"{found.start()}: it is no character, and a client may join it with the next "
            "into one the audit never read; send the text itself, or UTF-8 bytes")


def clean(text: str) -> tuple[str, list[int]]:
    """The text a reader sees, and for each of its characters the index in ``text`` it comes
    from, plus ``len(text)`` at the end (so ``len(map) == len(cleaned) + 1``). Monotonic."""
    prepared = _prepare(text)
    return prepared.text, list(prepared.starts) + [len(text)]


_QUOTE_MARKS = ("\"'\u2018\u2019\u201a\u201c\u201d\u201e\u00ab\u00bb\u2039\u203a"
                "\u300c\u300d\u300e\u300f")
# White space and quote marks, and a hyphen or underscore between letters: 'out for delivery'
# is the status out_for_delivery, 'relaxed fit' the "relaxed-fit" of a description.
_SQUASH = re.compile(rf"[\s{_QUOTE_MARKS}]+|(?<=[^\W\d_])[-_\u2010](?=[^\W\d_])")


def squash(text: str) -> str:
    """Quoted text as it is compared: cleaned like ``clean``, casefolded, NFKC, without white
    space and quote marks, and without a hyphen or underscore between letters. Evidence must
    be squashed with this same function."""
    return _squash_clean(_prepare(text).text)


def _squash_clean(cleaned: str) -> str:
    return _SQUASH.sub("", unicodedata.normalize("NFKC", cleaned.casefold()))


def squash_joints(text: str) -> tuple[str, frozenset[int]]:
    """``squash(text)`` and the places in it where something was squashed out (white space, a
    quote mark, a hyphen between letters): where a word of ``text`` starts or ends, so that a
    quote found there cuts no word ("helpful" is in "unhelpful" only inside a word)."""
    parts = _SQUASH.split(unicodedata.normalize("NFKC", _prepare(text).text.casefold()))
    joints, at = set(), 0
    for part in parts[:-1]:
        at += len(part)
        joints.add(at)
    return "".join(parts), frozenset(joints)
