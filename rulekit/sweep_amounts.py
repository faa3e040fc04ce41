"""Rule 12 of the sweep: amounts said in words.

"no views", "out of stock", "it's available", "we're all out", "hundreds of views" and "only 2
left" are found in the text and judged against the evidence's fields that count that thing
(``Evidence.amounts_by_words``). ``rulekit.sweep`` calls ``_amount_words``, ``_magnitudes``
and ``_stock_levels``, which return their findings, and ``_count_levels`` ("It has 3 reviews":
a number said as a count of a thing the evidence counts), which adds to the findings so far.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Mapping, Sequence

from rulekit.evidence import WORD_AFTER, Amount, Evidence, noun
from rulekit.sweep_days import _in_question
from rulekit.findings import _FIGURE_KINDS, Finding, _new_finding
from rulekit.numbers import plain_decimal
from rulekit.units import unit_word
from rulekit.scan import Mention
from rulekit.scan.figures import FALL_BEFORE, change_word_before
from rulekit.scan.base import (_ascii_lower, _is_cjk, _word_after, _word_before, az_text, az_words,
                               inside_written_name)

# Rule 12, amounts in words: "no views", "zero likes", "0 comments", "not a single order" say
# there are none; "out of stock", "sold out", "isn't in stock", "none left", "none in stock",
# "no longer in stock", "it's unavailable", "we're all out", "ausverkauft", 缺货 say the stock
# is zero; "in stock", "isn't sold out", "it's available", "auf Lager", 有货 say there is some
# (and their kin in French, Portuguese, Spanish, Italian, Dutch, Japanese and Korean, see
# ``_FOREIGN_STOCK``). Each is judged against the fields whose names count that thing
# (``Evidence.amounts``). The phrases are found with ``str.find`` in the lower-cased text: a
# pattern that does not start with one literal makes ``re`` try every position of the text,
# which cost more than the rest of a short answer's judging.
# After "a few ", up to three words of what is left, then "left" or "remaining".
_FEW_LEFT = re.compile(r"((?:[a-z][\w'-]*[ \t\u00a0]+){0,3})(?:left|remaining)\b")
# The phrases of a small stock before "left" or "remaining" (``_a_few_left``), and the words
# before "a couple" or "a handful" that make it one.
_FEW_PHRASES = ("a few ", "a handful ", "a couple ")
# Before "left", "remaining" or "available": "there are (still) rooms", "it has (plenty of)
# rooms", "we've got seats" (``_things_left``); a negation before it, and where its sentence ends.
_THINGS_BEFORE = re.compile(r"(?:there(?:'s|’s|[ \t\u00a0]+(?:is|are))|has|have|'ve|’ve)"
                            r"(?:[ \t\u00a0]+(?:still|also|got))?(?:[ \t\u00a0]+(?:some|plenty"
                            r"[ \t\u00a0]+of|enough|more|several|an?|one))?"
                            r"(?:[ \t\u00a0]+[a-z]+(?=[ \t\u00a0]+[a-z]+[ \t\u00a0]+(?:still[ \t\u00a0]+)?\Z))?"
                            r"[ \t\u00a0]+([a-z]+)(?:[ \t\u00a0]+still)?[ \t\u00a0]+\Z")
_NAMED_AVAILABLE = re.compile(r"[ \t\u00a0]+(?:is|are)(?P<no>n't|n’t|[ \t\u00a0]+not|"
                              r"[ \t\u00a0]+no[ \t\u00a0]+longer)?(?:[ \t\u00a0]+(?:still|currently|"
                              r"now|also|already|sadly|unfortunately))?[ \t\u00a0]+(?P<un>un)?"
                              r"available(?![\w-])")
# A plural subject before "are (still) available" (``_nouns_available``): at the start of its
# sentence or after "yes" and a comma, maybe after "the" or "all (the)"; the thing in group
# "thing", ending in -s.
_NOUN_AVAILABLE = re.compile(r"(?:^|[.!?;:\n][ \t\u00a0]*|(?<![\w'])(?:yes|good news),[ \t\u00a0]*)"
                             r"(?:(?:the|all|all the)[ \t\u00a0]+)?(?P<thing>[a-z]+s)[ \t\u00a0]+are"
                             r"(?P<no>n't|n’t|[ \t\u00a0]+not|[ \t\u00a0]+no[ \t\u00a0]+longer)?"
                             r"(?:[ \t\u00a0]+(?:still|currently|now|also|already|sadly|"
                             r"unfortunately))?[ \t\u00a0]+\Z")
_THINGS_DENIED = re.compile(r"n't|n’t|\bnot\b|\bno longer\b|\bnever\b")
# Before it, the customer as the one who has them ("you still have items left in your cart");
# after it, what is left to do ("items left to ship").
_THINGS_THEIRS = re.compile(r"\b(?:you|you've|you’ve|we've got you)[ \t\u00a0]+(?:\w+[ \t\u00a0]+)?\Z")
_THINGS_TO_DO = re.compile(r"[ \t\u00a0]+to[ \t\u00a0]+(?!buy|order|purchase|sell|grab)[a-z]")
_THINGS_CLOSE = re.compile(r"[.!?\n]")
# What is left of a thing that is no stock (``_left_of``): the words that say it, the thing
# right before them ("refills", "refill still"), and before the thing the words that make it
# another phrase: a count (rule 5), "no" or "zero" (``_amount_phrases``), "any" (a question or
# a negation), "how many".
_LEFT_SAID = ("left", "remaining", "available")
_WORD_AT = re.compile(r"[a-z]+(?![\w-])")
_THING_BEFORE_LEFT = re.compile(r"(?<![\w'’-])(?P<thing>[a-z]+)(?:[ \t\u00a0]+(?:still|now|"
                                r"currently|left))?[ \t\u00a0]+\Z")
_NOT_SOME_BEFORE = frozenset("no zero any many one two three four five six seven eight nine ten"
                             .split())
_LABEL_AFTER = re.compile(r"[ \t\u00a0*_]*[:=]|[ \t\u00a0]*\d")
_FEW_STOCK_BEFORE = frozenset("only just are have has still there's theres got".split())
_NONE_WORDS = ("no ", "zero ", "0 ", "not a single ", "not any ", "without any ")
_COUNTED_WORDS = re.compile(r"[ \t\u00a0]*([a-z]+)(?:[ \t\u00a0]+([a-z]+))?")
_STOCK_OUT = ("out of ", "out-of-", "not in ", "n't in ")
# After "out-of-stock", nouns that make it the name of a notice, not a claim.
_STOCK_NOTICES = ("alert", "notification", "notice", "email", "message", "warning")
# Before "in stock", words that make it something else than a claim of some stock: a count
# a few words before it ("0 in stock", "7 of the Navy raincoat in stock"; not "$79.99 and in
# stock", nor the digits of a name or a size, ``_NameOrSize``), "none in stock", "not ... in
# stock", and a condition ("when it's back in stock": "it's back in stock" is a claim, "it'll be
# back in stock" another time).
_IN_STOCK_OTHERWISE = re.compile(r"\d[ \t\u00a0]*(?:(?!(?:and|or|but|is|are|was|were|it|"
                                 r"so|now|still|also)\b)[\w'-]+[ \t\u00a0]+){0,4}$"
                                 r"|(?:\b(?:no|zero|none|nothing|not|never|once|if|"
                                 r"whether|when|until)\b|n't)[^.!?;\n]{0,24}$")
# "no <thing>" states an amount only as what something has ("it has no likes", "there are no
# comments", "with no views"): the word before "no" must be one of these, and the thing may
# not be the subject of another verb ("no items were missing", "no comments were flagged").
_HAVING = frozenset("has have had got gets received receives earned drew draws with there's "
                    "theres is are was were been yet still currently".split())
_VERB_AFTER = frozenset("were was is are have has had will would can could need needed needs "
                        "pending flagged went came got been be missing left".split())
# Around a stock phrase, words that make it another time or a generic rule: "was out of stock
# last week", "should be in stock soon", "sold out last time", "out-of-stock items are
# refunded".
_STOCK_ANOTHER_TIME_BEFORE = re.compile(r"\b(?:was|were|had been|will be|would be|should be|"
                                        r"may be|might be|could be|to be|be)[ \t\u00a0]+$")
_STOCK_ANOTHER_TIME_AFTER = frozenset("last soon again next earlier before yesterday previously "
                                      "then until after shortly".split())
# "in", "on", "by" and "from" after a stock phrase make it another time only before a time:
# "in stock in two weeks", "on Monday", "by mid-January", "from next week", "in time for
# Christmas"; "in stock in blue", "in all sizes", "on our website", "from our warehouse" are
# claims about now.
_STOCK_TIME_PREPS = frozenset(("in", "on", "by", "from"))
_MONTHS = (r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
           r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?")
_STOCK_PREP_TIME = re.compile(
    r"[ \t\u00a0]*(?:in|on|by|from)[ \t\u00a0]+(?:(?:the|about|around|roughly|just|"
    r"approximately|early|late)[ \t\u00a0]+|mid-?[ \t\u00a0]*)?"
    r"(?:(?:(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|a couple(?: of)?|"
    r"few|several|some|\d+(?:[.,]\d+)?)(?:[ \t\u00a0-]+(?:more|business|working|calendar))?"
    r"[ \t\u00a0-]+)?(?:minute|hour|day|week|month|year|fortnight)s?"
    r"|next|coming|following|this|end|start|beginning|middle|weekend|tomorrow|today|tonight|"
    r"time|spring|summer|autumn|fall|winter|christmas|"
    r"(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?|" + _MONTHS +
    r"|\d{1,4}[/.-]\d{1,2}|\d{1,2}(?:st|nd|rd|th)?[ \t\u00a0]+(?:of[ \t\u00a0]+)?(?:"
    + _MONTHS + r"))\b")
# After "left" or "remaining" ("a few left", "none left"), only a word of time makes it another
# time: "a few left in your size" is now, "a few left next week" is not.
_LEFT_ANOTHER_TIME_AFTER = frozenset("last soon again next earlier before yesterday previously "
                                     "then until after shortly tomorrow later".split())
# Just before "sold out", "out of stock" or "in stock", a negation that turns it around: "isn't
# sold out", "not out of stock", "no longer out of stock" and "never out of stock" say there is
# some; "no longer in stock" and "never in stock" that there is none.
_STOCK_NEGATED = re.compile(r"(?:(?<![\w'])not|n't|(?<![\w'])no longer|(?<![\w'])never)"
                            r"(?:[ \t\u00a0]+(?:been|yet|really|actually|currently|even|quite|"
                            r"completely|entirely|fully|totally))?[ \t\u00a0]+\Z")
# "It's available (now)", "they aren't available", "it's currently unavailable", "we're all
# out": a stock claim only with a pronoun for the thing and nothing after but a time, "to
# order" or the end of the clause, so that "available in blue", "available on our website",
# "unavailable for pickup" and "the feature is available" are not read.
_AVAILABLE_BEFORE = re.compile(r"(?<![\w'])(?:it|they|this|these|that|those|both)(?:'s|'re|"
                               r"[ \t\u00a0]+(?:is|are))(?P<no>n't|[ \t\u00a0]+not|"
                               r"[ \t\u00a0]+no longer)?(?:[ \t\u00a0]+(?:currently|still|now|"
                               r"also|already|immediately|readily|sadly|unfortunately))?"
                               r"[ \t\u00a0]+\Z")
_ALL_OUT_BEFORE = re.compile(r"(?<![\w'])(?:we|they)(?:'re|[ \t\u00a0]+are)(?:[ \t\u00a0]+"
                             r"(?:currently|now|sadly|unfortunately))?[ \t\u00a0]+\Z")
_CLAIM_AFTER = re.compile(r"(?:[ \t\u00a0]+(?:right now|now|at the moment|for now|to (?:buy|order|"
                          r"purchase)|for (?:purchase|order)|of (?:them|it|those|these)))?"
                          r"[ \t\u00a0]*(?:[.!,;:)\n]|\Z|[ \t\u00a0]+(?:and|but|so)\b)")
# Stock words of other languages, with what each says: German, Chinese, French, Portuguese,
# Spanish, Italian, Dutch, Japanese and Korean. A Latin word may end in the endings of its
# gender and number (épuisées, esgotados, agotada, esauriti, ausverkaufte): "esgotad" is
# "esgotado" and its kin (see ``_FOREIGN_ENDING``).
_FOREIGN_STOCK = (("ausverkauft", "zero"), ("auf lager", "some"), ("售罄", "zero"),
                  ("缺货", "zero"), ("无货", "zero"), ("有货", "some"),
                  ("en rupture de stock", "zero"), ("épuisé", "zero"), ("en stock", "some"),
                  ("esgotad", "zero"), ("fora de estoque", "zero"), ("em estoque", "some"),
                  ("sem estoque", "zero"), ("agotad", "zero"), ("en existencia", "some"),
                  ("sin stock", "zero"), ("sin existencias", "zero"), ("hay stock", "some"),
                  ("queda stock", "some"), ("hay existencias", "some"),
                  ("tenemos existencias", "some"), ("tenemos stock", "some"),
                  ("disponible", "some"), ("esaurit", "zero"), ("fuori stock", "zero"),
                  ("disponibil", "some"), ("disponibile in magazzino", "some"),
                  ("disponibili in magazzino", "some"),
                  ("uitverkocht", "zero"), ("op voorraad", "some"),
                  ("leverbaar", "some"), ("vorrätig", "some"), ("lieferbar", "some"),
                  ("verfügbar", "some"), ("매진", "zero"),
                  ("品切れ", "zero"), ("在庫切れ", "zero"), ("売り切れ", "zero"),
                  ("在庫なし", "zero"), ("在庫あり", "some"), ("在庫があり", "some"),
                  ("품절", "zero"), ("재고 없", "zero"), ("재고가 없", "zero"),
                  ("재고 있", "some"), ("재고가 있", "some"),
                  # Swedish, Danish, Norwegian and Polish ("wyprzedany": Polish endings
                  # are not ``_FOREIGN_ENDING``'s)
                  ("slutsåld", "zero"), ("slutsålt", "zero"), ("i lager", "some"),
                  ("på lager", "some"), ("udsolgt", "zero"), ("utsolgt", "zero"),
                  ("wyprzedan", "zero"), ("wyprzedany", "zero"), ("w magazynie", "some"),
                  ("na stanie", "some"))
# What the text must hold for a phrase of ``_FOREIGN_FEW`` to be there: the words for few
# (ASCII, then the others), and the words for again, whose phrases also hold a stock word.
_FEW_ASCII = ("pocas", "pocos", "pochi", "poche", "poucas", "poucos", "wenige", "quelques",
              "derni", "ltim", "enkele", "een paar", "weinig")
_FEW_OTHER = ("残り", "在庫", "再入荷", "少量", "紧张", "不多", "所剩", "补货", "有货", "임박",
              "재고", "재입고")
_FEW_CUES = _FEW_ASCII + _FEW_OTHER + ("wieder", "nouveau", "nuevo", "nuovo", "novamente",
                                       "de novo", "volta ao", "weer")
# What the text must hold for any of them, or of ``_FOREIGN_FEW``, to be there: ASCII words
# (the others are not ASCII). Each is one substring test of the text (no call), made only when
# the text holds none of the English phrases' words.
_FOREIGN_ASCII = ("lager", "ausverkauft", "stock", "rupture", "estoque", "esgotad", "agotad",
                  "existencia", "esaurit", "disponib", "uitverkocht", "voorraad", "leverbaar",
                  "lieferbar", "solgt", "wyprzedan", "magazyn", "na stanie") + _FEW_ASCII
_FOREIGN_NEEDS = _FOREIGN_ASCII + ("épuis", "切れ", "품절", "매진", "vorrät",
                                   "verfügbar", "slutsål") + _FEW_OTHER
# The same as three: the words of a-z (tested on ``az_text``), those with a space (their
# last word first, on ``az_text``), and those not of ASCII (only in a text that is not).
_FOREIGN_AZ = tuple(word for word in _FOREIGN_ASCII if word.isalpha())
_FOREIGN_SPACED = tuple((word.split()[-1], word) for word in _FOREIGN_ASCII
                        if not word.isalpha())
_FOREIGN_OTHER = _FOREIGN_NEEDS[len(_FOREIGN_ASCII):]
assert all(word.isascii() and word.islower() and word.replace(" ", "").isalpha()
           for word in _FOREIGN_ASCII)
assert all(not word.isascii() for word in _FOREIGN_OTHER)
# A small stock, or a stock back now, said in another language: "Quedan pocas unidades", "Nur
# noch wenige (Stück)", "Quelques articles restants", "Il en reste quelques-uns", "Ultimi pezzi",
# "Restam poucas unidades", "Nog maar een paar over", 残りわずか, 在庫わずか, 库存紧张, 仅剩少量,
# 품절 임박; "Wieder auf Lager", "de nouveau en stock", "de nuevo disponible", "di nuovo
# disponibile", "novamente em estoque", "weer op voorraad", 再入荷しました, 已补货, 재입고되었습니다.
# Each says there is some stock, like "only a few left" and "it's back in stock". A word for
# "few" is read only before a noun of things (``_FEW_THINGS``), a stock word, or the clause's end:
# "quedan pocos días", "noch wenige Tage", "nog een paar dagen" count time. A stock word right
# after it is part of the phrase ("Nur noch wenige Stück auf Lager": one claim).
_FEW_THINGS = ("unidades|unidad|piezas|existencias|artículos|ejemplares|stück|exemplare|artikel|"
               "teile|articles|exemplaires|pièces|unités|produits|paires|pezzi|unità|articoli|"
               "esemplari|itens|peças|produtos|stuks|exemplaren|artikelen")
_FEW_STOCK_WORD = (r"(?:[ \t\u00a0]+(?:auf[ \t\u00a0]+lager|vorrätig|verfügbar|lieferbar|übrig|"
                   r"en[ \t\u00a0]+stock|en[ \t\u00a0]+existencia|em[ \t\u00a0]+estoque|"
                   r"in[ \t\u00a0]+magazzino|op[ \t\u00a0]+voorraad|disponibles?|disponibili|"
                   r"disponíveis|restantes?|rimast[ie]|over|beschikbaar)(?![\w]))?")
_FEW_END = (rf"(?:[ \t\u00a0]+(?:{_FEW_THINGS})(?![\w]){_FEW_STOCK_WORD}"
            rf"|{_FEW_STOCK_WORD}(?![ \t\u00a0]*[^\W\d_]))")
_S = r"[ \t\u00a0]+"
_FOREIGN_FEW = re.compile(
    rf"(?:quedan|queda|restan|restam|resta)(?:{_S}(?:solo|sólo|muy|unas|unos|apenas|só|muito))*"
    rf"{_S}(?:poc[oa]s|pouc[oa]s){_FEW_END}"
    rf"|(?:poc[oa]s|pouc[oa]s|últimas){_S}(?:unidades|existencias|piezas|peças|itens){_FEW_STOCK_WORD}"
    rf"|(?:nur{_S}noch|noch|nur){_S}(?:sehr{_S})?wenige{_FEW_END}"
    rf"|quelques(?:{_S}(?:{_FEW_THINGS}))?{_S}restant(?:e?s)?"
    rf"|(?:il{_S})?(?:n['’]en{_S}|en{_S})?reste(?:nt)?{_S}(?:plus{_S})?(?:que{_S})?quelques"
    rf"(?:-un(?:e)?s|{_FEW_END})|plus{_S}que{_S}quelques{_FEW_END}"
    rf"|derni(?:ers|ères){_S}(?:exemplaires|pièces|articles|unités)"
    rf"|ultim[ie]{_S}(?:pezzi|unità|articoli|esemplari)(?:{_S}disponibili)?"
    rf"|(?:ne{_S})?rest(?:ano|a){_S}(?:solo{_S})?poch[ie]{_FEW_END}"
    rf"|(?:solo{_S})?poch[ie]{_S}(?:pezzi|unità|articoli){_FEW_STOCK_WORD}"
    rf"|nog{_S}(?:maar{_S})?(?:een{_S}paar|enkele|weinig){_FEW_END}"
    rf"|wieder{_S}(?:auf{_S}lager|vorrätig|verfügbar|lieferbar)"
    rf"|(?:de|à){_S}nouveau{_S}(?:en{_S}stock|disponible)"
    rf"|(?:de{_S}nuevo|nuevamente){_S}(?:en{_S}stock|en{_S}existencia|disponible)"
    rf"|di{_S}nuovo{_S}(?:disponibile|in{_S}magazzino)"
    rf"|(?:novamente|de{_S}novo){_S}(?:em{_S}estoque|disponível)|de{_S}volta{_S}ao{_S}estoque"
    rf"|weer{_S}(?:op{_S}voorraad|leverbaar|beschikbaar)"
    r"|残り(?:わずか|僅か|少な[いく])|在庫(?:残り)?(?:わずか|僅か|僅少)|再入荷(?:しました|いたしました|済)"
    r"|仅剩少量|少量现货|库存紧张|库存不多|所剩无几|已经?补货|重新有货"
    r"|품절[ ]?임박|재고가?[ ]?얼마[ ]?남지[ ]?않|재입고(?:되었|됐|완료)")
# Before such a phrase in its clause, a supposition or another time: "sobald der Wanderschuh
# wieder auf Lager ist", "Er wird nächste Woche wieder auf Lager sein", "Il sera de nouveau en
# stock", "cuando esté de nuevo disponible", 如果库存紧张. The clause is read further back than
# for a single word (``_FOREIGN_OTHERWISE``): "wieder" makes a clause of "sobald" or "wenn" long.
_FEW_OTHERWISE = re.compile(
    r"(?:\b(?:wenn|falls|sobald|bis|ob|wird|werden|würde|bald|demnächst|voraussichtlich|si|quand|"
    r"lorsque|dès|sera|seront|serait|bientôt|cuando|hasta|estará|estarán|esté|volverá|pronto|se|"
    r"quando|caso|assim que|até|estiver|voltará|em breve|finché|appena|sarà|saranno|tornerà|"
    r"presto|als|wanneer|zodra|zal|zullen|binnenkort)\b|如果|若|一旦|即将|快要)"
    r"[^.!?;\n。！？]{0,60}\Z")
# After it, the rest of a future ("wieder auf Lager sein (wird)") or a plan (再入荷予定).
_FEW_OTHERWISE_AFTER = re.compile(r"[ \t\u00a0]+sein\b|予定|待ち|未定|通知|のお知らせ")
_FOREIGN_ENDING = re.compile(r"(?:[aoei]?s|[aoei]|en)?(?![\w])")
# German "verfügbar" is a stock claim, like "disponibile", only said of the thing itself with
# nothing after it in its clause: "Der Artikel ist (sofort) verfügbar", "Er ist nicht mehr
# verfügbar", "Ja, verfügbar."; not "Die Rückerstattung ist online verfügbar" (a noun of
# ``_NOT_STOCK_IT``) nor "in Blau verfügbar".
_VERFUEGBAR_BEFORE = re.compile(r"(?:(?:^|[.!?,;:\n]|\bja|\b(?:er|sie|es)|\b(?:der|die|das|dieser|"
                                r"diese|dieses)[ \t\u00a0]+(?P<noun>\w+))[ \t\u00a0]+(?:ist|sind)"
                                r"(?:[ \t\u00a0]+(?:sofort|derzeit|aktuell|momentan|noch|jetzt|"
                                r"leider|auch|nicht|mehr|nur|gerade)){0,3}|^|[.!?,;:\n]|\bja)"
                                r"[ \t\u00a0]*\Z")
# Before a word, a negation that turns it around (nicht, pas, não, no, non, niet, 没), maybe with
# a verb or "more" between ("não está esgotado", "n'est plus en stock", "non è più disponibile",
# "no tenemos en existencia", "niet meer op voorraad").
_FOREIGN_NOT = re.compile(r"(?<![\w])(?:nicht|kein|keine|pas|plus|jamais|não|nunca|no|non|mai|"
                          r"niet|geen|inte|ej|inga|slut|ikke|ingen|nie|brak)(?:[ \t\u00a0]+(?:lo|"
                          r"la|los|las|le|les|ce|cet|cette|ces|"
                          r"este|esta|ese|esa|questo|questa|dit|dat|deze|het|das|dieses|diesen|"
                          r"go|jej|ich|den|det)"
                          r"(?:[ \t\u00a0]+\w+)?)?(?:[ \t\u00a0]+(?:mehr|est|sont|está|estão|"
                          r"están|es|son|è|sono|is|zijn|temos|tenemos|hay|há|abbiamo|hebben|più|"
                          r"mais|más|meer|encore|längre|finns|är|har|er|findes|fins|længere|"
                          r"lenger|ma|mamy|jest|są|już|go|jej|ich)){0,2}[ \t\u00a0]+\Z|没\Z"
                          r"|(?<![\w])n['’](?:est|sont)[ \t\u00a0]+\Z")
# Before a word, another time or a supposition in its clause: "wieder auf Lager", "sera de
# nouveau en stock", "si l'article est en stock", "estaba agotado", "se estiver esgotado",
# "binnenkort weer op voorraad", 如果有货; or a count a few words before it ("nur noch 2 (Stück)
# auf Lager", "il en reste 4 en stock", 还剩5件有货), as for "in stock": not a price with "and"
# or a verb between ("Er kostet 49,00 € und ist auf Lager", "cuesta 79,95 € y hay stock"), nor
# the digits of a name or a size (``_NameOrSize``: "小米手环9目前有货", "Größe 42 auf Lager").
_FOREIGN_OTHERWISE = re.compile(
    r"(?:\bsi\b(?![ \t\u00a0]+(?:è|sono)\b)|"       # "si è esaurito" is reflexive
    r"\b(?:wenn|falls|sobald|bis|war|waren|wieder|bald|morgen|quand|lorsque|dès|jusqu|"
    r"était|étaient|sera|seront|serait|nouveau|bientôt|demain|se|quando|caso|assim que|até|"
    r"estava|estavam|estará|estarão|estiver|novamente|de novo|em breve|amanhã|cuando|hasta|"
    r"estaba|estaban|estarán|esté|de nuevo|nuevamente|pronto|mañana|finché|era|erano|sarà|"
    r"saranno|di nuovo|presto|domani|torna|als|wanneer|zodra|tot|was|weer|binnenkort|zal|"
    r"zullen|när|snart|igen|åter|hvis|når|igjen|jeśli|jeżeli|gdy|kiedy|wkrótce|ponownie"
    r")\b|如果|若|是否|一旦|即将|快要|曾)[^.!?;\n。！？]{0,24}\Z"
    r"|[0-9][\w.,'’()-]*(?:[ \t\u00a0]+(?!(?:und|oder|aber|ist|sind|et|ou|mais|est|sont|y|o|"
    r"pero|es|está|están|hay|e|mas|estão|ma|è|sono|en|of|maar|is|zijn)\b)"
    r"[\w'’()-]+){0,3}[ \t\u00a0]*\Z")
# After a word, another time or a question or a supposition (有货吗, 品切れの場合, 품절되면,
# "en stock demain"), or a negation that turns it around (品切れではありません, 在庫がありません,
# 품절이 아닙니다, 품절되지 않았습니다).
_FOREIGN_OTHERWISE_AFTER = re.compile(
    r"[^。！？.!?\n]{0,6}?(?:吗|か[。？?]|か\Z|？|\?)|の場合|場合|次第|になる|でしたら|なら|の際|時"
    r"|(?:되|이)?면|될|는지|[ ]?시에|일 경우|인 경우|여부"
    r"|[ \t\u00a0]+(?:bientôt|demain|em breve|amanhã|pronto|mañana|presto|domani|binnenkort|"
    r"morgen|à partir|a partir|vanaf|ab)\b")
_FOREIGN_NOT_AFTER = re.compile(r"(?:では|じゃ)(?:ありません|ない|なく|ございません)|(?:して)?"
                                r"(?:い|おり)?ません|(?:이|가) 아(?:니|닙)|[ ]?아님|되지 않")
# After a Japanese or Korean stock word, a noun of things and a topic: a general rule
# ("品切れの商品は返金されます", "품절 상품은 환불됩니다"), not a claim about this one.
_CJK_GENERIC_AFTER = re.compile(r"の(?:商品|製品|品物|アイテム|ご注文)(?:は|も|について)"
                                r"|[ ]?(?:상품|제품|품목|주문)(?:은|는|의 경우)")
# Before "disponible", "disponibile" or "verfügbar" after the name of a row that holds stock,
# the verb "to be" and a few adverbs: "Le Sac à dos Urban n'est plus disponible"
# (``_NameOrSize.named_subject``).
_NAMED_IS = re.compile(r"[ \t\u00a0]+(?:n['’])?(?:est|sont|está|están|è|sono|ist|sind)"
                       r"(?:[ \t\u00a0]+(?:plus|pas|toujours|encore|déjà|actuellement|bien|"
                       r"ancora|già|ora|più|subito|attualmente|todavía|ya|actualmente|sofort|"
                       r"derzeit|aktuell|momentan|noch|jetzt|leider|auch|nicht|mehr|nur|"
                       r"gerade)){0,3}[ \t\u00a0]+\Z")
# Italian "disponibile" is a stock claim only said of the thing itself, with nothing after it
# in its clause: "Sì, è disponibile.", "Il prodotto non è più disponibile.", "La giacca (blu) è
# disponibile": a noun after a definite article is the thing, unless it names a service, a
# feature or a way of doing ("Il rimborso è disponibile online", "La funzione è disponibile",
# ``_NOT_STOCK_IT``). An unknown noun is read as the thing: fail closed.
_DISPONIBILE_BEFORE = re.compile(r"(?:^|[.!?,;:\n¡¿]|\bsì|\bsí|\boui|\bpurtroppo|\battualmente|"
                                 r"\bora|\b(?:il|elle|ils|elles)(?=[ \t\u00a0]+n['’])|"
                                 r"(?:\b(?:il|lo|la|i|gli|le|el|los|las|les)[ \t\u00a0]+|\bl['’])"
                                 r"(?P<noun>\w+)(?:[ \t\u00a0]+(?:di|da|in|de)[ \t\u00a0]+\w+)?"
                                 r"(?:[ \t\u00a0]+\w+)?|\bquest[oaie]|\b(?:il|elle|ils|elles))"
                                 r"[ \t\u00a0]*(?:(?:non|no)[ \t\u00a0]+|n['’])?"
                                 r"(?:è|sono|est|sont|está|están)(?:[ \t\u00a0]+(?:ancora|già|"
                                 r"ora|più|subito|attualmente|plus|pas|toujours|déjà|actuellement|"
                                 r"todavía|ya|actualmente))?[ \t\u00a0]+\Z")
# A general rule about sold-out things is no claim about this one, as "out-of-stock items are
# refunded" is not: a plural noun after a plural definite article, then the stock word as its
# plural adjective, then more of the clause ("Les articles épuisés sont remboursés", "Los
# artículos agotados se reembolsan", "Os produtos esgotados são reembolsados", "Gli articoli
# esauriti vengono rimborsati"); in Dutch and German the adjective before its noun, at the
# start of a clause or after "alle" ("Uitverkochte artikelen worden terugbetaald", "Alle
# ausverkauften Artikel werden erstattet"). "Vos articles épuisés", "Les articles sont
# épuisés" and "L'article épuisé" are claims.
_GENERIC_BEFORE = re.compile(r"(?<![\w'’])(?:les|los|las|os|as|i|gli|le)[ \t\u00a0]+\w+[sxie]"
                             r"[ \t\u00a0]+\Z")
_GENERIC_FRONT_BEFORE = re.compile(r"(?:^|[.!?;:,\n]|(?<![\w'’])alle)[ \t\u00a0]*\Z")
_GENERIC_AFTER = re.compile(r"[ \t\u00a0]+\w")
_PLURAL_ROMANCE = ("épuisé", "esgotad", "agotad", "esaurit")


def _generic_rule(low: str, word: str, start: int, end: int) -> bool:
    """Whether the stock word at [start, end) of ``low`` (lower-cased, with its ending) is the
    adjective of a general rule about sold-out things (``_GENERIC_BEFORE``), not a claim."""
    if not _GENERIC_AFTER.match(low, end):
        return False
    if word in _PLURAL_ROMANCE:
        plural = low[end - 1] == "s" or (word == "esaurit" and end - start == len(word) + 1
                                         and low[end - 1] in "ie")
        return plural and _GENERIC_BEFORE.search(low, max(0, start - 32), start) is not None
    if word in ("uitverkocht", "ausverkauft"):
        return low[end - 1] in "en" and end > start + len(word) \
            and _GENERIC_FRONT_BEFORE.search(low, max(0, start - 8), start) is not None
    return False


_NOT_STOCK_IT = frozenset(
    "funzione funzioni funzionalità opzione opzioni servizio servizi rimborso rimborsi reso resi "
    "spedizione spedizioni consegna consegne assistenza pagamento pagamenti sconto sconti offerta "
    "offerte promozione promozioni codice coupon app applicazione sito supporto ritiro account "
    "abbonamento aggiornamento aggiornamenti modulo pagina documentazione manuale fattura "
    "ricevuta garanzia tracciamento chat versione modalità informazioni dettagli operatore "
    "negozio personale team staff guida catalogo download file link prenotazione "
    "appuntamento "
    # the same in Spanish and French, for "disponible"
    "reembolso devolución envío entrega servicio función opción soporte pago descuento oferta "
    "cupón aplicación cuenta garantía seguimiento remboursement retour livraison service "
    "fonction option assistance paiement remise offre application compte garantie suivi "
    "support "
    # and in German, for "verfügbar"
    "rückerstattung erstattung rücksendung lieferung versand zustellung funktion funktionen "
    "dienst option optionen zahlung zahlungen rabatt angebot gutschein app anwendung konto "
    "garantie sendungsverfolgung kundenservice hotline abholung version handbuch rechnung "
    "informationen website seite termin".split())
_CLAUSE_END = re.compile(r"[ \t\u00a0]*(?:[.!,;:)\n]|\Z)")
# After an availability word, the start of a variant said by its size or colour: "available in
# size 44", "in black", "disponible en la talla 44", "verfügbar in Größe 44" (``_variant_after``).
_VARIANT_AFTER = re.compile(r"[ \t\u00a0]+(?:in|en|im|em)[ \t\u00a0]+(?:(?:the|la|el|le|der|a)"
                            r"[ \t\u00a0]+)?(?:(?:size|colou?r|größe|grösse|farbe|taille|couleur|"
                            r"talla|taglia|colore|tamanho|cor|maat|kleur)[ \t\u00a0]+)?")


def _variant_after(low: str, end: int, evidence: Evidence | None) -> int:
    """Where a variant the evidence tells apart by a size or an option (``Evidence.
    stock_variants``) said right after ``end`` ends ("available in size 44", "in black"), or
    ``end`` when none is: "It's available in size 44" is a claim about that size now."""
    if evidence is None or not evidence.stock_variants:
        return end
    said = _VARIANT_AFTER.match(low, end)
    if said is None:
        return end
    at = said.end()
    for values, _ in evidence.stock_variants:
        for value in values:
            stop = at + len(value)
            if low.startswith(value, at) and _whole_word(low, at, stop) \
                    and not (low[stop:stop + 1] in ".," and low[stop + 1:stop + 2].isdigit()):
                return stop
    return end


_SUPPOSE_WORDS = r"\b(?:if|unless|whether|when|whenever|once|until|in case)\b"
_SUPPOSING = re.compile(_SUPPOSE_WORDS)
# A clause that only supposes an amount states none: "if a post has no views".
_SUPPOSED = re.compile(_SUPPOSE_WORDS + r"[^.!?;:,\n]{0,48}$")


# Before a number, a word that makes it a size, not a stock level: "Größe 42 auf Lager",
# "Taille 38 en stock", "Talla 38", "Taglia 38", "Tamanho 38", "Maat 42", "Size 10 in stock",
# "EU 42".
_SIZE_WORDS = frozenset("größe grösse groesse gr taille talla taglia tamanho maat size sizes eu "
                        "us uk".split())


class _NameOrSize:
    """Whether a run of digits before a stock word is the digits of a name or a size, not a
    stock level: glued to the letters of a word (Galaxy S24, BT-3, and 小米手环9 right before
    有货), written as the evidence writes a name ("Pixel 9", "小米手环9目前售罄"), or after a
    size word (``_SIZE_WORDS``: "Größe 42 auf Lager"). ``low`` is the text lower-cased, index
    for index."""

    def __init__(self, low: str, names: frozenset[str], evidence: Evidence | None = None) -> None:
        self.low, self.names, self.evidence = low, names, evidence

    def named_subject(self, start: int) -> bool:
        """Whether the stock word at ``start`` follows the name of a row that holds stock and a
        verb "to be" (``_NAMED_IS``): "Le Sac à dos Urban est disponible", "Das Notebook Aero
        14 ist verfügbar", whose nouns ``_DISPONIBILE_BEFORE`` does not reach past."""
        verb = _NAMED_IS.search(self.low, max(0, start - 48), start)
        if verb is None or self.evidence is None:
            return False
        at, low = verb.start(), self.low
        return any(low.endswith(name, 0, at) and _whole_word(low, at - len(name), at)
                   for name, _ in self.evidence.stock_rows)

    def __call__(self, s: int, e: int, stock: int | None) -> bool:
        """[s, e): the digits; ``stock``: where the stock word after them starts, None for a
        stock level ("12 in stock", 剩5件), whose digits glued to a CJK word (剩) are a count."""
        low = self.low
        before = low[s - 1:s]
        if before in ("-", ".") and s > 1:
            before = low[s - 2]                             # "BT-3", "EQ.6"
        if before.isalpha() and (not _is_cjk(before) or stock is not None
                                 and not low[e:stock].strip(" \t\u00a0")):
            return True                                     # "Galaxy S24", 小米手环9有货
        if _word_before(low, s) in _SIZE_WORDS:
            return True                                     # "Größe 42 auf Lager"
        digits = low[s:e]
        names = [name for name in self.names if digits in name]
        return bool(names) and inside_written_name(low, s, e, names) is not None

    def count_before(self, pattern: re.Pattern, start: int) -> re.Match | None:
        """The match of ``pattern`` (``_IN_STOCK_OTHERWISE``, ``_FOREIGN_OTHERWISE``) in the 32
        characters before the stock word at ``start``, passed over where it is a count that
        is the digits of a name or a size: "Pixel 9 only 2 in stock" finds the 2."""
        low = self.low
        at = max(0, start - 32)
        while True:
            found = pattern.search(low, at, start)
            if found is None or not found.group()[:1].isdigit():
                return found
            end = found.start() + 1
            while end < start and (low[end].isdigit() or low[end] in ".," and
                                   low[end + 1:end + 2].isdigit()):
                end += 1
            if not self(found.start(), end, start):
                return found
            at = end


