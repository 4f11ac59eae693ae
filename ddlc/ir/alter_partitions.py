"""Partition subcommands of ALTER TABLE (reference §5.2, §7 "Partitioning").

Boundary values (§3.8) are kept verbatim as the server's strings (``"100"``, ``"'east'"``,
``"MAXVALUE"``, ``"DEFAULT"``, ``"(1,'a')"``). They are written without escaping, so a value with
an embedded ``'`` comes out broken (defect §10.12, DDLC-W205).

A partition is named either by ``name`` or by ``for_values`` (``... PARTITION FOR (v, ...)``);
exactly one of the two is set.
"""

from __future__ import annotations

import enum

from .alter import AlterSubcommand
from .base import Node, layout_field, node
from .names import QualifiedName


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


@node
class DropPartition(AlterSubcommand):
    level: PartitionLevel = PartitionLevel.PARTITION
    name: str | None = None
    for_values: tuple[str, ...] = ()
    update_global_index: bool = False


@node
class MovePartition(AlterSubcommand):
    tablespace: str
    name: str | None = None
    for_values: tuple[str, ...] = ()


@node
class TruncatePartition(AlterSubcommand):
    """``TRUNCATE PARTITION p`` (the name is written unquoted, ``%s``, defect §10.11)."""

    name: str | None = None
    for_values: tuple[str, ...] = ()
    update_global_index: bool = False


@node
class TruncateSubpartition(AlterSubcommand):
    name: str | None = None
    for_values: tuple[str, ...] = ()
    update_global_index: bool = False


@node
class ExchangePartition(AlterSubcommand):
    table: QualifiedName
    name: str | None = None
    for_values: tuple[str, ...] = ()
    level: PartitionLevel = PartitionLevel.PARTITION  # ``issub``
    without_validation: bool = False
    verbose: bool = False
    update_global_index: bool = False


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
