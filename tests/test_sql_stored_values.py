"""Stored values a driver hands over that a field's type must not guess at, on the real servers
(PostgreSQL, MariaDB) and SQLite: a number in a date column, a timestamp ahead of now, a
number beyond 28 significant digits, PostgreSQL's infinity / BC / year-10000 dates, MariaDB's
zero dates and PostgreSQL's money type. Each is not_checkable (or stale) for its own field,
with a reason naming it; the row's other fields still verify.

Tables are named ``sv_*`` in a scratch schema (PostgreSQL), database (MariaDB) or file (SQLite)
of this test's own. Off CI a missing server skips; with ``CI=true`` it fails.
"""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

import dbs
import pytest

import rulekit
from rulekit.check import check
from rulekit.sources import PostgresResolver
from test_sql_sources import Store

UTC = dt.timezone.utc
NOW = dt.datetime(2026, 12, 1, 13, 0, tzinfo=UTC)

RULES = """
ruleset sv {
  version "1"
  currency USD
}

tenant user_id

entity invoice {
  key id
  source table "sv_invoice" scoped by owner_id
  fresh within 1d via updated_at

  field id          identifier
  field amount      money major
  field ratio       decimal
  field due         date
  field valid_until date
  field updated_at  timestamp hidden
}

entity ledger {
  key id
  source table "sv_ledger" scoped by owner_id
  fresh within 15m via updated_at

  field id         identifier
  field amount     money major
  field updated_at timestamp naive "Europe/Berlin" hidden
}

fallback summary "Invoice {iid} is due on {due}." {
  iid = invoice.id
  due = invoice.due
}

on contradicted regenerate max 1 then fallback summary
on otherwise refuse "Sorry, I could not check that."
"""


@pytest.fixture(scope="module")
def policy(tmp_path_factory) -> rulekit.Policy:
    path = tmp_path_factory.mktemp("sv") / "sv.rules"
    path.write_text(RULES, encoding="utf-8")
    return rulekit.load(path)


@pytest.fixture
def tables(request, tmp_path):
    """test_sql_sources' store (its orders and products beside the sv_ tables of these tests)."""
    made = Store(request.param, tmp_path)
    if made.backend == "mysql":
        made.execute("SET SESSION sql_mode = ''")     # lets a zero date in
    yield made
    made.close()


def invoices(tables, *, amount="DECIMAL(40, 6)", due="DATE", valid_until="DATE",
             updated_at="VARCHAR(40)") -> None:
    """An empty sv_invoice with these column types (the id and owner as short text)."""
    tables.execute(f"CREATE TABLE sv_invoice (id VARCHAR(20), owner_id VARCHAR(20), "
                   f"amount {amount}, ratio DOUBLE PRECISION, due {due}, "
                   f"valid_until {valid_until}, updated_at {updated_at})")


def claim(field: str, kind: str, value, ident: str = "I-1", entity: str = "invoice") -> dict:
    return {"answer_template": "X {k}.", "claims": [
        {"key": "k", "type": kind, "entity": entity, "entity_id": ident, "field": field,
         "value": value}]}


def run(policy, tables, body, *, resolver=None, **options):
    return check(policy, json.dumps(body), resolver or tables.resolver(), now=NOW,
                 tenant="alice", **options)


def outcome(decision) -> tuple[str, str]:
    result = decision.claims[0]
    return result.outcome, result.reason or ""


# --- 1. a number in a date field ----------------------------------------------------------------

@pytest.mark.parametrize("tables", ["sqlite"], indirect=True)
@pytest.mark.parametrize("stored", [20261201, 2461375.5])     # YYYYMMDD; julianday('2026-12-01')
def test_a_number_in_a_date_column_is_no_day_and_never_reaches_the_customer(policy, tables,
                                                                           stored):
    invoices(tables, due="")
    tables.execute("INSERT INTO sv_invoice VALUES ('I-1', 'alice', 100.5, 0.5, ?, "
                   "'2027-01-01', '2026-12-01 12:00:00')", (stored,))
    for said in ("2026-12-01", "1970-08-23", "1970-01-29"):
        for attempt in (1, 2):
            decision = run(policy, tables, claim("due", "date", said), attempt=attempt)
            assert decision.decision == "refuse", decision
            assert decision.text is None
            found, reason = outcome(decision)
            assert found == "not_checkable"
            assert "a date field holds a date or ISO text" in reason
            assert any("invoice.due" in r.message for r in decision.reasons)
    # the row's other fields still verify
    assert run(policy, tables, claim("amount", "money", "$100.50")).decision == "answer"


