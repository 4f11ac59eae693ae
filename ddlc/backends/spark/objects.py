"""Spark emitters: DROP, COMMENT ON, RENAME, CREATE VIEW, CREATE SCHEMA, TRUNCATE, the UPDATE
back-fill, and what Spark has no object for.

Decisions (reasons in docs/spark-mapping.md):

* Spark and Delta have tables, views and schemas. Every other object GaussDB decodes (indexes,
  sequences, functions, procedures, triggers, packages, materialized views, user-defined types,
  events, databases, publications, grants) is refused with DDLC-W830 (the whole statement) or
  by a rule on the statement kinds that also name tables (DROP, COMMENT, RENAME).
* ``RENAME TO`` keeps the table in its schema (Spark cannot move a table to another schema,
  so ALTER ... SET SCHEMA and RENAME TABLE across schemas are refused); the new name is written
  ``schema.name``, which the session catalog and Unity Catalog both read that way.
* ``COMMENT ON VIEW`` is ``ALTER VIEW ... SET TBLPROPERTIES ('comment' = ...)``: Spark's COMMENT ON
  addresses tables, schemas and catalogs only.
* ``TRUNCATE`` is ``TRUNCATE TABLE`` per table (Delta runs it as a delete of every row).
"""

from __future__ import annotations

from ...diagnostics import Severity, register
from ...ir.comment import Comment
from ...ir.drop import ConstraintIdentity, Drop, DropObjectType, QualifiedName, SchemaName
from ...ir.event import AlterEvent, CreateEvent, DropEvent, NewPub
from ...ir.followup import AutoIncrementBackfill, BackfillUpdate
from ...ir.index import CreateIndex
from ...ir.misc import (
    AlterDatabase, AlterMatView, CreateDatabase, CreateMatView, DropDatabase, DropMatView,
    DropRoutine, Grant, GrantRole, Package, RefreshMatView, Reindex, Truncate,
)
from ...ir.base import replace
from ...ir.rename import (
    RenameAttribute, RenameColumn, RenameConstraint, RenamePair, RenameRelation, RenameSchema, RenameTables,
    RenameType, SetSchema,
)
from ...ir.routine import AlterFunction, CreateFunction
from ...ir.rules import Refusal, Rule
from ...ir.schema import AlterSchemaBlockchain, AlterSchemaCharset, CreateSchema
from ...ir.sequence import AlterSequence, CreateSequence, Persistence
from ...ir.statement import Opaque
from ...ir.trigger import CreateTrigger
from ...ir.typedef import CreateCompositeType, CreateEnumType
from ...ir.view import CreateView
from .context import Emit, emits
from .dependent_views import views_after_renames, views_after_view_column_rename

W_NO_OBJECT = register(
    "DDLC-W830", Severity.WARNING, "Object kind Spark does not have",
    "Spark SQL and Delta Lake have catalogs, schemas, tables and views only. Statements on indexes, "
    "sequences, functions, procedures, triggers, packages, materialized views, user-defined types, "
    "events, databases, publications, roles and privileges have nothing to act on and are not "
    "translated (the document fails unless --on-unsupported comment or skip).",
    "CREATE INDEX i ON t (a)",
)
W_NO_FORM = register(
    "DDLC-W831", Severity.WARNING, "Statement form Spark does not have",
    "The statement acts on a table, view or schema in a way Spark SQL cannot express: moving a table "
    "to another schema (SET SCHEMA, RENAME TABLE across schemas), renaming a schema or a constraint, "
    "renaming the column of a view whose query the stream's history does not hold (Spark has no ALTER VIEW ... "
    "RENAME COLUMN; ddlc creates a view it holds again, DDLC-I844), a comment on a constraint, an object "
    "identity that could not be read. "
    "Nothing is emitted.",
    "ALTER TABLE public.t SET SCHEMA archive",
)
W_NO_COLUMN_MAPPING = register(
    "DDLC-W833", Severity.WARNING, "RENAME or DROP COLUMN without column mapping",
    "With --spark-column-mapping none, tables are created without Delta column mapping, and Delta refuses "
    "RENAME COLUMN and DROP COLUMN on them. The statement is written; enable column mapping on the table "
    "first (ALTER TABLE ... SET TBLPROPERTIES ('delta.columnMapping.mode' = 'name')).",
)
W_CLAUSE = register(
    "DDLC-W832", Severity.WARNING, "Statement clause Spark does not have",
    "A clause with no Spark form is dropped: CASCADE of DROP TABLE / DROP VIEW (Spark keeps dependent "
    "views, which then fail when read), IF EXISTS of ALTER TABLE / ALTER VIEW, RESTART IDENTITY and "
    "CASCADE of TRUNCATE, AUTHORIZATION and WITH BLOCKCHAIN of CREATE SCHEMA, TEMPORARY views.",
    "DROP TABLE public.t CASCADE",
)
N_NOT_YET = register(
    "DDLC-N830", Severity.NOTE, "Statement not translated to Spark yet",
    "ddlc does not translate this statement kind to Spark yet (the support matrix marks such kinds). "
    "CREATE TABLE AS and SELECT INTO, once reported with this code, are translated since (DDLC-I003).",
)
I_BACKFILL = register(
    "DDLC-I830", Severity.INFO, "UPDATE back-fill emitted for Delta",
    "The UPDATE ... WHERE c IS NULL message that follows an ADD COLUMN with a non-constant default is "
    "emitted as an UPDATE of the Delta table, so existing rows get the value GaussDB gave them.",
)
W_OWNER = register(
    "DDLC-W834", Severity.WARNING, "Owner not written (--owners)",
    "`--owners` gives each created object the role that ran the statement (`ALTER ... OWNER TO`, README "
    "\"Owners\"); Spark SQL tables, views and schemas have no owner to set (Spark 4's grammar has no OWNER TO "
    "and no AUTHORIZATION), so nothing is written.",
    "CREATE TABLE public.t (a int) with myowner alice and --owners --to spark",
)
I_SCHEMA_OWNER = register(
    "DDLC-I831", Severity.INFO, "Schema named after its owner",
    "CREATE SCHEMA AUTHORIZATION role names the schema after the role; Spark's CREATE SCHEMA takes the "
    "name (schemas have no owner in Spark SQL).",
)

