"""DROP in the fold (``ddlc replay``, see :mod:`.fold`): a dropped object takes with it what depends on it
(a table its indexes, owned sequences, the foreign keys that reference it and the views that read it; a
column the constraints, indexes and views that use it), as PostgreSQL's dependencies do.
"""

from __future__ import annotations

from typing import Any

from ..diagnostics import I_REPLAY_NO_CHANGE, N_REPLAY_NOT_FOLDED, W_REPLAY_INEXACT, W_REPLAY_UNKNOWN
from ..ir.base import replace
from ..ir.constraints import ConstraintKind
from ..ir.drop import DropObjectType, SchemaName
from ..ir.names import QualifiedName
from .fold_sequences import owned_sequences
from .rewrite import column_refs, names_sequence
from .schema_model import Constraint, Key, Table
from .fold_objects import _dotted, _key


# ---- DROP --------------------------------------------------------------------------------------
def drop(f: Any, s: Any) -> None:
    m = f.model
    ident = s.identity
    kind = s.objtype
    if ident is None:
        f.diag(W_REPLAY_INEXACT, "DROP of an identity that was not read: not folded", s.origin)
        return
    if kind is DropObjectType.SCHEMA and isinstance(ident, SchemaName):
        found = ident.name in m.schemas or any(k[0] == ident.name for d in (m.tables, m.views, m.sequences)
                                                for k in d)
        if not found:
            _absent(f, s, f"schema {ident.name}")
            return
        m.schemas.pop(ident.name, None)
        for key in [k for k in m.tables if k[0] == ident.name]:
            drop_table(f, key, cascade=True)
        for d in (m.views, m.sequences, m.indexes):
            for key in [k for k in d if k[0] == ident.name]:
                d.pop(key, None)
        return
    if not isinstance(ident, QualifiedName) or kind not in _DROPPABLE:
        f.diag(N_REPLAY_NOT_FOLDED, f"DROP {s.objtype_text or kind.value.upper()} not folded", s.origin)
        return
    key = _key(ident)
    d = _DROPPABLE[kind](m)
    if key not in d:
        _absent(f, s, f"{kind.value} {_dotted(key)}")
        return
    if kind is DropObjectType.TABLE:
        drop_table(f, key, cascade=s.cascade)
    elif kind is DropObjectType.VIEW:
        drop_view(f, key)
    elif kind in (DropObjectType.SEQUENCE, DropObjectType.LARGE_SEQUENCE):
        d.pop(key)
        if s.cascade:  # the defaults that name it go with it
            for t in m.tables.values():
                for c in t.columns:
                    if c.defn.default is not None and names_sequence(c.defn.default, key):
                        c.defn = replace(c.defn, default=None)
    else:
        d.pop(key)


_DROPPABLE = {
    DropObjectType.TABLE: lambda m: m.tables,
    DropObjectType.INDEX: lambda m: m.indexes,
    DropObjectType.VIEW: lambda m: m.views,
    DropObjectType.SEQUENCE: lambda m: m.sequences,
    DropObjectType.LARGE_SEQUENCE: lambda m: m.sequences,
}


def _absent(f: Any, s: Any, what: str) -> None:
    if s.if_exists:
        f.diag(I_REPLAY_NO_CHANGE, f"{what} does not exist (IF EXISTS)", s.origin)
    else:
        f.diag(W_REPLAY_UNKNOWN, f"{what} is not in the replayed schema", s.origin)


def drop_view(f: Any, key: Key) -> None:
    m = f.model
    m.views.pop(key, None)
    for other in [v for v in m.views.values() if any(_key(r) == key for r in v.node.references)]:
        drop_view(f, other.key)  # a view that reads it can only be gone with it (CASCADE)


def drop_table(f: Any, key: Key, cascade: bool) -> None:
    """A table and what cannot outlive it: its indexes, sequences owned by its columns, the foreign
    keys that reference it and the views that read it (the last two need CASCADE in the database)."""
    m = f.model
    m.tables.pop(key, None)
    for idx in m.indexes_of(key):
        m.indexes.pop(idx.key, None)
    for sq in owned_sequences(m, key):
        m.sequences.pop(sq.key, None)
    for t in m.tables.values():
        t.constraints = [c for c in t.constraints if getattr(c.info, "references", None) is None
                         or _key(c.info.references) != key]
    for v in [v for v in m.views.values() if any(_key(r) == key for r in v.node.references)]:
        drop_view(f, v.key)


def drop_column(f: Any, t: Table, name: str) -> None:
    """A column and what depends on it: indexes and constraints that use it, foreign keys that
    reference it, views that read it (CASCADE)."""
    m = f.model
    t.columns = [c for c in t.columns if c.name != name]
    for sq in owned_sequences(m, t.key, name):  # a sequence owned by the column is dropped with it
        m.sequences.pop(sq.key, None)
    gone = [c for c in t.constraints if _uses(c, name)]
    for c in gone:
        drop_constraint(f, t, c)
    for idx in m.indexes_of(t.key):
        n = idx.node
        exprs = [k.expression for k in n.keys if k.expression is not None] + ([n.where] if n.where else [])
        if name in (*(k.column for k in n.keys), *n.include) or any(
                e.tree is not None and column_refs(e.tree, name) for e in exprs):
            m.indexes.pop(idx.key, None)
    for v in [v for v in m.views.values() if any(_key(r) == t.key for r in v.node.references)
              and (v.node.query.tree is None or column_refs(v.node.query.tree, name))]:
        drop_view(f, v.key)


def _uses(c: Constraint, column: str) -> bool:
    info = c.info
    if info is None:
        return False
    if column in (*info.columns, *info.include):
        return True
    return info.check is not None and info.check.tree is not None and column_refs(info.check.tree, column)


def drop_constraint(f: Any, t: Table, c: Constraint) -> None:
    """A constraint; a PRIMARY KEY or UNIQUE one takes the foreign keys that reference its columns."""
    t.constraints.remove(c)
    info = c.info
    if info is None or info.kind not in (ConstraintKind.PRIMARY_KEY, ConstraintKind.UNIQUE):
        return
    for other in f.model.tables.values():
        other.constraints = [
            x for x in other.constraints
            if not (x.info is not None and x.info.references is not None and _key(x.info.references) == t.key
                    and set(x.info.ref_columns or info.columns) == set(info.columns))]


__all__ = ["drop", "drop_column", "drop_constraint", "drop_table", "drop_view"]
