"""Numbers that are no quantities, read the same way in the evidence and in an answer: a place in
a list ("3." opening a line, "Step 2", "Option 4"), a key of a shortcut ("Ctrl+Alt+3"), a code
(CE-108255-1, 23H2, KB-8110, v2.3.1) and a phone number ("+44 20 7946 0958", "1 (800)
555-0199").

In the evidence such digits license only the same use (``rulekit.evidence``); in an answer a
code and a phone number are one value each, matched whole (``rulekit.sweep``). Every reader
here is a cheap test first (a character beside the digits, a substring) and a linear pattern
after it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# Words before a number that make it a place in a sequence, not a quantity. In the evidence
# each makes its number a position ("Step 2", "Option 4", "version 2"): it licenses that
# position only. In an answer, the words of ``FREE_POSITION_WORDS`` let a small integer pass as
# a position of the answer's own list; the others name a thing a product has (a menu's option,
# a release), a fact the evidence must hold.
POSITION_WORDS = frozenset({"step", "item", "point", "option", "tip", "part", "chapter", "page",
                            "section", "slide", "question", "round", "hole", "game", "week",
                            "episode", "level", "stage", "phase", "version"})
FREE_POSITION_WORDS = POSITION_WORDS - {"option", "version"}
# "Option 4" names a menu item: when the evidence numbers options, the answer's must be one of
# them. A version is always a fact.
HELD_POSITION_WORDS = frozenset({"option", "version"})

# A key of a shortcut before the digit: "Ctrl+Alt+3", "Cmd + 2", "⌘3". Searched in a short
# window ending at the digit only.
_SHORTCUT_BEFORE = re.compile(
    r"(?i)(?:(?<![a-z])(?:ctrl|control|alt|altgr|shift|cmd|command|opt|option|win|windows|fn"
    r"|super|meta)[ ]?\+[ ]?|[⌘⌥⇧⌃][ ]?\+?[ ]?)+\Z")
_SHORTCUT_WINDOW = 40


# The numbers drawn in a circle, a bracket or with a full stop, as list markers write them:
# ① ⑴ ⒈ ⓵ ❶ ➀ ➊ (U+2460-U+24FF, U+2776-U+2793).
ENCLOSED_NUMBER = re.compile("[\u2460-\u24ff\u2776-\u2793]")


# A keycap after a digit, with or without the emoji variation selector: "1️⃣", "1⃣".
_KEYCAP_AFTER = re.compile("\ufe0f?\u20e3")
_KEYCAP_NEXT = frozenset("\ufe0f\u20e3")


def list_marker(text: str, start: int, end: int) -> bool:
    """"3." or "3)" with only white space before it on its line, an enclosed number ("①",
    "➊") before a space or a keycap digit ("1️⃣"): a marker of a list. The character after
    comes first, and the look back walks only over the blanks before the digits, a window at a
    time (an rfind for the line start made a text of many numbers quadratic)."""
    after = text[end:end + 1]
    if after not in (".", ")") and not (end - start == 1 and (
            after == " " and ENCLOSED_NUMBER.match(text, start)
            or after in _KEYCAP_NEXT and _KEYCAP_AFTER.match(text, end))):
        return False
    pos = start
    while pos > 0:
        window = text[max(0, pos - 64):pos]
        kept = window.rstrip()
        if "\n" in window[len(kept):]:
            return True                     # only blanks between the line break and the number
        if kept:
            return False
        pos -= len(window)
    return True


def shortcut(text: str, start: int, end: int) -> tuple[int, str] | None:
    """Where the shortcut that ends with the digits at [start, end) ("Ctrl+Alt+3") starts, and
    the shortcut without spaces and case-folded, or None."""
    if not start or text[start - 1] not in "+ ⌘⌥⇧⌃":
        return None
    found = _SHORTCUT_BEFORE.search(text, max(0, start - _SHORTCUT_WINDOW), start)
    if found is None or found.start() == found.end():
        return None
    after = text[end:end + 1]
    if after and (after.isalnum() or after == "+"):
        return None
    return found.start(), "".join(text[found.start():end].split()).casefold()


# --- codes ---------------------------------------------------------------------------------------

# Words that join a number to another inside a hyphenated word ("3-in-1", "up-to-5", "top-3"):
# not the letters of a code.
_JOINING = frozenset({"in", "to", "of", "by", "per", "and", "or", "x", "top", "for", "up", "on",
                      "a", "the", "over", "under", "than", "no", "nr", "vs"})
_SEPARATORS = re.compile(r"[-_.]")
_LETTER_DIGIT = re.compile(r"[A-Za-z][0-9]")
_COUNT_X = re.compile(r"[xX][0-9]+")


def _ascii_alnum(char: str) -> bool:
    return char.isascii() and char.isalnum()


def code_run(text: str, start: int, end: int,
             known: tuple[int, int] = (0, 0)) -> tuple[int, int]:
    """The run of ASCII letters and digits joined by single hyphens, underscores or dots around
    [start, end) ("CE-108255-2", "24H2", "v2.3.1"), whole however long: a transaction's hash
    or a wallet's address is one code, and its prefix another. ``known``, the run found for
    an earlier run of digits, is the run of any digits inside it (a run is walked once): a
    dot or hyphen is inside the run only between two letters or digits, from either side.
    ``code_near`` cuts a run too long to be any code."""
    if known[0] <= start and end <= known[1]:
        return known
    left = start
    while left > 0:
        char = text[left - 1]
        if _ascii_alnum(char) or (char in "-_." and left >= 2 and _ascii_alnum(text[left - 2])):
            left -= 1
        else:
            break
    if not _ascii_alnum(text[left:left + 1]):
        left += 1
    right, limit = end, len(text)
    while right < limit:
        char = text[right]
        if _ascii_alnum(char) or (char in "-_." and right + 1 < len(text)
                                  and _ascii_alnum(text[right + 1])):
            right += 1
        else:
            break
    return left, right


# The longest run read whole as one code (a hash, a wallet's address; ``code_near``); a longer
# one is read within ``_RUN_LIMIT`` characters of each run of digits, as a slice per digit.
_RUN_WHOLE = 256
_RUN_LIMIT = 48


def code_near(run: tuple[int, int], start: int, end: int) -> tuple[int, int]:
    """``run`` (from ``code_run``) for the digits at [start, end): whole, or, when longer than
    any code, only within ``_RUN_LIMIT`` characters of them, so that no digit of a run of
    thousands of characters slices the whole run."""
    if run[1] - run[0] <= _RUN_WHOLE:
        return run
    return max(run[0], start - _RUN_LIMIT), min(run[1], end + _RUN_LIMIT)


# Dashes a chat model writes for a code's hyphen: U+2010 hyphen, U+2011 non-breaking hyphen,
# U+2013 en dash, U+2212 minus sign.
_TYPOGRAPHIC_DASHES = "\u2010\u2011\u2013\u2212"
# A code written with them: ASCII letters or digits joined by hyphens or those dashes.
_DASHED_RUN = re.compile(rf"[A-Za-z0-9]+(?:[-{_TYPOGRAPHIC_DASHES}][A-Za-z0-9]+)+")
_TO_HYPHEN = str.maketrans(dict.fromkeys(_TYPOGRAPHIC_DASHES, "-"))
_ISO_DAY = re.compile(rf"[0-9]{{4}}[{_TYPOGRAPHIC_DASHES}][0-9]{{2}}[{_TYPOGRAPHIC_DASHES}][0-9]{{2}}")


def with_code_hyphens(text: str) -> str:
    """``text`` with a typographic dash inside a code read as "-" ("ORD\u20110012" is
    "ORD-0012"), so that the code is matched as the evidence writes it, and so inside an ISO
    day ("2026\u201112\u201103"); any other run with no letter ("5\u20137", a range of days)
    keeps its dash. One character for one: every position stays
    where it is, so a finding's span is the answer's."""
    if not any(dash in text for dash in _TYPOGRAPHIC_DASHES):   # the common case
        return text
    out = None
    for match in _DASHED_RUN.finditer(text):
        run = match.group()
        if run.isascii() or not (any(c.isalpha() for c in run) or _ISO_DAY.fullmatch(run)):
            continue
        if out is None:
            out = list(text)
        out[match.start():match.end()] = run.translate(_TO_HYPHEN)
    return text if out is None else "".join(out)


def code_like(run: str, glued_digits: bool = False) -> bool:
    """Whether ``run`` (``code_run``) is a code, a value in one piece: letters before digits
    ("PS5", "24H2", "v2", "0x800f0922"), or a word of letters joined to digits after it
    ("CE-108255", "KB-8110", "A-1001"); with ``glued_digits``, digits joined by dots or hyphens
    the scanner reads as one token ("9.4.7", "192.168.0.1"). Not a quantity with its unit
    ("500ml", "3-year", "24h"), nor "3-in-1", "x2" (a count of items), "top-3"."""
    parts = _SEPARATORS.split(run)
    if glued_digits and len(parts) > 2 and all(part.isdigit() for part in parts):
        return True
    for at, part in enumerate(parts):
        if _LETTER_DIGIT.search(part) and not _COUNT_X.fullmatch(part):
            return True
        if part.isalpha() and part.casefold() not in _JOINING and at + 1 < len(parts) \
                and parts[at + 1][:1].isdigit() and run[len("-".join(parts[:at + 1]))] in "-_":
            return True
    return False


# A code written with a space: a carrier's letters before its number ("BA 283", "LH 400", "U2
# 8021"), a department's before a course's ("MATH 221", "CHEM 201"), or a word that numbers a place or a service ("Terminal 5", "Gate 12", "Platform 9"),
# or a label's rank or kind (a payslip's "Plan 2", "Band 6", "Steuerklasse 3", "Zone 2"), or a
# government's form or publication ("Publication 501", "Formular 1040", "Modelo 100", "Cerfa
# n°12100*03"): its digits back the name only, never "$501".
SPACED_CODE_WORDS = frozenset({"terminal", "gate", "flight", "platform", "pier", "concourse",
                               "carousel", "track", "berth", "hall", "train", "bus", "route",
                               "plan", "band", "grade", "level", "tier", "stufe", "steuerklasse",
                               "class", "phase", "zone", "publication", "formular", "formulaire",
                               "formulario", "modelo", "cerfa"})
# Words of plain English that number a form, a case or a room only capitalised: "Form 4868",
# "Case No. 48213", "Room 214", "Schedule 2" (not "in case 3", "form 3 teams").
_TITLED_CODE_WORDS = frozenset({"Form", "Case", "Room", "Schedule"})
_WORD_BEFORE_SPACE = re.compile(r"(?<![\w-])([A-Za-z][A-Za-z0-9]{0,11}|[0-9][A-Z])[ \u00a0]\Z")
# A code word, then a number sign before the digits: "Case No. 48213", "Form Nr. 12", "Cerfa
# n°12100", "Case #48213", "Case Number 48213".
_WORD_BEFORE_SIGN = re.compile(r"(?<![\w-])([A-Za-z]{3,12})[ \u00a0](?:[Nn][OoRr]\.?[ \u00a0]"
                               r"|[Nn][\u00b0\u00ba][ \u00a0]?|#|[Nn]umber[ \u00a0])\Z")
_SIGN_ENDS = ("#", "\u00b0", "\u00ba", "o. ", "r. ", "o ", "O ", "r ", "R ", "er ")
# the edition after a Cerfa's number: "12100*03"
_EDITION = re.compile(r"\*[0-9]{1,3}(?![\w*])")
_CARRIER = re.compile(r"[A-Z]{2,4}|[A-Z][0-9]|[0-9][A-Z]")
# Capitals before a number that say a quantity or a word of a line in capitals, no carrier:
# "QTY 2", "NO 5", "GET 3 BAGS", "OVER 50 STYLES", "LAST 3 DAYS". (A shouted name of a place,
# "UNIT 3", "ROOM 12", is read as a code: its digits then back only the name, the strict side.)
_NOT_CARRIERS = frozenset("QTY PCS PC NO NR NUM TOT MAX MIN AVG ETA AGE VAT TAX FEE PER AND THE "
                          "FOR ALL OF TO IN ON AT BY UP OR IS ARE YOU GET BUY ADD SET ONLY JUST "
                          "NOW WAS SAVE OFF OVER FROM WITH LAST NEXT PLUS LESS EACH MORE THAN "
                          "INTO UPTO ALSO WERE HAVE HAS WILL SOLD LEFT FREE BUYS GETS TAKE "
                          "YEAR WEEK DAYS HOUR HRS MINS SECS SIZE PACK SOME MANY".split())
# A model number's tail after a hyphen: "777-300ER", "A320-200N" (not "10-12PM", a range).
_MODEL_TAIL = re.compile(r"-[0-9]+([A-Z]{1,3})(?![\w-])")


def spaced_code(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The span of the code whose digits are [start, end) when the code is written with a space
    or ends in a model's hyphenated tail: "BA 283", "Terminal 5", "777-300ER"; else None. Not
    a number with decimals, nor one a letter or digit touches. The character after the digits
    is tested first, then a window of a word before them."""
    digits = text[start:end]
    if not digits.isdigit():
        return None
    after = text[end:end + 1]
    if after == "-":
        tail = _MODEL_TAIL.match(text, end)
        if tail is not None and tail[1] not in ("AM", "PM"):
            return start, tail.end()
        return None
    if after.isalnum() or start < 3:
        return None
    if text[start - 1] in (" ", "\u00a0"):
        word = _WORD_BEFORE_SPACE.search(text, max(0, start - 14), start)
        if word is not None and (_CARRIER.fullmatch(word[1]) and word[1] not in _NOT_CARRIERS
                                 or _code_word(word[1])):
            return word.start(1), _edition_end(text, end)
    if text.endswith(_SIGN_ENDS, max(0, start - 3), start):
        word = _WORD_BEFORE_SIGN.search(text, max(0, start - 22), start)
        if word is not None and _code_word(word[1]):
            return word.start(1), _edition_end(text, end)
    return None


