"""CREATE TABLE AS / SELECT INTO create the table only, on every target (DDLC-I003).

GaussDB's logical decoding turns a CTAS or a SELECT INTO into the plain CREATE TABLE of the new table
(seeds/000 and 002): the rows the statement inserted are never DDL. A CTAS text that reaches ddlc (a
TDDL document) is therefore written so that it creates the table with the query's columns and no rows:
PostgreSQL and GaussDB ``... AS query WITH NO DATA``, Spark a Delta table from ``query LIMIT 0``. The
PostgreSQL output runs on a real server against a source table that has rows, and the new table is
checked (column names and types, persistence, zero rows); the Spark output goes through Spark's parser
and runs in Spark's catalog with the stand-in delta source, which refuses any row written to it, over a
source that has rows.
"""

from __future__ import annotations

import json

import pytest

import ddlc

SRC = "public.t_src"
PG_SETUP = "CREATE TABLE public.t_src (a integer, b text); INSERT INTO public.t_src VALUES (1, 'x'), (2, 'y'), (3, 'z')"
SPARK_SRC = "CREATE VIEW public.t_src AS SELECT * FROM VALUES (1, 'x'), (2, 'y'), (3, 'z') AS v(a, b)"
SPARK_PROPS = "USING DELTA TBLPROPERTIES ('delta.columnMapping.mode' = 'name')"
Q = "SELECT a, b FROM public.t_src WHERE a > 1"

