"""Every target's emitters decide "unsupported" only where a declared rule cannot: the list is pinned.

For each backend the W decisions its emitters still make (a ``diag``/``refuse`` call or a ``Diagnostic``
built with a code that is not an I or N code) are exactly those its document lists, with why each needs
the emitter: PostgreSQL in docs/architecture.md, Spark in docs/spark-mapping.md; the GaussDB target makes
none. One added to an emitter, or one a document lists after it moved to a rule, fails the test.

The Spark decisions made from the statement's own content come from the ``drop_unsupported`` pass, with
the codes, messages and paths the emitters gave them (each case below was an emitter's decision).
"""

from __future__ import annotations

import ast
import re

import pytest

import ddlc
from conftest import ROOT

BACKENDS = {  # target: (the document listing its emit-time decisions, the section), None: it has none
    "postgres": ("docs/architecture.md", '## "Unsupported" is decided once'),
    "spark": ("docs/spark-mapping.md", "## What is decided where"),
    "gaussdb": None,
}


def warnings_in(source: str, module: str) -> set[tuple[str, str]]:
    """(module.function, code) of every ``diag``/``refuse`` call and ``Diagnostic(...)`` in ``source`` whose code
    is not an I or N code (a code given as a variable by its name; a ``refuse`` call as ``refuse``)."""
    found: set[tuple[str, str]] = set()

    def visit(node: ast.AST, func: str) -> None:
        for child in ast.iter_child_nodes(node):
            here = child.name if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else func
            if isinstance(child, ast.Call):
                f = child.func
                kind = (f.attr if isinstance(f, ast.Attribute) and f.attr in ("diag", "refuse")
                        else "Diagnostic" if isinstance(f, ast.Name) and f.id == "Diagnostic" else None)
                if kind is not None:
                    code = child.args[0] if kind != "refuse" and child.args else None
                    name = (code.id if isinstance(code, ast.Name) else code.attr if isinstance(code, ast.Attribute)
                            else "refuse" if code is None else ast.unparse(code))
                    if not name.startswith(("I_", "N_")):
                        found.add((f"{module}.{here}", name))
            visit(child, here)

    visit(ast.parse(source), "<module>")
    return found


