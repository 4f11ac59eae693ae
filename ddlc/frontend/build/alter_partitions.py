"""ALTER subcommand readers: the shared reading helpers, and the partition subcommands (§5.2).

Every reader is registered for its ``type`` metadata with the set of ``fmt`` texts the deparser
can produce for it, in a small pattern language: literal text, ``[x]`` optional, ``{x|y}`` one of,
``x|y`` at the top level, ``<x>`` one or more (``%{name}X`` placeholders are literal). A subcommand
whose ``fmt`` is not in its set, or whose keyword-valued member is outside its vocabulary, is
*unmodelled*: the ALTER builder keeps it as an :class:`~ddlc.ir.alter.OpaqueSubcommand`
(DDLC-N201), never guessing. Members of the wrong JSON type are input errors (with their path).
"""

from __future__ import annotations

import re

from ... import lazyre
from collections.abc import Callable
from typing import Any

from ...diagnostics import Severity, register
from ...ir.alter import AlterSubcommand
from ...ir.alter_partitions import (
    AddPartition, AnalyzePartitions, BoundKind, DropPartition, ExchangePartition, MergePartitions,
    ModifyPartitionAddSubpartition, MovePartition, PartitionLevel, RebuildPartitions, RemovePartitioning,
    ResetPartition, SplitMode, SplitPart, SplitPartition, SplitSubpartition, SubpartitionDef,
    TruncatePartition, TruncateSubpartition,
)
from ...errors import DdlcError, Path
from ...ir.partition import BoundValue
from ..sql.partition import parse_bound_value
from ._read import Obj

W_SPLIT_TBLSPC = register(
    "DDLC-W203", Severity.WARNING, "SPLIT target tablespace written without TABLESPACE",
    "In the two-partition form of SPLIT PARTITION ... AT (...) INTO (...) (and SPLIT SUBPARTITION in "
    "openGauss 6.0.0/6.0.1) the deparser prints a target's tablespace without the TABLESPACE keyword "
    "(jddl-shapes.md §10.7), so the replayed text `PARTITION p9a ts1` is not valid SQL.",
    '"split_list": {"fmt": "PARTITION %{name1}s %{tblspc1}s, ...", "tblspc1": "ts1", ...}',
)
W_SPLIT_EMPTY_TBLSPC = register(
    "DDLC-W204", Severity.WARNING, "SPLIT SUBPARTITION prints TABLESPACE without a name",
    "SPLIT SUBPARTITION always prints `TABLESPACE %{tblspcN}s`; a target without a tablespace gives "
    "`SUBPARTITION s1 TABLESPACE ,` (jddl-shapes.md §10.7), which is not valid SQL.",
    '"define_list": {"fmt": "SUBPARTITION %{name1}s TABLESPACE %{tblspc1}s, ...", "tblspc1": ""}',
)
W_BOUND_QUOTE = register(
    "DDLC-W205", Severity.WARNING, "Partition bound with an unescaped quote",
    "Partition bound values of string types are wrapped in single quotes without escaping embedded "
    "quotes (jddl-shapes.md §3.8, §10.12): a value such as `it's` arrives as `'it's'`, which does not "
    "parse (or means something else) when replayed.",
    '"maxvalues": ["\'it\'s\'"]',
)
W_ADD_SUBPART_REPEAT = register(
    "DDLC-W206", Severity.WARNING, "MODIFY PARTITION ADD SUBPARTITION with several subpartitions",
    "With several subpartitions the deparser appends every subpartition's fragments to one element "
    "whose keys can hold only one value, and repeats that element in `subcmds` (jddl-shapes.md §10.9): "
    "the replayed text adds the first subpartition several times and loses the others.",
)
W_BOUND_GARBLED = register(
    "DDLC-W207", Severity.WARNING, "Garbled multi-column list bound",
    "Multi-column LIST bounds taken from statement constants (ADD/SPLIT SUBPARTITION) are garbled by "
    "the deparser: the wrong list cell is read and the opening `(` is missing (jddl-shapes.md §10.10).",
    '"maxvalues": ["1,1)"]',
)
W_SPLIT_FOR_AT = register(
    "DDLC-W208", Severity.WARNING, "SPLIT PARTITION FOR (...) AT (...) repeats the FOR values",
    "Both clauses of SPLIT PARTITION FOR (...) AT (...) read the member `maxvalues`, so the AT clause "
    "prints the FOR values instead of the split point (jddl-shapes.md §10.8).",
)


