"""Serve a ``LocalModel`` as an OpenAI-compatible endpoint on the loopback interface.

    from rulekit.adapters.local import LocalModel
    from rulekit.adapters.serve import serve
    from rulekit.adapters.openai import OpenAIChat

    with serve(LocalModel()) as server:             # http://127.0.0.1:<free port>/v1
        chat = OpenAIChat(server.base_url, model=server.model_name, api_key="")
        grounded = rulekit.ground(chat, policy, source=rows, question=question)

    python -m rulekit.adapters.serve --port 8080    # the same, until Ctrl-C

Why a server of our own, and not llama-cpp-python's: that one needs FastAPI, uvicorn and
sse-starlette, which the ``[local]`` extra should not pull in, and it loads its own copy of the
model. This one is the standard library's ``http.server`` in a thread, wrapping the
``LocalModel`` the caller already loaded, and implementing only what ``OpenAIChat`` sends:

- ``POST /v1/chat/completions`` with ``messages``, ``temperature``, ``seed``, ``max_tokens``
  and ``response_format`` (``json_schema``: the reply is decoded under that schema's grammar;
  ``json_object``: any JSON object; ``text`` or none: free text). Streaming is not offered:
  ``"stream": true`` is answered 400, not silently ignored.
- ``GET /v1/models``: the one model it serves.

It answers with the OpenAI shape (``choices[0].message.content``, ``usage``), a 400 naming the
field for a request it cannot read or honour (a body nested too deeply; a ``temperature`` of
NaN or 1e999, a ``seed`` past 32 bits, a ``max_tokens`` below 1, which llama.cpp would read as
no limit; a lone surrogate in a message; ``tools``, ``tool_choice``, ``stop``, ``n`` > 1 and
the like, which it does not do; a prompt longer than the context window or a schema that does
not compile: ``LocalRequestError``), and a 500 when generation fails, with the error named in
the body. A 400 is never retried by ``OpenAIChat``; a 500 is. A message's content may be text
or a list of text parts (joined in order). A body refused unread (too large,
no plain ``Content-Length``, chunked: 411) closes the connection: its bytes are never read as
the next request.

It binds to loopback addresses only (``127.0.0.0/8`` or ``::1``): it has no authentication and
no rate limit, so another host must never reach it. Asking for any other address raises.
Requests are handled on threads, and ``LocalModel`` serialises generation with its own lock.
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import math
import re
import socket
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Mapping

from rulekit.adapters.local import LocalRequestError

__all__ = ["LocalServer", "serve"]

# A request body larger than this is refused: a chat request to a 135M model is a few KB.
_MAX_BODY = 4 * 1024 * 1024
# A Content-Length as HTTP writes it: ASCII digits only (int() would take "1_0", "+5", "５").
_DIGITS = re.compile(r"[0-9]{1,12}")


# Request fields for what this endpoint does not do: a value that asks for it is refused, not
# ignored (a client asking for a tool call, a stop string or three choices would be misled).
_NOT_HONOURED = ("tools", "tool_choice", "functions", "function_call", "stop", "logprobs",
                 "top_logprobs", "logit_bias", "parallel_tool_calls")
# The numbers it passes on, with the range llama.cpp takes: a seed is 32 bits, and a
# max_tokens of 0 would mean no limit at all.
_NUMBERS = (("temperature", (int, float), 0, 2), ("seed", (int,), 0, 2 ** 32 - 1),
            ("max_tokens", (int,), 1, 2 ** 31 - 1))


class LocalServer:
    """A running endpoint: ``base_url`` (with the ``/v1`` prefix, as ``OpenAIChat`` expects),
    ``model_name``, ``close()``. A context manager: leaving the block stops it."""

    def __init__(self, model: Any, host: str, port: int, model_name: str):
        _require_loopback(host)
        self.model = model
        self.model_name = model_name
        handler = _handler(self)
        server_class = _IPv6Server if ":" in host else ThreadingHTTPServer
        self._httpd = server_class((host, port), handler)
        self._httpd.daemon_threads = True
        self.host = host
        self.port = self._httpd.server_address[1]
        shown = f"[{host}]" if ":" in host else host
        self.base_url = f"http://{shown}:{self.port}/v1"
        self._thread = threading.Thread(target=self._httpd.serve_forever,
                                        name=f"rulekit-serve-{self.port}", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop accepting requests and release the port. The model stays loaded: it is the
        caller's."""
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> "LocalServer":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"LocalServer(base_url={self.base_url!r}, model_name={self.model_name!r})"


