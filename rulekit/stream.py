"""Streaming: release a model's answer sentence by sentence, each only once the sweep passed it.

    gate = StreamGate(policy, evidence, question=question)
    for chunk in model_stream:          # str, or bytes decoded here as UTF-8
        show(gate.feed(chunk))          # "" until a checked sentence is ready
        if gate.stopped:
            break                       # gate.decision: regenerate, refuse, ...
    decision = gate.close()             # the whole text audited; gate.tail is what it released
    # ... or gate.abort(reason) when the stream raised or was cut off; gate.consume(stream)
    # runs this loop and aborts for you

A customer should not wait for the whole answer, and must not read a figure the sweep has not
passed. The gate holds the text back until a sentence boundary, audits the text up to that
boundary with ``rulekit.audit.audit`` and releases it only if it passes and nothing that can
still arrive could change that judgement. The first failure stops the stream for good: what
was released stays released, nothing more is, and ``decision`` says what to do (regenerate
naming the items, refuse, ...). ``close`` audits the whole text and answers only if all of it
passed; it never answers with text that was not audited.

Where a sentence ends (``SentenceBoundaries``) is decided conservatively: a boundary that is
not found only delays text, while a false one could release half a figure. And because the
sweep reads a few words around each figure ("5 rounds" is an exact count, "4 of your last 5" a
count of rows), a boundary is judged only once the next few words have arrived. Binding reads
further, to the end of its own sentence (a list of figures belongs to the post named on the
line after it), so under a ruleset that binds, text is released only once that sentence has
ended, or when it holds nothing binding could attribute. See ``StreamGate`` for how the two
audits per boundary keep the result independent of how the text was cut into chunks.

A stream that ends abnormally (the model's connection dropped, the reply was cut off at the
token limit or by a content filter) is ended with ``abort(reason)``, never ``close()``: it fails
closed and releases nothing more. ``consume(chunks)`` runs the whole loop and does that when the
chunks raise.
"""

from __future__ import annotations

import bisect
import codecs
import datetime as dt
import re
from collections.abc import Callable, Mapping
from typing import Any, Iterable, Iterator, Sequence

from rulekit import dates
from rulekit.audit import (AuditResult, _inputs_problem, _settings_for, audit, decide,
                           decision_for, default_policy, refused)
from rulekit.bind import may_bind, sentence_starts
from rulekit.decision import Decision, Failure, Reason
from rulekit.policy import Policy
from rulekit.route import sources_of
from rulekit.scan import scan
from rulekit.scan.reader import surrogate_problem
from rulekit.sweep import Finding

# --- where a sentence ends --------------------------------------------------------------------

_LATIN_STOPS = frozenset(".!?…")
# Ideographic full stop and fullwidth ! and ?: no space follows them. The fullwidth full stop
# (U+FF0E) is not one: NFKC makes it ".", and "12．5" is 12.5 to the sweep.
_CJK_STOPS = frozenset("。！？")
# What may stand between a full stop and the space after it: closing quotes and brackets, and
# the end of Markdown emphasis ("**Done.**").
_CLOSERS = frozenset('"\'”’»›«‹」』)]*_')
# The first character of a sentence after ". ": a capital, a letter of a script without case
# (CJK, Arabic, ...), an opening quote, bracket or Markdown mark, a handle or a currency sign.
# A lower-case letter or a digit means the full stop was an abbreviation or part of a figure
# ("approx. 3", "5. 000"): not a boundary, which only holds the text back a little longer.
_SENTENCE_OPENERS = frozenset('"“„«‹‘‚「『([*_#>@$€£¥')
# Words separated by these; a no-break or thin space groups digits ("1 299"), so it does not.
_SPACE = frozenset(" \t\r\n\f\v")
_WORD_OPENERS = "".join(_SENTENCE_OPENERS)
# Words that end in a full stop without ending a sentence (compared without the stop, folded).
_ABBREVIATIONS = frozenset("""
    approx appr ca cf vs etc al eg ie viz resp incl excl esp min max avg est no nr nos vol
    pp p fig figs ch sec dept co corp inc ltd llc plc bros mt st ave rd dr mr mrs ms mx prof
    sr jr rev gen col capt lt sgt hon jan feb mar apr jun jul aug sep sept oct nov dec mon
    tue tues wed thu thur thurs fri sat sun tel ext ref ed eds op vgl bzw usw ggf inkl zb
    """.split())