# ---- shared reading helpers -------------------------------------------------------------------
class Unmodelled(Exception):
    """A subcommand ddlc does not model exactly; the caller keeps it as opaque text."""

    def __init__(self, reason: str, path: Path) -> None:
        super().__init__(reason)
        self.reason = reason
        self.path = path


_OPS = {"[": "(?:", "]": ")?", "{": "(?:", "}": ")", "<": "(?:", ">": ")+", "|": "|"}


def compile_fmts(spec: str) -> re.Pattern[str]:
    """``[x]`` optional, ``{x|y}`` one of, ``<x>`` one or more, ``|`` or; ``%{name}X`` is literal.
    (Compiled on first use.)"""
    out, in_placeholder, prev = [], False, ""
    for ch in spec:
        if in_placeholder:
            out.append(re.escape(ch))
            in_placeholder = ch != "}"
        elif ch == "{" and prev == "%":
            out.append(re.escape(ch))
            in_placeholder = True
        else:
            out.append(_OPS.get(ch) or re.escape(ch))
        prev = ch
    return lazyre.compile("(?:" + "".join(out) + ")")


def placeholders(fmt: str) -> set[str]:
    """The member names a fmt refers to."""
    out = set()
    i = fmt.find("%{")
    while i >= 0:
        j = fmt.find("}", i)
        if j < 0:
            break
        out.add(fmt[i + 2 : j].split(":", 1)[0])
        i = fmt.find("%{", j)
    return out


Reader = Callable[[Obj, str], AlterSubcommand]
READERS: dict[str, tuple[re.Pattern[str], Reader]] = {}
UNTYPED: list[tuple[re.Pattern[str], Reader]] = []  # subcommands without a ``type`` key
SPECS: list[tuple[tuple[str, ...], str]] = []  # (types, fmt pattern) of every reader, in registration order


def reader(*types: str, fmt: str) -> Callable[[Reader], Reader]:
    """Register ``fn`` for ``types`` (none: an untyped subcommand) and the fmts of ``fmt``."""
    rx = compile_fmts(fmt)
    SPECS.append((types, fmt))

    def deco(fn: Reader) -> Reader:
        if not types:
            UNTYPED.append((rx, fn))
        for t in types:
            if t in READERS:
                raise ValueError(f"subcommand type {t!r} registered twice")
            READERS[t] = (rx, fn)
        return fn

    return deco


def word(o: Obj, key: str, *words: str) -> str:
    """A keyword member: one of ``words`` (``""`` included only if listed)."""
    v = o.raw(key)
    if not isinstance(v, str):
        raise o.ctx.error(f'element "{key}" must be a string', o.at(key))
    if v not in words:
        raise Unmodelled(f'{key} {v!r} is not one of {", ".join(repr(w) for w in words)}', o.at(key))
    return v


def flag(o: Obj, key: str, w: str) -> bool:
    """``""`` or ``w`` as a bool (the key may be absent: False)."""
    return o.has(key) and word(o, key, "", w) == w


def text(o: Obj, key: str) -> str | None:
    """An optional string member, kept verbatim (``""`` stays ``""``); None when absent."""
    v = o.raw(key, None)
    if v is not None and not isinstance(v, str):
        raise o.ctx.error(f'element "{key}" must be a string', o.at(key))
    return v


def clause(o: Obj, key: str, *fmts: str) -> Obj | None:
    """A nested clause object with one of ``fmts``; None when absent or ``present: false``."""
    c = o.opt_obj(key)
    if c is not None and c.fmt not in fmts:
        raise Unmodelled(f"{key} has fmt {c.fmt!r}", c.at("fmt"))
    return c


def number(o: Obj, key: str) -> int | float:
    v = o.raw(key)
    if isinstance(v, bool) or not isinstance(v, int | float):
        raise o.ctx.error(f'element "{key}" must be a number', o.at(key))
    return v


def names(o: Obj, key: str) -> tuple[str, ...]:
    v = o.raw(key, [])
    if not isinstance(v, list):
        raise o.ctx.error(f'element "{key}" must be an array', o.at(key))
    for i, e in enumerate(v):
        if not isinstance(e, str):
            raise Unmodelled(f"{key}[{i}] is not a string", o.at(key) + (i,))
    return tuple(v)


def objects(o: Obj, key: str) -> list[Obj]:
    v = o.raw(key, [])
    if not isinstance(v, list):
        raise o.ctx.error(f'element "{key}" must be an array', o.at(key))
    out = []
    for i, e in enumerate(v):
        if not isinstance(e, dict):
            raise Unmodelled(f"{key}[{i}] is not an object", o.at(key) + (i,))
        if e.get("present", True) is not False:
            out.append(Obj(e, o.at(key) + (i,), o.ctx))
    return out


