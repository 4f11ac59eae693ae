"""Regressions found reviewing the one-path redesign (each was wrong output or lost information)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import ddlc

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "redesign"
CASES = ROOT / "fixtures" / "cases"


def test_a_document_that_is_not_translated_keeps_its_diagnostics_and_owner():
    data = (CASES / "alter_table" / "owner-to-defect" / "input.json").read_bytes()
    [t] = ddlc.translate_many(data, target="postgres")
    assert t.error is not None and t.error.code == "DDLC-E010"
    assert [d.code for d in t.diagnostics] == ["DDLC-W201", "DDLC-W695"]
    out = t.to_dict()
    assert [d["code"] for d in out["diagnostics"]] == ["DDLC-W201", "DDLC-W695"]


def test_a_rule_dropping_a_single_child_drops_the_clause_holding_it_not_the_document():
    t = ddlc.translate((DATA / "add-hash-column.json").read_bytes(), target="postgres")
    assert t.statements == ("ALTER TABLE public.orders ADD COLUMN c3 integer",)
    assert "DDLC-W618" in [d.code for d in t.diagnostics]


def test_json_output_carries_the_comments_it_promised():
    data = (CASES / "event" / "drop" / "input.json").read_bytes()
    [t] = ddlc.translate_many(data, target="postgres", on_unsupported="comment")
    out = t.to_dict()
    assert out["sql"] == [] and out["error"] is None
    assert out["comments"] and out["comments"][0].startswith("-- ddlc DDLC-W748: not translated: DROP EVENT")


def test_tddl_with_a_schema_map_on_gaussdb_says_it_was_not_mapped():
    t = ddlc.translate('{"TDDL": "TRUNCATE TABLE public.t;"}', target="gaussdb", schema_map={"public": "x"})
    assert t.sql == "TRUNCATE TABLE public.t;\n"  # GaussDB's own text, exactly
    assert "DDLC-W003" in [d.code for d in t.diagnostics]
    plain = ddlc.translate('{"TDDL": "TRUNCATE TABLE public.t;"}', target="gaussdb")
    assert plain.sql == "TRUNCATE TABLE public.t;\n"  # without a map the text passes through exactly


@pytest.mark.parametrize("target", ["gaussdb", "postgres"])
def test_a_schema_map_reaches_function_argument_defaults(target):
    t = ddlc.translate((DATA / "function-default.json").read_bytes(), target=target, schema_map={"public": "x"})
    assert "DEFAULT x.seqf(1)" in t.sql and "public." not in t.sql


def test_the_summary_counts_a_statement_not_translated_once():
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "ddlc", "translate", "--to", "postgres",
                        str(CASES / "event" / "create" / "input.json")], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 1
    assert r.stderr.rstrip().endswith("1 statement not translated, 1 error, 0 lines not recognised")
    assert json.loads(json.dumps(r.stderr))  # one plain line, no traceback
    assert "Traceback" not in r.stderr
