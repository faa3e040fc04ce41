"""Numbers written as words: English number words ("twenty-one", "a dozen", "one and a half
million", ordinals, "a fifty-dollar gift card", "fifty-nine-ninety-nine"), the lone "one" and
"half" (``ONE_NOUNS``), shares and discounts ("a quarter of", "half off", "save a third"),
multiples ("twice", "doubled", "three times as many"), and German number words."""

from __future__ import annotations

import re
from decimal import Decimal

from rulekit.scan.base import _CONTEXT_STRIP, _Hit, _trie, _word_after, _word_before
from rulekit.scan.figures import _COMPARATIVES, _CURRENCY_WORDS, _SCALES, _currency_for

_WORD_GUARD = r"[\w\u2010-]"
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
""".split())
# "one-click", "one-piece", "one-size", "one-shot", "one-page": idioms, though the noun alone
# counts.
_ONE_HYPHEN_IDIOMS = frozenset("click piece size shot page".split())
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
_HALF_NOT_PREV = frozenset("first second last other latter former top bottom upper lower "
                           "back front".split())
_HALF_AS = re.compile(r"[ \t\u00a0]+as[ \t\u00a0]+(?:many|much|often|long|large|big|high|fast|"
                      r"expensive|cheap|likely|well|good|bad|quickly|far)(?![\w-])")
_WORD_SUFFIX = re.compile(
    r"(?P<pct>[ \u00a0]?%|(?:[ \u00a0]+|[-\u2010])(?i:percent(?!age)|per[ \u00a0]?cent|prozent)"
    r"(?![\w]))"
    rf"|(?P<times>[ \u00a0]+(?i:times)(?=[ \u00a0]+(?i:{_COMPARATIVES})\b))"
    r"|(?:[ \u00a0]+|[-\u2010])(?P<curw>(?i:dollars?|euros?|yen|yuan|rupees?|pounds?|quid|"
    r"bucks))(?![\w])")

# Words, matched in the ASCII-lower-cased text.
_EN_NUM = _trie(sorted(_EN_NUMBER_WORDS), _WORD_GUARD)
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
_DE_WORD = re.compile(_trie(["ein", "zwei", "drei", "vier", "fünf", "sechs", "sieb", "acht",
                             "neun", "zehn", "elf", "zwölf", "zwanzig", "dreißig", "hundert",
                             "tausend"], _WORD_GUARD) + r"[a-zäöüß]{0,57}(?![\w-])")
_DE_SCALE = re.compile(r"(?i)[ \u00a0]+(millionen|million|milliarden|milliarde|mio|mrd)\.?(?![\w])")


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
_FRACTION_TOKENS = frozenset(word.encode() for word in _FRACTION_DENOMINATORS) | frozenset(
    f"{a}-{b}".encode() for a in _FRACTION_NUMERATORS for b in _FRACTION_DENOMINATORS)
_FRACTION_WORD = re.compile("third|quarter|fourth|fifth|sixth|eighth|tenth")
_HYPHENS = ("-", "\u2010")
_CENT = Decimal("0.01")
# "a baker's dozen" (13), read back from "dozen"; "a score of people" (20), not "a score of 85"
_BAKERS = re.compile(r"(?:(?<![\w\u2010-])an?[ \t\u00a0]+)?baker(?:'|\u2019)?s[ \t\u00a0]+$")
_A_SCORE = re.compile(r"(?<![\w\u2010-])(a[ \t\u00a0]+score)[ \t\u00a0]+of(?![\w-])")


class _Words:
    """Number words and multiples; a part of ``_Scanner``."""

    def words(self) -> None:
        low = self.low
        # Shares written as fractions ("a quarter of", "two thirds of"): before the number
        # words, which would read "two" alone. Every one holds a token of _FRACTION_TOKENS.
        if (not _FRACTION_TOKENS.isdisjoint(self.ascii_tokens()) if self.ascii
                else _FRACTION_WORD.search(low)):
            for match in _FRACTION.finditer(low):
                s, e = match.span(1)
                if not match.group("of") and not match.group("off") \
                        and _word_before(low, s) not in _SAVE_PREV:
                    continue
                if self.free(s, e):
                    numerator = _FRACTION_NUMERATORS[match.group(2)]
                    denominator = _FRACTION_DENOMINATORS[match.group(3)]
                    hit = self.claim(_Hit("word_number", s, e,
                                          Decimal(numerator) / Decimal(denominator)))
                    if not match.group("of"):
                        _share_off(hit)
        # A multiple word, and the first word of a span of number words, is a whole token, a
        # run of [\w‐-] (the guard before it; a space, or the end of the pattern, after it). An
        # ASCII text none of whose tokens is such a word holds neither: splitting in C is
        # cheaper than trying the tries at every letter.
        if self.ascii and _WORD_BYTES.isdisjoint(self.ascii_tokens()) and (
                "-" not in low or _WORD_BYTES.isdisjoint(
                    token.partition(b"-")[0] for token in self.tokens if b"-" in token)) \
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

    def ascii_tokens(self) -> frozenset[bytes]:
        """The tokens of an ASCII text (runs of letters, digits, "_" and "-"), lower-cased;
        computed once per scan."""
        if self.tokens is None:
            self.tokens = frozenset(self.low.encode("ascii").translate(_NOT_WORD).split())
        return self.tokens

    def multiple_word(self, s: int, e: int, word: str) -> None:
        low = self.low
        factor = _MULTIPLE_FACTORS[word]
        if word != "half" and word.startswith("half"):
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
            if prev in _HALF_NOT_PREV or low.startswith("and a ", max(0, s - 6)):
                return
            if prev in _SAVE_PREV or _word_after(low, e) in _OFF_NEXT:
                self.claim(_share_off(_Hit("word_number", s, e, factor)))     # half off
                return
            if _word_after(low, e) in _HALF_NEXT or prev in _HALF_PREV:
                self.claim(_Hit("word_number", s, e, factor))
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
            if flags.get("fraction") or (flags.get("lone_one") and cents is None
                                         and not self.one_is_number(s, e)):
                continue
            hit = _Hit("word_number", s, e, value)
            if cents is not None:
                hit.value, hit.decimals = (value + cents).quantize(_CENT), 2
            hit.ordinal = bool(flags.get("ordinal"))
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
            if self.free(hit.s, hit.e):
                self.claim(hit)

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
            value = _de_value(match.group())
            if value is None:
                continue
            hit = _Hit("word_number", s, e, Decimal(value))
            found = _DE_SCALE.match(text, e)
            word = found.group(1).lower().replace("\u0307", "") if found else ""   # "mİllionen"
            scale = _SCALES.get({"mio": "Mio", "mrd": "Mrd"}.get(word, word)) if found else None
            if scale is not None:
                hit.value *= scale
                hit.scaled, hit.scale, hit.e = True, scale, found.end()
            found = _WORD_SUFFIX.match(text, hit.e)
            if found and found.group("pct"):
                hit.percent, hit.e = True, found.end()
            self.claim(hit)


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
        high = _de_below_thousand(left) if left else 1
        low = _de_below_thousand(right) if right else 0
        return None if high is None or low is None else high * 1000 + low
    return _de_below_thousand(word)


def _de_below_thousand(word: str) -> int | None:
    if "hundert" in word:
        left, _, right = word.partition("hundert")
        high = _DE_UNITS.get(left) if left else 1
        low = _de_below_hundred(right) if right else 0
        return None if high is None or low is None else high * 100 + low
    return _de_below_hundred(word)


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
