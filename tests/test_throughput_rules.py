"""Issue 26, round 8: the costliest PostgreSQL rule predicates answer the common case with less work.

* DDLC-W735 (``routines._problem``): the types of a routine header are judged as they come, no list of them
  made; a plain lower-case type name (``pg_catalog.`` or not) is decided without the patterns, a TYPE_MAP
  name's verdict kept per name. Checked here against the former ``_problem``/``_header_problem`` on every
  CREATE FUNCTION/PROCEDURE of the fixtures and by hypothesis on type texts;
* DDLC-W604/W605 (``functions.has_unknown_call``, ``has_unparsed``): one loop, no label list per Expr;
* DDLC-W666 (``objects_more._any_out_of_range``): the type's range worked out once, no list made;
* DDLC-W658: an index without options decided without reading them (the common case);
* DDLC-W633 (``partitions.multi_column_list``): plain loops over the partitions.

Each is checked against its former predicate on every node the rule judges in the fixtures corpus.
"""

from __future__ import annotations

import importlib

import sys
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import ddlc
from ddlc.backends.postgres import PostgresBackend
from ddlc.backends.postgres import functions as F
from ddlc.backends.postgres import objects_more as OM
from ddlc.backends.postgres import partitions as P
from ddlc.backends.postgres import routines as R
from ddlc.ir.partition import BoundKind, BoundValue, ListValues, PartitionStrategy
from ddlc.backends.postgres.types import QUIET, TYPE_MAP
from ddlc.ir.routine import ArgMode

ROOT = Path(__file__).resolve().parents[1]


# ---- the former predicate, as it was -----------------------------------------------------------------
def _former_header_problem(n: Any, types: list[str], returns: str | None, table: list[str]) -> str | None:
    if n.returns is not None and n.returns.table and any(
            a.mode in (ArgMode.OUT, ArgMode.INOUT) for a in n.arguments):
        return "OUT/INOUT arguments with RETURNS TABLE"
    for t in (*types, *table, *(() if returns is None else (returns,))):
        if R._pg_type().match(t) is None:
            return f"type {t!r} is not PostgreSQL syntax"
    for a in n.arguments:
        if a.default is not None and R._default(a).tree is None:
            return f"default {a.default!r} is not a PostgreSQL expression"
    return None


def _former_problem(n: Any) -> str | None:
    q = QUIET
    types = [R.type_text(a.type, q, a.origin) for a in n.arguments]
    returns: str | None = None
    table: list[str] = []
    if n.returns is not None and not n.is_procedure:
        if n.returns.table:
            table = [R.type_text(a.type, q, a.origin) for a in n.returns.table]
        else:
            returns = R.type_text(n.returns.type, q, n.returns.origin)
    return _former_header_problem(n, types, returns, table)


def _outcome(f: Any, *args: Any) -> Any:
    try:
        return ("value", f(*args))
    except Exception as exc:  # noqa: BLE001 - the same error either way
        return ("error", type(exc), str(exc))


_MET: dict[str, list[Any]] = {}


def _met(code: str) -> list[Any]:
    """Every node a rule of ``code`` judges when the fixtures corpus is translated to PostgreSQL (each rule's
    ``applies`` wrapped for the run, then put back)."""
    if not _MET:
        sys.path.insert(0, str(ROOT / "bench"))
        import corpus

        met: dict[str, dict[int, Any]] = {}
        rules = PostgresBackend.rules
        real = [r.applies for r in rules]

        def spy(r: Any, f: Any) -> Any:
            def applies(n: Any) -> bool:
                met.setdefault(r.code, {})[id(n)] = n
                return f(n)
            return applies

        drop_unsupported = importlib.import_module("ddlc.passes.drop_unsupported")  # (the module, not the pass)

        # (the walk asks a class's rules through a function made once per rules table, holding each ``applies``:
        # made again with the spies in, and again without them after)
        drop_unsupported._PLANS.clear()
        try:
            for r, f in zip(rules, real):
                object.__setattr__(r, "applies", spy(r, f))
            for _, doc in corpus.fixtures_corpus():
                list(ddlc.translate_many([doc], target="postgres"))
        finally:
            for r, f in zip(rules, real):
                object.__setattr__(r, "applies", f)
            drop_unsupported._PLANS.clear()
        _MET.update({code: list(nodes.values()) for code, nodes in met.items()})
    return _MET.get(code, [])


def test_w735_problem_as_before_on_every_fixture_routine() -> None:
    nodes = _met("DDLC-W735")
    assert len(nodes) >= 5
    for n in nodes:
        assert _outcome(R._problem, n) == _outcome(_former_problem, n), n


def _former_bad_type(text: str) -> str | None:
    t = R.type_text(text, QUIET, ())
    return None if R._pg_type().match(t) is not None else f"type {t!r} is not PostgreSQL syntax"


