"""PostgreSQL emitters: CREATE INDEX, CREATE/ALTER SEQUENCE, CREATE VIEW (the objects family).

Decisions (checked on a PostgreSQL 15 server by the goldens):

* Index access methods: btree, hash, gin, gist, spgist and brin are kept; ``ubtree`` (GaussDB's
  btree for ustore tables) is written as btree (DDLC-I653); the column-store methods ``psort`` and
  ``cbtree`` become btree and ``cgin`` becomes gin (DDLC-W655: same queries served, different
  storage); any other method name (an extension's) is kept as written.
* Operator classes, collations, expressions, ordering, INCLUDE and WHERE are kept; a
  ``pg_catalog`` operator class PostgreSQL does not have for the method is removed (the type's
  default class is used, DDLC-W659), as are B-compatibility collations (DDLC-W660).
* WITH options are filtered to the method's PostgreSQL reloptions (DDLC-W658); TABLESPACE and
  INVISIBLE are removed (DDLC-W656, W657).
* A LOCAL or GLOBAL index of a partitioned table becomes one index on the parent: PostgreSQL builds
  the partitions' indexes itself, under its own names (DDLC-W661 for the LOCAL names, DDLC-I654 for
  GLOBAL). A UNIQUE index that does not cover the partition key (which PostgreSQL refuses) loses
  UNIQUE when the catalog knows the key (DDLC-W662).
* CONCURRENTLY is dropped when the table is partitioned (a LOCAL/GLOBAL definition: a rule; or the
  stream's catalog says so: here, DDLC-W663); otherwise kept, with a note that the table was not
  known to be partitioned (DDLC-I655). An index whose key list was not read is refused by a rule
  (DDLC-W664).
* Sequences: options in the order they came. LARGE sequences become bigint sequences (DDLC-W665)
  and values beyond bigint are clamped (DDLC-W666); ORDER/NOORDER is dropped (DDLC-I656: a single
  PostgreSQL server always hands out values in order). ``RESTART n`` of CREATE SEQUENCE (the
  sequence's ``last_value``) is left out when it equals START and otherwise written as
  ``ALTER SEQUENCE ... RESTART n`` after the CREATE (DDLC-I657), so CREATE carries only the
  definition. An ALTER left without options emits nothing.
* Views: the query must parse with pglast (at build time: the IR carries its tree); GaussDB-only
  functions are rewritten as in other SQL text (exprs), GaussDB type names in casts are mapped
  (DDLC-I658), and the query is printed by pglast from its tree. A query that does not parse, or uses
  ROWNUM or ``t PARTITION (p)``, is refused by rules (DDLC-W669, W670).
"""

from __future__ import annotations

import re
from typing import Any

from ...diagnostics import Severity, register
from ...ir.base import replace
from ...ir.index import CreateIndex, IndexKey, PartitionScope
from ...ir.names import TypeName
from ...ir.rules import Rule
from ...ir.sequence import AlterSequence, CreateSequence, Persistence, SeqClause, SeqOption
from ...ir.sqltree import built_trusted, copied_with, index, replaced
from ...ir.view import CreateView
from ..writer import joined, pg_deparse, pg_deparse_typed, words
from .context import Emit, emits
from .exprs import query_tree, rewrite_map, rewrite_tree
from .functions import REWRITE, UNKNOWN, calls
from .index_rules import (INDEX_RELOPTIONS, PG_OPCLASSES, _REPLACED_METHODS, _any_bad_opclass, _b_collation,
                          _column_store, _concurrently_partitioned, _drop_opclasses, _invisible, _kept_options,
                          _local_names, _options_dropped, index_options, target_method)
from .indexes import _method_name, index_statement
from .rewrites import _ast
from ..once import printed_once
from .types import TYPE_MAP, type_node

# Enum members read once: on Python 3.11 a read through an Enum class goes through the enum metaclass's
# __getattr__ hook (~800 instructions), a module name is one dict read.
_START, _RESTART, _AS, _CYCLE, _OWNED, _ORDER = (SeqClause.START, SeqClause.RESTART, SeqClause.AS, SeqClause.CYCLE,
                                                 SeqClause.OWNED, SeqClause.ORDER)
