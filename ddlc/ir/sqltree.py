"""A fast walk over pglast trees (the parsed SQL fragments the IR carries).

pglast's ``Visitor`` inspects the visitor class on every call and walks breadth-first with ancestor
chains; the IR only needs "every node of these types", so this is a plain depth-first walk over the
slots that can hold nodes (looked up once per pglast class).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

_SLOTS: dict[type, tuple[str, ...]] = {}


def _node_slots(cls: type) -> tuple[str, ...]:
    from pglast import ast

    out = []
    for name, info in getattr(cls, "__slots__", {}).items():
        types = info.py_type if isinstance(info.py_type, tuple) else (info.py_type,)
        if any(t in (list, tuple) or (isinstance(t, type) and issubclass(t, ast.Node)) for t in types):
            out.append(name)
    return tuple(out)


_REVERSED: dict[type, tuple[str, ...] | None] = {}  # per class met: its node slots, last first; None: no node


def _reversed_slots(cls: type) -> tuple[str, ...] | None:
    from pglast import ast

    if not issubclass(cls, ast.Node):
        out = None
    else:
        slots = _SLOTS.get(cls)
        if slots is None:
            slots = _SLOTS[cls] = _node_slots(cls)
        out = tuple(reversed(slots))
    _REVERSED[cls] = out
    return out


def nodes(tree: Any) -> Iterator[Any]:
    """Every pglast node of ``tree`` (a node or a tuple of them), parents before their children.

    A caller may change the node it was just given: its children are read after it resumes.
    """
    known = _REVERSED
    stack = [tree]
    pop, push = stack.pop, stack.append
    while stack:
        n = pop()
        cls = type(n)
        if cls is tuple or cls is list:
            stack.extend(reversed(n))
            continue
        try:
            slots = known[cls]
        except KeyError:
            slots = _reversed_slots(cls)
        if slots is None:
            if isinstance(n, tuple | list):
                stack.extend(reversed(n))
            continue
        yield n
        for name in slots:
            v = getattr(n, name, None)
            if v is not None:
                push(v)


def visit(tree: Any, handlers: Mapping[type, Callable[[Any], None]]) -> None:
    """Call ``handlers[type(node)](node)`` for every node of ``tree`` whose class has a handler (in the order
    of :func:`nodes`, a handler's node's children read after it returns)."""
    known = _REVERSED
    get = handlers.get
    stack = [tree]
    pop, push = stack.pop, stack.append
    while stack:
        n = pop()
        cls = type(n)
        if cls is tuple or cls is list:
            stack.extend(reversed(n))
            continue
        try:
            slots = known[cls]
        except KeyError:
            slots = _reversed_slots(cls)
        if slots is None:
            if isinstance(n, tuple | list):
                stack.extend(reversed(n))
            continue
        fn = get(cls)
        if fn is not None:
            fn(n)
        for name in slots:
            v = getattr(n, name, None)
            if v is not None:
                push(v)
