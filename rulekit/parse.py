"""Text -> typed AST. The only module that imports Lark.

``parse_source`` never raises on bad input: every problem (invalid UTF-8, an oversized file, a
stray character, a missing brace) comes back as a ``Diagnostic`` with its position. Lark types
stay inside this module.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import re
from decimal import Decimal
from importlib import resources
from pathlib import Path

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from rulekit import ast
from rulekit.errors import Diagnostic, Span
from rulekit.files import read_capped

MAX_SOURCE_BYTES = 1024 * 1024

# Human names for terminals, used in "expected ..." messages.
_PUNCTUATION = {"LBRACE": "`{`", "RBRACE": "`}`", "COMMA": "`,`", "DOT": "`.`", "EQUAL": "`=`",
                "LPAR": "`(`", "RPAR": "`)`", "PLUS": "`+`", "MINUS": "`-`", "STAR": "`*`",
                "SLASH": "`/`", "$END": "the end of the file"}
_CLASSES = {"NAME": "a name", "STRING": 'a string in double quotes',
            "NUMBER": "a number", "DURATION": "a duration such as 15m"}


@dataclasses.dataclass(frozen=True)
class ParseResult:
    file: ast.File | None
    diagnostics: tuple[Diagnostic, ...]
    text: str


def grammar_text() -> str:
    return resources.files("rulekit").joinpath("grammar/rulekit.lark").read_text("utf-8")


class _WholeWords:
    """Lets the lexer consider NAME in every parser state. Without it, where no name is
    expected, the keyword `on` would match the start of the word `only`; with it, `only` is
    read whole and reported as an unexpected name. Tokens pass through unchanged."""

    always_accept = ("NAME",)

    def process(self, stream):
        return stream


@functools.lru_cache(maxsize=None)
def _parser() -> Lark:
    """Built once per process and never mutated; Lark parsers are safe to share."""
    return build_parser()


def build_parser(strict: bool = False) -> Lark:
    """A fresh parser; for tests that check the grammar (``strict=True`` needs interegular)."""
    return Lark(grammar_text(), parser="lalr", lexer="contextual", propagate_positions=True,
                maybe_placeholders=False, strict=strict, postlex=_WholeWords())


def keywords() -> dict[str, str]:
    """Keyword terminal name -> its text, e.g. ``{"FIELD": "field"}``."""
    return {t.name: t.pattern.value for t in _parser().terminals
            if t.pattern.type == "str" and t.name.isupper() and t.name not in _PUNCTUATION}


def describe_terminal(name: str) -> str:
    if name in _PUNCTUATION:
        return _PUNCTUATION[name]
    if name in _CLASSES:
        return _CLASSES[name]
    text = keywords().get(name)
    return f"`{text}`" if text else name.lower()


# --- reading ----------------------------------------------------------------------------------

def read_source(path: str | Path) -> tuple[str | None, list[Diagnostic]]:
    """Read and decode a rules file; problems come back as diagnostics, never exceptions."""
    shown = str(path)
    try:
        data, size = read_capped(path, MAX_SOURCE_BYTES)   # never more than 1 MiB and a byte
    except OSError as exc:
        reason = exc.strerror or exc.__class__.__name__
        return None, [Diagnostic("RK108", f"cannot read '{shown}': {reason.lower()}",
                                 Span(shown, 1, 1, 1, 1),
                                 hint="check the path; rules files are plain UTF-8 text")]
    if len(data) > MAX_SOURCE_BYTES:
        return None, [_too_large(shown, size)]
    return decode_source(data, shown)


def decode_source(data: bytes, path: str) -> tuple[str | None, list[Diagnostic]]:
    if len(data) > MAX_SOURCE_BYTES:
        return None, [_too_large(path, len(data))]
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        line_start = data.rfind(b"\n", 0, exc.start) + 1
        column = len(data[line_start:exc.start].decode("utf-8", "replace")) + 1
        text = data.decode("utf-8", "replace")
        span = Span(path, line, column, line, column + 1)
        return text, [Diagnostic(
            "RK104", f"file is not valid UTF-8: byte 0x{data[exc.start]:02x} cannot start or "
            "continue a character", span, hint="save the file as UTF-8")]


def _too_large(path: str, size: int | None) -> Diagnostic:
    """RK105 for a file of ``size`` bytes (None: more than the cap, of no known size, such as
    a pipe or a device)."""
    what = "more than 1 MiB" if size is None else f"{size / 1024 / 1024:.1f} MiB ({size:,} bytes)"
    return Diagnostic("RK105", f"file is {what}; a rules file may be at most 1 MiB "
                      f"({MAX_SOURCE_BYTES:,} bytes)", Span(path, 1, 1, 1, 2),
                      hint="split it into smaller files joined with `import`")


# --- parsing ----------------------------------------------------------------------------------

def parse_file(path: str | Path) -> ParseResult:
    text, problems = read_source(path)
    if problems:
        return ParseResult(None, tuple(problems), text or "")
    return parse_source(text, str(path))


def parse_source(text: str, path: str = "<string>") -> ParseResult:
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as exc:
        return ParseResult(None, (_syntax_diagnostic(exc, text, path),), text)
    except RecursionError:  # pragma: no cover - the grammar has no deep nesting
        return ParseResult(None, (Diagnostic("RK101", "file is nested too deeply",
                                             Span(path, 1, 1, 1, 2)),), text)
    comments = tuple(_comments(text, path))
    items = _ToAst(path).transform(tree).children
    return ParseResult(ast.File(path, tuple(items), comments), (), text)


def _comments(text: str, path: str):
    """Comments, found with the grammar's own patterns so that a '#' inside a string is skipped."""
    for match in _string_or_comment().finditer(text):
        if match.group("comment") is not None:
            yield ast.Comment(match.group(), span=_offset_span(path, text, match.start(),
                                                               match.end()))


