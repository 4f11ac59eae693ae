"""Text twins of parsed fragments: when a pass rewrites a parsed ``Expr``, the plain text beside it follows.

Some nodes keep a fragment twice: as the text the GaussDB target prints (``FunctionArg.default``,
``BoundValue.text``) and as the parsed ``Expr`` other targets write (``default_expr``, ``expr``, compared
loosely). A pass that renames schemas rewrites the ``Expr``; :func:`synced` then makes the text say the
same, so the change is visible to equality (and clears any source text kept for the statement).
"""

from __future__ import annotations

from typing import Any

from ..ir.base import replace
from ..ir.partition import BoundKind, BoundValue
from ..ir.routine import FunctionArg

# (an enum member read once: on Python 3.11 a read through its class goes through the enum metaclass's __getattr__ hook)
_EXPR = BoundKind.EXPR


def synced(node: Any) -> Any:
    t = type(node)
    if t is FunctionArg and node.default_expr is not None and node.default_expr.text != node.default:
        return replace(node, default=node.default_expr.text)
    if t is BoundValue and node.kind is _EXPR and node.expr is not None and node.expr.text != node.text:
        return replace(node, text=node.expr.text)
    return node
