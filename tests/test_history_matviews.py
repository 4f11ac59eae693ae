"""A materialized view blocks a change of a column's type on PostgreSQL as a view does, and the history does
not follow what one reads: the tables its query names are not known (``knows_views_of`` False), so the
change is written with the warning DDLC-W713, never silently refused by the server (issue 25.4)."""

from __future__ import annotations

import json

import psycopg
import pytest

import ddlc

LOG = [{"TDDL": "CREATE SCHEMA s;"}, {"TDDL": "CREATE TABLE s.t (a int);"},
       {"TDDL": "CREATE MATERIALIZED VIEW s.mv AS SELECT t.a FROM s.t;"},
       {"TDDL": "ALTER TABLE s.t ALTER COLUMN a SET DATA TYPE pg_catalog.int8;"},
       {"TDDL": "CREATE TABLE s.u (a int);"},
       {"TDDL": "ALTER TABLE s.u ALTER COLUMN a SET DATA TYPE pg_catalog.int8;"}]


def _translated():
    return list(ddlc.translate_many([json.dumps(d) for d in LOG], target="postgres"))


def test_a_type_change_under_a_materialized_view_warns():
    out = _translated()
    assert [d.code for d in out[3].diagnostics] == ["DDLC-W713"]
    assert out[3].sql == "ALTER TABLE s.t ALTER COLUMN a SET DATA TYPE bigint;\n"
    assert [d.code for d in out[5].diagnostics] == []  # no view reads s.u: no warning


def test_the_server_refuses_what_the_warning_names(pg_db):
    out = _translated()
    pg_db.autocommit = True
    with pg_db.cursor() as cur:
        for r in out[:3] + out[4:]:
            cur.execute(r.sql)
        with pytest.raises(psycopg.errors.FeatureNotSupported, match="materialized view"):
            cur.execute(out[3].sql)


def _codes(log):
    return [[d.code for d in r.diagnostics] for r in ddlc.translate_many([json.dumps(d) for d in log], target="postgres")]


def test_a_qualified_read_marks_that_table_only():
    base = [{"TDDL": "CREATE SCHEMA s;"}, {"TDDL": "CREATE SCHEMA r;"}, {"TDDL": "CREATE TABLE s.t (a int);"},
            {"TDDL": "CREATE TABLE r.t (a int);"}]
    alter = [{"TDDL": f"ALTER TABLE {q}.t ALTER COLUMN a SET DATA TYPE pg_catalog.int8;"} for q in ("r", "s")]
    qualified = _codes(base + [{"TDDL": "CREATE MATERIALIZED VIEW s.mv AS SELECT t.a FROM s.t;"}] + alter)
    assert qualified[-2:] == [[], ["DDLC-W713"]]  # r.t: no view reads it; s.t: the matview does
