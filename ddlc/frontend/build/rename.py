"""Builders: RENAME (reference §5.13).

Registered before the generic ``ALTER %{objtype}s %{only}s`` shape (FAMILIES order).
"""

from __future__ import annotations

from ...ir.rename import (
    RenameAttribute, RenameColumn, RenameConstraint, RenamePair, RenameRelation, RenameSchema,
    RenameTables, RenameType,
)
from . import shape
from ._read import Obj
from .drop import keyword

_OT = r"%\{(?:objtype|object_type)\}s"


@shape("rename_relation", rf"ALTER\s+{_OT}\s+%\{{if_exists\}}s\s+%\{{identity\}}D\s+RENAME\s+TO\s")
def build_rename_relation(o: Obj) -> RenameRelation:
    return RenameRelation(
        objtype=o.str("objtype"),
        identity=o.qname("identity"),
        new_name=o.str("newname"),
        if_exists=keyword(o, "if_exists", "IF EXISTS"),
        origin=o.path,
        layout=o.fmt,
    )


@shape("rename_column", rf"ALTER\s+{_OT}(?:\s+%\{{if_exists\}}s)?\s+%\{{identity\}}D\s+RENAME\s+COLUMN\s")
def build_rename_column(o: Obj) -> RenameColumn:
    return RenameColumn(
        objtype=o.str("objtype"),
        identity=o.qname("identity"),
        column=o.str("colname"),
        new_name=o.str("newname"),
        if_exists=keyword(o, "if_exists", "IF EXISTS"),
        origin=o.path,
        layout=o.fmt,
    )


@shape("rename_attribute", r"ALTER\s+TYPE\s+%\{identity\}D\s+RENAME\s+ATTRIBUTE\s")
def build_rename_attribute(o: Obj) -> RenameAttribute:
    v = o.raw("cascade", None)
    if v is None:
        cascade = False
    elif isinstance(v, dict) and v.get("fmt") == "CASCADE" and isinstance(v.get("present", True), bool):
        cascade = v.get("present", True)
    else:
        raise o.ctx.error('element "cascade" must be {"fmt": "CASCADE", "present": true|false}', o.at("cascade"))
    return RenameAttribute(
        identity=o.qname("identity"),
        attribute=o.str("colname"),
        new_name=o.str("newname"),
        cascade=cascade,
        origin=o.path,
        layout=o.fmt,
    )


@shape("rename_constraint", r"ALTER\s+TABLE\s+%\{identity\}D\s+RENAME\s+CONSTRAINT\s")
def build_rename_constraint(o: Obj) -> RenameConstraint:
    return RenameConstraint(
        identity=o.qname("identity"),
        constraint=o.str("oldname"),
        new_name=o.str("newname"),
        origin=o.path,
        layout=o.fmt,
    )


@shape("rename_schema", r"ALTER\s+SCHEMA\s+%\{identity\}I\s+RENAME\s+TO\s")
def build_rename_schema(o: Obj) -> RenameSchema:
    return RenameSchema(identity=o.str("identity"), new_name=o.str("newname"), origin=o.path, layout=o.fmt)


@shape("rename_type", r"ALTER\s+TYPE\s+%\{identity\}D\s+RENAME\s+TO\s")
def build_rename_type(o: Obj) -> RenameType:
    return RenameType(identity=o.qname("identity"), new_name=o.str("newname"), origin=o.path, layout=o.fmt)


@shape("rename_tables", r"RENAME\s+TABLE\s+%\{renamelist:")
def build_rename_tables(o: Obj) -> RenameTables:
    pairs = []
    for e in o.items("renamelist"):
        if not isinstance(e, Obj):
            raise o.ctx.error("elements of \"renamelist\" must be objects", o.at("renamelist"))
        pairs.append(RenamePair(e.qname("ori"), e.qname("modify"), origin=e.path, layout=e.fmt))
    if o.raw("renamelist", None) is None:
        raise o.ctx.error('element "renamelist" not found', o.at("renamelist"))
    return RenameTables(pairs=tuple(pairs), origin=o.path, layout=o.fmt)
