"""The token-level check every server-rendered SQL fragment passes, on every target.

A fragment (a DEFAULT, a CHECK body, a generation expression, a view query, an index or constraint
definition) is pasted into its statement by the template, and the GaussDB target writes it back byte for
byte. So that no fragment can end its statement, start another, or leave a quote or comment open for the
text after it, each is lexed once at build time (:mod:`.lexer`) and refused (``DDLC-E011``, for its
document only) when it has:

* an unterminated quote, quoted name, dollar quote or comment;
* a ``;`` outside quotes (a query may end with one: the server prints views that way);
* unbalanced parentheses;
* a line that starts with ``\\`` outside quotes (``psql -f`` runs it as a meta-command: ``\\! cmd``);
* a ``/`` alone on a line (gsql ends a block there).

The server never writes such a fragment: a document that has one was altered.

Comments are not errors here: :func:`comments` says whether a fragment holds one. The server never
renders a comment inside a fragment, so a target that pastes a fragment as written (GaussDB) refuses it,
and the others print it from its parse (issue 20, item 3). :func:`open_line_comment` finds the worst
case, a ``--`` comment that runs to the end of the text: pasted, it would swallow whatever the
template writes after the fragment on the same line.

:func:`statement_problem` is the same lexing for a whole statement text the GaussDB target writes as it
came, with no IR to print it from (the expansion of a tree of no known shape): exactly one statement, or
``DDLC-E011``.
"""

from __future__ import annotations

from functools import lru_cache

from ...diagnostics import E_FRAGMENT
from ...errors import DdlcError, Path
from .lexer import error_message, scan
from ... import lazyre


# A text of these characters alone, without "--", lexes to words, numbers, blanks, punctuation and operators
# only: no quote, comment, dollar quote, backslash, ";" or "/" line can be in it, so parentheses are all
# fragment_problem has to look at (the common DEFAULT or expression: issue 26)
_PLAIN = lazyre.compile(r"[A-Za-z0-9_ \t\r\n(),.+*<>=!:%&|^~@#?\[\]-]*\Z")
_PARENS_ONLY = {c: None for c in range(128) if chr(c) not in "()"}


def _paren_problem(text: str) -> str | None:
    """fragment_problem of a text that :data:`_PLAIN` matches: its parentheses, in the order the scan meets
    them (one pass: the depth, never below 0; linear however deep they nest)."""
    depth = 0
    for c in text.translate(_PARENS_ONLY):
        if c == "(":
            depth += 1
        elif depth == 0:
            return "a ')' without its '('"
        else:
            depth -= 1
    return "a '(' without its ')'" if depth else None


@lru_cache(maxsize=8192)
def fragment_problem(text: str, *, query: bool = False, glued_quotes: bool = False) -> str | None:
    """Why ``text`` is not one fragment (see the module docstring), or None. ``glued_quotes``: read the
    server's unescaped quotes in partition bounds (``'it's'``) as one string."""
    if "--" not in text and _PLAIN.match(text):
        return _paren_problem(text)
    if not glued_quotes:
        plain = _plain_once_unquoted(text, query)
        if plain is not None:
            return _paren_problem(plain)
    return _scanned_problem(text, query, glued_quotes)


# a '...' string without a backslash (the same extent whatever the prefix, E'' or N''), a "..." name
_QUOTED = lazyre.compile(r"'[^'\\]*(?:''[^'\\]*)*'|\"[^\"]*(?:\"\"[^\"]*)*\"")
_LAST_SEMICOLON = lazyre.compile(r";[ \t\r\n]*\Z")


def unquoted(text: str) -> str:
    """``text`` with its strings and quoted names (those :data:`_QUOTED` matches) replaced by ``0``."""
    return _QUOTED.sub("0", text) if "'" in text or '"' in text else text


def _plain_once_unquoted(text: str, query: bool) -> str | None:
    """``text`` with its strings and quoted names (those :data:`_QUOTED` matches) replaced by ``0`` and, for
    a query, its one final ``;`` taken off, when what is left is plain (:data:`_PLAIN`, no ``--``): it has
    the same problem as ``text`` (its parentheses, in the same order); else None. Outside quotes a plain
    text has nothing that starts a comment or a dollar quote, so each quote is where the lexer's string or
    name starts, and ends where it does (no backslash in a string)."""
    out = _QUOTED.sub("0", text) if "'" in text or '"' in text else text
    if query:
        m = _LAST_SEMICOLON.search(out)
        if m is not None:
            out = out[: m.start()]
    if out is text or "--" in out or not _PLAIN.match(out):
        return None
    return out


# The texts :func:`clean_fragment` found clean (the slot check's), for the builders' :func:`check_fragment` and
# :func:`has_comment` of the same text: one reading serves both (issue 26). text -> whether only as a query
# (its one final ``;`` taken off). Bounded: emptied past _CLEAN_MAX texts.
_CLEAN: dict[str, bool] = {}
_CLEAN_MAX = 8192


