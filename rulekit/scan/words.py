"""Numbers written as words: English number words ("twenty-one", "a dozen", "one and a half
million", ordinals, "a fifty-dollar gift card", "fifty-nine-ninety-nine", "fifty-nine pounds
ninety-nine"; not "thanks a million", "one in a million", "the front nine"), the lone "one" and
"half" (``ONE_NOUNS``), shares and discounts ("a quarter of", "half off", "save a third"),
multiples ("twice", "doubled", "three times as many"); German number words ("german"), and
French, Spanish, Italian, Portuguese and Dutch ones ("european", ``_ROLE_WORDS``), each read only
in its own language, with their multiples ("doublé", "el doble", "4-mal so hoch"), and not in
idioms ("cent pour cent", "à deux pas": ``_FR_IDIOM``)."""

from __future__ import annotations

import re
from decimal import Decimal

from rulekit.scan.base import (_CLAIMED, _CONTEXT_STRIP, _IDIOM, Mention, _Hit, _trie,
                               _word_after, _word_before)
from rulekit.scan.figures import (_CENTS_AFTER, _CURRENCY_WORDS, _SCALES,
                                  _TIMES_WHAT, _currency_for)

_WORD_GUARD = r"[\w\u2010-]"
# The same, but a hyphen after digits lets a number word start: "96-thirteen" holds 13, which
# the reader sees (probe fuzz f1); "well-one", "x-nine" stay parts of a word.
_NUMBER_WORD_GUARD = (r"\w", r"(?<![0-9])[\u2010-]")
_EN_UNITS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
             "seven": 7, "eight": 8, "nine": 9}
_EN_TEENS = {"ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
             "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19}
_EN_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
            "eighty": 80, "ninety": 90}
_EN_SCALES = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12}
_EN_ORDINAL_UNITS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
                     "seventh": 7, "eighth": 8, "ninth": 9}
_EN_ORDINALS = {"third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
                "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13,
                "fourteenth": 14, "fifteenth": 15, "sixteenth": 16, "seventeenth": 17,
                "eighteenth": 18, "nineteenth": 19, "twentieth": 20, "thirtieth": 30,
                "fortieth": 40, "fiftieth": 50, "sixtieth": 60, "seventieth": 70, "eightieth": 80,
                "ninetieth": 90, "hundredth": 100, "thousandth": 1000}
# "twenty-one" -> (21, False), "twenty-first" -> (21, True)
_EN_COMPOUNDS = {f"{tens}{dash}{unit}": (tv + uv, unit in _EN_ORDINAL_UNITS)
                 for tens, tv in _EN_TENS.items() for dash in "-\u2010"
                 for unit, uv in [*((u, v) for u, v in _EN_UNITS.items() if v),
                                  *_EN_ORDINAL_UNITS.items()]}
_DOZEN_HUNDRED_SCALES = frozenset(("dozen", "hundred", *_EN_SCALES))
_EN_NUMBER_WORDS = (set(_EN_UNITS) | set(_EN_TEENS) | set(_EN_TENS) | set(_EN_SCALES)
                    | set(_EN_ORDINALS) | set(_EN_COMPOUNDS) | {"hundred", "dozen"})
_EN_MULTIPLES = {"twice": 2, "halved": 0.5, "halving": 0.5, "doubled": 2, "doubling": 2,
                 "tripled": 3, "tripling": 3, "quadrupled": 4, "quadrupling": 4, "double": 2,
                 "triple": 3, "quadruple": 4, "half": 0.5}
# "half-price", "half-off": a discount (see ``_share_off``)
_EN_MULTIPLES.update({f"half{dash}{word}": 0.5 for word in ("off", "price") for dash in "-\u2010"})
# "a half-hour grace period", "a half hour": 0.5 hours, as "half an hour" is
_EN_MULTIPLES.update({f"half{dash}hour": 0.5 for dash in "-\u2010"})
_EN_MULTIPLES.update({f"{word}{dash}fold": value
                      for word, value in [*_EN_UNITS.items(), *_EN_TEENS.items(),
                                          *_EN_TENS.items(), ("hundred", 100), ("thousand", 1000)]
                      if value > 1 for dash in ("", "-", "\u2010")})

# Nouns before which a lone "one" is the number 1 (see the module docstring).
ONE_NOUNS = frozenset("""
    percent per cent dollar euro pound yen yuan rupee franc cent penny
    second minute hour week month year night weekend quarter
    item unit piece order post view like follower comment customer user person
    star review point round hole shot stroke page product sale purchase return refund
    package parcel box bottle pack size share click visit visitor subscriber reply message
    kilogram kilo gram litre liter metre meter mile kilometre kilometer inch foot
    refill tablet capsule pill dose tab cap puff drop spray injection patch vial syringe
    milligram microgram milliliter millilitre teaspoon tablespoon
""".split())
# "one-click", "one-piece", "one-size", "one-shot", "one-page": idioms, though the noun alone
# counts.
_ONE_HYPHEN_IDIOMS = frozenset("click piece size shot page".split())
# "One customer said it was great", "but one customer complained", "One customer, Dana,
# said": "one" before a person and a verb of saying or feeling (``_ONE_SAID``), maybe after an
# adverb or a name between commas, is a certain person, not a count (as "One reviewer loved
# it", whose noun is no unit). Before any other verb ("One customer has reviewed it", "bought",
# "returned it"), after "only" or "just", or with "so far" in its clause, it is 1.
_ONE_PERSON = re.compile(r"[ \t\u00a0]+(?:customer|user|person|follower|visitor|subscriber)"
                         r"(?:,[ \t\u00a0]+[^,.!?;\n]{1,40},)?[ \t\u00a0]+(?:[a-z]+ly[ \t\u00a0]+|"
                         r"also[ \t\u00a0]+|even[ \t\u00a0]+)?(?P<verb>[a-z]+)(?![\w'-])")
_ONE_SAID = frozenset(
    "said says wrote writes noted notes mentioned mentions commented comments remarked "
    "reported complained complains loved loves liked disliked hated praised raved called "
    "described felt thought found told asked added shared claimed warned suggested noticed "
    "pointed wished enjoyed appreciated recommended criticized criticised admitted explained "
    "observed stated joked gushed summed put worried".split())
_ONE_COUNTED_AFTER = re.compile(r"[^.!?;\n]{0,80}?\bso far\b")
# "only one left", "one remaining", "one available": a count of stock.
_ONE_LEFT = frozenset("left remaining available".split())
# "ships in one day", "within one day", "for one day": a period; "one day we will" is not.
_ONE_DAY_BEFORE = frozenset("in within for than after over under about around least only just "
                            "by take takes took taking".split())
_ONE_DAY = re.compile(r"[ \t\u00a0]+(?:(?:business|working|calendar|full|whole)[ \t\u00a0]+)?"
                      r"days?(?![\w-])")
_PRONOUN_BEFORE = frozenset("no every any some each which this that the a another such "
                            "only last one".split())
# "only one" is a pronoun after these ("the only one", "your only one").
_ONLY_PRONOUN = frozenset("the a an my your his her its our their this that".split())
_DOUBLE_NEXT = frozenset("the that what its their your our his her this last my in as from since "
                         "compared or than".split())
_DOUBLE_PREV = frozenset("almost nearly roughly about around over more than is was were are be "
                         "been to will would could can did does do approximately exactly "
                         "basically effectively".split())
_HALF_NEXT = frozenset("of the a an your their its our his her my that those these all what "
                       "this".split())
_HALF_PREV = frozenset("by in than about nearly almost over under roughly around just only "
                       "exactly cut".split())
# "half off", "half price", "save half": a discount, read as the percentage 50 (see
# ``_share_off``).
_OFF_NEXT = frozenset(("off", "price"))
_SAVE_PREV = frozenset("save saves saved saving".split())
# Before the "half" of "an hour and a half" (searched up to the half).
_AN_HOUR_AND_A = re.compile(r"(?<![a-z])an[ \u00a0]+hour[ \u00a0]+and[ \u00a0]+a[ \u00a0]+\Z")
_HALF_NOT_PREV = frozenset("first second last other latter former top bottom upper lower "
                           "back front".split())
_HALF_AS = re.compile(r"[ \t\u00a0]+as[ \t\u00a0]+(?:many|much|often|long|large|big|high|fast|"
                      r"expensive|cheap|likely|well|good|bad|quickly|far)(?![\w-])")
_WORD_SUFFIX = re.compile(
    r"(?P<pct>[ \u00a0]?%|(?:[ \u00a0]+|[-\u2010])(?i:percent(?!age)|per[ \u00a0]?cent|prozent)"
    r"(?![\w]))"
    rf"|(?P<times>[ \u00a0]+(?i:times)(?=[ \u00a0]+(?i:{_TIMES_WHAT})))"
    r"|(?:[ \u00a0]+|[-\u2010])(?P<curw>(?i:dollars?|euros?|yen|yuan|rupees?|pounds?|quid|"
    r"bucks|reais))(?![\w])")

# Words, matched in the ASCII-lower-cased text.
_EN_NUM = _trie(sorted(_EN_NUMBER_WORDS), _NUMBER_WORD_GUARD)
# Number words joined by spaces or by hyphens ("one-and-a-half", "fifty-nine-ninety-nine"); the
# span ends at a space or punctuation, or before a hyphen and a word ("a fifty-dollar gift card",
# "a two-year warranty": the number is read, the word after the hyphen is only context).
_SEP = r"(?:[ \t\u00a0]+|[-\u2010])"
_EN_SPAN = re.compile(rf"{_EN_NUM}(?:{_SEP}(?:and{_SEP})?(?:an?{_SEP})?"
                      rf"(?:{_trie(sorted(_EN_NUMBER_WORDS | {'half'}))}))*"
                      r"(?:(?![\w\u2010-])|(?=[-\u2010][a-z]))")
# Hyphenated chains that are idioms, not amounts: "fifty-fifty", "twenty-four-seven" (24/7),
# "nine-to-five", "one-on-one", "one-to-one".
# (A chain is compared by its start, so these are whole words: the chain ends after each.)
_HYPHEN_IDIOMS = ("fifty-fifty", "twenty-four-seven", "nine-to-five", "one-on-one",
                  "one-to-one", "one-of-a-kind")
_HYPHEN_CHAIN = re.compile(r"[a-z]+(?:[-\u2010][a-z]+)+(?![\w-])")
_HYPHEN_WORD = re.compile(r"[-\u2010]([a-z]+)")
# After a hyphen, these make the number word a fraction or a part of an adjective, not read:
# "two-thirds" (a share is read only before "of", see _FRACTION), "one-half", "zero-waste".
# And "two-factor", "two-step", "two-way", "three-dimensional", "two-time": names of a kind,
# not a count that evidence would hold.
_NOT_AFTER_HYPHEN = frozenset(("half", "halves", "third", "thirds", "quarter", "quarters",
                               "fourth", "fourths", "fifth", "fifths", "sixth", "sixths",
                               "eighth", "eighths", "tenth", "tenths", "factor", "step", "way",
                               "tone", "dimensional", "time", "timer", "ply"))
