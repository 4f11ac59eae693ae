"""Words openGauss writes bare that PostgreSQL reads as keywords: quoted before PostgreSQL's grammar reads a
fragment.

openGauss's deparser quotes a name only when openGauss needs it (``quote_identifier`` with openGauss's
keyword list), so a fragment may hold a bare ``isnull``, ``lateral`` or ``system_user`` that is a name to
openGauss and a keyword to PostgreSQL: ``CHECK ((isnull > 0))``, ``PRIMARY KEY (lateral)``. The words are
those PostgreSQL (pglast's keyword list, the newest grammar, so output stays valid on later servers)
does not class as unreserved while openGauss does (or has no such keyword); the deparser writes keywords
in upper case and names in lower case, so only an all-lower-case bare word is taken for a name.

:func:`requote` gives the text PostgreSQL's grammar reads (each such word in double quotes) and where the
quotes went, so positions found in it map back to the fragment (:func:`to_source`).
"""

from __future__ import annotations

import re
from functools import lru_cache

from .lexer import scan


@lru_cache(maxsize=1)
def words() -> frozenset[str]:
    from pglast import keywords as pg

    from ...quoting import opengauss_keywords

    og = opengauss_keywords()
    taken = set(pg.RESERVED_KEYWORDS) | set(pg.COL_NAME_KEYWORDS) | set(pg.TYPE_FUNC_NAME_KEYWORDS)
    return frozenset(w for w in taken if og.get(w, "UNRESERVED_KEYWORD") == "UNRESERVED_KEYWORD")


@lru_cache(maxsize=1)
def _any_word() -> re.Pattern[str]:
    """One pattern for "one of :func:`words` is in the text" (each a substring; ~2x the loop over the words)."""
    return re.compile("|".join(re.escape(w) for w in sorted(words(), key=len, reverse=True)))


@lru_cache(maxsize=1)
def _needles() -> tuple[str, ...]:
    """The words of :func:`words` that hold no other one (``json`` for ``json_table``...): one of :func:`words`
    is in a text exactly when one of these is. Tested by ``in``, a C scan of the text that skips ahead (issue 26:
    the pattern of :func:`_any_word` tried its ~17 branches at each letter that starts one, ~130 instructions
    a character; tests/test_throughput_round11_build.py compares them)."""
    table = words()
    return tuple(sorted((w for w in table if not any(v != w and v in w for v in table)), key=lambda w: (len(w), w)))


def _has_word(text: str) -> bool:
    """Whether one of :func:`words` is in ``text`` (as a substring): ``_any_word().search(text) is not None``."""
    for w in _NEEDLES or _load_needles():
        if w in text:
            return True
    return False


_NEEDLES: tuple[str, ...] = ()


def _load_needles() -> tuple[str, ...]:
    global _NEEDLES
    _NEEDLES = _needles()
    return _NEEDLES


@lru_cache(maxsize=8192)
def requote(text: str) -> tuple[str, tuple[tuple[int, int], ...]]:
    """``(text for PostgreSQL, ((start, end) of each word quoted, in the fragment)...)``."""
    if not _has_word(text):  # the common case (no word of the table in it): nothing to do
        return text, ()
    table = words()
    out: list[str] = []
    marks: list[tuple[int, int]] = []
    last = 0
    prev = ""
    for kind, s, e in scan(text):
        if kind == "error":
            break
        if kind == "word" and prev != "." and text[s:e] in table:
            out.append(text[last:s])
            out.append('"' + text[s:e] + '"')
            marks.append((s, e))
            last = e
        if kind not in ("space", "comment"):
            prev = text[s:e]
    if not marks:
        return text, ()
    out.append(text[last:])
    return "".join(out), tuple(marks)


def to_source(marks: tuple[tuple[int, int], ...], pos: int) -> int:
    """The fragment offset of offset ``pos`` of the requoted text."""
    shift = 0
    for s, e in marks:
        if pos <= s + shift:
            break
        if pos < e + shift + 2:  # inside the quoted word (or on its closing quote)
            return max(s, min(pos - shift - 1, e))
        shift += 2
    return pos - shift


__all__ = ["requote", "to_source", "words"]
