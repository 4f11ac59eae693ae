"""A decoded history on the Spark target: each statement parses with Spark's parser, and the statements
applied in order (the stand-in ``delta`` source, delta-rs for what only Delta runs) end in the expected
table.

The stream: CREATE TABLE (with a CHECK), ADD COLUMN, RENAME COLUMN, ALTER COLUMN TYPE (a widening the
history makes legal), DROP COLUMN, COMMENT ON COLUMN, COMMENT ON TABLE, ADD CONSTRAINT ... CHECK, and
finally DROP TABLE; then a range-partitioned table whose partition is dropped (DELETE from the bounds
the history kept).
"""

from __future__ import annotations

import pytest

import ddlc
from engines.spark import NeedsDelta, delta_report, delta_table, planned_check, planned_table


def _col(name: str, typename: str, not_null: bool = False) -> dict:
    fmt = "%{name}I %{coltype}T" + (" %{not_null}s" if not_null else "")
    out = {"fmt": fmt, "name": name, "type": "column",
           "coltype": {"typmod": "", "typarray": False, "typename": typename, "schemaname": "pg_catalog"}}
    if not_null:
        out["not_null"] = "NOT NULL"
    return out


def _alter(table: str, *subcmds: dict) -> dict:
    return {"fmt": "ALTER %{objtype}s %{only}s %{identity}D %{subcmds:, }s", "only": "", "objtype": "TABLE",
            "identity": {"objname": table, "schemaname": "hist"}, "subcmds": list(subcmds)}


def _comment(objtype: str, identity: str, text: str) -> dict:
    return {"fmt": "COMMENT ON %{objtype}s %{identity}s IS %{comment}s", "objtype": objtype, "identity": identity,
            "comment": {"fmt": "%{null}s %{literal}s", "null": {"fmt": "NULL", "present": False},
                        "literal": {"fmt": "%{value}L", "value": text, "present": True}}}


STREAM = [
    {"fmt": "CREATE SCHEMA %{if_not_exists}s %{name}I %{authorization}s %{blockchain}s", "if_not_exists": "",
     "name": "hist", "authorization": {"fmt": "AUTHORIZATION %{authorization_role}I", "present": False},
     "blockchain": {"fmt": "WITH BLOCKCHAIN %{blockchain}s", "present": False}},
    {"fmt": "CREATE %{persistence}s TABLE %{if_not_exists}s %{identity}D %{table_elements}s", "persistence": "",
     "if_not_exists": "", "identity": {"objname": "orders", "schemaname": "hist"},
     "table_elements": {"fmt": "(%{elements:, }s)", "elements": [
         _col("id", "int4", not_null=True), _col("note", "text"), _col("qty", "int4"),
         {"fmt": "CONSTRAINT %{name}I %{definition}s", "name": "orders_qty_check", "type": "constraint",
          "contype": "check", "definition": "CHECK ((qty >= 0))"}]}},
    _alter("orders", {"fmt": "ADD %{objtype}s %{if_not_exists}s %{definition}s %{cascade}s", "type": "add column",
                      "cascade": "", "objtype": "COLUMN", "if_not_exists": "",
                      "definition": _col("amount", "numeric") | {"coltype": {"typmod": "(10,2)", "typarray": False,
                                                                            "typename": "numeric",
                                                                            "schemaname": "pg_catalog"}}}),
    {"fmt": "ALTER %{objtype}s %{identity}D RENAME COLUMN %{colname}I TO %{newname}I", "colname": "note",
     "newname": "remark", "objtype": "TABLE", "identity": {"objname": "orders", "schemaname": "hist"}},
    _alter("orders", {"fmt": "ALTER %{objtype}s %{column}I SET DATA TYPE %{datatype}T %{collation}s %{using}s",
                      "type": "alter column type", "using": {"fmt": "USING %{expression}s", "present": False},
                      "column": "qty", "objtype": "COLUMN", "collation": {"fmt": "COLLATE %{name}D", "present": False},
                      "datatype": {"typmod": "", "typarray": False, "typename": "int8", "schemaname": "pg_catalog"}}),
    _alter("orders", {"fmt": "DROP %{objtype}s %{if_exists}s %{column}I %{cascade}s", "type": "drop column",
                      "column": "amount", "cascade": {"fmt": "CASCADE", "present": False}, "objtype": "COLUMN",
                      "if_exists": ""}),
    _comment("COLUMN", "hist.orders.remark", "free text, it's optional"),
    _comment("TABLE", "hist.orders", "orders from GaussDB"),
    _alter("orders", {"fmt": "ADD CONSTRAINT %{name}I %{definition}s", "name": "orders_id_check",
                      "type": "add constraint", "definition": "CHECK ((id > 0))"}),
]
EXPECTED_BEFORE_DROP = """\
managed hist.orders
  id int NOT NULL
  remark string COMMENT "free text, it's optional"
  qty bigint
  comment: 'orders from GaussDB'
  properties: delta.columnMapping.mode=name, delta.enableTypeWidening=true"""

