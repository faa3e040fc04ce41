"""StreamGate (rulekit.stream): releasing a streamed answer sentence by sentence.

Properties, for any text and any way of cutting it into chunks (inside numbers, words,
Markdown, and inside multi-byte characters when fed as bytes):

(1) what was released, piece by piece, is always a prefix of the text;
(2) the released text always passes the sweep on its own: audit(released) has no findings;
(3) chunking changes nothing: the final decision and the released text are those of feeding
    the whole text at once;
(4) if the batch audit of the whole text passes, close() answers and releases all of it;
(5) nothing released is flagged by the batch audit of the whole text, however far the checker
    reads to judge it (a list of figures is attributed by a row named after the list).

Then concrete cases: a failing second sentence, a figure cut across chunks, abbreviations,
Markdown, the analytics example answers, and failing closed.
"""

from __future__ import annotations

import enum
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import rulekit
from rulekit.audit import audit, default_policy
from rulekit.policy import OUTCOMES, Action, OutcomeAction
from rulekit.stream import SentenceBoundaries, StreamGate
from rulekit.sweep import SweepSettings

ROOT = Path(__file__).resolve().parent.parent
ANALYTICS = json.loads((ROOT / "rulesets/examples/analytics.json").read_text())
POLICY = rulekit.load(str(ROOT / "rulesets/analytics.rules"))
QUESTION = ANALYTICS["question"]
EVIDENCE = SweepSettings.from_policy(POLICY).index(ANALYTICS["evidence"], POLICY.locale)

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# --- text ------------------------------------------------------------------------------------------

# Sentences that pass against the analytics evidence, sentences that fail, and pieces that
# try to fool a sentence splitter: abbreviations, decimals, URLs, e-mail addresses, quotes,
# Markdown, CJK stops, figures that a following word licenses ("5. Rounds").
PASSING = [
    "Your best post this month had 4,120 views.",
    "Across 5 posts you had 12034 views.",
    "Your engagement rate was 4.6%.",
    "See https://threads.example/@mindthread/post/81 for details.",
    "@lin.writes commented on your 2nd post.",
    'Your post "Three ways to plan a week of posts" did best.',
    "The average was 2,986 views, e.g. on weekdays.",
    "Dr. Lin says your **2,380** views are fine.",
    "It had 160 likes (approx. a third of the views? No.)",
    "Post [p1](https://threads.example/@mindthread/post/81) had 21 replies.",
    "Your `posts_published` value is 5.",
    "你的帖子有4,120次浏览。",
    "Posts:\n- p1 had 4120 views\n- p2 had 2380 views\n",
    "\n\n",
]
FAILING = [
    "Your 9 pm post reached 3,100 views.",
    "You had about 12k views this month.",
    "Your best post got twice the views of your average post.",
    '@lin.write said "this changed everything for me".',
    "See https://threads.example/@mindthread/post/8 for details.",
    "It ships in 3 days.",
    "It cost $1,299.00 in total.",
    "帖子增长了七倍。",
]
PIECES = PASSING + FAILING + [
    " ", "\n", ". ", "3.5", "1,299.00", "v2.1", "example.com/a.b", "ada@example.com", "**1**,299",
    '"', "“", "”", "[", "](", ")", "`", "**", "e.g.", "No. 3", "12", "34", " views", "You played 5. ",
    "Rounds went well.", "Of your last 5 posts, 2 did well.", " 4,120", " 2380", "é", "€", "🙂",
    "。", "! ", "? ", "A. ", "...", "\n\n",
    "@lin.writes wrote: ", "'", " 'This is so good. ", "″", "*", "_", "<q>", "</q>", "didn't ",
]

