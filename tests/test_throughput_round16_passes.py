"""Throughput round 16 (issue 26): ``drop_unsupported`` finds the next rule by its generated function; CREATE INDEX's
rules and text without repeated work.

* ``_Walk.apply``, once a rule has applied, asks ``rules.after(node, stack, k)`` (generated like ``first``, with the
  ``needs`` fields tested before each predicate) for the next rule of the changed node, instead of calling every
  later rule's ``applies`` and ``within`` in its own loop.
* CREATE INDEX's predicates (``backends/postgres/index_rules.py``): W657, W658, W661, W663 and the key's W660 say
  by ``needs`` which field they are false without; W658 reads the options once, W659 looks at the keys' classes
  before the method; ``target_method`` and W655 take the common method spellings without the strips.
* The sequence rules (W665-W668): each range's bounds worked out once at import instead of ``2 ** bits`` per value
  (twice per option when clamping), the clamp's test once per option, ``needs`` on LARGE, AS and the persistence.
* The CREATE INDEX text: the method lowered once, no options read when there are none, the ordering words by
  identity instead of the enum's ``value`` property, the option value quoted without ``_option_value``'s frame.

Compared here: the pass against its former module (read from git) over every fixture statement and its variants,
on the three targets' rules; the former CREATE INDEX rules (their predicates and rewrites as they were) against
today's through both passes over every fixture index and generated ones with hostile values (quotes,
backslashes, ``$$``, ``--``, ``/*``, newlines, non-ASCII, empty, every method spelling, options, classes,
collations, LOCAL lists, CONCURRENTLY); ``target_method`` and the ordering words against their former forms.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ddlc import lazyre
from ddlc.backends.gaussdb import GaussDBBackend
from ddlc.backends.postgres import PostgresBackend
from ddlc.backends.postgres import index_rules as IR
from ddlc.backends.postgres import indexes as IX
from ddlc.backends.postgres import objects_more as OM
from ddlc.backends.spark import SparkBackend
from ddlc.errors import DdlcError
from ddlc.ir import base
from ddlc.ir.base import replace
from ddlc.ir.index import CreateIndex, IndexKey, IndexPartition, NullsOrder, PartitionScope, SortOrder
from ddlc.ir.names import QualifiedName
from ddlc.ir.rules import Rule
from ddlc.ir.sequence import AlterSequence, CreateSequence, Persistence, SeqClause, SeqOption
from ddlc.options import Options
from ddlc.passes import PassContext
from tests.test_throughput_passes import STATEMENTS, _variants
from tests.test_throughput_round11_pg import _former_create_index, _text_emitted

ROOT = Path(__file__).resolve().parents[1]
BASE = "a38eda0"  # the round's base: the modules as they were before it
du = sys.modules.get("ddlc.passes.drop_unsupported") or importlib.import_module("ddlc.passes.drop_unsupported")


def _former_pass() -> Any:
    """``drop_unsupported.py`` as the round's base had it, run as a module of ``ddlc.passes``; None without git."""
    try:
        src = subprocess.run(["git", "show", f"{BASE}:ddlc/passes/drop_unsupported.py"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    name = "ddlc.passes._former_drop_unsupported_r16"
    spec = importlib.util.spec_from_loader(name, loader=None)
    mod = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    mod.__package__ = "ddlc.passes"
    sys.modules[name] = mod
    exec(compile(src, f"<{BASE}:drop_unsupported.py>", "exec"), mod.__dict__)
    return mod


FORMER = _former_pass()
needs_git = pytest.mark.skipif(FORMER is None, reason="no git history")


# ---- the former CREATE INDEX predicates and rewrites (objects_more.py at the base) -----------------------------------
_REPLACED_METHODS = {"psort": "btree", "cbtree": "btree", "cgin": "gin"}
_B_COLLATION = lazyre.compile(r"(?:utf8mb4|utf8|gbk|gb18030|latin1)_[a-z0-9_]+|binary\Z", re.I)


def former_target_method(method: str) -> str:
    m = method.strip().strip('"').lower()
    return "btree" if m == "ubtree" else _REPLACED_METHODS.get(m, m)


def _kept_options(n: CreateIndex) -> list[tuple[str, str]]:
    allowed = IR.INDEX_RELOPTIONS.get(former_target_method(n.method))
    opts = IR.index_options(n.options)
    return opts if allowed is None else [(k, v) for k, v in opts if k in allowed]


def _bad_opclass(n: CreateIndex, k: IndexKey) -> bool:
    classes = IR.PG_OPCLASSES.get(former_target_method(n.method))
    return (classes is not None and k.opclass is not None and k.opclass.schema == "pg_catalog"
            and k.opclass.name not in classes)


FORMER_APPLIES = {
    "DDLC-W655": lambda n: n.method.strip().strip('"').lower() in _REPLACED_METHODS,
    "DDLC-W656": lambda n: n.tablespace is not None,
    "DDLC-W657": lambda n: n.invisible,
    "DDLC-W658": lambda n: bool(n.options) and len(_kept_options(n)) != len(IR.index_options(n.options)),
    "DDLC-W659": lambda n: any(_bad_opclass(n, k) for k in n.keys),
    "DDLC-W660": lambda k: k.collation is not None and _B_COLLATION.match(k.collation.name) is not None,
    "DDLC-W661": lambda n: bool(n.partitions),
    "DDLC-W663": lambda n: n.concurrently and n.partition_scope is not PartitionScope.NONE,
    "DDLC-W664": lambda n: not n.keys,
}
FORMER_REWRITES = {
    "DDLC-W655": lambda n: replace(n, method=former_target_method(n.method)),
    "DDLC-W658": lambda n: replace(n, options=", ".join(f"{k}={v}" for k, v in _kept_options(n)) or None),
    "DDLC-W659": lambda n: replace(n, keys=tuple(replace(k, opclass=None) if _bad_opclass(n, k) else k
                                                 for k in n.keys)),
}


# ---- the former sequence predicates and rewrite (objects_more.py at the base) ---------------------------------------
def _former_bits(n: Any) -> int:
    for o in n.options:
        if isinstance(o, SeqOption) and o.clause is SeqClause.AS and o.type is not None:
            return OM.SEQ_RANGES.get(o.type.name.lower(), 63)
    return 63


def _former_clamped(o: Any, bits: int) -> str | None:
    if not isinstance(o, SeqOption) or o.value is None:
        return None
    v = int(o.value)
    c = min(max(v, -(2 ** bits)), 2 ** bits - 1)
    return None if c == v else str(c)


def _former_any_out_of_range(n: Any) -> bool:
    lo, hi = -(2 ** (bits := _former_bits(n))), 2 ** bits - 1
    return any([not lo <= int(o.value) <= hi for o in n.options if isinstance(o, SeqOption) and o.value is not None])


def _former_clamp(n: Any) -> Any:
    bits = _former_bits(n)
    return replace(n, options=tuple(replace(o, value=_former_clamped(o, bits), layout=None)
                                    if _former_clamped(o, bits) is not None else o for o in n.options))


FORMER_APPLIES.update({
    "DDLC-W665": lambda n: n.large,
    "DDLC-W666": _former_any_out_of_range,
    "DDLC-W667": lambda o: o.clause is SeqClause.AS and o.type is not None
    and (o.type.schema not in (None, "pg_catalog") or o.type.name.lower() not in OM._SEQ_TYPES),
    "DDLC-W668": lambda n: n.persistence is Persistence.GLOBAL_TEMPORARY,
})
FORMER_REWRITES["DDLC-W666"] = _former_clamp
_FORMER_CLASSES = (CreateIndex, IndexKey, CreateSequence, AlterSequence, SeqOption)
_FIELDS = ("node", "code", "message", "applies", "field", "absent", "rewrite", "text", "within", "path", "prefix",
           "comment", "last")


def _former_rule(r: Rule) -> Rule:
    if r.node not in _FORMER_CLASSES or r.code not in FORMER_APPLIES:
        return r
    kw = {f: getattr(r, f) for f in _FIELDS}
    kw["applies"] = FORMER_APPLIES[r.code]
    if r.code in FORMER_REWRITES:
        kw["rewrite"] = FORMER_REWRITES[r.code]
    return Rule(**kw)


BACKENDS = (PostgresBackend, SparkBackend, GaussDBBackend)
FORMER_RULES = {b: tuple(_former_rule(r) for r in b.rules) for b in BACKENDS}


def _ctx(backend: Any, rules: tuple[Rule, ...], on_unsupported: str = "warn") -> PassContext:
    return PassContext.of(Options.of(on_unsupported=on_unsupported), target=backend.name, document="d",
                          rules=rules, refused=backend.refused)


def _run(fn: Any, stmt: Any, ctx: PassContext) -> Any:
    try:
        out, diags = fn(stmt, ctx)
    except DdlcError as exc:
        return ("error", exc.code, str(exc))
    except ValueError as exc:  # (a sequence value that is not a number: the same error either way)
        return ("error", type(exc), str(exc))
    return (type(out).__name__, base.to_json(out, with_origin=True), diags)


def _same(stmt: Any, backend: Any, on_unsupported: str = "warn") -> None:
    new = _run(du.drop_unsupported, stmt, _ctx(backend, backend.rules, on_unsupported))
    old = _run(FORMER.drop_unsupported, stmt, _ctx(backend, FORMER_RULES[backend], on_unsupported))
    assert new == old, stmt


# ---- the pass over every fixture statement ---------------------------------------------------------------------------
@needs_git
@pytest.mark.parametrize("backend", BACKENDS, ids=lambda b: b.name)
def test_the_pass_as_before_on_every_fixture_statement(backend: Any) -> None:
    assert len(STATEMENTS) > 150
    changed = 0
    for _label, stmt in STATEMENTS:
        for v in _variants(stmt):
            _same(v, backend)
            changed += _run(du.drop_unsupported, v, _ctx(backend, backend.rules))[2] != []
    assert changed > (20 if backend is not GaussDBBackend else 0)


@needs_git
def test_the_pass_as_before_when_a_rule_is_an_error() -> None:
    for _label, stmt in STATEMENTS:
        _same(stmt, PostgresBackend, "error")


# ---- CREATE INDEX with hostile values --------------------------------------------------------------------------------
_INDEXES = [s for _label, s in STATEMENTS if type(s) is CreateIndex and s.keys]
HOSTILE = st.sampled_from(["", " ", "'", '"', "\\", "$$", "--", "/*", "*/", "\n", "é", "ß", "İ", "ﬁ", "\x00"])
_WORD = st.one_of(st.sampled_from(["btree", "BTREE", " btree ", '"btree"', '"BTree"', "ubtree", "UBTREE", '"ubtree"',
                                   "psort", "PSORT", " cbtree", '"cgin"', "cgin ", "gin", "gist", "hash", "spgist",
                                   "brin", "x", "", '""', '"', "text_ops", "int4_ops", "numeric_ops",
                                   "utf8mb4_bin", "UTF8_general_ci", "binary", "BINARY", "gbk_chinese_ci", "C"]),
                  st.lists(st.one_of(HOSTILE, st.sampled_from(["btree", "gin", "a", "_", "ops"])),
                           max_size=4).map("".join))
_OPTIONS = st.one_of(st.none(), st.just(""), st.lists(st.one_of(
    st.sampled_from(["fillfactor=70", "deduplicate_items=on", "FILLFACTOR = 5", "fastupdate=off", " ", "",
                     "gin_pending_list_limit=64", "pages_per_range=4", "buffering=auto", "compression=low",
                     "autosummarize=on", "a=", "=b", "fillfactor"]),
    st.tuples(_WORD, HOSTILE).map("=".join)), max_size=4).map(", ".join))
_QNAME = st.one_of(st.none(), st.builds(QualifiedName, schema=st.sampled_from([None, "pg_catalog", "public", "",
                                                                                '"', "pg_catalog "]), name=_WORD))
_KEY = st.builds(lambda column, collation, opclass, ordering, nulls: IndexKey(
    column=column, collation=collation, opclass=opclass, ordering=ordering, nulls=nulls),
    st.sampled_from(["a", "B", 'x"y', "é"]), _QNAME, _QNAME, st.sampled_from([None, *SortOrder]),
    st.sampled_from([None, *NullsOrder]))
_PARTITIONS = st.lists(st.builds(IndexPartition, name=st.sampled_from(["p1", "P 2", "'"]),
                                 tablespace=st.sampled_from([None, "", "ts"])), max_size=2).map(tuple)


@needs_git
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10 ** 6), _WORD, _OPTIONS, st.sampled_from([None, "", "ts", "'\n--"]), st.booleans(),
       st.booleans(), st.sampled_from(list(PartitionScope)), _PARTITIONS, st.lists(_KEY, max_size=3),
       st.sampled_from(["warn", "error"]))