_ABSENT = "Spark SQL / Delta Lake has no "
REFUSED = {
    CreateIndex: Refusal(W_NO_OBJECT, _ABSENT + "indexes"),
    Reindex: Refusal(W_NO_OBJECT, _ABSENT + "indexes"),
    CreateSequence: Refusal(W_NO_OBJECT, _ABSENT + "sequences"),
    AlterSequence: Refusal(W_NO_OBJECT, _ABSENT + "sequences"),
    CreateFunction: Refusal(W_NO_OBJECT, _ABSENT + "SQL-defined functions or procedures from PL/pgSQL"),
    AlterFunction: Refusal(W_NO_OBJECT, _ABSENT + "SQL-defined functions or procedures from PL/pgSQL"),
    DropRoutine: Refusal(W_NO_OBJECT, _ABSENT + "SQL-defined functions or procedures from PL/pgSQL"),
    CreateTrigger: Refusal(W_NO_OBJECT, _ABSENT + "triggers"),
    Package: Refusal(W_NO_OBJECT, _ABSENT + "packages"),
    CreateMatView: Refusal(W_NO_OBJECT, _ABSENT + "materialized views"),
    AlterMatView: Refusal(W_NO_OBJECT, _ABSENT + "materialized views"),
    DropMatView: Refusal(W_NO_OBJECT, _ABSENT + "materialized views"),
    RefreshMatView: Refusal(W_NO_OBJECT, _ABSENT + "materialized views"),
    CreateCompositeType: Refusal(W_NO_OBJECT, _ABSENT + "user-defined types"),
    CreateEnumType: Refusal(W_NO_OBJECT, _ABSENT + "user-defined types"),
    RenameType: Refusal(W_NO_OBJECT, _ABSENT + "user-defined types"),
    RenameAttribute: Refusal(W_NO_OBJECT, _ABSENT + "user-defined types"),
    CreateEvent: Refusal(W_NO_OBJECT, _ABSENT + "events"),
    AlterEvent: Refusal(W_NO_OBJECT, _ABSENT + "events"),
    DropEvent: Refusal(W_NO_OBJECT, _ABSENT + "events"),
    CreateDatabase: Refusal(W_NO_OBJECT, _ABSENT + "GaussDB databases (a database is a catalog, set by --spark-catalog)"),
    AlterDatabase: Refusal(W_NO_OBJECT, _ABSENT + "GaussDB databases (a database is a catalog, set by --spark-catalog)"),
    DropDatabase: Refusal(W_NO_OBJECT, _ABSENT + "GaussDB databases (a database is a catalog, set by --spark-catalog)"),
    Grant: Refusal(W_NO_OBJECT, _ABSENT + "GaussDB roles and privileges"),
    GrantRole: Refusal(W_NO_OBJECT, _ABSENT + "GaussDB roles and privileges"),
    AlterSchemaCharset: Refusal(W_NO_OBJECT, _ABSENT + "schema character sets or collations"),
    AlterSchemaBlockchain: Refusal(W_NO_OBJECT, _ABSENT + "ledger (blockchain) schemas"),
    AutoIncrementBackfill: Refusal(W_NO_OBJECT, _ABSENT + "sequences (the identity column numbers new rows itself)"),
    RenameSchema: Refusal(W_NO_FORM, "Spark cannot rename a schema"),
    RenameConstraint: Refusal(W_NO_FORM, "Spark cannot rename a constraint"),
    SetSchema: Refusal(W_NO_FORM, "Spark cannot move an object to another schema"),
}

