"""What a PostgreSQL emitter may use: writers, names, types, expressions, diagnostics, the history."""

from __future__ import annotations

from ...ir.names import Expr, QualifiedName, TypeName
from ..base import Dialect, EmitBase, emits, line_comment
from ..pg_keywords import FORCED
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
    ident = staticmethod(pg_ident)  # (the function itself: no frame of its own per name)

    @staticmethod
    def qname(q: QualifiedName) -> str:
        """``schema.name.attr``, each part quoted, the absent ones (None) left out."""
        schema, name, attr = q.schema, q.name, q.attr  # (quoted in this order: the first bad one is the error)
        # (pg_ident's first test inline: a bare name costs no call; any other goes to pg_ident)
        if schema is not None:
            if not (schema.isascii() and schema.islower() and schema.isidentifier()) or schema in FORCED:
                schema = pg_ident(schema)
            if name is None:
                out = schema
            else:
                if not (name.isascii() and name.islower() and name.isidentifier()) or name in FORCED:
                    name = pg_ident(name)
                out = schema + "." + name
        elif name is not None:
            if not (name.isascii() and name.islower() and name.isidentifier()) or name in FORCED:
                name = pg_ident(name)
            out = name
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
