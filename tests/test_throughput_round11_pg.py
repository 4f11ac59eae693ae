"""Round 11 of issue 26, the PostgreSQL emitters.

* DROP, COMMENT ON, ALTER ... SET SCHEMA and ALTER ... RENAME TO of a relation write their common form (an object
  named by a ``QualifiedName``) at once instead of through ``words``; a DROP's object word is looked up by the
  enum member's identity (an enum's hash is a Python call). Compared with the former emitters (kept below) over
  every fixture statement and generated ones with hostile names, every object kind and every flag: the same
  statements, diagnostics, owned objects and errors.
* The view family: ``exprs.rewrite_tree`` rewrites the calls the verdicts (``functions.calls``, worked out once per
  tree for the rules) say to rewrite, instead of judging every call node again (``call_of``, ``rewrite_for``);
  ``objects_more._view_query`` works a type's mapping out once per node; ``create_view`` writes its statement at
  once. The former ``rewrite_tree`` and ``create_view`` are kept below and compared with the new ones on round 9's
  hand-written view queries, every fixture query, generated queries (the same tree, text, diagnostics and errors)
  and every fixture CREATE VIEW with generated names and flags; ``_view_query`` is compared with its former self
  by tests/test_throughput_round9_views.py. The direct printer's shortcuts (``pgdirect``: a two-part name, a
  column reference, a constant and a target's alias written without the steps' frames) are compared with pglast's
  printers by tests/test_throughput_print2.py.
* CREATE INDEX (``objects_more.create_index``, its text by ``indexes.index_statement``) is written at once when no
  fragment's text (a key expression, the WHERE clause) could meet the writer's spacing rule, and through the
  writer with the same tokens otherwise. Compared with the former emitter (kept below) over every fixture CREATE
  INDEX and generated ones (hostile names, fragment texts such as ``)x``, ``,``, ``f(`` and empty ones, every
  option): the same statements, diagnostics, owned objects and errors.
* CREATE and ALTER SEQUENCE add their tokens to a list spaced by ``joined`` (no writer's calls), a clause's words
  looked up by the enum member's identity, START / RESTART / the AS-first order found by one loop. Compared with
  the former emitters (kept below) over every fixture sequence statement and generated ones.
"""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from ddlc.backends.base import EmitContext
from ddlc.backends.postgres import objects as pg_objects
from ddlc.backends.postgres.context import Emit
from ddlc.backends.writer import words
from ddlc.ir.comment import Comment
from ddlc.ir.drop import ConstraintIdentity, Drop, DropObjectType, FunctionSignature, PlainName, SchemaName
from ddlc.ir.names import QualifiedName, TypeName
from ddlc.ir.rename import RenameRelation, SetSchema
from ddlc.ir.view import CreateView

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_throughput_passes import STATEMENTS  # noqa: E402
from test_throughput_round10_pg import _NAMES  # noqa: E402

# ---- the emitters replaced (as they were at 4a0c31e) -------------------------------------------------------
_DROP_WORDS, _LARGE_SEQUENCE, _INDEX = pg_objects._DROP_WORDS, DropObjectType.LARGE_SEQUENCE, DropObjectType.INDEX
_addressed, _kind, _large, _is = pg_objects._addressed, pg_objects._kind, pg_objects._large, pg_objects._is


def _former_drop(n, e):
    word = _DROP_WORDS[n.objtype]
    ident = n.identity
    assert ident is not None
    if isinstance(ident, ConstraintIdentity):
        e.diag(pg_objects.I_CONSTRAINT_DROP,
               f"constraint {ident.name} of {ident.table.dotted()} dropped with ALTER TABLE", n.origin)
        return [words("ALTER TABLE", e.qname(ident.table), "DROP CONSTRAINT", "IF EXISTS" if n.if_exists else None,
                      e.ident(ident.name), "CASCADE" if n.cascade else None)]
    if n.objtype is _LARGE_SEQUENCE:
        _large(e, "LARGE SEQUENCE", n.origin)
    word, what = _addressed(word, ident, e)
    return [words("DROP", word, "CONCURRENTLY" if n.concurrently and n.objtype is _INDEX else None,
                  "IF EXISTS" if n.if_exists else None, what, "CASCADE" if n.cascade else None)]


