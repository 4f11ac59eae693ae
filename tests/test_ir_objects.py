"""IR of the object families: DROP, CREATE INDEX, sequences, views, COMMENT, RENAME, SET SCHEMA.

Every reference example tree (fixtures/cases/<family>/ and tests/data/reference_trees.jsonl) builds
the expected node; identities and index definitions are parsed for real; error paths and both key
dialects; lossless GaussDB round trip, with the tree's fmt and with the default fmt.
"""

from __future__ import annotations

import copy
import json

import pytest

from conftest import CASES, ROOT
from ddlc.backends.gaussdb import emit, to_jddl
from ddlc.errors import DdlcError
from ddlc.frontend.build import build, shape_of
from ddlc.jddl.expand import expand
from ddlc.ir.base import replace, to_json
from ddlc.ir.comment import Comment
from ddlc.frontend.sql.identity import parse_identity
from ddlc.frontend.sql.index import parse_definition
from ddlc.ir.drop import (
    ConstraintIdentity, Drop, DropObjectType, FunctionSignature, IdentityKind, PlainName, SchemaName,
    TriggerIdentity,
)
from ddlc.ir.index import CreateIndex, IndexDefinition, NullsOrder, PartitionScope, SortOrder
from ddlc.ir.names import Expr, QualifiedName, TypeName
from ddlc.ir.rename import (
    RenameAttribute, RenameColumn, RenameConstraint, RenameRelation, RenameSchema, RenameTables,
    RenameType, SetSchema,
)
from ddlc.ir.sequence import AlterSequence, CreateSequence, Persistence, SeqClause
from ddlc.ir.view import CreateView

FAMILIES = ("drop", "create_index", "sequence", "view", "comment", "rename", "set_schema")
SECTIONS = ("5.4", "5.5", "5.6", "5.7", "5.12", "5.13", "5.14")


def case(name: str) -> dict:
    doc = json.loads((CASES / name / "input.json").read_text("utf-8"))
    return doc.get("JDDL", doc)


def _all_trees():
    out = []
    for fam in FAMILIES:
        for p in sorted((CASES / fam).glob("*/input.json")):
            doc = json.loads(p.read_text("utf-8"))
            out.append((str(p.parent.relative_to(CASES)), doc.get("JDDL", doc)))
    with open(ROOT / "tests" / "data" / "reference_trees.jsonl", encoding="utf-8") as f:
        for i, line in enumerate(f):
            r = json.loads(line)
            if r["section"] in SECTIONS:
                out.append((f"reference-{r['section']}-{i}", r["tree"]))
    return out


TREES = _all_trees()


def q(name, schema=None, attr=None):
    return QualifiedName(name, schema, attr)


def same(a, b) -> bool:
    return to_json(a) == to_json(b)


def codes(diags) -> list[str]:
    return [d.code for d in diags]


# ---- every example: lossless, with its own fmt and with the default fmt ----------------------
def test_examples_found():
    assert len(TREES) >= 40


@pytest.mark.parametrize("tree", [t for _, t in TREES], ids=[n for n, _ in TREES])
def test_round_trip(tree):
    stmt, _ = build(tree)
    assert type(stmt).__name__ != "Opaque"
    assert emit(stmt, mode="raw") == expand(tree)
    # a node made by a pass (no layout) is written in the deparser's default form: the same text
    assert emit(replace(stmt, layout=None), mode="raw") == expand(tree)


@pytest.mark.parametrize("tree", [t for _, t in TREES], ids=[n for n, _ in TREES])
def test_round_trip_is_idempotent(tree):
    stmt, _ = build(tree)
    again, _ = build(to_jddl(stmt))
    assert same(again, stmt)


