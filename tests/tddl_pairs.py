"""Fixture pairs for the text frontend: a case's JDDL trees and the GaussDB text printed for each.

The text of a tree is the case's GaussDB output for that document (``tests/test_golden.py`` proves
it equals ``expected.gaussdb.sql``, the text the database prints), sent back as a ``{"TDDL": ...}``
record the way GaussDB's decoding prints it with JSON output off (the statement and its ``;``).
"""

from __future__ import annotations

import enum
import json
from pathlib import Path
from typing import Any

import ddlc
from ddlc.frontend.documents import read_documents
from ddlc.ir.base import _SOURCE_TEXT, Node, shown_fields

from conftest import CASES


# families whose trees are not statements the database prints: the expander's own cases (templates that
# test the mini-language: `%{x}n` alone, `100%%`...) are read as unknown shapes from the tree and as unknown
# statements from the text
NOT_STATEMENTS = ("expander",)


def tree_cases() -> list[Path]:
    """Cases whose input is JDDL trees (not TDDL text) and that have a GaussDB golden."""
    out = []
    for inp in sorted(CASES.rglob("input.json")):
        if inp.parent.relative_to(CASES).parts[0] in NOT_STATEMENTS:
            continue
        if not (inp.parent / "expected.gaussdb.sql").exists():
            continue
        docs = list(read_documents(inp.read_bytes(), source=str(inp)))
        if docs and all(d.tree is not None for d in docs):
            out.append(inp.parent)
    return out


def text_of(case: Path) -> list[str | None]:
    """Per input document: its GaussDB text (one statement, with ``;``), or None when it prints no single
    statement (an error case, or several statements)."""
    out: list[str | None] = []
    for t in ddlc.translate_many((case / "input.json").read_bytes(), target="gaussdb"):
        out.append(t.statements[0] + ";" if t.error is None and len(t.statements) == 1 else None)
    return out


def text_input(case: Path) -> bytes:
    """The case's input as TDDL records (JSON lines), one per document."""
    return b"".join(json.dumps({"TDDL": t}, ensure_ascii=False).encode() + b"\n" for t in text_of(case) if t)


# case -> why the text cannot give the tree's IR (kept short; every entry is checked to still differ). The
# PostgreSQL and Spark outputs of these cases are still compared: they must be equal.
IR_NOT_EQUAL: dict[str, str] = {
    "create_table/range-start-end-every-doc": "the tree holds START/END/EVERY as written; the database prints "
                                              "the partitions they expand to (the outputs are equal)",
    "alter_table_followup/set-not-null": "the follow-up message prints the very text of ALTER TABLE ... ALTER "
                                         "COLUMN c SET NOT NULL, and is read as that (the outputs are equal)",
    "trigger/b-compat-inline-body": "canonical text collapses the blank runs of the inline body",
    "function/create-function": "the function text is kept as printed, its line breaks collapsed by canonical text",
    "function/alter-function": "ALTER FUNCTION is read by the TDDL recovery (PostgreSQL's grammar), which keeps "
                               "SET search_path as one action where the tree has its own element order",
}
# case -> why even the outputs differ
NOT_EQUAL: dict[str, str] = {
    "sequence/alter-owned-by-none": "the tree's OWNED BY element with present: false (OWNED BY NONE) prints "
                                    "nothing: the text cannot tell it",
}


_SKIP_FIELDS = {"origin", "with_style", "elements_style"}  # layout (the fmt chosen), not meaning


def comparable(v: Any) -> Any:
    """An IR value as JSON, without origins, layouts and the source text kept for GaussDB exactness."""
    if isinstance(v, Node):
        texts = {name for name, _ in _SOURCE_TEXT.get(type(v).__name__, ())}
        out: dict[str, Any] = {"@": type(v).__name__}
        for f in shown_fields(type(v)):
            if f in _SKIP_FIELDS or f in texts or f == "layout" or f.endswith("_layout"):
                continue
            out[f] = comparable(getattr(v, f))
        return out
    if isinstance(v, enum.Enum):
        return v.value
    if isinstance(v, tuple | list):
        return [comparable(x) for x in v]
    return v


def first_difference(a: Any, b: Any, path: str = "$") -> str | None:
    """Where two :func:`comparable` values first differ (for messages)."""
    if type(a) is not type(b):
        return f"{path}: {a!r} != {b!r}"
    if isinstance(a, dict):
        for k in a.keys() | b.keys():
            d = first_difference(a.get(k), b.get(k), f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} items != {len(b)} items"
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    return None if a == b else f"{path}: {a!r} != {b!r}"
