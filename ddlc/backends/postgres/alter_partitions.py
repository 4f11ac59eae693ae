"""PostgreSQL: partition maintenance subcommands of ALTER TABLE (jddl-shapes.md §5.2, §7).

PostgreSQL partitions are tables of their own. They are named as the CREATE TABLE translation names
them (:func:`.partitions.partition_table_name`): partition and subpartition ``p`` of table ``t`` are
the table ``t_p`` in ``t``'s schema; a last range partition ``VALUES LESS THAN (MAXVALUE)`` is the
DEFAULT partition; a partition of a subpartitioned table given no subpartitions gets GaussDB's default
subpartition ``<p>_subpartdefault1``. The stream's history keeps the name a partition's table was
created under, so a parent renamed later still finds its partitions. GaussDB's subcommands become
statements on those tables, in order:

* ADD PARTITION → ``CREATE TABLE t_p PARTITION OF t FOR VALUES FROM (<previous upper bound>) TO
  (<bound>)`` (range; the previous bound comes from the history), ``FOR VALUES IN (...)`` /
  ``DEFAULT`` (list), ``PARTITION BY`` plus the subpartitions' tables when it has some;
* DROP PARTITION → ``DROP TABLE`` (then, for range tables, the next partition is re-attached with the
  dropped range, which GaussDB's next partition takes over); TRUNCATE PARTITION → ``TRUNCATE``;
* EXCHANGE PARTITION → DETACH, swap the two tables' names (and schemas), ATTACH with the partition's
  bounds;
* SPLIT / MERGE → DETACH the old partitions, CREATE the new ones, move the rows with
  ``INSERT ... OVERRIDING SYSTEM VALUE SELECT *``, DROP the old ones;
* ``PARTITION FOR (values)`` is resolved to a name from the history.

What needs bounds the subcommand does not carry is done only when the history knows the table;
otherwise the subcommand is reported (DDLC-W690) and skipped. What has no PostgreSQL form whatever
the history (a hash or multi-column LIST partition added, TRUNCATE SUBPARTITION FOR (...)) is
removed by rules of :data:`UNSUPPORTED`. The effects are replayed on a working
copy of the table's state as the subcommands go, so several partition subcommands of one statement
see each other.
"""

from __future__ import annotations

from typing import Any

from ...ir.alter_partitions import (
    AddPartition, AnalyzePartitions, BoundKind, DropPartition, ExchangePartition, MergePartitions,
    ModifyPartitionAddSubpartition, MovePartition, PartitionLevel, RebuildPartitions, RemovePartitioning,
    ResetPartition, SplitPart, SplitPartition, SplitSubpartition, SubpartitionDef, TruncatePartition,
    TruncateSubpartition, bound_texts, parsed_bound, with_parsed_bounds,
)
from ...history import PartitionState, TableState, apply_partition_change, lower_bound, remaining_values
from ...ir.partition import clip_bytes
from ...ir.rules import Rule
from ..writer import joined, pg_ident, words
from .alter_base import (
    I_PARTITION_NOOP, I_PARTITION_SEQUENCE, I_VALIDATION, W_DROP_GAP, W_HASH_PARTITION, W_NO_HISTORY,
    W_PARTITION_FORM, W_TABLESPACE, Alter, handles,
)
from .partitions import (
    I_MAXVALUE_DEFAULT, N_GENERATED_PARTITIONS, bound_value, hash_bound, list_bound, partition_table_name, range_bound,
)


# ---- names -----------------------------------------------------------------------------------
def _qualified(a: Alter, schema: str | None, name: str) -> str:
    return (pg_ident(schema) + "." if schema is not None else "") + pg_ident(name)


def _home(a: Alter, p: PartitionState | None) -> tuple[str | None, str]:
    if p is not None and p.home is not None:
        return p.home
    return a.n.identity.schema, a.n.identity.name


def bare_table(a: Alter, name: str, p: PartitionState | None = None) -> str:
    return partition_table_name(_home(a, p)[1], name)