_TEMPORARY, _UNLOGGED, _GLOBAL_TEMPORARY = Persistence.TEMPORARY, Persistence.UNLOGGED, Persistence.GLOBAL_TEMPORARY
_GLOBAL = PartitionScope.GLOBAL

# ---- codes ----------------------------------------------------------------------------------
I_UBTREE = register(
    "DDLC-I653", Severity.INFO, "ubtree index written as btree",
    "ubtree is GaussDB's B-tree for ustore tables; PostgreSQL's btree is the same index for the same "
    "queries.",
    "USING ubtree -> USING btree",
)
W_METHOD = register(
    "DDLC-W655", Severity.WARNING, "Column-store index method replaced",
    "psort and cbtree (column-store B-tree indexes) become btree, cgin becomes gin. The index serves "
    "the same queries; its storage and performance are PostgreSQL's.",
    "USING psort -> USING btree",
)
W_INDEX_TABLESPACE = register(
    "DDLC-W656", Severity.WARNING, "Index TABLESPACE removed",
    "Tablespaces are not replicated; the index is created in the database's default tablespace.",
    "CREATE INDEX ... TABLESPACE ts1",
)
W_INVISIBLE = register(
    "DDLC-W657", Severity.WARNING, "INVISIBLE index created visible",
    "PostgreSQL has no invisible indexes (B-compatibility): the planner will use this index.",
    "CREATE INDEX ... INVISIBLE",
)
W_INDEX_OPTIONS = register(
    "DDLC-W658", Severity.WARNING, "Index storage parameters PostgreSQL does not have removed",
    "Only the access method's PostgreSQL reloptions are kept (btree: fillfactor, deduplicate_items; "
    "hash, spgist: fillfactor; gist: fillfactor, buffering; gin: fastupdate, gin_pending_list_limit; "
    "brin: pages_per_range, autosummarize). Others (GaussDB storage options) are removed.",
    "WITH (fillfactor=80, storage_type=ustore) -> WITH (fillfactor=80)",
)
W_OPCLASS = register(
    "DDLC-W659", Severity.WARNING, "Operator class PostgreSQL does not have removed",
    "The server writes every key's operator class. A pg_catalog class PostgreSQL does not have for the "
    "index method (a GaussDB-only type's class, or one of another method) is removed, so PostgreSQL "
    "uses the default class of the column's type.",
    "(c pg_catalog.int1_ops) -> (c)",
)
W_COLLATION = register(
    "DDLC-W660", Severity.WARNING, "B-compatibility collation removed from an index key",
    "MySQL-style collations (utf8mb4_bin, utf8mb4_general_ci, binary, gbk_*, ...) do not exist on "
    "PostgreSQL; the key uses the column's collation.",
    "(name COLLATE pg_catalog.utf8mb4_bin pg_catalog.text_ops)",
)
W_LOCAL_NAMES = register(
    "DDLC-W661", Severity.WARNING, "LOCAL index partition names lost",
    "A LOCAL index of a partitioned table becomes one index on the partitioned table; PostgreSQL creates "
    "the index of every partition itself and names it. The GaussDB names (and tablespaces) of the "
    "index partitions are not kept, so later statements naming them will not find them.",
    "LOCAL(PARTITION p1_id_idx, PARTITION p2_id_idx)",
)
I_GLOBAL = register(
    "DDLC-I654", Severity.INFO, "GLOBAL index written as an index on the partitioned table",
    "PostgreSQL has no global indexes: the index on the partitioned table is made of one index per "
    "partition, which answers the same queries.",
    "(k pg_catalog.int4_ops)GLOBAL",
)
W_UNIQUE_KEY = register(
    "DDLC-W662", Severity.WARNING, "UNIQUE removed: the index does not cover the partition key",
    "PostgreSQL enforces uniqueness on a partitioned table only through indexes that contain every "
    "partition key column, and refuses others. The index is created without UNIQUE: lookups are "
    "served, uniqueness across partitions is no longer enforced.",
    "CREATE UNIQUE INDEX ON a table partitioned by k, key (other)",
)
W_CONCURRENTLY = register(
    "DDLC-W663", Severity.WARNING, "CONCURRENTLY removed: the table is partitioned",
    "PostgreSQL refuses CREATE INDEX CONCURRENTLY on a partitioned table; the index is built with "
    "the ordinary lock.",
    "CREATE INDEX CONCURRENTLY ... LOCAL(...)",
)
I_CONCURRENTLY_KEPT = register(
    "DDLC-I655", Severity.INFO, "CONCURRENTLY kept: table not known to be partitioned",
    "Neither the index definition nor the statements seen earlier in the stream show the table as "
    "partitioned, so CONCURRENTLY is kept. If the table is partitioned on the target (created before "
    "the stream started), PostgreSQL refuses the statement; run it without CONCURRENTLY. CREATE INDEX "
    "CONCURRENTLY also cannot run inside a transaction block.",
)
W_INDEX_UNPARSED = register(
    "DDLC-W664", Severity.WARNING, "Index definition not read: CREATE INDEX not translated",
    "The key list of the index could not be parsed (DDLC-N310), so it cannot be rewritten for "
    "PostgreSQL. Nothing is emitted; with --on-unsupported comment the GaussDB text is kept.",
)
W_LARGE = register(
    "DDLC-W665", Severity.WARNING, "LARGE SEQUENCE written as a bigint sequence",
    "PostgreSQL sequences are 64-bit. The sequence is created as an ordinary (bigint) sequence; bounds "
    "beyond bigint are clamped (DDLC-W666).",
    "CREATE LARGE SEQUENCE ... MAXVALUE 170141183460469231731687303715884105727",
)
W_CLAMPED = register(
    "DDLC-W666", Severity.WARNING, "Sequence value beyond the data type clamped",
    "A value outside -9223372036854775808..9223372036854775807 (or the range of the smallint or integer "
    "type the same statement gives the sequence with AS) is replaced by the nearest bound.",
    "MAXVALUE 170141183460469231731687303715884105727 -> MAXVALUE 9223372036854775807",
)
I_ORDER = register(
    "DDLC-I656", Severity.INFO, "Sequence ORDER/NOORDER dropped",
    "ORDER/NOORDER concerns the distributed GaussDB; a PostgreSQL server always hands out sequence "
    "values in order.",
)
I_RESTART = register(
    "DDLC-I657", Severity.INFO, "RESTART of CREATE SEQUENCE written as ALTER SEQUENCE ... RESTART",
    "The server writes the new sequence's last_value as RESTART. When it differs from START WITH, ddlc "
    "emits `ALTER SEQUENCE ... RESTART n` after the CREATE (the next value handed out is n); when it "
    "equals START it carries nothing and is left out.",
)
W_SEQ_TYPE = register(
    "DDLC-W667", Severity.WARNING, "Sequence data type PostgreSQL does not have removed",
    "PostgreSQL sequences are smallint, integer or bigint; another AS type is removed (bigint).",
    "AS int16",
)
W_PERSISTENCE = register(
    "DDLC-W668", Severity.WARNING, "Persistence PostgreSQL does not have for this object",
    "GLOBAL TEMPORARY becomes TEMPORARY (PostgreSQL temporary objects are per session, definition "
    "included); an UNLOGGED view becomes an ordinary view (views have no storage).",
)
W_VIEW_UNPARSED = register(
    "DDLC-W669", Severity.WARNING, "View query not PostgreSQL SQL: CREATE VIEW not translated",
    "The view query does not parse with PostgreSQL's grammar (GaussDB-only syntax such as a "
    "PARTITION (p) table reference or (+) outer joins, see DDLC-N320). Nothing is emitted; with "
    "--on-unsupported comment the GaussDB text is kept as a comment.",
    "SELECT t.a FROM public.t PARTITION (p1)",
)
W_VIEW_GAUSS_ONLY = register(
    "DDLC-W670", Severity.WARNING, "View query uses GaussDB-only constructs: CREATE VIEW not translated",
    "The query parses as PostgreSQL SQL but means something else there: ROWNUM (a GaussDB "
    "pseudo-column, which PostgreSQL would read as a column) or a partition-extended table reference "
    "`t PARTITION (p)` (which PostgreSQL would read as the alias \"partition\"). Nothing is emitted; "
    "rewrite the query by hand (row_number() OVER () or LIMIT; the partition's own table).",
    "SELECT t.a FROM public.t WHERE ROWNUM <= 10",
)
I_VIEW_TYPES = register(
    "DDLC-I658", Severity.INFO, "GaussDB type names in a view query mapped",
    "Casts to GaussDB-only types in the view query (varchar2, nvarchar2, number, tinyint, clob...) were "
    "written with the PostgreSQL type of the type map.",
)

