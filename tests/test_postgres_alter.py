"""PostgreSQL target: ALTER TABLE / INDEX / TYPE subcommands, follow-ups, and partition maintenance
with the stream's history (ddlc/backends/postgres/alter*.py, ddlc/history/).

* unit rows: one JDDL tree -> the exact PostgreSQL statements and diagnostic codes (every statement
  also parses with pglast);
* history: several documents translated with one catalog (``translate_many``), so partition changes
  get their bounds from earlier DDL; the stream-level tests apply every step on a real server and read
  the catalog back (pg_get_expr(relpartbound), row counts) after each one.
"""

from __future__ import annotations

import copy
import json

import pglast
from conftest import CASES
import pytest

import ddlc
from ddlc.api import Options, translate_document
from ddlc.frontend.documents import as_document
from ddlc.jddl.expand import expand
from ddlc.history import Catalog, PartitionState, TableState
from ddlc.history.state import bound_key

# ---- JDDL trees ---------------------------------------------------------------------------------
TOP = "ALTER %{objtype}s %{only}s %{identity}D %{subcmds:, }s"
COLFMT = "%{name}I %{coltype}T %{collation}s %{default}s %{generated_column}s"
NO_DEFAULT = {"fmt": "DEFAULT %{default}s", "present": False}
NO_COLLATION = {"fmt": "COLLATE %{name}D", "present": False}
NO_GENERATED = {"fmt": "GENERATED ALWAYS AS (%{generation_expr}s) STORED", "present": False}


def ident(name: str, schema: str = "public") -> dict:
    return {"objname": name, "schemaname": schema}


def typ(name: str, typmod: str = "") -> dict:
    return {"typmod": typmod, "typarray": False, "typename": name, "schemaname": "pg_catalog"}


def column(name: str, t: dict, fmt: str = COLFMT, **kw: object) -> dict:
    d = {"fmt": fmt, "name": name, "type": "column", "coltype": t, "default": NO_DEFAULT,
         "collation": NO_COLLATION, "generated_column": NO_GENERATED}
    d.update(kw)
    return d


def alter(*subs: dict, table: str = "t", schema: str = "public", objtype: str = "TABLE", only: str = "") -> dict:
    return copy.deepcopy({"fmt": TOP, "only": only, "objtype": objtype, "subcmds": list(subs),
                          "identity": ident(table, schema)})


def followup(*subs: dict, table: str = "t", schema: str = "public") -> dict:
    return copy.deepcopy({"fmt": "ALTER TABLE %{only}s %{identity}D %{subcmds:, }s", "only": "",
                          "subcmds": list(subs), "identity": ident(table, schema)})


def create_table(name: str, cols: list[dict], partition_by: str | None = None, schema: str = "public") -> dict:
    d = {"fmt": "CREATE %{persistence}s TABLE %{if_not_exists}s %{identity}D %{table_elements}s %{inherits}s",
         "identity": ident(name, schema), "inherits": {"fmt": "INHERITS (%{parents:, }D)", "present": False},
         "persistence": "", "if_not_exists": "", "table_elements": {"fmt": "(%{elements:, }s)", "elements": cols}}
    if partition_by is not None:
        d["fmt"] += " %{partition_by}s"
        d["partition_by"] = partition_by
    return d


def sub(fmt: str, type_: str | None = None, **kw: object) -> dict:
    d: dict = {"fmt": fmt, **kw}
    if type_ is not None:
        d["type"] = type_
    return d


def add_column(definition: dict, **kw: object) -> dict:
    return sub("ADD %{objtype}s %{if_not_exists}s %{definition}s %{cascade}s", "add column", cascade="",
               objtype="COLUMN", definition=definition, if_not_exists="", **kw)


def auto_inc_column(name: str, t: dict) -> dict:  # the ALTER form stops after the collation (§3.3)
    return {"fmt": "%{name}I %{coltype}T %{collation}s", "name": name, "type": "column", "coltype": t,
            "collation": NO_COLLATION}


def constraint(name: str, definition: str) -> dict:
    return sub("ADD CONSTRAINT %{name}I %{definition}s", "add constraint", name=name, definition=definition)


def add_partition(name: str, *bounds: str, kind: str = "range", **kw: object) -> dict:
    if kind == "hash":
        return sub("ADD PARTITION %{name}I", "add partition", name=name)
    words = "VALUES LESS THAN" if kind == "range" else "VALUES"
    fmt = f"ADD PARTITION %{{name}}I {words} (%{{maxvalues:, }}s)"
    if "subpartitions" in kw:
        fmt += " (%{subpartitions:, }s)"
    return sub(fmt, "add partition", name=name, maxvalues=list(bounds), **kw)


def subpartition(name: str, *values: str) -> dict:
    return {"fmt": "SUBPARTITION %{name}I VALUES (%{maxvalue:, }s)", "name": name, "maxvalue": list(values)}


def drop_partition(name: str | None = None, for_values: tuple[str, ...] = (), level: str = "PARTITION") -> dict:
    if name is not None:
        return sub(f"DROP {level} %{{name}}I", "drop partition", name=name)
    return sub(f"DROP {level} FOR (%{{maxvalues:, }}s)", "drop partition", maxvalues=list(for_values))


def truncate_partition(name: str) -> dict:
    return sub("TRUNCATE PARTITION %{partition}s", "truncate partition", partition=name)


def exchange(name: str, table: str, schema: str = "public") -> dict:
    return sub("EXCHANGE %{issub}s (%{partition}I) WITH TABLE %{exchange_tbl}D WITHOUT VALIDATION",
               "exchange partition", issub="PARTITION", partition=name, exchange_tbl=ident(table, schema))


def merge(names: list[str], into: str) -> dict:
    return sub("MERGE PARTITIONS %{name_list:, }s INTO PARTITION %{partition}s", "merge partition",
               name_list=names, partition=into)


def split_at(name: str, at: str, a: str, b: str) -> dict:
    return sub("SPLIT PARTITION %{partition}s AT (%{maxvalues:, }s) INTO (%{split_list}s)", "split partition",
               maxvalues=[at], partition=name,
               split_list={"fmt": "PARTITION %{name1}s %{tblspc1}s, PARTITION %{name2}s %{tblspc2}s",
                           "name1": a, "name2": b, "tblspc1": "", "tblspc2": ""})


def rename_table(table: str, new: str) -> dict:
    return {"fmt": "ALTER %{objtype}s %{if_exists}s %{identity}D RENAME TO %{newname}I", "newname": new,
            "objtype": "TABLE", "identity": ident(table), "if_exists": ""}