# ASCII characters outside [\w-] as spaces, for ``bytes.translate``: what separates the tokens
# of an ASCII text.
_NOT_WORD = bytes(code if code > 127 or re.match(r"[\w-]", chr(code)) else 32
                  for code in range(256))
# A token of a span: a compound ("twenty-one", "twenty-first") or a word.
_EN_TOKEN = re.compile(rf"(?:{'|'.join(_EN_TENS)})[-\u2010]"
                       rf"(?:{'|'.join(sorted({*_EN_UNITS, *_EN_ORDINAL_UNITS} - {'zero'}))})"
                       r"(?![a-z])|[a-z]+")
_EN_MULTIPLE = re.compile(rf"{_trie(sorted(_EN_MULTIPLES), _WORD_GUARD)}(?![\w\u2010-])")
# The words either trie starts with, as the ASCII tokens ``words`` compares them to.
_WORD_BYTES = frozenset(word.encode() for word in (*_EN_NUMBER_WORDS, *_EN_MULTIPLES)
                        if word.isascii())
_MULTIPLE_FACTORS = {word: Decimal(str(value)) for word, value in _EN_MULTIPLES.items()}
_MULTIPLE_STEMS = ("twice", "hal", "doubl", "tripl", "quadrupl", "fold")
assert all(any(stem in word for stem in _MULTIPLE_STEMS) for word in _EN_MULTIPLES)
_ARTICLE_BEFORE = re.compile(r"[ \t\u00a0]+(?:a|na)(?:[ \t\u00a0]+flah)?(?![\w-])")
_DE_WORD = re.compile(_trie(["ein", "zwei", "drei", "vier", "fünf", "sech", "sieb", "acht",
                             "neun", "zehn", "elf", "zwölf", "zwanzig", "dreißig", "hundert",
                             "tausend", "anderthalb"], _NUMBER_WORD_GUARD)
                      + r"[a-zäöüß]{0,57}(?![\w-])")
_DE_SCALE = re.compile(r"(?i)[ \u00a0]+(millionen|million|milliarden|milliarde|mio|mrd|dutzend)"
                       r"\.?(?![\w])")
# "eine Million", "ein Dutzend": the article is 1 before a scale or a dozen, and nowhere else.
_DE_ARTICLES = frozenset(("ein", "eine", "einer", "einen", "einem"))
# After "zwei Millionen", the rest of the number in words: "zwei Millionen vierhunderttausend"
# is 2,400,000 (``_Words.german``), as French "deux millions quatre cent mille" is read.
_DE_REST = re.compile(r"[ \u00a0]+(?:und[ \u00a0]+)?([a-zäöüß]+)(?![\w-])")
_HALF = Decimal("0.5")
# Overtime's rates in words: "time and a half" is 1.5 times the rate, "time and a quarter" 1.25.
# Not a length of time after it: "part time and a half day on Fridays".
_TIME_AND_A = re.compile(r"(?<![\w-])time and an? (half|quarter)(?![\w-]| (?:day|hour|week|"
                         r"month|year|shift)s?(?![\w-]))")
_HALF_MORE, _QUARTER_MORE = Decimal("1.5"), Decimal("1.25")
_QUARTER = Decimal("0.25")
# Digits, then "and a half" or "and a quarter": "13 and a half days" (``digits_and_a_part``).
_DIGITS_AND_A = re.compile(r"(?<![\w.,])([0-9]{1,4}) and an? (half|quarter)(?![\w-])")


# Ordinals as ranks (``_Words.rank_words``): "first" and "second", never read elsewhere (an
# adverb, a unit of time), and "third" to "twelfth" before a hyphen (otherwise "third-party"),
# are ranks directly before a word of ranking ("second place", "the second-best post", "third
# most viewed", "fifth-ranked", "first overall", "first in the rankings") or after one
# ("ranked second", "finished first", "came in third", "finished the race first").
_RANK_ORDINALS = {**_EN_ORDINAL_UNITS, "tenth": 10, "eleventh": 11, "twelfth": 12}
_RANK_ORDINAL = re.compile(rf"{_trie(sorted(_RANK_ORDINALS), _WORD_GUARD)}(?![\w])")
_RANK_NEXT = re.compile(r"[ \u00a0\-\u2010](?:place|best|most|highest|largest|biggest|lowest"
                        r"|worst|ranked|spot|position|fastest|busiest|top|overall"
                        r"|in[ \u00a0]the[ \u00a0](?:rankings?|standings))(?![\w])")
_RANK_AFTER = frozenset("ranked ranks rank finished finishes finish placed came comes".split())
_RANK_AFTER_IN = frozenset("came comes come finished finishes".split())
_RANK_NOT_AFTER = frozenset("a one per each every".split())
# "finished the race first": a verb of finishing, up to three words, the ordinal, the end of
# the clause (``_Words.rank_at_end``).
_RANK_VERBS = frozenset("finished finishes finish came comes come placed places".split())


# A share written as a fraction and followed by "of": a quarter of, one third of, two thirds
# of, three fifths of ("half" is read with the multiples). Before "off" or "price", or after
# "save", it is a discount ("a quarter off", "save a third"), read as a percentage. Not "a
# third time", "the third quarter": otherwise these are ordinals or periods, or not numbers.
_FRACTION_NUMERATORS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
                        "six": 6, "seven": 7, "eight": 8, "nine": 9}
_FRACTION_DENOMINATORS = {"third": 3, "quarter": 4, "fourth": 4, "fifth": 5, "sixth": 6,
                          "eighth": 8, "tenth": 10}
_FRACTION_DENOMINATORS.update({f"{word}s": n for word, n in list(_FRACTION_DENOMINATORS.items())})
_FRACTION = re.compile(
    rf"(?<![\w\u2010-])(({'|'.join(_FRACTION_NUMERATORS)})[ \t\u00a0\-\u2010]+"
    rf"({'|'.join(sorted(_FRACTION_DENOMINATORS, key=len, reverse=True))}))"
    r"(?=[ \t\u00a0]+(?P<of>of)(?![\w-])|[ \t\u00a0\-\u2010]+(?P<off>off|price)(?![\w-])"
    r"|(?![\w\u2010-]))")
# After a fraction, the point it is a fraction of: "by a quarter point", "by a quarter of a
# percentage point" (a move of a rate, ``rulekit.sweep``'s point moves).
_POINT_AFTER = re.compile(r"[ \t\u00a0\-\u2010]+(?:of[ \t\u00a0]+a[ \t\u00a0]+)?"
                          r"(?:percentage[ \t\u00a0\-\u2010]+)?points?(?![\w-])")
_FRACTION_TOKENS = frozenset(word.encode() for word in _FRACTION_DENOMINATORS) | frozenset(
    f"{a}-{b}".encode() for a in _FRACTION_NUMERATORS for b in _FRACTION_DENOMINATORS)
_FRACTION_WORD = re.compile("third|quarter|fourth|fifth|sixth|eighth|tenth")
# After "a million": the thanks it multiplies ("a million thanks", "a thousand apologies").
_EN_HYPERBOLE_AFTER = frozenset(("thanks", "apologies", "kisses", "hugs"))
_EN_HYPERBOLE_BEFORE = frozenset(("thanks", "thank"))
_GOLF_HALVES = frozenset(("front", "back"))
# "4 of 9 from three", "went 3-for-7 from three,": the three-point line in basketball, not a
# number, after "from" at the end of a clause or before a comma, right after a count of shots
# ("N of M", "N-for-M" with digits or number words, "41%", "41 percent"), or in a clause that
# says shooting (shooting, shot, threes, 3-pointers, from the field or the line, FG, 3PT).
# "grew to five from three", "12%, up from 3" and "4 of 9 lessons, up from 3" keep their
# number: after a change word ("up from", "rose to 9 from") it is always one.
_SHOT_RIGHT_BEFORE = re.compile(r"(?:(?<![0-9a-z])(?P<n>[0-9]+|[a-z]+)[ -](?:of|for)[ -]"
                                r"(?P<m>[0-9]+|[a-z]+)|[0-9.]+[ ]?(?:%|percent))[ ]from[ ]\Z")
_SHOT_WORDS = re.compile(r"(?<![a-z])(?:shooting|shot|shots|threes|(?:3|three)-?pointers?|fg|"
                         r"3pt|3pm|3pa|from the (?:field|line|floor|arc))(?![a-z])")
_SHOT_CHANGED = frozenset("up down rose risen grew fell dropped climbed jumped increased "
                          "decreased improved declined slipped".split())
_CLAUSE_END = frozenset(".,;:!?)")
_HYPHENS = ("-", "\u2010")
_GAP_AFTER = re.compile(r"[ \t\u00a0]+")
_CENT = Decimal("0.01")
# "a baker's dozen" (13), read back from "dozen"; "a score of people" (20), not "a score of 85"
_BAKERS = re.compile(r"(?:(?<![\w\u2010-])an?[ \t\u00a0]+)?baker(?:'|\u2019)?s[ \t\u00a0]+$")
_A_SCORE = re.compile(r"(?<![\w\u2010-])(a[ \t\u00a0]+score)[ \t\u00a0]+of(?![\w-])")


# Roman numerals in Latin capitals, read only right before a currency word or a word of stock
# ("It costs D dollars", "We have XII left"): elsewhere they are names, pronouns and initials
# ("World War II", "I left", "CD", "Louis XIV"). A lone "I" is never read.
_ROMAN_AFTER = re.compile(r"[ \u00a0](?:(?P<cur>dollars?|bucks|euros?|pounds)|left|remaining|"
                          r"in[ \u00a0]stock)(?![\w-])")
# The words ``_ROMAN_AFTER`` ends with, each a whole token where it matches (a space before, no
# [\w-] after): in an ASCII text one set test on ``ascii_tokens`` tells whether it can match.
# ("stock" only after "in ": a substring test then)
_ROMAN_TOKENS = frozenset(b"dollar dollars bucks euro euros pounds left remaining".split())
_ROMAN = re.compile(r"(?=[MDCLXVI])M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})\Z")
_ROMAN_VALUES = {"M": 1000, "D": 500, "C": 100, "L": 50, "X": 10, "V": 5, "I": 1}


def _roman_value(token: str) -> int:
    values = [_ROMAN_VALUES[char] for char in token]
    return sum(-v if v < w else v for v, w in zip(values, values[1:] + [0]))


def _after_a_name(text: str, s: int) -> bool:
    """Whether a capitalised word inside its sentence stands right before ``s`` ("World War
    II", "Louis XIV"): the numeral is part of a name."""
    end = s - 1
    if end <= 0 or text[end] != " ":
        return False
    start = end
    while start > 0 and text[start - 1].isalpha():
        start -= 1
    if start == end or not text[start].isupper():
        return False
    before = text[:start].rstrip(" ")
    return bool(before) and before[-1] not in ".!?:;\n(\"*"


