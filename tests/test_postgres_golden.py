"""PostgreSQL goldens, proven on a real server.

For every case with ``expected.postgres.sql``: ddlc's output equals the golden; every statement
parses with pglast; the golden applies cleanly in a fresh database (after the case's
``setup.postgres.sql``, if any); and when ``expected.catalog.txt`` exists, the objects the server
built (read back from its catalog) are exactly those listed.
"""

from __future__ import annotations

import pglast
import pytest

import ddlc
from conftest import CASES, case_id
from engines.catalog import snapshot

PG_CASES = sorted(p.parent for p in CASES.rglob("expected.postgres.sql"))


def test_there_are_postgres_goldens():
    assert len(PG_CASES) >= 1


@pytest.mark.parametrize("case", PG_CASES, ids=case_id)
def test_postgres_golden(case, pg_db):
    golden = (case / "expected.postgres.sql").read_text("utf-8")
    out = "".join(t.sql for t in ddlc.translate_many((case / "input.json").read_bytes(), target="postgres"))
    assert out == golden
    for stmt in pglast.split(golden) if golden.strip() else ():
        pglast.parse_sql(stmt)
    setup = case / "setup.postgres.sql"
    with pg_db.cursor() as cur:
        if setup.exists():
            cur.execute(setup.read_text("utf-8"))
        if golden.strip():
            cur.execute(golden)
    expected = case / "expected.catalog.txt"
    if expected.exists():
        assert snapshot(pg_db) == expected.read_text("utf-8")
