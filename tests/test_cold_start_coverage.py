"""Cold start (issue 26 item 4): the backends' coverage check lists the IR's modules without importing ``pkgutil``.
:func:`ddlc.backends.coverage.modules_of` is proven here to list what ``pkgutil.iter_modules`` lists (its modules,
not its packages): for every package of ddlc, and for directories made to hold every case pkgutil tells apart."""

from __future__ import annotations

import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import ddlc
from ddlc.backends.coverage import modules_of

ROOT = Path(__file__).resolve().parents[1]


def _pkgutil(path: list[str]) -> list[str]:
    return [m.name for m in pkgutil.iter_modules(path) if not m.ispkg]


def test_every_ddlc_package_lists_as_pkgutil_lists_it():
    packages = [ddlc.__path__] + [
        __import__(m.name, fromlist=["_"]).__path__
        for m in pkgutil.walk_packages(ddlc.__path__, "ddlc.", onerror=lambda _name: None) if m.ispkg
        and not m.name.startswith("ddlc.pipeline")  # (pyspark-only)
    ]
    assert len(packages) > 5
    for path in packages:
        assert modules_of(list(path)) == _pkgutil(list(path)), path


def _touch(p: Path) -> None:
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text("")


@pytest.mark.parametrize("layout", [
    ["a.py", "b.py", "__init__.py"],
    ["pkg/__init__.py", "pkg.py", "mod.py"],  # a package hides the module of its name
    ["nopkg/x.py", "nopkg.py"],  # a directory without __init__ is no package
    ["__pycache__/a.cpython-311.pyc", "a.py"],
    ["ext.cpython-311-x86_64-linux-gnu.so", "ext2.abi3.so", "c.pyc", "d.pyw", "e.txt", "a.b.py", "README"],
    ["sub.d/__init__.py", "z.py"],  # a dotted directory is never a package
    ["p2/__init__.pyc", "p2.py"],
])
def test_directories_list_as_pkgutil_lists_them(tmp_path, layout):
    for f in layout:
        _touch(tmp_path / "one" / f)
    assert modules_of([str(tmp_path / "one")]) == _pkgutil([str(tmp_path / "one")])


def test_several_directories_name_a_module_once(tmp_path):
    for f in ["a.py", "b/__init__.py"]:
        _touch(tmp_path / "one" / f)
    for f in ["a.py", "b.py", "c.py"]:
        _touch(tmp_path / "two" / f)
    path = [str(tmp_path / "one"), str(tmp_path / "missing"), str(tmp_path / "two")]
    assert modules_of(path) == _pkgutil(path) == ["a", "c"]


def test_a_check_imports_no_pkgutil():
    code = ("import sys\nsys.argv = ['ddlc', 'check', '--no-config', '--targets', 'postgres,spark', sys.argv[1]]\n"
            "before = 'pkgutil' in sys.modules  # (an interpreter's start-up may import it: then nothing to prove)\n"
            "from ddlc.cli import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print(before or 'pkgutil' in sys.modules and 'imported')\n")
    p = subprocess.run([sys.executable, "-c", code, str(ROOT / "examples" / "ddl" / "sales_schema.json")],
                       capture_output=True, text=True, cwd=ROOT, env={**os.environ, "NO_COLOR": "1"}, timeout=120)
    assert p.stdout.splitlines()[-1] in ("False", "True"), p.stdout + p.stderr


def _reference_holders() -> dict[type, frozenset[type]]:
    """holders() as e69f000 computed it: every hint of each statement class that mentions a subcommand class."""
    import typing

    from ddlc.backends import coverage as C
    from ddlc.ir import statement_classes
    from ddlc.ir.alter import AlterSubcommand

    names = {c.__name__ for c in (AlterSubcommand, *C._subclasses(AlterSubcommand))}

    def mentions(cls: type) -> bool:
        for klass in cls.__mro__:
            for a in vars(klass).get("__annotations__", {}).values():
                words = set(C._WORD.findall(a)) if isinstance(a, str) else {getattr(t, "__name__", "")
                                                                             for t in C._leaves(a)}
                if words & names:
                    return True
        return False

    out = {}
    for stmt in statement_classes():
        if not mentions(stmt):
            continue
        held: set[type] = set()
        for hint in typing.get_type_hints(stmt).values():
            for t in C._leaves(hint):
                if isinstance(t, type) and issubclass(t, AlterSubcommand):
                    below = C._subclasses(t)
                    held.update(below if below else (t,))
        if held:
            out[stmt] = frozenset(held)
    return out


def test_holders_are_those_every_hint_gives():
    """Resolving only the fields that name a subcommand class finds what resolving every hint found."""
    from ddlc.backends import backend_class, coverage

    for t in ("postgres", "spark", "gaussdb"):
        backend_class(t)
    got = coverage.holders()
    assert len(got) >= 2 and all(len(v) > 30 for v in got.values())
    assert got == _reference_holders()


def test_the_most_derived_annotation_is_the_one_resolved():
    import typing

    from ddlc.backends.coverage import _held_hints
    from ddlc.ir.alter import AlterSubcommand, DropConstraint  # noqa: F401 - names the annotations resolve

    annotations = {"subs": "tuple[AlterSubcommand, ...]", "x": "int", "y": "DropConstraint"}
    base = type("Base", (), {"__module__": "ddlc.ir.alter", "__annotations__": annotations})
    child = type("Child", (base,), {"__module__": "ddlc.ir.alter",
                                    "__annotations__": {"y": "str", "z": DropConstraint}})
    names = {"AlterSubcommand", "DropConstraint"}
    assert _held_hints(child, names) == [tuple[AlterSubcommand, ...], DropConstraint]
    assert _held_hints(base, names) == [v for k, v in typing.get_type_hints(base).items() if k != "x"]
