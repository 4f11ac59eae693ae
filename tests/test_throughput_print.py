"""Issue 26: ``backends.writer.pg_deparse`` prints with ``backends.pgprint.FastRawStream`` (pglast's RawStream
with less work per node) for the pglast release it was compared with. The texts must be pglast's own, byte for
byte: every tree pg_deparse is handed while the fixtures translate, every statement and every node of every
SQL text ddlc parses in the fixtures (and the fixtures' SQL files), and generated SELECTs (hypothesis), printed
by pglast's entry point (``RawStream.__call__``, its own ancestor chains, ddlc's literal rule) and by
pg_deparse: the same text, or the same error. Also the walks around the printer: ``ir.sqltree``'s ancestor
chains (pglast's), ``replaced`` with ``kinds`` (= without), and the text tests that let the PostgreSQL view
emitter and its W670 rule skip a walk (they never hide what the walk would find).

(Checked once by hand beyond the fixtures, not kept here: the 41,268 statements of PostgreSQL's regression
SQL files in libpg_query and pglast's own printer test files, every node of each printed both ways: equal.)"""

from __future__ import annotations

import collections
import sys
from pathlib import Path

import pglast
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ddlc
from ddlc.backends import pgprint, writer
from ddlc.ir.sqltree import nodes

ROOT = Path(__file__).resolve().parents[1]


def _reference(tree) -> str:
    return writer._streams()[0]()(tree)


def _outcome(fn, tree):
    try:
        return "text", fn(tree)
    except Exception as exc:  # noqa: BLE001 (the same error is part of the same answer)
        return "error", type(exc).__name__, str(exc)


def _same(tree) -> None:
    assert _outcome(writer.pg_deparse, tree) == _outcome(_reference, tree), tree


@pytest.fixture(scope="module", autouse=True)
def _fast() -> None:
    if not pgprint.supported():
        pytest.skip(f"pglast {pglast.__version__} is not a release the fast stream was compared with")
    assert writer._streams()[1].__mro__[1] is pgprint.FastRawStream


def _translated_trees() -> list:
    """Every tree pg_deparse is handed while the fixtures translate to every target."""
    seen: list = []
    real = writer.pg_deparse

    def record(node):
        seen.append(node)
        return real(node)

    from ddlc.backends.gaussdb import misc as gauss_misc  # noqa: F401 (imported so that it is found below)
    from ddlc.backends.postgres import exprs, misc, objects_more  # noqa: F401

    docs = [p.read_bytes() for p in sorted(ROOT.glob("fixtures/cases/**/input.json"))]
    docs += [p.read_bytes() for p in sorted(ROOT.glob("fixtures/oracle/*.json"))]
    # every module holding pg_deparse by name (found, not listed: a module that starts to import it is not missed)
    holders = [m for name, m in list(sys.modules.items())
               if name.startswith("ddlc.") and getattr(m, "pg_deparse", None) is real]
    typed_real = objects_more.pg_deparse_typed

    def record_typed(tree, types, rebuilt):  # a view query with mapped types: the tree it stands for
        copy = rebuilt()
        seen.append(copy)
        return typed_real(tree, types, lambda: copy)

    for h in holders:
        h.pg_deparse = record
    objects_more.pg_deparse_typed = record_typed
    try:
        for target in ("postgres", "gaussdb", "spark"):
            collections.deque(ddlc.translate_many(docs, target=target), maxlen=0)
    finally:
        for h in holders:
            h.pg_deparse = real
        objects_more.pg_deparse_typed = typed_real
    return seen


def test_every_tree_the_fixtures_print() -> None:
    trees = _translated_trees()
    assert len(trees) >= 5  # (most fixture texts are written as they came: test_every_node_of_every_parsed_text)
    for tree in trees:
        assert writer.pg_deparse(tree) == _reference(tree)


