"""Issue 26, round 14 (text): the SQL layer's lexer, the former one (read from git, the round's base) beside the
new one.

* the lexer's regexes: a word tried first (but before a string's quote: ``E'``, ``N'``, ``X'``, ``B'``), the
  bodies of strings, quoted identifiers, dollar quotes and flat comments read possessively, runs of plain
  characters at once, and the blanks and comments before a token as blank runs between comments: the same
  spans from :func:`~ddlc.frontend.sql.lexer.scan` (both quote modes), :func:`token_spans` and
  :func:`token_at` on every fixture string, each cut anywhere, and on generated texts of hostile pieces;
* the CREATE FUNCTION text reader (``functext``, which reads its tokens with this lexer) against its former self
  over every fixture function text and generated headers with hostile pieces: the same statement (every field),
  the same spans, or the same error (class, message, offset); the same crosscheck verdicts; the spans left for
  the text's other readers are the lexer's own.
"""

from __future__ import annotations

from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddlc.frontend.sql import functext as NEW
from ddlc.frontend.sql import lexer
from fixture_strings import json_strings
from former_modules import former_module

BASE = "c1057c7"


def _former(path: str, name: str) -> ModuleType | None:
    return former_module(BASE, path, name)


OLD_LEX = _former("ddlc/frontend/sql/lexer.py", "_lexer_round13")
OLD = _former("ddlc/frontend/sql/functext.py", "_functext_round13")
pytestmark = pytest.mark.skipif(OLD is None or OLD_LEX is None,
                                reason=f"the former modules are read from git ({BASE}): no history here")


# ---- the lexer ------------------------------------------------------------------------------------
def _lexed(mod: ModuleType, text: str) -> tuple:
    return (list(mod.scan(text)), list(mod.scan(text, glued_quotes=True)), list(mod.token_spans(text)))


def _same_lex(text: str) -> None:
    assert _lexed(lexer, text) == _lexed(OLD_LEX, text), text
    for pos in range(len(text)):  # a token cut from any boundary (token_at, the cursors' fallback)
        assert lexer._span_at(text, pos) == OLD_LEX._span_at(text, pos), (text, pos)


def test_lexer_fixture_strings():
    texts = sorted(json_strings())
    assert len(texts) > 500
    for text in texts:
        assert _lexed(lexer, text) == _lexed(OLD_LEX, text), text
        for cut in range(0, len(text), max(1, len(text) // 12)):
            assert _lexed(lexer, text[:cut]) == _lexed(OLD_LEX, text[:cut]), text[:cut]


def test_lexer_fixture_strings_every_position():
    for text in sorted(s for s in json_strings(400) if any(c in s for c in "'\"$-/*")):
        _same_lex(text)


_LEX_PIECES = st.sampled_from([
    "'", "''", "'''", '"', '""', "$", "$$", "$a$", "$ab$", "$a", "a$", "$1", "$é$", "E'", "e'", "N'", "x'", "B'",
    "E", "n", "b", "\\", "\\'", "\\\\", "--", "-", "/", "*", "/*", "*/", "/**/", "/* a */", "/*/", "**/", "\n", "\r",
    "\t", " ", "\f", "\v", "\xa0", "\u3000", "é", "客", "ab", "A_1", "_", "1", "1.5", ".5", "1e5", "1..2", ".", ",",
    ";", "(", ")", "[", "]", "=", ":=", "<>", "!", "@", "#", "%", "^", "&", "|", "`", "?", ":", "~", "+", "-1",
    "\x00", "\x1c",
])


@settings(max_examples=6000, deadline=None)
@given(st.lists(_LEX_PIECES, max_size=24))
def test_lexer_generated(pieces: list[str]):
    _same_lex("".join(pieces))


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet="'\"$\\-/*\n eEnNbBxXa1_.é", max_size=30))
def test_lexer_generated_characters(text: str):
    _same_lex(text)


# ---- functext -------------------------------------------------------------------------------------
def _read(mod: ModuleType, text: str):
    try:
        stmt, spans = mod.parse_function_text(text, ("t",))
    except Exception as e:  # noqa: BLE001 - the error is what is compared
        return ("error", type(e).__name__, str(e), getattr(e, "pos", None)), None
    return ("ok", stmt, repr(stmt), spans.name, list(spans.og_only)), (stmt, spans)


def _same(text: str) -> None:
    new, got_new = _read(NEW, text)
    known = lexer.remembered_spans(text)
    if known is not None:
        assert known == list(lexer.token_spans(text)), text
    old, got_old = _read(OLD, text)
    assert new == old, text
    if got_new is not None:
        assert NEW.crosscheck(*got_new) == OLD.crosscheck(*got_old), text


def _texts() -> list[str]:
    return sorted(s for s in json_strings() if "FUNCTION" in s.upper() or "PROCEDURE" in s.upper())


