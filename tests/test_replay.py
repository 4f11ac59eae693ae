"""``ddlc replay``: a log folded into the schema it leaves behind (ddlc/replay/fold.py), as JSON and as a
CREATE script, proven on the real server: the whole log translated and applied to one database, the replay
script to another, and the two catalogs equal."""

from __future__ import annotations

import json
import subprocess

import pytest

from conftest import FIXTURES, ddlc_command
from ddlc.api import Options
from ddlc.frontend.documents import read_documents, read_inputs
from ddlc.replay import fold_log, script


# ---- a hand-written log (JDDL trees as GaussDB writes them) ----------------------------------------
def _type(name, typmod="", array=False):
    return {"typmod": typmod, "typarray": array, "typename": name, "schemaname": "pg_catalog"}


def _col(name, typ, *, default=None, not_null=False):
    fmt = "%{name}I %{coltype}T %{collation}s %{default}s" + (" %{not_null}s" if not_null else "") \
        + " %{generated_column}s"
    out = {"fmt": fmt, "name": name, "type": "column", "coltype": typ,
           "default": {"fmt": "DEFAULT %{default}s", **({"default": default} if default else {"present": False})},
           "collation": {"fmt": "COLLATE %{name}D", "present": False},
           "generated_column": {"fmt": "GENERATED ALWAYS AS (%{generation_expr}s) STORED", "present": False}}
    if not_null:
        out["not_null"] = "NOT NULL"
    return out


def _con(name, contype, definition):
    return {"fmt": "CONSTRAINT %{name}I %{definition}s", "name": name, "type": "constraint", "contype": contype,
            "definition": definition}


def _ident(schema, name):
    return {"objname": name, "schemaname": schema}


def create_table(schema, name, elements, partition_by=None):
    fmt = "CREATE %{persistence}s TABLE %{if_not_exists}s %{identity}D %{table_elements}s %{inherits}s"
    doc = {"fmt": fmt + (" %{partition_by}s" if partition_by else ""), "identity": _ident(schema, name),
           "inherits": {"fmt": "INHERITS (%{parents:, }D)", "present": False}, "persistence": "",
           "if_not_exists": "", "table_elements": {"fmt": "(%{elements:, }s)", "elements": elements}}
    if partition_by:
        doc["partition_by"] = partition_by
    return doc


def alter(schema, name, *subcmds):
    return {"fmt": "ALTER %{objtype}s %{only}s %{identity}D %{subcmds:, }s", "only": "", "objtype": "TABLE",
            "subcmds": list(subcmds), "identity": _ident(schema, name)}


def add_column(col):
    return {"fmt": "ADD %{objtype}s %{if_not_exists}s %{definition}s %{cascade}s", "type": "add column",
            "cascade": "", "objtype": "COLUMN", "definition": col, "if_not_exists": ""}


def drop_column(name):
    return {"fmt": "DROP %{objtype}s %{if_exists}s %{column}I %{cascade}s", "type": "drop column", "column": name,
            "cascade": {"fmt": "CASCADE", "present": False}, "objtype": "COLUMN", "if_exists": ""}


def set_type(name, typ):
    return {"fmt": "ALTER %{objtype}s %{column}I SET DATA TYPE %{datatype}T %{collation}s %{using}s",
            "type": "alter column type", "using": {"fmt": "USING %{expression}s", "present": False}, "column": name,
            "objtype": "COLUMN", "datatype": typ, "collation": {"fmt": "COLLATE %{name}D", "present": False}}


SET_NOT_NULL = {"fmt": "ALTER COLUMN %{column}I SET NOT NULL", "type": "set not null", "column": "amount"}


def add_constraint(name, definition):
    return {"fmt": "ADD CONSTRAINT %{name}I %{definition}s", "name": name, "type": "add constraint",
            "definition": definition}


def rename_column(schema, table, old, new):
    return {"fmt": "ALTER %{objtype}s %{identity}D RENAME COLUMN %{colname}I TO %{newname}I", "colname": old,
            "newname": new, "objtype": "TABLE", "identity": _ident(schema, table)}


def rename_table(schema, table, new):
    return {"fmt": "ALTER %{objtype}s %{if_exists}s %{identity}D RENAME TO %{newname}I", "newname": new,
            "objtype": "TABLE", "identity": _ident(schema, table), "if_exists": ""}


