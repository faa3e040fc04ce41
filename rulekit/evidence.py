"""What the evidence allows: the figures, dates, quotes, handles, e-mails, URLs and names it
holds, indexed once so that an answer can be swept against it many times.

Evidence is a JSON object (the rows and figures the model was given) or a text document. Only
evidence licenses a figure: the question, the history and earlier turns never do.

While indexing, each value is judged once:

- a **placeholder** ("not recorded": null, "N/A", a declared placeholder, or -1/0 while a
  sibling flag such as ``putts_tracked`` is false) licenses nothing;
- **third-party text** (reviews, comments, message bodies, by the words of its field's name
  or inside a list of such items: ``third_party``; an item's numbers the platform does not
  name, such as a review's ``price_paid``; what its author's name holds besides the name;
  anything the rules mark ``untrusted``, in any spelling of its key, and a value written
  ``{"untrusted": ...}``) is evidence only of what its author wrote: its quotes count, its
  numbers, codes, handles and links license nothing;
- digits that occur only **inside a name or code** (BT-3, Model 3, 500ml) license that name,
  never the same digits as a quantity. A code is a token that glues digits to letters; a
  **name field** (``name``, ``title``, ``model``, ``product_name``, ...: ``NAME_FIELDS``) holds a
  name whole, so "Model 3" or "iPhone 15" there licenses the name, read with the word before
  or after its digits, and never 3 or 15 as a quantity; likewise a place in a list ("3." opening
  a line, "Step 2", "Option 4"), a key of a shortcut ("Ctrl+Alt+3"), the tail of a code
  (CE-108255-1) and the groups of a phone number ("+44 20 7946 0958") license that use only
  (``_Builder._no_quantities``, ``rulekit.sweep_codes``);
- a stored ratio in a field named like a rate, ratio or share (0.046 in ``engagement_rate``,
  ``ctr_28d``, ``bounce_rate.this_week``: ``_ratio_reading``) licenses 4.6 %, never 0.046 %
  nor a plain 4.6 ("4.6 stars"); a growth below 1 in size (``follower_growth``: 0.021,
  ``impressions_wow``) is a ratio too, and so is a ratio by nature from 0 to 1 (``csat``,
  ``uptime``), unless a unit it is counted in or a maximum says it is a quantity
  (``uptime_hours``, ``max_occupancy``); ``_pct`` fields, a ruleset's percent fields and a value a sibling declares a
  percentage hold points, and license the plain number as well, never an amount;
- an amount keeps the **currency** the evidence gives it: a ``<field>_currency`` beside it, an
  ISO code in its field's name (``price_gbp``, ``amountUsd``), a ``currency`` (``currencyCode``,
  ``currency_iso``, ``ccy``...) beside it, a ruleset's money field, a currency written in a
  string; and, for a field named like money (price, total, amount, cost, fee, tax, shipping,
  discount, balance, refund...), the currency of the nearest object around it that declares one,
  or of a settings object with no amounts of its own beside it (``"store": {"currency":
  "EUR"}``). A quantity (``qty``) takes no currency from around it. A bare number's currency is
  unknown;
- a **change** keeps its sign: a number in a field named like a change (``views_change``,
  ``change_pct``, ``delta``, ``growth``), a negative number, a number written with its sign,
  and a number whose field names the direction (``views_drop_pct``: 12.5 is a change of -12.5;
  ``followers_gained``) are ``changes``, against which "down 12.5%" is judged;
- the length of every list is a **count** the answer may state exactly;
- the rows of a ruleset's entities (``RowRule``) keep the rules of the system of record: a
  **hidden** field licenses nothing, and a field of a row older than its freshness budget is
  **stale**: its figures license nothing, whoever put them in the evidence;
- money stored in **minor units** licenses the amount a customer reads (129900 -> 1299.00),
  never the stored integer itself: the fields a ruleset declares so, and without rules a field
  named like cents (``price_cents``, ``amount_in_cents``: 1/100) or minor units
  (``total_minor``: the precision of a sibling ``currency``, else 1/100), and Stripe's
  amounts (``amount``, ``unit_amount``, ``total``... inside an object whose ``"object"`` is
  one of Stripe's money types).
"""

from __future__ import annotations

import bisect
import dataclasses
import datetime as dt
import functools
import math
import re
import unicodedata
import urllib.parse
from collections.abc import Iterable, Iterator, Mapping, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any, NamedTuple
from zoneinfo import ZoneInfo

from babel.numbers import get_currency_precision

from rulekit import dates
from rulekit.compare import normalise_url
from rulekit.numbers import plain_decimal
from rulekit.scan import Mention, scan, squash
from rulekit.scan.words import number_word_compound
from rulekit.scan.figures import FALL_BEFORE, RISE_BEFORE, change_word_before, currency_codes
from rulekit.sweep_codes import (POSITION_WORDS, code_like, code_near, code_run, glued_forms,
                                 hex_id, list_marker, phone_digits, phone_field, phones_in,
                                 shortcut, spaced_code)
from rulekit.units import (ALONE_AMBIGUOUS, EXCLUDED, INCLUDED, KIND_OF, UNIT_OF, compound_durations,
                           named_base, named_tax_basis, named_units, names_cap, names_tax,
                           glued_unit,
                           of_kinds_written, unit_after, unit_named, PRESSURE_UNIT, TOTAL,
                           period_named, may_say_durations,
                           may_write_pressure, pressure_pairs, pressure_part)

# Field names whose text is written by third parties, unless the rules say otherwise, as the
# whole name: a text, a body, a message of anyone (in the languages the scanner reads).
# A name marks text, not a container: the author and date of a comment are written by the
# platform, only its body by a third party.
UNTRUSTED_NAMES = frozenset("""review reviews comment comments body text message messages
    content texte texto testo tekst inhalt contenu contenido contenuto conteúdo inhoud
    mensaje messaggio mensagem nachricht selftext""".split())
# A text held in an object named as a text of anyone is that text: the App Store's
# {"content": {"label": "..."}}, {"body": {"value": "..."}}.
_TEXT_WRAPPERS = frozenset({"label", "value", "#text", "$t"})
# A "text" right inside an object named for a code is a code's name, not anyone's words: FHIR's
# CodeableConcept ({"code": {"text": "Hemoglobin A1c"}}, "valueCodeableConcept"), outside a
# container of third-party items.
_CODE_NAMES = frozenset({"code", "coding", "concept", "codeableconcept",
                         "valuecodeableconcept"})
# Words that make a field's text third-party wherever they stand in its name ("reviewBody",
# "ReviewText", "comment_text", "review_title"), and a list or an object named by one of them
# (or by ``_THIRD_PARTY_LISTS``) a container of third-party items: a review, a comment,
# feedback, a testimonial, an opinion, in the languages the scanner reads.
_THIRD_PARTY_WORDS = frozenset("""review reviews comment comments feedback feedbacks
    testimonial testimonials opinion opinions avis commentaire commentaires bewertung
    bewertungen rezension rezensionen kommentar kommentare recensione recensioni commento
    commenti comentario comentarios comentário comentários reseña reseñas resena resenas
    opinión opiniones opinione opinioni opinião opiniões avaliação avaliações avaliacao
    avaliacoes beoordeling beoordelingen recensie recensies reactie reacties 评论 评价 評論 評價
    レビュー 口コミ 리뷰 후기 댓글""".split())
# Lists whose items are written by third parties, though one item's text is not named so:
# social mentions and posts on X.
_THIRD_PARTY_LISTS = frozenset({"mentions", "tweets"})
# Lists whose items are written by third parties when they say who wrote each (an author, a
# user, a sender: ``_AUTHOR_WORDS``), or hold such items (a Q&A's questions with their
# customers' answers): messages, threads, replies, questions and answers. Without one they
# are the merchant's: an FAQ of {q, a}, "promo_messages", "quick_replies".
_AUTHORED_LISTS = frozenset("""answers questions replies messages threads réponses antworten
    fragen respuestas preguntas risposte domande respostas perguntas antwoorden vragen
    """.split())
# Words of a field's name that say who wrote the item holding it.
_AUTHOR_WORDS = frozenset("""author authors user username sender from by nickname handle
    reviewer poster customer asker commenter role displayname screen""".split())
# An item in a list with a field named as the text of a review or a comment ("ReviewText",
# "reviewBody", "comment_text") or of a post ("selftext") is a third party's: its other texts
# ("Title", "Cons" of a Bazaarvoice review, "title" of a Reddit post) are the author's too.
_TEXT_WORDS = frozenset({"text", "body", "content"})
# Posts are third-party only when the name says whose: "user_posts", "communityPosts",
# "community": {"posts": [...]}.
_POSTS = frozenset({"posts", "topics"})
_POSTERS = frozenset({"user", "users", "community", "forum", "customer", "customers", "member",
                      "members", "fan", "fans", "public", "ugc"})
# Above a container, words that make its items the merchant's own: an FAQ's questions.
_OWN_TEXT_WORDS = frozenset({"faq", "faqs", "help", "policy", "policies", "quiz", "kb", "docs",
                             "documentation", "guide", "guides"})
# Words of a field's name (or of an object's on the way to it) inside a container of
# third-party items that say the platform wrote it: who, when, where, which, how rated.
_PLATFORM_WORDS = frozenset("""id ids uuid guid url uri urls link links href permalink date
    time timestamp datetime at created updated modified published submitted posted edited
    status state type kind locale lang language country region currency verified rating
    ratings stars star score scores sku product products variant brand model author authors
    user users username nickname handle by reviewer reviewers email avatar image images photo
    photos picture thumbnail source platform channel helpful votes upvotes likes count
    percent percentage pct rate ratio average avg mean total number num stats statistics
    aggregate breakdown distribution auteur autor autore verfasser datum fecha""".split())
# The platform's figure for its reviews, a rating then their count: "4.6 (2,300+ reviews)",
# "4,4 (850+ Bewertungen)", "4.7/5 · 1,200 ratings", "4.5 stars (320 reviews)".
_REVIEWS_SUMMARY = re.compile(r"\d(?:[.,]\d{1,2})?(?:[ \u00a0]?/[ \u00a0]?\d{1,3})?"
                              r"(?:[ \u00a0]?(?:★|☆|stars?|sterne|étoiles|estrellas|stelle))?"
                              r"[ \u00a0]*[(·•|,–-]?[ \u00a0]*\d[\d.,'\u00a0\u202f ]{0,9}\+?"
                              r"(?:[ \u00a0]*[^\W\d_]{2,20}\.?)?[ \u00a0]*\)?", re.IGNORECASE)
# Words of a field's name that make a rating and a count in it the platform's summary of its
# reviews (``_reviews_summary``): English summary words, and review words that mean a rating too.
_SUMMARY_NAMES = frozenset("""summary summaries overview aggregate bewertung bewertungen
    valoración valoracion valoraciones beoordeling beoordelingen évaluation evaluation
    valutazione avaliação avaliacao""".split())
# A size in inches written "12 in" (``_Builder.text``): "in" is an inch only as the whole value of
# a field named for a size ("size": "12 in", "diameter", "screen_size"), never a preposition.
_INCHES = re.compile(r"[ \u00a0]*\d+(?:[.,]\d+)?[ \u00a0]?in\.?[ \u00a0]*")
_SIZE_KEY = re.compile(r"(?i)size|diameter|length|width|height|depth")
# A review's rating in other languages ("avis": [{"note": 5}]): the platform's, as "rating" is.
_RATING_NAMES = frozenset("""note notes nota notas sterne stern étoiles etoiles estrellas stelle
    estrelas punteggio puntuación puntuacion valoración valoracion pontuação pontuacao voto
    cijfer sterren""".split())
PLACEHOLDER_TEXTS = frozenset({"n/a", "na", "none", "null", "-", "—", "not recorded", "unknown",
                               "tbd", ""})
_FLAG_NAMES = ("{}_tracked", "{}_recorded", "has_{}", "{}_known", "track_{}")
# A field named like these holds a percentage ("percent_off" and "percentOff" are Stripe's).
# A rate, a ratio or a share keeps its reading under a suffix that says which one
# ("engagement_rate_prev", "engagementRateAvg", "ctr_target").
_RATIO_NAME = re.compile(r"^(?:taux|tasa|tasso|taxa|quote|anteil)_"
                         r"|(?:(?:rate|ratio|share|(?:^|_)(?:ctr|cvr))(?:_?(?:prev|previous|prior"
                         r"|last|before|after|current|avg|mean|median|target|goal|benchmark))?"
                         r"|pct|percent|percentage|(?:pct|percent)_?off)$", re.IGNORECASE)
_POINTS_NAME = re.compile(r"(pct|percent|percentage)(?:_?off)?$", re.IGNORECASE)
# Read by its words, a name keeps its reading under words after it that say over what period,
# of which kind or per what ("engagement_rate_7d", "ctr_28d", "open_rate_last_30d",
# "bounce_rate_this_week", "late_fee_pct_per_month", "cvr_avg"): ``_ratio_reading``.
_QUALIFIER_WORDS = frozenset("""prev previous prior last this current curr next past trailing
    rolling avg average mean median min max p target goal benchmark before after per week
    weeks wk wks month months mo mos day days year years yr yrs hour hours hr hrs quarter q
    today yesterday daily weekly monthly yearly annual annualized annualised ytd mtd qtd wtd d
    h w m y l all time lifetime overall""".split())
_POINTS_WORDS = frozenset({"pct", "percent", "percentage"})
_RATIO_WORDS = frozenset({"rate", "ratio", "share", "ctr", "cvr", "apr", "apy"})
# The words for a change in the languages the scanner reads (German, French, Spanish, Italian,
# Portuguese, Dutch), as field names write them: "aenderung": -0.08 is a fall of 8 %.
_FOREIGN_CHANGE_WORDS = frozenset("""aenderung änderung veraenderung veränderung wachstum
    variation évolution evolution croissance variación variacion crecimiento variazione crescita
    variação variacao crescimento wijziging verandering groei""".split())
# A change stored as a ratio when it is below 1 in size ("impressions_wow": -0.064 is -6.4 %).
_GROWTH_WORDS = frozenset({"growth", "change", "delta", "wow", "mom", "yoy", "qoq", "dod"}) \
    | frozenset(_FOREIGN_CHANGE_WORDS)
# Names of what is a ratio by its nature, read as one only from 0 to 1 (``"csat": 0.91`` is
# 91 %; ``"uptime": 86400`` is seconds and ``"csat": 4.5`` a score, neither a percentage).
_UNIT_RATIO_WORDS = frozenset("""uptime csat stickiness retention churn occupancy utilization
    utilisation margin satz steuersatz zinssatz mwstsatz ustsatz rabattsatz prozentsatz""".split())
_TIME_UNIT_NAMES = frozenset({"second", "minute", "hour", "day", "week", "month", "year"})
# Words of a name that make a ratio's number a count or a quantity: a maximum, a minimum or a
# count ("max_occupancy": 1 holds one guest, not 100 %), and a unit it is counted in
# (``_counted_in``).
_NOT_RATIO_WORDS = frozenset({"max", "min", "maximum", "minimum", "count", "counts", "cnt",
                              "num", "number", "capacity"})
# The words for a unit that say what a number is counted in when they follow a name's word
# ("uptime_hours", "data_retention_months", "retention_kg"): a plural, or a unit of mass,
# length, volume or data; a period said in the singular ("csat_week", "ctr_min" being a
# minimum too) or after a number or a word of period ("uptime_last_30_days",
# "occupancy_this_week") is the period it is measured over, and a single letter is left alone.
_COUNTED_UNITS = frozenset(word for word, unit in UNIT_OF.items() if len(word) > 1 and (
    unit not in _TIME_UNIT_NAMES or word.endswith("s") and word != "s"))
_PERIOD_BEFORE = frozenset({"this", "last", "past", "previous", "prior", "trailing", "rolling",
                            "current", "curr", "next", "per", "every", "each"})
# The shares of a sentiment: {"sentiment": {"positive": 0.62}}, "sentiment_negative".
_POLARITY_WORDS = frozenset({"positive", "negative", "neutral", "mixed", "pos", "neg", "neu"})
# Shopify's price rule, whose "value" is a discount written with its minus.
_PRICE_RULE = re.compile(r"price_?rule", re.IGNORECASE)
_MULTIPLE_NAME = re.compile(r"(multiple|multiplier|factor|times|ratio|growth_x|_x)$", re.IGNORECASE)
_TODAY_NAMES = frozenset({"today", "now", "as_of", "generated_at", "report_date", "current_date",
                          "asof", "generatedat", "reportdate", "currentdate"})     # camelCase
_NOW_NAMES = frozenset({"today", "now"})
_AUTHOR_NAMES = ("author", "author_handle", "user", "username", "handle", "by")
# Fields whose text is a name: its digits license the name, not a quantity (rule 4).
NAME_FIELDS = re.compile(r"(?:^|_)(?:name|title|headline|model|product|brand|sku)$",
                         re.IGNORECASE)
# Fields (or, for Plaid's ``balances.available``, their object) named for a balance: a level
# whose sign is what it says (``Evidence.negative_balances``).
_BALANCE_NAME = re.compile(r"(?i)balance|available|ledger")
# Fields named for a masked account or card number, folded (``fold_name``): "mask",
# "account_mask", "last4", "last_four", "card_last_4_digits" (``_Builder._code_digits``).
_MASK_NAME = re.compile(r"(?:mask|last(?:4|four)(?:digits)?)$")
# Fields named for the number of a place or a document, folded: "room_number", "room_no",
# "room", "seat", "gate", "unit_number", "flight_number", "order_number"... A code, like a
# mask (``_Builder._code_digits``); not a count ("rooms", "number_of_rooms", "room_count").
_PLACE_CODE_NAME = re.compile(
    r"(?:^|_)(?:(?:room|seat|gate|cabin|berth|suite|platform)"
    r"|(?:room|seat|gate|cabin|berth|suite|platform|unit|apartment|apt|house|flight|train|"
    r"order|booking|ticket|invoice|policy|account|member|membership|table|locker)"
    r"_?(?:number|no|num|nr))$")
# Fields named for a postcode ("postcode", "zip", "zip_code", "postal_code", "plz",
# "post_code", "delivery_postcode", "postalCode"), by the words of the name (``key_words``):
# a code, whose digits back the code as written, never a quantity (``postcode_name``).
_POSTCODE_WORDS = frozenset(("postcode", "zip", "zipcode", "postalcode", "plz"))
_POSTCODE_PAIRS = frozenset((("zip", "code"), ("postal", "code"), ("post", "code")))
# Fields named for a street and its house number ("street", "streetAddress", "address",
# "address_line1", "addressLine1", "shipping_address", Stripe's "address": {"line1": ...}):
# a name, whose digits back the address as written, never a quantity (``street_field``).
_STREET_WORDS = frozenset(("street", "strasse", "straße", "rue", "calle"))
_ADDRESS_KINDS = frozenset("street shipping billing delivery postal home mailing physical pickup "
                           "return store shop office business full formatted".split())
# A house number in a text, after its street ("Invalidenstr. 12", "Berliner Straße 12",
# "Kalverstraat 92", "Via Roma 12", "Calle Mayor 5": ``_STREET_BEFORE``, read back from the
# number) or before it ("12 rue de Rivoli", "12, avenue Foch", "221 Baker Street", "10 Downing
# St": ``_STREET_AFTER``, read on from it): a name as a field named for a street holds one.
# Read only in a text that holds a word of ``_STREET_CUE``, at a number's digits.
_STREET_BEFORE = re.compile(
    r"(?:[Ss]tra(?:ß|ss)e|[Ss]tr\.|(?<=[^\W\d_])(?:gasse|weg|allee|platz|damm|ufer|straat|"
    r"laan|gracht|plein|steeg|kade)"
    r"|(?<![^\W\d_])(?:Via|Viale|Corso|Piazza|Calle|Avenida|Rua|Travessa)"
    r"(?:[ \u00a0]+(?:[A-Z\u00c0-\u00dd][^\W\d_]*|d[aeiou]|de[il]?|della|dos|das)){1,4},?)"
    r"[ \u00a0]?\Z")
_STREET_AFTER = re.compile(
    r"(?:[ \u00a0]?(?:bis|ter|[A-Za-z])(?![^\W_]))?,?[ \u00a0]+"
    r"(?:(?i:rue|avenue|av\.|boulevard|chemin|all\u00e9e|impasse|quai)(?![^\W_])"
    r"|bd\.?[ \u00a0]+(?=[A-Z])"         # (not "3 BD", three bedrooms)
    r"|(?:[A-Z][^\W\d_]*[ \u00a0]+){1,3}(?:Street|St\.?|Road|Rd\.?|Avenue|Ave\.?|Lane|Ln\.?|"
    r"Drive|Boulevard|Blvd\.?|Way|Place|Court|Terrace|Square)(?![^\W_]))")
_STREET_CUE = re.compile(r"[Ss]tr|gasse|weg|allee|platz|damm|ufer|laan|gracht|plein|steeg|kade|"
                         r"Via |Viale |Corso |Piazza |Calle |Avenida |Rua |Travessa |[Rr]ue|"
                         r"[Aa]venue|[Aa]v\.|oulevard|[Bb]d|hemin|llée|mpasse|quai|St|Rd|"
                         r"Road|Ave|Lane|Ln|Drive|Blvd|Way|Place|Court|Terrace|Square")
# Money in minor units by its field's name, for fields no ruleset declares: named like minor
# units ("total_minor"), by the precision of the amount's currency.
_MINOR_NAME = re.compile(r"_minor(?:_units)?$", re.IGNORECASE)
# A field whose name says its amount is in a currency's minor unit (``_minor_word``): a word of
# the name that is one ("price_cents", "amount_in_cents", "cents_per_unit", "price_pence",
# "priceCents"), or "p" or "ct" as a word of their own between underscores or hyphens in a
# name that is clearly a price: a word of price, cost, charge, fee, tariff, fare or toll
# ("standing_charge_p_per_day", "price_p", "arbeitspreis_ct_per_kwh"), or "rate" with "per"
# ("unit_rate_p_per_kwh"). Elsewhere "p" and "ct" are no unit: "p95_latency", "top_p",
# "p_value", "rate_p", "item_ct" (a count), "cost_p95" (a percentile).
_MINOR_WORDS = {"cents": "cents", "cent": "cents", "pence": "pence", "penny": "pence",
                "pennies": "pence", "centimes": "centimes", "centime": "centimes",
                "centavos": "centavos", "centavo": "centavos", "centimos": "céntimos",
                "céntimos": "céntimos", "rappen": "Rappen", "paise": "paise"}
_SHORT_MINOR = re.compile(r"(?i)(?:^|[_-])(p|ct)(?:[_-]|$)")
_PRICE_WORDS = frozenset({"price", "prices", "cost", "costs", "charge", "charges", "fee", "fees",
                          "tariff", "tariffs", "fare", "fares", "toll", "tolls", "preis",
                          "arbeitspreis", "grundpreis", "prix", "precio", "prezzo", "preço"})
# The last words of a price per unit: beside a row's "unit" (``unit``, ``uom``) it is per that
# unit (``unit_price``, ``price``, ``rate``, ``tariff``); a cost, a fee, a charge or a total
# there is the row's, per no unit.
_UNIT_PRICE_WORDS = frozenset({"price", "prices", "rate", "rates", "tariff", "tariffs", "tarif",
                               "preis", "arbeitspreis", "grundpreis", "prix", "precio", "prezzo",
                               "preço"})
# How an amount in a minor unit is written after its number: "24.5p", "24.5 pence", "99¢".
_MINOR_SPELLINGS = {"pence": ("{}p", "{} p", "{} pence"),
                    "cents": ("{}¢", "{} ¢", "{}c", "{} cents", "{} cent", "{} ct", "{}ct"),
                    "centimes": ("{} centimes", "{} cts"), "centavos": ("{} centavos", "{}¢"),
                    "céntimos": ("{} céntimos", "{} centimos", "{} cts"),
                    "Rappen": ("{} Rappen", "{} Rp."), "paise": ("{} paise", "{}p")}


@functools.lru_cache(maxsize=4096)
def _minor_word(name: str) -> str | None:
    """The minor unit a field's name says its amount is in ("pence", "cents"), or None
    (``_MINOR_WORDS``)."""
    words = key_words(name)
    for word in words:
        unit = _MINOR_WORDS.get(word)
        if unit is not None:
            return unit
    short = _SHORT_MINOR.search(name)
    if short is None or (_PRICE_WORDS.isdisjoint(words)
                         and not ("rate" in words and "per" in words)):
        return None
    return "pence" if short.group(1).casefold() == "p" else "cents"


# Stripe keeps every amount in minor units under plain names (``"amount": 129900`` is
# $1,299.00), in objects that name their type. Read so only inside an object of one of Stripe's
# money types that is Stripe's own: it has ``livemode`` (every Stripe object does), an id with
# Stripe's prefix (``ch_3Nx...``), or a currency in Stripe's lower case (``"usd"``), between it
# and the amount. Elsewhere the same names hold major units (``{"object": "order", "total":
# 1299, "currency": "USD"}``). ``*_decimal`` strings are minor units with decimals of their own.
_STRIPE_OBJECTS = frozenset("""
    charge payment_intent invoice invoiceitem line_item item price plan checkout.session refund
    balance balance_transaction payout transfer topup coupon promotion_code credit_note
    credit_note_line_item application_fee application_fee_refund dispute customer
    customer_balance_transaction shipping_rate quote order payment_link subscription_item
    subscription transfer_reversal fee_refund issuing.authorization issuing.transaction
    issuing.card issuing.dispute source payment_method setup_intent tax_rate
""".split())
# An amount's name: amount, amount_*, *_amount, and these.
_STRIPE_AMOUNT_NAME = re.compile(
    r"^(?:amount(?:_\w+)?|\w+_amount(?:_decimal)?|unit_amount\w*|(?:sub)?total(?:_excluding_tax)?|"
    r"tax|fee|net|balance|starting_balance|ending_balance|minimum|maximum|preset|"
    r"flat_amount_decimal)$")
_STRIPE_ID = re.compile(r"^[a-z]{2,8}_[A-Za-z0-9]{8,}$")


def _stripe_mark(node: Mapping) -> bool:
    """Whether an object bears a mark of Stripe's own: ``livemode``, an id with Stripe's prefix
    (``ch_3Nx...``), or a currency in Stripe's lower case (``"usd"``)."""
    if "livemode" in node:
        return True
    ident, currency = node.get("id"), node.get("currency")
    return (isinstance(ident, str) and _STRIPE_ID.match(ident) is not None) or (
        isinstance(currency, str) and len(currency) == 3 and currency.isalpha()
        and currency.islower())
# A field that holds a weight, never an amount of money, whatever currency is beside it.
_MEASURE_NAME = re.compile(r"(?:^|_)(?:weight|mass|lbs?|pounds?|kg|kilos?|grams?|g|oz|ounces?)(?:_|$)", re.IGNORECASE)
# A field that names the currency of the amounts beside it, its name squashed (case-folded,
# "_" and "-" dropped): "currency", "currency_code", "currencyCode", "currency_iso", "ccy".
_CURRENCY_KEYS = frozenset({"currency", "currencycode", "currencyiso", "currencyisocode",
                            "isocurrency", "isocurrencycode", "ccy", "curr", "currencyid"})
# A field that names the currency of one field beside it: "price_currency" (of "price"),
# "priceCurrency", "total_currency_code".
_FIELD_CURRENCY = re.compile(r"(?P<field>.+?)[_-]?(?:currency|Currency|CURRENCY)"
                             r"(?:[_-]?(?:code|Code|CODE|iso|Iso|ISO))?")
# The ISO codes a field's name may end or start with to name the currency of its amount
# ("price_gbp", "amountUsd", "usd_total"): the currencies in common use, less those that are
# also English words a field's name may hold ("try", "pen", "top", "all", "cup"...).
_NAME_CODES = frozenset("""USD EUR GBP JPY CNY CAD AUD NZD CHF HKD SGD SEK NOK DKK ISK INR BRL
    MXN ZAR KRW TWD PLN CZK HUF RUB ILS AED SAR QAR KWD THB IDR MYR VND ARS CLP COP UYU NGN
    KES EGP PKR BDT UAH RON BGN HRK LKR NPR""".split())
# Words of a field's name that say it holds an amount of money: a currency declared by an
# object applies to such amounts anywhere below it (an order's currency to its line items'
# prices), and not to the quantities beside them (a line item's ``qty``).
_MONEY_WORDS = frozenset("""price prices total totals subtotal subtotals amount amounts cost
    costs fee fees tax taxes vat shipping discount discounts balance balances refund refunds
    payment payments revenue spend spent budget salary deposit fare fares msrp rrp mrr arr
    income profit earnings payout payouts owed gross""".split())
# A field whose -1 is a real value: a change, a difference, a score to par ("toPar", "views_delta").
# Amounts taken off a total, which a receipt may write with a minus ("Discount: -$4.32").
_DEDUCTION_NAME = re.compile(r"discount|rebate|coupon|voucher|promo|deduction|markdown|savings?$|"
                             r"credit|refund|proration|write_?off|allowance",
                             re.IGNORECASE)
