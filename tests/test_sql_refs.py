"""Object references inside SQL fragments: found once by the SQL layer, renamed by the passes without parsing."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import case_dirs
from ddlc.frontend.build import build
from ddlc.frontend.sql import make_expr, make_query
from ddlc.frontend.sql.refs import name_refs
from ddlc.ir.base import walk
from ddlc.ir.names import Expr, NameRef, RefKind


def _fixture_texts() -> list[str]:
    out: set[str] = set()
    for case in case_dirs():
        if (case / "expected.error.json").exists():
            continue
        doc = json.loads((case / "input.json").read_text("utf-8"))
        try:
            stmt, _ = build(doc.get("JDDL", doc))
        except Exception:  # noqa: BLE001 - documents that are errors, TDDL
            continue
        out.update(n.text for n in walk(stmt) if type(n) is Expr)
    return sorted(out)


TEXTS = _fixture_texts() + [
    "SELECT t.a FROM t JOIN s.u ON true, c WHERE x IN (SELECT 1 FROM \"Q\".\"R\")",
    "WITH c AS (SELECT 1) SELECT * FROM c, d",
    "nextval('seq'::regclass)", "nextval('\"S\".seq')", "s.f(a)::s.ty + g(b)",
    "FOREIGN KEY (a) REFERENCES t(id) ON DELETE CASCADE", "  SELECT é FROM ü.t ;  ",
]


def test_references_are_where_the_text_names_them():
    e = make_query("SELECT s.f(x)::s.ty, nextval('q.seq') FROM t, \"S\".u")
    refs = {(r.kind, r.schema, r.name, e.text[r.start:r.end]) for r in e.sql.refs}
    assert refs == {(RefKind.FUNCTION, "s", "f", "s"), (RefKind.TYPE, "s", "ty", "s"), (RefKind.RELATION, None, "t", ""),
                    (RefKind.RELATION, "S", "u", '"S"'), (RefKind.REGCLASS, "q", "seq", "'q.seq'")}
    assert name_refs("PARTIAL CLUSTER KEY (a)") is None  # GaussDB-only: references unknown
    assert make_expr("PRIMARY KEY (a)").sql.refs == ()  # read as a table constraint: none


@pytest.mark.parametrize("relation", [
    lambda s, n: "dflt" if s is None else None,
    lambda s, n: {"public": "App x", "s": "z", "S": "s"}.get(s) if s is not None else None,
    lambda s, n: "q" if s is None else s + "_moved",
], ids=["qualify", "map", "every"])
def test_moved_references_are_those_of_the_new_text(relation):
    """Renaming twice works from the first rename's references exactly as from the new text's own."""
    for text in TEXTS:
        for make in (make_expr, make_query):
            if make is make_expr and text.rstrip().endswith(";"):
                continue  # a query with its ';' is no expression: DDLC-E011 (tests/test_replay_safety.py)
            e = make(text)
            new = e.renamed_text(relation)
            if new is None:
                assert e.sql.refs is None
                continue
            renamed = e.renamed(new, relation)
            assert renamed.sql.refs == make(new).sql.refs, (text, new)
            assert renamed.tree == make(new).tree or e.tree is None or new is text


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.sampled_from(TEXTS), st.text(alphabet="abcXYZ_ \"'.", min_size=1, max_size=8))
def test_any_new_schema_name_round_trips(text, schema):
    make = make_query if text.rstrip().endswith(";") else make_expr  # a ';' ends a query, never an expression
    e = make(text)
    new = e.renamed_text(lambda s, n: schema)
    if new is None:
        return
    for r in make(new).sql.refs:
        assert r.schema == schema or r.kind is RefKind.REGCLASS and r.start < 0


def test_nameref_is_plain_data():
    r = NameRef(RefKind.RELATION, None, "t", 3, 3)
    assert r == NameRef(RefKind.RELATION, None, "t", 3, 3) and r.value is None


def test_positions_count_characters():
    """pglast reports character offsets: a non-ASCII character before a reference moves nothing."""
    e = make_query("SELECT 'é' AS \"ä\" FROM ü.t, v")
    assert e.renamed_text(lambda s, n: "x" if s is None else s + "2") == "SELECT 'é' AS \"ä\" FROM \"ü2\".t, x.v"