# Replies whose figures binding attributes to a row named further on: after a list, on the
# line after it, in the same sentence. Faithful ones pass the batch audit, wrong ones do not.
THREE_WAYS = '"Three ways to plan a week of posts"'
BOUND_FAITHFUL = [
    f"Here are the numbers:\n- 4,120 views\n- 160 likes\n- 21 replies\nThose are for {THREE_WAYS}.",
    f"{THREE_WAYS} had:\n- 4,120 views\n- 160 likes\n\n\"Why we post at 9 pm\" had:\n- 2,380 "
    "views\n- 96 likes",
    f"- 2,380 views\n- 96 likes\n- 14 replies\n\n{THREE_WAYS} did best.",
    f"Your best:\n- 4,120 views\n- 160 likes\nfor {THREE_WAYS}. Then:\n- 96 likes\nfor \"Why we "
    "post at 9 pm\".",
    'Your best post had 4,120 views. "Why we post at 9 pm" had 96 likes and 14 replies.',
]
BOUND_WRONG = [
    f"Here are the numbers:\n- 2,380 views\n- 96 likes\n- 14 replies\n{THREE_WAYS} did best.",
    f"Here are the numbers:\n- 2,380 views\n- 96 likes\n- 14 replies\nThose are for {THREE_WAYS}.",
    "Here is the link:\n- https://threads.example/@mindthread/post/82\n- 2 posts\nBoth are for "
    f"{THREE_WAYS}.",
    f"Your best:\n- 4,120 views\n- 96 likes\nfor {THREE_WAYS}. Then:\n- 160 likes\nfor \"Why we "
    "post at 9 pm\".",
    f"Numbers first: 2,380 views. Then 96 likes\nand 14 replies\nfor {THREE_WAYS} in all.",
]
PIECES += BOUND_FAITHFUL + BOUND_WRONG

texts = st.one_of(
    st.lists(st.sampled_from(PIECES), max_size=12).map("".join),
    st.lists(st.sampled_from(PASSING), max_size=6).map(" ".join),
    st.text(alphabet=st.sampled_from(list("ab .,!?\n\"“”*`[]()3459@é€🙂。Tx")), max_size=60),
)


@st.composite
def cuts(draw, length: int) -> list[int]:
    """Where to cut a text (or its bytes) of ``length`` into chunks."""
    if length == 0:
        return []
    points = draw(st.lists(st.integers(1, max(1, length - 1)), max_size=min(length, 20)))
    if draw(st.booleans()) and length <= 200:
        points += list(range(1, length))[:: draw(st.integers(1, 4))]   # many tiny chunks
    return sorted(set(points))


def chunks_of(data, points: list[int]) -> list:
    edges = [0, *points, len(data)]
    return [data[a:b] for a, b in zip(edges, edges[1:])]


def run(text_or_bytes, points: list[int] | None = None, evidence=EVIDENCE, policy=POLICY,
        **kwargs) -> tuple[StreamGate, list[str]]:
    gate = StreamGate(policy, evidence, question=QUESTION, **kwargs)
    pieces = []
    for chunk in chunks_of(text_or_bytes, points or []):
        piece = gate.feed(chunk)
        assert gate.released.endswith(piece)
        pieces.append(piece)
    gate.close()
    pieces.append(gate.tail)
    return gate, pieces


def batch(text: str):
    return audit(text, EVIDENCE, policy=POLICY, question=QUESTION)


# --- properties ------------------------------------------------------------------------------------

@SETTINGS
@given(st.data(), texts, st.booleans())
@example(None, "The raincoat costs $1,299.00. It ships in 3 days. Thanks.", False)
@example(None, "You played 5. Rounds went well. Of your last 5 posts, 2 did well.", False)
def test_streaming_properties(data, text, as_bytes):
    raw = text.encode("utf-8") if as_bytes else text
    points = data.draw(cuts(len(raw))) if data is not None else [3, 17, 30]
    gate, pieces = run(raw, points)
    whole, _ = run(text)
    released = "".join(pieces)

    # (1) a prefix of the text, and exactly what gate.released says
    assert released == gate.released
    assert text.startswith(released)
    # (2) what the customer read passes on its own, even if the stream stopped right after
    assert released == "" or not batch(released).findings
    # (3) chunking changes nothing
    assert gate.decision == whole.decision
    assert gate.released == whole.released
    assert gate.findings == whole.findings
    # (4) a text that passes as a whole is released whole
    full = batch(text)
    if not full.findings:
        assert gate.decision.decision == "answer" and released == text
        assert gate.decision.text == text
    else:
        assert gate.decision.decision != "answer" and gate.stopped
    # never an unchecked answer
    assert gate.decision.decision != "answer" or not full.findings
    # (5) nothing the customer read is flagged once the whole text is known
    assert all(f.start >= len(released) for f in full.findings)


def _spans(findings) -> set:
    return {(f.start, f.end, f.code) for f in findings}


@SETTINGS
@given(st.data(), st.sampled_from(BOUND_FAITHFUL + BOUND_WRONG),
       st.sampled_from(["", "Here is what I found. ", "Hi!\n\n"]),
       st.sampled_from(["", " Ask me anything else.", "\n\nThat is all."]))
