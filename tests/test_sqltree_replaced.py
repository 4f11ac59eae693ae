"""ddlc.ir.sqltree.replaced / copied_with: a rewrite copies only the path to what changes and never
modifies the tree it is given (the IR's parsed fragments are shared: issue 26, the deep copies gone)."""

from __future__ import annotations

import pglast
import pytest
from pglast import ast
from pglast.stream import RawStream

from ddlc.ir.sqltree import copied_with, nodes, replaced

QUERIES = [
    "SELECT nvl(a, 1), decode(b, 1, 'x', 'y') FROM s.t WHERE c > nvl(d, 0)",
    "SELECT a::varchar2(10), CAST(b AS number) FROM t",
    "SELECT 1",
    "SELECT f(g(h(x))) FROM (SELECT x FROM u) AS q ORDER BY 1",
]


def _tree(sql: str):
    return pglast.parse_sql(sql)[0].stmt


@pytest.mark.parametrize("sql", QUERIES)
def test_unchanged_tree_is_returned_itself(sql: str) -> None:
    tree = _tree(sql)
    assert replaced(tree, lambda original, node: node) is tree


@pytest.mark.parametrize("sql", QUERIES)
def test_rewrite_copies_the_path_and_leaves_the_original(sql: str) -> None:
    tree = _tree(sql)
    before = RawStream()(tree)
    ids = {id(n) for n in nodes(tree)}

    def upper_funcs(original, node):
        if isinstance(original, ast.FuncCall):
            return copied_with(node, {"funcname": (ast.String(sval="upper"),)})
        return node

    new = replaced(tree, upper_funcs)
    assert RawStream()(tree) == before  # the original is untouched
    after = RawStream()(new)
    has_calls = any(isinstance(n, ast.FuncCall) for n in nodes(tree))
    assert (new is tree) is not has_calls
    if has_calls:
        assert "upper(" in after.lower()
        # every node of the result is either shared with the original or new on a path to a change
        shared = [n for n in nodes(new) if id(n) in ids]
        assert shared, "untouched subtrees are shared, not copied"
        assert all(not isinstance(n, ast.FuncCall) for n in shared)
    else:
        assert after == before


def test_copied_with_keeps_every_other_slot() -> None:
    tree = _tree("SELECT a FROM t WHERE b LIMIT 3")
    copy = copied_with(tree, {"whereClause": None})
    assert copy is not tree and tree.whereClause is not None
    assert copy.targetList is tree.targetList and copy.limitCount is tree.limitCount
    assert RawStream()(copy) == "SELECT a FROM t LIMIT 3"


def _chain(a) -> list:
    out = []
    while a is not None:
        out.append((id(a.node), a.member))
        a = a.parent
    return out


def test_populate_ancestors_is_pglasts(tmp_path) -> None:
    """ddlc's populate_ancestors (what pg_deparse prints with) makes pglast's chains, node for node, over
    every SQL file of the fixtures and over a tree whose rewritten parts are shared (a DAG)."""
    from pathlib import Path

    from pglast.visitors import populate_ancestors as theirs

    from ddlc.backends.postgres.exprs import rewrite_tree
    from ddlc.ir.sqltree import populate_ancestors as ours

    root = Path(__file__).resolve().parents[1]
    trees = []
    for p in sorted(root.glob("fixtures/**/*.sql")):
        try:
            trees.append(pglast.parse_sql(p.read_text("utf-8")))
        except pglast.parser.ParseError:
            continue

    class _Emit:
        def diag(self, *a, **k) -> None:
            pass

    dag, changed = rewrite_tree(_tree("SELECT last_day(d), nvl(a, nvl(b, c)) FROM t"), _Emit(), ())
    assert changed
    trees.append((dag,))
    assert len(trees) > 50
    for tree in trees:
        ours(tree)
        mine = [(id(n), _chain(n.ancestors)) for n in nodes(tree)]
        theirs(tree)
        assert mine == [(id(n), _chain(n.ancestors)) for n in nodes(tree)]


def test_pg_deparse_prints_as_pglasts_entry_point() -> None:
    """backends.writer.pg_deparse (pglast's RawStream.__call__ with ddlc's populate_ancestors) prints every
    statement of the fixtures' SQL files as pglast's own entry point does (a guard for a pglast upgrade)."""
    from pathlib import Path

    from ddlc.backends import writer

    root = Path(__file__).resolve().parents[1]
    writer.pg_deparse(_tree("SELECT 1"))  # (makes the stream class)
    n = 0
    for p in sorted(root.glob("fixtures/**/*.sql")):
        try:
            stmts = pglast.parse_sql(p.read_text("utf-8"))
        except pglast.parser.ParseError:
            continue
        for raw in stmts:
            assert writer.pg_deparse(raw.stmt) == writer._STREAM()(raw.stmt)
            n += 1
        assert writer.pg_deparse(stmts) == writer._STREAM()(stmts)
    assert n > 200
