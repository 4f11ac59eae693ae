"""PostgreSQL emitters of the objects family: DROP, CREATE INDEX, sequences, views, COMMENT, RENAME,
SET SCHEMA (ddlc/backends/postgres/objects.py, objects_more.py).

Unit rows (input tree -> statements, diagnostic codes); the catalog-dependent index decisions; the
catalog recorders; --on-unsupported; and, on the real server, what the goldens' snapshot does not
show (comments on non-relations, sequence ownership and RESTART).
"""

from __future__ import annotations

import pytest

import ddlc
from conftest import CASES
from ddlc.api import Options, translate_document
from ddlc.frontend.documents import as_document
from ddlc.history import Catalog, TableState

# ---- tree helpers --------------------------------------------------------------------------
DROP = "DROP %{objtype}s %{concurrently}s %{if_exists}s %{objidentity}s %{cascade}s"


def drop(objtype, ident, *, cascade="", if_exists="", concurrently=""):
    return {"fmt": DROP, "cascade": cascade, "objtype": objtype, "if_exists": if_exists, "objidentity": ident,
            "concurrently": concurrently}


def lit(v):
    if v is None:
        return {"fmt": "%{null}s %{literal}s", "null": {"fmt": "NULL", "present": True},
                "literal": {"fmt": "", "present": False}}
    if v == "":
        return {"fmt": "%{null}s %{literal}s", "null": {"fmt": "NULL", "present": False},
                "literal": {"fmt": "", "present": True}}
    return {"fmt": "%{null}s %{literal}s", "null": {"fmt": "NULL", "present": False},
            "literal": {"fmt": "%{value}L", "value": v, "present": True}}


def comment(objtype, ident, v="c"):
    return {"fmt": "COMMENT ON %{objtype}s %{identity}s IS %{comment}s", "comment": lit(v), "objtype": objtype,
            "identity": ident}


def con_comment(name, parent, *, domain="", v="c"):
    return {"fmt": "COMMENT ON CONSTRAINT %{identity}s ON %{domain}s %{parentobj}s IS %{comment}s",
            "domain": domain, "comment": lit(v), "identity": name, "parentobj": parent}


def qn(name, schema="public"):
    return {"objname": name, "schemaname": schema}


def rename(objtype, name, new, if_exists=""):
    return {"fmt": "ALTER %{objtype}s %{if_exists}s %{identity}D RENAME TO %{newname}I", "newname": new,
            "objtype": objtype, "identity": qn(name), "if_exists": if_exists}


def rename_column(objtype, name, col, new):
    return {"fmt": "ALTER %{objtype}s %{identity}D RENAME COLUMN %{colname}I TO %{newname}I", "colname": col,
            "newname": new, "objtype": objtype, "identity": qn(name)}


def set_schema(objtype, ident, new):
    return {"fmt": "ALTER %{objtype}s %{identity}s SET SCHEMA %{newschema}I", "objtype": objtype,
            "identity": ident, "newschema": new}


def index(definition, *, am="btree", opts=None, unique="", concurrently="", table=qn("t"), name="i",
          tablespace=None, where=None, invisible=False):
    fmt = "CREATE %{unique}s INDEX %{concurrently}s %{name}I ON %{table}D USING %{index_am}s %{definition}s"
    tree = {"name": name, "table": table, "unique": unique, "index_am": am, "definition": definition,
            "concurrently": concurrently}
    if opts is not None:
        fmt += " WITH (%{opts}s)"
        tree["opts"] = opts
    if tablespace is not None:
        fmt += " TABLESPACE %{tablespace}s"
        tree["tablespace"] = tablespace
    if invisible:
        fmt += " INVISIBLE"
    if where is not None:
        fmt += " WHERE %{where}s"
        tree["where"] = where
    return {"fmt": fmt, **tree}


