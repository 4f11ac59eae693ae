"""The object references inside an SQL fragment (:class:`ddlc.ir.names.NameRef`), found once, at build time.

The passes that qualify and map schema names rewrite a fragment's text at these positions
(:meth:`ddlc.ir.names.Expr.renamed_text`), so everything else in the text keeps its exact spelling,
and rewrite its tree alike; they never parse. The fragment is read as a query (when it starts like
one), else as an expression (``SELECT <text>``), else as a table constraint (``ALTER TABLE x ADD
CONSTRAINT c <text>``: REFERENCES targets); pglast reports each reference's position. pglast is
imported lazily (start-up time).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from ... import lazyre
from ...ir.names import NameRef, RefKind
from ...ir.sqltree import index, node_slots
from .pgparse import parse_json, parse_statements, pglast_ast
from .lexer import BLANK, ScanError, token_at
from .pgwords import requote, to_source

_QUERY_START = lazyre.compile(r"\s*(\(\s*)*(SELECT|WITH|VALUES|TABLE)\b", re.I)
_CONSTRAINT = "ALTER TABLE x ADD CONSTRAINT c "
# a text starting with one of these reserved words (the keyword itself: no identifier character of PostgreSQL's
# lexer after it, ASCII case only) is no expression: ``SELECT <text>`` fails in PostgreSQL's grammar, untried
CONSTRAINT_START = lazyre.compile(r"(?:CHECK|PRIMARY|UNIQUE|FOREIGN)(?![A-Za-z0-9_$]|[^\x00-\x7f])", re.I | re.A)


def _parse(body: str) -> tuple[str, Any, bool] | None:
    """``(prefix, statements, json)`` of the first reading of ``body`` that parses, or None. The constraint
    reading (the last one tried) gives the JSON form of pglast's parse (:func:`_constraint_json`, ``json``
    true) when that form is one ``ALTER TABLE`` and the text is ASCII, else pglast's nodes, as the others.

    ASCII only: the JSON form's locations count the UTF-8 bytes of the text, pglast's nodes' count its
    characters (pglast maps them), and every position found here is a character offset. A location read
    in bytes after a non-ASCII character would put a rewritten name in the wrong place (a quote of the
    text could be cut)."""
    attempts: list[str] = []
    if _QUERY_START.match(body):
        attempts.append("")
    if CONSTRAINT_START.match(body) is None:
        attempts.append("SELECT ")
    for prefix in attempts:
        stmts = parse_statements(prefix + body)
        if stmts is not None:
            return prefix, stmts, False
    if body.isascii():
        doc = _constraint_json(_CONSTRAINT + body)
        if doc is None:
            return None
        if len(doc) == 1 and "AlterTableStmt" in (doc[0].get("stmt") or {}):
            return _CONSTRAINT, doc, True
    stmts = parse_statements(_CONSTRAINT + body)
    return None if stmts is None else (_CONSTRAINT, stmts, False)


def _constraint_json(sql: str) -> Any:
    """The statements of ``sql`` in the JSON form of pglast's parse (:func:`~.pgparse.parse_json`: the same
    parser as :func:`~.pgparse.parse_statements`, read the same way, without pglast's Python nodes; a
    constraint definition's own reading shares it), or None when it does not parse."""
    doc = parse_json(sql)
    return None if doc is None else doc.get("stmts") or []


