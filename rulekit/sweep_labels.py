"""Rule 13 of the sweep: an enum value's label said in free text must name a value the
evidence holds.

The evidence block shows an enum value by its label ("room only" for ``room_only``:
``rulekit.prompt``), so free text says the label, and a label is a claim about the value of its
field: "breakfast included" said of a rate that is ``room_only`` is wrong, though no figure is.
A label of a readable enum field of the ruleset (``room_only label "room only"``), said as
words of the answer (any case, any white space between its words, not inside a quote, which
rule 7 judges), must be the label of a value some row of its entity in the evidence holds in
that field, as the alias table reads it (a row storing ``RO`` holds ``room_only``). When the
evidence holds no row of the entity (a text document, say), the label must appear in its text.
A label held only by rows a rule withholds (stale, hidden, given only with an input the user
has not given) takes that rule's finding, so that its action applies. Aliases other than
labels ("B&B", "garden") are everyday words and are not read. A label is read only as a state
said now (``_stated``): not in a question, a supposition or a negation, and a label of one
everyday word ("paid", "open", "void") only after a copula whose subject names a row.

Only a ruleset with labelled enum fields pays for this, and a text that holds none of their
labels pays one substring test per label (``label_findings``).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from typing import Any, NamedTuple

from rulekit.compare import _alias_table, _fold
from rulekit.evidence import Evidence, Withheld
from rulekit.findings import Finding, _new_finding
from rulekit.policy import Policy
from rulekit.scan import squash


# Where a label said is a claim (``_stated``). A clause ends at punctuation or at "and", "but",
# "or", "so" (a colon and a table's bar are a copula, not an end); a sentence at . ! ? or a line.
_CLAUSE_END = re.compile(r"[,;.!?\n()\u2014\u2013]|\b(?:and|but|or|so|then)\b", re.IGNORECASE)
_REACH = 200                # how far a clause is looked at on either side of a label
_SENTENCE_END = re.compile(r"[.!?\n]")
_NEGATION = re.compile(r"\b(?:not|no|never|neither|nor|without|cannot|nicht|kein\w*|pas|sin|sans|"
                       r"senza|sem|geen|niet)\b|n['\u2019]t\b", re.IGNORECASE)
_SUPPOSED = re.compile(r"\b(?:if|once|when|whenever|unless|until|whether|case|wenn|falls|sobald|"
                       r"si|se|als|zodra)\b", re.IGNORECASE)
_TOKEN = re.compile(r"[\w'\u2019-]+|[:|]")
# Before a label, an offer of it ("Upgrade to the", "you can switch to", "consider our"): a
# value the answer proposes, not one it states. Only the present and the -ing forms: "You've
# upgraded to the Enterprise plan" and "We switched you to it" state the value.
_OFFER_BEFORE = re.compile(
    r"\b(?:(?:upgrade|upgrading|downgrade|downgrading|switch|switching|move|moving|change|"
    r"changing|migrate|migrating|go|going|subscribe|subscribing|sign[ \t]+up|signing[ \t]+up)"
    r"[ \t]+(?:to|for|onto|on)|try|trying|consider|considering|choose|choosing|pick|select|"
    r"opt[ \t]+for|recommend|suggest)[ \t]+(?:the[ \t]+|an?[ \t]+|our[ \t]+)?\Z", re.IGNORECASE)
# After a label that opens its clause (with "the", "our", "an" at most before it), a verb that
# describes what the value is ("The Enterprise plan includes ..."), not which value a row holds.
_DESCRIBED_AFTER = re.compile(r"[ \t]+(?:includes|offers|comes[ \t]+with|gives[ \t]+you|"
                              r"provides|supports|allows|costs|adds|unlocks|features)\b",
                              re.IGNORECASE)
_ARTICLES = frozenset("the our an a".split())
# Between a copula and a one-word label: "INV-1 is now marked as paid", "it has been paid".
_BETWEEN = frozenset("now already still fully currently also all both marked shown listed as "
                     .split())
_COPULA = frozenset("is are was were been remains remain stays stay : |".split())
_PRONOUNS = frozenset("it this that they which both each".split())


class _Label(NamedTuple):
    folded: str             # the label, casefolded, its words one space apart: the prefilter
    pattern: re.Pattern     # the label as words of a text
    label: str
    entity: str
    field: str
    value: str
    shown: tuple[tuple[str, str], ...]  # the field's labels (value, label), for the message


def labels_of(policy: Policy) -> tuple[_Label, ...]:
    """Every label of a readable enum field of ``policy``. Read once per policy:
    ``Policy.enum_labels``."""
    found = []
    for entity in policy.entities:
        for field in entity.fields:
            spec = field.type
            if spec.kind != "enum" or not field.readable:
                continue
            for value, label in spec.labels:
                words = label.split()
                if not words:
                    continue
                head = r"\b" if re.match(r"\w", words[0]) else ""
                tail = r"\b" if re.search(r"\w$", words[-1]) else ""
                pattern = re.compile(head + r"\s+".join(map(re.escape, words)) + tail,
                                     re.IGNORECASE)
                found.append(_Label(_fold(label), pattern, label, entity.name, field.name,
                                    value, spec.labels))
    return tuple(found)


def label_findings(text: str, policy: Policy | None, index: Evidence,
                   mentions: Sequence[Any], findings: Sequence[Finding]) -> list[Finding]:
    """The findings of rule 13 on ``text`` (see the module), none where a finding of
    ``findings`` or a quote of ``mentions`` already covers the words."""
    labels = policy.enum_labels if policy is not None else ()
    if not labels:
        return []
    low = " ".join(text.casefold().split())
    said = [item for item in labels if item.folded in low]
    if not said:
        return []
    # Every label said, in text order, the longer first where two start together; one that
    # overlaps an earlier one, a finding or a quote is not read again (sorted spans: linear).
    matches = sorted(((match.start(), -match.end(), item) for item in said
                      for match in item.pattern.finditer(text)), key=lambda m: m[:2])
    covered = sorted([(f.start, f.end) for f in findings]
                     + [(m.start, m.end) for m in mentions if m.kind == "quote"])
    starts = [start for start, _ in covered]
    reach, furthest = [], -1            # reach[i]: the furthest end of covered[:i + 1]
    for _, end in covered:
        furthest = max(furthest, end)
        reach.append(furthest)
    held = None
    found: list[Finding] = []
    last = -1
    for start, minus_end, item in matches:
        end = -minus_end
        if start < last:
            continue
        before = bisect.bisect_left(starts, end)
        if before and reach[before - 1] > start:
            continue
        last = end
        if not _stated(text, start, end, item, policy):
            continue
        if held is None:
            held = _held(policy, index)
        finding = _judge(item, text[start:end], start, end, held, index)
        if finding is not None:
            found.append(finding)
    return found


def _stated(text: str, start: int, end: int, item: _Label, policy: Policy) -> bool:
    """Whether the label at ``text[start:end]`` is said as a state now: not in a question (its
    sentence ends with "?"), nor in a clause that denies ("not", "n't", "no", "without"...) or
    supposes before it ("if", "once", "when"...). A label that is one everyday word ("open",
    "paid", "void") is read, besides, only right after a copula or a colon (a table's bar)
    whose subject in its clause names a row: its entity or field ("your invoice is", "status:"),
    a pronoun ("it has been"), a word with a digit ("INV-1 is") or a capitalised word after the
    clause's first ("The Trail Runner was"). A label right after "being" is a state on its way
    ("Your order is being delivered"), not one held now; nor is one offered ("Upgrade to the
    Enterprise plan", "you can switch to", "consider") or described as the subject of its
    clause ("The Enterprise plan includes ..."). So "Once paid", "Paid invoices show a badge",
    "I've paid attention", "void a payment" and "our support line is open" are not read."""
    after = _SENTENCE_END.search(text, end, end + _REACH * 2)    # bounded: linear in labels
    if after is not None and after.group() == "?":
        return False
    begin = max(0, start - _REACH)
    for cut in _CLAUSE_END.finditer(text, max(0, start - _REACH), start):
        begin = cut.end()
    finish = _CLAUSE_END.search(text, end, end + _REACH)
    clause_end = finish.start() if finish is not None else min(len(text), end + _REACH)
    if _NEGATION.search(text, begin, start) or _NEGATION.search(text, end, clause_end):
        return False
    if _SUPPOSED.search(text, begin, start):
        return False
    near = _TOKEN.findall(text, max(begin, start - 16), start)
    if near and near[-1].casefold() == "being":
        return False        # "is being delivered": on its way to the state, not in it
    if _OFFER_BEFORE.search(text, max(begin, start - 40), start):
        return False        # "Upgrade to the Enterprise plan": an offer of another value
    if _DESCRIBED_AFTER.match(text, end) and all(
            token.casefold() in _ARTICLES for token in _TOKEN.findall(text, begin, start)):
        return False        # "The Enterprise plan includes ...": what the value is
    if not re.fullmatch(r"[^\W\d_]+", item.label):
        return True
    tokens = _TOKEN.findall(text, begin, start)
    while tokens and tokens[-1].casefold() in _BETWEEN:
        tokens.pop()
    if not tokens:
        return False
    last = tokens[-1].casefold()
    if last.endswith(("'s", "\u2019s")):          # "it's", "INV-1's"
        tokens[-1] = tokens[-1][:-2]
    elif last in _COPULA:
        tokens.pop()
    else:
        return False
    names = {item.entity.casefold(), item.entity.casefold() + "s", item.field.casefold()}
    for at, token in enumerate(tokens):
        word = token.casefold()
        if word in names or word in _PRONOUNS or any(c.isdigit() for c in word) \
                or (at and token[:1].isupper()):
            return True
    return False


def _held(policy: Policy, index: Evidence) -> dict[tuple[str, str], dict[str, Withheld | None]]:
    """By (entity, field) of a labelled enum field, the values the evidence's rows hold, each
    with None when a row shows it, else why every row that holds it withholds it."""
    from rulekit.entity_rows import entity_rows, row_places

    wanted = {(item.entity, item.field) for item in policy.enum_labels}
    held: dict[tuple[str, str], dict[str, Withheld | None]] = {}
    if not isinstance(index.raw, (dict, list, tuple)):
        return held
    try:
        placed_rows = entity_rows(row_places(policy), index.raw)
    except ValueError:      # an object it cannot place: no rows, so the text must say it
        return held
    for row_id, placed in placed_rows.items():
        rule = index.row_rules.get(row_id) if index.row_rules else None
        for key, field in placed.fields.items():
            if (placed.entity.name, field.name) not in wanted or key not in placed.row:
                continue
            stored = placed.row[key]
            value = _alias_table(field.type.aliases).get(_fold(stored)) \
                if isinstance(stored, str) else None
            values = held.setdefault((placed.entity.name, field.name), {})
            if value is None:
                continue
            why = rule.withheld.get(key) if rule is not None else None
            if why is None or values.get(value, why) is None:
                values[value] = None
            else:
                values.setdefault(value, why)
    return held


def _judge(item: _Label, said: str, start: int, end: int,
           held: dict[tuple[str, str], dict[str, Withheld | None]],
           index: Evidence) -> Finding | None:
    values = held.get((item.entity, item.field))
    where = f"{item.entity}.{item.field}"
    if values is None:      # no row of the entity: its words must be in the evidence's text
        if squash(said) in index.quote_text:
            return None
        return _new_finding("label", said, item.value, start, end, "unsupported_label",
                            f"'{said}' is the label of {item.value} in {where}, and the "
                            "evidence holds no such record", absent=True)
    if item.value in values:
        why = values[item.value]
        if why is None:
            return None
        return _new_finding("label", said, item.value, start, end, why.code,
                            f"'{said}' {why.why}", why.input)
    labels = dict(item.shown)
    shown = " or ".join(sorted(labels.get(value, value) for value in values)) or "no value"
    return _new_finding("label", said, item.value, start, end, "unsupported_label",
                        f"'{said}' is the label of {item.value} in {where}; the evidence "
                        f"holds {shown}")
