"""Shared pieces of the hand-written-SQL reader (:mod:`.pgtext`): names, types, expressions, columns.

Every function here turns a node of PostgreSQL's raw parse tree (pglast) into the JDDL member the
deparser would have written for it (reference §3), or raises :class:`Declined` with the offset of the
node it cannot read: nothing the statement says is ever dropped on the way.
"""

from __future__ import annotations

from typing import Any

from ...quoting import quote_ident
from ..recover import raw_sql


class Declined(Exception):
    """The statement parses but holds something this reader does not turn into a tree."""

    def __init__(self, message: str, node: Any = None) -> None:
        super().__init__(message)
        self.message = message
        loc = getattr(node, "location", None)
        self.location: int | None = loc if isinstance(loc, int) and loc >= 0 else None


def deparse(node: Any) -> str:
    """PostgreSQL's text of ``node`` (pglast's deparser)."""
    try:
        return raw_sql(node)
    except Exception as e:  # noqa: BLE001 - a node pglast's printer does not know
        raise Declined(f"{type(node).__name__} not written back ({e})", node) from None


def strings(nodes: Any) -> list[str]:
    """The values of a list of ``String`` nodes (names), or Declined."""
    from pglast import ast

    out = []
    for n in nodes or ():
        if not isinstance(n, ast.String):
            raise Declined(f"{type(n).__name__} where a name was expected", n)
        out.append(n.sval)
    return out


def qname(rv: Any) -> dict[str, str]:
    """A ``RangeVar`` as a ``%D`` object (no schema when none was written: ``--default-schema`` applies)."""
    if rv.catalogname:
        raise Declined("a three-part relation name", rv)
    out = {"objname": rv.relname}
    if rv.schemaname:
        out["schemaname"] = rv.schemaname
    return out


def name_list(names: list[str], node: Any, parts: int = 2) -> dict[str, str]:
    """``[schema.]name`` as a ``%D`` object."""
    if not 1 <= len(names) <= parts:
        raise Declined(f"a name of {len(names)} parts", node)
    out = {"objname": names[-1]}
    if len(names) == 2:
        out["schemaname"] = names[0]
    return out


def identity(names: list[str]) -> str:
    """A pre-quoted object identity (DROP ``objidentity``, COMMENT ``identity``)."""
    return ".".join(quote_ident(n) for n in names)


# ---- types (reference §3.2, §1.8): what format_type_detailed writes -----------------------------------
_TIME = {  # catalog name -> (name without typmod, name with typmod, zone words of the typmod)
    "timestamp": ("TIMESTAMP", "TIMESTAMP", " without time zone"),
    "timestamptz": ("TIMESTAMP WITH TIME ZONE", "TIMESTAMP", " with time zone"),
    "time": ("TIME", "TIME", " without time zone"),
    "timetz": ("TIME WITH TIME ZONE", "TIME", " with time zone"),
}
_LENGTH = frozenset({"varchar", "bpchar", "bit", "varbit"})
_SERIAL = frozenset({"serial", "serial2", "serial4", "serial8", "smallserial", "bigserial"})
_FIELDS = ((1 << 2, "year"), (1 << 1, "month"), (1 << 3, "day"), (1 << 10, "hour"), (1 << 11, "minute"),
           (1 << 12, "second"))
_FULL_RANGE, _FULL_PRECISION = 0x7FFF, 0xFFFF


def _ints(tn: Any) -> list[int]:
    from pglast import ast

    out = []
    for m in tn.typmods or ():
        if not (isinstance(m, ast.A_Const) and isinstance(m.val, ast.Integer)):
            raise Declined("a type modifier that is not an integer constant", m)
        out.append(m.val.ival)
    return out


