"""GaussDB catalog types -> Spark SQL / Delta Lake types (the Spark target's type map).

:data:`TYPE_MAP` is the table; :func:`spark_type` applies it to a :class:`~ddlc.ir.names.TypeName`
and reports every choice that is not exact. The reasons for each choice are in
``docs/spark-mapping.md``. A type is a :class:`SparkType`, written as DDL text (:meth:`SparkType.sql`)
or handed to sqlglot as a node (:meth:`SparkType.node`, for casts inside expressions).

Type modifiers arrive as the server's typmod text, checked at build time by the frontend
(``frontend/sql/typmod.py``): ``(p[,s])`` and the interval / time-zone words; the numbers are read
from that checked form.
"""

from __future__ import annotations

from typing import Any

from ...records import record
from ...diagnostics import Severity, register
from ...ir.type_limits import check_type_limits
from ...ir.names import TypeName
from ... import lazyre

I_TYPE = register(
    "DDLC-I801", Severity.INFO, "Type written as the Spark type with the same values",
    "A GaussDB type name was replaced by the Spark type that holds exactly its values: int1/tinyint -> "
    "SMALLINT (GaussDB's tinyint is unsigned, 0..255), varchar2/nvarchar2 -> VARCHAR, clob -> STRING, "
    "blob/raw -> BINARY, smalldatetime and the A-mode date (timestamp(0)) -> TIMESTAMP_NTZ, oid -> BIGINT.",
    "c int1 -> c SMALLINT",
)
W_TYPE = register(
    "DDLC-W801", Severity.WARNING, "Type written as the closest Spark type",
    "Delta Lake has no column type with the GaussDB type's values or behaviour; the column gets the "
    "closest type that keeps the data: time, timetz, interval, json, jsonb, xml, uuid, inet, cidr, "
    "macaddr, bit, varbit, hash16/hash32, tsvector, geometric types and user-defined types (enums, "
    "composite types, domains) -> STRING (their text form); money -> DECIMAL(19,2); int16 -> DECIMAL(38,0); "
    "\"char\" -> CHAR(1). Checks the GaussDB type enforced (enum labels, formats, ranges) are not reproduced.",
    "c jsonb -> c STRING",
)
W_DECIMAL = register(
    "DDLC-W802", Severity.WARNING, "numeric without precision, or wider than 38 digits",
    "Spark's DECIMAL holds at most 38 digits. numeric without a precision (any number of digits) is "
    "written DECIMAL(38,18), Spark's own default decimal (DecimalType.SYSTEM_DEFAULT): values with more "
    "than 20 integer digits or more than 18 decimals do not fit. numeric(p,s) with p > 38 keeps its "
    "integer digits and loses decimals: DECIMAL(38, 38 - (p - s)), or DECIMAL(38,0) when p - s >= 38.",
    "c numeric -> c DECIMAL(38,18)",
)
I_PRECISION = register(
    "DDLC-I802", Severity.INFO, "Fractional-second precision dropped",
    "Spark timestamps always keep microseconds; timestamp(p) / timestamptz(p) with p < 6 become "
    "TIMESTAMP_NTZ / TIMESTAMP (the rounding to p digits GaussDB applied on insert is not repeated; the "
    "replicated values are already rounded).",
    "c timestamp(0) -> c TIMESTAMP_NTZ",
)
I_STRING = register(
    "DDLC-I803", Severity.INFO, "Character type written as STRING",
    "varchar(n) and char(n) are written as STRING (--spark-varchar string, or no length given): no "
    "length limit is enforced and char values are not blank-padded.",
)


@record(frozen=True, slots=True)
class SparkType:
    """A Spark type: ``name`` (``BIGINT``, ``DECIMAL``, ``VARCHAR``, ``ARRAY``...), its numeric
    parameters, and the element type of an ``ARRAY``."""

    name: str
    params: tuple[int, ...] = ()
    element: SparkType | None = None

    def sql(self) -> str:
        if self.element is not None:
            return f"{self.name}<{self.element.sql()}>"
        if self.params:
            return self.name + "(" + ",".join(str(p) for p in self.params) + ")"
        return self.name

    @property
    def is_integer(self) -> bool:
        return self.name in ("TINYINT", "SMALLINT", "INT", "BIGINT")

    def node(self) -> Any:
        """The sqlglot ``DataType`` node (built, not parsed)."""
        from sqlglot import exp

        T = exp.DataType.Type
        if self.element is not None:
            return exp.DataType(this=T.ARRAY, expressions=[self.element.node()], nested=True)
        kind = {"INT": T.INT, "SMALLINT": T.SMALLINT, "BIGINT": T.BIGINT, "TINYINT": T.TINYINT, "FLOAT": T.FLOAT,
                "DOUBLE": T.DOUBLE, "DECIMAL": T.DECIMAL, "STRING": T.TEXT, "VARCHAR": T.VARCHAR, "CHAR": T.CHAR,
                "BINARY": T.VARBINARY, "BOOLEAN": T.BOOLEAN, "DATE": T.DATE, "TIMESTAMP": T.TIMESTAMP,
                "TIMESTAMP_NTZ": T.TIMESTAMPNTZ}[self.name]
        params = [exp.DataTypeParam(this=exp.Literal.number(p)) for p in self.params]
        return exp.DataType(this=kind, expressions=params or None, nested=False)


