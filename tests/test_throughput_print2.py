"""Issue 26: ``backends.pgdirect`` prints the nodes it covers directly (one function per class, no ancestor chains,
no stream object), and ``writer.pg_deparse`` prints anything else with ``pgprint.FastRawStream``. Its texts must be
pglast's own, byte for byte: every tree the fixtures print, every statement and every node of every SQL text ddlc
parses in the fixtures, generated SELECTs, and trees with hostile names and string constants (quotes,
backslashes, keywords, Unicode, line breaks, NUL), each printed directly and by ``FastRawStream`` (itself
compared with pglast's ``RawStream`` in test_throughput_print): the same text, or (where the direct printer gives
none) the same answer from ``pg_deparse``. Also the view emitter's mapped types printed through a map (``writer.pg_deparse_typed``) against
the copied tree printed, and the conditions under which the direct printer is used."""

from __future__ import annotations

import pglast
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pglast import ast

from ddlc.backends import pgdirect, pgprint, writer
from ddlc.ir.sqltree import nodes

import test_throughput_print as base  # (its collections and generated SELECTs)


@pytest.fixture(scope="module", autouse=True)
def _direct() -> None:
    if not pgprint.supported():
        pytest.skip(f"pglast {pglast.__version__} is not a release the direct printer was compared with")
    assert writer._streams()[1].direct is pgdirect.deparse and pgdirect.ready()


def _direct_text(tree):
    try:
        return pgdirect.deparse(tree, writer.pg_literal)
    except Exception:  # noqa: BLE001 (not covered: pg_deparse prints with pglast's printers)
        return None


def _same(tree) -> bool:
    """The direct text (when there is one) is FastRawStream's; pg_deparse answers as FastRawStream does (which
    is pglast's RawStream but for a name ending in a line break, quoted: test_throughput_print). Whether the
    direct printer printed it."""
    reference = base._outcome(writer._stream_deparse, tree)
    assert base._outcome(writer.pg_deparse, tree) == reference, tree
    text = _direct_text(tree)
    if text is not None:
        assert ("text", text) == reference, tree
    return text is not None


def test_every_tree_the_fixtures_print() -> None:
    """Every tree handed to pg_deparse, and every view query printed with its types mapped through a map
    (pg_deparse_typed: the direct text against the copied tree's), while the fixtures translate."""
    from ddlc.backends.postgres import objects_more

    typed: list = []
    real = objects_more.pg_deparse_typed

    def record(tree, types, rebuilt):
        typed.append((tree, types, rebuilt()))
        return real(tree, types, rebuilt)

    objects_more.pg_deparse_typed = record
    try:
        trees = base._translated_trees()
    finally:
        objects_more.pg_deparse_typed = real
    assert trees and all(_same(t) for t in trees)  # (all of them printed directly)
    assert typed
    for tree, types, copy in typed:
        assert pgdirect.deparse(tree, writer.pg_literal, types) == writer._stream_deparse(copy)
        assert writer.pg_deparse_typed(tree, types, lambda: copy) == writer._stream_deparse(copy)


def test_every_node_of_every_parsed_text() -> None:
    direct = total = 0
    for _, stmts in base._parsed():
        _same(stmts)
        for raw in stmts:
            for node in nodes(raw.stmt):
                direct += _same(node)
                total += 1
    assert total > 5000 and direct > 3000


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base._select())
def test_generated_selects(sql: str) -> None:
    try:
        stmts = pglast.parse_sql(sql)
    except pglast.parser.ParseError:
        return
    _same(stmts[0].stmt)
    for node in nodes(stmts[0].stmt):
        _same(node)


# ---- hostile names and string constants -----------------------------------------------------------------
_WORDS = ["select", "user", "order", "from", "left", "int", "value", "char", "coalesce", "substring", "all", "null",
          "true", "asc", "Abc", "a b", 'q"t', "x'y", "a\\b", "é", "客", "abc\n", "\n", "a\r", "tab\t", "$1", "_x", "1a",
          "a.b", "*", "--", "/*", "É", "ǅ", "\u00a0", "\u2028", "ß"]
