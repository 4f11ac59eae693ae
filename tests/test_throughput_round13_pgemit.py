"""Round 13 of issue 26, the PostgreSQL emitters (ddlc/backends/postgres/objects.py).

* The forms of DROP, COMMENT ON, RENAME and ALTER ... SET SCHEMA that round 11 left to ``words`` (a function
  identity, a trigger, a schema, a constraint, every RENAME but RENAME TO of a relation, RENAME TABLE's pairs)
  are written at once: each token is a keyword, a name quoted by the dialect's functions or an identity text
  made of them, none of which meets the writer's spacing rule (none empty, none "," or starting with ")", none
  ending with "("); the names are quoted in the order ``words`` was handed them, so the first bad one is still
  the error. ``identity_sql`` tests a tuple instead of making ``SchemaName | PlainName`` at every call.

* CREATE SCHEMA (``misc.create_schema``) is written at once (keywords and quoted names, which the writer's rule
  spaces with single spaces), its name quoted once for the text and the owner; the CREATE SCHEMA and ALTER SCHEMA
  ... BLOCKCHAIN rules' predicates say by ``needs`` the field without which each is false (the drop_unsupported
  pass tests it before calling them).

* Hygiene: the writer-spaced parenthesised list written at once had three copies (``routines._paren``,
  ``partitions._listed``, ``objects._paren_list``); it is one helper, ``writer.paren_items``, compared below with
  the writer itself (``SqlWriter().paren_list(items, SqlWriter.raw).text()``) over generated items.

The former emitters (as they were at 3e710de) are kept below and compared with the new ones over every fixture
statement and generated ones with hostile names (quotes, backslashes, ``$$``, ``--``, ``/*``, newlines,
non-ASCII, empty), every object kind and every flag: the same statements, diagnostics, owned objects and errors.
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
from ddlc.ir.drop import (
    ConstraintIdentity, Drop, DropObjectType, FunctionSignature, PlainName, SchemaName, TriggerIdentity,
)
from ddlc.ir.names import QualifiedName, TypeName
from ddlc.ir.rename import (
    RenameAttribute, RenameColumn, RenameConstraint, RenamePair, RenameRelation, RenameSchema, RenameTables,
    RenameType, SetSchema,
)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_throughput_passes import STATEMENTS  # noqa: E402
from test_throughput_round10_pg import _NAMES  # noqa: E402

# ---- the emitters replaced (as they were at 3e710de) -------------------------------------------------------
_DROP_WORDS, _DROP_WORD_OF = pg_objects._DROP_WORDS, pg_objects._DROP_WORD_OF
_LARGE_SEQUENCE, _INDEX = DropObjectType.LARGE_SEQUENCE, DropObjectType.INDEX
_kind, _large, _is, _qname = pg_objects._kind, pg_objects._large, pg_objects._is, pg_objects._qname
_routine = pg_objects.routine


def _former_identity_sql(ident, e):
    if isinstance(ident, QualifiedName):
        return e.qname(ident)
    if isinstance(ident, SchemaName | PlainName):
        return e.ident(ident.name)
    if isinstance(ident, FunctionSignature):
        return _routine(ident, e)[1]
    if isinstance(ident, TriggerIdentity):
        return words(e.ident(ident.name), "ON", e.qname(ident.table))
    raise TypeError(f"postgres: no identity form for {type(ident).__name__}")


def _former_addressed(word, ident, e):
    if isinstance(ident, FunctionSignature):
        return _routine(ident, e)
    return word, _former_identity_sql(ident, e)


def _former_drop(n, e):
    objtype = n.objtype
    word = _DROP_WORD_OF.get(id(objtype))
    if word is None:
        word = _DROP_WORDS[objtype]
    ident = n.identity
    if type(ident) is QualifiedName and objtype is not _LARGE_SEQUENCE:
        head = "DROP " + word
        if n.concurrently and objtype is _INDEX:
            head += " CONCURRENTLY"
        if n.if_exists:
            head += " IF EXISTS"
        return [head + " " + _qname(ident) + " CASCADE" if n.cascade else head + " " + _qname(ident)]
    assert ident is not None
    if isinstance(ident, ConstraintIdentity):
        e.diag(pg_objects.I_CONSTRAINT_DROP,
               f"constraint {ident.name} of {ident.table.dotted()} dropped with ALTER TABLE", n.origin)
        return [words("ALTER TABLE", e.qname(ident.table), "DROP CONSTRAINT", "IF EXISTS" if n.if_exists else None,
                      e.ident(ident.name), "CASCADE" if n.cascade else None)]
    if n.objtype is _LARGE_SEQUENCE:
        _large(e, "LARGE SEQUENCE", n.origin)
    word, what = _former_addressed(word, ident, e)
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
    ident = n.identity
    assert ident is not None
    if objtype == "LARGE SEQUENCE":
        e.diag(pg_objects.I_LARGE_WORD, "LARGE SEQUENCE addressed as SEQUENCE", n.origin)
    if type(ident) is QualifiedName:
        text = n.comment
        return ["COMMENT ON " + word + " " + _qname(ident) + (" IS " + e.literal(text) if text else " IS NULL")]
    word, what = _former_addressed(word, ident, e)
    return [words("COMMENT ON", word, what, _is(e, n.comment))]


def _former_alter(e, word, if_exists, name):
    return words("ALTER", word, "IF EXISTS" if if_exists else None, e.qname(name))


def _former_rename_relation(n, e):
    objtype = _kind(n.objtype)
    word = pg_objects._RELATION_WORDS[objtype]
    if objtype == "LARGE SEQUENCE":
        e.diag(pg_objects.I_LARGE_WORD, "LARGE SEQUENCE addressed as SEQUENCE", n.origin)
    return [("ALTER " + word + " IF EXISTS " if n.if_exists else "ALTER " + word + " ") + _qname(n.identity)
            + " RENAME TO " + e.ident(n.new_name)]


def _former_rename_column(n, e):
    word = pg_objects._COLUMN_WORDS[_kind(n.objtype)]
    return [words(_former_alter(e, word, n.if_exists, n.identity), "RENAME COLUMN", e.ident(n.column), "TO",
                  e.ident(n.new_name))]


def _former_rename_attribute(n, e):
    return [words(_former_alter(e, "TYPE", False, n.identity), "RENAME ATTRIBUTE", e.ident(n.attribute), "TO",
                  e.ident(n.new_name), "CASCADE" if n.cascade else None)]


def _former_rename_constraint(n, e):
    return [words(_former_alter(e, "TABLE", False, n.identity), "RENAME CONSTRAINT", e.ident(n.constraint), "TO",
                  e.ident(n.new_name))]


def _former_rename_schema(n, e):
    return [words("ALTER SCHEMA", e.ident(n.identity), "RENAME TO", e.ident(n.new_name))]


def _former_rename_type(n, e):
    return [words(_former_alter(e, "TYPE", False, n.identity), "RENAME TO", e.ident(n.new_name))]


def _former_rename_tables(n, e):
    out = []
    for p in n.pairs:
        old, new = p.old, p.new
        if new.schema is not None and new.schema != old.schema:
            e.diag(pg_objects.I_RENAME_ACROSS, f"{old.dotted()} moved to schema {new.schema} with SET SCHEMA",
                   p.origin)
            out.append(words(_former_alter(e, "TABLE", False, old), "SET SCHEMA", e.ident(new.schema)))
            old = QualifiedName(old.name, new.schema, origin=old.origin)
        if new.name != old.name:
            out.append(words(_former_alter(e, "TABLE", False, old), "RENAME TO", e.ident(new.name)))
    return out


def _former_set_schema(n, e):
    objtype = _kind(n.objtype)
    word = pg_objects._SET_SCHEMA_WORDS[objtype]
    ident = n.identity
    assert isinstance(ident, QualifiedName | FunctionSignature)
    if objtype == "LARGE SEQUENCE":
        e.diag(pg_objects.I_LARGE_WORD, "LARGE SEQUENCE addressed as SEQUENCE", n.origin)
    if type(ident) is QualifiedName:
        return ["ALTER " + word + " " + _qname(ident) + " SET SCHEMA " + e.ident(n.new_schema)]
    word, what = _former_addressed(word, ident, e)
    return [words("ALTER", word, what, "SET SCHEMA", e.ident(n.new_schema))]


_PAIRS = {
    Drop: (_former_drop, pg_objects.drop), Comment: (_former_comment, pg_objects.comment),
    RenameRelation: (_former_rename_relation, pg_objects.rename_relation),
    RenameColumn: (_former_rename_column, pg_objects.rename_column),
    RenameAttribute: (_former_rename_attribute, pg_objects.rename_attribute),
    RenameConstraint: (_former_rename_constraint, pg_objects.rename_constraint),
    RenameSchema: (_former_rename_schema, pg_objects.rename_schema),
    RenameType: (_former_rename_type, pg_objects.rename_type),
    RenameTables: (_former_rename_tables, pg_objects.rename_tables),
    SetSchema: (_former_set_schema, pg_objects.set_schema),
}


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
    seen = set()
    for _label, stmt in STATEMENTS:
        for n in (stmt if isinstance(stmt, tuple | list) else (stmt,)):
            if type(n) in _PAIRS:
                _both(n)
                seen.add(type(n))
    assert len(seen) >= 8, seen


def test_identity_sql_same():
    e = Emit(EmitContext(document="d"), None, {})
    for ident in (SchemaName("Sales"), PlainName("a b"), QualifiedName("t", "s"),
                  TriggerIdentity("Tr", QualifiedName("t", "s")),
                  FunctionSignature(QualifiedName("f", "s"), (TypeName("int4", None, "", False),), False)):
        assert pg_objects.identity_sql(ident, e) == _former_identity_sql(ident, e)


# hostile names: quotes, backslashes, $$, comment marks, newlines, non-ASCII, empty, spacing-rule look-alikes
_HOSTILE = st.sampled_from(['a"b', "a'b", "a\\b", "$$", "a$$b", "--", "a--b", "/*", "*/", "a\nb", "é", "Ab", "",
                            "( ", " )", " ,", ")", ",", "(", "a(", "x\x00y", "select", "user", "_1", "a b"])
_N = st.one_of(_NAMES, _HOSTILE)
_QNAMES = st.builds(QualifiedName, _N, st.one_of(st.none(), _N), st.one_of(st.none(), st.none(), _N))
_TYPES = st.lists(st.builds(TypeName, st.sampled_from(["int4", "varchar", "X", "integer", "a\"b", ""]),
                            st.sampled_from([None, "", "pg_catalog", "S"]), st.sampled_from(["", "(3)"]),
                            st.booleans()), max_size=3).map(tuple)
_IDENTS = st.one_of(
    _QNAMES, _QNAMES, st.none(),
    st.builds(SchemaName, _N), st.builds(PlainName, _N),
    st.builds(FunctionSignature, _QNAMES, _TYPES, st.booleans()),
    st.builds(ConstraintIdentity, _N, _QNAMES),
    st.builds(TriggerIdentity, _N, _QNAMES),
)
_KINDS = st.sampled_from(["table", "TABLE", "index", "sequence", "large  sequence", "view", "schema", "type",
                          "function", "domain", "trigger", "column", "tablespace", "???", "materialized view"])


@settings(max_examples=1500, deadline=None)
@given(st.sampled_from(list(DropObjectType)), _IDENTS, st.booleans(), st.booleans(), st.booleans())
def test_drop_generated(objtype, identity, concurrently, if_exists, cascade):
    _both(Drop(objtype=objtype, identity_text="x", identity=identity, concurrently=concurrently, if_exists=if_exists,
               cascade=cascade))


@settings(max_examples=1500, deadline=None)
@given(_KINDS, _IDENTS, st.one_of(st.none(), st.just(""), st.text(max_size=6), _HOSTILE), st.booleans(),
       st.booleans(), st.one_of(st.none(), _QNAMES))
def test_comment_generated(objtype, identity, text, on_constraint, domain, parent):
    _both(Comment(objtype=objtype, identity_text="x\"y", identity=identity, comment=text,
                  on_constraint=on_constraint, domain=domain, parent=parent))


@settings(max_examples=1500, deadline=None)
@given(_KINDS, _IDENTS, _N, _N, _QNAMES, st.booleans())
def test_rename_and_set_schema_generated(objtype, identity, name, other, qname, flag):
    _both(SetSchema(objtype=objtype, identity_text="x", new_schema=name, identity=identity))
    _both(RenameRelation(objtype=objtype, identity=qname, new_name=name, if_exists=flag))
    _both(RenameColumn(objtype=objtype, identity=qname, column=other, new_name=name, if_exists=flag))
    _both(RenameAttribute(identity=qname, attribute=other, new_name=name, cascade=flag))
    _both(RenameConstraint(identity=qname, constraint=other, new_name=name))
    _both(RenameSchema(identity=other, new_name=name))
    _both(RenameType(identity=qname, new_name=name))


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.tuples(_QNAMES, _QNAMES), max_size=3))
def test_rename_tables_generated(pairs):
    _both(RenameTables(pairs=tuple(RenamePair(old, new) for old, new in pairs)))


# ---- CREATE SCHEMA and the schema rules (misc.py) ----------------------------------------------------------
from ddlc.backends.base import _load_writer  # noqa: E402
from ddlc.backends.postgres import misc as pg_misc  # noqa: E402
from ddlc.backends.postgres.owners import RESERVED_ROLES  # noqa: E402
from ddlc.backends.writer import pg_ident  # noqa: E402
from ddlc.ir.schema import AlterSchemaBlockchain, CreateSchema  # noqa: E402


def _former_create_schema(n, e):
    w = _load_writer()(e.DIALECT).kw("CREATE", "SCHEMA")
    if n.if_not_exists:
        w.kw("IF", "NOT", "EXISTS")
    if not n.name and n.authorization is None:
        from ddlc.errors import DdlcError

        raise DdlcError("CREATE SCHEMA without a name and without AUTHORIZATION", code="DDLC-E007",
                        path=n.origin + ("name",), document=e.ctx.document)
    if n.name:
        w.ident(n.name)
    if n.authorization is not None:
        return [w.kw("AUTHORIZATION").ident(n.authorization).text()]
    e.own(("SCHEMA",), pg_ident(n.name))
    return [w.text()]


_PAIRS[CreateSchema] = (_former_create_schema, pg_misc.create_schema)


def test_create_schema_fixtures():
    seen = 0
    for _label, stmt in STATEMENTS:
        for n in (stmt if isinstance(stmt, tuple | list) else (stmt,)):
            if type(n) is CreateSchema:
                _both(n)
                seen += 1
    assert seen >= 1


_ROLES = st.one_of(st.none(), _N, st.sampled_from(sorted(RESERVED_ROLES)))


@settings(max_examples=1500, deadline=None)
@given(st.one_of(st.none(), _N), st.booleans(), _ROLES, st.booleans())
def test_create_schema_generated(name, if_not_exists, authorization, blockchain):
    _both(CreateSchema(name=name, if_not_exists=if_not_exists, authorization=authorization, blockchain=blockchain))


def _decided(applies, n):
    """What the pass decides from a predicate and its ``needs``: false when one of those fields is false."""
    return bool(all(getattr(n, f) for f in getattr(applies, "needs", ())) and applies(n))


@settings(max_examples=1000, deadline=None)
@given(st.one_of(st.none(), _N), _ROLES, st.booleans())
def test_schema_rules_same(name, authorization, flag):
    n = CreateSchema(name=name, authorization=authorization, blockchain=flag)
    assert _decided(pg_misc._reserved_authorization, n) == bool(n.authorization in RESERVED_ROLES)
    assert _decided(pg_misc._blockchain, n) == bool(n.blockchain)
    a = AlterSchemaBlockchain(name=name or "s", with_=flag)
    assert _decided(pg_misc._with_blockchain, a) == bool(a.with_)
    rules = {r.applies for r in pg_misc.UNSUPPORTED}
    assert {pg_misc._reserved_authorization, pg_misc._blockchain, pg_misc._with_blockchain} <= rules


# ---- writer.paren_items: the one parenthesised list written at once ----------------------------------------
from ddlc.backends import writer as pg_writer  # noqa: E402
from ddlc.backends.postgres import partitions as pg_partitions  # noqa: E402
from ddlc.backends.postgres import routines as pg_routines  # noqa: E402
from ddlc.backends.writer import SqlWriter  # noqa: E402

_ITEMS = st.one_of(_HOSTILE, st.sampled_from(["", ",", ")", ")x", "(", "a(", "( a", "a )", " ,", "MINVALUE", "'x'",
                                               "E'a\\b'", "$$x$$", "-- c", "/* c */", "\n", "1", "x, y"]),
                   st.text(max_size=4))


@settings(max_examples=3000, deadline=None)
@given(st.lists(_ITEMS, max_size=6), st.booleans())
def test_paren_items_is_the_writers(items, as_tuple):
    want = SqlWriter().paren_list(items, SqlWriter.raw).text()
    assert pg_writer.paren_items(tuple(items) if as_tuple else list(items)) == want
    assert pg_writer.paren_items(iter(items)) == want


def test_paren_items_one_helper():
    assert pg_routines._paren is pg_writer.paren_items
    assert pg_partitions._listed is pg_writer.paren_items
    assert pg_objects._paren_list is pg_writer.paren_items
