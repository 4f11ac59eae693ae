"""Issue 26 (throughput), the builders: each cheaper way of building the IR gives what the former one gave.

* Constraint definitions are read from the JSON form of pglast's parse (``constraints._constraint_json``)
  instead of its Python nodes: the same :class:`ConstraintInfo` as the Python nodes' reading
  (``constraints._info_node``, the former path, kept for exclusion constraints and option values only
  pglast's printer writes) for every constraint text of the fixtures and for generated ones.
* The references of a fragment read as a table constraint (``refs.name_refs``'s last reading) are found in
  the JSON form of the parse too: the same references as the former walk of pglast's nodes, kept here.
* A fragment with strings and quoted names is checked without the lexer when what is left is plain.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddlc.frontend.sql import constraints as C

ROOT = Path(__file__).resolve().parents[1]


def _texts(keys: tuple[str, ...] = ("definition", "constraint_definition", "condef")) -> list[str]:
    out: set[str] = set()

    def walk(n: Any) -> None:
        if isinstance(n, dict):
            for k, v in n.items():
                if k in keys and isinstance(v, str):
                    out.add(v)
                walk(v)
        elif isinstance(n, list):
            for v in n:
                walk(v)

    for p in sorted((ROOT / "fixtures").rglob("*.json*")):
        try:
            text = p.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for doc in [text] if p.suffix == ".json" else text.splitlines():
            try:
                walk(json.loads(doc))
            except ValueError:
                continue
    return sorted(out)


TEXTS = _texts()


def _former(text: str) -> Any:
    """The former reading: pglast's Python nodes, every attempt made in turn."""
    body, informational, optimization = C.split_informational(text)
    body = body.strip(C.BLANK)
    if not body:
        return None
    attempts: list[tuple[str, tuple[int, ...], bool]] = [(body, (), False)]
    alt, disabled = body, False
    m = C._DISABLE_TAIL.search(alt)
    if m is not None:
        alt, disabled = alt[: m.start()], True
    alt, desc = C._strip_sort_orders(alt)
    if alt != body:
        attempts.append((alt, desc, disabled))
    for i, (sql, desc, dis) in enumerate(attempts):
        node = C._constraint_node(sql)
        if node is not None:
            return (C._info_node(node, body, (), desc, dis, informational, optimization), i == 0)
    return None


def _now(text: str) -> Any:
    hit = C._parse.__wrapped__(text)
    if hit is None:
        return None
    body, node, desc, dis, informational, optimization, first = hit
    return (C._info(node, body, (), desc, dis, informational, optimization), first)


def test_fixture_texts_found() -> None:
    assert len(TEXTS) > 15


@pytest.mark.parametrize("text", TEXTS)
def test_constraint_json_reading_equals_nodes(text: str) -> None:
    assert _now(text) == _former(text)


_NAME = st.sampled_from(["a", "b", "id", '"Odd Name"', "user", "c1", "x_y"])
_NAMES = st.lists(_NAME, min_size=1, max_size=3).map(", ".join)
_SORTED = st.lists(st.tuples(_NAME, st.sampled_from(["", " ASC", " DESC", " desc"])), min_size=1, max_size=3).map(
    lambda xs: ", ".join(n + o for n, o in xs))
_VALUE = st.sampled_from(["80", "0", "-3", "1.5", "'x'", "''", "true", "off", "foo", "1e3", "2147483648"])
_OPTIONS = st.lists(st.tuples(st.sampled_from(["fillfactor", "a", "ns.b"]), st.one_of(st.none(), _VALUE)),
                    min_size=1, max_size=3).map(lambda xs: " WITH (" + ", ".join(k if v is None else f"{k}={v}" for k, v in xs) + ")")
_TAIL = st.lists(st.sampled_from([" DEFERRABLE", " NOT DEFERRABLE", " INITIALLY DEFERRED", " INITIALLY IMMEDIATE",
                                  " NOT VALID", " NO INHERIT", " DISABLE", " USING INDEX TABLESPACE ts"]),
                 max_size=2).map("".join)
