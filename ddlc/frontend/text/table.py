"""CREATE TABLE read from GaussDB text (reference §5.1, GaussDB variant §9): the table family's tree."""

from __future__ import annotations

from typing import Any

from ._common import COLUMN, EXPR, IF_NOT_EXISTS, OPTION
from ._match import Custom, Either, Frag, Matcher, Rest, Results, Shape, Words

CONSTRAINT = Shape(
    "CONSTRAINT %{name}I %{definition}s[ USING INDEX TABLESPACE %{tblspc}s]",
    {"definition": EXPR, "tblspc": Frag(words=True, max_tokens=1)},
    extra={"type": "constraint"},
)
ELEMENTS = Shape("(%{elements:, }s)|()", {"elements": Either((COLUMN, CONSTRAINT))})
INHERITS = Shape("INHERITS (%{parents:, }D)", absent=True)
ON_COMMIT = Shape("ON COMMIT %{on_commit_value}s", {"on_commit_value": Words(("DROP", "DELETE ROWS", "PRESERVE ROWS"))})
TABLE_COMMENT = Shape("COMMENT=%{comment}L")


_DISTRIBUTE_BODY = Frag(stop=("PARTITION",))


def _distribute(m: Matcher, i: int) -> Results:
    """``DISTRIBUTE BY ...`` up to the partition clause (the builder decides which forms it models)."""
    t = m.tok(i)
    return _DISTRIBUTE_BODY.read(m, i) if t is not None and t.upper == "DISTRIBUTE" else {}


def _autoinc(tree: dict[str, Any]) -> dict[str, Any]:
    v = tree.get("autoincstart")
    if isinstance(v, int) and not -2**31 <= v < 2**31:  # the deparser writes a wider literal as text (%s)
        tree["fmt"] = tree["fmt"].replace("%{autoincstart}n", "%{autoincstart}s")
        tree["autoincstart"] = str(v)
    elif v is not None and not isinstance(v, int):
        tree["fmt"] = tree["fmt"].replace("%{autoincstart}n", "%{autoincstart}s")
        tree["autoincstart"] = str(v)
    return tree


CREATE_TABLE = Shape(
    "CREATE %{persistence}s TABLE %{if_not_exists}s %{identity}D {OF %{of_type}T|%{table_elements}s %{inherits}s}"
    "[ AUTO_INCREMENT = %{autoincstart}n][ WITH (%{with:, }s)][ %{compression}s][ %{on_commit}s]"
    "[ TABLESPACE %{tablespace}I][ %{options:, }s][ %{distribute_by}s][ %{partition_by}s]",
    {"persistence": Words(("UNLOGGED", "GLOBAL TEMPORARY", "TEMPORARY", "")), "if_not_exists": IF_NOT_EXISTS,
     "table_elements": ELEMENTS, "inherits": INHERITS, "with": OPTION,
     "compression": Words(("COMPRESS", "NOCOMPRESS")), "on_commit": ON_COMMIT, "options": TABLE_COMMENT,
     "distribute_by": Custom(_distribute), "partition_by": Rest(("PARTITION",))},
    post=_autoinc,
)

SHAPES = {r"CREATE (?:UNLOGGED |GLOBAL TEMPORARY |TEMPORARY |TEMP )?TABLE ": CREATE_TABLE}
