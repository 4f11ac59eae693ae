"""The kind of a GaussDB statement text: its normalized leading words (``CREATE MATERIALIZED VIEW``,
``REINDEX``...), read from the first tokens only (:func:`statement_kind`)."""

from __future__ import annotations

import re
from collections.abc import Callable

from .sql.lexer import Lexed, ScanError, Tok, tokens

# ---- statement kinds ----------------------------------------------------------------------------
_KINDS: tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]], ...] = tuple(
    (re.compile(p), k) for p, k in (
        (r"CREATE (?:OR REPLACE )?(?:DEFINER = \S+ )?(PROCEDURE|FUNCTION)\b", lambda m: "CREATE " + m[1]),
        (r"CREATE (?:OR REPLACE )?(?:(?:NON)?EDITIONABLE )?PACKAGE( BODY)?\b", lambda m: "CREATE PACKAGE" + (m[1] or "")),
        (r"(ALTER|DROP) PACKAGE( BODY)?\b", lambda m: f"{m[1]} PACKAGE" + (m[2] or "")),
        (r"CREATE (?:INCREMENTAL )?MATERIALIZED VIEW\b", "CREATE MATERIALIZED VIEW"),
        (r"REFRESH (?:INCREMENTAL )?MATERIALIZED VIEW\b", "REFRESH MATERIALIZED VIEW"),
        (r"(ALTER|DROP) MATERIALIZED VIEW\b", lambda m: f"{m[1]} MATERIALIZED VIEW"),
        (r"(CREATE|ALTER|DROP) LARGE SEQUENCE\b", lambda m: f"{m[1]} LARGE SEQUENCE"),
        (r"CREATE (?:(?:GLOBAL |LOCAL )?(?:TEMPORARY|TEMP) |UNLOGGED )?TABLE\b", "CREATE TABLE"),
        (r"(ALTER|DROP) (FUNCTION|PROCEDURE)\b", lambda m: f"{m[1]} {m[2]}"),
        (r"(CREATE|ALTER|DROP) DATABASE\b", lambda m: f"{m[1]} DATABASE"),
        (r"(SELECT|TRUNCATE|REINDEX|GRANT|REVOKE)\b", lambda m: m[1]),
    )
)


# the patterns of _KINDS by the words they start with (each starts with one of its words, then a blank or \b):
# a head whose first letters are none of them matches none
_LETTERS = re.compile(r"[A-Z]*")
_FIRST_WORDS = [(e, re.match(r"\(?([A-Z|]+)", e[0].pattern)[1].split("|")) for e in _KINDS]  # type: ignore[index]
_BY_WORD: dict[str, tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]], ...]] = {
    w: tuple(e for e, words in _FIRST_WORDS if w in words) for _e, ws in _FIRST_WORDS for w in ws}
del _FIRST_WORDS


# The tokens a kind is read from: no pattern of _KINDS reads past the 7th (CREATE OR REPLACE DEFINER = u
# PROCEDURE; a token holding a blank only makes a pattern read fewer), and the fallback reads the first two
# (tests/test_throughput_text5.py: the kinds of the first 10 tokens).
HEAD = 7


def _head(text: str, limit: int = 10) -> list[Tok]:
    out: list[Tok] = []
    try:
        for t in tokens(text):
            out.append(t)
            if len(out) >= limit:
                break
    except ScanError:
        pass
    return out


# The last text whose kind was worked out (from its tokens here, or from its characters by
# tddl_text.text_kind) and that kind: the next reader of the same text (the same string: a TDDL document's,
# which the GaussDB target asks about, then checks, then maybe reads) takes it rather than working it out
# again. One text only, replaced as a whole (a text's kind is a function of the text).
_LAST: tuple[str, str] | None = None


def remember_kind(text: str, kind: str) -> str:
    """Keep ``kind``, the :func:`statement_kind` of ``text``, for :func:`known_kind`; returns it."""
    global _LAST
    _LAST = (text, kind)
    return kind


def known_kind(text: str) -> str | None:
    """The kind :func:`remember_kind` kept for this very string (``is``), or None."""
    got = _LAST
    return got[1] if got is not None and got[0] is text else None


def statement_kind(text: str | Lexed) -> str:
    """The normalized leading words (``CREATE MATERIALIZED VIEW``, ``REINDEX``...), or ``""``. ``text``: the
    text, or its tokens as read for every reader of it (the kind worked out once). The kind is kept for the
    text's next reader (:func:`known_kind`)."""
    if isinstance(text, Lexed):
        got = text.notes.get("kind")
        if got is None:
            head = " ".join(t.upper or t.text for t in text.head(HEAD))
            got = text.notes["kind"] = remember_kind(text.text, _kind(head))
        return got  # type: ignore[return-value]
    return remember_kind(text, _kind(" ".join(t.upper or t.text for t in _head(text, HEAD))))


def _kind(head: str) -> str:
    for rx, kind in _BY_WORD.get(_LETTERS.match(head)[0], ()):  # type: ignore[index]  # (in their order)
        m = rx.match(head)
        if m:
            return kind if isinstance(kind, str) else kind(m)
    words = head.split(" ")  # the tokens as joined: str.split() would also cut at U+00A0, U+2028, U+0085 or
    # \x1c-\x1f inside one token (an identifier to the server), and "CREATE\xa0FUNCTION f; DROP ..." read as code
    return " ".join(words[:2]) if words[:1] in (["CREATE"], ["ALTER"], ["DROP"]) else " ".join(words[:1])


__all__ = ["known_kind", "remember_kind", "statement_kind"]
