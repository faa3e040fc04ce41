"""A database that stops answering mid-query must not hold a check past its budget.

A relay between the resolver and the real server (``Relay``) forwards bytes until it is frozen;
frozen, it keeps the TCP connections open and acknowledged but passes nothing on, as a stalled
network path, a hung proxy or a server under a stop-the-world pause does. No server-side timeout
can help then (the server never sees the query); only the client can give up. The timings are
generous: this is a hang test, not a speed test.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import socket
import threading
import time
from urllib.parse import urlsplit, urlunsplit

import dbs
import pytest
from test_sql_sources import NOW, Store, reply

from rulekit.check import check
from rulekit.sources import LookupRequest, PostgresResolver, SourceError


class Relay:
    """A TCP relay from a local port to ``target``; ``frozen`` stops it passing bytes on."""

    def __init__(self, target: tuple[str, int]):
        self.target = target
        self.frozen = threading.Event()
        self.closed = threading.Event()
        self.server = socket.socket()
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(16)
        self.port = self.server.getsockname()[1]
        self.sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.closed.is_set():
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            self.sockets += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, a: socket.socket, b: socket.socket) -> None:
        try:
            while True:
                data = a.recv(65536)
                if not data:
                    break
                while self.frozen.is_set() and not self.closed.is_set():
                    time.sleep(0.02)
                b.sendall(data)
        except OSError:
            pass
        finally:
            for s in (a, b):
                try:
                    s.close()
                except OSError:
                    pass

    def url(self, url: str) -> str:
        parts = urlsplit(url)
        netloc = parts.netloc.rsplit("@", 1)
        host = f"127.0.0.1:{self.port}"
        return urlunsplit(parts._replace(netloc=f"{netloc[0]}@{host}" if len(netloc) == 2
                                         else host))

    def close(self) -> None:
        self.closed.set()
        self.server.close()
        for s in self.sockets:
            try:
                s.close()
            except OSError:
                pass


class Worker:
    """One thread that runs calls in turn: the resolver keeps a connection per thread, so a
    warm-up and the call that follows it share one connection. A call still running after
    ``seconds`` is a test failure, not a hang (the relay is then thawed to let it finish)."""

    def __init__(self, relay: Relay):
        self.relay = relay
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)

    def __call__(self, call, seconds: float = 10):
        future = self.pool.submit(call)
        try:
            return future.result(timeout=seconds)
        except concurrent.futures.TimeoutError:
            self.relay.frozen.clear()
            future.exception(timeout=60)
            pytest.fail(f"still waiting after {seconds} s: the client has no deadline of its own")


@contextlib.contextmanager
def relayed_store(backend: str, tmp_path):
    """The tables on ``backend``, a relay to its server, and a worker thread."""
    made = Store(backend, tmp_path)
    parts = urlsplit(made.scratch.url)
    relay = Relay((parts.hostname or "127.0.0.1",
                   parts.port or (5432 if backend == "postgres" else 3306)))
    worker = Worker(relay)
    try:
        yield made, relay, worker
    finally:
        worker.pool.shutdown(wait=False)
        relay.frozen.clear()
        relay.close()
        made.close()


@pytest.fixture
def pg_store(tmp_path):
    with relayed_store("postgres", tmp_path) as made:
        yield made


def test_a_postgres_lookup_through_a_frozen_path_stops_at_its_budget(pg_store):
    store, relay, worker = pg_store
    resolver = PostgresResolver(relay.url(store.scratch.url), timeout=1.0)
    request = LookupRequest("order", "id", ("1042",), ("total_amount",), table="orders",
                            key_kind="integer")
    assert worker(lambda: resolver.fetch(request))["1042"]["total_amount"]   # warm: connected
    relay.frozen.set()
    with pytest.raises(SourceError, match="timed out after 1 s"):
        worker(lambda: resolver.fetch(request))
    relay.frozen.clear()
    assert worker(lambda: resolver.fetch(request))["1042"]["total_amount"]   # a new connection
    worker(resolver.close)


def test_a_check_against_a_frozen_postgres_fails_closed_within_its_budget(policy, pg_store):
    store, relay, worker = pg_store
    resolver = PostgresResolver(relay.url(store.scratch.url), timeout=1.0)
    body = reply(("money", "order", "1042", "total", "$1,299.00"))
    def run():
        return check(policy, body, resolver, now=NOW, tenant="alice")

    assert worker(run).decision == "answer"
    relay.frozen.set()
    decision = worker(run)
    assert decision.decision != "answer" and decision.text is None
    assert [r.code for r in decision.reasons] == ["lookup_failed"]
    assert "timed out after 1 s" in decision.reasons[0].message, decision.reasons
    relay.frozen.clear()
    worker(resolver.close)


def test_connecting_through_a_frozen_path_stops_at_the_connect_timeout(pg_store):
    store, relay, worker = pg_store
    relay.frozen.set()
    resolver = PostgresResolver(relay.url(store.scratch.url), timeout=1.0)
    request = LookupRequest("order", "id", ("1042",), ("total_amount",), table="orders",
                            key_kind="integer")
    with pytest.raises(SourceError):
        worker(lambda: resolver.fetch(request))


@pytest.fixture(scope="module")
def policy():
    import rulekit
    from test_sql_sources import RULES
    return rulekit.load(RULES)