def table_of(a: Alter, name: str, p: PartitionState | None = None) -> str:
    """The qualified table of partition (or subpartition) ``name``; ``p`` is its state, if known."""
    if p is None and a.state is not None:
        p = a.state.find(name) or (a.state.find_sub(name) or (None, None))[1]
    schema, parent = _home(a, p)
    return _qualified(a, schema, partition_table_name(parent, name))


def partition_table(a: Alter, partition: str) -> str:
    return table_of(a, partition)


def _tmp(a: Alter, schema: str | None, name: str) -> tuple[str, str]:
    """A scratch name next to ``name``: (bare, qualified)."""
    bare = clip_bytes(name, 63 - len("_ddlc_old")) + "_ddlc_old"
    return bare, _qualified(a, schema, bare)


def leaf_tables(a: Alter) -> list[str]:
    """Every partition table that holds rows (the subpartitions of a subpartitioned partition)."""
    out: list[str] = []
    for p in a.state.partitions if a.state is not None else ():
        out.extend(table_of(a, s.name, s) for s in p.subpartitions or (p,))
    return out


def _commas(items: Any) -> list[str]:
    """The tokens of a comma-separated list as the writer's ``each`` makes them (an empty item left out, as
    its ``raw`` leaves it; the comma kept)."""
    toks: list[str] = []
    for i, item in enumerate(items):
        if i:
            toks.append(",")
        if item:
            toks.append(item)
    return toks


# ---- bounds ----------------------------------------------------------------------------------
def pg_value(text: str, a: Alter) -> str:
    """A GaussDB bound text as PostgreSQL text (as the CREATE TABLE translation writes it), from the
    value the frontend parsed at build time (:class:`BoundText`, kept by the history too); a text
    without one (it did not parse) is written as it is."""
    if text.strip().upper() in ("MINVALUE", "MAXVALUE", "DEFAULT"):
        return text.strip().upper()
    parsed = parsed_bound(text)
    if parsed is None:
        return text
    try:
        return bound_value(parsed, a.e)
    except Exception:  # noqa: BLE001 - a value the target cannot write: kept as the server wrote it
        return text


def _tuple_values(values: tuple[str, ...]) -> bool:
    return any(v.strip().startswith("(") for v in values)


def _range(a: Alter, values: tuple[str, ...], width: int) -> list[str]:
    out = [pg_value(v, a) for v in values]
    if "MAXVALUE" in out:  # (MAXVALUE, 5) bounds the same rows as (MAXVALUE, MAXVALUE)
        out = out[:out.index("MAXVALUE")] + ["MAXVALUE"] * (len(out) - out.index("MAXVALUE"))
    return out + ["MAXVALUE"] * (width - len(out))


def bound_sql(a: Alter, strategy: str | None, parts: list[PartitionState], p: PartitionState,
              width: int) -> str | None:
    """``FOR VALUES ...`` / ``DEFAULT`` of partition ``p`` among ``parts``; None when unknown."""
    if strategy == "RANGE":
        lower = lower_bound(parts, p.name, width)
        if lower is None or p.upper is None:
            return None
        upper = _range(a, p.upper, width)
        if parts and p is parts[-1] and upper[0] == "MAXVALUE":
            return "DEFAULT"  # as the CREATE TABLE translation writes it (DDLC-I616)
        return range_bound(a.e, _range(a, lower, width), upper)
    if strategy == "LIST":
        if p.values is None or _tuple_values(p.values):
            return None
        return "DEFAULT" if p.is_default else list_bound(a.e, (pg_value(v, a) for v in p.values))
    if strategy == "HASH":
        return hash_bound(a.e, len(parts), _index(parts, p))
    return None


def _index(parts: list[PartitionState], p: PartitionState) -> int:
    return next(i for i, q in enumerate(parts) if q is p)


def _new_ones(after: list[PartitionState], before: list[PartitionState]) -> list[PartitionState]:
    return [q for q in after if all(q is not r for r in before)]


def _missing(a: Alter, sub: Any, why: str) -> None:
    a.e.diag(W_NO_HISTORY, f"{why}; not translated", sub.origin, **a.dropped(sub))


