"""A fragment is parsed as PostgreSQL reads it: only the server's whitespace (space, \\t, \\n, \\r, \\f, \\v) is
blank. Python's str.strip also takes \\x1c-\\x1f, \\x85 and Unicode spaces off, and a default "0\\x1f" was
parsed as 0 and then written as it came, which the server refuses (found by test_slot_classes' hypothesis
test)."""

from __future__ import annotations

import json

import pglast
import pytest

import ddlc

ODD = ["\x1c", "\x1d", "\x1e", "\x1f", "\x85", "\u00a0", "\u2028", "\u3000"]


def _set_default(value: str) -> str:
    return json.dumps({
        "fmt": "ALTER TABLE %{identity}D %{subcmds:, }s", "identity": {"objname": "orders", "schemaname": "public"},
        "subcmds": [{"fmt": "ALTER COLUMN %{column}I SET DEFAULT %{definition}s", "type": "set default",
                     "column": "amount", "definition": value}]})


@pytest.mark.parametrize("ch", ODD, ids=[f"U+{ord(c):04X}" for c in ODD])
@pytest.mark.parametrize("where", ["after", "before"])
def test_a_default_with_a_character_python_calls_blank(ch: str, where: str) -> None:
    value = "0" + ch if where == "after" else ch + "0"
    r = ddlc.translate(_set_default(value), "postgres", on_unsupported="comment")
    for s in r.statements:  # whatever is written, PostgreSQL's grammar reads it as one statement
        assert len(pglast.parse_sql(s)) == 1
    if not r.statements:  # (a character >= U+0080 is part of a name for both servers' lexers: "\x850" is one)
        assert any(d.code == "DDLC-W605" for d in r.diagnostics)
