"""GaussDB emitters: CREATE SEQUENCE, ALTER SEQUENCE and their option elements."""

from __future__ import annotations

from typing import Any

from ...ir.sequence import AlterSequence, CreateSequence, SeqClause, SeqOption
from .writer import Writer, emits
from .drop import fit, word

CREATE_FMT = "CREATE %{persistence}s %{large}s SEQUENCE %{identity}D %{definition: }s"
ALTER_FMT = "ALTER %{large}s SEQUENCE %{identity}D %{definition: }s"

_VALUED = {
    SeqClause.CACHE: ("cache", "CACHE %{value}s"),
    SeqClause.INCREMENT: ("seqincrement", "INCREMENT BY %{value}s"),
    SeqClause.MINVALUE: ("minvalue", "MINVALUE %{value}s"),
    SeqClause.MAXVALUE: ("maxvalue", "MAXVALUE %{value}s"),
    SeqClause.START: ("start", "START WITH %{value}s"),
    SeqClause.RESTART: ("restart", "RESTART %{value}s"),
}


@emits(SeqOption)
def seq_option(n: SeqOption, w: Writer) -> dict[str, Any]:
    c = n.clause
    if c in _VALUED:
        tag, fmt = _VALUED[c]
        if n.value is None:
            raise ValueError(f"SeqOption {c.value} without a value")
        if n.layout is not None and n.layout.startswith("SET ") and c is not SeqClause.RESTART:
            fmt = "SET " + fmt  # the deparser's (unused) ALTER TABLE variant
        return fit(n.layout, fmt, {"clause": tag, "value": n.value})
    if c is SeqClause.CYCLE:
        return fit(n.layout, "%{no}s CYCLE", {"clause": "cycle", "no": word(n.no, "NO")})
    if c is SeqClause.ORDER:
        return fit(n.layout, "%{order}s", {"clause": "order", "order": "NOORDER" if n.no else "ORDER"})
    if c is SeqClause.OWNED:
        if n.owner is None:  # OWNED BY NONE: the server's not-present element
            return fit(n.layout, "OWNED BY %{owner}D", {"clause": "owned", "owner": None, "present": False})
        return fit(n.layout, "OWNED BY %{owner}D", {"clause": "owned", "owner": w.qname(n.owner)})
    if n.type is None:
        raise ValueError("SeqOption AS without a type")
    return fit(n.layout, "AS %{identity}D", {"identity": w.qname(n.type)})


@emits(CreateSequence)
def create_sequence(n: CreateSequence, w: Writer) -> dict[str, Any]:
    return fit(n.layout, CREATE_FMT, {
        "persistence": n.persistence.value,
        "large": word(n.large, "LARGE"),
        "identity": w.qname(n.identity),
        "definition": [w.tree(x) for x in n.options],
    })


@emits(AlterSequence)
def alter_sequence(n: AlterSequence, w: Writer) -> dict[str, Any]:
    return fit(n.layout, ALTER_FMT, {
        "large": word(n.large, "LARGE"),
        "identity": w.qname(n.identity),
        "definition": [w.tree(x) for x in n.options],
    })
