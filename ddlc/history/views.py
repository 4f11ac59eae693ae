"""Views in the stream's history: which table (and view) columns each view reads, and everything needed to
create it again (issue 25.1).

GaussDB and openGauss recompile the views that read a column when ``ALTER TABLE ... ALTER COLUMN ... TYPE``
changes it; PostgreSQL refuses (``cannot alter type of a column used by a view or rule``). A target that
wants the same effect drops the dependent views (views on views included) in reverse dependency order,
alters the column, and creates them again in dependency order with their options, comments, owner and
grants, as the history holds them. :meth:`ddlc.history.Catalog.dependent_views` gives them.

What a view reads comes from the parsed query the IR already holds (``CreateView.query.tree``, made by the
frontend's SQL layer at build time): a column qualified by a relation's name or alias is that relation's;
an unqualified one is the only relation's, or, beside others, counted against each of them; ``*`` and a
query that did not parse read every column of every relation they name. The error is always on the side
of dropping a view too many, never one too few.

Renames follow into the stored statement (the database keeps references, the history keeps names): a
table, view or schema renamed or moved, a column renamed (the view's output name kept with ``AS``, as the
database does), a view column renamed. The tree is changed on a copy and printed (pglast's ``RawStream``);
nothing is parsed here.
"""

from __future__ import annotations

import copy
from dataclasses import field
from types import MappingProxyType
from typing import Any

from ..records import record
from ..ir.alter import ChangeOwner, ResetRelOptions, SetRelOptions
from ..ir.base import replace
from ..ir.alter_columns import ChangeColumn, DropColumn
from ..ir.names import QualifiedName
from .view_queries import ALL, Key, column_renamed, columns_read, output_renamed, relation_renamed, schema_renamed


@record(slots=True)
class ViewState:
    """One view as the history holds it.

    ``node`` (a property: ``stored`` with the renames ``pending`` applied): the CREATE VIEW
    (``ddlc.ir.view.CreateView``) as the stream last defined it, after the run's passes for the catalog's
    target (names qualified and mapped), ``or_replace`` False, renames applied;
    ``reads``: the ``(relation key, column)`` pairs its query reads (column ``"*"``: all of them);
    ``comment`` and ``column_comments`` (output column -> text): COMMENT ON VIEW / COLUMN; ``owner``: the
    role of the last ``ALTER VIEW ... OWNER TO`` (None: never changed by the stream); ``grants``: the
    ``ddlc.ir.misc.Grant`` statements (GRANT and REVOKE) that named it, in stream order; ``options``:
    ``ALTER VIEW ... SET (k = v)`` options in force (name -> its ``ddlc.ir.alter.RelOption``), ``order``: creation
    order (a CREATE OR REPLACE counts as a new creation)."""

    stored: Any  # the CreateView; its identity and references current, its query before ``pending``
    reads: tuple[tuple[Key, str], ...] = ()
    comment: str | None = None
    column_comments: dict[str, str] = field(default_factory=dict)
    owner: str | None = None
    grants: list[Any] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    order: int = 0
    # renames not yet applied to the query text (re-printing a query costs a deep copy and pglast's printer:
    # done once, when the statement is asked for or saved): ("relation", old, new), ("schema", old, new),
    # ("column", relation, old, new), ("output", old, new)
    pending: list[tuple[Any, ...]] = field(default_factory=list)

    @property
    def node(self) -> Any:
        """The CREATE VIEW as the history holds it now (renames applied)."""
        if self.pending:
            q = self.stored.query
            for op in self.pending:
                new = _APPLY[op[0]](q, *op[1:])
                if new is not None:
                    q = new
            self.pending.clear()
            self.stored = replace(self.stored, query=q)
        return self.stored

    @property
    def key(self) -> Key:
        return (self.stored.identity.schema, self.stored.identity.name)

    @property
    def relations(self) -> set[Key]:
        """The relations (tables and views) it reads."""
        return {k for k, _ in self.reads}

    def reads_column(self, relation: Key, column: str | None) -> bool:
        """Whether the view reads ``column`` of ``relation`` (any column when ``column`` is None)."""
        return any(k == relation and (column is None or c == column or c == ALL) for k, c in self.reads)

    # -- the statements that make it again ----------------------------------------------------------
    def drop_statement(self) -> Any:
        """``DROP VIEW schema.name`` (no CASCADE: the dependent views are dropped before it, in order)."""
        from ..ir.drop import Drop, DropObjectType

        return Drop(DropObjectType.VIEW, None, self.stored.identity)

    def create_statements(self) -> list[Any]:
        """The IR statements that create the view again as the history holds it, in order: the CREATE VIEW,
        its options (``ALTER VIEW ... SET (...)``), its owner (``ALTER VIEW ... OWNER TO``), the comments on
        it and on its columns, and its grants and revokes in stream order. Post-pass nodes: emit them with the
        target's backend as they are (running the passes again would map names twice)."""
        from ..ir.alter import AlterObjType, AlterRelation, ChangeOwner, SetRelOptions
        from ..ir.comment import Comment

        ident = self.node.identity
        out: list[Any] = [self.node]
        if self.options:
            opts = tuple(self.options.values())
            out.append(AlterRelation(AlterObjType.VIEW, ident, (SetRelOptions(opts),)))
        if self.owner is not None:
            out.append(AlterRelation(AlterObjType.VIEW, ident, (ChangeOwner(self.owner),)))
        if self.comment is not None:
            out.append(Comment("VIEW", None, ident, self.comment))  # type: ignore[arg-type]  # rendered
        for col, text in self.column_comments.items():
            out.append(Comment("COLUMN", None, QualifiedName(ident.name, ident.schema, col), text))  # type: ignore[arg-type]
        out.extend(self.grants)
        return out


