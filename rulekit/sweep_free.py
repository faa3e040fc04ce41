"""Rule 15 of the sweep: "free" said of an amount must be backed by an amount of zero.

"The Widget is free", "Shipping is free of charge", "it costs nothing", "at no cost" say that a
price is 0, though no figure is written: against a price of $20.00 they are a wrong fact.
``said_free`` finds such words (``free``, ``free of charge``, ``for free``, ``complimentary``,
``at no cost``, ``no charge``, ``costs nothing``), not where "free" says something else: an
idiom ("feel free to", "free to cancel", "free from", "free up", "free time"), a compound
("sugar-free", "hands-free", "gluten free": a word before it that is not a copula, an article,
an adverb or a verb of giving), a question, or a clause that supposes, hedges or qualifies
(``sweep_flags._UNREAD``: "free over $50", "free for members", "usually free").

Free text (``free_findings``): the words are held to the money the clause names: the amounts
of a row whose ``name`` or ``title`` it says ("The Widget is free": the Widget's price, or
its amounts named like a price when it has several), else the amounts of a field a word of
whose name it says other than the generic price words ("Shipping is free": ``shipping_cost``).
Any of them at zero backs the words; all above zero contradict them. Words no amount is named
for ("It's free") are not judged, and words a boolean field reads ("free returns",
``sweep_flags``) are rule 14's.

A claims template (``template_free``): the words are held to a money slot of their sentence
(its verified value must be zero, unless a threshold word stands before the slot: "free over
{threshold}"); with none, they are a claim no slot backs (``prose guarded``). A yes to "Is the
Widget free?" asks whether a price is 0 (``asked_free``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any, NamedTuple

from rulekit.findings import Finding, _new_finding
from rulekit.scan.base import _ascii_lower
from rulekit.sweep_flags import (_REACH, _TOKEN, _UNREAD, _by_start, _clause, _negation,
                                  _overlapping)

_FREE = re.compile(
    r"(?<![\w-])(?:(?:for[ \t\u00a0]+)?free(?:[ \t\u00a0-]+of[ \t\u00a0-]+charge)?"
    r"|complimentary|(?:at[ \t\u00a0]+)?no[ \t\u00a0]+(?:extra[ \t\u00a0]+)?(?:cost|charge)"
    r"|costs?[ \t\u00a0]+(?:you[ \t\u00a0]+)?nothing)(?![\w-])", re.IGNORECASE)
# A named fee said to be none: "no HOA fee", "no monthly HOA fees", "HOA-free"; its thing is the
# word before "fee" or "-free" (``_named_fees``: found from the literal " fee" or "-free" back).
_NO_FEE = re.compile(r"(?<![\w-])no[ \t\u00a0]+(?:[^\W\d_]+[ \t\u00a0]+)?"
                     r"([^\W\d_]+(?:-[^\W\d_]+)*)[ \t\u00a0]+fees?(?![\w-])", re.IGNORECASE)
_COMPOUND_FREE = re.compile(r"(?<![\w-])([^\W\d_]+)-free(?![\w-])", re.IGNORECASE)
_SENTENCE_STOP = re.compile(r"[.!?\n]")
# Words after "free" that make it no price: "free to cancel", "free from defects".
_NOT_PRICE_AFTER = frozenset("to from up of time will speech agent form hand rein range flow "
                             "throw kick fall spirit trade market software".split())
# Right before "free", a mark that makes it a label's value ("Arabica Whole Bean 500g: free
# shipping!", "... - free shipping"; a dash only spaced), not a compound ("gluten-free").
_LABEL_MARKS = frozenset(":-\u2013\u2014")
# A word right before "free" that leaves it a price ("is free", "ships free", "a free"); any
# other word makes a compound ("sugar free", "gluten free") or an idiom ("feel free").
_PRICE_BEFORE = frozenset(
    "is are was were be been being it's that's they're you're we're remains remain stays stay "
    "a an the its their your our this these those for with and also now still completely "
    "totally entirely absolutely 100% always just all both get gets got getting comes come "
    "ships ship shipped shipping delivered delivery offer offers offered include includes "
    "included provide provides enjoy receive receives give gives make makes available has have "
    "had".split())
# Words that make "free" no price right before it in a question ("Is it gluten free?").
_COMPOUNDS = frozenset("feel feels sugar gluten fat lactose dairy nut cruelty bpa tax duty "
                       "interest hands toll scent fragrance alcohol caffeine error risk "
                       "worry hassle stress".split())
# Words of a field's name that say only that it is money: "shipping" names shipping_cost,
# "price" names no field of its own ("The price is free" is too vague to judge).
_GENERIC = frozenset("price prices cost costs amount amounts total totals fee fees charge "
                     "charges value cents cent minor units unit pence usd eur gbp in per the "
                     "of a".split())
# What supposes or hedges: a template's words are left unread there only.
_SUPPOSING = frozenset("if unless when whenever once until whether case provided providing "
                       "would could might maybe perhaps possibly probably".split())
# Words before "free" in its clause that leave the subject to the sentence: "{name} is
# {price}, i.e. free", "{name} is {price}, which is free".
_LINKING = _PRICE_BEFORE | frozenset("i.e ie e.g so which meaning basically effectively "
                                     "practically thus".split())
_ABBREVIATION = re.compile(r"(?<![\w.])(?:i\.e|e\.g|incl|approx|vs)\.", re.IGNORECASE)
# A threshold before a money slot: "free over {threshold}", "free from {minimum}".
_THRESHOLD = re.compile(r"(?<![\w-])(?:over|above|from|at least|or more|spend|spending|"
                        r"exceeding|beyond|minimum)[ \t\u00a0]*(?:of[ \t\u00a0]*)?\Z",
                        re.IGNORECASE)


class FreeSaid(NamedTuple):
    start: int
    end: int
    begin: int      # the clause around it
    finish: int
    thing: str | None   # the word "free" is said of when it stands before one ("free shipping")


# Words after "free" that are no thing it is said of: "free for you", "free now".
_NO_THING = frozenset("for with on to and or but now today too also again as in at of this "
                      "that of it is are you".split())


def may_say_free(low: str) -> bool:
    """The first look: whether the case-folded text could hold any of the words."""
    # (chained substring tests, not a generator over a tuple of words: this runs on every audit)
    return _says_free_words(low) or " fee" in low     # " fee": "no HOA fee" (``_named_fees``)


def _says_free_words(low: str) -> bool:
    """Whether the case-folded text could hold a word of ``_FREE``."""
    return "free" in low or "no c" in low or "nothing" in low or "complimentary" in low


def said_free(text: str, covered: Sequence[tuple[int, int]] = (),
              qualified: bool = False) -> list[FreeSaid]:
    """Where ``text`` says that an amount is nothing (see the module), in text order; none
    inside a span of ``covered`` (quotes, links, words another rule reads). ``qualified``:
    read them in a clause that qualifies ("free for members") too, as a template's words
    are (only what supposes or hedges is left unread there)."""
    low = text.casefold()
    if not may_say_free(low):
        return []
    found = []
    covering = _by_start(covered) if covered else None     # a bisection per word, not a scan
    matches = list(_FREE.finditer(text)) if _says_free_words(low) else []
    named = _named_fees(text)
    if named:
        matches = sorted(matches + named, key=lambda m: m.start())
    for match in matches:
        start, end = match.span()
        if covering is not None and _overlapping(covering, start, end):
            continue
        begin, finish = _clause(text, start, end)
        if _not_a_price(text, match, begin, finish, _SUPPOSING if qualified else _UNREAD):
            continue
        thing = _reduced(match.group(1)) if match.re is not _FREE \
            else _thing(text, match.group(), end, finish)
        found.append(FreeSaid(start, end, begin, finish, thing))
    return found


def _named_fees(text: str) -> list[re.Match]:
    """Where ``text`` says a named fee is none ("no HOA fee", "HOA-free"), found from each
    " fee" back to the nearest "no " and from each "-free" back to its word; group 1 is the
    fee's thing."""
    low = _same_length_lower(text)
    found = []
    at = low.find(" fee")
    while at >= 0:
        opening = low.rfind("no ", max(0, at - 40), at)
        match = _NO_FEE.match(text, opening) if opening >= 0 else None
        if match is not None and match.end() > at:     # this fee's, not one before it
            found.append(match)
        at = low.find(" fee", at + 4)
    at = low.find("-free")
    while at >= 0:
        opening = at
        while opening and text[opening - 1].isalpha():
            opening -= 1
        match = _COMPOUND_FREE.match(text, opening) if opening < at else None
        if match is not None:
            found.append(match)
        at = low.find("-free", at + 5)
    return found