# ---- DROP ------------------------------------------------------------------------------------
@pytest.mark.parametrize("name,objtype,identity,flags", [
    ("drop/function", DropObjectType.FUNCTION, FunctionSignature(q("add1", "public"), (TypeName("integer", ""),)),
     (False, False, False)),
    ("drop/index-concurrently", DropObjectType.INDEX, q("orders_note_idx", "public"), (True, False, False)),
    ("drop/schema-quoted-cascade", DropObjectType.SCHEMA, SchemaName("Sales"), (False, False, True)),
    ("drop/table-if-exists-cascade", DropObjectType.TABLE, q("orders", "public"), (False, True, True)),
    ("drop/trigger", DropObjectType.TRIGGER, TriggerIdentity("trg_orders", q("orders", "public")),
     (False, False, False)),
    ("drop/type", DropObjectType.TYPE, q("color", "public"), (False, False, False)),
])
def test_drop_examples(name, objtype, identity, flags):
    tree = case(name)
    stmt, diags = build(tree)
    assert isinstance(stmt, Drop) and diags == []
    assert stmt.objtype is objtype and stmt.objtype_text == tree["objtype"]
    assert stmt.identity_text == tree["objidentity"]
    assert same(stmt.identity, identity)
    assert (stmt.concurrently, stmt.if_exists, stmt.cascade) == flags
    assert stmt.identity.origin == ("objidentity",)


DROP = {"fmt": "DROP %{objtype}s %{concurrently}s %{if_exists}s %{objidentity}s %{cascade}s",
        "cascade": "", "objtype": "table", "if_exists": "", "objidentity": "public.t", "concurrently": ""}


def drop(**kw):
    return {**DROP, **kw}


def test_drop_table_constraint_defect():
    tree = drop(objtype="index", objidentity='public."Pk" on public.t')
    stmt, diags = build(tree)
    assert codes(diags) == ["DDLC-W301"]
    assert same(stmt.identity, ConstraintIdentity("Pk", q("t", "public"), "public"))
    assert emit(stmt, mode="raw") == expand(tree)


def test_drop_other_objtype_and_unparsed_identity():
    stmt, diags = build(drop(objtype="procedure", objidentity="public.p(integer)"))
    assert stmt.objtype is DropObjectType.OTHER and stmt.identity is None and codes(diags) == ["DDLC-N302"]
    assert emit(stmt, mode="raw") == "DROP procedure   public.p(integer) "
    stmt, diags = build(drop(objtype="function", objidentity="public.add1"))
    assert stmt.identity is None and codes(diags) == ["DDLC-N301"]
    assert emit(stmt, mode="raw") == "DROP function   public.add1 "


def test_drop_large_sequence_and_objtype_spelling():
    stmt, _ = build(drop(objtype="large sequence", objidentity="public.big"))
    assert stmt.objtype is DropObjectType.LARGE_SEQUENCE and same(stmt.identity, q("big", "public"))
    tree = drop(objtype="TABLE")
    stmt, _ = build(tree)
    assert stmt.objtype is DropObjectType.TABLE
    assert emit(stmt, mode="raw") == expand(tree)  # the spelling as written


@pytest.mark.parametrize("key,value", [("cascade", "RESTRICT"), ("if_exists", "if exists"), ("concurrently", 1)])
def test_drop_bad_keyword(key, value):
    with pytest.raises(DdlcError) as e:
        build(drop(**{key: value}))
    assert e.value.path == (key,)


def test_drop_missing_identity():
    tree = drop()
    del tree["objidentity"]
    with pytest.raises(DdlcError) as e:
        build(tree)
    assert e.value.path == ("objidentity",) and "not found" in e.value.message


def test_drop_gaussdb_key_spelling():
    tree = {"fmt": "DROP %{object_type}s %{concurrently}s %{if_exists}s %{object_identity}s %{cascade}s",
            "cascade": "", "object_type": "view", "if_exists": "IF EXISTS", "object_identity": "s.v",
            "concurrently": ""}
    stmt, _ = build(tree)
    assert stmt.objtype is DropObjectType.VIEW and same(stmt.identity, q("v", "s"))
    assert emit(stmt, mode="raw") == expand(tree) == "DROP view  IF EXISTS s.v "


def test_drop_changed_identity_is_rendered():
    stmt, _ = build(drop(objtype="function", objidentity='public.f(integer, character varying, "char")'))
    fn = stmt.identity
    moved = replace(stmt, identity=replace(fn, name=replace(fn.name, schema="App")))
    assert emit(moved, mode="raw") == 'DROP function   "App".f(integer,character varying,"char") '
    stmt, _ = build(drop(objtype="table", objidentity="orders"))
    assert emit(replace(stmt, identity=q("orders", "public")), mode="raw") == "DROP table   public.orders "


# ---- identities --------------------------------------------------------------------------------
K = IdentityKind


