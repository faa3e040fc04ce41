"""``rulekit.adapters.serve`` refuses a request it cannot honour with a 400 naming the problem,
never a dropped connection or a value passed on to the model unchecked."""

from __future__ import annotations

import http.client
import json
import re
import socket
import types

import pytest

from rulekit.adapters.serve import serve


class Model:
    def __init__(self):
        self.seen: list[dict] = []

    def complete(self, **options):
        self.seen.append(options)
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
