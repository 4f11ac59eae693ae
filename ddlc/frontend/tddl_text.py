"""A TDDL text's statement kind and whether it is one statement, from its characters where they allow it (the
lexer otherwise): what the GaussDB target asks of a text it passes through (issue 26)."""

from __future__ import annotations

from collections.abc import Callable

from ..ir.misc import CreateTableAs
from .sql.fragment import check_statement, plain_statement
from .sql.lexer import Lexed
from .statement_kind import HEAD, known_kind, remember_kind, statement_kind
from .statement_kind import _kind as kind_of_head
from .. import lazyre

# the start of a text whose tokens the lexer cuts at blanks and at these single-character punctuation marks
# only, each piece a word (ASCII letters, digits, "_"; one starting with a digit is a number: not read here),
# a mark or a run of "=" (an operator, unless another operator character follows it)
_SIMPLE_START = lazyre.compile(r"[A-Za-z0-9_ \t\n\r\f\v(),;.\[\]=]*")
_SIMPLE_PIECE = lazyre.compile(r"[A-Za-z0-9_]+|=+|[(),;.\[\]]")
_HEAD = HEAD  # the tokens statement_kind reads
_HEAD_CHARS = 160  # where text_kind looks for them
_DIGITS = frozenset("0123456789")


# text_kind reads the first _HEAD + 1 pieces (a number among them sends the text to the lexer) and whether
# there are more than that (then the last piece, maybe cut short, is none of the first _HEAD): _HEAD + 2
_PIECES = _HEAD + 2
# one match for both: the first _PIECES pieces as groups (None after the last one: the simple start holds
# pieces and blanks only, so a piece follows each blank run but at its end), then the rest of the simple start
# (the match ends where _SIMPLE_START's does). ~17k instructions a CREATE text where the two took ~50k
# (findall read every piece of the 160 characters: issue 26)
_START_PIECES = lazyre.compile(r"(?:(?>[ \t\n\r\f\v]*)((?>[A-Za-z0-9_]+)|(?>=+)|[(),;.\[\]])?)" * _PIECES
                               + r"(?>[A-Za-z0-9_ \t\n\r\f\v(),;.\[\]=]*)")


def text_kind(text: str, lexed: Lexed | None = None) -> str:
    """:func:`statement_kind` of ``text``, from its first characters when its first tokens are ASCII words and
    single punctuation marks between blanks (their pieces, as the lexer cuts them: a word ends at a blank or a
    mark, and one that runs on past them, into ``$``, a quote or a non-ASCII character, is not taken); from
    its tokens otherwise (``lexed``: the text's, read for every reader of it). Worked out once per text
    (:func:`~.statement_kind.known_kind`)."""
    got = known_kind(text)
    if got is not None:
        return got
    m = _START_PIECES.match(text, 0, _HEAD_CHARS)
    end = m.end()  # type: ignore[union-attr]  # (_SIMPLE_START.match(text, 0, _HEAD_CHARS).end())
    found = m.groups()  # type: ignore[union-attr]
    # all the pieces (_SIMPLE_PIECE.findall(text, 0, end)), or the first _PIECES of more: then the last one
    # popped below is none of the first _HEAD + 1 either way
    pieces = list(found[:found.index(None)]) if found[-1] is None else list(found)
    for p in pieces[:_HEAD + 1]:
        if p[0] in _DIGITS:  # a number: "1.5", ".5", "1e5" are one token each
            return statement_kind(text if lexed is None else lexed)
    if end < len(text) and pieces and text[end - 1] not in " \t\n\r\f\v":
        pieces.pop()  # the last piece, maybe cut short (its token runs on)
    if len(pieces) >= _HEAD or end == len(text):
        head = " ".join(pieces[:_HEAD]).upper()  # (ASCII: each piece's keyword spelling)
        return remember_kind(text, kind_of_head(head))
    return statement_kind(text if lexed is None else lexed)


def check_tddl_statement(text: str, what: Callable[[str], str], block_kinds: frozenset[str], *,
                         document: str | None = None) -> None:
    """:func:`~ddlc.frontend.sql.fragment.check_statement` of a TDDL text, ``block`` when its kind
    (:func:`statement_kind`) is one of ``block_kinds`` and ``what(kind)`` naming it in the message: the kind
    is worked out only for a text that is not plain (:func:`~ddlc.frontend.sql.fragment.plain_statement`:
    one statement in either mode)."""
    if plain_statement(text):
        return
    kind = text_kind(text)
    block = kind in block_kinds
    if block and _plain_block(text):
        return
    check_statement(text, what(kind), block=block, document=document)


_BLANKS = " \t\n\r\f\v"  # the lexer's blanks (its "space" tokens)