def seq_opt(clause, value=None, **kw):
    fmts = {"cache": "CACHE %{value}s", "seqincrement": "INCREMENT BY %{value}s", "minvalue": "MINVALUE %{value}s",
            "maxvalue": "MAXVALUE %{value}s", "start": "START WITH %{value}s", "restart": "RESTART %{value}s"}
    if clause == "cycle":
        return {"no": kw.get("no", ""), "fmt": "%{no}s CYCLE", "clause": "cycle"}
    if clause == "order":
        return {"fmt": "%{order}s", "order": kw["order"], "clause": "order"}
    if clause == "owned":
        if kw.get("owner") is None:
            return {"fmt": "OWNED BY %{owner}D", "owner": None, "clause": "owned", "present": False}
        return {"fmt": "OWNED BY %{owner}D", "owner": kw["owner"], "clause": "owned"}
    if clause == "as":
        return {"fmt": "AS %{identity}D", "identity": kw["type"]}
    return {"fmt": fmts[clause], "value": value, "clause": clause}


def create_seq(*opts, large="", persistence="", name="s"):
    return {"fmt": "CREATE %{persistence}s %{large}s SEQUENCE %{identity}D %{definition: }s", "large": large,
            "identity": qn(name), "definition": list(opts), "persistence": persistence}


def alter_seq(*opts, large="", name="s"):
    return {"fmt": "ALTER %{large}s SEQUENCE %{identity}D %{definition: }s", "large": large, "identity": qn(name),
            "definition": list(opts)}


def view(query, *, name="v", or_replace="", persistence=""):
    return {"fmt": "CREATE %{or_replace}s %{persistence}s VIEW %{identity}D AS %{query}s", "query": query,
            "identity": qn(name), "or_replace": or_replace, "persistence": persistence}


def pg(tree, **options):
    t = ddlc.translate(tree, target="postgres", **options)
    return list(t.statements), [d.code for d in t.diagnostics]


