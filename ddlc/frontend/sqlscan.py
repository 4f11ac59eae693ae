"""A small SQL lexer for the texts ddlc must read itself (openGauss/GaussDB dialect).

Used by the CREATE FUNCTION text parser (``pg_get_functiondef`` output, reference §5.8) and by the
TDDL recovery (:mod:`ddlc.frontend.recover`): both need token positions in the *original* text
(so that bodies, types and defaults are sliced out untouched) and must survive constructs pglast
does not know (``:=``, ``%ROWTYPE``, Oracle-style bodies).

Tokens: ``word`` (bare identifier or keyword), ``qident`` (``"quoted"``), ``string`` (``'...'``,
``E'...'``, ``N'...'``, ``X'...'``, ``B'...'``), ``dollar`` (``$tag$...$tag$``), ``number``,
``param`` (``$1``), ``punct`` (one of ``( ) [ ] , ; .``) and ``op`` (runs of operator characters).
Whitespace and comments (``--``, nested ``/* */``) are skipped.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass


class ScanError(ValueError):
    """An unterminated quote, dollar quote or comment."""

    def __init__(self, message: str, pos: int) -> None:
        super().__init__(f"{message} at offset {pos}")
        self.pos = pos


@dataclass(frozen=True, slots=True)
class Tok:
    kind: str
    text: str  # the exact source text of the token
    start: int
    end: int  # exclusive

    @property
    def upper(self) -> str:
        """The keyword spelling of a bare word (``""`` for any other token)."""
        return self.text.upper() if self.kind == "word" else ""

    def is_word(self, *words: str) -> bool:
        return self.kind == "word" and self.text.upper() in words


# identifier characters: ASCII letters, digits, "_", "$" and any non-ASCII character (written as
# negated ASCII classes, which compile ~100x faster than the equivalent \u0080-\U0010ffff ranges)
_WORD = re.compile(r"[^\x00-\x40\x5b-\x5e\x60\x7b-\x7f][^\x00-\x23\x25-\x2f\x3a-\x40\x5b-\x5e\x60\x7b-\x7f]*")
_NUMBER = re.compile(r"(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
_PARAM = re.compile(r"\$\d+")
_DOLLAR_TAG = re.compile(r"\$(?:[^\x00-\x40\x5b-\x5e\x60\x7b-\x7f][^\x00-\x2f\x3a-\x40\x5b-\x5e\x60\x7b-\x7f]*)?\$")
_OPCHARS = "+-*/<>=~!@#%^&|`?:"
_PUNCT = "()[],;."


def dollar_tag_at(text: str, pos: int) -> str | None:
    """The dollar-quote tag (``$function$``, ``$$``) opening at ``pos``, or None."""
    m = _DOLLAR_TAG.match(text, pos)
    return m.group(0) if m else None


def skip_space(text: str, pos: int) -> int:
    """Skip blanks and comments from ``pos``."""
    n = len(text)
    while pos < n:
        c = text[pos]
        if c.isspace():
            pos += 1
        elif text.startswith("--", pos):
            nl = text.find("\n", pos)
            pos = n if nl < 0 else nl + 1
        elif text.startswith("/*", pos):
            depth, j = 1, pos + 2
            while depth:
                a, b = text.find("/*", j), text.find("*/", j)
                if b < 0:
                    raise ScanError("unterminated /* comment", pos)
                if 0 <= a < b:
                    depth, j = depth + 1, a + 2
                else:
                    depth, j = depth - 1, b + 2
            pos = j
        else:
            break
    return pos


def _quoted_end(text: str, pos: int, quote: str, backslash: bool) -> int:
    """End (exclusive) of a quoted token whose opening quote is at ``pos``."""
    j, n = pos + 1, len(text)
    while j < n:
        c = text[j]
        if backslash and c == "\\":
            j += 2
            continue
        if c == quote:
            if j + 1 < n and text[j + 1] == quote:
                j += 2
                continue
            return j + 1
        j += 1
    raise ScanError(f"unterminated {quote} quote", pos)


def token_at(text: str, pos: int) -> Tok:
    """The token starting exactly at ``pos`` (no blanks skipped)."""
    c = text[pos]
    if c == "'":
        return Tok("string", text[pos:(e := _quoted_end(text, pos, "'", False))], pos, e)
    if c == '"':
        return Tok("qident", text[pos:(e := _quoted_end(text, pos, '"', False))], pos, e)
    if c == "$":
        tag = dollar_tag_at(text, pos)
        if tag is not None:
            close = text.find(tag, pos + len(tag))
            if close < 0:
                raise ScanError(f"unterminated dollar quote {tag}", pos)
            e = close + len(tag)
            return Tok("dollar", text[pos:e], pos, e)
        m = _PARAM.match(text, pos)
        if m:
            return Tok("param", m.group(0), pos, m.end())
    if c in "eEnNxXbB" and pos + 1 < len(text) and text[pos + 1] == "'":
        e = _quoted_end(text, pos + 1, "'", c in "eE")
        return Tok("string", text[pos:e], pos, e)
    m = _WORD.match(text, pos)
    if m:
        return Tok("word", m.group(0), pos, m.end())
    m = _NUMBER.match(text, pos)
    if m:
        return Tok("number", m.group(0), pos, m.end())
    if c in _PUNCT:
        return Tok("punct", c, pos, pos + 1)
    if c in _OPCHARS:
        j = pos
        while j < len(text) and text[j] in _OPCHARS and not text.startswith(("--", "/*"), j):
            j += 1
        if j == pos:  # an operator run starting with a comment opener cannot happen here
            j = pos + 1
        return Tok("op", text[pos:j], pos, j)
    return Tok("op", c, pos, pos + 1)  # any other character stands alone


def tokens(text: str, pos: int = 0, end: int | None = None) -> Iterator[Tok]:
    """Tokens of ``text[pos:end]`` (a token may not cross ``end``)."""
    limit = len(text) if end is None else end
    while True:
        pos = skip_space(text, pos)
        if pos >= limit:
            return
        tok = token_at(text, pos)
        if tok.end > limit:
            raise ScanError("token crosses the end of the fragment", pos)
        yield tok
        pos = tok.end


def tokenize(text: str, pos: int = 0, end: int | None = None) -> list[Tok]:
    return list(tokens(text, pos, end))


def ident_value(tok: Tok) -> str:
    """The name a bare or quoted identifier token denotes (bare words fold to lower case)."""
    if tok.kind == "qident":
        return tok.text[1:-1].replace('""', '"')
    return tok.text.lower()


def string_value(tok: Tok) -> str:
    """The value of a ``'...'`` (or ``E'...'``) string or dollar-quoted token."""
    t = tok.text
    if tok.kind == "dollar":
        tag = dollar_tag_at(t, 0) or "$$"
        return t[len(tag):-len(tag)]
    if t[0] in "eE":
        return _unescape_e(t[2:-1])
    if t[0] != "'":
        t = t[1:]
    return t[1:-1].replace("''", "'")


_E_ESCAPES = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


def _unescape_e(s: str) -> str:
    out, i = [], 0
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            nxt = s[i + 1]
            out.append(_E_ESCAPES.get(nxt, nxt))
            i += 2
        elif c == "'" and s.startswith("''", i):
            out.append("'")
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def is_ident(tok: Tok) -> bool:
    return tok.kind in ("word", "qident")


def matching_paren(toks: list[Tok], i: int) -> int:
    """Index of the ``)`` closing the ``(`` at ``toks[i]`` (ValueError when unbalanced)."""
    depth = 0
    for j in range(i, len(toks)):
        t = toks[j]
        if t.kind == "punct":
            if t.text in "([":
                depth += 1
            elif t.text in ")]":
                depth -= 1
                if depth == 0:
                    return j
    raise ValueError("unbalanced parentheses")


def split_top(toks: list[Tok], sep: str = ",") -> list[list[Tok]]:
    """Split a token list at depth-0 ``sep`` punctuation."""
    out: list[list[Tok]] = [[]]
    depth = 0
    for t in toks:
        if t.kind == "punct" and t.text in "([":
            depth += 1
        elif t.kind == "punct" and t.text in ")]":
            depth -= 1
        elif depth == 0 and t.kind == "punct" and t.text == sep:
            out.append([])
            continue
        out[-1].append(t)
    return out


def read_qualified(toks: list[Tok], i: int) -> tuple[list[str], int]:
    """``ident(.ident)*`` from ``toks[i]``: (names, index after). ValueError when none."""
    if i >= len(toks) or not is_ident(toks[i]):
        raise ValueError("identifier expected")
    names = [ident_value(toks[i])]
    i += 1
    while i + 1 < len(toks) and toks[i].kind == "punct" and toks[i].text == "." and is_ident(toks[i + 1]):
        names.append(ident_value(toks[i + 1]))
        i += 2
    return names, i


__all__ = [
    "ScanError", "Tok", "tokens", "tokenize", "token_at", "skip_space", "dollar_tag_at", "ident_value",
    "string_value", "is_ident", "matching_paren", "split_top", "read_qualified",
]
