"""GaussDB functions inside pre-rendered SQL (defaults, generated columns, CHECK bodies, index keys,
view queries...), written for PostgreSQL.

The calls of a fragment are judged from its parsed form (made at build time by the frontend's SQL
layer, :mod:`ddlc.frontend.sql`; nothing is parsed here) by :mod:`.functions`: GaussDB functions with
a PostgreSQL form are rewritten (:mod:`.rewrites`); a call PostgreSQL does not have was already removed
with its default or statement by the ``drop_unsupported`` pass, so meeting one here is a bug, never
output. Text that needs no rewrite is returned unchanged, byte for byte; a rewritten fragment is
re-printed from its parsed form.
"""

from __future__ import annotations

import re
from typing import Any

from ...diagnostics import Severity, register
from ...errors import InternalError
from ...ir.names import Expr
from ...ir.sqltree import built_trusted, replaced
from ..writer import pg_deparse, pg_pastable
from .functions import REWRITE, UNKNOWN, calls, rewrite_for
from .rewrites import REWRITES, _ast
from ... import lazyre

I_EXPR_REWRITTEN = register(
    "DDLC-I602", Severity.INFO, "GaussDB function rewritten",
    "A GaussDB/openGauss function was rewritten to its exact PostgreSQL form (the same result and type): "
    "nvl(a, b) -> COALESCE(a, b), pg_systimestamp() -> statement_timestamp(), sysdate -> "
    "CAST(statement_timestamp() AS timestamp(0)), decode(...) -> CASE ... (docs/functions.md lists them all).",
)
I_EXPR_CLOSE = register(
    "DDLC-I603", Severity.INFO, "GaussDB function rewritten to a close PostgreSQL form",
    "A GaussDB/openGauss function was rewritten to a PostgreSQL form that differs in a documented way "
    "(the message says how; docs/functions.md lists them all): sys_guid() -> a random UUID as 32 hex "
    "digits, to_date(s, fmt) -> CAST(to_timestamp(s, fmt) AS timestamp)...",
    "DEFAULT sys_guid()",
)

_CANDIDATE = lazyre.compile(r"\b(?:" + "|".join(sorted(REWRITES, key=len, reverse=True)) + r")\b|u&", re.I)


def rewrite_expr(e: Expr, emit: Any) -> str:
    """``e`` for PostgreSQL: its text, or its parsed form re-printed with the rewrites made."""
    node = _tree(e)
    if node is None:  # the drop_unsupported rules (functions.UNSUPPORTED, W605) keep these away
        raise InternalError(f"SQL fragment {e.text[:40]!r} is not PostgreSQL grammar", path=e.origin)
    new, changed = rewrite_tree(node, emit, e.origin, e.text)
    return pg_text(e, new, changed)


def pg_text(e: Expr, tree: Any, changed: bool) -> str:
    """The PostgreSQL text of ``e`` whose (possibly rewritten) parse is ``tree``: its own text only when that
    is exactly what PostgreSQL's grammar read and means the same whatever the server's settings
    (:func:`~ddlc.backends.writer.pg_pastable`); else printed from the tree."""
    sql = e.sql
    if not changed and sql is not None and sql.verbatim and pg_pastable(e.text):
        return e.text
    return pg_deparse(tree)


def wants_rewrite(text: str) -> bool:
    """Whether ``text`` may call a function of the rewrite table (a cheap test before a tree is walked; a
    Unicode-escaped name ``U&"..."`` always may)."""
    return _CANDIDATE.search(text) is not None


_SELECT: Any = None  # pglast.ast.SelectStmt, once pglast is imported (no import statement per call)


def query_tree(q: Expr) -> Any:
    """The parsed query (a pglast ``SelectStmt``) of ``q``, or None when it does not parse. Shared with the IR:
    never modify it (:func:`rewrite_tree` copies)."""
    global _SELECT
    node = _tree(q)
    if _SELECT is None:
        from pglast import ast

        _SELECT = ast.SelectStmt
    return node if isinstance(node, _SELECT) else None


def _tree(e: Expr) -> Any:
    """The tree the frontend's SQL layer made at build time; an Expr without one is a bug, never parsed here."""
    if not e.parsed:
        raise InternalError(f"SQL fragment {e.text[:40]!r} reached the emitter unparsed", path=e.origin)
    return e.tree


def rewrite_tree(node: Any, emit: Any, origin: Any, text: str = "",
                 gather: tuple[type, list[Any]] | None = None) -> tuple[Any, bool]:
    """The GaussDB functions of a pglast tree rewritten: (tree, changed). The tree given is never modified
    (it belongs to the IR): a changed tree is a copy. ``text`` is the fragment's text (it tells a column
    quoted as ``"sysdate"`` from the keyword). ``gather``: ``(cls, found)``, the nodes of class ``cls`` of a
    changed tree added to ``found`` by the same walk (:func:`~ddlc.ir.sqltree.replaced`); nothing added to it
    when unchanged."""
    rewritten: dict[int, Any] = {}  # id of a call's node -> the call, for the calls the verdicts rewrite
    unknown = []
    for c, v in calls(node, text):  # (the verdicts the rules worked out, judged on the calls as written)
        if v == REWRITE:
            rewritten[id(c.node)] = c
        elif v == UNKNOWN:
            unknown.append(c.label)
    if unknown:  # the drop_unsupported rules remove these first: never emitted
        raise InternalError(f"call to {', '.join(unknown)} (not on PostgreSQL) reached the emitter", path=origin)
    if not rewritten:
        return node, False
    ast = _ast()
    done: list[Any] = []

    def one(original: Any, node: Any) -> Any:  # a call the verdicts rewrite (no call made again of any other node)
        c = rewritten.get(id(original))
        if c is None:
            return node
        rw = rewrite_for(c)
        if rw is None:
            return node
        done.append(rw)
        return built_trusted(rw.build, node)  # (the builders give final types: pglast's check skipped)

    # only the path to each rewritten call is copied; calls are of no other node class
    tree = replaced(node, one, (ast.FuncCall, ast.ColumnRef), gather)
    exact_set, close_set = set(), set()
    for rw in done:  # (one loop, no comprehension's frame)
        if rw.exact:
            exact_set.add(rw.gauss)
        else:
            close_set.add(f"{rw.gauss} -> {rw.postgres} ({rw.note})")
    exact, close = sorted(exact_set), sorted(close_set)
    if exact:
        emit.diag(I_EXPR_REWRITTEN, "rewritten: " + ", ".join(exact), origin)
    if close:
        emit.diag(I_EXPR_CLOSE, "rewritten to a close form: " + "; ".join(close), origin)
    return tree, True