def rename_column(table: str, col: str, new: str) -> dict:
    return {"fmt": "ALTER %{objtype}s %{identity}D RENAME COLUMN %{colname}I TO %{newname}I", "colname": col,
            "newname": new, "objtype": "TABLE", "identity": ident(table)}


def create_index(name: str, table: str, definition: str) -> dict:
    return {"fmt": "CREATE %{unique}s INDEX %{concurrently}s %{name}I ON %{table}D USING %{index_am}s "
                   "%{definition}s", "name": name, "table": ident(table), "unique": "", "index_am": "btree",
            "definition": definition, "concurrently": ""}


def comment_table(table: str, text: str) -> dict:
    return {"fmt": "COMMENT ON %{objtype}s %{identity}s IS %{comment}s", "objtype": "TABLE",
            "identity": f"public.{table}",
            "comment": {"fmt": "%{null}s %{literal}s", "null": {"fmt": "NULL", "present": False},
                        "literal": {"fmt": "%{value}L", "value": text, "present": True}}}


def drop_table(table: str) -> dict:
    return {"fmt": "DROP %{objtype}s %{concurrently}s %{if_exists}s %{objidentity}s %{cascade}s", "cascade": "",
            "objtype": "table", "if_exists": "", "objidentity": f"public.{table}", "concurrently": ""}


def range_clause(key: str, *parts: tuple[str, str], sub_by: str = "", subs: dict | None = None) -> str:
    items = []
    for name, bound in parts:
        item = f"\n    PARTITION {name} VALUES LESS THAN ({bound})"
        if subs and name in subs:
            item += "\n    (\n" + ",\n".join(f"        SUBPARTITION {s} VALUES ({v})" for s, v in subs[name])
            item += "\n    )"
        items.append(item)
    return f"\nPARTITION BY RANGE ({key}){sub_by}\n( " + ",".join(items) + "\n)\nENABLE ROW MOVEMENT"


def list_clause(key: str, *parts: tuple[str, str]) -> str:
    items = ",".join(f"\n    PARTITION {name} VALUES ({v})" for name, v in parts)
    return f"\nPARTITION BY LIST ({key})\n( {items}\n)\nENABLE ROW MOVEMENT"


# ---- translation helpers ----------------------------------------------------------------------------
def run(tree: dict, catalog: Catalog | None = None, **opts: object) -> tuple[list[str], list[str]]:
    t = translate_document(as_document(tree), "postgres", Options.of(**opts), catalog)
    if t.error is not None:
        raise t.error
    return list(t.statements), [d.code for d in t.diagnostics]


def history(*trees: dict) -> Catalog:
    cat = Catalog()
    for tree in trees:
        run(tree, cat)
    return cat