def test_no_released_prefix_is_flagged_by_the_batch_audit(data, reply, before, after):
    """However the stream is cut, the checker's own reach (a list attributed by the row named
    after it) never makes a released figure wrong afterwards; the decision is the batch one."""
    text = before + reply + after
    full = batch(text)
    gate = StreamGate(POLICY, EVIDENCE, question=QUESTION)
    for chunk in chunks_of(text, data.draw(cuts(len(text)))):
        gate.feed(chunk)
        assert all(f.start >= len(gate.released) for f in full.findings)
        if gate.stopped:
            break
    decision = gate.close()
    assert all(f.start >= len(gate.released) for f in full.findings)
    assert decision.decision == full.decision.decision
    assert _spans(gate.findings) <= _spans(full.findings)
    if reply in BOUND_FAITHFUL:
        assert decision.decision == "answer" and gate.released == text


@SETTINGS
@given(texts, st.data())
def test_sentence_boundaries_do_not_depend_on_chunks(text, data):
    """The boundaries found by reading a text at once are found reading it in any chunks."""
    whole = SentenceBoundaries().extend(text)
    finder, found, so_far = SentenceBoundaries(), [], ""
    for chunk in chunks_of(text, data.draw(cuts(len(text)))):
        so_far += chunk
        found += finder.extend(so_far)
    assert found == whole
    assert found == sorted(set(found)) and all(0 < b <= len(text) for b in found)


# --- concrete cases --------------------------------------------------------------------------------

RAINCOAT = {"product": {"name": "raincoat", "price": "1,299.00", "colours": ["red", "blue", "ochre"]}}


def test_a_failing_sentence_stops_the_stream_after_the_one_before():
    gate = StreamGate(None, RAINCOAT)
    text = "The raincoat costs $1,299.00. It ships in 3 days. Order it today, it is nice."
    released = gate.feed(text)
    assert released == "The raincoat costs $1,299.00."
    assert gate.stopped and gate.decision.decision == "regenerate"
    assert [f.text for f in gate.findings] == ["3"]
    assert gate.feed(" More text. And more.") == ""
    assert gate.close() is gate.decision
    assert gate.released == "The raincoat costs $1,299.00." and gate.tail == ""


def test_the_last_sentence_is_judged_by_close():
    gate = StreamGate(None, RAINCOAT)
    assert gate.feed("The raincoat costs $1,299.00. It ships in 3 days.") == \
        "The raincoat costs $1,299.00."
    assert not gate.stopped and gate.decision is None
    decision = gate.close()
    assert decision.decision == "regenerate" and "3" in decision.feedback
    assert gate.released == "The raincoat costs $1,299.00."


def test_a_figure_cut_across_chunks_is_not_released_early():
    gate = StreamGate(None, RAINCOAT)
    assert gate.feed("The raincoat costs $1,2") == ""
    assert gate.feed("99.00") == ""
    assert gate.feed(".") == ""          # "$1,299.00.5" is still possible
    assert gate.feed(" It comes in ") == ""
    assert gate.feed("red and blue. ") == "The raincoat costs $1,299.00."
    assert gate.close().decision == "answer"
    assert gate.released == "The raincoat costs $1,299.00. It comes in red and blue. "


def test_a_number_continued_in_the_next_chunk():
    """"12" + "34 views": a figure the evidence does not hold appears only when joined."""
    gate = StreamGate(None, {"views": 12})
    assert gate.feed("You had 12") == ""
    gate.feed("34 views. Nice work, well done again. ")
    assert gate.stopped and [f.text for f in gate.findings] == ["1234"]
    assert gate.released == ""


def test_abbreviations_are_not_sentence_ends():
    gate = StreamGate(None, RAINCOAT)
    assert gate.feed("Pick e.g. 3 colours. Then ") == ""
    assert gate.feed("pick one") == ""
    assert gate.close().decision == "answer"        # 3 colours: the list holds three
    assert gate.released == "Pick e.g. 3 colours. Then pick one"
    assert SentenceBoundaries().extend("Ask Dr. Lin. Or approx. Ten people. Now go ") == [
        len("Ask Dr. Lin."), len("Ask Dr. Lin. Or approx. Ten people.")]


