"""GaussDB emitters: ALTER ... SET SCHEMA."""

from __future__ import annotations

from typing import Any

from ...ir.rename import SetSchema
from .writer import Writer, emits
from .drop import fit, identity_text


@emits(SetSchema)
def set_schema(n: SetSchema, w: Writer) -> dict[str, Any]:
    return fit(n.layout, "ALTER %{objtype}s %{identity}s SET SCHEMA %{newschema}I", {
        "objtype": n.objtype,
        "identity": identity_text(n.identity, n.identity_text),
        "newschema": n.new_schema,
    })
