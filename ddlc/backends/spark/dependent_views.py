"""Spark: the views that read a column Delta widened, created again after the ALTER (issue 25.1).

Delta never refuses a type change because of a view: a Spark view is its query text and the output schema
captured when it was created, and nothing else depends on it. But that schema stays: Spark 4's default
view schema mode (``WITH SCHEMA COMPENSATION``) casts what the query now returns back to the column types
the view was created with, so after ``ALTER COLUMN c TYPE BIGINT`` the view still says ``INT``, and reading
a row the new type allows and the old one does not fails (``CAST_OVERFLOW``,
``NUMERIC_VALUE_OUT_OF_RANGE``). A view on that view keeps its own old schema too. GaussDB recompiles the
views, which then have the new type.

So after an ALTER that widens a column (:mod:`.alter`: ``Alter.retyped``), each view the stream's history
holds that reads the column, and every view that reads one of those, is created again in dependency order
with ``CREATE OR REPLACE VIEW`` (nothing is dropped first: Spark DDL is not transactional, and a failed
ALTER leaves the views as they were), followed by the view's comment as the history holds it
(``ALTER VIEW ... SET TBLPROPERTIES``; DDLC-I843). Owners, grants and GaussDB view options have no Spark
form and were not written when the view was first translated; they are not written now either. Nor are
comments on the view's columns: Spark refuses ``COMMENT ON COLUMN`` on a view (``EXPECT_TABLE_NOT_VIEW``). The statements are the history's own post-pass
nodes, written by this target's emitters (the passes are not run again: schema mapping would apply twice);
what those emitters say again of them belongs to the statement that first created the view.

When the history cannot know the views of the table (not created in the stream, no ``--state``), a widened
column is written with DDLC-W842: a view on it keeps the old type.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ...diagnostics import Severity, register
from ...ir.alter import AlterRelation
from ...ir.base import replace
from ...ir.comment import Comment
from ...ir.view import CreateView

W_VIEWS_UNKNOWN = register(
    "DDLC-W842", Severity.WARNING, "Widened column under views the history does not know",
    "A Spark view keeps the column types it was created with (Spark 4's default view schema mode, SCHEMA "
    "COMPENSATION, casts to them), so a view that reads a column Delta widened still returns the old type, "
    "and reading a value only the new type holds fails. ddlc creates such views again after the ALTER "
    "(DDLC-I843) when the stream's history knows every view on the table (it saw the table created); here "
    "it did not. Run CREATE OR REPLACE VIEW for the views on the table by hand.",
    "ALTER TABLE s.t ALTER COLUMN c TYPE BIGINT   -- table not created in the stream",
)
I_VIEWS_RECREATED = register(
    "DDLC-I843", Severity.INFO, "Views created again after a column widening",
    "A Spark view keeps the column types it was created with: after Delta widens a column, the views that "
    "read it (and the views on those) are created again with CREATE OR REPLACE VIEW, in dependency order, "
    "from the stream's history, with their comments, so they return the new type as GaussDB's recompiled "
    "views do.",
    "ALTER TABLE s.t ALTER COLUMN c TYPE BIGINT; CREATE OR REPLACE VIEW s.v AS SELECT ...",
)


def views_after(catalog: Any, table: Any, changes: list[tuple[str, str]]) -> list[Any]:
    """The history's views that read a changed column of ``table`` and those that read them, in dependency
    order, as they read after the statement (a column it renamed named anew). Asked before it is recorded."""
    olds = list(dict.fromkeys(old for old, _ in changes))
    renames = [(old, new) for old, new in changes if old != new]
    if not renames:
        return catalog.dependent_views(table, olds)
    if len(olds) == 1 and len(renames) == 1:
        return catalog.dependent_views(table, olds[0], renamed_to=renames[0][1])
    copies = catalog.views.copies(catalog.dependent_views(table, olds))
    for old, new in renames:
        copies.column_moved((table.schema, table.name), old, new)
    return copies.in_order(copies.views.values())


def _column_comment(node: Any) -> bool:
    """A COMMENT ON COLUMN of the view: Spark refuses it on a view (EXPECT_TABLE_NOT_VIEW; a view's column
    comments are only written in its CREATE VIEW column list, which would need every output column)."""
    return isinstance(node, Comment) and " ".join(node.objtype.split()).upper() == "COLUMN"


def _statements(e: Any, view: Any) -> list[str]:
    """The Spark statements that create ``view`` again: CREATE OR REPLACE VIEW and its comment (its ALTER VIEW
    options, owner and grants have no Spark form: rules and refusals left them out the first time; nor has
    a comment on a view's column outside CREATE VIEW)."""
    from .context import Emit

    ctx = e.ctx
    if getattr(ctx, "on_unsupported", "warn") == "error":  # decided when the view was first written
        ctx = dataclasses.replace(ctx, on_unsupported="warn")
    q = Emit(ctx, e.catalog, e.emitters)  # what the emitters say again is the first statement's
    out: list[str] = []
    for node in view.create_statements():
        if isinstance(node, CreateView):
            node = replace(node, or_replace=True)
        elif isinstance(node, AlterRelation) or type(node) not in q.emitters or _column_comment(node):
            continue
        out.extend(q.statements(node))
    return out


def views_after_widening(a: Any) -> list[str]:
    """What follows the ALTER of ``a`` (:class:`.alter_base.Alter`): the views on the columns it widened."""
    if not a.retyped:
        return []
    e, table = a.e, a.n.identity
    cat = e.catalog
    columns = ", ".join(dict.fromkeys(new for _, new in a.retyped))
    if cat is None or not cat.knows_views_of(table):
        e.diag(W_VIEWS_UNKNOWN, f"column {columns} of {table.dotted()} widened: the history does not know the views "
               "of the table; a view that reads it keeps the old type", a.n.origin)
        return []
    views = views_after(cat, table, a.retyped)
    if not views:
        return []
    e.diag(I_VIEWS_RECREATED, f"views {', '.join(v.node.identity.dotted() for v in views)} created again after "
           f"column {columns} of {table.dotted()} was widened", a.n.origin)
    return [s for v in views for s in _statements(e, v)]


__all__ = ["I_VIEWS_RECREATED", "W_VIEWS_UNKNOWN", "views_after", "views_after_widening"]
