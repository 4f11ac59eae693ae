"""PostgreSQL's grammar (pglast), once per distinct text: every parse of the SQL layer goes through here.

Results are cached by text, so the same fragment read for its tree (:mod:`.expr`), its constraint
(:mod:`.constraints`) and its object references (:mod:`.refs`) is parsed once. Trees are shared:
never mutate one (copy it first). pglast is imported lazily (start-up time).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .pgwords import requote


_PGLAST: Any = None


def pglast_ast() -> Any:
    """``pglast.ast``, imported on first use (start-up time) and kept: no import statement per call."""
    global _PGLAST
    if _PGLAST is None:
        from pglast import ast

        _PGLAST = ast
    return _PGLAST


@lru_cache(maxsize=8192)
def parse_statements(sql: str) -> tuple[Any, ...] | None:
    """The raw statements of ``sql`` (pglast ``RawStmt`` nodes), or None when it does not parse.

    PostgreSQL's grammar reads the text with openGauss's bare names that are PostgreSQL keywords quoted
    (:func:`ddlc.frontend.sql.pgwords.requote`): pglast's locations are offsets in that text (map them
    back with :func:`~ddlc.frontend.sql.pgwords.to_source`)."""
    import pglast

    try:
        return tuple(pglast.parse_sql(requote(sql)[0]))
    except Exception:  # noqa: BLE001 - pglast.parser.ParseError: GaussDB-only syntax
        return None


__all__ = ["parse_statements", "pglast_ast"]
