"""Issue 26: one walk of a statement's fragments for the PostgreSQL rules and the compiler's deferred parses.

:meth:`ddlc.ir.reach.Reach.found` (a shared plan, its last answer kept) replaces two walks that found the
same Exprs: the rules' ``_exprs_of`` (each Expr with whether it is a constraint's ``definition``, its
parsed form's text twin) and ``compiler.parse_pending``. Here the former walks, copied, against the new
answers over every fixture statement, before and after the PostgreSQL passes.
"""

from __future__ import annotations

from typing import Any

import pytest

from ddlc.backends import get_backend
from ddlc.backends.postgres import functions
from ddlc.compiler import _EXPRS, normalize
from ddlc.ir.base import Node
from ddlc.ir.names import Expr
from ddlc.ir.reach import Reach
from ddlc.options import Options

from test_throughput_passes import STATEMENTS


def _former_exprs_of(n: Node) -> tuple[tuple[Expr, bool], ...]:
    """functions._exprs_of as it was (its own walk)."""
    reach = Reach({Expr}).current()
    out: list[tuple[Expr, bool]] = []
    stack: list[tuple[Any, bool]] = [(n, False)]
    while stack:
        cur, twin = stack.pop()
        cls = type(cur)
        if cls is Expr:
            out.append((cur, twin))
        elif cls is tuple:
            stack.extend((x, twin) for x in cur)
        elif isinstance(cur, Node) and reach.enters(cls):
            pair = hasattr(cur, "parsed") and hasattr(cur, "definition")
            for f in reach.fields(cls):
                v = getattr(cur, f)
                if v is not None:
                    stack.append((v, twin or (pair and f == "definition")))
    return tuple(out)


def _former_pending(stmt: Node) -> list[Expr]:
    """The Exprs compiler.parse_pending resolved as it was (its own walk)."""
    reach = Reach({Expr}).current()
    out = []
    stack: list[Any] = [stmt]
    while stack:
        n = stack.pop()
        cls = type(n)
        if cls is Expr:
            out.append(n)
            continue
        for name in reach.fields(cls):
            v = getattr(n, name)
            if type(v) is tuple:
                stack.extend(x for x in v if isinstance(x, Node) and reach.enters(type(x)))
            elif isinstance(v, Node) and reach.enters(type(v)):
                stack.append(v)
    return out


def _after_passes() -> list[tuple[str, Node]]:
    backend, options = get_backend("postgres"), Options.of(on_unsupported="skip")
    out = []
    for label, stmt in STATEMENTS:
        try:
            out.append((label, normalize(stmt, backend, options, document=label)[0]))
        except Exception:  # noqa: BLE001 - the cases that fail are not what is compared here
            continue
    return out


@pytest.mark.parametrize("after", [False, True])
def test_found_is_the_former_walks(after: bool) -> None:
    statements = _after_passes() if after else STATEMENTS
    assert len(statements) > 150
    with_exprs = 0
    for label, stmt in statements:
        functions._LAST = (None, ())
        got = functions._exprs_of(stmt)
        want = _former_exprs_of(stmt)
        assert [(id(e), t) for e, t in got] == [(id(e), t) for e, t in want], label
        found = [e for e, _, _ in _EXPRS.current().found(stmt)]
        assert sorted(map(id, found)) == sorted(map(id, _former_pending(stmt))), label
        with_exprs += bool(found)
    assert with_exprs > 20


def test_one_plan_shared() -> None:
    assert Reach.shared({Expr}) is _EXPRS is functions._EXPR_REACH
    assert Reach.shared({Expr}, frozenset({("A", "b")})) is not _EXPRS
