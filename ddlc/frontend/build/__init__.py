"""JDDL tree -> IR statement.

A builder is registered per tree *shape*: a pattern on the leading words of ``fmt`` (the
reference's §6 dispatch table; top-level trees carry no kind tag). Family modules register their
shapes with :func:`shape`; the first registered pattern that matches wins, so more specific
shapes are registered first. A tree whose shape no builder knows is kept as an
:class:`~ddlc.ir.statement.Opaque` statement holding its canonical text, with a diagnostic.
"""

from __future__ import annotations

import importlib
import re

from ... import lazyre
from collections.abc import Callable, Mapping
from typing import Any

from ...diagnostics import Diagnostic, Severity, register
from ...errors import DdlcError
from ...ir.statement import Opaque, OpaqueReason, Statement
from ._read import BuildContext, Obj

Builder = Callable[[Obj], Statement]
SHAPES: list[tuple[str, re.Pattern[str], Builder]] = []
_NAMES: dict[Builder, str] = {}  # builder -> its shape's name (the node of its slots, ddlc.frontend.slots)

N_NO_SHAPE = register(
    "DDLC-N001", Severity.NOTE, "Tree shape not modelled",
    "ddlc has no IR shape for this JDDL tree (an unknown `fmt`). It is kept as canonical GaussDB text: "
    "the GaussDB target prints it unchanged, other targets report it instead of translating it.",
    '{"fmt": "CREATE FOO %{x}s", "x": "bar"}',
)

# Statement families, in dispatch priority order (specific shapes before general ones).
FAMILIES = (
    "followup", "rename", "set_schema", "sequence", "alter", "table", "index", "drop", "view",
    "routine", "trigger", "schema", "comment", "typedef", "event", "misc",
)
_loaded = False


def shape(name: str, pattern: str) -> Callable[[Builder], Builder]:
    """Register ``fn`` as the builder of trees whose ``fmt`` matches ``pattern`` (re.match)."""
    rx = lazyre.compile(pattern)

    def deco(fn: Builder) -> Builder:
        if any(n == name for n, _, _ in SHAPES):
            raise ValueError(f"shape {name!r} registered twice")
        SHAPES.append((name, rx, fn))
        _NAMES[fn] = name
        return fn

    return deco


def load_families() -> None:
    """Import every family module, so that every shape is registered (once; cheap afterwards)."""
    global _loaded
    if not _loaded:
        for fam in FAMILIES:
            importlib.import_module(f"{__name__}.{fam}")
        _loaded = True


_load = load_families  # the name it had (kept for callers)


def shape_of(tree: Mapping[str, Any]) -> str | None:
    load_families()
    fmt = tree.get("fmt")
    if not isinstance(fmt, str):
        return None
    for name, rx, _ in SHAPES:
        if rx.match(fmt):
            return name
    from .variants import normalize

    reading = normalize(tree)  # the form of another version: the shape of the form it reads as
    if reading is not None and reading.tree is not None:
        known = reading.tree["fmt"]
        return next((name for name, rx, _ in SHAPES if rx.match(known)), None)
    return None


# fmt -> its builder, the builder's shape name and, when no key of the fmt can be one its statement's forms lack,
# what .variants.unknown_keys answers for every tree of that fmt (else _ASK): a stream repeats a few hundred
# fmt strings, each worked out once
_BY_FMT: dict[str, tuple[Builder | None, str | None, Any]] = {}
_ASK: Any = object()


def _fmt_entry(fmt: str) -> tuple[Builder | None, str | None, Any]:
    hit = _BY_FMT.get(fmt)
    if hit is None:
        from .variants import _info

        fn = next((f for _name, rx, f in SHAPES if rx.match(fmt)), None)
        info = _info(fmt)
        hit = (fn, _NAMES.get(fn) if fn is not None else None, _ASK if info.strangers else (info.kind, ()))
        if len(_BY_FMT) < 4096:
            _BY_FMT[fmt] = hit
    return hit


def _builder_of(fmt: str) -> Builder | None:
    return _fmt_entry(fmt)[0]


class _lazy:
    """The slot check and the variants reader, imported on first build (not at start-up) and kept: no
    import statement per document."""

    check_tree: Any = None
    check_both: Any = None
    expand_both: Any = None
    normalize: Any = None
    unknown_keys: Any = None

    @classmethod
    def load(cls) -> Any:
        from ..slots import check_tree
        from ..treecheck import check_both, expand_both
        from .variants import normalize, unknown_keys

        cls.check_tree, cls.check_both, cls.expand_both = check_tree, check_both, expand_both
        cls.normalize, cls.unknown_keys = normalize, unknown_keys
        return check_tree


