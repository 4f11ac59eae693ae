"""PostgreSQL goldens, proven on a real server, from the tree and from the GaussDB text printed for it.

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


def _params() -> list:
    """Every case twice: from its input (``tree``), and from the GaussDB text printed for its trees, read as
    TDDL records (``text``; a case whose input is TDDL already is read as it is). The text of a case listed
    in ``tddl_pairs.NOT_EQUAL`` is known to translate differently: expected to fail, with the reason."""
    from tddl_pairs import NOT_EQUAL

    out = []
    for case in PG_CASES:
        out.append(pytest.param(case, "tree", id=f"{case_id(case)}[tree]"))
        reason = NOT_EQUAL.get(case_id(case))
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        out.append(pytest.param(case, "text", id=f"{case_id(case)}[text]", marks=marks))
    return out


def _input(case, path: str) -> bytes:
    data = (case / "input.json").read_bytes()
    if path == "text" and b'"TDDL"' not in data[:20]:
        from tddl_pairs import text_input

        return text_input(case)
    return data


def test_there_are_postgres_goldens():
    assert len(PG_CASES) >= 1


@pytest.mark.parametrize(("case", "path"), _params())
def test_postgres_golden(case, path, pg_db):
    golden = (case / "expected.postgres.sql").read_text("utf-8")
    out = "".join(t.sql for t in ddlc.translate_many(_input(case, path), target="postgres"))
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
