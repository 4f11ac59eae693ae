"""Lossless invariant: for every shape the builder knows, writing the IR back as GaussDB text
gives exactly the expansion of the input tree (raw, hence canonical too)."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ddlc.backends.gaussdb import emit
from ddlc.errors import DdlcError
from ddlc.frontend.build import build, shape_of
from ddlc.jddl.expand import expand
from ddlc.ir.statement import Opaque
from conftest import case_dirs, case_id


def _known_trees():
    out = []
    for case in case_dirs():
        if (case / "expected.error.json").exists():
            continue
        doc = json.loads((case / "input.json").read_text("utf-8"))
        tree = doc.get("JDDL", doc)
        if "fmt" in tree and shape_of(tree) is not None:
            out.append((case_id(case), tree))
    return out


KNOWN = _known_trees()


@pytest.mark.parametrize("tree", [t for _, t in KNOWN], ids=[i for i, _ in KNOWN])
def test_ir_round_trip_is_byte_exact(tree):
    stmt, _ = build(tree)
    assert not isinstance(stmt, Opaque)
    assert emit(stmt, mode="raw") == expand(tree)


# Metadata and keyword-valued members keep their vocabulary; every other string leaf is fuzzed.
_FIXED = {"fmt", "type", "contype", "clause", "kind", "objtype", "typename", "typmod", "schemaname",
          "persistence", "if_not_exists", "if_exists", "cascade", "concurrently", "unique", "only",
          "large", "or_replace", "no", "option", "set_reset", "time", "for_each", "not_null",
          "auto_increment", "constraint", "issub", "gpi", "with", "deferrable", "init_deferred",
          "constraint_type", "compression", "partition_by", "definition", "index_am", "value",
          "default", "generation_expr", "query", "function", "clause", "expression", "maxvalues",
          "maxvalue", "objidentity", "identity_text", "comment_opt", "order", "ident", "storage"}


def _leaves(v, path=()):
    if isinstance(v, dict):
        for k, x in v.items():
            if k not in _FIXED:
                yield from _leaves(x, path + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from _leaves(x, path + (i,))
    elif isinstance(v, str):
        yield path


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_lossless_on_generated_trees(data):
    if not KNOWN:
        return
    _, tree = data.draw(st.sampled_from(KNOWN))
    tree = copy.deepcopy(tree)
    for path in list(_leaves(tree)):
        if data.draw(st.booleans()):
            parent = tree
            for p in path[:-1]:
                parent = parent[p]
            parent[path[-1]] = data.draw(st.text(max_size=12))
    try:
        stmt, _ = build(tree)
    except DdlcError as exc:  # a fragment that is not one part of its kind: a clean input error
        assert exc.code == "DDLC-E011", exc  # a fuzzed fragment (type modifier, expression...) that is not one
        return
    assert emit(stmt, mode="raw") == expand(tree)