_HOSTILE = st.one_of(st.sampled_from(_WORDS), st.text(min_size=1, max_size=6),
                     st.text(alphabet="aZ_\"'\\\n .é$0", min_size=1, max_size=6))


def _s(value: str) -> ast.String:
    return ast.String(sval=value)


def _column(parts: list[str]) -> ast.ColumnRef:
    return ast.ColumnRef(fields=tuple(_s(p) for p in parts))


def _const(value: str) -> ast.A_Const:
    return ast.A_Const(isnull=False, val=_s(value))


@st.composite
def _hostile_select(draw) -> ast.SelectStmt:
    name = lambda: draw(_HOSTILE)  # noqa: E731
    items = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.integers(0, 4))
        if kind == 0:
            val = _column([name() for _ in range(draw(st.integers(1, 3)))])
        elif kind == 1:
            val = _const(name())
        elif kind == 2:
            val = ast.FuncCall(funcname=(_s(name()),), args=(_const(name()), _column([name()])))
        elif kind == 3:
            val = ast.TypeCast(arg=_const(name()), typeName=ast.TypeName(names=(_s(name()), _s(name()))))
        else:
            val = ast.A_Expr(kind=pglast.enums.A_Expr_Kind.AEXPR_OP, name=(_s(draw(st.sampled_from(["=", "||", "<"]))),),
                             lexpr=_column([name()]), rexpr=_const(name()))
        items.append(ast.ResTarget(val=val, name=name() if draw(st.booleans()) else None))
    rel = ast.RangeVar(relname=name(), schemaname=name() if draw(st.booleans()) else None, inh=True,
                       alias=ast.Alias(aliasname=name(), colnames=(_s(name()),)) if draw(st.booleans()) else None)
    return ast.SelectStmt(targetList=tuple(items), fromClause=(rel,), op=pglast.enums.SetOperation.SETOP_NONE,
                          limitOption=pglast.enums.LimitOption.LIMIT_OPTION_DEFAULT)


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_hostile_select())
def test_hostile_names_and_literals(tree) -> None:
    """Names through pgprint.quote_name, literals through pg_literal (NUL: the same DDLC-E007 error), keywords
    quoted, a name ending in a line break quoted: the direct printer's text is pglast's."""
    _same(tree)


@settings(max_examples=400, deadline=None)
@given(st.lists(_HOSTILE, min_size=1, max_size=3), _HOSTILE)
def test_hostile_names_parsed(names, literal) -> None:
    """The same through PostgreSQL's grammar: quoted identifiers and E'' strings as a user writes them."""
    def ident(n: str) -> str:
        return '"' + n.replace('"', '""') + '"'

    def lit(v: str) -> str:
        return "E'" + v.replace("\\", "\\\\").replace("'", "\\'") + "'"

    sql = (f"SELECT {'.'.join(map(ident, names))} AS {ident(names[0])}, {lit(literal)}::{ident(names[-1])}, "
           f"{ident(names[0])}({lit(literal)}) FROM {ident(names[-1])} WHERE {ident(names[0])} LIKE {lit(literal)}")
    try:
        stmts = pglast.parse_sql(sql)
    except pglast.parser.ParseError:
        return
    assert _same(stmts[0].stmt) or "\x00" in literal or any("\x00" in n for n in names)


def test_hostile_examples_print_directly() -> None:
    tree = pglast.parse_sql("SELECT \"select\".\"a\"\"b\", E'it''s \\\\ ok', \"abc\n\" FROM \"Order\" AS \"user\"")
    stmt = tree[0].stmt
    assert _same(stmt)
    assert pgdirect.deparse(stmt, writer.pg_literal) == (
        'SELECT "select"."a""b", E\'it\'\'s \\\\ ok\', "abc\n" FROM "Order" AS "user"')