def _amount_phrases(low: str, names: _NameOrSize) -> list[tuple[int, int, str, str | None,
                                                                  str | None]]:
    """(start, end, what it says, first word, second word) of each phrase of rule 12 in the
    lower-cased text: "zero" ("no views": the word or words after it are what is counted),
    "out" (of stock) or "in" (stock). ``names`` tells the digits of a name or a size before a
    stock word from a count."""
    found = []
    for word in _NONE_WORDS:
        at = low.find(word)
        while at >= 0:
            if not (at and (low[at - 1].isalnum() or low[at - 1] in "_.,")):
                counted = _COUNTED_WORDS.match(low, at + len(word))
                if counted is not None:
                    found.append((at, counted.end(1), "zero", counted.group(1),
                                  counted.group(2)))
            at = low.find(word, at + 1)
    for word in ("stock", "sold out", "none left", "nothing left"):
        at = low.find(word)
        while at >= 0:
            end = at + len(word)
            if not (low[end:end + 1].isalnum() or low[end:end + 1] in "_" or (
                    low[end:end + 1] == "-" and not low.endswith("out-of-", 0, at))):
                if word != "stock":
                    if not (at and low[at - 1].isalnum()):
                        found.append((at, end, "out", None, None))
                elif low.endswith(("none in ", "nothing in "), 0, at):
                    start = low.rindex("n", 0, at - 3)
                    start = low.rfind(" ", 0, start) + 1
                    found.append((start, end, "out", None, None))
                elif low.endswith(_STOCK_OUT, 0, at) and not low.startswith(
                        _STOCK_NOTICES, end + 1):
                    start = at - 7
                    while start and low[start - 1].isalpha():      # "isn't in stock"
                        start -= 1
                    found.append((start, end, "out", None, None))
                elif low.endswith("back in ", 0, at) and not (at > 8 and low[at - 9].isalnum()):
                    found.append((at - 8, end, "in", None, None))   # "it's back in stock"
                elif low.endswith("in ", 0, at) and not (at > 3 and low[at - 4].isalnum()):
                    found.append((at - 3, end, "in", None, None))
            at = low.find(word, at + 1)
    if "few " in low or "handful " in low or "couple " in low:
        found.extend(_a_few_left(low))
    if "available" in low or "all out" in low:
        found.extend(_availability(low, names.evidence))
    foreign = "lager" in low or "ausverkauft" in low or not low.isascii()
    if not foreign:
        for word in _FOREIGN_ASCII:
            if word in low:
                foreign = True
                break
    if foreign:
        found.extend(_foreign_stock(low, names))
        for cue in _FEW_CUES:       # one substring test each: "in stock" runs no pattern more
            if cue in low:
                break
        else:
            return found
        few = _foreign_few(low)
        if few:
            # "Nur noch wenige Stück auf Lager", 품절 임박: the phrase holds a stock word that
            # ``_foreign_stock`` read alone, which says no more than the phrase
            found = [phrase for phrase in found if not any(
                start <= phrase[0] and phrase[1] <= end for start, end, *_ in few)]
            found.extend(few)
    return found