@lru_cache(maxsize=4096)
def name_refs(text: str) -> tuple[NameRef, ...] | None:
    """The object references in ``text`` (positions in ``text``), or None when it does not parse."""
    body = text.strip(BLANK)
    if body.endswith(";"):
        body = body[:-1]
    parsed = _parse(body)
    if parsed is None:
        return None
    prefix, stmts, in_json = parsed
    ast = pglast_ast()

    lead = len(text) - len(text.lstrip(BLANK))
    marks = requote(prefix + body)[1]  # names quoted for PostgreSQL's grammar shift pglast's locations

    def at(location: int) -> int:  # pglast's locations count characters of prefix + body (requoted)
        return lead + (to_source(marks, location) if marks else location) - len(prefix)

    refs: list[NameRef] = []
    ctes: set[str] = set()

    def schema_ref(kind: RefKind, schema: str | None, name: str, location: int) -> None:
        start = at(location)
        end = _ident_end(text, start) if schema is not None else start
        refs.append(NameRef(kind, schema, name, start, end))

    if in_json:
        _json_refs(stmts, text, at, schema_ref, refs, ctes)
        return tuple(refs)
    dummy = stmts[0].stmt.relation if prefix == _CONSTRAINT else None  # ALTER TABLE x: not a reference

    def range_var(node: Any) -> None:
        if node is dummy or (node.schemaname is None and node.relname in ctes) or node.location < 0:
            return
        schema_ref(RefKind.RELATION, node.schemaname, node.relname, node.location)

    def func_call(node: Any) -> None:
        names = [n.sval for n in node.funcname]
        if len(names) == 2 and node.location >= 0:
            schema_ref(RefKind.FUNCTION, names[0], names[1], node.location)
        if names[-1] in ("nextval", "currval", "setval") and node.args:
            arg = node.args[0]
            const = arg.arg if isinstance(arg, ast.TypeCast) else arg
            if isinstance(const, ast.A_Const) and isinstance(const.val, ast.String):
                qual = split_regclass(const.val.sval)
                if qual is not None:
                    span = _literal_after_paren(text, at(node.location)) if node.location >= 0 else None
                    start, end = span if span is not None else (-1, -1)
                    refs.append(NameRef(RefKind.REGCLASS, qual[0], qual[1], start, end, const.val.sval))

    def type_name(node: Any) -> None:
        names = [n.sval for n in node.names]
        if len(names) == 2 and names[0] != "pg_catalog" and node.location >= 0:
            schema_ref(RefKind.TYPE, names[0], names[1], node.location)

    # the CTE names are all known before any relation is judged; each statement's nodes from its tree's
    # index (:func:`~ddlc.ir.sqltree.index`: one walk, shared with the build, the rules and the emitters)
    cte = ast.CommonTableExpr
    handlers = {ast.RangeVar: range_var, ast.FuncCall: func_call, ast.TypeName: type_name, cte: None}
    found = [n for s in stmts if s.stmt is not None for n in index(_within(s.stmt, ast)).among(handlers)]
    for node in found:
        if type(node) is cte:
            ctes.add(node.ctename)
    for node in found:
        fn = handlers[type(node)]
        if fn is not None:
            fn(node)
    return tuple(refs)


_OTHER_CLAUSES: tuple[str, ...] = ()  # SelectStmt's node slots other than its target list


def _within(stmt: Any, ast: Any) -> Any:
    """The part of a parsed statement that holds every node :func:`name_refs` reads: the expression of a bare
    ``SELECT <expression>`` (the reading of an expression: the same node :func:`~.expr.parse_expr` gives,
    whose index the rules and emitters read too: one walk), else the statement."""
    global _OTHER_CLAUSES
    if type(stmt) is not ast.SelectStmt:
        return stmt
    targets = stmt.targetList
    if not targets or len(targets) != 1:
        return stmt
    target = targets[0]
    if type(target) is not ast.ResTarget or target.indirection or target.val is None:
        return stmt
    if not _OTHER_CLAUSES:
        _OTHER_CLAUSES = tuple(s for s in node_slots(ast.SelectStmt) if s != "targetList")
    if any(getattr(stmt, s) for s in _OTHER_CLAUSES):
        return stmt
    return target.val


