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
  ``drop_unsupported`` pass with a diagnostic); rewrites that depend on the statement (the relation
  kind, the catalog) are done here, each with its own diagnostic.
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

from ...diagnostics import Severity, register
from ...ir.alter import (
    AddOf, AlterObjType, AlterRelation, ChangeOwner, ClusterOn, Collate, ConvertCharset, DefaultCharset,
    IndexVisibility, Inherit, NoInherit, NotOf, OpaqueSubcommand, Rebuild, RebuildPartition,
    RebuildPartitionAllIndex, RelOption, ReplicaIdentity, ReplicaIdentityKind, ResetRelOptions, RowMovement,
    RowSecurity, RuleState, SetCompression, SetRelOptions, SetTablespace, SetWithoutCluster, SetWithoutOids,
    TableComment, TriggerState, TriggerTarget, Unusable, UnusablePartition,
)
from ...ir.base import Node
from ...ir.catalog import working_copy
from ...ir.followup import AlterTableFollowup, AutoIncrementBackfill, BackfillUpdate
from ...ir.passes.drop_unsupported import Rule
from . import Emit, emits, refuses, table

# ---- diagnostic codes (DDLC-W690..W729, N690..N729, I690..I729) ------------------------------
W_NO_HISTORY = register(
    "DDLC-W690", Severity.WARNING, "Partition change needs the table's history",
    "PostgreSQL partitions carry both bounds (FOR VALUES FROM (lower) TO (upper)), GaussDB's ADD / SPLIT / "
    "MERGE / EXCHANGE PARTITION and PARTITION FOR (...) only upper bounds or key values. The lower bound "
    "(or the partition holding the values) is the previous partition's, which only the earlier DDL of the "
    "same stream tells (translate the whole stream with `translate_many` / the CLI). Without that history "
    "nothing is emitted for the subcommand; with --on-unsupported comment its GaussDB text is kept.",
    "ALTER TABLE public.r ADD PARTITION p3 VALUES LESS THAN (300)   -- table not seen before",
)
W_TABLESPACE = register(
    "DDLC-W691", Severity.WARNING, "Tablespace not replayed",
    "SET TABLESPACE, MOVE PARTITION ... TABLESPACE, per-partition TABLESPACE and USING INDEX TABLESPACE "
    "name GaussDB tablespaces, which do not exist on the PostgreSQL server: the clause is removed and the "
    "object stays in the default tablespace.",
    "ALTER TABLE public.t SET TABLESPACE ts1",
)
W_COMPRESS = register(
    "DDLC-W692", Severity.WARNING, "SET COMPRESS / NOCOMPRESS not replayed",
    "GaussDB's table compression switch has no PostgreSQL form (PostgreSQL compresses large values through "
    "TOAST, per column). The subcommand is removed.",
    "ALTER TABLE public.t SET COMPRESS",
)
W_CHARSET = register(
    "DDLC-W694", Severity.WARNING, "Character set not replayed",
    "DEFAULT CHARACTER SET, CONVERT TO CHARACTER SET, the table-level COLLATE = and a column's CHARACTER SET "
    "(B compatibility) have no PostgreSQL form: a PostgreSQL database has one encoding, and MySQL collation "
    "names do not exist there. The clause is removed (column collations: DDLC-W615).",
    "ALTER TABLE db1.t DEFAULT CHARACTER SET = UTF8",
)
W_OWNER_UNKNOWN = register(
    "DDLC-W695", Severity.WARNING, "OWNER TO with an unknown owner not replayed",
    "The GaussDB deparser writes the literal `subcmd->newowner` instead of the new owner (jddl-shapes.md "
    "§10.1, DDLC-W201), so the owner is unknown and the subcommand is removed.",
    'ALTER TABLE public.orders OWNER TO "subcmd->newowner"',
)
W_RELOPTION = register(
    "DDLC-W696", Severity.WARNING, "Storage parameter not valid in PostgreSQL",
    "A SET/RESET (...) option that PostgreSQL does not know for this kind of relation (orientation, "
    "compression, storage_type, segment, hashbucket, init_td... or an index option on a table) is removed; "
    "the others are kept. A SET/RESET left with no option is removed.",
    "ALTER TABLE public.t SET (fillfactor = 70, orientation = 'row')",
)
W_INDEX_STATE = register(
    "DDLC-W697", Severity.WARNING, "Index state not replayed",
    "PostgreSQL indexes cannot be made UNUSABLE or INVISIBLE, and their partitions have names chosen by "
    "PostgreSQL, so ALTER INDEX ... UNUSABLE, MODIFY PARTITION ... UNUSABLE, [IN]VISIBLE and REBUILD "
    "PARTITION are removed (the index stays usable and visible on PostgreSQL).",
    "ALTER INDEX public.i UNUSABLE",
)
W_POSITION = register(
    "DDLC-W698", Severity.WARNING, "Column position not replayed",
    "PostgreSQL always adds a column at the end and cannot move one: FIRST / AFTER c of ADD, MODIFY and "
    "CHANGE COLUMN is removed.",
    "ALTER TABLE db1.t ADD COLUMN z int4 FIRST",
)
W_GENERATED = register(
    "DDLC-W700", Severity.WARNING, "Generation expression not replayed on an existing column",
    "MODIFY / CHANGE COLUMN ... GENERATED ALWAYS AS (...) turns an existing column into a generated one; "
    "PostgreSQL 15 cannot. The generation expression is removed (the column keeps its values).",
)
W_AUTOINC_START = register(
    "DDLC-W701", Severity.WARNING, "AUTO_INCREMENT = n without a known identity column",
    "`AUTO_INCREMENT n` sets the next value of the table's AUTO_INCREMENT column, which ddlc translates to an "
    "identity column: ALTER COLUMN c RESTART WITH n. When neither the statement nor the stream's history says "
    "which column that is, the subcommand is removed.",
)
W_BACKFILL_BLOCK = register(
    "DDLC-W702", Severity.WARNING, "AUTO_INCREMENT back-fill block not replayed",
    "The anonymous PL/pgSQL block GaussDB writes after adding or modifying a NOT NULL AUTO_INCREMENT column "
    "numbers the NULL rows through a temporary LARGE SEQUENCE. PostgreSQL has neither the block syntax nor "
    "large sequences, and needs neither: ddlc adds such a column as an identity column, which PostgreSQL fills "
    "itself. Nothing is emitted. (For MODIFY COLUMN of an existing column that still holds NULLs, the "
    "following SET NOT NULL then fails on PostgreSQL, as the rows are not numbered.)",
)
W_PRIMARY_KEY_NAME = register(
    "DDLC-W703", Severity.WARNING, "DROP PRIMARY KEY assumes the default constraint name",
    "PostgreSQL drops a primary key by its constraint name. When the stream's history does not say it, ddlc "
    "uses PostgreSQL's (and GaussDB's) default name `<table>_pkey`; a key created under another name is not "
    "dropped (the statement fails).",
    "ALTER TABLE db1.t DROP PRIMARY KEY  ->  ALTER TABLE db1.t DROP CONSTRAINT t_pkey",
)
W_HASH_PARTITION = register(
    "DDLC-W704", Severity.WARNING, "Hash partition change not replayed",
    "Adding a partition to a hash-partitioned table changes the modulus of every partition; PostgreSQL "
    "needs the whole table re-partitioned. The subcommand is removed.",
)
W_PARTITION_FORM = register(
    "DDLC-W705", Severity.WARNING, "Partition operation has no PostgreSQL form",
    "REMOVE PARTITIONING, RESET PARTITION, multi-column LIST partitions, and SPLIT / MERGE of a partition "
    "that is itself subpartitioned have no PostgreSQL counterpart ddlc can write; the subcommand is removed.",
)
W_DROP_GAP = register(
    "DDLC-W706", Severity.WARNING, "Dropped range partition leaves a gap",
    "After GaussDB drops a range partition, the next partition holds its range (bounds are upper bounds "
    "only). On PostgreSQL the next partition must be re-attached with the wider range, which needs the "
    "table's history. Without it the partition is dropped and its range is no longer covered.",
)
W_MATCH_PARTIAL = register(
    "DDLC-W707", Severity.WARNING, "FOREIGN KEY ... MATCH PARTIAL not replayed",
    "PostgreSQL does not implement MATCH PARTIAL foreign keys; the ADD CONSTRAINT is removed.",
)
W_STATISTICS_PERCENT = register(
    "DDLC-W709", Severity.WARNING, "SET STATISTICS PERCENT not replayed",
    "openGauss's percentage statistics target has no PostgreSQL form; the subcommand is removed.",
)
W_IDENTITY_NULL = register(
    "DDLC-W712", Severity.WARNING, "Nullable AUTO_INCREMENT column becomes NOT NULL",
    "A PostgreSQL identity column is always NOT NULL; a nullable GaussDB AUTO_INCREMENT column becomes NOT "
    "NULL.",
)
N_OPAQUE = register(
    "DDLC-N690", Severity.NOTE, "Unmodelled subcommand not translated",
    "A subcommand ddlc keeps only as GaussDB text (DDLC-N201) is not translated to PostgreSQL; it is removed "
    "(kept as a comment with --on-unsupported comment).",
)
I_REINDEX = register(
    "DDLC-I691", Severity.INFO, "REBUILD written as REINDEX",
    "ALTER INDEX i REBUILD becomes REINDEX INDEX i; MODIFY PARTITION p REBUILD [UNUSABLE LOCAL INDEXES / ALL "
    "INDEX] becomes REINDEX TABLE of the partition's table.",
)
I_IDENTITY = register(
    "DDLC-I693", Severity.INFO, "AUTO_INCREMENT written as an identity column",
    "An AUTO_INCREMENT column becomes `GENERATED BY DEFAULT AS IDENTITY` (added with the column, or by the "
    "MODIFY COLUMN ... AUTO_INCREMENT follow-up); AUTO_INCREMENT n becomes ALTER COLUMN c RESTART WITH n. "
    "A follow-up for a column that is already an identity column emits nothing.",
)
I_BACKFILL_UPDATE = register(
    "DDLC-I694", Severity.INFO, "UPDATE back-fill emitted",
    "The `UPDATE t SET c = <default> WHERE c IS NULL` follow-up of an ADD COLUMN with a non-constant default "
    "is DML, but valid PostgreSQL: it is emitted so the existing rows get the value GaussDB gave them.",
)
I_TABLE_COMMENT = register(
    "DDLC-I695", Severity.INFO, "COMMENT = written as COMMENT ON TABLE",
    "The B-compatibility subcommand COMMENT = 'x' becomes a COMMENT ON TABLE statement.",
)
I_WITHOUT_OIDS = register(
    "DDLC-I696", Severity.INFO, "SET WITHOUT OIDS removed",
    "Tables have no OIDs in PostgreSQL 12 and later (nor in GaussDB): the subcommand has no effect and is "
    "removed.",
)
I_PARTITION_NOOP = register(
    "DDLC-I697", Severity.INFO, "Partition maintenance without logical effect removed",
    "Dolphin REBUILD PARTITION rewrites partitions in place; it changes no data and no definition, and "
    "PostgreSQL has no such statement. It is removed.",
)
I_PARTITION_SEQUENCE = register(
    "DDLC-I698", Severity.INFO, "Partition maintenance written as PostgreSQL statements",
    "ADD / DROP / TRUNCATE / EXCHANGE / SPLIT / MERGE PARTITION, ANALYZE PARTITION and MODIFY PARTITION ADD "
    "SUBPARTITION become statements on the partitions' tables (CREATE TABLE ... PARTITION OF, DROP TABLE, "
    "TRUNCATE, DETACH / ATTACH PARTITION, INSERT ... SELECT, ANALYZE), named `<parent>_<partition>`. "
    "Rows of SPLIT / MERGE are copied with INSERT ... OVERRIDING SYSTEM VALUE SELECT *, which PostgreSQL "
    "refuses for a table with a GENERATED ... STORED column.",
)
I_VALIDATION = register(
    "DDLC-I699", Severity.INFO, "ATTACH PARTITION validates rows",
    "EXCHANGE PARTITION ... WITHOUT VALIDATION skips GaussDB's row check; PostgreSQL's ATTACH PARTITION "
    "always checks that the exchanged rows fit the partition (and fails if they do not).",
)
I_PER_PARTITION = register(
    "DDLC-I700", Severity.INFO, "Storage parameters set on each partition",
    "A partitioned table has no storage of its own in PostgreSQL and refuses storage parameters: SET / RESET "
    "(...) on a partitioned table (known from the stream's history) is applied to each partition's table.",
)
# ---- helpers ---------------------------------------------------------------------------------
_OBJWORD = {
    AlterObjType.TABLE: "TABLE", AlterObjType.INDEX: "INDEX", AlterObjType.VIEW: "VIEW",
    AlterObjType.TYPE: "TYPE", AlterObjType.SEQUENCE: "SEQUENCE", AlterObjType.LARGE_SEQUENCE: "SEQUENCE",
    AlterObjType.FOREIGN_TABLE: "FOREIGN TABLE", AlterObjType.MATERIALIZED_VIEW: "MATERIALIZED VIEW",
}


