"""Rule 10 of the sweep, the days said in words: relative days and weekdays said alone.

A relative day ("yesterday", "3 days ago", gestern, 昨天) is resolved against the evidence's
today (``_relative_days``); "today" as the day of an event needs a day of the data
(``_event_day``); "last month", "this month" as the time of an event need a date of the
evidence in that month (``_relative_months``). A weekday said alone as the day of something
("It arrives Friday") must be a date of the evidence (``_lone_weekdays``): with a today, the
one day a customer reads it as, by "this", "next", "last" or its tense
(``_resolved_weekday``); without one, any day of that weekday; unless its clause is about
opening hours, supposes or denies (``_lone_statement``). The weekday written with a date
(``_stated_weekday``, ``_weekday_patterns``) and how "midnight on D" is read
(``midnight_reading``) are here too, for ``rulekit.sweep``'s ``_Judge``.
"""

from __future__ import annotations

import bisect
import calendar
import datetime as dt
import functools
import re
from decimal import Decimal
from typing import Callable, Collection, Sequence

from babel.dates import get_day_names, get_month_names

from rulekit import dates
from rulekit.evidence import Evidence, Withheld
from rulekit.findings import Finding, _new_finding
from rulekit.scan import Mention, squash
from rulekit.scan.base import _ascii_lower, _is_cjk, _word_after, az_words

# Relative days. "last week" names a period that evidence usually states, so it is not read;
# "last month" is, only as the time of an event (``_relative_months``). Each
# language's words by how many days from today they are, longest first where one contains
# another ("the day before yesterday" before "yesterday"); a word that is also an everyday
# word of another language ("hier" is "here" in German) is read only in its own language.
_NORWEGIAN = {"i forgårs": -2, "i overmorgen": 2, "i går": -1, "i dag": 0, "i kveld": 0,
              "i morgen": 1}
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
    # Swedish, Danish and Norwegian write them as one word or two ("idag", "i dag"); "morgon"
    # and "morgen" alone are the morning
    "sv": {"i förrgår": -2, "förrgår": -2, "i övermorgon": 2, "övermorgon": 2, "igår": -1,
           "i går": -1, "idag": 0, "i dag": 0, "ikväll": 0, "i kväll": 0, "imorgon": 1,
           "i morgon": 1},
    "da": {"i forgårs": -2, "i overmorgen": 2, "i går": -1, "i dag": 0, "i aften": 0,
           "i morgen": 1},
    "nb": _NORWEGIAN, "no": _NORWEGIAN,
    "pl": {"przedwczoraj": -2, "pojutrze": 2, "wczoraj": -1, "dzisiaj": 0, "dziś": 0,
           "jutro": 1},
}
# Before a later day, words that make it a farewell when the sentence ends there ("See you
# tomorrow!", "À demain !", "Hasta mañana.").
_SIGN_OFF_BEFORE = ("see you ", "talk to you ", "speak to you ", "talk ", "à ", "a ", "hasta ",
                    "bis ", "até ", "tot ", "じゃあ", "また")
_SIGN_OFF_AFTER = re.compile(r"[ \t\u00a0]*(?:[!.,;。！]|$)")


def _ends_with_sign_off(before: str) -> bool:
    """Whether the text before a later day ends with a whole sign-off word: "hasta ", "à ",
    "a " after a space or the start, not the last letter of "llega " or "arriva " (the
    Japanese ones, written without spaces, need no boundary)."""
    for word in _SIGN_OFF_BEFORE:
        if before.endswith(word):
            cut = len(before) - len(word)
            if not word.endswith(" ") or cut == 0 or not (
                    before[cut - 1].isalnum() or before[cut - 1] in "'’_"):
                return True
    return False

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
                 # Japanese formal and spoken days, and a morning or a night of one: 本日 is
                 # today in a shop's Japanese, 明朝 tomorrow morning
                 "本日": 0, "今朝": 0, "今晩": 0, "今夜": 0, "明朝": 1, "明晩": 1, "昨晩": -1,
                 "昨夜": -1, "あした": 1, "あさって": 2, "おととい": -2,
                 "今晚": 0, "明早": 1, "明晚": 1, "昨晚": -1,
                 "그저께": -2, "그제": -2, "어제": -1, "오늘": 0, "내일": 1, "모레": 2,
                 "一周前": -7, "一週前": -7, "一星期前": -7, "一週間前": -7, "两周前": -14,
                 "兩週前": -14, "二週間前": -14, "일주일 전": -7,
                 # Korean native counts of days: 하루 (one day), 이틀 (two)... 열흘 (ten)
                 **{f"{word}{space}전": -days for days, word in (
                     (1, "하루"), (2, "이틀"), (3, "사흘"), (4, "나흘"), (5, "닷새"), (6, "엿새"),
                     (7, "이레"), (10, "열흘")) for space in ("", " ")}}
# The characters before or after a relative day of ``_CJK_RELATIVE`` that make it part of another
# word: ああした ("did it like that"), 明朝体 (the Mincho typeface).
_CJK_RELATIVE_NOT = {"あした": ("あ", ""), "明朝": ("", "体 體")}
# "3 days ago", "two weeks ago", "vor 3 Tagen", "il y a 3 jours", "hace 3 días", 3天前, 3日前,
# 3일 전, "a month ago": the count and the unit (a day, a week or a month). "in 3 days" and 3天后
# are not read: far more often a duration ("ships in 3 days", "doubled in a week") than a day.
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
_COUNT_WORDS.update({"a": 1, "einer": 1, "une": 1, "una": 1, "uma": 1, "duas": 2, "één": 1,
                     "ひと": 1, "ふた": 2})
# English counts that hedge ("a couple of months ago", "a few days ago"): read as 2 and 3, each
# give or take half, like "about 2 months ago".
_HEDGED_COUNTS = {"a couple of": 2, "a few": 3}
_COUNT_WORDS.update(_HEDGED_COUNTS)


def _counted_words(language: str, *more: str) -> str:
    return "|".join(["[0-9]{1,4}", *_COUNT_WORDS_OF[language].split(), *more])


def _low_end(language: str, *joins: str) -> str:
    """An optional first end of a range of counts before the count ("3-4 days ago", "three to
    four days ago", "vor 3 bis 4 Tagen"): digits or a count word, then a dash or a word."""
    words = "|".join(["[0-9]{1,3}", *_COUNT_WORDS_OF[language].split()])
    return rf"(?:(?P<low>{words})(?:[ ]?[-\u2013][ ]?|[ ](?:{'|'.join(joins)})[ ]))?"


# A unit of a count: days, weeks or months ("vor einem Monat", "il y a deux mois").
_COUNTED_DAYS = {
    "en": rf"{_low_end('en', 'to', 'or')}"
          rf"(?P<count>{_counted_words('en', 'a couple of', 'a few', 'a')}) "
          r"(?P<unit>days?|weeks?|months?)(?P<half> and a half)? ago",
    "de": rf"vor {_low_end('de', 'bis', 'oder')}(?P<count>{_counted_words('de', 'einer')}) "
          r"(?P<unit>Tag(?:en)?|Wochen?|Monat(?:en)?)",
    "fr": rf"il y a {_low_end('fr', 'à', 'ou')}(?P<count>{_counted_words('fr', 'une')}) "
          r"(?P<unit>jours?|semaines?|mois)",
    "es": rf"hace {_low_end('es', 'a', 'o')}(?P<count>{_counted_words('es', 'una')}) "
          r"(?P<unit>días?|semanas?|mes(?:es)?)",
    "it": rf"{_low_end('it', 'a', 'o')}(?P<count>{_counted_words('it', 'una')}) "
          r"(?P<unit>giorni|giorno|settimane|settimana|mesi|mese) fa",
    # "há uma semana" or "uma semana atrás"
    "pt": rf"(?:(?P<ha>há) )?{_low_end('pt', 'a', 'ou')}"
          rf"(?P<count>{_counted_words('pt', 'uma', 'duas')}) "
          r"(?P<unit>dias?|semanas?|mês|meses)(?(ha)|[ \t\u00a0]+atrás)",
    "nl": rf"{_low_end('nl', 'tot', 'of')}(?P<count>{_counted_words('nl', 'één')}) "
          r"(?P<unit>dagen|dag|weken|week|maanden|maand) geleden",
}
# The count is read from the start of its digits only, and is at most 4 of them: at every
# position of a long run of digits, an unbounded \d+ would run to its end (quadratic). A count
# may be written in CJK numerals (二日前, 两天前, 一个星期前); none is read after a month or another
# numeral (12月3日前 is "before 3 December"). A month needs its measure word (3个月前, 2か月前,
# 2개월 전): 3月前 is "before March".
_CJK_DIGITS = "〇一二三四五六七八九十两兩"
_CJK_COUNTED = (rf"(?<![0-9０-９月{_CJK_DIGITS}])(?P<count3>[0-9０-９]{{1,4}}|[一二三四五六七八九两兩]?十"
                r"[一二三四五六七八九]?|[一二三四五六七八九两兩])[ ]?"
                r"(?P<unit3>天|日|일|[个個]?(?:星期|礼拜|禮拜)|[个個か箇ヶカケ]月|개월|달|週間|周|週|주)"
                r"[ ]?(?:前|전)"
                # a range of days (三四天前, 两三天前, 3-4天前): some day of the evidence between
                # them, as a hedge ("about 3 days ago")
                rf"|(?<![0-9０-９月{_CJK_DIGITS}])(?P<low5>[0-9０-９]{{1,3}}|[一二三四五六七八九两兩])"
                r"(?:[-~〜～到至]|(?=[二三四五六七八九十]))(?P<count5>[0-9０-９]{1,3}|[二三四五六七八九十])"
                r"[ ]?(?P<unit5>天|日|일)[ ]?(?:前|전)"
                # Korean native numbers before 달 (한 달 전, 두 달 전), Japanese ones before 月
                # (ひと月前, ふた月前)
                r"|(?<![가-힣])(?P<count4>한|두|세|네|다섯|여섯|일곱|여덟|아홉|열) ?(?P<unit4>달) 전"
                r"|(?P<count6>ひと|ふた)(?P<unit6>月)前")
_HANGUL_COUNTS = {w: n for n, w in enumerate("한 두 세 네 다섯 여섯 일곱 여덟 아홉 열".split(), 1)}
# The first characters of the CJK relative words and the units of CJK counts.
_CJK_RELATIVE_CHAR = re.compile("[" + "".join(sorted({w[0] for w in _CJK_RELATIVE}))
                                + "天日일周週月월달주期拜]")
_WEEK_UNITS = ("week", "woche", "semaine", "semana", "settiman", "周", "週", "주", "星期", "礼拜",
               "禮拜")
_MONTH_UNITS = ("month", "monat", "mois", "mes", "mês", "maand", "月", "달", "개월")


