"""Throughput round 13 (issue 26): ``qualify_names`` decides a view's query from its tree, without its references.

A query's references (``frontend.sql.refs.name_refs``) are a parse of their own; the check only asks whether one of
them has no schema. ``_qualified_query`` answers "none has" from the query's tree (made by the check anyway) when
it is sure: the text starts with ``SELECT `` and has no blanks around it nor before a final ``;`` (then both
readers parse the very same string), the tree has no ``RangeVar`` without a schema and no call of a sequence
function. Anything else goes the former way (the references worked out).

Compared here: the claim against the references themselves (every query of the fixtures, and generated queries
with hostile names: quotes, backslashes, ``$$``, ``--``, ``/*``, newlines, non-ASCII, empty, CTEs, sequence
calls, blanks and ``;`` around), and ``qualify_names`` with and without the shortcut over every fixture statement
and its variants (a name made unqualified, a fragment made unparsed): the same statements, the same diagnostics.
"""

from __future__ import annotations

import importlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddlc.frontend.sql.expr import query_tree
from ddlc.frontend.sql.refs import name_refs
from ddlc.ir import base
from ddlc.ir.names import Expr, ParsedSql
from ddlc.ir.reach import Reach
from ddlc.passes import PassContext
from ddlc.quoting import quote_ident, quote_literal
from tests.test_throughput_passes import STATEMENTS, _statements, _variants

qn = importlib.import_module("ddlc.passes.qualify_names")  # (the package's name ``qualify_names`` is the pass)
_EXPRS = Reach({Expr})


def _queries() -> list[str]:
    out = []
    for _label, stmt in STATEMENTS:
        for e, _holder, _name in _EXPRS.current().found(stmt):
            if e.sql is not None and e.sql.form == "query":
                out.append(e.text)
    return out


QUERIES = _queries()


def _later(text: str) -> ParsedSql:
    """The parsed form ``make_query`` gives a query (without its fragment check: any text is tried here)."""
    return ParsedSql.later("query", text, query_tree, name_refs)


def _claim_holds(text: str) -> bool:
    """``_qualified_query`` of a fresh parsed form of ``text``; asserts that, when it says so, the references
    worked out would have a schema each (and exist: the text parses)."""
    s = _later(text)
    said = qn._qualified_query(s)
    if said:
        assert s._refs_later is not None  # (not worked out by the shortcut)
        refs = name_refs(text)
        assert refs is not None, text
        assert all(r.schema is not None for r in refs), (text, refs)
    return said


def test_fixture_queries() -> None:
    assert len(QUERIES) >= 5
    said = [_claim_holds(t) for t in QUERIES]
    assert any(said)  # (the shortcut is taken on the fixtures)
    for t in QUERIES:  # the same with blanks and a final ";" around (the shortcut then declines some)
        for v in (t + ";", t + " ;", " " + t, t + "\n", t.lower()):
            _claim_holds(v)


_NAMES = st.text(st.sampled_from(list("ab_Z1 '\"\\$-/*\n;().é中")), min_size=0, max_size=6)


@st.composite
def _query(draw) -> str:
    def name() -> str:
        n = draw(_NAMES)
        return quote_ident(n) if n else "t"

    rel = name()
    if draw(st.booleans()):
        rel = f"{name()}.{rel}"
    cols = draw(st.sampled_from(["a", "*", "count(*)", "s.f(a)", "nextval('s.q')", "currval(" + quote_literal(
        draw(_NAMES)) + ")", "'$$x$$'", "$$a--b$$", "a /* c */", "(SELECT 1 FROM x.y)", "(SELECT 1 FROM y)",
        "a::s.ty", "E'\\\\'"]))
    body = f"SELECT {cols} FROM {rel}"
    if draw(st.booleans()):
        body = f"WITH {name()} AS (SELECT 1) " + body
    if draw(st.booleans()):
        body += " WHERE b = " + quote_literal(draw(_NAMES))
    lead = draw(st.sampled_from(["", " ", "\n"]))
    tail = draw(st.sampled_from(["", ";", " ;", " ", "\n", "-- x", "-- x\n;", "/* y */"]))
    if draw(st.booleans()):
        body = "select " + body[len("SELECT "):]
    return lead + body + tail


@settings(max_examples=400, deadline=None)
@given(_query())
def test_generated_queries(text: str) -> None:
    _claim_holds(text)


@pytest.mark.parametrize("default", ["public", "s_other"])
def test_qualify_names_with_and_without_the_shortcut(default: str, monkeypatch) -> None:
    ctx = PassContext(default_schema=default, document="d")
    real = qn._qualified_query
    taken = 0
    for _label, stmt in _statements():  # (built again: no fragment's references worked out yet)
        for v in _variants(stmt):
            # the shortcut first (it leaves the references to work out), then the former way on the same nodes
            monkeypatch.setattr(qn, "_qualified_query", real)
            new, new_diags = qn.qualify_names(v, ctx)
            monkeypatch.setattr(qn, "_qualified_query", lambda s: False)
            old, old_diags = qn.qualify_names(v, ctx)
            assert base.to_json(new, with_origin=True) == base.to_json(old, with_origin=True)
            assert (new is v) == (old is v)
            assert [(d.code, d.message, d.path) for d in new_diags] == [(d.code, d.message, d.path) for d in old_diags]
    for text in QUERIES:
        taken += real(_later(text))
    assert taken