def _parsed_texts() -> list:
    """Every SQL text ddlc parses while translating the fixtures (views, CTAS and SELECT INTO queries,
    expressions, routine bodies, TDDL texts...), and the fixtures' SQL files, parsed by pglast."""
    from test_pgparse_trusted import _texts  # (the same collection: every text ddlc hands to pglast)

    texts = _texts()
    out = []
    for t in sorted(texts):
        try:
            out.append((t, pglast.parse_sql(t)))
        except pglast.parser.ParseError:
            continue
    return out


_PARSED: list = []


def _parsed() -> list:
    """(text, statements) of :func:`_parsed_texts`, made once for the module (the trees are only printed and
    given ancestors: the same whatever test runs first)."""
    if not _PARSED:
        _PARSED.extend(_parsed_texts())
    return _PARSED


def test_every_node_of_every_parsed_text() -> None:
    """Each statement whole, the statements together, and every node of them printed on its own (the printers
    of every node class in every place the fixtures use it; a node alone may not print: the same error)."""
    n = 0
    for _, stmts in _parsed():
        _same(stmts)
        for raw in stmts:
            for node in nodes(raw.stmt):
                _same(node)
                n += 1
    assert n > 5000


# ---- generated SELECTs -----------------------------------------------------------------------------------
_NAMES = st.sampled_from(["a", "b", "t", "Mixed", "select", "user", "order", "x y", 'q"t', "é", "left", "value",
                          "int", "_x1", "c0"])


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


_COLUMN = st.builds(lambda parts: ".".join(_ident(p) for p in parts), st.lists(_NAMES, min_size=1, max_size=3))
_LITERAL = st.one_of(
    st.integers(-10**12, 10**12).map(str),
    st.sampled_from(["1.5", "0.0", "1e10", "-0.25", "NULL", "TRUE", "false", "DEFAULT"]),
    st.text(alphabet="ab' \\%_\n", max_size=6).map(lambda s: "'" + s.replace("'", "''") + "'"),
    st.text(alphabet="ab' \\", max_size=4).map(lambda s: "E'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"),
)
_TYPES = st.sampled_from(["int", "integer", "numeric(10, 2)", "varchar(3)", "text", "timestamp(0)", "char",
                          '"char"', "bpchar", "char(1)", "bool", "interval", "interval day to second",
                          "int[]", "s.my_type", "double precision", "timestamptz", "bit varying(3)", "date"])
_BINARY = st.sampled_from(["+", "-", "*", "/", "%", "^", "<", ">", "=", "<=", ">=", "<>", "||", "AND", "OR",
                           "LIKE", "NOT LIKE", "ILIKE", "IS DISTINCT FROM", "IS NOT DISTINCT FROM", "@>", "~",
                           "OPERATOR(pg_catalog.+)", "COLLATE"])
_FUNCS = st.sampled_from(["f", "coalesce", "nullif", "greatest", "lower", "pg_catalog.substring", "s.g", "count",
                          "extract", "overlay", "trim", "position", "now", "max", "sum", "timezone", "row"])


