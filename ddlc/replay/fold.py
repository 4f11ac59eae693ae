"""Fold a log's DDL, statement by statement, into the schema it leaves behind (``ddlc replay``).

:class:`Folder` keeps a :class:`~.schema_model.SchemaModel` and applies each normalized IR statement
to it with the fold function of its class (:data:`FOLDS`, keyed by class like :data:`.recorders.RECORDERS`;
ALTER TABLE subcommands through :data:`SUBFOLDS`). Nothing is ignored silently: a statement that
changes no schema object is reported (DDLC-I960), one the fold does not know (DDLC-N961), one naming
an object the log never created (DDLC-W962), and one folded with a known difference (DDLC-W963).
Partition changes reuse the stream history's logic (:func:`.state.apply_partition_change`); renames
follow into the texts that name the renamed objects (:mod:`.rewrite`). Table-level effects of object
renames and DROPs are in :mod:`.fold_objects`.
"""

from __future__ import annotations

import re
from typing import Any

from ..diagnostics import (
    I_REPLAY_NO_CHANGE, N_REPLAY_NOT_FOLDED, W_REPLAY_INEXACT, W_REPLAY_UNKNOWN, Diagnostic,
)
from ..ir import alter as A
from ..ir import alter_columns as C
from ..ir import alter_partitions as P
from ..ir.base import replace
from ..ir.constraints import ConstraintKind
from ..ir.followup import AlterTableFollowup, ModifyColumnAutoIncrement
from ..ir.names import QualifiedName
from ..ir.table import CreateTable
from ..history.recorders import keep_parsed_bounds
from .fold_objects import kind_of
from .rewrite import column_refs, constraint_renamed, expr_renamed
from .schema_model import Column, Constraint, Key, SchemaModel, Table
from ..history.state import apply_partition_change, changes_partitions, state_of_spec
from .. import lazyre


class Folder:
    """The fold of one log: the model so far and what the fold said about each statement."""

    def __init__(self) -> None:
        self.model = SchemaModel()
        self.diagnostics: list[Diagnostic] = []
        self.document: str | None = None

    def diag(self, code: str, message: str, path: Any = ()) -> None:
        self.diagnostics.append(Diagnostic(code, message, tuple(path), document=self.document))

    def fold(self, stmt: Any, document: str | None = None) -> None:
        """Apply one (normalized) statement to the model."""
        self.document = document
        fn = FOLDS.get(type(stmt))
        if fn is None:
            self.diag(N_REPLAY_NOT_FOLDED, f"{_kind(stmt)} not folded: the schema model does not hold it",
                      stmt.origin)
            return
        fn(self, stmt)

    # -- lookups ---------------------------------------------------------------------------------
    def table(self, q: QualifiedName, stmt: Any, *, quiet: bool = False) -> Table | None:
        t = self.model.tables.get((q.schema, q.name))
        if t is None and not quiet:
            self.diag(W_REPLAY_UNKNOWN, f"{_kind(stmt)}: table {q.dotted()} is not in the replayed schema",
                      stmt.origin)
        return t


def _kind(stmt: Any) -> str:
    return kind_of(stmt)


# ---- CREATE TABLE ----------------------------------------------------------------------------
def _create_table(f: Folder, s: CreateTable) -> None:
    m = f.model
    key = (s.identity.schema, s.identity.name)
    if m.relation_kind(key) is not None:
        if s.if_not_exists:
            f.diag(I_REPLAY_NO_CHANGE, f"table {s.identity.dotted()} exists already (IF NOT EXISTS)", s.origin)
            return
        f.diag(W_REPLAY_INEXACT, f"{s.identity.dotted()} created again: the earlier object is replaced", s.origin)
        _forget_relation(f, key)
    if s.of_type is not None or s.inherits:
        f.diag(W_REPLAY_INEXACT, f"table {s.identity.dotted()}: columns of its type or parents are not modelled",
               s.origin)
    st = None
    clause = s.partition
    if clause is not None:
        if clause.spec is None:
            f.diag(W_REPLAY_INEXACT, f"table {s.identity.dotted()}: partition clause not parsed; "
                                     "its partitions are not modelled", s.origin)
        else:
            st = state_of_spec(clause.spec, key)
            keep_parsed_bounds(st.partitions, clause.spec.partitions)
    t = Table(key[0], key[1], s, [Column(c) for c in s.columns],
              [Constraint(c, inline=True) for c in s.constraints], st, order=m.next_order())
    for c in t.constraints:
        _key_not_null(t, c)
    m.tables[key] = t