def emit_time(target: str) -> set[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    for path in sorted((ROOT / "ddlc" / "backends" / target).glob("*.py")):
        found |= warnings_in(path.read_text("utf-8"), path.stem)
    return found


def documented(target: str) -> set[tuple[str, str]]:
    where = BACKENDS[target]
    if where is None:
        return set()
    doc, heading = where
    text = (ROOT / doc).read_text("utf-8")
    assert heading in text, f"{doc}: section {heading!r} not found"
    section = text.split(heading, 1)[1].split("\n## ", 1)[0]
    rows = {(m[1], m[2]) for m in re.finditer(r"^\| `([\w.]+)` \| `(\w+)` \|", section, re.M)}
    assert rows, f"{doc}: no table of emit-time decisions under {heading!r}"
    return rows


@pytest.mark.parametrize("target", sorted(BACKENDS))
def test_emit_time_decisions_are_the_listed_ones(target):
    found, listed = emit_time(target), documented(target)
    assert found - listed == set(), f"{target}: emit-time W decisions not listed (make them rules, or say why not)"
    assert listed - found == set(), f"{target}: listed emit-time W decisions that are gone"


def test_every_target_is_pinned():
    from ddlc.backends import BACKENDS as TARGETS

    assert set(TARGETS) <= set(BACKENDS)


def test_the_scan_sees_every_form():
    src = ("def f(n, e, a):\n    e.diag(W_X, 'm', n.origin)\n    a.e.diag(table.W_Y, 'm', n.origin)\n"
           "    e.diag(I_Z, 'm', n.origin)\n    e.diag(h.code, 'm', n.origin)\n    d = Diagnostic(W_D, 'm', ())\n"
           "    Diagnostic(N_D, 'm', ())\n    return e.refuse(n, W_X, 'm')\n")
    assert warnings_in(src, "m") == {("m.f", "W_X"), ("m.f", "W_Y"), ("m.f", "code"), ("m.f", "W_D"), ("m.f", "refuse")}


def test_spark_emitters_do_not_refuse():
    from ddlc.backends.spark.context import Emit

    assert not hasattr(Emit, "refuse")
    assert not any(code == "refuse" for _, code in emit_time("spark"))


# ---- Spark: content decisions come from the pass, as the emitters made them -------------------------------
def _alter(*subs):
    return {"fmt": "ALTER %{objtype}s %{only}s %{identity}D %{subcmds:, }s", "only": "", "objtype": "TABLE",
            "subcmds": list(subs), "identity": {"objname": "t", "schemaname": "public"}}


def _sub(fmt, type_, **kw):
    return {"fmt": fmt, "type": type_, **kw}


def _int(name="int4"):
    return {"typmod": "", "typarray": False, "typename": name, "schemaname": "pg_catalog"}


_GENERATED = {"fmt": "GENERATED ALWAYS AS (%{generation_expr}s) STORED", "generation_expr": "(a + 1)"}
_ABSENT = {"default": {"fmt": "DEFAULT %{default}s", "present": False},
           "collation": {"fmt": "COLLATE %{name}D", "present": False}}


def _add(definition):
    return _sub("ADD %{objtype}s %{if_not_exists}s %{definition}s %{cascade}s", "add column", cascade="",
                objtype="COLUMN", definition=definition, if_not_exists="")


def _constraint(name, definition):
    return _sub("ADD CONSTRAINT %{name}I %{definition}s", "add constraint", name=name, definition=definition)


def _modify(head, generated, **kw):
    fmt = head + " %{datatype}T %{not_null}s" + (" %{generated_column}s %{default}s" if generated else "")
    extra = {"generated_column": _GENERATED, "default": _ABSENT["default"]} if generated else {}
    return _sub(fmt, "change coulumn" if "CHANGE" in head else "modify column", column="c", datatype=_int("int8"),
                not_null="NOT NULL", **extra, **kw)


def _drop(objtype, identity):
    return {"fmt": "DROP %{objtype}s %{concurrently}s %{if_exists}s %{objidentity}s %{cascade}s", "cascade": "",
            "objtype": objtype, "if_exists": "", "objidentity": identity, "concurrently": ""}


def _comment(objtype, identity):
    return {"fmt": "COMMENT ON %{objtype}s %{identity}s IS %{comment}s", "objtype": objtype, "identity": identity,
            "comment": {"fmt": "%{null}s %{literal}s", "null": {"fmt": "NULL", "present": False},
                        "literal": {"fmt": "%{value}L", "value": "c", "present": True}}}


_SCHEMA_NO_NAME = {"fmt": "CREATE SCHEMA %{if_not_exists}s %{name}I %{authorization}s", "if_not_exists": "",
                   "name": "", "authorization": {"fmt": "AUTHORIZATION %{authorization_role}I", "present": False}}

SPARK_CONTENT = [  # (tree, code, message, path, comment shown by --on-unsupported comment or None)
    (_alter(_add({"fmt": "%{name}I %{coltype}T %{collation}s", "name": "id", "type": "column", "coltype": _int(),
                  "collation": _ABSENT["collation"]})),
     "DDLC-W840", "AUTO_INCREMENT of added column id dropped (Delta cannot add an identity column)",
     ("subcmds", 0, "definition"), "id AUTO_INCREMENT"),
    (_alter(_add({"fmt": "%{name}I %{coltype}T %{collation}s %{default}s %{generated_column}s", "name": "g",
                  "type": "column", "coltype": _int(), **_ABSENT, "generated_column": _GENERATED})),
     "DDLC-W840", "generated column g: Delta cannot add a generated column; added as a plain column",
     ("subcmds", 0, "definition"), "GENERATED ALWAYS AS ((a + 1)) STORED"),
    (_alter(_modify("MODIFY COLUMN %{column}I", False)), "DDLC-W840",
     "AUTO_INCREMENT of c dropped (Delta cannot make a column an identity column)", ("subcmds", 0), "c AUTO_INCREMENT"),
    (_alter(_modify("CHANGE %{ori_column}I %{column}I", True, ori_column="b")), "DDLC-W840",
     "generated expression of c dropped (Delta cannot change a generated column)", ("subcmds", 0),
     "GENERATED ALWAYS AS ((a + 1)) STORED"),
    (_alter(_constraint("c1", "PARTIAL CLUSTER KEY (a)")), "DDLC-W823",
     "constraint c1: GaussDB-only syntax; not translated", ("subcmds", 0), "ADD CONSTRAINT c1 PARTIAL CLUSTER KEY (a)"),
    (_alter(_constraint("c1", "CHECK ((a > 0)) NOT VALID")), "DDLC-W823",
     "constraint c1: NOT VALID not written (Delta checks the existing rows)", ("subcmds", 0), None),
    (_alter(_constraint("c1", "FOREIGN KEY (a) REFERENCES public.p")), "DDLC-W812",
     "FOREIGN KEY c1: the referenced columns are not named (Spark requires them); not translated", ("subcmds", 0),
     "ADD CONSTRAINT c1 FOREIGN KEY (a) REFERENCES public.p"),
    (_alter(_constraint("c1", "EXCLUDE USING gist (p WITH &&)")), "DDLC-W823",
     "constraint c1 (exclusion) has no Delta form; dropped", ("subcmds", 0),
     "ADD CONSTRAINT c1 EXCLUDE USING gist (p WITH &&)"),
    (_drop("table", "a.b.c.d"), "DDLC-W831", "DROP table: identity 'a.b.c.d' not read", (),
     "DROP table a.b.c.d"),
    (_comment("COLUMN", "t"), "DDLC-W831", "COMMENT ON COLUMN: identity 't' not read", (),
     "COMMENT ON COLUMN t IS 'c'"),
    ({"TDDL": "RENAME TABLE public.a TO other.b"}, "DDLC-W831",
     "RENAME TABLE public.a TO other.b: Spark cannot move a table to another schema; not translated",
     ("renamelist", 0), "public.a TO other.b"),
    ({"TDDL": "CREATE TEMPORARY VIEW public.v AS SELECT 1;"}, "DDLC-W832",
     "TEMPORARY view created as a permanent view", (), None),
    (_SCHEMA_NO_NAME, "DDLC-W831", "CREATE SCHEMA without a name", (), 'CREATE SCHEMA ""'),
    ({"TDDL": "CREATE ROLE r1"}, "DDLC-W831", "CREATE ROLE kept as GaussDB text by the frontend; not translated", (),
     "CREATE ROLE r1"),
    ({"TDDL": "CREATE TABLE public.t OF public.ty"}, "DDLC-W824", "typed table public.t OF ty not translated", (),
     "CREATE TABLE public.t OF public.ty"),
    ({"TDDL": "CREATE TABLE public.t (a integer DEFAULT nextval('public.s1'::regclass))"}, "DDLC-W827",
     "column a: DEFAULT nextval(CAST('public.s1' AS regclass)) dropped (Spark has no sequences)",
     ("table_elements", "elements", 0, "default", "default"), "DEFAULT nextval(CAST('public.s1' AS regclass))"),
]


@pytest.mark.parametrize("tree,code,message,path,comment", SPARK_CONTENT, ids=[m for _, _, m, _, _ in SPARK_CONTENT])
def test_spark_content_decisions_come_from_the_pass(tree, code, message, path, comment):
    t = ddlc.translate(tree, target="spark", on_unsupported="comment")
    got = [(d.code, d.message, d.path, d.pass_name) for d in t.diagnostics if d.code == code]
    assert got == [(code, message, path, "drop_unsupported")], [d.to_dict() for d in t.diagnostics]
    shown = [c for c in t.comments if c.startswith(f"-- ddlc {code}: ")]
    assert shown == ([f"-- ddlc {code}: not translated: {comment}"] if comment is not None else []), t.comments
