"""Issue 26, round 16 (text2): the CREATE FUNCTION header read at once (``functext_head.read_common``) with its
dollar-quoted body found by ``str.find`` (the lexer's dollar token ends at the first ``$tag$`` after its opening
one), a one-argument ``name type`` list and a one-word return type read without their tokens, RETURNS NULL ON NULL
INPUT looked for only where NULL follows; and ``functext.crosscheck`` reading pglast's JSON nodes in place.

Each is compared with the former module (read from git, the round's head before this lever) and with the cursor
(``functext._parse``): on every fixture function text, each cut anywhere, and by hypothesis with hostile headers
(quoted names, keywords as names, defaults with strings and ``$$``, comments, non-ASCII, SETOF, RETURNS TABLE,
LANGUAGE before AS, WINDOW, options in every order and case, dollar tags that overlap, nest or never close): the
same statement (every field, its repr), the same spans, the same None, and the same crosscheck verdicts.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddlc.frontend.sql import functext as NEW
from ddlc.frontend.sql import functext_head as HEAD
from fixture_strings import json_strings
from former_modules import former_module

BASE = "cee4dd2"
OLD_HEAD = former_module(BASE, "ddlc/frontend/sql/functext_head.py", "_functext_head_round16")
OLD = former_module(BASE, "ddlc/frontend/sql/functext.py", "_functext_round16")
pytestmark = pytest.mark.skipif(OLD is None or OLD_HEAD is None, reason=f"the git history ({BASE}) is not available")


def _key(got):
    if got is None:
        return None
    stmt, spans = got
    return stmt, repr(stmt), spans.name, list(spans.og_only)


def _by_cursor(text: str):
    try:
        return NEW._parse(text, ("t",))
    except Exception as e:  # noqa: BLE001 - the error is what is compared
        return ("error", type(e).__name__, str(e))


def _same(text: str) -> bool:
    """read_common of ``text`` is the former one and, when it reads it, the cursor's reading; crosscheck's verdicts
    on it are the former module's. Whether it read the text."""
    new = HEAD.read_common(text, ("t",))
    old = OLD_HEAD.read_common(text, ("t",))  # type: ignore[union-attr]
    assert _key(new) == _key(old), text
    got = new
    if got is None:
        got = _by_cursor(text)
        if isinstance(got, tuple) and got[0] == "error":
            return False
    else:
        cur = _by_cursor(text)
        assert _key(got) == (_key(cur) if not (isinstance(cur, tuple) and cur[0] == "error") else cur), text
    assert NEW.crosscheck(*got) == OLD.crosscheck(*got), text  # type: ignore[union-attr]
    return new is not None


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
        for cut in range(0, len(text), max(1, len(text) // 80)):
            _same(text[:cut])
            _same(text[cut:])


_NAMES = ["public.add1", "f", '"f"', '"Se""l"', "select", "table", "s.pk.f", "returns", "language", "é", "as", "is",
          "_x", "f1", "setof", "default", "in", "out", "window"]
_ARGS = ["", "a integer", "a_00002 integer", "IN a int", "a IN int", "a OUT int", "in out", "x in", "default int",
         "a default", "a int DEFAULT 1", "a text DEFAULT 'x'", "a text DEFAULT $$x$$", "a text = 'it''s'",
         "a double precision", "double precision", "character varying", "a character varying", "time with",
         "\"a\" int", "a \"int\"", "a int, b text", "OUT a int, INOUT b int", "VARIADIC a int[]", "a numeric(10,2)",
         "a é", "a -- c\n int", "a /* c */ int", "1 int", "a 1", "a int4", "setof int", "a setof", "table int",
         "a returns", "as int", "a as", "a is", "window int", "a language", "a.b int", "a int,", ","]
_RETS = ["", "RETURNS integer", "RETURNS int4", "returns Int", "RETURNS SETOF int", "RETURNS setof", "RETURNS TABLE(a int)",
         "RETURNS TABLE (a int, b text)", "RETURNS table", "RETURNS NULL ON NULL INPUT", "RETURNS NULL", "RETURNS null x",
         "RETURNS NULL ON", "RETURN int", "RETURNS numeric(10,2)", "RETURNS pg_catalog.int4", "RETURNS \"int\"",
         "RETURNS é", "RETURNS 1", "RETURNS _t", "RETURNS double precision", "RETURNS RETURNS int", "RETURNS language",
         "RETURNS integer RETURNS integer", "RETURNS trigger"]
_OPTS = ["", "LANGUAGE plpgsql", "language SQL", "LANGUAGE 'sql'", "WINDOW", "IMMUTABLE", "stable", "Volatile",
         "STRICT", "CALLED ON NULL INPUT", "SECURITY DEFINER", "security invoker", "EXTERNAL SECURITY DEFINER",
         "AUTHID CURRENT_USER", "NOT FENCED NOT SHIPPABLE", "not fenced", "FENCED", "LEAKPROOF", "NOT LEAKPROOF",
         "COST 100", "ROWS 10", "PARALLEL safe", "PACKAGE", "DETERMINISTIC", "SET search_path TO a", "COMMENT 'c'",
         "-- c\n", "/* c */", "LANGUAGE plpgsql IMMUTABLE STRICT", "STRICT LANGUAGE sql NOT FENCED"]
_TAGS = ["$$", "$function$", "$a$", "$é$", "$a_1$", "$ab$"]
_BODIES = ["", " begin return a + 1; end ", "x", "$", " $ ", "$a", "a$", "$a$", "$ab$", "$$", "$function",
           "'", "''", "--", "/*", "\\", ";", "é", "\n/\n", " $a $a$ ", "$b$ $a$"]
_TAILS = ["", ";", ";\n", " ;\n/\n", "/", " x", "; x", "$$", "$a$", ";;", "\xa0", " LANGUAGE sql;", " , 'y';"]


def test_body_sweep():
    """Dollar-quoted bodies of every tag, with bodies that hold, overlap or almost make the closing tag."""
    fast = 0
    for head, tag, body, tail in itertools.product(
            ["CREATE OR REPLACE FUNCTION public.add1(a integer)\n RETURNS integer\n LANGUAGE plpgsql\n NOT FENCED AS ",
             "CREATE PROCEDURE p() AS", "CREATE FUNCTION f() RETURNS int IS\n"], _TAGS, _BODIES, _TAILS):
        fast += _same(head + tag + body + tag + tail)
        fast += _same(head + tag + body + tail)
        fast += _same(head + "'" + body + "'" + tail)
    assert fast > 1000, fast


def test_header_sweep():
    fast = 0
    for name, arg, ret in itertools.product(_NAMES, _ARGS, _RETS):
        for proc in ("FUNCTION", "procedure"):
            fast += _same(f"CREATE {proc} {name}({arg}) {ret} LANGUAGE plpgsql AS $$ x $$;")
            fast += _same(f"create or replace {proc} {name} ( {arg} )\n {ret}\n AS $f$x$f$")
    assert fast > 1000, fast


@settings(max_examples=3000, deadline=None)
@given(st.sampled_from(_NAMES), st.sampled_from(_ARGS), st.lists(st.sampled_from(_RETS + _OPTS), max_size=5),
       st.sampled_from([" ", "\n ", "\t", "", "  ", "\r\n", "\f", "\xa0"]), st.sampled_from(["AS", "IS", "as", "AS;"]),
       st.sampled_from(_TAGS + ["'", "E'", ""]), st.sampled_from(_BODIES), st.sampled_from(_TAGS + ["'", ""]),
       st.sampled_from(_TAILS), st.integers(min_value=0, max_value=300))
def test_hypothesis_headers(name, arg, clauses, sep, as_, open_, body, close, tail, cut):
    text = f"CREATE OR REPLACE FUNCTION {name}({arg}){sep}{sep.join(clauses)}{sep}{as_} {open_}{body}{close}{tail}"
    _same(text)
    _same(text[:cut])
    _same(text[cut:])
