"""Found by round 11's review: a value the fmt puts between its own quotes through ``%D``/``%I``/``%L``/``%T`` must
be recorded as unpastable when it holds a quote or a backslash, by the tree check's interpreter as by its compiled
plans, so that the GaussDB target (which writes the expansion as it came) refuses it. d8c96c3's short paths had
skipped that record: ``nextval('%{seqname}D')`` with a schema name ``db1'); DROP TABLE x; --`` was written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import ddlc
from ddlc.frontend import treecheck
from ddlc.frontend.build import shape_of

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "fixtures/cases/alter_table_followup/auto-increment-backfill-block/input.json"
HOSTILE = ["db1'); DROP TABLE x; --", "ddl_repl'ication", "s\\x"]


@pytest.fixture(params=[0, 1], ids=["interpreted", "compiled"])
def fresh_plans(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> int:
    """The check's plan functions made afresh, never compiled (0) or compiled at their first meeting (1)."""
    monkeypatch.setattr(treecheck, "COMPILE_AT", request.param)
    monkeypatch.setattr(treecheck, "_FNS", {})
    monkeypatch.setattr(treecheck, "_TOPS", ({}, {}))
    return request.param


def _tree(member: str, value: str) -> dict:
    tree = json.loads(FIXTURE.read_text())
    tree["seqname"][member] = value
    return tree


@pytest.mark.parametrize("member", ["schemaname", "objname"])
@pytest.mark.parametrize("value", HOSTILE)
def test_quoted_specifier_refused_on_gaussdb(fresh_plans: int, member: str, value: str) -> None:
    for _ in range(3):  # (a plan met again is read by the function kept for it)
        [r] = ddlc.translate_many([json.dumps(_tree(member, value))], target="gaussdb")
        assert r.statements == ()
        assert r.error is not None and r.error.code == "DDLC-E011"
        assert r.error.path == ("seqname",)


@pytest.mark.parametrize("value", HOSTILE)
def test_quoted_specifier_unpastable_in_both_walks(fresh_plans: int, value: str) -> None:
    tree = _tree("schemaname", value)
    shape = shape_of(tree)
    assert shape is not None
    for _ in range(2):
        assert ("seqname",) in treecheck.check_both(tree, shape).unpastable
        assert ("seqname",) in treecheck.expand_both(tree, shape)[1].unpastable


def test_plain_value_still_written(fresh_plans: int) -> None:
    [r] = ddlc.translate_many([json.dumps(_tree("schemaname", "db1"))], target="gaussdb")
    assert r.error is None and r.statements