def bound_defect(s: str) -> str | None:
    """Why a bound string does not lex as SQL (§3.8): an unescaped quote or a missing ``(``."""
    i, n, depth = 0, len(s), 0
    while i < n:
        c = s[i]
        if c == "'":
            j = i + 1
            while True:
                k = s.find("'", j)
                if k < 0:
                    return "quote"
                if s.startswith("''", k):
                    j = k + 2
                    continue
                break
            if k + 1 < n and (s[k + 1].isalnum() or s[k + 1] == "_"):
                return "quote"
            i = k + 1
            continue
        depth += (c == "(") - (c == ")")
        if depth < 0:
            return "paren"
        i += 1
    return None


def bounds(o: Obj, key: str) -> tuple[str, ...]:
    """Boundary values (§3.8), verbatim; defective ones are reported."""
    values = names(o, key)
    for i, s in enumerate(values):
        why = bound_defect(s)
        if why == "quote":
            o.ctx.diag(W_BOUND_QUOTE, f"bound value {s} has an unescaped quote", o.at(key) + (i,))
        elif why == "paren":
            o.ctx.diag(W_BOUND_GARBLED, f"bound value {s} is garbled (unbalanced parentheses)",
                       o.at(key) + (i,))
    return values


def parsed(o: Obj, key: str, texts: tuple[str, ...]) -> tuple[BoundValue | None, ...]:
    """The bound texts read from ``key`` parsed, once (the nodes' ``bound_values``); None for a text that
    does not parse (kept as written)."""
    out: list[BoundValue | None] = []
    for i, s in enumerate(texts):
        try:
            out.append(parse_bound_value(s, path=o.at(key) + (i,)))
        except DdlcError:
            out.append(None)
    return tuple(out)


def bound_kind(fmt: str) -> BoundKind:
    if "VALUES LESS THAN (" in fmt:
        return BoundKind.RANGE
    return BoundKind.LIST if "VALUES (" in fmt else BoundKind.HASH


def _target(o: Obj, key: str) -> tuple[str | None, tuple[str, ...]]:
    """A partition named by ``key`` or, in the ``FOR (...)`` form, by its bound values."""
    if " FOR (%{maxvalues" in o.fmt:
        return None, bounds(o, "maxvalues")
    return o.str(key), ()


def _ugi(o: Obj) -> bool:
    return o.fmt.endswith(" UPDATE GLOBAL INDEX")


def _kw(o: Obj) -> dict[str, Any]:
    return {"layout": o.fmt, "origin": o.path}


# ---- partition subcommands -------------------------------------------------------------------
_TS = "[ TABLESPACE %{tblspc}s]"
_VALS = "[ VALUES LESS THAN (%{maxvalues:, }s)| VALUES (%{maxvalues:, }s)]"
_SUB_FMT = compile_fmts("SUBPARTITION %{name}I[ VALUES LESS THAN (%{maxvalue:, }s)| VALUES (%{maxvalue:, }s)]" + _TS)


@reader("add partition", fmt="ADD PARTITION %{name}I" + _VALS + _TS + "[ (%{subpartitions:, }s)]")
def _add_partition(o: Obj, t: str) -> AddPartition:
    subs = []
    for s in objects(o, "subpartitions"):
        if not _SUB_FMT.fullmatch(s.fmt):
            raise Unmodelled(f"subpartition fmt {s.fmt!r}", s.at("fmt"))
        sb = bounds(s, "maxvalue")
        subs.append(SubpartitionDef(s.str("name"), bound_kind(s.fmt), sb, text(s, "tblspc"),
                                    parsed(s, "maxvalue", sb), layout=s.fmt, origin=s.path))
    b = bounds(o, "maxvalues")
    return AddPartition(o.str("name"), bound_kind(o.fmt), b, text(o, "tblspc"), tuple(subs),
                        parsed(o, "maxvalues", b), **_kw(o))


@reader("modify partition add subpartition",
        fmt="MODIFY PARTITION %{name}I< ADD SUBPARTITION %{subpart}I" + _VALS + _TS + ">")
