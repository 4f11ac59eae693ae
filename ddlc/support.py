"""The support matrix, computed from the backends' own tables (never written by hand).

A statement kind is an IR ``Statement`` subclass. For each target: ✅ it has an emitter and no
capability rule touches it; ⚠️ it has an emitter and rules that drop or rewrite some of its
clauses, or refuse some forms of it whole (listed by :func:`refused_forms`: a DROP of an object kind
the target cannot address, a view query it cannot read...); 📝 it is kept as text with a
diagnostic; ❌ the target has no such object (refused, with a diagnostic); 🚧 ddlc does not
translate it yet.
"""

from __future__ import annotations

import re

from .ir.base import Node
from .ir.statement import Opaque

def targets() -> list[str]:
    from .backends import BACKENDS

    return list(BACKENDS)


def _all_statements() -> list[type]:
    from .ir import statement_classes

    return list(statement_classes())


def label(cls: type) -> str:
    words = re.findall(r"[A-Z][a-z]*|[a-z]+", cls.__name__)
    return " ".join(w.upper() for w in words)


def cell(target: str, cls: type) -> str:
    from .backends import backend_class

    backend = backend_class(target)
    status = backend.status(cls)
    if status == "refused":
        return "❌"
    if status in ("not-implemented", "missing"):
        return "🚧"
    if cls is Opaque:
        return "📝"
    touched = {r.node for r in backend.rules}
    return "⚠️" if touched & _nodes_below(cls) else "✅"


def _nodes_below(cls: type) -> set[type]:
    import typing

    seen: set[type] = set()
    stack = [cls]
    while stack:
        c = stack.pop()
        if c in seen:
            continue
        seen.add(c)
        try:
            hints = typing.get_type_hints(c)
        except Exception:
            continue
        for h in hints.values():
            for t in _types_in(h):
                if isinstance(t, type) and (issubclass(t, Node) or hasattr(t, "__dataclass_fields__")):
                    stack.append(t)
                    stack.extend(_subclasses(t))  # a field typed by a base class holds its subclasses
    return seen


def _subclasses(cls: type) -> list[type]:
    out, todo = [], list(cls.__subclasses__())
    while todo:
        c = todo.pop()
        out.append(c)
        todo.extend(c.__subclasses__())
    return out


def _types_in(h):
    import typing

    args = typing.get_args(h)
    if not args:
        return [h]
    out = []
    for a in args:
        out.extend(_types_in(a))
    return out


def refused_forms(target: str) -> list[tuple[str, tuple[str, ...]]]:
    """The statement kinds some forms of which ``target`` refuses whole (a rule drops the statement), with
    the codes of those rules: (label, codes), in the matrix's order."""
    from .backends import backend_class

    rules = backend_class(target).rules
    out = []
    for c in _all_statements():
        codes = sorted({r.code for r in rules if r.node is c and r.drops_statement})
        if codes and c is not Opaque:
            out.append((f"`{label(c)}`", tuple(codes)))
    return out


def matrix_rows() -> list[tuple[str, dict[str, str]]]:
    return [(f"`{label(c)}`", {t: cell(t, c) for t in targets()}) for c in _all_statements()]
