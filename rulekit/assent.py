"""Reading an answer's agreement with the user's question: one reader for both channels.

The sweep (``sweep._agreed_figures``, ``sweep._asserted_question_quotes``) and the claims
channel (``check_said``) ask the same questions of an answer, and get the same answers here:

- ``agreement(text)``: the words that agree with the question: an assent opening the answer
  ("Yes, it is.", "It sure is.", "Precisely.", "The answer is yes.", "I can confirm that.", a
  lone 👍), whatever dresses it first (markup, an emoji, a list marker, a heading, an HTML tag,
  a label such as "Short answer:", a greeting such as "Hi Maria," or "Good morning!"), or words
  anywhere that keep the question's value ("unchanged", "still the same", "that price", "as
  you said"), neither qualified nor negated.
- ``assents(text, span)``: whether the sentence at ``span`` opens with such an assent.
- ``endorsed(text, start, end)``: whether the words around a quote at [start, end) make it the
  answer's own ('You wrote "...", and you are right.', 'You correctly wrote "..."', 'As you
  wrote, "..."', '"...". That is what you pay.').

Everything here runs only when a question is given; each pattern is literal-first and linear.
Read in English only.
"""

from __future__ import annotations

import re

from rulekit.scan.base import NOT_AFTER_TITLE

# The end of a sentence: a stop before a space or the end (not after a title: "Yes, Dr. Raman
# can't see you then." is one sentence, qualified), a line break.
_SENTENCE_END = re.compile(r"[.!?]" + NOT_AFTER_TITLE + r"(?:\s|$)|[\n。！？]")

# What may dress an assent before its first word: spaces, marks, emoji and symbols (anything
# that is no letter or digit: "✅", "- ", "> ", "## ", "**", "_", "—", quote marks), an HTML tag
# ("<p>"), a list number ("1.", "2)").
_LEAD = re.compile(r"(?:<[/a-zA-Z][^<>\n]{0,60}>|\d{1,2}[.)](?=\s)|[^\w]|_)*")
# Words that may open the sentence of an assent before it, each up to its mark: a greeting with
# a name ("Hi Maria,", "Good morning!"), a label of up to three words ("Answer:", "Short
# answer:", "**TL;DR:**"), one or two words before a comma ("Maria,", "Well,", "In short,").
_GREETING_WORDS = (r"hi|hello|hey|hiya|dear|greetings|good (?:morning|afternoon|evening|day)|"
                   r"thanks|thank you|many thanks|great question|good question|good news|"
                   r"great news|happy to help|welcome")
_PREFIX = re.compile(
    r"(?:(?:" + _GREETING_WORDS + r")(?:[ \t]+[^\W\d_][\w'’.-]*){0,3}?[ \t]*[,!:;\u2013\u2014-]"
    r"|[^\W\d_][\w'’;]*(?:[ \t]+[^\W\d_][\w'’]*){0,2}[ \t]*:(?![^\W_])"
    r"|[^\W\d_][\w'’]*(?:[ \t]+[^\W\d_][\w'’]*)?[ \t]*,"
    r"|in (?:short|a word|brief|sum)[ \t]*[,:\u2013\u2014-])", re.IGNORECASE)
# A sentence that opens an answer before its assent and says nothing: a greeting or thanks.
_GREETING = re.compile(r"(?:" + _GREETING_WORDS + r")(?![\w'’])", re.IGNORECASE)

