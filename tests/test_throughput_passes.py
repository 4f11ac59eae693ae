"""Issue 26.2: the pruned walks of the passes give what the full walks give.

``transform(stmt, fn, skip, reach)`` enters only the fields that can lead to the classes ``fn`` changes
(:class:`ddlc.ir.reach.Reach`); it must rebuild exactly what the full walk rebuilds, call ``fn`` on the
same target nodes in the same order, and forget its plan when node classes are defined later.
"""

from __future__ import annotations

import glob
import sys
from pathlib import Path
from typing import Any

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


# ---- round 8: qualify_names checks the statement before it rebuilds anything, and hands its fragments on ----------
# The check (``_unchanged``) says "nothing to change" exactly when the rebuilding walk would return the statement as
# it is, with the same notes in the same order, and then keeps the statement's Exprs as the shared Expr plan's last
# answer (what Reach.found would find: the same nodes, holders and fields, in its order).


def _former_qualify(stmt, default, document):
    """qualify_names as it was before the check: the rebuilding walk alone."""
    from ddlc.diagnostics import Diagnostic
    from ddlc.passes._sync import synced
    from ddlc.passes.qualify_names import _MAY_REFERENCE, _REACH, N_UNPARSED_REF, NOT_USER_OBJECTS

    diags = []

    def unqualified(schema, name):
        return default if schema is None else None

    def fn(n):
        t = type(n)
        if t is QualifiedName:
            return n if n.schema is not None else base.replace(n, schema=default)
        if t is FunctionArg or t is BoundValue:
            return synced(n)
        if t is Expr and _MAY_REFERENCE.search(n.text):
            new = n.renamed_text(unqualified)
            if new is None:
                diags.append(Diagnostic(N_UNPARSED_REF, "SQL text not parsed; references inside it left as written",
                                        n.origin, document=document, pass_name="qualify_names"))
            elif new is not n.text:
                return n.renamed(new, unqualified)
        return n

    return transform(stmt, fn, NOT_USER_OBJECTS, _REACH), diags


def _variants(stmt):
    """The statement, and copies with one name made unqualified (each of the first four met) or every fragment
    that may name an object made unparsed (its parse dropped: its references unknown)."""
    from ddlc.passes.qualify_names import _MAY_REFERENCE

    yield stmt
    for k in range(4):
        seen = [0]

        def unqualify(n, k=k, seen=seen):
            if type(n) is QualifiedName and n.schema is not None:
                seen[0] += 1
                if seen[0] == k + 1:
                    return base.replace(n, schema=None)
            return n

        out = transform(stmt, unqualify)
        if out is stmt:
            break
        yield out

    def unparse(n):
        if type(n) is Expr and n.sql is not None and _MAY_REFERENCE.search(n.text):
            return base.replace(n)  # (its parsed form reset)
        return n

    out = transform(stmt, unparse)
    if out is not stmt:
        yield out


@pytest.mark.parametrize("schema", ["public", "s_other"])
def test_check_first_as_before(schema):
    import msgspec

    from ddlc.options import Options
    from ddlc.passes import PassContext
    from ddlc.passes.qualify_names import _EXPRS, qualify_names

    ctx = msgspec.structs.replace(PassContext.of(Options.of(default_schema=schema), target="postgres"), document="d")
    kept = changed = noted = handed = 0
    for label, stmt0 in STATEMENTS:
        for stmt in _variants(stmt0):
            _EXPRS._last = (None, ())
            got, diags = qualify_names(stmt, ctx)
            last = _EXPRS._last
            want, want_diags = _former_qualify(stmt, schema, "d")
            assert got == want and base.to_json(got, with_origin=True) == base.to_json(want, with_origin=True), label
            assert (got is stmt) == (want is stmt), label
            assert [d.to_dict() for d in diags] == [d.to_dict() for d in want_diags], label
            assert [d.document for d in diags] == [d.document for d in want_diags], label
            kept += got is stmt
            changed += got is not stmt
            noted += len(diags)
            if last[0] is not None:  # handed on: what Reach.found finds, node for node
                assert last[0] is got is stmt, label
                _EXPRS._last = (None, ())
                fresh = _EXPRS.current().found(stmt)
                assert len(last[1]) == len(fresh), label
                for (e1, h1, f1), (e2, h2, f2) in zip(last[1], fresh):
                    assert e1 is e2 and h1 is h2 and f1 == f2, label
                handed += 1
    assert kept > 100 and changed > 100 and noted > 5 and handed > 50, (kept, changed, noted, handed)


def test_check_first_sees_a_tuple_inside_a_tuple():
    """A value the rebuilding walk does not enter (a tuple inside a tuple) and Reach.found does: the check leaves
    the statement to the rebuilding walk and hands nothing on."""
    from ddlc.passes.qualify_names import _unchanged

    @node
    class _Nested(Node):
        groups: tuple[Any, ...] = ()

    inner = Expr("x", origin=("a",))
    stmt = _Nested(groups=((inner,),))
    assert _unchanged(stmt, lambda schema, name: "s" if schema is None else None) is None


def test_plans_share_the_type_hints_read(monkeypatch):
    """Every plan reads a class's fields' node classes from one table (read once per class for all of them), worked
    out again once a node class is defined since (a subclass a field's type admits)."""
    from ddlc.ir import reach as reach_module

    @node
    class _Base8(Node):
        pass

    monkeypatch.setitem(globals(), "_Base8", _Base8)  # (where the type hint below is resolved)

    @node
    class _Holder8(Node):
        x: _Base8 | None = None

    first = reach_module._shared_child_classes(_Holder8)
    assert first == reach_module.child_classes(_Holder8) == {"x": frozenset({_Base8})}
    assert reach_module._shared_child_classes(_Holder8) is first  # (once)
    one, other = Reach({_Base8}), Reach({QualifiedName})
    assert one._kids(_Holder8) is other._kids(_Holder8) is first

    @node
    class _Sub8(_Base8):
        pass

    assert reach_module._shared_child_classes(_Holder8) == {"x": frozenset({_Base8, _Sub8})}
    assert Reach({_Sub8}).current().enters(_Holder8) and not Reach({QualifiedName}).current().enters(_Holder8)
