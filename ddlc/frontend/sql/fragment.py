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
"""

from __future__ import annotations

from functools import lru_cache

from ...diagnostics import E_FRAGMENT
from ...errors import DdlcError, Path
from .lexer import scan


@lru_cache(maxsize=8192)
def fragment_problem(text: str, *, query: bool = False, glued_quotes: bool = False) -> str | None:
    """Why ``text`` is not one fragment (see the module docstring), or None. ``glued_quotes``: read the
    server's unescaped quotes in partition bounds (``'it's'``) as one string."""
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
        if line_start and tok.startswith("\\"):
            return "a line starting with a backslash (a psql meta-command)"
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
    return bool(comments(text))


def open_line_comment(text: str) -> bool:
    """Whether a ``--`` comment of ``text`` runs to its end (no line break after it inside the text)."""
    return any(text.startswith("--", s) and e >= len(text) for s, e in comments(text))


__all__ = ["check_fragment", "comments", "fragment_problem", "has_comment", "open_line_comment"]