def _foreign_few(low: str) -> list[tuple[int, int, str, None, None]]:
    """A small stock, or a stock back now, said in another language (``_FOREIGN_FEW``): some
    stock, as ``_availability``, unless a supposition or another time is around it."""
    found = []
    for said in _FOREIGN_FEW.finditer(low):
        start, end = said.span()
        if start and low[start - 1].isalpha() and low[start] < "\u3000":
            continue                                    # "noch" of "dennoch"
        if _FEW_OTHERWISE.search(low, max(0, start - 72), start) \
                or _FOREIGN_OTHERWISE_AFTER.match(low, end) or _FEW_OTHERWISE_AFTER.match(low, end):
            continue        # "sobald er wieder auf Lager ist", 再入荷予定, "de nouveau en stock bientôt"
        found.append((start, end, "some", None, None))
    return found


def _things_left(low: str, nouns: frozenset[str]) -> list[tuple[int, int, str, None, str]]:
    """"there are still rooms left", "Hotel Sol has rooms available", "we've got seats
    remaining": some stock of the thing named, judged as "in stock" is, when the noun is one
    the evidence's stock counts (``Evidence.stock_nouns``): "there are still questions left"
    and "we have options available" say nothing of it. Not a negation ("doesn't have rooms
    available") nor a question ("Does it have rooms left?"). Each as (start, end, "in", None,
    the noun reduced like ``noun``)."""
    found = []
    for word in ("left", "remaining", "available"):
        at = low.find(word)
        while at >= 0:
            end = at + len(word)
            said = _THINGS_BEFORE.search(low, max(0, at - 64), at) if not (
                low[end:end + 1].isalnum() or low[end:end + 1] == "-") else None
            if said is not None and noun(said.group(1)) in nouns \
                    and not _THINGS_DENIED.search(low, max(0, said.start() - 16), said.start()) \
                    and not _THINGS_THEIRS.search(low, max(0, said.start() - 24), said.start()) \
                    and not _THINGS_TO_DO.match(low, end):
                close = _THINGS_CLOSE.search(low, end)
                if close is not None and close.group() == "?":
                    at = low.find(word, end)
                    continue
                found.append((said.start(), end, "in", None, noun(said.group(1))))
            at = low.find(word, end)
    return found