# ---- unit rows: tree -> (statements, diagnostic codes) ----------------------------------------
ROWS = [
    # DROP
    (drop("table", "public.orders", if_exists="IF EXISTS", cascade="CASCADE"),
     ["DROP TABLE IF EXISTS public.orders CASCADE"], []),
    (drop("index", "public.i", concurrently="CONCURRENTLY"), ["DROP INDEX CONCURRENTLY public.i"], []),
    (drop("index", "public.i", concurrently="CONCURRENTLY", cascade="CASCADE"), ["DROP INDEX public.i CASCADE"],
     ["DDLC-W652"]),
    (drop("sequence", "s.\"Seq\""), ['DROP SEQUENCE s."Seq"'], []),
    (drop("large sequence", "public.big", if_exists="IF EXISTS"), ["DROP SEQUENCE IF EXISTS public.big"],
     ["DDLC-I651"]),
    (drop("view", "public.v", cascade="CASCADE"), ["DROP VIEW public.v CASCADE"], []),
    (drop("type", 'public."Color"'), ['DROP TYPE public."Color"'], []),
    (drop("schema", '"Sales"', cascade="CASCADE"), ['DROP SCHEMA "Sales" CASCADE'], []),
    (drop("schema", "user"), ['DROP SCHEMA "user"'], []),  # a reserved word: quoted by PostgreSQL's rules
    (drop("function", "public.add1(integer, character varying)"),
     ["DROP ROUTINE public.add1(integer, character varying)"], []),
    (drop("function", 'public.f("char", nvarchar2(10), pg_catalog.int1, public."T"[])'),
     ['DROP ROUTINE public.f("char", varchar(10), smallint, public."T"[])'], ["DDLC-I601", "DDLC-I601"]),
    (drop("function", "public.f()"), ["DROP ROUTINE public.f()"], []),
    (drop("function", "public.agg(*)"), ["DROP AGGREGATE public.agg(*)"], []),
    (drop("trigger", '"Trg" on public.orders', if_exists="IF EXISTS"),
     ['DROP TRIGGER IF EXISTS "Trg" ON public.orders'], []),
    (drop("index", 'public."T_uk" on public.t', if_exists="IF EXISTS", cascade="CASCADE"),
     ['ALTER TABLE public.t DROP CONSTRAINT IF EXISTS "T_uk" CASCADE'], ["DDLC-W301", "DDLC-I650"]),
    (drop("procedure", "public.p(integer)"), [], ["DDLC-N302", "DDLC-W651"]),
    (drop("function", "public.add1"), [], ["DDLC-N301", "DDLC-W650"]),
    # COMMENT ON
    (comment("TABLE", "public.orders", "it's"), ["COMMENT ON TABLE public.orders IS 'it''s'"], []),
    (comment("TABLE", "public.orders", "a\\b"), ["COMMENT ON TABLE public.orders IS E'a\\\\b'"], []),
    (comment("COLUMN", 'public.orders."Note"', None), ['COMMENT ON COLUMN public.orders."Note" IS NULL'], []),
    (comment("COLUMN", "public.orders.note", ""), ["COMMENT ON COLUMN public.orders.note IS NULL"], ["DDLC-W311"]),
    (comment("INDEX", "public.i"), ["COMMENT ON INDEX public.i IS 'c'"], []),
    (comment("SEQUENCE", "public.s"), ["COMMENT ON SEQUENCE public.s IS 'c'"], []),
    (comment("LARGE SEQUENCE", "public.s"), ["COMMENT ON SEQUENCE public.s IS 'c'"], ["DDLC-I651"]),
    (comment("VIEW", "public.v"), ["COMMENT ON VIEW public.v IS 'c'"], []),
    (comment("SCHEMA", '"Sales"'), ['COMMENT ON SCHEMA "Sales" IS \'c\''], []),
    (comment("TYPE", "public.color"), ["COMMENT ON TYPE public.color IS 'c'"], []),
    (comment("DOMAIN", "public.posint"), ["COMMENT ON DOMAIN public.posint IS 'c'"], []),
    (comment("FUNCTION", "public.f(integer)"), ["COMMENT ON ROUTINE public.f(integer) IS 'c'"], []),
    (comment("TRIGGER", "trg on public.t"), ["COMMENT ON TRIGGER trg ON public.t IS 'c'"], []),
    (con_comment("orders_pkey", "public.orders"), ["COMMENT ON CONSTRAINT orders_pkey ON public.orders IS 'c'"], []),
    (con_comment("Pos Check", "public.posint", domain="DOMAIN", v=None),
     ['COMMENT ON CONSTRAINT "Pos Check" ON DOMAIN public.posint IS NULL'], []),
    (comment("???", "public.mv"), [], ["DDLC-W310", "DDLC-W651"]),
    (comment("TABLESPACE", "ts1"), [], ["DDLC-W653"]),
    (comment("FUNCTION", "public.f"), [], ["DDLC-N301", "DDLC-W650"]),
    # RENAME
    (rename("TABLE", "orders", "Orders2", "IF EXISTS"),
     ['ALTER TABLE IF EXISTS public.orders RENAME TO "Orders2"'], []),
    (rename("INDEX", "i", "i2"), ["ALTER INDEX public.i RENAME TO i2"], []),
    (rename("SEQUENCE", "s", "s2"), ["ALTER SEQUENCE public.s RENAME TO s2"], []),
    (rename("LARGE SEQUENCE", "s", "s2"), ["ALTER SEQUENCE public.s RENAME TO s2"], ["DDLC-I651"]),
    (rename("VIEW", "v", "v2"), ["ALTER VIEW public.v RENAME TO v2"], []),
    (rename("???", "mv", "mv2"), [], ["DDLC-W651"]),
    (rename_column("TABLE", "t", "a", "select"), ['ALTER TABLE public.t RENAME COLUMN a TO "select"'], []),
    (rename_column("VIEW", "v", "a", "b"), ["ALTER VIEW public.v RENAME COLUMN a TO b"], []),
    (rename_column("INDEX", "i", "a", "b"), [], ["DDLC-W651"]),
    ({"fmt": "ALTER TYPE %{identity}D RENAME ATTRIBUTE %{colname}I TO %{newname}I %{cascade}s",
      "cascade": {"fmt": "CASCADE", "present": False}, "colname": "x", "newname": "X", "identity": qn("pt")},
     ['ALTER TYPE public.pt RENAME ATTRIBUTE x TO "X"'], []),
    ({"fmt": "ALTER TABLE %{identity}D RENAME CONSTRAINT %{oldname}I TO %{newname}I", "newname": "b",
      "oldname": "a", "identity": qn("t", "S")}, ['ALTER TABLE "S".t RENAME CONSTRAINT a TO b'], []),
    ({"fmt": "ALTER SCHEMA %{identity}I RENAME TO %{newname}I", "newname": "New", "identity": "old"},
     ['ALTER SCHEMA old RENAME TO "New"'], []),
    ({"fmt": "ALTER TYPE %{identity}D RENAME TO %{newname}I", "newname": "c2", "identity": qn("c")},
     ["ALTER TYPE public.c RENAME TO c2"], []),
    ({"fmt": "RENAME TABLE %{renamelist:, }s", "renamelist": [
        {"fmt": "%{ori}D TO %{modify}D", "ori": qn("a", "db1"), "modify": qn("tmp", "db1")},
        {"fmt": "%{ori}D TO %{modify}D", "ori": qn("b", "db1"), "modify": qn("a", "db1")},
        {"fmt": "%{ori}D TO %{modify}D", "ori": qn("tmp", "db1"), "modify": qn("B", "db2")}]},
     ["ALTER TABLE db1.a RENAME TO tmp", "ALTER TABLE db1.b RENAME TO a", "ALTER TABLE db1.tmp SET SCHEMA db2",
      'ALTER TABLE db2.tmp RENAME TO "B"'], ["DDLC-I652"]),
    # SET SCHEMA
    (set_schema("TABLE", "public.t", "Arch"), ['ALTER TABLE public.t SET SCHEMA "Arch"'], []),
    (set_schema("SEQUENCE", "public.s", "a"), ["ALTER SEQUENCE public.s SET SCHEMA a"], []),
    (set_schema("LARGE SEQUENCE", "public.s", "a"), ["ALTER SEQUENCE public.s SET SCHEMA a"], ["DDLC-I651"]),
    (set_schema("VIEW", "public.v", "a"), ["ALTER VIEW public.v SET SCHEMA a"], []),
    (set_schema("FUNCTION", "public.f(integer, text)", "a"), ["ALTER ROUTINE public.f(integer, text) SET SCHEMA a"],
     []),
    (set_schema("TYPE", "public.c", "a"), ["ALTER TYPE public.c SET SCHEMA a"], []),
    (set_schema("DOMAIN", "public.d", "a"), ["ALTER DOMAIN public.d SET SCHEMA a"], []),
    (set_schema("INDEX", "public.i", "a"), [], ["DDLC-W651"]),
    (set_schema("???", "public.mv", "a"), [], ["DDLC-W310", "DDLC-W651"]),
    (set_schema("FUNCTION", "public.f", "a"), [], ["DDLC-N301", "DDLC-W650"]),
    # CREATE INDEX
    (index("(a pg_catalog.int4_ops, b COLLATE pg_catalog.\"C\" pg_catalog.text_pattern_ops DESC NULLS FIRST)"),
     ['CREATE INDEX i ON public.t USING btree (a pg_catalog.int4_ops, b COLLATE pg_catalog."C" '
      "pg_catalog.text_pattern_ops DESC NULLS FIRST)"], []),
    (index("(a pg_catalog.int4_ops)", am="hash", opts="fillfactor=60, deduplicate_items=on"),
     ["CREATE INDEX i ON public.t USING hash (a pg_catalog.int4_ops) WITH (fillfactor=60)"], ["DDLC-W658"]),
    (index("(p pg_catalog.point_ops)", am="gist", opts="buffering=auto, fillfactor=90"),
     ["CREATE INDEX i ON public.t USING gist (p pg_catalog.point_ops) WITH (buffering=auto, fillfactor=90)"], []),
    (index("(a pg_catalog.int4_ops)", am="ubtree", opts="storage_type=ustore"),
     ["CREATE INDEX i ON public.t USING btree (a pg_catalog.int4_ops)"], ["DDLC-W658", "DDLC-I653"]),
    (index("(a pg_catalog.int4_ops)", am="psort"), ["CREATE INDEX i ON public.t USING btree (a pg_catalog.int4_ops)"],
     ["DDLC-W655"]),
    (index("(a pg_catalog.int4_ops)", am="cbtree"), ["CREATE INDEX i ON public.t USING btree (a pg_catalog.int4_ops)"],
     ["DDLC-W655"]),
    (index("(v public.vector_l2_ops)", am="hnsw", opts="m=16"),  # an extension's method: kept as written
     ["CREATE INDEX i ON public.t USING hnsw (v public.vector_l2_ops) WITH (m=16)"], []),
    (index("(c pg_catalog.int1_ops, d pg_catalog.int4_ops)"),
     ["CREATE INDEX i ON public.t USING btree (c, d pg_catalog.int4_ops)"], ["DDLC-W659"]),
    (index("(a pg_catalog.array_ops)", am="gin"), ["CREATE INDEX i ON public.t USING gin (a pg_catalog.array_ops)"],
     []),
    (index("(n COLLATE pg_catalog.utf8mb4_bin pg_catalog.text_ops)"),
     ["CREATE INDEX i ON public.t USING btree (n pg_catalog.text_ops)"], ["DDLC-W660"]),
    (index("(a pg_catalog.int4_ops)", tablespace="ts1", invisible=True, where="(a > 0)", unique="UNIQUE"),
     ["CREATE UNIQUE INDEX i ON public.t USING btree (a pg_catalog.int4_ops) WHERE (a > 0)"],
     ["DDLC-W656", "DDLC-W657"]),
    (index("(a pg_catalog.int4_ops) LOCAL(PARTITION p1_i TABLESPACE ts1, PARTITION p2_i) ",
           concurrently="CONCURRENTLY"),
     ["CREATE INDEX i ON public.t USING btree (a pg_catalog.int4_ops)"], ["DDLC-W661", "DDLC-W663"]),
    (index("(a pg_catalog.int4_ops)GLOBAL"), ["CREATE INDEX i ON public.t USING btree (a pg_catalog.int4_ops)"],
     ["DDLC-I654"]),
    (index("(a pg_catalog.int4_ops)", concurrently="CONCURRENTLY", name="I x"),
     ['CREATE INDEX CONCURRENTLY "I x" ON public.t USING btree (a pg_catalog.int4_ops)'], ["DDLC-I655"]),
    (index("(lower(nvl(n, 'x'::text)) pg_catalog.text_ops)"),
     ["CREATE INDEX i ON public.t USING btree (lower(COALESCE(n, CAST('x' AS text))) pg_catalog.text_ops)"],
     ["DDLC-I602"]),
    (index("(a pg_catalog.int4_ops) junk", name="broken"), [], ["DDLC-N310", "DDLC-W664"]),
    # sequences
    (create_seq(seq_opt("cache", "5"), seq_opt("cycle", no="NO"), seq_opt("seqincrement", "2"),
                seq_opt("start", "10"), seq_opt("restart", "10")),
     ["CREATE SEQUENCE public.s CACHE 5 NO CYCLE INCREMENT BY 2 START WITH 10"], []),
    (create_seq(seq_opt("start", "1"), seq_opt("restart", "42")),
     ["CREATE SEQUENCE public.s START WITH 1", "ALTER SEQUENCE public.s RESTART 42"], ["DDLC-I657"]),
    (create_seq(seq_opt("minvalue", "-170141183460469231731687303715884105728"), seq_opt("cycle"),
                seq_opt("maxvalue", "170141183460469231731687303715884105727"), large="LARGE"),
     ["CREATE SEQUENCE public.s MINVALUE -9223372036854775808 CYCLE MAXVALUE 9223372036854775807"],
     ["DDLC-W665", "DDLC-W666"]),
    (create_seq(seq_opt("start", "1"), persistence="UNLOGGED"), ["CREATE UNLOGGED SEQUENCE public.s START WITH 1"], []),
    (create_seq(seq_opt("start", "1"), persistence="TEMPORARY"), ["CREATE TEMPORARY SEQUENCE public.s START WITH 1"],
     []),
    (create_seq(seq_opt("start", "1"), persistence="GLOBAL TEMPORARY"),
     ["CREATE TEMPORARY SEQUENCE public.s START WITH 1"], ["DDLC-W668"]),
    (alter_seq(seq_opt("order", order="ORDER")), [], ["DDLC-I656"]),
    (alter_seq(seq_opt("owned"), seq_opt("restart", "5")), ["ALTER SEQUENCE public.s OWNED BY NONE RESTART 5"], []),
    (alter_seq(seq_opt("owned", owner={"objname": "t", "attrname": "Id", "schemaname": "public"})),
     ['ALTER SEQUENCE public.s OWNED BY public.t."Id"'], []),
    (alter_seq(seq_opt("as", type=qn("int4", "pg_catalog")), seq_opt("maxvalue", "9223372036854775807")),
     ["ALTER SEQUENCE public.s AS integer MAXVALUE 2147483647"], ["DDLC-W666"]),
    (alter_seq(seq_opt("as", type=qn("int16", "pg_catalog")), seq_opt("cache", "3")),
     ["ALTER SEQUENCE public.s CACHE 3"], ["DDLC-W667"]),
    # views
    (view("SELECT t.a FROM public.t;", or_replace="OR REPLACE"),
     ["CREATE OR REPLACE VIEW public.v AS SELECT t.a FROM public.t"], []),
    (view("SELECT t.a FROM public.t;", persistence="TEMPORARY"),
     ["CREATE TEMPORARY VIEW public.v AS SELECT t.a FROM public.t"],
     []),
    (view("SELECT t.a FROM public.t;", persistence="UNLOGGED"), ["CREATE VIEW public.v AS SELECT t.a FROM public.t"],
     ["DDLC-W668"]),
    (view("SELECT (t.a)::varchar2(5) AS a, (t.b)::pg_catalog.int1 AS b FROM public.t;"),
     ["CREATE VIEW public.v AS SELECT CAST(t.a AS varchar(5)) AS a, CAST(t.b AS smallint) AS b FROM public.t"],
     ["DDLC-I658"]),
    (view("WITH x AS (SELECT t.a FROM public.t) SELECT x.a FROM x UNION SELECT 1;"),
     ["CREATE VIEW public.v AS WITH x AS (SELECT t.a FROM public.t) SELECT x.a FROM x UNION SELECT 1"], []),
    (view("SELECT t.a FROM public.t WHERE (ROWNUM <= 10);"), [], ["DDLC-W670"]),
    (view("SELECT t.a FROM public.t SUBPARTITION (s1);"), [], ["DDLC-W670"]),
    (view("SELECT t.a FROM public.t, public.u WHERE (t.a = u.a(+));"), [], ["DDLC-N320", "DDLC-N501", "DDLC-W669"]),
]


