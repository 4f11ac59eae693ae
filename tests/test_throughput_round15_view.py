"""Round 15, view owner (issue 26): pglast's parser makes its nodes by ddlc's makers and its enum members by
lookup (frontend/sql/pgparse._install_makers). The makers' trees must be exactly the ones the parse made
before (the classes called, their adopted ``__init__``) and the checked ones, for every SQL text ddlc hands
pglast while translating the fixtures and for hostile texts; a thread that is not trusted still gets
pglast's checked construction."""

from __future__ import annotations

import functools
import threading
from pathlib import Path

import pglast
import pytest
from pglast import ast, enums, parser

from ddlc.frontend.sql import pgparse
from test_pgparse_trusted import _texts as fixture_texts
from tools import gen_pglast_makers

ROOT = Path(__file__).resolve().parents[1]
_UNSET = object()
_HOSTILE = [
    "", " ", ";", "SELECT 1", "SELECT 'it''s', E'a\\\\b\\'c', $$x$$, $t$ $$ -- /* $t$ FROM t",
    "SELECT \"we\"\"ird\", \"ünï\", 'naïve €' /* c */ FROM s.\"t\" -- x\nWHERE a = 'x\ny'",
    "SELECT a FROM t WHERE b LIKE '%\\_' ESCAPE '\\' ORDER BY 1 DESC NULLS LAST LIMIT 2 OFFSET 1",
    "SELECT DISTINCT ON (a) a, count(*) FILTER (WHERE b) OVER (PARTITION BY c ORDER BY d ROWS 2 PRECEDING) FROM t",
    "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT * FROM r FOR UPDATE SKIP LOCKED",
    "SELECT CASE WHEN a IS NOT DISTINCT FROM b THEN x::numeric(10, 2)[] ELSE NULL END, ARRAY[1, 2][1:2], ROW(1, 2)",
    "SELECT a FROM t1 NATURAL FULL JOIN t2 LEFT JOIN LATERAL (SELECT 1) s ON true, xmltable('/a' PASSING x "
    "COLUMNS c int PATH 'c')",
    "SELECT 1 INTERSECT SELECT 2 EXCEPT ALL SELECT 3", "VALUES (1, 'a'), (2, 'b')",
    "CREATE TABLE t (a int PRIMARY KEY, b text COLLATE \"C\" CHECK (b <> '')) PARTITION BY RANGE (a)",
    "GRANT SELECT ON t TO PUBLIC", "DROP TABLE IF EXISTS a, b CASCADE", "SELECT FROM WHERE (",
    "SELECT 'unterminated", "SELECT $$unterminated", "SELECT a /* unterminated", "SELECT \x00",
]


@functools.cache
def _texts() -> list[str]:
    """Every text ddlc hands to pglast while translating the fixtures to every target, the fixtures' SQL files
    whole (test_pgparse_trusted's, read once per process), and hostile ones."""
    return sorted(set(fixture_texts()) | set(_HOSTILE))


def _slots(cls: type) -> tuple[str, ...]:
    return tuple(dict.fromkeys(s for c in cls.__mro__ for s in getattr(c, "__slots__", ())))


def _difference(a, b, path="$", loose=False):
    """Where two parses differ: classes, every slot (set or not, ``ancestors`` too), enum members by identity.
    ``loose``: an int where the other has the bool of the same value is no difference (pglast's C code gives an
    ``A_Const``'s ``Boolean`` an int, which the checked construction makes a bool: so since the trusted parse of
    round 9; every reader of ``boolval`` tests its truth)."""
    if loose and {type(a), type(b)} == {int, bool}:
        return None if a == b else f"{path}: {a!r} != {b!r}"
    if type(a) is not type(b):
        return f"{path}: {type(a).__name__} != {type(b).__name__}"
    if isinstance(a, ast.Node):
        for s in _slots(type(a)):
            d = _difference(getattr(a, s, _UNSET), getattr(b, s, _UNSET), f"{path}.{s}", loose)
            if d:
                return d
        return None
    if isinstance(a, tuple | list):
        if len(a) != len(b):
            return f"{path}: {len(a)} items != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            d = _difference(x, y, f"{path}[{i}]", loose)
            if d:
                return d
        return None
    if isinstance(a, enums.Enum) and a is not b:
        return f"{path}: {a!r} is not {b!r}"
    return None if a == b else f"{path}: {a!r} != {b!r}"


