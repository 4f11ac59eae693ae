"""Partition subcommands of ALTER TABLE (reference §5.2, §7 "Partitioning").

Boundary values (§3.8) are kept verbatim as the server's strings (``"100"``, ``"'east'"``,
``"MAXVALUE"``, ``"DEFAULT"``, ``"(1,'a')"``). They are written without escaping, so a value with
an embedded ``'`` comes out broken (defect §10.12, DDLC-W205). A node's ``bound_values`` are those
texts parsed once, at build time, by the frontend (one per text of its ``bounds``, ``for_values`` or
``at``, which hold the same values when both are set; None where a text did not parse): targets read
them and never parse. :func:`with_parsed_bounds` gives the stream's history texts that keep them.

A partition is named either by ``name`` or by ``for_values`` (``... PARTITION FOR (v, ...)``);
exactly one of the two is set.
"""

from __future__ import annotations

import enum
from typing import Any

import msgspec.structs

from .alter import AlterSubcommand
from .base import Node, layout_field, node
from .names import QualifiedName
from .partition import BoundValue


class BoundText(str):
    """A boundary value's text carrying ``parsed``: the :class:`~ddlc.ir.partition.BoundValue` the
    frontend parsed from it at build time (None when it did not parse). For what keeps bound texts
    outside the IR (the stream's history, a target's working copy of it): being a ``str``, it goes
    wherever a text goes and compares as one. IR nodes hold plain texts and their ``bound_values``.
    """

    parsed: BoundValue | None

    def __new__(cls, text: str, parsed: BoundValue | None = None) -> BoundText:
        self = super().__new__(cls, text)
        self.parsed = parsed
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (BoundText, (str(self), self.parsed))

    def __copy__(self) -> BoundText:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> BoundText:
        return self  # immutable


def parsed_bound(text: str) -> BoundValue | None:
    """The parsed value a bound text carries (None for a plain string or a value that did not parse)."""
    return text.parsed if isinstance(text, BoundText) else None


def bound_texts(texts: tuple[str, ...], values: tuple[BoundValue | None, ...]) -> tuple[str, ...]:
    """``texts`` as :class:`BoundText` carrying ``values`` (the texts as they are when the two do not match)."""
    if len(texts) != len(values):
        return texts
    return tuple(BoundText(t, v) for t, v in zip(texts, values, strict=True))


_TEXT_FIELDS = ("bounds", "for_values", "at")


def with_parsed_bounds(sub: Any) -> Any:
    """A copy of a partition subcommand whose bound texts carry their parsed values (:class:`BoundText`),
    for the stream's history and a target's working copy of it. Never emitted (it is not the IR value)."""
    values = getattr(sub, "bound_values", ())
    changes: dict[str, Any] = {}
    for f in _TEXT_FIELDS:
        texts = getattr(sub, f, None)
        if texts:
            changes[f] = bound_texts(tuple(texts), values)
    for f in ("subpartitions", "parts"):
        children = getattr(sub, f, None)
        if children:
            changes[f] = tuple(with_parsed_bounds(c) for c in children)
    return msgspec.structs.replace(sub, **changes) if changes else sub


class BoundKind(str, enum.Enum):
    RANGE = "VALUES LESS THAN"
    LIST = "VALUES"
    HASH = ""  # no bound clause


class PartitionLevel(str, enum.Enum):
    PARTITION = "PARTITION"
    SUBPARTITION = "SUBPARTITION"


@node
class SubpartitionDef(Node):
    """A subpartition of ADD PARTITION: ``SUBPARTITION s [VALUES [LESS THAN] (...)] [TABLESPACE t]``."""

    name: str
    kind: BoundKind = BoundKind.HASH
    bounds: tuple[str, ...] = ()
    tablespace: str | None = None
    bound_values: tuple[BoundValue | None, ...] = ()
    layout: str | None = layout_field()


@node
class AddPartition(AlterSubcommand):
    """``ADD PARTITION p [VALUES [LESS THAN] (...)] [TABLESPACE t] [(subpartitions)]``; the bounds
    are read back from the catalog."""

    name: str
    kind: BoundKind
    bounds: tuple[str, ...] = ()
    tablespace: str | None = None
    subpartitions: tuple[SubpartitionDef, ...] = ()
    bound_values: tuple[BoundValue | None, ...] = ()


@node
class ModifyPartitionAddSubpartition(AlterSubcommand):
    """``MODIFY PARTITION p ADD SUBPARTITION s VALUES [LESS THAN] (...) [TABLESPACE t]``. With
    several subpartitions the server repeats fragments inside one element (defect §10.9,
    DDLC-W206); the layout keeps that verbatim."""

    partition: str
    subpartition: str
    kind: BoundKind
    bounds: tuple[str, ...] = ()
    tablespace: str | None = None
    bound_values: tuple[BoundValue | None, ...] = ()