@pytest.mark.parametrize("tree,statements,codes", ROWS,
                         ids=[f"{i}-{r[0]['fmt'].split()[0]}" for i, r in enumerate(ROWS)])
def test_rows(tree, statements, codes):
    if not statements and any(c.startswith("DDLC-W") for c in codes):  # no silent absence
        with pytest.raises(ddlc.DdlcError) as info:
            pg(tree)
        assert info.value.code == "DDLC-E010"
    got, got_codes = pg(tree, on_unsupported="skip")
    assert got == statements
    assert got_codes == codes


def test_every_statement_parses():
    import pglast

    for tree, statements, _ in ROWS:
        for s in statements:
            pglast.parse_sql(s)


# ---- --on-unsupported ----------------------------------------------------------------------
def test_refused_statement_kept_as_comment():
    t = ddlc.translate(comment("???", "public.mv", "x"), target="postgres", on_unsupported="comment")
    assert t.statements == ()
    assert t.sql == "-- ddlc DDLC-W651: not translated: COMMENT ON ??? public.mv IS 'x'\n"


def test_dropped_clause_kept_as_comment():
    t = ddlc.translate(index("(a pg_catalog.int4_ops)", tablespace="ts1"), target="postgres", on_unsupported="comment")
    assert t.sql == ("-- ddlc DDLC-W656: not translated: TABLESPACE ts1\n"
                     "CREATE INDEX i ON public.t USING btree (a pg_catalog.int4_ops);\n")