def _key_not_null(t: Table, c: Constraint) -> None:
    """A PRIMARY KEY makes its columns NOT NULL (and they stay so when it is dropped)."""
    info = c.info
    if info is not None and info.kind is ConstraintKind.PRIMARY_KEY and not info.informational:
        for name in info.columns:
            col = t.column(name)
            if col is not None and not col.defn.not_null:
                col.defn = replace(col.defn, not_null=True)


def _forget_relation(f: Folder, key: Key) -> None:
    from .fold_drops import drop_table

    m = f.model
    if key in m.tables:
        drop_table(f, key, cascade=True)
    for d in (m.views, m.indexes, m.sequences):
        d.pop(key, None)


# ---- ALTER TABLE -----------------------------------------------------------------------------
_TABLE_KINDS = (A.AlterObjType.TABLE, A.AlterObjType.FOREIGN_TABLE)


def _alter_relation(f: Folder, s: A.AlterRelation) -> None:
    if s.objtype not in _TABLE_KINDS:
        for sub in s.subcommands:
            code = I_REPLAY_NO_CHANGE if type(sub) in _NO_CHANGE_SUBS else N_REPLAY_NOT_FOLDED
            f.diag(code, f"ALTER {s.objtype.value} {s.identity.dotted()}: {_kind(sub).lower()} not folded", sub.origin)
        return
    t = f.table(s.identity, s)
    if t is None:
        return
    for sub in s.subcommands:
        fn = SUBFOLDS.get(type(sub))
        if fn is not None:
            fn(f, t, sub)
        elif changes_partitions(sub):
            _partition_change(f, t, sub)
        elif type(sub) in _NO_CHANGE_SUBS:
            f.diag(I_REPLAY_NO_CHANGE, f"{_kind(sub).lower()} changes no schema object", sub.origin)
        else:
            f.diag(N_REPLAY_NOT_FOLDED, f"ALTER TABLE {s.identity.dotted()}: {_kind(sub).lower()} not folded",
                   sub.origin)


def _column(f: Folder, t: Table, name: str, sub: Any) -> Column | None:
    c = t.column(name)
    if c is None:
        f.diag(W_REPLAY_UNKNOWN, f"column {name} of {t.schema}.{t.name} is not in the replayed schema", sub.origin)
    return c


def _set(f: Folder, t: Table, sub: Any, **changes: Any) -> None:
    c = _column(f, t, sub.column, sub)
    if c is not None:
        c.defn = replace(c.defn, **changes)


def _add_column(f: Folder, t: Table, sub: C.AddColumn) -> None:
    if sub.kind is C.ColumnKind.ATTRIBUTE:
        f.diag(N_REPLAY_NOT_FOLDED, "ADD ATTRIBUTE not folded", sub.origin)
        return
    if t.column(sub.column.name) is not None:
        if not sub.if_not_exists:
            f.diag(W_REPLAY_INEXACT, f"column {sub.column.name} added twice to {t.schema}.{t.name}", sub.origin)
        return
    _place(t, Column(replace(sub.column, layout=None)), sub.first, sub.after)


def _place(t: Table, col: Column, first: bool, after: str | None) -> None:
    if first:
        t.columns.insert(0, col)
    elif after is not None and t.column(after) is not None:
        t.columns.insert(t.columns.index(t.column(after)) + 1, col)  # type: ignore[arg-type]
    else:
        t.columns.append(col)


def _drop_column(f: Folder, t: Table, sub: C.DropColumn) -> None:
    from .fold_drops import drop_column

    if t.column(sub.column) is None:
        if not sub.if_exists:
            _column(f, t, sub.column, sub)
        return
    drop_column(f, t, sub.column)


def _alter_type(f: Folder, t: Table, sub: C.AlterColumnType) -> None:
    changes: dict[str, Any] = {"type": sub.type}
    if sub.collation is not None:
        changes["collation"] = sub.collation
    _set(f, t, sub, **changes)


