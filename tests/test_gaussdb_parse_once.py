"""Parse once: the GaussDB emitters never parse text.

The IR keeps a node's source text only while it still stands for the parsed fields (a pass that
changes them clears it: :func:`ddlc.ir.base.source_text`); the emitters write that text or render
the fields, with no parser. Every fixture is built, run through the passes with options that change
names everywhere (so the emitters take their "changed" path), and emitted with every parse entry
point patched to fail.
"""

from __future__ import annotations

import json
import sys

import pytest

from conftest import case_dirs, case_id
from ddlc.api import Options
from ddlc.backends import get_backend
from ddlc.backends.base import EmitContext
from ddlc.compiler import front, normalize
from ddlc.errors import DdlcError
from ddlc.frontend.documents import as_document
from ddlc.ir.base import Node, walk
from ddlc.ir.drop import SchemaName
from ddlc.ir.names import QualifiedName, TypeName
from ddlc.passes.map_schemas import SCHEMA_FIELDS

CASES = [c for c in case_dirs() if not (c / "expected.error.json").exists()]

# (module, attribute) of every parse entry point an emitter could reach
_PARSERS = (
    ("ddlc.frontend.sql.partition", "parse_partition_clause"),
    ("ddlc.frontend.sql.partition", "parse_bound_value"),
    ("ddlc.frontend.sql.index", "parse_definition"),
    ("ddlc.frontend.sql.identity", "parse_identity"),
    ("ddlc.frontend.sql.refs", "name_refs"),
    ("ddlc.frontend.sql.lexer", "scan"),
    ("ddlc.frontend.sql.functext", "parse_function_text"),
    ("pglast", "parse_sql"),
    ("pglast.parser", "parse_sql"),
)


def _forbid_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every parse entry point raises, wherever a module imported it."""
    import importlib

    originals = {}
    for mod_name, attr in _PARSERS:
        fn = getattr(importlib.import_module(mod_name), attr)
        originals[id(fn)] = f"{mod_name}.{attr}"

    def refuse(what: str):
        def fail(*a, **kw):
            raise AssertionError(f"an emitter parsed text: {what} called")

        return fail

    for name, mod in list(sys.modules.items()):
        if mod is None or not (name == "pglast" or name.startswith(("ddlc", "pglast."))):
            continue
        for attr, value in list(vars(mod).items()):
            what = originals.get(id(value))
            if what is not None and callable(value):
                monkeypatch.setattr(mod, attr, refuse(what))


def _schemas(stmt: Node) -> set[str]:
    """Every schema name the statement mentions (names, types, schema statements)."""
    out: set[str] = set()
    for n in walk(stmt):
        if isinstance(n, QualifiedName | TypeName) and n.schema:
            out.add(n.schema)
        elif isinstance(n, SchemaName):
            out.add(n.name)
        for f in SCHEMA_FIELDS.get(type(n).__name__, ()):
            v = getattr(n, f, None)
            if isinstance(v, str) and v:
                out.add(v)
    return out


def _front(case):
    doc = as_document(json.loads((case / "input.json").read_text("utf-8")), source=case_id(case))
    try:
        return front(doc, Options.of())
    except DdlcError:
        return None


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_gaussdb_emitters_parse_nothing(case, monkeypatch):
    f = _front(case)
    if f is None:
        pytest.skip("the document itself is an error")
    backend = get_backend("gaussdb")
    mapping = {s: s + "_moved" for s in _schemas(f.stmt)} or {"public": "public_moved"}
    opts = Options.of(schema_map=mapping, default_schema="dflt_moved")
    try:
        stmt, _ = normalize(f.stmt, backend, opts, document=case_id(case))
    except DdlcError:
        pytest.skip("a pass rejects the statement (the server's own error)")
    _forbid_parsing(monkeypatch)
    for mode in ("canonical", "raw"):
        options = Options.of(mode=mode, schema_map=mapping, default_schema="dflt_moved")
        out = backend.emit(stmt, EmitContext(document=case_id(case), options=options, schema_map=mapping))
        assert all(isinstance(s, str) for s in out.statements)
    # and the statement as built (no pass): the source texts are written back, still unparsed
    backend.emit(f.stmt, EmitContext(document=case_id(case), options=Options.of()))


def test_the_changed_path_is_taken():
    """The options above do change statements: source texts get cleared, names get spliced."""
    from ddlc.ir.drop import Drop
    from ddlc.ir.index import CreateIndex
    from ddlc.ir.routine import CreateFunction
    from ddlc.ir.table import CreateTable

    backend = get_backend("gaussdb")
    seen: dict[str, int] = {}
    for case in CASES:
        f = _front(case)
        if f is None:
            continue
        mapping = {s: s + "_moved" for s in _schemas(f.stmt)}
        try:
            stmt, _ = normalize(f.stmt, backend, Options.of(schema_map=mapping, default_schema="dflt_moved"))
        except DdlcError:
            continue
        if isinstance(stmt, Drop) and stmt.identity is not None and stmt.identity_text is None:
            seen["drop"] = seen.get("drop", 0) + 1
        if isinstance(stmt, CreateFunction) and stmt.name_span is not None and stmt.name_text is None:
            seen["function"] = seen.get("function", 0) + 1
        if isinstance(stmt, CreateIndex) and stmt.definition_text is None:
            seen["index"] = seen.get("index", 0) + 1
        if isinstance(stmt, CreateTable) and stmt.partition is not None and stmt.partition.text is None:
            seen["partition"] = seen.get("partition", 0) + 1
    assert {"drop", "function", "index", "partition"} <= set(seen), seen


def test_replace_clears_source_text_only_on_change():
    from ddlc.ir.base import replace
    from ddlc.ir.drop import Drop, DropObjectType

    d = Drop(DropObjectType.TABLE, "s.t", QualifiedName("t", "s"))
    assert replace(d, identity=QualifiedName("t", "s")).identity_text == "s.t"  # equal: kept
    assert replace(d, cascade=True).identity_text == "s.t"
    assert replace(d, identity=QualifiedName("t", "x")).identity_text is None
    assert replace(d, identity=QualifiedName("t", "x"), identity_text="x.t").identity_text == "x.t"