@pytest.mark.parametrize("text", [
    "It costs 3.5 or 1,299.00 in v2.1 now. ",
    "Go to example.com/a.b or mail ada@example.com and wait. ",
    "It is **1**,299 each. ",
    "Read [the guide. It helps](https://example.com/a.b) first. ",
    "Run `make. Then test` first. ",
    'He said "it works. Honestly" to me. ',
    "He said “it works. Honestly” to me. ",
    "Code:\n```\nprint(1)\n\nx = 2. Then\n```\nDone. ",
])
def test_no_boundary_inside_figures_links_code_or_quotes(text):
    found = SentenceBoundaries().extend(text + "Next one")
    assert found == [len(text) - 1]


def test_line_breaks_before_list_items_and_blank_lines_end_sentences():
    text = "Your posts\n- p1: 4120 views\n- p2: 2380 views\n\nThat is all. X"
    found = SentenceBoundaries().extend(text)
    assert [text[:b].rsplit("\n", 1)[-1] or text[:b].splitlines()[-1] for b in found] == [
        "Your posts", "- p1: 4120 views", "- p2: 2380 views", "That is all."]


def test_multi_byte_characters_split_across_byte_chunks():
    text = "Ihr Beitrag hatte 4120 Aufrufe. Schön, oder? 🙂 Ja, sehr schön. "
    data = text.encode("utf-8")
    gate = StreamGate(POLICY, EVIDENCE)
    out = "".join(gate.feed(data[i:i + 1]) for i in range(len(data)))
    assert "\ufffd" not in out and text.startswith(out) and out
    assert gate.close().decision == "answer" and gate.released == text


def test_a_sentence_licensed_by_the_next_one_is_held_not_stopped():
    """The sweep reads "5. Rounds" as 5 rounds: "I played 5." fails alone but not in context,
    so it is held (not released, not stopped) until a boundary whose text passes."""
    evidence = {"rounds": [{"score": 70 + i} for i in range(5)]}
    gate = StreamGate(None, evidence)
    assert gate.feed("I played 5. Rounds went well, all of them. ") == ""
    assert not gate.stopped
    assert gate.feed("And that ") == ""       # its context window is not complete yet
    assert gate.feed("is all. ") == "I played 5. Rounds went well, all of them."
    assert gate.close().decision == "answer"


@pytest.mark.parametrize("text", ["I played 5. Rounds went well, all of them. Done here now.",
                                  "I won 4. Of your last 5 rounds, all went well. OK then."])
def test_without_a_context_window_prefix_audits_would_stop_a_passing_text(text):
    """Why the window: with no words of lookahead the gate stops a text the batch passes."""
    evidence = {"rounds": [{"score": 70 + i} for i in range(5)]}
    assert not audit(text, evidence).findings
    blind = StreamGate(None, evidence, lookahead_words=0)
    blind.feed(text)
    assert blind.close().decision == "regenerate"
    gate = StreamGate(None, evidence)
    gate.feed(text)
    assert gate.close().decision == "answer" and gate.released == text


@pytest.mark.parametrize("marks", ["** ** ** **", '"" "" "" ""', "* * * * * *"])
def test_marks_between_sentences_do_not_shorten_the_context_window(marks):
    """The sweep skips words of punctuation alone when it reads the words after a figure
    ("5. ** ** ** ** Rounds" is still 5 rounds), so the window does not count them either."""
    evidence = {"rounds": [{"score": 70 + i} for i in range(5)]}
    text = f"I played 5. {marks} Rounds went well, all of them. Done here now."
    assert not audit(text, evidence).findings
    gate = StreamGate(None, evidence)
    gate.feed(text)
    assert gate.close().decision == "answer" and gate.released == text


@pytest.mark.parametrize("text", BOUND_WRONG[:2])
def test_a_list_is_held_until_the_row_it_is_attributed_to_has_come(text):
    """A list of figures belongs to the row named on the line after it: released item by item,
    "2,380 views" passed on its own and was then misattributed to "Three ways..."."""
    gate = StreamGate(POLICY, ANALYTICS["evidence"])
    released = "".join(gate.feed(char) for char in text)
    assert released == "Here are the numbers:" and not gate.stopped   # nothing in it to bind
    decision = gate.close()
    assert decision.decision == "regenerate" and gate.tail == ""
    assert gate.released == "Here are the numbers:"
    assert [(f.text, f.code) for f in gate.findings] == [
        ("2,380", "misattributed"), ("96", "misattributed"), ("14", "misattributed")]


