"""GaussDB partition clauses -> PostgreSQL declarative partitioning (used by ``table.py``).

The parent gets ``PARTITION BY <strategy> (<key>)``; every partition becomes its own
``CREATE TABLE <schema>.<name> PARTITION OF <parent> FOR VALUES ...`` statement, and a partition
with subpartitions is itself ``PARTITION BY <sub strategy> (<sub key>)`` with nested
``PARTITION OF`` statements (reference: partition-start-end-every.md §3).

Decisions (documented in the diagnostics' explanations):

* **Names.** A partition (or subpartition) of table ``t`` is the table ``t_<partition>`` in the
  parent's schema (:func:`partition_table_name`): GaussDB partition and subpartition names are
  unique per table, PostgreSQL partitions are tables that share the schema's namespace. A name
  longer than 63 bytes is cut to 54 bytes (never inside a character) plus ``_`` and the first 8
  hex digits of the MD5 of the full name, so long names with a common prefix stay distinct.
* **Range bounds.** Each partition goes ``FROM`` the previous upper bound (``MINVALUE`` for every
  key column of the first) ``TO`` its own. Values after a ``MAXVALUE`` in a multi-column bound
  are ``MAXVALUE`` too (the same set of rows; PostgreSQL requires it).
* **NULL keys.** GaussDB sends rows with a NULL range key to the ``MAXVALUE`` partition (NULL
  sorts above every value, below MAXVALUE); PostgreSQL range partitions never take NULL, only a
  DEFAULT partition does. A last partition ``VALUES LESS THAN (MAXVALUE[, ...])`` is therefore
  written as the ``DEFAULT`` partition: it holds exactly the rows above the previous bound plus
  the NULL keys (``DDLC-I616``). With several key columns GaussDB places a NULL in a later column
  by comparing the earlier ones, PostgreSQL sends every such row to the DEFAULT partition or
  rejects it (``DDLC-W632``).
* **Hash** partitions are ``MODULUS n, REMAINDER i`` in listed order; PostgreSQL's hash function
  places rows differently (``DDLC-W631``).
* **Interval** tables keep the partitions that exist; PostgreSQL creates none on demand
  (``DDLC-W630``).
* What PostgreSQL cannot partition (several LIST key columns: a rule of :data:`RULES`, which removes
  the clause) and what ddlc does not (START/END items the expansion pass did not expand, a clause
  that did not parse: :func:`plan`) gives an unpartitioned table with a diagnostic. So do, by rules,
  the keys (PRIMARY KEY / UNIQUE) of a table partitioned on an expression and its exclusion
  constraints (PostgreSQL refuses both); :data:`RULES` joins the table family's ``UNSUPPORTED``.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from ...records import record
from ...errors import InternalError
from ...diagnostics import Severity, register
from ...ir.names import Expr
from ...ir.partition import (
    BoundKind, BoundValue, LessThan, ListValues, Partition, PartitionSpec, PartitionStrategy, clip_bytes,
)
from ...ir.base import replace
from ...ir.rules import Rule
from ...ir.table import ConstraintKind, CreateTable, TableConstraint
from ..pg_keywords import FORCED
from ..writer import joined, paren_items, pg_ident, pg_literal
from ... import lazyre

W_INTERVAL = register(
    "DDLC-W630", Severity.WARNING, "Interval partitions are not created on demand",
    "GaussDB creates a new partition of an INTERVAL-partitioned table whenever a row falls beyond the "
    "last one, without any DDL. PostgreSQL has no automatic partition creation: the partitions that "
    "exist when the table is created are written (each from the previous bound to its own), and a row "
    "beyond the last partition is rejected until a partition is added by hand.",
    "PARTITION BY RANGE (d) INTERVAL ('1 month') (...)",
)
W_HASH = register(
    "DDLC-W631", Severity.WARNING, "Hash partitions place rows differently",
    "Hash partitions are written as FOR VALUES WITH (MODULUS n, REMAINDER i) in the order GaussDB lists "
    "them. PostgreSQL's partition hash function differs from GaussDB's, so a row may live in another "
    "partition than on the source: queries see the same rows, but partition-level operations "
    "(TRUNCATE/EXCHANGE PARTITION replayed later) touch different rows.",
    "PARTITION BY HASH (id) (PARTITION p0, PARTITION p1)",
)
W_NULL_KEYS = register(
    "DDLC-W632", Severity.WARNING, "NULL in a multi-column range key is routed differently",
    "GaussDB orders NULL above every value (and below MAXVALUE) in each column of a range key, so a row "
    "such as (5, NULL) goes to the partition whose bound is above (5, ...). PostgreSQL range partitions "
    "reject NULL in any key column: such rows go to the DEFAULT partition (written for a last "
    "all-MAXVALUE partition) or fail when there is none.",
    "PARTITION BY RANGE (a, b) (PARTITION p1 VALUES LESS THAN (10, 100), ...)",
)
W_NOT_PARTITIONED = register(
    "DDLC-W633", Severity.WARNING, "Table created without partitioning",
    "PostgreSQL cannot express this partitioning (LIST partitioning takes a single key column in "
    "PostgreSQL). The table is created unpartitioned: it accepts the same rows, but partition-level DDL "
    "replayed later will not apply.",
    "PARTITION BY LIST (a, b) (PARTITION p1 VALUES ((1,'x')))",
)
W_KEY_WIDENED = register(
    "DDLC-W625", Severity.WARNING, "Unique constraint of a partitioned table widened",
    "PostgreSQL requires a PRIMARY KEY or UNIQUE constraint of a partitioned table to include every "
    "partition (and subpartition) key column; GaussDB enforces it with a global index. The missing key "
    "columns are appended, which enforces a weaker uniqueness (and, for a PRIMARY KEY, NOT NULL on them). "
    "When a key is an expression the constraint cannot be written and is dropped.",
    "PRIMARY KEY (id) on a table PARTITION BY RANGE (created) -> PRIMARY KEY (id, created)",
)
W_EXCLUDE_PARTITIONED = register(
    "DDLC-W626", Severity.WARNING, "Exclusion constraint of a partitioned table dropped",
    "PostgreSQL 15 and 16 do not support exclusion constraints on partitioned tables; the constraint is "
    "dropped.",
)
N_NOT_EXPANDED = register(
    "DDLC-N610", Severity.NOTE, "Partitions not translated",
    "The partition clause still holds START/END/EVERY items (the expansion pass did not expand them) or "
    "did not parse, so ddlc does not know the partition bounds. The table is created unpartitioned "
    "rather than with guessed bounds.",
    "PARTITION BY RANGE (a) (PARTITION p START (1) END (10) EVERY (2))",
)
N_GENERATED_PARTITIONS = register(
    "DDLC-N611", Severity.NOTE, "Partitions generated for an unlisted clause",
    "The clause gives a partition count (HASH ... PARTITIONS n) or a SUBPARTITION BY without listing "
    "the (sub)partitions. ddlc writes p0..p(n-1) for a count, and one default subpartition "
    "(<partition>_subpartdefault1) for a partition without a list; GaussDB's own generated names may "
    "differ.",
    "PARTITION BY HASH (id) PARTITIONS 4",
)
I_MAXVALUE_DEFAULT = register(
    "DDLC-I616", Severity.INFO, "MAXVALUE partition written as the DEFAULT partition",
    "A last range partition VALUES LESS THAN (MAXVALUE) is written as PostgreSQL's DEFAULT partition: it "
    "holds the rows above the previous bound and, as in GaussDB, the rows whose key is NULL (a "
    "FROM (...) TO (MAXVALUE) partition would reject NULL keys). Later partition DDL on this partition "
    "applies to the DEFAULT partition.",
    "PARTITION p_max VALUES LESS THAN (MAXVALUE) -> CREATE TABLE s.t_p_max PARTITION OF s.t DEFAULT",
)
I_LONG_NAME = register(
    "DDLC-I617", Severity.INFO, "Partition table name shortened",
    "A partition is the table <parent>_<partition>; when that name is longer than PostgreSQL's 63 bytes "
    "it is cut to 54 bytes plus '_' and 8 hex digits of the MD5 of the full name, so that partitions "
    "with a long common prefix keep distinct names.",
)

NAMEDATALEN_1 = 63
# a key column, bare (letters, digits, "_", "$", BMP non-ASCII) or quoted; negated ASCII classes
# compile ~10x faster than the equivalent \x80-\uffff ranges
_PLAIN_KEY = lazyre.compile(r'[^\x00-\x40\x5b-\x5e\x60\x7b-\x7f\U00010000-\U0010ffff]'
                        r'[^\x00-\x23\x25-\x2f\x3a-\x40\x5b-\x5e\x60\x7b-\x7f\U00010000-\U0010ffff]*\Z|"(?:[^"]|"")+"\Z')


def partition_table_name(parent: str, partition: str) -> str:
    """The PostgreSQL table of partition ``partition`` of table ``parent`` (same schema)."""
    full = f"{parent}_{partition}"
    if len(full.encode("utf-8")) <= NAMEDATALEN_1:
        return full
    import hashlib  # here: its import is a cost every short run would pay

    digest = hashlib.md5(full.encode("utf-8")).hexdigest()[:8]
    return clip_bytes(full, NAMEDATALEN_1 - 9) + "_" + digest


@record(slots=True)
class Layout:
    """How a partitioned CREATE TABLE is written: the spec and its key columns (every level)."""

    spec: PartitionSpec
    key_columns: tuple[str, ...] = ()
    expression_keys: bool = False


def is_expression_key(name: str, text: str) -> bool:
    return not _PLAIN_KEY.match(text or name)


def plan(n: CreateTable, e: Any) -> Layout | None:
    """The layout to write, or None: not partitioned, or not translated yet (diagnostic given; a comment
    shows the partition clause as GaussDB writes it)."""
    clause = n.partition
    if clause is None:
        return None
    path = clause.origin
    spec = clause.spec
    if spec is None or spec.has_range_items:
        why = "partition clause not parsed" if spec is None else "START/END/EVERY partitions not expanded"
        e.diag(N_NOT_EXPANDED, f"{why}; table created unpartitioned", path,
               dropped_node=n, dropped_after=replace(n, partition=None))
        return None
    assert not multi_column_list(spec)  # removed by a rule (W_NOT_PARTITIONED)
    return layout_of(spec)


def multi_column_list(spec: PartitionSpec) -> bool:
    """LIST partitioning on several columns (or a bound that is a tuple): PostgreSQL has no such form."""
    if spec.strategy is _LIST and len(spec.key) > 1:
        return True
    for p in spec.partitions:  # (plain loops: no tuple of every partition made, no generator per table)
        if _tuple_bound(p.bound):
            return True
        for s in p.subpartitions:
            if _tuple_bound(s.bound):
                return True
    return False


def _tuple_bound(bound: Any) -> bool:
    """A LIST bound holding a tuple value."""
    if type(bound) is not ListValues and not isinstance(bound, ListValues):
        return False
    for v in bound.values:
        if isinstance(v, BoundValue) and v.kind is _TUPLE:
            return True
    return False


def partitioned_layout(n: CreateTable) -> Layout | None:
    """The layout a CREATE TABLE will be written with, or None when it is written unpartitioned (for the
    decisions of rules: no diagnostic)."""
    clause = n.partition
    spec = clause.spec if clause is not None else None
    if spec is None or spec.has_range_items or multi_column_list(spec):
        return None
    return layout_of(spec)


def layout_of(spec: PartitionSpec) -> Layout:
    # each key judged once (the key columns in order, a repeated one once: dict.fromkeys's order)
    cols: dict[str, None] = {}
    exprs = False
    match = _PLAIN_KEY.match
    for k, t in (*zip(spec.key, spec.key_text or spec.key, strict=False),
                 *zip(spec.sub_key, spec.sub_key_text or spec.sub_key, strict=False)):
        if match(t or k):
            cols[k] = None
        else:
            exprs = True
    return Layout(spec, tuple(cols), exprs)


def partition_by(strategy: PartitionStrategy, key: tuple[str, ...], key_text: tuple[str, ...],
                 key_exprs: tuple[Expr, ...], e: Any, origin: Any) -> str:
    """``PARTITION BY RANGE (a, (expr))``; expression keys written from their parsed form."""
    # written at once, as the writer spaces these tokens: an item is a quoted name or "(expr)"
    items = []
    match = _PLAIN_KEY.match
    for i, k in enumerate(key):
        text = key_text[i] if i < len(key_text) else k
        if not match(text or k):  # (is_expression_key)
            if i >= len(key_exprs):
                raise InternalError(f"partition key {text!r} reached the emitter unparsed", path=origin)
            items.append("(" + e.expr(key_exprs[i]) + ")")
        elif k.isascii() and k.islower() and k.isidentifier() and k not in FORCED:
            items.append(k)  # (pg_ident's first test inline)
        else:
            items.append(pg_ident(k))
    return "PARTITION BY " + strategy.value + " (" + ", ".join(items) + ")"


# -- bounds ---------------------------------------------------------------------------------

def bound_value(v: BoundValue, e: Any) -> str:
    """One bound value as PostgreSQL text (literals re-quoted for standard_conforming_strings)."""
    k = v.kind  # (the members read from module names: an enum class's attribute is a Python call in 3.11)
    if k is _STRING:
        return e.literal(v.value if v.value is not None else "")
    if k is _NUMBER:
        return v.text
    if k is _MAXVALUE:
        return "MAXVALUE"
    if k is _NULL:
        return "NULL"
    if k is _TYPED and v.value is not None:
        if v.type_name == "date":  # A-mode DATE is timestamp(0): let the key type read the text
            return pg_literal(v.value)
        # type 'text' [qualifier]: the writer's tokens (raw leaves "" out), spaced by its rule
        literal = pg_literal(v.value)
        return joined([t for t in (v.type_name, literal, v.qualifier) if t])
    if v.expr is None:  # every expression bound is parsed by the frontend's SQL layer
        raise InternalError(f"partition bound {v.text!r} reached the emitter unparsed", path=v.origin)
    return e.expr(v.expr)


_listed = paren_items  # (``(v, ...)`` of rendered bound values, as the writer's paren_list of raw tokens)


def range_bound(e: Any, lower: Any, upper: Any) -> str:
    """``FOR VALUES FROM (lower, ...) TO (upper, ...)`` of rendered bound values."""
    return "FOR VALUES FROM " + _listed(lower) + " TO " + _listed(upper)


def list_bound(e: Any, values: Any) -> str:
    """``FOR VALUES IN (v, ...)`` of rendered bound values."""
    return "FOR VALUES IN " + _listed(values)


def hash_bound(e: Any, modulus: int, remainder: int) -> str:
    # the writer's tokens FOR VALUES WITH ( MODULUS n , REMAINDER i ), as its rule spaces them (a number's text is
    # not empty, not "," and starts with no ")")
    return "FOR VALUES WITH (MODULUS " + str(modulus) + ", REMAINDER " + str(remainder) + ")"


def _tuple(values: tuple[BoundValue, ...], ncols: int, e: Any) -> list[str]:
    out = []
    for v in values:  # (a loop, not a comprehension: no frame of its own)
        out.append(bound_value(v, e))
    if "MAXVALUE" in out:  # (MAXVALUE, 5) bounds the same rows as (MAXVALUE, MAXVALUE)
        first = out.index("MAXVALUE")
        out = out[:first] + ["MAXVALUE"] * (len(out) - first)
    return out + ["MAXVALUE"] * (ncols - len(out)) if len(out) < ncols else out


@record(slots=True)
class _Level:
    strategy: PartitionStrategy
    ncols: int
    interval: bool = False
    reported: set[str] = field(default_factory=set)


def _bounds(parts: tuple[Partition, ...], level: _Level, e: Any, path: Any) -> list[str]:
    """``FOR VALUES ...`` / ``DEFAULT`` for each partition of one level."""
    out: list[str] = []
    strategy = level.strategy
    if strategy is _HASH:
        n = len(parts)
        if "hash" not in level.reported:
            e.diag(W_HASH, f"hash partitions written as MODULUS {n}; row placement differs from GaussDB", path)
            level.reported.add("hash")
        return [hash_bound(e, n, i) for i in range(n)]
    if strategy is _LIST:
        for p in parts:
            b = p.bound
            if isinstance(b, ListValues) and len(b.values) == 1 and b.values[0].kind is _DEFAULT:  # (is_default)
                out.append("DEFAULT")
            else:
                vals = []
                if isinstance(b, ListValues):
                    for v in b.values:
                        vals.append(bound_value(v, e))
                out.append("FOR VALUES IN " + _listed(vals))  # (list_bound)
        return out
    lower = "(" + ", ".join(["MINVALUE"] * level.ncols) + ")"  # (_listed of the MINVALUEs)
    if level.ncols > 1 and "nulls" not in level.reported:
        e.diag(W_NULL_KEYS, "range key on several columns: NULL keys are routed differently", path)
        level.reported.add("nulls")
    last = len(parts) - 1
    for i, p in enumerate(parts):
        upper = _tuple(p.bound.values if isinstance(p.bound, LessThan) else (), level.ncols, e)
        if i == last and upper and upper[0] == "MAXVALUE" and not level.interval:
            e.diag(I_MAXVALUE_DEFAULT, f"partition {p.name} (LESS THAN MAXVALUE) written as the DEFAULT partition",
                   path)
            out.append("DEFAULT")
            break  # (the last)
        text = _listed(upper)  # (range_bound, the previous upper bound's text the lower one)
        out.append("FOR VALUES FROM " + lower + " TO " + text)
        lower = text
    return out


_HASH, _LIST = PartitionStrategy.HASH, PartitionStrategy.LIST
_STRING, _NUMBER, _MAXVALUE, _NULL, _TYPED, _TUPLE, _DEFAULT = (
    BoundKind.STRING, BoundKind.NUMBER, BoundKind.MAXVALUE, BoundKind.NULL, BoundKind.TYPED, BoundKind.TUPLE,
    BoundKind.DEFAULT)


# -- statements -----------------------------------------------------------------------------

@record(slots=True)
class Target:
    """What every partition statement of one table shares."""

    schema: str | None
    root: str
    temporary: bool
    unlogged_leaves: bool
    if_not_exists: bool
    leaf_with: str  # "WITH (...)" or ""


def _generated(spec: PartitionSpec, e: Any, path: Any) -> tuple[Partition, ...]:
    n = spec.partitions_num or 0
    e.diag(N_GENERATED_PARTITIONS, f"{n} hash partitions generated as p0..p{n - 1}", path)
    return tuple(Partition(name=f"p{i}", origin=spec.origin) for i in range(n))


def partition_statements(layout: Layout, t: Target, e: Any, n: CreateTable) -> list[str]:
    spec = layout.spec
    path = spec.origin
    if spec.interval is not None:  # (a comment shows the INTERVAL clause: both texts rendered from the spec)
        clause = replace(n.partition, text=None)
        e.diag(W_INTERVAL, "INTERVAL partitioning: only the existing partitions are created", path,
               dropped_node=replace(n, partition=clause),
               dropped_after=replace(n, partition=replace(clause, spec=replace(spec, interval=None))))
    parts = spec.partitions if spec.has_list else _generated(spec, e, path)
    top = _Level(spec.strategy, len(spec.key), interval=spec.interval is not None)
    sub = _Level(spec.sub_strategy, len(spec.sub_key)) if spec.sub_strategy is not None else None
    out: list[str] = []

    root_ = t.root

    def name_of(p: Partition) -> str:
        full = root_ + "_" + p.name
        if len(full) <= NAMEDATALEN_1 and full.isascii():  # (partition_table_name's answer: the name as it is)
            return full
        name = partition_table_name(root_, p.name)
        if name != full:
            e.diag(I_LONG_NAME, f"partition {p.name} is table {name}", path)
        return name

    # each statement written straight from its words, joined by spaces: the writer's spacing, since no word is
    # empty, is ",", starts with ")" or ends with "(" (a bound is DEFAULT or FOR VALUES ... (...), a name quoted
    # by the dialect's function; the table's schema and name were written, so quoted, before these)
    ident = e.ident
    schema = "" if t.schema is None else ident(t.schema) + "."
    if_not_exists = "IF NOT EXISTS " if t.if_not_exists else ""
    head_branch = ("CREATE TEMPORARY TABLE " if t.temporary else "CREATE TABLE ") + if_not_exists
    head_leaf = ("CREATE TEMPORARY TABLE " if t.temporary else "CREATE UNLOGGED TABLE " if t.unlogged_leaves
                 else "CREATE TABLE ") + if_not_exists
    tail_leaf = " " + t.leaf_with if t.leaf_with else ""
    own = e.own

    def emit(parent: str, p: Partition, bound: str, sub_by: str | None) -> str:
        """The statement of partition ``p`` of the table ``parent`` (quoted, with its schema); its name so."""
        name = schema + ident(name_of(p))
        if sub_by is None:
            out.append(head_leaf + name + " PARTITION OF " + parent + " " + bound + tail_leaf)
        else:
            out.append(head_branch + name + " PARTITION OF " + parent + " " + bound + " " + sub_by)
        own(("TABLE",), name)
        return name

    root = schema + ident(t.root)

    sub_by = (partition_by(spec.sub_strategy, spec.sub_key, spec.sub_key_text, spec.sub_key_exprs, e, path)
              if spec.sub_strategy is not None else None)
    for p, bound in zip(parts, _bounds(parts, top, e, path), strict=True):
        if sub is None:
            emit(root, p, bound, None)
            continue
        subs = p.subpartitions or _default_sub(p, sub.strategy, e, path)
        me = emit(root, p, bound, sub_by)
        for s, sb in zip(subs, _bounds(subs, sub, e, path), strict=True):
            emit(me, s, sb, None)
    return out


def _default_sub(p: Partition, strategy: PartitionStrategy, e: Any, path: Any) -> tuple[Partition, ...]:
    e.diag(N_GENERATED_PARTITIONS, f"partition {p.name} lists no subpartitions; one default subpartition written",
           path)
    bound = None if strategy is PartitionStrategy.HASH else (
        ListValues(values=(BoundValue(text="DEFAULT", kind=BoundKind.DEFAULT),))
        if strategy is PartitionStrategy.LIST else LessThan(values=(BoundValue.maxvalue(),)))
    return (Partition(name=f"{p.name}_subpartdefault1", bound=bound, origin=p.origin),)


def _in_layout(c: TableConstraint, enclosing: tuple[Any, ...], what: str) -> bool:
    """``c`` is a constraint of a CREATE TABLE written partitioned that PostgreSQL refuses there: a key
    (``what="key"``) when a partition key is an expression, an exclusion constraint (``"exclusion"``)."""
    table = enclosing[-1] if enclosing else None
    if c.parsed is None or not isinstance(table, CreateTable) or table.partition is None:
        return False
    if what == "key":  # (the constraint's kind first: the layout is worked out only for a key)
        if c.parsed.kind not in _KEYS:
            return False
        layout = partitioned_layout(table)
        return layout is not None and layout.expression_keys
    return c.parsed.kind is _EXCLUSION and partitioned_layout(table) is not None


_KEYS, _EXCLUSION = (ConstraintKind.PRIMARY_KEY, ConstraintKind.UNIQUE), ConstraintKind.EXCLUSION


def _unpartitioned(n: CreateTable) -> bool:
    spec = n.partition.spec if n.partition is not None else None
    return spec is not None and not spec.has_range_items and multi_column_list(spec)


# what PostgreSQL cannot take (part of the table family's UNSUPPORTED)
RULES = (
    Rule(CreateTable, W_NOT_PARTITIONED, "LIST partitioning on several columns; table created unpartitioned",
         applies=_unpartitioned, rewrite=lambda n: replace(n, partition=None), path=lambda n: n.partition.origin,
         last=True),
    # constraints of a table written partitioned (ALTER TABLE ... ADD CONSTRAINT: the history says, and
    # table.constraint_sql decides)
    Rule(TableConstraint, W_KEY_WIDENED, lambda c: f"constraint {c.name}: a partition key is an expression; dropped",
         within=lambda c, enclosing: _in_layout(c, enclosing, "key"), last=True),
    Rule(TableConstraint, W_EXCLUDE_PARTITIONED, lambda c: f"exclusion constraint {c.name} of a partitioned table "
         "dropped", within=lambda c, enclosing: _in_layout(c, enclosing, "exclusion"), last=True),
)

__all__ = ["partition_table_name", "plan", "partition_by", "partition_statements", "partitioned_layout", "Layout",
           "Target", "RULES"]
