"""PostgreSQL emitters for CREATE TABLE (with partitions) and CREATE TYPE: input tree -> statements and
diagnostic codes, --on-unsupported error / comment, the partition naming rule, and the decisions that
need a real server to prove (storage parameters, where NULL keys go, rebuilt constraints)."""

from __future__ import annotations

import copy

import pglast
import pytest

import ddlc
from ddlc.backends.postgres import Emit, PostgresBackend
from ddlc.backends.postgres.partitions import partition_table_name
from ddlc.backends.postgres.table import HEAP_OPTIONS, TOAST_OPTIONS, rebuild_constraint
from ddlc.errors import DdlcError
from ddlc.frontend.build import build
from ddlc.frontend.sql.constraints import parse_constraint
from ddlc.passes import PassContext

# -- trees in the deparser's shapes (jddl-shapes.md §3, §5.1) --------------------------------


def load() -> dict:
    """The PostgreSQL backend's node -> emitter table."""
    return dict(PostgresBackend.emitters)


def typ(name, schema="pg_catalog", typmod="", array=False):
    return {"typmod": typmod, "typarray": array, "typename": name, "schemaname": schema}


def col(name, t, *, collate=None, default=None, not_null=False, auto_inc=False, on_update=None, generated=None,
        persisted=False):
    fmt = ["%{name}I %{coltype}T %{collation}s"]
    d = {"name": name, "type": "column", "coltype": t,
         "collation": {"fmt": "COLLATE %{name}D", "present": False},
         "default": {"fmt": "DEFAULT %{default}s", "present": False},
         "generated_column": {"fmt": "GENERATED ALWAYS AS (%{generation_expr}s) STORED", "present": False}}
    if collate is not None:
        sch, nm = ("pg_catalog", "default") if collate == "default" else collate
        d["collation"] = {"fmt": "COLLATE %{name}D", "name": {"objname": nm, "schemaname": sch}}
    if default is not None:
        d["default"] = {"fmt": "DEFAULT %{default}s", "default": default}
    if generated is not None:
        d["generated_column"] = {"fmt": "AS (%{generation_expr}s) PERSISTED" if persisted else
                                 "GENERATED ALWAYS AS (%{generation_expr}s) STORED", "generation_expr": generated}
    if auto_inc:
        fmt.append("%{auto_increment}s")
        d["auto_increment"] = "AUTO_INCREMENT"
    fmt.append("%{default}s")
    if on_update is not None:
        fmt.append("ON UPDATE %{on_update}s")
        d["on_update"] = on_update
    if not_null:
        fmt.append("%{not_null}s")
        d["not_null"] = "NOT NULL"
    fmt.append("%{generated_column}s")
    d["fmt"] = " ".join(fmt)
    return d


def con(name, contype, definition):
    return {"fmt": "CONSTRAINT %{name}I %{definition}s", "name": name, "type": "constraint", "contype": contype,
            "definition": definition}


def opt(label, value=None, kind="L", schema=None):
    lab = {"fmt": "%{label}I", "label": label}
    if schema is not None:
        lab = {"fmt": "%{schema}I. %{label}I", "schema": schema, "label": label}
    if value is None:
        return {"fmt": "%{label}s", "label": lab}
    return {"fmt": "%{label}s = %{value}" + kind, "label": lab, "value": value}


DEFAULT_WITH = [opt("orientation", "row"), opt("compression", "no")]


def table(*elements, name="t", schema="s", with_=None, persistence="", ine="", partition_by=None, tail="",
          **keys):
    fmt = "CREATE %{persistence}s TABLE %{if_not_exists}s %{identity}D %{table_elements}s %{inherits}s"
    d = {"identity": {"objname": name, "schemaname": schema}, "persistence": persistence, "if_not_exists": ine,
         "inherits": {"fmt": "INHERITS (%{parents:, }D)", "present": False}, "myowner": "alice",
         "table_elements": {"fmt": "(%{elements:, }s)", "elements": list(elements)} if elements else {"fmt": "()"}}
    if tail:
        fmt += " " + tail
    fmt += " WITH (%{with:, }s)"
    d["with"] = DEFAULT_WITH if with_ is None else with_
    for k, v in keys.items():
        d[k] = v
    if "on_commit" in keys:
        fmt += " %{on_commit}s"
    if "tablespace" in keys:
        fmt += " TABLESPACE %{tablespace}I"
    if partition_by is not None:
        fmt += " %{partition_by}s"
        d["partition_by"] = partition_by
    d["fmt"] = fmt
    return d