# ---- what PostgreSQL has ---------------------------------------------------------------------
# a sequence's value range by its data type (PostgreSQL: smallint, integer or bigint)
SEQ_RANGES = {"int2": 15, "smallint": 15, "int4": 31, "integer": 31, "int8": 63, "bigint": 63}
_SEQ_TYPES = frozenset(SEQ_RANGES)


def _bits(n: CreateSequence | AlterSequence) -> int:
    """The value range (2**bits) of the sequence's data type when the statement sets it, else bigint."""
    for o in n.options:  # (an option removed by a rule is still a marker here: not a SeqOption)
        if isinstance(o, SeqOption) and o.clause is _AS and o.type is not None:
            return SEQ_RANGES.get(o.type.name.lower(), 63)
    return 63


# each range's bounds worked out once, at import: ``2 ** 63`` is a Python long's power, ~1k instructions a time
_BOUNDS = {bits: (-(2 ** bits), 2 ** bits - 1) for bits in set(SEQ_RANGES.values()) | {63}}


def _clamped(o: SeqOption, bits: int) -> str | None:
    """The clamped value of ``o`` when it lies outside the type's range, else None."""
    if not isinstance(o, SeqOption) or o.value is None:
        return None
    v = int(o.value)
    lo, hi = _BOUNDS.get(bits) or (-(2 ** bits), 2 ** bits - 1)
    c = min(max(v, lo), hi)
    return None if c == v else str(c)


