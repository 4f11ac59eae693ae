"""The ALTER TABLE follow-up messages read from GaussDB text (reference §4.8, §5.3): the UPDATE back-fill
and the AUTO_INCREMENT back-fill block. (A follow-up ``ALTER TABLE ... ALTER COLUMN c SET DEFAULT x``
prints as the same text as the user's own ALTER TABLE and is read as that, see ``alter``.)"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from ...quoting import canonicalize
from ._match import Custom, Frag, Matcher, Results, Shape
from ...jddl.formats import BACKFILL_BLOCK, BACKFILL_UPDATE

UPDATE = Shape(BACKFILL_UPDATE, {"default": Frag()})

_BLOCK_FMT = BACKFILL_BLOCK
_NAME = r'(?:[a-z_][a-z0-9_$]*|"(?:[^"]|"")*")'
_GROUPS = {"typname": r"(?P<typname>[a-z0-9_]+)", "identity": rf"(?P<identity>{_NAME}\.{_NAME})",
           "colname": rf"(?P<colname>{_NAME})", "seqname": rf"(?P<seqname>{_NAME}\.{_NAME})"}


@lru_cache(maxsize=1)
def _block_regex() -> re.Pattern[str]:
    out, seen = [], set()
    for piece in re.split(r"(%\{\w+\}[sDI])", canonicalize(_BLOCK_FMT).removesuffix(";")):
        m = re.fullmatch(r"%\{(\w+)\}[sDI]", piece)
        if m:
            name = m[1]
            out.append(f"(?P={name})" if name in seen else _GROUPS[name])
            seen.add(name)
        else:
            out.append(r"\s*".join(re.escape(w) for w in piece.split(" ")))
    return re.compile("".join(out) + ";?")


def _unq(n: str) -> str:
    return n[1:-1].replace('""', '"') if n.startswith('"') else n


def _qn(s: str) -> dict[str, str]:
    a, b = re.findall(_NAME, s)
    return {"schemaname": _unq(a), "objname": _unq(b)}


def _block(m: Matcher, i: int) -> Results:
    if i != 0 or not m.toks:
        return {}
    got = _block_regex().fullmatch(canonicalize(m.text))
    if got is None:
        return {}
    tree: dict[str, Any] = {"fmt": _BLOCK_FMT, "typname": got["typname"], "identity": _qn(got["identity"]),
                            "colname": _unq(got["colname"]), "seqname": _qn(got["seqname"])}
    return {len(m.toks): tree}


BLOCK = Shape("%{block}s", {"block": Custom(_block)}, post=lambda t: t["block"])

SHAPES = {r"UPDATE ": UPDATE, r"DECLARE ": BLOCK}