# Every family of quote marks the scanner reads (rulekit/scan/quotes.py), beyond the straight
# and curly ones the sentence splitter tracks itself; and Markdown emphasis or <q> introduced
# as someone's words.
QUOTE_MARKS = [("'", "'"), ("″", "″"), ("＂", "＂"), ("〝", "〞"), ("‟", "”"), ("〃", "〃"),
               ("*", "*"), ("_", "_"), ("<q>", "</q>"), ("❝", "❞"), ("⹂", "“"), ("‛", "’"),
               ("❛", "❜"), ("❮", "❯"), ("˝", "˝")]


@pytest.mark.parametrize("opener, closer", QUOTE_MARKS)
def test_no_half_of_an_invented_quote_is_released(opener, closer):
    # Cut at its first full stop, the invented quote's first half passes on its own (an
    # unclosed mark is no quote): it must wait for the quote to close, and then fail whole.
    text = (f"@lin.writes wrote: {opener}This is so good. Then I posted every day and it kept "
            f"growing{closer} on your post. Nice work.")
    gate, pieces = run(text, list(range(1, len(text))))
    assert gate.released == "" and gate.decision.decision == "regenerate"
    assert [f.code for f in gate.findings] == ["unsupported_quote"]


@pytest.mark.parametrize("opener, closer", QUOTE_MARKS)
def test_a_faithful_quote_is_released_once_it_has_closed(opener, closer):
    quote = f"@lin.writes wrote: {opener}This doubled my reach! 3100 views in a day{closer}."
    text = f"{quote} Nice work on that post. Your best post had 4,120 views. Keep going."
    gate = StreamGate(POLICY, EVIDENCE, question=QUESTION)
    streamed = "".join(gate.feed(char) for char in text)
    assert streamed.startswith(quote)       # released before the stream ended
    assert gate.close().decision == "answer" and gate.released == text


# A blockquote is someone's words only once what follows it says so: "— @lin.writes" after
# its last line (or at the end of it), or </blockquote> with the attribution inside. Before
# that its lines are the answer's own aside, and pass alone.
INVENTED_BLOCKS = [
    "Here is what people said this month:\n> Best planning tool I have ever used.\n"
    "> Changed how I post every single week.\n— @lin.writes",
    "Feedback this month:\n> Best planning tool I have ever used.\n"
    "> Changed how I post every single week. — @lin.writes",
    "Here is what people said this month:\n<blockquote>Best planning tool I have ever used. "
    "Changed how I post every single week. — @lin.writes</blockquote>",
    "Here is what people said.\n> Best planning tool I have ever used.\n"
    "> Changed how I post every single week.\n— @lin.writes\nNice work on that post. Keep going.",
]
FAITHFUL_BLOCKS = [
    "Here is what people said this month:\n> This doubled my reach! 3100 views in a day\n"
    "— @lin.writes\nNice work on that post. Keep going with posts like it every week.",
    "A tip for next month.\n> Post at the same time every day.\n> Reply to every comment.\n"
    "Your best post had 4,120 views. Keep going with posts like it every week.",
    "Here is what people said:\n<blockquote>This doubled my reach! 3100 views in a day — "
    "@lin.writes</blockquote>\nNice work on that post. Keep going with posts like it every week.",
]
PIECES += INVENTED_BLOCKS + FAITHFUL_BLOCKS + ["\n> ", "> ", "\n— @lin.writes", "<blockquote>",
                                               "</blockquote>", "Best planning tool ever. "]


@pytest.mark.parametrize("text", INVENTED_BLOCKS)
@pytest.mark.parametrize("by_char", [False, True])
def test_no_line_of_an_invented_blockquote_is_released(text, by_char):
    gate, _ = run(text, list(range(1, len(text))) if by_char else None)
    full = batch(text)
    assert full.findings and gate.decision.decision == full.decision.decision
    assert all(f.start >= len(gate.released) for f in full.findings), gate.released
    assert ">" not in gate.released and "Best" not in gate.released


@pytest.mark.parametrize("text", FAITHFUL_BLOCKS)
def test_a_blockquote_is_released_once_the_line_after_it_has_come(text):
    gate = StreamGate(POLICY, EVIDENCE, question=QUESTION)
    streamed = "".join(gate.feed(char) for char in text)
    block_end = text.index("\n", text.rindex(">")) if "</blockquote>" not in text \
        else text.index("</blockquote>") + len("</blockquote>")
    assert len(streamed) > block_end, streamed      # released before the stream ended
    assert gate.close().decision == "answer" and gate.released == text


