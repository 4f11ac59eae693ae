"""Builders: CREATE TABLE (reference §5.1; GaussDB variant §9; pre-release shape §11), with its
column and constraint elements (§3.3, §3.4), WITH options (§3.5) and partition clause.

Only what a ``fmt`` references is read: the IR is what the tree renders. A well-formed tree with
a clause ddlc does not model (an unknown placeholder, an unexpected keyword value) is kept as
canonical text (an ``Opaque`` statement) with DDLC-N102, never half-read.
"""

from __future__ import annotations

import re

from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import Any

from ...diagnostics import E_PARTITION, Severity, register
from ...errors import DdlcError, Path
from ...ir.columns import ColumnDef
from ...ir.names import Expr
from ...ir.statement import Opaque, OpaqueReason, Statement
from ...ir.table import (
    Compression, ConstraintKind, CreateTable, Element, ElementsStyle, OnCommit, OnCommitAction,
    OptionValueKind, PartitionClause, Persistence, TableComment, TableConstraint, WithOption,
    WithStyle, layout_slots,
)
from ..sql.partition import parse_partition_clause
from ..sql.constraints import N_CONSTRAINT_UNPARSED, kind_of_text, table_reading
from ..sql.fragment import check_fragment
from . import shape
from ._columns import read_column, read_column_of
from ._read import Obj, member, read_qname
from ... import lazyre

N_UNMODELLED = register(
    "DDLC-N102", Severity.NOTE, "Statement clause not modelled",
    "A CREATE TABLE or CREATE TYPE tree expands, but uses a placeholder or a keyword value ddlc does not "
    "model (a GaussDB extension, a hand-written variant). The statement is kept as canonical GaussDB "
    "text: the GaussDB target prints it unchanged, other targets report it instead of translating it.",
    '{"fmt": "CREATE %{persistence}s TABLE %{identity}D %{table_elements}s %{distribute_by}s", ...}',
)
N_PARTITION_UNPARSED = register(
    "DDLC-N103", Severity.NOTE, "Partition clause not parsed",
    "The partitioning clause of CREATE TABLE could not be parsed. It is kept as text: the GaussDB "
    "target prints it unchanged; passes and other targets cannot see its structure.",
)

Slots = Mapping[str, tuple[str, bool | None]]  # name -> (accepted conversions, array or not / either)


class Unmodelled(Exception):
    """A well-formed tree with a clause ddlc does not model (the statement is kept as text)."""

    def __init__(self, message: str, path: Path) -> None:
        super().__init__(message)
        self.message = message
        self.path = path


def check_slots(o: Obj, allowed: Slots) -> dict[str, tuple[str, bool]]:
    """The placeholders of ``o.fmt``, each checked against ``allowed`` (the verdict remembered per fmt and
    ``allowed``: a stream repeats a few hundred fmt strings)."""
    fmt = o.fmt
    key = (fmt, id(allowed))
    hit = _CHECKED.get(key)
    if hit is None or hit[0] is not allowed:
        hit = (allowed, _slots_verdict(fmt, allowed))  # (``allowed`` kept: its id is not reused meanwhile)
        if len(_CHECKED) < 4096:
            _CHECKED[key] = hit
    verdict = hit[1]
    if verdict.__class__ is str:
        raise Unmodelled(verdict, o.path + ("fmt",))
    return verdict


_CHECKED: dict[tuple[str, int], tuple[Slots, dict[str, tuple[str, bool]] | str]] = {}


def _slots_verdict(fmt: str, allowed: Slots) -> dict[str, tuple[str, bool]] | str:
    """The placeholders of ``fmt``, or why one of them is not modelled."""
    slots = layout_slots(fmt)
    for name, (conv, arr) in slots.items():
        spec = allowed.get(name)
        if spec is None:
            return f"placeholder %{{{name}}}{conv} not modelled"
        convs, is_array = spec
        if conv not in convs or (is_array is not None and arr != is_array):
            return f"placeholder %{{{name}}}{conv} has an unexpected form"
    return slots


