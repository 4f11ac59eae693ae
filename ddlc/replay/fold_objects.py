"""The fold of the statements on whole objects (``ddlc replay``, see :mod:`.fold`): schemas, indexes,
views, sequences, comments and renames (DROP: :mod:`.fold_drops`), with their effects on the objects that depend on them
(a dropped table takes its indexes, the foreign keys that reference it and the views that read it; a
renamed table or column is renamed in the texts that name it: :mod:`.rewrite`).

``f`` is the :class:`~.fold.Folder`: ``f.model`` (the :class:`~.schema_model.SchemaModel`) and ``f.diag``.
"""

from __future__ import annotations

import re
from typing import Any

from ..diagnostics import N_REPLAY_NOT_FOLDED, W_REPLAY_INEXACT, W_REPLAY_UNKNOWN
from ..ir.base import replace
from ..ir.drop import SchemaName
from ..ir.names import QualifiedName
from ..ir.sequence import SeqClause
from .fold_sequences import alter_sequence, create_sequence, owned_sequences, sequence_moved
from .rewrite import constraint_renamed, expr_renamed, output_column_renamed, view_column_renamed
from .schema_model import Index, Key, Schema, Table, View


def kind_of(stmt: Any) -> str:
    """The statement's kind for messages (``ALTER TABLE``, ``CREATE FUNCTION``, ``set not null``...)."""
    objtype = getattr(stmt, "objtype", None)
    if hasattr(stmt, "subcommands") and objtype is not None:
        return f"ALTER {objtype.value}"
    return re.sub(r"(?<!^)(?=[A-Z])", " ", type(stmt).__name__).upper()


def _key(q: QualifiedName) -> Key:
    return (q.schema, q.name)


def _dotted(key: Key) -> str:
    return f"{key[0]}.{key[1]}" if key[0] is not None else key[1]


def _rekey(d: dict[Key, Any]) -> None:
    items = list(d.values())
    d.clear()
    for v in items:
        d[v.key] = v


# ---- schemas -----------------------------------------------------------------------------------
def create_schema(f: Any, s: Any) -> None:
    name = s.name or s.authorization
    if not name:
        f.diag(W_REPLAY_INEXACT, "CREATE SCHEMA without a name", s.origin)
        return
    if name in f.model.schemas:
        if not s.if_not_exists:
            f.diag(W_REPLAY_INEXACT, f"schema {name} created twice", s.origin)
        return
    f.model.schemas[name] = Schema(name, replace(s, name=name, if_not_exists=False, layout=None),
                                   order=f.model.next_order())


def rename_schema(f: Any, s: Any) -> None:
    old, new = s.identity, s.new_name
    m = f.model
    sch = m.schemas.pop(old, None)
    if sch is not None:
        sch.name = new
        sch.node = replace(sch.node, name=new)
        m.schemas[new] = sch
    elif not any(k[0] == old for d in (m.tables, m.views, m.indexes, m.sequences) for k in d):
        f.diag(W_REPLAY_UNKNOWN, f"schema {old} is not in the replayed schema", s.origin)
        return
    for t in list(m.tables.values()):
        if t.schema == old:
            t.schema = new
    _rekey(m.tables)
    _renamed_everywhere(f, lambda schema, name: new if schema == old else None, s)
    for idx in m.indexes.values():
        if idx.node.table.schema == old:
            idx.node = replace(idx.node, table=replace(idx.node.table, schema=new))
    _rekey(m.indexes)
    for d in (m.views, m.sequences):
        for v in d.values():
            if v.node.identity.schema == old:
                v.node = replace(v.node, identity=replace(v.node.identity, schema=new))
        _rekey(d)


