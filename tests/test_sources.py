"""The lookup layer: resolvers answer one batched request per entity, read-only, fail loudly.

Every SQLite test runs against a real database file in tmp_path; nothing is mocked.
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekit.sources import (LookupRequest, MemoryResolver, MysqlResolver, PostgresResolver,
                             Resolver, SourceError, SqliteResolver, open_source)
from rulekit.policy import Lookup, Statement
from rulekit.types import IdentifierType

ORDERS = [
    {"id": f"ord_{n}", "shipped_at": f"2026-07-{n % 28 + 1:02d}", "line_count": n % 7,
     "total_minor": 1000 + n, "note": None if n % 2 else f"note {n}"}
    for n in range(1000)
]
CUSTOMERS = [{"id": 7, "name": "Ada", "tier": "gold"}, {"id": 8, "name": "Brian", "tier": None}]


MEMORY = MemoryResolver({"order": ORDERS, "customer": CUSTOMERS})


def make_db(path: Path) -> Path:
    connection = sqlite3.connect(path)
    connection.executescript("""
        CREATE TABLE "order" (id TEXT PRIMARY KEY, shipped_at TEXT, line_count INTEGER,
                              total_minor INTEGER, note TEXT);
        CREATE TABLE customer (id INTEGER PRIMARY KEY, name TEXT, tier TEXT);
    """)
    connection.executemany('INSERT INTO "order" VALUES (:id, :shipped_at, :line_count, '
                           ':total_minor, :note)', ORDERS)
    connection.executemany("INSERT INTO customer VALUES (:id, :name, :tier)", CUSTOMERS)
    connection.commit()
    connection.close()
    return path


@pytest.fixture
def db(tmp_path) -> Path:
    return make_db(tmp_path / "shop.db")


@pytest.fixture
def statements() -> list:
    return []


@pytest.fixture
def sqlite_resolver(db, statements) -> SqliteResolver:
    return SqliteResolver(db, on_query=lambda sql, params: statements.append((sql, params)))


@pytest.fixture(params=["sqlite", "memory"])
def resolver(request, db) -> Resolver:
    """The same rows behind each resolver: they must answer alike."""
    if request.param == "sqlite":
        return SqliteResolver(db)
    return MEMORY


def orders(*ids: str, fields=("shipped_at", "line_count"), **kw) -> LookupRequest:
    return LookupRequest("order", "id", ids, tuple(fields), **kw)


def row_count(db: Path, table: str = "order") -> int:
    connection = sqlite3.connect(db)
    try:
        return connection.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]
    finally:
        connection.close()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# --- the request ----------------------------------------------------------------------------

def test_request_table_defaults_to_entity_and_ids_become_a_tuple():
    request = LookupRequest("order", "id", ["a", "b"], ["x"])
    assert request.table == "order"
    assert request.ids == ("a", "b") and request.fields == ("x",)
    assert LookupRequest("order", "id", (), (), table="orders").table == "orders"


def test_request_columns_put_the_key_first_once():
    assert orders("a", fields=("line_count", "id", "line_count")).columns == ("id", "line_count")


@pytest.mark.parametrize("kwargs, error", [
    (dict(ids=("a", "a")), ValueError),
    (dict(ids=("a", 1)), TypeError),
    (dict(fields=("",)), TypeError),
    (dict(timeout=0), ValueError),
])
def test_request_rejects_what_the_checker_should_never_send(kwargs, error):
    base = dict(entity="order", key="id", ids=("a",), fields=("x",))
    with pytest.raises(error):
        LookupRequest(**{**base, **kwargs})


# --- answers, for both resolvers ------------------------------------------------------------

def test_rows_found_and_missing_ids_absent(resolver):
    result = resolver.fetch(orders("ord_1", "ord_2", "ord_nope"))
    assert result == {
        "ord_1": {"id": "ord_1", "shipped_at": "2026-07-02", "line_count": 1},
        "ord_2": {"id": "ord_2", "shipped_at": "2026-07-03", "line_count": 2},
    }


def test_only_requested_fields_and_the_key_come_back(resolver):
    assert resolver.fetch(orders("ord_3", fields=("total_minor",))) == {
        "ord_3": {"id": "ord_3", "total_minor": 1003}}


def test_null_is_none_not_absent(resolver):
    result = resolver.fetch(orders("ord_1", "ord_2", fields=("note",)))
    assert result["ord_1"] == {"id": "ord_1", "note": None}
    assert result["ord_2"] == {"id": "ord_2", "note": "note 2"}


def test_integer_keys_match_their_string_form_exactly(resolver):
    request = LookupRequest("customer", "id", ("7", "08", "9"), ("name", "tier"))
    # '08' is not the string form of 8, even though SQLite's affinity would match it.
    assert resolver.fetch(request) == {"7": {"id": 7, "name": "Ada", "tier": "gold"}}


def test_no_ids_no_rows(resolver):
    assert resolver.fetch(orders()) == {}


def test_missing_table_is_a_source_error(resolver):
    with pytest.raises(SourceError, match="product") as caught:
        resolver.fetch(LookupRequest("product", "sku", ("x",), ("price",)))
    assert caught.value.entity == "product" and caught.value.table == "product"


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ids=st.lists(st.text(max_size=20) | st.sampled_from([o["id"] for o in ORDERS[:50]]),
                    unique=True, max_size=30))
def test_sqlite_and_memory_agree_on_any_ids(db, ids):
    request = orders(*ids, fields=("note", "total_minor"))
    expected = MEMORY.fetch(request)
    assert SqliteResolver(db).fetch(request) == expected
    assert set(expected) <= set(ids)


# --- SQLite: identifiers and hostile ids ----------------------------------------------------

def test_identifiers_are_quoted_with_embedded_quotes_doubled(tmp_path, statements):
    path = tmp_path / "odd.db"
    connection = sqlite3.connect(path)
    connection.execute('CREATE TABLE "we""ird" ("k""ey" TEXT, "sel ect" INTEGER)')
    connection.execute('INSERT INTO "we""ird" VALUES (\'a\', 1)')
    connection.commit()
    connection.close()
    resolver = SqliteResolver(path, on_query=lambda sql, params: statements.append(sql))
    request = LookupRequest("odd", 'k"ey', ("a",), ("sel ect",), table='we"ird')
    assert resolver.fetch(request) == {"a": {'k"ey': "a", "sel ect": 1}}
    assert statements == ['SELECT "we""ird"."k""ey", "we""ird"."sel ect" FROM "we""ird" '
                          'WHERE "we""ird"."k""ey" IN (?)']


HOSTILE = [
    "1 OR 1=1",
    "' OR '1'='1",
    "'; DROP TABLE \"order\"; --",
    "ord_1'; DELETE FROM \"order\"; --",
    '") OR 1=1 --',
    "x" * 1_000_000,
    "ord_1\x00",
    "\x00",
    "ord_\u0661",          # an Arabic-Indic digit one
    "ÖRD_1",
    "ord_1\u200b",         # a zero-width space
    "\U0001f4e6",
    "id",                  # the key column's own name
]


@pytest.mark.parametrize("hostile", HOSTILE, ids=lambda s: repr(s[:20]))
def test_hostile_ids_find_nothing_and_change_nothing(db, sqlite_resolver, statements, hostile):
    before = digest(db)
    result = sqlite_resolver.fetch(orders(hostile, "ord_5"))
    assert set(result) == {"ord_5"}
    assert row_count(db) == len(ORDERS)
    assert digest(db) == before
    assert statements == [('SELECT "order"."id", "order"."shipped_at", "order"."line_count" '
                           'FROM "order" WHERE "order"."id" IN (?, ?)', (hostile, "ord_5"))]


def test_the_connection_is_read_only(db, sqlite_resolver):
    before = digest(db)
    connection = sqlite_resolver.connect()
    try:
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            connection.execute('INSERT INTO "order" (id) VALUES (\'ord_new\')')
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            connection.execute('DROP TABLE "order"')
    finally:
        connection.close()
    assert row_count(db) == len(ORDERS) and digest(db) == before


# --- SQLite: statements ---------------------------------------------------------------------

def test_one_statement_for_500_ids(sqlite_resolver, statements):
    ids = tuple(f"ord_{n}" for n in range(0, 1000, 2))
    result = sqlite_resolver.fetch(orders(*ids))
    assert len(result) == 500
    assert len(statements) == 1
    sql, params = statements[0]
    assert params == ids
    assert sql == ('SELECT "order"."id", "order"."shipped_at", "order"."line_count" '
                   'FROM "order" WHERE "order"."id" IN (' + ", ".join(["?"] * 500) + ")")


def test_no_statement_for_no_ids(sqlite_resolver, statements):
    assert sqlite_resolver.fetch(orders()) == {}
    assert statements == []


def test_ids_are_chunked_only_beyond_the_variable_limit(sqlite_resolver, statements):
    connection = sqlite_resolver.connect()
    limit = connection.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)
    connection.close()
    filler = tuple(f"none_{n}" for n in range(limit - 1))

    assert set(sqlite_resolver.fetch(orders(*filler, "ord_1"))) == {"ord_1"}
    assert [len(params) for _, params in statements] == [limit]

    statements.clear()
    assert set(sqlite_resolver.fetch(orders("ord_1", *filler, "ord_2"))) == {"ord_1", "ord_2"}
    assert [len(params) for _, params in statements] == [limit, 1]


# --- SQLite: failures -----------------------------------------------------------------------

def test_slow_query_times_out(db):
    connection = sqlite3.connect(db)
    connection.execute("""
        CREATE VIEW slow AS
        WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 20000000)
        SELECT x AS id, x * 2 AS doubled FROM n""")
    connection.commit()
    connection.close()
    request = LookupRequest("slow", "id", ("3",), ("doubled",))
    with pytest.raises(SourceError, match=r'table "slow": timed out after 0.05 s'):
        SqliteResolver(db, timeout=0.05).fetch(request)
    # The request's own, shorter budget wins over the resolver's.
    with pytest.raises(SourceError, match="timed out after 0.05 s"):
        SqliteResolver(db, timeout=60).fetch(
            LookupRequest("slow", "id", ("3",), ("doubled",), timeout=0.05))


def test_a_held_write_lock_times_out(db):
    writer = sqlite3.connect(db, isolation_level=None)
    writer.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(SourceError, match="waiting for a lock"):
            SqliteResolver(db, timeout=0.05).fetch(orders("ord_1"))
    finally:
        writer.execute("ROLLBACK")
        writer.close()


def test_missing_database_file_names_the_path_and_is_not_created(tmp_path):
    path = tmp_path / "nowhere" / "gone.db"
    with pytest.raises(SourceError, match="no such file") as caught:
        SqliteResolver(path).fetch(orders("ord_1"))
    assert str(path) in str(caught.value)
    assert not path.exists()


def test_a_file_that_is_not_a_database(tmp_path):
    path = tmp_path / "notes.db"
    path.write_text("hello, this is not SQLite\n" * 100)
    with pytest.raises(SourceError, match="not a database"):
        SqliteResolver(path).fetch(orders("ord_1"))


def test_missing_table_names_table_and_entity(sqlite_resolver):
    with pytest.raises(SourceError) as caught:
        sqlite_resolver.fetch(LookupRequest("product", "sku", ("x",), ("price",)))
    message = str(caught.value)
    assert 'table "product"' in message and "no such table" in message
    assert "entity 'product'" in message


def test_missing_column_names_the_field(sqlite_resolver):
    with pytest.raises(SourceError) as caught:
        sqlite_resolver.fetch(orders("ord_1", fields=("shipped_at", "stock")))
    message = str(caught.value)
    assert 'table "order"' in message and "no such column" in message
    assert "field 'stock'" in message


def test_missing_key_column_is_an_error_not_a_match_on_every_row(sqlite_resolver):
    # Unqualified, SQLite would read "sku" as the string 'sku' and match every row.
    with pytest.raises(SourceError, match="no column for the key"):
        sqlite_resolver.fetch(LookupRequest("order", "sku", ("sku",), ("line_count",)))


def test_duplicate_keys_fail_closed(tmp_path, db):
    connection = sqlite3.connect(db)
    connection.execute("CREATE TABLE loose (code TEXT, price INTEGER)")
    connection.executemany("INSERT INTO loose VALUES (?, ?)", [("a", 1), ("a", 2), ("b", 3)])
    connection.commit()
    connection.close()
    request = LookupRequest("loose", "code", ("a", "b"), ("price",))
    with pytest.raises(SourceError, match="more than one row"):
        SqliteResolver(db).fetch(request)
    with pytest.raises(SourceError, match="more than one row"):
        MemoryResolver({"loose": [{"code": "a"}, {"code": "a"}]}).fetch(request)


BOOKING_ROWS = [{"ref": "BK-7731", "points": 530}, {"ref": "bk-9000", "points": 10},
                {"ref": "BK-9000", "points": 20}, {"ref": "QX-1", "points": 1}]


def _casefold_request(*ids: str) -> LookupRequest:
    return LookupRequest("booking", "ref", ids, ("points",), key_kind="identifier",
                         key_type=IdentifierType(case="casefold"))


def _bookings_db(db) -> SqliteResolver:
    connection = sqlite3.connect(db)
    connection.execute("CREATE TABLE booking (ref TEXT, points INTEGER)")
    connection.executemany("INSERT INTO booking VALUES (:ref, :points)", BOOKING_ROWS)
    connection.commit()
    connection.close()
    return SqliteResolver(db)


def test_two_keys_differing_only_in_case_fail_closed_under_a_casefold_key(db):
    request = _casefold_request("bk-9000", "bk-7731")
    for resolver in (MemoryResolver({"booking": BOOKING_ROWS}), _bookings_db(db)):
        with pytest.raises(SourceError, match=r"'bk-9000' ignoring case, 'bk-9000' and "
                                              r"'BK-9000'.*make the key unique ignoring case"):
            resolver.fetch(request)


def test_a_casefold_key_finds_its_row_in_any_case_filed_under_each_id_asked(db):
    statements = []
    sqlite = _bookings_db(db)
    sqlite.on_query = lambda sql, params: statements.append((sql, params))
    request = _casefold_request("bk-7731", "Bk-7731", "qx-1", "BK-7732")
    for resolver in (MemoryResolver({"booking": BOOKING_ROWS}), sqlite):
        found = resolver.fetch(request)
        assert {ident: row["ref"] for ident, row in found.items()} == {
            "bk-7731": "BK-7731", "Bk-7731": "BK-7731", "qx-1": "QX-1"}
    (sql, params), = statements
    assert 'WHERE LOWER("booking"."ref") IN (?, ?, ?)' in sql
    assert params == ("bk-7731", "qx-1", "bk-7732")
    # The same rows under an exact key: only the id in the stored case.
    exact = LookupRequest("booking", "ref", ("bk-7731", "BK-7731"), ("points",))
    for resolver in (MemoryResolver({"booking": BOOKING_ROWS}), sqlite):
        assert list(resolver.fetch(exact)) == ["BK-7731"]


def test_an_artifact_compiled_before_casefold_keys_were_lowered_is_sent_the_ids_as_written(db):
    """A lookup statement that compares the key itself (an older artifact) with a casefold
    key: the ids are bound as written, not in lower case, so a key in the id's case is still
    found (and one in another case, as before, is not)."""
    sqlite = _bookings_db(db)
    statements = []
    sqlite.on_query = lambda sql, params: statements.append(params)
    old = Lookup(kind="table", table="booking", columns=("ref", "points"), statements=(
        Statement(dialect="sqlite", marker="?", params=("ids",), parts=(
            'SELECT "booking"."ref", "booking"."points" FROM "booking" WHERE "booking"."ref" '
            "IN (", ")")),))
    request = LookupRequest("booking", "ref", ("BK-7731", "qx-1"), ("points",), lookup=old,
                            key_type=IdentifierType(case="casefold"))
    assert list(sqlite.fetch(request)) == ["BK-7731"]
    assert statements == [("BK-7731", "qx-1")]


def test_eight_threads_share_one_resolver(db):
    resolver = SqliteResolver(db)
    barrier = threading.Barrier(8)
    failures: list = []

    def work(worker: int) -> None:
        barrier.wait()
        for round_ in range(25):
            ids = tuple(f"ord_{n}" for n in range(worker, 1000, 8 + round_ % 3))
            try:
                result = resolver.fetch(orders(*ids, fields=("total_minor",)))
                expected = {i: {"id": i, "total_minor": 1000 + int(i[4:])} for i in ids}
                if result != expected:
                    failures.append((worker, round_, "wrong result"))
            except Exception as exc:  # noqa: BLE001 - collected and asserted below
                failures.append((worker, round_, repr(exc)))

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []


# --- MemoryResolver -------------------------------------------------------------------------

def test_memory_field_missing_from_a_row_is_absent():
    resolver = MemoryResolver({"order": [{"id": "a", "eta": None}, {"id": "b"}, {"eta": "x"},
                                         {"id": None, "eta": "y"}]})
    assert resolver.fetch(orders("a", "b", "None", fields=("eta",))) == {
        "a": {"id": "a", "eta": None}, "b": {"id": "b"}}


def test_memory_rows_without_the_tenant_column_are_an_error_naming_the_row():
    """Rows copied as the SQL returns them lack the tenant column, which only its WHERE reads:
    dropped without a word, the claim read "no invoice with id INV-1042"."""
    lookup = Lookup(kind="table", table="invoice", columns=("id", "amount_due"),
                    tenant_column="account_id")
    resolver = MemoryResolver({"invoice": [{"id": "INV-1041", "account_id": "acct_1"},
                                           {"id": "INV-1042", "amount_due": 129900}]})
    request = LookupRequest("invoice", "id", ("INV-1042",), ("amount_due",), lookup=lookup,
                            tenant="acct_1")
    with pytest.raises(SourceError, match=re.escape(
            "rows of invoice carry no 'account_id' value ($.invoice[1]); each row must carry "
            "the tenant column, as the SQL source's rows do")):
        resolver.fetch(request)


def test_memory_rows_of_another_tenant_are_not_seen():
    lookup = Lookup(kind="table", table="invoice", columns=("id", "amount_due"),
                    tenant_column="account_id")
    resolver = MemoryResolver({"invoice": [
        {"id": "INV-1042", "amount_due": 129900, "account_id": "acct_2"}]})
    for tenant, found in (("acct_1", {}), ("acct_2", {"INV-1042": {"id": "INV-1042",
                                                                 "amount_due": 129900}})):
        assert resolver.fetch(LookupRequest("invoice", "id", ("INV-1042",), ("amount_due",),
                                            lookup=lookup, tenant=tenant)) == found


def test_memory_copies_rows_in_and_out():
    rows = {"order": [{"id": "a", "tags": ["x"], "n": 1}]}
    resolver = MemoryResolver(rows)
    rows["order"][0]["n"] = 2
    rows["order"][0]["tags"].append("y")
    rows["order"].append({"id": "b", "n": 3})
    result = resolver.fetch(orders("a", "b", fields=("n", "tags")))
    assert result == {"a": {"id": "a", "n": 1, "tags": ["x"]}}
    result["a"]["tags"].append("z")
    assert resolver.fetch(orders("a", fields=("tags",)))["a"]["tags"] == ["x"]


def test_memory_rows_are_the_copied_tables_and_cannot_be_edited():
    rows = {"order": [{"id": "a", "n": 1}]}
    resolver = MemoryResolver(rows)
    rows["order"][0]["n"] = 2
    assert [dict(r) for r in resolver.rows["order"]] == [{"id": "a", "n": 1}]
    with pytest.raises(TypeError):
        resolver.rows["order"][0]["n"] = 3
    with pytest.raises(TypeError):
        resolver.rows["customer"] = ()


@pytest.mark.parametrize("rows, where", [
    ([], r"^\$: expected an object of tables, not a list"),
    ({"order": {"id": 1}}, r"^\$\.order: a table must be a list of rows, not an object"),
    ({"order": "abc"}, r"^\$\.order: a table must be a list of rows, not a string"),
    ({"order": [{}, {}, {}, ["id", 1]]}, r"^\$\.order\[3\]: a row must be an object, not a list"),
    ({"order": [{1: "x"}]}, r"^\$\.order\[0\]: column names must be strings"),
])
def test_memory_rejects_malformed_rows_naming_the_json_path(rows, where):
    with pytest.raises(ValueError, match=where):
        MemoryResolver(rows)


def test_memory_from_json(tmp_path):
    path = tmp_path / "rows.json"
    path.write_text(json.dumps({"order": ORDERS[:3]}))
    assert MemoryResolver.from_json(path).fetch(orders("ord_2")) == {
        "ord_2": {"id": "ord_2", "shipped_at": "2026-07-03", "line_count": 2}}


def test_memory_from_json_errors_name_the_file(tmp_path):
    missing = tmp_path / "missing.json"
    with pytest.raises(SourceError, match=rf"^{re.escape(str(missing))}: no such rows file$"):
        MemoryResolver.from_json(missing)

    broken = tmp_path / "broken.json"
    broken.write_text('{"order": [\n  {"id": "a",}\n]}')
    with pytest.raises(SourceError,
                       match=rf"^{re.escape(str(broken))}:2:14: invalid JSON: Expecting property"):
        MemoryResolver.from_json(broken)

    shaped = tmp_path / "shaped.json"
    shaped.write_text('{"order": [{"id": "a"}, {"id": "b"}, {"id": "c"}, 42]}')
    with pytest.raises(SourceError, match=rf"^{re.escape(str(shaped))}: \$\.order\[3\]: "
                                          "a row must be an object, not a number$"):
        MemoryResolver.from_json(shaped)

    latin = tmp_path / "latin.json"
    latin.write_bytes('{"order": [{"id": "é"}]}'.encode("latin-1"))
    with pytest.raises(SourceError, match="not UTF-8"):
        MemoryResolver.from_json(latin)


# --- open_source ----------------------------------------------------------------------------

def test_open_source_sqlite_relative_and_absolute(db, monkeypatch):
    monkeypatch.chdir(db.parent.parent)
    relative = open_source(f"sqlite:///{db.parent.name}/{db.name}", timeout=0.5)
    assert isinstance(relative, SqliteResolver)
    assert relative.path == str(db) and relative.timeout == 0.5
    absolute = open_source(f"sqlite:///{db}")  # sqlite:// + /abs/path: four slashes
    assert f"sqlite:///{db}".startswith("sqlite:////")
    assert absolute.path == str(db)
    assert set(absolute.fetch(orders("ord_1"))) == {"ord_1"}


def test_open_source_rows_json_and_passthrough(tmp_path):
    from_dict = open_source({"order": ORDERS[:2]})
    assert isinstance(from_dict, MemoryResolver)
    path = tmp_path / "rows.json"
    path.write_text(json.dumps({"order": ORDERS[:2]}))
    assert open_source(str(path)).fetch(orders("ord_1")) == from_dict.fetch(orders("ord_1"))
    assert isinstance(open_source(path), MemoryResolver)
    assert open_source(from_dict) is from_dict


@pytest.mark.parametrize("spec, kind", [
    ("postgresql://db/shop", PostgresResolver),
    ("postgres://user:secret@db:5433/shop", PostgresResolver),
    ("postgresql+psycopg://db/shop", PostgresResolver),
    ("mysql://db/shop", MysqlResolver),
    ("mysql+pymysql://db/shop", MysqlResolver),
    ("mariadb://root@127.0.0.1:3306/shop", MysqlResolver),
])
def test_open_source_reads_database_urls_without_connecting(spec, kind):
    resolver = open_source(spec)
    assert isinstance(resolver, kind)
    assert "secret" not in repr(resolver)    # a URL's password never reaches a log line


def test_a_mysql_url_must_name_its_database():
    with pytest.raises(ValueError, match="names no database"):
        open_source("mysql://root@127.0.0.1:3306")


@pytest.mark.parametrize("spec, message", [
    ("redis://cache", "unknown source scheme 'redis'"),
    ("oracle://db/shop", "unknown source scheme 'oracle'"),
    ("shop.db", "did you mean 'sqlite:///shop.db'"),
    ("shop.csv", "cannot tell what kind of source"),
    ("sqlite://host/shop.db", "sqlite:/// followed by the file's path"),
    ("sqlite:///", "names no database file"),
    ("sqlite:///:memory:", "names no database file"),
    ("sqlite:///shop.db?mode=rw", "the only query parameter is immutable=1"),
])
def test_open_source_rejects_unknown_forms_naming_the_accepted_ones(spec, message):
    with pytest.raises(ValueError, match=message) as caught:
        open_source(spec)
    if "sqlite:" not in spec:
        assert "sqlite:///" in str(caught.value) and ".json" in str(caught.value)


def test_open_source_rejects_other_types():
    with pytest.raises(TypeError, match="sqlite:///"):
        open_source(42)