T = "public.t"
TP = typ("int4")
ROWS = [
    # constraints (FK with actions and DEFERRABLE, CHECK NOT VALID, VALIDATE, DROP)
    ("fk", alter(constraint("t_cid_fkey", "FOREIGN KEY (cid) REFERENCES public.c(id) ON UPDATE SET NULL ON DELETE "
                                          "CASCADE DEFERRABLE INITIALLY DEFERRED")),
     [f"ALTER TABLE {T} ADD CONSTRAINT t_cid_fkey FOREIGN KEY (cid) REFERENCES public.c(id) ON UPDATE SET NULL ON "
      "DELETE CASCADE DEFERRABLE INITIALLY DEFERRED"], []),
    ("check-validate", alter(constraint("t_a_check", "CHECK ((a > 0)) NOT VALID"),
                             sub("VALIDATE CONSTRAINT %{constraint}I", "validate constraint", constraint="t_a_check")),
     [f"ALTER TABLE {T} ADD CONSTRAINT t_a_check CHECK ((a > 0)) NOT VALID, VALIDATE CONSTRAINT t_a_check"], []),
    ("check-rewritten", alter(constraint("c1", "CHECK ((nvl(a, 0) > 0))")),
     [f"ALTER TABLE {T} ADD CONSTRAINT c1 CHECK (COALESCE(a, 0) > 0)"], ["DDLC-I602"]),
    ("informational", alter(constraint("c1", "enable optimization Informational Constraint PRIMARY KEY (a)")),
     [], ["DDLC-W619"]),
    ("check-disable", alter(constraint("c1", "CHECK ((a > 0)) DISABLE")), [], ["DDLC-W620"]),
    ("match-partial", alter(constraint("fk", "FOREIGN KEY (a) REFERENCES public.c(id) MATCH PARTIAL")),
     [], ["DDLC-N501", "DDLC-W707"]),
    ("unique-cleaned", alter(constraint("u1", "UNIQUE (a DESC, b) WITH (fillfactor=80, foo=1) USING INDEX "
                                              "TABLESPACE ts1")),
     [f"ALTER TABLE {T} ADD CONSTRAINT u1 UNIQUE (a, b) WITH (fillfactor = 80)"],
     ["DDLC-W610", "DDLC-W612", "DDLC-W621"]),
    ("drop-constraint", alter(sub("DROP CONSTRAINT %{if_exists}s %{constraint}I %{cascade}s", "drop constraint",
                                  if_exists="IF EXISTS", constraint="c1", cascade="CASCADE")),
     [f"ALTER TABLE {T} DROP CONSTRAINT IF EXISTS c1 CASCADE"], []),
    ("drop-primary-key", alter(sub("DROP PRIMARY KEY", "drop primary key")),
     [f"ALTER TABLE {T} DROP CONSTRAINT t_pkey"], ["DDLC-W703"]),
    ("drop-foreign-key", alter(sub("DROP FOREIGN KEY %{fk_identity}I %{cascade}s", "drop foreign key",
                                   fk_identity="fk", cascade="")),
     [f"ALTER TABLE {T} DROP CONSTRAINT fk"], []),
    ("drop-index", alter(sub("DROP INDEX %{index_identity}I %{cascade}s", "drop index", index_identity="Idx",
                             cascade="CASCADE"), table="t_b", schema="db1"),
     ['DROP INDEX db1."Idx" CASCADE'], []),
    # owner, triggers, rules, identity, row security
    ("owner", alter(sub("OWNER TO %{owner}I", "change owner", owner="alice")), [f"ALTER TABLE {T} OWNER TO alice"],
     []),
    ("owner-defect", alter(sub("OWNER TO %{owner}I", "change owner", owner="subcmd->newowner")),
     [], ["DDLC-W201", "DDLC-W695"]),
    ("triggers-rules", alter(sub("ENABLE ALWAYS TRIGGER %{trigger}I", "enable always trigger", trigger="trg"),
                             sub("DISABLE TRIGGER ALL", "disable trigger all"),
                             sub("ENABLE TRIGGER USER", "enable trigger user"),
                             sub("ENABLE REPLICA RULE %{rule}I", "enable replica rule", rule="r1"),
                             sub("DISABLE RULE %{rule}I", "disable rule", rule="r2")),
     [f"ALTER TABLE {T} ENABLE ALWAYS TRIGGER trg, DISABLE TRIGGER ALL, ENABLE TRIGGER USER, ENABLE REPLICA RULE "
      "r1, DISABLE RULE r2"], []),
    ("identity-rls", alter(sub("REPLICA IDENTITY %{ident}s", "replica identity", ident="FULL"),
                           sub("ENABLE ROW LEVEL SECURITY", "enable row security"),
                           sub("FORCE ROW LEVEL SECURITY", "disable row security"),
                           sub("NO FORCE ROW LEVEL SECURITY", "disable row security"),
                           sub("DISABLE ROW LEVEL SECURITY", "disable row security"), only="ONLY"),
     [f"ALTER TABLE ONLY {T} REPLICA IDENTITY FULL, ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY, "
      "NO FORCE ROW LEVEL SECURITY, DISABLE ROW LEVEL SECURITY"], []),
    # storage parameters, column settings
    ("reloptions", alter(sub("%{set_reset}s (%{options:, }s)", set_reset="SET", options=[
        {"fmt": "%{label}s = %{value}s", "label": {"fmt": "%{label}I", "label": "fillfactor"}, "value": "70"},
        {"fmt": "%{label}s = %{value}L", "label": {"fmt": "%{label}I", "label": "orientation"}, "value": "row"},
        {"fmt": "%{label}s = %{value}s", "label": {"fmt": "%{schema}I. %{label}I", "label": "autovacuum_enabled",
                                                   "schema": "toast"}, "value": "false"}]),
        sub("%{set_reset}s (%{options:, }s)", set_reset="RESET", options=[
            {"fmt": "%{label}s", "label": {"fmt": "%{label}I", "label": "compression"}}])),
     [f"ALTER TABLE {T} SET (fillfactor = 70, toast.autovacuum_enabled = false)"], ["DDLC-W696"]),
    ("index-option-on-table", alter(sub("%{set_reset}s (%{options:, }s)", set_reset="SET", options=[
        {"fmt": "%{label}s = %{value}s", "label": {"fmt": "%{label}I", "label": "deduplicate_items"}, "value": "off"}])),
     [], ["DDLC-W696"]),
    ("index-options", alter(sub("%{set_reset}s (%{options:, }s)", set_reset="SET", options=[
        {"fmt": "%{label}s = %{value}s", "label": {"fmt": "%{label}I", "label": "deduplicate_items"}, "value": "off"}]),
        objtype="INDEX", table="i"), ["ALTER INDEX public.i SET (deduplicate_items = off)"], []),
    ("column-settings", alter(
        sub("ALTER COLUMN %{column}I %{option}s (%{options:, }s)", column="a", option="SET", options=[
            {"fmt": "%{label}s = %{value}s", "label": {"fmt": "%{label}I", "label": "n_distinct"}, "value": "100"},
            {"fmt": "%{label}s = %{value}s", "label": {"fmt": "%{label}I", "label": "fillfactor"}, "value": "1"}]),
        sub("ALTER COLUMN %{column}I SET STORAGE %{storage}s", "set storage", column="a", storage="external"),
        sub("ALTER COLUMN %{column}I SET STATISTICS %{statistics}n", "set statistics", column="a", statistics=200),
        sub("ALTER COLUMN %{column}I DROP DEFAULT", "drop default", column="a"),
        sub("ALTER COLUMN %{column}I DROP NOT NULL", "drop not null", column="a")),
     [f"ALTER TABLE {T} ALTER COLUMN a SET (n_distinct = 100), ALTER COLUMN a SET STORAGE EXTERNAL, ALTER COLUMN "
      "a SET STATISTICS 200, ALTER COLUMN a DROP DEFAULT, ALTER COLUMN a DROP NOT NULL"], ["DDLC-W696"]),
    ("type-using", alter(sub("ALTER %{objtype}s %{column}I SET DATA TYPE %{datatype}T %{collation}s %{using}s",
                             "alter column type", column="c", objtype="COLUMN", datatype=typ("varchar2", "(10)"),
                             collation={"fmt": "COLLATE %{name}D", "name": ident("utf8mb4_bin", "pg_catalog")},
                             using={"fmt": "USING %{expression}s", "expression": "(c)::text"})),
     [f"ALTER TABLE {T} ALTER COLUMN c SET DATA TYPE varchar(10) USING (c)::text"],
     ["DDLC-I601", "DDLC-W615", "DDLC-W713"]),  # W713: no history, the table's views unknown (issue 25.1)
    ("cluster-inherit-of", alter(sub("CLUSTER ON %{index}I", "cluster on", index="t_idx"),
                                 sub("SET WITHOUT CLUSTER", "set without cluster"),
                                 sub("INHERIT %{parent}D", "inherit", parent=ident("p")),
                                 sub("NO INHERIT %{parent}D", "drop inherit", parent=ident("p")),
                                 sub("OF %{type_of}T", "add of", type_of={**typ("pt"), "schemaname": "public"}),
                                 sub("NOT OF", "not of")),
     [f"ALTER TABLE {T} CLUSTER ON t_idx, SET WITHOUT CLUSTER, INHERIT public.p, NO INHERIT public.p, OF "
      "public.pt, NOT OF"], []),
    # GaussDB-only settings
    ("gauss-only", alter(sub("SET TABLESPACE %{tablespace}I", "set tablespace", tablespace="ts1"),
                         sub("SET WITHOUT OIDS", "set without oids"),
                         sub("SET %{compression}s", "set compression", compression="COMPRESS"),
                         sub("ENABLE ROW MOVEMENT", "enable row movement"),
                         sub("DISABLE ROW MOVEMENT", "disable row movement"),
                         sub("DEFAULT CHARACTER SET = %{charset}s", "default character set", charset="UTF8"),
                         sub("COLLATE = %{collate}s", "collate", collate="utf8mb4_bin"),
                         sub("CONVERT TO CHARACTER SET %{charset}s", "convert charset", charset="GBK")),
     [], ["DDLC-I615", "DDLC-I696", "DDLC-W623", "DDLC-W691", "DDLC-W692", "DDLC-W694"]),
    ("comment", alter(sub("COMMENT=%{comment}L", "comment", comment="it's b"), sub("NOT OF", "not of")),
     [f"COMMENT ON TABLE {T} IS 'it''s b'", f"ALTER TABLE {T} NOT OF"], ["DDLC-I695"]),
    ("opaque", alter(sub("FROBNICATE %{x}I", "frobnicate", x="y")), [], ["DDLC-N201", "DDLC-N690"]),
    # indexes
    ("index-state", alter(sub("UNUSABLE", "unusable index"), sub("REBUILD", "rebuild index"), objtype="INDEX",
                          table="i"),
     ["REINDEX INDEX public.i"], ["DDLC-I691", "DDLC-W697"]),
    ("index-invisible", alter(sub("ALTER INDEX %{name}I INVISIBLE", "alter index invisible", name="i")),
     [], ["DDLC-W697"]),
    ("rebuild-partition-indexes", alter(sub("MODIFY PARTITION %{partition_identity}I REBUILD ALL INDEX",
                                            "rebuild partition all index", partition_identity="p1")),
     ["REINDEX TABLE public.t_p1"], ["DDLC-I691", "DDLC-W202"]),
    # composite types, other relation kinds
    ("type-attributes", alter(sub("DROP %{objtype}s %{if_exists}s %{column}I %{cascade}s", "drop column", column="x",
                                  objtype="ATTRIBUTE", if_exists="IF EXISTS",
                                  cascade={"fmt": "CASCADE", "present": True}),
                              sub("ALTER %{objtype}s %{column}I SET DATA TYPE %{datatype}T %{collation}s %{cascade}s",
                                  "alter column type", column="y", objtype="ATTRIBUTE", datatype=typ("int8"),
                                  collation=NO_COLLATION, cascade={"fmt": "CASCADE"}),
                              objtype="TYPE", table="pt"),
     ["ALTER TYPE public.pt DROP ATTRIBUTE IF EXISTS x CASCADE, ALTER ATTRIBUTE y SET DATA TYPE bigint CASCADE"], []),
    ("large-sequence-owner", alter(sub("OWNER TO %{owner}I", "change owner", owner="bob"),
                                   objtype="LARGE SEQUENCE", table="s"),
     ["ALTER SEQUENCE public.s OWNER TO bob"], ["DDLC-I651"]),
    # B compatibility: MODIFY / CHANGE / AUTO_INCREMENT
    ("modify-full", alter(sub("MODIFY COLUMN %{column}I %{datatype}T CHARACTER SET %{charset}s ON UPDATE "
                              "%{on_update}s %{not_null}s %{generated_column}s %{default}s COLLATE %{name}D FIRST",
                              "modify column", column="c", datatype=typ("varchar", "(20)"), charset="utf8mb4",
                              on_update="CURRENT_TIMESTAMP", not_null="NULL",
                              generated_column={"fmt": "GENERATED ALWAYS AS (%{generation_expr}s) STORED",
                                                "generation_expr": "(a + 1)"},
                              default={"fmt": "DEFAULT %{default}s", "default": "'x'::character varying"},
                              name=ident("utf8mb4_bin", "pg_catalog"))),
     [f"ALTER TABLE {T} ALTER COLUMN c SET DATA TYPE varchar(20), ALTER COLUMN c DROP NOT NULL, ALTER COLUMN c "
      "SET DEFAULT 'x'::character varying"],
     ["DDLC-W615", "DDLC-W616", "DDLC-W694", "DDLC-W698", "DDLC-W700", "DDLC-W713"]),
    ("change-same-name", alter(sub("CHANGE %{ori_column}I %{column}I %{datatype}T %{not_null}s %{generated_column}s "
                                   "%{default}s", "change coulumn", ori_column="c", column="c", datatype=TP,
                                   not_null="NOT NULL", generated_column=NO_GENERATED, default=NO_DEFAULT)),
     [f"ALTER TABLE {T} ALTER COLUMN c SET DATA TYPE integer, ALTER COLUMN c SET NOT NULL, ALTER COLUMN c DROP "
      "DEFAULT"], ["DDLC-W713"]),
    ("auto-increment-unknown", alter(sub("AUTO_INCREMENT %{autoincstart}n", "auto_increment", autoincstart=1000)),
     [], ["DDLC-W701"]),
    ("auto-increment-added", alter(add_column(auto_inc_column("seq", typ("int8"))),
                                   sub("AUTO_INCREMENT %{autoincstart}n", "auto_increment", autoincstart=1000)),
     [f"ALTER TABLE {T} ADD COLUMN seq bigint GENERATED BY DEFAULT AS IDENTITY, ALTER COLUMN seq RESTART WITH 1000"],
     ["DDLC-I693"]),
    ("auto-increment-float", alter(add_column(auto_inc_column("f", typ("float8")))),
     [f"ALTER TABLE {T} ADD COLUMN f double precision"], ["DDLC-W627"]),
    ("add-column-position", alter(add_column(column("z", TP), add_first={"fmt": "FIRST"}),
                                  add_column(column("w", typ("text"), default={"fmt": "DEFAULT %{default}s",
                                                                               "default": "'x'"}),
                                             add_after_name={"fmt": "AFTER %{name}I", "name": "z"})),
     [f"ALTER TABLE {T} ADD COLUMN z integer, ADD COLUMN w text DEFAULT 'x'"], ["DDLC-W698"]),
    # follow-ups (§5.3)
    ("followup-set-default", followup(sub("ALTER COLUMN %{name}I SET DEFAULT %{default}s", name="c2",
                                          default="pg_systimestamp()")),
     [f"ALTER TABLE {T} ALTER COLUMN c2 SET DEFAULT statement_timestamp()"], ["DDLC-I602"]),
    ("followup-modify-auto-increment-null", followup(sub("MODIFY COLUMN %{colname}I %{coltype}T AUTO_INCREMENT NULL",
                                                         colname="seq", coltype=typ("int4"))),
     [f"ALTER TABLE {T} ALTER COLUMN seq SET NOT NULL, ALTER COLUMN seq ADD GENERATED BY DEFAULT AS IDENTITY"],
     ["DDLC-I693", "DDLC-W712"]),
    ("followup-held-back-constraint", followup(constraint("t_pkey", "PRIMARY KEY (id)")),
     [f"ALTER TABLE {T} ADD CONSTRAINT t_pkey PRIMARY KEY (id)"], []),
    ("backfill-update", {"fmt": "UPDATE %{identity}D SET %{name}I = %{default}s WHERE %{name}I IS NULL",
                         "name": "c2", "default": "pg_catalog.now()", "identity": ident("t")},
     [f"UPDATE {T} SET c2 = pg_catalog.now() WHERE c2 IS NULL"], ["DDLC-I201", "DDLC-I694"]),
    # partitions without history: what needs names only is done, what needs bounds is reported
    ("list-partitions", alter(add_partition("pe", "'east'", "'e2'", kind="list"),
                              add_partition("pd", "DEFAULT", kind="list")),
     [f"CREATE TABLE {T}_pe PARTITION OF {T} FOR VALUES IN ('east', 'e2')", f"CREATE TABLE {T}_pd PARTITION OF {T} "
      "DEFAULT"], ["DDLC-I698"]),
    ("range-partition-no-history", alter(add_partition("p3", "300")), [], ["DDLC-W690"]),
    ("hash-partition", alter(add_partition("p9", kind="hash")), [], ["DDLC-W704"]),
    ("list-tuple", alter(add_partition("p1", "(1,'a')", kind="list")), [], ["DDLC-W705"]),
    ("drop-truncate-analyze", alter(drop_partition("p1"), truncate_partition("p2"),
                                    sub("ANALYZE PARTITION %{partition_list:, }s", "analyze partitioning",
                                        partition_list=["p2", "p3"])),
     [f"DROP TABLE {T}_p1", f"TRUNCATE {T}_p2", f"ANALYZE {T}_p2, {T}_p3"], ["DDLC-I698", "DDLC-W706"]),
    ("subpartition-by-name", alter(drop_partition("s1", level="SUBPARTITION"),
                                   sub("TRUNCATE SUBPARTITION %{partition}s %{gpi}s", "truncate subpartition",
                                       partition="s2", gpi="")),
     [f"DROP TABLE {T}_s1", f"TRUNCATE {T}_s2"], ["DDLC-I698"]),
    ("partition-gauss-only", alter(sub("MOVE PARTITION %{partition}I TABLESPACE %{tblspc}s", "move partition",
                                       partition="p1", tblspc="ts2"),
                                   sub("REMOVE PARTITIONING", "remove partitioning"),
                                   sub("RESET PARTITION", "reset partition"),
                                   sub("REBUILD PARTITION %{partition_list:, }s", "remove partitioning",
                                       partition_list=["p1", "p2"])),
     [], ["DDLC-I697", "DDLC-W691", "DDLC-W705"]),
    ("add-partition-tablespace", alter(add_partition("pe", "'east'", kind="list", tblspc="ts1")
                                       | {"fmt": "ADD PARTITION %{name}I VALUES (%{maxvalues:, }s) TABLESPACE %{tblspc}s"}),
     [f"CREATE TABLE {T}_pe PARTITION OF {T} FOR VALUES IN ('east')"], ["DDLC-I698", "DDLC-W691"]),
]


