"""The sweep: every figure in free text must be backed by the evidence.

``sweep(text, evidence, settings)`` finds each number, number word, multiple, date, quote,
@handle, e-mail and URL in what the reader sees (``rulekit.scan``) and judges it against the
indexed evidence (``rulekit.evidence``). A mention the evidence does not back is a ``Finding``
with a reason code and a message; ``audit`` turns the findings into a decision.

The rules, with their defaults (a rules file changes them in its ``sweep`` block):

1. Same value: the notation may change, the value may not. No rounding, unless allowed for a
   field, and then only to the shown precision. A percentage is backed by a percentage only,
   an amount with a currency by no amount in another, and a change said with its direction
   ("down 12.5%", "120 more views", "▼2.3%") by a change that goes that way; a figure the
   evidence holds only as a level is no change ("rose 4.6%" against a rate of 4.6 %).
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
   parts, in order, in one evidence text. A quote said by an author of the evidence
   ('Dana said "..."') must be words that author wrote, not another's.
8. Handles and e-mail addresses match exactly, ignoring case.
9. URLs match after lower-casing scheme and host and ignoring one trailing slash; relative
   links must appear in the evidence. A URL is never fetched.
10. A date must be the same calendar day; a relative date needs a "today" in the evidence.
11. Third-party text is evidence only of what its author wrote.
12. Amounts said in words ("no views", "out of stock", "isn't sold out", "in stock", "it's
    available", "we're all out", "12 pairs remain") must agree with the fields that count that
    thing; a magnitude ("dozens of", "hundreds of views", "thousands of") needs one of them in
    its band (``sweep_amounts._MAGNITUDES``), or any figure in it when none counts the thing.
    A stock phrase whose clause names a row ("The Trail Runner is in stock") is judged against
    that row's stock only.
13. With a ruleset, an enum value's label said in free text ("breakfast included") must be the
    label of a value a row of its entity holds (``rulekit.sweep_labels``; run by ``audit``).
14. A boolean of the evidence said in words ("returns are free" for ``free_returns``) must
    agree with the value some holder of it holds (``rulekit.sweep_flags``; run by ``audit``,
    and by ``rulekit.check`` on a claims reply's template).

This module holds the settings, the judge of each kind of mention and ``sweep`` itself. Rule
10's days in words (relative days, weekdays said alone) are in ``rulekit.sweep_days``, rule 12
in ``rulekit.sweep_amounts``, and ``Finding`` in ``rulekit.findings``.
"""

from __future__ import annotations

import bisect
import calendar
import dataclasses
import datetime as dt
import functools
import operator
import re
import unicodedata
from collections.abc import Mapping
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal
from typing import Any, Collection, Iterable, Iterator, Sequence

from rulekit import dates
from rulekit.assent import _SENTENCE_END, agreement, assent_near, endorsed
from rulekit.sweep_free import asked_free_held, may_say_free
from rulekit.sweep_minor import judge_minor
from rulekit.sweep_ranks import RANK_WORD_LANGUAGES, local_ranks, unheld_rank_words
from rulekit.sweep_scales import (
    may_say_score, said_as_scale_end, said_on_test_scale, scale_end_message, unscored,
    unscored_message)
from rulekit.evidence import (_ANY_INDEX, _WORD, NO_MONEY, Evidence, RowRule, Withheld,
                              _money_name, _relative, _site, _url, month_part, name_words, noun,
                              queryless_url, said_as_year)
from rulekit.evidence import AS_MONEY
from rulekit.findings import _FIGURE_KINDS, Finding, _new_finding
from rulekit.numbers import plain_decimal
from rulekit.policy import Binding, Entity, Policy, derived
from rulekit.scan import Mention, scan, squash
from rulekit.scan.base import (_CONTEXT_STRIP, _ascii_lower, _is_cjk, _trie, _word_after,
                               _word_before, az_text, az_words,
                               inside_written_name)
from rulekit.scan.quotes import _SAID
from rulekit.scan.links import _joins
from rulekit.scan.reader import squash_joints
from rulekit.scan.words import number_word_compound
from rulekit.scan.figures import (CHANGE_OTHER, CHANGED_BEFORE, FALL_BEFORE, FALL_OTHER,
                                   RISE_BEFORE, RISE_OTHER, TRANSITIVE_BEFORE, _NOT_A_NOUN,
                                   change_word_before)
from rulekit.units import BASIS_WORDS, general_basis_at, general_bases, may_state_tax_basis, \
    DURATION_HOUR_WORDS, compound_durations, may_say_durations, may_say_pressure, \
    pressure_pairs, TOTAL, per_after, per_before, said_as_total, tax_basis_said, \
    unit_after, unit_word, base_said, other_base, plural
from rulekit.sweep_flags import _by_start
from rulekit.sweep_freq import may_say_frequency, unheld_frequencies
from rulekit.sweep_amounts import (_NUMBER_THEN_WORD, _NUMBER_THEN_WORD_ASCII, _amount_words,
                                    _cjk_magnitude_spans, _count_levels, _magnitudes,
                                    _stock_levels, counted_other,
                                    may_say_stars, nonstop_said, star_levels)
from rulekit.sweep_codes import (FREE_POSITION_WORDS, PHONE, POSITION_WORDS, code_forms,
                                 code_like, code_near, code_run, hex_id, list_marker,
                                 phone_digits, same_phone, shortcut)
from rulekit.sweep_days import (_DENYING, _WEEKDAYS, _lone_weekdays, _may_be_relative,
                                _lone_months, _may_name_month, _relative_days, day_offsets,
                                _parts_of_day, _relative_months, may_say_part_of_day,
                                _stated_weekday, _unheld_seconds, _wall_time_in_named_zone,
                                _weekday_patterns, midnight_reading, today_only_event)
from rulekit.sweep_hours import may_say_hours, week_hours_said

DEFAULT_SMALL_LIMIT = 12
DEFAULT_CONTEXTS = ("ordinal", "rank", "list_position", "month", "weekday", "rating_scale",
                    "name_digits")

_RANK_WORDS = frozenset({"top", "rank", "ranked", "ranking", "#", "no.", "no", "number", "place",
                         "placed", "position", "spot"})
# Ranks in CJK text: 前3名 and 前三位 (the top three), トップ3 and 上位3 (Japanese); after the
# number, 3位以内, 3位まで (Japanese) and 3위 안에, 3위 이내, 3위권 (Korean), the top three too.
_CJK_RANK_AFTER_前 = frozenset("名位强強甲")
_CJK_TOP_AFTER = ("位以内", "位まで", "위안", "위이내", "위까지", "위권")


def _cjk_rank(before: str, mention: Mention) -> bool:
    # the words after are read (lazily, see Mention) only after a 前, or before 位 and 위
    if before.endswith("前"):
        return mention.after[:1] in _CJK_RANK_AFTER_前
    return before.endswith(("トップ", "上位")) or mention.after[:1] in ("位", "위") \
        and mention.after.startswith(_CJK_TOP_AFTER)


# A rating and a slash before its scale: "4.5/5", "4 / 5".
# A rating before the word for "out of" and its scale: "8.7 out of", "4 stars out of", "4,3
# sur", "4,3 Sterne von" (the words of the languages whose number words are read).
_SCALE_WORDS = (" sur", " von", " de", " su", " em", " van", " uit", " op")
_RATED_OUT_OF = re.compile(
    r"(?<![\d.,])(\d{1,3}(?:[.,]\d{1,2})?)[ \u00a0]?(?:(?:stars?|points?|sterne|étoiles|"
    r"estrellas|stelle|estrelas|sterren|punkte|points|puntos|punti|pontos|punten)[ \u00a0])?"
    r"(?:out of|sur|von|de|su|em|van|uit|op)[ \u00a0]\Z", re.IGNORECASE)
# The scale of a rating in Chinese, Japanese and Korean: 5点満点, 满分5分, 5점 만점 ("a perfect
# score of 5"): after the scale, or 满分 before it (``_Judge._rating_cjk``).
_CJK_SCALE_AFTER = re.compile(r"点満点|點満点|分满分|分滿分|[ \u00a0]?점[ \u00a0]?만점")
_CJK_SCALE_FIRST = frozenset("点點分점 \u00a0")
_CJK_SCALE_BEFORE = ("满分", "滿分", "满分为", "滿分為", "满分是", "滿分是")
# After a number, the scale it is a rating on: "/5", " / 5", " out of 5" (``Evidence.scale_tops``).
_RATED_ON = re.compile(r"[ \u00a0]?(?:/[ \u00a0]?\d|out of[ \u00a0](?:\d|[a-z]+\b))", re.IGNORECASE)
_RATED_SLASH = re.compile(r"(?<![\d.,/])(\d{1,2}(?:[.,]\d{1,2})?)[ \u00a0]?/[ \u00a0]?\Z")
# Words before a number (or before the "#" or "number" before it) that state a rank of what
# the sentence is about: "ranked #1", "finished 2nd", "is number 3"; not "top" ("your top 3" is
# how many, not which) nor a bare "#1" ("our #1 priority", "Tip #1"). And the words of field
# names that hold a rank.
# Before "#", "No." or "number", forms of "be" that state a rank too: "you're number 3".
_RANK_BE = frozenset({"are", "am", "you're", "we're", "they're", "i'm", "you’re", "we’re",
                      "they’re", "i’m"})
_RANK_VALUE_WORDS = frozenset({"rank", "ranked", "ranking", "place", "placed", "position",
                               "spot", "ranks", "finished", "came", "is", "was"})
# After an ordinal, words that make it a rank of what the sentence is about ("took second
# place", "the 2nd-best post", "the third-ranked post"), held to the evidence's ranks like the
# words above; "came in" before it too ("came in third"). Not "the 2nd colour", a list position.
_RANK_AFTER_ORDINAL = frozenset({"place", "spot", "position", "best", "ranked"})
# After an ordinal, words that make it a school's grade level, a level the evidence must hold
# like any number ("in 12th grade", "a 10th grader", "a 12th-grader"), not a rank.
_LEVEL_AFTER_ORDINAL = frozenset({"grade", "grades", "grader", "graders"})
# Before "in" and an ordinal, verbs that make it a rank: "came in third", "finished in 3rd";
# also a few words before an ordinal that ends its clause ("finished the race first").
_RANK_IN = frozenset({"came", "finished", "placed", "ended", "ranked"})
# Things a ranking ranks: after "the No. 1", "the #1" they make it a rank ("the No. 1 post").
_RANKED_NOUNS = frozenset("post video product seller item player team song track article story "
                          "episode book app page creator account channel entry model result "
                          "spot position place store brand".split())
_CLAUSE_END = frozenset(("", ".", ",", ";", "!", "?", "\n", ")"))
# After "placed 3": words that keep it a place ("placed 3 in the final", "placed 3 overall").
_PLACE_NOT_COUNTED = frozenset({"in", "on", "at", "out", "overall", "of", "and", "or", "with",
                                "for", "after", "behind"})
# A word of ranking just before a number ("#3", "No. 3", "number 3", "ranked 3", "position
# 3"): only then is a number read as a stated rank before its value is looked up.
_RANK_CUE = re.compile(r"(?i)(?:#|\bno\.?|\bnumber|\brank(?:ed|ing)?|\bposition)[ \u00a0]*\Z")
# "step 3", "option 2": a place in the answer's own list ("version 3" is a fact: it is not one;
# an option the evidence numbers is held to its numbers, ``_whole_values``)
_LIST_WORDS = FREE_POSITION_WORDS
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
# After the first ordinal of "between the 5th and (the) 7th": the second, and the word after it
# (none, or one of ``_AFTER_DAY``: a day; a noun, "the 5th place": ranks).
_SECOND_DAY = re.compile(r"(?i)\s*(?:and|to|-|\u2013)\s+(?:the\s+)?(?:[1-9]|[12][0-9]|3[01])"
                         r"(?:st|nd|rd|th)(?![\w])[ \t\u00a0]*([A-Za-z]*)")
_ORDINAL_DAY = re.compile(r"(?:[1-9]|[12][0-9]|3[01])(?:st|nd|rd|th)")
_AFTER_DAY = frozenset({"of", "at", "and", "or", "to", "until", "till", "through", "but", "so",
                        "when", "in", "around", "between", "for"})
_DAY_WORDS = frozenset({"day", "the"})


# Words after the total of "N of M" that name nothing it counts ("32 out of 36 on the ACT").
_NOT_COUNTED = frozenset("""a an the of to for in on at by with and or per from as is was are
    were this that it its his her their your our my""".split())
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
    # The zones of each date and timestamp field, (field, zone, naive zone): a stored instant's
    # day and clock time there are those in the field's zone, as the claims channel reads them.
    field_zones: tuple[tuple[str, str, str], ...] = ()
    # The ruleset's time zone: the day of an explicit ``now`` there is the evidence's today
    # when the evidence names none (``index``).
    timezone: str = "UTC"
    # Whether the ruleset declares its ``timezone``: if not, ``now`` is read in the one offset
    # every timestamp of the evidence writes, when they write one (``index``).
    zone_declared: bool = False
    # The URL fields compared without their query (``url drop_query``), as ``percent_fields``.
    query_dropped: tuple[str, ...] = ()
    # The fields declared ``identifier``: digits there are a code (an account's last four), a
    # name the answer may write, never a quantity (rule 4).
    identifier_fields: tuple[str, ...] = ()
    # Where the ruleset declares money fields, its other number fields (``integer``, a
    # ``decimal`` that is no percentage), less those named like money: a currency never stands
    # for them (``rulekit.evidence.NO_MONEY``), as ``percent_fields``.
    no_money: tuple[str, ...] = ()
    # The fields declared ``decimal ratio``: 0.0484 is 4.84 % (a ``percent`` field's 4.84 is),
    # as ``percent_fields``.
    ratio_fields: tuple[str, ...] = ()

    @classmethod
    def from_policy(cls, policy: Policy | None) -> "SweepSettings":
        """The settings of ``policy`` (the defaults without one), derived once per policy
        object: a policy is immutable, and every audit needs them."""
        if policy is None:
            return _DEFAULT_SETTINGS
        return derived(policy, "sweep.settings", SweepSettings._derive)

    @classmethod
    def _derive(cls, policy: Policy) -> "SweepSettings":
        spec = policy.sweep
        percent_fields = tuple(_field_targets(policy, e, f.name) for e in policy.entities
                               for f in e.fields if f.type.kind == "decimal" and f.type.percent)
        percent_fields = tuple(t for targets in percent_fields for t in targets)
        from babel.numbers import get_currency_precision

        fields = [f for e in policy.entities for f in e.fields]
        placeholders = tuple((f.name, str(p.value), p.unless) for f in fields for p in f.placeholders)
        minor = tuple((f.name, get_currency_precision(f.type.currency)) for f in fields
                      if f.type.kind == "money" and f.type.storage == "minor")
        return cls(spec.small_integer_limit, frozenset(spec.small_integer_contexts),
                   frozenset(_rounding_targets(policy, spec.rounding)), frozenset(spec.exempt),
                   spec.placeholders,
                   spec.untrusted, spec.authoritative, percent_fields, placeholders, minor,
                   _row_entities(policy), policy.binding,
                   money_currencies=_money_currencies(fields, policy.currency),
                   field_zones=tuple((f.name, f.type.zone, getattr(f.type, "naive_zone", "UTC"))
                                     for f in fields if f.type.kind in ("date", "timestamp")),
                   timezone=policy.timezone or "UTC", zone_declared=bool(policy.timezone),
                   query_dropped=tuple(
                       target for e in policy.entities for f in e.fields
                       if f.type.kind == "url" and f.type.query == "drop"
                       for target in _field_targets(policy, e, f.name)),
                   identifier_fields=tuple(sorted({f.name for f in fields
                                                   if f.type.kind == "identifier"})),
                   no_money=_no_money_fields(policy),
                   ratio_fields=tuple(target for e in policy.entities for f in e.fields
                                      if f.type.kind == "decimal" and f.type.ratio
                                      for target in _field_targets(policy, e, f.name)))

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
                evidence = _with_key(evidence, DERIVED_KEY, derived)
        rows = _row_rules(self.row_entities, evidence, now) if self.row_entities else None
        built = Evidence.build(evidence, locale=locale, untrusted=self._names(self.untrusted),
                               authoritative=self._names(self.authoritative),
                               placeholders=self.placeholders,
                               percent_fields=self._names(self.percent_fields),
                               query_dropped=self._names(self.query_dropped),
                               no_money=self._names(self.no_money),
                               ratio_fields=self._names(self.ratio_fields),
                               field_placeholders=self.field_placeholders,
                               minor_units=dict(self.minor_units), rows=rows,
                               currencies=dict(self.money_currencies), zones=self.field_zones,
                               identifiers=self.identifier_fields,
                               header_zone=self.timezone if self.timezone != "UTC" else None,
                               row_names=self.row_names)
        if now is not None and (built.today is not None or not built.has_today):
            # "It ships tomorrow, December 2": the caller's now, in the ruleset's zone, is the
            # day relative words are said on when the evidence names no today of its own, and
            # when its today is another day (a cached snapshot's): the customer reads
            # "tomorrow" on the day they read it. That day backs "today" as the present, as
            # the evidence's today does.
            aware = now if now.tzinfo is not None else now.replace(tzinfo=dt.timezone.utc)
            zone = dates.zone(self.timezone)
            if not self.zone_declared and not self.field_zones and built.offset_clock:
                # no zone declared: when every timestamp of the evidence writes one offset
                # ("2026-12-02T18:41:00-08:00"), its today is the day there, as its reader's
                offsets = {offset for *_, offset in built.offset_clock}
                if len(offsets) == 1:
                    zone = dt.timezone(offsets.pop())
            day = aware.astimezone(zone).date()
            if built.today is None:
                built = dataclasses.replace(built, today=day, now=aware)
            elif built.today != day:
                built = dataclasses.replace(built, today=day, days=built.days | {day}, now=aware)
            else:
                built = dataclasses.replace(built, now=aware)
        return built

    @functools.cached_property
    def row_names(self) -> frozenset[str]:
        """The fields the ruleset's entities are ``mentioned as`` (``variant_name``,
        ``variant_sku``): each names its row, as ``name`` does (``Evidence.stock_rows``)."""
        return frozenset(field for entity in self.binding.entities for field in entity.mentions)

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


def _with_key(evidence: Mapping, key: str, value: Any) -> Mapping:
    """``evidence`` with ``key`` added, keeping what gathered rows carry (their Sources panel,
    so that a failed routed source still fails the audit of this index closed)."""
    widened = {**evidence, key: value}
    sources = getattr(evidence, "sources", None)
    if sources is None:
        return widened
    from rulekit.route import GatheredRows

    return GatheredRows(widened, sources) if isinstance(evidence, GatheredRows) else widened


def _field_targets(policy: Policy, entity: Entity, field: str) -> tuple[str, ...]:
    """Where the values of ``entity.field`` are in JSON evidence: the field under each of the
    entity's ``from evidence`` paths ("$.posts[*].engagement_rate"), so that a key of that
    name elsewhere ("weekly": {"engagement_rate": 0.061}) is read by its own name; an entity
    without one is found by name ("post.engagement_rate", and "engagement_rate" alone)."""
    paths = next((b.paths for b in policy.binding.entities if b.name == entity.name), ())
    return tuple(f"{path}.{field}" for path in paths) or (f"{entity.name}.{field}",)


def _no_money_fields(policy: Policy) -> tuple[str, ...]:
    """Where ``policy`` declares a money field, where its number fields that are no money are
    (``integer``, and ``decimal`` but a percentage, not named like money: ``stock``,
    ``rating``), as ``_field_targets`` gives them; none in a ruleset with no money field, whose
    numbers may be amounts."""
    if not any(f.type.kind == "money" for e in policy.entities for f in e.fields):
        return ()
    return tuple(target for e in policy.entities for f in e.fields
                 if f.type.kind == "integer" or f.type.kind == "decimal" and not (
                     f.type.percent or f.type.ratio)
                 if not _money_name(f.name) for target in _field_targets(policy, e, f.name))


def _rounding_targets(policy: Policy, rounding: Iterable[str]) -> list[str]:
    """`rounding allowed for` as written, and each `entity.field` also at its entity's
    ``from evidence`` paths: "week.views" for a week found at "$.summary" is
    "$.summary.views"."""
    entities = {e.name: e for e in policy.entities}
    targets = list(rounding)
    for target in rounding:
        name, _, field = target.partition(".")
        if field and name in entities:
            targets += [t for t in _field_targets(policy, entities[name], field)
                        if t.startswith("$")]
    return targets


def _row_entities(policy: Policy) -> tuple[tuple[Entity, tuple[str, ...]], ...]:
    """Every entity of ``policy`` with the paths binding declares for its rows, when any of
    them keeps rules in evidence (a hidden field, a freshness budget); none when none does, so
    evidence is not searched for rows that would keep nothing. All of them, not only those
    that keep rules: where rows are is decided as the evidence block decides it
    (``rulekit.entity_rows``), and a row is placed as one entity only."""
    from rulekit.entity_rows import keeps_rules, row_places

    places = row_places(policy)
    return places if any(keeps_rules(entity) for entity, _ in places) else ()


def _row_rules(entities: Sequence[tuple[Entity, tuple[str, ...]]], evidence: Any,
               now: dt.datetime | None) -> dict[int, RowRule]:
    """The rule of every entity row in ``evidence``, by the row's ``id()``: its hidden fields,
    and its fields older than their freshness budget at ``now``, each under the row's own key
    for it (``Updated_At`` is ``updated_at``), and every field of a row whose entity
    ``requires`` an input (``missing_input``: the index is told no inputs). The rows are those
    ``rulekit.entity_rows``
    finds, as the evidence block finds them; an object it cannot place raises its
    ``EntityRowError`` (a ValueError), and the audit refuses the evidence. Age is judged from
    the row's own ``via`` field (``updated_at``): a row without one states no age, and the
    caller who built the evidence answers for it; a row whose ``via`` cannot be read is
    stale."""
    if not isinstance(evidence, (Mapping, list, tuple)):     # a text document has no rows
        return {}
    from rulekit.check import staleness
    from rulekit.entity_rows import entity_rows

    placed = entity_rows(entities, evidence)
    if not placed:
        return {}
    now = now or dt.datetime.now(dt.timezone.utc)
    if now.tzinfo is None:
        now = now.replace(tzinfo=dt.timezone.utc)
    rules: dict[int, RowRule] = {}
    for row_id, (entity, row, _, fields) in placed.items():
        if entity.requires:
            # Given only to a user who gave these inputs, and the index was told none
            # (``rulekit.entity_rows.index_given`` indexes with them): nothing of it counts.
            why = Withheld("missing_input", f"is in a record of {entity.name} given only once "
                           f"the user has given {' and '.join(entity.requires)}, which was not "
                           "given", entity.requires[0])
            rules[row_id] = RowRule(entity.name, {str(key): why for key in row})
            continue
        withheld: dict[str, Withheld] = {}
        values = None
        if entity.fresh_via:    # the row by field name, as ``staleness`` reads it
            values = {field.name: row[key] for key, field in fields.items()}
            if entity.fresh_via not in values:
                values = None   # it states no age
        for key, field in fields.items():
            if not field.readable:
                withheld[key] = Withheld("hidden_field", f"appears in the evidence only as "
                                 f"{entity.name}.{field.name}, which the rules do not allow to "
                                 "be shown")
            elif values is not None and (why := staleness(entity, field, values, now)):
                withheld[key] = Withheld("stale", f"is {entity.name}.{field.name} of a record "
                                         f"that is out of date ({why}); a stale value is not "
                                         "quoted")
        if withheld:
            rules[row_id] = RowRule(entity.name, withheld)
    return rules


