"""COMMENT ON read from GaussDB text (reference §5.12)."""

from __future__ import annotations

from ._match import Frag, Shape, Words

_VALUE = Shape(
    "%{null}s %{literal}s",
    {"null": Shape("NULL", absent=True), "literal": Shape("%{value}L", absent=True, absent_fmt="")},
)

_OBJTYPES = ("LARGE SEQUENCE", "MATERIALIZED VIEW", "FOREIGN TABLE", "COLUMN", "DOMAIN", "FUNCTION", "PROCEDURE",
             "INDEX", "SCHEMA", "SEQUENCE", "TABLESPACE", "TABLE", "TRIGGER", "TYPE", "VIEW", "???")

COMMENT = Shape(
    "COMMENT ON %{objtype}s %{identity}s IS %{comment}s",
    {"objtype": Words(_OBJTYPES), "identity": Frag(), "comment": _VALUE},
)
COMMENT_CONSTRAINT = Shape(
    "COMMENT ON CONSTRAINT %{identity}s ON %{domain}s %{parentobj}s IS %{comment}s",
    {"identity": Frag(words=True), "domain": Words(("DOMAIN", "")), "parentobj": Frag(),
     "comment": _VALUE},
)

SHAPES = {r"COMMENT ON CONSTRAINT ": COMMENT_CONSTRAINT, r"COMMENT ON ": COMMENT}
