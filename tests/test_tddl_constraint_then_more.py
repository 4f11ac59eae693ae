"""An ALTER TABLE text whose ADD CONSTRAINT is followed by more subcommands: the constraint's definition
ends at its own top-level comma (found when reviewing the dropped-text work: the definition read to the end
of the statement, the next subcommands inside it, and the statement was not translated)."""

from __future__ import annotations

import pytest

import ddlc

CONSTRAINTS = ["CHECK ((a > 0))", "UNIQUE (a, b)", "PRIMARY KEY (a)", "FOREIGN KEY (a) REFERENCES s.u(b) ON DELETE CASCADE",
               "EXCLUDE USING btree (a WITH =)", "CHECK ((f(a, b) > 0))"]
MORE = ["ADD COLUMN c pg_catalog.int4", "ALTER COLUMN a SET DEFAULT 1", "DROP COLUMN IF EXISTS d"]


@pytest.mark.parametrize("constraint", CONSTRAINTS)
@pytest.mark.parametrize("more", MORE)
def test_the_constraint_ends_at_its_comma(constraint, more):
    text = f"ALTER TABLE s.t ADD CONSTRAINT x {constraint}, {more};"
    r = ddlc.translate({"TDDL": text}, target="postgres")
    assert r.error is None and not [d for d in r.diagnostics if d.severity.value in ("warning", "error")], r.diagnostics
    sql = r.sql
    assert sql.startswith("ALTER TABLE s.t ADD CONSTRAINT x ") and sql.count(", ") >= 1
    assert more.split()[0] + " " in sql.split(f"ADD CONSTRAINT x ", 1)[1]  # the next subcommand, on its own
    assert ddlc.translate({"TDDL": text}, target="gaussdb").sql == text + "\n"


def test_two_constraints_in_a_row():
    text = "ALTER TABLE s.t ADD CONSTRAINT x CHECK ((a > 0)), ADD CONSTRAINT y UNIQUE (a, b);"
    r = ddlc.translate({"TDDL": text}, target="postgres")
    assert r.sql == "ALTER TABLE s.t ADD CONSTRAINT x CHECK ((a > 0)), ADD CONSTRAINT y UNIQUE (a, b);\n", r.diagnostics
