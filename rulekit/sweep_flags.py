"""Rule 14 of the sweep: a boolean field said in words must agree with the value held.

A boolean field is a claim its name makes: ``free_returns: false`` and "returns are free" say
opposite things, though no figure is wrong. A field's name is read as words (``key_words``:
``free_returns`` is "free" and "returns", ``covers_accidental_damage`` "covers", "accidental"
and "damage"; a leading ``is``, ``has``, ``can``... is no word of the claim, and ``has`` makes
the rest a thing had: ``has_wifi``), and a sentence that says all of them in one clause, close
together (at most three words between two of them), states the field: true when nothing in
the clause denies, false when a negation stands among them or just around them ("returns are
not free", "we don't offer free returns", "non-refundable", "Free returns: no"). A stated value
that no holder of the field holds is a contradicted claim (``flag_findings`` for free text,
``template_contradictions`` for a claims reply's template).

Mirroring rule 13 (``rulekit.sweep_labels``): a field is judged against every holder of it (a
value any of them holds passes, as a label passes when some row holds its value); nothing is
read in a question, nor in a clause that supposes ("if", "when", "unless"...), hedges
("would", "might", "usually"...), qualifies ("over $50", "only", "members", "selected",
"except"...) or speaks of others ("other shops", "competitors"); a negation elsewhere in the
clause makes it unread, not denied. A name of one word (``is_refundable``, ``has_wifi``,
``wifi``) is read only as a state of a row, like a one-word label: right after a copula for a
quality ("your booking is refundable", nothing after it in its clause but "now", "too"...),
right after a verb of having for a thing ("the hotel has free WiFi"), and with a subject that
names a row: a pronoun, your/our, a word with a digit, a capitalised word after the clause's
first, or a word of the name of the object or list that holds the field (``hotel`` for
``{"hotel": {"has_wifi": true}}``). English, and the words of some flags in German, French,
Spanish and Italian (``_FOREIGN_WORDS``: "kostenlose Stornierung", "petit-déjeuner inclus").

Cost: the readings of a field's name are built once per name (``reading``); free text's
evidence index holds its booleans' readings (``Evidence.flags``, built with the index), and a
text that holds not every stem of some reading pays one substring test per stem.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from rulekit.findings import Finding, _new_finding
from rulekit.sweep_labels import _COPULA, _REACH, _SENTENCE_END, _TOKEN


class Reading(NamedTuple):
    """How a boolean field's name is said in a text."""
    words: tuple[str, ...]              # the name's words of the claim, as written in the name
    # each word's stem, casefolded: the substring prefilter (a tuple: any of them, for a word
    # with forms in other languages, ``_FOREIGN_FORMS``)
    needles: tuple[str | tuple[str, ...], ...]
    patterns: tuple[re.Pattern, ...]    # each word's forms as a word of a text
    # read only as a row's state: "quality" (one word, after a copula) or "thing" (nouns
    # alone, after a verb of having); None: the name holds its own predicate (free_returns)
    single: str | None


class Flag(NamedTuple):
    """One boolean the evidence holds: its field's name, reading and value, why a rule
    withholds it (a ``Withheld``, or None), and the words that name its holder (the object or
    list around it: "hotel", "booking")."""
    name: str
    reading: Reading
    value: bool
    withheld: Any
    holder: frozenset[str]


# A name's first word that is no word of the claim, and the ones that make it a thing had.
_AUXILIARY = frozenset("is are was were be can could does do did will should".split())
_HAVING = frozenset("has have had".split())
_STOP = frozenset("a an the of to for in on at by with and or per".split())
# Flags of API plumbing and of other rules (stock is rule 12's): never read as claims.
_IGNORED = frozenset(
    "more next previous prev success successful ok error errors failed truncated partial "
    "cached cache test testing livemode live mode deleted default primary selected checked dirty "
    "valid draft sandbox debug object data page pages results result stock instock inventory "
    "sold out archived hidden visible enabled disabled flag flagged read seen new".split())
