"""Issue 26.2: the pruned walks of the passes give what the full walks give.

``transform(stmt, fn, skip, reach)`` enters only the fields that can lead to the classes ``fn`` changes
(:class:`ddlc.ir.reach.Reach`); it must rebuild exactly what the full walk rebuilds, call ``fn`` on the
same target nodes in the same order, and forget its plan when node classes are defined later.
"""

from __future__ import annotations

import glob
import sys
from pathlib import Path

import orjson
import pytest

from ddlc.ir import base
from ddlc.ir.base import Node, node, transform, walk
from ddlc.ir.names import Expr, QualifiedName
from ddlc.ir.partition import BoundValue
from ddlc.ir.reach import Reach
from ddlc.ir.routine import FunctionArg

ROOT = Path(__file__).resolve().parents[1]


def _statements():
    from ddlc.frontend.build import build
    from ddlc.frontend.text import read_tddl

    out = []
    for f in sorted(glob.glob(str(ROOT / "fixtures" / "cases" / "**" / "input.json"), recursive=True)):
        doc = orjson.loads(Path(f).read_bytes())
        try:
            if isinstance(doc, dict) and "TDDL" in doc:
                stmt, _ = read_tddl(doc["TDDL"], document=f)
            else:
                stmt, _ = build(doc.get("JDDL", doc) if isinstance(doc, dict) else doc, document=f)
        except Exception:  # noqa: BLE001 - the cases that fail are not what is compared here
            continue
        out.append((f, stmt))
    return out


STATEMENTS = _statements()
TARGETS = {FunctionArg, BoundValue, QualifiedName, Expr}


def test_the_corpus_is_there():
    assert len(STATEMENTS) > 150


@pytest.mark.parametrize("schema", ["public", "s_other"])
def test_pruned_walk_equals_full_walk(schema):
    from ddlc.passes.qualify_names import NOT_USER_OBJECTS

    reach = Reach(TARGETS, NOT_USER_OBJECTS)
    changed = 0
    for label, stmt in STATEMENTS:
        seen_full: list[Node] = []
        seen_pruned: list[Node] = []

        def fn(n, seen):
            if type(n) in TARGETS:
                seen.append(base.to_json(n, with_origin=True))
                if type(n) is QualifiedName:
                    return base.replace(n, schema=schema if n.schema is None else n.schema + "_x")
            return n

        full = transform(stmt, lambda n: fn(n, seen_full), NOT_USER_OBJECTS)
        pruned = transform(stmt, lambda n: fn(n, seen_pruned), NOT_USER_OBJECTS, reach)
        assert full == pruned, label
        assert base.to_json(full, with_origin=True) == base.to_json(pruned, with_origin=True), label
        assert seen_full == seen_pruned, label
        if full is not stmt:
            changed += 1
        else:
            assert pruned is stmt, label  # nothing changed: the very same object
        # the subtrees both walks left as they were are the same objects in both
        kept_full = {id(n) for n in walk(full)} & {id(n) for n in walk(stmt)}
        assert kept_full == {id(n) for n in walk(pruned)} & {id(n) for n in walk(stmt)}, label
    assert changed > 30


def test_qualify_names_as_before():
    from ddlc.passes import PassContext
    from ddlc.passes.qualify_names import NOT_USER_OBJECTS, qualify_names
    from ddlc.options import Options

    ctx = PassContext.of(Options.of(), target="postgres")
    q = sys.modules["ddlc.passes.qualify_names"]
    original = q.transform

    def full(n, fn, skip=frozenset(), reach=None):  # the pass's own function, walked everywhere
        return original(n, fn, skip)

    for label, stmt in STATEMENTS:
        got, diags = qualify_names(stmt, ctx)
        q.transform = full
        try:
            want, want_diags = qualify_names(stmt, ctx)
        finally:
            q.transform = original
        assert got == want and base.to_json(got, with_origin=True) == base.to_json(want, with_origin=True), label
        assert [d.to_dict() for d in diags] == [d.to_dict() for d in want_diags], label
    assert NOT_USER_OBJECTS


def test_a_class_defined_later_is_seen():
    @node
    class _HolderLater(Node):
        inner: Node | None = None

    reach = Reach({QualifiedName})
    assert reach.enters(_HolderLater)  # a field typed Node may hold anything
    before = base.generation

    @node
    class _Other(Node):
        name: QualifiedName | None = None

    assert base.generation == before + 1
    assert reach.current() is reach and reach.enter == {}  # forgotten, worked out again on demand
    assert reach.enters(_Other)
