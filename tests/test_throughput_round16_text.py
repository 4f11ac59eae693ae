"""Issue 26, round 16 (text): the TDDL recovery parses a statement's query once.

* A CREATE TABLE AS's / materialized view's fields are read from pglast's parse of the statement with ``SELECT``
  in place of its query (``recover_json._query_apart``), once the query parses alone as the SQL layer reads it;
  before, the whole statement was parsed, then its query again alone by the SQL layer.
* A ``SELECT ... INTO``'s name, columns and persistence are read from the SQL layer's parse of the text
  (``recover_json.select_into``), which the query's readers take later, instead of a JSON parse of the text.
* A GRANT / REVOKE the recovery writes back as it came is not parsed a second time for ``pg_grammar``
  (``recover_json.is_text``).

Each is compared with the former recovery (``ddlc/frontend/recover.py`` read from git at the round's base, run
against today's package: its ``recover_json.create_as`` without a span is the former reading) on every fixture
string and expected GaussDB line of those kinds, on a sweep of statements made of hostile pieces (quotes,
backslashes, ``$$``, ``--``, ``/*``, ``;`` inside and doubled, blanks the server does not know, non-ASCII, words
openGauss writes bare that PostgreSQL reads as keywords, forms the grammar refuses, ``WITH [NO] DATA``), and by
hypothesis: the same statement (equal, the same repr, the same query text and parse) and the same diagnostics.
The new readings must answer for the fixtures (else this proves little).
"""

from __future__ import annotations

import glob
import importlib.util
import itertools
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddlc import diagnostics
from ddlc.frontend import recover as NEW
from ddlc.frontend import recover_json
from ddlc.frontend.tddl_text import text_kind
from fixture_strings import json_strings
from former_modules import atomic_source

ROOT = Path(__file__).resolve().parents[1]
BASE = "a38eda0"
KINDS = frozenset({"CREATE TABLE", "CREATE MATERIALIZED VIEW", "SELECT", "GRANT", "REVOKE"})


