"""Issue 26, round 13 (text): the CREATE FUNCTION text reader (``functext``), the former reading kept beside the
new one.

* ``_Cursor`` reads the text's spans in batches (``_read_on``: the token asked for and up to ``_BATCH - 1``
  more, in one frame) instead of one ``_at`` call a token; ``take``, ``_paren_tokens`` and the header loop read
  the known token without ``peek``'s frame; ``CALLED``/``NOT LEAKPROOF`` are tried by ``words`` only when the
  token is that word; an argument's mode by a module-level function, not a closure a call;
* ``crosscheck`` blanks the openGauss-only words by string slices (not a list of characters) and reads
  ``orjson`` from the module (no import statement a call).

The former module is read from git (the round's base, 3e710de) and compared with the new one on every fixture
string that names a function or procedure and on generated headers with hostile pieces (quotes, backslashes,
``$$``, ``--``, ``/*``, line breaks, non-ASCII, empty, texts cut anywhere): the same statement (every field),
the same spans, or the same error (class, message, offset); the same crosscheck verdicts; and the spans the new
reader leaves for the text's other readers are the lexer's own.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddlc.frontend.sql import functext as NEW
from ddlc.frontend.sql import lexer
from fixture_strings import json_strings

ROOT = Path(__file__).resolve().parents[1]
BASE = "3e710de"


def _former() -> ModuleType | None:
    try:
        src = subprocess.run(["git", "show", f"{BASE}:ddlc/frontend/sql/functext.py"], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    name = "ddlc.frontend.sql._functext_round12"
    spec = importlib.util.spec_from_loader(name, loader=None)
    mod = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    mod.__package__ = "ddlc.frontend.sql"
    sys.modules[name] = mod
    exec(compile(src, f"<{BASE}:functext.py>", "exec"), mod.__dict__)
    return mod


OLD = _former()
pytestmark = pytest.mark.skipif(OLD is None, reason=f"the former functext.py is read from git ({BASE}): no history here")


def _read(mod: ModuleType, text: str):
    try:
        stmt, spans = mod.parse_function_text(text, ("t",))
    except Exception as e:  # noqa: BLE001 - the error is what is compared
        return ("error", type(e).__name__, str(e), getattr(e, "pos", None)), None
    return ("ok", stmt, repr(stmt), spans.name, list(spans.og_only)), (stmt, spans)


def _same(text: str) -> None:
    new, got_new = _read(NEW, text)
    old, got_old = _read(OLD, text)
    assert new == old, text
    if got_new is not None:
        assert NEW.crosscheck(*got_new) == OLD.crosscheck(*got_old), text
    known = lexer.remembered_spans(text)
    if known is not None:
        assert known == list(lexer.token_spans(text)), text


def _texts() -> list[str]:
    return sorted(s for s in json_strings() if "FUNCTION" in s.upper() or "PROCEDURE" in s.upper())


def test_fixture_texts():
    texts = _texts()
    read = 0
    for text in texts:
        _same(text)
        _same(text[:] + " ")  # (a new string: the spans lexed here, not remembered)
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
    "é", "客", "\\", "$", "'", '"', "$1", "x$y", "[", "]", ".", "", " ",
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
])
_BODIES = st.sampled_from([
    "AS $function$ begin return a + 1; end $function$;\n", "AS ' BEGIN a:= a+1; RETURN a; END; ';",
    "AS BEGIN DELETE FROM t WHERE a < days; END;", "AS BEGIN x := 'unterminated; END;", "IS $$ $$ /",
    "AS 'obj', 'sym';", "AS $a$ $b$ $a$ ; x", "AS E'\\'' ;", "AS", "AS /* open", "AS -- c\n$$x$$;\n/\n",
])


@settings(max_examples=3000, deadline=None)
@given(_HEADS, st.lists(_PIECES, max_size=8), _BODIES, st.integers(min_value=0, max_value=400))
def test_generated_functions(head: str, middle: list[str], body: str, cut: int):
    text = head + " ".join(middle) + (" " if middle else "") + body
    _same(text)
    _same(text[:cut])
