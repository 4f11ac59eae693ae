"""Throughput round 16 (issue 26): ``qualify_names``'s check without the regex or the reference parse it can skip.

* ``may_reference``: the seven-word case-insensitive search runs only when an ASCII text holds one of its words
  (``str.lower`` and ``in``); a text with any other character is searched as before.
* ``_qualified_sequence``: an expression whose text is exactly ``nextval('schema.name'::regclass)`` (plain
  lower-case names: a serial column's default as the server writes it) has one reference, with a schema, seen
  without working its references out (a parse of their own in ``name_refs``); anything else goes the former way.

Compared here: the pass against its former module (read from git) over every fixture statement and its variants (a
name made unqualified, a fragment made unparsed) with two default schemas: the same statements, identity and
diagnostics; ``may_reference`` against the search on generated hostile texts (quotes, backslashes, ``$$``, ``--``,
``/*``, newlines, non-ASCII, empty, the words in any case); ``_qualified_sequence``'s claim against the references
worked out, over every fixture fragment and generated spellings (quoted, schema-qualified or not, odd casing,
hostile literals with quotes and backslashes, ``E''`` strings, blanks, comments, other calls).
"""

from __future__ import annotations

import importlib
import importlib.util
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddlc.frontend.sql.expr import expr_tree
from ddlc.frontend.sql.refs import name_refs
from ddlc.ir import base
from ddlc.ir.names import Expr, ParsedSql
from ddlc.ir.reach import Reach
from ddlc.passes import PassContext
from ddlc.quoting import quote_ident, quote_literal
from tests.test_throughput_passes import STATEMENTS, _statements, _variants

ROOT = Path(__file__).resolve().parents[1]
BASE = "a38eda0"  # the round's base: qualify_names.py as it was
qn = importlib.import_module("ddlc.passes.qualify_names")  # (the package's name ``qualify_names`` is the pass)
_EXPRS = Reach({Expr})


def _former() -> Any:
    """``qualify_names.py`` as the round's base had it, run as a module of ``ddlc.passes``; None without git."""
    try:
        src = subprocess.run(["git", "show", f"{BASE}:ddlc/passes/qualify_names.py"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    name = "ddlc.passes._former_qualify_names_r16"
    spec = importlib.util.spec_from_loader(name, loader=None)
    mod = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    mod.__package__ = "ddlc.passes"
    mod._N501 = qn.N_UNPARSED_REF  # (a code is registered once: the former module takes today's, the same values)
    assert src.count("N_UNPARSED_REF = register(") == 1
    src = src.replace("N_UNPARSED_REF = register(", "N_UNPARSED_REF = (lambda *_: _N501)(")
    sys.modules[name] = mod
    exec(compile(src, f"<{BASE}:qualify_names.py>", "exec"), mod.__dict__)
    return mod


FORMER = _former()
needs_git = pytest.mark.skipif(FORMER is None, reason="no git history")


def _fragments() -> list[str]:
    out = []
    for _label, stmt in STATEMENTS:
        for e, _holder, _name in _EXPRS.current().found(stmt):
            out.append(e.text)
    return out


FRAGMENTS = _fragments()


@needs_git
@pytest.mark.parametrize("default", ["public", "s_other"])
def test_the_pass_as_before_on_every_fixture_statement(default: str) -> None:
    ctx = PassContext(default_schema=default, document="d")
    kept = changed = 0
    # built twice: each pass meets fragments whose references are not worked out yet (the shortcut's case)
    for (label, new_stmt), (_l, old_stmt) in zip(_statements(), _statements()):
        for v_new, v_old in zip(_variants(new_stmt), _variants(old_stmt)):
            new, new_diags = qn.qualify_names(v_new, ctx)
            old, old_diags = FORMER.qualify_names(v_old, ctx)
            assert base.to_json(new, with_origin=True) == base.to_json(old, with_origin=True), label
            assert (new is v_new) == (old is v_old), label
            assert [d.to_dict() for d in new_diags] == [d.to_dict() for d in old_diags], label
            kept += new is v_new
            changed += new is not v_new
    assert kept > 100 and changed > 100, (kept, changed)


def test_the_shortcut_is_taken_on_the_fixtures() -> None:
    taken = [t for t in FRAGMENTS if qn._qualified_sequence(_later(t))]
    assert taken
    for t in FRAGMENTS:
        _claim_holds(t)
        assert qn.may_reference(t) == (qn._MAY_REFERENCE.search(t) is not None), t


_WORDS = ["nextval", "NEXTVAL", "NextVal", "currval", "setval", "REFERENCES", "references", "select", "SELECT",
          "From", "from", "join", "JOIN", "ſelect", "nextvaL", "refeRENCES", "joins", "_from", "from_", "fr om"]
_BITS = list("ab_Z1 '\"\\$-/*\n;().é中\t") + ["$$", "--", "/*", "*/", "E'", "::", "K", "ı", "İ"]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(_WORDS), st.sampled_from(_BITS), st.text(max_size=3)), max_size=8))
def test_may_reference_as_the_search(parts: list[str]) -> None:
    text = "".join(parts)
    assert qn.may_reference(text) == (qn._MAY_REFERENCE.search(text) is not None), text


