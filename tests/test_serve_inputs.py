"""``rulekit.adapters.serve`` refuses a request it cannot honour with a 400 naming the problem,
never a dropped connection or a value passed on to the model unchecked."""

from __future__ import annotations

import http.client
import json
import re
import socket
import types

import pytest

from rulekit.adapters.local import LocalRequestError
from rulekit.adapters.serve import serve


class Model:
    """Answers "hi"; a last message "raise: request <field>" raises what LocalModel raises for
    a request it can never serve, "raise: failure" a failure of its own."""

    def __init__(self):
        self.seen: list[dict] = []

    def complete(self, **options):
        self.seen.append(options)
        said = options["messages"][-1]["content"]
        if said.startswith("raise: request "):
            raise LocalRequestError("it cannot be served", said.split()[-1])
        if said == "raise: failure":
            raise RuntimeError("the model broke")
        return types.SimpleNamespace(text="hi", finish_reason="stop", prompt_tokens=1,
                                     completion_tokens=1)


@pytest.fixture(scope="module")
def endpoint():
    model = Model()
    with serve(model) as server:
        host, port = server.base_url.split("//")[1].split("/")[0].split(":")
        yield host, int(port), model


def _post(endpoint, body: bytes) -> tuple[int, dict]:
    host, port, _ = endpoint
    connection = http.client.HTTPConnection(host, port, timeout=30)
    try:
        connection.request("POST", "/v1/chat/completions", body=body)
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def test_a_deeply_nested_body_is_a_400_not_a_dropped_connection(endpoint):
    status, answer = _post(endpoint, b"[" * 100_000 + b"]" * 100_000)
    assert status == 400
    assert "nested too deeply" in answer["error"]["message"]
    assert _post(endpoint, json.dumps({"messages": [{"role": "user", "content": "x"}]})
                 .encode())[0] == 200   # the server still serves


@pytest.mark.parametrize("literal", ["NaN", "1e999", "-Infinity", "Infinity"])
def test_a_temperature_that_is_no_finite_number_is_a_400_naming_it(endpoint, literal):
    body = ('{"messages": [{"role": "user", "content": "x"}], "temperature": %s}'
            % literal).encode()
    seen = len(endpoint[2].seen)
    status, answer = _post(endpoint, body)
    assert status == 400, answer
    assert "temperature" in answer["error"]["message"]
    assert len(endpoint[2].seen) == seen     # the model was never asked


# --- a refused body is never read as the next request -------------------------------------------

_INNER = b'{"messages": [{"role": "user", "content": "SMUGGLED"}]}'
_SMUGGLED = (b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n"
             % len(_INNER)) + _INNER


def _exchange(endpoint, head: bytes, body: bytes) -> list[tuple[int, bytes]]:
    """Send one raw request on a fresh connection and read until the server closes it: the
    (status, body) of every response it sent. A server that keeps the connection open fails
    the test at the socket's time-out."""
    host, port, _ = endpoint
    with socket.create_connection((host, port), timeout=10) as connection:
        connection.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n" + head
                           + b"\r\n" + body)
        data = b""
        while True:
            try:
                part = connection.recv(65536)
            except socket.timeout:
                pytest.fail(f"the connection was kept open after: {data[:200]!r}")
            if not part:
                break
            data += part
    responses = []
    for match in re.finditer(rb"HTTP/1\.1 (\d{3}) .*?\r\n\r\n", data, re.DOTALL):
        length = re.search(rb"(?i)content-length: *(\d+)", match.group())
        start = match.end()
        responses.append((int(match.group(1)),
                          data[start:start + int(length.group(1)) if length else start]))
    return responses


@pytest.mark.parametrize("head, body", [
    (b"Content-Length: 5000000\r\n", _SMUGGLED),                 # over the cap
    (b"Content-Length: abc\r\n", _SMUGGLED),                     # no number
    (b"Content-Length: 1_0\r\n", _SMUGGLED),                     # int() would read 10
    (b"Content-Length: -5\r\n", _SMUGGLED),
    (b"Content-Length: %d\r\nContent-Length: 2\r\n" % len(_SMUGGLED), _SMUGGLED),  # two
    (b"Transfer-Encoding: chunked\r\n",
     b"%x\r\n" % len(_SMUGGLED) + _SMUGGLED + b"\r\n0\r\n\r\n"),
    (b"Transfer-Encoding: chunked\r\nContent-Length: %d\r\n" % len(_SMUGGLED), _SMUGGLED),
])
def test_a_body_refused_unread_closes_the_connection(endpoint, head, body):
    seen = len(endpoint[2].seen)
    responses = _exchange(endpoint, head, body)
    assert len(responses) == 1, responses
    status, answer = responses[0]
    assert status in (400, 411)
    assert json.loads(answer)["error"]["type"] == "invalid_request_error"
    assert len(endpoint[2].seen) == seen       # SMUGGLED never reached the model