# A one-word name read as a quality (after a copula) rather than a thing had.
_QUALITY_ENDINGS = ("able", "ible", "ed", "ive", "ful", "less")
_QUALITIES = frozenset("free full open closed active paid due late final public private "
                       "available online express".split())
# Verbs a name may open with: the claim's predicate ("covers_accidental_damage").
_VERBS = frozenset("cover covers include includes allow allows accept accepts require requires "
                   "support supports offer offers provide provides ship ships".split())
# Written forms of a word beyond its inflections.
_SPELLINGS = {"wifi": r"wi-?\s?fi", "email": r"e-?mail", "checkin": r"check-?\s?in",
              "checkout": r"check-?\s?out",
              # "unlimited miles", "unlimited kilometres" say ``unlimited_mileage``
              "mileage": r"(?:mileage|miles?|kilometers?|kilometres?|kms?)"}
# The substring a spelled word's forms share (else its first two letters).
_SPELLED_NEEDLES = {"mileage": "m"}
# A name's words said in German, French, Spanish or Italian, read in any locale beside the
# English forms (the English stem's forms, or ``_SPELLINGS``'): "El kilometraje es ilimitado",
# "Die Kilometer sind unbegrenzt", "kilométrage illimité", "chilometraggio illimitato" say
# ``unlimited_mileage``, "kostenlose Stornierung", "annulation gratuite", "cancelación
# gratuita" ``free_cancellation``, "Frühstück inklusive", "petit-déjeuner inclus"
# ``breakfast_included``; and the substrings one of which each form holds (the prefilter,
# tested on the casefolded text: "ß" is "ss" there). Each English word of a name (as
# ``key_words`` gives it) names its forms: ``_FOREIGN_WORDS`` (the forms, the substrings,
# the English words).
_FOREIGN_WORDS = (
    (r"unbegrenzte?[mnrs]?|illimité(?:e|s|es)?|ilimitad[oa]s?|illimitat[oaie]",
     ("limit", "unbegrenzt"), "unlimited"),
    (r"kilometern|kilometraje|kilométrages?|chilometraggio|chilometri", ("m",), "mileage"),
    (r"kostenlos(?:e[mnrs]?)?|kostenfrei(?:e[mnrs]?)?|gebührenfrei(?:e[mnrs]?)?|gratis"
     r"|gratuite?s?|gratuit[oaie]s?|gratuit[oa]s",
     ("kostenlos", "kostenfrei", "gebührenfrei", "gratis", "gratuit"), "free"),
    (r"stornierung(?:en)?|storno|stornieren|stornierbar(?:e[mnrs]?)?|annulations?|annulable"
     r"|cancelaci[óo]n(?:es)?|anulaci[óo]n|cancellazion[ei]|annullamento|disdetta",
     ("storn", "annul", "cancel", "anulaci", "disdett"), "cancellation cancel cancelable "
     "cancellable"),
    (r"frühstück|petit[- ]d[ée]jeuners?|desayunos?|colazion[ei]",
     ("frühstück", "jeuner", "desayuno", "colazion"), "breakfast"),
    (r"inklusive|inkl|inbegriffen|enthalten|inclus(?:e|es)?|compris(?:e|es)?|incluid[oa]s?"
     r"|incluye|incluyen|inclus[oaie]|compres[oaie]",
     ("inkl", "inbegriffen", "enthalten", "inclu", "compris", "compres"),
     "included include includes including"),
    (r"erstattungsfähig(?:e[mnrs]?)?|(?:rück)?erstattbar(?:e[mnrs]?)?|remboursables?"
     r"|reembolsables?|rimborsabil[ei]",
     ("erstatt", "rembours", "reembols", "rimborsabil"), "refundable"),
    (r"haustier(?:e|en)?|tiere|tieren|animaux|mascotas?|animales|animal[ei]",
     ("tier", "anima", "mascota"), "pets pet"),
    (r"erlaubt|gestattet|zugelassen|willkommen|autorisée?s?|acceptée?s?|admise?s?"
     r"|permitid[oa]s?|permiten?|admitid[oa]s?|aceptad[oa]s?|ammess[oaie]|consentit[oaie]"
     r"|accettat[oaie]",
     ("erlaubt", "gestattet", "zugelassen", "willkommen", "autoris", "accept", "admi",
      "permit", "ammess", "consentit", "accettat"), "allowed allow allows"),
    (r"versand|versandkosten|livraisons?|env[íi]os?|spedizion[ei]",
     ("versand", "livraison", "envío", "envio", "spedizion"), "shipping"),
    (r"lieferung(?:en)?|livraisons?|entregas?|consegn[ae]",
     ("lieferung", "livraison", "entrega", "consegn"), "delivery"),
    (r"rücksendung(?:en)?|rückgaben?|retours?|devoluci[óo]n(?:es)?|resi|reso",
     ("rücksend", "rückgab", "retour", "devoluci", "resi", "reso"), "returns return"),
    (r"parken|parkpl[äa]tze?|stationnement|aparcamiento|estacionamiento|parcheggio",
     ("park", "stationnement", "aparcamiento", "estacionamiento", "parcheggio"), "parking"),
    (r"wlan", ("wlan",), "wifi"),
)
_FOREIGN_FORMS = {english: (forms, needles) for forms, needles, words in _FOREIGN_WORDS
                  for english in words.split()}