_FK_TAIL = st.lists(st.sampled_from([" MATCH FULL", " MATCH SIMPLE", " MATCH PARTIAL", " ON DELETE CASCADE",
                                     " ON UPDATE SET NULL", " ON DELETE SET DEFAULT", " ON UPDATE RESTRICT",
                                     " ON DELETE NO ACTION"]), max_size=3).map("".join)
_DEF = st.one_of(
    st.builds(lambda k, c, inc, o, t: f"{k} ({c}){inc}{o}{t}", st.sampled_from(["PRIMARY KEY", "UNIQUE", "unique"]),
              _SORTED, st.sampled_from(["", " INCLUDE (b)"]), st.one_of(st.just(""), _OPTIONS), _TAIL),
    st.builds(lambda c, s, r, t, t2: f"FOREIGN KEY ({c}) REFERENCES {s}t({r}){t}{t2}", _NAMES,
              st.sampled_from(["", "s.", '"S".']), _NAMES, _FK_TAIL, _TAIL),
    st.builds(lambda e, t: f"CHECK ({e}){t}", st.sampled_from(["a > 0", "(a)::text <> ''", "a IN (1, 2)", "f(a)"]), _TAIL),
    st.builds(lambda c, w: f"EXCLUDE USING gist ({c} WITH &&){w}", _NAME, st.sampled_from(["", " WHERE (a > 0)"])),
    st.sampled_from(["PARTIAL CLUSTER KEY (a)", "NOT NULL a", "", "CHECK", "PRIMARY KEY (a) (", "UNIQUE (a);"]),
)
_PREFIX = st.sampled_from(["", " ", "enable optimization Informational Constraint ",
                           "DISABLE OPTIMIZATION INFORMATIONAL CONSTRAINT "])


@settings(max_examples=400, deadline=None)
@given(_PREFIX, _DEF)
def test_constraint_json_reading_equals_nodes_generated(prefix: str, body: str) -> None:
    assert _now(prefix + body) == _former(prefix + body)



# -- fragments with strings and quoted names, a query's final ';': checked without the lexer -------------------

from ddlc.frontend.sql import fragment as F  # noqa: E402

_PIECES = st.sampled_from([
    "a", "b1", "E", "N", "X", "U&", " ", "\n", "\t", "(", ")", ",", ".", "::", "-", "--", "/", "/*", "*/", ";", "; ",
    "'", "''", "'x'", "'it''s'", "'a\\b'", "\\", '"', '""', '"N"', '"a""b"', "$", "$$", "$t$", "+", "=", "\r",
    "\f", "\x0b", "é", "\x00",
])


def _fragment_texts() -> list[str]:
    return sorted(set(_texts(("definition", "default", "expr", "query", "generation_expr", "where_clause",
                               "partition_by", "using", "check"))))


@pytest.mark.parametrize("query", [False, True])
def test_fragment_check_without_lexer_equals_scan_fixtures(query: bool) -> None:
    for text in _fragment_texts():
        assert F.fragment_problem.__wrapped__(text, query=query) == F._scanned_problem(text, query, False), text


@settings(max_examples=3000, deadline=None)
@given(st.lists(_PIECES, max_size=14).map("".join), st.booleans())
def test_fragment_check_without_lexer_equals_scan_generated(text: str, query: bool) -> None:
    assert F.fragment_problem.__wrapped__(text, query=query) == F._scanned_problem(text, query, False)


# -- a constraint reading's references from the JSON form of the parse ------------------------------------------

from collections.abc import Callable  # noqa: E402

from ddlc.frontend.sql import refs as Rf  # noqa: E402
from ddlc.frontend.sql.lexer import BLANK  # noqa: E402
from ddlc.frontend.sql.pgparse import parse_statements, pglast_ast  # noqa: E402
from ddlc.frontend.sql.pgwords import requote, to_source  # noqa: E402
from ddlc.ir.names import NameRef, RefKind  # noqa: E402
from ddlc.ir.sqltree import visit  # noqa: E402

_split_regclass, _ident_end, _literal_after_paren = Rf.split_regclass, Rf._ident_end, Rf._literal_after_paren
_CONSTRAINT = Rf._CONSTRAINT