def _interval(mods: list[int], tn: Any) -> str:
    if not mods:
        return ""
    mask = mods[0]
    if mask == _FULL_RANGE:
        fields = ""
    else:
        names = [w for bit, w in _FIELDS if mask & bit]
        if not names or sum(bit for bit, _ in _FIELDS if mask & bit) != mask:
            raise Declined("interval fields not understood", tn)
        fields = " " + (names[0] if len(names) == 1 else f"{names[0]} to {names[-1]}")
    if len(mods) == 1 or mods[1] == _FULL_PRECISION:
        return fields
    if len(mods) > 2:
        raise Declined("too many interval modifiers", tn)
    return f"{fields}({mods[1]})"


def type_tree(tn: Any) -> dict[str, Any]:
    """A ``TypeName`` as the ``%T`` object the deparser writes. Keywords pglast resolved to ``pg_catalog``
    types get the catalog's name and typmod text; any other name is kept as written (unqualified: the
    target's search path decides, nothing is guessed)."""
    if tn.setof or tn.pct_type:
        raise Declined("SETOF or %TYPE in a column type", tn)
    names = strings(tn.names)
    arr = bool(tn.arrayBounds)
    mods = _ints(tn)
    if not 1 <= len(names) <= 2:
        raise Declined(f"a type name of {len(names)} parts", tn)
    name = names[-1]
    catalog = len(names) == 2 and names[0] == "pg_catalog"
    if name in _SERIAL and (catalog or len(names) == 1):
        raise Declined(f"{name} is not a type (the server makes a sequence of it)", tn)
    if catalog and name in _TIME:
        if len(mods) > 1:
            raise Declined("too many time precision modifiers", tn)
        bare, typed, zone = _TIME[name]
        if not mods:
            return {"typmod": "", "typarray": arr, "typename": bare, "schemaname": ""}
        return {"typmod": f"({mods[0]}){zone}", "typarray": arr, "typename": typed, "schemaname": ""}
    if catalog and name == "interval":
        return {"typmod": _interval(mods, tn), "typarray": arr, "typename": "INTERVAL", "schemaname": ""}
    typmod = ""
    if mods:
        if catalog and name == "numeric" and len(mods) <= 2:
            typmod = f"({mods[0]},{mods[1] if len(mods) == 2 else 0})"
        elif catalog and name in _LENGTH and len(mods) == 1:
            typmod = f"({mods[0]})"
        else:  # the text the type's typmod-out function would write is not known here
            raise Declined(f"type modifiers of type {'.'.join(names)}", tn)
    out: dict[str, Any] = {"typmod": typmod, "typarray": arr, "typename": name}
    if len(names) == 2:
        out["schemaname"] = names[0]
    return out


# ---- columns and constraints (reference §3.3, §3.4) -----------------------------------------------------
_CONTYPES = {"CONSTR_CHECK": "check", "CONSTR_PRIMARY": "primary key", "CONSTR_UNIQUE": "unique",
             "CONSTR_FOREIGN": "foreign key", "CONSTR_EXCLUSION": "exclusion"}


def constraint_element(c: Any, column: str | None = None) -> dict[str, Any]:
    """A table constraint element; a column constraint becomes the table constraint it stands for."""
    import copy

    from pglast import ast

    contype = _CONTYPES.get(c.contype.name)
    if contype is None:
        raise Declined(f"constraint {c.contype.name} not read", c)
    body = copy.deepcopy(c)
    body.conname = None
    if column is not None:
        if contype in ("primary key", "unique") and not body.keys:
            body.keys = (ast.String(column),)
        elif contype == "foreign key" and not body.fk_attrs:
            body.fk_attrs = (ast.String(column),)
        elif contype == "exclusion":
            raise Declined("a column EXCLUDE constraint", c)
    definition = deparse(body)
    if c.conname:
        return {"fmt": "CONSTRAINT %{name}I %{definition}s", "name": c.conname, "type": "constraint",
                "contype": contype, "definition": definition}
    return {"fmt": "%{definition}s", "type": "constraint", "contype": contype, "definition": definition}