def _any_out_of_range(n: CreateSequence | AlterSequence) -> bool:  # (every value read: a bad one fails as before)
    lo, hi = _BOUNDS[_bits(n)]  # (the range worked out once, not twice per value)
    return any([not lo <= int(o.value) <= hi for o in n.options if isinstance(o, SeqOption) and o.value is not None])


_any_out_of_range.needs = ("options",)  # type: ignore[attr-defined]  # (no option, no value out of range)


def _clamp(n: Any) -> Any:
    lo, hi = _BOUNDS[_bits(n)]
    out = []
    for o in n.options:  # (_clamped's test, once per option and with the bounds read once)
        if isinstance(o, SeqOption) and o.value is not None:
            v = int(o.value)
            c = min(max(v, lo), hi)
            if c != v:
                o = replace(o, value=str(c), layout=None)
        out.append(o)
    return replace(n, options=tuple(out))


def _bad_seq_type(o: SeqOption) -> bool:
    """Whether the option is ``AS`` a type PostgreSQL's sequences do not have."""
    return o.clause is _AS and o.type is not None and (
        o.type.schema not in (None, "pg_catalog") or o.type.name.lower() not in _SEQ_TYPES)


_bad_seq_type.needs = ("type",)  # type: ignore[attr-defined]  # (only AS has a type)


def _large(n: CreateSequence | AlterSequence) -> bool:
    return n.large


_large.needs = ("large",)  # type: ignore[attr-defined]


def _global_temporary(n: CreateSequence) -> bool:
    return n.persistence is _GLOBAL_TEMPORARY


_global_temporary.needs = ("persistence",)  # type: ignore[attr-defined]  # (PERMANENT is "", the common one)


_CONCURRENTLY = "CONCURRENTLY removed: PostgreSQL refuses it on a partitioned table"


def _query_tree(n: CreateView) -> Any:
    return query_tree(n.query)


