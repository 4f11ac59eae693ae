"""PostgreSQL emitters: DROP, COMMENT ON, RENAME (every form) and ALTER ... SET SCHEMA.

CREATE INDEX, CREATE/ALTER SEQUENCE and CREATE VIEW live in :mod:`.objects_more` (imported at the
end of this module, so the family is one import).

Decisions (each checked on a PostgreSQL 15 server by the goldens):

* Object identities were parsed by the builders; names are written from that structure through
  PostgreSQL's quoting, never from the GaussDB text.
* Functions are addressed as ``ROUTINE`` in COMMENT and SET SCHEMA and DROP: GaussDB reports a
  procedure's COMMENT / SET SCHEMA under the word FUNCTION, and PostgreSQL refuses
  ``ALTER FUNCTION`` on a procedure (``... is not a function``) while ``ROUTINE`` takes both.
  A zero-argument aggregate (``agg(*)``) is addressed as ``AGGREGATE``.
* Argument types are the server's ``format_type_be`` spellings: SQL-standard words are written as
  they came, GaussDB-only type names go through the type map (the function was created with it).
* The defective table-constraint DROP (``DROP index s.con on s.tbl``, reference §10.18) is the
  B-compatibility ``DROP INDEX uk ON t`` of a constraint's index: replayed as
  ``ALTER TABLE s.tbl DROP CONSTRAINT con``.
* ``LARGE SEQUENCE`` is an ordinary sequence on PostgreSQL (DROP, COMMENT, RENAME, SET SCHEMA).
* B-compatible ``RENAME TABLE a TO b, c TO d`` becomes one ``ALTER TABLE a RENAME TO b`` per pair,
  in order (MySQL renames left to right, so swaps through a temporary name keep working); a pair
  that moves the table to another schema becomes ``ALTER TABLE a SET SCHEMA s2`` and then, when the
  name changes too, ``ALTER TABLE s2.a RENAME TO b``.
* ``DROP INDEX CONCURRENTLY ... CASCADE``, which PostgreSQL refuses, loses CONCURRENTLY (a rule of
  ``UNSUPPORTED``, like every clause removal of this family).
* Statements naming an object kind PostgreSQL cannot address that way (``???``, RENAME COLUMN of
  an index, SET SCHEMA of an index, a tablespace comment), or whose identity was not read, are
  refused by rules of ``UNSUPPORTED`` (a W code, nothing emitted); ``--on-unsupported comment``
  keeps their GaussDB text as a comment.
"""

from __future__ import annotations

from ...diagnostics import Severity, register
from ...errors import Path
from ...ir.base import replace
from ...ir.comment import Comment
from ...ir.drop import (
    ConstraintIdentity, Drop, DropObjectType, FunctionSignature, Identity, PlainName, SchemaName,
    TriggerIdentity,
)
from ...ir.names import QualifiedName, TypeName
from ...ir.rename import (
    RenameAttribute, RenameColumn, RenameConstraint, RenameRelation, RenameSchema, RenameTables,
    RenameType, SetSchema,
)
from ...ir.rules import Rule
from ..writer import paren_items
from .context import Emit, emits
from .types import TYPE_MAP

