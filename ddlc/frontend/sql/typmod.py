"""Type modifiers and SQL-standard type spellings of ``%T`` objects, checked at build time.

The server writes ``typmod`` with the type's typmod-output function and an SQL-standard type name
(``schemaname: ""``) as its keyword spelling; both are appended verbatim by the template. So that
no target ever writes more than a type, only what those functions can produce is accepted:

* ``typmod``: ``(n[,m...])`` (numbers or plain words, for extension types such as
  ``geometry(Point,4326)``), then optionally interval fields (``day to second(3)``) and/or
  ``with time zone`` / ``without time zone``; or interval fields alone (`` year``);
* a keyword spelling: plain words separated by single spaces (``character varying``,
  ``double precision``, ``TIMESTAMP``).

Anything else (a quote, a ``;``, a comment, a backslash, a newline...) is an input error for its
document (``DDLC-E011``), on every target.

The numbers are checked too, against what the server's typmod-input functions accept (a typmod the
server refuses is never one it wrote): every number is an ``int4`` (checked by its digits before it
becomes an int), and for the built-in types ``ddlc.ir.type_limits`` applies each type's own limits:
``varchar``/``char``/``nchar``/``nvarchar2`` length 1..10485760 (``MaxAttrSize``), ``bit``/``varbit``
length 1..83886080, ``numeric`` precision 1..1000 and scale 0..precision, ``timestamp``/``time``/
``interval`` precision 0..6 (the server prints at most 6). The backends call its ``check_type_limits``
on every type they write, so no target writes a typmod unchecked, whatever built the type.
"""

from __future__ import annotations

import re

from ...diagnostics import E_FRAGMENT
from ...errors import DdlcError, Path
from ...ir.type_limits import int4_problem, short, typmod_problem
from ... import lazyre

_FIELD = r"(?:year|month|day|hour|minute|second)"
_FIELDS = rf"{_FIELD}(?:\s+to\s+{_FIELD})?(?:\s*\(\s*\d+\s*\))?"
_ARG = r"\s*(?:\d+|[A-Za-z_][A-Za-z0-9_]*)\s*"
_TYPMOD = lazyre.compile(
    rf"(?:\({_ARG}(?:,{_ARG})*\))?"
    rf"(?:\s+{_FIELDS})?"
    r"(?:\s+with(?:out)?\s+time\s+zone)?\Z",
    re.IGNORECASE | re.ASCII,
)
_SPELLING = lazyre.compile(r"[A-Za-z_][A-Za-z0-9_]*(?: [A-Za-z_][A-Za-z0-9_]*)*\Z", re.ASCII)


def check_typmod(text: str, path: Path, document: str | None = None, typename: str | None = None,
                 schema: str | None = None) -> str:
    """``text`` when it is one type modifier as the server writes them (and, given the type's
    ``typename``/``schema``, within the server's limits for it); else a DdlcError."""
    if not text:
        return text
    key = (text, typename, schema)
    problem = TYPMOD_VERDICTS.get(key, UNSEEN)
    if problem is UNSEEN:  # a pure function of the three: remembered (a stream repeats its types)
        problem = _typmod_problem(text, typename, schema)
        if len(TYPMOD_VERDICTS) >= 4096:  # (user types' names make new keys: start again)
            TYPMOD_VERDICTS.clear()
        TYPMOD_VERDICTS[key] = problem
    if problem is not None:
        raise DdlcError(problem, code=E_FRAGMENT, path=path, document=document)
    return text


# (read by build._read too: a verdict known good skips the call)
TYPMOD_VERDICTS: dict[tuple[str, str | None, str | None], str | None] = {}
UNSEEN = object()


def _typmod_problem(text: str, typename: str | None, schema: str | None) -> str | None:
    """The message of :func:`check_typmod`'s error for a non-empty ``text``, or None."""
    if _TYPMOD.match(text) is None:
        return f"type modifier {text[:60]!r} is not one type modifier"
    problem = int4_problem(text) if typename is None else typmod_problem(typename, schema, text)
    if problem is not None:
        return f"type modifier {short(text)}: {problem}"
    return None


def check_spelling(name: str, path: Path, document: str | None = None) -> str:
    """``name`` when it is an SQL-standard type spelling (plain words); else a DdlcError."""
    if _SPELLING.match(name) is None:
        raise DdlcError(f"type name {name[:60]!r} (schemaname \"\") is not an SQL type spelling", code=E_FRAGMENT,
                        path=path, document=document)
    return name
