"""Round 11 of issue 26, the PostgreSQL emitters.

* DROP, COMMENT ON, ALTER ... SET SCHEMA and ALTER ... RENAME TO of a relation write their common form (an object
  named by a ``QualifiedName``) at once instead of through ``words``; a DROP's object word is looked up by the
  enum member's identity (an enum's hash is a Python call). Compared with the former emitters (kept below) over
  every fixture statement and generated ones with hostile names, every object kind and every flag: the same
  statements, diagnostics, owned objects and errors.
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