@functools.lru_cache(maxsize=None)
def _string_or_comment() -> re.Pattern:
    """The grammar's STRING and COMMENT patterns as one regex, compiled once (asking Lark for a
    lexer that keeps ignored tokens builds a new one per call, some 20 ms). Only called on text
    that parsed, where a '"' or '#' can only start a string or a comment, so the leftmost match
    of either is a real token."""
    patterns = {t.name: t.pattern.to_regexp() for t in _parser().terminals}
    return re.compile(f"{patterns['STRING']}|(?P<comment>{patterns['COMMENT']})")


def _offset_span(path: str, text: str, start: int, end: int) -> Span:
    line = text.count("\n", 0, start) + 1
    column = start - (text.rfind("\n", 0, start) + 1) + 1
    end_line = text.count("\n", 0, end) + 1
    end_column = end - (text.rfind("\n", 0, end) + 1) + 1
    return Span(path, line, column, end_line, end_column, start, end)


def _syntax_diagnostic(exc: UnexpectedInput, text: str, path: str) -> Diagnostic:
    if isinstance(exc, UnexpectedCharacters):
        return _bad_character(exc, text, path)
    assert isinstance(exc, UnexpectedToken)
    token = exc.token
    if token.type == "PLUS":
        exponent = _plus_exponent(token, text, path)
        if exponent is not None:
            return exponent
    if token.type == "MINUS":
        locale = _hyphenated_locale(token, text, path)
        if locale is not None:
            return locale
    # The parser's own view of what may come next: the lexer's set can be wider (NAME is always
    # lexed, see _WholeWords) or narrower (a keyword it has already retyped).
    accepted = set(exc.expected)
    if getattr(exc, "interactive_parser", None) is not None:
        try:
            accepted = set(exc.interactive_parser.accepts()) or accepted
        except Exception:  # pragma: no cover - fall back to Lark's own list
            pass
    exc.expected = accepted
    expected = sorted(accepted, key=_expected_order)
    wanted = ", ".join(describe_terminal(t) for t in expected)
    if token.type == "$END":
        end = len(text)
        span = _offset_span(path, text, max(end - 1, 0), end) if text else Span(path, 1, 1, 1, 2)
        open_block = _unclosed_block(text)
        hint = (f"`{open_block[1]}` opened at line {open_block[0]} is never closed; add `}}`"
                if open_block and "RBRACE" in exc.expected else f"expected {wanted}")
        return Diagnostic("RK103", "unexpected end of file", span, hint=hint)
    line_end = text.find("\n", token.end_pos)
    if token.start_pos > 0 and text[token.start_pos - 1] == '"' and \
            '"' in text[token.end_pos:line_end if line_end >= 0 else len(text)]:
        span = Span(path, token.line, token.column, token.end_line, token.end_column,
                    token.start_pos, token.end_pos)
        sql = re.search(r"\bsql\s*\"", text[text.rfind("\n", 0, token.start_pos) + 1:
                                           token.start_pos])
        return Diagnostic("RK101", f"unexpected {_describe_token(token)} right after a `\"`: a "
                          "`\"` inside a string ends it", span,
                          hint="write \\\" for a quote inside a string" + (
                              "; in SQL, quote text with single quotes (status = 'active'), "
                              "or write the query in triple quotes \"\"\"...\"\"\"" if sql else ""))
    if str(token) == "/":
        span = Span(path, token.line, token.column, token.end_line, token.end_column,
                    token.start_pos, token.end_pos)
        line_start = text.rfind("\n", 0, token.start_pos) + 1
        if text.startswith("//", token.start_pos):
            end = text.find("\n", token.start_pos)
            said = text[token.start_pos + 2:end if end >= 0 else len(text)].strip()[:40]
            return Diagnostic("RK101", "unexpected `//`", span,
                              hint=f"a comment starts with #: `# {said}`")
        zone = _UNQUOTED_ZONE.match(text, line_start)
        if zone is not None:
            return Diagnostic("RK101", "unexpected `/`: a time zone is a string", span,
                              hint=f'put it in double quotes: `{zone.group(1)} '
                              f'"{zone.group(2)}"`')
    incomplete = _incomplete_line(token, text, path)
    if incomplete is not None:
        return incomplete
    span = Span(path, token.line, token.column, token.end_line, token.end_column,
                token.start_pos, token.end_pos)
    hint = f"expected {wanted}"
    if token.type == "NAME":
        keyword_texts = [k for k in (keywords().get(t) for t in expected if t in keywords()) if k]
        word = str(token)
        close = difflib.get_close_matches(word, keyword_texts, n=1, cutoff=0.75) or [
            # one letter mistyped in a short keyword ('kee' for `key`), below the ratio
            k for k in keyword_texts
            if len(k) == len(word) >= 3 and sum(a != b for a, b in zip(k, word)) == 1][:1]
        if close:
            hint = f"did you mean `{close[0]}`? " + hint
    elif token.type in keywords() and "NAME" in exc.expected:
        hint = (f"`{token}` is a keyword; " + hint)
    elif token.type == "NUMBER" and "DURATION" in accepted:
        end = _GLUED_WORD.match(text, token.end_pos).end()
        message, hint = duration_problem(text[token.start_pos:end])
        return Diagnostic("RK101", message, _offset_span(path, text, token.start_pos, end),
                          hint=hint)
    elif token.type == "STRING" and "NAME" in accepted and _ENUM_VALUES.search(
            text, 0, token.start_pos):
        said = str(token).strip('"')
        stored = "_".join(re.findall(r"[a-z0-9]+", said.lower())) or "value"
        hint = (f"an enum value is a name, as stored; the words customers read are its label: "
                f"`{stored} label {token}`")
    elif token.type == "DURATION" and exc.expected == {"WITHIN"}:
        hint = ("a field's own budget is `max_age 5m`; an entity's is "
                "`fresh within 15m via updated_at`")
    line_start = text.rfind("\n", 0, token.start_pos) + 1
    first_word = text[line_start:].split(None, 1)[0] if text[line_start:].strip() else ""
    if "RBRACE" in exc.expected and first_word in _TOP_LEVEL_WORDS:
        open_block = _unclosed_block(text[:line_start])
        if open_block:
            hint = (f"`{open_block[1]}` opened at line {open_block[0]} is never closed; add `}}` "
                    f"before line {token.line}")
    elif exc.expected == {"LBRACE"} and token.type in ("NAME", "STRING"):
        hint = ('expected `{`: settings go inside the braces, as in '
                '`ruleset orders { version "2026.11" }`')
    return Diagnostic("RK101", f"unexpected {_describe_token(token)}", span, hint=hint)


