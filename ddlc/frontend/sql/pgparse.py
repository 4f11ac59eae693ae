"""PostgreSQL's grammar (pglast), once per distinct text: every parse of the SQL layer goes through here.

Results are cached by text, so the same fragment read for its tree (:mod:`.expr`), its constraint
(:mod:`.constraints`) and its object references (:mod:`.refs`) is parsed once. Trees are shared:
never mutate one (copy it first). pglast is imported lazily (start-up time).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import orjson

from ...ir.sqltree import TRUSTED
from .pgwords import requote


_PGLAST: Any = None


def pglast_ast() -> Any:
    """``pglast.ast``, imported on first use (start-up time) and kept: no import statement per call."""
    global _PGLAST
    if _PGLAST is None:
        from pglast import ast

        _PGLAST = ast
    return _PGLAST


_TRUSTED = TRUSTED  # .on: this thread is inside pglast's own parser (parse_sql below), or builds trusted nodes
_FAST: bool | None = None  # whether pglast's nodes are made unchecked inside its parser (None: not decided yet)
# the pglast releases whose parser makes the same trees unchecked as checked (tests/test_pgparse_trusted.py)
_CHECKED_RELEASES = ("8.8",)


def _install() -> bool:
    """Let pglast's parser make its nodes without the per-attribute check of ``Node.__setattr__`` (issue 26:
    5-10x faster parses, ~12 % of a translation). The check exists for nodes built by hand from loose
    values (a list for a tuple, a name for an enum); the parser's values already have their final types,
    and the trees are the same (tests/test_pgparse_trusted.py compares them over every fragment of the
    fixtures). Only the thread inside :func:`parse_sql` skips the check; every other construction of a
    pglast node, in ddlc or in the program using it, is checked as before. Not done for a pglast release
    that was not compared."""
    global _FAST
    if _FAST is None:
        import pglast
        from pglast import ast

        checked = ast.Node.__setattr__
        release = str(pglast.__version__).lstrip("v")
        if not any(release == r or release.startswith(r + ".") for r in _CHECKED_RELEASES):  # not 8.80
            _FAST = False
        elif getattr(checked, "ddlc_trusted", False):
            _FAST = True
        else:
            put, state = object.__setattr__, _TRUSTED

            def __setattr__(self: Any, name: str, value: Any) -> None:
                if state.on:
                    put(self, name, value)
                else:
                    checked(self, name, value)

            __setattr__.ddlc_trusted = True  # type: ignore[attr-defined]
            ast.Node.__setattr__ = __setattr__  # type: ignore[method-assign]
            _FAST = True
    return _FAST


def parse_sql(text: str) -> tuple[Any, ...]:
    """``pglast.parse_sql(text)``, its nodes made without the per-attribute check (:func:`_install`).
    Raises pglast's ``ParseError`` as it does."""
    import pglast

    if not (_FAST if _FAST is not None else _install()):
        return pglast.parse_sql(text)
    before = _TRUSTED.on
    _TRUSTED.on = True
    try:
        return pglast.parse_sql(text)
    finally:
        _TRUSTED.on = before


@lru_cache(maxsize=8192)
def parse_statements(sql: str) -> tuple[Any, ...] | None:
    """The raw statements of ``sql`` (pglast ``RawStmt`` nodes), or None when it does not parse.

    PostgreSQL's grammar reads the text with openGauss's bare names that are PostgreSQL keywords quoted
    (:func:`ddlc.frontend.sql.pgwords.requote`): pglast's locations are offsets in that text (map them
    back with :func:`~ddlc.frontend.sql.pgwords.to_source`)."""
    try:
        return tuple(parse_sql(requote(sql)[0]))
    except Exception:  # noqa: BLE001 - pglast.parser.ParseError: GaussDB-only syntax
        return None


@lru_cache(maxsize=256)
def parse_json(sql: str) -> dict[str, Any] | None:
    """The JSON form of pglast's parse of ``sql`` (the same C parser as :func:`parse_statements`, the same
    requoting; no Python nodes: 3-4x cheaper when a reader needs a few fields), or None when it does not
    parse. Shared between readers of the same text: never mutate it."""
    global _PARSE_JSON
    if _PARSE_JSON is None:
        from pglast.parser import parse_sql_json

        _PARSE_JSON = parse_sql_json
    try:
        return orjson.loads(_PARSE_JSON(requote(sql)[0]))
    except Exception:  # noqa: BLE001 - pglast.parser.ParseError: GaussDB-only syntax
        return None


_PARSE_JSON: Any = None


__all__ = ["parse_json", "parse_sql", "parse_statements", "pglast_ast"]
