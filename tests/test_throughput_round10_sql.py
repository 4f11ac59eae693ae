"""Round 10 of issue 26, the SQL layer: what changed there gives what it gave before.

* A fragment's references (:attr:`ddlc.ir.names.ParsedSql.refs`) are worked out when first read, apart from its
  tree (``ParsedSql.later(form, text, tree_fn, refs_fn)``): only a pass that may rename a schema reads them. For
  every string of the fixtures and generated texts, each maker's new pair of functions gives the tree, references
  and ``verbatim`` the former one function (``expr_parts``, ``query_parts``, ``definition_parts``,
  ``column_parts``) gave, whichever is read first; equality, hashing and pickles (resolved or not) are the same.
"""

from __future__ import annotations

import pickle

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ddlc.frontend.sql import constraints, expr, partition_common
from ddlc.frontend.sql.refs import name_refs
from ddlc.ir.names import ParsedSql
from fixture_strings import json_strings

# (form, the former load, the new tree function, the new references function)
MAKERS = [
    ("expr", expr.expr_parts, expr.expr_tree, name_refs),
    ("query", expr.query_parts, expr.query_tree, name_refs),
    ("expr", constraints.definition_parts, constraints.definition_tree, constraints.definition_refs),
    ("expr", partition_common.column_parts, partition_common.column_tree, partition_common.column_refs),
]

TEXTS = sorted(json_strings(2000))


def _values(p: ParsedSql, refs_first: bool) -> tuple[object, ...]:
    if refs_first:
        refs = p.refs
        return p.form, p.node, refs, p.verbatim
    node = p.node
    return p.form, node, p.verbatim, p.refs


def _same(form: str, old, tree, refs, text: str) -> None:
    want = ParsedSql.later(form, text, old)
    want_values = (want.form, want.node, want.refs, want.verbatim)
    for refs_first in (False, True):
        got = ParsedSql.later(form, text, tree, refs)
        v = _values(got, refs_first)
        assert (v[0], v[1], v[2 if refs_first else 3], v[3 if refs_first else 2]) == want_values, text
        assert got == want and hash(got) == hash(want), text
    # pickles: unresolved, half resolved (either half), resolved: the same values after loading
    for touch in ((), ("refs",), ("node",), ("node", "refs")):
        got = ParsedSql.later(form, text, tree, refs)
        for name in touch:
            getattr(got, name)
        back = pickle.loads(pickle.dumps(got))
        assert (back.form, back.node, back.refs, back.verbatim) == want_values, (text, touch)


@pytest.mark.parametrize("maker", range(len(MAKERS)))
def test_lazy_refs_fixture_strings(maker: int) -> None:
    form, old, tree, refs = MAKERS[maker]
    for text in TEXTS:
        _same(form, old, tree, refs, text)


_PIECES = ["a", "s.t", "x.y.z", "1", "'v'", "'s.seq'", "nextval('s.seq'::regclass)", "s.f(a)", "(", ")", " ", ",",
           "::s.ty", "::integer", "+", ">", "SELECT ", " FROM ", " JOIN ", "WITH c AS (SELECT 1) ", "CHECK ",
           "PRIMARY KEY ", "UNIQUE ", "REFERENCES s.t(a)", "isnull", '"Q"', "--c\n", "/*c*/", ";", "lateral", "DESC",
           "é", "$$x$$", "VALUES (1)", "TABLE s.t"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=10), st.integers(0, len(MAKERS) - 1))
def test_lazy_refs_generated(pieces: list[str], maker: int) -> None:
    form, old, tree, refs = MAKERS[maker]
    _same(form, old, tree, refs, "".join(pieces))


def test_copy_keeps_references_unread() -> None:
    """A copy (or pickle) of a fragment whose tree was read and whose references were not leaves them unread: a
    copy of a statement reads no text."""
    import copy

    p = ParsedSql.later("query", "SELECT a FROM s.t", expr.query_tree, name_refs)
    assert p.node is not None
    for back in (copy.deepcopy(p), pickle.loads(pickle.dumps(p))):
        assert back._refs_later is not None
        assert back.refs == name_refs("SELECT a FROM s.t") and back == p


def test_old_protocol_kept() -> None:
    """A ParsedSql made with one function (a pickle of an earlier release) still reads as it did."""
    p = ParsedSql.later("expr", "s.f(a) + 1", expr.expr_parts)
    assert p.refs == name_refs("s.f(a) + 1")
    assert p.node is expr.parse_expr("s.f(a) + 1")
    back = pickle.loads(pickle.dumps(ParsedSql.later("expr", "1", expr.expr_parts)))
    assert back == ParsedSql.later("expr", "1", expr.expr_parts) == ParsedSql("expr", expr.parse_expr("1"), (), True)
