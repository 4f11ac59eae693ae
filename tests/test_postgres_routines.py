"""PostgreSQL emitters of functions, triggers, schemas, events, NEWPUB and the TDDL-recovered
statements (ddlc/backends/postgres/routines.py, misc.py).

Unit rows (input document -> statements, diagnostic codes), every emitted statement parsed by
pglast; --on-unsupported comment / error; the support matrix; and, on the real server, what the
goldens' catalog snapshot does not show (function attributes, procedure bodies, privileges, TRUNCATE).
"""

from __future__ import annotations

import json

import pglast
import pytest

import ddlc
from conftest import CASES
from ddlc.api import Options, translate_document
from ddlc.frontend.documents import as_document
from ddlc.history import Catalog, TableState


# ---- document helpers ------------------------------------------------------------------------------
def fn(text):
    return {"fmt": "%{function}s", "myowner": "alice", "function": text}


def tddl(text):
    return {"TDDL": text}


def qn(name, schema="public"):
    return {"objname": name, "schemaname": schema}


def alter_fn(name, actions, args=("int4",), kind="FUNCTION"):
    sig = {"fmt": "%{identity}D (%{arguments:, }s)", "identity": qn(name),
           "arguments": [{"fmt": "%{type}T", "type": {"typmod": "", "typarray": False, "typename": t,
                                                      "schemaname": "pg_catalog"}} for t in args]}
    if not args:
        sig = {"fmt": "%{identity}D ()", "identity": qn(name)}
    return {"fmt": f"ALTER {kind} %{{signature}}s %{{definition: }}s", "signature": sig, "definition": actions}


TRIGGER_FMT = ("CREATE %{definer}s %{constraint}s TRIGGER %{if_not_exists}s %{name}I %{time}s %{events: OR }s ON "
               "%{relation}D %{from_table}s FOR EACH %{for_each}s %{when}s EXECUTE PROCEDURE %{function}s %{bodysrc}s")


def trigger(*, definer=None, if_not_exists="", events=("INSERT",), for_each="ROW", time="AFTER", args=()):
    fmt_fn = "%{funcname}D ( %{args:, }L )" if args else "%{funcname}D ( )"
    d = {"fmt": TRIGGER_FMT, "name": "trg", "time": time, "when": {"fmt": "WHEN %{clause}s", "present": False},
         "events": list(events), "bodysrc": {"fmt": "", "present": False}, "myowner": "alice",
         "definer": ({"fmt": "DEFINER =%{definer}s", "present": False} if definer is None
                     else {"fmt": "DEFINER =%{definer}s", "definer": definer}),
         "for_each": for_each, "function": {"fmt": fmt_fn, "funcname": qn("trg_fn")},
         "relation": qn("t"), "constraint": "", "from_table": {"fmt": "FROM %{relation}D", "present": False},
         "if_not_exists": if_not_exists}
    if args:
        d["function"]["args"] = list(args)
    return d


def schema(name, *, authorization=None, blockchain=False, if_not_exists=""):
    return {"fmt": "CREATE SCHEMA %{if_not_exists}s %{name}I %{authorization}s %{blockchain}s", "name": name,
            "blockchain": {"fmt": "WITH BLOCKCHAIN"} if blockchain else
            {"fmt": "WITH BLOCKCHAIN %{blockchain}s", "present": False},
            "authorization": {"fmt": "AUTHORIZATION %{authorization_role}I", "authorization_role": authorization}
            if authorization else {"fmt": "AUTHORIZATION %{authorization_role}I", "present": False},
            "if_not_exists": if_not_exists}


def pg(doc, **options):
    r = ddlc.translate(json.dumps(doc), target="postgres", **options)
    for s in r.statements:
        pglast.parse_sql(s)
    return r


FUNC = ("CREATE FUNCTION public.func ( IN a pg_catalog.int4 ) RETURNS pg_catalog.int4 LANGUAGE plpgsql VOLATILE "
        "CALLED ON NULL INPUT SECURITY INVOKER COST 100 AS ' BEGIN a:= a+1; RETURN a; END; ';")