# ---- diagnostic codes (the family's range: W650..W689, N650..N689, I650..I689) ----------------
W_NO_IDENTITY = register(
    "DDLC-W650", Severity.WARNING, "Object identity not readable: statement not translated",
    "The object identity of a DROP, COMMENT or SET SCHEMA (or the table of COMMENT ON CONSTRAINT) "
    "could not be parsed (see DDLC-N301), so ddlc cannot write it with PostgreSQL's quoting. Nothing "
    "is emitted; with --on-unsupported comment the GaussDB text is kept as a comment.",
    '{"objtype": "function", "objidentity": "public.add1"}',
)
W_NO_FORM = register(
    "DDLC-W651", Severity.WARNING, "Object kind has no PostgreSQL form for this statement",
    "The statement names an object kind PostgreSQL cannot address this way: the server's `???` "
    "object type (materialized views, aggregates, operators...: reference §10.16), a DROP of an "
    "unmodelled object type, RENAME COLUMN of an index or a sequence, SET SCHEMA of an index (an index "
    "always lives in its table's schema). Nothing is emitted; with --on-unsupported comment the "
    "GaussDB text is kept as a comment.",
    "COMMENT ON ??? public.mv IS 'x'",
)
W_CONCURRENT_CASCADE = register(
    "DDLC-W652", Severity.WARNING, "DROP INDEX CONCURRENTLY with CASCADE: CONCURRENTLY dropped",
    "PostgreSQL refuses `DROP INDEX CONCURRENTLY ... CASCADE`. The index is dropped with CASCADE, "
    "taking the stronger lock a plain DROP INDEX takes.",
    "DROP index CONCURRENTLY public.i CASCADE",
)
W_TABLESPACE_COMMENT = register(
    "DDLC-W653", Severity.WARNING, "COMMENT ON TABLESPACE not translated",
    "Tablespaces are not replicated (CREATE TABLESPACE is not decoded and ddlc removes TABLESPACE "
    "clauses for PostgreSQL), so a comment on one would name an object the target does not have. "
    "Nothing is emitted; with --on-unsupported comment the GaussDB text is kept as a comment.",
    "COMMENT ON TABLESPACE ts1 IS 'fast disks'",
)
I_CONSTRAINT_DROP = register(
    "DDLC-I650", Severity.INFO, "Table-constraint DROP written as ALTER TABLE ... DROP CONSTRAINT",
    "The server writes the drop of a table constraint (the B-compatibility `DROP INDEX uk ON t` of a "
    "constraint's index) as `DROP index <schema>.<constraint> on <schema>.<table>` (reference §10.18, "
    "DDLC-W301). ddlc read the constraint and its table from it; PostgreSQL gets `ALTER TABLE "
    "<schema>.<table> DROP CONSTRAINT <constraint>` (IF EXISTS and CASCADE carried over).",
    "DROP index public.t_uk on public.t -> ALTER TABLE public.t DROP CONSTRAINT t_uk",
)
I_LARGE_WORD = register(
    "DDLC-I651", Severity.INFO, "LARGE SEQUENCE addressed as SEQUENCE",
    "PostgreSQL has no large sequences; a GaussDB LARGE SEQUENCE becomes an ordinary (bigint) sequence "
    "(DDLC-W665), so DROP, COMMENT, RENAME and SET SCHEMA address it as SEQUENCE.",
    "DROP large sequence public.big -> DROP SEQUENCE public.big",
)
I_RENAME_ACROSS = register(
    "DDLC-I652", Severity.INFO, "RENAME TABLE into another schema written as SET SCHEMA, then RENAME",
    "A B-compatibility `RENAME TABLE s1.a TO s2.b` moves the table to another schema. PostgreSQL's "
    "RENAME TO cannot change the schema: ddlc writes `ALTER TABLE s1.a SET SCHEMA s2` and then, when the "
    "name changes too, `ALTER TABLE s2.a RENAME TO b`.",
    "RENAME TABLE db1.a TO db2.b",
)


# ---- shared helpers ---------------------------------------------------------------------------
def arg_type(t: TypeName, e: Emit) -> str:
    """An argument type of a function identity (``format_type_be`` spelling) for PostgreSQL."""
    suffix = "[]" if t.array else ""
    if t.schema == "":  # an SQL-standard spelling such as integer, character varying(10), tinyint
        word = t.name.lower()
        if word in TYPE_MAP and TYPE_MAP[word][2] is not None:  # a GaussDB-only name
            return e.type(replace(t, name=word, schema="pg_catalog"))
        return t.name + t.typmod + suffix
    if t.schema is None:  # a quoted name such as "char" or "MyType": never a GaussDB type alias
        return e.ident(t.name) + t.typmod + suffix
    return e.type(t)