_ENDINGS = r"(?:e|s|es|ed|d|ing|age)?"


def _stem(word: str) -> str:
    if word.endswith(("ches", "shes", "sses", "xes", "zes")) and len(word) > 5:
        word = word[:-2]
    elif word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        word = word[:-1]
    elif word.endswith("ed") and len(word) > 5:
        word = word[:-2]
    elif word.endswith("ing") and len(word) > 5:
        word = word[:-3]
    if word.endswith("e") and len(word) > 4:
        word = word[:-1]
    return word


@functools.lru_cache(maxsize=4096)
def reading(name: str) -> Reading | None:
    """How the boolean field ``name`` is said in a text, or None when its name says no claim
    a customer reads (API plumbing, a stock flag, a name of more than four words, digits)."""
    from rulekit.evidence import key_words

    words = [w for w in key_words(name) if w not in _STOP]
    copula = words[:1] in (["is"], ["are"])
    having = False
    if words and words[0] in _HAVING:
        having, words = True, words[1:]
    elif words and words[0] in _AUXILIARY:
        words = words[1:]
    if not words or len(words) > 4 or any(w in _IGNORED or len(w) < 3 for w in words):
        return None
    if any(not w.isascii() or not w.isalpha() for w in words):
        return None
    single = None
    if len(words) > 1 and not any(w in _QUALITIES or w.endswith(_QUALITY_ENDINGS)
                                  or w in _VERBS for w in words):
        single = "thing"    # nouns alone (gift_card, gift_wrap): a thing had, not a mention
    elif len(words) == 1:
        word = words[0]
        quality = not having and (word in _QUALITIES or word.endswith(_QUALITY_ENDINGS)
                                  or copula)
        single = "quality" if quality else "thing"
    needles, patterns = [], []
    for word in words:
        spelled = _SPELLINGS.get(word)
        if spelled is not None:
            needle, form = _SPELLED_NEEDLES.get(word, word[:2]), spelled + "s?"
        else:
            needle = _stem(word)
            form = re.escape(needle) + _ENDINGS
        foreign = _FOREIGN_FORMS.get(word)
        if foreign is not None:         # "ilimitado", "unbegrenzt" (any of its substrings)
            needle, form = (needle, *foreign[1]), f"(?:{form}|{foreign[0]})"
        needles.append(needle)
        patterns.append(re.compile(r"\b" + form + r"\b", re.IGNORECASE))
    return Reading(tuple(words), tuple(needles), tuple(patterns), single)


