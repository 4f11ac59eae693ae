"""Issue 26, round 11: ``qualify_names``'s check, with fewer frames, says what the round-10 check said.

The check now reads a node's fields in one call (``operator.attrgetter``), walks the statement's own fields in
``qualify_names``'s frame, and judges a fragment from its references directly (a reference with no schema and a
known place is what :meth:`~ddlc.ir.names.Expr.renamed_text` rewrites) instead of through ``renamed_text``. The
round-10 check is kept here (:func:`_former_unchanged`) and compared with the new one over every fixture statement
and its variants (a name unqualified, a fragment unparsed), for both answers: whether anything changes, which
fragments do not parse (the same objects, in order), and the fragments handed on to the shared Expr plan.

The check makes a fragment's tree when the former one did (``renamed_text`` reads the references twice, and the
second read makes the tree): a target that prints text may still print a fragment from its tree (GaussDB's SELECT
INTO), and no emitter parses. ``run_pipeline`` reads a class's plan from ``Plans.by_class`` while it is current.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from ddlc.ir import base
from ddlc.ir.base import Node
from ddlc.ir.names import Expr, QualifiedName
from tests.test_throughput_passes import STATEMENTS, _former_qualify, _variants


# ---- the round-10 check (ddlc/passes/qualify_names.py at 4a0c31e), kept to compare with -------------------------

def _former_step(cls, steps):
    from ddlc.passes.qualify_names import _EXPRS, _KINDS, _REACH

    reach = _REACH.current()
    if not (isinstance(cls, type) and issubclass(cls, Node) and reach.enters(cls)):
        steps[cls] = None
        return None
    exprs = _EXPRS.current()
    ours = reach.fields(cls)
    theirs = exprs.fields(cls) if exprs.enters(cls) else ()
    out = steps[cls] = (_KINDS.get(cls, 0) if cls in reach.targets else 0, tuple((f, f in theirs) for f in ours),
                        all(f in ours for f in theirs))
    return out


def _former_unchanged(stmt, unqualified):
    """(None or the unparsed fragments, the fragments handed on or None)."""
    from ddlc.passes.qualify_names import _EXPRS

    steps: dict[type, Any] = {}
    step = _former_step(type(stmt), steps)
    if step is None:
        return [], None
    found: list[Any] = []
    unparsed: list[Any] = []
    complete = _former_check(stmt, step, True, found, unparsed, unqualified, steps)
    if complete is None:
        return None, None
    handed = None
    if complete and _EXPRS.current().enters(type(stmt)):
        found.reverse()
        handed = tuple(found)
    return unparsed, handed


def _former_check(cur, step, theirs, found, unparsed, unqualified, steps):
    from ddlc.passes._sync import synced
    from ddlc.passes.qualify_names import _MAY_REFERENCE

    complete = step[2] or not theirs
    for f, also in step[1]:
        v = getattr(cur, f)
        if v is None:
            continue
        also = also and theirs
        for x in (v if type(v) is tuple else (v,)):
            tx = type(x)
            if tx is QualifiedName:
                if x.schema is None:
                    return None
                continue
            if tx is Expr:
                if also:
                    found.append((x, cur, f))
                if _MAY_REFERENCE.search(x.text):
                    new = x.renamed_text(unqualified)
                    if new is None:
                        unparsed.append(x)
                    elif new is not x.text:
                        return None
                continue
            go = steps.get(tx, 0)
            if go == 0:
                if tx is tuple:
                    return None
                go = _former_step(tx, steps)
            if go is None:
                continue
            below = _former_check(x, go, also, found, unparsed, unqualified, steps)
            if below is None or (go[0] and synced(x) is not x):
                return None
            complete = complete and below
    return complete


def _fresh(stmt):
    """``stmt`` as a new document would give it: a copy whose fragments' parses are still to be made."""
    import pickle

    return pickle.loads(pickle.dumps(stmt))


