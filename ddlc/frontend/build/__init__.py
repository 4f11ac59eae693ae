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
        return fn

    return deco


def _load() -> None:
    global _loaded
    if not _loaded:
        for fam in FAMILIES:
            importlib.import_module(f"{__name__}.{fam}")
        _loaded = True


def shape_of(tree: Mapping[str, Any]) -> str | None:
    _load()
    fmt = tree.get("fmt")
    if not isinstance(fmt, str):
        return None
    for name, rx, _ in SHAPES:
        if rx.match(fmt):
            return name
    return None


_BY_FMT: dict[str, Builder | None] = {}  # a stream repeats a few hundred fmt strings: match each once


def _builder_of(fmt: str) -> Builder | None:
    fn = _BY_FMT.get(fmt, _UNSEEN)
    if fn is _UNSEEN:
        fn = next((f for _name, rx, f in SHAPES if rx.match(fmt)), None)
        if len(_BY_FMT) < 4096:
            _BY_FMT[fmt] = fn
    return fn  # type: ignore[return-value]


_UNSEEN: Any = object()


def build(tree: Mapping[str, Any], *, document: str | None = None) -> tuple[Statement, list[Diagnostic]]:
    """Build the IR of one JDDL tree. Raises DdlcError (with a JSON path) on a malformed tree."""
    _load()
    ctx = BuildContext(document)
    fmt = tree.get("fmt")
    if isinstance(fmt, str):
        fn = _builder_of(fmt)
        if fn is not None:
            stmt = fn(Obj(tree, (), ctx))
            return stmt, ctx.diagnostics
    # Unknown shape: keep the text (it expands, or the expander's error tells why not).
    from ...jddl.expand import expand

    text = expand(tree, document=document)  # raw: the GaussDB target canonicalizes on output
    ctx.diag(N_NO_SHAPE, f"no IR shape for fmt {fmt!r}; kept as text", ())
    return Opaque(text, reason=OpaqueReason.NO_SHAPE, layout=None), ctx.diagnostics


__all__ = ["build", "shape", "shape_of", "Obj", "BuildContext", "DdlcError", "SHAPES", "FAMILIES"]