class _Words:
    """Number words and multiples; a part of ``_Scanner``."""

    def roman(self) -> None:
        """A Roman numeral in capitals before a currency word or a word of stock (see
        ``_ROMAN_AFTER``): "D dollars" is 500 dollars, "XII left" 12."""
        text = self.text
        for match in _ROMAN_AFTER.finditer(self.low):
            e = s = match.start()
            while s > 0 and e - s < 16 and text[s - 1] in _ROMAN_VALUES:
                s -= 1
            token = text[s:e]
            if not token or token == "I" or (s and (text[s - 1].isalnum() or text[s - 1] in "_-'.")) \
                    or not _ROMAN.match(token) or not self.free(s, match.end()) \
                    or _after_a_name(text, s):
                continue
            hit = _Hit("number", s, e, Decimal(_roman_value(token)))
            hit.token = token
            if match.group("cur"):
                word = _CURRENCY_WORDS[match.group("cur")]
                hit.currency, hit.e = _currency_for(word, self.info.locale), match.end()
            self.claim(hit)

    def words(self) -> None:
        low = self.low
        if (not _ROMAN_TOKENS.isdisjoint(self.ascii_tokens()) or "in stock" in low
                if self.ascii else (
                "left" in low or "dollar" in low or "remaining" in low
                or "in stock" in low or "bucks" in low or "euro" in low
                or "pounds" in low)):   # the words of _ROMAN_AFTER, in C
            self.roman()
        if self.info.language in _ROLES:
            self.european()         # fr, es, it, pt, nl: before the English words
        elif self.info.language == "ko":
            self.role_multiples("ko")
        # Shares written as fractions ("a quarter of", "two thirds of"): before the number
        # words, which would read "two" alone. Every one holds a token of _FRACTION_TOKENS.
        if (not _FRACTION_TOKENS.isdisjoint(self.ascii_tokens()) if self.ascii
                else _FRACTION_WORD.search(low)):
            for match in _FRACTION.finditer(low):
                s, e = match.span(1)
                before = _word_before(low, s)
                if not match.group("of") and not match.group("off") \
                        and before not in _SAVE_PREV and before != "by":
                    continue    # "by a third" ("up by a third"): a share, as "by half" is
                if before == "by" and "point" in low and _POINT_AFTER.match(low, e):
                    continue    # "cut by a quarter point": 25 basis points (the sweep's)
                if self.free(s, e):
                    numerator = _FRACTION_NUMERATORS[match.group(2)]
                    denominator = _FRACTION_DENOMINATORS[match.group(3)]
                    hit = self.claim(_Hit("word_number", s, e,
                                          Decimal(numerator) / Decimal(denominator)))
                    if not match.group("of"):
                        _share_off(hit)
        # ("-" before "th-": a search for one character, memchr, costs a
        # twentieth of one for two or more)
        if "first" in low or "second" in low or "-" in low and "th-" in low or "th\u2010" in low:
            self.rank_words()
        if "and a half" in low or "and a quarter" in low:
            self.digits_and_a_part()            # "13 and a half days": 13.5
        if "time and a" in low:
            for match in _TIME_AND_A.finditer(low):     # overtime's "time and a half"
                if self.free(*match.span()):
                    self.claim(_Hit("multiple", *match.span(),
                                    _HALF_MORE if match[1] == "half" else _QUARTER_MORE))
        # A multiple word, and the first word of a span of number words, is a whole token, a
        # run of [\w‐-] (the guard before it; a space, or the end of the pattern, after it). An
        # ASCII text none of whose tokens is such a word holds neither: splitting in C is
        # cheaper than trying the tries at every letter.
        if self.ascii and _WORD_BYTES.isdisjoint(self.ascii_tokens()) and (
                "-" not in low or _WORD_BYTES.isdisjoint(_hyphen_heads(self.tokens))) \
                and b"score" not in self.tokens:
            return
        # Every multiple word holds one of _MULTIPLE_STEMS: a few substring tests (C, no regex)
        # skip that pass in most other answers.
        if any(stem in low for stem in _MULTIPLE_STEMS):
            for match in _EN_MULTIPLE.finditer(low):
                s, e = match.span()
                if self.free(s, e):
                    self.multiple_word(s, e, match.group())
        for match in _EN_SPAN.finditer(low):
            if self.free(*match.span()):
                self.english(match)
        if "score" in low:
            for match in _A_SCORE.finditer(low):
                word = _word_after(low, match.end())
                if word.isalpha() and word not in _EN_NUMBER_WORDS and self.free(*match.span(1)):
                    self.claim(_Hit("word_number", *match.span(1), Decimal(20)))

    def digits_and_a_part(self) -> None:
        """A whole number in digits, then "and a half" or "and a quarter" ("13 and a half
        days"): one number, 13.5, as "thirteen and a half" is; the digits' hit takes the words."""
        by_start = None
        for match in _DIGITS_AND_A.finditer(self.low):
            if by_start is None:
                by_start = {hit.s: hit for hit in self.hits if hit.kind == "number"}
            hit = by_start.get(match.start())
            if hit is None or hit.e != match.end(1) or hit.decimals or hit.value is None \
                    or hit.percent or hit.scaled or hit.glued or not self.free(hit.e, match.end()):
                continue
            hit.value += _HALF if match[2] == "half" else _QUARTER
            s, e = match.end(1), match.end()
            hit.e = hit.core_e = e
            self.mask[s:e] = bytes((_CLAIMED,)) * (e - s)

    def ascii_tokens(self) -> frozenset[bytes]:
        """The tokens of an ASCII text (runs of letters, digits, "_" and "-"), lower-cased;
        computed once per scan."""
        if self.tokens is None:
            self.tokens = frozenset(self.low.encode("ascii").translate(_NOT_WORD).split())
        return self.tokens

    def rank_words(self) -> None:
        """"took second place", "the second-best post", "ranked first", "came in third",
        "fifth-ranked": ordinals as ranks (see ``_RANK_ORDINAL``)."""
        low = self.low
        for match in _RANK_ORDINAL.finditer(low):
            s, e = match.span()
            word = match.group()
            hyphen = low[e:e + 1] in _HYPHENS
            if _RANK_NEXT.match(low, e):
                if not hyphen and _word_before(low, s) in _RANK_NOT_AFTER:
                    continue                # "for a second most people left"
            elif hyphen or word not in ("first", "second"):
                continue                    # third-party; "third" alone is read as any ordinal
            else:
                before = low[max(0, s - 24):s].split()[-2:]
                if not before or not (before[-1] in _RANK_AFTER or (
                        before[-1] == "in" and len(before) == 2 and before[0] in _RANK_AFTER_IN)
                        or self.rank_at_end(s, e)):
                    continue
            if self.free(s, e):
                hit = _Hit("word_number", s, e, Decimal(_RANK_ORDINALS[word]))
                hit.ordinal = True
                self.claim(hit)

    def rank_at_end(self, s: int, e: int) -> bool:
        """Whether the ordinal at [s, e) ends its clause after a verb of finishing and up to
        three words ("finished the race first", "came in a close second"; not "came back in a
        second")."""
        low = self.low
        if e < len(low) and low[e] not in _CLAUSE_END:
            return False
        words = low[max(0, s - 48):s].split()[-4:]
        if not words or words[-1] in _RANK_NOT_AFTER:
            return False
        for word in reversed(words):
            if word in _RANK_VERBS:
                return True
            if not word.isalpha():
                return False            # punctuation: another clause
        return False

    def multiple_word(self, s: int, e: int, word: str) -> None:
        low = self.low
        factor = _MULTIPLE_FACTORS[word]
        if word != "half" and word.startswith("half"):
            if word.endswith("hour"):
                self.claim(_Hit("word_number", s, s + 4, factor))     # a half-hour: 0.5
                return
            self.claim(_share_off(_Hit("word_number", s, s + 4, factor)))     # half-price
            return
        if word == "half":
            found = _HALF_AS.match(low, e)
            if found:
                self.claim(_Hit("multiple", s, found.end(), factor))
                return
            if low.startswith((" a ", " an "), e) and _EN_SPAN.match(low, low.index(" ", e + 1) + 1):
                return                      # half a dozen: a number word
            prev = _word_before(low, s)
            if low.startswith("and a ", max(0, s - 6)):
                hour = _AN_HOUR_AND_A.search(low, max(0, s - 24), s)
                if hour is not None:    # "an hour and a half": 1.5 hours, 90 minutes
                    self.claim(_Hit("word_number", hour.start(), e, Decimal("1.5")))
                return
            if prev in _HALF_NOT_PREV:
                return
            if prev in _SAVE_PREV or _word_after(low, e) in _OFF_NEXT:
                self.claim(_share_off(_Hit("word_number", s, e, factor)))     # half off
                return
            if _word_after(low, e) in _HALF_NEXT or prev in _HALF_PREV \
                    or _word_after(low, e) == "hour":     # "a half hour": 0.5 hours
                self.claim(_Hit("word_number", s, e, factor))
            return
        if word in ("double", "triple") and low.startswith(" time", e) \
                and not low[e + 5:e + 6].isalnum():
            self.claim(_Hit("multiple", s, e + 5, factor))     # overtime's "double time"
            return
        if word in ("double", "triple", "quadruple") and not self.comparing(s, e):
            return
        self.claim(_Hit("multiple", s, e, factor))

    def comparing(self, s: int, e: int) -> bool:
        """Whether "double"/"triple" at [s, e) compares (see the module docstring)."""
        low = self.low
        if low[e:e + 1] in ("-", "\u2010"):
            return False
        if _word_after(low, e) in _DOUBLE_NEXT or _word_before(low, s) in _DOUBLE_PREV:
            return True
        rest = low[e:e + 2].lstrip(" ")
        return not rest or rest[0] in ".,;:!?)"

    def english(self, match: re.Match) -> None:
        low = self.low
        base = match.start()
        tokens = [(m.group(), base + m.start(), base + m.end())
                  for m in _EN_TOKEN.finditer(match.group())]
        if low[match.end():match.end() + 1] in _HYPHENS or len(tokens) > 1:
            chain = _HYPHEN_CHAIN.match(low, base)
            if chain and chain.group().replace("\u2010", "-").startswith(_HYPHEN_IDIOMS):
                return                  # "fifty-fifty", "twenty-four-seven": not amounts
        if tokens[0][0] == "nine" and len(tokens) == 1 and _word_before(low, base) in _GOLF_HALVES:
            return                      # "the front nine", "the back nine": halves of a round
        if tokens[0][0] == "three" and len(tokens) == 1 and _word_before(low, base) == "from" \
                and self.from_three(base, tokens[0][2]):
            return                      # "4 of 9 from three": the three-point line
        # "a baker's dozen" is 13
        if tokens[0][0] == "dozen" and base:
            found = _BAKERS.search(low, max(0, base - 16), base)
            if found:
                if self.free(found.start(), tokens[0][2]):
                    self.claim(_Hit("word_number", found.start(), tokens[0][2], Decimal(13)))
                del tokens[0]
                if not tokens:
                    return
                base = tokens[0][1]
        # "a dozen", "a hundred", "half a dozen": the article before the span
        if tokens[0][0] in _DOZEN_HUNDRED_SCALES or tokens[0][0] in _EN_ORDINALS:
            found = _ARTICLE_BEFORE.match(low[max(0, base - 9):base][::-1])
            if found:
                at = base - found.end()
                tokens[:0] = [(m.group(), m.start(), m.end())
                              for m in _EN_TOKEN.finditer(low, at, base)]
                if len(tokens) == 2 and tokens[0][0] in ("a", "an") \
                        and self.hyperbole(tokens[0][1], tokens[1][2]):
                    return          # "thanks a million", "one in a million", "a million thanks"
        i = 0
        while i < len(tokens):
            read = _read_english(tokens, i)
            if read is None:
                i += 1
                continue
            j, value, flags = read
            s, e = tokens[i][1], tokens[j - 1][2]
            i = j
            cents = None
            if low[e:e + 1] in _HYPHENS:
                if j < len(tokens):
                    # "fifty-nine-ninety-nine": a price said as dollars-cents, 59.99
                    cents = _cents(tokens, j, value, flags)
                    if cents is not None:
                        e, i = tokens[j][2], j + 1
                elif flags.get("ordinal") or not value or _not_after_hyphen(
                        _HYPHEN_WORD.match(low, e).group(1)):
                    continue            # "third-party", "zero-waste", "two-thirds"
            # "ranked number one", "our number one reason": a rank, like "#1"
            number_one = bool(flags.get("lone_one")) and _word_before(low, s) == "number"
            if flags.get("fraction") or (flags.get("lone_one") and cents is None
                                         and not number_one and not self.one_is_number(s, e)):
                continue
            hit = _Hit("word_number", s, e, value)
            if cents is not None:
                hit.value, hit.decimals = (value + cents).quantize(_CENT), 2
            hit.ordinal = bool(flags.get("ordinal")) or number_one
            if flags.get("scale"):
                hit.scaled, hit.scale = True, flags["scale"]
            found = _WORD_SUFFIX.match(self.text, e)
            if found:
                if found.group("pct"):
                    hit.percent = True
                elif found.group("times"):
                    hit.kind = "multiple"
                else:
                    word = _CURRENCY_WORDS[found.group("curw").lower()]
                    hit.currency = _currency_for(word, self.info.locale)
                hit.e = found.end()
                if hit.currency is not None and cents is None and not hit.scaled \
                        and value == value.to_integral_value():
                    self.spoken_cents(hit)
            if self.free(hit.s, hit.e):
                self.claim(hit)

    def from_three(self, s: int, e: int) -> bool:
        """Whether "three" or "3" at [s, e), after "from", is the three-point line: at the end
        of a clause, right after a count of shots (``_SHOT_RIGHT_BEFORE``) or in a clause of at
        most 64 characters before it that says shooting (``_SHOT_WORDS``); never after a change
        word (``_SHOT_CHANGED``: "up from 3", "rose to 9 from 3")."""
        low = self.low
        if e < len(low) and low[e] not in _CLAUSE_END:
            return False
        window = low[max(0, s - 64):s]
        clause = window[max(window.rfind(end) for end in (". ", "; ", "! ", "? ", "\n")) + 1:]
        words = clause.split()
        if len(words) >= 2 and (words[-2].strip(_CONTEXT_STRIP) in _SHOT_CHANGED or any(
                word.strip(_CONTEXT_STRIP) in _SHOT_CHANGED for word in words[-5:-2])
                and "to" in words[-5:-2]):
            return False                    # "up from 3", "rose to 9 from 3": a number
        found = _SHOT_RIGHT_BEFORE.search(clause)
        if found is not None and (found.group("n") is None or all(
                word.isdigit() or word in _EN_NUMBER_WORDS for word in found.group("n", "m"))):
            return True                     # "4 of 9 from 3", "3-for-7 from 3", "41% from 3"
        return _SHOT_WORDS.search(clause) is not None   # "shooting", "threes", "from the field"

    def spoken_cents(self, hit: _Hit) -> None:
        """The cents said after an amount and its currency word without "and": "fifty-nine
        pounds ninety-nine", "forty-nine dollars ninety-nine cents" are one amount, 59.99 and
        49.99 (with "and", ``cents`` merges them). Only a number word from ten to ninety-nine,
        not before a hyphen nor a noun it counts ("twenty dollars fifteen minutes ago")."""
        low = self.low
        gap = _GAP_AFTER.match(low, hit.e)
        span = _EN_SPAN.match(low, gap.end()) if gap else None
        if span is None or low[span.end():span.end() + 1] in _HYPHENS:
            return
        tokens = [(m.group(), span.start() + m.start(), span.start() + m.end())
                  for m in _EN_TOKEN.finditer(span.group())]
        read = _read_english(tokens, 0)
        if read is None or read[0] != len(tokens) or read[2] or not 10 <= read[1] <= 99:
            return
        end = span.end()
        tail = _CENTS_AFTER.match(low, end)
        if tail is not None:
            end = tail.end()
        elif _word_after(low, end).rstrip("s") in ONE_NOUNS:
            return
        if self.free(hit.e, end):
            hit.value, hit.decimals, hit.e = (hit.value + read[1] / 100).quantize(_CENT), 2, end

    def hyperbole(self, s: int, e: int) -> bool:
        """Whether "a hundred", "a thousand", "a million" at [s, e) is hyperbole, not an amount:
        "thanks a million", "one in a million", "a million thanks" (like "mille fois merci" in
        French; "a million times" stays a count)."""
        low = self.low
        if _word_after(low, e) in _EN_HYPERBOLE_AFTER:
            return True
        before = _word_before(low, s)
        if before in _EN_HYPERBOLE_BEFORE:
            return True
        return before == "in" and _word_before(low, low.rfind("in", 0, s)) in ("one", "chance")

    def one_is_number(self, s: int, e: int) -> bool:
        low = self.low
        if low[e:e + 1] in _HYPHENS:
            # "a one-year warranty", "one-day shipping" whatever stands before; not "one-off",
            # "one-time", "one-click"
            word = _HYPHEN_WORD.match(low, e).group(1)
            return (word in ONE_NOUNS or word == "day") and word not in _ONE_HYPHEN_IDIOMS
        before = _word_before(low, s)
        if before in _PRONOUN_BEFORE:
            # "the only one", "my only one" are pronouns; "only one post" is the number 1
            if before != "only" or _word_before(low, low.rfind("only", 0, s)) in _ONLY_PRONOUN:
                return False
        nxt = _word_after(low, e)
        said = _ONE_PERSON.match(low, e)
        if said is not None and said.group("verb") in _ONE_SAID and before not in ("only", "just") \
                and not _ONE_COUNTED_AFTER.match(low, said.end()):
            return False                # "One customer said it was great."
        if nxt.rstrip("s") in ONE_NOUNS or low[e:e + 1] == "%" or nxt in _ONE_LEFT:
            return True
        if _ONE_DAY.match(low, e):
            # "one business day" always; "one day" after "in", "within", "only"... (not the
            # "one day" of "one day we will")
            return nxt not in ("day", "days") or before in _ONE_DAY_BEFORE
        if nxt in ("of", "in", "out", "to"):
            rest = low[e:e + 24].split()
            rest = rest[2:] if rest[:2] == ["out", "of"] else rest[1:]
            if rest:
                word = rest[0].strip(_CONTEXT_STRIP)
                return word[:1].isdigit() or word in _EN_NUMBER_WORDS \
                    or nxt == "in" and word == "stock"      # "only one in stock"
        return False

    def german(self) -> None:
        text = self.text
        for match in _DE_WORD.finditer(self.low):
            s, e = match.span()
            if not self.free(s, e):
                continue
            word = match.group()
            value = _de_value(word)
            if value is None and word.endswith(("halb", "halbe")):
                value = _de_half(word)              # zweieinhalb, anderthalb
            found = _DE_SCALE.match(text, e)
            scale_word = found.group(1).lower().replace("\u0307", "") if found else ""  # mİllionen
            if value is None:
                if word in _DE_ARTICLES and scale_word:
                    value = 1                       # eine Million, ein Dutzend
                elif word.endswith("mal") and _de_value(word[:-3]):
                    found = _DE_TIMES.match(self.low, e)        # dreimal so hoch
                    if found:
                        self.claim(_Hit("multiple", s, e, Decimal(_de_value(word[:-3]))))
                    elif _DE_TIMES_STOCK.match(self.low, e):    # noch fünfmal vorrätig: 5
                        self.claim(_Hit("word_number", s, e, Decimal(_de_value(word[:-3]))))
                    continue
                else:
                    continue
            elif value in (100, 1000) and word in ("hundert", "tausend") and not scale_word \
                    and not self.lone_word(s, e, word, "k", "de"):
                continue                            # tausend Dank
            hit = _Hit("word_number", s, e, Decimal(value))
            if scale_word == "dutzend":
                hit.value *= 12
                hit.e = found.end()
            elif scale_word:
                scale = _SCALES.get({"mio": "Mio", "mrd": "Mrd"}.get(scale_word, scale_word))
                if scale is not None:
                    hit.value *= scale
                    hit.scaled, hit.scale, hit.e = True, scale, found.end()
                    found = _DE_REST.match(self.low, hit.e)
                    rest = _de_value(found.group(1)) if found else None
                    if rest is not None and rest < scale and self.free(hit.e, found.end()):
                        # zwei Millionen vierhunderttausend: one number, written out exactly
                        hit.value += rest
                        hit.scaled, hit.scale, hit.e = False, 1, found.end()
            found = _WORD_SUFFIX.match(text, hit.e)
            if found and found.group("pct"):
                hit.percent, hit.e = True, found.end()
            else:
                found = _ROLE_AFTER["de"].match(self.low, hit.e)
                if found:
                    hit.kind, hit.e = "multiple", found.end()      # drei mal so hoch
            self.claim(hit)
        self.role_multiples("de")

    def european(self) -> None:
        """French, Spanish, Italian, Portuguese and Dutch number words (``_ROLE_WORDS``), then
        the multiples of the language (``role_multiples``)."""
        language = self.info.language
        low = self.low
        if language == "nl" and "ten" in low:
            for match in _NL_TEN.finditer(low):     # ten minste, ten slotte: not 10 (English)
                self.mask[match.start():match.end()] = bytes((_IDIOM,)) * 3
        elif language == "fr" and ("cent pour" in low or "deux pas" in low
                                   or "deux doigts" in low):
            for match in _FR_IDIOM.finditer(low):   # cent pour cent, à deux pas: not numbers
                self.mask[match.start():match.end()] = bytes((_IDIOM,)) * (match.end()
                                                                           - match.start())
        roles, stems = _ROLES[language], _ROLE_STEMS[language]
        glued, longest = _GLUED_PARTS.get(language), _GLUED_LONGEST.get(language, 0)
        # Chains of number words joined by a space or a hyphen; each part is (value, role,
        # start, end, word, first part of its word, last part of its word).
        chains: list[list[tuple]] = []
        chain: list[tuple] = []
        for match in _LETTER_RUN.finditer(low):
            word = match.group()
            if word[:3] not in stems:
                continue
            s, e = match.span()
            if low[s - 1:s].isdigit() or low[e:e + 1].isdigit():
                continue                                # 5dix, dix5: glued to digits
            part = roles.get(word)
            if part is not None:
                parts = [part]
            elif glued is not None and len(word) <= 60:
                parts = _split_glued(word, glued, longest)
                if parts is None:
                    continue
            else:
                continue
            if chain and not _GAP.fullmatch(low, chain[-1][3], s):
                chains.append(chain)
                chain = []
            last = len(parts) - 1
            chain.extend((value, role, s, e, word, at == 0, at == last)
                         for at, (value, role) in enumerate(parts))
        if chain:
            chains.append(chain)
        numbers: dict[int, _Hit] | None = None
        for chain in chains:
            i = 0
            while i < len(chain):
                first = chain[i]
                read = _read_parts(chain, i, language) if first[5] else None
                gap = first[2]
                while gap and low[gap - 1] in " \u00a0":
                    gap -= 1
                if gap < first[2] and low[gap - 1:gap].isdigit() and first[1] != "n":
                    # after digits a hundred, a thousand or a scale is theirs: "99 cents"
                    # (cents, read by ``cents``), "5 mil", "3 milioni" (a scale); a unit or a
                    # ten is a number of its own ("96 quarante": probe fuzz f1)
                    if first[1] in ("k", "m") and first[5] and first[6]:
                        if numbers is None:     # the plain numbers by their end, built once
                            numbers = {hit.e: hit for hit in self.hits if hit.kind == "number"}
                        self.scale_digits(numbers.get(gap), first[3], first[0])
                    i += 1
                    continue
                if read is None:
                    i += 1
                    continue
                start, (i, value, scale) = i, read
                final = chain[i - 1]
                if not final[6]:
                    continue                # stops inside a word: not a number written so
                if language == "fr" and first[1] == "a" and chain[start + 1][1] == "h":
                    continue                # un cent: a coin (fr_CA), not 100
                if i - start == 1 and not self.lone_word(first[2], first[3], first[4],
                                                         first[1], language):
                    continue
                self.role_hit(first[2], final[3], value, scale, language)
        self.role_multiples(language)

    def scale_digits(self, hit: _Hit | None, e: int, scale: int) -> None:
        """Scale the plain number ``hit`` by the scale word that ends at e ("5 mil", "3
        milioni"), with a currency word after it ("5 mil euros")."""
        if hit is None or hit.value is None or hit.scaled or hit.percent or hit.glued \
                or not self.free(hit.e, e):
            return
        s = hit.e
        hit.value *= scale
        hit.scaled, hit.scale, hit.e = True, scale, e
        found = _WORD_SUFFIX.match(self.text, e)
        if found and found.group("curw") and hit.currency is None:
            word = _CURRENCY_WORDS[found.group("curw").lower()]
            hit.currency, hit.e = _currency_for(word, self.info.locale), found.end()
        self.mask[s:hit.e] = bytes((_CLAIMED,)) * (hit.e - s)

    def lone_word(self, s: int, e: int, word: str, role: str, language: str) -> bool:
        """Whether one number word alone at [s, e) is a number: not a hundred or a thousand
        said as hyperbole ("mille fois merci", "grazie mille", "tausend Dank"), French "neuf"
        meaning new, Italian "sei" meaning "you are"."""
        low = self.low
        if role in ("h", "k"):
            return _word_after(low, e) not in _HYPERBOLE_NEXT[language] \
                and _word_before(low, s) not in _HYPERBOLE_BEFORE[language]
        if word == "neuf" and language == "fr":
            before, after = _word_before(low, s), _word_after(low, e)
            if before == "de":                                  # quoi de neuf, rien de neuf
                return _word_before(low, low.rfind("de", 0, s)) not in ("quoi", "rien")
            return before not in _NEUF_NEW_BEFORE and (
                before not in _NEUF_NEW_VERB
                or after[:1].isalpha() and after not in _NEUF_CLAUSE_NEXT)
        if word == "acht" and language == "nl":
            return _word_before(low, s) != "in"                 # in acht nemen
        if word == "sei" and language == "it":
            return _word_before(low, s) not in _SEI_VERB_BEFORE \
                and _word_after(low, e) not in _SEI_VERB_AFTER
        return True

    def role_hit(self, s: int, e: int, value: int, scale: int, language: str) -> None:
        """Claim the number word at [s, e) with what is written after it: per cent, "N times"
        before a comparative (a multiple), a currency word."""
        hit = _Hit("word_number", s, e, Decimal(value))
        if scale > 1:
            hit.scaled, hit.scale = True, scale
        found = _ROLE_AFTER[language].match(self.low, e)
        if found:
            if found.group("pct"):
                hit.percent = True
            else:
                hit.kind = "multiple"
            hit.e = found.end()
        else:
            found = _WORD_SUFFIX.match(self.text, e)
            if found and found.group("pct"):
                hit.percent, hit.e = True, found.end()
            elif found and found.group("curw"):
                word = _CURRENCY_WORDS[found.group("curw").lower()]
                hit.currency, hit.e = _currency_for(word, self.info.locale), found.end()
        if self.free(hit.s, hit.e):
            self.claim(hit)

    def role_multiples(self, language: str) -> None:
        """Multiples written as words ("doublé", "el doble", "verdubbeld", "doppelt so"; a
        share such as "la moitié" is a word_number 0.5), and digits before "fois plus", "-mal
        so", "veces más", "keer zo", 배: the multiple N, as English "3 times higher"; a change
        by a fraction ("um ein Drittel", "d'un tiers": ``_ROLE_FRACTION_CHANGE``)."""
        low = self.low
        fraction = _ROLE_FRACTION_CHANGE.get(language)
        if fraction is not None and any(word in low for word in fraction[0]):
            for match in fraction[1].finditer(low):
                s, e = match.span(1)
                if self.free(s, e):
                    self.claim(_share_off(_Hit("word_number", s, e, Decimal(1) / Decimal(
                        _FRACTION_PARTS[match.group(3)]))))
        if language in _ROLE_MULTIPLE:
            factors = _ROLE_FACTORS[language]
            for match in _ROLE_MULTIPLE[language].finditer(low):
                s, e = match.span()
                if not self.free(s, e):
                    continue
                word = match.group()
                if word in _ROLE_FRACTION_SHARES.get(language, ()) \
                        and not _ROLE_SHARE_OF[language].match(low, e):
                    continue                    # ein Viertel nach drei, un quart d'heure
                hit = _Hit("multiple", s, e, factors[word])
                if word in _ROLE_SHARES:
                    hit.kind = "word_number"
                    found = _SHARE_PRICE.match(low, e)
                    if found:                   # la mitad del precio: a discount, 50 %
                        _share_off(hit)
                        hit.e = found.end()
                self.claim(hit)
        times = _DIGIT_TIMES.get(language)
        if times is None:
            return
        for hit in self.hits:
            if hit.kind != "number" or hit.value is None or hit.percent \
                    or hit.currency is not None or hit.scaled:
                continue
            found = times.match(low, hit.e)
            if found and self.free(hit.e, found.end()):
                hit.kind, hit.glued, hit.token, hit.token_span = "multiple", False, "", None
                hit.e = found.end()
                self.mask[hit.s:hit.e] = bytes((_CLAIMED,)) * (hit.e - hit.s)