def _former() -> ModuleType | None:
    """recover.py at BASE, run as ``ddlc.frontend._recover_round15`` (its relative imports read today's package;
    its diagnostic codes, already registered by today's module, registered again as no-ops)."""
    try:
        src = subprocess.run(["git", "show", f"{BASE}:ddlc/frontend/recover.py"], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    name = "ddlc.frontend._recover_round15"
    mod = importlib.util.module_from_spec(importlib.util.spec_from_loader(name, loader=None))  # type: ignore[arg-type]
    mod.__package__ = "ddlc.frontend"
    sys.modules[name] = mod
    real = diagnostics.register
    diagnostics.register = lambda code, *a, **k: code if code in diagnostics.CODES else real(code, *a, **k)
    try:
        exec(compile(atomic_source(src), f"<{BASE}:recover.py>", "exec"), mod.__dict__)
    finally:
        diagnostics.register = real
    return mod


OLD = _former()
needs_git = pytest.mark.skipif(OLD is None, reason=f"the git history (commit {BASE}) is not available")


def _query(e: Any) -> Any:
    """An Expr's text and what the SQL layer makes of it (the parse's repr, its verbatim verdict)."""
    if e is None or getattr(e, "sql", None) is None:
        return e
    return e.text, repr(e.sql.node), e.sql.verbatim


def _outcome(mod: Any, text: str) -> Any:
    stmt, diags = mod.recover_tddl(text)
    return (type(stmt).__name__, stmt, repr(stmt), _query(getattr(stmt, "query", None)),
            getattr(stmt, "pg_grammar", None), [(d.code, d.message) for d in diags])


def _same(text: str) -> None:
    assert _outcome(OLD, text) == _outcome(NEW, text), text


class _Count:
    """How often each new reading answered (not None / True)."""

    def __init__(self) -> None:
        self.n = {"apart": 0, "into": 0, "text": 0}

    def __enter__(self) -> _Count:
        self.saved = (recover_json._query_apart, recover_json.select_into, recover_json.is_text)

        def wrap(key: str, fn: Any) -> Any:
            def f(*a: Any) -> Any:
                got = fn(*a)
                self.n[key] += got is not None and got is not False
                return got
            return f

        recover_json._query_apart = wrap("apart", self.saved[0])
        recover_json.select_into = wrap("into", self.saved[1])
        recover_json.is_text = wrap("text", self.saved[2])
        return self

    def __exit__(self, *exc: Any) -> None:
        recover_json._query_apart, recover_json.select_into, recover_json.is_text = self.saved


def _fixture_texts() -> list[str]:
    out = json_strings()
    for f in sorted(glob.glob(str(ROOT / "fixtures" / "cases" / "*" / "*" / "expected.gaussdb.sql"))):
        out.update(line for line in Path(f).read_text().splitlines() if line.strip())
    return sorted(t for t in out if text_kind(t) in KINDS)


@needs_git
def test_fixture_texts_read_as_before() -> None:
    texts = _fixture_texts()
    assert len(texts) > 20
    with _Count() as c:
        for t in texts:
            _same(t)
    assert c.n["apart"] >= 5 and c.n["into"] >= 1 and c.n["text"] >= 1, c.n


_HEADS = ["CREATE TABLE public.t", "create table t", "CREATE UNLOGGED TABLE IF NOT EXISTS s.t (a, b)",
          "CREATE TABLE t WITH (orientation = 'row', compression = 'no')", "CREATE TEMP TABLE t TABLESPACE x",
          "CREATE MATERIALIZED VIEW v", "CREATE INCREMENTAL MATERIALIZED VIEW s.v (a)", "CREATE TABLE \"T;\"",
          "CREATE TABLE t WITH (k = '$$')", "CREATE TABLE a.b.c", "CREATE TABLE t (a int)", "CREATE TABLE isnull"]
_AS = [" AS ", " as ", " AS(", " AS\n", " AS /* c */ ", " AS -- c\n", "  AS\t"]
_QUERIES = ["SELECT 1", "SELECT a, b FROM public.s WHERE a > 1", "SELECT 'a;b'", "SELECT $$x$$", "SELECT 1 -- c\n",
            "SELECT /* x */ 1", "SELECT isnull FROM t", "SELECT 1; SELECT 2", "VALUES (1)", "TABLE t", "(SELECT 1)",
            "SELECT * FROM t WITH", "EXECUTE p", "SELECT 1 INTO u FROM t", "SELECT e'\\''", "SELECT \"a\"\"b\"",
            "SELECT 'é'", "SELECT 1 FETCH FIRST 1 ROWS WITH TIES", "SELECT * FROM f() WITH ORDINALITY",
            "SELECT 1)", "SELECT (1", "SELECT 'x", "WITH q AS (SELECT 1) SELECT * FROM q", "SELECT", "",
            "SELECT a FROM t ORDER BY a NULLS", "SELECT 1 UNION SELECT 2", "SELECT lateral FROM t", "SELECT a\xa0",
            "SELECT 1 FETCH FIRST 1 ROWS ONLY", "SELECT * FROM t FOR UPDATE", "SELECT a FROM t WINDOW w AS ()",
            "SELECT a FROM t LIMIT ALL", "SELECT 1 INTO TEMP x", "SELECT a FROM t ORDER BY a NULLS FIRST",
            "SELECT 1 AS with", "SELECT time with time zone '1:00'", "SELECT 1 FETCH FIRST 1 ROWS",
            "SELECT * FROM t WITH NO DATA", "SELECT 1 NOT", "SELECT a::int[] FROM t", "select 1 as \"AS\""]
_TAILS = ["", ";", " WITH DATA", " WITH NO DATA;", " NO DATA", " WITH DATA ;  ", ";;", " \xa0", "; -- c", " DATA",
          "\n;\n", "; SELECT 3"]


@needs_git
def test_create_as_sweep() -> None:
    with _Count() as c:
        for head, as_, query, tail in itertools.product(_HEADS, _AS, _QUERIES, _TAILS[:6]):
            _same(head + as_ + query + tail)
        for head, query, tail in itertools.product(_HEADS[:6], _QUERIES, _TAILS):
            _same(head + " AS " + query + tail)
    assert c.n["apart"] > 100, c.n


_INTO = ["SELECT a, b INTO public.t FROM s WHERE a > 1", "SELECT a INTO TEMP t FROM s", "SELECT INTO UNLOGGED t",
         "select a into t from s", "SELECT a INTO a.b.c FROM s", "SELECT a INTO t FROM s; SELECT 2",
         "SELECT 'x;' INTO t", "SELECT isnull INTO t FROM s", "SELECT a INTO t FROM s -- c", "SELECT a FROM s",
         "SELECT a INTO t FROM s /* c */", "SELECT $$a$$ INTO t", "SELECT a INTO \"T\" FROM s", "SELECT a INTO t FROM"]
_AROUND = ["", " ", "\n", "\xa0", "\x1c", "\t "]


@needs_git
def test_select_into_sweep() -> None:
    with _Count() as c:
        for lead, body, tail, trail in itertools.product(_AROUND, _INTO, _TAILS, _AROUND):
            _same(lead + body + tail + trail)
    assert c.n["into"] > 50, c.n


_GRANTS = ["GRANT SELECT, ALTER ON TABLE public.t TO r", "grant select on table t to r", "GRANT ALL ON TABLE t TO PUBLIC",
           "GRANT SELECT (a) ON TABLE t TO r", "GRANT SELECT ON TABLE t TO isnull", "GRANT SELECT ON TABLE \"T\" TO r",
           "REVOKE SELECT ON TABLE t FROM r", "GRANT SELECT ON t TO r", "GRANT SELECT ON TABLE t TO r WITH GRANT OPTION",
           "GRANT USAGE ON SCHEMA s TO r", "GRANT SELECT ON ALL TABLES IN SCHEMA s TO r", "GRANT r1 TO r2",
           "GRANT SELECT ON TABLE t TO r -- c", "GRANT SELECT ON TABLE lateral TO r", "GRANT SELECT ON TABLE t TO \"R;\"",
           "GRANT EXECUTE ON FUNCTION f(int) TO r", "GRANT SELECT ON TABLE t TO r; GRANT", "GRANT  SELECT ON TABLE t TO r"]


@needs_git
def test_grant_sweep() -> None:
    with _Count() as c:
        for lead, body, tail, trail in itertools.product(_AROUND, _GRANTS, _TAILS, _AROUND[:3]):
            _same(lead + body + tail + trail)
    assert c.n["text"] > 50, c.n


_PIECES = _HEADS + _AS + _QUERIES + _TAILS + _INTO + _GRANTS + [
    "'", '"', "$$", "--", "/*", "*/", "\\", ";", "(", ")", "WITH", "NO", "DATA", "INTO", " ", "\n", "é", "\xa0"]


@needs_git
@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=6))
def test_hypothesis_texts(pieces: list[str]) -> None:
    _same("".join(pieces))


