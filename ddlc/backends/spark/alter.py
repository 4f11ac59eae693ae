"""Spark emitters: ALTER TABLE (and its follow-up messages) on a Delta table.

Spark's ALTER TABLE takes one action per statement, so each GaussDB subcommand becomes one or more
statements, in the order the subcommands arrive (execution order). Column subcommands:

* ``ADD COLUMN`` -> ``ADD COLUMNS (c TYPE [FIRST|AFTER x])``. Delta refuses a DEFAULT in ADD
  COLUMNS, so a column added with a (constant) default gets ``SET TBLPROPERTIES`` (the
  allowColumnDefaults feature), ``ALTER COLUMN c SET DEFAULT`` and an ``UPDATE t SET c = <default>``
  for the existing rows, which GaussDB filled with the default (DDLC-I842).
* ``ALTER COLUMN TYPE`` only where Delta can widen the column without rewriting its data (type
  widening: the ``delta.enableTypeWidening`` property is set first; VARCHAR/CHAR lengths grow
  without it). The column's current type comes from the stream's history; a narrowing, a change
  of kind, a USING clause or an unknown current type is DDLC-W841: the data must be rewritten.
* ``SET``/``DROP DEFAULT``, ``SET``/``DROP NOT NULL``, ``DROP COLUMN``, B-compatible MODIFY / CHANGE
  (a rename, then the type, nullability, default and position of the column).

Constraints go through :func:`.table.constraint_statement` (CHECK, informational keys). Partition
subcommands are in :mod:`.alter_partitions`. What Delta has no form for is declared in
:data:`UNSUPPORTED` and removed by the ``drop_unsupported`` pass; :data:`SUB`, the subcommand table,
holds a handler or a refusal (reported in the order of the subcommands) for every other subcommand class
(``ddlc.backends.coverage`` checks it). What the handlers still decide needs the stream's history, an
option or the written form (docs/spark-mapping.md lists it).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from ...diagnostics import Severity, register
from ...ir.alter import (
    AddConstraint, AddConstraintUsingIndex, AddOf, AlterObjType, AlterRelation, AutoIncrement, ChangeOwner,
    ClusterOn, Collate, ConvertCharset, DefaultCharset, DropConstraint, DropForeignKey, DropIndex, DropPrimaryKey,
    IndexVisibility, Inherit, NoInherit, NotOf, OpaqueSubcommand, Rebuild, RebuildPartition,
    RebuildPartitionAllIndex, ReplicaIdentity, ResetRelOptions, RowMovement, RowSecurity, RuleState,
    SetCompression, SetRelOptions, SetTablespace, SetWithoutCluster, SetWithoutOids, TableComment, TriggerState,
    Unusable, UnusablePartition, ValidateConstraint,
)
from ...ir.alter_columns import (
    AddColumn, AlterColumnType, ChangeColumn, ColumnKind, DropColumn, DropDefault, DropNotNull, ModifyColumn,
    Nullability, ResetColumnOptions, SetColumnOptions, SetDefault, SetNotNull, SetStatistics, SetStorage,
)
from ...ir.followup import AlterTableFollowup, ModifyColumnAutoIncrement
from ...ir.names import Expr
from ...ir.rules import Rule
from ..base import merge, table_of
from ..coverage import dispatches
from ..writer import SqlWriter
from .alter_base import I_NO_EFFECT, W_ALTER, Alter, handles
from .context import Emit, emits
from .dependent_views import views_after_widening
from .objects import W_CLAUSE, W_NO_FORM, W_NO_OBJECT, needs_column_mapping
from .table import (
    W_COLUMN_CLAUSE, W_CONSTRAINT, W_KEY, W_TABLE_OPTION, WRITTEN_KINDS, _is_default_collation, constraint_statement,
    key_not_null, properties_sql,
    unreferenced,
)
from .types import SparkType

W_TYPE_CHANGE = register(
    "DDLC-W841", Severity.WARNING, "Column type change needs a rewrite of the data",
    "Delta changes a column's type in place only to widen it (type widening: TINYINT -> SMALLINT -> INT -> "
    "BIGINT, FLOAT -> DOUBLE, integers -> DOUBLE or a wide enough DECIMAL, DECIMAL(p,s) -> DECIMAL(p+k,s+j) "
    "with j <= k, DATE -> TIMESTAMP_NTZ; VARCHAR/CHAR lengths can grow and become STRING). Any other change "
    "(a narrowing, a change of kind, USING), or a column whose current type the history does not know, "
    "needs the table's data rewritten (for example CREATE OR REPLACE TABLE ... AS SELECT with a CAST); "
    "ddlc does not emit that.",
    "ALTER TABLE t ALTER COLUMN c TYPE int (c was bigint)",
)
I_TYPE_WIDENING = register(
    "DDLC-I841", Severity.INFO, "Column type widened in place",
    "The type change widens the column; Delta does it without rewriting data once the table has the "
    "typeWidening feature, which 'delta.enableTypeWidening' = 'true' enables (set just before).",
)
I_ADD_DEFAULT = register(
    "DDLC-I842", Severity.INFO, "Column added with a default: default set, existing rows filled",
    "Delta refuses DEFAULT in ADD COLUMNS: the column is added, its default set with ALTER COLUMN ... SET "
    "DEFAULT (after enabling the allowColumnDefaults feature), and the existing rows, which GaussDB filled "
    "with the default, get it with an UPDATE.",
)


@emits(AlterRelation, AlterTableFollowup)
@dispatches(lambda: SUB)
def alter_relation(n: AlterRelation, e: Emit) -> list[str]:
    a = Alter(n, e, SUB)
    out = a.run()
    # the views that read a widened column (issue 25.1) or name a renamed one (25.4), created again
    return [*out, *views_after_widening(a)]


# ---- columns ---------------------------------------------------------------------------------
def _position(w: SqlWriter, first: bool, after: str | None) -> SqlWriter:
    if first:
        w.kw("FIRST")
    elif after:
        w.kw("AFTER").ident(after)
    return w


def _set_default(a: Alter, column: str, default: Expr, dropped: Callable[[], dict[str, Any]]) -> str | None:
    """``dropped``: what a comment shows when the default has no Spark form (makes ``diag``'s keywords)."""
    value = a.e.expr(default, f"column {column} DEFAULT", dropped=dropped)
    if value is None:
        return None
    a.add(a.alter().kw("SET").raw(properties_sql(a.e, [("delta.feature.allowColumnDefaults", "supported")])))
    a.add(a.column(column).kw("SET", "DEFAULT").raw(value))
    return value


def _if_not_exists(n: AddColumn, a: Alter) -> bool:
    """Whether the column is to be added: Spark's ADD COLUMNS has no IF NOT EXISTS. The history of a table the
    stream created knows its columns: an existing one is skipped, as GaussDB skips it (DDLC-I840), an absent
    one is added (nothing is lost); otherwise the clause is dropped (DDLC-W840) and the column added."""
    if not n.if_not_exists:
        return True
    cat = a.e.catalog
    r = cat.relation(a.n.identity) if cat is not None else None
    if r is not None and r.created:
        if n.column.name in r.columns:
            a.e.diag(I_NO_EFFECT, f"ADD COLUMN IF NOT EXISTS {n.column.name}: the table has the column already "
                     "(the history); skipped, as GaussDB skips it", n.origin)
            return False
        return True
    a.e.diag(W_ALTER, "IF NOT EXISTS dropped (Spark's ADD COLUMNS has none)", n.origin + ("if_not_exists",),
             dropped_node=n, dropped_after=_replace(n, if_not_exists=False))
    return True


@handles(AddColumn)
def _add_column(n: AddColumn, a: Alter) -> None:
    c = n.column
    assert c.type is not None  # a rule removes a column without a type
    assert c.generated is None  # and its generation expression (an AUTO_INCREMENT is reported by a rule)
    if not _if_not_exists(n, a):
        return
    w = a.e.w().ident(c.name).raw(a.e.type(c.type).sql())
    if c.not_null:
        w.kw("NOT", "NULL")
    a.add(a.alter().kw("ADD", "COLUMNS").open().raw(_position(w, n.first, n.after).text()).close())
    if c.default is not None and not c.auto_increment:  # an AUTO_INCREMENT column's ALTER form has no default
        value = _set_default(a, c.name, c.default, lambda: {
            "dropped_node": n, "dropped_after": _replace(n, column=_replace(c, default=None))})
        if value is not None:
            a.e.diag(I_ADD_DEFAULT, f"column {c.name}: default set, existing rows filled", c.origin)
            a.add(a.e.w().kw("UPDATE").raw(a.table).kw("SET").ident(c.name).kw("=").raw(value))


@handles(DropColumn)
def _drop_column(n: DropColumn, a: Alter) -> None:
    needs_column_mapping(a.e, f"column {n.column}: DROP COLUMN", n.origin)
    w = a.alter().kw("DROP", "COLUMN")
    if n.if_exists:
        w.kw("IF", "EXISTS")
    a.add(w.ident(n.column))


@handles(SetDefault)
def _default(n: SetDefault, a: Alter) -> None:
    if n.default is None:  # the deparser's SET DEFAULT without a definition: SET DEFAULT NULL, the default removed
        a.add(a.column(n.column).kw("DROP", "DEFAULT"))
        return
    _set_default(a, n.column, n.default, lambda: {"dropped_node": n})


@handles(DropDefault)
def _drop_default(n: DropDefault, a: Alter) -> None:
    a.add(a.column(n.column).kw("DROP", "DEFAULT"))


@handles(SetNotNull, DropNotNull)
def _not_null(n: SetNotNull | DropNotNull, a: Alter) -> None:
    a.add(a.column(n.column).kw("SET" if isinstance(n, SetNotNull) else "DROP", "NOT", "NULL"))


# type widening (Delta 4): from -> the types it may become in place
_INTEGERS = ("TINYINT", "SMALLINT", "INT", "BIGINT")


def _widens(old: SparkType, new: SparkType) -> str | None:
    """``"same"``, ``"length"`` (VARCHAR/CHAR grows), ``"widen"`` (type widening) or None."""
    if old == new:
        return "same"
    if old.element is not None or new.element is not None:
        return None
    if old.name in ("VARCHAR", "CHAR") and (new.name == "STRING" or (new.name == old.name and new.params >= old.params)):
        return "length"
    if old.name in _INTEGERS:
        if new.name in _INTEGERS:
            return "widen" if _INTEGERS.index(new.name) > _INTEGERS.index(old.name) else None
        if new.name == "DOUBLE":
            return "widen"
        if new.name == "DECIMAL":
            digits = {"TINYINT": 3, "SMALLINT": 5, "INT": 10, "BIGINT": 20}[old.name]
            return "widen" if new.params[0] - new.params[1] >= digits else None
    if old.name == "FLOAT" and new.name == "DOUBLE":
        return "widen"
    if old.name == "DATE" and new.name == "TIMESTAMP_NTZ":
        return "widen"
    if old.name == new.name == "DECIMAL":
        (p, s), (q, t) = old.params, new.params
        return "widen" if q >= p and t >= s and (q - p) >= (t - s) else None
    return None


def _type_change(n: AlterColumnType | ModifyColumn | ChangeColumn) -> Any:
    """What a comment shows for the type change of ``n`` not translated: ``n`` as GaussDB writes it, a MODIFY or
    CHANGE with its column and type only (its other parts are translated on their own)."""
    if isinstance(n, AlterColumnType):
        return n
    if isinstance(n, ChangeColumn):
        return ChangeColumn(old_column=n.old_column, column=n.column, type=n.type, origin=n.origin)
    return ModifyColumn(column=n.column, type=n.type, origin=n.origin)


def _change_type(a: Alter, n: AlterColumnType | ModifyColumn | ChangeColumn) -> None:
    column, t, origin = n.column, n.type, n.origin
    using = n.using if isinstance(n, AlterColumnType) else None
    new = a.e.type(t)
    old_t = a.column_type(n.old_column if isinstance(n, ChangeColumn) else column)  # (the history's name)
    what = f"column {column} TYPE {new.sql()}"
    if using is not None:
        a.e.diag(W_TYPE_CHANGE, f"{what} USING {using.text}: needs a rewrite of the data; not translated", origin,
                 dropped_node=_type_change(n))
        return
    if old_t is None:
        a.e.diag(W_TYPE_CHANGE, f"{what}: the column's current type is not in the history; not translated", origin,
                 dropped_node=_type_change(n))
        return
    probe = Emit(a.e.ctx, a.e.catalog)  # the old type's own diagnostics belong to an earlier statement
    old = probe.type(old_t)
    how = _widens(old, new)
    if how is None:
        a.e.diag(W_TYPE_CHANGE, f"{what} (was {old.sql()}): not a widening, needs a rewrite of the data; "
                 "not translated", origin, dropped_node=_type_change(n))
        return
    if how == "same":
        a.e.diag(I_NO_EFFECT, f"{what}: already {old.sql()} in Delta", origin)
        return
    if how == "widen":
        a.e.diag(I_TYPE_WIDENING, f"{what} (was {old.sql()}): widened in place", origin)
        a.add(a.alter().kw("SET").raw(properties_sql(a.e, [("delta.enableTypeWidening", "true")])))
    a.add(a.column(column).kw("TYPE").raw(new.sql()))
    a.retyped.append((n.old_column if isinstance(n, ChangeColumn) else column, column))


@handles(AlterColumnType)
def _alter_type(n: AlterColumnType, a: Alter) -> None:
    _change_type(a, n)


def _modify(a: Alter, n: ModifyColumn | ChangeColumn) -> None:
    """The parts of MODIFY / CHANGE after the rename: type, nullability, default, position (AUTO_INCREMENT and a
    generation expression: rules)."""
    _change_type(a, n)
    if n.nullability is Nullability.NOT_NULL:
        a.add(a.column(n.column).kw("SET", "NOT", "NULL"))
    elif n.nullability is Nullability.NULL:
        a.add(a.column(n.column).kw("DROP", "NOT", "NULL"))
    if n.default is not None:
        _set_default(a, n.column, n.default, lambda: {"dropped_node": n, "dropped_after": _replace(n, default=None)})
    elif not n.auto_increment:  # an AUTO_INCREMENT column's default is its sequence's: not dropped
        a.add(a.column(n.column).kw("DROP", "DEFAULT"))
    if n.first or n.after:
        a.add(_position(a.column(n.column), n.first, n.after))


@handles(ModifyColumn)
def _modify_column(n: ModifyColumn, a: Alter) -> None:
    _modify(a, n)


@handles(ChangeColumn)
def _change_column(n: ChangeColumn, a: Alter) -> None:
    if n.old_column != n.column:
        needs_column_mapping(a.e, f"CHANGE COLUMN {n.old_column} {n.column}", n.origin)
        a.add(a.alter().kw("RENAME", "COLUMN").ident(n.old_column).kw("TO").ident(n.column))
        a.renamed.append((n.old_column, n.column))
    _modify(a, n)


# ---- constraints and the table ----------------------------------------------------------------
@handles(AddConstraint)
def _add_constraint(n: AddConstraint, a: Alter) -> None:
    assert n.parsed is not None  # rules remove a constraint in GaussDB-only syntax, and NOT VALID
    sql = constraint_statement(a.table, n.name, n.parsed, a.e, n.origin, lambda: {"dropped_node": n})
    for s in key_not_null(a.table, n.parsed, a.e):  # key columns are NOT NULL, as on PostgreSQL
        a.add(s)
    if sql is not None:
        a.add(sql)


@handles(DropConstraint, DropForeignKey)
def _drop_constraint(n: DropConstraint | DropForeignKey, a: Alter) -> None:
    w = a.alter().kw("DROP", "CONSTRAINT")
    if getattr(n, "if_exists", False):
        w.kw("IF", "EXISTS")
    a.add(w.ident(n.name))


@handles(DropPrimaryKey)
def _drop_primary_key(n: DropPrimaryKey, a: Alter) -> None:
    cat = a.e.catalog
    name = cat.primary_key(a.n.identity) if cat is not None else None
    if name is None:
        a.e.diag(W_ALTER, "DROP PRIMARY KEY: the key's name is not in the history; not translated", n.origin,
                 dropped_node=n)
        return
    a.add(a.alter().kw("DROP", "CONSTRAINT").ident(name))


@handles(TableComment)
def _table_comment(n: TableComment, a: Alter) -> None:
    a.add(a.e.w().kw("COMMENT", "ON", "TABLE").raw(a.table).kw("IS").lit(n.comment))


@handles(ValidateConstraint, SetWithoutOids, DropIndex)
def _no_effect(n: Any, a: Alter) -> None:
    a.e.diag(I_NO_EFFECT, f"{type(n).__name__}: nothing to do on a Delta table", n.origin)


# ---- what the drop_unsupported pass removes ---------------------------------------------------
def _drop(node: type, code: str, message: str, applies: Callable[[Any], bool] | None = None) -> Rule:
    """A rule removing the subcommand; without ``applies``, whatever its content (the coverage check,
    :mod:`ddlc.backends.coverage`, counts the class as declared unsupported)."""
    if applies is None:
        return Rule(node=node, code=code, message=message)
    return Rule(node=node, code=code, message=message, applies=applies)


def _reported(node: type, message: Callable[[Any], str], applies: Callable[[Any], bool],
              text: Callable[[Any], str], path: Callable[[Any], Any] | None = None) -> Rule:
    """A rule that reports a clause Delta cannot take and leaves the node as it is: an AUTO_INCREMENT flag,
    which also tells the emitter that the column's default is its sequence's (no DEFAULT is written or
    dropped for it), and which the stream's history records. Its comment text is written by hand: the
    GaussDB text of an added or modified column has no AUTO_INCREMENT (the server's ALTER form of the column
    stops before it; the flag is read from that shape), and the node is left as it is, so no difference
    can show it."""
    return Rule(node=node, code=W_ALTER, message=message, applies=applies, rewrite=lambda n: n, text=text, path=path)


def _without_generated(n: Any) -> Any:
    return _replace(n, generated=None, layout=None)


def _field(node: type, field: str, message: str) -> Rule:
    return Rule(node=node, code=W_ALTER, message=message, applies=lambda n: bool(getattr(n, field)), field=field,
                absent=False)


_NOT_TABLE = (AlterObjType.INDEX, AlterObjType.SEQUENCE, AlterObjType.LARGE_SEQUENCE, AlterObjType.TYPE,
              AlterObjType.MATERIALIZED_VIEW, AlterObjType.FOREIGN_TABLE)

def _collated(collation: object) -> bool:
    """A collation other than the database's default (``pg_catalog."default"``, which names none)."""
    return collation is not None and not _is_default_collation(collation)  # type: ignore[arg-type]


UNSUPPORTED = (
    _drop(AlterRelation, W_NO_OBJECT, "ALTER of an object kind Spark does not have",
          lambda n: n.objtype in _NOT_TABLE),
    _drop(AlterRelation, W_NO_FORM, "ALTER VIEW: Spark views take no GaussDB view options",
          lambda n: n.objtype is AlterObjType.VIEW),
    Rule(AlterRelation, W_CLAUSE, "IF EXISTS dropped (Spark's ALTER TABLE has none)", applies=lambda n: n.if_exists,
         field="if_exists", absent=False),
    _drop(ChangeOwner, W_ALTER, "OWNER TO dropped (Spark tables have no GaussDB owner)"),
    _drop(TriggerState, W_ALTER, "trigger state dropped (no triggers)"),
    _drop(RuleState, W_ALTER, "rule state dropped (no rules)"),
    _drop(RowSecurity, W_ALTER, "row-level security dropped"),
    _drop(Inherit, W_ALTER, "INHERIT dropped (no inheritance)"),
    _drop(NoInherit, W_ALTER, "NO INHERIT dropped (no inheritance)"),
    _drop(AddOf, W_ALTER, "OF type dropped (no user-defined types)"),
    _drop(NotOf, W_ALTER, "NOT OF dropped (no user-defined types)"),
    _drop(ReplicaIdentity, W_ALTER, "REPLICA IDENTITY dropped"),
    _drop(DefaultCharset, W_ALTER, "DEFAULT CHARACTER SET dropped (Delta strings are UTF-8)"),
    _drop(ConvertCharset, W_ALTER, "CONVERT TO CHARACTER SET dropped (Delta strings are UTF-8)"),
    _drop(Collate, W_ALTER, "COLLATE dropped"),
    _drop(SetRelOptions, W_TABLE_OPTION, "storage parameters dropped (no Delta meaning)"),
    _drop(ResetRelOptions, W_TABLE_OPTION, "storage parameters dropped (no Delta meaning)"),
    _drop(SetColumnOptions, W_ALTER, "column options dropped"),
    _drop(ResetColumnOptions, W_ALTER, "column options dropped"),
    _drop(SetStatistics, W_ALTER, "statistics target dropped"),
    _drop(SetStorage, W_ALTER, "column storage mode dropped"),
    _drop(SetTablespace, W_TABLE_OPTION, "SET TABLESPACE dropped"),
    _drop(SetCompression, W_TABLE_OPTION, "SET COMPRESS / NOCOMPRESS dropped"),
    _drop(ClusterOn, W_ALTER, "CLUSTER ON dropped (no indexes)"),
    _drop(SetWithoutCluster, W_ALTER, "SET WITHOUT CLUSTER dropped (no indexes)"),
    _drop(AutoIncrement, W_ALTER, "AUTO_INCREMENT restart dropped (Delta identity columns cannot be restarted)"),
    _drop(AddConstraintUsingIndex, W_ALTER, "ADD CONSTRAINT ... USING INDEX dropped (the index's columns are "
          "unknown)"),
    _drop(ModifyColumnAutoIncrement, W_ALTER, "AUTO_INCREMENT of an existing column dropped (Delta cannot make a "
          "column an identity column)"),
    _drop(IndexVisibility, W_ALTER, "index visibility dropped (no indexes)"),
    _drop(Unusable, W_ALTER, "UNUSABLE dropped (no indexes)"),
    _drop(UnusablePartition, W_ALTER, "UNUSABLE dropped (no indexes)"),
    _drop(Rebuild, W_ALTER, "REBUILD dropped (no indexes)"),
    _drop(RebuildPartition, W_ALTER, "REBUILD PARTITION dropped (no indexes)"),
    _drop(RebuildPartitionAllIndex, W_ALTER, "REBUILD ... INDEX dropped (no indexes)"),
    _drop(RowMovement, I_NO_EFFECT, "ENABLE ROW MOVEMENT: what Delta does", lambda n: n.enable),
    # DISABLE: every RowMovement the rule above left (one rule drops the class whatever its content)
    _drop(RowMovement, W_ALTER, "DISABLE ROW MOVEMENT dropped (Delta has no partitions to move between)"),
    _drop(OpaqueSubcommand, W_ALTER, "subcommand kept as GaussDB text is not translated"),
    _drop(AddColumn, W_NO_OBJECT, "ADD ATTRIBUTE: Spark has no user-defined types",
          lambda n: n.kind is ColumnKind.ATTRIBUTE),
    _drop(AddColumn, W_COLUMN_CLAUSE, "column without a type dropped", lambda n: n.column.type is None),
    _reported(AddColumn, lambda n: f"AUTO_INCREMENT of added column {n.column.name} dropped (Delta cannot add an "
              "identity column)", lambda n: n.column.auto_increment, lambda n: f"{n.column.name} AUTO_INCREMENT",
              path=lambda n: n.column.origin),
    Rule(AddColumn, W_ALTER, lambda n: f"generated column {n.column.name}: Delta cannot add a generated column; "
         "added as a plain column", applies=lambda n: n.column.generated is not None,
         rewrite=lambda n: _replace(n, column=_without_generated(n.column), layout=None),
         path=lambda n: n.column.origin),
    _field(DropColumn, "cascade", "CASCADE dropped (Delta has no dependent objects to drop)"),
    _field(DropConstraint, "cascade", "CASCADE dropped"),
    _field(DropForeignKey, "cascade", "CASCADE dropped"),
    # the database's default collation is no collation: it costs nothing (issue 23.6), as in CREATE TABLE
    Rule(AlterColumnType, W_COLUMN_CLAUSE, "COLLATE dropped", applies=lambda n: _collated(n.collation),
         field="collation"),
    Rule(ModifyColumn, W_COLUMN_CLAUSE, "COLLATE / CHARACTER SET dropped",
         applies=lambda n: _collated(n.collation) or n.charset is not None,
         rewrite=lambda n: _replace(n, collation=None, charset=None, layout=None)),
    Rule(ChangeColumn, W_COLUMN_CLAUSE, "COLLATE / CHARACTER SET dropped",
         applies=lambda n: _collated(n.collation) or n.charset is not None,
         rewrite=lambda n: _replace(n, collation=None, charset=None, layout=None)),
    Rule(ModifyColumn, W_COLUMN_CLAUSE, "ON UPDATE dropped", applies=lambda n: n.on_update is not None,
         field="on_update"),
    Rule(ChangeColumn, W_COLUMN_CLAUSE, "ON UPDATE dropped", applies=lambda n: n.on_update is not None,
         field="on_update"),
    *(r for cls in (ModifyColumn, ChangeColumn) for r in (
        _reported(cls, lambda n: f"AUTO_INCREMENT of {n.column} dropped (Delta cannot make a column an identity "
                  "column)", lambda n: n.auto_increment, lambda n: f"{n.column} AUTO_INCREMENT"),
        Rule(cls, W_ALTER, lambda n: f"generated expression of {n.column} dropped (Delta cannot change a generated "
             "column)", applies=lambda n: n.generated is not None, rewrite=_without_generated))),
    Rule(AddConstraint, W_CONSTRAINT, lambda n: f"constraint {n.name}: GaussDB-only syntax; not translated",
         applies=lambda n: n.parsed is None),
    Rule(AddConstraint, W_CONSTRAINT, lambda n: f"constraint {n.name}: NOT VALID not written (Delta checks the "
         "existing rows)", applies=lambda n: n.parsed.not_valid,
         rewrite=lambda n: _replace(n, parsed=_replace(n.parsed, not_valid=False), verbatim=False), comment=False),
    Rule(AddConstraint, W_KEY, lambda n: f"FOREIGN KEY {n.name}: the referenced columns are not named (Spark "
         "requires them); not translated", applies=lambda n: unreferenced(n.parsed)),
    Rule(AddConstraint, W_CONSTRAINT, lambda n: f"constraint {n.name} ({n.parsed.kind.value}) has no Delta form; "
         "dropped", applies=lambda n: n.parsed.kind not in WRITTEN_KINDS),
)


def _replace(n: Any, **kw: Any) -> Any:
    from ...ir.base import replace

    return replace(n, **kw)


from . import alter_partitions  # noqa: E402  (partition subcommands: handlers and rules of their own)

SUB = merge(table_of(sys.modules[__name__], alter_partitions, what="ALTER handler", attr="__handles__"),
            alter_partitions.REFUSED, what="handled")
