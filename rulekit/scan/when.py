"""Dates and clock times at a run of digits: ISO and numeric dates, "29 July 2026", "July 29",
"28 de agosto de 2026", East Asian 2026年7月29日, German "29.7.", Korean "2026. 7. 29.",
"21:00", "9 pm", "21 Uhr", "15.00 Uhr", "21h30", "à 21h", "15点", "下午3点", "午後3時",
"오후 3시", "9 pm (UTC+8)", a date followed by its time, the second time of "09:00-17:00"; dates
and times in numerals (七月二十九日, 下午三点); clock words ("noon", "midnight", "12 noon",
"nine pm"). Values are read by ``rulekit.dates.parse_claimed_date``."""

from __future__ import annotations

import datetime as dt
import functools
import operator
import re

from rulekit.dates import ClaimedDate, Readings, _locale_dates, hour_range, is_fixed, \
    parse_claimed_date, real_offset, written_zone
from rulekit.scan.base import _CONTEXT_STRIP, _DIGITS, _Hit, _is_glue, _word_after, _word_before
from rulekit.scan.cjk import _CJK_DIGIT, _cjk_value, _digit_string
from rulekit.scan.locales import _SPACE, _name_key

@functools.lru_cache(maxsize=4096)
def _claimed(text: str, locale: str) -> ClaimedDate | None:
    """parse_claimed_date, cached: answers repeat their dates."""
    return parse_claimed_date(text, locale)


_KIND = operator.attrgetter("kind")
_VERB_MONTHS = frozenset(("may", "march", "mar"))

# Dates and times, each matched at the first digit of a run. An offset no zone has
# (``rulekit.dates.real_offset``) is the end of a range of hours: "2026-09-09 14:00-18:00", and
# so is one a reader reads so (``rulekit.dates.hour_range``): "2026-09-09 09:00-11:00".
_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}"
                       r"(?:[T ][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:[.,][0-9]{1,9})?)?"
                       r"(Z|([+-])([0-9]{2})(?::?([0-9]{2}))?)?)?(?![0-9A-Za-z])")
_ISO_UTC = ("Z", "z", "+00:00", "-00:00", "+0000", "-0000", "+00", "-00")
# A year first may have a day of one digit: "2026/11/3" (group 2), with dots in Chinese,
# Japanese and Korean only ("2026.11.3"; ``_YEAR_FIRST_DOTS``), where it is a common way to
# write a day; elsewhere such dots are a version.
_NUMERIC_DATE = re.compile(r"(?:[0-9]{1,4}([./-])[0-9]{1,2}\1[0-9]{2,4}|[0-9]{4}([./-])[0-9]{1,2}\2[0-9])"
                           r"(?![0-9A-Za-z]|[.,/-][0-9])")
_YEAR_FIRST_DOTS = frozenset(("zh", "ja", "ko"))
# Korean "2026. 7. 29.": a four-digit year first, a space after each dot; the last dot may be
# left out in Korean text only (``_SPACED_DATE_END``).
_SPACED_DATE = re.compile(r"[0-9]{4}\.[ \u00a0][0-9]{1,2}\.[ \u00a0][0-9]{1,2}(?![0-9])")
_SPACED_DATE_END = re.compile(r"\.(?![0-9])")
# German "29.7.", "29.07.": a day and a month with a dot after each, in a locale whose dates
# are written so and whose decimal mark is a comma (``_LocaleInfo.day_dot_month``).
_DAY_DOT_MONTH = re.compile(r"([0-9]{1,2})\.([0-9]{1,2})\.(?![0-9])")
# Only after a word that puts a date there ("am 29.7.", "bis 3.8.", "Montag, 29.7."): "bei 4.5."
# is a decimal written with a dot, "Abschnitt 3.1." a section.
_DAY_DOT_BEFORE = frozenset("am vom zum bis ab seit den dem ca spätestens frühestens "
                            "voraussichtlich dnia dne od do fra til".split())
_EAST_ASIAN_DATE = re.compile(r"(?:([0-9]{4})\s?[年년]\s?)?([0-9]{1,2})\s?[月월]"
                              r"(?:\s?([0-9]{1,2})\s?[日号號일])?")
_CLOCK = re.compile(r"([01]?[0-9]|2[0-3]|24(?=:00(?![0-9:])))"
                    r":([0-5][0-9])(?::([0-5][0-9]))?"
                    r"(?:\s?(?:([AaPp])\.\s?[Mm]\.|([AaPp])[Mm])(?![A-Za-z])|\s?Uhr(?![\w]))?"
                    r"(?![0-9]|[:.,][0-9])")
_AMPM = re.compile(r"(1[0-2]|0?[1-9])\s?(?:([AaPp])\.\s?[Mm]\.|([AaPp])[Mm](?![A-Za-z]))")
_UHR = re.compile(r"([01]?[0-9]|2[0-3])(?:(?:\.([0-5][0-9]))?\s?Uhr(?![\w])"
                  r"|\s?h\s?([0-5][0-9])(?![0-9]))")
# "21h", "à 10h": an hour alone before "h" is a clock time only after a word that puts a time
# there (``_HOUR_AT``), or as an end of a range of such hours ("9h-17h", "de 9h à 17h"); "en
# 2h", "sous 48h", "une pause de 2h", "24h/24" are durations.
_HOUR_H = re.compile(r"([01]?[0-9]|2[0-3])[ \u00a0]?h(?![\w])")     # "à 21h", "à 21 h" (fr)
_HOUR_AT = frozenset("à a às as vers dès des jusqu'à jusqu’à avant après entre et á "
                     "las alle ore um gegen bis ab até".split())
_HOUR_TO = re.compile(r"[ \u00a0]*(?:[-\u2013~]|(?:à|a|às|as|et|bis|alle|hasta)[ \u00a0])"
                      r"[ \u00a0]*[0-9]{1,2}[ \u00a0]?h(?:[0-5][0-9])?(?![\w])")   # 9h-17h, 19h-22h30
# Zones spelled out, in any case (``rulekit.dates.written_zone`` has each): "Pacific Standard
# Time", "Central European Summer Time", "India Standard Time", "UK time", "Paris time".
_SPELLED_ZONES = (
    r"(?i:(?:(?:Pacific|Mountain|Central|Eastern|Atlantic|Alaska|Hawaii(?:-Aleutian)?)"
    r"[ \u00a0](?:Standard|Daylight)"
    r"|(?:Central|Eastern|Western)[ \u00a0]European(?:[ \u00a0](?:Standard|Summer))?"
    r"|Australian[ \u00a0](?:Eastern|Central|Western)[ \u00a0](?:Standard|Daylight)"
    r"|Greenwich[ \u00a0]Mean|Coordinated[ \u00a0]Universal|British[ \u00a0]Summer"
    r"|Irish[ \u00a0]Standard|(?:Japan|Korea|Korean|China|India|Indian|Singapore|Moscow)"
    r"(?:[ \u00a0]Standard)?|Beijing|Hong[ \u00a0]Kong|UK|London|Paris|Berlin"
    r"|New[ \u00a0]York|Sydney|Melbourne|Tokyo|Seoul|Shanghai|Taipei|Mumbai|Delhi|Kolkata"
    r"|Dubai|Los[ \u00a0]Angeles|Chicago|Toronto|Madrid|Rome|Amsterdam|Dublin|Auckland"
    r"|(?:Eastern|Central|Mountain|Pacific))[ \u00a0]Time)")
# A zone after a time: "9 pm (UTC+8)", "21:00 UTC", "13:00 GMT-5" (``_ZONE_AFTER``), "9 pm
# PST", "21:00 ET", "9 am Eastern (Time)" (``_ZONE_NAME``, whose names ``rulekit.dates.
# written_zone`` reads; capitals only, so that French "et" is not Eastern time, and a zone word
# before a capitalised word is not one: "Central Park"), zones spelled out in any case ("Eastern
# European Time", "UK time": ``_SPELLED_ZONES``), and after am or pm an abbreviation in lower
# case ("9 pm est": ``_ZONE_LOWER``). A time alone
# in a fixed zone is read in UTC (``_in_utc``), so that it is compared with the evidence's
# instants in UTC; in another zone it keeps the zone, and the sweep converts each instant.
_ZONE_AFTER = re.compile(r"[ \u00a0]?(\()?(?:UTC|GMT)(?:[ \u00a0]?([+\-\u2212])([0-9]{1,2})"
                         r"(?::?([0-5][0-9]))?)?(?(1)\))(?![\w+\-])")
_ZONE_NAME = re.compile(r"[ \u00a0]?(\()?(?:(?P<long>" + _SPELLED_ZONES + r")|(?P<abbr>[A-Z]{2,4})"
                        r"|(?P<word>Eastern|Pacific|Central|Mountain)"
                        r"(?:[ \u00a0]Time)?(?![ \u00a0][A-Z]))(?(1)\))(?![\w+\-\u2010])")
# A city whose time ``rulekit.dates.written_zone`` knows, named after a time without "time":
# "4 pm Tokyo", "16:00 in Tokyo", "9 am (London)".
_CITY_ZONE = re.compile(r"[ \u00a0](?:in[ \u00a0])?(\()?(Tokyo|Seoul|Shanghai|Beijing|Taipei|"
                        r"Mumbai|Delhi|Kolkata|Dubai|Singapore|Hong[ \u00a0]Kong|London|Paris|"
                        r"Berlin|Madrid|Rome|Amsterdam|Dublin|Moscow|Sydney|Melbourne|Auckland|"
                        r"New[ \u00a0]York|Los[ \u00a0]Angeles|Chicago|Toronto)(?(1)\))(?![\w])")
# After "am" or "pm" an abbreviation may be written in lower case: "9 pm est", "9pm pst".
_ZONE_LOWER = re.compile(r"[ \u00a0]?(\()?([a-z]{2,4})(?(1)\))(?![\w+\-\u2010])")
# A range of days before a month, at the end of the first day: "3–4 December", "3 to 4
# December 2026", "3. bis 4. Dezember" (``_When.day_range``); and the second day after "December
# 3" ("-4", " to 4, 2026"), not an hour ("December 3 to 4 pm") (``_When.month_day_range``).
_DAY_RANGE_JOIN = re.compile(r"(st|nd|rd|th|\.?o|°|\.)?(?:[ \u00a0]?[-\u2013\u2014][ \u00a0]?"
                             r"|[ \u00a0](?:to|until|till|through|bis|au|al)[ \u00a0])"
                             r"(?=[0-9]{1,2}(?![0-9]))")
# After "between" (entre, zwischen, tra, tussen), "and" joins the two ends of such a range too:
# "between 3 and 5 December", "entre le 3 et le 5 décembre", "zwischen dem 3. und 5. Dezember".
_DAY_BETWEEN_JOIN = re.compile(r"(st|nd|rd|th|\.?o|°|\.)?[ \u00a0](?:and|et|und|y|e|en)[ \u00a0]"
                               r"(?:(?:the|le|el|il|dem|den)[ \u00a0])?(?=[0-9]{1,2}(?![0-9]))")
_BETWEEN = frozenset("between entre zwischen tra fra tussen".split())
_DAY_RANGE_NEXT = frozenset("-\u2013\u2014 \u00a0.snrto°")   # "1.º al 5 de diciembre" too
_DAY_RANGE_TAIL = re.compile(r"(?:[ \u00a0]?[-\u2013\u2014][ \u00a0]?"
                             r"|[ \u00a0](?:to|until|till|through)[ \u00a0])"
                             r"([0-9]{1,2})(?:st|nd|rd|th)?(?![\w]|[.,:][0-9]"
                             r"|[ \u00a0]?(?i:[ap]\.?m(?![a-z])|o['\u2019]clock|%|percent))"
                             r"(?:,?[ \u00a0]+([0-9]{4})(?![0-9]))?")
# am or pm after an o'clock hour or a time said in words: "4 o'clock AM", "half past seven pm".
_MERIDIEM_AFTER = re.compile(r"[ \u00a0]?([AaPp])(?:\.[ \u00a0]?[Mm]\.|[Mm](?![A-Za-z]))")
# "8 o'clock": a time whose half of the day is not said (08:00 or 20:00; the sweep takes
# either, ``rulekit.sweep``), unless a word after says it ("8 o'clock this evening").
_OCLOCK = re.compile(r"[ \u00a0](?i:o['\u2019]?clock)(?![\w])")
# The half of the day said after a clock time without am/pm or after an o'clock hour: "7:30
# this evening", "8 o'clock tonight", "3:00 in the afternoon", "9:00 Friday night". Evening,
# night and tonight move 5 to 11 to the evening; afternoon moves 1 to 6; any other hour stays
# as written. A bare hour ("8 tonight") stays a number.
_HALF_AFTER = re.compile(r"(?i)(?:[ \u00a0]o['\u2019]?clock)?[ \u00a0]{1,3}"
                         r"(?:(?:(?:this|tomorrow|in[ \u00a0]the|at|every|each"
                         r"|on[ \u00a0][a-z]{3,9}day|[a-z]{3,9}day)[ \u00a0]{1,3})?"
                         r"(evening|afternoon|night|morning)|(tonight))(?![\w])")
# The half of the day said after an hour in other languages: German "um 10 Uhr abends", "um 5
# nachmittags"; French "à 10 h du soir", "à 5 heures de l'après-midi"; Spanish "a las 5 de la
# tarde"; Italian "alle 10 di sera"; Portuguese "às 8 da noite" (``_When.half_word``). Each word
# is a part of the day (``_DAY_PART_PHRASES``), which moves an hour up to 12 (``_moved_hour``).
_DAY_PART_PHRASES = {
    "de": {"morgens": "morning", "früh": "morning", "vormittags": "morning", "mittags": "noon",
           "nachmittags": "afternoon", "abends": "evening", "nachts": "night"},
    "fr": {"du matin": "morning", "de l'après-midi": "afternoon", "du soir": "evening",
           "de la nuit": "night"},
    "es": {"de la mañana": "morning", "de la madrugada": "morning", "del mediodía": "noon",
           "de la tarde": "afternoon", "de la noche": "night"},
    "it": {"del mattino": "morning", "della mattina": "morning", "di mattina": "morning",
           "del pomeriggio": "afternoon", "di pomeriggio": "afternoon", "di sera": "evening",
           "della sera": "evening", "di notte": "night", "della notte": "night"},
    "pt": {"da manhã": "morning", "da madrugada": "morning", "da tarde": "afternoon",
           "da noite": "night"}}
