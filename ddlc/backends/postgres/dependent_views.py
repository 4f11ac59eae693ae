"""PostgreSQL: a column type change under views (issue 25.1).

GaussDB and openGauss change the type of a column that views read and recompile the views; PostgreSQL
refuses (``cannot alter type of a column used by a view or rule``). When the stream's history knows every
view on the table (:meth:`ddlc.history.Catalog.knows_views_of`: it saw the table created), the ALTER is
written between

* ``DROP VIEW`` of each view that reads a changed column, and of every view that reads one of those, in
  reverse dependency order (no CASCADE: each view is dropped after the views that read it), and
* the statements that create them again as the history holds them, in dependency order: CREATE VIEW,
  ``ALTER VIEW ... SET (...)``, ``ALTER VIEW ... OWNER TO``, COMMENT ON VIEW / COLUMN, GRANT / REVOKE
  (:meth:`ddlc.history.views.ViewState.create_statements`), DDLC-I701 naming them.

Every statement is plain transactional DDL: applied one by one (``psql -v ON_ERROR_STOP=1 -f``) the
sequence reaches the catalog GaussDB's recompiled views leave, and a user's ``BEGIN; ... COMMIT;`` around
it makes it all or nothing (ddlc writes no transaction control of its own, which would end the user's).

The history is asked before the statement is recorded (the compiler records it after the emitters ran):
``e.catalog`` is the state before the ALTER. A ``CHANGE old new type`` renames the column too: the views
are created again naming the new column (their output names kept), as GaussDB's recompiled views read.
The create statements are the history's own post-pass nodes, written by this target's emitters as they
are (the passes ran on them when they were first translated: schema mapping must not apply twice); what
those emitters say again of them belongs to the statement that first created each view and is not
repeated here.

When the history cannot know the views of the table (the table was not created in the stream, and no
``--state`` carried it over), the ALTER is written as it is, with DDLC-W713 naming the risk.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ...diagnostics import Severity, register
from ...ir.alter import AlterObjType, AlterRelation
from ...ir.alter_columns import AlterColumnType, ChangeColumn, ColumnKind, ModifyColumn
from .context import Emit

W_VIEWS_UNKNOWN = register(
    "DDLC-W713", Severity.WARNING, "Column type change under views the history does not know",
    "PostgreSQL refuses to change the type of a column that a view or rule reads (cannot alter type of a "
    "column used by a view or rule); GaussDB recompiles the views. ddlc drops such views before the ALTER and "
    "creates them again after it (DDLC-I701) when the stream's history knows every view on the table: it saw "
    "the table created, in this run or in the --state it carried over. Here it did not, so the ALTER is "
    "written as it is: on PostgreSQL it fails if a view (or a rule, or a materialized view) reads the column. "
    "Translate the whole history of the table (or keep a --state), or drop and recreate the views by hand.",
    "ALTER TABLE public.t ALTER COLUMN c SET DATA TYPE bigint   -- table not created in the stream",
)
I_VIEWS_RECREATED = register(
    "DDLC-I701", Severity.INFO, "Dependent views recreated around a column type change",
    "PostgreSQL refuses to change the type of a column a view reads; GaussDB recompiles the views. The views "
    "that read the changed column, and the views that read those, are dropped before the ALTER (in reverse "
    "dependency order) and created again after it from the stream's history (in dependency order), with "
    "their options, owner, comments (on the view and its columns) and grants. All of it is transactional "
    "DDL: a BEGIN ... COMMIT around the script makes it all or nothing.",
    "DROP VIEW s.v; ALTER TABLE s.t ALTER COLUMN c SET DATA TYPE bigint; CREATE VIEW s.v AS ...",
)

_RELATIONS = (AlterObjType.TABLE, AlterObjType.FOREIGN_TABLE)


def type_changes(n: AlterRelation) -> list[tuple[str, str]]:
    """``(column before, column after)`` of every column whose type the ALTER sets (ALTER COLUMN ... TYPE,
    MODIFY, CHANGE: each is written as a ``SET DATA TYPE``, which PostgreSQL refuses under a view even when
    the type stays the same)."""
    if n.objtype not in _RELATIONS:
        return []
    out: list[tuple[str, str]] = []
    for sub in n.subcommands:
        if isinstance(sub, AlterColumnType) and sub.kind is ColumnKind.COLUMN:
            out.append((sub.column, sub.column))
        elif isinstance(sub, ModifyColumn):
            out.append((sub.column, sub.column))
        elif isinstance(sub, ChangeColumn):
            out.append((sub.old_column, sub.column))
    return out


def views_after(catalog: Any, table: Any, changes: list[tuple[str, str]]) -> list[Any]:
    """The views (:class:`ddlc.history.views.ViewState`) that read a changed column of ``table``, and those
    that read them, in dependency order, as they must be created after the statement (a column renamed by
    it named by its new name). Asked of the history before the statement is recorded."""
    olds = list(dict.fromkeys(old for old, _ in changes))
    renames = [(old, new) for old, new in changes if old != new]
    if not renames:
        return catalog.dependent_views(table, olds)
    if len(olds) == 1 and len(renames) == 1:
        return catalog.dependent_views(table, olds[0], renamed_to=renames[0][1])
    found = catalog.dependent_views(table, olds)  # several columns, renamed: each rename on the copies
    copies = catalog.views.copies(found)
    key = (table.schema, table.name)
    for old, new in renames:
        copies.column_moved(key, old, new)
    return copies.in_order(copies.views.values())


def _quiet(e: Emit) -> Emit:
    """An emit context for statements first translated by an earlier document: what the emitters say of them
    again is not this statement's (and ``--on-unsupported error`` was decided when they were first written)."""
    ctx = e.ctx
    if getattr(ctx, "on_unsupported", "warn") == "error":
        ctx = dataclasses.replace(ctx, on_unsupported="warn")
    return Emit(ctx, e.catalog, e.emitters)


def around_type_change(n: AlterRelation, e: Emit) -> tuple[list[str], list[str]]:
    """The statements written before and after the ALTER ``n``: the dependent views' drops and their
    creation again (empty when no column type changes, or no view reads the changed columns)."""
    changes = type_changes(n)
    if not changes:
        return [], []
    cat = e.catalog
    table = n.identity
    columns = ", ".join(dict.fromkeys(old for old, _ in changes))
    if cat is None or not cat.knows_views_of(table):
        e.diag(W_VIEWS_UNKNOWN, f"type change of {table.dotted()}.{columns}: the history does not know the views "
               "of the table; PostgreSQL refuses the ALTER if a view or rule reads the column", n.origin)
        return [], []
    views = views_after(cat, table, changes)
    if not views:
        return [], []
    q = _quiet(e)
    drops = [s for v in reversed(views) for s in q.statements(v.drop_statement())]
    creates = [s for v in views for node in v.create_statements() for s in q.statements(node)]
    names = ", ".join(v.node.identity.dotted() for v in views)
    e.diag(I_VIEWS_RECREATED, f"views {names} dropped before the type change of {table.dotted()}.{columns} and "
           "created again after it", n.origin)
    return drops, creates


__all__ = ["I_VIEWS_RECREATED", "W_VIEWS_UNKNOWN", "around_type_change", "type_changes", "views_after"]