def _modify_add_subpartition(o: Obj, t: str) -> ModifyPartitionAddSubpartition:
    if o.fmt.count(" ADD SUBPARTITION ") > 1:
        o.ctx.diag(W_ADD_SUBPART_REPEAT, "several subpartitions folded into one element: only the first "
                   "is replayed, repeatedly", o.at("fmt"))
    b = bounds(o, "maxvalues")
    return ModifyPartitionAddSubpartition(o.str("name"), o.str("subpart"), bound_kind(o.fmt), b, text(o, "tblspc"),
                                          parsed(o, "maxvalues", b), **_kw(o))


@reader("drop partition",
        fmt="DROP {PARTITION|SUBPARTITION}[ %{name}I| FOR (%{maxvalues:, }s)][ UPDATE GLOBAL INDEX]")
def _drop_partition(o: Obj, t: str) -> DropPartition:
    level = PartitionLevel.SUBPARTITION if o.fmt.startswith("DROP SUBPARTITION") else PartitionLevel.PARTITION
    if "%{name}I" in o.fmt:
        name, values = o.str("name"), ()
    elif "%{maxvalues" in o.fmt:
        name, values = None, bounds(o, "maxvalues")
    else:
        raise Unmodelled("DROP PARTITION names no partition", o.at("fmt"))
    return DropPartition(level, name, values, _ugi(o), parsed(o, "maxvalues", values), **_kw(o))


@reader("move partition", fmt="MOVE PARTITION {%{partition}I|FOR (%{maxvalues:, }s)} TABLESPACE %{tblspc}s")
def _move_partition(o: Obj, t: str) -> MovePartition:
    name, values = _target(o, "partition")
    return MovePartition(o.str("tblspc"), name, values, parsed(o, "maxvalues", values), **_kw(o))


@reader("truncate partition",
        fmt="TRUNCATE PARTITION {%{partition}s|FOR (%{maxvalues:, }s)}[ UPDATE GLOBAL INDEX]")
def _truncate_partition(o: Obj, t: str) -> TruncatePartition:
    name, values = _target(o, "partition")
    return TruncatePartition(name, values, _ugi(o), parsed(o, "maxvalues", values), **_kw(o))


@reader("truncate subpartition",
        fmt="TRUNCATE SUBPARTITION {%{partition}s|FOR (%{maxvalues:, }s)} %{gpi}s")
def _truncate_subpartition(o: Obj, t: str) -> TruncateSubpartition:
    name, values = _target(o, "partition")
    return TruncateSubpartition(name, values, flag(o, "gpi", "UPDATE GLOBAL INDEX"), parsed(o, "maxvalues", values),
                                **_kw(o))


@reader("exchange partition",
        fmt="EXCHANGE %{issub}s {(%{partition}I)|FOR (%{maxvalues:, }s)} WITH TABLE %{exchange_tbl}D"
            "[ WITHOUT VALIDATION][ VERBOSE][ UPDATE GLOBAL INDEX]")
def _exchange_partition(o: Obj, t: str) -> ExchangePartition:
    if "%{partition}I" in o.fmt:
        name, values = o.str("partition"), ()
    elif "%{maxvalues" in o.fmt:
        name, values = None, bounds(o, "maxvalues")
    else:
        raise Unmodelled("EXCHANGE names no partition", o.at("fmt"))
    level = PartitionLevel(word(o, "issub", "PARTITION", "SUBPARTITION"))
    return ExchangePartition(o.qname("exchange_tbl"), name, values, level, " WITHOUT VALIDATION" in o.fmt,
                             " VERBOSE" in o.fmt, _ugi(o), parsed(o, "maxvalues", values), **_kw(o))


@reader("merge partition",
        fmt="MERGE PARTITIONS %{name_list:, }s INTO PARTITION %{partition}s" + _TS + "[ UPDATE GLOBAL INDEX]")
def _merge_partitions(o: Obj, t: str) -> MergePartitions:
    return MergePartitions(names(o, "name_list"), o.str("partition"), text(o, "tblspc"), _ugi(o), **_kw(o))


_PAIR = ("name1", "tblspc1", "name2", "tblspc2")
_SPLIT_LIST = ("PARTITION %{name1}s %{tblspc1}s, PARTITION %{name2}s %{tblspc2}s",)
_DEFINE_LIST = ("SUBPARTITION %{name1}s TABLESPACE %{tblspc1}s, SUBPARTITION %{name2}s TABLESPACE %{tblspc2}s",
                "SUBPARTITION %{name1}s %{tblspc1}s, SUBPARTITION %{name2}s %{tblspc2}s")