# A change by a fraction in German, French, Spanish, Italian, Portuguese and Dutch, as English
# "by a third" (probe fuzz f12): "stiegen um ein Drittel", "augmenté d'un tiers", "creció en un
# tercio", "aumentato di un terzo", "cresceu em um terço", "gestegen met een derde": the
# percentage (33.3...). Spanish and Portuguese "un cuarto", "um quarto" are also a room: not
# read. (The words that must occur, then the pattern; group 1 the fraction, 3 its part.)
_FRACTION_PARTS = {"drittel": 3, "viertel": 4, "fünftel": 5, "zehntel": 10, "tiers": 3,
                   "quart": 4, "cinquième": 5, "dixième": 10, "tercio": 3, "terzo": 3,
                   "quarto": 4, "quinto": 5, "terço": 3, "derde": 3, "kwart": 4, "vijfde": 5}


def _fraction_change(words: str, before: str, article: str) -> tuple[tuple[str, ...], re.Pattern]:
    return tuple(words.split("|")), re.compile(
        rf"(?<![\w]){before}(({article})[ \u00a0]+({words}))(?![\w])"
        r"(?![ \u00a0]d['\u2019]heure)")            # "moins d'un quart d'heure": a time


_ROLE_FRACTION_CHANGE = {
    "de": _fraction_change("drittel|viertel|fünftel|zehntel", "um[ \u00a0]+", "einen|ein"),
    "fr": _fraction_change("tiers|quart|cinquième|dixième", "d['\u2019][ \u00a0]?", "un"),
    "es": _fraction_change("tercio", "en[ \u00a0]+", "un"),
    "it": _fraction_change("terzo|quarto|quinto", "di[ \u00a0]+", "un"),
    "pt": _fraction_change("terço", "em[ \u00a0]+", "um"),
    "nl": _fraction_change("derde|kwart|vijfde", "met[ \u00a0]+", "een"),
}

