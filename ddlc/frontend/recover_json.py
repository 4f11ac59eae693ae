"""The TDDL recovery's reading of pglast's JSON parse: the fields of the common statements, no Python nodes.

:mod:`ddlc.frontend.recover` reads a recovered statement's few fields (a relation's name, a flag, a
``WITH`` option) from pglast's parse. Its Python nodes (``pglast.parse_sql``) cost 3-4x the JSON form of
the same C parse (``parse_sql_json``), most of it spent on the query of a CREATE TABLE AS or a
materialized view, which the recovery parses again, alone, as the SQL layer's query (issue 26). These
readers take the JSON form and answer only the common case: each returns None for anything else (a form
whose printing would need pglast's printer, a field they do not know), and the recovery then reads the
nodes as before, so an uncommon text gets exactly the former reading, its errors included.
"""

from __future__ import annotations

from typing import Any

import orjson

from ..ir.misc import RoutineRef, WithOption
from ..ir.names import Expr, QualifiedName, TypeName
from ..ir.table import OptionValueKind
from .sql.expr import make_query, parse_query
from .sql.lexer import BLANK
from .sql.pgwords import requote

_PARSE_JSON: Any = None


def statement(text: str) -> tuple[str, dict[str, Any]] | None:
    """The node name and fields of ``text``'s one statement in pglast's JSON parse (``text`` as it is: no
    requoting), or None when it does not parse or holds other than one statement."""
    global _PARSE_JSON
    if _PARSE_JSON is None:
        from pglast.parser import parse_sql_json

        _PARSE_JSON = parse_sql_json
    try:
        stmts = orjson.loads(_PARSE_JSON(text)).get("stmts")
    except Exception:  # noqa: BLE001 - pglast.parser.ParseError: the nodes' reading reports it
        return None
    if not stmts or len(stmts) != 1:
        return None
    stmt = stmts[0].get("stmt")
    if not isinstance(stmt, dict) or len(stmt) != 1:
        return None
    ((name, fields),) = stmt.items()
    return name, fields


def create_as(text: str, query: str, span: tuple[int, int] | None = None) -> tuple[
        dict[str, Any], dict[str, Any], QualifiedName, Expr, tuple[str, ...], tuple[WithOption, ...]] | None:
    """A CREATE TABLE AS's or materialized view's fields (``query``: the text of its query, sliced from the
    statement's at ``span`` when given): the statement, its ``into``, name, query (parsed by the SQL layer),
    columns and options; None for any other statement or form."""
    got = _query_apart(text, query, span) if span is not None else None
    if got is None:
        got = statement(text)
    into = got[1].get("into") if got is not None and got[0] == "CreateTableAsStmt" else None
    if not isinstance(into, dict):
        return None
    name, cols, opts = qname(into.get("rel")), strings(into.get("colNames")), options(into.get("options"))
    if name is None or cols is None or opts is None:
        return None
    return got[1], into, name, make_query(query), cols, opts  # type: ignore[index]


def _query_apart(text: str, query: str, span: tuple[int, int]) -> tuple[str, dict[str, Any]] | None:
    """:func:`statement` of ``text`` read without parsing its query twice (issue 26: the query was parsed here in
    the whole statement, then alone by the SQL layer, ~65k instructions a short one): the statement is parsed with
    ``SELECT`` (a query with no target) in place of its query, once the query parses alone as one query as the
    SQL layer reads it (:func:`~.sql.expr.parse_query`, whose parse the query's readers take later), and as
    written there (no ``;``, no word requoted: the text pglast read). A query is one grammar symbol of the
    statement (``AS SelectStmt [WITH [NO] DATA]``) whose text the lexer's tokens bound, so the whole text then
    parses, and its fields but the query's are the ones read here. None: the whole text is parsed, as before."""
    if ";" in query or requote(query)[1] or parse_query(query) is None:
        return None
    got = statement(text[:span[0]] + " SELECT " + text[span[1]:])  # (blanks: the query's neighbours stay apart)
    return got if got is not None and got[0] == "CreateTableAsStmt" else None


def select_into(text: str, body: str) -> tuple[QualifiedName, tuple[str, ...], str | None] | None:
    """A ``SELECT ... INTO`` text's name, columns and ``relpersistence`` as :func:`statement` of the text gives them
    (``body``: the text without its blanks around and its final ``;``), read from the SQL layer's parse of
    ``body`` (:func:`~.sql.expr.parse_query`), which the query's readers take later (issue 26: the text was parsed
    twice), when that parse reads the text as pglast reads it here: no other ``;``, no other blank or whitespace
    around, no word requoted. None: not so, or not such a statement (then :func:`statement` decides, as before)."""
    if _bare(text) != body or ";" in body or requote(body)[1]:
        return None
    s = parse_query(body)
    into = getattr(s, "intoClause", None)
    rel = getattr(into, "rel", None)
    if rel is None or rel.catalogname is not None or type(rel.relname) is not str:
        return None
    cols = []
    for c in into.colNames or ():
        if type(c).__name__ != "String":
            return None
        cols.append(c.sval or "")
    return QualifiedName(rel.relname, rel.schemaname), tuple(cols), rel.relpersistence


