"""PostgreSQL ALTER: the pieces every ALTER family module shares (codes, the statement builder).

:class:`Alter` gathers the clauses of one GaussDB ALTER into PostgreSQL statements; the handlers
of the subcommands live in :mod:`.alter` (relation level), :mod:`.alter_columns` and
:mod:`.alter_partitions`, tagged with :func:`handles`; :data:`.alter.SUB` collects them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ...diagnostics import Severity, register
from ...history import working_copy
from ...ir.alter import AlterObjType, AlterRelation, RelOption
from ...ir.alter_columns import ResetColumnOptions, SetColumnOptions
from ...ir.base import Node, replace
from ..writer import SqlWriter, joined, pg_ident, pg_literal, pg_option_value
from .context import Emit
from .table import HEAP_OPTIONS as TABLE_OPTIONS, TOAST_OPTIONS

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
W_IF_EXISTS = register(
    "DDLC-W708", Severity.WARNING, "IF EXISTS of ALTER not carried everywhere",
    "GaussDB's ALTER TABLE IF EXISTS does nothing when the table does not exist. PostgreSQL's ALTER TABLE, "
    "INDEX, VIEW and SEQUENCE take IF EXISTS too and keep it; its ALTER TYPE has none, so there it is "
    "removed; and a subcommand PostgreSQL writes as a statement of its own (COMMENT ON TABLE, REINDEX, a "
    "partition's statements) has no IF EXISTS: that statement fails when the table is missing.",
    "ALTER TABLE IF EXISTS db1.t COMMENT = 'x'",
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


Handler = Callable[[Any, "Alter"], None]


def handles(*classes: type) -> Callable[[Handler], Handler]:
    """Mark a function as the ALTER handler of ``classes`` (a tag: :data:`alter.SUB` collects them)."""
    def deco(fn: Handler) -> Handler:
        fn.__handles__ = getattr(fn, "__handles__", ()) + classes  # type: ignore[attr-defined]
        return fn
    return deco


_UNREAD: Any = object()  # a lazy slot not yet read from the history


class Alter:
    """The statements of one ALTER: clauses are grouped into ``ALTER <kind> [ONLY] name ...`` until a
    subcommand needs a statement of its own.

    A clause or statement is handed in as its text (written by the handler from its tokens, spaced as
    :func:`~ddlc.backends.writer.joined` spaces them) or as a writer. The history's table state (a working
    copy) and identity column are read when a handler first asks: most ALTERs need neither, and the history
    does not change while a statement is written."""

    __slots__ = ("n", "e", "out", "clauses", "_state", "_identity", "_table", "objword", "handlers")

    def __init__(self, n: AlterRelation, e: Emit, handlers: Mapping[type, Handler]) -> None:
        self.n, self.e, self.handlers = n, e, handlers
        self.out: list[str] = []
        self.clauses: list[str] = []
        self._state = self._identity = _UNREAD
        self._table: str | None = None
        self.objword = _OBJWORD[n.objtype]

    @property
    def state(self) -> Any:
        """The history's state of the table (a working copy the partition handlers change), or None."""
        st = self._state
        if st is _UNREAD:
            cat = self.e.catalog
            st = self._state = working_copy(cat.table(self.n.identity)) if cat is not None else None
        return st

    @property
    def identity_column(self) -> str | None:
        """The table's identity (AUTO_INCREMENT) column as the history and this statement's earlier
        subcommands leave it."""
        c = self._identity
        if c is _UNREAD:
            cat = self.e.catalog
            c = self._identity = cat.identity_column(self.n.identity) if cat is not None else None
        return c

    @identity_column.setter
    def identity_column(self, column: str | None) -> None:
        self._identity = column

    @property
    def table(self) -> str:
        """The relation's quoted name (worked out once: every statement of the ALTER names it)."""
        t = self._table
        if t is None:
            t = self._table = self.e.qname(self.n.identity)
        return t

    def w(self) -> SqlWriter:
        """A writer for a clause or statement of this ALTER (PostgreSQL's quoting)."""
        return self.e.w()

    def _head(self) -> list[str]:
        """The tokens of ``ALTER <kind> [IF EXISTS] [ONLY] name`` (the name left out when it is empty, as the
        writer's ``raw`` leaves it)."""
        toks = ["ALTER", self.objword]
        if self.n.if_exists:  # (a rule removed it where PostgreSQL has none: ALTER TYPE)
            toks += ("IF", "EXISTS")
        if self.n.only:
            toks.append("ONLY")
        table = self.table
        if table:
            toks.append(table)
        return toks

    def clause(self, w: SqlWriter | str) -> None:
        """A subcommand of the grouped ``ALTER <kind> name ...`` statement (its text, or a writer rendered now)."""
        self.clauses.append(w if type(w) is str else w.text())

    def statement(self, w: SqlWriter | str) -> None:
        """A statement of its own (its text, or a writer), after the clauses gathered so far."""
        self.flush()
        text = w if type(w) is str else w.text()
        if self.n.if_exists:
            self.e.diag(W_IF_EXISTS, f"IF EXISTS: {' '.join(text.split()[:2])} ... is a statement of its own and "
                        "runs even when the relation does not exist", self.n.origin)
        self.out.append(text)

    def flush(self) -> None:
        clauses = self.clauses
        if clauses:
            self.out.append(grouped(self._head(), clauses))
            self.clauses = []

    def dropped(self, sub: Node) -> dict[str, Any]:
        """What a comment shows for a subcommand not translated: the statement with that subcommand alone, as
        GaussDB writes it (``ALTER <kind> name <subcommand>``)."""
        return {"dropped_node": replace(self.n, subcommands=(sub,))}

    def run(self) -> list[str]:
        handlers = self.handlers
        for sub in self.n.subcommands:
            fn = handlers.get(type(sub))
            if fn is None:
                from ...errors import InternalError

                raise InternalError(f"postgres: no ALTER handler for {type(sub).__name__}", path=sub.origin)
            fn(sub, self)
        if self.clauses:
            self.flush()
        return self.out


