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


# ---- the lexer's tokens without blanks, one match a token; the function-text cursor on them ----------------------
from ddlc.frontend.sql import functext  # noqa: E402
from ddlc.frontend.sql.lexer import _SKIPPED, error_message, scan, skip_space, token_at, token_spans, tokens  # noqa: E402

_LEXER_ALPHABET = st.sampled_from(["a", "É", "$", "$a$", "$$", "$1", "'", "''", "E'", "\\", '"', "--", "\n", " ", "/*", "*/",
                                   "/", "*", "-", ".", "..", "1", "e", "(", ")", ";", ",", ":=", "x'", "\x1c", "\t"])
LEXER_TEXT = st.lists(_LEXER_ALPHABET, max_size=30).map("".join)


def _old_tokens(text: str, pos: int = 0, end: int | None = None) -> list:
    out = []
    limit = len(text) if end is None else end
    try:
        for kind, s, e in scan(text, pos):
            if kind in _SKIPPED:
                if e >= limit:
                    break
                continue
            if s >= limit:
                break
            if kind == "error":
                raise ScanError(*error_message(text, s))
            if e > limit:
                raise ScanError("token crosses the end of the fragment", s)
            out.append((kind, text[s:e], s, e))
    except ScanError as e:
        return out + [("raised", str(e), e.pos)]
    return out


def _new_tokens(text: str, pos: int = 0, end: int | None = None) -> list:
    out = []
    try:
        for t in tokens(text, pos, end):
            out.append(tuple(t))
    except ScanError as e:
        return out + [("raised", str(e), e.pos)]
    return out


def _same_tokens(text: str) -> None:
    assert list(token_spans(text)) == [x for x in scan(text) if x[0] not in _SKIPPED], text
    bounds = sorted({0, len(text)} | {s for _, s, _ in scan(text)})
    for end in (None, *bounds[:: max(1, len(bounds) // 4)], len(text) // 2):
        assert _new_tokens(text, 0, end) == _old_tokens(text, 0, end), (text, end)
    lexed = Lexed(text)
    try:
        got = [tuple(t) for t in lexed.upto()]
    except ScanError as e:
        got = [tuple(t) for t in lexed.head(10 ** 6)] + [("raised", str(e), e.pos)]
    assert got == _old_tokens(text), text


def test_token_spans_fixture_texts():
    for text in TEXTS + EXTRA:
        _same_tokens(text)


@settings(max_examples=3000, deadline=None)
@given(LEXER_TEXT)
def test_token_spans_generated(text: str):
    _same_tokens(text)
    _same_tokens("CREATE " + text + " x")


class _OldCursor:
    """functext._Cursor as it was (each position lexed there)."""

    __slots__ = ("text", "pos", "_next")

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self._next = {}

    def peek(self, ahead: int = 0):
        pos = self.pos
        tok = None
        known = self._next
        for _ in range(ahead + 1):
            tok = known.get(pos, functext._UNREAD)
            if tok is functext._UNREAD:
                p = skip_space(self.text, pos)
                tok = None if p >= len(self.text) else token_at(self.text, p)
                known[pos] = tok
            if tok is None:
                return None
            pos = tok.end
        return tok

    take, words, need, until_clause = (functext._Cursor.take, functext._Cursor.words, functext._Cursor.need,
                                       functext._Cursor.until_clause)


def _read(text: str, cursor: type) -> object:
    saved = functext._Cursor
    functext._Cursor = cursor
    try:
        return functext.parse_function_text(text)
    except functext.FunctionTextError as e:
        return ("error", str(e), e.pos)
    finally:
        functext._Cursor = saved


def _function_texts() -> list[str]:
    out = [t for t in TEXTS if "FUNCTION" in t.upper() or "PROCEDURE" in t.upper()]
    import glob as _glob
    from pathlib import Path as _Path

    for f in sorted(_glob.glob("fixtures/**/*.json", recursive=True)):
        try:
            doc = orjson.loads(_Path(f).read_bytes())
        except orjson.JSONDecodeError:
            continue
        stack = [doc]
        while stack:
            v = stack.pop()
            if isinstance(v, dict):
                if isinstance(v.get("function"), str):
                    out.append(v["function"])
                stack.extend(v.values())
            elif isinstance(v, list):
                stack.extend(v)
    return out


import orjson  # noqa: E402

FUNCTION_TEXTS = _function_texts()


def test_function_cursor_fixture_texts():
    assert len(FUNCTION_TEXTS) > 40
    for text in FUNCTION_TEXTS:
        assert _read(text, functext._Cursor) == _read(text, _OldCursor), text


_HEADER = st.sampled_from(["CREATE FUNCTION f(a int) RETURNS int ", "CREATE OR REPLACE PROCEDURE s.p(a IN int) ",
                           "CREATE DEFINER = u FUNCTION f() RETURN int ", 'CREATE DEFINER = "u" PROCEDURE p ',
                           "CREATE FUNCTION s.f(a int DEFAULT 1, b text := 'x') RETURNS SETOF int "])
_TAIL = st.lists(st.sampled_from(["LANGUAGE plpgsql ", "IMMUTABLE ", "STRICT ", "SET search_path TO a, b ", "COST 10 ",
                                  "AS $$ body $$", "AS 'x', 'y' ", "AS ' BEGIN a:= 1; END; '", "AS BEGIN NULL; END;",
                                  "/* c */ ", "-- c\n", "\x1c", "'", ";", "/\n", "NOT FENCED ", "$x$", "ROWS 1.5 "]),
                 max_size=8).map("".join)


@settings(max_examples=2000, deadline=None)
@given(_HEADER, _TAIL)
def test_function_cursor_generated(head: str, tail: str):
    text = head + tail
    assert _read(text, functext._Cursor) == _read(text, _OldCursor), text