def _resolve(a: Alter, sub: Any, name: str | None, for_values: tuple[str, ...]) -> PartitionState | None:
    """The partition a subcommand names (by name or FOR (values)); reports what is missing."""
    st = a.state
    if name is not None:
        if st is None:
            return PartitionState(name)  # enough for operations that need the name only
        found = st.find(name)
        if found is None:
            _missing(a, sub, f"partition {name} of {a.n.identity.dotted()} is not in the stream's history")
        return found
    values = ", ".join(for_values)
    if st is None:
        _missing(a, sub, f"PARTITION FOR ({values}) of {a.n.identity.dotted()}: table not seen before in the stream")
        return None
    found = st.locate(tuple(for_values))
    if found is None:
        _missing(a, sub, f"PARTITION FOR ({values}): no partition of the history holds these values")
    return found


def _done(a: Alter, sub: Any, what: str) -> None:
    a.e.diag(I_PARTITION_SEQUENCE, what, sub.origin)
    if a.state is not None:
        apply_partition_change(a.state, with_parsed_bounds(sub), (a.n.identity.schema, a.n.identity.name))


def _alter(table: str, *rest: str) -> str:
    """``ALTER TABLE <table> <rest>`` (an already-quoted name, then words and quoted texts)."""
    return words("ALTER TABLE", table, *rest)


def _create(a: Alter, table: str, parent: str, bound: str, partition_by: str | None = None) -> None:
    a.e.own(("TABLE",), table)
    a.statement(words("CREATE TABLE", table, "PARTITION OF", parent, bound,
                      *(("PARTITION BY", partition_by) if partition_by else ())))


# ---- ADD -------------------------------------------------------------------------------------
def _previous_upper(parts: list[PartitionState], width: int) -> tuple[str, ...] | None:
    return ("MINVALUE",) * width if not parts else parts[-1].upper


def _new_bound(a: Alter, sub: Any, kind: BoundKind, bounds: tuple[str, ...], previous: tuple[str, ...] | None,
               width: int, what: str) -> str | None:
    assert kind is not BoundKind.HASH  # hash and multi-column LIST partitions were removed by rules
    if kind is BoundKind.LIST:
        if [b.strip().upper() for b in bounds] == ["DEFAULT"]:
            return "DEFAULT"
        return list_bound(a.e, (pg_value(b, a) for b in bounds))
    if previous is None:
        _missing(a, sub, f"{what}: its lower bound (the previous partition's upper bound) is not known from the "
                         "stream's history")
        return None
    upper = _range(a, bounds, width)
    if upper[0] == "MAXVALUE":
        a.e.diag(I_MAXVALUE_DEFAULT, f"{what} (LESS THAN MAXVALUE) written as the DEFAULT partition", sub.origin)
        return "DEFAULT"
    return range_bound(a.e, _range(a, previous, width), upper)


@handles(AddPartition)
def _add_partition(n: AddPartition, a: Alter) -> None:
    st = a.state
    what = _adding(n)
    width = len(st.key) if st is not None else len(n.bounds)
    previous = _previous_upper(st.partitions, width) if st is not None and st.strategy == "RANGE" else None
    bound = _new_bound(a, n, n.kind, bound_texts(n.bounds, n.bound_values), previous, width, what)
    if bound is None:
        return
    if (n.subpartitions or (st is not None and st.sub_strategy)) and (st is None or st.sub_strategy is None):
        _missing(a, n, f"{what}: the subpartition key is not known from the stream's history")
        return
    table = table_of(a, n.name, PartitionState(n.name))
    by = None
    if st is not None and st.sub_strategy is not None:
        by = joined([st.sub_strategy, "(", *_commas(pg_ident(k) for k in st.sub_key), ")"])
    _create(a, table, a.table, bound, by)
    if by is not None:
        scratch = TableState(st.strategy, st.key, sub_strategy=st.sub_strategy, sub_key=st.sub_key)  # type: ignore[union-attr]
        # the subpartitions (or the default one) as the history will have them
        apply_partition_change(scratch, with_parsed_bounds(n))
        subs = scratch.partitions[0].subpartitions
        if not n.subpartitions:
            a.e.diag(N_GENERATED_PARTITIONS, f"{what}: no subpartitions listed; one default subpartition written",
                     n.origin)
        for s in subs:
            sb = bound_sql(a, st.sub_strategy, subs, s, len(st.sub_key))  # type: ignore[union-attr]
            if sb is None:
                _missing(a, n, f"{what}: bound of subpartition {s.name} not understood")
                continue
            _create(a, table_of(a, s.name, PartitionState(s.name)), table, sb)
    _done(a, n, f"{what} written as CREATE TABLE ... PARTITION OF")