def keep_as_text(o: Obj, u: Unmodelled, kind: str, mark: int) -> Opaque:
    """The statement as canonical text, with DDLC-N102 (diagnostics after ``mark`` dropped)."""
    from ...quoting import canonicalize
    from ...jddl.expand import expand

    text = canonicalize(expand(dict(o.d), document=o.ctx.document))
    del o.ctx.diagnostics[mark:]
    o.ctx.diag(N_UNMODELLED, f"{kind}: {u.message}; kept as text", u.path)
    return Opaque(text, kind=kind, reason=OpaqueReason.NO_SHAPE, layout=None)


def guarded(kind: str, fn: Callable[[Obj], Statement]) -> Callable[[Obj], Statement]:
    def build(o: Obj) -> Statement:
        mark = len(o.ctx.diagnostics)
        try:
            return fn(o)
        except Unmodelled as u:
            return keep_as_text(o, u, kind, mark)

    build.__name__ = fn.__name__
    build.__doc__ = fn.__doc__
    return build


# -- elements ------------------------------------------------------------------------------

COLUMN_SLOTS: Slots = {
    "name": ("I", False), "coltype": ("T", False), "column_type": ("T", False), "collation": ("s", False),
    "collate": ("D", False), "auto_increment": ("s", False), "default": ("s", False),
    "on_update": ("s", False), "not_null": ("s", False), "generated_column": ("s", False),
}
_COLUMN_SLOTS_ID = id(COLUMN_SLOTS)  # (check_slots's key for it)
_CONSTRAINT_SLOTS: Slots = {"name": ("I", False), "definition": ("s", False), "tblspc": ("s", False)}
_OPTION_SLOTS: Slots = {"label": ("s", False), "value": ("Ls", False)}
_LABEL_SLOTS: Slots = {"label": ("I", False), "schema": ("I", False)}
_COMMENT_SLOTS: Slots = {"comment": ("L", False)}
_ON_COMMIT_SLOTS: Slots = {"on_commit_value": ("s", False)}
_ELEMENTS_SLOTS: Slots = {"elements": ("s", True)}
_PARENTS_SLOTS: Slots = {"parents": ("D", True)}
_WITH_SLOTS: Slots = {"with": ("s", True)}


def read_column_element(o: Obj) -> ColumnDef:
    check_slots(o, COLUMN_SLOTS)
    return read_column(o)


def read_constraint(o: Obj) -> TableConstraint:
    """A constraint element (§3.4); its definition parsed (DDLC-N101 when it does not parse)."""
    slots = check_slots(o, _CONSTRAINT_SLOTS)
    if "definition" not in slots:
        raise Unmodelled("constraint element without %{definition}s", o.path + ("fmt",))
    text = o.str("definition")
    at = o.at("definition")
    check_fragment(text, at, "expression")  # (make_definition's check, first)
    contype = o.raw("contype", None)
    if contype is None:
        kind = kind_of_text(text)
        if kind is None:
            raise Unmodelled("constraint kind unknown (no contype)", at)
    elif contype.__class__ is not str or (kind := _CONSTRAINT_KINDS.get(contype)) is None:
        if not isinstance(contype, str):
            raise o.ctx.error('element "contype" must be a string', o.at("contype"))
        try:
            kind = member(ConstraintKind, contype)
        except ValueError:
            raise Unmodelled(f'constraint type "{contype}" not modelled', o.at("contype")) from None
    # make_definition's Expr and read_definition's facts, the text read once (sql/constraints.py)
    parsed, informational, verbatim, sql = table_reading(text, at)
    if parsed is None:
        o.ctx.diag(N_CONSTRAINT_UNPARSED, f"constraint definition not parsed: {text!r}", at)
    return TableConstraint(
        o.str("name") if "name" in slots else None,
        kind,
        Expr(text, origin=at, sql=sql),
        parsed,
        o.str("tblspc") if "tblspc" in slots else None,
        informational=informational,
        verbatim=verbatim,
        layout=o.fmt,
        origin=o.path,
    )


_CONSTRAINT_KINDS = ConstraintKind._value2member_map_  # (member()'s lookup, without its call)