@pytest.mark.parametrize("kind,text,expected", [
    (K.RELATION, "public.orders", q("orders", "public")),
    (K.RELATION, "orders", q("orders")),
    (K.RELATION, '"a.b"."c""d"', q('c"d', "a.b")),
    (K.RELATION, '"Sales"."Order Items"', q("Order Items", "Sales")),
    (K.TYPE, "public.color", q("color", "public")),
    (K.COLUMN, "public.orders.amount", q("orders", "public", "amount")),
    (K.COLUMN, 'orders."Amount"', q("orders", None, "Amount")),
    (K.SCHEMA, '"My ""odd"" schema"', SchemaName('My "odd" schema')),
    (K.NAME, "ts1", PlainName("ts1")),
    (K.FUNCTION, "public.add1()", FunctionSignature(q("add1", "public"))),
    (K.FUNCTION, "public.agg(*)", FunctionSignature(q("agg", "public"), (), True)),
    (K.FUNCTION, 'public.f(integer,character varying,"char",public."My T"[],timestamp(6) without time zone)',
     FunctionSignature(q("f", "public"), (
         TypeName("integer", ""), TypeName("character varying", ""), TypeName("char"),
         TypeName("My T", "public", "", True), TypeName("timestamp", "", "(6) without time zone")))),
    (K.FUNCTION, '"we.ird"."fn(x)"(double precision[], bit varying(3))',
     FunctionSignature(q("fn(x)", "we.ird"), (TypeName("double precision", "", "", True),
                                               TypeName("bit varying", "", "(3)")))),
    (K.TRIGGER, "trg on public.orders", TriggerIdentity("trg", q("orders", "public"))),
    (K.TRIGGER, '"On on" on "S"."T"', TriggerIdentity("On on", q("T", "S"))),
    (K.CONSTRAINT, "public.pk on public.t", ConstraintIdentity("pk", q("t", "public"), "public")),
    (K.CONSTRAINT, 'Sales."Pk" on "Sales".t', ConstraintIdentity("Pk", q("t", "Sales"), "Sales")),
])
def test_parse_identity(kind, text, expected):
    got = parse_identity(kind, text, ("x",))
    assert same(got, expected)
    assert got.origin == ("x",)


@pytest.mark.parametrize("kind,text", [
    (K.RELATION, "a.b.c"), (K.RELATION, "a b"), (K.RELATION, ""), (K.RELATION, '"unterminated'),
    (K.RELATION, "public."), (K.COLUMN, "orders"), (K.SCHEMA, "a.b"), (K.FUNCTION, "public.f"),
    (K.FUNCTION, "public.f(integer"), (K.FUNCTION, "public.f(integer) x"), (K.TRIGGER, "trg public.t"),
    (K.TRIGGER, "trg on"), (K.CONSTRAINT, "pk on a.b.c"), (K.RELATION, "1abc"),
])
def test_parse_identity_rejects(kind, text):
    assert parse_identity(kind, text) is None


@pytest.mark.parametrize("kind,text", [
    (K.RELATION, "public.orders"), (K.RELATION, '"Sales"."Order"'), (K.COLUMN, 'public.t."Amount"'),
    (K.SCHEMA, '"Sales"'), (K.FUNCTION, "public.f(integer,character varying,\"char\",public.\"T\"[])"),
    (K.FUNCTION, "public.agg(*)"), (K.TRIGGER, '"Trg" on public."T"'), (K.CONSTRAINT, 'public."Pk" on public.t'),
])
def test_render_identity_is_the_server_text(kind, text):
    from ddlc.backends.gaussdb.drop import render_identity

    assert render_identity(parse_identity(kind, text)) == text


# ---- CREATE INDEX --------------------------------------------------------------------------------
def test_create_index_examples():
    stmt, diags = build(case("create_index/unique-opts-tablespace-where"))
    assert isinstance(stmt, CreateIndex) and diags == []
    assert (stmt.unique, stmt.concurrently, stmt.name, stmt.method) == (True, False, "orders_note_idx", "btree")
    assert same(stmt.table, q("orders", "public"))
    assert (stmt.options, stmt.tablespace, stmt.invisible) == ("fillfactor=80", "ts1", False)
    assert same(stmt.where, Expr("(amount > (0)::numeric)"))
    (key,) = stmt.keys
    assert key.column == "note" and key.expression is None
    assert same(key.collation, q("default", "pg_catalog")) and same(key.opclass, q("text_ops", "pg_catalog"))
    assert (key.ordering, key.nulls) == (SortOrder.DESC, NullsOrder.LAST)
    assert stmt.partition_scope is PartitionScope.NONE

    stmt, _ = build(case("create_index/local-partitioned"))
    assert stmt.partition_scope is PartitionScope.LOCAL
    assert [p.name for p in stmt.partitions] == ["p1_id_idx", "p2_id_idx"]
    assert (stmt.options, stmt.tablespace, stmt.where) == (None, None, None)

    stmt, _ = build(case("create_index/global-invisible"))
    assert stmt.partition_scope is PartitionScope.GLOBAL and stmt.invisible and stmt.partitions == ()


