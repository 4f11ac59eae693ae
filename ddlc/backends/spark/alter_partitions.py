"""Spark: partition maintenance of ALTER TABLE on a Delta table.

Delta has no partition definitions (it partitions by value, or clusters), so most of GaussDB's
partition maintenance has nothing to do on the Delta side: ADD, SPLIT and MERGE PARTITION and ADD
SUBPARTITION only change the layout, never the rows (DDLC-I850). The statements that remove rows
become the nearest Delta statement, ``DELETE FROM t WHERE <the partition's rows>``, where that is
exact: DROP and TRUNCATE of a range partition of a one-column key whose bounds the stream's history
knows, or of a list partition (its values; the DEFAULT partition is every value no other partition
lists). Anything else (a hash partition, a subpartition, a multi-column range key, an unknown bound,
EXCHANGE PARTITION) is DDLC-W850: no statement is guessed.
"""

from __future__ import annotations

from typing import Any

from ...diagnostics import Severity, register
from ...history import PartitionState, apply_partition_change
from ...ir.alter_partitions import (
    AddPartition, AnalyzePartitions, DropPartition, ExchangePartition, MergePartitions, ModifyPartitionAddSubpartition,
    MovePartition, PartitionLevel, RebuildPartitions, RemovePartitioning, ResetPartition, SplitPartition,
    SplitSubpartition, TruncatePartition, TruncateSubpartition, parsed_bound, with_parsed_bounds,
)
from ...ir.partition import BoundKind
from ...ir.rules import Refusal, Rule
from .alter_base import Alter, handles
from .table import W_TABLE_OPTION

W_PARTITION = register(
    "DDLC-W850", Severity.WARNING, "Partition maintenance with no exact Delta statement",
    "The partition subcommand removes or moves rows, and ddlc cannot say exactly which rows in Delta terms: "
    "a hash partition, a subpartition, a range partition of a multi-column key, a bound the stream's history "
    "does not know or that is not a plain value, or EXCHANGE PARTITION (rows swapped with another table). "
    "Nothing is emitted.",
    "ALTER TABLE t TRUNCATE PARTITION p_hash_1",
)
I_LAYOUT_ONLY = register(
    "DDLC-I850", Severity.INFO, "Partition maintenance with nothing to do on Delta",
    "Delta partitions by value (or clusters files), so adding, splitting or merging partitions, adding "
    "subpartitions, and analyzing, rebuilding or removing partitioning change no rows and have no Delta "
    "statement.",
)
I_DELETE = register(
    "DDLC-I851", Severity.INFO, "Partition rows deleted with DELETE FROM ... WHERE",
    "DROP PARTITION and TRUNCATE PARTITION remove the partition's rows; on Delta they are DELETE FROM t "
    "WHERE <key within the partition's bounds> (range: key >= lower AND key < upper; list: key IN (values)), "
    "with the bounds from the stream's history.",
    "ALTER TABLE t DROP PARTITION p1 -> DELETE FROM t WHERE k >= 100 AND k < 200",
)


def _advance(a: Alter, sub: Any) -> None:
    """Replay ``sub`` on the working copy of the table's partitions (later subcommands see it)."""
    if a.state is not None:
        apply_partition_change(a.state, with_parsed_bounds(sub), (a.n.identity.schema, a.n.identity.name))


@handles(AddPartition, SplitPartition, MergePartitions, ModifyPartitionAddSubpartition, SplitSubpartition,
         AnalyzePartitions, RebuildPartitions, RemovePartitioning, ResetPartition)
def _layout_only(n: Any, a: Alter) -> None:
    a.e.diag(I_LAYOUT_ONLY, f"{type(n).__name__}: no rows change; nothing to do on Delta", n.origin)
    _advance(a, n)


def _literal(text: str, a: Alter) -> str | None:
    """A bound value as a Spark literal, from its parsed form (None when it is not a plain value)."""
    v = parsed_bound(text)
    if v is None:
        return None
    if v.kind is BoundKind.NUMBER and v.value is not None:
        return v.value
    if v.kind is BoundKind.STRING and v.value is not None:
        return a.e.literal(v.value)
    if v.kind is BoundKind.TYPED and v.value is not None:
        t = " ".join(v.type_name.split())
        if t == "date":
            return "DATE " + a.e.literal(v.value)
        if t.startswith("timestamp"):
            word = "TIMESTAMP" if t.endswith("with time zone") or t == "timestamptz" else "TIMESTAMP_NTZ"
            return word + " " + a.e.literal(v.value)
    return None


