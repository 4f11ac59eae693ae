"""Issue 26, round 10, the front half of the tree path: the common tree built without the layers
(:func:`ddlc.frontend.build._built` runs the fmt's builder itself, ``_build`` only for what is not a plain
statement; ``Obj`` and ``BuildContext`` are ``msgspec.Struct`` classes made in C).

The route the build took before is kept here (:func:`_old_built`, :func:`_old_build`, verbatim but for the
module names) and compared with :func:`ddlc.frontend.build.build` and :func:`~ddlc.frontend.build.build_source`
on every fixture tree, on each of them read as another version's form would be (its ``fmt`` with blanks
doubled), and on mutated trees (hypothesis): the same statement, the same diagnostics, or the same error
(code, message, path) and the same chained context.
"""

from __future__ import annotations

from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ddlc.errors import DdlcError
from ddlc.frontend import build as B
from ddlc.frontend.build._read import BuildContext, Obj
from ddlc.ir.statement import Opaque

from test_expand_check import TREES, mutated


# -- the route before round 10 -----------------------------------------------------------------------------------

def _old_built(tree: Any, document: str | None, found: Any, entry: Any = None) -> Any:
    used: list[Any] = []
    stmt, diags = _old_build(tree, document, used, entry)
    shape_name = B._NAMES.get(used[-1]) if used else B._recognised_shape(tree)
    if found is not None and found.shape == shape_name:
        if found.error is not None:
            raise found.error
        unpastable = tuple(found.unpastable)
    else:
        unpastable = B._lazy.check_tree(tree, shape_name, document)
    if unpastable:
        import msgspec.structs

        stmt = msgspec.structs.replace(stmt, unpastable=unpastable)
    return stmt, diags


def _old_build(tree: Any, document: str | None, used: list[Any], entry: Any = None) -> Any:
    ctx = BuildContext(document)
    fmt = tree.get("fmt")
    if not isinstance(fmt, str):
        return B._fallback_text(tree, ctx)
    fn, _, keys = entry if entry is not None else B._fmt_entry(fmt)
    kind, unknown = B._lazy.unknown_keys(tree) if keys is B._ASK else keys
    stmt = None
    failed = None
    if fn is not None:
        used.append(fn)
        try:
            stmt = fn(Obj(tree, (), ctx))
        except DdlcError as e:
            failed = e
        if stmt is not None and not isinstance(stmt, Opaque):
            if unknown:
                ctx = BuildContext(document)
                B._unknown_keys(ctx, kind or "", unknown)
                return B._fallback_text(tree, ctx, noted=True)
            return stmt, ctx.diagnostics
    reading = None if unknown else B._lazy.normalize(tree)
    if reading is not None and reading.tree is not None and reading.tree["fmt"] != fmt:
        fn2 = B._builder_of(reading.tree["fmt"])
        if fn2 is not None:
            ctx2 = BuildContext(document)
            try:
                stmt2 = fn2(Obj(reading.tree, (), ctx2))
            except DdlcError:
                if failed is not None:
                    raise failed from None
                if stmt is None:
                    raise
                return stmt, ctx.diagnostics
            if not isinstance(stmt2, Opaque) or (stmt is None and failed is None):
                used.append(fn2)
                return stmt2, ctx2.diagnostics
    if failed is not None:
        raise failed
    if stmt is not None:
        named = " ".join(d.message for d in ctx.diagnostics)
        if any(k not in named for k in unknown):
            B._unknown_keys(ctx, kind or "", unknown)
        return stmt, ctx.diagnostics
    if unknown:
        B._unknown_keys(ctx, kind or "", unknown)
        return B._fallback_text(tree, ctx, noted=True)
    return B._fallback_text(tree, ctx)


def _old(tree: Any, text: bool) -> Any:
    B._lazy.load()
    B.load_families()
    entry = B._entry_of(tree)
    shape = entry[1] if entry is not None else None
    if text:
        out, found = B._lazy.expand_both(tree, shape, "d")
        return out, *_old_built(tree, "d", found, entry)
    return _old_built(tree, "d", B._lazy.check_both(tree, shape, "d"), entry)


def _new(tree: Any, text: bool) -> Any:
    return B.build_source(tree, document="d") if text else B.build(tree, document="d", expansion=True)


# -- comparing outcomes ------------------------------------------------------------------------------------------

def _error(e: BaseException) -> Any:
    ctx = e.__context__
    return (type(e).__name__, getattr(e, "code", None), str(e), tuple(getattr(e, "path", ()) or ()),
            None if ctx is None else (type(ctx).__name__, str(ctx)), e.__suppress_context__)


def _diag(d: Any) -> Any:
    return (d.code, d.message, tuple(d.path), d.document, repr(d))


def _outcome(fn: Any, tree: Any, text: bool) -> Any:
    try:
        got = fn(tree, text)
    except (DdlcError, RecursionError) as e:
        return "error", _error(e)
    *out, stmt, diags = got
    return "built", tuple(out), msgspec.json.encode(stmt, enc_hook=repr), repr(stmt), [_diag(d) for d in diags]


def _same(tree: Any) -> None:
    for text in (False, True):
        assert _outcome(_new, tree, text) == _outcome(_old, tree, text), (text, tree.get("fmt"))


def _another_form(tree: dict[str, Any]) -> dict[str, Any]:
    """The tree with its fmt's blanks doubled: no builder's shape is an exact fmt, so this reads the tree as
    another version's form would be read (or keeps it as text)."""
    return {**tree, "fmt": tree["fmt"].replace(" ", "  ")}


def test_fixture_trees_build_as_before() -> None:
    assert len(TREES) > 100
    built = 0
    for tree in TREES:
        _same(tree)
        built += _outcome(_new, tree, False)[0] == "built"
    assert built > 100  # (most fixture trees build: the common route is the one compared)


def test_fixture_trees_of_another_form_build_as_before() -> None:
    for tree in TREES:
        if isinstance(tree.get("fmt"), str):
            _same(_another_form(tree))


def test_fixture_trees_with_a_wrong_member_build_as_before() -> None:
    """Each top-level member replaced by a number or an absent clause: the builders' errors and texts kept
    (what ``_build`` goes on from, given the builder's own outcome)."""
    for tree in TREES:
        for key in tree:
            if key != "fmt":
                for wrong in (5, {"fmt": "", "present": False}):
                    _same({**tree, key: wrong})


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_trees_build_as_before(data: Any) -> None:
    _same(mutated(data))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_members_build_as_before(data: Any) -> None:
    _same(mutated(data, keep_fmt=True))


def test_records_keep_identity_and_fresh_lists() -> None:
    a, b = BuildContext(), BuildContext("d")
    assert a.document is None and a.diagnostics == [] and a.diagnostics is not BuildContext().diagnostics
    assert b.document == "d" and repr(b) == "BuildContext(document='d', diagnostics=[])"
    d = {"fmt": "x"}
    o, p = Obj(d, (), a), Obj(d, (), a)
    assert o != p and o == o and len({o, p}) == 2  # compared and hashed by identity, as the plain class was
    assert o.d is d and o.path == () and o.ctx is a and o.fmt == "x"
    o.path = ("y",)  # (assignable, as the slots were)
    assert Obj(d, path=("z",), ctx=a).path == ("z",)
