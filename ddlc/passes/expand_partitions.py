"""expand_partitions: rewrite ``START/END/EVERY`` range items into ``VALUES LESS THAN`` partitions.

A faithful port of openGauss's ``transformRangePartStartEndStmt`` and its helpers
(``parse_utilcmd.cpp``; rules and worked examples in
``shared/reference/partition-start-end-every.md``). Items are walked left to right keeping the
previous END (``last_end``) and a pending single-START item; the first START of a CREATE TABLE
list adds the ``<prefix>_0`` partition that covers MINVALUE; ``EVERY`` steps from the previous
*cast* bound and clamps the last partition to END; names are ``<prefix>_<k>`` with the prefix cut
to 55 bytes. Every error is the server's own message (``DETAIL:``/``HINT:`` appended) with code
``DDLC-E008``.

Generated bounds are written GaussDB style: the type's output text single-quoted
(``VALUES LESS THAN ('201')``), ``MAXVALUE`` bare.

API: :func:`expand_spec` (a whole clause, key types by column name) and
:func:`expand_range_items` (one list of items: CREATE TABLE, ``ADD PARTITION`` or
``SPLIT PARTITION ... INTO``).

Two points where the reference and openGauss HEAD disagree; ddlc follows the reference:
numbers below 1 print with their leading zero (``0.3``; HEAD prints ``.3`` unless
``behavior_compat_options`` has ``display_leading_zero``), and timestamps after year 9999 are
accepted (HEAD's ``timestamp_in`` now rejects them; the regression file predates that check).
Values ddlc cannot know (``now``, ``today``, function calls other than literals) raise a
DDLC-E008 error saying so instead of being guessed.
"""

from __future__ import annotations

import gc
from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager

from ..records import record
from ..diagnostics import E_BUILD, E_PARTITION
from ..errors import DdlcError, PathPart
from ..ir.base import replace
from ..ir.partition import (
    BoundKind,
    BoundValue,
    LessThan,
    Partition,
    PartitionSpec,
    RangeForm,
    RangeItem,
    clip_bytes,
    truncate_identifier,
)
from ..values.partition_values import Domain, KeyType, KeyValueError, domain_for, literal

# (an enum member read once: on Python 3.11 a read through its class goes through the enum metaclass's __getattr__ hook)
_STRING, _NULL, _EXPR, _MAXVALUE = BoundKind.STRING, BoundKind.NULL, BoundKind.EXPR, BoundKind.MAXVALUE

__all__ = ["KeyType", "expand_range_items", "expand_spec", "MAX_PARTITION_NUM", "LEN_PARTITION_PREFIX"]

MAX_PARTITION_NUM = 1048575
LEN_PARTITION_PREFIX = 55
_GAP = "partition gap or overlapping is not allowed."
_HINT_MAX = "MAXVALUE can not appear in a (START, END, EVERY) clause."
_CLOCK_FUNCTIONS = {"current_date", "current_time", "current_timestamp", "localtime", "localtimestamp", "sysdate"}
_NULL_DETAIL = (
    "partition bound element must be one of: string, datetime or interval literal, number, "
    "or MAXVALUE, and not null"
)


class _MaxValue:
    def __repr__(self) -> str:
        return "MAXVALUE"


MAX = _MaxValue()


@record(slots=True)
class _Out:
    """A generated partition: name, upper bound, the item it came from, and for the ADD
    PARTITION checks its START (``curStartVal``) and the item's name (``partitionInitName``)."""

    name: str
    bound: object
    item: Partition
    start: object = None
    init_name: str | None = None


class _Steps:
    """The bounds of an integer EVERY, ``first, first+d, ...`` below ``end``, then ``end``: counted
    without being made (a list the server accepts may hold a million; the walk only needs its count)."""

    __slots__ = ("first", "step", "end", "middle")

    def __init__(self, first: int, step: int, end: int) -> None:
        self.first, self.step, self.end = first, step, end
        self.middle = range(first + step, end, step)

    def __len__(self) -> int:
        return 2 + len(self.middle)

    def __iter__(self):
        yield self.first
        yield from self.middle
        yield self.end


