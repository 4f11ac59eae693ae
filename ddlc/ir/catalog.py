"""Catalog state built by replaying the earlier DDL of the same stream.

Some translations need what came before: a partition added later carries only its upper bound,
and its lower bound is the previous partition's. The API and the CLI keep one :class:`Catalog` per
run and record every statement after it is translated; emitters consult it through the pass
context and say so in a diagnostic when it has nothing (``DDLC-W604``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class PartitionState:
    name: str
    upper: tuple[str, ...] | None = None  # range: bound texts (MAXVALUE included); None otherwise
    values: tuple[str, ...] | None = None  # list: value texts; ("DEFAULT",) for the default partition
    subpartitions: list[PartitionState] = field(default_factory=list)


@dataclass(slots=True)
class TableState:
    strategy: str  # RANGE | LIST | HASH
    key: tuple[str, ...]
    partitions: list[PartitionState] = field(default_factory=list)
    sub_strategy: str | None = None
    sub_key: tuple[str, ...] = ()

    def find(self, name: str) -> PartitionState | None:
        for p in self.partitions:
            if p.name == name:
                return p
        return None

    def index(self, name: str) -> int | None:
        for i, p in enumerate(self.partitions):
            if p.name == name:
                return i
        return None


class Catalog:
    """Partitioned tables seen so far, keyed by (schema, table)."""

    __slots__ = ("tables",)

    def __init__(self) -> None:
        self.tables: dict[tuple[str | None, str], TableState] = {}

    @staticmethod
    def key(q: Any) -> tuple[str | None, str]:
        return (q.schema, q.name)

    def table(self, q: Any) -> TableState | None:
        return self.tables.get(self.key(q))

    def record(self, stmt: Any) -> None:
        """Replay one (translated) statement into the state."""
        handler = _RECORDERS.get(type(stmt).__name__)
        if handler is not None:
            handler(self, stmt)


def state_of_spec(spec: Any) -> TableState:
    from .partition import LessThan, ListValues

    def part(p: Any) -> PartitionState:
        st = PartitionState(p.name)
        if isinstance(p.bound, LessThan):
            st.upper = tuple(v.text for v in p.bound.values)
        elif isinstance(p.bound, ListValues):
            st.values = tuple(v.text for v in p.bound.values)
        st.subpartitions = [part(s) for s in p.subpartitions]
        return st

    return TableState(
        spec.strategy.value, tuple(spec.key), [part(p) for p in spec.partitions],
        spec.sub_strategy.value if spec.sub_strategy is not None else None, tuple(spec.sub_key),
    )


def _create_table(cat: Catalog, stmt: Any) -> None:
    clause = getattr(stmt, "partition", None)
    key = cat.key(stmt.identity)
    if clause is not None and clause.spec is not None:
        cat.tables[key] = state_of_spec(clause.spec)
    else:
        cat.tables.pop(key, None)


def _drop(cat: Catalog, stmt: Any) -> None:
    ident = getattr(stmt, "identity", None)
    objtype = getattr(getattr(stmt, "objtype", None), "value", "")
    if objtype == "table" and ident is not None and hasattr(ident, "name"):
        cat.tables.pop((getattr(ident, "schema", None), ident.name), None)


def _rename_relation(cat: Catalog, stmt: Any) -> None:
    old = cat.key(stmt.identity)
    if old in cat.tables:
        cat.tables[(old[0], stmt.new_name)] = cat.tables.pop(old)


_RECORDERS = {
    "CreateTable": _create_table,
    "Drop": _drop,
    "RenameRelation": _rename_relation,
}


def recorder(class_name: str):
    """Register how a statement class changes the state (used by statement families)."""

    def deco(fn):
        _RECORDERS[class_name] = fn
        return fn

    return deco