def held_name(keys: Sequence[str]) -> str | None:
    """The name a one-word flag has with its holder's word after it, as a flat field would be
    named: "unlimited_mileage" for ``{"mileage": {"unlimited": false}}`` ("unlimited mileage"
    reads it as "Mileage is unlimited" does); None for any other flag, or a holder that is no
    one word (a list's row, ``rates_and_fees``)."""
    from rulekit.evidence import key_words

    if len(keys) < 2 or len(key_words(keys[-1])) != 1:
        return None
    holder = key_words(keys[-2])
    return f"{keys[-1]}_{holder[0]}" if len(holder) == 1 and holder[0].isalpha() else None


def holder_words(keys: Sequence[str]) -> frozenset[str]:
    """The words that name the holder of a field at ``keys`` (its path of names): the words
    of the names of the objects and lists around it, and their singulars."""
    from rulekit.evidence import key_words

    found = set()
    for key in keys[-3:-1]:
        for word in key_words(key):
            found.add(word)
            if word.endswith("s") and len(word) > 3:
                found.add(word[:-1])
    return frozenset(found)


# --- reading a text --------------------------------------------------------------------------

# A clause ends at punctuation or at and, but, or, so, then (a colon is a copula, as in rule 13).
_CLAUSE_END = re.compile(r"[,;.!?\n()\u2014\u2013]|\b(?:and|but|or|so|then|while|whereas)\b",
                         re.IGNORECASE)
_COLON = re.compile(r":(?!//)")
_NEGATIONS = frozenset(
    "not no never neither nor without cannot none nothing non excluded excludes excluding "
    "unavailable lacks lack "
    # the negations of German, French, Spanish and Italian, for ``_FOREIGN_FORMS``' words
    "nicht kein keine keinen keiner keinem pas jamais sans ohne sin senza nunca".split())
# A clause that supposes, hedges, qualifies or speaks of others states nothing of the row.
_UNREAD = frozenset(
    "if unless when whenever once until whether case provided providing "
    "would could might maybe perhaps possibly probably usually typically normally generally "
    "often sometimes occasionally likely "
    "over above beyond exceeding least minimum more less only select selected certain some "
    "eligible except excepting apart other others members member membership premium prime "
    "code coupon promo voucher spend spending first extra additional surcharge minus "
    "deducted partial partially faulty defective damaged competitor competitors elsewhere "
    "unlike many most used ask asked asks wonder wondering about regarding learn read "
    "details faq "
    # the same in German, French, Spanish and Italian, for ``_FOREIGN_FORMS``' words
    # (casefolded: "außer" is "ausser"; not "si", Italian's "si accettano", nor "se")
    "wenn falls sofern nur ausser ab seulement uniquement sauf lorsque quand sólo solo "
    "solamente excepto salvo cuando soltanto tranne eccetto qualora".split())
# (each with the words of German, French, Spanish and Italian for ``_FOREIGN_FORMS``' words:
# "Ihre Buchung ist erstattungsfähig", "Votre réservation est remboursable", "Das Hotel hat
# WLAN")
_BETWEEN = frozenset("now already still fully completely totally entirely currently also "
                     "always 100% all both marked shown listed as being "
                     "jetzt bereits auch immer déjà aussi toujours ya también siempre già "
                     "anche sempre".split())
_AFTER_QUALITY = frozenset("now today too also again as well either yet "
                           "auch aussi también anche".split())
_HAVE_VERBS = frozenset("has have had having offers offer offered includes include included "
                        "features feature provides provide comes come "
                        "hat haben bietet bieten ont offre offrent propose proposent tiene "
                        "tienen ofrece ofrecen ha hanno".split())
_HAVE_FILLERS = frozenset("a an the free its their your our own on-site onsite complimentary "
                          "fast high-speed with access to "
                          "ein eine einen le la les un une du des el los las una il lo gli "
                          "l' kostenlos kostenloses kostenlosen gratuit gratuito gratis".split())
_COPULAS = _COPULA | frozenset("ist sind war waren bleibt est sont était reste es son está "
                               "están era queda è sono resta".split())