# A field that holds how many instalments a price is split into ("installments": 3,
# "max_installments", "parcelas", "cuotas"), not the amount of one ("installment_price").
_INSTALMENTS_NAME = re.compile(r"^(?:(?:max|maximum|num|number|n|qty|total)_?(?:of_)?)?"
                               r"(?:instal+ments?|parcelas?|cuotas?)"
                               r"(?:_?(?:count|max|number|qty|num|n))?$", re.IGNORECASE)


def _may_count_instalments(name: str) -> bool:
    """The substring tests before ``_INSTALMENTS_NAME``: most fields name no instalments."""
    low = name.lower()
    return "nst" in low or "arcel" in low or "uota" in low


# A ratio field that holds the share of a price that is paid ("price_ratio": 0.7 is 70 % of
# the list price, a 30 % discount): it backs that share, never "70% off".
_PAID_SHARE_NAME = re.compile(r"(?:price|paid|pay|sale)_?(?:ratio|share|factor|multiplier)$|"
                              r"^(?:ratio|share)_?(?:of_)?(?:list_?)?(?:price|paid)$",
                              re.IGNORECASE)
_CHANGE_NAME = re.compile(r"(?:delta|change|diff|difference|to_?par|net|trend|growth)"
                          r"(?:_?(?:pct|percent|perc|rate|ratio|points|pts))?$", re.IGNORECASE)
# A scale in a field's name: "viewers_millions": 123.7 is 123,700,000 viewers.
_SCALE_NAME = re.compile(r"(?:^|_)(thousands?|millions?|billions?|mln|mn|bn)$|[a-z](Thousands|"
                         r"Millions|Billions)$", re.IGNORECASE)
_NAME_SCALES = {"thousand": 10**3, "thousands": 10**3, "million": 10**6, "millions": 10**6,
                "mln": 10**6, "mn": 10**6, "billion": 10**9, "billions": 10**9, "bn": 10**9}
# Words of a field's name that make its number a change ("views_change_pct", "toPar", "yoy"),
# and those that also say its direction: a positive "views_drop_pct" is a fall.
# "to" and "par" only together ("to_par"): a basketball box score's "TO" counts turnovers and a
# course's "par" is a level. "losses" counts games lost (a record's "LOSSES"); "weight_loss" and
# "followers_lost" are changes.
_CHANGE_WORDS = frozenset("change changes delta diff difference growth trend wow mom "
                          "yoy qoq dod".split()) | _FOREIGN_CHANGE_WORDS
_FALL_WORDS = frozenset("drop dropped decline declined decrease decreased loss lost "
                        "fall fell".split())
_RISE_WORDS = frozenset("gain gains gained increase increased rise".split())


def fold_name(name: str) -> str:
    """A key as it is compared with a name the rules give: without case, ``_`` or ``-``
    (``sellerBlurb``, ``Seller-Blurb`` and ``seller_blurb`` name one field)."""
    return name.casefold().replace("_", "").replace("-", "")


@functools.lru_cache(maxsize=4096)
def key_words(name: str) -> tuple[str, ...]:
    """The words of a field's name, case-folded: split at what is not a letter and, in ASCII,
    at camelCase ("reviewBody" is ("review", "body"), "UserNickname" ("user", "nickname"));
    a word in another script is kept whole ("opinión", "评论")."""
    found: list[str] = []
    for run in _LETTERS.findall(name):
        if run.isascii():
            found.extend(word.casefold() for word in _NAME_WORDS.findall(run))
        else:
            found.append(run.casefold())
    return tuple(found)


_LETTERS = re.compile(r"[^\W\d_]+")


# A field named for a code of digits: an account, meter, customer or reference number, an id
# (``account_number``, ``mpan``, ``mprn``, ``meter_serial``, ``customer_id``, ``policy_no``; not
# ``number_of_units``): its digits in groups are one code (``_Builder._grouped_code``).
_CODE_KEY_WORDS = frozenset("id account acct mpan mprn mpr iban serial ref reference uprn msn "
                            "ban".split())
_CODE_KEY_NUMBER = frozenset("number no num nr".split())


@functools.lru_cache(maxsize=4096)
def _code_key(name: str) -> bool:
    words = key_words(name)
    return not _CODE_KEY_WORDS.isdisjoint(words) or any(
        word in _CODE_KEY_NUMBER and words[at + 1:at + 2] != ("of",)
        for at, word in enumerate(words))


@functools.lru_cache(maxsize=4096)
def _ratio_reading(name: str) -> str | None:
    """What a field's name says of its number as a percentage: "points" (``discount_pct``,
    ``late_fee_pct_per_month``: 1.5 is 1.5 %), "ratio" (``engagement_rate``, ``ctr_28d``,
    ``apr``: 0.046 is 4.6 %, and above 1 points), "unit" (a ratio by nature, read as one from
    0 to 1 only: ``csat``, ``uptime``, ``stickiness``, ``ust_satz``, ``sentiment_positive``),
    "growth" (a change, a ratio below 1 in size: ``impressions_wow``, ``views_change_7d``, and
    in the languages that put the change word first, ``variacion_visitas``,
    ``aenderung_aufrufe``, ``evolution_vues``; not ``variation_price``), or None. The words after the one that says it may say a period, a kind or a base
    (``_QUALIFIER_WORDS``), but not a unit it is counted in (``uptime_hours``,
    ``data_retention_months``: ``_counted_in``); a ratio by nature with a maximum, a minimum or
    a count in its name (``max_occupancy``) is a quantity."""
    if _POINTS_NAME.search(name):
        return "points"
    if _RATIO_NAME.search(name):
        return "ratio"
    words = list(key_words(name))
    if len(words) > 1 and _POLARITY_WORDS.intersection(words) and "sentiment" in words:
        return "unit"
    whole = tuple(words)
    while words and (words[-1] in _QUALIFIER_WORDS or words[-1].isdigit()):
        words.pop()
    last = words[-1] if words else ""
    if _counted_in(whole[len(words):], last):
        return None
    if last in _POINTS_WORDS:
        return "points"
    if last in _RATIO_WORDS:
        return "ratio"
    if last in _GROWTH_WORDS:
        return "growth"
    if last in _UNIT_RATIO_WORDS:
        return None if _NOT_RATIO_WORDS.intersection(whole) else "unit"
    if len(whole) > 1 and whole[0] in _FOREIGN_CHANGE_WORDS and _MONEY_WORDS.isdisjoint(whole) \
            and _PLATFORM_WORDS.isdisjoint(whole):
        return "growth"     # "variacion_visitas", "aenderung_aufrufe": the change word first
    return None


def _in_points(keys: tuple[str, ...], value: Decimal) -> bool:
    """Whether a ratio by nature above 10 (``_ratio_reading``'s "unit") is a percentage in
    points: a CSAT, which is the share of satisfied answers or an average score on a scale of
    5 or 10, so above 10 only the share; an uptime with decimals from 90 to 100 (99.95), which
    a count of seconds, hours or days seldom is. Not a whole uptime (97 may be days), nor the
    other ratios by nature (``retention: 30`` may be days)."""
    words = key_words(keys[-1])
    if len(keys) > 1 and _period_only(keys[-1]):
        words = key_words(keys[-2])         # {"uptime": {"last_30_days": 99.95}}
    if "csat" in words:
        return True
    return "uptime" in words and value >= 90 and _decimals(value) > 0


def _counted_in(words: tuple[str, ...], before: str) -> bool:
    """Whether ``words``, the end of a name after the word ``before``, say a unit its number
    is counted in (``_COUNTED_UNITS``): "hours" of ``uptime_hours``, not "days" of
    ``uptime_last_30_days`` nor "week" of ``occupancy_this_week``."""
    for word in words:
        if word in _COUNTED_UNITS and not before.isdigit() and before not in _PERIOD_BEFORE:
            return True
        before = word
    return False


@functools.lru_cache(maxsize=4096)
def _period_only(name: str) -> bool:
    """Whether a field's name says only a period or a kind ("this_week", "prev", "avg"): its
    number is read like its parent's ({"bounce_rate": {"this_week": 0.412}})."""
    words = key_words(name)
    return bool(words) and all(word in _QUALIFIER_WORDS or word.isdigit() for word in words) \
        and not _counted_in(words, "")


@functools.lru_cache(maxsize=4096)
def third_party(keys: tuple[str, ...], own: frozenset[int] = frozenset()) -> bool:
    """Whether the text at ``keys`` (the field names from the top of the evidence down to it)
    is written by a third party, by the names alone:

    - it is inside a list or an object of third-party items ("reviews", "comments",
      "mentions", "tweets", "user_posts", "community.posts": ``_THIRD_PARTY_WORDS``,
      ``_THIRD_PARTY_LISTS``; messages, replies, questions and answers whose items say who
      wrote them: ``_AUTHORED_LISTS``), and no name on the way from that container to it is
      one of the platform's: a review's "title" and "summary" are the reviewer's, its
      "author.name", "submitted_at" and "url" are not;
    - or its field is named as a text of anyone (``UNTRUSTED_NAMES``: "text", "body", "texte",
      "selftext", and a "label" or "value" inside one: ``_TEXT_WRAPPERS``; not a "text" right
      inside a code, FHIR's CodeableConcept: ``_CODE_NAMES``), or has a word of
      review, comment, feedback... in its name ("reviewBody", "ReviewText", "comment_text",
      "avis") and none of the platform's (``_PLATFORM_WORDS``: "review_url", "review_date"
      are written by the platform).

    The merchant's own text is trusted: a container of ``_AUTHORED_LISTS`` whose items name no
    author (its index in ``own``: an FAQ of {q, a}, "promo_messages", "quick_replies"; not
    inside a third party's container, and a bare "messages" list is anyone's texts, like a
    "message" field), the
    items below an FAQ, a help page or a policy (``_OWN_TEXT_WORDS`` above the container, or
    anywhere on the way when there is none: "review_policy", "return_policy.text"), and a
    product's "description", "title" and "body_html" outside a container."""
    container, merchant = None, False
    for index in range(len(keys) - 1, -1, -1):
        if _container(keys[index], keys[index - 1] if index else ""):
            if index in own and keys[index].casefold() not in UNTRUSTED_NAMES:
                merchant = True     # "promo_messages": [...]; not "messages": [...]
                continue
            container = index       # a third party's, maybe around one of the merchant's
            break
    if any(not _OWN_TEXT_WORDS.isdisjoint(key_words(key)) for key in keys[:container]):
        return False
    if merchant and container is None:
        return False
    leaf = keys[-1]
    words = key_words(leaf)
    if container is None and len(keys) > 1 and leaf.casefold() == "text" \
            and keys[-2].casefold() in _CODE_NAMES:
        return False        # {"code": {"text": "Hemoglobin A1c"}}: a code's name (FHIR)
    if leaf.casefold() in UNTRUSTED_NAMES or \
            not _THIRD_PARTY_WORDS.isdisjoint(words) and _PLATFORM_WORDS.isdisjoint(words) or \
            leaf.casefold() in _TEXT_WRAPPERS and len(keys) > 1 \
            and keys[-2].casefold() in UNTRUSTED_NAMES:
        return True
    return container is not None and all(
        _PLATFORM_WORDS.isdisjoint(key_words(key)) for key in keys[container + 1:])


@functools.lru_cache(maxsize=4096)
def _container(key: str, parent: str = "") -> bool:
    """Whether a list or an object named ``key`` (in one named ``parent``) holds third-party
    items: its last word (its head, "product_reviews", "customerReviews") names them, or it is
    a list of posts that says whose ("user_posts", "community": {"posts": ...})."""
    words = [word for word in key_words(key) if word not in _CONTAINER_WORDS]
    if not words:
        return False
    head = words[-1]
    return head in _THIRD_PARTY_WORDS or head in _THIRD_PARTY_LISTS \
        or head in _AUTHORED_LISTS or head in _POSTS and not (
            _POSTERS.isdisjoint(words) and _POSTERS.isdisjoint(key_words(parent)))


@functools.lru_cache(maxsize=4096)
def _authored_list(key: str) -> bool:
    """Whether a container named ``key`` is third-party only when its items name their
    authors (``_AUTHORED_LISTS``: "messages", "quick_replies", "common_questions")."""
    words = [word for word in key_words(key) if word not in _CONTAINER_WORDS]
    return bool(words) and words[-1] in _AUTHORED_LISTS


@functools.lru_cache(maxsize=4096)
def _author_key(key: str) -> bool:
    """Whether a field named ``key`` says who wrote the item holding it ("author", "user",
    "sender", "UserNickname", "answered_by", "from")."""
    return not _AUTHOR_WORDS.isdisjoint(key_words(key))


def _authored(node: Any) -> bool:
    """Whether the items of a container say who wrote them, or hold items that do (a Q&A's
    questions with their customers' answers): then they are third parties'."""
    items = node.values() if isinstance(node, Mapping) else node
    for item in items:
        if isinstance(item, Mapping) and any(
                _author_key(str(key)) or isinstance(child, (list, tuple)) and any(
                    isinstance(inner, Mapping) and any(map(_author_key, map(str, inner)))
                    for inner in child)
                for key, child in item.items()):
            return True
    return isinstance(node, Mapping) and any(map(_author_key, map(str, node)))


@functools.lru_cache(maxsize=4096)
def _review_item(keys: tuple[str, ...]) -> bool:
    """Whether an item of a list with these fields is a third party's: one is named as the
    text of a review, a comment or a post ("ReviewText", "reviewBody", "selftext"), or is
    Bazaarvoice's name of a reviewer ("UserNickname")."""
    for key in map(str, keys):
        words = key_words(key)
        if key.casefold() in ("selftext", "usernickname") \
                or not _THIRD_PARTY_WORDS.isdisjoint(words) \
                and not _TEXT_WORDS.isdisjoint(words) and _PLATFORM_WORDS.isdisjoint(words):
            return True
    return False


def name_words(name: str) -> frozenset[str]:
    """The words of a person's name or handle, case-folded, without "@" or a final ".", that
    are longer than one letter: "Dana K." is {"dana"}, "@sam_k" is {"sam_k"}."""
    return frozenset(word.rstrip(".") for word in name.casefold().lstrip("@").split()
                     if len(word.rstrip(".")) > 1)


# A field's name that holds basis points: ``last_change_bps``, ``rateChangeBps``,
# ``move_basis_points``.
_BASIS_POINTS_NAME = re.compile(r"(?:^|_)(?:bps?|BPS?|basis_points?)(?:$|_)|(?<=[a-z])"
                                r"(?:Bps?|BPS?|BasisPoints?)(?![a-z])")


@functools.lru_cache(maxsize=4096)
def _trend_name(name: str) -> int | None:
    """What a field's name says of its number as a change: -1 or 1 for a name that says the
    direction ("views_drop_pct", "followers_gained"), 0 for a change stored with its sign
    ("views_change", "follower_growth"), None for no change."""
    words = {word.casefold() for word in _NAME_WORDS.findall(name)}
    falls, rises = not words.isdisjoint(_FALL_WORDS), not words.isdisjoint(_RISE_WORDS)
    if falls != rises:
        return -1 if falls else 1
    if falls or not words.isdisjoint(_CHANGE_WORDS) or "topar" in words \
            or {"to", "par"} <= words:
        return 0
    return None


# The currency of a figure a ruleset types as a number that is no money (``integer``,
# ``decimal``: a stock count, a rating) where it declares money fields: no currency sign or word
# may stand for it ("$24" is not the 24 in stock), as none may for a percentage ("%").
NO_MONEY = "#"
# The "unit" an amount of money is held in (``Evidence.units``): a figure held only as money
# (``minimum_order: 15.00`` beside a ``currency``) is no duration nor weight, so "15 minutes"
# says another quantity, as "$16" does for a text's "16 oz".
AS_MONEY = "money"


@dataclasses.dataclass(frozen=True, slots=True)
class Figure:
    """One number the evidence holds, and where."""
    value: Decimal
    path: str
    decimals: int
    percent: bool = False       # a percentage (stored as points, or derived from a ratio)
    # the ISO code of an amount when the evidence says it, or a family a sign names
    # (``rulekit.scan.figures.CURRENCY_FAMILIES``: "$1,299.00" read in en_GB)
    currency: str | None = None
    # the field's whole value (a number, or a string that is just one), not a number read
    # inside a text or a date ("2026-11"): only such a figure is in the unit its name says
    whole: bool = False


class Amount(NamedTuple):
    """What one field says about how many of a thing there are, for "no views", "out of stock"
    and "in stock" (``Evidence.amounts``)."""
    words: frozenset[str]   # the field name's words, reduced (``field_words``): {"view"}
    state: str              # "zero", "some", "unknown", or why it is withheld ("stale", ...)
    path: str               # $.posts[0].views
    shown: str              # the stored value as the message shows it
    input: str | None = None    # for a state of "missing_input", the input it asks for


class Withheld(NamedTuple):
    """Why the values of a field license nothing: the finding's code (``hidden_field``: not
    readable; ``stale``: older than its freshness budget; ``missing_input``: its row is given
    only with an input the user has not given), the reason to give, and for
    ``missing_input`` the input to ask for (``Finding.input``)."""
    code: str
    why: str
    input: str | None = None


class RowRule(NamedTuple):
    """What the ruleset says about one row of an entity found in JSON evidence: the fields
    whose values license nothing, each with why (``Withheld``). Built per body of evidence by
    ``rulekit.sweep.SweepSettings.index``."""
    entity: str
    withheld: Mapping[str, Withheld]