def _thing(text: str, said: str, end: int, finish: int) -> str | None:
    """The word "free" (``said``, ending at ``end``) is said of, reduced ("free shipping":
    "shipping"), or None when a word that names no thing follows, or none."""
    after = _TOKEN.search(text, end, finish)
    if after is None or not said.casefold().endswith("free") \
            or after.group().casefold() in _NO_THING:
        return None
    return _reduced(after.group())


def _not_a_price(text: str, match: re.Match, begin: int, finish: int,
                 unread: frozenset[str]) -> bool:
    said = match.group().casefold()
    start, end = match.span()
    before = [t.group().casefold().replace("\u2019", "'")
              for t in _TOKEN.finditer(text, begin, start)]
    if before and before[-1] in _LABEL_MARKS and (before[-1] == ":" or text[start - 1:start]
                                                   in (" ", "\t", "\u00a0")):
        before = []             # "Arabica Whole Bean 500g: free shipping!": a label's value
    after = [t.group().casefold() for t in _TOKEN.finditer(text, end, finish)]
    if said.startswith("free") and not said.endswith("charge"):
        if after and after[0] in _NOT_PRICE_AFTER:
            return True
        if before and before[-1] not in _PRICE_BEFORE and not before[-1].endswith("'s"):
            return True         # "gluten free", "feel free", "set free"
    # The sentence, read within a bounded reach on either side as rule 14 reads it
    # (``sweep_flags._stated``), so that each "free" of a long answer costs the same; it
    # opens after any sentence stop ("Great news! Shipping is free!": the second sentence).
    sentence_end = _SENTENCE_STOP.search(text, end, end + _REACH * 2)
    if sentence_end is not None and sentence_end.group() == "?":
        return True
    opening = max(0, start - _REACH * 2)
    for cut in _SENTENCE_STOP.finditer(text, opening, start):
        opening = cut.end()
    closing = sentence_end.start() if sentence_end is not None \
        else min(len(text), end + _REACH * 2)
    words = [t.group().casefold().replace("\u2019", "'")
             for t in _TOKEN.finditer(text, opening, closing)]
    if any(w in unread for w in words) or "as long as" in text[opening:closing].casefold():
        return True         # supposed, hedged or qualified: "free over $50", "for members"
    return any(_negation(w) for w in before + after)    # "isn't free": not read