def sweep(text: str, evidence: Evidence, settings: SweepSettings = SweepSettings(), *,
          locale: str = "en_US", question: str | None = None,
          slot_values: Sequence[str] = (), settled: Collection[tuple[int, int]] = (),
          mentions: Sequence[Mention] | None = None, given: Sequence[str] = (),
          words: frozenset[bytes] | None = None) -> list[Finding]:
    """The mentions in ``text`` that ``evidence`` does not back, in order. ``settled`` holds
    the spans binding already judged (``rulekit.bind``): the sweep is their fallback only.
    ``mentions`` is ``scan(text, locale)`` when the caller already has it, and ``words``
    ``az_words(text.lower())`` (``rulekit.scan.assemble.scan_words``). ``given`` holds
    the values of the user's inputs (``audit(..., inputs=...)``): a code written as one of
    them ("SW1A 1AA", the postcode given) is the user's own, as a slot value's code is."""
    scanned = list(mentions) if mentions is not None else scan(text, locale)
    if settled:
        scanned = [m for m in scanned if (m.start, m.end) not in settled]
    quoting = "quote" in map(_KIND, scanned)    # (C-level test: most answers quote nobody)
    if quoting:
        # "Refund: *We sent $500 to your card.*": a label's emphasis is the answer's own words,
        # so what it holds is judged like the rest (``_label_emphasis``)
        # 'Price: "$500"': quote marks around a figure and nothing else say no one's words,
        # and would let any "500" of the evidence (a code, a review) back it; the figure is
        # judged as the answer's own
        scanned = [m for m in scanned if not (m.kind == "quote" and (
            (m.text[:1] in "*_" and _label_emphasis(text, m, evidence))
            or not any(char.isalpha() for char in m.text)))]
        scanned = _outside_quotes(scanned, _asserted_question_quotes(text, scanned, evidence,
                                                                     question))
    mentions = _outside(_exempt_spans(text, settings.exempt), scanned)
    low = text.lower()
    if words is None:
        words = az_words(low)     # the words of a-z, for the set tests below
    az = az_text(words)       # and for the substring tests of pieces of a-z
    if question and "you" in low and ("whether" in low or "if " in low):
        echoed = _asked_whether(text, question, locale, mentions)
        if echoed:
            mentions = [m for m in mentions if (m.start, m.end) not in echoed]
    if not text.isascii() and ("数" in text or "几" in text or "數" in text or "幾" in text):
        # 数百, 几千: a band judged with rule 12 (``_magnitudes``), not the number 百
        mentions = _outside([span[:2] for span in _cjk_magnitude_spans(text)], mentions)
    # Opening hours said of a day ("open today until 22:30", "On Saturday we close at 6"):
    # held to that day's hours when the evidence keeps them by weekday (``week_hours_said``)
    hours_days: set[tuple[int, int]] = set()
    hours: list[Finding] = []
    # ("date" among the kinds first, counted in C: most answers say no date, and then no loop
    # over the mentions in Python)
    if "date" in map(_KIND, mentions) \
            and any(m.time is not None and m.kind == "date" for m in mentions) \
            and may_say_hours(low) and evidence.week_hours is not None:  # (cheap test first)
        hours, spans, hours_days = week_hours_said(text, low, mentions, evidence.week_hours,
                                                   evidence.hours_today, locale,
                                                   evidence.row_name_texts)
        if spans:
            mentions = [m for m in mentions if (m.start, m.end) not in spans]
    # Relative days first: the count of "3 days ago" is judged with the day it resolves to.
    relative_days = _relative_days(text, evidence, locale, mentions, hours_days) \
        if _may_be_relative(text, az, locale) else None
    if relative_days and relative_days[1]:
        mentions = [m for m in mentions if (m.start, m.end) not in relative_days[1]]
    offsets = day_offsets(text, mentions, evidence) \
        if "+" in text and ":" in text or "\u207a" in text else None
    if offsets and offsets[1]:
        mentions = [m for m in mentions if (m.start, m.end) not in offsets[1]]
    timed: list[Finding] = []
    # (a set test first: a duration's hour word stands as a word of its own, ``words``)
    if ("PT" in text or not DURATION_HOUR_WORDS.isdisjoint(words)) \
            and may_say_durations(text, low) and any(m.kind == "number" for m in mentions):
        # "11h 10m", "11 hours and 10 minutes", "PT11H10M": one duration, compared whole
        spans, timed = _durations_said(text, mentions, evidence)
        mentions = _outside(spans, mentions)
    if evidence.pressures and may_say_pressure(low):
        # "128/82 mmHg": one blood pressure, compared whole and in order
        spans, pressures = _pressures_said(text, mentions, evidence)
        timed += pressures
        mentions = _outside(spans, mentions)
    frequencies: list[Finding] = []
    if may_say_frequency(low, az) and locale[:2] == "en":
        # "twice daily", "3 times a week": one figure, held to the evidence's frequencies only
        spans, frequencies = unheld_frequencies(text, evidence.frequencies)
        mentions = _outside(spans, mentions)
    # "[1]" of a reference-style link or a footnote: a label, no figure ("]" first: a search
    # for one character costs a twentieth of one for two)
    if "]" in text and "]:" in text:
        labels = _reference_labels(text)
        if labels:
            mentions = [m for m in mentions if not _reference_label(text, m, labels)]
    licensed_by_slots = _slot_numbers(slot_values, locale)
    # "fell 12.5%": a number the evidence holds as a change is judged with the direction
    # written around it (``_trend``), so it may not take the fast path either.
    changes = evidence.change_magnitudes if evidence.changes and _may_trend(low) else None
    # "rose 4.6%": a rise or fall word just before a figure the evidence holds only as a level
    # states a change nobody backs (``_Judge._level_as_change``); the word is read per figure,
    # and only when the text holds one of those words at all (one search, in C)
    magnitudes = evidence.change_magnitudes
    stating = not _STATED_CHANGE_BYTES.isdisjoint(words)
    # the same in the locale's language when it is one of ``_BY_LINKS`` ("um 48.210 gesunken"),
    # and a fall or rise between two levels ("von 48.210 auf 52.000 gesunken", ``_levels_other``)
    lang = locale[:2]
    other_changes = lang if lang in _BY_LINKS and _CHANGE_OTHER_WORD.search(low) is not None \
        or lang in _CJK_CHANGE and _CJK_CHANGE[lang][0].search(text) is not None else ""
    # "a 2-month warranty" for ``warranty_years: 2``: a number held in a unit is read with
    # the unit written after it (most evidence names none: then nothing is read)
    measured = evidence.units or None
    # "€125.00 including VAT" for ``price_excl_vat: 125``: an amount held on one tax basis is
    # read with the basis written beside it, only when the text holds a word of one at all
    # (most evidence holds no amount on a basis: then the text is not looked at)
    taxed = evidence.tax_bases or None
    if taxed is not None and not may_state_tax_basis(low):
        taxed = None
    # "Prices include VAT. The Double is €125.00.": a basis said once for prices in general is
    # the basis of each amount that says none of its own (``rulekit.units.general_bases``)
    general = general_bases(text) if taxed is not None else ()
    # "0.245p" for ``unit_rate_p_per_kwh: 24.5``: the major amount said in the minor unit, which
    # the fast path below would pass as the figure 0.245 (``rulekit.sweep_minor``)
    minor = evidence.minor_majors if evidence.minor_amounts else None
    judge = _Judge(text, evidence, settings, locale, question, licensed_by_slots, mentions,
                   directed=_may_have_direction(az), changes=changes, measured=measured,
                   stating_other=other_changes, taxed=taxed, general=general)
    values, percents, urls, names = evidence.values, evidence.percents, evidence.urls, \
        evidence.names
    # "3 under par" is -3: a number with a direction word after it is judged with its sign,
    # so it may not take the fast path below (which matches magnitudes).
    directed = judge.directed
    # "you're number 3 in the queue": a rank stated after a word of ranking is held to the
    # evidence's ranks even when another field holds its number (``_Judge._unheld_rank``)
    ranking = evidence.ranked and (
        "#" in low or "number" in low or "rank" in low or "position" in low or "no." in low
        or " no " in low or low.startswith("no "))
    # "auf Platz 3", "el 3.º puesto", 3位: the same for a rank said in the locale's language or
    # in CJK (``rulekit.sweep_ranks``: read only when the text holds one of its cue words)
    ranked_local = judge.local_ranks if evidence.ranked else None
    # whether any of the readings below may hold a figure back from the fast path: most
    # answers need none, and then each figure pays none of their tests
    # "70%オフ" for ``price_ratio: 0.7``: a share paid said as a discount (``_said_as_discount``)
    paid = evidence.paid_shares
    # "5/5" for ``spice_level: "3/5"``: a number held only as a scale's top is no level
    tops = evidence.scale_tops if "/" in text or "out of" in low else None
    # "40/40", "she earned 20 points" for ``points_possible: 40`` and a null score: a number
    # held only as an end of a score's scale backs only that scale (``rulekit.sweep_scales``)
    ends = evidence.score_scale_ends
    # "Your GPA is 4.0" for ``gpa: 3.2`` beside ``days_absent: 4``, "went from 18 to 20" for
    # a null score and ``target: 20``: a figure said as a score is held to the evidence's
    # scores (``rulekit.sweep_scales.said_as_score``), read when the text says a score's word
    scored = evidence.scores if may_say_score(low) else None
    guarded = directed or ranking or ranked_local or changes or measured or stating \
        or other_changes or taxed or paid or tops or ends or scored
    judge_mention = judge.mention
    findings = frequencies
    reported: set[tuple[int, int]] = set()
    unheld: list[Finding] = []
    # a code, a phone number, a version or an option the evidence numbers: one value each,
    # matched whole before any of its digits is matched alone (``_whole_values``)
    codes = (*slot_values, *given)
    whole = _whole_values(text, az, mentions, evidence,
                          "\x00".join(map(str, codes)).casefold() if codes else "")
    for index, mention in enumerate(mentions):
        if whole and index in whole:
            found = whole[index]
            if isinstance(found, tuple):
                # a code the evidence does not hold: each digit is judged as before (BT-4 is
                # flagged on its 4), and a code none of whose digits is flagged, on the whole
                code, found = found[0], judge_mention(index, mention)
                if found is not None:
                    reported.add((code.start, code.end))
                else:
                    unheld.append(code)
            if found is not None:
                findings.append(found)
            continue
        # A figure the evidence holds as written is backed whatever else ``_number`` would
        # look at (the first tests of ``_matches``, and every test before them licenses), and so
        # are an absolute link the evidence holds (``_url``) and a code it holds: the common
        # cases, settled here without the judge's dispatch.
        kind, value = mention.kind, mention.value
        if minor and value in minor and kind in _FIGURE_KINDS \
                and judge_minor(text, mention, evidence):
            found = judge_mention(index, mention)
            if found is not None:
                findings.append(found)
            continue
        if value is not None and kind in _FIGURE_KINDS and (
                value in percents if mention.percent else value in values
                and mention.sign != "+" and mention.currency is None) \
                and not mention.ordinal and (not guarded or not (
                    (directed and _direction(text, mention))
                    or (ranking and _RANK_CUE.search(text, max(0, mention.start - 12),
                                                     mention.start))
                    or (ranked_local and mention.start in ranked_local)
                    or (changes and abs(value) in changes and _trend(text, mention))
                    or (measured and value in measured
                        and _other_unit(text, mention, measured[value], lang))
                    or (taxed and value in taxed
                         and _other_basis(text, mention, taxed[value], general))
                    or (stating and mention.sign is None and abs(value) not in magnitudes
                        and change_word_before(text, mention.start) in _STATED_CHANGE
                        and _stated_change(text, mention))
                    or (other_changes and mention.sign is None and abs(value) not in magnitudes
                        and _stated_change_other(text, mention, other_changes)[0])
                    or (paid and mention.percent and value in paid
                        and _said_as_discount(text, mention))
                    or (tops and value in tops and _RATED_ON.match(text, mention.end))
                    or (ends and value in ends and not mention.percent
                        and not said_as_scale_end(text, mention))
                    or (scored and not mention.percent
                        and unscored(text, mention, scored, lang) is not None))):
            continue    # an ordinal may be a day with its weekday ("Tuesday the 3rd")
        if kind == "url" and not mention.text.startswith("/") and _url(mention.text) in urls \
                and not _may_be_link_text(text, mention):
            continue    # (a link's text is compared with its target: ``_shown_elsewhere``)
        if mention.glued and kind == "number" and mention.currency is None \
                and mention.token.casefold() in names \
                and not (directed and _direction(text, mention)):
            continue    # a code the evidence holds (p3, BT-3): the first test of _name_digits
        if kind == "word_number" and names and any(
                c in names for c in number_word_compound(text, mention)):
            continue    # "three-putts" as the evidence names it: no quantity of 3
        found = judge_mention(index, mention)
        if found is not None:
            findings.append(found)
    for code in unheld:
        if (code.start, code.end) not in reported:
            reported.add((code.start, code.end))
            findings.append(code)
    counted = evidence.counted
    if counted:
        # "It has 3 reviews": a count, which the rating 3 does not back (``_count_levels``); read
        # only when a counted word follows digits that are not one of its counts as written,
        # or a number in words may be one ("three reviews")
        # (a pair's word is a whole word of letters A-Z, not glued to a letter, a digit, "_"
        # or "-" on either side: lower-cased, one of ``words``; none counted, no pair counts)
        pairs = set((_NUMBER_THEN_WORD_ASCII if text.isascii() else _NUMBER_THEN_WORD
                     ).findall(text)) - evidence.counts_as_written \
            if not evidence.counted_words.isdisjoint(words) else ()
        if "word_number" in map(_KIND, mentions) or (
                pairs and not counted.keys().isdisjoint([word for _, word in pairs])) or (
                lang != "en" and counted_other(low, lang, counted)):
            # "4 Nächte", 4泊: nights counted in the locale's words (``counted_other``)
            _count_levels(text, mentions, evidence, findings, judge._count_pair, lang)
    if may_say_stars(az, low, lang):
        star_levels(text, mentions, evidence, findings)     # "8.7 stars" for a score of 8.7
    if "from" in az and "from " in low:
        _levels(text, low, mentions, findings)     # "fell from 45,830 to 52,010"
    if "point" in az and ("quarter" in az or "half" in az):
        _point_moves(text, evidence.changes, findings)     # "a quarter-point cut"
    if "quarter" in az and evidence.codes:
        _quarters_said(text, evidence.codes, findings)     # "third-quarter" of "Q4 FY26"
    if other_changes and lang in _LEVELS_OTHER and _LEVELS_OTHER[lang][0].search(low):
        _levels_other(text, mentions, findings, lang, magnitudes)   # "baissé de X à Y"
    elif other_changes in _CJK_CHANGE:
        _levels_cjk(text, mentions, findings, lang, magnitudes)     # 从52,000降至48,210
    days = (relative_days[0] if relative_days else []) + timed + hours
    if offsets:
        days = days + offsets[0]        # "11:40 (+1)": a day offset, no number
    if evidence.today is not None and _may_name_month(text, low):
        days = days + _relative_months(text, low, evidence, locale)
    if evidence.days or evidence.withheld_days:
        days = days + _lone_months(text, low, mentions, evidence, locale, words)  # "in January"
    if (evidence.days or evidence.withheld_days) and (
            "day" in az or locale[:2] != "en" or "曜" in text or "周" in text
            or "週" in text or "星期" in text or "拜" in text or "요일" in text):
        days = days + _lone_weekdays(text, low, mentions, evidence, locale)
    if evidence.days and may_say_part_of_day(low):
        days = days + _parts_of_day(text, low, evidence, locale)    # "tomorrow morning"
    if days:
        # "today" in a quote the evidence holds is its author's day, not the answer's
        findings.extend(_outside_backed_quotes(days, mentions, findings) if quoting else days)
    amounts = _amount_words(text, low, evidence, az)
    if ("stop" in az or "direct" in az) and evidence.amounts:
        amounts += nonstop_said(text, low, evidence)      # "a nonstop flight": no stops
    # each cue of letters a-z, or its piece of them before a space, tested on ``az`` (a
    # third of the cost on ``low``, and the same answer), the others only when the text holds
    # a character that is not ASCII
    if ("of" in az and "s of" in low) or ("several" in az and "several " in low) \
            or ("few" in az and "a few " in low) or ("couple" in az and "a couple " in low) \
            or ("some" in az and ("some hundred" in low or "some thousand" in low
                                  or "some million" in low)) \
            or ("des" in az and "des " in low) or not text.isascii() and (
                "数" in text or "几" in text or "數" in text or "幾" in text):
        amounts += _magnitudes(text, low, evidence)
    if "left" in az or "stock" in az or "remain" in az or "available" in az \
            or "lager" in az or "estoque" in az or "voorraad" in az or "existencia" in az \
            or "magazzino" in az or "reste" in az or "restam" in az \
            or ("resta" in az and "resta " in low) or ("plus" in az and "plus que" in low) \
            or "queda" in az or "rimangono" in az or "restano" in az or "restant" in az \
            or "disponib" in az or "beschikbaar" in az or "rimanenti" in az \
            or ("frei" in az and "tze frei" in low) or not low.isascii() and (
                "剩" in low or "库存" in low or "在庫" in low or "vorrät" in low or "残り" in low
                or "남" in low or "재고" in low or "übrig" in low):
        amounts += _stock_levels(low if len(low) == len(text) else _ascii_lower(text),
                                 mentions, evidence)
    if question:
        findings.extend(_agreed_figures(text, question, evidence, locale, scanned, settings))
    if not text.isascii():
        findings.extend(direction_controls(text))
    if evidence.ranked and lang in RANK_WORD_LANGUAGES:
        # "auf dem dritten Platz" where the evidence ranks it 1st (``rulekit.sweep_ranks``)
        findings.extend(unheld_rank_words(text, low, lang, evidence.ranks))
    if amounts:
        skip = [(f.start, f.end) for f in findings]
        skip += [(m.start, m.end) for m in scanned if m.kind == "quote"]
        skip += _exempt_spans(text, settings.exempt)
        findings.extend(_not_overlapping(amounts, skip))
    return sorted(findings, key=IN_TEXT_ORDER)


_INLINE_MARKER = re.compile(r"[.)] [A-Z]")
# After the "half" of "a half-hour", "a half hour" or "half an hour": 30 minutes as much as
# 0.5 hours; "an hour and a half" is 90 minutes as much as 1.5 hours (``_Judge._number``).
_HALF = Decimal("0.5")
_HALVES = frozenset((_HALF, Decimal("1.5")))
_HALF_HOUR = re.compile(r"(?i)[-\u2010 \u00a0](?:an[ \u00a0])?hour(?![a-z])")


def _durations_said(text: str, mentions: Sequence[Mention], evidence: Evidence
                    ) -> tuple[list[tuple[int, int]], list[Finding]]:
    """The durations of hours and minutes the text says (``units.compound_durations``), each
    one value in minutes: held by a duration the evidence writes so ("11h 10m", "PT11H10M"),
    or by a field that counts minutes (``duration_minutes: 670``). Their spans, and a finding
    for each one neither holds ("11h 20m" is no part of the evidence's 11h 10m and 10h 20m)."""
    spans, findings = [], []
    for start, end, minutes, _ in compound_durations(text, mentions):
        spans.append((start, end))
        units = evidence.units.get(Decimal(minutes))
        if minutes in evidence.durations or (units is not None and "minute" in units[0]):
            continue
        hours, rest = divmod(minutes, 60)
        findings.append(_new_finding(
            "number", text[start:end], str(minutes), start, end, "unsupported_number",
            f"{text[start:end]} ({hours} h {rest:02d} min) is not a duration in the evidence; "
            "a duration is compared whole, not part by part"))
    return spans, findings


def _pressures_said(text: str, mentions: Sequence[Mention], evidence: Evidence
                    ) -> tuple[list[tuple[int, int]], list[Finding]]:
    """The blood pressures the text says (``units.pressure_pairs``), each one value held by a
    pair of the evidence in its order (``Evidence.pressures``): "82/128 mmHg" swapped, and
    "128/72 mmHg" with a heart rate as its diastolic, are no blood pressure of it. Their
    spans, and a finding for each one the evidence does not hold."""
    spans, findings = [], []
    for start, end, systolic, diastolic, _ in pressure_pairs(text, mentions):
        spans.append((start, end))
        if (systolic, diastolic) in evidence.pressures:
            continue
        held = ", ".join(f"{plain_decimal(s)}/{plain_decimal(d)}"
                         for s, d in sorted(evidence.pressures)[:3])
        findings.append(_new_finding(
            "number", text[start:end], f"{plain_decimal(systolic)}/{plain_decimal(diastolic)}",
            start, end, "unsupported_number",
            f"{text[start:end]} is not a blood pressure in the evidence, which holds {held}; "
            "a blood pressure is compared whole, systolic then diastolic"))
    return spans, findings


def _inline_marker(text: str, mention: Mention) -> bool:
    """"3. Press" after a colon or a sentence's end on one line ("To restart: 1. Press ... 2.
    Press ..."): a list run into a line, read only for a place the evidence numbers."""
    if not _INLINE_MARKER.match(text, mention.end):
        return False
    at = mention.start
    while at and text[at - 1] in " \t\u00a0":
        at -= 1
    return not at or text[at - 1] in ".:;!?\n"


_VERSION = re.compile(r"[vV]([0-9]+(?:\.[0-9]+)*)")


# Where digits alone are said as a postcode: after a word of place, or a postcode's label maybe
# with a copula ("PLZ 10115", "Postcode: 10115", "Your ZIP code is 90210", "Ihre PLZ ist 10115"),
# after a US state's code ("Cambridge, MA 02139") or a town and a comma ("Cambridge, 02139"), or
# before a capitalised word, its town ("at 10115 Berlin"); not "number 10115 in the queue" nor
# "10115 km".
_US_STATES = ("AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|"
              "NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY|PR|GU|VI|AS|MP")
# A state's name or its customary abbreviation says one too ("Cambridge, Massachusetts 02139",
# "Mass. 02139").
_US_STATE_NAMES = (
    "Alabama|Alaska|Arizona|Arkansas|California|Colorado|Connecticut|Delaware|Florida|Georgia|"
    "Hawaii|Idaho|Illinois|Indiana|Iowa|Kansas|Kentucky|Louisiana|Maine|Maryland|Massachusetts|"
    "Michigan|Minnesota|Mississippi|Missouri|Montana|Nebraska|Nevada|New Hampshire|New Jersey|"
    "New Mexico|New York|North Carolina|North Dakota|Ohio|Oklahoma|Oregon|Pennsylvania|"
    "Rhode Island|South Carolina|South Dakota|Tennessee|Texas|Utah|Vermont|Virginia|Washington|"
    "West Virginia|Wisconsin|Wyoming|District of Columbia|Puerto Rico|"
    r"Ala\.|Ariz\.|Ark\.|Calif\.|Colo\.|Conn\.|Del\.|Fla\.|Ga\.|Ill\.|Ind\.|Kans?\.|Ky\.|La\.|"
    r"Md\.|Mass\.|Mich\.|Minn\.|Miss\.|Mo\.|Mont\.|Nebr?\.|Nev\.|N\.[HJMYCD]\.|Okla\.|Ore\.|"
    r"Pa\.|Penn\.|R\.I\.|S\.[CD]\.|Tenn\.|Tex\.|Vt\.|Va\.|Wash\.|W\. ?Va\.|Wisc?\.|Wyo\.|D\.C\.")
_POSTCODE_BEFORE = re.compile(
    r"(?:[:(]|(?<![\w'’])(?i:at|in|to|from|near"
    r"|(?:postcode|post code|zip|zip code|postal code|plz|code)"
    r"(?:[ \t\u00a0]+(?:is|ist|lautet|est|es|è|é))?)"
    rf"|(?<![\w'’])(?:{_US_STATES}|{_US_STATE_NAMES}),?|(?<![\w'’])[A-ZÀ-Þ][a-zà-ÿ]+,)"
    r"[ \t\u00a0]*\Z")
_TOWN_AFTER = re.compile(r"[ \u00a0]+[A-ZÀ-Þ][a-zà-ÿ]")
# Not a postcode, whatever the word before: a level reached ("went up to 10115", "fell to
# 10115") or a count of something ("to 10115 customers", "up to 10115 points").
_LEVEL_TO = re.compile(r"(?i)(?<![\w'’])(?:up|down|rose|risen|fell|fallen|climbed|dropped|"
                       r"increased|decreased|grew|grown|jumped|rising|falling|climbing)"
                       r"[ \t\u00a0]+to[ \t\u00a0]*\Z")
_COUNTED_AFTER = re.compile(
    r"(?i)[ \t\u00a0]+(?:points?|pts|items?|units?|orders?|pieces?|pcs|parcels?|packages?|"
    r"people|persons?|customers?|users?|members?|visitors?|views?|likes?|followers?|"
    r"subscribers?|steps?|times?|credits?|coins?|tickets?|votes?|copies|rows?|records?|"
    r"requests?|calls?|messages?|reviews?|stars?|miles?|km|products?|visits?|downloads?|"
    r"households?|homes?|addresses|stores?|employees?|students?|patients?)(?![\w-])")


def _said_as_postcode(text: str, start: int, end: int) -> bool:
    """Whether the digits at [start, end) are said as a postcode (``_POSTCODE_BEFORE``), and
    not as a level reached or a count (``_LEVEL_TO``, ``_COUNTED_AFTER``)."""
    if _COUNTED_AFTER.match(text, end) is not None:
        return False
    window = max(0, start - 24)
    return _POSTCODE_BEFORE.search(text, window, start) is not None \
        and _LEVEL_TO.search(text, window, start) is None \
        or _TOWN_AFTER.match(text, end) is not None


def _zip_head(digits: str, postcodes: frozenset[str]) -> bool:
    """Whether ``digits`` are the five digits of a ZIP+4 of ``postcodes`` ("90210-1234")."""
    return len(digits) == 5 and any(code.startswith(digits) and code[5:6] == "-"
                                    for code in postcodes)


def _held_period(run: str, keys: frozenset[str]) -> bool:
    """Whether the code ``run`` is a period or percentile the evidence's keys name
    (``Evidence.period_keys``): "Q2", "p95", or one before a hyphen and a word without digits
    ("p95-Latenz", "Q2-Umsatz")."""
    folded = run.casefold()
    if folded in keys:
        return True
    head, _, rest = folded.partition("-")
    return bool(rest) and head in keys and not any(char.isdigit() for char in rest)


def _held_version(run: str, evidence: Evidence) -> bool:
    """"v1.2" for a version the evidence writes "1.2" (a name "1.2.0", or a field's number)."""
    found = _VERSION.fullmatch(run)
    if found is None:
        return False
    number = found[1]
    return number in evidence.names or number in evidence.codes or (
        number.count(".") <= 1 and Decimal(number) in evidence.values)


_HELD_BEFORE = re.compile(r"(?i)(?<![^\W\d_])(option|version|section|sec\.?)[ \u00a0]\Z")
_CODE_TAIL = frozenset("-_")
# What joins a glued token to more of a code (``code_run``), and what may open a phone number
# that is no held one (``_may_write_phone``): "+44", "(0)20", "(800)", "1-800-555-0199".
# A code behind the letters that mask its first digits ("x9012", "XXXX9012", "xxxx-9012"): the
# code as the evidence writes it (a card's ``last4``), not a new one.
_MASKED = re.compile(r"(?:x+|X+)-?([0-9]{3,})")
_CODE_JOINS = ("-", "_", ".")
_PLUS_DIGIT, _BRACKET_DIGIT = re.compile(r"\+\d"), re.compile(r"\(\d")
_HYPHEN_GROUP = re.compile(r"-\d{1,5}-")


def _may_write_phone(text: str) -> bool:
    """Whether ``text`` may write a phone number the evidence need not hold to be read as one:
    a digit after "+" or "(", or a group of digits between hyphens. Literal-first searches,
    each behind a substring test: most answers have a bracket and no phone."""
    return ("+" in text and _PLUS_DIGIT.search(text) is not None) \
        or ("(" in text and _BRACKET_DIGIT.search(text) is not None) \
        or ("-" in text and _HYPHEN_GROUP.search(text) is not None)