def read_elements(o: Obj, key: str) -> tuple[Element, ...]:
    """Columns and constraints of an element array, in input order."""
    v = o.raw(key)
    if not isinstance(v, list):
        raise o.ctx.error(f'element "{key}" must be an array', o.at(key))
    out: list[Element] = []
    base = o.at(key)
    ctx = o.ctx
    for i, e in enumerate(v):
        if not isinstance(e, dict):
            raise o.ctx.error(f'elements of "{key}" must be objects', base + (i,))
        if e.get("present", True) is False:
            continue
        t = e.get("type")
        if t == "column" or (t is None and "definition" not in e):
            # read_column_element's check_slots, without its calls when the fmt's verdict is known and good (and
            # the element's Obj made only when a member needs it: read_column_of)
            fmt = e.get("fmt")
            hit = _CHECKED.get((fmt, _COLUMN_SLOTS_ID)) if fmt.__class__ is str else None
            if hit is None or hit[0] is not COLUMN_SLOTS or hit[1].__class__ is str:
                el = Obj(e, base + (i,), ctx)
                check_slots(el, COLUMN_SLOTS)
                out.append(read_column(el))
            else:
                out.append(read_column_of(e, base + (i,), ctx))
            continue
        el = Obj(e, base + (i,), ctx)
        if t == "constraint" or t is None:
            out.append(read_constraint(el))
        else:
            raise Unmodelled(f"table element of type {t!r} not modelled", el.at("type"))
    return tuple(out)


# -- options -------------------------------------------------------------------------------

def read_with_option(o: Obj) -> WithOption:
    """A WITH / SET option element (§3.5). The common form (an option fmt and a label fmt ddlc models, the
    members strings) is read by the plan of its two fmts (:func:`_option_plan`); anything else as before, by
    :func:`_read_with_option` (tests/test_throughput_build.py compares them)."""
    out = _common_option(o.d, o.path)
    return out if out is not None else _read_with_option(o)


def _common_option(d: dict[str, Any], path: Path) -> WithOption | None:
    """The option element ``d`` (at ``path``) in the common form, read by its fmts' plan; None for any other form
    (read by :func:`_read_with_option`, its errors included)."""
    fmt = d.get("fmt")
    lab = d.get("label")
    if fmt.__class__ is str and lab.__class__ is dict:
        lfmt = lab.get("fmt")
        plan = _OPTION_PLANS.get((fmt, lfmt)) if lfmt.__class__ is str else None
        if plan is None and lfmt.__class__ is str:
            plan = _option_plan(fmt, lfmt)
        label = lab.get("label")
        if plan and label.__class__ is str and lab.get("present", True) is not False:
            kind, has_schema = plan
            schema = lab.get("schema") if has_schema else None
            value = None if kind is _NO_VALUE else d.get("value")
            if (schema.__class__ is str or not has_schema) and (value.__class__ is str or kind is _NO_VALUE):
                return WithOption(label, schema, value, kind, layout=fmt, label_layout=lfmt, origin=path)
    return None


# (enum members read once: on Python 3.11 a read through an Enum class goes through a hook, ~800 instructions)
_NO_VALUE = OptionValueKind.NONE

# (option fmt, label fmt) -> (the kind of the option's value, whether the label names a schema) when both fmts are
# forms ddlc models, else False: a stream repeats a handful of pairs
_OPTION_PLANS: dict[tuple[str, str], tuple[OptionValueKind, bool] | bool] = {}


def _option_plan(fmt: str, lfmt: str) -> tuple[OptionValueKind, bool] | bool:
    slots = _slots_verdict(fmt, _OPTION_SLOTS)
    lslots = _slots_verdict(lfmt, _LABEL_SLOTS)
    plan: tuple[OptionValueKind, bool] | bool = False
    if slots.__class__ is dict and "label" in slots and lslots.__class__ is dict and "label" in lslots:
        kind = (OptionValueKind.NONE if "value" not in slots
                else OptionValueKind.LITERAL if slots["value"][0] == "L" else OptionValueKind.BARE)
        plan = (kind, "schema" in lslots)
    if len(_OPTION_PLANS) < 4096:
        _OPTION_PLANS[(fmt, lfmt)] = plan
    return plan


def _read_with_option(o: Obj) -> WithOption:
    """:func:`read_with_option` of any form, member by member."""
    slots = check_slots(o, _OPTION_SLOTS)
    if "label" not in slots:
        raise Unmodelled("option element without %{label}s", o.path + ("fmt",))
    lab = o.obj("label")
    if not lab.present:
        raise Unmodelled("option label not present", lab.path)
    lslots = check_slots(lab, _LABEL_SLOTS)
    if "label" not in lslots:
        raise Unmodelled("option label without %{label}I", lab.path + ("fmt",))
    if "value" in slots:
        kind = OptionValueKind.LITERAL if slots["value"][0] == "L" else OptionValueKind.BARE
        value: str | None = o.str("value")
    else:
        kind, value = OptionValueKind.NONE, None
    return WithOption(
        lab.str("label"),
        lab.str("schema") if "schema" in lslots else None,
        value,
        kind,
        layout=o.fmt,
        label_layout=lab.fmt,
        origin=o.path,
    )