def routine(f: FunctionSignature, e: Emit) -> tuple[str, str]:
    """(object word, ``name(args)``) of a function identity."""
    if f.star:
        return "AGGREGATE", e.qname(f.name) + "(*)"  # (the writer's spacing of "(", "*", ")")
    # name(args): one token, no space before the list
    return "ROUTINE", e.qname(f.name) + _paren_list([arg_type(t, e) for t in f.args])


_paren_list = paren_items  # (``(a, b)``: the writer's paren_list of ``args`` as raw tokens)


def _addressed(word: str, ident: Identity, e: Emit) -> tuple[str, str]:
    """(object word, identity text): a function identity decides its own word."""
    if isinstance(ident, FunctionSignature):
        return routine(ident, e)
    return word, identity_sql(ident, e)


def identity_sql(ident: Identity, e: Emit) -> str:
    if isinstance(ident, QualifiedName):
        return e.qname(ident)
    if isinstance(ident, _NAMES):
        return e.ident(ident.name)
    if isinstance(ident, FunctionSignature):
        return routine(ident, e)[1]
    if isinstance(ident, TriggerIdentity):  # (words' spacing: a quoted name is never empty, "," or ")...")
        name = e.ident(ident.name)
        return name + " ON " + e.qname(ident.table)
    raise TypeError(f"postgres: no identity form for {type(ident).__name__}")


_NAMES = (SchemaName, PlainName)  # (a tuple made once: ``A | B`` makes a union object at every test)


def _kind(objtype: str) -> str:
    """An object type as the server wrote it (``large  sequence``), normalized: ``LARGE SEQUENCE``."""
    out = _KINDS.get(objtype)
    if out is None:
        out = " ".join(objtype.split()).upper()
        if len(_KINDS) < 256:  # (the rules and the emitter ask it of each statement, several times)
            _KINDS[objtype] = out
    return out


_KINDS: dict[str, str] = {}


def _large(e: Emit, objtype: str, path: Path) -> None:
    if " ".join(objtype.split()).upper() == "LARGE SEQUENCE":
        e.diag(I_LARGE_WORD, "LARGE SEQUENCE addressed as SEQUENCE", path)


# ---- DROP -------------------------------------------------------------------------------------
_DROP_WORDS = {
    DropObjectType.TABLE: "TABLE", DropObjectType.INDEX: "INDEX", DropObjectType.TYPE: "TYPE",
    DropObjectType.SCHEMA: "SCHEMA", DropObjectType.SEQUENCE: "SEQUENCE", DropObjectType.VIEW: "VIEW",
    DropObjectType.FUNCTION: "ROUTINE", DropObjectType.TRIGGER: "TRIGGER",
    DropObjectType.LARGE_SEQUENCE: "SEQUENCE",
}
_LARGE_SEQUENCE, _INDEX = DropObjectType.LARGE_SEQUENCE, DropObjectType.INDEX  # (an enum member as a global: read
# once, not through the enum class per statement)


# The forms below are written at once, as words() spaces their tokens: a quoted name starts with neither
# "," nor ")" and ends with no "(", and none is empty (an empty name is an error of the quoting); nor does an
# identity text (identity_sql, routine: a quoted name first, its argument list after it). Each name is quoted
# in the order words() was handed them, so the first bad name is still the error.
_DROP_WORD_OF = {id(k): v for k, v in _DROP_WORDS.items()}  # (an enum member's hash is a Python call: by identity)
_qname = Emit.qname


@emits(Drop)
def drop(n: Drop, e: Emit) -> list[str]:
    objtype = n.objtype
    word = _DROP_WORD_OF.get(id(objtype))
    if word is None:
        word = _DROP_WORDS[objtype]  # other object types, and identities not read: refused by a rule
    ident = n.identity
    if type(ident) is QualifiedName and objtype is not _LARGE_SEQUENCE:
        head = "DROP " + word
        if n.concurrently and objtype is _INDEX:
            head += " CONCURRENTLY"
        if n.if_exists:
            head += " IF EXISTS"
        return [head + " " + _qname(ident) + " CASCADE" if n.cascade else head + " " + _qname(ident)]
    return _drop(n, e, word, ident)


