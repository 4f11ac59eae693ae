"""CREATE INDEX read from GaussDB text (reference §5.5), LOCAL/GLOBAL partition lists included (they are
part of the pre-rendered definition the index builder parses)."""

from __future__ import annotations

import re
from typing import Any

from ._match import Frag, Shape, Words
from ._common import RAW_NAME

_PARTITIONED = re.compile(r"\)\s*(?:LOCAL|GLOBAL)\s*\(.*\)\Z", re.S)


def _definition(tree: dict[str, Any]) -> dict[str, Any]:
    """pg_get_indexdef_detailed ends a LOCAL/GLOBAL partition list with a blank (canonical text trims it)."""
    d = tree["definition"]
    if _PARTITIONED.search(d):
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
