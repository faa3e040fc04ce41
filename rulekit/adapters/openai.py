"""A ``generate`` callable for ``rulekit.ground``: any OpenAI-compatible chat endpoint.

    from rulekit.adapters.openai import OpenAIChat
    from rulekit.ground import ground

    model = OpenAIChat()        # OPENAI_BASE_URL, OPENAI_MODEL, OPENAI_API_KEY
    result = ground(model, policy, source="sqlite:///shop.db", evidence=rows, question=q)

It POSTs to ``{base_url}/chat/completions`` with httpx. The base URL includes the API's version
prefix, as the OpenAI SDK's does: ``https://api.openai.com/v1``, ``http://localhost:8000/v1``.

- **Structured output.** In the claims channel the request asks for the reply schema the
  ``GenerateRequest`` carries (``response_format: json_schema``, strict); without a schema, for
  a JSON object. The prose channel asks for text. Whatever comes back, ``ground`` checks it:
  structured output makes a valid reply likelier, never trusted.
- **Retries.** On 429 and 5xx, and on a connection that could not be made, with exponential
  backoff (``backoff`` seconds, doubling) and ``Retry-After`` honoured; every wait is capped at
  ``max_backoff`` and never runs past the request's ``time_left``. No retry on any other 4xx:
  the request itself is wrong, and sending it again cannot help.
- **Cut-off replies.** The choice's ``finish_reason`` is passed on in the ``Generation``: a
  reply cut off at the token limit ("length") or by the provider's content filter
  ("content_filter"), or one that ended for a reason rulekit does not know as whole ("stop",
  "tool_calls", ...: ``rulekit.stream.cut_off``), is judged by ``ground`` as malformed (the ruleset's ``on malformed_reply``
  action, with the cause in its reason), never answered: "got 2" may be 2,380 cut short. A
  ``finish_reason`` that is not text (``{"type": "length"}``, ``1``) is passed on as its JSON,
  which no whole reply says: it fails closed the same way.
- **Content as parts.** ``content`` given as a list of parts is the text of its ``text`` parts,
  joined in order; any other part (an image, a refusal) raises ``OpenAIError``.
- **Time-outs** are not retried: each call gets ``timeout`` seconds (less when the loop's
  deadline is nearer), and running out raises ``OpenAITimeout``, which ``ground`` turns into a
  fail-closed decision.
- **The API key** travels only in the ``Authorization`` header. It never appears in a repr or
  an exception message: a response body that echoes it is redacted before it is cut to
  length, and a start of the key (8 characters or more) left at the cut's edge is masked too.

An ``OpenAIChat`` holds no state but its httpx client, which is thread-safe, so one instance
serves every worker. Close it (or use it as a context manager) when it made its own client.
"""

from __future__ import annotations

import email.utils
import json
import math
import os
import time
from typing import Any, Mapping

try:
    import httpx
except ModuleNotFoundError:  # pragma: no cover - depends on the installation
    raise ImportError("rulekit.adapters.openai needs httpx: pip install 'rulekit[openai]'") \
        from None

from rulekit.ground import (GenerateRequest, GenerateTimeout, Generation, facts_message,
                            history_message)

__all__ = ["OpenAIChat", "OpenAIConfigError", "OpenAIError", "OpenAITimeout"]

CLAIMS_PROMPT = (
    "You answer a customer's question from the data you are given, and nothing else. Reply "
    "with one JSON object and no other text: {\"answer_template\": \"...\", \"claims\": [...]}. "
    "The template is the sentence the customer reads, with a {slot} wherever a fact goes. Each "
    "slot is filled by exactly one claim {\"key\", \"type\", \"entity\", \"entity_id\", "
    "\"field\", \"value\"}: the slot's name, the kind of value (money, date, timestamp, decimal, "
    "integer, boolean, enum, identifier, url, text), the record it comes from, and the value as "
    "you read it there. Never write a figure, price, date, count, code or link in the "
    "template's own words: put it in a claim. If the data does not answer the question, say so "
    "in the template, with no slots and no figures.")

PROSE_PROMPT = (
    "Answer the question using only the data you are given. Every number, date, quote, "
    "@handle and link you write must appear in the data exactly: do not compute, round, "
    "convert or estimate. Earlier messages in the conversation are not data. If the data does "
    "not hold the answer, say that you could not find it.")