def _drop(n: Drop, e: Emit, word: str, ident: Identity | None) -> list[str]:
    assert ident is not None
    if isinstance(ident, ConstraintIdentity):
        e.diag(I_CONSTRAINT_DROP, f"constraint {ident.name} of {ident.table.dotted()} dropped with ALTER TABLE",
               n.origin)
        table = e.qname(ident.table)
        text = ("ALTER TABLE " + table + " DROP CONSTRAINT IF EXISTS " if n.if_exists
                else "ALTER TABLE " + table + " DROP CONSTRAINT ") + e.ident(ident.name)
        return [text + " CASCADE" if n.cascade else text]
    if n.objtype is _LARGE_SEQUENCE:
        _large(e, "LARGE SEQUENCE", n.origin)
    word, what = _addressed(word, ident, e)
    head = "DROP " + word
    if n.concurrently and n.objtype is _INDEX:
        head += " CONCURRENTLY"
    if n.if_exists:
        head += " IF EXISTS"
    return [head + " " + what + " CASCADE" if n.cascade else head + " " + what]


# ---- COMMENT ON -------------------------------------------------------------------------------
_COMMENT_WORDS = {
    "TABLE": "TABLE", "COLUMN": "COLUMN", "INDEX": "INDEX", "SEQUENCE": "SEQUENCE",
    "LARGE SEQUENCE": "SEQUENCE", "VIEW": "VIEW", "SCHEMA": "SCHEMA", "TYPE": "TYPE",
    "DOMAIN": "DOMAIN", "FUNCTION": "ROUTINE", "TRIGGER": "TRIGGER",
}


def _is(e: Emit, comment: str | None) -> str:
    """``IS 'text'`` / ``IS NULL`` (the server's empty-literal defect means the same as NULL)."""
    return "IS " + e.literal(comment) if comment else "IS NULL"


@emits(Comment)
def comment(n: Comment, e: Emit) -> list[str]:
    if n.on_constraint:
        assert n.parent is not None  # a parent not read: refused by a rule
        name = n.identity.name if isinstance(n.identity, PlainName) else n.identity_text
        name = e.ident(name)
        parent = e.qname(n.parent)
        return [("COMMENT ON CONSTRAINT " + name + " ON DOMAIN " if n.domain else "COMMENT ON CONSTRAINT " + name
                 + " ON ") + parent + " " + _is(e, n.comment)]
    objtype = _kind(n.objtype)
    word = _COMMENT_WORDS[objtype]  # tablespaces, unknown kinds, identities not read: refused by rules
    ident = n.identity
    assert ident is not None
    if objtype == "LARGE SEQUENCE":  # (_large's test: objtype is normalized already)
        e.diag(I_LARGE_WORD, "LARGE SEQUENCE addressed as SEQUENCE", n.origin)
    if type(ident) is QualifiedName:  # (written at once: see DROP)
        text = n.comment
        return ["COMMENT ON " + word + " " + _qname(ident) + (" IS " + e.literal(text) if text else " IS NULL")]
    word, what = _addressed(word, ident, e)
    return ["COMMENT ON " + word + " " + what + " " + _is(e, n.comment)]


# ---- RENAME -----------------------------------------------------------------------------------
_RELATION_WORDS = {"TABLE": "TABLE", "INDEX": "INDEX", "SEQUENCE": "SEQUENCE", "LARGE SEQUENCE": "SEQUENCE",
                   "VIEW": "VIEW"}
_COLUMN_WORDS = {"TABLE": "TABLE", "VIEW": "VIEW"}


def _alter(e: Emit, word: str, if_exists: bool, name: QualifiedName) -> str:
    """``ALTER <word> [IF EXISTS] <name>``: the head of a RENAME or SET SCHEMA (written at once: see DROP)."""
    return ("ALTER " + word + " IF EXISTS " if if_exists else "ALTER " + word + " ") + _qname(name)