I4, I8, TEXT = typ("int4"), typ("int8"), typ("text")


def run(tree, **opts):
    return ddlc.translate(copy.deepcopy(tree), target="postgres", **opts)


def codes(result):
    return sorted({d.code for d in result.diagnostics})


# -- rows: tree -> statements, codes -----------------------------------------------------------

ROWS = {
    "plain": (
        table(col("a", I4, not_null=True), col("b", TEXT, collate="default", default="'x'::text")),
        ["CREATE TABLE s.t (a integer NOT NULL, b text DEFAULT 'x'::text)"],
        ["DDLC-I610"]),
    "no-elements-if-not-exists": (
        table(ine="IF NOT EXISTS"), ["CREATE TABLE IF NOT EXISTS s.t ()"], ["DDLC-I610"]),
    "quoted-names-and-literals": (
        table(col("Order", I4), col("user", TEXT, default="'it''s \\ raw'::text"), name="My Table", schema="select"),
        # a backslash in a literal: printed from the parse as E'' (the same under any standard_conforming_strings)
        ['CREATE TABLE "select"."My Table" ("Order" integer, "user" text DEFAULT CAST(E\'it\'\'s \\\\ raw\' AS text))'],
        ["DDLC-I610"]),
    "collations": (
        table(col("a", TEXT, collate=("pg_catalog", "C")), col("b", TEXT, collate=("pg_catalog", "POSIX")),
              col("c", TEXT, collate=("pg_catalog", "ucs_basic")), col("d", TEXT, collate=("app", "fr")),
              col("e", TEXT, collate=("pg_catalog", "utf8mb4_general_ci"))),
        ['CREATE TABLE s.t (a text COLLATE pg_catalog."C", b text COLLATE pg_catalog."POSIX", '
         "c text COLLATE pg_catalog.ucs_basic, d text COLLATE app.fr, e text)"],
        ["DDLC-I610", "DDLC-W615"]),
    "generated-and-rewritten-default": (
        table(col("a", I4, default="nvl(NULL, 1)"), col("b", I4, generated="(a * 2)"),
              col("c", I4, generated="(a * 3)", persisted=True)),
        ["CREATE TABLE s.t (a integer DEFAULT COALESCE(NULL, 1), b integer GENERATED ALWAYS AS ((a * 2)) STORED, "
         "c integer GENERATED ALWAYS AS ((a * 3)) STORED)"],
        ["DDLC-I602", "DDLC-I610", "DDLC-I618"]),
    "gauss-only-default-dropped": (  # no PostgreSQL form: the default is never emitted
        table(col("a", TEXT, default="months_between(sysdate, '2020-01-01')"), col("b", I4)),
        ["CREATE TABLE s.t (a text, b integer)"], ["DDLC-I610", "DDLC-W603"]),
    "gauss-default-close-form": (
        table(col("a", TEXT, default="sys_guid()")),
        ["CREATE TABLE s.t (a text DEFAULT upper(replace(CAST(gen_random_uuid() AS text), '-', '')))"],
        ["DDLC-I603", "DDLC-I610"]),
    "auto-increment-and-comment": (
        table(col("id", I8, auto_inc=True, not_null=True),
              col("u", typ("TIMESTAMP", ""), on_update="CURRENT_TIMESTAMP"),
              tail="AUTO_INCREMENT = %{autoincstart}s %{options:, }s", autoincstart="9000000000",
              options=[{"fmt": "COMMENT=%{comment}L", "comment": "second"},
                       {"fmt": "COMMENT=%{comment}L", "comment": "first's"}]),
        ["CREATE TABLE s.t (id bigint GENERATED BY DEFAULT AS IDENTITY (START WITH 9000000000) NOT NULL, u TIMESTAMP)",
         "COMMENT ON TABLE s.t IS 'second'"],
        ["DDLC-I610", "DDLC-I611", "DDLC-I612", "DDLC-W616"]),
    "auto-increment-not-integer": (
        table(col("id", typ("numeric", typmod="(10,0)"), auto_inc=True)),
        ["CREATE TABLE s.t (id numeric(10,0))"], ["DDLC-I610", "DDLC-W627"]),
    "storage-options": (
        table(col("a", I4), with_=[opt("orientation", "row"), opt("fillfactor", "70", "s"),
                                   opt("autovacuum_enabled", "false", "s"),
                                   opt("fillfactor", "70", "s", schema="toast"),
                                   opt("vacuum_truncate", "false", "s", schema="toast"), opt("storage_type", "ustore"),
                                   opt("compresstype", "2", "s"), opt("user_catalog_table"),
                                   opt("compression", "no")]),
        ["CREATE TABLE s.t (a integer) WITH (fillfactor = 70, autovacuum_enabled = false, "
         "toast.vacuum_truncate = false, user_catalog_table)"],
        ["DDLC-I610", "DDLC-W610"]),
    "column-store-and-compress": (
        table(col("a", I4), with_=[opt("orientation", "column"), opt("compression", "middle")],
              tail="%{compression}s", compression="COMPRESS"),
        ["CREATE TABLE s.t (a integer)"], ["DDLC-W610", "DDLC-W614"]),
    "tablespace": (
        table(col("a", I4), tablespace="ts1"), ["CREATE TABLE s.t (a integer)"], ["DDLC-I610", "DDLC-W611"]),
    "global-temporary": (
        table(col("a", I4), persistence="GLOBAL TEMPORARY",
              on_commit={"fmt": "ON COMMIT %{on_commit_value}s", "on_commit_value": "DELETE ROWS"}),
        ["CREATE TABLE s.t (a integer)"], ["DDLC-I610", "DDLC-W617"]),
    "temporary": (
        table(col("a", I4), schema="pg_temp", persistence="TEMPORARY",
              on_commit={"fmt": "ON COMMIT %{on_commit_value}s", "on_commit_value": "DELETE ROWS"}),
        ["CREATE TEMPORARY TABLE pg_temp.t (a integer) ON COMMIT DELETE ROWS"], ["DDLC-I610"]),
    "ledger": (
        table(col("mes", I4), col("hash_a1d895", typ("hash16"))),
        ["CREATE TABLE s.t (mes integer)"], ["DDLC-I610", "DDLC-W618"]),
    "hash16-not-ledger": (
        table(col("h", typ("hash16"))), ["CREATE TABLE s.t (h bytea)"], ["DDLC-I610", "DDLC-W602"]),
    "persisted-without-type": (
        table(col("a", I4), {"fmt": "%{name}I %{default}s %{generated_column}s %{collation}s", "name": "b",
                             "type": "column",
                             "coltype": {"typmod": "", "present": False, "typename": "", "schemaname": ""},
                             "default": {"fmt": "DEFAULT %{default}s", "present": False},
                             "generated_column": {"fmt": "AS (%{generation_expr}s) PERSISTED",
                                                  "generation_expr": "(a * 2)"},
                             "collation": {"fmt": "COLLATE %{name}D", "present": False}}),
        ["CREATE TABLE s.t (a integer)"], ["DDLC-I610", "DDLC-W624"]),
    "constraints-as-written": (
        table(col("a", I4), col("b", I4),
              con("t_pkey", "primary key", "PRIMARY KEY (a) WITH (fillfactor=80)"),
              con("t_b_key", "unique", "UNIQUE (b) INCLUDE (a) DEFERRABLE INITIALLY DEFERRED"),
              con("t_b_check", "check", "CHECK ((b > 0)) NO INHERIT"),
              con("t_x", "exclusion", "EXCLUDE USING btree (a WITH =)")),
        ["CREATE TABLE s.t (a integer, b integer, CONSTRAINT t_pkey PRIMARY KEY (a) WITH (fillfactor=80), "
         "CONSTRAINT t_b_key UNIQUE (b) INCLUDE (a) DEFERRABLE INITIALLY DEFERRED, "
         "CONSTRAINT t_b_check CHECK ((b > 0)) NO INHERIT, CONSTRAINT t_x EXCLUDE USING btree (a WITH =))"],
        ["DDLC-I610"]),
    "constraints-gauss-only": (
        table(col("a", I4), col("b", I4),
              {**con("t_pkey", "primary key", "PRIMARY KEY (a) USING INDEX TABLESPACE ts"),
               "fmt": "CONSTRAINT %{name}I %{definition}s USING INDEX TABLESPACE %{tblspc}s", "tblspc": "ts"},
              con("t_u", "unique", "UNIQUE (a DESC, b) WITH (fillfactor=70, compression=yes)"),
              con("t_c", "check", "CHECK ((b > 0)) DISABLE"),
              con("t_i", "unique", "disable optimization Informational Constraint UNIQUE (b)"),
              con("t_k", "unique", "PARTIAL CLUSTER KEY (a)")),
        ["CREATE TABLE s.t (a integer, b integer, CONSTRAINT t_pkey PRIMARY KEY (a), "
         "CONSTRAINT t_u UNIQUE (a, b) WITH (fillfactor = 70))"],
        ["DDLC-I610", "DDLC-N101", "DDLC-W610", "DDLC-W612", "DDLC-W619", "DDLC-W620", "DDLC-W621", "DDLC-W622"]),
    "foreign-key-element": (
        table(col("a", I4), con("t_fk", "foreign key",
                                "FOREIGN KEY (a) REFERENCES s.p(id) MATCH FULL ON UPDATE SET NULL ON DELETE CASCADE "
                                "DEFERRABLE INITIALLY DEFERRED")),
        ["CREATE TABLE s.t (a integer, CONSTRAINT t_fk FOREIGN KEY (a) REFERENCES s.p(id) MATCH FULL ON UPDATE SET "
         "NULL ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED)"],
        ["DDLC-I610"]),
    "typed-unlogged-inherits": (
        {"fmt": "CREATE %{persistence}s TABLE %{if_not_exists}s %{identity}D OF %{of_type}T WITH (%{with:, }s)",
         "with": [opt("fillfactor", "50", "s")], "of_type": typ("pt", "s"),
         "identity": {"objname": "t", "schemaname": "s"},
         "persistence": "UNLOGGED", "if_not_exists": ""},
        ["CREATE UNLOGGED TABLE s.t OF s.pt WITH (fillfactor = 50)"], []),
    "inherits": (
        {**table(col("extra", I4)), "inherits": {"fmt": "INHERITS (%{parents:, }D)", "parents": [
            {"objname": "p1", "schemaname": "s"}, {"objname": "P2", "schemaname": "s"}]}},
        ['CREATE TABLE s.t (extra integer) INHERITS (s.p1, s."P2")'], ["DDLC-I610"]),
    "gaussdb-dialect": (
        {"JDDL": {"fmt": "CREATE %{persistence}s TABLE %{if_not_exists}s %{identity}D %{table_elements}s "
                         "%{with_clause}s %{compression}s",
                  "identity": {"object_name": "t", "schema_name": "s"}, "compression": "NOCOMPRESS", "persistence": "",
                  "with_clause": {"fmt": "WITH (%{with:, }s)", "with": [opt("storage_type", "astore"),
                                                                         opt("orientation", "row")]},
                  "if_not_exists": "", "table_elements": {"fmt": "(%{elements:, }s)", "elements": [
                      {"fmt": "%{name}I %{column_type}T", "name": "a",
                       "column_type": {"typmod": "(5)", "typarray": False, "type_name": "varchar2",
                                       "schema_name": "pg_catalog"}}]}}},
        ["CREATE TABLE s.t (a varchar(5))"], ["DDLC-I601", "DDLC-I610"]),
}