def build(tree: Mapping[str, Any], *, document: str | None = None,
          expansion: bool = False) -> tuple[Statement, list[Diagnostic]]:
    """Build the IR of one JDDL tree. Raises DdlcError (with a JSON path) on a malformed tree.

    A tree whose ``fmt`` a builder knows is built as it is. Otherwise (the form of another
    GaussDB/openGauss version) it is read by its leading keywords and keys (:mod:`.variants`) and
    built in the form the builders know. A recognised tree naming a key no form of its statement has
    is reported by key (DDLC-N003). What still cannot be built goes to :func:`_fallback_text`.
    Every raw slot of the tree is checked against its class in the shape it was read as
    (:mod:`ddlc.frontend.slots`, DDLC-E011); the fragments a target must not paste as they came are
    recorded in the statement's ``unpastable``.

    ``expansion``: first check the tree's expansion as :func:`ddlc.jddl.expand.check` does (its errors
    first), in the same walk as the slot check (:mod:`ddlc.frontend.treecheck`), whose error still comes
    after the build's.
    """
    if _lazy.check_tree is None or not _loaded:
        _lazy.load()
        load_families()
    fmt = tree.get("fmt") if tree.__class__ is dict else None
    if fmt.__class__ is str:  # (the common tree: _entry_of's answer without its frames)
        entry = _BY_FMT.get(fmt)
        if entry is None:
            entry = _fmt_entry(fmt)
    else:
        entry = _entry_of(tree)
    found = _lazy.check_both(tree, entry[1] if entry is not None else None, document) if expansion else None
    return _built(tree, document, found, entry)


def build_source(tree: Mapping[str, Any], *, document: str | None = None) -> tuple[str, Statement, list[Diagnostic]]:
    """The tree's expansion (:func:`ddlc.jddl.expand.expand`: its text, its errors first) and its build
    (:func:`build`), the slot check made in the expansion's walk (:mod:`ddlc.frontend.treecheck`)."""
    if _lazy.check_tree is None or not _loaded:
        _lazy.load()
        load_families()
    entry = _entry_of(tree)
    text, found = _lazy.expand_both(tree, entry[1] if entry is not None else None, document)
    stmt, diags = _built(tree, document, found, entry)
    return text, stmt, diags


def _entry_of(tree: Mapping[str, Any]) -> tuple[Builder | None, str | None, Any] | None:
    """What the tree's ``fmt`` says once for the whole build (:func:`_fmt_entry`: its builder, that builder's
    shape, its keys), None when the tree has no string ``fmt``."""
    fmt = tree.get("fmt") if isinstance(tree, dict) else None
    return _fmt_entry(fmt) if type(fmt) is str else None


def _fmt_shape(tree: Mapping[str, Any]) -> str | None:
    """The shape of the builder of the tree's ``fmt`` (the one it is built as, unless it fails or reads as
    another version's form)."""
    entry = _entry_of(tree)
    return entry[1] if entry is not None else None


def _built(tree: Mapping[str, Any], document: str | None, found: Any,
           entry: tuple[Builder | None, str | None, Any] | None = None) -> tuple[Statement, list[Diagnostic]]:
    """:func:`build`, the slot check's findings ``found`` (:mod:`ddlc.frontend.treecheck`) used when the tree
    was built as the shape they were found for (``entry``: :func:`_entry_of` the tree, when known)."""
    used: list[Builder] = []
    if entry is not None and entry[0] is not None and entry[2] is not _ASK and not entry[2][1]:
        # the common tree (a builder for its fmt, no key its statement's forms lack) built here, as _build builds
        # it, without _build's frame; anything but a statement goes on in _build from what the builder did
        fn = entry[0]
        ctx = BuildContext(document)
        try:
            stmt = fn(Obj(tree, (), ctx))
        except DdlcError as e:
            ran: Any = (ctx, None, e)
        else:
            ran = None if stmt is not None and not isinstance(stmt, Opaque) else (ctx, stmt, None)
        if ran is None:
            used.append(fn)
            diags = ctx.diagnostics
        else:  # (outside the except clause: what _build raises has no context it had not before)
            stmt, diags = _build(tree, document, used, entry, ran)
    else:
        stmt, diags = _build(tree, document, used, entry)
    shape_name = _NAMES.get(used[-1]) if used else _recognised_shape(tree)
    if found is not None and found.shape == shape_name:
        if found.error is not None:
            raise found.error
        unpastable = tuple(found.unpastable)
    else:
        unpastable = _lazy.check_tree(tree, shape_name, document)
    if unpastable:
        import msgspec.structs

        stmt = msgspec.structs.replace(stmt, unpastable=unpastable)
    return stmt, diags


