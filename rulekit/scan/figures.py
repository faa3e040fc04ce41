"""Numbers written with digits: the run of digits and separators (read by
``rulekit.numbers.parse_number``), what is written around it (sign, currency, scale such as
12k or 2 million, percent, multiple such as 3x, ordinal), digits glued into a name or a code,
and ranges ("10-12%", "between 10 and 12")."""

from __future__ import annotations

import functools
import operator
import re
import unicodedata
from decimal import Decimal

from babel import Locale
from babel.numbers import get_currency_symbol, get_territory_currencies, list_currencies

from rulekit.numbers import parse_number
from rulekit.scan.base import (_CLAIMED, _IDIOM, _CONTEXT_STRIP, _DIGITS, _Hit, _is_glue, _word_after,
                               _word_before)
from rulekit.scan.cjk import _CJK_SCALE, _YUAN_SIGNS, _yuan_tail
from rulekit.scan.locales import _CORE
from rulekit.scan.reader import _NBSP, _SIGNS
from rulekit.scan.when import _AMPM_NEXT, _AT_BEFORE, _DAY_NEXT, _DAY_PART_INTRO_LAST, _DOT_TIME, \
    _MARK_LAST, _NUMERIC_DATE, _at_before, reads_dot_times

# A digit run longer than this has no value (see the module docstring).
MAX_DIGITS = 200


_COMPARATIVES = ("more|less|fewer|higher|lower|larger|smaller|bigger|greater|faster|slower|"
                 "better|worse|longer|shorter|cheaper|as|the|what|that|over")
# What makes "N times" a multiple: a comparative ("3 times more"), or a possessive, maybe after a
# determiner or two ("3 times last week's views", "1.5 times October's"); "3 times last week" is
# a count of occasions.
_TIMES_WHAT = (rf"(?:{_COMPARATIVES})\b|(?:(?:last|this|previous|prior|your|their|its|our|my|"
               r"his|her)[ \u00a0]+){0,2}[a-z]+['\u2019]s\b")


# ISO codes that are also English words, never read as a currency; and "PLZ", the German
# postcode's label ("PLZ 10115"), the złoty's code only until 1995 (now PLN).
_NOT_CURRENCY = frozenset("ALL TOP CUP PEN MOP SOS BAM MAD TRY GEL BOB DOP NIO LAK ANG PLZ"
                          .split())


@functools.lru_cache(maxsize=1)
def _iso_codes() -> frozenset[str]:
    return frozenset(list_currencies()) - _NOT_CURRENCY


# Crypto tickers after an amount ("49.99 BTC", "10 USDT"): a currency no ISO list holds, which
# the evidence must hold like any other. Only these: other capitals after a number are as often
# an acronym ("5 GPU", "2 FAQ").
_TICKERS = frozenset("BTC XBT ETH USDT USDC LTC XRP XMR BNB DOGE".split())
# Codes read after an amount in lower or mixed case too ("49.99 eur", "10 Usd"): the common
# ones that are no English word ("all", "try", "top", "cup", "mad", "pen" are left alone, and
# so are cad, php, ron and the rest of ISO 4217 in lower case: see docs/sweep.md).
_LOWER_CODES = ("usdt|usdc|usd|eur|gbp|jpy|cny|chf|aud|nzd|hkd|sgd|sek|nok|dkk|pln|czk|huf|inr|"
                "rub|brl|mxn|zar|krw|ils|aed|uah|btc|eth")
# Signs of one currency that babel does not read in every locale ("₽" in en_US). Any other
# currency sign (Unicode's Sc) babel does not read is its own currency, which no evidence
# holds: "₤49.99" (the lira sign, not £), "₳", "¤" fail closed.
_SIGN_CODES = {"\u058f": "AMD", "\u060b": "AFN", "\u09f3": "BDT", "\u17db": "KHR",
               "\u20a1": "CRC", "\u20a6": "NGN", "\u20ad": "LAK", "\u20ae": "MNT",
               "\u20b2": "PYG", "\u20b4": "UAH", "\u20b5": "GHS", "\u20b8": "KZT",
               "\u20ba": "TRY", "\u20bc": "AZN", "\u20bd": "RUB", "\u20be": "GEL",
               "\u20bf": "BTC", "\u20c0": "KGS", "\u0af1": "rupees", "\u0bf9": "rupees"}


# Currencies. ``Mention.currency`` is a plain string: an ISO 4217 code (three capital letters)
# when the sign or word names one currency in the locale, else the name of the family it names
# (a key of ``CURRENCY_FAMILIES``, lower-case words, never three capitals): "$" in en_GB is
# "dollars or pesos", "¥" in en_GB "yen or yuan". ``currency_codes`` gives the ISO codes either
# may stand for; an amount the evidence holds in none of them is shown in the wrong currency.
_DOLLARS = ("USD CAD AUD NZD HKD SGD TWD BSD BBD BZD BMD BND KYD FJD GYD JMD LRD NAD SBD SRD TTD "
            "XCD ZWG")
CURRENCY_FAMILIES: dict[str, frozenset[str]] = {
    "dollars": frozenset(_DOLLARS.split()),
    # "$" also writes the pesos and a few others
    "dollars or pesos": frozenset((_DOLLARS + " MXN ARS CLP COP CUP DOP UYU").split()),
    "yen or yuan": frozenset(("JPY", "CNY")),
    "yuan": frozenset(("CNY", "TWD", "HKD", "MOP")),
    "pounds": frozenset("GBP EGP FKP GIP SHP SSP SYP LBP SDG JEP GGP IMP".split()),
    "kronor or kroner": frozenset(("SEK", "NOK", "DKK", "ISK", "FOK")),
    "rupees": frozenset(("INR", "PKR", "LKR", "NPR", "MUR", "SCR")),
    "francs": frozenset("CHF XOF XAF XPF CDF GNF RWF BIF DJF KMF".split()),
    "pesos": frozenset(("MXN", "ARS", "CLP", "COP", "CUP", "DOP", "UYU", "PHP")),
}
# The sign a family's currency is written with, for the locale to settle which one it is.
_FAMILY_SIGN = {"dollars": "$", "dollars or pesos": "$", "yen or yuan": "¥", "yuan": "元",
                "pounds": "£", "kronor or kroner": "kr", "rupees": "Rs", "pesos": "$",
                "francs": "Fr."}
# Signs that name a family (as written, without a final dot), and dollar signs with a prefix.
_SIGN_FAMILY = {"$": "dollars or pesos", "¥": "yen or yuan", "£": "pounds",
                "kr": "kronor or kroner", "Rs": "rupees", "元": "yuan", "块": "yuan",
                "塊": "yuan"}
_PREFIXED_DOLLARS = {"US$": "USD", "CA$": "CAD", "C$": "CAD", "AU$": "AUD", "A$": "AUD",
                     "NZ$": "NZD", "HK$": "HKD", "NT$": "TWD", "SG$": "SGD", "S$": "SGD",
                     "MX$": "MXN", "R$": "BRL"}


def _with_code(symbol: str, written: str | None, code: str) -> str:
    """The currency of an amount written with a sign or a word and then an ISO code ("$59.99
    AUD", "59,99 € EUR"; ``written`` is what the sign alone names in the locale): the code when
    the sign may write it ("$" any dollar or peso, "£" any pound), else both names ("GBP and
    USD" for "£59.99 USD"): no evidence holds an amount in that, so it fails closed against
    either currency."""
    family = CURRENCY_FAMILIES.get(symbol) or CURRENCY_FAMILIES.get(
        _SIGN_FAMILY.get(symbol.rstrip("."), ""))
    if code in (family or (currency_codes(written) if written else ())):
        return code
    return f"{written or symbol} and {code}"


def currency_codes(currency: str) -> frozenset[str]:
    """The ISO codes a ``Mention.currency`` may stand for: a family's members, or the code."""
    return CURRENCY_FAMILIES.get(currency) or frozenset((currency,))


@functools.lru_cache(maxsize=1024)
def _currency_for(symbol: str, locale: str) -> str | None:
    """What a currency sign, ISO code or the value of ``_CURRENCY_WORDS`` names in ``locale``
    (see ``CURRENCY_FAMILIES``): an ISO code, a family's name, or None for a sign babel does
    not know."""
    if len(symbol) == 3 and symbol.isascii() and symbol.isalpha() and symbol.isupper():
        return symbol
    if symbol in CURRENCY_FAMILIES:
        return _family_in(symbol, locale)
    key = symbol.rstrip(".")
    code = _PREFIXED_DOLLARS.get(key)
    if code is not None:
        return code
    family = _SIGN_FAMILY.get(key)
    if family is not None:
        return _family_in(family, locale)
    code = _SIGN_CODES.get(key) or (key if key in _TICKERS else None)
    if code is not None:
        return code
    parsed = parse_number(f"{key}1", locale)
    if parsed is not None and parsed.currency is not None:
        return parsed.currency
    if len(key) == 1 and key != "\u00a2" and unicodedata.category(key) == "Sc":
        return key      # a sign of no currency babel knows: one no evidence holds
    return None


def currency_symbol(said: str) -> str:
    """A currency as written beside an amount, as ``_currency_for`` reads it: a word of
    ``_CURRENCY_WORDS`` or ``_COUNTRY_WORDS`` (any case, "Euro", "kronor", "Swiss francs") as
    the code or family it names, any other sign or code as written."""
    key = " ".join(said.lower().split())
    return _CURRENCY_WORDS.get(key) or _COUNTRY_WORDS.get(key, said)


def _family_in(family: str, locale: str) -> str:
    """The one currency of ``family`` a reader in ``locale`` means: the currency of the
    locale's country if it is one of them ("$" in en_CA, "Rs" in en_IN), else the one the
    locale writes with the family's sign alone ("$" is USD in en_US and de_DE, "¥" JPY in
    ja_JP); else the family (fail closed: "$" in en_GB or fr_FR may be any of them)."""
    codes = CURRENCY_FAMILIES[family]
    parsed = Locale.parse(locale.replace("-", "_"))
    if parsed.territory:
        local = get_territory_currencies(parsed.territory, tender=True)
        if local and local[0] in codes:
            return local[0]
    sign = _FAMILY_SIGN[family]
    written = [code for code in sorted(codes)
               if get_currency_symbol(code, locale=parsed).rstrip(".") == sign]
    return written[0] if len(written) == 1 else family