_NAMES = st.sampled_from(sorted(TYPE_MAP) + ["integer", "foo", "my_type", "setof", "interval", "Int4", "x$y"])
_TEXTS = st.one_of(
    st.builds(lambda p, n, m, a, sp: sp + p + n + m + a + sp,
              st.sampled_from(["", "pg_catalog.", "public.", "PG_CATALOG.", "pg_catalog .", '"s".']), _NAMES,
              st.sampled_from(["", "(10)", "(3, 2)", "(0)", " (5)", "(100000000)"]),
              st.sampled_from(["", "[]", " [ ]", "[][]", "[3]", " array"]), st.sampled_from(["", " ", "\n"])),
    st.text(alphabet="abcdefgint_ .()[]%,0123\"$", max_size=20),
)


@settings(max_examples=400, deadline=None)
@given(_TEXTS)
def test_bad_type_as_before(text: str) -> None:
    assert _outcome(R._bad_type, text, ()) == _outcome(_former_bad_type, text)


# ---- W604 / W605 ---------------------------------------------------------------------------------------
def _former_has_unknown_call(n: Any) -> bool:
    return any(F.unknown_calls(e) for e in F._exprs(n))


def _former_has_unparsed(n: Any) -> bool:
    return any(F._unparsed(e) for e in F._exprs(n, twins=False))


def test_w604_w605_as_before_on_every_fixture_statement() -> None:
    nodes = _met("DDLC-W604") + _met("DDLC-W605")
    assert len(nodes) >= 50
    for n in nodes:
        assert F.has_unknown_call(n) == _former_has_unknown_call(n), n
        assert F.has_unparsed(n) == _former_has_unparsed(n), n


# ---- W666, W658 ----------------------------------------------------------------------------------------
def _former_out_of_range(n: Any) -> bool:
    bits = OM._bits(n)
    return bool([o for o in n.options if OM._clamped(o, bits) is not None])


def _former_drops_index_options(n: Any) -> bool:
    return len(OM._kept_options(n)) != len(OM.index_options(n.options))


(_W658,) = [r for r in PostgresBackend.rules if r.code == "DDLC-W658"]


def _w658(n: Any) -> bool:
    return _W658.applies(n)


def test_w666_w658_as_before_on_every_fixture_statement() -> None:
    seqs, indexes = _met("DDLC-W666"), _met("DDLC-W658")
    assert len(seqs) >= 5 and len(indexes) >= 5
    for n in seqs:
        assert _outcome(OM._any_out_of_range, n) == _outcome(_former_out_of_range, n), n
    for n in indexes:
        assert _w658(n) == _former_drops_index_options(n), n


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["btree", "ubtree", '"gin"', "psort", "cgin", "hash", "gist", "spgist", "brin", "x"]),
       st.one_of(st.none(), st.text(alphabet="abfilctor_= ,0-9", max_size=30),
                 st.lists(st.sampled_from(["fillfactor=70", "deduplicate_items=on", "FILLFACTOR = 5", "fastupdate=on",
                                           "gin_pending_list_limit=64", "pages_per_range=4", "buffering=auto",
                                           "compression=low", " ", ""]), max_size=4).map(", ".join)))
def test_w658_as_before(method: str, options: Any) -> None:
    n = _met("DDLC-W658")[0]
    from ddlc.ir.base import replace

    n = replace(n, method=method, options=options)
    assert _w658(n) == _former_drops_index_options(n)


# ---- W633 ----------------------------------------------------------------------------------------------
def _former_multi_column_list(spec: Any) -> bool:
    return (spec.strategy is PartitionStrategy.LIST and len(spec.key) > 1) or any(
        isinstance(v, BoundValue) and v.kind is BoundKind.TUPLE
        for p in (*spec.partitions, *(s for p in spec.partitions for s in p.subpartitions))
        if isinstance(p.bound, ListValues) for v in p.bound.values
    )


def test_w633_as_before_on_every_fixture_table() -> None:
    specs = [n.partition.spec for n in _met("DDLC-W633") if n.partition is not None and n.partition.spec is not None]
    assert len(specs) >= 5
    for spec in specs:
        assert P.multi_column_list(spec) == _former_multi_column_list(spec), spec


def _bound(kinds: list[BoundKind] | None) -> Any:
    return None if kinds is None else ListValues(tuple(BoundValue("x", k) for k in kinds))


_KINDS = st.lists(st.sampled_from([BoundKind.TUPLE, BoundKind.DEFAULT, BoundKind.NULL]), max_size=3)
_PARTITIONS = st.lists(st.tuples(st.one_of(st.none(), _KINDS), st.lists(st.one_of(st.none(), _KINDS), max_size=3)),
                       max_size=4)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(list(PartitionStrategy)), st.integers(1, 2), _PARTITIONS)
def test_multi_column_list_as_before(strategy: PartitionStrategy, nkeys: int, parts: Any) -> None:
    from ddlc.ir.partition import Partition, PartitionSpec

    spec = PartitionSpec(strategy, ("a", "b")[:nkeys], tuple(
        Partition(f"p{i}", _bound(b), subpartitions=tuple(Partition(f"s{j}", _bound(sb)) for j, sb in enumerate(subs)))
        for i, (b, subs) in enumerate(parts)))
    assert P.multi_column_list(spec) == _former_multi_column_list(spec)