def _renamed_everywhere(f: Any, relation: Any, stmt: Any) -> None:
    """Schema moves inside texts: view queries, defaults (``nextval('s.seq')``), FK targets, OWNED BY."""
    m = f.model

    def moved(e: Any) -> Any:
        if e is None:
            return None
        text = e.renamed_text(relation)
        if text is None:
            return e
        return e if text is e.text else e.renamed(text, relation)

    for v in m.views.values():
        q = moved(v.node.query)
        refs = tuple(replace(r, schema=relation(r.schema, r.name) or r.schema) for r in v.node.references)
        if q is not v.node.query or refs != v.node.references:
            v.node = replace(v.node, query=q, references=refs, layout=None)
    for t in m.tables.values():
        for c in t.columns:
            d = moved(c.defn.default)
            if d is not c.defn.default:
                c.defn = replace(c.defn, default=d)
        for con in t.constraints:
            info = con.info
            ref = getattr(info, "references", None)
            if ref is not None and relation(ref.schema, ref.name):
                new = constraint_renamed(con.node, relation=(_key(ref), (relation(ref.schema, ref.name), ref.name)))
                if new is None:
                    f.diag(W_REPLAY_INEXACT, f"constraint {con.name}: its text still names {ref.dotted()}",
                           stmt.origin)
                else:
                    con.node = new
    for sq in m.sequences.values():
        opts = tuple(replace(o, owner=replace(o.owner, schema=relation(o.owner.schema, o.owner.name)))
                     if o.owner is not None and relation(o.owner.schema, o.owner.name) else o
                     for o in sq.node.options)
        if opts != sq.node.options:
            sq.node = replace(sq.node, options=opts)


# ---- tables: renames ---------------------------------------------------------------------------
def move_table(f: Any, old: Key, new: Key, stmt: Any) -> None:
    m = f.model
    t = m.tables.get(old)
    if t is None:
        f.diag(W_REPLAY_UNKNOWN, f"table {_dotted(old)} is not in the replayed schema", stmt.origin)
        return
    t.schema, t.name = new
    _rekey(m.tables)
    for idx in m.indexes.values():
        if _key(idx.node.table) == old:
            idx.node = replace(idx.node, table=QualifiedName(new[1], new[0], origin=idx.node.table.origin))
    _rekey(m.indexes)
    for other in m.tables.values():
        for con in other.constraints:
            ref = getattr(con.info, "references", None)
            if ref is not None and _key(ref) == old:
                node = constraint_renamed(con.node, relation=(old, new))
                if node is None:
                    f.diag(W_REPLAY_INEXACT, f"constraint {con.name}: its text still names {_dotted(old)}",
                           stmt.origin)
                else:
                    con.node = node
    for v in m.views.values():
        if any(_key(r) == old for r in v.node.references):
            q = expr_renamed(v.node.query, relation=(old, new))
            if q is None:
                f.diag(W_REPLAY_INEXACT, f"view {v.node.identity.dotted()}: its query still names {_dotted(old)}",
                       stmt.origin)
                continue
            refs = tuple(QualifiedName(new[1], new[0], origin=r.origin) if _key(r) == old else r
                         for r in v.node.references)
            v.node = replace(v.node, query=q, references=refs, layout=None)
    moved = []
    for sq in m.sequences.values():
        opts = tuple(replace(o, owner=QualifiedName(new[1], new[0], o.owner.attr, origin=o.owner.origin))
                     if o.owner is not None and _key(o.owner) == old else o for o in sq.node.options)
        if opts != sq.node.options:
            sq.node = replace(sq.node, options=opts)
            if new[0] != old[0]:
                moved.append(sq)
    for sq in moved:  # ALTER TABLE ... SET SCHEMA moves the sequences the table's columns own
        was = sq.key
        sq.node = replace(sq.node, identity=QualifiedName(was[1], new[0], origin=sq.node.identity.origin))
        _rekey(m.sequences)
        sequence_moved(f, was, sq.key, stmt)


