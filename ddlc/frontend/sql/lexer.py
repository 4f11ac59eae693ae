"""The SQL layer's one lexer: GaussDB/openGauss lexical rules, one compiled master regex.

The SQL texts the frontend reads itself rather than through PostgreSQL's grammar (pglast) are lexed
here: index definitions, object identities, partition clauses, CREATE FUNCTION headers, TDDL
statements, constraint column lists, and the positions of the object references the passes rename
inside SQL fragments. :func:`scan` cuts a text into ``(kind, start, end)`` spans that cover it
exactly (joined back they give the text), with these kinds:

* ``space``: a run of ``[ \\t\\n\\r\\f\\v]`` (the server's whitespace; any other character, non-ASCII
  blanks included, is an identifier character or stands alone, as in the server's lexer);
* ``comment``: ``-- ...`` to the end of the line (the newline is ``space``), or ``/* ... */`` with nesting;
* ``word``: a bare identifier or keyword: an ASCII letter, ``_`` or any non-ASCII character, then those,
  ASCII digits and ``$``;
* ``qident``: ``"quoted"``, ``""`` standing for one ``"``;
* ``string``: ``'...'`` (``''`` for a quote), ``E'...'`` (backslash escapes too), ``N'...'``,
  ``X'...'``, ``B'...'`` (two strings separated by a newline, which the server joins into one
  constant, are two tokens);
* ``dollar``: ``$tag$ ... $tag$`` (``$$ ... $$``), the body untouched;
* ``param``: ``$1``;
* ``number``: ``12``, ``1.5``, ``.5``, ``1e-3`` (``1..2`` is ``1``, ``.``, ``.2``);
* ``punct``: one of ``( ) [ ] , ; .``;
* ``op``: a run of ``+ - * / < > = ~ ! @ # % ^ & | ` ? :`` that does not run into a comment, or any
  other single character;
* ``error``: an unterminated quote, quoted identifier, dollar quote or comment: from its start to
  the end of the text (:func:`error_message` says which).

``glued_quotes=True`` reads strings the way openGauss prints partition bounds, without doubling the
quotes inside (``'it's'``): a quote followed by an identifier character does not end the string when
another quote follows somewhere.

On top of :func:`scan`: :func:`tokens` / :func:`token_at` (:class:`Tok`, blanks and comments
skipped, :class:`ScanError` on an unterminated token), the token helpers the parsers share
(:func:`ident_value`, :func:`string_value`, :func:`split_top`, :func:`read_qualified`...), and
:class:`Cursor`, a position in a text for the parsers of the server's fixed layouts (index
definitions, identities) that read tokens there and match the layout's literal spacing exactly.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple
from ... import lazyre

# identifier characters: ASCII letters, digits, "_", "$" and any non-ASCII character (negated ASCII
# classes: the same sets as \u0080-\U0010ffff ranges, ~100x faster to compile)
_START = r"[^\x00-\x40\x5b-\x5e\x60\x7b-\x7f]"
_CONT = r"[^\x00-\x23\x25-\x2f\x3a-\x40\x5b-\x5e\x60\x7b-\x7f]"
_TAG_CONT = r"[^\x00-\x2f\x3a-\x40\x5b-\x5e\x60\x7b-\x7f]"  # a dollar-quote tag: no "$"
_TAG = rf"(?:{_START}{_TAG_CONT}*)?"

# A closing quote is never followed by another (a doubled quote): (?!') keeps an unterminated string from ending
# early, as a left-to-right scanner would. Bodies are read in atomic groups (?>x*) (never x*+: 3.11.0-3.11.4 match it
# wrongly; tests/test_regex_portable.py), a run of plain characters at once (~4x fewer instructions): their pieces
# cut them one way only, and they end only at a quote no other follows
_STRINGS = r"[eE]'(?>[^'\\]*)(?>(?:(?:\\[\s\S]|'')(?>[^'\\]*))*)'(?!')|[nNxXbB]?'(?>[^']*)(?>(?:''(?>[^']*))*)'(?!')"
_GLUED = r"(?=[\s\S]*')"  # another quote follows somewhere
_STRINGS_GLUED = (rf"[eE]'(?=(?P<ge>(?:[^'\\]|\\[\s\S]|''|'(?={_CONT}){_GLUED})*))(?P=ge)'"
                  rf"|[nNxXbB]?'(?=(?P<gs>(?:[^']|''|'(?={_CONT}){_GLUED})*))(?P=gs)'")


_SPACE_RX = r"[ \t\n\r\f\v]+"
# a flat comment's body in atomic groups (as a string's): it can end only at its first "*/"
_COMMENT_RX = r"--[^\n\r]*|/\*(?>[^*/]*)(?>(?:(?:\*(?!/)|/(?!\*))(?>[^*/]*))*)\*/"
# the blanks and comments before a token, atomic: blank runs between comments (each starts with its own character)
_SKIP_RX = rf"(?>[ \t\n\r\f\v]*)(?>(?:(?:{_COMMENT_RX})(?>[ \t\n\r\f\v]*))*)"


def _kinds(strings: str) -> tuple[tuple[str, str], ...]:
    """The token kinds but blanks and comments, in the order the master regex tries them: a word first (most
    tokens are), but for the letters that start a string (``E'``, ``N'``, ``X'``, ``B'``), the only kinds a word's
    first character starts too; the bodies of quoted identifiers and dollar quotes in atomic groups (as a
    string's: a dollar quote ends at the first ``$tag$``, which no piece of its body starts)."""
    return (
        ("word", rf"(?![eEnNxXbB]'){_START}{_CONT}*"),
        ("nested", r"/\*"),  # a comment with a comment inside, or unterminated: finished in Python
        ("string", strings),
        ("qident", r'"(?>[^"]*)(?>(?:""(?>[^"]*))*)"(?!")'),
        ("dollar", rf"\$(?P<tag>{_TAG})\$(?>[^$]*)(?>(?:\$(?!(?P=tag)\$)(?>[^$]*))*)\$(?P=tag)\$"),
        ("param", r"\$[0-9]+"),
        ("error", rf"[eEnNxXbB]?'[\s\S]*|\"[\s\S]*|\${_TAG}\$[\s\S]*"),  # what did not close above
        ("number", r"(?:[0-9]+(?:\.(?!\.)[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"),
        ("punct", r"[()\[\],;.]"),
        ("op", r"(?:[+*<>=~!@#%^&|`?:]|-(?!-)|/(?!\*))+|[\s\S]"),
    )


def _master(strings: str) -> re.Pattern[str]:
    return re.compile("|".join(f"(?P<{k}>{p})" for k, p in (("space", _SPACE_RX), ("comment", _COMMENT_RX),
                                                              *_kinds(strings))))


def _skipping() -> re.Pattern[str]:
    """The master regex's blanks and comments (flat ones: a nested comment is the ``nested`` token) taken
    before each token, in atomic groups: one match a token, or, at the end (blanks and comments aside), an empty
    one whose ``lastgroup`` is None."""
    alts = "|".join(f"(?P<{k}>{p})" for k, p in _kinds(_STRINGS))
    return re.compile(rf"{_SKIP_RX}(?:{alts}|\Z)")


# compiled on first use (~1.5 ms each: start-up time of documents that never need them)
_LEX: re.Pattern[str] | None = None
_LEX_SKIPPING: re.Pattern[str] | None = None  # Lexed's (tokens only)
_LEX_GLUED: re.Pattern[str] | None = None  # partition clauses only


def _lexer(glued_quotes: bool = False) -> re.Pattern[str]:
    global _LEX, _LEX_GLUED
    if glued_quotes:
        if _LEX_GLUED is None:
            _LEX_GLUED = _master(_STRINGS_GLUED)
        return _LEX_GLUED
    if _LEX is None:
        _LEX = _master(_STRINGS)
    return _LEX


def _nested_end(text: str, pos: int) -> int:
    """End of the nested ``/* ... */`` comment opening at ``pos``; -1 when it is not closed."""
    depth, j = 1, pos + 2
    a, b = text.find("/*", j), text.find("*/", j)  # each found again only once passed: linear time
    while depth:
        if b < 0:
            return -1
        if 0 <= a < b:
            depth, j = depth + 1, a + 2
        else:
            depth, j = depth - 1, b + 2
        if 0 <= a < j:
            a = text.find("/*", j)
        if b < j:
            b = text.find("*/", j)
    return j


def scan(text: str, pos: int = 0, *, glued_quotes: bool = False) -> Iterator[tuple[str, int, int]]:
    """``(kind, start, end)`` of every token of ``text[pos:]``, blanks and comments included (see the
    module docstring); an ``error`` token, when there is one, is the last."""
    rx = _lexer(glued_quotes)
    n = len(text)
    while pos < n:
        for m in rx.finditer(text, pos):
            kind = m.lastgroup
            if kind == "nested":
                start = m.start()
                end = _nested_end(text, start)
                if end < 0:
                    yield "error", start, n
                    return
                yield "comment", start, end
                pos = end
                break  # start again after the comment
            yield kind, m.start(), m.end()  # type: ignore[misc]
        else:
            return


def token_spans(text: str, pos: int = 0) -> Iterator[tuple[str, int, int]]:
    """:func:`scan` without the blanks and comments: ``(kind, start, end)`` of each other token of ``text[pos:]``
    (``pos`` where :func:`scan` would cut), one regex match a token (:func:`_skipping`)."""
    global _LEX_SKIPPING
    rx = _LEX_SKIPPING or (_LEX_SKIPPING := _skipping())
    n = len(text)
    while pos < n:
        for m in rx.finditer(text, pos):
            kind = m.lastgroup
            if kind is None:  # the end
                return
            start = m.start(kind)
            if kind == "nested":
                end = _nested_end(text, start)
                if end < 0:
                    yield "error", start, n
                    return
                pos = end
                break  # start again after the comment
            yield kind, start, m.end()  # type: ignore[misc]
        else:
            return


# The last text a reader lexed in full (no unterminated token) and its tokens but blanks and comments, as
# token_spans gives them: the next reader of the same text (the same string) takes them rather than lexing it
# again (a routine's text: its slot check, then the function-text reader). One text only, replaced as a whole.
_REMEMBERED: tuple[str, list[tuple[str, int, int]]] | None = None


def remember_spans(text: str, spans: list[tuple[str, int, int]]) -> None:
    """Keep ``spans``, every token of ``text`` but blanks and comments (``text`` lexed to its end, none
    unterminated), for :func:`remembered_spans`."""
    global _REMEMBERED
    _REMEMBERED = (text, spans)


def remembered_spans(text: str) -> list[tuple[str, int, int]] | None:
    """The spans :func:`remember_spans` kept for this very string (``is``), or None."""
    got = _REMEMBERED
    return got[1] if got is not None and got[0] is text else None


def error_message(text: str, start: int) -> tuple[str, int]:
    """What an ``error`` token starting at ``start`` is: (message, offset of the opening quote)."""
    c = text[start]
    if c == "/":
        return "unterminated /* comment", start
    if c == '"':
        return 'unterminated " quote', start
    if c == "$":
        return f"unterminated dollar quote {dollar_tag_at(text, start)}", start
    return "unterminated ' quote", start if c == "'" else start + 1


# ---- tokens -------------------------------------------------------------------------------------
class ScanError(ValueError):
    """An unterminated quote, dollar quote or comment."""

    def __init__(self, message: str, pos: int) -> None:
        super().__init__(f"{message} at offset {pos}")
        self.pos = pos


_ASCII_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def fold(name: str) -> str:
    """The server's downcasing of an unquoted identifier: ASCII letters only."""
    return name.lower() if name.isascii() else name.translate(_ASCII_LOWER)


def keyword(word: str) -> str:
    """A bare word as a keyword: ASCII letters upper-cased (keywords are ASCII)."""
    return word.upper() if word.isascii() else word.translate(_ASCII_UPPER)


class Tok(NamedTuple):
    """A token of :func:`tokens`: ``kind`` as in :func:`scan`, the exact source ``text``, ``[start, end)``."""

    kind: str
    text: str
    start: int
    end: int

    @property
    def upper(self) -> str:
        """The keyword spelling of a bare word (``""`` for any other token)."""
        return keyword(self.text) if self.kind == "word" else ""


_SKIPPED = frozenset({"space", "comment"})
# a Tok made as NamedTuple's own __new__ makes it (tuple.__new__ of its fields), without that Python frame: the
# lexer makes one per token read (issue 26)
_tok = tuple.__new__


def tokens(text: str, pos: int = 0, end: int | None = None) -> Iterator[Tok]:
    """The tokens of ``text[pos:end]``, blanks and comments skipped (a token may not cross ``end``).

    Lazy: the tokens before an unterminated one come out before the :class:`ScanError`."""
    limit = len(text) if end is None else end
    for kind, s, e in token_spans(text, pos):  # (a blank or a comment that reaches the limit: the next token is past it)
        if s >= limit:
            return
        if kind == "error":
            raise ScanError(*error_message(text, s))
        if e > limit:
            raise ScanError("token crosses the end of the fragment", s)
        yield _tok(Tok, (kind, text[s:e], s, e))


def tokenize(text: str, pos: int = 0, end: int | None = None) -> list[Tok]:
    return list(tokens(text, pos, end))


class Lexed:
    """The tokens of one text, scanned once for every reader of it (blanks and comments skipped), and
    only as far as the readers have asked: :meth:`head` reads the first few, :meth:`upto` all those
    before an offset. Each answers exactly as :func:`tokens` / :func:`tokenize` would on the text. ``notes``:
    what a reader worked out from the tokens, for the others (the statement's kind...)."""

    __slots__ = ("text", "notes", "_toks", "_scan", "_error")

    def __init__(self, text: str) -> None:
        self.text = text
        self.notes: dict[str, object] = {}
        self._toks: list[Tok] = []
        self._scan: Iterator[tuple[str, int, int]] | None = token_spans(text)
        self._error = -1  # where the text's error token (an unterminated one) starts, once scanned to it

    def _more(self, n: int | None) -> None:
        """Scan until ``n`` tokens are read (None: to the end)."""
        it = self._scan
        if it is None:
            return
        text, toks = self.text, self._toks
        for kind, s, e in it:
            if kind == "error":  # always the last span scan gives
                self._error = s
                break
            toks.append(_tok(Tok, (kind, text[s:e], s, e)))
            if n is not None and len(toks) >= n:
                return
        self._scan = None

    def head(self, n: int) -> list[Tok]:
        """The first ``n`` tokens, or those before an unterminated one (never raises)."""
        if len(self._toks) < n:
            self._more(n)
        return self._toks[:n]

    def upto(self, end: int | None = None) -> list[Tok]:
        """``tokenize(text, 0, end)``, the same tokens or the same :class:`ScanError`."""
        self._more(None)
        toks = self._toks
        limit = len(self.text) if end is None else end
        k = len(toks)
        while k and toks[k - 1].start >= limit:  # a statement's ';' (no more work than scanning them was)
            k -= 1
        if k and toks[k - 1].end > limit:
            raise ScanError("token crosses the end of the fragment", toks[k - 1].start)
        if k == len(toks) and 0 <= self._error < limit:
            raise ScanError(*error_message(self.text, self._error))
        return toks[:k]


def _span_at(text: str, pos: int) -> tuple[str, int, int]:
    """``(kind, start, end)`` of the token starting at ``pos`` (< len(text)), as :func:`scan` cuts it."""
    m = (_LEX or _lexer()).match(text, pos)
    kind = m.lastgroup  # type: ignore[union-attr]
    if kind == "nested":
        end = _nested_end(text, pos)
        return ("error", pos, len(text)) if end < 0 else ("comment", pos, end)
    return kind, pos, m.end()  # type: ignore[return-value,union-attr]


def token_at(text: str, pos: int) -> Tok:
    """The token starting exactly at ``pos`` (no blanks skipped: a blank run or a comment is a token)."""
    kind, s, e = _span_at(text, pos)
    if kind == "error":
        raise ScanError(*error_message(text, s))
    return _tok(Tok, (kind, text[s:e], s, e))


_BLANKS = lazyre.compile(r"(?:[ \t\n\r\f\v]+|--[^\n\r]*|/\*(?:[^*/]|\*(?!/)|/(?!\*))*\*/)*")


def skip_space(text: str, pos: int) -> int:
    """Skip blanks and comments from ``pos`` (:class:`ScanError` on an unterminated comment)."""
    while True:
        pos = _BLANKS.match(text, pos).end()  # type: ignore[union-attr]
        if not text.startswith("/*", pos):
            return pos
        end = _nested_end(text, pos)
        if end < 0:
            raise ScanError("unterminated /* comment", pos)
        pos = end


def dollar_tag_at(text: str, pos: int) -> str | None:
    """The dollar-quote tag (``$function$``, ``$$``) opening at ``pos``, or None."""
    m = _DOLLAR_TAG.match(text, pos)
    return m.group(0) if m else None


_DOLLAR_TAG = lazyre.compile(rf"\${_TAG}\$")


def ident_value(tok: Tok) -> str:
    """The name a bare (folded, ASCII only) or quoted identifier token denotes."""
    if tok.kind == "qident":
        return tok.text[1:-1].replace('""', '"')
    return fold(tok.text)


def string_value(tok: Tok) -> str:
    """The value of a ``'...'`` (``E'...'``, ``N'...'``...) string or dollar-quoted token."""
    t = tok.text
    if tok.kind == "dollar":
        tag = dollar_tag_at(t, 0) or "$$"
        return t[len(tag):-len(tag)]
    if t[0] in "eE":
        return unescape_e(t[2:-1])
    if t[0] != "'":
        t = t[1:]
    return t[1:-1].replace("''", "'")


E_ESCAPES = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


def unescape_e(s: str) -> str:
    """The body of an ``E'...'`` string: ``\\n``-style escapes and ``''`` read (a lone quote, which
    :func:`scan`'s ``glued_quotes`` lets in, is kept)."""
    out, i = [], 0
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            nxt = s[i + 1]
            out.append(E_ESCAPES.get(nxt, nxt))
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


def closing_paren(text: str, open_at: int) -> int | None:
    """Offset of the ``)`` closing the ``(`` at ``open_at`` (quotes, comments skipped), or None."""
    depth = 0
    for kind, s, _ in scan(text, open_at):
        if kind == "punct":
            c = text[s]
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
                if depth == 0:
                    return s
        elif kind == "error":
            return None
    return None


def split_commas(text: str) -> list[str]:
    """``text`` cut at its commas outside parentheses, quotes and comments."""
    out: list[str] = []
    depth = start = 0
    for kind, s, _ in scan(text):
        if kind == "punct":
            c = text[s]
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
            elif c == "," and depth == 0:
                out.append(text[start:s])
                start = s + 1
    out.append(text[start:])
    return out


# ---- a cursor for the server's fixed layouts ---------------------------------------------------------
class ScanFail(Exception):
    """The text does not have the expected form (callers turn it into a diagnostic)."""


_SPACE = lazyre.compile(r"[ \t\n\r\f\v]*")
# the server's whitespace, for str.strip: Python's own also strips \x1c-\x1f, \x85 and Unicode spaces,
# which PostgreSQL reads as part of a token (a fragment parsed without them is not the one written)
BLANK = " \t\n\r\f\v"


class Cursor:
    """A position in a pre-rendered text (an index definition, an object identity).

    The server prints these in a fixed layout: :meth:`at` / :meth:`eat` / :meth:`need` match its
    literal spacing and punctuation exactly; identifiers, words and parenthesized groups are read as
    tokens of :func:`scan`.
    """

    __slots__ = ("s", "i", "_known")

    def __init__(self, s: str) -> None:
        self.s = s
        self.i = 0
        self._known: dict[int, Tok] = {}  # position -> the token there (peeked again after a look or a step back)

    def fail(self, why: str) -> ScanFail:
        return ScanFail(f"{why} at offset {self.i}")

    def at(self, t: str) -> bool:
        return self.s.startswith(t, self.i)

    def eat(self, t: str) -> bool:
        if self.s.startswith(t, self.i):
            self.i += len(t)
            return True
        return False

    def need(self, t: str) -> None:
        if not self.eat(t):
            raise self.fail(f"{t!r} expected")

    def blanks(self) -> bool:
        j = self.i
        self.i = _SPACE.match(self.s, j).end()  # type: ignore[union-attr]
        return self.i > j

    def eof(self) -> bool:
        return self.i >= len(self.s)

    def peek(self) -> Tok | None:
        """The token at the position (None at the end); an unterminated one fails."""
        i = self.i
        t = self._known.get(i)
        if t is not None:
            return t
        s = self.s
        if i >= len(s):
            return None
        m = (_LEX or _lexer()).match(s, i)  # token_at's, inline (the parsers' most frequent call)
        kind = m.lastgroup  # type: ignore[union-attr]
        if kind == "nested" or kind == "error":  # a comment to finish, or an unterminated token
            try:
                t = token_at(s, i)
            except ScanError as e:
                raise ScanFail(str(e)) from None
        else:
            e = m.end()  # type: ignore[union-attr]
            t = _tok(Tok, (kind, s[i:e], i, e))
        self._known[i] = t  # lexed once per position (an error is raised again, as it was)
        return t

    def peek_word(self) -> str | None:
        """The bare word at the position, folded to lower case, without consuming it."""
        t = self.peek()
        return fold(t.text) if t is not None and t.kind == "word" else None

    def word(self, w: str) -> bool:
        """Consume the bare keyword ``w`` (case-insensitive) if it is next."""
        t = self.peek()
        if t is not None and t.kind == "word" and fold(t.text) == w.lower():
            self.i = t.end
            return True
        return False

    def ident_token(self) -> tuple[str, bool]:
        """A quoted (``"a""b"``) or bare identifier: (name, quoted); bare words kept as written."""
        t = self.peek()
        if t is None or t.kind not in ("word", "qident"):
            raise self.fail("identifier expected")
        self.i = t.end
        if t.kind == "qident":
            return t.text[1:-1].replace('""', '"'), True
        return t.text, False

    def balanced(self) -> str:
        """``( ... )`` with nesting (quotes, comments and dollar quotes are single tokens); returns
        the text including the parentheses."""
        s, start = self.s, self.i
        depth = 0
        if not s.startswith("(", start):
            raise self.fail("'(' expected")
        for kind, a, b in scan(s, start):
            if kind == "error":
                raise self.fail("unterminated literal")
            if kind == "punct":
                c = s[a]
                if c == "(":
                    depth += 1
                elif c == ")":
                    depth -= 1
                    if depth == 0:
                        self.i = b
                        return s[start:b]
        raise self.fail("unbalanced parentheses")


__all__ = [
    "BLANK",
    "remember_spans", "remembered_spans", "token_spans",
    "scan", "error_message", "ScanError", "Tok", "tokens", "tokenize", "Lexed", "token_at", "skip_space", "dollar_tag_at",
    "fold", "keyword", "ident_value", "string_value", "unescape_e", "is_ident", "split_top",
    "read_qualified", "closing_paren", "split_commas", "ScanFail", "Cursor",
]