def _code_word(word: str) -> bool:
    """Whether ``word`` numbers a code after it: "Terminal", "Publication", "Form" (titled)."""
    return word.casefold() in SPACED_CODE_WORDS or word in _TITLED_CODE_WORDS


def _edition_end(text: str, end: int) -> int:
    """The end of a code whose digits end at ``end``, with its edition ("12100*03")."""
    if text.startswith("*", end):
        edition = _EDITION.match(text, end)
        if edition is not None:
            return edition.end()
    return end


def glued_forms(code: str) -> tuple[str, ...]:
    """A carrier's code in both spellings, case-folded: "BA 283" and "BA283" are one flight to
    a traveller. Any other code only as written."""
    folded = " ".join(code.split()).casefold()
    letters, _, digits = folded.partition(" ")
    if digits.isdigit() and _CARRIER.fullmatch(letters.upper()):
        return folded, letters + digits
    glued = _GLUED_CARRIER.fullmatch(folded)
    if glued is not None:
        return folded, f"{glued[1]} {glued[2]}"
    return (folded,)


_GLUED_CARRIER = re.compile(r"([a-z]{2,4})([0-9]{1,4})")


def code_forms(run: str) -> Iterable[str]:
    """``run`` case-folded, then without the words of letters after it ("BT-3-compatible" is
    "bt-3"): the forms an answer's code may match the evidence's in."""
    form = run.casefold()
    yield form
    while True:
        cut = max(form.rfind("-"), form.rfind("_"))
        if cut <= 0 or not form[cut + 1:].isalpha():
            return
        form = form[:cut]
        yield form


