""""Unsupported" is decided once, in the drop_unsupported pass, from the backend's declared rules.

* The W diagnostics PostgreSQL emitters still raise are exactly the ones docs/architecture.md lists
  (decisions that need the stream's history, and warnings about a written form): a new one cannot
  creep back into an emitter without being documented, nor a documented one linger after it moved.
* No emitter refuses a statement: refusals are rules (``Emit.refuse`` is gone).
* Decisions made from the statement's content come from the pass (``"pass": "drop_unsupported"``).
* The pass enters only the subtrees that can hold a class some rule targets, and returns what it
  does not change as the very same object.
"""

from __future__ import annotations

import ast
import re
from typing import Any

import pytest

import ddlc
from conftest import ROOT
from ddlc.ir.names import QualifiedName
from test_postgres_alter import alter, sub
from test_postgres_objects import comment, drop, index, rename_column, set_schema, view

BACKEND = ROOT / "ddlc" / "backends" / "postgres"


def _warnings_in(source: str, module: str) -> set[tuple[str, str]]:
    """(module.function, code) of every ``diag``/``refuse`` call in ``source`` whose code is not an I or N code
    (a code given as a variable is reported by its name; a ``refuse`` call as ``refuse``)."""
    found: set[tuple[str, str]] = set()

    def visit(node: ast.AST, func: str) -> None:
        for child in ast.iter_child_nodes(node):
            here = child.name if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else func
            if (isinstance(child, ast.Call) and isinstance(child.func, ast.Attribute)
                    and child.func.attr in ("diag", "refuse")):
                code = child.args[0] if child.func.attr == "diag" and child.args else None
                name = (code.id if isinstance(code, ast.Name) else code.attr if isinstance(code, ast.Attribute)
                        else "refuse" if code is None else ast.unparse(code))
                if not name.startswith(("I_", "N_")):
                    found.add((f"{module}.{here}", name))
            visit(child, here)

    visit(ast.parse(source), "<module>")
    return found