def is_text(sql: str, text: str) -> bool:
    """Whether ``sql`` is ``text`` but for its blanks around and its final ``;``, with no other ``;`` and no word
    the SQL layer requotes: then ``parses_as_statement(sql)`` is true once pglast has read ``text`` as written as
    one statement (the recovery's parse), and is not asked again (issue 26: a GRANT the recovery writes back as
    it came was parsed twice)."""
    b = _bare(text)
    return sql == b and ";" not in b and not requote(b)[1]


def _bare(text: str) -> str:
    """``text`` without its blanks (the server's) around and its final ``;``."""
    b = text.strip(BLANK)
    return b[:-1].rstrip(BLANK) if b.endswith(";") else b


def drop_routines(text: str) -> tuple[tuple[RoutineRef, ...], bool, bool] | None:
    """A DROP FUNCTION's / PROCEDURE's routines, IF EXISTS and CASCADE; None for any other statement or form (an
    argument type with a modifier, ``%TYPE``, SETOF or three parts, a name of other than one or two parts)."""
    got = statement(text)
    if got is None or got[0] != "DropStmt":
        return None
    refs = []
    for item in got[1].get("objects") or ():
        o = item.get("ObjectWithArgs") if isinstance(item, dict) and len(item) == 1 else None
        name = strings(o.get("objname")) if isinstance(o, dict) else None
        if name is None or not 1 <= len(name) <= 2:
            return None
        args = None
        if not o.get("args_unspecified"):  # type: ignore[union-attr]
            args = []
            for a in o.get("objargs") or ():  # type: ignore[union-attr]
                t = a.get("TypeName") if isinstance(a, dict) and len(a) == 1 else None
                names = strings(t.get("names")) if isinstance(t, dict) else None
                if names is None or not 1 <= len(names) <= 2 or t.get("typmods") or t.get("pct_type") or t.get("setof"):
                    return None
                args.append(TypeName(names[-1], names[0] if len(names) == 2 else None, "", bool(t.get("arrayBounds"))))
        refs.append(RoutineRef(QualifiedName(name[-1], name[0] if len(name) == 2 else None),
                               None if args is None else tuple(args)))
    return tuple(refs), bool(got[1].get("missing_ok")), got[1].get("behavior") == "DROP_CASCADE"


def qname(rv: Any) -> QualifiedName | None:
    """A ``RangeVar``'s fields as the recovery's name (None: three parts, or not a plain relation name)."""
    if not isinstance(rv, dict) or "catalogname" in rv or not isinstance(rv.get("relname"), str):
        return None
    return QualifiedName(rv["relname"], rv.get("schemaname"))


def strings(items: Any) -> tuple[str, ...] | None:
    """The values of a list of ``String`` nodes (absent: none), or None when one is another node."""
    out = []
    for item in items or ():
        s = item.get("String") if isinstance(item, dict) and len(item) == 1 else None
        if not isinstance(s, dict):
            return None
        out.append(s.get("sval", ""))
    return tuple(out)


def options(defs: Any) -> tuple[WithOption, ...] | None:
    """``WITH ([namespace.]name = value, ...)``'s options as parsed (a string's contents LITERAL, a number as
    written BARE, no value NONE), or None when a value is another node."""
    out = []
    for item in defs or ():
        d = item.get("DefElem") if isinstance(item, dict) and len(item) == 1 else None
        if not isinstance(d, dict) or not isinstance(d.get("defname"), str):
            return None
        arg = d.get("arg")
        if arg is None:
            out.append(WithOption(d["defname"], namespace=d.get("defnamespace")))
            continue
        got = _scalar(arg)
        if got is None:
            return None
        out.append(WithOption(d["defname"], *got, d.get("defnamespace")))
    return tuple(out)


def _scalar(node: Any) -> tuple[str, OptionValueKind] | None:
    """The value and kind of a ``String``, ``Integer`` or ``Float`` node, or None for any other node."""
    if not isinstance(node, dict) or len(node) != 1:
        return None
    ((name, fields),) = node.items()
    if not isinstance(fields, dict):
        return None
    if name == "String":
        return fields.get("sval", ""), OptionValueKind.LITERAL
    if name == "Integer":
        return str(fields.get("ival", 0)), OptionValueKind.BARE
    if name == "Float" and isinstance(fields.get("fval"), str):
        return fields["fval"], OptionValueKind.BARE
    return None


__all__ = ["create_as", "drop_routines", "is_text", "options", "qname", "select_into", "statement", "strings"]