def _may_use_gauss_only(text: str) -> bool:
    """Whether a view query's text may hold what :func:`_gauss_only` looks for (a cheap test before its tree
    is walked): a column named ROWNUM or an alias PARTITION / SUBPARTITION is written in the text, in any
    case, quoted or not, or spelled in a Unicode-escaped identifier (``U&"..."``)."""
    low = text.lower()
    return "rownum" in low or "partition" in low or "u&" in low


def _gauss_only(n: CreateView) -> list[str]:
    """What the view query uses that PostgreSQL would read otherwise (ROWNUM, ``t PARTITION (p)``), sorted."""
    if n.query.parsed and not _may_use_gauss_only(n.query.text):
        return []
    tree = _query_tree(n)
    if tree is None:
        return []
    from pglast import ast

    found: set[str] = set()

    def column_ref(node: Any) -> None:
        f = node.fields or ()
        if len(f) == 1 and isinstance(f[0], ast.String) and f[0].sval.lower() == "rownum":
            found.add("ROWNUM")

    def range_var(node: Any) -> None:
        # ``t PARTITION (p)`` parses as the alias "partition" with a column list
        a = node.alias
        if a is not None and a.aliasname.lower() in ("partition", "subpartition") and a.colnames:
            found.add(a.aliasname.upper() + " (...)")

    idx = index(tree)
    for node in idx.of(ast.ColumnRef):
        column_ref(node)
    for node in idx.of(ast.RangeVar):
        range_var(node)
    return sorted(found)


UNSUPPORTED = (
    Rule(CreateIndex, W_METHOD, "column-store index method replaced (psort/cbtree -> btree, cgin -> gin)",
         applies=_column_store,
         rewrite=lambda n: replace(n, method=target_method(n.method))),
    Rule(CreateIndex, W_INDEX_TABLESPACE, "index TABLESPACE removed (tablespaces are not replicated)",
         applies=lambda n: n.tablespace is not None, field="tablespace", absent=None),
    Rule(CreateIndex, W_INVISIBLE, "INVISIBLE removed: PostgreSQL has no invisible indexes",
         applies=_invisible, field="invisible", absent=False),
    Rule(CreateIndex, W_INDEX_OPTIONS, "index storage parameters PostgreSQL does not have removed",
         applies=_options_dropped,
         rewrite=lambda n: replace(n, options=", ".join(f"{k}={v}" for k, v in _kept_options(n)) or None)),
    Rule(CreateIndex, W_OPCLASS, "operator class PostgreSQL does not have for the method removed",
         applies=_any_bad_opclass, rewrite=_drop_opclasses),
    Rule(IndexKey, W_COLLATION, "B-compatibility collation removed from an index key",
         applies=_b_collation,
         field="collation", absent=None),
    Rule(CreateIndex, W_LOCAL_NAMES, "LOCAL index partition names are not kept: PostgreSQL names the "
         "partitions' indexes itself",
         applies=_local_names, rewrite=lambda n: replace(n, partitions=(), subpartitioned=False)),
    Rule(SeqOption, W_SEQ_TYPE, "sequence data type PostgreSQL does not have removed",
         applies=_bad_seq_type),
    *(r for cls in (CreateSequence, AlterSequence) for r in (
        Rule(cls, W_LARGE, "LARGE SEQUENCE written as a bigint sequence", applies=_large,
             field="large", absent=False),
        Rule(cls, W_CLAMPED, "sequence values beyond the data type clamped",
             applies=_any_out_of_range, rewrite=_clamp))),
    Rule(CreateSequence, W_PERSISTENCE, "GLOBAL TEMPORARY sequence created TEMPORARY",
         applies=_global_temporary,
         field="persistence", absent=Persistence.TEMPORARY),
    Rule(CreateView, W_PERSISTENCE, "view persistence PostgreSQL does not have removed",
         applies=lambda n: n.persistence in (_GLOBAL_TEMPORARY, _UNLOGGED),
         rewrite=lambda n: replace(n, persistence=Persistence.TEMPORARY if n.persistence is
                                   Persistence.GLOBAL_TEMPORARY else Persistence.PERMANENT)),
    # a LOCAL / GLOBAL definition says the table is partitioned (the history may say so too: create_index)
    Rule(CreateIndex, W_CONCURRENTLY, _CONCURRENTLY,
         applies=_concurrently_partitioned,
         rewrite=lambda n: replace(n, concurrently=False), comment=False, last=True),
    # statements with no PostgreSQL form (each rule drops the statement)
    Rule(CreateIndex, W_INDEX_UNPARSED, "index definition not read; CREATE INDEX not translated",
         applies=lambda n: not n.keys, last=True),
    Rule(CreateView, W_VIEW_UNPARSED, "view query does not parse as PostgreSQL SQL; not translated",
         applies=lambda n: _query_tree(n) is None, path=lambda n: n.query.origin, last=True),
    Rule(CreateView, W_VIEW_GAUSS_ONLY, lambda n: f"view query uses {', '.join(_gauss_only(n))}; not translated",
         applies=lambda n: bool(_gauss_only(n)), path=lambda n: n.query.origin, last=True),
)


