"""TDDL text as a person writes it (``create table x(a int)``), read by PostgreSQL's grammar when the
database's canonical templates do not read it (``ddlc/frontend/text/pgtext.py``, DDLC-I406).

Proven three ways: the tree made from the text is the one the database decodes (its translation equals
the golden of the fixture case the statement stands for, its objects equal the case's catalog); the
PostgreSQL output builds on the real server exactly the objects the hand-written SQL itself builds; and
whatever the text, the reader builds a statement or keeps the text with DDLC-N404, never a crash."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ddlc
from conftest import CASES
from ddlc.frontend.text import read_tddl
from ddlc.frontend.text.pgtext import NotRead, read_sql
from ddlc.ir.statement import Opaque
from engines.catalog import snapshot

I406 = "DDLC-I406"


def pg(text: str, **kw) -> ddlc.Translation:
    return ddlc.translate({"TDDL": text}, target="postgres", **kw)


def codes(t) -> list[str]:
    return [d.code for d in t.diagnostics]


def test_the_issue_example_is_a_table_on_every_target():
    t = pg("create table x(a int)")
    assert t.sql == "CREATE TABLE public.x (a integer);\n" and codes(t) == [I406]
    assert "I406" not in ddlc.translate({"TDDL": "create table x(a int)"}, target="gaussdb").sql  # GaussDB: the text itself
    assert ddlc.translate({"TDDL": "create table x(a int)"}, target="gaussdb").sql == "create table x(a int);\n"
    spark = ddlc.translate({"TDDL": "create table x(a int)"}, target="spark")
    assert spark.sql.startswith("CREATE TABLE") and "public.x" in spark.sql and "a INT" in spark.sql


def test_canonical_text_still_reads_through_the_templates():
    text = "CREATE TABLE public.x (a pg_catalog.int4 ) WITH (orientation = 'row', compression = 'no')"
    assert I406 not in codes(pg(text))


# ---- the tree is the database's: type keywords, typmods, constraints ----------------------------------------
def test_type_keywords_resolve_as_postgresql_resolves_them():
    tree, kind = read_sql("create table s.t (a int, b varchar(20)[], c numeric(10), d char, e timestamp, "
                          "f timestamp(3) with time zone, g timestamptz, h interval day to second(3), i interval(2), "
                          "j double precision, k text, l mytype, m s2.mytype)")
    assert kind == "CREATE TABLE" and tree["identity"] == {"objname": "t", "schemaname": "s"}
    types = [c["coltype"] for c in tree["table_elements"]["elements"]]
    assert types == [
        {"typmod": "", "typarray": False, "typename": "int4", "schemaname": "pg_catalog"},
        {"typmod": "(20)", "typarray": True, "typename": "varchar", "schemaname": "pg_catalog"},
        {"typmod": "(10,0)", "typarray": False, "typename": "numeric", "schemaname": "pg_catalog"},
        {"typmod": "(1)", "typarray": False, "typename": "bpchar", "schemaname": "pg_catalog"},
        {"typmod": "", "typarray": False, "typename": "TIMESTAMP", "schemaname": ""},
        {"typmod": "(3) with time zone", "typarray": False, "typename": "TIMESTAMP", "schemaname": ""},
        {"typmod": "", "typarray": False, "typename": "timestamptz"},  # not a keyword: left to the search path
        {"typmod": " day to second(3)", "typarray": False, "typename": "INTERVAL", "schemaname": ""},
        {"typmod": "(2)", "typarray": False, "typename": "INTERVAL", "schemaname": ""},
        {"typmod": "", "typarray": False, "typename": "float8", "schemaname": "pg_catalog"},
        {"typmod": "", "typarray": False, "typename": "text"},
        {"typmod": "", "typarray": False, "typename": "mytype"},  # a user type is never guessed a schema
        {"typmod": "", "typarray": False, "typename": "mytype", "schemaname": "s2"},
    ]


def test_column_constraints_become_the_elements_the_database_writes():
    tree, _ = read_sql("create table t (id int primary key, b text not null default 'n/a' check (b <> ''), "
                       "c int constraint c_u unique references p (id) on delete cascade, constraint ck check (id > 0))")
    els = tree["table_elements"]["elements"]
    assert els[0]["fmt"] == "%{name}I %{coltype}T %{collation}s %{default}s %{generated_column}s"
    assert els[1]["not_null"] == "NOT NULL" and els[1]["default"]["default"] == "'n/a'"
    assert [(e.get("name"), e["contype"], e["definition"]) for e in els[3:]] == [
        (None, "primary key", "PRIMARY KEY (id)"),
        (None, "check", "CHECK (b <> '')"),
        ("c_u", "unique", "UNIQUE (c)"),
        (None, "foreign key", "FOREIGN KEY (c) REFERENCES p (id) ON DELETE CASCADE"),
        ("ck", "check", "CHECK (id > 0)"),
    ]


def test_unqualified_names_take_the_default_schema():
    for text, want in [
        ("create table t (a int)", "CREATE TABLE s9.t (a integer);\n"),
        ("create index i on t (a)", "CREATE INDEX i ON s9.t USING btree (a);\n"),
        ("alter table t add column b int", "ALTER TABLE s9.t ADD COLUMN b integer;\n"),
        ("create sequence q increment 3", "CREATE SEQUENCE s9.q INCREMENT BY 3;\n"),
        ("alter table t rename a to b", "ALTER TABLE s9.t RENAME COLUMN a TO b;\n"),
    ]:
        t = pg(text, default_schema="s9")
        assert (t.sql, codes(t)) == (want, [I406]), text


def test_statements_read_as_the_database_decodes_them():
    for text, want in [
        ("CREATE TABLE IF NOT EXISTS s.t (a int, b int GENERATED ALWAYS AS (a * 2) STORED) INHERITS (s.p) "
         "WITH (fillfactor = 70)",
         "CREATE TABLE IF NOT EXISTS s.t (a integer, b integer GENERATED ALWAYS AS (a * 2) STORED) INHERITS (s.p) "
         "WITH (fillfactor = 70);\n"),
        ("create unlogged table t (a int unique deferrable initially deferred)",
         "CREATE UNLOGGED TABLE public.t (a integer, UNIQUE (a) DEFERRABLE INITIALLY DEFERRED);\n"),
        ("create unique index concurrently i on s.t using hash (lower(b)) include (c) with (fillfactor=60) "
         "where a > 0", "CREATE UNIQUE INDEX CONCURRENTLY i ON s.t USING hash (lower(b)) INCLUDE (c) "
                        "WITH (fillfactor=60) WHERE a > 0;\n"),
        ("create or replace view v (x, y) as select a, b from t",
         "CREATE OR REPLACE VIEW public.v AS SELECT a AS x, b AS y FROM public.t;\n"),
        ("create unlogged sequence q as smallint start 5 cache 3 cycle owned by t.a",
         "CREATE UNLOGGED SEQUENCE public.q AS smallint START WITH 5 CACHE 3 CYCLE OWNED BY public.t.a;\n"),
        ("alter table only t add column if not exists b varchar(3) collate \"C\" not null default 'x', "
         "drop column c cascade, add constraint k check (b <> '')",
         "ALTER TABLE ONLY public.t ADD COLUMN IF NOT EXISTS b varchar(3) COLLATE \"C\" DEFAULT 'x' NOT NULL, "
         "DROP COLUMN c CASCADE, ADD CONSTRAINT k CHECK (b <> '');\n"),
        ("alter table t drop b", "ALTER TABLE public.t DROP COLUMN b;\n"),
    ]:
        t = pg(text)
        assert (t.sql, codes(t)[:1]) == (want, [I406]), text


def test_drop_rename_comment_schema_trees():
    """The kinds the canonical templates mostly read already: the trees made from hand-written text."""
    assert read_sql("drop index concurrently if exists s.i cascade")[0] == {
        "fmt": "DROP %{objtype}s %{concurrently}s %{if_exists}s %{objidentity}s %{cascade}s", "objtype": "index",
        "concurrently": "CONCURRENTLY", "if_exists": "IF EXISTS", "objidentity": "s.i", "cascade": "CASCADE"}
    assert read_sql('drop schema "Sales" cascade')[0]["objidentity"] == '"Sales"'
    assert read_sql("drop view v")[0]["objidentity"] == "v"
    assert read_sql("alter table t rename constraint a to b")[0]["fmt"] == (
        "ALTER TABLE %{identity}D RENAME CONSTRAINT %{oldname}I TO %{newname}I")
    assert read_sql("alter schema s rename to s2")[0] == {
        "fmt": "ALTER SCHEMA %{identity}I RENAME TO %{newname}I", "identity": "s", "newname": "s2"}
    tree, _ = read_sql("comment on column s.t.a is 'x'")
    assert (tree["objtype"], tree["identity"], tree["comment"]["literal"]["value"]) == ("COLUMN", "s.t.a", "x")
    assert read_sql("comment on table t is ''")[0]["comment"]["null"]["present"] is True
    tree, kind = read_sql("create schema if not exists s authorization bob")
    assert kind == "CREATE SCHEMA" and tree["authorization"]["authorization_role"] == "bob"
    for text in ("alter index s.i rename to j", "create table t ()", "drop table t", "drop sequence if exists s", "comment on table t is 'x'", "create schema s"):
        stmt, diags = read_tddl(text)
        assert not isinstance(stmt, Opaque), text
    t = pg("DROP TABLE IF EXISTS t RESTRICT")  # RESTRICT: not the deparser's words, read by PostgreSQL's grammar
    assert (t.sql, codes(t)) == ("DROP TABLE IF EXISTS public.t;\n", [I406])


# ---- what is not read stays text, with its offset ----------------------------------------------------------
@pytest.mark.parametrize("text, why, at", [
    ("create index on t (a)", "an index without a name", "t (a)"),
    ("create temp table x (a int)", "a temporary table", "x (a int)"),
    ("create table x (a int) partition by range (a)", "partspec", "partition by"),
    ("create table x (a serial)", "serial is not a type", "serial"),
    ("create table x (a int generated always as identity)", "CONSTR_IDENTITY", "generated"),
    ("create table x (like y)", "TableLikeClause", ""),
    ("create table x (a numeric(10) default 1, b mytype(3))", "type modifiers of type mytype", "mytype(3)"),
    ("alter table t alter column a type bigint", "subcommand AlterColumnType", ""),
    ("alter table t add check (a > 0)", "unnamed constraint", "check"),
    ("drop table a, b", "several objects", ""),
    ("drop function f(int)", "DROP FUNCTION not read", ""),
    ("create view v with (security_barrier) as select 1", "ViewStmt.options", ""),
    ("create table a (x int); create table b (y int)", "several statements", "create table b"),
    ("grant select on t to u", "GrantStmt is not read", ""),
])
def test_what_is_not_read_says_why(text, why, at):
    with pytest.raises(NotRead) as info:
        read_sql(text)
    assert why in info.value.message
    if at:
        assert text[info.value.pos:].startswith(at), (info.value.pos, text[info.value.pos:])


def test_gaussdb_only_text_keeps_its_offset():
    text = "CREATE TABLE public.x (a int) TO GROUP group1;"  # GaussDB-only: no reader takes it
    stmt, diags = read_tddl(text)
    assert isinstance(stmt, Opaque) and [d.code for d in diags] == ["DDLC-N404"]
    assert "at byte 30" in diags[0].message and "hand-written" not in diags[0].message
    stmt, diags = read_tddl("create index on t (a)")
    assert isinstance(stmt, Opaque) and [d.code for d in diags] == ["DDLC-N404"]
    assert "as hand-written SQL, an index without a name" in diags[0].message
    with pytest.raises(ddlc.DdlcError) as info:
        pg("create temp table x (a int)")
    assert info.value.code == "DDLC-E010"


_WORDS = st.sampled_from([
    "create", "table", "index", "view", "sequence", "schema", "drop", "alter", "add", "column", "constraint",
    "primary", "key", "unique", "check", "references", "foreign", "not", "null", "default", "if", "exists",
    "cascade", "on", "using", "as", "select", "from", "where", "int", "varchar", "numeric", "timestamp", "with",
    "time", "zone", "interval", "day", "to", "second", "rename", "comment", "is", "only", "unlogged", "temp",
    "include", "concurrently", "owned", "by", "cycle", "start", "increment", "t", "a", "b", '"X y"', "s.t",
    "'txt'", "''", "0", "-1", "3.5", "(", ")", ",", ";", "[]", "*", ">", "+", "::", ".", "=", "$$x$$", "\u00e9",
])
_PREFIX = st.sampled_from(["create table t (", "create index i on t (", "alter table t ", "drop ", "comment on ",
                           "create sequence s ", "create view v as ", "create schema ", "alter table t rename ", ""])


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(_PREFIX, st.lists(_WORDS, max_size=14), st.text(max_size=8))
def test_any_text_builds_or_stays_text_with_n404(prefix, words, tail):
    text = prefix + " ".join(words) + tail
    try:
        tree, _kind = read_sql(text)
    except NotRead:
        pass
    else:
        assert isinstance(tree, dict) and isinstance(tree["fmt"], str)
    try:
        stmt, diags = read_tddl(text)
    except ddlc.DdlcError:
        return  # an input error with its code (e.g. a typmod the server cannot write), never a crash
    got = [d.code for d in diags]
    if isinstance(stmt, Opaque):
        assert {"DDLC-N404", "DDLC-N405"} & set(got) or stmt.reason.value == "no-shape", (text, got)
    assert got.count(I406) <= 1


# ---- on the real server ------------------------------------------------------------------------------------
# (fixture case, the statement as a person writes it): the translation builds the case's objects
FIXTURE_PAIRS = [
    ("create_table/plain-a-mode",
     "create table orders (id int not null, note varchar(20) default 'n/a', amount numeric(10,2), tags text[], "
     "created timestamp(0), constraint orders_pkey primary key (id), "
     "constraint orders_amount_check check (amount > 0))"),
    ("create_table/constraints",
     "CREATE TABLE accounts (id bigint NOT NULL, code varchar(10), email text, balance numeric(12,2) DEFAULT 0, "
     "CONSTRAINT accounts_pkey PRIMARY KEY (id) WITH (fillfactor=80), "
     "CONSTRAINT accounts_code_key UNIQUE (code) INCLUDE (email), "
     "CONSTRAINT accounts_email_key UNIQUE (email) DEFERRABLE INITIALLY DEFERRED, "
     "CONSTRAINT accounts_balance_check CHECK (balance >= 0) NO INHERIT)"),
    ("create_index/concurrently", "create index concurrently orders_amount_idx on orders (amount)"),
    ("view/create-or-replace",
     "create or replace view v_orders (id, amt) as select orders.id, orders.amount from orders "
     "where orders.amount > 0"),
    ("sequence/create", "create sequence s1 cache 5 increment 2 start 10"),
    ("rename/column", "alter table orders rename note to remark"),
]


def _run(conn, *scripts: str) -> str:
    with conn.cursor() as cur:
        for s in scripts:
            if s.strip():
                cur.execute(s)
    return snapshot(conn)


@pytest.mark.parametrize("case, text", FIXTURE_PAIRS, ids=[c for c, _ in FIXTURE_PAIRS])
def test_hand_written_builds_what_the_tree_builds(case, text, pg_db):
    t = pg(text)
    assert I406 in codes(t)
    tree = ddlc.translate(json.loads((CASES / case / "input.json").read_text("utf-8")), target="postgres")
    setup = CASES / case / "setup.postgres.sql"
    got = _run(pg_db, setup.read_text("utf-8") if setup.exists() else "", t.sql)
    assert got == (CASES / case / "expected.catalog.txt").read_text("utf-8")
    assert tree.sql == (CASES / case / "expected.postgres.sql").read_text("utf-8")


SETUP = "CREATE SCHEMA s; CREATE TABLE public.p (id int PRIMARY KEY); CREATE TABLE s.base (z int);"
# statements PostgreSQL reads too: ddlc's output must build exactly what the statement builds itself
SERVER_SCRIPTS = [
    ["create table t (id int primary key, b varchar(20)[] not null default '{}', c numeric(10), d char, "
     "e timestamp, f timestamp(3) with time zone, g interval day to second(3), h double precision, "
     "k int constraint k_fk references p (id) on delete cascade, l bit(3), m text collate \"C\", "
     "n int generated always as (id * 2) stored, constraint ck check (id > 0), unique (c, d), "
     "foreign key (k) references p)"],
    ["create table if not exists s.t (a int unique deferrable initially deferred, b text check (b <> '')) "
     "inherits (s.base) with (fillfactor = 70)",
     "create unique index ti on s.t using btree (abs(z) desc nulls last, a) include (z) where a > 0",
     "alter table s.t add column c int not null default 0, add constraint c_pos check (c >= 0), drop column b",
     "alter table s.t rename c to c2", "alter table s.t rename constraint c_pos to c_nonneg",
     "alter index s.ti rename to ti2", "comment on column s.t.c2 is 'count'", "comment on table s.t is 'the t'",
     "create sequence s.q as integer increment -2 minvalue -100 maxvalue -1 cache 4 cycle owned by s.t.a",
     "create or replace view s.v (x, y) as select a, c2 from s.t where a > 1",
     "create schema if not exists s2", "alter schema s2 rename to s3",
     "create unlogged table s3.u ()", "drop table s3.u", "drop schema s3 cascade",
     "drop view s.v", "drop index s.ti2 cascade"],
]


@pytest.mark.parametrize("script", SERVER_SCRIPTS, ids=[f"script{i}" for i in range(len(SERVER_SCRIPTS))])
def test_output_builds_what_the_statements_build(script, pg_server):
    outputs = []
    for text in script:
        t = pg(text)
        assert t.sql.strip(), text
        outputs.append(t.sql)
    direct, translated = pg_server.fresh_database(), pg_server.fresh_database()
    with pg_server.connect(direct) as a, pg_server.connect(translated) as b:
        expected = _run(a, SETUP, *script)
        assert _run(b, SETUP, *outputs) == expected