_NOT_BEING = frozenset("isn't aren't wasn't weren't".split())
_NOT_HAVING = frozenset("hasn't haven't hadn't".split())
_PRONOUNS = frozenset("it it's this that they these those which both each "
                      "sie er elle il ils elles ella ello esta este questa questo".split())
_OWNERS = frozenset("your our my ihr ihre unser unsere votre vos notre nos su sus nuestro "
                    "nuestra tu sua suo vostra vostro nostra nostro".split())
_GAP = 3        # at most this many words between two words of a name
_DENY_BEFORE, _DENY_AFTER = 4, 3


class Said(NamedTuple):
    start: int
    end: int
    value: bool             # what the sentence says the field is
    reading: Reading


def _negation(token: str) -> bool:
    low = token.casefold().replace("\u2019", "'")
    return low in _NEGATIONS or low.endswith("n't") or low.startswith("non-")


def said_flags(text: str, readings: Iterable[Reading],
               covered: Sequence[tuple[int, int]] = ()) -> list[Said]:
    """Where ``text`` states a field of ``readings`` (each read once) as true or false, in
    text order; none inside a span of ``covered`` (quotes, links). A reading whose stems are
    not all in the text costs its substring tests only."""
    low = text.casefold()
    wanted = [r for r in dict.fromkeys(readings)
              if all(n in low if n.__class__ is str else any(a in low for a in n)
                     for n in r.needles)]
    if not wanted:
        return []
    found: list[Said] = []
    for item in wanted:
        found.extend(_said(text, item, covered))
    # A name said inside a longer name said at the same place is that longer name's claim
    # ("express shipping is free" is free_express_shipping's, not free_shipping's). The
    # longer names of each name are found once, and the places of each looked up by
    # bisection (testing every pair of places was quadratic in a long answer).
    words = {item: set(item.words) for item in wanted}
    longer = {item: [o for o in wanted if words[item] < words[o]] for item in wanted}
    places = {item: _by_start([(o.start, o.end) for o in found if o.reading is item])
              for item in dict.fromkeys(o for longers in longer.values() for o in longers)}
    # (spans that touch count: [start, end] against [o.start, o.end], both ends in)
    kept = [s for s in found if not any(_overlapping(places[o], s.start - 1, s.end + 1)
                                        for o in longer[s.reading])]
    return sorted(kept, key=lambda s: (s.start, s.end))


def _by_start(spans: Iterable[tuple[int, int]]) -> tuple[list[int], list[int]]:
    """``spans`` sorted by start: their starts, and the furthest end of the first 1, 2, ...
    of them, for ``_overlapping``."""
    starts, reach, furthest = [], [], -1
    for start, end in sorted(spans):
        furthest = max(furthest, end)
        starts.append(start)
        reach.append(furthest)
    return starts, reach


def _overlapping(spans: tuple[list[int], list[int]], start: int, end: int) -> bool:
    """Whether [start, end) overlaps a span of ``spans`` (``_by_start``): the spans starting
    before its end reach past its start. A bisection, not a test of every span."""
    at = bisect.bisect_left(spans[0], end)
    return at > 0 and spans[1][at - 1] > start


def _said(text: str, item: Reading, covered: Sequence[tuple[int, int]]) -> Iterable[Said]:
    first, rest = item.patterns[0], item.patterns[1:]
    covering = _by_start(covered) if covered else None     # once per name, not per place
    last_end = -1
    for anchor in first.finditer(text):
        if anchor.start() < last_end:
            continue
        begin, finish = _clause(text, anchor.start(), anchor.end())
        spans = [(anchor.start(), anchor.end())]
        for pattern in rest:
            near = _nearest(text, pattern, begin, finish, anchor.start())
            if near is None:
                break
            spans.append(near)
        else:
            spans.sort()
            if not _close(text, spans):
                continue
            start, end = spans[0][0], spans[-1][1]
            if covering is not None and _overlapping(covering, start, end):
                continue
            value = _stated(text, start, end, begin, finish, item)
            if value is None:
                continue
            last_end = end
            start, end = value[1], value[2]
            yield Said(start, end, value[0], item)