@handles(ModifyPartitionAddSubpartition)
def _add_subpartition(n: ModifyPartitionAddSubpartition, a: Alter) -> None:
    st = a.state
    what = _adding(n)
    p = st.find(n.partition) if st is not None else None
    width = len(st.sub_key) if st is not None else len(n.bounds)
    previous = _previous_upper(p.subpartitions, width) if p is not None and n.kind is BoundKind.RANGE else None
    bound = _new_bound(a, n, n.kind, bound_texts(n.bounds, n.bound_values), previous, width, what)
    if bound is None:
        return
    _create(a, table_of(a, n.subpartition, PartitionState(n.subpartition)), table_of(a, n.partition, p), bound)
    _done(a, n, f"{what} written as CREATE TABLE ... PARTITION OF")


# ---- DROP / TRUNCATE / ANALYZE --------------------------------------------------------------
@handles(DropPartition)
def _drop_partition(n: DropPartition, a: Alter) -> None:
    st = a.state
    if n.level is PartitionLevel.SUBPARTITION:
        found = st.find_sub(n.name) if st is not None and n.name is not None else None
        if found is None:
            if n.name is not None and st is None:
                a.statement(words("DROP TABLE", table_of(a, n.name)))
                _done(a, n, f"DROP SUBPARTITION {n.name} written as DROP TABLE")
                return
            _missing(a, n, f"DROP SUBPARTITION {n.name or 'FOR (' + ', '.join(n.for_values) + ')'} is not known "
                           "from the stream's history")
            return
        p, s = found
        a.statement(words("DROP TABLE", table_of(a, s.name, s)))
        _widen(a, n, p.subpartitions, s, len(st.sub_key), table_of(a, p.name, p), st.sub_strategy)  # type: ignore[union-attr]
        _done(a, n, f"DROP SUBPARTITION {s.name} written as DROP TABLE")
        return
    p = _resolve(a, n, n.name, n.for_values)
    if p is None:
        return
    a.statement(words("DROP TABLE", table_of(a, p.name, p)))
    if st is None:
        a.e.diag(W_DROP_GAP, f"DROP PARTITION {p.name}: if the table is range-partitioned, the next partition does "
                             "not take over the dropped range (no history)", n.origin)
    else:
        _widen(a, n, st.partitions, p, len(st.key), a.table, st.strategy)
    _done(a, n, f"DROP PARTITION {p.name} written as DROP TABLE")


def _widen(a: Alter, n: Any, parts: list[PartitionState], dropped: PartitionState, width: int, parent: str,
           strategy: str | None) -> None:
    """GaussDB's next range partition takes over a dropped partition's range: re-attach it."""
    if strategy != "RANGE" or all(q is not dropped for q in parts) or dropped is parts[-1]:
        return
    nxt = parts[_index(parts, dropped) + 1]
    rest = [q for q in parts if q is not dropped]
    bound = bound_sql(a, "RANGE", rest, nxt, width)
    if bound is None:
        a.e.diag(W_DROP_GAP, f"the range of {dropped.name} is not taken over by {nxt.name} (bounds unknown)",
                 n.origin)
        return
    if bound == "DEFAULT":
        return  # the DEFAULT partition takes the dropped range by itself
    t = table_of(a, nxt.name, nxt)
    a.statement(_alter(parent, "DETACH PARTITION", t))
    a.statement(_alter(parent, "ATTACH PARTITION", t, bound))


@handles(TruncatePartition)
def _truncate_partition(n: TruncatePartition, a: Alter) -> None:
    p = _resolve(a, n, n.name, n.for_values)
    if p is not None:
        a.statement(words("TRUNCATE", table_of(a, p.name, p)))
        _done(a, n, f"TRUNCATE PARTITION {p.name} written as TRUNCATE")