class Views:
    """The views a stream's history holds, keyed by (schema, name), and how statements change them.

    Beside the views it keeps an index: each relation (table or view) -> the views whose query reads it (the
    relations of their ``reads``). A DROP, a rename or a change of a column visits the views that read what
    it names, not every view the history holds: the work per statement does not grow with the stream.
    ``views`` is read-only from outside (a mapping proxy); :meth:`put` and the ``views`` setter change it and
    keep the index."""

    __slots__ = ("_views", "counter", "_readers")

    def __init__(self) -> None:
        self._views: dict[Key, ViewState] = {}
        self.counter = 0
        self._readers: dict[Key, set[Key]] = {}  # relation -> the keys of the views that read it

    @property
    def views(self) -> MappingProxyType[Key, ViewState]:
        return MappingProxyType(self._views)

    @views.setter
    def views(self, views: dict[Key, ViewState]) -> None:
        self._views = {}
        self._readers = {}
        for v in views.values():
            self.put(v)

    def put(self, v: ViewState) -> None:
        """Hold ``v`` under its key (replacing a view of that key)."""
        old = self._views.get(v.key)
        if old is not None:
            self._unindex(old)
        self._views[v.key] = v
        self._index(v)

    def _index(self, v: ViewState) -> None:
        key, readers = v.key, self._readers
        for k, _ in v.reads:
            s = readers.get(k)
            if s is None:
                readers[k] = {key}
            else:
                s.add(key)

    def _unindex(self, v: ViewState) -> None:
        key, readers = v.key, self._readers
        for k, _ in v.reads:
            s = readers.get(k)
            if s is not None:
                s.discard(key)
                if not s:
                    del readers[k]

    def _reading(self, relation: Key) -> list[ViewState]:
        """The views whose query reads ``relation``."""
        keys = self._readers.get(relation)
        if not keys:
            return []
        views = self._views
        return [views[k] for k in keys]

    def next_order(self) -> int:
        self.counter += 1
        return self.counter

    # -- queries --
    def dependents(self, relation: Key, column: str | None = None) -> list[ViewState]:
        """The views that read ``column`` of ``relation`` (any column when None), and every view that reads
        one of those, in dependency order: each after the views it reads, otherwise in creation order.
        Drop them in the reverse order."""
        found: dict[Key, ViewState] = {v.key: v for v in self._reading(relation) if v.reads_column(relation, column)}
        todo = list(found)
        while todo:
            k = todo.pop()
            for v in self._reading(k):
                if v.key not in found:
                    found[v.key] = v
                    todo.append(v.key)
        return self.in_order(found.values())

    def in_order(self, views: Any) -> list[ViewState]:
        """``views`` in creation order, each after the views (of ``views``) it reads."""
        chosen = {v.key: v for v in views}
        done: list[ViewState] = []
        seen: set[Key] = set()

        def visit(v: ViewState, path: tuple[Key, ...]) -> None:
            if v.key in seen or v.key in path:
                return
            for k in sorted(v.relations, key=lambda k: (k[0] or "", k[1])):
                dep = chosen.get(k)
                if dep is not None and dep is not v:
                    visit(dep, (*path, v.key))
            seen.add(v.key)
            done.append(v)

        for v in sorted(chosen.values(), key=lambda v: v.order):
            visit(v, ())
        return done

    def copies(self, views: list[ViewState]) -> Views:
        """A Views holding copies of ``views`` (their order kept), to change apart from the history."""
        out = Views()
        for v in views:
            c = copy.copy(v)
            c.column_comments, c.grants, c.options = dict(v.column_comments), list(v.grants), dict(v.options)
            c.pending = list(v.pending)
            out.put(c)
        out.counter = self.counter
        return out

    def renamed_column(self, relation: Key, old: str, new: str) -> list[ViewState]:
        """These views, in dependency order, after column ``old`` of ``relation`` became ``new``."""
        self.column_moved(relation, old, new)
        return self.in_order(self._views.values())

    # -- changes --
    def create(self, stmt: Any) -> None:
        key = (stmt.identity.schema, stmt.identity.name)
        node = replace(stmt, or_replace=False, layout=None)
        v = self._views.get(key)
        if v is None:
            self.put(ViewState(node, columns_read(node), order=self.next_order()))
        else:  # CREATE OR REPLACE keeps the comments, owner, grants and options
            reads = columns_read(node)  # (first: when it fails, the view stays as it was, in the index too)
            self._unindex(v)
            v.stored, v.reads, v.order = node, reads, self.next_order()
            v.pending.clear()
            self._index(v)

    def drop(self, key: Key) -> None:
        """A view and the views that read it (CASCADE, or the drop would have failed)."""
        v = self._views.pop(key, None)
        if v is None:
            return
        self._unindex(v)
        for w in self._reading(key):
            self.drop(w.key)

    def drop_reading(self, relation: Key, column: str | None = None) -> None:
        """The views that read ``column`` of ``relation`` (any) go, with theirs: a dropped table or column."""
        for v in [v for v in self._reading(relation) if v.reads_column(relation, column)]:
            self.drop(v.key)

    def moved(self, old: Key, new: Key) -> None:
        """Relation ``old`` (a table or a view) is now ``new``."""
        if old == new:
            return
        v = self._views.get(old)
        if v is not None:
            self._unindex(v)
            del self._views[old]
            ident = QualifiedName(new[1], new[0], origin=v.stored.identity.origin)
            v.stored = replace(v.stored, identity=ident)
            v.grants = [replace(g, relations=(ident,)) for g in v.grants]
            self.put(v)
        for w in self._reading(old):
            refs = tuple(QualifiedName(new[1], new[0], origin=r.origin) if (r.schema, r.name) == old else r
                         for r in w.stored.references)
            w.stored = replace(w.stored, references=refs)
            last = w.pending[-1] if w.pending else None
            if last is not None and last[0] == "relation" and last[2] == old:  # t -> t2 -> t3: one rename
                w.pending[-1] = ("relation", last[1], new)
                if last[1] == new:
                    w.pending.pop()
            else:
                w.pending.append(("relation", old, new))
            self._unindex(w)
            w.reads = tuple((new if k == old else k, c) for k, c in w.reads)
            self._index(w)

    def schema_moved(self, old: str, new: str) -> None:
        for v in list(self._views.values()):
            node = v.stored
            v.pending.append(("schema", old, new))  # relations, and functions and types it names
            refs = tuple(replace(r, schema=new) if r.schema == old else r for r in node.references)
            ident = replace(node.identity, schema=new) if node.identity.schema == old else node.identity
            v.stored = replace(node, identity=ident, references=refs)
            v.reads = tuple(((new, k[1]) if k[0] == old else k, c) for k, c in v.reads)
            if ident is not node.identity:
                v.grants = [replace(g, relations=(ident,)) for g in v.grants]
        self.views = {v.key: v for v in self._views.values()}  # (the index made again)

    def column_moved(self, relation: Key, old: str, new: str) -> None:
        """Column ``old`` of ``relation`` (a table, or a view's output column) is now ``new``."""
        if old == new:
            return
        own = self._views.get(relation)
        if own is not None:  # ALTER VIEW ... RENAME COLUMN
            own.pending.append(("output", old, new))
            if old in own.column_comments:
                own.column_comments[new] = own.column_comments.pop(old)
        for v in self._reading(relation):
            if v is own:
                continue
            v.pending.append(("column", relation, old, new))
            v.reads = tuple((k, new if k == relation and c == old else c) for k, c in v.reads)

    def record(self, stmt: Any) -> None:
        fn = effect_of(type(stmt))
        if fn is not None:
            fn(self, stmt)


