"""How each statement changes the stream's state: one recorder per IR statement class.

Every backend sees the same history: the library records each statement after it is emitted,
whatever the target. Recorders are keyed by node class (:data:`RECORDERS`).
"""

from __future__ import annotations

from typing import Any

from ..ir.alter import (
    AddConstraint, AddConstraintUsingIndex, AlterRelation, DropConstraint, DropPrimaryKey,
)
from ..ir.alter_columns import AddColumn, AlterColumnType, ChangeColumn, DropColumn, ModifyColumn
from ..ir.alter_partitions import BoundText, RemovePartitioning, with_parsed_bounds
from ..ir.columns import ColumnDef
from ..ir.constraints import ConstraintKind
from ..ir.drop import Drop
from ..ir.followup import AlterTableFollowup, ModifyColumnAutoIncrement
from ..ir.misc import CreateTableAs, DropDatabase
from ..ir.names import QualifiedName
from ..ir.partition import LessThan, ListValues
from ..ir.rename import RenameColumn, RenameConstraint, RenameRelation, RenameSchema, RenameTables, SetSchema
from ..ir.table import CreateTable, TableConstraint
from .state import RelationState, _all_parts, apply_partition_change, changes_partitions, state_of_spec

def _create_table(cat: Any, stmt: Any) -> None:
    clause = getattr(stmt, "partition", None)
    key = cat.key(stmt.identity)
    cat.forget(key)
    if clause is not None and clause.spec is not None:
        st = cat.tables[key] = state_of_spec(clause.spec, key)
        keep_parsed_bounds(st.partitions, clause.spec.partitions)
    rel = RelationState()
    # The statement's columns and its constraints (CreateTable.columns, .constraints) in one pass over its elements
    # (a statement of this class exactly: RECORDERS is keyed by class): the columns set the identity column and the
    # types, the constraints the primary key, so one pass sets what the two did. Each element's class judged once
    # (isinstance of an element that is not of the class itself against a msgspec Struct class calls the
    # metaclass's __instancecheck__, ~750 instructions on Python 3.11), and the primary key told by its member's
    # identity (an Enum member's ``value`` is a Python-level property).
    columns = rel.columns
    for e in stmt.elements:
        kind = _ELEMENT_KIND.get(type(e))
        if kind is None:
            kind = _element_kind(type(e))
        if kind == 1:
            t = e.type
            if t is not None:
                if e.auto_increment and t.name in _INTEGER_TYPES:
                    rel.identity_column = e.name
                columns[e.name] = t
        elif kind == 2:
            k = e.kind
            if (k is _PRIMARY_KEY or (type(k) is not ConstraintKind and getattr(k, "value", None) == "primary key")) \
                    and e.name:
                rel.primary_key = e.name
    rel.created = True
    cat.relations[key] = rel


_PRIMARY_KEY = ConstraintKind.PRIMARY_KEY  # (read once: a read through an Enum class is a Python-level hook)
_ELEMENT_KIND: dict[type, int] = {}  # per element class: 1 a column, 2 a constraint, 0 neither


def _element_kind(cls: type) -> int:
    kind = _ELEMENT_KIND[cls] = 1 if issubclass(cls, ColumnDef) else 2 if issubclass(cls, TableConstraint) else 0
    return kind


def keep_parsed_bounds(states: list[Any], parts: tuple[Any, ...]) -> None:
    """Keep each bound's parsed value with its text in the history (as :class:`BoundText`), as ALTER
    TABLE's bounds arrive, so a target reads the meaning of a bound it did not see parsed."""
    for st, p in zip(states, parts, strict=False):  # a default subpartition has no counterpart
        b = p.bound
        t = type(b)  # (the exact classes first: isinstance of another class against a Struct class is dear)
        if (t is LessThan or (t is not ListValues and isinstance(b, LessThan))) and st.upper is not None:
            st.upper = tuple(BoundText(v.text, v) for v in b.values)
        elif (t is ListValues or isinstance(b, ListValues)) and st.values is not None:
            st.values = tuple(BoundText(v.text, v) for v in b.values)
        keep_parsed_bounds(st.subpartitions, p.subpartitions)


_INTEGER_TYPES = frozenset({"int1", "int2", "int4", "int8", "tinyint", "smallint", "integer", "bigint"})


def _drop(cat: Any, stmt: Any) -> None:
    ident = getattr(stmt, "identity", None)
    objtype = getattr(stmt, "objtype", None)  # (a str enum: compared as its value)
    if objtype == "table" and ident is not None and hasattr(ident, "name"):
        cat.forget((getattr(ident, "schema", None), ident.name))


def _rename_relation(cat: Any, stmt: Any) -> None:
    old = cat.key(stmt.identity)
    cat.move(old, (old[0], stmt.new_name))


def _rename_tables(cat: Any, stmt: Any) -> None:
    for pair in stmt.pairs:
        cat.move(cat.key(pair.old), cat.key(pair.new))