_ATTRS = {"CONSTR_ATTR_DEFERRABLE": ("deferrable", True), "CONSTR_ATTR_NOT_DEFERRABLE": ("deferrable", False),
          "CONSTR_ATTR_DEFERRED": ("initdeferred", True), "CONSTR_ATTR_IMMEDIATE": ("initdeferred", False)}


def column_tree(cd: Any, *, in_create: bool) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A ``ColumnDef`` as a column object, and the table constraint elements its column constraints stand
    for (CREATE TABLE only; ADD COLUMN takes NOT NULL, NULL, DEFAULT, COLLATE and stored generation only)."""
    import copy

    from pglast import ast

    if cd.typeName is None:
        raise Declined(f"column {cd.colname} has no type", cd)
    for attr in ("fdwoptions", "compression", "raw_default", "cooked_default"):
        if getattr(cd, attr, None):
            raise Declined(f"column option {attr} not read", cd)
    if (cd.identity or "\x00") != "\x00" or (cd.generated or "\x00") != "\x00":
        raise Declined("an identity or generated column attribute", cd)
    if (cd.storage or "\x00") != "\x00" or cd.storage_name:
        raise Declined("a column STORAGE clause", cd)
    not_null = null = False
    default = generated = None
    pending: list[Any] = []
    for c in cd.constraints or ():
        if not isinstance(c, ast.Constraint):
            raise Declined(f"{type(c).__name__} in a column definition", c)
        kind = c.contype.name
        if kind in ("CONSTR_NOTNULL", "CONSTR_NULL", "CONSTR_DEFAULT") and c.conname:
            raise Declined(f"a named {kind[7:]} constraint", c)
        if kind == "CONSTR_NOTNULL":
            not_null = True
        elif kind == "CONSTR_NULL":
            null = True
        elif kind == "CONSTR_DEFAULT":
            if default is not None:
                raise Declined("two DEFAULT clauses", c)
            default = deparse(c.raw_expr)
        elif kind == "CONSTR_GENERATED" and c.generated_when == "a" and (c.generated_kind or "s") == "s":
            generated = deparse(c.raw_expr)
        elif in_create and kind in _CONTYPES:
            pending.append(copy.deepcopy(c))
        elif in_create and kind in _ATTRS and pending and _CONTYPES[pending[-1].contype.name] != "check":
            setattr(pending[-1], *_ATTRS[kind])  # DEFERRABLE... applies to the constraint before it
        else:
            raise Declined(f"column constraint {kind} not read{'' if in_create else ' in ADD COLUMN'}", c)
    if not_null and null:
        raise Declined("NULL and NOT NULL on one column", cd)
    elements = [constraint_element(c, cd.colname) for c in pending]
    if generated is not None and default is not None:
        raise Declined("DEFAULT on a generated column", cd)
    fmt = "%{name}I %{coltype}T %{collation}s %{default}s"
    col: dict[str, Any] = {"name": cd.colname, "type": "column", "coltype": type_tree(cd.typeName)}
    if cd.collClause is not None:
        col["collation"] = {"fmt": "COLLATE %{name}D",
                            "name": name_list(strings(cd.collClause.collname), cd.collClause)}
    else:
        col["collation"] = {"fmt": "COLLATE %{name}D", "present": False}
    col["default"] = ({"fmt": "DEFAULT %{default}s", "present": False} if default is None
                      else {"fmt": "DEFAULT %{default}s", "default": default})
    if not_null:
        fmt += " %{not_null}s"
        col["not_null"] = "NOT NULL"
    fmt += " %{generated_column}s"
    gen_fmt = "GENERATED ALWAYS AS (%{generation_expr}s) STORED"
    col["generated_column"] = ({"fmt": gen_fmt, "present": False} if generated is None
                               else {"fmt": gen_fmt, "generation_expr": generated})
    return {"fmt": fmt, **col}, elements


__all__ = ["Declined", "column_tree", "constraint_element", "deparse", "identity", "name_list", "qname",
           "strings", "type_tree"]
