"""All PostgreSQL and Spark SQL goes through the SqlWriter: no statement is assembled with an f-string.

The check reads the sources of ``ddlc/backends/postgres`` and ``ddlc/backends/spark`` with :mod:`ast` and fails on any f-string
whose text starts with an SQL statement keyword. Diagnostic messages (arguments of ``diag``,
``refuse`` and the like, or the ``dropped_text`` / ``dropped_prefix`` a comment shows) are prose
about the GaussDB input, not emitted SQL, and are not checked.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

BACKENDS = [Path(__file__).resolve().parent.parent / "ddlc" / "backends" / name for name in ("postgres", "spark")]

_STATEMENT = re.compile(
    r"\s*(ALTER|CREATE|DROP|COMMENT|REINDEX|INSERT|UPDATE|DELETE|GRANT|REVOKE|TRUNCATE|SELECT)\b")
# calls whose string arguments are messages for the user, never SQL
_MESSAGE_CALLS = frozenset({"diag", "refuse", "register", "Refusal", "Rule", "_done", "_missing", "DdlcError",
                            "InternalError"})
_MESSAGE_KEYS = frozenset({"dropped_text", "dropped_prefix", "message"})


def _called(node: ast.Call) -> str | None:
    f = node.func
    if isinstance(f, ast.Attribute):
        return f.attr
    if isinstance(f, ast.Name):
        return f.id
    return None


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)}


def _is_message(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    child, cur = node, parents.get(node)
    while cur is not None:
        if isinstance(cur, ast.keyword) and cur.arg in _MESSAGE_KEYS:
            return True
        if isinstance(cur, ast.Dict):
            for k, v in zip(cur.keys, cur.values):
                if v is child and isinstance(k, ast.Constant) and k.value in _MESSAGE_KEYS:
                    return True
        if isinstance(cur, ast.Call) and child is not cur.func and _called(cur) in _MESSAGE_CALLS:
            return True
        if isinstance(cur, ast.stmt) or (isinstance(cur, ast.Lambda) and not _message_lambda(cur, parents)):
            return False
        child, cur = cur, parents.get(cur)
    return False


def _message_lambda(node: ast.Lambda, parents: dict[ast.AST, ast.AST]) -> bool:
    """A lambda that makes a message from a node: ``Rule(..., message=lambda n: f"DROP {n.kind} ...")``."""
    up = parents.get(node)
    if isinstance(up, ast.keyword):
        return up.arg in _MESSAGE_KEYS
    return isinstance(up, ast.Call) and node in up.args and _called(up) in _MESSAGE_CALLS


def _starts_with_statement(node: ast.JoinedStr) -> bool:
    if not node.values:
        return False
    first = node.values[0]
    return isinstance(first, ast.Constant) and isinstance(first.value, str) and bool(_STATEMENT.match(first.value))


def offenders(source: str, filename: str = "<src>") -> list[str]:
    tree = ast.parse(source, filename)
    parents = _parents(tree)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr) and _starts_with_statement(node) and not _is_message(node, parents):
            out.append(f"{filename}:{node.lineno}: {ast.get_source_segment(source, node)}")
    return out


SOURCES = sorted(p for d in BACKENDS for p in d.glob("*.py"))


def test_sources_found() -> None:
    assert len(SOURCES) >= 5


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_fstring_statements(path: Path) -> None:
    found = offenders(path.read_text(encoding="utf-8"), path.name)
    assert not found, "SQL statements must be built with the SqlWriter (e.w()), not f-strings:\n" + "\n".join(found)


def test_checker_flags_statement_fstrings() -> None:
    src = 'def f(a, t, c):\n    a.statement(f"COMMENT ON TABLE {t} IS {c}")\n    x = f"  DROP TABLE {t}"\n'
    assert len(offenders(src)) == 2
    src = 'def f(t):\n    x = map(lambda c: f"DROP TABLE {c}", t)\n    y = Rule(D, "X", rewrite=lambda n: f"DROP {n}")\n'
    assert len(offenders(src)) == 2


def test_checker_ignores_messages() -> None:
    src = ('def f(e, n, a):\n'
           '    e.diag("X", f"DROP {n} has no form", n.origin)\n'
           '    e.refuse(n, "X", f"ALTER {n} not translated")\n'
           '    e.diag("X", "m", n.origin, dropped_text=f"CREATE {n}")\n'
           '    return {"dropped_prefix": f"ALTER {n} "}\n'
           '    r = Rule(D, "X", lambda n: f"DROP {n} has no form")\n'
           '    r = Rule(D, "X", message=lambda n: f"ALTER {n} not translated")\n'
           '    y = f"{n} DROP"\n'
           '    z = f"Drop {n}"\n')
    assert offenders(src) == []