@pytest.mark.parametrize("name", list(ROWS))
def test_create_table_rows(name):
    tree, statements, expected_codes = ROWS[name]
    result = run(tree)
    assert list(result.statements) == statements
    for s in result.statements:
        pglast.parse_sql(s)
    assert codes(result) == expected_codes


# -- partitioning ------------------------------------------------------------------------------

def clause(text):
    return "\n" + text


PARTITIONED = {
    "range-single-maxvalue-default": (
        table(col("a", I4), col("b", TEXT, collate="default"), con("t_pkey", "primary key", "PRIMARY KEY (a)"),
              partition_by=clause("PARTITION BY RANGE (a)\n( \n    PARTITION p1 VALUES LESS THAN (10),\n"
                                  "    PARTITION p2 VALUES LESS THAN (20) TABLESPACE ts,\n"
                                  "    PARTITION pmax VALUES LESS THAN (MAXVALUE)\n)")),
        ["CREATE TABLE s.t (a integer, b text, CONSTRAINT t_pkey PRIMARY KEY (a)) PARTITION BY RANGE (a)",
         "CREATE TABLE s.t_p1 PARTITION OF s.t FOR VALUES FROM (MINVALUE) TO (10)",
         "CREATE TABLE s.t_p2 PARTITION OF s.t FOR VALUES FROM (10) TO (20)",
         "CREATE TABLE s.t_pmax PARTITION OF s.t DEFAULT"],
        ["DDLC-I610", "DDLC-I616", "DDLC-W613"]),
    "range-typed-and-expression-bounds": (
        table(col("d", typ("TIMESTAMP", "", "(0) without time zone")),
              partition_by=clause("PARTITION BY RANGE (d)\n( \n    PARTITION p1 VALUES LESS THAN (DATE '2020-01-01'),\n"
                                  "    PARTITION p2 VALUES LESS THAN (TIMESTAMP '2021-01-01 00:00:00'),\n"
                                  "    PARTITION p3 VALUES LESS THAN (TO_DATE('2022-01-01', 'YYYY-MM-DD'))\n)")),
        ["CREATE TABLE s.t (d TIMESTAMP(0) without time zone) PARTITION BY RANGE (d)",
         "CREATE TABLE s.t_p1 PARTITION OF s.t FOR VALUES FROM (MINVALUE) TO ('2020-01-01')",
         "CREATE TABLE s.t_p2 PARTITION OF s.t FOR VALUES FROM ('2020-01-01') TO (timestamp '2021-01-01 00:00:00')",
         "CREATE TABLE s.t_p3 PARTITION OF s.t FOR VALUES FROM (timestamp '2021-01-01 00:00:00') "
         "TO (CAST(to_timestamp('2022-01-01', 'YYYY-MM-DD') AS timestamp))"],  # GaussDB's to_date keeps the time
        ["DDLC-I603", "DDLC-I610"]),
    "list-strings-escaped": (
        table(col("r", TEXT, collate="default"),
              partition_by=clause("PARTITION BY LIST (r)\n( \n    PARTITION p1 VALUES ('it''s','a\\b'),\n"
                                  "    PARTITION p2 VALUES (DEFAULT)\n)\nDISABLE ROW MOVEMENT")),
        ["CREATE TABLE s.t (r text) PARTITION BY LIST (r)",
         "CREATE TABLE s.t_p1 PARTITION OF s.t FOR VALUES IN ('it''s', E'a\\\\b')",
         "CREATE TABLE s.t_p2 PARTITION OF s.t DEFAULT"],
        ["DDLC-I610", "DDLC-W623"]),
    "list-multi-column-unpartitioned": (
        table(col("a", I4), col("b", I4),
              partition_by=clause("PARTITION BY LIST (a, b)\n( \n    PARTITION p1 VALUES ((1,2)),\n"
                                  "    PARTITION p2 VALUES (DEFAULT)\n)")),
        ["CREATE TABLE s.t (a integer, b integer)"], ["DDLC-I610", "DDLC-W633"]),
    "hash-count-only": (
        table(col("id", I8), partition_by=clause("PARTITION BY HASH (id) PARTITIONS 3")),
        ["CREATE TABLE s.t (id bigint) PARTITION BY HASH (id)",
         "CREATE TABLE s.t_p0 PARTITION OF s.t FOR VALUES WITH (MODULUS 3, REMAINDER 0)",
         "CREATE TABLE s.t_p1 PARTITION OF s.t FOR VALUES WITH (MODULUS 3, REMAINDER 1)",
         "CREATE TABLE s.t_p2 PARTITION OF s.t FOR VALUES WITH (MODULUS 3, REMAINDER 2)"],
        ["DDLC-I610", "DDLC-N611", "DDLC-W631"]),
    "range-hash-subpartitions-temporary": (
        table(col("a", I4), col("b", I4), schema="pg_temp", persistence="TEMPORARY",
              with_=[opt("fillfactor", "60", "s")],
              partition_by=clause("PARTITION BY RANGE (a) SUBPARTITION BY HASH (b)\n( \n"
                                  "    PARTITION p1 VALUES LESS THAN (5)\n    (\n        SUBPARTITION s1,\n"
                                  "        SUBPARTITION s2\n    ),\n    PARTITION p2 VALUES LESS THAN (9)\n)")),
        ["CREATE TEMPORARY TABLE pg_temp.t (a integer, b integer) PARTITION BY RANGE (a)",
         "CREATE TEMPORARY TABLE pg_temp.t_p1 PARTITION OF pg_temp.t FOR VALUES FROM (MINVALUE) TO (5) "
         "PARTITION BY HASH (b)",
         "CREATE TEMPORARY TABLE pg_temp.t_s1 PARTITION OF pg_temp.t_p1 FOR VALUES WITH (MODULUS 2, REMAINDER 0) "
         "WITH (fillfactor = 60)",
         "CREATE TEMPORARY TABLE pg_temp.t_s2 PARTITION OF pg_temp.t_p1 FOR VALUES WITH (MODULUS 2, REMAINDER 1) "
         "WITH (fillfactor = 60)",
         "CREATE TEMPORARY TABLE pg_temp.t_p2 PARTITION OF pg_temp.t FOR VALUES FROM (5) TO (9) PARTITION BY HASH (b)",
         "CREATE TEMPORARY TABLE pg_temp.t_p2_subpartdefault1 PARTITION OF pg_temp.t_p2 "
         "FOR VALUES WITH (MODULUS 1, REMAINDER 0) WITH (fillfactor = 60)"],
        ["DDLC-I613", "DDLC-N611", "DDLC-W631"]),
    "expression-key-drops-unique": (
        table(col("a", I4), con("t_u", "unique", "UNIQUE (a)"), con("t_c", "check", "CHECK ((a > 0)) NO INHERIT"),
              con("t_x", "exclusion", "EXCLUDE USING btree (a WITH =)"),
              partition_by=clause("PARTITION BY RANGE (abs(a))\n( \n    PARTITION p1 VALUES LESS THAN (10)\n)")),
        ["CREATE TABLE s.t (a integer, CONSTRAINT t_c CHECK ((a > 0))) PARTITION BY RANGE ((abs(a)))",
         "CREATE TABLE s.t_p1 PARTITION OF s.t FOR VALUES FROM (MINVALUE) TO (10)"],
        ["DDLC-I610", "DDLC-I619", "DDLC-W625", "DDLC-W626"]),
    "interval-store-in": (
        table(col("d", typ("TIMESTAMP", "", "(0) without time zone")),
              partition_by=clause("PARTITION BY RANGE (d)\nINTERVAL ('1 day') STORE IN (ts1, ts2)\n( \n"
                                  "    PARTITION p0 VALUES LESS THAN ('2024-01-01 00:00:00')\n)")),
        ["CREATE TABLE s.t (d TIMESTAMP(0) without time zone) PARTITION BY RANGE (d)",
         "CREATE TABLE s.t_p0 PARTITION OF s.t FOR VALUES FROM (MINVALUE) TO ('2024-01-01 00:00:00')"],
        ["DDLC-I610", "DDLC-W613", "DDLC-W630"]),
    "clause-not-parsed": (
        table(col("a", I4), partition_by=clause("PARTITION BY RANGE (a) (PARTITION p1 VALUES LESS THAN (1)) WHATEVER")),
        ["CREATE TABLE s.t (a integer)"], ["DDLC-I610", "DDLC-N103", "DDLC-N610"]),
}