def _clause(text: str, start: int, end: int) -> tuple[int, int]:
    """The clause around ``text[start:end]``. A colon ends one too ("Nothing to pay: returns
    are free"), unless one or two words follow it to the clause's end: then they are its value
    ("Free returns: no", "Breakfast included: yes")."""
    begin = max(0, start - _REACH)
    for cut in _CLAUSE_END.finditer(text, begin, start):
        begin = cut.end()
    after = _CLAUSE_END.search(text, end, end + _REACH)
    finish = after.start() if after is not None else min(len(text), end + _REACH)
    for colon in _COLON.finditer(text, begin, finish):
        if len(_TOKEN.findall(text, colon.end(), finish)) <= 2:
            break           # "Free returns: no", "Returns: free": a value after its label
        if colon.end() <= start:
            begin = colon.end()
        elif colon.start() >= end:
            finish = colon.start()
            break
    return begin, finish


def _nearest(text: str, pattern: re.Pattern, begin: int, finish: int,
             at: int) -> tuple[int, int] | None:
    best = None
    for match in pattern.finditer(text, begin, finish):
        if best is None or abs(match.start() - at) < abs(best[0] - at):
            best = (match.start(), match.end())
    return best


def _close(text: str, spans: list[tuple[int, int]]) -> bool:
    """Whether the words at ``spans`` (sorted) are one phrase: at most ``_GAP`` words between
    two of them, and none overlapping."""
    for (_, end), (start, _) in zip(spans, spans[1:]):
        if start < end or len(_TOKEN.findall(text, end, start)) > _GAP:
            return False
    return True


def _stated(text: str, start: int, end: int, begin: int, finish: int,
            item: Reading) -> tuple[bool, int, int] | None:
    """What the clause ``text[begin:finish]`` says of the name at ``text[start:end]``: (True or
    False, the span to report), or None when it states nothing of it (see the module)."""
    after = _SENTENCE_END.search(text, end, end + _REACH * 2)
    if after is not None and after.group() == "?":
        return None
    before = list(_TOKEN.finditer(text, begin, start))
    inside = list(_TOKEN.finditer(text, start, end))
    behind = list(_TOKEN.finditer(text, end, finish))
    # What supposes or qualifies is read in the whole sentence: "Spend $50 or more and
    # shipping is free" cuts no condition off at "and".
    opening = max(0, start - _REACH)
    for cut in _SENTENCE_END.finditer(text, opening, start):
        opening = cut.end()
    closing = after.start() if after is not None else min(len(text), end + _REACH * 2)
    words = [t.group().casefold().replace("\u2019", "'")
             for t in _TOKEN.finditer(text, opening, closing)
             if not any(p.fullmatch(t.group()) for p in item.patterns)]
    if any(w in _UNREAD for w in words) or "as long as" in text[opening:closing].casefold():
        return None
    if item.single is not None and not _of_a_row(before, item):
        return None
    if item.single == "quality" and any(
            t.group().casefold() not in _AFTER_QUALITY and not _negation(t.group())
            for t in behind):
        return None         # "available in blue", "refundable within 24 hours": not read
    if text[max(0, start - 4):start].casefold() in ("non-", "non "):
        return False, start - 4, end
    denying = [t for t in before[-_DENY_BEFORE:] + inside + behind[:_DENY_AFTER]
               if _negation(t.group())]
    if any(_negation(t.group()) for t in before + inside + behind) and not denying:
        return None         # a negation of something else in the clause: not read
    if denying:
        return False, min(start, denying[0].start()), max(end, denying[-1].end())
    return True, start, end


