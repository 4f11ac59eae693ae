"""Issue 26, round 12 (text): the TDDL text's readers on the GaussDB target, each replaced reading kept beside
the new one.

* ``text_kind`` reads a text's first pieces and where its simple start ends by one match (``_START_PIECES``:
  its first ``_PIECES`` pieces as groups) instead of ``_SIMPLE_START`` then ``findall`` over all its first 160
  characters: the same kind as the former reading, on every fixture string and by hypothesis (pieces, blanks,
  numbers, ``=`` runs, texts cut anywhere near the 160th character);
* ``check_tddl_statement`` passes a block text (an Oracle-style body, a package) that ``_plain_block`` proves
  one statement without lexing it: ``_plain_block`` is never True for a text ``statement_problem(text,
  block=True)`` refuses (every fixture string, hostile generated texts: quotes, backslashes, ``$$``, ``--``,
  ``/*``, ``/`` lines, ``;``, line breaks, non-ASCII, empty), and the check raises or not as the former check
  did, with the same message.
"""

from __future__ import annotations

import glob
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddlc.errors import DdlcError
from ddlc.frontend import statement_kind as SK
from ddlc.frontend import tddl_text as TT
from ddlc.frontend.sql.fragment import check_statement, plain_statement, statement_problem
from fixture_strings import json_strings

ROOT = Path(__file__).resolve().parents[1]
_SETTINGS = settings(max_examples=5000, deadline=None)


def _former_text_kind(text: str) -> str:
    """text_kind as it was (round 11): every piece of the first 160 characters' simple start by findall."""
    end = TT._SIMPLE_START.match(text, 0, TT._HEAD_CHARS).end()
    pieces = TT._SIMPLE_PIECE.findall(text, 0, end)
    for p in pieces[:TT._HEAD + 1]:
        if p[0] in TT._DIGITS:
            return SK.statement_kind(text)
    if end < len(text) and pieces and text[end - 1] not in " \t\n\r\f\v":
        pieces.pop()
    if len(pieces) >= TT._HEAD or end == len(text):
        return SK._kind(" ".join(pieces[:TT._HEAD]).upper())
    return SK.statement_kind(text)


def _former_check(text: str, block_kinds: frozenset[str]) -> str | None:
    """check_tddl_statement as it was: the message it raised, or None."""
    if plain_statement(text):
        return None
    kind = TT.text_kind(text)
    try:
        check_statement(text, f"the text of {kind}", block=kind in block_kinds)
    except DdlcError as e:
        return str(e)
    return None


def _check(text: str, block_kinds: frozenset[str]) -> str | None:
    try:
        TT.check_tddl_statement(text, lambda kind: f"the text of {kind}", block_kinds)
    except DdlcError as e:
        return str(e)
    return None


def _strings() -> list[str]:
    out = json_strings()
    for f in sorted(glob.glob(str(ROOT / "fixtures" / "cases" / "*" / "*" / "expected.gaussdb.sql"))):
        out.update(line for line in Path(f).read_text().splitlines() if line.strip())
    return sorted(out)


_CODE_KINDS = frozenset({"CREATE FUNCTION", "CREATE PROCEDURE", "CREATE PACKAGE", "CREATE PACKAGE BODY",
                         "CREATE TRIGGER", "DO", "BEGIN", "DECLARE"})


def test_fixture_strings_kind_as_former() -> None:
    strings = _strings()
    assert len(strings) > 500
    for s in strings:
        for t in (s, "CREATE OR REPLACE PACKAGE " + s, s + " " * 150 + "x"):
            SK._LAST = None
            want = _former_text_kind(t)
            SK._LAST = None
            assert TT.text_kind(t) == want, t


_PIECES = [
    "CREATE ", "create ", "OR ", "REPLACE ", "FUNCTION ", "PROCEDURE ", "PACKAGE ", "BODY ", "DEFINER ", "= ", "==",
    "=", "u", "MATERIALIZED ", "VIEW ", "TABLE ", "TEMP ", "SELECT ", "GRANT ", "x", "a1", "_", "1", "1e5", ".5", "$",
    "'", '"', "--", "/*", "(", ")", ",", ".", ";", "[", "]", " ", "  ", "\t", "\n", "\r", "\f", "\v", "\xa0", "é",
    "+", "-", ":", "\\",
]
_TEXTS = st.lists(st.sampled_from(_PIECES), max_size=24).map("".join)