# ---- the view emitter's mapped types --------------------------------------------------------------------
def _typed_same(tree) -> None:
    from ddlc.backends.postgres.objects_more import _mapped_type
    from ddlc.backends.postgres.types import type_node
    from ddlc.ir.sqltree import built_trusted, copied_with, replaced

    def mapped(original, node):
        entry = _mapped_type(original) if type(original) is ast.TypeName else None
        if entry is None:
            return node
        spelling, keep = entry
        new = built_trusted(type_node, spelling)
        return copied_with(node, {slot: getattr(new, slot) for slot in type(new).__slots__
                                  if slot not in ("arrayBounds", "location") and not (slot == "typmods" and keep)})

    found = [n for n in nodes(tree) if type(n) is ast.TypeName and _mapped_type(n) is not None]
    types = {id(n): mapped(n, n) for n in found}
    copy = replaced(tree, mapped, (ast.TypeName,))
    expected = base._outcome(writer._stream_deparse, copy)
    assert base._outcome(lambda t: writer.pg_deparse_typed(t, types, lambda: copy), tree) == expected
    if found:
        assert base._outcome(lambda t: pgdirect.deparse(t, writer.pg_literal, types), tree) == expected


@settings(max_examples=400, deadline=None)
@given(st.lists(base._TYPE_SPELLING, min_size=1, max_size=3),
       st.sampled_from(["CAST(a AS {})", "a::{}", "a::{}[]", "'1'::{}(2)", "CAST(NULL AS {}) + 1",
                        "CAST(a AS numeric(CAST(1 AS {})))", "(SELECT x::{} FROM t)"]))
def test_mapped_types_through_the_map(spellings, form) -> None:
    sql = "SELECT " + ", ".join(form.format(s) for s in spellings) + " FROM t"
    try:
        tree = pglast.parse_sql(sql)[0].stmt
    except pglast.parser.ParseError:
        return
    _typed_same(tree)


def test_mapped_types_of_the_parsed_texts() -> None:
    for _, stmts in base._parsed():
        for raw in stmts:
            if isinstance(raw.stmt, ast.SelectStmt):
                _typed_same(raw.stmt)


# ---- when the direct printer is used ----------------------------------------------------------------------
def test_uncovered_nodes_fall_back() -> None:
    stmt = pglast.parse_sql("SELECT (a).b, x FROM t FOR UPDATE")[0].stmt
    with pytest.raises(Exception):
        pgdirect.deparse(stmt, writer.pg_literal)
    assert writer.pg_deparse(stmt) == writer._stream_deparse(stmt)
    call = pglast.parse_sql("SELECT extract(year FROM d)")[0].stmt  # (pglast's special printer)
    assert _direct_text(call) is None and _same(call) is False


def test_other_releases_print_without_it(monkeypatch) -> None:
    monkeypatch.setattr(pgprint, "CHECKED_RELEASES", ("0.0",))
    monkeypatch.setattr(writer, "_STREAM", None)
    monkeypatch.setattr(writer, "_FAST_STREAM", None)
    assert writer._streams()[1].direct is False
    tree = pglast.parse_sql("SELECT 'a\\b', x")[0].stmt
    assert writer.pg_deparse(tree) == "SELECT E'a\\\\b', x"
    monkeypatch.undo()
    assert writer._streams()[1].direct is pgdirect.deparse


def test_a_changed_registry_turns_it_off(monkeypatch) -> None:
    from pglast.printers import NODE_PRINTERS

    assert pgdirect.ready()
    monkeypatch.setitem(NODE_PRINTERS, ast.ColumnRef, lambda node, output: output.write("?"))
    assert not pgdirect.ready()
    monkeypatch.undo()
    monkeypatch.setitem(NODE_PRINTERS, (ast.SelectStmt, ast.ColumnRef), lambda node, output: output.write("?"))
    assert not pgdirect.ready()


