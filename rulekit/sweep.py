"""The sweep: every figure in free text must be backed by the evidence.

``sweep(text, evidence, settings)`` finds each number, number word, multiple, date, quote,
@handle, e-mail and URL in what the reader sees (``rulekit.scan``) and judges it against the
indexed evidence (``rulekit.evidence``). A mention the evidence does not back is a ``Finding``
with a reason code and a message; ``audit`` turns the findings into a decision.

The rules, with their defaults (a rules file changes them in its ``sweep`` block):

1. Same value: the notation may change, the value may not. No rounding, unless allowed for a
   field, and then only to the shown precision. A percentage is backed by a percentage only,
   an amount with a currency by no amount in another, and a change said with its direction
   ("down 12.5%", "120 more views", "▼2.3%") by a change that goes that way.
2. No arithmetic: sums, differences, averages, multiples and percentage changes are findings
   unless the evidence holds that figure.
3. Small integers (up to 12) pass without support only as ordinals, ranks, list positions,
   month or day numbers of a date in the evidence, a rating scale ("out of 5"), or digits of a
   name in the evidence. As a quantity they must match like any number.
4. Digits in names keep their company: BT-3 in the evidence licenses "BT-3", not "3 days".
5. A count of rows must be exact and within what the evidence holds ("4 of your last 5").
6. Placeholders license nothing; a real zero is a fact.
7. Quotes must appear verbatim in the evidence (white space and quote style ignored, and the
   . , ! ? that end a quote); a quote with words left out ("...", "…", "[...]") needs its
   parts, in order, in one evidence text.
8. Handles and e-mail addresses match exactly, ignoring case.
9. URLs match after lower-casing scheme and host and ignoring one trailing slash; relative
   links must appear in the evidence. A URL is never fetched.
10. A date must be the same calendar day; a relative date needs a "today" in the evidence.
11. Third-party text is evidence only of what its author wrote.
12. Amounts said in words ("no views", "out of stock", "isn't sold out", "in stock", "it's
    available", "we're all out", "12 pairs remain") must agree with the fields that count that
    thing; a magnitude ("dozens of", "hundreds of views", "thousands of") needs
    one of them in its band (``_MAGNITUDES``), or any figure in it when none counts the thing.
"""

from __future__ import annotations

import bisect
import dataclasses
import datetime as dt
import functools
import operator
import re
from collections.abc import Mapping
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal
from typing import Any, Collection, Iterable, Sequence

from babel.dates import get_day_names

from rulekit import dates
from rulekit.evidence import _WORD, Evidence, RowRule, _relative, _url, locate, noun
from rulekit.findings import _FIGURE_KINDS, Finding, _new_finding
from rulekit.numbers import plain_decimal
from rulekit.policy import Binding, Entity, Identity, Policy
from rulekit.scan import Mention, scan, squash
from rulekit.scan.base import _ascii_lower, _is_cjk, _word_after
from rulekit.scan.figures import CHANGED_BEFORE, FALL_BEFORE, RISE_BEFORE, change_word_before
from rulekit.sweep_amounts import _amount_words, _magnitudes, _stock_levels

DEFAULT_SMALL_LIMIT = 12
DEFAULT_CONTEXTS = ("ordinal", "rank", "list_position", "month", "weekday", "rating_scale",
                    "name_digits")

_RANK_WORDS = frozenset({"top", "rank", "ranked", "ranking", "#", "no.", "no", "number", "place",
                         "placed", "position", "spot"})
# Ranks in CJK text: 前3名 and 前三位 (the top three), トップ3 and 上位3 (Japanese).
_CJK_RANK_AFTER_前 = frozenset("名位强強甲")


def _cjk_rank(before: str, mention: Mention) -> bool:
    # the words after are read (lazily, see Mention) only after a 前
    if before.endswith("前"):
        return mention.after[:1] in _CJK_RANK_AFTER_前
    return before.endswith(("トップ", "上位"))


# A rating and a slash before its scale: "4.5/5", "4 / 5".
_RATED_SLASH = re.compile(r"(?<![\d.,/])(\d{1,2}(?:[.,]\d{1,2})?)[ \u00a0]?/[ \u00a0]?\Z")
# Words before a number (or before the "#" or "number" before it) that state a rank of what
# the sentence is about: "ranked #1", "finished 2nd", "is number 3"; not "top" ("your top 3" is
# how many, not which) nor a bare "#1" ("our #1 priority", "Tip #1"). And the words of field
# names that hold a rank.
_RANK_VALUE_WORDS = frozenset({"rank", "ranked", "ranking", "place", "placed", "position",
                               "spot", "ranks", "finished", "came", "is", "was"})
# After "placed 3": words that keep it a place ("placed 3 in the final", "placed 3 overall").
_PLACE_NOT_COUNTED = frozenset({"in", "on", "at", "out", "overall", "of", "and", "or", "with",
                                "for", "after", "behind"})
_RANK_FIELD_WORDS = frozenset({"rank", "ranking", "position", "place", "standing"})
_LIST_WORDS = frozenset({"step", "item", "point", "option", "tip", "part", "chapter", "page",
                         "section", "slide", "question", "round", "hole", "game", "week",
                         "episode", "level", "stage", "phase", "version"})
_MONTH_WORDS = frozenset({"month", "months"})
# "on the 6th": an ordinal after these and "the", with no noun after it, is a day of a month.
_DAY_PREPOSITIONS = frozenset({"on", "by", "until", "till", "since", "from", "before", "after",
                               "through"})
# Other words before "the" and an ordinal that make it a day: "no later than the 5th", "around
# the 5th", "It arrives the 5th"; and those that join a second day to a first ("the 3rd and the
# 5th", "the 3rd to the 5th"). Not "between": "between the 3rd and the 5th place" are ranks, and
# the first ordinal cannot see the noun after the second.
_DAY_LEADS = frozenset({"than", "around", "about", "approximately", "circa", "thru",
                        "arrives", "arrive", "arriving", "arrived", "delivered", "ships", "ship",
                        "shipped", "due", "expected", "scheduled", "dispatched", "lands", "til"})
_DAY_JOINS = frozenset({"and", "or", "to", "through", "thru", "until", "till"})
_ORDINAL_DAY = re.compile(r"(?:[1-9]|[12][0-9]|3[01])(?:st|nd|rd|th)")
_AFTER_DAY = frozenset({"of", "at", "and", "or", "to", "until", "till", "through", "but", "so",
                        "when", "in", "around", "between", "for"})
_DAY_WORDS = frozenset({"day", "the"})
# Relative days. "this month" or "last week" name a period that evidence usually states (a
# report's month), so only day-level words need a "today" to be checked against. Each
# language's words by how many days from today they are, longest first where one contains
# another ("the day before yesterday" before "yesterday"); a word that is also an everyday
# word of another language ("hier" is "here" in German) is read only in its own language.
_RELATIVE_WORDS: dict[str, dict[str, int]] = {
    "en": {"the day before yesterday": -2, "the day after tomorrow": 2, "yesterday": -1,
           "today": 0, "tonight": 0, "tomorrow": 1, "last night": -1},
    "de": {"vorgestern": -2, "übermorgen": 2, "gestern": -1, "heute": 0, "morgen": 1},
    "fr": {"avant-hier": -2, "après-demain": 2, "hier": -1, "aujourd'hui": 0,
           "aujourd’hui": 0, "demain": 1},
    "es": {"anteayer": -2, "antier": -2, "pasado mañana": 2, "ayer": -1, "hoy": 0,
           "mañana": 1},
    "it": {"l'altro ieri": -2, "l’altro ieri": -2, "dopodomani": 2, "ieri": -1, "oggi": 0,
           "domani": 1},
    "pt": {"anteontem": -2, "depois de amanhã": 2, "ontem": -1, "hoje": 0, "amanhã": 1},
    "nl": {"eergisteren": -2, "overmorgen": 2, "gisteren": -1, "vandaag": 0, "morgen": 1},
}
# Before a later day, words that make it a farewell when the sentence ends there ("See you
# tomorrow!", "À demain !", "Hasta mañana.").
_SIGN_OFF_BEFORE = ("see you ", "talk to you ", "speak to you ", "talk ", "à ", "a ", "hasta ",
                    "bis ", "até ", "tot ", "じゃあ", "また")
_SIGN_OFF_AFTER = re.compile(r"[ \t\u00a0]*(?:[!.,;。！]|$)")
# Before "N days ago", words that make it no one day ("about a week ago").
_HEDGES = ("about ", "around ", "roughly ", "approximately ", "almost ", "nearly ", "over ",
           "more than ", "less than ", "under ", "at least ", "some ", "circa ", "~")
# "mañana" and "morgen" are also the morning: after these words they are not a day.
_MORNING_AFTER = {"mañana": ("la ", "esta ", "una ", "cada ", "media "),
                  "morgen": ("de ", "deze ", "elke ", "goede ", "heute ", "gestern ", "am ",
                             "jeden ", "guten ")}
# CJK words are read in every locale: no other language writes them.
_CJK_RELATIVE = {"昨天": -1, "今天": 0, "明天": 1, "前天": -2, "后天": 2, "後天": 2, "大前天": -3,
                 "大后天": 3, "一昨日": -2, "明後日": 2, "昨日": -1, "今日": 0, "明日": 1,
                 "그저께": -2, "그제": -2, "어제": -1, "오늘": 0, "내일": 1, "모레": 2,
                 "一周前": -7, "一週前": -7, "一星期前": -7, "一週間前": -7, "两周前": -14,
                 "兩週前": -14, "二週間前": -14, "일주일 전": -7}
# "3 days ago", "two weeks ago", "vor 3 Tagen", "il y a 3 jours", "hace 3 días", 3天前, 3日前,
# 3일 전: the count and the unit (a day or a week). "in 3 days" and 3天后 are not read: far more
# often a duration ("ships in 3 days", "doubled in a week") than a day.
# The numbers up to ten (twelve in English) said before "days ago" in each language, in order
# from one; and the articles and forms that also count one or two.
_COUNT_WORDS_OF = {
    "en": "one two three four five six seven eight nine ten eleven twelve",
    "de": "einem zwei drei vier fünf sechs sieben acht neun zehn",
    "fr": "un deux trois quatre cinq six sept huit neuf dix",
    "es": "un dos tres cuatro cinco seis siete ocho nueve diez",
    "it": "un due tre quattro cinque sei sette otto nove dieci",
    "pt": "um dois três quatro cinco seis sete oito nove dez",
    "nl": "een twee drie vier vijf zes zeven acht negen tien",
}
_COUNT_WORDS = {word: value for words in _COUNT_WORDS_OF.values()
                for value, word in enumerate(words.split(), 1)}
_COUNT_WORDS.update({"a": 1, "einer": 1, "une": 1, "una": 1, "uma": 1, "duas": 2, "één": 1})


def _counted_words(language: str, *more: str) -> str:
    return "|".join(["[0-9]{1,4}", *_COUNT_WORDS_OF[language].split(), *more])


_COUNTED_DAYS = {
    "en": rf"(?P<count>{_counted_words('en', 'a')}) (?P<unit>days?|weeks?) ago",
    "de": rf"vor (?P<count>{_counted_words('de', 'einer')}) (?P<unit>Tag(?:en)?|Wochen?)",
    "fr": rf"il y a (?P<count>{_counted_words('fr', 'une')}) (?P<unit>jours?|semaines?)",
    "es": rf"hace (?P<count>{_counted_words('es', 'una')}) (?P<unit>días?|semanas?)",
    "it": rf"(?P<count>{_counted_words('it', 'una')}) (?P<unit>giorni|giorno|settimane|settimana)"
          r" fa",
    "pt": rf"há (?P<count>{_counted_words('pt', 'uma', 'duas')}) (?P<unit>dias?|semanas?)",
    "nl": rf"(?P<count>{_counted_words('nl', 'één')}) (?P<unit>dagen|dag|weken|week) geleden",
}
# The count is read from the start of its digits only, and is at most 4 of them: at every
# position of a long run of digits, an unbounded \d+ would run to its end (quadratic).
_CJK_COUNTED = r"(?<![0-9])(?P<count3>[0-9]{1,4})(?P<unit3>天|日|일|周|週)[ ]?(?:前|전)"
# The first characters of the CJK relative words and the units of CJK counts.
_CJK_RELATIVE_CHAR = re.compile("[" + "".join(sorted({w[0] for w in _CJK_RELATIVE}))
                                + "天日일周週]")
_WEEK_UNITS = ("week", "woche", "semaine", "semana", "settiman", "周", "週")


# What each part of the relative-day pattern needs in the lower-cased text before it is worth
# running: a pattern of many alternatives tries every position of the text, which cost more
# than the rest of an audit on long text (see ``_relative_parts``).
_COUNTED_NEEDS = {"en": "ago", "de": "vor ", "fr": "il y a", "es": "hace", "it": " fa",
                  "pt": "há ", "nl": "geleden"}