def create_index(schema, table, name, definition, unique=False):
    return {"fmt": "CREATE %{unique}s INDEX %{concurrently}s %{name}I ON %{table}D USING %{index_am}s %{definition}s",
            "name": name, "table": _ident(schema, table), "unique": "UNIQUE" if unique else "", "index_am": "btree",
            "definition": definition, "concurrently": ""}


def create_view(schema, name, query):
    return {"fmt": "CREATE %{or_replace}s %{persistence}s VIEW %{identity}D AS %{query}s", "query": query,
            "identity": _ident(schema, name), "or_replace": "OR REPLACE", "persistence": ""}


def drop(objtype, identity, cascade=False):
    return {"fmt": "DROP %{objtype}s %{concurrently}s %{if_exists}s %{objidentity}s %{cascade}s",
            "cascade": "CASCADE" if cascade else "", "objtype": objtype, "if_exists": "", "objidentity": identity,
            "concurrently": ""}


INT4, INT8, TEXT = _type("int4"), _type("int8"), _type("text")
LOG = [
    {"fmt": "CREATE SCHEMA %{if_not_exists}s %{name}I %{authorization}s %{blockchain}s", "name": "shop",
     "blockchain": {"fmt": "WITH BLOCKCHAIN %{blockchain}s", "present": False},
     "authorization": {"fmt": "AUTHORIZATION %{authorization_role}I", "present": False}, "if_not_exists": ""},
    create_table("shop", "orders", [
        _col("id", INT4, not_null=True),
        _col("note", _type("varchar", "(20)"), default="'n/a'::character varying"),
        _col("amount", _type("numeric", "(10,2)")),
        _con("orders_pkey", "primary key", "PRIMARY KEY (id)"),
        _con("orders_amount_check", "check", "CHECK ((amount > (0)::numeric))"),
    ]),
    alter("shop", "orders", add_column(_col("c", TEXT, default="'x'::text")), SET_NOT_NULL, set_type("id", INT8),
          add_constraint("orders_note_key", "UNIQUE (note)")),
    create_index("shop", "orders", "orders_amount_idx", "(amount)"),
    rename_column("shop", "orders", "amount", "total"),
    alter("shop", "orders", drop_column("c")),
    rename_table("shop", "orders", "purchases"),
    create_table("shop", "sales", [_col("id", INT4), _col("region", TEXT)],
                 "\nPARTITION BY RANGE (id)\n( \n    PARTITION p1 VALUES LESS THAN (100),\n"
                 "    PARTITION p2 VALUES LESS THAN (200)\n)\nENABLE ROW MOVEMENT"),
    alter("shop", "sales", {"fmt": "ADD PARTITION %{name}I VALUES LESS THAN (%{maxvalues:, }s)", "name": "p3",
                            "type": "add partition", "maxvalues": ["300"]}),
    alter("shop", "sales", {"fmt": "DROP PARTITION %{name}I", "type": "drop partition", "name": "p1"}),
    create_index("shop", "sales", "sales_region_idx", "(region)"),
    create_view("shop", "v_big", "SELECT purchases.id, purchases.total FROM shop.purchases "
                                 "WHERE (purchases.total > (100)::numeric);"),
    create_table("shop", "tmp", [_col("a", INT4)]),
    create_index("shop", "tmp", "tmp_a_idx", "(a)"),
    drop("table", "shop.tmp"),
    {"fmt": "COMMENT ON %{objtype}s %{identity}s IS %{comment}s", "objtype": "TABLE", "identity": "shop.purchases",
     "comment": {"fmt": "%{null}s %{literal}s", "null": {"fmt": "NULL", "present": False},
                 "literal": {"fmt": "%{value}L", "value": "it's purchases", "present": True}}},
]


# renames that texts written earlier must follow: a foreign key's columns and target, a view's table and column
RENAMES = [
    LOG[0],
    create_table("shop", "cust", [_col("id", INT4, not_null=True), _con("cust_pkey", "primary key", "PRIMARY KEY (id)")]),
    create_table("shop", "ord", [_col("id", INT4), _col("cid", INT4)]),
    alter("shop", "ord", add_constraint("ord_cid_fkey", "FOREIGN KEY (cid) REFERENCES shop.cust(id) ON DELETE CASCADE")),
    create_view("shop", "v", "SELECT cust.id FROM shop.cust;"),
    rename_table("shop", "cust", "customers"),
    rename_column("shop", "customers", "id", "cust_id"),
    rename_column("shop", "ord", "cid", "customer"),
    {"fmt": "ALTER SCHEMA %{identity}I RENAME TO %{newname}I", "newname": "store", "identity": "shop"},
]


