"""Parse once: the PostgreSQL emitters of expressions, views, queries and recovered statements never parse.

Every SQL fragment those emitters write (defaults, generation expressions, trigger WHEN, view and CREATE
TABLE AS queries) is parsed at build time by the frontend's SQL layer (:mod:`ddlc.frontend.sql`) into
the parsed form the IR's :class:`ddlc.ir.names.Expr` carries. Every fixture is built and normalized, then
emitted for PostgreSQL with the parse entry points patched: a call made on behalf of the emitters this
test covers (postgres ``exprs``, ``objects_more``, ``misc``, ``routines``, ``types``) or of the SQL layer
fails the test. Parses other emitters still make (constraint text, partition bounds, index
definitions, the transitional path for Exprs built outside the SQL layer) are let through and listed by
:func:`other_parses` (``python -m pytest tests/test_postgres_parse_once.py -s -k summary``).
"""

from __future__ import annotations

import copy
import json
import sys
import traceback
from pathlib import Path

import pytest

from conftest import case_dirs, case_id
from ddlc.api import Options
from ddlc.backends import get_backend
from ddlc.backends.base import EmitContext
from ddlc.compiler import front, normalize
from ddlc.errors import DdlcError
from ddlc.frontend.documents import as_document
from ddlc.ir.base import fields, walk
from ddlc.ir.names import Expr

CASES = [c for c in case_dirs() if not (c / "expected.error.json").exists()]

# the parse entry points patched (module, attribute); also replaced wherever a module imported them
_PARSERS = (
    ("pglast", "parse_sql"),
    ("pglast.parser", "parse_sql"),
    ("pglast", "split"),
    ("pglast", "prettify"),
    ("ddlc.frontend.sql.expr", "parse_expr"),
    ("ddlc.frontend.sql.expr", "parse_query"),
    ("ddlc.frontend.sql.expr", "parses_as_statement"),
    ("ddlc.frontend.sql.expr", "make_expr"),
    ("ddlc.frontend.sql.expr", "make_query"),
)
_SQL_LAYER = "ddlc.frontend.sql.expr"
_OWN = {f"ddlc/backends/postgres/{m}.py" for m in ("exprs", "objects_more", "misc", "routines", "types")}
# transitional: Exprs built outside the SQL layer (see ddlc.backends.postgres.exprs); counted as others'
_TRANSITIONAL = {"_unbuilt_tree", "_unbuilt_query"}
_PKG = str(Path(__file__).resolve().parents[1] / "ddlc")


def _who(stack: list[traceback.FrameSummary]) -> tuple[bool, str]:
    """(on behalf of the emitters under test?, the innermost ddlc caller) of a parse call."""
    for fr in reversed(stack):
        if not fr.filename.startswith(_PKG):
            continue
        rel = "ddlc" + fr.filename[len(_PKG):]
        where = f"{rel}:{fr.name}"
        if fr.name in _TRANSITIONAL:
            return False, where
        return rel in _OWN, where
    return False, "?"


class Recorder:
    def __init__(self) -> None:
        self.own: list[str] = []
        self.others: list[str] = []

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        import importlib

        originals = {}
        for mod_name, attr in _PARSERS:
            fn = getattr(importlib.import_module(mod_name), attr)
            originals[id(fn)] = (f"{mod_name}.{attr}", fn, mod_name == _SQL_LAYER)

        def patched(what: str, fn, layer: bool):
            def call(*a, **kw):
                own, where = _who(traceback.extract_stack()[:-1])
                if own or layer:
                    self.own.append(f"{what} from {where}")
                    raise AssertionError(f"parsed at emit time: {what} called from {where}")
                self.others.append(f"{what} from {where}")
                return fn(*a, **kw)

            return call

        for name, mod in list(sys.modules.items()):
            if mod is None or not (name == "pglast" or name.startswith(("ddlc", "pglast."))):
                continue
            for attr, value in list(vars(mod).items()):
                hit = originals.get(id(value))
                if hit is not None and callable(value):
                    monkeypatch.setattr(mod, attr, patched(*hit))


