"""Function calls for Spark (ddlc/backends/spark/functions.py, exprs.py):

* the catalog (ddlc/data/spark_functions.txt) is exactly what a live Spark session lists, and every
  function a form writes is in it;
* every form of the table is evaluated on a real Spark 4 session, and its value is the value GaussDB gives:
  the same GaussDB expression translated for PostgreSQL (whose forms tests/test_pg_functions.py proves on
  the server) is evaluated on a real PostgreSQL server and both values compared, with Spark's type;
* the forms that read the clock are checked against the statement's own clock (sysdate: rounded to the
  second, as timestamp(0) rounds);
* a call the table has no form for is never written: its clause is left out with DDLC-W810, whose message
  names GaussDB's function and the reason (never "sqlglot" or "PostgreSQL"), and the names whose Spark
  meaning differs are shown to differ on the two engines;
* ``DEFAULT sysdate`` end to end: the CLI's statement runs on Spark and fills new rows.
"""

from __future__ import annotations

import copy
import datetime as dt
import json
import subprocess
import sys

import pytest
from conftest import ROOT, ddlc_command
from test_pg_functions import TS0, check, default, generated, view  # the same JDDL builders
from test_postgres_alter import column, create_table, typ

import ddlc
from ddlc.backends.spark.functions import FORMS, NO_FORM, form_for, spark_functions

sys.path.insert(0, str(ROOT))
from tools import gen_spark_functions  # noqa: E402

PREFIX = "CREATE VIEW public.v AS "


def translate(tree: dict, target: str = "spark", **opts):
    (r,) = ddlc.translate_many([copy.deepcopy(tree)], target=target, **opts)
    return r


def select(gauss: str, source: str = "", target: str = "spark") -> tuple[str, list]:
    """The SELECT ddlc writes for ``SELECT <gauss> AS v <source>`` (a view's query), and its diagnostics."""
    r = translate(view(f"SELECT {gauss} AS v{source}"), target)
    assert r.error is None and len(r.statements) == 1, (gauss, r.error, [d.message for d in r.diagnostics])
    (stmt,) = r.statements
    assert stmt.startswith(PREFIX), stmt
    return stmt[len(PREFIX):], [(d.code, d.message) for d in r.diagnostics]


# ---- the catalog ----------------------------------------------------------------------------------

def test_catalog_is_the_live_sessions(spark):
    version, names = gen_spark_functions.collect(spark.session)
    assert version.split(".")[0] == "4"
    stored = [ln for ln in gen_spark_functions.TARGET.read_text("utf-8").splitlines() if not ln.startswith("#")]
    assert stored == names
    assert gen_spark_functions.render(version, names) == gen_spark_functions.TARGET.read_text("utf-8")
    assert spark_functions() == frozenset(names)


def _written_functions(node) -> set[str]:
    from sqlglot import exp

    out = set()
    for x in node.walk():
        if isinstance(x, exp.Anonymous):
            out.add(str(x.this).lower())
        elif isinstance(x, exp.Func) and not isinstance(x, exp.Cast | exp.Case | exp.If | exp.Coalesce):
            out.add(x.sql_name().lower())
    return out


# ---- every form on Spark, compared with PostgreSQL (GaussDB's meaning) -------------------------------