def _left_of(low: str, left: Mapping[str, Sequence[Amount]]
             ) -> list[tuple[int, int, str, str, None]]:
    """"you're out of refills" (none) and "a refill remaining", "you still have refills
    available" (some), for a thing the evidence counts only as what is left of it
    (``Evidence.left_amounts``: ``refills_remaining``), as (start, end, "left_zero" or
    "left_some", the thing reduced like ``noun``, None). A count before the thing is rule 5's
    ("1 refill left", "one refill left"), "no"/"zero" before it ``_amount_phrases``'; not a
    negation ("you don't have refills left"), a question, a label ("Refills remaining: 3") nor
    what is left to do."""
    found = []
    at = low.find("out of ")
    while at >= 0:
        said = _WORD_AT.match(low, at + 7)
        if said is not None and not (at and low[at - 1].isalnum()) and noun(said.group()) in left:
            found.append((at, said.end(), "left_zero", noun(said.group()), None))
        at = low.find("out of ", at + 7)
    for word in _LEFT_SAID:
        at = low.find(word)
        while at >= 0:
            end = at + len(word)
            said = _THING_BEFORE_LEFT.search(low, max(0, at - 40), at)
            if said is not None and noun(said.group("thing")) in left \
                    and not (low[end:end + 1].isalnum() or low[end:end + 1] == "-") \
                    and _word_before(low, said.start()) not in _NOT_SOME_BEFORE \
                    and not _word_before(low, said.start())[-1:].isdigit() \
                    and not _THINGS_DENIED.search(low, max(0, said.start() - 24), said.start()) \
                    and not _THINGS_TO_DO.match(low, end) and not _LABEL_AFTER.match(low, end):
                close = _THINGS_CLOSE.search(low, end)
                if close is None or close.group() != "?":
                    found.append((said.start(), end, "left_some", noun(said.group("thing")),
                                  None))
            at = low.find(word, end)
    return found


def _named_availability(low: str, evidence: Evidence) -> list[tuple[int, int, str, None, None]]:
    """"The Navy raincoat is (still) available", "the Navy raincoat is unavailable" or "isn't
    available", with nothing after but a time or "to order" (``_CLAIM_AFTER``): a stock claim
    about the row so named (``Evidence.stock_rows``), as ``_availability`` reads one about "it".
    The phrase starts after the name, so that ``_row_stock`` finds the row right before it."""
    found = []
    for name, _ in evidence.stock_rows:
        at = low.find(name)
        while at >= 0:
            end = at + len(name)
            said = _NAMED_AVAILABLE.match(low, end) if _whole_word(low, at, end) else None
            if said is not None and _CLAIM_AFTER.match(low, _variant_after(low, said.end(),
                                                                           evidence)):
                zero = (said.group("no") is not None) != (said.group("un") is not None)
                found.append((end + 1, said.end(), "zero" if zero else "some", None, None))
            at = low.find(name, end)
    return found


def _nouns_available(low: str, nouns: frozenset[str]) -> list[tuple[int, int, str, None, str]]:
    """"Tickets are (still) available", "Yes, the seats are available", "Tickets are no longer
    available", "Tickets are unavailable": a stock claim about the thing a plural subject
    names, when the evidence's stock counts it (``Evidence.stock_nouns``), with nothing after
    but a time or "to order" (``_CLAIM_AFTER``); not the customer's ("Your tickets are
    available"). Each as (start, end, "some" or "zero", None, the noun reduced like ``noun``),
    judged against the stock fields that count that noun."""
    found = []
    at = low.find("available")
    while at >= 0:
        end = at + 9
        start = at - 2 if low.endswith("un", 0, at) else at
        said = _NOUN_AVAILABLE.search(low, max(0, start - 64), start) \
            if not low[end:end + 1].isalnum() else None
        if said is not None and noun(said.group("thing")) in nouns \
                and _CLAIM_AFTER.match(low, end):
            zero = (start < at) != (said.group("no") is not None)
            found.append((said.start("thing"), end, "zero" if zero else "some", None,
                          noun(said.group("thing"))))
        at = low.find("available", end)
    return found


def _a_few_left(low: str) -> list[tuple[int, int, str, None, None]]:
    """"(only) a few left", "a few Steel Water Bottles left", "a few remaining", "only a
    handful left", "just a couple of raincoats left": some stock, judged as "in stock" is
    (``"in"``: not after a condition or a count), unless it is the customer's ("you have a few
    left") or a length of time ("a few days left": a unit). "A couple" and "a handful" are
    read only after a word that makes them a stock ("only", "just", "are", "have"...): "a
    couple left a review" is two people."""
    found = []
    for phrase in _FEW_PHRASES:
        at = low.find(phrase)
        while at >= 0:
            said = _FEW_LEFT.match(low, at + len(phrase))
            if said is not None and not (at and low[at - 1].isalnum()) and not any(
                    unit_word(word) for word in said.group(1).split()) and not any(
                    w in ("you", "you've", "you're", "your")
                    for w in low[max(0, at - 24):at].split()[-3:]) and (
                    phrase == "a few " or _word_before(low, at) in _FEW_STOCK_BEFORE):
                found.append((at, said.end(), "in", None, None))
            at = low.find(phrase, at + len(phrase))
    return found


def _availability(low: str, evidence: Evidence | None = None
                  ) -> list[tuple[int, int, str, None, None]]:
    """"it's available", "they aren't available", "it's unavailable", "we're all out": each a
    stock claim, as (start, end, "some" or "zero", None, None); see ``_AVAILABLE_BEFORE``. A
    variant of ``evidence`` may follow ("it's available in size 44", ``_variant_after``)."""
    found = []
    for word in ("available", "all out"):
        at = low.find(word)
        while at >= 0:
            end = at + len(word)
            start = at - 2 if word == "available" and low.endswith("un", 0, at) else at
            before = _AVAILABLE_BEFORE if word == "available" else _ALL_OUT_BEFORE
            said = before.search(low, max(0, start - 48), start) if not (
                start and low[start - 1].isalnum() or low[end:end + 1].isalnum()) else None
            if said is not None and _CLAIM_AFTER.match(low, _variant_after(low, end, evidence)):
                zero = True                                 # "all out", "unavailable"
                if word == "available":
                    zero = (start < at) != (said.group("no") is not None)
                    if said.group("no"):                    # "isn't available"
                        start = said.start("no") + (not low[said.start("no")].isalpha())
                        while start and low[start - 1].isalpha():
                            start -= 1
                found.append((start, end, "zero" if zero else "some", None, None))
            at = low.find(word, end)
    return found


