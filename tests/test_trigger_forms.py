"""A CREATE TRIGGER tree mixing the grammar's two forms (found by test_slot_classes' hypothesis run): only a
constraint trigger has a FROM table and constraint attributes, and a constraint trigger is AFTER ... FOR EACH
ROW (PostgreSQL's and openGauss's grammars alike). Such a tree is no statement the server writes: it is kept
as text (DDLC-N403 on the targets that translate), never written as a statement PostgreSQL cannot parse."""

from __future__ import annotations

import copy

import pglast
import pytest

import ddlc
from test_slot_classes import FIXTURE_TREES


def _tree(case: str) -> dict:
    return copy.deepcopy(next(t for c, t in FIXTURE_TREES if c == case))


def _mixed() -> list[tuple[str, dict]]:
    no_constraint = _tree("trigger/constraint-trigger")
    no_constraint["constraint"] = ""  # FROM and DEFERRABLE kept
    before = _tree("trigger/row-update-of-with-args")
    before["constraint"] = "CONSTRAINT"  # a BEFORE trigger made a constraint trigger
    statement = _tree("trigger/constraint-trigger")
    statement["for_each"] = "STATEMENT"
    return [("from-without-constraint", no_constraint), ("constraint-before", before),
            ("constraint-for-each-statement", statement)]


@pytest.mark.parametrize("name,tree", _mixed(), ids=[n for n, _ in _mixed()])
def test_a_tree_mixing_the_two_forms_is_not_written_as_a_statement(name, tree):
    pg = ddlc.translate(tree, "postgres", on_unsupported="skip")
    assert pg.statements == () and pg.untranslated == 1
    assert any(d.code == "DDLC-N403" and d.jsonpath == "$.constraint" for d in pg.diagnostics), pg.diagnostics
    with pytest.raises(ddlc.DdlcError) as e:
        ddlc.translate(tree, "postgres")
    assert e.value.code == "DDLC-E010" and "CONSTRAINT" in str(e.value)


def test_the_well_formed_trees_are_still_translated():
    for case in ("trigger/constraint-trigger", "trigger/row-update-of-with-args"):
        t = ddlc.translate(_tree(case), "postgres")
        assert t.ok and len(pglast.parse_sql(t.sql)) == 1
        assert ("CONSTRAINT TRIGGER" in t.sql) == (case == "trigger/constraint-trigger")