def _t(name: str, *params: int) -> SparkType:
    return SparkType(name, params)


BIGINT = _t("BIGINT")
STRING = _t("STRING")

# catalog name (pg_catalog) -> (Spark type or a kind word, diagnostic code or None)
# kind words: "decimal" (numeric's typmod), "varchar", "char" (length typmod), "timestamp_ntz",
# "timestamp" (precision typmod dropped)
TYPE_MAP: dict[str, tuple[SparkType | str, str | None]] = {
    "int1": (_t("SMALLINT"), I_TYPE), "tinyint": (_t("SMALLINT"), I_TYPE),
    "int2": (_t("SMALLINT"), None), "int4": (_t("INT"), None), "int8": (BIGINT, None),
    "int16": (_t("DECIMAL", 38, 0), W_TYPE),
    "float4": (_t("FLOAT"), None), "float8": (_t("DOUBLE"), None), "binary_double": (_t("DOUBLE"), I_TYPE),
    "numeric": ("decimal", None), "number": ("decimal", I_TYPE), "decimal": ("decimal", None),
    "money": (_t("DECIMAL", 19, 2), W_TYPE),
    "varchar": ("varchar", None), "varchar2": ("varchar", I_TYPE), "nvarchar2": ("varchar", I_TYPE),
    "nvarchar": ("varchar", I_TYPE),
    "bpchar": ("char", None), "nchar": ("char", I_TYPE), "char": (_t("CHAR", 1), W_TYPE),
    "text": (STRING, None), "clob": (STRING, I_TYPE), "name": (STRING, I_TYPE),
    "bytea": (_t("BINARY"), None), "blob": (_t("BINARY"), I_TYPE), "raw": (_t("BINARY"), I_TYPE),
    "byteawithoutorderwithequalcol": (_t("BINARY"), I_TYPE), "byteawithoutordercol": (_t("BINARY"), I_TYPE),
    "bool": (_t("BOOLEAN"), None),
    "date": (_t("DATE"), None),
    "smalldatetime": (_t("TIMESTAMP_NTZ"), I_TYPE),
    "timestamp": ("timestamp_ntz", None), "timestamptz": ("timestamp", None),
    "oid": (BIGINT, I_TYPE),
}
# pg_catalog types that become STRING (their text form) with DDLC-W801
AS_STRING = frozenset({
    "time", "timetz", "interval", "json", "jsonb", "xml", "uuid", "inet", "cidr", "macaddr", "macaddr8", "bit",
    "varbit", "hash16", "hash32", "tsvector", "tsquery", "point", "line", "lseg", "box", "path", "polygon",
    "circle", "reltime", "abstime", "tinterval", "int4range", "int8range", "numrange", "tsrange", "tstzrange",
    "daterange", "regclass", "regproc", "regtype", "txid_snapshot", "pg_lsn",
})
# SQL-standard spellings (TypeName.schema == ""): lower-cased words -> catalog name
SPELLINGS = {
    "integer": "int4", "int": "int4", "smallint": "int2", "bigint": "int8", "tinyint": "int1", "real": "float4",
    "double precision": "float8", "float": "float8", "numeric": "numeric", "decimal": "numeric", "dec": "numeric",
    "boolean": "bool", "character varying": "varchar", "varchar": "varchar", "character": "bpchar",
    "char": "bpchar", "national character varying": "nvarchar2", "national character": "nchar", "nchar": "nchar",
    "timestamp": "timestamp", "time": "time", "interval": "interval", "bit": "bit", "bit varying": "varbit",
    "date": "date", "text": "text",
}

