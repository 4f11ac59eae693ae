"""PostgreSQL's capability table: what the ``drop_unsupported`` pass removes before emitting.

The rules live next to the emitters of each statement family (``UNSUPPORTED`` in
``table.py``, ``alter.py``, ...); this module only gathers them, so the pass and the README
support matrix read one table.
"""

from __future__ import annotations

import importlib

from . import FAMILIES, REFUSED, load


def _gather() -> tuple:
    rules: list = []
    for fam in FAMILIES:
        try:
            mod = importlib.import_module(f"ddlc.backends.postgres.{fam}")
        except ModuleNotFoundError as exc:
            if exc.name != f"ddlc.backends.postgres.{fam}":
                raise
            continue
        rules.extend(getattr(mod, "UNSUPPORTED", ()))
    return tuple(rules)


load()
UNSUPPORTED = _gather()
AS_TEXT: tuple = ()
__all__ = ["UNSUPPORTED", "REFUSED", "AS_TEXT"]
