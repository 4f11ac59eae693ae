"""Typed, immutable intermediate representation of DDL statements.

:func:`statement_classes` lists every top-level statement class of the IR; a backend must emit
or explicitly refuse each of them (checked when its class is built).
"""

from __future__ import annotations

import importlib

# The statement families, one module each (fixtures, builders and emitters use the same names).
FAMILIES = (
    "statement", "table", "alter", "followup", "drop", "index", "sequence", "view", "routine", "trigger",
    "schema", "comment", "rename", "typedef", "event", "misc",
)
_CLASSES: tuple[type, ...] | None = None


def statement_classes() -> tuple[type, ...]:
    """Every concrete IR statement class, in a stable order."""
    global _CLASSES
    if _CLASSES is None:
        from .statement import Statement

        for fam in FAMILIES:
            importlib.import_module(f"{__name__}.{fam}")
        out: list[type] = []
        stack = list(Statement.__subclasses__())
        while stack:
            c = stack.pop()
            stack.extend(c.__subclasses__())
            mod = importlib.import_module(c.__module__)
            # dataclass(slots=True) replaces each class; keep only the class its module exports
            if getattr(mod, c.__name__, None) is c and c not in out:
                out.append(c)
        _CLASSES = tuple(sorted(out, key=lambda c: (c.__module__, c.__name__)))
    return _CLASSES