def _former_parse(body: str) -> Any:
    attempts: list[str] = []
    if Rf._QUERY_START.match(body):
        attempts.append("")
    attempts += ["SELECT ", _CONSTRAINT]
    for prefix in attempts:
        stmts = parse_statements(prefix + body)
        if stmts is not None:
            return prefix, stmts
    return None


def _former_name_refs(text: str) -> tuple[NameRef, ...] | None:
    """The object references in ``text`` (positions in ``text``), or None when it does not parse."""
    body = text.strip(BLANK)
    if body.endswith(";"):
        body = body[:-1]
    parsed = _former_parse(body)
    if parsed is None:
        return None
    prefix, stmts = parsed
    ast = pglast_ast()

    lead = len(text) - len(text.lstrip(BLANK))
    marks = requote(prefix + body)[1]  # names quoted for PostgreSQL's grammar shift pglast's locations

    def at(location: int) -> int:  # pglast's locations count characters of prefix + body (requoted)
        return lead + (to_source(marks, location) if marks else location) - len(prefix)

    refs: list[NameRef] = []
    dummy = stmts[0].stmt.relation if prefix == _CONSTRAINT else None
    ctes: set[str] = set()

    def schema_ref(kind: RefKind, schema: str | None, name: str, location: int) -> None:
        start = at(location)
        end = _ident_end(text, start) if schema is not None else start
        refs.append(NameRef(kind, schema, name, start, end))

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
                qual = _split_regclass(const.val.sval)
                if qual is not None:
                    span = _literal_after_paren(text, at(node.location)) if node.location >= 0 else None
                    start, end = span if span is not None else (-1, -1)
                    refs.append(NameRef(RefKind.REGCLASS, qual[0], qual[1], start, end, const.val.sval))

    def type_name(node: Any) -> None:
        names = [n.sval for n in node.names]
        if len(names) == 2 and names[0] != "pg_catalog" and node.location >= 0:
            schema_ref(RefKind.TYPE, names[0], names[1], node.location)

    # one walk: the CTE names are all known before any relation is judged (the handlers run in walk order
    # once the walk is done, as a second walk would call them)
    found: list[tuple[Callable[[Any], None], Any]] = []
    handlers = {ast.RangeVar: range_var, ast.FuncCall: func_call, ast.TypeName: type_name}

    def cte(node: Any) -> None:
        ctes.add(node.ctename)

    visit(stmts, {ast.CommonTableExpr: cte,
                  **{cls: (lambda node, fn=fn: found.append((fn, node))) for cls, fn in handlers.items()}})
    for fn, node in found:
        fn(node)
    return tuple(refs)



_CHECK_EXPR = st.sampled_from([
    "a > 0", "s.f(a) > 0", "f(a::s.t) IS NOT NULL", "nextval('s.q'::regclass) > 0", "nextval('q') > 1",
    "currval('\"S\".\"Q\"'::regclass) > 0", "(a)::pg_catalog.int4 > 0", "a = ANY (ARRAY[1, 2])",
    "EXISTS (SELECT 1 FROM s.t)", "a IN (WITH w AS (SELECT 1) SELECT * FROM w, t)", "x.y.z(a) > 0",
    "setval(('s.q'::text)::regclass, 1) > 0", "a::s.t::u.v IS NULL", "CAST(a AS s.t) > 0",
])
_CONSTRAINT_TEXT = st.one_of(
    _DEF,
    st.builds(lambda e, t: f"CHECK ({e}){t}", _CHECK_EXPR, _TAIL),
    st.builds(lambda e, f: f"CHECK (({e}) AND ({f}))", _CHECK_EXPR, _CHECK_EXPR),
    st.builds(lambda s, o: f"FOREIGN KEY (a) REFERENCES {s}(b){o}", st.sampled_from(["t", "s.t", "x", '"S"."T"']),
              st.sampled_from(["", " WITH (a=s.foo)", " ON DELETE CASCADE"])),
    st.builds(lambda w: f"EXCLUDE USING gist (c WITH &&) WHERE ({w})", _CHECK_EXPR),
)


@pytest.mark.parametrize("text", TEXTS)
def test_constraint_reading_refs_from_json_equal_nodes(text: str) -> None:
    assert Rf.name_refs.__wrapped__(text) == _former_name_refs(text)