def test_error_mode_fails_on_w_not_on_i():
    with pytest.raises(ddlc.DdlcError) as e:
        ddlc.translate(drop("procedure", "public.p(integer)"), target="postgres", on_unsupported="error")
    assert e.value.code == "DDLC-E009" and "DDLC-W651" in e.value.message
    with pytest.raises(ddlc.DdlcError) as e:  # a clause rule (drop_unsupported) fails the same way
        ddlc.translate(index("(a pg_catalog.int4_ops)", invisible=True), target="postgres", on_unsupported="error")
    assert e.value.code == "DDLC-E009" and "DDLC-W657" in e.value.message
    # information only (ubtree -> btree, LARGE SEQUENCE word, ORDER): never an error
    assert pg(drop("large sequence", "public.s"), on_unsupported="error")[0] == ["DROP SEQUENCE public.s"]
    assert pg(alter_seq(seq_opt("order", order="NOORDER"), seq_opt("cache", "2")), on_unsupported="error")[0] == \
        ["ALTER SEQUENCE public.s CACHE 2"]


# ---- schema options reach the objects' names ----------------------------------------------------
def test_schema_map_and_default_schema():
    tree = drop("function", "src.f(src.t, integer)")
    assert pg(tree, schema_map={"src": "dst"})[0] == ["DROP ROUTINE dst.f(dst.t, integer)"]
    assert pg(drop("trigger", "trg on orders"), default_schema="app")[0] == ["DROP TRIGGER trg ON app.orders"]
    assert pg(set_schema("TABLE", "src.t", "src"), schema_map={"src": "dst"})[0] == \
        ["ALTER TABLE dst.t SET SCHEMA dst"]