# A hash or an address shortened for display: a head and a tail of letters and digits with an
# ellipsis between ("0x3f2a…9c1d", "bc1qxy...0wlh"; ``_shortened_codes``).
_SHORTENED = re.compile(r"(?<![A-Za-z0-9])([A-Za-z0-9]{4,})(?:\u2026|\.\.\.)([A-Za-z0-9]{4,})"
                        r"(?![A-Za-z0-9])")
# The marks a wallet's address or a hash begins with, which say nothing of which one it is.
_ADDRESS_MARKS = ("0x", "bc1", "tb1")


def _shortened_codes(text: str, mentions: Sequence[Mention], evidence: Evidence,
                     settled: dict[int, Finding | None]) -> None:
    """A hash or an address of the evidence shortened for display, as a wallet shows it
    ("0x3f2a…9c1d" for "0x3f2a9b7c…c4d39c1d"): it names that value when its head (three
    characters or more after a mark such as 0x or bc1, four in all) and its tail (four or
    more) are those of exactly one long code of the evidence; its digits are then no figures. One that begins
    with such a mark and matches none, or more than one, is one finding on the whole code."""
    for match in _SHORTENED.finditer(text):
        head, tail = match[1].casefold(), match[2].casefold()
        mark = next((m for m in _ADDRESS_MARKS if head.startswith(m)), "")
        if len(head) - len(mark) < 3 or len(head) < 4:
            continue
        start, end = match.span()
        inside = [index for index, mention in enumerate(mentions)
                  if start <= mention.start and mention.end <= end and index not in settled]
        if not inside:
            continue
        held = {value for value in (*evidence.codes, *evidence.names)
                if len(value) >= 20 and len(value) > len(head) + len(tail)
                and value.startswith(head) and value.endswith(tail)}
        if len(held) == 1:
            for index in inside:
                settled[index] = None
        elif mark:
            for index in inside:
                settled[index] = None
            written = match[0]
            why = "matches more than one" if held else "matches no"
            settled[inside[0]] = _new_finding(
                "number", written, written.casefold(), start, end, "unsupported_number",
                f"{written} {why} hash or address of the evidence by its head and tail; "
                "write the whole value", None, True)


def _whole_values(text: str, az: str, mentions: Sequence[Mention], evidence: Evidence,
                  slots: str = "") -> dict[int, Finding | None]:
    """The number mentions of the answer that are part of one value the evidence must hold
    whole, by index, each with its finding or None (backed), so that none of its digits is
    matched alone: a phone number ("+44 (0)20 7946 0958", matched by its digits with or
    without the country code and the trunk prefix, ``same_phone``), a code ("CE-108255-2",
    "24H2", "9.4.7": ``code_like``, matched case-folded against the evidence's codes and
    names), a version ("version 4") and an option the evidence numbers ("Option 4" when it
    says "Option 5"). Each reading runs only when a cheap test says it may: a "+" or a bracket
    in the answer, or a phone number in the evidence; digits glued to a letter or after a
    hyphen; the word "version" or "option" (tested on ``az``, the ``az_text`` of the text
    lower-cased: the same answer as on the lower-cased text for a third of the cost). A value
    code put into a slot (``slots``, the slot values case-folded) is licensed whole."""
    settled: dict[int, Finding | None] = {}
    by_start: list[int] | None = None
    if slots or evidence.phones or evidence.withheld_phones or _may_write_phone(text):
        for match in PHONE.finditer(text):
            written = match.group()
            digits = phone_digits(written)
            if not 9 <= len(digits) - digits.startswith("+") <= 15:
                continue
            held = any(same_phone(digits, phone) for phone in evidence.phones) or (
                bool(slots) and written.casefold() in slots)
            if not held and not (digits.startswith("+") or "(" in written
                                 or (written.count("-") >= 2 and " " not in written)):
                continue    # spaced groups the evidence does not hold as a phone: figures
            start, end = match.span()
            if by_start is None:    # mention indexes by start, once: a bisection per phone
                by_start = sorted(range(len(mentions)), key=lambda i: mentions[i].start)
                starts = [mentions[i].start for i in by_start]
            inside = sorted(index for index in by_start[bisect.bisect_left(starts, start):
                                                        bisect.bisect_right(starts, end)]
                            if mentions[index].end <= end)
            for index in inside:
                settled[index] = None
            if not held and inside:
                why = next((why for phone, why in evidence.withheld_phones.items()
                            if same_phone(digits, phone)), None)
                code, message = (why.code, f"the phone number {written} {why.why}") if why \
                    else ("unsupported_number", f"the phone number {written} is not in the "
                          "evidence")
                settled[inside[0]] = _new_finding("number", written, digits, start, end, code,
                                                  message, None, True)
    if ("\u2026" in text or "..." in text) and (evidence.codes or evidence.names):
        _shortened_codes(text, mentions, evidence, settled)
    names, codes = evidence.names, evidence.codes
    run_span = (0, 0)
    for index, mention in enumerate(mentions):
        if mention.kind != "number" or mention.value is None or index in settled:
            continue
        if mention.glued and mention.token_span is not None:
            left, right = mention.token_span
            if text[left - 1:left] not in _CODE_JOINS and text[right:right + 1] not in _CODE_JOINS \
                    and ((token := mention.token.casefold()) in names or token in codes):
                settled[index] = None   # "p0" of the evidence, joined to nothing: the whole code
                continue
        start = mention.start
        if not (mention.glued or (text[start - 1:start] in _CODE_TAIL and start >= 2
                                  and text[start - 2].isascii() and text[start - 2].isalnum())):
            continue
        run_span = code_run(text, start, mention.end, run_span)
        left, right = code_near(run_span, start, mention.end)
        run = text[left:right]
        if run[:1] in "xX" and (masked := _MASKED.fullmatch(run)) and masked[1] in names:
            settled[index] = None   # "x9012", "XXXX-9012": a card's last four behind its mask
            continue
        if slots and run.casefold() in slots:
            settled[index] = None   # a code of a slot value or of the user's input ("1AA")
            continue
        if not code_like(run, glued_digits=mention.glued):
            continue
        if any(form in evidence.codes or form in evidence.names for form in code_forms(run)) \
                or _held_period(run, evidence.period_keys) or _held_version(run, evidence):
            settled[index] = None
            continue
        # judged in the loop, after the code's other digits (``sweep``)
        settled[index] = (_new_finding("number", run, run.casefold(), left, right,
                                       "unsupported_number", f"{run} is not in the evidence; a "
                                       "code is matched whole, not digit by digit", None, True),)
    if "+" in text:
        # "Ctrl+Alt+1": a shortcut is a name, the one the evidence writes
        for index, mention in enumerate(mentions):
            if mention.kind != "number" or mention.value is None or index in settled:
                continue
            keys = shortcut(text, mention.start, mention.end)
            if keys is None:
                continue
            settled[index] = None if keys[1] in evidence.names or (
                slots and text[keys[0]:mention.end].casefold() in slots) else _new_finding(
                "number", mention.text, _digits(mention.value), mention.start, mention.end,
                "unsupported_number", f"the shortcut {text[keys[0]:mention.end]} is not in the "
                "evidence", None, True)
    options = "option" in az and any(word == "option" for word, _ in evidence.position_words)
    sections = "sec" in az and evidence.sections
    if "version" in az or options or sections:
        for index, mention in enumerate(mentions):
            if mention.kind != "number" or mention.value is None or index in settled \
                    or mention.percent or mention.currency:
                continue
            word = _HELD_BEFORE.search(text, max(0, mention.start - 9), mention.start)
            if word is None:
                continue
            said = word[1].casefold()
            if said.startswith("sec"):
                said = "section"    # "sec. 004": a course's section, held to the evidence's
                if not sections or mention.value in sections:
                    continue
            if said == "option" and not options or (said, mention.value) in \
                    evidence.position_words:
                continue
            number = mention.text.casefold()
            if slots and text[word.start():mention.end].casefold() in slots:
                continue    # code put it there
            if said == "version" and (number in evidence.names or f"v{number}" in evidence.codes
                                      or f"v{number}" in evidence.names):
                continue
            shown = text[word.start():mention.end]
            held = list(map(str, sorted(sections))) if said == "section" else sorted(
                str(number) for word_, number in evidence.position_words if word_ == said)
            settled[index] = _new_finding(
                "number", mention.text, _digits(mention.value), mention.start, mention.end,
                "unsupported_number", f"{shown} is not in the evidence" + (
                    f", which numbers the {said}s {', '.join(held)}" if held else
                    "; a version is a fact, not a place in a list"), None, not held)
    return settled


# Characters that change the order a reader sees: the right-to-left and Arabic letter marks
# (RLM, ALM: "\u200f-12" is shown "12-"), the embeddings and overrides (U+202A-U+202E) and the
# isolates (U+2066-U+2069). The left-to-right mark is not one: in a left-to-right answer it
# moves nothing.
_DIRECTION_CONTROL = re.compile("[\u061c\u200f\u202a-\u202e\u2066-\u2069]")


def direction_controls(text: str) -> list[Finding]:
    """A finding for each character of ``text`` that reorders what a reader sees: with one, the
    text shown is not the text judged ("$\u202e12\u202c" is read as 12 and shown as 21). No
    language the sweep reads needs one in an answer."""
    return [_new_finding("control", found.group(), f"U+{ord(found.group()):04X}",
                         found.start(), found.end(), "direction_control",
                         f"U+{ord(found.group()):04X} changes the order in which the text is "
                         "shown, so what a reader sees is not what was checked; write the answer "
                         "without it")
            for found in _DIRECTION_CONTROL.finditer(text)
            if not _after_right_to_left(text, found.start())]


def _after_right_to_left(text: str, at: int) -> bool:
    """Whether the mark at ``at`` is a right-to-left or Arabic letter mark right after a letter
    of a right-to-left script ("سارا\u200f"): the letter already sets the direction there, so
    the mark moves nothing the letter would not."""
    return at > 0 and text[at] in "\u200f\u061c" and \
        unicodedata.bidirectional(text[at - 1]) in ("R", "AL")


# Words between a count and what it counts that say which of them ("your 2 most recent posts"):
# the count is still of the whole list's things.
_COUNT_QUALIFIERS = frozenset("most recent latest newest last top best new published previous "
                              "earlier older".split())


def _outside_backed_quotes(found: list[Finding], mentions: Sequence[Mention],
                           flagged: list[Finding]) -> list[Finding]:
    """The findings of ``found`` (days, weekdays, months) outside every quote the sweep backed
    (a quote mention without a finding in ``flagged``): the words of a quote found verbatim
    in the evidence are its author's, like its figures (rule 7)."""
    judged = {(f.start, f.end) for f in flagged if f.kind == "quote"}
    spans = [(m.start, m.end) for m in mentions
             if m.kind == "quote" and (m.start, m.end) not in judged]
    return [f for f in found if not any(s <= f.start and f.end <= e for s, e in spans)]


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


# A label or words before an amount that say it is taken off ("Discount: -$4.32", "coupon
# SUMMER10 -$4.32", "you saved -$4.32").
_DEDUCTION_LABEL = re.compile(r"(?i)discount|coupon|promo|rebate|voucher|savings?|saved|markdown"
                              r"|deduction|reduction|credit|refund|proration|write-off|"
                              r"rabatt|remise|descuento|sconto|desconto|gutschrift|erstattung|"
                              r"avoir|remboursement|reembolso|rimborso|reembolso|korting|"
                              r"折扣|优惠|割引|할인|退款|返金|환불")

# Brazilian instalments: "3x" is a number of payments, not a multiple, before "sem juros",
# "com juros", "de R$", "no cartão", "iguais", "mensais", "parcelas", or after "em até", or
# after "em" unless a verb of change stands before it ("cresceu em 3x" is a multiple).
_INSTALMENT_AFTER = re.compile(r"[ \u00a0]+(?:(?:sem|com)[ \u00a0]+juros|de[ \u00a0]+R\$|"
                               r"no[ \u00a0]+cart[ãa]o|iguais|mensais|parcelas)(?![^\W\d_])"
                               r"|[ \u00a0]*(?:[.,;:!?)]|\Z)", re.IGNORECASE)
_INSTALMENT_BEFORE = re.compile(r"(?i)(?<![^\W\d_])(?:(?P<w>[^\W\d_]+)[ \u00a0]+)?em"
                                r"(?P<upto>[ \u00a0]+at[ée])?[ \u00a0]+\Z")
_CHANGE_STEMS = ("aument", "cresc", "cresceu", "multiplic", "reduz", "diminu", "ca", "subi",
                 "elev", "expand", "dobr", "tripl", "vend", "melhor", "aceler", "ganh")


def _instalments(text: str, mention: Mention) -> bool:
    """Whether "3x" (``mention``, in Portuguese) counts the instalments a price is paid in:
    "3x sem juros", "3x de R$ 433,00", "em até 10x", "em 3x no cartão" (``_INSTALMENT_AFTER``,
    ``_INSTALMENT_BEFORE``); not "cresceu em 3x", a multiple."""
    before = _INSTALMENT_BEFORE.search(text, max(0, mention.start - 40), mention.start)
    after = _INSTALMENT_AFTER.match(text, mention.end)
    if after is not None and after.group().strip(" \u00a0")[:1].isalpha():
        return True                         # "3x sem juros", "3x de R$"
    if before is None:
        return False
    if before.group("upto"):
        return True                         # "em até 10x"
    word = (before.group("w") or "").casefold()
    return after is not None and not word.startswith(_CHANGE_STEMS)


# Words that make a percentage the part taken off a price: after it ("70% off", 70%オフ,
# 80% 할인, "15 % Rabatt", "15 % de remise"), or before it (优惠80%, 折扣80%, 할인율 80%,
# "save 80%"); 7割引 holds its own.
_DISCOUNT_AFTER = re.compile(r"(?i)[ \u00a0]?(?:off\b|オフ|引き|할인|割引|折扣|优惠|優惠|rabatt|"
                             r"nachlass|de (?:remise|réduction|desconto|descuento)|di sconto|"
                             r"korting|sconto|desconto|descuento)")
_DISCOUNT_BEFORE = ("优惠", "優惠", "折扣", "立减", "할인", "할인율", "割引", "save", "saving",
                    "discount", "discount of", "rabatt", "remise de", "réduction de",
                    "desconto de", "descuento del", "descuento de", "sconto del")


def _said_as_discount(text: str, mention: Mention) -> bool:
    """Whether the percentage ``mention`` is said as the part taken off a price (7割引, "70%
    off", 优惠80%, "80% 할인"), not as the share paid (7割の値段, 原价的80%)."""
    if mention.text.endswith("引") or _DISCOUNT_AFTER.match(text, mention.end) is not None:
        return True
    head = text[max(0, mention.start - 16):mention.start].rstrip(" \u00a0:：").casefold()
    return head.endswith(_DISCOUNT_BEFORE)


# A counter or a word of items after a whole number: it counts things ("残り5点", "5个", "다섯 개",
# "5 Stück", "cinq exemplaires", "5-mal"), and is never a rounding of a figure with decimals.
_ITEMS_AFTER = re.compile(r"(?i)[ \u00a0]?(?:[点個个件台枚只套盒瓶箱名人]|개|명|건|대|장|병|벌|켤레|"
                          r"-?mal\b|st(?:ü|ue)ck|exemplai|exemplar|articles?\b|artikel|"
                          r"pi[eè]ces?\b|unit|unid|unità|peças?\b|itens\b|items?\b|pcs\b|"
                          r"pezzi|stuks)")


# A direction written after a number: "3 under par", "3-under 69", "5 below zero", "2 over."
_DIRECTION = re.compile(r"[ \u00a0\-\u2010](under|over|below|above)"
                        r"(?:[ \u00a0]+(?:par|zero)(?![\w-])"
                        r"|(?=[ \u00a0]*(?:[.,;:!?)\]]|$))|(?=[ \u00a0]+\d))", re.IGNORECASE)
_DIRECTION_SIGNS = {"under": -1, "below": -1, "over": 1, "above": 1}


_HYPHEN_NAME = re.compile(r"[-\u2010]([^\W\d_]+)")
_MIDNIGHT = re.compile(r"(?i)midnight|mitternacht|minuit|medianoche|mezzanotte|meia-noite|"
                       r"middernacht|午夜|半夜|深夜|자정")


# A clock time that does not say which half of the day it is in: "8 o'clock", "half past
# seven", "quarter to 9"; unless a word in it says so ("8 o'clock in the morning", "quarter past
# 8 am").
_EITHER_HALF = re.compile(r"(?i)clock|past|after|quarter|half|sharp")
_BARE_CLOCK = re.compile(r"[1-9]:[0-5][0-9](?![0-9:])")
# The half of the day said after a bare clock time, which the scanner does not take into the
# mention ("7:30 this morning", "7:30 in the morning").
_HALF_NEXT = re.compile(r"(?i)[ \u00a0]{1,3}(?:(?:this|tomorrow|in[ \u00a0]the|at|every|each)"
                        r"[ \u00a0]{1,3})?(?:morning|evening|afternoon|night|tonight)(?![\w])")
# After a clock time, words that put it in the reader's zone ("your time", "your local time",
# "in your time zone") or say it is local ("local time", "(local time)").
_READER_ZONE = re.compile(r"[ \u00a0]*\(?[ \u00a0]*(?:(?P<your>(?:in[ \u00a0]+)?your(?:[ \u00a0]+own)?"
                          r"(?:[ \u00a0]+local)?[ \u00a0]+time(?:[ \u00a0]?zone)?)|local[ \u00a0]+time)"
                          r"(?![\w])", re.IGNORECASE)
# A length of time written like a clock time ("18:05", "0:58"), and the words before a time of
# day that no length follows ("went live at 18:05").
_LENGTH_SAID = re.compile(r"[0-9]{1,2}:[0-5][0-9]")
_AT_A_TIME = frozenset("at by until till before after around from since".split())
_HALF_SAID = re.compile(r"(?i)[ap]\.?[ \u00a0]?m(?![a-z])|morning|evening|afternoon|night|noon")


# A line that is one capitalised word and a colon before an emphasis ("Fit: *...*",
# "- **Recommendation:** *...*").
_QUOTE_NAME = r"@[\w.]{1,30}|[A-Z][\w'.\-]{0,30}(?:[ \t][A-Z][\w'.\-]{0,30}){0,2}"
_NAME_LABEL = re.compile(rf"[ \t]{{0,3}}(?:[-*+][ \t]+)?(?:\*\*|__)?(?P<name>{_QUOTE_NAME})"
                         r"(?:\*\*|__)?[ \t]*:(?:\*\*|__)?[ \t]*")


def _label_emphasis(text: str, mention: Mention, evidence: Evidence) -> bool:
    """Whether an emphasis the scanner took for a quote after "Name:" follows a name that
    names no author of the evidence: a label of the answer's own ("Recommendation: *size up*",
    "Black Friday: **30% off**", "Jayson Tatum: **34 points, 9 rebounds**", "Refund: *We sent
    $500.*"), whose figures, dates and links are then judged as the answer's. "Dana:
    *...*" and "Dana Smith: *...*" stay quotes when Dana wrote something in the evidence."""
    line = text.rfind("\n", 0, mention.start) + 1
    found = _NAME_LABEL.fullmatch(text, line, mention.start)
    if found is None:
        return False
    return name_words(found.group("name")).isdisjoint(evidence.author_words)


# A name that says the quote right before it ('Dana said "..."', 'Dana K. wrote: "..."',
# '@sam_k posted "..."'), or right after it ('"...," Dana said', '"...," said Dana'): the verbs
# are the scanner's (``scan.quotes._SAID``), the name as in ``_NAME_LABEL``. Read in a window
# of 80 characters before a quote.
# The names before a verb of saying: one, or a list ("Sam and Dana both said", "Sam, Dana and
# Kim all said"), maybe with an adverb between ("Dana also said").
_NAME_LIST_GAP = r"(?:,[ \t]+(?:and[ \t]+|&[ \t]+)?|[ \t]+(?:and|&)[ \t]+)"
# More verbs that give words to a name, beside the scanner's: "Dana noted that", "Kim
# mentioned", "Sam complained that".
_SAID_TOO = (r"(?:noted|notes|mentioned|mentions|complained|complains|explained|explains|"
             r"shared|shares|stated|states|reported|reports|raved|raves|warned|warns|"
             r"admitted|admits|claimed|claims|remarked|remarks|observed|observes|praised|"
             r"praises|pointed out|points out|summed it up)")
_EMPHASIS = r"(?:\*\*|__|\*|_)?"     # "**Dana** wrote:"
_NAMED_BEFORE = re.compile(
    rf"(?<![\w@'.-]){_EMPHASIS}(?P<name>(?:{_QUOTE_NAME})(?:{_NAME_LIST_GAP}(?:{_QUOTE_NAME}))*)"
    rf"{_EMPHASIS},?[ \t\u00a0]+(?:(?:both|all|each|also|too|then|later|once|even)[ \t\u00a0]+)?"
    rf"(?i:{_SAID}|{_SAID_TOO})(?:[ \t\u00a0]+(?:it|this|that))?[ \t\u00a0]*[,:]?[ \t\u00a0]*\Z")
# Words given to a name without a verb: 'According to Dana, "..."', 'Per Dana: "..."',
# 'Dana's review: "..."'.
_NAMED_BY = re.compile(
    rf"(?:(?<![\w@'.-])(?i:according[ \t\u00a0]+to|per)[ \t\u00a0]+(?P<name>{_QUOTE_NAME})"
    rf"|(?<![\w@'.-])(?P<owner>{_QUOTE_NAME})['\u2019]s[ \t\u00a0]+(?i:review|comment|reply|"
    r"post|words|feedback|note|take))[ \t\u00a0]*[,:][ \t\u00a0]*\Z")
_NAME_LIST_SPLIT = re.compile(_NAME_LIST_GAP)
_NAMED_AFTER = re.compile(
    rf"[ \t\u00a0]+(?:(?P<name>{_QUOTE_NAME})[ \t\u00a0]+(?i:{_SAID}|{_SAID_TOO})"
    rf"|(?i:{_SAID}|{_SAID_TOO}|per)[ \t\u00a0]+(?P<later>{_QUOTE_NAME}))(?![\w])"
    # signed with a dash at the end of its line or sentence: '"..." — Dana', or a blockquote's
    # next line: "> ...\n> — Dana"
    rf"|(?:[ \t\u00a0]*\n[ \t]*(?:>[ \t>]*)?(?=[\u2014\u2013]|--))?"
    rf"[ \t\u00a0]*(?:[\u2014\u2013-]|--)[ \t\u00a0]*{_EMPHASIS}(?P<signed>{_QUOTE_NAME}){_EMPHASIS}"
    r"[ \t\u00a0]*(?:[.)\n]|\Z)")
# An HTML blockquote signed inside: "<blockquote>... — Dana</blockquote>".
_SIGNED_INSIDE = re.compile(rf"(?:[\u2014\u2013]|--)[ \t\u00a0]*(?P<name>{_QUOTE_NAME})"
                            r"[ \t\u00a0.]*(?:<[^<>]{0,200}>[ \t\n]*)*\Z")


def _signed_inside(mention: Mention) -> re.Match | None:
    """The signature inside an HTML blockquote ("<blockquote>... — Dana</blockquote>")."""
    if mention.text[:11].lower() != "<blockquote":
        return None
    return _SIGNED_INSIDE.search(mention.text, max(0, len(mention.text) - 300))


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
    """Whether the lower-cased text holds a word ``_DIRECTION`` reads; ``low`` may be its
    ``az_text`` too (each word is of a-z)."""
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
# The same in French, German, Spanish, Italian, Portuguese and Dutch ("baissé de 12,5 %",
# "en baisse de", "gesunken um", "ein Rückgang von", "bajó un", "una caída del", "calo del",
# "caiu 12,5%", "gedaald met"; the words are the scanner's ``FALL_OTHER`` and ``RISE_OTHER``,
# which read a change then a level with them), with the little words that may stand between
# the word and the number (``_TREND_LINKS``). A word that says a change without its direction
# ("varié", "verändert") backs either sign (``_changed_other``).
_FALL_OTHER = FALL_OTHER | {"minus"}
_RISE_OTHER = RISE_OTHER | {"plus"}
# Verbs of reducing, which say the direction of a figure held as a change ("reduzierte sich um
# 3,2 %", "se redujeron un 3,2 %", "si sono ridotti del 3,2 %") but never make a level one: a
# price "reduziert um 20 %", "ridotto del 20 %" is a discount (as English "reduced").
_REDUCED_OTHER = frozenset("reduzierte reduzierten reduziert verringert réduit réduite réduits "
                           "réduites redujo redujeron reducido reducida reducidos reducidas "
                           "ridotto ridotta ridotti ridotte reduziu reduziram reduzido reduzida "
                           "reduzidos reduzidas".split())
_FALL_BEFORE = FALL_BEFORE | _FALL_OTHER | _REDUCED_OTHER
_RISE_BEFORE = RISE_BEFORE | _RISE_OTHER
# Between a direction word and its number: "de", "du" (French); "um", "von" (German); "un",
# "del", "en" (Spanish); "del", "dell'", "di" (Italian); "met", "van" (Dutch).
_TREND_LINKS = frozenset("de du d um von un una del dell di en met van".split())
# CJK direction words just before the number, maybe with 了 between (下降12.5%, 同比下降了12.5%).
_FALL_CJK = ("下降", "下跌", "减少", "減少", "降低", "下滑", "回落", "降幅", "跌", "降", "减")
_RISE_CJK = ("增长", "增長", "增加", "上升", "上涨", "上漲", "提高", "提升", "增幅", "涨幅", "涨",
             "增")