def rename_column(f: Any, t: Table, old: str, new: str, stmt: Any) -> None:
    """Column ``old`` of ``t`` becomes ``new``, in every text of the model that names it."""
    m = f.model
    col = t.column(old)
    if col is None:
        f.diag(W_REPLAY_UNKNOWN, f"column {old} of {t.schema}.{t.name} is not in the replayed schema", stmt.origin)
        return
    col.defn = replace(col.defn, name=new, layout=None)
    for sq in owned_sequences(m, t.key, old):  # a renamed column keeps the sequences it owns
        sq.node = replace(sq.node, options=tuple(
            replace(o, owner=replace(o.owner, attr=new)) if o.clause is SeqClause.OWNED and o.owner is not None
            and _key(o.owner) == t.key and o.owner.attr == old else o for o in sq.node.options))

    def inexact(what: str) -> None:
        f.diag(W_REPLAY_INEXACT, f"{what} still names column {old} (renamed to {new}): written as it was",
               stmt.origin)

    for c in t.columns:
        for fld in ("default", "generated"):
            e = getattr(c.defn, fld)
            r = expr_renamed(e, column=(old, new))
            if r is None and e is not None and old in e.text:
                inexact(f"{fld} of column {c.name}")
            elif r is not None and r is not e:
                c.defn = replace(c.defn, **{fld: r})
    for con in t.constraints:
        node = constraint_renamed(con.node, column=(old, new))
        if node is None:
            if con.info is not None or old in getattr(getattr(con.node, "definition", None), "text", ""):
                inexact(f"constraint {con.name}")
        else:
            con.node = node
    for other in m.tables.values():
        for con in other.constraints:
            ref = getattr(con.info, "references", None)
            if ref is not None and _key(ref) == t.key:
                node = constraint_renamed(con.node, column=(old, new), own=False)
                if node is None:
                    inexact(f"constraint {con.name}")
                else:
                    con.node = node
    for idx in m.indexes_of(t.key):
        _rename_in_index(idx, old, new, inexact)
    if t.partitions is not None:
        _rename_in_partitioning(t, old, new, inexact)
    for v in m.views.values():
        if any(_key(r) == t.key for r in v.node.references):
            q = view_column_renamed(v.node.query, t.key, old, new)
            if q is None:
                inexact(f"view {v.node.identity.dotted()}")
            elif q is not v.node.query:
                v.node = replace(v.node, query=q, layout=None)


def _rename_in_index(idx: Index, old: str, new: str, inexact: Any) -> None:
    n = idx.node
    keys = []
    for k in n.keys:
        if k.column == old:
            k = replace(k, column=new)
        elif k.expression is not None:
            e = expr_renamed(k.expression, column=(old, new))
            if e is None:
                if old in k.expression.text:
                    inexact(f"index {n.name}")
            else:
                k = replace(k, expression=e)
        keys.append(k)
    include = tuple(new if c == old else c for c in n.include)
    where = expr_renamed(n.where, column=(old, new)) if n.where is not None else None
    if n.where is not None and where is None:
        inexact(f"predicate of index {n.name}")
        where = n.where
    if tuple(keys) != n.keys or include != n.include or where is not n.where:
        idx.node = replace(n, keys=tuple(keys), include=include, where=where)


def _rename_in_partitioning(t: Table, old: str, new: str, inexact: Any) -> None:
    st = t.partitions
    assert st is not None
    if old not in (*st.key, *st.sub_key):
        return
    st.key = tuple(new if k == old else k for k in st.key)
    st.sub_key = tuple(new if k == old else k for k in st.sub_key)
    clause = t.create.partition
    spec = clause.spec if clause is not None else None
    if spec is None:
        return

    def exprs(es: tuple[Any, ...]) -> tuple[Any, ...] | None:
        out = []
        for e in es:
            r = expr_renamed(e, column=(old, new))
            if r is None:
                return None
            out.append(r)
        return tuple(out)

    key_exprs, sub_exprs = exprs(spec.key_exprs), exprs(spec.sub_key_exprs)
    if key_exprs is None or sub_exprs is None:
        inexact(f"partition key of {t.schema}.{t.name}")
        return
    spec = replace(spec, key=st.key, sub_key=st.sub_key, key_exprs=key_exprs, sub_key_exprs=sub_exprs,
                   key_text=tuple(e.text for e in key_exprs) if key_exprs else (),
                   sub_key_text=tuple(e.text for e in sub_exprs) if sub_exprs else ())
    t.create = replace(t.create, partition=replace(clause, spec=spec, text=None))


def rename_column_stmt(f: Any, s: Any) -> None:
    if s.objtype.upper() == "VIEW":
        _rename_view_column(f, s)
        return
    if s.objtype.upper() not in ("TABLE", "FOREIGN TABLE"):
        f.diag(N_REPLAY_NOT_FOLDED, f"RENAME COLUMN of {s.objtype} {s.identity.dotted()} not folded", s.origin)
        return
    t = f.model.tables.get(_key(s.identity))
    if t is None:
        if not s.if_exists:
            f.diag(W_REPLAY_UNKNOWN, f"table {s.identity.dotted()} is not in the replayed schema", s.origin)
        return
    rename_column(f, t, s.column, s.new_name, s)