DEFINITIONS = [
    "(a pg_catalog.int4_ops)",
    '(note COLLATE pg_catalog."default" pg_catalog.text_ops DESC NULLS LAST)',
    "(a pg_catalog.int4_ops NULLS FIRST, b pg_catalog.int4_ops DESC)",
    "(id pg_catalog.int4_ops) LOCAL(PARTITION p1_id_idx, PARTITION p2_id_idx) ",
    '(id pg_catalog.int4_ops) LOCAL(PARTITION p1 TABLESPACE "TS", PARTITION "P2") ',
    "(id pg_catalog.int4_ops) LOCAL() ",
    "(k pg_catalog.int4_ops)GLOBAL",
    '(k pg_catalog.int4_ops) GLOBAL INCLUDE (c, "D")',
    "(k pg_catalog.int4_ops) INCLUDE (c) LOCAL(PARTITION p1) ",
    "(lower((note)::text) pg_catalog.text_ops, ((a + b)) pg_catalog.int4_ops, public.f(a, ')') public.my_ops)",
    "((a || 'x('::text) pg_catalog.text_ops DESC NULLS LAST)",
    '("Col" pg_catalog.int4_ops, "select" pg_catalog.int4_ops)',
    "(a pg_catalog.int4_ops) LOCAL(\n    PARTITION partition_name(\n        SUBPARTITION s1 TABLESPACE ts, \n"
    "        SUBPARTITION s2\n    ),\n    PARTITION partition_name(\n        SUBPARTITION s3\n    )\n) ",
]


@pytest.mark.parametrize("text", DEFINITIONS)
def test_index_definition_parses_and_renders_back(text):
    from ddlc.backends.gaussdb.index import render_definition

    d = parse_definition(text)
    assert isinstance(d, IndexDefinition), d
    assert render_definition(d) == text


def test_index_definition_details():
    d = parse_definition(DEFINITIONS[9])
    assert [k.column for k in d.keys] == [None, None, None]
    assert [k.expression.text for k in d.keys] == ["lower((note)::text)", "((a + b))", "public.f(a, ')')"]
    assert same(d.keys[2].opclass, q("my_ops", "public"))
    d = parse_definition(DEFINITIONS[7])
    assert d.scope is PartitionScope.GLOBAL and d.include == ("c", "D")
    d = parse_definition(DEFINITIONS[-1])
    assert d.subpartitioned and [len(g.subpartitions) for g in d.partitions] == [2, 1]
    assert d.partitions[0].subpartitions[0].tablespace == "ts"
    d = parse_definition("(a ASC)")  # hand-written: no opclass, explicit ASC
    assert d.keys[0].opclass is None and d.keys[0].ordering is SortOrder.ASC


@pytest.mark.parametrize("text", ["a pg_catalog.int4_ops", "(a DESC DESC)",
                                  "(t.a pg_catalog.int4_ops)", "(a) LOCAL", "(a) junk", "(a) LOCAL(PARTITION p1)"])
def test_index_definition_rejects(text):
    assert isinstance(parse_definition(text), str)


@pytest.mark.parametrize("text", ["(a pg_catalog.int4_ops", "(a); DROP TABLE x", "(a)\n\\! id", "(a) /* x"])
def test_index_definition_that_is_not_one_fragment_fails_its_document(text):
    with pytest.raises(DdlcError) as exc:
        parse_definition(text)
    assert exc.value.code == "DDLC-E011"


def test_index_unparsed_definition_is_kept():
    tree = copy.deepcopy(case("create_index/local-partitioned"))
    tree["definition"] = "(id pg_catalog.int4_ops) LOCAL"  # the \d form without its list
    stmt, diags = build(tree)
    assert stmt.keys == () and codes(diags) == ["DDLC-N310"]
    assert emit(stmt, mode="raw") == expand(tree)


