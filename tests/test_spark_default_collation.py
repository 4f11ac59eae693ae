"""The database's default collation (``COLLATE pg_catalog."default"``) names no collation: on Spark it costs
nothing, in CREATE TABLE as in ALTER COLUMN TYPE, MODIFY and CHANGE (issue 23.6: it was dropped with a
warning, and under --on-unsupported error it failed the statement). A real collation is still reported.
The ALTER is executed by Spark 4 in a SparkSession."""

from __future__ import annotations

import json

import ddlc

CREATE = {"TDDL": "CREATE TABLE s.t (a pg_catalog.varchar(100));"}


def _alter(collation: dict) -> dict:
    return {"fmt": "ALTER %{objtype}s %{only}s %{identity}D %{subcmds:, }s", "only": "", "objtype": "TABLE",
            "identity": {"objname": "t", "schemaname": "s"},
            "subcmds": [{"fmt": "ALTER %{objtype}s %{column}I SET DATA TYPE %{datatype}T %{collation}s %{using}s",
                         "type": "alter column type", "using": {"fmt": "USING %{expression}s", "present": False},
                         "column": "a", "objtype": "COLUMN",
                         "datatype": {"typmod": "(200)", "typarray": False, "typename": "varchar",
                                      "schemaname": "pg_catalog"},
                         "collation": {"fmt": "COLLATE %{name}D", **collation}}]}


def _spark(doc: dict) -> ddlc.Translation:
    return list(ddlc.translate_many([json.dumps(CREATE), json.dumps(doc)], target="spark",
                                    on_unsupported="error"))[1]


def test_the_default_collation_costs_nothing(spark):
    r = _spark(_alter({"name": {"objname": "default", "schemaname": "pg_catalog"}}))
    assert r.error is None and r.sql == "ALTER TABLE s.t ALTER COLUMN a TYPE VARCHAR(200);\n"
    assert not [d for d in r.diagnostics if d.severity.value in ("warning", "error")]
    spark.run("CREATE DATABASE IF NOT EXISTS s")
    spark.run("DROP TABLE IF EXISTS s.t")
    spark.run("CREATE TABLE s.t (a VARCHAR(100)) USING parquet")
    try:
        spark.run(r.sql.rstrip().rstrip(";"))
    except Exception as exc:  # noqa: BLE001 - parquet cannot widen in place; the statement must still parse
        assert "PARSE_SYNTAX_ERROR" not in str(exc), exc
    assert spark.parse(r.sql.rstrip().rstrip(";")) is not None


def test_a_real_collation_is_still_reported():
    r = list(ddlc.translate_many([json.dumps(CREATE), json.dumps(_alter({"name": {"objname": "C", "schemaname": "pg_catalog"}}))],
                                 target="spark"))[1]
    assert [d.code for d in r.diagnostics if d.severity.value == "warning"] == ["DDLC-W822"]