# --- free text (audit) -----------------------------------------------------------------------

class _Money(NamedTuple):
    value: Decimal
    path: str
    words: frozenset[str]   # the field name's words, generic ones left out


def free_findings(text: str, evidence: Any, covered: Sequence[tuple[int, int]]
                  ) -> list[Finding]:
    """A ``contradicted`` finding for each place ``text`` says free of an amount the evidence
    holds above zero (see the module)."""
    said = said_free(text, covered)
    if not said:
        return []
    money = _money(evidence)
    if not money:
        return []
    rows = _rows(evidence)
    low = _same_length_lower(text)
    out = []
    for item in said:
        held = _named(low, item, money, rows)
        if not held or any(m.value == 0 for m in held):
            continue
        words = text[item.start:item.end]
        names = " and ".join(dict.fromkeys(m.path.removeprefix("$.") for m in held[:3]))
        shown = ", ".join(dict.fromkeys(str(m.value) for m in held[:3]))
        out.append(_new_finding(
            "number", words, "0", item.start, item.end, "contradicted",
            f"'{words}' says {names} is 0; the evidence holds {shown}"))
    return out


def _named(low: str, item: FreeSaid, money: Sequence[_Money],
           rows: Sequence[tuple[str, str]]) -> list[_Money]:
    """The amounts the clause of ``item`` names: a field's words, then a row's name."""
    # a hyphenated word is its words too: "one-way fee" names ``one_way_fee``
    clause = {_reduced(w) for t in _TOKEN.finditer(low, item.begin, item.finish)
              for w in _hyphened(t.group())}
    by_field = [m for m in money if m.words and m.words <= clause]
    if item.thing is not None:      # "free shipping": the shipping's amounts, or none
        thing = {_reduced(w) for w in _hyphened(item.thing)[1:]} or {item.thing}
        by_field = [m for m in money if (item.thing in m.words or thing <= m.words)
                    and m.words <= clause | thing]
    if by_field:                    # the most words said: "express shipping" is not "shipping"
        most = max(len(m.words) for m in by_field)
        by_field = [m for m in by_field if len(m.words) == most]
    for path, name in rows:
        at = low.find(name, item.begin, item.finish)
        if at < 0 or not _whole(low, at, name):
            continue
        own = _own_money(money, path)
        if not own:
            continue
        named = [m for m in own if m in by_field]
        if named or item.thing is not None:
            return named or by_field
        priced = [m for m in own if not m.words]
        return priced or own
    if by_field and rows:
        # no row named in the clause: the row named last before it in its sentence ("42 Maple
        # Street has a pool and no HOA fee"), for the fields the clause names
        opening = max(low.rfind(mark, 0, item.begin) for mark in ".!?\n") + 1
        nearest = max(((at, path) for path, name in rows
                       if (at := low.rfind(name, opening, item.begin)) >= 0
                       and _whole(low, at, name)), default=None)
        if nearest is not None:
            return [m for m in _own_money(money, nearest[1]) if m in by_field] or by_field
    return by_field