# What each part of the relative-day pattern needs in the lower-cased text before it is worth
# running: a pattern of many alternatives tries every position of the text, which cost more
# than the rest of an audit on long text (see ``_relative_parts``).
_COUNTED_NEEDS = {"en": ("ago",), "de": ("vor ",), "fr": ("il y a",), "es": ("hace",),
                  "it": (" fa",), "pt": ("há ", "atrás"), "nl": ("geleden",)}


def _relative_parts(language: str, text: str, low: str) -> tuple[bool, bool, bool]:
    """Which parts of ``_relative_pattern`` can match: counted days, the language's words, the
    CJK words and counts. Substring tests and one character class, all in C."""
    counted = any(need in low for need in _COUNTED_NEEDS.get(language, ()))
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
        if language == "de":
            # German capitalises the first word of a sentence: "Heute", "Übermorgen" (not
            # "Morgen", which is also the noun, the morning)
            latin += [w.capitalize() for w in latin if w != "morgen"]
        # "Yesterday's post" is yesterday; "yesterday-ish" is not read
        pattern.append(r"(?<![\w-])(?:" + "|".join(map(re.escape, latin)) + r")(?![\w-])")
    if parts[2]:
        pattern.append(_CJK_COUNTED)
        pattern.append("(?:" + "|".join(map(re.escape, cjk)) + ")")
    flags = re.IGNORECASE if language != "de" else 0    # German "Morgen" is the morning
    return re.compile("|".join(pattern) or "(?!)", flags), \
        {w.lower(): o for w, o in words.items()}


# Between a relative day and its clock time: "tomorrow at 23:30", "tomorrow night at 11:30 pm";
# and between a clock time and its day: "23:30 tomorrow".
# (also "tomorrow around 23:30", "by", "before", "after", "from", "until", "tomorrow (23:30)",
# "tomorrow - 23:30": the time is that day's all the same)
_RELATIVE_TO_TIME = re.compile(r"(?i)[ \t\u00a0,]*(?:(?:morning|afternoon|evening|night)"
                               r"[ \t\u00a0,]+)?(?:(?:at|um|à|@|around|about|by|before|after|"
                               r"from|until|till)[ \t\u00a0]+|\([ \t\u00a0]*|[-–—][ \t\u00a0]*)?\Z")
_TIME_TO_RELATIVE = re.compile(r"[ \t\u00a0]+\Z")


def _clock_of_day(text: str, start: int, end: int, mentions: Sequence[Mention],
                  starts: Sequence[int]) -> Mention | None:
    """The clock time said with the relative day at [start, end): right after it ("tomorrow
    at 23:30", "tonight at 11:30 pm") or right before it ("23:30 tomorrow"); None if none.
    ``starts`` are the starts of ``mentions``, listed once per text."""
    index = bisect.bisect_left(starts, end)
    after = mentions[index] if index < len(mentions) else None
    if after is not None and after.start - end <= 24 and _clock_alone(after) \
            and _RELATIVE_TO_TIME.match(text, end, after.start):
        return after
    before = mentions[index - 1] if index else None
    if before is not None and before.end <= start and start - before.end <= 3 \
            and _clock_alone(before) and _TIME_TO_RELATIVE.match(text, before.end, start):
        return before
    return None