_NUMS = lazyre.compile(r"\(\s*(\d+)\s*(?:,\s*(-?\d+)\s*)?\)")


def typmod_numbers(typmod: str) -> tuple[int, ...]:
    """The numbers of a checked typmod's ``(p[,s])`` part (``()`` when it has none)."""
    m = _NUMS.match(typmod.strip())
    if m is None:
        return ()
    return tuple(int(g) for g in m.groups() if g is not None)


def _with_tz(typmod: str) -> bool:
    words = typmod.lower().split()
    return "with" in words and "without" not in words


def spark_type(t: TypeName, e: Any) -> SparkType:
    """The Spark type of ``t``; each inexact choice reported on ``e`` (``e.diag``) with ``t``'s path."""
    if t.typmod:  # the server's limits first: the numbers read below are then int4s
        check_type_limits(t.name, t.schema, t.typmod, t.origin)
    base = _base(t, e)
    return SparkType("ARRAY", element=base) if t.array else base


def _spelling(t: TypeName) -> tuple[str, bool]:
    """An SQL-standard spelling's words without a time-zone phrase, and whether it says WITH TIME ZONE
    (the phrase sits in the name or after the typmod: ``TIMESTAMP(3) with time zone``)."""
    words = t.name.lower().split()
    tz = _with_tz(t.typmod)
    if words[-3:] == ["with", "time", "zone"]:
        words, tz = words[:-3], words[-4:-3] != ["without"] or tz
    if words[-1:] == ["without"]:
        words = words[:-1]
    return " ".join(words), tz


def catalog_name(t: TypeName) -> str | None:
    """The pg_catalog name of a built-in type (``int4``, ``varchar``...), None for a user type."""
    if t.schema == "":
        words, tz = _spelling(t)
        name = SPELLINGS.get(words, words)
        return name + "tz" if tz and name in ("timestamp", "time") else name
    if t.schema in (None, "pg_catalog") and (t.name in TYPE_MAP or t.name in AS_STRING):
        return t.name
    return None


def _base(t: TypeName, e: Any) -> SparkType:
    name = catalog_name(t)
    if name is None or (name not in TYPE_MAP and name not in AS_STRING):
        what = t.name if t.schema in (None, "", "pg_catalog") else f"{t.schema}.{t.name}"
        e.diag(W_TYPE, f"type {what} (user-defined or unknown) written as STRING", t.origin)
        return STRING
    if name in AS_STRING:
        e.diag(W_TYPE, f"type {t.name}{t.typmod} written as STRING", t.origin)
        return STRING
    mapped, code = TYPE_MAP[name]
    nums = typmod_numbers(t.typmod)
    if isinstance(mapped, SparkType):
        out = mapped
    elif mapped == "decimal":
        out = _decimal(t, nums, e)
    elif mapped in ("varchar", "char"):
        if not nums or getattr(e, "varchar_as_string", False):
            e.diag(I_STRING, f"type {t.name}{t.typmod} written as STRING", t.origin)
            return STRING
        out = _t("VARCHAR" if mapped == "varchar" else "CHAR", nums[0])
    else:  # timestamp_ntz / timestamp
        if nums and nums[0] < 6:
            e.diag(I_PRECISION, f"type {t.name}{t.typmod}: precision {nums[0]} not kept (microseconds)", t.origin)
            code = None
        out = _t("TIMESTAMP_NTZ" if mapped == "timestamp_ntz" else "TIMESTAMP")
    if code is not None:
        e.diag(code, f"type {t.name}{t.typmod} written as {out.sql()}", t.origin)
    return out


def _decimal(t: TypeName, nums: tuple[int, ...], e: Any) -> SparkType:
    if not nums:
        e.diag(W_DECIMAL, f"type {t.name} without precision written as DECIMAL(38,18)", t.origin)
        return _t("DECIMAL", 38, 18)
    p, s = nums[0], (nums[1] if len(nums) > 1 else 0)
    if s < 0 or s > p:  # GaussDB accepts neither; keep the integer digits
        s = max(0, min(s, p))
    if p <= 38:
        return _t("DECIMAL", p, s)
    out = _t("DECIMAL", 38, max(0, 38 - (p - s)))
    e.diag(W_DECIMAL, f"type {t.name}{t.typmod} written as {out.sql()} (Spark's limit is 38 digits)", t.origin)
    return out


__all__ = ["SparkType", "TYPE_MAP", "AS_STRING", "spark_type", "catalog_name", "typmod_numbers"]
