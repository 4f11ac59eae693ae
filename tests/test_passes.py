"""Passes are pure and idempotent; qualification leaves no unqualified object name."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ddlc.frontend.build import build, shape_of
from ddlc.ir.base import walk
from ddlc.ir.names import QualifiedName
from ddlc.passes import PIPELINE, PassContext, run_pipeline
from ddlc.passes.map_schemas import map_schemas
from ddlc.passes.qualify_names import NOT_USER_OBJECTS, qualify_names


def user_names(n):
    """Every QualifiedName naming a user object (catalog collations/opclasses excluded)."""
    from ddlc.ir.base import Node, fields

    stack = [n]
    while stack:
        cur = stack.pop()
        if isinstance(cur, QualifiedName):
            yield cur
        for f in fields(cur):
            if (type(cur).__name__, f) in NOT_USER_OBJECTS:
                continue
            v = getattr(cur, f)
            if isinstance(v, Node):
                stack.append(v)
            elif isinstance(v, tuple):
                stack.extend(x for x in v if isinstance(x, Node))
from conftest import case_dirs, case_id


def _trees():
    out = []
    for case in case_dirs():
        if (case / "expected.error.json").exists():
            continue
        doc = json.loads((case / "input.json").read_text("utf-8"))
        tree = doc.get("JDDL", doc)
        if "fmt" in tree and shape_of(tree) is not None:
            out.append((case_id(case), tree))
    return out


TREES = _trees()
CTX = PassContext(default_schema="dflt", schema_map={"public": "pub2", "sales": "crm"})


def _strip_schemas(tree):
    """The same tree with every schemaname/schema_name removed from %D objects (hand-written input)."""
    t = copy.deepcopy(tree)

    def visit(v):
        if isinstance(v, dict):
            if "objname" in v or "object_name" in v:
                v.pop("schemaname", None)
                v.pop("schema_name", None)
            for x in v.values():
                visit(x)
        elif isinstance(v, list):
            for x in v:
                visit(x)

    visit(t)
    return t


@pytest.mark.parametrize("tree", [t for _, t in TREES], ids=[i for i, _ in TREES])
def test_every_pass_is_idempotent(tree):
    for strip in (False, True):
        stmt, _ = build(_strip_schemas(tree) if strip else tree)
        for p in PIPELINE:
            once, _ = p(stmt, CTX)
            twice, _ = p(once, CTX)
            assert twice == once, p.__name__
        # the whole pipeline too
        a, _ = run_pipeline(stmt, CTX)
        b, _ = run_pipeline(a, CTX)
        assert a == b


@pytest.mark.parametrize("tree", [t for _, t in TREES], ids=[i for i, _ in TREES])
def test_qualification_leaves_no_unqualified_name(tree):
    stmt, _ = build(_strip_schemas(tree))
    out, _ = qualify_names(stmt, CTX)
    for n in user_names(out):
        assert n.schema is not None, n


def test_map_schemas_renames_names_and_text():
    tree = {"fmt": "CREATE %{or_replace}s %{persistence}s VIEW %{identity}D AS %{query}s",
            "query": "SELECT orders.id FROM public.orders WHERE (orders.id > nextval('public.s1'::regclass));",
            "identity": {"objname": "v", "schemaname": "public"}, "or_replace": "", "persistence": ""}
    stmt, _ = build(tree)
    out, diags = map_schemas(stmt, PassContext(schema_map={"public": "app"}))
    texts = [n.text for n in walk(out) if type(n).__name__ == "Expr"]
    assert any("app.orders" in t and "'app.s1'" in t for t in texts), texts
    assert all(n.schema == "app" for n in walk(out) if isinstance(n, QualifiedName))


@settings(max_examples=100, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.sampled_from(TREES or [("none", {"fmt": "x"})]), st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True))
def test_qualify_with_any_default_schema(item, schema):
    _, tree = item
    stmt, _ = build(_strip_schemas(tree))
    out, _ = qualify_names(stmt, PassContext(default_schema=schema))
    again, _ = qualify_names(out, PassContext(default_schema=schema))
    assert again == out
    assert all(n.schema is not None for n in user_names(out))
