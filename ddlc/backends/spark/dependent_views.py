"""Spark: the views that read a column Delta widened (issue 25.1), or name a relation or column renamed (25.4),
created again after the statement.

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

Renames (issue 25.4). A Spark view is bound by name when it is read: after ``RENAME COLUMN``, ``RENAME TO``
(of a table or a view), B-compatibility ``RENAME TABLE`` or a ``CHANGE`` that renames, a view whose query
names what was renamed fails (``UNRESOLVED_COLUMN``, ``TABLE_OR_VIEW_NOT_FOUND``; Spark also analyses a view
it renames, so ``ALTER VIEW`` of a view on it fails too). PostgreSQL and GaussDB bind a view to the
relation's identity, and the view follows the rename, keeping its column names. So after the rename each
view whose stored query names the renamed relation or column is created again in dependency order, its
query as the history holds it after the statement (:mod:`ddlc.history.view_queries`: a renamed column
named anew and its output column keeping the old name with ``AS``, as the database's view does), with its
comment (DDLC-I844). A view on those views names nothing renamed and still resolves: it is left as it is.
A view whose query the history cannot follow (``*``, an unqualified column beside other relations, a query
that did not parse), or a relation whose views the history cannot know, is written with DDLC-W843. (An
output column that is an expression without a name of its own cannot occur: Spark refuses such a permanent
view, ``CREATE_PERMANENT_VIEW_WITHOUT_ALIAS``.) Spark has no ``ALTER VIEW ... RENAME COLUMN``: a view the
history holds is created again with the output column named anew, then the views that name that column
(:func:`views_after_view_column_rename`). (``SET SCHEMA`` and a ``RENAME TABLE`` across schemas are not
written on Spark: nothing moves.)
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ...diagnostics import Severity, register
from ...ir.alter import AlterRelation
from ...ir.base import replace
from ...ir.comment import Comment
from ...ir.view import CreateView
from ...history.view_queries import ALL, output_renamed

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
W_RENAME_VIEWS_UNKNOWN = register(
    "DDLC-W843", Severity.WARNING, "Rename under views ddlc cannot create again",
    "A Spark view is its query's text, bound by name when it is read; PostgreSQL and GaussDB bind a view to the "
    "relation's identity, so their views follow a rename. After a table, view or column is renamed on Spark, a "
    "view whose query names it fails (TABLE_OR_VIEW_NOT_FOUND, UNRESOLVED_COLUMN) until it is created again. "
    "ddlc creates such views again after the rename (DDLC-I844) when the stream's history knows every view on "
    "the relation (it saw the table or view created) and can follow the view's query; here it could not: "
    "the relation was not created in the stream, or the view selects * of it, names the column unqualified "
    "beside other relations, or its query did not parse. The rename is written; run CREATE OR REPLACE VIEW for "
    "those views by hand, naming it anew (a renamed column as new AS old, so the view keeps its column names).",
    "ALTER TABLE s.t RENAME COLUMN a TO b   -- table not created in the stream",
)
I_VIEWS_RENAMED = register(
    "DDLC-I844", Severity.INFO, "Views created again after a rename",
    "A Spark view is its query's text, bound by name: after a table, view or column it names is renamed, each "
    "view whose query names it is created again with CREATE OR REPLACE VIEW, in dependency order, from the "
    "stream's history, naming it anew, with its comment, as GaussDB's views follow the rename. A renamed column "
    "keeps the view's column name (new AS old), as the database's view does; a view on those views names "
    "nothing renamed and is left as it is.",
    "ALTER TABLE s.t RENAME COLUMN a TO b; CREATE OR REPLACE VIEW s.v AS SELECT t.b AS a FROM s.t",
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
            written = q.statements(node)
            if not written:  # its query has no Spark form: the view was not written the first time either
                return []
            out.extend(written)
            continue
        if isinstance(node, AlterRelation) or type(node) not in q.emitters or _column_comment(node):
            continue
        out.extend(q.statements(node))
    return out


def views_after_widening(a: Any) -> list[str]:
    """What follows the ALTER of ``a`` (:class:`.alter_base.Alter`): the views on the columns it widened, and
    the views that name a column it renamed (``CHANGE old new``)."""
    renames = [(old, new) for old, new in a.renamed if old not in {o for o, _ in a.retyped}]
    if not a.retyped:
        return views_after_renames(a.e, [("column", a.n.identity, old, new) for old, new in renames], a.n.origin)
    e, table = a.e, a.n.identity
    cat = e.catalog
    columns = ", ".join(dict.fromkeys(new for _, new in a.retyped))
    if cat is None or not cat.knows_views_of(table):
        e.diag(W_VIEWS_UNKNOWN, f"column {columns} of {table.dotted()} widened: the history does not know the views "
               "of the table; a view that reads it keeps the old type", a.n.origin)
        return views_after_renames(e, [("column", table, old, new) for old, new in renames], a.n.origin)
    views = views_after(cat, table, [*a.retyped, *renames])
    if not views:
        return []
    e.diag(I_VIEWS_RECREATED, f"views {', '.join(v.node.identity.dotted() for v in views)} created again after "
           f"column {columns} of {table.dotted()} was widened", a.n.origin)
    if renames:
        e.diag(I_VIEWS_RENAMED, f"views {', '.join(v.node.identity.dotted() for v in views)} name column "
               f"{', '.join(f'{o} of {table.dotted()} as {n}' for o, n in renames)}", a.n.origin)
    return [s for v in views for s in _statements(e, v)]


# ---- renames (issue 25.4) ------------------------------------------------------------------------------------
def _key(q: Any) -> tuple[str | None, str]:
    return q if isinstance(q, tuple) else (q.schema, q.name)


def _dotted(k: tuple[str | None, str]) -> str:
    return f"{k[0]}.{k[1]}" if k[0] else k[1]


def _what(m: tuple[Any, ...]) -> str:
    if m[0] == "column":
        return f"column {m[2]} of {_dotted(_key(m[1]))} renamed to {m[3]}"
    return f"{_dotted(_key(m[1]))} renamed to {_dotted(_key(m[2]))}"


def renamed_views(catalog: Any, moves: list[tuple[Any, ...]]) -> tuple[list[Any], list[Any]]:
    """The history's views whose query names what ``moves`` rename, as they read after the statement (copies), in
    dependency order; and the views that read it directly whose query the history could not follow (``*``, an
    unqualified column beside other relations, no parsed query). ``moves``: ``("column", relation, old, new)``
    or ``("relation", old, new)`` (relations as QualifiedNames or keys), in the statement's order. Asked before
    the statement is recorded."""
    found: dict[Any, Any] = {}
    direct: set[Any] = set()
    for m in moves:
        rel, column = _key(m[1]), (m[2] if m[0] == "column" else None)
        for v in catalog.views.dependents(rel, column):
            found.setdefault(v.key, v)
            if v.reads_column(rel, column):
                direct.add(v.key)
    if not found:
        return [], []
    copies = catalog.views.copies(list(found.values()))
    before = {id(c): (c.key, c.node.query.text) for c in copies.views.values()}
    for m in moves:
        if m[0] == "column":
            copies.column_moved(_key(m[1]), m[2], m[3])
        else:
            copies.moved(_key(m[1]), _key(m[2]))
    views, lost = [], []
    for c in copies.in_order(copies.views.values()):
        key, text = before[id(c)]
        if c.node.query.text != text:
            views.append(c)
        elif key in direct and (c.node.query.tree is None or _star_or_unfollowed(c, moves)):
            lost.append(c)
    return views, lost


def _star_or_unfollowed(v: Any, moves: list[tuple[Any, ...]]) -> bool:
    """Whether ``v`` (unchanged by ``moves``) still names what they renamed: a column it reads through ``*`` or
    that the history could not tell from another relation's (a relation it names is always renamed)."""
    return any(m[0] == "column" and any(c in (m[3], ALL) for k, c in v.reads if k == _key(m[1])) for m in moves)


