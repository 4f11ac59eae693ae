"""PRIMARY KEY / UNIQUE constraint bodies read without PostgreSQL's grammar, beyond :mod:`.constraints`' plain key
list (issue 26): what pglast's JSON parse gives for them, or the proof that it gives nothing.

* :func:`key_list_json`: a key list with a ``WITH (name=integer, ...)`` and/or ``DEFERRABLE [INITIALLY DEFERRED |
  INITIALLY IMMEDIATE]`` after it (``INCLUDE (..)`` and ``USING INDEX TABLESPACE t`` where the grammar puts them):
  the ``Constraint`` node pglast's JSON parse makes of it, the members :func:`.constraints._json_info` reads.
* :func:`sorted_key_list`: a key list one of whose items is ``name ASC`` / ``name DESC``, which PostgreSQL's
  grammar refuses (a key is a name, then ``,`` or ``)``; ASC and DESC are reserved words): the parse of the text as
  written is known to fail without trying it.

Names are bare ASCII ones, none a keyword and none cut by the server (63 bytes): none is requoted
(:func:`~.pgwords.requote`, which :func:`~.pgparse.parse_json` applies first), nor is any fixed word here (checked
against :func:`~.pgwords.words` once). ``tests/test_throughput_round16_front.py`` compares both with the parse.
"""

from __future__ import annotations

import re
from typing import Any

from ... import lazyre
from .pgwords import words

__all__ = ["disabled_check", "key_list_json", "sorted_key_list", "unparsable"]

_W = r"[ \t\n\r\f\v]"  # the server's blanks
_NAME = r"[A-Za-z_][A-Za-z0-9_$]*"
_COLS = rf"{_NAME}(?:{_W}*,{_W}*{_NAME})*"
# ``name = integer`` (an Integer for pglast: at most 9 digits, no sign, nothing glued after it)
_OPTION = rf"{_NAME}{_W}*={_W}*[0-9]{{1,9}}(?![A-Za-z0-9_$.]|[^\x00-\x7f])"
_MORE = lazyre.compile(
    rf"(?:PRIMARY{_W}+KEY|(UNIQUE)){_W}*\({_W}*({_COLS}){_W}*\)"
    rf"(?:{_W}*INCLUDE{_W}*\({_W}*({_COLS}){_W}*\))?"
    rf"(?:{_W}*WITH{_W}*\({_W}*({_OPTION}(?:{_W}*,{_W}*{_OPTION})*){_W}*\))?"
    rf"(?:{_W}+USING{_W}+INDEX{_W}+TABLESPACE{_W}+({_NAME}))?"
    rf"(?:{_W}+(DEFERRABLE)(?:{_W}+INITIALLY{_W}+(DEFERRED|IMMEDIATE))?)?{_W}*\Z", re.I | re.A)
_ONE_OPTION = lazyre.compile(rf"({_NAME}){_W}*={_W}*([0-9]+)", re.A)
_COMMA = lazyre.compile(rf"{_W}*,{_W}*")
_SORTED = lazyre.compile(  # (ASC / DESC as a word: PostgreSQL's lexer ends it before no identifier character)
    rf"(?:PRIMARY{_W}+KEY|UNIQUE){_W}*\({_W}*(?:{_NAME}{_W}*,{_W}*)*{_NAME}{_W}+(?:ASC|DESC)"
    rf"(?![A-Za-z0-9_$]|[^\x00-\x7f])", re.I | re.A)
# the fixed words of both patterns, as requote would meet them (lower-case: its table's words are)
_FIXED = frozenset({"primary", "key", "unique", "include", "with", "using", "index", "tablespace", "deferrable",
                    "initially", "deferred", "immediate", "asc", "desc", "check", "disable"})
# ``CHECK (...) DISABLE`` (openGauss): no quote, dollar, backslash or comment in it, so its last ")" is one and the
# DISABLE after it is a word PostgreSQL's grammar has no place for (a CHECK's parenthesis is followed only by
# DEFERRABLE, INITIALLY, NOT VALID, NO INHERIT)
_CHECK_DISABLE = lazyre.compile(r"CHECK[ \t\n\r\f\v]*\((?s:.)*\)[ \t\n\r\f\v]*DISABLE[ \t\n\r\f\v]*\Z", re.I | re.A)
_READY: list[tuple[bool, frozenset[str]]] = []


def _ready() -> tuple[bool, frozenset[str]]:
    """(whether requote leaves the fixed words alone, PostgreSQL's keywords and requote's words: no name is one)."""
    from pglast import keywords as pg

    table = words()
    _READY.append((not (_FIXED & table), frozenset((*pg.RESERVED_KEYWORDS, *pg.COL_NAME_KEYWORDS,
                                                    *pg.TYPE_FUNC_NAME_KEYWORDS, *pg.UNRESERVED_KEYWORDS, *table))))
    return _READY[0]


def _plain(name: str, table: frozenset[str]) -> bool:
    return len(name) <= 63 and name.lower() not in table


def key_list_json(body: str) -> dict[str, Any] | None:
    """The ``Constraint`` node of pglast's JSON parse of ``ALTER TABLE x ADD CONSTRAINT c <body>`` for a key list
    with options or DEFERRABLE (see the module docstring), ``"_sql"`` the body; None for any other body."""
    m = _MORE.match(body)
    if m is None:
        return None
    unique, keys, including, options, space, deferrable, initially = m.groups()
    if options is None and deferrable is None:
        return None  # (the plain key list: constraints._key_list_json's)
    fits, table = _READY[0] if _READY else _ready()
    if not fits:
        return None
    names = _COMMA.split(keys)
    more = _COMMA.split(including) if including is not None else []
    for name in (*names, *more, *((space,) if space is not None else ())):
        if not _plain(name, table):
            return None
    node: dict[str, Any] = {"contype": "CONSTR_UNIQUE" if unique is not None else "CONSTR_PRIMARY"}
    if deferrable is not None:
        node["deferrable"] = True
        if initially is not None and initially.lower() == "deferred":
            node["initdeferred"] = True
    node["keys"] = [{"String": {"sval": n.lower()}} for n in names]
    if more:
        node["including"] = [{"String": {"sval": n.lower()}} for n in more]
    if options is not None:
        opts = []
        for o in _ONE_OPTION.finditer(options):
            name, value = o.groups()
            if not _plain(name, table):
                return None
            opts.append({"DefElem": {"defname": name.lower(), "arg": {"Integer": {"ival": int(value)}}}})
        node["options"] = opts
    if space is not None:
        node["indexspace"] = space.lower()
    node["_sql"] = body
    return node


def unparsable(body: str) -> bool:
    """Whether the parse of ``body`` as written is known to fail (:func:`sorted_key_list`, :func:`disabled_check`)."""
    if body[:1] in "cC":
        return disabled_check(body)
    return body[:1] in "pPuU" and sorted_key_list(body)


def disabled_check(body: str) -> bool:
    """Whether ``body`` is a ``CHECK (...) DISABLE`` whose parse as written fails (see :data:`_CHECK_DISABLE`)."""
    if ("'" in body or '"' in body or "$" in body or "\\" in body or "--" in body or "/*" in body
            or _CHECK_DISABLE.match(body) is None):
        return False
    return (_READY[0] if _READY else _ready())[0]


def sorted_key_list(body: str) -> bool:
    """Whether ``body`` is a key list with an ``ASC`` / ``DESC`` item, whose parse as written fails."""
    if _SORTED.match(body) is None:
        return False
    return (_READY[0] if _READY else _ready())[0]