def test_create_index_rules_as_before(pick: int, method: str, options: Any, tablespace: Any, invisible: bool,
                                      concurrently: bool, scope: Any, partitions: Any, keys: list[IndexKey],
                                      on_unsupported: str) -> None:
    n = _INDEXES[pick % len(_INDEXES)]
    n = replace(n, method=method, options=options, tablespace=tablespace, invisible=invisible,
                concurrently=concurrently, partition_scope=scope, partitions=partitions,
                keys=(*n.keys, *keys) if pick % 3 else tuple(keys))
    for r in PostgresBackend.rules:
        if r.code in FORMER_APPLIES and r.node is type(n):
            assert bool(r.applies(n)) == bool(FORMER_APPLIES[r.code](n)), (r.code, n)
            if r.code in FORMER_REWRITES and FORMER_APPLIES[r.code](n):
                assert base.to_json(r.rewrite(n)) == base.to_json(FORMER_REWRITES[r.code](n)), (r.code, n)
    for k in n.keys:
        assert IR._b_collation(k) == FORMER_APPLIES["DDLC-W660"](k), k
    _same(n, PostgresBackend, on_unsupported)
    _same(n, SparkBackend, on_unsupported)


def test_there_are_fixture_indexes() -> None:
    assert len(_INDEXES) >= 5