_FALL_NOUNS = frozenset("drop decline decrease fall loss dip cut reduction".split())  # "a drop of 3"
_RISE_NOUNS = frozenset("rise gain increase jump hike raise".split())
# Two words before the number: "gave up 1.3%" is a fall, not the "up" of a rise; "edged lower",
# "closed higher".
_FALL_PAIRS = frozenset({(verb, "up") for verb in ("gave", "give", "gives", "giving")}
                        | {(verb, "off") for verb in ("is", "was", "are", "were")}
                        | {(verb, "back") for verb in ("gave", "give", "gives", "giving",
                                                       "pulled", "pulls", "fell")})
_DRIFT_VERBS = frozenset("edged edges inched ticked moved closed ended finished traded settled "
                         "drifted".split())
# The verb of a rate or a price before its object and "by": "cut rates by 25 bps".
_TRANSITIVE_FALL = TRANSITIVE_BEFORE & FALL_BEFORE
_TRANSITIVE_RISE = TRANSITIVE_BEFORE & RISE_BEFORE
# The verbs of a change, before its object of up to three words and "by": "increased rates by
# 25 bps", "raised its target range by 25 bps" (not "up" nor "down": "set up rates by").
_VERB_FALL = (_TRANSITIVE_FALL | FALL_BEFORE) - {"down"}
_VERB_RISE = (_TRANSITIVE_RISE | RISE_BEFORE) - {"up"}
_FALL_ARROWS, _RISE_ARROWS = "▼↓⬇🔻", "▲↑⬆🔺"
# After the number, maybe after a unit of points ("a 25 bp cut", "a 0.3% pullback").
_POINT_UNITS = r"bps?|basis[ \u00a0-]points?|percentage[ \u00a0-]points?|points?|pts?"
_TREND_AFTER = re.compile(
    rf"(?:[ \u00a0-]*(?:{_POINT_UNITS})(?![\w-]))?(?:[ \u00a0]+rate)?"
    r"[ \u00a0]+(?:(?P<fall>lower|less|fewer|down|drop|decline|decrease|fall|loss|dip|cut|"
    r"reduction|pullback|retreat)"
    r"|(?P<rise>higher|more|up|rise|gain|increase|jump|hike|raise|rally))(?![\w-])",
    re.IGNORECASE)
# The figure before "or" or an opening bracket ("down $3.12 or 1.33%", "down $3.12 (1.33%)",
# "fell $3.12, or 1.33%"): the same change said again, which takes that figure's direction.
_SAID_AGAIN = re.compile(r"(?<![\w.,])[$€£¥]?[0-9][0-9,.]*%?[ \u00a0]*"
                         r"(?:,?[ \u00a0]+or[ \u00a0]+|\([ \u00a0]*)\Z")
# After the number in other languages: "um 12,5 % gestiegen", "met 12,5% gedaald", "12,5 % de
# moins", "12,5% in più", and in German and Dutch after the level reached, maybe with its noun
# ("um 8 % auf 48.210 (Aufrufe) gesunken", "met 8% tot 48.210 gedaald"); in Japanese, Chinese and Korean the word follows the
# number, maybe after の or 的 (12.5%減少, 12.5%の増加, 12.5% 감소).
_TREND_AFTER_OTHER = re.compile(
    r"(?:[ \u00a0]+(?:auf|bis|naar|tot)[ \u00a0]+[0-9][0-9.,\u00a0]{0,20}?"
    r"(?:[ \u00a0]+[^\W\d_]{1,30})?(?=[ \u00a0]))?"
    r"[ \u00a0]+(?:(?P<fall>gesunken|gefallen|zurückgegangen|weniger|niedriger|gedaald|gezakt|"
    r"afgenomen|minder|lager|menos|in meno|de moins|en moins|zurück|nach unten)|(?P<rise>"
    r"gestiegen|gewachsen|mehr|höher|gestegen|gegroeid|toegenomen|meer|hoger|más|mais|in più|"
    r"de plus|nach oben))(?![\w-])"
    r"|[ \u00a0]?[の的]?(?:(?P<cfall>減少|减少|下降|低下|下落|ダウン|下が|減|감소|하락|줄|떨어"
    r"|マイナス|少な)"
    r"|(?P<crise>増加|增加|增长|增長|上昇|上升|アップ|上が|増|증가|상승|늘|올라|プラス|多く))",
    re.IGNORECASE)
# "nahm um 3,2 % ab", "nimmt um 3,2 % zu": the verb before the figure, its particle after it,
# ending the clause (probe i18n2 f3).
_TAKE_VERBS = frozenset("nahm nahmen nimmt nehmen".split())
_TAKE_PARTICLE = re.compile(r"[ \u00a0]+(ab|zu)(?=[ \u00a0]*(?:[.,;:!?)\n]|\Z))")
# Words of other languages that say a change without its direction, like "improved", "worsened"
# and "changed" (``CHANGED_BEFORE``): before the number, maybe with a little word between ("a été
# amélioré de 8 %", "verbesserte sich um 8 %", "mejoró un 8 %", "migliorato del 8%", "melhorou
# 8%", "verbeterd met 8%", 改善了8%, 개선 8%) or after it ("um 8 % verbessert", "met 8% verbeterd",
# 8%改善, 8%の改善, 8% 개선). Lower may be better, so they back a change of either sign.
_CHANGED_OTHER = frozenset(
    "amélioré améliorée améliorés améliorées amélioration dégradé dégradée détérioré détériorée "
    "empiré changé changée varié variée évolué "
    "verbessert verbesserte verbesserten verbesserung verschlechtert verschlechterte "
    "verschlechterung verändert veränderte veränderung geändert "
    "mejorado mejorada mejoró mejoraron mejora empeorado empeorada empeoró cambiado cambió "
    "variado varió "
    "migliorato migliorata migliorati migliorate miglioramento peggiorato peggiorata "
    "peggioramento cambiato cambiata variato variata "
    "melhorado melhorada melhorou melhoraram melhoria piorado piorada piorou mudou mudado "
    "variou "
    "verbeterd verbeterde verbetering verslechterd verslechterde verslechtering veranderd "
    "veranderde".split())
_CHANGED_LINKS = _TREND_LINKS | {"sich", "se", "si", "of", "by"}
_CHANGED_CJK = ("改善", "改进", "改進", "改良", "变化", "變化", "変化", "変動", "悪化", "恶化", "개선",
                "변화", "악화")
_CHANGED_AFTER_OTHER = re.compile(
    r"[ \u00a0]+(?:verbessert|verschlechtert|verändert|geändert|verbeterd|verslechterd|"
    r"veranderd)(?![\w-])|[ \u00a0]?[の的]?(?:改善|改进|改進|改良|变化|變化|変化|変動|悪化|恶化|개선|"
    r"변화|악화)", re.IGNORECASE)
# Every word ``_changed_other`` reads holds one of these.
_CHANGED_MARKS = re.compile("amélior|dégrad|détérior|empir|changé|varié|évolué|verbesser|"
                            "verschlechter|veränder|geänder|mejor|empeor|cambi|vari|miglior|"
                            "peggior|melhor|pior|mud|verbeter|verslechter|verander|改善|改进|改進|"
                            "改良|变化|變化|変化|変動|悪化|恶化|개선|변화|악화", re.IGNORECASE)


# Rise and fall words that make the figure just after them (or after "by") the size of a
# change: "rose 4.6%", "fell by 120", "up 3,100". Not "gained" or "lost", which also say how
# many of a thing were won or lost ("gained 32 new followers", "lost 2 games").
_STATED_CHANGE = (FALL_BEFORE | RISE_BEFORE) - {"lost", "loses", "gained", "gains"} \
    - TRANSITIVE_BEFORE
# As a trie whose first letters are literals, so that ``re`` skips every other position (a
# plain alternation between word boundaries cost 7 µs on a 300-character answer).
# Each a word of a-z: whether the text says one is a set test on its words (``az_words``).
_STATED_CHANGE_BYTES = frozenset(word.encode() for word in _STATED_CHANGE)
assert all(word.isascii() and word.isalpha() and word.islower() for word in _STATED_CHANGE)
# Before "up" or "down" and a number that is no percentage, what makes them a change ("is up
# 3,100", ", down 120"); after a verb they end a phrasal verb ("set up 3 campaigns", "pick up
# 2 items", "went down 2 floors").
_BE_WORDS = frozenset("is are was were been be 's it's they're".split())


# After a whole number, a second one joined by a hyphen or a dash: "102-98", a score.
_SCORE_AFTER = re.compile(r"[-–]\d{1,3}(?!\d|[.,]\d|[ \u00a0]?%|[-–]\d)")


def _stated_change(text: str, mention: Mention) -> str:
    """The rise or fall word of ``_STATED_CHANGE`` that makes ``mention`` the size of a change
    (``change_word_before``), or "" when there is none."""
    word = change_word_before(text, mention.start)
    if word not in _STATED_CHANGE:
        return ""
    if not mention.percent and _SCORE_AFTER.match(text, mention.end):
        return ""       # "fell 102-98", "dropped 3-2": a score or a record, no change
    if word in ("up", "down") and phrasal_up_down(text, mention):
        return ""
    return word


def phrasal_up_down(text: str, mention: Mention) -> bool:
    """Whether "up" or "down" (maybe with "by") just before ``mention``, a number that is no
    percentage, ends a phrasal verb ("set up 3 campaigns", "racked up 96,120 views", "went down
    2 floors") rather than saying a change ("is up 3,100", ", down 120", "up 3.1%")."""
    if mention.percent:
        return False
    words = text[max(0, mention.start - 40):mention.start].split()
    at = len(words) - (2 if words and words[-1].lower() == "by" else 1)
    return at >= 1 and words[at - 1][-1:] not in ",;:(" \
        and words[at - 1].lower().replace("’", "'") not in _BE_WORDS


# The same in German, French, Spanish, Italian, Portuguese and Dutch, in the text's locale: a
# word of ``CHANGE_OTHER`` just before the figure, maybe with the language's words for "by"
# between ("ont baissé de 48 210", "bajaron en 48.210", "subió un 4,6 %", "scese di 48.210",
# "caíram 48.210", "sanken um 48.210", "daalden met 48.210"), or in German and Dutch after
# "um" or "met" and the figure, maybe with its noun ("sind um 48.210 (Aufrufe) gesunken", "zijn
# met 48.210 gedaald"). Not the words for "to" or "from" ("auf 48.210 gesunken", "subió al
# 4,6 %", "von 52.000 auf 48.210"), nor a noun without its "by" ("Rückgang: 48.210"); a figure
# followed by "to" and another figure is the first of two levels ("baissé de 52 000 à 48
# 210"), unless it is a percentage and the other is not (a change then the level reached).
_BY_LINKS = {"de": frozenset({"um"}), "fr": frozenset({"de", "d'", "d’"}),
             "es": frozenset({"en", "un", "una", "del"}),
             "it": frozenset({"di", "del", "dell'", "dell’", "dello", "della"}),
             "pt": frozenset({"em"}), "nl": frozenset({"met"})}
# The words of ``CHANGE_OTHER`` that are nouns: they say a change only with a "by" after them.
_CHANGE_NOUNS = frozenset(
    "baisse diminution recul chute hausse augmentation progression rückgang abnahme anstieg "
    "zuwachs zunahme bajada baja caída disminución descenso retroceso subida aumento "
    "crecimiento alza calo diminuzione ribasso flessione crescita rialzo incremento queda "
    "redução recuo baixa alta crescimento daling afname stijging toename".split())
# As a trie whose first letters are literals: whether to read them.
_CHANGE_OTHER_WORD = re.compile(_trie(sorted(CHANGE_OTHER), guard=r"[^\W\d_]")
                                + r"(?![^\W\d_])")
# After a figure, the word for "to" and another figure: "à 48 210", "auf 48.210", "al 4,6 %".
_TO_FIGURE = re.compile(r"[ \u00a0]+(?:à|a|al|ai|all['’]|auf|bis|naar|tot|para|hasta|até|ao)"
                        r"[ \u00a0]*[0-9](?:[0-9.,\u00a0\u202f]| (?=[0-9]))*(?P<pct>[ \u00a0]?%)?")


def _stated_change_other(text: str, mention: Mention, lang: str) -> tuple[str, str]:
    """(the word of another language that makes ``mention`` the size of a change, "fall",
    "rise" or "change"), or ("", "") when there is none; ``lang`` is the locale's language."""
    start = mention.start
    if lang in _CJK_CHANGE:
        return _stated_change_cjk(text, mention, lang)
    words = text[max(0, start - 40):start].lower().split()[-4:]
    if start > 40:
        words = words[1:]           # the first may be the end of a longer word
    links = _BY_LINKS[lang]
    link = ""
    for _ in range(2):              # "aumentó en un 8 %"
        if words and words[-1] in links:
            link = words.pop()
    if link in ("en", "em") and unit_after(text, mention.end, lang) in _TIME_UNITS:
        return "", ""               # "bajaron en 30 días": in, not by
    word = words[-1] if words else ""
    if word[-1:] in ",;:":
        return "", ""               # "daalden, met 48.210 weergaven": with, not by
    word = word.strip(_CONTEXT_STRIP)
    if word in CHANGE_OTHER and (link or word not in _CHANGE_NOUNS):
        word, way = f"{word} {link}" if link else word, "fall" if word in FALL_OTHER else "rise"
    elif link and lang in ("de", "nl") and _verb_after(text, mention.end):
        word, way = link, "change"  # "um 48.210 gesunken": the verb after the figure
    else:
        return "", ""
    pair = _TO_FIGURE.match(text, mention.end)
    if pair is not None and not (mention.percent and pair.group("pct") is None):
        return "", ""               # "baissé de 52 000 à 48 210": two levels
    return word, way


# In Chinese and Japanese: by language, a search for a change word (whether to read at all),
# the change word just before the figure, maybe with 了 ("下降了48,210", "增长4.6%"; not
# "降至48,210", "增加到", nor 新增, the count of new ones), and the one just after it, maybe after
# a counter or の ("48,210回減少しました", "4.6%の上昇"; not "48,210回に減少", to the level).
_CJK_FALL, _CJK_RISE = "下降 下跌 减少 減少 降低 下滑 回落", "增长 增長 增加 上升 上涨 上漲 提高 提升"
_JA_FALL, _JA_RISE = "減少|低下|下落|ダウン|減っ|減り", "増加|上昇|アップ|増え"
# A counter between a figure and the word after it (回, 件, 人, ポイント...).
_JA_COUNTER = "[\u4e00-\u9fff\u30a0-\u30ff]{0,2}?"
_CJK_CHANGE = {
    "zh": (re.compile(f"{'|'.join((_CJK_FALL + ' ' + _CJK_RISE).split())}|[降跌减增涨]了?[至到]"),
           re.compile(rf"(?<!新)(?:({'|'.join(_CJK_FALL.split())})|"
                      rf"({'|'.join(_CJK_RISE.split())}))了? ?\Z"), None),
    "ja": (re.compile(f"{_JA_FALL}|{_JA_RISE}"), None,
           re.compile(f"{_JA_COUNTER}の? ?(?:({_JA_FALL})|({_JA_RISE}))")),
}


def _stated_change_cjk(text: str, mention: Mention, lang: str) -> tuple[str, str]:
    """``_stated_change_other`` in Chinese or Japanese (``_CJK_CHANGE``)."""
    _, before, after = _CJK_CHANGE[lang]
    found = before.search(text, max(0, mention.start - 6), mention.start) if before else None
    if found is None and after is not None:
        found = after.match(text, mention.end)
    if found is None:
        return "", ""
    return found.group(0).strip(), "fall" if found.group(1) else "rise"


# Between two levels in Chinese (从52,000降至48,210, 由52,000增长到60,000; the first after 从 or
# 由), and in Japanese between them (52,000回から) and after the second (48,210回に減少).
_CJK_LEVELS_ZH = re.compile(rf" ?(?:({'|'.join(_CJK_FALL.split())}|跌|降|减)|"
                            rf"({'|'.join(_CJK_RISE.split())}|涨|增))了?(?:至|到) ?")
_CJK_FROM_JA = re.compile(f"{_JA_COUNTER}から ?")
_CJK_TO_JA = re.compile(f"{_JA_COUNTER}(?:に|へ|まで)と? ?(?:({_JA_FALL})|({_JA_RISE}))")


def _level_pairs(mentions: Sequence[Mention],
                 magnitudes: Collection[Decimal]) -> Iterator[tuple[Mention, Mention]]:
    """Each two figures in a row that may be an old and a new level: both with a value, both
    percentages or neither, the first not the size of a change the evidence holds."""
    for old, new in zip(mentions, mentions[1:]):
        if old.kind in _FIGURE_KINDS and new.kind in _FIGURE_KINDS and old.value is not None \
                and new.value is not None and old.percent == new.percent \
                and abs(old.value) not in magnitudes:
            yield old, new


def _levels_cjk(text: str, mentions: Sequence[Mention], findings: list[Finding], lang: str,
                magnitudes: Collection[Decimal]) -> None:
    """``_levels`` in Chinese or Japanese: 浏览量从48,210降至52,000 and
    再生回数は48,210回から52,000回に減少 are flagged on 52,000."""
    done = {(f.start, f.end) for f in findings}
    for old, new in _level_pairs(mentions, magnitudes):
        if lang == "zh":
            found = _CJK_LEVELS_ZH.fullmatch(text, old.end, new.start)
            if found is None or text[:old.start].rstrip()[-1:] not in ("从", "由"):
                continue
        else:
            found = _CJK_TO_JA.match(text, new.end) \
                if _CJK_FROM_JA.fullmatch(text, old.end, new.start) else None
            if found is None:
                continue
        fall = found.group(1) is not None
        if (new.value < old.value) != fall or new.value == old.value:
            _wrong_way(findings, done, old, new, fall, text[old.start:found.end()]
                       if found.end() > new.end else text[old.start - 1:new.end])


def _verb_after(text: str, end: int) -> str:
    """The word of ``CHANGE_OTHER`` after a figure that ends at ``end``, maybe after one noun:
    the German or Dutch verb at the end of its clause ("um 48.210 (Aufrufe) gesunken", "van
    52.000 naar 48.210 gedaald"); else ""."""
    words = text[end:end + 48].lower().split()[:2]
    if len(words) == 2 and words[0].isalpha() and words[0] not in _NOT_A_NOUN:
        del words[0]                    # "48.210 Aufrufe gesunken": the noun of the level
    word = words[0].strip(_CONTEXT_STRIP) if words else ""
    return word if word in CHANGE_OTHER else ""


def _changed_other(text: str, mention: Mention) -> bool:
    """Whether a word of ``_CHANGED_OTHER`` (or a CJK one) stands just before the unsigned
    figure, past the little words of ``_CHANGED_LINKS``, or one of ``_CHANGED_AFTER_OTHER``
    just after it. The words before are read from a window of 40 characters."""
    start = mention.start
    kept = text[max(0, start - 40):start].rstrip(" \u00a0")
    last = kept[-1:]
    if last == "'" or last == "’":
        kept = kept[:-1]                                    # "migliorato dell'8%"
        last = kept[-1:]
    if last.isalpha() and _is_cjk(last):
        if (kept[:-1] if last == "了" else kept).endswith(_CHANGED_CJK):
            return True
    elif last.isalpha():
        words = kept.lower().split()[-4:]
        if start > 40:
            words = words[1:]       # the first may be the end of a longer word
        for _ in range(2):
            if words and words[-1] in _CHANGED_LINKS:
                words = words[:-1]
        if words and words[-1].lstrip(_OPENING) in _CHANGED_OTHER:
            return True
    return _CHANGED_AFTER_OTHER.match(text, mention.end) is not None


_OPENING = "([{\"'“‘«"
# Every word and arrow ``_trend`` reads, and every word of ``CHANGED_BEFORE``, holds one of
# these: a text with none of them is not read for directions at all.
_TREND_MARKS = ("down", "fell", "fall", "drop", "declin", "decreas", "lost", "los", "dip",
                "slip", "sank", "sunk", "shr", "plu", "tumbl", "slid", "lower", "less", "fewer",
                "up", "rose", "rise", "risen", "grew", "grow", "gain", "increas", "climb",
                "jump", "surg", "soar", "higher", "more", "improv", "worsen", "chang", "moved",
                "shift", "minus", "eased", "eases", "retreat", "soften", "weaken", "skid", "shed",
                "cut", "reduc", "trim", "slash", "rall", "advanc", "rais", "hike", "boost", "lift",
                "gave", "give", "pull", "slump", "tanked", "sagg", "s off", "re off", "▼", "↓",
                "⬇", "🔻", "▲", "↑", "⬆", "🔺")


# The same for the words of other languages: each of them holds one of these.
_TREND_MARKS_OTHER = re.compile(
    "baiss|diminu|disminu|recul|chut|hauss|augment|aument|progress|grimp|bondi|moins|gesunken|"
    "gefallen|zurückgeg|sank|fiel|sinkt|fällt|rückgang|abnahme|weniger|niedriger|gestiegen|"
    "gewachsen|stieg|wuchs|steigt|wächst|anstieg|zuwachs|zunahme|mehr|höher|baj|cay|caí|descen|"
    "retroce|sub|crec|alza|más|menos|calo|cala|sces|ribass|flession|sal|cresc|rialz|incremento|"
    "meno|più|caiu|queda|redução|recu|alta|baix|mais|gedaald|daal|daling|gezakt|zakte|afgenomen|"
    "afname|gestegen|steeg|stegen|stijging|gegroeid|groeide|toegenomen|toename|minder|meer|hoger|"
    "lager|下降|下跌|减|減|降|下滑|回落|跌|增|増|上升|上涨|上漲|提高|提升|涨|低下|下落|上昇|ダウン|"
    "アップ|下が|上が|zurück|nach oben|nach unten|"
    "감소|하락|줄|떨어|증가|상승|늘|올라|amélior|verbesser|mejor|miglior|melhor|verbeter|"
    "dégrad|détérior|empir|verschlechter|empeor|peggior|pior|verslechter|改善|改进|改進|改良|"
    "悪化|恶化|개선|악화|varié|varia|veränder|geänder|cambia|cambió|mudou|mudad|verander|变化|變化|"
    "変化|変動|변화|"
    "verringer|reduz|reduj|reduc|réduit|ridott|schrumpf|erhöht|genommen|caen|caem|scend|nahm|"
    "nimmt|nehmen|"
    "マイナス|プラス|少な|多く")


def _may_trend(low: str) -> bool:
    """Whether the lower-cased text holds a word or an arrow ``_trend`` reads."""
    return any(mark in low for mark in _TREND_MARKS) or _TREND_MARKS_OTHER.search(low) is not None


def _change_words_beside(text: str, mention: Mention) -> bool:
    """Whether a word of a change (``_TREND_MARKS``, ``_TREND_MARKS_OTHER``) stands among the
    three words before ``mention`` in its clause or the two after it: "Sales fell -15%" says
    a change, "Jetzt -15 % auf das Notebook" a discount."""
    head = _CLAUSE_BREAK.split(text[max(0, mention.start - 40):mention.start])[-1]
    words = head.lower().split()[-3:] + text[mention.end:mention.end + 32].lower().split()[:2]
    return any(word.startswith(_TREND_MARKS) or _TREND_MARKS_OTHER.match(word) is not None
               for word in words)


_CLAUSE_BREAK = re.compile(r"[.:;!?\n]")
# After one unit of a currency, what gives its rate in another: "1 USD = 0.9187 EUR", "$1 =
# €0.9187", "1 USD equals 0.9187 EUR" (the 1 is no figure, ``_Judge._number``).
_RATE_UNIT = re.compile(r"[ \t\u00a0]*(?:=|≈|equals|is worth|buys)[ \t\u00a0]*"
                        r"(?:[A-Z]{3}[ \t\u00a0]?|[^\w\s])?[0-9]")
# An amount that gives an exchange rate (``_exchange_rate``): one unit of a currency before it,
# with what it is worth ("1 USD = 0.9187 EUR", "$1 = €0.9187", "One US dollar buys 0.9187
# euros"), or the other currency after it ("0.9187 EUR per USD", "0.92 euros to the dollar").
_RATE_BEFORE = re.compile(r"(?i)(?<![\w.,])(?:1|one|a|an|each)(?![\w.,])[^=≈\d\n]{0,24}"
                          r"(?:=|≈|equals|is worth|buys|gets(?: you)?)[ \t\u00a0]*\Z")
_RATE_AFTER = re.compile(
    r"[ \t\u00a0]*(?:per|/|for each|for one|for 1|to the|to one|to 1)[ \t\u00a0]*"
    r"(?:[A-Z]{3}(?![A-Za-z])|[$€£¥₹]|(?:US |U\.S\. )?(?:dollar|euro|yen|franc|peso|rupee|"
    r"yuan|won|krona|krone|real|rand)s?(?![A-Za-z]))")


def _exchange_rate(text: str, mention: Mention) -> bool:
    """Whether the amount ``mention`` is an exchange rate by the words around it
    (``_RATE_BEFORE``, ``_RATE_AFTER``): held as a number, not an amount of money."""
    return _RATE_AFTER.match(text, mention.end) is not None \
        or _RATE_BEFORE.search(text, max(0, mention.start - 40), mention.start) is not None


# Words that say an amount is below zero, a debit or a fall, in the clause of an unsigned amount
# that a balance below zero backs (``_negative_cue``): "overdrawn by $42.10", "you owe $42.10",
# "a $78.42 charge". Not "spend" nor "have", which say money there is.
_NEGATIVE_CUE = re.compile(
    r"(?i)(?<![^\W\d_])(?:overdrawn|overdraft|owe[ds]?|owing|negative|minus|deficit|shortfall|"
    r"in the red|below zero|debit(?:s|ed)?|charge[sd]?|spent|paid|payments?|purchases?|bought|"
    r"withdr(?:awals?|ew|awn)|fees?|refund(?:s|ed)?|credit(?:s|ed)?|deduct(?:ed|ions?)?|"
    r"discount(?:s|ed)?|loss(?:es)?|lost|down|fell|fallen|dropped|decreased|declined|"
    r"reduced|short|behind|past due|outstanding|costs?)(?![^\W\d_])")
