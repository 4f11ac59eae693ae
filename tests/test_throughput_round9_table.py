"""Issue 26, round 9: CREATE TABLE made cheaper gives what it gave.

* ``drop_unsupported`` asks a class's rules through one function made for them (``_Rules.first``), tests the
  fields a predicate ``needs`` before calling it, and judges a leaf child (a column, an option, a constraint)
  without a visit of its own: against the former pass (tests/test_throughput_back.py's copy) over every fixture
  statement and every CREATE TABLE of the varied corpus renamed, for each target and ``--on-unsupported`` mode;
  ``first`` against the rules asked one by one over every node the fixtures hold; every ``needs`` checked (the
  predicate is false when a field it needs is);
* the PostgreSQL table rules' predicates made named functions (and without a call or a tuple each) against the
  former lambdas;
* the builders' shortcuts (a column's absent ON UPDATE, a known column fmt's slot check, a constraint's absent
  key lists) and the emitter's (one ``qname`` of the table, the tokens filtered in C) against the former code.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest

from ddlc.backends import get_backend
from ddlc.backends.postgres import table as pg_table
from ddlc.backends.postgres import functions as pg_functions
from ddlc.frontend.build import _columns, table as build_table
from ddlc.frontend.build._read import BuildContext, Obj
from ddlc.frontend.sql import constraints
from ddlc.ir import base
from ddlc.ir.base import Node, replace
from ddlc.ir.columns import ColumnDef
from ddlc.ir.names import QualifiedName
from ddlc.ir.table import TableConstraint, WithOption
from ddlc.options import Options
from ddlc.passes import SHARED, PassContext, run_pipeline
from ddlc.passes.drop_unsupported import _plan, drop_unsupported

from test_throughput_back import _former_drop_unsupported, _outcome
from test_throughput_passes import STATEMENTS

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))


def _corpus_tables() -> list[tuple[str, Any]]:
    """Every CREATE TABLE of the varied corpus, renamed, built (the statements the benchmark times)."""
    import corpus as corpora
    import orjson

    from ddlc.frontend.build import build

    r = corpora.Renamer()
    out = []
    for label, line in corpora.varied_corpus():
        if not label.startswith("create_table/"):
            continue
        for text in (line, r.variant(line)):
            doc = orjson.loads(text)
            try:
                tree = doc.get("JDDL", doc) if isinstance(doc, dict) else doc
                stmt, _ = build(tree, document=label)
            except Exception:  # noqa: BLE001 - the cases that fail are not what is compared here
                continue
            out.append((label, stmt))
    return out


TABLES = _corpus_tables()


def _nodes(stmt: Any) -> list[tuple[Node, tuple[Node, ...]]]:
    """Every node below ``stmt`` (itself included), each with the nodes enclosing it."""
    out: list[tuple[Node, tuple[Node, ...]]] = []

    def walk(v: Any, stack: tuple[Node, ...]) -> None:
        if isinstance(v, tuple):
            for x in v:
                walk(x, stack)
        elif isinstance(v, Node):
            out.append((v, stack))
            for f in base.field_names(type(v)):
                walk(getattr(v, f), (*stack, v))

    walk(stmt, ())
    return out


def test_the_corpus_is_there():
    assert len(TABLES) > 30
    assert sum(isinstance(n, ColumnDef) for _, s in TABLES for n, _ in _nodes(s)) > 100


@pytest.mark.parametrize("target", ["postgres", "gaussdb", "spark"])
@pytest.mark.parametrize("mode", ["warn", "comment", "error"])
def test_drop_unsupported_gives_what_the_former_pass_gave(target, mode):
    b = get_backend(target)
    opts = Options.of(on_unsupported=mode)
    ctx = msgspec.structs.replace(PassContext.of(opts, target=target, rules=b.rules, refused=b.refused),
                                  document="doc")
    changed = 0
    for label, stmt in (*STATEMENTS, *TABLES):
        s = run_pipeline(stmt, ctx, stop=SHARED)[0]
        new, old = _outcome(drop_unsupported, s, ctx), _outcome(_former_drop_unsupported, s, ctx)
        assert new == old, label
        if new[0] is s:
            assert old[0] is s, label  # nothing changed: the very same object
        else:
            changed += 1
    assert changed > (1 if target == "gaussdb" else 10)


@pytest.mark.parametrize("target", ["postgres", "gaussdb", "spark"])
def test_first_is_the_rules_asked_one_by_one(target):
    plan = _plan(get_backend(target).rules).current()
    asked = 0
    for _, stmt in (*STATEMENTS, *TABLES):
        for n, stack in _nodes(stmt):
            rules = plan.by_class.get(type(n))
            if not rules:
                continue
            want = next((i for i, r in enumerate(rules)
                         if r.applies(n) and (r.within is None or r.within(n, stack))), -1)
            assert rules.first(n, list(stack)) == want, (type(n).__name__, want)
            asked += 1
    assert asked > (0 if target == "gaussdb" else 200)  # (GaussDB's one rule: CREATE TABLE AS)


def _blank(value: Any) -> list[Any]:
    return [None] if not isinstance(value, bool | str | tuple) else [False] if isinstance(value, bool) else (
        [""] if isinstance(value, str) else [()])


@pytest.mark.parametrize("target", ["postgres", "spark"])
def test_a_predicate_is_false_without_a_field_it_needs(target):
    """What ``first`` leaves uncalled: every predicate with ``needs``, on every node of its class the fixtures hold
    with one needed field made false, says no."""
    seen = 0
    rules = get_backend(target).rules
    for r in rules:
        needs = getattr(r.applies, "needs", ())
        for _, stmt in (*STATEMENTS, *TABLES):
            for n, _stack in _nodes(stmt):
                if type(n) is not r.node:
                    continue
                for f in needs:
                    for v in _blank(getattr(n, f)):
                        try:
                            m = replace(n, **{f: v})
                        except Exception:  # noqa: BLE001 - a value the field does not take
                            continue
                        assert not r.applies(m), (r.code, f)
                        seen += 1
    assert seen > (50 if target == "postgres" else -1)


# ---- the PostgreSQL table rules' predicates against the former lambdas ----------------------------------------

_FORMER = {
    "collation": lambda n: n.collation is not None and not pg_table.collation_ok(n.collation),
    "on_update": lambda n: n.on_update is not None,
    "identity": lambda c: c.auto_increment and not pg_table._identity_type(c),
    "bad_options": lambda n: bool(pg_table._bad_index_options(n)),
    "index_tablespace": lambda n: pg_table._index_tablespace(n) is not None,
}


def _former_option_dropped(o: WithOption) -> bool:
    return pg_table.is_table_option(o) and not pg_table.option_ok(o)


def _variants(n: Node) -> list[Node]:
    out = [n]
    if isinstance(n, ColumnDef):
        for q in (QualifiedName("default"), QualifiedName("default", "pg_catalog"), QualifiedName("C"),
                  QualifiedName("utf8mb4_bin"), QualifiedName("x", "s")):
            out.append(replace(n, collation=q))
        out.append(replace(n, auto_increment=not n.auto_increment))
    if isinstance(n, TableConstraint):
        out += [replace(n, tablespace=""), replace(n, tablespace="ts"), replace(n, tablespace=None)]
    if isinstance(n, WithOption):
        for origin in ((), ("with",), ("x", "with", 0), ("x", "options", 0)):
            for ns in (None, "toast", "TOAST", "other"):
                out.append(replace(n, origin=origin, namespace=ns))
    return out


def test_table_predicates_as_the_former_lambdas():
    seen = 0
    for _, stmt in (*STATEMENTS, *TABLES):
        for n0, _stack in _nodes(stmt):
            for n in _variants(n0):
                if isinstance(n, ColumnDef):
                    assert pg_table._collation_dropped(n) == _FORMER["collation"](n)
                    assert pg_table._has_on_update(n) == _FORMER["on_update"](n)
                    assert pg_table._identity_dropped(n) == _FORMER["identity"](n)
                elif isinstance(n, TableConstraint):
                    assert pg_table._has_bad_index_options(n) == _FORMER["bad_options"](n)
                    assert pg_table._has_index_tablespace(n) == _FORMER["index_tablespace"](n)
                elif isinstance(n, WithOption):
                    assert pg_table._table_option_dropped(n) == _former_option_dropped(n)
                    assert (pg_table._table_option_dropped(n)
                            or pg_table.is_default_option(n) == _former_default(n))
                else:
                    continue
                seen += 1
    assert seen > 500


def _former_default(o: WithOption) -> bool:
    return (pg_table.is_table_option(o) and o.namespace is None
            and (o.label.lower(), (o.value or "").lower()) in pg_table.DEFAULT_OPTIONS)


def test_default_predicates_need_a_default():
    for f in (pg_functions._default_unknown, pg_functions._default_unparsed):
        assert f.needs == ("default",)


# ---- builders ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("on_update", [None, "", "CURRENT_TIMESTAMP", {"present": False}, "absent"])
def test_read_column_on_update_as_opt_str(on_update):
    d: dict[str, Any] = {"fmt": "%{name}I %{coltype}T", "name": "a",
                         "coltype": {"typename": "int4", "schemaname": "pg_catalog", "typmod": "", "typarray": False}}
    if on_update != "absent":
        d["on_update"] = on_update
    ctx = BuildContext()
    o = Obj(d, ("x",), ctx)
    c = _columns.read_column(o)
    want = o.opt_str("on_update")
    assert (c.on_update.text if c.on_update is not None else None) == want


def test_read_elements_as_each_element_read_alone():
    """read_elements' columns (its check_slots without the call when the fmt's verdict is known) against
    read_column_element, over every element of the corpus's trees, and an element whose fmt is not modelled."""
    import corpus as corpora
    import orjson

    from ddlc.jddl.keys import CANONICAL  # noqa: F401 - (the trees are read in their own spelling)

    seen = 0
    for label, line in corpora.varied_corpus():
        if not label.startswith("create_table/"):
            continue
        tree = orjson.loads(line)
        tree = tree.get("JDDL", tree) if isinstance(tree, dict) else tree
        te = tree.get("table_elements") if isinstance(tree, dict) else None
        if not isinstance(te, dict) or not isinstance(te.get("elements"), list):
            continue
        ctx = BuildContext()
        o = Obj(te, ("table_elements",), ctx)
        got = build_table.read_elements(o, "elements")
        want = []
        for i, e in enumerate(te["elements"]):
            if e.get("present", True) is False:
                continue
            el = Obj(e, ("table_elements", "elements", i), ctx)
            t = e.get("type")
            if t == "constraint" or (t is None and "definition" in e):
                want.append(build_table.read_constraint(el))
            else:
                want.append(build_table.read_column_element(el))
        assert [base.to_json(x, with_origin=True) for x in got] == [base.to_json(x, with_origin=True) for x in want]
        seen += 1
    assert seen > 5
    bad = {"elements": [{"type": "column", "fmt": "%{name}I %{nope}s", "name": "a", "nope": ""}]}
    with pytest.raises(build_table.Unmodelled):
        build_table.read_elements(Obj(bad, (), BuildContext()), "elements")
    with pytest.raises(build_table.Unmodelled):  # (twice: the verdict known the second time)
        build_table.read_elements(Obj(bad, (), BuildContext()), "elements")