@pytest.mark.parametrize("name", list(PARTITIONED))
def test_partitioned_rows(name):
    tree, statements, expected_codes = PARTITIONED[name]
    result = run(tree)
    assert list(result.statements) == statements
    for s in result.statements:
        pglast.parse_sql(s)
    assert codes(result) == expected_codes


def test_unexpanded_range_items_are_not_guessed():
    tree = table(col("a", I4), partition_by=clause(
        "PARTITION BY RANGE (a) (PARTITION p START (1) END (10) EVERY (3))"))
    stmt, _ = build(copy.deepcopy(tree))  # no passes: the items reach the emitter unexpanded
    e = Emit(PassContext(target="postgres"), emitters=load())
    assert e.statements(stmt) == ["CREATE TABLE s.t (a integer)"]
    assert sorted(d.code for d in e.diagnostics) == ["DDLC-I610", "DDLC-N610"]


def test_partition_names_are_cut_to_63_bytes_with_a_digest():
    assert partition_table_name("orders", "p1") == "orders_p1"
    long = partition_table_name("t" * 40, "p" * 40)
    assert len(long.encode()) == 63 and long.startswith("t" * 40 + "_" + "p" * 13 + "_")
    assert partition_table_name("t" * 40, "p" * 39 + "q") != long
    mb = partition_table_name("é" * 30, "p_1")  # never cut inside a character
    assert len(mb.encode()) <= 63
    mb.encode().decode()
    tree = table(col("a", I4), name="t" * 40, partition_by=clause(
        f"PARTITION BY RANGE (a)\n( \n    PARTITION {'p' * 40} VALUES LESS THAN (1)\n)"))
    result = run(tree)
    assert result.statements[1].startswith(f"CREATE TABLE s.{long} PARTITION OF s.{'t' * 40} ")
    assert "DDLC-I617" in codes(result)