# (GaussDB expression, Spark type): the value must equal PostgreSQL's for the same GaussDB expression
CASES = [
    ("nvl(NULL::int, 3)", "int"),
    ("nvl('a'::text, 'b')", "string"),
    ("ifnull(NULL::int, 7)", "int"),
    ("nvl2(NULL::int, 'y', 'n')", "string"),
    ("nvl2(1 = 1, 'y', 'n')", "string"),
    ("decode(2, 1, 'one', 2, 'two', 'other')", "string"),
    ("decode(5, 1, 'one', 2, 'two', 'other')", "string"),
    ("decode(5, 1, 'one')", "string"),
    ("decode(NULL::int, NULL, 'null matches', 'no')", "string"),
    ("decode(1 = 2, false, 'f', 't')", "string"),
    ("if(2 > 1, 'a', 'b')", "string"),
    ("if(NULL::boolean, 'a', 'b')", "string"),
    ("instr('abcabc', 'ca')", "int"),
    ("instr('abc', 'x')", "int"),
    ("instr('abc', '')", "int"),
    ("instr(NULL::text, 'a')", "int"),
    ("lengthb('héllo'::text)", "int"),
    ("octet_length('héllo')", "int"),
    ("lower('AbC-Ü')", "string"),
    ("upper('aBc-ü')", "string"),
    ("md5('abc')", "string"),
    ("btrim('  a b  ')", "string"),
    ("TRIM(BOTH FROM '  a ')", "string"),
    ("ltrim('  a ')", "string"),
    ("rtrim('  a ')", "string"),
    ("btrim(E' \\t a\\n ')", "string"),  # spaces only: a tab or a line break stays in both
    ("ltrim(E'\\t a')", "string"),
    ("rtrim(E'a\\r ')", "string"),
    ("replace('abcabc', 'b', 'xy')", "string"),
    ("replace('abc', '', 'x')", "string"),
    ("abs(-5)", "int"),
    ("abs(-2.5)", "decimal(2,1)"),
    ("add_months(DATE '2020-01-31', 1)", "timestamp_ntz"),
    ("add_months(TIMESTAMP '2020-03-15 10:20:30', -14)", "timestamp_ntz"),
    ("add_months(CAST('2020-02-29 23:59:59' AS timestamp), 12)", "timestamp_ntz"),
    ("last_day(TIMESTAMP '2020-02-10 13:14:15')", "timestamp_ntz"),
    ("last_day(DATE '2021-12-01')", "timestamp_ntz"),
    ("last_day(CAST('2021-04-30 23:59:59.5' AS timestamp))", "timestamp_ntz"),
    ("trunc(TIMESTAMP '2020-05-17 13:14:15')", "timestamp_ntz"),
    ("trunc(DATE '2020-05-17')", "timestamp_ntz"),
    ("trunc(TIMESTAMP '2020-05-17 13:14:15', 'month')", "timestamp_ntz"),
    ("trunc(TIMESTAMP '2020-05-17 13:14:15', 'YEAR')", "timestamp_ntz"),
    ("trunc(TIMESTAMP '2020-05-17 13:14:15', 'quarter')", "timestamp_ntz"),
    ("trunc(TIMESTAMP '2020-05-17 13:14:15', 'week')", "timestamp_ntz"),
    ("trunc(TIMESTAMP '2020-05-17 13:14:15', 'mon')", "timestamp_ntz"),
    ("trunc(TIMESTAMP '2020-05-17 13:14:15', 'Day')", "timestamp_ntz"),
    ("trunc(add_months(TIMESTAMP '2020-01-31 10:00:00', 1), 'month')", "timestamp_ntz"),
    ("to_char(TIMESTAMP '2020-05-07 13:04:05.123456', 'YYYY-MM-DD HH24:MI:SS')", "string"),
    ("to_char(TIMESTAMP '2020-05-07 13:04:05.123456', 'YYYYMMDD')", "string"),
    ("to_char(TIMESTAMP '2020-05-07 13:04:05.123456', 'HH12:MI:SS.MS AM; US')", "string"),
    ("to_char(TIMESTAMP '2020-05-07 01:04:05', 'HH:MI PM')", "string"),
    ("to_char(TIMESTAMP '0987-01-02 00:00:00', 'YYYY/YY/DDD')", "string"),
    ("to_char(DATE '2020-12-31', 'Dy, Mon DD YYYY _ DDD')", "string"),
    ("to_char(CAST('2020-03-01 10:00:00+00' AS timestamptz), 'YYYY-MM-DD HH24:MI')", "string"),
]
SOURCE = " FROM (SELECT 1 AS n, 'b' AS t UNION ALL SELECT 3, 'a' UNION ALL SELECT 2, NULL) AS s"
AGGREGATES = [
    ("count(t)", "bigint"),
    ("count(*)", "bigint"),
    ("min(t)", "string"),
    ("max(n)", "int"),
    ("sum(n)", "bigint"),
]