@handles(TruncateSubpartition)
def _truncate_subpartition(n: TruncateSubpartition, a: Alter) -> None:
    assert n.name is not None  # FOR (values): removed by a rule
    a.statement(words("TRUNCATE", table_of(a, n.name)))
    _done(a, n, f"TRUNCATE SUBPARTITION {n.name} written as TRUNCATE")


@handles(AnalyzePartitions)
def _analyze(n: AnalyzePartitions, a: Alter) -> None:
    a.statement(joined(["ANALYZE", *_commas(table_of(a, p) for p in n.partitions)]))
    _done(a, n, "ANALYZE PARTITION written as ANALYZE of the partitions' tables")


# ---- EXCHANGE ----------------------------------------------------------------------------------
@handles(ExchangePartition)
def _exchange(n: ExchangePartition, a: Alter) -> None:
    st = a.state
    if st is None:
        _missing(a, n, f"EXCHANGE PARTITION of {a.n.identity.dotted()}: the partition's bounds are not known from "
                       "the stream's history")
        return
    p = _resolve(a, n, n.name, n.for_values)
    if p is None:
        return
    bound = bound_sql(a, st.strategy, st.partitions, p, len(st.key))
    if bound is None or p.subpartitions:
        _missing(a, n, f"EXCHANGE PARTITION {p.name}: its bounds are not known")
        return
    e = a.e
    schema, _ = _home(a, p)
    part_bare = bare_table(a, p.name, p)
    part = _qualified(a, schema, part_bare)
    tmp_bare, tmp = _tmp(a, schema, part_bare)
    other_schema = n.table.schema if n.table.schema is not None else schema
    a.statement(_alter(a.table, "DETACH PARTITION", part))
    a.statement(_alter(part, "RENAME TO", pg_ident(tmp_bare)))
    if other_schema != schema:
        other = e.qname(n.table)
        a.statement(_alter(other, "SET SCHEMA", pg_ident(schema or "public")))
    a.statement(_alter(_qualified(a, schema, n.table.name), "RENAME TO", pg_ident(part_bare)))
    a.statement(_alter(a.table, "ATTACH PARTITION", part, bound))
    if other_schema != schema:
        a.statement(_alter(tmp, "SET SCHEMA", pg_ident(other_schema or "public")))
        tmp = _qualified(a, other_schema, tmp_bare)
    a.statement(_alter(tmp, "RENAME TO", pg_ident(n.table.name)))
    if n.without_validation:
        e.diag(I_VALIDATION, "WITHOUT VALIDATION: PostgreSQL checks the rows on ATTACH", n.origin)
    _done(a, n, f"EXCHANGE PARTITION {p.name} written as DETACH / rename / ATTACH")


# ---- SPLIT / MERGE ------------------------------------------------------------------------------
def _rebuild(a: Alter, parent: str, olds: list[PartitionState], news: list[tuple[str, str]], into: str | None) -> None:
    """DETACH ``olds``, CREATE ``news`` ((name, bound), tables under the current parent name), copy the
    rows (into ``into``, or the parent), DROP the old tables."""
    new_tables = [(bare_table(a, name), bound) for name, bound in news]
    schema = a.n.identity.schema
    sources = []
    for p in olds:
        home_schema = _home(a, p)[0]
        bare = bare_table(a, p.name, p)
        q = _qualified(a, home_schema, bare)
        a.statement(_alter(parent, "DETACH PARTITION", q))
        if home_schema == schema and any(bare == b for b, _ in new_tables):  # a new part reuses the name
            tmp_bare, q_tmp = _tmp(a, home_schema, bare)
            a.statement(_alter(q, "RENAME TO", pg_ident(tmp_bare)))
            q = q_tmp
        sources.append(q)
    for bare, bound in new_tables:
        _create(a, _qualified(a, schema, bare), parent, bound)
    target = parent if into is None else _qualified(a, schema, bare_table(a, into))
    for q in sources:
        a.statement(words("INSERT INTO", target, "OVERRIDING SYSTEM VALUE SELECT * FROM", q))
    for q in sources:
        a.statement(words("DROP TABLE", q))


