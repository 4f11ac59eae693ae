"""DROP read from GaussDB text (reference §4.6, §5.4): one object, its identity as the server printed it."""

from __future__ import annotations

from ...ir.drop import DropObjectType
from ._match import Frag, Shape, Words

DROP = Shape(
    "DROP %{objtype}s %{concurrently}s %{if_exists}s %{objidentity}s %{cascade}s",
    {"objtype": Words(tuple(t.value for t in DropObjectType if t is not DropObjectType.OTHER)
                      + ("TABLE", "INDEX", "TYPE", "SCHEMA", "SEQUENCE", "VIEW", "FUNCTION", "TRIGGER",
                         "LARGE SEQUENCE")),
     "concurrently": Words(("CONCURRENTLY", "")), "if_exists": Words(("IF EXISTS", "")),
     "objidentity": Frag(), "cascade": Words(("CASCADE", ""))},
)

SHAPES = {r"DROP (?:TABLE|INDEX|TYPE|SCHEMA|SEQUENCE|VIEW|FUNCTION|TRIGGER|LARGE SEQUENCE) ": DROP}
