"""Round 16, view owner (issue 26): a view query's path with fewer instructions, the same results.

- pglast's makers test a context variable (``pgparse._PARSING``), not a thread-local, for ddlc's trusted parse:
  outside :func:`~ddlc.frontend.sql.pgparse.parse_sql` (another thread, the program's own parse, after a parse
  that failed) a node is still made by its class, checked;
- :func:`ddlc.ir.sqltree.index` pushes a tuple's items by a slice: the same order and groups as :func:`nodes`;
- ``view_queries._columns_read``, ``build.view._query_references`` and ``exprs.rewrite_map`` read the common
  cases (``t.c``, one relation, a ``sysdate`` column reference) without lists, sorts or walks: compared with
  their round-15 bodies (copied below) over every query tree of the fixtures and hostile queries.
"""

from __future__ import annotations

import contextvars
import threading
from typing import Any

import pglast
import pytest
from pglast import ast

from ddlc.backends.postgres import exprs
from ddlc.backends.postgres.functions import REWRITE, UNKNOWN, calls, rewrite_for
from ddlc.frontend.build import view as build_view
from ddlc.frontend.sql import pgparse
from ddlc.history import view_queries
from ddlc.ir.names import QualifiedName
from ddlc.ir.sqltree import built_trusted, index, nodes
from test_throughput_round15_view import _texts as round15_texts

_HOSTILE_QUERIES = [
    "SELECT a FROM t",
    "SELECT t.a, t.* , * FROM s.t",
    "SELECT x.a FROM s.t x, u.t y WHERE x.b = y.b",
    "SELECT c.s.t.a, s.t.a, t.a, a FROM c.s.t",
    "SELECT \"we\"\"ird\".\"ünï\", \"$$\".\"--\" FROM \"we\"\"ird\", \"$$\" /* x */",
    "WITH w AS (SELECT a FROM s.t) SELECT w.a, a FROM w, s.u",
    "WITH w AS (SELECT a FROM s.t) SELECT * FROM w",
    "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n FROM r",
    "SELECT a FROM t UNION SELECT b FROM s.u ORDER BY 1",
    "SELECT (SELECT max(b) FROM s.u WHERE u.k = t.k) FROM s.t",
    "SELECT a FROM s.t WHERE b IN (SELECT b FROM s.t)",
    "SELECT 'it''s', E'a\\\\b\\'c', $$x$$, $t$ $$ -- /* $t$ FROM s.t",
    "SELECT sysdate, nvl(a, sysdate), nvl(nvl(a, b), c)::nvarchar2(3) FROM s.t",
    "SELECT nvl(a::nvarchar2(5), 'x'::text), sysdate AS d, (sysdate)::date FROM s.t WHERE sysdate > a",
    "SELECT t.sysdate, \"sysdate\", s.t.sysdate FROM s.t",
    "SELECT decode(a, 1, 'x', 'y'), nvl2(a, b, c), to_char(sysdate, 'YYYY') FROM s.t",
    "SELECT count(*) FROM s.t GROUP BY 1 HAVING count(*) > 1",
    "SELECT 1",
    "SELECT a FROM ONLY s.t, LATERAL (SELECT 1) x",
]


_PIECES = ["sysdate", "nvl(a, b)", "nvl(a::nvarchar2(3), 'x''y')", "a::nvarchar2(4)", "(sysdate)::date", "pg_systimestamp()",
           "t.sysdate", "\"sysdate\"", "nvl(sysdate, a)", "sysdate::text", "coalesce(a, sysdate)", "'$$--/*'::text"]
_COMBINED = [f"SELECT {a}, {b} AS \"ünï\" FROM s.t WHERE {c} IS NOT NULL" for a in _PIECES for b in _PIECES for c in _PIECES[:6]]