def gauss_text(n: Node) -> str | None:
    """The canonical GaussDB text of a node (for ``--on-unsupported comment``)."""
    try:
        from ..gaussdb import emit

        return emit(n)
    except Exception:
        return None


Handler = Callable[[Any, "Alter"], None]
SUB: dict[type, Handler] = {}


def handles(*classes: type) -> Callable[[Handler], Handler]:
    def deco(fn: Handler) -> Handler:
        for cls in classes:
            if cls in SUB:
                raise ValueError(f"postgres alter: a second handler for {cls.__name__}")
            SUB[cls] = fn
        return fn
    return deco


class Alter:
    """The statements of one ALTER: clauses are grouped into ``ALTER <kind> [ONLY] name ...`` until a
    subcommand needs a statement of its own."""

    __slots__ = ("n", "e", "out", "clauses", "state", "identity_column", "objword")

    def __init__(self, n: AlterRelation, e: Emit) -> None:
        self.n, self.e = n, e
        self.out: list[str] = []
        self.clauses: list[str] = []
        cat = e.catalog
        self.state = working_copy(cat.table(n.identity)) if cat is not None else None
        self.identity_column = cat.identity_column(n.identity) if cat is not None else None
        self.objword = _OBJWORD[n.objtype]

    @property
    def table(self) -> str:
        return self.e.qname(self.n.identity)

    def head(self, only: bool | None = None) -> str:
        only = self.n.only if only is None else only
        return f"ALTER {self.objword} {'ONLY ' if only else ''}{self.table}"

    def clause(self, text: str) -> None:
        self.clauses.append(text)

    def statement(self, text: str) -> None:
        self.flush()
        self.out.append(text)

    def flush(self) -> None:
        if self.clauses:
            self.out.append(self.head() + " " + ", ".join(self.clauses))
            self.clauses = []

    def gauss(self, sub: Node) -> str | None:
        """``ALTER <kind> name <subcommand>`` in GaussDB text, for comments."""
        text = gauss_text(sub)
        return None if text is None else f"ALTER {self.n.objtype.value} {self.n.identity.dotted()} {text}"

    def run(self) -> list[str]:
        for sub in self.n.subcommands:
            try:
                fn = SUB[type(sub)]
            except KeyError:
                from ...errors import InternalError

                raise InternalError(f"postgres: no ALTER handler for {type(sub).__name__}", path=sub.origin) from None
            fn(sub, self)
        self.flush()
        return self.out