def clean_fragment(text: str, query: bool = False) -> bool:
    """Whether ``text`` is one fragment (``fragment_problem(text, query=query)`` is None) holding no comment
    (``comments(text)`` is ``()``), seen without its tokens: no ``--`` in it, and plain (:data:`_PLAIN`) as it
    is or once its strings and quoted names are taken out (:func:`_plain_once_unquoted`: no ``/`` outside
    quotes either, so no comment), its parentheses balanced. False says nothing: the tokens decide. A text
    found clean is remembered for :func:`check_fragment` and :func:`has_comment`."""
    if "--" in text:
        return False
    if _PLAIN.match(text) is not None:
        rest: str | None = text
    else:
        rest = _plain_once_unquoted(text, query)
        if rest is None:
            return False
    if _paren_problem(rest) is not None:
        return False
    if len(_CLEAN) >= _CLEAN_MAX:
        _CLEAN.clear()
    _CLEAN[text] = query and ";" in text
    return True


def _scanned_problem(text: str, query: bool, glued_quotes: bool) -> str | None:
    """:func:`fragment_problem` by the lexer's tokens."""
    depth = 0
    line_start = True  # at the start of a line, blanks aside
    last_semicolon = -1
    slash_line = False
    for kind, s, e in scan(text, glued_quotes=glued_quotes):
        if kind == "error":
            return "an unterminated quote, quoted name, dollar quote or comment"
        if kind == "space":
            if "\n" in text[s:e] or "\r" in text[s:e]:
                if slash_line:
                    return "a line holding only /"
                line_start = True
            continue
        if kind == "comment":
            continue
        tok = text[s:e]
        if "\\" in tok and kind not in ("string", "qident", "dollar"):  # psql/gsql: a meta-command anywhere
            return "a backslash outside quotes (psql and gsql run a meta-command from it)"
        slash_line = line_start and tok == "/"
        line_start = False
        if last_semicolon >= 0:
            return "a ';' inside the fragment"
        if kind == "punct":
            if tok == "(":
                depth += 1
            elif tok == ")":
                depth -= 1
                if depth < 0:
                    return "a ')' without its '('"
            elif tok == ";":
                if not query:
                    return "a ';' inside the fragment"
                last_semicolon = s
    if slash_line and "\n" in text:
        return "a line holding only /"
    if depth:
        return "a '(' without its ')'"
    return None


def check_fragment(text: str, path: Path, what: str = "SQL fragment", *, query: bool = False,
                   document: str | None = None) -> None:
    """Raise ``DDLC-E011`` for its document when ``text`` is not one fragment."""
    only_query = _CLEAN.get(text)
    if only_query is not None and (query or not only_query):  # the slot check found it clean
        return
    why = fragment_problem(text, query=query)
    if why is not None:
        raise DdlcError(f"{what} {text[:60]!r} is not one fragment: {why}", code=E_FRAGMENT, path=path,
                        document=document)


@lru_cache(maxsize=8192)
def comments(text: str) -> tuple[tuple[int, int], ...]:
    """The ``(start, end)`` of every comment (``--`` or ``/* */``) outside quotes in ``text``."""
    if "--" not in text and "/*" not in text:
        return ()
    return tuple((s, e) for kind, s, e in scan(text) if kind == "comment")


def has_comment(text: str) -> bool:
    """Whether ``text`` holds a comment outside quotes."""
    return text not in _CLEAN and bool(comments(text))


def open_line_comment(text: str) -> bool:
    """Whether a ``--`` comment of ``text`` runs to its end (no line break after it inside the text)."""
    return any(text.startswith("--", s) and e >= len(text) for s, e in comments(text))


_BLANKS = " \t\r\n"


def plain_statement(text: str) -> bool:
    """Whether ``text`` is one statement for :func:`statement_problem` in both modes (``block`` or not), seen
    without its tokens: once its strings and quoted names (those :data:`_QUOTED` matches: no backslash in a
    string) are taken out and its one final ``;`` too, what is left is plain (:data:`_PLAIN`, no ``--``) and
    not blank. Outside quotes such a text has no comment, dollar quote, backslash, ``/`` or other ``;``,
    and every quote is where the lexer's string or name starts and ends (as :func:`_plain_once_unquoted`)."""
    out = _QUOTED.sub("0", text) if "'" in text or '"' in text else text
    m = _LAST_SEMICOLON.search(out)
    if m is not None:
        out = out[: m.start()]
    return "--" not in out and _PLAIN.match(out) is not None and out.strip(_BLANKS) != ""


