"""Part of compile stage 4: a date or timestamp field's `format`, judged against the field's type.

A format is one of babel's named formats (short, medium, long, full) or a CLDR date pattern:
runs of ASCII letters are fields (`d`, `MMMM`, `yyyy`, `HH`), text in single quotes is literal,
and `''` is an apostrophe. babel itself accepts more than it can render: an unquoted letter that
is no pattern letter is copied as text, and a time of day asked of a calendar day raises only
when a reply is checked. Both are errors here, where the author can fix them (RK312).

A date is shown with its field's format. So is a timestamp: as the instant when the claim was
about the time, as the day in the field's zone when the claim was a date. A timestamp's pattern
that shows a time of day shows a date claim as the stored instant, day and time, as the
author wrote it; that is a warning, as the day alone cannot be shown.
"""

from __future__ import annotations

import datetime as dt

from rulekit import ast
from rulekit.dates import TIME_LETTERS as _TIME_LETTERS, ZONE_LETTERS as _ZONE_LETTERS, pattern_letters
from rulekit.errors import Span
from rulekit.stages.context import Compilation

NAMED = ("short", "medium", "long", "full")


def check_format(c: Compilation, kind: str, decl: ast.FieldDecl, value: ast.String) -> None:
    """Report the first problem of the format of field ``decl`` (of type ``kind``: date or
    timestamp), with a caret under the letters at fault."""
    from babel.dates import PATTERN_CHARS

    pattern, name = value.value, decl.name.value
    if pattern in NAMED or not pattern.strip():     # an empty one is RK304, reported before
        return
    shown = f'format "{pattern}"'
    if pattern.lower() in NAMED:
        c.error("RK312", f"unknown {shown}", value.span,
                hint=f'did you mean "{pattern.lower()}"? the named formats are short, medium, '
                "long and full")
        return
    runs, open_quote = pattern_letters(pattern)
    if open_quote is not None:
        c.error("RK312", f"{shown} opens a quote that is never closed",
                _inner(c, value, open_quote, 1),
                hint="close the literal text with ', as in \"d MMMM 'at' HH:mm\"; write '' for "
                "an apostrophe")
        return
    unknown = list(dict.fromkeys(letter for letter, _, _ in runs if letter not in PATTERN_CHARS))
    if unknown:
        first = next(run for run in runs if run[0] == unknown[0])
        known = [letter for letter in PATTERN_CHARS
                 if kind == "timestamp" or letter not in _TIME_LETTERS | _ZONE_LETTERS]
        c.error("RK312", f"{shown} uses {_listed(unknown)}, which "
                f"{'is no pattern letter' if len(unknown) == 1 else 'are no pattern letters'}",
                _inner(c, value, first[2], first[1]),
                hint="put literal words in single quotes, as in \"d MMMM 'at' HH:mm\"; the "
                f"pattern letters of a {kind} are {' '.join(known)}")
        return
    for letter, length, offset in runs:
        lengths = PATTERN_CHARS[letter]
        if lengths is not None and length not in lengths:
            c.error("RK312", f"{shown} repeats '{letter}' {length} times; '{letter}' is "
                    f"written {_counts(lengths)}", _inner(c, value, offset, length),
                    hint=_widths(kind, letter, lengths))
            return
    misread = _misread(kind, runs)
    if misread:
        (letter, length, offset), what, hint = misread
        c.error("RK312", f"{shown} uses '{letter * length}', {what}", _inner(c, value, offset, length),
                hint=hint)
        return
    timed = [run for run in runs if run[0] in _TIME_LETTERS or run[0] in _ZONE_LETTERS]
    if timed:
        letters = ", ".join(dict.fromkeys(letter * length for letter, length, _ in timed))
        what = ("a time of day" if timed[0][0] in _TIME_LETTERS else "a time zone") + \
            f" ('{timed[0][0] * timed[0][1]}')"
        where = _inner(c, value, timed[0][2], timed[0][1])
        if kind == "date":
            c.error("RK312", f"{shown} shows {what}, and date field '{name}' holds a day",
                    where, hint=f"remove the time ({letters}), or declare '{name}' a timestamp if it stores "
                    "a time")
        else:
            c.warn("RK312", f"{shown} shows {what}, so timestamp field '{name}' cannot be shown "
                   "as a day: a claim of it as a date shows the stored time too", where,
                   hint="a named format (short, medium, long, full) shows the day of a date "
                   "claim and the time of a timestamp claim; a pattern of the day alone, such "
                   "as \"d MMMM yyyy\", shows the day of both")
        return
    problem = _babel_problem(kind, pattern)
    if problem:
        c.error("RK312", f"babel cannot apply {shown}: {problem}", value.span,
                hint="use short, medium, long or full, or a CLDR pattern such as \"d MMMM yyyy\"")