def _expr(depth: int):
    leaf = st.one_of(_COLUMN, _LITERAL)
    if depth == 0:
        return leaf
    sub = st.deferred(lambda: _expr(depth - 1))

    def binary(a, op, b):
        if op == "COLLATE":
            return f"({a}) COLLATE \"C\""
        return f"({a}) {op} ({b})" if depth % 2 else f"{a} {op} {b}"

    return st.one_of(
        leaf,
        st.builds(binary, sub, _BINARY, sub),
        st.builds(lambda a: f"NOT {a}", sub),
        st.builds(lambda a: f"- {a}", sub),
        st.builds(lambda a, n: f"{a} IS {n}NULL", sub, st.sampled_from(["", "NOT "])),
        st.builds(lambda a, b, c: f"{a} BETWEEN {b} AND {c}", sub, sub, sub),
        st.builds(lambda a, xs: f"{a} IN ({', '.join(xs)})", sub, st.lists(sub, min_size=1, max_size=3)),
        st.builds(lambda a, t: f"CAST({a} AS {t})", sub, _TYPES),
        st.builds(lambda a, t: f"({a})::{t}", sub, _TYPES),
        st.builds(lambda f, xs, d: f"{f}({'DISTINCT ' if d and xs else ''}{', '.join(xs)})", _FUNCS,
                  st.lists(sub, max_size=3), st.booleans()),
        st.builds(lambda a, b, c: f"CASE WHEN {a} THEN {b} ELSE {c} END", sub, sub, sub),
        st.builds(lambda a, b, c: f"CASE {a} WHEN {b} THEN {c} END", sub, sub, sub),
        st.builds(lambda a: f"EXISTS (SELECT {a})", sub),
        st.builds(lambda a, b: f"{a} = ANY (SELECT {b})", sub, sub),
        st.builds(lambda a: f"(SELECT {a})", sub),
        st.builds(lambda a: f"ARRAY[{a}, 1]", sub),
        st.builds(lambda a: f"{a} AT TIME ZONE 'UTC'", sub),
        st.builds(lambda a, b: f"ROW({a}, {b})", sub, sub),
    )


_EXPR = _expr(3)


@st.composite
def _select(draw, depth: int = 1) -> str:
    items = draw(st.lists(st.builds(lambda e, a: e + (f" AS {_ident(a)}" if a else ""), _EXPR,
                                    st.one_of(st.none(), _NAMES)), min_size=1, max_size=4))
    sql = "SELECT " + ("DISTINCT " if draw(st.booleans()) else "") + ", ".join(items)
    if draw(st.booleans()):
        source = draw(st.one_of(
            _COLUMN,
            st.builds(lambda a, b, j, c: f"{a} {j} JOIN {b} ON {c}", _COLUMN, _COLUMN,
                      st.sampled_from(["", "LEFT", "FULL OUTER", "INNER"]), _EXPR),
            st.builds(lambda q: f"({q}) AS sub", _select(0)) if depth else _COLUMN,
            st.just("(VALUES (1, 'a'), (2, 'b')) AS v(x, y)"),
            st.just("generate_series(1, 3) AS g"),
        ))
        sql += " FROM " + source
    if draw(st.booleans()):
        sql += " WHERE " + draw(_EXPR)
    if draw(st.booleans()):
        sql += " GROUP BY " + draw(_EXPR) + (" HAVING " + draw(_EXPR) if draw(st.booleans()) else "")
    if draw(st.booleans()):
        sql += " ORDER BY " + draw(_EXPR) + draw(st.sampled_from(["", " DESC", " ASC NULLS FIRST"]))
    if draw(st.booleans()):
        sql += f" LIMIT {draw(st.integers(0, 99))} OFFSET {draw(st.integers(0, 9))}"
    if depth and draw(st.booleans()):
        sql = draw(st.builds(lambda q, op: f"{sql} {op} {q}", _select(0),
                             st.sampled_from(["UNION", "UNION ALL", "EXCEPT", "INTERSECT"])))
    if depth and draw(st.booleans()):
        sql = f"WITH c AS ({draw(_select(0))}) " + sql
    return sql


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_select())
def test_generated_selects(sql: str) -> None:
    try:
        stmts = pglast.parse_sql(sql)
    except pglast.parser.ParseError:
        return
    _same(stmts)
    _same(stmts[0].stmt)


