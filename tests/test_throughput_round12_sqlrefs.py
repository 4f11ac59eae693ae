"""Round 12 of issue 26, the SQL fragments' references: what changed there gives what it gave before.

* :func:`ddlc.frontend.sql.refs.name_refs` reads pglast's nodes by class from each statement's index, in one
  frame, with the ``NameRef`` tuples made in C and a qualified name's schema end found without the lexer when
  the text spells it bare before its dot. The former reading (one handler call per node in walk order, kept
  below as ``_former_name_refs``) gives the same references, in the same order, for every string of the
  fixtures and for generated texts (hostile names, quotes, backslashes, dollar quotes, comments, blanks,
  non-ASCII, several statements, CTEs, every kind of reference at once).
* A body starting with ``SELECT `` is read as a query only: for every such text, the expression reading
  (``SELECT SELECT ...``) and the constraint readings (JSON and nodes) never parse.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ddlc.frontend.sql import refs as R
from ddlc.frontend.sql.lexer import BLANK
from ddlc.frontend.sql.pgparse import parse_json, parse_statements, pglast_ast
from ddlc.frontend.sql.pgwords import requote, to_source
from ddlc.ir.names import NameRef, RefKind
from ddlc.ir.sqltree import index
from fixture_strings import json_strings


def _former_parse(body: str) -> tuple[str, Any, bool] | None:
    """``refs._parse`` before round 12 (every reading tried in turn)."""
    attempts: list[str] = []
    if R._QUERY_START.match(body):
        attempts.append("")
    if R.CONSTRAINT_START.match(body) is None:
        attempts.append("SELECT ")
    for prefix in attempts:
        stmts = parse_statements(prefix + body)
        if stmts is not None:
            return prefix, stmts, False
    if body.isascii():
        doc = R._constraint_json(R._CONSTRAINT + body)
        if doc is None:
            return None
        if len(doc) == 1 and "AlterTableStmt" in (doc[0].get("stmt") or {}):
            return R._CONSTRAINT, doc, True
    stmts = parse_statements(R._CONSTRAINT + body)
    return None if stmts is None else (R._CONSTRAINT, stmts, False)


def _former_name_refs(text: str) -> tuple[NameRef, ...] | None:
    """``refs.name_refs`` before round 12 (a handler per node, in the walk order of ``Index.among``)."""
    body = text.strip(BLANK)
    if body.endswith(";"):
        body = body[:-1]
    parsed = _former_parse(body)
    if parsed is None:
        return None
    prefix, stmts, in_json = parsed
    ast = pglast_ast()

    lead = len(text) - len(text.lstrip(BLANK))
    marks = requote(prefix + body)[1]

    def at(location: int) -> int:
        return lead + (to_source(marks, location) if marks else location) - len(prefix)

    refs: list[NameRef] = []
    ctes: set[str] = set()

    def schema_ref(kind: RefKind, schema: str | None, name: str, location: int) -> None:
        start = at(location)
        end = R._ident_end(text, start) if schema is not None else start
        refs.append(NameRef(kind, schema, name, start, end))

    if in_json:
        R._json_refs(stmts, text, at, schema_ref, refs, ctes)
        return tuple(refs)
    dummy = stmts[0].stmt.relation if prefix == R._CONSTRAINT else None

    def range_var(node: Any) -> None:
        if node is dummy or (node.schemaname is None and node.relname in ctes) or node.location < 0:
            return
        schema_ref(RefKind.RELATION, node.schemaname, node.relname, node.location)

    def func_call(node: Any) -> None:
        names = [n.sval for n in node.funcname]
        if len(names) == 2 and node.location >= 0:
            schema_ref(RefKind.FUNCTION, names[0], names[1], node.location)
        if names[-1] in ("nextval", "currval", "setval") and node.args:
            arg = node.args[0]
            const = arg.arg if isinstance(arg, ast.TypeCast) else arg
            if isinstance(const, ast.A_Const) and isinstance(const.val, ast.String):
                qual = R.split_regclass(const.val.sval)
                if qual is not None:
                    span = R._literal_after_paren(text, at(node.location)) if node.location >= 0 else None
                    start, end = span if span is not None else (-1, -1)
                    refs.append(NameRef(RefKind.REGCLASS, qual[0], qual[1], start, end, const.val.sval))

    def type_name(node: Any) -> None:
        names = [n.sval for n in node.names]
        if len(names) == 2 and names[0] != "pg_catalog" and node.location >= 0:
            schema_ref(RefKind.TYPE, names[0], names[1], node.location)

    cte = ast.CommonTableExpr
    handlers = {ast.RangeVar: range_var, ast.FuncCall: func_call, ast.TypeName: type_name, cte: None}
    found = [n for s in stmts if s.stmt is not None for n in index(R._within(s.stmt, ast)).among(handlers)]
    for node in found:
        if type(node) is cte:
            ctes.add(node.ctename)
    for node in found:
        fn = handlers[type(node)]
        if fn is not None:
            fn(node)
    return tuple(refs)


def _outcome(fn: Any, text: str) -> Any:
    try:
        out = fn(text)
    except Exception as exc:  # noqa: BLE001 - the same failure is the same outcome
        return ("raised", type(exc))
    if out is None:
        return None
    # the same values, of the same types (a NameRef, its kind the enum member)
    return tuple((type(r), tuple(r), type(r.kind)) for r in out)


def _same(text: str) -> None:
    want = _outcome(_former_name_refs, text)
    got = _outcome(R.name_refs.__wrapped__, text)
    assert got == want, text
    body = text.strip(BLANK)
    if body.endswith(";"):
        body = body[:-1]
    assert R._parse(body) == _former_parse(body), text
    if body.startswith(("SELECT ", "select ")) and parse_statements(body) is None:
        # the readings the shortcut skips: never one that parses
        assert parse_statements("SELECT " + body) is None, text
        assert parse_json(R._CONSTRAINT + body) is None, text
        assert parse_statements(R._CONSTRAINT + body) is None, text


TEXTS = sorted(json_strings(4000))


def test_fixture_strings_same_references() -> None:
    for text in TEXTS:
        _same(text)
        if not text.endswith(";"):
            _same(text + ";")
        if not text.startswith(("SELECT ", "select ")):
            _same("SELECT " + text)


def test_references_of_every_class_in_walk_order() -> None:
    text = ("SELECT s.f(x::t2.ty), nextval('q.seq'::regclass), a.b FROM s1.t1 JOIN t2 ON t2.x = s.g(1)::ty3.u "
            "WHERE EXISTS (SELECT 1 FROM s3.t3)")
    got = R.name_refs.__wrapped__(text)
    assert got == _former_name_refs(text)
    # relations, functions, types and a sequence's literal: interleaved in walk order, not grouped by class
    kinds = [r.kind for r in got]
    assert len(set(kinds)) == 4 and kinds != sorted(kinds, key=[RefKind.RELATION, RefKind.FUNCTION,
                                                                   RefKind.REGCLASS, RefKind.TYPE].index)


_NAMES = ["public", "s", "S", '"S"', '"s"', '"a.b"', '"q""x"', "PUBLIC", "pub$x", "_u", "é", '"é"', "u&\"x\"",
          "e", "n", "x", "b", "isnull", "lateral", "select", '"select"', "s1", "a_b", "ñame", "t"]
_GLUE = [".", " .", ". ", " . ", "./*c*/", ".--c\n"]
_PIECES = ["SELECT ", "select ", "WITH c AS (SELECT 1) ", " FROM ", " JOIN ", " ON ", " WHERE ", "(", ")", ", ", ",",
           " ", "\n", "\t", "::", "::integer", "'v'", "'s.seq'", "'a''b'", "E'\\''", "'\\'", "$$x$$", "$q$ ' $q$",
           "--c\n", "/*c*/", "/* ' */", ";", "; ", "1", "+", ">", " AS ", "c", "nextval(", "currval(",
           "setval(", "'::regclass", "CHECK (", "PRIMARY KEY (", "UNIQUE (", "FOREIGN KEY (a) REFERENCES ",
           "VALUES (1)", "TABLE ", "DESC", "PARTITION (p)", "é", '"', "'", "\\", "", "x.y.z", "*"]


@st.composite
def _qualified(draw: Any) -> str:
    return draw(st.sampled_from(_NAMES)) + draw(st.sampled_from(_GLUE)) + draw(st.sampled_from(_NAMES))


_PIECE = st.one_of(st.sampled_from(_PIECES), _qualified(),
                   st.builds(lambda q: q + "(x)", _qualified()),
                   st.builds(lambda q: "x::" + q, _qualified()),
                   st.builds(lambda q: "nextval('" + q.replace("'", "''") + "'::regclass)", _qualified()))


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_PIECE, min_size=1, max_size=12))
def test_generated_same_references(pieces: list[str]) -> None:
    _same("".join(pieces))


_QUERY = st.lists(st.one_of(st.sampled_from(_PIECES), _qualified()), min_size=1, max_size=10)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["SELECT ", "select "]), st.sampled_from(["", "a, ", "* ", "s.t.c ", "f(x) "]), _QUERY)
def test_generated_queries_same_references(head: str, first: str, rest: list[str]) -> None:
    _same(head + first + "FROM " + "".join(rest))
    _same(head + first + "".join(rest))


@pytest.mark.parametrize("text", [
    "SELECT a FROM public.t PARTITION (p1)",
    "SELECT SELECT 1",
    "select a from public.t partition (p1);",
    "SELECT values FROM t",
    "SELECT x FROM s.t; garbage",
    "SELECT 1; ALTER TABLE x ADD CONSTRAINT c CHECK (a > 0)",
    "SELECT a FROM public.t WHERE b = u&\"x\".f(1)",
    "SELECT a FROM \"Public\".t, PUBLIC.u, pub$x.v, é.w, s .t2, s. t3",
])
def test_listed_same_references(text: str) -> None:
    _same(text)
