"""Issue 26, a document walked once: ``build(tree, expansion=True)`` (the expansion check and the slot check in
one walk, :mod:`ddlc.frontend.treecheck`) gives what :func:`ddlc.jddl.expand.check` then ``build`` gave, and
``build_source(tree)`` what :func:`ddlc.jddl.expand.expand` then ``build`` gave, on every fixture tree and on
mutated ones: the same error (code, message, path, fmt) or the same text, statement, diagnostics and unpastable
paths."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ddlc.errors import DdlcError
from ddlc.frontend.build import build, build_source
from ddlc.frontend.slots import NODES, check_tree
from ddlc.frontend.treecheck import check_both, expand_both
from ddlc.jddl.expand import check, expand

from test_expand_check import TREES, mutated


def _outcome(fn: Any) -> Any:
    try:
        return "ok", fn()
    except DdlcError as e:
        return (e.code, str(e), tuple(e.path), getattr(e, "fmt", None))
    except RecursionError:
        return "recursion"


def _old(tree: Any) -> Any:
    def run() -> Any:
        check(tree, document="d")
        return build(tree, document="d")

    return _outcome(run)


def _new(tree: Any) -> Any:
    return _outcome(lambda: build(tree, document="d", expansion=True))


def _raiser(e: Exception) -> Any:
    def run() -> Any:
        raise e

    return run


def _old_text(tree: Any) -> Any:
    def run() -> Any:
        text = expand(tree, document="d")
        return (text, *build(tree, document="d"))

    return _outcome(run)


def _same(tree: Any) -> None:
    old, new = _old(tree), _new(tree)
    assert old == new, (tree, old, new)
    old, new = _old_text(tree), _outcome(lambda: build_source(tree, document="d"))
    assert old == new, (tree, old, new)


def test_fixture_trees_build_as_before() -> None:
    assert len(TREES) > 100
    for tree in TREES:
        _same(tree)


def test_fixture_trees_checked_as_any_shape() -> None:
    """The slot half on its own: as check_tree for every shape of the table (the expansion passing)."""
    for tree in TREES:
        for shape in NODES:
            try:
                check(tree, document="d")
            except DdlcError:
                continue
            old = _outcome(lambda: check_tree(tree, shape, "d"))
            for found in (check_both(tree, shape, "d"), expand_both(tree, shape, "d")[1]):
                new = _outcome(_raiser(found.error)) if found.error else ("ok", tuple(found.unpastable))
                assert old == new, (shape, tree, old, new)


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_mutated_trees_build_as_before(data: Any) -> None:
    _same(mutated(data))


_STRINGS = st.one_of(st.sampled_from(["", "x", "a b", "'q'", "--c", "IF EXISTS", "1", "(", "\\", "CASCADE",
                                      "int4(3)", "\"A\"", "DROP", "a.b"]), st.text(max_size=8))


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_trees_with_strings_replaced_build_as_before(data: Any) -> None:
    _same(mutated(data, _STRINGS, keep_fmt=True, delete_odds=8))


def test_deep_and_shared_objects() -> None:
    inner: dict[str, Any] = {"fmt": "%{x}s", "x": "a"}
    for depth in (10, 63, 64, 65, 66, 200, 257, 300):
        tree: dict[str, Any] = {"fmt": "DROP TABLE %{objidentity}s", "objidentity": "a"}
        node = tree
        for _ in range(depth):
            node["objidentity"] = node = {"fmt": "%{objidentity}s", "objidentity": "b --c"}
        _same(tree)
    shared = {"fmt": "DROP TABLE %{a}s %{a}s %{a}s %{a}s %{a}s", "a": inner}
    _same(shared)
    _same({"fmt": "DROP TABLE %{l:, }s", "l": [inner] * 9})