@pytest.mark.parametrize("tables", ["sqlite"], indirect=True)
def test_the_fallback_never_shows_a_day_made_of_a_number(policy, tables):
    invoices(tables, due="")
    tables.execute("INSERT INTO sv_invoice VALUES ('I-1', 'alice', 100.5, 0.5, 20261201, "
                   "'2027-01-01', '2026-12-01 12:00:00')")
    # a contradicted amount on the second attempt falls back to a summary that shows the due day
    decision = run(policy, tables, claim("amount", "money", "$1.00"), attempt=2)
    assert decision.decision != "fallback" and "1970" not in (decision.text or "")


# --- 2. an updated_at ahead of now ---------------------------------------------------------------

@pytest.mark.parametrize("tables", dbs.BACKENDS, indirect=True)
def test_an_updated_at_ahead_of_now_is_stale(policy, tables):
    stamp = "TEXT" if tables.backend == "sqlite" else \
        "TIMESTAMP" if tables.backend == "postgres" else "DATETIME"
    invoices(tables, updated_at=stamp)
    mark = "?" if tables.backend == "sqlite" else "%s"
    for ident, updated in (("I-1", "2026-12-01 13:04:00"), ("FUT", "2099-01-01 00:00:00"),
                           ("SKEW", "2026-12-01 13:10:00")):
        tables.execute(f"INSERT INTO sv_invoice VALUES ({mark}, 'alice', 100.50, 0.5, "
                       f"'2026-12-01', '2027-01-01', {mark})", (ident, updated))
    assert run(policy, tables, claim("amount", "money", "$100.50")).decision == "answer"
    for ident, ahead in (("FUT", "26328.5 d"), ("SKEW", "10 min")):
        decision = run(policy, tables, claim("amount", "money", "$100.50", ident))
        assert decision.decision == "refuse"
        assert outcome(decision) == ("stale", f"the record's updated_at is {ahead} ahead of now: "
                                     "a clock or time-zone error, so its age is unknown")


@pytest.mark.parametrize("tables", ["postgres"], indirect=True)
def test_a_naive_berlin_updated_at_is_judged_in_berlin(policy, tables):
    """A TIMESTAMP WITHOUT TIME ZONE written in Berlin local time: read as UTC it is an hour
    ahead, so a row 50 minutes old looked 10 minutes ahead and passed a 15 m budget. Ahead
    is stale now; declared `naive "Europe/Berlin"`, its age is the real one."""
    tables.execute("CREATE TABLE sv_ledger (id TEXT, owner_id TEXT, amount NUMERIC, "
                   "updated_at TIMESTAMP)")
    # 12:10 and 12:55 UTC are 13:10 and 13:55 in Berlin (UTC+1 in December)
    tables.execute("INSERT INTO sv_ledger VALUES ('OLD', 'alice', 5, '2026-12-01 13:10:00'), "
                   "('NEW', 'alice', 5, '2026-12-01 13:55:00')")
    old = run(policy, tables, claim("amount", "money", "$5.00", "OLD", "ledger"))
    assert old.decision == "refuse"
    assert outcome(old) == ("stale", "the value is 50 min old; the budget is 15 min")
    assert run(policy, tables, claim("amount", "money", "$5.00", "NEW", "ledger")
               ).decision == "answer"


# --- 3. numbers beyond 28 significant digits -------------------------------------------------------

@pytest.mark.parametrize("tables", ["postgres", "mysql", "sqlite"], indirect=True)
def test_a_number_beyond_28_digits_is_not_checkable_naming_its_field(policy, tables):
    invoices(tables, amount="NUMERIC" if tables.backend != "mysql" else "DECIMAL(40, 6)")
    mark = "?" if tables.backend == "sqlite" else "%s"
    big = "123456789012345678901234567890.123456"
    tables.execute(f"INSERT INTO sv_invoice VALUES ('I-1', 'alice', {mark}, 1e300, "
                   f"'2026-12-01', '2027-01-01', '2026-12-01 12:00:00')",
                   (big if tables.backend == "sqlite" else Decimal(big),))
    for field, kind, said in (("amount", "money", big), ("amount", "money", "$1.00"),
                              ("ratio", "decimal", "1")):
        decision = run(policy, tables, claim(field, kind, said))
        assert decision.decision == "refuse", decision
        assert [r.code for r in decision.reasons] != ["internal_error"]
        found, reason = outcome(decision)
        if tables.backend == "sqlite" and field == "amount":
            # SQLite's NUMERIC keeps a REAL of 15 digits: no 28 digits to lose, and no match
            assert found in ("not_checkable", "contradicted")
            continue
        assert found == "not_checkable", (field, reason)
        assert "more than 28 significant digits" in reason
        assert any(f"invoice.{field}" in r.message for r in decision.reasons)
    assert run(policy, tables, claim("due", "date", "2026-12-01")).decision == "answer"


