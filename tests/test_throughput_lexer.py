"""Issue 26: :class:`ddlc.frontend.sql.lexer.Cursor` lexes each position once (``peek`` after ``peek_word``, or
after a step back, used to lex the token again). The token at a position is a function of the text and the
position only, so the cursor's answers are the former ones: checked here against the former ``peek``
(``token_at`` at every call) at every position of every fixture string, in any order, and by hypothesis."""

from __future__ import annotations

import glob
import random
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddlc.frontend.sql.identity import parse_identity
from fixture_strings import json_strings
from ddlc.frontend.sql.index import parse_definition
from ddlc.frontend.sql.lexer import Cursor, ScanError, ScanFail, Tok, token_at
from ddlc.ir.drop import IdentityKind

ROOT = Path(__file__).resolve().parents[1]


def _former_peek(s: str, i: int) -> Tok | None:
    if i >= len(s):
        return None
    try:
        return token_at(s, i)
    except ScanError as e:
        raise ScanFail(str(e)) from None


def _answer(f, *args):  # noqa: ANN001, ANN202 - a value or the failure's message
    try:
        return f(*args)
    except ScanFail as e:
        return ("fail", str(e))


def _same_as_former(s: str, positions: list[int]) -> None:
    c = Cursor(s)
    for i in positions:
        c.i = i
        assert _answer(c.peek) == _answer(_former_peek, s, i), (s, i)


def _strings() -> list[str]:
    return sorted(json_strings())


def test_peek_as_former_at_every_position_of_every_fixture_string() -> None:
    strings = _strings()
    assert len(strings) > 500
    rng = random.Random(26)
    for s in strings:
        positions = list(range(len(s) + 2))
        _same_as_former(s, positions)  # in order, as a parser walks
        rng.shuffle(positions)
        _same_as_former(s, positions + positions[: len(positions) // 2])  # any order, again (the memo answers)


_SQLISH = st.lists(st.sampled_from(["a", "B", "_x", "é", "1", "1.5e3", " ", "\n", "(", ")", ",", ".", "::", "'", "''", '"',
                                    '""', "E'\\''", "$$", "$t$", "--", "\n", "/*", "*/", ";", "+", "-", "COLLATE", "asc"]),
                   max_size=25).map("".join)


@settings(max_examples=1000, deadline=None)
@given(_SQLISH | st.text(max_size=30), st.lists(st.integers(0, 60), max_size=40))
def test_peek_as_former_any_text_any_order(s: str, positions: list[int]) -> None:
    _same_as_former(s, positions)


class _FormerCursor(Cursor):
    __slots__ = ()

    def peek(self) -> Tok | None:
        return _former_peek(self.s, self.i)


@settings(max_examples=500, deadline=None)
@given(_SQLISH)
def test_cursor_walk_as_former(s: str) -> None:
    """The parsers' steps (peek_word, word, ident_token) give the same answers and positions."""
    new, old = Cursor(s), _FormerCursor(s)
    for _ in range(30):
        for step in ("peek_word", "blanks", "ident_token", "word"):
            args = ("asc",) if step == "word" else ()
            a, b = _answer(getattr(new, step), *args), _answer(getattr(old, step), *args)
            assert a == b and new.i == old.i, (s, step)


def _identity_and_definition_texts() -> list[str]:
    out = []
    for p in sorted(glob.glob(str(ROOT / "fixtures" / "cases" / "*" / "*" / "input.json"))):
        stack = [orjson.loads(Path(p).read_bytes())]
        while stack:
            v = stack.pop()
            if isinstance(v, dict):
                for k, x in v.items():
                    if k in ("identity", "definition") and isinstance(x, str):
                        out.append(x)
                    else:
                        stack.append(x)
            elif isinstance(v, list):
                stack.extend(v)
    return out


@pytest.mark.parametrize("kind", list(IdentityKind))
def test_identities_and_definitions_read_as_before(kind: IdentityKind, monkeypatch: pytest.MonkeyPatch) -> None:
    texts = _identity_and_definition_texts()
    assert texts
    new = [repr(parse_identity(kind, t)) for t in texts] + [repr(parse_definition(t)) for t in texts]
    monkeypatch.setattr(Cursor, "peek", lambda self: _former_peek(self.s, self.i))
    old = [repr(parse_identity(kind, t)) for t in texts] + [repr(parse_definition(t)) for t in texts]
    assert new == old