@given(_WORD)
def test_target_method_as_before(method: str) -> None:
    assert IR.target_method(method) == former_target_method(method)


def test_the_needs_fields_are_what_the_predicates_are_false_without() -> None:
    n = _INDEXES[0]
    for f, falsy in (("_options_dropped", {"options": None}), ("_invisible", {"invisible": False}),
                     ("_local_names", {"partitions": ()}), ("_concurrently_partitioned", {"concurrently": False})):
        pred = getattr(IR, f)
        (field,) = pred.needs
        assert field in falsy
        for scope in PartitionScope:
            assert not pred(replace(n, partition_scope=scope, **falsy))
    assert IR._b_collation.needs == ("collation",) and not IR._b_collation(IndexKey(column="a"))


def test_the_ordering_words_are_the_members_values() -> None:
    for m in (*SortOrder, *NullsOrder):
        assert IX._WORD[id(m)] == m.value


# ---- the CREATE INDEX text -------------------------------------------------------------------------------------------
@settings(max_examples=600, deadline=None)
@given(st.integers(0, 10 ** 6), _WORD, _OPTIONS, st.lists(_KEY, min_size=1, max_size=3), st.booleans(),
       st.booleans(), st.sampled_from(list(PartitionScope)))
def test_create_index_text_as_before(pick: int, method: str, options: Any, keys: list[IndexKey], unique: bool,
                                     concurrently: bool, scope: Any) -> None:
    """Today's emitter against round 11's former one (through the writer, the method and options read as they were
    then: ``target_method`` is compared with its former self above), on hostile methods, options and keys."""
    n = _INDEXES[pick % len(_INDEXES)]
    n = replace(n, method=method, options=options, unique=unique, concurrently=concurrently, partition_scope=scope,
                keys=tuple(keys) if pick % 2 else n.keys)
    assert _text_emitted(OM.create_index, n) == _text_emitted(_former_create_index, n)