# --- 4. dates no Python date holds --------------------------------------------------------------

@pytest.mark.parametrize("tables", ["postgres"], indirect=True)
@pytest.mark.parametrize("factory", [False, True])
def test_infinity_bc_and_year_10000_block_only_their_own_field(policy, tables, factory):
    invoices(tables, amount="NUMERIC", valid_until="DATE DEFAULT 'infinity'",
             updated_at="TIMESTAMPTZ")
    tables.execute("INSERT INTO sv_invoice (id, owner_id, amount, ratio, due, updated_at) "
                   "VALUES ('I-1', 'alice', 100.50, 0.5, '2026-12-01', '2026-12-01 12:00Z')")
    tables.execute("INSERT INTO sv_invoice VALUES "
                   "('BC', 'alice', 1, 0.5, '0044-03-15 BC', '2027-01-01', '2026-12-01 12:00Z'),"
                   "('Y10K', 'alice', 1, 0.5, '10000-01-01', '2027-01-01', '2026-12-01 12:00Z'),"
                   "('NINF', 'alice', 1, 0.5, '2026-12-01', '-infinity', '2026-12-01 12:00Z'),"
                   "('TINF', 'alice', 1, 0.5, '2026-12-01', '2027-01-01', 'infinity')")
    resolver = None
    if factory:
        import psycopg

        connection = psycopg.connect(tables.scratch.url)
        before = connection.adapters.get_loader(1082, psycopg.pq.Format.TEXT)
        resolver = PostgresResolver(connect=lambda: connection)
        tables.resolvers.append(resolver)
    for ident, field, stored in (("I-1", "valid_until", "infinity"),
                                 ("BC", "due", "0044-03-15 BC"), ("Y10K", "due", "10000-01-01"),
                                 ("NINF", "valid_until", "-infinity")):
        decision = run(policy, tables, claim(field, "date", "2026-12-01", ident),
                       resolver=resolver)
        assert decision.decision == "refuse"
        result = decision.claims[0]
        assert (result.outcome, result.actual) == ("not_checkable", stored)
        assert "infinity, a date BC or after the year 9999" in result.reason
        assert any(f"invoice.{field}" in r.message for r in decision.reasons)
        other = "valid_until" if field == "due" else "due"
        said = "2027-01-01" if other == "valid_until" else "2026-12-01"
        assert run(policy, tables, claim(other, "date", said, ident), resolver=resolver
                   ).decision == "answer"
        assert run(policy, tables, claim("amount", "money", "$1.00" if ident != "I-1" else
                                         "$100.50", ident), resolver=resolver
                   ).decision == "answer"
    # an updated_at of infinity is no age
    decision = run(policy, tables, claim("amount", "money", "$1.00", "TINF"), resolver=resolver)
    assert outcome(decision)[0] == "stale"
    if factory:     # the caller's connection keeps its own loaders
        assert connection.adapters.get_loader(1082, psycopg.pq.Format.TEXT) is before
        connection.close()


@pytest.mark.parametrize("tables", ["mysql"], indirect=True)
def test_a_mariadb_zero_date_blocks_only_its_own_field(policy, tables):
    invoices(tables, updated_at="DATETIME")
    tables.execute("INSERT INTO sv_invoice VALUES ('I-1', 'alice', 100.50, 0.5, '0000-00-00', "
                   "'2027-01-01', '2026-12-01 12:00:00')")
    decision = run(policy, tables, claim("due", "date", "2026-12-01"))
    assert outcome(decision)[0] == "not_checkable"
    assert "a zero date" in outcome(decision)[1]
    assert run(policy, tables, claim("valid_until", "date", "2027-01-01")).decision == "answer"


# --- 5. PostgreSQL's money type ----------------------------------------------------------------------

