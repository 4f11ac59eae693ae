"""The frontend's one SQL layer: every SQL fragment embedded in a JDDL tree or a TDDL text (defaults,
generation expressions, trigger WHEN, view and CREATE TABLE AS queries...) is parsed here, once, at
build time, into the parsed form an :class:`ddlc.ir.names.Expr` carries. Backends never parse text.
"""

from __future__ import annotations

from .expr import make_expr, make_query, parse_expr, parse_query, parses_as_statement

__all__ = ["make_expr", "make_query", "parse_expr", "parse_query", "parses_as_statement"]