def _former_comment(n, e):
    if n.on_constraint:
        assert n.parent is not None
        name = n.identity.name if isinstance(n.identity, PlainName) else n.identity_text
        return [words("COMMENT ON CONSTRAINT", e.ident(name), "ON", "DOMAIN" if n.domain else None, e.qname(n.parent),
                      _is(e, n.comment))]
    objtype = _kind(n.objtype)
    word = pg_objects._COMMENT_WORDS[objtype]
    assert n.identity is not None
    _large(e, objtype, n.origin)
    word, what = _addressed(word, n.identity, e)
    return [words("COMMENT ON", word, what, _is(e, n.comment))]


def _former_alter(e, word, if_exists, name):
    return words("ALTER", word, "IF EXISTS" if if_exists else None, e.qname(name))


def _former_rename_relation(n, e):
    objtype = _kind(n.objtype)
    word = pg_objects._RELATION_WORDS[objtype]
    _large(e, objtype, n.origin)
    return [words(_former_alter(e, word, n.if_exists, n.identity), "RENAME TO", e.ident(n.new_name))]


def _former_set_schema(n, e):
    objtype = _kind(n.objtype)
    word = pg_objects._SET_SCHEMA_WORDS[objtype]
    assert isinstance(n.identity, QualifiedName | FunctionSignature)
    _large(e, objtype, n.origin)
    word, what = _addressed(word, n.identity, e)
    return [words("ALTER", word, what, "SET SCHEMA", e.ident(n.new_schema))]


_PAIRS = {Drop: (_former_drop, pg_objects.drop), Comment: (_former_comment, pg_objects.comment),
          RenameRelation: (_former_rename_relation, pg_objects.rename_relation),
          SetSchema: (_former_set_schema, pg_objects.set_schema)}


def _emitted(fn, n):
    e = Emit(EmitContext(document="d"), None, {})
    try:
        out = ("ok", fn(n, e))
    except Exception as exc:  # noqa: BLE001 (the same error, or none, both ways)
        # (an assertion's message is pytest's rewriting of this module's copy: its class only)
        out = ("error", type(exc).__name__, "" if isinstance(exc, AssertionError) else str(exc),
               getattr(exc, "code", None))
    return out, [str(d) for d in e.diagnostics], e.owned, e.comments


def _both(n):
    former, new = _PAIRS[type(n)]
    assert _emitted(new, n) == _emitted(former, n)


def test_objects_fixtures():
    seen = 0
    for _label, stmt in STATEMENTS:
        for n in (stmt if isinstance(stmt, tuple | list) else (stmt,)):
            if type(n) in _PAIRS:
                _both(n)
                seen += 1
    assert seen >= 20


_QNAMES = st.builds(QualifiedName, _NAMES, st.one_of(st.none(), _NAMES), st.one_of(st.none(), st.none(), _NAMES))
_IDENTS = st.one_of(
    _QNAMES, _QNAMES, st.none(),
    st.builds(SchemaName, _NAMES), st.builds(PlainName, _NAMES),
    st.builds(FunctionSignature, _QNAMES, st.lists(st.builds(TypeName, st.sampled_from(["int4", "varchar", "X"]),
                                                             st.sampled_from([None, "", "pg_catalog"]),
                                                             st.sampled_from(["", "(3)"]), st.booleans()),
                                                   max_size=2).map(tuple), st.booleans()),
    st.builds(ConstraintIdentity, _NAMES, _QNAMES),
)
_KINDS = st.sampled_from(["table", "TABLE", "index", "sequence", "large  sequence", "view", "schema", "type",
                          "function", "domain", "trigger", "column", "tablespace", "???", "materialized view"])


@settings(max_examples=1500, deadline=None)
@given(st.sampled_from(list(DropObjectType)), _IDENTS, st.booleans(), st.booleans(), st.booleans())
def test_drop_generated(objtype, identity, concurrently, if_exists, cascade):
    _both(Drop(objtype=objtype, identity_text="x", identity=identity, concurrently=concurrently, if_exists=if_exists,
               cascade=cascade))


@settings(max_examples=1500, deadline=None)
@given(_KINDS, _IDENTS, st.one_of(st.none(), st.just(""), st.text(max_size=6)), st.booleans(), st.booleans(),
       st.one_of(st.none(), _QNAMES))