@dataclasses.dataclass(frozen=True)
class Evidence:
    """The index of one body of evidence. Build it once with ``Evidence.build`` and audit any
    number of answers against it (a retry, a stream of chunks)."""
    figures: tuple[Figure, ...]
    values: frozenset[Decimal]                 # every licensed number (abs value too)
    percents: frozenset[Decimal]
    counts: frozenset[tuple[int, str]]         # (length, noun) of every list: (5, "round")
    largest_count: int
    days: frozenset[dt.date]
    stated_days: frozenset[dt.date]            # ``days`` but those only today/as_of... hold
    # Amounts of fields that take something off (discount, coupon, rebate...): a receipt may
    # write them with a minus, next to a word that says so ("Discount: -$4.32").
    deductions: frozenset[Decimal]
    months: frozenset[str]                     # "2026-11": months the evidence names as such
    multiples: frozenset[Decimal]
    quotes: tuple[tuple[str, str | None], ...]  # (squashed text, author) of every string
    handles: frozenset[str]
    emails: frozenset[str]
    urls: frozenset[str]
    relative_links: frozenset[str]
    names: frozenset[str]                       # name/code tokens with digits, case-folded
    name_pairs: frozenset[str]                  # "model 3", "3 charger": a number and a word
    name_digits: Mapping[str, str]              # "3" -> "bt-3": digits seen only inside a name
    quote_text: str                             # every string squashed, joined by \x00
    untrusted_values: frozenset[Decimal]        # numbers found only in third-party text
    placeholder_values: frozenset[Decimal]
    has_today: bool
    # Numbers held only by withheld fields (hidden, or stale), with the finding's code and why.
    withheld: Mapping[Decimal, Withheld] = dataclasses.field(default_factory=dict)
    # the days found only in fields a row rule withholds (stale, hidden), with the reason
    withheld_days: Mapping[dt.date, Withheld] = dataclasses.field(default_factory=dict)
    # The rule of each entity row, by the ``id()`` of the row in the evidence this was built
    # from: binding leaves a figure bound to a withheld cell to the sweep. ``raw`` keeps those
    # rows alive, so an id is never reused while the index lives.
    row_rules: Mapping[int, RowRule] = dataclasses.field(default_factory=dict)
    # The fields a ruleset names rows by (``mentioned as variant_name, variant_sku``), besides
    # ``name``, ``title`` and ``*_name``: "The Trailhead 3 Navy M is in stock" is judged
    # against the stock of the row so named (``stock_rows``).
    row_names: frozenset[str] = frozenset()
    # The names that are postcodes (``postcode_name``): their digits alone are the postcode
    # only where a postcode is said ("at 10115 Berlin", "Postcode: 10115").
    postcodes: frozenset[str] = frozenset()
    # What this was built from (a JSON object, or a text document): binding reads its rows.
    raw: Any = None
    # The day of the evidence's shallowest readable today/as_of/generated_at... (at one depth
    # today/now first; a section's own as_of never stands for the top level's today): what
    # "yesterday" means. None when it has none, or none that reads as a date (``has_today`` still says
    # whether it named one).
    today: dt.date | None = None
    # (day, hour, minute) of every clock time the evidence holds: a stored timestamp as written,
    # in its own offset (not in UTC: a time the answer writes without a zone is a wall time),
    # a time written in its text (day None when the text gives none).
    clock: frozenset[tuple[dt.date | None, int, int]] = frozenset()
    # (day, hour, minute) in UTC of every clock time the evidence fixes to an instant: a stored
    # timestamp with an offset, a time written with a zone. A time the answer writes with a
    # zone ("9 pm UTC") is judged against these only.
    utc_clock: frozenset[tuple[dt.date | None, int, int]] = frozenset()
    # (day, hour, minute, offset) of every stored timestamp with an offset, as written: which
    # zone a name of several zones ("16:05 BST") means, when the evidence's offset is one of them.
    offset_clock: frozenset[tuple[dt.date, int, int, dt.timedelta]] = frozenset()
    # (hours, minutes) of every length of time written like a clock time, "18:05", in a field
    # named for a length (``duration``, ``video_length``, ``runtime``: ``_LENGTH_WORDS``): no
    # time of day, it backs only the same length said as one ("runs 18:05").
    lengths: frozenset[tuple[int, int]] = frozenset()
    # (signed value, percent) of every change the evidence holds: a number in a field named
    # like a change ("views_change_pct": 12.5 is (12.5, True) and (12.5, False)), a negative
    # number anywhere, a number written with its sign, and a number in a field whose name says
    # the direction ("views_drop_pct": 12.5 is a change of -12.5). "Views fell 12.5%" is
    # judged against these (``rulekit.sweep``).
    changes: frozenset[tuple[Decimal, bool]] = frozenset()
    # the year of every day and every month the evidence holds: it backs that year said as a
    # year ("in 2026", "noviembre de 2026", "your 2026 total"), never as a count (``said_as_year``)
    years: frozenset[Decimal] = frozenset()
    # (thing, number) of every number written before a word in the evidence's own text ("last
    # 30 days, 10 posts" is ("post", 10)): it backs a count of that thing (``counted``).
    stated_counts: frozenset[tuple[str, Decimal]] = frozenset()
    # (number, unit) of every number written before a unit in the evidence's own text
    # ("limited to 10 MB" is (10, "megabyte")): it holds the number in that unit (``units``).
    stated_units: frozenset[tuple[Decimal, str]] = frozenset()
    # (number, path) of both ends of a range a field's text is alone, with no unit after it
    # (``processing_weeks: "6-8"``): held in the unit its name or a sibling says, as a number
    # the field holds alone (``units``)
    range_ends: frozenset[tuple[Decimal, str]] = frozenset()
    # the minutes of every duration of hours and minutes the evidence's text writes ("11h 10m",
    # "PT11H10M" are 670): one value, compared whole (``units.compound_durations``)
    durations: frozenset[int] = frozenset()
    # (systolic, diastolic) of every blood pressure the evidence holds: a text's "128/82 mmHg"
    # (``units.pressure_pairs``) or the ``systolic`` and ``diastolic`` fields of one row; a
    # pair the answer says is compared whole, in order (``rulekit.sweep``)
    pressures: frozenset[tuple[Decimal, Decimal]] = frozenset()
    # (amount, unit, path) of every amount held in a minor unit its field names ((24.5, "pence",
    # "$.tariff.unit_rate_p_per_kwh") for ``unit_rate_p_per_kwh: 24.5``): held in that unit,
    # not in the field's currency, and per what the field is per (``units``)
    minor_amounts: frozenset[tuple[Decimal, str, str]] = frozenset()
    # whole numbers of fields named for a number of instalments ("installments": 3,
    # "parcelas"): "3x sem juros" is held to these only (``rulekit.sweep``)
    instalments: frozenset[Decimal] = frozenset()
    # percentages of fields named like a discount ("discount_pct": 15): retail writes them
    # with a minus ("-15 %"), which is no change of the opposite sign
    discount_percents: frozenset[Decimal] = frozenset()
    # percentages held only as the share of a price paid ("price_ratio": 0.7 is 70 %): they
    # back "7割の値段", "原价的80%", never a discount said with them ("70%オフ", "优惠80%")
    paid_shares: frozenset[Decimal] = frozenset()
    # (hour, minute, IANA zone) of every clock time the evidence writes without a day (opening
    # hours, "09:00-18:00") in an object that names its zone, or inside one that does, in a
    # field called like a zone (``timezone``, ``time_zone``, ``tz``, ``store_timezone``:
    # "Europe/London"): "18:00 UK time" is that wall time in that zone. A zone another object
    # names (a customer's) is not the zone of the store's hours.
    zoned_clock: frozenset[tuple[int, int, str]] = frozenset()
    # Every trusted JSON true/false under a key whose name says a claim in words
    # (``free_returns``, ``has_wifi``), with its reading, read once here: rule 14
    # (``rulekit.sweep_flags``) holds free text to them.
    flags: tuple = ()
    # Numbers the evidence writes as no quantity (``_Builder._no_quantities``): a place in a
    # list ("3." opening a line, "Step 2", "Option 4"), which backs the same place only; the
    # (word, number) of each said after a word ("option", 4): an answer's "Option N" is held to
    # these when there are any; every code, case-folded ("ce-108255-1", "23h2", "v2.3.1"),
    # which an answer's code must match whole; every phone number's digits ("+442079460958",
    # ``rulekit.sweep_codes.phone_digits``); and which digits are inside which of them, for
    # the finding's message ("3" -> "the position '3.'").
    positions: frozenset[Decimal] = frozenset()
    position_words: frozenset[tuple[str, Decimal]] = frozenset()
    codes: frozenset[str] = frozenset()
    # each string of ``quotes`` as written, to tell where its words start and end
    quote_sources: tuple[str, ...] = ()
    phones: frozenset[str] = frozenset()
    # the links of URL fields the rules compare without their query (``url drop_query``), each
    # without it: a share link's tracking query ("?utm_source=...") is the same page there
    queryless_urls: frozenset[str] = frozenset()
    # the phone numbers only hidden fields hold, with why: said whole, one is that field's
    withheld_phones: Mapping[str, Withheld] = dataclasses.field(default_factory=dict)
    no_quantities: Mapping[str, str] = dataclasses.field(default_factory=dict)
    # the caller's ``now`` (aware) when ``today`` is its day: a store's hours that name their
    # own zone are said on the day there (``hours_today``)
    now: dt.datetime | None = None

    @functools.cached_property
    def sites(self) -> frozenset[str]:
        """The site of every absolute link (``urls``), as a host written alone is normalised
        ("https://shop.example" for "https://shop.example/help/returns"): "shop.example" in
        an answer names a site the evidence links to."""
        return frozenset(filter(None, map(_site, self.urls)))

    @functools.cached_property
    def author_words(self) -> frozenset[str]:
        """The words of every author's name (``quotes``), case-folded, without "@" or a final
        ".": a name said before a quote is an author the evidence knows when it shares one."""
        return frozenset(word for author in {a for _, a in self.quotes if a}
                         for word in name_words(author))

    @functools.cached_property
    def change_magnitudes(self) -> frozenset[Decimal]:
        """The size of every change: a number is read with its direction words only if it is
        one of them."""
        return frozenset(abs(value) for value, _ in self.changes)

    @functools.cached_property
    def currencies(self) -> Mapping[Decimal, frozenset[str | None]]:
        """The currencies each amount is held in (by magnitude); None where the evidence does
        not say (a bare number): such an amount may be shown in any currency."""
        found: dict[Decimal, set[str | None]] = {}
        for figure in self.figures:
            if not figure.percent:
                # A sibling ``currency`` names the currency of the amounts beside it, not of a
                # weight: {"weight_lb": 5, "currency": "USD"} backs "it weighs 5 pounds".
                # A percentage in points is held "in %" (``_Builder._points_field``).
                name = figure.path.rsplit(".", 1)[-1]
                currency = None if figure.currency not in (None, "%", NO_MONEY) and _MEASURE_NAME.search(
                    name) else figure.currency
                found.setdefault(abs(figure.value), set()).add(currency)
        for value, unit, _ in self.minor_amounts:
            found.setdefault(value, set()).add(unit)    # 24.5 "in pence"
        return {value: frozenset(codes) for value, codes in found.items()}

    @functools.cached_property
    def minor_majors(self) -> frozenset[Decimal]:
        """The amounts held only as the major amount of an amount in a minor unit (0.245 for
        ``unit_rate_p_per_kwh: 24.5``): said with the minor unit ("0.245p") they are a hundred
        times too low (``rulekit.sweep_minor``)."""
        paths = {path for _, _, path in self.minor_amounts}
        majors = {abs(f.value) for f in self.figures if f.path in paths and not f.percent}
        return frozenset(majors - {abs(f.value) for f in self.figures
                                   if f.path not in paths and not f.percent})

    @functools.cached_property
    def frequencies(self) -> frozenset[tuple[Decimal, str]]:
        """The frequencies the evidence holds, (count, period): a sig's "twice daily" or "BID",
        ``times_per_day: 2`` (``rulekit.sweep_freq.held_frequencies``)."""
        from rulekit.sweep_freq import held_frequencies
        return held_frequencies(self.raw) if not isinstance(self.raw, str) else \
            held_frequencies({"text": self.raw})

    @functools.cached_property
    def hours_today(self) -> dt.date | None:
        """The day "today" means in a store's opening hours: the caller's ``now`` in the zone
        the hours' row names (``"timezone": "America/New_York"``, ``"utc_offset": "-05:00"``),
        else ``today``: at 01:00Z on a Thursday it is still Wednesday in New York."""
        hours = self.week_hours
        if self.now is None or hours is None or hours.zone is None:
            return self.today
        return self.now.astimezone(hours.zone).date()

    @functools.cached_property
    def week_hours(self) -> Any:
        """The opening hours the evidence keeps by weekday, or None
        (``rulekit.sweep_hours.held_week_hours``). Read once, when an answer speaks of hours."""
        from rulekit.sweep_hours import held_week_hours
        return held_week_hours(self.raw) if not isinstance(self.raw, str) else None

    @functools.cached_property
    def units(self) -> Mapping[Decimal, tuple[frozenset[str], frozenset[str]]]:
        """The units each number is held in and per (``_unit_tables``)."""
        return self._unit_tables[0]

    @functools.cached_property
    def units_written(self) -> Mapping[Decimal, frozenset[str]]:
        """The units a field's name, a sibling or a text names for each number, without the
        units of other kinds ``units`` adds for a text's (a finding names these: "the evidence
        holds 8 in hours", not every unit that is no time)."""
        return self._unit_tables[1]

    @functools.cached_property
    def _unit_tables(self) -> tuple[Mapping[Decimal, tuple[frozenset[str], frozenset[str]]],
                                    Mapping[Decimal, frozenset[str]]]:
        """The units each number is held in and per, as the names of the fields holding it say
        (``rulekit.units.named_units``): ``warranty_years: 2`` holds 2 in years,
        ``bag_allowance_kg: 23`` 23 in kilograms, ``rate_limit_per_minute: 600`` 600 per
        minute; so "a 2-month warranty", "23 lb" and "600 requests per second" say another
        quantity. A unit written after the number in the evidence's own text
        (``stated_units``: "limited to 10 MB") holds it in that unit among the units of its
        kind (``rulekit.units.of_kinds_written``): "10 GB" is another quantity, "10 kg" is not
        judged by it; a number a text writes with no unit, or inside a date, adds nothing.
        Keyed by value and by its negation (a mention's value is looked up as it is); a side
        is empty when some field holding the number names no unit there: its name does not say
        what it counts, so it may be said in any. Numbers neither a field nor a text names a
        unit for are left out."""
        counted: dict[Decimal, set[str] | None] = {}
        per: dict[Decimal, set[str] | None] = {}
        unit_fields: bool | None = None     # whether any field may name a unit: read once
        period_fields: bool | None = None   # whether any field may name a period: read once
        # the figures, and the amounts held in a minor unit ("24.5 pence per day" is another
        # quantity than the 24.5 pence per kWh of ``unit_rate_p_per_kwh``)
        held_figures = [figure for figure in self.figures if not figure.percent]
        held_figures += [Figure(value, path, 0, whole=True)
                         for value, _, path in self.minor_amounts]
        # the ends of a range a field holds alone ("6-8" in ``processing_weeks``), read as
        # numbers it holds alone, when its name or a sibling names their unit (below)
        ends = len(held_figures)
        held_figures += [Figure(value, path, 0, whole=True) for value, path in self.range_ends]
        for at, figure in enumerate(held_figures):
            if not figure.whole:
                continue        # inside a text: the unit written after it counts (below)
            value = abs(figure.value)
            name = figure.path.rsplit(".", 1)[-1].split("[", 1)[0]
            named = named_units(name)
            if named[0] and name[-3:].lower() == "min" and (
                    name[:-3] + {"MIN": "MAX", "Min": "Max"}.get(name[-3:], "max")
                    in _holder(self.raw, figure.path)):
                # "delivery_time_min" beside "delivery_time_max": a minimum, not minutes
                named = (named[0] - {"minute"}, named[1])
            if not named[0] and pressure_part(name) is not None:
                named = (frozenset((PRESSURE_UNIT,)), named[1])     # "diastolic": 82 in mmHg
            if figure.whole and not named[0]:
                if unit_fields is None:
                    unit_fields = any(key.lower().endswith(_UNIT_KEY_ENDS)
                                      for key in _keys_in(self.raw))
                # a sibling says the unit: {"weight": 1.2, "weight_unit": "kg"}
                # money: a field named for it, or a value written with its currency
                # ({"unit": "mi", "excess_per_mile": "$0.25"}: $0.25 per mile, in no miles)
                # (not a weight beside its row's currency: ``weight_total`` is in the row's unit)
                money = unit_fields and figure.currency not in (None, "%", NO_MONEY) and (
                    _money_name(name) and not _MEASURE_NAME.search(name) or _MONEY_WRITTEN.search(
                        str(_holder(self.raw, figure.path).get(name, ""))) is not None)
                beside = _unit_beside(self.raw, figure.path, name, row=not money) \
                    if unit_fields else None
                if beside is not None:
                    named = (frozenset((beside,)), named[1])
                    if named[0] == _PLAIN_DAY and "businessDays" in _holder(
                            self.raw, figure.path.rsplit(".", 1)[0]):
                        # schema.org's ShippingDeliveryTime counts its handlingTime and
                        # transitTime in the businessDays it names ({"unitCode": "DAY"} there)
                        named = (_WORKING_DAY, named[1])
                elif unit_fields and not named[1] and (words := key_words(name)) and (
                        words[-1] in _PRICE_WORDS or words[-1] in _UNIT_PRICE_WORDS
                        or money and _money_name(name)) and KIND_OF.get(
                            per_unit := _row_unit(_holder(self.raw, figure.path))) \
                        not in (None, "concentration", "share", "vital"):
                    # a price beside a row's "unit": "kg" is per kg, "$3.50 per lb" is flagged
                    # (as its name's last word says it, or "unit": ``unit_cost``); the row's
                    # total, a fee or a charge is per no unit: "$7.00 per kg" for
                    # ``line_total`` and "$1.50 per kg" for ``packing_fee`` are flagged
                    named = (named[0], frozenset((
                        per_unit if words[-1] in _UNIT_PRICE_WORDS or "unit" in words
                        else TOTAL,)))
            elif named[0] == _PLAIN_DAY and figure.whole:
                if unit_fields is None:
                    unit_fields = any(key.lower().endswith(_UNIT_KEY_ENDS)
                                      for key in _keys_in(self.raw))
                # a days field whose sibling says business days: {"min_days": 1, "unit":
                # "business_day"}, {"handling_days": 2, "unit": "business days"}
                if unit_fields and _unit_beside(self.raw, figure.path, name) == "business-day":
                    named = (_WORKING_DAY, named[1])
            if (not (named[0] or named[1]) or name.lower() in ALONE_AMBIGUOUS) \
                    and (inherited := _parent_units(figure.path)) is not None \
                    and not _money_name(name):
                # {"transit_days": {"min": 2, "max": 3}}, {"dimensions_cm": {"h": 20}}: the
                # object's name says the unit of the numbers its names say none of (an "h"
                # there is a height, no hour)
                named = inherited
            # a cap is per nothing unless a sibling says its period ({"max_charge": 24,
            # "max_charge_period": "day"}, {"mileage_cap": 200, "cap_period": "day"})
            cap = named[1] == _PER_TOTAL and names_cap(name)
            if cap or not named[1] and (figure.currency not in (None, "%", NO_MONEY) or (
                    figure.currency is None and _money_name(name))) \
                    and _ONE_OFF_NAMES.isdisjoint(key_words(name)):
                if period_fields is None:
                    period_fields = any(key.lower() in _PERIOD_KEYS or key[-6:].lower()
                                        == "period" for key in _keys_in(self.raw))
                # a sibling says the period: {"tuition": 14250, "billing_period": "semester"},
                # Stripe's {"unit_amount": 1999, "recurring": {"interval": "month"}}; or that it
                # is paid once ({"amount": 2500, "recurring": false}): per nothing
                period = _period_beside(_holder(self.raw, figure.path), name) if period_fields \
                    else None
                if period is not None:
                    named = (named[0], frozenset((period,)))
            if not named[0] and figure.currency not in (None, "%", NO_MONEY) \
                    and (figure.decimals or _money_name(name)) and not _MEASURE_NAME.search(name):
                # an amount: a field named for money, or a fraction beside a currency (a whole
                # number there may be a count, ``quantity: 2``, an ``eta: 30``)
                named = (frozenset((AS_MONEY,)), named[1])
            if at >= ends and not named[0]:
                continue        # a range in a field that names no unit: it holds none
            for held, found in zip((counted, per), named):
                if not found:
                    held[value] = None
                elif held.get(value, ()) is not None:
                    held.setdefault(value, set()).update(found)
        written: dict[Decimal, set[str]] = {}
        for value, unit in self.stated_units:
            written.setdefault(value, set()).add(unit)
        named = {value: frozenset(units) for value, units in counted.items() if units}
        for value, units in written.items():
            if counted.get(value, ()) is not None:
                named[value] = named.get(value, frozenset()) | units
                counted.setdefault(value, set()).update(of_kinds_written(frozenset(units)))
        out = {}
        for value in counted.keys() | per.keys():
            pair = (frozenset(counted.get(value) or ()), frozenset(per.get(value) or ()))
            if pair[0] or pair[1]:
                out[value] = out[-value] = pair
        shown = {}
        for value, units in named.items():
            shown[value] = shown[-value] = units
        return out, shown

    @functools.cached_property
    def tax_bases(self) -> Mapping[Decimal, frozenset[str | None]]:
        """The tax bases each amount is held on (``rulekit.units.INCLUDED`` or ``EXCLUDED``), as
        the names of the fields holding it say (``rulekit.units.named_tax_basis``:
        ``price_incl_vat``, ``net_price``, ``amount_ex_gst``), or a flag beside the amount or
        on an object holding it says (``tax_inclusive: true``, Shopify's ``taxes_included``,
        Stripe's ``tax_behavior: "exclusive"``; never before the tax for a total, nor any
        basis for a tax amount: ``_flag_applies``);
        None where a field holding it says neither: it may be said on either basis. Keyed by
        value and by its negation; amounts no field states a basis for are left out."""
        found: dict[Decimal, set[str | None]] = {}
        flags: bool | None = None       # whether any object holds a flag: read once
        for figure in self.figures:
            if figure.percent:
                continue
            name = figure.path.rsplit(".", 1)[-1].split("[", 1)[0]
            basis = named_tax_basis(name) if figure.whole else None
            if basis is None and figure.whole and _PRICE_NAME.search(name):
                if flags is None:
                    flags = any(str(key).lower() in _TAX_FLAGS for key in _keys_in(self.raw))
                basis = _flagged_basis(self.raw, figure.path) if flags else None
                if basis is not None:
                    basis = _flag_applies(figure.path, basis)
            found.setdefault(abs(figure.value), set()).add(basis)
        out = {}
        for value, bases in found.items():
            if bases != {None}:
                out[value] = out[-value] = frozenset(bases)
        return out

    def other_currencies(self, value: Decimal, currency: str) -> tuple[str, ...]:
        """The currencies the evidence holds ``value`` in when none of them may be ``currency``
        and none is unknown: a figure shown in the wrong currency. Empty otherwise.

        ``currency`` is a ``Mention.currency``: an ISO code, or a family a sign names where the
        locale does not settle which one ("$" in en_GB is "dollars or pesos"). A family matches
        any of its members, so "$59.90" passes against 59.90 CAD and is caught against 59.90
        GBP; an amount the evidence writes with such a sign (a "$1,299.00" string) is held in
        the family, and matches any currency of it."""
        held = self.currencies.get(abs(value))
        if not held or currency in held or None in held:
            return ()
        shown = currency_codes(currency)
        if any(not shown.isdisjoint(currency_codes(code)) for code in held):
            return ()
        return tuple(sorted(held))

    @functools.cached_property
    def words(self) -> frozenset[str]:
        """Every word (a run of letters and digits) of every string of the evidence, case-folded
        and NFKC: what a short quote ("Wow") must be one of. Read from ``raw`` on first use."""
        found: set[str] = set()
        for text in _strings_in(self.raw):
            found.update(_WORD.findall(unicodedata.normalize("NFKC", text).casefold()))
        return frozenset(found)

    @functools.cached_property
    def rate_bases(self) -> frozenset[Decimal]:
        """The bases of the rates the evidence's field names state: 1000 for
        ``cost_per_1k_calls``, 90 for ``goals_per_90``, 100000 for ``deathsPer100k``. Said after
        "per", such a number is the unit a figure is counted in, not a figure. Read from the
        keys of ``raw`` on first use."""
        return frozenset(base[0] for key in _keys_in(self.raw) if "per" in key.lower()
                         and (base := named_base(key)) is not None)

    @functools.cached_property
    def bases(self) -> Mapping[Decimal, frozenset[tuple[Decimal, str | None]]]:
        """The bases each amount is held per, for the amounts held only in fields named for
        an amount per N things (``rulekit.units.named_base``: 0.40 per (1000, "call") for
        ``price_per_1000_calls``, 3.50 per (100, "gram") for ``unit_price_per_100g``), by
        magnitude: said per another base ("$0.40 per call", "$3.50 per kg") it is another
        amount. An amount any other field holds too is left out."""
        found: dict[Decimal, set[tuple[Decimal, str | None]] | None] = {}
        for figure in self.figures:
            if figure.percent or not figure.whole:
                continue
            value = abs(figure.value)
            name = figure.path.rsplit(".", 1)[-1].split("[", 1)[0]
            base = named_base(name) if "per" in name.lower() else None
            if base is None:
                found[value] = None
            elif found.get(value, ()) is not None:
                found.setdefault(value, set()).add(base)
        return {value: frozenset(held) for value, held in found.items() if held}

    @functools.cached_property
    def time_windows(self) -> Mapping[Decimal, Mapping[str, frozenset[Decimal]]]:
        """The windows of time the evidence's field names state, each number with its units
        and, for each, the figures counted over it (by magnitude): {30: {"day": {18}}} for
        ``"posts_30d": 18``, {24: {"hour": ...}} for ``requests_last_24h``, {7: {"day": ...}}
        for ``views7d``, ``last7Days`` and ``{"last_7d": {"views": ...}}``. Said as a window
        beside one of its figures ("18 posts in the last 30 days"), such a number is the
        period a figure is counted over, not a figure. Read from the figures' paths."""
        found: dict[Decimal, dict[str, set[Decimal]]] = {}
        for figure in self.figures:
            for digits, unit in _windows_named(figure.path):
                found.setdefault(Decimal(digits), {}).setdefault(
                    _WINDOW_UNITS[unit.lower()], set()).add(abs(figure.value))
        return {value: {unit: frozenset(held) for unit, held in units.items()}
                for value, units in found.items()}

    @functools.cached_property
    def window_words(self) -> Mapping[tuple[Decimal, str], frozenset[str]]:
        """For each window of ``time_windows`` (its number and unit), the words of the names
        of the fields counted over it, each reduced like ``noun``: {(30, "day"): {"uptime"}}
        for ``uptime_30d``, {(7, "day"): {"view"}} for ``{"last_7d": {"views": ...}}``, so that "our 30-day uptime" says the window of that field."""
        found: dict[tuple[Decimal, str], set[str]] = {}
        for figure in self.figures:
            key = figure.path.rsplit(".", 1)[-1]        # "views" of ``{"last_7d": {"views"}}``
            for digits, unit in _windows_named(figure.path):
                found.setdefault((Decimal(digits), _WINDOW_UNITS[unit.lower()]), set()).update(
                    word for word in field_words(_WINDOW_NAME.sub(" ", key)) if word.isalpha())
        return {window: frozenset(words) for window, words in found.items()}

    @functools.cached_property
    def amounts(self) -> tuple[Amount, ...]:
        """Every field that says how many of something there are: a number, a list, a flag or
        a null, with the words of its name. Read from ``raw`` on first use (only an answer that
        says "no ..." or "in stock" needs it). A placeholder and a null say nothing (state
        "unknown"); a field a row rule withholds says nothing either (its reason's code)."""
        found: list[Amount] = []
        if not isinstance(self.raw, str):
            _collect_amounts(self.raw, "$", None, self.row_rules, found)
        return tuple(found)

    @functools.cached_property
    def amounts_by_words(self) -> Mapping[Any, tuple[Amount, ...]]:
        """``amounts`` by the words of their field's name (a frozenset), and under "stock"
        every amount whose name is about stock: one look-up per phrase an answer says."""
        found: dict[Any, list[Amount]] = {}
        for amount in self.amounts:
            found.setdefault(amount.words, []).append(amount)
            if "stock" in amount.words:
                found.setdefault("stock", []).append(amount)
        return {key: tuple(group) for key, group in found.items()}

    @functools.cached_property
    def ranks(self) -> frozenset[int]:
        """The ranks the evidence states, in fields named like a rank or a position (``rank``,
        ``queue_position``, ``standing``): a rank an answer states must be one of them when
        the evidence is ``ranked``."""
        return frozenset(int(a.shown) for a in self.amounts
                         if _rank_field(a) and a.shown.isdigit())

    @functools.cached_property
    def sections(self) -> frozenset[Decimal]:
        """The numbers of the sections the evidence stores, in fields whose last key names
        one (``section``, ``section_number``, ``sectionId``, ``class_section``: a course's
        ``"003"``): when it stores any, a section an answer says ("section 004", "sec. 7")
        is an identifier, held to them, not a place in the answer's own list. Read once."""
        return frozenset(figure.value for figure in self.figures if figure.whole
                         and not figure.percent and _SECTION_FIELD.search(figure.path))

    @functools.cached_property
    def rating_scales(self) -> frozenset[Decimal]:
        """The scales of ratings the evidence stores, in fields named for one (``max_rating``,
        ``best_rating``, ``rating_scale``, ``out_of``, ``scale``, schema.org ``bestRating``;
        ``_SCALE_FIELD``): when it stores any, a scale an answer says ("4.3 out of 10",
        "4,3 sur 10", "4.3/10") must be one of them. Read once per index."""
        return frozenset(figure.value for figure in self.figures if figure.whole
                         and not figure.percent and figure.value > 0
                         and _SCALE_FIELD.search(figure.path) is not None)

    @functools.cached_property
    def scale_tops(self) -> frozenset[Decimal]:
        """The numbers the evidence holds only as the top of a scale: the M of a text's "N/M"
        (``spice_level: "3/5"``), a field named for a scale (``rating_scales``) or a maximum
        (``spice_max``, ``max_spice``). Said as the rating of "5/5" or "5 out of 5" such a
        number backs nothing: the level must be one the evidence holds. Read once per index."""
        tops: set[Decimal] = set()
        other: set[Decimal] = set()
        texts: dict[str, tuple[frozenset[Decimal], frozenset[Decimal]]] = {}
        for figure in self.figures:
            if figure.percent:
                continue
            name = figure.path.rsplit(".", 1)[-1]
            if figure.whole:
                low = name.lower()
                scale = _SCALE_FIELD.search(figure.path) is not None or low.endswith(
                    ("_max", "max")) or low.startswith(("max_", "max"))
                (tops if scale else other).add(figure.value)
                continue
            if figure.path not in texts:
                text = _holder(self.raw, figure.path).get(name) if "[" not in name else None
                text = text if isinstance(text, str) else ""
                pairs = _SCALE_PAIR.findall(text) if "/" in text else ()
                texts[figure.path] = (
                    frozenset(Decimal(n.replace(",", ".")) for n, _ in pairs),
                    frozenset(Decimal(m) for _, m in pairs))
            levels, scales = texts[figure.path]
            (tops if figure.value in scales and figure.value not in levels
             else other).add(figure.value)
        return frozenset(tops - other)

    @functools.cached_property
    def score_scale_ends(self) -> frozenset[Decimal]:
        """The numbers the evidence holds only as an end of a score's scale: its top in a field
        named for one (``_SCALE_FIELD``: ``points_possible``, ``grademax``, ``gpa_scale``,
        ``max_score``), its bottom (``_SCALE_BOTTOM_FIELD``: ``grademin``, ``min_score``), or
        a range text of one (``_SCALE_RANGE_FIELD``: Moodle's ``rangeformatted``). Such a
        number backs only the scale said as one ("34 out of 40", "34/40", "on a 4.0 scale",
        "a 40-point quiz", "from 0 to 20"), never a score ("40/40", "she earned 20 points", "a
        4.0 GPA" for a null score or a 3.67): ``rulekit.sweep``. Read once per index."""
        ends: set[Decimal] = set()
        other: set[Decimal] = set()     # (a game's best_score is the player's, no top)
        for figure in self.figures:
            if figure.percent:
                continue
            end = _score_end_name(figure.path.rsplit(".", 1)[-1])
            (ends if end == "range" or end == "top" and figure.whole else other).add(figure.value)
        return frozenset(ends - other)

    @functools.cached_property
    def scores(self) -> tuple[frozenset[Decimal], frozenset[Decimal]] | None:
        """The numbers the evidence holds as a score (a GPA, a grade, a rating, a credit
        score: ``_score_kind``), and those of them it holds as the score now (not a
        ``previous_score``, a ``best_score``, an ``average_gpa``): a figure said as a score
        ("Your GPA is 4.0", "an 850 credit score") is held to the first, and the level a score
        reached ("went from 18 to 20", "rose to 20") to the second
        (``rulekit.sweep_scales.said_as_score``), not to a count beside it (``days_absent: 4``),
        the scale's end (``gpa_scale: 4.0``) or a target (``target: 20``). None when the
        evidence names no score nor a score's scale (its keys are read, null ones too: a null
        ``score`` backs no level). Read once per index."""
        if not _names_score(self.raw):
            return None
        held: set[Decimal] = set()
        now: set[Decimal] = set()
        for figure in self.figures:
            if figure.currency:
                continue
            keys = figure.path.rsplit(".", 2)
            kind = _score_kind(keys[-1])
            if kind is None and len(keys) == 3 and keys[-1].lower() in _SCORE_VALUE_KEYS:
                kind = _score_kind(keys[-2])    # {"rating": {"value": 4.3, "scale": 5}}
            if kind:
                held.add(figure.value)
                if kind == "now":
                    now.add(figure.value)
        return frozenset(held), frozenset(now)

    @functools.cached_property
    def test_scales(self) -> frozenset[tuple[Decimal, Decimal]]:
        """The score and the well-known scale of each standardized test's score the evidence
        holds (``_TEST_SCALES``: ``sat_total: 1450`` is (1450, 1600), ``act_composite: 32``
        (32, 36), ``ib_total: 38`` (38, 45), ``cumulative_gpa: 3.67`` (3.67, 4)), when the object
        holding it stores no scale of its own (``_SCALE_FIELD``, which decides then): "1450 out
        of 1600", "38/45" say the test's scale, as "4 out of 5" says a rating's. Read once."""
        pairs: set[tuple[Decimal, Decimal]] = set()
        for figure in self.figures:
            if not figure.whole or figure.percent or figure.currency or figure.value <= 0:
                continue
            name = figure.path.rsplit(".", 1)[-1]
            words = key_words(name) if "[" not in name else ()
            for word in words:
                # the smallest scale at or above the score: a section's, a subject's, or the
                # total's (sat_math 760 is out of 800, sat_total 1450 out of 1600)
                top = min((t for t in _TEST_SCALES.get(word, ()) if t >= figure.value),
                          default=None)
                if top is not None and not any(_SCALE_FIELD.search("." + str(key)) for key
                                               in _holder(self.raw, figure.path)):
                    pairs.add((figure.value, top))
        return frozenset(pairs)

    @functools.cached_property
    def row_name_texts(self) -> frozenset[str]:
        """The names of the evidence's rows (``_named_rows``: a ``name``, a ``title``, a
        ruleset's ``mentioned as`` field), case-folded, of three characters or more: a clause
        that writes one speaks of that row ("Luigi's Trattoria is open today"). Read once."""
        if isinstance(self.raw, str):
            return frozenset()
        named: list[tuple[str, str]] = []
        _named_rows(self.raw, "$", named, self.row_names)
        return frozenset(name for _, text in named
                         if len(name := " ".join(text.split()).casefold()) >= 3)

    @functools.cached_property
    def ranked(self) -> bool:
        """Whether the evidence has a field named like a rank or a position that holds one,
        or holds it as null or a placeholder: a rank it does not know (``"queue_position":
        null``) backs no rank, so "you're number 3 in the queue" is held to ``ranks``, whatever
        other numbers the evidence holds ("open_tickets": 3)."""
        return bool(self.ranks) or any(a.state == "unknown" and _rank_field(a)
                                       for a in self.amounts)

    @functools.cached_property
    def stock_rows(self) -> tuple[tuple[str, tuple[Amount, ...]], ...]:
        """Each row named by a ``name`` or ``title`` string that holds stock (``amounts`` about
        stock at or below it), as (the name case-folded, those amounts): "The Trail Runner is in
        stock" is judged against the Trail Runner's stock only. A row's own stock (its fields
        and those of the objects in them, not of a list under it) is all of it when it has
        any: a sold-out event's ``tickets_remaining: 0`` is not backed by its add-ons'."""
        return self._stock_rows[0]

    @functools.cached_property
    def unnamed_stock(self) -> tuple[Amount, ...]:
        """The stock amounts a stock word said of no row ("It's still available", "Ja, er ist
        auf Lager") is judged against: every one but those of the rows of another kind listed
        under a row with stock of its own (a sold-out product's in-stock add-on), which only
        a clause naming them speaks of. Read once."""
        return self._stock_rows[1]

    @functools.cached_property
    def stock_variants(self) -> tuple[tuple[frozenset[str], tuple[Amount, ...]], ...]:
        """Each row of a list that the evidence tells apart by a size, a colour or another
        option field (``_VARIANT_KEYS``: ``{"size": "44", "stock": 0}``), maybe beside a name,
        and that holds stock: (its values of those fields, case-folded, and the
        stock amounts at or below it). "The Trail Runner has 3 left in size 44" is judged
        against that variant's stock alone. Read once."""
        stock = self.amounts_by_words.get("stock", ())
        if not stock or isinstance(self.raw, str):
            return ()
        found: list[tuple[str, frozenset[str]]] = []
        _variant_rows(self.raw, found)
        rows = []
        for path, values in found:
            held = tuple(a for a in stock if a.path.startswith(path)
                         and a.path[len(path):len(path) + 1] in ".[")
            if held:
                rows.append((values, held))
        return tuple(rows)

    @functools.cached_property
    def variant_values(self) -> tuple[str, ...]:
        """The values of ``stock_variants``, each once, in order. Read once."""
        return tuple(dict.fromkeys(value for values, _ in self.stock_variants
                                   for value in sorted(values)))

    @functools.cached_property
    def _stock_rows(self) -> tuple[tuple[tuple[str, tuple[Amount, ...]], ...],
                                   tuple[Amount, ...]]:
        """``stock_rows`` and ``unnamed_stock``, read in one walk."""
        stock = self.amounts_by_words.get("stock", ())
        if not stock or isinstance(self.raw, str):
            return (), stock
        named: list[tuple[str, str]] = []
        _named_rows(self.raw, "$", named, self.row_names)
        rows = []
        shadowed: set[Amount] = set()
        for path, name in named:
            held = tuple(a for a in stock if a.path.startswith(path)
                         and a.path[len(path):len(path) + 1] in ".[")
            # A row's own stock field (``tickets_remaining: 0``) is its stock, whatever the
            # rows of another kind listed under it hold (``add_ons[0].available``); the rows
            # of a list of its variants (``variants``, ``skus``, ``sizes``) are its stock
            # too ("The Trail Runner has 11 left in size 44" beside ``total_inventory: 15``),
            # and a row without a field of its own has the stock of the rows under it.
            own = tuple(a for a in held if "[" not in a.path[len(path):]
                        or _variant_list(a.path[len(path):]))
            if own:
                shadowed.update(a for a in held if a not in own)
            held = own or held
            if held:
                rows.append((" ".join(name.split()).casefold(), held))
        unnamed = tuple(a for a in stock if a not in shadowed) if shadowed else stock
        return tuple(rows), unnamed or stock

    @functools.cached_property
    def stock_nouns(self) -> frozenset[str]:
        """The nouns, each reduced like ``noun``, that name what the evidence's stock counts:
        the words of a stock field's name ("room" for ``rooms_left``), the last word of a
        stocked row's name ("raincoat" for "Navy raincoat"), and the words for any unit of
        stock ("units", "items", "pieces"); empty when the evidence holds no stock. "There are
        still rooms left" is a stock claim only about such a noun."""
        stock = self.amounts_by_words.get("stock", ())
        if not stock:
            return frozenset()
        found = set(_STOCK_UNITS)
        for amount in stock:
            found.update(word for word in amount.words if word.isalpha())
        found.update(noun(last) for last in (name.rsplit(" ", 1)[-1] for name, _ in self.stock_rows)
                     if last.isalpha() and len(last) > 1)     # not "M" of "Trailhead 3 Navy M"
        return frozenset(found - _STOCK_NAME_WORDS)

    @functools.cached_property
    def left_amounts(self) -> Mapping[str, tuple[Amount, ...]]:
        """The fields that count what is left of a thing that is no stock, by that thing
        reduced like ``noun``: ``refills_remaining``, ``refills_left`` and
        ``remaining_refills`` under "refill" (``credits_left`` under "credit"; not a side such
        as ``margin_left``). "no refills left", "out of refills" and "a refill remaining" are
        judged against them (``rulekit.sweep_amounts``); empty when the evidence holds none."""
        found: dict[str, list[Amount]] = {}
        for amount in self.amounts:
            if "stock" in amount.words or amount.words.isdisjoint(_LEFT_NAME_WORDS):
                continue
            core = amount.words - _LEFT_NAME_WORDS
            if len(core) == 1 and core.isdisjoint(_SIDE_WORDS):
                found.setdefault(next(iter(core)), []).append(amount)
        return {thing: tuple(group) for thing, group in found.items()}

    @functools.cached_property
    def counted(self) -> Mapping[str, tuple[frozenset[Decimal], frozenset[str]]]:
        """The words an answer counts things by, as written after a number ("reviews",
        "Reviews", "review"), each with the counts that back a number before it, and
        those counts in digits as an answer writes them ("1234", "1,234", "1.234"). The counts
        are the length of every list named for the thing and every number of a field whose
        name has its word (``reviews``, ``review_count``, ``num_reviews``, ``reviews_7d``),
        with the items of a list of numbers named for it, and a number written before its word
        in the evidence's own text (``stated_counts``). A thing is counted when a list or a
        field names it alone, not as a sum (``reviews_7d`` and ``total_points`` add a count but
        make nothing counted). Units of time are not counted: "ships in 3 days" is a duration.
        Read from ``raw`` on first use."""
        backing: dict[str, set[Decimal]] = {}
        named: set[str] = set()
        if not isinstance(self.raw, str):
            _collect_counted(self.raw, None, self.row_rules, backing, named)
        for thing, count in self.stated_counts:
            backing.setdefault(thing, set()).add(count)
        found = {}
        for thing in named - _DURATION_NOUNS:
            counts = frozenset(backing.get(thing, ()))
            shown = set()
            for count in counts:
                if count == count.to_integral_value():
                    shown.update((str(int(count)), f"{int(count):,}",
                                  f"{int(count):,}".replace(",", ".")))
            entry = (counts, frozenset(shown))
            plural = thing[:-1] + "ies" if thing.endswith("y") else thing + "s"
            for form in (thing, plural):
                for written in (form, form.capitalize(), form.upper()):
                    found[written] = entry
        return found

    @functools.cached_property
    def star_values(self) -> tuple[frozenset[Decimal], str] | None:
        """The values an answer may say in stars ("4 stars", "a 4-star hotel", "4 Sterne",
        4つ星): the numbers of fields named for stars (``star_rating``, ``stars``,
        ``hotelStars``) and of a rating or a score beside a scale of 5 (``guest_rating`` beside
        ``rating_scale: 5``), with the star fields' paths for a message; None when no field is
        named for stars (then a figure said in stars is judged by its value alone). Read from
        ``raw`` on first use."""
        if isinstance(self.raw, str):
            return None
        values: set[Decimal] = set()
        paths: list[str] = []
        _collect_stars(self.raw, "$", values, paths)
        return (frozenset(values), ", ".join(paths[:3])) if paths else None

    @functools.cached_property
    def counted_words(self) -> frozenset[bytes]:
        """The words of ``counted`` that are of letters A-Z, lower-cased, as ASCII bytes: a
        number the sweep reads as a count is followed by one of them as a word of the
        answer's ``az_words`` (none there: no count to read)."""
        return frozenset(word.lower().encode() for word in self.counted
                         if word.isascii() and word.isalpha())

    @functools.cached_property
    def counts_as_written(self) -> frozenset[tuple[str, str]]:
        """Each (digits, word) of ``counted`` an answer may write as it stands ("45", "posts"):
        the pairs of digits and the word after them that the sweep need not read further, taken
        away from a text's pairs at C speed rather than looked up one by one."""
        return frozenset((digits, word) for word, (_, shown) in self.counted.items()
                         for digits in shown)

    def settled_instants(self, time: dt.time) -> list[dt.datetime]:
        """The stored instants, in their own offset, that are ``time`` in the zone its name
        means: for a name of several zones ("16:05 BST"), the instant's written offset must be
        one reading's offset at that instant (16:05+01:00 is British Summer Time), so the
        evidence settles which zone is meant. Empty for a zone that is not such a name."""
        zone = time.tzinfo
        if not isinstance(zone, dates.Readings):
            return []
        found = []
        for held, hour, minute, offset in self.offset_clock:
            if (hour, minute) == (time.hour, time.minute):
                instant = dt.datetime(held.year, held.month, held.day, hour, minute,
                                      tzinfo=dt.timezone(offset))
                if any(instant.astimezone(reading).utcoffset() == offset
                       for reading in zone.zones):
                    found.append(instant)
        return found

    @functools.cached_property
    def clock_times(self) -> frozenset[tuple[int, int]]:
        """(hour, minute) of every clock time, whatever its day."""
        return frozenset((hour, minute) for _, hour, minute in self.clock)

    @functools.cached_property
    def clocked_days(self) -> frozenset[dt.date]:
        """The days the evidence holds a clock time on: a time it writes without a day (an
        event's ``time`` beside its ``date``) is the time of a day only when it holds none."""
        return frozenset(day for day, _, _ in self.clock if day is not None)

    @functools.cached_property
    def utc_clock_times(self) -> frozenset[tuple[int, int]]:
        """(hour, minute) in UTC of every instant, whatever its day."""
        return frozenset((hour, minute) for _, hour, minute in self.utc_clock)

    @functools.cached_property
    def period_keys(self) -> frozenset[str]:
        """The quarters and halves the evidence's keys name, case-folded (``q2``, ``revenue_q3``,
        ``h1_2026``): a key names its period as a text would, so "Q2" is that name; and the
        percentiles (``p95_latency_ms``, ``p99_9_ms`` as "p99.9"), a metric's name."""
        return frozenset(part.casefold().replace("_", ".") for key, _ in _items(self.raw)
                         for part in _PERIOD_KEY.findall(key))

    @functools.cached_property
    def _by_magnitude(self) -> tuple[list[Decimal], tuple[Figure, ...]]:
        ordered = tuple(sorted(self.figures, key=lambda f: abs(f.value)))
        return [abs(f.value) for f in ordered], ordered

    # Derived indexes, computed on first use and kept with the evidence (built once, audited
    # many times), so that judging one mention is a set lookup.

    @functools.cached_property
    def pair_numbers(self) -> frozenset[str]:
        """The number of every "word number" pair ("3" of "model 3"): a mention's text must be
        one of them before the word in front of it is worth reading."""
        return frozenset(_pair_number(pair) for pair in self.name_pairs if " " in pair)

    @functools.cached_property
    def names_by_word(self) -> Mapping[str, tuple[str, ...]]:
        """The names of several words by each of their words (case-folded): a number word
        ("three") is a name's when the text writes that whole name around it ("Three ways to
        plan a week of posts")."""
        found: dict[str, list[str]] = {}
        for name in self.names:
            words = name.split()
            if len(words) > 1:
                for word in set(words):
                    found.setdefault(word, []).append(name)
        return {word: tuple(names) for word, names in found.items()}

    @functools.cached_property
    def signed_values(self) -> frozenset[Decimal]:
        """Every licensed number with its sign: "+5" needs a 5, not the magnitude of a -5. A
        percentage is in ``percents``, with its sign."""
        return frozenset(f.value for f in self.figures if not f.percent)

    @functools.cached_property
    def negative_balances(self) -> frozenset[Decimal]:
        """The sizes of the amounts held only below zero in a field named for a balance
        (``available_balance: -42.10``, Plaid's ``balances.current``; ``_BALANCE_NAME``):
        an overdrawn account, which an unsigned amount states only beside a word that says so
        ("overdrawn by $42.10", "you owe $42.10"; ``rulekit.sweep``, rule 1)."""
        found = {-f.value for f in self.figures if f.value < 0 and not f.percent
                 and _BALANCE_NAME.search(".".join(_ANY_INDEX.sub("", f.path).split(".")[-2:]))
                 and _trend_name(f.path.rsplit(".", 1)[-1]) is None}     # not "balance_change"
        return frozenset(found - self.signed_values) if found else frozenset()

    @functools.cached_property
    def count_lengths(self) -> frozenset[int]:
        """The lengths of the lists: a number is a count only if it is one of them."""
        return frozenset(length for length, _ in self.counts)

    @functools.cached_property
    def day_months(self) -> frozenset[int]:
        """The month of every day and every month the evidence holds (1 to 12): what "month
        6" and "6月" may be."""
        return frozenset(day.month for day in self.days) | {int(m[5:7]) for m in self.months}

    @functools.cached_property
    def days_of_month(self) -> frozenset[int]:
        return frozenset(day.day for day in self.days)

    def near(self, value: Decimal) -> tuple[Figure, ...]:
        """Figures within a factor of two of ``value``: the only ones that can round to it."""
        keys, ordered = self._by_magnitude
        size = abs(value)
        return ordered[bisect.bisect_left(keys, size / 2): bisect.bisect_right(keys, size * 2 + 1)]

    @classmethod
    def build(cls, evidence: Any, *, locale: str = "en_US", untrusted: Iterable[str] = (),
              authoritative: Iterable[str] = (), placeholders: Iterable[str] = (),
              percent_fields: Iterable[str] = (),
              query_dropped: Iterable[str] = (), no_money: Iterable[str] = (),
              ratio_fields: Iterable[str] = (),
              field_placeholders: Iterable[tuple[str, str, str | None]] = (),
              minor_units: Mapping[str, int] | None = None,
              rows: Mapping[int, RowRule] | None = None,
              currencies: Mapping[str, str] | None = None,
              zones: Iterable[tuple[str, str, str]] = (),
              identifiers: Iterable[str] = (),
              header_zone: str | None = None,
              row_names: Iterable[str] = ()) -> "Evidence":
        """Index a JSON object or a text document. ``untrusted`` and ``authoritative`` hold
        field names, ``entity.field`` or JSON paths (``$.reviews[*].body``); ``placeholders``
        are extra "not recorded" values; ``percent_fields`` name fields stored as points;
        ``minor_units`` maps money fields stored in minor units to their currency's digits and
        ``currencies`` money fields to their currency; ``zones`` holds (field, zone, naive
        zone) of the date and timestamp fields a ruleset declares (``_Builder._in_zones``).
        ``rows`` maps the ``id()`` of each entity row inside ``evidence`` to its rule;
        ``query_dropped`` names the URL fields compared without their query; ``identifiers``
        the fields declared ``identifier``, whose digits are a code, no quantity;
        ``header_zone`` the ruleset's header ``timezone`` (None for UTC), which an instant
        with an offset in a field no entity declares is read in; ``no_money`` the number
        fields no currency may stand for (``NO_MONEY``); ``row_names`` the fields that name a
        row (a ruleset's ``mentioned as``)."""
        builder = _Builder(locale, set(untrusted), set(authoritative),
                           {p.casefold() for p in placeholders}, set(percent_fields))
        builder.query_dropped = _FieldTargets(query_dropped)
        builder.no_money = _FieldTargets(no_money)
        builder.ratio_fields = _FieldTargets(ratio_fields)
        for field, value, unless in field_placeholders:
            builder.field_placeholders.setdefault(field, []).append((value, unless))
        builder.minor_units = dict(minor_units or {})
        builder.field_currencies = dict(currencies or {})
        for field, zone, naive in zones:
            builder.zones[field] = builder.zones.get(field, ()) + ((zone, naive),)
        builder.rows = rows or {}
        builder.identifiers = frozenset(fold_name(field) for field in identifiers)
        builder.header_zones = ((header_zone, None),) if header_zone else ()
        if isinstance(evidence, str):
            builder.text(evidence, "$", trusted=True)
        else:
            builder.walk(evidence, "$", (), trusted=True)
        built = builder.done(evidence)
        row_names = frozenset(row_names)
        return dataclasses.replace(built, row_names=row_names) if row_names else built