def test_other_releases_print_with_pglasts_stream(monkeypatch) -> None:
    """A pglast release the fast stream was not compared with prints with pglast's RawStream (ddlc's literal
    rule only)."""
    monkeypatch.setattr(pgprint, "CHECKED_RELEASES", ("0.0",))
    monkeypatch.setattr(writer, "_STREAM", None)
    monkeypatch.setattr(writer, "_FAST_STREAM", None)
    assert not pgprint.supported()
    ref, used = writer._streams()
    assert used is ref and not issubclass(used, pgprint.FastRawStream)
    tree = pglast.parse_sql("SELECT 'a\\b', (0)::numeric AS \"Z\"")[0].stmt
    assert writer.pg_deparse(tree) == "SELECT E'a\\\\b', CAST(0 AS numeric) AS \"Z\""
    monkeypatch.undo()
    assert writer.pg_deparse(tree) == "SELECT E'a\\\\b', CAST(0 AS numeric) AS \"Z\""


def test_literal_rule_and_quoting() -> None:
    tree = pglast.parse_sql("SELECT 'it''s', 'a\\b', \"Order\".\"select\", x::varchar(3) FROM \"Order\"")[0].stmt
    assert writer.pg_deparse(tree) == ("SELECT 'it''s', E'a\\\\b', \"Order\".\"select\", CAST(x AS varchar(3)) "
                                       'FROM "Order"')


# ---- the walks around the printer -----------------------------------------------------------------------
from test_sqltree_replaced import _chain  # noqa: E402 - an ancestor chain as (node id, member) pairs


def _same_ancestors(tree) -> None:
    from pglast.visitors import populate_ancestors as theirs

    from ddlc.ir.sqltree import populate_ancestors as ours

    ours(tree)
    mine = [(id(n), _chain(n.ancestors)) for n in nodes(tree)]
    theirs(tree)
    assert mine == [(id(n), _chain(n.ancestors)) for n in nodes(tree)]


def test_ancestors_of_every_parsed_text() -> None:
    """ddlc's populate_ancestors (only the slots that can hold a node) makes pglast's chains."""
    for _, stmts in _parsed():
        _same_ancestors(stmts)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_select())
def test_ancestors_of_generated_selects(sql: str) -> None:
    try:
        stmts = pglast.parse_sql(sql)
    except pglast.parser.ParseError:
        return
    _same_ancestors(stmts)


def test_replaced_with_kinds_is_replaced() -> None:
    """replaced(tree, fn, kinds) = replaced(tree, fn) when fn returns its node for every other class."""
    from pglast import ast

    from ddlc.ir.sqltree import replaced

    def wrap(original, node):  # every ColumnRef and TypeName cast to text, in a copy
        if type(original) in (ast.ColumnRef, ast.TypeName):
            return ast.TypeCast(arg=node, typeName=ast.TypeName(names=(ast.String(sval="text"),)))
        return node

    n = 0
    for _, stmts in _parsed():
        calls: list = []

        def seen(original, node):
            calls.append(original)
            return wrap(original, node)

        plain = replaced(stmts, seen)
        kinds = (ast.ColumnRef, ast.TypeName)
        only = [c for c in calls if type(c) in kinds]
        calls.clear()
        fast = replaced(stmts, seen, kinds)
        assert calls == only
        assert _outcome(_reference, plain) == _outcome(_reference, fast)
        n += bool(only)
    assert n > 50


_MAPPED = ["int1", "tinyint", "int16", "binary_double", "number", "varchar2", "nvarchar2", "nvarchar", "nchar",
           "clob", "blob", "raw", "smalldatetime", "hash16", "hash32", "byteawithoutordercol"]
_OTHER_TYPES = ["int4", "integer", "numeric", "nchar(2)", "national character varying(3)", "bpchar", "varchar",
                "float8", "double precision", "text", "timestamp(0)", "bit varying", "x.int1", "int1x", "clobber"]


def _unicode_escaped(name: str) -> str:
    return 'U&"' + "".join(f"\\{ord(c):04x}" for c in name) + '"'


_TYPE_SPELLING = st.one_of(
    st.sampled_from(_OTHER_TYPES),
    st.builds(lambda n, upper, quoted, schema: (schema + (f'"{n}"' if quoted else (n.upper() if upper else n))),
              st.sampled_from(_MAPPED), st.booleans(), st.booleans(),
              st.sampled_from(["", "pg_catalog.", "s.", '"pg_catalog".'])),
    st.builds(_unicode_escaped, st.sampled_from(_MAPPED + ["int4"])),
)