# -- --on-unsupported ------------------------------------------------------------------------

def test_on_unsupported_error_fails_on_a_dropped_clause():
    with pytest.raises(DdlcError) as info:
        run(table(col("a", I4), tablespace="ts1"), on_unsupported="error")
    assert "DDLC-W611" in info.value.message


def test_on_unsupported_error_fails_on_an_emitter_warning():
    tree = table(col("id", I8), partition_by=clause("PARTITION BY HASH (id)\n( \n    PARTITION p0\n)"))
    with pytest.raises(DdlcError) as info:
        run(tree, on_unsupported="error")
    assert "DDLC-W631" in info.value.message


def test_on_unsupported_error_accepts_default_options_and_information():
    result = run(table(col("a", I4), tail="%{compression}s", compression="NOCOMPRESS"), on_unsupported="error")
    assert result.statements == ("CREATE TABLE s.t (a integer)",)
    assert codes(result) == ["DDLC-I610"]


def test_on_unsupported_comment_keeps_dropped_text():
    tree = table(col("a", I4), col("b", TEXT, collate=("pg_catalog", "utf8mb4_bin")),
                 con("t_i", "unique", "enable optimization Informational Constraint UNIQUE (a)"),
                 with_=[opt("orientation", "row"), opt("segment", "on")], tablespace="ts1")
    result = run(tree, on_unsupported="comment")
    assert result.sql == (  # in the order the pass meets the clauses: nested ones first
        "-- ddlc DDLC-W615: not translated: COLLATE pg_catalog.utf8mb4_bin\n"
        "-- ddlc DDLC-W619: not translated: CONSTRAINT t_i enable optimization Informational Constraint UNIQUE (a)\n"
        "-- ddlc DDLC-W610: not translated: segment = 'on'\n"
        "-- ddlc DDLC-W611: not translated: TABLESPACE ts1\n"
        "CREATE TABLE s.t (a integer, b text);\n")


