"""What a claims template's own words state of the rows its claims cite, besides its slots.

Two readings, each behind a cheap first look so that the common reply pays a substring test:

- **An enum label said in the template's words** ("Your order {order_id} has been
  delivered.") states the value of its field for the row its sentence names, as a slot would:
  it is held to that row's stored value (``labels``), not to names-only evidence. The label
  is read as the sweep's rule 13 reads it (``sweep_labels._stated``: not in a question, a
  supposition or a negation; a one-word label only after a copula), and also after "and"
  that carries the clause's copula over ("is {status} and already delivered").
- **An assent to the user's question** ("Yes, it is.", "Correct.", "Yes, your order {id}
  will." opening the reply, or "unchanged", "that price", "as you said" in it) to a yes-or-no
  question about a state of things ("Is the OLED TV still $899?", "Will it ship in 2 days?",
  "Will my order arrive by Friday?", "Is my order delivered?") states the question's
  figures, days and states: each is held to the cited rows' stored values of its kind
  (``asked``), its bound kept ("by Friday": on or before).

Both need fields the claims may not name (a reply citing only the order's id): ``Said.fields``
says which, and the lookup reads them too. What they fail is ``contradicted`` (the record
holds another value; the reason names the question's or the template's words and the true
value) or ``stray_figure`` (no cited row holds a value of that kind to hold it to).
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from typing import Any, Mapping, NamedTuple, Sequence

from rulekit import dates
from rulekit.assent import agreement
from rulekit.compare import Unreadable, _alias_table, _decimal, _fold
from rulekit.decision import Failure, Reason
from rulekit.policy import Policy, derived
from rulekit.render import format_value
from rulekit.sweep_free import asked_free

# What a figure kind of the question is held to: the kinds of field that can hold it.
_KINDS = {"money": ("money",), "count": ("integer", "decimal"), "percent": ("decimal", "integer"),
          "day": ("date", "timestamp"), "contact": ("text", "identifier", "url")}
# What marks a field as the one a contact of the question would be held to, by the kind of the
# contact: the field whose value differs then makes the assent ``contradicted``.
_CONTACT_FIELDS = {"email": ("mail",), "handle": ("handle", "account", "twitter", "instagram",
                                                   "social"),
                   "phone": ("phone", "tel", "mobile", "fax", "hotline"), "url": ()}

# Words before a figure or day of the question that make it a bound ("by Friday", "under
# $50", "within 2 days", "at least 10"): the comparison the stored value must pass. "until"
# bounds an event from one side ("Will it ship until Friday?") and a deadline from the other
# ("Can I cancel until 7 pm?": a deadline of 18:00 is no yes), so a yes to it must be the
# stored value itself: no reading of it then confirms what the row does not hold.
_BOUNDS = {"by": "<=", "until": "==", "till": "==", "within": "<=", "before": "<",
           "under": "<", "below": "<", "after": ">", "over": ">", "above": ">",
           "beyond": ">", "less than": "<", "fewer than": "<", "more than": ">",
           "at least": ">=", "at most": "<=", "up to": "<=", "no more than": "<="}
_BOUND_WORDS = re.compile(r"(?:(?<![\w'’])(no more than|less than|fewer than|more than|at least|"
                          r"at most|up to|by|until|till|within|before|under|below|after|over|"
                          r"above|beyond)[ \t]+(?:the[ \t]+|a[ \t]+)?)$", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_]+")
# The fields "free" in a question is held to when it names none: a price, not a deposit.
_PRICE_WORDS = frozenset("price cost fee total amount fare charge".split())
_NAME_WORDS = re.compile(r"\w+")

_NEGATED = re.compile(r"(?<![\w'’])(?:not|no|never|isn't|aren't|wasn't|won't|didn't|doesn't|"
                      r"hasn't|haven't)(?![\w'’])|n[’']t(?![\w])", re.IGNORECASE)


class _Label(NamedTuple):
    item: Any           # sweep_labels._Label
    said: str
    start: int


class _Asked(NamedTuple):
    kind: str           # money | count | percent | day | state
    text: str           # as the question says it, its bound included ("by Friday")
    op: str             # == <= < >= >
    value: Any          # Decimal (with currency), dt.date, "--MM-DD", or an enum value
    currency: str | None = None
    words: frozenset[str] = frozenset()     # the words after a count ("days") or the field
    field: tuple[str, str] | None = None    # (entity, field) of a state


class Said(NamedTuple):
    """What ``read`` found in one template and question."""
    text: str                                   # the template, slots shown as {name}
    slots: tuple[tuple[int, int, str], ...]     # (start, end, name) of each slot in ``text``
    labels: tuple[_Label, ...]
    asked: tuple[_Asked, ...]
    agreeing: str | None                        # the words that agree with the question

    def fields(self, entities: Sequence[Any]) -> dict[str, set[str]]:
        """The readable fields of the cited ``entities`` these readings need, by entity."""
        wanted: dict[str, set[str]] = {}
        kinds = {kind for asked in self.asked if asked.kind != "state"
                 for kind in _kinds(asked)}
        states = {asked.field for asked in self.asked if asked.kind == "state"}
        states |= {(label.item.entity, label.item.field) for label in self.labels}
        for entity in entities:
            for field in entity.readable_fields:
                if field.type.kind in kinds or (entity.name, field.name) in states:
                    wanted.setdefault(entity.name, set()).add(field.name)
        return wanted


def read(policy, pieces: Sequence[str], question: str | None, now: dt.datetime) -> Said | None:
    """The labels a template's words say and the figures of the question it agrees with, or
    None when there are none (the common case, after a substring test or two)."""
    prose = "".join(pieces[0::2])
    labels_said = _labels_prefilter(policy, prose)
    agreeing = _agreeing(prose) if question and _may_ask(policy, question) else None
    if not labels_said and agreeing is None:
        return None
    parts, slots, at = [], [], 0
    for index, piece in enumerate(pieces):
        shown = piece if index % 2 == 0 else "{" + piece + "}"
        if index % 2:
            slots.append((at, at + len(shown), piece))
        parts.append(shown)
        at += len(shown)
    text = "".join(parts)
    labels = _labels(policy, text, slots, labels_said) if labels_said else ()
    asked = _asked(policy, question, now) if agreeing is not None else ()
    if not labels and not asked:
        return None
    return Said(text, tuple(slots), tuple(labels), tuple(asked),
                agreeing if asked else None)


# --- labels said in the template's words ------------------------------------------------------

def _labels_prefilter(policy, prose: str) -> list:
    labels = policy.enum_labels
    if not labels:
        return []
    low = " ".join(prose.casefold().split())
    return [item for item in labels if item.folded in low]


_AND = re.compile(r"(?:^|[ \t,])(?:and|but)[ \t]+$", re.IGNORECASE)
_CARRIED = frozenset("now already still fully currently also all both marked shown listed as "
                     "being been has have had is are was were".split())
_COPULAS = frozenset("is are was were been remains stays".split())


def _labels(policy, text: str, slots, said) -> list[_Label]:
    from rulekit.sweep_labels import _stated

    found, last = [], -1
    matches = sorted(((m.start(), -m.end(), item) for item in said
                      for m in item.pattern.finditer(text)), key=lambda m: m[:2])
    for start, minus_end, item in matches:
        end = -minus_end
        if start < last or any(s < end and start < e for s, e, _ in slots):
            continue
        if _stated(text, start, end, item, policy) or _carried(text, start, end, item, policy):
            found.append(_Label(item, text[start:end], start))
            last = end
    return found


def _carried(text: str, start: int, end: int, item, policy) -> bool:
    """ "Your order {order_id} is {status} and already delivered.": a label whose clause opens
    with "and" or "but" and holds nothing before it but words like "already", said of the
    subject of the clause before, whose copula it carries over."""
    from rulekit.sweep_labels import _stated

    sentence = max(text.rfind(mark, 0, start) for mark in ".!?\n") + 1
    head = text[sentence:start]
    words = _WORD.findall(head[-60:])
    cut = None
    for index in range(len(words) - 1, -1, -1):
        if words[index].casefold() in ("and", "but"):
            cut = index
            break
        if words[index].casefold() not in _CARRIED:
            return False
    if cut is None:
        return False
    before = [w.casefold() for w in words[:cut]]
    if not any(w in _COPULAS for w in before):
        return False
    # Read as if "and" were the copula of the clause before: "Your order {order_id} is delivered".
    at = head.lower().rfind(words[cut].lower())
    joined = text[:sentence + at] + "is " + text[start:]
    return _stated(joined, sentence + at + 3, sentence + at + 3 + (end - start), item, policy)


# --- agreeing with the question ---------------------------------------------------------------

def _agreeing(prose: str) -> str | None:
    """The words that agree with the question (``rulekit.assent.agreement``, the sweep's
    reader too): an assent opening the reply ("Yes, it is.", "✅ Correct.", "Hi Maria, yes,
    it is."), or confirming words in it ("unchanged", "that price"), not qualified."""
    found = agreement(prose)
    return None if found is None else prose[found[0]:found[1]]


def _may_ask(policy, question: str) -> bool:
    """The first look at a question: whether it holds a digit, a weekday's name or a word of
    an enum value's alias (a figure, a day or a state it may ask about)."""
    if any(c.isdigit() for c in question) or _has_contact(question) \
            or asked_free(question) is not None:
        return True
    low = question.casefold()
    words = derived(policy, "said.state_words", _state_words)
    if any(word in low for word in words[1]):
        return True
    return words[0] is not None and words[0].search(low) is not None


def _state_words(rules: Policy) -> tuple[re.Pattern | None, tuple[str, ...]]:
    """The weekday names of the policy's locale (a pattern over lower-cased text) and the
    aliases of its readable enum fields, casefolded; once per policy (``policy.derived``)."""
    from rulekit.sweep_days import _lone_weekday_names

    aliases = {word for entity in rules.entities for field in entity.readable_fields
               if field.type.kind == "enum" for word, _ in field.type.aliases if word}
    return _lone_weekday_names(rules.locale)[0], tuple(sorted(aliases))


def _state_question(question: str) -> int | None:
    """Where the yes-or-no question about a state of things starts (``sweep._STATE_QUESTION``),
    in its first sentence or any later one that ends with "?", or None."""
    from rulekit.sweep import _STATE_QUESTION

    at = 0
    while at < len(question):
        if _STATE_QUESTION.match(question, at):
            return at
        ends = [found for found in (question.find(mark, at) for mark in ".!?\n") if found >= 0]
        if not ends:
            return None
        at = min(ends) + 1
    return None


def _bound(question: str, start: int) -> tuple[str, str]:
    found = _BOUND_WORDS.search(question[max(0, start - 20):start])
    if found is None:
        return "==", ""
    word = " ".join(found.group(1).lower().split())
    return _BOUNDS[word], found.group(0)


def _asked(policy, question: str, now: dt.datetime) -> list[_Asked]:
    """The figures, days and states of a yes-or-no question about a state of things."""
    if not question or len(question) > 2000:
        return []
    begin = _state_question(question)
    if begin is None:
        return []
    asked: list[_Asked] = []
    if any(c.isdigit() for c in question) or _has_contact(question):
        from rulekit.scan import scan
        from rulekit.sweep import _phone_runs

        runs = _phone_runs(question)
        for a, b in runs:
            if a >= begin:
                asked.append(_Asked("contact", question[a:b], "==", _digits(question[a:b]),
                                    words=frozenset({"phone"})))
        for mention in scan(question, policy.locale):
            if mention.start < begin or any(a <= mention.start < b for a, b in runs):
                continue
            if mention.kind in ("url", "email", "handle"):
                asked.append(_Asked("contact", mention.text, "==",
                                    _contact(mention.kind, mention.normalized or mention.text),
                                    words=frozenset({mention.kind})))
                continue
            before = question[mention.start - 1:mention.start] if mention.start else ""
            after = question[mention.end:mention.end + 1]
            if before.isalnum() or before in "-#/_" and before or after.isalnum() \
                    or after in "-_/" and after:
                continue        # part of a code ("A1001", "RC-500")
            op, bound = _bound(question, mention.start)
            shown = (bound + mention.text).strip()
            if mention.kind == "date":
                if mention.day is not None:
                    asked.append(_Asked("day", shown, op, _with_time(mention)))
                elif (mention.normalized or "").startswith("--"):
                    asked.append(_Asked("day", shown, op, _of_year(mention.normalized, op,
                                                                   policy, now)))
            elif mention.value is not None:
                if mention.percent:
                    asked.append(_Asked("percent", shown, op, Decimal(mention.value)))
                elif mention.currency is not None:
                    asked.append(_Asked("money", shown, op, Decimal(mention.value),
                                        mention.currency))
                else:
                    words = _WORD.findall(question[mention.end:mention.end + 40])[:2]
                    asked.append(_Asked("count", (shown + " " + " ".join(words)).strip(), op,
                                        Decimal(mention.value),
                                        words=frozenset(_stem(w) for w in words)))
    free = asked_free(question[begin:])
    if free is not None:        # "Is the Widget free?" asks whether its price is 0
        asked.append(_Asked("money", free, "==", Decimal(0), words=_PRICE_WORDS))
    asked += _asked_days(policy, question, begin, now)
    asked += _asked_states(policy, question, begin)
    return asked


def _with_time(mention) -> dt.date | dt.datetime:
    """The day a question asks of, with the clock time said beside it ("7 am on 10 March
    2027"): a naive wall time, or an aware instant when a zone was written."""
    time = mention.time
    if time is None or isinstance(time.tzinfo, dates.Readings):
        return mention.day
    return dt.datetime.combine(mention.day, time)


def _of_year(normal: str, op: str, policy, now: dt.datetime) -> str | dt.date:
    """A day of no year ("--03-05") a question bounds ("by March 5"): that day in the year
    that puts it nearest today in the ruleset's zone, as a bound needs a year; asked as the
    day itself it stays a day of any year."""
    if op == "==":
        return normal
    today = now.astimezone(dates.zone(policy.timezone)).date()
    month, day = int(normal[2:4]), int(normal[5:7])
    found = []
    for year in (today.year - 1, today.year, today.year + 1):
        try:
            found.append(dt.date(year, month, day))
        except ValueError:
            continue                    # 29 February
    return min(found, key=lambda d: abs(d - today)) if found else normal


def _asked_days(policy, question: str, begin: int, now: dt.datetime) -> list[_Asked]:
    from rulekit.sweep_days import _lone_weekday_names

    pattern, names, _ = _lone_weekday_names(policy.locale)
    if pattern is None:
        return []
    low = question.lower()
    if len(low) != len(question):
        return []
    today = now.astimezone(dates.zone(policy.timezone)).date()
    found = []
    for match in pattern.finditer(low, begin):
        weekday = names[match.group(0)]
        day = today + dt.timedelta(days=(weekday - today.weekday()) % 7)
        op, bound = _bound(question, match.start())
        found.append(_Asked("day", (bound + question[match.start():match.end()]).strip(), op,
                            day))
    return found


def _asked_states(policy, question: str, begin: int) -> list[_Asked]:
    """The enum values a question names by a label or an alias ("Is my order delivered?",
    "Has it arrived?"), not after a negation."""
    low = " ".join(question.casefold().split())
    found, seen = [], set()
    for entity in policy.entities:
        for field in entity.readable_fields:
            spec = field.type
            if spec.kind != "enum":
                continue
            for word, value in _alias_table(spec.aliases).items():
                if not word or word not in low:
                    continue
                match = re.search(r"(?<![\w'’])" + r"\s+".join(map(re.escape, word.split()))
                                  + r"(?![\w'’])", question[begin:], re.IGNORECASE)
                if match is None or _NEGATED.search(question, begin, begin + match.start()):
                    continue
                key = (entity.name, field.name, value)
                if key not in seen:
                    seen.add(key)
                    found.append(_Asked("state", match.group(0), "==", value,
                                        field=(entity.name, field.name)))
    return found


def _has_contact(question: str) -> bool:
    """The first look for a link, an e-mail address or a handle in the question."""
    return "@" in question or "://" in question or "www." in question


def _digits(text: str) -> str:
    return "".join(c for c in text if c.isdigit())


def _contact(kind: str, text: str) -> str:
    """A link, e-mail address, handle or phone number as it is compared."""
    if kind == "url":
        from rulekit.evidence import _url

        return _url(text)
    if kind == "phone":
        return _digits(text)
    return text.strip().casefold().lstrip("@") if kind == "handle" else text.strip().casefold()


def _same_contact(kind: str, stored: str, asked: str) -> bool:
    said = _contact(kind, stored)
    if kind == "phone":         # "+1 555 010 0100" and "555-010-0100" are one number
        short, long = sorted((said, asked), key=len)
        return len(short) >= 7 and long.endswith(short)
    return said == asked


def _stem(word: str) -> str:
    word = word.casefold()
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


# --- judging ----------------------------------------------------------------------------------

def failures(said: Said, policy, planned: Sequence[Any], rows: Mapping, path: str,
             question: str | None) -> list[Failure]:
    """The failures of ``said`` against the rows the claims of ``planned`` cite."""
    cited = [p for p in planned if p.blocked is None]
    out: list[Failure] = []
    for label in said.labels:
        out += _judge_label(said, label, policy, cited, rows, path)
    if said.asked:
        out += _judge_asked(said, policy, cited, rows, path, question or "")
    return out


def _row_of(item, rows: Mapping) -> Mapping | None:
    found = (rows.get(item.entity.name) or {}).get(str(item.claim.entity_id))
    return found if isinstance(found, Mapping) else None


def _nearest(said: Said, at: int, cited: Sequence[Any], entity: str) -> list[Any]:
    """The claims of ``entity`` whose slot the words at ``at`` are said of: the nearest slot of
    the entity before them in their sentence, else after them in it, else the last one before
    the sentence; else every claim of the entity."""
    by_key = {p.claim.key: p for p in cited if p.entity.name == entity}
    if not by_key:
        return []
    text = said.text
    begin = max(text.rfind(mark, 0, at) for mark in ".!?\n") + 1
    ends = [found for found in (text.find(mark, at) for mark in ".!?\n") if found >= 0]
    end = min(ends) if ends else len(text)
    spots = [(start, name) for start, _, name in said.slots if name in by_key]
    before = [name for start, name in spots if begin <= start < at]
    after = [name for start, name in spots if at <= start < end]
    earlier = [name for start, name in spots if start < begin]
    for names in (before[-1:], after[:1], earlier[-1:]):
        if names:
            return [by_key[names[0]]]
    return list(by_key.values())


def _shown(field, stored, locale: str) -> str:
    try:
        return format_value(field, stored, locale)
    except Unreadable:
        return "unreadable"


def _enum_value(field, stored) -> str | None:
    if not isinstance(stored, str):
        return None
    return _alias_table(field.type.aliases).get(_fold(stored))


def _label_of(field, value: str) -> str:
    return dict(field.type.labels).get(value, value)


def _judge_label(said: Said, label: _Label, policy, cited, rows, path) -> list[Failure]:
    item = label.item
    claims = _nearest(said, label.start, cited, item.entity)
    where = f"{item.entity}.{item.field}"
    if not claims:
        message = (f"'{label.said}' is the label of {item.value} in {where}, and no claim "
                   f"cites a row of {item.entity}; state it through a slot")
        return [Failure("stray_figure", Reason("stray_figure", message, path))]
    out = []
    entity = policy.entity(item.entity)
    field = entity.field(item.field)
    for claim in claims:
        row = _row_of(claim, rows)
        if row is None:
            continue        # its claim is not_found or its lookup failed: judged there
        stored = row.get(item.field)
        value = _enum_value(field, stored)
        if value == item.value:
            continue
        true = _label_of(field, value) if value is not None else "not recorded"
        message = (f"'{label.said}' in the template says the {field.label} of {item.entity} "
                   f"{claim.claim.entity_id} is {item.value}; the record has {true}")
        hint = (f"'{label.said}' in the template states the {field.label}, and the record "
                f"says otherwise; state the {field.label} only through a slot")
        out.append(Failure("contradicted", Reason("contradicted", message, path),
                           feedback=hint))
    return out


def _holds(kind: str, field, stored, asked: _Asked) -> bool | None:
    """Whether ``stored`` in ``field`` passes the question's ``asked``; None when it cannot be
    read as that kind."""
    spec = field.type
    try:
        if kind == "day":
            day = dates.stored_day(stored, getattr(spec, "zone", None),
                                   getattr(spec, "naive_zone", "UTC"))
            if day is None:
                return None
            if isinstance(asked.value, str):        # "--12-07": a day of no year
                return asked.op == "==" and f"--{day.month:02d}-{day.day:02d}" == asked.value
            if isinstance(asked.value, dt.datetime):  # "7 am on 10 March 2027"
                return _time_holds(spec, stored, asked)
            return _passes(day, asked.op, asked.value)
        if stored is None or isinstance(stored, bool):
            return None
        if spec.kind == "money":
            from rulekit import numbers
            from rulekit.compare import COMPARATORS

            if asked.currency is not None and asked.currency != spec.currency:
                return False
            minor = numbers.to_minor_units(asked.value, spec.currency)
            if minor is None:
                return False    # more decimals than the currency has: no amount it holds
            return _passes(COMPARATORS["money"].read_actual(spec, stored, "money"), asked.op,
                           minor)
        return _passes(_decimal(stored), asked.op, asked.value)
    except (Unreadable, ValueError, TypeError, ArithmeticError):
        return None


def _time_holds(spec, stored, asked: _Asked) -> bool | None:
    """Whether the timestamp ``stored`` passes a question's day and time: the wall time in the
    field's zone against a time said without one, the instant against one said with a zone;
    a date field is held to the day alone."""
    if spec.kind != "timestamp":
        day = dates.stored_day(stored, None, getattr(spec, "naive_zone", "UTC"))
        return None if day is None else _passes(day, asked.op, asked.value.date())
    instant = dates.stored_instant(stored, getattr(spec, "naive_zone", "UTC"))
    if instant is None:
        return None
    wanted = asked.value
    if wanted.tzinfo is None:
        zone = getattr(spec, "zone", None)
        instant = (instant.astimezone(dates.zone(zone)) if zone else instant).replace(
            tzinfo=None)
    return _passes(instant.replace(second=0, microsecond=0), asked.op, wanted)


def _passes(stored, op: str, value) -> bool:
    return {"==": stored == value, "<=": stored <= value, "<": stored < value,
            ">=": stored >= value, ">": stored > value}[op]


def _kinds(asked: _Asked) -> tuple[str, ...]:
    """The kinds of field a figure of the question may be: a bare number ("Is it still 899?")
    an amount too."""
    if asked.kind == "count" and not asked.words:
        return ("integer", "decimal", "money")
    return _KINDS[asked.kind]


def _candidates(entity, kind: str, asked: _Asked, question_words: frozenset[str]) -> list:
    fields = [f for f in entity.readable_fields if f.type.kind in _kinds(asked)]
    if kind == "count":
        # A count is held to the fields it counts: "2 days" to a field whose name or label
        # says days, never to a warranty in years that happens to be 2.
        return [f for f in fields if asked.words & _field_words(f)] if asked.words else fields
    named = [f for f in fields if question_words & _field_words(f)]
    if not named and asked.words:   # "free": held to a price, not to a deposit
        named = [f for f in fields if asked.words & _field_words(f)]
    return named or fields


def _field_words(field) -> frozenset[str]:
    return frozenset(_stem(w) for w in _WORD.findall(f"{field.name.replace('_', ' ')} "
                                                      f"{field.label}"))


def _judge_asked(said: Said, policy, cited, rows, path, question: str) -> list[Failure]:
    words = frozenset(_stem(w) for w in _WORD.findall(question))
    out = []
    # The words of the cited rows' text ("Model 3", a key "1001"): a number of the question
    # that is one of them names a row, and is no figure.
    names = {word for p in cited for v in (_row_of(p, rows) or {}).values()
             if isinstance(v, str) for word in _NAME_WORDS.findall(v.casefold())}
    seen_rows = {}
    for p in cited:
        seen_rows.setdefault((p.entity.name, str(p.claim.entity_id)), p)
    for asked in said.asked:
        if asked.kind == "count" and asked.text.split(" ")[0].casefold() in names:
            continue        # the number of a name the reply cites ("Model 3")
        if asked.kind == "contact":
            out += _judge_contact(said, asked, seen_rows, rows, path, policy)
            continue
        trues, held, compared = [], False, False
        for (entity_name, row_id), item in seen_rows.items():
            row = _row_of(item, rows)
            if row is None:
                continue
            entity = item.entity
            if asked.kind == "state":
                if asked.field[0] != entity_name:
                    continue
                field = entity.field(asked.field[1])
                if field.name not in row:
                    continue
                compared = True
                value = _enum_value(field, row.get(field.name))
                if value == asked.value:
                    held = True
                    break
                shown = _label_of(field, value) if value is not None else "not recorded"
                trues.append(f"the {field.label} of {entity_name} {row_id} is {shown}")
                continue
            for field in _candidates(entity, asked.kind, asked, words):
                if field.name not in row:
                    continue
                result = _holds(asked.kind, field, row.get(field.name), asked)
                if result is None:
                    continue
                compared = True
                if result:
                    held = True
                    break
                trues.append(f"the {field.label} of {entity_name} {row_id} is "
                             f"{_shown(field, row.get(field.name), policy.locale)}")
            if held:
                break
        if held:
            continue
        if not compared:
            if asked.kind == "state":
                # No cited row has the field: the state is said of nothing the reply names
                # ("Did you send us the invoice?": "us" is an alias of a market), not judged.
                continue
            message = (f"'{said.agreeing}' agrees with '{asked.text}' in the question, which no "
                       "value of the rows the claims cite holds; confirm a figure only through "
                       "a slot")
            out.append(Failure("stray_figure", Reason("stray_figure", message, path)))
            continue
        message = (f"'{said.agreeing}' agrees with '{asked.text}' in the question, but "
                   + "; ".join(dict.fromkeys(trues[:3])))
        hint = (f"'{said.agreeing}' agrees with '{asked.text}' in the question, which the "
                "record does not hold; do not confirm it, state the value through a slot")
        out.append(Failure("contradicted", Reason("contradicted", message, path), feedback=hint))
    return out


def _judge_contact(said: Said, asked: _Asked, seen_rows, rows, path, policy) -> list[Failure]:
    """A link, e-mail address, handle or phone number of the question an assent agrees with:
    held when a readable text, identifier or url field of a cited row holds it; otherwise
    ``contradicted`` when a cited row has a field of its kind (a url field, a field whose name
    or label says mail, phone, handle...), naming its value, else ``stray_figure``."""
    (kind,) = asked.words
    marks = _CONTACT_FIELDS[kind]
    trues = []
    for (entity_name, row_id), item in seen_rows.items():
        row = _row_of(item, rows)
        if row is None:
            continue
        for field in item.entity.readable_fields:
            stored = row.get(field.name)
            if field.type.kind not in _KINDS["contact"] or not isinstance(stored, str):
                continue
            if _same_contact(kind, stored, asked.value):
                return []
            words = f"{field.name} {field.label}".casefold()
            if (field.type.kind == "url") == (kind == "url") and (
                    not marks or any(mark in words for mark in marks)):
                trues.append(f"the {field.label} of {entity_name} {row_id} is "
                             f"{_shown(field, stored, policy.locale)}")
    if not trues:
        message = (f"'{said.agreeing}' agrees with '{asked.text}' in the question, which no "
                   "value of the rows the claims cite holds; confirm a link, an address or a "
                   "number only through a slot")
        return [Failure("stray_figure", Reason("stray_figure", message, path))]
    message = (f"'{said.agreeing}' agrees with '{asked.text}' in the question, but "
               + "; ".join(dict.fromkeys(trues[:3])))
    hint = (f"'{said.agreeing}' agrees with '{asked.text}' in the question, which the record "
            "does not hold; do not confirm it, state the value through a slot")
    return [Failure("contradicted", Reason("contradicted", message, path), feedback=hint)]
