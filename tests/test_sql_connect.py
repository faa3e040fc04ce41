"""Getting a connection: its own bounded time, apart from the lookup's budget.

Opening a connection (TCP, a TLS handshake, authentication) happens once per thread, and on a
loaded host it can take longer than a lookup is allowed. It has its own limit,
``connect_timeout`` (five seconds by default): a connect that is slow but works does not throw
the answer away, and a server that does not answer still fails closed within the limit. The
relay of ``test_sql_hangs`` holds the bytes back while frozen; thawed after a while, it stands
for a slow handshake. Timings are generous: these tests check outcomes, not speed.
"""

from __future__ import annotations

import concurrent.futures
import gc
import queue
import threading
import warnings

import dbs
import pytest
from test_sql_hangs import relayed_store
from test_sql_sources import NOW, Store, reply

import rulekit
from rulekit.check import check
from rulekit.sources import MysqlResolver, PostgresResolver, open_source

SQL = ("postgres", "mysql")
RESOLVERS = {"postgres": PostgresResolver, "mysql": MysqlResolver}
BODY = reply(("money", "order", "1042", "total", "$1,299.00"))


@pytest.fixture(scope="module")
def policy():
    from test_sql_sources import RULES
    return rulekit.load(RULES)


@pytest.fixture(params=SQL)
def relayed(request, tmp_path):
    with relayed_store(request.param, tmp_path) as made:
        yield made


def test_a_slow_connect_does_not_spend_the_lookup_budget(policy, relayed):
    store, relay, worker = relayed
    resolver = RESOLVERS[store.backend](relay.url(store.scratch.url), timeout=1.0)
    relay.frozen.set()   # the handshake waits 1.3 s: longer than the lookup's budget
    threading.Timer(1.3, relay.frozen.clear).start()
    decision = worker(lambda: check(policy, BODY, resolver, now=NOW, tenant="alice",
                                    timeout=1.0))
    assert decision.decision == "answer", decision.reasons
    # The pass twin: the connection is kept, and the next check needs no handshake.
    assert worker(lambda: check(policy, BODY, resolver, now=NOW, tenant="alice",
                                timeout=1.0)).decision == "answer"
    worker(resolver.close)


def test_a_server_that_never_answers_the_connect_fails_closed_at_the_connect_timeout(
        policy, relayed):
    store, relay, worker = relayed
    resolver = RESOLVERS[store.backend](relay.url(store.scratch.url), timeout=1.0,
                                        connect_timeout=2)
    relay.frozen.set()
    decision = worker(lambda: check(policy, BODY, resolver, now=NOW, tenant="alice",
                                    timeout=1.0))
    assert decision.decision != "answer" and decision.text is None
    assert [r.code for r in decision.reasons] == ["lookup_failed"]
    assert "could not connect within 2 s (connect_timeout)" in decision.reasons[0].message, \
        decision.reasons
    relay.frozen.clear()


@pytest.mark.parametrize("backend", SQL)
def test_connect_timeout_is_given_to_open_source_and_checked(backend):
    dbs.require(backend)
    url = dbs.POSTGRES_URL if backend == "postgres" else dbs.MYSQL_URL
    resolver = open_source(url, timeout=1.5, connect_timeout=7)
    assert (resolver.timeout, resolver.connect_timeout) == (1.5, 7.0)
    assert open_source(url).connect_timeout == 5.0
    with pytest.raises(ValueError, match="connect_timeout must be positive"):
        RESOLVERS[backend](url, connect_timeout=0)


# --- a URL string handed to check: one check's own resolver, closed after it ---------------

@pytest.mark.parametrize("backend", SQL)
def test_a_url_string_given_to_check_is_opened_for_that_check_and_closed(policy, backend,
                                                                          tmp_path):
    store = Store(backend, tmp_path)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ResourceWarning)
            decision = check(policy, BODY, store.scratch.url, now=NOW, tenant="alice")
            gc.collect()
        assert decision.decision == "answer", decision.reasons
        assert [str(w.message) for w in caught if issubclass(w.category, ResourceWarning)] == []
    finally:
        store.close()


