"""GaussDB-only functions inside pre-rendered SQL (defaults, generated columns, CHECK bodies).

Rewritten where PostgreSQL has an exact equivalent; reported where it has not. Text that needs no
change is returned unchanged, byte for byte; a rewritten fragment is re-printed from its parsed form
(made at build time by the frontend's SQL layer, :mod:`ddlc.frontend.sql`): nothing is parsed here.
"""

from __future__ import annotations

import re
from typing import Any

from ...errors import InternalError
from ...diagnostics import Severity, register
from ...ir.names import Expr

I_EXPR_REWRITTEN = register(
    "DDLC-I602", Severity.INFO, "GaussDB function rewritten",
    "A GaussDB-only function with an exact PostgreSQL equivalent was rewritten: pg_systimestamp() -> "
    "CURRENT_TIMESTAMP, text_date('now') -> CURRENT_DATE, sysdate -> LOCALTIMESTAMP(0), nvl(a, b) -> "
    "COALESCE(a, b).",
)
W_EXPR_GAUSS_ONLY = register(
    "DDLC-W603", Severity.WARNING, "GaussDB-only function in an expression",
    "The expression calls a GaussDB/openGauss function PostgreSQL does not have and ddlc knows no exact "
    "equivalent for. The expression is emitted as written and will fail on PostgreSQL unless the "
    "function is created there.",
    "DEFAULT sys_guid()",
)
N_EXPR_UNPARSED = register(
    "DDLC-N601", Severity.NOTE, "Expression not checked for GaussDB-only functions",
    "pglast could not parse the expression, so it is emitted as written without checking it for "
    "GaussDB-only functions.",
)

# functions without a PostgreSQL counterpart (checked by name, any schema)
GAUSS_ONLY = frozenset({
    "nvl2", "decode", "sys_guid", "instrb", "lengthb", "substrb", "getdate", "sys_extract_utc",
    "add_months", "months_between", "last_day", "next_day", "pg_systimestamp", "text_date", "nvl",
    "sysdate", "systimestamp", "dbtimezone", "sessiontimezone", "rawtohex", "hextoraw", "numtodsinterval",
    "numtoyminterval", "to_nchar", "uuid_short", "unix_timestamp", "from_unixtime", "curdate",
    "date_format", "ifnull", "if",
})
_CANDIDATE = re.compile(r"\b(?:" + "|".join(sorted(GAUSS_ONLY, key=len, reverse=True)) + r")\b", re.I)


def rewrite_expr(e: Expr, emit: Any) -> str:
    """``e`` for PostgreSQL: its text, or its parsed form re-printed with the rewrites made."""
    text = e.text
    if not _CANDIDATE.search(text):
        return text
    from pglast.stream import RawStream

    node = _tree(e)
    if node is None:
        emit.diag(N_EXPR_UNPARSED, "expression not parsed; emitted as written", e.origin)
        return text
    new, changed = rewrite_tree(node, emit, e.origin)
    return RawStream()(new) if changed else text


def wants_rewrite(text: str) -> bool:
    """Whether ``text`` names a GaussDB-only function (a cheap test before any tree is walked)."""
    return _CANDIDATE.search(text) is not None


def query_tree(q: Expr) -> Any:
    """The parsed query (a pglast ``SelectStmt``) of ``q``, or None when it does not parse. Shared with the IR:
    never modify it (:func:`rewrite_tree` copies)."""
    from pglast import ast

    node = _tree(q)
    return node if isinstance(node, ast.SelectStmt) else None


def _tree(e: Expr) -> Any:
    """The tree the frontend's SQL layer made at build time; an Expr without one is a bug, never parsed here."""
    if not e.parsed:
        raise InternalError(f"SQL fragment {e.text[:40]!r} reached the emitter unparsed", path=e.origin)
    return e.tree


def rewrite_tree(node: Any, emit: Any, origin: Any) -> tuple[Any, bool]:
    """Rewrite the GaussDB-only functions of a pglast tree: (tree, changed). The tree given is never
    modified (it belongs to the IR): a changed tree is a copy."""
    import copy

    from pglast import ast, enums, visitors

    rewritten: list[str] = []
    unknown: list[str] = []
    svf = enums.SQLValueFunctionOp

    class V(visitors.Visitor):
        def visit_FuncCall(self, ancestors, node):  # noqa: N802
            name = node.funcname[-1].sval.lower()
            args = node.args or ()
            if name == "pg_systimestamp" and not args:
                rewritten.append(name)
                return ast.SQLValueFunction(op=svf.SVFOP_CURRENT_TIMESTAMP, typmod=-1)
            if name == "text_date" and len(args) == 1 and _is_now(args[0]):
                rewritten.append(name)
                return ast.SQLValueFunction(op=svf.SVFOP_CURRENT_DATE, typmod=-1)
            if name in ("nvl", "ifnull") and len(args) == 2:
                rewritten.append(name)
                return ast.CoalesceExpr(args=args)
            if name in GAUSS_ONLY:
                unknown.append(name)
            return None

        def visit_ColumnRef(self, ancestors, node):  # noqa: N802
            fields = node.fields or ()
            if len(fields) == 1 and isinstance(fields[0], ast.String) and fields[0].sval.lower() == "sysdate":
                rewritten.append("sysdate")
                return ast.SQLValueFunction(op=svf.SVFOP_LOCALTIMESTAMP_N, typmod=0)
            return None

    tree = copy.deepcopy(node)
    tree = V()(tree)
    for name in unknown:
        emit.diag(W_EXPR_GAUSS_ONLY, f"GaussDB-only function {name}() has no exact PostgreSQL equivalent", origin)
    if not rewritten:
        return node, False
    emit.diag(I_EXPR_REWRITTEN, "rewritten: " + ", ".join(sorted(set(rewritten))), origin)
    return tree, True


def _is_now(node: Any) -> bool:
    from pglast import ast

    if isinstance(node, ast.TypeCast):
        node = node.arg
    return isinstance(node, ast.A_Const) and isinstance(node.val, ast.String) and node.val.sval.lower() == "now"
