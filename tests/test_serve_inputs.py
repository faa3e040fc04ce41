"""``rulekit.adapters.serve`` refuses a request it cannot honour with a 400 naming the problem,
never a dropped connection or a value passed on to the model unchecked."""

from __future__ import annotations

import http.client
import json
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