def test_apostrophes_do_not_hold_a_sentence_back():
    text = "Your best post didn't stop growing. It's had 4,120 views, the most of 'em all. Nice work."
    gate = StreamGate(POLICY, EVIDENCE, question=QUESTION)
    streamed = "".join(gate.feed(char) for char in text)
    assert streamed == "Your best post didn't stop growing."
    assert gate.close().decision == "answer" and gate.released == text


def test_a_list_closed_by_a_blank_line_is_released_before_the_row_after_it():
    text = BOUND_FAITHFUL[2]
    gate = StreamGate(POLICY, ANALYTICS["evidence"])
    released = "".join(gate.feed(char) for char in text)
    assert released == "- 2,380 views\n- 96 likes\n- 14 replies\n"
    assert gate.close().decision == "answer" and gate.released == text


@pytest.mark.parametrize("index", range(len(ANALYTICS["answers"])))
def test_analytics_example_answers(index):
    answer = ANALYTICS["answers"][index]["text"]
    expected = batch(answer)
    prefix = "Here is what I found in your data. "
    text = prefix + answer + " Ask me anything else about your posts."
    gate = StreamGate(POLICY, ANALYTICS["evidence"], question=QUESTION)
    released = "".join(gate.feed(text[i:i + 7]) for i in range(0, len(text), 7))
    decision = gate.close()
    if expected.findings:
        assert decision.decision == "regenerate" and gate.stopped
        assert released == prefix.rstrip()
        assert {f.text for f in gate.findings} == {f.text for f in expected.findings}
    else:
        assert decision.decision == "answer" and gate.released == text


def test_the_second_attempt_refuses():
    gate = StreamGate(POLICY, EVIDENCE, attempt=2)
    gate.feed("Your 9 pm post reached 3,100 views. That is a lot of views, well done.")
    assert gate.stopped and gate.decision.decision == "refuse"


def test_a_promise_under_prose_guarded_stops_the_stream():
    """`prose guarded` holds in the prose channel: a promise no figure backs stops the stream
    after the sentence before it, with the ruleset's unapproved_shape action; the same text
    under `prose free` streams through (tests/cases/sweep/prose_guarded.yaml)."""
    evidence = {"order": [{"id": "A-1001", "total": 59.9, "status": "shipped"}]}
    text = "Order A-1001 has shipped. We will refund you in full, as always. Thanks!"
    guarded = StreamGate(rulekit.load(str(ROOT / "tests/cases/sweep/refunds.rules")), evidence)
    assert guarded.feed(text) == "Order A-1001 has shipped."
    assert guarded.close().decision == "regenerate"
    assert guarded.released == "Order A-1001 has shipped."
    assert [(f.code, f.text) for f in guarded.findings] == [("unapproved_shape", "We will refund"),
                                                            ("unapproved_shape", "always")]
    free = StreamGate(rulekit.load(str(ROOT / "tests/cases/sweep/refunds_free.rules")), evidence)
    free.feed(text)
    assert free.close().decision == "answer" and free.released == text


@pytest.mark.parametrize("chunks", [
    [b"Views: 4120 \xff views."],                   # not UTF-8
    [b"Views: 4120 \xe2\x82", "more text"],          # str while a character is incomplete
    ["Views: 4120 ", 4120],                          # neither str nor bytes
    [b"Views: 4120 \xe2\x82"],                       # ends inside a character
])
def test_bad_chunks_fail_closed(chunks):
    gate = StreamGate(POLICY, EVIDENCE)
    for chunk in chunks:
        gate.feed(chunk)
    decision = gate.close()
    assert decision.decision == "refuse" and not decision.delivered
    assert gate.findings and gate.findings[0].code == "input_error"
    assert gate.feed("Views: 4120. ") == ""


def test_bad_evidence_or_locale_fails_closed():
    gate = StreamGate(None, {"views": 4120}, locale="xx_NOPE")
    assert gate.stopped and gate.feed("You had 4120 views. Nice. Very nice indeed.") == ""
    assert gate.close().decision == "refuse"


def test_an_empty_stream_is_refused_not_answered_with_nothing():
    gate = StreamGate(None, {})
    assert gate.close().decision == "refuse" and gate.released == ""


