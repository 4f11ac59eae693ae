"""The shape of the code: one path, declarative backends, layers that only call down, no cycles."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from ddlc.backends import BACKENDS, backend_class
from ddlc.backends.base import Backend, check_coverage
from ddlc.ir import statement_classes

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "ddlc"


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    """Every ddlc module ``path`` imports (absolute names), at any level of the file."""
    mod = _module_name(path)
    package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("ddlc"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            if not name.startswith("ddlc"):
                continue
            subs = {f"{name}.{a.name}" for a in node.names}
            subs = {c for c in subs if (ROOT / Path(*c.split("."))).with_suffix(".py").exists()
                    or (ROOT / Path(*c.split(".")) / "__init__.py").exists()}
            out.update(subs)  # "from . import table" imports the module table
            if len(subs) < len(node.names):
                out.add(name)
    return out


MODULES = {_module_name(p): p for p in PKG.rglob("*.py")}


# ---- backends --------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(BACKENDS))
def test_every_backend_emits_or_refuses_every_statement(name):
    cls = backend_class(name)
    assert issubclass(cls, Backend) and cls.name == name
    check_coverage(cls)  # what building the class already did; here for every registered backend
    for stmt in statement_classes():
        assert cls.status(stmt) in ("emitted", "refused", "not-implemented"), (name, stmt.__name__)


def test_a_backend_missing_a_statement_is_refused_when_its_class_is_built():
    from ddlc.backends.postgres import PostgresBackend

    partial = dict(PostgresBackend.emitters)
    victim = next(iter(partial))
    del partial[victim]
    with pytest.raises(TypeError, match=victim.__name__):
        type("Broken", (Backend,), {"name": "broken", "emitters": partial, "refused": PostgresBackend.refused,
                                    "dialect": PostgresBackend.dialect})


def test_a_statement_both_emitted_and_refused_is_refused():
    from ddlc.backends.postgres import PostgresBackend

    stmt = next(iter(PostgresBackend.emitters))
    refused = {**PostgresBackend.refused, stmt: next(iter(PostgresBackend.refused.values()))}
    with pytest.raises(TypeError, match="both emitted and refused"):
        type("Twice", (Backend,), {"name": "twice", "emitters": PostgresBackend.emitters, "refused": refused,
                                   "dialect": PostgresBackend.dialect})


def test_the_cli_offers_exactly_the_registered_targets():
    from ddlc.cli import TARGET_CHOICES

    assert TARGET_CHOICES == list(BACKENDS)


# ---- layers ----------------------------------------------------------------------------------------
def test_backends_never_import_the_frontend():
    bad = {m: sorted(i for i in _imports(p) if i.startswith("ddlc.frontend"))
           for m, p in MODULES.items() if m.startswith("ddlc.backends")}
    assert {m: v for m, v in bad.items() if v} == {}


def test_ir_never_imports_backends_or_the_frontend():
    bad = {m: sorted(i for i in _imports(p) if i.startswith(("ddlc.backends", "ddlc.frontend")))
           for m, p in MODULES.items() if m.startswith("ddlc.ir")}
    assert {m: v for m, v in bad.items() if v} == {}


def test_a_backend_never_imports_another_backend():
    names = sorted(BACKENDS)
    for m, p in MODULES.items():
        for own in names:
            if m.startswith(f"ddlc.backends.{own}"):
                others = [i for i in _imports(p) for o in names if o != own and i.startswith(f"ddlc.backends.{o}")]
                assert others == [], (m, others)


def test_no_import_cycles():
    """Tarjan over the static import graph of the package (imports inside functions included)."""
    graph = {m: {i for i in _imports(p) if i in MODULES and i != m} for m, p in MODULES.items()}
    # importing a package's submodule runs the package __init__ first; that edge is not a cycle
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    cycles: list[list[str]] = []
    counter = [0]

    def strong(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                cycles.append(sorted(comp))

    for v in sorted(graph):  # the graph is shallow (a few hundred modules): recursion is fine
        if v not in index:
            strong(v)
    assert cycles == []


def test_modules_stay_small():
    # *_generated.py is written by a tool under tools/ and checked against its source by a test, not read
    big = {m: n for m, p in MODULES.items() if not p.name.endswith("_generated.py")
           and (n := len(p.read_text("utf-8").splitlines())) > 650}
    assert big == {}


# ---- no silent absence -----------------------------------------------------------------------------
EVENT = ROOT / "fixtures" / "cases" / "event" / "create" / "input.json"


def _ddlc(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ddlc", *args], input=stdin, capture_output=True, text=True,
                          cwd=ROOT, timeout=60)


def test_a_statement_with_no_target_form_fails_the_run_by_default():
    r = _ddlc("translate", "--to", "postgres", str(EVENT))
    assert r.returncode == 1
    assert r.stdout == ""
    assert "[DDLC-E010]" in r.stderr and "DDLC-W748" in r.stderr
    assert r.stderr.rstrip().endswith("0 statements written, 0 clauses dropped, 1 statement not translated, 1 error, "
                                      "0 lines not recognised")


def test_tddl_the_target_cannot_take_is_not_silently_lost():
    # GaussDB-only syntax, which neither the canonical templates nor PostgreSQL's grammar read
    r = _ddlc("translate", "--to", "postgres", "-", stdin='{"TDDL": "create table x(a int) distribute by hash (a)"}\n')
    assert r.returncode == 1 and "[DDLC-E010]" in r.stderr


def test_comment_keeps_it_and_says_so_and_skip_leaves_it_out():
    r = _ddlc("translate", "--to", "postgres", "--on-unsupported", "comment", str(EVENT))
    assert r.returncode == 0
    assert r.stdout.startswith("-- ddlc DDLC-W748: not translated: CREATE DEFINER = bob EVENT")
    assert "kept as a comment" in r.stderr
    r = _ddlc("translate", "--to", "postgres", "--on-unsupported", "skip", str(EVENT))
    assert r.returncode == 0 and r.stdout == ""
    assert "warning:" in r.stderr and "1 statement not translated, 0 errors" in r.stderr


def test_a_dropped_clause_stays_a_warning():
    case = ROOT / "fixtures" / "cases" / "create_table" / "if-not-exists-range-list-subpartitions" / "input.json"
    r = _ddlc("translate", "--to", "postgres", str(case))
    assert r.returncode == 0 and "[DDLC-W611]" in r.stderr and "1 clause dropped" in r.stderr


def test_one_document_without_a_form_does_not_cost_the_others(tmp_path):
    good = (ROOT / "fixtures" / "cases" / "drop" / "table-if-exists-cascade" / "input.json").read_text()
    bad = EVENT.read_text()
    import json

    f = tmp_path / "mixed.jsonl"
    f.write_text("\n".join(json.dumps(json.loads(x)) for x in (good, bad, good)) + "\n")
    r = _ddlc("translate", "--to", "postgres", str(f))
    assert r.returncode == 1
    assert r.stdout.count("DROP TABLE IF EXISTS public.orders CASCADE;") == 2
    assert "3 documents, 2 statements written" in r.stderr


# ---- the layer table: every module of the package has a floor; imports only run down or stay level -------
LAYERS = (  # lowest first
    ("base", ("ddlc.records", "ddlc.errors", "ddlc.diagnostics", "ddlc.version", "ddlc.lazyre", "ddlc.quoting",
              "ddlc.data")),
    ("jddl", ("ddlc.jddl",)),  # the JDDL format itself: templates, expansion, key spellings
    ("ir", ("ddlc.ir",)),  # typed nodes and rules
    ("values", ("ddlc.values",)),  # openGauss value semantics (datetime, interval, partition key domains)
    ("passes", ("ddlc.passes",)),  # the IR's passes: they compute with the server's value semantics
    ("history", ("ddlc.history",)),  # the stream's catalog: only the IR below it
    ("frontend", ("ddlc.frontend",)),  # reading and building: the only layer that parses
    ("backends", ("ddlc.backends",)),  # emitting: never the frontend, never another backend
    ("driver", ("ddlc.options", "ddlc.compiler", "ddlc.filters", "ddlc.state_file", "ddlc.session", "ddlc.replay", "ddlc.explain",
                "ddlc.api", "ddlc.check", "ddlc.support", "ddlc",
                "ddlc.apply",  # ddlc apply: above the session, beside the api
                # the objects each statement touches (it imports only the driver): ddlc.apply's failures use it
                "ddlc.pipeline.groups")),  # one path, the run driver, the library
    ("pipeline", ("ddlc.pipeline",)),
    ("cli", ("ddlc.cli", "ddlc.console", "ddlc.__main__")),
)
# Imports of a name starting with "_" from another package: none (a name another package needs is public)
PRIVATE_DEBT: set[tuple[str, str, str]] = set()


def _layer(module: str) -> int:
    best: tuple[int, int] | None = None
    for i, (_, prefixes) in enumerate(LAYERS):
        for p in prefixes:
            if (module == p or module.startswith(p + ".")) and (best is None or len(p) > best[1]):
                best = (i, len(p))
    assert best is not None, f"{module} has no layer in LAYERS"
    return best[0]


def test_every_module_has_a_layer_and_imports_only_run_down():
    up = []
    for mod, path in sorted(MODULES.items()):
        for target in sorted(_imports(path)):
            if target in MODULES and _layer(target) > _layer(mod):
                up.append(f"{mod} ({LAYERS[_layer(mod)][0]}) imports {target} ({LAYERS[_layer(target)][0]})")
    assert up == []


def test_no_private_name_is_imported_from_another_package():
    found = set()
    for mod, path in MODULES.items():
        package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:
                base = package.split(".")
                name = ".".join(base[: len(base) - node.level + 1] + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            if not name.startswith("ddlc"):
                continue
            home = name if name in MODULES and MODULES[name].name == "__init__.py" else name.rpartition(".")[0]
            for a in node.names:
                if a.name.startswith("_") and not a.name.startswith("__") and home != package:
                    found.add((mod, name, a.name))
    assert found == PRIVATE_DEBT
