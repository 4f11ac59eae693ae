"""Which documents a run keeps: the decoding options' own filters, applied to the DDL itself.

* ``white_table_list`` — GaussDB's ``white-table-list`` decoding option, same syntax and meaning:
  ``schema.table`` entries separated by commas, ``*`` for every schema or every table
  (``public.t1,*.t3,my_schema.*``), no blanks. The server decodes only the tables in the list; a DDL
  on a table outside it is not decoded either (its WAL record carries the white-list filter
  section). A DDL that names no table (a schema, a function, a type, a role...) is kept, as the
  server keeps it. A statement naming several tables (RENAME of two tables) is kept when one of them
  is in the list.
* ``schema_regex`` — a Python regular expression that must match a schema name whole
  (``re.fullmatch``); a statement is kept when one of the schemas it names matches; a statement
  that names no schema is kept.
* ``exclude_users`` — GaussDB's ``exclude-users``: the statements run by these users are left out.
  Only inputs that carry the user are filtered: the JDDL ``myowner`` of the tree, or the owner of
  a decoding row. Names compare exactly (GaussDB asks for lower case in case-insensitive databases).

Names are compared as the source database spells them (before ``--schema-map``); an unqualified
name is in the default schema.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from .ir.alter import AlterObjType, AlterRelation
from .ir.comment import Comment
from .ir.drop import Drop, DropObjectType, SchemaName
from .ir.followup import AlterTableFollowup, AutoIncrementBackfill, BackfillUpdate
from .ir.index import CreateIndex
from .ir.misc import CreateTableAs, Truncate
from .ir.names import QualifiedName
from .ir.rename import RenameColumn, RenameConstraint, RenameRelation, RenameSchema, RenameTables, SetSchema
from .ir.schema import CreateSchema
from .ir.table import CreateTable
from .ir.trigger import CreateTrigger

if TYPE_CHECKING:
    from .options import Options

from .options import check_regex, parse_users, parse_white_table_list  # noqa: E402,F401  (kept importable here)

__all__ = ["parse_white_table_list", "parse_users", "check_regex", "filter_reason", "relations_of", "schemas_of"]


def _q(v: Any) -> QualifiedName | None:
    return v if isinstance(v, QualifiedName) else None


def relations_of(stmt: Any) -> list[QualifiedName]:
    """The tables a statement changes (what GaussDB's white-table-list is matched against)."""
    fn = _RELATIONS.get(type(stmt))
    if fn is None:
        fn = _RELATIONS[type(stmt)] = _relations_by(type(stmt))
    return fn(stmt)


def _relations_by(cls: type) -> Any:
    """How :func:`relations_of` reads a statement of class ``cls`` (decided once per class)."""
    if issubclass(cls, CreateTable | CreateTableAs | AlterTableFollowup | AutoIncrementBackfill | BackfillUpdate):
        return _own_identity
    if issubclass(cls, AlterRelation):
        return _altered_table
    if issubclass(cls, CreateIndex):
        return _indexed_table
    if issubclass(cls, Drop):
        return _dropped_table
    if issubclass(cls, Comment):
        return _commented_table
    if issubclass(cls, RenameColumn | RenameConstraint | RenameRelation | SetSchema):
        return _renamed_table
    if issubclass(cls, RenameTables):
        return _renamed_tables
    if issubclass(cls, Truncate):
        return _truncated_tables
    if issubclass(cls, CreateTrigger):
        return _trigger_table
    return _no_tables


_RELATIONS: dict[type, Any] = {}
_TABLE = DropObjectType.TABLE


def _own_identity(stmt: Any) -> list[QualifiedName]:
    return [stmt.identity]


def _altered_table(stmt: Any) -> list[QualifiedName]:
    return [stmt.identity] if stmt.objtype is AlterObjType.TABLE else []


def _indexed_table(stmt: Any) -> list[QualifiedName]:
    return [stmt.table]


def _dropped_table(stmt: Any) -> list[QualifiedName]:
    return [q] if stmt.objtype is _TABLE and (q := _q(stmt.identity)) else []


def _commented_table(stmt: Any) -> list[QualifiedName]:
    if str(stmt.objtype).lower() in ("table", "column"):
        q = _q(stmt.identity)
        return [QualifiedName(q.name, q.schema)] if q is not None else []
    return []


def _renamed_table(stmt: Any) -> list[QualifiedName]:
    objtype = str(getattr(stmt, "objtype", "table")).lower()
    return [q] if objtype in ("table", "alterobjtype.table") and (q := _q(stmt.identity)) else []


def _renamed_tables(stmt: Any) -> list[QualifiedName]:
    return [p.old for p in stmt.pairs]


def _truncated_tables(stmt: Any) -> list[QualifiedName]:
    return [q for t in stmt.relations if (q := _q(getattr(t, "name", None)))]


def _trigger_table(stmt: Any) -> list[QualifiedName]:
    return [stmt.relation]


def _no_tables(stmt: Any) -> list[QualifiedName]:
    return []


def schemas_of(stmt: Any, default_schema: str) -> list[str]:
    """The schemas a statement names (its tables', its object's, or the schema itself)."""
    if isinstance(stmt, CreateSchema):
        return [stmt.name] if stmt.name else []
    if isinstance(stmt, RenameSchema):
        return [stmt.identity]
    ident = getattr(stmt, "identity", None)
    if isinstance(ident, SchemaName):
        return [ident.name]
    names = relations_of(stmt)
    if not names:
        for f in ("identity", "name", "table", "relation"):
            q = _q(getattr(stmt, f, None))
            if q is not None:
                names = [q]
                break
    return [q.schema or default_schema for q in names]


_OBJECT_FIELDS = ("identity", "name", "table", "relation")
_FIELDS_OF: dict[type, tuple[str, ...]] = {}  # per statement class: those of _OBJECT_FIELDS it has, in order


def object_of(stmt: Any) -> str | None:
    """The name of the object ``stmt`` creates or changes, as ``schema.name`` (or ``name``), if it has one."""
    cls = type(stmt)
    fields = _FIELDS_OF.get(cls)
    if fields is None:  # (IR nodes are slotted: what an instance has, its class has)
        fields = _FIELDS_OF[cls] = tuple(f for f in _OBJECT_FIELDS if hasattr(cls, f))
    for f in fields:
        v = getattr(stmt, f, None)
        kind = _KIND_OF.get(type(v))
        if kind is None:
            kind = _kind_of(type(v))
        if kind == 1:
            return f"{v.schema}.{v.name}" if v.schema else v.name
        if kind == 2:
            return v.name
        if kind == 3 and v and f in ("identity", "name"):
            return v
    rels = relations_of(stmt)
    if rels:
        return f"{rels[0].schema}.{rels[0].name}" if rels[0].schema else rels[0].name
    return None


# What object_of reads a field's value as, per class of the value: 1 a QualifiedName, 2 a SchemaName, 3 a str, 0
# anything else (the isinstance tests in that order, made once per class: on Python 3.11 ``isinstance`` of a value
# not of the class itself against a msgspec Struct class calls the metaclass's ``__instancecheck__``, ~750
# instructions, and most fields hold no QualifiedName).
_KIND_OF: dict[type, int] = {}


def _kind_of(cls: type) -> int:
    kind = _KIND_OF[cls] = (1 if issubclass(cls, QualifiedName) else 2 if issubclass(cls, SchemaName)
                            else 3 if issubclass(cls, str) else 0)
    return kind


def _listed(q: QualifiedName, white: tuple[tuple[str, str], ...], default_schema: str) -> bool:
    schema = q.schema or default_schema
    return any((s == "*" or s == schema) and (t == "*" or t == q.name) for s, t in white)


def filter_reason(stmt: Any, owner: str | None, options: Options) -> str | None:
    """Why ``stmt`` is left out by the options' filters (a short text), or None when it is kept."""
    default_schema = options.default_schema
    users = options.exclude_users
    if users and owner is not None and owner in users:
        return f"exclude-users: run by {owner}"
    white = options.white_table_list
    if white:
        rels = relations_of(stmt)
        if rels and not any(_listed(q, white, default_schema) for q in rels):
            return f"white-table-list: {rels[0].schema or default_schema}.{rels[0].name} is not listed"
    regex = options.schema_regex
    if regex is not None:
        schemas = schemas_of(stmt, default_schema)
        if schemas and not any(re.fullmatch(regex, s) for s in schemas):
            return f"schema-regex: schema {schemas[0]} does not match"
    return None