def _query_trees() -> list[tuple[str, Any]]:
    out = []
    for q in sorted(set(round15_texts()) | set(_HOSTILE_QUERIES) | set(_COMBINED)):
        try:
            stmts = pgparse.parse_sql(q)
        except pglast.parser.ParseError:
            continue
        for raw in stmts:
            if raw.stmt is not None:
                out.append((q, raw.stmt))
    return out


# ---- the makers' trust test ------------------------------------------------------------------------


def test_the_makers_read_the_context_variable() -> None:
    assert pgparse._install()
    maker = pglast.parser.ast.SelectStmt
    assert maker.__globals__["_T"] == pgparse._PARSING.get
    assert pgparse._PARSING.get() is False
    with pytest.raises(ValueError):
        pglast.parser.ast.String(42)  # (outside ddlc's parse: the class, checked)
    with pytest.raises(pglast.parser.ParseError):
        pgparse.parse_sql("SELECT FROM WHERE (")
    assert pgparse._PARSING.get() is False  # (a failed parse leaves it as it was)
    with pytest.raises(ValueError):
        pglast.parser.ast.String(42)


def test_a_parse_in_another_thread_or_context_leaves_this_one_checked() -> None:
    assert pgparse._install()
    errors: list[BaseException] = []
    stop = threading.Event()

    def parse() -> None:
        try:
            while not stop.is_set():
                pgparse.parse_sql("SELECT nvl(a, 1) FROM s.t WHERE b IN (1, 2, 3) ORDER BY 1 LIMIT 2")
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    t = threading.Thread(target=parse)
    t.start()
    try:
        for _ in range(300):
            with pytest.raises(ValueError):
                pglast.parser.ast.String(42)
            assert contextvars.copy_context().run(pgparse._PARSING.get) is False
    finally:
        stop.set()
        t.join()
    assert not errors
    # inside ddlc's parse, in a copied context too, the nodes are the makers' (the same trees, test_throughput_round15)
    tree = contextvars.copy_context().run(pgparse.parse_sql, "SELECT a FROM s.t")[0].stmt
    assert type(tree) is ast.SelectStmt and tree.fromClause[0].relname == "t"


# ---- the index -----------------------------------------------------------------------------------------


def test_the_index_is_the_walk_of_nodes() -> None:
    trees = _query_trees()
    assert len(trees) > 300
    for q, tree in trees:
        idx = index(tree)
        walked = list(nodes(tree))
        assert [id(n) for n in idx.order] == [id(n) for n in walked], q[:200]
        by: dict[type, list[Any]] = {}
        for n in walked:
            by.setdefault(type(n), []).append(n)
        assert {c: [id(n) for n in v] for c, v in idx.groups().items()} == \
            {c: [id(n) for n in v] for c, v in by.items()}, q[:200]


# ---- the readers, against their round-15 bodies --------------------------------------------------------


def _columns_read_round15(tree: Any, refs: list) -> tuple:
    cte, range_var, column_ref, a_star = ast.CommonTableExpr, ast.RangeVar, ast.ColumnRef, ast.A_Star
    ALL = view_queries.ALL
    by = index(tree).groups()
    ctes = {n.ctename for n in by.get(cte, ())}
    range_vars, column_refs = by.get(range_var, ()), by.get(column_ref, ())
    names: dict = {}
    rels: list = []
    for n in range_vars:
        if n.schemaname is None and n.relname in ctes:
            continue
        key = view_queries._resolve(n.schemaname, n.relname, refs)
        rels.append(key)
        names[n.alias.aliasname if n.alias is not None else n.relname] = key
    rels = list(dict.fromkeys(rels))
    out: dict = {}
    for n in column_refs:
        fields = [ALL if isinstance(f, a_star) else getattr(f, "sval", None) for f in n.fields]
        if not fields or fields[-1] is None:
            continue
        col = fields[-1]
        qual = fields[-2] if len(fields) >= 2 else None
        if qual is not None and qual in names and (len(fields) < 3 or view_queries._qualifies(fields[-3], names[qual])):
            out[(names[qual], col)] = None
        elif len(rels) == 1 and qual is None:
            out[(rels[0], col)] = None
        else:
            for k in rels:
                out[(k, col)] = None
    return tuple(out)