# ---- the routine slot's verdict without the text's tokens (slotforms._plain_routine) ----------------------------
from ddlc.frontend.sql import slotforms as SLOT  # noqa: E402
from former_modules import former_module  # noqa: E402

OLD_SLOT = former_module(BASE, "ddlc/frontend/sql/slotforms.py", "_slotforms_round15")


def _same_verdict(v: str) -> bool:
    """The routine verdict of ``v`` is the former one; whether the new reading answered without the tokens."""
    fast = SLOT._plain_routine(v) is not SLOT._UNSURE
    assert SLOT.fragment_verdict(v, "routine") == OLD_SLOT.fragment_verdict(v, "routine"), v  # type: ignore[union-attr]
    return fast


_R_HEADS = ["CREATE FUNCTION f() RETURNS int LANGUAGE sql AS ", "create or replace function public.f(a integer)\n RETURNS integer\n AS ",
            "CREATE\tPROCEDURE p() AS\n", " \n CREATE FUNCTION f() AS ", "CREATEX FUNCTION f() AS ", "CREATE", "CREATE ",
            "\xa0CREATE FUNCTION f() AS ", "CREATE FUNCTION f(x text DEFAULT 'a') AS ", "CREATE FUNCTION \"f\"() AS ",
            "CREATE FUNCTION f() AS;", "DROP FUNCTION f; CREATE FUNCTION f() AS ", "CRÉATE FUNCTION f() AS ", "CREATE FUNCTION f() AS",
            "CREATE FUNCTION f() AS x", "CREATE FUNCTION f(a int) RETURNS int AS 1 + ", "créate function f() AS ", ""]
_R_TAGS = ["$$", "$function$", "$a_1$", "$é$", "$1", "$", "$ $", "$$$"]
_R_BODIES = [" begin return a + 1; end ", "", "select 1", " x $ y ", " $function ", "'", '"', "--c\n", "/", "a\\b",
             " $$ ", " ; ", "\n/\n", "$x$"]
_R_TAILS = ["", ";", ";\n", " ;; ", "; SELECT 1", " LANGUAGE plpgsql;", "; '", " $$", "\n", "; --c", " /", ";\\"]