# `timezone America/New_York` (or a field's `zone` / `naive`), unquoted, up to the line's end.
_UNQUOTED_ZONE = re.compile(r"[^\S\n]*(?:field[^\n]*?)?\b(timezone|zone|naive)[^\S\n]+"
                            r"([A-Za-z_]+/[A-Za-z_/+-]+)")


def _incomplete_line(token: Token, text: str, path: str) -> Diagnostic | None:
    """RK101 at the end of an earlier line whose statement stops before it is complete
    (`refuse` with no message, `regenerate max 1` with no `then`, `name = name`), when the
    parser only noticed on the next line: at its first word, or at its second when the first
    (`on`) was taken as the earlier statement's last name (`then fallback` with no name). None
    when the text before this line ends a statement."""
    line_start = text.rfind("\n", 0, token.start_pos) + 1
    before = text[line_start:token.start_pos].split()
    if line_start == 0 or len(before) > 1 or (before and before[0] not in _TOP_LEVEL_WORDS):
        return None
    prefix = text[:line_start]     # with one word before the token, the text before that word
    try:
        state = _parser().parse_interactive(prefix)
        last = None
        for last in state.iter_parse():
            pass
        accepted = set(state.accepts())
    except UnexpectedInput:
        return None
    if last is None or "$END" in accepted or "RBRACE" in accepted or not accepted:
        return None
    if not before and token.type == "NAME" and difflib.get_close_matches(
            str(token), [keywords()[t] for t in accepted if t in keywords()], n=1, cutoff=0.75):
        return None     # a misspelt keyword that continues the statement: said at the word
    expected = sorted(accepted, key=_expected_order)
    wanted = ", ".join(describe_terminal(t) for t in expected)
    span = Span(path, last.end_line, last.end_column, last.end_line, last.end_column + 1,
                last.end_pos, last.end_pos + 1)
    return Diagnostic("RK101", f"line {last.end_line} ends before its statement is complete",
                      span, hint=f"expected {wanted} after {_describe_token(last)}")