def test_index_changed_key_is_rendered():
    stmt, _ = build(case("create_index/unique-opts-tablespace-where"))
    k = stmt.keys[0]
    out = replace(stmt, keys=(replace(k, ordering=None, nulls=None, column="Note"),), layout=None)
    assert emit(out, mode="raw") == (
        'CREATE UNIQUE INDEX  orders_note_idx ON public.orders USING btree ("Note" COLLATE pg_catalog."default" '
        "pg_catalog.text_ops) WITH (fillfactor=80) TABLESPACE ts1 WHERE (amount > (0)::numeric)")


# ---- sequences ----------------------------------------------------------------------------------
def test_create_sequence_example():
    stmt, diags = build(case("sequence/create"))
    assert isinstance(stmt, CreateSequence) and diags == []
    assert stmt.persistence is Persistence.PERMANENT and not stmt.large and same(stmt.identity, q("s1", "public"))
    assert [(o.clause, o.value, o.no) for o in stmt.options] == [
        (SeqClause.CACHE, "5", False), (SeqClause.CYCLE, None, True), (SeqClause.INCREMENT, "2", False),
        (SeqClause.MINVALUE, "1", False), (SeqClause.MAXVALUE, "9223372036854775807", False),
        (SeqClause.START, "10", False), (SeqClause.RESTART, "10", False)]


def test_create_large_sequence_keeps_big_values():
    stmt, _ = build(case("sequence/create-large-cycle"))
    assert stmt.large and stmt.options[1].no is False
    assert stmt.options[4].value == "170141183460469231731687303715884105727"


def test_alter_sequence_examples():
    stmt, _ = build(case("sequence/alter-increment-owned-by"))
    assert isinstance(stmt, AlterSequence)
    inc, owned = stmt.options
    assert (inc.clause, inc.value) == (SeqClause.INCREMENT, "5")
    assert owned.clause is SeqClause.OWNED and same(owned.owner, q("orders", "public", "id"))
    stmt, _ = build(case("sequence/alter-owned-by-none"))
    none, mx = stmt.options
    assert none.clause is SeqClause.OWNED and none.owner is None  # OWNED BY NONE survives
    assert (mx.clause, mx.value) == (SeqClause.MAXVALUE, "1000")
    assert to_jddl(stmt)["definition"][0] == {"fmt": "OWNED BY %{owner}D", "clause": "owned", "owner": None,
                                               "present": False}


def test_sequence_as_and_order():
    tree = {"fmt": "ALTER %{large}s SEQUENCE %{identity}D %{definition: }s", "large": "",
            "identity": {"object_name": "s1", "schema_name": "public"},
            "definition": [{"fmt": "AS %{identity}D", "identity": {"objname": "int8", "schemaname": "pg_catalog"}},
                           {"fmt": "%{order}s", "order": "NOORDER", "clause": "order"},
                           {"fmt": "%{order}s", "order": "ORDER", "clause": "order"},
                           {"fmt": "SET CACHE %{value}s", "value": "-20", "clause": "cache"}]}
    stmt, _ = build(tree)
    as_, noorder, order, cache = stmt.options
    assert as_.clause is SeqClause.AS and same(as_.type, q("int8", "pg_catalog"))
    assert (noorder.no, order.no) == (True, False) and cache.value == "-20"
    text = "ALTER  SEQUENCE public.s1 AS pg_catalog.int8 NOORDER ORDER SET CACHE -20"
    assert emit(stmt, mode="raw") == expand(tree) == text


@pytest.mark.parametrize("element,path", [
    ({"fmt": "CACHE %{value}s", "value": "5x", "clause": "cache"}, ("definition", 0, "value")),
    ({"fmt": "CACHE %{value}s", "value": 5, "clause": "cache"}, ("definition", 0, "value")),
    ({"fmt": "FOO %{value}s", "value": "5", "clause": "foo"}, ("definition", 0, "clause")),
    ({"fmt": "%{no}s CYCLE", "no": "no", "clause": "cycle"}, ("definition", 0, "no")),
    ({"fmt": "%{order}s", "order": "", "clause": "order"}, ("definition", 0, "order")),
    ({"fmt": "OWNED BY %{owner}D", "owner": None, "clause": "owned"}, ("definition", 0, "owner")),
    ({"fmt": "CACHE %{value}s", "value": "5"}, ("definition", 0)),
    ({"fmt": "CACHE %{value}s", "value": "5", "clause": "cache", "present": False}, ("definition", 0)),
])
def test_sequence_errors(element, path):
    tree = {"fmt": "ALTER %{large}s SEQUENCE %{identity}D %{definition: }s", "large": "",
            "identity": {"objname": "s1", "schemaname": "public"}, "definition": [element]}
    with pytest.raises(DdlcError) as e:
        build(tree)
    assert e.value.path == path