@settings(max_examples=500, deadline=None)
@given(_PREFIX, _CONSTRAINT_TEXT, st.sampled_from(["", ";", " ", "\n"]))
def test_constraint_reading_refs_from_json_equal_nodes_generated(prefix: str, body: str, tail: str) -> None:
    text = prefix + body + tail
    assert Rf.name_refs.__wrapped__(text) == _former_name_refs(text)


# -- identities of bare names read without the lexer ------------------------------------------------------------

from ddlc.frontend.sql import identity as Id  # noqa: E402
from ddlc.ir.drop import IdentityKind  # noqa: E402

_ID_PIECES = st.sampled_from(["a", "B", "_x", "a1", "1", "$", "a$b", ".", "..", " ", '"', '"Q"', "é", "on", "(", ")",
                              "-", "e", "x", "'", "\t"])


def _former_identity(kind: IdentityKind, text: str) -> Any:
    saved = Id._PARTS
    Id._PARTS = {}
    try:
        return Id.parse_identity(kind, text, ("i",))
    finally:
        Id._PARTS = saved


@settings(max_examples=2000, deadline=None)
@given(st.sampled_from(list(IdentityKind)), st.lists(_ID_PIECES, max_size=8).map("".join))
def test_identity_without_lexer_equals_cursor(kind: IdentityKind, text: str) -> None:
    assert Id.parse_identity(kind, text, ("i",)) == _former_identity(kind, text)


@pytest.mark.parametrize("kind", list(IdentityKind))
def test_identity_without_lexer_equals_cursor_fixtures(kind: IdentityKind) -> None:
    for text in _texts(("identity", "objidentity", "object_identity", "objname", "name")):
        assert Id.parse_identity(kind, text, ("i",)) == _former_identity(kind, text), text


# Non-ASCII text before a reference (review of 22ac996): the JSON form's locations count UTF-8 bytes, the nodes'
# characters; a name found in bytes after "é" was rewritten in the wrong place (a quote of the text could be cut).
_WIDE = st.sampled_from(["é", "ü", "客户编号", "ñ", "\u00a0x", "😀"])
_WIDE_TEXT = st.one_of(
    st.builds(lambda w, e: f"CHECK ((note <> '{w}'::text) AND ({e}))", _WIDE, _CHECK_EXPR),
    st.builds(lambda w, s: f'FOREIGN KEY ("{w}") REFERENCES {s}(b)', _WIDE, st.sampled_from(["t", "s.t", '"S"."T"'])),
    st.builds(lambda w, e: f'CHECK (("{w}" > 0) AND ({e}))', _WIDE, _CHECK_EXPR),
)


@settings(max_examples=300, deadline=None)
@given(_WIDE_TEXT)
def test_constraint_refs_after_non_ascii_text_equal_nodes(text: str) -> None:
    refs = Rf.name_refs.__wrapped__(text)
    assert refs == _former_name_refs(text)
    for ref in refs or ():
        if ref.schema is not None and ref.kind is not RefKind.REGCLASS:  # the schema is written where it was found
            assert text[ref.start:ref.end].strip('"').lower() == ref.schema.lower(), (text, ref)


def test_non_ascii_constraint_rewritten_in_place() -> None:
    import ddlc

    doc = json.loads((Path(__file__).parent.parent / "fixtures/cases/create_table/plain-a-mode/input.json").read_text())
    doc["table_elements"]["elements"] += [
        {"fmt": "CONSTRAINT %{name}I %{definition}s", "name": "fk2", "type": "constraint", "contype": "foreign key",
         "definition": 'FOREIGN KEY ("客户编号") REFERENCES sales.customers(id)'},
        {"fmt": "CONSTRAINT %{name}I %{definition}s", "name": "ck2", "type": "constraint", "contype": "check",
         "definition": "CHECK ((note <> 'éééééé'::text AND s.f('x') > 0))"},
    ]
    for target in ("gaussdb", "postgres"):
        [t] = ddlc.translate_many([json.dumps(doc)], target, schema_map={"sales": "s2", "s": "t"})
        assert "REFERENCES s2.customers(id)" in t.sql, t.sql
        assert "t.f('x') > 0" in t.sql, t.sql
