"""The frontend's one SQL layer: every SQL fragment embedded in a JDDL tree or a TDDL text (defaults,
generation expressions, trigger WHEN, view and CREATE TABLE AS queries, constraint and index
definitions, identities, partition clauses, function headers...) is parsed here, once, at build time,
into typed IR (an :class:`ddlc.ir.names.Expr` carries its tree and object references). One lexer
(:mod:`.lexer`) for the texts read by hand, PostgreSQL's grammar (:mod:`.pgparse`) for the rest.
Neither the passes nor the backends parse text.
"""

from __future__ import annotations

from .expr import make_expr, make_query, parse_expr, parse_query, parses_as_statement

__all__ = ["make_expr", "make_query", "parse_expr", "parse_query", "parses_as_statement"]