def _plain_block(text: str) -> bool:
    """Whether ``text`` is surely one statement for ``statement_problem(text, block=True)``, seen without its
    tokens (issue 26: an Oracle-style body or a package is lexed twice there, ~250k instructions each for a
    short one). True only when the text has no quote, ``$``, backslash or ``/*``: then its tokens are
    blanks, ``--`` comments (each ending at a line break or at the end), words, numbers, marks and operators,
    none unterminated, no string and no backslash. What the block check refuses among those is then seen
    from the characters: no ``/`` but maybe the text's last character (nothing follows a ``/`` line then),
    its first token not a ``;`` nor a comment, at least one token, and no ``--`` on its last line (a comment
    running to the end). False: the lexer decides (``check_statement``), as before."""
    if "'" in text or '"' in text or "$" in text or "\\" in text or "/*" in text:
        return False
    body = text.rstrip(_BLANKS)
    if "/" in (body[:-1] if body[-1:] == "/" else body):
        return False
    head = text.lstrip(_BLANKS)
    if not head or head[0] == ";" or head[:2] == "--":
        return False
    return "--" not in text[max(text.rfind("\n"), text.rfind("\r")) + 1:]


# the statement kinds (statement_kind) whose text can be read as each of these classes: only the recovery's
# handlers (:mod:`.recover`) make them, the templates and the hand-written reading never do
# (tests/test_throughput_text.py)
MADE_FROM: dict[type, frozenset[str]] = {CreateTableAs: frozenset({"CREATE TABLE", "SELECT"})}

# the first word of each kind MADE_FROM names
_MADE_FROM_WORDS: dict[type, frozenset[str]] = {cls: frozenset(k.split()[0] for k in kinds) for cls, kinds in MADE_FROM.items()}
# a text's first token when it is an ASCII word: blanks before it, and after it the end or a character that
# neither continues a word (lexer._CONT's set) nor makes it a string's prefix (E'', N'', X'', B'')
_FIRST_WORD = lazyre.compile(r"[ \t\n\r\f\v]*([A-Za-z]+)(?:[\x00-\x23\x25\x26\x28-\x2f\x3a-\x40\x5b-\x5e\x60\x7b-\x7f]|\Z)")


# the kinds of each class of MADE_FROM that start with CREATE; when they are CREATE TABLE alone, a CREATE text
# whose second token rules it out is not read for its kind (issue 26: ~35k instructions a CREATE FUNCTION, a
# materialized view..., whose kind the GaussDB target asks only for this)
_CREATE_KINDS: dict[type, frozenset[str]] = {
    cls: frozenset(k for k in kinds if k.split()[0] == "CREATE") for cls, kinds in MADE_FROM.items()}
_CREATE_TABLE = frozenset({"CREATE TABLE"})
# statement_kind's CREATE TABLE pattern: CREATE [GLOBAL |LOCAL ]TEMPORARY|TEMP TABLE, CREATE UNLOGGED TABLE,
# CREATE TABLE: the words its second token may be
_CREATE_TABLE_SECOND = frozenset({"GLOBAL", "LOCAL", "TEMPORARY", "TEMP", "UNLOGGED", "TABLE"})
# a text's first two tokens when both are ASCII words, each followed by a blank (which ends a word token)
_TWO_WORDS = lazyre.compile(r"[ \t\n\r\f\v]*([A-Za-z]+)[ \t\n\r\f\v]+([A-Za-z]+)[ \t\n\r\f\v]")


def _not_create_table(text: str) -> bool:
    """Whether ``text`` (its first token CREATE) is surely not of the kind CREATE TABLE, seen from its first two
    tokens: the second one a word that the CREATE TABLE pattern of ``statement_kind`` does not take there (no
    other pattern and no fallback gives CREATE TABLE). False: its kind decides."""
    m = _TWO_WORDS.match(text)
    return m is not None and m[2].upper() not in _CREATE_TABLE_SECOND


def may_read_as(text: str, classes: tuple[type, ...]) -> bool:
    """Whether :func:`ddlc.frontend.text.read_tddl` of ``text`` may give a statement of one of ``classes``
    (False only when the statement's kind rules it out: no class of ``classes`` is made from it). A kind's
    first word is the text's first token when that is a word (``statement_kind``), so a text whose first
    word starts no kind of ``classes`` is ruled out without its tokens."""
    kind = None
    first = _FIRST_WORD.match(text)
    word = first[1].upper() if first is not None else None
    for cls in classes:
        kinds = MADE_FROM.get(cls)
        if kinds is None:
            return True
        if word is not None and word not in _MADE_FROM_WORDS[cls]:
            continue
        if word == "CREATE" and _CREATE_KINDS[cls] == _CREATE_TABLE and _not_create_table(text):
            continue
        if kind is None:
            kind = text_kind(text)
        if kind in kinds:
            return True
    return False


__all__ = ["MADE_FROM", "check_tddl_statement", "may_read_as", "text_kind"]