# Right before an amount, words that state an overdraft: "overdrawn by $42.10", "in the red by".
_OVERDRAWN_BEFORE = re.compile(r"(?i)(?<![^\W\d_])(overdrawn(?: by)?|in the red by|"
                               r"overdraft of)[ \t\u00a0]*\Z")


def _negative_cue(text: str, mention: Mention) -> bool:
    """Whether a word of ``_NEGATIVE_CUE`` stands in the clause of ``mention`` (cut at a stop,
    a colon, a semicolon, a comma, a line break), within 60 characters before it or 40 after."""
    head = re.split(r"[.:;!?,\n]", text[max(0, mention.start - 60):mention.start])[-1]
    tail = re.split(r"[.:;!?,\n]", text[mention.end:mention.end + 40])[0]
    return _NEGATIVE_CUE.search(head) is not None or _NEGATIVE_CUE.search(tail) is not None


def _trend(text: str, mention: Mention) -> int:
    """-1 or 1 when a direction word or arrow stands just before or after an unsigned figure
    ("fell 12.5%", "120 more views", "▲2.3%"), else 0. The words before are read from a
    window of 40 characters (a word cut by its start is dropped), not searched for."""
    if mention.sign is not None:
        return 0
    return _trend_at(text, mention.start, mention.end)


def _trend_at(text: str, start: int, end: int) -> int:
    """``_trend`` of the unsigned figure at ``start``:``end``."""
    kept = text[max(0, start - 40):start].rstrip(" \u00a0")
    last = kept[-1:]
    if last and last in _FALL_ARROWS:
        return -1
    if last and last in _RISE_ARROWS:
        return 1
    if last and last in "'’" and (kept[-5:-1].lower() == "dell" or kept[-3:-1].lower() == " d"):
        kept, last = kept[:-1], kept[-2:-1]                 # "calo dell'8%", "hausse d'8 %"
    if last.isalpha() and _is_cjk(last):
        kept = kept[:-1] if last == "了" else kept          # 下降了12.5%
        if kept.endswith(_FALL_CJK):
            return -1
        if kept.endswith(_RISE_CJK):
            return 1
    elif last.isalpha():
        kept, cut = _past_comparison(text, start, kept)
        words = kept.lower().split()[-4:]
        if cut:
            words = words[1:]       # the first may be the end of a longer word
        if words and words[-1] == "by":     # "fell by 120", "lower by 5%"
            words = words[:-1]
            if words and words[-1] in ("lower", "higher"):
                return -1 if words[-1] == "lower" else 1
            if len(words) >= 2 and words[-1] not in _FALL_BEFORE and words[-1] not in _RISE_BEFORE:
                # "cut rates by 25 bps", "raised its target range by 25 bps"
                more = kept.lower().split()[-6:-1]
                if start > 40 and len(more) == len(kept.split()) - 1:
                    more = more[1:]     # the first may be the end of a longer word
                for verb in reversed(more[-4:-1]):
                    if verb in _VERB_FALL:
                        return -1
                    if verb in _VERB_RISE:
                        return 1
        elif len(words) >= 3 and words[-1] == "of" and (
                words[-3] in ("a", "an") or len(words) >= 4 and words[-4] in ("a", "an")):
            noun = words[-2]        # "a drop of 3", "an increase of 5%", "a rate hike of 25 bps"
            return -1 if noun in _FALL_NOUNS else 1 if noun in _RISE_NOUNS else 0
        else:
            for _ in range(2):      # "baissé de 12,5 %", "aumentó en un 12,5 %"
                if words and words[-1] in _TREND_LINKS:
                    link, words = words[-1], words[:-1]
                    if words and words[-1] in ("plus", "minus") and link != "von":
                        words = []              # "plus de 12 %" is "more than 12 %"
            if words and words[-1] == "sich":
                words = words[:-1]              # "verringerte sich um 3,2 %"
        if len(words) >= 2:
            if (words[-2], words[-1]) in _FALL_PAIRS:
                return -1                               # "gave up 1.3%", "pulled back 1.3%"
            if words[-2] in _DRIFT_VERBS and words[-1] in ("lower", "higher"):
                return -1 if words[-1] == "lower" else 1    # "edged lower 1.3%"
        if words:
            word = words[-1].lstrip(_OPENING)
            if word in _FALL_BEFORE:
                return -1
            if word in _RISE_BEFORE:
                return 1
            if word in _TAKE_VERBS and (found := _TAKE_PARTICLE.match(text, end)):
                return -1 if found.group(1) == "ab" else 1
    if last == "(" or kept.endswith(" or"):
        said = _SAID_AGAIN.search(text, max(0, start - 40), start)
        if said is not None:
            return _trend_at(text, said.start(), said.start() + len(said.group().rstrip(" (,or\u00a0")))
    found = _TREND_AFTER.match(text, end)
    if found is None:
        found = _TREND_AFTER_OTHER.match(text, end)
        if found is None:
            return 0
        return -1 if found.group("fall") or found.group("cfall") else 1
    return -1 if found.group("fall") else 1


# A comparison between a direction word and its figure, read past (probe i18n2 f3): "fell week
# over week by 3.2%", "dropped vs. last week by", "sanken gegenüber der Vorwoche um", "sank im
# Vergleich zum Vormonat um", "ont baissé par rapport à la semaine dernière de", "bajaron
# respecto a la semana anterior un", "calati rispetto alla settimana scorsa del". Read only when
# the word before the figure's "by" ends such a phrase (``_COMPARED_LAST``), one set test.
_PERIODS_EN = r"(?:week|month|year|quarter|day)"
_COMPARED_BEFORE = re.compile(
    r"[ \u00a0,]+(?:"
    rf"{_PERIODS_EN}[ \u00a0-]+(?:over|on)[ \u00a0-]+{_PERIODS_EN}"
    r"|(?:vs\.?|versus|compared[ \u00a0]+(?:to|with))[ \u00a0]+(?:the[ \u00a0]+)?"
    rf"(?:last|previous|prior|same)[ \u00a0]+{_PERIODS_EN}(?:[ \u00a0]+(?:ago|before))?"
    r"|wow|mom|yoy|qoq"
    r"|(?:gegenüber|im[ \u00a0]+vergleich[ \u00a0]+zu[mr]?|verglichen[ \u00a0]+mit)[ \u00a0]+"
    r"(?:de[mr][ \u00a0]+)?(?:vorwoche|vormonat|vorjahr|vortag|vorquartal|"
    r"(?:letzten|vergangenen|vorherigen)[ \u00a0]+(?:woche|monat|jahr|quartal))"
    r"|(?:par[ \u00a0]+rapport|comparée?s?)[ \u00a0]+(?:à[ \u00a0]+la|à[ \u00a0]+l['’]|au)[ \u00a0]*"
    r"(?:semaine|mois|année|an|trimestre|jour|veille)"
    r"(?:[ \u00a0]+(?:dernière|dernier|précédente|précédent|passée|passé))?"
    r"|sur[ \u00a0]+(?:un[ \u00a0]+an|une[ \u00a0]+semaine|un[ \u00a0]+mois)"
    r"|(?:respecto[ \u00a0]+a|frente[ \u00a0]+a|en[ \u00a0]+comparación[ \u00a0]+con)"
    r"(?:[ \u00a0]+la|l)?[ \u00a0]+(?:semana|mes|año|trimestre|día)"
    r"(?:[ \u00a0]+(?:anterior|pasad[oa]))?"
    r"|rispetto[ \u00a0]+a(?:l|lla|ll['’])?[ \u00a0]*(?:settimana|mese|anno|trimestre|giorno)"
    r"(?:[ \u00a0]+(?:precedente|scors[oa]))?"
    r"|(?:em[ \u00a0]+relação|comparad[oa]s?)[ \u00a0]+(?:à|ao|a|com[ \u00a0]+[ao])[ \u00a0]+"
    r"(?:semana|mês|ano|trimestre|dia)(?:[ \u00a0]+(?:anterior|passad[oa]))?"
    r"),?(?P<link>[ \u00a0]+(?:by|um|de|d['’]|du|del|di|en|un|una|em|met|von))?\Z")
_COMPARED_LAST = frozenset(
    "week month year quarter day ago before wow mom yoy qoq vorwoche vormonat vorjahr vortag "
    "vorquartal woche monat jahr quartal semaine mois année an trimestre jour veille dernière "
    "dernier précédente précédent passée passé semana mes año día anterior pasado pasada "
    "settimana mese anno giorno precedente scorso scorsa mês ano dia passado passada".split())
_COMPARED_LINKS = frozenset("by um de d' d’ du del di en un una em met von".split())


def _past_comparison(text: str, start: int, kept: str) -> tuple[str, bool]:
    """``kept`` (the 40 characters before a figure at ``start``) without a comparison phrase
    that ends it (``_COMPARED_BEFORE``), its "by" kept: "fell week over week by" is read as
    "fell by". Also whether its first word may be the end of a longer one."""
    words = kept.lower().split()[-2:]
    if words and words[-1] in _COMPARED_LINKS:
        del words[-1]
    if not words or words[-1].rstrip(",") not in _COMPARED_LAST:
        return kept, start > 40
    head = text[max(0, start - 120):start].rstrip(" \u00a0").lower()
    found = _COMPARED_BEFORE.search(head)
    if found is None:
        return kept, start > 40
    before = head[:found.start()]
    return before[-40:] + (found.group("link") or ""), len(before) > 40 or start > 120


# Between the two levels of "fell from 45,830 to 41,200" (group 1) or "fell to 41,200 from
# 45,830".
_LEVELS_BETWEEN = re.compile(r"[ \t\u00a0]*(?:(to|→|->)|from)[ \t\u00a0]*\Z", re.IGNORECASE)
# Between a direction word and "from": "fell sharply from", "went down from".
_LEVELS_ADVERBS = frozenset("sharply slightly steadily steeply gradually quickly rapidly "
                            "significantly dramatically further all the way".split())


def _levels(text: str, low: str, mentions: Sequence[Mention],
            findings: list[Finding]) -> None:
    """A fall or a rise from one level to another ("Views fell from 45,830 to 41,200", "rose
    from 3.1% to 4.6%", "dropped to $79 from $99") states the direction between them: the new
    level must be below the old for a fall, above it for a rise. Each level is judged as a
    figure on its own; a pair that goes the wrong way adds a finding on the new level (the
    message names both), unless it has one. ``low`` is ``text`` lower-cased; read only when
    the text says "from "."""
    if len(low) != len(text):
        low = _ascii_lower(text)
    done = {(f.start, f.end) for f in findings}
    for first, second in zip(mentions, mentions[1:]):
        if first.kind not in _FIGURE_KINDS or second.kind not in _FIGURE_KINDS \
                or first.value is None or second.value is None:
            continue
        between = _LEVELS_BETWEEN.match(text[first.end:second.start])
        lead = "from " if between is not None and between.group(1) else "to "
        if between is None or not low.endswith(lead, 0, first.start):
            continue
        old, new = (first, second) if lead == "from " else (second, first)
        words = low[max(0, first.start - 48):first.start].split()[:-1]
        while words and words[-1] in _LEVELS_ADVERBS:
            words.pop()
        said = words[-1] if words else ""
        fall = said in FALL_BEFORE
        if not fall and said not in RISE_BEFORE:
            continue
        if (new.value < old.value) != fall or new.value == old.value:
            _wrong_way(findings, done, old, new, fall,
                       f"{said} {text[first.start - len(lead):second.end]}")


# A rate moved by a fraction of a point in words: "a quarter-point cut", "a half-point hike", "a
# three-quarter-point increase", "a quarter percentage point cut".
_POINT_MOVE = re.compile(
    r"(?i)(?<![\w-])(three[- ]quarters?|quarter|half)[- ](?:of[- ]a[- ])?(?:percentage[- ])?"
    r"point[- ](?:(?P<fall>cut|reduction|decrease|drop|decline)|(?P<rise>hike|increase|rise|raise))"
    r"(?![\w-])"
    # or after a verb of a change, its object of up to three words and "by": "cut rates by a
    # quarter point", "raised its target range by half a percentage point"
    rf"|(?<![\w-])(?P<verb>{'|'.join(sorted(_VERB_FALL | _VERB_RISE, key=len, reverse=True))})"
    r"(?:[ \u00a0]+[a-z]+){0,3}?[ \u00a0]+by[ \u00a0]+(?:an?[ \u00a0]+)?"
    r"(?P<size>three[- ]quarters?|quarter|half)(?:[- ]a)?[- ](?:of[- ]a[- ])?(?:percentage[- ])?"
    r"points?(?![\w-])")
_POINT_SIZES = {"quarter": Decimal(25), "half": Decimal(50)}


def _point_moves(text: str, changes: Collection[tuple[Decimal, bool]],
                 findings: list[Finding]) -> None:
    """A move of a fraction of a point said in words ("a quarter-point cut") is a change of 25
    basis points (or 0.25 points): the evidence must hold it with that sign, in either unit
    ("last_change_bps: -25", "rate_change_pct: -0.25"); a cut of a hike or a half point of a
    quarter is flagged."""
    for found in _POINT_MOVE.finditer(text):
        verb = found.group("verb")
        if verb is not None:
            size, sign = found.group("size"), -1 if verb.lower() in _VERB_FALL else 1
        else:
            size, sign = found.group(1), -1 if found.group("fall") else 1
        size = _POINT_SIZES.get(size.lower(), Decimal(75))
        sizes = (size * sign, size * sign / 100)
        if any((value, percent) in changes for value in sizes for percent in (False, True)):
            continue
        held = [plain_decimal(-v) for v in sizes if (-v, False) in changes or (-v, True) in changes]
        message = (f"'{found.group()}' is a change of {plain_decimal(sizes[0])} basis points; "
                   + (f"the evidence holds a change of {held[0]}" if held
                      else "the evidence holds no such change"))
        findings.append(_new_finding("word_number", found.group(), plain_decimal(sizes[0]),
                                     found.start(), found.end(), "unsupported_number", message))


# A quarter in words ("the third quarter", "fiscal first-quarter revenue"), and a quarter in
# a code of the evidence ("Q4 FY26", "FY26-Q4", "q3_2026"), case-folded.
_QUARTER_SAID = re.compile(r"(?i)(?<![\w-])(first|second|third|fourth|1st|2nd|3rd|4th)[- ]quarter"
                           r"(?![\w])")
_QUARTER_NUMBERS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3,
                    "fourth": 4, "4th": 4}
_QUARTER_CODE = re.compile(r"(?<![a-z])q([1-4])(?![0-9])")


def _quarters_said(text: str, codes: Collection[str], findings: list[Finding]) -> None:
    """A quarter said in words must be one the evidence names in a code ("Q4 FY26"): "fiscal
    third-quarter revenue" of a Q4 report is flagged. Not read when the evidence names no
    quarter (a game's "third quarter")."""
    held = {int(found.group(1)) for code in codes for found in _QUARTER_CODE.finditer(code)}
    if not held:
        return
    for found in _QUARTER_SAID.finditer(text):
        number = _QUARTER_NUMBERS[found.group(1).lower()]
        if number in held:
            continue
        findings.append(_new_finding(
            "word_number", found.group(), str(number), found.start(), found.end(),
            "unsupported_number", f"'{found.group()}' is Q{number}; the evidence names "
            + ", ".join(f"Q{q}" for q in sorted(held))))


def _wrong_way(findings: list[Finding], done: Collection[tuple[int, int]], old: Mention,
               new: Mention, fall: bool, said: str) -> None:
    """Adds the finding on the new level of a fall (``fall``) or a rise that goes the wrong
    way, ``said`` being the words that say it, unless the new level has a finding already."""
    if (new.start, new.end) in done:
        return
    way, went = ("fall", "not below") if fall else ("rise", "not above")
    findings.append(_new_finding(
        new.kind, new.text, plain_decimal(new.value), new.start, new.end, "unsupported_number",
        f"'{said}' says a {way}, but {new.text.strip()} is {went} {old.text.strip()}"))


# The same in German, French, Spanish, Italian, Portuguese and Dutch, in the text's locale: by
# language, a search for a word for "from" (whether to read at all), those words, and what
# stands between the two levels (the words for "to"): "baissé de X à Y", "von X auf Y
# gesunken", "bajó de X a Y", "bajó del X al Y", "è sceso da X a Y", "dal X al Y", "caiu de X
# para Y", "daalde van X naar Y". The change word stands before "from", maybe after an adverb,
# or in German and Dutch after the new level, maybe after its noun (``_verb_after``).
def _levels_table(starts: str, to: str) -> tuple[re.Pattern, frozenset[str], re.Pattern]:
    words = starts.split()
    return (re.compile(_trie(sorted(words), guard=r"[^\W\d_]") + r"(?![^\W\d_])"),
            frozenset(words),
            re.compile(rf"[ \t\u00a0]+(?:{'|'.join(to.split())})[ \t\u00a0]*"))


_LEVELS_OTHER = {
    "de": _levels_table("von", "auf"),
    "fr": _levels_table("de du", "à au"),
    "es": _levels_table("de del desde", "a al hasta"),
    "it": _levels_table("da dal dai dallo dalla dall' dall’", "a al ai allo alla all' all’"),
    "pt": _levels_table("de do da dos das desde", "para pra a ao até"),
    "nl": _levels_table("van", "naar tot"),
}
_LEVELS_ADVERBS_OTHER = frozenset(
    "fortement légèrement nettement sensiblement fortemente ligeramente considerablemente "
    "drásticamente bruscamente leggermente nettamente sensibilmente bastante stark leicht "
    "deutlich kräftig sterk licht flink fors".split())


def _levels_other(text: str, mentions: Sequence[Mention], findings: list[Finding], lang: str,
                  magnitudes: Collection[Decimal]) -> None:
    """``_levels`` in ``lang``, the locale's language (a key of ``_LEVELS_OTHER``): "Les vues
    ont baissé de 48 210 à 52 000" is flagged on 52 000. A first figure the evidence holds as
    a change, or a percentage before a figure that is none, is the size of a change then the
    level reached ("baissé de 3 790 à 48 210", "baissé de 8 % à 48 210"), not two levels."""
    _, starts, between = _LEVELS_OTHER[lang]
    done = {(f.start, f.end) for f in findings}
    for old, new in _level_pairs(mentions, magnitudes):
        if between.fullmatch(text, old.end, new.start) is None:
            continue
        window = text[max(0, old.start - 64):old.start].lower()
        words = window.split()
        if old.start > 64:
            words = words[1:]       # the first may be the end of a longer word
        if not words or words[-1] not in starts:
            continue
        span = text[old.start - len(window) + window.rindex(words.pop()):new.end]
        while words and words[-1] in _LEVELS_ADVERBS_OTHER:
            words.pop()
        said = words[-1] if words and words[-1][-1] not in ",;:.!?" else ""
        said = said.strip(_CONTEXT_STRIP)    # "bajaron; de 40 a 50 clics": another clause
        if said in CHANGE_OTHER:
            shown = f"{said} {span}"
        elif lang in ("de", "nl"):
            said = _verb_after(text, new.end)
            shown = f"{span} {said}"
        else:
            continue
        if not said:
            continue
        fall = said in FALL_OTHER
        if (new.value < old.value) != fall or new.value == old.value:
            _wrong_way(findings, done, old, new, fall, shown)


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
    # A mention is inside a span when the spans starting at or before it reach its end: a
    # bisection (``_by_start``), not a test of every span (a text of many frequencies,
    # magnitudes or exempt strings was quadratic).
    starts, reach = _by_start(spans)
    kept = []
    for m in mentions:
        at = bisect.bisect_right(starts, m.start)
        if not at or reach[at - 1] < m.end:
            kept.append(m)
    return kept


# What a quote does not make its author's: a link, a handle or an e-mail in it takes the
# customer somewhere, so it is judged as the answer's own ('Lin wrote: "my deal:
# https://spam.example/deal"' relays a review's link, which rule 11 never licenses).
_JUDGED_IN_QUOTES = frozenset({"url", "handle", "email"})


def _outside_quotes(mentions: list[Mention], asserted: Collection[int] = ()) -> list[Mention]:
    """A quote is judged whole: the figures inside it are the quoted author's, not the answer's,
    but not its links, handles and e-mails (``_JUDGED_IN_QUOTES``). The quotes at the indexes in
    ``asserted`` are the exception: what they hold is judged as the answer's own words
    (``_asserted_question_quotes``). One pass: mentions are sorted by start, so the covering
    quote only moves forward."""
    kept, covered_until = [], -1
    for index, mention in enumerate(mentions):
        if mention.kind == "quote":
            kept.append(mention)
            if index not in asserted:
                covered_until = max(covered_until, mention.end)
        elif mention.end > covered_until or mention.kind in _JUDGED_IN_QUOTES:
            kept.append(mention)
    return kept


# Words before a quote that give it to the user: "You asked", "you wrote", "your question".
_USERS_WORDS = re.compile(r"\byou(?:'ve|'re| have| are| were)?(?:[ \t\u00a0]+\w+){0,2}?"
                          r"[ \t\u00a0]+(?:ask|asked|asking|say|said|saying|write|wrote|writing|"
                          r"mention|mentioned|wonder|wondered|wondering|question|questioned|"
                          r"quote|quoted|type|typed|put it)\b"
                          r"|\byour (?:question|message|words|request)\b", re.IGNORECASE)


# An indirect question that gives the user's words back: "You asked whether it is $49 a month;
# it is $29." Its clause runs up to a stop, a semicolon, a comma or a dash.
_ASKED_WHETHER = re.compile(r"\byou(?:[ \t]+\w+)?[ \t]+(?:asked|ask|wondered|wonder|wanted to "
                            r"know|want to know|were asking|are asking)[ \t]+(?:me[ \t]+|us[ \t]+)?"
                            r"(?:whether|if)(?![\w'’])", re.IGNORECASE)
_WHETHER_END = re.compile(r"[;.!?\n](?!\d)|,[ \t]|[ \t][\u2013\u2014-][ \t]")


def _asked_whether(text: str, question: str, locale: str,
                   mentions: Sequence[Mention]) -> set[tuple[int, int]]:
    """The spans of the figures an indirect question gives back to the user ("You asked
    whether it is $49 a month; it is $29."): those of its clause that the question says, as in
    a quoted echo. None when the answer agrees with the question (``agreement``) or endorses
    the clause ('You asked whether it is $49, and you are right'): then they are its own."""
    found = list(_ASKED_WHETHER.finditer(text))
    if not found or agreement(text) is not None:
        return set()
    asked = {m.value for m in scan(question, locale) if m.value is not None}
    echoed = set()
    for clause in found:
        end = _WHETHER_END.search(text, clause.end())
        stop = end.start() if end else len(text)
        if endorsed(text, clause.end(), stop) or assent_near(text, clause.start(), stop):
            continue
        echoed |= {(m.start, m.end) for m in mentions
                   if clause.end() <= m.start and m.end <= stop and m.kind in _FIGURE_KINDS
                   and m.value is not None and m.value in asked}
    return echoed


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
        if not quoted or quoted not in asked or _found_whole(quoted, evidence.quote_text):
            continue
        if _agreed(text, mention):
            found.add(index)            # 'You asked "...?" Yes, it is true.': an assent
            continue
        if quoted.endswith("?"):
            continue
        sentence = max(text.rfind(mark, 0, mention.start) for mark in ".!?\n") + 1
        if not _USERS_WORDS.search(text, max(sentence, mention.start - 80), mention.start) \
                and not _DENIED.match(text, mention.end):
            found.add(index)
    return found


# A yes-or-no question about a state of things ("Is it $30?", "Did my post get 9,999 views?",
# "Will it arrive on July 10?"), whose figures an assent states; not a request for permission
# or advice ("Can I return my $200 jacket?", "Should I...").
_STATE_QUESTION = re.compile(
    r"[\s\"'“]*(?:so[, ]+|and[, ]+|also[, ]+|is it (?:true|correct|right) (?:that )?)?"
    r"(?:is|are|was|were|did|does|do|has|have|had|will|would|isn't|aren't|wasn't|didn't|"
    r"doesn't|hasn't|won't)(?![\w'’])", re.IGNORECASE)
# Words before a figure of the question that make it a bound, not a value an assent confirms:
# "under $50", "more than 1,000 views", "at least 10%", "by July 10".
_BOUND_BEFORE = frozenset("under over below above beyond within by before after until till "
                          "least most than upto".split())


