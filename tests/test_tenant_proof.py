"""The compiler's proof that a query reads only the tenant's rows (RK506; rulekit.sql
``_TenantProof``). The diagnostics' text is in the goldens tests/cases/compile/tenant_*; here,
each leak shape is refused at the table that leaks, and its correctly scoped twin compiles, in
an entity's `source sql` and in a routed source alike. tests/test_sql_sources.py runs a scoped
join against the real databases.
"""

from __future__ import annotations

import pytest

from rulekit import sql as S
from rulekit.compile import compile_source

# (query, the text the error points at): each one reads another user's rows, or may.
LEAKS = [
    # a forgotten join condition: the WHERE scopes only the users
    ("SELECT i.id, i.amount FROM invoices AS i JOIN users AS u ON TRUE WHERE u.id = :user_id",
     "invoices"),
    ("SELECT i.id, i.amount FROM invoices i, users u WHERE u.id = :user_id", "invoices"),
    ("SELECT i.id, i.amount FROM invoices i CROSS JOIN (SELECT :user_id AS uid) t "
     "WHERE t.uid = :user_id", "invoices"),
    # a subquery's column compared with the tenant proves nothing: it may be the tenant itself
    ("SELECT t.id, t.amount FROM (SELECT :user_id AS uid, id, amount FROM invoices) t "
     "WHERE t.uid = :user_id", "invoices"),
    ("SELECT i.id, i.amount FROM invoices i, (SELECT 'bob' AS uid) t WHERE i.user_id = t.uid",
     "invoices"),
    # a LEFT JOIN's ON restricts only its own table; a RIGHT or FULL join's, nothing
    ("SELECT i.id, i.amount FROM invoices i LEFT JOIN users u ON u.id = :user_id "
     "AND u.id = i.user_id", "invoices"),
    ("SELECT i.id, i.amount FROM invoices i RIGHT JOIN users u ON u.id = i.user_id "
     "WHERE u.id = :user_id", "invoices"),
    ("SELECT i.id, i.amount FROM invoices i FULL JOIN users u ON u.id = i.user_id "
     "WHERE u.id = :user_id", "invoices"),
    # under OR or NOT, behind a function, or other than =: not a restriction
    ("SELECT i.id, i.amount FROM invoices i JOIN users u ON u.id = :user_id "
     "WHERE NOT i.user_id <> :user_id", "invoices"),
    ("SELECT i.id, i.amount FROM invoices i JOIN users u ON u.id = :user_id "
     "WHERE i.user_id = :user_id OR i.amount > 0", "invoices"),
    ("SELECT i.id, i.amount FROM invoices i JOIN users u ON u.id = i.user_id "
     "WHERE i.user_id = :user_id OR i.amount > 0", ":user_id"),
    ("SELECT i.id, i.amount FROM invoices i JOIN users u ON u.id = i.user_id "
     "WHERE LOWER(i.user_id) = :user_id", ":user_id"),
    ("SELECT i.id, i.amount FROM invoices i JOIN users u ON u.id = i.user_id "
     "WHERE i.user_id >= :user_id", ":user_id"),
    # whose column?
    ("SELECT i.id, i.amount FROM invoices i JOIN users u ON u.id = i.user_id "
     "WHERE user_id = :user_id", "user_id"),
    # a subquery that supplies a column, in FROM or in the SELECT list
    ("SELECT i.id, (SELECT SUM(amount) FROM invoices) AS amount FROM invoices i "
     "WHERE i.user_id = :user_id", "invoices"),
    ("SELECT t.id, t.amount FROM (SELECT id, amount FROM invoices WHERE user_id = :user_id "
     "OR 1 = 1) t", "invoices"),
    ("WITH every AS (SELECT id, amount FROM invoices) SELECT id, amount FROM every", "invoices"),
    # one SELECT of a UNION
    ("SELECT id, amount FROM invoices WHERE user_id = :user_id "
     "UNION ALL SELECT i.id, i.amount FROM invoices i, users u WHERE u.id = :user_id",
     "invoices"),
    # what the compiler cannot follow
    ("SELECT i.id, z.amount FROM invoices i, LATERAL (SELECT i.amount AS amount) z "
     "WHERE i.user_id = :user_id", "LATERAL"),
    ("WITH RECURSIVE r AS (SELECT id, amount FROM invoices WHERE user_id = :user_id) "
     "SELECT id, amount FROM r", "RECURSIVE"),
    ("WITH mine AS (SELECT id FROM invoices WHERE user_id = :user_id) "
     "SELECT l.id, l.amount FROM mine m JOIN invoice_lines l ON l.invoice_id = m.id",
     "invoice_lines"),
]