@pytest.mark.parametrize("tree,statements,codes", [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_unit_row(tree, statements, codes):
    if not statements:  # nothing written: by default the document fails (no silent absence)
        with pytest.raises(ddlc.DdlcError) as info:
            run(tree)
        assert info.value.code == "DDLC-E010"
    out, diags = run(tree, on_unsupported="skip" if not statements else "warn")
    assert out == statements
    assert sorted(set(diags)) == sorted(codes)
    for s in out:
        pglast.parse_sql(s)


def test_every_subcommand_class_is_translated_or_declared():
    """Each ALTER subcommand class has a handler or a capability rule that removes it."""
    import inspect

    from ddlc.backends.postgres import PostgresBackend
    from ddlc.backends.postgres.alter import SUB
    from ddlc.ir import alter as A, alter_columns as C, alter_partitions as P, followup as F

    removed = {r.node for r in PostgresBackend.rules if r.field is None and r.rewrite is None}
    classes = {c for m in (A, C, P, F) for _, c in inspect.getmembers(m, inspect.isclass)
               if issubclass(c, A.AlterSubcommand) and c is not A.AlterSubcommand}
    assert {c.__name__ for c in classes if c not in SUB and c not in removed} == set()


def test_on_unsupported_comment_keeps_the_gauss_text():
    t = translate_document(as_document(alter(add_partition("p3", "300"), table="r")), "postgres",
                           Options.of(on_unsupported="comment"))
    assert t.sql == "-- ddlc DDLC-W690: not translated: ALTER TABLE public.r ADD PARTITION p3 VALUES LESS THAN (300)\n"


def test_on_unsupported_error_fails_the_document():
    with pytest.raises(ddlc.DdlcError) as exc:
        run(alter(add_partition("p3", "300"), table="r"), on_unsupported="error")
    assert "DDLC-W690" in str(exc.value)


def test_auto_increment_backfill_block_refused():
    tree = json.loads((CASES / "alter_table_followup/auto-increment-backfill-block/input.json").read_text())
    with pytest.raises(ddlc.DdlcError) as info:  # by default a statement with no form fails its document
        run(tree)
    assert info.value.code == "DDLC-E010" and "DDLC-W702" in info.value.message
    assert run(tree, on_unsupported="skip") == ([], ["DDLC-I202", "DDLC-W702"])


# ---- the catalog ------------------------------------------------------------------------------------
def test_bound_keys_compare_numbers_dates_and_maxvalue():
    assert bound_key("100") < bound_key("'200'") < bound_key("1e3")  # type: ignore[operator]
    assert bound_key("'2024-01-01'") == bound_key("'2024-01-01 00:00:00'") == bound_key("DATE '2024-01-01'")
    assert bound_key("'2024-01-01 08:00:00+08'") == bound_key("'2024-01-01 00:00:00'")
    assert bound_key("MAXVALUE")[0] > bound_key("'zzz'")[0]  # type: ignore[index]
    assert bound_key("TO_DATE('2024','YYYY')") is None


def test_locate_range_and_list():
    rng = TableState("RANGE", ("d",), [PartitionState("p1", upper=("'2024-01-01'",)),
                                       PartitionState("p2", upper=("'2024-02-01'",)),
                                       PartitionState("pm", upper=("MAXVALUE",))])
    assert rng.locate(("'2023-12-31 23:59:59'",)).name == "p1"  # type: ignore[union-attr]
    assert rng.locate(("'2024-01-01 00:00:00'",)).name == "p2"  # type: ignore[union-attr]
    assert rng.locate(("'2030-01-01'",)).name == "pm"  # type: ignore[union-attr]
    assert rng.lower_of("p1") == ("MINVALUE",) and rng.lower_of("pm") == ("'2024-02-01'",)
    lst = TableState("LIST", ("r",), [PartitionState("pe", values=("'east'",)), PartitionState("pd", values=("DEFAULT",))])
    assert lst.locate(("'east'",)).name == "pe"  # type: ignore[union-attr]
    assert lst.locate(("'west'",)).name == "pd"  # type: ignore[union-attr]
    assert TableState("RANGE", ("x",), [PartitionState("p", upper=("f(1)",))]).locate(("1",)) is None


def test_catalog_follows_partitions_renames_and_identity():
    cat = history(
        create_table("r", [column("id", TP)], range_clause("id", ("p1", "100"), ("p2", "200"))),
        alter(add_partition("p3", "300"), table="r"),
        rename_table("r", "r2"),
        alter(add_partition("p4", "400"), drop_partition("p1"), table="r2"),
        {"fmt": "ALTER SCHEMA %{identity}I RENAME TO %{newname}I", "newname": "pub2", "identity": "public"},
    )
    st = cat.tables[("pub2", "r2")]
    assert [(p.name, p.upper, p.home) for p in st.partitions] == [
        ("p2", ("200",), ("pub2", "r")), ("p3", ("300",), ("pub2", "r")), ("p4", ("400",), ("pub2", "r2"))]
    b = json.loads((CASES / "create_table/b-compat-auto-increment-comment/input.json").read_text())
    cat = history(b)
    assert (cat.identity_column(ident_q("t_b", "db1")), cat.primary_key(ident_q("t_b", "db1"))) == ("id", "t_b_pkey")


def ident_q(name: str, schema: str = "public"):
    from ddlc.ir.names import QualifiedName

    return QualifiedName(name, schema)


# ---- translations that read the history (no server) -----------------------------------------------
R3 = create_table("r", [column("id", TP), column("v", typ("text"))],
                  range_clause("id", ("p1", "100"), ("p2", "200"), ("p3", "300")))


def with_history(*trees: dict) -> list[list[str]]:
    cat = Catalog()
    return [run(t, cat)[0] for t in trees][1:]


def test_history_add_partitions_chain_their_bounds():
    out = with_history(R3, alter(add_partition("p4", "400"), add_partition("p5", "MAXVALUE"), table="r"))
    assert out == [["CREATE TABLE public.r_p4 PARTITION OF public.r FOR VALUES FROM (300) TO (400)",
                    "CREATE TABLE public.r_p5 PARTITION OF public.r DEFAULT"]]


def test_history_drop_widens_the_next_partition():
    out = with_history(R3, alter(drop_partition("p2"), table="r"), alter(drop_partition(for_values=("5",)), table="r"))
    assert out == [["DROP TABLE public.r_p2", "ALTER TABLE public.r DETACH PARTITION public.r_p3",
                    "ALTER TABLE public.r ATTACH PARTITION public.r_p3 FOR VALUES FROM (100) TO (300)"],
                   ["DROP TABLE public.r_p1", "ALTER TABLE public.r DETACH PARTITION public.r_p3",
                    "ALTER TABLE public.r ATTACH PARTITION public.r_p3 FOR VALUES FROM (MINVALUE) TO (300)"]]


def test_history_merge_into_a_reused_name():
    out = with_history(R3, alter(merge(["p1", "p2"], "p2"), table="r"))
    assert out == [["ALTER TABLE public.r DETACH PARTITION public.r_p1",
                    "ALTER TABLE public.r DETACH PARTITION public.r_p2",
                    "ALTER TABLE public.r_p2 RENAME TO r_p2_ddlc_old",
                    "CREATE TABLE public.r_p2 PARTITION OF public.r FOR VALUES FROM (MINVALUE) TO (200)",
                    "INSERT INTO public.r_p2 OVERRIDING SYSTEM VALUE SELECT * FROM public.r_p1",
                    "INSERT INTO public.r_p2 OVERRIDING SYSTEM VALUE SELECT * FROM public.r_p2_ddlc_old",
                    "DROP TABLE public.r_p1", "DROP TABLE public.r_p2_ddlc_old"]]


def test_history_exchange_across_schemas():
    out = with_history(R3, alter(exchange("p2", "stage", "st"), table="r"))
    assert out == [["ALTER TABLE public.r DETACH PARTITION public.r_p2",
                    "ALTER TABLE public.r_p2 RENAME TO r_p2_ddlc_old",
                    "ALTER TABLE st.stage SET SCHEMA public",
                    "ALTER TABLE public.stage RENAME TO r_p2",
                    "ALTER TABLE public.r ATTACH PARTITION public.r_p2 FOR VALUES FROM (100) TO (200)",
                    "ALTER TABLE public.r_p2_ddlc_old SET SCHEMA st",
                    "ALTER TABLE st.r_p2_ddlc_old RENAME TO stage"]]


def test_history_partitions_keep_their_names_after_a_rename():
    out = with_history(R3, rename_table("r", "r2"), alter(truncate_partition("p1"), split_at("p3", "250", "p3a", "p3b"),
                                                          table="r2"))
    assert out[1] == ["TRUNCATE public.r_p1", "ALTER TABLE public.r2 DETACH PARTITION public.r_p3",
                      "CREATE TABLE public.r2_p3a PARTITION OF public.r2 FOR VALUES FROM (200) TO (250)",
                      "CREATE TABLE public.r2_p3b PARTITION OF public.r2 FOR VALUES FROM (250) TO (300)",
                      "INSERT INTO public.r2 OVERRIDING SYSTEM VALUE SELECT * FROM public.r_p3",
                      "DROP TABLE public.r_p3"]


def test_history_storage_parameters_go_to_the_partitions():
    opts = sub("%{set_reset}s (%{options:, }s)", set_reset="SET", options=[
        {"fmt": "%{label}s = %{value}s", "label": {"fmt": "%{label}I", "label": "fillfactor"}, "value": "70"}])
    out = with_history(R3, alter(opts, table="r"))
    assert out == [[f"ALTER TABLE public.r_{p} SET (fillfactor = 70)" for p in ("p1", "p2", "p3")]]


def test_history_auto_increment_and_primary_key_names():
    b = json.loads((CASES / "create_table/b-compat-auto-increment-comment/input.json").read_text())
    out = with_history(b, alter(sub("AUTO_INCREMENT %{autoincstart}n", "auto_increment", autoincstart=1000),
                                sub("DROP PRIMARY KEY", "drop primary key"), table="t_b", schema="db1"))
    assert out == [["ALTER TABLE db1.t_b ALTER COLUMN id RESTART WITH 1000, DROP CONSTRAINT t_b_pkey"]]


# ---- on a real server ----------------------------------------------------------------------------------
def decoding(*messages: tuple[str, dict]) -> str:
    """A test_decoding stream (jddl-shapes.md §4.3), one transaction per message."""
    rows = []
    for xid, (cmdtype, tree) in enumerate(messages, start=20000):
        content = json.dumps(tree)
        sz = len(content.encode("utf-8")) + 1
        rows += [f"BEGIN {xid}", f"message: prefix deparse, relid 16500, cmdtype: {cmdtype}, sz: {sz} content: {content}"
                 f"\ndecode to : {expand(tree)}, [owner none]", f"COMMIT {xid} (at 2025-08-01 10:00:00+08) CSN {xid}"]
    return "\n".join(rows) + "\n"


def bounds(conn, table: str) -> dict[str, str]:
    rows = conn.execute("SELECT c.relname, pg_get_expr(c.relpartbound, c.oid) FROM pg_inherits i JOIN pg_class c "
                        "ON c.oid = i.inhrelid WHERE i.inhparent = %s::regclass", (table,)).fetchall()
    return dict(rows)


def counts(conn, table: str) -> dict[str, int]:
    rows = conn.execute(f"SELECT tableoid::regclass::text, count(*) FROM {table} GROUP BY 1").fetchall()
    return {r[0].split(".")[-1]: r[1] for r in rows}


def apply_stream(conn, stream: str | list[dict], checks: dict[int, object]) -> list[list[str]]:
    """Translate with one catalog and apply document by document, running ``checks[i](conn)`` after
    document ``i``; returns the diagnostics codes per document."""
    docs = stream if isinstance(stream, str) else [json.dumps(t) for t in stream]
    codes = []
    for i, t in enumerate(ddlc.translate_many(docs, target="postgres", on_unsupported="skip")):
        assert t.error is None, t.error
        codes.append([d.code for d in t.diagnostics])
        if t.statements:
            conn.execute(t.sql)
        if i in checks:
            checks[i](conn)  # type: ignore[operator]
    return codes


def test_decoded_stream_on_server(pg_db):
    """create (range partitions) - add column - rename column - add partition - create index - comment -
    drop partition - drop table, from test_decoding output, applied step by step."""
    stream = decoding(
        ("Simple", create_table("sales", [column("id", TP), column("amount", typ("numeric", "(10,2)"))],
                                range_clause("id", ("p1", "100"), ("p2", "200")))),
        ("Alter Table", alter(add_column(column("note", typ("text"))), table="sales")),
        ("Simple", rename_column("sales", "note", "remark")),
        ("Alter Table", alter(add_partition("p3", "300"), table="sales")),
        ("Simple", create_index("sales_amount_idx", "sales", "(amount)")),
        ("Simple", comment_table("sales", "sales by id")),
        ("Alter Table", alter(drop_partition("p2"), table="sales")),
        ("Drop Table End", drop_table("sales")),
    )

    def created(conn):
        assert bounds(conn, "public.sales") == {"sales_p1": "FOR VALUES FROM (MINVALUE) TO (100)",
                                                "sales_p2": "FOR VALUES FROM (100) TO (200)"}
        conn.execute("INSERT INTO public.sales VALUES (5, 1.5), (150, 2.5)")

    def columns(conn):
        return conn.execute("SELECT attrelid::regclass::text, attname FROM pg_attribute WHERE attnum > 0 AND NOT "
                            "attisdropped AND attrelid::regclass::text LIKE 'sales%%' ORDER BY 1, attnum").fetchall()

    def added(conn):
        assert ("sales_p2", "note") in columns(conn)

    def renamed(conn):
        cols = columns(conn)
        assert ("sales", "remark") in cols and ("sales_p1", "remark") in cols and ("sales", "note") not in cols

    def partition_added(conn):
        assert bounds(conn, "public.sales")["sales_p3"] == "FOR VALUES FROM (200) TO (300)"
        conn.execute("INSERT INTO public.sales VALUES (250, 3.5, 'x')")
        assert counts(conn, "public.sales") == {"sales_p1": 1, "sales_p2": 1, "sales_p3": 1}

    def indexed(conn):
        names = {r[0] for r in conn.execute("SELECT indexrelid::regclass::text FROM pg_index")}
        assert "sales_amount_idx" in names and len([n for n in names if n.startswith("sales_p")]) == 3

    def commented(conn):
        assert conn.execute("SELECT obj_description('public.sales'::regclass)").fetchone() == ("sales by id",)

    def dropped(conn):
        # GaussDB's p3 takes over p2's range: [100, 300) on PostgreSQL, and 150 can be stored again
        assert bounds(conn, "public.sales") == {"sales_p1": "FOR VALUES FROM (MINVALUE) TO (100)",
                                                "sales_p3": "FOR VALUES FROM (100) TO (300)"}
        conn.execute("INSERT INTO public.sales VALUES (150, 4.5, 'y')")
        assert counts(conn, "public.sales") == {"sales_p1": 1, "sales_p3": 2}

    def gone(conn):
        assert conn.execute("SELECT count(*) FROM pg_class WHERE relname LIKE 'sales%%'").fetchone() == (0,)

    codes = apply_stream(pg_db, stream, {0: created, 1: added, 2: renamed, 3: partition_added, 4: indexed,
                                         5: commented, 6: dropped, 7: gone})
    assert "DDLC-W690" not in {c for cs in codes for c in cs}


def test_split_merge_exchange_on_server(pg_db):
    with pg_db.cursor() as cur:
        cur.execute("CREATE SCHEMA st; CREATE TABLE st.stage (id integer, v text); "
                    "INSERT INTO st.stage VALUES (160, 'staged')")
    trees = [
        create_table("r", [column("id", TP), column("v", typ("text"))],
                     range_clause("id", ("p1", "100"), ("p2", "200"), ("pmax", "MAXVALUE"))),
        alter(split_at("p2", "150", "p2a", "p2b"), table="r"),
        alter(merge(["p1", "p2a"], "p1"), table="r"),
        alter(exchange("p2b", "stage", "st"), table="r"),
        rename_table("r", "r2"),
        alter(drop_partition(for_values=("175",)), truncate_partition("p1"), table="r2"),
    ]

    def loaded(conn):
        assert bounds(conn, "public.r")["r_pmax"] == "DEFAULT"
        conn.execute("INSERT INTO public.r VALUES (50, 'a'), (120, 'b'), (170, 'c'), (900, 'd')")

    def split(conn):
        assert bounds(conn, "public.r") == {"r_p1": "FOR VALUES FROM (MINVALUE) TO (100)",
                                            "r_p2a": "FOR VALUES FROM (100) TO (150)",
                                            "r_p2b": "FOR VALUES FROM (150) TO (200)", "r_pmax": "DEFAULT"}
        assert counts(conn, "public.r") == {"r_p1": 1, "r_p2a": 1, "r_p2b": 1, "r_pmax": 1}

    def merged(conn):
        assert bounds(conn, "public.r")["r_p1"] == "FOR VALUES FROM (MINVALUE) TO (150)"
        assert counts(conn, "public.r") == {"r_p1": 2, "r_p2b": 1, "r_pmax": 1}

    def exchanged(conn):
        assert conn.execute("SELECT id, v FROM public.r_p2b").fetchall() == [(160, "staged")]
        assert conn.execute("SELECT id, v FROM st.stage").fetchall() == [(170, "c")]
        assert bounds(conn, "public.r")["r_p2b"] == "FOR VALUES FROM (150) TO (200)"

    def renamed_then_dropped(conn):
        assert bounds(conn, "public.r2") == {"r_p1": "FOR VALUES FROM (MINVALUE) TO (150)", "r_pmax": "DEFAULT"}
        assert counts(conn, "public.r2") == {"r_pmax": 1}
        conn.execute("INSERT INTO public.r2 VALUES (160, 'e')")  # the DEFAULT partition takes p2b's range
        assert counts(conn, "public.r2") == {"r_pmax": 2}

    apply_stream(pg_db, trees, {0: loaded, 1: split, 2: merged, 3: exchanged, 5: renamed_then_dropped})


def test_list_and_subpartitions_on_server(pg_db):
    sub_by = " SUBPARTITION BY LIST (region)"
    subs = {"p1": [("p1_east", "'east'"), ("p1_other", "DEFAULT")], "p2": [("p2_all", "DEFAULT")]}
    trees = [
        create_table("s", [column("id", TP), column("region", typ("text"))],
                     range_clause("id", ("p1", "100"), ("p2", "200"), sub_by=sub_by, subs=subs)),
        alter(add_partition("p3", "300", subpartitions=[subpartition("p3_east", "'east'"),
                                                        subpartition("p3_other", "DEFAULT")]),
              add_partition("p4", "400"), table="s"),
        alter(sub("MODIFY PARTITION %{name}I ADD SUBPARTITION %{subpart}I VALUES (%{maxvalues:, }s)",
                  "modify partition add subpartition", name="p4", subpart="p4_west", maxvalues=["'west'"]),
              drop_partition("p1_east", level="SUBPARTITION"), table="s"),
        create_table("l", [column("region", typ("text")), column("v", TP)],
                     list_clause("region", ("pe", "'east'"), ("pw", "'west','wx'"))),
        alter(add_partition("pn", "'north'", kind="list"), merge(["pe", "pn"], "pen"),
              drop_partition(for_values=("'wx'",)), table="l"),
    ]

    def added(conn):
        b = bounds(conn, "public.s_p3") | bounds(conn, "public.s_p4")
        assert b == {"s_p3_east": "FOR VALUES IN ('east')", "s_p3_other": "DEFAULT", "s_p4_subpartdefault1": "DEFAULT"}
        assert bounds(conn, "public.s")["s_p4"] == "FOR VALUES FROM (300) TO (400)"

    def modified(conn):
        assert bounds(conn, "public.s_p4")["s_p4_west"] == "FOR VALUES IN ('west')"
        assert bounds(conn, "public.s_p1") == {"s_p1_other": "DEFAULT"}

    def listed(conn):
        assert bounds(conn, "public.l") == {"l_pen": "FOR VALUES IN ('east', 'north')"}

    apply_stream(pg_db, trees, {1: added, 2: modified, 4: listed})


def test_auto_increment_and_followups_on_server(pg_db):
    b = json.loads((CASES / "create_table/b-compat-auto-increment-comment/input.json").read_text())
    block = json.loads((CASES / "alter_table_followup/auto-increment-backfill-block/input.json").read_text())
    seq = {**typ("int8")}
    trees = [
        b,
        alter(sub("AUTO_INCREMENT %{autoincstart}n", "auto_increment", autoincstart=1000), table="t_b", schema="db1"),
        alter(add_column(auto_inc_column("seq", seq)), table="t_b", schema="db1"),
        block,
        followup(sub("MODIFY COLUMN %{colname}I %{coltype}T AUTO_INCREMENT", colname="seq", coltype=seq),
                 table="t_b", schema="db1"),
        alter(add_column(column("c2", {"typmod": "", "typarray": False, "typename": "TIMESTAMP WITH TIME ZONE",
                                       "schemaname": ""})), table="t_b", schema="db1"),
        {"fmt": "UPDATE %{identity}D SET %{name}I = %{default}s WHERE %{name}I IS NULL", "name": "c2",
         "default": "pg_catalog.now()", "identity": ident("t_b", "db1")},
        followup(sub("ALTER COLUMN %{name}I SET DEFAULT %{default}s", name="c2", default="pg_catalog.now()"),
                 table="t_b", schema="db1"),
        {"fmt": "ALTER TABLE %{only}s %{identity}D ALTER COLUMN %{name}I SET NOT NULL", "name": "c2", "only": "",
         "identity": ident("t_b", "db1")},
        alter(sub("DROP PRIMARY KEY", "drop primary key"), table="t_b", schema="db1"),
    ]
    pg_db.execute("CREATE SCHEMA db1")

    def restarted(conn):
        conn.execute("INSERT INTO db1.t_b DEFAULT VALUES")
        assert conn.execute("SELECT id FROM db1.t_b").fetchall() == [(1000,)]

    def filled(conn):
        assert conn.execute("SELECT seq IS NOT NULL FROM db1.t_b").fetchall() == [(True,)]

    def backfilled(conn):
        assert conn.execute("SELECT c2 IS NOT NULL FROM db1.t_b").fetchall() == [(True,)]

    def finished(conn):
        cols = conn.execute("SELECT attname, attnotnull, attidentity FROM pg_attribute WHERE attrelid = "
                            "'db1.t_b'::regclass AND attnum > 0 ORDER BY attnum").fetchall()
        assert [c for c in cols if c[0] in ("id", "seq", "c2")] == [("id", True, "d"), ("seq", True, "d"),
                                                                    ("c2", True, "")]
        assert conn.execute("SELECT count(*) FROM pg_constraint WHERE conrelid = 'db1.t_b'::regclass "
                            "AND contype = 'p'").fetchone() == (0,)

    codes = apply_stream(pg_db, trees, {1: restarted, 2: filled, 6: backfilled, 9: finished})
    assert "DDLC-W702" in codes[3] and "DDLC-I693" in codes[4] and "DDLC-W703" not in codes[9]


def test_golden_settings_read_back(pg_db):
    """What the golden snapshots do not show: storage parameters, replica identity, column options."""
    case = CASES / "alter_table/options-replica-identity-add-after"
    pg_db.execute((case / "setup.postgres.sql").read_text())
    pg_db.execute((case / "expected.postgres.sql").read_text())
    assert pg_db.execute("SELECT reloptions, relreplident FROM pg_class WHERE oid = 'public.orders'::regclass"
                         ).fetchone() == (["fillfactor=70"], "i")
    assert pg_db.execute("SELECT indisreplident FROM pg_index WHERE indexrelid = 'public.orders_pkey'::regclass"
                         ).fetchone() == (True,)