def _rename_view_column(f: Any, s: Any) -> None:
    """ALTER VIEW ... RENAME COLUMN: the view's output column takes the new name (``AS new`` in its query),
    its comment follows, and the views that read it name the new column."""
    m = f.model
    key = _key(s.identity)
    v = m.views.get(key)
    if v is None:
        if not s.if_exists:
            f.diag(W_REPLAY_UNKNOWN, f"view {s.identity.dotted()} is not in the replayed schema", s.origin)
        return
    q = output_column_renamed(v.node.query, s.column, s.new_name)
    if q is None:
        f.diag(W_REPLAY_INEXACT, f"view {s.identity.dotted()}: output column {s.column} not found in its query; "
                                 "the column is not renamed", s.origin)
        return
    v.node = replace(v.node, query=q, layout=None)
    if s.column in v.column_comments:
        v.column_comments[s.new_name] = v.column_comments.pop(s.column)
    for other in m.views.values():
        if other is not v and any(_key(r) == key for r in other.node.references):
            q2 = view_column_renamed(other.node.query, key, s.column, s.new_name)
            if q2 is None:
                f.diag(W_REPLAY_INEXACT, f"view {other.node.identity.dotted()} still names column {s.column} of "
                                         f"{s.identity.dotted()} (renamed to {s.new_name}): written as it was",
                       s.origin)
            elif q2 is not other.node.query:
                other.node = replace(other.node, query=q2, layout=None)


def rename_constraint(f: Any, s: Any) -> None:
    t = f.model.tables.get(_key(s.identity))
    c = t.constraint(s.constraint) if t is not None else None
    if c is None:
        f.diag(W_REPLAY_UNKNOWN, f"constraint {s.constraint} of {s.identity.dotted()} is not in the replayed schema",
               s.origin)
        return
    c.node = replace(c.node, name=s.new_name)


def _relation_words(objtype: str) -> str:
    return " ".join(objtype.split()).upper()


def rename_relation(f: Any, s: Any) -> None:
    word, key = _relation_words(s.objtype), _key(s.identity)
    new = (key[0], s.new_name)
    _move(f, word, key, new, s, s.if_exists)


def _move(f: Any, word: str, key: Key, new: Key, s: Any, if_exists: bool = False) -> None:
    m = f.model
    if word in ("TABLE", "FOREIGN TABLE"):
        if key not in m.tables and if_exists:
            return
        move_table(f, key, new, s)
    elif word == "INDEX":
        idx = m.indexes.get(key)
        if idx is None:
            if not if_exists:
                f.diag(W_REPLAY_UNKNOWN, f"index {_dotted(key)} is not in the replayed schema", s.origin)
            return
        if new[0] != key[0]:
            f.diag(N_REPLAY_NOT_FOLDED, "an index moves with its table, never alone", s.origin)
            return
        idx.node = replace(idx.node, name=new[1])
        _rekey(m.indexes)
    elif word in ("VIEW", "SEQUENCE", "LARGE SEQUENCE"):
        d = m.views if word == "VIEW" else m.sequences
        obj = d.get(key)
        if obj is None:
            if not if_exists:
                f.diag(W_REPLAY_UNKNOWN, f"{word.lower()} {_dotted(key)} is not in the replayed schema", s.origin)
            return
        obj.node = replace(obj.node, identity=QualifiedName(new[1], new[0], origin=obj.node.identity.origin))
        _rekey(d)
        if word == "VIEW":
            _view_moved(f, key, new, s)
        else:
            sequence_moved(f, key, new, s)
    else:
        f.diag(N_REPLAY_NOT_FOLDED, f"RENAME of {word.lower()} {_dotted(key)} not folded", s.origin)