def _relative_parts(language: str, text: str, low: str) -> tuple[bool, bool, bool]:
    """Which parts of ``_relative_pattern`` can match: counted days, the language's words, the
    CJK words and counts. Substring tests and one character class, all in C."""
    counted = language in _COUNTED_NEEDS and _COUNTED_NEEDS[language] in low
    latin = any(word in low for word in _RELATIVE_WORDS.get(language, ()))
    cjk = not text.isascii() and _CJK_RELATIVE_CHAR.search(text) is not None
    return counted, latin, cjk


@functools.lru_cache(maxsize=256)
def _relative_pattern(language: str, parts: tuple[bool, bool, bool]
                      ) -> tuple[re.Pattern, dict[str, int]]:
    """The relative days of ``language`` (and the CJK ones) as one pattern, with the offset of
    each word, lower-cased; only the ``parts`` (counted, words, CJK) that can match."""
    words = {**_RELATIVE_WORDS.get(language, {}), **_CJK_RELATIVE}
    latin = sorted((w for w in words if not _is_cjk(w[0])), key=len,
                   reverse=True)
    cjk = sorted((w for w in words if _is_cjk(w[0])), key=len, reverse=True)
    pattern = []
    if parts[0] and language in _COUNTED_DAYS:
        pattern.append(rf"\b(?:{_COUNTED_DAYS[language]})\b")
    if parts[1] and latin:
        # "Yesterday's post" is yesterday; "yesterday-ish" is not read
        pattern.append(r"(?<![\w-])(?:" + "|".join(map(re.escape, latin)) + r")(?![\w-])")
    if parts[2]:
        pattern.append(_CJK_COUNTED)
        pattern.append("(?:" + "|".join(map(re.escape, cjk)) + ")")
    flags = re.IGNORECASE if language != "de" else 0    # German "Morgen" is the morning
    return re.compile("|".join(pattern) or "(?!)", flags), \
        {w.lower(): o for w, o in words.items()}


_COUNT_BRIDGE = re.compile(r"\s+of\s+(?:(?:your|the|my|our|their|his|her|these|those)\s+)?"
                           r"(?:(?:last|past|first|latest|recent|previous|final)\s+)?$",
                           re.IGNORECASE)


def _money_currencies(fields, default: str | None) -> tuple[tuple[str, str], ...]:
    """(field, currency) of the money fields (their own currency, else the ruleset's); a name
    two entities declare in different currencies says nothing."""
    found: dict[str, set[str]] = {}
    for field in fields:
        currency = (field.type.currency or default) if field.type.kind == "money" else None
        if currency:
            found.setdefault(field.name, set()).add(currency.upper())
    return tuple((name, codes.pop()) for name, codes in sorted(found.items()) if len(codes) == 1)


@dataclasses.dataclass(frozen=True)
class SweepSettings:
    small_integer_limit: int = DEFAULT_SMALL_LIMIT
    small_integer_contexts: frozenset[str] = frozenset(DEFAULT_CONTEXTS)
    rounding: frozenset[str] = frozenset()      # field names or entity.field
    exempt: frozenset[str] = frozenset()
    placeholders: tuple[str, ...] = ()
    untrusted: tuple[str, ...] = ()
    authoritative: tuple[str, ...] = ()
    percent_fields: tuple[str, ...] = ()
    # From the ruleset's entities: a field's own placeholders, (field, value, unless flag), and
    # money stored in minor units, (field, currency digits), so 129900 licenses "$1,299.00".
    field_placeholders: tuple[tuple[str, str, str | None], ...] = ()
    minor_units: tuple[tuple[str, int], ...] = ()
    # The entities whose rows keep rules in evidence (hidden fields, freshness budgets), each
    # with the JSON paths its rows are found at.
    row_entities: tuple[tuple[Entity, tuple[str, ...]], ...] = ()
    # Binding's derived figures (a winning margin...): code computes them from the evidence
    # as it is indexed, so they are allowed in their own right.
    binding: Binding = Binding()
    # The currency of each money field, (field, ISO code): an amount there is in that currency
    # unless a sibling ``currency`` says otherwise.
    money_currencies: tuple[tuple[str, str], ...] = ()

    @classmethod
    def from_policy(cls, policy: Policy | None) -> "SweepSettings":
        """The settings of ``policy`` (the defaults without one), derived once per policy
        object: a policy is immutable, and every audit needs them."""
        if policy is None:
            return _DEFAULT_SETTINGS
        return _settings_of(Identity(policy))

    @classmethod
    def _derive(cls, policy: Policy) -> "SweepSettings":
        spec = policy.sweep
        percent_fields = tuple(f"{e.name}.{f.name}" for e in policy.entities for f in e.fields
                               if f.type.kind == "decimal" and f.type.percent)
        from babel.numbers import get_currency_precision

        fields = [f for e in policy.entities for f in e.fields]
        placeholders = tuple((f.name, str(p.value), p.unless) for f in fields for p in f.placeholders)
        minor = tuple((f.name, get_currency_precision(f.type.currency)) for f in fields
                      if f.type.kind == "money" and f.type.storage == "minor")
        return cls(spec.small_integer_limit, frozenset(spec.small_integer_contexts),
                   frozenset(spec.rounding), frozenset(spec.exempt), spec.placeholders,
                   spec.untrusted, spec.authoritative, percent_fields, placeholders, minor,
                   _row_entities(policy), policy.binding,
                   money_currencies=_money_currencies(fields, policy.currency))

    def index(self, evidence: Any, locale: str, *, now: dt.datetime | None = None) -> Evidence:
        """Index ``evidence`` once for any number of audits. ``now`` is when its rows' ages
        are measured against their freshness budgets (the current time by default). The
        ruleset's derived figures are computed and indexed with it (``Evidence.raw`` holds them
        under ``rulekit_derived``), and the index keeps the evidence for binding."""
        if isinstance(evidence, Evidence):
            return evidence
        if self.binding.derived and isinstance(evidence, Mapping):
            from rulekit.bind import DERIVED_KEY, derived_values

            derived = derived_values(self.binding, evidence)
            if derived:
                evidence = {**evidence, DERIVED_KEY: derived}
        rows = _row_rules(self.row_entities, evidence, now) if self.row_entities else None
        return Evidence.build(evidence, locale=locale, untrusted=self._names(self.untrusted),
                              authoritative=self._names(self.authoritative),
                              placeholders=self.placeholders,
                              percent_fields=self._names(self.percent_fields),
                              field_placeholders=self.field_placeholders,
                              minor_units=dict(self.minor_units), rows=rows,
                              currencies=dict(self.money_currencies))

    @staticmethod
    def _names(targets: Iterable[str]) -> set[str]:
        """`entity.field` also matches the field name alone in JSON evidence."""
        names = set()
        for target in targets:
            names.add(target)
            if not target.startswith("$") and "." in target:
                names.add(target.split(".", 1)[1])
        return names


_DEFAULT_SETTINGS = SweepSettings()

# How findings are ordered: by span, then code. A C-level key: a text can hold many findings.
IN_TEXT_ORDER = operator.attrgetter("start", "end", "code")


# A process holds one policy, or a few; a reloaded policy pushes out the oldest.
@functools.lru_cache(maxsize=16)
def _settings_of(key: Identity) -> SweepSettings:
    return SweepSettings._derive(key.policy)


def _row_entities(policy: Policy) -> tuple[tuple[Entity, tuple[str, ...]], ...]:
    """The entities with a hidden field or a freshness budget, and where their rows are in
    JSON evidence: the paths binding declares (``entity product from evidence "$.products[*]"``)
    and, as in a rows file, a top-level key named after the entity, singular or plural."""
    declared = {e.name: e.paths for e in policy.binding.entities}
    found = []
    for entity in policy.entities:
        keeps_rules = any(not f.readable for f in entity.fields) or (
            entity.fresh_via and (entity.fresh_seconds or any(f.fresh_seconds for f in entity.fields)))
        if not keeps_rules:
            continue
        conventional = tuple(f"$.{name}{step}" for name in (entity.name, entity.name + "s")
                             for step in ("", "[*]"))
        found.append((entity, tuple(dict.fromkeys(declared.get(entity.name, ()) + conventional))))
    return tuple(found)


def _row_rules(entities: Sequence[tuple[Entity, tuple[str, ...]]], evidence: Any,
               now: dt.datetime | None) -> dict[int, RowRule]:
    """The rule of every entity row in ``evidence``, by the row's ``id()``: its hidden fields,
    and its fields older than their freshness budget at ``now``. Age is judged from the row's
    own ``via`` field (``updated_at``): a row without one states no age, and the caller who
    built the evidence answers for it; a row whose ``via`` cannot be read is stale."""
    if not isinstance(evidence, Mapping):
        return {}
    from rulekit.check import staleness

    now = now or dt.datetime.now(dt.timezone.utc)
    if now.tzinfo is None:
        now = now.replace(tzinfo=dt.timezone.utc)
    rules: dict[int, RowRule] = {}
    for entity, paths in entities:
        for path in paths:
            for row in locate(evidence, path):
                if id(row) in rules:
                    continue
                withheld: dict[str, tuple[str, str]] = {}
                for field in entity.fields:
                    if not field.readable:
                        withheld[field.name] = ("hidden_field", f"appears in the evidence only as "
                                                f"{entity.name}.{field.name}, which the rules do "
                                                "not allow to be shown")
                    elif field.name in row and entity.fresh_via in row and \
                            (why := staleness(entity, field, row, now)):
                        withheld[field.name] = ("stale", f"is {entity.name}.{field.name} of a "
                                                f"record that is out of date ({why}); a stale "
                                                "value is not quoted")
                if withheld:
                    rules[id(row)] = RowRule(entity.name, withheld)
    return rules


def sweep(text: str, evidence: Evidence, settings: SweepSettings = SweepSettings(), *,
          locale: str = "en_US", question: str | None = None,
          slot_values: Sequence[str] = (), settled: Collection[tuple[int, int]] = (),
          mentions: Sequence[Mention] | None = None) -> list[Finding]:
    """The mentions in ``text`` that ``evidence`` does not back, in order. ``settled`` holds
    the spans binding already judged (``rulekit.bind``): the sweep is their fallback only.
    ``mentions`` is ``scan(text, locale)`` when the caller already has it."""
    scanned = list(mentions) if mentions is not None else scan(text, locale)
    if settled:
        scanned = [m for m in scanned if (m.start, m.end) not in settled]
    if "quote" in map(_KIND, scanned):     # (C-level test: most answers quote nobody)
        # "Refund: *We sent $500 to your card.*": a label's emphasis is the answer's own words,
        # so what it holds is judged like the rest (``_label_emphasis``)
        scanned = [m for m in scanned if not (m.kind == "quote" and m.text[:1] in "*_"
                                               and _label_emphasis(text, m, evidence))]
        scanned = _outside_quotes(scanned, _asserted_question_quotes(text, scanned, evidence,
                                                                     question))
    mentions = _outside(_exempt_spans(text, settings.exempt), scanned)
    # Relative days first: the count of "3 days ago" is judged with the day it resolves to.
    low = text.lower()
    relative_days = _relative_days(text, evidence, locale) if _may_be_relative(text, low, locale) \
        else None
    if relative_days and relative_days[1]:
        mentions = [m for m in mentions if (m.start, m.end) not in relative_days[1]]
    licensed_by_slots = _slot_numbers(slot_values, locale)
    # "fell 12.5%": a number the evidence holds as a change is judged with the direction
    # written around it (``_trend``), so it may not take the fast path either.
    changes = evidence.change_magnitudes if evidence.changes and _may_trend(low) else None
    judge = _Judge(text, evidence, settings, locale, question, licensed_by_slots, mentions,
                   directed=_may_have_direction(low), changes=changes)
    values, percents, urls, names = evidence.values, evidence.percents, evidence.urls, \
        evidence.names
    # "3 under par" is -3: a number with a direction word after it is judged with its sign,
    # so it may not take the fast path below (which matches magnitudes).
    directed = judge.directed
    judge_mention = judge.mention
    findings = []
    for index, mention in enumerate(mentions):
        # A figure the evidence holds as written is backed whatever else ``_number`` would
        # look at (the first tests of ``_matches``, and every test before them licenses), and so
        # are an absolute link the evidence holds (``_url``) and a code it holds: the common
        # cases, settled here without the judge's dispatch.
        kind, value = mention.kind, mention.value
        if value is not None and kind in _FIGURE_KINDS and (
                value in percents if mention.percent else value in values
                and mention.sign != "+" and mention.currency is None) \
                and not (directed and _direction(text, mention)) and not mention.ordinal \
                and not (changes and abs(value) in changes and _trend(text, mention)):
            continue    # an ordinal may be a day with its weekday ("Tuesday the 3rd")
        if kind == "url" and not mention.text.startswith("/") and _url(mention.text) in urls:
            continue
        if mention.glued and kind == "number" and mention.currency is None \
                and mention.token.casefold() in names \
                and not (directed and _direction(text, mention)):
            continue    # a code the evidence holds (p3, BT-3): the first test of _name_digits
        found = judge_mention(index, mention)
        if found is not None:
            findings.append(found)
    if relative_days:
        findings.extend(relative_days[0])
    if evidence.days and ("day" in low or locale[:2] != "en" or "曜" in text or "周" in text
                          or "週" in text or "星期" in text or "拜" in text):
        findings.extend(_lone_weekdays(text, low, mentions, evidence, locale))
    amounts = _amount_words(text, low, evidence)
    if "s of" in low:
        amounts += _magnitudes(text, low, evidence)
    if "left" in low or "stock" in low or "remain" in low or "available" in low \
            or "lager" in low or "剩" in low or "库存" in low or "在庫" in low:
        amounts += _stock_levels(low if len(low) == len(text) else _ascii_lower(text),
                                 mentions, evidence)
    if amounts:
        skip = [(f.start, f.end) for f in findings]
        skip += [(m.start, m.end) for m in scanned if m.kind == "quote"]
        skip += _exempt_spans(text, settings.exempt)
        findings.extend(_not_overlapping(amounts, skip))
    return sorted(findings, key=IN_TEXT_ORDER)


