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


def statement_kind(text: str | Lexed) -> str:
    """The normalized leading words (``CREATE MATERIALIZED VIEW``, ``REINDEX``...), or ``""``. ``text``: the
    text, or its tokens as read for every reader of it (the kind worked out once)."""
    if isinstance(text, Lexed):
        got = text.notes.get("kind")
        if got is None:
            got = text.notes["kind"] = _kind(" ".join(t.upper or t.text for t in text.head(10)))
        return got  # type: ignore[return-value]
    return _kind(" ".join(t.upper or t.text for t in _head(text)))


def _kind(head: str) -> str:
    for rx, kind in _KINDS:
        m = rx.match(head)
        if m:
            return kind if isinstance(kind, str) else kind(m)
    words = head.split(" ")  # the tokens as joined: str.split() would also cut at U+00A0, U+2028, U+0085 or
    # \x1c-\x1f inside one token (an identifier to the server), and "CREATE\xa0FUNCTION f; DROP ..." read as code
    return " ".join(words[:2]) if words[:1] in (["CREATE"], ["ALTER"], ["DROP"]) else " ".join(words[:1])


__all__ = ["statement_kind"]