# --- phone numbers -------------------------------------------------------------------------------

# A phone number as people write one: an optional "+" and country code, an optional "(0)",
# an optional area code in brackets, then groups of digits joined by single spaces, hyphens or
# dots. Every group is delimited, so the pattern is linear.
PHONE = re.compile(r"(?<![\w+.,/])(?:\+\d{1,3}[ \u00a0.-]?)?(?:\d{1,4}[ \u00a0.-](?=\())?"
                   r"(?:\(0\)[ \u00a0]?)?(?:\(\d{1,5}\)[ \u00a0.-]?)?\d{1,5}"
                   r"(?:[ \u00a0.-]\d{1,5}){1,5}(?![\w]|[.,]\d)")
# A hexadecimal id, maybe after a word and an underscore: "3f2b8c1e-5d4a-4e7b-9a61",
# "0c2d8e4f7b13", "acct_7f3a9c21", a commit's "a1b2c3d" (``hex_id``).
_HEX_ID = re.compile(r"(?:[a-z]+_)?([0-9a-f]{4,}(?:-[0-9a-f]{4,})*)")


def hex_id(name: str) -> bool:
    """Whether ``name`` (case-folded) is a hexadecimal id of seven hex digits or more, letters
    and digits mixed: its digit runs are no figures anyone wrote, so a number found only inside
    it is not named as that name's digits in a finding."""
    found = _HEX_ID.fullmatch(name)
    if found is None:
        return False
    digits = found.group(1).replace("-", "")
    return len(digits) >= 7 and not digits.isdigit() and any(c.isdigit() for c in digits)