def _emit_time_warnings() -> set[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    for path in sorted(BACKEND.glob("*.py")):
        found |= _warnings_in(path.read_text("utf-8"), path.stem)
    return found


def _documented() -> set[tuple[str, str]]:
    text = (ROOT / "docs" / "architecture.md").read_text("utf-8")
    section = text.split('## "Unsupported" is decided once', 1)[1].split("\n## ", 1)[0]
    return {(m[1], m[2]) for m in re.finditer(r"^\| `([\w.]+)` \| `(\w+)` \|", section, re.M)}


def test_emit_time_warnings_are_the_documented_ones():
    found, documented = _emit_time_warnings(), _documented()
    assert documented, "the table of docs/architecture.md was not found"
    assert found - documented == set(), "emit-time W decisions not in docs/architecture.md (make them rules, " \
                                        "or document why they need the history)"
    assert documented - found == set(), "docs/architecture.md lists emit-time W decisions that are gone"


def test_the_scan_sees_warnings_and_refusals():
    src = ("def f(n, e, a):\n    e.diag(W_X, 'm', n.origin)\n    a.e.diag(table.W_Y, 'm', n.origin)\n"
           "    e.diag(I_Z, 'm', n.origin)\n    e.diag(code, 'm', n.origin)\n    return e.refuse(n, W_X, 'm')\n")
    assert _warnings_in(src, "m") == {("m.f", "W_X"), ("m.f", "W_Y"), ("m.f", "code"), ("m.f", "refuse")}


def test_emitters_do_not_refuse():
    from ddlc.backends.postgres.context import Emit

    assert not hasattr(Emit, "refuse")
    assert not any(code == "refuse" for _, code in _emit_time_warnings())


# ---- content decisions come from the pass ------------------------------------------------------------
RELOPTION_ON_TABLE = alter(sub("%{set_reset}s (%{options:, }s)", set_reset="SET", options=[
    {"fmt": "%{label}s = %{value}s", "label": {"fmt": "%{label}I", "label": "deduplicate_items"}, "value": "off"}]))


@pytest.mark.parametrize("tree,code", [
    (drop("procedure", "public.p(integer)"), "DDLC-W651"),
    (drop("function", "public.f"), "DDLC-W650"),
    (comment("???", "public.mv", "x"), "DDLC-W651"),
    (comment("TABLESPACE", "ts1"), "DDLC-W653"),
    (rename_column("INDEX", "i", "a", "b"), "DDLC-W651"),
    (set_schema("INDEX", "public.i", "a"), "DDLC-W651"),
    (index("(a pg_catalog.int4_ops) junk", name="broken"), "DDLC-W664"),
    (index("(a pg_catalog.int4_ops)GLOBAL", concurrently="CONCURRENTLY"), "DDLC-W663"),
    (view("SELECT t.a FROM public.t WHERE (ROWNUM <= 10);"), "DDLC-W670"),
    (view("SELECT t.a FROM public.t, public.u WHERE (t.a = u.a(+));"), "DDLC-W669"),
    (RELOPTION_ON_TABLE, "DDLC-W696"),
    ({"TDDL": "CREATE ROLE r1"}, "DDLC-W756"),
])
def test_content_decisions_come_from_the_pass(tree, code):
    t = ddlc.translate(tree, target="postgres", on_unsupported="skip")
    got = [d for d in t.diagnostics if d.code == code]
    assert got and all(d.pass_name == "drop_unsupported" for d in got), [d.to_dict() for d in t.diagnostics]


# ---- the walk ----------------------------------------------------------------------------------------
def _normalized(tree):
    from ddlc.api import Options
    from ddlc.compiler import front
    from ddlc.frontend.documents import as_document
    from ddlc.passes import PIPELINE, PassContext

    opts = Options.of()
    ctx = PassContext.of(opts, target="postgres")
    stmt = front(as_document(tree), opts).stmt
    for p in PIPELINE[:-1]:
        stmt, _ = p(stmt, ctx)
    return stmt, opts


def test_the_pass_enters_only_what_rules_can_reach():
    from ddlc.ir.alter import AlterRelation, RelOption
    from ddlc.ir.index import CreateIndex, IndexKey
    from ddlc.ir.names import QualifiedName, TypeName
    from ddlc.passes.drop_unsupported import _plan
    from ddlc.ir.rules import Rule
    from ddlc.ir.table import CreateTable

    plan = _plan((Rule(IndexKey, "DDLC-W660", "m"),))
    assert plan.enters(CreateIndex) and plan.enters(IndexKey)
    assert not plan.enters(CreateTable) and not plan.enters(QualifiedName) and not plan.enters(TypeName)
    assert plan.fields(CreateIndex) == ("keys",)  # not the table's name, WHERE, partitions...
    plan = _plan((Rule(RelOption, "DDLC-W696", "m"),))
    assert plan.enters(AlterRelation) and "identity" not in plan.fields(AlterRelation)


def test_what_the_pass_does_not_change_is_shared():
    from ddlc.backends.postgres import PostgresBackend
    from ddlc.ir.base import walk
    from ddlc.passes import PassContext
    from ddlc.passes.drop_unsupported import drop_unsupported

    stmt, opts = _normalized(index("(a pg_catalog.int4_ops, b pg_catalog.text_ops)", tablespace="ts1"))
    ctx = PassContext.of(opts, target="postgres", rules=PostgresBackend.rules, refused=PostgresBackend.refused)
    out, diags = drop_unsupported(stmt, ctx)
    assert [d.code for d in diags] == ["DDLC-W656"] and out.tablespace is None
    assert out.keys is stmt.keys and out.table is stmt.table  # untouched children are the same objects
    clean, _ = _normalized(index("(a pg_catalog.int4_ops)"))
    same, diags = drop_unsupported(clean, ctx)
    assert same is clean and diags == []
    assert all(type(n).__name__ != "_Dropped" for n in walk(out))


def test_rules_of_one_class_apply_in_order_and_a_drop_stops_them():
    from ddlc.ir.drop import Drop
    from ddlc.passes import PassContext
    from ddlc.passes.drop_unsupported import drop_unsupported
    from ddlc.ir.rules import Rule
    from ddlc.ir.statement import Opaque

    stmt, opts = _normalized(drop("index", "public.i", concurrently="CONCURRENTLY", cascade="CASCADE"))
    rules = (Rule(Drop, "DDLC-W652", lambda n: f"first {n.objtype.value}", field="concurrently", absent=False),
             Rule(Drop, "DDLC-W651", "second: dropped"),
             Rule(Drop, "DDLC-W650", "never reached"))
    out, diags = drop_unsupported(stmt, PassContext.of(opts, target="postgres", rules=rules))
    assert [(d.code, d.message) for d in diags] == [("DDLC-W652", "first index"), ("DDLC-W651", "second: dropped")]
    assert isinstance(out, Opaque) and out.kind == "dropped"
    assert diags[0].path == stmt.origin + ("concurrently",) and diags[1].dropped_node is not None


def test_a_field_of_unknown_type_is_visited():
    from ddlc.ir.base import Node, node
    from ddlc.passes.drop_unsupported import _child_classes

    @node
    class _Probe(Node):
        payload: Any
        items: tuple
        name: str = ""
        ident: QualifiedName | None = None

    kids = _child_classes(_Probe)
    assert kids["payload"] is None and kids["items"] is None  # unknown: the walk looks at the values
    assert kids["ident"] == frozenset({QualifiedName}) and "name" not in kids


def test_last_rules_come_after_the_others_of_their_class():
    from ddlc.ir.drop import Drop
    from ddlc.passes import PassContext
    from ddlc.passes.drop_unsupported import drop_unsupported
    from ddlc.ir.rules import Rule

    stmt, opts = _normalized(drop("index", "public.i", concurrently="CONCURRENTLY", cascade="CASCADE"))
    rules = (Rule(Drop, "DDLC-W651", "refused whole", last=True),
             Rule(Drop, "DDLC-W652", "clause first", field="concurrently", absent=False))
    _, diags = drop_unsupported(stmt, PassContext.of(opts, target="postgres", rules=rules))
    assert [d.code for d in diags] == ["DDLC-W652", "DDLC-W651"]
    # a view the function catalog refuses (a rule of another family) is not also refused for ROWNUM
    t = ddlc.translate(view("SELECT months_between(t.a, t.a) FROM public.t WHERE (ROWNUM <= 10);"),
                       target="postgres", on_unsupported="skip")
    assert [d.code for d in t.diagnostics] == ["DDLC-W604"]