@emits(RenameRelation)
def rename_relation(n: RenameRelation, e: Emit) -> list[str]:
    objtype = _kind(n.objtype)
    word = _RELATION_WORDS[objtype]  # other kinds: refused by a rule
    if objtype == "LARGE SEQUENCE":  # (_large's test: objtype is normalized already)
        e.diag(I_LARGE_WORD, "LARGE SEQUENCE addressed as SEQUENCE", n.origin)
    # (written at once: see DROP)
    return [("ALTER " + word + " IF EXISTS " if n.if_exists else "ALTER " + word + " ") + _qname(n.identity)
            + " RENAME TO " + e.ident(n.new_name)]


@emits(RenameColumn)
def rename_column(n: RenameColumn, e: Emit) -> list[str]:
    word = _COLUMN_WORDS[_kind(n.objtype)]  # other kinds: refused by a rule
    head = _alter(e, word, n.if_exists, n.identity)  # (written at once: see DROP)
    column = e.ident(n.column)
    return [head + " RENAME COLUMN " + column + " TO " + e.ident(n.new_name)]


@emits(RenameAttribute)
def rename_attribute(n: RenameAttribute, e: Emit) -> list[str]:
    head = "ALTER TYPE " + _qname(n.identity)  # (written at once: see DROP)
    attribute = e.ident(n.attribute)
    text = head + " RENAME ATTRIBUTE " + attribute + " TO " + e.ident(n.new_name)
    return [text + " CASCADE" if n.cascade else text]


@emits(RenameConstraint)
def rename_constraint(n: RenameConstraint, e: Emit) -> list[str]:
    head = "ALTER TABLE " + _qname(n.identity)  # (written at once: see DROP)
    constraint = e.ident(n.constraint)
    return [head + " RENAME CONSTRAINT " + constraint + " TO " + e.ident(n.new_name)]


@emits(RenameSchema)
def rename_schema(n: RenameSchema, e: Emit) -> list[str]:
    name = e.ident(n.identity)  # (written at once: see DROP)
    return ["ALTER SCHEMA " + name + " RENAME TO " + e.ident(n.new_name)]


@emits(RenameType)
def rename_type(n: RenameType, e: Emit) -> list[str]:
    head = "ALTER TYPE " + _qname(n.identity)  # (written at once: see DROP)
    return [head + " RENAME TO " + e.ident(n.new_name)]


@emits(RenameTables)
def rename_tables(n: RenameTables, e: Emit) -> list[str]:
    out: list[str] = []
    for p in n.pairs:
        old, new = p.old, p.new
        if new.schema is not None and new.schema != old.schema:
            e.diag(I_RENAME_ACROSS, f"{old.dotted()} moved to schema {new.schema} with SET SCHEMA", p.origin)
            head = "ALTER TABLE " + _qname(old)  # (written at once: see DROP)
            out.append(head + " SET SCHEMA " + e.ident(new.schema))
            old = QualifiedName(old.name, new.schema, origin=old.origin)
        if new.name != old.name:
            head = "ALTER TABLE " + _qname(old)
            out.append(head + " RENAME TO " + e.ident(new.name))
    return out


# ---- ALTER ... SET SCHEMA ---------------------------------------------------------------------
_SET_SCHEMA_WORDS = {"TABLE": "TABLE", "SEQUENCE": "SEQUENCE", "LARGE SEQUENCE": "SEQUENCE", "VIEW": "VIEW",
                     "FUNCTION": "ROUTINE", "TYPE": "TYPE", "DOMAIN": "DOMAIN"}