def _where(a: Alter, p: PartitionState) -> str | None:
    """The rows of partition ``p`` as a Spark predicate, or None when it cannot be said exactly."""
    st = a.state
    if st is None or len(st.key) != 1:
        return None
    key = a.e.ident(st.key[0])
    if st.strategy == "RANGE" and p.upper is not None:
        lower = st.lower_of(p.name)
        if lower is None or len(lower) != 1 or len(p.upper) != 1:
            return None
        parts = []
        if lower[0].upper() != "MINVALUE":
            lo = _literal(lower[0], a)
            if lo is None:
                return None
            parts.append(a.e.w().raw(key).kw(">=").raw(lo).text())
        if p.upper[0].upper() != "MAXVALUE":
            hi = _literal(p.upper[0], a)
            if hi is None:
                return None
            parts.append(a.e.w().raw(key).kw("<").raw(hi).text())
        return " AND ".join(parts) if parts else "true"
    if st.strategy == "LIST" and p.values is not None:
        if p.is_default:
            others = [v for q in st.partitions if q is not p and q.values is not None for v in q.values]
            return _not_in(a, key, others)
        return _in(a, key, list(p.values))
    return None


def _values(a: Alter, texts: list[str]) -> tuple[list[str], bool] | None:
    lits, null = [], False
    for t in texts:
        v = parsed_bound(t)
        if v is not None and v.kind is BoundKind.NULL:
            null = True
            continue
        lit = _literal(t, a)
        if lit is None:
            return None
        lits.append(lit)
    return lits, null


def _in(a: Alter, key: str, texts: list[str]) -> str | None:
    got = _values(a, texts)
    if got is None:
        return None
    lits, null = got
    parts = [a.e.w().raw(key).kw("IN").paren_list(lits, lambda w_, x: w_.raw(x)).text()] if lits else []
    if null:
        parts.append(a.e.w().raw(key).kw("IS", "NULL").text())
    return " OR ".join(parts) if parts else None


def _not_in(a: Alter, key: str, texts: list[str]) -> str | None:
    got = _values(a, texts)
    if got is None:
        return None
    lits, null = got
    if not lits:
        return None if null else "true"
    cond = a.e.w().raw(key).kw("NOT", "IN").paren_list(lits, lambda w_, x: w_.raw(x)).text()
    return cond if null else a.e.w().raw(key).kw("IS", "NULL", "OR").raw(cond).text()


def _delete(n: Any, a: Alter, what: str) -> None:
    st = a.state
    p = None
    if st is not None:
        p = st.find(n.name) if n.name is not None else st.locate(tuple(n.for_values))
    where = _where(a, p) if p is not None and getattr(n, "level", PartitionLevel.PARTITION) is PartitionLevel.PARTITION \
        else None
    if where is None:
        why = "the table's partitions are not in the stream's history" if st is None else \
            "the partition's rows cannot be described exactly (hash, subpartition, multi-column or unknown bound)"
        a.e.diag(W_PARTITION, f"{what}: {why}; not translated", n.origin, dropped_node=n)
    else:
        a.e.diag(I_DELETE, f"{what} {p.name}: rows deleted with DELETE FROM ... WHERE {where}", n.origin)
        a.add(a.e.w().kw("DELETE", "FROM").raw(a.table).kw("WHERE").raw(where))
    _advance(a, n)


@handles(TruncatePartition)
def _truncate_partition(n: TruncatePartition, a: Alter) -> None:
    _delete(n, a, "TRUNCATE PARTITION")


@handles(DropPartition)
def _drop_partition(n: DropPartition, a: Alter) -> None:
    _delete(n, a, "DROP " + n.level.value)


UNSUPPORTED = (
    Rule(MovePartition, W_TABLE_OPTION, "MOVE PARTITION ... TABLESPACE dropped"),
)

# Rows swapped with another table, or removed from a subpartition: never an exact Delta statement. Refused in
# the subcommand table (alter.SUB), so the warning comes in the order of the subcommands, among those that
# the history decides (DROP / TRUNCATE PARTITION above), as the comments of --on-unsupported comment do.
REFUSED = {
    ExchangePartition: Refusal(W_PARTITION, "EXCHANGE PARTITION has no exact Delta statement; not translated"),
    TruncateSubpartition: Refusal(W_PARTITION, "TRUNCATE SUBPARTITION has no exact Delta statement; not translated"),
}