# A part of the day said before the hour or after it in other words: "am Abend um 10 Uhr", "um
# 10 Uhr am Abend", "à 10 h ce soir", "ce soir à 10 h", "esta noche a las 10", "stasera alle
# 10", "'s avonds om 10 uur", "tonight at 10" (``_When.half_before``, ``_When.half_word``), and
# after a relative day or a weekday a noun of the day alone ("heute Abend um 10", "morgen
# Abend", "demain soir", "domani sera", "vrijdag avond": ``_DAY_PART_NOUNS`` after
# ``_DAY_PART_LEADS``), whose day stays out of the mention so that it holds the time to its
# day (``rulekit.sweep_days``).
_DAY_PART_AROUND = {language: {phrase: part for part, phrases in parts.items()
                               for phrase in phrases.split(", ")} for language, parts in {
    "de": {"evening": "abends, am abend", "morning": "morgens, vormittags, am morgen, "
           "am vormittag", "afternoon": "nachmittags, am nachmittag", "noon": "mittags, am mittag",
           "night": "nachts, in der nacht"},
    "fr": {"evening": "ce soir, le soir, au soir, dans la soirée, en soirée",
           "morning": "ce matin, le matin, au matin, dans la matinée, en matinée",
           "afternoon": "cet après-midi, l'après-midi, dans l'après-midi",
           "night": "cette nuit, dans la nuit"},
    "es": {"night": "esta noche, por la noche, en la noche",
           "afternoon": "esta tarde, por la tarde, en la tarde",
           "morning": "esta mañana, por la mañana, en la mañana"},
    "it": {"evening": "stasera, questa sera, la sera, in serata, di sera",
           "night": "stanotte, questa notte, di notte",
           "morning": "stamattina, stamani, questa mattina, la mattina, in mattinata, di mattina",
           "afternoon": "questo pomeriggio, il pomeriggio, nel pomeriggio, di pomeriggio"},
    "pt": {"night": "à noite, de noite, esta noite", "afternoon": "à tarde, de tarde, esta tarde",
           "morning": "de manhã, pela manhã, esta manhã"},
    "nl": {"evening": "'s avonds, vanavond, in de avond",
           "morning": "'s ochtends, 's morgens, vanochtend, vanmorgen, in de ochtend",
           "afternoon": "'s middags, vanmiddag, in de middag", "night": "'s nachts, vannacht, "
           "in de nacht"},
    "en": {"night": "tonight", "evening": "this evening, in the evening",
           "afternoon": "this afternoon, in the afternoon",
           "morning": "this morning, in the morning"}}.items()}
_DAY_PART_NOUNS = {
    "de": {"abend": "evening", "nacht": "night", "nachmittag": "afternoon",
           "vormittag": "morning", "mittag": "noon", "früh": "morning"},
    "fr": {"soir": "evening", "matin": "morning", "après-midi": "afternoon"},
    "it": {"sera": "evening", "mattina": "morning", "pomeriggio": "afternoon",
           "notte": "night"},
    "nl": {"avond": "evening", "ochtend": "morning", "middag": "afternoon", "nacht": "night"},
    "en": {"evening": "evening", "afternoon": "afternoon", "morning": "morning",
           "night": "night"}}
_DAY_PART_LEADS = {
    "de": "heute gestern morgen montag dienstag mittwoch donnerstag freitag samstag sonntag",
    "fr": "demain hier lundi mardi mercredi jeudi vendredi samedi dimanche",
    "it": "oggi domani ieri lunedì martedì mercoledì giovedì venerdì sabato domenica",
    "nl": "vandaag morgen gisteren maandag dinsdag woensdag donderdag vrijdag zaterdag zondag",
    "en": "today tomorrow monday tuesday wednesday thursday friday saturday sunday"}
# The words that bring the hour after a part of the day said before it ("am Abend um", "ce
# soir à", "esta noche a las", "stasera alle", "'s avonds om", "tonight at").
_DAY_PART_INTRO = {
    "de": "um|gegen|ab|bis", "fr": "à|vers|dès|jusqu['\u2019]à",
    "es": "a[ \u00a0]las|a[ \u00a0]la|hacia[ \u00a0]las|sobre[ \u00a0]las|desde[ \u00a0]las"
          "|hasta[ \u00a0]las",
    "it": "alle|verso[ \u00a0]le|dalle|entro[ \u00a0]le|fino[ \u00a0]alle",
    "pt": "às|as|pelas|por[ \u00a0]volta[ \u00a0]das|até[ \u00a0]às|a[ \u00a0]partir[ \u00a0]das",
    "nl": "om|rond|vanaf|tot|tegen", "en": "at|by|around|until|till|from|before|after"}
# Words of the day in each language: without one, a small number is no hour after those words
# (the scanner's fast path claims it: ``says_day_part``).
_DAY_PART_CUES = {"de": ("abend", "morgen", "mittag", "nacht", "früh"),
                  "fr": ("soir", "matin", "midi", "nuit"), "es": ("noche", "tarde", "mañana"),
                  "it": ("sera", "notte", "matt", "pomeriggio", "stamani"),
                  "pt": ("noite", "tarde", "manhã"),
                  "nl": ("avond", "ochtend", "morgen", "middag", "nacht"),
                  "en": ("night", "evening", "afternoon", "morning")}


def says_day_part(low: str, language: str) -> bool:
    """Whether the lower-cased text may say a part of the day before an hour (``_HALF_BEFORE``):
    substring tests, all in C."""
    return any(cue in low for cue in _DAY_PART_CUES.get(language, ()))


# The last word of those, the cheap test before ``_HALF_BEFORE``.
_DAY_PART_INTRO_LAST = frozenset(
    re.sub(r"\[[^]]*\]", quote, alternative).split(quote)[-1] if "jusqu" not in alternative
    else f"jusqu{quote}à" for intro in _DAY_PART_INTRO.values()
    for alternative in intro.split("|") for quote in "'\u2019")


def _phrases(phrases) -> str:
    """The phrases as alternatives of a pattern, longest first, a space matching a no-break
    space too and an apostrophe a curly one."""
    return "|".join(re.escape(phrase).replace(r"\ ", r"[ \u00a0]").replace(
        "'", "['\u2019][ \u00a0]?") for phrase in sorted(phrases, key=len, reverse=True))


def _lead_nouns(language: str) -> str:
    """A relative day or a weekday and a noun of the day after it (``_DAY_PART_LEADS``), the
    noun in group n, or a pattern that never matches."""
    if language not in _DAY_PART_NOUNS:
        return "(?!)"
    return (f"(?:{_phrases(_DAY_PART_LEADS[language].split())})[ \u00a0]+"
            f"(?P<n>{_phrases(_DAY_PART_NOUNS[language])})")


# French may say "heures" between the hour and the phrase: "à 5 heures de l'après-midi". After
# the hour, a lead and its noun are read ("um 10 Uhr heute Abend") but stay out of the mention.
_HALF_WORDS = {language: re.compile(
    r"[ \u00a0]+" + (r"(?:heures?[ \u00a0]+)?" if language == "fr" else "") + "(?i:(?P<p>"
    + _phrases({**_DAY_PART_PHRASES.get(language, {}), **_DAY_PART_AROUND.get(language, {})})
    + ")|" + _lead_nouns(language) + r")(?![\w-])")
    for language in set(_DAY_PART_PHRASES) | set(_DAY_PART_AROUND) if language != "en"}
# The first letters of those phrases after the space: a cheap test before the pattern.
_HALF_WORD_FIRST = frozenset("mfvnadhMFVNADH") | frozenset(
    first for language in _HALF_WORDS
    for phrase in [*_DAY_PART_AROUND.get(language, ()), *_DAY_PART_LEADS.get(language, "").split()]
    for first in (phrase[0], phrase[0].upper())) | {"\u2019"}
# Before the hour: the phrase (group p) or a lead's noun (group n), maybe a comma, the words that
# bring the hour, at the end of the text before it.
_HALF_BEFORE = {language: re.compile(
    r"(?i)(?<![\w'\u2019])(?:(?P<p>" + _phrases(phrases) + ")|" + _lead_nouns(language)
    + r"),?[ \u00a0]+(?:" + _DAY_PART_INTRO[language] + r")[ \u00a0]+\Z")
    for language, phrases in _DAY_PART_AROUND.items()}
# Words before a bare hour with such a phrase after it ("um 10 abends", "a las 5 de la tarde",
# "verso le 5 del pomeriggio"), besides ``_HOUR_AT``.
_HALF_HOUR_BEFORE = frozenset("le hacia hasta desde dalle verso entro pelas das von".split())
# "7.30pm", "7.30 p.m.": hours and minutes with a dot, read as a time only with am or pm.
_DOT_AMPM = re.compile(r"(1[0-2]|0?[1-9])\.([0-5][0-9])[ \u00a0]?(?:([AaPp])\.[ \u00a0]?[Mm]\."
                       r"|([AaPp])[Mm](?![A-Za-z]))")
# British English writes a time with a dot, "18.00", "6.30" (``_When.dot_time``): read as a
# time in these locales only beside a word of time, before it (until, at...) or after it ("on 3
# March", "on Friday", "hrs", "today", a zone).
_DOT_TIME_LOCALES = frozenset({"en_GB", "en_IE"})
# The languages that write a time with a dot ("alle 14.30", "om 14.30 uur", "kl. 14.30"): read
# as a time in them only after their words of time, or before Dutch "uur" (German "14.30 Uhr"
# is ``_UHR``'s).
_DOT_TIME_WORDS = {"it": frozenset("alle dalle entro verso le ore".split()),
                   "nl": frozenset("om vanaf rond".split()),
                   "sv": frozenset("kl klockan".split()), "da": frozenset("kl klokken".split()),
                   "nb": frozenset("kl klokken".split()), "no": frozenset("kl klokken".split())}
_UUR_AFTER = re.compile(r"[ \u00a0]+uur(?![\w])")
# Dutch words before an hour and "uur" that make it a clock time ("om 10 uur", "vanaf 9 uur",
# "tot 17 uur"); "na 2 uur" and "binnen 2 uur" are durations.
_UUR_BEFORE = frozenset("om rond omstreeks vanaf tot tegen".split())


def reads_dot_times(locale: str, language: str) -> bool:
    """Whether a time written with a dot ("18.00") may be read in this locale."""
    return locale in _DOT_TIME_LOCALES or language in _DOT_TIME_WORDS


_DOT_TIME = re.compile(r"([01]?[0-9]|2[0-3])\.([0-5][0-9])(?![0-9]|[.,][0-9])")
_DOT_TIME_BEFORE = frozenset("until till til by before after from at around".split())
_DOT_TIME_AFTER = re.compile(
    r"[ \u00a0]+(?:(?i:on[ \u00a0]+(?:[0-9]|(?:mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|"
    r"may|jun|jul|aug|sep|oct|nov|dec)[a-z]*(?![\w]))|hrs|hours(?![ \u00a0]+(?:of|a|per|each))"
    r"|today|tonight|tomorrow|(?:uk|london|local|hotel)[ \u00a0]time)|GMT|BST|UTC|CET|CEST)"
    r"(?![\w])")
_DOT_TIME_NOT_AFTER = frozenset("£$€¥+-\u2212#")
_DOT_MONEY_AFTER = re.compile(r"[ \u00a0]?(?:[A-Z]{3}(?![\w])|€|:-|(?i:pounds?|euros?|dollars?"
                              r"|pence|p|kr|kronor|kroner)(?![\w]))")
# The verbs of a price before "at": "priced at 18.00" is an amount.
_PRICED_AT = frozenset("priced sold sells selling trades traded trading valued rated charged "
                       "billed costs cost listed offered available capped fixed set".split())
# "at 8 this evening", "by 9 tonight": a bare hour with the half of the day after it
# (``_HALF_AFTER``) is a time after these words.
_BARE_HOUR_BEFORE = frozenset("at by around until till before after from".split())
# "quarter past 8 pm", "half past 7", "a quarter to nine": the minutes said before an hour
# (``_When.past_to``, which reads them before a time already read, and ``_When.clock_words``,
# which reads them before an hour alone, whose half of the day is not said).
_PAST_TO_BEFORE = re.compile(r"(?i)(?:(?<![\w])a[ \u00a0])?(?<![\w])(quarter|half)[ \u00a0]+"
                             r"(past|after|to)[ \u00a0]+\Z")
# The hours in English words, in order from one (``_CLOCK_WORD_HOURS``), and the minutes from
# ten to fifty-nine said after an hour ("ten-thirty", "five forty-five"; ``_minute_word``).
_HOUR_WORDS = "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
_TEEN_WORDS = "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen"
_TENS_WORDS = "twenty thirty forty fifty"
_MINUTE_WORDS = (_TEEN_WORDS.replace(" ", "|") + "|(?:" + _TENS_WORDS.replace(" ", "|")
                 + ")(?:[-\u2010](?:one|two|three|four|five|six|seven|eight|nine))?")
_PAST_TO = re.compile(r"(?:a[ \u00a0])?(quarter|half)[ \u00a0]+(past|after|to)[ \u00a0]+"
                      rf"(1[0-2]|[1-9]|{_HOUR_WORDS})(?![\w\u2010-])")
# British "half ten" (10:30), a time only after a word that puts one there: "at half ten",
# "until half five"; the time is "half ten", from group 1.
_HALF_HOUR = re.compile(r"(?<![\w'’])(?:at|until|till|til|from|by|around|before|after)[ \u00a0]+"
                        rf"(half)[ \u00a0]+(1[0-2]|[1-9]|{_HOUR_WORDS})(?![\w\u2010:-]|\.[0-9])")
