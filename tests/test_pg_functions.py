"""Function calls for PostgreSQL (ddlc/backends/postgres/functions.py, rewrites.py, exprs.py):

* the built-in catalog (ddlc/data/pg_functions.txt) is exactly what a live PostgreSQL 15 server says,
  and the SQL-standard forms pglast turns into calls name functions of it;
* every GaussDB rewrite is executed on the server: the value and type it gives are the expected ones;
* a call PostgreSQL lacks is never emitted: a DEFAULT holding one is dropped (DDLC-W603, kept as a
  comment under --on-unsupported comment), any other statement holding one fails its document
  (DDLC-W604 -> DDLC-E010) unless comment or skip; user functions pass;
* ``hired DATE DEFAULT sysdate`` end to end: the CLI's output applies on the server and fills the column.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import pglast
import pytest
from conftest import ROOT, ddlc_command
from test_postgres_alter import add_column, alter, column, create_table, followup, sub, typ

import ddlc
from ddlc.backends.postgres import functions as F
from ddlc.backends.postgres.exprs import rewrite_expr
from ddlc.backends.postgres.rewrites import REWRITES
from ddlc.frontend.sql import make_expr

sys.path.insert(0, str(ROOT))
from tools import gen_pg_functions  # noqa: E402

TS0 = {"typmod": "(0) without time zone", "typarray": False, "typename": "TIMESTAMP", "schemaname": ""}


def default(text: str) -> dict:
    return {"fmt": "DEFAULT %{default}s", "default": text}


def check(name: str, body: str) -> dict:
    return {"fmt": "CONSTRAINT %{name}I %{definition}s", "name": name, "type": "constraint", "contype": "check",
            "definition": f"CHECK ({body})"}


def generated(expr: str) -> dict:
    return {"fmt": "GENERATED ALWAYS AS (%{generation_expr}s) STORED", "generation_expr": expr}


def view(query: str) -> dict:
    return {"fmt": "CREATE %{or_replace}s %{persistence}s VIEW %{identity}D AS %{query}s", "query": query,
            "identity": {"objname": "v", "schemaname": "public"}, "or_replace": "", "persistence": ""}


def index(definition: str) -> dict:
    return {"fmt": "CREATE %{unique}s INDEX %{concurrently}s %{name}I ON %{table}D USING %{index_am}s "
                   "%{definition}s", "name": "t_idx", "table": {"objname": "t", "schemaname": "public"},
            "unique": "", "index_am": "btree", "definition": definition, "concurrently": ""}


def translate(tree: dict, **opts):
    """The Translation of one tree (a failed document comes back with its ``error``)."""
    (r,) = ddlc.translate_many([copy.deepcopy(tree)], target="postgres", **opts)
    return r


def codes(r) -> list[str]:
    return sorted({d.code for d in r.diagnostics})


# ---- the catalog ----------------------------------------------------------------------------------

def test_catalog_is_the_live_servers(pg_server):
    conn = pg_server.connect()
    try:
        version, live = gen_pg_functions.collect(conn)
    finally:
        conn.close()
    assert version // 10000 == gen_pg_functions.MAJOR == 15
    stored = F.pg_functions()
    assert set(stored) == set(live)
    assert {n: tuple(r) for n, (r, _) in live.items()} == stored
    # the file is what the generator writes (its header names the server's exact version)
    body = [ln for ln in gen_pg_functions.render(version, live).splitlines() if not ln.startswith("#")]
    file_body = [ln for ln in gen_pg_functions.TARGET.read_text("utf-8").splitlines() if not ln.startswith("#")]
    assert body == file_body


def test_catalog_loads_on_first_use_only():
    code = ("import ddlc.backends.postgres as p; from ddlc.backends.postgres import functions as f; "
            "print(f.pg_functions.cache_info().currsize, f.gauss_functions.cache_info().currsize)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["0", "0"]


@pytest.mark.parametrize(("sql", "names"), [
    ("EXTRACT(year FROM DATE '2020-05-01')", ["extract"]),
    ("POSITION('b' IN 'abc')", ["position"]),
    ("SUBSTRING('abcdef' FROM 2 FOR 3)", ["substring"]),
    ("SUBSTRING('abcdef' FROM 2)", ["substring"]),
    ("TRIM(BOTH 'x' FROM 'xax')", ["btrim"]),
    ("TRIM(LEADING FROM '  a')", ["ltrim"]),
    ("OVERLAY('abcdef' PLACING 'zz' FROM 2 FOR 3)", ["overlay"]),
    ("COLLATION FOR ('a')", ["pg_collation_for"]),
    ("TIMESTAMPTZ '2020-01-01 00:00+00' AT TIME ZONE 'UTC'", ["timezone"]),
    ("'a' IS NORMALIZED", ["is_normalized"]),
    ("NORMALIZE('a', NFC)", ["normalize"]),
    ("(DATE '2020-01-01', DATE '2020-02-01') OVERLAPS (DATE '2020-01-15', DATE '2020-03-01')", ["overlaps"]),
    ("count(*)", ["count"]),
    ("percentile_cont(0.5) WITHIN GROUP (ORDER BY x)", ["percentile_cont"]),
    ("rank(2) WITHIN GROUP (ORDER BY x)", ["rank"]),
    ("concat('a', 1, NULL)", ["concat"]),
    ("regexp_like('abc', 'b')", ["regexp_like"]),
    # not calls at all: their own nodes
    ("CURRENT_TIMESTAMP(3)", []), ("LOCALTIMESTAMP", []), ("CURRENT_DATE", []), ("CURRENT_USER", []),
    ("SESSION_USER", []), ("CURRENT_SCHEMA", []), ("COALESCE(NULL, 1)", []), ("NULLIF(1, 2)", []),
    ("GREATEST(1, 2)", []),
])
def test_sql_standard_forms_are_known_calls(pg_db, sql, names):
    """pglast turns these forms into pg_catalog calls (or nodes of their own): each call is in the catalog
    with its argument count, and the form runs on the server."""
    e = make_expr(sql)
    found = F.calls(e.tree, e.text)
    assert [c.name for c, _ in found] == names
    assert all(v == F.KNOWN for _, v in found)
    with_x = "FROM (VALUES (1), (2), (3)) AS s(x)" if "ORDER BY x" in sql else ""
    pg_db.execute(f"SELECT {sql} {with_x}").fetchall()


def test_bare_system_user_is_a_name(pg_db):
    """openGauss has no SYSTEM_USER keyword: a bare ``system_user`` it writes is a name (a column), which
    PostgreSQL 16+ would read as its SYSTEM_USER keyword and 15 lacks as a function; the SQL layer quotes it
    (issue 8: PostgreSQL keywords inside fragments)."""
    e = make_expr("system_user")
    assert F.calls(e.tree) == () or list(F.calls(e.tree)) == []
    assert e.sql.verbatim is False
    from ddlc.backends.writer import pg_deparse

    assert pg_deparse(e.tree) == '"system_user"'
    with pytest.raises(Exception, match="system_user"):
        pg_db.execute("SELECT pg_catalog.system_user()")
    assert pg_db.execute('SELECT "system_user" FROM (SELECT 1 AS system_user) s').fetchone() == (1,)


# ---- verdicts ---------------------------------------------------------------------------------------

@pytest.mark.parametrize(("sql", "expected"), [
    ("lower(a)", [("lower", F.KNOWN)]),
    ("nvl(a, 1)", [("nvl", F.REWRITE)]),
    ("pg_catalog.nvl(a, 1)", [("nvl", F.REWRITE)]),
    ("sysdate", [("sysdate", F.REWRITE)]),
    ("months_between(a, b)", [("months_between", F.UNKNOWN)]),
    ("pg_catalog.months_between(a, b)", [("months_between", F.UNKNOWN)]),
    ("pg_catalog.no_such_function()", [("no_such_function", F.UNKNOWN)]),
    ("dbe_random.get_value(1, 2)", [("get_value", F.UNKNOWN)]),
    ("DBMS_RANDOM.VALUE(1, 2)", [("value", F.UNKNOWN)]),
    ("app.months_between(a, b)", [("months_between", F.USER)]),  # the user's own, in their schema
    ("my_function(a)", [("my_function", F.USER)]),  # no built-in anywhere: created by the stream
    ("decode(a, 'hex')", [("decode", F.KNOWN)]),  # PostgreSQL's binary decode
    ("decode(a, 1, 'one')", [("decode", F.REWRITE)]),
    ("instr(a, 'x')", [("instr", F.REWRITE)]),
    ("instr(a, 'x', 2)", [("instr", F.UNKNOWN)]),
    ("trunc(2.5)", [("trunc", F.KNOWN)]),
    ("trunc(2.567, '2')", [("trunc", F.KNOWN)]),
    ("trunc(d, 'MM')", [("trunc", F.REWRITE)]),
    ("trunc(CAST(d AS date))", [("trunc", F.REWRITE), ]),
    ("to_date(a, 'YYYY')", [("to_date", F.REWRITE)]),
    ("substrb(a, 1, 2)", [("substrb", F.UNKNOWN)]),
    ("listagg(a, ',') WITHIN GROUP (ORDER BY a)", [("listagg", F.REWRITE)]),
    ("listagg(a, ',') WITHIN GROUP (ORDER BY a) OVER (PARTITION BY b)", [("listagg", F.UNKNOWN)]),
    ("median(a) OVER ()", [("median", F.UNKNOWN)]),
    ('"sysdate" + 1', []),  # a column named sysdate, quoted as openGauss writes it: no call
    ("nvl(months_between(a, b), 0)", [("nvl", F.REWRITE), ("months_between", F.UNKNOWN)]),
])
def test_verdicts(sql, expected):
    e = make_expr(sql)
    assert [(c.name, v) for c, v in F.calls(e.tree, e.text)] == expected


def test_expr_statement_classes_are_complete():
    from ddlc.ir import statement_classes
    from ddlc.ir.names import Expr
    from ddlc.support import _nodes_below

    holders = {c for c in statement_classes() if Expr in _nodes_below(c)}
    assert holders == set(F.EXPR_STATEMENTS)


def test_every_rewrite_is_a_builtin_somewhere():
    for name, rws in REWRITES.items():
        for rw in rws:
            counts = rw.arities if isinstance(rw.arities, tuple) else (rw.arities, rw.arities + 2)
            for n in counts:
                assert F.gauss_takes(name, n) or F.pg_takes(name, n) or name in F.BARE, (name, n)


# ---- every rewrite on the server ----------------------------------------------------------------------

# (GaussDB expression, PostgreSQL expression of the expected value, expected type)
CASES = [
    ("sysdate", "CAST(statement_timestamp() AS timestamp(0))", "timestamp without time zone"),
    ("pg_catalog.sysdate()", "CAST(statement_timestamp() AS timestamp(0))", "timestamp without time zone"),
    ("pg_systimestamp()", "statement_timestamp()", "timestamp with time zone"),
    ("systimestamp()", "statement_timestamp()", "timestamp with time zone"),
    ("curdate()", "CURRENT_DATE", "date"),
    ("text_date('now')", "CURRENT_DATE", "date"),
    ("text_date('2020-02-29')", "DATE '2020-02-29'", "date"),
    ("nvl(NULL::int, 3)", "3", "integer"),
    ("nvl('a'::text, 'b')", "'a'", "text"),
    ("ifnull(NULL::numeric, 1.5)", "1.5", "numeric"),
    ("nvl2(NULL::int, 'y', 'n')", "'n'", "text"),
    ("nvl2(1 = 1, 'y', 'n')", "'y'", "text"),
    ("decode(2, 1, 'one', 2, 'two', 'other')", "'two'", "text"),
    ("decode(5, 1, 'one', 2, 'two', 'other')", "'other'", "text"),
    ("decode(5, 1, 'one')", "NULL", "text"),
    ("decode(NULL::int, NULL, 'null matches', 'no')", "'null matches'", "text"),
    ("decode(1 = 2, false, 'f', 't')", "'f'", "text"),
    ("if(2 > 1, 'a', 'b')", "'a'", "text"),
    ("instr('abcabc', 'ca')", "3", "integer"),
    ("lengthb('héllo'::text)", "6", "integer"),
    ("length(sys_guid())", "32", "integer"),
    ("sys_guid() ~ '^[0-9A-F]{32}$'", "true", "boolean"),
    ("length(uuid())", "36", "integer"),
    ("add_months(DATE '2020-01-31', 1)", "TIMESTAMP '2020-02-29 00:00:00'", "timestamp without time zone"),
    ("add_months(TIMESTAMP '2020-03-15 10:20:30', -14)", "TIMESTAMP '2019-01-15 10:20:30'",
     "timestamp without time zone"),
    ("add_months(DATE '2020-01-15', 2.6)", "TIMESTAMP '2020-04-15 00:00:00'", "timestamp without time zone"),
    ("last_day(TIMESTAMP '2020-02-10 13:14:15')", "TIMESTAMP '2020-02-29 13:14:15'", "timestamp without time zone"),
    ("last_day(DATE '2021-12-01')", "TIMESTAMP '2021-12-31 00:00:00'", "timestamp without time zone"),
    ("trunc(TIMESTAMP '2020-05-17 13:14:15')", "TIMESTAMP '2020-05-17 00:00:00'", "timestamp without time zone"),
    ("trunc(sysdate)", "date_trunc('day', CAST(statement_timestamp() AS timestamp(0)))",
     "timestamp without time zone"),
    ("trunc(TIMESTAMP '2020-05-17 13:14:15', 'month')", "TIMESTAMP '2020-05-01 00:00:00'",
     "timestamp without time zone"),
    ("numtodsinterval(1.5, 'HOUR')", "INTERVAL '90 minutes'", "interval"),
    ("numtodsinterval(3, 'day')", "INTERVAL '3 days'", "interval"),
    ("numtoyminterval(1.5, 'YEAR')", "INTERVAL '1 year 6 months'", "interval"),
    ("sys_extract_utc(TIMESTAMPTZ '2020-01-01 08:00:00+08')", "TIMESTAMP '2020-01-01 00:00:00'",
     "timestamp without time zone"),
    ("to_date('2020-01-02 03:04:05')", "TIMESTAMP '2020-01-02 03:04:05'", "timestamp without time zone"),
    ("to_date('20200102')", "TIMESTAMP '2020-01-02 00:00:00'", "timestamp without time zone"),
    ("to_date('2020-01-02 10:30', 'YYYY-MM-DD HH24:MI')", "TIMESTAMP '2020-01-02 10:30:00'",
     "timestamp without time zone"),
    ("to_number('-12.5e1')", "-125", "numeric"),
    ("to_clob('x')", "'x'", "text"),
    ("empty_blob()", "'\\x'::bytea", "bytea"),
    ("empty_clob()", "''", "text"),
    ("hextoraw('7D0a')", "'\\x7d0a'::bytea", "bytea"),
]
AGGREGATES = [  # over VALUES (1, 'b'), (3, 'a'), (2, 'c') AS s(n, t)
    ("listagg(t, ',') WITHIN GROUP (ORDER BY n)", "'b,c,a'", "text"),
    ("listagg(n) WITHIN GROUP (ORDER BY t DESC)", "'213'", "text"),
    ("median(n)", "2", "double precision"),
    ("length(wm_concat(t))", "5", "integer"),
]


def _rewritten(sql: str) -> tuple[str, list]:
    class Sink:
        diagnostics: list = []

        def diag(self, code, message, path, **kw):
            self.diagnostics.append((code, message))

    sink = Sink()
    sink.diagnostics = []
    e = make_expr(sql)
    assert e.tree is not None, sql
    out = rewrite_expr(e, sink)
    assert out != sql, f"{sql} not rewritten"
    return out, sink.diagnostics


@pytest.mark.parametrize(("gauss", "expected", "pgtype"), CASES + AGGREGATES, ids=[c[0] for c in CASES + AGGREGATES])
def test_rewrite_on_the_server(pg_db, gauss, expected, pgtype):
    out, diags = _rewritten(gauss)
    assert {c for c, _ in diags} <= {"DDLC-I602", "DDLC-I603"} and diags
    source = " FROM (VALUES (1, 'b'), (3, 'a'), (2, 'c')) AS s(n, t)" if (gauss, expected, pgtype) in AGGREGATES else ""
    row = pg_db.execute(f"SELECT ({out})::text, ({expected})::text, pg_typeof({out})::text,"
                        f" ({out}) IS NOT DISTINCT FROM ({expected}){source}").fetchone()
    assert row[2] == pgtype, (out, row)
    assert row[3] is True, (out, row)


def test_every_rewrite_is_executed():
    seen = set()
    for gauss, _, _ in CASES + AGGREGATES:
        e = make_expr(gauss)
        for c, v in F.calls(e.tree, e.text):
            if v == F.REWRITE:
                seen.add(id(F.rewrite_for(c)))
    missing = [rw.gauss for rws in REWRITES.values() for rw in rws if id(rw) not in seen]
    assert missing == []


def test_rewritten_default_is_evaluated_per_row(pg_db):
    """statement_timestamp() in a DEFAULT runs at each INSERT, as pg_systimestamp() does on GaussDB."""
    r = translate(create_table("t", [column("a", typ("int4")), column("b", TS0, default=default("sysdate")),
                                      column("c", typ("text"), default=default("sys_guid()"))]))
    for s in r.statements:
        pg_db.execute(s)
    pg_db.execute("INSERT INTO public.t (a) VALUES (1), (2)")
    rows = pg_db.execute("SELECT count(DISTINCT c), bool_and(b IS NOT NULL) FROM public.t").fetchone()
    assert rows == (2, True)


# ---- never emitted ----------------------------------------------------------------------------------

UNKNOWN_DEFAULT = "months_between(sysdate, TIMESTAMP '2020-01-01 00:00:00')"


def test_unknown_default_dropped(pg_db):
    r = translate(create_table("t", [column("a", typ("int4")), column("b", typ("numeric"),
                                                                      default=default(UNKNOWN_DEFAULT))]))
    assert r.error is None
    assert list(r.statements) == ["CREATE TABLE public.t (a integer, b numeric)"]
    w = [d for d in r.diagnostics if d.code == "DDLC-W603"]
    assert len(w) == 1 and w[0].jsonpath == "$.table_elements.elements[1]"  # the column
    pg_db.execute(r.statements[0])
    r = translate(create_table("t", [column("b", typ("numeric"), default=default(UNKNOWN_DEFAULT))]),
                  on_unsupported="comment")
    assert list(r.statements) == ["CREATE TABLE public.t (b numeric)"]
    # the clause as the GaussDB target writes it (CREATE TABLE public.t (b pg_catalog."numeric" DEFAULT ...))
    assert list(r.comments) == [f"-- ddlc DDLC-W603: not translated: DEFAULT {UNKNOWN_DEFAULT}"]


@pytest.mark.parametrize(("tree", "statements"), [
    (alter(add_column(column("b", typ("numeric"), default=default(UNKNOWN_DEFAULT))),
           sub("ALTER COLUMN %{column}I SET NOT NULL", "set not null", column="a")),
     ["ALTER TABLE public.t ADD COLUMN b numeric, ALTER COLUMN a SET NOT NULL"]),
    (alter(sub("ALTER COLUMN %{column}I SET DEFAULT %{definition}s", "set default", column="a",
               definition=UNKNOWN_DEFAULT),
           sub("ALTER COLUMN %{column}I SET NOT NULL", "set not null", column="a")),
     ["ALTER TABLE public.t ALTER COLUMN a SET NOT NULL"]),
])
def test_unknown_default_in_alter_dropped(tree, statements):
    r = translate(tree)
    assert r.error is None and list(r.statements) == statements
    assert "DDLC-W603" in codes(r)


def test_unknown_set_default_alone_fails_the_document():
    r = translate(followup(sub("ALTER COLUMN %{name}I SET DEFAULT %{default}s", name="a", default=UNKNOWN_DEFAULT)))
    assert list(r.statements) == [] and r.error is not None and r.error.code == "DDLC-E010"
    assert "DDLC-W603" in str(r.error)


UNKNOWN_BODY = "months_between(b, TIMESTAMP '2020-01-01 00:00:00') > 0"
ELSEWHERE = {
    "check": create_table("t", [column("b", TS0), check("t_b_check", UNKNOWN_BODY)]),
    "generated": create_table("t", [column("b", TS0), column("c", typ("numeric"), generated_column=generated(
        "months_between(b, TIMESTAMP '2020-01-01 00:00:00')"))]),
    "view": view("SELECT months_between(t.b, t.b) AS m FROM public.t;"),
    "index-expression": index("(months_between(b, b))"),
    "index-key-gauss-schema": index("(dbe_random.get_value(1, 2))"),
    "alter-add-check": alter(sub("ADD CONSTRAINT %{name}I %{definition}s", "add constraint", name="c1",
                                 definition=f"CHECK ({UNKNOWN_BODY})")),
    "alter-type-using": alter(sub("ALTER %{objtype}s %{column}I SET DATA TYPE %{datatype}T %{collation}s %{using}s",
                                  "alter column type", column="b", objtype="COLUMN", datatype=typ("numeric"),
                                  collation={"fmt": "COLLATE %{name}D", "present": False},
                                  using={"fmt": "USING %{expression}s", "expression": "months_between(b, b)"})),
    "trigger-when": {**json.loads((ROOT / "fixtures/cases/trigger/row-update-of-with-args/input.json").read_text()),
                     "when": {"fmt": "WHEN (%{clause}s)", "clause": "(months_between(new.b, old.b) > 0)"}},
    "function-argument-default": {"TDDL": "CREATE FUNCTION f(a int, b numeric DEFAULT months_between(sysdate, "
                                          "sysdate)) RETURNS int LANGUAGE sql AS 'select 1';"},
    "partition-bound": create_table("t", [column("b", TS0)], partition_by=(
        "PARTITION BY RANGE (b) (PARTITION p1 VALUES LESS THAN (next_day(TIMESTAMP '2020-01-01 00:00:00', 'MONDAY')))")),
}


@pytest.mark.parametrize("name", list(ELSEWHERE))
def test_unknown_call_elsewhere_fails_the_document(name):
    r = translate(ELSEWHERE[name])
    assert list(r.statements) == [], r.statements
    assert r.error is not None and r.error.code == "DDLC-E010"
    assert "DDLC-W604" in str(r.error)
    assert "DDLC-W604" in codes(r)
    kept = translate(ELSEWHERE[name], on_unsupported="comment")
    assert kept.error is None and list(kept.statements) == []
    assert len(kept.comments) == 1 and kept.comments[0].startswith("-- ddlc DDLC-W604: not translated: ")
    assert any(f in kept.comments[0] for f in ("months_between", "dbe_random", "next_day"))
    skipped = translate(ELSEWHERE[name], on_unsupported="skip")
    assert skipped.error is None and list(skipped.statements) == []


def test_unknown_call_in_check_cli_exit_policy(tmp_path):
    doc = tmp_path / "check.json"
    doc.write_text(json.dumps(ELSEWHERE["check"]), "utf-8")
    p = subprocess.run([*ddlc_command(), "translate", "--to", "postgres", str(doc)], capture_output=True, text=True)
    assert p.returncode == 1 and p.stdout == ""
    assert "DDLC-W604" in p.stderr and "DDLC-E010" in p.stderr
    p = subprocess.run([*ddlc_command(), "translate", "--to", "postgres", "--on-unsupported", "comment", str(doc)],
                       capture_output=True, text=True)
    assert p.returncode == 0
    assert p.stdout.startswith("-- ddlc DDLC-W604: not translated: CREATE TABLE public.t")


def test_user_functions_and_rewrites_pass():
    r = translate(create_table("t", [column("b", TS0), column("c", typ("text"), default=default("app.next_code()")),
                                     column("d", typ("int4"), default=default("my_counter()")),
                                     check("t_b_check", "nvl(b, sysdate) > TIMESTAMP '2020-01-01 00:00:00'")]))
    assert r.error is None
    assert list(r.statements) == [
        "CREATE TABLE public.t (b TIMESTAMP(0) without time zone, c text DEFAULT app.next_code(), "
        "d integer DEFAULT my_counter(), CONSTRAINT t_b_check CHECK (COALESCE(b, "
        "CAST(statement_timestamp() AS timestamp(0))) > CAST('2020-01-01 00:00:00' AS timestamp)))"]


# ---- end to end -------------------------------------------------------------------------------------

@pytest.mark.parametrize("spelling", ["sysdate", "pg_catalog.sysdate()"])
def test_sysdate_default_cli_applies_on_the_server(tmp_path, pg_db, spelling):
    """``CREATE TABLE staff (id int, hired DATE DEFAULT sysdate)`` in an A-compatible database: DATE is
    timestamp(0) there. The CLI's output runs on the server and the default fills new rows."""
    tree = create_table("staff", [column("id", typ("int4")), column("hired", TS0, default=default(spelling))])
    doc = tmp_path / "staff.json"
    doc.write_text(json.dumps(tree), "utf-8")
    p = subprocess.run([*ddlc_command(), "translate", "--to", "postgres", str(doc)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert p.stdout == ("CREATE TABLE public.staff (id integer, hired TIMESTAMP(0) without time zone "
                        "DEFAULT CAST(statement_timestamp() AS timestamp(0)));\n")
    assert "sysdate" not in p.stdout
    pg_db.execute(p.stdout)
    pg_db.execute("INSERT INTO public.staff (id) VALUES (1)")
    row = pg_db.execute("SELECT hired = date_trunc('second', statement_timestamp()::timestamp(0)) OR "
                        "abs(extract(epoch FROM hired - localtimestamp)) < 5 FROM public.staff").fetchone()
    assert row == (True,)
    default_text = pg_db.execute(
        "SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 'public.staff'::regclass").fetchone()[0]
    assert default_text == "(statement_timestamp())::timestamp(0) without time zone"


def test_rewritten_output_parses_as_one_expression():
    for gauss, _, _ in CASES:
        out, _ = _rewritten(gauss)
        stmts = pglast.parse_sql(f"SELECT {out}")
        assert len(stmts) == 1 and len(stmts[0].stmt.targetList) == 1


# ---- property: whatever the mix of calls, no GaussDB-only call reaches the output ----------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_LEAVES = ["b", "1", "'x'", "NULL", "sysdate", "TIMESTAMP '2020-01-01 00:00:00'", "now()"]
_CALLS = [  # (template, arguments): known, rewritten, user's and unknown calls
    ("lower({})", 1), ("coalesce({}, {})", 2), ("nvl({}, {})", 2), ("nvl2({}, {}, {})", 3),
    ("decode({}, {}, {}, {})", 4), ("add_months({}, 1)", 1), ("trunc({})", 1), ("last_day({})", 1),
    ("app.f({})", 1), ("my_function({}, {})", 2), ("months_between({}, {})", 2), ("pg_catalog.nope({})", 1),
    ("substrb({}, 1, 2)", 1), ("instr({}, 'a')", 1), ("instr({}, 'a', 2)", 1), ("to_date({})", 1),
]


def _expr() -> st.SearchStrategy[str]:
    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.sampled_from(_CALLS).flatmap(
            lambda c: st.lists(inner, min_size=c[1], max_size=c[1]).map(lambda args: c[0].format(*args)))
    return st.recursive(st.sampled_from(_LEAVES), extend, max_leaves=6)


@settings(max_examples=150)
@given(st.lists(_expr(), min_size=1, max_size=3), st.sampled_from(["default", "check", "generated"]))
def test_unknown_calls_never_reach_the_output(exprs, where):
    cols = [column("b", TS0)]
    for i, e in enumerate(exprs):
        if where == "default":
            cols.append(column(f"c{i}", typ("text"), default=default(e)))
        elif where == "generated":
            cols.append(column(f"c{i}", typ("text"), generated_column=generated(e)))
        else:
            cols.append(check(f"k{i}", f"({e}) IS NOT NULL"))
    r = translate(create_table("t", cols))
    unknown = any(F.unknown_calls(make_expr(e)) for e in exprs)
    if unknown and where != "default":
        assert r.error is not None and r.error.code == "DDLC-E010" and list(r.statements) == []
        return
    assert r.error is None
    (stmt,) = pglast.parse_sql(r.statements[0])
    found = []
    from ddlc.ir.sqltree import nodes

    for n in nodes(stmt.stmt):
        c = F.call_of(n)
        if c is not None:
            found.append((c.label, F.verdict(c)))
    assert all(v in (F.KNOWN, F.USER) for _, v in found), (r.statements[0], found)
    assert ("DDLC-W603" in codes(r)) == (unknown and where == "default")
