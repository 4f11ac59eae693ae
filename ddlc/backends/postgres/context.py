"""What a PostgreSQL emitter may use: writers, names, types, expressions, diagnostics, the history."""

from __future__ import annotations

from typing import Any

from ...diagnostics import Diagnostic, Severity
from ...errors import InternalError, Path
from ...ir.base import Node
from ...ir.names import Expr, QualifiedName, TypeName
from ..base import Dialect, emits
from ..writer import SqlWriter, pg_ident, pg_literal
from .exprs import rewrite_expr
from .types import map_type

TARGET = "postgres"
DIALECT = Dialect("postgres", pg_ident, pg_literal)


class Emit:
    """The emit context of one statement: diagnostics collected here, history read from ``catalog``."""

    __slots__ = ("ctx", "diagnostics", "catalog", "comments", "emitters")

    def __init__(self, ctx: Any, catalog: Any = None, emitters: Any = None) -> None:
        self.ctx = ctx
        self.catalog = catalog if catalog is not None else getattr(ctx, "catalog", None)
        self.diagnostics: list[Diagnostic] = []
        self.comments: list[str] = []
        self.emitters = emitters if emitters is not None else {}  # the backend hands in its table

    def w(self) -> SqlWriter:
        return SqlWriter(DIALECT)

    def diag(self, code: str, message: str, path: Path, dropped_text: str | None = None,
             dropped_node: Node | None = None, dropped_prefix: str = "") -> None:
        d = Diagnostic(code, message, path, target=TARGET, document=self.ctx.document, dropped_text=dropped_text,
                       dropped_node=dropped_node, dropped_prefix=dropped_prefix)
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
        return map_type(t, self)

    def expr(self, e: Expr) -> str:
        return rewrite_expr(e, self)

    def statements(self, n: Node) -> list[str]:
        try:
            fn = self.emitters[type(n)]
        except KeyError:
            raise InternalError(f"postgres: no emitter for {type(n).__name__}", path=n.origin) from None
        return fn(n, self)


__all__ = ["DIALECT", "TARGET", "Emit", "emits"]
