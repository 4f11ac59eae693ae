"""Pre-rendered SQL fragments (defaults, CHECK bodies, view queries...) through pglast.

The server writes these with every user object schema-qualified; hand-written or GaussDB
documents may not. Rewrites re-print the fragment with pglast only when something changed, so
untouched text stays byte-identical. pglast is imported lazily (start-up time).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

_QUERY_START = re.compile(r"\s*(\(\s*)*(SELECT|WITH|VALUES|TABLE)\b", re.I)


@lru_cache(maxsize=2048)
def parse_fragment(text: str) -> tuple[str, Any] | None:
    """Parse ``text`` as a query, an expression or a table constraint: ``(form, tree)`` or None."""
    import pglast

    body = text.strip()
    if body.endswith(";"):
        body = body[:-1]
    attempts: list[tuple[str, str]] = []
    if _QUERY_START.match(body):
        attempts.append(("query", body))
    attempts.append(("expr", "SELECT " + body))
    attempts.append(("constraint", "ALTER TABLE x ADD CONSTRAINT c " + body))
    for form, sql in attempts:
        try:
            return form, pglast.parse_sql(sql)
        except Exception:  # pglast.parser.ParseError, or a GaussDB-only construct
            continue
    return None


NameFn = Callable[[str | None, str], str | None]  # (schema or None, name) -> new schema or None (keep)


def rewrite_schemas(text: str, relation: NameFn, *, literal_regclass: bool = True) -> str | None:
    """Apply ``relation`` to every relation reference (RangeVar), ``nextval('x')``-style
    regclass literals, qualified function names and qualified type names in ``text``.

    Edits are surgical (made at the token positions pglast reports), so everything else in the
    text keeps its exact spelling. Returns the new text, the same text object when nothing
    changed, or None when the fragment does not parse.
    """
    parsed = parse_fragment(text)
    if parsed is None:
        return None
    form, tree = parsed
    from pglast import ast

    from .sqltree import visit

    prefix = {"query": "", "expr": "SELECT ", "constraint": "ALTER TABLE x ADD CONSTRAINT c "}[form]
    body = text.strip()
    lead = text[: len(text) - len(text.lstrip())]
    if body.endswith(";"):
        body = body[:-1]
    sql = (prefix + body).encode("utf-8")
    edits: list[tuple[int, int, bytes]] = []  # (byte offset, length replaced, new bytes)
    dummy = tree[0].stmt.relation if form == "constraint" else None
    ctes: set[str] = set()

    visit(tree, {ast.CommonTableExpr: lambda node: ctes.add(node.ctename)})

    def replace_first_ident(loc: int, new_schema: str, has_schema: bool) -> None:
        from ..quoting import quote_ident

        if has_schema:
            end = _ident_end(sql, loc)
            edits.append((loc, end - loc, quote_ident(new_schema).encode("utf-8")))
        else:
            edits.append((loc, 0, (quote_ident(new_schema) + ".").encode("utf-8")))

    def visit_RangeVar(node):  # noqa: N802
        if node is dummy or (node.schemaname is None and node.relname in ctes) or node.location < 0:
            return None
        new = relation(node.schemaname, node.relname)
        if new is not None and new != node.schemaname:
            replace_first_ident(node.location, new, node.schemaname is not None)
        return None

    def visit_FuncCall(node):  # noqa: N802
        names = [n.sval for n in node.funcname]
        if len(names) == 2 and node.location >= 0:
            new = relation(names[0], names[1])
            if new is not None and new != names[0]:
                replace_first_ident(node.location, new, True)
        if literal_regclass and names[-1] in ("nextval", "currval", "setval") and node.args:
            arg = node.args[0]
            const = arg.arg if isinstance(arg, ast.TypeCast) else arg
            if isinstance(const, ast.A_Const) and isinstance(const.val, ast.String):
                qual = _split_regclass(const.val.sval)
                lit = _literal_after_paren(sql, node.location)
                if qual is not None and lit is not None:
                    schema, name = qual
                    new = relation(schema, name)
                    if new is not None and new != schema:
                        new_lit = "'" + _join_regclass(new, name).replace("'", "''") + "'"
                        edits.append((lit[0], lit[1] - lit[0], new_lit.encode("utf-8")))
        return None

    def visit_TypeName(node):  # noqa: N802
        names = [n.sval for n in node.names]
        if len(names) == 2 and names[0] != "pg_catalog" and node.location >= 0:
            new = relation(names[0], names[1])
            if new is not None and new != names[0]:
                replace_first_ident(node.location, new, True)
        return None

    visit(tree, {ast.RangeVar: visit_RangeVar, ast.FuncCall: visit_FuncCall, ast.TypeName: visit_TypeName})
    if not edits:
        return text
    out = sql
    for off, length, rep in sorted(edits, reverse=True):
        out = out[:off] + rep + out[off + length:]
    new_body = out.decode("utf-8")[len(prefix):]
    tail = text.strip()[len(body):]  # the terminating ";" if there was one
    return lead + new_body + tail + text[len(text.rstrip()):]


def _ident_end(sql: bytes, i: int) -> int:
    """End offset of the identifier token starting at ``i`` (bare or double-quoted)."""
    n = len(sql)
    if i < n and sql[i:i + 1] == b'"':
        j = i + 1
        while j < n:
            if sql[j:j + 1] == b'"':
                if sql[j + 1:j + 2] == b'"':
                    j += 2
                    continue
                return j + 1
            j += 1
        return n
    j = i
    while j < n and (sql[j:j + 1].isalnum() or sql[j:j + 1] in (b"_", b"$") or sql[j] >= 0x80):
        j += 1
    return j


def _literal_after_paren(sql: bytes, loc: int) -> tuple[int, int] | None:
    """(start, end) of the string literal that is the first argument of the call at ``loc``."""
    i = sql.find(b"(", loc)
    if i < 0:
        return None
    i += 1
    while i < len(sql) and sql[i:i + 1] in b" \t\r\n":
        i += 1
    if sql[i:i + 1] != b"'":
        return None
    j = i + 1
    while j < len(sql):
        if sql[j:j + 1] == b"'":
            if sql[j + 1:j + 2] == b"'":
                j += 2
                continue
            return i, j + 1
        j += 1
    return None


def _split_regclass(s: str) -> tuple[str | None, str] | None:
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


def _join_regclass(schema: str, name: str) -> str:
    from ..quoting import quote_ident

    return quote_ident(schema) + "." + quote_ident(name)
