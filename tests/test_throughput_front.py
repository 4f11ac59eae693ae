"""Issue 26, the front half's fixed costs: each algorithm replaced for speed answers exactly as the one it
replaced (kept beside it as the reference), over every fixture tree and over trees hypothesis mutates, errors
included (code, message, path, fmt and hint, in the same order).

* ``jddl.expand.check`` (the check walk, :class:`ddlc.jddl.expand._Checker`) against the expander itself run
  without rendering (``_Expander(render=False)``, what ``check`` was).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ddlc.errors import DdlcError
from ddlc.jddl import expand as X

ROOT = Path(__file__).resolve().parents[1]


def _trees() -> list[dict]:
    out = []
    for p in sorted(ROOT.glob("fixtures/cases/**/input.json")):
        try:
            v = orjson.loads(p.read_bytes())
        except orjson.JSONDecodeError:
            continue
        v = v.get("JDDL", v) if isinstance(v, dict) else v
        if isinstance(v, dict) and "fmt" in v:
            out.append(v)
    return out


TREES = _trees()


def _outcome(fn: Any, *args: Any) -> Any:
    try:
        return ("ok", fn(*args))
    except DdlcError as e:
        return (e.code, str(e), tuple(e.path), getattr(e, "fmt", None), getattr(e, "hint", None), e.document)
    except RecursionError:
        return "recursion"


def _paths(v: Any, at: tuple = ()) -> Any:
    yield at
    if isinstance(v, dict):
        for k, x in v.items():
            yield from _paths(x, at + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from _paths(x, at + (i,))


_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 5), st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=6), st.just(""), st.just([]), st.just({}), st.just({"fmt": "%{x}I"}), st.just({"fmt": "%{x}s"}),
    st.just({"present": False}), st.just({"present": "no"}), st.just(["a", {"fmt": "x"}]),
    st.just({"objname": "t"}), st.just({"schemaname": 1, "objname": "t"}), st.just({"object_name": 2}),
    st.just({"typename": "int", "typarray": False}), st.just({"typename": "int", "typarray": 1}),
    st.just({"fmt": "%{a:, }s", "a": ["x", {"present": False}, {"fmt": "y"}]}),
    st.just({"fmt": "%{x", "x": 1}), st.just({"fmt": "%{x}q"}), st.just({"fmt": 3}),
)


def mutated(data: Any, trees: list[dict] = TREES, most: int = 3) -> dict:
    """A fixture tree with 1-``most`` members deleted or replaced (hypothesis draws which and by what)."""
    tree = json.loads(json.dumps(data.draw(st.sampled_from(trees))))
    for _ in range(data.draw(st.integers(1, most))):
        paths = [p for p in _paths(tree) if p]
        if not paths:
            break
        path = data.draw(st.sampled_from(paths))
        parent = tree
        for k in path[:-1]:
            parent = parent[k]
        if isinstance(parent, dict) and data.draw(st.booleans()):
            del parent[path[-1]]
        else:
            parent[path[-1]] = json.loads(json.dumps(data.draw(_VALUES)))  # (a fresh copy: st.just is shared)
    return tree


# ---- the expansion's check ------------------------------------------------------------------------------


def _old_check(tree: dict, document: str | None = "d") -> None:
    X._Expander(document, render=False).expand(tree, (), 0, [])


def _new_check(tree: dict, document: str | None = "d") -> None:
    X.check(tree, document=document)


def test_expansion_check_on_fixture_trees() -> None:
    assert len(TREES) > 100
    for tree in TREES:
        assert _outcome(_new_check, tree) == _outcome(_old_check, tree)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_expansion_check_on_mutated_trees(data: Any) -> None:
    tree = mutated(data)
    assert _outcome(_new_check, tree) == _outcome(_old_check, tree)


def test_expansion_check_on_shared_and_deep_objects() -> None:
    shared = {"fmt": "x"}
    many = {"fmt": " ".join(f"%{{a{i}}}s" for i in range(8)) + " %{b:, }s", **{f"a{i}": shared for i in range(8)},
            "b": [shared, shared]}
    deep: dict = {"fmt": "x"}
    for _ in range(300):
        deep = {"fmt": "(%{c}s)", "c": deep}
    for tree in (many, deep, {"fmt": "%{x}D", "x": {"schema_name": "s"}}, {"fmt": "%{x}T", "x": {"type_name": 1}}):
        assert _outcome(_new_check, tree) == _outcome(_old_check, tree)
