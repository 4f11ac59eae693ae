"""GaussDB emitters: CREATE TYPE (composite, enum), in the deparser's shape (reference §5.15)."""

from __future__ import annotations

from typing import Any

from ...ir.typedef import CreateCompositeType, CreateEnumType
from .writer import Writer, emits
from ._columns import column_tree
from .table import fitting

_ATTRIBUTE_FMT = "%{name}I %{coltype}T %{collation}s"  # composite attributes carry only these
_COMPOSITE_FMT = "CREATE TYPE %{identity}D AS (%{columns:, }s)"
_ENUM_FMT = "CREATE TYPE %{identity}D AS ENUM (%{values:, }L)"


@emits(CreateCompositeType)
def create_composite_type(n: CreateCompositeType, w: Writer) -> dict[str, Any]:
    columns = []
    for a in n.attributes:
        t = column_tree(a, w)
        if a.layout is None:
            t["fmt"] = _ATTRIBUTE_FMT
        columns.append(t)
    avail = {"identity": ("D", False), "columns": ("s", True)}
    needed = {"identity", "columns"} if columns else {"identity"}
    fmt = n.layout if fitting(n.layout, avail, needed) else _COMPOSITE_FMT
    return {"fmt": fmt, "identity": w.qname(n.identity), "columns": columns}


@emits(CreateEnumType)
def create_enum_type(n: CreateEnumType, w: Writer) -> dict[str, Any]:
    avail = {"identity": ("D", False), "values": ("L", True)}
    fmt = n.layout if fitting(n.layout, avail, {"identity", "values"} if n.labels else {"identity"}) else _ENUM_FMT
    return {"fmt": fmt, "identity": w.qname(n.identity), "values": list(n.labels)}