_WORD = {"TABLE": "TABLE", "VIEW": "VIEW"}
_DROP_WORD = {DropObjectType.TABLE: "TABLE", DropObjectType.VIEW: "VIEW", DropObjectType.SCHEMA: "SCHEMA"}
_COMMENT_KINDS = ("TABLE", "COLUMN", "VIEW", "SCHEMA")


def _word(objtype: str) -> str:
    return " ".join(objtype.split()).upper()


def _drop_kept(n: Drop) -> bool:
    return n.objtype in _DROP_WORD or isinstance(n.identity, ConstraintIdentity)


def _drop_unread(n: Drop) -> bool:
    """The identity of a DROP Spark can address was not read (none, or of a shape the emitter cannot name)."""
    return not isinstance(n.identity, ConstraintIdentity | SchemaName | QualifiedName)


def _comment_unread(n: Comment) -> bool:
    """The identity of a COMMENT ON was not read as what its kind names (a schema, or a qualified name)."""
    ident = n.identity
    return not ((_word(n.objtype) == "SCHEMA" and isinstance(ident, SchemaName)) or isinstance(ident, QualifiedName))


def _cross_schema(p: RenamePair) -> bool:
    return p.new.schema is not None and p.new.schema != p.old.schema


UNSUPPORTED = (
    Rule(Drop, W_NO_OBJECT, "DROP of an object kind Spark does not have", applies=lambda n: not _drop_kept(n)),
    Rule(Drop, W_CLAUSE, "CASCADE dropped (Spark keeps dependent views)",
         applies=lambda n: n.cascade and n.objtype in (DropObjectType.TABLE, DropObjectType.VIEW),
         field="cascade", absent=False),
    Rule(Drop, W_NO_FORM, lambda n: f"DROP {n.objtype.value}: identity {n.identity_text!r} not read",
         applies=_drop_unread, last=True),
    Rule(Comment, W_NO_OBJECT, "COMMENT ON an object kind Spark does not have",
         applies=lambda n: not n.on_constraint and _word(n.objtype) not in _COMMENT_KINDS),
    Rule(Comment, W_NO_FORM, "Spark has no comments on constraints", applies=lambda n: n.on_constraint),
    Rule(Comment, W_NO_FORM, lambda n: f"COMMENT ON {n.objtype}: identity {n.identity_text!r} not read",
         applies=_comment_unread, last=True),
    Rule(RenameRelation, W_NO_OBJECT, "RENAME of an object kind Spark does not have",
         applies=lambda n: _word(n.objtype) not in _WORD),
    Rule(RenameRelation, W_CLAUSE, "IF EXISTS dropped (Spark's ALTER has none)", applies=lambda n: n.if_exists,
         field="if_exists", absent=False),
    # a view's column: the emitter (the history holds the view, or not)
    Rule(RenameColumn, W_NO_FORM, "Spark renames table and view columns only",
         applies=lambda n: _word(n.objtype) not in _WORD),
    Rule(RenameColumn, W_CLAUSE, "IF EXISTS dropped (Spark's ALTER has none)",
         applies=lambda n: n.if_exists and _word(n.objtype) == "TABLE", field="if_exists", absent=False),
    # TRUNCATE's two keep a hand-written text: GaussDB writes the statement as its text (ir.misc.TEXT_NODES), which
    # the rules leave as it is, so the clause never leaves the GaussDB text and no difference can show it.
    Rule(Truncate, W_CLAUSE, "RESTART IDENTITY dropped (Delta identity columns cannot be reset)",
         applies=lambda n: n.restart_identity, field="restart_identity", absent=False,
         text=lambda n: "RESTART IDENTITY"),
    Rule(Truncate, W_CLAUSE, "CASCADE dropped (Delta has no foreign keys to follow)", applies=lambda n: n.cascade,
         field="cascade", absent=False, text=lambda n: "CASCADE"),
    Rule(CreateSchema, W_CLAUSE, "AUTHORIZATION dropped (Spark schemas have no owner)",
         applies=lambda n: n.authorization is not None and n.name is not None, field="authorization"),
    Rule(CreateSchema, W_CLAUSE, "WITH BLOCKCHAIN dropped (no ledger schemas)", applies=lambda n: n.blockchain,
         field="blockchain", absent=False),
    Rule(CreateSchema, W_NO_FORM, "CREATE SCHEMA without a name", applies=lambda n: not n.name and not n.authorization,
         last=True),
    Rule(RenamePair, W_NO_FORM, lambda p: f"RENAME TABLE {p.old.dotted()} TO {p.new.dotted()}: Spark cannot move a "
         "table to another schema; not translated", applies=_cross_schema),
    Rule(CreateView, W_CLAUSE, lambda n: f"{n.persistence.value} view created as a permanent view",
         applies=lambda n: n.persistence is not Persistence.PERMANENT,
         rewrite=lambda n: replace(n, persistence=Persistence.PERMANENT, layout=None), comment=False),
    # a statement the frontend kept as GaussDB text (not the empty one a rule leaves of a statement it removed):
    # the comment shows that text as kept (comment=False: the node is never rendered)
    Rule(Opaque, W_NO_FORM, lambda n: f"{n.kind or 'statement'} kept as GaussDB text by the frontend; not translated",
         applies=lambda n: not (n.kind == "dropped" and not n.text), text=lambda n: n.text, comment=False),
)


