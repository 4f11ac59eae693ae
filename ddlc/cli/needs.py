"""The libraries a command needs beyond the base install: a missing one is a usage error (exit 2) that says
what to install, never an internal error (DDLC-E900) per document.

Checked before any work (:func:`require`, :func:`require_targets`), by looking the module up without
importing it; :func:`missing_module` turns a ``ModuleNotFoundError`` that still escapes into the same
message (the console script's last resort).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Any

import click

__all__ = ["PIPELINE", "TARGET_NEEDS", "missing", "require", "require_targets", "missing_module", "advice"]

# module -> the extra that installs it (None: a dependency of the base install)
EXTRA: dict[str, str | None] = {"sqlglot": None, "pyspark": "pipeline", "pyarrow": "pipeline",
                                "pandas": "pipeline", "mmh3": "pipeline", "psycopg": "apply"}
PIPELINE = ("pyspark", "pyarrow", "pandas", "mmh3")  # what `ddlc pipeline run` imports
TARGET_NEEDS: dict[str, tuple[str, ...]] = {"spark": ("sqlglot",)}  # a target's own libraries
_PINS = {"sqlglot": "sqlglot>=25,<31"}


def missing(modules: Iterable[str]) -> list[str]:
    """The modules of ``modules`` that cannot be imported (looked up, not imported)."""
    import importlib.util

    out = []
    for m in modules:
        if m in sys.modules:
            if sys.modules[m] is None:  # an import of it is refused
                out.append(m)
            continue
        try:
            found = importlib.util.find_spec(m) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            out.append(m)
    return out


def advice(modules: list[str], what: str) -> str:
    """``what needs X, which is not installed: <how to install it>``."""
    names = ", ".join(modules)
    verb = "is" if len(modules) == 1 else "are"
    extras = sorted({e for m in modules if (e := EXTRA.get(m))})
    if extras:
        how = "install ddlc with the extra: pip install " + " ".join(f"'ddlc[{e}]'" for e in extras)
        if "pipeline" in extras:
            how += " (and Java 17 for Spark)"
    else:
        pins = " ".join(f"'{_PINS.get(m, m)}'" for m in modules)
        how = f"{'it is a dependency' if len(modules) == 1 else 'they are dependencies'} of ddlc: reinstall ddlc, or pip install {pins}"
    return f"{what} needs the Python {'library' if len(modules) == 1 else 'libraries'} {names}, which {verb} not installed; {how}"


def require(modules: Iterable[str], what: str) -> None:
    """Exit 2 with :func:`advice` when one of ``modules`` is missing."""
    gone = missing(modules)
    if gone:
        _refuse(advice(gone, what))


def require_targets(targets: Iterable[str]) -> None:
    """Exit 2 when a target's own library is missing (``--to spark`` without sqlglot)."""
    for t in targets:
        gone = missing(TARGET_NEEDS.get(t, ()))
        if gone:
            _refuse(advice(gone, f"the {t} target"))


def missing_module(exc: BaseException) -> str | None:
    """The advice for a ``ModuleNotFoundError`` of a library ddlc knows (None: another one)."""
    if not isinstance(exc, ModuleNotFoundError) or not exc.name:
        return None
    top = exc.name.partition(".")[0]
    if top not in EXTRA:
        return None
    what = {"pipeline": "ddlc pipeline run", "apply": "ddlc apply"}.get(EXTRA[top] or "", "this command")
    return advice([top], what)


class MissingLibrary(click.ClickException):
    """A library the command needs is not installed: ``error: ...`` on one line, exit 2."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        stream = file if file is not None else sys.stderr
        stream.write(f"error: {self.message}\n")


def _refuse(text: str) -> None:
    raise MissingLibrary(text)