def _hyphened(word: str) -> tuple[str, ...]:
    """A word, and its parts when a hyphen joins them ("one-way": "one-way", "one", "way")."""
    return (word, *word.split("-")) if "-" in word.strip("-") else (word,)


def _whole(low: str, at: int, name: str) -> bool:
    """Whether the name found at ``at`` stands as whole words."""
    return not low[at - 1:at].isalnum() and not low[at + len(name):at + len(name) + 1].isalnum()


def _own_money(money: Sequence[_Money], path: str) -> list[_Money]:
    """The amounts of the row at ``path``."""
    return [m for m in money if m.path.startswith(path) and m.path[len(path):len(path) + 1] in ".["]


def _same_length_lower(text: str) -> str:
    """``text`` case-folded where that keeps every offset ("ß" becomes "ss"), else with its
    ASCII letters lowered: offsets found in ``text`` are read in it."""
    low = text.casefold()
    return low if len(low) == len(text) else _ascii_lower(text)


def _reduced(word: str) -> str:
    """A word as a thing is compared: case-folded, without its plural, and "delivery" and
    "postage" as "shipping" (a ``delivery_fee`` is what "free shipping" says of)."""
    word = word.casefold().strip("'\u2019")
    word = word[:-1] if word.endswith("s") and not word.endswith("ss") else word
    return _SAME_THING.get(word, word)


_SAME_THING = {"delivery": "shipping", "postage": "shipping"}
_PERIODS = frozenset("monthly annual annually yearly weekly daily hourly nightly quarterly".split())


def _money(evidence: Any) -> list[_Money]:
    from rulekit.evidence import NO_MONEY, _money_name, key_words

    found = []
    counted = None
    for figure in evidence.figures:
        if figure.percent or not figure.whole or figure.currency in ("%", NO_MONEY):
            continue
        key = re.split(r"[.\[\]]", figure.path.rstrip("]"))[-1]
        if not _money_name(key):
            if figure.currency is None:
                continue
            if counted is None:
                counted = evidence.counted
            if key in counted:
                continue    # ``nights: 3`` beside a currency counts nights: "a free night"
        words = frozenset(_reduced(w) for w in key_words(key)) - _GENERIC
        # what it is per is no thing it is for: "The HOA is free" names hoa_fee_monthly
        words = (words - _PERIODS) or words
        found.append(_Money(figure.value, figure.path, words))
    return found