def test_a_post_to_another_path_closes_the_connection(endpoint):
    host, port, model = endpoint
    seen = len(model.seen)
    with socket.create_connection((host, port), timeout=10) as connection:
        connection.sendall(b"POST /v1/elsewhere HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n"
                           b"\r\n" % len(_SMUGGLED) + _SMUGGLED)
        connection.settimeout(10)
        data = b""
        while part := connection.recv(65536):
            data += part
    assert data.count(b"HTTP/1.1 ") == 1 and data.startswith(b"HTTP/1.1 404")
    assert len(model.seen) == seen


def test_a_good_request_keeps_the_connection_open(endpoint):
    host, port, _ = endpoint
    connection = http.client.HTTPConnection(host, port, timeout=30)
    try:
        for _ in range(2):
            connection.request("POST", "/v1/chat/completions", body=json.dumps(
                {"messages": [{"role": "user", "content": "x"}]}).encode())
            response = connection.getresponse()
            assert response.status == 200
            response.read()
    finally:
        connection.close()


# --- a client's mistake is a 400 naming the field, never a 500 or a value ignored ---------------

_SAY = [{"role": "user", "content": "x"}]


@pytest.mark.parametrize("extra, field", [
    ({"max_tokens": 0}, "max_tokens"),            # llama.cpp reads 0 as no limit at all
    ({"max_tokens": -1}, "max_tokens"),
    ({"seed": 2 ** 64}, "seed"),                  # llama.cpp's seed is 32 bits
    ({"seed": -1}, "seed"),
    ({"tools": [{"type": "function", "function": {"name": "price"}}]}, "tools"),
    ({"tool_choice": "required"}, "tool_choice"),
    ({"functions": [{"name": "price"}]}, "functions"),
    ({"n": 3}, "n"),
    ({"stop": ["hi"]}, "stop"),
    ({"logprobs": True}, "logprobs"),
    ({"messages": [{"role": "user", "content": "\ud800 hi"}]}, "messages[0].content"),
    ({"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {}}]}]},
     "messages[0].content"),
])
def test_a_request_it_cannot_honour_is_a_400_naming_the_field(endpoint, extra, field):
    body = {"messages": _SAY, **extra}
    seen = len(endpoint[2].seen)
    status, answer = _post(endpoint, json.dumps(body).encode())
    assert status == 400, answer
    assert field in answer["error"]["message"]
    assert len(endpoint[2].seen) == seen        # the model was never asked


@pytest.mark.parametrize("extra", [{"max_tokens": 1}, {"seed": 2 ** 32 - 1}, {"n": 1},
                                   {"stop": None}, {"stop": []}, {"tools": []},
                                   {"tool_choice": "none"}, {"logprobs": False}])
def test_what_changes_nothing_is_served(endpoint, extra):
    status, answer = _post(endpoint, json.dumps({"messages": _SAY, **extra}).encode())
    assert status == 200, answer


def test_content_as_text_parts_is_joined(endpoint):
    body = {"messages": [{"role": "user", "content": [{"type": "text", "text": "Say "},
                                                      {"type": "text", "text": "hi."}]}]}
    status, _ = _post(endpoint, json.dumps(body).encode())
    assert status == 200
    assert endpoint[2].seen[-1]["messages"] == [{"role": "user", "content": "Say hi."}]


@pytest.mark.parametrize("field, named", [("messages", "messages"),
                                          ("schema", "response_format.json_schema.schema")])
def test_a_request_the_model_can_never_serve_is_a_400(endpoint, field, named):
    """A prompt longer than the context window, a schema llama.cpp cannot compile: the same
    request can never succeed, so no 5xx (which OpenAIChat would retry)."""
    body = {"messages": [{"role": "user", "content": f"raise: request {field}"}]}
    status, answer = _post(endpoint, json.dumps(body).encode())
    assert status == 400, answer
    assert named in answer["error"]["message"]


def test_a_failure_of_the_model_is_still_a_500(endpoint):
    body = {"messages": [{"role": "user", "content": "raise: failure"}]}
    status, answer = _post(endpoint, json.dumps(body).encode())
    assert status == 500 and "the model broke" in answer["error"]["message"]