def _later(text: str) -> ParsedSql:
    """The parsed form ``make_expr`` gives an expression (without its fragment check: any text is tried here)."""
    return ParsedSql.later("expr", text, expr_tree, name_refs)


def _claim_holds(text: str) -> bool:
    """``_qualified_sequence`` of a fresh parsed form of ``text``; asserts that, when it says so, the references
    worked out exist (the text parses) and each has a schema, and that it left them to work out."""
    s = _later(text)
    said = qn._qualified_sequence(s)
    if said:
        assert s._refs_later is not None  # (not worked out by the shortcut)
        refs = name_refs(text)
        assert refs, text
        assert all(r.schema is not None for r in refs), (text, refs)
        assert not qn._unqualified_ref(refs, _later(text))
    return said


_NAMES = st.text(st.sampled_from(list("ab_Z1 .'\"\\$-/*\n;().é中")), min_size=0, max_size=6)


@st.composite
def _sequence_call(draw) -> str:
    def part() -> str:
        n = draw(_NAMES)
        how = draw(st.sampled_from(["plain", "quoted", "upper"]))
        if how == "quoted":
            return quote_ident(n or "x")
        return (n.upper() if how == "upper" else n) or "s"

    name = part()
    if draw(st.booleans()):
        name = f"{part()}.{name}"
    if draw(st.booleans()):
        name = f"{part()}.{name}"
    lit = quote_literal(name)
    if draw(st.booleans()):
        lit = "E" + lit
    fn = draw(st.sampled_from(["nextval", "NEXTVAL", "currval", "setval", "pg_catalog.nextval", "s.nextval"]))
    cast = draw(st.sampled_from(["::regclass", "::REGCLASS", ":: regclass", "::text", "", "::regclass::text"]))
    gap = draw(st.sampled_from(["", " ", "\n", "/* c */", "--c\n"]))
    tail = draw(st.sampled_from(["", " ", ";", " + 1", "--x", "/* y */", ")"]))
    return f"{gap}{fn}{gap}({lit}{cast}){tail}"


@settings(max_examples=600, deadline=None)
@given(_sequence_call())
def test_generated_sequence_calls(text: str) -> None:
    _claim_holds(text)


@pytest.mark.parametrize("text", [
    "nextval('public.t_id_seq'::regclass)", "nextval('s1.a_b_c2'::regclass)", "nextval('_s._q'::regclass)",
    "nextval('public.t_id_seq'::regclass) ", " nextval('public.t_id_seq'::regclass)",
    "nextval('t_id_seq'::regclass)", "nextval('Public.t'::regclass)", "nextval('\"P\".t'::regclass)",
    "nextval('a.b.c'::regclass)", "nextval('.t'::regclass)", "nextval('s.'::regclass)", "nextval('s..t'::regclass)",
    "nextval(E'public.t'::regclass)", "nextval('public.t')", "nextval('public.t'::regclass);",
    "nextval('public.t'::regclass)--x", "NEXTVAL('public.t'::regclass)", "nextval ('public.t'::regclass)",
    "nextval('public.t' ::regclass)", "nextval('public.t'::regclass)\n", "nextval('public.t\\'::regclass)",
    "nextval('pub''lic.t'::regclass)", "nextval('public.t'::regclass) + nextval('t'::regclass)",
    "nextval('publ\u0131c.t'::regclass)", "nextval('s.t$'::regclass)", "nextval('1s.t'::regclass)",
])
def test_hand_picked_spellings(text: str) -> None:
    said = _claim_holds(text)
    plain = text in ("nextval('public.t_id_seq'::regclass)", "nextval('s1.a_b_c2'::regclass)",
                     "nextval('_s._q'::regclass)")
    assert said == plain, text


def test_another_reader_is_not_taken() -> None:
    def other(text: str) -> Any:
        return name_refs(text)

    s = ParsedSql.later("expr", "nextval('public.t'::regclass)", expr_tree, other)
    assert not qn._qualified_sequence(s)