def effect_of(cls: type) -> Any:
    """What a statement of class ``cls`` does to the views (``fn(views, stmt)``), or None: nothing."""
    return _EFFECTS.get(cls.__name__)


def _key(q: Any) -> Key:
    return (q.schema, q.name)


def _drop(vs: Views, s: Any) -> None:
    ident = s.identity
    word = s.objtype  # (a str enum: compared as its value)
    if word == "schema" and hasattr(ident, "name") and not hasattr(ident, "schema"):
        for v in list(vs.views.values()):
            if v.key in vs.views and (v.key[0] == ident.name or any(k[0] == ident.name for k in v.relations)):
                vs.drop(v.key)
        return
    if not isinstance(ident, QualifiedName):
        return
    if word == "view":
        vs.drop(_key(ident))
    elif word == "table":
        vs.drop_reading(_key(ident))


def _alter(vs: Views, s: Any) -> None:
    key = _key(s.identity)
    v = vs.views.get(key)
    for sub in s.subcommands:
        # (which of the classes below the subcommand's class is, judged once per class: isinstance of a node not of
        # the class itself against a msgspec Struct class calls the metaclass's __instancecheck__, ~750 instructions)
        drop, change, owner, set_, reset = _SUB_KINDS.get(type(sub)) or _sub_kinds(type(sub))
        if drop:
            vs.drop_reading(key, sub.column)
        elif change and sub.old_column != sub.column:
            vs.column_moved(key, sub.old_column, sub.column)
        elif v is not None and owner and sub.owner is not None:
            v.owner = sub.owner
        elif v is not None and set_:
            for o in sub.options:
                v.options[o.name] = o
        elif v is not None and reset:
            for o in sub.options:
                v.options.pop(o.name, None)


