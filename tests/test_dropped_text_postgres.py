"""PostgreSQL target: the comment text of a dropped clause is the GaussDB backend's own (issue 21.3).

The ALTER TABLE rules (alter, alter_columns, alter_partitions) and the emitters' drops (a constraint of an
ALTER on a table partitioned per the history, a partition clause not translated, INTERVAL) write no GaussDB
text of their own: each comment below is what the GaussDB text of the statement before the drop has that
the text after it has not (tests/test_dropped_text.py tests the mechanism).
"""

from __future__ import annotations

import copy
import json

import pytest

import ddlc
from conftest import ROOT

CASES = ROOT / "fixtures" / "cases"


def comments(doc, target: str = "postgres") -> list[str]:
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


def alter(*subs: dict, table: str = "t") -> dict:
    return copy.deepcopy({"fmt": "ALTER %{objtype}s %{only}s %{identity}D %{subcmds:, }s", "only": "",
                          "objtype": "TABLE", "subcmds": list(subs), "identity": ident(table)})


_GENERATED = {"fmt": "GENERATED ALWAYS AS (%{generation_expr}s) STORED", "generation_expr": "(a + 1)"}
_NO_DEFAULT = {"fmt": "DEFAULT %{default}s", "present": False}
_NO_GENERATED = {"fmt": "GENERATED ALWAYS AS (%{generation_expr}s) STORED", "present": False}

MODIFY_FULL = alter({
    "fmt": "MODIFY COLUMN %{column}I %{datatype}T CHARACTER SET %{charset}s ON UPDATE %{on_update}s %{not_null}s "
           "%{generated_column}s %{default}s COLLATE %{name}D FIRST", "type": "modify column", "column": "c",
    "datatype": typ("varchar", "(20)"), "charset": "utf8mb4", "on_update": "CURRENT_TIMESTAMP", "not_null": "NULL",
    "generated_column": _GENERATED, "default": {"fmt": "DEFAULT %{default}s", "default": "'x'::character varying"},
    "name": ident("utf8mb4_bin", "pg_catalog")})


@pytest.mark.parametrize(("doc", "expected"), [
    # alter_columns: MODIFY / CHANGE, every clause as GaussDB writes it (the generated column with its STORED)
    (MODIFY_FULL, ["DDLC-W698: not translated: FIRST", "DDLC-W694: not translated: CHARACTER SET utf8mb4",
                   "DDLC-W615: not translated: COLLATE pg_catalog.utf8mb4_bin",
                   "DDLC-W616: not translated: ON UPDATE CURRENT_TIMESTAMP",
                   "DDLC-W700: not translated: GENERATED ALWAYS AS ((a + 1)) STORED"]),
    (case("alter_table/b-compat-modify-change"),
     ["DDLC-W698: not translated: AFTER id", "DDLC-W694: not translated: DEFAULT CHARACTER SET = UTF8",
      "DDLC-W698: not translated: FIRST", "DDLC-W701: not translated: ALTER TABLE db1.t_b AUTO_INCREMENT 1000"]),
    # alter: a storage parameter not valid for the relation, with its value
    ("ALTER INDEX s.i SET (fillfactor=70, autovacuum_enabled=false)",
     ["DDLC-W696: not translated: autovacuum_enabled = false"]),
    ("ALTER TABLE s.t RESET (fillfactor, deduplicate_items)", ["DDLC-W696: not translated: deduplicate_items"]),
    # alter_partitions: the tablespace of a partition
    ("ALTER TABLE s.t ADD PARTITION p2 VALUES LESS THAN (10) TABLESPACE ts",
     ["DDLC-W691: not translated: TABLESPACE ts",
      "DDLC-W690: not translated: ALTER TABLE s.t ADD PARTITION p2 VALUES LESS THAN (10)"]),
    # partitions (emitter): INTERVAL, as the GaussDB text of the clause has it
    (case("create_table/interval"), ["DDLC-W630: not translated: INTERVAL ('1 month')"]),
])
def test_the_comment_shows_the_clause_as_gaussdb_writes_it(doc, expected):
    assert comments(doc) == expected