# ---- CREATE INDEX with the stream's catalog ------------------------------------------------------
def with_catalog(tree, catalog):
    t = translate_document(as_document(tree), "postgres", Options(), catalog)
    assert t.error is None, t.error
    return list(t.statements), [d.code for d in t.diagnostics]


def partitioned(key=("k",)):
    cat = Catalog()
    cat.tables[("public", "t")] = TableState("RANGE", tuple(key))
    return cat


def test_concurrently_dropped_when_the_catalog_says_partitioned():
    out, codes = with_catalog(index("(a pg_catalog.int4_ops)", concurrently="CONCURRENTLY"), partitioned())
    assert out == ["CREATE INDEX i ON public.t USING btree (a pg_catalog.int4_ops)"]
    assert codes == ["DDLC-W663"]
    out, codes = with_catalog(index("(a pg_catalog.int4_ops)", concurrently="CONCURRENTLY"), Catalog())
    assert out == ["CREATE INDEX CONCURRENTLY i ON public.t USING btree (a pg_catalog.int4_ops)"]
    assert codes == ["DDLC-I655"]


def test_unique_needs_the_partition_key():
    tree = index("(a pg_catalog.int4_ops)GLOBAL", unique="UNIQUE")
    out, codes = with_catalog(tree, partitioned(("k",)))
    assert out == ["CREATE INDEX i ON public.t USING btree (a pg_catalog.int4_ops)"]
    assert codes == ["DDLC-I654", "DDLC-W662"]
    out, codes = with_catalog(index("(a pg_catalog.int4_ops, k pg_catalog.int4_ops)GLOBAL", unique="UNIQUE"),
                              partitioned(("k",)))
    assert out == ["CREATE UNIQUE INDEX i ON public.t USING btree (a pg_catalog.int4_ops, k pg_catalog.int4_ops)"]
    assert codes == ["DDLC-I654"]
    # without history the UNIQUE stays (PostgreSQL decides)
    assert pg(tree)[0] == ["CREATE UNIQUE INDEX i ON public.t USING btree (a pg_catalog.int4_ops)"]