def _foreign_stock(low: str, names: _NameOrSize) -> list[tuple[int, int, str, None, None]]:
    """The stock words of other languages (``_FOREIGN_STOCK``), as ``_availability``."""
    found = []
    for word, says in _FOREIGN_STOCK:
        at = low.find(word)
        while at >= 0:
            start, end = at, at + len(word)
            at = low.find(word, end)
            if word[0] < "\u3000":                 # a Latin word: a whole word, with its ending
                ending = _FOREIGN_ENDING.match(low, end)
                if (start and low[start - 1].isalpha()) or ending is None:
                    continue                        # "taken stock", "disponibilità"
                end = ending.end()
            elif low.startswith("음", end):
                end += 1                            # 재고 있음
            # "wieder auf Lager", "nur noch 2 auf Lager", 有货吗; not 小米手环9目前有货
            if names.count_before(_FOREIGN_OTHERWISE, start) is not None \
                    or _FOREIGN_OTHERWISE_AFTER.match(low, end):
                continue
            if end > start + len(word) and _generic_rule(low, word, start, end) \
                    or word[0] >= "\u3000" and _CJK_GENERIC_AFTER.match(low, end):
                continue                # "Les articles épuisés sont remboursés", 品切れの商品は
            if word in ("disponibil", "disponible", "verfügbar"):
                said = (_VERFUEGBAR_BEFORE if word == "verfügbar" else _DISPONIBILE_BEFORE
                        ).search(low, max(0, start - 40), start)
                if (said.group("noun") in _NOT_STOCK_IT if said is not None
                        else not names.named_subject(start)) \
                        or not _CLAUSE_END.match(low, _variant_after(low, end, names.evidence)):
                    continue            # "Il rimborso è disponibile online"
            negated = _FOREIGN_NOT.search(low, max(0, start - 24), start)
            if negated:
                start = negated.start()
            if negated or _FOREIGN_NOT_AFTER.match(low, end):
                found.append((start, end, "some" if says == "zero" else "zero", None, None))
            else:
                found.append((start, end, says, None, None))
    return found


# What ends the clause a stock phrase is read in, for the row it names (``_row_stock``).
_CLAUSE_BREAK = re.compile(r"[!?;\n]|\.(?!\w)|,[ \t]+(?:but|while|whereas|and|though|although)[ \t]|"
                           r"[ \t](?:but|while|whereas)[ \t]")


def _row_stock(low: str, start: int, end: int, evidence: Evidence,
               wanted: str | None = None) -> Sequence[Amount]:
    """The stock amounts a stock phrase [start, end) is judged against: those of the row its
    clause names (``Evidence.stock_rows``: "The Trail Runner is in stock" against the Trail
    Runner's stock only), the nearest name before the phrase first, then the first after it;
    when the clause names no row ("It's still available"), every stock amount but those of a
    row's add-ons (``_unnamed_stock``). Of those, the stock of the variant the clause says by
    its size or colour ("in size 44", ``_variant_stock``, which a stock word ``wanted``,
    "zero" or "some", holds to each variant of a list). The clause is read within 120
    characters each side."""
    amounts = evidence.amounts_by_words.get("stock", ())
    if not amounts:
        return amounts
    rows, variants = evidence.stock_rows, evidence.stock_variants
    if not rows and not variants:
        return amounts
    left = max(0, start - 120)
    for found in _CLAUSE_BREAK.finditer(low, left, start):
        left = found.end()
    right = _CLAUSE_BREAK.search(low, end, end + 120)
    right = right.start() if right is not None else min(len(low), end + 120)
    before, after, inside = None, None, None
    for name, held in rows:
        # a name inside the phrase, maybe plural ("a few Navy raincoats left"), the longest
        at = low.find(name, start, end)
        if at >= 0 and _whole_word(low, at, _plural_end(low, at + len(name), end)) \
                and (inside is None or len(name) > inside[0]):
            inside = (len(name), held)
        # the nearest name; of two at one place the longer ("TRL-3-NAVY-M", not "TRL-3")
        at = low.rfind(name, left, start)
        if at >= 0 and _whole_word(low, at, at + len(name)) \
                and (before is None or (at, len(name)) > before[:2]):
            before = (at, len(name), held)
        at = low.find(name, end, right)
        if at >= 0 and _whole_word(low, at, at + len(name)) \
                and (after is None or (at, -len(name)) < after[:2]):
            after = (at, -len(name), held)
    if inside is not None:
        chosen = inside[1]
    elif before is not None and after is not None and set(after[2]) < set(before[2]):
        chosen = after[2]   # "The Trail Runner is sold out in size 44": a variant of it
    elif before or after:
        chosen = (before or after)[2]
    else:
        chosen = _unnamed_stock(low, left, evidence)
    return _variant_stock(low, (start, end), (left, right), chosen, evidence, wanted) \
        if variants else chosen


def _unnamed_stock(low: str, left: int, evidence: Evidence) -> Sequence[Amount]:
    """The stock a stock phrase whose clause (from ``left``) names no row is judged against:
    ``Evidence.unnamed_stock`` (a sold-out product's "it", not its in-stock add-on), or every
    stock amount when the last row the answer named in the 600 characters before the clause
    is such an add-on ("The Spare laces cost $6. Yes, they're in stock")."""
    unnamed = evidence.unnamed_stock
    amounts = evidence.amounts_by_words.get("stock", ())
    if len(unnamed) == len(amounts):
        return amounts
    last, back = None, max(0, left - 600)
    for name, held in evidence.stock_rows:
        at = low.rfind(name, back, left)
        while at >= 0 and not _whole_word(low, at, at + len(name)):
            at = low.rfind(name, back, at)
        if at >= 0 and (last is None or (at, len(name)) > last[:2]):
            last = (at, len(name), held)
    if last is not None and not any(a in unnamed for a in last[2]):
        return amounts
    return unnamed


# Right before a variant's size or option said in digits or in one or two letters ("in size
# 44", "in 44", "Größe 44", "en la talla 42", "size: M"): the word that makes it one.
_VARIANT_CUE = re.compile(r"(?<!\w)(?:in|en|im|em|auf|size|sizes|größe|grösse|groesse|gr|"
                          r"taille|talla|taglia|tamanho|maat|eu|us|uk|colou?r|farbe|couleur|"
                          r"colore|cor|kleur|option|sku|style)\.?:?[ \t\u00a0]+\Z")


def _variant_stock(low: str, phrase: tuple[int, int], clause: tuple[int, int],
                   chosen: Sequence[Amount], evidence: Evidence, wanted: str | None
                   ) -> Sequence[Amount]:
    """Of the ``chosen`` stock of a stock phrase, the stock of the variants its ``clause``
    says by a value of their own (``Evidence.stock_variants``: "The Trail Runner has 3 left in
    size 44" against the size 44's stock alone); of variants told apart by two values ("44",
    "Black"), those the clause says the most values of. ``chosen`` when it says none. A stock
    word (``wanted``) is held to each: "sold out in sizes 42 and 44" to the stock of the first
    variant said that is not sold out, "in stock in 42 and 44" to that of the first size said
    of which no variant is in stock ("in stock in size 44" needs one 44 in stock, of any
    colour; "sold out in size 44" needs every 44 sold out)."""
    # each value once, though many variants share it ("black")
    seen = {value: _variant_said(low, value, phrase, clause, evidence, ())
            for value in evidence.variant_values}
    said_values = [value for value, said in seen.items() if said]
    if not said_values:
        return chosen
    more = True
    while more:         # "in sizes 42, 43 and 44": the values listed after one said
        more = False
        for value, said in seen.items():
            if not said and _variant_said(low, value, phrase, clause, evidence, said_values):
                seen[value], more = True, True
                said_values.append(value)
    best, picked = 0, []
    paths = {a.path for a in chosen}
    for values, held in evidence.stock_variants:
        said = sum(seen[value] for value in values)
        if not said or said < best or not any(a.path in paths for a in held):
            continue
        if said > best:
            best, picked = said, []
        picked.append((values, held))
    if wanted is not None and len(picked) > 1:
        groups: dict[frozenset[str], list[Amount]] = {}
        for values, held in picked:
            group = groups.setdefault(frozenset(v for v in values if seen[v]), [])
            group.extend(a for a in held if a.path in paths)
        for group in (groups.values() if wanted == "some"
                      else ([a for a in held if a.path in paths] for _, held in picked)):
            if not any(a.state == wanted for a in group):
                return group
    return [a for _, held in picked for a in held if a.path in paths] or chosen


# Between two variants' values of a list ("in sizes 42 and 44", "in black, blue or red"):
# the value before, in group 1 (``_variant_said``).
_VARIANT_LIST_CUE = re.compile(r"(?<![\w.])([^\W_][\w.]*)(?:[ \t\u00a0]*,[ \t\u00a0]*(?:(?:and|"
                               r"or|und|oder|et|ou|y|o)[ \t\u00a0]+)?|[ \t\u00a0]+(?:and|or|und|"
                               r"oder|et|ou|y|o|&)[ \t\u00a0]+)\Z")


def _variant_said(low: str, value: str, phrase: tuple[int, int], clause: tuple[int, int],
                  evidence: Evidence, said: Sequence[str]) -> bool:
    """Whether the clause [left, right) says a variant's ``value`` outside the stock
    ``phrase`` and outside a row's name: a whole word, after a size or option word or a
    preposition (``_VARIANT_CUE``) or after a value already ``said`` and "and", "or" or a
    comma ("in sizes 42 and 44") when it is digits or one or two letters ("in 44", "size M"),
    anywhere when it is a word ("blue", "the black one")."""
    left, right = clause
    at = low.find(value, left, right)
    while at >= 0:
        stop = at + len(value)
        if (stop <= phrase[0] or at >= phrase[1]) and _whole_word(low, at, stop) \
                and not (low[stop:stop + 1] in ".," and low[stop + 1:stop + 2].isdigit()) \
                and (len(value) > 2 and not value[0].isdigit()
                     or _VARIANT_CUE.search(low, max(left, at - 24), at)
                     or _listed_after(low, at, left, said)) \
                and not any(value in name and _inside(low, name, at, stop, clause)
                            for name, _ in evidence.stock_rows):
            return True
        at = low.find(value, stop, right)
    return False


def _listed_after(low: str, at: int, left: int, said: Sequence[str]) -> bool:
    """Whether the value at ``at`` follows one of the values ``said`` in a list ("42 and
    44", "42, 44")."""
    if not said:
        return False
    listed = _VARIANT_LIST_CUE.search(low, max(left, at - 32), at)
    return listed is not None and any(value == listed[1] or value.endswith(" " + listed[1])
                                      for value in said)


def _inside(low: str, name: str, at: int, stop: int, clause: tuple[int, int]) -> bool:
    """Whether [at, stop) of ``low`` lies inside a writing of ``name`` in the clause."""
    found = low.find(name, max(clause[0], stop - len(name)), min(clause[1], at + len(name)))
    return 0 <= found <= at


def _plural_end(low: str, end: int, limit: int) -> int:
    """The end of a name that ends at ``end``, with its plural ending if it has one before
    ``limit`` ("raincoats", "boxes")."""
    for ending in ("s", "es"):
        if low.startswith(ending, end) and end + len(ending) <= limit \
                and not low[end + len(ending):end + len(ending) + 1].isalnum():
            return end + len(ending)
    return end


def _whole_word(low: str, start: int, end: int) -> bool:
    """Whether [start, end) is not part of a longer word. Chinese, Japanese and Korean write no
    spaces: a CJK character next to a name is its edge (トートバッグは, 保温杯有货, 텀블러는)."""
    before, after = low[start - 1:start], low[end:end + 1]
    return not (before.isalnum() and not _is_cjk(before)) \
        and not (after.isalnum() and not _is_cjk(after))