# Opening hours "open 9 to 5", "hours: 9-5": an hour from 5 to 11 and a smaller one, read as
# morning to afternoon (09:00 to 17:00), only after a word that says they are opening hours;
# "open 10 to 11" or "from 9 to 5 days" are left as numbers.
# The second end may be a word ("open 9 to five", "open nine to five-thirty").
_HOURS_RANGE = re.compile(r"(?:[ \u00a0]?[-\u2013][ \u00a0]?|[ \u00a0](?:to|till|until)[ \u00a0])"
                          r"(?:([0-9]{1,2})(?::([0-5][0-9]))?"
                          rf"|(?i:({_HOUR_WORDS})(?:[-\u2010 \u00a0]({_MINUTE_WORDS}))?))"
                          r"(?:[ \u00a0]?(?i:(p)(?:\.m\.|m))(?![a-z]))?"
                          r"(?![0-9]|[\w%]|[.,:][0-9]|[ \u00a0]?(?i:[ap]\.?m(?![a-z])"
                          r"|o['\u2019]clock|percent|%|h(?:ours?|rs?)?(?![a-z])|days?(?![a-z])))")
_HOURS_BEFORE = frozenset("open opens opening hours staffed".split())
# What may follow opening hours ("open 9 to 5 daily", "9 to 5 Monday to Friday", "9 to 5 ET"):
# the end of a clause, or one of these words; any other word is what the range counts ("we
# open 9 to 5 new stores", "at 9 to 5 locations": numbers).
_HOURS_NEXT = frozenset("on every each today tomorrow tonight and or but so daily weekdays "
                        "weekends during except from through thru till until in at local time "
                        "monday tuesday wednesday thursday friday saturday sunday mon tue tues "
                        "wed thu thur thurs fri sat sun mondays tuesdays wednesdays thursdays "
                        "fridays saturdays sundays seven all year most this next "
                        "et pt ct mt est edt pst pdt cst cdt mst mdt gmt utc bst cet cest "
                        "eastern pacific central mountain".split())
_NEXT_WORD = re.compile(r"[ \u00a0]([a-z]+)")
# A weekday between the word of opening hours and the hours: "open Saturday 10–6".
# Words that may stand between an hours word and the hours ("hours today are 9–6", "open
# from 9"), and what may stand before a weekday label that opens the hours ("- Saturday 10–5",
# "Hours on Saturday: 10–5").
_HOURS_FILLER = frozenset("today tomorrow are is from on daily".split())
_HOURS_LEAD = frozenset(("", "-", "*", "\u2022", "|", "on", "and"))
_HOURS_DAY = frozenset("monday tuesday wednesday thursday friday saturday sunday mon tue tues "
                       "wed thu thur thurs fri sat sun weekdays weekends".split())
# The first end of a range of hours that shares the second's am or pm ("4–6 pm", "2-6 pm",
# "11 to 1 pm") or its "Uhr" or "h" ("8 bis 20 Uhr", "8–20 Uhr", "zwischen 10 und 14 Uhr",
# French "9-13 h", "entre 9 et 13 h"): the second end as ``_AMPM`` and ``_UHR`` read it, after a
# dash or a word of a range ("and", "und", "et" only after their "between": ``_BETWEEN_AND``).
_SHARED_HALF = re.compile(r"(?:[ \u00a0]?[-\u2013][ \u00a0]?|[ \u00a0](?:to|till|until|bis|and|und|et)"
                          r"[ \u00a0])"
                          r"(?:(1[0-2]|0?[1-9])(?::[0-5][0-9])?[ \u00a0]?"
                          r"(?:([AaPp])\.[ \u00a0]?[Mm]\.|([AaPp])[Mm](?![A-Za-z]))"
                          r"|([01]?[0-9]|2[0-3])(?:[.:][0-5][0-9])?[ \u00a0]?(Uhr|h)(?![\w]))")
_BETWEEN_AND = {"and": "between ", "und": "zwischen ", "et": "entre "}
# A bare hour said as a time (``_When.spoken_hour``): after "at", "until" or "till" (the four
# characters before the digits), ending the clause or before one of ``_AFTER_SPOKEN_HOUR``;
# "at 8 sharp" is either half of the day; after a word of opening or closing, the hour is read
# in the half of the day shops keep.
_AT_BEFORE = frozenset((" at ", "til ", "ill "))
_AT_OPENERS = frozenset("\n\t\u00a0*_`#>\"'“‘([")   # what may stand before "at" too ("(at 8")
_HOUR_END = frozenset(" \u00a0.,;!?)")
_SHARP = re.compile(r"[ \u00a0]sharp(?![\w-])")
_AFTER_SPOKEN_HOUR = frozenset("on every each today tomorrow tonight and or daily weekdays "
                               "weekends during".split())
# An hour said in words is read where the same hour in digits is (``_When.hour_words``): after
# "at", "until", "till" as ``spoken_hour`` reads it ("we open at nine", "we close at six
# tonight", "open until ten", "at eight sharp"), and after ``_BARE_HOUR_BEFORE`` with the half
# of the day after it ("by nine this evening"). Anywhere else it stays a number ("at nine
# dollars", "one of nine", "look at one").
# The minutes may follow the hour ("we open at ten-thirty" 10:30, "at five forty-five tonight"
# 17:45), where a hyphen would otherwise make dollars and cents (``rulekit.scan.words``). Opening
# hours in words ("open nine to five", "open from nine to six") are read as in digits
# (``_HOURS_RANGE``). The tokens (an ASCII text is gated on them) hold "ten-thirty" whole.
_HOUR_WORD = re.compile(rf"({_HOUR_WORDS})(?:[-\u2010 \u00a0]({_MINUTE_WORDS}))?(?![\w\u2010-])")
_MINUTE_TOKENS = (_TEEN_WORDS.split()
                  + [f"{tens}{unit}" for tens in _TENS_WORDS.split()
                     for unit in ["", *(f"-{word}" for word in _HOUR_WORDS.split("|")[:9])]])
_HOUR_WORD_TOKENS = frozenset(_HOUR_WORDS.encode().split(b"|")) | frozenset(
    f"{hour}-{minute}".encode() for hour in _HOUR_WORDS.split("|") for minute in _MINUTE_TOKENS)
_HOUR_WORD_LEADS = frozenset(b"at til till until by around before after from open opens opening "
                             b"hours staffed".split()) | frozenset(
                                 day.encode() for day in _HOURS_DAY)
_HOUR_WORD_LEADS_TEXT = ("at ", "til ", "by ", "around ", "before ", "after ", "from ", "open",
                         "hours", "staffed", "day", "mon", "tue", "wed", "thu", "fri", "sat",
                         "sun")
_OPENING_WORDS = frozenset("open opens opening reopen reopens".split())
_CLOSING_WORDS = frozenset("close closes closing closed shut shuts".split())
# Open all day: "24/7", "open 24 hours", "24 hours a day": one mention, 00:00 to 24:00, that
# the sweep backs only with evidence that says so. "within 24 hours" is a duration.
_ALL_DAY = re.compile(r"/7(?![0-9/])|[ \u00a0](?:hours|hrs)(?:[ \u00a0]a[ \u00a0]day)?(?![\w])")
_ALL_DAY_BEFORE = frozenset("open opens staffed available".split())
# After "open 24 hours", a word that makes it a time before or after an event: "check-in opens
# 24 hours before departure" is a duration, not opening hours.
_ALL_DAY_NOT_AFTER = frozenset("before after prior ahead earlier later until till ago from "
                               "beforehand".split())
# "24 hours a day, 7 days a week": the week said after the day is the same all-day mention.
_ALL_WEEK_AFTER = re.compile(r",?(?:[ \u00a0]and)?[ \u00a0]7[ \u00a0]days[ \u00a0](?:a|per)"
                             r"[ \u00a0]week(?![\w])")
_TIME_AFTER = re.compile(r"(?i)(?:,?\s(?:at\s|um\s|à\s|om\s|kl\.?\s)?|T)(?=[0-9])")
# A date and its clock time in one phrase, one mention (``_When.join_times``): the date, then
# a space, a comma, "at", "um", "à"..., then the time ("July 10 at 8 pm", "10. Juli um 20 Uhr",
# 7月10日下午8点); or the time, then "on" and the date ("8 pm ET on July 4").
_DATE_THEN_TIME = re.compile(r"(?:,?[ \u00a0]{1,3}(?:(?:at|um|à|om|kl\.?|alle|às|a[ \u00a0]las|"
                             r"@|by|before|after|around|about|until|till|from|(?:at|by)[ \u00a0]"
                             r"(?:around|about|the[ \u00a0]latest))[ \u00a0]{1,3})?"
                             r"|,|[ \u00a0]{0,3}[(\u2013\u2014][ \u00a0]{0,3}"
                             r"|[ \u00a0]-[ \u00a0])")
_TIME_THEN_DATE = re.compile(r"(?:[ \u00a0]{1,3}(?:on|am|le|el)[ \u00a0]{1,3}|,?[ \u00a0]{1,3})")
# What stands after a time that starts a range of times ("9:00-17:00", "9 am to 5 pm"): such a
# time stays apart from the date, whose range it opens.
_TIME_RANGE_NEXT = re.compile(r"[ \u00a0]{0,3}(?:[-\u2013\u2014~]|(?:to|until|till|bis|à)[ \u00a0])")
# Between a date and the first end of a range of times ("30 November between 09:00 and 13:00",
# "30 Nov, from 9 am to 1 pm"), and, after "between", between the range's two ends.
_DATE_THEN_RANGE = re.compile(r",?[ \u00a0]{1,3}(?:between|from)[ \u00a0]{1,3}")
_AND_GAP = re.compile(r"[ \u00a0]{1,3}and[ \u00a0]{1,3}")
# The gap between the two ends of a range of days or of times: "3–4", "9 am to 5 pm".
_RANGE_GAP = re.compile(r"[ \u00a0]{0,3}(?:[-\u2013\u2014~]|to|until|till|through|bis|au|à)"
                        r"[ \u00a0]{0,3}")
_START = operator.attrgetter("s")
# The last character of an emphasis or an HTML tag between a month and its day ("**July** 2",
# "July *2*", "<i>July</i> 2"), and those marks inside a date's text.
# A month and a day with a slash and no year ("7/10" in en_US, "10/7" in en_GB: the locale's
# order), a date only after a word that makes it one (``_SHORT_DATE_CUES``, a weekday): alone,
# "7/10" is as often a rating, a share or a score, and so it is before "of", "stars", "points"
# or any counted noun ("on 9/10 devices": ``_counted_noun``). "24/7" is never a date (open all
# day, ``_ALL_DAY``), not even "24 July" in en_GB after "deliver" or "on".
# A letter may follow the day only in Chinese, Japanese and Korean, which do not space their
# words (账单已于12/1开具, 12/1입니다).
_SHORT_DATE = re.compile(r"([0-9]{1,2})/([0-9]{1,2})"
                         r"(?![0-9]|/[0-9]|[.,][0-9]|[^\W\d_\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]|%)")
_SHORT_DATE_CUES = frozenset(
    "on since until till thru through before after due dated arrives arrive arrived arriving "
    "ships ship shipped shipping delivered delivery deliver expires expire expired expiring "
    "starts start started ends end ended opens opened closes closed effective by "
    "le du au el del il dal al am vom ab bis dia".split())
# After a month and a day with a slash, a weekday of Japanese, Chinese or Korean in brackets
# makes them a date, month first as those languages write it: 12/3(木), 12/3（周四）, 12/3(목).
_SHORT_DATE_CJK_WEEKDAY = re.compile(r" ?[(（](?:[月火水木金土日](?:曜日)?|(?:星期|周)[一二三四五六日]|"
                                     r"[월화수목금토일](?:요일)?)[)）]")
# In Chinese and Korean, month first, after the words that make such a pair a date there
# (``_cjk_date_cue``): Chinese 于 (账单已于12/1开具), 在 (not before 的: 在1/3的情况下 is a share),
# 日期, 截至; Korean a date word ending in 일 or 날짜 (발행일은 12/1, 날짜: 12/1), or 까지 or 부터
# after the pair (12/1까지).
_ZH_DATE_BEFORE = ("于", "於", "在", "日期：", "日期:", "日期为", "日期為", "日期是", "截至", "截止")
_KO_DATE_WORD = re.compile(r"[가-힣]+일(?:은|는|이|:)?|날짜(?:는|가|:)?")
_KO_DATE_AFTER = ("까지", "부터")
# Between the two ends of a range of such days: "12/3-12/5", "12/3 to 12/5", "between 12/3 and
# 12/5"; the second end needs no cue of its own.
_SHORT_DATE_RANGE = re.compile(r"[ \u00a0]?[-\u2013\u2014][ \u00a0]?|[ \u00a0](?:to|until|till|"
                               r"through|thru|and|au|al|bis)[ \u00a0]")
_SHORT_DATE_NOT_AFTER = re.compile(
    r"[ \t\u00a0]*(?:of|stars?|points?|ratings?|scores?|votes?|de|des|du|del|della|di|von|der)"
    r"(?![^\W\d_])", re.IGNORECASE)
# Before "by", up to four words back in its clause, a word that makes "by 1/3" the size of a
# change ("cut by 1/3", "We reduce prices by 1/2", "slashed all prices by 1/2"), not a deadline:
# the verbs of a change in all their forms, and down, up, off.
_CHANGED_BY = frozenset(
    "down up off cut cuts cutting fell fall falls falling fallen rose rise rises rising risen "
    "grew grow grows growing grown shrank shrunk shrink shrinks shrinking".split()) | frozenset(
    f"{stem}{ending}" for stem, endings in (
        ("reduc", ("e", "es", "ed", "ing")), ("lower", ("", "s", "ed", "ing")),
        ("rais", ("e", "es", "ed", "ing")), ("increas", ("e", "es", "ed", "ing")),
        ("decreas", ("e", "es", "ed", "ing")), ("slash", ("", "es", "ed", "ing")),
        ("drop", ("", "s", "ped", "ing", "ping")), ("trim", ("", "s", "med", "ming")),
        ("discount", ("", "s", "ed", "ing")), ("boost", ("", "s", "ed", "ing")),
        ("mark", ("", "s", "ed", "ing")))
    for ending in endings)
