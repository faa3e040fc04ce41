"""The text a model writes outside the slots of its template.

``prose shapes``: the template must be made of approved sentence shapes, each slot holding the
field the shape binds. ``prose guarded``: any prose is allowed except statements a slot-less
sentence cannot back: comparatives, causes, promises and generalisations. ``prose free``:
anything. In every mode the prose is then swept (see check._swept_prose): facts travel only
through slots.

Free text audited under a ruleset (``rulekit.audit``) is held to ``prose guarded`` too, by the
same finder (``guarded_spans``), except for negations and for words that are not the answer's
own: a quote of the evidence or of the question, a name the evidence holds, a link, a figure
the sweep judges (``with_guarded``).
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from typing import Any, Mapping, Sequence

from rulekit.findings import Finding, _new_finding
from rulekit.policy import Template
from rulekit.scan.base import _ascii_lower, _trie
from rulekit.scan.reader import clean
from rulekit.scan.when import zone_after
from rulekit.template import ParsedTemplate
from rulekit.units import UNIT_OF, UNIT_WORDS, named_tax_basis, named_units, per_after, \
    per_before, stated_tax_basis, tax_basis_words

_SLOT_MARK = "\x00"
NEGATION = "a negation"
PROMISE = "a promise"
# What the business did with the customer's money, said as done ("your card was charged", "we
# refunded $35", "a refund has been issued"): backed in free text when the evidence records such
# an event (``_event_recorded``), a promise otherwise.
EVENT = "a past charge, refund or credit"
# What a phrase of the ruleset's own list states (``prose guarded forbid "..."``).
FORBIDDEN = "words the rules forbid"

# Words that make a factual statement without a slot to verify it (seed 002: "a cheap
# classifier over the non-slot text, flagging comparatives, quantities and causal claims"), by
# what they state: a finding names it.
GUARDED_KINDS = (
    ("a cause", ("because", "due to", "since", "as", "therefore", "as a result", "caused by",
                 "owing to", "thanks to", "on account of", "held up by", "that's why",
                 "that’s why", "which is why")),
    ("a generalisation", ("usually", "typically", "normally", "generally", "unusual",
                          "unusually", "always", "never", "often", "rarely", "all the time")),
    ("a promise", ("guarantee", "guaranteed", "promise", "definitely", "certainly",
                   "will arrive", "will be delivered", "will ship", "by tomorrow",
                   "will be with you", "it'll be with you", "it’ll be with you",
                   "they'll be with you", "they’ll be with you", "will reach you",
                   "it'll reach you", "it’ll reach you", "assure you", "rest assured",
                   "for life", "lifetime", "in no time")),
    # (a refund, a credit, a waiver, a charge... is read by its frame: ``_MONEY_WORD``)
    ("a comparison", ("more than", "less than", "fewer than", "at least", "at most", "cheaper",
                      "cheapest", "more expensive", "faster", "fastest", "slower", "higher",
                      "highest", "lower", "lowest", "larger", "largest", "smaller", "smallest",
                      "best", "worst", "most", "least", "best-selling", "bestselling",
                      "best seller", "best-seller", "bestseller", "top seller", "top-selling",
                      "top pick", "top-rated", "top rated", "improved", "improvement",
                      *(f"{word} than {what}" for word in ("better", "worse") for what in (
                          "your", "my", "our", "the", "last", "before", "ever", "expected",
                          "usual", "most", "other", "others", "yesterday")),
                      *(f"{how} {side}" for side in ("above", "below") for how in (
                          "well", "far", "way", "just")),
                      "above average", "below average", "compared with", "compared to",
                      "bargain", "great deal", "good deal", "superior", "inferior",
                      "selling fast",
                      # a market's records and runs: each a comparison with every day before
                      *(f"{what} {side}" for side in ("high", "low") for what in (
                          "record", "record-breaking", "all-time", "new", "multi-year",
                          "multiyear")),
                      "record-high", "record-low", "record close", "record closing",
                      "record territory", *(f"{most} {what}" for most in ("biggest", "largest")
                                            for what in ("gain", "gains", "rise", "jump",
                                                         "drop", "fall", "decline", "loss")),
                      "outperformed", "outperforming", "outperforms", "underperformed",
                      "underperforming", "underperforms", "winning streak", "losing streak")),
    ("a quantity", ("twice", "double", "half", "dozen")),
    # a negation turns a slot's value around ("Your order is not {status} yet", "there is no
    # balance left"); any word ending in n't is one too
    (NEGATION, ("not", "no longer", "no", "no one", "nobody", "nothing", "nowhere", "neither",
                "nor")),
)
GUARDED_PHRASES = tuple(phrase for _, phrases in GUARDED_KINDS for phrase in phrases)
_KIND_OF = {phrase: kind for kind, phrases in GUARDED_KINDS for phrase in phrases}
# What the model is told instead, in free text (``rulekit.audit.feedback``).
GUARDED_ADVICE = ("make no promises, comparisons, causes or generalisations (because, usually, "
                  "cheaper, guaranteed...)")
# Words that say whether something is in stock: allowed only in a sentence that holds a slot of
# a stock field, whose verified value they must agree with (``stock_words``): "{name} is
# {price} and in stock" said nothing verified of the stock, which was 0.
STOCK_SOME = ("in stock", "available", "back in stock", "restocked", "we have it")
STOCK_NONE = ("out of stock", "sold out", "unavailable", "none left", "all gone")
STOCK_ONE = ("last one", "only one")
_STOCK_WORDS = re.compile(r"(?<![\w-])(" + "|".join(re.escape(p) for p in sorted(
    STOCK_SOME + STOCK_NONE + STOCK_ONE, key=len, reverse=True)) + r")(?![\w-])", re.IGNORECASE)
# Around a slot, words that state its value as a stock level: "{n} left", "{n} units in stock",
# "only {n} remaining", "we have {n} of", "Stock: {n}". Beside a slot that is not a stock field
# they state a stock nothing verified (``stock_figures``). Each is matched at a slot's edge: the
# words after it from the start of the next piece, the words before it in the last
# ``_STOCK_TAIL`` characters of the piece before.
_COUNT_NOUN = r"(?:units?|pieces?|items?|pcs\.?|pairs?|of (?:them|these|those|it))"
_STOCK_AFTER = re.compile(
    rf"[ \t\u00a0]*(?:{_COUNT_NOUN}[ \t\u00a0]+)?(?:(?:still|currently|now|more)[ \t\u00a0]+)?"
    r"(?:left|remaining|in stock|in store|on hand|available)(?![\w-])"
    r"(?![ \t\u00a0]+to(?![\w-]))", re.IGNORECASE)
_COUNTED_AFTER = re.compile(rf"[ \t\u00a0]+(?:of|{_COUNT_NOUN})(?![\w-])", re.IGNORECASE)
_HAVE_BEFORE = re.compile(r"(?<![\w'’])(?P<who>we|you)(?:['’]ve| (?:still |now )?have)(?: got)?"
                          r"[ \t\u00a0]+(?:only[ \t\u00a0]+|just[ \t\u00a0]+)?\Z", re.IGNORECASE)
_STOCK_LABEL = re.compile(
    r"(?<![\w-])(?:(?:in stock|stock(?: level| left)?|units left|left|remaining|available|"
    r"inventory|on hand)[ \t\u00a0*_]*[:=]|(?:stock(?: level)?|inventory) (?:is|of))"
    r"[ \t\u00a0*_]*\Z", re.IGNORECASE)
_STOCK_TAIL = 48
# A cheap first look: could the prose hold any of those words?
_STOCK_CUE = re.compile(r"left|remain|stock|availab|on hand|inventor|we(?:['’]ve| (?:still |now )?"
                        r"have)", re.IGNORECASE)
# Where a template's sentence ends: a stop before white space, or a line break (a list).
SENTENCE_END = re.compile(r"[.!?\u3002\uff01\uff1f](?=\s|$)|\n")
_LABEL_REST = re.compile(r"[ \t\u00a0*_]*:?[ \t\u00a0*_]*")
# Before a stock word, a verb that makes it a statement, not a label: "{name} is in stock:
# {stock} left", "is still available: {stock} left" say there is some stock, whatever the
# colon after them.
_STATED_BEFORE = re.compile(r"(?:(?<![\w'])(?:is|are|was|were|be|been|being)|'s|'re)"
                            r"(?:[ \t\u00a0]+(?:still|currently|now|also|already|all|not|"
                            r"no longer|back))*[ \t\u00a0]*\Z", re.IGNORECASE)
# "as" is a cause before a clause whose subject is a thing or a party and whose verb is a state
# ("as the warehouse was short-staffed", "as your order A-1001 has shipped"), read after the
# trie found it: not "as soon as", "as long as", "the same as" (the words before it), nor "as
# you'll need it" (a reason for a request) or "as requested" (the words after it).
_AS_CLAUSE = re.compile(r" (?:the|our|their|its|your|his|her|this|that|these|those|we|they) "
                        r"(?:[\w-]+ ){0,2}(?:was|were|is|are|has|had|have|did)(?:n['’]t)?"
                        r"(?![\w-])")
_AS_NOT_A_CAUSE = re.compile(r"(?<![\w-])(?:soon|long|well|much|such|same|just|far) \Z")
# The phrases as one trie, matched in the ASCII-lower-cased text (which keeps every offset): a
# whole word or words, never part of one ("almost", "highlights", "most_recent", "non-stop").
# A word ending in n't is found at its n't and read back to its start. Without the negations for
# free text (``with_guarded``).
_GUARDED = re.compile(rf"(?<![\w-])(?:{_trie(GUARDED_PHRASES)})(?![\w-])"
                      r"|(?P<nt>(?<=\w)n['’]t(?![\w-]))")
_GUARDED_STATEMENTS = re.compile(
    rf"(?<![\w-])(?:{_trie(p for p in GUARDED_PHRASES if _KIND_OF[p] != NEGATION)})(?![\w-])")
# Set phrases that hold one but state nothing: a sign-off, "your most recent order", "more than
# happy to help", "the most common question", and "since" saying when ("since 30 November",
# "since Monday", "since 9 am") or why the answer says what it says ("since you asked"), not
# what caused what. Matched where a phrase starts.
_WHEN = _trie("january february march april may june july august september october november "
              "december jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday "
              "wednesday thursday friday saturday sunday then yesterday today last earlier "
              "early late noon midnight".split() + [
                  f"the {at}" for at in ("start", "beginning", "end")] + [
                  f"this {part}" for part in ("morning", "afternoon", "week", "month", "year")])
_IDIOMS = re.compile(
    r"(?:(?:best (?:regards|wishes)|most recent(?:ly)?|more than (?:happy|welcome)"
    r"|most (?:common|frequent|frequently asked) questions?|no (?:problem|worries|later than)"
    rf"|since (?:you (?:asked|mentioned|wrote|said|wanted|requested)|{_WHEN}))(?![\w-])"
    r"|since [0-9])")
# Set phrases whose guarded word comes last, by that word: the words right before it ("do my
# best", "make the most of", "allow at least a few minutes", "you'll need at least one item":
# an effort or a requirement, not a comparison of facts).
_BEFORE_IDIOMS = {
    "best": re.compile(r"(?<![\w'’])(?:do|did|does|doing|try|tried|tries|trying) "
                       r"(?:my|our|your|his|her|their) \Z"),
    "most": re.compile(r"(?<![\w'’])(?:make|made|makes|making) the \Z"),
    "at least": re.compile(r"(?<![\w'’])(?:allow|wait|need|needs|needed|add|enter|choose|"
                           r"select|pick|spend|order|buy|keep) \Z"),
}
# A markdown heading names what follows ("## Our best options"), it states nothing of it.
_HEADING_WORDS = frozenset(("best", "top pick"))
# "no." and "No:" before a number or a slot are the abbreviation of number ("Invoice no.
# {invoice_id}": the slot leaves two spaces, or the text's end, in the template's own words).
_NUMBER_ABBREVIATION = re.compile(r"[.:](?:[ \t\u00a0]+\Z|[ \t\u00a0]*[0-9#]|[ \t\u00a0]{2})")

# --- the promise reading: what the business does with the customer's money or account -------
# A word of such an action is found first, in one literal-first pass: a verb (refund, credit,
# reimburse, compensate, waive, charge, cancel, apply, issue, void, discount) or a noun (a refund,
# a credit, a fee, a discount, a code...). Only around one is its frame read, in a bounded
# window, which makes it a statement of an action done, to be done or promised:
# - an agent and an auxiliary before the verb: "We'll refund", "I've issued", "we can refund",
#   "our billing team will credit", "we refunded"; not in a question put as an offer ("Shall I
#   cancel it?"), after "if" or "whether", nor when the assistant says it cannot ("I can't
#   issue refunds": what it cannot do is its limit, not a promise);
# - the passive: "you won't be charged", "your card will be charged", "it has been refunded",
#   and for a verb that is always about money, any subject ("the fee has been waived");
# - a noun and what happens to it: "a refund has been issued", "your refund will be processed",
#   "a credit has been applied", "your refund is on its way";
# - the customer receiving it: "you'll get a full refund", "you're due a credit"; and the agent
#   giving it: "I'll give you a refund", "we've added a credit".
# A noun that names something else ("refund requests", "your refund status") and what the
# customer may do ("You can request a refund") state no action. English only.
_FORMS = (  # verb: base, third person, past (and participle), -ing
    ("refund", "refunds", "refunded", "refunding"),
    ("reimburse", "reimburses", "reimbursed", "reimbursing"),
    ("compensate", "compensates", "compensated", "compensating"),
    ("waive", "waives", "waived", "waiving"),
    ("credit", "credits", "credited", "crediting"),
    ("charge", "charges", "charged", "charging"),
    ("cancel", "cancels", "cancelled", "cancelling", "canceled", "canceling"),
    ("apply", "applies", "applied", "applying"),
    ("issue", "issues", "issued", "issuing"),
    ("void", "voids", "voided", "voiding"),
    ("discount", "discounts", "discounted", "discounting"),
    ("reverse", "reverses", "reversed", "reversing"),
    ("cover", "covers", "covered", "covering"),
)
_ALWAYS_MONEY = frozenset(("refund", "reimburse", "compensate", "waive"))
# Verbs that act on money only with a money noun as their object: "we'll issue a credit", "we'll
# apply the discount" (a discount applied lowers what the customer pays: a promise about money
# that nothing backs), "we'll reverse the charge", "we'll cover the cost"; not "we'll issue a
# tracking number", "we will issue a receipt", "we'll apply any payment to the oldest balance".
# Read only after an agent (``_AGENT``); their passive is read by the noun ("the charge will be
# reversed", "your discount has been applied").
_GIVEN = r"refunds?|credits?|reimbursements?|compensation|discounts?|coupons?|vouchers?|waivers?|codes?"
_OBJECT_NOUNS = {"issue": _GIVEN, "apply": _GIVEN,
                 "reverse": r"charges?|payments?|transactions?|fees?|debits?|money",
                 "cover": r"costs?|charges?|fees?|bills?|shipping|difference|price|money"}
_OBJECTS = {verb: re.compile(
    r"(?:\s+(?:a|an|the|your|this|that|these|those|any|full|partial|complete|prorated|pro-rated|"
    r"store|promo|promotional|gift|one-time|one-off|late|extra|additional|return|shipping))*"
    rf"\s+(?:{nouns})(?![\w-])") for verb, nouns in _OBJECT_NOUNS.items()}
# A charge said in the simple present with when or in what currency it happens ("Your card is
# charged when the order ships", "Card payments are charged in USD") says how billing works,
# not an action done or promised on this customer's money.
_PRESENT_BE = frozenset(("is", "are", "'s", "’s", "'re", "’re"))
_HABITUAL = re.compile(r"\s+(?:when|whenever|once|after|before|each|every|monthly|annually|"
                       r"yearly|weekly|daily|at\s+checkout|in\s+(?:usd|eur|gbp|cad|aud|nzd|jpy|chf|"
                       r"sek|nok|dkk|pln|inr|cny|mxn|brl|sgd|hkd|krw|zar|(?:your\s+|the\s+)?local"
                       r"\s+currency|your\s+currency))(?![\w-])")
_TENSES = ("base", "s", "past", "ing", "past", "ing")
# form -> (verb, tense)
_VERB_FORMS = {form: (forms[0], _TENSES[index]) for forms in _FORMS
               for index, form in enumerate(forms)}
_MONEY_NOUNS = frozenset((
    "refund", "refunds", "credit", "credits", "reimbursement", "reimbursements", "compensation",
    "waiver", "waivers", "discount", "discounts", "coupon", "coupons", "voucher", "vouchers",
    "cancellation", "charge", "charges", "fee", "fees", "payment", "payments", "code", "codes"))
# Read by what happens to it (``_NOUN_AFTER``: "the money for it is coming back to your card")
# and by who gives it ("we'll send the money back"), not by who receives it: "you'll get your
# money back" is left as it was (docs/sweep.md, known gaps).
_MONEY_SUBJECTS = frozenset(("money",))
_MONEY_WORD = re.compile(_trie(sorted(set(_VERB_FORMS) | _MONEY_NOUNS | _MONEY_SUBJECTS),
                               guard=r"[\w-]")
                         + r"(?![\w-])")
_WINDOW = 80
# The words between a subject and its verb: auxiliaries, negations, adverbs, "going to", "go
# ahead and", "happy to".
_AUX = (r"(?:will|shall|would|should|can|could|may|might|must|do|does|did|have|has|had|am|is|"
        r"are|was|were|be|been|being|get|gets|got|going|to|gonna|able|unable|now|just|already|"
        r"also|then|still|gladly|happily|automatically|immediately|personally|fully|partially|"
        r"successfully|definitely|certainly|actually|manually|soon|go|gone|went|ahead|and|not|"
        r"never|want|need|try|happy|glad|(?:won|wouldn|shouldn|can|couldn|don|doesn|didn|haven|"
        r"hasn|hadn|isn|aren|wasn|weren|shan)['’]t|cannot)")
_AGENT_WHO = (r"(?P<who>i|we|our(?:\s+[\w-]+)?\s+team|(?:the\s+|our\s+)?(?:billing|support|"
              r"accounts)(?:\s+team)?)")
_CONTRACTION = r"(?:['’](?:ll|ve|d|m|re|s))?"
_AGENT = re.compile(rf"(?<![\w'’-]){_AGENT_WHO}(?P<chain>{_CONTRACTION}(?:\s+{_AUX})*)\s+\Z")
_PASSIVE_END = (r"(?:\s+|['’])(?:be|been|being|is|are|was|were|get|gets|got|getting|re|s|m)"
                r"(?:\s+(?:just|already|also|now|fully|partially|automatically|successfully|"
                r"immediately|not|never|still|yet))*\s+\Z")
_PASSIVE = re.compile(rf"(?<![\w'’-])(?P<who>you|your(?:\s+[\w-]+){{1,2}}|it|this|that)"
                      rf"{_CONTRACTION}(?:\s+{_AUX})*?{_PASSIVE_END}")
_PASSIVE_ANY = re.compile(rf"(?<![\w'’-])(?P<who>{_AUX})(?:\s+{_AUX})*?{_PASSIVE_END}")
_PARTICIPLES = ("refunded|reimbursed|compensated|waived|credited|charged|cancell?ed|canceled|"
                "applied|issued|voided|discounted|processed|approved|sent|initiated|paid|added|"
                "reversed|removed|granted|released|started|arranged|scheduled|confirmed|"
                "completed|submitted|deducted|posted|returned")
_NOUN_AFTER = re.compile(
    r"(?:\s+(?:request|requests|amount|note|payment|code))?"
    # what it is of or for: "the charge on INV-1 will be reversed", "the money for it is coming"
    r"(?:\s+(?:on|for|of)(?:\s+[^\s.,;:!?]+){0,3}?)?"
    rf"(?:['’]s|\s+{_AUX})*\s+"
    rf"(?P<what>{_PARTICIPLES}|on\s+(?:its|the)\s+way|underway|under\s+way|in\s+progress|"
    r"pending|coming|complete|done|ready|arrive|arrives|arriving|reach\s+you|land|appear|"
    r"show\s+up|go\s+through|clear)(?![\w-])")
_SOME = (r"(?:\s+(?:a|an|the|your|this|that|full|partial|complete|prorated|pro-rated|small|"
         r"one-time|one-off|late))*")
_RECEIVER = re.compile(
    rf"(?<![\w'’-])(?P<who>you)(?:['’](?:ll|re|ve|d))?(?:\s+{_AUX})*?\s+(?:get|gets|getting|got|"
    r"receive|receives|receiving|received|see|seeing|given|issued|sent|owed|due|entitled\s+to|"
    rf"eligible\s+for|qualify\s+for|qualified\s+for|expect|expecting){_SOME}\s+\Z")
_GIVER = re.compile(
    rf"(?<![\w'’-]){_AGENT_WHO}(?P<chain>{_CONTRACTION}(?:\s+{_AUX})*?)\s+(?:give|gives|gave|"
    r"given|giving|send|sends|sent|sending|offer|offers|offered|offering|process|processes|"
    r"processed|processing|arrange|arranged|arranging|add|adds|added|adding|provide|provided|"
    r"providing|approve|approved|approving|grant|granted|granting|initiate|initiated|initiating|"
    rf"put\s+through|get|got|getting)(?:\s+(?:you|it|them))?{_SOME}\s+\Z")
# Before a subject: a question it is embedded in ("whether we can refund it").
_EMBEDDED = re.compile(r"(?<![\w'’-])(?:if|whether|unless)\s+\Z")
# Before a money noun and what happens to it: the "if" of a supposition, a determiner and up
# to two words ("if your payment arrives", "unless the late fee is waived").
_EMBEDDED_NOUN = re.compile(r"(?<![\w'’-])(?:if|whether|unless)\s+(?:[\w'’$-]+(?:[.,]\d+)*\s+){0,3}\Z")
# Money nouns whose "is pending" states a record's state (a card's pending charge), judged like
# one said as done (``_event_recorded``), not a promise.
_PENDING_RECORDS = frozenset(("charge", "charges", "payment", "payments"))
# In a chain: the assistant saying what it cannot do.
_CANNOT = re.compile(r"can['’]t|cannot|can not|unable|not able|couldn['’]t")
# After a noun: the noun it qualifies ("refund status", "credit card"), which names a thing.
_QUALIFIES = re.compile(r"\s+(?:status|request|requests|policy|policies|form|page|settings|"
                        r"history|options?|card|method|details|section|tab|team|process|"
                        r"eligibility|terms|rules|limit|link|button|portal|window|period|reason|"
                        r"questions?|balance)(?![\w-])")


# Right after a slot, a word that changes what its value says: a unit, a scale, a currency or a
# time zone ("{weight} lb" for kilograms, "{price} AUD", "{price}k", "{time} UTC"); right before
# it, letters or a sign glued to it ("CA{price}" renders "CA$1,299.00"). Code formats each value;
# a unit word is allowed only when the field's own name or label says it ("{weight_kg} kg",
# "{return_days} days"), a currency code only when it is the field's, "UTC" only for a field
# kept in UTC, and a scale never (``slot_modifiers``). A unit may be joined by a hyphen
# ("a {days}-day supply").
_AFTER_SLOT = re.compile(
    rf"(?:[ \t\u00a0]*|-(?=(?i:{UNIT_WORDS})(?![\w])))"
    r"(?P<paren>\()?(?P<word>[A-Z]{3}|UTC|GMT|[ECMP][SD]?T|BST|CET|CEST|IST|JST|AEST|"
    r"AEDT|[kKM]|bn|hundred|grand|thousand|million|billion|percent|per ?cent|points?|pts|"
    r"(?i:dollars?|bucks|euros?|pounds sterling|quid|yen|yuan|francs?|rupees?|"
    r"eur|usd|gbp|jpy|cny|chf|aud|nzd|inr|sek|nok|dkk|pln|brl|mxn|krw)|"
    rf"[A-Z][a-z]+(?:[ \u00a0][A-Z][a-z]+)?[ \u00a0]time|"
    rf"(?i:{UNIT_WORDS})|local time)"
    r"(?(paren)\)|)(?![\w])|(?P<word2>%)")
_BEFORE_SLOT = re.compile(r"(?<![\w])[A-Za-z]{1,3}\Z|[$€£¥]\Z")
# Words right before a slot that make its number a price ("{name} costs {stock}", "priced at
# {count}"), held against a slot that is no amount of money (``slot_modifiers``).
_PRICED_BEFORE = re.compile(r"(?<![\w])(?:costs?|costing|priced at|sells? for|selling for|"
                            r"price(?: is|:)|charged?|pay)[ \t\u00a0]+\Z", re.IGNORECASE)
_COUNTED_KINDS = frozenset({"integer", "decimal"})
# Words beside a money slot that say it is taken off a price ("Save {price}", "{price} off",
# "{price} discount", "{price} back"), allowed only beside a field whose name or label says it
# is one (a discount, a saving, a refund, a credit...: ``_DEDUCTION_FIELD``).
_DISCOUNT_AFTER = re.compile(r"[ \t\u00a0]*(?:off|discount|rebate|cash[ -]?back|savings?|saved|"
                             r"back(?![ \t\u00a0]+in[ \t\u00a0]+stock))(?![\w-])", re.IGNORECASE)
_DISCOUNT_BEFORE = re.compile(r"(?<![\w-])(?:save|saves|saving|savings of|a saving of|"
                              r"discount(?:ed)? (?:of|by)|reduced by)"
                              r"[ \t\u00a0]+(?:up[ \t\u00a0]+to[ \t\u00a0]+)?\Z",
                              re.IGNORECASE)
_DEDUCTION_FIELD = re.compile(r"discount|rebate|coupon|voucher|promo|deduction|markdown|saving|"
                              r"credit|refund|cash[ _-]?back|reduction|off\b", re.IGNORECASE)
_SCALES = frozenset("k K M bn hundred grand thousand million billion".split())
# Currency words after a slot, and the currencies each may name: "{price} euros" repeats a
# price in EUR, and says another currency of one in USD.
_CURRENCY_WORDS = {"dollar": {"USD", "CAD", "AUD", "NZD", "SGD", "HKD", "MXN"}, "buck": {"USD"},
                   "euro": {"EUR"}, "pound": {"GBP"}, "pounds sterling": {"GBP"}, "quid": {"GBP"},
                   "yen": {"JPY"}, "yuan": {"CNY"}, "franc": {"CHF"}, "rupee": {"INR"}}
_ZONES = frozenset("UTC GMT".split())
# Slots whose value is a time: a zone said after one must be its field's (``_its_own_zone``).
_TIMED_KINDS = frozenset({"timestamp", "date", "time"})


def _its_own_zone(zone: Any, field: Any) -> bool:
    """Whether ``zone`` (``rulekit.dates.written_zone``'s) is the zone ``field`` is kept in: the
    same IANA zone ("Pacific" for America/Los_Angeles), or UTC for a field kept in UTC."""
    own = getattr(field.type, "zone", None) or ""
    key = getattr(zone, "key", None)
    if key is not None:
        return key == own
    return isinstance(zone, dt.timezone) and zone.utcoffset(None) == dt.timedelta(0) \
        and own in ("UTC", "Etc/UTC")


def _skeleton(pieces: Sequence[str], slot_fields: Mapping[str, str]) -> str:
    """Literal text with white space collapsed, each slot replaced by a marked `entity.field`."""
    out = []
    for index, piece in enumerate(pieces):
        out.append(piece if index % 2 == 0 else f"{_SLOT_MARK}{slot_fields.get(piece, '?')}{_SLOT_MARK}")
    return " ".join("".join(out).split())


# Templates come from the model; only those of sentence length are cached, so the caches below
# stay small whatever a model writes (a longer template is simply worked out every time).
CACHED_LENGTH = 2048


def matches_shapes(template: ParsedTemplate, slot_fields: Mapping[str, str],
                   shape_skeletons: tuple[str, ...]) -> bool:
    """True when the template is one or more approved shapes, one after the other, each slot
    holding the field its shape binds (``slot_fields``: slot name -> "entity.field";
    ``shape_skeletons`` from ``skeletons(policy.shapes)``, which a Policy keeps)."""
    bindings = tuple(slot_fields.items())
    if sum(map(len, template.pieces)) <= CACHED_LENGTH:
        return _matches_cached(template.pieces, bindings, shape_skeletons)
    return _matches(template.pieces, bindings, shape_skeletons)


def _matches(pieces: tuple[str, ...], bindings: tuple[tuple[str, str], ...],
             shape_skeletons: tuple[str, ...]) -> bool:
    return _segments(_skeleton(pieces, dict(bindings)), shape_skeletons)


# A model reuses its few templates with different values, and the answer depends only on the
# template, which slot holds which field, and the approved shapes: all in the key.
_matches_cached = functools.lru_cache(maxsize=1024)(_matches)


def skeletons(shapes: Sequence[Template]) -> tuple[str, ...]:
    return tuple(_skeleton(s.pieces, {slot.name: f"{slot.entity}.{slot.field}" for slot in s.slots})
                 for s in shapes)


def wordings(shapes: Sequence[Template]) -> tuple[str, ...]:
    """The approved shapes' words alone, each slot a bare mark: what a template is worded as,
    whatever its slots are named and hold (``worded_as``)."""
    return tuple(_loose(_skeleton(s.pieces, {})) for s in shapes)


# What a wording is compared without (``worded_as``): the case, Markdown emphasis marks (``*``
# and ``_`` runs that do not join two letters) and a sentence's end mark (. ! ? before white
# space or the end). "your subscription renews on {x}!" and "**Your subscription renews on
# {x}.**" are the shape "Your subscription renews on {x}." and held to its bindings.
_EMPHASIS_MARKS = re.compile(r"\*+|(?<![^\W_])_+|_+(?![^\W_])")
_END_MARK = re.compile(r"[.!?]+(?= |\Z)")


def _loose(wording: str) -> str:
    return " ".join(_END_MARK.sub("", _EMPHASIS_MARKS.sub("", wording.lower())).split())


def worded_as(template: ParsedTemplate, shape_wordings: tuple[str, ...]) -> tuple[int, ...] | None:
    """The shapes (their indexes in ``shape_wordings``, from ``wordings``) of one way to cut the
    template's words into approved shapes, with white space collapsed as ``matches_shapes``
    does, the slots left out, and case, emphasis marks and end marks ignored (``_loose``); None when its words are not made of shapes. A template that
    ``matches_shapes`` rejects but is worded as shapes holds some field in a slot its shape
    binds to another."""
    if sum(map(len, template.pieces)) <= CACHED_LENGTH:
        return _worded_cached(template.pieces, shape_wordings)
    return _worded(template.pieces, shape_wordings)


def _worded(pieces: tuple[str, ...], shape_wordings: tuple[str, ...]) -> tuple[int, ...] | None:
    return cut(_loose(_skeleton(pieces, {})), shape_wordings)


def cut(text: str, candidates: Sequence[str]) -> tuple[int, ...] | None:
    """The candidates (by index) of one way to cut ``text`` into candidates separated by single
    spaces, as ``_segments`` does, or None."""
    came_from: dict[int, tuple[int, int] | None] = {0: None}
    for position in range(len(text) + 1):
        if position not in came_from:
            continue
        for index, candidate in enumerate(candidates):
            if candidate and text.startswith(candidate, position):
                end = position + len(candidate)
                end = end + 1 if text.startswith(" ", end) else end
                came_from.setdefault(end, (position, index))
    end = len(text) if len(text) in came_from else len(text) + 1
    if end not in came_from or end == 0:
        return None
    found = []
    while came_from[end] is not None:
        end, index = came_from[end]
        found.append(index)
    return tuple(found[::-1])


# Keyed like ``_matches_cached``: a model reuses its few templates.
_worded_cached = functools.lru_cache(maxsize=1024)(_worded)


def _segments(text: str, candidates: tuple[str, ...]) -> bool:
    """Can ``text`` be cut into candidates separated by single spaces?"""
    reachable = {0}
    for position in range(len(text) + 1):
        if position not in reachable:
            continue
        for candidate in candidates:
            if candidate and text.startswith(candidate, position):
                end = position + len(candidate)
                reachable.add(end + 1 if text.startswith(" ", end) else end)
    return len(text) in reachable or len(text) + 1 in reachable


def guarded_spans(text: str, *, negations: bool = True,
                  forbidden: re.Pattern | None = None) -> list[tuple[int, int]]:
    """Where ``text`` holds a phrase `prose guarded` does not allow, as (start, end) in order:
    the finder of both channels (a template's own words, ``guarded_phrases``; free text,
    ``with_guarded``). ``negations=False`` leaves out "not", "no", "no longer", words ending in
    n't...; ``forbidden`` is the ruleset's own phrases (``Policy.forbidden_pattern``)."""
    return [(start, end) for start, end, _ in _guarded_found(text, negations, forbidden)]


@functools.lru_cache(maxsize=64)
def forbidden_pattern(phrases: tuple[str, ...]) -> re.Pattern | None:
    """A ruleset's own forbidden phrases (``prose guarded forbid``) as one pattern over the
    text as a reader sees it (``_forbidden_found``): each a whole word or words ("refund" is not
    in "refunded" nor in "non-refundable"), in any case, its last word also with -s or -es
    ("refunds"), its spaces any run of white space or hyphens ("free-of-charge"), the longest
    first. Literal-first: the look-behind that makes a word whole comes after its first
    letter."""
    alternatives = []
    for phrase in sorted({" ".join(p.lower().split()) for p in phrases if p.strip()},
                         key=lambda p: (-len(p), p)):
        first = re.escape(phrase[0])
        rest = r"[\s\-\u2010]+".join(re.escape(word) for word in phrase[1:].split(" "))
        alternatives.append(rf"{first}(?<![\w-]{first}){rest}(?:e?s)?")
    if not alternatives:
        return None
    return re.compile(rf"(?:{'|'.join(alternatives)})(?![\w-])", re.IGNORECASE)


def _forbidden_found(text: str, forbidden: re.Pattern) -> list[tuple[int, int]]:
    """Where ``forbidden`` matches ``text`` as a reader sees it (``rulekit.scan.reader.clean``:
    NFKC, format characters such as a zero-width space dropped), as spans of ``text`` itself:
    "r\u200befund" and fullwidth "ｒｅｆｕｎｄ" are "refund"."""
    if text.isascii() and "&" not in text:
        return [match.span() for match in forbidden.finditer(text)]
    cleaned, back = clean(text)
    return [(back[match.start()], back[match.end() - 1] + 1)
            for match in forbidden.finditer(cleaned)]


def _guarded_found(text: str, negations: bool,
                   forbidden: re.Pattern | None) -> list[tuple[int, int, str]]:
    """``guarded_spans`` with what each states (a kind of ``GUARDED_KINDS``, or
    ``FORBIDDEN``): the listed phrases, the promise reading (``_money_spans``) and the
    ruleset's own phrases, those that overlap joined into one, which keeps the kind of the
    first."""
    low = _ascii_lower(text)
    found = []
    for match in (_GUARDED if negations else _GUARDED_STATEMENTS).finditer(low):
        start, end = match.span()
        if match.lastgroup == "nt":
            # "n't": read back to the start of its word ("don't"), which no hyphen may join
            while start and (low[start - 1].isalnum() or low[start - 1] == "_"):
                start -= 1
            if start and low[start - 1] == "-":
                continue
        elif _IDIOMS.match(low, start) or _states_nothing(low, start, end):
            continue
        found.append((start, end, _KIND_OF.get(low[start:end], NEGATION)))
    found += [(start, end, EVENT if past else PROMISE) for start, end, past in _money_spans(low)]
    if forbidden is not None:
        found += [(start, end, FORBIDDEN) for start, end in _forbidden_found(text, forbidden)]
    if len(found) < 2:
        return found
    out: list[tuple[int, int, str]] = []
    for start, end, kind in sorted(found, key=lambda f: (f[0], -f[1])):
        if out and start < out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end), out[-1][2])
        else:
            out.append((start, end, kind))
    return out


def _money_spans(low: str) -> list[tuple[int, int, bool]]:
    """Where the ASCII-lower-cased ``low`` states what the business does with the customer's
    money or account (see ``_FORMS``), as (start, end, whether it is said as done already) in
    order."""
    spans = []
    for match in _MONEY_WORD.finditer(low):
        start, end = match.span()
        word = match.group()
        window = max(0, start - _WINDOW)
        verb, tense = _VERB_FORMS.get(word, (None, None))
        needs = _OBJECTS.get(verb)
        if needs is not None:
            frame = _AGENT.search(low, window, start)
            if frame is not None and _acts(low, frame, tense) and needs.match(low, end):
                spans.append((frame.start("who"), end, _done(tense, frame.group("chain"))))
            continue
        if verb is not None:
            frame = _AGENT.search(low, window, start)
            if frame is not None and _acts(low, frame, tense):
                spans.append((frame.start("who"), end, _done(tense, frame.group("chain"))))
                continue
            if tense == "past":
                frame = _PASSIVE.search(low, window, start)
                if frame is not None and (verb in _ALWAYS_MONEY or frame.group("who") not in (
                        "it", "this", "that")) and not _habitual(
                        low, frame.group(0)[len(frame.group("who")):], word, end):
                    if not _EMBEDDED.search(low, max(0, frame.start() - 12), frame.start()):
                        spans.append((frame.start(), end, _done(tense, frame.group(0))))
                        continue
                frame = _PASSIVE_ANY.search(low, window, start) if verb in _ALWAYS_MONEY else None
                if frame is not None:
                    spans.append((frame.start(), end, _done(tense, frame.group(0))))
                    continue
        if word in _MONEY_NOUNS or word in _MONEY_SUBJECTS:
            after = _NOUN_AFTER.match(low, end)
            if after is not None and not _habitual(low, low[end:after.start("what")],
                                                   after.group("what"), after.end()):
                if _EMBEDDED_NOUN.search(low, max(0, start - 40), start):
                    continue    # "If your payment arrives after March 25, ...": a supposition
                # "a $78.42 charge is pending": the state of a charge, a record like one done
                pending = after.group("what") == "pending" and word in _PENDING_RECORDS
                spans.append((start, after.end(),
                              pending or _done("past", low[end:after.end()])))
                continue
            if _QUALIFIES.match(low, end):
                continue
            frame = _RECEIVER.search(low, window, start) if word in _MONEY_NOUNS else None
            if frame is not None and not _EMBEDDED.search(low, max(0, frame.start() - 12),
                                                          frame.start()):
                spans.append((frame.start(), end, False))
                continue
            frame = _GIVER.search(low, window, start)
            if frame is not None and _acts(low, frame, None):
                spans.append((frame.start(), end, False))
    return spans


_WILL = re.compile(r"\bwill\b|['’]ll\b|\bgoing\s+to\b|\bshall\b|\bwould\b|\bcan\b|\bmay\b")
_DONE = re.compile(r"\b(?:was|were|been|had|has|have)\b|['’]ve\b")


def _done(tense: str | None, chain: str) -> bool:
    """Whether a money action in ``tense``, with ``chain`` the words around its verb ("was",
    "'ve", "has been", "will be"), is said as done already: a past form with no word of the
    future ("we charged", "we've refunded", "was charged"; not "will be charged")."""
    if tense != "past" or _WILL.search(chain):
        return False
    return not chain.split() or _DONE.search(chain) is not None


# The records of each kind of money event (``_event_recorded``): the nouns a key ends with
# ("charge", "payments", "refund_id"), and the short values that say it is done
# ("payment_status": "paid", "status": "refunded").
_EVENT_RECORDS = (("charg", ("charge", "payment", "transaction"), ("paid", "charged", "captured")),
                  ("refund", ("refund",), ("refunded",)),
                  ("reimburs", ("reimbursement", "refund"), ("reimbursed", "refunded")),
                  ("credit", ("credit",), ("credited",)),
                  ("cancel", ("cancellation",), ("cancelled", "canceled")),
                  ("waiv", ("waiver",), ("waived",)), ("void", ("void",), ("voided",)),
                  ("revers", ("reversal", "refund"), ("reversed", "refunded")))
_KEY_WORDS = re.compile(r"[A-Z]?[a-z]+|[0-9]+")


def _event_recorded(evidence: Any, phrase: str) -> bool:
    """Whether ``evidence`` records a money event of the kind ``phrase`` says was done ("was
    charged"): a key that names such a record (its last word "charge", "payments",
    "transaction", or that word before "id": ``charge_id``), or a short value that says it is
    done (``"payment_status": "paid"``, ``"status": "refunded"``). How the customer pays
    (``payment_method``) or a pending payment records none, nor does a long text such as a
    review: its words are someone's account, not a record."""
    nouns, states = set(), set()
    for stem, records, done in _EVENT_RECORDS:
        if stem in phrase:
            nouns.update(records)
            states.update(done)
    if not nouns:
        return False
    todo = [getattr(evidence, "raw", evidence)]
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            for key, value in node.items():
                if isinstance(key, str):
                    words = [w.lower().rstrip("s") for w in _KEY_WORDS.findall(key)]
                    if words and words[-1] == "id":
                        words.pop()
                    if words and words[-1] in nouns:
                        return True
                todo.append(value)
        elif isinstance(node, (list, tuple)):
            todo.extend(node)
        elif isinstance(node, str) and len(node) <= 40 and node.strip().lower() in states:
            return True
    return False


def _habitual(low: str, chain: str, participle: str, end: int) -> bool:
    """Whether "charged" after ``chain`` (the words between its subject and it), ending at
    ``end``, is a charge said in the simple present with when or in what currency
    (``_HABITUAL``): how billing works, no action on this customer's money."""
    return (participle == "charged" and bool(chain.split())
            and set(chain.replace("'", " '").replace("’", " ’").split()) <= _PRESENT_BE
            and _HABITUAL.match(low, end) is not None)


def _acts(low: str, frame: re.Match, tense: str | None) -> bool:
    """Whether an agent frame (``_AGENT``, ``_GIVER``) before a verb in ``tense`` (None: any)
    states an action: not after "if" or "whether", not what the agent cannot do, and with no
    auxiliary only in the past, or in the present for "we" ("we refund within a week")."""
    chain = frame.group("chain")
    if _CANNOT.search(chain) or _EMBEDDED.search(low, max(0, frame.start() - 12), frame.start()):
        return False
    if chain or tense is None:
        return True
    who = frame.group("who")
    return tense == "past" or (tense == "base" and who == "we") or (
        tense == "s" and who not in ("i", "we"))


def _states_nothing(low: str, start: int, end: int) -> bool:
    """Whether the phrase at ``low[start:end]`` ends a set phrase (``_BEFORE_IDIOMS``), is a
    heading's word (``_HEADING_WORDS``) or is an "as" that gives no cause (``_AS_CLAUSE``)."""
    phrase = low[start:end]
    if phrase == "no":
        return _NUMBER_ABBREVIATION.match(low, end) is not None
    if phrase == "as":
        return (_AS_CLAUSE.match(low, end) is None
                or _AS_NOT_A_CAUSE.search(low, max(0, start - 6), start) is not None)
    before = _BEFORE_IDIOMS.get(phrase)
    if before is not None and before.search(low, max(0, start - 16), start):
        return True
    if phrase in _HEADING_WORDS:
        line = low.rfind("\n", 0, start) + 1
        return low.startswith("#", line + len(low[line:start]) - len(low[line:start].lstrip()))
    return False


def guarded_phrases(prose: str, forbidden: re.Pattern | None = None) -> list[str]:
    """The phrases in slot-less text that `prose guarded` does not allow, in order, with the
    ruleset's own (``forbidden``)."""
    return [prose[start:end] for start, end in guarded_spans(prose, forbidden=forbidden)]


def with_guarded(text: str, findings: tuple[Finding, ...], mentions: Sequence[Any],
                 evidence: Any, question: str | None,
                 slot_values: Sequence[str] = (),
                 forbidden: re.Pattern | None = None,
                 bound: Sequence[tuple[int, int]] = ()) -> tuple[Finding, ...]:
    """``findings`` (the sweep's, in text order) with those of `prose guarded` in free text, in
    text order: each phrase it does not allow (``guarded_spans``) that is the answer's own words
    (``_others_words``, ``_in_a_name``), as a finding ``unapproved_shape``, so the ruleset's
    ``on unapproved_shape`` action applies, as in a claims reply. Negations are allowed: free
    text has no slot for a "not" to turn around, and the sweep's feedback asks the model to say
    what it could not find. ``mentions`` are the text's (``rulekit.scan``), ``evidence`` its
    index, ``question`` the user's and ``slot_values`` the values code put into the text;
    ``forbidden`` the ruleset's own phrases (``Policy.forbidden_pattern``); ``bound`` the spans
    of the figures binding judged, which the scanner may not read ("a half acre")."""
    spans = [(start, end, kind) for start, end, kind in _guarded_found(text, False, forbidden)
             if kind != EVENT or not _event_recorded(evidence, text[start:end].lower())]
    if not spans:
        return findings
    from rulekit.sweep import IN_TEXT_ORDER, _not_overlapping

    found = [_new_finding("phrase", text[start:end], text[start:end].lower(), start, end,
                          "unapproved_shape", _guarded_message(text[start:end], kind))
             for start, end, kind in spans]
    others = _others_words(text, mentions, findings, evidence, question) + list(bound)
    for value in slot_values:   # code's words ("Best Buy voucher"), wherever code put them
        if isinstance(value, str) and value and _guarded_found(value, False, forbidden):
            at = text.find(value)
            while at >= 0:
                others.append((at, at + len(value)))
                at = text.find(value, at + len(value))
    # A listed phrase that overlaps such words is theirs ("half", "a dozen", "by tomorrow");
    # a frame read around a money word is the answer's own unless it lies within them: "Your
    # refund for A-1001 will be processed" promises a refund, whatever order it names.
    framed = [kind in (PROMISE, EVENT) and f.value not in _KIND_OF
              for f, (_, _, kind) in zip(found, spans)]
    kept = _not_overlapping([f for f, frame in zip(found, framed) if not frame], others) + [
        f for f, frame in zip(found, framed)
        if frame and not any(a <= f.start and f.end <= b for a, b in others)]
    found = [f for f in kept if not (
        f.text[0].isupper() and _in_a_name(text, f.start, f.end, evidence))]
    return tuple(sorted(findings + tuple(found), key=IN_TEXT_ORDER)) if found else findings


def _guarded_message(phrase: str, kind: str) -> str:
    if kind == FORBIDDEN:
        return (f"'{phrase}' is among the {kind} (`prose guarded forbid`): say only what the "
                f"data states, without '{phrase}'")
    return (f"'{phrase}' states {kind} that nothing in the data backs, and the rules say "
            f"`prose guarded`: say only what the data states, without '{phrase}'")


def _others_words(text: str, mentions: Sequence[Any], flagged: Sequence[Finding], evidence: Any,
                  question: str | None) -> list[tuple[int, int]]:
    """The spans of ``text`` that are not the answer's own statements, or that the sweep judges
    instead: a figure ("half", "twice", "a dozen" are numbers and multiples the evidence may
    back), a link, an e-mail address or a handle, and a quote of the evidence or of the question
    (one the sweep reported nothing at, rule 7). A quote is the answer's own words, as the sweep
    reads it, when it is a label's emphasis ("Refund: *...*") or a quote of the question the
    answer asserts ('Yes, it "always ships free"'); and a quote of one word is scare quotes, no
    one's statement ('It is "guaranteed"'). A code span is the answer's own too, unless it is a
    quote (after a verb of saying)."""
    spans = [(m.start, m.end) for m in mentions if m.kind in _SWEEPS]
    quotes = [m for m in mentions if m.kind == "quote"]
    if quotes:
        from rulekit.sweep import _asserted_question_quotes, _label_emphasis

        judged = {(f.start, f.end) for f in flagged if f.kind == "quote"}
        asserted = _asserted_question_quotes(text, quotes, evidence, question)
        spans += [(m.start, m.end) for index, m in enumerate(quotes)
                  if index not in asserted and (m.start, m.end) not in judged
                  and len(m.text.split()) > 1
                  and not (m.text[:1] in "*_" and _label_emphasis(text, m, evidence))]
    return spans


# The kinds of mention whose words the sweep judges (``rulekit.scan.KINDS`` but quotes).
_SWEEPS = frozenset(("number", "word_number", "multiple", "date", "url", "email", "handle"))
# A word of a name beside a phrase written with a capital: "Always Dry Parka", "Never Summer".
_NAME_WORD_BEFORE = re.compile(r"(?<![\w'’&.-])[A-Z0-9][\w'’&.-]*[ \t\u00a0]+\Z")
_NAME_WORD_AFTER = re.compile(r"[ \t\u00a0]+[A-Z0-9][\w'’&.-]*")


def _in_a_name(text: str, start: int, end: int, evidence: Any) -> bool:
    """Whether the phrase at ``text[start:end]`` (written with a capital) is part of a name the
    evidence holds: with the word right before or after it, itself written with a capital or a
    digit, it is found in the evidence's text ("The Always Dry Parka", "Best Buy", "Never
    Summer jacket"). A name that goes on in small letters ("Best of British") is not read."""
    from rulekit.scan import squash
    from rulekit.sweep import _found_whole

    before = _NAME_WORD_BEFORE.search(text, max(0, start - 32), start)
    after = _NAME_WORD_AFTER.match(text, end)
    return any(_found_whole(squash(text[a:b]), evidence.quote_text) for a, b in (
        (before.start() if before else None, end), (start, after.end() if after else None))
        if a is not None and b is not None)


def slot_modifiers(pieces: Sequence[str], fields: Mapping[str, Any],
                   locale: str = "en_US") -> list[str]:
    """Words the template glues to a slot that change what its value says, as "{slot} word" or
    "word{slot}", in order (see ``_AFTER_SLOT``). ``fields`` maps a slot to its ``Field``; a
    currency said after a money slot is read as the sweep reads one after an amount in
    ``locale`` (``_currency_after``)."""
    found = []
    for index in range(1, len(pieces), 2):
        field = fields.get(pieces[index])
        after = _AFTER_SLOT.match(pieces[index + 1]) if index + 1 < len(pieces) else None
        if after is None:
            found += slot_currencies(pieces[index:index + 2], fields, locale)
        if field is not None and field.type.kind == "money" \
                and not _DEDUCTION_FIELD.search(f"{field.name} {field.label}"):
            # "Save {price}", "{price} off": a price said as a discount nothing verified
            taken = _DISCOUNT_AFTER.match(pieces[index + 1]) if index + 1 < len(pieces) else None
            if taken is not None:
                found.append(f"{{{pieces[index]}}}{taken.group(0)}")
            taken = _DISCOUNT_BEFORE.search(pieces[index - 1])
            if taken is not None:
                found.append(f"{taken.group(0)}{{{pieces[index]}}}")
        if after is not None and (after.group("word") or "").endswith("time") and \
                after.group("word") != "local time" and \
                zone_city(after.group("word")[:-5]) is None:
            after = None                        # "{date} Check-in time": no city's time
        if after is not None and field is not None and not _says_its_own_unit(
                after.group("word") or after.group("word2"), field):
            found.append(f"{{{pieces[index]}}}{after.group(0)}")
        elif after is None and field is not None and field.type.kind in _TIMED_KINDS \
                and index + 1 < len(pieces):
            # "{start} Eastern", "{start} (Eastern Time)", "{start} Pacific": a zone the sweep
            # reads after a time, which must be the field's own
            zoned = zone_after(pieces[index + 1], 0)
            if zoned is not None and not _its_own_zone(zoned[1], field):
                found.append(f"{{{pieces[index]}}}{pieces[index + 1][:zoned[0]]}")
        before = _BEFORE_SLOT.search(pieces[index - 1])
        if before is None and field is not None and field.type.kind in _COUNTED_KINDS:
            before = _PRICED_BEFORE.search(pieces[index - 1])  # "costs {stock}": a count as a price
        if before is not None and field is not None:
            found.append(f"{before.group(0)}{{{pieces[index]}}}")
        basis = _field_tax_basis(field) if field is not None else None
        if basis is not None:
            # "{price} incl. VAT" for a price before VAT: the tax basis said, read like the sweep
            # reads it beside an amount (``rulekit.units.tax_basis_words``)
            text = pieces[index - 1] + "0" + (pieces[index + 1] if index + 1 < len(pieces) else "")
            at = len(pieces[index - 1])
            said = tax_basis_words(text, at, at + 1, field.type.kind == "money")
            if said is not None and said[0] != basis:
                words = text[said[1]:said[2]] if said[1] > at else text[said[1]:at]
                found.append(f"{{{pieces[index]}}}{words}" if said[1] > at
                             else f"{words}{{{pieces[index]}}}")
    return found


def slot_currencies(pieces: Sequence[str], fields: Mapping[str, Any],
                    locale: str = "en_US") -> list[str]:
    """Each money slot of the template (``pieces``, from a slot name on: slot names at odd
    positions of the template) with the words after it that say another currency than its
    field's, as "{slot} words", in order (``_currency_after``)."""
    found = []
    start = 1 if len(pieces) % 2 else 0     # a whole template, or a slot and the piece after it
    for index in range(start, len(pieces) - 1, 2):
        field = fields.get(pieces[index])
        if field is not None and field.type.kind == "money":
            said = _currency_after(pieces[index + 1], field.type.currency, locale)
            if said is not None:
                found.append(f"{{{pieces[index]}}}{said}")
    return found


# Before a currency said after a money slot: "{price} in Canadian dollars", "{price} €".
_IN_CURRENCY = re.compile(r"([ \t\u00a0]*)((?i:in)[ \t\u00a0]+(?:(?i:the)[ \t\u00a0]+)?)?")


def _currency_after(after: str, currency: str | None, locale: str) -> str | None:
    """The words right after a money slot that say a currency other than ``currency`` (the
    field's), read by the scanner as after an amount ("{price} €", "{price}円", "{price} in
    Canadian dollars", "{price} in euros"); None when they say none, or the field's."""
    from rulekit.scan import scan
    from rulekit.scan.figures import currency_codes

    gap = _IN_CURRENCY.match(after)
    rest = after[gap.end():gap.end() + 48]
    if not rest or rest[0] in ".,;:!?)" or rest[0].isdigit():
        return None
    spacing = " " if gap.group(2) else gap.group(1)
    probe = "1" + spacing + rest
    first = next(iter(scan(probe, locale)), None)
    if first is None or first.start != 0 or first.currency is None or first.end <= 1 + len(spacing):
        return None
    if currency is not None and currency in currency_codes(first.currency):
        return None
    return after[:gap.end()] + probe[1 + len(spacing):first.end]


@functools.lru_cache(maxsize=4096)
def field_periods(name: str, label: str | None) -> frozenset[str]:
    """The units a field's number is per, as its ``name`` or ``label`` says (``rulekit.units
    .named_units``, which the sweep reads a field's name with): {"month"} for
    ``price_per_seat_per_month``; empty when they say none."""
    return named_units(name)[1] | named_units(label or "")[1]


def slot_periods(pieces: Sequence[str], periods: Mapping[str, frozenset[str]],
                 lang: str) -> list[tuple[str, str]]:
    """Words beside a slot that say its value is per another period than its field holds
    (``periods``: slot -> the units from ``field_periods``), as (the words, the slot), in
    order: "{price} per year",
    "{price}/year", "{price} annually" after it (read as the sweep reads them after an amount,
    ``rulekit.units.per_after``), else "a yearly {price}" before it (``per_before``)."""
    found = []
    for index in range(1, len(pieces), 2):
        held = periods.get(pieces[index])
        if not held:
            continue
        after = pieces[index + 1] if index + 1 < len(pieces) else ""
        said = per_after(after, 0, lang)
        if said is not None:
            if said not in held:
                found.append((f"{{{pieces[index]}}}{after[:_period_end(after)]}", pieces[index]))
            continue
        said = per_before(pieces[index - 1], len(pieces[index - 1]), lang)
        if said is not None and said not in held:
            found.append((f"{_words_before(pieces[index - 1])}{{{pieces[index]}}}", pieces[index]))
    return found


_CLAUSE_MARK = re.compile(r"[.,;:!?\n]|\Z")


def _period_end(text: str) -> int:
    """Where the words after a slot that say a period end: at the first stop, comma or line."""
    return _CLAUSE_MARK.search(text).start()


def _words_before(text: str) -> str:
    """The words before a slot back to the start of its clause (a comma, a stop, a line)."""
    start = max(text.rfind(mark) for mark in ".,;:!?\n") + 1
    return text[start:].lstrip()


def _field_tax_basis(field: Any) -> str | None:
    """The tax basis a field's name or label says it holds (``price_excl_vat``, "nightly rate
    including VAT"); None when they say none, or disagree."""
    said = {named_tax_basis(field.name), stated_tax_basis(field.label or "")} - {None}
    return said.pop() if len(said) == 1 else None


def _says_its_own_unit(word: str, field: Any) -> bool:
    """Whether ``word`` after a slot of ``field`` only repeats what the field is: a unit its name
    or label says ("kg" for weight_kg, "days" for return_days), its currency, UTC for a field
    kept in UTC, or a per cent sign for a rate."""
    kind = field.type.kind
    if word in _SCALES:
        return False
    if kind == "money":
        currency = getattr(field.type, "currency", None)
        named = _CURRENCY_WORDS.get(word.lower().rstrip("s") if word.lower() != "pounds sterling"
                                    else "pounds sterling")
        return word.upper() == currency if named is None else currency in named
    if word in _ZONES:
        return kind in ("timestamp", "date") and getattr(field.type, "zone", None) in ("UTC",
                                                                                       "Etc/UTC")
    if word.endswith(" time") and word != "local time":
        # "Tokyo time" beside a field kept in Europe/Berlin: another zone's wall time
        zone = getattr(field.type, "zone", None) or ""
        return kind in ("timestamp", "date") and zone_city(word[:-5]) is not None \
            and zone_city(word[:-5]) == zone_city(zone.rsplit("/", 1)[-1])
    said = {w.lower().rstrip("s") for w in re.split(r"[\W_]+", f"{field.name} {field.label}") if w}
    if word in ("%", "percent", "per cent", "percent"):
        return bool(said & {"rate", "pct", "percent", "percentage", "share", "ratio"})
    # the same word, or another word for the same unit ("kilograms" for weight_kg)
    unit = UNIT_OF.get(word.lower())
    return word.lower().rstrip("s") in said or (unit is not None and (
        unit in {UNIT_OF.get(w) for w in said} or unit in named_units(field.name)[0]
        or unit in named_units(field.label or "")[0]))    # "sq ft" for sq_ft, "square feet"


@functools.lru_cache(maxsize=256)
def zone_city(name: str) -> str | None:
    """The IANA zone city ``name`` is ("Tokyo", "Los Angeles", "los_angeles"), lower-cased
    with spaces; None when no zone is named after it."""
    key = name.replace("_", " ").replace("\u00a0", " ").strip().lower()
    return key if key in _zone_cities() else None


@functools.cache
def _zone_cities() -> frozenset[str]:
    import zoneinfo

    return frozenset(zone.rsplit("/", 1)[-1].replace("_", " ").lower()
                     for zone in zoneinfo.available_timezones() if "/" in zone)


def sentences(pieces: Sequence[str]) -> list[tuple[str, list[str]]]:
    """A template cut into sentences: each sentence's own words (the literal text, slots left
    out) and the slots in it, in order."""
    out: list[tuple[str, list[str]]] = [("", [])]
    for index, piece in enumerate(pieces):
        if index % 2:
            out[-1][1].append(piece)
            continue
        at = 0
        for end in SENTENCE_END.finditer(piece):
            out[-1] = (out[-1][0] + piece[at:end.start()], out[-1][1])
            out.append(("", []))
            at = end.end()
        out[-1] = (out[-1][0] + piece[at:], out[-1][1])
    return [sentence for sentence in out if sentence[0].strip() or sentence[1]]


class _Holds:
    """Whether a template's own words hold a match of ``pattern``, cached like
    ``may_hold_figures`` (a model reuses its few templates): a first look before a longer
    reading."""

    def __init__(self, pattern: re.Pattern, doc: str):
        self.pattern = pattern
        self.cached = functools.lru_cache(maxsize=1024)(self._search)
        self.__doc__ = doc

    def _search(self, prose: str) -> bool:
        return self.pattern.search(prose) is not None

    def __call__(self, prose: str) -> bool:
        return self.cached(prose) if len(prose) <= CACHED_LENGTH else self._search(prose)


says_stock = _Holds(_STOCK_WORDS, "Whether a template's own words hold a stock word.")


def stock_words(pieces: Sequence[str], stock_slots: Mapping[str, Any]) -> list[tuple[str, str | None]]:
    """The stock words of a template's own text, each with the stock slot of its sentence (None
    when its sentence has none): ("in stock", "stock"). ``stock_slots`` are the slots of stock
    fields."""
    found, sentence_words, sentence_slot = [], [], None

    def close():
        found.extend((word, sentence_slot) for word in sentence_words)

    for index, piece in enumerate(pieces):
        if index % 2:
            if piece in stock_slots and sentence_slot is None:
                sentence_slot = piece
            continue
        at = 0
        if index and pieces[index - 1] in stock_slots:
            # "{stock} in stock", "{stock} left": the slot's own words, the level it states
            own = _STOCK_WORDS.match(piece, len(piece) - len(piece.lstrip()))
            if own is not None:
                at = own.end()
        labels_slot = index + 1 < len(pieces) and pieces[index + 1] in stock_slots
        for end in SENTENCE_END.finditer(piece):
            sentence_words.extend(m.group(0).lower() for m in _STOCK_WORDS.finditer(piece, at,
                                                                                      end.start()))
            close()
            sentence_words, sentence_slot, at = [], None, end.end()
        for match in _STOCK_WORDS.finditer(piece, at):
            if labels_slot and _LABEL_REST.fullmatch(piece, match.end()) \
                    and not _STATED_BEFORE.search(piece, max(0, match.start() - 40),
                                                  match.start()):
                continue        # "In stock: {stock}": the slot's label
            sentence_words.append(match.group(0).lower())
    close()
    return found


may_state_stock = _Holds(_STOCK_CUE, "Whether a template's own words could state a stock "
                         "level (``stock_figures``).")


def stock_figures(pieces: Sequence[str], slots: frozenset[str] | set[str]) -> list[str]:
    """The words that state a slot of ``slots`` (counts that are not stock levels) as a stock
    level, with the slot, in order: "{rating} left", "{rating} units in stock", "We have
    {rating} of", "Stock: {rating}". A reviewer who "left {rating} stars", "{days} days left
    to return" and "you have {points} left" (the customer's) say no stock."""
    found = []
    for index in range(1, len(pieces), 2):
        slot = pieces[index]
        if slot not in slots:
            continue
        after = pieces[index + 1] if index + 1 < len(pieces) else ""
        tail = pieces[index - 1][-_STOCK_TAIL:]
        have = _HAVE_BEFORE.search(tail)
        if have is not None and have.group("who").lower() == "you":
            continue        # "you have {points} left": the customer's, not a stock
        said = _STOCK_AFTER.match(after)
        if said is not None:
            found.append(f"{{{slot}}}{said.group(0)}")
            continue
        counted = _COUNTED_AFTER.match(after) if have is not None else None
        if counted is not None:
            found.append(f"{have.group(0)}{{{slot}}}{counted.group(0)}")
            continue
        label = _STOCK_LABEL.search(tail)
        if label is not None:
            found.append(f"{label.group(0)}{{{slot}}}")
    return found


_WORDY_FIGURE = re.compile(r"(?i)\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|"
                          r"twelve|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|"
                          r"thousand|million|billion|dozen|half|twice|double|triple|"
                          # relative days: the sweep judges them against the evidence's dates
                          r"yesterday|today|tonight|tomorrow|last night)\b|"
                          r"[零〇一二三四五六七八九十百千万萬亿億两兩倍成]|昨天|今天|明天|前天|後天|后天|"
                          r"@|https?:|www\.|[\"“”«「『]|"
                          # a host without a scheme: a dot right before two letters of any
                          # script ("evil.example/reset", "пример.рф/reset", "refunds.help")
                          r"\.[^\W\d_]{2}")


def may_hold_figures(prose: str) -> bool:
    """A cheap first look, cached per template: could this prose hold a digit, a number word,
    a multiple, a handle, an e-mail address, a link (a host without a scheme too) or a quote? Only then is it worth a full sweep."""
    if len(prose) <= CACHED_LENGTH:
        return _may_hold_figures_cached(prose)
    return _may_hold_figures(prose)


def _may_hold_figures(prose: str) -> bool:
    return _DIGIT.search(prose) is not None or _WORDY_FIGURE.search(prose) is not None


_may_hold_figures_cached = functools.lru_cache(maxsize=1024)(_may_hold_figures)


_DIGIT = re.compile(r"\d")


# --- the words of a price before a money slot ----------------------------------------------------
# A list price and a sale price of one row, swapped by the words before their slots ("{name} was
# {price}, now {list_price}"): both claims are confirmed, and the customer reads the list price
# as the price paid. The words are each field's `said as` words, and those of a list price
# belong to a field named for one, those of a sale to its other money fields, unless declared
# (``price_words``).
_LIST_PRICE_NAME = re.compile(r"(?:^|_)(?:list|regular|original|compare_at|compare|msrp|rrp|"
                              r"was|retail|reference|strike|strikethrough)(?:_|$)", re.IGNORECASE)
_LIST_WORDS = ("was", "were", "regularly", "originally", "normally", "usually", "list price",
               "down from", "reduced from", "compare at", "previously", "regular price",
               "original price", "rrp", "msrp")
_SALE_WORDS = ("now", "now only", "now just", "on sale for", "on sale at", "sale price",
               "reduced to", "down to", "marked down to")
# What may stand between such words and the slot: "regularly: {p}", "(was {p})", "was at {p}".
_PRICE_WORDS_TAIL = re.compile(r"[ \t\u00a0(:*_]*\Z")


def price_words(entity_words: Sequence[tuple[str, str]], money: Sequence[str]
                ) -> dict[str, frozenset[str]]:
    """The words that name each money field of one entity before its amount, word ->
    the fields it names: its `said as` words (``entity_words``, of the binding), and, where it
    has a field named for a list price (``regular_price``, ``list_price``, ``compare_at_price``,
    ``msrp``) and other money fields (``money``), the words of a list price (``_LIST_WORDS``)
    for the first and of a sale (``_SALE_WORDS``) for the others, unless declared."""
    found: dict[str, set[str]] = {}
    for word, field in entity_words:
        if field in money and any(c.isalpha() for c in word):
            found.setdefault(word.casefold(), set()).add(field)
    listed = [field for field in money if _LIST_PRICE_NAME.search(field)]
    other = [field for field in money if field not in listed]
    if listed and other:
        declared = set(found)
        for words, fields in ((_LIST_WORDS, listed), (_SALE_WORDS, other)):
            for word in words:
                if word not in declared:
                    found.setdefault(word, set()).update(fields)
    return {word: frozenset(fields) for word, fields in found.items()}


def slot_price_words(pieces: Sequence[str], slots: Mapping[str, tuple[str, Mapping[str, frozenset[str]]]]
                     ) -> list[tuple[str, str, frozenset[str]]]:
    """The words right before a money slot that name another price of its row, as (the words
    with the slot, the slot, the fields they name), in order: "was {price}" when "was" names the
    list price, "now {list_price}", "costs {list_price}". ``slots`` maps each money slot to its
    field and the words of its entity (``price_words``). The longest words that end right
    before the slot count, maybe with a bracket, a colon or emphasis between."""
    found = []
    for index in range(1, len(pieces), 2):
        held = slots.get(pieces[index])
        if held is None:
            continue
        field, words = held
        before = pieces[index - 1]
        tail = before[:_PRICE_WORDS_TAIL.search(before).start()].casefold()
        said = max((word for word in words if tail.endswith(word) and not (
            tail[len(tail) - len(word) - 1:len(tail) - len(word)].isalnum())), key=len,
            default=None)
        if said is not None and field not in words[said]:
            found.append((f"{said} {{{pieces[index]}}}", pieces[index], words[said]))
    return found