def _amount_words(text: str, low: str, evidence: Evidence, az: str | None = None
                  ) -> list[Finding]:
    """The phrases of rule 12 in ``text`` the evidence does not back; ``low`` is ``text``
    lower-cased, ``az`` its ``az_text`` when the caller has it."""
    if az is None:
        az = az_text(az_words(low))
    # Most answers hold none of the phrases: substring tests (no calls) decide that first,
    # each cue of a-z (or its piece of a-z before or after a space) on ``az``, which answers
    # as ``low`` does for a third of the cost, and the cues not of ASCII only when ``low``
    # holds a character that is not.
    if not (("no" in az and "no " in low) or "stock" in az or ("zero" in az and "zero " in low)
            or " 0 " in low or low.startswith("0 ") or ("sold" in az and "sold out" in low)
            or ("not" in az and "not a" in low) or ("any" in az and "out any" in low)
            or "left" in az or "remaining" in az or "available" in az
            or ("all" in az and "all out" in low) or "lager" in az or "ausverkauft" in az
            or ("out" in az and "out of " in low and bool(evidence.left_amounts))
            or not low.isascii() and ("货" in low or "售罄" in low)):
        for word in _FOREIGN_AZ:
            if word in az:                  # the stock words of other languages
                break
        else:
            for piece, word in _FOREIGN_SPACED:
                if piece in az and word in low:
                    break
            else:
                if low.isascii():
                    return []
                for word in _FOREIGN_OTHER:
                    if word in low:
                        break
                else:
                    return []
    if len(low) != len(text):
        low = _ascii_lower(text)        # index for index with the text
    findings = []
    supposing = _SUPPOSING.search(low) is not None     # once: most texts suppose nothing
    counted: dict[tuple[str, str | None], tuple[Sequence[Amount], int]] = {}
    names = _NameOrSize(low, evidence.names, evidence)
    phrases = _amount_phrases(low, names)
    if evidence.stock_nouns and ("left" in low or "remaining" in low or "available" in low):
        # "there are still rooms left", "The Navy raincoat is still available": not inside a
        # phrase read above ("a few rooms left")
        more = _things_left(low, evidence.stock_nouns)
        if "available" in low:
            more += _named_availability(low, evidence)
            subjects = _nouns_available(low, evidence.stock_nouns)
            if subjects:    # "Tickets are no longer available" holds a "no <thing>" read above
                phrases = [phrase for phrase in phrases if not any(
                    s <= phrase[0] and phrase[1] <= e for s, e, *_ in subjects)]
                more += subjects
        read = [(start, end) for start, end, *_ in phrases]
        phrases += [phrase for phrase in more
                    if not any(s < phrase[1] and phrase[0] < e for s, e in read)]
    if ("out of " in low or "left" in low or "remaining" in low or "available" in low) \
            and evidence.left_amounts:
        # "you're out of refills", "a refill remaining": what is left of a thing that is no
        # stock, which no stock phrase read above speaks for ("refills available")
        more = _left_of(low, evidence.left_amounts)
        if more:
            phrases = [phrase for phrase in phrases if not any(
                s < phrase[1] and phrase[0] < e for s, e, *_ in more)] + more
    for start, end, says, first, second in phrases:
        if supposing and _SUPPOSED.search(low, max(0, start - 64), start):
            continue
        if says in ("in", "out") and (
                _STOCK_ANOTHER_TIME_BEFORE.search(low, max(0, start - 16), start)
                or _word_after(low, end) in (
                    _LEFT_ANOTHER_TIME_AFTER if low.endswith(("left", "remaining"), 0, end)
                    else _STOCK_ANOTHER_TIME_AFTER)
                or (_word_after(low, end) in _STOCK_TIME_PREPS
                    and not low.endswith(("left", "remaining"), 0, end)
                    and _STOCK_PREP_TIME.match(low, end))
                or (low.startswith("out-of-", start) and _word_after(low, end).isalpha()
                    and _word_after(low, end) not in ("and", "or", "but", "now", "today"))):
            continue        # another time, or "out-of-stock items": not a claim about now
        if says in ("in", "out"):
            negated = _STOCK_NEGATED.search(low, max(0, start - 32), start)
            if negated is not None:     # "isn't sold out", "no longer in stock"
                start = negated.start()
                while start and low[start - 1].isalpha():
                    start -= 1
                says = "some" if says == "out" else "zero"
        if says in ("left_zero", "left_some"):
            amounts = evidence.left_amounts[first]
            wanted = "zero" if says == "left_zero" else "some"
            if wanted == "zero":
                amounts = [a for a in amounts if a.state != "unknown"]
        elif says == "in":
            if names.count_before(_IN_STOCK_OTHERWISE, start) is not None:
                continue
            amounts, wanted = _row_stock(low, start, end, evidence, "some"), "some"
            if second is not None:
                # "there are still tickets left": the stock of tickets, when the evidence
                # counts them apart (``tickets_remaining`` beside an add-on's ``available``)
                amounts = [a for a in amounts if second in a.words] or amounts
        elif says in ("out", "zero", "some") and first is None:
            wanted = "some" if says == "some" else "zero"
            amounts = _row_stock(low, start, end, evidence, wanted)
            if second is not None:      # "Tickets are still available": the tickets' stock
                amounts = [a for a in amounts if second in a.words] or amounts
        else:
            if _word_before(low, start) not in _HAVING:
                continue    # "No items were missing", "at no cost", "You gained no followers"
            key = (first, second)
            if key not in counted:
                counted[key] = _counted(evidence, first, second)
            amounts, words = counted[key]
            if words == 2:
                end = low.index(second, end) + len(second)
            if _word_after(low, end) in _VERB_AFTER:
                continue    # "there were no comments flagged", "no seats left"
            # A null is "none" as often as "not recorded" ("no tracking number yet"): it
            # neither backs nor contradicts "no <thing>".
            amounts, wanted = [a for a in amounts if a.state != "unknown"], "zero"
        if not amounts or any(a.state == wanted for a in amounts):
            continue        # the evidence counts no such thing, or says so
        findings.append(_amount_finding(text[start:end], start, wanted, amounts))
    return findings


# Magnitude words claim a count in a band: "dozens of comments" 24-199, "hundreds of views"
# 200-1,999, "thousands of likes" 2,000-999,999, "millions of" 2,000,000-999,999,999, "billions
# of" 2e9-999,999,999,999; "tens of" and "hundreds of" before thousands, millions or billions
# narrow it ("tens of thousands" 20,000-99,999, "hundreds of thousands" 200,000-999,999). The
# bands meet, so that a figure is in exactly one of the plain words' bands; each starts at two
# (two dozen, two hundred), "a hundred" being no "hundreds".
_MAGNITUDES = {"dozens": (24, 199), "hundreds": (200, 1999), "thousands": (2000, 999_999),
               "millions": (2 * 10**6, 10**9 - 1), "billions": (2 * 10**9, 10**12 - 1)}
_MAGNITUDE_UNITS = {"thousands": 10**3, "millions": 10**6, "billions": 10**9}
# "several hundred", "a few hundred" and "a couple hundred" claim 200-999 of the thing after
# them ("a few thousand views" 2,000-9,999); "a few hundred thousand" 200,000-999,999. "some
# hundred" is a hundred or more, 100-999. The thing may also be a label before them ("Views:
# several hundred.").
_FEW_WORDS = ("several ", "a few ", "a couple ", "some ")
_FEW_LABEL = re.compile(r"(?:^|[\n.!?][ \t]*)(?:[-*][ \t]+)?(?:\*\*)?([a-z]+)(?:[ ]([a-z]+))?"
                        r"(?:\*\*)?:(?:\*\*)?[ \t]*\Z")
# French "des centaines de vues" and its kin claim the bands of "hundreds of" ("des dizaines"
# from 20, not 24: a dizaine is ten); Chinese 数百, 几百
# (200-999) and 数千, 几千 (2,000-9,999) those of "several hundred" and "several thousand", judged
# against every figure of the evidence (no field is named in Chinese).
_FRENCH_MAGNITUDES = (("des dizaines d", (20, 199)),     # une dizaine is ten
                      ("des centaines d", _MAGNITUDES["hundreds"]),
                      ("des milliers d", _MAGNITUDES["thousands"]),
                      ("des millions d", _MAGNITUDES["millions"]))
_CJK_MAGNITUDE = re.compile(r"[数數几幾]([百千万萬])")
_CJK_BANDS = {"百": (200, 999), "千": (2000, 9999), "万": (20_000, 99_999), "萬": (20_000, 99_999)}


def _cjk_magnitude_spans(text: str) -> list[tuple[int, int, tuple[int, int]]]:
    """(start, end, band) of each 数百, 几千... of ``text``."""
    if "百" not in text and "千" not in text and "万" not in text and "萬" not in text:
        return []
    return [(m.start(), m.end(), _CJK_BANDS[m.group(1)]) for m in _CJK_MAGNITUDE.finditer(text)]
_FEW_UNITS = {"hundred": 100, "thousand": 10**3, "million": 10**6, "billion": 10**9}
_MAGNITUDE_BEFORE = re.compile(r"(?<![\w-])(tens|hundreds)[ \t\u00a0]+of[ \t\u00a0]+\Z")
_MAGNITUDE_DETERMINERS = frozenset("the your our their his her its my these those".split())
# After "of", things that make it hyperbole: "hundreds of times better", "thousands of ways".
_MAGNITUDE_IDIOMS = frozenset("time times way ways reason reasons year years thanks".split())
# "viewed hundreds of times": the verb before says what is counted; a comparative after
# "times" keeps it hyperbole ("hundreds of times more").
_TIMES_VERBS = {"viewed": "views", "seen": "views", "watched": "views", "played": "plays",
                "shared": "shares", "liked": "likes", "downloaded": "downloads",
                "clicked": "clicks", "visited": "visits", "opened": "opens",
                "streamed": "streams", "reposted": "reposts", "retweeted": "retweets"}
# Who does what the verb after them says: "several hundred people viewed the post" counts views.
_PEOPLE = frozenset("people persons users visitors readers viewers customers fans "
                    "accounts".split())
# Between the people and their verb: "people have viewed", "people had already liked".
_HELPING = frozenset("have has had already all also now since ever just recently".split())
_PEOPLE_VERB = re.compile(r"(?:[ \t\u00a0]+(?:" + "|".join(sorted(_HELPING)) + r")){0,2}"
                          r"[ \t\u00a0]+([a-z]+)")
_TIMES_COMPARED = frozenset("more less better worse faster slower bigger larger higher lower "
                            "over as the than".split())


def _magnitudes(text: str, low: str, evidence: Evidence) -> list[Finding]:
    """Each magnitude phrase (``_MAGNITUDES``) judged against the fields that count the thing
    said after "of" ("hundreds of views": ``views``), as "no views" is: one of them must be in
    the band. When no field counts it ("hundreds of customers"), some figure of the evidence
    must be, as for a number word. A phrase in a supposing clause states nothing."""
    if len(low) != len(text):
        low = _ascii_lower(text)
    findings = []
    supposing = _SUPPOSING.search(low) is not None
    memo: dict = {}                 # what each thing and band was judged, once per text
    for word, (lo, hi) in _MAGNITUDES.items():
        key = word + " of"
        at = low.find(key)
        while at >= 0:
            end = at + len(key)
            start, found = at, at
            at = low.find(key, end)
            if (start and (low[start - 1].isalnum() or low[start - 1] in "-_")) \
                    or not low[end:end + 1].isspace():
                continue
            if word == "hundreds" and _word_after(low, end) in _MAGNITUDE_UNITS:
                continue                    # "hundreds of thousands": read at "thousands"
            band = (lo, hi)
            unit = _MAGNITUDE_UNITS.get(word)
            if unit is not None:
                before = _MAGNITUDE_BEFORE.search(low, max(0, found - 16), found)
                if before is not None:
                    times = 10 if before.group(1) == "tens" else 100
                    band, start = (2 * times * unit, 10 * times * unit - 1), before.start()
            if supposing and _SUPPOSED.search(low, max(0, start - 64), start):
                continue
            finding = _magnitude(text, low, evidence, start, end, band, memo)
            if finding is not None:
                findings.append(finding)
    for key, band in _FRENCH_MAGNITUDES if "des " in low else ():
        at = low.find(key)
        while at >= 0:
            start, end = at, at + len(key)
            at = low.find(key, end)
            if (start and low[start - 1].isalnum()) or not (
                    low.startswith("e ", end) or low.startswith(("'", "’"), end)):
                continue
            if supposing and _SUPPOSED.search(low, max(0, start - 64), start):
                continue
            if low[end] == "e":             # "des centaines de vues": the thing after "de"
                finding = _magnitude(text, low, evidence, start, end + 1, band, memo)
            else:                           # "des milliers d'abonnés": the band alone
                finding = _in_band(text, evidence, start, end + 1, band, memo)
            if finding is not None:
                findings.append(finding)
    cjk = "数" in text or "几" in text or "數" in text or "幾" in text
    for start, end, band in _cjk_magnitude_spans(text) if cjk else ():
        finding = _in_band(text, evidence, start, end, band, memo)
        if finding is not None:
            findings.append(finding)
    for few in _FEW_WORDS:
        at = low.find(few)
        while at >= 0:
            start, end = at, at + len(few)
            at = low.find(few, end)
            unit = _word_after(low, end - 1)
            if unit not in _FEW_UNITS or (start and (low[start - 1].isalnum()
                                                     or low[start - 1] in "-_")):
                continue
            end = low.index(unit, end) + len(unit)
            closed = low[end:end + 1] in ("", ".", ",", ";", "!", "\n")
            if not (closed or low[end:end + 1].isspace()):
                continue                    # "a few hundred-dollar", "several thousands"
            scale = _FEW_UNITS[unit]
            if unit == "hundred" and _word_after(low, end) in _FEW_UNITS:
                following = _word_after(low, end)   # "a few hundred thousand"
                end = low.index(following, end) + len(following)
                scale *= _FEW_UNITS[following]
            if supposing and _SUPPOSED.search(low, max(0, start - 64), start):
                continue
            label = None
            if closed:                      # "Views: several hundred."
                label = _FEW_LABEL.search(low, max(0, start - 40), start)
                if label is None:
                    continue
            finding = _magnitude(text, low, evidence, start, end,
                                 ((1 if few == "some " else 2) * scale, 10 * scale - 1), memo,
                                 label)
            if finding is not None:
                findings.append(finding)
    return findings


def _in_band(text: str, evidence: Evidence, start: int, end: int, band: tuple[int, int],
             memo: dict) -> Finding | None:
    """The finding on a magnitude phrase [start, end) that names no field: some figure of the
    evidence must be in ``band``."""
    lo, hi = band
    if band not in memo:
        memo[band] = any(lo <= value <= hi for value in evidence.values)
    if memo[band]:
        return None
    said = text[start:end]
    return _new_finding("word_number", said, f"{lo}-{hi}", start, end, "unsupported_number",
                        f"'{said}' says {lo:,}-{hi:,}, and no figure of the evidence is in "
                        "that range")


