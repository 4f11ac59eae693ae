"""The pglast-node helpers of TDDL recovery (:mod:`ddlc.frontend.recover`): one statement parsed, names, types,
values and ``WITH`` options read from pglast's nodes, and the two ways a text is not recovered."""

from __future__ import annotations

from typing import Any

from .. import lazyre
from ..ir.misc import WithOption
from ..ir.names import QualifiedName, TypeName
from ..ir.table import OptionValueKind


class Unparsed(Exception):
    """The text does not parse (-> Opaque UNPARSED)."""


class NotRecovered(Exception):
    """A kind (or sub-kind) this module does not build (-> Opaque NO_SHAPE)."""


def parse_one(text: str) -> Any:
    from .sql.pgparse import parse_sql  # (pglast's nodes made unchecked: issue 26)

    try:
        stmts = parse_sql(text)
    except Exception as e:  # pglast.parser.ParseError
        raise Unparsed(str(e)) from None
    if len(stmts) != 1:
        raise Unparsed("not exactly one statement")
    return stmts[0].stmt


def blank(text: str, spans: list[tuple[int, int]]) -> str:
    chars = list(text)
    for a, b in spans:
        chars[a:b] = " " * (b - a)
    return "".join(chars)


def qname(rv: Any) -> QualifiedName:
    if getattr(rv, "catalogname", None):
        raise Unparsed("three-part relation names are not supported")
    return QualifiedName(rv.relname, rv.schemaname)


def names(parts: Any) -> QualifiedName:
    names = [p.sval for p in parts]
    if not 1 <= len(names) <= 2:
        raise Unparsed("unsupported name")
    return QualifiedName(names[-1], names[0] if len(names) == 2 else None)


def _sql(node: Any) -> str:
    """pglast's ``RawStream()(node)``, with ddlc's own ``populate_ancestors`` (the same chains, without pglast's
    visitor, which looks its methods up on every call: issue 26)."""
    ast, stream_class, populate = _PGLAST or _pglast()
    if not isinstance(node, ast.Node):
        return stream_class()(node)  # (anything else: pglast's own entry point, its own errors)
    stream = stream_class()
    populate((node,))
    if not (isinstance(node, ast.RawStmt) and node.stmt is None):
        stream.print_node(node)
    return stream.getvalue()


_PGLAST: tuple[Any, Any, Any] | None = None


def _pglast() -> tuple[Any, Any, Any]:
    global _PGLAST
    from pglast import ast
    from pglast.stream import RawStream

    from ..ir.sqltree import populate_ancestors

    _PGLAST = (ast, RawStream, populate_ancestors)
    return _PGLAST




def typename(t: Any) -> TypeName:
    names = [n.sval for n in t.names]
    if t.pct_type or t.setof or len(names) > 2:
        raise Unparsed("unsupported argument type")
    typmod = "(" + ", ".join(_sql(m) for m in t.typmods) + ")" if t.typmods else ""
    return TypeName(names[-1], names[0] if len(names) == 2 else None, typmod, bool(t.arrayBounds))


def value(v: Any) -> str:
    for attr in ("ival", "fval", "sval", "boolval"):
        x = getattr(v, attr, None)
        if x is not None:
            return str(x)
    return _sql(v)


def option(d: Any) -> WithOption:
    """A ``WITH`` option as parsed: a string's contents LITERAL; a number, or a word read as a type name that
    prints back as one plain word (``no``, ``integer``), BARE, as written; any other type name (``"Foo"``,
    ``varchar(3)``, ``a.b``) LITERAL, the string the server makes of it (``TypeNameToString``: ``Foo``,
    ``pg_catalog.varchar``); an operator (``k = =``) LITERAL, the string of its name to the server; no value NONE.
    ``toast.k``: namespace ``toast``."""
    arg, ns = d.arg, d.defnamespace
    if arg is None:
        return WithOption(d.defname, namespace=ns)
    kind = type(arg).__name__
    if kind == "String":
        return WithOption(d.defname, arg.sval, OptionValueKind.LITERAL, ns)
    if isinstance(arg, tuple) and all(type(a).__name__ == "String" for a in arg):
        return WithOption(d.defname, ".".join(a.sval for a in arg), OptionValueKind.LITERAL, ns)
    shown = _sql(arg)
    if kind == "TypeName" and not _PLAIN_WORD.fullmatch(shown):
        return WithOption(d.defname, _type_name_string(arg), OptionValueKind.LITERAL, ns)
    return WithOption(d.defname, shown, OptionValueKind.BARE, ns)


_PLAIN_WORD = lazyre.compile(r"[a-z_][a-z0-9_]*")


def _type_name_string(t: Any) -> str:
    """A type name as the server turns an option's value into a string (``TypeNameToString``: its names
    dotted, ``%TYPE``, ``[]``; no modifiers, no SETOF)."""
    return ".".join(n.sval for n in t.names) + ("%TYPE" if t.pct_type else "") + ("[]" if t.arrayBounds else "")


def options(defs: Any) -> tuple[WithOption, ...]:
    return tuple(option(d) for d in defs or ())


raw_sql = _sql

__all__ = ["NotRecovered", "Unparsed", "blank", "names", "option", "options", "parse_one", "qname", "raw_sql", "typename",
           "value"]
