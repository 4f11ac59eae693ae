"""SQL fragments -> pglast trees (PostgreSQL's grammar), once per fragment at build time.

``parse_expr`` reads a scalar expression (what ``SELECT <text>`` reads as its one unnamed target, and
nothing else); ``parse_query`` reads one query statement (trailing ``;`` allowed). Both return None when
the text does not parse (GaussDB-only syntax). :func:`make_expr` / :func:`make_query` build the IR's
:class:`~ddlc.ir.names.Expr` with that tree and the object references in the text
(:func:`ddlc.frontend.sql.refs.name_refs`). Results are cached by text (:class:`~.pgparse.Recent`): trees
are shared and must not be mutated (copy first). pglast is imported lazily (start-up time).
"""

from __future__ import annotations

from typing import Any

from ...errors import Path
from ...ir.names import Expr, ParsedSql
from .fragment import check_fragment, has_comment
from .lexer import BLANK
from .pgparse import parse_statements, pglast_ast, recent
from .pgwords import requote
from .refs import CONSTRAINT_START, name_refs

# SelectStmt members that must be empty for ``SELECT <text>`` to be a bare expression
_CLAUSES = ("distinctClause", "intoClause", "fromClause", "whereClause", "groupClause", "havingClause",
            "windowClause", "valuesLists", "sortClause", "limitOffset", "limitCount", "lockingClause",
            "withClause")


@recent(recent=64, kept=4096, seen=16384)  # (as parse_statements': a tree kept only for a text that comes back)
def parse_expr(text: str) -> Any:
    """The pglast node of the scalar expression ``text``, or None."""
    body = text.strip(BLANK)
    if CONSTRAINT_START.match(body) is not None:  # (a constraint's definition: not an expression)
        return None
    ast = pglast_ast()

    stmts = parse_statements("SELECT " + body)
    if stmts is None or len(stmts) != 1:
        return None
    s = stmts[0].stmt
    if not isinstance(s, ast.SelectStmt) or len(s.targetList or ()) != 1 or s.targetList[0].name is not None:
        return None
    if any(getattr(s, c, None) for c in _CLAUSES):
        return None
    return s.targetList[0].val


@recent(recent=64, kept=1024, seen=16384)
def parse_query(text: str) -> Any:
    """The pglast statement node of the one query in ``text`` (a ``SelectStmt``), or None."""
    ast = pglast_ast()

    stmts = parse_statements(_query_body(text))
    if stmts is None or len(stmts) != 1 or not isinstance(stmts[0].stmt, ast.SelectStmt):
        return None
    return stmts[0].stmt


def _query_body(text: str) -> str:
    """The text :func:`parse_query` parses: ``text`` without its blanks around and one final ``;``."""
    body = text.strip(BLANK)
    if body.endswith(";"):
        body = body[:-1].rstrip(BLANK)
    return body


def parses_as_statement(text: str) -> bool:
    """Whether ``text`` is exactly one statement of PostgreSQL's grammar."""
    stmts = parse_statements(text)
    return stmts is not None and len(stmts) == 1


def make_expr(text: str, origin: Path = ()) -> Expr:
    """An :class:`Expr` of a scalar expression, with its parsed form (``DDLC-E011`` when it is not one
    fragment: :mod:`.fragment`). The fragment is checked now; PostgreSQL's grammar reads it when a pass
    or a target first asks for its tree or its references (:meth:`ParsedSql.later`)."""
    check_fragment(text, origin, "expression")
    return Expr(text, origin=origin, sql=ParsedSql.later("expr", text, expr_tree, name_refs))


def make_query(text: str, origin: Path = ()) -> Expr:
    """An :class:`Expr` of a query, with its parsed form (``DDLC-E011`` when it is not one fragment), read
    when first asked for, as :func:`make_expr`'s."""
    check_fragment(text, origin, "query", query=True)
    return Expr(text, origin=origin, sql=ParsedSql.later("query", text, query_tree, name_refs))


def expr_parts(text: str) -> tuple[Any, Any, bool]:
    """``(tree, references, verbatim)`` of the scalar expression ``text`` (a :class:`ParsedSql`'s values)."""
    return parse_expr(text), name_refs(text), _verbatim(text)


def query_parts(text: str) -> tuple[Any, Any, bool]:
    """``(tree, references, verbatim)`` of the query ``text``."""
    return parse_query(text), name_refs(text), _verbatim(text)


def expr_tree(text: str) -> tuple[Any, bool]:
    """``(tree, verbatim)`` of the scalar expression ``text`` (a :class:`ParsedSql`'s values whose references
    :func:`~.refs.name_refs` works out when they are read)."""
    return parse_expr(text), _verbatim(text)


def query_tree(text: str) -> tuple[Any, bool]:
    """``(tree, verbatim)`` of the query ``text``. Its openGauss words are looked for in the text the parse read
    (:func:`_query_body`, requoted for the parse just before: one search of the text, not two): blanks and a
    final ``;`` hold no word and end no token, so the body holds such a word exactly when the text does
    (tests/test_throughput_round11_build.py compares them)."""
    return parse_query(text), not requote(_query_body(text))[1] and not has_comment(text)


def _verbatim(text: str) -> bool:
    """Whether a target other than GaussDB may write ``text`` as it came when PostgreSQL's grammar read it:
    not when it quotes openGauss's bare PostgreSQL keywords, nor when it holds a comment (the server never
    renders one in a fragment; a ``--`` one would swallow what the statement writes after it)."""
    return not requote(text)[1] and not has_comment(text)


__all__ = ["make_expr", "make_query", "parse_expr", "parse_query", "parses_as_statement"]
