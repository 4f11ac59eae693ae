"""The fold of sequences (``ddlc replay``, see :mod:`.fold`): CREATE/ALTER SEQUENCE, and PostgreSQL's
ownership rules: a sequence renamed or moved is followed by the defaults and view queries that name it by a
``nextval('...')`` literal (the database stores its OID); the sequences a column owns (``OWNED BY``) are
found here for the renames and drops of :mod:`.fold_objects`.
"""

from __future__ import annotations

from typing import Any

from ..diagnostics import W_REPLAY_INEXACT, W_REPLAY_UNKNOWN
from ..ir.base import replace
from ..ir.names import QualifiedName
from ..ir.sequence import SeqClause
from .rewrite import names_sequence, sequence_renamed
from .schema_model import Key, Sequence


def _key(q: QualifiedName) -> Key:
    return (q.schema, q.name)


def _dotted(key: Key) -> str:
    return f"{key[0]}.{key[1]}" if key[0] is not None else key[1]


def owned_sequences(m: Any, table: Key, column: str | None = None) -> list[Sequence]:
    """The sequences owned by a column of ``table`` (by ``column`` when given)."""
    return [sq for sq in m.sequences.values()
            if any(o.clause is SeqClause.OWNED and o.owner is not None and _key(o.owner) == table
                   and (column is None or o.owner.attr == column) for o in sq.node.options)]


def sequence_moved(f: Any, old: Key, new: Key, stmt: Any) -> None:
    """Sequence ``old`` is now ``new`` (renamed, or moved to another schema): the defaults and view queries
    that name it by a ``nextval('...')`` literal follow, as PostgreSQL's stored regclass does."""
    m = f.model
    for t in m.tables.values():
        for c in t.columns:
            for fld in ("default", "generated"):
                e = getattr(c.defn, fld)
                if e is None or not names_sequence(e, old):
                    continue
                r = sequence_renamed(e, old, new)
                if r is None:
                    f.diag(W_REPLAY_INEXACT, f"{fld} of column {t.schema}.{t.name}.{c.name} still names sequence "
                                             f"{_dotted(old)} (now {_dotted(new)}): written as it was", stmt.origin)
                elif r is not e:
                    c.defn = replace(c.defn, **{fld: r})
    for v in m.views.values():
        q = v.node.query
        if not names_sequence(q, old):
            continue
        r = sequence_renamed(q, old, new)
        if r is None:
            f.diag(W_REPLAY_INEXACT, f"view {v.node.identity.dotted()}: its query still names sequence "
                                     f"{_dotted(old)} (now {_dotted(new)})", stmt.origin)
        elif r is not q:
            v.node = replace(v.node, query=r, layout=None)



# ---- CREATE / ALTER SEQUENCE ------------------------------------------------------------------
def create_sequence(f: Any, s: Any) -> None:
    m = f.model
    m.sequences[_key(s.identity)] = Sequence(replace(s, layout=None), order=m.next_order())


def alter_sequence(f: Any, s: Any) -> None:
    sq = f.model.sequences.get(_key(s.identity))
    if sq is None:
        f.diag(W_REPLAY_UNKNOWN, f"sequence {s.identity.dotted()} is not in the replayed schema", s.origin)
        return
    opts = list(sq.node.options)
    for o in s.options:
        if o.clause is SeqClause.RESTART and o.value is None:
            # RESTART without a value: the start value the sequence has now (GaussDB writes the new value)
            start = next((p for p in opts if p.clause is SeqClause.START), None)
            if start is None:
                f.diag(W_REPLAY_INEXACT, f"sequence {s.identity.dotted()}: RESTART without a value and no START "
                                         "known: its next value is not kept", o.origin)
                continue
            o = replace(o, value=start.value)
        if o.clause is SeqClause.OWNED and o.owner is not None:
            t = f.model.tables.get(_key(o.owner))
            if t is None or t.column(o.owner.attr or "") is None:
                f.diag(W_REPLAY_UNKNOWN, f"sequence {s.identity.dotted()}: OWNED BY {o.owner.dotted()}, a column "
                                         "not in the replayed schema: the ownership is not kept", o.origin)
                continue
        opts = [p for p in opts if p.clause is not o.clause] + [replace(o, layout=None)]
    # the next value (RESTART, the sequence's last_value as GaussDB writes it) is kept: the script hands out
    # the value the log left; OWNED BY NONE is the absence of an owner
    sq.node = replace(sq.node, options=tuple(p for p in opts if not (p.clause is SeqClause.OWNED and p.owner is None)))


__all__ = ["alter_sequence", "create_sequence", "owned_sequences", "sequence_moved"]