def _of_a_row(before: list[re.Match], item: Reading) -> bool:
    """Whether a name of one word is said as a state: right after a copula (a quality) or a
    verb of having (a thing); the words between may deny ("is not refundable", "doesn't have
    WiFi"). Its subject is judged by the caller (``_subject_named``, ``_of_holder``)."""
    tokens = [t.group() for t in before]
    while tokens and (tokens[-1].casefold() in _BETWEEN or _negation(tokens[-1])
                      or item.single == "thing" and tokens[-1].casefold() in _HAVE_FILLERS):
        low = tokens[-1].casefold().replace("\u2019", "'")
        if low in _NOT_BEING if item.single == "quality" else low in _NOT_HAVING:
            return True     # "isn't paid", "hasn't got WiFi"
        tokens.pop()
    if not tokens:
        return False
    last = tokens[-1].casefold().replace("\u2019", "'")
    if item.single == "quality":
        return last.endswith("'s") or last in _COPULAS
    return last in _HAVE_VERBS


def _names_a_row(tokens: list[str]) -> bool:
    for at, token in enumerate(tokens):
        word = token.casefold().replace("\u2019", "'")
        if word in _PRONOUNS or word in _OWNERS or word in ("we", "you") \
                or any(c.isdigit() for c in word) or (at and token[:1].isupper()):
            return True
    return False


def _of_holder(text: str, begin: int, start: int, holders: frozenset[str]) -> bool:
    return bool(holders) and any(t.group().casefold() in holders
                                 for t in _TOKEN.finditer(text, begin, start))


# --- free text (audit) -----------------------------------------------------------------------

def flag_findings(text: str, flags: Sequence[Flag], mentions: Sequence[Any],
                  findings: Sequence[Finding]) -> list[Finding]:
    """The findings of rule 14 on ``text`` against the evidence's ``flags``
    (``Evidence.flags``): a field said true that every holder holds false, or false that
    every holder holds true. None where a finding of ``findings``, a quote or a link already
    covers the words."""
    covered = [(f.start, f.end) for f in findings] + [
        (m.start, m.end) for m in mentions if m.kind in ("quote", "url", "email", "handle")]
    said = said_flags(text, (f.reading for f in flags), covered)
    out: list[Finding] = []
    for item in said:
        holders = [f for f in flags if f.reading == item.reading]
        if item.reading.single is not None and not any(
                _of_holder(text, _clause(text, item.start, item.end)[0], item.start, f.holder)
                for f in holders) and not _subject_named(text, item):
            continue
        finding = _judged(text, item, holders)
        if finding is not None and not (out and out[-1].end > finding.start):
            out.append(finding)     # one finding for words two names share
    return out


def _subject_named(text: str, item: Said) -> bool:
    begin, _ = _clause(text, item.start, item.end)
    return _names_a_row([t.group() for t in _TOKEN.finditer(text, begin, item.start)])


def _judged(text: str, item: Said, holders: list[Flag]) -> Finding | None:
    shown = {f.value for f in holders if f.withheld is None}
    if item.value in shown:
        return None
    said = text[item.start:item.end]
    withheld = next((f.withheld for f in holders if f.value == item.value), None)
    if withheld is not None:
        return _new_finding("boolean", said, _word(item.value), item.start, item.end,
                            withheld.code, f"'{said}' {withheld.why}", withheld.input)
    names = " and ".join(dict.fromkeys(f.name for f in holders))
    held = _word(not item.value)
    return _new_finding("boolean", said, _word(item.value), item.start, item.end,
                        "contradicted", f"'{said}' says {names} is {_word(item.value)}; the "
                        f"evidence holds {names}: {held}")


def _word(value: bool) -> str:
    return "true" if value else "false"


# --- a claims reply's template ---------------------------------------------------------------