@functools.lru_cache(maxsize=64)
def _writes_lakhs(locale: str) -> bool:
    """Whether ``locale`` writes amounts in lakhs and crores (en_IN, hi_IN, ur_PK, bn_BD...)."""
    return Locale.parse(locale.replace("-", "_")).territory in _LAKH_TERRITORIES


# Words for a currency (lower-cased), to an ISO code or a family.
_CURRENCY_WORDS = {"dollar": "dollars", "dollars": "dollars", "bucks": "dollars",
                   "dólar": "dollars", "dólares": "dollars", "dolares": "dollars",
                   "دولار": "dollars", "ドル": "dollars", "달러": "dollars",
                   "us-dollar": "USD", "us-dollars": "USD", "米ドル": "USD", "美元": "USD",
                   "euro": "EUR", "euros": "EUR", "欧元": "EUR", "歐元": "EUR", "ユーロ": "EUR",
                   "유로": "EUR", "pound": "pounds", "pounds": "pounds", "quid": "GBP",
                   "英镑": "GBP", "英鎊": "GBP", "yen": "JPY", "日元": "JPY", "円": "JPY",
                   "yuan": "CNY", "人民币": "CNY", "人民幣": "CNY", "港币": "HKD", "港幣": "HKD",
                   "港元": "HKD", "元": "yuan", "块": "yuan", "塊": "yuan", "원": "KRW",
                   "rupee": "rupees", "rupees": "rupees", "रुपये": "rupees", "रुपए": "rupees",
                   "franken": "CHF", "peso": "pesos", "pesos": "pesos", "pfund": "pounds",
                   "livre": "pounds", "livres": "pounds", "livre sterling": "GBP",
                   "livres sterling": "GBP", "sterline": "GBP", "sterlina": "GBP",
                   "franc": "francs", "francs": "francs", "franc suisse": "CHF",
                   "francs suisses": "CHF", "franchi": "francs", "franchi svizzeri": "CHF",
                   "pond": "pounds", "ponden": "pounds", "libra": "pounds", "libras": "pounds",
                   "libra esterlina": "GBP", "libras esterlinas": "GBP", "엔": "JPY",
                   "위안": "CNY", "韩元": "KRW", "韓元": "KRW", "ウォン": "KRW", "人民元": "CNY",
                   "reais": "BRL", "real": "BRL"}
# A currency said with its country ("19.99 Canadian dollars", "500 Swedish kronor"): the
# country's adjective and the currency's word, to its ISO code; and the Nordic crowns alone.
_COUNTRY_CURRENCIES = {
    "dollars": {"us": "USD", "u.s.": "USD", "american": "USD", "canadian": "CAD",
                "australian": "AUD", "new zealand": "NZD", "hong kong": "HKD",
                "singapore": "SGD", "singaporean": "SGD", "taiwan": "TWD", "new taiwan": "TWD",
                "jamaican": "JMD", "bahamian": "BSD", "barbadian": "BBD", "fijian": "FJD",
                "namibian": "NAD", "brunei": "BND", "trinidad and tobago": "TTD",
                "east caribbean": "XCD", "liberian": "LRD", "belize": "BZD"},
    "pesos": {"mexican": "MXN", "chilean": "CLP", "colombian": "COP", "argentine": "ARS",
              "argentinian": "ARS", "philippine": "PHP", "uruguayan": "UYU", "cuban": "CUP",
              "dominican": "DOP"},
    "kronor": {"swedish": "SEK"}, "krona": {"swedish": "SEK", "icelandic": "ISK"},
    "kroner": {"norwegian": "NOK", "danish": "DKK"}, "krone": {"norwegian": "NOK", "danish": "DKK"},
    "kronur": {"icelandic": "ISK"},
    "francs": {"swiss": "CHF", "cfa": "XOF", "west african cfa": "XOF",
               "central african cfa": "XAF", "congolese": "CDF", "rwandan": "RWF"},
    "yen": {"japanese": "JPY"}, "yuan": {"chinese": "CNY"}, "renminbi": {"chinese": "CNY"},
    "rupees": {"indian": "INR", "pakistani": "PKR", "sri lankan": "LKR", "nepalese": "NPR",
               "nepali": "NPR", "mauritian": "MUR", "seychellois": "SCR"},
    "pounds": {"british": "GBP", "egyptian": "EGP", "lebanese": "LBP", "sudanese": "SDG"},
    "rand": {"south african": "ZAR"}, "reais": {"brazilian": "BRL"}, "real": {"brazilian": "BRL"},
    "won": {"korean": "KRW", "south korean": "KRW"}, "ruble": {"russian": "RUB"},
    "rubles": {"russian": "RUB"}, "roubles": {"russian": "RUB"}, "lira": {"turkish": "TRY"},
    "zloty": {"polish": "PLN"}, "forint": {"hungarian": "HUF"}, "shekels": {"israeli": "ILS"},
    "dirhams": {"uae": "AED", "emirati": "AED", "moroccan": "MAD"},
    "riyals": {"saudi": "SAR", "qatari": "QAR", "omani": "OMR"},
    "dinars": {"kuwaiti": "KWD", "bahraini": "BHD", "jordanian": "JOD", "tunisian": "TND"},
    "ringgit": {"malaysian": "MYR"}, "baht": {"thai": "THB"}, "dong": {"vietnamese": "VND"},
    "rupiah": {"indonesian": "IDR"}, "naira": {"nigerian": "NGN"},
    "shillings": {"kenyan": "KES", "ugandan": "UGX", "tanzanian": "TZS"}}
_COUNTRY_WORDS = {f"{country} {currency}": code
                  for currency, countries in _COUNTRY_CURRENCIES.items()
                  for country, code in countries.items()}
_COUNTRY_WORDS.update({f"{country} {currency[:-1]}": code for currency, countries
                       in _COUNTRY_CURRENCIES.items() if currency in ("dollars", "pesos",
                                                                      "francs", "rupees",
                                                                      "pounds")
                       for country, code in countries.items()})     # "1 Canadian dollar"
_COUNTRY_WORDS.update({"kronor": "kronor or kroner", "kroner": "kronor or kroner",
                       "krona": "kronor or kroner", "krone": "kronor or kroner"})
# The same, for the scanner's pattern: the adjectives, longest first, then the words.
_COUNTRY_PATTERN = (
    "(?:" + "|".join(sorted({re.escape(c).replace(r"\ ", r"[  ]") for cs in
                             _COUNTRY_CURRENCIES.values() for c in cs}, key=len, reverse=True))
    + r")[  ]+(?:" + "|".join(sorted({w for w in _COUNTRY_CURRENCIES} | {
        "dollar", "peso", "franc", "rupee", "pound"}, key=len, reverse=True)) + ")"
    + "|kronor|kroner|krona|krone")
# A minus written after an amount ("5,00- €"), and the words before an amount in brackets
# that make the brackets accounting's minus ("Your balance is ($5.00)", "Total: ($5.00)").
_TRAILING_MINUS = frozenset("-\u2212")
_ACCOUNTING_BEFORE = re.compile(r"(?:(?<![\w'])(?:is|are|was|were|of)|[:|=]|^|\n)[ \t\u00a0*]*\Z")
# CJK currency words written right after the digits or a CJK scale (1299美元, 1.2万円).
_CJK_CURRENCY_WORDS = ("米ドル|美元|欧元|歐元|日元|英镑|英鎊|人民币|人民幣|人民元|港币|港幣|港元|韩元|韓元|"
                       "ドル|ユーロ|ウォン|달러|유로|위안|엔")
_CJK_CURRENCY_AT = re.compile(rf"{_CJK_CURRENCY_WORDS}|[元円块塊원]")
_CJK_CURRENCY_FIRST = frozenset("米美欧歐日英人港韩韓ドユウ달유위엔元円块塊원")
_SCALES = {"k": 10**3, "K": 10**3, "M": 10**6, "MM": 10**6, "mn": 10**6, "Mio": 10**6,
           "bn": 10**9, "B": 10**9, "Mrd": 10**9, "Md": 10**9, "tn": 10**12, "T": 10**12,
           "thousand": 10**3, "tausend": 10**3, "mille": 10**3, "million": 10**6,
           "millions": 10**6, "millionen": 10**6, "billion": 10**9, "milliard": 10**9,
           "milliards": 10**9, "milliarde": 10**9, "milliarden": 10**9, "trillion": 10**12,
           "billionen": 10**12, "lakh": 10**5, "lakhs": 10**5, "lac": 10**5, "lacs": 10**5,
           "crore": 10**7, "crores": 10**7, "L": 10**5, "Cr": 10**7, "hundred": 10**2,
           "grand": 10**3, "thou": 10**3, "Tsd": 10**3, "tsd": 10**3, "TSD": 10**3,
           "mila": 10**3}
# A scale after a space, before the euro ("57,2 M€", "45 k€", "45 T€", "45 TEUR": T is German
# Tausend there, not a trillion): the scale it writes.
_EURO_SCALES = {"k": "k", "M": "M", "T": "k"}
# A lower-case "m" glued to an amount is a million only after a currency ("£1.2m"); "5m" is
# five metres.
# Scales read only where lakh and crore are how amounts are written (1.2L, 2 Cr): elsewhere
# 1.5L is litres, a glued token.
_LAKH_SCALES = frozenset(("L", "Cr"))
_LAKH_TERRITORIES = frozenset(("IN", "PK", "BD", "NP", "LK"))

_CURRENCY_SIGNS = ("$\u00a2-\u00a5\u058f\u060b\u07fe\u07ff\u09f2\u09f3\u09fb\u0af1\u0bf9\u0e3f"
                   "\u17db\u20a0-\u20c0\ua838\ufdfc")
# Around a number.
_CURRENCY_BEFORE = re.compile(
    rf"((?:US|CA|AU|NZ|HK|NT|SG|MX|R|A|C|S)?\$|[{_CURRENCY_SIGNS}]"
    r"|(?<![A-Za-z])(?:[A-Z]{3}|Rs\.?|kr\.?|zł))[ \u00a0]?\Z")
_PREFIX_LAST = frozenset(_SIGNS + "\u2013$.\u00a2\u00a3\u00a4\u00a5\u20ac\u20b9\u20a9\u20bd\u20ba"
                         "\u20aa\u0e3f\u20ab\u20b1\u20a6\u20b4\u20b8\u20b2\u20b5srł"
                         "ABCDEFGHIJKLMNOPQRSTUVWXYZ\u058f\u060b\u07fe\u07ff\u09f2\u09f3\u09fb"
                         "\u0af1\u0bf9\u17db\ua838\ufdfc"
                         + "".join(chr(c) for c in range(0x20A0, 0x20C1)))