_SUB_KINDS: dict[type, tuple[bool, bool, bool, bool, bool]] = {}


def _sub_kinds(cls: type) -> tuple[bool, bool, bool, bool, bool]:
    """Whether ``cls`` is a DropColumn, a ChangeColumn, a ChangeOwner, a SetRelOptions, a ResetRelOptions (_alter)."""
    kinds = _SUB_KINDS[cls] = tuple(issubclass(cls, c)  # type: ignore[assignment]
                                    for c in (DropColumn, ChangeColumn, ChangeOwner, SetRelOptions, ResetRelOptions))
    return kinds


def _rename_relation(vs: Views, s: Any) -> None:
    key = _key(s.identity)
    vs.moved(key, (key[0], s.new_name))


def _rename_tables(vs: Views, s: Any) -> None:
    for pair in s.pairs:
        vs.moved(_key(pair.old), _key(pair.new))


def _set_schema(vs: Views, s: Any) -> None:
    if isinstance(s.identity, QualifiedName) and s.objtype.upper() in ("TABLE", "VIEW", "FOREIGN TABLE"):
        vs.moved(_key(s.identity), (s.new_schema, s.identity.name))


def _rename_column(vs: Views, s: Any) -> None:
    vs.column_moved(_key(s.identity), s.column, s.new_name)