def _view_moved(f: Any, old: Key, new: Key, stmt: Any) -> None:
    """View ``old`` is now ``new``: the queries of the views that read it follow."""
    for v in f.model.views.values():
        if not any(_key(r) == old for r in v.node.references):
            continue
        q = expr_renamed(v.node.query, relation=(old, new))
        if q is None:
            f.diag(W_REPLAY_INEXACT, f"view {v.node.identity.dotted()}: its query still names {_dotted(old)}",
                   stmt.origin)
            continue
        refs = tuple(QualifiedName(new[1], new[0], origin=r.origin) if _key(r) == old else r
                     for r in v.node.references)
        v.node = replace(v.node, query=q, references=refs, layout=None)


def rename_tables(f: Any, s: Any) -> None:
    for pair in s.pairs:
        move_table(f, _key(pair.old), _key(pair.new), s)


def set_schema(f: Any, s: Any) -> None:
    ident = s.identity
    if not isinstance(ident, QualifiedName):
        f.diag(N_REPLAY_NOT_FOLDED, f"SET SCHEMA of {s.objtype} {s.identity_text} not folded", s.origin)
        return
    _move(f, _relation_words(s.objtype), _key(ident), (s.new_schema, ident.name), s)


# ---- indexes, views, sequences --------------------------------------------------------------------
def create_index(f: Any, s: Any) -> None:
    m = f.model
    if _key(s.table) not in m.tables:
        f.diag(W_REPLAY_UNKNOWN, f"index {s.name}: table {s.table.dotted()} is not in the replayed schema", s.origin)
        return
    key = (s.table.schema, s.name)
    if m.relation_kind(key) is not None:
        f.diag(W_REPLAY_INEXACT, f"index {_dotted(key)} created twice", s.origin)
    m.indexes[key] = Index(replace(s, concurrently=False, layout=None), order=m.next_order())


def create_view(f: Any, s: Any) -> None:
    m = f.model
    key = _key(s.identity)
    old = m.views.get(key)
    node = replace(s, or_replace=False, layout=None)
    if old is not None:
        if not s.or_replace:
            f.diag(W_REPLAY_INEXACT, f"view {_dotted(key)} created twice", s.origin)
        old.node = node
        old.order = m.next_order()
        return
    if m.relation_kind(key) is not None:
        f.diag(W_REPLAY_INEXACT, f"view {_dotted(key)}: a {m.relation_kind(key)} of that name exists", s.origin)
    m.views[key] = View(node, order=m.next_order())


# ---- COMMENT -----------------------------------------------------------------------------------
def comment(f: Any, s: Any) -> None:
    m = f.model
    word = _relation_words(s.objtype)
    text = s.comment or None
    ident = s.identity
    target: Any = None
    if s.on_constraint and not s.domain and s.parent is not None:
        t = m.tables.get(_key(s.parent))
        name = getattr(ident, "name", None)
        target = t.constraint(name) if t is not None and name else None
    elif word == "SCHEMA" and isinstance(ident, SchemaName):
        target = m.schemas.get(ident.name)
    elif word == "COLUMN" and isinstance(ident, QualifiedName) and ident.attr is not None:
        t = m.tables.get(_key(ident))
        target = t.column(ident.attr) if t is not None else None
        v = m.views.get(_key(ident)) if t is None else None
        if v is not None:  # a view's column (its output columns are not modelled: any name is taken)
            if text is None:
                v.column_comments.pop(ident.attr, None)
            else:
                v.column_comments[ident.attr] = text
            return
    elif isinstance(ident, QualifiedName) and word in ("TABLE", "FOREIGN TABLE", "VIEW", "INDEX", "SEQUENCE",
                                                       "LARGE SEQUENCE"):
        d = {"VIEW": m.views, "INDEX": m.indexes}.get(word, m.sequences if "SEQUENCE" in word else m.tables)
        target = d.get(_key(ident))
    else:
        f.diag(N_REPLAY_NOT_FOLDED, f"COMMENT ON {word} not folded", s.origin)
        return
    if target is None:
        f.diag(W_REPLAY_UNKNOWN, f"COMMENT ON {word} {s.identity_text or ''}: not in the replayed schema", s.origin)
        return
    target.comment = text


__all__ = ["alter_sequence", "comment", "create_index", "create_schema", "create_sequence", "create_view", "kind_of", "move_table", "owned_sequences", "rename_column", "rename_column_stmt", "sequence_moved", "rename_constraint", "rename_relation", "rename_schema", "rename_tables", "set_schema"]