def _pair(o: Obj, key: str, fmts: tuple[str, ...]) -> tuple[tuple[SplitPart, ...], str | None]:
    """The two targets of ``split_list``/``define_list`` (tablespaces always present, ``""`` = none)."""
    c = clause(o, key, *fmts)
    if c is None:
        return (), None
    n1, t1, n2, t2 = (c.str(k) for k in _PAIR)
    with_kw = "TABLESPACE %{tblspc1}s" in c.fmt
    for i, ts in ((1, t1), (2, t2)):
        if ts and not with_kw:
            o.ctx.diag(W_SPLIT_TBLSPC, f"tablespace {ts!r} of split target {i} is printed without TABLESPACE",
                       c.at(f"tblspc{i}"))
        elif not ts and with_kw:
            o.ctx.diag(W_SPLIT_EMPTY_TBLSPC, f"split target {i} has no tablespace: `TABLESPACE ,` is printed",
                       c.at(f"tblspc{i}"))
    parts = (SplitPart(n1, (), t1 or None, origin=c.path), SplitPart(n2, (), t2 or None, origin=c.path))
    return parts, c.fmt


_PARTLIST_FMT = compile_fmts("PARTITION %{partname}s[ VALUES LESS THAN (%{maxvalues:, }s)]" + _TS)


@reader("split partition",
        fmt="SPLIT PARTITION[ %{partition}s| FOR (%{maxvalues:, }s)][ AT (%{maxvalues:, }s)]"
            "[ INTO (%{split_list}s)| INTO (%{partlist:, }s)][ UPDATE GLOBAL INDEX]")
def _split_partition(o: Obj, t: str) -> SplitPartition:
    has_for, has_at = " FOR (%{maxvalues" in o.fmt, " AT (%{maxvalues" in o.fmt
    values = bounds(o, "maxvalues") if has_for or has_at else ()
    name = o.str("partition") if "%{partition}s" in o.fmt else None
    if has_for and has_at:
        o.ctx.diag(W_SPLIT_FOR_AT, "AT (...) repeats the FOR (...) values", o.at("maxvalues"))
    if "%{split_list}s" in o.fmt:
        parts, list_layout = _pair(o, "split_list", _SPLIT_LIST)
    else:
        parts, list_layout = [], None
        for p in objects(o, "partlist"):
            if not _PARTLIST_FMT.fullmatch(p.fmt):
                raise Unmodelled(f"partlist element fmt {p.fmt!r}", p.at("fmt"))
            pb = bounds(p, "maxvalues")
            parts.append(SplitPart(p.str("partname"), pb, text(p, "tblspc"), parsed(p, "maxvalues", pb),
                                   layout=p.fmt, origin=p.path))
    return SplitPartition(tuple(parts), name, values if has_for else (), values if has_at else None, _ugi(o),
                          parsed(o, "maxvalues", values), list_layout=list_layout, **_kw(o))


@reader("split subpartition",
        fmt="SPLIT SUBPARTITION %{name}s[ VALUES (%{maxvalues:, }s)| AT (%{maxvalues:, }s)]"
            "[ INTO (%{define_list}s)][ UPDATE GLOBAL INDEX]")
def _split_subpartition(o: Obj, t: str) -> SplitSubpartition:
    mode = SplitMode.AT if " AT (" in o.fmt else SplitMode.VALUES
    parts, list_layout = _pair(o, "define_list", _DEFINE_LIST)
    b = bounds(o, "maxvalues")
    return SplitSubpartition(o.str("name"), mode, b, parts, _ugi(o), parsed(o, "maxvalues", b),
                             list_layout=list_layout, **_kw(o))


@reader("reset partition", fmt="RESET PARTITION")
def _reset_partition(o: Obj, t: str) -> ResetPartition:
    return ResetPartition(**_kw(o))


@reader("remove partitioning",
        fmt="REMOVE PARTITIONING|REBUILD PARTITION ALL|REBUILD PARTITION %{partition_list:, }s")
def _remove_partitioning(o: Obj, t: str) -> AlterSubcommand:
    if o.fmt == "REMOVE PARTITIONING":
        return RemovePartitioning(**_kw(o))
    if o.fmt == "REBUILD PARTITION ALL":
        return RebuildPartitions((), True, **_kw(o))
    return RebuildPartitions(names(o, "partition_list"), **_kw(o))


@reader("analyze partitioning", fmt="ANALYZE PARTITION %{partition_list:, }s")
def _analyze_partitions(o: Obj, t: str) -> AnalyzePartitions:
    return AnalyzePartitions(names(o, "partition_list"), **_kw(o))