def _recognised_shape(tree: Mapping[str, Any]) -> str | None:
    """The shape of the statement kind a tree no builder took is recognised as (:mod:`.variants`)."""
    fmt = tree.get("fmt")
    if not isinstance(fmt, str):
        return None
    from .variants import _info

    for t in _info(fmt).recognising:
        fn = _builder_of(t.render(frozenset())[0])
        if fn is not None:
            return _NAMES.get(fn)
    return None


def _build(tree: Mapping[str, Any], document: str | None, used: list[Builder],
           entry: tuple[Builder | None, str | None, Any] | None = None,
           ran: tuple[BuildContext, Statement | None, DdlcError | None] | None = None,
           ) -> tuple[Statement, list[Diagnostic]]:
    """The tree built by its fmt's builder (``ran``: what that builder already gave, :func:`_built`: its
    context, its statement or its error), else read as the form of another version, else kept as text."""
    ctx = BuildContext(document) if ran is None else ran[0]
    fmt = tree.get("fmt")
    if not isinstance(fmt, str):
        return _fallback_text(tree, ctx)
    if _lazy.unknown_keys is None:
        _lazy.load()
    fn, _, keys = entry if entry is not None else _fmt_entry(fmt)
    kind, unknown = _lazy.unknown_keys(tree) if keys is _ASK else keys
    stmt: Statement | None = None
    failed: DdlcError | None = None
    if fn is not None:
        used.append(fn)
        if ran is not None:
            stmt, failed = ran[1], ran[2]
        else:
            try:
                stmt = fn(Obj(tree, (), ctx))
            except DdlcError as e:  # the form as given does not build: the known form may
                failed = e
        if stmt is not None and not isinstance(stmt, Opaque):
            if unknown:  # built, but a key would be lost
                ctx = BuildContext(document)
                _unknown_keys(ctx, kind or "", unknown)
                return _fallback_text(tree, ctx, noted=True)
            return stmt, ctx.diagnostics
    reading = None if unknown else _lazy.normalize(tree)
    if reading is not None and reading.tree is not None and reading.tree["fmt"] != fmt:
        fn2 = _builder_of(reading.tree["fmt"])
        if fn2 is not None:
            ctx2 = BuildContext(document)
            try:
                stmt2 = fn2(Obj(reading.tree, (), ctx2))
            except DdlcError:  # the tree's own failure (or reason) is the one to report
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
    if stmt is not None:  # the builder kept it as text, with its reason
        named = " ".join(d.message for d in ctx.diagnostics)
        if any(k not in named for k in unknown):
            _unknown_keys(ctx, kind or "", unknown)
        return stmt, ctx.diagnostics
    if unknown:
        _unknown_keys(ctx, kind or "", unknown)
        return _fallback_text(tree, ctx, noted=True)
    return _fallback_text(tree, ctx)


def _unknown_keys(ctx: BuildContext, kind: str, keys: tuple[str, ...]) -> None:
    from .variants import N_UNKNOWN_KEY

    names = ", ".join(repr(k) for k in keys)
    ctx.diag(N_UNKNOWN_KEY, f"{kind}: key {names} is in no known form of this statement; kept as text", ("fmt",))


def _fallback_text(tree: Mapping[str, Any], ctx: BuildContext, *, noted: bool = False) -> tuple[Statement, list[Diagnostic]]:
    """The one place a JDDL tree with no IR becomes text: its expansion, kept as an Opaque statement.

    The GaussDB target prints that text; the other targets report it. (This is where the expanded
    text would go to a TDDL text frontend, to be recovered as a statement.) ``noted``: the reason
    is already a diagnostic.
    """
    from ...jddl.expand import expand

    text = expand(tree, document=ctx.document)  # raw: the GaussDB target canonicalizes on output
    if not noted:
        ctx.diag(N_NO_SHAPE, f"no IR shape for fmt {tree.get('fmt')!r}; kept as text", ())
    return Opaque(text, reason=OpaqueReason.NO_SHAPE, layout=None), ctx.diagnostics


__all__ = ["build", "build_source", "shape", "shape_of", "Obj", "BuildContext", "DdlcError", "SHAPES", "FAMILIES"]
