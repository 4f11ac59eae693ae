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

from ...ir.names import NameRef, RefKind
from ...ir.sqltree import visit
from .pgparse import parse_statements, pglast_ast
from .lexer import BLANK, ScanError, token_at
from .pgwords import requote, to_source

_QUERY_START = re.compile(r"\s*(\(\s*)*(SELECT|WITH|VALUES|TABLE)\b", re.I)
_CONSTRAINT = "ALTER TABLE x ADD CONSTRAINT c "


def _parse(body: str) -> tuple[str, Any] | None:
    """``(prefix, statements)`` of the first reading of ``body`` that parses, or None."""
    attempts: list[str] = []
    if _QUERY_START.match(body):
        attempts.append("")
    attempts += ["SELECT ", _CONSTRAINT]
    for prefix in attempts:
        stmts = parse_statements(prefix + body)
        if stmts is not None:
            return prefix, stmts
    return None


@lru_cache(maxsize=4096)
def name_refs(text: str) -> tuple[NameRef, ...] | None:
    """The object references in ``text`` (positions in ``text``), or None when it does not parse."""
    body = text.strip(BLANK)
    if body.endswith(";"):
        body = body[:-1]
    parsed = _parse(body)
    if parsed is None:
        return None
    prefix, stmts = parsed
    ast = pglast_ast()

    lead = len(text) - len(text.lstrip(BLANK))
    marks = requote(prefix + body)[1]  # names quoted for PostgreSQL's grammar shift pglast's locations

    def at(location: int) -> int:  # pglast's locations count characters of prefix + body (requoted)
        return lead + (to_source(marks, location) if marks else location) - len(prefix)

    refs: list[NameRef] = []
    dummy = stmts[0].stmt.relation if prefix == _CONSTRAINT else None
    ctes: set[str] = set()

    def schema_ref(kind: RefKind, schema: str | None, name: str, location: int) -> None:
        start = at(location)
        end = _ident_end(text, start) if schema is not None else start
        refs.append(NameRef(kind, schema, name, start, end))

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

    # one walk: the CTE names are all known before any relation is judged (the handlers run in walk order
    # once the walk is done, as a second walk would call them)
    found: list[tuple[Callable[[Any], None], Any]] = []
    handlers = {ast.RangeVar: range_var, ast.FuncCall: func_call, ast.TypeName: type_name}

    def cte(node: Any) -> None:
        ctes.add(node.ctename)

    visit(stmts, {ast.CommonTableExpr: cte,
                  **{cls: (lambda node, fn=fn: found.append((fn, node))) for cls, fn in handlers.items()}})
    for fn, node in found:
        fn(node)
    return tuple(refs)


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
