"""Names, types and pre-rendered SQL fragments: the leaves every statement family shares."""

from __future__ import annotations

from .base import Node, node


@node
class QualifiedName(Node):
    """``schema.name[.attr]`` (a ``%D`` object). ``schema`` None = not qualified in the input."""

    name: str
    schema: str | None = None
    attr: str | None = None

    def dotted(self) -> str:  # for messages only; emitters quote through their writer
        parts = [p for p in (self.schema, self.name, self.attr) if p is not None]
        return ".".join(parts)


@node
class TypeName(Node):
    """A ``%T`` type. ``schema``: None = absent (name is quoted, unqualified); ``""`` = an
    SQL-standard spelling written verbatim (``TIMESTAMP`` + typmod ``(3) with time zone``)."""

    name: str
    schema: str | None = None
    typmod: str = ""
    array: bool = False


@node
class Expr(Node):
    """A pre-rendered SQL fragment exactly as the server wrote it (default, CHECK body, query...).

    Passes that rewrite it (schema mapping, function rewrites) produce a new ``Expr``; backends
    parse it with pglast (:mod:`ddlc.ir.sqltext`) when they need structure.
    """

    text: str