@pytest.mark.parametrize(("sql", "expected"), [
    # a rule's (a subcommand with no PostgreSQL form) and an emitter's (no history)
    ('ALTER TABLE "My S"."Orders" ADD PARTITION p3', 'DDLC-W704: not translated: ALTER TABLE "My S"."Orders" '
     "ADD PARTITION p3"),
    ('ALTER TABLE "My S"."Orders" ADD PARTITION p2 VALUES LESS THAN (10)',
     'DDLC-W690: not translated: ALTER TABLE "My S"."Orders" ADD PARTITION p2 VALUES LESS THAN (10)'),
])
def test_a_dropped_subcommand_is_shown_in_its_statement_as_gaussdb_writes_it(sql, expected):
    """The statement with that subcommand alone: its name quoted as GaussDB quotes it (was ``My S.Orders``)."""
    assert comments(sql) == [expected]


def test_a_partition_clause_not_translated_is_shown_as_gaussdb_writes_it():
    table = {"fmt": "CREATE %{persistence}s TABLE %{if_not_exists}s %{identity}D %{table_elements}s %{partition_by}s",
             "identity": ident("t", "s"), "persistence": "", "if_not_exists": "",
             "table_elements": {"fmt": "(%{elements:, }s)", "elements": [
                 {"fmt": "%{name}I %{coltype}T", "name": "a", "type": "column", "coltype": typ("int4")}]},
             "partition_by": "PARTITION BY RANGE (a) (PARTITION p1 VALUES LESS THAN (1)) WHATEVER"}
    assert comments(table) == [
        "DDLC-N610: not translated: PARTITION BY RANGE (a) (PARTITION p1 VALUES LESS THAN (1)) WHATEVER"]


def test_a_constraint_the_history_refuses_is_shown_as_its_subcommand():
    """ALTER TABLE ... ADD CONSTRAINT on a table partitioned by an expression (per the history): the emitter drops
    the key (it cannot hold the expression, and the expression is no column to append) and the exclusion
    constraint, and the comment shows each subcommand as the other dropped subcommands are."""
    table = {"fmt": "CREATE %{persistence}s TABLE %{if_not_exists}s %{identity}D %{table_elements}s %{partition_by}s",
             "identity": ident("r"), "persistence": "", "if_not_exists": "",
             "table_elements": {"fmt": "(%{elements:, }s)", "elements": [
                 {"fmt": "%{name}I %{coltype}T", "name": "id", "type": "column", "coltype": typ("int4")}]},
             "partition_by": "PARTITION BY RANGE (abs(id)) (PARTITION p1 VALUES LESS THAN (100))"}
    key, exclude = ({"fmt": "ADD CONSTRAINT %{name}I %{definition}s", "type": "add constraint", "name": name,
                     "definition": definition}
                    for name, definition in (("r_pk", "PRIMARY KEY (id)"), ("r_x", "EXCLUDE USING btree (id WITH =)")))
    out = list(ddlc.translate_many([json.dumps(table), json.dumps(alter(key, exclude, table="r"))], "postgres",
                                   on_unsupported="comment"))
    assert out[1].statements == ()
    assert [c.removeprefix("-- ddlc ") for c in out[1].comments] == [
        "DDLC-W625: not translated: ALTER TABLE public.r ADD CONSTRAINT r_pk PRIMARY KEY (id)",
        "DDLC-W626: not translated: ALTER TABLE public.r ADD CONSTRAINT r_x EXCLUDE USING btree (id WITH =)"]


def test_auto_increment_of_an_added_column_keeps_its_hand_written_text():
    """The GaussDB text of an added column has no AUTO_INCREMENT (the server's ALTER form of the column stops
    after its collation), so no difference can show it: pinned in test_dropped_text.HAND_WRITTEN."""
    add = {"fmt": "ADD %{objtype}s %{if_not_exists}s %{definition}s %{cascade}s", "type": "add column",
           "cascade": "", "objtype": "COLUMN", "if_not_exists": "",
           "definition": {"fmt": "%{name}I %{coltype}T %{collation}s", "name": "f", "type": "column",
                          "coltype": typ("float8"), "collation": {"fmt": "COLLATE %{name}D", "present": False}}}
    assert comments(alter(add)) == ["DDLC-W627: not translated: f AUTO_INCREMENT"]