# The words a sibling field uses to say that a number is a percentage, and the fields it
# names: "value_type" names "value"; "type", "unit" and a type of something not beside it
# ("discount_type", WooCommerce's) name the value, the rate or the percentage beside them, and
# an amount only when none of those is (``_percent_siblings``).
_PERCENT_WORDS = frozenset({"percentage", "percent", "%", "pct", "percent_off",
                            "percentage_off", "percentoff", "percent-off"})
_UNIT_FIELD = re.compile(r"(?P<field>.*?)[_-]?(?:type|units?|kind|uom|unit_of_measure)",
                         re.IGNORECASE)
_VALUE_FIELDS = ("value", "rate", "percentage", "percent", "pct")
# A sibling that says a change's direction ({"change": 12.5, "direction": "down"}).
_DIRECTION_KEYS = frozenset({"direction", "trend"})
_DIRECTION_WORDS = {"down": -1, "decrease": -1, "decreased": -1, "fall": -1, "drop": -1,
                    "up": 1, "increase": 1, "increased": 1, "rise": 1}


def _percent_siblings(node: Mapping) -> frozenset[str]:
    """The fields of ``node`` whose numbers a sibling says are percentages: "value" beside
    "value_type": "percentage" (Shopify's discount applications); beside "type" or "unit":
    "percent" or a type of something else ("discount_type": "percent", WooCommerce's coupon),
    the "value", "rate" or "percentage" beside it, else the "amount". An amount beside a value
    is money: in {"type": "percentage", "value": 10, "amount": 5.99} only the 10 is a
    percentage."""
    marked: set[str] = set()
    for key, child in node.items():
        if not isinstance(child, str) or child.strip().casefold() not in _PERCENT_WORDS:
            continue
        found = _UNIT_FIELD.fullmatch(str(key))
        if found is None:
            continue
        field = found.group("field")
        if field and field in node:
            marked.add(field)
        else:
            marked.update([name for name in _VALUE_FIELDS if name in node] or ["amount"])
            if str(key).casefold() in _ROW_UNIT_KEYS or key in _ROW_UNIT_KEYS:
                # a row's unit is its range's too: "reference_range": "4.0-5.6" beside
                # "unit": "%" backs "4.0-5.6%"
                marked.update(name for name in node if isinstance(name, str)
                              and _range_name(name))
    return frozenset(marked)


# The fields that name the unit of a whole row ({"test": "HbA1c", "value": 6.1, "unit": "%",
# "reference_range": "4.0-5.6"}), and the words of the fields that hold its range, whose
# numbers are in the row's unit too.
_ROW_UNIT_KEYS = ("unit", "units", "uom", "unit_of_measure", "unitText", "unitCode")
_RANGE_WORDS = frozenset({"range", "ref", "reference", "normal"})
_RANGE_END_WORDS = frozenset({"low", "high", "lower", "upper", "limit", "bound"})


def _range_name(name: str) -> bool:
    """Whether a field's name says it holds a range of its row's values (``reference_range``,
    ``referenceRange``, ``ref_low``, ``normal_high``), or one of its ends alone (``low``,
    ``upper_limit``; not ``high_price``)."""
    words = key_words(name)
    return not _RANGE_WORDS.isdisjoint(words) or bool(words) \
        and _RANGE_END_WORDS.issuperset(words)


# The words of a field named for another quantity than the one its row measures: a fast, a
# count, an age, an id or a position, a time (``fasting``, ``sample_count``, ``patient_age``,
# ``order_id``, ``collected_at``, ``days_ago``), money (``unit_price`` beside ``unit: "kg"`` is
# per kg, not in it; not an ``amount`` nor a ``total``, which may be a dose's or a lab's,
# ``{"total": 7.2, "unit": "g/dL"}``), as the name's last word (its head: not
# ``fasting_glucose``); and those of a count as its first (``num_samples``, ``n_readings``).
_OTHER_QUANTITY_WORDS = frozenset("""fasting fasted fast count counts cnt age id ids uuid seq
    sequence index idx rank position pos order version page attempt attempts retries number
    no nr num time date datetime timestamp ts epoch at duration elapsed ago since interval
    period percentile""".split()) | (
    (_MONEY_WORDS | _PRICE_WORDS) - {"amount", "amounts", "total", "totals"})
_COUNT_FIRST_WORDS = frozenset("n num number no nr count cnt".split())


@functools.lru_cache(maxsize=1024)
def _row_measures(name: str) -> bool:
    """Whether a row's ``unit`` (``units``, ``uom``) is the unit of its field ``name``: of its
    value (``value``, ``result``, FHIR's ``valueQuantity.value``, a field named for what it
    measures, ``glucose``, an earlier value, ``previous``) and of its range (``_range_name``),
    not of a number named for another quantity (``_OTHER_QUANTITY_WORDS``: ``fasting: 8`` beside
    ``unit: "mg/dL"`` is no 8 mg/dL)."""
    words = key_words(name)
    return not words or _range_name(name) or (
        words[-1] not in _OTHER_QUANTITY_WORDS and words[0] not in _COUNT_FIRST_WORDS)


def _row_unit(node: Mapping) -> str | None:
    """The unit a row's ``unit`` (``units``, ``uom``) field names, or None."""
    for key in _ROW_UNIT_KEYS:
        said = node.get(key)
        if isinstance(said, str) and (unit := unit_named(said)) is not None:
            return unit
    return None


# The words of a field named for a blood pressure, whose "128/82" needs no unit to be one.
_PRESSURE_NAME_WORDS = frozenset({"bp", "pressure"})


def _sibling_direction(siblings: Mapping) -> int:
    """-1 or 1 when a sibling says which way a change stored as its size went, else 0."""
    for key in _DIRECTION_KEYS:
        word = siblings.get(key)
        if isinstance(word, str):
            return _DIRECTION_WORDS.get(word.strip().casefold(), 0)
    return 0


# A field that holds a day, whose eight digits are YYYYMMDD ("date": "20260707").
# A day and a clock time kept in two fields whose names differ only so (``_paired_instants``).
_DATE_TIME_WORDS = (("date", "time"), ("Date", "Time"), ("DATE", "TIME"))
_PAIRED_DAY = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_PAIRED_CLOCK = re.compile(r"([01]?[0-9]|2[0-3]):([0-5][0-9])(?::[0-5][0-9](?:\.[0-9]+)?)?")
_DAY_FIELD = re.compile(r"(?i:(?:^|_)(?:date|day))$|[a-z]Date$")


def _compact_day(text: str, keys: tuple[str, ...]) -> dt.date | None:
    """The day of eight digits YYYYMMDD in a field named for a day ("date", "day",
    "report_date", "startDate"), as analytics reports store it; None anywhere else."""
    if len(text) != 8 or not text.isdigit() or not text.isascii() \
            or not _DAY_FIELD.search(keys[-1]):
        return None
    try:
        return dt.date(int(text[:4]), int(text[4:6]), int(text[6:]))
    except ValueError:
        return None


def _untracked(name: str, value: Decimal, siblings: Mapping) -> bool:
    """Whether a -1 or a 0 in field ``name`` means "not recorded": a sibling flag
    (``putts_tracked``, ``has_putts``) is false, or it is a -1 in a field that is not a change."""
    if siblings:
        flags = {fold_name(pattern.format(name)) for pattern in _FLAG_NAMES}
        for key, flag in siblings.items():
            # any spelling of the flag's name ("puttsTracked", "Putts-Tracked") and of false
            # ("False", "No", "n", "off")
            if flag is not None and not isinstance(flag, (Mapping, list, tuple)) \
                    and _says_false(flag) and fold_name(str(key)) in flags:
                return True
    return value == -1 and not _CHANGE_NAME.search(name)


_FALSE_WORDS = frozenset({"false", "no", "n", "0", "off", "f"})


def _says_false(flag: Any) -> bool:
    """Whether a sibling flag's value says no: false, 0, or a text of it in any case."""
    if isinstance(flag, str):
        return flag.strip().casefold() in _FALSE_WORDS
    return flag is False or type(flag) in (int, float) and flag == 0


class _Declared(NamedTuple):
    """The currencies an object of the evidence declares: of every amount beside them
    (``currency``, ``currencyCode``...), and of one field each (``price_currency``)."""
    currency: str | None
    by_field: Mapping[str, str]


_NO_CURRENCY = _Declared(None, {})


def _flag_unset(siblings: Mapping, name: str) -> bool:
    """Whether the sibling flag ``name`` (any spelling) is absent, null or says no."""
    folded = fold_name(name)
    flag = next((v for k, v in siblings.items() if fold_name(str(k)) == folded), None)
    return flag is None or _says_false(flag)


def _declared_currencies(node: Mapping) -> _Declared:
    """What the fields of ``node`` say about the currencies of the amounts beside them."""
    names = " ".join(map(str, node)).casefold()     # one pass: most objects name none
    if "cur" not in names and "ccy" not in names:
        return _NO_CURRENCY
    currency, by_field = None, None
    for key, value in node.items():
        if not isinstance(value, str) or len(value) > 8:
            continue
        key = str(key)
        lowered = key.casefold()
        if "cur" not in lowered and "ccy" not in lowered:
            continue
        code = value.strip()
        if len(code) != 3 or not code.isascii() or not code.isalpha():
            continue
        if lowered.replace("_", "").replace("-", "") in _CURRENCY_KEYS:
            currency = currency or code.upper()
            continue
        found = _FIELD_CURRENCY.fullmatch(key)
        if found is None:
            continue
        field = found.group("field")
        # money-rails names the amount for its minor unit: price_cents beside price_currency
        for name in (field, *(str(other) for other in node if str(other).startswith(field + "_")
                              and _minor_word(str(other)))):
            if name in node:
                by_field = by_field or {}
                by_field[name] = code.upper()
    return _Declared(currency, by_field or {}) if currency or by_field else _NO_CURRENCY


@functools.lru_cache(maxsize=4096)
def _name_currency(name: str) -> str | None:
    """The currency a field's name ends or starts with ("price_gbp", "amountUsd", "usd_total",
    "gbp"), or None (none, or two: "usd_to_eur")."""
    found = {word.upper() for word in _NAME_WORDS.findall(name) if len(word) == 3} & _NAME_CODES
    return found.pop() if len(found) == 1 else None


# A value written with its currency ("$0.25", "EUR 12.00", "12,00 €"): a sign or a code.
_MONEY_WRITTEN = re.compile(r"[^\d\s.,'\u00a0+\-]")


@functools.lru_cache(maxsize=4096)
def _money_name(name: str) -> bool:
    """Whether a field's name says it holds an amount of money (``_MONEY_WORDS``)."""
    return not _MONEY_WORDS.isdisjoint(word.casefold() for word in _NAME_WORDS.findall(name))


def _today(value: Any) -> dt.date | None:
    """The calendar day a today/as_of value names, as written: "2026-08-06T01:00:00+08:00" is
    6 August where it was written, which is the day its reader calls today."""
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        # a Unix time in seconds, or in milliseconds: the day in UTC
        seconds = value / 1000 if value >= 1e11 else value
        if not 1e8 <= seconds < 1e10:
            return None
        return dt.datetime.fromtimestamp(seconds, dt.timezone.utc).date()
    if not isinstance(value, str):
        return None
    text = value.strip()
    try:
        return dt.datetime.fromisoformat(text).date()
    except ValueError:
        return dates.stored_day(text, None, "UTC") if len(text) <= 40 else None


def _decimals(value: Decimal) -> int:
    exponent = value.as_tuple().exponent
    return -exponent if isinstance(exponent, int) and exponent < 0 else 0