PARTITIONED = [
    {"fmt": "CREATE %{persistence}s TABLE %{if_not_exists}s %{identity}D %{table_elements}s %{partition_by}s",
     "persistence": "", "if_not_exists": "", "identity": {"objname": "readings", "schemaname": "hist"},
     "table_elements": {"fmt": "(%{elements:, }s)", "elements": [_col("k", "int4"), _col("v", "text")]},
     "partition_by": "\nPARTITION BY RANGE (k)\n(\n    PARTITION p1 VALUES LESS THAN (100),\n"
                     "    PARTITION p2 VALUES LESS THAN (200),\n    PARTITION p3 VALUES LESS THAN (MAXVALUE)\n)"},
    _alter("readings", {"fmt": "DROP PARTITION %{name}I", "type": "drop partition", "name": "p2"}),
    _alter("readings", {"fmt": "TRUNCATE PARTITION %{partition}s", "type": "truncate partition", "partition": "p3"}),
]


def _translate(docs: list[dict]) -> list:
    out = list(ddlc.translate_many(docs, target="spark"))
    for t in out:
        assert t.error is None, t.error
    return out


def test_history_of_a_table(spark, tmp_path):
    spark.reset()
    results = _translate(STREAM + [{"fmt": "DROP %{objtype}s %{concurrently}s %{if_exists}s %{objidentity}s "
                                           "%{cascade}s", "cascade": "", "objtype": "table", "if_exists": "",
                                    "objidentity": "hist.orders", "concurrently": ""}])
    statements = [s for t in results for s in t.statements]
    assert statements == [
        "CREATE SCHEMA hist",
        "CREATE TABLE hist.orders (id INT NOT NULL, note STRING, qty INT) USING DELTA "
        "TBLPROPERTIES ('delta.columnMapping.mode' = 'name')",
        "ALTER TABLE hist.orders ADD CONSTRAINT orders_qty_check CHECK (qty >= 0)",
        "ALTER TABLE hist.orders ADD COLUMNS (amount DECIMAL(10,2))",
        "ALTER TABLE hist.orders RENAME COLUMN note TO remark",
        "ALTER TABLE hist.orders SET TBLPROPERTIES ('delta.enableTypeWidening' = 'true')",
        "ALTER TABLE hist.orders ALTER COLUMN qty TYPE BIGINT",
        "ALTER TABLE hist.orders DROP COLUMN amount",
        "COMMENT ON COLUMN hist.orders.remark IS 'free text, it\\'s optional'",
        "COMMENT ON TABLE hist.orders IS 'orders from GaussDB'",
        "ALTER TABLE hist.orders ADD CONSTRAINT orders_id_check CHECK (id > 0)",
        "DROP TABLE hist.orders",
    ]
    plans = [spark.parse(s) for s in statements]
    needs_delta = []
    for sql in statements[:-1]:
        try:
            spark.run(sql)
        except NeedsDelta:
            needs_delta.append(sql)
    # only the CHECK constraints need Delta's own catalog; they are added to a real Delta table below
    assert needs_delta == [statements[2], statements[10]]
    assert spark.describe("hist", "orders") == EXPECTED_BEFORE_DROP
    spark.run(statements[-1])
    assert spark.relations("hist") == []

    checks = dict(planned_check(p)[1:] for p in plans if planned_check(p) is not None)
    created = planned_table(plans[1])
    dt = delta_table(str(tmp_path / "orders"), created, checks)
    assert delta_report(dt, created, checks) == """\
delta hist.orders
  id integer NOT NULL
  note string
  qty integer
  configuration: delta.columnMapping.mode=name, delta.constraints.orders_id_check=id > 0, \
delta.constraints.orders_qty_check=qty >= 0
  protocol: reader 2, writer 5; features: -"""


