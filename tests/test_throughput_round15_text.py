"""Issue 26, round 15 (text): the CREATE FUNCTION text reader's common header read at once
(``functext_head.read_common``), beside the cursor that reads every other text, and the former module.

* ``read_common`` against the cursor (``functext._parse``) on every fixture function text, each cut anywhere, and
  on generated texts: whenever it reads a text, the same statement (every field, its repr) and the same spans;
  it reads the fixtures' common headers (else this proves little);
* ``parse_function_text`` against the former module (read from git, the round's base) on the same texts and on
  generated headers with hostile pieces (quotes, backslashes, ``$$``, ``--``, ``/*``, line breaks, every blank
  the lexer or ``str.isspace`` knows, non-ASCII, empty, numbers touching letters and dots): the same statement,
  the same spans, or the same error (class, message, offset), and the same crosscheck verdicts.
"""

from __future__ import annotations

from types import ModuleType

from hypothesis import given, settings
from hypothesis import strategies as st

from ddlc.frontend.sql import functext as NEW
from ddlc.frontend.sql import functext_head as HEAD
from fixture_strings import json_strings
from former_modules import former_module

BASE = "7b04c59"


def _former(path: str, name: str) -> ModuleType | None:
    return former_module(BASE, path, name)


OLD = _former("ddlc/frontend/sql/functext.py", "_functext_round14")


def _outcome(read, text: str):
    try:
        stmt, spans = read(text)
    except Exception as e:  # noqa: BLE001 - the error is what is compared
        return ("error", type(e).__name__, str(e), getattr(e, "pos", None)), None
    return ("ok", stmt, repr(stmt), spans.name, list(spans.og_only)), (stmt, spans)


def _by_cursor(text: str):
    """``parse_function_text`` as the cursor alone reads the text (its errors as parse_function_text says them)."""
    try:
        return NEW._parse(text, ("t",))
    except NEW.ScanError as e:
        raise NEW.FunctionTextError(str(e), e.pos) from None
    except (ValueError, IndexError) as e:
        if isinstance(e, NEW.FunctionTextError):
            raise
        raise NEW.FunctionTextError(str(e), 0) from None


def _same_as_cursor(text: str) -> bool:
    """read_common of ``text`` is the cursor's reading whenever it reads it; whether it did."""
    got = HEAD.read_common(text, ("t",))
    if got is None:
        return False
    fast = ("ok", got[0], repr(got[0]), got[1].name, list(got[1].og_only))
    assert fast == _outcome(_by_cursor, text)[0], text
    return True


def _same_as_former(text: str) -> None:
    new, got_new = _outcome(lambda t: NEW.parse_function_text(t, ("t",)), text)
    if OLD is None:
        return
    old, got_old = _outcome(lambda t: OLD.parse_function_text(t, ("t",)), text)
    assert new == old, text
    if got_new is not None:
        assert NEW.crosscheck(*got_new) == OLD.crosscheck(*got_old), text


def _same(text: str) -> bool:
    _same_as_former(text)
    return _same_as_cursor(text)


def _texts() -> list[str]:
    return sorted(s for s in json_strings() if "FUNCTION" in s.upper() or "PROCEDURE" in s.upper())


def test_fixture_texts():
    texts = _texts()
    fast = sum(_same(text) for text in texts)
    for text in texts:
        _same(text + " ")
        _same(" \n" + text)
    assert fast >= 5, fast  # the common header is read at once (else this test proves little)


