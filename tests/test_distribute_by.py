"""GaussDB's DISTRIBUTE BY (issue 12): read from TDDL text and from trees, written back on GaussDB, dropped with
a warning where tables are not distributed; only the word-and-name forms are read, anything else stays text."""

from __future__ import annotations

import json

import pglast
import pytest

import ddlc

TEXT = "CREATE TABLE public.t (a pg_catalog.int4, b pg_catalog.text) DISTRIBUTE BY HASH (a, b)"
TREE = {"fmt": "CREATE %{persistence}s TABLE %{if_not_exists}s %{identity}D %{table_elements}s %{distribute_by}s",
        "persistence": "", "if_not_exists": "", "identity": {"objname": "t", "schemaname": "public"},
        "table_elements": {"fmt": "(%{elements:, }s)", "elements": [
            {"fmt": "%{name}I %{coltype}T", "name": "a",
             "coltype": {"typename": "int4", "schemaname": "pg_catalog", "typmod": "", "typarray": False}}]},
        "distribute_by": "DISTRIBUTE BY REPLICATION"}


def test_text_on_every_target():
    assert ddlc.translate(json.dumps({"TDDL": TEXT}), "gaussdb").sql == TEXT + ";\n"
    pg = ddlc.translate(json.dumps({"TDDL": TEXT}), "postgres")
    assert pg.sql == "CREATE TABLE public.t (a integer, b text);\n"
    assert [(d.code, d.jsonpath) for d in pg.diagnostics if d.code == "DDLC-W628"] == [("DDLC-W628", "$.distribute_by")]
    pglast.parse_sql(pg.sql)
    sp = ddlc.translate(json.dumps({"TDDL": TEXT}), "spark")
    assert "DISTRIBUTE" not in sp.sql and any(d.code == "DDLC-W820" for d in sp.diagnostics)


def test_tree_round_trips_on_gaussdb_and_drops_elsewhere():
    assert ddlc.translate(TREE, "gaussdb").sql == "CREATE TABLE public.t (a pg_catalog.int4) DISTRIBUTE BY REPLICATION;\n"
    assert ddlc.translate(TREE, "postgres").sql == "CREATE TABLE public.t (a integer);\n"


def test_a_clause_holding_another_statement_fails_everywhere():
    """Never a second statement: the raw slot is a server fragment (issue 20.3), refused on every target."""
    tree = dict(TREE, distribute_by="DISTRIBUTE BY HASH (a); DROP TABLE victim")
    for target in ("gaussdb", "postgres", "spark"):
        t = next(iter(ddlc.translate_many([tree], target)))
        assert t.error is not None and t.error.code == "DDLC-E011" and not t.statements


@pytest.mark.parametrize("clause", [
    "DISTRIBUTE BY RANGE (a) (SLICE s1 VALUES LESS THAN (10))",  # slices: not modelled
    "DISTRIBUTE BY HASH ('a')",
])
def test_other_forms_stay_text_never_written(clause):
    tree = dict(TREE, distribute_by=clause)
    t = next(iter(ddlc.translate_many([tree], "postgres")))
    assert t.error is not None and t.error.code == "DDLC-E010" and not t.statements
    assert any(d.code == "DDLC-N102" for d in t.diagnostics)
