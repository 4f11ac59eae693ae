"""Builders: CREATE TYPE ... AS (composite) and CREATE TYPE ... AS ENUM (reference §5.15)."""

from __future__ import annotations

from ...ir.typedef import CreateCompositeType, CreateEnumType
from . import shape
from ._read import Obj
from .table import Slots, Unmodelled, check_slots, guarded, read_column_element

_COMPOSITE_SLOTS: Slots = {"identity": ("D", False), "columns": ("s", True)}
_ENUM_SLOTS: Slots = {"identity": ("D", False), "values": ("L", True)}


def _composite(o: Obj) -> CreateCompositeType:
    slots = check_slots(o, _COMPOSITE_SLOTS)
    if "identity" not in slots:
        raise Unmodelled("CREATE TYPE without %{identity}D", o.path + ("fmt",))
    attributes = []
    if "columns" in slots:
        v = o.raw("columns")
        if not isinstance(v, list):
            raise o.ctx.error('element "columns" must be an array', o.at("columns"))
        for i, e in enumerate(v):
            if not isinstance(e, dict):
                raise o.ctx.error('elements of "columns" must be objects', o.at("columns") + (i,))
            if e.get("present", True) is not False:
                attributes.append(read_column_element(Obj(e, o.at("columns") + (i,), o.ctx)))
    return CreateCompositeType(o.qname("identity"), tuple(attributes), layout=o.fmt, origin=o.path)


def _enum(o: Obj) -> CreateEnumType:
    slots = check_slots(o, _ENUM_SLOTS)
    if "identity" not in slots:
        raise Unmodelled("CREATE TYPE without %{identity}D", o.path + ("fmt",))
    labels = o.strings("values") if "values" in slots else ()
    return CreateEnumType(o.qname("identity"), labels, layout=o.fmt, origin=o.path)


build_create_enum_type = shape("create_type_enum", r"CREATE\s+TYPE\s+%\{identity\}D\s+AS\s+ENUM\b")(
    guarded("CREATE TYPE", _enum)
)
build_create_composite_type = shape("create_type_composite", r"CREATE\s+TYPE\s+%\{identity\}D\s+AS\s*\(")(
    guarded("CREATE TYPE", _composite)
)
