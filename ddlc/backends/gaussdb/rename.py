"""GaussDB emitters: RENAME statements."""

from __future__ import annotations

from typing import Any

from ...ir.rename import (
    RenameAttribute, RenameColumn, RenameConstraint, RenamePair, RenameRelation, RenameSchema,
    RenameTables, RenameType,
)
from .writer import Writer, emits
from .drop import fit, word


@emits(RenameRelation)
def rename_relation(n: RenameRelation, w: Writer) -> dict[str, Any]:
    return fit(n.layout, "ALTER %{objtype}s %{if_exists}s %{identity}D RENAME TO %{newname}I", {
        "objtype": n.objtype,
        "if_exists": word(n.if_exists, "IF EXISTS"),
        "identity": w.qname(n.identity),
        "newname": n.new_name,
    })


@emits(RenameColumn)
def rename_column(n: RenameColumn, w: Writer) -> dict[str, Any]:
    d: dict[str, Any] = {"objtype": n.objtype}
    fmt = "ALTER %{objtype}s"
    if n.if_exists:
        fmt += " %{if_exists}s"
    if n.if_exists or (n.layout is not None and "%{if_exists}" in n.layout):
        d["if_exists"] = word(n.if_exists, "IF EXISTS")
    fmt += " %{identity}D RENAME COLUMN %{colname}I TO %{newname}I"
    d.update(identity=w.qname(n.identity), colname=n.column, newname=n.new_name)
    return fit(n.layout, fmt, d)


@emits(RenameAttribute)
def rename_attribute(n: RenameAttribute, w: Writer) -> dict[str, Any]:
    return fit(n.layout, "ALTER TYPE %{identity}D RENAME ATTRIBUTE %{colname}I TO %{newname}I %{cascade}s", {
        "identity": w.qname(n.identity),
        "colname": n.attribute,
        "newname": n.new_name,
        "cascade": {"fmt": "CASCADE", "present": n.cascade},
    })


@emits(RenameConstraint)
def rename_constraint(n: RenameConstraint, w: Writer) -> dict[str, Any]:
    return fit(n.layout, "ALTER TABLE %{identity}D RENAME CONSTRAINT %{oldname}I TO %{newname}I", {
        "identity": w.qname(n.identity),
        "oldname": n.constraint,
        "newname": n.new_name,
    })


@emits(RenameSchema)
def rename_schema(n: RenameSchema, w: Writer) -> dict[str, Any]:
    return fit(n.layout, "ALTER SCHEMA %{identity}I RENAME TO %{newname}I",
               {"identity": n.identity, "newname": n.new_name})


@emits(RenameType)
def rename_type(n: RenameType, w: Writer) -> dict[str, Any]:
    return fit(n.layout, "ALTER TYPE %{identity}D RENAME TO %{newname}I",
               {"identity": w.qname(n.identity), "newname": n.new_name})


@emits(RenamePair)
def rename_pair(n: RenamePair, w: Writer) -> dict[str, Any]:
    return fit(n.layout, "%{ori}D TO %{modify}D", {"ori": w.qname(n.old), "modify": w.qname(n.new)})


@emits(RenameTables)
def rename_tables(n: RenameTables, w: Writer) -> dict[str, Any]:
    return fit(n.layout, "RENAME TABLE %{renamelist:, }s", {"renamelist": [w.tree(p) for p in n.pairs]})