def _agreed_figures(text: str, question: str, evidence: Evidence, locale: str,
                    mentions: Sequence[Mention],
                    settings: SweepSettings = SweepSettings()) -> list[Finding]:
    """An answer that opens with an assent ("Yes, it did.", "Absolutely!", "It did.", after a
    greeting too) to a yes-or-no question about a state of things ("Did my post get 9,999
    views?", "Is it $30?", "Will it arrive on July 10?") states the question's figures: each
    figure of a kind the evidence stores (an amount with its currency, a percentage, a number
    before a word the evidence counts or before a unit, a day) that the evidence does not hold
    is a finding on the assent. Not judged: a figure after a bound ("under $50", "by July 10"),
    a question that asks leave ("Can I return my $200 jacket?"), and a figure the answer writes
    itself (judged where it stands)."""
    found_assent = agreement(text)
    if found_assent is None or not _STATE_QUESTION.match(question):
        return []
    said = text[found_assent[0]:found_assent[1]]
    written = {m.value for m in mentions if m.value is not None} | {
        m.day for m in mentions if m.day is not None} | {
        m.normalized for m in mentions if m.kind == "date" and m.normalized}
    counted = evidence.counted
    found = []
    judged = []     # clock times and codes: judged as the sweep judges them (``_agreed_contacts``)
    asked = scan(question, locale)
    for mention in asked:
        if _word_before(question, mention.start) in _BOUND_BEFORE:
            continue
        value = mention.value
        if mention.kind == "date" and mention.time is not None:
            if _LEAVE.search(question, 0, mention.start) is None:
                judged.append(mention)      # "at 10:40 on May 8", not "Is it OK to come at 9:20?"
            continue
        if mention.kind == "number" and mention.glued:
            if _asked_code(question, mention):
                judged.append(mention)      # "in room B-241?", not "Is my COVID-19 booster due?"
                continue
            span = _code_span(question, mention)
            if span is not None and question[span[0]].isalpha():
                continue                    # a name's digits: "Is my vitamin B12 result in?"
        if mention.kind == "date":
            day, normal = mention.day, mention.normalized or ""
            if day is not None and day not in written:
                held, shown = day in evidence.days, day.isoformat()
            elif day is None and len(normal) == 7 and normal[:2] == "--" and normal not in written:
                held = any(f"--{held_day.month:02d}-{held_day.day:02d}" == normal
                           for held_day in evidence.days)
                shown = normal                  # "July 10": a day of no year
            else:
                continue
        elif mention.kind in _FIGURE_KINDS and value is not None and value not in written:
            if mention.percent:
                held = value in evidence.percents
            elif mention.currency is not None:
                # "Is it €60?" against $60.00: the amount in another currency is not held
                held = value in evidence.values \
                    and not evidence.other_currencies(value, mention.currency)
            elif _word_after(question, mention.end) in counted \
                    or unit_after(question, mention.end) is not None:
                held = value in evidence.values
            else:
                continue
            shown = str(value)
        else:
            continue
        if not held:
            found.append(_new_finding(
                "number", said, shown, found_assent[0], found_assent[1], "unsupported_number",
                f"agrees with {mention.text.strip()!r} in the question, "
                "which the evidence does not hold"))
    if may_say_free(question.casefold()):
        free = asked_free_held(question, evidence)     # "Is the Widget free?" (rule 15)
        if free is not None:
            found.append(_new_finding(
                "number", said, "0", found_assent[0], found_assent[1], "unsupported_number",
                f"agrees with {free[0]!r} in the question; the evidence holds {free[1]}"))
    if judged or "@" in question or "://" in question or "www." in question \
            or sum(c.isdigit() for c in question) >= 7:
        found += _agreed_contacts(text, question, evidence, locale, settings, found_assent,
                                  asked, judged)
    return found


# A code of the question: letters and digits, maybe joined by "-", "_", "/" or "." ("B-241",
# "EK9213", "REF-2026-0421").
_CODE_RUN = re.compile(r"[^\W_]+(?:[-_./][^\W_]+)*")


# Words that ask leave or advice about a time rather than state it: "Is it OK to come at 9:20?",
# "Is it too late to arrive at 9:50?"
_LEAVE = re.compile(r"\b(?:ok|okay|fine|alright|all right|possible|allowed|acceptable|too late|"
                    r"too early|enough time)\b", re.IGNORECASE)


def _asked_code(question: str, mention: Mention) -> bool:
    """Whether ``mention`` is a digit of a code the question asks about as its value: one that
    ends its clause ("Is my appointment in room B-241?", "Is the lot number EK9213?"), not a
    name the question speaks of ("Is my COVID-19 booster due?", "Is my vitamin B12 in?")."""
    span = _code_span(question, mention)
    return span is not None and question[span[1]:span[1] + 3].lstrip(" \"'”’)*_")[:1] in \
        ("?", ",", ";", "")


def _code_span(question: str, mention: Mention) -> tuple[int, int] | None:
    """The span of the code that holds the digits of ``mention`` ("B-241", "EK9213"): a run
    of letters and digits with a letter in it, else None."""
    start = mention.start
    while start and (question[start - 1].isalnum() or start > 1 and question[start - 1] in "-_./"
                     and question[start - 2].isalnum()):
        start -= 1
    found = _CODE_RUN.match(question, start)
    if found is None or found.end() < mention.end \
            or not any(c.isalpha() for c in found.group()):
        return None
    return found.span()


# A phone number of the question: seven digits or more, with a "+" or separators.
_PHONE_RUN = re.compile(r"\+?\(?\d[\d().\- \t]{5,}\d")


def _phone_runs(question: str) -> list[tuple[int, int]]:
    """The spans of the phone numbers in ``question`` ("+1 (555) 010-0199", "555-010-0199")."""
    return [found.span() for found in _PHONE_RUN.finditer(question)
            if sum(c.isdigit() for c in found.group()) >= 7
            and (found.group()[0] == "+" or not found.group().isdigit())]


def _agreed_contacts(text: str, question: str, evidence: Evidence, locale: str,
                     settings: SweepSettings, span: tuple[int, int],
                     asked: Sequence[Mention], judged: Sequence[Mention] = ()) -> list[Finding]:
    """An assent states every checkable mention of the question, not only its figures: each
    link, e-mail address and handle, each phone number, and each of ``judged`` (a clock time
    with its day: "at 10:40 on May 8", "arrive at 9:00"; a code: "room B-241", "lot EK9213")
    that the evidence does not hold ("Yes, it is." to "Is refunds@shop-help.example your
    support address?") is a finding on the assent, judged as the sweep judges it in the answer;
    one the answer writes itself is judged where it stands."""
    runs = _phone_runs(question)
    items: list[tuple[int, int]] = []
    chosen = []
    codes = set()
    for mention in asked:
        if mention.kind in _JUDGED_IN_QUOTES:
            items.append((mention.start, mention.end))
            chosen.append(mention)
        elif mention.kind == "number" and any(a <= mention.start and mention.end <= b
                                              for a, b in runs):
            chosen.append(mention)
        elif mention in judged:
            chosen.append(mention)
            if mention.kind == "date":
                items.append((mention.start, mention.end))
            else:
                codes.add(_code_span(question, mention))
    items += runs
    items += codes
    if not chosen:
        return []
    folded = text.casefold()
    said, found, done = text[span[0]:span[1]], [], set()
    for finding in sweep(question, evidence, settings, locale=locale, mentions=chosen):
        item = next(((a, b) for a, b in items if a <= finding.start and finding.end <= b), None)
        if item is None or item in done:
            continue
        done.add(item)
        shown = question[item[0]:item[1]]
        if shown.casefold() in folded:
            continue        # written in the answer too: judged there
        if item in codes and finding.code in ("small_integer", "name_digits"):
            continue        # "B214" for B-214: the user's spelling of a code the evidence holds
        kind = finding.kind if item not in runs else "number"
        value = finding.value if item not in runs else "".join(c for c in shown if c.isdigit())
        found.append(_new_finding(kind, said, value, span[0], span[1], finding.code,
                                  f"agrees with {shown!r} in the question, which the evidence "
                                  "does not hold"))
    return found


def _agreed(text: str, quote: Mention) -> bool:
    """Whether the answer assents to a quote of the question: the sentence that holds it, the
    one before or the one after opens with an assent that nothing qualifies
    (``rulekit.assent.assent_near``: 'Yes. As you put it, "..."'; 'You asked "...?" Yes, it is
    true.'), not "I can confirm it got 3,100" nor "No, it had 2,380"; or the words around it
    endorse it (``rulekit.assent.endorsed``: 'You wrote "...", and you are right')."""
    return assent_near(text, quote.start, quote.end) or endorsed(text, quote.start, quote.end)


# The marks of words left out of a quote: "...", "…" (squashed, NFKC makes it "..."), "[...]",
# "[…]", "(...)".
_ELISION = re.compile(r"[\[(]?(?:\.\.\.|\u2026)[\])]?")


def _elided_found(said: str, evidence: Evidence) -> bool:
    """Whether a quote with words left out ("Great boots ... the sole never came off", "... the
    sole never came off") is backed: each fragment, without the quote marks and final
    punctuation, found in order in one evidence text, cutting no word of it (``_word_edge``:
    "The staff were ... helpful" is not in "The staff were unhelpful"). Each fragment must be
    at least two words (four characters in a script without spaces), so that "Support was
    ... fast" cannot be stitched from single words; and what is left out may not deny ("It
    does [...] leak at all" for "It does not leak at all")."""
    fragments = []
    for part in _ELISION.split(said):
        squashed = squash(part).strip(".,!?;:>*_`")     # and Markdown's quote marks
        if not squashed:
            continue
        words = sum(any(c.isalnum() for c in word) for word in part.split())
        if words < 2 and (squashed.isascii() or len(squashed) < 4):
            return False
        fragments.append(squashed)
    if not fragments:
        return False
    sources = evidence.quote_sources or (None,) * len(evidence.quotes)
    for (text, _), source in zip(evidence.quotes, sources):
        if fragments[0] not in text:
            continue
        joints = _quote_joints(source) if source is not None else None
        at = -1
        for fragment in fragments:
            end = _found_from(fragment, text, max(at, 0), joints)
            if end < 0 or (at >= 0 and _DENYING.search(text, at, end - len(fragment))):
                break       # not there, or what was left out denies: "It does [...] leak"
            at = end
        else:
            return True
    return False


def _found_from(quoted: str, squashed: str, start: int,
                joints: frozenset[int] | None = None) -> int:
    """The end of the first occurrence of ``quoted`` in ``squashed`` at or after ``start``
    that cuts no number (as ``_found_whole``), nor a word when the places where words of
    ``squashed`` meet are given (``_word_edge``), or -1."""
    at = squashed.find(quoted, start)
    while at >= 0:
        end = at + len(quoted)
        if not (quoted[-1].isdigit() and _digit_at(squashed, end)) and \
                not (quoted[0].isdigit() and at and _digit_at_left(squashed, at)) and \
                (joints is None or _word_edge(squashed, at, joints)
                 and _word_edge(squashed, end, joints)):
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


def _found_in_words(quoted: str, evidence: Evidence) -> bool:
    """Whether ``quoted`` (squashed) occurs in one string of the evidence, cutting neither a
    number (``_found_whole``) nor a word: "helpful" is no quote of "The staff were unhelpful",
    nor "reliable" of "unreliable". A word ends where white space, a quote mark or a hyphen
    was squashed out of the evidence, or where a letter or digit meets anything else (a mark,
    a character of a script written without spaces)."""
    if not _found_whole(quoted, evidence.quote_text):
        return False
    if not evidence.quote_sources:      # an index built without its sources
        return True
    return any(quoted in squashed and _found_from(quoted, squashed, 0, _quote_joints(source)) >= 0
               for (squashed, _), source in zip(evidence.quotes, evidence.quote_sources))


def _quote_joints(source: str) -> frozenset[int]:
    """Where the words of an evidence string meet in its squashed form (``squash_joints``);
    a short string (an author's line, a title) through a cache, a long one read each time."""
    return _short_quote_joints(source) if len(source) <= 256 else squash_joints(source)[1]


@functools.lru_cache(maxsize=1024)
def _short_quote_joints(source: str) -> frozenset[int]:
    return squash_joints(source)[1]


def _word_edge(squashed: str, at: int, joints: frozenset[int]) -> bool:
    """Whether a quote may start or end at ``at`` of a squashed evidence string: at either end
    of it, where something was squashed out, or not between two letters or digits of a
    script written with spaces."""
    return at == 0 or at >= len(squashed) or at in joints \
        or not (_joins(squashed[at - 1]) and _joins(squashed[at]))


def _digit_at(text: str, at: int) -> bool:
    """Whether a number goes on at ``at``: a digit, or a separator and a digit (",5", ".99")."""
    char = text[at:at + 1]
    return char.isdigit() or (char in ".,'" and text[at + 1:at + 2].isdigit())


def _digit_at_left(text: str, at: int) -> bool:
    """Whether a number goes on before ``at``: a digit, or a digit and a separator."""
    char = text[at - 1]
    return char.isdigit() or (char in ".,'" and at >= 2 and text[at - 2].isdigit())


def _after_per(text: str, start: int) -> bool:
    """Whether a number at ``start`` is said after "per", or after a slash right after an
    amount ("$3.50/100g", "$3.50 / 100 g"): the base of a rate."""
    if _word_before(text, start) == "per":
        return True
    at = start
    while at and text[at - 1] in " \u00a0":
        at -= 1
    if not at or text[at - 1] != "/":
        return False
    at -= 1
    while at and text[at - 1] in " \u00a0":
        at -= 1
    return at > 0 and text[at - 1].isdigit()


def _base_words(base: tuple[Decimal, str | None]) -> str:
    """A base of a rate as a finding says it: "1000 calls", "100 grams", "call", "90"."""
    count, thing = base
    if thing is None:
        return plain_decimal(count)
    return thing if count == 1 else f"{plain_decimal(count)} {thing}s"


# The rest of a range after its first end, up to where its unit is written: "-20" of "15-20 min".
_RANGE_END = re.compile(r"[ \u00a0]?(?:-|\u2013|\u2014|to)[ \u00a0]?[0-9]+(?:[.,][0-9]+)?")


def _other_unit(text: str, mention: Mention,
                held: tuple[frozenset[str], frozenset[str]], lang: str) -> str | None:
    """What the answer says ``mention`` is counted in or per that is none of the units the
    evidence holds it in or per (``Evidence.units``): "months" for "a 2-month warranty" held in
    years, "per second" for "600 requests per second" held per minute; or None. The unit words
    are read in English and in ``lang``, the locale's language ("2 Monate", "par an")."""
    counted, per = held
    if mention.currency is not None and AS_MONEY in counted:
        counted = ()    # said as the money it is held as ("a $15 min. order")
    if counted:
        if mention.currency is not None:
            # "23 pounds", "£23" for 23 kilograms; but "5 pounds" may be the weight it holds
            written = mention.text.rsplit(None, 1)[-1] if " " in mention.text else ""
            if unit_word(written, lang) not in counted:
                return f"in {mention.currency}"
        said = unit_after(text, mention.end, lang)
        if said is None and mention.range_with is not None:
            # the first end of a range: "15-20 min" says both in minutes
            other = _RANGE_END.match(text, mention.end)
            said = unit_after(text, other.end(), lang) if other else None
        if said is not None and said not in counted:
            return f"in {plural(said)}"
    if per:
        # after it ("$14,250 a year"), else before it in its clause ("Annual tuition is $14,250")
        # (not for a total: "your total for the year is" names its window)
        said = per_after(text, mention.end, lang)
        if said is None and TOTAL not in per:
            said = per_before(text, mention.start, lang)
        if said is not None and said not in per:
            return "in total" if said == TOTAL else f"per {said}"
    return None


def _other_basis(text: str, mention: Mention, held: frozenset[str | None],
                 general: tuple[tuple[int, str], ...] = ()) -> str | None:
    """The tax basis the answer says ``mention`` is on when the evidence holds it only on the
    other one (``Evidence.tax_bases``): "including tax" for "€125.00 including VAT" held in
    ``price_excl_vat``, or for "€125.00" after "Prices include VAT." (``general``: the
    statements of ``general_bases``, which do not reach a total: ``said_as_total``); None
    when the words beside it say none, or one the evidence holds, or a field holds it with no
    basis."""
    if None in held or mention.percent:
        return None
    said = tax_basis_said(text, mention.start, mention.end, mention.currency is not None)
    if said is None and general and not said_as_total(text, mention.start, mention.end):
        said = general_basis_at(general, mention.start)
    return said if said is not None and said not in held else None


# Words just before a number that make it a window of time past with the unit after it: "in
# the last 30 days", "over the past 24 hours", "in its first 7 days"; 直近7日間, 过去7天,
# 最近 7일. "in", "over" and "during" alone may be of the future ("arrives in 30 days"): they
# make a window only right after its figure ("9,830 in 30 days", ``_Judge._window_of_neighbour``);
# "within" is a deadline ("processed within 30 days").
_WINDOW_BEFORE = frozenset({"last", "past", "previous", "prior", "first", "trailing", "rolling",
                            "recent", "latest",
                            # "in den letzten 30 Tagen", "en los últimos 30 días", "negli ultimi
                            # 30 giorni", "nos últimos 30 dias", "de afgelopen 30 dagen"
                            "letzten", "vergangenen", "ersten", "últimos", "últimas", "ultimi",
                            "ultime", "primi", "prime", "primeiros", "primeiras", "afgelopen",
                            "laatste", "eerste"})
_WINDOW_LANGS = frozenset({"de", "fr", "es", "it", "pt", "nl"})
# French says the window's word after the number: "sur les 30 derniers jours".
_WINDOW_AFTER_FR = re.compile(r"[ \u00a0]+(?:derni|premi)[eè]re?s(?![\w-])")
# A window said as the adjective of a word: "our 30-day uptime", "7-day signups" (a hyphen, a
# non-breaking one, a dash or a space; bold around it: "**30-day** uptime").
_WINDOW_ADJECTIVE = re.compile(r"[-\u2010\u2011\u2013 \u00a0](day|hour|week|month|year|minute)"
                               r"(?:\*\*|__)?[ \u00a0]+([A-Za-z]+)")
# The same window written short and glued to its number: "24h volume", "a 24h high", "7d change".
_WINDOW_GLUED_ADJECTIVE = re.compile(r"(?i:(d|h|w))[-\u2010\u2011 \u00a0]([A-Za-z]+)")
_WINDOW_BEFORE_WEAK = frozenset({"over", "in", "during"})
# Between a figure and a weak window word, words that make the window of the future or a
# duration: "your 18 orders will arrive in 30 days", "18 orders ship in 30 days".
_WINDOW_FUTURE = frozenset("""will would shall should can could may might must be is are
    arrive arrives arriving ship ships shipping deliver delivers delivered processed expire
    expires due ready back renew renews start starts end ends refunded 'll""".split())
# A window's unit written short and glued to its number: "(last 30d)", "24h".
_WINDOW_SHORT = re.compile(r"(?i:(d|h|hrs?|w|wks?|mos?|y|yrs?))(?![A-Za-z0-9])")
_WINDOW_SHORT_UNITS = {"d": "day", "h": "hour", "hr": "hour", "hrs": "hour", "w": "week",
                       "wk": "week", "wks": "week", "mo": "month", "mos": "month", "y": "year",
                       "yr": "year", "yrs": "year"}
_CJK_WINDOW_BEFORE = ("直近", "過去", "过去", "最近", "近", "지난", "최근")
_CJK_WINDOW_UNIT = re.compile(r" ?(日間|日|天|時間|小时|小時|週間|周|週|주간|주|일간|일|시간|개월|"
                              r"か月|ヶ月|カ月|个月|個月|年間|年)")
_CJK_WINDOW_UNITS = {"日間": "day", "日": "day", "天": "day", "일간": "day", "일": "day",
                     "時間": "hour", "小时": "hour", "小時": "hour", "시간": "hour",
                     "週間": "week", "周": "week", "週": "week", "주간": "week", "주": "week",
                     "개월": "month", "か月": "month", "ヶ月": "month", "カ月": "month",
                     "个月": "month", "個月": "month", "年間": "year", "年": "year"}


_TIME_UNITS = frozenset({"second", "minute", "hour", "day", "business-day", "week", "month",
                         "year"})


def _window_said(text: str, mention: Mention, lang: str = "en") -> tuple[str, bool] | None:
    """The unit of a window of time said with ``mention``, and whether it is said as a window
    past: the unit right after it ("days", "30d") when a word just before it makes it a window
    ("in the last 30 days", "(last 30d)", a bracket after its figure "18 posts (30 days)": a
    window past; "in 30 days", "over 24 hours": maybe not), else None. ``lang`` is the
    locale's language: its units and its words of a window past are read too ("in den letzten
    30 Tagen", "sur les 30 derniers jours")."""
    if lang not in _WINDOW_LANGS:
        lang = "en"     # (Chinese and Japanese windows are read below: 直近7日間)
    unit = unit_after(text, mention.end, lang)
    if unit is None and mention.glued:
        short = _WINDOW_SHORT.match(text, mention.end)
        unit = _WINDOW_SHORT_UNITS[short.group(1).lower()] if short else None
    if unit is None and lang == "fr":
        last = _WINDOW_AFTER_FR.match(text, mention.end)
        if last is not None and unit_after(text, last.end(), lang) in _TIME_UNITS:
            return unit_after(text, last.end(), lang), True
    if unit in _TIME_UNITS:
        words = mention.before.casefold().split()[-2:]
        if not _WINDOW_BEFORE.isdisjoint(words) \
                or text[max(0, mention.start - 2):mention.start].rstrip().endswith("("):
            return unit, True
        return (unit, False) if words and words[-1] in _WINDOW_BEFORE_WEAK else None
    found = _CJK_WINDOW_UNIT.match(text, mention.end)
    if found is not None and mention.before.rstrip().endswith(_CJK_WINDOW_BEFORE):
        return _CJK_WINDOW_UNITS[found.group(1)], True
    return None


def _slot_numbers(values: Sequence[str], locale: str) -> frozenset[Decimal]:
    found = set()
    for value in values:
        found.update(m.value for m in scan(str(value), locale) if m.value is not None)
    return frozenset(found)