# Single letters and dotted initials: "J. Smith", "e.g", "U.S", "i.e".
_INITIALS = re.compile(r"(?:[^\W\d_]\.)*[^\W\d_]")
# A Markdown block after a line break: a list item, heading, block quote or table row. At most
# three spaces of indent, so that at most _BLOCK_WINDOW characters decide whether it matches.
_BLOCK_START = re.compile(r"[ \t]{0,3}(?:[-*+][ \t]|#{1,6}[ \t]|>|\||\d{1,3}[.)][ \t])")
_BLOCK_WINDOW = 9
# Quote marks: an opener and the closer it waits for. ”…” (Swedish) and »…« (Danish) are
# pairs too, and “ closes „…“ (German) before it opens anything.
_QUOTE_CLOSER = {'"': '"', "“": "”", "„": "“", "”": "”", "«": "»", "»": "«", "‹": "›",
                 "›": "‹", "「": "」", "『": "』", "‘": "’", "‚": "‘", "‟": "”", "⹂": "“"}
_QUOTE_MARKS = frozenset(_QUOTE_CLOSER) | frozenset(_QUOTE_CLOSER.values())
# Quote marks the splitter does not track (``_QUOTE_CLOSER`` holds those it does), in the
# places the scanner lets them open a quote (rulekit/scan/quotes.py): a straight single quote
# after white space, a bracket, a colon or a dash and before a letter; a single * or _ of
# emphasis (a quote after "Dana wrote:"); <q>; and the rarer families. Each with the closer that
# would end it. A boundary after one of them may lie inside a quote that has not closed yet, and
# its first half alone is no quote to the sweep (``StreamGate._inside_open_quote``).
_UNTRACKED_OPENING = re.compile(r"(?:^|(?<=[\s(\[:\u2014]))'(?=[^\s'0-9])"
                                r"|(?<![*_\w])[*_](?=[^\s*_])|<(?:q|blockquote)\b"
                                r"|[\u2033\uff02\u301d\u3003\u275d\u275b\u276e\u276f\u201b"
                                r"\u02dd\U0001f676\U0001f678]", re.IGNORECASE)
_UNTRACKED_MARKS = frozenset("'*_<\u2033\uff02\u301d\u3003\u275d\u275b\u276e\u276f\u201b"
                             "\u02dd\U0001f676\U0001f678")
_CLOSING_OF = {"'": "'", "*": "*", "_": "_", "<q": "</q>", "<blockquote": "</blockquote>",
               "\u2033": "\u2033", "\uff02": "\uff02", "\u301d": "\u301e", "\u3003": "\u3003",
               "\u275d": "\u275e", "\u275b": "\u275c", "\u276e": "\u276f",
               "\u276f": "\u276e", "\u201b": "\u2019", "\u02dd": "\u02dd",
               "\U0001f676": "\U0001f677", "\U0001f678": "\U0001f677"}
# A Markdown blockquote's line, as the scanner reads it (rulekit/scan/quotes.py), and how an
# attribution after the block begins ("— Dana", "-- Dana", "~ @sam"): the gate holds a block
# until the line after it shows whether one follows (``StreamGate._open_blockquote``).
_BLOCKQUOTE_LINE = re.compile(r"(?m)^[ \t]{0,3}>")
_ATTRIBUTION_MARKS = ("\u2014", "\u2013", "--", "~")
# Characters that need the next one before they can be read: a run of backticks, asterisks or
# underscores (how long is it?) and "]" (is a link target "(" next?).
_RUNS = frozenset("`*_")