# An assent: yes, sure, absolutely, of course, that's right, you're right, precisely, spot on,
# "the answer is yes", "I can confirm that", "It did." / "It sure is." / "That it is.", a lone
# 👍 or ✅; not an offer ("Sure, I can check", "Yes, let me look") nor "right now" or "true to
# size".
_ASSENT = re.compile(
    r"(?:(?:yes|yeah|yep|yup|yea|aye|absolutely|sure|definitely|certainly|indeed|exactly|"
    r"precisely|correct|accurate|affirmative|confirmed|totally|bingo|spot on|quite so|you bet|for sure|right on|you(?:'ve|’ve)? got it|"
    r"of course|that(?:'s|’s| is) (?:right|correct|true|it|accurate|so)|you(?:'re|’re| are) "
    r"(?:right|correct|spot on)|right(?=[,.!])|true(?=[,.!])|the (?:short |simple |quick )?"
    r"answer is yes|i (?:can |do |hereby )?confirm(?: that| this| it| so)?(?=[ \t]*[.!,]|[ \t]*$))"
    r"(?![^\W_]|['’])"
    r"(?![,!.]?[ \t]+(?:i|i'll|i’ll|i'd|i’d|let|here|happy|glad|we|we'll|we’ll)(?![\w'’]))"
    r"|(?:that )?(?:it|they|he|she|that|this) (?:(?:sure|certainly|definitely|indeed|really|"
    r"surely|still) )?(?:did|does|do|is|was|were|are|will|has|had|have|can)(?: indeed| still|"
    r" too)?(?=[ \t]*[.!,]|[ \t]*$)"
    r"|[\U0001F44D\U0001F44C\u2705\u2714\u2611](?:[\ufe0f\U0001F3FB-\U0001F3FF])?"
    r"(?=[\s.!\U0001F44D\U0001F44C\u2705\u2714\u2611\ufe0f]*$))", re.IGNORECASE)
# In the sentence of an assent, what makes it partial: "Yes and no", "yes, but...", "not".
_QUALIFIED = re.compile(r"(?<![\w'’])(?:but|however|although|though|except|actually|not|no|"
                        r"nope|partly|partially)(?![\w'’])|n[’']t(?![\w])", re.IGNORECASE)

# Words that keep the question's value without an assent opening the answer: "The price is
# unchanged.", "It is still at that price.", "That is what you pay.", "as you said".
_CONFIRMING = re.compile(
    r"(?<![\w'’])(?:unchanged|still the same|nothing has changed|no change(?:s)?(?: there)?|"
    r"(?:at |is |for )?that (?:price|amount|date|day|time|rate|fee)|the same (?:price|amount|"
    r"date|day)|as you (?:said|say|mentioned|noted|wrote|thought|expected|put it)|that(?:'s|’s| "
    r"is)(?: still)? (?:what (?:it costs|you pay|you(?:'ll|’ll| will) pay|you get)|the (?:current "
    r"|right |correct |same )?(?:price|amount|cost|date|day|rate|fee))|you(?:'re|’re| are| "
    r"were) (?:right|correct|spot on)|which is (?:right|correct|true|accurate|so)|that(?:'s|’s| "
    r"is) (?:right|correct|true|accurate)|correctly|rightly|accurately)(?![\w'’])",
    re.IGNORECASE)
_NEGATED = re.compile(r"(?<![\w'’])(?:not|no|never|isn't|aren't|wasn't|won't|didn't|doesn't|"
                      r"hasn't|haven't|but|however)(?![\w'’])|n[’']t(?![\w])", re.IGNORECASE)
_WORDS = re.compile(r"[^\W_]+")


def sentences(text: str) -> list[tuple[int, int]]:
    """The spans of the sentences of ``text``, empty ones left out."""
    spans, at = [], 0
    for end in _SENTENCE_END.finditer(text):
        if text[at:end.end()].strip():
            spans.append((at, end.end()))
        at = end.end()
    if text[at:].strip():
        spans.append((at, len(text)))
    return spans


def assents(text: str, span: tuple[int, int]) -> tuple[int, int] | None:
    """The span of the assent that opens the sentence at ``span`` (after what may dress it:
    ``_LEAD``, ``_PREFIX``), when nothing in the sentence qualifies it."""
    start, end = span
    at = start
    for _ in range(3):
        found = _ASSENT.match(text, at, end)
        if found is None:
            at = _LEAD.match(text, at, end).end()
            found = _ASSENT.match(text, at, end)
        if found is not None:
            if _QUALIFIED.search(text, start, end):
                return None
            return found.start(), found.end()
        prefix = _PREFIX.match(text, at, end)
        if prefix is None or prefix.end() == at:
            return None
        at = prefix.end()
    return None