def _rows(evidence: Any) -> list[tuple[str, str]]:
    """(path, name case-folded) of every row of the evidence named by a ``name`` or ``title``,
    the longest names first (a name inside another is that other's)."""
    from rulekit.evidence import _named_rows

    if isinstance(evidence.raw, str) or evidence.raw is None:
        return []
    named: list[tuple[str, str]] = []
    _named_rows(evidence.raw, "$", named, evidence.row_names)
    cleaned = [(path, " ".join(name.split()).casefold()) for path, name in named]
    return sorted((r for r in cleaned if r[1]), key=lambda r: -len(r[1]))


# --- a claims template -----------------------------------------------------------------------

def template_free(pieces: Sequence[str], money_slots: Mapping[str, frozenset[str]],
                  covered: Sequence[tuple[int, int]] = ()) -> list[tuple[str, str | None]]:
    """(words, slot) of each place a template (``pieces``: prose and slot names in turn) says
    free, qualified or not: ``slot`` the money slot of its sentence it is held to (of those
    in ``money_slots``, each with the words of its field's name and label: "free shipping"
    is held to a slot whose words say shipping), or None when it has none. A sentence with a
    slot after a threshold word ("free over {threshold}") is not read."""
    prose = "".join(p if i % 2 == 0 else "#" * (len(p) + 2) for i, p in enumerate(pieces))
    said = said_free(prose, covered, qualified=True)
    if not said:
        return []
    spans, at = [], 0
    for index, piece in enumerate(pieces):
        width = len(piece) if index % 2 == 0 else len(piece) + 2
        if index % 2 and piece in money_slots:
            spans.append((at, at + width, piece,
                          bool(_THRESHOLD.search(prose[max(0, at - 24):at]))))
        at += width
    out = []
    marks = _ABBREVIATION.sub(lambda m: "_" * len(m.group()), prose)   # "i.e." ends nothing
    for item in said:
        begin = max(marks.rfind(mark, 0, item.start) for mark in (".", "!", "?", "\n")) + 1
        ends = [e for e in (marks.find(mark, item.end) for mark in (".", "!", "?", "\n"))
                if e >= 0]
        finish = min(ends) if ends else len(prose)
        if any(t.group().casefold() not in _LINKING
               for t in _TOKEN.finditer(prose, item.begin, item.start)):
            begin, finish = item.begin, item.finish     # "returns are free": its own subject
        inside = [(name, threshold) for s, e, name, threshold in spans
                  if begin <= s and e <= finish]
        if any(threshold for _, threshold in inside):
            continue
        slot = next((name for name, _ in inside
                     if item.thing is None or item.thing in money_slots[name]), None)
        if slot is None and item.thing is not None:
            continue    # "free express shipping", "your free trial": a thing no slot prices
        out.append((prose[item.start:item.end], slot))
    return out


def asked_free(question: str) -> str | None:
    """The words of a yes-or-no question that ask whether something costs nothing ("Is the
    Widget free?", "Is shipping free of charge?"), or None."""
    low = question.casefold()
    if not may_say_free(low) or "?" not in question:
        return None
    sentence = question[:question.find("?") + 1]
    if any(t.group().casefold() in _UNREAD for t in _TOKEN.finditer(sentence)):
        return None         # "Is cancellation free until 7 pm?", "free over $50?"
    for match in _FREE.finditer(question):
        begin, finish = _clause(question, match.start(), match.end())
        before = [t.group().casefold() for t in _TOKEN.finditer(question, begin, match.start())]
        after = [t.group().casefold() for t in _TOKEN.finditer(question, match.end(), finish)]
        said = match.group().casefold()
        # the subject stands before "free" in a question ("Is the Widget free?"): only an
        # idiom or a compound's word there makes it no price
        if said.startswith("free") and (after and after[0] in _NOT_PRICE_AFTER
                                        or before and before[-1] in _COMPOUNDS
                                        or after and after[0] not in _NO_THING):
            continue        # an idiom, a compound, or a thing called free ("free trial")
        return match.group()
    return None


