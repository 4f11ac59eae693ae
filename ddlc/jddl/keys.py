"""The key spellings of JDDL trees (openGauss and GaussDB dialects)."""

from __future__ import annotations

# openGauss spelling -> every spelling a reader accepts (GaussDB's documented names first-class,
# the others tolerated as the reference §9 suggests).
ALIASES: dict[str, tuple[str, ...]] = {
    "objname": ("objname", "object_name"),
    "schemaname": ("schemaname", "schema_name"),
    "typename": ("typename", "type_name"),
    "attrname": ("attrname", "attr_name", "attribute_name"),
    "coltype": ("coltype", "column_type"),
    "newname": ("newname", "new_name"),
    "objidentity": ("objidentity", "object_identity"),
    "objtype": ("objtype", "object_type"),
}
