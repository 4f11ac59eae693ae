"""The support matrix, computed from the backends' own tables (never written by hand).

A statement kind is an IR ``Statement`` subclass. For each target: ✅ it has an emitter and no
capability rule touches it; ⚠️ it has an emitter and rules that drop or rewrite some of its
clauses; 📝 it is kept as text with a diagnostic; ❌ the target reports it instead of emitting it.
"""

from __future__ import annotations

import importlib
import re

from .ir.statement import Opaque, Statement

TARGET_MODULES = {"gaussdb": "ddlc.backends.gaussdb", "postgres": "ddlc.backends.postgres"}


def targets() -> list[str]:
    return list(TARGET_MODULES)


def _all_statements() -> list[type]:
    from .frontend.build import _load

    _load()
    out, stack = [], list(Statement.__subclasses__())
    while stack:
        c = stack.pop()
        out.append(c)
        stack.extend(c.__subclasses__())
    import sys

    # dataclass(slots=True) replaces each class; keep only the class its module exports
    live = {c for c in out if getattr(sys.modules.get(c.__module__), c.__name__, None) is c}
    return sorted(live, key=lambda c: (c.__module__, c.__name__))


def label(cls: type) -> str:
    words = re.findall(r"[A-Z][a-z]*|[a-z]+", cls.__name__)
    return " ".join(w.upper() for w in words)


def cell(target: str, cls: type) -> str:
    mod = importlib.import_module(TARGET_MODULES[target])
    emitters = mod.load()
    caps = _capabilities(target)
    if cls in getattr(mod, "REFUSED", {}):
        return "❌"
    if cls not in emitters:
        return "❌"
    if cls is Opaque or cls in getattr(caps, "AS_TEXT", ()):
        return "📝"
    rules = getattr(caps, "UNSUPPORTED", ())
    touched = {r.node for r in rules}
    family_nodes = _nodes_below(cls)
    return "⚠️" if touched & family_nodes else "✅"


def _capabilities(target: str):
    try:
        return importlib.import_module(f"{TARGET_MODULES[target]}.capabilities")
    except ModuleNotFoundError:
        return None


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
                if isinstance(t, type) and hasattr(t, "__dataclass_fields__"):
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


def matrix_rows() -> list[tuple[str, dict[str, str]]]:
    return [(f"`{label(c)}`", {t: cell(t, c) for t in targets()}) for c in _all_statements()]