def _magnitude(text: str, low: str, evidence: Evidence, start: int, end: int,
               band: tuple[int, int], memo: dict, label: re.Match | None = None
               ) -> Finding | None:
    """The finding on one magnitude phrase [start, end) ("hundreds of", up to "of"), or None.
    ``memo`` keeps the fields that count each thing and whether a figure is in each band.
    ``label`` is a label before the phrase that names the thing ("Views: several hundred")."""
    counted = label or _COUNTED_WORDS.match(low, end)
    if counted is None:
        return None
    if counted.group(1) in _MAGNITUDE_DETERMINERS and counted.group(2):
        counted = _COUNTED_WORDS.match(low, counted.end(1))    # "thousands of your followers"
    first, second = counted.group(1), counted.group(2)
    if first in _PEOPLE and second is not None:
        if second in _HELPING:                      # "people have (already) viewed it"
            verb = _PEOPLE_VERB.match(low, counted.end(2))
            second = verb.group(1) if verb is not None else second
        if second in _TIMES_VERBS:
            first, second = _TIMES_VERBS[second], None  # "several hundred people viewed": views
    if first in ("time", "times"):
        # "viewed hundreds of times" counts views; "hundreds of times better" is hyperbole
        done = _TIMES_VERBS.get(_word_before(low, start))
        if done is None or second in _TIMES_COMPARED:
            return None
        first, second = done, None
    elif first in _MAGNITUDE_IDIOMS:
        return None
    if (first, second) not in memo:
        memo[first, second] = _counted(evidence, first, second)
    amounts, words = memo[first, second]
    if label is None:
        end = counted.end(2) if words == 2 and amounts else counted.end(1)
    said = text[start:end]
    lo, hi = band
    shown = f"{lo:,}-{hi:,}"
    known = [(a, Decimal(a.shown[10:] if a.shown.startswith("a list of ") else a.shown))
             for a in amounts if a.state in ("some", "zero")
             and (a.shown.isdigit() or a.shown.startswith("a list of "))]
    if known:
        if any(lo <= value <= hi for _, value in known):
            return None
        held = ", ".join(f"{a.path} is {a.shown}" for a, _ in known[:3])
        return _new_finding("word_number", said, f"{lo}-{hi}", start, end, "unsupported_number",
                            f"'{said}' says {shown}, but {held}")
    withheld = [a for a in amounts if a.state not in ("some", "zero")]
    if withheld:
        code = "placeholder" if withheld[0].state == "unknown" else withheld[0].state
        return _new_finding("word_number", said, f"{lo}-{hi}", start, end, code,
                            f"'{said}' says {shown}, but the evidence does not record it "
                            f"({withheld[0].path} is {withheld[0].shown})", withheld[0].input)
    if band not in memo:
        memo[band] = any(lo <= value <= hi for value in evidence.values)
    if memo[band]:
        return None
    return _new_finding("word_number", said, f"{lo}-{hi}", start, end, "unsupported_number",
                        f"'{said}' says {shown}, and no figure of the evidence is in that range")


# After a number, words that make it a stock level: "only 2 left", "12 in stock", "3 units
# remaining", "5 available", "12 pairs remain", "2 tickets are still available", "noch 2 (Stück)
# auf Lager", "nur noch 2 Karten übrig", "noch 22 Plätze frei", and the stock words of other
# languages with their counters: "il en reste 4 (unités) en stock", "quedan 4 unidades en
# stock", "temos 4 em estoque", "nog 4 (stuks) op voorraad", "4 pezzi in magazzino", "4 Stück
# vorrätig", "2 entradas restantes". The word between (``thing``) makes the number a level
# when it is a counter of stock (``_STOCK_COUNTERS``: units, tickets, seats, places) or a
# thing the evidence's stock counts (``Evidence.stock_nouns``): "2 days left" is time.
_STOCK_LEVEL = re.compile(r"[ \t\u00a0]+(?:(?P<thing>(?!(?:still|are|is|now|left|remaining|remains?|available|in|auf|en|em|op)[ ])[^\W\d_]+)[ ]+)?"
                          r"(?:(?:are|is)[ ]+)?(?:still[ ]+)?"
                          r"(?:left(?![ ]+to[ ]+(?!buy|order|purchase|sell|grab)[a-z])|"
                          r"in stock|auf lager|vorrätig|übrig|en stock|em estoque|"
                          r"en existencias?|op voorraad|in magazzino|restantes|rimanenti|"
                          r"(?:remaining|remains?|available|disponibles|disponibili|disponíveis|"
                          r"beschikbaar)(?![ ]+(?!now|today|for|to|in|at|from)[a-z]))(?![\w-])"
                          r"|[ \t\u00a0]+(?P<seats>(?:sitz)?plätze)[ ]+frei(?![\w-])")
# The counters of things in stock that may stand between a number and its stock word, and the
# words for seats and tickets (a stock noun of their own where the evidence names them so).
_STOCK_COUNTERS = frozenset("""unit units item items piece pieces pcs pair pairs more stück
    unité unités pièce pièces exemplaire exemplaires unidad unidades peça peças unità pezzi stuk
    stuks ticket tickets seat seats spot spots place places plätze sitzplätze karten tickets
    billet billets plaza plazas entrada entradas asiento asientos boleto boletos posto posti
    biglietto biglietti lugar lugares bilhete bilhetes ingresso ingressos plaats plaatsen kaarten
    """.split())
# Before a number and its thing, words that make them things held, not stock: "Your 2 tickets
# are available in the app", "The 2 tickets are available in your account".
_THINGS_HELD = frozenset("your my our his her their the these those both".split())
# The English noun of a counter of tickets or seats in another language, for the stock field
# that names the thing (``tickets_remaining``, ``seats_left``): "quedan 2 entradas".
_COUNTER_NOUNS = {**dict.fromkeys("""karten karte billet billets entrada entradas boleto boletos
                                     biglietto biglietti bilhete bilhetes ingresso ingressos
                                     kaarten""".split(), "ticket"),
                  **dict.fromkeys("""plätze sitzplätze platz place places plaza plazas asiento
                                     asientos posto posti lugar lugares assento assentos plaats
                                     plaatsen""".split(), "seat")}
# Before a number, CJK words that make it a stock level (仅剩2件, 库存还有12件, 在庫は残り2点),
# with a counter or the end of the clause after it (剩余2天 is two days left).
_CJK_STOCK_BEFORE = ("剩", "剩下", "剩余", "库存", "库存有", "库存还有", "残り", "在庫")
_CJK_STOCK_AFTER = re.compile(r"[件个個双雙台点點本套份支瓶盒]|[。，！,.!]|\Z")
# After a number, a Korean counter and "left" (남았습니다, 남아 있습니다, 남음, 남은, 밖에 남지
# 않았습니다): 20개 남았습니다 is a stock level; 20일 남았습니다 (days) is not.
_KO_COUNTER = r"[ \t\u00a0]?(?:개|점|벌|켤레|장|권|병|대|세트)"
_KO_STOCK_AFTER = re.compile(_KO_COUNTER + r"[ \t\u00a0]?(?:밖에[ \t\u00a0]?)?남(?:았|아|음|은|지)")
# Before a number, the Korean word for stock ("재고 3개", "재고는 3개"), with a counter after it.
_KO_STOCK_BEFORE = re.compile(r"재고(?:는|가|도)?[ \t\u00a0]*\Z")
_KO_COUNTED = re.compile(_KO_COUNTER)
# Before a number, French and Portuguese "there remain(s)": "il (ne) reste (plus que)", "il n'en
# reste que", "plus que", "restam (apenas)", "resta (só)"; with a counter or the end of the clause after
# the number (``_LEFT_COUNTED``): "il reste 15 jours" and "restam 10 dias" count time.
_LEFT_BEFORE = re.compile(r"(?<![\w'’])(?:il[ \t\u00a0]+(?:ne[ \t\u00a0]+|n['’])?(?:en[ \t\u00a0]+)?"
                          r"reste(?:nt)?|restam?|plus[ \t\u00a0]+que|quedan?|rimangono|restano)"
                          r"(?:[ \t\u00a0]+(?:plus|encore|seulement|que|solo|sólo|solamente|"
                          r"apenas|só|somente|ainda|mais))*[ \t\u00a0]+\Z")
_LEFT_COUNTED = re.compile(r"[ \t\u00a0]*(?:[.!,;:)\n]|\Z)|[ \t\u00a0]+(?:unités?|exemplaires?|"
                           r"articles?|pièces?|produits?|unidades?|exemplares?|peças?|itens|"
                           r"item|produtos?|artigos?|en stock|em estoque|places?|billets?|entradas?|plazas?|"
                           r"asientos?|boletos?|posti|biglietti|lugares|bilhetes|ingressos|"
                           r"assentos)(?![\w-])")


# The word right after a number ("il reste 22 places", "quedan 2 entradas"): what is left.
_LEFT_THING = re.compile(r"[ \t\u00a0]+([^\W\d_]+)")


def _stock_levels(low: str, mentions: Sequence[Mention], evidence: Evidence) -> list[Finding]:
    """A number said as a stock level must be one of the evidence's stock levels, when it
    states any: "only 2 left" is not backed by a rating of 2 while the stock is 12. The digits
    of a name or a size are no level ("Größe 42 auf Lager", ``_NameOrSize``). ``low`` is the
    text lower-cased, index for index."""
    findings = []
    cjk = "剩" in low or "库存" in low or "在庫" in low or "残り" in low
    korean = "남" in low or "재고" in low
    left = "reste" in low or "restam" in low or "resta " in low or "plus que" in low \
        or "queda" in low or "rimangono" in low or "restano" in low
    memo: dict[tuple[int, str | None], tuple[set[Decimal], str, Sequence[Amount]]] = {}
    names = None
    for mention in mentions:
        if mention.kind not in _FIGURE_KINDS or mention.value is None or mention.percent \
                or mention.currency:
            continue
        level = _STOCK_LEVEL.match(low, mention.end)
        thing = level and (level["thing"] or level["seats"])
        if thing and (thing not in _STOCK_COUNTERS and noun(thing) not in evidence.stock_nouns
                      or _word_before(low, mention.start) in _THINGS_HELD):
            level = None            # "3 days left": time; "Your 2 tickets are available": held
        if not level and not (
                cjk and low.endswith(_CJK_STOCK_BEFORE, 0, mention.start)
                and _CJK_STOCK_AFTER.match(low, mention.end)) and not (
                korean and (_KO_STOCK_AFTER.match(low, mention.end) or (
                    _KO_STOCK_BEFORE.search(low, max(0, mention.start - 8), mention.start)
                    and _KO_COUNTED.match(low, mention.end)))) and not (
                left and _LEFT_BEFORE.search(low, max(0, mention.start - 40), mention.start)
                and _LEFT_COUNTED.match(low, mention.end)):
            continue
        names = names or _NameOrSize(low, evidence.names)
        if names(mention.start, mention.end, None):
            continue                # "Größe 42 auf Lager", "Pixel 9 in stock": no stock level
        # "The Trail Runner has 2 left": the stock of the row the clause names, if it names one
        amounts = _row_stock(low, mention.start, mention.end, evidence)
        if not level:
            thing = _LEFT_THING.match(low, mention.end)
            thing = thing and thing[1]
        # "2 tickets left": the stock of tickets, when the evidence counts them apart
        # (``tickets_remaining`` beside an add-on's ``available``)
        thing = _COUNTER_NOUNS.get(thing) or noun(thing) if thing else None
        key = (id(amounts), thing)
        if key not in memo:
            things = [a for a in amounts if thing in a.words] if thing else ()
            held = {Decimal(a.shown) for a in things or amounts
                    if a.state in ("some", "zero") and a.shown.isdigit()}
            # the amounts kept alive with their levels, so that no later list takes their id
            memo[key] = held, ", ".join(str(level) for level in sorted(held)[:3]), amounts
        levels, shown, _ = memo[key]
        if levels and mention.value not in levels:
            findings.append(_new_finding(
                mention.kind, mention.text, plain_decimal(mention.value), mention.start,
                mention.end, "unsupported_number", f"{mention.text} is said as a stock level, "
                f"and the evidence's stock is {shown}"))
    return findings


# A number in digits and the word right after it: the pairs ``rulekit.sweep`` tests before
# ``_count_levels`` reads any mention. Digits start only at the start of their run, so a long
# run is read once.
# (The look-behind keeps a match from starting inside a run of digits and separators: without
# it, every digit of "1,2,3,..." started a match that ran to the end of the run, and a 1 MB
# adversarial text took 134 s. It sits after the first digit so that the pattern starts with a
# digit, which lets ``re`` skip every other position: a text without digits is searched 4 times
# faster.)
_NUMBER_THEN_WORD = re.compile(r"(\d(?<![\d,.]\d)[\d,.]*)[ \u00a0-]([A-Za-z]+)(?![\w-])")
# The same for an ASCII text, where "[0-9]" is "\d" without a look-up of each character's
# Unicode category (the pairs of a 300-character answer were found with a third less work).
_NUMBER_THEN_WORD_ASCII = re.compile(r"([0-9](?<![0-9,.][0-9])[0-9,.]*)[ \u00a0-]([A-Za-z]+)"
                                     r"(?![\w-])")