class SentenceBoundaries:
    """Finds sentence boundaries in a growing text, reading each character once.

    ``extend(text)`` takes the whole text so far (the previous text plus what arrived) and
    returns the boundaries it can now confirm, ascending; a boundary is an offset, and the
    sentence ends just before it. Whether an offset is a boundary depends only on the text,
    never on how it arrived: a boundary is confirmed only when the characters that decide it
    are there, so "12" + "34 views" and "3." + "5" are never cut.

    No boundary inside an open quote, inline code or a code fence, a Markdown link (its text
    or its target) or strong emphasis (``**…**``, ``__…__``); none inside a number, URL or
    e-mail address (a boundary needs white space after the stop, which none of them holds);
    none after an abbreviation ("e.g.", "Dr.", "approx.", an initial) or before a lower-case
    word or a digit. A blank line ends a paragraph, and closes any quote, link or emphasis
    left open (a quote does not cross a blank line for the sweep either), but not a code
    fence. A line break before a list item, heading, block quote or table row is a boundary.
    """

    def __init__(self) -> None:
        self._text = ""
        self._pos = 0                           # the next character to read
        self._quotes: list[str] = []            # the closers the open quotes wait for
        self._code = 0                          # backticks that opened code; 0 outside code
        self._link = 0                          # depth of [link text]
        self._target = 0                        # depth of (link target)
        self._strong = False                    # inside **…** or __…__
        self._line_blank = False                # only white space since the last line break
        self._candidates: list[tuple[int, str]] = []   # (offset, kind) not yet confirmed
        self._last = 0                          # the last boundary given out

    def extend(self, text: str) -> list[int]:
        if not text.startswith(self._text):
            raise ValueError("the text may only grow")
        self._text = text
        self._read()
        return self._confirm()

    # --- reading --------------------------------------------------------------------------------

    def _clean(self) -> bool:
        return not (self._quotes or self._code or self._link or self._target or self._strong)

    def _read(self) -> None:
        text, end = self._text, len(self._text)
        pos = self._pos
        while pos < end:
            char = text[pos]
            if char in _RUNS or char == "]":
                run_end = pos + 1
                if char in _RUNS:
                    while run_end < end and text[run_end] == char:
                        run_end += 1
                if run_end >= end:
                    break                       # the run or the "](" may go on: wait
                if self._markdown(char, run_end - pos, text[run_end]):
                    run_end += 1                # the "(" that opened a link target
                pos = run_end
                continue
            if char in _SPACE:
                self._space(pos, char)
            else:
                self._cjk_stop(pos)
                self._line_blank = False
                if not self._code:
                    self._mark(pos, char)
            pos += 1
        self._pos = pos

    def _markdown(self, char: str, length: int, after: str) -> bool:
        """A run of ``length`` backticks, asterisks or underscores, or a "]" (``length`` 1),
        with the character ``after`` it. True when it read the "(" of a link target too."""
        self._line_blank = False
        if char == "`":
            if not self._code:
                self._code = length
            elif length == self._code:
                self._code = 0
        elif self._code:
            pass                                # inside code, nothing else is Markdown
        elif char in "*_":
            if length // 2 % 2:
                self._strong = not self._strong
        elif self._link and not self._target:   # "]"
            self._link -= 1
            if not self._link and after == "(":
                self._target = 1
                return True
        return False

    def _mark(self, pos: int, char: str) -> None:
        """Quotes and link brackets, outside code."""
        if char == "[" and not self._target:
            self._link += 1
        elif self._target and char in "()":
            self._target += 1 if char == "(" else -1
        elif char in _QUOTE_MARKS:
            self._quote(pos, char)

    def _quote(self, pos: int, char: str) -> None:
        if char in self._quotes:                # closes it (and any quote left open inside)
            while self._quotes.pop() != char:
                pass
            return
        if char not in _QUOTE_CLOSER:
            return                              # a closer with nothing open: an apostrophe
        before = self._text[pos - 1] if pos else " "
        if char == '"' and before.isdigit():
            return                              # 12" is an inch mark, as the sweep reads it
        if char in "‘‚" and before.isalpha():
            return
        self._quotes.append(_QUOTE_CLOSER[char])

    def _space(self, pos: int, char: str) -> None:
        if char == "\n":
            if self._line_blank and pos > 0:
                if self._code < 3:              # a paragraph ends; only a fence goes on
                    self._quotes.clear()
                    self._code = self._link = self._target = 0
                    self._strong = False
                if self._clean():
                    self._candidates.append((pos, "paragraph"))
            self._line_blank = True
        if not self._clean():
            return
        stop = self._stop_before(pos)
        if stop in _CJK_STOPS:
            self._candidates.append((pos, "paragraph"))
        elif stop and not self._abbreviation(pos):
            self._candidates.append((pos, "sentence"))
        elif char == "\n":
            self._candidates.append((pos, "line"))

    def _cjk_stop(self, pos: int) -> None:
        """After 。！？ and any closers, the next character starts a sentence."""
        if pos and self._text[pos] not in _CLOSERS and self._clean() and \
                self._stop_before(pos) in _CJK_STOPS:
            self._candidates.append((pos, "paragraph"))

    def _stop_before(self, pos: int) -> str:
        """The sentence stop that ``pos`` follows (past closing quotes and brackets), or ""."""
        text, back = self._text, pos - 1
        while back >= 0 and text[back] in _CLOSERS:
            back -= 1
        if back < 0:
            return ""
        char = text[back]
        return char if char in _LATIN_STOPS or char in _CJK_STOPS else ""

    def _abbreviation(self, pos: int) -> bool:
        text, back = self._text, pos - 1
        while back >= 0 and text[back] in _CLOSERS:
            back -= 1
        if text[back] != ".":
            return False                        # ! ? … end a sentence whatever comes before
        start = back
        while start > 0 and text[start - 1] not in _SPACE:
            start -= 1
        word = text[start:back].lstrip(_WORD_OPENERS).casefold()
        return word.replace(".", "") in _ABBREVIATIONS or bool(_INITIALS.fullmatch(word))

    # --- confirming -----------------------------------------------------------------------------

    def _confirm(self) -> list[int]:
        """Candidates in order: each is confirmed, rejected or still waits; a later one is not
        given out before an earlier one is settled, so boundaries come out ascending."""
        out = []
        while self._candidates:
            pos, kind = self._candidates[0]
            verdict = self._verdict(pos, kind)
            if verdict is None:
                break
            self._candidates.pop(0)
            if verdict and pos > self._last and self._text[self._last:pos].strip():
                out.append(pos)
                self._last = pos
        return out

    def _verdict(self, pos: int, kind: str) -> bool | None:
        """True (a boundary), False (not one) or None (the text that decides has not come)."""
        if kind == "paragraph":
            return True
        text = self._text
        if kind == "line":
            return self._block_after(pos + 1)
        # A sentence stop and white space: the first character after the white space decides.
        after = pos
        while after < len(text) and text[after] in _SPACE:
            after += 1
        if after >= len(text):
            return None
        first = text[after]
        if first.isupper() or (first.isalpha() and not first.islower()) or first in _SENTENCE_OPENERS:
            return True
        line_break = text.rfind("\n", pos, after)
        return self._block_after(line_break + 1) if line_break >= 0 else False

    def _block_after(self, start: int) -> bool | None:
        window = self._text[start:start + _BLOCK_WINDOW]
        if _BLOCK_START.match(window):
            return True
        return False if len(window) == _BLOCK_WINDOW or "\n" in window else None