_DE_UNITS = {"ein": 1, "eins": 1, "zwei": 2, "drei": 3, "vier": 4, "fünf": 5, "sechs": 6,
             "sieben": 7, "acht": 8, "neun": 9}
_DE_SMALL = {**_DE_UNITS, "zehn": 10, "elf": 11, "zwölf": 12, "dreizehn": 13, "vierzehn": 14,
             "fünfzehn": 15, "sechzehn": 16, "siebzehn": 17, "achtzehn": 18, "neunzehn": 19,
             "zwanzig": 20, "dreissig": 30, "vierzig": 40, "fünfzig": 50, "sechzig": 60,
             "siebzig": 70, "achtzig": 80, "neunzig": 90}


def _de_value(word: str) -> int | None:
    """A German number word of the basic kind: zwei, einundzwanzig, dreihundertfünf,
    zweitausendsechsundzwanzig. None for anything else, and for ein/eins (an article)."""
    word = word.replace("ß", "ss")
    if word.startswith("ein") and word in ("ein", "eine", "eins", "einer", "einen", "einem"):
        return None
    if "tausend" in word:
        left, _, right = word.partition("tausend")
        high = 1 if left in ("", "ein") else _de_below_thousand(left)   # eintausend
        low = _de_below_thousand(_de_und(right)) if right else 0
        return None if high is None or low is None else high * 1000 + low
    return _de_below_thousand(word)


def _de_half(word: str) -> Decimal | None:
    """A German whole number and a half in one word: zweieinhalb 2.5, dreiundeinhalb 3.5,
    eineinhalb and anderthalb 1.5 (maybe inflected: anderthalbe); None for anything else."""
    word = word.removesuffix("e")
    if word == "anderthalb":
        return Decimal("1.5")
    head = word.removesuffix("einhalb")
    if head == word or not head:
        return None
    head = head.removesuffix("und") or head
    whole = 1 if head == "ein" else _de_value(head)
    return None if whole is None else whole + _HALF


