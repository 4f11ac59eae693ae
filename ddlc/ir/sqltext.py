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


def deparse(form: str, tree: Any, original: str) -> str:
    from pglast.stream import RawStream

    sql = RawStream()(tree)
    if form == "expr":
        sql = sql[len("SELECT "):]
    elif form == "constraint":
        sql = sql[len("ALTER TABLE x ADD CONSTRAINT c "):]
    if original.rstrip().endswith(";"):
        sql += ";"
    return sql


NameFn = Callable[[str | None, str], str | None]  # (schema or None, name) -> new schema or None (keep)


def rewrite_schemas(text: str, relation: NameFn, *, literal_regclass: bool = True) -> str | None:
    """Apply ``relation`` to every relation reference (RangeVar), ``nextval('x')``-style
    regclass literals, qualified function names and qualified type names in ``text``.

    Returns the new text, the same text object when nothing changed, or None when the fragment
    does not parse.
    """
    parsed = parse_fragment(text)
    if parsed is None:
        return None
    form, tree0 = parsed
    import copy

    from pglast import ast, visitors

    tree = copy.deepcopy(tree0)
    changed = False
    dummy = tree[0].stmt.relation if form == "constraint" else None
    ctes: set[str] = set()

    class CteNames(visitors.Visitor):
        def visit_CommonTableExpr(self, ancestors, node):  # noqa: N802
            ctes.add(node.ctename)

    CteNames()(tree)

    class V(visitors.Visitor):
        def visit_RangeVar(self, ancestors, node):  # noqa: N802 - pglast naming
            nonlocal changed
            if node is dummy or (node.schemaname is None and node.relname in ctes):
                return None
            new = relation(node.schemaname, node.relname)
            if new is not None and new != node.schemaname:
                node.schemaname = new
                changed = True
            return None

        def visit_FuncCall(self, ancestors, node):  # noqa: N802
            nonlocal changed
            names = [n.sval for n in node.funcname]
            if len(names) == 2:
                new = relation(names[0], names[1])
                if new is not None and new != names[0]:
                    node.funcname = (ast.String(sval=new), node.funcname[1])
                    changed = True
            if literal_regclass and names[-1] in ("nextval", "currval", "setval") and node.args:
                arg = node.args[0]
                const = arg.arg if isinstance(arg, ast.TypeCast) else arg
                if isinstance(const, ast.A_Const) and isinstance(const.val, ast.String):
                    qual = _split_regclass(const.val.sval)
                    if qual is not None:
                        schema, name = qual
                        new = relation(schema, name)
                        if new is not None and new != schema:
                            const.val = ast.String(sval=_join_regclass(new, name))
                            changed = True
            return None

        def visit_TypeName(self, ancestors, node):  # noqa: N802
            nonlocal changed
            names = [n.sval for n in node.names]
            if len(names) == 2 and names[0] != "pg_catalog":
                new = relation(names[0], names[1])
                if new is not None and new != names[0]:
                    node.names = (ast.String(sval=new), node.names[1])
                    changed = True
            return None

    V()(tree)
    if not changed:
        return text
    return deparse(form, tree, text)


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