def test_sequence_bad_persistence():
    tree = copy.deepcopy(case("sequence/create"))
    tree["persistence"] = "TEMP"
    with pytest.raises(DdlcError) as e:
        build(tree)
    assert e.value.path == ("persistence",)


# ---- views ----------------------------------------------------------------------------------------
def test_view_example():
    tree = case("view/create-or-replace")
    stmt, diags = build(tree)
    assert isinstance(stmt, CreateView) and diags == []
    assert stmt.or_replace and stmt.persistence is Persistence.PERMANENT
    assert same(stmt.identity, q("v_orders", "public"))
    assert stmt.query.text == tree["query"] and stmt.query.text.endswith(";")
    assert stmt.parsed and [to_json(r) for r in stmt.references] == [to_json(q("orders", "public"))]


def test_view_references_skip_ctes_and_keep_order():
    tree = copy.deepcopy(case("view/create-or-replace"))
    tree["query"] = ('WITH x AS (SELECT 1 AS a) SELECT x.a FROM x, public.orders o JOIN s2."T" t ON true, '
                     "orders WHERE EXISTS (SELECT 1 FROM public.orders);")
    stmt, _ = build(tree)
    assert [r.dotted() for r in stmt.references] == ["public.orders", "s2.T", "orders"]
    assert all(r.origin == ("query",) for r in stmt.references)


def test_view_unparsed_query():
    tree = copy.deepcopy(case("view/create-or-replace"))
    tree["query"] = "SELECT FROM WHERE (( ));"
    stmt, diags = build(tree)
    assert not stmt.parsed and stmt.references == () and codes(diags) == ["DDLC-N320"]
    assert emit(stmt, mode="raw") == expand(tree)


# ---- COMMENT --------------------------------------------------------------------------------------
def test_comment_examples():
    stmt, diags = build(case("comment/table-dollar-quoted"))
    assert isinstance(stmt, Comment) and diags == []
    assert (stmt.objtype, stmt.comment, stmt.on_constraint) == ("TABLE", "it's the orders", False)
    assert same(stmt.identity, q("orders", "public"))
    stmt, _ = build(case("comment/column-is-null"))
    assert stmt.objtype == "COLUMN" and stmt.comment is None
    assert same(stmt.identity, q("orders", "public", "amount"))
    stmt, _ = build(case("comment/constraint"))
    assert stmt.on_constraint and stmt.objtype == "CONSTRAINT" and not stmt.domain
    assert stmt.identity_text == "orders_pkey" and same(stmt.identity, PlainName("orders_pkey"))
    assert stmt.parent_text == "public.orders" and same(stmt.parent, q("orders", "public"))
    assert stmt.comment == "pk"


COMMENT = {"fmt": "COMMENT ON %{objtype}s %{identity}s IS %{comment}s",
           "comment": {"fmt": "%{null}s %{literal}s", "null": {"fmt": "NULL", "present": False},
                       "literal": {"fmt": "%{value}L", "value": "x", "present": True}},
           "objtype": "FUNCTION", "identity": "public.add1(integer)"}


def test_comment_defects():
    tree = {**COMMENT, "objtype": "???", "identity": "public.mv"}
    stmt, diags = build(tree)
    assert stmt.identity is None and codes(diags) == ["DDLC-W310"]
    assert emit(stmt, mode="raw") == "COMMENT ON ??? public.mv IS  'x'"
    tree = copy.deepcopy(COMMENT)
    tree["comment"]["literal"] = {"fmt": "", "present": True}
    stmt, diags = build(tree)
    assert stmt.comment == "" and codes(diags) == ["DDLC-W311"]
    assert emit(stmt, mode="raw") == expand(tree) == "COMMENT ON FUNCTION public.add1(integer) IS  "