def _modify(f: Folder, t: Table, sub: Any, name: str) -> None:
    """B-compatibility MODIFY / CHANGE: the column is defined again (what is not written is reset)."""
    c = _column(f, t, name, sub)
    if c is None:
        return
    c.defn = replace(c.defn, type=sub.type, not_null=sub.nullability is C.Nullability.NOT_NULL,
                     default=sub.default, generated=sub.generated, generated_kind=sub.generated_kind,
                     on_update=sub.on_update, collation=sub.collation,
                     auto_increment=sub.auto_increment or c.defn.auto_increment, layout=None)
    if sub.first or sub.after is not None:
        t.columns.remove(c)
        _place(t, c, sub.first, sub.after)


def _change_column(f: Folder, t: Table, sub: C.ChangeColumn) -> None:
    from .fold_objects import rename_column

    if sub.old_column != sub.column and t.column(sub.old_column) is not None:
        rename_column(f, t, sub.old_column, sub.column, sub)
    _modify(f, t, sub, sub.column)


def _auto_increment(f: Folder, t: Table, sub: ModifyColumnAutoIncrement) -> None:
    _set(f, t, sub, type=sub.type, auto_increment=True)


def _add_constraint(f: Folder, t: Table, sub: A.AddConstraint) -> None:
    if sub.name and t.constraint(sub.name) is not None:
        f.diag(W_REPLAY_INEXACT, f"constraint {sub.name} added twice to {t.schema}.{t.name}", sub.origin)
        return
    c = Constraint(replace(sub, layout=None), inline=False)
    t.constraints.append(c)
    _key_not_null(t, c)


def _add_constraint_using_index(f: Folder, t: Table, sub: A.AddConstraintUsingIndex) -> None:
    idx = f.model.indexes.pop((t.schema, sub.index), None)
    if idx is None:
        f.diag(W_REPLAY_UNKNOWN, f"index {sub.index} is not in the replayed schema", sub.origin)
        return
    t.constraints.append(Constraint(replace(sub, layout=None), inline=False, using_index=idx.node))
    if sub.constraint_type is A.IndexConstraintType.PRIMARY_KEY:
        for k in idx.node.keys:
            col = t.column(k.column) if k.column is not None else None
            if col is not None:
                col.defn = replace(col.defn, not_null=True)


def _drop_constraint(f: Folder, t: Table, sub: Any) -> None:
    from .fold_drops import drop_constraint

    if isinstance(sub, A.DropPrimaryKey):
        c = next((c for c in t.constraints if c.kind == ConstraintKind.PRIMARY_KEY.value), None)
    else:
        c = t.constraint(sub.name)
    if c is None:
        if not getattr(sub, "if_exists", False):
            f.diag(W_REPLAY_UNKNOWN, f"constraint {getattr(sub, 'name', 'PRIMARY KEY')} of {t.schema}.{t.name} "
                                     "is not in the replayed schema", sub.origin)
        return
    drop_constraint(f, t, c)


_NOT_VALID = lazyre.compile(r"\s+NOT\s+VALID\s*\Z", re.I)


def _validate_constraint(f: Folder, t: Table, sub: A.ValidateConstraint) -> None:
    c = t.constraint(sub.name)
    if c is None:
        f.diag(W_REPLAY_UNKNOWN, f"constraint {sub.name} of {t.schema}.{t.name} is not in the replayed schema",
               sub.origin)
        return
    node = c.node
    text = getattr(getattr(node, "definition", None), "text", "")
    if not _NOT_VALID.search(text):
        return
    from ..frontend.sql.constraints import read_definition
    from ..frontend.sql.expr import make_expr

    body = _NOT_VALID.sub("", text)
    read = read_definition(body, node.definition.origin)
    c.node = replace(node, definition=make_expr(body, node.definition.origin), parsed=read.parsed,
                     verbatim=read.verbatim, layout=None)


def _drop_index(f: Folder, t: Table, sub: A.DropIndex) -> None:
    if f.model.indexes.pop((t.schema, sub.index), None) is None:
        f.diag(W_REPLAY_UNKNOWN, f"index {sub.index} is not in the replayed schema", sub.origin)


def _table_comment(f: Folder, t: Table, sub: A.TableComment) -> None:
    t.comment = sub.comment or None


