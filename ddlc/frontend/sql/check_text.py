"""The expression inside a constraint's ``CHECK (...)``, exactly as written (split from
:mod:`.constraints`): the common spelling's closing parenthesis found without the lexer."""

from __future__ import annotations

import re

from ... import lazyre
from .lexer import closing_paren

_CHECK_OPEN = lazyre.compile(r"\s*CHECK\s*\(", re.I)


def check_expr_text(body: str) -> str | None:
    """The expression inside ``CHECK (...)``, exactly as written."""
    if (body.startswith("CHECK (") and "'" not in body and '"' not in body and "$" not in body and "--" not in body
            and "/*" not in body):
        # the server's spelling, every parenthesis one (what _NOT_PUNCT finds is nowhere in it): when what lies
        # between the first one and the last is balanced, those two pair off (the common ``CHECK ((expr)) [NOT VALID|NO INHERIT]``), found without a
        # step per parenthesis
        close = body.rfind(")")
        if close > 6 and balanced(body[7:close]):
            return body[7:close]
    m = _CHECK_OPEN.match(body)
    if m is None:
        return None
    close = _closing_paren(body, m.end() - 1)
    return None if close is None else body[m.end() : close]


_PARENS_ONLY = {c: None for c in range(128) if chr(c) not in "()"}


def balanced(text: str) -> bool:
    """Whether the parentheses of ``text`` (ASCII, or any: a character outside ASCII fails it) pair off in
    order: the depth never below 0 and 0 at the end, in one pass (linear however deep they nest: a CHECK
    nested 8,000 deep took 1.5 s when every ``()`` was taken out again and again)."""
    depth = 0
    for c in text.translate(_PARENS_ONLY):
        if c == "(":
            depth += 1
        elif c == ")" and depth:
            depth -= 1
        else:  # a ")" without its "(", or a character outside ASCII
            return False
    return not depth


_NOT_PUNCT = lazyre.compile(r"['\"$]|--|/\*")  # what may hold a parenthesis that is not one (a quote, a comment)
_PAREN = lazyre.compile(r"[()]")


def _closing_paren(text: str, open_at: int) -> int | None:
    """:func:`closing_paren`, without the lexer when no quote, dollar or comment follows ``open_at``: every
    parenthesis is one then."""
    if _NOT_PUNCT.search(text, open_at) is not None:
        return closing_paren(text, open_at)
    depth = 0
    for m in _PAREN.finditer(text, open_at):
        if m.group() == "(":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return m.start()
    return None