class _Builder:
    def __init__(self, locale: str, untrusted: set[str], authoritative: set[str],
                 placeholders: set[str], percent_fields: set[str]):
        self.locale = locale
        self.values_left, self.chars_left = MAX_VALUES, MAX_CHARS    # the caps, counted down
        # the ruleset's targets as ``_is_untrusted`` compares them, whatever a row's case,
        # ``_`` or ``-`` (``fold_name``)
        self.untrusted = {fold_name(target) for target in untrusted}
        self.authoritative = {fold_name(target) for target in authoritative}
        self.placeholders = placeholders | PLACEHOLDER_TEXTS
        self.numeric_placeholders = {_number_or_none(p) for p in placeholders} - {None}
        self.field_placeholders: dict[str, list[tuple[str, str | None]]] = {}
        self.minor_units: dict[str, int] = {}
        self.field_currencies: dict[str, str] = {}
        self.zones: dict[str, tuple[tuple[str, str], ...]] = {}
        # A ruleset's percent fields: those of an entity found at a `from evidence` path are
        # that path's (``$.posts[*].engagement_rate``: a "weekly" key of that name is not one),
        # the others are named (``post.engagement_rate`` or ``engagement_rate``).
        self.percent_fields = {f for f in percent_fields if not f.startswith("$")}
        self.percent_paths = frozenset(_ANY_INDEX.sub("[*]", f) for f in percent_fields
                                       if f.startswith("$"))
        self.percent_names = frozenset(f.rsplit(".", 1)[-1] for f in self.percent_paths)
        self.figures: list[Figure] = []
        self.counts: set[tuple[int, str]] = set()
        self.days: set[dt.date] = set()
        self.stated_days: set[dt.date] = set()
        self.deductions: set[Decimal] = set()
        self.instalments: set[Decimal] = set()
        self.discount_percents: set[Decimal] = set()
        self.paid_share_paths: set[str] = set()
        self.months: set[str] = set()
        # the months written as ISO does ("2026-11") in a trusted string, and their other
        # written forms ("11/2026"): names whose digits back them as written (``_month``)
        self.stored_months: set[str] = set()
        self.month_forms: set[str] = set()
        # amounts held in a minor unit their field names, and how they are written in it
        # (``_in_minor_unit``)
        self.minor_amounts: set[tuple[Decimal, str, str]] = set()
        self.minor_forms: set[str] = set()
        self.minor_shown: set[str] = set()
        self.multiples: set[Decimal] = set()
        self.quotes: list[tuple[str, str | None]] = []
        self.quote_sources: list[str] = []          # each string of ``quotes`` as written
        self.handles: set[str] = set()
        self.emails: set[str] = set()
        self.urls: set[str] = set()
        self.relative: set[str] = set()
        self.names: set[str] = set()
        self.postcodes: set[str] = set()            # of ``names``, those of postcode fields
        self.pairs: set[str] = set()
        # numbers written as no quantity (``_no_quantities``): positions ("3.", "Step 2"), codes
        # and phone numbers, and what each digit run is inside of, for a finding's message
        self.positions: set[Decimal] = set()
        self.position_words: set[tuple[str, Decimal]] = set()
        self.codes: set[str] = set()
        self.phones: set[str] = set()
        self.query_dropped = _FieldTargets(())
        self.identifiers: frozenset[str] = frozenset()     # folded, ``_code_digits``
        # The header's zone, read as a date field's (a UTC midnight or a naive time is the
        # day as written), for an instant no declared field's zone reads (``text``).
        self.header_zones: tuple[tuple[str, None], ...] = ()
        self.no_money = _FieldTargets(())
        self.ratio_fields = _FieldTargets(())    # declared ``decimal ratio``: 0.0484 is 4.84 %
        self.queryless: set[str] = set()
        self.withheld_phones: dict[str, Withheld] = {}
        self.no_quantities: dict[str, str] = {}
        self.stated_counts: set[tuple[str, Decimal]] = set()
        self.stated_units: set[tuple[Decimal, str]] = set()
        self.range_ends: set[tuple[Decimal, str]] = set()
        self.durations: set[int] = set()
        self.pressures: set[tuple[Decimal, Decimal]] = set()
        self.untrusted_values: set[Decimal] = set()
        self.placeholder_values: set[Decimal] = set()
        self.has_today = False
        self.today: dt.date | None = None
        self._today_rank: tuple[int, int] = (0, 0)   # (depth, name) of the field ``today`` is
        self.clock: set[tuple[dt.date | None, int, int]] = set()
        self.utc_clock: set[tuple[dt.date | None, int, int]] = set()
        self.offset_clock: set[tuple[dt.date, int, int, dt.timedelta]] = set()
        self.zoned_clock: set[tuple[int, int, str]] = set()
        self.lengths: set[tuple[int, int]] = set()
        self.rows: Mapping[int, RowRule] = {}
        self.withheld: dict[Decimal, Withheld] = {}
        self.withheld_days: dict[dt.date, Withheld] = {}
        self.withholding: Withheld | None = None   # set while walking a stale field
        self.changes: set[tuple[Decimal, bool]] = set()
        self.flags: list = []       # rule 14's booleans (``_flag``)
        # While walking an object: the fields beside which a sibling says "percentage"
        # ({"value": "15.0", "value_type": "percentage"}), whose numbers are points.
        self.percent_siblings: frozenset[str] = frozenset()
        # the unit of the row being walked ({"value": 112, "unit": "mg/dL"}): its range's
        # numbers are in it too ("reference_range": "70-99", ``_range_name``)
        self.row_unit: str | None = None
        # While walking an object: the currencies it declares (of every amount beside them,
        # and of single fields), and the objects around it, outermost first.
        self.declared: _Declared = _NO_CURRENCY
        self.objects: list[Mapping] = []
        self.declared_of: dict[int, _Declared] = {}
        self.scope_of: dict[int, str | None] = {}
        # While walking: the indices in ``keys`` of the containers of ``_AUTHORED_LISTS`` whose
        # items name no author, which are the merchant's (``third_party``).
        self.own: frozenset[int] = frozenset()

    # --- judging a place ----------------------------------------------------------------------

    def _is_untrusted(self, path: str, keys: tuple[str, ...], text_leaf: bool,
                      item: bool = False, value: Any = None) -> bool:
        """Rules first (``authoritative`` wins over ``untrusted``); then, for text only, the
        default names (``third_party``, with the merchant's containers of ``own``), and in an
        item of a third party (``item``: ``_review_item``) every text the platform did not
        write; not the platform's summary of its reviews in a field named for them
        (``value``: ``_REVIEWS_SUMMARY``)."""
        if not self.authoritative and not self.untrusted:      # no rules: the names decide
            return text_leaf and bool(keys) and (third_party(keys, self.own) or item
                                                 and self._item_text(keys)) \
                and not self._reviews_summary(keys, value, item)
        generic = re.sub(r"\[\d+\]", "[*]", path)
        dotted = ".".join(keys[-2:]) if len(keys) >= 2 else ""
        singular = f"{keys[-2].rstrip('s')}.{keys[-1]}" if len(keys) >= 2 else ""
        marks = {fold_name(mark) for mark in (path, generic, dotted, singular,
                                              keys[-1] if keys else "")}
        if marks & self.authoritative:
            return False
        if marks & self.untrusted:
            return True
        return text_leaf and bool(keys) and (third_party(keys, self.own) or item
                                             and self._item_text(keys)) \
            and not self._reviews_summary(keys, value, item)

    def _reviews_summary(self, keys: tuple[str, ...], value: Any, item: bool) -> bool:
        """Whether ``value`` is the platform's figure for its reviews, a rating and their
        count ("4.6 (2,300+ reviews)", "4,4 (850+ Bewertungen)", "4.7/5 · 1,200 ratings"), in a
        field of its own named for a summary of reviews (``reviews_summary``, ``bewertung``;
        ``_SUMMARY_NAMES``), not in a review: no reviewer writes that, and the number is the
        platform's. A ``review``, ``comment`` or ``body`` field stays its author's."""
        return isinstance(value, str) and len(value) <= 60 and not item \
            and not _SUMMARY_NAMES.isdisjoint((*key_words(keys[-1]), keys[-1].casefold())) \
            and _REVIEWS_SUMMARY.fullmatch(value.strip()) is not None \
            and not third_party(keys[:-1] + ("",), self.own)

    def _item_text(self, keys: tuple[str, ...]) -> bool:
        """Whether the text at ``keys``, a field of an item of a third party (``_review_item``),
        is the author's: a name the platform did not write, in no container of the merchant's."""
        return _PLATFORM_WORDS.isdisjoint(key_words(keys[-1])) and not self.own

    def _in_item(self, keys: tuple[str, ...], item: bool) -> bool:
        """Whether the field at ``keys`` is one of a third party's item (a review in
        "reviews", a comment, an item holding a review's text: ``item``), on no way the
        platform wrote ("author.name", "stats"): what the field's own name says aside."""
        if item and not self.own:
            return True
        return third_party(keys[:-1] + ("",), self.own)

    def _third_party_figure(self, path: str, keys: tuple[str, ...], item: bool) -> bool:
        """Whether a number at ``keys`` is a third party's: what the rules mark untrusted
        (``_is_untrusted``), and a field of a third party's item that no word of the platform
        names (``_PLATFORM_WORDS``: its "rating", "helpful_votes" and ids stay the platform's;
        a review's "price_paid" or "hours_used" is what its author says)."""
        if self._is_untrusted(path, keys, False, item):
            return True
        return bool(keys) and _PLATFORM_WORDS.isdisjoint(key_words(keys[-1])) \
            and _RATING_NAMES.isdisjoint(key_words(keys[-1])) and self._in_item(keys, item)

    def _is_percent_field(self, keys: tuple[str, ...], path: str) -> bool:
        return self._percent_reading(keys, path) in ("points", "ratio", "declared ratio")

    def _percent_reading(self, keys: tuple[str, ...], path: str) -> str | None:
        """``_ratio_reading`` of the number at ``keys``: "points" for a field the ruleset or a
        sibling declares a percentage (``_points_field``); the name of a field that says only
        a period is read in its parent's ({"bounce_rate": {"this_week": 0.412}} is a ratio),
        and a polarity in a sentiment's ({"sentiment": {"positive": 0.62}})."""
        if not keys:
            return None
        if self._points_field(keys, path):
            return "points"
        if self.ratio_fields and self.ratio_fields.holds(keys, path):
            return "declared ratio"
        reading = _ratio_reading(keys[-1])
        if reading is None and len(keys) >= 2:
            if _period_only(keys[-1]):
                reading = _ratio_reading(keys[-2])
            elif key_words(keys[-1])[-1:] and key_words(keys[-1])[-1] in _POLARITY_WORDS \
                    and "sentiment" in key_words(keys[-2]):
                reading = "unit"
        return reading

    # --- walking --------------------------------------------------------------------------------

    def walk(self, node: Any, path: str, keys: tuple[str, ...], trusted: bool,
             siblings: Mapping | None = None) -> None:
        if isinstance(node, Mapping):
            self.values_left -= len(node)
            if self.values_left < 0:
                self._over("values", MAX_VALUES, "MAX_VALUES", path)
            outer = self.declared
            self.declared = self._declared(node)
            self.objects.append(node)
            try:
                self._object(node, path, keys, trusted)
            finally:
                self.objects.pop()
                self.declared = outer
            return
        if isinstance(node, (list, tuple)):
            self.values_left -= len(node)
            if self.values_left < 0:
                self._over("values", MAX_VALUES, "MAX_VALUES", path)
            for counted in list_nouns(keys[-1]) if keys else ("",):
                self.counts.add((len(node), counted))
            if len(keys) >= 2 and keys[-1].casefold() in _WRAPPER_NAMES \
                    and _plural(keys[-2]):
                # {"lineItems": {"edges": [...]}}: a GraphQL connection counts what its
                # field names (a plural name: the "items" of an "order" are no orders)
                for counted in list_nouns(keys[-2]):
                    self.counts.add((len(node), counted))
            for index, child in enumerate(node):
                if isinstance(child, (dt.date, dt.time)):
                    child = child.isoformat()   # as in JSON
                if isinstance(child, str):
                    self.text(child, f"{path}[{index}]", trusted, keys=keys)
                else:
                    self.walk(child, f"{path}[{index}]", keys, trusted, siblings)
            return
        if isinstance(node, bool) or node is None:
            return
        if isinstance(node, (int, float, Decimal)):
            if not _finite(node):
                shown = repr(node) if len(repr(node)) <= 40 else f"a {len(str(node))}-digit number"
                raise EvidenceError(f"the evidence holds {shown} at {path}: a number must be "
                                    "finite and under 10^308, as JSON numbers are; send it as "
                                    "a string or null")
            self.number(node, path, keys, trusted, siblings or {})

    def _object(self, node: Mapping, path: str, keys: tuple[str, ...], trusted: bool) -> None:
        author = next((str(node[a]) for a in _AUTHOR_NAMES if isinstance(node.get(a), str)), None)
        rule = self.rows.get(id(node)) if self.rows else None
        outer, self.percent_siblings = self.percent_siblings, _percent_siblings(node)
        outer_unit, self.row_unit = self.row_unit, _row_unit(node)
        try:
            self._fields(node, path, keys, trusted, author, rule)
        finally:
            self.percent_siblings = outer
            self.row_unit = outer_unit
        if trusted and self.withholding is None and len(node) >= 2:
            self._paired_instants(node, rule)

    def _paired_instants(self, node: Mapping, rule: RowRule | None) -> None:
        """A day and a clock time an object keeps in two fields of one name, the one with
        "date" where the other has "time" (Ticketmaster's ``localDate`` and ``localTime``,
        ``start_date`` and ``start_time``): one local instant, so "16.01.2027 um 19:30"
        passes beside the same event's instant in UTC (18:30Z), which holds another time on
        that day."""
        for key, child in node.items():
            if not (isinstance(child, str) and len(child) == 10 and isinstance(key, str)):
                continue
            pair = next((key.replace(a, b) for a, b in _DATE_TIME_WORDS if a in key), None)
            other = node.get(pair) if pair is not None else None
            if not isinstance(other, str) or (rule is not None and (
                    key in rule.withheld or pair in rule.withheld)):
                continue
            day, clock = _PAIRED_DAY.fullmatch(child), _PAIRED_CLOCK.fullmatch(other.strip())
            if day is None or clock is None:
                continue
            try:
                date = dt.date(int(day[1]), int(day[2]), int(day[3]))
            except ValueError:
                continue
            self.clock.add((date, int(clock[1]), int(clock[2])))

    def _fields(self, node: Mapping, path: str, keys: tuple[str, ...], trusted: bool,
                author: str | None, rule: RowRule | None) -> None:
        # an item in a list (or an object of one: Reddit's children[].data) that holds a
        # review's, a comment's or a post's text
        item = "[" in path and _review_item(tuple(node))
        outer_trusted = trusted
        for key, child in node.items():
            key = str(key)
            child_path = f"{path}.{key}"
            if isinstance(child, (dt.date, dt.time)):
                # a row as psycopg or PyMySQL return it: read as its ISO text, as in JSON
                child = child.isoformat()
            # {"untrusted": ...}, as the evidence block labels a third party's value
            # (``rulekit.prompt.UNTRUSTED_KEY``): marked so, it is one wherever it stands
            trusted = outer_trusted and key.casefold() != "untrusted"
            why = rule.withheld.get(key) if rule is not None else None
            if isinstance(child, bool):     # a flag (rule 14): no figure, only its words
                self._flag(key, child, why or self.withholding, keys + (key,),
                           trusted and not self._is_untrusted(child_path, keys + (key,), False,
                                                              item))
                continue
            if why is not None:
                self._withhold(child, child_path, keys + (key,), trusted, node, why)
                continue
            child_keys = keys + (key,)
            if key.casefold() in _TODAY_NAMES and child is not None:
                self.has_today = True
                # the shallowest wins, and at one depth "today"/"now" before "as_of"...: a
                # section's own as_of (a batch's data stamp) is no day of the chat
                rank = (path.count(".") + path.count("["), key.casefold() not in _NOW_NAMES)
                if self.today is None or rank < self._today_rank:
                    day = _today(child)
                    if day is not None or self.today is None:
                        self.today, self._today_rank = day, rank
            if isinstance(child, str):
                child_trusted = trusted and not self._is_untrusted(child_path, child_keys, True,
                                                                   item, child)
                if (key.endswith("_decimal") and _STRIPE_AMOUNT_NAME.match(key)
                        and self._in_stripe_object() or _minor_word(key)) \
                        and _number_or_none(child) is not None:
                    # "unit_amount_decimal": "2500", "price_pence": "1299" are amounts in
                    # minor units, not text
                    self.walk(_number_or_none(child), child_path, child_keys, child_trusted,
                              node)
                else:
                    # a third party's item names its author as the author chose: the name
                    # backs the attribution (a quote's author, its handle), not what it holds
                    named = child_trusted and _author_key(key) and self._in_item(child_keys, item)
                    self.text(child, child_path, child_trusted, author=author, keys=child_keys,
                              name_only=named)
                continue
            if isinstance(child, (int, float, Decimal)):
                self.walk(child, child_path, child_keys,
                          trusted and not self._third_party_figure(child_path, child_keys, item),
                          node)
                continue
            own = not isinstance(child, (int, float)) and _authored_list(key) \
                and isinstance(child, (Mapping, list, tuple)) and not _authored(child)
            if own:
                # "promo_messages", an FAQ's questions: the merchant's (``third_party``); a
                # builder that raises is thrown away, so no ``finally`` restores it
                outer, self.own = self.own, self.own | {len(keys)}
            text_leaf = isinstance(child, (list, tuple)) and all(isinstance(c, str) for c in child)
            child_trusted = trusted and not self._is_untrusted(child_path, child_keys, text_leaf,
                                                               item)
            self.walk(child, child_path, child_keys, child_trusted, node)
            if own:
                self.own = outer

    def _flag(self, key: str, value: bool, why: Withheld | None, keys: tuple[str, ...],
              trusted: bool) -> None:
        """A JSON true/false whose name a text may say in words (``rulekit.sweep_flags``);
        a hidden or third-party one is none."""
        if not trusted or why is not None and why.code == "hidden_field":
            return
        from rulekit.sweep_flags import Flag, held_name, holder_words, reading

        said = reading(key)
        if said is not None:
            self.flags.append(Flag(key, said, value, why, holder_words(keys)))
            if said.single is not None and (joined := held_name(keys)) is not None \
                    and (compound := reading(joined)) is not None:
                # {"mileage": {"unlimited": false}} read as unlimited_mileage too
                self.flags.append(Flag(f"{keys[-2]}.{key}", compound, value, why,
                                       holder_words(keys)))

    def _add_day(self, day: dt.date, keys: tuple[str, ...]) -> None:
        """A day the evidence holds; a day stated by a field other than today/as_of... also
        backs a relative day ("arrives today" needs a day of the order, not the today field)."""
        self.days.add(day)
        if not (keys and keys[-1].casefold() in _TODAY_NAMES):
            self.stated_days.add(day)

    def _declared(self, node: Mapping) -> _Declared:
        """``_declared_currencies`` of an object, read once per build."""
        found = self.declared_of.get(id(node))
        if found is None:
            found = self.declared_of[id(node)] = _declared_currencies(node)
        return found

    def _settings_currency(self, node: Mapping) -> str | None:
        """The currency an object beside the amounts declares for all of them: an object of
        ``node`` that names a currency and holds no amount of its own ("store": {"currency":
        "EUR"}) says what the money beside it is in. None when there is none, or two."""
        found = None
        for child in node.values():
            if not isinstance(child, Mapping):
                continue
            code = self._declared(child).currency
            if code is None or code == found or any(
                    isinstance(value, (int, float, Decimal)) and not isinstance(value, bool)
                    and _money_name(str(key)) for key, value in child.items()):
                continue
            if found is not None:
                return None
            found = code
        return found

    def _currency(self, keys: tuple[str, ...]) -> str | None:
        """The currency of an amount in field ``keys[-1]`` of the object being walked: the
        object's ``<field>_currency``, the field's name ("price_gbp"), the object's
        ``currency``, the ruleset's money field; else, for a field named like money (or in one:
        "price": {"amount": ...}), the currency of the objects around it."""
        if not keys:
            return None
        name, declared = keys[-1], self.declared
        found = declared.by_field.get(name) or _name_currency(name) or declared.currency \
            or self.field_currencies.get(name)
        if found is None and (_money_name(name) or len(keys) > 1 and _money_name(keys[-2])):
            return self._scope()
        return found

    def _scope(self) -> str | None:
        """The currency of the money below the object being walked: the nearest object
        around it that declares one for all its amounts, itself or by a settings object of
        its own (``_settings_currency``). Read only for an amount with no currency of its own."""
        for node in reversed(self.objects):
            found = self.scope_of.get(id(node), False)
            if found is False:
                found = self.scope_of[id(node)] = \
                    self._declared(node).currency or self._settings_currency(node)
            if found:
                return found
        return None

    def _withhold(self, node: Any, path: str, keys: tuple[str, ...], trusted: bool,
                  siblings: Mapping, why: Withheld) -> None:
        """A field whose values license nothing. A hidden one is not indexed at all, only its
        numbers remembered so that a finding can say why; a stale one is indexed for its names,
        quotes and links (a product's name does not expire), but its figures and dates are
        withheld."""
        if why.code == "hidden_field":
            for value in _numbers_in(node, self.locale):
                self.withheld.setdefault(value, why)
            named = bool(keys) and phone_field(keys[-1])
            if isinstance(node, str) and (named or "+" in node or "(" in node):
                for _, _, digits in phones_in(node, named):
                    self.withheld_phones.setdefault(digits, why)
            return
        outer, self.withholding = self.withholding, why
        try:
            if isinstance(node, str):
                self.text(node, path, trusted, keys=keys)
            else:
                self.walk(node, path, keys, trusted, siblings)
        finally:
            self.withholding = outer

    def number(self, raw: int | float | Decimal, path: str, keys: tuple[str, ...], trusted: bool,
               siblings: Mapping) -> None:
        try:
            value = Decimal(str(raw)) if not isinstance(raw, Decimal) else raw
        except InvalidOperation:
            return
        if not value.is_finite():
            return
        if keys and isinstance(raw, int) and 10**7 <= raw < 10**8:
            compact = _compact_day(str(raw), keys)
            if compact is not None:
                self._add_day(compact, keys)    # "date": 20260707
        if self._placeholder_number(value, keys, siblings):
            self.placeholder_values.add(value)
            return
        if not trusted:
            self.untrusted_values.add(value)
            return
        if self.withholding is None and type(raw) is int and self._code_digits(str(raw), keys):
            return
        if self.withholding is None and keys and keys[-1].casefold() == "month":
            year = next((siblings[key] for key in siblings if str(key).casefold() == "year"), None)
            if type(raw) is int and 1 <= raw <= 12 and type(year) is int and 1900 <= year < 2200:
                self._month(f"{year:04d}-{raw:02d}")   # {"year": 2026, "month": 11}: "2026-11"
                return
        currency = self._currency(keys)
        digits = self._minor_digits(keys[-1], currency) if keys else None
        # "1299 cents" of yen is no unit of its own: read in the currency's, it is ¥1,299
        unit = _minor_word(keys[-1]) if digits == 2 else None
        if digits and (unit or value == value.to_integral_value()
                       or keys[-1].endswith("_decimal")):
            # Money stored in minor units is shown in major ones: 129900 licenses 1299.00, and
            # never "$129,900", the stored integer read as an amount. A field named for its
            # minor unit holds it whatever its decimals (24.5 pence is £0.245), and also backs
            # the amount written in that unit ("24.5p", "99¢"), never as a major one ("£24.50").
            if unit is not None and self.withholding is None:
                self._in_minor_unit(value, unit, path)
            value = value.scaleb(-digits)
            decimals = max(digits, _decimals(value))
        else:
            decimals = _decimals(value)
        if self.withholding is not None:
            self.withheld.setdefault(value, self.withholding)
            return
        # a percentage in points ("percent_off": 15, {"type": "percentage", "value": 15}) backs
        # "15" and "15%", never "$15": it is held "in %", which no currency sign may stand for
        self.figures.append(Figure(value, path, decimals,
                                   currency=self._held_in(keys, path, currency), whole=True))
        if value > 0 and keys and _DEDUCTION_NAME.search(keys[-1]):
            self.deductions.add(value)      # "Discount: -$4.32" (``Evidence.deductions``)
        if keys and ("stolic" in keys[-1] or "bp" in keys[-1] or "STOLIC" in keys[-1]
                     or "BP" in keys[-1]) and pressure_part(keys[-1]) == "systolic":
            for key, other in siblings.items():
                if isinstance(other, (int, float, Decimal)) and not isinstance(other, bool) \
                        and pressure_part(str(key)) == "diastolic" and _finite(other):
                    # {"systolic": 128, "diastolic": 82}: one blood pressure, 128/82
                    self.pressures.add((value, Decimal(str(other))))
        if keys and _MULTIPLE_NAME.search(keys[-1]):
            self.multiples.add(value)
        if keys and 0 < value < 100 and _may_count_instalments(keys[-1]) \
                and value == value.to_integral_value() and _INSTALMENTS_NAME.search(keys[-1]):
            self.instalments.add(value)     # "installments": 3 backs "3x sem juros"
        shown = None
        reading = self._percent_reading(keys, path)
        if reading == "declared ratio":
            shown = (value * 100).normalize()   # `decimal ratio`: 1.056 is 105.6 %
        elif reading in ("points", "ratio"):
            shown = value if reading == "points" or abs(value) > 1 \
                else (value * 100).normalize()  # "engagement_rate": 0.046 is 4.6 %
        elif reading == "unit" and 0 <= value <= 1:
            shown = (value * 100).normalize()   # "csat": 0.91 is 91 %
        elif reading == "unit" and 10 < value <= 100 and _in_points(keys, value):
            shown = value                       # "csat": 91, "uptime": 99.95 are 91 %, 99.95 %
        elif reading == "growth" and 0 < abs(value) < 1:
            shown = (value * 100).normalize()   # "follower_growth": 0.021 is 2.1 %
        if shown is not None:
            self.figures.append(Figure(shown, path, _decimals(shown), percent=True))
            self._discount_size(shown, path, keys)
            if shown > 0 and _DEDUCTION_NAME.search(keys[-1]):
                self.discount_percents.add(shown)   # "discount_pct": 15 backs "-15 %"
            if reading == "ratio" and _PAID_SHARE_NAME.search(keys[-1]):
                self.paid_share_paths.add(path)     # "price_ratio": 0.7, 70 % paid
        scaled = _SCALE_NAME.search(keys[-1]) if keys else None
        if scaled is not None:
            scale = _NAME_SCALES[(scaled.group(1) or scaled.group(2)).lower()]
            self.figures.append(Figure((value * scale).normalize(), path, 0, currency=currency))
        trend = _trend_name(keys[-1]) if keys else None
        if trend == 0 and value > 0:
            trend = _sibling_direction(siblings)  # {"change": 12.5, "direction": "down"}
        if trend is not None or value < 0:
            # a change: "views_change": -120, "views_drop_pct": 12.5 (a fall of 12.5 %)
            sign = trend if trend and value > 0 else 1
            self.changes.add((value * sign, False))
            if shown is not None:
                self.changes.add((shown * sign, True))
            if keys and _BASIS_POINTS_NAME.search(keys[-1]):
                # "last_change_bps": -25 is a change of -0.25 points ("cut rates by 0.25
                # percentage points", "by 0.25%")
                points = (value * sign / 100).normalize()
                self.changes.update(((points, False), (points, True)))

    def _in_minor_unit(self, value: Decimal, unit: str, path: str) -> None:
        """An amount held in a minor unit its field names (``_minor_word``): written with that
        unit it is a name whose digits back it as written ("24.5p", "24,5 ct", "99¢"), as the
        digits of a month are (``_month``), and it is held "in pence", which no currency sign
        may stand for (``Evidence.other_currencies``: "£24.50" is flagged saying so)."""
        self.minor_amounts.add((abs(value), unit, path))
        shown, spellings = plain_decimal(value), _MINOR_SPELLINGS[unit]
        self.minor_shown.add(f"{shown} {unit}")     # what a finding names: "24.5 pence"
        written = {shown, str(value)} if "E" not in str(value) else {shown}   # "24.50": both
        for number in written | {number.replace(".", ",") for number in written}:
            self.minor_forms.update(spelling.format(number).casefold() for spelling in spellings)

    def _held_in(self, keys: tuple[str, ...], path: str, currency: str | None) -> str | None:
        """The currency of a number stored alone at ``path``: "%" for a percentage in points
        ("percent_off": 15 backs "15%", never "$15"), ``NO_MONEY`` for a field the ruleset types
        as a number that is no money (``no_money``: "stock": 24 never backs "$24"), else
        ``currency``."""
        if self._points_field(keys, path):
            return "%"
        if self.no_money and self.no_money.holds(keys, path):
            return NO_MONEY
        return currency

    def _points_field(self, keys: tuple[str, ...], path: str) -> bool:
        """Whether the number at ``path`` (its keys ``keys``) is a percentage in points: a
        ruleset's ``percent`` field (at its entity's rows' path when it has one), a field a
        sibling says is one ({"type": "percentage", "value": 15}), a field named like
        ``_pct``, ``_percent``, ``percent_off``."""
        if not keys:
            return False
        return keys[-1] in self.percent_fields or ".".join(keys[-2:]) in self.percent_fields \
            or bool(self.percent_paths) and keys[-1] in self.percent_names \
            and _ANY_INDEX.sub("[*]", path) in self.percent_paths \
            or keys[-1] in self.percent_siblings or _ratio_reading(keys[-1]) == "points" \
            or keys[-1] in _CANVAS_PERCENT_SCORES and (
                len(keys) > 1 and keys[-2] == "grades" or keys[-1].startswith("computed_"))

    def _discount_size(self, shown: Decimal, path: str, keys: tuple[str, ...]) -> None:
        """A discount in percent stored with its minus (Shopify's price rule: "value":
        "-15.0" beside "value_type": "percentage") also backs its size: "15% off"."""
        if shown < 0 and any(_DEDUCTION_NAME.search(key) or _PRICE_RULE.search(key)
                             for key in keys[-2:]):
            self.figures.append(Figure(-shown, path, _decimals(shown), percent=True))

    def _minor_digits(self, name: str, currency: str | None) -> int | None:
        """How many digits of a stored integer are minor units (2 for cents), or None: the
        ruleset's money fields stored in minor units, then the field's name (and the
        precision of ``currency``, the amount's)."""
        declared = self.minor_units.get(name)
        if declared is not None:
            return declared
        if _minor_word(name) or _MINOR_NAME.search(name) or _STRIPE_AMOUNT_NAME.match(name) \
                and self._in_stripe_object():
            # "price_cents", "unit_rate_p_per_kwh": a hundredth of the currency, or its own
            # minor unit where it has no hundredths (money-rails keeps ¥1,299 as
            # price_cents 1299 and KWD 12.345 as 12345)
            try:
                return get_currency_precision(currency) if currency else 2
            except Exception:               # not a currency babel knows: cents, as most are
                return 2
        return None

    def _zone_around(self) -> str | None:
        """The IANA zone named by the nearest object around the text being read that names
        one in a field called like a zone ("timezone": "Europe/London"), or None."""
        for node in reversed(self.objects):
            zone = object_zone(node)
            if zone is not None:
                return zone.key
        return None

    def _in_stripe_object(self) -> bool:
        """Whether the field being walked is inside one of Stripe's own money objects (see
        ``_STRIPE_OBJECTS``): the nearest object around it that says what it is (``"object":
        "charge"``) is of such a type, and it or an object around it is Stripe's (``livemode``,
        an id with Stripe's prefix, or a currency in lower case)."""
        kind = next((outer["object"] for outer in reversed(self.objects)
                     if isinstance(outer.get("object"), str)), None)
        return kind in _STRIPE_OBJECTS and any(map(_stripe_mark, self.objects))

    def _placeholder_number(self, value: Decimal, keys: tuple[str, ...], siblings: Mapping) -> bool:
        if value in self.numeric_placeholders:
            return True
        name = keys[-1] if keys else ""
        for text, unless in self.field_placeholders.get(name, ()):
            if _number_or_none(text) == value and (unless is None or _flag_unset(siblings,
                                                                              unless)):
                return True
        if value not in (0, -1) or not keys:
            return False
        return _untracked(name, value, siblings)

    def _over(self, what: str, cap: int, name: str, path: str) -> None:
        raise EvidenceError(f"the evidence holds more than {cap:,} {what} (at {path}), the "
                            f"cap (rulekit.evidence.{name}): send only the rows the answer "
                            "needs, or raise the cap")

    def text(self, text: str, path: str, trusted: bool, *, author: str | None = None,
             keys: tuple[str, ...] = (), name_only: bool = False) -> None:
        self.chars_left -= len(text)
        if self.chars_left < 0:
            self._over("characters of text", MAX_CHARS, "MAX_CHARS", path)
        stripped = text.strip()
        if stripped.casefold() in self.placeholders:
            return
        leaf = _read_leaf(text, self.locale)
        self.quotes.append((leaf.squashed, author))
        self.quote_sources.append(text)
        if keys and keys[-1].casefold() in _AUTHOR_NAMES and trusted and stripped:
            self.handles.add(("@" + stripped.lstrip("@")).casefold())
        if name_only:
            trusted = False     # "author": "Paid $20", "https://evil.example/deal"
        mentions = _outside_months(leaf) if leaf.written_months else leaf.mentions
        if self.withholding is not None:
            if leaf.day is not None:
                self.withheld_days.setdefault(leaf.day, self.withholding)
            for mention in mentions:
                if mention.kind in ("number", "word_number") and mention.value is not None \
                        and not (mention.glued and not leaf.plain_number):
                    self.withheld.setdefault(mention.value, self.withholding)
                elif mention.kind == "date" and mention.day is not None:
                    self.withheld_days.setdefault(mention.day, self.withholding)
                elif mention.kind in ("handle", "email", "url") or mention.glued:
                    self._mention(mention, path, keys, whole=leaf.plain_number)
            if mentions and not leaf.plain_number:
                self._no_quantities(text, mentions, keys)
            self.pairs.update(leaf.pairs)
            return
        compact = _compact_day(stripped, keys) if leaf.day is None and keys else None
        if compact is not None:
            self._add_day(compact, keys)    # "date": "20260707", as Google Analytics writes it
        zones = self.zones.get(keys[-1]) if self.zones and keys and leaf.day else None
        if zones is None and leaf.utc is not None and self.objects:
            # an instant in UTC inside an object that names its zone ("timezone":
            # "Europe/Berlin", Ticketmaster's dates.timezone) is read in that zone, as in a
            # rules file's: "2027-01-16T18:30:00Z" is 19:30 in Berlin
            zone = self._zone_around()
            if zone is not None:
                zones = ((zone, None),)
        if zones is None and leaf.utc is not None and self.header_zones:
            zones = self.header_zones   # "2026-03-26T03:59:59Z" is 25 March in New York
        if zones is not None:
            self._in_zones(stripped, zones, keys)
            if leaf.offset and leaf.clock:
                # a row that writes its own offset other than UTC's ("14:35-08:00", Los Angeles)
                # holds a local time: read as written too, as a time said "local time" is
                self._add_day(leaf.day, keys)
                self.clock.update(leaf.clock)
                self.offset_clock.add((*leaf.clock[0], leaf.offset))
        elif leaf.day is not None:
            # the day as written, in its own offset: 2026-07-05T22:00:00-06:00 is 5 July to its
            # reader; its day in UTC backs only a day the answer gives with a zoned time
            self._add_day(leaf.day, keys)
            self.clock.update(leaf.clock)
            if leaf.utc is not None:
                self.utc_clock.add(leaf.utc)
                self.offset_clock.add((*leaf.clock[0], leaf.offset))
        elif leaf.month:
            self.months.add(stripped)
        if not trusted:
            for mention in mentions:
                if mention.value is not None:
                    self.untrusted_values.add(mention.value)
            return
        for _, _, month in leaf.written_months:
            self._month(month)
        self.pairs.update(leaf.pairs)
        if keys and not leaf.plain_number and NAME_FIELDS.search(keys[-1]):
            self._name(text, mentions, path, keys)
            return
        if keys and postcode_name(keys[-1]):
            self._name(text, mentions, path, keys)  # "94105-1234", "10115": a code, no figures
            self.postcodes.add(" ".join(text.split()).casefold())
            return
        if keys and not leaf.plain_number and street_field(keys):
            self._name(text, mentions, path, keys)  # "Invalidenstraße 12": a house number
            return
        if leaf.plain_number and self._code_digits(stripped, keys):
            return
        if keys and stripped[:1].isdigit() and self._grouped_code(stripped, keys):
            return      # "8841 2290 17" under account_number: one code, no figures
        skip = self._no_quantities(text, mentions, keys) \
            if mentions and not leaf.plain_number else ()
        timed = self._durations(text, mentions) \
            if mentions and may_say_durations(text, text.lower()) else ()
        if mentions and ("/" in text or " over " in text):
            self._pressures(text, mentions, keys)   # "128/82 mmHg", "bp": "128/82"
        for at, mention in enumerate(mentions):
            if zones is not None and mention.kind == "date":
                continue        # the stored value, read in its field's zone above
            if at in timed:
                continue        # "11h 10m": a part of one duration (``durations``)
            if at in skip and not mention.glued:
                continue        # "3." of a list, "Step 2", a code's tail, a phone number
            compound = number_word_compound(text, mention)
            if compound:
                self.names.update(compound)     # "three-putts" names a thing, not 3 of them
                continue
            if mention.glued and not leaf.plain_number and mention.value is not None and (
                    unit := glued_unit(text, mention.start, mention.token)) is not None:
                # "time out after 30s", "500ms", "10MB": a number in its unit, not a name
                self.figures.append(Figure(mention.value, path, mention.decimals))
                self.stated_units.add((abs(mention.value), unit))
                continue
            self._mention(mention, path, keys, whole=leaf.plain_number)
            if self.row_unit is not None and mention.kind == "number" \
                    and mention.value is not None and not mention.percent \
                    and _range_name(keys[-1]):
                # "reference_range": "70-99" beside "unit": "mg/dL" holds 70 and 99 in it
                self.stated_units.add((abs(mention.value), self.row_unit))
            if mention.kind in ("number", "word_number") and mention.value is not None \
                    and not mention.glued:
                if mention.sign is None and mention.value > 0:
                    # "revenue rose 12%" in a text: a change of +12 %, as a field named so
                    word = change_word_before(text, mention.start)
                    if word in FALL_BEFORE or word in RISE_BEFORE:
                        sign = -1 if word in FALL_BEFORE else 1
                        self.changes.add((mention.value * sign, mention.percent))
                after = WORD_AFTER.match(text, mention.end)    # "last 30 days, 10 posts"
                if after is not None:
                    self.stated_counts.add((noun(after[1]), mention.value))
                if after is not None or text.startswith((" ", "\u00a0"), mention.end):
                    # (no word: "172 m²", "172 m2", a unit that ends in a square or a digit)
                    unit = unit_after(text, mention.end, self.locale[:2])
                    if unit is None and after is not None and after[1] == "in" \
                            and _INCHES.fullmatch(text) \
                            and _SIZE_KEY.search(keys[-1] if keys else ""):
                        unit = "inch"           # a pizza's size: "12 in"
                    if unit is not None:        # "limited to 10 MB", "every 5 minutes"
                        self.stated_units.add((abs(mention.value), unit))
                        continue
                if mention.range_with is not None and mention.range_with > at:
                    # the first end of a range: "6-8 weeks", "6 à 8 semaines" hold both ends
                    # in the unit written after the second (as the answer's ``_other_unit``)
                    unit = unit_after(text, mentions[mention.range_with].end, self.locale[:2])
                    if unit is not None:
                        self.stated_units.add((abs(mention.value), unit))
                    elif len(mentions) == 2 and not text[:mention.start].strip() \
                            and not text[mentions[1].end:].strip() \
                            and mentions[1].value is not None and mentions[1].kind == "number" \
                            and mention.kind == "number" \
                            and not (mention.percent or mention.currency or mentions[1].percent
                                     or mentions[1].currency):
                        # the field's text is the range alone: "6-8" in ``processing_weeks``
                        self.range_ends.update(((abs(mention.value), path),
                                                (abs(mentions[1].value), path)))

    def _no_quantities(self, text: str, mentions: Sequence[Mention],
                       keys: tuple[str, ...]) -> frozenset[int]:
        """The indices of the number mentions of a trusted string that are no quantities, each
        recorded as what it is: a place in a list ("3." opening a line, "Step 2", "Option 4":
        ``positions``, which back the same place only), a key of a shortcut ("Ctrl+Alt+3": a
        name), a code (CE-108255-1, 23H2: ``codes``; the tail "1" is no figure), a phone number
        ("+44 20 7946 0958": ``phones``; its groups are no figures). Rule 4: they license
        that use, never a quantity. Each test is a character beside the digits first."""
        skip = set()
        named = bool(keys) and phone_field(keys[-1])
        if named or "+" in text or "(" in text:
            for start, end, digits in phones_in(text, named):
                self.phones.add(digits)
                shown = " ".join(text[start:end].split())
                for at, mention in enumerate(mentions):
                    if start <= mention.start and mention.end <= end:
                        skip.add(at)
                        if not mention.glued:       # (a glued token is a name as well)
                            self._not_quantity(mention, f"the phone number '{shown}'")
        if _STREET_CUE.search(text) is not None:
            self._house_numbers(text, mentions, skip)
        run_span = (0, 0)
        for at, mention in enumerate(mentions):
            if mention.kind != "number" or mention.value is None or (
                    at in skip and not mention.glued):
                continue
            start, end = mention.start, mention.end
            before = text[start - 1:start]
            if mention.glued or (before in "-_" and start >= 2 and text[start - 2].isascii()
                                 and text[start - 2].isalnum()):
                run_span = code_run(text, start, end, run_span)
                left, right = code_near(run_span, start, end)
                run = text[left:right]
                if code_like(run, glued_digits=mention.glued):
                    self.codes.add(run.casefold())
                    if run.count("-") >= 2 and run.replace("-", "").isdigit() \
                            and 9 <= len(run.replace("-", "")) <= 15:
                        self.phones.add(phone_digits(run))     # 1-800-555-0199
                    if not mention.glued:
                        skip.add(at)                            # the "1" of CE-108255-1
                        self._not_quantity(mention, f"the code '{run}'")
                continue
            if text[end:end + 1] == "(" and _BRACKETED_LETTER.match(text, end) \
                    and not mention.currency and not before.isalnum():
                self.names.add(text[start:end + 3].casefold())     # a plan's "401(k)", "403(b)"
                skip.add(at)
                continue
            if (before in (" ", "\u00a0", "#", "\u00b0", "\u00ba") or text[end:end + 1] == "-") \
                    and not (mention.currency or mention.percent or mention.sign) \
                    and (span := spaced_code(text, start, end)) is not None \
                    and unit_after(text, end, self.locale[:2]) is None \
                    and text[span[0]:span[1]].rstrip("0123456789").rsplit("-", 1)[-1].lower() \
                    not in UNIT_OF:     # (not "2-3KG", a range in its unit)
                # "BA 283", "Terminal 5", "777-300ER": a code as the glued "BA283" is
                code = text[span[0]:span[1]]
                self.names.update(glued_forms(code))
                skip.add(at)
                for tail in range(at + 1, len(mentions)):   # the "03" of "Cerfa n°12100*03"
                    if mentions[tail].start >= span[1]:
                        break
                    skip.add(tail)
                continue
            keys_of = shortcut(text, start, end) if not mention.currency else None
            if keys_of is not None:
                self.names.add(keys_of[1])      # "ctrl+alt+3": a name
                skip.add(at)
                continue
            if mention.percent or mention.currency or mention.scaled or mention.sign:
                continue
            word = _POSITION_BEFORE.search(text, max(0, start - 12), start) \
                if before in (" ", "\u00a0") and start >= 2 \
                and text[start - 2].lower() in _POSITION_LAST \
                else None
            if word is not None or list_marker(text, start, end):
                shown = f"{word[1]} {mention.text}" if word else text[start:end + 1]
                self.positions.add(mention.value)
                if word is not None:
                    self.position_words.add((word[1].casefold(), mention.value))
                skip.add(at)
                self._not_quantity(mention, f"the position '{shown}'")
        return frozenset(skip)

    def _house_numbers(self, text: str, mentions: Sequence[Mention], skip: set[int]) -> None:
        """The house numbers of a text's addresses (``_STREET_BEFORE``, ``_STREET_AFTER``:
        "Invalidenstr. 12", "12 rue de Rivoli", "221 Baker Street"): each address is a name,
        and its number no figure (rule 4: "12 €" for a fee of 12.48 is no rounding the
        address backs)."""
        for at, mention in enumerate(mentions):
            if mention.kind != "number" or mention.currency is not None or mention.percent \
                    or not mention.text.isdigit() or len(mention.text) > 5:
                continue
            start, end = mention.start, mention.end
            after = _STREET_AFTER.match(text, end)
            if after is not None:
                begin, stop = start, after.end()
            elif (before := _STREET_BEFORE.search(text, max(0, start - 48), start)) is not None \
                    and text[end:end + 1] not in ("%", "\u00a0%"):
                begin, stop = before.start(), end
                while begin and text[begin - 1].isalpha():
                    begin -= 1      # the whole word: "Invalidenstr. 12", not "str. 12"
            else:
                continue
            skip.add(at)
            address = " ".join(text[begin:stop].split()).strip(" ,")
            self.names.add(address.casefold())
            self._not_quantity(mention, f"the house number of '{address}'")

    def _pressures(self, text: str, mentions: Sequence[Mention], keys: tuple[str, ...]
                   ) -> None:
        """The blood pressures a text writes ("128/82 mmHg", or "128/82" in a field named for
        one: ``units.pressure_pairs``), kept whole in ``pressures``; each part is held in mmHg
        (``stated_units``: "82 bpm" is no part of it), and remains a figure ("your diastolic
        was 82")."""
        named = bool(keys) and not _PRESSURE_NAME_WORDS.isdisjoint(key_words(keys[-1]))
        if not named and not may_write_pressure(text):
            return
        for _, _, systolic, diastolic, _ in pressure_pairs(text, mentions, named):
            self.pressures.add((systolic, diastolic))
            self.stated_units.update(((systolic, PRESSURE_UNIT), (diastolic, PRESSURE_UNIT)))

    def _durations(self, text: str, mentions: Sequence[Mention]) -> frozenset[int]:
        """The indices of the mentions that are parts of a duration of hours and minutes
        ("11h 10m", "PT11H10M": ``compound_durations``), whose minutes are kept whole in
        ``durations``: the parts are no figures, and "10m" is no name."""
        parts: set[int] = set()
        for _, _, minutes, indices in compound_durations(text, mentions):
            self.durations.add(minutes)
            parts |= indices
        return frozenset(parts)

    def _code_digits(self, stored: str, keys: tuple[str, ...]) -> bool:
        """Whether ``stored``, a run of three digits or more, is a code by its field: one the
        ruleset declares ``identifier``, or named for a masked account or card number
        (``mask``, ``last4``, ``last_four``: Plaid's ``"mask": "4821"``), or for the number of
        a place or a document (``room_number``, ``seat``, ``order_number``). Its digits are then a
        name the answer may write as it stands ("ending in 4821"), never a quantity: not
        "$4,821" nor "4,821 points" (rule 4)."""
        if not keys or len(stored) < 3 or not stored.isascii() or not stored.isdigit():
            return False
        name = fold_name(keys[-1])
        postcode = postcode_name(keys[-1])
        if name not in self.identifiers and not _MASK_NAME.search(name) and not postcode \
                and not _PLACE_CODE_NAME.search(keys[-1].casefold()):
            return False
        self.names.add(stored)
        if postcode:
            self.postcodes.add(stored)
        return True

    def _grouped_code(self, stored: str, keys: tuple[str, ...]) -> bool:
        """Whether ``stored`` is a code of digits written in groups ("8841 2290 17", "12 0006
        0008 123") in a field named for one (``_CODE_KEY``) or declared ``identifier``: one
        code, whose groups are no figures. Its digits are held as a phone number's are, so the
        same digits in other groups name it ("12 0006 0008 123" for "1200060008123"), and
        written together they are its name ("8841229017"). Digits alone (6 or more) under such
        a name are held so too, and keep their figure."""
        if not (_code_key(keys[-1]) or fold_name(keys[-1]) in self.identifiers) \
                or phone_field(keys[-1]) or not 6 <= len(digits := "".join(stored.split())) <= 24 or not digits.isdigit():
            return False
        self.phones.add(digits)     # grouped any way in an answer (``sweep._whole_values``)
        if digits == stored:
            return False
        self.names.update((" ".join(stored.split()).casefold(), digits))
        return True

    def _not_quantity(self, mention: Mention, what: str) -> None:
        if mention.value is not None and mention.value == mention.value.to_integral_value():
            self.no_quantities.setdefault(str(int(mention.value)), what)

    def _in_zones(self, stored: str, zones: tuple[tuple[str, str | None], ...],
                  keys: tuple[str, ...]) -> None:
        """A stored date or timestamp in a field a ruleset declares with a zone (``zone
        "Europe/Berlin"``, ``naive "UTC"``), as the claims channel reads it: an instant's day
        and clock time are those in the field's zone (2026-07-29T23:40:00Z is 01:40 on 30 July
        in Berlin), not the ones it is written with; a date stays its day."""
        for zone, naive in zones:
            day = dates.stored_day(stored, zone, naive)
            if day is None:
                continue
            self._add_day(day, keys)
            instant = dates.stored_instant(stored, naive) if ":" in stored else None
            if instant is None:
                continue
            local, utc = instant.astimezone(dates.zone(zone)), instant.astimezone(dt.timezone.utc)
            self.clock.add((local.date(), local.hour, local.minute))
            self.utc_clock.add((utc.date(), utc.hour, utc.minute))
            self.offset_clock.add((local.date(), local.hour, local.minute, local.utcoffset()))

    def _month(self, month: str) -> None:
        """A month the evidence writes as ISO does ("2026-11"), or stores as a ``month`` beside a
        ``year`` ({"year": 2026, "month": 11}): its digits are no figures. They back the month
        as written, and with a slash ("11/2026", "2026/11"), like the digits of a name
        (``Evidence.names``), and its year said as a year ("in 2026", ``said_as_year``); the
        month in words ("November 2026", "2026年11月", "month 11") is backed by ``months``.
        Never "11 times", "$11" or "2,026 views"."""
        self.months.add(month)
        year, number = month[:4], int(month[5:])
        self.month_forms.update((f"{number:02d}/{year}", f"{number}/{year}",
                                 f"{year}/{number:02d}"))
        self.stored_months.add(month)

    def _name(self, text: str, mentions: Sequence[Mention], path: str,
              keys: tuple[str, ...]) -> None:
        """A name field ("Model 3 charger", "iPhone 15 case"): its numbers are part of the
        name. The name is kept whole, so that a finding can name it, and each number with the
        word after it ("3 charger"; the word before is in ``leaf.pairs``): an answer that
        writes the name with its digits is licensed, the digits alone are not. Its links,
        handles, dates and codes count as anywhere else."""
        named = False
        self._no_quantities(text, mentions, keys)   # its codes ("BT-3-2") are codes too
        for mention in mentions:
            if mention.kind in ("number", "word_number") and not mention.glued:
                named = True
            else:
                self._mention(mention, path, keys, whole=False)
        if named:
            self.names.add(" ".join(text.split()).casefold())
            self.pairs.update(m.group(0).casefold() for m in _NUMBER_WORD_PAIR.finditer(text))

    def _mention(self, mention: Mention, path: str, keys: tuple[str, ...], whole: bool) -> None:
        kind = mention.kind
        if kind in ("number", "word_number"):
            if mention.glued and not whole:
                self.names.update(glued_forms(mention.token))   # "BA283" is "BA 283" too
                return
            value = mention.value
            if value is None:
                return
            percent = mention.percent or self._is_percent_field(keys, path)
            # a number written alone ("59.90") is an amount in the currency around it, or a
            # percentage in points ("value": "-15.0" beside "value_type": "percentage")
            currency = mention.currency or (self._held_in(keys, path, self._currency(keys))
                                            if whole else None)
            self.figures.append(Figure(value, path, mention.decimals, percent=percent,
                                       currency=currency, whole=whole))
            if percent and not mention.percent:
                self._discount_size(value, path, keys)
            if not mention.percent:
                self.figures.append(Figure(value, path, mention.decimals, currency=currency,
                                           whole=whole))
                if value > 0 and keys and _DEDUCTION_NAME.search(keys[-1]):
                    self.deductions.add(value)
            trend = _trend_name(keys[-1]) if keys else None
            if mention.sign is not None or trend is not None or value < 0:
                # "+12.5%", "-3" written with their sign, or in a field named like a change
                sign = trend if trend and value > 0 else 1
                self.changes.add((value * sign, mention.percent))
                if percent and not mention.percent:
                    self.changes.add((value * sign, True))
        elif kind == "multiple" and mention.value is not None:
            self.multiples.add(mention.value)
        elif kind == "date" and (mention.day is not None or mention.time is not None):
            if mention.day is not None:
                self._add_day(mention.day, keys)
            if mention.time is not None and mention.day is None and keys \
                    and not _LENGTH_WORDS.isdisjoint(key_words(keys[-1])):
                # "duration": "18:05" is a length, no time of day
                self.lengths.add((mention.time.hour, mention.time.minute))
            elif mention.time is not None:
                self.clock.add((mention.day, mention.time.hour, mention.time.minute))
                zone = self._zone_around() if mention.day is None else None
                if zone is not None:      # "hours": "09:00-18:00" beside "timezone"
                    self.zoned_clock.add((mention.time.hour, mention.time.minute, zone))
                # "21:00 UTC", "9 pm PST on 3 December" in the evidence's text: a zone that
                # fixes the instant (not "9 pm ET" with no date, nor "9 pm IST")
                utc = dates.utc_clock_of(mention.day, mention.time) \
                    if mention.time.tzinfo is not None else None
                if utc is not None:
                    self.utc_clock.add(utc)
        elif kind == "date" and mention.normalized and _MONTH.fullmatch(mention.normalized):
            self.months.add(mention.normalized)     # "June 2026", "2026年6月": a month
        elif kind == "handle" and mention.normalized:
            self.handles.add(mention.normalized)
        elif kind == "email" and mention.normalized:
            self.emails.add(mention.normalized)
        elif kind == "url":
            link = mention.text
            if link.startswith("/"):
                self.relative.add(_relative(link))
            else:
                self.urls.add(_url(link))
                if self.query_dropped and self.query_dropped.holds(keys, path):
                    self.queryless.add(queryless_url(link))

    def done(self, raw: Any) -> Evidence:
        # A percentage licenses a percentage only: 4.6 % (0.046 in ``engagement_rate``) is never
        # "4.6 stars". A field that holds points ("engagement_pct": 4.6) has its plain figure too.
        values = {f.value for f in self.figures if not f.percent}
        values |= {abs(value) for value in values}
        percents = {f.value for f in self.figures if f.percent}
        paid = self.paid_share_paths
        paid_shares = {f.value for f in self.figures if f.percent and f.path in paid} - {
            f.value for f in self.figures if f.percent and f.path not in paid} if paid else ()
        return Evidence(
            figures=tuple(self.figures), values=frozenset(values), percents=frozenset(percents),
            counts=frozenset(self.counts),
            largest_count=max((length for length, _ in self.counts), default=0),
            days=frozenset(self.days), stated_days=frozenset(self.stated_days),
            deductions=frozenset(self.deductions),
            months=frozenset(self.months),
            multiples=frozenset(self.multiples),
            quotes=tuple(self.quotes), handles=frozenset(self.handles),
            emails=frozenset(self.emails), urls=frozenset(self.urls),
            relative_links=frozenset(self.relative),
            names=frozenset(self.names | self.stored_months | self.month_forms
                            | self.minor_forms), postcodes=frozenset(self.postcodes),
            minor_amounts=frozenset(self.minor_amounts),
            name_pairs=frozenset(self.pairs), years=self._years(),
            # which name a finding says a number is inside of: a name the evidence writes,
            # else a month as it writes it, else another form of a month or an amount in pence
            name_digits={**_digits_in_names(self.minor_shown),
                         **_digits_in_names(self.month_forms),
                         **_digits_in_names(self.stored_months), **_digits_in_names(self.names)},
            stated_counts=frozenset(self.stated_counts),
            stated_units=frozenset(self.stated_units), durations=frozenset(self.durations),
            range_ends=frozenset(self.range_ends),
            pressures=frozenset(self.pressures),
            quote_text="\x00".join(text for text, _ in self.quotes),
            quote_sources=tuple(self.quote_sources),
            untrusted_values=frozenset(self.untrusted_values - values),
            placeholder_values=frozenset(self.placeholder_values - values),
            has_today=self.has_today, today=self.today, clock=frozenset(self.clock),
            utc_clock=frozenset(self.utc_clock), offset_clock=frozenset(self.offset_clock),
            zoned_clock=frozenset(self.zoned_clock), lengths=frozenset(self.lengths),
            withheld={v: why for v, why in self.withheld.items() if v not in values},
            withheld_days={d: why for d, why in self.withheld_days.items() if d not in self.days},
            row_rules=self.rows, raw=raw, changes=frozenset(self.changes),
            instalments=frozenset(self.instalments),
            discount_percents=frozenset(self.discount_percents),
            paid_shares=frozenset(paid_shares),
            flags=tuple(self.flags),
            positions=frozenset(self.positions - values),
            position_words=frozenset(self.position_words), codes=frozenset(self.codes),
            phones=frozenset(self.phones), queryless_urls=frozenset(self.queryless),
            withheld_phones=dict(self.withheld_phones),
            no_quantities={digits: what for digits, what in self.no_quantities.items()
                           if Decimal(digits) not in values})

    def _years(self) -> frozenset[Decimal]:
        """The year of every day and every month the evidence holds (``Evidence.years``)."""
        years = {day.year for day in self.days} | {int(month[:4]) for month in self.months}
        return frozenset(Decimal(year) for year in years)