@pytest.mark.parametrize("tables", ["postgres"], indirect=True)
def test_a_postgres_money_column_is_not_read_as_a_number(policy, tables):
    invoices(tables, amount="MONEY", updated_at="TIMESTAMPTZ")
    tables.execute("INSERT INTO sv_invoice VALUES ('I-1', 'alice', '100.50', 0.5, '2026-12-01', "
                   "'2027-01-01', '2026-12-01 12:00Z')")
    decision = run(policy, tables, claim("amount", "money", "$100.50"))
    assert decision.decision == "refuse"
    assert outcome(decision)[0] == "not_checkable"
    assert run(policy, tables, claim("due", "date", "2026-12-01")).decision == "answer"


# --- 6. single-precision floats ------------------------------------------------------------------

@pytest.mark.parametrize("tables", dbs.BACKENDS, indirect=True)
def test_a_money_field_in_a_single_precision_column_never_confirms_a_rounded_value(policy,
                                                                                   tables):
    """MariaDB sends a FLOAT with 6 significant digits (12345.67 comes back as 12345.7), and
    PostgreSQL a REAL with about 7 (1234567.89 as 1234567.9): a claim of the rounded value
    would be confirmed. A number read from a single-precision column is not compared: the
    claim is not_checkable, the reason naming the column type and the fix. A DOUBLE keeps
    15 digits and is read as before (the twin), as is SQLite's REAL, an 8-byte double."""
    single = {"postgres": "REAL", "mysql": "FLOAT", "sqlite": "REAL"}[tables.backend]
    invoices(tables, amount=single)
    tables.execute("INSERT INTO sv_invoice VALUES ('I-1', 'alice', 12345.67, 12345.67, "
                   "'2026-12-01', '2027-01-01', '2026-12-01 12:00:00')")
    tables.execute("INSERT INTO sv_invoice VALUES ('I-2', 'alice', 1234567.89, 1234567.89, "
                   "'2026-12-01', '2027-01-01', '2026-12-01 12:00:00')")
    for ident, rounded, exact in (("I-1", "$12,345.70", "$12,345.67"),
                                  ("I-2", "$1,234,567.90", "$1,234,567.89")):
        for said in (rounded, exact):
            decision = run(policy, tables, claim("amount", "money", said, ident))
            found, reason = outcome(decision)
            if tables.backend == "sqlite":  # an 8-byte double: nothing lost
                assert found == ("confirmed" if said == exact else "contradicted"), reason
                continue
            assert decision.decision == "refuse", decision
            assert found == "not_checkable", (said, reason)
            assert single in reason and "single precision" in reason and "DECIMAL" in reason
            assert any("invoice.amount" in r.message for r in decision.reasons)
        # the twin: the same figure in a DOUBLE PRECISION column verifies
        assert run(policy, tables, claim("ratio", "decimal", exact.strip("$").replace(",", ""),
                                         ident)).decision == "answer"


# --- 7. a day stored as a naive midnight ---------------------------------------------------------

DAYS_RULES = """
ruleset sv_days {
  version "1"
  currency USD
  timezone "America/New_York"
}

tenant user_id

entity delivery {
  key id
  source table "sv_delivery" scoped by owner_id

  field id   identifier
  field due  date
}

on otherwise refuse "Sorry, I could not check that."
"""


@pytest.mark.parametrize("tables", dbs.BACKENDS, indirect=True)
def test_a_naive_midnight_in_a_date_field_is_its_day_on_every_backend(tables, tmp_path):
    """A DATETIME (MariaDB), TIMESTAMP WITHOUT TIME ZONE (PostgreSQL) or text (SQLite) holding
    midnight is the day as written in a New York shop, not the evening before."""
    path = tmp_path / "days.rules"
    path.write_text(DAYS_RULES, encoding="utf-8")
    days = rulekit.load(path)
    column = {"postgres": "TIMESTAMP", "mysql": "DATETIME", "sqlite": "TEXT"}[tables.backend]
    tables.execute(f"CREATE TABLE sv_delivery (id VARCHAR(20), owner_id VARCHAR(20), "
                   f"due {column})")
    tables.execute("INSERT INTO sv_delivery VALUES ('D-1', 'alice', '2026-12-03 00:00:00')")
    said = run(days, tables, claim("due", "date", "2026-12-03", "D-1", "delivery"))
    assert (said.decision, outcome(said)[0]) == ("answer", "confirmed"), said.reasons
    before = run(days, tables, claim("due", "date", "2026-12-02", "D-1", "delivery"))
    assert outcome(before)[0] == "contradicted"