# ---- CREATE INDEX -----------------------------------------------------------------------------
@emits(CreateIndex)
def create_index(n: CreateIndex, e: Emit) -> list[str]:
    assert n.keys  # a definition not read: refused by a rule
    m = n.method.strip().strip('"').lower()
    method = "btree" if m == "ubtree" else _REPLACED_METHODS.get(m, m)  # (target_method's, its text lowered once)
    if m == "ubtree":
        e.diag(I_UBTREE, "ubtree index written as btree", n.origin)
    state = e.catalog.table(n.table) if e.catalog is not None else None
    if n.partition_scope is _GLOBAL:
        e.diag(I_GLOBAL, "GLOBAL index written as an index on the partitioned table", n.origin)
    unique = n.unique
    if unique and state is not None:
        columns = {k.column for k in n.keys if k.column is not None}
        missing = [c for c in (*state.key, *state.sub_key) if c not in columns]
        if missing:
            unique = False
            e.diag(W_UNIQUE_KEY, f"UNIQUE removed: partition key column(s) {', '.join(missing)} not in the index",
                   n.origin)
    concurrently = n.concurrently  # (removed by a rule when the definition says LOCAL or GLOBAL)
    if concurrently and state is not None:  # partitioned, as the history says
        concurrently = False
        e.diag(W_CONCURRENTLY, _CONCURRENTLY, n.origin)
    elif concurrently:
        e.diag(I_CONCURRENTLY_KEPT, f"CONCURRENTLY kept: {n.table.dotted()} not known to be partitioned", n.origin)
    using = method if method in INDEX_RELOPTIONS else _method_name(n.method)
    return [index_statement(n, e, unique, concurrently, using, index_options(n.options) if n.options else [])]


# ---- sequences --------------------------------------------------------------------------------
_WORDS = {SeqClause.CACHE: ("CACHE",), SeqClause.INCREMENT: ("INCREMENT", "BY"),
          SeqClause.MINVALUE: ("MINVALUE",), SeqClause.MAXVALUE: ("MAXVALUE",),
          SeqClause.START: ("START", "WITH"), SeqClause.RESTART: ("RESTART",)}
_WORDS_OF = {id(k): v for k, v in _WORDS.items()}


def _option(toks: list[str], o: SeqOption, e: Emit) -> None:
    """The option's tokens added to ``toks`` (a writer's token list, spaced by ``joined``: no writer's calls)."""
    c = o.clause
    words_ = _WORDS_OF.get(id(c))  # (an enum member's hash is a Python call: looked up by identity)
    if words_ is None and type(c) is not SeqClause:
        words_ = _WORDS.get(c)
    if words_ is not None:
        assert o.value is not None
        toks += words_
        toks.append(str(int(o.value)))
    elif c is _CYCLE:
        toks += ("NO", "CYCLE") if o.no else ("CYCLE",)
    elif c is _OWNED:
        toks += ("OWNED", "BY", e.qname(o.owner) if o.owner is not None else "NONE")
    elif c is _AS:
        assert o.type is not None
        toks.append("AS")
        spelling = e.type(TypeName(o.type.name, o.type.schema, origin=o.type.origin))
        if spelling:  # (as the writer's raw)
            toks.append(spelling)




