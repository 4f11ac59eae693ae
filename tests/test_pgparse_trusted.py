"""pglast's parser makes its nodes without the per-attribute check inside ddlc's parse (issue 26,
frontend/sql/pgparse.parse_sql): the trees must be exactly the ones the checked construction makes, for
every SQL fragment of the fixtures, and every other construction of a pglast node stays checked."""

from __future__ import annotations

import collections
import functools
import glob
import threading
from pathlib import Path

import pglast
import pytest
from pglast import ast, parser

import ddlc
from ddlc.frontend.sql import pgparse

ROOT = Path(__file__).resolve().parents[1]


@functools.cache  # (once per process: a second run would meet fewer texts, ddlc's other caches warm)
def _texts() -> list[str]:
    """Every text ddlc hands to pglast while translating the fixtures to every target, and the fixtures'
    SQL files whole."""
    seen: set[str] = set()
    real = pglast.parse_sql

    def record(q: str):  # (pgparse.parse_sql calls pglast.parse_sql by its module attribute)
        seen.add(q)
        return real(q)

    docs = [p.read_bytes() for p in sorted(ROOT.glob("fixtures/cases/**/input.json"))]
    pglast.parse_sql = record
    try:
        pgparse.parse_statements.cache_clear()
        for target in ("postgres", "gaussdb", "spark"):
            collections.deque(ddlc.translate_many(docs, target=target), maxlen=0)
    finally:
        pglast.parse_sql = real
        pgparse.parse_statements.cache_clear()
    seen.update(Path(f).read_text("utf-8") for f in glob.glob(str(ROOT / "fixtures/**/*.sql"), recursive=True))
    return sorted(seen)


def _difference(a, b, path="$"):
    if type(a) is not type(b):
        return f"{path}: {type(a).__name__} != {type(b).__name__}"
    if isinstance(a, ast.Node):
        for s in type(a).__slots__:
            d = _difference(getattr(a, s, None), getattr(b, s, None), f"{path}.{s}")
            if d:
                return d
        return None
    if isinstance(a, tuple | list):
        if len(a) != len(b):
            return f"{path}: {len(a)} items != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            d = _difference(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    return None if a == b else f"{path}: {a!r} != {b!r}"


@pytest.fixture
def trusted(monkeypatch):
    """The unchecked construction on, whatever pglast release is installed (so that the comparison below tells
    whether a new release may be added to ``_CHECKED_RELEASES``)."""
    release = str(pglast.__version__).lstrip("v")
    monkeypatch.setattr(pgparse, "_CHECKED_RELEASES", (release,))
    monkeypatch.setattr(pgparse, "_FAST", None)
    assert pgparse._install()
    yield


def test_the_trusted_parse_is_on_only_for_releases_compared(monkeypatch) -> None:
    release = str(pglast.__version__).lstrip("v")
    monkeypatch.setattr(pgparse, "_FAST", None)
    assert pgparse._install() is release.startswith(pgparse._CHECKED_RELEASES)
    monkeypatch.setattr(pgparse, "_FAST", None)
    monkeypatch.setattr(pgparse, "_CHECKED_RELEASES", ("0.0",))
    assert pgparse._install() is False  # an uncompared release parses checked


def test_trees_are_the_checked_ones(trusted) -> None:
    texts = _texts()
    assert len(texts) > 300
    compared = 0
    for q in texts:
        try:
            checked = parser.parse_sql(q)  # (this thread is not inside ddlc's parse: checked)
        except pglast.parser.ParseError:
            with pytest.raises(pglast.parser.ParseError):
                pgparse.parse_sql(q)
            continue
        fast = pgparse.parse_sql(q)
        assert _difference(checked, fast) is None, (q[:200], _difference(checked, fast))
        compared += 1
    assert compared > 300


def test_other_constructions_stay_checked(trusted) -> None:
    with pytest.raises(ValueError):
        ast.String(sval=42)  # a wrong type is still refused outside the parser
    c = ast.A_Const(isnull=0, val=ast.Integer(ival=1))
    assert c.isnull is False  # and still coerced
    errors: list[BaseException] = []

    def build() -> None:
        try:
            for _ in range(2000):
                try:
                    ast.String(sval=42)
                except ValueError:
                    continue
                errors.append(AssertionError("unchecked outside the parser"))
                return
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    t = threading.Thread(target=build)
    t.start()
    for _ in range(200):  # another thread parsing meanwhile does not switch the check off for this one
        pgparse.parse_sql("SELECT nvl(a, 1) FROM s.t WHERE b IN (1, 2, 3)")
    t.join()
    assert not errors


def test_parse_errors_leave_the_check_on(trusted) -> None:
    with pytest.raises(pglast.parser.ParseError):
        pgparse.parse_sql("SELECT FROM WHERE (")
    with pytest.raises(ValueError):
        ast.String(sval=42)