@pytest.mark.parametrize("backend", SQL)
def test_a_shared_resolver_is_not_closed_by_check(policy, backend, tmp_path):
    """The pass twin: a resolver the caller opened keeps its connection between checks."""
    store = Store(backend, tmp_path)
    try:
        resolver = open_source(store.scratch.url)
        assert check(policy, BODY, resolver, now=NOW, tenant="alice").decision == "answer"
        kept = resolver.connection()
        assert check(policy, BODY, resolver, now=NOW, tenant="alice").decision == "answer"
        assert resolver.connection() is kept
        resolver.close()
    finally:
        store.close()


# --- a pool: connect= lends a connection for one lookup, release= takes it back ---------------

class Pool:
    """A fixed set of real connections, lent one at a time as psycopg_pool's ``getconn`` and
    ``putconn`` do: ``getconn`` waits up to ``wait`` seconds for a free one, and a connection
    given back closed is replaced by a new one."""

    def __init__(self, backend: str, url: str, size: int, wait: float = 6.0):
        self.backend, self.url, self.wait = backend, url, wait
        self.free: queue.Queue = queue.Queue()
        self.opened = []
        for _ in range(size):
            self.free.put(self._new())

    def _new(self):
        if self.backend == "postgres":
            import psycopg
            made = psycopg.connect(self.url)
        else:
            import pymysql
            from rulekit.sources.mysql import connection_arguments
            made = pymysql.connect(**connection_arguments(self.url))
        self.opened.append(made)
        return made

    def getconn(self):
        return self.free.get(timeout=self.wait)

    def putconn(self, connection) -> None:
        open_ = (not connection.closed) if self.backend == "postgres" else connection.open
        self.free.put(connection if open_ else self._new())

    def close(self) -> None:
        for connection in self.opened:
            if (not connection.closed) if self.backend == "postgres" else connection.open:
                connection.close()


@pytest.fixture(params=SQL)
def pooled(request, tmp_path):
    store = Store(request.param, tmp_path)
    pool = Pool(request.param, store.scratch.url, size=2)
    yield store, pool
    pool.close()
    store.close()


def test_a_pool_gets_its_connection_back_after_every_lookup(policy, pooled):
    store, pool = pooled
    resolver = RESOLVERS[store.backend](connect=pool.getconn, release=pool.putconn,
                                        timeout=2.0)
    with concurrent.futures.ThreadPoolExecutor(6) as workers:
        decisions = list(workers.map(
            lambda _: check(policy, BODY, resolver, now=NOW, tenant="alice"), range(12)))
    assert {d.decision for d in decisions} == {"answer"}, [d.reasons for d in decisions]
    assert pool.free.qsize() == 2 and len(pool.opened) == 2   # all back, none replaced


def test_waiting_for_a_pooled_connection_counts_within_the_budget(policy, pooled):
    store, pool = pooled
    resolver = RESOLVERS[store.backend](connect=pool.getconn, release=pool.putconn,
                                        timeout=1.0)
    held = [pool.getconn(), pool.getconn()]   # the pool is busy for 1.6 s
    threading.Timer(1.6, lambda: [pool.putconn(c) for c in held]).start()
    decision = check(policy, BODY, resolver, now=NOW, tenant="alice", timeout=1.0)
    assert [r.code for r in decision.reasons] == ["lookup_failed"]
    assert "timed out after 1 s" in decision.reasons[0].message, decision.reasons
    assert pool.free.qsize() == 2                       # the late connection was given back
    # The pass twin: with the pool free, the same resolver answers.
    assert check(policy, BODY, resolver, now=NOW, tenant="alice").decision == "answer"


def test_a_failed_lookup_closes_the_borrowed_connection_and_gives_it_back(policy, pooled):
    store, pool = pooled
    resolver = RESOLVERS[store.backend](connect=pool.getconn, release=pool.putconn)
    store.execute("ALTER TABLE orders RENAME TO orders_gone")
    try:
        decision = check(policy, BODY, resolver, now=NOW, tenant="alice")
    finally:
        store.execute("ALTER TABLE orders_gone RENAME TO orders")
    assert [r.code for r in decision.reasons] == ["lookup_failed"]
    assert pool.free.qsize() == 2 and len(pool.opened) == 3   # closed, given back, replaced
    assert check(policy, BODY, resolver, now=NOW, tenant="alice").decision == "answer"


def test_release_needs_a_connect_factory():
    with pytest.raises(ValueError, match="release= gives back what a connect= factory lent"):
        PostgresResolver(dbs.POSTGRES_URL, release=lambda connection: None)
