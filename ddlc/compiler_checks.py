"""The texts the GaussDB target writes as they came, checked before the backend (:mod:`ddlc.compiler`'s helpers):
a TDDL text passed through, a tree of no known shape, a subcommand of no known shape. Each is exactly one
statement (or one part of its ALTER) as ddlc's lexer reads it, DDLC-E011 otherwise."""

from __future__ import annotations

from typing import Any

from .frontend.sql.fragment import check_statement
from .ir.alter import AlterRelation, OpaqueSubcommand
from .ir.statement import Opaque


def may_read_as(text: str, classes: tuple[type, ...]) -> bool:
    return (_recover or _load_recover()).may_read_as(text, classes)


# The frontend's recovery, imported on first use (not at start-up), then kept: an import statement in a function
# runs importlib's Python code at every call (~11k instructions), once per TDDL document here.
_recover: Any = None  # ddlc.frontend.recover


def _load_recover() -> Any:
    global _recover
    from .frontend import recover

    _recover = recover
    return recover


# statements whose TDDL text holds user code outside quotes (Oracle-style routine and package bodies,
# anonymous blocks, B-compatibility trigger bodies): their ';' and comments are the user's
_CODE_KINDS = frozenset({"CREATE FUNCTION", "CREATE PROCEDURE", "CREATE PACKAGE", "CREATE PACKAGE BODY",
                         "CREATE TRIGGER", "DO", "BEGIN", "DECLARE"})


AS_IT_CAME = "(written as it came on the GaussDB target, with no IR to print it from)"


def one_tddl_statement(text: str, document: str) -> None:
    """A TDDL text passed through to the GaussDB target is exactly one statement, as ddlc's lexer reads
    it (DDLC-E011 otherwise; ``frontend.sql.fragment.statement_problem``). In the text of a statement that
    holds user code outside quotes, ``;`` and comments are the user's: only a ``/`` line before the end,
    a meta-command, an unterminated token or a comment running to the end is refused there."""
    (_recover or _load_recover()).check_tddl_statement(text, _tddl_what, _CODE_KINDS, document=document)


def _tddl_what(kind: str | None) -> str:
    return f"the TDDL text of {kind or 'a statement'} {AS_IT_CAME}"


def one_statement_as_written(f: Any, document: str) -> None:
    """The text of a tree of no known shape (its expansion; the Opaque's own, canonical, text too) is
    exactly one statement as ddlc's lexer reads it, and the text of a subcommand of no known shape one
    part of its ALTER: the GaussDB target writes them as they came, and no slot class checked their values
    (``frontend/slots.py`` knows the known shapes only). DDLC-E011 otherwise. Lexed here, before the
    backend: the emitters parse nothing. Canonical text is the raw text with blank runs folded outside
    quotes, the same tokens on fewer lines: what passes raw passes canonical."""
    stmt = f.stmt
    if isinstance(stmt, Opaque):
        for text in dict.fromkeys(t for t in (f.source, stmt.text) if t is not None):
            check_statement(text, f"the text of a statement of no known shape {AS_IT_CAME}", path=stmt.origin,
                            document=document)
    elif isinstance(stmt, AlterRelation):
        for sub in stmt.subcommands:
            if isinstance(sub, OpaqueSubcommand):
                check_statement(sub.text, f"the text of a subcommand of no known shape {AS_IT_CAME}", part=True,
                                path=sub.origin, document=document)
