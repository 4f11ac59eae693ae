"""CREATE INDEX read from GaussDB text (reference §5.5), LOCAL/GLOBAL partition lists included (they are
part of the pre-rendered definition the index builder parses)."""

from __future__ import annotations

from bisect import bisect_left
from typing import Any

from ._match import Frag, Shape, Span, Words
from ._common import RAW_NAME
from ... import lazyre

_PARTITIONED = lazyre.compile(r"\)\s*(?:LOCAL|GLOBAL)\s*\(")
_MARKS: list[Any] = [None, [], []]  # the text last searched, the starts and the ends of its matches


def _partitioned(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` ends with ``)`` after a ``) LOCAL (`` / ``) GLOBAL (``. Runs for every
    end the definition may have: the matches of the whole text are found once (they cannot overlap, so
    the first one from ``start`` ends first) and each question is a bisection."""
    if end <= start or text[end - 1] != ")":
        return False
    if _MARKS[0] is not text:
        found = list(_PARTITIONED.finditer(text))
        _MARKS[:] = [text, [m.start() for m in found], [m.end() for m in found]]
    k = bisect_left(_MARKS[1], start)
    return k < len(_MARKS[1]) and _MARKS[2][k] < end


def _definition(tree: dict[str, Any]) -> dict[str, Any]:
    """pg_get_indexdef_detailed ends a LOCAL/GLOBAL partition list with a blank (canonical text trims it)."""
    d = tree["definition"]
    if isinstance(d, Span):
        if _partitioned(d.text, d.start, d.end):
            tree["definition"] = Span(d.text, d.start, d.end, d.suffix + " ")
    elif _partitioned(d, 0, len(d)):
        tree["definition"] = d + " "
    return tree


CREATE_INDEX = Shape(
    "CREATE %{unique}s INDEX %{concurrently}s %{name}I ON %{table}D USING %{index_am}s %{definition}s"
    "[ WITH (%{opts}s)][ TABLESPACE %{tablespace}s][ INVISIBLE][ WHERE %{where}s]",
    {"unique": Words(("UNIQUE", "")), "concurrently": Words(("CONCURRENTLY", "")), "index_am": RAW_NAME,
     "definition": Frag(), "opts": Frag(), "tablespace": RAW_NAME, "where": Frag()},
    post=_definition,
)

SHAPES = {r"CREATE (?:UNIQUE )?INDEX ": CREATE_INDEX}