@_SETTINGS
@given(_TEXTS, st.integers(0, 170), st.sampled_from(["", "x", " x", "(", "'", "1", "é"]))
def test_generated_kind_as_former(text: str, pad: int, tail: str) -> None:
    for t in (text, "CREATE " + " " * pad + text, "CREATE OR REPLACE " + text + tail,
              ("a " * (pad // 2)) + text + tail):
        SK._LAST = None
        want = _former_text_kind(t)
        SK._LAST = None
        assert TT.text_kind(t) == want, t


def test_start_pieces_are_findall_s() -> None:
    """The one match's groups are findall's first pieces of the simple start, None after the last one, and it
    ends where the simple start does."""
    for text in ("", " ", "a", "a b", " CREATE  TABLE\tt(a int,b)", "= == === a=b", "1 2 3 4 5 6 7 8 9 10 11",
                 "a.b.c[1];x", "\n\r\f\v a", "CREATE TABLE t AS SELECT 'x'", "a b c d e f g h i j k l m n", "é a",
                 "a$b c", "a " * 100, "ab" * 100, "CREATE FUNCTION f() RETURNS int AS $$ x $$"):
        m = TT._START_PIECES.match(text, 0, TT._HEAD_CHARS)
        end = TT._SIMPLE_START.match(text, 0, TT._HEAD_CHARS).end()
        assert m.end() == end, text
        want = TT._SIMPLE_PIECE.findall(text, 0, end)[:TT._PIECES]
        got = m.groups()
        assert got[:len(want)] == tuple(want), text
        assert all(g is None for g in got[len(want):]), text


# ---- the block check seen from the characters ---------------------------------------------------------------
_BLOCK_PIECES = [
    "BEGIN", "END", "x", "é", "公有", " ", "  ", "\t", "\n", "\r", "\r\n", "\f", "\v", "\xa0", ";", "/", "//", "*/",
    "/*", "*", "-", "--", "--c", "'", "''", '"', "$", "$$", "$a$", "\\", "(", ")", ":=", "1", "+", "<", "e'", "E'",
]
_BLOCK_TEXTS = st.lists(st.sampled_from(_BLOCK_PIECES), max_size=20).map("".join)


def _assert_sound(text: str) -> None:
    if TT._plain_block(text):
        assert statement_problem(text, block=True) is None, text


def test_plain_block_sound_on_fixture_strings() -> None:
    strings = _strings()
    proven = 0
    for s in strings:
        for t in (s, s + "\n /", s + " --c", "--c\n" + s, ";" + s, s + "\n/\nx"):
            _assert_sound(t)
            proven += TT._plain_block(t)
    assert proven > 100


@_SETTINGS
@given(_BLOCK_TEXTS, st.sampled_from(["", "CREATE PROCEDURE p AS BEGIN ", "CREATE PACKAGE p IS ", " ", "\n", ";"]),
       st.sampled_from(["", ";", "\n/", " \n /", "/", "\n/\n", "--x", "\n--x", "/;"]))
def test_plain_block_sound_generated(text: str, head: str, tail: str) -> None:
    _assert_sound(head + text + tail)
    _assert_sound(text)


@_SETTINGS
@given(_BLOCK_TEXTS, st.sampled_from(["CREATE OR REPLACE PROCEDURE public.p(a int) AS BEGIN ",
                                      "CREATE OR REPLACE PACKAGE public.k AUTHID CURRENT_USER IS ", "GRANT ", ""]),
       st.sampled_from(["", ";", " END;", "\n/", "\n /", "--x"]))
def test_check_as_former(text: str, head: str, tail: str) -> None:
    t = head + text + tail
    SK._LAST = None
    want = _former_check(t, _CODE_KINDS)
    SK._LAST = None
    assert _check(t, _CODE_KINDS) == want, t


def test_check_as_former_on_fixture_strings() -> None:
    for s in _strings():
        for t in (s, "CREATE OR REPLACE PROCEDURE p AS BEGIN " + s + " END;\n/"):
            SK._LAST = None
            want = _former_check(t, _CODE_KINDS)
            SK._LAST = None
            assert _check(t, _CODE_KINDS) == want, t


@pytest.mark.parametrize("text", [
    "CREATE OR REPLACE PACKAGE public.ldp_pkg1 AUTHID CURRENT_USER IS var1 int:=1; --公有变量\n var2 int:=2;\n"
    " PROCEDURE testpro1(var3 int); --公有存储过程,可以被外部调用\nEND ldp_pkg1; \n /",
    "CREATE OR REPLACE PROCEDURE public.p_clean(days integer) AS BEGIN DELETE FROM public.t_log WHERE a < days; END;",
])
def test_corpus_block_texts_proven(text: str) -> None:
    assert TT._plain_block(text)
    assert statement_problem(text, block=True) is None


@pytest.mark.parametrize("text", [
    "CREATE PROCEDURE p AS BEGIN x; END;\n/\nDROP TABLE t;",  # more after the / line
    "CREATE PROCEDURE p AS BEGIN x; END; --runs to the end",
    "CREATE PROCEDURE p AS BEGIN x; END; \\! rm -rf /",
    "CREATE PROCEDURE p AS BEGIN x := 'open; END;",
    "CREATE PROCEDURE p AS BEGIN /* open; END;",
    "; CREATE PROCEDURE p AS BEGIN x; END;",
    "  \n ",
    "",
])
def test_refused_block_texts_not_proven(text: str) -> None:
    assert not TT._plain_block(text)
    assert statement_problem(text, block=True) is not None


# ---- may_read_as without the kind of a CREATE text whose second word rules CREATE TABLE out ---------------------
def _former_may_read_as(text: str, classes: tuple[type, ...]) -> bool:
    """may_read_as as it was (round 11): the kind worked out for every text whose first word may start one."""
    kind = None
    first = TT._FIRST_WORD.match(text)
    word = first[1].upper() if first is not None else None
    for cls in classes:
        kinds = TT.MADE_FROM.get(cls)
        if kinds is None:
            return True
        if word is not None and word not in TT._MADE_FROM_WORDS[cls]:
            continue
        if kind is None:
            kind = TT.text_kind(text)
        if kind in kinds:
            return True
    return False


_CREATE_PIECES = [
    "CREATE", "create", "Create", "TABLE", "table", "TEMP", "temp", "TEMPORARY", "GLOBAL", "LOCAL", "UNLOGGED",
    "FUNCTION", "OR", "REPLACE", "MATERIALIZED", "VIEW", "TABLEX", "TABLE_", "TABLE1", "TABLEé", "TABLE$", "T",
    " ", "  ", "\t", "\n", "\r", "\f", "\v", "\xa0", "(", ")", "'", '"', "--c\n", "/*x*/", "$$", ".", "1", "é", "_",
    "SELECT", "AS", "t",
]
_CREATE_TEXTS = st.lists(st.sampled_from(_CREATE_PIECES), max_size=10).map("".join)


def _assert_may_read_as_former(t: str) -> None:
    from ddlc.ir.misc import CreateTableAs

    SK._LAST = None
    want = _former_may_read_as(t, (CreateTableAs,))
    SK._LAST = None
    assert TT.may_read_as(t, (CreateTableAs,)) == want, t
    if TT._FIRST_WORD.match(t) and TT._not_create_table(t):
        SK._LAST = None
        assert TT.text_kind(t) != "CREATE TABLE", t
        assert SK.statement_kind(t) != "CREATE TABLE", t


@_SETTINGS
@given(_CREATE_TEXTS, st.sampled_from(["", "CREATE ", "CREATE\n", " CREATE\t", "create "]))
def test_may_read_as_former_generated(text: str, head: str) -> None:
    _assert_may_read_as_former(head + text)


def test_may_read_as_former_on_fixture_strings() -> None:
    for s in _strings():
        for t in (s, "CREATE " + s, "CREATE TABLE " + s, "CREATE OR REPLACE " + s):
            _assert_may_read_as_former(t)