# --- the gate ---------------------------------------------------------------------------------

# The scanner reads up to three words after a figure (``scan.base._context_after``), and the
# part of a count of rows ("I won 4. Of your last 5") needs the total after them: four words.
# Like the scanner, a word of punctuation alone ("**", "—") is not counted.
LOOKAHEAD_WORDS = 4
_WORD = re.compile(r"[ \t\r\n\f\v]*[^ \t\r\n\f\v]+(?=[ \t\r\n\f\v])")


# What providers say when a reply ended where the model meant it to, case-folded: OpenAI and
# compatible servers "stop" (or a tool call), Anthropic "end_turn", "stop_sequence", "tool_use",
# Gemini "STOP", Cohere "COMPLETE", the Responses API "completed", TGI "eos_token".
_WHOLE = frozenset({"stop", "end_turn", "stop_sequence", "tool_calls", "tool_use",
                    "function_call", "complete", "completed", "eos", "eos_token"})
_TOKEN_LIMIT = "the model reached its token limit"
_FILTERED = "the provider's content filter stopped it"
# ... and what they say when it was cut off, case-folded, with why: OpenAI "length" and
# "content_filter", Anthropic and Bedrock "max_tokens", "refusal", Gemini "MAX_TOKENS",
# "SAFETY", "RECITATION", ..., the Responses API "max_output_tokens", Mistral "model_length".
_CUT_OFF = {"length": _TOKEN_LIMIT, "max_tokens": _TOKEN_LIMIT,
            "max_output_tokens": _TOKEN_LIMIT, "model_length": _TOKEN_LIMIT,
            "model_context_window_exceeded": _TOKEN_LIMIT, "content_filter": _FILTERED,
            "content_filtered": _FILTERED, "guardrail_intervened": _FILTERED,
            "safety": _FILTERED, "recitation": _FILTERED, "blocklist": _FILTERED,
            "prohibited_content": _FILTERED, "spii": _FILTERED, "image_safety": _FILTERED,
            "error_toxic": _FILTERED, "refusal": "the model refused part-way"}


def cut_off(finish_reason: Any) -> str | None:
    """Why a reply that ended with ``finish_reason`` is incomplete, or None when it is not.

    None (or "") says nothing, and a reason that says the reply ended as meant ("stop",
    "end_turn", ...) is whole. Any other reason, in any provider's words and case ("length",
    "max_tokens", "MAX_TOKENS", "SAFETY"), one rulekit does not know, or one that is not text
    (an SDK's enum), cannot say the reply is whole: it is incomplete, and fails closed."""
    if finish_reason is None or finish_reason == "":
        return None
    if isinstance(finish_reason, str):
        if finish_reason.casefold() in _WHOLE:
            return None
        why = _CUT_OFF.get(finish_reason.casefold(),
                           "rulekit does not know it as the end of a whole reply")
        return f'{why} (finish_reason "{finish_reason}")'
    return (f"the finish_reason {finish_reason!r} is not text, so it cannot say the reply is "
            "whole")


# The longest stream a gate judges. Each boundary audits the whole text so far, so the cost
# grows with the square of the length: about 18 s of audits for a runaway model's 16,000
# characters (about 4,000 tokens; a chat answer is rarely a tenth of that). Past it the stream
# stops as a malformed reply, as ``ground`` stops a reply over ``rulekit.reply.MAX_REPLY_CHARS``.
MAX_STREAM_CHARS = 16_000


