"""Issue 26 (throughput, round 8), the builders and emitters of the biggest families: each cheaper reader or
writer gives what the former one gave (the former kept here, or beside the new one in its module).

* A column element (``_columns.read_column``) read member by member at once for the common forms: the same
  :class:`ColumnDef` (every field, ``origin`` and ``layout`` included) or the same error as the former reader,
  on every column of the fixtures and on generated columns whose members take every form (absent, null, the
  wrong type, ``present: false``, the GaussDB spelling).
* A WITH option (``table.read_with_option``) read by the plan of its option and label fmts: the same
  :class:`WithOption` or error as the member-by-member reader (``table._read_with_option``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from ddlc.errors import DdlcError
from ddlc.frontend.build import table
from ddlc.frontend.build._columns import read_column
from ddlc.frontend.build._read import BuildContext, Obj, read_type
from ddlc.frontend.sql.expr import make_expr
from ddlc.ir.columns import ColumnDef, GeneratedKind
from ddlc.ir.names import Expr

ROOT = Path(__file__).resolve().parents[1]


def _old_read_column(o: Obj) -> ColumnDef:
    """``read_column`` before round 8."""
    coltype = None
    t = o.raw("coltype", None)
    if isinstance(t, dict) and t.get("present", True) is not False:
        coltype = read_type(Obj(t, o.at("coltype"), o.ctx))
    elif t is not None and not isinstance(t, dict):
        raise o.ctx.error('element "coltype" must be an object', o.at("coltype"))
    collation = None
    coll = o.opt_obj("collation")
    if coll is not None and coll.has("name"):
        collation = coll.qname("name")
    elif o.has("collate"):
        collation = o.qname("collate")
    default = None
    d = o.opt_obj("default")
    if d is not None:
        default = d.expr("default")
    generated, kind = None, GeneratedKind.STORED
    g = o.opt_obj("generated_column")
    if g is not None:
        generated = g.expr("generation_expr")
        if "PERSISTED" in g.fmt:
            kind = GeneratedKind.PERSISTED
    on_update = o.opt_str("on_update")
    return ColumnDef(
        o.str("name"),
        coltype,
        collation,
        auto_increment=o.flag("auto_increment"),
        default=default,
        on_update=None if on_update is None else make_expr(on_update, o.at("on_update")),
        not_null=o.flag("not_null"),
        generated=generated,
        generated_kind=kind,
        layout=o.fmt,
        origin=o.path,
    )


def deep(a: Any, b: Any, where: str = "") -> None:
    """``a`` and ``b`` equal field for field, the fields equality leaves out included."""
    assert type(a) is type(b), where
    if isinstance(a, Expr):
        assert (a.text, a.origin) == (b.text, b.origin), where
        return
    if isinstance(a, msgspec.Struct):
        for f in a.__struct_fields__:
            deep(getattr(a, f), getattr(b, f), f"{where}.{f}")
        return
    if isinstance(a, tuple | list):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            deep(x, y, f"{where}[{i}]")
        return
    assert a == b, where


def _outcome(fn: Any, d: Any, path: tuple[Any, ...] = ("table_elements", "elements", 0)) -> Any:
    ctx = BuildContext("doc")
    try:
        return "ok", fn(Obj(d, path, ctx)), [(x.code, x.message, x.path) for x in ctx.diagnostics]
    except DdlcError as e:
        return "error", (type(e).__name__, e.message, e.code, e.path), None
    except table.Unmodelled as e:
        return "unmodelled", (e.message, e.path), None


def _same(new: Any, old: Any, d: Any) -> None:
    a, b = _outcome(new, d), _outcome(old, d)
    assert a[0] == b[0], (d, a, b)
    if a[0] == "ok":
        deep(a[1], b[1], repr(d))
        assert a[2] == b[2], d
    else:
        assert a[1] == b[1], d


def _objects(pred: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    seen: set[str] = set()

    def walk(n: Any) -> None:
        if isinstance(n, dict):
            if pred(n):
                key = json.dumps(n, sort_keys=True)
                if key not in seen:
                    seen.add(key)
                    out.append(n)
            for v in n.values():
                walk(v)
        elif isinstance(n, list):
            for v in n:
                walk(v)

    for p in sorted((ROOT / "fixtures").rglob("*.json")):
        try:
            walk(json.loads(p.read_text()))
        except (ValueError, UnicodeDecodeError):
            continue
    for p in sorted((ROOT / "fixtures").rglob("*.jsonl")):
        for line in p.read_text().splitlines():
            if line.strip():
                try:
                    walk(json.loads(line))
                except ValueError:
                    continue
    return out


def _is_column(d: dict[str, Any]) -> bool:
    return d.get("type") == "column" or ("coltype" in d or "column_type" in d) and "name" in d


def _is_option(d: dict[str, Any]) -> bool:
    return isinstance(d.get("label"), dict) and isinstance(d.get("fmt"), str) and "%{label}" in d["fmt"]


COLUMNS = _objects(_is_column)
OPTIONS = _objects(_is_option)


def test_fixture_columns() -> None:
    assert len(COLUMNS) > 50
    for d in COLUMNS:
        _same(read_column, _old_read_column, d)


def test_fixture_options() -> None:
    assert len(OPTIONS) > 8
    for d in OPTIONS:
        _same(table.read_with_option, table._read_with_option, d)


_ANY = st.sampled_from([
    None, "", " ", "NOT NULL", "AUTO_INCREMENT", "x", "now()", 1, 2.5, True, [], ["a"],
    {"present": False}, {"present": True}, {"fmt": "x", "present": False}, {"fmt": 3},
])
_DEFAULTS = st.sampled_from([
    {"fmt": "DEFAULT %{default}s", "default": "1"}, {"fmt": "DEFAULT %{default}s", "present": False},
    {"fmt": "DEFAULT %{default}s", "default": 1}, {"fmt": "DEFAULT %{default}s"}, {"default": "a + 1"},
    {"fmt": "DEFAULT %{default}s", "default": "nextval('s'::regclass)", "present": True},
])
_GENERATED = st.sampled_from([
    {"fmt": "GENERATED ALWAYS AS (%{generation_expr}s) STORED", "generation_expr": "a * 2"},
    {"fmt": "AS (%{generation_expr}s) PERSISTED", "generation_expr": "a * 2"},
    {"fmt": "GENERATED ALWAYS AS (%{generation_expr}s) STORED", "present": False},
    {"fmt": "AS (%{generation_expr}s) PERSISTED"}, {"fmt": 7, "generation_expr": "b"},
])
_COLLATIONS = st.sampled_from([
    {"fmt": "COLLATE %{name}D", "present": False}, {"fmt": "COLLATE %{name}D", "name": {"objname": "C"}},
    {"fmt": "COLLATE %{name}D", "name": {"objname": "C", "schemaname": "pg_catalog"}}, {"fmt": "COLLATE %{name}D"},
    {"fmt": "COLLATE %{name}D", "name": "C"},
])
_TYPES = st.sampled_from([
    {"typmod": "", "typarray": False, "typename": "int4", "schemaname": "pg_catalog"},
    {"typmod": "(10)", "typarray": True, "typename": "varchar", "schemaname": "pg_catalog"},
    {"typmod": "", "typarray": False, "typename": "int4", "schemaname": "pg_catalog", "present": False},
    {"type_name": "int4", "schema_name": "pg_catalog"}, {"typename": 3},
])
_KEYS = ("name", "coltype", "column_type", "collation", "collate", "default", "generated_column", "on_update",
         "auto_increment", "not_null", "fmt")


@st.composite
def _columns(draw: Any) -> dict[str, Any]:
    d = dict(draw(st.sampled_from(COLUMNS[:60])))
    for key in draw(st.lists(st.sampled_from(_KEYS), max_size=5, unique=True)):
        choice = draw(st.integers(0, 2))
        if choice == 0:
            d.pop(key, None)
        elif choice == 1:
            d[key] = draw(_ANY)
        else:
            d[key] = draw({"coltype": _TYPES, "column_type": _TYPES, "default": _DEFAULTS,
                           "generated_column": _GENERATED, "collation": _COLLATIONS,
                           "collate": st.sampled_from([{"objname": "C"}, "C"]),
                           "name": st.sampled_from(["a", "B c", 'x"y']),
                           "fmt": st.sampled_from(["%{name}I %{coltype}T", "%{name}I %{coltype}T %{default}s"])
                           }.get(key, _ANY))
    return d


@settings(max_examples=1500, deadline=None)
@given(_columns())
def test_generated_columns(d: dict[str, Any]) -> None:
    _same(read_column, _old_read_column, d)


_LABELS = st.sampled_from([
    {"fmt": "%{label}I", "label": "fillfactor"}, {"fmt": "%{schema}I. %{label}I", "schema": "toast", "label": "x"},
    {"fmt": "%{schema}I. %{label}I", "label": "x"}, {"fmt": "%{label}I", "label": 3}, {"fmt": "%{label}I"},
    {"fmt": "%{label}I", "label": "a", "present": False}, {"fmt": "%{other}I", "label": "a"}, {"label": "a"},
    {"fmt": "%{label}s", "label": "a"}, {"fmt": 5, "label": "a"}, {"fmt": "%{schema}I. %{label}I", "schema": None,
                                                                   "label": "x"},
])


@st.composite
def _options(draw: Any) -> dict[str, Any]:
    d: dict[str, Any] = {"fmt": draw(st.sampled_from([
        "%{label}s = %{value}L", "%{label}s = %{value}s", "%{label}s", "%{label}s = %{value}n", "%{x}s",
        "%{label}s = %{value:, }s", "%{value}L"]))}
    if draw(st.booleans()):
        d["label"] = draw(_LABELS)
    else:
        d["label"] = draw(_ANY)
    v = draw(st.sampled_from(["absent", "row", "", 3, None, {"present": False}]))
    if v != "absent":
        d["value"] = v
    if draw(st.integers(0, 5)) == 0:
        d["present"] = False
    return d


@settings(max_examples=1500, deadline=None)
@given(_options())
def test_generated_options(d: dict[str, Any]) -> None:
    _same(table.read_with_option, table._read_with_option, d)


# -- the PostgreSQL CREATE TABLE emitter: tokens merged where the writer's rule puts no space -----------------------

from ddlc.backends.writer import SqlWriter, joined  # noqa: E402

_TOKENS = st.sampled_from(["a", "b c", "(", ")", ",", "x(", ")y", "( ", " )", " ,", "'( '", "", "DEFAULT", "f(1)"])


@settings(max_examples=3000, deadline=None)
@given(st.lists(_TOKENS, max_size=6), st.lists(_TOKENS, max_size=4), _TOKENS)
def test_generated_clause_one_token(before: list[str], after: list[str], x: str) -> None:
    """``GENERATED ALWAYS AS (x) STORED`` as one token spaces as its seven tokens did (``raw`` leaves out an
    empty ``x``)."""
    old = SqlWriter()
    for t in before:
        old.raw(t)
    old.kw("GENERATED", "ALWAYS", "AS").open().raw(x).close().kw("STORED")
    for t in after:
        old.raw(t)
    new = [t for t in (*before, "GENERATED ALWAYS AS (" + x + ") STORED", *after) if t]
    assert joined(new) == old.text()


@settings(max_examples=3000, deadline=None)
@given(st.lists(_TOKENS, max_size=3), st.lists(_TOKENS, max_size=6), st.lists(_TOKENS, max_size=3))
def test_element_list_one_token(before: list[str], items: list[str], after: list[str]) -> None:
    """A table's element list written as ``(a, b)`` in one token spaces as the writer's ``open().each().close()``
    did, whenever no element is empty, starts with ``)`` or is ``,`` (the emitter's condition)."""
    old = SqlWriter()
    new = SqlWriter()
    for t in before:
        old.raw(t)
        new.raw(t)
    old.open().each(items, lambda w_, s: w_.raw(s)).close()
    if all(s and s[0] != ")" and s != "," for s in items):
        new.raw("(" + ", ".join(items) + ")")
    else:
        new.open().each(items, lambda w_, s: w_.raw(s)).close()
    for t in after:
        old.raw(t)
        new.raw(t)
    assert new.text() == old.text()


# -- the PostgreSQL rules of a table's options and constraints: each test made once, in a cheaper order -----------

from ddlc.backends.postgres import table as pg_table  # noqa: E402
from ddlc.ir.table import OptionValueKind, WithOption  # noqa: E402

_LABELS_PG = ["fillfactor", "FillFactor", "orientation", "compression", "storage_type", "segment", "autovacuum_enabled",
              "toast_tuple_target", "deduplicate_items", "x", ""]


@settings(max_examples=3000, deadline=None)
@given(st.sampled_from(_LABELS_PG), st.sampled_from([None, "toast", "TOAST", "x"]),
       st.sampled_from([None, "", "row", "ROW", "no", "astore", "off", "70", "yes"]),
       st.sampled_from([("with", 0), ("table_elements", 1, "with", 2), ("index_options", 0), (), ("with",)]))
def test_option_rule(label: str, namespace: str | None, value: str | None, origin: tuple[Any, ...]) -> None:
    o = WithOption(label, namespace, value, OptionValueKind.LITERAL, origin=origin)
    assert pg_table._table_option_dropped(o) == (pg_table.is_table_option(o) and not pg_table.option_ok(o))


def _old_in_layout(c: Any, enclosing: tuple[Any, ...], what: str) -> bool:
    """``partitions._in_layout`` before round 8 (the layout first, then the constraint's kind)."""
    from ddlc.backends.postgres.partitions import partitioned_layout
    from ddlc.ir.table import ConstraintKind, CreateTable

    table = enclosing[-1] if enclosing else None
    if c.parsed is None or not isinstance(table, CreateTable):
        return False
    layout = partitioned_layout(table)
    if layout is None:
        return False
    if what == "key":
        return layout.expression_keys and c.parsed.kind in (ConstraintKind.PRIMARY_KEY, ConstraintKind.UNIQUE)
    return c.parsed.kind is ConstraintKind.EXCLUSION


def test_in_layout_fixtures() -> None:
    from ddlc.backends.postgres.partitions import _in_layout
    from ddlc.frontend.build import build
    from ddlc.ir.table import CreateTable, TableConstraint

    tables = []
    for d in _objects(lambda d: isinstance(d.get("fmt"), str) and d["fmt"].startswith("CREATE %{persistence}s TABLE")):
        try:
            stmt, _ = build(d)
        except DdlcError:
            continue
        if isinstance(stmt, CreateTable):
            tables.append(stmt)
    assert sum(t.partition is not None for t in tables) > 5
    seen = 0
    for t in tables:
        for c in t.elements:
            if isinstance(c, TableConstraint):
                for enclosing in ((t,), (), (c,), (t, t)):
                    for what in ("key", "exclusion"):
                        seen += 1
                        assert bool(_in_layout(c, enclosing, what)) == bool(_old_in_layout(c, enclosing, what))
    assert seen > 50


# -- an enum member by its value: one lookup (``_read.member``) instead of EnumType.__call__ ----------------------

from ddlc.frontend.build._read import member  # noqa: E402
from ddlc.ir.alter import AlterObjType  # noqa: E402
from ddlc.ir.alter_columns import ColumnKind  # noqa: E402
from ddlc.ir.table import ConstraintKind, Persistence  # noqa: E402

_ENUMS = [Persistence, ConstraintKind, AlterObjType, ColumnKind, GeneratedKind]


@settings(max_examples=2000, deadline=None)
@given(st.sampled_from(_ENUMS), st.one_of(
    st.sampled_from(["", "UNLOGGED", "TEMPORARY", "primary key", "check", "TABLE", "COLUMN", "ATTRIBUTE", "stored",
                     "table", "Table", "x"]),
    st.text(max_size=12), st.integers(), st.none(), st.lists(st.text(max_size=2), max_size=2)))
def test_member(cls: Any, value: Any) -> None:
    def outcome(fn: Any) -> Any:
        try:
            return "ok", fn(value)
        except Exception as e:  # noqa: BLE001
            return "error", type(e), str(e)

    assert outcome(lambda v: member(cls, v)) == outcome(cls)
    for m in cls:
        assert member(cls, m.value) is m