# name, TDDL text, {target: (statements, codes)}, the new table (name, PostgreSQL columns, relpersistence)
CASES = [
    ("ctas", "CREATE TABLE public.t_ctas WITH (orientation = 'row', compression = 'no') AS " + Q + ";", {
        "postgres": ([f"CREATE TABLE public.t_ctas AS {Q} WITH NO DATA"], ["DDLC-I003", "DDLC-I610"]),
        "gaussdb": ([f"CREATE TABLE public.t_ctas WITH (orientation = 'row', compression = 'no') AS {Q} WITH NO DATA"],
                    ["DDLC-I003"]),
        "spark": ([f"CREATE TABLE public.t_ctas {SPARK_PROPS} AS {Q} LIMIT 0"], ["DDLC-I003", "DDLC-I811"]),
    }, ("t_ctas", [("a", "integer"), ("b", "text")], "p")),
    ("column-list", "CREATE TABLE public.t_cols (x, y) AS SELECT a, b FROM public.t_src", {
        "postgres": (["CREATE TABLE public.t_cols (x, y) AS SELECT a, b FROM public.t_src WITH NO DATA"], ["DDLC-I003"]),
        "gaussdb": (["CREATE TABLE public.t_cols (x, y) AS SELECT a, b FROM public.t_src WITH NO DATA"], ["DDLC-I003"]),
        "spark": ([f"CREATE TABLE public.t_cols {SPARK_PROPS} AS SELECT * FROM (SELECT a, b FROM public.t_src) AS q(x, y) "
                   "LIMIT 0"], ["DDLC-I003"]),
    }, ("t_cols", [("x", "integer"), ("y", "text")], "p")),
    ("with-no-data", "CREATE TABLE public.t_nd AS SELECT a, b::varchar(10) AS b2 FROM public.t_src WITH NO DATA;", {
        "postgres": (["CREATE TABLE public.t_nd AS SELECT a, b::varchar(10) AS b2 FROM public.t_src WITH NO DATA"], []),
        "gaussdb": (["CREATE TABLE public.t_nd AS SELECT a, b::varchar(10) AS b2 FROM public.t_src WITH NO DATA"], []),
        "spark": ([f"CREATE TABLE public.t_nd {SPARK_PROPS} AS SELECT a, CAST(b AS VARCHAR(10)) AS b2 FROM public.t_src "
                   "LIMIT 0"], []),
    }, ("t_nd", [("a", "integer"), ("b2", "character varying")], "p")),
    ("select-into", "SELECT a, b INTO public.t_into FROM public.t_src WHERE a > 1;", {
        "postgres": ([f"CREATE TABLE public.t_into AS {Q} WITH NO DATA"], ["DDLC-I003", "DDLC-I745"]),
        "gaussdb": ([f"CREATE TABLE public.t_into AS {Q} WITH NO DATA"], ["DDLC-I003"]),
        "spark": ([f"CREATE TABLE public.t_into {SPARK_PROPS} AS {Q} LIMIT 0"], ["DDLC-I003"]),
    }, ("t_into", [("a", "integer"), ("b", "text")], "p")),
    ("if-not-exists", "CREATE TABLE IF NOT EXISTS public.t_ine AS SELECT count(*) AS n FROM public.t_src", {
        "postgres": (["CREATE TABLE IF NOT EXISTS public.t_ine AS SELECT count(*) AS n FROM public.t_src WITH NO DATA"],
                     ["DDLC-I003"]),
        "gaussdb": (["CREATE TABLE IF NOT EXISTS public.t_ine AS SELECT count(*) AS n FROM public.t_src WITH NO DATA"],
                    ["DDLC-I003"]),
        "spark": ([f"CREATE TABLE IF NOT EXISTS public.t_ine {SPARK_PROPS} AS SELECT COUNT(*) AS n FROM public.t_src "
                   "LIMIT 0"], ["DDLC-I003"]),
    }, ("t_ine", [("n", "bigint")], "p")),
    ("unlogged", "CREATE UNLOGGED TABLE public.t_unl AS SELECT a FROM public.t_src", {
        "postgres": (["CREATE UNLOGGED TABLE public.t_unl AS SELECT a FROM public.t_src WITH NO DATA"], ["DDLC-I003"]),
        "gaussdb": (["CREATE UNLOGGED TABLE public.t_unl AS SELECT a FROM public.t_src WITH NO DATA"], ["DDLC-I003"]),
        "spark": ([f"CREATE TABLE public.t_unl {SPARK_PROPS} AS SELECT a FROM public.t_src LIMIT 0"],
                  ["DDLC-W821", "DDLC-I003"]),
    }, ("t_unl", [("a", "integer")], "u")),
    ("temp", "CREATE TEMP TABLE t_tmp AS SELECT b FROM public.t_src", {
        "postgres": (["CREATE TEMPORARY TABLE t_tmp AS SELECT b FROM public.t_src WITH NO DATA"], ["DDLC-I003"]),
        "gaussdb": (["CREATE TEMPORARY TABLE t_tmp AS SELECT b FROM public.t_src WITH NO DATA"], ["DDLC-I003"]),
        "spark": ([f"CREATE TABLE public.t_tmp {SPARK_PROPS} AS SELECT b FROM public.t_src LIMIT 0"],
                  ["DDLC-W821", "DDLC-I003"]),
    }, ("t_tmp", [("b", "text")], "t")),
    ("select-into-temp", "SELECT a, b INTO TEMP t_into2 FROM public.t_src ORDER BY a LIMIT 2", {
        "postgres": (["CREATE TEMPORARY TABLE t_into2 AS SELECT a, b FROM public.t_src ORDER BY a LIMIT 2 WITH NO DATA"],
                     ["DDLC-I003", "DDLC-I745"]),
        "gaussdb": (["CREATE TEMPORARY TABLE t_into2 AS SELECT a, b FROM public.t_src ORDER BY a LIMIT 2 WITH NO DATA"],
                    ["DDLC-I003"]),
        "spark": ([f"CREATE TABLE public.t_into2 {SPARK_PROPS} AS SELECT a, b FROM public.t_src ORDER BY a ASC NULLS LAST "
                   "LIMIT 0"], ["DDLC-W821", "DDLC-I003"]),
    }, ("t_into2", [("a", "integer"), ("b", "text")], "t")),
    ("with-options", "CREATE TABLE public.t_opt WITH (fillfactor = '70', autovacuum_enabled = true) AS SELECT a FROM "
     "public.t_src", {  # string options quoted once on PostgreSQL (they were tripled, which the server refuses)
        "postgres": (["CREATE TABLE public.t_opt WITH (fillfactor = 70, autovacuum_enabled = true) AS SELECT a FROM "
                      "public.t_src WITH NO DATA"], ["DDLC-I003"]),
        "gaussdb": (["CREATE TABLE public.t_opt WITH (fillfactor = '70', autovacuum_enabled = 'true') AS SELECT a FROM "
                     "public.t_src WITH NO DATA"], ["DDLC-I003"]),
        "spark": ([f"CREATE TABLE public.t_opt {SPARK_PROPS} AS SELECT a FROM public.t_src LIMIT 0"],
                  ["DDLC-W820", "DDLC-W820", "DDLC-I003"]),
    }, ("t_opt", [("a", "integer")], "p")),
]
IDS = [c[0] for c in CASES]


def translate(text: str, target: str, **options):
    return ddlc.translate(json.dumps({"TDDL": text}), target=target, **options)


@pytest.mark.parametrize("target", ["postgres", "gaussdb", "spark"])
@pytest.mark.parametrize("name,text,expected,table", CASES, ids=IDS)
def test_only_the_table_is_written(name, text, expected, table, target):
    r = translate(text, target)
    statements, codes = expected[target]
    assert list(r.statements) == statements
    assert [d.code for d in r.diagnostics] == codes
    note = [d for d in r.diagnostics if d.code == "DDLC-I003"]
    assert all("its rows are expected as DML" in d.message for d in note)
    assert r.error is None


