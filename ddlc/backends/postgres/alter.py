"""PostgreSQL: ALTER TABLE / INDEX / VIEW / SEQUENCE / TYPE, and the ALTER TABLE follow-ups.

One GaussDB ALTER may become several PostgreSQL statements; the subcommands are translated in
the order they arrive (execution order, jddl-shapes.md §4.8) and that order is kept: consecutive
clauses PostgreSQL takes inside one ``ALTER TABLE`` share a statement; a subcommand that needs a
statement of its own (``COMMENT ON``, ``REINDEX``, ``DROP INDEX``, ``RENAME COLUMN``, partition
maintenance) closes the current one and opens the next.

Where the pieces are: the statement, relation-level subcommands, storage parameters and the
follow-up statements here; column and constraint subcommands (incl. B-compatible MODIFY / CHANGE,
AUTO_INCREMENT, dolphin DROP PRIMARY KEY / FOREIGN KEY / INDEX) in :mod:`.alter_columns`; partition
maintenance (which reads the stream's history from ``e.catalog``) in :mod:`.alter_partitions`.
RENAME and SET SCHEMA are separate statements, written by the objects family. ADD INDEX inside
ALTER TABLE never reaches ddlc (the deparser writes no element for it, jddl-shapes.md §5.2).

Decisions:

* What PostgreSQL cannot take is declared in :data:`UNSUPPORTED` (removed by the
  ``drop_unsupported`` pass with a diagnostic), including what depends on the enclosing statement
  (a storage parameter PostgreSQL takes for one relation kind and not another: ``within``); what
  depends on the stream's history (the catalog) is decided here, each with its own diagnostic
  (docs/architecture.md lists those decisions).
* The ``UPDATE t SET c = <default> WHERE c IS NULL`` follow-up is emitted as the UPDATE it is (valid
  PostgreSQL, DDLC-I694): the main ADD COLUMN carries no non-constant default, so without it the
  existing rows would stay NULL on PostgreSQL while GaussDB filled them, and a later
  ``SET NOT NULL`` follow-up would fail.
* The AUTO_INCREMENT back-fill block is refused (DDLC-W702): an AUTO_INCREMENT column added by
  ALTER TABLE is added as an identity column, which PostgreSQL fills itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sys
from ...ir.alter import (
    AddOf, AlterObjType, AlterRelation, ChangeOwner, ClusterOn, Collate, ConvertCharset, DefaultCharset,
    IndexVisibility, Inherit, NoInherit, NotOf, OpaqueSubcommand, Rebuild, RebuildPartition,
    RebuildPartitionAllIndex, RelOption, ReplicaIdentity, ReplicaIdentityKind, ResetRelOptions, RowMovement,
    RowSecurity, RuleState, SetCompression, SetRelOptions, SetTablespace, SetWithoutCluster, SetWithoutOids,
    TableComment, TriggerState, TriggerTarget, Unusable, UnusablePartition,
)

from ...ir.alter_columns import AlterColumnType, ChangeColumn, ModifyColumn
from ...ir.followup import AlterTableFollowup, AutoIncrementBackfill, BackfillUpdate
from ...ir.rules import Refusal, Rule
from ..base import table_of
from ..coverage import dispatches
from ..writer import pg_ident, pg_literal, words
from . import alter_columns, alter_partitions, table

from .alter_base import (
    I_BACKFILL_UPDATE, I_PER_PARTITION, I_REINDEX, I_TABLE_COMMENT, I_WITHOUT_OIDS, N_OPAQUE, W_BACKFILL_BLOCK, W_CHARSET,
    W_COMPRESS, W_IF_EXISTS, W_INDEX_STATE, W_OWNER_UNKNOWN, W_RELOPTION, W_TABLESPACE, Alter, _pg_option, handles,
    options_list, valid_here,
)
from .context import Emit, emits
from .dependent_views import around_type_change
from .owners import RESERVED_ROLES, W_RESERVED_ROLE

# (an enum member read once: on Python 3.11 a read through its class goes through the enum metaclass's __getattr__ hook)
_LARGE_SEQUENCE = AlterObjType.LARGE_SEQUENCE


@emits(AlterRelation, AlterTableFollowup)
@dispatches(lambda: SUB)
def alter_relation(n: AlterRelation, e: Emit) -> list[str]:
    if n.objtype is _LARGE_SEQUENCE:
        from .objects import I_LARGE_WORD

        e.diag(I_LARGE_WORD, "ALTER LARGE SEQUENCE written as ALTER SEQUENCE", n.origin)
    if _TYPE_CHANGING.isdisjoint(map(type, n.subcommands)):
        return Alter(n, e, SUB).run()  # (no column's type changes: around_type_change would give nothing)
    before, after = around_type_change(n, e)  # the views that read a column whose type changes (issue 25.1)
    return [*before, *Alter(n, e, SUB).run(), *after]


# The subcommands that may change a column's type (dependent_views.type_changes reads these classes, none of
# which has a subclass: tests/test_throughput_round12_pgalter.py checks it)
_TYPE_CHANGING = frozenset({AlterColumnType, ModifyColumn, ChangeColumn})


@emits(BackfillUpdate)
def backfill_update(n: BackfillUpdate, e: Emit) -> list[str]:
    e.diag(I_BACKFILL_UPDATE, "UPDATE back-fill of an added column emitted as DML", n.origin)
    table = e.qname(n.identity)
    column = pg_ident(n.column)
    return [words("UPDATE", table, "SET", column, "=", e.expr(n.value), "WHERE", column, "IS", "NULL")]


REFUSED = {
    AutoIncrementBackfill: Refusal(W_BACKFILL_BLOCK, "AUTO_INCREMENT back-fill block not replayed "
                                   "(the column is a PostgreSQL identity column)"),
}



@handles(SetRelOptions, ResetRelOptions)
def _rel_options(n: SetRelOptions | ResetRelOptions, a: Alter) -> None:
    word = "SET" if isinstance(n, SetRelOptions) else "RESET"
    body = options_list(n.options, a.e, word == "SET")
    if body is None:
        return
    if a.state is not None and a.n.objtype is AlterObjType.TABLE:
        from .alter_partitions import leaf_tables

        a.e.diag(I_PER_PARTITION, f"{word} (...) applied to each partition of {a.n.identity.dotted()}", n.origin)
        for leaf in leaf_tables(a):
            a.statement(words("ALTER", "TABLE", leaf, word, body))
        return
    a.clause(word + " " + body)  # (the body starts with "(": one space before it)


# ---- relation-level subcommands ------------------------------------------------------------
@handles(ChangeOwner)
def _owner(n: ChangeOwner, a: Alter) -> None:
    a.clause("OWNER TO " + pg_ident(n.owner or ""))


@handles(ClusterOn)
def _cluster_on(n: ClusterOn, a: Alter) -> None:
    a.clause("CLUSTER ON " + pg_ident(n.index))


@handles(SetWithoutCluster)
def _without_cluster(n: SetWithoutCluster, a: Alter) -> None:
    a.clause("SET WITHOUT CLUSTER")


@handles(TriggerState)
def _trigger_state(n: TriggerState, a: Alter) -> None:
    what = pg_ident(n.trigger or "") if n.target is TriggerTarget.NAMED else n.target.value
    a.clause(n.mode.value + " TRIGGER " + what)


@handles(RuleState)
def _rule_state(n: RuleState, a: Alter) -> None:
    a.clause(n.mode.value + " RULE " + pg_ident(n.rule))


@handles(Inherit, NoInherit)
def _inherit(n: Inherit | NoInherit, a: Alter) -> None:
    a.clause(words("INHERIT" if isinstance(n, Inherit) else "NO INHERIT", a.e.qname(n.parent)))


@handles(AddOf)
def _add_of(n: AddOf, a: Alter) -> None:
    a.clause(words("OF", a.e.type(n.type)))


@handles(NotOf)
def _not_of(n: NotOf, a: Alter) -> None:
    a.clause("NOT OF")


@handles(ReplicaIdentity)
def _replica_identity(n: ReplicaIdentity, a: Alter) -> None:
    if n.kind is ReplicaIdentityKind.INDEX:
        a.clause("REPLICA IDENTITY USING INDEX " + pg_ident(n.index or ""))
    else:
        a.clause("REPLICA IDENTITY " + n.kind.value)


@handles(RowSecurity)
def _row_security(n: RowSecurity, a: Alter) -> None:
    a.clause(n.action.value + " ROW LEVEL SECURITY")


@handles(TableComment)
def _table_comment(n: TableComment, a: Alter) -> None:
    a.e.diag(I_TABLE_COMMENT, "COMMENT = written as COMMENT ON TABLE", n.origin)
    a.statement(words("COMMENT ON TABLE", a.table, "IS", pg_literal(n.comment)))


@handles(Rebuild)
def _rebuild(n: Rebuild, a: Alter) -> None:
    a.e.diag(I_REINDEX, "ALTER INDEX ... REBUILD written as REINDEX INDEX", n.origin)
    a.statement(words("REINDEX INDEX", a.table))


@handles(RebuildPartitionAllIndex)
def _rebuild_partition_indexes(n: RebuildPartitionAllIndex, a: Alter) -> None:
    from .alter_partitions import partition_table

    a.e.diag(I_REINDEX, f"indexes of partition {n.partition} rebuilt with REINDEX TABLE", n.origin)
    a.statement(words("REINDEX TABLE", partition_table(a, n.partition)))


# ---- what the drop_unsupported pass removes -------------------------------------------------
def _drop(node: type, code: str, message: str, applies: Callable[[Any], bool] | None = None) -> Rule:
    """A rule removing the subcommand; without ``applies``, whatever its content (the coverage check,
    :mod:`ddlc.backends.coverage`, counts the class as declared unsupported)."""
    if applies is None:
        return Rule(node=node, code=code, message=message)
    return Rule(node=node, code=code, message=message, applies=applies)


_RULES = (
    _drop(SetTablespace, W_TABLESPACE, "SET TABLESPACE not replayed (GaussDB tablespace)"),
    _drop(SetCompression, W_COMPRESS, "SET COMPRESS / NOCOMPRESS has no PostgreSQL form"),
    _drop(RowMovement, table.W_ROW_MOVEMENT, "DISABLE ROW MOVEMENT has no PostgreSQL form", lambda n: not n.enable),
    # ENABLE: every RowMovement the rule above left (one rule drops the class whatever its content)
    _drop(RowMovement, table.I_ROW_MOVEMENT, "ENABLE ROW MOVEMENT is PostgreSQL's behaviour; removed"),
    _drop(DefaultCharset, W_CHARSET, "DEFAULT CHARACTER SET has no PostgreSQL form"),
    _drop(ConvertCharset, W_CHARSET, "CONVERT TO CHARACTER SET has no PostgreSQL form"),
    _drop(Collate, W_CHARSET, "table COLLATE = has no PostgreSQL form"),
    _drop(ChangeOwner, W_OWNER_UNKNOWN, 'OWNER TO "subcmd->newowner": owner unknown, not replayed',
          lambda n: n.owner is None),
    _drop(ChangeOwner, W_RESERVED_ROLE, "OWNER TO a role name PostgreSQL reserves (public, none); removed",
          lambda n: n.owner in RESERVED_ROLES),
    _drop(RelOption, W_RELOPTION, "storage parameter unknown to PostgreSQL; removed", lambda n: not _pg_option(n)),
    Rule(RelOption, W_RELOPTION, lambda o: f"option {o.name} is not valid here in PostgreSQL; removed",
         within=lambda o, enclosing: not valid_here(o, enclosing), last=True),
    _drop(Unusable, W_INDEX_STATE, "UNUSABLE has no PostgreSQL form"),
    _drop(UnusablePartition, W_INDEX_STATE, "MODIFY PARTITION ... UNUSABLE has no PostgreSQL form"),
    _drop(IndexVisibility, W_INDEX_STATE, "index [IN]VISIBLE has no PostgreSQL form"),
    _drop(RebuildPartition, W_INDEX_STATE,
          "REBUILD PARTITION of an index: PostgreSQL names index partitions itself; not replayed"),
    _drop(SetWithoutOids, I_WITHOUT_OIDS, "SET WITHOUT OIDS has no effect; removed"),
    _drop(OpaqueSubcommand, N_OPAQUE, "subcommand kept as GaussDB text is not translated"),
    Rule(AlterRelation, W_IF_EXISTS, "IF EXISTS removed (PostgreSQL's ALTER TYPE has none)",
         applies=lambda n: n.if_exists and n.objtype is AlterObjType.TYPE, field="if_exists", absent=False),
)

UNSUPPORTED = _RULES  # alter_columns and alter_partitions declare their own
SUB = table_of(sys.modules[__name__], alter_columns, alter_partitions, what="ALTER handler", attr="__handles__")
