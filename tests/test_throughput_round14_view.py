"""Throughput round 14, the view family (issue 26).

A view's query to PostgreSQL whose GaussDB calls are rewritten is printed by the direct printer with each rewritten
call's replacement in its place (``exprs.rewrite_map``: the map ``pgdirect`` reads at every node, beside the mapped
types), instead of through a copy of the tree (``sqltree.replaced``); the copy is made only when the direct printer
does not cover the tree (``objects_more._rebuilt``), or when printing in place might differ (a rewritten call inside
another, a replacement of another class than those ``rewrite_map`` allows): then ``rewrite_tree`` copies as before.

Compared with the former path (``rewrite_map`` answering None: the copy, as at c1057c7) on every fixture CREATE
VIEW, the hand-written forms of round 9 and 11, generated queries with calls nested and in every clause, and hostile
literals and names (quotes, backslashes, ``$$``, ``--``, ``/*``, newlines, non-ASCII, empty): the same statements,
diagnostics, owned objects and errors; and with the direct printer off, pglast's printers on the copy
``_rebuilt`` makes against the former copy.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddlc.backends import once, writer
from ddlc.backends.postgres import objects_more as pg_om
from ddlc.frontend.build import build
from ddlc.ir.view import CreateView

sys.path.insert(0, str(Path(__file__).parent))
from test_throughput_round11_pg import _MORE, _VIEWS, _emitted  # noqa: E402
from test_throughput_round9_views import _CALLS, _FORMS, _TYPES  # noqa: E402


def _view(text: str) -> CreateView | None:
    stmt, _ = build({"fmt": "CREATE %{or_replace}s %{persistence}s VIEW %{identity}D AS %{query}s",
                     "query": text, "identity": {"objname": "v", "schemaname": "public"}, "or_replace": "",
                     "persistence": ""}, document="d")
    return stmt if type(stmt) is CreateView else None


def _both_ways(n: CreateView, monkeypatch: pytest.MonkeyPatch) -> tuple:
    once._KEPT.clear()
    new = _emitted(pg_om.create_view, n)
    with monkeypatch.context() as m:
        m.setattr(pg_om, "rewrite_map", lambda *a, **k: None)  # the former path: rewrite_tree's copy
        once._KEPT.clear()
        old = _emitted(pg_om.create_view, n)
    once._KEPT.clear()
    return new, old


def _same(n: CreateView, monkeypatch: pytest.MonkeyPatch) -> None:
    new, old = _both_ways(n, monkeypatch)
    assert new == old, n.query.text
    with monkeypatch.context() as m:  # pglast's printers on the copies (the direct printer off)
        m.setattr(writer._streams()[1], "direct", False)
        new, old = _both_ways(n, monkeypatch)
        assert new == old, n.query.text


_HOSTILE = ["'x''y'", "'a\\b'", "'$$'", "'--x'", "'/* c */'", "'line\nnext'", "'é—漢'", "''", "E'\\n'",
            "'\"sysdate\"'", "\"we\"\"ird\"", "\"é\"", "\"--\"", "\"/*\"", "\"sysdate\""]
_EXTRA = [
    "SELECT nvl(a, 'x''y') FROM t WHERE nvl(b, 0) > 1 ORDER BY nvl(c, 2) LIMIT nvl(3, 4) OFFSET nvl(5, 6)",
    "SELECT sysdate::date, (sysdate)::varchar2(10), nvl(sysdate, sysdate) FROM t",
    "SELECT a FROM t GROUP BY nvl(a, 1) HAVING count(nvl(b, 2)) > 0",
    "SELECT nvl(a, 1) + 2 * nvl(b, 3), -nvl(c, 4), nvl(d, 5) IS NULL, NOT nvl(e, true) FROM t",
    "SELECT CASE WHEN nvl(a, 1) = 1 THEN sysdate ELSE nvl(b, c) END FROM t",
    "SELECT x FROM nvl(1, 2) AS x",
    "SELECT decode(a, 1, 'a', 2, 'b', 'c'), decode(nvl(a, 1), 1, 2) FROM t",
    "SELECT to_date(a, 'YYYY')::number(3,1), add_months(sysdate, 1) FROM t",
    "SELECT a FROM t WHERE nvl(a, 1) IN (1, nvl(b, 2)) AND nvl(c, 3) BETWEEN 1 AND nvl(d, 4)",
    "SELECT row_number() OVER (PARTITION BY nvl(a, 1) ORDER BY sysdate) FROM t",
    "SELECT ARRAY[nvl(a, 1), 2], ROW(nvl(b, 2), sysdate) FROM t",
    "SELECT nvl(a, 1) COLLATE \"C\", nvl(b, 2)::text[] FROM t",
    "SELECT a FROM t WHERE EXISTS (SELECT nvl(b, 1) FROM u WHERE u.c = nvl(t.d, 0))",
    "SELECT sys_guid(), nvl(a, sys_guid()) FROM t",
]


def test_fixture_views(monkeypatch: pytest.MonkeyPatch) -> None:
    assert len(_VIEWS) >= 3 + len(_FORMS)
    for n in _VIEWS:
        _same(n, monkeypatch)


@pytest.mark.parametrize("text", _FORMS + _MORE + _EXTRA)
def test_forms(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    n = _view(text)
    if n is not None:
        _same(n, monkeypatch)


def test_in_place_is_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    """The corpus's form is printed without the copy (rewrite_map answers a map), a nested call with it."""
    seen = []
    real = pg_om.rewrite_map

    def spy(*a, **k):
        out = real(*a, **k)
        seen.append(out is not None)
        return out

    monkeypatch.setattr(pg_om, "rewrite_map", spy)
    for text in ("SELECT nvl(a, 'x') AS n, (b)::nvarchar2(10) AS s, sysdate AS d FROM public.t",
                 "SELECT nvl(nvl(a, 1), 2) FROM t"):
        once._KEPT.clear()
        _emitted(pg_om.create_view, _view(text))
    assert seen == [True, False]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_CALLS, _CALLS, _TYPES, st.sampled_from(["a"] + _HOSTILE)), min_size=1, max_size=4),
       st.sampled_from(["", " WHERE b > nvl(c, 0)", " WHERE sysdate > b ORDER BY nvl(a, 1)", " LIMIT nvl(1, 2)"]))
def test_generated(parts, tail) -> None:
    cols = [outer.format(inner.format(arg) + cast) for outer, inner, cast, arg in parts]
    n = _view("SELECT " + ", ".join(cols) + " FROM t" + tail)
    if n is not None:
        with pytest.MonkeyPatch.context() as m:
            _same(n, m)


@settings(max_examples=200, deadline=None)
@given(st.text(min_size=0, max_size=12), st.sampled_from(["nvl({}, 1)", "nvl(a, {})", "decode(a, {}, sysdate)",
                                                          "({})::nvarchar2(3)", "sysdate || {}"]))
def test_hostile_literals(value, form) -> None:
    literal = "'" + value.replace("'", "''") + "'"
    n = _view("SELECT " + form.format(literal) + ", sysdate FROM t")
    if n is not None:
        with pytest.MonkeyPatch.context() as m:
            _same(n, m)