def test_routine_verdict_fixtures() -> None:
    if OLD_SLOT is None:
        pytest.skip(f"the git history (commit {BASE}) is not available")
    texts = [t for t in json_strings() if "CREATE" in t.upper()]
    fast = sum(_same_verdict(t) for t in texts)
    assert fast >= 1, fast  # (the corpus's CREATE FUNCTION)


def test_routine_verdict_sweep() -> None:
    if OLD_SLOT is None:
        pytest.skip(f"the git history (commit {BASE}) is not available")
    fast = 0
    for head, tag, body, tail in itertools.product(_R_HEADS, _R_TAGS, _R_BODIES, _R_TAILS):
        close = tag if tag.endswith("$") and len(tag) > 1 else "$$"
        fast += _same_verdict(head + tag + body + close + tail)
        fast += _same_verdict(head + tag + body + tail)
    assert fast > 1000, fast


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_R_HEADS + _R_TAGS + _R_BODIES + _R_TAILS + [" ", "\t", "\r", "\f", "\v", "\x1c", "é"]),
                min_size=1, max_size=7))
def test_routine_verdict_hypothesis(pieces: list[str]) -> None:
    if OLD_SLOT is None:
        pytest.skip(f"the git history (commit {BASE}) is not available")
    _same_verdict("".join(pieces))


# ---- a CREATE TABLE AS's query found without lexing it (recover_span._plain_query_span) ---------------------------------
from ddlc.frontend import recover_span as SPAN  # noqa: E402
from ddlc.frontend.sql.lexer import Lexed  # noqa: E402

_Q_HEADS = ["CREATE TABLE t", "CREATE TABLE public.t WITH (orientation = 'row', compression = 'no')",
            "CREATE MATERIALIZED VIEW v (a, b)", "CREATE TABLE t (x) ", "CREATE TABLE t WITH (k = 'as')",
            "CREATE TABLE \"as\"", "CREATE TABLE t WITH (a = (1, 2))", "CREATE TABLE 'x", "CREATE TABLE t /* as */",
            "CREATE TABLE t -- as\n", "CREATE TABLE t WITH (k = $$ AS $$)", "", "AS", "CREATE TABLE as"]
_Q_AS = [" AS ", " as ", " As\n", " AS(", " aS\t", "\nAS", " AS", " AS;", " AS  ;  ", "(AS)", " [AS] ", " AS /**/ "]
_Q_BODIES = ["SELECT a, b FROM public.s WHERE a > 1", "SELECT 1", "", "WITH DATA", "WITH NO DATA", "NO DATA", "DATA",
             "SELECT data", "SELECT xdata", "SELECT 1 WITH DATA", "SELECT 1 WITH NO DATA", "SELECT 1 NO DATA",
             "SELECT 'x'", "SELECT $$x$$", "SELECT 1 -- c", "SELECT /* c */ 1", "SELECT a\\b", "SELECT \"q\"",
             "SELECT 1; SELECT 2", "SELECT (1", "SELECT 1)", "SELECT 1.", "SELECT é", "SELECT 1 AS a", "SELECT Data",
             "TABLE t WITH Data", "SELECT 1 with no data", "SELECT 1dAtA", "VALUES (1)", ";", "SELECT 1 /"]
_Q_TAILS = ["", ";", " ;", ";\n", " ; ", ";;", "\xa0", "\v", " ;\f", "; x"]


def _same_span(text: str) -> bool:
    """query_span of ``text`` is the former one (the whole text lexed); whether the new reading answered."""
    fast = SPAN._plain_query_span(Lexed(text)) is not SPAN._UNSURE
    assert NEW.query_span(Lexed(text)) == OLD._query_span(Lexed(text)), text  # type: ignore[union-attr]
    return fast


@needs_git
def test_query_span_sweep() -> None:
    fast = sum(_same_span(t) for t in _fixture_texts())
    assert fast >= 3, fast
    for head, as_, body, tail in itertools.product(_Q_HEADS, _Q_AS, _Q_BODIES, _Q_TAILS):
        fast += _same_span(head + as_ + body + tail)
    assert fast > 5000, fast


@needs_git
@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(_Q_HEADS + _Q_AS + _Q_BODIES + _Q_TAILS + [" ", "\n", "(", ")", "[", "]", "AS", "é"]),
                min_size=1, max_size=8))
def test_query_span_hypothesis(pieces: list[str]) -> None:
    _same_span("".join(pieces))
