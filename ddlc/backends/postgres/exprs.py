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
from ...ir.sqltree import built_trusted, index, nodes, replaced
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
    _report(done, emit, origin)
    return tree, True


def _report(done: list[Any], emit: Any, origin: Any) -> None:
    """The diagnostics of the rewrites ``done`` (rewrite_tree's and rewrite_map's alike): the exact ones, then the
    close forms, each sorted and said once."""
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


_COLUMN_REF: Any = None  # pglast's ColumnRef, once imported (no import statement per call)


def _column_ref() -> Any:
    global _COLUMN_REF
    _COLUMN_REF = _ast().ColumnRef
    return _COLUMN_REF


_IN_PLACE: Any = None  # the classes a call's replacement may have to be printed in its place (see rewrite_map)


def _in_place() -> Any:
    global _IN_PLACE
    ast = _ast()
    _IN_PLACE = frozenset({ast.FuncCall, ast.TypeCast, ast.CaseExpr, ast.CoalesceExpr, ast.MinMaxExpr,
                           ast.SQLValueFunction})
    return _IN_PLACE


def rewrite_map(node: Any, emit: Any, origin: Any, text: str, gather: tuple[type, list[Any]]) -> dict[int, Any] | None:
    """The GaussDB calls of the pglast tree ``node`` rewritten without copying the tree (issue 26): ``id`` of each
    call the verdicts rewrite -> the node printed in its place (:func:`~ddlc.backends.pgdirect.deparse` reads the
    map at every node it prints), the diagnostics reported as :func:`rewrite_tree` reports them, and the nodes
    of class ``gather[0]`` of the tree :func:`rewrite_tree` would give added to ``gather[1]``. None (nothing
    reported, nothing added) when printing in place might differ from printing that copy, so the caller
    rewrites a copy instead: a call holding another one rewritten (the copy's builder is given the call with
    its changed arguments), or a replacement whose class a parent's printer may treat otherwise than the call's
    (``FuncCall`` and ``ColumnRef`` are atoms of pglast's precedence, in no sequence without separators; so are
    the classes of :data:`_IN_PLACE`, which no printer tests for as it tests for a constant, an operator
    expression, a boolean one or a query)."""
    rewritten: dict[int, Any] = {}
    for c, v in calls(node, text):
        if v == REWRITE:
            rewritten[id(c.node)] = c
        elif v == UNKNOWN:
            return None  # (rewrite_tree raises for it)
    if not rewritten:
        return None
    allowed = _IN_PLACE or _in_place()
    want, found = gather
    out: dict[int, Any] = {}
    inside: set[int] = set()  # ids of the nodes below a rewritten call (the call's own included)
    done: list[Any] = []
    column_ref = _COLUMN_REF or _column_ref()
    for key, c in rewritten.items():
        if type(c.node) is column_ref:  # (``sysdate``: its names only below it, no call nor any node gathered)
            below = [key]
        else:
            below = [id(n) for n in nodes(c.node)]
            for k in below:
                if k != key and k in rewritten:  # (a rewritten call inside another)
                    return None
        rw = rewrite_for(c)
        if rw is None:  # (kept as it is, as rewrite_tree keeps it)
            continue
        inside.update(below)
        new = built_trusted(rw.build, c.node)  # (as rewrite_tree's: the call itself, none of its arguments changed)
        if type(new) not in allowed:
            return None
        out[key] = new
        done.append(rw)
    for t in index(node).of(want):  # (the tree's own, but those a replaced call held)
        if id(t) not in inside:
            found.append(t)
    for new in out.values():
        found.extend(n for n in nodes(new) if type(n) is want)
    _report(done, emit, origin)
    return out