@settings(max_examples=600, deadline=None)
@given(st.lists(_TYPE_SPELLING, min_size=1, max_size=3), st.sampled_from(["CAST(a AS {})", "a::{}", "a::{}[]",
                                                                            "'1'::{}(2)", "CAST(NULL AS {}) + 1"]))
def test_a_mapped_type_is_always_seen_in_the_text(spellings, form) -> None:
    """objects_more._may_map_types: when it says no, the view query's tree has no type the view maps."""
    from pglast import ast

    from ddlc.backends.postgres.objects_more import _mapped_type, _may_map_types

    sql = "SELECT " + ", ".join(form.format(s) for s in spellings) + " FROM t"
    try:
        tree = pglast.parse_sql(sql)
    except pglast.parser.ParseError:
        return
    mapped = [n for n in nodes(tree) if type(n) is ast.TypeName and _mapped_type(n) is not None]
    assert not mapped or _may_map_types(sql), sql


def test_a_mapped_type_is_always_seen_in_the_fixture_texts() -> None:
    from pglast import ast

    from ddlc.backends.postgres.objects_more import _mapped_type, _may_map_types

    n = 0
    for text, stmts in _parsed():
        if any(type(x) is ast.TypeName and _mapped_type(x) is not None for x in nodes(stmts)):
            assert _may_map_types(text), text
            n += 1
    assert n >= 1


_GAUSS_ONLY_WORDS = ["rownum", "ROWNUM", "RowNum", '"rownum"', '"ROWNUM"', "partition", "PARTITION", '"Partition"',
                     "subpartition", "SUBPARTITION", "rownum2", "part", "x"]


def _spelled(word: str, escaped: bool) -> str:
    return _unicode_escaped(word.strip('"')) if escaped else word


@settings(max_examples=600, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_GAUSS_ONLY_WORDS), st.booleans()), min_size=1, max_size=3),
       st.sampled_from(["SELECT {0} FROM t", "SELECT a FROM t {0} (p)", "SELECT a FROM t AS {0} (p, q) WHERE {1} > 1",
                        "SELECT t.{0} FROM t {1}", "SELECT 1 FROM t WHERE {0} = {1}"]))
def test_gauss_only_prefilter(words, form) -> None:
    """objects_more._gauss_only answers the same with its text test as without it (ROWNUM and PARTITION aliases
    in every case, quoted or not, Unicode-escaped)."""
    from types import SimpleNamespace

    from ddlc.backends.postgres import objects_more
    from ddlc.frontend.sql.expr import make_query

    spelled = [_spelled(w, e) for w, e in words] + ["b", "c"]
    sql = form.format(*spelled)
    try:
        view = SimpleNamespace(query=make_query(sql))
    except Exception:  # noqa: BLE001 (not a fragment ddlc takes)
        return
    fast = objects_more._gauss_only(view)
    real = objects_more._may_use_gauss_only
    objects_more._may_use_gauss_only = lambda text: True
    try:
        assert fast == objects_more._gauss_only(view), sql
    finally:
        objects_more._may_use_gauss_only = real


def test_a_name_ending_in_a_line_break_is_quoted() -> None:
    """pglast's simple-name pattern ends in ``$`` (matches before a final ``\\n``): it wrote ``"abc\\n"`` bare,
    another name. ddlc's printer quotes it (pglast 8.8's path; the review of round 4)."""
    from ddlc.backends.writer import pg_deparse
    from ddlc.frontend.sql.pgparse import parse_sql

    tree = parse_sql('SELECT "abc\n" FROM "t\n" AS "x\n"')[0].stmt
    assert pg_deparse(tree) == 'SELECT "abc\n" FROM "t\n" AS "x\n"'