def views_after_renames(e: Any, moves: list[tuple[Any, ...]], origin: Any) -> list[str]:
    """What follows a rename on Spark: each view whose query names a renamed relation or column, created again
    (DDLC-I844); a relation whose views the history cannot know, or a view it cannot follow: DDLC-W843."""
    cat = e.catalog
    known = []
    named: dict[Any, bool] = {}  # what an earlier move of the statement left under a name (RENAME TABLE a TO b, ...)
    for m in moves:
        rel = _key(m[1])
        knows = named[rel] if rel in named else (
            cat is not None and (cat.knows_views_of(rel) or cat.view(rel) is not None))
        if m[0] == "relation":
            named[rel], named[_key(m[2])] = True, knows  # (nothing is left under the old name)
        if not knows:
            e.diag(W_RENAME_VIEWS_UNKNOWN, f"{_what(m)}: the history does not know the views on {_dotted(rel)}; "
                   "a Spark view that names it no longer resolves", origin)
        else:
            known.append(m)
    if not known:
        return []
    found, lost = renamed_views(cat, known)
    written = [(v, _statements(e, v)) for v in found]
    views = [v for v, out in written if out]
    for v in lost:
        why = ("it selects * of it, or names the column unqualified beside other relations"
               if v.node.query.tree is not None else "its query did not parse")
        e.diag(W_RENAME_VIEWS_UNKNOWN, f"view {v.node.identity.dotted()} names what was renamed "
               f"({'; '.join(_what(m) for m in known)}) in a way the history cannot follow ({why}); not created "
               "again: it no longer resolves on Spark", origin)
    if not views:
        return []
    e.diag(I_VIEWS_RENAMED, f"views {', '.join(v.node.identity.dotted() for v in views)} created again after "
           f"{'; '.join(_what(m) for m in known)}", origin)
    return [s for _, out in written for s in out]