@pytest.mark.parametrize("tables", dbs.BACKENDS, indirect=True)
def test_a_utc_midnight_in_a_date_field_is_its_day_on_every_backend(tables, tmp_path):
    """A TIMESTAMPTZ (PostgreSQL), TIMESTAMP (MariaDB, an instant in UTC) or ISO text with a Z
    (SQLite) holding a day as midnight UTC is that day in a New York shop, not the evening
    before; one hour later it is an instant, the evening before in New York."""
    path = tmp_path / "days.rules"
    path.write_text(DAYS_RULES, encoding="utf-8")
    days = rulekit.load(path)
    column = {"postgres": "TIMESTAMPTZ", "mysql": "TIMESTAMP NULL",
              "sqlite": "TEXT"}[tables.backend]
    written = {"postgres": "{} 00:00:00+00", "mysql": "{} 00:00:00",
               "sqlite": "{}T00:00:00Z"}[tables.backend]
    tables.execute(f"CREATE TABLE sv_delivery (id VARCHAR(20), owner_id VARCHAR(20), "
                   f"due {column})")
    midnight = written.format("2026-12-03")
    tables.execute(f"INSERT INTO sv_delivery VALUES ('D-1', 'alice', '{midnight}')")
    tables.execute(f"INSERT INTO sv_delivery VALUES ('D-2', 'alice', "
                   f"'{midnight.replace('00:00:00', '01:00:00')}')")
    said = run(days, tables, claim("due", "date", "2026-12-03", "D-1", "delivery"))
    assert (said.decision, outcome(said)[0]) == ("answer", "confirmed"), said.reasons
    before = run(days, tables, claim("due", "date", "2026-12-02", "D-1", "delivery"))
    assert outcome(before)[0] == "contradicted"
    later = run(days, tables, claim("due", "date", "2026-12-02", "D-2", "delivery"))
    assert outcome(later)[0] == "confirmed", later.reasons


# --- 8. a MariaDB TIMESTAMP is an instant --------------------------------------------------------

SHIPPED_RULES = """
ruleset sv_shipped {
  version "1"
  currency EUR
  timezone "Europe/Berlin"
}

tenant user_id

entity parcel {
  key id
  source table "sv_parcel" scoped by owner_id

  field id         identifier
  field shipped_at timestamp naive "Europe/Berlin"
  field packed_at  timestamp naive "Europe/Berlin"
}

on otherwise refuse "Sorry, I could not check that."
"""


@pytest.mark.parametrize("tables", ["mysql"], indirect=True)
def test_a_mariadb_timestamp_is_an_instant_whatever_the_fields_naive_zone(tables, tmp_path):
    """A MariaDB TIMESTAMP holds an instant, which the lookup reads at time_zone '+00:00' as a
    UTC wall time: the field's `naive "Europe/Berlin"` (for its DATETIME columns) must not move
    it an hour. 23:40 UTC on 29 November is 30 November in Berlin. The twin: a DATETIME of the
    same field is Berlin wall time, as the rules say."""
    path = tmp_path / "shipped.rules"
    path.write_text(SHIPPED_RULES, encoding="utf-8")
    shipped = rulekit.load(path)
    tables.execute("CREATE TABLE sv_parcel (id VARCHAR(20), owner_id VARCHAR(20), "
                   "shipped_at TIMESTAMP NULL, packed_at DATETIME)")
    tables.execute("SET time_zone = '+01:00'")      # the shop's session writes Berlin time
    tables.execute("INSERT INTO sv_parcel VALUES ('P-1', 'alice', '2026-11-30 00:40:00', "
                   "'2026-11-30 00:40:00')")
    tables.execute("SET time_zone = SYSTEM")
    for field in ("shipped_at", "packed_at"):
        day = run(shipped, tables, claim(field, "date", "2026-11-30", "P-1", "parcel"))
        assert (day.decision, outcome(day)[0]) == ("answer", "confirmed"), (field, day.reasons)
        before = run(shipped, tables, claim(field, "date", "2026-11-29", "P-1", "parcel"))
        assert outcome(before)[0] == "contradicted", field
        at = run(shipped, tables, claim(field, "timestamp", "2026-11-29T23:40Z", "P-1",
                                        "parcel"))
        assert outcome(at)[0] == "confirmed", (field, at.reasons)
