"""PostgreSQL (15+) target.

One emitter per IR statement class (:data:`EMITTERS`, registered per family module with
:func:`emits`); each returns the PostgreSQL statements for that node, written through
:class:`~ddlc.backends.writer.SqlWriter`. What PostgreSQL cannot take was already removed by the
``drop_unsupported`` pass from the family modules' ``UNSUPPORTED`` rules (see ``capabilities``);
statements PostgreSQL has no form for are listed in ``REFUSED`` and reported, never emitted.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from ...diagnostics import Diagnostic, Severity, register
from ...errors import InternalError, Path
from ...frontend.documents import Document
from ...ir.base import Node
from ...ir.names import Expr, QualifiedName, TypeName
from ..writer import SqlWriter, pg_ident, pg_literal
from .. import Output

TARGET = "postgres"
Emitter = Callable[[Any, "Emit"], list[str]]
EMITTERS: dict[type[Node], Emitter] = {}
# statement class -> (code, message): no PostgreSQL form; reported (and kept as a comment on request)
REFUSED: dict[type[Node], tuple[str, str]] = {}
FAMILIES = ("table", "alter", "objects", "routines", "misc")
_loaded = False

W_REFUSED = register(
    "DDLC-W601", Severity.WARNING, "Statement has no PostgreSQL form",
    "PostgreSQL has no equivalent of this statement (for example a package, a GaussDB event, a ledger "
    "schema switch). Nothing is emitted; with --on-unsupported comment the GaussDB text is kept as an "
    "SQL comment, with --on-unsupported error the document fails.",
    "CREATE PACKAGE ...",
)


def emits(*classes: type[Node]) -> Callable[[Emitter], Emitter]:
    def deco(fn: Emitter) -> Emitter:
        for cls in classes:
            if cls in EMITTERS:
                raise ValueError(f"postgres: a second emitter for {cls.__name__}")
            EMITTERS[cls] = fn
        return fn

    return deco


def refuses(cls: type[Node], code: str, message: str) -> None:
    if cls in REFUSED:
        raise ValueError(f"postgres: {cls.__name__} refused twice")
    REFUSED[cls] = (code, message)


def load() -> dict[type[Node], Emitter]:
    global _loaded
    if not _loaded:
        for fam in FAMILIES:
            try:
                importlib.import_module(f"{__name__}.{fam}")
            except ModuleNotFoundError as exc:
                if exc.name != f"{__name__}.{fam}":
                    raise
        _loaded = True
    return EMITTERS


class Emit:
    """What an emitter may use: writers, names, types, expressions, diagnostics, the catalog."""

    __slots__ = ("ctx", "diagnostics", "catalog", "comments")

    def __init__(self, ctx: Any, catalog: Any = None) -> None:
        self.ctx = ctx
        self.catalog = catalog
        self.diagnostics: list[Diagnostic] = []
        self.comments: list[str] = []

    def w(self) -> SqlWriter:
        return SqlWriter(pg_ident)

    def diag(self, code: str, message: str, path: Path, dropped_text: str | None = None) -> None:
        d = Diagnostic(code, message, path, target=TARGET, document=self.ctx.document, dropped_text=dropped_text)
        self.diagnostics.append(d)
        if self.ctx.on_unsupported == "error" and d.severity is Severity.WARNING:
            from ...diagnostics import E_UNSUPPORTED
            from ...errors import DdlcError

            raise DdlcError(f"{message} [{code}]", code=E_UNSUPPORTED, path=path, document=self.ctx.document)

    # names -------------------------------------------------------------------------------
    @staticmethod
    def ident(name: str) -> str:
        return pg_ident(name)

    @staticmethod
    def qname(q: QualifiedName) -> str:
        return ".".join(pg_ident(p) for p in (q.schema, q.name, q.attr) if p is not None)

    @staticmethod
    def literal(s: str) -> str:
        return pg_literal(s)

    def type(self, t: TypeName) -> str:
        from .types import map_type

        return map_type(t, self)

    def expr(self, e: Expr) -> str:
        from .exprs import rewrite_expr

        return rewrite_expr(e, self)

    def statements(self, n: Node) -> list[str]:
        if type(n) in REFUSED:
            code, message = REFUSED[type(n)]
            self.diag(code, message, n.origin, dropped_text=getattr(n, "text", None))
            return []
        try:
            fn = EMITTERS[type(n)]
        except KeyError:
            raise InternalError(f"postgres: no emitter for {type(n).__name__}", path=n.origin) from None
        return fn(n, self)


def translate(doc: Document, options: Any, catalog: Any = None) -> Output:
    from ...frontend.expand import expand, owner_of
    from ...ir.passes import PassContext, run_pipeline

    load()
    owner = None
    if doc.tddl is not None:
        from ...frontend.recover import recover_tddl

        stmt, diags = recover_tddl(doc.tddl, document=doc.label)
    else:
        from ...frontend.build import build

        assert doc.tree is not None
        expand(doc.tree, document=doc.label)  # the server's own errors first, with their paths
        stmt, diags = build(doc.tree, document=doc.label)
        owner = owner_of(doc.tree)
    ctx = PassContext.of(options, target=TARGET, document=doc.label, catalog=catalog)
    stmt, more = run_pipeline(stmt, ctx)
    e = Emit(ctx, catalog)
    out = e.statements(stmt)
    if catalog is not None:
        catalog.record(stmt)
    all_diags = (*diags, *more, *e.diagnostics)
    comments = list(e.comments)
    if options.on_unsupported == "comment":
        for d in all_diags:
            if d.dropped_text:
                comments.append(_comment(f"ddlc {d.code}: not translated: {d.dropped_text}"))
    if getattr(options, "pretty", False):
        out = [_pretty(s) for s in out]
    return Output(tuple(out), owner=owner, diagnostics=tuple(all_diags), comments=tuple(comments))


def _comment(text: str) -> str:
    return "\n".join("-- " + line for line in text.splitlines() or [""])


def _pretty(sql: str) -> str:
    try:
        import pglast

        return pglast.prettify(sql)
    except Exception:
        return sql
