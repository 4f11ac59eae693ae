"""Spark target: the comment text of a dropped clause is the GaussDB backend's own (issue 21.3).

The Spark rules (table, alter, objects, ctas) and emitters write no GaussDB text of their own, but for
AUTO_INCREMENT of an altered column (not in the GaussDB text) and TRUNCATE's clauses (a statement GaussDB writes
as its text): each comment below is what the GaussDB text of the node before the drop has that the text after
it has not, or the node dropped as GaussDB writes it (tests/test_dropped_text.py tests the mechanism and pins
the hand-written ones).
"""

from __future__ import annotations

import json

import pytest

import ddlc
from conftest import ROOT

CASES = ROOT / "fixtures" / "cases"


def comments(doc, target: str = "spark") -> list[str]:
    if isinstance(doc, str):
        doc = {"TDDL": doc}
    t = ddlc.translate(json.dumps(doc), target, on_unsupported="comment")
    return [c.removeprefix("-- ddlc ") for c in t.comments]


def case(path: str) -> dict:
    return json.loads((CASES / path / "input.json").read_text("utf-8"))


def ident(name: str, schema: str = "public") -> dict:
    return {"objname": name, "schemaname": schema}


def typ(name: str, typmod: str = "") -> dict:
    return {"typmod": typmod, "typarray": False, "typename": name, "schemaname": "pg_catalog"}


def alter(*subs: dict) -> dict:
    return {"fmt": "ALTER %{objtype}s %{only}s %{identity}D %{subcmds:, }s", "only": "", "objtype": "TABLE",
            "subcmds": list(subs), "identity": ident("t")}


def column(name: str, t: dict) -> dict:
    return {"fmt": "%{name}I %{coltype}T", "name": name, "type": "column", "coltype": t}


def constraint(name: str, contype: str, definition: str) -> dict:
    return {"fmt": "CONSTRAINT %{name}I %{definition}s", "type": "constraint", "contype": contype, "name": name,
            "definition": definition}


def table(*elements: dict, extra: str = "", **kw: object) -> dict:
    return {"fmt": "CREATE %{persistence}s TABLE %{if_not_exists}s %{identity}D %{table_elements}s" + extra,
            "identity": ident("t", "s"), "persistence": "", "if_not_exists": "",
            "table_elements": {"fmt": "(%{elements:, }s)", "elements": list(elements)}, **kw}


MODIFY = alter({
    "fmt": "MODIFY COLUMN %{column}I %{datatype}T CHARACTER SET %{charset}s ON UPDATE %{on_update}s %{not_null}s "
           "%{generated_column}s %{default}s COLLATE %{name}D FIRST", "type": "modify column", "column": "c",
    "datatype": typ("varchar", "(20)"), "charset": "utf8mb4", "on_update": "CURRENT_TIMESTAMP", "not_null": "NULL",
    "generated_column": {"fmt": "GENERATED ALWAYS AS (%{generation_expr}s) STORED", "generation_expr": "(a + 1)"},
    "default": {"fmt": "DEFAULT %{default}s", "default": "'x'::character varying"},
    "name": ident("utf8mb4_bin", "pg_catalog")})


@pytest.mark.parametrize(("doc", "expected"), [
    # table: a rewrite and fields, as GaussDB writes them (its quoting, its spacing)
    (case("create_table/global-temporary"), ["DDLC-W821: not translated: GLOBAL TEMPORARY ... ON COMMIT PRESERVE ROWS"]),
    (case("create_table/storage-options"),
     ["DDLC-W820: not translated: fillfactor = 70", "DDLC-W820: not translated: autovacuum_vacuum_scale_factor = 0.05",
      "DDLC-W820: not translated: toast. autovacuum_enabled = false", "DDLC-W820: not translated: segment = 'on'",
      "DDLC-W820: not translated: hashbucket = 'on'", "DDLC-W820: not translated: TABLESPACE ts1"]),
    (case("create_table/range-multi-column"), ["DDLC-W820: not translated: TABLESPACE ts2"]),
    ("CREATE TABLE s.t (a int) INHERITS (s.p, q)", ["DDLC-W820: not translated: INHERITS (s.p, public.q)"]),
    (table(column("a", typ("int4")), constraint("t_c", "check", "CHECK ((a > 0)) DISABLE"),
           constraint("t_x", "exclusion", "EXCLUDE USING btree (a WITH =)"),
           extra=" %{compression}s", compression="COMPRESS"),
     ["DDLC-W823: not translated: CONSTRAINT t_c CHECK ((a > 0)) DISABLE",
      "DDLC-W823: not translated: CONSTRAINT t_x EXCLUDE USING btree (a WITH =)",
      "DDLC-W820: not translated: COMPRESS"]),
    # alter: MODIFY's clauses (several spans joined by " ... "), the generated column with its STORED
    (MODIFY, ["DDLC-W822: not translated: CHARACTER SET utf8mb4 ... COLLATE pg_catalog.utf8mb4_bin",
              "DDLC-W822: not translated: ON UPDATE CURRENT_TIMESTAMP",
              "DDLC-W840: not translated: GENERATED ALWAYS AS ((a + 1)) STORED",
              'DDLC-W841: not translated: MODIFY COLUMN c pg_catalog."varchar"(20)']),
    (case("alter_table/mixed-subcommands"),
     ["DDLC-W840: not translated: CASCADE", "DDLC-W841: not translated: ALTER COLUMN id SET DATA TYPE pg_catalog.int8"]),
    # objects and ctas
    ("DROP TABLE s.t CASCADE", ["DDLC-W832: not translated: CASCADE"]),
    ("ALTER TABLE IF EXISTS s.t RENAME COLUMN a TO b", ["DDLC-W832: not translated: IF EXISTS"]),
    ("CREATE SCHEMA s AUTHORIZATION bob", ["DDLC-W832: not translated: AUTHORIZATION bob"]),
    ("RENAME TABLE public.a TO other.b", ["DDLC-W831: not translated: public.a TO other.b"]),
    ('CREATE TABLE "My Schema"."T x" ("Col 1") TABLESPACE "ts 1" AS SELECT 1',
     ['DDLC-W820: not translated: TABLESPACE "ts 1"']),
    ("CREATE TABLE public.t WITH (orientation = 'row', fillfactor=70) AS SELECT 1 AS a",
     ["DDLC-W820: not translated: fillfactor = 70"]),
    ("CREATE UNLOGGED TABLE public.t AS SELECT a FROM public.s", ["DDLC-W821: not translated: UNLOGGED"]),
])
def test_the_comment_shows_the_clause_as_gaussdb_writes_it(doc, expected):
    assert comments(doc) == expected