# -- CREATE TYPE -----------------------------------------------------------------------------

def test_composite_type_drops_an_unknown_collation():
    tree = {"fmt": "CREATE TYPE %{identity}D AS (%{columns:, }s)", "identity": {"objname": "pt", "schemaname": "s"},
            "columns": [{"fmt": "%{name}I %{coltype}T %{collation}s", "name": "x", "type": "column",
                         "coltype": typ("int1"), "collation": {"fmt": "COLLATE %{name}D", "present": False}},
                        {"fmt": "%{name}I %{coltype}T %{collation}s", "name": "Label", "type": "column",
                         "coltype": typ("varchar", typmod="(5)", array=True),
                         "collation": {"fmt": "COLLATE %{name}D",
                                       "name": {"objname": "utf8mb4_bin", "schemaname": "pg_catalog"}}}]}
    result = run(tree)
    assert result.statements == ('CREATE TYPE s.pt AS (x smallint, "Label" varchar(5)[])',)
    assert codes(result) == ["DDLC-I601", "DDLC-W615"]


def test_enum_type_labels_are_standard_literals():
    tree = {"fmt": "CREATE TYPE %{identity}D AS ENUM (%{values:, }L)", "values": ["a'b", "c\\d", ""],
            "identity": {"objname": "e", "schemaname": "s"}}
    assert run(tree).statements == ("CREATE TYPE s.e AS ENUM ('a''b', E'c\\\\d', '')",)