def test_comment_generated(objtype, identity, text, on_constraint, domain, parent):
    _both(Comment(objtype=objtype, identity_text="x", identity=identity, comment=text, on_constraint=on_constraint,
                  domain=domain, parent=parent))


@settings(max_examples=1500, deadline=None)
@given(_KINDS, _IDENTS, _NAMES, _QNAMES, st.booleans())
def test_rename_and_set_schema_generated(objtype, identity, name, qname, if_exists):
    _both(SetSchema(objtype=objtype, identity_text="x", new_schema=name, identity=identity))
    _both(RenameRelation(objtype=objtype, identity=qname, new_name=name, if_exists=if_exists))


# ---- the view family ---------------------------------------------------------------------------------------
import pglast  # noqa: E402
import pytest  # noqa: E402
from pglast import ast  # noqa: E402

from ddlc.backends import once  # noqa: E402
from ddlc.backends.postgres import exprs as pg_exprs  # noqa: E402
from ddlc.backends.postgres import objects_more as pg_om  # noqa: E402
from ddlc.backends.postgres.functions import REWRITE, UNKNOWN, _quoted_bare, call_of, calls, rewrite_for  # noqa: E402
from ddlc.errors import InternalError  # noqa: E402
from ddlc.ir.sequence import Persistence  # noqa: E402
from ddlc.ir.sqltree import built_trusted, nodes, replaced  # noqa: E402
from test_throughput_round9_views import _CALLS, _FORMS, _TYPES, _fixture_queries  # noqa: E402


def _former_rewrite_tree(node, emit, origin, text="", gather=None):
    """exprs.rewrite_tree as it was at 4a0c31e."""
    found = calls(node, text)
    unknown = [c.label for c, v in found if v == UNKNOWN]
    if unknown:
        raise InternalError(f"call to {', '.join(unknown)} (not on PostgreSQL) reached the emitter", path=origin)
    if not any(v == REWRITE for _, v in found):
        return node, False
    quoted = _quoted_bare(text) if text else frozenset()
    done = []

    def one(original, node):
        c = call_of(original, quoted)
        rw = rewrite_for(c) if c is not None else None
        if rw is None:
            return node
        done.append(rw)
        return built_trusted(rw.build, node)

    tree = replaced(node, one, (ast.FuncCall, ast.ColumnRef), gather)
    exact = sorted({rw.gauss for rw in done if rw.exact})
    close = sorted({f"{rw.gauss} -> {rw.postgres} ({rw.note})" for rw in done if not rw.exact})
    if exact:
        emit.diag(pg_exprs.I_EXPR_REWRITTEN, "rewritten: " + ", ".join(exact), origin)
    if close:
        emit.diag(pg_exprs.I_EXPR_CLOSE, "rewritten to a close form: " + "; ".join(close), origin)
    return tree, True


class _Said:
    def __init__(self):
        self.said = []

    def diag(self, code, message, path, **more):
        self.said.append((code, message, path, tuple(sorted(more.items()))))


def _rewritten(fn, text, tree):
    e, found = _Said(), []
    try:
        new, changed = fn(tree, e, ("query",), text, (ast.TypeName, found))
    except InternalError as exc:
        return ("raised", str(exc)), e.said
    return (pglast.stream.RawStream()(new), changed, sorted(pglast.stream.RawStream()(t) for t in found),
            sorted(pglast.stream.RawStream()(t) for t in nodes(new) if type(t) is ast.TypeName)), e.said


def _same_rewrite(text: str) -> bool:
    """The former and the new rewrite_tree on ``text``'s parse (each on its own fresh parse)."""
    try:
        stmts = pglast.parse_sql(text)
    except pglast.parser.ParseError:
        return False
    if len(stmts) != 1:
        return False
    old = _rewritten(_former_rewrite_tree, text, pglast.parse_sql(text)[0].stmt)
    tree = stmts[0].stmt
    before = pglast.stream.RawStream()(tree)
    assert _rewritten(pg_exprs.rewrite_tree, text, tree) == old, text
    assert pglast.stream.RawStream()(tree) == before, text  # the IR's tree is never modified
    return True


