"""A column quoted as one of GaussDB's bare function keywords ("sysdate") stays a column when a query is re-printed
for PostgreSQL because another call in it is rewritten (nvl -> COALESCE): the rewrite judges each word as the
rules judged it, with the fragment's text (review round 8: a view and a CREATE TABLE AS read the keyword instead,
which changed the view's meaning). Checked on the real PostgreSQL server: the view reads the column."""

from __future__ import annotations

import orjson

import ddlc

_VIEW = {"fmt": "CREATE %{or_replace}s %{persistence}s VIEW %{identity}D AS %{query}s",
         "identity": {"objname": "v", "schemaname": "public"}, "or_replace": "", "persistence": ""}


def _one(doc: dict) -> str:
    t = ddlc.translate(orjson.dumps(doc), target="postgres")
    assert len(t.statements) == 1, t
    return t.statements[0]


def test_view_keeps_a_quoted_column_named_like_the_keyword(pg_db) -> None:
    quoted = _one({**_VIEW, "query": 'SELECT "sysdate", nvl(a, b) AS x FROM public.t;'})
    bare = _one({**_VIEW, "query": "SELECT sysdate AS d, nvl(a, b) AS x FROM public.t;"})
    assert "statement_timestamp" not in quoted and "COALESCE(a, b)" in quoted
    assert "CAST(statement_timestamp() AS timestamp(0)) AS d" in bare  # the keyword is still rewritten
    with pg_db.cursor() as cur:
        cur.execute("CREATE TABLE public.t (sysdate int, a int, b int)")
        cur.execute("INSERT INTO public.t VALUES (7, NULL, 2)")
        cur.execute(quoted)
        cur.execute("SELECT * FROM public.v")
        assert cur.fetchall() == [(7, 2)]


def test_create_table_as_keeps_a_quoted_column_named_like_the_keyword(pg_db) -> None:
    out = _one({"TDDL": 'CREATE TABLE public.t2 AS SELECT "sysdate", nvl(a, b) AS x FROM public.t;'})
    assert "statement_timestamp" not in out and "COALESCE(a, b)" in out
    with pg_db.cursor() as cur:
        cur.execute("CREATE TABLE public.t (sysdate int, a int, b int)")
        cur.execute(out)
        cur.execute("SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute "
                    "WHERE attrelid = 'public.t2'::regclass AND attnum > 0 ORDER BY attnum")
        assert cur.fetchall() == [("sysdate", "integer"), ("x", "integer")]
