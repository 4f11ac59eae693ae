"""jddl.expand.check (issue 26: the targets that translate from the IR check a tree's expansion without
writing it) raises exactly what expand raises, in the same order, for every fixture tree and for mutated
ones: the same code, message, path and fmt."""

from __future__ import annotations

import json
from pathlib import Path

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ddlc.errors import DdlcError
from ddlc.jddl.expand import check, expand

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


def _outcome(fn, tree):
    try:
        fn(tree, document="d")
    except DdlcError as e:
        return (e.code, str(e), tuple(e.path), getattr(e, "fmt", None))
    except RecursionError:
        return "recursion"
    return None


def test_fixture_trees_check_as_they_expand() -> None:
    assert len(TREES) > 100
    for tree in TREES:
        assert _outcome(check, tree) == _outcome(expand, tree)


_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.floats(allow_nan=False, allow_infinity=False),
                    st.text(max_size=6), st.just([]), st.just({}), st.just({"fmt": "%{x}I"}),
                    st.just({"present": False}), st.just({"present": "no"}), st.just(["a", {"fmt": "x"}]))


def _paths(v, at=()):
    yield at
    if isinstance(v, dict):
        for k, x in v.items():
            yield from _paths(x, at + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from _paths(x, at + (i,))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_trees_check_as_they_expand(data) -> None:
    tree = json.loads(json.dumps(data.draw(st.sampled_from(TREES))))
    for _ in range(data.draw(st.integers(1, 3))):
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
    assert _outcome(check, tree) == _outcome(expand, tree)