_MORE = ["SELECT \"sysdate\", sysdate, nvl(\"sysdate\", sysdate) FROM t",
         "SELECT nvl(sysdate, a), decode(nvl(a, b), 1, to_date(c), d) FROM t",
         "SELECT pg_catalog.nvl(a, b), s.nvl(a, b), nvl(a) FROM t",
         "SELECT CAST(nvl(a, 1) AS varchar(3)), nvl(a, 1)::nvarchar2(4) FROM t"]


@pytest.mark.parametrize("text", _FORMS + _MORE)
def test_rewrite_tree_forms(text: str) -> None:
    assert _same_rewrite(text)


def test_rewrite_tree_every_fixture_query() -> None:
    assert sum(_same_rewrite(t) for t in sorted(_fixture_queries())) >= 18


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_CALLS, _CALLS, _TYPES), min_size=1, max_size=4))
def test_rewrite_tree_generated(parts) -> None:
    cols = [outer.format(inner.format("a") + cast) for outer, inner, cast in parts]
    _same_rewrite("SELECT " + ", ".join(cols) + " FROM t WHERE b > nvl(sysdate, 0)")


def _former_create_view(n, e):
    query = pg_om.view_query(n, e)
    w = e.w().kw("CREATE")
    if n.or_replace:
        w.kw("OR", "REPLACE")
    if n.persistence is Persistence.TEMPORARY:
        w.kw("TEMPORARY")
    e.own(("VIEW",), e.qname(n.identity))
    return [w.kw("VIEW").raw(e.qname(n.identity)).kw("AS").raw(query).text()]


def _view_emitted(fn, n):
    once._KEPT.clear()
    return _emitted(fn, n)


def _views():
    """Every fixture CREATE VIEW, and one made of each hand-written query."""
    from ddlc.frontend.build import build

    out = [n for _label, stmt in STATEMENTS for n in (stmt if isinstance(stmt, tuple | list) else (stmt,))
           if type(n) is CreateView]
    for text in _FORMS + _MORE:
        stmt, _ = build({"fmt": "CREATE %{or_replace}s %{persistence}s VIEW %{identity}D AS %{query}s",
                         "query": text, "identity": {"objname": "v", "schemaname": "public"}, "or_replace": "",
                         "persistence": ""}, document="d")
        if type(stmt) is CreateView:
            out.append(stmt)
    return out


_VIEWS = _views()


def test_create_view_fixtures():
    views = _VIEWS
    assert len(views) >= 3 + len(_FORMS)
    for n in views:
        assert _view_emitted(pg_om.create_view, n) == _view_emitted(_former_create_view, n)


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 1000), _QNAMES, st.booleans(), st.sampled_from(list(Persistence)))
def test_create_view_generated(i, identity, or_replace, persistence):
    n = _VIEWS[i % len(_VIEWS)]
    n = type(n)(**{**{f: getattr(n, f) for f in n.__struct_fields__}, "identity": identity,
                   "or_replace": or_replace, "persistence": persistence})
    assert _view_emitted(pg_om.create_view, n) == _view_emitted(_former_create_view, n)


# ---- CREATE INDEX ------------------------------------------------------------------------------------------
from ddlc.backends.postgres import indexes as pg_indexes  # noqa: E402
from ddlc.ir.index import CreateIndex, IndexKey, NullsOrder, PartitionScope, SortOrder  # noqa: E402
from ddlc.ir.names import Expr  # noqa: E402


def _former_key(w, k, e):
    if k.column is not None:
        w.ident(k.column)
    else:
        assert k.expression is not None
        w.raw(e.expr(k.expression))
    if k.collation is not None:
        w.kw("COLLATE").raw(e.qname(k.collation))
    if k.opclass is not None:
        w.raw(e.qname(k.opclass))
    if k.ordering is not None:
        w.kw(k.ordering.value)
    if k.nulls is not None:
        w.kw("NULLS", k.nulls.value)