def _de_below_thousand(word: str) -> int | None:
    if "hundert" in word:
        left, _, right = word.partition("hundert")
        # einhundert, dreihundert, and the teens: dreizehnhundert, zwölfhundert (1300, 1200)
        high = _DE_SMALL.get(left) if left else 1
        if high is not None and high >= 20:
            high = None
        low = _de_below_hundred(_de_und(right)) if right else 0
        return None if high is None or low is None else high * 100 + low
    return _de_below_hundred(word)


def _de_und(word: str) -> str:
    """The part after hundert or tausend without the "und" that may join it
    (zweihundertundzwanzig, tausendundeins)."""
    return word[3:] if word.startswith("und") and len(word) > 3 else word


def _de_below_hundred(word: str) -> int | None:
    if word in _DE_SMALL and word != "ein":
        return _DE_SMALL[word]
    unit, _, tens = word.partition("und")
    if tens and unit in _DE_UNITS and unit != "eins" and _DE_SMALL.get(tens, 0) >= 20 \
            and _DE_SMALL[tens] % 10 == 0:
        return _DE_UNITS[unit] + _DE_SMALL[tens]
    return None


def _share_off(hit: _Hit) -> _Hit:
    """A discount written as a share ("half off", "a quarter off", "save a third") is the
    percentage it takes off: 50, 25, 33.3...; compared with a stored discount ("50%",
    ``discount_pct: 50``, ``discount_rate: 0.5``), never with a bare 0.5."""
    value = hit.value * 100
    hit.value = value.quantize(Decimal(1)) if value == value.to_integral_value() else value
    hit.percent = True
    return hit


def _hyphen_heads(tokens: frozenset[bytes]):
    """The first part of each hyphenated token, and the second after digits ("96-thirteen"):
    where a span of number words may start in it."""
    for token in tokens:
        if b"-" in token:
            head, _, rest = token.partition(b"-")
            yield head
            if head.isdigit():
                yield rest.partition(b"-")[0]


def _not_after_hyphen(word: str) -> bool:
    """Whether a number word before "-word" is not read: a fraction ("two-thirds", "one-half")
    or a verb or adjective made with it ("three-putted", "two-faced")."""
    return word in _NOT_AFTER_HYPHEN or len(word) > 4 and word.endswith("ed")   # not "two-bed"


def _cents(tokens: list[tuple[str, int, int]], j: int, value: Decimal, flags: dict):
    """The cents of "fifty-nine-ninety-nine" (dollars, a hyphen, cents): tokens[j], a number
    word from ten to ninety-nine joined by a hyphen to a whole number before it, as a
    Decimal (0.99); None when it is not that. A range or a time written so ("ten-twelve",
    "nine-fifteen") is read the same way: it then needs that price in the evidence."""
    if flags.get("ordinal") or flags.get("scale") or flags.get("fraction") or not value \
            or value != value.to_integral_value():
        return None
    read = _read_english(tokens, j)
    if read is None or read[0] != j + 1 or read[2] or not 10 <= read[1] <= 99:
        return None
    return read[1] / 100


def _read_english(tokens: list[tuple[str, int, int]], i: int):
    """Read one English number starting at tokens[i]: (end index, value, flags), or None when
    no number starts there. Flags: lone_one, ordinal, scale, fraction."""
    n = len(tokens)
    word = tokens[i][0]
    flags: dict = {}
    total = group = 0
    last = None
    last_scale = 10**15
    k = i
    half = Decimal(0)
    if word == "half":
        if k + 2 < n and tokens[k + 1][0] in ("a", "an") \
                and tokens[k + 2][0] in _DOZEN_HUNDRED_SCALES:
            unit = tokens[k + 2][0]
            whole = 12 if unit == "dozen" else 100 if unit == "hundred" else _EN_SCALES[unit]
            if unit in _EN_SCALES:
                flags["scale"] = whole
            return k + 3, Decimal(whole) / 2, flags
        return None
    if word in ("a", "an"):
        if k + 1 < n and tokens[k + 1][0] in _DOZEN_HUNDRED_SCALES:
            group, last, k = 1, "a", k + 1
        elif k + 1 < n and tokens[k + 1][0] in _EN_ORDINALS:
            return k + 2, Decimal(0), {"fraction": True}      # "a third": not read
        else:
            return None
    while k < n:
        word = tokens[k][0]
        if word in _EN_UNITS:
            if last in (None, "hundred", "scale", "and") or (last == "tens" and group % 10 == 0):
                group += _EN_UNITS[word]
                last = "unit"
            else:
                break
        elif word in _EN_TEENS or word in _EN_TENS or word in _EN_COMPOUNDS:
            if last not in (None, "hundred", "scale", "and"):
                break
            if word in _EN_COMPOUNDS:
                value, is_ordinal = _EN_COMPOUNDS[word]
                group += value
                last = "unit"
                if is_ordinal:
                    flags["ordinal"] = True
                    k += 1
                    break
            else:
                group += _EN_TEENS.get(word) or _EN_TENS[word]
                last = "teen" if word in _EN_TEENS else "tens"
        elif word == "hundred":
            if last in ("unit", "teen", "tens", "a") and 0 < group < 100:
                group *= 100
                last = "hundred"
            else:
                break
        elif word in _EN_SCALES:
            scale = _EN_SCALES[word]
            if last in ("unit", "teen", "tens", "hundred", "a") and scale < last_scale and group:
                total += group * scale
                group, last, last_scale = 0, "scale", scale
            else:
                break
        elif word == "dozen":
            if last in (None, "a", "unit", "teen", "tens"):
                group = (group or 1) * 12
                k += 1
                last = "dozen"
            break
        elif word in _EN_ORDINALS:
            if last in (None, "hundred", "scale", "and"):
                if last is None and i > 0 and tokens[i - 1][0] in ("a", "an", "one") \
                        and tokens[i - 1][2] + 3 >= tokens[i][1]:
                    return k + 1, Decimal(0), {"fraction": True}
                group += _EN_ORDINALS[word]
                flags["ordinal"] = True
                last = "ordinal"
                k += 1
            break
        elif word == "and":
            if k + 2 < n and tokens[k + 1][0] == "a" and tokens[k + 2][0] == "half" \
                    and last in ("unit", "teen", "tens", "hundred", "scale"):
                half = Decimal("0.5")
                k += 3
                if k < n and tokens[k][0] in _EN_SCALES and not total and last != "scale":
                    scale = _EN_SCALES[tokens[k][0]]
                    flags["scale"] = scale
                    return k + 1, (Decimal(group) + half) * scale, flags
                break
            if last in ("hundred", "scale") and k + 1 < n and (
                    tokens[k + 1][0] in _EN_UNITS or tokens[k + 1][0] in _EN_TEENS
                    or tokens[k + 1][0] in _EN_TENS or tokens[k + 1][0] in _EN_COMPOUNDS):
                last = "and"
            else:
                break
        else:
            break
        k += 1
    if last in (None, "a"):
        return None
    if last == "and":
        k -= 1
    if k == i + 1 and tokens[i][0] == "one":
        flags["lone_one"] = True
    if last == "scale" and group == 0:
        flags["scale"] = last_scale
    return k, Decimal(total + group) + half, flags


# --- French, Spanish, Italian, Portuguese and Dutch number words -------------------------------
# Read only in their own language (the locale's), like German. Each word has a value and a role:
#   "n"   a number below 100: douze, veintiuno, trentatré, eenentwintig
#   "a"   the article that is also 1 (un, une, uno, una, um, uma, een, één): never read alone;
#         a multiplier before a hundred, a thousand, a scale or a dozen ("un million"), and 1
#         after tens ("vingt et un", "vinte e um")
#   "h"   the hundred word (cent, cien, ciento, cento, cem, honderd): 100, or N x 100
#   "hs"  a word for whole hundreds (doscientos, duecento, duzentos): 200 ... 900
#   "k"   the thousand word (mille, mil, mila, duizend): 1000, or N x 1000
#   "m"   a scale (million, millón, milione, milhão, miljoen; milliard...): needs a number or
#         the article before it ("millions de vues" is not read)
#   "dz"  a dozen (douzaine, docena, dozzina, dúzia, dozijn): needs a number or the article
#   "j"   the word between the parts (et, y, e): "vingt et un", "treinta y dos", "mil e
#         trezentos"; read only between two parts that make one number
_ROLE_WORDS = {
    "fr": {"n": {"deux": 2, "trois": 3, "quatre": 4, "cinq": 5, "six": 6, "sept": 7, "huit": 8,
                 "neuf": 9, "dix": 10, "onze": 11, "douze": 12, "treize": 13, "quatorze": 14,
                 "quinze": 15, "seize": 16, "vingt": 20, "vingts": 20, "trente": 30,
                 "quarante": 40, "cinquante": 50, "soixante": 60, "septante": 70,
                 "octante": 80, "huitante": 80, "nonante": 90},
           "a": ("un", "une"), "h": ("cent", "cents"), "hs": {}, "k": ("mille",),
           "m": {"million": 10**6, "millions": 10**6, "milliard": 10**9, "milliards": 10**9},
           "dz": ("douzaine", "douzaines"), "j": ("et",)},
    "es": {"n": {"dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6, "siete": 7,
                 "ocho": 8, "nueve": 9, "diez": 10, "once": 11, "doce": 12, "trece": 13,
                 "catorce": 14, "quince": 15, "dieciséis": 16, "dieciseis": 16,
                 "diecisiete": 17, "dieciocho": 18, "diecinueve": 19, "veinte": 20,
                 "veintiuno": 21, "veintiún": 21, "veintiun": 21, "veintiuna": 21,
                 "veintidós": 22, "veintidos": 22, "veintitrés": 23, "veintitres": 23,
                 "veinticuatro": 24, "veinticinco": 25, "veintiséis": 26, "veintiseis": 26,
                 "veintisiete": 27, "veintiocho": 28, "veintinueve": 29, "treinta": 30,
                 "cuarenta": 40, "cincuenta": 50, "sesenta": 60, "setenta": 70,
                 "ochenta": 80, "noventa": 90},
           "a": ("un", "uno", "una"), "h": ("cien", "ciento"),
           "hs": {f"{stem}ient{end}": value * 100 for stem, value in
                  (("dosc", 2), ("tresc", 3), ("cuatroc", 4), ("seisc", 6), ("setec", 7),
                   ("ochoc", 8), ("novec", 9)) for end in ("os", "as")}
                 | {"quinientos": 500, "quinientas": 500},
           "k": ("mil",),
           "m": {"millón": 10**6, "millon": 10**6, "millones": 10**6, "millardo": 10**9,
                 "millardos": 10**9},
           "dz": ("docena", "docenas"), "j": ("y",)},
    "it": {"n": {"due": 2, "tre": 3, "quattro": 4, "cinque": 5, "sei": 6, "sette": 7,
                 "otto": 8, "nove": 9, "dieci": 10, "undici": 11, "dodici": 12, "tredici": 13,
                 "quattordici": 14, "quindici": 15, "sedici": 16, "diciassette": 17,
                 "diciotto": 18, "diciannove": 19},
           "a": ("un", "uno", "una"), "h": ("cento",),
           "hs": {f"{unit}cento": value * 100 for unit, value in
                  (("due", 2), ("tre", 3), ("quattro", 4), ("cinque", 5), ("sei", 6),
                   ("sette", 7), ("otto", 8), ("nove", 9))},
           "k": ("mille", "mila"),
           "m": {"milione": 10**6, "milioni": 10**6, "miliardo": 10**9, "miliardi": 10**9},
           "dz": ("dozzina", "dozzine"), "j": ("e",)},
    "pt": {"n": {"dois": 2, "duas": 2, "três": 3, "tres": 3, "quatro": 4, "cinco": 5,
                 "seis": 6, "sete": 7, "oito": 8, "nove": 9, "dez": 10, "onze": 11, "doze": 12,
                 "treze": 13, "catorze": 14, "quatorze": 14, "quinze": 15, "dezesseis": 16,
                 "dezasseis": 16, "dezessete": 17, "dezassete": 17, "dezoito": 18,
                 "dezenove": 19, "dezanove": 19, "vinte": 20, "trinta": 30, "quarenta": 40,
                 "cinquenta": 50, "sessenta": 60, "setenta": 70, "oitenta": 80, "noventa": 90},
           "a": ("um", "uma"), "h": ("cem", "cento"),
           "hs": {f"{stem}{end}": value * 100 for stem, value in
                  (("duzent", 2), ("trezent", 3), ("quatrocent", 4), ("quinhent", 5),
                   ("seiscent", 6), ("setecent", 7), ("oitocent", 8), ("novecent", 9))
                  for end in ("os", "as")},
           "k": ("mil",),
           "m": {"milhão": 10**6, "milhao": 10**6, "milhões": 10**6, "milhoes": 10**6},
           "dz": ("dúzia", "dúzias", "duzia", "duzias"), "j": ("e",)},
    "nl": {"n": {"twee": 2, "drie": 3, "vier": 4, "vijf": 5, "zes": 6, "zeven": 7, "acht": 8,
                 "negen": 9, "tien": 10, "elf": 11, "twaalf": 12, "dertien": 13,
                 "veertien": 14, "vijftien": 15, "zestien": 16, "zeventien": 17,
                 "achttien": 18, "negentien": 19},
           "a": ("een", "één"), "h": ("honderd",), "hs": {}, "k": ("duizend",),
           "m": {"miljoen": 10**6, "miljoenen": 10**6, "miljard": 10**9, "miljarden": 10**9},
           "dz": ("dozijn",), "j": ()},
}
# Italian tens glue their unit ("ventitré", "trentotto", elided before uno and otto); Dutch
# puts the unit first ("eenentwintig", "tweeëntwintig").
_IT_TENS = {"venti": 20, "trenta": 30, "quaranta": 40, "cinquanta": 50, "sessanta": 60,
            "settanta": 70, "ottanta": 80, "novanta": 90}