def boolean_fields(entity: Any) -> tuple[str, ...]:
    """The readable boolean fields of ``entity`` whose names say a claim in words: a claims
    check looks them up with every row it fetches (``rulekit.check._lookup_fields``), so the
    template's words can be held to them. Worked out once per entity object (kept alive by
    the cache, so its id is never reused while cached)."""
    known = _BOOLEAN_FIELDS.get(id(entity))
    if known is not None and known[0] is entity:
        return known[1]
    found = tuple(f.name for f in entity.fields
                  if f.type.kind == "boolean" and f.readable and reading(f.name) is not None)
    if len(_BOOLEAN_FIELDS) >= 1024:
        _BOOLEAN_FIELDS.clear()
    _BOOLEAN_FIELDS[id(entity)] = (entity, found)
    return found


_BOOLEAN_FIELDS: dict[int, tuple[Any, tuple[str, ...]]] = {}


def template_failures(template: Any, planned: Sequence[Any], rows: Mapping,
                      path: str) -> list:
    """A ``contradicted`` failure for each boolean field of a row the reply cites that the
    template's own words (its slots left out) state otherwise than the row holds
    (``template_contradictions``). ``planned`` are the check's claims (``entity``, ``claim``),
    ``rows`` its fetched rows by entity and id."""
    cited: list[tuple[str, str, Any]] = []
    seen = set()
    for item in planned:
        entity = item.entity
        names = boolean_fields(entity) if entity is not None else ()
        if not names or (entity.name, str(item.claim.entity_id)) in seen:
            continue        # the common case: an entity with no boolean field said in words
        seen.add((entity.name, str(item.claim.entity_id)))
        row = (rows.get(entity.name) or {}).get(str(item.claim.entity_id))
        if isinstance(row, Mapping):
            cited.extend((entity.name, name, row.get(name)) for name in names)
    if not cited:
        return []
    from rulekit.decision import Failure, Reason

    prose = "#".join(template.pieces[0::2])
    return [Failure("contradicted", Reason("contradicted", why, path), feedback=told)
            for why, told in template_contradictions(prose, cited)]


def template_contradictions(prose: str, cited: Iterable[tuple[str, str, Any]]
                            ) -> list[tuple[str, str]]:
    """Why the words ``prose`` contradict a boolean field of a cited row, and what the model
    is told when the rule gives it no true values (the value held left out): ``cited`` holds
    (entity, field, stored value) of every such field of every cited row. A value a cited row
    holds passes; a stored value that is no boolean (a NULL) backs nothing and denies
    nothing. A name of one word must be said of a row (a pronoun, your..., a capitalised name,
    or the entity's name: "the hotel has WiFi")."""
    holders: dict[Reading, list[tuple[str, str, bool]]] = {}
    for entity, field, stored in cited:
        item = reading(field)
        value = _boolean(stored)
        if item is not None and value is not None:
            holders.setdefault(item, []).append((entity, field, value))
    if not holders:
        return []
    out = []
    for item in said_flags(prose, holders):
        held = holders[item.reading]
        # a slot before it in its clause names a row ("{name} has WiFi")
        if item.reading.single is not None and not _subject_named(prose, item) \
                and "#" not in prose[_clause(prose, item.start, item.end)[0]:item.start] and not \
                _of_holder(prose, _clause(prose, item.start, item.end)[0], item.start,
                           frozenset(w for entity, _, _ in held
                                     for w in holder_words((entity, "")))):
            continue
        if any(value == item.value for _, _, value in held):
            continue
        names = " and ".join(dict.fromkeys(f"{entity}.{field}" for entity, field, _ in held))
        said = prose[item.start:item.end]
        claim = f"'{said}' says {names} is {_word(item.value)}"
        out.append((f"{claim}; the record holds {names}: {_word(not item.value)}",
                    f"{claim}, which the record does not back"))
    return out


_TRUE = frozenset(("true", "yes", "1", "t", "y"))
_FALSE = frozenset(("false", "no", "0", "f", "n"))


def _boolean(stored: Any) -> bool | None:
    """A stored boolean as SQL and JSON hold it (True, 1, "true", "yes"...), or None."""
    if isinstance(stored, bool):
        return stored
    if isinstance(stored, int) and stored in (0, 1):
        return bool(stored)
    if isinstance(stored, str):
        low = stored.strip().casefold()
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
    return None