@handles(SplitPartition)
def _split(n: SplitPartition, a: Alter) -> None:
    st = a.state
    if st is None:
        _missing(a, n, f"SPLIT PARTITION of {a.n.identity.dotted()}: the partition's bounds are not known from the "
                       "stream's history")
        return
    old = _resolve(a, n, n.name, n.for_values)
    if old is None:
        return
    if st.strategy != "RANGE" or old.subpartitions:
        a.e.diag(W_PARTITION_FORM, f"SPLIT PARTITION {old.name} of a {st.strategy.lower()} or subpartitioned table "
                                   "not translated", n.origin, **a.dropped(n))
        return
    after = TableState(st.strategy, st.key, list(st.partitions))
    apply_partition_change(after, with_parsed_bounds(n))
    news = _new_ones(after.partitions, st.partitions)
    bounds = [bound_sql(a, "RANGE", after.partitions, q, len(st.key)) for q in news]
    if not news or any(b is None for b in bounds):
        _missing(a, n, f"SPLIT PARTITION {old.name}: its bounds are not known")
        return
    _rebuild(a, a.table, [old], [(q.name, b) for q, b in zip(news, bounds, strict=True)], None)  # type: ignore[misc]
    _done(a, n, f"SPLIT PARTITION {old.name} written as DETACH / CREATE / INSERT ... SELECT / DROP")


@handles(SplitSubpartition)
def _split_sub(n: SplitSubpartition, a: Alter) -> None:
    st = a.state
    found = st.find_sub(n.name) if st is not None else None
    if found is None or len(n.parts) != 2 or st is None:
        _missing(a, n, f"SPLIT SUBPARTITION {n.name}: its partition and bounds are not known from the stream's "
                       "history")
        return
    p, old = found
    if n.mode.value == "VALUES" and (old.values is None or _tuple_values(n.bounds)
                                     or not remaining_values(old, n.bounds)):
        _missing(a, n, f"SPLIT SUBPARTITION {n.name}: the values left to the second part are not known")
        return
    after = TableState(st.strategy, st.key, [PartitionState(p.name, subpartitions=list(p.subpartitions))],
                       st.sub_strategy, st.sub_key)
    apply_partition_change(after, with_parsed_bounds(n))
    subs = after.partitions[0].subpartitions
    news = _new_ones(subs, p.subpartitions)
    bounds = [bound_sql(a, st.sub_strategy, subs, q, len(st.sub_key)) for q in news]
    if not news or any(b is None for b in bounds):
        _missing(a, n, f"SPLIT SUBPARTITION {n.name}: its bounds are not known")
        return
    parent = table_of(a, p.name, p)
    _rebuild(a, parent, [old], [(q.name, b) for q, b in zip(news, bounds, strict=True)], None)  # type: ignore[misc]
    _done(a, n, f"SPLIT SUBPARTITION {n.name} written as DETACH / CREATE / INSERT ... SELECT / DROP")


@handles(MergePartitions)
def _merge(n: MergePartitions, a: Alter) -> None:
    st = a.state
    if st is None:
        _missing(a, n, f"MERGE PARTITIONS of {a.n.identity.dotted()}: the partitions' bounds are not known from the "
                       "stream's history")
        return
    olds = [st.find(x) for x in n.partitions]
    if not olds or any(p is None for p in olds):
        _missing(a, n, f"MERGE PARTITIONS {', '.join(n.partitions)}: not all of them are in the stream's history")
        return
    if st.strategy not in ("RANGE", "LIST") or any(p.subpartitions for p in olds):  # type: ignore[union-attr]
        a.e.diag(W_PARTITION_FORM, "MERGE PARTITIONS of a hash or subpartitioned table not translated", n.origin,
                 **a.dropped(n))
        return
    after = TableState(st.strategy, st.key, list(st.partitions))
    apply_partition_change(after, with_parsed_bounds(n))
    merged = after.find(n.into)
    bound = bound_sql(a, st.strategy, after.partitions, merged, len(st.key)) if merged is not None else None
    if bound is None:
        _missing(a, n, f"MERGE PARTITIONS into {n.into}: the merged bounds are not known")
        return
    olds.sort(key=lambda p: _index(st.partitions, p))  # type: ignore[arg-type]
    _rebuild(a, a.table, olds, [(n.into, bound)], n.into)  # type: ignore[arg-type]
    _done(a, n, f"MERGE PARTITIONS into {n.into} written as DETACH / CREATE / INSERT ... SELECT / DROP")


