"""Reading column definitions (reference §3.3), shared by CREATE TABLE, ALTER TABLE, CREATE TYPE."""

from __future__ import annotations

from ...ir.columns import ColumnDef, GeneratedKind
from ..sql.expr import make_expr
from ._read import Obj, read_type


def read_column(o: Obj) -> ColumnDef:
    coltype = None
    t = o.raw("coltype", None)
    if isinstance(t, dict) and t.get("present", True) is not False:
        coltype = read_type(Obj(t, o.at("coltype"), o.ctx))  # (o.obj("coltype"), without reading it again)
    elif t is not None and not isinstance(t, dict):
        raise o.ctx.error('element "coltype" must be an object', o.at("coltype"))
    collation = None
    coll = o.opt_obj("collation")
    if coll is not None and coll.has("name"):
        collation = coll.qname("name")
    elif o.has("collate"):  # pre-release shape: COLLATE %{collate}D
        collation = o.qname("collate")
    default = None
    d = o.opt_obj("default")
    if d is not None:
        default = d.expr("default")
    generated, kind = None, GeneratedKind.STORED
    g = o.opt_obj("generated_column")
    if g is not None:
        generated = g.expr("generation_expr")
        if "PERSISTED" in g.fmt:
            kind = GeneratedKind.PERSISTED
    on_update = o.opt_str("on_update")
    return ColumnDef(
        o.str("name"),
        coltype,
        collation,
        auto_increment=o.flag("auto_increment"),
        default=default,
        on_update=None if on_update is None else make_expr(on_update, o.at("on_update")),
        not_null=o.flag("not_null"),
        generated=generated,
        generated_kind=kind,
        layout=o.fmt,
        origin=o.path,
    )