def test_truncate_keeps_its_hand_written_texts():
    """GaussDB writes TRUNCATE as its text, which the rules leave as it is: no difference can show the clauses."""
    assert comments("TRUNCATE TABLE s.t RESTART IDENTITY CASCADE") == [
        "DDLC-W832: not translated: RESTART IDENTITY", "DDLC-W832: not translated: CASCADE"]


@pytest.mark.parametrize(("doc", "expected"), [
    # CREATE TABLE: what an emitter drops, in the GaussDB text of the table (the column, the constraint whole)
    ("CREATE TABLE s.t (a int, b int DEFAULT pg_catalog.txid_current(), c int GENERATED ALWAYS AS (random()) "
     "STORED, CONSTRAINT ck CHECK (a > pg_catalog.txid_current()), CONSTRAINT fk FOREIGN KEY (a) REFERENCES s.p)",
     ["DDLC-W810: not translated: DEFAULT pg_catalog.txid_current()",
      "DDLC-W810: not translated: GENERATED ALWAYS AS (random()) STORED",
      "DDLC-W810: not translated: CONSTRAINT ck CHECK (a > pg_catalog.txid_current())",
      "DDLC-W812: not translated: CONSTRAINT fk FOREIGN KEY (a) REFERENCES s.p"]),
    (case("create_table/every-mapped-type"),
     ['DDLC-W822: not translated: COLLATE pg_catalog."C"', "DDLC-W822: not translated: COLLATE pg_catalog.utf8mb4_bin",
      "DDLC-W826: not translated: DEFAULT nextval('public.all_types_c_largeserial_seq'::regclass)"]),
    (table(column("a", typ("int4")), extra=" %{partition_by}s",
           partition_by="PARTITION BY RANGE (abs(a)) (PARTITION p1 VALUES LESS THAN (10))"),
     ["DDLC-W825: not translated: PARTITION BY RANGE (abs(a)) (PARTITION p1 VALUES LESS THAN (10))"]),
    (table(column("a", typ("int4")), extra=" %{partition_by}s",
           partition_by="PARTITION BY RANGE (a) (PARTITION p1 VALUES LESS THAN (1)) WHATEVER"),
     ["DDLC-W825: not translated: PARTITION BY RANGE (a) (PARTITION p1 VALUES LESS THAN (1)) WHATEVER"]),
    # ALTER TABLE: the subcommand as GaussDB writes it; a MODIFY / CHANGE with its column and type only (the
    # rest of it is translated)
    ("ALTER TABLE s.t ALTER COLUMN a SET DEFAULT pg_catalog.txid_current()",
     ["DDLC-W810: not translated: ALTER COLUMN a SET DEFAULT pg_catalog.txid_current()"]),
    ("ALTER TABLE s.t ADD COLUMN z int DEFAULT pg_catalog.txid_current()",
     ["DDLC-W810: not translated: DEFAULT pg_catalog.txid_current()"]),
    ("ALTER TABLE s.t ADD CONSTRAINT ck2 CHECK (a > pg_catalog.txid_current())",
     ["DDLC-W810: not translated: ADD CONSTRAINT ck2 CHECK (a > pg_catalog.txid_current())"]),
    ("ALTER TABLE s.t DROP PRIMARY KEY", ["DDLC-W840: not translated: DROP PRIMARY KEY"]),
    (case("alter_table/b-compat-modify-change"),
     ["DDLC-W840: not translated: AUTO_INCREMENT 1000", "DDLC-W840: not translated: DEFAULT CHARACTER SET = UTF8",
      "DDLC-W841: not translated: MODIFY COLUMN upd pg_catalog.int8",
      'DDLC-W841: not translated: CHANGE c1 c2 pg_catalog."varchar"(10)']),
])
def test_what_an_emitter_drops_is_shown_as_gaussdb_writes_it(doc, expected):
    assert comments(doc) == expected


def test_auto_increment_of_a_column_that_cannot_be_an_identity_column():
    doc = case("create_table/b-compat-auto-increment-comment")
    doc["table_elements"]["elements"][0]["coltype"] = typ("float8")
    assert comments(doc) == ["DDLC-W822: not translated: ON UPDATE CURRENT_TIMESTAMP",
                             "DDLC-W826: not translated: AUTO_INCREMENT"]