def _front(case: Path):
    doc = as_document(json.loads((case / "input.json").read_text("utf-8")), source=case_id(case))
    try:
        return front(doc, Options.of())
    except DdlcError:
        return None


def _normalized(case: Path, options: Options):
    f = _front(case)
    if f is None:
        return None
    backend = get_backend("postgres")
    try:
        stmt, _ = normalize(f.stmt, backend, options, document=case_id(case))
    except DdlcError:
        return None
    return backend, stmt


def _emit(backend, stmt, options: Options, case: Path | None = None):
    ctx = EmitContext(document=None if case is None else case_id(case), options=options,
                      schema_map=dict(getattr(options, "schema_map", ()) or ()), on_unsupported="skip")
    return backend.emit(stmt, ctx)


def _sql_layer_exprs(stmt) -> list[Expr]:
    """The Exprs of the statement families whose builders this change covers (all parsed by the SQL layer)."""
    own = ("ddlc.ir.view", "ddlc.ir.trigger", "ddlc.ir.misc", "ddlc.ir.followup", "ddlc.ir.sequence")
    out = []
    for n in walk(stmt):
        if type(n).__module__ in own:
            out += [v for v in (getattr(n, f) for f in fields(n)) if isinstance(v, Expr)]
    return out


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_postgres_emitters_parse_nothing(case, monkeypatch):
    options = Options.of(on_unsupported="skip")
    got = _normalized(case, options)
    if got is None:
        pytest.skip("the document itself is an error")
    backend, stmt = got
    unparsed = [e.text for e in _sql_layer_exprs(stmt) if not e.parsed]
    assert unparsed == [], "Exprs built without the SQL layer's parsed form"
    expected = _emit(backend, stmt, options, case)  # unpatched, for comparison
    rec = Recorder()
    rec.install(monkeypatch)
    out = _emit(backend, stmt, options, case)
    assert rec.own == []
    assert out.statements == expected.statements
    assert [d.code for d in out.diagnostics] == [d.code for d in expected.diagnostics]


def _passes_keep_trees() -> bool:
    """Whether the passes that rewrite SQL text rebuild Exprs with :meth:`Expr.renamed` (trees kept)."""
    root = Path(__file__).resolve().parents[1] / "ddlc" / "passes"
    return all(".renamed(" in (root / f).read_text("utf-8") for f in ("map_schemas.py", "qualify_names.py"))


@pytest.mark.skipif(not _passes_keep_trees(), reason="map_schemas/qualify_names do not use Expr.renamed yet")
@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_postgres_emitters_parse_nothing_after_renames(case, monkeypatch):
    """With every schema mapped and a default schema, the passes rewrite the texts: the trees follow."""
    from ddlc.ir.names import QualifiedName, TypeName

    f = _front(case)
    if f is None:
        pytest.skip("the document itself is an error")
    schemas = {n.schema for n in walk(f.stmt) if isinstance(n, QualifiedName | TypeName) and n.schema}
    mapping = {s: s + "_moved" for s in schemas} or {"public": "public_moved"}
    options = Options.of(on_unsupported="skip", schema_map=mapping, default_schema="dflt_moved")
    got = _normalized(case, options)
    if got is None:
        pytest.skip("a pass rejects the statement")
    backend, stmt = got
    assert [e.text for e in _sql_layer_exprs(stmt) if not e.parsed] == []
    rec = Recorder()
    rec.install(monkeypatch)
    _emit(backend, stmt, options, case)
    assert rec.own == [] and not any("_unbuilt_" in c for c in rec.others)