def serve(model: Any, host: str = "127.0.0.1", port: int = 0,
          model_name: str = "smollm2-135m-instruct") -> LocalServer:
    """Start serving ``model`` (a ``LocalModel``, or anything with its ``complete`` method) on
    ``host:port`` in a background thread and return the running server. ``port=0`` picks a free
    port (read it from ``base_url``). ``host`` must be a loopback address."""
    return LocalServer(model, host, port, model_name)


class _IPv6Server(ThreadingHTTPServer):
    address_family = socket.AF_INET6


class _BadRequest(ValueError):
    """The request cannot be served as it stands: answered ``status`` (400, or 411 for a body
    without a Content-Length) with this message."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


# What ``LocalRequestError.field`` names, as the request's field.
_FIELDS = {"schema": "response_format.json_schema.schema"}


def _require_loopback(host: str) -> None:
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        if host != "localhost":
            raise ValueError(f"serve binds to a loopback address only (127.0.0.1, ::1 or "
                             f"localhost), not {host!r}: the endpoint has no authentication")\
                from None
        return
    if not address.is_loopback:
        raise ValueError(f"serve binds to a loopback address only (127.0.0.1, ::1 or "
                         f"localhost), not {host!r}: the endpoint has no authentication")


def _handler(server: LocalServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - http.server's
            pass    # quiet: a test or a demo prints what it needs

        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            self._body_read = False
            if self.path.rstrip("/") == "/v1/models":
                self._send(200, {"object": "list", "data": [
                    {"id": server.model_name, "object": "model", "owned_by": "local"}]})
            else:
                self._send(404, _error(f"no such path: GET {self.path}", "not_found"))

        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            self._body_read = False
            if self.path.rstrip("/") != "/v1/chat/completions":
                self._send(404, _error(f"no such path: POST {self.path}", "not_found"))
                return
            try:
                body = self._body()
                options = _options(body)
            except _BadRequest as exc:
                self._send(exc.status, _error(str(exc), "invalid_request_error"))
                return
            try:
                completion = server.model.complete(**options)
            except LocalRequestError as exc:   # no retry can cure it: the client's to fix
                field = _FIELDS.get(exc.field, exc.field)
                self._send(400, _error(f"{field}: {exc}", "invalid_request_error"))
                return
            except Exception as exc:   # the model failed: say so, never answer with nothing
                self._send(500, _error(f"generation failed: {type(exc).__name__}: {exc}",
                                       "server_error"))
                return
            self._send(200, {
                "id": f"chatcmpl-{uuid.uuid4().hex[:24]}", "object": "chat.completion",
                "created": int(time.time()), "model": server.model_name,
                "choices": [{"index": 0, "finish_reason": completion.finish_reason,
                             "message": {"role": "assistant", "content": completion.text}}],
                "usage": {"prompt_tokens": completion.prompt_tokens,
                          "completion_tokens": completion.completion_tokens,
                          "total_tokens": completion.prompt_tokens
                          + completion.completion_tokens}})

        def _body(self) -> Mapping[str, Any]:
            if self.headers.get_all("Transfer-Encoding"):
                raise _BadRequest("Transfer-Encoding is not supported: send the body with a "
                                  "Content-Length", status=411)
            lengths = self.headers.get_all("Content-Length") or []
            if len(lengths) > 1:
                raise _BadRequest("Content-Length is given more than once")
            if not lengths or not _DIGITS.fullmatch(lengths[0]):
                raise _BadRequest("Content-Length must be the body's length in bytes")
            length = int(lengths[0])
            if length <= 0 or length > _MAX_BODY:
                raise _BadRequest(f"the body must be a JSON object of 1 to {_MAX_BODY} bytes")
            raw = self.rfile.read(length)
            self._body_read = True
            try:
                body = json.loads(raw)
            except RecursionError:
                raise _BadRequest("the body is nested too deeply to read") from None
            except (ValueError, UnicodeDecodeError) as exc:
                raise _BadRequest(f"the body is not JSON: {exc}") from None
            if not isinstance(body, Mapping):
                raise _BadRequest("the body must be a JSON object")
            return body

        def _send(self, status: int, payload: Mapping[str, Any]) -> None:
            """Answer. When the request came with a body that was not read (refused before
            reading, or sent to a path that takes none), the connection is closed: its bytes
            must never be read as the next request."""
            data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
            unread = not self._body_read and (
                self.headers.get_all("Transfer-Encoding")
                or self.headers.get("Content-Length", "0").strip() not in ("", "0"))
            if unread:
                self.close_connection = True
            try:
                self.send_response(status)
                if unread:
                    self.send_header("Connection", "close")
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except OSError:     # the client gave up (its own time-out): nothing to tell it
                pass

    return Handler


def _options(body: Mapping[str, Any]) -> dict[str, Any]:
    """The keyword arguments of ``LocalModel.complete`` for an OpenAI request body; raises
    ``_BadRequest`` for anything it cannot honour, rather than ignoring it."""
    if body.get("stream"):
        raise _BadRequest("stream is not supported by this endpoint")
    for name in _NOT_HONOURED:
        if body.get(name) not in (None, False, [], {}) and not (
                name == "tool_choice" and body[name] == "none"):
            raise _BadRequest(f"{name} is not supported by this endpoint (it serves plain "
                              "chat completions): leave it out")
    if body.get("n") not in (None, 1):
        raise _BadRequest(f"n must be 1: this endpoint gives one choice, not {body['n']!r}")
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise _BadRequest("messages must be a non-empty list")
    cleaned = []
    for index, message in enumerate(messages):
        if not isinstance(message, Mapping) or message.get("role") not in (
                "system", "user", "assistant"):
            raise _BadRequest(f"messages[{index}] must be {{role: system|user|assistant, "
                              "content: text}")
        cleaned.append({"role": message["role"],
                        "content": _content(message.get("content"), f"messages[{index}]")})
    options: dict[str, Any] = {"messages": cleaned}
    for name, kinds, low, high in _NUMBERS:
        value = body.get(name)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, kinds) or \
                (isinstance(value, float) and not math.isfinite(value)) or \
                not low <= value <= high:
            raise _BadRequest(f"{name} must be a number from {low} to {high}, not {value!r}")
        options[name] = value
    fmt = body.get("response_format")
    if fmt is None:
        return options
    if not isinstance(fmt, Mapping):
        raise _BadRequest("response_format must be an object")
    kind = fmt.get("type")
    if kind == "json_schema":
        spec = fmt.get("json_schema")
        schema = spec.get("schema") if isinstance(spec, Mapping) else None
        if not isinstance(schema, Mapping):
            raise _BadRequest("response_format.json_schema.schema must be a JSON Schema object")
        options["schema"] = schema
    elif kind == "json_object":
        options["json_object"] = True
    elif kind != "text":
        raise _BadRequest(f"response_format.type must be text, json_object or json_schema, "
                          f"not {kind!r}")
    return options


def _content(content: Any, where: str) -> str:
    """A message's text: a string, or a list of text parts joined in order. A lone surrogate
    (``"\\ud800"`` in the JSON) is no text the model can read."""
    if isinstance(content, list):
        if not all(isinstance(part, Mapping) and part.get("type") == "text"
                   and isinstance(part.get("text"), str) for part in content):
            raise _BadRequest(f"{where}.content must be text or a list of text parts "
                              "({type: text, text: ...}): this endpoint reads no other part")
        content = "".join(part["text"] for part in content)
    if not isinstance(content, str):
        raise _BadRequest(f"{where} must be {{role: system|user|assistant, content: text}}")
    try:
        content.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise _BadRequest(f"{where}.content holds a lone surrogate at character {exc.start}: "
                          "it is not text") from None
    return content


def _error(message: str, kind: str) -> dict:
    return {"error": {"message": message, "type": kind}}


def main(argv: list[str] | None = None) -> int:
    """``python -m rulekit.adapters.serve``: serve SmolLM2 on loopback until interrupted."""
    parser = argparse.ArgumentParser(prog="python -m rulekit.adapters.serve",
                                     description="Serve the local model (rulekit[local]) as an "
                                     "OpenAI-compatible endpoint on a loopback address.")
    parser.add_argument("--host", default="127.0.0.1", help="a loopback address (default "
                        "127.0.0.1)")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--threads", type=int, default=None, metavar="N",
                        help="CPU threads for generation (default: up to 2)")
    args = parser.parse_args(argv)
    from rulekit.adapters.local import LocalModel

    try:
        model = LocalModel(n_threads=args.threads)
        server = serve(model, args.host, args.port)
    except (ImportError, ValueError, OSError) as exc:
        print(f"rulekit serve: {exc}", file=sys.stderr)
        return 2
    print(f"serving {server.model_name} at {server.base_url} (Ctrl-C stops it)", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
        model.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