# ---- catalog recorders: renames move what the catalog knows -------------------------------------
def test_renames_follow_partitioned_tables():
    cat = partitioned(("k",))
    rename_list = {"fmt": "RENAME TABLE %{renamelist:, }s", "renamelist": [
        {"fmt": "%{ori}D TO %{modify}D", "ori": qn("t"), "modify": qn("t2", "other")}]}
    with_catalog(rename_list, cat)
    assert set(cat.tables) == {("other", "t2")}
    with_catalog(set_schema("TABLE", "other.t2", "third"), cat)
    assert set(cat.tables) == {("third", "t2")}
    with_catalog({"fmt": "ALTER SCHEMA %{identity}I RENAME TO %{newname}I", "newname": "fourth",
                  "identity": "third"}, cat)
    assert set(cat.tables) == {("fourth", "t2")}
    with_catalog({"fmt": "ALTER %{objtype}s %{identity}D RENAME COLUMN %{colname}I TO %{newname}I", "colname": "k",
                  "newname": "k2", "objtype": "TABLE", "identity": qn("t2", "fourth")}, cat)
    assert cat.tables[("fourth", "t2")].key == ("k2",)
    # the renamed key is what a later UNIQUE index is checked against
    out, codes = with_catalog(index("(k2 pg_catalog.int4_ops)GLOBAL", unique="UNIQUE", table=qn("t2", "fourth")), cat)
    assert out[0].startswith("CREATE UNIQUE INDEX") and "DDLC-W662" not in codes