# An inline enum's or an alias table's braces still open at the end of the text: where a quoted
# word is a value written as its label. No brace inside, so the match is linear.
_ENUM_VALUES = re.compile(r"(?:\benum\s*|\baliases\s+[A-Za-z_][A-Za-z0-9_]*\s*)\{[^{}]*\Z")


# `tolerance 1e+5` up to its `+`: the option word, then a number ending in e (lexed as a number
# and the name e). Matched against the one line before the `+`.
_BEFORE_PLUS_EXPONENT = re.compile(r"(?:^|[^\w.])(?P<owner>[A-Za-z_]\w*)[ \t]+"
                                   r"(?P<number>-?[0-9]+(?:\.[0-9]+)?[eE])\Z")
_EXPONENT_DIGITS = re.compile(r"[0-9]*")


def exponent_problem(owner: str, written: str) -> tuple[str, str]:
    """Message and hint for a number written with an exponent after the option ``owner``."""
    message = ("a tolerance is a plain number such as 0.05, with no exponent" if owner == "tolerance"
               else f"option '{owner}' takes a plain number, with no exponent")
    try:
        value = Decimal(written)
    except ArithmeticError:
        value = None
    # Only a short number is written out: `1e999999999` must not build a billion digits.
    plain = (format(value, "f") if value is not None and value.is_finite()
             and abs(value.adjusted()) <= 24 else "")
    hint = (f"write it out: `{owner} {plain}`" if plain and len(plain) <= 24 else
            "write the number out in digits, e.g. `tolerance 0.05`")
    return message, hint


_GLUED_WORD = re.compile(r"[A-Za-z0-9_]*")


def duration_problem(written: str) -> tuple[str, str]:
    """Message and hint for ``written`` where a duration belongs: `15min`, `1.5h`, `15`."""
    units = list(ast.DURATION_UNITS)
    return (f"'{written}' is not a duration",
            f"a duration is a whole number glued to one unit: {', '.join(units[:-1])} or "
            f"{units[-1]}, as in 15m, 1d or 2w")


def _plus_exponent(token: Token, text: str, path: str) -> Diagnostic | None:
    """`tolerance 1e+5` is a number with an exponent, not a stray `+`: the same RK304 as the
    compiler gives `1e5` and `1e-5`, under the whole number."""
    line_start = text.rfind("\n", 0, token.start_pos) + 1
    before = _BEFORE_PLUS_EXPONENT.search(text, line_start, token.start_pos)
    if before is None:
        return None
    end = _EXPONENT_DIGITS.match(text, token.end_pos).end()
    start = before.start("number")
    message, hint = exponent_problem(before.group("owner"), text[start:end])
    return Diagnostic("RK304", message, _offset_span(path, text, start, end), hint=hint)


# `locale pt-PT` up to its `-`, matched against the one line before it; then the rest of the tag.
_BEFORE_LOCALE_HYPHEN = re.compile(r"(?:^|[\s{])locale[ \t]+(?P<language>[A-Za-z]+)\Z")
_TAG_REST = re.compile(r"[A-Za-z0-9-]*")