def _comment(vs: Views, s: Any) -> None:
    ident = s.identity
    if not isinstance(ident, QualifiedName) or s.on_constraint:
        return
    word = " ".join(s.objtype.split()).upper()
    v = vs.views.get(_key(ident))
    if v is None:
        return
    text = s.comment or None
    if word == "VIEW" and ident.attr is None:
        v.comment = text
    elif word == "COLUMN" and ident.attr is not None:
        if text is None:
            v.column_comments.pop(ident.attr, None)
        else:
            v.column_comments[ident.attr] = text


def _grant(vs: Views, s: Any) -> None:
    if s.all_in_schema:
        return
    for r in s.relations:
        v = vs.views.get(_key(r))
        if v is not None:
            v.grants.append(replace(s, relations=(v.stored.identity,)))


_EFFECTS: dict[str, Any] = {
    "CreateView": Views.create,
    "Drop": _drop,
    "AlterRelation": _alter,
    "AlterTableFollowup": _alter,
    "RenameRelation": _rename_relation,
    "RenameTables": _rename_tables,
    "SetSchema": _set_schema,
    "RenameSchema": lambda vs, s: vs.schema_moved(s.identity, s.new_name),
    "RenameColumn": _rename_column,
    "Comment": _comment,
    "Grant": _grant,
}


# ---- the state file (``--state``, docs/state.md) -------------------------------------------------------
_GRANT_FIELDS = ("text", "revoke", "privileges", "objtype", "objects", "all_in_schema", "grantees", "grant_option",
                 "cascade", "pg_grammar")


def _name_out(q: QualifiedName) -> list[Any]:
    return [q.schema, q.name]


def views_to_json(vs: Views) -> list[dict[str, Any]]:
    """The views as the state file keeps them, in creation order."""
    out = []
    for v in sorted(vs.views.values(), key=lambda v: v.order):
        n = v.node
        out.append({
            "schema": n.identity.schema, "name": n.identity.name, "query": n.query.text,
            "persistence": n.persistence.value, "references": [_name_out(r) for r in n.references],
            "reads": [[k[0], k[1], c] for k, c in v.reads], "comment": v.comment,
            "column_comments": dict(v.column_comments), "owner": v.owner,
            "options": [{"name": o.name, "value": o.value, "namespace": o.namespace, "quoted": o.quoted}
                        for o in v.options.values()],
            "grants": [{**{f: (list(getattr(g, f)) if isinstance(getattr(g, f), tuple) else getattr(g, f))
                           for f in _GRANT_FIELDS}} for g in v.grants],
        })
    return out


def views_from_json(items: Any, make_query: Any) -> Views:
    """The views of a state file; ``make_query``: the frontend's reader of a query text (the stored query is
    read again as a document's is, its parsed form made once)."""
    from ..ir.alter import RelOption
    from ..ir.misc import Grant
    from ..ir.sequence import Persistence
    from ..ir.view import CreateView

    vs = Views()
    for d in items or ():
        ident = QualifiedName(d["name"], d["schema"])
        query = make_query(d["query"])
        node = CreateView(ident, query, False, Persistence(d.get("persistence", "")), query.tree is not None,
                          tuple(QualifiedName(r[1], r[0]) for r in d.get("references", ())))
        v = ViewState(node, tuple(((r[0], r[1]), r[2]) for r in d.get("reads", ())), d.get("comment"),
                      dict(d.get("column_comments") or {}), d.get("owner"), order=vs.next_order())
        for o in d.get("options", ()):
            v.options[o["name"]] = RelOption(o["name"], o.get("value"), o.get("namespace"), bool(o.get("quoted")))
        for g in d.get("grants", ()):
            v.grants.append(Grant(g["text"], bool(g["revoke"]), tuple(g["privileges"]), g["objtype"], (ident,),
                                  tuple(g.get("objects", ())), bool(g.get("all_in_schema")),
                                  tuple(g.get("grantees", ())), bool(g.get("grant_option")), bool(g.get("cascade")),
                                  bool(g.get("pg_grammar", True))))
        vs.put(v)
    return vs


_APPLY: dict[str, Any] = {
    "relation": relation_renamed,
    "schema": schema_renamed,
    "column": column_renamed,
    "output": output_renamed,
}


__all__ = ["ALL", "ViewState", "Views", "column_renamed", "columns_read", "output_renamed", "relation_renamed",
           "schema_renamed", "views_from_json", "views_to_json"]
