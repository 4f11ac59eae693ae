"""Spark output properties, checked with Spark 4's own parser.

* any identifier (schema, table, column) spark-sql can read safely and any string literal (a comment, a
  column default) survives a round trip through ddlc's Spark output and Spark's parser unchanged; a name
  spark-sql's script reading cannot take (``script_unsafe``: quotes, ``;``, ``\\``, ``--``, ``/*``, controls)
  refuses its statement (DDLC-W804; ``tests/test_spark_script_safety.py`` proves why);
* hostile values never add a statement: each statement ddlc reports parses as exactly one plan of the
  kind ddlc wrote, holding the value;
* the keyword table of ``ddlc.backends.spark.quoting`` is exactly what Spark's parser needs.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ddlc
from ddlc.backends.spark.quoting import STRICT_KEYWORDS, VALUE_WORDS, UnsafeName, script_unsafe, spark_ident, spark_literal
from engines.spark import planned_table

# text the input may hold (ddlc refuses NUL and lone surrogates in any document: DDLC-E006)
TEXT = st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\x00"), min_size=1, max_size=30)
HOSTILE = ["x'; DROP TABLE t; --", "a`b", "`", "``", "a\\", "\\'", "'", "--", "/*", "*/", ";", "a\nb", "\t",
           "select", "from", "join", "using", "null", "true", "current_date", "user", "é", "\u202eevil", " ", "a.b",
           "$x$", "${x}", "\\u0041", "\\n", "%"]
NAMES = st.one_of(st.sampled_from(HOSTILE), TEXT)
SETTINGS = settings(max_examples=120, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _create(schema: str, table: str, column: str, default: str | None = None) -> dict:
    col = {"fmt": "%{name}I %{coltype}T %{default}s", "name": column,
           "coltype": {"typmod": "", "typarray": False, "typename": "text", "schemaname": "pg_catalog"},
           "default": {"fmt": "DEFAULT %{default}s", "present": default is not None, "default": default or ""}}
    return {"fmt": "CREATE %{persistence}s TABLE %{if_not_exists}s %{identity}D %{table_elements}s",
            "persistence": "", "if_not_exists": "", "identity": {"objname": table, "schemaname": schema},
            "table_elements": {"fmt": "(%{elements:, }s)", "elements": [col]}}


def _pg_literal(v: str) -> str:
    """The server's rendering of a string constant (standard_conforming_strings on)."""
    return "'" + v.replace("'", "''") + "'::text"


@SETTINGS
@given(schema=NAMES, table=NAMES, column=NAMES)
def test_identifiers_survive_spark_parser(spark, schema, table, column):
    if any(script_unsafe(n) for n in (schema, table, column)):  # spark-sql cannot read it: refused, cleanly
        with pytest.raises(ddlc.DdlcError, match="DDLC-W804|DDLC-E007"):
            ddlc.translate(_create(schema, table, column), target="spark")
        if not any("${" in n for n in (schema, table, column)):
            t = ddlc.translate(_create(schema, table, column), target="spark", on_unsupported="skip")
            assert t.statements == () and "DDLC-W804" in {d.code for d in t.diagnostics}
        return
    if any("${" in n for n in (schema, table, column)):  # Spark substitutes ${...}: refused, cleanly
        with pytest.raises(ddlc.DdlcError, match="DDLC-E007"):
            ddlc.translate(_create(schema, table, column), target="spark")
        return
    t = ddlc.translate(_create(schema, table, column), target="spark", on_unsupported="skip")
    assert len(t.statements) == 1
    plan = planned_table(spark.parse(t.statements[0]))
    assert plan.name == [schema, table]
    assert [c.name for c in plan.columns] == [column]