class StreamGate:
    """Releases a streamed answer up to the last sentence boundary whose text passed the sweep.

    The evidence is indexed once, here. Each confirmed boundary B is judged once, in order, by
    two audits:

    - the text up to B plus the next ``lookahead_words`` complete words (the context window):
      a finding that starts before B is a real one, because the sweep reads at most a few
      words past a figure ("5. Rounds" is a count of rounds to it, "4. Of your last 5" a count
      of rows). Such a finding stops the stream.
    - the text up to B alone: released only if it has no finding at all, so what a customer
      has read always passes the sweep on its own, even if the stream stops right after.

    Under a ruleset that binds figures to rows (``rulekit.bind``), the judgement of a figure
    can change until its binding sentence ends: "- 2,380 views" passes alone, and is
    misattributed once the line after the list names another post. When that sentence began
    before B and its text so far holds anything binding could bind (``bind.may_bind``), only
    the text before the sentence is settled: a finding there stops the stream, and nothing is
    released at B (a later boundary, or ``close``, judges it again). The hold-back is the
    binder's own reach (``bind.sentence_starts``), not a count of words.

    A boundary whose own text fails but whose context window passes (the figure is licensed by
    the next sentence) is skipped: nothing is released and the next boundary judges the text
    again. A boundary waits for its context window, and later ones wait behind it, so the
    windows, the audits and therefore the result do not depend on how the text was chunked.

    Both audits run only when a boundary is confirmed, never per chunk, against the evidence
    indexed once: about two audits of the text so far per sentence. ``now`` is when the
    evidence's rows are judged against their freshness budgets (the current time by default).
    ``inputs`` are what the user gave, as for ``audit``: they open the rows of entities that
    ``requires`` them, once, as the evidence is indexed; bad ones (or inputs beside an
    ``Evidence`` already built) stop the stream before anything is released.

    A stream longer than ``max_chars`` characters (``MAX_STREAM_CHARS``) stops there as a
    malformed reply: the text up to the cap is judged as if it had arrived alone, and nothing
    after it is read, so where the stream stops does not depend on the chunking either.
    """

    def __init__(self, policy: Policy | None, evidence: Any, *, locale: str | None = None,
                 question: str | None = None, slot_values: Sequence[str] = (), attempt: int = 1,
                 lookahead_words: int = LOOKAHEAD_WORDS, now: dt.datetime | None = None,
                 inputs: Mapping[str, str] | None = None,
                 max_chars: int = MAX_STREAM_CHARS) -> None:
        if isinstance(max_chars, bool) or not isinstance(max_chars, int) or max_chars < 1:
            raise ValueError(f"max_chars must be a positive number of characters, not "
                             f"{max_chars!r}")
        self._max_chars = max_chars
        self._policy = policy
        self._locale = locale or (policy or default_policy()).locale
        self._question = question
        self._slot_values = tuple(slot_values)
        self._attempt = attempt
        self._lookahead = lookahead_words
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="strict")
        self._text = ""
        self._boundaries = SentenceBoundaries()
        self._queue: list[int] = []             # confirmed boundaries not yet judged
        self._released_end = 0
        self._closed = False
        self._decision: Decision | None = None
        self._findings: tuple[Finding, ...] = ()
        self.tail = ""                          # what close() released
        self._inputs = None     # inputs still to apply: only when indexing failed
        self._now = None        # a `now` still to judge: only when indexing failed
        # gathered evidence's Sources panel (``rulekit.route.sources_of``), kept apart from
        # the index: inputs narrow the evidence into a plain copy
        self._sources = sources_of(evidence)
        try:
            problem = None if inputs is None else _inputs_problem(policy, inputs, evidence)
            if problem:
                raise ValueError(problem)
            if now is not None:     # a naive one is refused, as audit refuses it
                now = dates.moment(now)
            settings, opened = _settings_for(policy, evidence, inputs)
            self._evidence = settings.index(opened, self._locale, now=now)
        except Exception:   # fail closed: the probe below lets audit say why
            self._evidence, self._inputs, self._now = evidence, inputs, now
        # Whether binding (``rulekit.bind``) judges this text: it reads a whole sentence of its
        # own, further than the context window (``_settled_end``).
        self._binds = policy is not None and policy.binding.active and \
            isinstance(getattr(self._evidence, "raw", None), Mapping)
        # One audit of a text with nothing in it checks the locale, the question and the
        # evidence up front, the way audit checks them, so that a stream that cannot be
        # audited releases nothing. (An empty text would be refused for being empty.)
        probe = self._audit(".")
        if probe.findings:
            self._stop(probe)

    # --- what the caller reads --------------------------------------------------------------------

    @property
    def released(self) -> str:
        """All the text released so far, a prefix of what the model wrote."""
        return self._text[:self._released_end]

    @property
    def stopped(self) -> bool:
        """True once something failed: nothing more will be released."""
        return self._decision is not None and self._decision.decision != "answer"

    @property
    def decision(self) -> Decision | None:
        """None while the stream runs and passes; the failure's decision once stopped; the
        final decision after ``close``."""
        return self._decision

    @property
    def findings(self) -> tuple[Finding, ...]:
        return self._findings

    @property
    def text(self) -> str:
        """Everything received so far, released or not (up to ``max_chars``)."""
        return self._text

    # --- feeding ----------------------------------------------------------------------------------

    def feed(self, chunk: str | bytes) -> str:
        """Take the next piece of the stream; return the text newly released ("" if none)."""
        if self._closed or self.stopped:
            return ""
        piece = self._decode(chunk)
        if piece is None:
            return ""
        self._text += piece
        over = len(self._text) > self._max_chars
        if over:        # judge the text up to the cap, as if the stream had ended there
            self._text = self._text[:self._max_chars]
        self._queue.extend(self._boundaries.extend(self._text))
        released = self._settle(closing=False)
        if over and not self.stopped:
            self._stop(_cut_short(
                self._policy, f"the reply is over {self._max_chars:,} characters, the limit "
                "of a stream", self._attempt,
                "Your last reply was too long. Answer the question briefly, using only the data "
                "given."))
        return released

    def close(self) -> Decision:
        """End of stream: audit the whole text. Answer, and release the rest (``tail``), only
        if all of it passed; otherwise the decision of the first failure."""
        if self._closed:
            assert self._decision is not None
            return self._decision
        self._closed = True
        if not self.stopped:
            try:
                self._text += self._decoder.decode(b"", final=True)
            except UnicodeDecodeError as exc:
                self._stop(refused(self._policy, f"the stream ended inside a UTF-8 character: {exc.reason}"))
        if not self.stopped:
            before = self._released_end
            self._settle(closing=True)
            if not self.stopped:
                whole = self._audit(self._text)
                if whole.findings:
                    self._stop(whole)
                else:
                    self._released_end = len(self._text)
                    self._decision = whole.decision
            self.tail = self._text[before:self._released_end]
        assert self._decision is not None
        return self._decision

    def abort(self, reason: str) -> Decision:
        """The stream ended abnormally: the model's stream raised, or reported that the reply
        was cut off (a ``finish_reason`` such as "length" or "content_filter": ``cut_off``).
        What arrived is not the model's whole reply, so none of what is still held back is
        released, whether or not it would pass: the decision is the ruleset's ``on malformed_reply`` action at this attempt
        (regenerate, then its final action), with ``reason`` in its reasons. A stream that had
        already failed keeps its first failure; after ``close`` this changes nothing."""
        if self._closed:
            assert self._decision is not None
            return self._decision
        self._closed = True
        if not self.stopped:
            self._stop(_cut_short(self._policy, f"the reply is incomplete: {reason}",
                                  self._attempt))
        assert self._decision is not None
        return self._decision

    def consume(self, chunks: Iterable[str | bytes],
                finish_reason: Callable[[], str | None] | str | None = None) -> Iterator[str]:
        """The whole loop over a model's stream: feed each chunk and yield the text it
        released, stop reading at the first failure (closing ``chunks`` when it can be
        closed), and at the end ``close`` and yield the tail. When ``chunks`` raises, the
        stream is aborted with the error as the reason: the exception becomes the decision
        (``decision``), as everything does at run time, and is not raised again.

        ``finish_reason`` is what the provider said about the end of the reply, read once the
        chunks are exhausted (a callable, as it arrives with the last chunk, or the value): a
        reply cut off at its token limit or by a content filter, in any provider's words
        (``"length"``, ``"max_tokens"``, ``"SAFETY"``, ...: ``cut_off``), a reason rulekit does
        not know, or a callable that raises, is aborted, not closed, so its held-back text is
        never released."""
        iterator = iter(chunks)
        try:
            while not self.stopped:
                try:
                    chunk = next(iterator)
                except StopIteration:
                    try:
                        cut = cut_off(finish_reason() if callable(finish_reason)
                                      else finish_reason)
                    except Exception as exc:    # the end of the reply is unknown: fail closed
                        self.abort(f"the model's finish_reason could not be read: "
                                   f"{_described(exc)}")
                        return
                    if cut is not None:
                        self.abort(f"the reply was cut off: {cut}")
                        return
                    break
                except Exception as exc:    # the upstream failed: fail closed, never answer
                    self.abort(f"the model's stream failed: {_described(exc)}")
                    return
                piece = self.feed(chunk)
                if piece:
                    yield piece
            self.close()
            if self.tail:
                yield self.tail
        finally:
            close = getattr(iterator, "close", None)
            if close is not None:
                close()

    # --- inside -----------------------------------------------------------------------------------

    def _decode(self, chunk: str | bytes) -> str | None:
        """Bytes are decoded incrementally: a character split across chunks waits for its last
        byte. Anything else, or invalid UTF-8, stops the stream (fail closed)."""
        if isinstance(chunk, (bytes, bytearray, memoryview)):
            try:
                return self._decoder.decode(bytes(chunk))
            except UnicodeDecodeError as exc:
                self._stop(refused(self._policy, f"the stream is not valid UTF-8: {exc.reason}"))
                return None
        if isinstance(chunk, str):
            if self._decoder.getstate()[0]:
                self._stop(refused(self._policy, "text arrived while a UTF-8 character from "
                                   "bytes was still incomplete"))
                return None
            problem = surrogate_problem(chunk, "chunk")
            if problem is not None:
                self._stop(refused(self._policy, problem))
                return None
            return chunk
        self._stop(refused(self._policy, f"a chunk must be str or bytes, not {type(chunk).__name__}"))
        return None

    def _settle(self, closing: bool) -> str:
        """Judge the confirmed boundaries in order, as far as their context windows reach."""
        start = self._released_end
        while self._queue and not self.stopped:
            boundary = self._queue[0]
            window = self._window_end(boundary, closing)
            if window is None:
                break                           # its next words have not arrived
            self._queue.pop(0)
            settled = self._settled_end(boundary, window)
            block = self._open_blockquote(boundary, window)
            if block is not None:
                settled = min(settled, block)
            context = self._audit(self._text[:window]) if window > boundary else None
            own = self._audit(self._text[:boundary]) if context is None or \
                settled == boundary else None
            judged = context if context is not None else own
            flagged = tuple(f for f in judged.findings if f.start < settled)
            if flagged:
                if any(f.kind == "input" for f in flagged):
                    self._stop(judged)          # audit's own refusal
                else:
                    self._stop(AuditResult(flagged, self._decided(boundary, flagged)))
            elif settled == boundary and not own.findings and \
                    not self._inside_open_quote(boundary, window):
                self._released_end = boundary
            # else: the next words license it, the checker's sentence runs on past the
            # boundary, or a quote may still be open across it; a later boundary (or close)
            # judges this text again
        return self._text[start:self._released_end]

    def _window_end(self, boundary: int, closing: bool) -> int | None:
        """The end of the ``lookahead_words``-th complete word after ``boundary`` (one with a
        letter or a digit), and under binding at least two characters past the first one after
        the white space (binding needs them to say whether its sentence ends at the boundary);
        at the end of the stream, whatever there is."""
        pos, words = boundary, 0
        while words < self._lookahead:
            match = _WORD.match(self._text, pos)
            if match is None:
                return len(self._text) if closing else None
            pos = match.end()
            words += any(char.isalnum() for char in match.group())
        if self._binds:
            after = _first_non_space(self._text, boundary)
            if after + 2 > len(self._text):
                return len(self._text) if closing else None
            pos = max(pos, after + 2)
        return pos

    def _settled_end(self, boundary: int, window: int) -> int:
        """How much of the text before ``boundary`` no later text can change the judgement of.

        The sweep reads a few words past a figure: the context window holds them, so without
        binding all of it is settled. Binding reads a whole sentence: a figure is attributed to
        a row named later in its sentence ("- 2,380 views" to the post named on the line after
        the list), and its sentence ends only where ``rulekit.bind`` says so (a stop, white space
        and a capital or a CJK letter; a blank line; 。！？), not at a line break before a list
        item. So
        when the binding sentence that holds ``boundary`` began before it and its text so far
        holds anything binding could bind, only the text before that sentence is settled."""
        if not self._binds:
            return boundary
        text = self._text[:window]
        starts = sentence_starts(text)
        begun = starts[bisect.bisect_right(starts, _first_non_space(text, boundary)) - 1]
        if begun >= boundary:
            return boundary
        part = text[begun:boundary]
        return begun if may_bind(part, self._policy, scan(part, self._locale)) else boundary

    def _open_blockquote(self, boundary: int, window: int) -> int | None:
        """The start of a blockquote begun since the last release, before ``boundary``, whose
        judgement later text can still change; None when there is none.

        A blockquote (``> ...`` lines, ``<blockquote>``) is someone's words to the sweep when
        an attribution follows it: "— @lin.writes" on the line after its last one, or at the
        end of that line, or inside ``</blockquote>``. Until then its lines are the answer's
        own aside and pass alone, so the first line of an invented quote would be released.
        A Markdown block is settled once the line after it is there whole, or has begun with
        two characters that start no attribution (``—``, ``–``, ``--``, ``~``); an HTML one
        once ``</blockquote>`` has come. Only in the context window, so that the result does
        not depend on the chunking. It only delays text: ``close`` judges what is left."""
        part = self._text[self._released_end:boundary]
        if ">" not in part and "<" not in part:
            return None                         # the common case: no blockquote
        text = self._text[:window]
        since = text.rfind("\n", 0, self._released_end) + 1
        if "<" in part:
            low = text.lower()
            opening = low.find("<blockquote", since, boundary)
            while opening >= 0:
                if low.find("</blockquote>", opening, window) < 0:
                    return opening
                opening = low.find("<blockquote", opening + 1, boundary)
        block = last = None
        for match in _BLOCKQUOTE_LINE.finditer(text, since, boundary):
            if last is None or text.rfind("\n", 0, match.start()) + 1 != last:
                block = match.start()           # a new block, not the next line of one
            last = text.find("\n", match.start()) + 1
            if not last:
                return block                    # its line has not ended
        if block is None:
            return None
        while True:                             # to the line after the block
            end = text.find("\n", last)
            line = text[last:end if end >= 0 else len(text)].lstrip(" \t")
            if not line.startswith(">"):
                break
            if end < 0:
                return block
            last = end + 1
        if end >= 0 or (len(line) >= 2 and not line.startswith(_ATTRIBUTION_MARKS)):
            return None
        return block

    def _inside_open_quote(self, boundary: int, window: int) -> bool:
        """Whether ``boundary`` may lie inside a quote opened since the last release with a mark
        the splitter does not track (``_UNTRACKED_OPENING``: ', ″, *...* after "Dana wrote:",
        <q>, ...). Until it closes, the scanner sees no quote, so the first half of an invented
        one would pass alone: the text is read as if the quote closed at the end of the
        window, and a quote the scanner then finds across the boundary holds it back. Only
        delays: a mark that never closes is released by a line break (these quotes stay on one
        line) or by ``close``."""
        part = self._text[self._released_end:boundary]
        if _UNTRACKED_MARKS.isdisjoint(part):
            return False                        # the common case: one pass over the sentence
        closers = {_CLOSING_OF[match.group().lower()]
                   for match in _UNTRACKED_OPENING.finditer(part)}
        text = self._text[:window]
        return any(mention.kind == "quote" and mention.start < boundary < mention.end
                   for closer in sorted(closers) for mention in scan(text + closer, self._locale))

    def _audit(self, text: str) -> AuditResult:
        return audit(text, self._evidence, policy=self._policy, question=self._question,
                     locale=self._locale, slot_values=self._slot_values, attempt=self._attempt,
                     inputs=self._inputs, now=self._now, sources=self._sources)

    def _decided(self, boundary: int, flagged: tuple[Finding, ...]) -> Decision:
        return decide(self._policy or default_policy(), self._text[:boundary], flagged,
                      self._attempt)

    def _stop(self, result: AuditResult) -> None:
        self._decision = result.decision
        self._findings = tuple(result.findings)
        if self._decision.decision == "answer":    # never: a stop always fails closed
            self._decision = refused(self._policy, "the stream was stopped").decision


def _cut_short(policy: Policy | None, reason: str, attempt: int,
               feedback: str = "Your last reply did not arrive whole. Answer again, briefly, "
                               "using only numbers, quotes, handles and links that appear in "
                               "the data exactly.") -> AuditResult:
    """A reply that did not arrive whole (or ran past the cap), judged as ``ground`` judges a
    malformed one: the ruleset's ``on malformed_reply`` action at ``attempt``. Free text holds
    no verified fact, so a fallback refuses, as ``audit.decide`` does."""
    why = Reason("malformed_reply", reason)
    decision = decision_for(policy or default_policy(), [Failure("malformed_reply", why)],
                            attempt, feedback=feedback)
    return AuditResult((Finding("input", "", None, 0, 0, "malformed_reply", reason),), decision)


def _described(exc: BaseException) -> str:
    """An exception as a reason says it: its type, and its message when it has one."""
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _first_non_space(text: str, pos: int) -> int:
    """The first offset from ``pos`` that is not white space (``len(text)`` if none)."""
    while pos < len(text) and text[pos].isspace():
        pos += 1
    return pos


__all__ = ["LOOKAHEAD_WORDS", "MAX_STREAM_CHARS", "SentenceBoundaries", "StreamGate"]
