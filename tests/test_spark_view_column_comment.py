"""COMMENT ON COLUMN of a view is not written for Spark when the history knows the relation is a view: Spark
refuses it (EXPECT_TABLE_NOT_VIEW), so the statement is reported (DDLC-W831) instead of failing on the target
(issue 25.4: a statement the target will refuse is never silent). Proven on Spark 4 in a SparkSession."""

from __future__ import annotations

import json

import ddlc

LOG = [{"TDDL": "CREATE TABLE s.t (a int);"}, {"TDDL": "CREATE VIEW s.v AS SELECT t.a FROM s.t;"},
       {"TDDL": "COMMENT ON COLUMN s.v.a IS 'x';"}, {"TDDL": "COMMENT ON COLUMN s.t.a IS 'y';"}]


def test_a_view_columns_comment_is_reported_not_written():
    r = list(ddlc.translate_many([json.dumps(d) for d in LOG], target="spark", on_unsupported="comment"))
    assert r[2].statements == () and [d.code for d in r[2].diagnostics] == ["DDLC-W831"]
    assert r[2].sql.startswith("-- ddlc DDLC-W831: not translated: COMMENT ON COLUMN s.v.a IS 'x'")
    assert r[3].sql == "COMMENT ON COLUMN s.t.a IS 'y';\n"  # a table's column: written
    alone = ddlc.translate(json.dumps(LOG[2]), target="spark")  # no history: written as it is
    assert alone.sql == "COMMENT ON COLUMN s.v.a IS 'x';\n"


def test_spark_refuses_what_is_no_longer_written(spark):
    # (a schema of its own: the session is shared, and another test may hold a table s.v)
    spark.run("CREATE DATABASE IF NOT EXISTS s_vcc")
    spark.run("CREATE TABLE IF NOT EXISTS s_vcc.t (a INT) USING parquet")
    spark.run("CREATE OR REPLACE VIEW s_vcc.v AS SELECT t.a FROM s_vcc.t")
    spark.run("COMMENT ON COLUMN s_vcc.t.a IS 'y'")  # a table's column: taken
    try:
        spark.run("COMMENT ON COLUMN s_vcc.v.a IS 'x'")
    except Exception as exc:  # noqa: BLE001 - pyspark's AnalysisException
        assert "EXPECT_TABLE_NOT_VIEW" in str(exc) or "view" in str(exc).lower()
    else:
        raise AssertionError("Spark took COMMENT ON COLUMN of a view")