def _log_text(log=LOG) -> str:
    return "".join(json.dumps(d) + "\n" for d in log)


def _fold(text: str, **kw):
    return fold_log(read_documents(text.encode()), Options.of(**kw))


def _column(name, typ, typmod="", *, not_null=False, default=None):
    return {"name": name, "type": {"schema": "pg_catalog", "name": typ, "typmod": typmod, "array": False},
            "not_null": not_null, "default": default, "identity": False, "generated": None, "collation": None,
            "on_update": None, "comment": None}


def test_the_json_model_of_a_hand_written_log_is_exact():
    r = _fold(_log_text())
    assert r.errors == []
    assert [d.code for d in r.diagnostics] == []
    got = r.model.to_json()
    assert got == {
        "format": "ddlc-replay", "version": 1,
        "schemas": [{"name": "shop", "authorization": None, "comment": None}],
        "tables": [
            {"schema": "shop", "name": "purchases", "persistence": "permanent",
             "columns": [_column("id", "int8", not_null=True),
                         _column("note", "varchar", "(20)", default="'n/a'::character varying"),
                         _column("total", "numeric", "(10,2)", not_null=True)],
             "constraints": [
                 {"name": "orders_pkey", "kind": "primary key", "definition": "PRIMARY KEY (id)", "columns": ["id"],
                  "references": None, "ref_columns": None, "using_index": None, "inline": True},
                 {"name": "orders_amount_check", "kind": "check", "definition": "CHECK (total > CAST(0 AS numeric))",
                  "columns": [], "references": None, "ref_columns": None, "using_index": None, "inline": True},
                 {"name": "orders_note_key", "kind": "unique", "definition": "UNIQUE (note)", "columns": ["note"],
                  "references": None, "ref_columns": None, "using_index": None, "inline": False}],
             "partitioning": None, "comment": "it's purchases"},
            {"schema": "shop", "name": "sales", "persistence": "permanent",
             "columns": [_column("id", "int4"), _column("region", "text")], "constraints": [],
             "partitioning": {"strategy": "RANGE", "key": ["id"], "sub_strategy": None, "sub_key": [],
                              "partitions": [
                                  {"name": "p2", "upper": ["200"], "values": None, "subpartitions": []},
                                  {"name": "p3", "upper": ["300"], "values": None, "subpartitions": []}]},
             "comment": None},
        ],
        "indexes": [
            {"schema": "shop", "name": "orders_amount_idx", "table": {"schema": "shop", "name": "purchases"},
             "unique": False, "method": "btree", "keys": ["total"], "definition": None, "include": [],
             "where": None, "comment": None},
            {"schema": "shop", "name": "sales_region_idx", "table": {"schema": "shop", "name": "sales"},
             "unique": False, "method": "btree", "keys": ["region"], "definition": "(region)", "include": [],
             "where": None, "comment": None},
        ],
        "views": [{"schema": "shop", "name": "v_big", "query": "SELECT purchases.id, purchases.total FROM "
                   "shop.purchases WHERE (purchases.total > (100)::numeric);", "comment": None,
                   "column_comments": {}}],
        "sequences": [],
    }


def test_statements_that_change_nothing_or_are_unknown_are_said():
    extra = [
        {"TDDL": "TRUNCATE TABLE shop.purchases;"},
        alter("shop", "nowhere", add_column(_col("x", INT4))),
        drop("function", "shop.f(integer)"),
    ]
    r = _fold(_log_text() + "".join(json.dumps(d) + "\n" for d in extra))
    assert [d.code for d in r.diagnostics] == ["DDLC-I960", "DDLC-W962", "DDLC-N961"]
    assert r.diagnostics[1].document == "<input>:18"


def test_the_fixture_streams_fold():
    for name, tables in (("sample/ddl.jsonl", ["sales.sales"]), ("streams/test_decoding.txt", []),
                         ("streams/mppdb_decoding.txt", ["db1.t_b"])):
        r = fold_log(read_inputs([str(FIXTURES / name)]), Options.of())
        assert r.errors == []
        assert [f"{t['schema']}.{t['name']}" for t in r.model.to_json()["tables"]] == tables, name
    r = fold_log(read_inputs([str(FIXTURES / "sample/ddl.jsonl")]), Options.of())
    assert {d.code for d in r.diagnostics} == {"DDLC-N961"}  # functions and the trigger


def _run(*args, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*ddlc_command(), *args], input=stdin, capture_output=True, text=True)