def _objects(o: Obj, key: str) -> list[Obj]:
    v = o.raw(key)
    if not isinstance(v, list):
        raise o.ctx.error(f'element "{key}" must be an array', o.at(key))
    out = []
    for i, e in enumerate(v):
        if not isinstance(e, dict):
            raise o.ctx.error(f'elements of "{key}" must be objects', o.at(key) + (i,))
        if e.get("present", True) is not False:
            out.append(Obj(e, o.at(key) + (i,), o.ctx))
    return out


def read_with_options(o: Obj, key: str = "with") -> tuple[WithOption, ...]:
    """:func:`read_with_option` of each present element of ``o``'s array ``key`` (:func:`_objects`'), an element of
    the common form read from its dict by its fmts' plan, without an :class:`Obj` (the same values, errors and
    order: tests/test_throughput_round16_front.py)."""
    v = o.raw(key)
    if not isinstance(v, list):
        raise o.ctx.error(f'element "{key}" must be an array', o.at(key))
    base = o.at(key)
    for i, e in enumerate(v):  # (every element is checked before any is read, as _objects does)
        if not isinstance(e, dict):
            raise o.ctx.error(f'elements of "{key}" must be objects', base + (i,))
    out = []
    for i, d in enumerate(v):
        if d.get("present", True) is False:
            continue
        opt = _common_option(d, base + (i,))
        out.append(opt if opt is not None else _read_with_option(Obj(d, base + (i,), o.ctx)))
    return tuple(out)


def _comment(o: Obj) -> TableComment:
    slots = check_slots(o, _COMMENT_SLOTS)
    if "comment" not in slots:
        raise Unmodelled("table option not modelled", o.path + ("fmt",))
    return TableComment(o.str("comment"), layout=o.fmt, origin=o.path)


def _on_commit(o: Obj) -> OnCommit | None:
    sub = o.obj("on_commit")
    if not sub.present:
        return None
    slots = check_slots(sub, _ON_COMMIT_SLOTS)
    if "on_commit_value" not in slots:
        raise Unmodelled("ON COMMIT without an action", sub.path + ("fmt",))
    text = sub.str("on_commit_value")
    try:
        action: OnCommitAction | None = OnCommitAction(" ".join(text.split()).upper())
    except ValueError:
        action = None
    return OnCommit(action, text, layout=sub.fmt, origin=sub.path)


def read_partition(o: Obj, key: str = "partition_by") -> PartitionClause:
    """The partition clause: its text, and its structure when it parses (else DDLC-N103)."""
    text = o.str(key)
    path = o.at(key)
    spec = None
    try:
        spec = parse_partition_clause(text, path=path)
    except DdlcError as err:
        if err.code == E_PARTITION:  # START/END/EVERY the database itself rejects
            raise
        o.ctx.diag(N_PARTITION_UNPARSED, f"partition clause kept as text: {err.message}", path)
    return PartitionClause(text, spec, origin=path)


# -- CREATE TABLE --------------------------------------------------------------------------

_TABLE_SLOTS: Slots = {
    "persistence": ("s", False), "if_not_exists": ("s", False), "identity": ("D", False),
    "of_type": ("T", False), "table_elements": ("s", None), "inherits": ("s", False),
    "autoincstart": ("ns", False), "with": ("s", True), "with_clause": ("s", False),
    "compression": ("s", False), "on_commit": ("s", False), "tablespace": ("I", False),
    "options": ("s", True), "partition_by": ("s", False), "distribute_by": ("s", False),
}
_NAME = r'(?:[A-Za-z_][A-Za-z0-9_$]*|"(?:[^"\x00\n;]|"")+")'
# the distribution forms ddlc models: a distribution key list, or none (RANGE/LIST with slices stay text)
_DISTRIBUTE = lazyre.compile(rf"DISTRIBUTE BY (?:(?:HASH|MODULO) ?\( ?{_NAME}(?: ?, ?{_NAME})* ?\)|REPLICATION|ROUNDROBIN)",
                         re.I)


