"""GaussDB catalog types -> PostgreSQL types (the backend's TYPE_MAP)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...diagnostics import Severity, register
from ...ir.type_limits import check_type_limits
from ...ir.names import TypeName
from ..writer import pg_ident

W_TYPE_APPROX = register(
    "DDLC-W602", Severity.WARNING, "Type mapped to a wider PostgreSQL type",
    "The GaussDB type has no exact PostgreSQL counterpart; the column gets the closest type that holds "
    "every value (for example int16 -> numeric(39,0), hash16 -> bytea). Range checks the GaussDB type "
    "enforced are not reproduced.",
    "pg_catalog.int16 -> numeric(39,0)",
)
I_TYPE_RENAMED = register(
    "DDLC-I601", Severity.INFO, "Type renamed for PostgreSQL",
    "A GaussDB-only type name was replaced by the PostgreSQL type with the same values "
    "(varchar2 -> varchar, clob -> text, blob/raw -> bytea, smalldatetime -> timestamp(0), "
    "int1 -> smallint: GaussDB's tinyint is unsigned 0..255, which smallint holds).",
)

# name -> (PostgreSQL spelling, keep typmod?, diagnostic code or None)
TYPE_MAP: dict[str, tuple[str, bool, str | None]] = {
    "int1": ("smallint", False, I_TYPE_RENAMED),
    "tinyint": ("smallint", False, I_TYPE_RENAMED),
    "int2": ("smallint", False, None),
    "int4": ("integer", False, None),
    "int8": ("bigint", False, None),
    "int16": ("numeric(39,0)", False, W_TYPE_APPROX),
    "float4": ("real", False, None),
    "float8": ("double precision", False, None),
    "binary_double": ("double precision", False, I_TYPE_RENAMED),
    "numeric": ("numeric", True, None),
    "number": ("numeric", True, I_TYPE_RENAMED),
    "decimal": ("numeric", True, None),
    "varchar": ("varchar", True, None),
    "varchar2": ("varchar", True, I_TYPE_RENAMED),
    "nvarchar2": ("varchar", True, I_TYPE_RENAMED),
    "nvarchar": ("varchar", True, I_TYPE_RENAMED),
    "bpchar": ("bpchar", True, None),
    "char": ('"char"', False, None),  # the one-byte type; bare char would be character(1)
    "nchar": ("char", True, I_TYPE_RENAMED),
    "text": ("text", False, None),
    "clob": ("text", False, I_TYPE_RENAMED),
    "blob": ("bytea", False, I_TYPE_RENAMED),
    "raw": ("bytea", False, I_TYPE_RENAMED),
    "bytea": ("bytea", False, None),
    "byteawithoutorderwithequalcol": ("bytea", False, I_TYPE_RENAMED),
    "byteawithoutordercol": ("bytea", False, I_TYPE_RENAMED),
    "smalldatetime": ("timestamp(0) without time zone", False, I_TYPE_RENAMED),
    "date": ("date", False, None),
    "timestamp": ("timestamp", True, None),
    "timestamptz": ("timestamptz", True, None),
    "time": ("time", True, None),
    "timetz": ("timetz", True, None),
    "interval": ("interval", True, None),
    "bool": ("boolean", False, None),
    "hash16": ("bytea", False, W_TYPE_APPROX),
    "hash32": ("bytea", False, W_TYPE_APPROX),
}


# the pglast TypeName of each TYPE_MAP spelling (as ``SELECT NULL::<spelling>`` parses): (names, typmods)
TYPE_NODES: dict[str, tuple[tuple[str, ...], tuple[int, ...] | None]] = {
    "smallint": (("pg_catalog", "int2"), None),
    "integer": (("pg_catalog", "int4"), None),
    "bigint": (("pg_catalog", "int8"), None),
    "numeric(39,0)": (("pg_catalog", "numeric"), (39, 0)),
    "real": (("pg_catalog", "float4"), None),
    "double precision": (("pg_catalog", "float8"), None),
    "numeric": (("pg_catalog", "numeric"), None),
    "varchar": (("pg_catalog", "varchar"), None),
    "bpchar": (("bpchar",), None),
    '"char"': (("char",), None),
    "char": (("pg_catalog", "bpchar"), (1,)),
    "text": (("text",), None),
    "bytea": (("bytea",), None),
    "timestamp(0) without time zone": (("pg_catalog", "timestamp"), (0,)),
    "date": (("date",), None),
    "timestamp": (("pg_catalog", "timestamp"), None),
    "timestamptz": (("timestamptz",), None),
    "time": (("pg_catalog", "time"), None),
    "timetz": (("timetz",), None),
    "interval": (("pg_catalog", "interval"), None),
    "boolean": (("pg_catalog", "bool"), None),
}


def type_node(spelling: str) -> Any:
    """A new pglast ``TypeName`` node for a TYPE_MAP spelling (built, not parsed)."""
    from pglast import ast

    names, typmods = TYPE_NODES[spelling]
    return ast.TypeName(names=tuple(ast.String(sval=n) for n in names), setof=False, pct_type=False,
                        typmods=None if typmods is None else tuple(ast.A_Const(isnull=False, val=ast.Integer(ival=i))
                                                                    for i in typmods), typemod=-1)


def map_type(t: TypeName, e: Any) -> str:
    """The PostgreSQL spelling of ``t`` (its diagnostic, when it has one, given to ``e``); the spelling and the
    diagnostic remembered per (name, schema, typmod, array): a stream repeats a few hundred types."""
    key = (t.name, t.schema, t.typmod, t.array)
    hit = _MAPPED.get(key)
    if hit is None:
        hit = _mapped(t)  # (the typmod checked first: a typmod is never written unchecked; refused, not kept)
        if len(t.name) + len(t.typmod) < 128:  # (short keys only: the memo holds no document's long text)
            if len(_MAPPED) >= 4096:
                _MAPPED.clear()
            _MAPPED[key] = hit
    text, code, message = hit
    if code is not None:
        e.diag(code, message, t.origin)
    return text


_MAPPED: dict[tuple[str, str | None, str, bool], tuple[str, str | None, str]] = {}


def _mapped(t: TypeName) -> tuple[str, str | None, str]:
    """(spelling, diagnostic code or None, its message) of ``t`` (:func:`map_type`'s, made)."""
    if t.typmod:  # the server's limits, whatever built the type (a typmod is never written unchecked)
        check_type_limits(t.name, t.schema, t.typmod, t.origin)
    code = None
    message = ""
    if t.schema == "":  # SQL-standard spelling with its modifier inside (TIMESTAMP(0) without time zone)
        text = t.name + t.typmod
    elif t.schema in (None, "pg_catalog") and t.name in TYPE_MAP:
        pg, keep, code = TYPE_MAP[t.name]
        text = pg + (t.typmod if keep else "")
        if t.name == "bpchar" and t.typmod:
            text = "character" + t.typmod
        if code is not None:
            message = f"type {t.name} written as {pg}"
    elif t.schema == "pg_catalog":
        text = pg_ident(t.name) + t.typmod
    elif t.schema is None:
        text = pg_ident(t.name) + t.typmod
    else:
        text = pg_ident(t.schema) + "." + pg_ident(t.name) + t.typmod
    if t.array:
        text += "[]"
    return text, code, message


class _Quiet:
    """Types written as the emitters write them, their diagnostics not kept (for the decisions of rules)."""

    __slots__ = ()

    def diag(self, *args: Any, **kw: Any) -> None:
        pass

    def type(self, t: TypeName) -> str:
        return map_type(t, self)


QUIET: Any = _Quiet()


def written_type(t: TypeName) -> str:
    """The PostgreSQL spelling ``map_type`` writes for ``t`` (no diagnostic)."""
    return map_type(t, QUIET)


__all__: list[str] = ["map_type", "written_type", "QUIET", "TYPE_MAP", "TYPE_NODES", "type_node"]
_unused: Callable | None = None