def test_fixture_texts():
    read = 0
    for text in _texts():
        _same(text)
        _same(text[:] + " ")  # (a new string: the spans lexed here, not remembered)
        lexer.remember_spans(text, list(lexer.token_spans(text)))  # (the slot check's spans: the reader takes them)
        _same(text)
        read += _read(NEW, text)[0][0] == "ok"
    assert read >= 5  # the reader's whole path is taken (else this test proves little)


def test_fixture_texts_cut():
    for text in _texts():
        for cut in range(0, len(text), max(1, len(text) // 40)):
            _same(text[:cut])


_PIECES = st.sampled_from([
    "CREATE", "OR", "REPLACE", "FUNCTION", "PROCEDURE", "DEFINER", "=", "u1", '"us""er"', "public.f", "s.p.f", "f",
    "(", ")", "IN", "OUT", "INOUT", "VARIADIC", "a", "integer", "character varying", "double precision", ",",
    "DEFAULT", "1", ":=", "RETURNS", "RETURN", "SETOF", "TABLE", "LANGUAGE", "plpgsql", "'sql'", "IMMUTABLE",
    "STABLE", "VOLATILE", "STRICT", "CALLED", "ON", "NULL", "INPUT", "SECURITY", "DEFINER", "INVOKER", "EXTERNAL",
    "AUTHID", "CURRENT_USER", "NOT", "LEAKPROOF", "FENCED", "SHIPPABLE", "PACKAGE", "PIPELINED", "DETERMINISTIC",
    "COST", "ROWS", "100", "-1", "1.5", "PARALLEL_ENABLE", "PARALLEL", "safe", "COMMENT", "'c'", "SET", "TO",
    "FROM", "CURRENT", "AS", "IS", "$$ begin end $$", "$function$ b; $function$", "$x$", "' it''s '", "E'\\n\\''",
    "'obj', 'sym'", "BEGIN", "END", ";", "/", "\n/", "--", "-- c\n", "/*", "*/", "/* a /* b */ c */", "\n", "\t",
    "é", "客", "\\", "$", "'", '"', "$1", "x$y", "[", "]", ".", "", " ", "called", "Volatile", "e'x'",
])


@settings(max_examples=4000, deadline=None)
@given(st.lists(_PIECES, max_size=30), st.sampled_from([" ", "", "\n", "  "]))
def test_generated_headers(pieces: list[str], sep: str):
    text = sep.join(pieces)
    _same(text)
    _same("CREATE FUNCTION " + text)
    _same("CREATE OR REPLACE FUNCTION s.f(a integer) " + text)
    _same("CREATE PROCEDURE p(IN a int, b OUT text) " + text)


_HEADS = st.sampled_from([
    "CREATE OR REPLACE FUNCTION public.add1(a integer)\n RETURNS integer\n LANGUAGE plpgsql\n NOT FENCED NOT SHIPPABLE\n",
    "CREATE FUNCTION public.func ( IN a pg_catalog.int4 ) RETURNS pg_catalog.int4 LANGUAGE plpgsql VOLATILE CALLED ON "
    "NULL INPUT SECURITY INVOKER COST 100 ",
    "CREATE OR REPLACE PROCEDURE public.p_clean(days integer) ",
    "CREATE DEFINER = \"a b\" FUNCTION f(VARIADIC x int[], y text DEFAULT 'q''x') RETURNS SETOF int ",
    "CREATE FUNCTION f() RETURNS TABLE(a int, b text) ROWS 10 SET search_path TO public, \"$user\" ",
    "CREATE FUNCTION f(a int) RETURNS NULL ON NULL INPUT STRICT IMMUTABLE STABLE EXTERNAL SECURITY DEFINER ",
    "CREATE FUNCTION f(a int) RETURN int AUTHID DEFINER AUTHID CURRENT_USER NOT LEAKPROOF LEAKPROOF ",
])
_BODIES = st.sampled_from([
    "AS $function$ begin return a + 1; end $function$;\n", "AS ' BEGIN a:= a+1; RETURN a; END; ';",
    "AS BEGIN DELETE FROM t WHERE a < days; END;", "AS BEGIN x := 'unterminated; END;", "IS $$ $$ /",
    "AS 'obj', 'sym';", "AS $a$ $b$ $a$ ; x", "AS E'\\'' ;", "AS", "AS /* open", "AS -- c\n$$x$$;\n/\n",
    "AS /* a /* b */ c */ $$x$$;", "AS $$ $ $$$ $$;",
])


@settings(max_examples=3000, deadline=None)
@given(_HEADS, st.lists(_PIECES, max_size=8), _BODIES, st.integers(min_value=0, max_value=400))
def test_generated_functions(head: str, middle: list[str], body: str, cut: int):
    text = head + " ".join(middle) + (" " if middle else "") + body
    _same(text)
    _same(text[:cut])