# ---- the goldens of this family, read on the server beyond the snapshot ---------------------------
FAMILY = ("drop", "create_index", "sequence", "view", "comment", "rename", "set_schema")


def test_family_goldens_exist():
    for fam in FAMILY:
        for case in (CASES / fam).iterdir():
            assert (case / "expected.postgres.sql").exists(), case
            assert (case / "expected.catalog.txt").exists(), case


def _apply(conn, name):
    case = CASES / name
    with conn.cursor() as cur:
        if (case / "setup.postgres.sql").exists():
            cur.execute((case / "setup.postgres.sql").read_text("utf-8"))
        golden = (case / "expected.postgres.sql").read_text("utf-8")
        if golden.strip():
            cur.execute(golden)


DESCRIPTIONS = """
    SELECT i.type || ' ' || i.identity || ': ' || d.description
      FROM pg_description d, LATERAL pg_identify_object(d.classoid, d.objoid, d.objsubid) i
     WHERE d.objoid >= 16384 ORDER BY 1"""


@pytest.mark.parametrize("name,expected", [
    ("comment/constraint", ["table constraint orders_pkey on public.orders: pk"]),
    ("comment/domain-constraint", ['domain constraint "Pos Check" on public.posint: must be positive']),
    ("comment/function", ["function public.add1(integer,character varying): adds one"]),
    ("comment/trigger", ["trigger trg_orders on public.orders: audit"]),
    ("comment/schema", ['schema "Sales": sales data']),
    ("comment/type", ["type public.color: palette"]),
    ("comment/large-sequence", ["sequence public.big: 128-bit"]),
    ("comment/index", ["index public.orders_note_idx: by note"]),
    ("comment/column-is-null", ["table column public.orders.note: kept"]),
    ("comment/quote-backslash", ['table public."Order Items": it\'s a C:\\path, 100% "odd"']),
    ("comment/table-dollar-quoted", ["table public.orders: it's the orders"]),
    ("comment/unknown-objtype", []),
])
def test_comment_lands_on_its_object(pg_db, name, expected):
    _apply(pg_db, name)
    with pg_db.cursor() as cur:
        cur.execute(DESCRIPTIONS)
        assert [r[0] for r in cur.fetchall()] == expected


OWNER = """
    SELECT c.relname || ' -> ' || coalesce(r.relname || '.' || a.attname, 'none')
      FROM pg_class c LEFT JOIN pg_depend d ON d.objid = c.oid AND d.deptype = 'a' AND d.classid = 'pg_class'::regclass
      LEFT JOIN pg_class r ON r.oid = d.refobjid
      LEFT JOIN pg_attribute a ON a.attrelid = r.oid AND a.attnum = d.refobjsubid
     WHERE c.relkind = 'S' ORDER BY 1"""


@pytest.mark.parametrize("name,owner,nextval", [
    ("sequence/alter-increment-owned-by", "s1 -> orders.id", 1),
    ("sequence/alter-owned-by-none", "s1 -> none", 1),
    ("sequence/create-restart-differs", "s2 -> none", 50),
    ("sequence/alter-large-noorder-maxvalue", "big -> none", 7),
    ("sequence/create", "s1 -> none", 10),
])
def test_sequence_owner_and_next_value(pg_db, name, owner, nextval):
    _apply(pg_db, name)
    with pg_db.cursor() as cur:
        cur.execute(OWNER)
        assert [r[0] for r in cur.fetchall()] == [owner]
        seq = owner.split(" ")[0]
        cur.execute(f"SELECT nextval('public.{seq}')")
        assert cur.fetchone()[0] == nextval


def test_modules_stay_small():
    from pathlib import Path

    import ddlc.backends.postgres.objects as objects

    here = Path(objects.__file__).parent
    for name in ("objects.py", "objects_more.py"):
        assert len((here / name).read_text("utf-8").splitlines()) <= 600, name