def views_after_view_column_rename(e: Any, view: Any, old: str, new: str, origin: Any) -> list[str] | None:
    """``ALTER VIEW v RENAME COLUMN old TO new`` on Spark, which has no such statement: ``v`` created again with
    its output column named anew, then each view whose query names that column, naming it anew (DDLC-I844).
    None when the history does not hold ``v``, its query names no output column ``old``, or it has no Spark form
    (the caller refuses the statement)."""
    cat = e.catalog
    v = cat.view(view) if cat is not None else None
    if v is None or output_renamed(v.node.query, old, new) is None:
        return None
    own = cat.views.copies([v]).views[v.key]
    own.pending.append(("output", old, new))
    first = _statements(e, own)
    if not first:
        return None
    move = ("column", view, old, new)
    found, lost = renamed_views(cat, [move])
    written = [(r, _statements(e, r)) for r in found]
    for r in lost:
        e.diag(W_RENAME_VIEWS_UNKNOWN, f"view {r.node.identity.dotted()} names what was renamed ({_what(move)}) in "
               "a way the history cannot follow; not created again: it no longer resolves on Spark", origin)
    views = [own, *(r for r, out in written if out)]
    e.diag(I_VIEWS_RENAMED, f"views {', '.join(x.node.identity.dotted() for x in views)} created again after "
           f"{_what(move)} (Spark has no ALTER VIEW ... RENAME COLUMN)", origin)
    return [*first, *(s for _, out in written for s in out)]


__all__ = ["I_VIEWS_RECREATED", "I_VIEWS_RENAMED", "W_RENAME_VIEWS_UNKNOWN", "W_VIEWS_UNKNOWN", "renamed_views",
           "views_after", "views_after_renames", "views_after_view_column_rename", "views_after_widening"]