def template_failures(policy: Any, template: Any, planned: Sequence[Any], rows: Any,
                      path: str) -> list:
    """The failures of a claims template's words that say free (``template_free``): held to
    the money slot of their sentence, whose stored value must be zero (``contradicted``
    otherwise); with none, under ``prose guarded``, a claim no slot backs
    (``unapproved_shape``). Words a boolean field of a cited row reads ("free returns") are
    rule 14's (``sweep_flags.template_failures``)."""
    from rulekit.compare import COMPARATORS, Unreadable
    from rulekit.decision import Failure, Reason
    from rulekit.sweep_flags import boolean_fields, reading, said_flags

    money = {p.claim.key: p for p in planned
             if p.field is not None and p.field.type.kind == "money"}
    words = {key: frozenset(_reduced(w) for w in re.findall(
        r"[^\W\d_]+", f"{p.field.name.replace('_', ' ')} {p.field.label}")) for key, p in money.items()}
    readings = {reading(name) for p in planned if p.entity is not None
                for name in boolean_fields(p.entity)}
    prose = "".join(piece if i % 2 == 0 else "#" * (len(piece) + 2)
                    for i, piece in enumerate(template.pieces))
    covered = [(s.start, s.end) for s in said_flags(prose, readings - {None})] \
        if readings - {None} else []
    out, unbacked = [], []
    for said, slot in template_free(template.pieces, words, covered):
        if slot is None:
            unbacked.append(said)
            continue
        item = money[slot]
        row = (rows.get(item.entity.name) or {}).get(str(item.claim.entity_id)) or {}
        try:
            stored = COMPARATORS["money"].read_actual(item.field.type, row.get(item.field.name),
                                                      "money")
        except (Unreadable, ValueError, TypeError, ArithmeticError):
            stored = None
        if stored == 0:
            continue
        out.append(Failure("contradicted", Reason(
            "contradicted", f"'{said}' beside {{{slot}}} says it costs nothing; the "
            f"{item.field.label} is " + ("not recorded" if stored is None else "not 0"), path),
            feedback=f"'{said}' says {{{slot}}} is 0, which the record does not hold"))
    if unbacked and policy.prose == "guarded":
        from rulekit.prose import guarded_phrases

        flagged = {p.casefold() for p in guarded_phrases(template.prose,
                                                         policy.forbidden_pattern)}
        unbacked = [w for w in unbacked if w.casefold() not in flagged]
    if unbacked and policy.prose == "guarded":
        out.append(Failure("unapproved_shape", Reason(
            "unapproved_shape", "the prose makes claims no slot backs: "
            + ", ".join(f"'{w}'" for w in dict.fromkeys(unbacked)), path)))
    return out


def asked_free_held(question: str, evidence: Any) -> tuple[str, str] | None:
    """(the question's words, the amounts the evidence holds) when a yes-or-no question asks
    whether something costs nothing ("Is the Widget free?") that the evidence holds above zero
    (the amounts its clause names, as ``free_findings`` reads them); None otherwise."""
    words = asked_free(question)
    if words is None:
        return None
    money = _money(evidence)
    if not money:
        return None
    at = question.find(words)
    begin, finish = _clause(question, at, at + len(words))
    item = FreeSaid(at, at + len(words), begin, finish,
                    _thing(question, words, at + len(words), finish))
    held = _named(_same_length_lower(question), item, money, _rows(evidence))
    if not held or any(m.value == 0 for m in held):
        return None
    names = " and ".join(dict.fromkeys(m.path.removeprefix("$.") for m in held[:3]))
    return words, f"{names}: " + ", ".join(dict.fromkeys(str(m.value) for m in held[:3]))
