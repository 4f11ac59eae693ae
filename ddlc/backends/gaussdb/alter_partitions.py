"""GaussDB emitters: partition subcommands of ALTER TABLE (reference §5.2)."""

from __future__ import annotations

from typing import Any

from ...ir.alter_partitions import (
    AddPartition, AnalyzePartitions, BoundKind, DropPartition, ExchangePartition, MergePartitions,
    ModifyPartitionAddSubpartition, MovePartition, RebuildPartitions, RemovePartitioning, ResetPartition, SplitMode,
    SplitPart, SplitPartition, SplitSubpartition, SubpartitionDef, TruncatePartition, TruncateSubpartition,
)
from .writer import Writer, emits
from ._common import obj, word

_UGI = " UPDATE GLOBAL INDEX"
_SPLIT_LIST = "PARTITION %{name1}s %{tblspc1}s, PARTITION %{name2}s %{tblspc2}s"
_DEFINE_LIST = "SUBPARTITION %{name1}s TABLESPACE %{tblspc1}s, SUBPARTITION %{name2}s TABLESPACE %{tblspc2}s"


def _values(kind: BoundKind, key: str) -> str:
    return "" if kind is BoundKind.HASH else f" {kind.value} (%{{{key}:, }}s)"


def _tablespace(d: dict[str, Any], tablespace: str | None) -> str:
    if tablespace is None:
        return ""
    d["tblspc"] = tablespace
    return " TABLESPACE %{tblspc}s"


def _target(d: dict[str, Any], name: str | None, values: tuple[str, ...], key: str, conv: str) -> str:
    """`` %{partition}I`` (by name) or `` FOR (...)`` (by bound values)."""
    if name is not None:
        d[key] = name
        return f" %{{{key}}}{conv}"
    d["maxvalues"] = list(values)
    return " FOR (%{maxvalues:, }s)"


@emits(SubpartitionDef)
def subpartition(n: SubpartitionDef, w: Writer) -> dict[str, Any]:
    d: dict[str, Any] = {"name": n.name}
    if n.kind is not BoundKind.HASH:
        d["maxvalue"] = list(n.bounds)
    fmt = "SUBPARTITION %{name}I" + _values(n.kind, "maxvalue") + _tablespace(d, n.tablespace)
    return {"fmt": n.layout or fmt, **d}


@emits(AddPartition)
def add_partition(n: AddPartition, w: Writer) -> dict[str, Any]:
    d: dict[str, Any] = {"type": "add partition", "name": n.name}
    if n.kind is not BoundKind.HASH:
        d["maxvalues"] = list(n.bounds)
    fmt = "ADD PARTITION %{name}I" + _values(n.kind, "maxvalues") + _tablespace(d, n.tablespace)
    if n.subpartitions:
        d["subpartitions"] = [w.tree(s) for s in n.subpartitions]
        fmt += " (%{subpartitions:, }s)"
    return {"fmt": n.layout or fmt, **d}


@emits(ModifyPartitionAddSubpartition)
def modify_partition_add_subpartition(n: ModifyPartitionAddSubpartition, w: Writer) -> dict[str, Any]:
    d: dict[str, Any] = {"type": "modify partition add subpartition", "name": n.partition,
                         "subpart": n.subpartition, "maxvalues": list(n.bounds)}
    fmt = ("MODIFY PARTITION %{name}I ADD SUBPARTITION %{subpart}I" + _values(n.kind, "maxvalues")
           + _tablespace(d, n.tablespace))
    return {"fmt": n.layout or fmt, **d}


@emits(DropPartition)
def drop_partition(n: DropPartition, w: Writer) -> dict[str, Any]:
    d: dict[str, Any] = {"type": "drop partition"}
    fmt = f"DROP {n.level.value}" + _target(d, n.name, n.for_values, "name", "I")
    return {"fmt": n.layout or fmt + word(n.update_global_index, _UGI), **d}


@emits(MovePartition)
def move_partition(n: MovePartition, w: Writer) -> dict[str, Any]:
    d: dict[str, Any] = {"type": "move partition", "tblspc": n.tablespace}
    fmt = "MOVE PARTITION" + _target(d, n.name, n.for_values, "partition", "I") + " TABLESPACE %{tblspc}s"
    return {"fmt": n.layout or fmt, **d}


@emits(TruncatePartition)
def truncate_partition(n: TruncatePartition, w: Writer) -> dict[str, Any]:
    d: dict[str, Any] = {"type": "truncate partition"}
    fmt = "TRUNCATE PARTITION" + _target(d, n.name, n.for_values, "partition", "s")
    return {"fmt": n.layout or fmt + word(n.update_global_index, _UGI), **d}


@emits(TruncateSubpartition)
def truncate_subpartition(n: TruncateSubpartition, w: Writer) -> dict[str, Any]:
    d: dict[str, Any] = {"type": "truncate subpartition", "gpi": word(n.update_global_index, _UGI[1:])}
    fmt = "TRUNCATE SUBPARTITION" + _target(d, n.name, n.for_values, "partition", "s") + " %{gpi}s"
    return {"fmt": n.layout or fmt, **d}