def _hyphenated_locale(token: Token, text: str, path: str) -> Diagnostic | None:
    """`locale pt-PT`, a BCP 47 tag, is the locale pt_PT written as browsers write it: RK305
    under the whole tag, with the spelling rulekit reads, rather than a stray `-`."""
    line_start = text.rfind("\n", 0, token.start_pos) + 1
    before = _BEFORE_LOCALE_HYPHEN.search(text, line_start, token.start_pos)
    if before is None:
        return None
    start = before.start("language")
    end = _TAG_REST.match(text, token.start_pos).end()
    while end > token.end_pos and text[end - 1] == "-":
        end -= 1
    written = text[start:end]
    meant = written.replace("-", "_")
    from babel import Locale, UnknownLocaleError     # only on this error path: babel is slow to load

    try:
        Locale.parse(meant)
        hint = f"a locale joins language and territory with `_`: write `locale {meant}`"
    except (UnknownLocaleError, ValueError, TypeError):
        hint = "a locale joins language and territory with `_`, as in `locale en_GB`"
    return Diagnostic("RK305", f"unknown locale '{written}'", _offset_span(path, text, start, end),
                      hint=hint)


# Words that start a top-level declaration; one of them inside an open block means a missing `}`.
_TOP_LEVEL_WORDS = {"ruleset", "import", "entity", "aliases", "input", "shape", "fallback",
                    "prose", "sweep", "on", "derived"}


def _expected_order(name: str) -> tuple[int, str]:
    if name in _CLASSES:
        return (1, name)
    if name in _PUNCTUATION:
        return (2, name)
    return (0, keywords().get(name, name))


def _describe_token(token: Token) -> str:
    value = str(token)
    if len(value) > 40:
        value = value[:37] + "..."
    if token.type in keywords():
        return f"keyword `{value}`"
    if token.type == "NAME":
        return f"name '{value}'"
    if token.type in _CLASSES:
        return f"{token.type.lower()} {value}"
    return f"`{value}`"


def _bad_character(exc: UnexpectedCharacters, text: str, path: str) -> Diagnostic:
    pos = exc.pos_in_stream
    char = text[pos] if pos < len(text) else ""
    line, column = exc.line, exc.column
    if char == '"':
        line_end = text.find("\n", pos)
        rest = text[pos + 1: len(text) if line_end < 0 else line_end]
        index = 0
        while index < len(rest):
            if rest[index] == "\\":
                escape = rest[index: index + 2]
                if len(escape) < 2 or escape[1] not in '"\\nt':
                    start = pos + 1 + index
                    return Diagnostic(
                        "RK107", f"invalid escape `{_visible(escape)}` in a string",
                        _offset_span(path, text, start, start + len(escape)),
                        hint='the escapes are \\" \\\\ \\n and \\t; write a literal brace in a template as {{ or }}')
                index += 2
                continue
            if rest[index] == '"':
                break
            index += 1
        else:
            return Diagnostic("RK106", "unterminated string",
                              _offset_span(path, text, pos, pos + 1 + len(rest)),
                              hint='close the string with `"` on the same line')
    allowed = sorted(exc.allowed or (), key=_expected_order)
    hint = f"expected {', '.join(describe_terminal(t) for t in allowed)}" if allowed else None
    return Diagnostic("RK102", f"unexpected character {_visible_char(char)}",
                      Span(path, line, column, line, column + 1, pos, pos + 1), hint=hint)


def _visible(text: str) -> str:
    return "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in text)


def _visible_char(char: str) -> str:
    if not char:
        return "at the end of the file"
    if char.isprintable() and not char.isspace():
        return f"'{char}'"
    return f"U+{ord(char):04X}"


def _unclosed_block(text: str) -> tuple[int, str] | None:
    """The innermost `{` left open at the end of the text: (line, the statement that opened it)."""
    stack: list[int] = []
    index, in_string = 0, False
    while index < len(text):
        char = text[index]
        if in_string:
            if char == "\\":
                index += 1
            elif char in '"\n':
                in_string = False
        elif char == '"':
            in_string = True
        elif char == "#":
            newline = text.find("\n", index)
            index = len(text) if newline < 0 else newline
            continue
        elif char == "{":
            stack.append(index)
        elif char == "}" and stack:
            stack.pop()
        index += 1
    if not stack:
        return None
    brace = stack[-1]
    line_start = text.rfind("\n", 0, brace) + 1
    opener = " ".join(text[line_start: brace + 1].split())
    return text.count("\n", 0, brace) + 1, opener


# --- tree -> AST ------------------------------------------------------------------------------

def _decode_string(raw: str) -> str:
    escapes = {'"': '"', "\\": "\\", "n": "\n", "t": "\t"}
    out, index = [], 0
    while index < len(raw):
        char = raw[index]
        if char == "\\" and index + 1 < len(raw):
            out.append(escapes[raw[index + 1]])
            index += 2
        else:
            out.append(char)
            index += 1
    return "".join(out)


