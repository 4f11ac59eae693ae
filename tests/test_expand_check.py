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


def mutated(data, values=_VALUES, trees=TREES, most=3, *, keep_fmt=False, delete_odds=2) -> dict:
    """A fixture tree with 1-``most`` members deleted (one chance in ``delete_odds``, in an object) or replaced
    by a drawn value (hypothesis draws which and by what); ``keep_fmt``: no ``fmt`` is touched. Shared with
    tests/test_throughput_front.py."""
    tree = json.loads(json.dumps(data.draw(st.sampled_from(trees))))
    for _ in range(data.draw(st.integers(1, most))):
        paths = [p for p in _paths(tree) if p and not (keep_fmt and p[-1] == "fmt")]
        if not paths:
            break
        path = data.draw(st.sampled_from(paths))
        parent = tree
        for k in path[:-1]:
            parent = parent[k]
        if isinstance(parent, dict) and data.draw(st.integers(0, delete_odds - 1)) == 0:
            del parent[path[-1]]
        else:
            parent[path[-1]] = json.loads(json.dumps(data.draw(values)))  # (a fresh copy: st.just is shared)
    return tree


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_trees_check_as_they_expand(data) -> None:
    tree = mutated(data)
    assert _outcome(check, tree) == _outcome(expand, tree)