# ---- what the drop_unsupported pass removes ---------------------------------------------------------
def _rule(node: type, code: str, message: str, applies: Any = None, field: str | None = None) -> Rule:
    """Without ``applies``, the rule takes every such node (so the coverage check counts an unconditional drop)."""
    if applies is None:
        return Rule(node=node, code=code, message=message, field=field, absent=None)
    return Rule(node=node, code=code, message=message, applies=applies, field=field, absent=None)


def _adding(n: AddPartition | ModifyPartitionAddSubpartition) -> str:
    if isinstance(n, AddPartition):
        return f"ADD PARTITION {n.name}"
    return f"MODIFY PARTITION {n.partition} ADD SUBPARTITION {n.subpartition}"


def _alter_prefix(enclosing: tuple[Any, ...]) -> str:
    """Says a comment shows a dropped subcommand in its statement: the statement with that subcommand alone, as
    GaussDB writes it (as :meth:`Alter.dropped`); this text, ``ALTER <kind> name ``, only when it cannot be
    written."""
    stmt = enclosing[0]
    return " ".join(("ALTER", stmt.objtype.value, stmt.identity.dotted(), ""))


UNSUPPORTED: tuple[Rule, ...] = (
    _rule(MovePartition, W_TABLESPACE, "MOVE PARTITION ... TABLESPACE not replayed (GaussDB tablespace)"),
    _rule(AddPartition, W_TABLESPACE, "partition TABLESPACE not replayed", lambda n: n.tablespace is not None,
          "tablespace"),
    _rule(SubpartitionDef, W_TABLESPACE, "subpartition TABLESPACE not replayed", lambda n: n.tablespace is not None,
          "tablespace"),
    _rule(SplitPart, W_TABLESPACE, "partition TABLESPACE not replayed", lambda n: bool(n.tablespace), "tablespace"),
    _rule(MergePartitions, W_TABLESPACE, "partition TABLESPACE not replayed", lambda n: n.tablespace is not None,
          "tablespace"),
    _rule(ModifyPartitionAddSubpartition, W_TABLESPACE, "subpartition TABLESPACE not replayed",
          lambda n: n.tablespace is not None, "tablespace"),
    _rule(RemovePartitioning, W_PARTITION_FORM, "REMOVE PARTITIONING has no PostgreSQL form"),
    _rule(ResetPartition, W_PARTITION_FORM, "RESET PARTITION has no PostgreSQL form"),
    _rule(RebuildPartitions, I_PARTITION_NOOP, "REBUILD PARTITION changes no data or definition; removed"),
    # subcommands with no PostgreSQL form whatever the history (dropped; a comment shows the ALTER around them)
    *(r for cls in (AddPartition, ModifyPartitionAddSubpartition) for r in (
        Rule(cls, W_HASH_PARTITION, lambda n: f"{_adding(n)}: a hash partition changes the modulus of every partition",
             applies=lambda n: n.kind is BoundKind.HASH, prefix=_alter_prefix, last=True),
        Rule(cls, W_PARTITION_FORM, lambda n: f"{_adding(n)}: multi-column LIST partition has no PostgreSQL form",
             applies=lambda n: n.kind is BoundKind.LIST and _tuple_values(bound_texts(n.bounds, n.bound_values)),
             prefix=_alter_prefix, last=True))),
    Rule(TruncateSubpartition, W_NO_HISTORY, "TRUNCATE SUBPARTITION FOR (...): the subpartition is not resolved "
         "from values; not translated", applies=lambda n: n.name is None, prefix=_alter_prefix, last=True),
)