class _ToAst(Transformer):
    """Builds AST nodes only. No judgement of meaning happens here (see compile.py)."""

    def __init__(self, path: str):
        super().__init__(visit_tokens=True)
        self.path = path

    # spans
    def _span(self, meta_or_token) -> Span:
        m = meta_or_token
        return Span(self.path, m.line, m.column, m.end_line, m.end_column, m.start_pos, m.end_pos)

    # tokens
    def NAME(self, token: Token) -> ast.Name:
        return ast.Name(str(token), span=self._span(token))

    def STRING(self, token: Token) -> ast.String:
        text = str(token)
        if text.startswith('"""') and len(text) >= 6:   # kept as written, newlines and all
            # ... but a CRLF file's line ends are not part of the SQL: the artifact must not
            # change with git's autocrlf.
            raw = text[3:-3]
            return ast.String(raw.replace("\r\n", "\n"), raw, triple=True,
                              span=self._span(token))
        raw = text[1:-1]
        return ast.String(_decode_string(raw), raw, span=self._span(token))

    def NUMBER(self, token: Token) -> ast.Number:
        return ast.Number(str(token), span=self._span(token))

    def DURATION(self, token: Token) -> ast.Duration:
        return ast.Duration(str(token), span=self._span(token))

    @staticmethod
    def _nodes(children) -> list:
        """Children without keyword tokens."""
        return [c for c in children if not isinstance(c, Token)]

    @v_args(meta=True)
    def header(self, meta, children):
        name, *settings = self._nodes(children)
        return ast.Header(name, tuple(settings), span=self._span(meta))

    @v_args(meta=True)
    def setting(self, meta, children):
        name, value = self._nodes(children)
        return ast.Setting(name, value, span=self._span(meta))

    def word(self, children):
        return children[0]

    @v_args(meta=True)
    def import_decl(self, meta, children):
        (path,) = self._nodes(children)
        return ast.Import(path, span=self._span(meta))

    @v_args(meta=True)
    def entity(self, meta, children):
        name, *statements = self._nodes(children)
        paths = ()
        if statements and isinstance(statements[0], tuple):    # from evidence "..."
            paths, statements = statements[0], statements[1:]
        return ast.Entity(name, tuple(statements), paths, span=self._span(meta))

    def from_evidence(self, children):
        (paths,) = self._nodes(children)
        return tuple(paths)

    @v_args(meta=True)
    def mentioned_decl(self, meta, children):
        (names,) = self._nodes(children)
        return ast.Mentioned(tuple(names), span=self._span(meta))

    @v_args(meta=True)
    def pronouns_decl(self, meta, children):
        (words,) = self._nodes(children)
        return ast.Pronouns(tuple(words), span=self._span(meta))

    @v_args(meta=True)
    def forms_decl(self, meta, children):
        (forms,) = self._nodes(children)
        return ast.Forms(tuple(forms), span=self._span(meta))

    @v_args(meta=True)
    def ranks_decl(self, meta, children):
        field, within, forms = self._nodes(children)
        return ast.Ranks(field, within, tuple(forms), span=self._span(meta))

    @v_args(meta=True)
    def said_option(self, meta, children):
        (words,) = self._nodes(children)
        return ast.SaidAs(tuple(words), span=self._span(meta))

    @v_args(meta=True)
    def derived(self, meta, children):
        nodes = self._nodes(children)
        name, expr = nodes[0], nodes[1]
        said = tuple(nodes[2]) if len(nodes) > 2 else ()
        return ast.Derived(name, expr, said, span=self._span(meta))

    @v_args(meta=True)
    def constant(self, meta, children):
        return ast.Constant(self._nodes(children)[0], span=self._span(meta))

    @v_args(meta=True)
    def aggregate(self, meta, children):
        function, ref, *more = self._nodes(children)
        return ast.Aggregate(function, ref, tuple(more), span=self._span(meta))

    @v_args(meta=True)
    def derived_ref(self, meta, children):
        return ast.DerivedRef(self._nodes(children)[0], span=self._span(meta))

    def _binary(op):
        @v_args(meta=True)
        def build(self, meta, children):
            left, right = self._nodes(children)
            return ast.BinaryOp(op, left, right, span=self._span(meta))
        return build

    add, subtract, multiply, divide = (_binary("+"), _binary("-"), _binary("*"), _binary("/"))

    @v_args(meta=True)
    def key_decl(self, meta, children):
        return ast.KeyDecl(*self._nodes(children), span=self._span(meta))

    @v_args(meta=True)
    def fresh_decl(self, meta, children):
        budget, via = self._nodes(children)
        return ast.FreshDecl(budget, via, span=self._span(meta))

    @v_args(meta=True)
    def requires_decl(self, meta, children):
        requirements = self._nodes(children)
        return ast.RequiresDecl(tuple(name for name, _ in requirements),
                                tuple((name, field) for name, field in requirements
                                      if field is not None), span=self._span(meta))

    def requirement(self, children):
        name, *field = self._nodes(children)
        return name, (field[0] if field else None)

    @v_args(meta=True)
    def table_source(self, meta, children):
        table, *scoped = self._nodes(children)
        return ast.TableSource(table, scoped[0] if scoped else None, self._shared(children),
                               span=self._span(meta))

    @v_args(meta=True)
    def sql_source(self, meta, children):
        (sql,) = self._nodes(children)
        return ast.SqlSource(sql, self._shared(children), span=self._span(meta))

    def _shared(self, children) -> ast.Name | None:
        """`shared` among ``children``, where it is written, or None."""
        return next((ast.Name("shared", span=self._span(c)) for c in children
                     if isinstance(c, Token) and c.type == "SHARED"), None)

    @v_args(meta=True)
    def tenant_decl(self, meta, children):
        (param,) = self._nodes(children)
        return ast.Tenant(param, span=self._span(meta))

    @v_args(meta=True)
    def data_source(self, meta, children):
        name, *statements = self._nodes(children)
        return ast.DataSource(name, tuple(statements), span=self._span(meta))

    @v_args(meta=True)
    def source_sql(self, meta, children):
        (sql,) = self._nodes(children)
        return ast.SourceSql(sql, span=self._span(meta))

    @v_args(meta=True)
    def source_keywords(self, meta, children):
        (keywords,) = self._nodes(children)
        return ast.SourceKeywords(keywords, span=self._span(meta))

    @v_args(meta=True)
    def source_window(self, meta, children):
        (window,) = self._nodes(children)
        return ast.SourceWindow(window, span=self._span(meta))

    @v_args(meta=True)
    def source_default(self, meta, children):
        return ast.SourceFlag(ast.Name("default", span=self._span(meta)), span=self._span(meta))

    @v_args(meta=True)
    def source_always(self, meta, children):
        return ast.SourceFlag(ast.Name("always", span=self._span(meta)), span=self._span(meta))

    @v_args(meta=True)
    def source_shared(self, meta, children):
        return ast.SourceFlag(ast.Name("shared", span=self._span(meta)), span=self._span(meta))

    @v_args(meta=True)
    def field_decl(self, meta, children):
        name, type_expr, *options = self._nodes(children)
        return ast.FieldDecl(name, type_expr, tuple(options), span=self._span(meta))

    @v_args(meta=True)
    def type_name(self, meta, children):
        return ast.TypeName(*self._nodes(children), span=self._span(meta))

    @v_args(meta=True)
    def enum_ref(self, meta, children):
        return ast.EnumRef(*self._nodes(children), span=self._span(meta))

    @v_args(meta=True)
    def enum_inline(self, meta, children):
        return ast.EnumInline(tuple(self._nodes(children)), span=self._span(meta))

    @v_args(meta=True)
    def enum_value(self, meta, children):
        name, *label = self._nodes(children)
        return ast.EnumValue(name, label[0] if label else None, span=self._span(meta))

    @v_args(meta=True)
    def plain_option(self, meta, children):
        nodes = self._nodes(children)
        return ast.Option(nodes[0], nodes[1] if len(nodes) > 1 else None, span=self._span(meta))

    @v_args(meta=True)
    def currency_option(self, meta, children):
        keyword = children[0]
        (code,) = self._nodes(children)
        return ast.Option(ast.Name("currency", span=self._span(keyword)), code,
                          span=self._span(meta))

    @v_args(meta=True)
    def placeholder_option(self, meta, children):
        nodes = self._nodes(children)
        unless = nodes[1] if len(nodes) > 1 else None
        return ast.PlaceholderOption(nodes[0], unless, span=self._span(meta))

    @v_args(meta=True)
    def aliases(self, meta, children):
        name, *entries = self._nodes(children)
        return ast.Aliases(name, tuple(entries), span=self._span(meta))

    @v_args(meta=True)
    def alias_entry(self, meta, children):
        value, *rest = self._nodes(children)
        label = rest.pop(0) if rest and isinstance(rest[0], ast.String) else None
        return ast.AliasEntry(value, rest[0] if rest else (), label, span=self._span(meta))

    @v_args(meta=True)
    def input_decl(self, meta, children):
        name, *options = self._nodes(children)
        return ast.Input(name, tuple(options), span=self._span(meta))

    @v_args(meta=True)
    def template(self, meta, children):
        kind_tree, name, text, *bindings = children
        kind = str(kind_tree.children[0])
        return ast.Template(kind, name, text, tuple(bindings), span=self._span(meta))

    @v_args(meta=True)
    def binding(self, meta, children):
        slot, ref = self._nodes(children)
        return ast.Binding(slot, ref, span=self._span(meta))

    @v_args(meta=True)
    def field_ref(self, meta, children):
        entity, field = self._nodes(children)
        return ast.FieldRef(entity, field, span=self._span(meta))

    @v_args(meta=True)
    def prose(self, meta, children):
        mode, *forbid = self._nodes(children)
        return ast.Prose(mode, tuple(forbid[0]) if forbid else (), span=self._span(meta))

    @v_args(meta=True)
    def sweep(self, meta, children):
        return ast.Sweep(tuple(self._nodes(children)), span=self._span(meta))

    @v_args(meta=True)
    def small_integers(self, meta, children):
        nodes = self._nodes(children)
        limit = nodes[0] if len(nodes) == 2 else None
        return ast.SmallIntegers(limit, nodes[-1], span=self._span(meta))

    @v_args(meta=True)
    def rounding(self, meta, children):
        (refs,) = self._nodes(children)
        return ast.Rounding(refs, span=self._span(meta))

    @v_args(meta=True)
    def authoritative(self, meta, children):
        (targets,) = self._nodes(children)
        return ast.Authoritative(targets, span=self._span(meta))

    @v_args(meta=True)
    def untrusted(self, meta, children):
        (targets,) = self._nodes(children)
        return ast.Untrusted(targets, span=self._span(meta))

    @v_args(meta=True)
    def exempt(self, meta, children):
        (values,) = self._nodes(children)
        return ast.Exempt(values, span=self._span(meta))

    @v_args(meta=True)
    def sweep_placeholder(self, meta, children):
        (values,) = self._nodes(children)
        return ast.SweepPlaceholder(values, span=self._span(meta))

    @v_args(meta=True)
    def json_path(self, meta, children):
        return ast.JsonPath(children[0], span=self._span(meta))

    @v_args(meta=True)
    def on_rule(self, meta, children):
        outcomes, action = self._nodes(children)
        return ast.OnRule(outcomes, action, span=self._span(meta))

    @v_args(meta=True)
    def outcome_name(self, meta, children):
        return ast.Outcome("name", children[0], span=self._span(meta))

    @v_args(meta=True)
    def outcome_missing(self, meta, children):
        return ast.Outcome("missing", self._nodes(children)[0], span=self._span(meta))

    @v_args(meta=True)
    def outcome_otherwise(self, meta, children):
        return ast.Outcome("otherwise", None, span=self._span(meta))

    @v_args(meta=True)
    def regenerate(self, meta, children):
        *options, then = self._nodes(children)
        return ast.Regenerate(tuple(options), then, span=self._span(meta))

    @v_args(meta=True)
    def regenerate_max(self, meta, children):
        return ast.RegenerateOption("max", self._nodes(children)[0], span=self._span(meta))

    @v_args(meta=True)
    def regenerate_naming(self, meta, children):
        return ast.RegenerateOption("naming", self._nodes(children)[0], span=self._span(meta))

    @v_args(meta=True)
    def regenerate_with_values(self, meta, children):
        return ast.RegenerateOption("with_values", None, span=self._span(meta))

    @v_args(meta=True)
    def regenerate_narrow(self, meta, children):
        return ast.RegenerateOption("narrow", None, span=self._span(meta))

    @v_args(meta=True)
    def refuse(self, meta, children):
        return ast.Refuse(self._nodes(children)[0], span=self._span(meta))

    @v_args(meta=True)
    def ask(self, meta, children):
        nodes = self._nodes(children)
        return ast.Ask(nodes[0], nodes[1] if len(nodes) > 1 else None, span=self._span(meta))

    @v_args(meta=True)
    def handoff(self, meta, children):
        nodes = self._nodes(children)
        return ast.Handoff(nodes[0] if nodes else None, span=self._span(meta))

    @v_args(meta=True)
    def fallback(self, meta, children):
        return ast.UseFallback(self._nodes(children)[0], span=self._span(meta))

    def _list(self, children):
        return tuple(children)

    name_list = string_list = literal_list = field_ref_list = target_list = mention_list = _list
    outcome_list = _list