def test_emitting_leaves_the_ir_trees_alone():
    """Rewrites work on copies: the parsed form in the IR is the same before and after emitting."""
    from ddlc.frontend.recover import recover_tddl
    from ddlc.frontend.sql import make_expr, make_query
    from ddlc.ir.view import CreateView
    from ddlc.ir.names import QualifiedName

    backend = get_backend("postgres")
    q = make_query("SELECT nvl(a, 1)::varchar2(3), sysdate FROM public.t;")
    before = copy.deepcopy(q.tree)
    view = CreateView(identity=QualifiedName("v", "public"), query=q, parsed=True)
    out = _emit(backend, view, Options.of())
    assert out.statements == ["CREATE VIEW public.v AS SELECT CAST(COALESCE(a, 1) AS varchar(3)), "
                              "CAST(statement_timestamp() AS timestamp(0)) FROM public.t"]
    assert q.tree == before
    e = make_expr("nvl(x, 0)")
    ctas, _ = recover_tddl("CREATE TABLE public.t2 AS SELECT nvl(b, 0) FROM public.t1;")
    before = copy.deepcopy(ctas.query.tree)
    assert _emit(backend, ctas, Options.of()).statements == [
        "CREATE TABLE public.t2 AS SELECT COALESCE(b, 0) FROM public.t1"]
    assert ctas.query.tree == before and e.tree is make_expr("nvl(x, 0)").tree  # cached, shared: never mutated


def test_renamed_keeps_the_tree_in_step_with_the_text():
    from pglast.stream import RawStream

    from ddlc.frontend.sql import make_expr, make_query
    from ddlc.ir.base import replace

    q = make_query("WITH c AS (SELECT 1) SELECT s.f(x)::s.ty, nextval('s.seq') FROM s.t, c, u")
    mapping = {"s": "z"}
    r = q.renamed("(new text)", lambda schema, name: mapping.get(schema) if schema else "dflt")
    assert r.text == "(new text)" and r.parsed
    assert RawStream()(r.tree) == ("WITH c AS (SELECT 1) SELECT CAST(z.f(x) AS z.ty), nextval('z.seq') "
                                   "FROM z.t, c, dflt.u")
    assert RawStream()(q.tree).startswith("WITH c AS (SELECT 1) SELECT CAST(s.f(x) AS s.ty)")  # original intact
    e = make_expr("a + 1")
    assert e == replace(e, text="a + 1") and not replace(e, text="a + 2").parsed  # a rebuilt Expr has no tree
    assert e.renamed("a + 1", lambda s, n: None).tree == e.tree


def test_type_nodes_match_the_parser():
    import pglast

    from ddlc.backends.postgres.types import TYPE_MAP, TYPE_NODES, type_node

    assert {v[0] for v in TYPE_MAP.values()} <= set(TYPE_NODES)
    for spelling in TYPE_NODES:
        parsed = pglast.parse_sql(f"SELECT NULL::{spelling}")[0].stmt.targetList[0].val.typeName
        parsed.location = None
        assert type_node(spelling) == parsed, spelling


def other_parses() -> dict[str, list[str]]:
    """Fixture -> the parse calls other emitters (or the transitional path) still make at emit time."""
    out: dict[str, list[str]] = {}
    for case in CASES:
        options = Options.of(on_unsupported="skip")
        got = _normalized(case, options)
        if got is None:
            continue
        backend, stmt = got
        mp = pytest.MonkeyPatch()
        rec = Recorder()
        try:
            rec.install(mp)
            _emit(backend, stmt, options, case)
        finally:
            mp.undo()
        if rec.others:
            out[case_id(case)] = sorted(set(rec.others))
    return out


def test_summary_of_parses_left_to_other_emitters(capsys):
    found = other_parses()
    with capsys.disabled():
        by_site: dict[str, int] = {}
        for calls in found.values():
            for c in calls:
                by_site[c] = by_site.get(c, 0) + 1
        if "-s" in sys.argv or "--capture=no" in sys.argv:
            for c, k in sorted(by_site.items()):
                print(f"\n{k:4d} fixtures: {c}", end="")
            for case, calls in sorted(found.items()):
                print(f"\n{case}: {'; '.join(calls)}", end="")
            print()