def _outside_months(leaf: "_Leaf") -> tuple[Mention, ...]:
    """The mentions of ``leaf`` outside the months written in it ("2026-11")."""
    return tuple(mention for mention in leaf.mentions if not any(
        start <= mention.start and mention.end <= end for start, end, _ in leaf.written_months))


_MONTH = re.compile(r"\d{4}-(0[1-9]|1[0-2])")
# A month as ISO writes it inside any string ("Report for 2026-11: 14 posts"), of a year from
# 1900 to 2199, not part of a longer code, number or day ("2026-11-05" is a day; "RC-2026-11"
# a code; "2026-115" no month).
_MONTH_IN_TEXT = re.compile(r"(?<![\w./-])(?:19|20|21)\d\d-(?:0[1-9]|1[0-2])(?![\w/-]|[.,]\d)")
# A year as a date writes it: four digits, 1900 to 2199, no separator ("2,026" is a count).
_YEAR_DIGITS = re.compile(r"(?:19|20|21)[0-9]{2}")
# The words around a number that make it a quantity, not a year (``said_as_year``): before it,
# what it reached or totals ("a total of 2026", "rose to 2026", "grew by 2026", "passé à 2026",
# "auf 2026 gestiegen"); after it, a word of a plural form that is no counted noun.
_QUANTITY_BEFORE = frozenset("""of to by total than about around over under nearly almost
    exactly reached à auf um sur insgesamt gesamt totale""".split())
# Before it, a verb of gaining or counting makes the number what was gained or counted ("you
# gained 2026", "we shipped 2026 more orders"): no year follows these verbs without a word
# between ("in", "during"); not "got" ("you got 2026 off to a strong start"). After it, a word that qualifies a counted noun ("2026 new followers",
# "2026 unique visitors") leaves the count to the noun one word further on.
_COUNTING_VERBS = frozenset("""gained had shipped reached earned sold received
    collected attracted added lost posted sent counted logged recorded""".split())
_COUNT_ADJECTIVES = frozenset("""new unique more additional extra total active returning monthly
    weekly daily repeat recurring loyal paying paid organic fewer""".split())
_NEXT_WORD = re.compile(r"[ \t\u00a0]+([^\W\d_]+)")
# the word between a month name and its year in the languages the scanner reads ("November
# of 2026", "noviembre de 2026", "novembre del 2026", "novembro de 2026", "im November von
# 2026"); not "to" ("rose in March to 2026") nor "and" ("in March and 2026 more")
_MONTH_YEAR_LINK = frozenset("of de del di do da von".split())
# the last one or two words right before a number, with only spaces after them
_WORDS_BEFORE = re.compile(r"(?:([^\W\d_]+)[ \t\u00a0]+)?([^\W\d_]+)[ \t\u00a0]+\Z")
_NOT_COUNTED_AFTER = frozenset("""is was has its his this thus plus always perhaps besides
    las los les des das als bis es más pues tras mais dans puis nous vous tous hast ist""".split())
# a counter glued to a number in Chinese, Japanese and Korean ("2026次", "2026回"), but the
# year's own ("2026年", "2026년")
_GLUED_AFTER = re.compile(r"[-/.,:][0-9]")
_CJK_COUNTER = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af](?<![年년])")


def said_as_year(text: str, mention: Mention, locale: str) -> bool:
    """``mention`` (a number whose value is one of ``Evidence.years``) is a year said as one,
    not a count: four plain digits with no currency, sign, scale or separator, and either a
    month name of ``locale`` or English just before it ("November 2026", "noviembre de 2026",
    "November of 2026"), or no word of a quantity around it: none before ("a total of 2026",
    "rose to 2026") and no counted noun, unit or counter after ("2026 views", "2026 km",
    "2026次", a German noun: "2026 Beiträge"; nor after a word that qualifies one: "2026 new
    followers"), and no verb of gaining or counting just before ("you gained 2026"). "In 2026",
    "Im Jahr 2026", "your 2026 total" are years; the month name comes first, so "November 2026
    new followers joined" is read as the month. A plural not in -s ("2026 volte", "2026 people") is not told from a word the
    year dates (docs/sweep.md, Known gaps)."""
    from rulekit.scan.locales import _locale_info, _name_key

    if mention.currency or mention.percent or mention.sign or mention.scaled \
            or not _YEAR_DIGITS.fullmatch(mention.text):
        return False
    before = _WORDS_BEFORE.search(text, max(0, mention.start - 40), mention.start)
    if before is not None:
        first, last = (before.group(1) or "").casefold(), before.group(2).casefold()
        months = _locale_info(locale).months
        if _name_key(last) in months or last in _MONTH_YEAR_LINK and first \
                and _name_key(first) in months:
            return True     # "November 2026", "noviembre de 2026", "novembre del 2026"
        if last in _QUANTITY_BEFORE or last in _COUNTING_VERBS:
            return False    # "a total of 2026", "you gained 2026"
    elif text[mention.start - 1:mention.start] in ("#", "№"):
        return False        # "#2026": a number, not a year
    after = text[mention.end:mention.end + 40]
    if _CJK_COUNTER.match(after) or _GLUED_AFTER.match(after):
        return False        # "2026次"; "2026-10", "2026/10": a date or a code, read as one
    rest = after.lstrip(" \t\u00a0")
    found = _WORD.match(rest)
    if found is None:
        return True
    if found.group(0)[0].isupper() and locale[:2] == "de":
        return False        # "2026 Beiträge": a German noun, capitalised
    word = found.group(0).casefold()
    if word in _COUNT_ADJECTIVES:   # "2026 new followers": the noun one word further on
        following = _NEXT_WORD.match(after, found.end() + len(after) - len(rest))
        if following is not None:
            word = following.group(1).casefold()
    return word not in UNIT_OF and (word in _NOT_COUNTED_AFTER or noun(word) == word)