@node
class DropPartition(AlterSubcommand):
    level: PartitionLevel = PartitionLevel.PARTITION
    name: str | None = None
    for_values: tuple[str, ...] = ()
    update_global_index: bool = False
    bound_values: tuple[BoundValue | None, ...] = ()


@node
class MovePartition(AlterSubcommand):
    tablespace: str
    name: str | None = None
    for_values: tuple[str, ...] = ()
    bound_values: tuple[BoundValue | None, ...] = ()


@node
class TruncatePartition(AlterSubcommand):
    """``TRUNCATE PARTITION p`` (the name is written unquoted, ``%s``, defect §10.11)."""

    name: str | None = None
    for_values: tuple[str, ...] = ()
    update_global_index: bool = False
    bound_values: tuple[BoundValue | None, ...] = ()


@node
class TruncateSubpartition(AlterSubcommand):
    name: str | None = None
    for_values: tuple[str, ...] = ()
    update_global_index: bool = False
    bound_values: tuple[BoundValue | None, ...] = ()


@node
class ExchangePartition(AlterSubcommand):
    table: QualifiedName
    name: str | None = None
    for_values: tuple[str, ...] = ()
    level: PartitionLevel = PartitionLevel.PARTITION  # ``issub``
    without_validation: bool = False
    verbose: bool = False
    update_global_index: bool = False
    bound_values: tuple[BoundValue | None, ...] = ()


@node
class MergePartitions(AlterSubcommand):
    """``MERGE PARTITIONS a, b INTO PARTITION c [TABLESPACE t]`` (names unquoted, ``%s``)."""

    partitions: tuple[str, ...]
    into: str
    tablespace: str | None = None
    update_global_index: bool = False


@node
class SplitPart(Node):
    """A target of SPLIT [SUB]PARTITION: ``PARTITION a [VALUES LESS THAN (...)] [TABLESPACE t]``.

    In the two-partition forms (``split_list``/``define_list``) the layout is on the enclosing
    subcommand (``list_layout``) and ``tablespace`` None means the server wrote ``""``.
    """

    name: str
    bounds: tuple[str, ...] = ()
    tablespace: str | None = None
    bound_values: tuple[BoundValue | None, ...] = ()
    layout: str | None = layout_field()


@node
class SplitPartition(AlterSubcommand):
    """``SPLIT PARTITION {p|FOR (...)} [AT (...)] INTO (...)``.

    ``at`` is set for the AT form (two target partitions); otherwise ``parts`` carry their bounds.
    With ``FOR (...) AT (...)`` both clauses read the same key, so AT repeats the FOR values
    (defect §10.8, DDLC-W208). The AT form prints target tablespaces without the TABLESPACE
    keyword (defect §10.7, DDLC-W203).
    """

    parts: tuple[SplitPart, ...]
    name: str | None = None
    for_values: tuple[str, ...] = ()
    at: tuple[str, ...] | None = None
    update_global_index: bool = False
    bound_values: tuple[BoundValue | None, ...] = ()
    list_layout: str | None = layout_field()  # fmt of ``split_list`` (AT form)


class SplitMode(str, enum.Enum):
    AT = "AT"  # range subpartition
    VALUES = "VALUES"  # list subpartition


@node
class SplitSubpartition(AlterSubcommand):
    """``SPLIT SUBPARTITION s {VALUES|AT} (...) INTO (SUBPARTITION a [TABLESPACE t], SUBPARTITION
    b ...)``. An empty tablespace yields ``TABLESPACE ,`` (defect §10.7, DDLC-W204)."""

    name: str
    mode: SplitMode
    bounds: tuple[str, ...]
    parts: tuple[SplitPart, ...]
    update_global_index: bool = False
    bound_values: tuple[BoundValue | None, ...] = ()
    list_layout: str | None = layout_field()  # fmt of ``define_list``


@node
class ResetPartition(AlterSubcommand):
    pass


# ---- dolphin -------------------------------------------------------------------------------------
@node
class RemovePartitioning(AlterSubcommand):
    """Dolphin ``REMOVE PARTITIONING``."""


@node
class RebuildPartitions(AlterSubcommand):
    """Dolphin ``REBUILD PARTITION p1, p2`` / ``REBUILD PARTITION ALL`` (type metadata ``remove
    partitioning``, sic; names unquoted)."""

    partitions: tuple[str, ...] = ()
    all: bool = False


@node
class AnalyzePartitions(AlterSubcommand):
    """Dolphin ``ANALYZE PARTITION p1, p2`` (``ANALYZE PARTITION ALL`` is dropped by the server)."""

    partitions: tuple[str, ...]