def _query_references_round15(tree: Any, origin: Any) -> tuple:
    idx = index(tree)
    ctes = {node.ctename for node in idx.of(ast.CommonTableExpr)}
    found = [(node.location if node.location is not None else -1, node.catalogname, node.schemaname, node.relname)
             for node in idx.of(ast.RangeVar)]
    out: list = []
    seen: set = set()
    for _, catalog, schema, rel in sorted(found, key=lambda f: f[0]):
        if schema is None and rel in ctes:
            continue
        key = (catalog, schema, rel)
        if key in seen:
            continue
        seen.add(key)
        out.append(QualifiedName(rel, schema, origin=origin))
    return tuple(out)


def test_query_references_and_columns_read_as_before() -> None:
    compared = 0
    for q, tree in _query_trees():
        origin = ("query",)
        new = build_view._query_references(tree, origin)
        old = _query_references_round15(tree, origin)
        assert new == old and [r.origin for r in new] == [r.origin for r in old], q[:200]
        for refs in ([(r.schema, r.name) for r in new], [], [(None, "t"), ("s", "t")], [("x", r.name) for r in new]):
            assert view_queries._columns_read(tree, list(refs)) == _columns_read_round15(tree, list(refs)), q[:200]
        compared += 1
    assert compared > 300


class _Emit:
    def __init__(self) -> None:
        self.said: list[tuple] = []

    def diag(self, *args: Any) -> None:
        self.said.append(args)


def _rewrite_map_round15(node: Any, emit: Any, origin: Any, text: str, gather: tuple) -> Any:
    rewritten: dict = {}
    for c, v in calls(node, text):
        if v == REWRITE:
            rewritten[id(c.node)] = c
        elif v == UNKNOWN:
            return None
    if not rewritten:
        return None
    allowed = exprs._IN_PLACE or exprs._in_place()
    want, found = gather
    out: dict = {}
    inside: set = set()
    done: list = []
    for key, c in rewritten.items():
        below = [id(n) for n in nodes(c.node)]
        for k in below:
            if k != key and k in rewritten:
                return None
        rw = rewrite_for(c)
        if rw is None:
            continue
        inside.update(below)
        new = built_trusted(rw.build, c.node)
        if type(new) not in allowed:
            return None
        out[key] = new
        done.append(rw)
    for t in index(node).of(want):
        if id(t) not in inside:
            found.append(t)
    for new in out.values():
        found.extend(n for n in nodes(new) if type(n) is want)
    exprs._report(done, emit, origin)
    return out


def _shape(out: Any, found: list, emit: _Emit) -> Any:
    """What a rewrite_map gave, its new nodes by what pglast prints of them (each call builds new ones)."""
    from pglast.stream import RawStream

    if out is None:
        return None, [id(n) for n in found], emit.said
    printed = {k: RawStream()(v) for k, v in out.items()}
    return printed, [id(n) if any(n is m for m in nodes(tuple(out.values()))) is False else RawStream()(n)
                     for n in found], emit.said


def test_rewrite_map_as_before() -> None:
    compared = rewritten = 0
    for q, tree in _query_trees():
        if type(tree) is not ast.SelectStmt:
            continue
        e1, e2, f1, f2 = _Emit(), _Emit(), [], []
        new = exprs.rewrite_map(tree, e1, ("o",), q, (ast.TypeName, f1))
        old = _rewrite_map_round15(tree, e2, ("o",), q, (ast.TypeName, f2))
        assert _shape(new, f1, e1) == _shape(old, f2, e2), q[:200]
        compared += 1
        rewritten += bool(new)
    assert compared > 800 and rewritten > 300, (compared, rewritten)