def test_fixture_texts_cut():
    for text in _texts():
        for cut in range(0, len(text), max(1, len(text) // 60)):
            _same(text[:cut])
            _same(text[cut:])


# pieces of common headers, and of uncommon ones around them
_WORDS = st.sampled_from([
    "CREATE", "create", "Create", "OR", "or", "REPLACE", "FUNCTION", "function", "PROCEDURE", "DEFINER", "public",
    "s", "f", "add1", "_x", "a1b", "p_log", "pg_catalog", "int4", "integer", "varchar", "character", "varying",
    "double", "precision", "time", "with", "zone", "IN", "OUT", "INOUT", "VARIADIC", "in", "out", "DEFAULT",
    "RETURNS", "RETURN", "returns", "SETOF", "TABLE", "LANGUAGE", "plpgsql", "sql", "WINDOW", "IMMUTABLE", "Stable",
    "VOLATILE", "STRICT", "CALLED", "ON", "NULL", "INPUT", "SECURITY", "EXTERNAL", "INVOKER", "AUTHID",
    "CURRENT_USER", "NOT", "LEAKPROOF", "FENCED", "SHIPPABLE", "PACKAGE", "PIPELINED", "DETERMINISTIC", "COST",
    "ROWS", "PARALLEL", "safe", "PARALLEL_ENABLE", "COMMENT", "SET", "TO", "FROM", "CURRENT", "TRANSFORM", "SUPPORT",
    "AS", "IS", "as", "is", "BEGIN", "END", "e", "E", "n", "x", "b",
])
_MARKS = st.sampled_from(["(", ")", ",", ".", "100", "0", "1", "10", "1.5", ".5", "1.", "1e5", "1abc", "12_", "-1",
                          "+1"])
_HOSTILE = st.sampled_from([
    "'", "''", "' it''s '", "E'\\n\\''", "e'x'", '"', '"us""er"', "$", "$$", "$$ b $$", "$function$ b; $function$",
    "$x$", "x$y", "$1", "--", "-- c\n", "/*", "*/", "/* a /* b */ c */", "\\", ";", "/", "\n/", "=", ":=", "[", "]",
    "é", "客", "\xa0", "\x1c", "\x85", "\u2028", "\f", "\v", "", "::", "%TYPE", "<", "*",
])
_BLANKS = st.sampled_from([" ", " ", " ", "\n", "\t", "\r\n", "  ", "", "\f", "\v", "\x1c", "\xa0", "\n "])
_BODY = st.sampled_from([
    "$function$ begin return a + 1; end $function$;\n", "$$ $$", "$$x$$;", "$$x$$ ;\n/\n", "$$x$$/", "$$x$$ / ",
    "' BEGIN a:= a+1; RETURN a; END; ';", "' it''s '", "E'\\'' ;", "e'x';", "'obj', 'sym';", "$a$ $b$ $a$ ; x",
    "BEGIN DELETE FROM t WHERE a < days; END;", "BEGIN NULL; END;\n/\n", "BEGIN x := 'unterminated; END;",
    "$$ unterminated", "' unterminated", "/* open", "-- c\n$$x$$;\n", "\xa0$$x$$;", "\x1c'x';", "$$x$$;;",
    "$$x$$; LANGUAGE sql", "$$x$$ LANGUAGE sql;", "$$x$$;\x0b", "$$x$$;\xa0", "$$x$$ /;", "", ";", "$$x$$;/",
    "$$x$$ , 'y';", "$f$x$f$\n;\n/ \n", "  $$x$$", "\n'x'\n;\n",
])


@settings(max_examples=4000, deadline=None)
@given(st.lists(st.one_of(_WORDS, _WORDS, _WORDS, _MARKS, _HOSTILE), max_size=30), _BLANKS)
def test_generated_pieces(pieces: list[str], sep: str):
    text = sep.join(pieces)
    _same(text)
    _same("CREATE FUNCTION " + text)
    _same("CREATE OR REPLACE FUNCTION s.f(a integer) " + text)
    _same("CREATE PROCEDURE p(IN a int, b OUT text) " + text)


_HEADS = st.sampled_from([
    "CREATE OR REPLACE FUNCTION public.add1(a integer)\n RETURNS integer\n LANGUAGE plpgsql\n",
    "CREATE FUNCTION public.func ( IN a pg_catalog.int4 ) RETURNS pg_catalog.int4 LANGUAGE plpgsql",
    "CREATE PROCEDURE public.p_log ( IN a pg_catalog.int4, IN note pg_catalog.varchar ) LANGUAGE plpgsql",
    "CREATE OR REPLACE PROCEDURE public.p_clean(days integer)", "CREATE PROCEDURE p", "CREATE FUNCTION s.pk.f()",
    "CREATE FUNCTION f(a double precision, b character varying, c numeric(10,2), d time with time zone)",
    "CREATE FUNCTION f(OUT a int, IN OUT b int, c IN int, d INOUT int, VARIADIC e int) RETURNS SETOF int",
    "CREATE FUNCTION f() RETURNS TABLE(a int, b text)", "CREATE FUNCTION f() RETURNS TABLE (a int)",
    "CREATE FUNCTION f(a int) RETURN int", "create or replace function F . G ( A INT ) returns Int",
    "CREATE FUNCTION f(a int DEFAULT 1) RETURNS int", "CREATE FUNCTION f(,) RETURNS int", "CREATE FUNCTION f(a)",
    "CREATE FUNCTION f((a int)) RETURNS int", "CREATE FUNCTION a.b.c.d() RETURNS int", "CREATE FUNCTION f",
    "CREATE FUNCTION 1f() RETURNS int", "CREATE FUNCTION f() RETURNS numeric(10, 2)", "CREATE FUNCTION f() RETURNS",
])
_CLAUSES = st.sampled_from([
    "RETURNS integer", "RETURNS NULL ON NULL INPUT", "RETURNS NULL ON", "RETURNS SETOF int", "RETURN int",
    "LANGUAGE plpgsql", "LANGUAGE sql", "LANGUAGE 'sql'", "LANGUAGE 1", "WINDOW", "IMMUTABLE", "STABLE", "VOLATILE",
    "volatile", "STRICT", "CALLED ON NULL INPUT", "CALLED ON NULL", "CALLED", "SECURITY DEFINER", "SECURITY INVOKER",
    "EXTERNAL SECURITY DEFINER", "EXTERNAL DEFINER", "SECURITY", "AUTHID DEFINER", "AUTHID CURRENT_USER", "AUTHID x",
    "LEAKPROOF", "NOT LEAKPROOF", "NOT FENCED", "NOT SHIPPABLE", "FENCED", "SHIPPABLE", "NOT", "NOT x", "PACKAGE",
    "PIPELINED", "DETERMINISTIC", "COST 100", "COST 1.5", "COST -1", "COST x", "ROWS 10", "ROWS", "PARALLEL safe",
    "PARALLEL 1", "PARALLEL_ENABLE", "PARALLEL_ENABLE (PARTITION p BY ANY)", "COMMENT 'c'", "SET search_path TO a",
    "SET x FROM CURRENT", "TRANSFORM FOR TYPE int", "DEFINER", "x", "(", ")", ",", ".",
])


@settings(max_examples=4000, deadline=None)
@given(_HEADS, st.lists(_CLAUSES, max_size=8), _BLANKS, st.sampled_from(["AS", "IS", "as", "AS ", "AS\n", "IS\t", ""]),
       _BODY, st.integers(min_value=0, max_value=400))
def test_generated_functions(head: str, clauses: list[str], sep: str, as_: str, body: str, cut: int):
    text = head + sep + sep.join(clauses) + (sep if clauses else "") + as_ + sep + body
    _same(text)
    _same(text[:cut])
    _same(text[cut:])


def test_generated_common_forms_are_read():
    """The generator above reaches read_common's every path (a handful of texts it must read at once)."""
    texts = [
        "CREATE OR REPLACE FUNCTION public.add1(a integer)\n RETURNS integer\n LANGUAGE plpgsql\n NOT FENCED NOT "
        "SHIPPABLE\nAS $function$ begin return a + 1; end $function$;\n",
        "CREATE FUNCTION public.func ( IN a pg_catalog.int4 ) RETURNS pg_catalog.int4 LANGUAGE plpgsql VOLATILE CALLED "
        "ON NULL INPUT SECURITY INVOKER COST 100 AS ' BEGIN a:= a+1; RETURN a; END; ';",
        "CREATE OR REPLACE PROCEDURE public.p_clean(days integer) AS BEGIN DELETE FROM public.t_log "
        "WHERE a < days; END;",
        "CREATE PROCEDURE p IS BEGIN NULL; END;\n/\n",
        "CREATE FUNCTION s.pk.f(OUT a int, IN OUT b int) RETURNS SETOF record RETURNS NULL ON NULL INPUT STRICT "
        "EXTERNAL SECURITY DEFINER AUTHID CURRENT_USER LEAKPROOF NOT LEAKPROOF FENCED SHIPPABLE PACKAGE PIPELINED "
        "DETERMINISTIC ROWS 5 PARALLEL safe WINDOW IMMUTABLE AS $$ x $$ ;\n/",
        "CREATE FUNCTION f() RETURNS TABLE(a int, b character varying) LANGUAGE sql AS E'\\n' /",
    ]
    for text in texts:
        assert _same(text), text


_GOOD_CLAUSES = st.sampled_from([
    "RETURNS integer", "RETURNS NULL ON NULL INPUT", "RETURNS SETOF pg_catalog.int4", "RETURN int", "LANGUAGE plpgsql",
    "WINDOW", "IMMUTABLE", "STABLE", "VOLATILE", "STRICT", "CALLED ON NULL INPUT", "SECURITY DEFINER",
    "SECURITY INVOKER", "EXTERNAL SECURITY DEFINER", "AUTHID DEFINER", "AUTHID CURRENT_USER", "LEAKPROOF",
    "NOT LEAKPROOF", "NOT FENCED", "NOT SHIPPABLE", "FENCED", "SHIPPABLE", "PACKAGE", "PIPELINED", "DETERMINISTIC",
    "COST 100", "ROWS 10", "PARALLEL safe", "RETURNS TABLE(a int, b text)", "RETURNS numeric(10,2)",
])
_GOOD_BLANKS = st.sampled_from([" ", "\n ", "\n", "\t", "\r\n", "  "])
_GOOD_BODY = st.sampled_from([
    "AS $function$ begin return a + 1; end $function$;\n", "AS $$ $$", "IS $$x$$ ;\n/\n", "AS ' it''s ';",
    "AS E'\\n';", "AS BEGIN NULL; END;", "IS BEGIN x := 1; END;\n/", "AS $$ unterminated", "AS $$x$$ extra",
])


@settings(max_examples=3000, deadline=None)
@given(_HEADS, st.lists(_GOOD_CLAUSES, max_size=8), _GOOD_BLANKS, _GOOD_BODY, st.lists(_HOSTILE, max_size=1),
       st.integers(min_value=0, max_value=300))
def test_generated_common(head: str, clauses: list[str], sep: str, body: str, hostile: list[str], at: int):
    """Headers read_common mostly reads, and each with one hostile piece put in anywhere."""
    text = head + sep + sep.join(clauses) + (sep if clauses else "") + body
    _same(text)
    if hostile:
        _same(text[:at] + hostile[0] + text[at:])