@pytest.fixture(scope="module")
def pg(pg_server):
    conn = pg_server.connect()
    conn.execute("SET TIME ZONE 'UTC'")
    yield conn
    conn.close()


@pytest.mark.parametrize(("gauss", "spark_type"), CASES + AGGREGATES, ids=[c[0] for c in CASES + AGGREGATES])
def test_form_on_spark_equals_postgres(spark, pg, gauss, spark_type):
    source = SOURCE if (gauss, spark_type) in AGGREGATES else ""
    sql, diags = select(gauss, source)
    assert {c for c, _ in diags} <= {"DDLC-I810"}, diags
    value, typ_ = spark.session.sql(f"SELECT v, typeof(v) FROM ({sql}) AS q").collect()[0]
    assert typ_ == spark_type, (sql, typ_)
    pg_sql, _ = select(gauss, source, target="postgres")
    (expected,) = pg.execute(pg_sql).fetchone()
    if isinstance(expected, dt.datetime):
        assert expected.tzinfo is None, pg_sql  # a timestamp without time zone on both
    assert value == expected, (sql, value, pg_sql, expected)


# the forms that read the clock: (GaussDB expression, Spark type, the statement's own value in Spark)
CLOCK = [
    ("pg_systimestamp()", "timestamp", "current_timestamp()"),
    ("now()", "timestamp", "current_timestamp()"),
    ("pg_catalog.now()", "timestamp", "current_timestamp()"),
    ("statement_timestamp()", "timestamp", "current_timestamp()"),
    ("transaction_timestamp()", "timestamp", "current_timestamp()"),
    ("curdate()", "date", "current_date()"),
    ("text_date('now')", "date", "current_date()"),
    ("trunc(sysdate)", "timestamp_ntz", "CAST(current_date() AS TIMESTAMP_NTZ)"),
    ("trunc(CURRENT_DATE, 'month')", "timestamp_ntz", "CAST(trunc(current_date(), 'MM') AS TIMESTAMP_NTZ)"),
    ("trunc(LOCALTIMESTAMP)", "timestamp_ntz", "CAST(current_date() AS TIMESTAMP_NTZ)"),
    ("to_char(sysdate, 'YYYY-MM-DD')", "string", "date_format(current_date(), 'yyyy-MM-dd')"),
    ("to_char(now(), 'YYYY')", "string", "CAST(year(current_date()) AS STRING)"),
]


@pytest.mark.parametrize(("gauss", "spark_type", "reference"), CLOCK, ids=[c[0] for c in CLOCK])
def test_clock_form_on_spark(spark, gauss, spark_type, reference):
    sql, _ = select(gauss)
    value, typ_, ref = spark.session.sql(f"SELECT v, typeof(v), {reference} FROM ({sql}) AS q").collect()[0]
    assert typ_ == spark_type and value == ref, (sql, value, ref)


@pytest.mark.parametrize("spelling", ["sysdate", "sysdate()", "pg_catalog.sysdate()"])
def test_sysdate_is_the_statements_local_time_rounded_to_the_second(spark, spelling):
    """openGauss's sysdate is CURRENT_TIMESTAMP::timestamp(0): the local time, rounded (not truncated) to
    the second. Spark's clock is read once per statement, so the value is checked against the same read."""
    sql, diags = select(spelling)
    assert diags == [("DDLC-I810", "view public.v: rewritten sysdate")]
    for zone in ("UTC", "Asia/Shanghai", "America/Sao_Paulo"):
        spark.session.conf.set("spark.sql.session.timeZone", zone)
        try:
            q = f"SELECT v, typeof(v), localtimestamp() FROM ({sql}) AS q"
            value, typ_, local = spark.session.sql(q).collect()[0]
        finally:
            spark.session.conf.set("spark.sql.session.timeZone", "Etc/UTC")
        rounded = (local + dt.timedelta(microseconds=500_000)).replace(microsecond=0)
        assert typ_ == "timestamp_ntz" and value == rounded, (zone, value, local)


