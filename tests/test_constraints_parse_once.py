"""Parse once: constraint definitions and partition bound values are parsed at build time, never by the
PostgreSQL emitters (or the rules the passes apply for them).

Every fixture is built and run through the passes for the PostgreSQL target; then the parse entry points
of constraint definitions (:mod:`ddlc.frontend.sql.constraints`) and of bound values
(:func:`ddlc.frontend.sql.partition.parse_bound_value`) are patched to fail, wherever a module imported
them, and the statement is emitted. ``pglast.parse_sql`` is patched to fail for the CREATE TABLE and ALTER
TABLE families; for the other families (expressions, views, routines: another part of the parse-once work)
its calls are counted and reported as a warning, not failed.
"""

from __future__ import annotations

import importlib
import json
import sys
import warnings

import pytest

from conftest import CASES as CASES_DIR
from conftest import case_dirs, case_id
from ddlc.api import Options
from ddlc.backends import get_backend
from ddlc.backends.base import EmitContext
from ddlc.compiler import front, normalize
from ddlc.errors import DdlcError
from ddlc.frontend.documents import as_document
from ddlc.ir.alter import AddConstraint, AlterRelation
from ddlc.ir.alter_partitions import BoundText, with_parsed_bounds
from ddlc.ir.base import walk
from ddlc.ir.table import CreateTable, TableConstraint

CASES = [c for c in case_dirs() if not (c / "expected.error.json").exists()]
STRICT_PGLAST = ("create_table", "alter_table")  # families whose emitters must not call pglast at all

# (module, attribute): the parse entry points of this part of the work, always forbidden while emitting
_OURS = (
    ("ddlc.frontend.sql.constraints", "parse_constraint"),
    ("ddlc.frontend.sql.constraints", "read_definition"),
    ("ddlc.frontend.sql.constraints", "split_informational"),
    ("ddlc.frontend.sql.constraints", "kind_of_text"),
    ("ddlc.frontend.sql.partition", "parse_bound_value"),
)
_PGLAST = (("pglast", "parse_sql"), ("pglast.parser", "parse_sql"))


def _patch(monkeypatch: pytest.MonkeyPatch, entries: tuple[tuple[str, str], ...], make) -> None:
    """Replace every entry point, in every module that holds it, by ``make(name, original)``."""
    originals = {}
    for mod_name, attr in entries:
        fn = getattr(importlib.import_module(mod_name), attr)
        originals[id(fn)] = (f"{mod_name}.{attr}", fn)
    for name, mod in list(sys.modules.items()):
        if mod is None or not (name == "pglast" or name.startswith(("ddlc", "pglast."))):
            continue
        for attr, value in list(vars(mod).items()):
            hit = originals.get(id(value))
            if hit is not None and callable(value):
                monkeypatch.setattr(mod, attr, make(*hit))


_REFUSED: list[str] = []  # calls refused, also when a caller swallowed the AssertionError


def _refuse(what: str, fn):
    def fail(*a, **kw):
        _REFUSED.append(what)
        raise AssertionError(f"an emitter parsed text: {what} called")

    return fail


def _prepared(case, monkeypatch):
    """Built, then through the passes with the target's rules, which may not parse either."""
    doc = as_document(json.loads((case / "input.json").read_text("utf-8")), source=case_id(case))
    opts = Options.of(on_unsupported="skip")
    backend = get_backend("postgres")
    try:
        f = front(doc, opts)
    except DdlcError:
        return None
    _patch(monkeypatch, _OURS, _refuse)
    try:
        stmt, _ = normalize(f.stmt, backend, opts, document="t")
    except DdlcError:
        return None
    return backend, stmt, opts


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_postgres_emitters_parse_no_constraint_or_bound(case, monkeypatch):
    _REFUSED.clear()
    prepared = _prepared(case, monkeypatch)
    if prepared is None:
        pytest.skip("the document itself is an error")
    backend, stmt, opts = prepared
    family = case.relative_to(CASES_DIR).parts[0]
    calls: list[str] = []
    if family in STRICT_PGLAST:
        _patch(monkeypatch, _PGLAST, _refuse)
    else:
        def count(what, fn):
            def counted(*a, **kw):
                calls.append(what)
                return fn(*a, **kw)

            return counted

        _patch(monkeypatch, _PGLAST, count)
    out = backend.emit(stmt, EmitContext(document="t", options=opts, on_unsupported="skip", catalog=None))
    assert all(isinstance(s, str) for s in out.statements)
    assert _REFUSED == []  # none swallowed by an ``except Exception`` either
    if calls:
        warnings.warn(f"{case_id(case)}: pglast.parse_sql called {len(calls)} time(s) while emitting "
                      "(outside the constraint / partition-bound work)", stacklevel=1)


def test_constraints_carry_their_parsed_form():
    """The builders store the parsed form and the text facts (CREATE TABLE elements, ADD CONSTRAINT)."""
    seen = {"element": 0, "add": 0, "verbatim": 0}
    for case in CASES:
        try:
            f = front(as_document(json.loads((case / "input.json").read_text("utf-8"))), Options.of())
        except DdlcError:
            continue
        for n in walk(f.stmt):
            if isinstance(n, TableConstraint):
                seen["element"] += 1
            elif isinstance(n, AddConstraint):
                seen["add"] += 1
                assert n.kind is not None or n.parsed is None
                if n.parsed is not None:
                    assert n.kind is n.parsed.kind
            else:
                continue
            seen["verbatim"] += n.verbatim
            if n.verbatim:
                assert n.parsed is not None and not n.informational
    assert all(seen.values()), seen


def test_bound_values_are_parsed_at_build_time_and_kept_by_the_history():
    from ddlc.history import Catalog

    seen = 0
    for case in CASES:
        try:
            f = front(as_document(json.loads((case / "input.json").read_text("utf-8"))), Options.of())
        except DdlcError:
            continue
        if not isinstance(f.stmt, AlterRelation):
            continue
        for n in walk(f.stmt):
            texts = getattr(n, "bounds", ()) or getattr(n, "for_values", ())
            if texts:
                seen += 1
                assert len(n.bound_values) == len(texts)
                assert all(v is None or v.text == t.strip() for t, v in zip(texts, n.bound_values, strict=True))
                assert all(type(t) is str for t in texts)  # the IR holds plain texts (JSON trees need them)
                typed = with_parsed_bounds(n)
                assert all(isinstance(t, BoundText) for t in getattr(typed, "bounds", ()) or typed.for_values)
    assert seen
    kept = 0
    for case in CASES:  # a CREATE TABLE's bounds, recorded, keep their parsed values
        try:
            f = front(as_document(json.loads((case / "input.json").read_text("utf-8"))), Options.of())
        except DdlcError:
            continue
        if not isinstance(f.stmt, CreateTable) or f.stmt.partition is None or f.stmt.partition.spec is None:
            continue
        cat = Catalog()
        cat.record(f.stmt)
        for st in cat.tables.values():
            for p in st.partitions:
                for t in (p.upper or p.values or ()):
                    if t.strip().upper() not in ("MAXVALUE", "DEFAULT"):
                        assert isinstance(t, BoundText) and t.parsed is not None, (case_id(case), t)
                        kept += 1
    assert kept
