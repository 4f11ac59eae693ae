"""No emitter parses: every SQL fragment was parsed at build time (the frontend's SQL layer).

For every fixture and both targets the document is read, built and normalized first; then every parse
entry point of ddlc and pglast is replaced (in its module and wherever a module imported it) by a
function that records the call and raises, and ``backend.emit`` runs. Nothing may be recorded. Run
twice: as the input came, and with every schema mapped to another name so that the passes change the
statements and the emitters take their "changed" paths.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pytest

from ddlc.api import Options
from ddlc.backends import BACKENDS, get_backend
from ddlc.backends.base import EmitContext
from ddlc.compiler import front, normalize
from ddlc.errors import DdlcError
from ddlc.frontend.documents import as_document

ROOT = Path(__file__).resolve().parents[1]
CASES = sorted(p for p in (ROOT / "fixtures" / "cases").rglob("input.json")
               if not (p.parent / "expected.error.json").exists())

ENTRY_POINTS = [
    ("pglast", "parse_sql"), ("pglast.parser", "parse_sql"), ("pglast", "split"), ("pglast", "prettify"),
    ("pglast.parser", "parse_plpgsql"),
    ("ddlc.frontend.sql.expr", "parse_expr"), ("ddlc.frontend.sql.expr", "parse_query"),
    ("ddlc.frontend.sql.expr", "parses_as_statement"), ("ddlc.frontend.sql.expr", "make_expr"),
    ("ddlc.frontend.sql.expr", "make_query"),
    ("ddlc.frontend.sql.constraints", "parse_constraint"), ("ddlc.frontend.sql.constraints", "read_definition"),
    ("ddlc.frontend.sql.constraints", "split_informational"),
    ("ddlc.frontend.sql.partition", "parse_partition_clause"),
    ("ddlc.frontend.sql.partition", "parse_bound_value"),
    ("ddlc.frontend.sql.functext", "parse_function_text"),
    ("ddlc.frontend.recover", "recover_tddl"), ("ddlc.frontend.build", "build"),
    ("ddlc.frontend.sql.index", "parse_definition"), ("ddlc.frontend.sql.identity", "parse_identity"),
    ("ddlc.frontend.sql.refs", "name_refs"), ("ddlc.frontend.sql.pgparse", "parse_statements"),
    ("ddlc.frontend.sql.lexer", "scan"), ("ddlc.frontend.sql.lexer", "tokens"),
    ("ddlc.frontend.sql.lexer", "token_at"),
    # the Spark target builds sqlglot trees from the parsed (pglast) form; sqlglot never reads text
    ("sqlglot", "parse_one"), ("sqlglot", "parse"), ("sqlglot", "transpile"), ("sqlglot", "maybe_parse"),
    ("sqlglot.expressions", "maybe_parse"),
]


class _Forbidden:
    """Swap every entry point for a recorder, in its module and in every ddlc module holding it."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.saved: list[tuple[object, str, object]] = []
        self.stubs: dict[object, object] = {}  # stub -> the original it stands for

    def __enter__(self) -> _Forbidden:
        for mod_name, attr in ENTRY_POINTS:
            try:
                mod = importlib.import_module(mod_name)
            except ImportError:
                continue
            original = getattr(mod, attr, None)
            if original is None:
                continue

            def forbidden(*args, _name=f"{mod_name}.{attr}", _original=original, **kw):
                if _name.startswith("sqlglot") and not sys._getframe(1).f_globals.get("__name__", "").startswith("ddlc"):
                    # sqlglot's generator looks type keywords up through its own parser
                    # (``is_type("float")``); only a call from ddlc would be ddlc parsing text
                    return _original(*args, **kw)
                self.calls.append(_name)
                raise AssertionError(f"{_name} called while emitting")

            holders = [mod] + [m for n, m in list(sys.modules.items())
                               if n.startswith("ddlc") and m is not None and getattr(m, attr, None) is original]
            for h in holders:
                self.saved.append((h, attr, original))
                setattr(h, attr, forbidden)
            self.stubs[forbidden] = original
        return self

    def __exit__(self, *exc: object) -> None:
        for h, attr, original in reversed(self.saved):
            setattr(h, attr, original)
        # a module first imported while emitting bound a stub by name (``from .sql.expr import make_query``):
        # give it the original too, or a later test in this process would call the stub
        for name, mod in list(sys.modules.items()):
            if name.startswith("ddlc") and mod is not None:
                for attr, value in list(vars(mod).items()):
                    if callable(value) and value in self.stubs:
                        setattr(mod, attr, self.stubs[value])


def _schemas(tree: object, out: set[str]) -> set[str]:
    if isinstance(tree, dict):
        for k, v in tree.items():
            if k in ("schemaname", "schema_name") and isinstance(v, str) and v:
                out.add(v)
            _schemas(v, out)
    elif isinstance(tree, list):
        for v in tree:
            _schemas(v, out)
    return out


def _warm_up_sqlglot() -> None:
    """Import sqlglot's PostgreSQL and Spark dialects and their type tables before the guard: when such
    a module is first imported, sqlglot parses its own type names (``DataType.from_str("ARRAY<STRING>")``).
    That is sqlglot setting itself up, once per process, not an emitter reading input."""
    import importlib

    from sqlglot import exp

    for name in ("sqlglot.typing.hive", "sqlglot.typing.spark", "sqlglot.typing.spark2", "sqlglot.typing.postgres"):
        try:
            importlib.import_module(name)
        except ImportError:
            pass
    exp.Select(expressions=[exp.Literal.number(1)]).sql(dialect="spark")
    exp.func("length", exp.Literal.string("x"), dialect="postgres").sql(dialect="spark")


@pytest.mark.parametrize("target", sorted(BACKENDS))
@pytest.mark.parametrize("moved", [False, True], ids=["as-is", "schemas-moved"])
def test_no_emitter_parses(target, moved):
    backend = get_backend(target)
    emitted = 0
    if target == "spark":
        _warm_up_sqlglot()
    for case in CASES:
        data = json.loads(case.read_bytes())
        mapping = {s: s + "_moved" for s in _schemas(data, set())} if moved else {}
        opts = Options.of(on_unsupported="skip", schema_map=mapping,
                          default_schema="dflt_moved" if moved else "public")
        doc = as_document(data)
        try:
            f = front(doc, opts)
            stmt, _ = normalize(f.stmt, backend, opts, document=str(case))
        except DdlcError:
            continue  # a document the frontend refuses never reaches an emitter
        ctx = EmitContext(document=str(case), options=opts, schema_map=mapping, on_unsupported="skip",
                          source=f.source if stmt is f.stmt else None)
        with _Forbidden() as guard:
            try:
                backend.emit(stmt, ctx)
            except AssertionError as exc:
                pytest.fail(f"{case.parent.relative_to(ROOT)}: {exc}")
            except DdlcError:
                pass  # a translation error is fine here; parsing is not
        assert guard.calls == [], f"{case.parent.relative_to(ROOT)}: {guard.calls}"
        emitted += 1
    assert emitted > 150