def _before(q: str):
    """The parse as it was made before the makers: pglast's own ``ast`` and ``enums`` modules (the classes
    called, their ``__init__`` the adopted one in a trusted thread)."""
    nodes, members = parser.ast, parser.enums
    parser.ast, parser.enums = ast, enums
    try:
        return pgparse.parse_sql(q)
    finally:
        parser.ast, parser.enums = nodes, members


def _outcome(fn, q: str):
    try:
        return fn(q)
    except pglast.parser.ParseError as exc:
        return ("ParseError", str(exc), exc.args)


def test_the_makers_module_is_generated() -> None:
    path = ROOT / "ddlc" / "frontend" / "sql" / "pglast_makers_generated.py"
    assert path.read_text("utf-8") == gen_pglast_makers.render(), "run python -m tools.gen_pglast_makers"


def test_the_makers_are_installed() -> None:
    assert pgparse._install()
    assert parser.ast is not ast and parser.enums is not enums
    maker = parser.ast.SelectStmt
    assert maker is not ast.SelectStmt and maker.__code__.co_varnames[:3] == tuple(ast.SelectStmt.__slots__)[:3]
    assert parser.ast.Node is ast.Node  # (what is no node class: pglast's own)
    assert parser.enums.SetOperation(0) is enums.SetOperation.SETOP_NONE


def test_trees_are_the_ones_made_before_and_the_checked_ones() -> None:
    assert pgparse._install()
    texts = _texts()
    assert len(texts) > 300
    compared = 0
    for q in texts:
        new, old, checked = _outcome(pgparse.parse_sql, q), _outcome(_before, q), _outcome(parser.parse_sql, q)
        assert _difference(new, old) is None, (q[:200], _difference(new, old))
        assert _difference(new, checked, loose=True) is None, (q[:200], _difference(new, checked, loose=True))
        compared += type(new) is tuple and bool(new) and type(new[0]) is ast.RawStmt
    assert compared > 300


def test_a_node_made_is_its_class_with_every_slot() -> None:
    assert pgparse._install()
    stmt = pgparse.parse_sql("SELECT a FROM s.t ORDER BY a DESC")[0].stmt
    assert type(stmt) is ast.SelectStmt and isinstance(stmt, ast.Node)
    assert all(hasattr(stmt, s) for s in ast.SelectStmt.__slots__) and not hasattr(stmt, "ancestors")
    assert stmt.sortClause[0].sortby_dir is enums.SortByDir.SORTBY_DESC
    with pytest.raises(ValueError):
        stmt.limitOption = "nonsense"  # (pglast's check still guards the node afterwards)


def test_an_untrusted_thread_gets_the_checked_construction() -> None:
    assert pgparse._install()
    with pytest.raises(ValueError):
        parser.ast.String(42)  # (the maker called outside ddlc's parse: the class, checked)
    assert parser.ast.A_Const(0, ast.Integer(1)).isnull is False  # (and coerced)
    with pytest.raises(ValueError):
        parser.enums.SetOperation(99)  # (no member: the enum class's own refusal)
    errors: list[BaseException] = []

    def build() -> None:
        try:
            for _ in range(500):
                try:
                    parser.ast.String(42)
                except ValueError:
                    continue
                errors.append(AssertionError("unchecked outside the parser"))
                return
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    t = threading.Thread(target=build)
    t.start()
    for _ in range(200):  # another thread parsing meanwhile does not switch the check off for this one
        pgparse.parse_sql("SELECT nvl(a, 1) FROM s.t WHERE b IN (1, 2, 3) ORDER BY 1 LIMIT 2")
    t.join()
    assert not errors


def test_parses_in_threads_agree() -> None:
    assert pgparse._install()
    texts = [q for q in _texts() if len(q) < 4000][:200]
    want = {q: _outcome(_before, q) for q in texts}
    errors: list[str] = []

    def run() -> None:
        for q in texts:
            got = _outcome(pgparse.parse_sql, q)
            d = _difference(got, want[q])
            if d:
                errors.append(f"{q[:80]}: {d}")

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