# --- a stream that ends abnormally -----------------------------------------------------------------

def _dropped(*chunks):
    """A model stream that sends ``chunks`` and then loses its connection."""
    yield from chunks
    raise ConnectionError("stream reset")


def test_abort_fails_closed_and_releases_nothing_more():
    """The connection dropped mid-sentence: close() would have audited the partial tail and
    answered with it ("Posting at 9 pm is "); abort() fails closed instead."""
    gate = StreamGate(POLICY, EVIDENCE)
    assert gate.feed("Your best post got 4,120 views. ") == ""
    assert gate.feed("Posting at 9 pm is ") == "Your best post got 4,120 views."
    decision = gate.abort("the model's stream failed: ConnectionError: stream reset")
    assert decision.decision == "regenerate" and not decision.delivered   # on malformed_reply
    assert decision.reasons[0].code == "malformed_reply"
    assert "stream reset" in decision.reasons[0].message
    assert gate.stopped and gate.tail == "" and gate.released == "Your best post got 4,120 views."
    assert gate.feed("Next. ") == "" and gate.close() is decision and gate.abort("again") is decision


def test_a_stream_past_its_length_cap_fails_closed():
    """A runaway model repeating a faithful sentence: each boundary audits the whole prefix,
    so past the cap the stream stops as a malformed reply (as ground's reply cap does), with
    what it released kept, and the same release however the text was cut."""
    text = "Your best post got 4,120 views. " * 12
    whole, _ = run(text, max_chars=200)
    by_char, _ = run(text, list(range(1, len(text))), max_chars=200)
    for gate in (whole, by_char):
        assert gate.stopped and gate.decision.decision == "regenerate"
        assert gate.decision.reasons[0].code == "malformed_reply"
        assert "200 characters" in gate.decision.reasons[0].message
        assert "too long" in gate.decision.feedback
        assert 0 < len(gate.released) <= 200 and not batch(gate.released).findings
    assert whole.released == by_char.released and whole.findings == by_char.findings


def test_the_default_length_cap():
    from rulekit.stream import MAX_STREAM_CHARS

    gate = StreamGate(POLICY, EVIDENCE)
    gate.feed("x" * MAX_STREAM_CHARS)
    assert not gate.stopped
    gate.feed("x")
    assert gate.stopped and gate.decision.reasons[0].code == "malformed_reply"
    with pytest.raises(ValueError, match="max_chars"):
        StreamGate(POLICY, EVIDENCE, max_chars=0)


def test_abort_on_the_last_attempt_takes_the_rulesets_final_action():
    gate = StreamGate(POLICY, EVIDENCE, attempt=2)
    gate.feed("Your 9 pm post got 2")           # cut off at the token limit: 2,380 was meant
    decision = gate.abort("the reply was cut off at the token limit (finish_reason length)")
    assert decision.decision == "refuse" and gate.released == "" and gate.tail == ""
    assert decision.message.startswith("I couldn't put that answer together")
    assert "finish_reason length" in decision.reasons[0].message


@pytest.mark.parametrize("action,decision,message,next_action,codes", [
    (Action(kind="ask", hint="ask_which", message="Which {fields}?"), "ask", "Which figures?",
     "ask_which", ["malformed_reply"]),
    (Action(kind="handoff", message="A person will answer."), "handoff", "A person will answer.",
     "handoff", ["malformed_reply"]),
    (Action(kind="fallback", fallback="summary"), "refuse", "I couldn't find that number.", None,
     ["malformed_reply", "fallback_unavailable"]),
    (Action(kind="refuse", message="No {fields} for {entity}{id}."), "refuse",
     "No figures for data.", None, ["malformed_reply"]),
])
def test_abort_takes_each_kind_of_action_as_free_text_does(action, decision, message, next_action,
                                                           codes):
    """A reply cut short is free text with no verified fact (``audit.decision_for``): a
    fallback cannot be built and refuses, and a refusal, an ask or a handoff reads its
    placeholders as free text's (never a literal "{fields}" to the customer)."""
    policy = default_policy().model_copy(update={"actions": tuple(
        OutcomeAction(outcome=outcome, action=action) for outcome in OUTCOMES)})
    got = StreamGate(policy, {"views": 4120}).abort("dropped")
    assert (got.decision, got.next_action) == (decision, next_action)
    assert got.message.startswith(message)
    assert [r.code for r in got.reasons] == codes and not got.delivered