@emits(AlterRelation, AlterTableFollowup)
def alter_relation(n: AlterRelation, e: Emit) -> list[str]:
    if n.objtype is AlterObjType.LARGE_SEQUENCE:
        from .objects import I_LARGE_WORD

        e.diag(I_LARGE_WORD, "ALTER LARGE SEQUENCE written as ALTER SEQUENCE", n.origin)
    return Alter(n, e).run()


@emits(BackfillUpdate)
def backfill_update(n: BackfillUpdate, e: Emit) -> list[str]:
    e.diag(I_BACKFILL_UPDATE, "UPDATE back-fill of an added column emitted as DML", n.origin)
    w = e.w().kw("UPDATE").raw(e.qname(n.identity)).kw("SET").ident(n.column).kw("=").raw(e.expr(n.value))
    return [w.kw("WHERE").ident(n.column).kw("IS", "NULL").text()]


refuses(AutoIncrementBackfill, W_BACKFILL_BLOCK,
        "AUTO_INCREMENT back-fill block not replayed (the column is a PostgreSQL identity column)")


# ---- storage parameters -------------------------------------------------------------------
from .table import HEAP_OPTIONS as TABLE_OPTIONS, TOAST_OPTIONS  # noqa: E402  (one list for both families)

INDEX_OPTIONS = frozenset({"fillfactor", "deduplicate_items", "fastupdate", "gin_pending_list_limit", "buffering",
                           "pages_per_range", "autosummarize"})