# ---- the forms the generated SELECTs do not make ------------------------------------------------------------
_FORMS = [
    "SELECT a FROM t NATURAL JOIN u", "SELECT a FROM t JOIN u USING (x, \"Y\") AS j", "SELECT a FROM t CROSS JOIN u",
    "SELECT a FROM (t JOIN u ON t.x = u.x) AS j (p, q)", "SELECT a FROM t LEFT JOIN (u RIGHT JOIN v ON true) ON t.x = u.x",
    "SELECT a FROM t FULL JOIN u AS w ON t.x = w.x JOIN v ON v.y = t.y", "SELECT * FROM t, LATERAL (SELECT t.a) AS s",
    "SELECT * FROM ROWS FROM (f(1), g(2)) WITH ORDINALITY AS r (a, b)", "SELECT * FROM generate_series(1, 3) AS g",
    "SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS v (x, y)", "VALUES (1), (2)", "SELECT * FROM ONLY t",
    "SELECT * FROM c.s.t AS \"x y\"", "WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n FROM r",
    "WITH m AS MATERIALIZED (SELECT 1), n AS NOT MATERIALIZED (SELECT 2) SELECT * FROM m, n",
    "(SELECT a FROM t ORDER BY a LIMIT 1) UNION (SELECT b FROM u) ORDER BY 1 LIMIT ALL OFFSET 2",
    "SELECT a FROM t EXCEPT ALL SELECT b FROM u INTERSECT SELECT c FROM v",
    "SELECT DISTINCT ON (a, b) a, b FROM t ORDER BY a USING <, b DESC NULLS LAST",
    "SELECT a FROM t GROUP BY DISTINCT a, b HAVING count(*) > 1", "SELECT a FROM t ORDER BY a FETCH FIRST 3 ROWS WITH TIES",
    "SELECT a FROM t ORDER BY a FETCH FIRST (1 + 2) ROWS ONLY",
    "SELECT sum(a) OVER w, rank() OVER (PARTITION BY b ORDER BY c ROWS BETWEEN 2 PRECEDING AND CURRENT ROW EXCLUDE TIES), "
    "count(*) OVER (ORDER BY d RANGE BETWEEN UNBOUNDED PRECEDING AND 3 FOLLOWING), "
    "max(x) OVER (w GROUPS CURRENT ROW) FROM t WINDOW w AS (PARTITION BY a)",
    "SELECT count(DISTINCT a ORDER BY b) FILTER (WHERE c), string_agg(x, ',' ORDER BY x DESC), "
    "percentile_cont(0.5) WITHIN GROUP (ORDER BY y), f(VARIADIC ARRAY[1, 2]), g(1, VARIADIC a), h(x => 1, \"Y\" => 2)",
    "SELECT \"coalesce\"(a), \"substring\"(a, 1), substring(a, 1, 2), \"overlay\"(x), s.\"F\"()",
    "SELECT a LIKE 'x%', a NOT LIKE 'y', a ILIKE 'z', a NOT ILIKE 'w', a SIMILAR TO 'q', a NOT SIMILAR TO 'r' ESCAPE '!'",
    "SELECT a BETWEEN 1 AND 2, a NOT BETWEEN b + 1 AND c, a BETWEEN SYMMETRIC 3 AND 1, a NOT BETWEEN SYMMETRIC x AND y",
    "SELECT a BETWEEN (b IS NULL) AND c, a BETWEEN (b COLLATE \"C\") AND (d BETWEEN 1 AND 2)",
    "SELECT a IS TRUE, a IS NOT FALSE, (a = b) IS UNKNOWN, a IS NOT UNKNOWN, NOT (a IS NULL), a IS NOT NULL",
    "SELECT a IS DISTINCT FROM b, a IS NOT DISTINCT FROM (b IS DISTINCT FROM c), NULLIF(a, b), GREATEST(a, b), LEAST(1, 2)",
    "SELECT a = ANY (ARRAY[1, 2]), a < ALL (SELECT b FROM u), a = ANY (SELECT 1), a LIKE ANY (ARRAY['x']), "
    "a OPERATOR(pg_catalog.~~) ALL (ARRAY['y']), a NOT IN (1, 2), a IN (SELECT 1), a <> ALL (SELECT 2)",
    "SELECT EXISTS (SELECT 1), ARRAY(SELECT 1), (SELECT 1) + 1, - a, + b, - (a + b), ~ c, @ d, a ^ b ^ c",
    "SELECT CASE WHEN a THEN 1 WHEN b THEN 2 ELSE 3 END, CASE a WHEN 1 THEN 'x' END, ROW(1, 2), ROW(), (1, 2)",
    "SELECT current_date, current_timestamp(2), localtime, localtimestamp(3), current_user, session_user, user, "
    "current_role, current_schema, current_catalog, current_time(1)",
    "SELECT $1, $2::int, a COLLATE \"C\", (a || b) COLLATE pg_catalog.\"default\", B'101', X'1F', 1.5e10, -0.25, TRUE",
    "SELECT 'x'::char, 'y'::char(1), 'z'::char(2), 'w'::\"char\", CAST(a AS interval day to second(3)), "
    "'1'::interval(2), CAST(b AS int[][3]), CAST(c AS s.\"T\"), CAST(d AS double precision), e::timestamptz(2), "
    "f::bit varying(3), g::timetz, CAST(h AS SETOF int)",
    "SELECT a AND b AND (c OR d) AND NOT (e AND f), (a OR b) AND c, NOT NOT a, a OR (b AND c) OR d",
    "SELECT (a + b) * c, a + b * c, a - (b - c), (a - b) - c, a / (b * c), (a < b) = true, (a < b) < c, a * -b",
    "SELECT a OPERATOR(pg_catalog.+) b, a OPERATOR(s.===) b, a @> b, a || b || c, (a || b) = c, a = (b || c)",
    "SELECT (a).b, a[1], a[1:2], (f(x)).y, (SELECT r FROM t).c, $1[2]",
    "SELECT * FROM t FOR UPDATE OF t SKIP LOCKED", "SELECT extract(year FROM d), position('a' IN b), overlaps(1,2,3,4)",
    "SELECT GROUPING(a) FROM t GROUP BY ROLLUP (a, b), CUBE (c), GROUPING SETS ((a), ())",
    "SELECT a FROM t TABLESAMPLE bernoulli (10) REPEATABLE (1)", "SELECT DEFAULT", "SELECT * FROM t AS x (a, \"B\")",
    "SELECT 'it''s', E'a\\\\b\\nc', U&'\\0041', 'é客', '', ' ', '\\\\'",
]


def test_the_forms_one_by_one() -> None:
    direct = total = 0
    for sql in _FORMS:
        for raw in pglast.parse_sql(sql):
            direct += _same(raw.stmt)
            total += 1
            for node in nodes(raw.stmt):
                _same(node)
    assert direct >= total - 6  # (array subscripts, FOR UPDATE, extract / position, grouping sets, TABLESAMPLE)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_FORMS), min_size=2, max_size=3), st.sampled_from(["UNION", "EXCEPT ALL"]))
def test_the_forms_combined(forms, op) -> None:
    """Two or three of the forms as subqueries of one query, and in a set operation (the parenthesisation of
    a SELECT in its parent's place)."""
    sql = "SELECT " + ", ".join(f"({f}) AS c{i}" for i, f in enumerate(forms)) + " FROM (" + forms[0] + ") AS s"
    for text in (sql, f"{forms[0]} {op} {forms[1]}"):
        try:
            stmts = pglast.parse_sql(text)
        except pglast.parser.ParseError:
            continue
        _same(stmts[0].stmt)