def _former_create_index(n, e):
    """The writer part of objects_more.create_index as it was at 4a0c31e (what comes before it is unchanged)."""
    om = pg_om
    assert n.keys
    method = om.target_method(n.method)
    if n.method.strip().strip('"').lower() == "ubtree":
        e.diag(om.I_UBTREE, "ubtree index written as btree", n.origin)
    state = e.catalog.table(n.table) if e.catalog is not None else None
    if n.partition_scope is PartitionScope.GLOBAL:
        e.diag(om.I_GLOBAL, "GLOBAL index written as an index on the partitioned table", n.origin)
    unique = n.unique
    if unique and state is not None:
        columns = {k.column for k in n.keys if k.column is not None}
        missing = [c for c in (*state.key, *state.sub_key) if c not in columns]
        if missing:
            unique = False
            e.diag(om.W_UNIQUE_KEY, f"UNIQUE removed: partition key column(s) {', '.join(missing)} not in the index",
                   n.origin)
    concurrently = n.concurrently
    if concurrently and state is not None:
        concurrently = False
        e.diag(om.W_CONCURRENTLY, om._CONCURRENTLY, n.origin)
    elif concurrently:
        e.diag(om.I_CONCURRENTLY_KEPT, f"CONCURRENTLY kept: {n.table.dotted()} not known to be partitioned", n.origin)
    w = e.w().kw("CREATE")
    if unique:
        w.kw("UNIQUE")
    w.kw("INDEX")
    if concurrently:
        w.kw("CONCURRENTLY")
    w.ident(n.name).kw("ON").raw(e.qname(n.table))
    w.kw("USING").ident(method if method in om.INDEX_RELOPTIONS else pg_indexes._method_name(n.method))
    w.open().each(n.keys, lambda w_, k: _former_key(w_, k, e)).close()
    if n.include:
        w.kw("INCLUDE").open().each(n.include, lambda w_, c: w_.ident(c)).close()
    opts = om.index_options(n.options)
    if opts:
        w.kw("WITH").open().each(opts, lambda w_, kv: w_.raw(e.ident(kv[0]) + "=" + pg_indexes._option_value(kv[1]))
                                 ).close()
    if n.where is not None:
        w.kw("WHERE").raw(e.expr(n.where))
    return [w.text()]


def test_create_index_fixtures():
    seen = 0
    for _label, stmt in STATEMENTS:
        for n in (stmt if isinstance(stmt, tuple | list) else (stmt,)):
            if type(n) is CreateIndex and n.keys:
                assert _emitted(pg_om.create_index, n) == _emitted(_former_create_index, n)
                seen += 1
    assert seen >= 5


class _TextEmit(Emit):
    """An emitter whose fragments are their texts as they are (the writing is what is compared, with hostile
    fragment texts the SQL layer would never hand over)."""

    __slots__ = ()

    def expr(self, e):
        return e.text


def _text_emitted(fn, n):
    e = _TextEmit(EmitContext(document="d"), None, {})
    try:
        out = ("ok", fn(n, e))
    except Exception as exc:  # noqa: BLE001
        out = ("error", type(exc).__name__, "" if isinstance(exc, AssertionError) else str(exc),
               getattr(exc, "code", None))
    return out, [str(d) for d in e.diagnostics], e.owned, e.comments


_FRAGMENTS = st.one_of(st.sampled_from(["", ",", ")", "(", ")x", ",x", "x(", "lower(a)", "(a + b)", "a, b", "( a )",
                                        "x )", "a ,b"]),
                       st.text(st.sampled_from(list("ab(), '")), max_size=6))
_KEYS = st.builds(IndexKey, st.one_of(st.none(), _NAMES),
                  _FRAGMENTS.map(lambda t: Expr(t)),
                  st.one_of(st.none(), _QNAMES), st.one_of(st.none(), _QNAMES),
                  st.one_of(st.none(), st.sampled_from(list(SortOrder))),
                  st.one_of(st.none(), st.sampled_from(list(NullsOrder))))


@settings(max_examples=1500, deadline=None)
@given(_NAMES, _QNAMES, st.sampled_from(["btree", "ubtree", '"My Method"', "gin", "hash", "psort", "BTREE"]),
       st.lists(_KEYS, min_size=1, max_size=3), st.lists(_NAMES, max_size=2), st.booleans(), st.booleans(),
       st.one_of(st.none(), st.sampled_from(["fillfactor=70", "fastupdate=on, x=1.5", "a='b c'", " ,k=", "k=v("])),
       st.one_of(st.none(), _FRAGMENTS.map(lambda t: Expr(t))),
       st.sampled_from(list(PartitionScope)))