# -- constraints rebuilt from their parsed form ---------------------------------------------

REBUILT = [
    ("PRIMARY KEY (a, b) INCLUDE (c) WITH (fillfactor=70) DEFERRABLE",
     "PRIMARY KEY (a, b) INCLUDE (c) WITH (fillfactor = 70) DEFERRABLE"),
    ("UNIQUE (a) DEFERRABLE INITIALLY DEFERRED", "UNIQUE (a) DEFERRABLE INITIALLY DEFERRED"),
    ("CHECK ((a > 0)) NO INHERIT", "CHECK ((a > 0)) NO INHERIT"),
    ("FOREIGN KEY (a, b) REFERENCES s.p(x, y) MATCH FULL ON UPDATE RESTRICT ON DELETE SET DEFAULT NOT VALID",
     "FOREIGN KEY (a, b) REFERENCES s.p (x, y) MATCH FULL ON UPDATE RESTRICT ON DELETE SET DEFAULT NOT VALID"),
    ("FOREIGN KEY (a) REFERENCES s.p(x) ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED",
     "FOREIGN KEY (a) REFERENCES s.p (x) ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED"),
    ("EXCLUDE USING btree (a WITH =, (b + 1) WITH OPERATOR(pg_catalog.=)) WHERE ((a > 0))",
     "EXCLUDE USING btree (a WITH =, (b + 1) WITH OPERATOR(pg_catalog.=)) WHERE (a > 0)"),
]