# ---- DROP ----------------------------------------------------------------------------------------
@emits(Drop)
def drop(n: Drop, e: Emit) -> list[str]:
    ident = n.identity  # one of these three: a rule refuses the others
    if isinstance(ident, ConstraintIdentity):
        w = e.w().kw("ALTER", "TABLE").raw(e.qname(ident.table)).kw("DROP", "CONSTRAINT")
        if n.if_exists:
            w.kw("IF", "EXISTS")
        return [w.ident(ident.name).text()]
    w = e.w().kw("DROP", _DROP_WORD[n.objtype])
    if n.if_exists:
        w.kw("IF", "EXISTS")
    if isinstance(ident, SchemaName):
        w.raw(e.schema_name(ident.name, ident.origin))
    else:
        assert isinstance(ident, QualifiedName)
        w.raw(e.qname(ident))
    if n.cascade:  # schemas only: tables and views lost it to a rule
        w.kw("CASCADE")
    return [w.text()]


# ---- COMMENT ON -----------------------------------------------------------------------------------
def _is(w: object, comment: str | None) -> str:
    w.kw("IS")  # type: ignore[attr-defined]
    if comment:
        w.lit(comment)  # type: ignore[attr-defined]
    else:
        w.kw("NULL")  # type: ignore[attr-defined]
    return w.text()  # type: ignore[attr-defined]


@emits(Comment)
def comment(n: Comment, e: Emit) -> list[str]:
    word = _word(n.objtype)
    ident = n.identity  # a schema's name or a qualified name: a rule refuses the others
    if word == "SCHEMA" and isinstance(ident, SchemaName):
        return [_is(e.w().kw("COMMENT", "ON", "SCHEMA").raw(e.schema_name(ident.name, ident.origin)), n.comment)]
    assert isinstance(ident, QualifiedName)
    if word == "VIEW":
        w = e.w().kw("ALTER", "VIEW").raw(e.qname(ident))
        if n.comment:
            return [w.kw("SET", "TBLPROPERTIES").open().lit("comment").kw("=").lit(n.comment).close().text()]
        return [w.kw("UNSET", "TBLPROPERTIES", "IF", "EXISTS").open().lit("comment").close().text()]
    if word == "COLUMN" and e.catalog is not None and e.catalog.view((ident.schema, ident.name)) is not None:
        # Spark refuses COMMENT ON COLUMN of a view (EXPECT_TABLE_NOT_VIEW): only the history knows it is one
        e.diag(W_NO_FORM, f"COMMENT ON COLUMN of the view {ident.schema}.{ident.name}: Spark has no comment on "
                          "a view's column after the view is created", n.origin, dropped_node=n)
        return []
    return [_is(e.w().kw("COMMENT", "ON", "COLUMN" if word == "COLUMN" else "TABLE").raw(e.qname(ident)), n.comment)]


# ---- RENAME ------------------------------------------------------------------------------------
def _renamed(e: Emit, q: QualifiedName, new: str) -> str:
    """The new name of a RENAME TO: ``schema.new`` (the table stays in its schema)."""
    return e.w().name(q.schema, new).text()


