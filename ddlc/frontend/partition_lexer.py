"""The lexer of partition clauses as openGauss prints them (identifiers, strings, numbers, punctuation)."""

from __future__ import annotations

import re
from dataclasses import dataclass

_WS = " \t\n\r\f\v"


@dataclass(frozen=True, slots=True)
class Tok:
    kind: str  # "ident", "qident", "number", "string", "punct", "eof"
    text: str  # exact source text
    pos: int  # 0-based offset of the first character
    value: str = ""  # ident: folded name; qident/string: unescaped body; punct: the operator

    @property
    def end(self) -> int:
        return self.pos + len(self.text)


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
# an unquoted identifier: ASCII letters, "_" or any non-ASCII character, then those, digits and "$"
_IDENT = re.compile(r"[^\x00-\x40\x5b-\x5e\x60\x7b-\x7f][^\x00-\x23\x25-\x2f\x3a-\x40\x5b-\x5e\x60\x7b-\x7f]*")
_BLANK = re.compile(r"[ \t\n\r\f\v]*")


def _fold(name: str) -> str:
    """The server's downcasing of an unquoted identifier: ASCII letters only."""
    return name.translate(_ASCII_LOWER)


def _ident_start(c: str) -> bool:
    return ("a" <= c <= "z") or ("A" <= c <= "Z") or c == "_" or ord(c) >= 0x80


def _ident_cont(c: str) -> bool:
    return _ident_start(c) or c.isdigit() and c.isascii() or c == "$"


class Lexer:
    """Splits the clause into tokens (whitespace and SQL comments are skipped)."""

    def __init__(self, text: str, fail) -> None:
        self.text = text
        self.fail = fail

    def tokens(self) -> list[Tok]:
        text, n, i = self.text, len(self.text), 0
        out: list[Tok] = []
        while True:
            i = self._skip_blank(i)
            if i >= n:
                out.append(Tok("eof", "", n))
                return out
            c = text[i]
            if c == "'" or (c in "eEnN" and text.startswith("'", i + 1)):
                tok = self._string(i)
            elif c == '"':
                tok = self._quoted_ident(i)
            elif c.isdigit() and c.isascii() or (c == "." and i + 1 < n and text[i + 1].isdigit()):
                tok = self._number(i)
            elif _ident_start(c):
                j = _IDENT.match(text, i).end()  # type: ignore[union-attr]
                word = text[i:j]
                tok = Tok("ident", word, i, word.translate(_ASCII_LOWER))
            elif text.startswith("::", i) or text.startswith("||", i):
                tok = Tok("punct", text[i : i + 2], i, text[i : i + 2])
            elif c in "(),;.+-*/%[]<>=":
                tok = Tok("punct", c, i, c)
            else:
                self.fail(f"unexpected character {c!r}", i)
            out.append(tok)
            i = tok.end

    def _skip_blank(self, i: int) -> int:
        text, n = self.text, len(self.text)
        while i < n:
            if text[i] in _WS:
                i = _BLANK.match(text, i).end()  # type: ignore[union-attr]
            elif text.startswith("--", i):
                j = text.find("\n", i)
                i = n if j < 0 else j + 1
            elif text.startswith("/*", i):
                depth, j = 1, i + 2
                while depth and j < n:
                    if text.startswith("/*", j):
                        depth, j = depth + 1, j + 2
                    elif text.startswith("*/", j):
                        depth, j = depth - 1, j + 2
                    else:
                        j += 1
                if depth:
                    self.fail("unterminated comment", i)
                i = j
            else:
                break
        return i

    def _string(self, i: int) -> Tok:
        text, n = self.text, len(self.text)
        escape = text[i] in "eE"
        start = i
        j = i + (1 if text[i] != "'" else 0) + 1  # past the opening quote
        body: list[str] = []
        while True:
            if j >= n:
                self.fail("unterminated quoted string", start)
            c = text[j]
            if c == "'":
                if text.startswith("''", j):
                    body.append("'")
                    j += 2
                    continue
                if j + 1 < n and _ident_cont(text[j + 1]) and "'" in text[j + 1 :]:
                    # openGauss prints bound strings without doubling quotes ('it's'); a quote
                    # glued to a letter or digit cannot end a literal in valid SQL, so keep it
                    body.append(c)
                    j += 1
                    continue
                j += 1
                break
            if escape and c == "\\" and j + 1 < n:
                nxt = text[j + 1]
                body.append({"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f"}.get(nxt, nxt))
                j += 2
                continue
            body.append(c)
            j += 1
        return Tok("string", text[start:j], start, "".join(body))

    def _quoted_ident(self, i: int) -> Tok:
        text, n = self.text, len(self.text)
        j, body = i + 1, []
        while True:
            if j >= n:
                self.fail("unterminated quoted identifier", i)
            if text[j] == '"':
                if text.startswith('""', j):
                    body.append('"')
                    j += 2
                    continue
                j += 1
                break
            body.append(text[j])
            j += 1
        if not body:
            self.fail("zero-length delimited identifier", i)
        return Tok("qident", text[i:j], i, "".join(body))

    def _number(self, i: int) -> Tok:
        text, n = self.text, len(self.text)
        j = i
        while j < n and text[j].isdigit() and text[j].isascii():
            j += 1
        if j < n and text[j] == "." and not text.startswith("..", j):
            j += 1
            while j < n and text[j].isdigit() and text[j].isascii():
                j += 1
        if j < n and text[j] in "eE":
            k = j + 1
            if k < n and text[k] in "+-":
                k += 1
            if k < n and text[k].isdigit():
                j = k
                while j < n and text[j].isdigit() and text[j].isascii():
                    j += 1
        return Tok("number", text[i:j], i, text[i:j])
