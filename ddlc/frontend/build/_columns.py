"""Reading column definitions (reference §3.3), shared by CREATE TABLE, ALTER TABLE, CREATE TYPE."""

from __future__ import annotations

from typing import Any

from ...errors import Path
from ...ir.columns import ColumnDef, GeneratedKind
from ...ir.names import TypeName
from ..sql.expr import make_expr
from ._read import BuildContext, Obj, read_qname, read_type

_STORED, _PERSISTED = GeneratedKind.STORED, GeneratedKind.PERSISTED
_ABSENT: object = object()


def read_column(o: Obj) -> ColumnDef:
    """A column element. Each member's common form (present under its first spelling, of the type the server
    writes) is read here at once; any other form goes through :class:`Obj`'s accessor for that member, which
    reads it as before (same values, same errors, in the same order: tests/test_throughput_build.py)."""
    return read_column_of(o.d, o.path, o.ctx, o)


def read_column_of(d: Any, path: Path, ctx: BuildContext, o: Obj | None = None) -> ColumnDef:
    """:func:`read_column` of the element ``d`` at ``path``: its :class:`Obj` made only for a member not of the
    common form (``o``: the one the caller has). A type of the common form (a schema named, no typmod, a bool
    ``typarray``, a string name: what :func:`read_type` reads without a check) is read here too."""
    t = d.get("coltype")
    if t.__class__ is dict:
        if t.get("present", True) is False:
            coltype = None
        else:
            schema, name, arr = t.get("schemaname"), t.get("typename"), t.get("typarray", False)
            if (schema.__class__ is str and schema and name.__class__ is str and arr.__class__ is bool
                    and t.get("typmod", "") == ""):
                coltype = TypeName(name, schema, "", arr, origin=path + ("coltype",))
            else:
                coltype = read_type(Obj(t, path + ("coltype",), ctx))
    else:
        o = o or Obj(d, path, ctx)
        coltype = None
        t = o.raw("coltype", None)
        if isinstance(t, dict) and t.get("present", True) is not False:
            coltype = read_type(Obj(t, o.at("coltype"), ctx))
        elif t is not None and not isinstance(t, dict):
            raise ctx.error('element "coltype" must be an object', o.at("coltype"))
    collation = None
    c = d.get("collation")
    n = c.get("name") if c.__class__ is dict and c.get("present", True) is not False else None
    if n.__class__ is dict:  # (the common collation: its has("name") and qname("name") at once)
        collation = read_qname(Obj(n, path + ("collation", "name"), ctx))
    else:
        o = o or Obj(d, path, ctx)
        if c.__class__ is dict:
            coll = None if c.get("present", True) is False else Obj(c, path + ("collation",), ctx)
        else:
            coll = o.opt_obj("collation")
        if coll is not None and coll.has("name"):
            collation = coll.qname("name")
        elif "collate" in d:  # pre-release shape: COLLATE %{collate}D (one spelling: o.has("collate"))
            collation = o.qname("collate")
    default = None
    v = d.get("default")
    if v.__class__ is dict:
        if v.get("present", True) is not False:
            e = v.get("default")  # (a string: Obj(v).expr("default") at once)
            default = (make_expr(e, path + ("default", "default")) if e.__class__ is str
                       else Obj(v, path + ("default",), ctx).expr("default"))
    else:
        dd = (o or Obj(d, path, ctx)).opt_obj("default")
        if dd is not None:
            default = dd.expr("default")
    generated, kind = None, _STORED
    v = d.get("generated_column")
    g = (None if v.get("present", True) is False else Obj(v, path + ("generated_column",), ctx)
         ) if v.__class__ is dict else (o or Obj(d, path, ctx)).opt_obj("generated_column")
    if g is not None:
        generated = g.expr("generation_expr")
        if "PERSISTED" in g.fmt:
            kind = _PERSISTED
    v = d.get("on_update")  # (one spelling: absent or null is what opt_str reads as None)
    on_update = (v or None) if v.__class__ is str else None if v is None else (o or Obj(d, path, ctx)).opt_str("on_update")
    v = d.get("name")
    name = v if v.__class__ is str else (o or Obj(d, path, ctx)).str("name")
    v = d.get("auto_increment", _ABSENT)
    auto_increment = bool(v.strip()) if v.__class__ is str else (v is not _ABSENT and (o or Obj(d, path, ctx)).flag("auto_increment"))
    on_update_expr = None if on_update is None else make_expr(on_update, (o or Obj(d, path, ctx)).at("on_update"))
    v = d.get("not_null", _ABSENT)
    not_null = bool(v.strip()) if v.__class__ is str else (v is not _ABSENT and (o or Obj(d, path, ctx)).flag("not_null"))
    v = d.get("fmt")
    return ColumnDef(
        name,
        coltype,
        collation,
        auto_increment,
        default,
        on_update_expr,
        not_null,
        generated,
        kind,
        layout=v if isinstance(v, str) else "",
        origin=path,
    )