def test_history_keeps_partition_bounds(spark):
    results = _translate([STREAM[0]] + PARTITIONED)
    statements = [s for t in results for s in t.statements]
    assert statements[1:] == [
        "CREATE TABLE hist.readings (k INT, v STRING) USING DELTA CLUSTER BY (k) "
        "TBLPROPERTIES ('delta.columnMapping.mode' = 'name')",
        "DELETE FROM hist.readings WHERE k >= 100 AND k < 200",
        # p2 dropped: p3 now holds every key from p1's upper bound on, as in GaussDB
        "DELETE FROM hist.readings WHERE k >= 100",
    ]
    for s in statements:
        spark.parse(s)


@pytest.mark.parametrize("option,expected", [
    (dict(spark_partitioning="partition"), "PARTITIONED BY (k)"),
    (dict(spark_partitioning="none"), "USING DELTA TBLPROPERTIES"),
    (dict(spark_column_mapping="id"), "'delta.columnMapping.mode' = 'id'"),
    (dict(spark_catalog="main"), "CREATE TABLE main.hist.readings"),
])
def test_spark_options(spark, option, expected):
    t = ddlc.translate(PARTITIONED[0], target="spark", **option)
    assert expected in t.statements[0]
    spark.parse(t.statements[0])


def test_view_queries_are_analysed_by_spark(spark):
    """The fixture views' queries (GaussDB functions rewritten, casts, ORDER BY/LIMIT/OFFSET), under a name
    Spark's session catalog accepts, run on the stand-in against the table they read."""
    import json

    from conftest import CASES

    spark.reset()
    spark.run("CREATE SCHEMA public")
    spark.run("CREATE TABLE public.orders (id INT NOT NULL, note STRING, amount DECIMAL(10,2)) USING DELTA")
    for case in ("view/gaussdb-functions", "view/create-or-replace"):
        tree = json.loads((CASES / case / "input.json").read_text("utf-8"))
        tree["identity"]["objname"] = "v_" + case.rsplit("/", 1)[1].replace("-", "_")
        (sql,) = ddlc.translate(tree, target="spark").statements
        spark.run(sql)
        view = spark.describe("public", tree["identity"]["objname"])
        assert view.startswith("view public.v_"), view
    assert spark.describe("public", "v_gaussdb_functions").splitlines()[1:5] == [
        "  id int NOT NULL", "  note string NOT NULL", "  short_note string", "  seen_at timestamp_ntz NOT NULL"]


def test_options_are_checked_up_front():
    from ddlc.api import SPARK_COLUMN_MAPPING, SPARK_PARTITIONING, SPARK_VARCHAR
    from ddlc.cli import SPARK_COLUMN_MAPPING as CLI_MAPPING
    from ddlc.cli import SPARK_PARTITIONING as CLI_PARTITIONING
    from ddlc.cli import SPARK_VARCHAR as CLI_VARCHAR

    assert (CLI_PARTITIONING, CLI_MAPPING, CLI_VARCHAR) == (SPARK_PARTITIONING, SPARK_COLUMN_MAPPING, SPARK_VARCHAR)
    for bad in (dict(spark_partitioning="range"), dict(spark_column_mapping="names"), dict(spark_varchar="text"),
                dict(spark_catalog="")):
        with pytest.raises(ValueError):
            ddlc.translate(PARTITIONED[0], target="spark", **bad)
    with pytest.raises(TypeError):
        ddlc.translate(PARTITIONED[0], target="spark", spark_catalog=3)
    t = ddlc.translate(_alter("t", {"fmt": "ADD %{objtype}s %{if_not_exists}s %{definition}s %{cascade}s",
                                    "type": "add column", "cascade": "", "objtype": "COLUMN", "if_not_exists": "",
                                    "definition": _col("c", "varchar") | {"coltype": {
                                        "typmod": "(20)", "typarray": False, "typename": "varchar",
                                        "schemaname": "pg_catalog"}}}),
                       target="spark", spark_varchar="string")
    assert t.statements == ("ALTER TABLE hist.t ADD COLUMNS (c STRING)",)