def _misread(kind: str, runs: list[tuple[str, int, int]]):
    """The first letter that babel renders without complaint but that shows another date or
    time than the one its neighbours mean, with what it shows and the letter to write instead;
    or None. 'Y' beside no week number is the week-based year, 'D' beside a month the day of
    the year, 'h' or 'K' beside no day period a 12-hour clock with no AM or PM."""
    letters = {letter for letter, _, _ in runs}
    for run in runs:
        letter, length, _ = run
        if letter == "Y" and "w" not in letters:
            return run, ("the week-based year: 29 December 2024 falls in week 1 of 2025 and "
                         "shows as 2025"), f"write '{'y' * length}' for the calendar year"
        if letter == "D" and letters & {"M", "L"}:
            return run, ("the day of the year: 5 February shows as 36"), \
                f"write '{'d' * min(length, 2)}' for the day of the month"
        if kind == "timestamp" and letter in "hK" and not letters & {"a", "b", "B"}:
            return run, ("a 12-hour clock with no AM or PM: 19:30 shows as "
                         f"{'07' if length == 2 else '7'}:30"), \
                f"write '{'H' * length}' for the 24-hour clock, or add 'a' for AM or PM"
    return None


def _babel_problem(kind: str, pattern: str) -> str | None:
    """What babel says when it formats a sample value with ``pattern``, or None: the last
    word, for any pattern the letter checks above let through."""
    try:
        _format(kind, pattern)
    except (AttributeError, KeyError, TypeError, ValueError) as exc:
        return str(exc) or exc.__class__.__name__
    return None


def _sample(kind: str, pattern: str) -> str | None:
    try:
        return _format(kind, pattern)
    except (AttributeError, KeyError, TypeError, ValueError):
        return None


def _format(kind: str, pattern: str) -> str:
    """30 July 2026 (a date field) or 09:15 UTC that day (a timestamp), in en_GB."""
    from babel.dates import format_date, format_datetime

    if kind == "date":
        return format_date(dt.date(2026, 7, 30), format=pattern, locale="en_GB")
    return format_datetime(dt.datetime(2026, 7, 30, 9, 15, tzinfo=dt.timezone.utc),
                           format=pattern, tzinfo=dt.timezone.utc, locale="en_GB")


def _inner(c: Compilation, value: ast.String, offset: int, length: int) -> Span:
    """The span of ``length`` characters at ``offset`` in the string's value, or the whole
    string when the source spells its value with escapes (offsets would not line up)."""
    span = value.span
    written = c.sources.get(span.path, "")[span.start:span.end]
    if span.line != span.end_line or written != f'"{value.value}"':
        return span
    return span.shifted(1 + offset, length)


def _listed(letters: list[str]) -> str:
    quoted = [f"'{letter}'" for letter in letters]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def _counts(lengths: list[int]) -> str:
    """[1, 2, 3] -> "1 to 3 times"; [1, 3, 4] -> "1, 3 or 4 times"; [1] -> "once"."""
    if lengths == [1]:
        return "once"
    if lengths == list(range(lengths[0], lengths[-1] + 1)):
        return f"{lengths[0]} to {lengths[-1]} times"
    return ", ".join(map(str, lengths[:-1])) + f" or {lengths[-1]} times"


def _widths(kind: str, letter: str, lengths: list[int]) -> str:
    """How each allowed count of ``letter`` shows a sample value: the count picks the width."""
    shown = []
    for count in lengths:
        written = _sample(kind, letter * count)
        if written is not None:
            shown.append(f"{letter * count} {written}")
    sample = "30 July 2026" if kind == "date" else "30 July 2026, 09:15 UTC"
    return f"the count picks the width; for {sample}: " + ", ".join(shown)