def statement_problem(text: str, *, block: bool = False) -> str | None:
    """Why ``text`` is not exactly one statement whose tokens are all there is, as :mod:`.lexer` reads it,
    or None. Refused:

    * an unterminated quote, quoted name, dollar quote or comment;
    * a ``;`` with any token after it (one trailing ``;``, blanks after it, is the statement's own end),
      or before any token;
    * a backslash outside quotes: ``psql`` and ``gsql`` start a meta-command at any unquoted backslash,
      at the start of a line or not (``CREATE TABLE t (a int) \\! cmd`` runs ``cmd``);
    * a line holding only ``/`` (gsql ends a block there and sends what came before), also once the
      statement's own ``;`` is taken off (``/;``: ddlc writes the statement without it);
    * a comment: the server writes none in a statement outside quotes; in a statement ddlc writes as it
      came, one would hide words (a ``--`` comment in a value swallows the template's words after it on
      its line, or the ``;`` ddlc writes after the statement);
    * a ``'...'`` string that a reader with ``standard_conforming_strings`` off ends elsewhere (a backslash
      before a quote): the statements it reads would not be the ones ddlc read;
    * no token at all.

    ``block``: the text holds user code that is not quoted (an Oracle-style routine or package body, an
    anonymous block), where ``;`` and comments are the user's: those pass, a ``/`` line only as the last
    line (the block's own end), and a ``--`` comment may not run to the end (it would swallow the ``;``
    written after it). The server never prints such a text: a document that has one was altered."""
    if plain_statement(text):  # the common text, without its tokens (issue 26)
        return None
    return _scanned_statement_problem(text, block)


def _scanned_statement_problem(text: str, block: bool) -> str | None:
    """:func:`statement_problem` by the lexer's tokens."""
    seen = ended = slash_ended = False
    line_start, slash_line = True, False
    for kind, s, e in scan(text):
        if kind == "error":
            msg, at = error_message(text, s)
            return f"an {msg} (at offset {at})"
        if kind == "space":
            if "\n" in text[s:e] or "\r" in text[s:e]:
                if slash_line:
                    if not block:
                        return "a line holding only / (gsql ends a block there)"
                    slash_ended = True
                line_start = True
            continue
        if kind == "comment":
            if block:
                continue
            return f"a comment at offset {s} (the server writes none there; it would hide what follows it)"
        tok = text[s:e]
        if ended or slash_ended:
            end = "/ line" if slash_ended else "';'"
            return f"more after the {end} that ends it (another statement at offset {s})"
        if kind == "op" and "\\" in tok:
            return f"a backslash outside quotes at offset {s} (psql and gsql run a meta-command from it)"
        if kind == "string" and "\\" in tok and _scs_off_end(tok) != len(tok):
            return (f"a string at offset {s} that ends elsewhere when standard_conforming_strings is off "
                    "(a backslash before a quote)")
        after_slash, slash_line = slash_line, line_start and tok == "/"
        line_start = False
        if kind == "punct" and tok == ";":
            if not seen:
                return "a ';' before any word (an empty statement)"
            if after_slash and not block:  # the statement is written without its ';': ``/;`` is then a / line
                return "a line holding only / once its ';' is taken off (gsql ends a block there)"
            ended = not block
        else:
            seen = True
    if slash_line and not block:
        return "a line holding only / (gsql ends a block there)"
    if not seen:
        return "no statement (only blanks)"
    if block and open_line_comment(text):
        return "a -- comment that runs to its end (it would swallow the ';' written after it)"
    return None


def check_statement(text: str, what: str, *, block: bool = False, part: bool = False, path: Path = (),
                    document: str | None = None) -> None:
    """Raise ``DDLC-E011`` for its document when ``text`` is not exactly one statement
    (:func:`statement_problem`), or with ``part``, not one part of a statement (nor a ``;`` in it,
    nor unbalanced parentheses: :func:`fragment_problem`); ``what`` names the text for the message."""
    why = statement_problem(text, block=block)
    if why is None and part:
        why = fragment_problem(text)
    if why is not None:
        kind = "one part of its statement" if part else "exactly one statement"
        raise DdlcError(f"{what} is not {kind}: {why}", code=E_FRAGMENT, path=path, document=document)


def _scs_off_end(tok: str) -> int:
    """Where a ``'...'`` string token (``N'``/``X'``/``B'`` too) ends when a backslash escapes the next
    character, as it does with ``standard_conforming_strings`` off; -1 when it does not end in ``tok``.
    ``E'...'`` strings are read so in both settings."""
    if tok[0] in "eE":
        return len(tok)
    i = tok.index("'") + 1
    n = len(tok)
    while i < n:
        c = tok[i]
        if c == "\\":
            i += 2
        elif c == "'":
            if tok.startswith("''", i):
                i += 2
            else:
                return i + 1
        else:
            i += 1
    return -1


__all__ = [
    "check_fragment", "check_statement", "clean_fragment", "comments", "fragment_problem", "has_comment",
    "open_line_comment", "unquoted",
    "plain_statement", "statement_problem",
]