def test_abort_keeps_an_earlier_failure_and_close_keeps_its_answer():
    gate = StreamGate(None, RAINCOAT)
    gate.feed("The raincoat costs $1,299.00. It ships in 3 days. Order it today, it is nice.")
    failed = gate.decision
    assert gate.abort("dropped") is failed and [f.text for f in gate.findings] == ["3"]
    gate = StreamGate(None, RAINCOAT)
    gate.feed("The raincoat costs $1,299.00.")
    answered = gate.close()
    assert gate.abort("dropped") is answered and answered.decision == "answer"


def test_consume_runs_the_loop_and_aborts_when_the_stream_raises():
    gate = StreamGate(POLICY, EVIDENCE)
    pieces = list(gate.consume(_dropped("Your best post got 4,120 views. ", "Posting at 9 pm is ")))
    assert pieces == ["Your best post got 4,120 views."]
    assert gate.decision.decision == "regenerate" and gate.tail == ""
    assert "ConnectionError: stream reset" in gate.decision.reasons[0].message


def test_consume_answers_a_whole_stream_and_stops_at_a_failure():
    gate = StreamGate(None, RAINCOAT)
    text = "The raincoat costs $1,299.00. It comes in red and blue. "
    assert "".join(gate.consume(iter([text[:9], text[9:40], text[40:]]))) == text
    assert gate.decision.decision == "answer"
    closed = []

    def model():
        try:
            yield "The raincoat costs $1,299.00. It ships in 3 days. Order it today. "
            yield "More text. "
        finally:
            closed.append(True)

    gate = StreamGate(None, RAINCOAT)
    assert list(gate.consume(model())) == ["The raincoat costs $1,299.00."]
    assert gate.decision.decision == "regenerate" and closed == [True]


class _Finish(enum.Enum):     # a provider SDK's finish reason, an enum rather than a str
    LENGTH = 1


# How each provider says a reply was cut off: OpenAI "length" and "content_filter", Anthropic
# and Bedrock "max_tokens", Gemini "MAX_TOKENS", "SAFETY" and "RECITATION", the Responses API
# "max_output_tokens", Mistral "model_length", Bedrock "guardrail_intervened", Anthropic
# "refusal"; in any case; and a reason rulekit does not know, or one that is not text, which
# cannot say the reply is whole.
@pytest.mark.parametrize("finish_reason", [
    "length", "content_filter", lambda: "length", "max_tokens", "MAX_TOKENS", "Length",
    "max_output_tokens", "model_length", "SAFETY", "RECITATION", "guardrail_intervened",
    "content_filtered", "refusal", "abort", _Finish.LENGTH, lambda: "max_tokens"])
def test_consume_aborts_a_reply_the_provider_says_was_cut_off(finish_reason):
    # The stream ended without an error, but the provider's finish_reason says the reply was
    # cut: "It is not" must not reach the customer as the end of an answer.
    gate = StreamGate(None, RAINCOAT)
    released = "".join(gate.consume(["The Navy raincoat is $1,2", "99.00. It is not"],
                                     finish_reason=finish_reason))
    assert gate.decision.decision != "answer"
    assert "It is not" not in released
    assert "cut off" in gate.decision.reasons[-1].message


def test_consume_aborts_when_the_finish_reason_cannot_be_read():
    # The provider's last event could not be read: the reply's end is unknown. The error is the
    # decision, as a stream that raises is, and never escapes consume.
    def finish_reason():
        raise KeyError("choices")

    gate = StreamGate(None, RAINCOAT)
    released = "".join(gate.consume(["The Navy raincoat is $1,2", "99.00. It is not"],
                                     finish_reason=finish_reason))
    assert gate.decision.decision != "answer" and "It is not" not in released
    assert "KeyError" in gate.decision.reasons[-1].message


@pytest.mark.parametrize("finish_reason", [None, "stop", lambda: "stop", "end_turn", "STOP",
                                           "stop_sequence", "tool_calls", "COMPLETE", ""])
def test_consume_closes_a_reply_that_ended_as_meant(finish_reason):
    gate = StreamGate(None, RAINCOAT)
    released = "".join(gate.consume(["The Navy raincoat is $1,2", "99.00."],
                                    finish_reason=finish_reason))
    assert gate.decision.decision == "answer" and released == "The Navy raincoat is $1,299.00."