@emits(SetSchema)
def set_schema(n: SetSchema, e: Emit) -> list[str]:
    objtype = _kind(n.objtype)
    word = _SET_SCHEMA_WORDS[objtype]  # other kinds, identities not read: refused by rules
    ident = n.identity
    assert isinstance(ident, QualifiedName | FunctionSignature)
    if objtype == "LARGE SEQUENCE":  # (_large's test: objtype is normalized already)
        e.diag(I_LARGE_WORD, "LARGE SEQUENCE addressed as SEQUENCE", n.origin)
    if type(ident) is QualifiedName:  # (written at once: see DROP)
        return ["ALTER " + word + " " + _qname(ident) + " SET SCHEMA " + e.ident(n.new_schema)]
    word, what = _addressed(word, ident, e)
    return ["ALTER " + word + " " + what + " SET SCHEMA " + e.ident(n.new_schema)]


# ---- what PostgreSQL cannot take (the drop_unsupported pass applies these) --------------------
def _no_comment_form(n: Comment) -> bool:
    return not n.on_constraint and _kind(n.objtype) != "TABLESPACE" and _kind(n.objtype) not in _COMMENT_WORDS


UNSUPPORTED = (
    Rule(Drop, W_CONCURRENT_CASCADE, "PostgreSQL refuses DROP INDEX CONCURRENTLY with CASCADE; CONCURRENTLY "
         "dropped", applies=lambda n: n.concurrently and n.cascade, field="concurrently", absent=False),
    # statements naming an object kind PostgreSQL cannot address that way, or an identity not read
    # (each rule drops the statement; in this order, the first that applies says why)
    Rule(Drop, W_NO_FORM, lambda n: f"DROP {n.objtype_text or n.objtype.value} has no PostgreSQL translation",
         applies=lambda n: n.objtype not in _DROP_WORDS, last=True),
    Rule(Drop, W_NO_IDENTITY, lambda n: f"DROP {n.objtype.value}: identity {n.identity_text!r} not read; "
         "not translated", applies=lambda n: n.objtype in _DROP_WORDS and n.identity is None, last=True),
    Rule(Comment, W_NO_IDENTITY, lambda n: f"COMMENT ON CONSTRAINT: parent {n.parent_text!r} not read; "
         "not translated", applies=lambda n: n.on_constraint and n.parent is None, last=True),
    Rule(Comment, W_TABLESPACE_COMMENT, "tablespaces are not replicated; COMMENT ON TABLESPACE not translated",
         applies=lambda n: not n.on_constraint and _kind(n.objtype) == "TABLESPACE", last=True),
    Rule(Comment, W_NO_FORM, lambda n: f"COMMENT ON {n.objtype}: object kind unknown; not translated",
         applies=_no_comment_form, last=True),
    Rule(Comment, W_NO_IDENTITY, lambda n: f"COMMENT ON {n.objtype}: identity {n.identity_text!r} not read; "
         "not translated", applies=lambda n: not n.on_constraint and _kind(n.objtype) in _COMMENT_WORDS
         and n.identity is None, last=True),
    Rule(RenameRelation, W_NO_FORM, lambda n: f"ALTER {n.objtype} ... RENAME TO: object kind unknown; "
         "not translated", applies=lambda n: _kind(n.objtype) not in _RELATION_WORDS, last=True),
    Rule(RenameColumn, W_NO_FORM, lambda n: f"ALTER {n.objtype} ... RENAME COLUMN has no PostgreSQL form; "
         "not translated", applies=lambda n: _kind(n.objtype) not in _COLUMN_WORDS, last=True),
    Rule(SetSchema, W_NO_FORM, lambda n: f"ALTER {n.objtype} ... SET SCHEMA has no PostgreSQL form; "
         "not translated", applies=lambda n: _kind(n.objtype) not in _SET_SCHEMA_WORDS, last=True),
    Rule(SetSchema, W_NO_IDENTITY, lambda n: f"ALTER {n.objtype} ... SET SCHEMA: identity {n.identity_text!r} "
         "not read; not translated", applies=lambda n: _kind(n.objtype) in _SET_SCHEMA_WORDS
         and not isinstance(n.identity, QualifiedName | FunctionSignature), last=True),
)

__all__ = ["UNSUPPORTED", "arg_type", "identity_sql", "routine"]
