"""Issue 26, round 5 (TDDL texts): a text's kind and whether it is one statement, seen without the lexer where
its characters allow. Each new reading against the former one (kept here), on every TDDL and SQL text of the
fixtures and on generated texts."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from ddlc.frontend.recover import MADE_FROM, check_tddl_statement, may_read_as, statement_kind, text_kind
from ddlc.frontend.sql.fragment import _scanned_statement_problem, plain_statement, statement_problem
from ddlc.frontend.sql.lexer import Lexed, ScanError
from ddlc.frontend.text import _deparser_drop
from ddlc.errors import DdlcError
from test_throughput_text import TEXTS

# texts made of the characters that decide: words, blanks, quotes, comments, marks, operators, digits
_ALPHABET = st.sampled_from(["CREATE", "TABLE", "SELECT", "DROP", "function", "E", "x", "a1", "1", ".5", "e5", " ",
                             "\n", "\t", "\f", "'", "''", '"', "$", "$$", "\\", "--", "/*", "*/", "/", ";", "(", ")",
                             ",", ".", "=", "==", ":=", "[", "]", "é", "客", "\x1c", "TEMP", "OR REPLACE", "PROCEDURE"])
TEXT = st.lists(_ALPHABET, max_size=24).map("".join)
EXTRA = ["SELECT 1", "SELECT$1 INTO t", "CREATE TABLE t.5 AS SELECT 1", "CREATE TABLE t AS SELECT 1.5", "  create\ttable t",
         "CREATE TABLE a b c d e f g h i j.5", "CREATE TABLE a b c d e f g h i . 5", "CREATE " + "x " * 100,
         "CREATE TABLE " + "y" * 200 + " AS SELECT 1", "E'x' CREATE TABLE", "SELECT\x1c", "CREATE == TABLE",
         "CREATE => TABLE t", "a;", ";", "  ;  ", "", "a;b", "a; ", "'x'", "a -- c", "a /* c */", "/\n", "a\n/\n;",
         "BEGIN NULL; END;", "x = 'it''s'", 'x = "a""b"', "x = 'a\\'", "x = E'\\''"]


def _old_may_read_as(text: str, classes: tuple[type, ...]) -> bool:
    kind = None
    for cls in classes:
        kinds = MADE_FROM.get(cls)
        if kinds is None:
            return True
        if kind is None:
            kind = statement_kind(text)
        if kind in kinds:
            return True
    return False


def _old_deparser_drop(text: Lexed) -> bool:
    try:
        toks = text.upto()[:2]
    except ScanError:
        return False
    return len(toks) == 2 and toks[0].upper == "DROP" and toks[1].text.islower()


def _same(text: str) -> None:
    assert text_kind(text) == statement_kind(text), text
    assert may_read_as(text, tuple(MADE_FROM)) == _old_may_read_as(text, tuple(MADE_FROM)), text
    for block in (False, True):
        assert statement_problem(text, block=block) == _scanned_statement_problem(text, block), (text, block)
        if plain_statement(text):
            assert _scanned_statement_problem(text, block) is None, (text, block)
    assert _deparser_drop(Lexed(text)) == _old_deparser_drop(Lexed(text)), text


def test_fixture_texts():
    plain = 0
    for text in TEXTS + EXTRA:
        _same(text)
        plain += plain_statement(text)
    assert plain > 100  # the fast readings are taken (else this test proves little)


@settings(max_examples=3000, deadline=None)
@given(TEXT)
def test_generated_texts(text: str):
    _same(text)
    _same(text + ";")
    _same("CREATE TABLE " + text)
    _same("DROP function " + text)


def test_check_tddl_statement_is_check_statement():
    from ddlc.frontend.sql.fragment import check_statement

    block_kinds = frozenset({"CREATE PROCEDURE", "CREATE PACKAGE"})
    for text in TEXTS + EXTRA + ["CREATE PROCEDURE p AS BEGIN NULL; END;", "CREATE PACKAGE p IS -- c\n x int; END p;\n/"]:
        kind = statement_kind(text)
        try:
            check_statement(text, f"the text of {kind}", block=kind in block_kinds)
            want = None
        except DdlcError as e:
            want = str(e)
        try:
            check_tddl_statement(text, lambda k: f"the text of {k}", block_kinds)
            got = None
        except DdlcError as e:
            got = str(e)
        assert got == want, text
