"""The tokens of a partition clause (:mod:`ddlc.frontend.sql.partition`'s parser reads them): the common
clause by one pattern (:func:`tokens`), any other through the SQL layer's lexer (:func:`scanned_tokens`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple, NoReturn

from ... import lazyre
from .lexer import fold, scan, unescape_e

__all__ = ["Tok", "tokens", "scanned_tokens"]


class Tok(NamedTuple):
    """A token of a partition clause."""

    kind: str  # "ident", "qident", "number", "string", "punct", "eof"
    text: str  # exact source text
    pos: int  # 0-based offset of the first character
    value: str = ""  # ident: folded name; qident/string: unescaped body; punct: the operator

    @property
    def end(self) -> int:
        return self.pos + len(self.text)


_PUNCT_CHARS = frozenset("(),;.+-*/%[]<>=")


# The common clause (ASCII, no comment, no escape, no doubled or glued quote, no prefixed string) in one
# regex, a match a token with the blanks before it: each alternative is exactly the token scan() gives there
# and scanned_tokens keeps (the word's lookahead leaves a prefixed string E'..', X'..' to scan; a string
# followed by an identifier character, which glued quotes may continue, and a zero-length quoted name do not
# match). A text the matches do not cover (but its trailing blanks) is read by scanned_tokens.
_SIMPLE = lazyre.compile(
    r"([ \t\n\r\f\v]*+)(?:"
    r"(?![eEnNxXbB]')([A-Za-z_][A-Za-z0-9_$]*)"
    r"|((?:[0-9]+(?:\.(?!\.)[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)"
    r"|('[^']*'(?![A-Za-z0-9_$']))"
    r"|(\"[^\"]+\"(?!\"))"
    r"|(::|\|\||[()\[\],;.+*%<>=]|-(?!-)|/(?!\*)))"
)
_BLANKS = " \t\n\r\f\v"
_new = tuple.__new__


def tokens(text: str, fail: Callable[[str, int], NoReturn]) -> list[Tok]:
    """The clause's tokens (blanks and comments skipped) and a final ``eof``; the punctuation of a
    partition clause only: ``::``, ``||`` and ``( ) , ; . + - * / % [ ] < > =``."""
    out: list[Tok] = []
    append = out.append
    pos = 0  # where the next match starts, when the matches are contiguous (checked at the end)
    for blanks, word, number, string, qident, punct in _SIMPLE.findall(text):
        pos += len(blanks)
        if word:
            append(_new(Tok, ("ident", word, pos, word.lower())))
            pos += len(word)
        elif punct:
            append(_new(Tok, ("punct", punct, pos, punct)))
            pos += len(punct)
        elif number:
            append(_new(Tok, ("number", number, pos, number)))
            pos += len(number)
        elif string:
            append(_new(Tok, ("string", string, pos, string[1:-1])))
            pos += len(string)
        else:
            append(_new(Tok, ("qident", qident, pos, qident[1:-1])))
            pos += len(qident)
    if pos != len(text.rstrip(_BLANKS)):  # a gap between two matches (no token ends with a blank)
        return scanned_tokens(text, fail)
    append(_new(Tok, ("eof", "", len(text), "")))
    return out


def scanned_tokens(text: str, fail: Callable[[str, int], NoReturn]) -> list[Tok]:
    """:func:`tokens` of any text, through the SQL layer's lexer."""
    out: list[Tok] = []
    append = out.append
    for kind, s, e in scan(text, glued_quotes=True):
        if kind == "space" or kind == "comment":
            continue
        t = text[s:e]
        if kind == "word":
            append(Tok("ident", t, s, fold(t)))
        elif kind == "punct":
            append(Tok("punct", t, s, t))
        elif kind == "number":
            append(Tok("number", t, s, t))
        elif kind == "string":
            c = t[0]
            if c in "xXbB":  # no bit strings here: the letter is a name, then a string
                append(Tok("ident", c, s, fold(c)))
                t, s = t[1:], s + 1
            elif c in "eE":
                append(Tok("string", t, s, unescape_e(t[2:-1])))
                continue
            append(Tok("string", t, s, (t if t[0] == "'" else t[1:])[1:-1].replace("''", "'")))
        elif kind == "qident":
            if e - s == 2:
                fail("zero-length delimited identifier", s)
            append(Tok("qident", t, s, t[1:-1].replace('""', '"')))
        elif kind == "op":
            i = s
            while i < e:
                two = text[i:i + 2]
                if two == "::" or two == "||":
                    append(Tok("punct", two, i, two))
                    i += 2
                elif text[i] in _PUNCT_CHARS:
                    append(Tok("punct", text[i], i, text[i]))
                    i += 1
                else:
                    fail(f"unexpected character {text[i]!r}", i)
        elif kind == "error":
            c = text[s]
            if c == "/":
                fail("unterminated comment", s)
            if c == '"':
                fail("unterminated quoted identifier", s)
            if c == "$":
                fail("unexpected character '$'", s)
            fail("unterminated quoted string", s + 1 if c in "xXbB" else s)
        else:  # dollar, param
            fail("unexpected character '$'", s)
    append(Tok("eof", "", len(text)))
    return out