PKG = ("CREATE OR REPLACE PACKAGE public.ldp_pkg1 AUTHID CURRENT_USER IS var1 int:=1; --公有变量\n var2 int:=2;\n"
       " PROCEDURE testpro1(var3 int); --公有存储过程,可以被外部调用\nEND ldp_pkg1; \n /")

# (id, document, statements, diagnostic codes in order)
ROWS = [
    # ---- CREATE FUNCTION / PROCEDURE -------------------------------------------------------------
    ("pg-style-function", fn("CREATE OR REPLACE FUNCTION public.add1(a integer)\n RETURNS integer\n LANGUAGE plpgsql\n"
                             " NOT FENCED NOT SHIPPABLE\nAS $function$ begin\n  return a + 1;\nend $function$;\n"),
     ("CREATE OR REPLACE FUNCTION public.add1(a integer) RETURNS integer LANGUAGE plpgsql AS "
      "$function$ begin\n  return a + 1;\nend $function$",), ["DDLC-I730"]),
    ("tddl-quoted-body", tddl(FUNC),
     ("CREATE FUNCTION public.func(IN a integer) RETURNS integer LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT "
      "COST 100 SECURITY INVOKER AS $function$ BEGIN a:= a+1; RETURN a; END; $function$",), []),
    ("quote-in-body-and-tag-growth", tddl("CREATE FUNCTION public.f() RETURNS text LANGUAGE sql AS "
                                          "' select ''$function$'' || ''it''''s'' ';"),
     ("CREATE FUNCTION public.f() RETURNS text LANGUAGE sql AS $functionx$ select '$function$' || 'it''s' "
      "$functionx$",), []),
    ("options-types-comment", tddl("CREATE FUNCTION f(a varchar2(10), b number DEFAULT nvl(null, 1)) RETURNS SETOF "
                                   "pg_catalog.int8 LANGUAGE sql STABLE STRICT LEAKPROOF AUTHID DEFINER FENCED "
                                   "SHIPPABLE PACKAGE COMMENT 'it''s' SET search_path TO \"$user\", public "
                                   "SET work_mem TO '1MB' SET statement_timeout FROM CURRENT "
                                   "AS 'select 1::bigint';"),
     ("CREATE FUNCTION public.f(a varchar(10), b numeric DEFAULT COALESCE(NULL, 1)) RETURNS SETOF bigint LANGUAGE "
      "sql STABLE STRICT LEAKPROOF SECURITY DEFINER SET search_path TO \"$user\", public SET work_mem TO '1MB' "
      "SET statement_timeout FROM CURRENT AS $function$select 1::bigint$function$",
      "COMMENT ON FUNCTION public.f(varchar(10), numeric) IS 'it''s'"),
     ["DDLC-W732", "DDLC-I601", "DDLC-I601", "DDLC-I602", "DDLC-I731", "DDLC-I730", "DDLC-I732"]),
    ("returns-table-parallel", tddl("CREATE OR REPLACE FUNCTION s.g(VARIADIC x integer[]) RETURNS "
                                    "TABLE(x integer, y text) LANGUAGE plpgsql IMMUTABLE PARALLEL safe "
                                    "ROWS 5 COST 1 AS $$ begin return; end $$;"),
     ("CREATE OR REPLACE FUNCTION s.g(VARIADIC x integer[]) RETURNS TABLE (x integer, y text) LANGUAGE "
      "plpgsql IMMUTABLE PARALLEL SAFE COST 1 ROWS 5 AS $$ begin return; end $$",), []),
    ("out-arguments-with-returns-table", tddl("CREATE FUNCTION s.g(OUT y text) RETURNS TABLE(x integer) LANGUAGE "
                                              "sql AS 'select 1';"), (), ["DDLC-W735"]),
    ("c-function", tddl("CREATE FUNCTION public.cf(integer) RETURNS integer LANGUAGE c STRICT AS 'mylib', 'cf_sym';"),
     ("CREATE FUNCTION public.cf(integer) RETURNS integer LANGUAGE c STRICT AS 'mylib', 'cf_sym'",), []),
    ("definer-function", fn("CREATE DEFINER = bob FUNCTION public.f()\n RETURNS integer\n LANGUAGE sql\n"
                            "AS $function$select 1$function$;\n"),
     ("CREATE FUNCTION public.f() RETURNS integer LANGUAGE sql AS $function$select 1$function$",), ["DDLC-W731"]),
    ("og-only-options", tddl("CREATE FUNCTION public.f() RETURNS integer LANGUAGE plpgsql PIPELINED DETERMINISTIC "
                             "PARALLEL_ENABLE (PARTITION a BY ANY) AS ' begin return 1; end ';"),
     ("CREATE FUNCTION public.f() RETURNS integer LANGUAGE plpgsql AS $function$ begin return 1; end $function$",),
     ["DDLC-W733", "DDLC-W733", "DDLC-W733"]),
    ("oracle-style-function", fn("CREATE OR REPLACE FUNCTION public.f(a integer)\n RETURN integer NOT FENCED\n"
                                 "AS BEGIN RETURN a; END;\n"), (), ["DDLC-W730"]),
    ("package-member", fn("CREATE OR REPLACE FUNCTION public.pkg.f(a integer)\n RETURN integer\nAS BEGIN RETURN a; "
                          "END;\n"), (), ["DDLC-W736"]),
    ("procedure-defaults", tddl("CREATE PROCEDURE public.p ( IN a pg_catalog.int4 ) LANGUAGE plpgsql VOLATILE "
                                "CALLED ON NULL INPUT SECURITY INVOKER COST 100 NOT FENCED AS ' BEGIN NULL; END; ';"),
     ("CREATE PROCEDURE public.p(IN a integer) LANGUAGE plpgsql SECURITY INVOKER AS $function$ BEGIN NULL; END; "
      "$function$",), ["DDLC-I730"]),
    ("procedure-non-default", tddl("CREATE OR REPLACE PROCEDURE public.p() LANGUAGE plpgsql IMMUTABLE STRICT "
                                   "AS ' BEGIN NULL; END; ';"),
     ("CREATE OR REPLACE PROCEDURE public.p() LANGUAGE plpgsql AS $function$ BEGIN NULL; END; $function$",),
     ["DDLC-W734"]),
    ("oracle-procedure", tddl("CREATE OR REPLACE PROCEDURE public.p2(a integer) AS BEGIN NULL; END;"), (),
     ["DDLC-W730"]),
    ("unparsable-after-translation", tddl("CREATE FUNCTION public.f(a pg_catalog.int4 %garbage) RETURNS integer "
                                          "LANGUAGE sql AS 'select 1';"), (), ["DDLC-W735"]),
    # ---- ALTER FUNCTION / PROCEDURE ------------------------------------------------------------------
    ("alter-function-all", alter_fn("f", [
        {"fmt": "stable"}, {"fmt": "RETURNS NULL ON NULL INPUT"}, {"fmt": "CALLED ON NULL INPUT"},
        {"fmt": "AUTHID DEFINER"}, {"fmt": "NOT LEAKPROOF"}, {"fmt": "COST %{cost}n", "cost": 2.5},
        {"fmt": "ROWS %{rows}n", "rows": 10}, {"fmt": "ROWS %{rows}n", "present": False},
        {"fmt": "SET %{set_name}I TO %{set_value}s", "set_name": "search_path", "set_value": "\"$user\", public"},
        {"fmt": "SET %{set_name}I TO %{set_value}L", "set_name": "work_mem", "set_value": "it's"},
        {"fmt": "RESET %{set_name}I", "set_name": "work_mem"}, {"fmt": "RESET ALL"}], args=("int4", "text")),
     ("ALTER FUNCTION public.f(integer, text) STABLE RETURNS NULL ON NULL INPUT CALLED ON NULL INPUT SECURITY DEFINER "
      "NOT LEAKPROOF COST 2.5 ROWS 10 SET search_path TO \"$user\", public SET work_mem TO 'it''s' RESET work_mem "
      "RESET ALL",), ["DDLC-I731"]),
    ("alter-procedure-ok", alter_fn("p", [{"fmt": "SECURITY INVOKER"}], args=(), kind="PROCEDURE"),
     ("ALTER PROCEDURE public.p() SECURITY INVOKER",), []),
    ("alter-procedure-volatility", alter_fn("p", [{"fmt": "immutable"}, {"fmt": "SECURITY DEFINER"}], args=(),
                                            kind="PROCEDURE"),
     ("ALTER PROCEDURE public.p() SECURITY DEFINER",), ["DDLC-W734"]),
    ("alter-procedure-nothing-left", alter_fn("p", [{"fmt": "COST %{cost}n", "cost": 5}], args=(), kind="PROCEDURE"),
     (), ["DDLC-W734"]),
    ("alter-tddl-no-arguments", tddl("ALTER FUNCTION f SET x.y FROM CURRENT PARALLEL restricted"),
     ("ALTER FUNCTION public.f SET x.y FROM CURRENT PARALLEL RESTRICTED",), []),
    # ---- CREATE TRIGGER -------------------------------------------------------------------------------
    ("trigger-statement-level", trigger(events=("INSERT", "DELETE", "TRUNCATE"), for_each="STATEMENT"),
     ("CREATE TRIGGER trg AFTER INSERT OR DELETE OR TRUNCATE ON public.t FOR EACH STATEMENT EXECUTE FUNCTION "
      "public.trg_fn()",), []),
    ("trigger-definer-if-not-exists", trigger(definer="bob", if_not_exists="IF NOT EXISTS", args=("a", "b\\c")),
     ("CREATE TRIGGER trg AFTER INSERT ON public.t FOR EACH ROW EXECUTE FUNCTION public.trg_fn('a', E'b\\\\c')",),
     ["DDLC-W731", "DDLC-W737"]),
    # ---- schemas, events, NEWPUB -------------------------------------------------------------------------
    # AUTHORIZATION is the owner the statement names: kept (README "Owners"; --no-owner removes it)
    ("schema-authorization-only", schema("", authorization="Bob"), ('CREATE SCHEMA AUTHORIZATION "Bob"',), []),
    ("schema-blockchain", schema("s", blockchain=True, if_not_exists="IF NOT EXISTS"),
     ("CREATE SCHEMA IF NOT EXISTS s",), ["DDLC-W746"]),
    ("alter-schema-with-blockchain", {"fmt": "ALTER SCHEMA %{schemaname}I %{with}s BLOCKCHAIN", "with": "WITH",
                                      "schemaname": "ledger"}, (), ["DDLC-W747"]),
    ("alter-schema-without-blockchain", {"fmt": "ALTER SCHEMA %{schemaname}I %{with}s BLOCKCHAIN",
                                         "with": "WITHOUT", "schemaname": "ledger"}, (), ["DDLC-I740"]),
    ("drop-event", {"fmt": "DROP EVENT %{if_exists}s %{schema}s.%{eventname}s", "schema": "db1",
                    "eventname": "ev", "if_exists": ""}, (), ["DDLC-W748"]),
    ("newpub", {"fmt": "NEWPUB %{objtype}s %{identity}D", "objtype": "table", "identity": qn("orders")}, (),
     ["DDLC-I401"]),
    # ---- recovered TDDL statements ---------------------------------------------------------------------------
    ("ctas-options", tddl("CREATE UNLOGGED TABLE IF NOT EXISTS t2 (x, y) WITH (orientation = 'row', fillfactor = 70, "
                          "storage_type = 'ustore') TABLESPACE ts1 AS SELECT a, nvl(b, 0) FROM t1 WITH NO DATA;"),
     ("CREATE UNLOGGED TABLE IF NOT EXISTS public.t2 (x, y) WITH (fillfactor = 70) AS SELECT a, COALESCE(b, 0) "
      "FROM public.t1 WITH NO DATA",), ["DDLC-W610", "DDLC-W611", "DDLC-I602", "DDLC-I610"]),
    ("ctas-temporary", tddl("CREATE TEMP TABLE tmp1 AS SELECT 1 AS one;"),
     ("CREATE TEMPORARY TABLE tmp1 AS SELECT 1 AS one WITH NO DATA",), ["DDLC-I003"]),
    ("select-into", tddl("SELECT a, b INTO public.t2 FROM t1 WHERE a > 1;"),
     ("CREATE TABLE public.t2 AS SELECT a, b FROM public.t1 WHERE a > 1 WITH NO DATA",), ["DDLC-I003", "DDLC-I745"]),
    ("matview-seed", tddl("CREATE MATERIALIZED VIEW public.v46_4 AS SELECT a, b FROM public.t46 ORDER BY a OFFSET 10 "
                          "LIMIT 3;"),
     ("CREATE MATERIALIZED VIEW public.v46_4 AS SELECT a, b FROM public.t46 ORDER BY a OFFSET 10 LIMIT 3",), []),
    ("matview-incremental-no-data", tddl("CREATE INCREMENTAL MATERIALIZED VIEW mv (x) AS SELECT a FROM t WITH NO "
                                         "DATA"),
     ("CREATE MATERIALIZED VIEW public.mv (x) AS SELECT a FROM public.t WITH NO DATA",), ["DDLC-W750"]),
    ("refresh-incremental", tddl("REFRESH INCREMENTAL MATERIALIZED VIEW public.mv;"),
     ("REFRESH MATERIALIZED VIEW public.mv",), ["DDLC-W751"]),
    ("refresh-concurrently", tddl("REFRESH MATERIALIZED VIEW CONCURRENTLY mv WITH NO DATA"),
     ("REFRESH MATERIALIZED VIEW CONCURRENTLY public.mv WITH NO DATA",), []),
    ("alter-matview", tddl("ALTER MATERIALIZED VIEW IF EXISTS public.mv RENAME TO mv2"),
     ("ALTER MATERIALIZED VIEW IF EXISTS public.mv RENAME TO mv2",), []),
    ("alter-matview-gaussdb-only", tddl("ALTER MATERIALIZED VIEW public.mv ENABLE QUERY REWRITE"), (),
     ["DDLC-W757"]),
    ("drop-matview", tddl("DROP MATERIALIZED VIEW IF EXISTS public.mv, mv2 CASCADE"),
     ("DROP MATERIALIZED VIEW IF EXISTS public.mv, public.mv2 CASCADE",), []),
    ("truncate", tddl("TRUNCATE TABLE ONLY public.t1, t2 RESTART IDENTITY CASCADE;"),
     ("TRUNCATE TABLE ONLY public.t1, public.t2 RESTART IDENTITY CASCADE",), []),
    ("reindex-partition-seed", tddl('REINDEX INDEX public."Alter_Index_Index" PARTITION "CA_ADDRESS_SK_index2"'),
     ('REINDEX INDEX public."Alter_Index_Index"',), ["DDLC-W752"]),
    ("reindex-table-force", tddl("REINDEX TABLE CONCURRENTLY t1 FORCE"), ("REINDEX TABLE CONCURRENTLY public.t1",),
     ["DDLC-I742"]),
    ("reindex-schema", tddl("REINDEX SCHEMA s1"), ("REINDEX SCHEMA s1",), []),
    ("drop-procedure", tddl("DROP PROCEDURE IF EXISTS public.p(integer), q;"),
     ("DROP PROCEDURE IF EXISTS public.p(integer), public.q",), []),
    ("drop-function-cascade", tddl("DROP FUNCTION f(character varying, numeric(10,2)) CASCADE"),
     ("DROP FUNCTION public.f(varchar, numeric(10, 2)) CASCADE",), []),
    ("package", tddl(PKG), (), ["DDLC-W753"]),
    ("package-body-drop", tddl("DROP PACKAGE BODY public.pkg"), (), ["DDLC-W753"]),
    ("create-database", tddl("CREATE DATABASE IF NOT EXISTS db1 CHARACTER SET = utf8mb4"),
     ("CREATE SCHEMA IF NOT EXISTS db1",), ["DDLC-W754", "DDLC-I743"]),
    ("alter-database", tddl("ALTER DATABASE db1 CHARACTER SET = utf8mb4"), (), ["DDLC-W754"]),
    ("drop-database", tddl("DROP DATABASE IF EXISTS db1"), ("DROP SCHEMA IF EXISTS db1 CASCADE",), ["DDLC-I743"]),
    ("grant-columns", tddl("GRANT SELECT, UPDATE (a) ON TABLE t TO u1, PUBLIC WITH GRANT OPTION"),
     ("GRANT SELECT, UPDATE (a) ON TABLE public.t TO u1, PUBLIC WITH GRANT OPTION",), []),
    ("grant-gaussdb-privilege", tddl("GRANT ALTER, SELECT ON TABLE public.t TO u1"),
     ("GRANT SELECT ON TABLE public.t TO u1",), ["DDLC-W755"]),
    ("grant-only-gaussdb-privileges", tddl("GRANT ALTER, DROP ON TABLE public.t TO u1"), (), ["DDLC-W755"]),
    ("revoke-all-in-schema", tddl("REVOKE GRANT OPTION FOR ALL ON ALL TABLES IN SCHEMA s1 FROM u1 CASCADE"),
     ("REVOKE GRANT OPTION FOR ALL ON ALL TABLES IN SCHEMA s1 FROM u1 CASCADE",), []),
    ("grant-role", tddl("GRANT r1, r2 TO u1 WITH ADMIN OPTION"), ("GRANT r1, r2 TO u1 WITH ADMIN OPTION",), []),
    ("revoke-role", tddl("REVOKE r1 FROM u1 CASCADE"), ("REVOKE r1 FROM u1 CASCADE",), []),
    ("revoke-admin-option", tddl("REVOKE ADMIN OPTION FOR r1 FROM u1"), ("REVOKE ADMIN OPTION FOR r1 FROM u1",), []),
    ("opaque-unparsed", tddl("CREATE TABLE public.t (a int) WITH (orientation = row) AS SELECT 1"), (),
     ["DDLC-N404", "DDLC-W756"]),
    ("opaque-kind", tddl("CREATE ROLE r1"), (), ["DDLC-N405", "DDLC-W756"]),
]