def _rename_schema(cat: Any, stmt: Any) -> None:
    for d in (cat.tables, cat.relations):
        for key in [k for k in d if k[0] == stmt.identity]:
            d[(stmt.new_name, key[1])] = d.pop(key)
    for st in cat.tables.values():
        for p in _all_parts(st):
            if p.home is not None and p.home[0] == stmt.identity:
                p.home = (stmt.new_name, p.home[1])


def _set_schema(cat: Any, stmt: Any) -> None:
    ident = getattr(stmt, "identity", None)
    if stmt.objtype.upper() == "TABLE" and ident is not None and isinstance(ident, QualifiedName):
        cat.move(cat.key(ident), (stmt.new_schema, ident.name))


def _rename_column(cat: Any, stmt: Any) -> None:
    r = cat.relation(stmt.identity)
    if r is not None and r.identity_column == stmt.column:
        r.identity_column = stmt.new_name
    if r is not None and stmt.column in r.columns:
        r.columns[stmt.new_name] = r.columns.pop(stmt.column)


def _rename_constraint(cat: Any, stmt: Any) -> None:
    r = cat.relation(stmt.identity)
    if r is not None and r.primary_key == stmt.constraint:
        r.primary_key = stmt.new_name


def _alter_relation(cat: Any, stmt: Any) -> None:
    key = cat.key(stmt.identity)
    for sub in stmt.subcommands:
        kind = type(sub)
        st = cat.tables.get(key)
        if kind is ChangeColumn and st is not None:  # a renamed partition key column
            st.key = tuple(sub.column if k == sub.old_column else k for k in st.key)
            st.sub_key = tuple(sub.column if k == sub.old_column else k for k in st.sub_key)
        if changes_partitions(sub):
            if st is not None:
                apply_partition_change(st, with_parsed_bounds(sub), key)  # bound texts keep their values
        elif kind is RemovePartitioning:
            cat.tables.pop(key, None)
        elif kind is AddColumn and sub.column.auto_increment:
            cat._rel(key).identity_column = sub.column.name
        elif kind is ModifyColumnAutoIncrement:
            cat._rel(key).identity_column = sub.column
        elif kind is DropColumn and cat.identity_column(stmt.identity) == sub.column:
            cat._rel(key).identity_column = None
        elif kind is ChangeColumn and cat.identity_column(stmt.identity) == sub.old_column:
            cat._rel(key).identity_column = sub.column
        elif kind is AddConstraint and sub.kind is ConstraintKind.PRIMARY_KEY and not sub.informational:
            cat._rel(key).primary_key = sub.name
        elif kind is AddConstraintUsingIndex and sub.constraint_type.value == "PRIMARY KEY":
            cat._rel(key).primary_key = sub.name
        if kind in _COLUMN_CHANGES:
            _COLUMN_CHANGES[kind](cat._rel(key).columns, sub)
        if kind is DropConstraint or kind is DropPrimaryKey:
            r = cat.relations.get(key)
            if r is not None and (kind is DropPrimaryKey or r.primary_key == sub.name):
                r.primary_key = None


def _changed_type(cols: dict[str, Any], sub: Any) -> None:
    cols[sub.column] = sub.type


def _changed_column(cols: dict[str, Any], sub: Any) -> None:
    cols.pop(sub.old_column, None)
    cols[sub.column] = sub.type


def _added_column(cols: dict[str, Any], sub: Any) -> None:
    if sub.column.type is not None:
        cols[sub.column.name] = sub.column.type


# the column types an ALTER subcommand changes (RelationState.columns)
_COLUMN_CHANGES: dict[type, Any] = {
    AddColumn: _added_column,
    DropColumn: lambda cols, sub: cols.pop(sub.column, None),
    AlterColumnType: _changed_type,
    ModifyColumn: _changed_type,
    ModifyColumnAutoIncrement: _changed_type,
    ChangeColumn: _changed_column,
}


def _rename_column_and_key(cat: Any, stmt: Any) -> None:
    _rename_column(cat, stmt)
    st = cat.table(stmt.identity)
    if st is not None:  # a partition-key column renamed
        st.key = tuple(stmt.new_name if k == stmt.column else k for k in st.key)
        st.sub_key = tuple(stmt.new_name if k == stmt.column else k for k in st.sub_key)


def _create_table_as(cat: Any, stmt: Any) -> None:
    cat.tables.pop(cat.key(stmt.identity), None)  # a new, unpartitioned table of that name


def _drop_database(cat: Any, stmt: Any) -> None:
    for key in [k for k in cat.tables if k[0] == stmt.name]:
        del cat.tables[key]


RECORDERS: dict[type, Any] = {
    CreateTable: _create_table,
    Drop: _drop,
    RenameRelation: _rename_relation,
    RenameTables: _rename_tables,
    RenameSchema: _rename_schema,
    SetSchema: _set_schema,
    RenameColumn: _rename_column_and_key,
    RenameConstraint: _rename_constraint,
    AlterRelation: _alter_relation,
    AlterTableFollowup: _alter_relation,
    CreateTableAs: _create_table_as,
    DropDatabase: _drop_database,
}
