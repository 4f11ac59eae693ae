"""A TDDL text's statement kind and whether it is one statement, from its characters where they allow it (the
lexer otherwise): what the GaussDB target asks of a text it passes through (issue 26)."""

from __future__ import annotations

import re
from collections.abc import Callable

from .sql.fragment import check_statement, plain_statement
from .statement_kind import _kind as kind_of_head, statement_kind

# the start of a text whose tokens the lexer cuts at blanks and at these single-character punctuation marks
# only, each piece a word (ASCII letters, digits, "_"; one starting with a digit is a number: not read here),
# a mark or a run of "=" (an operator, unless another operator character follows it)
_SIMPLE_START = re.compile(r"[A-Za-z0-9_ \t\n\r\f\v(),;.\[\]=]*")
_SIMPLE_PIECE = re.compile(r"[A-Za-z0-9_]+|=+|[(),;.\[\]]")
_HEAD = 10  # the tokens statement_kind reads
_HEAD_CHARS = 160  # where text_kind looks for them
_DIGITS = frozenset("0123456789")


def text_kind(text: str) -> str:
    """:func:`statement_kind` of ``text``, from its first characters when its first tokens are ASCII words and
    single punctuation marks between blanks (their pieces, as the lexer cuts them: a word ends at a blank or a
    mark, and one that runs on past them, into ``$``, a quote or a non-ASCII character, is not taken)."""
    end = _SIMPLE_START.match(text, 0, _HEAD_CHARS).end()  # type: ignore[union-attr]
    pieces = _SIMPLE_PIECE.findall(text, 0, end)
    for p in pieces[:_HEAD + 1]:
        if p[0] in _DIGITS:  # a number: "1.5", ".5", "1e5" are one token each
            return statement_kind(text)
    if end < len(text) and pieces and text[end - 1] not in " \t\n\r\f\v":
        pieces.pop()  # the last piece, maybe cut short (its token runs on)
    if len(pieces) >= _HEAD or end == len(text):
        return kind_of_head(" ".join(pieces[:_HEAD]).upper())  # (ASCII: each piece's keyword spelling)
    return statement_kind(text)


def check_tddl_statement(text: str, what: Callable[[str], str], block_kinds: frozenset[str], *,
                         document: str | None = None) -> None:
    """:func:`~ddlc.frontend.sql.fragment.check_statement` of a TDDL text, ``block`` when its kind
    (:func:`statement_kind`) is one of ``block_kinds`` and ``what(kind)`` naming it in the message: the kind
    is worked out only for a text that is not plain (:func:`~ddlc.frontend.sql.fragment.plain_statement`:
    one statement in either mode)."""
    if plain_statement(text):
        return
    kind = text_kind(text)
    check_statement(text, what(kind), block=kind in block_kinds, document=document)


__all__ = ["check_tddl_statement", "text_kind"]