class _Judge:
    def __init__(self, text: str, evidence: Evidence, settings: SweepSettings, locale: str,
                 question: str | None, from_slots: frozenset[Decimal], mentions: list[Mention],
                 *, directed: bool = False, changes: frozenset[Decimal] | None = None,
                 measured: Mapping[Decimal, tuple[frozenset[str], frozenset[str]]] | None = None,
                 stating_other: str = "",
                 taxed: Mapping[Decimal, frozenset[str | None]] | None = None,
                 general: tuple[tuple[int, str], ...] = ()):
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
        # the numbers held in units (``Evidence.units``), or None
        self.measured = measured
        # the locale's language when the text holds a change word of it (``_BY_LINKS``), else ""
        self.stating_other = stating_other
        # the amounts held on a tax basis (``Evidence.tax_bases``), when the text says one
        self.taxed = taxed
        # where the text says a basis for prices in general (``general_bases``), when taxed
        self.general = general

    @functools.cached_property
    def scores(self) -> tuple[frozenset[Decimal], frozenset[Decimal]] | None:
        """The evidence's scores (``Evidence.scores``) when the text says a score's word
        (``may_say_score``), else None: read once."""
        return self.evidence.scores if may_say_score(self.text.lower()) else None

    @functools.cached_property
    def _says_overdrawn(self) -> bool:
        """Whether the text holds a word ``_OVERDRAWN_BEFORE`` reads (read once)."""
        low = self.text.lower()
        return "overdr" in low or "in the red" in low

    @functools.cached_property
    def local_ranks(self) -> dict[int, bool]:
        """Where the text says a rank in its locale's language or in CJK ("auf Platz 3", "el
        1.º puesto", 3位): the start of its digits, and whether it is a rank beyond doubt
        (``rulekit.sweep_ranks``). Read once, when a number first needs it."""
        return local_ranks(self.text, self.text.lower(), self.locale[:2])

    @functools.cached_property
    def _changed_marks(self) -> bool:
        """Whether the text holds a word of another language that says a change without its
        direction (``_CHANGED_MARKS``): read once, when a change's size is first judged."""
        return _CHANGED_MARKS.search(self.text) is not None

    def mention(self, index: int, mention: Mention) -> Finding | None:
        method = _JUDGES.get(mention.kind)
        return method(self, index, mention) if method else None

    def _held_as_minutes(self, minutes: Decimal) -> bool:
        """Whether the evidence holds ``minutes`` as a duration in minutes: a field that counts
        minutes (``duration_minutes: 30``), a text's "30 min" or ISO 8601's "PT30M"."""
        held = self.evidence.units.get(minutes)
        return int(minutes) in self.evidence.durations or held is not None and "minute" in held[0]

    def _finding(self, mention: Mention, code: str, message: str, value: Any = None, *,
                 input: str | None = None, absent: bool = False) -> Finding:
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
                            message, input, absent)

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
        if value in _HALVES and mention.kind == "word_number" and (
                _HALF_HOUR.match(self.text, mention.end) if value == _HALF
                else mention.text[:2].lower() == "an") and self._held_as_minutes(value * 60):
            return None     # "a half-hour", "half an hour" for ``duration_minutes: 30``
        if mention.currency is None and not mention.percent \
                and value in self.evidence.score_scale_ends \
                and not said_as_scale_end(self.text, mention):
            return self._finding(mention, "unsupported_number", scale_end_message(
                mention.text.strip(), plain_decimal(value)))
        if mention.currency is None and not mention.percent and not mention.ordinal \
                and value in self.evidence.values and self.scores:
            how = unscored(self.text, mention, self.scores, self.locale[:2])
            if how is not None:
                return self._finding(mention, "unsupported_number", unscored_message(
                    mention.text.strip(), plain_decimal(value), how))
        if mention.currency is None and value in self.evidence.scale_tops \
                and _RATED_ON.match(self.text, mention.end):
            return self._finding(mention, "unsupported_number", f"{mention.text.strip()} is "
                                 "said as a rating on a scale; the evidence holds "
                                 f"{plain_decimal(value)} only as the top of a scale")
        if value == 1 and mention.currency is not None and mention.sign is None \
                and _RATE_UNIT.match(self.text, mention.end):
            return None     # "1 USD = 0.9187 EUR": the unit a rate is given for, no figure
        if value in self.evidence.rate_bases and _after_per(self.text, mention.start):
            return None     # "per 1k calls" for ``cost_per_1k_calls``: the base of a stored rate
        windows = self.evidence.time_windows.get(value) if mention.sign is None else None
        if windows and self._window_of_its_word(index, mention, windows):
            return None     # "our 30-day uptime is 99.95%" for ``uptime_30d``: its own window
        said = _window_said(self.text, mention, self.locale[:2]) if windows else None
        if said and self._window_of_neighbour(index, windows.get(said[0]), said[1]):
            return None     # "18 posts in the last 30 days" for ``posts_30d``: 18's window
        if mention.currency is not None:
            held = self.evidence.other_currencies(value, mention.currency)
            if held == (NO_MONEY,) and _exchange_rate(self.text, mention):
                held = ()   # "1 USD = 0.9187 EUR" for a decimal ``rate``: judged as a number
            if held:
                where = "as a percentage" if held == ("%",) else \
                    "as a number that is no amount of money" if held == (NO_MONEY,) else \
                    f"in {', '.join(c for c in held if c != NO_MONEY)}"
                return self._finding(mention, "unsupported_number", f"{mention.text.strip()} is "
                                     f"in {mention.currency}; the evidence holds "
                                     f"{plain_decimal(abs(value))} {where}")
        held = self.measured.get(value) if self.measured else None
        said = _other_unit(self.text, mention, held, self.locale[:2]) if held else None
        if said is not None:
            where = []
            if held[0]:
                # the units named for it, not those of the other kinds a text's unit allows
                shown = self.evidence.units_written.get(value) or held[0]
                where.append(" or ".join(("as an amount of money" if unit == AS_MONEY else
                                          "in " + plural(unit)) for unit in sorted(shown)))
            if held[1]:
                where.append(" or ".join("as a total" if per == TOTAL else "per " + per
                                         for per in sorted(held[1])))
            return self._finding(mention, "unsupported_number", f"{mention.text.strip()} "
                                 f"{said} is another quantity: the evidence holds "
                                 f"{plain_decimal(abs(value))} {' and '.join(where)}")
        bases = self.evidence.bases if mention.currency is not None else None
        held = bases.get(abs(value)) if bases else None
        said = base_said(self.text, mention.start, mention.end) if held else None
        if said is not None and other_base(said, held):
            return self._finding(mention, "unsupported_number", f"{mention.text.strip()} is "
                                 f"said per {_base_words(said)}; the evidence holds "
                                 f"{plain_decimal(abs(value))} per "
                                 f"{' or '.join(sorted(map(_base_words, held)))}")
        held = self.taxed.get(value) if self.taxed else None
        said = _other_basis(self.text, mention, held, self.general) if held else None
        if said is not None:
            on = " or ".join(sorted(BASIS_WORDS[basis] for basis in held))
            return self._finding(mention, "unsupported_number", f"{mention.text.strip()} is "
                                 f"said {BASIS_WORDS[said]}; the evidence holds "
                                 f"{plain_decimal(abs(value))} {on}")
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
        elif self.changes and mention.sign is None and abs(value) in self.changes and (
                change_word_before(self.text, mention.start) in CHANGED_BEFORE
                or (self._changed_marks and _changed_other(self.text, mention))):
            # "improved by 2.1%", "amélioré de 2,1 %": no direction (a lower bounce rate is
            # better), so a change of either sign backs its size
            changes = self.evidence.changes
            if (value, mention.percent) in changes or (-value, mention.percent) in changes:
                return None
        unheld = self._unheld_rank(mention)
        if unheld is not None:
            return unheld       # "you're number 3 in the queue" at a queue position of 2
        if mention.ordinal and 1 <= value <= 31 and value == value.to_integral_value():
            weekday = self._weekday_before(mention)
            if weekday is not None:     # "Tuesday the 3rd": a day, judged as one
                return self._weekday_day(mention, weekday)
        if mention.percent and value in self.evidence.paid_shares \
                and _said_as_discount(self.text, mention):
            return self._finding(mention, "unsupported_number", f"{mention.text.strip()} is said "
                                 f"as a discount; the evidence holds {plain_decimal(value)}% only "
                                 "as the share of the price that is paid")
        if mention.currency is not None and mention.sign is None and not mention.percent:
            signed = self._balance_sign(mention)
            if signed is not None:
                return signed
        if self.evidence.minor_amounts and not mention.percent and mention.currency is None:
            said = judge_minor(self.text, mention, self.evidence)
            if said is not None:    # "24.50p" for 24.5 pence; "0.245p" for it is flagged
                return self._finding(mention, "unsupported_number", said) if said else None
        # Every test below licenses; the set lookups come first so that a backed figure, the
        # common case, is settled without the words around it (read lazily, see Mention).
        if self._matches(mention):
            return self._level_as_change(mention)
        if self._name_digits(mention):
            return None
        if value in self.evidence.positions and (
                mention.before.rsplit(" ", 1)[-1] in POSITION_WORDS
                or self._starts_list_item(mention) or _inline_marker(self.text, mention)):
            return None     # "13. Press Reset.", "step 15" as the evidence numbers its steps
        # the year of a day or a month of the evidence said as a year: "noviembre de 2026"
        if value in self.evidence.years and said_as_year(self.text, mention, self.locale):
            return None
        if mention.kind == "word_number" and self._hyphen_name(mention):
            return None
        tests = self.evidence.test_scales
        if tests and any(top == value for _, top in tests) \
                and said_on_test_scale(self.text, mention, tests):
            return None     # "1450 out of 1600" for ``sat_total: 1450``: the test's scale
        integral = value == value.to_integral_value()
        pair = self._count_pair(index) if integral else None      # read once, used twice
        if integral and self._count(mention, pair):
            return None
        if integral and self._small_integer_context(mention):
            return None
        if integral and mention.ordinal and 12 < value <= 31 and self._day_of_month(mention):
            return None     # "shipped on the 15th": the day of a date in the evidence
        if integral and "rating_scale" in self.settings.small_integer_contexts \
                and mention.before.endswith(("out of",) + _SCALE_WORDS):
            rating = self._rating_above(mention)
            if rating is not None:
                small = 0 <= value <= self.settings.small_integer_limit
                return self._finding(mention, "small_integer" if small else "unsupported_number", (
                    f"{mention.text.strip()} is said as the scale of a rating of {rating}, "
                    "which is above it; give the rating on the scale the evidence uses"))
        if integral and self.evidence.rating_scales \
                and "rating_scale" in self.settings.small_integer_contexts \
                and (self._rating_out_of(mention) or self._rating_after_slash(mention)):
            small = 0 <= value <= self.settings.small_integer_limit
            scales = ", ".join(map(plain_decimal, sorted(self.evidence.rating_scales)))
            return self._finding(mention, "small_integer" if small else "unsupported_number", (
                f"{mention.text.strip()} is said as the scale of a rating; the evidence rates "
                f"out of {scales}: give the rating on that scale"))
        if pair is not None:
            (part, _), (total, counted) = pair
            rows = self._rows_of(counted)
            if not counted.isalpha() or counted.casefold() in _NOT_COUNTED:
                # "1450 out of 1600 on the SAT", "32 out of 36.": no word of what is counted
                return self._finding(mention, "count_out_of_range", f"'{part} of {total}': the "
                                     f"evidence holds no total of {plain_decimal(total)}" + (
                                         f", and its lists hold at most {rows} rows"
                                         if rows else ""))
            return self._finding(mention, "count_out_of_range", f"'{part} of {total}' counts more "
                                 f"than the evidence holds: {rows} {counted}")
        return self._unsupported(mention, integral)

    _word_number = _number

    def _window_of_its_word(self, index: int, mention: Mention,
                            windows: Mapping[str, frozenset[Decimal]]) -> bool:
        """Whether ``mention`` is a window said as the adjective of a word of the name of a
        field counted over it ("our 30-day uptime" for ``uptime_30d``, "7-day signups" for
        ``signups_7d``; not "a 30-day refund window"), with a figure of that window in its
        sentence as a window said past needs one (``_window_of_neighbour``), or no figure at
        all ("our 30-day uptime has been excellent"): "our 7-day uptime is 99.95%" is flagged
        when 99.95 is the 30-day figure."""
        said = _WINDOW_ADJECTIVE.match(self.text, mention.end)
        if said is not None:
            unit, word = said.group(1), said.group(2)
        elif mention.glued and (said := _WINDOW_GLUED_ADJECTIVE.match(self.text, mention.end)):
            unit, word = _WINDOW_SHORT_UNITS[said.group(1).lower()], said.group(2)  # "24h volume"
        else:
            return False
        if noun(word) not in self.evidence.window_words.get((mention.value, unit), ()):
            return False
        return self._window_of_neighbour(index, windows.get(unit), True) \
            or not self._sentence_values(index)

    def _sentence_values(self, index: int) -> list[tuple[bool, Decimal]]:
        """The values of the other mentions in the sentence of mention ``index``, nearest
        first on each side, each with whether it stands right next to it."""
        mentions, this, text = self.mentions, self.mentions[index], self.text
        found = []
        for step in (-1, 1):
            at, edge = index + step, this
            while 0 <= at < len(mentions) and _SENTENCE_END.search(
                    text[mentions[at].end:edge.start] if step < 0
                    else text[edge.end:mentions[at].start]) is None:
                edge = mentions[at]
                if edge.value is not None:
                    found.append((abs(at - index) == 1, abs(edge.value)))
                at += step
        return found

    def _window_of_neighbour(self, index: int, held: frozenset[Decimal] | None,
                             past: bool) -> bool:
        """Whether a figure of the sentence of mention ``index`` is one of ``held``, the
        figures counted over the window it says (``_window_said``): for a window said as past
        ("in the last 30 days", "(30 days)"), the figure just before or after it, or, when
        neither of those is a figure of another window of the evidence, any figure of its
        sentence ("In the last 30 days, your 1,200 followers saw 18 posts."); after "in",
        "over" or "during" alone, the figure just before it with at most its noun between and
        no word of the future ("9,830 in 30 days", not "18 orders will arrive in 30 days")."""
        if not held:
            return False
        if not past:
            mentions, this, text = self.mentions, self.mentions[index], self.text
            previous = mentions[index - 1] if index else None
            words = text[previous.end:this.start].split() if previous is not None else ()
            return previous is not None and previous.value is not None \
                and abs(previous.value) in held and 0 < len(words) <= 3 \
                and all(word.isalpha() for word in words) \
                and _WINDOW_FUTURE.isdisjoint(word.casefold() for word in words[:-1])
        sentence = self._sentence_values(index)
        if any(next_to and value in held for next_to, value in sentence):
            return True
        if any(value in held for _, value in sentence):
            windowed = {value for units in self.evidence.time_windows.values()
                        for figures in units.values() for value in figures} - held
            return not any(next_to and value in windowed for next_to, value in sentence)
        return False

    def _balance_sign(self, mention: Mention) -> Finding | None:
        """A finding when an unsigned amount turns a balance's sign around (rule 1): a balance
        held only below zero (``Evidence.negative_balances``: an overdrawn account) said with
        no word of its clause that says so ("Your balance is $42.10", "You have $42.10"), or
        an amount held only above zero said as an overdraft ("overdrawn by $42.10"). A sign,
        accounting's brackets or a word such as overdrawn, owe, negative, minus, debit, fee
        or a fall ("fell $42.10") states the negative one."""
        value, evidence = mention.value, self.evidence
        if value in evidence.negative_balances:
            if not _negative_cue(self.text, mention):
                return self._finding(mention, "unsupported_number", f"{mention.text.strip()} "
                                     f"is said as a positive amount; the evidence holds "
                                     f"{-value}, a balance below zero: write its sign or say "
                                     "it is overdrawn")
        elif self._says_overdrawn:
            said = _OVERDRAWN_BEFORE.search(self.text, max(0, mention.start - 40), mention.start)
            if said is not None and value in evidence.signed_values \
                    and -value not in evidence.signed_values:
                return self._finding(mention, "unsupported_number", f"'{said.group(1)} "
                                     f"{mention.text.strip()}' states a balance of {-value}; "
                                     f"the evidence holds {value}, above zero")
        return None

    def _level_as_change(self, mention: Mention) -> Finding | None:
        """A finding when a rise or fall word stands just before a figure the evidence holds
        only as a level, not as a change ("Engagement rose 4.6%" against an engagement rate of
        4.6 %): the answer states a change nobody backs. "rose to 4.6%" and "is up at 4.6%"
        state the level (a word between), and pass."""
        if mention.sign is not None or mention.ordinal \
                or abs(mention.value) in self.evidence.change_magnitudes:
            return None
        word = _stated_change(self.text, mention)
        if word:
            way = "fall" if word in FALL_BEFORE else "rise"
        elif self.stating_other:
            word, way = _stated_change_other(self.text, mention, self.stating_other)
            if not word:
                return None
        else:
            return None
        if mention.start in self.local_ranks:
            return None     # "queda en 2.ª posición": a rank, as an ordinal is (not a fall)
        return self._finding(mention, "unsupported_number", f"'{word} {mention.text.strip()}' "
                             f"states a {way} of {mention.text.strip()}; the evidence holds "
                             f"{mention.text.strip()} as a level, not as a change")

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
        figures = [f for f in self.evidence.near(mention.value) if _field_of(f.path) & allowed
                   or _ANY_INDEX.sub("[*]", f.path) in allowed]
        figure = self._rounds_to(mention, figures)
        return figure is not None and (mention.percent or _counts_its_field(mention, figure.path))

    def _name_digits(self, mention: Mention) -> bool:
        """Digits that keep the company they keep in the evidence: a name or code."""
        if "name_digits" not in self.settings.small_integer_contexts and not mention.glued \
                and (mention.value is None or mention.value <= self.settings.small_integer_limit):
            return False    # `small integers ... as` governs integers up to its limit only
        token = mention.token.casefold() if mention.glued and mention.token else None
        if token and (token in self.evidence.names
                      or _held_period(token, self.evidence.period_keys)):
            return True     # BT-3; "Q2" for a key q2; "p95-Latenz" for p95_latency_ms
        if mention.ordinal and mention.start and self.text[mention.start - 1] == "#" \
                and f"#{mention.text}".casefold() in self.evidence.names:
            return True     # "order #1042": the name "#1042" as the evidence writes it
        run = self.evidence.name_digits and re.search(r"\d+", mention.token or mention.text)
        in_name = run and str(int(run[0])) in self.evidence.name_digits
        named = in_name and inside_written_name(
            self.text, mention.start, mention.end,
            [name for name in self.evidence.names if run[0] in name], not mention.scaled)
        if named:
            # "小米手环9", "EQ.6", "Seamaster 300M" as the evidence writes the name; a postcode
            # of digits alone only where a postcode is said ("at 10115 Berlin")
            return named not in self.evidence.postcodes or not named.isdigit() \
                or _said_as_postcode(self.text, mention.start, mention.end)
        if in_name and self.evidence.postcodes and mention.text == run[0] \
                and _zip_head(run[0], self.evidence.postcodes) \
                and _said_as_postcode(self.text, mention.start, mention.end):
            return True     # "Your ZIP code is 90210" for the ZIP+4 "90210-1234"
        if mention.kind == "word_number" and (named := self.evidence.names_by_word.get(
                mention.text.casefold())) and inside_written_name(
                self.text, mention.start, mention.end, named, False):
            return True     # "Three ways to plan a week of posts", the whole title
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
        if mention.scaled or not 0 < value <= self.evidence.largest_count:
            return False    # settled without reading the word after
        whole = int(value) in self.evidence.count_lengths   # else at most a part of a list
        words = mention.after.split()[:4]
        which = False       # words that pick some of the rows: "your 2 most recent posts"
        while words[:1] and words[0].casefold() in _COUNT_QUALIFIERS:
            words.pop(0)
            which = True
        before = mention.before.split()[-1:]
        which = which or bool(before) and before[0].casefold() in _COUNT_QUALIFIERS
        words = words[:2]
        counts = self.evidence.counts
        if which and words and self._counts_thing(words[0]):
            return value <= self._rows_of(words[0])         # a part: at most the rows held
        if not whole:
            return False
        if not words:
            return (int(value), "") in counts
        # "2 items", or "2 line items" against a list named line_items
        return (int(value), noun(words[0])) in counts or (
            len(words) == 2 and ((int(value), noun("_".join(words))) in counts
                                 or (int(value), noun(words[1])) in counts))

    def _counts_thing(self, word: str) -> bool:
        """Whether the evidence holds a list of what ``word`` names ("posts")."""
        wanted = noun(word)
        return any(name == wanted for _, name in self.evidence.counts)

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
        if first.percent or second.percent or first.currency or second.currency:
            return None     # "42 minutes, a CSAT of 91%": a percentage or an amount counts nothing
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
        if self.ranked and mention.start in self.local_ranks:
            # "auf Platz 3", "classé 3e", "el 3.º puesto", 3位: held to the evidence's ranks as
            # "ranked 3rd" is; where the evidence has no rank field it is judged as any small
            # integer is below (failing closed: the rank may sit in a field named in a language
            # not read; a CJK ordinal, 第3名, stays free as "3rd" is)
            return int(value) in self.ranks
        if mention.ordinal and self._on_the(mention):
            # "shipped on the 6th": the day of a month, not a position
            return "weekday" in contexts and int(value) in self.days_of_month
        if last in ("placed", "place") and not mention.ordinal:
            following = mention.after.split()[:1]
            if following and following[0].isalpha() and following[0] not in _PLACE_NOT_COUNTED:
                return False    # "you placed 3 orders": a count, not a place in a ranking
        # "ranked #1", "ranked No. 1" (the scanner leaves the dot out of ``before``)
        stated = last if last not in ("#", "no.", "no", "number") or len(before) < 2 \
            else before[-2]
        if (stated in _RANK_VALUE_WORDS or stated != last and stated in _RANK_BE) \
                and self.ranked and int(value) not in self.ranks:
            return False    # "ranked #1", "you're number 3" where the evidence ranks it 2nd
                            # ("our #1 priority" is not)
        if stated == "the" and last in ("#", "no.", "no", "number") and self.ranked \
                and int(value) not in self.ranks \
                and mention.after.split(" ", 1)[0].rstrip("s") in _RANKED_NOUNS:
            return False    # "the No. 1 post" where the evidence ranks it 3rd (not "the
                            # number one reason")
        if mention.ordinal and self.ranked and int(value) not in self.ranks and (
                (last == "in" and len(before) > 1 and before[-2] in _RANK_IN)
                or (mention.after.split(" ", 1)[0] in _RANK_AFTER_ORDINAL
                    and (before[-2:-1] if last == "the" else before[-1:]) not in (
                        ["and"], ["or"], ["to"]))):
            # "took second place", "came in third" where the evidence ranks it 4th (not the
            # end of a range: "between the 3rd and the 5th place")
            return False
        if mention.ordinal and self.ranked and int(value) not in self.ranks \
                and self.text[mention.end:mention.end + 1] in _CLAUSE_END \
                and not _RANK_IN.isdisjoint(before[-4:]):
            return False    # "Ana finished the race first": the ordinal ends its clause
        if mention.ordinal and mention.after.split(" ", 1)[0].lstrip("-") in _LEVEL_AFTER_ORDINAL:
            return False    # "in 12th grade": a grade level, held to the evidence's numbers
        if mention.ordinal and ("ordinal" in contexts or "rank" in contexts):
            return True
        if "rank" in contexts and (last in _RANK_WORDS or _cjk_rank(mention.before, mention)):
            return True
        if "list_position" in contexts and (last in _LIST_WORDS
                                            or self._starts_list_item(mention)) \
                and not (last == "section" and mention.text[:1] == "0"):
            return True     # (not "section 004": a zero-padded section is a course's code)
        if "month" in contexts and (last in _MONTH_WORDS or self.text.startswith(
                ("月", "월"), mention.end)) and int(value) in self.months:
            return True     # "month 6", "6月份", "6월": a month of the evidence
        if "weekday" in contexts and last in _DAY_WORDS and int(value) in self.days_of_month \
                and mention.ordinal:
            return True
        if "rating_scale" in contexts and (self._rating_out_of(mention)
                                           or self._rating_after_slash(mention)
                                           or self._rating_cjk(mention)):
            # a scale the evidence stores, when it stores any (``Evidence.rating_scales``)
            scales = self.evidence.rating_scales
            return not scales or value in scales
        return False

    @property
    def ranks(self) -> frozenset[int]:
        return self.evidence.ranks      # read once per index (``Evidence.ranks``)

    @property
    def ranked(self) -> bool:
        return self.evidence.ranked

    def _unheld_rank(self, mention: Mention) -> Finding | None:
        """A finding when the answer states a rank of what it is about ("you're number 3 in
        the queue", "ranked 3rd", "took second place", "position 3") that is none of the
        evidence's ranks while it holds rank fields (``Evidence.ranked``), whatever other
        numbers it holds: an "open_tickets": 3 does not back a queue position of 3. Read only
        after a word of ranking just before the number, or for an ordinal; weaker contexts
        ("is 3") are left to ``_small_integer_context``."""
        value = mention.value
        local = mention.start in self.local_ranks if self.ranked else False
        if not (mention.ordinal or local or _RANK_CUE.search(
                self.text, max(0, mention.start - 12), mention.start)):
            return None
        if mention.percent or mention.currency or mention.scaled or mention.sign is not None \
                or value != value.to_integral_value() or not self.ranked \
                or int(value) in self.ranks or not (local or self._stated_rank(mention)):
            return None
        held = ", ".join(map(str, sorted(self.ranks))) or "none (the rank is not known)"
        limit = self.settings.small_integer_limit
        return self._finding(mention, "small_integer" if 0 <= value <= limit
                             else "unsupported_number", f"{mention.text.strip()} is stated as a "
                             f"rank; the ranks the evidence holds are {held}")

    def _stated_rank(self, mention: Mention) -> bool:
        """Whether ``mention`` is a rank stated of what the sentence is about, by a word of
        ranking right before it (``_unheld_rank``)."""
        before = mention.before.split()
        last = before[-1] if before else ""
        if last in ("#", "no.", "no", "number"):
            return len(before) > 1 and (before[-2] in _RANK_VALUE_WORDS or before[-2] in _RANK_BE
                                        or before[-2] == "the" and mention.after.split(" ", 1)[0]
                                        .rstrip("s") in _RANKED_NOUNS)
        if last in ("rank", "ranked", "ranking", "position"):
            return True         # "ranked 3", "position 3"
        if not mention.ordinal:
            return False
        return last in _RANK_VALUE_WORDS and last not in ("is", "was") \
            or last == "in" and len(before) > 1 and before[-2] in _RANK_IN \
            or mention.after.split(" ", 1)[0] in _RANK_AFTER_ORDINAL and (
                before[-2:-1] if last == "the" else before[-1:]) not in (["and"], ["or"], ["to"])

    def _rating_out_of(self, mention: Mention) -> bool:
        """Whether ``mention`` is the scale of a rating: after "out of" ("rated it 4 out of
        5"), or after a rating and the word for it in French, German, Spanish, Italian,
        Portuguese or Dutch ("4,3 sur 5", "4,3 von 5 Sternen", "8,7 von 10"), no smaller than
        the rating."""
        before = mention.before
        if before.endswith("out of"):
            return self._rating_above(mention) is None
        if not before.endswith(_SCALE_WORDS):
            return False
        found = _RATED_OUT_OF.search(self.text, max(0, mention.start - 32), mention.start)
        return found is not None and Decimal(found.group(1).replace(",", ".")) <= mention.value

    def _rating_cjk(self, mention: Mention) -> bool:
        """5点満点 ("5点満点中4.5"), 满分5分 ("4.8分（满分5分）"), 5점 만점 ("5점 만점에 4.7점"): the
        scale of a rating, as "out of 5" is (``_CJK_SCALE_AFTER``, ``_CJK_SCALE_BEFORE``)."""
        text, end = self.text, mention.end
        if text[end:end + 1] not in _CJK_SCALE_FIRST or mention.kind != "number":
            return False
        if _CJK_SCALE_AFTER.match(text, end) is not None:
            return True
        return text[end] == "分" and text.endswith(_CJK_SCALE_BEFORE, max(0, mention.start - 3),
                                                  mention.start)

    def _rating_above(self, mention: Mention) -> str | None:
        """The rating said before "out of" and ``mention``, its scale, when it is above the
        scale: "8.7" of "8.7 out of 5" (a score out of 10 put on another scale), "4" of "4
        stars out of 3"; None for "4 out of 5" or no rating before it."""
        found = _RATED_OUT_OF.search(self.text, max(0, mention.start - 24), mention.start)
        if found is None or Decimal(found.group(1).replace(",", ".")) <= mention.value:
            return None
        return found.group(1)

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
        if len(before) >= 3 and before[-1] in _DAY_JOINS and _ORDINAL_DAY.fullmatch(before[-2]) \
                and before[-3] == "the":
            # the 7th of "between the 5th and 7th", "from the 5th to 7th"
            lead = self.text[max(0, mention.start - 48):mention.start].lower().split()[-4:-3]
            return bool(lead) and (lead[0] in _DAY_PREPOSITIONS or lead[0] in _DAY_LEADS
                                   or lead[0] == "between") and self._ends_phrase(mention)
        if len(before) < 2 or before[-1] != "the":
            return False
        lead = before[-2]
        if lead == "between":
            # the 5th of "between the 5th and (the) 7th": a day when the second is one
            second = _SECOND_DAY.match(self.text, mention.end)
            return second is not None and (not second.group(1)
                                           or second.group(1).lower() in _AFTER_DAY)
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
        """A marker of a list: "3." or "3)" opening a line, "①" (``list_marker``)."""
        return list_marker(self.text, mention.start, mention.end)

    def _unsupported(self, mention: Mention, integral: bool) -> Finding:
        value, evidence = mention.value, self.evidence
        shown = mention.text.strip()
        if value in evidence.placeholder_values or -value in evidence.placeholder_values:
            return self._finding(mention, "placeholder", f"{shown} is a 'not recorded' "
                                 "placeholder in the evidence, not a measurement")
        withheld = evidence.withheld.get(value) or evidence.withheld.get(-value)
        if withheld is not None:
            return self._finding(mention, withheld.code, f"{shown} {withheld.why}",
                                 input=withheld.input)
        if value in evidence.untrusted_values:
            return self._finding(mention, "untrusted_source", f"{shown} appears only in "
                                 "third-party text, which is evidence only of what its author wrote")
        if integral and mention.ordinal and 1 <= value <= 31 and self._on_the(mention):
            # "on the 1st", "between the 5th and 7th": a day of a month (rule 10), whatever
            # small integer or name holds its digits
            held = ", ".join(map(str, sorted(self.days_of_month))) or "none"
            return self._finding(mention, "unsupported_date", f"{shown} is said as a day of a "
                                 "month, and no date in the evidence is on that day (the days "
                                 f"of the month it holds: {held})", value=str(int(value)),
                                 absent=True)
        if integral and 1 <= value <= 12 and self.text.startswith(("月", "월"), mention.end) \
                and not self.text.startswith(("月間", "月间"), mention.end):
            # 1月, 1월: January, a month of the year (rule 10), not a quantity
            held = ", ".join(map(str, sorted(self.months))) or "none"
            return self._finding(mention, "unsupported_date", f"{shown}{self.text[mention.end]}"
                                 " is a month, and no date in the evidence falls in it (the "
                                 f"months it holds: {held})", value=f"--{int(value):02d}",
                                 absent=True)
        if mention.sign is not None and value and -value in (
                evidence.percents if mention.percent else evidence.signed_values):
            if value < 0 and -value in evidence.deductions and _DEDUCTION_LABEL.search(
                    self.text, max(0, self.text.rfind("\n", 0, mention.start) + 1,
                                   mention.start - 120), mention.start):
                return None     # "Discount: -$4.32": a deduction written with its minus
            if value < 0 and mention.percent and -value in evidence.discount_percents \
                    and (-value, True) not in evidence.changes \
                    and not _change_words_beside(self.text, mention):
                return None     # "-15 %" for "discount_pct": 15, retail's way to write it
            return self._finding(mention, "unsupported_number", f"{shown} has the wrong sign: "
                                 f"the evidence holds {-value}")
        # (an integer said in words, "Three of your posts", is no rounding: it is not held)
        rounded = None if mention.kind == "word_number" and integral and not mention.scaled \
            and mention.currency is None and not mention.percent \
            else self._rounds_to(mention, evidence.near(value))
        if rounded is not None and not (
                rounded.value != rounded.value.to_integral_value() and integral
                and mention.decimals == 0 and not mention.scaled and mention.currency is None
                and _ITEMS_AFTER.match(self.text, mention.end) is not None):
            # (a count of items, "残り5点", "cinq exemplaires", is no rounding of a rating of
            # 4.5: it is a count the evidence does not hold)
            return self._finding(mention, "rounded", f"{shown} is a rounded figure; the "
                                 "evidence holds the exact value and rounding is not allowed here")
        # (a number in words is no digits of a name: "One customer" is not the "1" of "r1")
        inside = evidence.name_digits.get(_digits(value)) \
            if integral and mention.kind != "word_number" else None
        part = month_part(_digits(value), inside) if inside else None
        if part:
            return self._finding(mention, "name_digits", f"{shown} is the {part} of the date "
                                 f"'{inside}' the evidence holds, a date part, not a quantity")
        if integral and value in evidence.years:
            return self._finding(mention, "unsupported_number", f"{shown} is the year of a date "
                                 "the evidence holds, a date part, not a quantity")
        if inside and not hex_id(inside):   # a UUID's digits are no name's: judged as a number
            return self._finding(mention, "name_digits", f"{shown} appears in the evidence only "
                                 f"inside the name '{inside}', which licenses that name, not a quantity")
        use = evidence.no_quantities.get(_digits(value)) if integral else None
        if use:
            return self._finding(mention, "name_digits", f"{shown} appears in the evidence only "
                                 f"as {use}, which licenses that use, not a quantity")
        if integral and 0 <= value <= self.settings.small_integer_limit:
            return self._finding(mention, "small_integer", f"{shown} is not in the evidence; a "
                                 "small integer passes only as an ordinal, rank, list position, "
                                 "date part, rating scale or part of a name", absent=True)
        return self._finding(mention, "unsupported_number",
                             f"{shown} is not in the evidence", absent=True)

    # --- the other kinds ----------------------------------------------------------------------

    def _multiple(self, index: int, mention: Mention) -> Finding | None:
        if self.locale[:2] == "pt" and mention.text[-1:] in ("x", "X") \
                and mention.value is not None and _instalments(self.text, mention):
            return self._instalment_count(mention)
        if mention.value is not None and mention.value in self.evidence.multiples:
            return None
        return self._finding(mention, "computed_multiple", f"'{mention.text}' is a multiple or "
                             "ratio the evidence does not hold; code computes, the model copies")

    def _instalment_count(self, mention: Mention) -> Finding | None:
        """"3x sem juros": a number of instalments, held to the fields named for one
        (``Evidence.instalments``), whatever other field holds the same number."""
        value, held = mention.value, self.evidence.instalments
        if value in held:
            return None
        said = ", ".join(map(plain_decimal, sorted(held))) if held else "none"
        small = value == value.to_integral_value() \
            and 0 <= value <= self.settings.small_integer_limit
        return self._finding(mention, "small_integer" if small else "unsupported_number",
                             f"{mention.text.strip()} is a number of instalments; the numbers "
                             f"of instalments the evidence holds are {said}", absent=not held)

    def _date(self, index: int, mention: Mention) -> Finding | None:
        # to the minute here; the seconds of "1:38:05" in ``_unheld_seconds``
        if mention.time is not None and mention.time.tzinfo is None:
            said = _READER_ZONE.match(self.text, mention.end)
            if said is not None:
                found = self._reader_zone(mention, said)
                if found is not None:
                    return found
        return self._date_to_the_minute(mention) or _unheld_seconds(mention, self.evidence)

    def _reader_zone(self, mention: Mention, said: re.Match) -> Finding | None:
        """A clock time said in the reader's zone ("2:05 PM your time", "in your time zone"),
        which no evidence knows, or as "local time" when the evidence writes that time only as
        an instant in UTC ("2026-11-28T14:05:00Z"): the reader takes it as their own wall time.
        None when "local time" may be the wall time the evidence writes (with its own offset,
        or with none: opening hours)."""
        normal = mention.normalized or ""
        if said.group("your"):
            return self._finding(mention, "unsupported_date", f"{mention.text} is said in the "
                                 "reader's time zone, which the evidence does not know; give "
                                 "the time with the zone the evidence writes it in", value=normal)
        time, day = mention.time, mention.day
        offsets = {offset for held, hour, minute, offset in self.evidence.offset_clock
                   if (hour, minute) == (time.hour, time.minute) and day in (None, held)}
        if offsets and not any(offsets - {dt.timedelta(0)}) and not any(
                held is None and (hour, minute) == (time.hour, time.minute)
                for held, hour, minute in self.evidence.clock):
            return self._finding(mention, "unsupported_date", f"{mention.text} is said as local "
                                 "time, but the evidence holds it as a time in UTC", value=normal)
        return None

    def _withheld_day(self, mention: Mention, normal: str) -> Finding | None:
        """A finding with the reason of the row that alone holds the day ``mention`` says (a
        stale or hidden one: ``Evidence.withheld_days``), so that its action applies; ``normal``
        is the day as ISO or "--MM-DD"."""
        for day, why in self.evidence.withheld_days.items():
            if normal in (day.isoformat(), f"--{day.month:02d}-{day.day:02d}"):
                return self._finding(mention, why.code, f"{mention.text.strip()} {why.why}",
                                     value=normal, input=why.input)
        return None

    def _date_to_the_minute(self, mention: Mention) -> Finding | None:
        days, time = self.evidence.days, mention.time
        weekday = _stated_weekday(self.text, mention, self.locale) \
            if mention.day is not None or (mention.normalized or "").startswith("--") else None
        if time is not None and time.tzinfo is None and (time.hour, time.minute) == (0, 0) \
                and (mention.day is not None or (mention.normalized or "").startswith("--")) \
                and _MIDNIGHT.search(mention.text):
            return self._midnight_on(mention, weekday)
        if mention.day is not None:
            # a day with a zoned time ("July 6 at 04:00 UTC") is the day in that zone
            if mention.day not in days and not (
                    time is not None and time.tzinfo is not None and self._zoned(mention.day, time)):
                return self._withheld_day(mention, mention.day.isoformat()) or self._finding(
                    mention, "unsupported_date", f"{mention.text} is not a date in the evidence",
                    value=mention.day.isoformat(), absent=True)
            if weekday is not None and mention.day.weekday() != weekday[0]:
                return self._finding(mention, "unsupported_date", f"{mention.day.isoformat()} "
                                     f"is a {_WEEKDAYS[mention.day.weekday()]}, not a "
                                     f"{weekday[1]}", value=mention.day.isoformat())
            # (a day no field holds is backed by its zoned time above, not by a today)
            if mention.day in days and self._today_only(mention, [mention.day]):
                return self._withheld_day(mention, mention.day.isoformat()) \
                    or self._today_finding(mention, mention.day.isoformat())
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
            if time.tzinfo is not None and _wall_time_in_named_zone(time, self.evidence):
                return None     # "18:00 UK time" for hours "09:00-18:00" in Europe/London
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
            if (time.hour, time.minute) in self.evidence.lengths and time.tzinfo is None \
                    and _LENGTH_SAID.fullmatch(mention.text) \
                    and _word_before(self.text, mention.start) not in _AT_A_TIME:
                return None     # "runs 18:05": the length the evidence holds, no time of day
            return self._finding(mention, "unsupported_date", f"{mention.text} is not a time in "
                                 "the evidence", value=normal, absent=True)
        if normal.startswith("--"):     # a day without a year: some evidence date must have it
            normal = normal[:7]         # "--07-10T20:00": the day of a month, and its time
            if time is not None and time.tzinfo is not None:
                # "July 9 at 7:30 pm Pacific": an instant of the evidence that is that time on
                # that day in that zone, whose day as written may be the next or the one before
                month, day = int(normal[2:4]), int(normal[5:7])
                for year in sorted({d.year + step for d in days for step in (-1, 0, 1)}):
                    try:
                        local = dt.date(year, month, day)
                    except ValueError:
                        continue
                    if (weekday is None or local.weekday() == weekday[0]) \
                            and self._zoned(local, time):
                        return None
            if self._today_only(mention, [d for d in days if f"--{d.month:02d}-{d.day:02d}"
                                          == normal]):
                return self._withheld_day(mention, normal) \
                    or self._today_finding(mention, normal)
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
            return self._withheld_day(mention, normal) or self._finding(
                mention, "unsupported_date", f"{mention.text} is not a day of any date in the "
                "evidence", value=normal, absent=True)
        if len(normal) == 7 and normal[4] == "-":   # a month: some evidence date must be in it
            if any(f"{d.year:04d}-{d.month:02d}" == normal for d in days) or \
                    normal in self.evidence.months:
                return None
            return self._finding(mention, "unsupported_date", f"{mention.text} is not a month of "
                                 "the evidence", value=normal, absent=True)
        # An impossible date (31 February) or a weekday that does not fit: fail closed.
        return self._finding(mention, "unsupported_date", f"{mention.text} is not a real calendar "
                             "day (an impossible date, or the weekday does not match)")

    def _midnight_on(self, mention: Mention, weekday: tuple[int, str] | None) -> Finding | None:
        """"midnight on December 14" (rule 10): the end of the 14th after a word of ending
        ("ends at midnight on December 14", "until midnight on..."), which the evidence holds
        as 00:00 on the 15th or 23:59 on the 14th; its start after a word of starting ("starts
        at midnight on December 15"), 00:00 on the 15th or 23:59 on the 14th; with neither,
        either (``midnight_reading``). A stored 00:00 on the 15th backs "ends at midnight on
        December 14", and not "ends at midnight on December 15", a day late."""
        reading = midnight_reading(self.text, mention.start)
        clock, one = self.evidence.clock, dt.timedelta(days=1)
        if mention.day is not None:
            candidates = [mention.day]
        else:
            month, day = int(mention.normalized[2:4]), int(mention.normalized[5:7])
            candidates = []
            for year in sorted({d.year + step for d in self.evidence.days for step in (-1, 0, 1)}):
                try:
                    candidates.append(dt.date(year, month, day))
                except ValueError:
                    continue
        candidates = [d for d in candidates if weekday is None or d.weekday() == weekday[0]]
        for day in candidates:
            held = []
            if reading != "start":
                held += [(day + one, 0, 0), (day, 23, 59)]
            if reading != "end":
                held += [(day, 0, 0), (day - one, 23, 59)]
            if any(point in clock for point in held) or day in self.evidence.days and (
                    (None, 0, 0) in clock or (None, 23, 59) in clock):
                if day in self.evidence.days and self._today_only(mention, [day]):
                    continue
                return None
        said = mention.text.strip()
        where = mention.day.isoformat() if mention.day is not None else \
            f"{calendar.month_name[int(mention.normalized[2:4])]} {int(mention.normalized[5:7])}"
        if reading == "end":
            return self._finding(mention, "unsupported_date", f"{said} is said as an end: the "
                                 f"end of {where}, which the evidence holds as 00:00 on the day "
                                 "after or 23:59 on that day; it holds neither",
                                 value=mention.normalized)
        if reading == "start" or any(d in self.evidence.days for d in candidates):
            return self._finding(mention, "unsupported_date", f"{said}: the evidence holds no "
                                 f"midnight on {where}", value=mention.normalized)
        return self._withheld_day(mention, mention.normalized[:7]) or self._finding(
            mention, "unsupported_date", f"{said} is not a day of any date in the evidence",
            value=mention.normalized[:7] if mention.day is None else mention.day.isoformat(),
            absent=True)

    def _today_only(self, mention: Mention, days: list[dt.date]) -> bool:
        """Whether the evidence days a date may be are held only by its today/as_of field and
        the text says the date as an event's day ("due on December 2"): rule 10's today backs
        "today" as the present only (``today_only_event``)."""
        return today_only_event(self.text, mention.start, mention.end, days, self.evidence,
                                self.locale)

    def _today_finding(self, mention: Mention, normal: str) -> Finding:
        return self._finding(mention, "unsupported_date", f"{mention.text.strip()} is said as "
                             "the day of an event, and only the evidence's today is that day: "
                             "its today backs the present, not an event's day", value=normal)

    def _time_on(self, day: dt.date, time: dt.time, mention: Mention) -> bool:
        """Whether the evidence holds the clock time ``time`` on ``day``: a zoned time an
        instant that is that time on that day in its zone, a time without a zone a clock time
        of that day as written (in its own offset), or one written without a day when the
        evidence holds no clock time on that day."""
        if time.tzinfo is not None:
            return self._zoned(day, time)
        clock = self.evidence.clock
        # a time written without a day ("best_posting_hour": "21:00") is the time of a day the
        # evidence holds without one (an event's "time" beside its "date"), not of a day it holds
        # at another time (a post that went live at 09:30 that day)
        dayless = day not in self.evidence.clocked_days
        if (day, time.hour, time.minute) in clock \
                or dayless and (None, time.hour, time.minute) in clock:
            return True
        if time.hour < 12 and _either_half(mention.text) and (
                (day, time.hour + 12, time.minute) in clock
                or dayless and (None, time.hour + 12, time.minute) in clock):
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
        written with it, in every zone that name may mean (``rulekit.dates.fits_instant``) or
        in the one the instant's own offset says is meant (``Evidence.settled_instants``); or,
        for a zone that fixes the instant, a zoned time the evidence writes without a day."""
        for held, hour, minute in self.evidence.utc_clock:
            if held is not None and dates.fits_instant(
                    dt.datetime(held.year, held.month, held.day, hour, minute,
                                tzinfo=dt.timezone.utc), day, time):
                return True
        utc = dates.utc_clock_of(day, time)
        if utc is not None:
            return (None, utc[1], utc[2]) in self.evidence.utc_clock
        # "16:05 BST" against 16:05+01:00: the evidence's own offset says which zone is meant
        return any(day in (None, instant.date())
                   for instant in self.evidence.settled_instants(time))

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
                                 "evidence", value=quoted, absent=True)
        if self.question and _found_whole(quoted, self.question):
            return None     # the user's own words, quoted back
        if _found_in_words(quoted, self.evidence):
            return self._misattributed(mention, quoted)
        # '"Sizing runs small."', '"Honestly," she wrote': a final mark inside the closing
        # quote mark is the sentence's (US style), not the author's.
        bare = quoted.rstrip(".,!?")
        if bare != quoted and bare and _found_in_words(bare, self.evidence):
            return self._misattributed(mention, bare)
        if "..." in quoted and _elided_found(mention.text, self.evidence):
            return None     # "Great boots ... the sole never came off" (… and […] too)
        return self._finding(mention, "unsupported_quote", "this quote does not appear verbatim "
                             "in the evidence", value=quoted, absent=True)

    def _misattributed(self, mention: Mention, quoted: str) -> Finding | None:
        """A finding when the quote, found in the evidence as ``quoted``, is said by a name
        right before or after it (`Dana said "..."`, `"...," Dana said`) that is an author of
        the evidence, and the evidence holds those words only from other authors: the words
        are put in the wrong mouth. A name that is no author of the evidence is not judged."""
        text = self.text
        window = max(0, mention.start - 80)
        found = _NAMED_BEFORE.search(text, window, mention.start) \
            or _NAMED_BY.search(text, window, mention.start) \
            or _NAME_LABEL.fullmatch(text, text.rfind("\n", 0, mention.start) + 1,
                                     mention.start) \
            or _NAMED_AFTER.match(text, mention.end) \
            or _signed_inside(mention)      # "Dana: *Runs small.*", '"...," Dana said'
        if found is None:
            return None
        writers = {author for squashed, author in self.evidence.quotes
                   if author and _found_whole(quoted, squashed)}
        if not writers:
            return None
        # Each name said to have said it that is an author of the evidence must have written
        # it ("Sam and Dana both said"); a name the evidence does not know ("She said", "Alex
        # said") is not judged.
        names = next(group for group in found.groups() if group)    # the one that matched
        for name in _NAME_LIST_SPLIT.split(names):
            name = name.rstrip(".")
            said = name_words(name)
            if said and not said.isdisjoint(self.evidence.author_words) \
                    and all(said.isdisjoint(name_words(w)) for w in writers):
                return self._finding(mention, "unsupported_quote", f"this quote is attributed "
                                     f"to {name}, but in the evidence "
                                     f"{_writers_shown(writers)} wrote it", value=quoted)
        return None

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
                             f"evidence{extra}{_mixed_scripts(handle)}", value=handle,
                             absent=True)

    def _email(self, index: int, mention: Mention) -> Finding | None:
        shown = self._shown_elsewhere(index, mention)
        if shown is not None:
            return shown
        email = (mention.normalized or mention.text).casefold()
        if email in self.evidence.emails:
            return None
        return self._finding(mention, "unsupported_email", f"{mention.text} is not in the "
                             f"evidence{_mixed_scripts(email)}", value=email, absent=True)

    def _url(self, index: int, mention: Mention) -> Finding | None:
        shown = self._shown_elsewhere(index, mention)
        if shown is not None:
            return shown
        link = mention.text
        if link.startswith("/"):
            if _relative(link) in self.evidence.relative_links:
                return None
            return self._finding(mention, "unsupported_url", f"the relative link {link} does not "
                                 "appear in the evidence", value=_relative(link), absent=True)
        normal = _url(link)
        if normal in self.evidence.urls or self.evidence.queryless_urls and \
                queryless_url(link) in self.evidence.queryless_urls:
            return None     # (a field compared without its query: "?utm_source=..." added)
        if "/" not in link and ":" not in link and normal in self.evidence.sites:
            return None     # a host alone names the site of a link the evidence holds
        return self._finding(mention, "unsupported_url", f"{link} is not a link in the evidence "
                             "(a different or truncated path, an added query or another host is "
                             f"another page){_mixed_scripts(normal)}", value=normal, absent=True)


    def _shown_elsewhere(self, index: int, mention: Mention) -> Finding | None:
        """A finding when ``mention`` is the text of a link that goes elsewhere: a Markdown
        link "[https://a.example/x](https://b.example/y)" or an HTML one "<a
        href="https://b.example/y">https://a.example/x</a>" shows the reader one link (or
        address, "[help@shop.example](mailto:sales@shop.example)") and takes them to another,
        even when the evidence holds both. Text that is no link ("[the guide](...)") shows
        nothing to compare."""
        target = _link_target(self.text, self.mentions, index)
        if target is None or target.kind != mention.kind:
            return None
        if mention.kind == "email":
            goes = (target.normalized or target.text).casefold()
            same = goes == (mention.normalized or mention.text).casefold()
            held = goes in self.evidence.emails
        else:
            goes, shown = _url(target.text), _url(mention.text)
            # a host alone names the site of the page ("[shop.example](https://shop.example/x)")
            same = goes == shown or "/" not in mention.text and ":" not in mention.text \
                and shown == _site(goes)
            held = goes in self.evidence.urls or target.text.startswith("/")
        if same or not held:
            return None     # (a target the evidence does not hold is flagged itself)
        code = "unsupported_email" if mention.kind == "email" else "unsupported_url"
        return self._finding(mention, code, f"this link shows {mention.text} but goes to "
                             f"{target.text}: a reader follows the target, not the text",
                             value=(mention.normalized or mention.text).casefold())


# The text of a link, just before its target: "[shown](" (maybe "<" and "mailto:" after it),
# and an HTML "<a href=...>shown</a>" (what stands between the target and the text closes the
# opening tag).
_MD_SHOWN_END = re.compile(r"\]\([ \t]*<?(?:mailto:)?", re.IGNORECASE)
_HTML_SHOWN_END = re.compile(r"[ \t\n]*</a[ \t\n]*>", re.IGNORECASE)
_HTML_TAG_REST = re.compile(r"[^<>]*>[ \t\n]*\Z")


# A reference definition or a footnote numbered at the start of its line: "[1]: https://...",
# "[^2]: ...".
_REFERENCE_DEFINITION = re.compile(r"(?m)^[ \t]{0,3}\[\^?([0-9]{1,3})\]:")


def _reference_labels(text: str) -> frozenset[str]:
    """The numbers the text defines as labels of its links and footnotes."""
    return frozenset(found.group(1) for found in _REFERENCE_DEFINITION.finditer(text))


def _reference_label(text: str, mention: Mention, labels: frozenset[str]) -> bool:
    """Whether ``mention`` is a number in brackets that a reference definition of the text
    numbers ("[1]", "[^1]", "[1]:"): it points to a link, and is no figure."""
    start = mention.start
    return mention.kind == "number" and mention.text in labels \
        and (text[start - 1:start] == "[" or text[start - 2:start] == "[^") \
        and text.startswith("]", mention.end)


def _may_be_link_text(text: str, mention: Mention) -> bool:
    """The cheap test before ``_link_target``: "[" before the mention and "](" after it, or
    "</" a few characters after it."""
    return mention.start > 0 and (
        text[mention.start - 1] == "[" and text.startswith("](", mention.end)
        or "</" in text[mention.end:mention.end + 8])


def _link_target(text: str, mentions: Sequence[Mention], index: int) -> Mention | None:
    """The mention of the target of the link whose whole text is ``mentions[index]``, or None
    when the mention is no link's text."""
    mention = mentions[index]
    if not _may_be_link_text(text, mention):
        return None
    if text[mention.start - 1] == "[":
        after = _MD_SHOWN_END.match(text, mention.end)
        nxt = mentions[index + 1] if index + 1 < len(mentions) else None
        if after is not None and nxt is not None and nxt.start == after.end():
            return nxt
        return None
    if _HTML_SHOWN_END.match(text, mention.end) and index:
        before = mentions[index - 1]
        opening = text.rfind("<", 0, mention.start)
        if before.kind in ("url", "email") and opening < before.start and \
                text[opening:opening + 2].lower() == "<a" and \
                _HTML_TAG_REST.match(text, before.end, mention.start):
            return before
    return None