def _keyword(o: Obj, key: str, vocab: type, what: str) -> Any:
    v = o.str(key)
    try:
        return member(vocab, v)
    except ValueError:
        raise Unmodelled(f'{what} "{v}" not modelled', o.at(key)) from None


def _if_not_exists(o: Obj) -> bool:
    v = o.str("if_not_exists")
    if v not in ("", "IF NOT EXISTS"):
        raise Unmodelled(f'if_not_exists "{v}" not modelled', o.at("if_not_exists"))
    return v != ""


def _autoinc(o: Obj, conv: str) -> tuple[str, bool]:
    if conv == "s":
        return o.str("autoincstart"), False
    v = o.raw("autoincstart")
    if isinstance(v, bool) or not isinstance(v, int | float | Decimal):
        raise o.ctx.error('element "autoincstart" must be a number', o.at("autoincstart"))
    return (repr(v) if isinstance(v, float) else str(v)), True


def _create_table(o: Obj) -> CreateTable:
    slots = check_slots(o, _TABLE_SLOTS)
    if "identity" not in slots:
        raise Unmodelled("CREATE TABLE without %{identity}D", o.path + ("fmt",))
    if "with" in slots and "with_clause" in slots:
        raise Unmodelled("both %{with}s and %{with_clause}s", o.path + ("fmt",))
    kw: dict[str, Any] = {}
    if "persistence" in slots:
        kw["persistence"] = _keyword(o, "persistence", Persistence, "persistence")
    if "if_not_exists" in slots:
        kw["if_not_exists"] = _if_not_exists(o)
    if "of_type" in slots:
        kw["of_type"] = o.typename("of_type")
    if "table_elements" in slots:
        if slots["table_elements"][1]:  # pre-release: "(%{table_elements:, }s)"
            kw["elements_style"] = ElementsStyle.ARRAY
            kw["elements"] = read_elements(o, "table_elements")
        else:
            te = o.obj("table_elements")
            if not te.present:
                raise Unmodelled("table_elements not present", te.path)
            tslots = check_slots(te, _ELEMENTS_SLOTS)
            kw["elements_layout"] = te.fmt
            kw["elements"] = read_elements(te, "elements") if "elements" in tslots else ()
    if "inherits" in slots:
        inh = o.obj("inherits")
        kw["inherits_layout"] = inh.fmt
        if inh.present:
            islots = check_slots(inh, _PARENTS_SLOTS)
            if "parents" in islots:
                kw["inherits"] = tuple(read_qname(p) for p in _objects(inh, "parents"))
    if "autoincstart" in slots:
        kw["autoinc_start"], kw["autoinc_numeric"] = _autoinc(o, slots["autoincstart"][0])
    if "with" in slots:
        kw["with_options"] = read_with_options(o)
    if "with_clause" in slots:
        wc = o.obj("with_clause")
        kw["with_style"], kw["with_layout"] = WithStyle.OBJECT, wc.fmt
        if wc.present and "with" in check_slots(wc, _WITH_SLOTS):
            kw["with_options"] = read_with_options(wc)
    if "compression" in slots:
        v = o.str("compression")
        kw["compression"] = _keyword(o, "compression", Compression, "compression") if v else None
    if "on_commit" in slots:
        kw["on_commit"] = _on_commit(o)
    if "tablespace" in slots:
        kw["tablespace"] = o.str("tablespace")
    if "options" in slots:
        kw["comments"] = tuple(_comment(e) for e in _objects(o, "options"))
    if "partition_by" in slots:
        kw["partition"] = read_partition(o)
    if "distribute_by" in slots:
        v = o.str("distribute_by")
        if v and not _DISTRIBUTE.fullmatch(v):
            raise Unmodelled(f"distribution clause {v[:60]!r} not modelled", o.at("distribute_by"))
        kw["distribute_by"] = v or None
    return CreateTable(o.qname("identity"), layout=o.fmt, origin=o.path, **kw)


build_create_table = shape("create_table", r"CREATE %\{persistence\}s TABLE ")(
    guarded("CREATE TABLE", _create_table)
)
