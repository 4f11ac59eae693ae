"""What a PostgreSQL emitter may use: writers, names, types, expressions, diagnostics, the history."""

from __future__ import annotations

from ...ir.names import Expr, QualifiedName, TypeName
from ..base import Dialect, EmitBase, emits, line_comment
from ..writer import pg_ident, pg_literal
from .exprs import rewrite_expr
from .types import map_type

TARGET = "postgres"
DIALECT = Dialect("postgres", pg_ident, pg_literal, line_comment)


class Emit(EmitBase):
    """The PostgreSQL emit context of one statement (see :class:`~ddlc.backends.base.EmitBase`)."""

    __slots__ = ()
    TARGET = TARGET
    DIALECT = DIALECT

    # names -------------------------------------------------------------------------------
    @staticmethod
    def ident(name: str) -> str:
        return pg_ident(name)

    @staticmethod
    def qname(q: QualifiedName) -> str:
        """``schema.name.attr``, each part quoted, the absent ones (None) left out."""
        schema, name, attr = q.schema, q.name, q.attr  # (quoted in this order: the first bad one is the error)
        if schema is not None:
            out = pg_ident(schema) if name is None else pg_ident(schema) + "." + pg_ident(name)
        elif name is not None:
            out = pg_ident(name)
        else:
            out = ""
        if attr is not None:
            out = out + "." + pg_ident(attr) if out else pg_ident(attr)
        return out

    @staticmethod
    def literal(s: str) -> str:
        return pg_literal(s)

    def type(self, t: TypeName) -> str:
        return map_type(t, self)

    def expr(self, e: Expr) -> str:
        return rewrite_expr(e, self)


__all__ = ["DIALECT", "TARGET", "Emit", "emits"]