@emits(ExchangePartition)
def exchange_partition(n: ExchangePartition, w: Writer) -> dict[str, Any]:
    d: dict[str, Any] = {"type": "exchange partition", "issub": n.level.value, "exchange_tbl": w.qname(n.table)}
    if n.name is not None:
        d["partition"] = n.name
        fmt = "EXCHANGE %{issub}s (%{partition}I) WITH TABLE %{exchange_tbl}D"
    else:
        d["maxvalues"] = list(n.for_values)
        fmt = "EXCHANGE %{issub}s FOR (%{maxvalues:, }s) WITH TABLE %{exchange_tbl}D"
    fmt += word(n.without_validation, " WITHOUT VALIDATION") + word(n.verbose, " VERBOSE")
    return {"fmt": n.layout or fmt + word(n.update_global_index, _UGI), **d}


@emits(MergePartitions)
def merge_partitions(n: MergePartitions, w: Writer) -> dict[str, Any]:
    d: dict[str, Any] = {"type": "merge partition", "name_list": list(n.partitions), "partition": n.into}
    fmt = "MERGE PARTITIONS %{name_list:, }s INTO PARTITION %{partition}s" + _tablespace(d, n.tablespace)
    return {"fmt": n.layout or fmt + word(n.update_global_index, _UGI), **d}


@emits(SplitPart)
def split_part(n: SplitPart, w: Writer) -> dict[str, Any]:
    d: dict[str, Any] = {"partname": n.name, "maxvalues": list(n.bounds)}
    fmt = "PARTITION %{partname}s" + (" VALUES LESS THAN (%{maxvalues:, }s)" if n.bounds else "")
    fmt += _tablespace(d, n.tablespace)
    return {"fmt": n.layout or fmt, **d}


def _pair(parts: tuple[SplitPart, ...], layout: str | None, default: str, w: Writer) -> dict[str, Any]:
    """``split_list`` / ``define_list``: exactly two targets, tablespaces as ``""`` when none."""
    if len(parts) != 2:
        return w.absent(layout or default)
    d: dict[str, Any] = {"fmt": layout or default}
    for i, p in enumerate(parts, 1):
        d[f"name{i}"] = p.name
        d[f"tblspc{i}"] = p.tablespace or ""
    return d


@emits(SplitPartition)
def split_partition(n: SplitPartition, w: Writer) -> dict[str, Any]:
    d: dict[str, Any] = {"type": "split partition"}
    fmt = "SPLIT PARTITION"
    if n.name is not None:
        d["partition"] = n.name
        fmt += " %{partition}s"
    elif n.for_values:
        fmt += " FOR (%{maxvalues:, }s)"
    if n.at is not None:
        fmt += " AT (%{maxvalues:, }s)"
    d["maxvalues"] = list(n.for_values or n.at or ())
    two = n.at is not None and len(n.parts) == 2 and not any(p.bounds or p.layout for p in n.parts)
    if n.list_layout is not None or two:
        d["split_list"] = _pair(n.parts, n.list_layout, _SPLIT_LIST, w)
        fmt += " INTO (%{split_list}s)"
    elif n.parts:
        d["partlist"] = [w.tree(p) for p in n.parts]
        fmt += " INTO (%{partlist:, }s)"
    return {"fmt": n.layout or fmt + word(n.update_global_index, _UGI), **d}


@emits(SplitSubpartition)
def split_subpartition(n: SplitSubpartition, w: Writer) -> dict[str, Any]:
    d: dict[str, Any] = {"type": "split subpartition", "name": n.name, "maxvalues": list(n.bounds)}
    fmt = "SPLIT SUBPARTITION %{name}s" + (" AT" if n.mode is SplitMode.AT else " VALUES") + " (%{maxvalues:, }s)"
    if n.parts or n.list_layout is not None:
        d["define_list"] = _pair(n.parts, n.list_layout, _DEFINE_LIST, w)
        fmt += " INTO (%{define_list}s)"
    return {"fmt": n.layout or fmt + word(n.update_global_index, _UGI), **d}


@emits(ResetPartition)
def reset_partition(n: ResetPartition, w: Writer) -> dict[str, Any]:
    return obj(n, "RESET PARTITION", "reset partition")


@emits(RemovePartitioning)
def remove_partitioning(n: RemovePartitioning, w: Writer) -> dict[str, Any]:
    return obj(n, "REMOVE PARTITIONING", "remove partitioning")


@emits(RebuildPartitions)
def rebuild_partitions(n: RebuildPartitions, w: Writer) -> dict[str, Any]:
    if n.all:
        return obj(n, "REBUILD PARTITION ALL", "remove partitioning")
    return obj(n, "REBUILD PARTITION %{partition_list:, }s", "remove partitioning",
               partition_list=list(n.partitions))


@emits(AnalyzePartitions)
def analyze_partitions(n: AnalyzePartitions, w: Writer) -> dict[str, Any]:
    return obj(n, "ANALYZE PARTITION %{partition_list:, }s", "analyze partitioning",
               partition_list=list(n.partitions))