def _kept(n: CreateSequence | AlterSequence, e: Emit) -> list[SeqOption]:
    out = []
    for o in n.options:
        if o.clause is _ORDER:
            e.diag(I_ORDER, ("NOORDER" if o.no else "ORDER") + " dropped", o.origin)
        else:
            out.append(o)
    return out


@emits(CreateSequence)
def create_sequence(n: CreateSequence, e: Emit) -> list[str]:
    start = restart = None  # the first START and RESTART; the options but RESTART, AS first (in order otherwise)
    first: list[SeqOption] = []
    then: list[SeqOption] = []
    for o in _kept(n, e):
        c = o.clause
        if c is _START and start is None:
            start = o
        if c is _RESTART:
            if restart is None:
                restart = o
        else:
            (first if c is _AS else then).append(o)
    opts = first + then
    toks = ["CREATE"]
    if n.persistence is _UNLOGGED:
        toks.append("UNLOGGED")
    elif n.persistence in (Persistence.TEMPORARY, Persistence.GLOBAL_TEMPORARY):
        toks.append("TEMPORARY")
    qname = e.qname(n.identity)
    toks += ("SEQUENCE", qname)
    e.own(("SEQUENCE",), qname)
    for o in opts:
        _option(toks, o, e)
    out = [joined(toks)]
    if restart is not None and (start is None or int(start.value or 0) != int(restart.value or 0)):
        e.diag(I_RESTART, f"RESTART {restart.value} written as ALTER SEQUENCE ... RESTART", restart.origin)
        alter = ["ALTER", "SEQUENCE", qname]
        _option(alter, restart, e)
        out.append(joined(alter))
    return out


@emits(AlterSequence)
def alter_sequence(n: AlterSequence, e: Emit) -> list[str]:
    opts = _kept(n, e)
    if not opts:
        return []
    toks = ["ALTER", "SEQUENCE", e.qname(n.identity)]
    for o in opts:
        _option(toks, o, e)
    return [joined(toks)]


# ---- CREATE VIEW ------------------------------------------------------------------------------
_MAPPED_WORDS: Any = None


def _may_map_types(text: str) -> bool:
    """Whether a view query's text may name a type :func:`view_query` maps (kept for the tests of that: a type's
    name is a word of the text, any case, quoted or not, or in a ``U&"..."`` identifier, never a keyword's)."""
    global _MAPPED_WORDS
    if _MAPPED_WORDS is None:
        words = sorted((k for k, v in TYPE_MAP.items() if v[2] is not None), key=len, reverse=True)
        _MAPPED_WORDS = re.compile(r"\b(?:" + "|".join(map(re.escape, words)) + r")\b|u&", re.I)
    return _MAPPED_WORDS.search(text) is not None


def _mapped_type(node: Any) -> tuple[str, bool] | None:
    """(PostgreSQL spelling, typmods kept) of a pglast ``TypeName`` whose GaussDB type a view's query maps."""
    names = node.names or ()
    if len(names) == 1 or (len(names) == 2 and names[0].sval == "pg_catalog"):
        entry = TYPE_MAP.get(names[-1].sval)
        if entry is not None and entry[2] is not None:
            return entry[0], entry[1]
    return None


def view_query(n: CreateView, e: Emit) -> str:
    """The view's query for PostgreSQL, printed by pglast from its parsed form (made at build time), once per
    parsed query (:func:`~ddlc.backends.once.printed_once`: a stream that repeats a view prints it once)."""
    tree = query_tree(n.query)
    return printed_once(tree, n.query.text, n.query.origin, e, lambda said: _view_query(n, said, tree), pg_deparse)