def test_comment_on_domain_constraint_and_odd_domain_word():
    tree = copy.deepcopy(case("comment/constraint"))
    tree.update(domain="DOMAIN", parentobj='public."Dom"', identity="Weird Name")
    stmt, diags = build(tree)
    assert stmt.domain and same(stmt.parent, q("Dom", "public")) and diags == []
    text = "COMMENT ON CONSTRAINT Weird Name ON DOMAIN public.\"Dom\" IS  'pk'"  # the name unquoted (%s)
    assert emit(stmt, mode="raw") == expand(tree) == text
    tree["domain"] = "TABLE"
    stmt, diags = build(tree)
    assert not stmt.domain and codes(diags) == ["DDLC-W312"]
    assert emit(stmt, mode="raw") == expand(tree)


@pytest.mark.parametrize("objtype,identity,expected", [
    ("FUNCTION", "public.add1(integer)", FunctionSignature(q("add1", "public"), (TypeName("integer", ""),))),
    ("TRIGGER", "trg on public.orders", TriggerIdentity("trg", q("orders", "public"))),
    ("SCHEMA", "s", SchemaName("s")), ("TABLESPACE", '"TS"', PlainName("TS")), ("DOMAIN", "public.d", q("d", "public")),
    ("LARGE SEQUENCE", "public.big", q("big", "public")), ("VIEW", "public.v", q("v", "public")),
])
def test_comment_identity_kinds(objtype, identity, expected):
    stmt, _ = build({**COMMENT, "objtype": objtype, "identity": identity})
    assert same(stmt.identity, expected)


@pytest.mark.parametrize("mutate", [
    lambda c: c.update(fmt="%{literal}s"),
    lambda c: c["null"].update(present=True),
    lambda c: c["literal"].update(fmt="%{value}s"),
    lambda c: c["null"].update(fmt="NUL"),
    lambda c: c["literal"].update(present="yes"),
    lambda c: c.pop("null"),
])
def test_comment_literal_or_null_errors(mutate):
    tree = copy.deepcopy(COMMENT)
    mutate(tree["comment"])
    with pytest.raises(DdlcError) as e:
        build(tree)
    assert e.value.path[0] == "comment"


def test_comment_unparsed_identity_and_gaussdb_keys():
    tree = {**COMMENT, "identity": "public.add1"}
    stmt, diags = build(tree)
    assert stmt.identity is None and codes(diags) == ["DDLC-N301"]
    assert emit(stmt, mode="raw") == expand(tree)
    tree = {**COMMENT, "fmt": "COMMENT ON %{object_type}s %{identity}s IS %{comment}s", "object_type": "TABLE",
            "identity": "public.t"}
    del tree["objtype"]
    stmt, _ = build(tree)
    assert stmt.objtype == "TABLE" and emit(stmt, mode="raw") == expand(tree)


# ---- RENAME / SET SCHEMA -------------------------------------------------------------------------
def test_rename_examples():
    s, _ = build(case("rename/table-to-quoted-name"))
    assert isinstance(s, RenameRelation)
    assert (s.objtype, s.new_name, s.if_exists) == ("TABLE", "Orders2", False)
    assert same(s.identity, q("orders", "public"))
    s, _ = build(case("rename/column"))
    assert isinstance(s, RenameColumn)
    assert (s.objtype, s.column, s.new_name, s.if_exists) == ("TABLE", "note", "remark", False)
    s, _ = build(case("rename/type-attribute-cascade"))
    assert isinstance(s, RenameAttribute) and (s.attribute, s.new_name, s.cascade) == ("x", "x2", True)
    s, _ = build(case("rename/constraint"))
    assert isinstance(s, RenameConstraint) and (s.constraint, s.new_name) == ("orders_note_key", "orders_note_uq")
    s, _ = build(case("rename/schema"))
    assert isinstance(s, RenameSchema) and (s.identity, s.new_name) == ("sales", "sales_old")
    s, _ = build(case("rename/type"))
    assert isinstance(s, RenameType) and s.new_name == "colour" and same(s.identity, q("color", "public"))
    s, _ = build(case("rename/b-compat-rename-table-list"))
    assert isinstance(s, RenameTables)
    assert [(p.old.dotted(), p.new.dotted()) for p in s.pairs] == [("db1.a", "db1.a_old"), ("db1.b", "db1.a")]