@record(slots=True)
class _Run:
    """The partitions of one START/END/EVERY item, ``<prefix>_1 ...``: made once the whole list is
    known to be valid (an error of a later item costs nothing for them)."""

    prefix: str
    bounds: object  # a list or _Steps
    item: Partition
    start: object
    init_name: str


def _err(message: str, hint: str | None = None) -> KeyValueError:
    return KeyValueError(message, hint=hint)


def prefix_of(name: str) -> str:
    """``get_range_partition_name_prefix``: the name cut to 55 bytes (whole characters)."""
    return clip_bytes(truncate_identifier(name), LEN_PARTITION_PREFIX)


class _Walker:
    def __init__(self, items: Sequence[Partition], dom: Domain, mode: str, low, upper, existing: int) -> None:
        self.items, self.dom, self.mode = items, dom, mode
        self.low, self.upper, self.existing = low, upper, existing
        self.out: list[_Out | _Run] = []
        self.count = 0

    # -- helpers --------------------------------------------------------------------------
    def cmp(self, a, b) -> int:
        if a is MAX or b is MAX:
            return (a is MAX) - (b is MAX)
        return self.dom.cmp(a, b)

    def cast(self, values: tuple[BoundValue, ...], *, every: bool = False):
        bv = values[0]
        return MAX if bv.kind is _MAXVALUE else self.dom.cast(bv, every=every)

    def emit(self, name: str, bound, item: Partition, start=None, init_name: str | None = None) -> None:
        self.out.append(_Out(truncate_identifier(name), bound, item, start, init_name))
        self.count += 1

    @property
    def total(self) -> int:
        return self.existing + self.count

    def made(self) -> list[_Out]:
        """Every partition, the runs of EVERY items made."""
        out: list[_Out] = []
        for o in self.out:
            if isinstance(o, _Run):
                for k, bound in enumerate(o.bounds, 1):
                    out.append(_Out(truncate_identifier(f"{o.prefix}_{k}"), bound, o.item,
                                    o.start if k == 1 else None, o.init_name if k == 1 else None))
            else:
                out.append(o)
        return out

    def continuity(self, last, start, name: str) -> None:
        if last is MAX:
            raise _err(f'partition "{name}" is not allowed behind MAXVALUE.')
        kc = self.cmp(last, start)
        if kc > 0:
            raise _err(f'start value of partition "{name}" is too low.', _GAP)
        if kc < 0:
            raise _err(f'start value of partition "{name}" is too high.', _GAP)

    def split_start(self, start, name: str) -> None:
        """SPLIT: the first START must be the split partition's lower bound."""
        if self.low is not None and self.upper is not None and self.cmp(self.low, start) != 0:
            raise _err(f'start value of partition "{name}" NOT EQUAL up-boundary of last partition.')

    def close_pending(self, pending: Partition, item: Partition, start, processed: int) -> None:
        """``add_last_single_start_partition``: the pending START item ends at ``start``."""
        if self.cmp(self.cast(pending.bound.start), start) >= 0:
            raise _err(f'start value of partition "{item.name}" is too low.', _GAP)
        if self.low is None and processed == 1:
            self.emit(prefix_of(pending.name) + "_1", start, pending)
        else:
            self.emit(pending.name, start, pending)

    # -- the walk ---------------------------------------------------------------------------
    def run(self) -> list[_Out]:
        dom, items = self.dom, self.items
        last_end = None  # END of the previous item (may be MAX); None after a single START
        start_val = end_val = None
        processed = 0
        for idx, item in enumerate(items):
            prev = items[idx - 1] if idx else None
            r: RangeItem = item.bound
            name = item.name
            if dom.integer:  # precheck_start_end_defstate
                for values in (r.start, r.end, r.every):
                    if values is not None:
                        dom.precheck(values[0], name)
            form = r.form
            if form is RangeForm.START_END_EVERY:
                s, e, d = self.cast(r.start), self.cast(r.end), self.cast(r.every, every=True)
                if MAX in (s, e, d):
                    raise _err(f'partition "{name}" is invalid.', _HINT_MAX)
                if self.cmp(s, e) >= 0:
                    raise _err(f'start value must be less than end value for partition "{name}".')
                if last_end is not None:
                    self.continuity(last_end, s, name)
                else:
                    if prev is not None:
                        self.close_pending(prev, item, s, processed)
                    elif self.low is None:
                        self.emit(prefix_of(name) + "_0", s, item)
                    else:
                        self.split_start(s, name)
                bounds = self.divide(name, s, e, d, r.every[0])
                self.out.append(_Run(prefix_of(name), bounds, item, s, name))
                self.count += len(bounds)
                last_end, start_val, end_val = e, s, e
            elif form is RangeForm.START_END:
                s, e = self.cast(r.start), self.cast(r.end)
                if s is MAX:
                    raise _err(f'start value can not be MAXVALUE for partition "{name}".')
                if self.cmp(s, e) >= 0:
                    raise _err(f'start value must be less than end value for partition "{name}".')
                if last_end is not None:
                    self.continuity(last_end, s, name)
                    self.emit(name, e, item)
                elif prev is not None:
                    self.close_pending(prev, item, s, processed)
                    self.emit(name, e, item)
                elif self.low is None:
                    self.emit(prefix_of(name) + "_0", s, item)
                    self.emit(prefix_of(name) + "_1", e, item)
                else:
                    self.split_start(s, name)
                    self.emit(name, e, item, start=s)
                last_end, start_val, end_val = e, s, e
            elif form is RangeForm.START:
                s = self.cast(r.start)
                if s is MAX:
                    raise _err(f'start value can not be MAXVALUE for partition "{name}".')
                if last_end is not None:
                    self.continuity(last_end, s, name)
                elif prev is not None:
                    self.close_pending(prev, item, s, processed)
                elif self.low is None:
                    self.emit(prefix_of(name) + "_0", s, item)
                else:
                    self.split_start(s, name)
                last_end, start_val = None, s
            else:  # a single END
                e = self.cast(r.end)
                if last_end is not None:
                    if last_end is MAX:
                        raise _err(f'partition "{name}" is not allowed behind MAXVALUE.')
                    if self.cmp(last_end, e) >= 0:
                        raise _err(f'end value of partition "{name}" is too low.', _GAP)
                elif prev is not None:
                    raise _err(f'partition "{name}" is an invalid definition clause.',
                               "Do not use a single END after a single START.")
                elif self.low is not None and self.cmp(self.low, e) >= 0:
                    raise _err(f'end value of partition "{name}" MUST be greater than up-boundary of last partition.')
                self.emit(name, e, item)
                last_end, start_val, end_val = e, None, e
            if self.total >= MAX_PARTITION_NUM:
                if self.total == MAX_PARTITION_NUM and idx == len(items) - 1:
                    break
                raise self.too_many(name)
            processed += 1
        self.finish(items[-1], processed, start_val, end_val)
        return self.out

    def finish(self, last: Partition, processed: int, start_val, end_val) -> None:
        if last.bound.end is None:  # a trailing single START runs up to MAXVALUE (or the split's end)
            if self.upper is None:
                bound = MAX
            else:
                if self.cmp(self.upper, start_val) <= 0:
                    raise _err(f'start value of partition "{last.name}" MUST be less than up-boundary of '
                               "the partition to be splitted.")
                bound = self.upper
            if self.low is None and processed == 1:
                self.emit(prefix_of(last.name) + "_1", bound, last)
            else:
                self.emit(last.name, bound, last, start=self.raw_start(last))
        elif self.upper is not None and self.cmp(self.upper, end_val) != 0:
            raise _err(f'end value of partition "{last.name}" NOT EQUAL up-boundary of the partition to be splitted.')
        if self.total > MAX_PARTITION_NUM:
            raise self.too_many(last.name)
        first_dup = self.first_duplicate()
        if first_dup is not None:
            raise _err(f'duplicate partition name: "{first_dup}".',
                       'partitions defined by (START, END, EVERY) are named as "partitionName_x" where x is '
                       "an integer and starts from 0 or 1.")
        self.out = self.made()  # the list is valid: its partitions are made

    def first_duplicate(self) -> str | None:
        """The name given twice whose first partition comes first, without making the runs' names: a
        run ``P_1 .. P_n`` meets a plain name ``X`` when ``X`` is ``P_k`` with ``1 <= k <= n``, and
        another run of the same prefix at ``P_1``."""
        plain: dict[str, list[int]] = {}
        runs: list[tuple[int, _Run]] = []
        i = 0
        for o in self.out:
            if isinstance(o, _Run):
                runs.append((i, o))
                i += len(o.bounds)
            else:
                plain.setdefault(o.name, []).append(i)
                i += 1
        best: tuple[int, str] | None = None

        def found(first: int, name: str) -> None:
            nonlocal best
            if best is None or first < best[0]:
                best = (first, name)

        for name, where in plain.items():
            if len(where) > 1:
                found(where[0], name)
        by_prefix: dict[str, list[int]] = {}
        for b, r in runs:
            by_prefix.setdefault(r.prefix, []).append(b)
            head = r.prefix + "_"
            for name, where in plain.items():
                k = name[len(head):] if name.startswith(head) else ""
                if k.isascii() and k.isdigit() and k[0] != "0" and len(k) <= 7 and int(k) <= len(r.bounds):
                    found(min(where[0], b + int(k) - 1), name)
        for prefix, starts in by_prefix.items():
            if len(starts) > 1:
                found(min(starts), prefix + "_1")
        return None if best is None else best[1]

    def raw_start(self, item: Partition):
        """The START of a trailing item as written (``curStartVal`` of ADD PARTITION)."""
        bv = item.bound.start[0]
        raw = getattr(self.dom, "raw", None)
        return raw(bv) if raw is not None and literal(bv)[0] != "typed" else self.cast(item.bound.start)

    @staticmethod
    def too_many(name: str) -> KeyValueError:
        return _err(f'too many partitions after split partition "{name}".',
                    f"number of partitions can not be more than {MAX_PARTITION_NUM}, MINVALUE will be "
                    "auto-included if not assigned.")

    def divide(self, name: str, s, e, d, every: BoundValue) -> list:
        """``DividePartitionStartEndInterval``: the bounds s+d, s+2d, ... clamped to e."""
        dom = self.dom
        max_num = MAX_PARTITION_NUM - self.total
        dom.check_invalid(s, e, d, name)
        if not dom.fits(s, e, d):
            raise _err(f'partition step is too big for partition "{name}".')
        result, cur = [], s
        while True:
            if len(result) >= max_num:
                raise self.too_many(name)
            pnt = dom.add(cur, d) if dom.fits(cur, e, d) else e
            if not result:
                if dom.checks_ambiguity and dom.ambiguous(s, pnt, every):
                    raise _err(f'ambiguous partition rule is raised by EVERY parameter in partition "{name}".')
                if self.cmp(pnt, s) <= 0:
                    raise _err(f'partition step is too small for partition "{name}".')
                # bounded work: a list the server refuses as too many is refused without stepping through it
                if self.cmp(pnt, e) < 0 and 1 + dom.at_least(pnt, e, d) > max_num:
                    raise self.too_many(name)
                if dom.integer and pnt != e:  # the rest is plain arithmetic: no need to loop
                    more = max(0, -(-(e - pnt - d) // d))  # bounds strictly between pnt and e
                    if more + 2 > max_num:
                        raise self.too_many(name)
                    return _Steps(pnt, d, e)
            result.append(pnt)
            if self.cmp(pnt, e) == 0:
                return result
            cur = pnt


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Up to a million partitions are built in one go: the cyclic collector would rescan the
    growing list again and again (it doubles the time), and none of these objects form cycles."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _fail(exc: KeyValueError, path: Sequence[PathPart]) -> DdlcError:
    return DdlcError(exc.text, code=E_PARTITION, path=path)


def _values_of(item: Partition) -> list[tuple[BoundValue, ...]]:
    r = item.bound
    return [v for v in (r.start, r.end, r.every) if v is not None]


def _check_constants(items: Sequence[Partition], compat: str) -> None:
    """Errors of the bound transformation, before any START/END logic: NULL and ``''`` (NULL in
    A compatibility), names that are not constants, expressions ddlc cannot evaluate."""
    for item in items:
        for values in _values_of(item):
            for bv in values:
                empty = compat == "A" and bv.kind is _STRING and bv.value == ""
                if bv.kind is _NULL or empty:
                    raise KeyValueError("Partition key value can not be null", detail=_NULL_DETAIL)
                if bv.kind is _EXPR:
                    text = bv.text.strip()
                    if text.lower() in _CLOCK_FUNCTIONS:
                        raise KeyValueError(f'ddlc cannot evaluate "{text}": it depends on the current time')
                    if text.startswith('"') or text.replace("_", "a").replace("$", "a").isalnum():
                        column = text.strip('"').replace('""', '"') if text.startswith('"') else text.lower()
                        raise KeyValueError(f'column "{column}" does not exist')
                    raise KeyValueError(
                        f"ddlc cannot evaluate the partition bound expression {text}; write the value as a literal"
                    )


def expand_range_items(
    partitions: tuple[Partition, ...],
    key: KeyType,
    *,
    mode: str = "create",
    low_bound: BoundValue | None = None,
    split_upper: BoundValue | None = None,
    timezone: str = "UTC",
    path: Sequence[PathPart] = (),
    column: str = "",
    existing_count: int = 0,
    existing_names: Collection[str] = (),
    compat: str = "A",
) -> tuple[Partition, ...]:
    """Expand one list of START/END items of a single-column range key of type ``key``.

    ``mode``: ``"create"`` (CREATE TABLE), ``"add"`` (ALTER TABLE ADD PARTITION: ``low_bound`` is
    the upper bound of the current last partition, ``existing_count``/``existing_names`` describe
    the partitions already there) or ``"split"`` (SPLIT PARTITION ... INTO: ``low_bound`` and
    ``split_upper`` are the bounds of the partition being split, ``low_bound`` None for the
    left-most one). ``timezone`` is the session time zone (``timestamptz`` keys), ``compat`` the
    database compatibility (``"A"``: ``''`` is NULL, a bare interval number means days, DATE
    literals are ``timestamp(0)``). A list of ``VALUES LESS THAN`` partitions comes back unchanged.
    """
    if not partitions or not any(isinstance(p.bound, RangeItem) for p in partitions):
        return partitions
    if not all(isinstance(p.bound, RangeItem) for p in partitions):
        raise DdlcError("START/END items cannot be mixed with VALUES LESS THAN items", code=E_BUILD, path=path)
    if mode not in ("create", "add", "split"):
        raise ValueError(f"unknown mode {mode!r}")
    try:
        _check_constants(partitions, compat)
        if mode == "add" and existing_count >= MAX_PARTITION_NUM:
            raise KeyValueError("the current relation have already reached max number of partitions")
        for p in partitions:
            if any(len(v) != 1 for v in _values_of(p)):
                raise KeyValueError(f'too many partition keys for partition "{p.name}".',
                                    hint="only one partition key is allowed in start/end clause.")
        last_seen = {p.name: i for i, p in enumerate(partitions)}
        for i, p in enumerate(partitions):  # the first item whose name comes again later
            if last_seen[p.name] > i:
                raise KeyValueError(f'duplicate partition name: "{p.name}"')
        dom = domain_for(key, column=column, timezone=timezone, compat=compat)
        low = None if low_bound is None else (MAX if low_bound.is_maxvalue else dom.cast(low_bound))
        upper = None
        if mode == "split" and split_upper is not None:
            upper = MAX if split_upper.is_maxvalue else dom.cast(split_upper)
        if mode == "add" and low is None:
            raise ValueError("ADD PARTITION needs low_bound (the upper bound of the last partition)")
        walker = _Walker(partitions, dom, mode, low, upper, existing_count)
        with _gc_paused():
            out = walker.run()
            if mode == "add":
                _check_add(walker, out, low, existing_names)
            return tuple(_node(o, dom) for o in out)
    except KeyValueError as exc:
        raise _fail(exc, path) from None


def _check_add(walker: _Walker, out: list[_Out], low, existing_names: Collection[str]) -> None:
    """The execution-time checks of ADD PARTITION (``tablecmds.cpp``)."""
    existing = set(existing_names)
    for o in out:
        if o.name in existing:
            raise KeyValueError(f'The partition name "{o.name}" is duplicated with existing partition name')
    for o in out:
        if low is not MAX and o.start is not None and walker.cmp(low, o.start) != 0:
            raise KeyValueError(
                f'start value of partition "{o.init_name or o.name}" NOT EQUAL up-boundary of last partition.'
            )
        if low is MAX or (o.bound is not MAX and walker.cmp(o.bound, low) < 0):
            raise KeyValueError("upper boundary of adding partition MUST overtop last existing partition")


def _node(o: _Out, dom: Domain) -> Partition:
    item = o.item
    if o.bound is MAX:
        bv = BoundValue.maxvalue(origin=item.origin)
    else:
        bv = BoundValue.quoted(dom.text(o.bound), origin=item.origin)
    return Partition(
        name=o.name,
        bound=LessThan(values=(bv,), origin=item.origin),
        tablespace=item.tablespace,
        tablespace_text=item.tablespace_text,
        origin=item.origin,
    )


def expand_spec(
    spec: PartitionSpec,
    key_types: Mapping[str, KeyType],
    *,
    path: Sequence[PathPart] = (),
    timezone: str = "UTC",
    compat: str = "A",
) -> PartitionSpec:
    """Expand the START/END items of a CREATE TABLE clause (no-op when it has none).

    ``key_types`` maps column names (as the catalog spells them) to their types.
    """
    if not spec.has_range_items:
        return spec
    try:
        _check_constants(spec.partitions, compat)
        if len(spec.key) != 1:
            raise KeyValueError("partitioned table has too many partition keys.",
                                hint="start/end syntax requires a partitioned table with only one partition key.")
    except KeyValueError as exc:
        raise _fail(exc, path) from None
    column = spec.key[0]
    key = key_types.get(column)
    if key is None:
        lowered = {k.lower(): v for k, v in key_types.items()}
        key = lowered.get(column.lower())
    if key is None:
        raise DdlcError(f'column "{column}" named in partition key does not exist', code=E_PARTITION, path=path)
    parts = expand_range_items(spec.partitions, key, path=path, column=column, timezone=timezone, compat=compat)
    return replace(spec, partitions=parts)


# ---- the pass over statements -----------------------------------------------------------------

def expand_partitions(stmt, ctx):
    """Pass: rewrite START/END/EVERY range partitions of a CREATE TABLE into VALUES LESS THAN
    partitions, exactly as the database does (the key column's type comes from the table)."""
    clause = getattr(stmt, "partition", None)
    spec = getattr(clause, "spec", None)
    if spec is None or not spec.has_range_items or type(stmt).__name__ != "CreateTable":
        return stmt, []
    from ..diagnostics import Diagnostic
    from ..ir.base import replace as _replace

    key_types = {c.name: KeyType(c.type.name, c.type.typmod) for c in stmt.columns if c.type is not None}
    expanded = expand_spec(spec, key_types, path=clause.origin)
    # the clause's text no longer matches the spec: cleared, so the GaussDB target renders the spec
    out = _replace(stmt, partition=_replace(clause, spec=expanded, text=None))
    n = len(expanded.partitions)
    return out, [Diagnostic(I_EXPANDED, f"START/END/EVERY expanded into {n} partition(s)", clause.origin,
                            pass_name="expand_partitions", document=ctx.document)]


def _register_codes():
    from ..diagnostics import Severity, register

    return register(
        "DDLC-I501", Severity.INFO, "START/END/EVERY partitions expanded",
        "Range partitions written with START/END/EVERY were rewritten into VALUES LESS THAN partitions "
        "exactly as GaussDB does (names with _0/_1... suffixes, bounds stepped from the previous rounded "
        "bound, every bound quoted GaussDB style).",
        "PARTITION p1 START(1) END(1000) EVERY(200) -> PARTITION p1_0 VALUES LESS THAN ('1'), ...",
    )


I_EXPANDED = _register_codes()