def test_other_tddl_still_passes_through_on_gaussdb():
    r = translate("TRUNCATE TABLE public.t_src;", "gaussdb")
    assert r.statements == ("TRUNCATE TABLE public.t_src",) and [d.code for d in r.diagnostics] == ["DDLC-I002"]
    # a CREATE TABLE AS is written from its IR: the schema map reaches it (a passed-through text would not)
    r = translate("CREATE TABLE public.t2 AS SELECT a FROM public.t_src", "gaussdb", schema_map={"public": "m"})
    assert r.statements == ("CREATE TABLE m.t2 AS SELECT a FROM m.t_src WITH NO DATA",)
    assert "DDLC-W003" not in [d.code for d in r.diagnostics]


def test_gaussdb_raw_mode_and_quoting():
    r = translate('CREATE TABLE "My Schema"."T x" ("Col 1") TABLESPACE "ts 1" AS SELECT 1', "gaussdb", mode="raw")
    assert r.statements == ('CREATE  TABLE  "My Schema"."T x" ("Col 1")  TABLESPACE "ts 1" AS SELECT 1 WITH NO DATA',)


def test_comment_mode_adds_no_comment_for_the_rows():
    for target in ("postgres", "gaussdb", "spark"):
        r = translate("CREATE TABLE public.t2 AS SELECT a FROM public.t_src", target, on_unsupported="comment")
        assert r.comments == () and len(r.statements) == 1


def test_spark_query_it_cannot_translate_is_reported():
    r = translate("CREATE TABLE public.t2 AS SELECT a FROM public.t_src FOR UPDATE", "spark", on_unsupported="skip")
    assert r.statements == () and "DDLC-W810" in [d.code for d in r.diagnostics]


# ---- the real engines ------------------------------------------------------------------------------------------
def _columns(cur, name: str) -> list[tuple[str, str]]:
    cur.execute("SELECT a.attname, format_type(a.atttypid, NULL) FROM pg_attribute a JOIN pg_class c ON c.oid = "
                "a.attrelid WHERE c.relname = %s AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum", (name,))
    return [tuple(r) for r in cur.fetchall()]


@pytest.mark.parametrize("name,text,expected,table", CASES, ids=IDS)
def test_postgres_creates_the_empty_table(name, text, expected, table, pg_db):
    relname, columns, persistence = table
    with pg_db.cursor() as cur:
        cur.execute(PG_SETUP)
        for s in translate(text, "postgres").statements:
            cur.execute(s)
        assert _columns(cur, relname) == columns
        cur.execute("SELECT relpersistence FROM pg_class WHERE relname = %s", (relname,))
        assert cur.fetchone() == (persistence,)
        schema = "" if persistence == "t" else "public."
        cur.execute(f"SELECT count(*) FROM {schema}{relname}")
        assert cur.fetchone() == (0,)  # the source has rows: none was copied
        cur.execute(f"INSERT INTO {schema}{relname} SELECT * FROM {schema}{relname}")  # the table takes DML


def test_postgres_if_not_exists_keeps_the_existing_table(pg_db):
    with pg_db.cursor() as cur:
        cur.execute(PG_SETUP + "; CREATE TABLE public.t_ine (n bigint); INSERT INTO public.t_ine VALUES (7)")
        for s in translate(CASES[4][1], "postgres").statements:
            cur.execute(s)
        cur.execute("SELECT n FROM public.t_ine")
        assert cur.fetchall() == [(7,)]


@pytest.mark.parametrize("name,text,expected,table", CASES, ids=IDS)
def test_spark_creates_the_empty_delta_table(name, text, expected, table, spark):
    relname = table[0]
    spark.reset()
    spark.run("CREATE SCHEMA public")
    spark.run(SPARK_SRC)  # a source with rows: the stand-in delta source refuses any row written to it
    for s in translate(text, "spark").statements:
        spark.parse(s)
        spark.run(s)
    described = spark.describe("public", relname).splitlines()
    cols = [(line.split()[0], line.split()[1]) for line in described[1:] if line.startswith("  ") and ":" not in line]
    # a query's VARCHAR column becomes STRING in a table created from it (Spark's CTAS rule)
    spark_types = {"integer": "int", "text": "string", "bigint": "bigint", "character varying": "string"}
    assert cols == [(c, spark_types[t]) for c, t in table[1]]
    assert "  properties: delta.columnMapping.mode=name" in described


def test_spark_stand_in_refuses_rows(spark):
    spark.reset()
    spark.run("CREATE SCHEMA public")
    spark.run(SPARK_SRC)
    with pytest.raises(Exception, match="takes no rows"):
        spark.run(f"CREATE TABLE public.t_rows {SPARK_PROPS} AS SELECT a FROM public.t_src")