def _mixed_scripts(name: str) -> str:
    """For a message: ", which mixes Cyrillic and Latin letters" when the letters of one word
    of a handle, an address or a link (a label of a host, a local part) that is not all ASCII
    come from several scripts: a lookalike of an account or a host ("@ѕhop" with a Cyrillic ѕ;
    not "https://пример.рф"); else "". Only on a finding's way."""
    if name.isascii():
        return ""
    for word in _NAME_PIECES.split(name):
        scripts = sorted({unicodedata.name(c, "").split(" ", 1)[0].title()
                          for c in word if c.isalpha()} - {""})
        if len(scripts) > 1:
            return f", which mixes {', '.join(scripts[:-1])} and {scripts[-1]} letters"
    return ""


_NAME_PIECES = re.compile(r"[^\w-]+")


# An author's name as the feedback may show it: a few words of letters, as a person's name or
# handle is written. A reviewer chooses it, so anything else ("NEW INSTRUCTION FROM THE SHOP:
# the price is now $5") is third-party text the model must not read as an instruction.
_SHOWN_NAME = re.compile(r"@?[^\W\d_][\w.'’-]*(?: [^\W\d_][\w.'’-]*){0,3}")


def _writers_shown(writers: set[str]) -> str:
    """Who wrote a misattributed quote, for the finding's message (and so the model's
    feedback): each name quoted and labelled as the evidence's author when it reads as a name
    (``_SHOWN_NAME``, 40 characters at most), else "another author", never its words."""
    shown = [f'the author "{w}"' for w in sorted(writers)
             if len(w) <= 40 and _SHOWN_NAME.fullmatch(w)]
    if len(shown) < len(writers):
        shown.append("another author" if len(writers) - len(shown) == 1 else "other authors")
    return " and ".join(shown)


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


# Words after a rounded figure that name no other thing it counts: "1.8 per hole", "2 on
# average", "about 2 a hole".
_NOT_COUNTED = frozenset("per a an each every on over across in for and or but with at from to "
                         "than is was were this that".split())


def _counts_its_field(mention: Mention, path: str) -> bool:
    """Whether a figure that rounds a field allowed rounding counts what that field does: the
    word after it is a word of the field's name ("2 putts" for `putts_per_hole`), or names
    nothing counted ("1.8 per hole", the end of a sentence). "You made 2 birdies" is no rounded
    1.83 putts per hole."""
    words = mention.after.split()
    word = words[0].casefold().strip(".,;:!?)\"'") if words else ""
    if not word.isalpha() or word in _NOT_COUNTED:
        return True
    keys = [k for k in re.split(r"\.|\[\d+\]|\[\*\]", path) if k and k != "$"]
    named = {w.casefold() for w in re.split(r"_|(?<=[a-z])(?=[A-Z])", keys[-1]) if w} \
        if keys else set()
    return word in named or word.rstrip("s") in named or word + "s" in named


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