def _relative_days(text: str, evidence: Evidence, locale: str,
                   mentions: Sequence[Mention] = (),
                   hours_days: Collection[tuple[int, int]] = ()
                   ) -> tuple[list[Finding], set[tuple[int, int]]]:
    """Relative days ("yesterday", "3 days ago", gestern, 昨天) resolved against
    the evidence's today: the findings, and the spans of the day counts that were resolved (the
    3 of "3 days ago" is judged with its day, as the date part it is, not as a quantity). A
    clock time said with a day of them ("tomorrow at 23:30", ``_clock_of_day``; ``mentions``
    are the text's, in order) is held to that day, as a weekday's is: a time the evidence holds
    on another day does not back it (its span is then settled, judged with the day). A day
    of ``hours_days`` was read as the day of the store's hours (``rulekit.sweep_hours``): no
    day of the data."""
    findings, settled = [], set()
    today = evidence.today
    language = locale.split("_")[0].lower()
    low = _ascii_lower(text)    # once: each "today" of a long answer reads its clause in it
    parts = _relative_parts(language, text, low)
    if not any(parts):
        return findings, settled
    pattern, offsets = _relative_pattern(language, parts)
    starts = None       # of the mentions, for ``_clock_of_day``: listed once
    for match in pattern.finditer(text):
        said = match.group(0)
        offset = offsets.get(said.lower())
        before = text[max(0, match.start() - 16):match.start()].lower()
        if offset is not None and said.lower() in _MORNING_AFTER and before.endswith(
                _MORNING_AFTER[said.lower()]):
            continue                                # "por la mañana", "heute morgen": a morning
        if said in _CJK_RELATIVE_NOT and (
                match.start() and text[match.start() - 1] in _CJK_RELATIVE_NOT[said][0]
                or text[match.end():match.end() + 1] in _CJK_RELATIVE_NOT[said][1].split()):
            continue                                # ああした, 明朝体: another word
        if hours_days and match.span() in hours_days:
            continue                                # "open today until 22:30": hours
        if offset == 0 and _in_question(text, match.end()):
            continue                                # "How can I help you today?"
        if offset is not None and offset > 0 and _ends_with_sign_off(before) \
                and _SIGN_OFF_AFTER.match(text, match.end()):
            continue                                # "See you tomorrow!", "À demain !"
        if said[-1] in "前전" and _before_event(text, match.start()):
            # "発送の二日前", "배송 이틀 전", "出发两天前": days before that event, not ago; the
            # count is a plain number, as in "3 days before shipping"
            findings.extend(_event_count(match, offset, evidence, settled))
            continue
        if offset is None and (match.groupdict().get("count5") or match.groupdict().get("low")):
            findings.extend(_day_range(match, today, evidence, settled))    # 三四天前, 3-4 days
            continue
        if offset is None:                          # "N days ago", 3天前
            number = next(g for g in ("count", "count3", "count4", "count6")
                          if match.groupdict().get(g))
            settled.add(match.span(number))
            offset = _counted_offset(match, today)
            hedged = match.group(number).lower() in _HEDGED_COUNTS or bool(
                match.groupdict().get("half"))
            if hedged or before.endswith(_HEDGES):
                # "about a week ago" names no one day: some evidence day must be that long ago,
                # give or take half of it (a day at least); "over", "more than" and "at least"
                # bound it below, "under", "less than", "almost" and "nearly" above.
                ago = -offset
                low_days, high_days = max(1, ago - max(1, ago // 2)), ago + max(1, ago // 2)
                if hedged:
                    pass                            # "a few days ago": no other hedge before
                elif before.endswith(("over ", "more than ", "at least ")):
                    low_days, high_days = ago, 10**6
                elif before.endswith(("under ", "less than ", "almost ", "nearly ")):
                    low_days, high_days = 1, ago
                if today is not None and any(low_days <= (today - day).days <= high_days
                                             for day in evidence.days):
                    continue
                if today is not None:
                    hedge = "" if hedged else (before.split() or [""])[-1] + " "
                    findings.append(_new_finding(
                        "date", said, None, match.start(), match.end(), "unsupported_date",
                        f"'{hedge}{said}': no date in the evidence is about {-offset} days "
                        f"before its today ({today.isoformat()})"))
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
        if day is not None and mentions and abs(offset) <= 2:
            if starts is None:
                starts = [m.start for m in mentions]
            clock = _clock_of_day(text, *match.span(), mentions, starts)
        else:
            clock = None
        if clock is not None:
            if _time_on_day(evidence, lambda held: held == day, clock.time) or (
                    None, clock.time.hour, clock.time.minute) in evidence.clock:
                continue        # (a time the evidence writes with no day is any day's: hours)
            s, e = min(clock.start, match.start()), max(clock.end, match.end())
            settled.add((clock.start, clock.end))
            findings.append(_new_finding(
                "date", text[s:e], day.isoformat(), s, e, "unsupported_date",
                f"'{text[s:e]}' is {clock.time.hour:02d}:{clock.time.minute:02d} on "
                f"{day.isoformat()} (the evidence's today is {today.isoformat()}), and the "
                "evidence holds no such time on that day"))
            continue
        if day is not None and (day in evidence.stated_days or (
                offset == 0 and day in evidence.days and not _event_day(text, *match.span(),
                                                                           language))):
            # The today field backs "today" as the present ("as of today", "your order is on
            # its way today"), not as the day of an event ("it arrives today"): that needs a
            # day of the data.
            continue
        if offset is not None and abs(offset) <= 1 and _store_hours_clause(
                low, *match.span(), evidence.row_name_texts):
            continue        # "Yes, we're open tomorrow": the store's hours, no day of the data
        meant = day.isoformat() if day is not None else "no calendar day"
        withheld = _withheld_on(evidence, lambda held: held == day)
        if withheld is not None:
            # only a stale or hidden row holds the day: its action applies (a stale row's
            # refusal), as it does to the day written out
            findings.append(_new_finding("date", said, meant, match.start(), match.end(),
                                         withheld.code, f"'{said}' is {meant}, which "
                                         f"{withheld.why}", input=withheld.input))
            continue
        findings.append(_new_finding("date", said, meant, match.start(), match.end(),
                                     "unsupported_date", f"'{said}' is {meant} (the evidence's "
                                     f"today is {today.isoformat()}), and no date in the "
                                     "evidence is that day"))
    return findings, settled


# A day offset after an itinerary's time: "arrives 11:40 (+1)", "11:40 (+1 day)", "11:40 +1",
# "11:40+1", "11:40⁺¹", the arrival's day minus the departure's: between the time and the plus,
# and after the digit.
_DAY_OFFSET_BEFORE = re.compile(r"[ \t\u00a0]?\(?\Z")
_DAY_OFFSET_BRACKETED = re.compile(r"(?:[ \u00a0]days?)?\)")
_DAY_OFFSET_AFTER = re.compile(r"(?:[ \u00a0]days?)?(?![\w+\-\u2013:.,]?[\w])")


def day_offsets(text: str, mentions: Sequence[Mention], evidence: Evidence
                ) -> tuple[list[Finding], set[tuple[int, int]]]:
    """The day offsets written "(+1)" (or "(+1 day)", "+1", "⁺¹") right after a clock time,
    each judged as one: the evidence must hold that time on a day N days after the day it
    holds the time said before it in the sentence (the departure's), or after a day it holds
    any time on when none is said. The findings, and the spans of the offsets (no plain
    numbers). Callers test ``"+" in text or "⁺" in text`` first."""
    findings, settled = [], set()
    for at, mention in enumerate(mentions):
        if mention.kind != "number" or at == 0 or mention.value is None \
                or not 0 < mention.value <= 3 or mention.decimals:
            continue
        if mention.sign == "+":
            plus = mention.start
        elif mention.sign is None and mention.start and text[mention.start - 1] in "+\u207a":
            plus = mention.start - 1        # "10:35+1", "10:35⁺¹": read with no sign
        else:
            continue
        arrival = mentions[at - 1]
        if not _clock_alone(arrival) or arrival.end > plus:
            continue
        before = _DAY_OFFSET_BEFORE.match(text, arrival.end, plus)
        if before is None or not (
                _DAY_OFFSET_BRACKETED if before.group().endswith("(") else _DAY_OFFSET_AFTER
        ).match(text, mention.end):
            continue
        settled.add((mention.start, mention.end))
        departure = next((m for m in reversed(mentions[:at - 1]) if _clock_alone(m)), None)
        if departure is not None and _SENTENCE_END.search(text, departure.end, arrival.start):
            departure = None
        shift = dt.timedelta(days=int(mention.value))
        landed = [held for held, hour, minute in evidence.clock if held is not None
                  and (hour, minute) == (arrival.time.hour, arrival.time.minute)]
        left = {held for held, hour, minute in evidence.clock if held is not None and (
            departure is None or (hour, minute) == (departure.time.hour, departure.time.minute))}
        if any(day - shift in left for day in landed):
            continue
        said = f"the day of {departure.text}" if departure is not None else "a day it holds"
        findings.append(_new_finding(
            "date", mention.text, mention.text, mention.start, mention.end, "unsupported_date",
            f"'{arrival.text} (+{int(mention.value)})' is {arrival.text} {int(mention.value)} day(s) "
            f"after {said}; the evidence holds no such time that many days later"))
    return findings, settled


# Relative months: the calendar month before, of or after the evidence's today. Each phrase
# by its language (whose event words are read around it) and its months from today's month.
# Multi-word phrases of one language are no everyday words of another, so all are read in
# every locale; the CJK ones need no spaces.
_MONTH_PHRASES: dict[str, tuple[str, int]] = {
    **{w: ("en", o) for w, o in (("last month", -1), ("this month", 0), ("next month", 1))},
    **{w: ("de", o) for w, o in (("letzten monat", -1), ("vorigen monat", -1),
                                 ("im vormonat", -1), ("diesen monat", 0),
                                 ("in diesem monat", 0), ("nächsten monat", 1),
                                 ("kommenden monat", 1))},
    **{w: ("fr", o) for w, o in (("le mois dernier", -1), ("le mois passé", -1),
                                 ("ce mois-ci", 0), ("le mois prochain", 1))},
    **{w: ("es", o) for w, o in (("el mes pasado", -1), ("este mes", 0),
                                 ("el próximo mes", 1), ("el mes que viene", 1))},
    **{w: ("it", o) for w, o in (("il mese scorso", -1), ("lo scorso mese", -1),
                                 ("questo mese", 0), ("il mese prossimo", 1),
                                 ("il prossimo mese", 1))},
    **{w: ("pt", o) for w, o in (("mês passado", -1), ("este mês", 0), ("neste mês", 0),
                                 ("próximo mês", 1), ("mês que vem", 1))},
    **{w: ("nl", o) for w, o in (("vorige maand", -1), ("afgelopen maand", -1),
                                 ("deze maand", 0), ("volgende maand", 1),
                                 ("komende maand", 1))},
    **{w: ("cjk", o) for w, o in (("先月", -1), ("今月", 0), ("来月", 1), ("上个月", -1),
                                  ("上個月", -1), ("上月", -1), ("这个月", 0), ("這個月", 0),
                                  ("本月", 0), ("下个月", 1), ("下個月", 1), ("下月", 1),
                                  ("지난달", -1), ("지난 달", -1), ("이번 달", 0), ("이번달", 0),
                                  ("다음 달", 1), ("다음달", 1))},
}
_MONTH_LATIN = sorted((w for w in _MONTH_PHRASES if _MONTH_PHRASES[w][0] != "cjk"), key=len,
                      reverse=True)
_MONTH_CJK = sorted((w for w in _MONTH_PHRASES if _MONTH_PHRASES[w][0] == "cjk"), key=len,
                    reverse=True)
_MONTH_PHRASE = re.compile(r"(?<![\w])(?:" + "|".join(map(re.escape, _MONTH_LATIN))
                           + r")(?![\w])|" + "|".join(map(re.escape, _MONTH_CJK)))
# In the clause before a month phrase, a supposition or a habit: "If your order shipped last
# month, ...", "Refunds usually post next month".
_MONTH_NOT_CLAUSE = frozenset("usually typically normally generally always often".split())


def _may_name_month(text: str, low: str) -> bool:
    """Whether ``_relative_months`` can find anything: substring tests, all in C."""
    return "month" in low or "monat" in low or "mois" in low or "mes" in low \
        or "mês" in low or "maand" in low or "月" in text or "달" in text


def _relative_months(text: str, low: str, evidence: Evidence, locale: str) -> list[Finding]:
    """"last month", "this month", "next month" (letzten Monat, le mois dernier, el mes pasado,
    先月, 上个月, 지난달...) as the time of an event its clause states ("It shipped last month"):
    a date of the evidence, other than its today, must fall in that calendar month. A report's
    period ("12,034 views this month") states no event and is not judged, nor a phrase in a
    supposition or a habit, nor any when the evidence has no today."""
    today = evidence.today
    if today is None:
        return []
    if len(low) != len(text):
        low = _ascii_lower(text)                    # the offsets must be the text's
    held = {day.year * 12 + day.month - 1 for day in evidence.stated_days}
    held.update(int(m[:4]) * 12 + int(m[5:7]) - 1 for m in evidence.months
                if m[:4].isdigit() and m[5:7].isdigit())
    findings = []
    for match in _MONTH_PHRASE.finditer(low):
        s, e = match.span()
        language, offset = _MONTH_PHRASES[match.group()]
        if not _event_day(text, s, e, locale.split("_")[0].lower() if language == "cjk"
                            else language):
            continue                                # "views this month": a period
        _, clause, before = _clause_of(low, s, e)
        if _LONE_SUPPOSED.search(before) or not _MONTH_NOT_CLAUSE.isdisjoint(clause.split()):
            continue
        index = today.year * 12 + today.month - 1 + offset
        if index in held:
            continue
        meant = f"{index // 12:04d}-{index % 12 + 1:02d}"
        findings.append(_new_finding(
            "date", text[s:e], meant, s, e, "unsupported_date",
            f"'{text[s:e]}' is {meant} (the evidence's today is {today.isoformat()}), and no "
            "date in the evidence falls in that month"))
    return findings


# Rule 10, a month named without a day or a year as the time of an event ("Your subscription
# renews in January", "in early January", "mid-January", "im Januar", "en janvier"): some date
# of the evidence other than its today must fall in that month (of any year). Read only after a
# word that makes it a time (``_MONTH_LEADS``), with an event word in its clause
# (``_event_day``), and not in a supposition, a habit or a question; a month written with a day
# or a year is a date the scanner found, judged with it.
_MONTH_LEADS = frozenset("in by until till since before after early mid late "
                         "im bis ab seit vor nach anfang mitte ende "
                         "en jusqu'en d'ici début fin depuis avant après "
                         "hasta desde antes a entro fino da inizio metà "
                         "em até início meados tot vanaf begin medio eind".split())
# "the end of January", "a principios de enero", "all'inizio di gennaio", "no início de janeiro"
_MONTH_PART_WORDS = frozenset("end beginning start middle principios mediados finales inizio "
                              "fine metà início meados final fim".split())
_MONTH_PART_JOINS = frozenset("of de di do da del dell'".split())


@functools.lru_cache(maxsize=64)
def _month_names(locale: str) -> tuple[re.Pattern | None, dict[str, int],
                                        tuple[frozenset[bytes], tuple[str, ...]]]:
    """The wide month names of English and of ``locale`` (Latin script) as a pattern over
    lower-cased text, the month of each, and the prefilter: the names of letters a-z as bytes,
    one of which a match of the pattern is a word of (``az_words``: a set test), and the
    others, one of which it holds (a substring test each; most locales have none)."""
    names: dict[str, int] = {}
    for source in ("en", locale):
        for context in ("format", "stand-alone"):
            for number, name in get_month_names("wide", context, source).items():
                if name[:1].isascii() and name[:1].isalpha():
                    names.setdefault(name.lower(), number)
    if not names:
        return None, names, (frozenset(), ())
    pattern = re.compile(r"(?<![\w'’])(?:" + "|".join(map(re.escape, sorted(
        names, key=len, reverse=True))) + r")(?![\w'’-])")
    plain = [name for name in names if name.isascii() and name.isalpha() and name.islower()]
    return pattern, names, (frozenset(name.encode() for name in plain),
                            tuple(sorted(set(names) - set(plain))))


def months_said_alone(text: str, low: str, locale: str, tokens: frozenset[bytes] | None = None
                      ) -> list[tuple[int, int, int]]:
    """(start, end, month) of each month name of ``text`` said alone after a word that makes it
    a time (``_MONTH_LEADS``: "in January", "in early January", "mid-January", "the end of
    January", "im Januar"); ``low`` is ``text`` lower-cased. A month written with a day or a
    year is among them too: the caller leaves those to the date the scanner found. ``tokens``
    is ``az_words(low)`` when the caller has it."""
    pattern, names, (plain, others) = _month_names(locale)
    if pattern is None:
        return []
    # a name the pattern finds is bounded by no letter: a word of ``low`` when it is of a-z
    if plain.isdisjoint(az_words(low) if tokens is None else tokens) and not any(
            name in low for name in others):
        return []
    if len(low) != len(text):
        low = _ascii_lower(text)                    # the offsets must be the text's
    found = []
    for match in pattern.finditer(low):
        s, e = match.span()
        words = low[max(0, s - 40):s].split()
        if low.endswith(("mid-", "mi-"), 0, s) or (words and (
                words[-1] in _MONTH_LEADS or words[-1] in _MONTH_PART_JOINS
                and words[-2:-1] and words[-2] in _MONTH_PART_WORDS)):
            found.append((s, e, names[match.group()]))
    return found


def _lone_months(text: str, low: str, mentions: Sequence[Mention], evidence: Evidence,
                 locale: str, words: frozenset[bytes] | None = None) -> list[Finding]:
    """The months named alone as the time of an event (``months_said_alone``) that no date of
    the evidence (other than its today) falls in; ``low`` is ``text`` lower-cased, ``words``
    its ``az_words`` when the caller has them."""
    said_alone = months_said_alone(text, low, locale, words)
    if not said_alone:
        return []
    if len(low) != len(text):
        low = _ascii_lower(text)                    # the offsets must be the text's
    held = {day.month for day in evidence.stated_days}
    held.update(int(m[5:7]) for m in evidence.months if m[5:7].isdigit())
    language = locale.split("_")[0].lower()
    findings = []
    for s, e, month in said_alone:
        if month in held or any(m.start < e + 1 and m.end > s - 1 and m.kind == "date"
                                for m in mentions):
            continue                                # held, or a date the scanner judges
        if not _event_day(text, s, e, language) or _in_question(text, e):
            continue
        _, clause, before = _clause_of(low, s, e)
        if _LONE_SUPPOSED.search(before) or not _MONTH_NOT_CLAUSE.isdisjoint(clause.split()) \
                or not _LONE_NOT_CLAUSE.isdisjoint(clause.split()):
            continue
        said, meant = text[s:e], f"--{month:02d}"
        withheld = _withheld_on(evidence, lambda day: day.month == month)
        if withheld is not None:
            findings.append(_new_finding("date", said, meant, s, e, withheld.code,
                                         f"'{said}' is a month whose dates {withheld.why}",
                                         input=withheld.input))
            continue
        findings.append(_new_finding("date", said, meant, s, e, "unsupported_date",
                                     f"'{said}': no date in the evidence (other than its "
                                     "today) falls in that month"))
    return findings


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
# the evidence must be that weekday (with a today, the one such day it means:
# ``_resolved_weekday``), and with a clock time beside it ("on Saturday at 8 pm", "8 pm ET on
# Saturday") some clock time of the evidence must be that time on that day.
# Judged only when the evidence holds a date, and only after a word that makes the weekday a
# day (``_LONE_BEFORE``), or before one in CJK text (``_LONE_CJK_AFTER``); never a plural
# ("on Sundays", "freitags"), a range ("Monday to Friday", "Mon–Fri", 周一至周五), a weekday
# in opening hours ("open on Saturday", "closed Sunday"), after "every", or beside a date,
# which ``rulekit.sweep``'s ``_Judge._date`` judges with its weekday.
def _event_day(text: str, start: int, end: int, language: str) -> bool:
    """Whether the day at [start, end) ("today", "December 2", "Wednesday") is the day of an
    event its clause states ("it arrives today", "shipped today", "today your order arrives",
    "your appointment is today", "due on December 2"): a word of ``_LONE_BEFORE`` that is no
    preposition, or of ``_EVENT_WORDS``, among the four words before it or the three after it
    in its clause, unless "as of" stands just before it (a present: "your total as of
    today")."""
    parts = re.split(r"([.,;:!?()\n])", text[max(0, start - 48):start])
    before = parts[-1]
    if not before.strip() and len(parts) > 2 and parts[-2] == ":":
        before = parts[-3]          # a label and its colon: "Delivery date: 2 December"
    after = re.split(r"[.,;:!?()\n]", text[end:end + 40])[0]
    low_before = before.lower().rstrip()
    if low_before.endswith(_PRESENT_BEFORE) or low_before in ("as of", "as at", "stand"):
        return False
    # "due by end of day today": the words of a day's end stand between the event and its day
    words = [word for word in low_before.split() if word not in _DAY_END_WORDS][-4:]
    words += after.lower().split()[:3]
    events = _LONE_BEFORE.get(language, frozenset()) - _NOT_EVENTS
    if any(word in events or word in _EVENT_WORDS for word in words):
        return True
    if language == "en" and _GOT_IT.search(low_before):
        return True                 # "You'll get it today": the customer receives it
    if language in _VERB_LAST:
        # German and Dutch put the participle last: "Heute wird Ihre Bestellung geliefert"
        clause = _CLAUSE_END.split(text[end:end + 80], 1)
        last = clause[0].lower().split()[-1:] if len(clause) > 1 else ()
        if last and last[0] in _EVENT_WORDS:
            return True
    # CJK text has no spaces: an arrival or shipping word anywhere near ("今天已送达", "本日到着")
    window = before[-12:] + after[:12]
    return any(word in window for word in _EVENT_CJK)


def today_only_event(text: str, start: int, end: int, days: Sequence[dt.date],
                     evidence: Evidence, locale: str) -> bool:
    """Whether the days a date at [start, end) may be (``days``, each held by the evidence)
    are held only by the evidence's today/as_of field, and the text says the date as the day
    of an event (``_event_day``): "Your invoice is due on December 2" on the evidence's
    today, whose invoice is due another day. The today field backs its day as the present
    ("As of December 2, you have 3 seats", "Today is Wednesday"), not as an event's day."""
    return bool(days) and all(day not in evidence.stated_days for day in days) \
        and _event_day(text, start, end, locale.split("_")[0].lower())


_VERB_LAST = frozenset(("de", "nl"))
# Between an event word and its day, the words of a day's end: "due by end of day today",
# "arrives by the end of the day today".
_DAY_END_WORDS = frozenset("by the end of day close business".split())
# Receiving the thing itself is an event: "You'll get it today", "you will receive them",
# "you'll have it today".
_GOT_IT = re.compile(r"\b(?:(?:get|gets|getting|receive|receives)\s+(?:it|them|your\s+\w+)"
                     r"|(?:have|has)\s+(?:it|them))\s*\Z")
_CLAUSE_END = re.compile(r"[.,;:!?()\n]")
_NOT_EVENTS = frozenset("on by this next last until till before after since ce d'ici jusqu'à "
                        "jusqu’à avant après dès depuis pour am bis ab seit vor nach diesen "
                        "nächsten kommenden el este próximo hasta desde antes después".split())
_EVENT_WORDS = frozenset("posted published went goes launched sent processed placed ordered "
                         "paid charged refunded opened opens closes closed expires expired ends "
                         "ended starts started renews renewed picked collected arrived "
                         "angekommen eingetroffen zugestellt geliefert versandt verschickt "
                         "llegado entregado enviado recibido envió llegó arrivé arrivée livré "
                         "livrée expédié "
                         "arrivato arrivata consegnato spedito chegou entregue enviado "
                         "aangekomen bezorgd geleverd verzonden verlängert abgebucht belastet "
                         "endet beginnt "
                         "levereras levererades levererad skickas skickades skickad anländer "
                         "anlände leveres levereres leveret levert sendes sendt afsendt "
                         "ankommer dotrze dotarła dotarło dostarczona dostarczone dostarczymy "
                         "wysłana wysłane wyślemy wysyłamy "
                         # the nouns of a booked or billed event ("Your appointment is today")
                         "appointment renewal payment meeting booking reservation deadline "
                         "visit installation pickup collection departure flight rendez-vous "
                         "renouvellement paiement échéance termin verlängerung zahlung fällig "
                         "cita renovación pago vencimiento appuntamento rinnovo pagamento "
                         "scadenza consulta renovação afspraak verlenging betaling".split())
# Just before a day, words that make it the present, not the day of an event ("as of today").
_PRESENT_BEFORE = (" as of", " as at", " stand")
_EVENT_CJK = ("送达", "送達", "到达", "到達", "发货", "發貨", "发出", "签收", "到着", "配達", "発送",
              "お届け", "도착", "배송", "발송")

_LONE_BEFORE = {
    "en": frozenset("on by this next last until till before after since arrives arrive arriving "
                    "arrived delivered deliver delivers delivery ships ship shipped shipping "
                    "dispatched dispatch dispatches expected scheduled due lands comes coming "
                    "ready booked reach reaches reaching eta expect renews renew renewing "
                    "charged billed debited expires expire expiring ends ending renewal: "
                    "renews: expires: expiry: due:".split()),
    "fr": frozenset("ce d'ici jusqu'à jusqu’à avant après dès depuis pour arrive arrivera arrivé "
                    "arrivée livré livrée livrés livraison expédié expédiée prévu prévue "
                    "prévus renouvelle renouvellera renouvelé renouvelée débité débitée "
                    "prélevé prélevée facturé facturée expire expirera".split()),
    "de": frozenset("am bis ab seit vor nach diesen nächsten kommenden kommt kommen geliefert "
                    "lieferung versandt zugestellt".split()),
    "es": frozenset("el este próximo hasta desde antes después llega llegará llegó entregado "
                    "entrega enviado enviará renueva renovará cobrará cobrado vence vencerá "
                    "caduca expira".split()),
    "it": frozenset("il questo prossimo entro fino arriva arriverà arrivato consegnato "
                    "consegna spedito rinnova rinnoverà addebitato addebitata scade "
                    "scadrà".split()),
    "pt": frozenset("na no nesta neste próxima próximo até chega chegará chegou entregue "
                    "entrega enviado renova renovará cobrado cobrada vence expira".split()),
    "nl": frozenset("op tot aanstaande komende deze volgende bezorgd geleverd verzonden "
                    "komt verlengd verloopt afgeschreven".split()),
}
# Words a few words before the weekday that make it opening hours or a habit.
_LONE_NOT_BEFORE = frozenset("open opens opened closed close closes hours staffed available "
                             "every each except excluding business working weekdays "
                             "geöffnet geschlossen jeden ouvert fermé chaque abierto cerrado "
                             "cada".split())
# "available" before "until", "by" or "before" the weekday with a word of a deadline in the
# words before it ("Free cancellation is available until Friday", "A full refund is available
# until Friday") says a deadline, not opening hours: the weekday is judged.
_LONE_DEADLINE_BEFORE = frozenset("until by before".split())
_LONE_DEADLINE_WORDS = frozenset("cancel cancellation cancelling canceling refund refunds "
                                 "refundable free deadline pay payment expires".split())
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


def _store_hours_clause(low: str, s: int, e: int, names: frozenset[str] = frozenset()) -> bool:
    """Whether the relative day at [s, e) stands in a clause about the store's own opening
    hours ("Yes, we're open tomorrow", "Tomorrow's hours: 9–6", "Tonight they're open until
    10:30 pm", "Luigi's Trattoria is open today until 10:30 pm"), which states no day of the
    data: the clause names the store (we, our, they, it, store, shop, restaurant...; or the
    name of a row of the evidence, ``names``: ``Evidence.row_name_texts``) or its hours, and no
    arrival, delivery or other event ("we're open tomorrow when your order arrives" is
    judged)."""
    _, clause, _ = _clause_of(low, s, e)
    words = {_POSSESSIVE.sub("", word.strip(",:()\"“”")) for word in clause.split()}
    if _LONE_HOURS_WORDS.isdisjoint(words) or not (
            "hours" in words or not _STORE_WORDS.isdisjoint(words)
            or any(name in clause for name in names)):
        return False
    return _EN_EVENTS.isdisjoint(words) and _EVENT_WORDS.isdisjoint(words) \
        and _NOT_THE_STORE.isdisjoint(words)


_POSSESSIVE = re.compile(r"['’]s$")
_EN_EVENTS = _LONE_BEFORE["en"] - _NOT_EVENTS       # arrives, delivered, ships...
# Who keeps opening hours, and what else may be "open" ("the return window is open").
_STORE_WORDS = frozenset("we we're we'll we'd our store shop office branch they they're they'll "
                         "it it's restaurant kitchen cafe café bar bistro".split())
_NOT_THE_STORE = frozenset("window sale case ticket return returns refund account offer "
                           "deal".split())


# Where a clause ends inside a sentence, for ``_lone_statement``.
_CLAUSE_CUT = re.compile(r"[,:()\u2013\u2014]|[ \t](?:-|and|but|so|as|once|because|while)[ \t]")
# Words that make a general plural the customer's own ("Items in your order", "Orders like
# yours", "Orders placed today").
_LONE_CUSTOMERS = frozenset("your yours you today tonight this".split())


_LONE_NOT_UNTIL = ("until ", "till ", "before ", "til ")
_LONE_CJK = re.compile(r"(?:星期|礼拜|禮拜|周|週)([一二三四五六日天])|([月火水木金土日])曜日?"
                       r"|([월화수목금토일])요일")
_LONE_CJK_DAYS = {**{c: i for i, c in enumerate("一二三四五六日")}, "天": 6,
                  **{c: i for i, c in enumerate("月火水木金土日")},
                  **{c: i for i, c in enumerate("월화수목금토일")}}
_LONE_CJK_BEFORE = frozenset("本这這下上在于於")
_LONE_CJK_AFTER = ("到", "送达", "送達", "送到", "发货", "發貨", "前", "之前", "以前", "抵达",
                   "抵達", "に", "まで", "頃", "ごろ", "着", "配達", "お届け", "发出", "發出",
                   "에", "까지", "부터")
_LONE_CJK_RANGE = ("至", "到星期", "到周", "到週", "～", "〜", "~", "-", "－", "から")
# Korean: a weekday that opens a range ("월요일부터 금요일까지", "월요일~금요일") and the words
# before one that ends a range or says a habit (매주 월요일에: every Monday).
_KO_RANGE_AFTER = re.compile(r"(?:부터|에서)[ \u00a0]?[월화수목금토일]요일")
_KO_NOT_BEFORE = ("부터 ", "부터", "매주 ", "매주", "~ ", "에서 ")
# Before a CJK weekday, the calendar week (Monday to Sunday) it is a day of, as days from today's
# week: 今週の金曜日, 这周五, 本周五 (this week's), 来週の金曜日, 下周五 (the next), 先週の, 上周五.
_LONE_CJK_WEEK = {**{prefix: 0 for prefix in ("今週の", "今週", "这周", "這週", "本周", "本週",
                                               "这个", "這個", "这", "這", "本")},
                  **{prefix: 7 for prefix in ("来週の", "来週", "下个", "下個", "下")},
                  **{prefix: -7 for prefix in ("先週の", "先週", "上个", "上個", "上")},
                  # Korean: 이번 주 금요일, 다음 주 금요일, 지난주 금요일 (with or without spaces)
                  **{f"{word}{gap}주{space}": days
                     for word, days in (("이번", 0), ("다음", 7), ("지난", -7), ("저번", -7))
                     for gap in ("", " ") for space in ("", " ")}}
_LONE_CJK_WEEK_LONGEST = max(map(len, _LONE_CJK_WEEK))
# Between two weekdays of a range: "Monday to Friday", "Mon–Fri", "lundi au vendredi".
_WEEKDAY_RANGE_JOIN = re.compile(r"(?i)[ \t\u00a0]*(?:[-\u2013\u2014/~]|(?:to|through|thru|till|"
                                 r"until|bis|au|à|a|al|hasta)(?![\w]))[ \t\u00a0]*")
_WEEKDAY_RANGE_BEFORE = re.compile(r"(?i)(?:[-\u2013\u2014/~]|(?<![\w])(?:to|through|thru|till|"
                                   r"until|bis|au|à|a|al|hasta))[ \t\u00a0]*\Z")
# An article between a weekday and the date it names: "Tuesday the 3rd", German "Freitag, den 18.
# Dezember" ("der", "dem"), Spanish "viernes, día 18 de diciembre".
_DATE_ARTICLE = r"(?:(?:the|der|den|dem|día)[ \t\u00a0]+)?"
# Between a weekday and a date or an ordinal it names ("Friday, July 10", "Tuesday the 3rd"),
# and between a weekday and the clock time after it ("Saturday at 8 pm").
_WEEKDAY_TO_DATE = re.compile(r"(?i)[ \t\u00a0,.(\u2013\u2014-]*" + _DATE_ARTICLE + r"\Z")
# A weekday after a copula is a day only with a clock time after it ("is Thursday at 9 pm"): a
# slot, some such weekday of the evidence at that time (``_ANY_WEEK``). "is Tuesday" alone is
# not read.
_COPULAS = frozenset("is was are were be 's".split())
_AT_A_TIME_AFTER = re.compile(r",?[ \t\u00a0]+(?:at|@)[ \t\u00a0]+(?:\d|noon\b|midnight\b)")
_ANY_WEEK = "any"
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


def _lone_deadline(words: list[str]) -> bool:
    """Whether the words before a lone weekday say a deadline "available until" it
    (``_LONE_DEADLINE_WORDS``), the only word of opening hours among them being "available"."""
    return words[-1] in _LONE_DEADLINE_BEFORE and _LONE_NOT_BEFORE.intersection(
        words[-4:]) == {"available"} and not _LONE_DEADLINE_WORDS.isdisjoint(
        word.strip(",;:") for word in words)


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
            week_before = _week_before(low, s)
            if words and words[-1] in _COPULAS and week_before is None \
                    and _AT_A_TIME_AFTER.match(low, e):
                # "Your best slot is Thursday at 9 pm": some Thursday of the evidence at 21:00,
                # a slot rather than one day, so not resolved against a today
                found.append((s, e, names[match.group()], _ANY_WEEK))
                continue
            if not words or (words[-1] not in before_words and week_before is None) \
                    or (not _LONE_NOT_BEFORE.isdisjoint(words[-4:])
                        and not _lone_deadline(words)) \
                    or _word_after(low, e) in _LONE_NOT_AFTER or _lone_statement(low, s, e):
                continue
            if _WEEKDAY_RANGE_BEFORE.search(low, max(0, s - 12), s) and pattern.search(
                    low, max(0, s - 24), s):
                continue                            # "Monday to Friday": a range
            join = _WEEKDAY_RANGE_JOIN.match(low, e)
            if join and join.end() > e and _weekday_patterns(locale)[0].match(text, join.end()):
                continue
            week_after = _week_after(low, e)
            if week_after is not None:       # "Friday next week", "vendredi prochain"
                found.append((s, week_after[0], names[match.group()], week_after[1]))
            elif week_before is not None:    # "next week on Friday", "nächste Woche am Freitag"
                found.append((week_before[0], e, names[match.group()], week_before[1]))
            else:
                found.append((s, e, names[match.group()], _week_said(words)
                              or _tense_before(low, s, e, locale)))
    if "曜" in text or "星期" in text or "周" in text or "週" in text or "拜" in text \
            or "요일" in text:
        for match in _LONE_CJK.finditer(text):
            s, e = match.span()
            if match.group(1) and text[e:e + 1] == "年":
                continue                            # 周年: an anniversary
            if match.group(3) and (_KO_RANGE_AFTER.match(text, e)
                                   or text.endswith(_KO_NOT_BEFORE, 0, s)):
                continue                            # 월요일부터 금요일까지, 매주 월요일: a range, a habit
            if text.startswith(_LONE_CJK_RANGE, e) or text[s - 1:s] in ("至", "到", "每", "～",
                                                                        "〜", "-"):
                continue                            # 周一至周五, 每周五: a range, a habit
            weekday = _LONE_CJK_DAYS[match.group(1) or match.group(2) or match.group(3)]
            week = _cjk_week(text, s)
            if week is not None:
                # 来週の金曜日, 下周五: the Friday of the calendar week after today's, said from
                # the words of its week (``_cjk_week``)
                found.append((s - week[0], e, weekday, week[1]))
            elif text[s - 1:s] in _LONE_CJK_BEFORE or text.startswith(_LONE_CJK_AFTER, e):
                found.append((s, e, weekday, "either"))
    if not found:
        return []
    held = {day.weekday() for day in evidence.days}
    starts = [m.start for m in mentions]            # in order (``scan``)
    findings = []
    for s, e, weekday, week in found:
        at = s                                      # the weekday's own start
        index = bisect.bisect_left(starts, e)
        after = mentions[index] if index < len(mentions) else None
        near = mentions[max(0, index - 3):index]    # those before, nearest last
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
        if evidence.today is not None and week != _ANY_WEEK:
            # with a today, the weekday is one day (``_days_meant``), and so is its time
            finding = _resolved_weekday(text, s, at, e, end, weekday, week, time, evidence,
                                        locale)
            if finding is not None:
                findings.append(finding)
            continue
        if time is None:
            only_today = weekday in held and today_only_event(
                text, s, e, [day for day in evidence.days if day.weekday() == weekday],
                evidence, locale)
            if weekday in held and not only_today:
                continue
            withheld = _withheld_on(evidence, lambda day: day.weekday() == weekday)
            if withheld is not None:
                findings.append(_new_finding("date", text[s:e], name, s, e, withheld.code,
                                             f"'{text[s:e]}' is a {name}, which "
                                             f"{withheld.why}", input=withheld.input))
                continue
            message = f"'{text[s:e]}': no date in the evidence is a {name}" if not only_today \
                else (f"'{text[s:e]}' is said as the day of an event, and only the evidence's "
                      f"today is a {name}: its today backs the present, not an event's day")
        else:
            if _weekday_at(evidence, weekday, time):
                continue
            message = (f"'{text[s:end]}': the evidence holds no {time.hour:02d}:"
                       f"{time.minute:02d} on a {name}")
        findings.append(_new_finding("date", text[s:end], name, s, end, "unsupported_date",
                                     message))
    return findings


# Parts of the day said with a day, in English ("tomorrow morning", "on Thursday afternoon",
# "tomorrow in the morning", "first thing tomorrow", "tonight"), each a span of the clock in
# minutes [from, to): a morning is before 12:00, an afternoon 12:00 to 18:00, an evening 18:00
# to 22:00, a night from 18:00.
_DAY_PARTS = {"morning": (0, 720), "afternoon": (720, 1080), "evening": (1080, 1320),
              "night": (1080, 1440)}
_DAY_WORD = r"(today|tomorrow|this|monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_PART_OF_DAY = re.compile(r"(?<![\w'’])(?:" + _DAY_WORD + r"[ \t\u00a0]+(?:in the[ \t\u00a0]+)?"
                          r"(morning|afternoon|evening|night)"
                          r"|first thing[ \t\u00a0]+(?:on[ \t\u00a0]+)?" + _DAY_WORD
                          + r"|" + _DAY_WORD + r"[ \t\u00a0]+first thing|(tonight))(?![\w'’])")


def may_say_part_of_day(low: str) -> bool:
    """Whether ``_parts_of_day`` can find anything: substring tests, all in C."""
    return "morning" in low or "afternoon" in low or "evening" in low or "night" in low \
        or "first thing" in low


def _parts_of_day(text: str, low: str, evidence: Evidence, locale: str) -> list[Finding]:
    """A part of the day said with a day ("It arrives tomorrow morning", "on Thursday
    morning", "first thing tomorrow") when the evidence holds clock times on that day (a
    delivery window) and none of them, nor the span between its first and last, falls in that
    part (``_DAY_PARTS``): a window of 14:00-18:00 is no morning. Judged only as the time of
    an event (``_event_day``: "arrives", "delivery"...); a day whose times the evidence does
    not hold is not judged here, nor one in a clause of opening hours, a supposition, a
    denial or a habit (``_lone_statement``). English only."""
    if locale[:2].lower() != "en" or len(low) != len(text):
        return []
    today, findings = evidence.today, []
    for match in _PART_OF_DAY.finditer(low):
        word = next(group for group in (match[1], match[3], match[4], match[5]) if group)
        part = "night" if word == "tonight" else match[2] or "morning"
        s, e = match.span()
        if not _event_day(text, s, e, "en") or _lone_statement(low, s, e) \
                or _in_question(text, e):
            continue                # "Made this tonight": no event of the data
        if word in ("today", "this", "tonight", "tomorrow"):
            if today is None:
                continue
            days = [today + dt.timedelta(days=word == "tomorrow")]
        else:
            weekday = _WEEKDAYS.index(word.capitalize())
            days = _days_meant(today, weekday, _tense_before(low, s, e, locale)) \
                if today is not None else sorted(d for d in evidence.days if d.weekday() == weekday)
        start, end = _DAY_PARTS[part]
        windows = []
        for day in days:
            held = sorted(hour * 60 + minute for on, hour, minute in evidence.clock if on == day)
            if held:
                windows.append((day, held[0], held[-1]))
        if not windows or any(first < end and (last > start or first == last >= start)
                              for _, first, last in windows):
            continue
        day, first, last = windows[0]
        span = f"{first // 60:02d}:{first % 60:02d}" + (
            f"-{last // 60:02d}:{last % 60:02d}" if last != first else "")
        findings.append(_new_finding(
            "date", text[s:e], day.isoformat(), s, e, "unsupported_date",
            f"'{text[s:e]}' is the {part} of {day.isoformat()} ({start // 60:02d}:00-"
            f"{end // 60 % 24:02d}:00), and the evidence holds {span} on that day"))
    return findings


# Before a weekday, the words that place it in a week from the evidence's today: "this Friday"
# is the coming one (today included); "next Friday" is read both ways people read it, the
# coming one or the one in the calendar week (Monday to Sunday) after today's, and either
# backs it; "last Friday" the one before today, or the one in the calendar week before
# today's. "this coming Friday" is "this".
_THIS_WEEK_WORDS = frozenset("this ce diesen kommenden este esta questo questa neste nesta deze "
                             "aanstaande komende".split())
_NEXT_WEEK_WORDS = frozenset("next nächsten próximo próxima prossimo prossima volgende".split())


# A week said after a weekday or apart from it before it ("Friday next week", "Friday of next
# week", "next week on Friday", "am Freitag nächster Woche", "nächste Woche am Freitag",
# "vendredi de la semaine prochaine", "venerdì della prossima settimana", "el viernes de la
# próxima semana", "volgende week vrijdag") names a calendar week (Monday to Sunday), as 来週の
# 金曜日 does: the days from today's week (``_days_meant``). A word of the week after the weekday
# with no week ("vendredi prochain", "venerdì prossimo", "el viernes pasado") is read as "next
# Friday" and "last Friday" are.
_WEEK_UNIT_WORDS = frozenset("week woche semaine settimana semana".split())
_WEEK_DIRECTIONS = {
    **dict.fromkeys("next following nächste nächster nächsten kommende kommender kommenden "
                    "prochaine prossima próxima volgende".split(), 7),
    **dict.fromkeys("this diese dieser cette questa esta deze".split(), 0),
    **dict.fromkeys("last previous letzte letzter letzten vergangene vergangener vergangenen "
                    "dernière passée scorsa pasada passada vorige afgelopen".split(), -7)}
_WS = r"[ \t\u00a0]+"
_WEEK_AFTER = re.compile(
    _WS + r"(?:(?:of|in|der|de|della|di|del|da)" + _WS + r")?(?:(?:the|la)" + _WS + r")?"
    r"(?:(\w+)" + _WS + r"(\w+)(?:" + _WS + r"(viene|vem))?|(prochain|prossimo|próximo|dernier"
    r"|scorso|pasado))(?![\w'’-])")
_WEEK_BEFORE = re.compile(r"(?<![\w'’-])(\w+)" + _WS + r"(\w+),?(?:" + _WS
                          + r"(?:on|am|le|el|il|op|a))?" + _WS + r"\Z")
_WEEK_AFTER_WORD = {"prochain": "next", "prossimo": "next", "próximo": "next",
                    "dernier": "last", "scorso": "last", "pasado": "last"}


def _week_of(first: str, second: str, third: str | None = None) -> int | None:
    """The days from today's calendar week of a week said in two words ("next week", "semaine
    prochaine", "semana que viene"), or None."""
    if second == "que" and first == "semana":
        return 7 if third else None
    if first in _WEEK_UNIT_WORDS:
        first, second = second, first
    return _WEEK_DIRECTIONS.get(first) if second in _WEEK_UNIT_WORDS else None


def _week_after(low: str, e: int) -> tuple[int, int | str] | None:
    """(the end of the words after a lone weekday ending at e that place it in a week, the
    week: days from today's calendar week, or "next"/"last"), or None."""
    match = _WEEK_AFTER.match(low, e)
    if match is None:
        return None
    if match.group(4):
        return match.end(), _WEEK_AFTER_WORD[match.group(4)]
    week = _week_of(match.group(1), match.group(2), match.group(3))
    return None if week is None else (match.end(), week)


def _week_before(low: str, s: int) -> tuple[int, int] | None:
    """(the start of the week said just before a lone weekday at s: "next week on", the days
    from today's calendar week), or None."""
    match = _WEEK_BEFORE.search(low, max(0, s - 40), s)
    if match is None:
        return None
    week = _week_of(match.group(1), match.group(2))
    return None if week is None else (match.start(), week)


def _cjk_week(text: str, s: int) -> tuple[int, int] | None:
    """(the length of the words before a CJK weekday at s that say its week, the days from
    today's calendar week: ``_LONE_CJK_WEEK``), or None; not 再来週 (the week after next)."""
    for size in range(min(s, _LONE_CJK_WEEK_LONGEST), 0, -1):
        days = _LONE_CJK_WEEK.get(text[s - size:s])
        if days is not None:
            if text[s - size - 1:s - size] == "再" or text.startswith("다다음", s - size - 1):
                return None                         # 再来週, 다다음 주: the week after next
            return size, days
    return None


def _week_said(words: list[str]) -> str | None:
    """"this", "next" or "last" when the words before a lone weekday place it in a week
    (``_THIS_WEEK_WORDS``, ``_NEXT_WEEK_WORDS``), else None."""
    last = words[-1] if words else ""
    if last in _THIS_WEEK_WORDS or (last == "coming" and words[-2:-1] == ["this"]):
        return "this"
    if last == "last":
        return "last"
    return "next" if last in _NEXT_WEEK_WORDS else None


# A weekday said alone ("arrives on Friday", "was delivered on Friday") is read as a customer
# reads it: the next such day from today, or, in the past tense, the last one. The tense is
# read from the words of its clause before it, nearest first (``_tense_before``): an auxiliary
# decides ("was delivered", "will be charged", "has shipped"); without one, a verb's own form
# does ("arrived", "ships", "expected"); with neither, or in a language whose tenses are not
# read, either day backs it.
# (curly apostrophes are read as straight ones)
_PAST_AUX = frozenset("was were wasn't weren't had hadn't did didn't been since".split())
_PERFECT_AUX = frozenset("has have 've hasn't haven't".split())
_COMING_AUX = frozenset("will 'll won't shall is isn't are aren't am 're be being gets get "
                        "getting going gonna should can could may might must do does don't "
                        "doesn't 's".split())
# Participles that speak of what is to come when no auxiliary stands before them ("Delivery
# expected Friday", "due Friday").
_COMING_FORMS = frozenset("expected scheduled booked planned set slated due estimated "
                          "projected".split())
_PAST_FORMS = frozenset("came went sent paid left got took brought ran put made began "
                        "rang".split())
_PRESENT_FORMS = frozenset("arrive arrives ship ships deliver delivers dispatch dispatches "
                           "comes come lands land renew renews expire expires end ends "
                           "charge charges bill bills debit debits start starts begin begins "
                           "close closes leave leaves goes go run runs".split())
_MOVED_TO = frozenset("to for until till til".split())
# Other languages: their present or future forms, and their simple pasts.
_COMING_WORDS = frozenset("arrive arrivera renouvelle renouvellera expire expirera llega llegará "
                          "enviará renueva renovará cobrará vence vencerá caduca expira arriva "
                          "arriverà rinnova rinnoverà scade scadrà chega chegará renova renovará "
                          "kommt kommen komt verloopt sera será sarà".split())
_PAST_WORDS = frozenset("llegó envió cobró renovó venció chegou enviou cobrou renovou venceu "
                        "seit depuis desde".split())


def _tense_before(low: str, s: int, e: int, locale: str) -> str:
    """How a lone weekday at [s, e) of ``low`` is read from its clause's words before it:
    "coming" (the next such day), "past" (the last one) or "either"."""
    words = _clause_of(low, s, e)[2].replace("’", "'").split()
    if locale[:2].lower() != "en":
        for word in reversed(words):
            if word in _COMING_WORDS:
                return "coming"
            if word in _PAST_WORDS:
                return "past"
        return "either"
    # a past act that moves a day ("We rescheduled your delivery to Friday", "postponed until
    # Friday") says nothing of the day's own tense
    moved = bool(words) and words[-1] in _MOVED_TO
    form = None                         # the verb's own form, nearest the weekday
    for word in reversed(words):
        word = word.strip("\"“”()*_")
        if word in _PAST_AUX or word in _PERFECT_AUX and form is not None:
            # "was supposed to arrive on Friday", "was expected Friday": either
            return "either" if form == "coming" or moved else "past"
        if word in _COMING_AUX or word.endswith(("'ll", "'re")):
            return "either" if form == "past" and word == "'s" else "coming"
        if word.endswith("'s") and len(word) > 2:       # "it's due", "it's been": 's decides
            return "either" if form == "past" else "coming"
        if form is None:
            if word in _COMING_FORMS:
                form = "coming"
            elif word in _PAST_FORMS or (word.endswith("ed") and len(word) > 3):
                form = "past"
            elif word in _PRESENT_FORMS:
                form = "coming"
    return "either" if form is None or form == "past" and moved else form


def _days_meant(today: dt.date, weekday: int, week: str) -> list[dt.date]:
    """The days a weekday said with ``week`` ("this", "next", "last", or a lone weekday's
    tense: "coming", "past", "either") may be, from ``today``."""
    if isinstance(week, int):       # a calendar week, days from today's (``_cjk_week``)
        day = today + dt.timedelta(days=weekday - today.weekday() + week)
        # on a Sunday, a week that starts on Sundays has moved on: either week backs it
        return [day, day + dt.timedelta(days=7)] if today.weekday() == 6 != weekday else [day]
    coming = today + dt.timedelta(days=(weekday - today.weekday()) % 7)
    before = today - dt.timedelta(days=(today.weekday() - weekday) % 7 or 7)
    if week == "this":
        return [coming]
    if week == "next":      # the coming one (not today), or the one in the week after today's
        return sorted({coming + dt.timedelta(days=7 if coming == today else 0),
                       today + dt.timedelta(days=7 - today.weekday() + weekday)})
    if week == "last":      # the one before today, or the one in the week before today's
        return sorted({before, today - dt.timedelta(days=today.weekday() + 7 - weekday)})
    meant = set()
    if week in ("coming", "either"):    # said on a Friday, "on Friday" is today or in a week
        meant |= {coming, coming + dt.timedelta(days=7)} if coming == today else {coming}
    if week in ("past", "either"):      # "was delivered on Friday" on a Friday: today, too
        meant |= {before, today} if coming == today else {before}
    return sorted(meant)


_CJK_WEEK_READ = {0: "the {name} of this week", 7: "the {name} of next week",
                  -7: "the {name} of last week"}
_WEEK_READ = {"this": "the coming {name}", "next": "next {name}", "last": "last {name}",
              "coming": "the coming {name}", "past": "the last {name} before today",
              "either": "the last or the coming {name}"}


def _resolved_weekday(text: str, s: int, at: int, e: int, end: int, weekday: int, week: str,
                      time: dt.time | None, evidence: Evidence, locale: str) -> Finding | None:
    """A weekday said alone, with the evidence's today, is one day (``_days_meant``; a lone
    one by its tense, ``_tense_before``), not any: the evidence must hold it (its today only
    as the present), and the clock time said with it ("this Friday at 8 pm") on that day.
    [s, end) is the weekday with its time ("8 pm on Friday", "Friday at 8 pm"), [at, e) the
    weekday alone. The finding, or None when the evidence backs it."""
    today = evidence.today
    meant = _days_meant(today, weekday, week)
    start = s
    if week in ("this", "next", "last") and s == at:
        low = _ascii_lower(text)
        start = low.rfind(" ", 0, max(0, s - 1)) + 1          # "this Friday", not "Friday"
        if low[start:s].strip() == "coming":
            start = low.rfind(" ", 0, max(0, start - 1)) + 1
        elif _week_said([low[start:s].strip()]) is None:
            start = s                                           # "vendredi prochain"
    said = text[start:end]
    name = _WEEKDAYS[weekday]
    shown = " or ".join(day.isoformat() for day in meant)
    read = (_WEEK_READ[week] if isinstance(week, str) else _CJK_WEEK_READ[week]).format(name=name)
    if time is None:
        if any(day in evidence.days and not today_only_event(text, at, e, [day], evidence, locale)
               for day in meant):
            return None
        withheld = _withheld_on(evidence, lambda held: held in meant)
        if withheld is not None:
            return _new_finding("date", said, meant[0].isoformat(), start, end, withheld.code,
                                f"'{said}' is {shown}, which {withheld.why}",
                                input=withheld.input)
        return _new_finding("date", said, meant[0].isoformat(), start, end, "unsupported_date",
                            f"'{said}' is {read}, {shown} (the evidence's today is "
                            f"{today.isoformat()}), and no date in the evidence is that day")
    if _time_on_day(evidence, lambda day: day in meant, time):
        return None
    return _new_finding("date", said, meant[0].isoformat(), start, end, "unsupported_date",
                        f"'{said}': {read} is {shown} (the evidence's today is "
                        f"{today.isoformat()}), and the evidence holds no "
                        f"{time.hour:02d}:{time.minute:02d} on that day")



def _withheld_on(evidence: Evidence, fits: Callable[[dt.date], bool]) -> Withheld | None:
    """The ``Withheld`` reason of the first day only a stale or hidden row holds
    (``Evidence.withheld_days``) that ``fits``; None when there is none."""
    return next((why for day, why in evidence.withheld_days.items() if fits(day)), None)


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
    """Whether the evidence holds the clock time ``time`` on a day that is ``weekday``
    (``_time_on_day``)."""
    return _time_on_day(evidence, lambda day: day.weekday() == weekday, time)


def _time_on_day(evidence: Evidence, fits: Callable[[dt.date], bool], time: dt.time) -> bool:
    """Whether the evidence holds the clock time ``time`` on a day that ``fits``: as written
    (in its own offset; a time the evidence writes with no day, on a day of the evidence that
    fits), or an instant that is that time on such a day in the time's zone."""
    zone = time.tzinfo
    if zone is None:
        return any((held is None and any(fits(day) for day in evidence.days)
                    or held is not None and fits(held))
                   and (hour, minute) == (time.hour, time.minute)
                   for held, hour, minute in evidence.clock)
    for held, hour, minute in evidence.utc_clock:
        if held is None:
            continue
        instant = dt.datetime(held.year, held.month, held.day, hour, minute,
                              tzinfo=dt.timezone.utc)
        if all((local.hour, local.minute) == (time.hour, time.minute) and fits(local.date())
               for local in (instant.astimezone(reading) for reading in (
                   zone.zones if isinstance(zone, dates.Readings) else (zone,)))):
            return True
    # "Friday at 16:05 BST" against 16:05+01:00 on a Friday: the offset says which zone
    return any(fits(instant.date()) for instant in evidence.settled_instants(time))


def _in_question(text: str, at: int) -> bool:
    """Whether the sentence going on at ``at`` ends with a question mark."""
    ends = [i for i in (text.find(mark, at) for mark in ".!?\n？。") if i >= 0]
    return bool(ends) and text[min(ends)] in "?？"


# Before a CJK count of days and 前/전, an event (maybe with の, 의 or 的 between) makes it that
# many days before the event, not ago: 発送の二日前, 배송 이틀 전, 出发两天前.
_BEFORE_EVENT = ("の", "의", "的", "发货", "發貨", "发出", "出发", "出發", "到达", "到達", "送达",
                 "送達", "签收", "截止", "到期", "开始", "開始", "结束", "入住", "预约", "活动", "到着",
                 "配達", "発送", "出発", "出荷", "お届け", "締切", "締め切り", "期限", "終了", "予約",
                 "イベント", "도착", "배송", "발송", "출발", "출고", "마감", "만료", "시작", "종료",
                 "예약", "행사", "결제")


def _before_event(text: str, start: int) -> bool:
    """Whether the CJK count of days at ``start`` follows an event (``_BEFORE_EVENT``)."""
    return text[max(0, start - 8):start].rstrip(" ").endswith(_BEFORE_EVENT)


def _event_count(match: re.Match, offset: int | None, evidence: Evidence,
                 settled: set[tuple[int, int]]) -> list[Finding]:
    """The count of days before an event (``_before_event``), judged as a plain number: the
    evidence must hold it. A week word (一周前) counts weeks."""
    groups = match.groupdict()
    name = next((g for g in ("count3", "count4") if groups.get(g)), None)
    if name is not None:
        span, said = match.span(name), match.group(name)
        number = _count_number(said)
    else:                                   # 이틀 전, 一周前: the word, its days or weeks
        said = match.group(0).rstrip("前전").rstrip()
        span = (match.start(), match.start() + len(said))
        weeks = any(unit in said for unit in _WEEK_UNITS)
        number = -offset // 7 if weeks else -offset
    settled.add(span)
    if Decimal(number) in evidence.values:
        return []
    code = "small_integer" if number <= 12 else "unsupported_number"
    return [_new_finding("number" if said.isdigit() else "word_number", said, str(number),
                         span[0], span[1], code, f"{said} counts the days before an event, and "
                         "the evidence does not hold that number")]


def _day_range(match: re.Match, today: dt.date | None, evidence: Evidence,
               settled: set[tuple[int, int]]) -> list[Finding]:
    """三四天前, 3-4天前, "3-4 days ago", "two to three weeks ago": some day of the evidence
    must be that long before its today, as for a hedge ("about 3 days ago"). CJK numerals must
    be neighbours (三四, 两三)."""
    cjk = match.groupdict().get("count5") is not None
    first, second = ("low5", "count5") if cjk else ("low", "count")
    low, high = _count_number(match.group(first)), _count_number(match.group(second))
    if not low < high or (cjk and not match.group(first).isdigit() and high != low + 1):
        return []           # "5-3 days ago": no range; each count is judged as a plain number
    settled.update((match.span(first), match.span(second)))
    if not cjk:                             # weeks and months, in days
        low, high = -_offset_of(low, match.group("unit"), today), \
            -_offset_of(high, match.group("unit"), today)
    said = match.group(0)
    if today is None:
        why = ("the evidence's today could not be read as a date" if evidence.has_today
               else "the evidence has no 'today' to resolve it against")
        return [_new_finding("date", said, None, match.start(), match.end(), "relative_date",
                             f"'{said}' is relative, and {why}")]
    if any(low <= (today - day).days <= high for day in evidence.days):
        return []
    return [_new_finding("date", said, None, match.start(), match.end(), "unsupported_date",
                         f"'{said}': no date in the evidence is {low} to {high} days before its "
                         f"today ({today.isoformat()})")]


def _count_number(count: str) -> int:
    """A count as ``_CJK_COUNTED`` reads one: digits, a Hangul count, CJK numerals or a word."""
    if count.isdigit():
        return int(count)
    if count in _HANGUL_COUNTS:
        return _HANGUL_COUNTS[count]
    if count[0] in _CJK_DIGITS:
        return _cjk_count(count)
    return _COUNT_WORDS[count.lower()]


def _counted_offset(match: re.Match, today: dt.date | None) -> int:
    """The days from ``today`` of "3 days ago", "two weeks ago", "vor 3 Tagen", 3天前, 二日前 or
    "a month ago" (the same day of the month, or the month's last day when it is shorter;
    about 30 days a month when there is no today)."""
    groups = match.groupdict()      # a language without counted days has only the CJK groups
    count = groups.get("count") or groups.get("count3") or groups["count4"] or groups["count6"]
    unit = groups.get("unit") or groups.get("unit3") or groups["unit4"] or groups["unit6"]
    return _offset_of(_count_number(count), unit, today, bool(groups.get("half")))


def _offset_of(number: int, unit: str, today: dt.date | None, half: bool = False) -> int:
    """The days from ``today`` of ``number`` days, weeks or months (``unit`` as written) ago,
    and half a unit more ("a month and a half ago"); see ``_counted_offset``."""
    unit = unit.lower()
    if any(month in unit for month in _MONTH_UNITS):
        if today is None:
            return -30 * number - 15 * half
        return (_months_back(today, number) - today).days - 15 * half
    if unit.startswith(_WEEK_UNITS) or unit[-2:] in _WEEK_UNITS:
        return -number * 7 - 3 * half
    return -number


def _cjk_count(count: str) -> int:
    """A count in CJK numerals, as ``_CJK_COUNTED`` reads one: 二, 两, 十, 十二, 二十, 二十五."""
    digits = [2 if c in "两兩" else _CJK_DIGITS.index(c) for c in count]
    if 10 not in digits:
        return digits[0]
    at = digits.index(10)
    return (digits[at - 1] if at else 1) * 10 + (digits[at + 1] if at + 1 < len(digits) else 0)


def _months_back(today: dt.date, months: int) -> dt.date:
    """The day ``months`` months before ``today``: the same day of the month, clamped to the
    last day of a shorter month (a month before 31 March is 28 February)."""
    index = today.year * 12 + today.month - 1 - months
    year, month = divmod(index, 12)
    if year < dt.MINYEAR:
        return dt.date.min
    last = calendar.monthrange(year, month + 1)[1]
    return dt.date(year, month + 1, min(today.day, last))


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
                        rf"[ \t\u00a0,.\u2014]*{_DATE_ARTICLE}\Z")
    after = re.compile(rf"(?i)[ \t\u00a0,]*(?:[(（](?P<w1>{alternatives}|{ones})[)）]"
                       rf"|(?P<w2>{alternatives}))")
    spaced_after = re.compile(rf"(?i)(?:[ \t\u00a0]*[(\[](?P<w1>{alternatives})\.?[)\]]"
                              rf"|,[ \t\u00a0]+(?:which[ \t\u00a0]+is[ \t\u00a0]+)?a[ \t\u00a0]+"
                              rf"(?P<w2>{alternatives})(?![\w]))")
    return head, before, after, {**single, **dotted, **names}, spaced_after


# After the first day of a range of days: its join and the second day ("Dec 3–5").
_DAYS_GO_ON = re.compile(r"[ \t\u00a0]?[-\u2013\u2014][ \t\u00a0]?[0-9]|[ \t\u00a0](?:to|through|"
                         r"till|until|and|bis|au|al)[ \t\u00a0][0-9]")


@functools.lru_cache(maxsize=64)
def _weekday_range_patterns(locale: str) -> tuple[re.Pattern, re.Pattern, re.Pattern]:
    """Two weekdays joined as a range or a choice before a range of days ("Thu–Fri, 3–4
    December", "Thursday or Friday (Dec 3–4)"): a pattern for the text before the first day,
    and one for the text before the second ("Thu–Fri, 3–"); the first weekday names the first
    day, the second the second. The third finds the first weekday and the join before a date
    mention that opens with the second ("Thu–" before "Sat, Dec 3–5")."""
    names = "|".join(map(re.escape, sorted(_weekday_patterns(locale)[3], key=len, reverse=True)))
    join = (r"[ \t\u00a0]*(?:[-\u2013\u2014/]|(?:to|through|till|until|or|and|bis|au|à|oder|ou|"
            r"o|y|et|und)(?![\w]))[ \t\u00a0]*")
    pair = rf"(?i)(?<![\w])(?P<w1>{names})\.?{join}(?P<w2>{names})\.?[ \t\u00a0,(]*"
    return (re.compile(pair + r"\Z"),
            re.compile(pair + r"(?:[^\W\d_]{3,9}\.?[ \t\u00a0]+)?[0-9]{1,2}(?:st|nd|rd|th|\.)?"
                       + join + r"\Z"),
            re.compile(rf"(?i)(?<![\w])(?P<w1>{names})\.?{join}\Z"))


def _wall_time_in_named_zone(time: dt.time, evidence: Evidence) -> bool:
    """Whether a time written with a zone and no day ("18:00 UK time") is a wall time the
    evidence writes without a day (opening hours "09:00-18:00") in the zone the object around
    it names (``Evidence.zoned_clock``: "timezone": "Europe/London"). "UK time" and "London
    time" are Europe/London; a zone is compared by its IANA name, and "UTC" backs a UTC time."""
    if not evidence.zoned_clock:
        return False
    keys = ("UTC", "Etc/UTC", "Etc/GMT", "GMT") if time.tzinfo is dt.timezone.utc \
        else (getattr(time.tzinfo, "key", None),)
    return any((time.hour, time.minute, key) in evidence.zoned_clock for key in keys)


# A clock time written with its seconds ("1:38:05", "22:41:07 UTC", "T22:41:07Z").
_WITH_SECONDS = re.compile(r"\d:[0-5]\d:[0-5]\d")


def _unheld_seconds(mention: Mention, evidence: Evidence) -> Finding | None:
    """A finding when a time written with its seconds (a race result "1:38:05", a log time
    "22:41:07 UTC") has seconds that no time of the evidence writes at that minute: its hour
    and minute are judged by ``rulekit.sweep``, its seconds here, so "1:38:50" is not the
    "1:38:05" the evidence holds. Zero seconds are also those of a time the evidence writes to
    the minute ("09:00:00" for "09:00"). The minute and the seconds are compared as the
    evidence writes them, in whatever offset (a zone moves hours, not seconds; an offset of
    half an hour also moves the minute, and such a time is flagged)."""
    time = mention.time
    if time is None or not _WITH_SECONDS.search(mention.text):
        return None
    held = evidence.quote_text
    if f":{time.minute:02d}:{time.second:02d}" in held or not time.second and re.search(
            rf":{time.minute:02d}(?![:\d])", held):
        return None
    return _new_finding("date", mention.text, mention.normalized, mention.start, mention.end,
                        "unsupported_date", f"{mention.text}: the evidence holds no time at "
                        f"{time.minute:02d}:{time.second:02d} past the hour; a time with its "
                        "seconds must match to the second")


def _stated_weekday(text: str, mention: Mention, locale: str) -> tuple[int, str] | None:
    """The weekday written with a date mention (before it, at its start, or after it in CJK
    text) as (0 for Monday..., the name as written), or None. Before a range of days, a range
    of weekdays names each day its own ("Thu–Fri, 3–4 December": Thursday the 3rd)."""
    head, before, after, numbers, spaced_after = _weekday_patterns(locale)
    window = max(0, mention.start - 48)
    first, second, opening = _weekday_range_patterns(locale)
    found = first.search(text, window, mention.start) or second.search(
        text, window, mention.start)
    if found:
        name = found.group("w1" if found.re is first else "w2")
        return numbers[name.lower()], name
    found = head.match(mention.text)
    if found and mention.start and _DAYS_GO_ON.match(text, mention.end):
        # "Thu–Sat, Dec 3–5": the mention opens with the range's second weekday, and the
        # first, before it, names its day (the first of a range of days)
        opened = opening.search(text, max(0, mention.start - 16), mention.start)
        if opened:
            return numbers[opened.group("w1").lower()], opened.group("w1")
    found = found or before.search(
        text, max(0, mention.start - 20), mention.start)
    name = found.group("w") if found else None
    if name is None:
        found = (spaced_after if mention.text.isascii() else after).match(text, mention.end)
        if found is None and text[mention.end:mention.end + 2].lstrip(" ")[:1] in ("(", "（"):
            found = after.match(text, mention.end)  # 12/3(木): a CJK weekday in brackets
        name = found and (found.group("w1") or found.group("w2"))
    if not name:
        return None
    return numbers[name.lower()], name


def _may_be_relative(text: str, low: str, locale: str) -> bool:
    """Whether the relative-day pattern can match. In English every word it reads holds "day",
    "night", "tomorrow" or "ago", and in ASCII text, where lower-casing is exactly what the
    case-insensitive pattern ignores, four substring tests on ``low`` (the text lower-cased, or
    its ``az_text``: each word tested is of a-z) decide: the pattern tries every position of the text, which cost more than judging a short
    answer. Other text and other languages run the pattern."""
    if not text.isascii() or not locale.startswith("en"):
        return True
    return "day" in low or "night" in low or "tomorrow" in low or "ago" in low


# "midnight on D" is the end of D after a word of ending ("ends at midnight on December 14",
# "until midnight on the 14th", "by midnight"), as a customer reads it, and its start after a
# word of starting ("the sale starts at midnight on December 15", "from midnight"); with
# neither, either (``midnight_reading``).
_MIDNIGHT_ENDS = frozenset("end ends ending ended expire expires expiring expired expiry until "
                           "till til through thru by before close closes closing closed due "
                           "deadline last lasts runs valid cutoff cut-off endet bis läuft "
                           "abläuft gilt jusqu'à termine finit expire hasta vence termina "
                           "finaliza caduca fino entro scade até expira tot verloopt eindigt "
                           "loopt".split())
_MIDNIGHT_STARTS = frozenset("start starts starting started begin begins beginning began open "
                             "opens opening opened from launch launches launched live effective "
                             "ab beginnt startet dès commence débute desde empieza comienza "
                             "dalle inizia começa vanaf begint".split())


def midnight_reading(text: str, start: int) -> str:
    """How "midnight on D" at ``start`` of ``text`` is read from the nearest word of its
    clause before it that says an end or a start (``_MIDNIGHT_ENDS``, ``_MIDNIGHT_STARTS``):
    "end" (the end of D: 00:00 of the next day, or 23:59 of D), "start" (00:00 of D) or
    "either"."""
    low = text.lower()
    words = _clause_of(low, start, start)[2].replace("’", "'").split()[-6:]
    for word in reversed(words):
        word = word.strip("\"“”()*_:")
        if word in _MIDNIGHT_ENDS:
            return "end"
        if word in _MIDNIGHT_STARTS:
            return "start"
    return "either"
