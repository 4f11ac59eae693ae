"""The server's limits on type modifiers (its typmod-input functions), for every type ddlc writes.

A typmod in a tree is the output of the type's typmod-output function, so one the server's
typmod-input function would refuse was never written by the server: the document is refused
(``DDLC-E011``) on every target. The frontend checks the form (``frontend/sql/typmod.py``) and that
every number is an ``int4``; each backend calls :func:`check_type_limits` on every type it writes
(a typmod is never written unchecked, whatever built the type), which adds each built-in type's own
limits: ``varchar``/``char``/``nchar``/``nvarchar2`` length 1..10485760 (``MaxAttrSize``),
``bit``/``varbit`` length 1..83886080, ``numeric`` precision 1..1000 and scale 0..precision,
``timestamp``/``time``/``interval`` precision at most 6 (the server never prints more). Numbers are
checked by their digits before they become ints.
"""

from __future__ import annotations

import re

from ..diagnostics import E_FRAGMENT
from ..errors import DdlcError, Path
from .. import lazyre

MAX_ATTR_SIZE = 10485760  # MaxAttrSize: the longest varchar(n) / char(n)
MAX_BIT_LENGTH = MAX_ATTR_SIZE * 8
NUMERIC_MAX_PRECISION = 1000
MAX_TIME_PRECISION = 6  # MAX_TIMESTAMP_PRECISION, MAX_TIME_PRECISION, MAX_INTERVAL_PRECISION
INT4_MAX = 2**31 - 1
_FIELD = r"(?:year|month|day|hour|minute|second)"
_NUMBER = lazyre.compile(r"\d+", re.ASCII)
_ARGS = lazyre.compile(r"\s*\(([^()]*)\)", re.ASCII)
_FIELD_PRECISION = lazyre.compile(rf"{_FIELD}(?:\s+to\s+{_FIELD})?\s*\(\s*(\d+)\s*\)", re.IGNORECASE | re.ASCII)
_ZONE_WORDS = lazyre.compile(r"\s+with(?:out)?\s+time\s+zone\Z", re.IGNORECASE | re.ASCII)
# SQL-standard spellings (schemaname "") of the types with limits -> catalog name
_SPELLED = {
    "character varying": "varchar", "varchar": "varchar", "char varying": "varchar", "character": "bpchar",
    "char": "bpchar", "national character varying": "nvarchar2", "national char varying": "nvarchar2",
    "national character": "nchar", "national char": "nchar", "nchar": "nchar", "numeric": "numeric",
    "decimal": "numeric", "dec": "numeric", "timestamp": "timestamp", "time": "time", "interval": "interval",
    "bit": "bit", "bit varying": "varbit",
}
_LENGTH = {"varchar": MAX_ATTR_SIZE, "varchar2": MAX_ATTR_SIZE, "nvarchar2": MAX_ATTR_SIZE, "nvarchar": MAX_ATTR_SIZE,
           "bpchar": MAX_ATTR_SIZE, "nchar": MAX_ATTR_SIZE, "bit": MAX_BIT_LENGTH, "varbit": MAX_BIT_LENGTH}
_LENGTH_LABEL = {"bpchar": "char", "nchar": "char", "varbit": "bit varying"}
_TIME = {"timestamp": "TIMESTAMP", "timestamptz": "TIMESTAMP", "time": "TIME", "timetz": "TIME",
         "smalldatetime": "TIMESTAMP", "interval": "INTERVAL"}


def short(text: str) -> str:
    return repr(text) if len(text) <= 60 else repr(text[:40]) + f"... ({len(text)} characters)"


def int4_problem(text: str) -> str | None:
    """Every number of a typmod is an int4 (``ArrayGetIntegerTypmods``), checked by its digits first."""
    for m in _NUMBER.finditer(text):
        digits = m.group().lstrip("0")
        if len(digits) > 10 or int(digits or "0") > INT4_MAX:
            shown = m.group() if len(m.group()) <= 20 else m.group()[:20] + f"... ({len(m.group())} digits)"
            return f'value "{shown}" is out of range for type integer'
    return None


def catalog_name(name: str, schema: str | None) -> str | None:
    """The pg_catalog name of a built-in type with typmod limits, None for any other type."""
    if schema == "":
        words = " ".join(_ZONE_WORDS.sub("", " ".join(name.lower().split())).split())
        zone = name.lower().split()[-3:] == ["with", "time", "zone"] and "without" not in name.lower()
        base = _SPELLED.get(words)
        return base + "tz" if zone and base in ("timestamp", "time") else base
    if schema in (None, "pg_catalog"):
        return name.lower()
    return None


def typmod_problem(name: str, schema: str | None, typmod: str) -> str | None:
    """Why the server's typmod-input function would refuse ``typmod`` on this type (its message),
    or None. Types without known limits get the int4 check only."""
    if not typmod:
        return None
    problem = int4_problem(typmod)
    if problem is not None:
        return problem
    cat = catalog_name(name, schema)
    m = _ARGS.match(typmod)
    args = [a.strip() for a in m.group(1).split(",")] if m else []
    nums = [int(a) for a in args if a.isdigit()]
    if cat in _LENGTH:
        label = _LENGTH_LABEL.get(cat, cat)
        if len(args) != 1 or len(nums) != 1:
            return "invalid type modifier"
        if nums[0] < 1:
            return f"length for type {label} must be at least 1"
        if nums[0] > _LENGTH[cat]:
            return f"length for type {label} cannot exceed {_LENGTH[cat]}"
    elif cat in ("numeric", "decimal", "number"):
        if len(args) > 2 or len(nums) != len(args):
            return "invalid NUMERIC type modifier"
        if nums and not 1 <= nums[0] <= NUMERIC_MAX_PRECISION:
            return f"NUMERIC precision {nums[0]} must be between 1 and {NUMERIC_MAX_PRECISION}"
        if len(nums) == 2 and nums[1] > nums[0]:
            return f"NUMERIC scale {nums[1]} must be between 0 and precision {nums[0]}"
    elif cat in _TIME:
        precisions = nums if m else []
        if cat == "interval":
            f = _FIELD_PRECISION.search(typmod)
            precisions = precisions + ([int(f.group(1))] if f else [])
        if m and (len(args) != 1 or len(nums) != 1):
            return "invalid type modifier"
        for p in precisions:
            if p > MAX_TIME_PRECISION:
                tz = " WITH TIME ZONE" if cat.endswith("tz") or "with time zone" in typmod.lower() else ""
                return (f"{_TIME[cat]}({p}){tz} precision is above the maximum the server writes, "
                        f"{MAX_TIME_PRECISION}")
    return None


def check_type_limits(name: str, schema: str | None, typmod: str, path: Path, document: str | None = None) -> None:
    """A DdlcError (``DDLC-E011``) when the typmod is outside the server's limits for the type."""
    problem = typmod_problem(name, schema, typmod)
    if problem is not None:
        shown = name + (typmod if len(typmod) <= 60 else typmod[:40] + f"... ({len(typmod)} characters)")
        raise DdlcError(f"type {shown}: {problem}", code=E_FRAGMENT, path=path, document=document)


__all__ = ["typmod_problem", "check_type_limits", "catalog_name", "int4_problem", "short", "MAX_ATTR_SIZE",
           "NUMERIC_MAX_PRECISION", "MAX_TIME_PRECISION"]