def test_create_index_generated(name, table, method, keys, include, unique, concurrently, options, where, scope):
    n = CreateIndex(name=name, table=table, method=method, definition_text=None, keys=tuple(keys),
                    include=tuple(include), unique=unique, concurrently=concurrently, options=options, where=where,
                    partition_scope=scope)
    assert _text_emitted(pg_om.create_index, n) == _text_emitted(_former_create_index, n)


# ---- sequences ---------------------------------------------------------------------------------------------
from ddlc.ir.sequence import AlterSequence, CreateSequence, SeqClause, SeqOption  # noqa: E402


def _former_option(w, o, e):
    c = o.clause
    if c in pg_om._WORDS:
        assert o.value is not None
        w.kw(*pg_om._WORDS[c]).raw(str(int(o.value)))
    elif c is SeqClause.CYCLE:
        w.kw(*(("NO", "CYCLE") if o.no else ("CYCLE",)))
    elif c is SeqClause.OWNED:
        w.kw("OWNED", "BY").raw(e.qname(o.owner) if o.owner is not None else "NONE")
    elif c is SeqClause.AS:
        assert o.type is not None
        w.kw("AS").raw(e.type(TypeName(o.type.name, o.type.schema, origin=o.type.origin)))


def _former_create_sequence(n, e):
    opts = pg_om._kept(n, e)
    start = next((o for o in opts if o.clause is SeqClause.START), None)
    restart = next((o for o in opts if o.clause is SeqClause.RESTART), None)
    opts = [o for o in opts if o.clause is not SeqClause.RESTART]
    opts.sort(key=lambda o: o.clause is not SeqClause.AS)
    w = e.w().kw("CREATE")
    if n.persistence is Persistence.UNLOGGED:
        w.kw("UNLOGGED")
    elif n.persistence in (Persistence.TEMPORARY, Persistence.GLOBAL_TEMPORARY):
        w.kw("TEMPORARY")
    w.kw("SEQUENCE").raw(e.qname(n.identity))
    e.own(("SEQUENCE",), e.qname(n.identity))
    for o in opts:
        _former_option(w, o, e)
    out = [w.text()]
    if restart is not None and (start is None or int(start.value or 0) != int(restart.value or 0)):
        e.diag(pg_om.I_RESTART, f"RESTART {restart.value} written as ALTER SEQUENCE ... RESTART", restart.origin)
        alter = e.w().kw("ALTER", "SEQUENCE").raw(e.qname(n.identity))
        _former_option(alter, restart, e)
        out.append(alter.text())
    return out


def _former_alter_sequence(n, e):
    opts = pg_om._kept(n, e)
    if not opts:
        return []
    w = e.w().kw("ALTER", "SEQUENCE").raw(e.qname(n.identity))
    for o in opts:
        _former_option(w, o, e)
    return [w.text()]


def _both_sequence(n):
    former, new = ((_former_create_sequence, pg_om.create_sequence) if type(n) is CreateSequence
                   else (_former_alter_sequence, pg_om.alter_sequence))
    assert _emitted(new, n) == _emitted(former, n)


def test_sequence_fixtures():
    seen = 0
    for _label, stmt in STATEMENTS:
        for n in (stmt if isinstance(stmt, tuple | list) else (stmt,)):
            if type(n) in (CreateSequence, AlterSequence):
                _both_sequence(n)
                seen += 1
    assert seen >= 5


_SEQ_OPTIONS = st.builds(
    SeqOption, st.sampled_from(list(SeqClause)), st.one_of(st.none(), st.sampled_from(["1", "-5", "0", "10", "x"])),
    st.booleans(), st.one_of(st.none(), _QNAMES),
    st.one_of(st.none(), st.builds(QualifiedName, st.sampled_from(["int8", "int2", "bigint", "My T", "int16"]),
                                   st.sampled_from([None, "pg_catalog", "s"]))))


@settings(max_examples=1500, deadline=None)
@given(_QNAMES, st.lists(_SEQ_OPTIONS, max_size=6), st.sampled_from(list(Persistence)))
def test_sequence_generated(identity, options, persistence):
    _both_sequence(CreateSequence(identity=identity, options=tuple(options), persistence=persistence))
    _both_sequence(AlterSequence(identity=identity, options=tuple(options)))