_IT_UNITS = {"uno": 1, "un": 1, "due": 2, "tre": 3, "tré": 3, "quattro": 4, "cinque": 5,
             "sei": 6, "sette": 7, "otto": 8, "nove": 9}
_ROLE_WORDS["it"]["n"].update(_IT_TENS)
_ROLE_WORDS["it"]["n"].update({(tens[:-1] if unit[0] in "uo" else tens) + unit: tv + uv
                               for tens, tv in _IT_TENS.items()
                               for unit, uv in _IT_UNITS.items()})
_NL_TENS = {"twintig": 20, "dertig": 30, "veertig": 40, "vijftig": 50, "zestig": 60,
            "zeventig": 70, "tachtig": 80, "negentig": 90}
_ROLE_WORDS["nl"]["n"].update(_NL_TENS)
_ROLE_WORDS["nl"]["n"].update({unit + joint + tens: uv + tv for tens, tv in _NL_TENS.items()
                               for unit, uv in (("een", 1), ("één", 1), ("twee", 2),
                                                ("drie", 3), ("vier", 4), ("vijf", 5),
                                                ("zes", 6), ("zeven", 7), ("acht", 8),
                                                ("negen", 9))
                               for joint in (("ën", "en") if unit[-1] == "e" else ("en",))})


def _role_table(spec: dict) -> dict[str, tuple[int, str]]:
    table: dict[str, tuple[int, str]] = {}
    for role in ("n", "hs", "m"):
        table.update((word, (value, role)) for word, value in spec[role].items())
    for role, value in (("a", 1), ("h", 100), ("k", 1000), ("dz", 12), ("j", 0)):
        table.update((word, (value, role)) for word in spec[role])
    return table


_ROLES = {language: _role_table(spec) for language, spec in _ROLE_WORDS.items()}
# Italian and Dutch write a number below a million as one word ("milleduecento",
# "duemilatrecentoventuno", "tweeduizenddriehonderd"): read as a chain of these parts. "cent"
# is "cento" elided ("centotto", "centuno").
_GLUED_PARTS = {"it": {**{w: r for w, r in _ROLES["it"].items() if r[1] in ("n", "h", "hs", "k")},
                       "cent": (100, "h"), "uno": (1, "a"), "una": (1, "a")},
                "nl": {w: r for w, r in _ROLES["nl"].items() if r[1] in ("n", "a", "h", "k")}}
_GLUED_LONGEST = {language: max(map(len, parts)) for language, parts in _GLUED_PARTS.items()}
# The first three letters of every word and glued part: a cheap test before the look-ups.
_ROLE_STEMS = {language: frozenset(word[:3] for word in table)
               for language, table in _ROLES.items()}
_LETTER_RUN = re.compile(r"[^\W\d_]+")
_GAP = re.compile(r"[ \t\u00a0]+|[-\u2010]")
# After a number: per cent, and "N times" before a comparative (a multiple, as English "3 times
# higher"); "deux fois" alone is a count.
_ROLE_PERCENT = {
    "fr": r"pour[ \u00a0]?cent", "es": r"por[ \u00a0]+cien(?:to)?", "it": r"per[ \u00a0]?cento",
    "pt": r"por[ \u00a0]?cento", "nl": r"procent|percent"}
_DE_COMPARATIVE = (r"(?=[ \u00a0]+(?:so|mehr|weniger|höher|größer|kleiner|niedriger|schneller|"
                   r"besser)(?![\w]))")
_ROLE_TIMES = {
    "fr": r"fois(?=[ \u00a0]+(?:plus|moins|mieux|autant)(?![\w]))",
    "es": r"veces(?=[ \u00a0]+(?:más|mas|menos|mayor|menor|mejor|peor)(?![\w]))",
    "it": r"volte(?=[ \u00a0]+(?:più|piu|meno|maggiore|minore|tanto|tanti|tante)(?![\w]))",
    "pt": r"vezes(?=[ \u00a0]+(?:mais|menos|maior|menor|melhor|pior)(?![\w]))",
    "nl": r"(?:keer|maal)(?=[ \u00a0]+(?:zo|zoveel|meer|minder|groter|kleiner|hoger|lager|"
          r"sneller|beter)(?![\w]))",
    "de": r"mal" + _DE_COMPARATIVE}
_DE_TIMES = re.compile(_DE_COMPARATIVE)
# After "fünfmal", a stock word: "noch fünfmal vorrätig" counts five of the thing in stock.
_DE_TIMES_STOCK = re.compile(r"[ \u00a0]+(?:(?:noch|nur|derzeit|aktuell)[ \u00a0]+)?"
                             r"(?:vorrätig|auf[ \u00a0]+lager|verfügbar|lieferbar|da)(?![\w-])")
_ROLE_AFTER = {language: re.compile(
    rf"[ \u00a0]+(?:(?P<pct>{_ROLE_PERCENT[language]})(?![\w])|(?P<times>{_ROLE_TIMES[language]}))")
    for language in _ROLE_PERCENT}
_ROLE_AFTER["de"] = re.compile(rf"[ \u00a0]+{_ROLE_TIMES['de']}")
# Digits before "fois plus", "-mal so", "keer zo", "배" (ko): a multiple ("4 fois plus élevées").
_DIGIT_TIMES = {language: re.compile(rf"(?:[ \u00a0]+|[-\u2010]?(?=mal(?![\w])))"
                                     rf"{_ROLE_TIMES[language]}")
                for language in _ROLE_TIMES}
_DIGIT_TIMES["ko"] = re.compile("[ \u00a0]?배")
# A bare hundred or thousand before these is hyperbole, not an amount: "mille fois merci",
# "cent fois", "mil gracias", "grazie mille" (after), "mil vezes", "duizend keer", "tausend
# Dank".
_HYPERBOLE_NEXT = {"fr": frozenset("fois merci mercis excuses pardons baisers bises".split()),
                   "es": frozenset("gracias veces disculpas perdones besos".split()),
                   "it": frozenset("grazie volte scuse baci".split()),
                   "pt": frozenset("vezes desculpas obrigado obrigada beijos".split()),
                   "nl": frozenset("keer maal excuses dank".split()),
                   "de": frozenset("dank danke mal küsse grüße entschuldigungen".split())}
_HYPERBOLE_BEFORE = {"it": frozenset(("grazie",)), "es": frozenset(("gracias",)),
                     "pt": frozenset(("obrigado", "obrigada")), "fr": frozenset(("merci",)),
                     "nl": frozenset(("bedankt",)), "de": frozenset(("danke",))}
# French "neuf" is also "new" ("un téléphone neuf", "état neuf", "remis à neuf", "quoi de
# neuf"); Italian "sei" is also "you are" ("sei sicuro?", "se sei interessato").
_NEUF_NEW_BEFORE = frozenset("état etat tout toute flambant comme quasi presque très tres quoi "
                             "neuve".split())
# ... and "est neuf.", "remis à neuf": "neuf" ending the clause after these.
_NEUF_NEW_VERB = frozenset("est sont était etait sera soit semble paraît parait à a".split())
_NEUF_CLAUSE_NEXT = frozenset("et ou mais avec en dans sous depuis jamais encore pour ni".split())
_SEI_VERB_BEFORE = frozenset("tu se non ne ci mi ti che come dove quando ma perché perche chi già "
                             "gia ora ormai sempre mai anche".split())
_SEI_VERB_AFTER = frozenset("stato stata sicuro sicura pronto pronta il lo la l un una uno "
                            "davvero proprio qui lì li tu gentile bravo brava interessato "
                            "interessata iscritto iscritta registrato registrata in a".split())