@pytest.mark.parametrize("text,expected", REBUILT)
def test_rebuilt_constraints(text, expected):
    load()
    e = Emit(PassContext(target="postgres"))
    info = parse_constraint(text)
    assert rebuild_constraint(info, e) == expected
    assert parse_constraint(expected) == info  # the rebuilt text means the same


# -- proven on the server --------------------------------------------------------------------

def test_rebuilt_constraints_apply(pg_db):
    load()
    e = Emit(PassContext(target="postgres"))
    body = ", ".join(f"CONSTRAINT c{i} {rebuild_constraint(parse_constraint(t), e)}"
                     for i, (t, _) in enumerate(REBUILT))
    with pg_db.cursor() as cur:
        cur.execute("CREATE SCHEMA s; CREATE TABLE s.p (x int, y int, UNIQUE (x, y), UNIQUE (x))")
        cur.execute(f"CREATE TABLE s.t (a int DEFAULT 0, b int DEFAULT 0, c int, {body})")
        cur.execute("SELECT count(*) FROM pg_constraint WHERE conrelid = 's.t'::regclass")
        assert cur.fetchone()[0] == len(REBUILT)


def test_every_kept_storage_option_is_a_postgres_parameter(pg_db):
    values = {"fillfactor": "70", "toast_tuple_target": "256", "parallel_workers": "2", "user_catalog_table": "true",
              "vacuum_index_cleanup": "auto", "vacuum_truncate": "false", "autovacuum_enabled": "false",
              "autovacuum_freeze_max_age": "200000000", "autovacuum_multixact_freeze_max_age": "400000000"}
    opts = [opt(o, values.get(o, "1"), "s") for o in sorted(HEAP_OPTIONS)]
    opts += [opt(o, values.get(o, "1"), "s", schema="toast") for o in sorted(TOAST_OPTIONS)]
    result = run(table(col("a", I4), col("b", TEXT), with_=opts))
    assert codes(result) == []
    with pg_db.cursor() as cur:
        cur.execute("CREATE SCHEMA s")
        cur.execute(result.statements[0])
        cur.execute("SELECT array_length(reloptions, 1) FROM pg_class WHERE oid = 's.t'::regclass")
        assert cur.fetchone()[0] == len(HEAP_OPTIONS)


def test_partition_tree_on_the_server(pg_db):
    """Options and UNLOGGED land on the leaves; NULL keys go where GaussDB puts them (the MAXVALUE partition)."""
    tree = table(col("a", I4), col("b", TEXT), persistence="UNLOGGED", with_=[opt("fillfactor", "60", "s")],
                 partition_by=clause("PARTITION BY RANGE (a) SUBPARTITION BY LIST (b)\n( \n"
                                     "    PARTITION p1 VALUES LESS THAN (10)\n    (\n"
                                     "        SUBPARTITION p1_x VALUES ('x'),\n"
                                     "        SUBPARTITION p1_d VALUES (DEFAULT)\n"
                                     "    ),\n    PARTITION pmax VALUES LESS THAN (MAXVALUE)\n    (\n"
                                     "        SUBPARTITION pmax_d VALUES (DEFAULT)\n    )\n)"))
    result = run(tree)
    with pg_db.cursor() as cur:
        cur.execute("CREATE SCHEMA s")
        for s in result.statements:
            cur.execute(s)
        cur.execute("SELECT relname, relpersistence, reloptions FROM pg_class c JOIN pg_namespace n "
                    "ON n.oid = c.relnamespace WHERE nspname = 's' AND relkind IN ('r', 'p') ORDER BY relname")
        assert cur.fetchall() == [("t", "p", None), ("t_p1", "p", None), ("t_p1_d", "u", ["fillfactor=60"]),
                                  ("t_p1_x", "u", ["fillfactor=60"]), ("t_pmax", "p", None),
                                  ("t_pmax_d", "u", ["fillfactor=60"])]
        cur.execute("INSERT INTO s.t VALUES (1, 'x'), (1, NULL), (NULL, 'x'), (99, 'y')")
        cur.execute("SELECT tableoid::regclass::text, a, b FROM s.t ORDER BY 1, 2, 3")
        assert cur.fetchall() == [("s.t_p1_d", 1, None), ("s.t_p1_x", 1, "x"), ("s.t_pmax_d", 99, "y"),
                                  ("s.t_pmax_d", None, "x")]
