"""The key spellings of JDDL trees (openGauss and GaussDB dialects)."""

from __future__ import annotations

from .. import lazyre

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

_GAUSSDB = frozenset(s for spellings in ALIASES.values() for s in spellings[1:])


def spelled_like(obj: object, name: str) -> str:
    """``name`` (an openGauss key) as the object ``obj`` spells its keys: GaussDB's spelling
    (``object_name``) when ``obj`` uses any GaussDB spelling, else ``name`` itself. For errors that
    name a missing key in the input's own dialect."""
    spellings = ALIASES.get(name)
    if spellings is None or not isinstance(obj, dict) or not any(k in _GAUSSDB for k in obj) or spellings[1] in obj:
        return name
    return spellings[1]

# every spelling -> the openGauss one
CANONICAL: dict[str, str] = {alias: key for key, spellings in ALIASES.items() for alias in spellings}

_SPEC_NAME = lazyre.compile(r"%\{(\w+)")


def canonical_fmt(fmt: str) -> str:
    """``fmt`` with every specifier's key in the openGauss spelling (``%{column_type}T`` -> ``%{coltype}T``):
    what a reader compares against the forms it knows (the key is then read under any spelling)."""
    if "_" not in fmt:
        return fmt
    return _SPEC_NAME.sub(lambda m: "%{" + CANONICAL.get(m.group(1), m.group(1)), fmt)