# Multiples written as words: "doublé", "el doble", "il doppio", "verdubbeld", "verdoppelt",
# "doppelt so", "das Dreifache". "double" alone ("chambre double") is not read.
_ROLE_MULTIPLES = {
    "fr": {**{f"{stem}{end}": value for stem, value in (("doubl", 2), ("tripl", 3),
                                                       ("quadrupl", 4))
              for end in ("é", "ée", "és", "ées")},
           "le double": 2, "le triple": 3, "de moitié": 0.5, "la moitié": 0.5},
    "es": {**{f"{stem}{end}": value for stem, value in (("duplic", 2), ("triplic", 3),
                                                       ("cuadruplic", 4))
              for end in ("ado", "ada", "ados", "adas", "ó", "aron")},
           "el doble": 2, "el triple": 3, "la mitad": 0.5},
    "it": {**{f"{stem}{end}": value for stem, value in (("raddoppi", 2), ("triplic", 3),
                                                       ("quadruplic", 4))
              for end in ("ato", "ata", "ati", "ate")},
           "il doppio": 2, "il triplo": 3, "la metà": 0.5},
    "pt": {**{f"{stem}{end}": value for stem, value in (("duplic", 2), ("triplic", 3),
                                                       ("quadruplic", 4))
              for end in ("ado", "ada", "ados", "adas", "ou", "aram")},
           "dobrou": 2, "dobraram": 2, "o dobro": 2, "o triplo": 3, "a metade": 0.5},
    "nl": {"verdubbeld": 2, "verdubbelde": 2, "verdubbelden": 2, "verdrievoudigd": 3,
           "verdrievoudigde": 3, "verviervoudigd": 4, "het dubbele": 2, "de helft": 0.5,
           "gehalveerd": 0.5},
    "de": {**{f"{stem}{end}": value for stem, value in (("verdoppel", 2), ("verdreifach", 3),
                                                       ("vervierfach", 4), ("halbier", 0.5))
              for end in ("t", "te", "ten")},
           "das doppelte": 2, "das dreifache": 3, "das vierfache": 4, "die hälfte": 0.5,
           "doppelt so": 2, "halb so": 0.5},
}
# Shares written as a fraction after the article, as English "a quarter of" (probe i18n2 f2):
# "ein Viertel Ihrer Lizenzen", "un quart de vos licences", "un quarto delle", "una quinta parte
# de", "um terço dos"; read only before the language's "of" (``_ROLE_SHARE_OF``), so that "ein
# Viertel nach drei", "un quart d'heure", "un cuarto de hora", "un cuarto doble", "un tiers de
# confiance" (a trusted third party) are not. A
# numerator in words ("zwei Drittel", "deux tiers") is read as its number word.
_THIRD = Decimal(1) / Decimal(3)
_ROLE_FRACTION_SHARES = {
    "de": {"ein viertel": 0.25, "ein drittel": _THIRD, "ein fünftel": 0.2, "ein achtel": 0.125,
           "ein zehntel": 0.1},
    "fr": {"un quart": 0.25, "un tiers": _THIRD, "un cinquième": 0.2, "un huitième": 0.125,
           "un dixième": 0.1},
    "es": {**{f"{article} {word} parte": value for article in ("la", "una")
              for word, value in (("cuarta", 0.25), ("tercera", _THIRD), ("quinta", 0.2),
                                  ("octava", 0.125), ("décima", 0.1))},
           "un cuarto": 0.25, "un tercio": _THIRD, "un quinto": 0.2, "un décimo": 0.1},
    "it": {"un quarto": 0.25, "un terzo": _THIRD, "un quinto": 0.2, "un ottavo": 0.125,
           "un decimo": 0.1},
    "pt": {"um terço": _THIRD, "um quinto": 0.2, "um décimo": 0.1},
}
for _language, _shares in _ROLE_FRACTION_SHARES.items():
    _ROLE_MULTIPLES[_language].update(_shares)
_ROLE_SHARE_OF = {
    "de": re.compile(r"[ \u00a0]+(?:der|des|dem|aller|von|ihrer|ihres|unserer|unseres|eurer|"
                     r"eures|seiner|seines|meiner|meines|deiner|deines|dieser|dieses)(?![\w])"),
    "fr": re.compile(r"[ \u00a0]+(?:de|des|du)(?![\w])(?![ \u00a0]+confiance)"
                     r"|[ \u00a0]+d['\u2019](?!heure)"),
    "es": re.compile(r"[ \u00a0]+(?:de|del)[ \u00a0]+(?!(?:hora|horas|baño|estar|invitados|"
                     r"huéspedes|hotel)(?![\w]))"),
    "it": re.compile(r"[ \u00a0]+(?:di|dei|delle|degli|del|della|dello|dell['\u2019])(?![\w])"),
    "pt": re.compile(r"[ \u00a0]+(?:de|do|da|dos|das)(?![\w])"),
}
_ROLE_MULTIPLE = {language: re.compile(rf"{_trie(sorted(words), _WORD_GUARD)}(?![\w\u2010-])")
                  for language, words in _ROLE_MULTIPLES.items()}
_ROLE_FACTORS = {language: {word: Decimal(str(value)) for word, value in words.items()}
                 for language, words in _ROLE_MULTIPLES.items()}
# Of these, the shares ("la moitié des clients"): a word_number 0.5, like English "half the".
_ROLE_SHARES = frozenset(("la moitié", "la mitad", "la metà", "a metade", "de helft",
                          "die hälfte",
                          *(word for shares in _ROLE_FRACTION_SHARES.values() for word in shares)))


def _split_glued(word: str, parts: dict[str, tuple[int, str]], longest: int):
    """An Italian or Dutch number written as one word, as its parts ("milleduecento": mille,
    duecento), longest part first; None when the word is not made of them. Memoised by
    position: at most len(word) * longest look-ups."""
    failed: set[int] = set()

    def rest(at: int):
        if at == len(word):
            return []
        if at in failed:
            return None
        for end in range(min(len(word), at + longest), at, -1):
            part = parts.get(word[at:end])
            if part is not None:
                tail = rest(end)
                if tail is not None:
                    return [part, *tail]
        failed.add(at)
        return None

    return rest(0)


def _read_parts(items: list, i: int, language: str):
    """Read one number from the parts items[i:] ((value, role, ...) as in ``_ROLE_WORDS``):
    (end index, value, scale), or None when no number starts there (a lone article, a joiner,
    a scale with nothing before it). ``scale`` is the scale word's value when the number ends
    with one ("trois millions"), else 1."""
    n = len(items)
    french, dutch = language == "fr", language == "nl"
    total = group = 0
    last = None                     # the role of the last part read
    last_scale = 10**15
    joined = False                  # a joiner stands between the last part and this one
    k = i
    while k < n:
        value, role = items[k][0], items[k][1]
        if role == "a" and last is not None:
            # 1 after a joiner or a hundred, a thousand ("vingt et un", "vinte e um", "cent
            # un", "mil uno", glued "centuno", "honderdeen"), and after French "quatre-vingt"
            # ("quatre-vingt-un": 81 takes no "et"); not before a scale ("mille un million"),
            # nor in Dutch apart ("honderd een" is a hundred and an article)
            if dutch and items[k][2] != items[k - 1][2] \
                    or not joined and last == "n" and not (
                        french and group % 100 == 80 and items[k - 1][4] == "vingt") \
                    or k + 1 < n and items[k + 1][1] in ("m", "dz", "h", "k"):
                break
            role = "n"
        if role == "a":
            if last is not None:
                break
            group = 1
        elif role == "j":
            if last in (None, "a") or joined:
                break
            joined = True
            k += 1
            continue
        if role == "n":
            sub = group % 100
            if last == "n":
                if french and sub == 4 and value == 20 and not joined:
                    group += 76                                 # quatre-vingt(s)
                elif 10 <= sub and sub % 10 == 0 and value < 10 \
                        or french and sub in (60, 80) and 10 <= value < 20:
                    group += value                              # vingt-deux, soixante-dix
                else:
                    break
            elif sub == 0 and last != "a":
                group += value
            else:
                break
        elif role == "h":
            if last == "n" and not joined and 1 <= group <= 19:
                group *= 100                                    # deux cent, dertienhonderd
            elif last in (None, "a", "k", "m") and group <= 1:
                group = 100
            else:
                break
        elif role == "hs":
            if last not in (None, "k", "m") or group:
                break
            group = value
            role = "h"
        elif role == "k":
            if joined or last_scale <= 1000:
                break
            if last in ("n", "h", "a") and group:
                total += group * 1000
            elif last in (None, "m"):
                total += 1000                                   # mille, mil
            else:
                break
            group, last_scale = 0, 1000
        elif role == "m":
            if joined:
                break
            if last == "k" and value == 10**6 and not group and total < 10**6:
                total *= value                                  # mil millones: 10**9
                last_scale = 10**9
            elif last in ("n", "h", "a") and group and value < last_scale:
                total += group * value
                last_scale = value
            else:
                break
            group = 0
        elif role == "dz":
            if joined or last not in ("n", "a") or not 0 < group < 100:
                break
            group *= 12                                         # deux douzaines
            last = "dz"
            k += 1
            break
        last, joined = role, False
        k += 1
    if joined:
        k -= 1
    if last in (None, "a"):
        return None
    scale = last_scale if last == "m" else 1
    return k, total + group, scale
# "la moitié du prix", "la mitad del precio", "die Hälfte des Preises": half price, a discount.
_SHARE_PRICE = re.compile(r"[ \u00a0]+(?:du prix|del precio|del prezzo|do pre[çc]o|van de prijs|"
                          r"des preises)(?![\w])")
# French idioms whose number words are no numbers: "cent pour cent" ("completely"; 100 % in
# digits is still read), "à deux pas" ("a stone's throw"), "à deux doigts" ("very nearly").
_FR_IDIOM = re.compile(r"(?<![\w-])cent[ \u00a0]+pour[ \u00a0]?cent(?![\w-])"
                       r"|(?<=à[ \u00a0])deux(?=[ \u00a0]+(?:pas|doigts)(?![\w-]))")
# Dutch "ten" + a word is "at the" (ten minste, ten slotte, ten opzichte van), not English 10.
_NL_TEN = re.compile(r"(?<![\w-])ten(?=[ \u00a0]+(?:minste|slotte|eerste|tweede|derde|laatste|"
                     r"behoeve|opzichte|aanzien|gevolge|koste|tijde|einde|onrechte|hoogste|"
                     r"spoedigste|dele|zuiden|noorden|oosten|westen)(?![\w]))")


# After a number in words, the rest of a hyphenated compound it opens: "three-putts",
# "five-figure", "two-way".
_COMPOUND_TAIL = re.compile(r"[-\u2010\u2011]([^\W\d_]+(?:[-\u2010\u2011][^\W\d_]+)*)")


def number_word_compound(text: str, mention: Mention) -> tuple[str, ...]:
    """A number in words that opens a hyphenated compound ("three-putts", "five-figure") names
    that compound, not a quantity: the compound lower-cased as written and with the number in
    digits ("three-putts", "3-putts"), as a name's digits are its own (issue rule 4); () for any
    other mention."""
    if mention.kind != "word_number" or mention.value is None or " " in mention.text \
            or text[mention.start:mention.end] != mention.text:
        return ()
    tail = _COMPOUND_TAIL.match(text, mention.end)
    if tail is None:
        return ()
    rest, value = tail[1].casefold(), mention.value
    digits = str(int(value)) if value == value.to_integral_value() else str(value)
    return (f"{mention.text.casefold()}-{rest}", f"{digits}-{rest}")
