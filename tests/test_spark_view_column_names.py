"""A view's (and CREATE TABLE AS's) output columns written without AS get GaussDB's names on Spark too.

GaussDB names such a column as PostgreSQL does (``FigureColname``: ``?column?`` for an operator, the function
for a call, the type for a cast of a constant, ``case``, ``coalesce``...); Spark names it by the expression's
text, and refuses a permanent view with one (``CREATE_PERMANENT_VIEW_WITHOUT_ALIAS``). ddlc writes the name
GaussDB gives. Checked against PostgreSQL's own view columns after the same statements, on Spark 4.
"""

from __future__ import annotations

import json

import ddlc

BASE = (
    "CREATE SCHEMA s;",
    "CREATE TABLE s.t (id int NOT NULL, amount numeric(10,2), note text);",
)
QUERIES = [
    "SELECT t.id, t.amount + 1 FROM s.t",
    "SELECT count(*), max(t.amount) FROM s.t",
    "SELECT CAST(t.note AS varchar(5)), 'x'::text, (1)::bigint FROM s.t",
    "SELECT CASE WHEN t.id > 0 THEN 1 END, CASE WHEN t.id > 0 THEN 'a' ELSE t.note END, coalesce(t.note, 'a') FROM s.t",
    "SELECT current_date, t.amount AS a, upper(t.note) FROM s.t",
    "SELECT t.id + 1 FROM s.t UNION ALL SELECT t.id FROM s.t",
    "SELECT (SELECT max(u.id) AS top FROM s.t u), EXISTS (SELECT 1 FROM s.t u) FROM s.t",
    "SELECT (SELECT max(u.id) FROM s.t u), (SELECT u.note FROM s.t u LIMIT 1) FROM s.t",
]


def _stream(*texts: str) -> bytes:
    return "".join(json.dumps({"TDDL": t}) + "\n" for t in texts).encode()


def test_unnamed_columns_are_named_as_gaussdb_names_them(spark, pg_db) -> None:
    views = [f"s.v{i}" for i in range(len(QUERIES))]
    texts = (*BASE, *(f"CREATE VIEW {v} AS {q};" for v, q in zip(views, QUERIES)))
    out = list(ddlc.translate_many(_stream(*texts), target="spark"))
    assert all(t.error is None and t.statements for t in out), [(t.error, t.diagnostics) for t in out]
    spark.reset()
    for t in out:
        for s in t.statements:
            spark.run(s)  # a permanent view with an unnamed expression column would be refused here
    for t in ddlc.translate_many(_stream(*texts), target="postgres"):
        for s in t.statements:
            pg_db.execute(s)
    for v in views:
        schema, name = v.split(".")
        pg = [r[0] for r in pg_db.execute("SELECT column_name FROM information_schema.columns WHERE table_schema = "
                                          "%s AND table_name = %s ORDER BY ordinal_position", (schema, name))]
        got = [f.name for f in spark.session.table(v).schema.fields]
        assert got == pg, (v, got, pg)


def test_names_without_an_engine() -> None:
    """PostgreSQL's FigureColname, case by case (parse_target.c), on pglast's parse of each expression."""
    import pglast

    from ddlc.backends.spark.exprs import _implicit_name

    cases = {
        "t.a": None, "*": None, "t.*": None, "a + 1": "?column?", "1": "?column?", "count(*)": "count",
        "s.f(x)": "f", "CAST(a AS int)": "a", "'x'::text": "text", "CAST(1 AS numeric(3))": "numeric",
        "CASE WHEN a THEN 1 END": "case", "CASE WHEN a THEN 1 ELSE b END": "b", "coalesce(a, 1)": "coalesce",
        "greatest(a, b)": "greatest", "least(a, b)": "least", "nullif(a, b)": "nullif", "ARRAY[1, 2]": "array",
        "ROW(1, 2)": "row", "EXISTS (SELECT 1)": "exists", "ARRAY(SELECT 1)": "array",
        "(SELECT max(x) FROM t)": "max", "(SELECT x FROM t)": "x", "(SELECT x AS y FROM t)": "y",
        "(SELECT 1 UNION SELECT 2)": "?column?", "(SELECT x FROM t UNION SELECT y FROM u)": "x",
        "a IS NULL": "?column?", "NOT a": "?column?", "a COLLATE \"C\"": "a", "(a).f": "f",
        "current_date": "current_date", "current_user": "current_user",
    }
    for sql, want in cases.items():
        node = pglast.parse_sql(f"SELECT {sql}")[0].stmt.targetList[0].val
        assert _implicit_name(node) == want, (sql, _implicit_name(node), want)
