"""Write a :class:`~ddlc.ir.partition.PartitionSpec` back as text, in openGauss's layout.

:func:`render_partition_clause` produces exactly what ``pg_get_partkeydef_string`` prints
(``ruleutils.cpp``): a leading ``\\n``, ``\\n( `` before the list, ``\\n    PARTITION`` per
partition joined by ``,``, subpartitions as ``\\n    (\\n        SUBPARTITION ...\\n    )`` and
``\\n)`` at the end, then ``\\nENABLE ROW MOVEMENT``. Names and values are written with the
spelling they were parsed with; names made by a pass are quoted like ``quote_identifier``.
So ``render_partition_clause(parse_partition_clause(t)) == t`` for every clause openGauss prints.

``START/END/EVERY`` items (which openGauss never prints: it stores them expanded) are written
as ``PARTITION p1 START(1) END(1000) EVERY(200)``.

:func:`render_partition` writes one partition on one line (``PARTITION p1_1 VALUES LESS THAN
('201')``), the form GaussDB's TDDL lists use.
"""

from __future__ import annotations

from collections.abc import Callable

from ..ir.partition import (
    BoundValue,
    LessThan,
    ListValues,
    Partition,
    PartitionSpec,
    RangeItem,
)
from ..quoting import quote_ident

__all__ = ["render_partition_clause", "render_partition", "render_bound"]

_INDENT = "    "


def _name(value: str, text: str) -> str:
    return text or quote_ident(value)


def _values(values: tuple[BoundValue, ...], sep: str) -> str:
    return sep.join(v.text for v in values)


def render_bound(bound) -> str:
    """The bound part of a partition, with its leading blank (``""`` for a hash partition)."""
    if bound is None:
        return ""
    if isinstance(bound, LessThan):
        return " VALUES LESS THAN (" + _values(bound.values, ", ") + ")"
    if isinstance(bound, ListValues):
        return " VALUES (" + _values(bound.values, ",") + ")"
    if isinstance(bound, RangeItem):
        out = ""
        for word, vals in (("START", bound.start), ("END", bound.end), ("EVERY", bound.every)):
            if vals is not None:
                out += f" {word}(" + _values(vals, ", ") + ")"
        return out
    raise TypeError(f"not a partition bound: {bound!r}")


def _partition(p: Partition, nl: Callable[[int], str], keyword: str = "PARTITION") -> str:
    out = f"{keyword} {_name(p.name, p.name_text)}" + render_bound(p.bound)
    if p.tablespace is not None:
        out += " TABLESPACE " + _name(p.tablespace, p.tablespace_text)
    if p.subpartitions:
        subs = ",".join(nl(2) + _partition(s, nl, "SUBPARTITION") for s in p.subpartitions)
        out += nl(1) + "(" + subs + nl(1) + ")"
    return out


def _pretty(level: int) -> str:
    return "\n" + _INDENT * level


def _flat(level: int) -> str:
    return " "


def render_partition(p: Partition, *, subpartition: bool = False) -> str:
    """One partition (or subpartition) on a single line, blanks as in canonical GaussDB text."""
    return _partition(p, _flat, "SUBPARTITION" if subpartition else "PARTITION")


def _keys(values: tuple[str, ...], texts: tuple[str, ...]) -> str:
    return ", ".join(_name(v, texts[i] if i < len(texts) else "") for i, v in enumerate(values))


def render_partition_clause(spec: PartitionSpec) -> str:
    """The clause in ``pg_get_partkeydef`` layout (starts with ``\\n``)."""
    out = f"\nPARTITION BY {spec.strategy.value} ({_keys(spec.key, spec.key_text)})"
    if spec.partitions_num is not None:
        out += f" PARTITIONS {spec.partitions_num}"
    if spec.interval is not None:
        out += f"\nINTERVAL ({spec.interval.text})"
        if spec.store_in:
            out += " STORE IN (" + ", ".join(spec.store_in) + ")"
    if spec.sub_strategy is not None:
        out += f" SUBPARTITION BY {spec.sub_strategy.value} ({_keys(spec.sub_key, spec.sub_key_text)})"
        if spec.subpartitions_num is not None:
            out += f" SUBPARTITIONS {spec.subpartitions_num}"
    if spec.has_list:
        out += "\n( " + ",".join(_pretty(1) + _partition(p, _pretty) for p in spec.partitions) + "\n)"
    if spec.row_movement is not None:
        out += "\nENABLE ROW MOVEMENT" if spec.row_movement else "\nDISABLE ROW MOVEMENT"
    return out