@pytest.mark.parametrize("seq", [None, [], [{"String": {"sval": "a"}}, {"String": {"sval": "b"}}]])
def test_svals_as_before(seq):
    assert constraints._svals(seq) == tuple(constraints._sval(s) for s in seq or ())


def test_svals_of_a_non_string_is_unread():
    with pytest.raises(constraints._Unread):
        constraints._svals([{"Integer": {"ival": 1}}])


# ---- the emitter ---------------------------------------------------------------------------------------------

def _former_column_sql(c: ColumnDef, e: Any, identity: str | None = None) -> str:
    """column_sql as it was (its tokens filtered by a comprehension, the collation's test by a call)."""
    from ddlc.backends.writer import joined

    toks = [pg_table.pg_ident(c.name)]
    if c.type is not None:
        toks.append(e.type(c.type))
    if c.collation is not None and not pg_table.is_default_collation(c.collation):
        toks += ("COLLATE", e.qname(c.collation))
    toks.append(identity)
    if c.default is not None:
        text = e.expr(c.default)
        toks += ("DEFAULT", f"({text})" if pg_table._not_b_expr(c.default.tree) else text)
    if c.not_null:
        toks += ("NOT", "NULL")
    if c.generated is not None:
        toks.append("GENERATED ALWAYS AS (" + e.expr(c.generated) + ") STORED")
    return joined([t for t in toks if t])


def test_column_sql_as_before():
    """column_sql against the former one over every column of the fixtures and the corpus (collations varied, an
    empty type's token left out); the statements themselves: bench/same_outputs.py compares every output."""
    seen = 0
    for label, stmt in (*STATEMENTS, *TABLES):
        for n0, _stack in _nodes(stmt):
            if not isinstance(n0, ColumnDef):
                continue
            for n in _variants(n0):
                for probe in (_Probe(), _Probe(empty_type=True)):
                    for identity in (None, "", "GENERATED BY DEFAULT AS IDENTITY"):
                        assert pg_table.column_sql(n, probe, identity) == _former_column_sql(n, probe, identity), label
                        seen += 1
    assert seen > 300


class _Probe:
    """What column_sql asks of an emit context, answered from the IR alone."""

    def __init__(self, empty_type: bool = False) -> None:
        self.empty_type = empty_type

    def type(self, t: Any) -> str:
        return "" if self.empty_type else t.name + ("[]" if t.array else "")

    @staticmethod
    def qname(q: QualifiedName) -> str:
        return q.dotted()

    @staticmethod
    def expr(x: Any) -> str:
        return x.text

    def diag(self, *a: Any, **k: Any) -> None:
        pass
