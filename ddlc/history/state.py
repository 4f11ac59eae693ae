"""The state of one stream's tables: partitioned tables and their bounds, identity columns, keys.

Some translations need what came before: a partition added later carries only its upper bound,
and its lower bound is the previous partition's. The API and the CLI keep one :class:`Catalog` per
run and record every statement after it is translated; emitters consult it through the pass
context and say so in a diagnostic when it has nothing.

What is kept, per table (keyed by ``(schema, name)`` as the statements name it after the passes):

* partitioned tables: strategy, key and the ordered partitions with their bounds (as the server's
  bound texts), with subpartitions (:class:`TableState`);
* any table: its identity (AUTO_INCREMENT) column and its primary-key constraint name, when a
  statement of the stream said so, and its columns' types (:class:`RelationState`).

The partition effects of ALTER TABLE subcommands are plain functions on a :class:`TableState`
(:func:`apply_partition_change`), so an emitter can replay them on a copy while it translates a
statement with several partition subcommands, and the recorder replays them for real afterwards.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import field
from decimal import Decimal, InvalidOperation
from typing import Any

from ..records import record
from ..ir.alter_partitions import (
    AddPartition, DropPartition, MergePartitions, ModifyPartitionAddSubpartition, SplitPartition,
    SplitSubpartition,
)
from ..ir.partition import LessThan, ListValues
from .. import lazyre


@record(slots=True)
class PartitionState:
    name: str
    upper: tuple[str, ...] | None = None  # range: bound texts (MAXVALUE included); None otherwise
    values: tuple[str, ...] | None = None  # list: value texts; ("DEFAULT",) for the default partition
    subpartitions: list[PartitionState] = field(default_factory=list)
    # (schema, table) of the partitioned table when this partition was created: a target that makes
    # partitions tables of their own names them after it, and they keep that name when the parent
    # is renamed or moved later
    home: tuple[str | None, str] | None = None

    @property
    def is_default(self) -> bool:
        return self.values is not None and len(self.values) == 1 and self.values[0].upper() == "DEFAULT"


@record(slots=True)
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

    def find_sub(self, name: str) -> tuple[PartitionState, PartitionState] | None:
        """``(partition, subpartition)`` of a subpartition named ``name``."""
        for p in self.partitions:
            for s in p.subpartitions:
                if s.name == name:
                    return p, s
        return None

    def lower_of(self, name: str) -> tuple[str, ...] | None:
        """The inclusive lower bound of a range partition: the previous partition's upper bound,
        ``("MINVALUE", ...)`` for the first one; None when unknown (not range, not found, or the
        previous partition's bound is not known)."""
        return lower_bound(self.partitions, name, len(self.key))

    def locate(self, values: tuple[str, ...]) -> PartitionState | None:
        """The partition that holds a row with these key values (``... PARTITION FOR (...)``)."""
        return locate(self.partitions, self.strategy, values)


@record(slots=True)
class RelationState:
    identity_column: str | None = None  # the AUTO_INCREMENT column, created as an identity column
    primary_key: str | None = None  # the primary-key constraint's name
    # column name -> its type (an IR TypeName) as the stream declared or last changed it; a target
    # that can only widen a column in place (Delta) needs the type it had
    columns: dict[str, Any] = field(default_factory=dict)
    # the stream created the table (CREATE TABLE seen): every view on it is in the history
    created: bool = False


def state_of_spec(spec: Any, home: tuple[str | None, str] | None = None) -> TableState:
    """The state of a parsed partition clause. A partition without subpartitions of a subpartitioned
    table gets GaussDB's default subpartition ``<partition>_subpartdefault1``."""
    def part(p: Any) -> PartitionState:
        st = PartitionState(p.name, home=home)
        b = p.bound
        t = type(b)  # (the exact classes first: isinstance of another class against a Struct class is dear)
        if t is LessThan or (t is not ListValues and isinstance(b, LessThan)):
            st.upper = tuple(v.text for v in b.values)
        elif t is ListValues or isinstance(b, ListValues):
            st.values = tuple(v.text for v in b.values)
        st.subpartitions = [part(s) for s in p.subpartitions]
        return st

    out = TableState(
        spec.strategy.value, tuple(spec.key), [part(p) for p in spec.partitions],
        spec.sub_strategy.value if spec.sub_strategy is not None else None, tuple(spec.sub_key),
    )
    for p in out.partitions:
        _default_subpartition(out, p)
    return out


def _default_subpartition(st: TableState, p: PartitionState) -> None:
    if st.sub_strategy is None or p.subpartitions:
        return
    d = PartitionState(f"{p.name}_subpartdefault1", home=p.home)
    if st.sub_strategy == "LIST":
        d.values = ("DEFAULT",)
    elif st.sub_strategy == "RANGE":
        d.upper = ("MAXVALUE",) * max(1, len(st.sub_key))
    p.subpartitions = [d]


# ---- bound values ----------------------------------------------------------------------------
_NUMBER = lazyre.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\Z")
_TYPED = lazyre.compile(r"(?is)\s*(date|timestamp(\(\d+\))?(\s+with(out)?\s+time\s+zone)?|timestamptz)\s*('.*')\s*\Z")
_MAX = object()


def bound_key(text: str) -> tuple[int, Any] | None:
    """A sortable meaning of a bound text, or None when it cannot be compared safely.

    Numbers compare as numbers, ISO dates/timestamps (quoted or typed literals) as datetimes,
    other quoted strings as strings (byte order, as the C collation), MAXVALUE above all.
    """
    t = text.strip()
    if t.upper() == "MAXVALUE":
        return (9, _MAX)
    if t.startswith("(") and t.endswith(")"):
        t = t[1:-1].strip()
    if _NUMBER.match(t):
        try:
            return (1, Decimal(t))
        except InvalidOperation:
            return None
    m = _TYPED.match(t)
    if m is not None:
        t = m.group(5)
    if len(t) >= 2 and t[0] == "'" and t[-1] == "'":
        s = t[1:-1].replace("''", "'")
        stamp = _timestamp(s)
        if stamp is not None:
            return (2, stamp)
        if _NUMBER.match(s.strip()):
            return (1, Decimal(s.strip()))
        return (3, s.encode("utf-8"))
    return None


def _timestamp(s: str) -> datetime.datetime | None:
    if not re.match(r"\d{4}-\d{2}-\d{2}", s):
        return None
    try:
        v = datetime.datetime.fromisoformat(s.strip())
    except ValueError:
        return None
    return v if v.tzinfo is None else v.astimezone(datetime.timezone.utc).replace(tzinfo=None)


def _less(a: tuple[str, ...], b: tuple[str, ...]) -> bool | None:
    """Row comparison ``a < b`` of two bound lists (None when not comparable)."""
    for x, y in zip(a, b, strict=False):
        kx, ky = bound_key(x), bound_key(y)
        if kx is None or ky is None:
            return None
        if kx[0] == 9 or ky[0] == 9:
            if kx[0] == ky[0]:
                continue
            return ky[0] == 9
        if kx[0] != ky[0]:
            return None
        if kx[1] != ky[1]:
            return kx[1] < ky[1]
    return False


def _same(a: str, b: str) -> bool:
    if a.strip() == b.strip():
        return True
    ka, kb = bound_key(a), bound_key(b)
    return ka is not None and kb is not None and ka == kb


def locate(parts: list[PartitionState], strategy: str, values: tuple[str, ...]) -> PartitionState | None:
    if strategy == "RANGE":
        for p in parts:
            if p.upper is None:
                return None
            less = _less(values, p.upper)
            if less is None:
                return None
            if less:
                return p
        return None
    if strategy == "LIST":
        if len(values) != 1:
            return None
        default = None
        for p in parts:
            if p.values is None:
                return None
            if p.is_default:
                default = p
            elif any(_same(values[0], v) for v in p.values):
                return p
        return default
    return None


def lower_bound(parts: list[PartitionState], name: str, width: int) -> tuple[str, ...] | None:
    """The lower bound of range partition ``name`` among ``parts`` (see :meth:`TableState.lower_of`)."""
    for i, p in enumerate(parts):
        if p.name == name:
            if p.upper is None:
                return None
            if i == 0:
                return ("MINVALUE",) * max(width, len(p.upper))
            return parts[i - 1].upper
    return None


# ---- partition effects of ALTER TABLE subcommands ---------------------------------------------
def apply_partition_change(st: TableState, sub: Any, home: tuple[str | None, str] | None = None) -> None:
    """Replay one partition subcommand (an IR node of ``ddlc.ir.alter_partitions``) on ``st``;
    ``home`` is the table's (schema, name) now, given to the partitions it creates."""
    fn = _PARTITION_EFFECTS.get(type(sub))
    if fn is not None:
        before = {id(p) for p in _all_parts(st)}
        fn(st, sub)
        for p in _all_parts(st):
            if id(p) not in before and p.home is None:
                p.home = home


def _all_parts(st: TableState) -> list[PartitionState]:
    return [*st.partitions, *(s for p in st.partitions for s in p.subpartitions)]


def _new_partition(name: str, kind: str, bounds: tuple[str, ...]) -> PartitionState:
    if kind == "VALUES LESS THAN":
        return PartitionState(name, upper=tuple(bounds))
    if kind == "VALUES":
        return PartitionState(name, values=tuple(bounds))
    return PartitionState(name)


def _add_partition(st: TableState, sub: Any) -> None:
    p = _new_partition(sub.name, sub.kind.value, sub.bounds)
    p.subpartitions = [_new_partition(s.name, s.kind.value, s.bounds) for s in sub.subpartitions]
    _default_subpartition(st, p)
    if st.strategy == "LIST" and not p.is_default:
        default = next((i for i, q in enumerate(st.partitions) if q.is_default), None)
        if default is not None:  # keep the DEFAULT partition last
            st.partitions.insert(default, p)
            return
    st.partitions.append(p)


def _target(st: TableState, sub: Any) -> PartitionState | None:
    if getattr(sub, "name", None) is not None:
        return st.find(sub.name)
    if getattr(sub, "for_values", ()):
        return st.locate(tuple(sub.for_values))
    return None


def _drop_partition(st: TableState, sub: Any) -> None:
    if sub.level.value == "SUBPARTITION":
        if sub.name is not None:
            found = st.find_sub(sub.name)
            if found is not None:
                found[0].subpartitions.remove(found[1])
        return
    p = _target(st, sub)
    if p is not None:
        st.partitions.remove(p)


def _merge_partitions(st: TableState, sub: Any) -> None:
    olds = [st.find(n) for n in sub.partitions]
    if any(p is None for p in olds) or not olds:
        return
    at = min(st.partitions.index(p) for p in olds)  # type: ignore[arg-type]
    new = PartitionState(sub.into)
    if st.strategy == "RANGE":
        last = max(olds, key=lambda p: st.partitions.index(p))  # type: ignore[arg-type]
        new.upper = last.upper  # type: ignore[union-attr]
    elif st.strategy == "LIST":
        vals: list[str] = []
        for p in olds:
            vals.extend(p.values or ())  # type: ignore[union-attr]
        new.values = ("DEFAULT",) if any(v.upper() == "DEFAULT" for v in vals) else tuple(vals)
    for p in olds:
        st.partitions.remove(p)  # type: ignore[arg-type]
    st.partitions.insert(at, new)


def _split_partition(st: TableState, sub: Any) -> None:
    old = _target(st, sub)
    if old is None:
        return
    at = st.partitions.index(old)
    if sub.at is not None:
        if len(sub.parts) != 2:
            return
        news = [PartitionState(sub.parts[0].name, upper=tuple(sub.at)),
                PartitionState(sub.parts[1].name, upper=old.upper)]
    else:
        news = [PartitionState(p.name, upper=tuple(p.bounds) if p.bounds else old.upper) for p in sub.parts]
    st.partitions[at:at + 1] = news


def remaining_values(old: PartitionState, taken: tuple[str, ...]) -> tuple[str, ...]:
    """The list values of ``old`` not in ``taken`` (``("DEFAULT",)`` for a default partition)."""
    if old.is_default:
        return ("DEFAULT",)
    return tuple(v for v in old.values or () if not any(_same(v, b) for b in taken))


def _modify_add_subpartition(st: TableState, sub: Any) -> None:
    p = st.find(sub.partition)
    if p is not None:
        p.subpartitions.append(_new_partition(sub.subpartition, sub.kind.value, sub.bounds))


def _split_subpartition(st: TableState, sub: Any) -> None:
    found = st.find_sub(sub.name)
    if found is None or len(sub.parts) != 2:
        return
    p, old = found
    at = p.subpartitions.index(old)
    if sub.mode.value == "AT":
        news = [PartitionState(sub.parts[0].name, upper=tuple(sub.bounds)),
                PartitionState(sub.parts[1].name, upper=old.upper)]
    else:
        rest = remaining_values(old, sub.bounds)
        news = [PartitionState(sub.parts[0].name, values=tuple(sub.bounds)),
                PartitionState(sub.parts[1].name, values=rest)]
    p.subpartitions[at:at + 1] = news


_PARTITION_EFFECTS: dict[type, Any] = {
    AddPartition: _add_partition,
    DropPartition: _drop_partition,
    MergePartitions: _merge_partitions,
    SplitPartition: _split_partition,
    ModifyPartitionAddSubpartition: _modify_add_subpartition,
    SplitSubpartition: _split_subpartition,
}


def changes_partitions(sub: Any) -> bool:
    """Whether an ALTER subcommand changes a partitioned table's partitions."""
    return type(sub) in _PARTITION_EFFECTS


def working_copy(st: TableState | None) -> TableState | None:
    """A copy an emitter may change while it translates one statement: the states and their lists are new,
    what they hold besides is immutable (names, tuples of bound texts) and shared. ``copy.deepcopy`` gives the
    same (tests/test_throughput_back.py) at ~40 us a state object (a record's pickling protocol); this copies
    a table of 12 partitions in a few microseconds."""
    if st is None:
        return None
    return TableState(st.strategy, st.key, [_part_copy(p) for p in st.partitions], st.sub_strategy, st.sub_key)


def _part_copy(p: PartitionState) -> PartitionState:
    return PartitionState(p.name, p.upper, p.values, [_part_copy(s) for s in p.subpartitions], p.home)