def month_part(digits: str, name: str) -> str | None:
    """"year" or "month" when ``digits`` are that part of the month ``name`` ("2026-11") the
    evidence holds, for a finding to say so; None when ``name`` is no month."""
    if not _MONTH.fullmatch(name):
        return None
    return "year" if digits == name[:4] else "month" if digits == str(int(name[5:])) else None


class _Leaf(NamedTuple):
    """What one string of the evidence says, whatever its place: read once per string."""
    squashed: str                   # as quotes are compared
    day: dt.date | None             # the string is a stored date or timestamp
    month: bool                     # the string is a month, "2026-11"
    # (start, end, "YYYY-MM") of every month written in the string as ISO writes it: its
    # digits are a month's, not figures (``_Builder._month``)
    written_months: tuple[tuple[int, int, str], ...]
    pairs: tuple[str, ...]          # "model 3": a word and the number after it, case-folded
    plain_number: bool              # the string is just a number ("1299", "4.6%")
    mentions: tuple[Mention, ...]
    # A stored timestamp's clock, (day, hour, minute), as written in its own offset
    # ("2026-11-03T21:00:00+08:00" is 21:00 on 3 November; its 13:00 UTC is ``utc``, which
    # only a time written with a zone is compared with).
    clock: tuple[tuple[dt.date, int, int], ...] = ()
    utc: tuple[dt.date, int, int] | None = None     # that clock in UTC, when it has an offset
    offset: dt.timedelta | None = None              # and that offset


# Strings up to this length are read through a cache: evidence repeats its strings (authors,
# dates, ids, titles) within one body and across the bodies built for one conversation, and
# reading a string means scanning it. Longer strings (a review, a document) are read each time.
_CACHED_LEAF_LENGTH = 256


def postcode_name(name: str) -> bool:
    """Whether a field's name says it holds a postcode (``_POSTCODE_WORDS``)."""
    words = key_words(name)
    return bool(words) and (words[-1] in _POSTCODE_WORDS or words[-2:] in _POSTCODE_PAIRS)


def street_field(keys: tuple[str, ...]) -> bool:
    """Whether the field at the end of ``keys`` holds a street and its house number:
    ``street``, ``streetAddress``, ``address``, ``shipping_address``, ``address_line1``,
    ``addressLine1``, ``address1``, a ``line1`` of an ``address`` (not ``email_address``,
    ``ip_address``)."""
    words = key_words(keys[-1])
    if not words:
        return False
    if words[-1] in _STREET_WORDS or words[-2:] in (("address", "line"), ("addr", "line")):
        return True
    if words[-1] == "address":
        return len(words) == 1 or words[-2] in _ADDRESS_KINDS
    return words == ("line",) and len(keys) > 1 and "address" in key_words(keys[-2])


def _read_leaf(text: str, locale: str) -> _Leaf:
    if len(text) > _CACHED_LEAF_LENGTH:
        return _read_leaf_uncached(text, locale)
    return _read_leaf_cached(text, locale)


@functools.lru_cache(maxsize=8192)
def _read_leaf_cached(text: str, locale: str) -> _Leaf:
    return _read_leaf_uncached(text, locale)


def _read_leaf_uncached(text: str, locale: str) -> _Leaf:
    stripped = text.strip()
    # a delivery window, "2026-09-09 09:00-11:00", is a day and two times (its mentions), not
    # 09:00 at UTC-11
    day = dates.stored_day(stripped, None, "UTC") \
        if len(stripped) <= 40 and not dates.hour_range(stripped) else None
    return _Leaf(squashed=squash(text), day=day,
                 month=day is None and _MONTH.fullmatch(stripped) is not None,
                 written_months=tuple((m.start(), m.end(), m.group(0))
                                      for m in _MONTH_IN_TEXT.finditer(text))
                 if day is None and "-" in text else (),
                 pairs=tuple(m.group(0).casefold() for m in _NAME_PAIR.finditer(text)),
                 plain_number=_plain_number(stripped, locale),
                 mentions=tuple(scan(text, locale)),
                 **(_clock(stripped) if day else {}))


def _clock(stored: str) -> dict[str, Any]:
    """The ``clock`` and ``utc`` of a stored timestamp (``_Leaf``)."""
    if ":" not in stored:
        return {}
    try:
        instant = dt.datetime.fromisoformat(stored)
    except ValueError:
        return {}
    written = (instant.date(), instant.hour, instant.minute)
    if instant.tzinfo is None:
        return {"clock": (written,)}
    utc = instant.astimezone(dt.timezone.utc)
    return {"clock": (written,), "utc": (utc.date(), utc.hour, utc.minute),
            "offset": instant.utcoffset()}
# A word of ``POSITION_WORDS`` right before a number: "Step 2", "option 4" (``_no_quantities``).
_POSITION_BEFORE = re.compile(r"(?i)(?<![^\W\d_])(" + "|".join(sorted(POSITION_WORDS)) +
                              r")[ \u00a0]\Z")
_POSITION_LAST = frozenset(word[-1] for word in POSITION_WORDS)     # the cheap test first
_NAME_PAIR = re.compile(r"(?<![^\W\d_])[^\W\d_]+ \d+(?:[.,]\d+)?")     # from a word's start: linear
_NUMBER_WORD_PAIR = re.compile(r"(?<![\w.,])\d+(?:[.,]\d+)? [^\W\d_]+")
_DIGIT_RUN = re.compile(r"\d+")


_WORD = re.compile(r"[^\W_]+")


# The base of a rate in a field's name: "per_1k", "per90", "Per100k", "per_1m".
# Words for a unit of anything in stock ("3 units left", "there are still items available"),
# and the words of a stock field's name that name no thing ("in_stock", "rooms_left").
_STOCK_UNITS = frozenset({"unit", "item", "piece", "copy", "pair", "one", "article", "product"})
_STOCK_NAME_WORDS = frozenset({"stock", "in", "left", "remaining", "available", "availability",
                               "is", "has", "level", "on", "hand", "inventory", "qty", "quantity"})
# A window of time in a field's name: "posts_30d", "requests_last_24h", "views7d", "last7Days",
# "sessions_28_days". Not a bare "m" (minutes or months) nor "s".
_WINDOW_NAME = re.compile(r"(?<![0-9])([0-9]{1,4})_?((?i:days?|d|hours?|hrs?|h|weeks?|wks?|w|"
                          r"months?|mos?|years?|yrs?|y|minutes?|mins?))(?![a-z])")
# The same with the unit first, or the count in words, as a market's names write a 52-week
# window: "week52_high", "week_52_low", "fifty_two_week_high", "fiftyTwoWeekHigh".
_WINDOW_NAME_AFTER = re.compile(r"(?<![A-Za-z])((?i:days?|weeks?|wks?|months?|years?))_?"
                                r"([0-9]{1,4})(?![0-9])")
# (a year's high or low is a 52-week one: "year_high", "yearLow")
_FIFTY_TWO_WEEKS = re.compile(r"[Ff]ifty_?[Tt]wo_?([Ww]eeks?)(?![a-z])"
                              r"|(?<![A-Za-z])[Yy]ear_?(?:[Hh]igh|[Ll]ow)(?![a-z])")


def _windows_named(path: str) -> list[tuple[str, str]]:
    """The windows of time a figure's path names, each (its count, its unit word):
    ``_WINDOW_NAME``, ``_WINDOW_NAME_AFTER``, ``_FIFTY_TWO_WEEKS``."""
    found = _WINDOW_NAME.findall(path)
    if "eek" in path or "EEK" in path or "ay" in path or "onth" in path or "ear" in path:
        found += [(digits, unit) for unit, digits in _WINDOW_NAME_AFTER.findall(path)]
        found += [("52", "week") for _ in _FIFTY_TWO_WEEKS.finditer(path)]
    return found


_WINDOW_UNITS = {"d": "day", "day": "day", "days": "day", "h": "hour", "hr": "hour",
                 "hrs": "hour", "hour": "hour", "hours": "hour", "w": "week", "wk": "week",
                 "wks": "week", "week": "week", "weeks": "week", "mo": "month", "mos": "month",
                 "month": "month", "months": "month", "y": "year", "yr": "year", "yrs": "year",
                 "year": "year", "years": "year", "min": "minute", "mins": "minute",
                 "minute": "minute", "minutes": "minute"}


# The fields beside a number that name its own unit: "<field>_unit", "<field>Unit",
# "<field>_uom" ({"weight": 1.2, "weight_unit": "kg"}); a row's "unit" names that of the
# numbers the row measures (``_ROW_UNIT_KEYS``, ``_row_measures``: {"value": 23, "unit": "kg"}).
_UNIT_KEYS = ("{}_unit", "{}Unit", "{}_uom")
# How the names of the fields that name a unit end (these and ``_ROW_UNIT_KEYS``), lower-cased:
# the cheap test that any may be there.
_UNIT_KEY_ENDS = ("unit", "units", "uom", "measure", "unittext", "unitcode")
# The names of a reading's value in a row of a list, to which the unit of the object holding
# the list reaches: ``{"unit": "mg/dL", "readings": [{"value": 112, "fasting": 8}]}``.
_READING_WORDS = frozenset("value result reading measurement level quantity".split())


# Words of an object's name that make it a bucket of time its numbers were counted in, not
# their unit ({"this_month": {"orders": 12}}).
_BUCKET_WORDS = frozenset({"this", "current", "next", "by", "each", "every", "today"})


def _parent_units(path: str) -> tuple[frozenset[str], frozenset[str]] | None:
    """The units the name of the object holding the field at ``path`` says its numbers are in
    or per (``named_units``): ``transit_days``, ``dimensions_cm``, ``weight_kg``; None for an
    item of a list, a name of one word (``month``, ``h``: a bucket or a letter) or one that
    names no unit."""
    steps = path.rsplit(".", 2)
    if len(steps) < 3 or "[" in steps[1]:
        return None
    words = key_words(steps[1])
    if len(words) < 2 or not _BUCKET_WORDS.isdisjoint(words):
        return None
    named = named_units(steps[1])
    return named if named[0] or named[1] else None


def _holder(raw: Any, path: str) -> Mapping:
    """The object holding the field at ``path`` (empty when there is no one such object)."""
    parents = locate(raw, path.rsplit(".", 1)[0]) if "." in path else []
    return parents[0] if len(parents) == 1 else {}


def _unit_beside(raw: Any, path: str, name: str, row: bool = True) -> str | None:
    """The unit a field beside the field ``name`` at ``path`` names (``rulekit.units.unit_named``:
    "kg", "mg/dL", "%", "mm[Hg]"), or None: its own (``weight_unit``), else its row's (``unit``,
    ``units``, ``uom``) when ``row`` and the row measures it (``_row_measures``), else, for the
    value of a row of a list (``_READING_WORDS``), that of the object holding the list
    (``{"unit": "mg/dL", "readings": [{"value": 112}]}``)."""
    holder = _holder(raw, path)
    for pattern in _UNIT_KEYS:
        said = holder.get(pattern.format(name))
        if isinstance(said, str) and (unit := unit_named(said)) is not None:
            return unit
    if not row or not _row_measures(name):
        return None
    if any(key in holder for key in _ROW_UNIT_KEYS):
        return _row_unit(holder)
    parent = path.rsplit(".", 1)[0] if "." in path else ""
    if not parent.endswith("]"):
        return None
    rows = parent[:parent.rindex("[")]
    words = key_words(name)
    return _row_unit(_holder(raw, rows)) if "." in rows and words and (
        words[-1] in _READING_WORDS or _range_name(name)) \
        and _row_measures(rows.rsplit(".", 1)[-1]) else None


# Flags that say whether the amounts beside them, or inside the object holding them, include
# the tax: ``{"price": 132.5, "tax_inclusive": true}``, Shopify's order ``taxes_included``.
_TAX_FLAGS = {"tax_inclusive": INCLUDED, "taxes_included": INCLUDED, "tax_included": INCLUDED,
              "prices_include_tax": INCLUDED, "price_includes_tax": INCLUDED,
              "includes_tax": INCLUDED, "vat_included": INCLUDED, "vat_inclusive": INCLUDED,
              "tax_exclusive": EXCLUDED, "taxes_excluded": EXCLUDED, "tax_behavior": None}
# Stripe's prices say it in a word: ``tax_behavior`` "inclusive" or "exclusive" ("unspecified"
# says nothing).
_TAX_BEHAVIOURS = {"inclusive": INCLUDED, "exclusive": EXCLUDED}
# The names a flag applies to: an amount a customer pays, not a count beside it.
_PRICE_NAME = re.compile(r"(?i)price|amount|total|cost|fee|charge|rate|fare|tariff|nightly|sum")


def _flagged_basis(raw: Any, path: str) -> str | None:
    """The tax basis a flag (``_TAX_FLAGS``) beside the field at ``path``, or on the nearest
    object holding it that has one, says; a false flag says the other side. None without one."""
    steps = _PATH_STEP.findall(path)
    for length in range(len(steps) - 1, -1, -1):
        holders = locate(raw, "$" + "".join(steps[:length]))
        if len(holders) != 1:
            continue
        for key, flag in holders[0].items():
            key = str(key).lower()
            side = _TAX_FLAGS.get(key)
            if side is not None and isinstance(flag, bool):
                return side if flag else (EXCLUDED if side == INCLUDED else INCLUDED)
            if key == "tax_behavior" and isinstance(flag, str) \
                    and flag.lower() in _TAX_BEHAVIOURS:
                return _TAX_BEHAVIOURS[flag.lower()]
    return None


# The names a flag says nothing of. A total: Shopify's ``total_price`` and Stripe's
# ``amount_total`` include the tax whatever ``taxes_included`` says (the flag is of the line
# prices, the subtotal and the shipping), and a quote's ``total`` beside ``tax_exclusive: true``
# may be before it: a flag never puts a total before the tax. A tax amount (``total_tax``,
# ``vat_amount``) is on no basis.
_TOTAL_WORDS = frozenset("total grand price amount order current final cart checkout invoice "
                         "due value set".split())
_MONEY_BAG = frozenset({"shop_money", "presentment_money", "amount"})


def _flag_applies(path: str, basis: str) -> str | None:
    """The tax basis a flag gives the amount at ``path``: ``basis``, but none for a tax
    amount, and none before the tax for a total. The name read is the field's, or for
    Shopify's money sets (``total_price_set.shop_money.amount``) the set's."""
    names = [step[1:] for step in _PATH_STEP.findall(path) if step.startswith(".")]
    while len(names) > 1 and names[-1].lower() in _MONEY_BAG:
        names.pop()
    name = names[-1] if names else ""
    if names_tax(name):
        return None
    words = [word.lower() for word in _NAME_WORDS.findall(name)]
    if basis == EXCLUDED and ("total" in words or "grand" in words) \
            and _TOTAL_WORDS.issuperset(words):
        return None
    return basis


# The fields beside an amount that say the period it is per (``_period_beside``), or that it
# is paid once.
_PERIOD_KEYS = frozenset("billing_period period interval frequency billing_cycle "
                         "billing_interval billing_frequency payment_frequency recurring "
                         "recurrence one_time onetime disbursement".split())


# A number held in plain days, and one held in working days (``rulekit.units``' unit).
_PLAIN_DAY = frozenset(("day",))
_WORKING_DAY = frozenset(("business-day",))
# Besides an amount's own words, the words before "period" of a field that says a cap's period
# (``cap_period``, ``limit_period``, ``max_period``).
_CAP_PERIOD_WORDS = frozenset("cap limit max maximum".split())
_PER_TOTAL = frozenset((TOTAL,))


# The amounts a sibling's period does not reach: charges made once whatever the plan's period
# (``{"rent": 1850, "deposit": 1850, "frequency": "monthly"}``: the deposit is no rent a month).
_ONE_OFF_NAMES = frozenset("deposit deposits setup activation signup installation initiation "
                           "application enrollment enrolment admission registration onboarding "
                           "cancellation termination refund refunded paid balance due "
                           "outstanding".split())


def _period_beside(holder: Mapping, name: str = "") -> str | None:
    """The period an amount in ``holder`` is per, as a field beside it says: "half-year" for
    ``billing_period: "semester"``, "month" for Stripe's ``recurring: {"interval": "month"}``,
    "day" for ``max_charge_period: "day"`` beside ``max_charge`` (a period field named with
    words of the amount's ``name`` or of a cap's: ``cap_period``, ``limit_period``);
    ``TOTAL`` for one paid once (``recurring: false``, ``one_time: true``, ``disbursement:
    "one-time"``); None when none says (or two say different ones)."""
    found = set()
    for key, value in holder.items():
        key = str(key)
        if key.lower() not in _PERIOD_KEYS and not (
                key[-6:].lower() == "period" and len(words := key_words(key)) > 1
                and words[-1] == "period"
                and _CAP_PERIOD_WORDS.union(key_words(name)).issuperset(words[:-1])):
            continue
        key = key.lower()
        if key in ("recurring", "recurrence") and isinstance(value, Mapping):
            value = value.get("interval")
        if isinstance(value, bool):
            if key in ("recurring", "recurrence") and not value:
                found.add(TOTAL)
            elif key in ("one_time", "onetime") and value:
                found.add(TOTAL)
        elif isinstance(value, str) and (period := period_named(value)) is not None:
            found.add(period)
    return found.pop() if len(found) == 1 else None


def _keys_in(node: Any) -> Iterable[str]:
    """Every key of every object a JSON value holds."""
    if isinstance(node, Mapping):
        for key, child in node.items():
            yield str(key)
            yield from _keys_in(child)
    elif isinstance(node, (list, tuple)):
        for child in node:
            yield from _keys_in(child)


# What one piece of evidence may hold: values (the fields of its objects and the items of its
# lists, counted as they are indexed) and characters of text. Indexing costs tens of
# microseconds a value: past the caps the evidence is refused (``EvidenceError``, an
# ``input_error`` naming the cap) rather than tie up a worker for minutes and gigabytes.
# Read at each build, so a deployment that needs more sets them once at start-up:
# ``rulekit.evidence.MAX_VALUES = 200_000``.
MAX_VALUES = 50_000
MAX_CHARS = 5_000_000


class EvidenceError(ValueError):
    """Evidence that cannot be indexed: the message names the JSON path and what would fix it."""


def _finite(number: int | float | Decimal) -> bool:
    """Whether a number of the evidence is one JSON can hold: not NaN or infinite, and for an
    integer, not beyond a double's range (a 5,000-digit integer cannot even be printed)."""
    if isinstance(number, int):
        return -10**308 < number < 10**308
    if isinstance(number, float):
        return math.isfinite(number)
    return number.is_finite() and abs(number) < Decimal("1e308")


def _strings_in(node: Any) -> Iterable[str]:
    """Every string a JSON value (or a text document) holds, its keys aside."""
    if isinstance(node, str):
        yield node
    elif isinstance(node, Mapping):
        for child in node.values():
            yield from _strings_in(child)
    elif isinstance(node, (list, tuple)):
        for child in node:
            yield from _strings_in(child)


def _numbers_in(node: Any, locale: str) -> Iterable[Decimal]:
    """Every number a JSON value holds, in its numbers and in its strings."""
    if isinstance(node, Mapping):
        for child in node.values():
            yield from _numbers_in(child, locale)
    elif isinstance(node, (list, tuple)):
        for child in node:
            yield from _numbers_in(child, locale)
    elif isinstance(node, str):
        for mention in _read_leaf(node, locale).mentions:
            if mention.kind in ("number", "word_number") and mention.value is not None:
                yield mention.value
    elif isinstance(node, (int, float, Decimal)) and not isinstance(node, bool):
        value = _number_or_none(str(node))
        if value is not None:
            yield value


def locate(evidence: Any, path: str) -> list[Mapping]:
    """The objects at ``path`` in JSON evidence (``$``, then ``.name``, ``[*]`` or ``[n]``
    steps): the rows a ruleset's entity is found at."""
    nodes = [evidence]
    for step in _PATH_STEP.findall(path):
        found = []
        for node in nodes:
            if step == "[*]":
                if isinstance(node, (list, tuple)):
                    found.extend(node)
            elif step.startswith("["):
                index = int(step[1:-1])
                if isinstance(node, (list, tuple)) and index < len(node):
                    found.append(node[index])
            elif isinstance(node, Mapping) and step[1:] in node:
                found.append(node[step[1:]])
        nodes = found
    return [n for n in nodes if isinstance(n, Mapping)]


# An index step of a path: ``$.posts[3].views`` is a row of ``$.posts[*]``.
_ANY_INDEX = re.compile(r"\[\d+\]")

_PATH_STEP = re.compile(r"\.[A-Za-z_][A-Za-z0-9_]*|\[\*\]|\[\d+\]")


def _pair_number(pair: str) -> str:
    """The number of a "word number" or a "number word" pair."""
    word, other = pair.split(" ", 1)
    return word if word[0].isdigit() else other


def _digits_in_names(names: Iterable[str]) -> dict[str, str]:
    """Each digit run of ``names`` with a name that holds it: a real name before a hexadecimal
    id ("bt-3" before "3f2b8c1e"), whose digits the sweep's message does not name."""
    found: dict[str, str] = {}
    for name in sorted(names, key=lambda name: (hex_id(name), name)):
        for run in _DIGIT_RUN.findall(name):
            found.setdefault(str(int(run)), name)
    return found


# Words of a field's name that do not say what it counts: "view_count", "total_views".
_COUNTING_WORDS = frozenset({"count", "counts", "total", "num", "number", "cnt", "n", "of", "no",
                             "nr", "qty", "amount"})
_NAME_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")


# A code's bracketed letter after its digits: "401(k)", "403(b)", "457(b)".
_BRACKETED_LETTER = re.compile(r"\([A-Za-z]\)(?!\w)")
_ZONE_NAME = re.compile(r"(?i)(?:^|_)(?:time_?zone|tz|zone)$")
# The words of a list's name whose rows are variants of the row holding it (its sizes, colours,
# SKUs): their stock is that row's stock, unlike that of add-ons, extras or parking passes.
_VARIANT_LIST_WORDS = frozenset({"variant", "variants", "sku", "skus", "size", "sizes", "option",
                                 "options", "item", "items", "color", "colors", "colour",
                                 "colours", "style", "styles", "model", "models", "edition",
                                 "editions", "flavor", "flavors", "flavour", "flavours"})


# The fields that tell a product's variants apart when they have no name or title: a size, a
# colour, a code, a shop's option (Shopify's option1-3), in the languages the sweep reads.
_VARIANT_KEYS = frozenset({"size", "color", "colour", "größe", "grösse", "groesse", "farbe",
                           "taille", "couleur", "talla", "taglia", "colore", "tamanho", "cor",
                           "maat", "kleur", "sku", "option", "option1", "option2", "option3",
                           "variant_title", "style", "flavor", "flavour"})


def _variant_rows(node: Any, found: list[tuple[str, frozenset[str]]]) -> None:
    """(path, values) of each object in a list with a string or a number in one of
    ``_VARIANT_KEYS``: the values case-folded, without the spaces around them."""
    for path, row, in_list in _objects(node, "$"):
        values = frozenset(text for key, child in row.items()
                           if str(key).casefold() in _VARIANT_KEYS
                           and isinstance(child, (str, int)) and not isinstance(child, bool)
                           and (text := " ".join(str(child).split()).casefold())) \
            if in_list else None
        if values:
            found.append((path, values))


def _variant_list(rest: str) -> bool:
    """Whether a path below a row (``.variants[1].inventory_quantity``) runs through a list
    of that row's variants first (``_VARIANT_LIST_WORDS``): not ``.add_ons[0].available``."""
    key = rest[:rest.find("[")].rsplit(".", 1)[-1]
    return not _VARIANT_LIST_WORDS.isdisjoint(key_words(key))


# A field that holds an object's offset from UTC: "utc_offset": "-05:00", Google Places'
# "utc_offset_minutes": -300 (and its older "utc_offset": -300, in minutes).
_UTC_OFFSET_NAME = re.compile(r"(?i)^utc_?offset(_?min(?:ute)?s)?$")
_UTC_OFFSET_TEXT = re.compile(r"(?:UTC|GMT)?([+\-\u2212])([01]?[0-9])(?::?([0-5][0-9]))?")


def object_zone(node: Mapping) -> ZoneInfo | None:
    """The IANA zone an object names in a field called like a zone ("timezone":
    "Europe/London", ``time_zone``, ``tz``, ``timeZone``), or None."""
    for key, child in node.items():
        if isinstance(child, str) and _ZONE_NAME.search(str(key)):
            try:
                return dates.zone(child.strip())
            except (ValueError, OSError):
                pass
    return None


def object_offset(node: Mapping) -> dt.tzinfo | None:
    """The zone an object names (``object_zone``), or else the offset from UTC it stores
    (``utc_offset: "-05:00"``, ``utc_offset_minutes: -300``; a whole number up to 14 is in
    hours, a larger one in minutes), or None."""
    zone = object_zone(node)
    if zone is not None:
        return zone
    for key, child in node.items():
        named = _UTC_OFFSET_NAME.match(str(key))
        if named is None or isinstance(child, bool):
            continue
        minutes: int | None = None
        if isinstance(child, int):
            minutes = child if named[1] or abs(child) > 14 else child * 60
        elif isinstance(child, str):
            said = _UTC_OFFSET_TEXT.fullmatch(child.strip())
            if said is not None:
                minutes = (int(said[2]) * 60 + int(said[3] or 0)) * (1 if said[1] == "+" else -1)
        if minutes is not None and abs(minutes) < 24 * 60:
            return dt.timezone(dt.timedelta(minutes=minutes))
    return None
# Also a percentile, a metric's name (probe i18n2 f6): p50, p95, p99, p99_9 (written p99.9).
_PERIOD_KEY = re.compile(r"(?i)(?<![a-z0-9])(q[1-4]|h[12]|p[0-9]{1,3}(?:[._][0-9]{1,3})?)"
                         r"(?![a-z0-9])")


def _items(node: Any) -> Iterable[tuple[str, Any]]:
    """Every (key, value) of every object in ``node``, at any depth."""
    todo = [node]
    while todo:
        node = todo.pop()
        if isinstance(node, Mapping):
            for key, child in node.items():
                yield str(key), child
                if isinstance(child, (Mapping, list, tuple)):
                    todo.append(child)
        elif isinstance(node, (list, tuple)):
            todo.extend(node)
_FOREIGN_STOCK_NAME = re.compile(r"(?i)existenc|estoque|(?<![a-z])(?:lager(?:bestand|menge|stand)?"
                                 r"|bestand)(?![a-z])|vorr[aä]t|voorraad|disponib|giacenz|scorte|"
                                 r"magazzin|inventari|inventaire|在庫|库存|庫存|재고")


@functools.lru_cache(maxsize=4096)
def field_words(name: str) -> frozenset[str]:
    """The words a field's name says it counts, each reduced like ``noun``: ``total_views`` and
    ``viewCount`` give {"view"}, ``new_followers`` {"new", "follower"}. A name about stock
    (``in_stock``, ``stock_level``, ``inventory``; in other languages ``existencias``,
    ``estoque``, ``lagerbestand``, ``bestand``, ``voorraad``, ``inventaire``, ``disponibilità``,
    ``giacenza``, 在庫, 库存, 재고) also gives "stock"."""
    ordered = [noun(word) for word in _NAME_WORDS.findall(name)]
    words = set(ordered) - _COUNTING_WORDS
    if any("stock" in word or "inventor" in word or word.startswith("availab")
           for word in words) or _FOREIGN_STOCK_NAME.search(name) or _counts_what_is_left(ordered):
        words.add("stock")
    return frozenset(words)


# The words of a name that say it counts what is left (``Evidence.left_amounts``), and the
# sides a name ending with "left" may name instead (`margin_left`).
_LEFT_NAME_WORDS = frozenset({"left", "remaining"})
_SIDE_WORDS = frozenset({"margin", "padding", "border", "offset", "indent", "turn"})
# What a name ending with "left" or "remaining" counts that is no stock: time (`trial_days_left`,
# `time_remaining`) and sides (`margin_left`).
_LEFT_NOT_STOCK = frozenset({"time", "second", "sec", "minute", "min", "hour", "hr", "day", "week",
                             "month", "year", "margin", "padding", "border", "offset", "indent",
                             "turn", "attempt", "try", "retry", "life", "live", "credit", "token",
                             "quota", "budget", "balance", "move", "guess", "lap", "hole", "round",
                             "refill"})