_PHONE_NAME = re.compile(r"(?i)phone|(?:^|_)tel(?:$|_)|mobile|fax|hotline|whatsapp|telefon"
                         r"|telephone|contact_number")


def phone_digits(written: str) -> str:
    """The digits of a phone number as written, "+" first for an international one; "(0)" (a
    trunk prefix written beside the country code) left out."""
    digits = "".join(char for char in written.replace("(0)", "") if char.isdigit())
    return "+" + digits if written.lstrip().startswith("+") else digits


def phones_in(text: str, named: bool = False) -> list[tuple[int, int, str]]:
    """(start, end, digits) of every phone number in ``text``: 9 to 15 digits, written with a
    "+", an area code in brackets, or, in a field named for one (``named``: ``phone_uk``),
    alone; or three groups joined by hyphens as North America writes them ("1-800-555-0199")."""
    found = []
    for match in PHONE.finditer(text):
        written = match.group()
        digits = phone_digits(written)
        count = len(digits) - digits.startswith("+")
        if not 9 <= count <= 15:
            continue
        if digits.startswith("+") or "(" in written or named or (
                written.count("-") >= 2 and " " not in written):
            found.append((match.start(), match.end(), digits))
    return found


def phone_field(name: str) -> bool:
    return _PHONE_NAME.search(name) is not None


def same_phone(said: str, held: str) -> bool:
    """Whether two phone numbers (``phone_digits``) are one: the same digits, or one with its
    country code and the other without it, with or without the national trunk prefix 0 ("+44 20
    7946 0958" is "020 7946 0958"; "1-800-555-0199" is "(800) 555-0199")."""
    if said == held:
        return True
    for one, other in ((said, held), (held, said)):
        international = other.lstrip("+")
        if not (other.startswith("+") or len(international) == 11
                and international.startswith("1")):
            continue
        national = one.lstrip("+")
        if one.startswith("+"):
            continue                         # both international and not equal
        for candidate in (national, national[1:] if national.startswith("0") else None):
            if candidate and len(candidate) >= 6 and international.endswith(candidate) \
                    and 1 <= len(international) - len(candidate) <= 3:
                return True
    return False
