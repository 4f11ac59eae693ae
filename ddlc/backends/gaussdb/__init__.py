"""GaussDB target: the exact text the database itself prints.

The IR is written back as a JDDL tree in the deparser's own shape (``to_jddl``: one emitter per IR
node class, registered in :data:`EMITTERS`), and that tree is expanded exactly as openGauss does.
``raw`` mode is the expansion byte for byte; ``canonical`` (the default) is GaussDB's TDDL form.
Lossless invariant: for every shape the builder knows, ``expand(to_jddl(build(tree)))`` equals the
expansion of ``tree`` (tests/test_lossless.py).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from ...diagnostics import I_TDDL, Diagnostic
from ...frontend.documents import Document
from ...frontend.expand import expand, owner_of
from ...ir.base import Node
from ...ir.names import Expr, QualifiedName, TypeName
from ...ir.statement import Opaque
from ...quoting import canonicalize
from .. import Output

TARGET = "gaussdb"
Emitter = Callable[[Any, "Writer"], dict[str, Any]]
EMITTERS: dict[type[Node], Emitter] = {}
FAMILIES = (
    "table", "alter", "followup", "drop", "index", "sequence", "view", "routine", "trigger",
    "schema", "comment", "rename", "set_schema", "typedef", "event", "misc",
)
_loaded = False


def emits(*classes: type[Node]) -> Callable[[Emitter], Emitter]:
    def deco(fn: Emitter) -> Emitter:
        for cls in classes:
            if cls in EMITTERS:
                raise ValueError(f"gaussdb: a second emitter for {cls.__name__}")
            EMITTERS[cls] = fn
        return fn

    return deco


def load() -> dict[type[Node], Emitter]:
    global _loaded
    if not _loaded:
        for fam in FAMILIES:
            importlib.import_module(f"{__name__}.{fam}")
        _loaded = True
    return EMITTERS


class Writer:
    """Builds JDDL objects from IR nodes (openGauss key spelling)."""

    __slots__ = ()

    def tree(self, n: Node) -> dict[str, Any]:
        try:
            fn = EMITTERS[type(n)]
        except KeyError:
            from ...errors import InternalError

            raise InternalError(f"gaussdb: no emitter for {type(n).__name__}", path=n.origin) from None
        return fn(n, self)

    @staticmethod
    def qname(q: QualifiedName) -> dict[str, Any]:
        d: dict[str, Any] = {"objname": q.name}
        if q.schema is not None:
            d["schemaname"] = q.schema
        if q.attr is not None:
            d["attrname"] = q.attr
        return d

    @staticmethod
    def type(t: TypeName) -> dict[str, Any]:
        d: dict[str, Any] = {"typmod": t.typmod, "typarray": t.array, "typename": t.name}
        if t.schema is not None:
            d["schemaname"] = t.schema
        return d

    @staticmethod
    def absent(fmt: str) -> dict[str, Any]:
        return {"fmt": fmt, "present": False}

    @staticmethod
    def text(e: Expr | str) -> str:
        return e.text if isinstance(e, Expr) else e


@emits(Opaque)
def opaque(n: Opaque, w: Writer) -> dict[str, Any]:
    return {"fmt": "%{text}s", "text": n.text}


def to_jddl(stmt: Node) -> dict[str, Any]:
    load()
    return Writer().tree(stmt)


def emit(stmt: Node, *, mode: str = "canonical") -> str:
    text = expand(to_jddl(stmt))
    return text if mode == "raw" else canonicalize(text)


def translate(doc: Document, options, catalog=None) -> Output:
    if doc.tddl is not None:  # GaussDB's own TDDL text: passed through exactly, in both modes
        return Output((doc.tddl,), diagnostics=(Diagnostic(I_TDDL, "TDDL text passed through", (),
                                                           target=TARGET, document=doc.label),))
    assert doc.tree is not None
    from ...frontend.build import build
    from ...ir.passes import PassContext, run_pipeline

    expand(doc.tree, document=doc.label)  # the server's own errors first, with their paths
    stmt, diags = build(doc.tree, document=doc.label)
    stmt, more = run_pipeline(stmt, PassContext.of(options, target=TARGET, document=doc.label))
    return Output((emit(stmt, mode=options.mode),), owner=owner_of(doc.tree),
                  diagnostics=tuple(diags) + tuple(more))