def _not_overlapping(found: list[Finding], spans: list[tuple[int, int]]) -> list[Finding]:
    """The findings that overlap none of ``spans``. The spans are merged once and each finding
    is looked up by bisection: a text full of stock phrases and figures has as many spans as
    findings, and testing every pair was quadratic."""
    merged_starts: list[int] = []
    merged_ends: list[int] = []
    for a, b in sorted(spans):
        if merged_ends and a < merged_ends[-1]:
            merged_ends[-1] = max(merged_ends[-1], b)
        else:
            merged_starts.append(a)
            merged_ends.append(b)
    kept = []
    for finding in found:
        # the last merged span starting before the finding's end is the only one that can
        # overlap it (merged spans are disjoint and ordered)
        at = bisect.bisect_left(merged_starts, finding.end) - 1
        if at < 0 or merged_ends[at] <= finding.start:
            kept.append(finding)
    return kept


# How many days from today each relative day word is.
_DAY_OFFSETS = {"yesterday": -1, "today": 0, "tonight": 0, "tomorrow": 1, "last night": -1,
                "昨天": -1, "今天": 0, "明天": 1, "前天": -2, "后天": 2, "後天": 2}


def _relative_days(text: str, evidence: Evidence, locale: str
                   ) -> tuple[list[Finding], set[tuple[int, int]]]:
    """Relative days ("yesterday", "3 days ago", gestern, 昨天) resolved against
    the evidence's today: the findings, and the spans of the day counts that were resolved (the
    3 of "3 days ago" is judged with its day, as the date part it is, not as a quantity)."""
    findings, settled = [], set()
    today = evidence.today
    language = locale.split("_")[0].lower()
    parts = _relative_parts(language, text, _ascii_lower(text))
    if not any(parts):
        return findings, settled
    pattern, offsets = _relative_pattern(language, parts)
    for match in pattern.finditer(text):
        said = match.group(0)
        offset = offsets.get(said.lower())
        before = text[max(0, match.start() - 16):match.start()].lower()
        if offset is not None and said.lower() in _MORNING_AFTER and before.endswith(
                _MORNING_AFTER[said.lower()]):
            continue                                # "por la mañana", "heute morgen": a morning
        if offset == 0 and _in_question(text, match.end()):
            continue                                # "How can I help you today?"
        if offset is not None and offset > 0 and before.endswith(_SIGN_OFF_BEFORE) \
                and _SIGN_OFF_AFTER.match(text, match.end()):
            continue                                # "See you tomorrow!", "À demain !"
        if offset is None:                          # "N days ago", 3天前
            number = next(g for g in ("count", "count3") if match.groupdict().get(g))
            settled.add(match.span(number))
            offset = _counted_offset(match)
            if before.endswith(_HEDGES):
                # "about a week ago" names no one day: some evidence day must be that long ago,
                # give or take half of it (a day at least); "over", "more than" and "at least"
                # bound it below, "under", "less than", "almost" and "nearly" above.
                ago = -offset
                low_days, high_days = max(1, ago - max(1, ago // 2)), ago + max(1, ago // 2)
                if before.endswith(("over ", "more than ", "at least ")):
                    low_days, high_days = ago, 10**6
                elif before.endswith(("under ", "less than ", "almost ", "nearly ")):
                    low_days, high_days = 1, ago
                if today is not None and any(low_days <= (today - day).days <= high_days
                                             for day in evidence.days):
                    continue
                if today is not None:
                    findings.append(_new_finding(
                        "date", said, None, match.start(), match.end(), "unsupported_date",
                        f"'{before.split()[-1] if before.split() else ''} {said}': no date in "
                        f"the evidence is about {-offset} days before its today "
                        f"({today.isoformat()})"))
                    continue
        if offset is not None and offset in (0, 1) and offsets.get(said.lower()) is not None \
                and _said_in_evidence(said, evidence):
            continue                                # "Arriving today" in the evidence
        if today is None:
            why = ("the evidence's today could not be read as a date" if evidence.has_today
                   else "the evidence has no 'today' to resolve it against")
            findings.append(_new_finding("date", said, None, match.start(), match.end(),
                                         "relative_date", f"'{said}' is relative, and {why}"))
            continue
        try:
            day = today + dt.timedelta(days=offset)
        except OverflowError:
            day = None
        if day is not None and (day in evidence.stated_days or (
                offset == 0 and day in evidence.days and not _event_today(text, *match.span(),
                                                                           language))):
            # The today field backs "today" as the present ("as of today", "your order is on
            # its way today"), not as the day of an event ("it arrives today"): that needs a
            # day of the data.
            continue
        if offset is not None and abs(offset) <= 1 and _store_hours_clause(
                _ascii_lower(text), *match.span()):
            continue        # "Yes, we're open tomorrow": the store's hours, no day of the data
        meant = day.isoformat() if day is not None else "no calendar day"
        findings.append(_new_finding("date", said, meant, match.start(), match.end(),
                                     "unsupported_date", f"'{said}' is {meant} (the evidence's "
                                     f"today is {today.isoformat()}), and no date in the "
                                     "evidence is that day"))
    return findings, settled


# A denial in a squashed evidence text ("notarrivingtoday", "willnotarrivetomorrow", "won't"),
# which has no spaces left to find words by: "not" inside "note" counts too (fail closed).
_DENYING = re.compile(r"not|never|n't|n’t|nicht|pas|不|没|未|ない")


def _said_in_evidence(word: str, evidence: Evidence) -> bool:
    """Whether the relative day ``word`` ("today", 明天) is said in a trusted text of the
    evidence that denies nothing ("Arriving today", not "Not arriving today"). Texts are squashed, without spaces: a word in a Latin script
    must end its text or be followed by no letter ("today's deals" does not back it)."""
    said = squash(word)
    latin = said[:1] < "\u2e80"
    for text, author in evidence.quotes:
        if author is not None or _DENYING.search(text):
            continue        # third-party text backs nothing, nor "Not arriving today"
        at = text.find(said)
        while at >= 0:
            end = at + len(said)
            if not latin or not text[end:end + 1].isalpha():
                return True
            at = text.find(said, end)
    return False


# Rule 10, a weekday said alone as the day of something ("It arrives Friday.", "on Friday",
# "this Monday", "il arrive vendredi", "am Freitag", "el viernes", 周五到, 金曜日に): some date of
# the evidence must be that weekday, and with a clock time beside it ("on Saturday at 8 pm",
# "8 pm ET on Saturday") some clock time of the evidence must be that time on that weekday.
# Judged only when the evidence holds a date, and only after a word that makes the weekday a
# day (``_LONE_BEFORE``), or before one in CJK text (``_LONE_CJK_AFTER``); never a plural
# ("on Sundays", "freitags"), a range ("Monday to Friday", "Mon–Fri", 周一至周五), a weekday
# in opening hours ("open on Saturday", "closed Sunday"), after "every", or beside a date,
# which ``_Judge._date`` judges with its weekday.
def _event_today(text: str, start: int, end: int, language: str) -> bool:
    """Whether "today" at [start, end) is the day of an event its clause states ("it arrives
    today", "shipped today", "today your order arrives"): a word of ``_LONE_BEFORE`` that is no
    preposition, or of ``_EVENT_WORDS``, among the four words before it or the three after it
    in its clause."""
    before = re.split(r"[.,;:!?()\n]", text[max(0, start - 48):start])[-1]
    after = re.split(r"[.,;:!?()\n]", text[end:end + 40])[0]
    words = before.lower().split()[-4:] + after.lower().split()[:3]
    events = _LONE_BEFORE.get(language, frozenset()) - _NOT_EVENTS
    if any(word in events or word in _EVENT_WORDS for word in words):
        return True
    # CJK text has no spaces: an arrival or shipping word anywhere near ("今天已送达", "本日到着")
    window = before[-12:] + after[:12]
    return any(word in window for word in _EVENT_CJK)


_NOT_EVENTS = frozenset("on by this next last until till before after since ce d'ici jusqu'à "
                        "jusqu’à avant après dès depuis pour am bis ab seit vor nach diesen "
                        "nächsten kommenden el este próximo hasta desde antes después".split())
_EVENT_WORDS = frozenset("posted published went goes launched sent processed placed ordered "
                         "paid charged refunded opened opens closes closed expires expired ends "
                         "ended starts started renews renewed picked collected arrived "
                         "angekommen eingetroffen zugestellt geliefert versandt verschickt "
                         "llegado entregado enviado recibido arrivé arrivée livré livrée expédié "
                         "arrivato arrivata consegnato spedito chegou entregue enviado "
                         "aangekomen bezorgd geleverd verzonden".split())
_EVENT_CJK = ("送达", "送達", "到达", "到達", "发货", "發貨", "发出", "签收", "到着", "配達", "発送",
              "お届け", "도착", "배송", "발송")

_LONE_BEFORE = {
    "en": frozenset("on by this next last until till before after since arrives arrive arriving "
                    "arrived delivered deliver delivers delivery ships ship shipped shipping "
                    "dispatched dispatch dispatches expected scheduled due lands comes coming "
                    "ready booked".split()),
    "fr": frozenset("ce d'ici jusqu'à jusqu’à avant après dès depuis pour arrive arrivera arrivé "
                    "arrivée livré livrée livrés livraison expédié expédiée prévu prévue "
                    "prévus".split()),
    "de": frozenset("am bis ab seit vor nach diesen nächsten kommenden kommt kommen geliefert "
                    "lieferung versandt zugestellt".split()),
    "es": frozenset("el este próximo hasta desde antes después llega llegará llegó entregado "
                    "entrega enviado enviará".split()),
    "it": frozenset("il questo prossimo entro fino arriva arriverà arrivato consegnato "
                    "consegna spedito".split()),
    "pt": frozenset("na no nesta neste próxima próximo até chega chegará chegou entregue "
                    "entrega enviado".split()),
    "nl": frozenset("op tot aanstaande komende deze volgende bezorgd geleverd verzonden "
                    "komt".split()),
}
# Words a few words before the weekday that make it opening hours or a habit.
_LONE_NOT_BEFORE = frozenset("open opens opened closed close closes hours staffed available "
                             "every each except excluding business working weekdays "
                             "geöffnet geschlossen jeden ouvert fermé chaque abierto cerrado "
                             "cada".split())
# After the weekday, a plural part of the day ("on Friday nights") makes it a habit.
_LONE_NOT_AFTER = frozenset("mornings afternoons evenings nights".split())
# Anywhere in the weekday's sentence, words of opening hours ("Am Samstag haben wir bis 18 Uhr
# geöffnet"); in its clause, a negation or a habit ("We don't ship on Saturday", "refunds
# usually post by Friday"): no claim that an event falls on a day of the evidence.
_LONE_HOURS_WORDS = frozenset("open opened close closes closing closed hours geöffnet "
                              "geschlossen öffnungszeiten "
                              "ouvert fermé horaires abierto cerrado horario".split())
_LONE_NOT_CLAUSE = frozenset("don't doesn't don’t doesn’t do does never not no usually "
                             "typically normally generally always often".split())
# A supposition before the weekday in its sentence ("If you order by Thursday, ..."), and a
# general plural that starts the sentence ("Orders placed after 2 pm on Friday ship on Monday").
_LONE_SUPPOSED = re.compile(r"(?<![\w'’])(?:if|unless|in case|whether)(?![\w'’])"
                            r"[^.!?;\n]{0,64}\Z")
_LONE_GENERAL = frozenset("orders packages parcels returns deliveries items shipments".split())
_SENTENCE_END = re.compile(r"[.!?;\n](?![0-9])")


def _clause_of(low: str, s: int, e: int) -> tuple[int, str, str]:
    """The clause of ``low`` (lower-cased) that holds [s, e): the sentence cut at , : ( )
    dashes and and/but/so/as/once/because/while. (Where its sentence starts, the clause, and
    the clause up to s.)"""
    start = max(0, s - 120)
    ends = [found.end() for found in _SENTENCE_END.finditer(low, start, s)]
    start = ends[-1] if ends else start
    stop = _SENTENCE_END.search(low, e, e + 120)
    sentence = low[start:stop.start() if stop else e + 120]
    at = s - start
    clause_start = 0
    for cut in _CLAUSE_CUT.finditer(sentence):
        if cut.start() >= at:
            clause_end = cut.start()
            break
        clause_start = cut.end()
    else:
        clause_end = len(sentence)
    return start, sentence[clause_start:clause_end], sentence[clause_start:at]


def _lone_statement(low: str, s: int, e: int) -> bool:
    """Whether the weekday at [s, e) of ``low`` (lower-cased) is no claim about a day of the
    evidence, judged on its clause (``_clause_of``): the clause speaks of opening hours,
    supposes ("if", "unless"...) before it, starts with a general plural that names nothing of
    the customer's ("Orders ship Monday"), denies or states a habit. Another clause of the
    sentence changes nothing: "We're open Saturday, and your order arrives Friday" states
    Friday."""
    start, clause, before = _clause_of(low, s, e)
    words = {word.strip(",:()\"“”") for word in clause.split()}
    if not _LONE_HOURS_WORDS.isdisjoint(words):
        return True
    first = clause.split(None, 1)[:1]
    if first and first[0] in _LONE_GENERAL and _LONE_CUSTOMERS.isdisjoint(words):
        return True
    if _LONE_SUPPOSED.search(before):
        return True
    # "doesn't arrive until Friday" states the day it arrives
    return not _LONE_NOT_CLAUSE.isdisjoint(clause.split()) \
        and not low.endswith(_LONE_NOT_UNTIL, start, s)


def _store_hours_clause(low: str, s: int, e: int) -> bool:
    """Whether the relative day at [s, e) stands in a clause about the store's own opening
    hours ("Yes, we're open tomorrow", "Tomorrow's hours: 9–6"), which states no day of the
    data: the clause names the store (we, our, store, shop) or its hours, and no arrival,
    delivery or other event ("we're open tomorrow when your order arrives" is judged)."""
    _, clause, _ = _clause_of(low, s, e)
    words = {_POSSESSIVE.sub("", word.strip(",:()\"“”")) for word in clause.split()}
    if _LONE_HOURS_WORDS.isdisjoint(words) or not (
            "hours" in words or not _STORE_WORDS.isdisjoint(words)):
        return False
    return _EN_EVENTS.isdisjoint(words) and _EVENT_WORDS.isdisjoint(words) \
        and _NOT_THE_STORE.isdisjoint(words)


_POSSESSIVE = re.compile(r"['’]s$")
_EN_EVENTS = _LONE_BEFORE["en"] - _NOT_EVENTS       # arrives, delivered, ships...
# A label or words before an amount that say it is taken off ("Discount: -$4.32", "coupon
# SUMMER10 -$4.32", "you saved -$4.32").
_DEDUCTION_LABEL = re.compile(r"(?i)discount|coupon|promo|rebate|voucher|savings?|saved|markdown"
                              r"|deduction|reduction|rabatt|remise|descuento|sconto|desconto|"
                              r"korting|折扣|优惠|割引|할인")
# Who keeps opening hours, and what else may be "open" ("the return window is open").
_STORE_WORDS = frozenset("we we're we'll we'd our store shop office branch".split())
_NOT_THE_STORE = frozenset("window sale case ticket return returns refund account offer "
                           "deal".split())


# Where a clause ends inside a sentence, for ``_lone_statement``.
_CLAUSE_CUT = re.compile(r"[,:()\u2013\u2014]|[ \t](?:-|and|but|so|as|once|because|while)[ \t]")
# Words that make a general plural the customer's own ("Items in your order", "Orders like
# yours", "Orders placed today").
_LONE_CUSTOMERS = frozenset("your yours you today tonight this".split())


_LONE_NOT_UNTIL = ("until ", "till ", "before ", "til ")
_LONE_CJK = re.compile(r"(?:星期|礼拜|禮拜|周|週)([一二三四五六日天])|([月火水木金土日])曜日?")
_LONE_CJK_DAYS = {**{c: i for i, c in enumerate("一二三四五六日")}, "天": 6,
                  **{c: i for i, c in enumerate("月火水木金土日")}}
_LONE_CJK_BEFORE = frozenset("本这這下上在于於")
_LONE_CJK_AFTER = ("到", "送达", "送達", "送到", "发货", "發貨", "前", "之前", "以前", "抵达",
                   "抵達", "に", "まで", "頃", "ごろ", "着", "配達", "お届け", "发出", "發出")
_LONE_CJK_RANGE = ("至", "到星期", "到周", "到週", "～", "〜", "~", "-", "－", "から")
# Between two weekdays of a range: "Monday to Friday", "Mon–Fri", "lundi au vendredi".
_WEEKDAY_RANGE_JOIN = re.compile(r"(?i)[ \t\u00a0]*(?:[-\u2013\u2014/~]|(?:to|through|thru|till|"
                                 r"until|bis|au|à|a|al|hasta)(?![\w]))[ \t\u00a0]*")
_WEEKDAY_RANGE_BEFORE = re.compile(r"(?i)(?:[-\u2013\u2014/~]|(?<![\w])(?:to|through|thru|till|"
                                   r"until|bis|au|à|a|al|hasta))[ \t\u00a0]*\Z")
# Between a weekday and a date or an ordinal it names ("Friday, July 10", "Tuesday the 3rd"),
# and between a weekday and the clock time after it ("Saturday at 8 pm").
_WEEKDAY_TO_DATE = re.compile(r"(?i)[ \t\u00a0,.(\u2013\u2014-]*(?:the[ \t\u00a0]+)?\Z")
_WEEKDAY_TO_TIME = re.compile(r"(?i)[ \t\u00a0,]*(?:(?:at|um|à|@)[ \t\u00a0]+)?\Z")
_TIME_TO_WEEKDAY = re.compile(r"(?i)[ \t\u00a0]+(?:on|am)[ \t\u00a0]+\Z")


@functools.lru_cache(maxsize=64)
def _lone_weekday_names(locale: str) -> tuple[re.Pattern | None, dict[str, int], frozenset[str]]:
    """The wide weekday names of English and of ``locale`` as a pattern over lower-cased text,
    the weekday of each, and the words before one that make it a day (``_LONE_BEFORE``)."""
    before_words = _LONE_BEFORE.get(locale.split("_")[0].lower(), frozenset()) | _LONE_BEFORE["en"]
    names: dict[str, int] = {}
    for source in ("en", locale):
        for number, name in get_day_names("wide", "format", source).items():
            if name[:1].isascii() and name[:1].isalpha():
                names.setdefault(name.lower(), number)
    if not names:
        return None, names, before_words
    pattern = re.compile(r"(?<![\w'’-])(?:" + "|".join(map(re.escape, sorted(
        names, key=len, reverse=True))) + r")(?![\w'’-])")
    return pattern, names, before_words


def _lone_weekdays(text: str, low: str, mentions: Sequence[Mention], evidence: Evidence,
                   locale: str) -> list[Finding]:
    """The weekdays said alone that no date of the evidence is (see ``_LONE_BEFORE``); ``low``
    is ``text`` lower-cased."""
    found: list[tuple[int, int, int]] = []          # (start, end, weekday)
    pattern, names, before_words = _lone_weekday_names(locale)
    if len(low) != len(text):
        low = _ascii_lower(text)                    # the offsets must be the text's
    if pattern is not None:
        for match in pattern.finditer(low):
            s, e = match.span()
            words = low[max(0, s - 40):s].split()
            if not words or words[-1] not in before_words \
                    or not _LONE_NOT_BEFORE.isdisjoint(words[-4:]) \
                    or _word_after(low, e) in _LONE_NOT_AFTER or _lone_statement(low, s, e):
                continue
            if _WEEKDAY_RANGE_BEFORE.search(low, max(0, s - 12), s) and pattern.search(
                    low, max(0, s - 24), s):
                continue                            # "Monday to Friday": a range
            join = _WEEKDAY_RANGE_JOIN.match(low, e)
            if join and join.end() > e and _weekday_patterns(locale)[0].match(text, join.end()):
                continue
            found.append((s, e, names[match.group()]))
    if "曜" in text or "星期" in text or "周" in text or "週" in text or "拜" in text:
        for match in _LONE_CJK.finditer(text):
            s, e = match.span()
            if match.group(1) and text[e:e + 1] == "年":
                continue                            # 周年: an anniversary
            if text.startswith(_LONE_CJK_RANGE, e) or text[s - 1:s] in ("至", "到", "每", "～",
                                                                        "〜", "-"):
                continue                            # 周一至周五, 每周五: a range, a habit
            if text[s - 1:s] in _LONE_CJK_BEFORE or text.startswith(_LONE_CJK_AFTER, e):
                found.append((s, e, _LONE_CJK_DAYS[match.group(1) or match.group(2)]))
    if not found:
        return []
    held = {day.weekday() for day in evidence.days}
    starts = [m.start for m in mentions]            # in order (``scan``)
    findings = []
    for s, e, weekday in found:
        at = bisect.bisect_left(starts, e)
        after = mentions[at] if at < len(mentions) else None
        near = mentions[max(0, at - 3):at]          # those before, nearest last
        if any(m.end > s for m in near):
            continue                                # inside a date: judged with it
        before = near[-1] if near else None
        if after is not None and (after.kind == "date" or after.ordinal) \
                and (after.day is not None or (after.normalized or "")[:2] == "--"
                     or after.ordinal) and _WEEKDAY_TO_DATE.match(text, e, after.start):
            continue                                # "Friday, July 10": judged with the date
        if before is not None and before.kind == "date" and before.time is None \
                and text[before.end:s].strip(" \t\u00a0,(（") == "":
            continue                                # "December 3 (Tuesday)", 7月3日星期四
        time, end = None, e
        if after is not None and _clock_alone(after) and _WEEKDAY_TO_TIME.match(
                text, e, after.start):
            time, end = after.time, after.end
        elif before is not None and _clock_alone(before) and _TIME_TO_WEEKDAY.match(
                text, before.end, s):
            time, s = before.time, before.start
        name = _WEEKDAYS[weekday]
        if time is None:
            if weekday in held:
                continue
            message = f"'{text[s:e]}': no date in the evidence is a {name}"
        else:
            if _weekday_at(evidence, weekday, time):
                continue
            message = (f"'{text[s:end]}': the evidence holds no {time.hour:02d}:"
                       f"{time.minute:02d} on a {name}")
        findings.append(_new_finding("date", text[s:end], name, s, end, "unsupported_date",
                                     message))
    return findings


def _clock_alone(mention: Mention) -> bool:
    """A clock time with no day, whose zone (if any) keeps the day as written: a fixed offset
    other than UTC was read in UTC by the scanner, and its weekday is not the written one."""
    time = mention.time
    if mention.kind != "date" or time is None or mention.day is not None \
            or not (mention.normalized or "")[:1].isdigit() or "-24:" in mention.normalized:
        return False
    return time.tzinfo is not dt.timezone.utc or bool(_UTC_WRITTEN.search(mention.text))


_UTC_WRITTEN = re.compile(r"(?:UTC|GMT|Z)\)?\Z")


def _weekday_at(evidence: Evidence, weekday: int, time: dt.time) -> bool:
    """Whether the evidence holds the clock time ``time`` on a day that is ``weekday``: as
    written or in UTC, or an instant that is that time on that weekday in the time's zone."""
    zone = time.tzinfo
    if zone is None:
        return any((held is None and weekday in {d.weekday() for d in evidence.days}
                    or held is not None and held.weekday() == weekday)
                   and (hour, minute) == (time.hour, time.minute)
                   for held, hour, minute in evidence.clock)
    for held, hour, minute in evidence.utc_clock:
        if held is None:
            continue
        instant = dt.datetime(held.year, held.month, held.day, hour, minute,
                              tzinfo=dt.timezone.utc)
        if all((local.hour, local.minute, local.weekday()) == (time.hour, time.minute, weekday)
               for local in (instant.astimezone(reading) for reading in (
                   zone.zones if isinstance(zone, dates.Readings) else (zone,)))):
            return True
    return False


def _in_question(text: str, at: int) -> bool:
    """Whether the sentence going on at ``at`` ends with a question mark."""
    ends = [i for i in (text.find(mark, at) for mark in ".!?\n？。") if i >= 0]
    return bool(ends) and text[min(ends)] in "?？"


def _counted_offset(match: re.Match) -> int:
    """The days from today of "3 days ago", "two weeks ago", "vor 3 Tagen" or 3天前."""
    groups = match.groupdict()      # a language without counted days has only the CJK groups
    count = groups.get("count") or groups["count3"]
    unit = (groups.get("unit") or groups["unit3"]).lower()
    number = int(count) if count.isdigit() else _COUNT_WORDS[count.lower()]
    return -number * 7 if unit.startswith(_WEEK_UNITS) else -number


# A direction written after a number: "3 under par", "3-under 69", "5 below zero", "2 over."
_DIRECTION = re.compile(r"[ \u00a0\-\u2010](under|over|below|above)"
                        r"(?:[ \u00a0]+(?:par|zero)(?![\w-])"
                        r"|(?=[ \u00a0]*(?:[.,;:!?)\]]|$))|(?=[ \u00a0]+\d))", re.IGNORECASE)
_DIRECTION_SIGNS = {"under": -1, "below": -1, "over": 1, "above": 1}


_HYPHEN_NAME = re.compile(r"[-\u2010]([^\W\d_]+)")
_MIDNIGHT = re.compile(r"(?i)midnight|mitternacht|minuit|medianoche|mezzanotte|meia-noite|"
                       r"middernacht|午夜|半夜|深夜|자정")
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


@functools.lru_cache(maxsize=64)
def _weekday_patterns(locale: str
                      ) -> tuple[re.Pattern, re.Pattern, re.Pattern, dict[str, int], re.Pattern]:
    """The weekday names of English and of ``locale`` (wide, and abbreviated ones of three
    letters or more: "Thu", "jeu", "Tues", "Thurs", but not "Do", which is also a word), as
    patterns that find one at the start of a date mention, just before one ("Thursday,
    07/29/2026"; a name of two letters only with its dot: "Di., 3.12.") and just after one
    (7月29日星期四, 7月29日（木）: a one-character name only in brackets); with the weekday (0 is
    Monday) of each name, lower-cased; and a pattern for a weekday after a date in text that
    spaces its words: "December 3 (Tuesday)", "Dec 3 (Tue)", "December 3rd, a Tuesday"."""
    names: dict[str, int] = dict(dates._ENGLISH_EXTRA_DAYS)
    single: dict[str, int] = {}
    dotted: dict[str, int] = {}
    for source in ("en", locale):
        for width in ("wide", "abbreviated"):
            for number, name in get_day_names(width, "format", source).items():
                name = name.rstrip(".").lower()
                if len(name) == 1:
                    single.setdefault(name, number)
                elif width == "wide" or len(name) >= 3 or not name.isascii():
                    names.setdefault(name, number)
                elif source != "en":
                    dotted.setdefault(name, number)
    alternatives = "|".join(map(re.escape, sorted(names, key=len, reverse=True)))
    ones = "|".join(map(re.escape, single)) or "(?!)"
    twos = "|".join(map(re.escape, dotted)) or "(?!)"
    head = re.compile(rf"(?i)(?P<w>{alternatives})(?![\w])")
    before = re.compile(rf"(?i)(?<![\w])(?P<w>{alternatives}|(?:{twos})(?=\.))"
                        rf"[ \t\u00a0,.\u2014]*\Z")
    after = re.compile(rf"(?i)[ \t\u00a0,]*(?:[(（](?P<w1>{alternatives}|{ones})[)）]"
                       rf"|(?P<w2>{alternatives}))")
    spaced_after = re.compile(rf"(?i)(?:[ \t\u00a0]*[(\[](?P<w1>{alternatives})\.?[)\]]"
                              rf"|,[ \t\u00a0]+(?:which[ \t\u00a0]+is[ \t\u00a0]+)?a[ \t\u00a0]+"
                              rf"(?P<w2>{alternatives})(?![\w]))")
    return head, before, after, {**single, **dotted, **names}, spaced_after


@functools.lru_cache(maxsize=64)
def _weekday_range_patterns(locale: str) -> tuple[re.Pattern, re.Pattern]:
    """Two weekdays joined as a range or a choice before a range of days ("Thu–Fri, 3–4
    December", "Thursday or Friday (Dec 3–4)"): a pattern for the text before the first day,
    and one for the text before the second ("Thu–Fri, 3–"); the first weekday names the first
    day, the second the second."""
    names = "|".join(map(re.escape, sorted(_weekday_patterns(locale)[3], key=len, reverse=True)))
    join = (r"[ \t\u00a0]*(?:[-\u2013\u2014/]|(?:to|through|till|until|or|and|bis|au|à|oder|ou|"
            r"o|y|et|und)(?![\w]))[ \t\u00a0]*")
    pair = rf"(?i)(?<![\w])(?P<w1>{names})\.?{join}(?P<w2>{names})\.?[ \t\u00a0,(]*"
    return (re.compile(pair + r"\Z"),
            re.compile(pair + r"(?:[^\W\d_]{3,9}\.?[ \t\u00a0]+)?[0-9]{1,2}(?:st|nd|rd|th|\.)?"
                       + join + r"\Z"))


def _stated_weekday(text: str, mention: Mention, locale: str) -> tuple[int, str] | None:
    """The weekday written with a date mention (before it, at its start, or after it in CJK
    text) as (0 for Monday..., the name as written), or None. Before a range of days, a range
    of weekdays names each day its own ("Thu–Fri, 3–4 December": Thursday the 3rd)."""
    head, before, after, numbers, spaced_after = _weekday_patterns(locale)
    window = max(0, mention.start - 48)
    first, second = _weekday_range_patterns(locale)
    found = first.search(text, window, mention.start) or second.search(
        text, window, mention.start)
    if found:
        name = found.group("w1" if found.re is first else "w2")
        return numbers[name.lower()], name
    found = head.match(mention.text) or before.search(
        text, max(0, mention.start - 16), mention.start)
    name = found.group("w") if found else None
    if name is None:
        found = (spaced_after if mention.text.isascii() else after).match(text, mention.end)
        name = found and (found.group("w1") or found.group("w2"))
    if not name:
        return None
    return numbers[name.lower()], name


# A clock time that does not say which half of the day it is in: "8 o'clock", "half past
# seven", "quarter to 9"; unless a word in it says so ("8 o'clock in the morning", "quarter past
# 8 am").
_EITHER_HALF = re.compile(r"(?i)clock|past|after|quarter|half|sharp")
_BARE_CLOCK = re.compile(r"[1-9]:[0-5][0-9](?![0-9:])")
# The half of the day said after a bare clock time, which the scanner does not take into the
# mention ("7:30 this morning", "7:30 in the morning").
_HALF_NEXT = re.compile(r"(?i)[ \u00a0]{1,3}(?:(?:this|tomorrow|in[ \u00a0]the|every|each)"
                        r"[ \u00a0]{1,3})?(?:morning|evening|afternoon|night|tonight)(?![\w])")
_HALF_SAID = re.compile(r"(?i)[ap]\.?[ \u00a0]?m(?![a-z])|morning|evening|afternoon|night|noon")


# A line that is one capitalised word and a colon before an emphasis ("Fit: *...*",
# "- **Recommendation:** *...*").
_SINGLE_NAME_INTRO = re.compile(r"[ \t]{0,3}(?:[-*+][ \t]+)?(?:\*\*|__)?([A-Z][\w'\-]{0,30})"
                                r"(?:\*\*|__)?[ \t]*:(?:\*\*|__)?[ \t]*")


def _label_emphasis(text: str, mention: Mention, evidence: Evidence) -> bool:
    """Whether an emphasis the scanner took for a quote after "Name:" follows a single word
    that names no author of the evidence: a label of the answer's own ("Recommendation: *size
    up*", "Refund: *We sent $500.*"), whose figures, dates and links are the answer's. "Dana:
    *...*" stays a quote when Dana wrote something in the evidence."""
    line = text.rfind("\n", 0, mention.start) + 1
    found = _SINGLE_NAME_INTRO.fullmatch(text, line, mention.start)
    if found is None:
        return False
    name = found.group(1).casefold()
    return not any(author and (name == author.casefold() or name in author.casefold().split())
                   for _, author in evidence.quotes)


def _either_half(said: str) -> bool:
    return _EITHER_HALF.search(said) is not None and _HALF_SAID.search(said) is None


def _zone_words(time: dt.time) -> str:
    """How a finding names the zone of a zoned time: a name of several zones says so."""
    zone = time.tzinfo
    if isinstance(zone, dates.Readings):
        return f"in every zone {zone.name} may mean ({zone.name} names several zones)"
    return "in that zone"


def _short_quote_word(quoted: str) -> str | None:
    """The word of a squashed quote shorter than six characters, when it is one word of a
    script that separates words with spaces; None otherwise (judged as a substring)."""
    if len(quoted) >= 6:
        return None
    words = _WORD.findall(quoted)
    if len(words) != 1 or not words[0].isascii():
        return None
    return words[0]


def _may_have_direction(low: str) -> bool:
    """Whether the lower-cased text holds a word ``_DIRECTION`` reads."""
    return "under" in low or "over" in low or "below" in low or "above" in low


def _direction(text: str, mention: Mention) -> int:
    """-1 or 1 when a direction word follows an unsigned number ("3 under par"), else 0."""
    if mention.sign is not None or mention.kind != "number" or mention.percent:
        return 0
    found = _DIRECTION.match(text, mention.end)
    return _DIRECTION_SIGNS[found.group(1).lower()] if found else 0


# A change said with its direction: a word or an arrow just before the number ("down 12.5%",
# "fell by 120", "a drop of 3", "▼2.3%"), or a word just after it ("12.5% lower", "120 more
# views", "a 3% drop"). "from" or "to" after the word makes the number a level, not a change
# ("up from $99", "down to $79"): they stand between the word and the number, where no
# direction is read. Read only for a number the evidence holds as a change (``_trend``).
_FALL_BEFORE, _RISE_BEFORE = FALL_BEFORE, RISE_BEFORE
_FALL_NOUNS = frozenset("drop decline decrease fall loss dip".split())        # "a drop of 3"
_RISE_NOUNS = frozenset("rise gain increase jump".split())
_FALL_ARROWS, _RISE_ARROWS = "▼↓⬇🔻", "▲↑⬆🔺"
_TREND_AFTER = re.compile(
    r"[ \u00a0]+(?:(?P<fall>lower|less|fewer|down|drop|decline|decrease|fall|loss|dip)"
    r"|(?P<rise>higher|more|up|rise|gain|increase|jump))(?![\w-])", re.IGNORECASE)
_OPENING = "([{\"'“‘«"
# Every word and arrow ``_trend`` reads, and every word of ``CHANGED_BEFORE``, holds one of
# these: a text with none of them is not read for directions at all.
_TREND_MARKS = ("down", "fell", "fall", "drop", "declin", "decreas", "lost", "los", "dip",
                "slip", "sank", "sunk", "shr", "plu", "tumbl", "slid", "lower", "less", "fewer",
                "up", "rose", "rise", "risen", "grew", "grow", "gain", "increas", "climb",
                "jump", "surg", "soar", "higher", "more", "improv", "worsen", "chang", "moved",
                "shift", "▼", "↓", "⬇", "🔻", "▲", "↑", "⬆",
                "🔺")


def _may_trend(low: str) -> bool:
    """Whether the lower-cased text holds a word or an arrow ``_trend`` reads."""
    return any(mark in low for mark in _TREND_MARKS)


def _trend(text: str, mention: Mention) -> int:
    """-1 or 1 when a direction word or arrow stands just before or after an unsigned figure
    ("fell 12.5%", "120 more views", "▲2.3%"), else 0. The words before are read from a
    window of 40 characters (a word cut by its start is dropped), not searched for."""
    if mention.sign is not None:
        return 0
    start = mention.start
    kept = text[max(0, start - 40):start].rstrip(" \u00a0")
    last = kept[-1:]
    if last and last in _FALL_ARROWS:
        return -1
    if last and last in _RISE_ARROWS:
        return 1
    if last.isalpha():
        words = kept.lower().split()[-4:]
        if start > 40:
            words = words[1:]       # the first may be the end of a longer word
        if words and words[-1] == "by":     # "fell by 120", "lower by 5%"
            words = words[:-1]
            if words and words[-1] in ("lower", "higher"):
                return -1 if words[-1] == "lower" else 1
        elif len(words) >= 3 and words[-1] == "of" and words[-3] in ("a", "an"):
            noun = words[-2]        # "a drop of 3", "an increase of 5%"
            return -1 if noun in _FALL_NOUNS else 1 if noun in _RISE_NOUNS else 0
        if words:
            word = words[-1].lstrip(_OPENING)
            if word in _FALL_BEFORE:
                return -1
            if word in _RISE_BEFORE:
                return 1
    found = _TREND_AFTER.match(text, mention.end)
    if found is None:
        return 0
    return -1 if found.group("fall") else 1


def _may_be_relative(text: str, low: str, locale: str) -> bool:
    """Whether the relative-day pattern can match. In English every word it reads holds "day",
    "night", "tomorrow" or "ago", and in ASCII text, where lower-casing is exactly what the
    case-insensitive pattern ignores, four substring tests on ``low`` (the text lower-cased)
    decide: the pattern tries every position of the text, which cost more than judging a short
    answer. Other text and other languages run the pattern."""
    if not text.isascii() or not locale.startswith("en"):
        return True
    return "day" in low or "night" in low or "tomorrow" in low or "ago" in low


def _exempt_spans(text: str, exempt: Iterable[str]) -> list[tuple[int, int]]:
    spans = []
    for value in exempt:
        start = text.find(value) if value else -1
        while start >= 0:
            spans.append((start, start + len(value)))
            start = text.find(value, start + 1)
    return spans


def _outside(spans: list[tuple[int, int]], mentions: list[Mention]) -> list[Mention]:
    """Mentions not inside an exempt string ("24/7" is neither 24 nor 7)."""
    if not spans:
        return mentions
    return [m for m in mentions if not any(a <= m.start and m.end <= b for a, b in spans)]


def _outside_quotes(mentions: list[Mention], asserted: Collection[int] = ()) -> list[Mention]:
    """A quote is judged whole: the figures inside it are the quoted author's, not the answer's.
    The quotes at the indexes in ``asserted`` are the exception: what they hold is judged as
    the answer's own words (``_asserted_question_quotes``). One pass: mentions are sorted by
    start, so the covering quote only moves forward."""
    kept, covered_until = [], -1
    for index, mention in enumerate(mentions):
        if mention.kind == "quote":
            kept.append(mention)
            if index not in asserted:
                covered_until = max(covered_until, mention.end)
        elif mention.end > covered_until:
            kept.append(mention)
    return kept


# Words before a quote that give it to the user: "You asked", "you wrote", "your question".
_USERS_WORDS = re.compile(r"\byou(?:'ve|'re| have| are| were)?(?:[ \t\u00a0]+\w+){0,2}?"
                          r"[ \t\u00a0]+(?:ask|asked|asking|say|said|saying|write|wrote|writing|"
                          r"mention|mentioned|wonder|wondered|wondering|question|questioned|"
                          r"quote|quoted|type|typed|put it)\b"
                          r"|\byour (?:question|message|words|request)\b", re.IGNORECASE)


# Words right after a quote that deny it: '"It had 3,100 views" is not right'.
_DENIED = re.compile(r"[ \t\u00a0]*(?:is|was|are|were)(?:n't|[ \t\u00a0]+not\b|[ \t\u00a0]+"
                     r"(?:wrong|incorrect|false|inaccurate|untrue|mistaken)\b)", re.IGNORECASE)


def _asserted_question_quotes(text: str, mentions: Sequence[Mention], evidence: Evidence,
                              question: str | None) -> set[int]:
    """The indexes of quotes of the user's question (and of nothing in the evidence) that the
    answer does not give to the user: 'Yes, it "costs $29.99"' states the user's figure as a
    fact, so its figures are judged; 'You asked "does it cost $29.99?"' echoes it, and they
    are not. A quote that is itself a question is an echo too."""
    if not question:
        return set()
    asked = squash(question)
    found = set()
    for index, mention in enumerate(mentions):
        if mention.kind != "quote":
            continue
        quoted = mention.normalized or squash(mention.text)
        if not quoted or quoted not in asked or quoted.endswith("?") \
                or _found_whole(quoted, evidence.quote_text):
            continue
        sentence = max(text.rfind(mark, 0, mention.start) for mark in ".!?\n") + 1
        if not _USERS_WORDS.search(text, max(sentence, mention.start - 80), mention.start) \
                and not _DENIED.match(text, mention.end):
            found.add(index)
    return found


# The marks of words left out of a quote: "...", "…" (squashed, NFKC makes it "..."), "[...]",
# "[…]", "(...)".
_ELISION = re.compile(r"[\[(]?(?:\.\.\.|\u2026)[\])]?")


def _elided_found(said: str, quote_text: str) -> bool:
    """Whether a quote with words left out ("Great boots ... the sole never came off") is
    backed: each fragment, without the quote marks and final punctuation, found in order in
    one evidence text. Each fragment must be at least two words (four characters in a script
    without spaces), so that "Support was ... fast" cannot be stitched from single words; and
    what is left out may not deny ("It does [...] leak at all" for "It does not leak at all")."""
    fragments = []
    for part in _ELISION.split(said):
        squashed = squash(part).strip(".,!?;:>*_`")     # and Markdown's quote marks
        if not squashed:
            continue
        words = sum(any(c.isalnum() for c in word) for word in part.split())
        if words < 2 and (squashed.isascii() or len(squashed) < 4):
            return False
        fragments.append(squashed)
    if len(fragments) < 2:
        return False
    for text in quote_text.split("\x00"):
        if fragments[0] not in text:
            continue
        at = -1
        for fragment in fragments:
            end = _found_from(fragment, text, max(at, 0))
            if end < 0 or (at >= 0 and _DENYING.search(text, at, end - len(fragment))):
                break       # not there, or what was left out denies: "It does [...] leak"
            at = end
        else:
            return True
    return False


def _found_from(quoted: str, squashed: str, start: int) -> int:
    """The end of the first occurrence of ``quoted`` in ``squashed`` at or after ``start``
    that cuts no number (as ``_found_whole``), or -1."""
    at = squashed.find(quoted, start)
    while at >= 0:
        end = at + len(quoted)
        if not (quoted[-1].isdigit() and _digit_at(squashed, end)) and \
                not (quoted[0].isdigit() and at and _digit_at_left(squashed, at)):
            return end
        at = squashed.find(quoted, at + 1)
    return -1


def _found_whole(quoted: str, squashed: str) -> bool:
    """Whether ``quoted`` occurs in ``squashed`` (both squashed) without cutting a number: a
    quote ending "cost me 12" is not in "cost me 129 dollars", nor is "9.9" in "29.99"."""
    at = squashed.find(quoted)
    if at < 0:
        return False
    if not (quoted[0].isdigit() or quoted[-1].isdigit()):
        return True
    while at >= 0:
        end = at + len(quoted)
        if not (quoted[-1].isdigit() and _digit_at(squashed, end)) and \
                not (quoted[0].isdigit() and at and _digit_at_left(squashed, at)):
            return True
        at = squashed.find(quoted, at + 1)
    return False


def _digit_at(text: str, at: int) -> bool:
    """Whether a number goes on at ``at``: a digit, or a separator and a digit (",5", ".99")."""
    char = text[at:at + 1]
    return char.isdigit() or (char in ".,'" and text[at + 1:at + 2].isdigit())


def _digit_at_left(text: str, at: int) -> bool:
    """Whether a number goes on before ``at``: a digit, or a digit and a separator."""
    char = text[at - 1]
    return char.isdigit() or (char in ".,'" and at >= 2 and text[at - 2].isdigit())


def _slot_numbers(values: Sequence[str], locale: str) -> frozenset[Decimal]:
    found = set()
    for value in values:
        found.update(m.value for m in scan(str(value), locale) if m.value is not None)
    return frozenset(found)


class _Judge:
    def __init__(self, text: str, evidence: Evidence, settings: SweepSettings, locale: str,
                 question: str | None, from_slots: frozenset[Decimal], mentions: list[Mention],
                 *, directed: bool = False, changes: frozenset[Decimal] | None = None):
        self.text = text
        self.evidence = evidence
        self.settings = settings
        self.locale = locale
        self.question = squash(question) if question else ""
        self.raw_question = question
        self.from_slots = from_slots
        self.mentions = mentions
        self.months = evidence.day_months
        self.days_of_month = evidence.days_of_month
        self.directed = directed      # the text holds a direction word ("3 under par")
        # the sizes of the evidence's changes, when the text holds a word ``_trend`` reads
        self.changes = changes

    def mention(self, index: int, mention: Mention) -> Finding | None:
        method = _JUDGES.get(mention.kind)
        return method(self, index, mention) if method else None

    def _finding(self, mention: Mention, code: str, message: str, value: Any = None) -> Finding:
        if value is not None:
            shown = value
        elif mention.value is None:
            shown = mention.normalized
        elif mention.scaled:
            # 1.3M is 1.3 x 10^6: shown as 1300000, not with the product's exponent (1300000.0)
            shown = plain_decimal(mention.value)
        else:
            shown = str(mention.value)      # as written: "$1,299.00" is 1299.00
        return _new_finding(mention.kind, mention.text, shown, mention.start, mention.end, code,
                            message)

    # --- numbers ----------------------------------------------------------------------------

    def _number(self, index: int, mention: Mention) -> Finding | None:
        value = mention.value
        if value is None:
            return self._unreadable(mention)
        exempt = self.settings.exempt
        if exempt and (mention.text.strip() in exempt or str(value) in exempt):
            return None
        if value in self.from_slots:
            return None     # code put it there
        if mention.currency is not None:
            held = self.evidence.other_currencies(value, mention.currency)
            if held:
                where = "as a percentage" if held == ("%",) else f"in {', '.join(held)}"
                return self._finding(mention, "unsupported_number", f"{mention.text.strip()} is "
                                     f"in {mention.currency}; the evidence holds "
                                     f"{plain_decimal(abs(value))} {where}")
        direction = _direction(self.text, mention) if self.directed else 0
        if direction:
            signed = value * direction
            if signed in self.evidence.signed_values:
                return None
            if -signed in self.evidence.signed_values:
                return self._finding(mention, "unsupported_number", f"{mention.text.strip()} "
                                     f"with the direction after it is {signed}; the evidence "
                                     f"holds {-signed}", value=str(signed))
        trend = _trend(self.text, mention) if self.changes and abs(value) in self.changes else 0
        if trend:
            # a change said with its direction: the evidence's change must go the same way
            signed, changes = value * trend, self.evidence.changes
            if (signed, mention.percent) in changes:
                return None
            if (-signed, mention.percent) in changes:
                shown = f"{signed}%" if mention.percent else str(signed)
                held = f"{-signed}%" if mention.percent else str(-signed)
                return self._finding(mention, "unsupported_number", f"{mention.text.strip()} "
                                     f"with its direction word is a change of {shown}; the "
                                     f"evidence holds a change of {held}", value=str(signed))
        elif self.changes and mention.sign is None and abs(value) in self.changes \
                and change_word_before(self.text, mention.start) in CHANGED_BEFORE:
            # "improved by 2.1%": no direction (a lower bounce rate is better), so a change of
            # either sign backs its size
            changes = self.evidence.changes
            if (value, mention.percent) in changes or (-value, mention.percent) in changes:
                return None
        if mention.ordinal and 1 <= value <= 31 and value == value.to_integral_value():
            weekday = self._weekday_before(mention)
            if weekday is not None:     # "Tuesday the 3rd": a day, judged as one
                return self._weekday_day(mention, weekday)
        # Every test below licenses; the set lookups come first so that a backed figure, the
        # common case, is settled without the words around it (read lazily, see Mention).
        if self._matches(mention):
            return None
        if self._name_digits(mention):
            return None
        if mention.kind == "word_number" and self._hyphen_name(mention):
            return None
        integral = value == value.to_integral_value()
        pair = self._count_pair(index) if integral else None      # read once, used twice
        if integral and self._count(mention, pair):
            return None
        if integral and self._small_integer_context(mention):
            return None
        if integral and mention.ordinal and 12 < value <= 31 and self._day_of_month(mention):
            return None     # "shipped on the 15th": the day of a date in the evidence
        if pair is not None:
            (part, _), (total, counted) = pair
            rows = self._rows_of(counted)
            return self._finding(mention, "count_out_of_range", f"'{part} of {total}' counts more "
                                 f"than the evidence holds: {rows} {counted or 'rows'}".rstrip())
        return self._unsupported(mention, integral)

    _word_number = _number

    def _unreadable(self, mention: Mention) -> Finding | None:
        """A figure too long to have a value (more than ``scan.MAX_DIGITS`` digits, or an
        endless grouping) cannot be compared, so it fails closed, unless the evidence holds
        those characters verbatim (a long serial number copied from it)."""
        if mention.kind != "number":
            return None     # a word number always has a value; nothing else comes here
        shown = mention.text.strip()
        if shown in self.settings.exempt or squash(shown) in self.evidence.quote_text:
            return None
        return self._finding(mention, "unsupported_number", f"{shown[:24]}... is too long to "
                             "read as a number, so it cannot be checked against the evidence")

    def _matches(self, mention: Mention) -> bool:
        value, evidence = mention.value, self.evidence
        if mention.percent:
            if value in evidence.percents:
                return True
        elif mention.sign == "+":
            if value in evidence.signed_values:
                return True     # "+5": a stored 5, never the magnitude of a stored -5
        elif value in evidence.values or (mention.sign is None and -value in evidence.values):
            return True
        elif mention.sign is None and value in evidence.percents and self._percent_column:
            return True     # "| Engagement (%) |" over a 4.6: the percentage the evidence holds
        return self._rounded_from_allowed_field(mention)

    @functools.cached_property
    def _percent_column(self) -> bool:
        """Whether the text heads a column or a line with a percent sign ("Engagement (%)"),
        under which a percentage is written without one. A percentage licenses a plain number
        only then: "4.6 stars" is not the 4.6 % of an engagement rate."""
        text = self.text
        return "(%)" in text or "[%]" in text or "in %)" in text

    def _rounds_to(self, mention: Mention, figures) -> Any:
        value = mention.value
        if not figures:
            return None
        quantum, exponent = _shown_precision(mention.scale or 1, mention.decimals)
        for figure in figures:
            if mention.percent != figure.percent:
                continue    # a percentage rounds to a percentage only (see Evidence.values)
            if mention.sign is not None and (figure.value < 0) != (value < 0):
                continue    # a written sign must be the figure's: "+5" is no rounded -5
            if figure.decimals <= max(-exponent, 0) and not mention.scaled:
                continue    # never extra digits: the figure must have more precision than shown
            for mode in (ROUND_HALF_UP, ROUND_HALF_EVEN):
                if abs(figure.value).quantize(quantum, rounding=mode) == abs(value):
                    return figure
        return None

    def _rounded_from_allowed_field(self, mention: Mention) -> bool:
        allowed = self.settings.rounding
        if not allowed:
            return False
        figures = [f for f in self.evidence.near(mention.value) if _field_of(f.path) & allowed]
        return self._rounds_to(mention, figures) is not None

    def _name_digits(self, mention: Mention) -> bool:
        """Digits that keep the company they keep in the evidence: a name or code."""
        if "name_digits" not in self.settings.small_integer_contexts and not mention.glued:
            return False
        if mention.glued and mention.token and mention.token.casefold() in self.evidence.names:
            return True
        if mention.ordinal and mention.start and self.text[mention.start - 1] == "#" \
                and f"#{mention.text}".casefold() in self.evidence.names:
            return True     # "order #1042": the name "#1042" as the evidence writes it
        if mention.value is None or mention.percent or mention.currency:
            return False
        # Only a number of some "word number" or "number word" pair ("model 3", "3 charger")
        # can make one: checked first, so that the words around are read for those alone.
        if mention.text.casefold() not in self.evidence.pair_numbers:
            return False
        pairs, number = self.evidence.name_pairs, mention.text.casefold()
        before, after = mention.before.split(), mention.after.split()
        return bool(before) and f"{before[-1]} {number}" in pairs \
            or bool(after) and f"{number} {after[0]}" in pairs

    def _count(self, mention: Mention, pair) -> bool:
        """"4 of your last 5 rounds": the total at most what the evidence holds, the part at
        most the total; a plain number equal to a list's length is an exact count. ``mention``
        is a whole number, and ``pair`` its ``_count_pair``."""
        value = mention.value
        if mention.percent or mention.currency:
            return False
        if pair is not None:
            (part, _), (total, counted) = pair
            return part <= total <= self._rows_of(counted)
        if mention.scaled or int(value) not in self.evidence.count_lengths:
            return False    # settled without reading the word after
        words = mention.after.split()[:2]
        counts = self.evidence.counts
        if not words:
            return (int(value), "") in counts
        # "2 items", or "2 line items" against a list named line_items
        return (int(value), noun(words[0])) in counts or (
            len(words) == 2 and ((int(value), noun("_".join(words))) in counts
                                 or (int(value), noun(words[1])) in counts))

    def _rows_of(self, word: str) -> int:
        """How many rows the evidence holds of what ``word`` counts (all lists if unknown)."""
        wanted = noun(word)
        lengths = [length for length, name in self.evidence.counts if name == wanted]
        return max(lengths) if lengths else self.evidence.largest_count

    def _count_pair(self, index: int) -> tuple[tuple[Decimal, str], tuple[Decimal, str]] | None:
        """The part and the total of "4 of your last 5 rounds", each with the word after it."""
        mentions, mention = self.mentions, self.mentions[index]
        following = mentions[index + 1] if index + 1 < len(mentions) else None
        if following is not None and following.value is not None and \
                _COUNT_BRIDGE.search(self.text[mention.end:following.start]):
            first, second = mention, following
        else:
            previous = mentions[index - 1] if index > 0 else None
            if previous is None or previous.value is None or \
                    not _COUNT_BRIDGE.search(self.text[previous.end:mention.start]):
                return None
            first, second = previous, mention
        word = second.after.split()[0] if second.after else ""
        return (first.value, ""), (second.value, word)

    def _small_integer_context(self, mention: Mention) -> bool:
        """Whether a whole number up to the limit stands where a small integer is free."""
        value, settings = mention.value, self.settings
        if not 0 <= value <= settings.small_integer_limit:
            return False
        if mention.percent or mention.currency or mention.scaled:
            return False
        contexts = settings.small_integer_contexts
        before = mention.before.split()
        last = before[-1] if before else ""
        if value == 0 and last in ("below", "above") and mention.kind == "word_number":
            return True     # "5 below zero": the point a direction is measured from
        if mention.ordinal and self._on_the(mention):
            # "shipped on the 6th": the day of a month, not a position
            return "weekday" in contexts and int(value) in self.days_of_month
        if last in ("placed", "place") and not mention.ordinal:
            following = mention.after.split()[:1]
            if following and following[0].isalpha() and following[0] not in _PLACE_NOT_COUNTED:
                return False    # "you placed 3 orders": a count, not a place in a ranking
        stated = last if last not in ("#", "no.", "number") or len(before) < 2 else before[-2]
        if stated in _RANK_VALUE_WORDS and self.ranks and int(value) not in self.ranks:
            return False    # "ranked #1" where the evidence ranks it 2nd ("our #1 priority" is not)
        if mention.ordinal and ("ordinal" in contexts or "rank" in contexts):
            return True
        if "rank" in contexts and (last in _RANK_WORDS or _cjk_rank(mention.before, mention)):
            return True
        if "list_position" in contexts and (last in _LIST_WORDS or self._starts_list_item(mention)):
            return True
        if "month" in contexts and last in _MONTH_WORDS and int(value) in self.months:
            return True
        if "weekday" in contexts and last in _DAY_WORDS and int(value) in self.days_of_month \
                and mention.ordinal:
            return True
        if "rating_scale" in contexts and (mention.before.endswith("out of")
                                           or self._rating_after_slash(mention)):
            return True
        return False

    @functools.cached_property
    def ranks(self) -> frozenset[int]:
        """The ranks the evidence states, in fields named like a rank or a position: a rank
        said in the answer must be one of them when there are any."""
        return frozenset(int(a.shown) for a in self.evidence.amounts
                         if a.words & _RANK_FIELD_WORDS and a.shown.isdigit())

    def _rating_after_slash(self, mention: Mention) -> bool:
        """"4.5/5", "4 / 5": the scale of a rating written before a slash, no larger than it."""
        if "/" not in self.text[max(0, mention.start - 3):mention.start]:
            return False
        found = _RATED_SLASH.search(self.text, max(0, mention.start - 16), mention.start)
        return found is not None and Decimal(found.group(1).replace(",", ".")) <= mention.value

    def _hyphen_name(self, mention: Mention) -> bool:
        """A number word joined to a word by a hyphen ("two-day shipping") that the evidence
        writes as a name, in words or digits: "Two-Day Shipping", "2-Day", TWO_DAY."""
        found = _HYPHEN_NAME.match(self.text, mention.end)
        if found is None or mention.value is None:
            return False
        word = found.group(1).casefold()
        number = plain_decimal(mention.value)
        quote_text = self.evidence.quote_text
        return any(form in quote_text for form in (
            squash(f"{mention.text}-{word}"), f"{number}-{word}", f"{number}{word}",
            f"{number}_{word}"))

    def _on_the(self, mention: Mention) -> bool:
        """Whether an ordinal stands as a day of a month: "on the 6th", "by the 15th.", "no
        later than the 5th", "around the 5th", "It arrives the 5th", and the second day of
        "between the 3rd and the 5th", "from the 3rd to the 5th" (no noun after it)."""
        before = mention.before.split()
        if len(before) < 2 or before[-1] != "the":
            return False
        lead = before[-2]
        if not (lead in _DAY_PREPOSITIONS or lead in _DAY_LEADS or (
                lead in _DAY_JOINS and len(before) >= 3 and _ORDINAL_DAY.fullmatch(before[-3]))):
            return False
        return self._ends_phrase(mention)

    def _day_of_month(self, mention: Mention) -> bool:
        """An ordinal past the small integers said as a day of a month that a date in the
        evidence has ("on the 15th"); judged like the small ones (``_small_integer_context``)."""
        return "weekday" in self.settings.small_integer_contexts and self._on_the(mention) \
            and int(mention.value) in self.days_of_month

    @staticmethod
    def _ends_phrase(mention: Mention) -> bool:
        """Whether no noun follows the mention ("on the 6th." or "on the 6th at noon", not
        "on the 2nd attempt")."""
        after = mention.after.split()
        return not after or after[0] in _AFTER_DAY

    def _starts_list_item(self, mention: Mention) -> bool:
        """"3." or "3)" with only white space before it on its line. The cheap test on the
        character after comes first, and the look back walks only over the blanks before the
        mention, a window at a time: an rfind for the line start from the mention made a text
        of many numbers quadratic."""
        text = self.text
        if text[mention.end:mention.end + 1] not in (".", ")"):
            return False
        pos = mention.start
        while pos > 0:
            window = text[max(0, pos - 64):pos]
            kept = window.rstrip()
            if "\n" in window[len(kept):]:
                return True                 # only blanks between the line break and the number
            if kept:
                return False
            pos -= len(window)
        return True

    def _unsupported(self, mention: Mention, integral: bool) -> Finding:
        value, evidence = mention.value, self.evidence
        shown = mention.text.strip()
        if value in evidence.placeholder_values or -value in evidence.placeholder_values:
            return self._finding(mention, "placeholder", f"{shown} is a 'not recorded' "
                                 "placeholder in the evidence, not a measurement")
        withheld = evidence.withheld.get(value) or evidence.withheld.get(-value)
        if withheld is not None:
            return self._finding(mention, withheld[0], f"{shown} {withheld[1]}")
        if value in evidence.untrusted_values:
            return self._finding(mention, "untrusted_source", f"{shown} appears only in "
                                 "third-party text, which is evidence only of what its author wrote")
        if mention.sign is not None and value and -value in (
                evidence.percents if mention.percent else evidence.signed_values):
            if value < 0 and -value in evidence.deductions and _DEDUCTION_LABEL.search(
                    self.text, max(0, self.text.rfind("\n", 0, mention.start) + 1,
                                   mention.start - 40), mention.start):
                return None     # "Discount: -$4.32": a deduction written with its minus
            return self._finding(mention, "unsupported_number", f"{shown} has the wrong sign: "
                                 f"the evidence holds {-value}")
        if self._rounds_to(mention, evidence.near(value)) is not None:
            return self._finding(mention, "rounded", f"{shown} is a rounded figure; the "
                                 "evidence holds the exact value and rounding is not allowed here")
        inside = evidence.name_digits.get(_digits(value)) if integral else None
        if inside:
            return self._finding(mention, "name_digits", f"{shown} appears in the evidence only "
                                 f"inside the name '{inside}', which licenses that name, not a quantity")
        if integral and 0 <= value <= self.settings.small_integer_limit:
            return self._finding(mention, "small_integer", f"{shown} is not in the evidence; a "
                                 "small integer passes only as an ordinal, rank, list position, "
                                 "date part, rating scale or part of a name")
        return self._finding(mention, "unsupported_number",
                             f"{shown} is not in the evidence")

    # --- the other kinds ----------------------------------------------------------------------

    def _multiple(self, index: int, mention: Mention) -> Finding | None:
        if mention.value is not None and mention.value in self.evidence.multiples:
            return None
        return self._finding(mention, "computed_multiple", f"'{mention.text}' is a multiple or "
                             "ratio the evidence does not hold; code computes, the model copies")

    def _date(self, index: int, mention: Mention) -> Finding | None:
        days, time = self.evidence.days, mention.time
        weekday = _stated_weekday(self.text, mention, self.locale) \
            if mention.day is not None or (mention.normalized or "").startswith("--") else None
        if mention.day is not None:
            if mention.day not in days:
                return self._finding(mention, "unsupported_date", f"{mention.text} is not a date "
                                     "in the evidence", value=mention.day.isoformat())
            if weekday is not None and mention.day.weekday() != weekday[0]:
                return self._finding(mention, "unsupported_date", f"{mention.day.isoformat()} "
                                     f"is a {_WEEKDAYS[mention.day.weekday()]}, not a "
                                     f"{weekday[1]}", value=mention.day.isoformat())
            if time is None or self._time_on(mention.day, time, mention):
                return None
            return self._time_finding(mention, time)
        normal = mention.normalized or ""
        if time is not None and normal[:1].isdigit() and ":" in normal:   # a clock time alone
            # with a zone ("9 pm UTC"), only an instant of the evidence backs it, in UTC; in a
            # zone whose offset depends on the date ("9 pm ET"), an instant converted to it
            # "8 o'clock", "half past seven" and, in English, a bare "7:30" do not say which
            # half of the day they are in
            either = time.hour < 12 and (_either_half(mention.text) or (
                self.locale[:2] == "en" and mention.range_with is None
                and _BARE_CLOCK.match(mention.text) is not None
                and _HALF_SAID.search(mention.text) is None
                and _HALF_NEXT.match(self.text, mention.end) is None))
            if time.tzinfo is not None and time.tzinfo is not dt.timezone.utc:
                if self._zoned(None, time) or (
                        either and self._zoned(None, time.replace(hour=time.hour + 12))):
                    return None
                return self._finding(mention, "unsupported_date", f"{mention.text}: the evidence "
                                     f"holds no instant that is this time {_zone_words(time)}",
                                     value=normal)
            if normal == "00:00-24:00":         # "24/7", "open 24 hours"
                if self._open_all_day():
                    return None
                return self._finding(mention, "unsupported_date", f"{mention.text}: the evidence "
                                     "does not say it is open all day", value=normal)
            times = self.evidence.utc_clock_times if time.tzinfo is not None \
                else self.evidence.clock_times
            if (time.hour, time.minute) in times or (
                    either and time.tzinfo is None      # (a fixed zone's hour is in UTC)
                    and (time.hour + 12, time.minute) in times) or (
                    (time.hour, time.minute) == (0, 0) and (23, 59) in times
                    and _MIDNIGHT.search(mention.text)):
                return None     # a sale that "ends at midnight" ends at 23:59 too
            return self._finding(mention, "unsupported_date", f"{mention.text} is not a time in "
                                 "the evidence", value=normal)
        if normal.startswith("--"):     # a day without a year: some evidence date must have it
            normal = normal[:7]         # "--07-10T20:00": the day of a month, and its time
            if time is not None and time.tzinfo is not None and time.tzinfo is not dt.timezone.utc:
                # "July 9 at 7:30 pm Pacific": an instant of the evidence that is that time on
                # that day in that zone, whose day in UTC may be the next or the one before
                month, day = int(normal[2:4]), int(normal[5:7])
                for year in sorted({d.year + step for d in days for step in (-1, 0, 1)}):
                    try:
                        local = dt.date(year, month, day)
                    except ValueError:
                        continue
                    if (weekday is None or local.weekday() == weekday[0]) \
                            and self._zoned(local, time):
                        return None
            if any(f"--{d.month:02d}-{d.day:02d}" == normal and (
                    weekday is None or d.weekday() == weekday[0]) for d in days):
                if time is None or any(f"--{d.month:02d}-{d.day:02d}" == normal and (
                        weekday is None or d.weekday() == weekday[0])
                        and self._time_on(d, time, mention) for d in days):
                    return None
                return self._time_finding(mention, time)
            if weekday is not None and any(f"--{d.month:02d}-{d.day:02d}" == normal
                                           for d in days):
                return self._finding(mention, "unsupported_date", f"{mention.text}: no date in "
                                     f"the evidence on that day is a {weekday[1]}", value=normal)
            return self._finding(mention, "unsupported_date", f"{mention.text} is not a day of any "
                                 "date in the evidence", value=normal)
        if len(normal) == 7 and normal[4] == "-":   # a month: some evidence date must be in it
            if any(f"{d.year:04d}-{d.month:02d}" == normal for d in days) or \
                    normal in self.evidence.months:
                return None
            return self._finding(mention, "unsupported_date", f"{mention.text} is not a month of "
                                 "the evidence", value=normal)
        # An impossible date (31 February) or a weekday that does not fit: fail closed.
        return self._finding(mention, "unsupported_date", f"{mention.text} is not a real calendar "
                             "day (an impossible date, or the weekday does not match)")

    def _time_on(self, day: dt.date, time: dt.time, mention: Mention) -> bool:
        """Whether the evidence holds the clock time ``time`` on ``day``: a zoned time an
        instant that is that time on that day in its zone, a time without a zone a clock time
        of that day as written or in UTC, or one written without a day."""
        if time.tzinfo is not None:
            return self._zoned(day, time)
        clock = self.evidence.clock
        if (day, time.hour, time.minute) in clock or (None, time.hour, time.minute) in clock:
            return True
        if time.hour < 12 and _either_half(mention.text) and (
                (day, time.hour + 12, time.minute) in clock
                or (None, time.hour + 12, time.minute) in clock):
            return True     # "8 o'clock" does not say which half of the day
        # "midnight on 1 December" ends 1 December, or begins it
        return (time.hour, time.minute) == (0, 0) and bool(_MIDNIGHT.search(mention.text)) and (
            (day, 23, 59) in clock or (day - dt.timedelta(days=1), 23, 59) in clock)

    def _time_finding(self, mention: Mention, time: dt.time) -> Finding:
        if time.tzinfo is not None:
            return self._finding(mention, "unsupported_date", f"{mention.text}: the evidence "
                                 f"holds no instant that is this time {_zone_words(time)}",
                                 value=mention.normalized)
        return self._finding(mention, "unsupported_date", f"{mention.text}: the evidence "
                             f"holds no {time.hour:02d}:{time.minute:02d} on that day",
                             value=mention.normalized)

    def _weekday_before(self, mention: Mention) -> tuple[int, str] | None:
        """The weekday written just before an ordinal, "Tuesday the 3rd", "Tue 3rd", as (0 for
        Monday..., the name), or None."""
        before = mention.before.split()
        if before and before[-1] == "the":
            before = before[:-1]
        if not before:
            return None
        numbers = _weekday_patterns(self.locale)[3]
        number = numbers.get(before[-1].rstrip("."))
        return None if number is None else (number, before[-1])

    def _weekday_day(self, mention: Mention, weekday: tuple[int, str]) -> Finding | None:
        """A day of a month with its weekday and no month ("Tuesday the 3rd"): backed by a date
        of the evidence on that day of the month that is that weekday."""
        day = int(mention.value)
        days = [held for held in self.evidence.days if held.day == day]
        if "weekday" in self.settings.small_integer_contexts and any(
                held.weekday() == weekday[0] for held in days):
            return None
        name = weekday[1].capitalize()
        if days:
            return self._finding(mention, "unsupported_date", f"{name} the {mention.text}: no "
                                 f"date in the evidence on the {mention.text} is a {name}",
                                 value=str(day))
        return self._finding(mention, "unsupported_date", f"{name} the {mention.text}: no date "
                             "in the evidence is on that day of a month", value=str(day))

    def _open_all_day(self) -> bool:
        """Whether the evidence says something is open all day: hours from 00:00 to 24:00 (or
        23:59), "24/7" or "24 hours" in its text, or a true flag named so (opens_24h,
        open_24_7, always_open)."""
        evidence = self.evidence
        if (0, 0) in evidence.clock_times and ((23, 59) in evidence.clock_times
                                                or "24:00" in evidence.quote_text):
            return True
        if "24/7" in evidence.quote_text or "24hours" in evidence.quote_text:
            return True
        return any(amount.shown == "true" and ("24" in amount.words
                                               or {"alway", "open"} <= amount.words)
                   for amount in evidence.amounts)

    def _zoned(self, day: dt.date | None, time: dt.time) -> bool:
        """Whether an instant of the evidence is ``time`` (on ``day`` when given) in the zone
        written with it, in every zone that name may mean (``rulekit.dates.fits_instant``); or,
        for a zone that fixes the instant, a zoned time the evidence writes without a day."""
        for held, hour, minute in self.evidence.utc_clock:
            if held is not None and dates.fits_instant(
                    dt.datetime(held.year, held.month, held.day, hour, minute,
                                tzinfo=dt.timezone.utc), day, time):
                return True
        utc = dates.utc_clock_of(day, time)
        return utc is not None and (None, utc[1], utc[2]) in self.evidence.utc_clock

    def _quote(self, index: int, mention: Mention) -> Finding | None:
        quoted = mention.normalized or squash(mention.text)
        if not quoted:
            return None
        word = _short_quote_word(quoted)
        if word is not None:
            # One short word ("Wow", "No"): inside the squashed evidence it would be found in
            # any longer word ("now", "wowed"), so it must be a whole word of the evidence, or
            # of the question.
            if word in self.evidence.words or (self.question_words and word in self.question_words):
                return None
            return self._finding(mention, "unsupported_quote", "this quote is not a word of the "
                                 "evidence", value=quoted)
        if self.question and _found_whole(quoted, self.question):
            return None     # the user's own words, quoted back
        quote_text = self.evidence.quote_text
        if _found_whole(quoted, quote_text):
            return None
        # '"Sizing runs small."', '"Honestly," she wrote': a final mark inside the closing
        # quote mark is the sentence's (US style), not the author's.
        bare = quoted.rstrip(".,!?")
        if bare != quoted and bare and _found_whole(bare, quote_text):
            return None
        if "..." in quoted and _elided_found(mention.text, quote_text):
            return None     # "Great boots ... the sole never came off" (… and […] too)
        return self._finding(mention, "unsupported_quote", "this quote does not appear verbatim "
                             "in the evidence", value=quoted)

    @functools.cached_property
    def question_words(self) -> frozenset[str]:
        return frozenset(_WORD.findall(self.raw_question.casefold())) \
            if self.raw_question else frozenset()

    def _handle(self, index: int, mention: Mention) -> Finding | None:
        handle = (mention.normalized or mention.text).casefold()
        if handle in self.evidence.handles:
            return None
        near = next((h for h in sorted(self.evidence.handles)
                     if h.startswith(handle) or handle.startswith(h)), None)
        extra = f"; {near} is another account" if near else ""
        return self._finding(mention, "unsupported_handle", f"{mention.text} is not in the "
                             f"evidence{extra}", value=handle)

    def _email(self, index: int, mention: Mention) -> Finding | None:
        email = (mention.normalized or mention.text).casefold()
        if email in self.evidence.emails:
            return None
        return self._finding(mention, "unsupported_email", f"{mention.text} is not in the "
                             "evidence", value=email)

    def _url(self, index: int, mention: Mention) -> Finding | None:
        link = mention.text
        if link.startswith("/"):
            if _relative(link) in self.evidence.relative_links:
                return None
            return self._finding(mention, "unsupported_url", f"the relative link {link} does not "
                                 "appear in the evidence", value=_relative(link))
        normal = _url(link)
        if normal in self.evidence.urls:
            return None
        return self._finding(mention, "unsupported_url", f"{link} is not a link in the evidence "
                             "(a different or truncated path, an added query or another host is "
                             "another page)", value=normal)


_KIND = operator.attrgetter("kind")
# The judgement of each kind, looked up once per mention instead of by attribute name.
_JUDGES = {kind: getattr(_Judge, f"_{kind}") for kind in
           ("number", "word_number", "multiple", "date", "quote", "handle", "email", "url")}


@functools.lru_cache(maxsize=256)
def _shown_precision(scale: int, decimals: int) -> tuple[Decimal, int]:
    """The precision a figure is shown to, and its exponent: "12k" is to the thousand, "1.2M"
    to the hundred thousand, "4.62" to the hundredth. Few (scale, decimals) pairs occur."""
    quantum = Decimal(scale).scaleb(-decimals).normalize()
    return quantum, quantum.as_tuple().exponent


def _field_of(path: str) -> set[str]:
    """`$.post[0].engagement_rate` -> {"engagement_rate", "post.engagement_rate"}."""
    keys = [k for k in re.split(r"\.|\[\d+\]", path) if k and k != "$"]
    if not keys:
        return set()
    out = {keys[-1]}
    if len(keys) >= 2:
        out.add(f"{keys[-2]}.{keys[-1]}")
        out.add(f"{keys[-2].rstrip('s')}.{keys[-1]}")   # $.posts[0].rate is post.rate
    return out


def _digits(value: Decimal) -> str:
    return str(int(value)) if value == value.to_integral_value() else str(value)
