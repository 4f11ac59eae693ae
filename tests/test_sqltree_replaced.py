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
