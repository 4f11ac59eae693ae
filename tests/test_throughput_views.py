"""Issue 26, CREATE VIEW documents: the walks of a parsed query made once.

``ir.sqltree.index`` walks a tree once and is remembered per tree; the build (``query_references``), the SQL
layer (``name_refs``), the PostgreSQL rules and emitter (``calls``, the view's gauss-only and type-mapping
checks) and the catalog (``columns_read``) read it instead of each walking the tree again. Its ``order`` must be
:func:`~ddlc.ir.sqltree.nodes`' walk and :meth:`~ddlc.ir.sqltree.Index.of` / ``among`` that walk filtered, on
every SQL text the fixtures parse and on generated SELECTs; the former walk-based readers are kept here and
compared with the new ones."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from ddlc.ir import sqltree
from ddlc.ir.sqltree import index, nodes, visit


def _parsed() -> list:
    from test_throughput_print import _parsed as parsed

    return parsed()


def _same_index(tree: Any) -> None:
    walk = list(nodes(tree))
    idx = index(tree)
    assert len(idx.order) == len(walk) and all(a is b for a, b in zip(idx.order, walk))
    classes = {type(n) for n in walk}
    for cls in classes:
        assert [id(n) for n in idx.of(cls)] == [id(n) for n in walk if type(n) is cls]
    some = sorted(classes, key=lambda c: c.__name__)[::2]
    assert [id(n) for n in idx.among(some)] == [id(n) for n in walk if type(n) in some]
    assert idx.among(()) == [] and list(idx.of(int)) == []
    assert index(tree) is idx  # remembered


def test_index_is_the_walk_on_every_parsed_text() -> None:
    n = 0
    for _, stmts in _parsed():
        _same_index(stmts)
        for raw in stmts:
            _same_index(raw.stmt)
            n += 1
    assert n > 300


def test_index_is_the_walk_on_generated_selects() -> None:
    import pglast
    from test_throughput_print import _select

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    @given(_select())
    def check(sql: str) -> None:
        try:
            stmts = pglast.parse_sql(sql)
        except pglast.parser.ParseError:
            return
        _same_index(stmts[0].stmt)

    check()


def test_index_remembered_per_tree_and_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    import pglast

    monkeypatch.setattr(sqltree, "_INDEX", {})
    monkeypatch.setattr(sqltree, "_INDEX_LIMIT", 3)
    trees = [pglast.parse_sql(f"SELECT a{i} FROM t")[0].stmt for i in range(5)]
    first = [index(t) for t in trees]
    assert len(sqltree._INDEX) <= 3
    assert index(trees[-1]) is first[-1]
    assert all(index(t).order[0] is t for t in trees)


# ---- the readers, old (a walk each) against new (the index) -------------------------------------------------
def _old_query_references(tree: Any) -> list:
    from pglast import ast

    ctes: set[str] = set()
    found: list[tuple[Any, ...]] = []
    visit(tree, {
        ast.CommonTableExpr: lambda node: ctes.add(node.ctename),
        ast.RangeVar: lambda node: found.append((node.location if node.location is not None else -1,
                                                 node.catalogname, node.schemaname, node.relname)),
    })
    out, seen = [], set()
    for _, catalog, schema, rel in sorted(found, key=lambda f: f[0]):
        if schema is None and rel in ctes:
            continue
        if (catalog, schema, rel) not in seen:
            seen.add((catalog, schema, rel))
            out.append((schema, rel))
    return out


def _old_calls(tree: Any, text: str) -> list:
    from pglast import ast

    from ddlc.backends.postgres.functions import _quoted_bare, call_of, verdict

    quoted = _quoted_bare(text) if text else frozenset()
    out = []
    for n in nodes(tree):
        if isinstance(n, (ast.FuncCall, ast.ColumnRef)):
            c = call_of(n, quoted)
            if c is not None:
                out.append((c.label, id(c.node), verdict(c)))
    return out


def test_readers_old_and_new_on_every_parsed_query() -> None:
    from pglast import ast

    from ddlc.backends.postgres import functions
    from ddlc.frontend.build.view import query_references

    n = 0
    for text, stmts in _parsed():
        for raw in stmts:
            tree = raw.stmt
            if isinstance(tree, ast.SelectStmt):
                assert [(q.schema, q.name) for q in query_references(tree, ())] == _old_query_references(tree)
                n += 1
            functions._SCAN.clear()
            assert [(c.label, id(c.node), v) for c, v in functions.calls(tree, text)] == _old_calls(tree, text)
    assert n > 0  # (how many: what the collection saw, fewer when the parse caches were warm)


def _old_name_refs_walk(stmts: Any) -> list:
    """The order in which the former name_refs met its nodes (one visit of the statements, CTEs first)."""
    from pglast import ast

    found: list = []
    ctes: set = set()
    handlers = (ast.RangeVar, ast.FuncCall, ast.TypeName)
    visit(stmts, {ast.CommonTableExpr: lambda node: ctes.add(node.ctename),
                  **{cls: (lambda node: found.append(node)) for cls in handlers}})
    return [id(n) for n in found], ctes


def test_name_refs_meets_the_nodes_in_the_same_order() -> None:
    """name_refs reads each statement's index (a bare ``SELECT <expression>``: its expression's, what the rules
    read too): the nodes it handles, in the order the former walk met them, on every parsed text and on the
    expression readings of generated expressions."""
    import pglast
    from pglast import ast

    from ddlc.frontend.sql.refs import _within

    def check(stmts: Any) -> None:
        order, ctes = _old_name_refs_walk(stmts)
        indexes = [index(_within(s.stmt, ast)) for s in stmts if s.stmt is not None]
        new = [id(n) for idx in indexes for n in idx.among({ast.RangeVar: 0, ast.FuncCall: 0, ast.TypeName: 0})]
        assert new == order
        assert {n.ctename for idx in indexes for n in idx.of(ast.CommonTableExpr)} == ctes

    n = 0
    for _, stmts in _parsed():
        check(stmts)
        check(pglast.parse_sql("SELECT " + ", ".join(str(i) for i in range(len(stmts)))))
    for text in ("nvl(a, s.f(b))", "1 FROM s.t", "a::s.ty", "x, s.y()", "(WITH c AS (SELECT 1) SELECT * FROM c)",
                 "s.f(x) OVER (ORDER BY s.g(y))", "ARRAY[s.t.a]", "a FROM t WHERE s.f(b)"):
        stmts = pglast.parse_sql("SELECT " + text)
        check(stmts)
        n += _within(stmts[0].stmt, ast) is not stmts[0].stmt
    assert n >= 4

    from test_throughput_print import _EXPR

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    @given(_EXPR)
    def generated(expr: str) -> None:
        try:
            stmts = pglast.parse_sql("SELECT " + expr)
        except pglast.parser.ParseError:
            return
        check(stmts)

    generated()


# ---- a view's query printed once per parsed query ---------------------------------------------------------
def _view_docs() -> list[bytes]:
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    return [p.read_bytes() for p in sorted(root.glob("fixtures/cases/view/*/input.json"))]


def _outcome(result: Any) -> tuple:
    return (tuple(result.statements), repr(result.error),
            tuple((d.code, d.message, tuple(d.path)) for d in result.diagnostics))


def test_a_repeated_view_prints_as_the_first() -> None:
    """The same view documents, each alone with nothing kept, and as a stream that repeats them (the second and
    later from what the first printed): the same statements and diagnostics."""
    import ddlc
    from ddlc.backends import once

    docs = _view_docs()
    alone = []
    for doc in docs:
        once._KEPT.clear()
        alone.append(_outcome(next(iter(ddlc.translate_many([doc], target="postgres")))))
    once._KEPT.clear()
    streamed = [_outcome(r) for r in ddlc.translate_many(docs * 3, target="postgres")]
    assert streamed == alone * 3
    assert once._KEPT  # (kept: the stream's repeats came from it)
    assert any(d for _, _, d in alone)  # (the fixtures' views report diagnostics: they are replayed)


def test_printed_once_keeps_only_what_is_about_the_fragment() -> None:
    from ddlc.backends import once

    class E:
        def __init__(self) -> None:
            self.said: list = []

        def diag(self, code: str, message: str, path: Any, **more: Any) -> None:
            self.said.append((code, message, path, more))

    tree = object()
    calls = []

    def make(e: Any) -> str:
        calls.append(1)
        e.diag("X", "m", ("query",))
        return "text"

    once._KEPT.clear()
    first, again = E(), E()
    assert once.printed_once(tree, "q", ("query",), first, make, print) == "text"
    assert once.printed_once(tree, "q", ("b", "query"), again, make, print) == "text"
    assert len(calls) == 1 and first.said == [("X", "m", ("query",), {})] and again.said == [("X", "m", ("b", "query"), {})]
    assert once.printed_once(tree, "other", ("query",), E(), make, print) == "text" and len(calls) == 2  # (another text)
    assert once.printed_once(tree, "q", ("query",), E(), make, repr) == "text" and len(calls) == 3  # (another printer)

    def elsewhere(e: Any) -> str:
        e.diag("Y", "m", ("not", "the", "query"))
        return "t"

    once._KEPT.clear()
    for _ in range(2):
        once.printed_once(tree, "q", ("query",), E(), elsewhere, print)
    assert not once._KEPT

    def fails(e: Any) -> str:
        raise ValueError("no")

    with pytest.raises(ValueError):
        once.printed_once(tree, "q", ("query",), E(), fails, print)
    assert not once._KEPT


def test_what_a_view_reads_is_kept_per_tree_and_references() -> None:
    """The build's and the catalog's readings of a query, kept per tree (and origin, references): the same
    answers as worked out afresh, another answer for other references."""
    from types import SimpleNamespace

    import pglast

    from ddlc.frontend.build import view as build_view
    from ddlc.history import view_queries
    from ddlc.ir.names import QualifiedName

    tree = pglast.parse_sql("SELECT a, t.b, u.c FROM t, s.u")[0].stmt
    build_view._READS.clear()
    view_queries._READS.clear()
    first = build_view.query_references(tree, ("query",))
    assert build_view.query_references(tree, ("query",)) is first
    assert first == build_view._query_references(tree, ("query",))
    assert build_view.query_references(tree, ("x",))[0].origin == ("x",)

    def node(*refs: tuple) -> Any:
        return SimpleNamespace(references=[QualifiedName(n, s) for s, n in refs], query=SimpleNamespace(tree=tree))

    one = view_queries.columns_read(node((None, "t"), ("s", "u")))
    assert one == view_queries._columns_read(tree, [(None, "t"), ("s", "u")])
    assert view_queries.columns_read(node((None, "t"), ("s", "u"))) is one
    other = view_queries.columns_read(node(("p", "t"), ("s", "u")))
    assert other == view_queries._columns_read(tree, [("p", "t"), ("s", "u")]) and other != one


# ---- the rewrites' nodes made without pglast's per-attribute check -------------------------------------------
def _both_ways(build: Any, *args: Any) -> None:
    from test_pgparse_trusted import _difference

    from ddlc.frontend.sql import pgparse
    from ddlc.ir.sqltree import TRUSTED, built_trusted

    if not pgparse._install():
        pytest.skip("pglast's checked construction is not skipped for this pglast release")
    assert not TRUSTED.on
    checked = build(*args)
    trusted = built_trusted(build, *args)
    assert not TRUSTED.on
    assert not _difference(checked, trusted), (build, args, _difference(checked, trusted))


def test_every_rewrite_builds_the_same_nodes_unchecked() -> None:
    """Every rewrite of the PostgreSQL target (each case of tests/test_pg_functions.py, which holds one for
    every rewrite, and generated mixes of calls), and every TypeName a view's type mapping builds: the nodes
    made with pglast's check and without it, the same values of the same types."""
    from test_pg_functions import AGGREGATES, CASES, _expr

    from ddlc.backends.postgres import functions as F
    from ddlc.backends.postgres.types import TYPE_MAP, type_node
    from ddlc.frontend.sql import make_expr

    def each_rewrite(text: str) -> int:
        e = make_expr(text)
        n = 0
        for c, v in F.calls(e.tree, e.text):
            if v == F.REWRITE:
                _both_ways(F.rewrite_for(c).build, c.node)
                n += 1
        return n

    assert sum(each_rewrite(gauss) for gauss, _, _ in CASES + AGGREGATES) >= len(CASES + AGGREGATES)

    @settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
    @given(_expr())
    def generated(text: str) -> None:
        each_rewrite(text)

    generated()
    for spelling in sorted({v[0] for v in TYPE_MAP.values() if v[2] is not None}):
        _both_ways(type_node, spelling)