def test_rename_shapes_are_matched_before_generic_alter():
    assert shape_of(case("rename/table-to-quoted-name")) == "rename_relation"
    assert shape_of(case("rename/column")) == "rename_column"
    assert shape_of(case("set_schema/function")) == "set_schema"


def test_rename_column_if_exists_and_new_name_spelling():
    tree = {"fmt": "ALTER %{objtype}s %{if_exists}s %{identity}D RENAME COLUMN %{colname}I TO %{new_name}I",
            "colname": "a", "new_name": "B", "objtype": "VIEW", "if_exists": "IF EXISTS",
            "identity": {"objname": "v", "schemaname": "public"}}
    s, _ = build(tree)
    assert s.if_exists and s.new_name == "B" and s.objtype == "VIEW"
    assert emit(s, mode="raw") == expand(tree) == 'ALTER VIEW IF EXISTS public.v RENAME COLUMN a TO "B"'
    assert emit(replace(s, layout=None), mode="raw") == 'ALTER VIEW IF EXISTS public.v RENAME COLUMN a TO "B"'
    # the layout keeps its (now empty) slot; the default form has none
    assert emit(replace(s, if_exists=False), mode="raw") == 'ALTER VIEW  public.v RENAME COLUMN a TO "B"'
    assert emit(replace(s, if_exists=False, layout=None), mode="raw") == 'ALTER VIEW public.v RENAME COLUMN a TO "B"'


def test_rename_attribute_without_cascade_and_errors():
    tree = copy.deepcopy(case("rename/type-attribute-cascade"))
    tree["cascade"]["present"] = False
    s, _ = build(tree)
    assert not s.cascade and emit(s, mode="raw") == expand(tree) == "ALTER TYPE public.pt RENAME ATTRIBUTE x TO x2 "
    tree["cascade"] = "CASCADE"
    with pytest.raises(DdlcError) as e:
        build(tree)
    assert e.value.path == ("cascade",)
    tree = copy.deepcopy(case("rename/b-compat-rename-table-list"))
    tree["renamelist"][1] = "db1.b TO db1.a"
    with pytest.raises(DdlcError):
        build(tree)


def test_set_schema():
    s, diags = build(case("set_schema/function"))
    assert isinstance(s, SetSchema) and diags == []
    assert (s.objtype, s.identity_text, s.new_schema) == ("FUNCTION", "public.add1(integer)", "util")
    assert same(s.identity, FunctionSignature(q("add1", "public"), (TypeName("integer", ""),)))
    tree = {"fmt": "ALTER %{objtype}s %{identity}s SET SCHEMA %{newschema}I", "objtype": "???",
            "identity": "public.mv", "newschema": "New"}
    s, diags = build(tree)
    assert s.identity is None and codes(diags) == ["DDLC-W310"]
    assert emit(s, mode="raw") == expand(tree) == 'ALTER ??? public.mv SET SCHEMA "New"'
    s, _ = build({**tree, "objtype": "TABLE", "identity": '"S"."T"'})
    assert same(s.identity, q("T", "S"))


# ---- passes see the parsed names ------------------------------------------------------------------
def test_passes_rewrite_parsed_identities():
    from ddlc.passes import PassContext
    from ddlc.passes.map_schemas import map_schemas
    from ddlc.passes.qualify_names import qualify_names

    stmt, _ = build(drop(objtype="function", objidentity="add1(integer, character varying)"))
    stmt, _ = qualify_names(stmt, PassContext())
    assert emit(stmt, mode="raw") == "DROP function   public.add1(integer,character varying) "
    stmt, _ = map_schemas(stmt, PassContext(schema_map={"public": "app"}))
    assert emit(stmt, mode="raw") == "DROP function   app.add1(integer,character varying) "
    stmt, _ = build({**COMMENT, "objtype": "COLUMN", "identity": 'public.t."C"'})
    stmt, _ = map_schemas(stmt, PassContext(schema_map={"public": "App"}))
    assert emit(stmt, mode="raw") == "COMMENT ON COLUMN \"App\".t.\"C\" IS  'x'"
    stmt, _ = build(drop(objtype="schema", objidentity="s"))
    stmt, _ = qualify_names(stmt, PassContext())
    assert emit(stmt, mode="raw") == "DROP schema   s "  # a schema name is not a relation