# ---- sequences with hostile values -----------------------------------------------------------------------------------
_SEQUENCES = [s for _label, s in STATEMENTS if type(s) in (CreateSequence, AlterSequence)]
_VALUES = st.one_of(st.none(), st.sampled_from(["0", "-0", "1", "-1", "+5", " 7", "1_000", "32767", "32768", "-32768",
                                                "-32769", "2147483647", "2147483648", "9223372036854775807",
                                                "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
                                                "170141183460469231731687303715884105727", "-" + "9" * 60, "٣",
                                                "abc", "", "1e3", "$$", "--", "'"]),
                    st.integers(-(2 ** 130), 2 ** 130).map(str))
_TYPES = st.one_of(st.none(), st.builds(QualifiedName, schema=st.sampled_from([None, "pg_catalog", "public", "",
                                                                                 "PG_CATALOG"]),
                                        name=st.sampled_from(["int2", "SMALLINT", "integer", "int4", "int8", "bigint",
                                                              "Int8", "numeric", "int16", "", "'", "é", "\n"])))
_SEQ_OPTION = st.builds(lambda clause, value, no, type_: SeqOption(clause=clause, value=value, no=no, type=type_),
                        st.sampled_from(list(SeqClause)), _VALUES, st.booleans(), _TYPES)


@needs_git
@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10 ** 6), st.lists(_SEQ_OPTION, max_size=5), st.booleans(), st.sampled_from(list(Persistence)),
       st.sampled_from(["warn", "error"]))
def test_sequence_rules_as_before(pick: int, options: list[SeqOption], large: bool, persistence: Any,
                                  on_unsupported: str) -> None:
    n = _SEQUENCES[pick % len(_SEQUENCES)]
    n = replace(n, options=tuple(options), large=large)
    if type(n) is CreateSequence:
        n = replace(n, persistence=persistence)
    for r in PostgresBackend.rules:
        if r.code in FORMER_APPLIES and r.node in (type(n), SeqOption):
            for x in (n,) if r.node is type(n) else n.options:
                assert (_outcome(lambda y: bool(r.applies(y)), x)
                        == _outcome(lambda y: bool(FORMER_APPLIES[r.code](y)), x)), (r.code, x)
    assert _outcome(lambda m: base.to_json(OM._clamp(m)), n) == _outcome(lambda m: base.to_json(_former_clamp(m)), n)
    for bits in (15, 31, 63, 7, 64, 127):
        for o in n.options:
            assert _outcome(OM._clamped, o, bits) == _outcome(_former_clamped, o, bits)
    _same(n, PostgresBackend, on_unsupported)


def _outcome(f: Any, *args: Any) -> Any:
    try:
        return ("value", f(*args))
    except Exception as exc:  # noqa: BLE001 - the same error either way
        return ("error", type(exc), str(exc))


def test_there_are_fixture_sequences() -> None:
    assert len(_SEQUENCES) >= 4
    assert OM._BOUNDS == {b: (-(2 ** b), 2 ** b - 1) for b in (15, 31, 63)}