@pytest.mark.parametrize(("gauss", "digits", "spark_type"), [
    ("CURRENT_TIMESTAMP(0)", 0, "timestamp"), ("CURRENT_TIMESTAMP(2)", 2, "timestamp"),
    ("LOCALTIMESTAMP(3)", 3, "timestamp_ntz"), ("LOCALTIMESTAMP(0)", 0, "timestamp_ntz"),
    ("CURRENT_TIMESTAMP(5)", 5, "timestamp"),
])
def test_clock_precision_is_rounded(spark, gauss, digits, spark_type):
    """CURRENT_TIMESTAMP(p) / LOCALTIMESTAMP(p) round to p fractional digits (half up) on GaussDB; Spark keeps
    microseconds, so the form rounds them."""
    sql, diags = select(gauss)
    assert diags == [("DDLC-I810", f"view public.v: rewritten {gauss}")]
    reference = "localtimestamp()" if spark_type == "timestamp_ntz" else "current_timestamp()"
    value, typ_, now = spark.session.sql(f"SELECT v, typeof(v), {reference} FROM ({sql}) AS q").collect()[0]
    unit = 10 ** (6 - digits)
    micros = (now.microsecond + unit // 2) // unit * unit
    expected = now.replace(microsecond=0) + dt.timedelta(microseconds=micros)
    assert typ_ == spark_type and value == expected, (sql, value, now)


def test_quoted_sysdate_is_a_column():
    """openGauss writes a column named sysdate quoted: it stays a column, never the keyword."""
    sql, diags = select('t."sysdate"', " FROM public.t")
    assert sql == "SELECT t.sysdate AS v FROM public.t" and diags == []
    r = translate(create_table("t", [column("sysdate", TS0), check("k", '"sysdate" > DATE \'2020-01-01\'')]))
    assert r.statements[0].count("TIMESTAMP_SECONDS") == 0


def test_random_on_spark(spark):
    sql, diags = select("random()")
    assert diags == [("DDLC-I810", "view public.v: rewritten random")]
    value, typ_ = spark.session.sql(f"SELECT v, typeof(v) FROM ({sql}) AS q").collect()[0]
    assert typ_ == "double" and 0 <= value < 1


def test_every_form_is_evaluated():
    from ddlc.frontend.sql import make_expr

    seen: set[int] = set()
    for gauss in [c[0] for c in CASES + AGGREGATES + CLOCK] + ["sysdate", "random()"]:
        _walk_forms(make_expr(gauss).tree, seen)
    missing = [f.gauss for fs in FORMS.values() for f in fs if id(f) not in seen]
    assert missing == []


def _walk_forms(tree, seen: set[int]) -> None:
    from pglast import ast

    from ddlc.ir.sqltree import nodes

    for n in nodes(tree):
        if isinstance(n, ast.FuncCall):
            name = n.funcname[-1].sval
            if n.agg_star:
                seen.update(id(f) for f in FORMS.get(name, ()))  # count(*): its own node, the count row's note
                continue
            args = [_shape(a) for a in n.args or ()]
            f = form_for(name, args, n)
            if f is not None:
                seen.add(id(f))
        elif isinstance(n, ast.ColumnRef) and [getattr(x, "sval", None) for x in n.fields] == ["sysdate"]:
            seen.add(id(FORMS["sysdate"][0]))


def _shape(a):
    """A stand-in for a translated argument: literals as sqlglot literals (what the forms look at)."""
    from pglast import ast
    from sqlglot import exp

    if isinstance(a, ast.A_Const) and isinstance(a.val, ast.Integer):
        return exp.Literal.number(str(a.val.ival))
    if isinstance(a, ast.A_Const) and isinstance(a.val, ast.String):
        return exp.Literal.string(a.val.sval)
    if isinstance(a, ast.A_Expr) and a.lexpr is None and isinstance(a.rexpr, ast.A_Const):
        return exp.Neg(this=_shape(a.rexpr))
    return exp.column("x")


def test_forms_write_only_spark_builtins():
    from ddlc.backends.spark.exprs import ToSpark
    from ddlc.frontend.sql import make_expr
    from sqlglot import exp

    conv = ToSpark(lambda n: exp.Identifier(this=n), lambda s, n: exp.Table(this=exp.Identifier(this=n)),
                   lambda t: exp.DataType(this=exp.DataType.Type.TIMESTAMPNTZ))
    written: set[str] = set()
    for gauss in [c[0] for c in CASES + AGGREGATES + CLOCK] + ["sysdate", "random()"]:
        written |= _written_functions(conv.expr(make_expr(gauss).tree))
    assert written and written <= spark_functions(), written - spark_functions()


def test_every_documented_name_is_a_gauss_or_pg_builtin():
    from ddlc.backends.postgres.functions import gauss_takes, pg_takes

    for name, forms in FORMS.items():
        for f in forms:
            counts = f.arities if isinstance(f.arities, tuple) else (f.arities, f.arities + 2)
            for n in counts:
                assert gauss_takes(name, n) or pg_takes(name, n) or name == "sysdate", (name, n)


# ---- never written: a clause without an exact form is left out, the reason named -------------------------

REFUSED = [
    ("months_between(sysdate, TIMESTAMP '2020-01-01 00:00:00')",
     "months_between() is a GaussDB function with no exact Spark form in ddlc's table (docs/functions.md)"),
    ("trunc(2.5)", "trunc() with 1 argument or these arguments has no exact Spark form: only trunc(d [, unit])"),
    ("trunc(b)", "trunc() with 1 argument or these arguments has no exact Spark form"),
    ("trunc(TIMESTAMP '2020-05-17 13:14:15', 'hour')", "trunc() with 2 arguments"),
    ("add_months(b, a)", "only add_months(d, n) with n an integer literal has one"),
    ("instr('abc', 'b', 2)", "instr() with 3 arguments"),
    ("text_date('2020-01-01')", "only text_date('now') has one"),
    ("log(100)", "Spark's one-argument log is the natural logarithm"),
    ("concat('a', NULL)", "Spark's concat returns NULL"),
    ("to_date('2020-01-01', 'YYYY-MM-DD')", "returns a timestamp(0)"),
    ("to_char(b, 'YYYY')", "only to_char(d, fmt) with d visibly a date or a timestamp"),
    ("to_char(sysdate, 'Month')", "only to_char(d, fmt)"),
    ("to_char(sysdate, 'MMMM')", "only to_char(d, fmt)"),
    ("to_char(sysdate, 'SSSS')", "only to_char(d, fmt)"),
    ("to_char(sysdate, 'YYYY-MM-DD\"T\"HH24')", "only to_char(d, fmt)"),
    ("to_char(1.5, '9.9')", "only to_char(d, fmt)"),
    ("substr('abc', 2, 1)", "Oracle's"),
    ("length('abc')", "char(n)"),
    ("sys_guid()", "not a random UUID"),
    ("my_function(1)", "my_function() is a GaussDB function with no exact Spark form"),
    ("pg_catalog.txid_current()", "txid_current() is a GaussDB function with no exact Spark form"),
]


@pytest.mark.parametrize(("gauss", "why"), REFUSED, ids=[r[0] for r in REFUSED])
def test_no_form_no_default(gauss, why):
    r = translate(create_table("t", [column("a", typ("int4")), column("b", TS0, default=default(gauss))]))
    assert r.error is None
    assert len(r.statements) == 1 and "DEFAULT" not in r.statements[0]
    (w,) = [d for d in r.diagnostics if d.code == "DDLC-W810"]
    assert why in w.message, w.message
    assert "sqlglot" not in w.message and "PostgreSQL" not in w.message


# Names whose Spark function differs from GaussDB's (PostgreSQL's, for these): shown on both engines
DIFFERENT = [
    ("log(100)", "log(100)"),
    ("concat('a', NULL)", "concat('a', NULL)"),
    ("left('abc', -1)", "left('abc', -1)"),
    ("initcap('hello world-foo')", "initcap('hello world-foo')"),
    ("regexp_replace('abab', 'a', 'x')", "regexp_replace('abab', 'a', 'x')"),
    ("to_hex(255)", "hex(255)"),
    ("round(2.5::float8)", "round(CAST(2.5 AS DOUBLE))"),
    ("length('a'::char(3))", "(SELECT length(c) FROM default.char3)"),
]


@pytest.mark.parametrize(("pg_sql", "spark_sql"), DIFFERENT, ids=[d[0] for d in DIFFERENT])
def test_refused_names_differ_on_the_engines(spark, pg, pg_sql, spark_sql):
    if "char3" in spark_sql:  # a CHAR(3) column holds its padding on Spark
        spark.run("CREATE TABLE IF NOT EXISTS default.char3 (c CHAR(3)) USING parquet")
        spark.run("INSERT OVERWRITE default.char3 VALUES ('a')")
    (expected,) = pg.execute(f"SELECT {pg_sql}").fetchone()
    (got,) = spark.session.sql(f"SELECT {spark_sql}").collect()[0]
    assert str(got) != str(expected), (pg_sql, expected, got)
    name = pg_sql.split("(")[0]
    assert name in NO_FORM and name not in FORMS


@pytest.mark.parametrize("where", ["check", "generated"])
def test_no_form_elsewhere_leaves_the_clause_out(where):
    body = "log(a) > 1"
    col = column("c", typ("int4"), generated_column=generated("log(a)")) if where == "generated" else check(
        "k", body)
    r = translate(create_table("t", [column("a", typ("int4")), col]), on_unsupported="comment")
    assert r.error is None and "log" not in " ".join(r.statements)
    assert any("log() has no exact Spark form" in d.message for d in r.diagnostics if d.code == "DDLC-W810")
    assert r.comments and "DDLC-W810" in r.comments[0]


def test_random_default_is_left_out(spark):
    """Spark refuses a non-deterministic DEFAULT (INVALID_DEFAULT_VALUE.NON_DETERMINISTIC): random() in a
    default, a CHECK or a generated column is left out, while a view may use it."""
    r = translate(create_table("t", [column("a", typ("float8"), default=default("random()")),
                                     check("k", "random() < 2")]))
    assert "RAND" not in " ".join(r.statements)
    assert len([d for d in r.diagnostics if d.code == "DDLC-W810"]) == 2
    with pytest.raises(Exception, match="NON_DETERMINISTIC"):
        spark.session.sql("CREATE TABLE default.rand_default (a DOUBLE DEFAULT rand()) USING parquet")


def test_clock_forms_are_not_generated_columns():
    r = translate(create_table("t", [column("a", TS0), column("b", TS0, generated_column=generated("trunc(sysdate)"))]))
    assert any("not deterministic" in d.message for d in r.diagnostics if d.code == "DDLC-W810")


# ---- end to end: DEFAULT sysdate ---------------------------------------------------------------------

def test_sysdate_default_cli_runs_on_spark(tmp_path, spark):
    """``CREATE TABLE staff (id int, hired DATE DEFAULT sysdate)`` from an A-compatible database (DATE is
    timestamp(0) there): the CLI's statement parses as Delta DDL, runs on Spark (a parquet table: Delta's
    jars are not here) and fills new rows with the second-rounded local time."""
    tree = create_table("staff", [column("id", typ("int4")), column("hired", TS0, default=default("sysdate"))])
    doc = tmp_path / "staff.json"
    doc.write_text(json.dumps(tree), "utf-8")
    p = subprocess.run([*ddlc_command(), "translate", "--to", "spark", str(doc)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    stmt = p.stdout.strip().removesuffix(";")
    assert "DEFAULT CAST(TIMESTAMP_SECONDS(UNIX_SECONDS(CURRENT_TIMESTAMP() + INTERVAL '0.5' SECOND)) AS " \
           "TIMESTAMP_NTZ)" in stmt
    spark.parse(stmt)
    spark.reset()
    spark.run("CREATE SCHEMA IF NOT EXISTS public")
    spark.run(stmt.replace("USING DELTA", "USING parquet"))
    spark.run("INSERT INTO public.staff (id) VALUES (1), (2)")
    rows = spark.session.sql("SELECT hired, localtimestamp() FROM public.staff").collect()
    assert len(rows) == 2
    for hired, now in rows:
        assert hired.microsecond == 0 and abs((now - hired).total_seconds()) < 120
    spark.reset()


# ---- property: whatever the mix of calls, only Spark built-ins of the table reach the output -------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_LEAVES = ["b", "1", "'x'", "NULL", "sysdate", "TIMESTAMP '2020-01-01 00:00:00'", "now()", "CURRENT_DATE"]
_CALLS = [  # (template, arguments): calls with a form, calls whose shape has none, calls with none
    ("nvl({}, {})", 2), ("nvl2({}, {}, {})", 3), ("decode({}, {}, {}, {})", 4), ("add_months({}, 1)", 1),
    ("add_months({}, {})", 2), ("trunc({})", 1), ("trunc({}, 'month')", 1), ("last_day({})", 1),
    ("to_char({}, 'YYYY-MM')", 1), ("to_char({}, 'Month')", 1), ("lower({})", 1), ("instr({}, 'a')", 1),
    ("lengthb({})", 1), ("months_between({}, {})", 2), ("log({})", 1), ("concat({}, {})", 2),
    ("substr({}, 1, 2)", 1), ("abs({})", 1), ("if({} IS NULL, {}, {})", 3), ("random()", 0),
]
# functions a GaussDB call of these names could become only by a guess
_GUESSES = {"log", "ln", "concat", "substr", "substring", "locate", "to_date", "months_between", "localtimestamp"}


def _expr() -> st.SearchStrategy[str]:
    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.sampled_from(_CALLS).flatmap(
            lambda c: st.lists(inner, min_size=c[1], max_size=c[1]).map(lambda args: c[0].format(*args)))
    return st.recursive(st.sampled_from(_LEAVES), extend, max_leaves=6)


def _output_functions(sql: str) -> set[str]:
    """The names the statement calls (a name written right before its parenthesis, outside string literals;
    the writer puts no space there, and a type's or a clause's parenthesis is not a call)."""
    import re

    bare = re.sub(r"'(?:[^'\\]|\\.)*'", "''", sql)
    names = {m.lower() for m in re.findall(r"\b([A-Za-z_][A-Za-z0-9_]*)\(", bare)}
    return names - {"cast", "decimal", "varchar", "char"}


@settings(max_examples=120, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(_expr(), min_size=1, max_size=3), st.sampled_from(["default", "check", "generated"]))
def test_only_table_forms_reach_the_output(spark, exprs, where):
    cols = [column("b", TS0)]
    for i, e in enumerate(exprs):
        if where == "default":
            cols.append(column(f"c{i}", typ("text"), default=default(e)))
        elif where == "generated":
            cols.append(column(f"c{i}", typ("text"), generated_column=generated(e)))
        else:
            cols.append(check(f"k{i}", f"({e}) IS NOT NULL"))
    r = translate(create_table("t", cols))
    assert r.error is None
    for stmt in r.statements:
        spark.parse(stmt)
        written = _output_functions(stmt)
        assert written <= spark_functions() | {"current_timestamp", "current_date"}, (stmt, written)
        assert not written & _GUESSES, (stmt, written)
    kept = sum(s.count(" DEFAULT ") + s.count(" CHECK (") + s.count("GENERATED ALWAYS AS (") for s in r.statements)
    dropped = [d for d in r.diagnostics if d.code == "DDLC-W810"]
    assert kept + len(dropped) == len(exprs), (exprs, r.statements, [d.message for d in dropped])