def assent_near(text: str, start: int, end: int) -> bool:
    """Whether the sentence holding [start, end), the one before it or the one after it opens
    with an assent (``assents``); when the words at [start, end) end with their own stop (a
    quote "...?"), what follows them in their sentence opens one too."""
    spans = sentences(text)
    at = next((i for i, (s, e) in enumerate(spans) if s <= start < e), None)
    if at is None:
        return False
    near = spans[max(0, at - 1):at + 2]
    if text[start:end].rstrip("\"'”’»」 ").endswith(("?", ".", "!")):
        near.append((end, next((e for s, e in spans if s <= end <= e), len(text))))
    return any(assents(text, span) for span in near)


def _filler(text: str, span: tuple[int, int]) -> bool:
    """Whether the sentence at ``span`` says nothing an assent after it could depend on: a
    greeting, a short exclamation or label ("Great news!", "Answer:"), a heading, a line of
    marks; no digit, no negation, at most six words."""
    said = text[span[0]:span[1]]
    bare = said[_LEAD.match(said).end():].rstrip()     # a list number ("1.") is no figure
    if any(c.isdigit() for c in bare) or _QUALIFIED.search(bare):
        return False
    words = _WORDS.findall(bare)
    if not words:
        return True
    if len(words) > 6:
        return False
    return _GREETING.match(bare) is not None or bare.endswith(("!", ":")) \
        or said.lstrip().startswith("#") or said.endswith("\n")


def opening_assent(text: str) -> tuple[int, int] | None:
    """The assent that opens the answer, maybe after sentences that say nothing (``_filler``)."""
    for span in sentences(text)[:3]:
        found = assents(text, span)
        if found is not None or not _filler(text, span):
            return found
    return None


def _confirming(text: str, start: int, end: int, lo: int = 0, hi: int | None = None,
                skip: tuple[int, int] = (0, 0)) -> tuple[int, int] | None:
    """Confirming words (``_CONFIRMING``) in [start, end), not negated in their sentence
    [lo, hi) outside ``skip`` (a quote, whose own words are the user's)."""
    found = _CONFIRMING.search(text, start, end)
    if found is None:
        return None
    hi = len(text) if hi is None else hi
    for a, b in ((lo, found.start()), (found.end(), hi)):
        for part in ((a, min(b, skip[0])), (max(a, skip[1]), b)) if skip != (0, 0) else ((a, b),):
            if part[0] < part[1] and _NEGATED.search(text, part[0], part[1]):
                return None
    return found.start(), found.end()


def agreement(text: str) -> tuple[int, int] | None:
    """The span of the words that agree with the question: an assent opening the answer, or
    confirming words in an answer that writes no figure of its own ("The price is unchanged
    at $29", "It is $29. That is the current price." answer with their figure, judged where
    it stands)."""
    found = opening_assent(text)
    if found is not None or any(c.isdigit() for c in text):
        return found
    found = _CONFIRMING.search(text)
    while found is not None:
        lo = max(text.rfind(mark, 0, found.start()) for mark in ".!?\n") + 1
        ends = [at for at in (text.find(mark, found.end()) for mark in ".!?\n") if at >= 0]
        hi = min(ends) if ends else len(text)
        span = _confirming(text, found.start(), found.end(), lo, hi)
        if span is not None:
            return span
        found = _CONFIRMING.search(text, hi)
    return None


def endorsed(text: str, start: int, end: int) -> bool:
    """Whether the answer makes a quote of the question at [start, end) its own: its sentence,
    or the next one, says it is right or keeps its value ('You wrote "...", and you are
    right.'; 'You correctly wrote "..."'; 'As you wrote, "..."'; '"...". That is what you
    pay.'), not negated ('You wrote "...", which is not right')."""
    spans = sentences(text)
    at = next((i for i, (s, e) in enumerate(spans) if s <= start < e), None)
    if at is None:
        return False
    lo, hi = spans[at]
    while hi < end and at + 1 < len(spans):     # a quote that holds a stop spans sentences
        at += 1
        hi = spans[at][1]
    if _confirming(text, lo, start, lo, hi, (start, end)) \
            or _confirming(text, end, hi, lo, hi, (start, end)):
        return True
    if at + 1 < len(spans):
        s, e = spans[at + 1]
        return _confirming(text, s, e, s, e) is not None
    return False