VIEW_OPTIONS = frozenset({"check_option", "security_barrier", "security_invoker"})
COLUMN_OPTIONS = frozenset({"n_distinct", "n_distinct_inherited"})
_ANY_OPTION = TABLE_OPTIONS | INDEX_OPTIONS | VIEW_OPTIONS | COLUMN_OPTIONS


def _pg_option(o: RelOption) -> bool:
    name = o.name.lower()
    if o.namespace is not None:
        return o.namespace.lower() == "toast" and name in TOAST_OPTIONS
    return name in _ANY_OPTION


def _valid_for(kind: AlterObjType | None, o: RelOption) -> bool:
    name = o.name.lower()
    if o.namespace is not None:
        return kind in (AlterObjType.TABLE, AlterObjType.MATERIALIZED_VIEW) and name in TOAST_OPTIONS
    if kind is None:  # ALTER COLUMN ... SET (...)
        return name in COLUMN_OPTIONS
    allowed = {AlterObjType.TABLE: TABLE_OPTIONS, AlterObjType.MATERIALIZED_VIEW: TABLE_OPTIONS,
               AlterObjType.INDEX: INDEX_OPTIONS, AlterObjType.VIEW: VIEW_OPTIONS}
    return name in allowed.get(kind, frozenset())


def option_sql(o: RelOption, e: Emit, with_value: bool) -> str:
    name = (e.ident(o.namespace) + "." if o.namespace else "") + e.ident(o.name.lower())
    if not with_value or o.value is None:
        return name
    return f"{name} = {e.literal(o.value) if o.quoted else o.value}"