# An ISO code after an amount already written with a sign or a currency word ("$59.99 AUD").
_CODE_AFTER = re.compile(r"[ \u00a0]?([A-Z]{3})(?![A-Za-z])")
_CODE_FIRST = frozenset(" \u00a0ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_ORDINAL_BEFORE = re.compile(r"(?:#|(?<![A-Za-z])(?:No\.?|NO\.?|no\.|[Nn]r\.?|[Nn]°)[ \u00a0]?|第)\Z")
_SUFFIX = re.compile(
    r"(?:(?P<sx>k|K|MM|M|bn|mn|mila|mil|m|tn|B|T|L)(?![A-Za-z0-9])"
    r"|[ \u00a0]?(?P<sx2>bn|tn|mn|Mio|Mrd|Md|Cr|Tsd|TSD|tsd)\.?(?![A-Za-z0-9])"
    r"|[ \u00a0](?P<sx3>k|M|T)(?=[ \u00a0]?(?:\u20ac|EUR(?![A-Za-z])))"
    r"|(?:[ \u00a0]+|[-\u2010](?=(?i:hundred|thousand)))"
    r"(?i:(?P<sw>thousand|million|billion|trillion|lakhs?|lacs?|crores?|tausend|"
    r"millionen|milliarden?|billionen|millions|milliards?|mille|hundred|grand|thou|k|mil))(?![\w-]))?"
    r"(?:(?P<pct>[ \u00a0]?[%\u066a\u2030]|[ \u00a0]+(?i:percent(?!age)|per[ \u00a0]?cent|pct|prozent|"
    r"pour[ \u00a0]?cent|por[ \u00a0]?ciento|per[ \u00a0]?cento)(?![\w]))"
    rf"|[ \u00a0]?(?P<cur>(?:US|CA|AU|NZ|HK|NT|SG|MX|R|A|C|S)\$|[{_CURRENCY_SIGNS}]"
    rf"|(?P<iso>[A-Z]{{3}})(?![A-Za-z])|(?P<code>(?i:{_LOWER_CODES}|xbt|ltc|xrp|xmr|bnb|doge))(?![A-Za-z0-9])"
    rf"|(?:kr|zł|Kč|Ft|lei)\.?(?![A-Za-z])|{_CJK_CURRENCY_WORDS}|[元円块塊원])"
    rf"|[ \u00a0]+(?P<curw>(?i:{_COUNTRY_PATTERN}|us-dollars?|dollars?|euros?|yen|yuan|rupees?|pounds?|quid|bucks|"
    r"dólar(?:es)?|dolares|franken|pesos?|pfund|livres?(?:[ \u00a0]sterling)?|sterlin[ae]|"
    r"francs?(?:[ \u00a0]suisses?)?|franchi(?:[ \u00a0]svizzeri)?|pond(?:en)?|"
    r"libras?(?:[ \u00a0]esterlinas?)?|reais|real)|دولار|रुपये|रुपए)(?![\w]))?"
    r"(?P<mult>[ \u00a0]?[x×X](?![A-Za-z0-9\-])(?![ \u00a0]?[0-9])|[ \u00a0]?倍"
    r"|(?i:[-\u2010]?fold)(?![\w])"
    rf"|[ \u00a0]+(?i:times)(?=[ \u00a0]+(?i:{_TIMES_WHAT})))?")
# The characters a suffix can start with (after at most one space).
_SUFFIX_FIRST = frozenset("kKMBTbmtlLcCpPdDeEyYrRxX×%hHgGaijn\u066a\u2030-\u2010fF倍元円块塊원zZqus"
                          "米美欧歐日英人港韩韓ドユウ달유위엔\u062f\u0930"
                          "ABCDEFGHIJKLMNOPQRSTUVWXYZ$\u00a2\u00a3\u00a4\u00a5\u058f\u060b"
                          "\u07fe\u07ff\u09f2\u09f3\u09fb\u0af1\u0bf9\u0e3f\u17db\ua838\ufdfc"
                          + "".join(chr(c) for c in range(0x20A0, 0x20C1)))
# The fast paths for a plain number (``_Figures.plain_number`` and the start of
# ``_Figures.number``): characters around the digits that start nothing the full reading looks
# for. Before: a space after a character that ends no sign, currency or ordinal mark
# (``_LEFT_BUSY`` always may; ``s``, ``r``, ``o`` and ``ł`` only as the end of Rs, kr, Nr, nr,
# No, zł: ``_LEFT_PAIRS``), or an opening bracket or quote, or a line break (``_LEFT_QUIET``).
# After: the end, closing punctuation (``_RIGHT_QUIET``), or a space followed by anything a
# suffix (12 k, 3 million, 5 %) or a CJK scale (1.2 万) cannot start with; a lower-case word
# after the space is checked by its first three letters (``_SPACED_SUFFIXES``).
_LEFT_PAIRS = {"s": "R", "r": "Nnk", "o": "N", "ł": "z"}
_LEFT_BUSY = (_PREFIX_LAST | frozenset(".oOrR°")) - frozenset(_LEFT_PAIRS)
_LEFT_QUIET = frozenset("\n\t(\"[“‘«")
_RIGHT_QUIET = frozenset(",.;:!?)]\"”\n\t/")
_RIGHT_BUSY = _SUFFIX_FIRST | frozenset("十百千万萬亿億백천만억")
# The first (up to) three letters of every suffix after a space that can start with a
# lower-case letter, case-insensitively (scales, percent words, currencies, x, times, and am or
# pm after a time written with a point), by their first letter.
_SPACED_SUFFIXES: dict[str, tuple[str, ...]] = dict.fromkeys("abcdefghijklmnopqrstuvwxyz", ())
for _prefix in ("bn", "tn", "tsd", "mio", "mrd", "md", "tho", "mil", "bil", "tri", "lak", "cro", "tau",
                "per", "pct", "pro", "pou", "por", "kr", "z", "lei", "dol", "eur", "yen", "yua",
                "rup", "x", "tim", "mn", "lac", "qui", "buc", "us-", "fra", "pes", "pfu",
                "liv", "ste", "pon", "lib", "rea", "hun", "gra", "k", "am", "a.m", "pm", "p.m"):         # and am/pm: "7.30 pm" is a clock time
    _SPACED_SUFFIXES[_prefix[0]] += (_prefix,)
for _prefix in f"{_LOWER_CODES}|xbt|ltc|xrp|xmr|bnb|dog".split("|"):
    if not _SPACED_SUFFIXES[_prefix[0]] or not _prefix.startswith(_SPACED_SUFFIXES[_prefix[0]]):
        _SPACED_SUFFIXES[_prefix[0]] += (_prefix[:3],)
del _prefix
# A lower-case letter that ends no currency (Rs, kr) or ordinal mark (No, Nr): digits glued to
# it are a glued number with no sign, currency, suffix or date (p0, v2).
_GLUED_QUIET = frozenset("abcdefghijklmnopqrstuvwxyz") - frozenset("sro")
_ORDINAL_NEXT = frozenset("snrt")                   # 1st, 2nd, 3rd, 4th
# A multiplication sign after a count ("2x", "2 ×"), and what may stand before a count of items
# that opens a line, a list item or a table cell ("2x Wool Socks", "- 1× Scarf", "| 2x |").
_TIMES_SIGNS = frozenset("xX\u00d7")
# The dash that stands for no cents after a decimal mark ("1.299,– €", "49,- EUR", "Fr. 49.–"),
# and what may follow it when the currency was written before the digits ("€ 49,–.").
_CENTS_DASHES = frozenset("-\u2013\u2014")
_CENTS_END = re.compile(r"(?![\w\-\u2013\u2014])")
# In a locale that groups with a dot and writes a decimal comma (``spaced_cents``), a plain
# space groups thousands only before the decimal comma and two decimals or the dash for no
# cents ("1 299,– €", "12 345,50 €"), up to six groups (a bounded match at every run of a long
# spaced chain); "Seite 1 299" stays two numbers.
_SPACE_GROUPED = re.compile(r"[0-9]{1,3}(?: [0-9]{3}){1,6}"
                            r"(?:,[0-9]{2}(?![0-9])|(?=,[\-\u2013\u2014](?![\w\-\u2013\u2014])))")
_ITEM_OPENERS = frozenset("\n-*\u2022|:")
# Items counted with "N×" that open a line, a list item or a clause after a colon, each ending
# with a comma or a semicolon: a next "N×" after them counts too ("Notenspiegel: 4× sehr gut,
# 9× gut, 8× befriedigend").
_COUNTED_ITEMS = re.compile(r"(?:^|[\n:*\u2022|-])[ \t\u00a0]*(?:[0-9]{1,4}[ \u00a0]?[x\u00d7]"
                            r"[ \u00a0][^\W\d_][^,;\n]{0,40}[,;][ \t\u00a0]*)+\Z")
_CURRENCY_SIGN = re.compile(rf"[{_CURRENCY_SIGNS}]")
_COMPARATIVE_WORDS = frozenset(_COMPARATIVES.split("|"))
_ORDINAL_END = frozenset(".oOrR°")                  # "No. ", "Nr ", "N° " before the space
_DATE_AFTER = frozenset("-./:")                     # 2026-07-29, 29.07.2026, 21:00
_DAY_SUFFIX = _DAY_NEXT - frozenset(" \t\u00a0.")   # 29th, 1st, 2nd, 3rd, 1er
_SPACES = frozenset(" \t\u00a0")
_NBSP_SPACE = frozenset(" \u00a0")
_ASCII_DIGITS = frozenset("0123456789")
# What ends a token (``_token_span``) before or after it: the text's end ("") and a few ASCII
# characters that are no letter, digit, "-" or "_".
_TOKEN_STOP = frozenset(("", " ", "\n", "\t", ".", ",", ";", ":", "!", "?", "(", ")", "[", "]",
                         '"', "'"))
_CLAIMED_BYTE = bytes((_CLAIMED,))
# The value of each run of one to three ASCII digits, as ``Decimal`` reads it ("7", "007",
# "140"): most figures of prose are such runs, and a look-up costs a sixth of parsing one.
_SMALL_RUNS = {f"{n:0{width}d}": Decimal(f"{n:0{width}d}")
               for width in (1, 2, 3) for n in range(10 ** width)}
_ORDINAL_SUFFIX = re.compile(r"(?:st|nd|rd|th)(?![A-Za-z])")
_RANGE_GAP = re.compile(r"(?i)[ \u00a0]?[-\u2010\u2013\u2014~\u301c][ \u00a0]?"
                        r"|[ \u00a0]+(?:to|through|thru|bis|à|au|tot|till|until)[ \u00a0]+"
                        r"|[ \u00a0]?[至到][ \u00a0]?")
# The ASCII words of ``_RANGE_GAP``, as tokens.
_RANGE_WORDS = frozenset(b"to through thru bis au tot till until".split())
# "from N to M" whose "to" links two numbers only after that "from" (by language): "de 8 a 12
# %" (es, pt), "da 8 a 12 %" (it), "von 8 auf 12 %" (de); "a" alone links nothing.
_FROM_TO = {"es": ("de", "a"), "pt": ("de", "a"), "it": ("da", "a"), "de": ("von", "auf")}
# "between N and M" in a language of its own, read in its locale: "entre 6 y 8 semanas" (es),
# "entre 6 et 8 semaines" (fr), "entre 6 e 8 semanas" (pt), "tra 6 e 8 settimane" (it),
# "zwischen 6 und 8 Wochen" (de), "tussen 6 en 8 weken" (nl).
_BETWEEN = {"es": ("entre", "y"), "fr": ("entre", "et"), "pt": ("entre", "e"),
            "it": ("tra", "e"), "de": ("zwischen", "und"), "nl": ("tussen", "en")}
_NUMERIC_KINDS = ("number", "word_number", "multiple")
_DASHES = frozenset("-\u2010\u2013\u2014")
# Words that say a change went down or up when they stand just before its size ("fell 12.5%",
# "up 3"), read here and by ``rulekit.sweep`` (its direction of a change).
# A market's verbs too ("eased 0.3%", "retreated 1.2%", "shed 18 points"), and the verbs that
# move a rate or a price ("cut by 25 bps", "raised 0.25 points"; ``TRANSITIVE_BEFORE``).
FALL_BEFORE = frozenset("down fell fallen falls dropped drops declined declines decreased "
                        "decreases lost loses dipped dips slipped slips sank sunk shrank shrunk "
                        "plunged plummeted tumbled slid eased eases retreated retreats softened "
                        "weakened skidded shed sheds cut cuts lowered reduced trimmed "
                        "slashed slumped slumps tanked sagged".split())
RISE_BEFORE = frozenset("up rose risen rises grew grown grows gained gains increased increases "
                        "climbed climbs jumped jumps surged surges soared rallied advanced "
                        "raised hiked boosted lifted".split())
# Of those, the verbs that also say how many of a thing were moved ("shed 1,000 jobs", "cut 3
# features", "raised $2 million"): they say a direction only of a figure held as a change,
# never make one a change (``rulekit.sweep``'s stated changes), like "lost" and "gained".
TRANSITIVE_BEFORE = frozenset("shed sheds cut cuts lowered reduced trimmed slashed advanced "
                              "raised hiked boosted lifted".split())
# Words that say a change without its direction: lower may be better ("improved by 2.1%").
CHANGED_BEFORE = frozenset("improved improves worsened worsens changed changes moved "
                           "shifted".split())
# "edged higher 0.3% to 6,032.38": "lower" and "higher" before a change then its level too.
_CHANGE_BEFORE = FALL_BEFORE | RISE_BEFORE | CHANGED_BEFORE | {"lower", "higher"}
# A change then the level it reached in French, German, Spanish, Italian, Portuguese and Dutch
# ("baissé de 8 % à 48 210", "gestiegen um 8 % bis 48.210", "gedaald met 8% tot 48.210"): the
# words that say a change went down or up (either way: only ``rulekit.sweep`` reads which),
# the little words between such a word and the size of the change, and the words for "to"
# before the level (whether or not ``_RANGE_GAP`` reads them as a range today).
FALL_OTHER = frozenset(
    "baisse baissé baissée baissés baissées diminué diminuée diminués diminuées diminution "
    "recul reculé reculée chute chuté "
    "gesunken gefallen zurückgegangen sank sanken fiel fielen sinkt fällt rückgang abnahme "
    "bajó bajaron bajado bajada baja cayó cayeron caído caída disminuyó disminuyeron "
    "disminuido disminución descendió descendieron descendido descenso retrocedió retroceso "
    "calo calato calati calata calate sceso scesi scesa scese diminuito diminuiti diminuita "
    "diminuzione ribasso flessione "
    "caiu caíram queda diminuiu diminuíram redução recuou recuo baixa "
    "gedaald daalde daalden daling gezakt zakte afgenomen afname "
    # the present tense and a few more verbs of a fall (probe i18n2 f3): "reculent de 3,2 %",
    # "caen un", "calano del", "recuaram 3,2%" (not "bajan", "suben", "salgono": also download,
    # upload, board)
    "recule reculent baissent diminue diminuent chutent schrumpfte schrumpften geschrumpft "
    "verringerte verringerten abgenommen caen disminuyen calano scendono recuaram "
    "caem".split())
RISE_OTHER = frozenset(
    "hausse augmenté augmentée augmentés augmentées augmentation progressé progressée "
    "progression grimpé bondi "
    "gestiegen gewachsen stieg stiegen wuchs steigt wächst anstieg zuwachs zunahme "
    "subió subieron subido subida aumentó aumentaron aumentado aumento creció crecieron "
    "crecido crecimiento alza "
    "aumentato aumentati aumentata aumentate salito saliti salita salite cresciuto cresciuti "
    "cresciuta crescita rialzo incremento "
    "subiu subiram aumentou aumentaram cresceu cresceram crescimento alta "
    "gestegen steeg stegen stijging gegroeid groeide toegenomen toename "
    "augmente augmentent progresse progressent grimpent erhöhte erhöhten zugenommen aumentan "
    "crecen aumentano crescono".split())
CHANGE_OTHER = FALL_OTHER | RISE_OTHER
# Between the level reached and the German or Dutch verb after it, words that are no noun of
# the level: "auf 48.210 und ist gesunken" is no change then its level.
_NOT_A_NOUN = frozenset("und oder aber ist sind war waren hat haben en of maar is zijn was "
                        "waren heeft hebben".split())
_CHANGE_LINKS = frozenset("de du um von un una en del dell' di em met van".split())
_CHANGE_TO = frozenset("à auf bis a para naar tot".split())
_CENTS_AFTER = re.compile(r"[ \t\u00a0]+(?i:cents?|pence)(?![\w-])")
_AND_GAP = re.compile(r"[ \t\u00a0]+(?i:and)[ \t\u00a0]+")
_START = operator.attrgetter("s")
# A word after "grand" with no currency before the digits makes it an adjective, not a
# thousand: "5 grand pianos" (but "$5 grand in cash" is $5,000, and "it cost 5 grand." too),
# and so do the nouns "grand" is said with after an amount ("a $35 grand total").
_WORD_AFTER = re.compile(r"[ \u00a0]+([^\W\d_]+)")
_GRAND_NOUNS = frozenset("total totals prize prizes opening finale tour slam slams".split())
# Fractions (``_Figures.fraction``): the fraction slash (NFKC writes ½ as "1⁄2"), the
# denominator after a slash, and the superscript digits of a numerator (2¹⁄₂); and what a
# leading decimal point may follow (".5", "(.5%)", "$.99", "-.5"), not a letter or a digit
# ("v.2").
_FRACTION_SLASH = "\u2044"
_DENOMINATOR = re.compile(r"[0-9]{1,9}(?![0-9])")
_SUPERSCRIPT_DIGITS = frozenset("\u00b9\u00b2\u00b3\u2070\u2074\u2075\u2076\u2077\u2078\u2079")
_POINT_AFTER = re.compile(rf"[\s(\[\"“‘«~+\-\u2212{_CURRENCY_SIGNS}]")


def _sign_ok(text: str, at: int) -> bool:
    """Whether a sign character at ``at`` may be a sign: not after a letter, digit or closing
    bracket (RC-500, 10-12), nor after a dash (the range after the dash for no cents:
    "1,–-5,– €")."""
    if at == 0:
        return True
    char = text[at - 1]
    return not (char.isalnum() or char in "-+.,_)]%\u2030'’/\u2013\u2014")


def _dash_minus(text: str, at: int) -> bool:
    """Whether the en dash at ``at``, right before digits, is a minus ("Apple: –1.33%",
    "(–3.12)"): at the start, or after a space, a colon or an opening bracket that follows no
    digit ("10 –12" is a range)."""
    if at == 0:
        return True
    char = text[at - 1]
    return char in " \u00a0\t\n:([" and (at < 2 or not text[at - 2].isdigit())


# The words that join two days or hours after "between" (``_When.between_before``).
_BETWEEN_JOINS = ("and ", "et ", "und ", "y ", "e ", "en ")


# An HTML heading tag's level, in the ASCII-lower-cased text: not a figure of the answer.
_HEADING_TAG = re.compile(r"</?h[1-6](?=[\s/>])")


# The square or cube of a unit of length, in the cleaned text ("ft²" is "ft2" there): "1,850
# ft²", "€3,000/m2", "price per ft²", "Area (m²)", "120 m³" hold no figure 2 or 3. Lower-case
# letters after a number, a slash, a bracket or "per" only: "the BMW M3", "an m2 chip" are names.
# An "a" after the square is the year of German energy figures: "kWh/m²a", "kWh/(m²a)".
_UNIT_POWER = re.compile(r"(?:(?<=[0-9/(])|(?<=[0-9][ \u00a0])|(?<=per ))"
                         r"(?:ft|m|km|cm|mm|mi|yd)([23])a?(?![A-Za-z0-9])")


def _may_square(low: str) -> bool:
    """The first look for ``_UNIT_POWER``: whether the text could hold a unit's square or cube."""
    return "m2" in low or "t2" in low or "m3" in low or "t3" in low or "i2" in low \
        or "d2" in low


class _Figures:
    """Numbers at each run of digits, and ranges; a part of ``_Scanner``."""

    def digits(self) -> None:
        mask = self.mask
        if "<" in self.text:
            # the level of an HTML heading tag ("<h2>", "</H3>", "<h1 class=...>") is markup
            for match in _HEADING_TAG.finditer(self.low):
                mask[match.end() - 1] = _IDIOM
        if _may_square(self.low):
            for match in _UNIT_POWER.finditer(self.text):
                mask[match.start(1)] = _IDIOM       # the power of a unit is the unit's
        end = 0
        for match in _DIGITS.finditer(self.text):
            s, e = match.span()
            # A run that starts inside the last figure was read with it ("299" and "00" of
            # "1,299.00"), or is the rest of a run the figure began in; a claimed one is a
            # link's or a date's.
            if s < end or mask[s]:
                continue
            end = self.plain_number(s, e)
            if end is None:
                end = self.date_at(s, e)
                if end is None:
                    end = self.number_at(s)

    def token_span(self, s: int, e: int) -> tuple[int, int]:
        """``_token_span`` of the digits at [s, e), whole however long: a transaction's hash
        or a wallet's address ("0x3f2a…9c1d", 66 characters) is one token, so that its prefix
        is another code, not the same name. Walked past the cap once per long token: the runs
        of digits inside it take the span already found."""
        known = self.long_token
        if not (known[0] <= s and e <= known[1]):
            left, right = _token_span(self.text, s, e)
            if s - left < _TOKEN_CAP and right - e < _TOKEN_CAP:
                return left, right
            known = self.long_token = _token_span(self.text, s, e, len(self.text))
        if known[1] - known[0] <= _TOKEN_WHOLE:
            return known
        # longer than any code: within the cap of these digits, as a slice per run of digits
        return max(known[0], s - _TOKEN_CAP), min(known[1], e + _TOKEN_CAP)

    def plain_number(self, s: int, e: int) -> int | None:
        """The fast path of ``date_at`` then ``number_at`` for the run of digits [s, e): a plain
        or grouped number between quiet characters ("2,380 views", "(42)", "4.6%", "$1,299",
        "p0"), claimed as they would claim it; or None, having changed nothing, when anything
        around it needs them. Most figures in prose are such numbers; each test below is a
        cheap necessary condition for something ``date_at`` or ``number`` could find instead."""
        text, info, low = self.text, self.info, self.low
        before = text[s - 1] if s else " "
        glued = dollar = False
        after = text[e:e + 1]
        if before in _SPACES:
            # not a sign, currency or ordinal mark, nor a month ("July 29") before the space
            # (``_left_quiet`` inlined: most numbers in prose are read here)
            if s >= 2:
                char = text[s - 2]
                if char in _LEFT_BUSY:
                    return None
                if char in _LEFT_PAIRS and s > 2 and text[s - 3] in _LEFT_PAIRS[char]:
                    return None
                if (low[s - 2] in info.month_ends or char in _MARK_LAST) \
                        and self.month_word_before(s):
                    return None
        elif before in _GLUED_QUIET:
            glued = True                        # p0, v2: no sign, currency or date after a letter
        elif before == "$":
            # a plain "$" (not US$, -$, No $): what _CURRENCY_BEFORE finds, and no ordinal mark
            dollar = s < 2 or text[s - 2] in _LEFT_QUIET or (
                text[s - 2] in _NBSP_SPACE and (s < 3 or text[s - 3] not in _ORDINAL_END))
            if not dollar or s >= 2 and text[s - 2] == "(":
                return None                     # "($5.00)" may be accounting's minus
        elif before not in _LEFT_QUIET:
            return None
        if not glued:
            if e - s == 1 and text[s] == "3" and low.endswith("from ", 0, s) \
                    and self.from_three(s, e):
                return e                # "4 of 9 from 3": the three-point line, no number
            if after in _DATE_AFTER:
                # a decimal point (4.6) only if it starts no numeric date (4.6.2026)
                if after != "." or text[e + 1:e + 2] not in _ASCII_DIGITS or (
                        e - s <= 4 and _NUMERIC_DATE.match(text, s)):
                    return None
            if self.has_east_asian and e - s <= 4:
                return None
            if e - s <= 2:
                # (``_at_before`` only when the cheap slice says "at " ends there)
                # (each of ``_AT_BEFORE`` ends in "t " or "l ": the slices only after those)
                if self.hours or (s < 4 or before == " " and low[s - 2] in "tl" and (
                        low[s - 3:s] == "at " or low[s - 4:s] in _AT_BEFORE)) \
                        and _at_before(low, s) and (
                        after != "." or text[e + 1:e + 2] not in _ASCII_DIGITS):
                    return None                 # 21 Uhr, 21h30; "at 8", "until 10" (``_When``)
                if self.day_parts and _word_before(low, s) in _DAY_PART_INTRO_LAST:
                    return None                 # "esta noche a las 10" (``_When.half_before``)
                if after == "." and reads_dot_times(info.locale, info.language) \
                        and _DOT_TIME.match(text, s):
                    return None                 # en_GB "until 18.00" (``_When.dot_time``)
                if after in _SPACES:
                    # not "29 July", "29 of July", "9 pm"
                    nxt = text[e + 1:e + 2]
                    if nxt and (not nxt.isascii() or nxt in info.after_day or (
                            nxt in "aeuy" and low.startswith(_BETWEEN_JOINS, e + 1)
                            and self.between_before(s))):
                        return None             # (and "between 5 and 6 pm", "entre el 3 y
                                                # el 5 de diciembre": ``_When``)
                elif after in _DAY_SUFFIX or after in _AMPM_NEXT:
                    return None                 # 29th, 9pm (29. Juli: no digit after the dot)
        if after in info.core_on:
            core = info.core.match(text, s)
            end = core.end()
            digits = core.group()
            nxt = text[end:end + 1]
        else:
            # what ``core`` would match: the run alone
            end, digits, nxt = e, text[s:e], after
        mask = self.mask
        if mask.count(0, s, end) != end - s:
            return None
        if digits.isdigit():
            value, decimals = _SMALL_RUNS.get(digits), 0
            if value is None:
                value = Decimal(digits) if end - s <= MAX_DIGITS else None
        else:
            read = _core_value(digits, info.locale) if end - s <= MAX_DIGITS else None
            if read is None:
                return None
            value, decimals = read
        percent = False
        if glued:
            if nxt in _ORDINAL_NEXT:
                return None                     # p1st
        elif nxt == "%" and not dollar and value is not None:
            percent = True                      # 4.6%, as ``suffix`` reads it
        elif nxt == info.decimal and text[end + 1:end + 2] in _CENTS_DASHES:
            return None                         # 1.299,– €: the dash for no cents (``number``)
        elif nxt and nxt not in _RIGHT_QUIET:
            if nxt not in _NBSP_SPACE:
                return None
            # ``_right_quiet(text, end + 1)``, inlined
            first = text[end + 1:end + 2]
            prefixes = _SPACED_SUFFIXES.get(first)
            if prefixes is None:
                if first in _RIGHT_BUSY:
                    return None
            # (the three characters ASCII, so lower-cased as in ``low``; no prefix is longer)
            elif not (self.ascii or text[end + 1:end + 4].isascii()) \
                    or prefixes and low.startswith(prefixes, end + 1):
                return None
            if nxt == " " and info.spaced_cents and first in _ASCII_DIGITS:
                return None                     # 1 299,– € (``number_at``)
        hit = _Hit("number", s, end, value)
        hit.decimals = decimals
        if glued:
            hit.glued = True
            if nxt in _TOKEN_STOP and text[s - 2:s - 1] in _TOKEN_STOP:
                # "p0 ", "(v2)": the letter and the digits are the whole token (what
                # ``token_span`` finds: neither side goes on with a letter, digit, "-" or "_")
                hit.token_span, hit.token = (s - 1, end), text[s - 1:end]
            else:
                left, right = hit.token_span = self.token_span(s, end)
                hit.token = text[left:right]
        else:
            hit.token = digits                  # text[s:end]
        if percent:
            hit.percent, hit.e = True, end + 1
            end += 1
        elif dollar:
            hit.currency, hit.s = _currency_for("$", info.locale), s - 1
            s -= 1
        mask[s:end] = _CLAIMED_BYTE * (end - s)     # self.claim(hit), inlined
        self.hits.append(hit)
        return end

    def number_at(self, s: int) -> int:
        text, locale = self.text, self.info.locale
        core = self.info.core.match(text, s)
        end = core.end()
        if not self.free(s, end):
            # the run reaches into a link or a date: read only the digits before it
            end = s + 1
            while end < core.end() and not self.mask[end]:
                end += 1
            core = _CORE.match(text, s, end)
            end = core.end()
        digits = core.group()
        if text[end:end + 1] == " " and end - s <= 3 and self.info.spaced_cents:
            grouped = _SPACE_GROUPED.match(text, s)
            if grouped is not None and self.free(s, grouped.end()):
                # "1 299,– €", "12 345,50 €" in a locale that groups with a dot
                whole, _, cents = grouped.group().partition(",")
                end = grouped.end()
                value = Decimal(whole.replace(" ", "") + ("." + cents if cents else ""))
                hit = self.number(s, end, value, len(cents), None)
                return max(hit.e, end)
        if text[end:end + 1] == _FRACTION_SLASH and not digits.isdigit():
            # "2 ½" ("2 1⁄2" once cleaned): a space before a fraction groups no digits
            cut = max(digits.rfind(" "), digits.rfind(_NBSP))
            if cut > 0:
                digits, end = digits[:cut], s + cut
        # The common cases of _pieces without its list: plain digits, or digits and separators
        # that read as one number.
        if digits.isdigit():
            nxt = text[end:end + 1]
            if nxt == "/" or nxt == _FRACTION_SLASH:
                found = self.fraction(s, end)
                if found is not None:
                    return found
            if s and text[s - 1] == "." and end - s <= MAX_DIGITS and not self.mask[s - 1] \
                    and (s == 1 or _POINT_AFTER.match(text, s - 2)):
                # a leading decimal point: ".12M" is 0.12M, "$.99" 0.99 (not after a letter
                # or a digit: "v.2", "in 2026.5 items")
                hit = self.number(s - 1, end, Decimal(text[s - 1:end]), end - s, None)
                return max(hit.e, end)
            hit = self.number(s, end, Decimal(digits) if end - s <= MAX_DIGITS else None, 0, None)
            return max(hit.e, end)
        read = _core_value(digits, locale) if end - s <= MAX_DIGITS else None
        if read is not None:
            hit = self.number(s, end, read[0], read[1], None)
            return max(hit.e, end)
        consumed = s
        for piece_s, piece_e, value, decimals, token in _pieces(digits, locale):
            if s + piece_s < consumed:
                continue
            hit = self.number(s + piece_s, s + piece_e, value, decimals, token)
            if token:
                hit.token_span = (s, end)
            consumed = max(consumed, hit.e)
        return max(consumed, end)

    def fraction(self, s: int, e: int) -> int | None:
        """A fraction whose numerator ends the run of digits [s, e), before a fraction slash
        (½ is "1⁄2" once cleaned) or a "/": its end, or None when it is not one (the digits
        are then read as usual). A whole number before it makes a mixed number: in the same run
        when the numerator comes from a vulgar fraction or superscript digits ("2½" and "2¹⁄₂"
        are "21⁄2" once cleaned, but 2.5: ``_numerator_at``), or before a space ("2 ½", "2
        1⁄2", "3 1/2 stars"). With "/" only such a mixed number is read, a proper fraction
        with a denominator up to 16: "1/2" alone is a ratio or a date. A fraction whose
        decimals do not end (⅓, 2⅔) has the quotient to the context's precision as its value
        and 0 as its decimals, like "a third of": it matches no stored figure, rounded or not
        (fail closed). Alone, a fraction before "off" or "price" or after "save" is a discount
        ("½ price" is 50 %, like "half price")."""
        text = self.text
        slash = text[e]
        found = _DENOMINATOR.match(text, e + 1)
        if found is None or not self.free(e, found.end()):
            return None
        end = found.end()
        at = _numerator_at(self.prepared, s, e) if slash == _FRACTION_SLASH else s
        if e - at > 9 or at - s > 15 or text[end:end + 1] in ("/", _FRACTION_SLASH):
            return None
        numerator, denominator = int(text[at:e]), int(found.group())
        if denominator == 0:
            return None
        whole = last = None
        if at > s:
            whole = text[s:at]              # 2½
        elif s >= 2 and text[s - 1] in _NBSP_SPACE and numerator < denominator and self.hits:
            last = self.hits[-1]            # 2 ½, 3 1/2: the whole number was read already
            if last.kind == "number" and last.e == last.core_e == s - 1 \
                    and last.core_e - last.core_s <= 15 and text[last.core_s:s - 1].isdigit() \
                    and not (last.percent or last.scaled or last.glued or last.ordinal) \
                    and last.pair is None:
                whole = text[last.core_s:s - 1]
        if slash == "/" and (whole is None or denominator > 16 or (
                text[end:end + 1] in ".," and text[end + 1:end + 2].isdigit())):
            return None
        if whole is not None and last is not None:
            self.hits.pop()                 # read again with its fraction, sign and currency
            s = last.core_s
        value = Decimal(numerator) / Decimal(denominator)
        decimals = max(0, -value.normalize().as_tuple().exponent) \
            if value * denominator == numerator else 0
        if whole is not None:
            value += Decimal(whole)
        hit = self.number(s, end, value, decimals, None)
        if whole is None and hit.kind == "number" and hit.currency is None \
                and not (hit.percent or hit.scaled):
            from rulekit.scan.words import _OFF_NEXT, _SAVE_PREV, _share_off  # (imports us)
            low = self.low
            if _word_after(low, end) in _OFF_NEXT or _word_before(low, hit.s) in _SAVE_PREV:
                _share_off(hit)             # ½ off, ½ price, ½-price, save ⅓
                hit.decimals = max(0, decimals - 2)     # ⅛ off: 12.5 %
                if hit.glued:               # ½-price: the word is context, as in "half-price"
                    hit.glued, hit.token_span, hit.token = False, None, text[s:end]
        return max(hit.e, end)

    def number(self, s: int, e: int, value: Decimal | None, decimals: int,
               version: str | None) -> _Hit:
        text = self.text
        if version is None:
            # Fast path: a plain number between quiet characters (most figures in prose) has
            # no sign, currency, scale, ordinal or glue, so the checks below would all fail.
            last = text[s - 1] if s else " "
            if last in _LEFT_QUIET or (last in " \u00a0" and (s < 2 or _left_quiet(text, s - 2))):
                nxt = text[e:e + 1]
                if not nxt or (nxt in _RIGHT_QUIET and text[e + 1:e + 2] not in _CENTS_DASHES) \
                        or (nxt in " \u00a0" and _right_quiet(text, e + 1)):
                    hit = _Hit("number", s, e, value)
                    hit.decimals = decimals
                    hit.token = text[s:e]
                    self.mask[s:e] = _CLAIMED_BYTE * (e - s)     # self.claim(hit), inlined
                    self.hits.append(hit)
                    return hit
        hit = _Hit("number", s, e, value)
        hit.decimals = decimals
        start, end = s, e
        # before the digits: a sign, a currency, both ("-$5", "$-5", "USD 5")
        sign = currency_text = None
        last = text[s - 1] if s else ""
        if last in (" ", _NBSP) and s >= 2:
            last = text[s - 2]
        if last in _PREFIX_LAST:
            if text[start - 1] in _SIGNS and _sign_ok(text, start - 1) \
                    or text[start - 1] == "\u2013" and _dash_minus(text, start - 1):
                sign, start = text[start - 1], start - 1
            found = _CURRENCY_BEFORE.search(text, max(0, start - 6), start) if start else None
            if found:
                symbol = found.group(1)
                if (not symbol.isalpha() or symbol in ("Rs", "kr", "zł", "Rs.", "kr.")
                        or (len(symbol) == 3 and symbol in _iso_codes())):
                    currency_text, start = symbol, found.start()
                    if sign is None and start and text[start - 1] in _SIGNS \
                            and _sign_ok(text, start - 1):
                        sign, start = text[start - 1], start - 1
        if start >= 3 and text[start - 1] == "之" and text[start - 3:start] == "百分之":
            start -= 3
            hit.percent = True
        if not version and start and (text[start - 1] in "#°.oO第rR" or (
                start > 1 and text[start - 1] in " \u00a0" and text[start - 2] in ".oOrR°")) \
                and _ORDINAL_BEFORE.search(text, max(0, start - 4), start):
            hit.ordinal = True
        glued_left = currency_text is None and sign is None and start > 0 and (
            _is_glue(text[start - 1])
            or (text[start - 1] in "-_" and start >= 2 and _is_glue(text[start - 2])))
        # after the digits: a scale, a percent sign or a currency, a multiple, an ordinal
        nxt = text[e:e + 1]
        if value is not None and not glued_left and nxt and (nxt in " \u00a0" or not nxt.isascii()):
            found = None if self.ascii else _CJK_SCALE.match(text, e)
            if found:
                end = self.cjk_scale(hit, found)
                value = hit.value
                if currency_text is None and text[end:end + 1] in _CJK_CURRENCY_FIRST:
                    word = _CJK_CURRENCY_AT.match(text, end)   # 1.2万元, 3千円, 2万美元
                    if word:
                        currency_text, end = word.group(), word.end()
        if value is not None and not glued_left and end == e and nxt and (
                nxt in _SUFFIX_FIRST or (nxt in " \u00a0" and text[e + 1:e + 2] in _SUFFIX_FIRST)):
            found = _SUFFIX.match(text, e)
            if found and found.end() > e:
                end, currency_text = self.suffix(hit, found, e, currency_text)
        elif value is not None and not glued_left and end == e and nxt == self.info.decimal \
                and text[e + 1:e + 2] in _CENTS_DASHES and hit.decimals == 0:
            end, currency_text = self.dash_cents(hit, e, currency_text)
        if value is not None and sign is None and not glued_left and end < len(text) \
                and text[end] in _TRAILING_MINUS and not hit.percent \
                and self.info.language != "en":
            # "5,00- €", "5,00 €-": a trailing minus, as German and Nordic statements write it
            end, currency_text, sign = self.trailing_minus(hit, end, currency_text)
        elif value is not None and sign is None and currency_text is not None and start \
                and text[start - 1] == "(" and text[end:end + 1] == ")" \
                and _ACCOUNTING_BEFORE.search(text, max(0, start - 24), start - 1):
            # "Your balance is ($5.00).", "Balance: ($5.00)": accounting's minus, brackets kept
            sign, start, end = "-", start - 1, end + 1
        if currency_text is not None:
            symbol = currency_symbol(currency_text)
            hit.currency = _currency_for(symbol, self.info.locale)
            if text[end:end + 1] in _CODE_FIRST:
                # "$59.99 AUD", "59,99 € EUR": a code after the sign settles the currency
                code = _CODE_AFTER.match(text, end)
                if code is not None and code.group(1) in _iso_codes() \
                        and self.free(end, code.end()):
                    hit.currency = _with_code(symbol, hit.currency, code.group(1))
                    end = code.end()
            elif currency_text in _YUAN_SIGNS and hit.decimals == 0 and not hit.scaled:
                tail = _yuan_tail(text, end)        # 5块5, 5元5角: 5.5 yuan
                if tail is not None and self.free(end, tail[2]):
                    hit.value += tail[0] if hit.value >= 0 else -tail[0]
                    hit.decimals, end = tail[1], tail[2]
        if hit.kind == "number" and end == e and not version and hit.value is not None \
                and text[e:e + 1] in ("s", "n", "r", "t"):
            found = _ORDINAL_SUFFIX.match(text, e)
            if found:
                hit.ordinal = True
                end = found.end()
        glued_right = end == e and e < len(text) and (
            _is_glue(text[e]) or (text[e] in "-_" and e + 1 < len(text) and _is_glue(text[e + 1])))
        if version:
            hit.glued, hit.token = True, version
        elif glued_left or glued_right:
            hit.glued = True
            hit.token_span = self.token_span(s, e)
            hit.token = text[hit.token_span[0]:hit.token_span[1]]
            if currency_text is None:
                sign, start = None, s       # +5G, -3D: a name, not a signed number
        else:
            hit.token = text[s:e]
        if sign is not None:
            hit.sign = "+" if sign == "+" else "-"
            if hit.sign == "-" and hit.value is not None:
                hit.value = -hit.value
        hit.s, hit.e, hit.core_s, hit.core_e = start, end, s, e
        return self.claim(hit)

    def suffix(self, hit: _Hit, found: re.Match, e: int, currency_text: str | None):
        """Read the scale, percent, currency and multiple written after the digits."""
        end = e
        # All groups in one call: each ``group`` call costs about as much as the test on it.
        sx, sx2, sw, pct, cur, iso, curw, mult, code = found.group(
            "sx", "sx2", "sw", "pct", "cur", "iso", "curw", "mult", "code")
        scale_text = sx or sx2 or sw
        if scale_text is None and found.group("sx3"):
            scale_text = _EURO_SCALES[found.group("sx3")]
        elif scale_text == "m":
            if currency_text is None:
                return e, currency_text                    # 5m: metres, glued
            scale_text = "M"                               # £1.2m
        elif sx == "mil":
            if self.info.language in ("es", "pt"):
                scale_text = "thousand"                    # 48mil, R$ 48mil
            elif self.info.language != "en" or currency_text is None:
                return e, currency_text                    # 5mil: mils, glued
        if scale_text:
            single_k = scale_text == "K" and hit.core_e - hit.core_s == 1 and currency_text is None
            if single_k or (scale_text in ("B", "T") and currency_text is None):
                return e, currency_text                    # 4K, 2B: a name, glued
            if scale_text in _LAKH_SCALES and not _writes_lakhs(self.info.locale):
                return e, currency_text                    # 1.5L outside South Asia: litres
            # Lower-casing "İ" leaves a combining dot ("mİllion" -> "mi̇llion"): a reader sees
            # "million". A word the table still lacks is not read as a scale at all.
            key = scale_text if scale_text in _SCALES else scale_text.lower().replace("\u0307", "")
            if sw and key in ("k", "K", "mil") and (
                    currency_text is None or (key == "mil" and self.info.language != "en")):
                return e, currency_text     # "5 K run", "5 mil euros" (es: words.py reads it)
            if key == "mil":
                key = "million"             # "$5 mil" in English
            if key == "grand":
                word = _WORD_AFTER.match(found.string, found.end("sw"))
                if word and (currency_text is None or word.group(1).lower() in _GRAND_NOUNS):
                    return e, currency_text     # "5 grand pianos", "$35 grand total": adjectives
            scale = self.info.billion if key == "billion" else _SCALES.get(key)
            if scale is not None:
                hit.value *= scale
                hit.scaled, hit.scale = True, scale
                end = _scale_end(found)
        if pct and currency_text is None:
            hit.percent = True
            end = found.end("pct")
            if pct[-1] == "\u2030" and hit.value is not None:
                # per mille: 4.6‰ is 0.46 %, kept as the percentage it is
                hit.value, hit.decimals = hit.value.scaleb(-1), hit.decimals + 1
        elif currency_text is None and (cur or curw):
            if iso is not None and iso not in _iso_codes() and iso not in _TICKERS:
                return end, None
            if curw is not None and curw.lower() == "real" and self.info.language != "pt":
                return end, None                # "12 real reviews": an adjective
            currency_text = (code.upper() if code else cur) or curw
            end = found.end("cur") if cur else found.end("curw")
        if mult and not hit.percent and end == (found.start("mult")):
            end = found.end("mult")
            if not (mult.strip(" \u00a0") in _TIMES_SIGNS and self.quantity(hit, end)):
                hit.kind = "multiple"
        return end, currency_text

    def trailing_minus(self, hit: _Hit, end: int, currency_text: str | None):
        """(end, currency, sign) of an amount whose minus is written after it ("5,00- €",
        "5,00 €-", "EUR 5,00-"): read only with a currency, before or after the minus, and not
        where a range goes on after it ("5-6 €", "€5-€10"); else as it was."""
        text = self.text
        after = end + 1
        if currency_text is None:
            found = _SUFFIX.match(text, after) if text[after:after + 1] in _SUFFIX_FIRST \
                or text[after:after + 1] in " \u00a0" and text[after + 1:after + 2] in _SUFFIX_FIRST \
                else None
            if found is None or not (found.group("cur") or found.group("curw")) \
                    or not self.free(end, found.end()):
                return end, currency_text, None
            after, currency_text = self.suffix(hit, found, after, None)
            if currency_text is None:
                return end, None, None
        rest, nxt = text[after:after + 3].lstrip(" \u00a0"), text[after:after + 1]
        if rest[:1].isdigit() or rest[:1] and _CURRENCY_SIGN.match(rest[:1]) \
                or nxt and (nxt.isalnum() or nxt in "-\u2010") \
                or not self.free(end, after):       # "10 €-Gutschein", "10-€-Gutschein"
            return end, currency_text if after == end + 1 else None, None
        return after, currency_text, "-"

    def dash_cents(self, hit: _Hit, e: int, currency_text: str | None):
        """"1.299,– €", "49,- EUR", "€ 49,–": a price whose cents are a dash after the decimal
        mark, no cents. The dash is the price's when a currency stands after it, maybe after a
        scale ("1.299,– Mio. €", read as ``suffix`` reads it), or before the digits, or when
        it opens a range whose other end has digits ("1,- bis 5,- €": ``ranges`` then gives
        it the other end's currency); otherwise the digits end before the mark."""
        text = self.text
        after = e + 2
        if currency_text is not None:
            if _CENTS_END.match(text, after):
                return after, currency_text
            return e, currency_text
        found = _SUFFIX.match(text, after)
        if found is None or not (found.group("cur") or found.group("curw")) \
                or found.group("mult") is not None:
            # a range may start right after the dash, with a space or a dash ("1,- bis 5,- €",
            # "1,-–5,- €")
            gap = _RANGE_GAP.match(text, after) if _CENTS_END.match(text, after) \
                or text[after:after + 1] in _CENTS_DASHES else None
            if gap is not None and text[gap.end():gap.end() + 1].isdigit():
                return after, currency_text
            return e, currency_text
        return self.suffix(hit, found, after, currency_text)

    def quantity(self, hit: _Hit, end: int) -> bool:
        """Whether "2x" (ending at ``end``) counts items in an order rather than multiplying:
        before a price ("2x $20", "2 × €15"), or opening a line, a list item or a table cell
        before a word ("2x Wool Socks", "- 1× Scarf"), or before a capitalised word, a product's
        name ("and 1x Pin"), unless a comparative follows ("3x More reach"). Read as the number,
        it must be the quantity the evidence holds."""
        text = self.text
        nxt = text[end + 1:end + 2] if text[end:end + 1] in " \u00a0" else text[end:end + 1]
        if nxt and _CURRENCY_SIGN.match(nxt):
            return True
        head = text[max(0, hit.s - 3):hit.s].rstrip(" \u00a0\t")
        if text[end:end + 1] not in " \u00a0" or not (nxt.isalpha() or nxt == "|" == head[-1:]):
            return False
        if _word_after(self.low, end) in _COMPARATIVE_WORDS:
            return False                    # "3x more reach", "2x the views"
        # before a capitalised word, a product's name: "2x Sticker Pack ($20 each) and 1x Pin"
        if (head == "" and hit.s <= 3) or head[-1:] in _ITEM_OPENERS or nxt.isupper():
            return True
        # after a comma, the next of items counted so: "4× sehr gut, 9× gut"
        return head[-1:] in (",", ";") and _COUNTED_ITEMS.search(
            text, max(0, hit.s - 400), hit.s) is not None

    def cents(self) -> None:
        """An amount and its cents written apart ("forty-nine dollars and ninety-nine cents",
        "$49 and 99 cents") are one amount, 49.99: two mentions would be two figures, neither
        of which the evidence holds. Cents alone ("99 cents") are the amount 0.99."""
        text, hits = self.text, self.hits
        ordered = sorted((h for h in hits if h.kind in _NUMERIC_KINDS), key=_START)
        merged = set()
        for a, b in zip(ordered, ordered[1:]):
            if a.currency is None or a.value is None or a.percent or b.value is None \
                    or b.currency is not None or b.percent or id(a) in merged:
                continue
            if not (0 <= b.value < 100 and b.value == b.value.to_integral_value()
                    and a.value == a.value.to_integral_value()):
                continue
            tail = _CENTS_AFTER.match(text, b.e)
            if tail is None or _AND_GAP.fullmatch(text, a.e, b.s) is None:
                continue
            a.value += b.value.scaleb(-2) if a.value >= 0 else -b.value.scaleb(-2)
            a.decimals, a.e = 2, tail.end()
            merged.add(id(b))
        for hit in ordered:
            # cents alone: "99 cents" is the amount 0.99
            if id(hit) in merged or hit.value is None or hit.currency is not None \
                    or hit.percent or hit.kind == "multiple" or hit.scaled \
                    or hit.value != hit.value.to_integral_value():
                continue
            tail = _CENTS_AFTER.match(text, hit.e)
            if tail is not None:
                hit.value, hit.decimals, hit.e = hit.value.scaleb(-2), 2, tail.end()
        if merged:
            self.hits = [h for h in hits if id(h) not in merged]

    def ranges(self) -> None:
        text = self.text
        # Every pair this pass links or changes has a dash, a tilde, a minus sign or a joining
        # word between its ends: in an ASCII text, a few C-level tests skip the pass.
        # (Each joining word stands between spaces, so it is also a token of the text.)
        language = self.info.language
        from_to = _FROM_TO[language] if language in _FROM_TO else None
        between = _BETWEEN[language] if language in _BETWEEN else ("between", "and")
        if self.ascii and "-" not in text and "~" not in text and "between" not in self.low \
                and between[0] not in self.low \
                and _RANGE_WORDS.isdisjoint(self.ascii_tokens()) \
                and (from_to is None or from_to[1].encode() not in self.ascii_tokens()):
            return
        numeric = [h for h in self.hits if h.kind in _NUMERIC_KINDS]
        numeric.sort(key=_START)
        last = len(numeric) - 1
        index = 0
        while index < last:
            a, b = numeric[index], numeric[index + 1]
            index += 1
            if b.s < a.e:
                continue
            if b.sign == "-" and b.kind == "number" and a.e < b.s and text[a.e:b.s].isspace() \
                    and not a.glued and a.kind != "multiple":
                b.s, b.sign = b.s + 1, None     # 10 -12: a range, not minus twelve
                if b.value is not None:
                    b.value = -b.value
            gap = text[a.e:b.s]
            if gap == "-" and a.kind == b.kind == "number" and not (a.percent or b.percent) \
                    and a.currency is None and not a.glued:
                chain = [a, b]                  # a phone number, a code: 555-123-4567
                while index < last and numeric[index + 1].kind == "number" \
                        and text[numeric[index].e:numeric[index + 1].s] == "-":
                    chain.append(numeric[index + 1])
                    index += 1
                if len(chain) >= 3 or (len(chain) == 2 and a.core_e - a.core_s == 3
                                       and b.core_e - b.core_s == 4 and a.s == a.core_s):
                    span = (chain[0].core_s, chain[-1].core_e)
                    for hit in chain:
                        hit.glued, hit.sign, hit.token_span = True, None, span
                        hit.token = text[span[0]:span[1]]
                    index += 1
                    continue
            if a.glued or b.glued or a.ordinal or b.ordinal or a.pair or b.pair:
                continue
            if _RANGE_GAP.fullmatch(gap) is None and not (
                    gap.strip().lower() in ("and", between[1])
                    and _word_before(self.low, a.s) in ("between", between[0])) \
                    and not (from_to and gap[:1] in _NBSP_SPACE and gap[-1:] in _NBSP_SPACE
                             and gap[1:-1].lower() == from_to[1]
                             and _word_before(self.low, a.s) == from_to[0]):
                continue
            if b.currency and a.currency is None and not a.percent and gap[:1] in _NBSP_SPACE \
                    and gap.strip(" \u00a0") in _DASHES \
                    and _CURRENCY_SIGN.search(text, b.s, b.core_s):
                continue                        # "Trail Runner 3 — $79.99": a name, then a price
            joint = gap.strip(" \u00a0").lower()
            if joint == "to" and not b.percent \
                    and change_word_before(self.low, a.s) in _CHANGE_BEFORE:
                continue                        # "fell 12.5% to 48,210"; not "fell 8 to 10%"
            if joint in _CHANGE_TO and not b.percent and (
                    _change_other_before(self.low, a.s) or _change_other_after(self.low, b.e)):
                continue                        # "baissé de 8 % à 48 210"; not "de 8 à 10 %";
                # "met 8% tot 48.210 gedaald", "um 8 % bis 48.210 gesunken": the word after
            a.pair, b.pair = b, a
            self.paired = True
            if a.currency and b.currency and a.currency != b.currency and a.s < a.core_s \
                    and text[b.e - 3:b.e] == b.currency:
                # "$10-$12 AUD", "$10-12 AUD": the code after the range names both ends, when
                # the first one's sign may write it ("£10-12 USD" is both currencies)
                a.currency = _with_code(text[a.s:a.core_s].strip(" \u00a0+-\u2212"), a.currency,
                                        b.currency)
            per_mille = not a.percent and text[b.e - 1] == "\u2030"
            _share_range(a, b)
            if per_mille and a.percent and a.value is not None:
                a.value, a.decimals = a.value.scaleb(-1), a.decimals + 1    # 1-2‰: 0.1-0.2 %


def change_word_before(text: str, s: int) -> str:
    """The word just before s, lower-cased, or the one before "by" just before it ("fell
    12.5%", "grew by 8.2%"): where a change word stands before the size of a change."""
    word = _word_before(text, s)
    if word == "by":
        words = text[max(0, s - 40):s].split()
        word = words[-2].strip(_CONTEXT_STRIP).lower() if len(words) >= 2 else ""
    return word


def _change_other_before(low: str, s: int) -> bool:
    """Whether a word of ``CHANGE_OTHER`` stands before s, maybe with one or two of
    ``_CHANGE_LINKS`` between: "baissé de 8 %", "aumentó en un 8 %", "gedaald met 8%"."""
    words = low[max(0, s - 48):s].split()[-3:]
    for _ in range(2):
        if words and words[-1] in _CHANGE_LINKS:
            words.pop()
    return bool(words) and words[-1].strip(_CONTEXT_STRIP) in CHANGE_OTHER


def _change_other_after(low: str, e: int) -> bool:
    """Whether a word of ``CHANGE_OTHER`` follows e, maybe after one noun: the German and Dutch
    verb after the level reached ("met 8% tot 48.210 gedaald", "um 8 % auf 48.210 Aufrufe
    gesunken")."""
    words = low[e:e + 48].split()[:2]
    if len(words) == 2 and words[0].isalpha() and words[0] not in _NOT_A_NOUN:
        del words[0]                    # "48.210 Aufrufe gesunken": the noun of the level
    return bool(words) and words[0].strip(_CONTEXT_STRIP) in CHANGE_OTHER


def _numerator_at(prepared, s: int, e: int) -> int:
    """Where the numerator of a fraction ends the run of digits [s, e) that a fraction slash
    follows: the digits read from the same original character as the slash (a vulgar fraction:
    "2½" is "21⁄2" once cleaned) or from superscript digits (2¹⁄₂); else the whole run (typed
    "21⁄2" is twenty-one halves, as Unicode reads it)."""
    starts, original = prepared.starts, prepared.original
    slash = starts[e]
    at = e
    while at > s and (starts[at - 1] == slash or original[starts[at - 1]] in _SUPERSCRIPT_DIGITS):
        at -= 1
    return s if at == e else at


def _left_quiet(text: str, at: int) -> bool:
    """Whether text[at], the last character before the space before the digits, ends no sign,
    currency or ordinal mark (see ``_LEFT_PAIRS``)."""
    char = text[at]
    if char in _LEFT_BUSY:
        return False
    pair = _LEFT_PAIRS.get(char)
    return pair is None or at == 0 or text[at - 1] not in pair


def _right_quiet(text: str, at: int) -> bool:
    """Whether the text at ``at``, after the space after the digits, can start no suffix and
    no CJK scale."""
    head = text[at:at + 3]
    prefixes = _SPACED_SUFFIXES.get(head[:1])
    if prefixes is not None:
        # ASCII only: under IGNORECASE, "İ" matches "i" and "ſ" matches "s".
        return head.isascii() and not (prefixes and head.lower().startswith(prefixes))
    return head[:1] not in _RIGHT_BUSY


def _scale_end(found: re.Match) -> int:
    for group in ("sx", "sx2", "sx3", "sw"):
        if found.group(group):
            end = found.end(group)
            if group == "sx2" and found.string[end:end + 1] == ".":
                end += 1
            return end
    return found.start()


def _share_range(a: _Hit, b: _Hit) -> None:
    """What one end of a range writes applies to the other: 10-12%, $10-12, 1-2 million."""
    if b.percent and not a.percent and a.currency is None:
        a.percent = True
    if a.percent and not b.percent and b.currency is None:
        b.percent = True
    if a.currency and not b.currency and not b.percent:
        b.currency = a.currency
    if b.currency and not a.currency and not a.percent:
        a.currency = b.currency
    if b.scale > 1 and a.scale == 1 and not a.scaled and a.value is not None \
            and b.value is not None and a.value <= b.value / b.scale:
        a.value *= b.scale
        a.scaled, a.scale = True, b.scale
    if b.kind == "multiple" and a.kind == "number":
        a.kind = "multiple"


def _pieces(core: str, locale: str) -> list[tuple[int, int, Decimal | None, int, str | None]]:
    """The numbers in one run of digits and separators: (start, end, value, decimals, token of
    a glued whole). Usually one; "1,2,3" is three, "1.2.3" three runs of one glued token."""
    if core.isdigit():
        return [(0, len(core), Decimal(core) if len(core) <= MAX_DIGITS else None, 0, None)]
    read = _core_value(core, locale) if len(core) <= MAX_DIGITS else None
    if read is not None:
        return [(0, len(core), read[0], read[1], None)]
    runs = [m.span() for m in _DIGITS.finditer(core)]
    seps = [core[runs[k][1]] for k in range(len(runs) - 1)]
    if len(core) > MAX_DIGITS and len(set(seps)) == 1 and runs[0][1] <= 3 \
            and all(b - a == 3 for a, b in runs[1:-1]):
        return [(0, len(core), None, 0, None)]      # 1,234,234,...: one number, too long
    if len(runs) >= 3 and len(core) <= 64 and all(sep == "." for sep in seps):
        return [(a, b, Decimal(core[a:b]), 0, core) for a, b in runs]
    groups: list[list[tuple[int, int]]] = [[]]
    split_commas = seps.count(",") >= 2
    for k, run in enumerate(runs):
        groups[-1].append(run)
        if split_commas and k < len(seps) and seps[k] == ",":
            groups.append([])
    out = []
    for group in groups:
        k = 0
        while k < len(group):
            best = None
            for j in range(min(len(group), k + 6) - 1, k, -1):
                if not _may_group(core, group, k, j):
                    continue
                read = _core_value(core[group[k][0]:group[j][1]], locale)
                if read is not None:
                    best = (j, read)
                    break
            if best is not None:
                j, read = best
                out.append((group[k][0], group[j][1], read[0], read[1], None))
                k = j + 1
            else:
                a, b = group[k]
                out.append((a, b, Decimal(core[a:b]) if b - a <= MAX_DIGITS else None, 0, None))
                k += 1
    return out


def _may_group(core: str, group: list[tuple[int, int]], k: int, j: int) -> bool:
    """A cheap test before asking parse_number: inner runs have 2 or 3 digits, and a run after a
    space-like separator (which never separates decimals) has exactly 3."""
    for m in range(k + 1, j):
        if group[m][1] - group[m][0] not in (2, 3):
            return False
    if core[group[j][0] - 1] not in ".,\u066b" and group[j][1] - group[j][0] != 3:
        return False
    return group[j][1] - group[k][0] <= MAX_DIGITS


@functools.lru_cache(maxsize=8192)
def _core_value(core: str, locale: str) -> tuple[Decimal, int] | None:
    parsed = parse_number(core, locale)
    return None if parsed is None else (parsed.value, parsed.decimals)


_TOKEN_CAP = 32
_TOKEN_WHOLE = 256     # the longest token read whole (``_Figures.token_span``)


def _token_span(text: str, s: int, e: int, cap: int = _TOKEN_CAP) -> tuple[int, int]:
    """The word-like token around the digits at [s, e): letters, digits, and '-'/'_' between
    letters and digits (RC-500, COVID-19, 500ml); at most ``cap`` characters each side."""
    left, limit = s, max(0, s - cap)
    while left > limit:
        char = text[left - 1]
        # (an ASCII letter or digit at the cost of two method calls: ``_is_glue`` or a digit
        # is alphanumeric, and an ASCII alphanumeric is one of the two)
        if char.isalnum() and (char.isascii() or _is_glue(char) or char.isdigit()) or (
                char in "-_" and left >= 2 and _is_glue(text[left - 2])):
            left -= 1
        else:
            break
    right, limit = e, min(len(text), e + cap)
    while right < limit:
        char = text[right]
        if char.isalnum() and (char.isascii() or _is_glue(char) or char.isdigit()) or (
                char in "-_" and right + 1 < len(text) and _is_glue(text[right + 1])):
            right += 1
        else:
            break
    return left, right