def grouped(head: list[str], clauses: list[str]) -> str:
    """``head`` (tokens that cannot meet the spacing rule: words and a quoted name) followed by the clauses
    separated by commas, spaced as the writer spaces the tokens ``*head, c1, ",", c2, ...`` (an empty clause
    left out). A clause that is empty, is a comma or starts with ``)`` is spaced by :func:`joined` itself;
    any other gets one space before it and none before its comma."""
    for c in clauses:
        if not c or c[0] == ")" or c == ",":
            toks = list(head)
            for i, c in enumerate(clauses):
                if i:
                    toks.append(",")
                if c:
                    toks.append(c)
            return joined(toks)
    return " ".join(head) + " " + ", ".join(clauses)


def col(column: str, words: str) -> str:
    """``ALTER COLUMN c <words>`` (``words`` one text of keywords, spaced)."""
    return "ALTER COLUMN " + pg_ident(column) + " " + words


# ---- storage parameters -------------------------------------------------------------------

INDEX_OPTIONS = frozenset({"fillfactor", "deduplicate_items", "fastupdate", "gin_pending_list_limit", "buffering",
                           "pages_per_range", "autosummarize"})
VIEW_OPTIONS = frozenset({"check_option", "security_barrier", "security_invoker"})
COLUMN_OPTIONS = frozenset({"n_distinct", "n_distinct_inherited"})
_ANY_OPTION = TABLE_OPTIONS | INDEX_OPTIONS | VIEW_OPTIONS | COLUMN_OPTIONS
_ALLOWED = {AlterObjType.TABLE: TABLE_OPTIONS, AlterObjType.MATERIALIZED_VIEW: TABLE_OPTIONS,
            AlterObjType.INDEX: INDEX_OPTIONS, AlterObjType.VIEW: VIEW_OPTIONS}  # storage parameters by relation kind


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
    return name in _ALLOWED.get(kind, ())


def option_sql(o: RelOption, e: Emit, with_value: bool) -> str:
    """``[namespace.]name [= value]`` (the name's parts quoted in that order, then the value)."""
    ns = o.namespace or None
    name = (pg_ident(ns) + "." if ns is not None else "") + pg_ident(o.name.lower())
    if not with_value or o.value is None:
        return name
    # (a quoted name or literal starts with a quote, a bare one with a letter: no token here meets the
    # writer's spacing rule)
    return name + " = " + (pg_literal(o.value) if o.quoted else pg_option_value(o.value))


def valid_here(o: RelOption, enclosing: tuple[Node, ...]) -> bool:
    """``o`` is a storage parameter PostgreSQL takes where it stands: on this kind of relation (the
    enclosing ALTER's), or on a column (``ALTER COLUMN ... SET (...)``)."""
    if enclosing and isinstance(enclosing[-1], SetColumnOptions | ResetColumnOptions):
        return _valid_for(None, o)
    stmt = enclosing[0] if enclosing else None
    return _valid_for(stmt.objtype if isinstance(stmt, AlterRelation) else None, o)


def options_list(opts: tuple[RelOption, ...], e: Emit, with_value: bool) -> str | None:
    """``(a = 1, b)``; None when no option is left (those PostgreSQL does not take here were removed by
    rules: W_RELOPTION)."""
    kept = [option_sql(o, e, with_value) for o in opts]
    # (each option starts with a name, never empty: inside the parentheses the writer's rule gives ", ")
    return "(" + ", ".join(kept) + ")" if kept else None