@emits(RenameRelation)
def rename_relation(n: RenameRelation, e: Emit) -> list[str]:
    w = e.w().kw("ALTER", _WORD[_word(n.objtype)]).raw(e.qname(n.identity)).kw("RENAME", "TO")
    moves = [("relation", n.identity, (n.identity.schema, n.new_name))]  # the views naming it, again (issue 25.4)
    return [w.raw(_renamed(e, n.identity, n.new_name)).text(), *views_after_renames(e, moves, n.origin)]


def needs_column_mapping(e: Emit, what: str, path: tuple) -> None:
    if e.column_mapping == "none":
        e.diag(W_NO_COLUMN_MAPPING, f"{what} needs Delta column mapping (--spark-column-mapping none)", path)


@emits(RenameColumn)
def rename_column(n: RenameColumn, e: Emit) -> list[str]:
    if _word(n.objtype) == "VIEW":  # Spark has no ALTER VIEW ... RENAME COLUMN: the view again (issue 25.4)
        out = views_after_view_column_rename(e, n.identity, n.column, n.new_name, n.origin)
        if out is None:
            e.diag(W_NO_FORM, f"RENAME COLUMN of the view {n.identity.dotted()}: Spark has no such statement, and "
                   "the history does not hold the view's query to create it again", n.origin, dropped_node=n)
            return []
        return out  # (IF EXISTS: the history holds the view)
    needs_column_mapping(e, f"RENAME COLUMN {n.column}", n.origin)
    w = e.w().kw("ALTER", "TABLE").raw(e.qname(n.identity)).kw("RENAME", "COLUMN").ident(n.column)
    moves = [("column", n.identity, n.column, n.new_name)]  # the views naming it, again (issue 25.4)
    return [w.kw("TO").ident(n.new_name).text(), *views_after_renames(e, moves, n.origin)]


@emits(RenameTables)
def rename_tables(n: RenameTables, e: Emit) -> list[str]:
    out: list[str] = []
    for p in n.pairs:  # (a move to another schema: a rule)
        w = e.w().kw("ALTER", "TABLE").raw(e.qname(p.old)).kw("RENAME", "TO")
        out.append(w.raw(_renamed(e, p.old, p.new.name)).text())
    # the views naming them, again (issue 25.4)
    return [*out, *views_after_renames(e, [("relation", p.old, (p.old.schema, p.new.name)) for p in n.pairs], n.origin)]


# ---- views, schemas, truncate -------------------------------------------------------------------
@emits(CreateView)
def create_view(n: CreateView, e: Emit) -> list[str]:
    query = e.query(n.query, f"view {n.identity.dotted()}")
    if query is None:
        return []
    w = e.w().kw("CREATE")
    if n.or_replace:
        w.kw("OR", "REPLACE")
    return [w.kw("VIEW").raw(e.qname(n.identity)).kw("AS").raw(query).text()]


@emits(CreateSchema)
def create_schema(n: CreateSchema, e: Emit) -> list[str]:
    name = n.name
    if not name:  # (neither a name nor AUTHORIZATION: a rule)
        name = n.authorization
        e.diag(I_SCHEMA_OWNER, f"schema named after its owner {name}", n.origin)
    w = e.w().kw("CREATE", "SCHEMA")
    if n.if_not_exists:
        w.kw("IF", "NOT", "EXISTS")
    return [w.raw(e.schema_name(name, n.origin)).text()]


@emits(Truncate)
def truncate(n: Truncate, e: Emit) -> list[str]:
    return [e.w().kw("TRUNCATE", "TABLE").raw(e.qname(t.name)).text() for t in n.relations]


@emits(BackfillUpdate)
def backfill_update(n: BackfillUpdate, e: Emit) -> list[str]:
    value = e.expr(n.value, f"back-fill (UPDATE) of {n.column}")
    if value is None:
        return []
    e.diag(I_BACKFILL, f"UPDATE back-fill of {n.column} emitted", n.origin)
    w = e.w().kw("UPDATE").raw(e.qname(n.identity)).kw("SET").ident(n.column).kw("=").raw(value)
    return [w.kw("WHERE").ident(n.column).kw("IS", "NULL").text()]


@emits(NewPub)
def newpub(n: NewPub, e: Emit) -> list[str]:
    return []  # a cascading-replication notice, never executed (the builder reported DDLC-I401)


@emits(Opaque)
def opaque(n: Opaque, e: Emit) -> list[str]:
    return []  # what a rule left of a statement it removed (it reported it); the frontend's text: a rule too


__all__ = ["REFUSED", "UNSUPPORTED", "needs_column_mapping"]
