"""Builders: ALTER ... SET SCHEMA (reference §5.14)."""

from __future__ import annotations

from ...ir.drop import kind_of_objtype
from ...ir.rename import SetSchema
from . import shape
from ._read import Obj
from .drop import W_UNKNOWN_OBJTYPE, read_identity


@shape("set_schema", r"ALTER\s+%\{(?:objtype|object_type)\}s\s+%\{identity\}s\s+SET\s+SCHEMA\s")
def build_set_schema(o: Obj) -> SetSchema:
    objtype = o.str("objtype")
    kind = kind_of_objtype(objtype)
    if kind is None:
        o.ctx.diag(W_UNKNOWN_OBJTYPE, f"ALTER {objtype} ... SET SCHEMA is not valid SQL (object kind unknown "
                   "to the server)", o.at("objtype"))
    text, ident = read_identity(o, "identity", kind)
    return SetSchema(
        objtype=objtype,
        identity_text=text,
        identity=ident,
        new_schema=o.str("newschema"),
        origin=o.path,
        layout=o.fmt,
    )