def options_list(opts: tuple[RelOption, ...], kind: AlterObjType | None, e: Emit, with_value: bool) -> str | None:
    """``(a = 1, b)`` with the options PostgreSQL takes for this kind; None when none is left."""
    kept = []
    for o in opts:
        if _valid_for(kind, o):
            kept.append(option_sql(o, e, with_value))
        else:
            e.diag(W_RELOPTION, f"option {o.name} is not valid here in PostgreSQL; removed", o.origin,
                   dropped_text=o.name)
    return "(" + ", ".join(kept) + ")" if kept else None


@handles(SetRelOptions, ResetRelOptions)
def _rel_options(n: SetRelOptions | ResetRelOptions, a: Alter) -> None:
    word = "SET" if isinstance(n, SetRelOptions) else "RESET"
    body = options_list(n.options, a.n.objtype, a.e, word == "SET")
    if body is None:
        return
    if a.state is not None and a.n.objtype is AlterObjType.TABLE:
        from .alter_partitions import leaf_tables

        a.e.diag(I_PER_PARTITION, f"{word} (...) applied to each partition of {a.n.identity.dotted()}", n.origin)
        for leaf in leaf_tables(a):
            a.statement(f"ALTER TABLE {leaf} {word} {body}")
        return
    a.clause(f"{word} {body}")


# ---- relation-level subcommands ------------------------------------------------------------
@handles(ChangeOwner)
def _owner(n: ChangeOwner, a: Alter) -> None:
    a.clause("OWNER TO " + a.e.ident(n.owner or ""))


@handles(ClusterOn)
def _cluster_on(n: ClusterOn, a: Alter) -> None:
    a.clause("CLUSTER ON " + a.e.ident(n.index))


@handles(SetWithoutCluster)
def _without_cluster(n: SetWithoutCluster, a: Alter) -> None:
    a.clause("SET WITHOUT CLUSTER")


@handles(TriggerState)
def _trigger_state(n: TriggerState, a: Alter) -> None:
    target = a.e.ident(n.trigger or "") if n.target is TriggerTarget.NAMED else n.target.value
    a.clause(f"{n.mode.value} TRIGGER {target}")


@handles(RuleState)
def _rule_state(n: RuleState, a: Alter) -> None:
    a.clause(f"{n.mode.value} RULE {a.e.ident(n.rule)}")


@handles(Inherit, NoInherit)
def _inherit(n: Inherit | NoInherit, a: Alter) -> None:
    a.clause(("INHERIT " if isinstance(n, Inherit) else "NO INHERIT ") + a.e.qname(n.parent))


@handles(AddOf)
def _add_of(n: AddOf, a: Alter) -> None:
    a.clause("OF " + a.e.type(n.type))