def _json_refs(stmts: list[Any], text: str, at: Callable[[int], int],
               schema_ref: Callable[[RefKind, str | None, str, int], None], refs: list[NameRef], ctes: set[str]) -> None:
    """What :func:`name_refs` finds in pglast's nodes, found in the JSON form of the same parse (the
    constraint reading): its nodes in the same order (parents first, children in field order), a node
    wrapped by its type's name or, in a field of one node type, not (a ``RangeVar`` has ``relname``, a
    ``TypeName`` ``names`` and ``typemod``, a ``FuncCall`` ``funcname``, a ``CommonTableExpr``
    ``ctename``: no other raw parse node has those fields)."""
    dummy: Any = None  # ALTER TABLE x: not a reference
    if stmts:
        dummy = ((stmts[0].get("stmt") or {}).get("AlterTableStmt") or {}).get("relation")
    found: list[tuple[str, dict[str, Any]]] = []
    stack: list[Any] = [stmts]
    pop, push = stack.pop, stack.append
    while stack:
        n = pop()
        if type(n) is list:
            stack.extend(reversed(n))
            continue
        if "relname" in n:
            found.append(("relation", n))
        elif "funcname" in n:
            found.append(("function", n))
        elif "typemod" in n and "names" in n:
            found.append(("type", n))
        elif "ctename" in n:
            ctes.add(n["ctename"])
        for v in reversed(n.values()):
            if type(v) is dict or type(v) is list:
                push(v)
    for what, n in found:
        location = n.get("location", 0)
        if what == "relation":
            schema = n.get("schemaname")
            if n is dummy or (schema is None and n["relname"] in ctes) or location < 0:
                continue
            schema_ref(RefKind.RELATION, schema, n["relname"], location)
        elif what == "function":
            names = [s["String"].get("sval", "") for s in n["funcname"]]
            if len(names) == 2 and location >= 0:
                schema_ref(RefKind.FUNCTION, names[0], names[1], location)
            args = n.get("args")
            if names[-1] in ("nextval", "currval", "setval") and args:
                arg = args[0]
                const = arg["TypeCast"].get("arg") or {} if "TypeCast" in arg else arg
                val = (const.get("A_Const") or {}).get("sval")
                if val is not None:
                    sval = val.get("sval", "")
                    qual = split_regclass(sval)
                    if qual is not None:
                        span = _literal_after_paren(text, at(location)) if location >= 0 else None
                        start, end = span if span is not None else (-1, -1)
                        refs.append(NameRef(RefKind.REGCLASS, qual[0], qual[1], start, end, sval))
        else:
            names = [s["String"].get("sval", "") for s in n["names"]]
            if len(names) == 2 and names[0] != "pg_catalog" and location >= 0:
                schema_ref(RefKind.TYPE, names[0], names[1], location)


def _ident_end(text: str, i: int) -> int:
    """End of the identifier (bare or quoted) starting at ``i``."""
    try:
        t = token_at(text, i)
    except ScanError:  # an unterminated quoted identifier: to the end
        return len(text)
    except IndexError:
        return i
    return t.end if t.kind in ("word", "qident") else i


def _literal_after_paren(text: str, loc: int) -> tuple[int, int] | None:
    """(start, end) of the ``'...'`` literal that is the first argument of the call at ``loc``."""
    i = text.find("(", loc)
    if i < 0:
        return None
    i += 1
    while i < len(text) and text[i] in " \t\r\n":
        i += 1
    if not text.startswith("'", i):
        return None
    try:
        t = token_at(text, i)
    except ScanError:
        return None
    return t.start, t.end


def split_regclass(s: str) -> tuple[str | None, str] | None:
    """``'public.seq'`` / ``'seq'`` / ``'"S".x'`` -> (schema, name) with identifier folding."""
    parts: list[str] = []
    i, n = 0, len(s)
    while i < n:
        if s[i] == '"':
            j = i + 1
            buf = []
            while j < n:
                if s[j] == '"':
                    if j + 1 < n and s[j + 1] == '"':
                        buf.append('"')
                        j += 2
                        continue
                    break
                buf.append(s[j])
                j += 1
            parts.append("".join(buf))
            i = j + 1
        else:
            j = s.find(".", i)
            j = n if j < 0 else j
            parts.append(s[i:j].strip().lower())
            i = j
        if i < n and s[i] == ".":
            i += 1
        elif i < n:
            return None
    if len(parts) == 1:
        return None, parts[0]
    if len(parts) == 2:
        return parts[0], parts[1]
    return None


__all__ = ["name_refs", "split_regclass"]