@pytest.mark.parametrize("schema", ["public", "s_other"])
def test_check_as_round_10(schema):
    from ddlc.options import Options
    from ddlc.passes import PassContext
    from ddlc.passes.qualify_names import _EXPRS, _unchanged, qualify_names

    ctx = msgspec.structs.replace(PassContext.of(Options.of(default_schema=schema), target="gaussdb"), document="d")

    def unqualified(s, name):
        return schema if s is None else None

    same = changed = noted = handed = 0
    for label, stmt0 in STATEMENTS:
        for stmt in _variants(stmt0):
            want, want_handed = _former_unchanged(stmt, unqualified)
            got = _unchanged(stmt)
            assert (got is None) == (want is None), label
            if got is not None:
                assert len(got) == len(want) and all(a is b for a, b in zip(got, want)), label
            # the pass itself: what it hands on, and its result and notes (the rebuilding walk's, when it rebuilds)
            _EXPRS._last = (None, ())
            out, diags = qualify_names(stmt, ctx)
            last = _EXPRS._last
            if want is not None:
                assert out is stmt, label
                same += 1
                if want_handed is not None:
                    assert last[0] is stmt and len(last[1]) == len(want_handed), label
                    assert all(a[0] is b[0] and a[1] is b[1] and a[2] == b[2] for a, b in zip(last[1], want_handed))
                    handed += 1
                else:
                    assert last[0] is None or last[1] == (), label
            else:
                changed += 1
            ref, ref_diags = _former_qualify(stmt, schema, "d")
            assert out == ref and base.to_json(out, with_origin=True) == base.to_json(ref, with_origin=True), label
            assert (out is stmt) == (ref is stmt), label
            assert [d.to_dict() for d in diags] == [d.to_dict() for d in ref_diags], label
            noted += len(diags)
    assert same > 100 and changed > 100 and noted > 5 and handed > 50, (same, changed, noted, handed)


def test_check_as_round_10_on_fresh_fragments():
    """The same on copies whose fragments have not been parsed yet (as in a run: the check is their first reader)."""
    from ddlc.passes.qualify_names import _unchanged

    def unqualified(s, name):
        return "public" if s is None else None

    for label, stmt0 in STATEMENTS:
        for stmt in _variants(stmt0):
            a, b = _fresh(stmt), _fresh(stmt)
            want, _ = _former_unchanged(a, unqualified)
            got = _unchanged(b)
            assert (got is None) == (want is None), label
            if got is not None:
                assert [base.to_json(e, with_origin=True) for e in got] == \
                    [base.to_json(e, with_origin=True) for e in want], label
                # the same fragments' trees made (the former check's side effect, which the GaussDB target relies on)
                assert _made(a) == _made(b), label


def _made(stmt):
    """Per fragment of ``stmt`` (in walk order): whether its references and its tree were worked out."""
    out = []
    for n in base.walk(stmt):
        if type(n) is Expr and n.sql is not None:
            out.append((n.sql._refs_later is None, n.sql._later is None))
    return out


def test_run_pipeline_plans_looked_up_as_before():
    """run_pipeline reads a class's plan from Plans.by_class while the plans are current, else asks Plans.of."""
    from ddlc.options import Options
    from ddlc.passes import PassContext, Plans, run_pipeline

    ctx = PassContext.of(Options.of(), target="postgres")
    plans = Plans(ctx)
    for label, stmt in STATEMENTS[:60]:
        got = run_pipeline(stmt, ctx, plans=plans)
        want = run_pipeline(stmt, ctx)
        assert got[0] == want[0] and [d.to_dict() for d in got[1]] == [d.to_dict() for d in want[1]], label
    before = dict(plans.by_class)
    assert before
    base.generation += 1  # (as a node class defined since does)
    try:
        run_pipeline(STATEMENTS[0][1], ctx, plans=plans)
        assert plans.generation == base.generation and len(plans.by_class) == 1
    finally:
        base.generation -= 1


def test_a_target_class_without_fields_to_visit():
    """A class entered because it is a target, with no field to visit: its step reads nothing."""
    from ddlc.passes.qualify_names import _step

    step = _step(QualifiedName)  # (never asked by the walk, which judges names where they are held)
    assert step is not None and step[1](QualifiedName("t", "s")) == () and step[2] == ()