def _partition_change(f: Folder, t: Table, sub: Any) -> None:
    if t.partitions is None:
        f.diag(W_REPLAY_UNKNOWN, f"{_kind(sub).lower()}: {t.schema}.{t.name} is not partitioned in the "
                                 "replayed schema", sub.origin)
        return
    before = [p.name for p in t.partitions.partitions]
    apply_partition_change(t.partitions, P.with_parsed_bounds(sub), t.key)
    if [p.name for p in t.partitions.partitions] == before and not isinstance(
            sub, (P.ModifyPartitionAddSubpartition, P.SplitSubpartition, P.DropPartition)):
        f.diag(W_REPLAY_INEXACT, f"{_kind(sub).lower()}: the partitions it names were not found on "
                                 f"{t.schema}.{t.name}; nothing changed", sub.origin)
    for idx in f.model.indexes_of(t.key):  # a LOCAL index list follows the table's partitions
        if idx.node.partitions:
            idx.node = replace(idx.node, partitions=())


def _remove_partitioning(f: Folder, t: Table, sub: Any) -> None:
    t.partitions = None
    t.create = replace(t.create, partition=None)


_NO_CHANGE_SUBS = frozenset({
    P.TruncatePartition, P.TruncateSubpartition, P.ExchangePartition, P.MovePartition, P.RebuildPartitions,
    P.AnalyzePartitions, P.ResetPartition, A.Unusable, A.UnusablePartition, A.Rebuild, A.RebuildPartition,
    A.RebuildPartitionAllIndex, A.SetWithoutCluster, A.ClusterOn, C.SetStatistics,
})

SUBFOLDS: dict[type, Any] = {
    C.AddColumn: _add_column,
    C.DropColumn: _drop_column,
    C.AlterColumnType: _alter_type,
    C.SetDefault: lambda f, t, sub: _set(f, t, sub, default=sub.default),
    C.DropDefault: lambda f, t, sub: _set(f, t, sub, default=None),
    C.SetNotNull: lambda f, t, sub: _set(f, t, sub, not_null=True),
    C.DropNotNull: lambda f, t, sub: _set(f, t, sub, not_null=False),
    C.ModifyColumn: lambda f, t, sub: _modify(f, t, sub, sub.column),
    C.ChangeColumn: _change_column,
    ModifyColumnAutoIncrement: _auto_increment,
    A.AddConstraint: _add_constraint,
    A.AddConstraintUsingIndex: _add_constraint_using_index,
    A.DropConstraint: _drop_constraint,
    A.DropPrimaryKey: _drop_constraint,
    A.DropForeignKey: _drop_constraint,
    A.ValidateConstraint: _validate_constraint,
    A.DropIndex: _drop_index,
    A.TableComment: _table_comment,
    P.RemovePartitioning: _remove_partitioning,
}


def _no_change(f: Folder, s: Any) -> None:
    f.diag(I_REPLAY_NO_CHANGE, f"{_kind(s)} changes no schema object", s.origin)


def _build_folds() -> dict[type, Any]:
    from ..ir.comment import Comment
    from ..ir.drop import Drop
    from ..ir.followup import AutoIncrementBackfill, BackfillUpdate
    from ..ir.index import CreateIndex
    from ..ir.misc import RefreshMatView, Reindex, Truncate
    from ..ir.rename import RenameColumn, RenameConstraint, RenameRelation, RenameSchema, RenameTables, SetSchema
    from ..ir.schema import CreateSchema
    from ..ir.sequence import AlterSequence, CreateSequence
    from ..ir.view import CreateView
    from . import fold_drops as D
    from . import fold_objects as O

    return {
        CreateTable: _create_table,
        A.AlterRelation: _alter_relation,
        AlterTableFollowup: _alter_relation,
        CreateSchema: O.create_schema,
        RenameSchema: O.rename_schema,
        Drop: D.drop,
        CreateIndex: O.create_index,
        CreateView: O.create_view,
        CreateSequence: O.create_sequence,
        AlterSequence: O.alter_sequence,
        RenameRelation: O.rename_relation,
        RenameTables: O.rename_tables,
        SetSchema: O.set_schema,
        RenameColumn: O.rename_column_stmt,
        RenameConstraint: O.rename_constraint,
        Comment: O.comment,
        BackfillUpdate: _no_change,
        AutoIncrementBackfill: _no_change,
        Truncate: _no_change,
        Reindex: _no_change,
        RefreshMatView: _no_change,
    }


FOLDS: dict[type, Any] = _build_folds()


__all__ = ["FOLDS", "Folder", "SUBFOLDS", "column_refs", "constraint_renamed", "expr_renamed"]