def test_replay_cli_json_and_exit_code(tmp_path):
    p = tmp_path / "log.jsonl"
    p.write_text(_log_text())
    r = _run("replay", "--format", "json", str(p))
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["tables"][0]["name"] == "purchases"
    assert r.stderr.strip().endswith("0 errors, 0 lines not recognised")
    r = _run("replay", "--format", "json", "--schema-map", "shop=store", stdin=_log_text())
    assert [t["schema"] for t in json.loads(r.stdout)["tables"]] == ["store", "store"]
    assert "store.purchases" in json.loads(r.stdout)["views"][0]["query"]


def _apply(conn, sql: str) -> None:
    with conn.cursor() as cur:
        cur.execute(sql)
    conn.commit()


def _same_catalogs(pg_server, path, skip=()):
    from engines.catalog import snapshot

    translated = _run("translate", "--to", "postgres", str(path))
    assert translated.returncode == 0, translated.stderr
    replayed = _run("replay", "--to", "postgres", str(path))
    assert replayed.returncode == 0, replayed.stderr
    assert "RENAME" not in replayed.stdout and "DROP" not in replayed.stdout
    dbs = []
    for sql in (translated.stdout, replayed.stdout):
        name = pg_server.fresh_database()
        with pg_server.connect(name) as conn:
            _apply(conn, sql)
            dbs.append("\n".join(line for line in snapshot(conn).splitlines() if not line.startswith(skip)))
    assert dbs[0] == dbs[1]
    return replayed, dbs[1]


def test_renames_follow_into_foreign_keys_and_views_on_postgres(pg_server, tmp_path):
    p = tmp_path / "log.jsonl"
    p.write_text(_log_text(RENAMES))
    replayed, catalog = _same_catalogs(pg_server, p)
    assert "warning" not in replayed.stderr
    assert "view: store.v  SELECT customers.cust_id AS id FROM store.customers;" in catalog
    assert "FOREIGN KEY (customer) REFERENCES store.customers(cust_id) ON DELETE CASCADE" in catalog


def test_the_postgres_script_builds_the_catalog_the_whole_log_builds(pg_server, tmp_path):
    from engines.catalog import snapshot

    p = tmp_path / "log.jsonl"
    p.write_text(_log_text())
    translated = _run("translate", "--to", "postgres", str(p))
    assert translated.returncode == 0, translated.stderr
    replayed = _run("replay", "--to", "postgres", str(p))
    assert replayed.returncode == 0, replayed.stderr
    assert "RENAME" not in replayed.stdout and "DROP" not in replayed.stdout
    dbs = []
    for sql in (translated.stdout, replayed.stdout):
        name = pg_server.fresh_database()
        with pg_server.connect(name) as conn:
            _apply(conn, sql)
            dbs.append(snapshot(conn))
    assert dbs[0] == dbs[1]
    assert "shop.purchases.total numeric(10,2) not null" in dbs[1]
    assert "partition: shop.sales <- shop.sales_p2 FOR VALUES FROM (MINVALUE) TO (200)" in dbs[1]  # p1 dropped
    assert "partition: shop.sales <- shop.sales_p3 FOR VALUES FROM (200) TO (300)" in dbs[1]
    assert "CREATE INDEX orders_amount_idx ON shop.purchases USING btree (total)" in dbs[1]


@pytest.mark.parametrize("log", ["sample/ddl.jsonl", "streams/test_decoding.txt"])
def test_fixture_logs_replay_to_the_same_postgres_catalog(pg_server, log):
    _same_catalogs(pg_server, FIXTURES / log, skip=("function:", "trigger:", "type:"))


def test_the_spark_script_parses(spark):
    r = _fold(_log_text())
    parts = script(r, "spark", Options.of(on_unsupported="skip"))
    sql = [s for p in parts for s in p.result.statements]
    assert sql[0] == "CREATE SCHEMA shop"
    assert any(s.startswith("CREATE TABLE shop.purchases (id BIGINT NOT NULL") for s in sql)
    for s in sql:
        spark.parse(s)
    assert all(p.result.error is None for p in parts)


def test_gaussdb_script_is_written():
    r = _fold(_log_text())
    parts = script(r, "gaussdb", Options.of())
    assert all(p.result.error is None for p in parts)
    sql = [s for p in parts for s in p.result.statements]
    assert any("PARTITION p2 VALUES LESS THAN (200)" in s and "PARTITION p3 VALUES LESS THAN (300)" in s
               and "p1" not in s for s in sql)
