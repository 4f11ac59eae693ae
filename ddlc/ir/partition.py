"""Partitioning clauses of CREATE TABLE: the typed form of openGauss's ``partition_by`` text.

The clause arrives as one pre-rendered string (``pg_get_partkeydef`` layout, jddl-shapes.md §5.1)
or as hand-written DDL. :mod:`ddlc.frontend.sql.partition` reads it into a
:class:`PartitionSpec`; :mod:`ddlc.backends.partition_text` writes it back; the pass
:mod:`ddlc.passes.expand_partitions` rewrites ``START/END/EVERY`` items into plain
``VALUES LESS THAN`` partitions.

Spelling is kept next to meaning: every name has its semantic value (case-folded, unquoted,
cut to 63 bytes as the server's lexer does) *and* the text it was written with, and every bound
keeps its source text, so re-rendering an unmodified clause reproduces it.
"""

from __future__ import annotations

import enum

from .base import Node, node, source_text
from .names import Expr

NAMEDATALEN = 64  # identifiers are cut to NAMEDATALEN - 1 bytes


class PartitionStrategy(str, enum.Enum):
    RANGE = "RANGE"
    LIST = "LIST"
    HASH = "HASH"


class BoundKind(str, enum.Enum):
    NUMBER = "number"  # 100, -1.5, 1e10 (sign included)
    STRING = "string"  # '2024-01-01' ('' doubled quotes undone in ``value``)
    MAXVALUE = "maxvalue"
    DEFAULT = "default"  # only as the whole list of a LIST partition: VALUES (DEFAULT)
    NULL = "null"
    TYPED = "typed"  # DATE '2024-01-01', INTERVAL '1' DAY, TIMESTAMP(3) WITH TIME ZONE '...'
    EXPR = "expr"  # anything else, kept as raw text: TO_DATE('..','..'), '1'::int, a bare name
    TUPLE = "tuple"  # (1,'a') of a multi-column LIST partition


@node
class BoundValue(Node):
    """One value of a bound list.

    ``text`` is the exact source spelling (what the renderer writes); ``value`` the meaning:
    the number text, the unescaped string, the string of a typed literal; None for MAXVALUE,
    DEFAULT, NULL, EXPR and TUPLE. A TYPED literal has ``type_name`` (lower case, blanks
    collapsed: ``date``, ``timestamp(3) with time zone``, ``interval``) and, for intervals,
    ``qualifier`` (``day to hour``, ``second(3)``).
    """

    text: str
    kind: BoundKind
    value: str | None = None
    type_name: str = ""
    qualifier: str = ""
    # EXPR: the expression as the frontend's SQL layer parsed it at build time (what other targets write)
    expr: Expr | None = None
    items: tuple[BoundValue, ...] = ()  # TUPLE members

    _not_compared = ("expr",)

    @property
    def is_maxvalue(self) -> bool:
        return self.kind is BoundKind.MAXVALUE

    @staticmethod
    def maxvalue(*, origin: tuple = ()) -> BoundValue:
        return BoundValue(text="MAXVALUE", kind=BoundKind.MAXVALUE, origin=origin)

    @staticmethod
    def quoted(value: str, *, origin: tuple = ()) -> BoundValue:
        """A bound written GaussDB style: the value's text in single quotes (quotes doubled)."""
        return BoundValue(
            text="'" + value.replace("'", "''") + "'", kind=BoundKind.STRING, value=value, origin=origin
        )


@node
class LessThan(Node):
    """``VALUES LESS THAN (v[, v...])``: one value per partition key column."""

    values: tuple[BoundValue, ...]


@node
class ListValues(Node):
    """``VALUES (v[,v...])``; ``VALUES (DEFAULT)`` is one DEFAULT value."""

    values: tuple[BoundValue, ...]

    @property
    def is_default(self) -> bool:
        return len(self.values) == 1 and self.values[0].kind is BoundKind.DEFAULT


class RangeForm(str, enum.Enum):
    START_END_EVERY = "S/E/E"
    START_END = "S/E"
    START = "S"
    END = "E"


@node
class RangeItem(Node):
    """``START (s) [END (e) [EVERY (d)]]`` or ``END (e)``: a range item not yet expanded.

    Each clause holds the value list as written; the expander rejects lists longer than one.
    """

    start: tuple[BoundValue, ...] | None = None
    end: tuple[BoundValue, ...] | None = None
    every: tuple[BoundValue, ...] | None = None

    @property
    def form(self) -> RangeForm:
        if self.start is not None and self.end is not None:
            return RangeForm.START_END_EVERY if self.every is not None else RangeForm.START_END
        return RangeForm.START if self.start is not None else RangeForm.END


PartitionBound = LessThan | ListValues | RangeItem


@node
class Partition(Node):
    """``PARTITION name <bound> [TABLESPACE ts] [( SUBPARTITION ... )]``.

    ``bound`` is None for HASH partitions (and hash subpartitions). ``name``/``tablespace`` are
    the semantic names; ``name_text``/``tablespace_text`` the spelling as written ("" when the
    node was made by a pass: the renderer then quotes the name like openGauss does).
    """

    name: str
    bound: PartitionBound | None = None
    tablespace: str | None = None
    subpartitions: tuple[Partition, ...] = ()
    name_text: str = ""
    tablespace_text: str = ""


@node
class PartitionSpec(Node):
    """The whole clause: ``PARTITION BY ... [INTERVAL (...)] [SUBPARTITION BY ...] (...)``."""

    strategy: PartitionStrategy
    key: tuple[str, ...]
    partitions: tuple[Partition, ...] = ()
    key_text: tuple[str, ...] = ()  # spelling of each key column (or expression) as written
    sub_strategy: PartitionStrategy | None = None
    sub_key: tuple[str, ...] = ()
    sub_key_text: tuple[str, ...] = ()
    # each key (and subpartition key) as the frontend's SQL layer parsed it at build time
    key_exprs: tuple[Expr, ...] = ()
    sub_key_exprs: tuple[Expr, ...] = ()
    interval: BoundValue | None = None  # INTERVAL ('1 month'): the value inside the parentheses
    store_in: tuple[str, ...] = ()  # INTERVAL (...) STORE IN (ts, ...), spelled as written
    partitions_num: int | None = None  # PARTITIONS n (hash, B compatibility)
    subpartitions_num: int | None = None  # SUBPARTITIONS n
    row_movement: bool | None = None  # ENABLE / DISABLE ROW MOVEMENT / not written
    has_list: bool = True  # False: no parenthesised partition list (HASH ... PARTITIONS n)

    _not_compared = ("key_exprs", "sub_key_exprs")

    @property
    def has_range_items(self) -> bool:
        return any(isinstance(p.bound, RangeItem) for p in self.partitions)


# ``PartitionClause`` (ir/table.py): ``text`` is the server's clause, ``spec`` its parse. A pass that
# changes the spec clears the text (None); the GaussDB target renders the spec then.
source_text("PartitionClause", text=("spec",))


def clip_bytes(name: str, limit: int) -> str:
    """``name`` cut to at most ``limit`` UTF-8 bytes without splitting a character
    (``pg_mbcliplen``)."""
    raw = name.encode("utf-8")
    if len(raw) <= limit:
        return name
    return raw[:limit].decode("utf-8", errors="ignore")


def truncate_identifier(name: str) -> str:
    """The server lexer's cut of an identifier to ``NAMEDATALEN - 1`` (63) bytes."""
    if len(name) < 16:  # (at most 4 bytes a character: never cut)
        return name
    return clip_bytes(name, NAMEDATALEN - 1)