@SETTINGS
@given(schema=NAMES, table=NAMES, catalog=NAMES)
def test_three_part_names_survive_spark_parser(spark, schema, table, catalog):
    if any("${" in n for n in (schema, table, catalog)):
        return
    if any(script_unsafe(n) for n in (schema, table, catalog)):  # refused (DDLC-W804), never written
        t = ddlc.translate(_create(schema, table, "c"), target="spark", on_unsupported="skip", spark_catalog=catalog)
        assert t.statements == ()
        return
    t = ddlc.translate(_create(schema, table, "c"), target="spark", on_unsupported="skip", spark_catalog=catalog)
    assert planned_table(spark.parse(t.statements[0])).name == [catalog, schema, table]


@SETTINGS
@given(comment=st.one_of(st.sampled_from(HOSTILE), TEXT))
def test_comment_literals_survive_spark_parser(spark, comment):
    doc = {"fmt": "COMMENT ON %{objtype}s %{identity}s IS %{comment}s", "objtype": "TABLE", "identity": "public.t",
           "comment": {"fmt": "%{null}s %{literal}s", "null": {"fmt": "NULL", "present": False},
                       "literal": {"fmt": "%{value}L", "value": comment, "present": True}}}
    t = ddlc.translate(doc, target="spark")
    assert len(t.statements) == 1
    plan = spark.parse(t.statements[0])
    assert plan.getClass().getSimpleName() == "CommentOnTable"
    assert plan.comment() == comment


@SETTINGS
@given(value=st.one_of(st.sampled_from(HOSTILE), TEXT))
def test_default_literals_survive_sqlglot_and_spark(spark, value):
    """A string default goes pglast tree -> sqlglot -> Spark text; Spark reads back the same string."""
    if "${" in value:  # Spark would substitute it: the default is left out (DDLC-W810), never mangled
        t = ddlc.translate(_create("s", "t", "c", _pg_literal(value)), target="spark", on_unsupported="skip")
        assert "DDLC-W810" in {d.code for d in t.diagnostics} and "DEFAULT" not in t.sql
        return
    t = ddlc.translate(_create("s", "t", "c", _pg_literal(value)), target="spark")
    assert len(t.statements) == 1
    (col,) = planned_table(spark.parse(t.statements[0])).columns
    lit = spark._parser.parseExpression(col.default)
    assert lit.getClass().getSimpleName() == "Literal"
    assert lit.value().toString() == value


@pytest.mark.parametrize("value", HOSTILE)
def test_quoting_functions_round_trip(spark, value):
    if "${" in value:
        with pytest.raises(ddlc.DdlcError):
            spark_ident(value)
        name = "t"
    elif script_unsafe(value):  # spark-sql's splitter or line reader would misread it: never written
        with pytest.raises(UnsafeName):
            spark_ident(value)
        name = "t"
    else:
        name = spark_ident(value)
    plan = spark.parse("COMMENT ON TABLE " + name + "." + name + " IS " + spark_literal(value))
    assert plan.comment() == value


def test_keyword_table_is_what_spark_needs(spark):
    """Every keyword Spark lists either parses bare in every position the target writes a name, or is in
    the table; every keyword of the table's strict part fails bare somewhere."""
    keywords = [r[0].lower() for r in spark.session.sql("SELECT keyword FROM sql_keywords()").collect()]
    probes = ["CREATE TABLE {k}.{k} ({k} INT NOT NULL, b INT) USING DELTA PARTITIONED BY ({k})",
              "SELECT {k}, {k}.{k} AS {k} FROM {k}.{k} AS {k} WHERE {k} = 1",
              "ALTER TABLE {k}.{k} RENAME COLUMN {k} TO {k}",
              "ALTER TABLE {k}.{k} ADD CONSTRAINT {k} CHECK ({k} > 1)",
              "COMMENT ON COLUMN {k}.{k}.{k} IS 'x'"]

    def bare_ok(k: str) -> bool:
        for p in probes:
            try:
                spark.parse(p.format(k=k))
            except Exception:  # noqa: BLE001
                return False
        return True

    failing = {k for k in keywords if not bare_ok(k)}
    assert failing <= STRICT_KEYWORDS | VALUE_WORDS, sorted(failing - STRICT_KEYWORDS)
    assert STRICT_KEYWORDS <= failing, sorted(STRICT_KEYWORDS - failing)