# A count glued to its thing by a hyphen: "a 4-night stay".
_HYPHEN_WORD = re.compile(r"-([A-Za-z]+)(?![\w-])")
# Words before a count that make it a part of the rows, or a scale, not all of them: "your
# last 5 rounds", "your top 3 posts", "out of 5 stars".
_COUNT_SUBSET = frozenset({"of", "last", "past", "first", "latest", "recent", "previous", "final",
                           "next", "top", "bottom", "best", "worst"})


# A count said in the locale's words for a unit the evidence counts ("4 Nächte", "4 nuits", "4
# notti" for ``nights``, read by ``rulekit.units.unit_word``), and a counter right after the
# digits in Japanese and Chinese (4泊): the stems a text must hold (lower-cased) before
# ``_count_levels`` reads them, and the counters.
_COUNTED_STEMS = {"de": ("nächte", "nacht"), "fr": ("nuit",), "es": ("noche",),
                  "it": ("nott",), "pt": ("noite",), "nl": ("nacht",), "ja": ("泊",),
                  "zh": ("泊",)}
_COUNTED_CJK = {"泊": "night"}
_WORD_AFTER_ANY = re.compile(r"[ \u00a0]([^\W\d_]+)(?![\w-])")


def counted_other(low: str, lang: str, counted: Mapping) -> bool:
    """Whether ``low`` (the answer lower-cased) may say a count of nights in the words of
    ``lang``, the evidence counting nights (``_COUNTED_STEMS``)."""
    stems = _COUNTED_STEMS.get(lang)
    return stems is not None and "night" in counted and any(stem in low for stem in stems)


def _counted_after(text: str, end: int, lang: str, counted: Mapping) -> tuple[str, str] | None:
    """The word after a number that ends at ``end`` in the locale's language that names a unit
    the evidence counts, and that unit's word in ``counted`` ("Nächte", "nights"), or None."""
    unit = _COUNTED_CJK.get(text[end:end + 1])
    said = text[end:end + 1]
    if unit is None:
        found = _WORD_AFTER_ANY.match(text, end)
        if found is None:
            return None
        said, unit = found[1], unit_word(found[1], lang)
    for thing in (f"{unit}s", unit) if unit else ():
        if thing in counted:
            return said, thing
    return None


def _count_levels(text: str, mentions: Sequence[Mention], evidence: Evidence,
                  flagged: list[Finding], count_pair, lang: str = "en") -> None:
    """A number right before a thing the evidence counts (``Evidence.counted``: "It has 3
    reviews") is a count of it: one of those counts must be it, and another figure (a rating
    of 3) does not back it. A part of the rows or a scale is not ("your last 5 rounds", "out
    of 5 stars", "4 of 5 reviews": ``count_pair(index)`` reads that pair). Adds its findings to
    ``flagged``, the findings so far, and skips the mentions they hold. Outside English a
    count of nights in the locale's words is read too (``_counted_after``: "4 Nächte", 4泊).
    ``rulekit.sweep`` calls
    it only when ``_NUMBER_THEN_WORD`` finds a counted word after digits that are not one of
    its counts as written, or the text holds a number in words: most answers pay that one
    pass and nothing more."""
    counted = evidence.counted
    done = {(f.start, f.end) for f in flagged}
    for index, mention in enumerate(mentions):
        value = mention.value
        if mention.kind not in _FIGURE_KINDS or value is None or mention.ordinal \
                or mention.decimals or mention.scaled or mention.percent or mention.currency \
                or (mention.start, mention.end) in done:
            continue
        # glued to a word by a hyphen only ("a 4-night stay"), not "A4", "4x"
        after = _HYPHEN_WORD.match(text, mention.end) if mention.glued else WORD_AFTER.match(
            text, mention.end)
        said = thing = after[1] if after is not None else None
        if thing not in counted:
            if lang == "en":
                continue
            other = _counted_after(text, mention.end, lang, counted)
            if other is None:
                continue
            said, thing = other
        counts = counted[thing][0]
        if value in counts or not value or value != value.to_integral_value():
            # "0 likes" says there are none: rule 12's (``_amount_words``)
            continue
        if (-value, False) in evidence.changes \
                and change_word_before(text, mention.start) in FALL_BEFORE:
            continue    # "lost 41 followers": the size of a fall the evidence holds (-41)
        before = mention.before.split()
        subset = before[-1].casefold() if before else ""
        if subset in _COUNT_SUBSET and not _whole_of(before) or count_pair(index):
            if subset == "of" or not counts or value <= max(counts):
                continue
            # "your top 8 posts" of 7: a part of the rows no larger than them (rule 5)
        held = ", ".join(plain_decimal(count) for count in sorted(counts)[:3]) or "none"
        flagged.append(_new_finding(
            mention.kind, mention.text, plain_decimal(value), mention.start, mention.end,
            "unsupported_number", f"'{mention.text.strip()}"
            f"{'' if said in _COUNTED_CJK else ' '}{said}' is a count, and the "
            f"evidence's counts of {thing.casefold()} are {held}"))


# A figure said in stars ("4 stars", "a 4-star hotel", "4 Sterne", "4-Sterne-Hotel", "4
# étoiles", 4つ星, 5星级; not 3星期, three weeks), not a count of reviews at that level ("5-star
# reviews") nor a scale ("out of 5 stars", "8.7/10 stars"): ``star_levels``.
_STARS_AFTER = re.compile(r"[ \u00a0-]?(?:stars?|sterne?n?|étoiles?|estrellas?|stelle|stella|"
                          r"estrelas?|sterren|ster)(?![\w])|つ星|星(?!期)", re.IGNORECASE)
_STARS_NOT_AFTER = re.compile(r"[ \u00a0-]*(?:reviews?|ratings?|bewertung(?:en)?|avis|reseñas|"
                              r"recensioni|avaliações|beoordelingen)(?![\w])", re.IGNORECASE)
_STARS_SCALE_BEFORE = re.compile(r"(?:(?<![\w])(?:out of|of|von|sur|su|de|van)[ \u00a0]+"
                                 r"|/[ \u00a0]*)\Z", re.IGNORECASE)


def may_say_stars(az: str, low: str, lang: str) -> bool:
    """The cheap test before ``star_levels``: whether the answer (``az``: its words of a-z;
    ``low``: lower-cased) holds a word of stars of English or of ``lang``."""
    return "star" in az or (lang in ("de", "nl") and "ster" in az) or (
        lang == "fr" and "toile" in low) or (lang in ("es", "pt") and "estrel" in az) or (
        lang == "it" and "stell" in az) or (lang in ("ja", "zh") and "星" in low)


def star_levels(text: str, mentions: Sequence[Mention], evidence: Evidence,
                flagged: list[Finding]) -> None:
    """A figure said in stars (``_STARS_AFTER``) is a star rating: when the evidence names a
    field for stars (``Evidence.star_values``), one of those values must be it, and another
    figure (a review score of 8.7, its scale of 10) does not back it. Adds its findings to
    ``flagged`` and skips the mentions they hold."""
    done = {(f.start, f.end) for f in flagged}
    for mention in mentions:
        value = mention.value
        if mention.kind not in _FIGURE_KINDS or value is None or mention.percent \
                or mention.currency or mention.scaled or (mention.start, mention.end) in done:
            continue
        said = _STARS_AFTER.match(text, mention.end)
        if said is None or _STARS_NOT_AFTER.match(text, said.end()) \
                or _STARS_SCALE_BEFORE.search(text, max(0, mention.start - 8), mention.start):
            continue
        held = evidence.star_values
        if held is None:
            return
        if value in held[0]:
            continue
        shown = ", ".join(plain_decimal(v) for v in sorted(held[0])[:3]) or "none"
        flagged.append(_new_finding(
            mention.kind, mention.text, plain_decimal(value), mention.start, mention.end,
            "unsupported_number", f"'{mention.text.strip()}{said.group()}' is said in stars, "
            f"and the evidence's star ratings are {shown} ({held[1]})"))


def _whole_of(before: list[str]) -> bool:
    """Whether "of" ending ``before`` (the words before a count) names the whole, not a part:
    "your stay of 4 nights", "a total of 5 reviews"; not "2 out of 5", "one of 3 reviews",
    "most of 4 posts"."""
    return before[-1].casefold() == "of" and len(before) > 1 and \
        before[-2].casefold().strip(",.:;") in _WHOLE_BEFORE_OF


# The words before "of" that make the count after it the whole of something: "stay of 4
# nights", "a total of 5 reviews", "a booking of 3 rooms".
_WHOLE_BEFORE_OF = frozenset("stay stays total booking reservation visit trip holiday vacation "
                             "break tour period run streak series".split())


# "nonstop", "non-stop", "a direct flight", "flies direct": there are no stops, held to the
# fields that count stops (``stops``, ``number_of_stops``) as "no stops" is.
_DIRECT_AFTER = r"(?=[ \t\u00a0]+flights?(?![\w-]))"       # "a direct flight"
_DIRECT_BEFORE = r"(?:(?<=fly )|(?<=flies )|(?<=it's )|(?<=it’s )|(?<=is ))"    # "flies direct"
_NONSTOP = re.compile(rf"(?<![\w-])(?:non-?stop|direct{_DIRECT_AFTER}|{_DIRECT_BEFORE}direct"
                      r"(?=[ \t\u00a0]*[.!,;]|[ \t\u00a0]+to[ \t\u00a0]))(?![\w-])")
_NONSTOP_DENIED = re.compile(r"(?<![a-z])(?:not|no|n't|n’t|never|without|no longer)[ \t\u00a0]+"
                             r"(?:[a-z]+[ \t\u00a0]+)?(?:a[ \t\u00a0]+)?\Z")
_STOP_WORDS = frozenset(("stop",))


def nonstop_said(text: str, low: str, evidence: Evidence) -> list[Finding]:
    """"nonstop", "non-stop" and "direct flight" said as a state, judged as "no stops" is
    against the fields that count stops; not in a question, a supposition or a negation ("it
    is not a nonstop flight"). ``low`` is ``text`` lower-cased; callers test "stop" or
    "direct" in it first."""
    amounts = [a for a in evidence.amounts_by_words.get(_STOP_WORDS, ()) if a.state != "unknown"]
    if not amounts or any(a.state == "zero" for a in amounts):
        return []
    if len(low) != len(text):
        low = _ascii_lower(text)
    findings = []
    for said in _NONSTOP.finditer(low):
        start, end = said.span()
        if _NONSTOP_DENIED.search(low, max(0, start - 24), start) \
                or _SUPPOSED.search(low, max(0, start - 64), start) \
                or _in_question(low, end):
            continue
        findings.append(_amount_finding(text[start:end], start, "zero", amounts))
    return findings


def _counted(evidence: Evidence, first: str, second: str | None) -> tuple[list, int]:
    """The fields that count what "no <first> [<second>]" names, and how many words name it:
    "no views yet" is about ``views`` (one word), "no new followers" about ``new_followers``
    (two). A field counts a thing when its name's words are exactly the words said, so "no
    new followers" is not about ``followers``; when none does, a field that counts what is
    left of it (``Evidence.left_amounts``: "no refills left" is about ``refills_remaining``,
    with "left", "remaining" or "available" after it one of its words)."""
    by_words = evidence.amounts_by_words
    amounts = by_words.get(frozenset((noun(first),)), ())
    if amounts:
        return amounts, 1
    pair = by_words.get(frozenset((noun(first), noun(second))), ()) if second else ()
    if pair:
        return pair, 2
    # "no refills left", "You have no refills": ``refills_remaining`` counts them
    left = evidence.left_amounts.get(noun(first), ()) if evidence.left_amounts else ()
    return left, 2 if left and second in _LEFT_SAID else 1


def _amount_finding(said: str, start: int, wanted: str, amounts: list) -> Finding:
    claim = "there are none" if wanted == "zero" else "there is some"
    some = [a for a in amounts if a.state in ("some", "zero")]
    if some:
        held = ", ".join(f"{a.path} is {a.shown}" for a in some[:3])
        return _new_finding("word_number", said, "0" if wanted == "zero" else None, start,
                            start + len(said), "unsupported_number",
                            f"'{said}' says {claim}, but {held}")
    unknown = [a for a in amounts if a.state == "unknown"]
    if unknown:
        held = ", ".join(f"{a.path} is {a.shown}" for a in unknown[:3])
        return _new_finding("word_number", said, None, start, start + len(said), "placeholder",
                            f"'{said}' says {claim}, but the evidence does not record it "
                            f"({held})")
    withheld = amounts[0]
    return _new_finding("word_number", said, None, start, start + len(said), withheld.state,
                        f"'{said}' says {claim}, but the value it rests on {withheld.shown}",
                        withheld.input)