def _view_query(n: CreateView, e: Emit, tree: Any) -> str:
    assert tree is not None  # a query that does not parse, or uses GaussDB-only constructs: refused by rules
    ast, found, text, changed = _ast(), [], n.query.text, False  # (pglast.ast kept: no import statement per view)
    # the calls' verdicts (worked out once per tree for the rules) say whether to rewrite; a rewritten copy's
    # types are gathered by the rewrite's own walk (no second one)
    in_place = None  # id of a rewritten call -> its replacement, printed in its place (no copy of the tree)
    if any(v == REWRITE or v == UNKNOWN for _, v in calls(tree, text)):  # GaussDB-only functions
        in_place = rewrite_map(tree, e, n.query.origin, text, (ast.TypeName, found))
        if in_place is None:  # (a call inside another, or a replacement a printer may treat otherwise: a copy)
            tree, changed = rewrite_tree(tree, e, n.query.origin, text, (ast.TypeName, found))
        elif not in_place:  # (no rewrite made after all: as rewrite_tree's copy, the tree itself)
            in_place = None
            changed = True
    if not changed:  # the IR's tree: its index (shared) holds its types, no test of the text first
        found = index(tree).of(ast.TypeName)
    entries = [(node, entry) for node in found if (entry := _mapped_type(node)) is not None]  # (once per node)
    if not entries:
        if in_place is not None:
            return pg_deparse_typed(tree, in_place, lambda: _rebuilt(tree, in_place, None))
        return pg_deparse(tree)

    def copy(node: Any, entry: tuple[str, bool]) -> Any:  # a TypeName with the mapped type, in a copy (mapped:
        spelling, keep = entry
        new = built_trusted(type_node, spelling)  # (final types: pglast's check skipped)
        return copied_with(node, {slot: getattr(new, slot) for slot in type(new).__slots__
                                  if slot not in ("arrayBounds", "location") and not (slot == "typmods" and keep)})

    def mapped(original: Any, node: Any) -> Any:  # for the copy pglast's printers print)
        entry = _mapped_type(original) if type(original) is ast.TypeName else None
        return node if entry is None else copy(node, entry)

    # each mapped TypeName by its copy (holding no TypeName it replaces: the mapped type's names and typmods, or
    # its own typmods); the IR's tree is never modified, a copy with the types is made only for pglast's printers
    types = {id(node): copy(node, entry) for node, entry in entries}
    e.diag(I_VIEW_TYPES, "type(s) mapped: " + ", ".join(sorted({node.names[-1].sval for node, _ in entries})),
           n.query.origin)
    if in_place is not None:  # (the calls' replacements and the types in one map: no id is both a call and a type)
        return pg_deparse_typed(tree, {**in_place, **types}, lambda: _rebuilt(tree, in_place, mapped))
    return pg_deparse_typed(tree, types, lambda: replaced(tree, mapped, (ast.TypeName,)))


def _rebuilt(tree: Any, in_place: dict[int, Any], mapped: Any) -> Any:
    """The copy of ``tree`` pglast's printers print when the direct printer does not cover it: each rewritten call
    by its replacement (no call holds another: the call itself was rewritten, as rewrite_tree's copy does), then
    (``mapped``) each mapped type by its copy, as :func:`_view_query` makes them without ``in_place``."""
    ast = _ast()
    out = replaced(tree, lambda original, node: in_place.get(id(original), node), (ast.FuncCall, ast.ColumnRef))
    return out if mapped is None else replaced(out, mapped, (ast.TypeName,))


@emits(CreateView)
def create_view(n: CreateView, e: Emit) -> list[str]:
    query = view_query(n, e)
    qname = e.qname(n.identity)
    e.own(("VIEW",), qname)
    temporary = n.persistence is _TEMPORARY
    if query and query[0] != ")" and query != ",":  # (written at once, as the writer spaces these tokens)
        head = "CREATE OR REPLACE " if n.or_replace else "CREATE "
        return [(head + "TEMPORARY VIEW " if temporary else head + "VIEW ") + qname + " AS " + query]
    return [words("CREATE", "OR REPLACE" if n.or_replace else None, "TEMPORARY" if temporary else None, "VIEW", qname,
                  "AS", query)]


__all__ = ["UNSUPPORTED", "INDEX_RELOPTIONS", "PG_OPCLASSES", "index_options", "target_method", "view_query"]
