"""RENAME read from GaussDB text (reference §5.13), and RENAME TABLE (B compatibility)."""

from __future__ import annotations

from ._match import Shape, Words

_OBJ = Words(("TABLE", "INDEX", "VIEW", "SEQUENCE", "LARGE SEQUENCE", "FOREIGN TABLE", "MATERIALIZED VIEW",
              "TYPE", "FUNCTION", "PROCEDURE", "TRIGGER", "SCHEMA"))
_IF = Words(("IF EXISTS", ""))
RENAME_RELATION = Shape("ALTER %{objtype}s %{if_exists}s %{identity}D RENAME TO %{newname}I", {"objtype": _OBJ, "if_exists": _IF})
RENAME_COLUMN = Shape("ALTER %{objtype}s %{if_exists}s %{identity}D RENAME COLUMN %{colname}I TO %{newname}I"
                      "|ALTER %{objtype}s %{identity}D RENAME COLUMN %{colname}I TO %{newname}I",
                      {"objtype": _OBJ, "if_exists": _IF})
RENAME_ATTRIBUTE = Shape("ALTER TYPE %{identity}D RENAME ATTRIBUTE %{colname}I TO %{newname}I %{cascade}s",
                         {"cascade": Shape("CASCADE", absent=True)})
RENAME_CONSTRAINT = Shape("ALTER TABLE %{identity}D RENAME CONSTRAINT %{oldname}I TO %{newname}I")
RENAME_SCHEMA = Shape("ALTER SCHEMA %{identity}I RENAME TO %{newname}I")
RENAME_TYPE = Shape("ALTER TYPE %{identity}D RENAME TO %{newname}I")
RENAME_TABLES = Shape("RENAME TABLE %{renamelist:, }s", {"renamelist": Shape("%{ori}D TO %{modify}D")})

SHAPES = {
    r"ALTER TYPE .* RENAME ATTRIBUTE ": RENAME_ATTRIBUTE, r"ALTER TYPE .* RENAME TO ": RENAME_TYPE,
    r"ALTER TABLE .* RENAME CONSTRAINT ": RENAME_CONSTRAINT, r"ALTER SCHEMA .* RENAME TO ": RENAME_SCHEMA,
    r"ALTER .* RENAME COLUMN ": RENAME_COLUMN, r"ALTER .* RENAME TO ": RENAME_RELATION, r"RENAME TABLE ": RENAME_TABLES,
}