# How much of an error response's body an exception quotes.
_BODY_CHARS = 300
# A start of the API key this long, left at the edge of a cut message, is masked as the key is.
_KEY_EDGE = 8


class OpenAIConfigError(ValueError):
    """The adapter cannot be built: a setting is missing or malformed."""


class OpenAIError(Exception):
    """A call to the endpoint failed. ``status`` is the HTTP status, or None when no response
    came; ``attempts`` is how many requests were sent."""

    def __init__(self, message: str, *, status: int | None = None, attempts: int = 1):
        super().__init__(message)
        self.status = status
        self.attempts = attempts


class OpenAITimeout(OpenAIError, GenerateTimeout):
    """The endpoint did not answer in time. Not retried: another wait as long rarely helps, and
    the grounding loop's deadline is what the user is waiting on."""


class OpenAIChat:
    """Call an OpenAI-compatible ``/chat/completions`` endpoint; see the module's docstring.

    ``base_url``, ``model`` and ``api_key`` default to ``OPENAI_BASE_URL``, ``OPENAI_MODEL`` and
    ``OPENAI_API_KEY``. For an endpoint that needs no key, pass ``api_key=""``.
    ``system_prompt`` replaces the built-in instructions for both channels. ``client`` is an
    ``httpx.Client`` of your own (proxies, TLS settings); it is not closed by ``close``.
    ``max_backoff`` caps every wait between retries, ``Retry-After`` included."""

    def __init__(self, base_url: str | None = None, model: str | None = None,
                 api_key: str | None = None, *, timeout: float = 30.0, max_retries: int = 3,
                 backoff: float = 0.5, system_prompt: str | None = None,
                 client: httpx.Client | None = None, max_backoff: float = 8.0):
        self.base_url = _setting(base_url, "OPENAI_BASE_URL", "base_url").rstrip("/")
        if not self.base_url.startswith(("http://", "https://")):
            raise OpenAIConfigError(f"base_url must be an http:// or https:// URL such as "
                                    f"https://api.openai.com/v1, not {self.base_url!r}")
        self.model = _setting(model, "OPENAI_MODEL", "model")
        if api_key is None:
            api_key = _setting(None, "OPENAI_API_KEY", "api_key",
                               hint=" (or pass api_key='' for an endpoint that needs no key)")
        if not isinstance(api_key, str):
            raise OpenAIConfigError("api_key must be a string")
        self._api_key = api_key
        for name, value in (("timeout", timeout), ("backoff", backoff),
                            ("max_backoff", max_backoff)):
            positive = name == "timeout"
            if isinstance(value, bool) or not isinstance(value, (int, float)) \
                    or not math.isfinite(value) or value < 0 or (positive and value == 0):
                kind = "positive" if positive else "non-negative"
                raise OpenAIConfigError(f"{name} must be a {kind} number of seconds, "
                                        f"not {value!r}")
        if isinstance(max_retries, bool) or not isinstance(max_retries, int) or max_retries < 0:
            raise OpenAIConfigError(f"max_retries must be 0 or more, not {max_retries!r}")
        self.timeout = float(timeout)
        self.max_retries = max_retries
        self.backoff = float(backoff)
        self.max_backoff = float(max_backoff)
        self.system_prompt = system_prompt
        self.url = f"{self.base_url}/chat/completions"
        self._own_client = client is None
        self._client = client if client is not None else httpx.Client(timeout=self.timeout)

    def __repr__(self) -> str:
        key = "'***'" if self._api_key else repr(self._api_key)
        return f"OpenAIChat(base_url={self.base_url!r}, model={self.model!r}, api_key={key})"

    __str__ = __repr__

    def close(self) -> None:
        """Close the httpx client, if this adapter made it."""
        if self._own_client:
            self._client.close()

    def __enter__(self) -> "OpenAIChat":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    # -- one generation --

    def __call__(self, request: GenerateRequest) -> Generation:
        """The model's reply to ``request``, with the tokens it used. Raises ``OpenAIError``
        (``OpenAITimeout`` for a time-out) when no reply can be had."""
        body = self.body(request)
        ends_at = None if request.time_left is None else time.monotonic() + request.time_left
        headers = {"Accept": "application/json"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        sent = 0
        while True:
            wait_limit = self.timeout if ends_at is None else min(self.timeout,
                                                                 ends_at - time.monotonic())
            if wait_limit <= 0:
                raise OpenAITimeout(f"no time left before the deadline to call {self.url}",
                                    attempts=sent)
            sent += 1
            try:
                response = self._client.post(self.url, json=body, headers=headers,
                                             timeout=httpx.Timeout(wait_limit))
            except httpx.TimeoutException as exc:
                raise OpenAITimeout(self._redact(
                    f"{self.url} did not answer within {wait_limit:.3g} s "
                    f"({exc.__class__.__name__}); raise timeout= or check the endpoint"),
                    attempts=sent) from None
            except httpx.TransportError as exc:
                # Nothing was answered (refused, reset): worth another try.
                failure = OpenAIError(self._redact(
                    f"could not reach {self.url}: {exc.__class__.__name__}: {exc}"),
                    attempts=sent)
                self._pause(sent, None, ends_at, failure)
                continue
            if response.is_success:
                return self._generation(response, sent)
            status = response.status_code
            detail = self._snippet(response)
            if status == 429 or status >= 500:
                failure = OpenAIError(f"{self.url} answered {status} {response.reason_phrase} "
                                      f"on attempt {sent} of {self.max_retries + 1}: {detail}",
                                      status=status, attempts=sent)
                self._pause(sent, _retry_after(response), ends_at, failure)
                continue
            raise OpenAIError(f"{self.url} answered {status} {response.reason_phrase}: "
                              f"{detail}; not retried: the request was refused as it stands "
                              "(check the model name, the key and the reply schema)",
                              status=status, attempts=sent)

    def body(self, request: GenerateRequest) -> dict:
        """The JSON body for ``request``: the model, the messages and, in the claims channel,
        the response format."""
        body: dict[str, Any] = {"model": self.model, "messages": self.messages(request)}
        if request.channel == "claims":
            if request.schema is not None:
                body["response_format"] = {"type": "json_schema", "json_schema": {
                    "name": request.schema_name or "rulekit_reply", "strict": True,
                    "schema": request.schema}}
            else:
                body["response_format"] = {"type": "json_object"}
        return body

    def messages(self, request: GenerateRequest) -> list[dict]:
        """System instructions, the earlier turns (as context), the data and the question; on a
        regeneration, the previous reply and what was wrong with it."""
        system = self.system_prompt or (CLAIMS_PROMPT if request.channel == "claims"
                                        else PROSE_PROMPT)
        messages = [{"role": "system", "content": system}]
        messages.extend(history_message(turn) for turn in request.history)
        parts = []
        if request.evidence_block is not None:
            parts.append(request.evidence_block)
        elif request.evidence is not None:
            parts.append(f"Data (the only facts you may use):\n{request.evidence_text()}")
        elif request.narrowed:
            parts.append("Data: use only the verified facts below.")
        if request.channel == "claims" and request.shapes:
            parts.append("Approved sentences for facts (use these shapes):\n"
                         + "\n".join(f"- {shape}" for shape in request.shapes))
        parts.append(f"Question: {request.question}" if request.question
                     else "Question: (none given; answer from the data)")
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

    # -- helpers --

    def _pause(self, sent: int, retry_after: float | None, ends_at: float | None,
               failure: OpenAIError) -> None:
        """Wait before another try, or raise ``failure`` when no try is left: the retries are
        used up, or the wait would run past the deadline."""
        if sent > self.max_retries:
            failure.args = (f"{failure.args[0]}; gave up after {sent} attempts",)
            raise failure
        wait = self.backoff * 2 ** (sent - 1) if retry_after is None else retry_after
        wait = min(max(wait, 0.0), self.max_backoff)
        if ends_at is not None and time.monotonic() + wait >= ends_at:
            failure.args = (f"{failure.args[0]}; not retried: waiting {wait:.3g} s would pass "
                            "the deadline",)
            raise failure
        time.sleep(wait)

    def _generation(self, response: httpx.Response, sent: int) -> Generation:
        try:
            data = response.json()
        except ValueError:
            raise OpenAIError(f"{self.url} answered {response.status_code} with a body that is "
                              f"not JSON: {self._snippet(response)}",
                              status=response.status_code, attempts=sent) from None
        try:
            message = data["choices"][0]["message"]
        except (KeyError, IndexError, TypeError):
            raise OpenAIError(f"{self.url} answered without choices[0].message: "
                              f"{self._snippet(response)}",
                              status=response.status_code, attempts=sent) from None
        content = message.get("content") if isinstance(message, Mapping) else None
        if isinstance(content, list):
            content = self._joined_parts(content, response, sent)
        if not isinstance(content, str):
            refusal = message.get("refusal") if isinstance(message, Mapping) else None
            why = f"the model refused: {refusal}" if isinstance(refusal, str) and refusal \
                else "choices[0].message.content is not text"
            raise OpenAIError(self._cut(f"{self.url}: {why}", _BODY_CHARS + 100),
                              status=response.status_code, attempts=sent)
        usage = data.get("usage") if isinstance(data, Mapping) else None
        usage = usage if isinstance(usage, Mapping) else {}
        tokens = usage.get("total_tokens")
        cost = usage.get("cost")     # some gateways (OpenRouter) report it
        # "length" or "content_filter": the reply was cut off; ``ground`` judges it malformed.
        finish = data["choices"][0].get("finish_reason") \
            if isinstance(data["choices"][0], Mapping) else None
        if finish is not None and not isinstance(finish, str):
            # Not text ({"type": "length"}, 1): it cannot say the reply is whole. Passed on as
            # its JSON, which is no reason rulekit knows as whole, so ``ground`` fails closed.
            finish = self._cut(json.dumps(finish, ensure_ascii=False, default=str), 100)
        return Generation(content,
                          tokens=tokens if _count(tokens) else None,
                          cost=float(cost) if _amount(cost) else None,
                          finish_reason=finish)

    def _joined_parts(self, parts: list, response: httpx.Response, sent: int) -> str:
        """Content given as a list of parts: the text of its text parts (``{"type": "text",
        "text": ...}``), joined in order. Any other part (an image, a refusal, audio) is not
        an answer rulekit can check, and raises."""
        texts = []
        for index, part in enumerate(parts):
            kind = part.get("type") if isinstance(part, Mapping) else None
            text = part.get("text") if kind == "text" else None
            if not isinstance(text, str):
                what = f"a {kind!r} part" if isinstance(kind, str) else "not a text part"
                raise OpenAIError(self._cut(f"{self.url}: choices[0].message.content[{index}] "
                                            f"is {what}: only text parts can be checked",
                                            _BODY_CHARS + 100),
                                  status=response.status_code, attempts=sent)
            texts.append(text)
        return "".join(texts)

    def _redact(self, text: str) -> str:
        return text.replace(self._api_key, "***") if self._api_key else text

    def _cut(self, text: str, limit: int) -> str:
        """``text`` redacted, then cut to ``limit`` characters. Masking first: a key straddling
        the cut would no longer match whole. And a start of the key that the cut left at the
        edge (8 characters or more) is masked too."""
        text = self._redact(text)
        if len(text) <= limit:
            return text
        text = text[:limit]
        key = self._api_key
        for length in range(min(len(key) - 1, limit), _KEY_EDGE - 1, -1):
            if text.endswith(key[:length]):
                text = text[:-length] + "***"
                break
        return text + "..."

    def _snippet(self, response: httpx.Response) -> str:
        """The start of an error response's body, white space squeezed, the key masked."""
        try:
            text = response.text
        except Exception:   # an undecodable body
            return "<unreadable body>"
        text = " ".join(text.split())
        return self._cut(text, _BODY_CHARS) if text else "<empty body>"


def _setting(value: str | None, variable: str, name: str, hint: str = "") -> str:
    if value is None:
        value = os.environ.get(variable, "").strip()
        if not value:
            raise OpenAIConfigError(f"{variable} is not set: set it, or pass {name}= to "
                                    f"OpenAIChat{hint}")
    if not isinstance(value, str) or not value.strip():
        raise OpenAIConfigError(f"{name} must be a non-empty string")
    return value.strip()


def _retry_after(response: httpx.Response) -> float | None:
    """``Retry-After`` in seconds: a number, or an HTTP date. None when absent or unreadable."""
    value = response.headers.get("retry-after")
    if value is None:
        return None
    try:
        seconds = float(value)
        return seconds if math.isfinite(seconds) else None
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - time.time())


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _amount(value: Any) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value) and value >= 0)