@handles(NotOf)
def _not_of(n: NotOf, a: Alter) -> None:
    a.clause("NOT OF")


@handles(ReplicaIdentity)
def _replica_identity(n: ReplicaIdentity, a: Alter) -> None:
    if n.kind is ReplicaIdentityKind.INDEX:
        a.clause("REPLICA IDENTITY USING INDEX " + a.e.ident(n.index or ""))
    else:
        a.clause("REPLICA IDENTITY " + n.kind.value)


@handles(RowSecurity)
def _row_security(n: RowSecurity, a: Alter) -> None:
    a.clause(f"{n.action.value} ROW LEVEL SECURITY")


@handles(TableComment)
def _table_comment(n: TableComment, a: Alter) -> None:
    a.e.diag(I_TABLE_COMMENT, "COMMENT = written as COMMENT ON TABLE", n.origin)
    a.statement(f"COMMENT ON TABLE {a.table} IS {a.e.literal(n.comment)}")


@handles(Rebuild)
def _rebuild(n: Rebuild, a: Alter) -> None:
    a.e.diag(I_REINDEX, "ALTER INDEX ... REBUILD written as REINDEX INDEX", n.origin)
    a.statement(f"REINDEX INDEX {a.table}")


@handles(RebuildPartitionAllIndex)
def _rebuild_partition_indexes(n: RebuildPartitionAllIndex, a: Alter) -> None:
    from .alter_partitions import partition_table

    a.e.diag(I_REINDEX, f"indexes of partition {n.partition} rebuilt with REINDEX TABLE", n.origin)
    a.statement(f"REINDEX TABLE {partition_table(a, n.partition)}")


# ---- what the drop_unsupported pass removes -------------------------------------------------
def _text(n: Node) -> str | None:
    return gauss_text(n)


def _drop(node: type, code: str, message: str, applies: Callable[[Any], bool] = lambda n: True) -> Rule:
    return Rule(node=node, code=code, message=message, applies=applies, text=_text)


_RULES = (
    _drop(SetTablespace, W_TABLESPACE, "SET TABLESPACE not replayed (GaussDB tablespace)"),
    _drop(SetCompression, W_COMPRESS, "SET COMPRESS / NOCOMPRESS has no PostgreSQL form"),
    _drop(RowMovement, table.W_ROW_MOVEMENT, "DISABLE ROW MOVEMENT has no PostgreSQL form", lambda n: not n.enable),
    _drop(RowMovement, table.I_ROW_MOVEMENT, "ENABLE ROW MOVEMENT is PostgreSQL's behaviour; removed",
          lambda n: n.enable),
    _drop(DefaultCharset, W_CHARSET, "DEFAULT CHARACTER SET has no PostgreSQL form"),
    _drop(ConvertCharset, W_CHARSET, "CONVERT TO CHARACTER SET has no PostgreSQL form"),
    _drop(Collate, W_CHARSET, "table COLLATE = has no PostgreSQL form"),
    _drop(ChangeOwner, W_OWNER_UNKNOWN, 'OWNER TO "subcmd->newowner": owner unknown, not replayed',
          lambda n: n.owner is None),
    _drop(RelOption, W_RELOPTION, "storage parameter unknown to PostgreSQL; removed", lambda n: not _pg_option(n)),
    _drop(Unusable, W_INDEX_STATE, "UNUSABLE has no PostgreSQL form"),
    _drop(UnusablePartition, W_INDEX_STATE, "MODIFY PARTITION ... UNUSABLE has no PostgreSQL form"),
    _drop(IndexVisibility, W_INDEX_STATE, "index [IN]VISIBLE has no PostgreSQL form"),
    _drop(RebuildPartition, W_INDEX_STATE,
          "REBUILD PARTITION of an index: PostgreSQL names index partitions itself; not replayed"),
    _drop(SetWithoutOids, I_WITHOUT_OIDS, "SET WITHOUT OIDS has no effect; removed"),
    _drop(OpaqueSubcommand, N_OPAQUE, "subcommand kept as GaussDB text is not translated"),
)

from . import alter_columns, alter_partitions  # noqa: E402  (register their handlers)

UNSUPPORTED = _RULES + alter_columns.UNSUPPORTED + alter_partitions.UNSUPPORTED