@pytest.mark.parametrize("doc,statements,codes", [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_rows(doc, statements, codes):
    if not statements and any(c.startswith("DDLC-W") for c in codes):  # no silent absence
        with pytest.raises(ddlc.DdlcError) as info:
            pg(doc)
        assert info.value.code == "DDLC-E010"
    r = pg(doc, on_unsupported="skip")
    assert r.statements == statements
    assert [d.code for d in r.diagnostics] == codes


# ---- --on-unsupported --------------------------------------------------------------------------------------
def test_package_comment_output():
    r = pg(tddl(PKG), on_unsupported="comment")
    assert r.statements == ()
    assert r.sql == (
        "-- ddlc DDLC-W753: not translated: CREATE OR REPLACE PACKAGE public.ldp_pkg1 AUTHID CURRENT_USER IS "
        "var1 int:=1; --公有变量\n--  var2 int:=2;\n--  PROCEDURE testpro1(var3 int); --公有存储过程,可以被外部调用\n"
        "-- END ldp_pkg1; \n--  /\n"
    )


@pytest.mark.parametrize("doc,text", [
    (fn("CREATE OR REPLACE FUNCTION public.f(a integer)\n RETURN integer\nAS BEGIN RETURN a; END;\n"),
     "CREATE OR REPLACE FUNCTION public.f(a integer)"),
    (tddl("CREATE ROLE r1"), "CREATE ROLE r1"),
    (tddl("ALTER MATERIALIZED VIEW public.mv ENABLE QUERY REWRITE"), "ENABLE QUERY REWRITE"),
    ({**trigger(), "fmt": TRIGGER_FMT.replace("EXECUTE PROCEDURE %{function}s ", ""),
      "bodysrc": {"fmt": "%{bodysrc}s", "bodysrc": " BEGIN insert into t values (1); END"}},
     "-- ddlc DDLC-W738: not translated: CREATE TRIGGER trg AFTER INSERT ON public.t FOR EACH ROW BEGIN"),
], ids=["oracle-function", "opaque", "not-postgres", "inline-trigger"])
def test_refused_text_kept_as_comment(doc, text):
    r = pg(doc, on_unsupported="comment")
    assert r.statements == () and text in r.sql and all(line.startswith("-- ") for line in r.sql.splitlines())


def test_on_unsupported_error_refuses_warnings_only():
    with pytest.raises(ddlc.DdlcError) as info:
        pg(tddl(PKG), on_unsupported="error")
    assert "DDLC-W753" in info.value.message
    with pytest.raises(ddlc.DdlcError):
        pg(schema("s", blockchain=True), on_unsupported="error")
    # information codes never fail a document: every openGauss function carries NOT FENCED NOT SHIPPABLE
    r = pg(fn("CREATE OR REPLACE FUNCTION public.f()\n RETURNS integer\n LANGUAGE sql\n NOT FENCED NOT SHIPPABLE\n"
              "AS $function$select 1$function$;\n"), on_unsupported="error")
    assert len(r.statements) == 1


# ---- history and options -----------------------------------------------------------------------------------
def test_truncate_only_of_a_known_partitioned_table():
    cat = Catalog()
    cat.tables[("public", "pt")] = TableState("RANGE", ("a",))
    doc = as_document(tddl("TRUNCATE TABLE ONLY pt, ONLY public.plain"))
    r = translate_document(doc, "postgres", Options(), cat)
    assert r.statements == ("TRUNCATE TABLE public.pt, ONLY public.plain",)
    assert [d.code for d in r.diagnostics] == ["DDLC-I744"]


def test_ctas_and_drop_database_update_the_catalog():
    cat = Catalog()
    cat.tables[("public", "t2")] = TableState("RANGE", ("a",))
    cat.tables[("db1", "x")] = TableState("LIST", ("a",))
    translate_document(as_document(tddl("CREATE TABLE public.t2 AS SELECT 1 AS a")), "postgres", Options(), cat)
    translate_document(as_document(tddl("DROP DATABASE db1")), "postgres", Options(), cat)
    assert cat.tables == {}


def test_schema_map_reaches_database_and_reindex_names():
    opts = dict(schema_map={"db1": "m1", "public": "p2"})
    assert pg(tddl("CREATE DATABASE db1"), **opts).statements == ("CREATE SCHEMA m1",)
    assert pg(tddl("REINDEX SCHEMA db1"), **opts).statements == ("REINDEX SCHEMA m1",)
    assert pg(tddl("REFRESH MATERIALIZED VIEW public.mv"), **opts).statements == ("REFRESH MATERIALIZED VIEW p2.mv",)


def test_support_matrix_cells():
    from ddlc.ir.event import CreateEvent, NewPub
    from ddlc.ir.misc import Package, Truncate
    from ddlc.ir.routine import CreateFunction
    from ddlc.ir.statement import Opaque
    from ddlc.support import cell

    assert cell("postgres", Package) == "❌" and cell("postgres", CreateEvent) == "❌"
    assert cell("postgres", CreateFunction) == "⚠️" and cell("postgres", Opaque) == "📝"
    assert cell("postgres", Truncate) == "✅" and cell("postgres", NewPub) == "✅"


# ---- on the real server: what the catalog snapshot does not show ---------------------------------------------
def _apply(conn, case=None, sql=""):
    with conn.cursor() as cur:
        if case is not None:
            setup = CASES / case / "setup.postgres.sql"
            if setup.exists():
                cur.execute(setup.read_text("utf-8"))
            sql = (CASES / case / "expected.postgres.sql").read_text("utf-8")
        if sql.strip():
            cur.execute(sql)


def _one(conn, query):
    return conn.execute(query).fetchone()


def test_server_alter_function_attributes(pg_db):
    _apply(pg_db, "function/alter-function")
    assert _one(pg_db, "SELECT provolatile, procost, proconfig FROM pg_proc WHERE proname = 'add1'") == \
        ("i", 10.0, ["work_mem=64MB"])
    _apply(pg_db, "function/alter-procedure-no-arguments")
    assert _one(pg_db, "SELECT prosecdef FROM pg_proc WHERE proname = 'p_cleanup'") == (True,)


def test_server_function_options_and_comment(pg_db):
    r = pg(tddl("CREATE FUNCTION public.f(a varchar2(10), b number DEFAULT 2) RETURNS SETOF pg_catalog.int8 LANGUAGE "
                "sql STABLE STRICT AUTHID DEFINER NOT FENCED COMMENT 'it''s' SET work_mem TO '1MB' AS "
                "'select length(a)::bigint + b::bigint';"))
    _apply(pg_db, sql=r.sql)
    row = _one(pg_db, "SELECT provolatile, proisstrict, prosecdef, proretset, proconfig, "
                      "obj_description(oid, 'pg_proc') FROM pg_proc WHERE proname = 'f'")
    assert row == ("s", True, True, True, ["work_mem=1MB"], "it's")
    assert _one(pg_db, "SELECT public.f('abc')") == (5,)


def test_server_procedure_body_byte_for_byte(pg_db):
    _apply(pg_db, "tddl/procedure")
    pg_db.execute("CALL public.p_log(7, 'n')")
    assert _one(pg_db, "SELECT a, note, extra FROM public.t_log") == (7, "n", "it's")
    src = _one(pg_db, "SELECT prosrc FROM pg_proc WHERE proname = 'p_log'")[0]
    assert src == " BEGIN INSERT INTO public.t_log VALUES (a, note, 'it''s'); END; "


def test_server_quoted_body_function_runs(pg_db):
    _apply(pg_db, "tddl/function-quoted-body")
    assert _one(pg_db, "SELECT public.func(41)") == (42,)


def test_server_grant(pg_db):
    _apply(pg_db, "tddl/grant")
    assert _one(pg_db, "SELECT has_table_privilege('ddlc_reader', 'public.t_src', 'SELECT'), "
                       "has_table_privilege('ddlc_reader', 'public.t_src', 'INSERT')") == (True, False)


def test_server_truncate_restart_identity(pg_db):
    with pg_db.cursor() as cur:
        cur.execute((CASES / "tddl/truncate/setup.postgres.sql").read_text("utf-8"))
        cur.execute("INSERT INTO public.t1 DEFAULT VALUES; INSERT INTO public.t2 VALUES (1, 1)")
        cur.execute((CASES / "tddl/truncate/expected.postgres.sql").read_text("utf-8"))
        cur.execute("INSERT INTO public.t1 DEFAULT VALUES")
    assert _one(pg_db, "SELECT (SELECT count(*) FROM public.t2), (SELECT max(id) FROM public.t1)") == (0, 1)


def test_server_trigger_fires(pg_db):
    _apply(pg_db, "trigger/row-update-of-with-args")
    assert _one(pg_db, "SELECT tgargs FROM pg_trigger WHERE tgname = 'trg_orders'") == (b"it's\x00x\x00",)
    pg_db.execute("INSERT INTO public.orders VALUES (1, 5, 'n')")
    assert _one(pg_db, "SELECT count(*) FROM public.orders") == (1,)