def _counts_what_is_left(words: list[str]) -> bool:
    """Whether a name's words (each through ``noun``) count the things left of something sold or
    booked: `rooms_left`, `seatsRemaining`, `remaining_tickets`, `units_left`; not time left,
    a side, or what an account has left (`trial_days_left`, `margin_left`, `credits_left`)."""
    if len(words) < 2:
        return False
    if words[-1] in ("left", "remaining"):
        counted = words[:-1]
    elif words[0] == "remaining":
        counted = words[1:]
    else:
        return False
    return _LEFT_NOT_STOCK.isdisjoint(counted) and any(word.isalpha() for word in counted)


# The last key of a field that stores the scale of a rating or a score (``Evidence.rating_scales``),
# in snake, camel or kebab case: max_rating, maxRating, best_rating, bestRating, rating_scale,
# rating_max, max_score, score_scale, score_range_max (a credit score's), out_of, outOf, scale,
# max_stars; and the maximum of a grade or a test: Canvas's points_possible, possible_points,
# max_points, Moodle's grademax, gpa_scale, max_gpa, grade_scale, grading_scale, max_marks,
# full_marks, total_marks, note_max, bareme, and points in German, Spanish, Italian, Portuguese,
# Dutch (max_punkte, puntos_max).
# Not total_points (a loyalty balance, a team's total) nor a bare max_ (``scale_tops`` reads
# those as a scale's top only when said as "5/5").
_SCALE_FIELD = re.compile(r"(?i)[.$](?:(?:max|best|maximum)[_-]?(?:rating|score|stars?|points?|"
                          r"grade|gpa|marks?|note|punkte|puntos|punti|pontos|punten)|(?:rating|"
                          r"score|gpa|grade|grading|points?|marks?|note|punkte|puntos|punti|pontos|"
                          r"punten)[_-]?(?:range[_-]?)?(?:scale|max|maximum|possible)|"
                          r"possible[_-]?points?|"
                          r"(?:full|total)[_-]?marks|out[_-]?of|scale|bar[eè]me)\Z")
# Canvas LMS's scores in percent: those of an enrollment's ``grades`` object (current_score:
# 88.4 is 88.4 %), and the computed_ ones of a course's enrollment (include[]=total_scores).
# Read only under ``grades`` or with the computed_ prefix: a ``score`` or a ``final_score``
# elsewhere is points (34 of 40 points is no 34 %).
_CANVAS_PERCENT_SCORES = frozenset({
    "current_score", "final_score", "unposted_current_score", "unposted_final_score",
    "override_score", "computed_current_score", "computed_final_score"})
@functools.lru_cache(maxsize=4096)
def _score_end_name(name: str) -> str | None:
    """What a field's name says of its number as an end of a score's scale
    (``Evidence.score_scale_ends``): "top" (``points_possible``, ``gpa_scale``; not a game's
    ``best_score``), "range" (a bottom, ``grademin``, or a range text, ``rangeformatted``:
    either end, whole or read in a text), or None. Names repeat across rows: read once each."""
    key = "." + name
    if _SCALE_BOTTOM_FIELD.search(key) is not None or _SCALE_RANGE_FIELD.search(key) is not None:
        return "range"
    if _SCALE_FIELD.search(key) is not None and not name.lower().startswith("best_score"):
        return "top"
    return None


# The words of a field's name that make its number a score (``Evidence.scores``): a GPA, a
# grade, a rating, a hotel's stars, marks, a French moyenne or note, a German Note, Punktzahl
# or Bewertung, a Spanish nota, puntaje or calificación, an Italian punteggio, a Dutch cijfer.
_SCORE_WORDS = frozenset({"gpa", "score", "scores", "grade", "grades", "rating", "ratings",
                          "stars", "mark", "marks", "note", "notes", "noten", "moyenne", "nota",
                          "notas", "fico", "vantagescore", "graderaw", "rawgrade", "finalgrade",
                          "gradeformatted", "puntaje", "puntuacion", "puntuación",
                          "calificacion", "calificación", "punteggio", "valutazione",
                          "pontuacao", "pontuação", "cijfer", "punktzahl", "bewertung"})
# ... and those that make it no score of the one scored: a goal, a bound, a count of ratings,
# a change of the score, a percentile ("target_score", "passing_grade", "rating_count",
# "score_change", "score_percentile").
_NO_SCORE_WORDS = frozenset({
    "target", "goal", "threshold", "cutoff", "required", "requirement", "needed", "min",
    "max", "minimum", "maximum", "passing", "pass", "scale", "possible", "range", "limit",
    "count", "counts", "num", "number", "change", "delta", "diff", "growth", "trend",
    "percentile", "rank", "weight", "id", "date", "type", "letter", "comment", "text"})
# ... and those that make it a score of another time or of others than the one scored now:
# "previous_score", "best_score", "class_average_gpa" (backs "your previous score was 18",
# not the level a score reached).
_PAST_SCORE_WORDS = frozenset({
    "previous", "prev", "prior", "old", "initial", "original", "baseline", "former",
    "starting", "start", "first", "earlier", "before", "past", "best", "highest", "lowest",
    "average", "avg", "mean", "median", "class", "cohort", "peer", "national", "history"})


# The keys of an object named for a score that hold the score itself.
_SCORE_VALUE_KEYS = frozenset({"value", "val", "current", "raw", "score", "points", "result",
                               "formatted", "display", "latest", "now"})


@functools.lru_cache(maxsize=4096)
def _score_kind(name: str) -> str | None:
    """Whether a field's name says it holds a score (``Evidence.scores``): "now" (``gpa``,
    ``credit_score``, ``current_score``, ``ratingValue``), "other" (``previous_score``,
    ``best_score``), or None (``days_absent``, ``target``, ``gpa_scale``, ``rating_count``)."""
    words = set(key_words(name))
    if words.isdisjoint(_SCORE_WORDS) or not words.isdisjoint(_NO_SCORE_WORDS) \
            or _score_end_name(name) is not None:
        return None
    return "other" if not words.isdisjoint(_PAST_SCORE_WORDS) else "now"


def _names_score(raw: Any, depth: int = 0) -> bool:
    """Whether a key of ``raw`` names a score or a score's scale, whatever its value (a null
    ``score`` too): ``Evidence.scores`` is read only then."""
    if depth > 12:
        return False
    if isinstance(raw, Mapping):
        for key, value in raw.items():
            key = str(key)
            if not _SCORE_WORDS.isdisjoint(key_words(key)) or _score_end_name(key) is not None:
                return True
            if isinstance(value, (Mapping, list)) and _names_score(value, depth + 1):
                return True
    elif isinstance(raw, list):
        return any(isinstance(item, (Mapping, list)) and _names_score(item, depth + 1)
                   for item in raw)
    return False


# The well-known scales of standardized tests, by a word of the name of the field holding a
# score (``Evidence.test_scales``): the SAT (1600, a section 800), the PSAT (1520, 760), the ACT
# (36), the IB diploma (45, a subject 7), TOEFL iBT (120), IELTS (9), the GRE (340, a section
# 170), a GPA (4.0, and 5.0 for a weighted GPA above 4). A score is said on the smallest of
# its test's scales at or above it. Not a French note (/20) nor a score out of 100, which
# many scales share.
_TEST_SCALES = {"sat": (Decimal(1600), Decimal(800)), "psat": (Decimal(1520), Decimal(760)),
                "act": (Decimal(36),), "ib": (Decimal(45), Decimal(7)),
                "toefl": (Decimal(120),), "ielts": (Decimal(9),),
                "gre": (Decimal(340), Decimal(170)), "gpa": (Decimal(4), Decimal(5))}
# The last key of a field that stores the bottom of a score's scale (``Evidence.score_scale_ends``):
# Moodle's grademin, min_score, scale_min, min_gpa, note_min.
_SCALE_BOTTOM_FIELD = re.compile(r"(?i)[.$](?:(?:min|minimum)[_-]?(?:rating|score|stars?|points?|"
                                 r"grade|gpa|marks?|note|scale|punkte|puntos|punti|pontos|punten)|"
                                 r"(?:rating|score|gpa|grade|grading|points?|marks?|note|scale|"
                                 r"punkte|puntos|punti|pontos|punten)[_-]?(?:range[_-]?)?"
                                 r"(?:min|minimum))\Z")
# The last key of a text that says a score's range: Moodle's rangeformatted ("0,00&ndash;20,00").
# Not a bare ``range`` (a car's range in km, a wifi's in m).
_SCALE_RANGE_FIELD = re.compile(r"(?i)[.$](?:range[_-]?formatted|(?:grade|score|rating|"
                                r"points?|marks?|note)[_-]?range|range[_-]?(?:grade|score))\Z")
# The last key of a field that stores a section's number (``Evidence.sections``): section,
# class_section, section_number, sectionNo, section_id, sectionNum.
_SECTION_FIELD = re.compile(r"(?:[.$_-][Ss]|[a-z]S)ection"
                            r"(?:[_-]?(?:[Nn]umber|[Nn]um|[Nn]o|[Ii][Dd]))?\Z")
# A level on a scale in a text: "3/5", "4.6 / 5" (not a date's "12/03/2026").
_SCALE_PAIR = re.compile(r"(?<![\d.,/])(\d{1,3}(?:[.,]\d{1,2})?)[ \u00a0]?/[ \u00a0]?(\d{1,3})"
                         r"(?![\d/.,]\d|[\d/])")
# The words of field names that hold a rank (``Evidence.ranks``), reduced (``field_words``).
RANK_FIELD_WORDS = frozenset({"rank", "ranking", "position", "place", "standing"})
# The same in the languages whose ranks the sweep reads (``rulekit.sweep_ranks``), as
# ``key_words`` gives them (case-folded, a word in another script or with an accent whole): a
# league table's ``platz``, ``tabellenplatz``, ``posición``, ``classement``, ``plaats``, 順位.
LOCAL_RANK_FIELD_WORDS = frozenset({
    "platz", "tabellenplatz", "rang", "platzierung", "rangplatz",
    "posicion", "posición", "puesto", "clasificacion", "clasificación",
    "classement", "posizione", "classifica", "piazzamento",
    "plaats", "positie", "klassering",
    "posicao", "posição", "colocacao", "colocação", "classificacao", "classificação",
    "順位", "ランキング", "순위", "랭킹", "排名", "名次"})
# The last word of a field's name that makes it a share, no rank: ``rank_percentile``,
# ``position_pct``, ``rankShare``.
_SHARE_NAME_END = re.compile(r"(?i)(?:percentile|pct|percent|share)\Z")


def _rank_field(amount: Amount) -> bool:
    """Whether ``amount`` is in a field named like a rank (``RANK_FIELD_WORDS``, in another
    language ``LOCAL_RANK_FIELD_WORDS``), not a share
    of a rank (``rank_percentile: 97`` says where among a hundred, not which place)."""
    if _SHARE_NAME_END.search(amount.path) is not None:
        return False
    return bool(amount.words & RANK_FIELD_WORDS) or not LOCAL_RANK_FIELD_WORDS.isdisjoint(
        key_words(amount.path.rsplit(".", 1)[-1].split("[", 1)[0]))
# Words of a list's name that say it is a list, not what it lists: "posts_list", "orderData".
_CONTAINER_WORDS = frozenset({"list", "lists", "array", "arr", "set", "collection", "data",
                              "info", "all"})


# A list named like these counts what the field around it names ("edges" and "nodes" of a
# GraphQL connection, "data" or "results" of an API's page).
_WRAPPER_NAMES = frozenset({"edges", "nodes", "items", "data", "results", "records", "list"})


def _plural(name: str) -> bool:
    """Whether a field's name ends with a plural word ("lineItems", "orders", "line_items")."""
    words = _NAME_WORDS.findall(name)
    last = words[-1].casefold() if words else name.casefold()
    return noun(last) != last


@functools.lru_cache(maxsize=4096)
def list_nouns(name: str) -> tuple[str, ...]:
    """What a list named ``name`` counts, each reduced like ``noun``: the whole name with its
    words joined by "_", and its head word (the last, in English compounds) when there are
    more: ``line_items`` and ``lineItems`` count "line_item" and "item", so that "2 items" and
    "2 line items" are both counts of it; ``posts_list`` counts "post"."""
    words = [word.casefold() for word in _NAME_WORDS.findall(name)]
    if not words:
        return (noun(name),)
    named = [word for word in words if word not in _CONTAINER_WORDS] or words
    found = [noun("_".join(named))]
    if len(named) > 1 and not named[-1].isdigit():
        found.append(noun(named[-1]))
    return tuple(found)


# What a stock field written as text says (lower-cased, "_" and "-" as spaces).
_STOCK_TEXTS = {"in stock": "some", "instock": "some", "available": "some", "yes": "some",
                "out of stock": "zero", "outofstock": "zero", "sold out": "zero",
                "unavailable": "zero", "not available": "zero", "no": "zero"}


def _names_row(key: str, keys: frozenset[str]) -> bool:
    """Whether a field ``key`` names its row: ``name``, ``title``, one ending in ``_name`` or
    ``_title`` (``variant_name``, ``productName``), or one of ``keys`` (a ruleset's
    ``mentioned as`` fields: ``variant_sku``)."""
    if key in keys:
        return True
    low = key.casefold()
    return low in ("name", "title") or low.endswith(("_name", "_title", "-name", "-title")) \
        or key.endswith(("Name", "Title")) and key[:1].islower()


def _named_rows(node: Any, path: str, found: list[tuple[str, str]],
                keys: frozenset[str] = frozenset()) -> None:
    """(path, name) of every object of ``node`` with a string in a field that names it
    (``_names_row``: ``name``, ``title``, ``variant_name``, a ruleset's ``mentioned as``
    field), one for each such field, the paths written as ``_collect_amounts`` writes them."""
    for at, row, _ in _objects(node, path):
        found += [(at, child) for key, child in row.items() if isinstance(child, str)
                  and child.strip() and _names_row(str(key), keys)]


def _objects(node: Any, path: str, in_list: bool = False
             ) -> Iterator[tuple[str, Mapping, bool]]:
    """(path, object, whether it is an item of a list) of every object of ``node``, each
    before those in it, the paths written as ``_collect_amounts`` writes them."""
    if isinstance(node, Mapping):
        yield path, node, in_list
        for key, child in node.items():
            if isinstance(child, (Mapping, list, tuple)):
                yield from _objects(child, f"{path}.{key}")
    elif isinstance(node, (list, tuple)):
        for index, child in enumerate(node):
            yield from _objects(child, f"{path}[{index}]", True)


def _collect_amounts(node: Any, path: str, name: str | None, row_rules: Mapping[int, RowRule],
                     found: list[Amount], siblings: Mapping | None = None) -> None:
    if isinstance(node, Mapping):
        rule = row_rules.get(id(node)) if row_rules else None
        for key, child in node.items():
            key = str(key)
            why = rule.withheld.get(key) if rule is not None else None
            if why is not None:
                words = field_words(key)
                if words and not isinstance(child, Mapping):
                    found.append(Amount(words, why.code, f"{path}.{key}", why.why, why.input))
                continue
            _collect_amounts(child, f"{path}.{key}", key, row_rules, found, node)
        return
    if isinstance(node, (list, tuple)):
        if name is not None:
            words = field_words(name)
            if words:
                found.append(Amount(words, "some" if node else "zero", path,
                                    f"a list of {len(node)}"))
        for index, child in enumerate(node):
            # an item of a list is one of the things the list counts, not an amount of its own
            _collect_amounts(child, f"{path}[{index}]", None, row_rules, found)
        return
    if name is None:
        return
    words = field_words(name)
    if not words and not name.isascii():
        # a rank in a name of another script (順位, 순위, 排名), which ``field_words`` drops
        words = LOCAL_RANK_FIELD_WORDS.intersection(key_words(name))
    if not words:
        return
    if node is None:
        found.append(Amount(words, "unknown", path, "null"))
    elif isinstance(node, bool):
        found.append(Amount(words, "some" if node else "zero", path, str(node).lower()))
    elif isinstance(node, (int, float, Decimal)):
        value = _number_or_none(str(node))
        if value is None:
            return
        if value in (0, -1) and _untracked(name, value, siblings or {}):
            found.append(Amount(words, "unknown", path, f"{node} (not recorded)"))
        elif value < 0:
            return                          # a change or a difference, not an amount
        else:
            found.append(Amount(words, "zero" if value == 0 else "some", path, str(node)))
    elif isinstance(node, str):
        said = re.sub(r"[_\-\s]+", " ", node.strip().casefold())
        if "stock" in words and said in _STOCK_TEXTS:    # availability: "in_stock"
            found.append(Amount(words, _STOCK_TEXTS[said], path, repr(node)))
        elif said in PLACEHOLDER_TEXTS:
            found.append(Amount(words, "unknown", path, repr(node)))


# The word right after a number: "3 reviews".
WORD_AFTER = re.compile(r"[ \u00a0]([A-Za-z]+)(?![\w-])")
# Words of a field's name that make it a sum of counts ("total_points" of two teams): it backs
# a count but does not make the thing counted, since the parts may be named otherwise (PTS).
_AGGREGATE_WORDS = frozenset({"total", "totals", "sum", "combined", "overall", "cumulative",
                              "lifetime", "all"})
# The words of a field's name that say its "18:05" is a length of time, not a time of day.
_LENGTH_WORDS = frozenset({"duration", "length", "runtime", "elapsed", "playtime"})
# Things counted in units of time: a number before them is a duration, not a count of rows.
_DURATION_NOUNS = frozenset({"second", "minute", "min", "hour", "hr", "day", "week", "month",
                             "year", "time"})


# Words of a field's name that make its number a rating's scale (``rating_scale``, ``max_rating``,
# ``best_rating``, ``out_of``), and those of a rating that may be said in stars, up to 5 on a
# scale of 5 or of none (``guest_rating: 4.5``, ``{"average": 4.4, "count": 1873}``).
_STAR_SCALE_WORDS = frozenset(("scale", "max", "maximum", "best", "out", "outof"))
_STAR_RATING_WORDS = frozenset(("rating", "score", "average", "avg", "mean"))


def _collect_stars(node: Any, path: str, values: set[Decimal], paths: list[str]) -> None:
    """``Evidence.star_values``'s walk: the numbers of fields named for stars, with their paths,
    and those of a rating up to 5 beside a scale of 5 or of none (``_STAR_RATING_WORDS``)."""
    if isinstance(node, Mapping):
        numbers = {str(key): value for key, value in node.items()
                   if isinstance(value, (int, float, Decimal)) and not isinstance(value, bool)}
        scales = {value for key, value in numbers.items()
                  if not _STAR_SCALE_WORDS.isdisjoint(key_words(key))}
        for key, value in numbers.items():
            words = key_words(key)
            if "star" in words or "stars" in words:
                values.add(Decimal(str(value)))
                paths.append(f"{path}.{key}")
            elif not _STAR_RATING_WORDS.isdisjoint(words) and 0 <= value <= 5 \
                    and scales <= {5}:
                values.add(Decimal(str(value)))
        for key, child in node.items():
            if isinstance(child, (Mapping, list, tuple)):
                _collect_stars(child, f"{path}.{key}", values, paths)
    elif isinstance(node, (list, tuple)):
        for index, child in enumerate(node):
            if isinstance(child, (Mapping, list, tuple)):
                _collect_stars(child, f"{path}[{index}]", values, paths)


def _collect_counted(node: Any, name: str | None, row_rules: Mapping[int, RowRule],
                     backing: dict[str, set[Decimal]], named: set[str]) -> None:
    """``Evidence.counted``'s walk: what each list and number field counts (``named``) and the
    counts that back a number said of each thing (``backing``). A field a row rule withholds
    (hidden, stale) backs nothing."""
    if isinstance(node, Mapping):
        rule = row_rules.get(id(node)) if row_rules else None
        for key, child in node.items():
            if rule is None or str(key) not in rule.withheld:
                _collect_counted(child, str(key), row_rules, backing, named)
                if _count_key(str(key), child):
                    for thing in _summary_things(node, name):
                        backing.setdefault(thing, set()).add(Decimal(child))
    elif isinstance(node, (list, tuple)):
        things = list_nouns(name) if name is not None else ()
        named.update(things)
        for thing in things:
            held = backing.setdefault(thing, set())
            held.add(Decimal(len(node)))
            held.update(Decimal(str(item)) for item in node
                        if isinstance(item, (int, float)) and not isinstance(item, bool))
        for child in node:
            if isinstance(child, (Mapping, list, tuple)):
                _collect_counted(child, None, row_rules, backing, named)
    elif name is not None and isinstance(node, (int, float, Decimal)) \
            and not isinstance(node, bool) and node >= 0 and not _names_place(name):
        parts = _NAME_WORDS.findall(name)
        lowered = [part.casefold() for part in parts]
        # ``avg_views_per_post`` counts views (of a post), never posts: what follows "per" is
        # what the number is divided by
        words = field_words("_".join(parts[:lowered.index("per")])) if "per" in lowered \
            else field_words(name)
        # ``refills_remaining``, ``remaining_refills``, ``rooms_left`` count refills and rooms
        core = words - _LEFT_WORDS if not _LEFT_WORDS.isdisjoint(words) else words
        if len(core) == 1 and _AGGREGATE_WORDS.isdisjoint(
                word.casefold() for word in _NAME_WORDS.findall(name)):
            named.update(core)
        if not _MEASURE_WORDS.isdisjoint(words):
            return      # ``review_score``, ``review_scale``: a measure of reviews, no count
        for word in words:
            backing.setdefault(word, set()).add(Decimal(str(node)))


# A field that names a place (``seat: 22``, ``seat_number``, ``row``, ``gate``, ``floor``,
# ``room_no``): its number identifies one, and counts none ("22 seats" is no seat number).
_PLACE_WORDS = frozenset({"seat", "row", "section", "gate", "room", "platform", "floor", "block",
                          "berth", "cabin", "aisle", "pitch", "stand", "door", "table", "bay",
                          "deck", "sitz", "platz", "reihe", "etage", "siege",
                          "rang", "place", "fila", "asiento", "posto"})
_PLACE_ID_WORDS = frozenset({"number", "no", "nr", "num", "id", "code", "label", "ref"})


@functools.lru_cache(maxsize=1024)
def _names_place(name: str) -> bool:
    """Whether a field named ``name`` names a place by its number: a place's word, singular,
    maybe with a word of a number after it (``seat``, ``seat_number``, ``gateNo``, ``room_id``;
    not ``seats``, ``rooms`` or ``seat_count``)."""
    words = key_words(name)
    return bool(words) and words[0] in _PLACE_WORDS and _PLACE_ID_WORDS.issuperset(words[1:])


# The words of a name that make its number a measure of the things, not a count of them
# (``review_score``, ``review_scale``; an average is of the things counted: ``avg_views_per_post``
# backs "178,553 views").
_MEASURE_WORDS = frozenset({"score", "scale", "ratio", "pct", "percent", "percentage"})
# The words of a name that say the things it counts are what is left ("refills_remaining").
_LEFT_WORDS = frozenset({"left", "remaining", "stock"})
# The words of a field that holds only a count ("count", "total_count", "num"), and the words
# of a summary's name that are not what it counts ("reviews_summary", "follower_stats").
_COUNT_KEY_WORDS = frozenset({"count", "counts", "cnt", "num", "number", "n", "nr"})
_SUMMARY_WORDS = frozenset({"summary", "stats", "statistics", "info", "meta", "metadata",
                            "aggregate", "overview", "totals", "total", "data", "count"})
# What a summary of ratings is named for ({"ratings": {...}}, "reviews_summary"), and what a
# sibling of its count is named when it is an average rating ({"avg_rating": 4.4, "count":
# 1873}, "stars", "mean_score"; not "avg_price").
_RATED_WORDS = frozenset({"rating", "ratings", "review", "reviews"})
_RATING_WORDS = frozenset({"rating", "ratings", "stars", "star", "score", "scores"})
_AVERAGE_WORDS = frozenset({"average", "avg", "mean", "value"})


def _count_key(key: str, value: Any) -> bool:
    """Whether ``key`` holds nothing but a count: a whole number at least 0 in a field named
    only like one ("count", "total_count", "num"; not "total", which an amount is named)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        return False
    words = set(key_words(key))
    return bool(words & _COUNT_KEY_WORDS) and words <= _COUNT_KEY_WORDS | {"total", "of"}


def _summary_things(node: Mapping, name: str | None) -> tuple[str, ...]:
    """What the count of a summary object counts (``Evidence.counted``): its own name's head
    without words such as summary and stats ({"reviews_summary": {"count": 1873}} counts
    reviews, {"followers": {"count": 120}} followers), and reviews and ratings when the object
    summarises ratings: it is named for ratings or reviews ({"rating": {"average": 4.4,
    "count": 1873}}), or a sibling of the count is a rating or an average rating, score or stars
    ({"avg_rating": 4.4, "count": 1873}). A page of reviews beside it is a sample, not their
    number. A count beside another average ({"sales_30d": {"count": 140, "avg_price": 74.5}})
    counts no reviews."""
    things = []
    if name is not None:
        words = [word for word in key_words(name) if word not in _SUMMARY_WORDS]
        if words:
            things.append(noun(words[-1]))
    if name is not None and not _RATED_WORDS.isdisjoint(key_words(name)) \
            or any(_rating_name(str(key)) for key in node):
        things += ["review", "rating"]
    return tuple(things)


@functools.lru_cache(maxsize=4096)
def _rating_name(key: str) -> bool:
    """Whether a field named ``key`` holds a rating or an average of ratings: "rating",
    "avg_rating", "stars", "mean_score", "ratingValue" (not "avg_price", nor "average" alone,
    whose object's name must then say what it averages)."""
    words = set(key_words(key))
    if not words or not words <= _RATING_WORDS | _AVERAGE_WORDS:
        return False
    return not words.isdisjoint(_RATED_WORDS | {"stars", "star"}) \
        or not words.isdisjoint(_RATING_WORDS) and not words.isdisjoint(_AVERAGE_WORDS)


def noun(word: str) -> str:
    """A list's name or a counted word, reduced for comparison: "rounds" -> "round"."""
    word = word.casefold().strip(".,;:!?)(")
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def _number_or_none(text: str) -> Decimal | None:
    try:
        value = Decimal(str(text).strip())
    except InvalidOperation:
        return None
    return value if value.is_finite() else None


def _plain_number(text: str, locale: str) -> bool:
    """A string that is just a number ("1299", "4.6%") is a figure, not a name."""
    from rulekit.numbers import parse_number

    return len(text) <= 40 and parse_number(text, locale) is not None


def queryless_url(text: str) -> str:
    """``text`` as ``_url`` stores it, without its query (``Evidence.queryless_urls``)."""
    try:
        return _url(normalise_url(text, query="drop"))
    except ValueError:          # an unreadable port: no link of the evidence
        return ""


class _FieldTargets:
    """Fields a ruleset names, as the sweep's settings give them: an entity's field at its
    ``from evidence`` path ("$.posts[*].url": a key of that name elsewhere is not one), or by
    name ("post.url", "url")."""

    def __init__(self, targets: Iterable[str]):
        self.names = {t for t in targets if not t.startswith("$")}
        self.paths = frozenset(_ANY_INDEX.sub("[*]", t) for t in targets if t.startswith("$"))
        self.path_names = frozenset(t.rsplit(".", 1)[-1] for t in self.paths)

    def __bool__(self) -> bool:
        return bool(self.names or self.paths)

    def holds(self, keys: tuple[str, ...], path: str) -> bool:
        """Whether the value at ``path`` (its keys ``keys``) is one of these fields'."""
        if not keys:
            return False
        return keys[-1] in self.names or ".".join(keys[-2:]) in self.names or (
            keys[-1] in self.path_names and _ANY_INDEX.sub("[*]", path) in self.paths)


def _url(text: str) -> str:
    """``text`` as the URLs of the evidence are stored (``normalise_url``). Cached: the same
    links recur in every answer and every build of the same evidence, and normalising parses
    the URL. Links longer than a browser would take are normalised without caching."""
    if len(text) > _CACHED_URL_LENGTH:
        return _url_uncached(text)
    return _url_cached(text)


_CACHED_URL_LENGTH = 2048


@functools.lru_cache(maxsize=4096)
def _url_cached(text: str) -> str:
    return _url_uncached(text)


def _url_uncached(text: str) -> str:
    try:
        return normalise_url(text, default_scheme="https")
    except ValueError:
        return text.casefold()


def _site(link: str) -> str:
    """"https://shop.example" for "https://shop.example/help/returns"; "" for a link without
    a host or one that cannot be split."""
    try:
        part = urllib.parse.urlsplit(link)
    except ValueError:
        return ""
    return f"{part.scheme}://{part.netloc}" if part.scheme and part.netloc else ""


def _relative(text: str) -> str:
    path = text.split("#", 1)[0]
    return path[:-1] if len(path) > 1 and path.endswith("/") else path