# After a month and a day with a slash, a word ending in -s that is no counted noun: a verb of
# the date's own clause ("by 7/10 ships"), a weekday ("7/10 Thurs"), a little word.
_NOT_COUNTED = frozenset("is was has does its this thus us plus as yes always perhaps unless "
                         "ships arrives ends starts opens closes expires goes remains applies "
                         "comes gets tues thurs weds".split())
# Counted nouns whose plural does not end in -s: "9/10 people liked it".
_PLURALS = frozenset("people children men women staff feet teeth mice data criteria".split())
_WEEKDAY_WORDS = frozenset(
    name for day in ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
    for name in (day, day[:3], day[:4]))
_MARK_LAST = frozenset("*>")
_MARK_FIRST = frozenset("*<")
_MARKUP = re.compile(r"\*{1,3}|</?[A-Za-z]{1,10}>")
_LETTERS = re.compile(r"[^\W\d_]+")
# The day of "1.º de diciembre", "1º de janeiro", "1° dicembre" (NFKC makes º an o), as
# ``day_month`` reads it in Spanish, Portuguese and Italian: its ending is dropped for parsing.
_DAY_ORDINAL_O = re.compile(r"([0-9]{1,2})\.?[o°](?=[ \t\u00a0])")
_DAY_NEXT = frozenset(" \t\u00a0.sntreo°")      # what may follow the day of "29 July", "1º de"
_AMPM_NEXT = frozenset("aApP")
# What a date's first digit may not follow: an ASCII letter (``_is_glue`` for ASCII) or these.
_NOT_BEFORE = frozenset("./:-_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
# A decimal or a percentage after the month's abbreviation is a figure, not a day: "APR 19.99%"
# is a rate, "Mar 5.25%" and "Jun 3.5 kg" are no dates.
_DAY_AFTER_MONTH = re.compile(r"(?:(?P<d>[0-9]{1,2})(?![0-9])(?:st|nd|rd|th)?"
                              rf"(?:,?{_SPACE}+(?P<y>[0-9]{{4}})(?![0-9]))?"
                              r"|(?P<y3>[0-9]{4})(?![0-9]))(?![\w])(?!\.[0-9])"
                              r"(?![ \u00a0]?[%\uff05\u2030])")

# East Asian clock times: 15点, 3点半, 15時30分, 오후 3시 30분, after a word that says which half
# of the day (下午, 午後, 오후). 時/时/시 are hours unless a duration (時間, 시간) or a season or
# series (시즌, 시리즈) follows; 点 is also "point" ("以下3点" are three points), so an hour
# alone before it is a clock time only with a word of the day before it or a time word after
# it (``_DIAN_BEFORE``, ``_DIAN_AFTER``), or when it is 13 to 23; in Japanese 点 counts items
# (商品3点) and is never read as an hour. An hour up to 12 with no word of the day is read as
# written (3点 is 03:00, though it is often 15:00).
_HOUR_MARKS = frozenset("点點时時시")
# After the hour (digits, or numerals: 下午三点, 十五点二十分): the mark, then the minutes in
# digits with 分/분, in numerals with 分 or, holding 十, without it (三点二十: a decimal is
# written digit by digit, 三点二), quarters (三点一刻) or 半/반 (half past).
_CJK_NUMERAL_DIGITS = "零〇一二两兩三四五六七八九"
_CJK_HOUR_TAIL = re.compile(
    r"[ \u00a0]?(?:(?P<dian>[点點])|[时時](?![间間])|시(?![간즌리]))"
    r"(?:[ \u00a0]?(?:(?P<digits>[0-5]?[0-9])[ \u00a0]?[分분]|(?P<half>[半반])|(?P<quarter>[一三])刻"
    r"|(?P<numeral>[一二三四五]?十[一二三四五六七八九]?|[一二三四五六七八九])(?P<fen>分)?))?")
# A numeral hour: up to three numerals not inside a longer numeral, before the mark.
_CJK_NUMERAL_HOUR = re.compile(
    rf"(?<![{_CJK_NUMERAL_DIGITS}十百千万萬])([{_CJK_NUMERAL_DIGITS}十]{{1,3}})"
    r"(?=[ \u00a0]?(?:[点點时時]|시))")
# 七月二十九日, 二〇二六年七月二十九日: a month and a day (or a year) in numerals.
_CJK_NUMERAL_DATE = re.compile(
    rf"(?<![{_CJK_NUMERAL_DIGITS}十百千万萬])(?:([{_CJK_NUMERAL_DIGITS}]{{4}})[ \u00a0]?年[ \u00a0]?)?"
    r"(十[一二]?|[一二三四五六七八九])[ \u00a0]?月"
    r"(?:[ \u00a0]?([一二]?十[一二三四五六七八九]?|三十一?|[一二三四五六七八九])[ \u00a0]?[日号號])?")
# Loyalty points counted with 点 (积分15点, 15点积分, 点数：15点): never an hour.
_POINTS_WORDS = ("积分", "積分", "点数", "點數")
_DIAN_BEFORE = frozenset("午晚早天日在于於到至从從")
_DIAN_AFTER = frozenset("整钟鐘前后後以之左到至起送发發开開关關截营營~-\u2013\u2014～〜")
# The words for a half of the day before an hour, and how each moves an hour up to 12: "am"
# (12 is 0), "pm" (+12), "noon" (1 to 5 are +12: 中午1点 is 13:00), "night" (6 to 12 are +12:
# 晚上8点 is 20:00, 晚上12点 0:00; 晚上1点 is 1:00).
_HALF_DAY = {"上午": "am", "早上": "am", "早晨": "am", "凌晨": "am", "清晨": "am", "午前": "am",
             "오전": "am", "새벽": "am", "아침": "am", "朝": "am", "中午": "noon",
             "下午": "pm", "傍晚": "pm", "午後": "pm", "오후": "pm", "저녁": "pm",
             "晚上": "night", "今晚": "night", "明晚": "night"}

# Clock words (``_When.clock_words``), in the ASCII-lower-cased text. "noon", "midday" and
# "midnight" are read lower-case, in capitals, or capitalised at the start of a sentence
# before a word that is not ("Midnight is when we close"); a capitalised one inside a sentence
# or before a capitalised word is a name ("the Midnight jacket", "Midnight Express"), and
# before a colour it is one ("midnight blue").
# No look-behind at its start (the start of a word is checked in ``clock_words``): a pattern
# that starts with letters lets ``re`` skip every position that holds none of them.
_CLOCK_WORD = re.compile(
    r"(?:(noon|midday|midnight)"
    rf"|({_HOUR_WORDS})[ \u00a0]?"
    r"(?:([ap])\.[ \u00a0]?m\.|([ap])m)(?![\w\u2010-])"
    r"|twelve[ \u00a0]+(noon|midnight))(?![\w\u2010-])")
_OCLOCK_WORD = re.compile(rf"({_HOUR_WORDS})"
                         r"[ \u00a0]o['\u2019]?clock(?![\w])")
_ROUND_THE_CLOCK = re.compile(r"(?:a)?round[ \u00a0-]the[ \u00a0-]clock(?![\w])")
_ROUND_THE_CLOCK_BEFORE = frozenset("open opens staffed available reachable online support "
                                    "operate operates operating".split())
_CLOCK_WORD_TOKENS = frozenset(b"noon midday midnight am pm m".split())
_CLOCK_WORD_HOURS = {word: hour for hour, word in enumerate(_HOUR_WORDS.split("|"), 1)}
_MINUTE_TENS = {word: 10 * tens for tens, word in enumerate(_TENS_WORDS.split(), 2)}
_TWELVE_WORD = re.compile(r"[ \u00a0]+(?i:(noon|midnight))(?![\w\u2010-])")
_COLOURS = frozenset("blue black navy green purple grey gray red".split())
_SENTENCE_END = frozenset(".!?:\n")
_OPENERS = " \t\u00a0*_`#>\"'“‘(["


class _When:
    """Dates and clock times, at each run of digits; a part of ``_Scanner``. It comes before
    ``_Cjk`` and ``_Words`` among ``_Scanner``'s bases, so that its ``cjk`` and ``words`` read
    the dates and times written in numerals (七月二十九日, 下午三点) and in words ("midnight",
    "nine pm") before those passes read their numbers, then hand over to them."""

    def date_at(self, s: int, e: int) -> int | None:
        """A date or a clock time whose digits start at s (the run [s, e)); its end or None."""
        text, info = self.text, self.info
        n = len(text)
        length = e - s
        after = text[e] if e < n else ""
        before = text[s - 1] if s else " "
        # A colon after a label ("ETA:2026-12-03", 送达：12月3日) may stand before a date; after a
        # digit it is a clock's ("12:30").
        if (before in _NOT_BEFORE and not (before == ":" and (s < 2 or not text[s - 2].isdigit())))\
                or (not before.isascii() and _is_glue(before)):
            if before == "-" and length <= 2 and self.time_ends_at(s - 1):
                return self.clock_at(s, e, after)       # the second time of "09:00-17:00"
            return None
        if after == "-" and length == 4:
            found = _ISO_DATE.match(text, s)
            if found:
                return self.add_date(s, _iso_end(found))
        if after and after in "./-" and length <= 4:
            found = _NUMERIC_DATE.match(text, s)
            if found and (found.group(2) != "." or info.language in _YEAR_FIRST_DOTS) \
                    and _claimed(found.group(), info.locale) is not None:
                return self.add_date(s, found.end())
            if after == ".":
                found = self.dotted_date(s, e)
                if found is not None:
                    return found
            if after == "/" and length <= 2:
                found = self.short_date(s)
                if found is not None:
                    return found
        if self.has_east_asian and length <= 4:
            found = _EAST_ASIAN_DATE.match(text, s)
            if found and (found.group(1) or found.group(3)):
                return self.east_asian(found)
        if length <= 2 and after in _DAY_RANGE_NEXT:
            found = self.day_range(s, e)
            if found is not None:
                return found
        if (length <= 2 and after in _DAY_NEXT) or (
                (length <= 2 or length == 4) and (before in " \t\u00a0" or before in _MARK_LAST)):
            found = self.textual(s, e)
            if found is not None:
                return found
        return self.clock_at(s, e, after)

    def join_times(self, dated: list[_Hit]) -> None:
        """A date and the clock time written beside it ("July 10 at 8 pm", "8 pm ET on July 4",
        7月10日下午8点) made one mention with both its day and its time, judged as one instant
        (``_DATE_THEN_TIME``, ``_TIME_THEN_DATE``); ``dated`` holds the date mentions, two or
        more. A time that opens a range of times, or a date that ends a range of days, stays
        apart: the pair would name only one end; the ends of a range of times after a date are
        each joined with that day ("30 Nov, 09:00-13:00", and "2026-09-09 09:00-11:00", whose
        first end is already one instant)."""
        dated.sort(key=_START)
        text = self.text
        joined: list[tuple[_Hit, _Hit, _Hit]] = []
        index, last = 0, len(dated) - 1
        while index < last:
            a, b = dated[index], dated[index + 1]
            index += 1
            gap = text[a.e:b.s]
            if _day_only(a) and _time_only(b):
                between = _DATE_THEN_RANGE.fullmatch(gap)
                if not (between or _DATE_THEN_TIME.fullmatch(gap)
                        or (not gap and not text[a.e - 1].isascii())):
                    continue
                if index > 1 and _day_only(dated[index - 2]) and _RANGE_GAP.fullmatch(
                        text[dated[index - 2].e:a.s]):
                    continue                # "3–4 December at 9 am": both days, one time
                end = self.range_end(dated, index, bool(between))
                if end is not None:
                    # "30 November, 09:00-13:00", "30 Nov between 9 am and 1 pm": both ends
                    # are times of that day, as in "2026-11-30 09:00-13:00"
                    first = self.day_and_time(a.s, b.e, a, b)
                    second = self.day_and_time(end.s, end.e, a, end)
                    if first is not None and second is not None:
                        joined.append(((a, b, end), (first, second)))
                        index += 2
                    continue
                if between or index < last and _time_only(dated[index + 1]) \
                        and _TIME_RANGE_NEXT.match(text, b.e):
                    continue                # "July 10, 9:00-17:00"
                date, clock = a, b
            elif a.day is not None and a.time is not None and _time_only(b) \
                    and _RANGE_GAP.fullmatch(gap):
                # "2026-09-09 09:00-11:00": the range's second end is a time of the first
                # end's day, as in "30 Nov, 09:00-13:00" (the first end keeps its mention)
                second = self.day_and_time(b.s, b.e, a, b)
                if second is not None:
                    joined.append(((b,), (second,)))
                    index += 1
                continue
            elif _time_only(a) and _day_only(b) and _TIME_THEN_DATE.fullmatch(gap):
                if index > 1 and _time_only(dated[index - 2]) and _RANGE_GAP.fullmatch(
                        text[dated[index - 2].e:a.s]):
                    continue                # "9 am to 5 pm on July 10"
                if b.day is None and _date_word(
                        text[b.s:b.s + 16].split(None, 1)[0].rstrip(",").lower(),
                        self.info.locale) == "weekday":
                    # "08:01 on Thursday 17 April": with no year the weekday is checked by the
                    # sweep at the start of the date's mention, and joined it would be inside
                    continue
                date, clock = b, a
            else:
                continue
            end = b.e + 1 if "(" in gap and text[b.e:b.e + 1] == ")" else b.e   # "July 8 (2 pm)"
            hit = self.day_and_time(a.s, end, date, clock)
            if hit is not None:
                joined.append(((a, b), (hit,)))
                index += 1
        if joined:
            gone = {id(hit) for parts, _ in joined for hit in parts}
            self.hits[:] = [hit for hit in self.hits if id(hit) not in gone]
            self.hits.extend(hit for _, made in joined for hit in made)

    def range_end(self, dated: list[_Hit], index: int, between: bool) -> _Hit | None:
        """The second end of a range of times whose first end is ``dated[index]`` and comes
        right after a date ("09:00-13:00", "9 am to 1 pm", and after "between" also "09:00 and
        13:00"), or None."""
        if index + 1 >= len(dated) or not _time_only(dated[index + 1]):
            return None
        gap = self.text[dated[index].e:dated[index + 1].s]
        if _RANGE_GAP.fullmatch(gap) or between and _AND_GAP.fullmatch(gap):
            return dated[index + 1]
        return None

    def day_and_time(self, s: int, e: int, date: _Hit, clock: _Hit) -> _Hit | None:
        """One mention at [s, e) with the day (or the day of a month) of ``date`` and the time
        of ``clock``. A time in a fixed zone was read in UTC (``add_time``); joined with its day
        it is read again as written, in that zone, so that the day stays the one written."""
        time = clock.time
        zone = time.tzinfo
        if zone is not None and is_fixed(zone):
            found = next((zoned for zoned in (_zone_after(self.text, at, True)
                                              for at in range(clock.s + 1, clock.e))
                          if zoned is not None and zoned[0] == clock.e and is_fixed(zoned[1])),
                         None)
            if found is None:
                return None
            zone = found[1]
            moment = dt.datetime.combine(dt.date(2000, 1, 1), time.replace(tzinfo=None))
            time = (moment + zone.utcoffset(None)).time().replace(tzinfo=zone)
        hit = _Hit("date", s, e)
        hit.day, hit.time = date.day, time
        # the zone's name as the time's own mention wrote it ("20:00 ET"), when not an offset
        label = clock.normalized.partition(" ")[2]
        if date.day is not None:
            written = dt.datetime.combine(date.day, time).isoformat()
            if not isinstance(zone, Readings):
                label = ""              # the offset says it (as ``add_date`` writes it)
        else:
            written = f"{date.normalized}T{time.isoformat('minutes')}"
        hit.normalized = f"{written} {label}" if label else written
        return hit

    def clock_at(self, s: int, e: int, after: str) -> int | None:
        """A clock time whose digits start at s (the run [s, e)): its end or None."""
        text = self.text
        length = e - s
        if after == ":":
            found = _CLOCK.match(text, s)
            if found:
                meridiem = found.group(4) or found.group(5)
                second = found.group(3)
                hour, end = int(found.group(1)), found.end()
                written = hour
                if not meridiem and "Uhr" not in found.group():
                    hour = self.half_after(end, hour)
                if not meridiem:
                    half = self.half_word(end, hour)        # "um 5:30 Uhr nachmittags"
                    if half is not None:
                        end, hour = half
                    elif hour == written:
                        s, hour = self.half_before(s, hour) or (s, hour)    # "ce soir à 10:00"
                return self.add_time(s, end, hour, int(found.group(2)),
                                     int(second) if second else None, meridiem)
        if length > 2:
            return None
        if after in " \u00a0":
            if text[e + 1:e + 2] in "oO":
                found = _OCLOCK.match(text, e)
                if found and 1 <= int(text[s:e]) <= 12:
                    # a half of the day said after it is part of the mention ("8 o'clock in the
                    # morning", "4 o'clock AM"), which then names one half (``rulekit.sweep``)
                    meridiem = _MERIDIEM_AFTER.match(text, found.end())
                    if meridiem:
                        return self.add_time(s, meridiem.end(), int(text[s:e]), 0, None,
                                             meridiem.group(1))
                    half = _HALF_AFTER.match(text, e)
                    if half is None:                    # "tonight at 10 o'clock"
                        s, hour = self.half_before(s, int(text[s:e])) or (s, int(text[s:e]))
                        return self.add_time(s, found.end(), hour, 0, None, None)
                    return self.add_time(s, half.end(), self.half_after(e, int(text[s:e]) % 12),
                                         0, None, None)
            if text.startswith("24", s):
                found = _ALL_DAY.match(text, e)
                if found and (found.group().endswith("day")
                              or _word_before(text, s) in _ALL_DAY_BEFORE
                              and _word_after(text, found.end()) not in _ALL_DAY_NOT_AFTER):
                    week = _ALL_WEEK_AFTER.match(text, found.end()) \
                        if found.group().endswith("day") else None
                    return self.all_day(s, week.end() if week else found.end())
        if after == "/" and text.startswith("24/7", s):
            found = _ALL_DAY.match(text, e)
            if found:
                return self.all_day(s, found.end())
        if after and after in " \u00a0-\u2013":
            found = _SHARED_HALF.match(text, e)
            if found:
                return self.shared_half(s, e, found)
        if after and after in " \u00a0-\u2013" and self.hours_word_before(s):
            found = _HOURS_RANGE.match(text, e)
            if found:
                return self.hours_range(s, e, int(text[s:e]), 0, found)
        if (not after or after in _HOUR_END) and _at_before(self.low, s) and not (
                after == "." and text[e + 1:e + 2].isdigit()):
            found = self.spoken_hour(s, e, int(text[s:e]))
            if found is not None:
                return found
        if after and (after in _AMPM_NEXT or (after == " " and text[e + 1:e + 2] in _AMPM_NEXT)):
            found = _AMPM.match(text, s)
            if found:
                return self.add_time(s, found.end(), int(found.group(1)), 0, None,
                                     found.group(2) or found.group(3))
        if after == "." and e + 2 < len(text) and text[e + 1].isdigit():
            found = _DOT_AMPM.match(text, s)
            if found:
                return self.add_time(s, found.end(), int(found.group(1)), int(found.group(2)),
                                     None, found.group(3) or found.group(4))
        if after == "." and reads_dot_times(self.info.locale, self.info.language):
            found = self.dot_time(s)
            if found is not None:
                return found
        if after in " \u00a0" and 1 <= int(text[s:e]) <= 12 and text[e + 1:e + 2] in "tiot" \
                and _word_before(text, s) in _BARE_HOUR_BEFORE:
            found = _HALF_AFTER.match(text, e)
            if found:                                           # at 8 this evening
                return self.add_time(s, found.end(), self.half_after(e, int(text[s:e]) % 12), 0,
                                     None, None)
        if after in " \u00a0" and text[e + 1:e + 2] in _HALF_WORD_FIRST \
                and 1 <= int(text[s:e]) <= 12:
            word = _word_before(self.low, s)
            half = self.half_word(e, int(text[s:e])) \
                if word in _HOUR_AT or word in _HALF_HOUR_BEFORE else None
            if half is not None:                                # um 10 abends, a las 5 de la tarde
                return self.add_time(s, half[0], half[1], 0, None, None)
        if self.hours or after == ".":
            found = _UHR.match(text, s)
            if found:
                hour, end = int(found.group(1)), found.end()
                half = self.half_word(end, hour)                # um 10 Uhr abends
                if half is not None:
                    end, hour = half
                else:                                           # am Abend um 10 Uhr
                    s, hour = self.half_before(s, hour) or (s, hour)
                return self.add_time(s, end, hour, int(found.group(2) or found.group(3) or 0),
                                     None, None)
        if (after == "h" or after in " \u00a0" and text[e + 1:e + 2] == "h") \
                and self.info.language != "en":
            return self.hour_h(s)
        if after == " " and text.startswith("12", s):
            found = _TWELVE_WORD.match(text, e)
            if found:                                           # 12 noon, 12 midnight
                return self.add_time(s, found.end(),
                                     0 if found.group(1).lower() == "midnight" else 12, 0,
                                     None, None)
        if not self.ascii and (after in _HOUR_MARKS or (
                after in " \u00a0" and text[e + 1:e + 2] in _HOUR_MARKS)):
            return self.cjk_clock(s)
        if (not after or after in _HOUR_END) and 1 <= int(text[s:e]) <= 12:
            before = self.half_before(s, int(text[s:e]))
            if before is not None:                              # heute Abend um 10, tonight at 10
                return self.add_time(before[0], e, before[1], 0, None, None)
        if after in " \u00a0" and self.info.language == "nl" and 0 <= int(text[s:e]) <= 24:
            found = _UUR_AFTER.match(text, e)
            if found and _word_before(self.low, s) in _UUR_BEFORE:
                return self.uur(s, found.end(), int(text[s:e]))  # om 10 uur ('s avonds)
        return None

    def dot_time(self, s: int) -> int | None:
        """A time written with a dot, as British English writes it ("until 18.00", "at 6.30",
        "18.00 on 3 March", "18.00 hrs"): only next to a word of time (``_DOT_TIME_BEFORE``,
        ``_DOT_TIME_AFTER``), as the same digits are as often an amount ("£19.00", "19.00 GBP",
        "priced at 18.00") or a figure ("rated 4.50")."""
        text = self.text
        found = _DOT_TIME.match(text, s)
        if found is None or (s and text[s - 1] in _DOT_TIME_NOT_AFTER):
            return None
        before = _word_before(text, s)
        words = _DOT_TIME_WORDS.get(self.info.language)
        if words is not None:
            if before not in words and not (self.info.language == "nl"
                                            and _UUR_AFTER.match(text, found.end())):
                return None                                 # "alle 14.30", "om 14.30 uur"
        elif before in _DOT_TIME_BEFORE:
            if before == "at" and _word_before(text, s - 3) in _PRICED_AT:
                return None                                 # "priced at 18.00"
        elif not _DOT_TIME_AFTER.match(text, found.end()):
            return None
        if _DOT_MONEY_AFTER.match(text, found.end()):
            return None                                     # "until 19.00 GBP"
        return self.add_time(s, found.end(), int(found.group(1)), int(found.group(2)), None,
                             None)

    def half_after(self, e: int, hour: int) -> int:
        """``hour`` moved to the half of the day a word after e says ("this evening"), or as
        written (``_HALF_AFTER``)."""
        if self.text[e:e + 1] not in " \u00a0":
            return hour
        found = _HALF_AFTER.match(self.text, e)
        if not found:
            return hour
        if found.group(1) and found.group(1).lower() == "morning":
            return hour
        if found.group(1) and found.group(1).lower() == "afternoon":
            return hour + 12 if 1 <= hour <= 6 else hour
        return hour + 12 if 5 <= hour <= 11 else hour

    def half_word(self, e: int, hour: int) -> tuple[int, int] | None:
        """The end of a phrase at e that says the half of the day in the locale's language ("
        abends", " du soir", " de la tarde"; ``_HALF_WORDS``) and ``hour`` moved to it, or
        None."""
        words = _HALF_WORDS.get(self.info.language)
        text = self.text
        if words is None or text[e:e + 1] not in " \u00a0" \
                or text[e + 1:e + 2] not in _HALF_WORD_FIRST:
            return None
        found = words.match(text, e)
        if found is None:
            return None
        language = self.info.language
        if found.group("p") is None:        # "um 10 Uhr heute Abend": the day stays out
            return e, _moved_hour(_DAY_PART_NOUNS[language][found.group("n").lower()], hour)
        phrase = _phrase_key(found.group("p"))
        part = _DAY_PART_PHRASES.get(language, {}).get(phrase) \
            or _DAY_PART_AROUND[language][phrase]
        return found.end(), _moved_hour(part, hour)

    def half_before(self, s: int, hour: int) -> tuple[int, int] | None:
        """The start of a part of the day said right before the word that brings the hour at s
        ("am Abend um 10 Uhr", "ce soir à 10 h", "esta noche a las 10", "tonight at 10";
        ``_HALF_BEFORE``) and ``hour`` moved to it, or None. The mention starts at the phrase,
        or at a lead's noun ("heute Abend um 10": at "Abend", so that "heute" still holds the
        time to its day), except in English, whose "tonight" is a day of its own."""
        if not 1 <= hour <= 12:
            return None
        language = self.info.language
        pattern = _HALF_BEFORE.get(language)
        if pattern is None or _word_before(self.low, s) not in _DAY_PART_INTRO_LAST:
            return None
        found = pattern.search(self.text, max(0, s - 48), s)
        if found is None:
            return None
        if found.group("p") is None:
            start, part = found.start("n"), _DAY_PART_NOUNS[language][found.group("n").lower()]
        else:
            start, part = found.start("p"), _DAY_PART_AROUND[language][_phrase_key(
                found.group("p"))]
        return (s if language == "en" else start), _moved_hour(part, hour)

    def shared_half(self, s: int, e: int, found: re.Match) -> int | None:
        """The first end of "4–6 pm", "11 to 1 pm", "8 bis 20 Uhr" (see ``_SHARED_HALF``): the
        hour of the run [s, e) in the second end's half of the day (the other half when it is
        greater than the second, or the second is 12: "11–1 pm" is 11 am), or an hour before
        "Uhr" or French "h" ("9-13 h": ``window_before``). A zone after the second end is the first's too ("12–4 pm PT")."""
        first = int(self.text[s:e])
        join = found.group().split(None, 1)[0]
        if join in _BETWEEN_AND and not self.low.endswith(_BETWEEN_AND[join], 0, s):
            return None                     # only "between 5 and 6 pm" shares its pm
        if found.group(4) is not None:
            if first > 23 or (not self.hours if found.group(5) == "Uhr" else not (
                    self.info.language != "en" and first < int(found.group(4))
                    and self.window_before(s))):
                return None
            return self.add_time(s, e, first, 0, None, None)
        if not 1 <= first <= 12:
            return None
        second, meridiem = int(found.group(1)), (found.group(2) or found.group(3)).lower()
        if first != 12 and (first > second or second == 12):
            meridiem = "a" if meridiem == "p" else "p"
        # a zone after the second end is the first's too: "between 12 and 4 pm PT"
        zoned = _zone_after(self.text, found.end(), True)
        return self.add_time(s, e, first, 0, None, meridiem,
                             zoned[1:] if zoned is not None else None)

    def window_before(self, s: int) -> bool:
        """Whether the first end of "9-13 h" at s is a clock time, not a span of hours ("en 2-3
        h", "sous 24-48 h"): after a word that puts a time there (``_HOUR_AT``: "entre 9 et 13
        h") or right after a date ("le 3 décembre, 9-13 h")."""
        if _word_before(self.low, s) in _HOUR_AT:
            return True
        hits = self.hits
        return bool(hits) and hits[-1].kind == "date" and hits[-1].e < s \
            and not self.text[hits[-1].e:s].strip(" \u00a0,")

    def hours_word_before(self, s: int) -> bool:
        """Whether the words before s say opening hours: "open 9", "open from 9", "hours: 9",
        "open at 9", "open Saturday 10", "our hours today are 9", "Store hours: Mon–Wed 9", or
        a weekday label opening its line or clause ("- **Saturday:** 10", "Saturday 10")."""
        words = self.low[max(0, s - 48):s].split()[-6:]
        day = False
        while words:
            word = words[-1].strip("*_:,.()")
            if word in _HOURS_BEFORE or (word == "at" and len(words) >= 2
                                         and words[-2].strip("*_:,.()") in _HOURS_BEFORE):
                return True                 # "open 9", "open at 9" (not "looked at 9")
            parts = re.split(r"[-\u2013/]", word)
            if all(part in _HOURS_DAY for part in parts):
                day = True                  # "Saturday 10–5", "Mon–Wed 9–6", "**Saturday:**"
            elif word not in _HOURS_FILLER:
                break
            words.pop()
        return day and (not words or words[-1].strip("*_:,.()") in _HOURS_LEAD)

    def spoken_hour(self, s: int, e: int, hour: int, minute: int = 0) -> int | None:
        """A bare hour, ``hour`` written at [s, e) in digits or in words (with its ``minute``:
        "ten-thirty"), after "at", "until" or "till": "at 8 sharp" (either half of the day), "we
        close at 5" (17:00), "opens at nine" (09:00), "open until 10" (22:00), "we open at
        ten-thirty" (10:30). An opening hour from 5 to 11 is the morning and
        from 12 to 4 the afternoon; a closing hour from 1 to 11 is the afternoon or evening.
        Anything else after "at" stays a number ("at 5 locations", "at 3 stores")."""
        low = self.low
        if not 1 <= hour <= 12:
            return None
        sharp = _SHARP.match(low, e)
        if sharp:
            return self.add_time(s, sharp.end(), hour % 12, minute, None, None)
        nxt = _word_after(low, e)
        if nxt and nxt not in _AFTER_SPOKEN_HOUR:
            return None
        verb = low[max(0, s - 24):s].split()[-2:-1]
        if not verb:
            return None
        if verb[0] in _CLOSING_WORDS or (verb[0] in _OPENING_WORDS and low[s - 4:s] != " at "):
            if hour == 12:
                return None                 # noon or midnight: unsure
            return self.add_time(s, e, hour + 12, minute, None, None)
        if verb[0] in _OPENING_WORDS:
            return self.add_time(s, e, hour if hour >= 5 else hour + 12, minute, None, None)
        return None

    def hours_range(self, s: int, e: int, first: int, minute: int,
                    found: re.Match) -> int | None:
        """"open 9 to 5", "open 9 to 5:30 pm", "open nine to five": 09:00 and 17:00 (17:30), two
        clock times, the first ``first``:``minute`` written at [s, e) (see ``_HOURS_RANGE``)."""
        digits, minutes, word, minute_word = found.group(1, 2, 3, 4)
        last = int(digits) if digits else _CLOCK_WORD_HOURS[word.lower()]
        if not (5 <= first <= 11 and 1 <= last < first) or not self.free(s, found.end()):
            return None
        noun = None if found.group(5) or minutes or minute_word \
            else _NEXT_WORD.match(self.low, found.end())
        if noun is not None and noun.group(1) not in _HOURS_NEXT:
            return None                     # "we open 9 to 5 new stores": what it counts
        self.add_time(s, e, first, minute, None, None)
        # the second end with its minutes and pm, if written ("9 to 5:30", "9 to 5 pm")
        last_minute = int(minutes) if minutes else _minute_word(minute_word) if minute_word else 0
        return self.add_time(found.start(1 if digits else 3), found.end(), last + 12, last_minute,
                             None, None)

    def all_day(self, s: int, e: int) -> int | None:
        """"24/7", "open 24 hours": open all day, 00:00 to 24:00 (see ``_ALL_DAY``)."""
        if not self.free(s, e):
            return None
        hit = _Hit("date", s, e)
        hit.time = dt.time(0, 0)
        hit.normalized = "00:00-24:00"
        return self.claim(hit).e

    def day_range(self, s: int, e: int) -> int | None:
        """"3–4 December", "3 to 4 December 2026", "3. bis 4. Dezember": the first day takes
        the month (and the year) of the date after it; both are claimed, the second read as
        any date. None, having claimed nothing, when no date follows the join."""
        text, info = self.text, self.info
        join = _DAY_RANGE_JOIN.match(text, e)
        if join is None:
            join = _DAY_BETWEEN_JOIN.match(text, e)
            if join is not None and not self.between_before(s):
                return None
        if not join:
            return None
        s2 = join.end()
        second = info.day_month.match(text, s2)
        if not second:
            return None
        name = second.group("m")
        month = info.months.get(_name_key(name))
        first, last = int(text[s:e]), int(_DIGITS.match(text, s2).group())
        if month is None or (name.lower() in _VERB_MONTHS and not name[0].isupper()) \
                or not first < last or not _valid_day(month, last) \
                or not self.free(s, second.end()):
            return None
        self.day_of(s, e + len(join.group(1) or ""), month, first, second.group("y"))
        if second.group("y"):
            return self.add_date(s2, second.end())
        return self.yearless(s2, second.end(), name, last, None)

    def between_before(self, s: int) -> bool:
        """Whether "between" (or its word in another language) stands before the day at s,
        maybe with an article between ("between the 3rd", "entre le 3", "zwischen dem 3.")."""
        words = self.low[max(0, s - 24):s].split()[-2:]
        if words and words[-1] in ("the", "le", "el", "il", "dem", "den"):
            words = words[:-1]
        return bool(words) and words[-1] in _BETWEEN

    def month_day_range(self, s: int, found: re.Match, name: str, tail: re.Match) -> int | None:
        """"December 3-4", "Dec 3 to 4, 2026": both days of the month (see ``_DAY_RANGE_TAIL``);
        None, having claimed nothing, when they are not a range of that month."""
        month = self.info.months.get(_name_key(name))
        first, last = int(found.group("d")), int(tail.group(1))
        if month is None or not first < last or not _valid_day(month, last) \
                or not self.free(s, tail.end()):
            return None
        self.day_of(s, found.end(), month, first, tail.group(2))
        return self.day_of(tail.start(1), tail.end(), month, last, tail.group(2))

    def day_of(self, s: int, e: int, month: int, day: int, year: str | None) -> int:
        """A day of a month, with a year or without one ("--12-03"), claimed at [s, e)."""
        hit = _Hit("date", s, e)
        found = _date_or_none(int(year), month, day) if year else None
        if found is not None:
            hit.day, hit.normalized = found, found.isoformat()
        elif _valid_day(month, day):
            hit.normalized = f"--{month:02d}-{day:02d}"
        return self.claim(hit).e

    def short_date(self, s: int) -> int | None:
        """A month and a day with a slash and no year at s, in the locale's order ("on 7/10" in
        en_US, "le 14/7" in fr_FR), after a word of ``_SHORT_DATE_CUES`` or a weekday (of
        English or the locale: "vendredi 03/12"), or month first before a CJK weekday in
        brackets (12/3(木), ``_SHORT_DATE_CJK_WEEKDAY``); its end, or None, having claimed
        nothing."""
        text, low = self.text, self.low
        found = _SHORT_DATE.match(text, s)
        if found is None or _SHORT_DATE_NOT_AFTER.match(text, found.end()) \
                or text.startswith("24/7", s) or _counted_noun(_word_after(low, found.end())):
            return None                 # "9/10 devices": a share; "24/7": open all day
        join = _SHORT_DATE_RANGE.match(text, found.end())
        second = _SHORT_DATE.match(text, join.end()) if join else None
        if second is not None and (_SHORT_DATE_NOT_AFTER.match(text, second.end())
                                   or _counted_noun(_word_after(low, second.end()))):
            second = None               # "1/2 to 3/4 of the users": shares
        month_first = _locale_dates(self.info.locale).month_first
        if text[found.end():found.end() + 2].lstrip(" ")[:1] in ("(", "（") \
                and _SHORT_DATE_CJK_WEEKDAY.match(text, found.end()) is not None:
            month_first = True          # 12/3(木): the weekday makes it a date
        elif self.info.language in ("zh", "ko") and _cjk_date_cue(text, s, found.end(),
                                                                 self.info.language):
            month_first = True          # 账单已于12/1开具, 발행일은 12/1
        else:
            word = _word_before(low, s)
            if word not in _SHORT_DATE_CUES and word.rstrip(",") not in _WEEKDAY_WORDS and not (
                    second is not None and word in ("between", "from")) and (
                    len(word) < 5 or word.isascii() and self.info.language == "en"
                    or _date_word(word.rstrip(","), self.info.locale) != "weekday"):
                # a weekday of the locale too, its whole name: "vendredi 03/12" (not "jeu",
                # "mer", "so", "sex": words of their own)
                return None
            if word == "by" and _changed_by(low, low.rfind("by", 0, s)):
                return None             # "cut (prices) by 1/3": a share
        month, day = _month_day(found, month_first)
        if not 1 <= month <= 12 or not _valid_day(month, day) or not self.free(s, found.end()):
            return None
        end = self.day_of(s, found.end(), month, day, None)
        if second is not None:
            # the second end of a range of days, in the same order ("12/3-12/5"), after the
            # first (or in January after a December: "12/30-1/2")
            last_month, last_day = _month_day(second, month_first)
            if 1 <= last_month <= 12 and _valid_day(last_month, last_day) and (
                    (last_month, last_day) > (month, day) or (month, last_month) == (12, 1)) \
                    and self.free(second.start(), second.end()):
                return self.day_of(second.start(), second.end(), last_month, last_day, None)
        return end

    def time_ends_at(self, at: int) -> bool:
        """Whether the last hit is a clock time, alone or after its day ("2026-09-09 14:00"),
        that ends at ``at``."""
        hits = self.hits
        return bool(hits) and hits[-1].e == at and hits[-1].time is not None

    def hour_h(self, s: int) -> int | None:
        """"21h" after "à", "vers"..., or as an end of a range (see ``_HOUR_H``)."""
        found = _HOUR_H.match(self.text, s)
        if not found:
            return None
        if not (_word_before(self.text, s) in _HOUR_AT or _HOUR_TO.match(self.text, found.end())
                or (self.text[s - 1:s] in "-\u2013" and self.time_ends_at(s - 1))):
            return None
        hour, end = int(found.group(1)), found.end()
        half = self.half_word(end, hour)                        # à 10 h du soir
        if half is not None:
            end, hour = half
        else:                                                   # ce soir à 10 h
            s, hour = self.half_before(s, hour) or (s, hour)
        return self.add_time(s, end, hour, 0, None, None)

    def uur(self, s: int, e: int, hour: int) -> int | None:
        """Dutch "om 10 uur", "om 10 uur 's avonds", "'s avonds om 10 uur": the hour at s before
        "uur" (ending at e) after a word that brings an hour (``_UUR_BEFORE``), in the part of
        the day said after or before it."""
        half = self.half_word(e, hour)
        if half is not None:
            e, hour = half
        else:
            s, hour = self.half_before(s, hour) or (s, hour)
        return self.add_time(s, e, hour % 24, 0, None, None)

    def cjk_clock(self, s: int) -> int | None:
        """15点, 下午3点, 3点半, 午後3時, 15時30分, 오후 3시 (see ``_CJK_HOUR_TAIL``)."""
        found = _DIGITS.match(self.text, s)
        return self.hour_mark(s, found.end(), int(found.group()))

    def hour_mark(self, s: int, e: int, hour: int | None) -> int | None:
        """A clock time whose hour, ``hour``, is written at [s, e) before 点, 時 or 시: its end
        or None, having claimed nothing."""
        text = self.text
        found = _CJK_HOUR_TAIL.match(text, e)
        if not found:
            return None
        end = found.end()
        if hour is None:
            return None                     # the hour's numeral has no value (一一)
        numeral = found.group("numeral")
        if numeral is not None:
            if found.group("fen") is None and "十" not in numeral:
                return None                 # 三点五: a decimal
            minute = _numeral(numeral)
        elif found.group("quarter"):
            minute = 15 * _CJK_DIGIT[found.group("quarter")]
        else:
            minute = 30 if found.group("half") else int(found.group("digits") or 0)
        nxt = text[end:end + 1]
        sharp = nxt != "" and nxt in "钟鐘整"            # 三点钟, 三点整: o'clock, sharp
        if sharp:
            end += 1
            nxt = text[end:end + 1]
        exact = sharp or any(found.group("digits", "half", "quarter", "numeral"))
        if not exact and nxt and (nxt.isdigit() or nxt in _CJK_NUMERAL_DIGITS):
            return None                     # 3点5: a decimal or a time, unsure
        before = text[max(0, s - 3):s]
        window = before.rstrip(" \u00a0")
        word = next((word for word in _HALF_DAY if window.endswith(word)), None)
        half = _HALF_DAY.get(word)
        start = s - (len(before) - len(window)) - len(word) if word else s
        if found.group("dian") and self.info.language == "ja":
            return None                     # 3点 is three items in Japanese
        if found.group("dian") and half is None and not exact and (text[s:e] == "一" or (
                hour < 13 and text[s - 1:s] not in _DIAN_BEFORE and nxt not in _DIAN_AFTER)):
            return None                     # 以下3点: three points; 快一点: "a little"
        if found.group("dian") and half is None and not exact and (
                before.rstrip(" \u00a0：:").endswith(_POINTS_WORDS)
                or text.startswith(_POINTS_WORDS, end)):
            return None                     # 积分15点, 15点积分: loyalty points, not 15:00
        if hour is None or hour > 24 or (hour == 24 and minute) or minute is None or minute > 59:
            return None
        if hour <= 12 and half is not None:
            if half == "am":
                hour %= 12
            elif half == "pm" or (half == "noon" and hour < 6):
                hour = hour % 12 + 12
            elif half == "night" and hour >= 6:
                hour = (hour + 12) % 24     # 晚上8点 is 20:00, 晚上12点 0:00
        return self.add_time(start, end, hour % 24, minute, None, None)

    def cjk(self) -> None:
        """Dates and clock times in numerals (七月二十九日, 下午三点) before the numerals
        themselves (``_Cjk.cjk``), which would read 二十九 and leave 三点 unread."""
        text = self.text
        if "月" in text:
            for found in _CJK_NUMERAL_DATE.finditer(text):
                if found.group(1) or found.group(3):
                    self.numeral_date(found)
        if _HOUR_MARKS.intersection(text):
            for found in _CJK_NUMERAL_HOUR.finditer(text):
                if self.free(*found.span()):
                    self.hour_mark(found.start(), found.end(), _numeral(found.group(1)))
        super().cjk()

    def numeral_date(self, found: re.Match) -> None:
        """七月二十九日 (--07-29), 二〇二六年七月二十九日 (2026-07-29), 二〇二六年七月 (2026-07)."""
        year, month, day = found.group(1), _numeral(found.group(2)), found.group(3)
        if not self.free(*found.span()) or month is None or not 1 <= month <= 12:
            return
        hit = _Hit("date", *found.span())
        day_number = _numeral(day) if day else None
        if day_number is not None and _valid_day(month, day_number):
            if year:
                found_day = _date_or_none(int(_digit_string(year)), month, day_number)
                if found_day is not None:
                    hit.day, hit.normalized = found_day, found_day.isoformat()
            else:
                hit.normalized = f"--{month:02d}-{day_number:02d}"
        elif day is None:
            hit.normalized = f"{_digit_string(year)}-{month:02d}"
        self.claim(hit)

    def dotted_date(self, s: int, e: int) -> int | None:
        """Korean "2026. 7. 29." and German "29.7." (a day and a month, no year)."""
        text = self.text
        if e - s == 4:
            found = _SPACED_DATE.match(text, s)
            if not found:
                return None
            end = found.end()
            dot = _SPACED_DATE_END.match(text, end)
            if dot:
                end = dot.end()
            elif self.info.language != "ko":
                return None
            return self.add_date(s, end)
        if not self.info.day_dot_month:
            return None
        found = _DAY_DOT_MONTH.match(text, s)
        if not found:
            return None
        day, month = int(found.group(1)), int(found.group(2))
        if not (1 <= month <= 12 and _valid_day(month, day)) or not self.date_word_before(s) \
                or not self.free(s, found.end()):
            return None
        hit = _Hit("date", s, found.end())
        hit.normalized = f"--{month:02d}-{day:02d}"
        return self.claim(hit).e

    def date_word_before(self, s: int) -> bool:
        """Whether the word before s puts a date there: ``_DAY_DOT_BEFORE`` or a weekday."""
        word = _word_before(self.text, s)
        return word in _DAY_DOT_BEFORE or _date_word(word, self.info.locale) in (
            "weekday", "either")

    def words(self) -> None:
        """The clock words before the number words, which would read "nine" of "nine pm"
        alone, and dates joined with their times (``join_times``); then the number words
        (``_Words.words``). An ASCII text none of whose tokens is
        in ``_CLOCK_WORD_TOKENS`` holds no clock word, and one without a token of
        ``_HOUR_WORD_TOKENS`` or of ``_HOUR_WORD_LEADS`` no hour said in a word."""
        low = self.low
        if not self.ascii_tokens().isdisjoint(_CLOCK_WORD_TOKENS) if self.ascii else (
                "noon" in low or "midday" in low or "midnight" in low or "m." in low
                or "am" in low or "pm" in low):
            self.clock_words()
        if "past" in self.low or "quarter" in self.low:
            self.past_to_words()
        if "half " in self.low:
            self.half_hour_words()
        if self.ascii:
            tokens = self.tokens            # computed by the test of the clock words above
            hour_words = not (tokens.isdisjoint(_HOUR_WORD_TOKENS)
                              or tokens.isdisjoint(_HOUR_WORD_LEADS))
        else:
            hour_words = any(lead in low for lead in _HOUR_WORD_LEADS_TEXT)
        if hour_words:
            self.hour_words()
        if "clock" in self.low:
            self.oclock_words()
            for found in self.spoken_times(_ROUND_THE_CLOCK):
                # "open round the clock", like "24/7"; not "working round the clock"
                if _ROUND_THE_CLOCK_BEFORE.intersection(
                        self.low[max(0, found.start() - 40):found.start()].split()[-4:]):
                    self.all_day(*found.span())
        # every date and clock time is read by now; counted in C first, so that a text with
        # fewer than two pays no loop over its hits
        if list(map(_KIND, self.hits)).count("date") >= 2:
            self.join_times([hit for hit in self.hits if hit.kind == "date"])
        super().words()

    def clock_words(self) -> None:
        """"noon", "midday", "midnight", "twelve noon", "nine pm" (see ``_CLOCK_WORD``)."""
        low = self.low
        for found in _CLOCK_WORD.finditer(low):
            s, e = found.span()
            if s and (low[s - 1].isalnum() or low[s - 1] in "_\u2010-"):
                continue                    # inside a word: "afternoon"
            word = found.group(1)
            if word is not None:
                if not self.clock_word_is_time(s, e):
                    continue
                hour = 0 if word == "midnight" else 12
            elif found.group(5) is not None:
                hour = 0 if found.group(5) == "midnight" else 12
            else:
                hour = _CLOCK_WORD_HOURS[found.group(2)] % 12
                if (found.group(3) or found.group(4)) == "p":
                    hour += 12
            self.add_time(s, e, hour, 0, None, None)

    def hour_words(self) -> None:
        """"we open at nine", "open until ten", "by nine tonight", "we open at ten-thirty",
        "open nine to five" (see ``_HOUR_WORD``)."""
        text, low = self.text, self.low
        for found in self.spoken_times(_HOUR_WORD):
            s, e = found.span()
            hour = _CLOCK_WORD_HOURS[found.group(1)]
            minute = _minute_word(found.group(2)) if found.group(2) else 0
            after = text[e:e + 1]
            if (not after or after in _HOUR_END) and _at_before(low, s):
                if self.spoken_hour(s, e, hour, minute) is not None:
                    continue
            if after in " \u00a0-\u2013" and self.hours_word_before(s):
                ranged = _HOURS_RANGE.match(text, e)
                if ranged and self.hours_range(s, e, hour, minute, ranged) is not None:
                    continue                # open nine to five
            if after in " \u00a0" and _word_before(low, s) in _BARE_HOUR_BEFORE:
                half = _HALF_AFTER.match(text, e)
                if half:                    # by nine this evening
                    self.add_time(s, half.end(), self.half_after(e, hour % 12), minute, None,
                                  None)

    def past_to_words(self) -> None:
        """"half past seven", "quarter to 9" (see ``spoken_times``)."""
        for found in self.spoken_times(_PAST_TO):
            word = found.group(3)
            hour, minute = _past_to(int(word) if word.isdigit() else _CLOCK_WORD_HOURS[word],
                                    found.group(1), found.group(2))
            self.add_spoken(found, hour, minute)

    def half_hour_words(self) -> None:
        """British "at half ten": 10:30 (see ``_HALF_HOUR``)."""
        for found in _HALF_HOUR.finditer(self.low):
            if self.free(found.start(1), found.end()):
                word = found.group(2)
                self.add_spoken(found, int(word) if word.isdigit() else _CLOCK_WORD_HOURS[word],
                                30, found.start(1))

    def oclock_words(self) -> None:
        """"eight o'clock" (see ``spoken_times``)."""
        for found in self.spoken_times(_OCLOCK_WORD):
            self.add_spoken(found, _CLOCK_WORD_HOURS[found.group(1)], 0)

    def spoken_times(self, pattern: re.Pattern):
        """The matches of ``pattern`` in the lower-cased text that start a word and lie in free
        text: times said in words, whose half of the day is not said unless a word after says it
        ("half past seven in the morning", "eight o'clock in the evening"; ``add_spoken``)."""
        low = self.low
        for found in pattern.finditer(low):
            s, e = found.span()
            if not (s and (low[s - 1].isalnum() or low[s - 1] in "_\u2010-")) \
                    and self.free(s, e):
                yield found

    def add_spoken(self, found: re.Match, hour: int, minute: int, start: int | None = None
                   ) -> None:
        """A time said in words at ``found`` (from ``start`` when given), with the half of the
        day said after it, if any, taken into the mention."""
        s, e = found.span()
        s = s if start is None else start
        meridiem = _MERIDIEM_AFTER.match(self.text, e)
        if meridiem:                        # "eight o'clock p.m."
            self.add_time(s, meridiem.end(), hour, minute, None, meridiem.group(1))
            return
        hour %= 12
        half = _HALF_AFTER.match(self.text, e)
        if half:
            hour = self.half_after(e, hour)
            e = half.end()
        self.add_time(s, e, hour, minute, None, None)

    def clock_word_is_time(self, s: int, e: int) -> bool:
        """Whether "noon"/"midnight" at [s, e) is a time, not a name or a colour."""
        text = self.text
        nxt = _word_after_raw(text, e)
        if nxt.lower() in _COLOURS:
            return False                    # midnight blue
        word = text[s:e]
        if word.islower() or word.isupper():
            return True
        if not word[0].isupper() or (nxt[:1].isupper()):
            return False                    # "Midnight Express", "mIdnight"
        window = text[max(0, s - 8):s].rstrip(_OPENERS)
        return not window or window[-1] in _SENTENCE_END     # Midnight is when we close

    def textual(self, s: int, e: int) -> int | None:
        """29 July 2026, the 29th of July, July 29, 2026, July 2026: the date's end or None."""
        text, info = self.text, self.info
        if e - s <= 2 and (text[e:e + 1] in _DAY_NEXT or text[e:e + 1] in _MARK_FIRST):
            # what day_month needs after the day: a suffix, a space, or an emphasis or a tag that
            # closes after it ("*2* July", "<b>2</b> July")
            found = info.day_month.match(text, s)
            if found:
                prefix = info.day_prefix.match(text[max(0, s - 24):s][::-1])
                start = s - prefix.end() if prefix else s
                if found.group("m").lower() in _VERB_MONTHS and not found.group("m")[0].isupper():
                    return None             # "may", "march": verbs unless capitalised
                if found.group("y"):
                    return self.add_date(start, found.end())
                if text[e:e + 1] == "." and self.list_item_then_date(found.end()):
                    return None             # "1. December 3, 2026": a list item, then a date
                return self.yearless(start, found.end(), found.group("m"),
                                     int(_DIGITS.match(text, s).group()), None)
        # the space before the day, after an emphasis or a tag that opens there ("July *2*")
        g = _before_marks(text, s) if s and text[s - 1] in _MARK_LAST else s
        if g >= 2 and text[g - 1] in " \t\u00a0" and (text[g - 2] == "." or (
                text[g - 2].isalpha() and self.low[g - 2] in info.month_ends)
                or text[g - 2] in _MARK_LAST):
            if not self.month_word_before(g):
                return None
            month = info.month_before.match(text[max(0, g - 40):g][::-1])
            if month:
                found = _DAY_AFTER_MONTH.match(text, s)
                name = month.group("m")[::-1]
                if found and (name.lower() not in _VERB_MONTHS or name[0].isupper()):
                    start = g - month.end()
                    if found.group("d") and not found.group("y"):
                        tail = _DAY_RANGE_TAIL.match(text, found.end())
                        ranged = tail and self.month_day_range(start, found, name, tail)
                        if ranged:
                            return ranged
                    if found.group("y"):
                        return self.add_date(start, found.end())
                    if found.group("y3"):
                        return self.yearless(start, found.end(), name, None, found.group("y3"))
                    return self.yearless(start, found.end(), name, int(found.group("d")), None)
        return None

    def list_item_then_date(self, e: int) -> bool:
        """Whether the month read as "1. December" (ending at ``e``) has its own day after it,
        so that "1." numbers a list item: "1. December 3, 2026". Where dates are written
        day.month. (de_DE) only with a year after that day: "am 1. Dezember 3 Pakete" is the
        1st of December."""
        if not self.text[e:e + 1] or self.text[e] not in " \t\u00a0":
            return False
        day = _DAY_AFTER_MONTH.match(self.text, e + 1)
        return bool(day and day.group("d") and (day.group("y") or not self.info.day_dot_month))

    def month_word_before(self, s: int) -> bool:
        """Whether the word before the space at s - 1 is a month name: the run of letters that
        ends there, whatever stands before it (a space, a line break, a colon, an HTML tag that
        closes a cell or opens a paragraph: "ships on:\nDecember 3", "<td>November 3",
        "**December 3"). A window of 25 characters holds any month name; a run of letters that
        fills the window is a longer word (the window keeps the scan linear)."""
        window_start = max(0, s - 25)
        window = self.low[window_start:s - 1].rstrip(".*")
        if window[-1:] == ">" and "<" in window:
            # an HTML tag may close after the month: "<b>July</b> 2"
            window = window[:window.rfind("<")].rstrip(".*")
        # an emphasis, a bracket or a quote may stand around it: "**Dec** 3", "(Dec 3)", "_Dec 3_"
        word = _LETTERS.match(window[::-1])
        if word is None or (window_start and word.end() == len(window)):
            return False
        return word.group()[::-1] in self.info.month_keys

    def yearless(self, s: int, e: int, name: str, day: int | None, year: str | None) -> int | None:
        if not self.free(s, e):
            return None
        month = self.info.months.get(_name_key(name))
        hit = _Hit("date", s, e)
        if month is not None:
            if year is not None:
                hit.normalized = f"{year}-{month:02d}"
            elif day is not None and _valid_day(month, day):
                hit.normalized = f"--{month:02d}-{day:02d}"
        return self.claim(hit).e

    def east_asian(self, found: re.Match) -> int | None:
        year, month, day = found.groups()
        s, e = found.span()
        if year and day:
            return self.add_date(s, e)
        if not self.free(s, e):
            return None
        hit = _Hit("date", s, e)
        if year is None and _valid_day(int(month), int(day)):
            hit.normalized = f"--{int(month):02d}-{int(day):02d}"
        elif day is None and 1 <= int(month) <= 12:
            hit.normalized = f"{year}-{int(month):02d}"
        return self.claim(hit).e

    def add_date(self, s: int, e: int) -> int | None:
        """A date with a year, read by parse_claimed_date; a time may follow it. A date that
        does not exist is still a date mention, with no day."""
        text, locale = self.text, self.info.locale
        if not self.free(s, e):
            return None
        written = _unmarked(text[s:e])
        ordinal = _DAY_ORDINAL_O.match(written) if written[1:4].strip("0123456789.")[:1] in (
            "o", "°") else None
        if ordinal is not None:         # "1.º de diciembre de 2026" read as "1 de diciembre ..."
            written = ordinal.group(1) + written[ordinal.end():]
        claimed = _claimed(written, locale)
        hit = _Hit("date", s, e)
        if claimed is None:
            return self.claim(hit).e
        if claimed.kind == "date":
            hit.day = claimed.day
            hit.normalized = claimed.day.isoformat()
            joint = _TIME_AFTER.match(text, e)
            clock = joint and (_CLOCK.match(text, joint.end()) or _AMPM.match(text, joint.end()))
            if clock and self.free(clock.start(), clock.end()):
                timed = _claimed(_unmarked(text[s:clock.end()]), locale)
                if timed is not None and timed.kind == "timestamp":
                    hit.e, claimed = clock.end(), timed
        if claimed.kind == "timestamp":
            instant = claimed.instant
            hit.day = instant.date()
            # an offset written with the time keeps its zone, and so does UTC written as ISO
            # writes it ("2026-07-06T04:00:00Z", "+00:00"); a naive time reads as UTC, no zone
            written = instant.utcoffset() or text.endswith(_ISO_UTC, s, hit.e)
            hit.time = instant.timetz() if written else instant.time()
            hit.normalized = instant.isoformat()
            zoned = None if written else _zone_after(text, hit.e)
            if zoned is not None and self.free(s, zoned[0]):
                hit.e, zone, label = zoned
                hit.time = hit.time.replace(tzinfo=zone)
                hit.normalized = dt.datetime.combine(hit.day, hit.time).isoformat() + (
                    f" {label}" if isinstance(zone, Readings) else "")
        return self.claim(hit).e

    def add_time(self, s: int, e: int, hour: int, minute: int, second: int | None,
                 meridiem: str | None,
                 shared_zone: tuple[dt.tzinfo, str] | None = None) -> int | None:
        if meridiem:
            if not 1 <= hour <= 12:
                return None
            hour = hour % 12 + (12 if meridiem in "pP" else 0)
        elif hour == 24:
            if minute or second:
                return None
            hour = 0                        # 24:00, the end of the day, is midnight
        if not minute and second is None and s >= 8 and self.low.endswith(
                ("past ", "after ", "to ", "past\u00a0", "after\u00a0", "to\u00a0"), s - 6, s):
            said = _PAST_TO_BEFORE.search(self.text, max(0, s - 20), s)
            if said:                        # "quarter past 8 pm" is 20:15, "quarter to 9 pm" 20:45
                s = said.start()
                hour, minute = _past_to(hour, said.group(1), said.group(2))
        time = dt.time(hour, minute, second or 0)
        label = None
        zoned = _zone_after(self.text, e, meridiem is not None)
        if zoned is not None:
            e, zone, label = zoned
        elif shared_zone is not None:
            zone, label = shared_zone       # the zone written after a range's second end
        if zoned is not None or shared_zone is not None:
            time = _in_utc(time, zone) if is_fixed(zone) else time.replace(tzinfo=zone)
        if not self.free(s, e):
            return None
        hit = _Hit("date", s, e)
        hit.time = time
        spec = "seconds" if second is not None else "minutes"
        hit.normalized = time.isoformat(spec) if time.tzinfo is None or is_fixed(time.tzinfo) \
            else f"{time.replace(tzinfo=None).isoformat(spec)} {label}"
        return self.claim(hit).e


def _cjk_date_cue(text: str, s: int, e: int, language: str) -> bool:
    """Whether the words around a month and day with a slash at [s, e) make it a date in Chinese
    or Korean (``_ZH_DATE_BEFORE``, ``_KO_DATE_WORD``, ``_KO_DATE_AFTER``)."""
    if language == "zh":
        return text.endswith(_ZH_DATE_BEFORE, 0, s) and not (
            text[s - 1:s] == "在" and text[e:e + 1] == "的")
    words = text[max(0, s - 16):s].split()
    return text.startswith(_KO_DATE_AFTER, e) or bool(words) and text[s - 1:s] in " \u00a0" \
        and _KO_DATE_WORD.fullmatch(words[-1]) is not None


def _phrase_key(said: str) -> str:
    """A part of the day as said, as a key of ``_DAY_PART_PHRASES`` and ``_DAY_PART_AROUND``:
    lower case, one space between words, a straight apostrophe with no space after it."""
    return " ".join(said.lower().replace("\u2019", "'").split()).replace("' ", "'")


def _moved_hour(part: str, hour: int) -> int:
    """``hour`` in the part of the day a word after it says (``_DAY_PART_PHRASES``): an hour
    after 12 stays; noon moves 1 to 5 to the afternoon ("1 Uhr mittags"); afternoon and evening
    move 1 to 11 ("a las 8 de la tarde" is 20:00); night moves 6 to 11, and 12 is midnight ("2
    Uhr nachts" is 02:00); the morning keeps the hour."""
    if hour > 12 or part == "morning":
        return hour
    if part == "noon":
        return hour + 12 if 1 <= hour <= 5 else hour
    if part == "night":
        return 0 if hour == 12 else hour + 12 if 6 <= hour <= 11 else hour
    return hour + 12 if 1 <= hour <= 11 else hour


def _before_marks(text: str, s: int) -> int:
    """s moved back over the emphasis ("*" to "***") or the HTML tag without attributes
    ("<em>", "<b>") that opens just before it, or s when none does."""
    if text[s - 1] == "*":
        g = s - 1
        while g > s - 3 and g and text[g - 1] == "*":
            g -= 1
        return g
    lt = text.rfind("<", max(0, s - 10), s - 1)
    return lt if lt >= 0 and text[lt + 1:s - 1].isalpha() else s


def _unmarked(found: str) -> str:
    """A date's text without the emphasis and HTML tags inside it ("July** 3, 2026")."""
    return _MARKUP.sub("", found) if "*" in found or ">" in found else found


def _at_before(low: str, s: int) -> bool:
    """Whether "at ", "til " or "till " ends just before s (``_AT_BEFORE``): after a space, or
    after a line break, a bracket or an emphasis mark, or at the start of the text ("At 8
    sharp")."""
    chunk = low[s - 4:s] if s >= 4 else low[:s]
    if chunk in _AT_BEFORE:
        return True
    if s < 4:
        return chunk == "at "
    return chunk[0] in _AT_OPENERS and chunk.endswith("at ")


def _minute_word(word: str) -> int:
    """The minutes said in ``word``, ten to fifty-nine ("thirty", "forty-five"; see
    ``_MINUTE_WORDS``)."""
    word = word.lower().replace("\u2010", "-")
    if "-" in word:
        tens, unit = word.split("-")
        return _MINUTE_TENS[tens] + _CLOCK_WORD_HOURS[unit]
    if word in _MINUTE_TENS:
        return _MINUTE_TENS[word]
    return _TEEN_WORDS.split().index(word) + 10


def _past_to(hour: int, part: str, way: str) -> tuple[int, int]:
    """The hour and minute of "<part> <way> <hour>": quarter past 8 is 8:15, half past 8 8:30,
    quarter to 9 8:45."""
    minute = 30 if part.lower() == "half" else 15
    if way.lower() == "to":
        return (hour - 1) % 24, 60 - minute
    return hour, minute


def _day_only(hit: _Hit) -> bool:
    """A date mention with a day (2026-07-10) or a day of a month (--07-10) and no time."""
    return hit.time is None and (hit.day is not None or (
        hit.normalized is not None and len(hit.normalized) == 7 and hit.normalized[:2] == "--"))


def _time_only(hit: _Hit) -> bool:
    """A clock time alone ("8 pm", "20:00"), not "24/7"."""
    return hit.time is not None and hit.day is None and hit.normalized != "00:00-24:00"


def _counted_noun(word: str) -> bool:
    """Whether ``word``, after a month and a day with a slash, is a plural noun they count
    ("9/10 devices", "9/10 people"), which makes them a share, not a date."""
    if word in _PLURALS:
        return True
    return len(word) > 3 and word.endswith("s") and not word.endswith("ss") and word.isalpha() \
        and word not in _NOT_COUNTED


def _changed_by(low: str, by: int) -> bool:
    """Whether a word of ``_CHANGED_BY`` stands up to four words before "by" at ``by``, in its
    clause: "cut by 1/3", "we reduce prices by 1/2"."""
    words = low[max(0, by - 48):by].split()[-4:]
    for word in reversed(words):
        if word.strip(_CONTEXT_STRIP) in _CHANGED_BY:
            return True
        if word[-1:] in ".,;:!?)":
            return False                # the clause ends before "by"
    return False


def _month_day(found: re.Match, month_first: bool) -> tuple[int, int]:
    """The month and the day of a ``_SHORT_DATE`` match, in the locale's order."""
    first, second = int(found.group(1)), int(found.group(2))
    return (first, second) if month_first else (second, first)


def _valid_day(month: int, day: int) -> bool:
    try:
        dt.date(2000, month, day)         # a leap year: 29 February exists without a year
    except ValueError:
        return False
    return True


def _word_after_raw(text: str, e: int) -> str:
    """The word after e as written (its case kept), without the punctuation around it."""
    words = text[e:e + 24].split(None, 1)
    return words[0].strip(".,;:!?)\"'”’") if words else ""


def _date_word(word: str, locale: str) -> str | None:
    """What ``rulekit.dates`` reads ``word`` as in ``locale``: "weekday", "month", "either",
    "filler", or None."""
    found = _locale_dates(locale).words.get(word.rstrip("."))
    return found[0] if found else None


def _numeral(run: str) -> int | None:
    """A Chinese numeral up to 99 (七 7, 十五 15, 二十九 29), or None."""
    return _CJK_DIGIT[run] if len(run) == 1 and run in _CJK_DIGIT else _cjk_value(run)


def _iso_end(found: re.Match) -> int:
    """Where an ISO date or timestamp ends: before an offset that no zone has ("14:00-18:00"
    is a range of hours), or that a reader reads as the end of a range of hours, written after
    a space with its colon and no seconds ("2026-09-09 09:00-11:00", ``hour_range``)."""
    if found.group(2) is None:
        return found.end()
    if found.group(2) == "-" and hour_range(found.group()):
        return found.start(1)
    offset = dt.timedelta(hours=int(found.group(3)), minutes=int(found.group(4) or 0))
    return found.end() if real_offset(-offset if found.group(2) == "-" else offset) \
        else found.start(1)


def _date_or_none(year: int, month: int, day: int) -> dt.date | None:
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None


def _zone_after(text: str, e: int, meridiem: bool = False) -> tuple[int, dt.tzinfo, str] | None:
    """The zone written just after a time that ends at e ("UTC+8", "PST", "ET", "Eastern",
    "Pacific Standard Time", and after am or pm "est"): its end, the zone
    (``rulekit.dates.written_zone``) and its name as written; or None. Texts with no letter
    there pay one look at three characters."""
    window = text[e:e + 3]
    if not any("A" <= char <= "Z" for char in window):
        if not any("a" <= char <= "z" for char in window):
            return None
        city = _city_zone(text, e) if window == " in" else None   # "16:00 in Tokyo"
        if city is not None:
            return city
        named = _ZONE_NAME.match(text, e)           # "9 pm pacific standard time"
        if named and named.group("long"):
            zone = written_zone(named.group("long"))
            if zone is not None:
                return named.end(), zone, named.group("long")
        lower = _ZONE_LOWER.match(text, e) if meridiem else None
        if lower is None:
            return None
        zone = written_zone(lower.group(2))
        return None if zone is None else (lower.end(), zone, lower.group(2).upper())
    zoned = _ZONE_AFTER.match(text, e) if "U" in window or "G" in window else None
    if zoned:
        offset = dt.timedelta(hours=int(zoned.group(3) or 0), minutes=int(zoned.group(4) or 0))
        if zoned.group(2) and zoned.group(2) != "+":
            offset = -offset
        if not real_offset(offset):
            return None
        return zoned.end(), dt.timezone(offset) if offset else dt.timezone.utc, \
            zoned.group().strip(" \u00a0()")
    named = _ZONE_NAME.match(text, e)
    if not named:
        return _city_zone(text, e)                  # "4 pm Tokyo", "9 am (London)"
    label = named.group("long") or named.group("abbr") or named.group("word")
    zone = written_zone(label)
    return None if zone is None else (named.end(), zone, label)


def zone_after(text: str, e: int) -> tuple[int, dt.tzinfo, str] | None:
    """The zone a reader takes as written after a time ending at ``e``, as the sweep reads it
    ("Eastern", "(Eastern Time)", "PST", "UTC+8", "Tokyo time", "4 pm Tokyo"): its end, the
    zone and its name as written; or None. For the claims channel, which reads the words a
    template writes after a time slot (``rulekit.prose.slot_modifiers``)."""
    return _zone_after(text, e)


def _city_zone(text: str, e: int) -> tuple[int, dt.tzinfo, str] | None:
    """A city named after a time ending at e ("4 pm Tokyo", "16:00 in Tokyo"), read as "<city>
    time" (``_CITY_ZONE``)."""
    found = _CITY_ZONE.match(text, e)
    if found is None:
        return None
    label = " ".join(found.group(2).split()) + " time"
    zone = written_zone(label)
    return None if zone is None else (found.end(), zone, label)


def _in_utc(time: dt.time, zone: dt.tzinfo) -> dt.time:
    """``time`` written in the fixed zone ``zone``, as the time of day in UTC, aware."""
    moment = dt.datetime.combine(dt.date(2000, 1, 1), time) - zone.utcoffset(None)
    return moment.time().replace(tzinfo=dt.timezone.utc)