# Each correctly scoped: every table is the user's, by its own column or by key.
SCOPED = [
    "SELECT id, amount FROM invoices WHERE user_id = :user_id",
    "SELECT i.id, i.amount FROM invoices i JOIN users u ON u.id = i.user_id "
    "WHERE i.user_id = :user_id",
    "SELECT i.id, i.amount FROM invoices i JOIN users u ON u.id = i.user_id "
    "WHERE u.id = :user_id",
    "SELECT i.id, i.amount FROM invoices i, users u WHERE u.id = :user_id AND i.user_id = u.id",
    "SELECT i.id, p.amount FROM invoices i JOIN payments p ON p.user_id = :user_id "
    "WHERE i.user_id = :user_id",
    "SELECT i.id, i.amount FROM invoices i JOIN users u ON u.id = i.user_id AND u.id = :user_id",
    "SELECT u.id, i.amount FROM users u LEFT JOIN invoices i ON i.user_id = u.id "
    "WHERE u.id = :user_id",
    "SELECT i.id, i.amount FROM invoices i JOIN users u USING (user_id) "
    "WHERE i.user_id = :user_id",
    "SELECT o.id, o.amount, s.label FROM invoices o JOIN invoice_states s ON s.code = o.state "
    "WHERE o.user_id = :user_id",
    "SELECT i.id, (SELECT SUM(l.qty) FROM invoice_lines l WHERE l.invoice_id = i.id) AS amount "
    "FROM invoices i WHERE i.user_id = :user_id",
    "SELECT id, amount FROM invoices p WHERE user_id = :user_id AND NOT EXISTS "
    "(SELECT 1 FROM hidden h WHERE h.invoice_id = p.id)",
    "SELECT t.id, t.amount FROM (SELECT id, amount FROM invoices WHERE user_id = :user_id) t",
    "WITH mine AS (SELECT id, amount FROM invoices WHERE user_id = :user_id) "
    "SELECT id, amount FROM mine",
    "SELECT id, amount FROM invoices WHERE user_id = :user_id "
    "EXCEPT ALL SELECT id, amount FROM hidden WHERE user_id = :user_id",
]


def _analyse(query: str) -> S.Analysis:
    return S.analyse(query, dialect="postgres", allowed_params=("user_id", "since"),
                     tenant="user_id")


@pytest.mark.parametrize("query, at", LEAKS)
def test_a_query_that_may_read_another_users_rows_is_refused_at_the_table(query, at):
    problems = _analyse(query).problems
    assert [p.code for p in problems] == ["RK506"]
    assert query[problems[0].start:problems[0].end] == at


@pytest.mark.parametrize("query", SCOPED)
def test_a_query_that_scopes_every_table_is_proven(query):
    analysis = _analyse(query)
    assert analysis.problems == ()
    assert analysis.tenant_column in ("user_id", "id")


def _ruleset(body: str, otherwise: str = 'refuse "Sorry."') -> str:
    return ('ruleset billing {\n  version "1"\n  currency USD\n  dialect postgres\n}\n'
            f"tenant user_id\n{body}\non otherwise {otherwise}\n")


def _entity(query: str) -> str:
    return _ruleset(f'entity invoice {{\n  key id\n  source sql "{query}"\n'
                    "  field id     identifier\n  field amount money major\n}")


def _routed(query: str) -> str:
    return _ruleset(f'source invoices {{\n  sql "{query}"\n  default\n}}', "handoff")


@pytest.mark.parametrize("make", [_entity, _routed], ids=["entity", "routed"])
@pytest.mark.parametrize("query, at", LEAKS[:3])
def test_the_probes_leaks_fail_to_compile_in_both_kinds_of_source(make, query, at):
    result = compile_source(make(query))
    assert not result.ok
    assert [d.code for d in result.diagnostics] == ["RK506"]


@pytest.mark.parametrize("make", [_entity, _routed], ids=["entity", "routed"])
@pytest.mark.parametrize("query", SCOPED[:4])
def test_their_twins_compile_in_both_kinds_of_source(make, query):
    result = compile_source(make(query))
    assert result.ok and not result.diagnostics, result.diagnostics


def test_a_shared_query_is_not_proven_but_may_not_join_a_scoped_table():
    """`shared` names no tenant, so nothing is proven; the tables it reads, joins included, may
    not be ones a scoped source reads (the golden shared_joins_a_scoped_table shows the error)."""
    text = _entity("SELECT id, amount FROM invoices WHERE user_id = :user_id").replace(
        "on otherwise", '''entity article {
  key id
  source sql "SELECT a.id, a.title FROM articles a JOIN tags t ON TRUE" shared
  field id    identifier
  field title text
}
on otherwise''')
    assert compile_source(text).ok
    joined = text.replace("JOIN tags t ON TRUE", "JOIN invoices i ON i.id = a.invoice_id")
    result = compile_source(joined)
    assert [d.code for d in result.diagnostics] == ["RK506"]
    assert "reads invoices" in result.diagnostics[0].message


def test_two_tables_under_one_name_are_refused():
    """``invoices.user_id`` could be either one's column: nothing is proven of the other."""
    query = ("SELECT invoices.id, invoices.amount FROM invoices, archive.invoices "
             "WHERE invoices.user_id = :user_id")
    problems = _analyse(query).problems
    assert [p.code for p in problems] == ["RK506"]
    assert "two tables of a SELECT are named invoices" in problems[0].message
