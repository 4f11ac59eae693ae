"""Names, types and pre-rendered SQL fragments: the leaves every statement family shares.

An SQL fragment (:class:`Expr`) keeps its text and carries the parsed form the frontend's SQL layer
(:mod:`ddlc.frontend.sql`) made of it at build time (:class:`ParsedSql`): backends write from that
form and never parse.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import Path
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


@dataclass(frozen=True, slots=True)
class ParsedSql:
    """The parsed form of an :class:`Expr`, made once at build time by the frontend's SQL layer
    (:mod:`ddlc.frontend.sql`).

    ``form``: ``"expr"`` (a scalar expression: ``node`` is the pglast expression node, as in
    ``SELECT <expr>``) or ``"query"`` (``node`` is the pglast statement node, a ``SelectStmt``).
    ``node`` None: the text does not parse with PostgreSQL's grammar (GaussDB-only syntax).
    Trees may be shared between Exprs: never mutate one, copy it (``copy.deepcopy``) first.
    """

    form: str
    node: Any


@node
class _ExprText(Node):
    text: str


class Expr(_ExprText):
    """A pre-rendered SQL fragment exactly as the server wrote it (default, CHECK body, query...),
    with its parsed form when the frontend's SQL layer made it (:mod:`ddlc.frontend.sql`).

    ``text`` is the IR value (equality, hashing, JSON, the GaussDB target's output); the parsed form
    (:attr:`sql`, :attr:`tree`) is carried beside it, outside the dataclass fields. Any rebuilt Expr
    (``replace(e, text=...)``) has no parsed form: the tree always matches the text. A pass that
    rewrites schema names in the text keeps the tree with :meth:`renamed` (no parsing).
    """

    __slots__ = ("_sql",)

    def __init__(self, text: str, *, origin: Path = (), sql: ParsedSql | None = None) -> None:
        _ExprText.__init__(self, text, origin=origin)
        object.__setattr__(self, "_sql", sql)

    @property
    def sql(self) -> ParsedSql | None:
        """What the SQL layer made of the text; None when it never saw it (built elsewhere)."""
        return getattr(self, "_sql", None)

    @property
    def parsed(self) -> bool:
        """Whether the SQL layer looked at the text (its tree may still be None: it does not parse)."""
        return self.sql is not None

    @property
    def tree(self) -> Any:
        """The pglast node of the text (see :class:`ParsedSql`), or None."""
        s = self.sql
        return None if s is None else s.node

    def __getstate__(self) -> Any:
        return (self.text, self.origin, self.sql)

    def __setstate__(self, state: Any) -> None:
        text, origin, sql = state
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "origin", origin)
        object.__setattr__(self, "_sql", sql)

    def renamed(self, text: str, relation: Callable[[str | None, str], str | None], *,
                literal_regclass: bool = True) -> Expr:
        """This Expr with ``text`` (``self.text`` with schema names rewritten by
        :func:`ddlc.ir.sqltext.rewrite_schemas` with the same ``relation``), and its tree rewritten the
        same way, on a copy: relations (CTE names excluded), qualified function and type names, and
        ``nextval('x')``-style regclass literals. Nothing is parsed."""
        s = self.sql
        if s is None or s.node is None:
            return Expr(text, origin=self.origin, sql=s)
        import copy

        tree = copy.deepcopy(s.node)
        return Expr(text, origin=self.origin,
                    sql=ParsedSql(s.form, rename_schemas(tree, relation, literal_regclass=literal_regclass)))


def rename_schemas(tree: Any, relation: Callable[[str | None, str], str | None], *,
                   literal_regclass: bool = True) -> Any:
    """Apply ``relation`` (schema or None, name) -> new schema or None (keep) to the object references in
    a pglast tree, in place (the tree-side twin of :func:`ddlc.ir.sqltext.rewrite_schemas`)."""
    from pglast import ast

    from ..quoting import quote_ident
    from .sqltext import _split_regclass
    from .sqltree import visit

    ctes: set[str] = set()
    visit(tree, {ast.CommonTableExpr: lambda node: ctes.add(node.ctename)})

    def range_var(node: Any) -> None:
        if node.schemaname is None and node.relname in ctes:
            return
        new = relation(node.schemaname, node.relname)
        if new is not None and new != node.schemaname:
            node.schemaname = new

    def func_call(node: Any) -> None:
        names = [n.sval for n in node.funcname]
        if len(names) == 2:
            new = relation(names[0], names[1])
            if new is not None and new != names[0]:
                node.funcname = (ast.String(sval=new), *node.funcname[1:])
        if literal_regclass and names[-1] in ("nextval", "currval", "setval") and node.args:
            arg = node.args[0]
            const = arg.arg if isinstance(arg, ast.TypeCast) else arg
            if isinstance(const, ast.A_Const) and isinstance(const.val, ast.String):
                qual = _split_regclass(const.val.sval)
                if qual is not None:
                    new = relation(*qual)
                    if new is not None and new != qual[0]:
                        const.val = ast.String(sval=quote_ident(new) + "." + quote_ident(qual[1]))

    def type_name(node: Any) -> None:
        names = [n.sval for n in node.names or ()]
        if len(names) == 2 and names[0] != "pg_catalog":
            new = relation(names[0], names[1])
            if new is not None and new != names[0]:
                node.names = (ast.String(sval=new), *node.names[1:])

    visit(tree, {ast.RangeVar: range_var, ast.FuncCall: func_call, ast.TypeName: type_name})
    return tree
