"""GaussDB emitters: CREATE INDEX.

The ``definition`` text is rendered the way ``pg_get_indexdef_detailed`` prints it; the text the
node came with is reused while it is there (a pass that changes the parsed definition clears it),
so an unchanged definition stays byte-exact. Nothing here parses text.
"""

from __future__ import annotations

from typing import Any

from ...errors import InternalError
from ...ir.index import CreateIndex, IndexDefinition, IndexKey, IndexPartition, PartitionScope
from ...quoting import quote_ident
from .writer import Writer, emits
from .drop import fit, render_qname, word

INDEX_FMT = "CREATE %{unique}s INDEX %{concurrently}s %{name}I ON %{table}D USING %{index_am}s %{definition}s"


def render_key(k: IndexKey) -> str:
    if k.expression is not None:
        out = k.expression.text
    elif k.column is not None:
        out = quote_ident(k.column)
    else:
        raise ValueError("IndexKey without column or expression")
    if k.collation is not None:
        out += " COLLATE " + render_qname(k.collation)
    if k.opclass is not None:
        out += " " + render_qname(k.opclass)
    if k.ordering is not None:
        out += " " + k.ordering.value
    if k.nulls is not None:
        out += " NULLS " + k.nulls.value
    return out


def _partition(p: IndexPartition, sub: bool) -> str:
    out = ("SUBPARTITION " if sub else "PARTITION ") + quote_ident(p.name)
    if p.tablespace is not None:
        out += " TABLESPACE " + quote_ident(p.tablespace)
    return out


def render_definition(d: IndexDefinition) -> str:
    out = "(" + ", ".join(render_key(k) for k in d.keys)
    glob = d.scope is PartitionScope.GLOBAL
    if d.include:
        out += (") GLOBAL " if glob else ") ") + "INCLUDE (" + ", ".join(quote_ident(c) for c in d.include)
    out += ")"
    if glob and not d.include:
        out += "GLOBAL"
    if d.scope is PartitionScope.LOCAL:
        out += " LOCAL("
        if d.subpartitioned:
            groups = []
            for g in d.partitions:
                subs = ", ".join("\n        " + _partition(s, True) for s in g.subpartitions)
                groups.append("    PARTITION " + quote_ident(g.name) + "(" + subs + "\n    )")
            out += "\n" + ",\n".join(groups) + "\n"
        else:
            out += ", ".join(_partition(p, False) for p in d.partitions)
        out += ") "
    return out


def definition_text(n: CreateIndex) -> str:
    """The definition as it came while it is there, else rendered from the parsed fields."""
    if n.definition_text is not None:
        return n.definition_text
    d = n.definition()
    if d is None:
        raise InternalError("gaussdb: index with neither definition text nor keys", path=n.origin)
    return render_definition(d)


@emits(CreateIndex)
def create_index(n: CreateIndex, w: Writer) -> dict[str, Any]:
    fmt = INDEX_FMT
    d: dict[str, Any] = {
        "unique": word(n.unique, "UNIQUE"),
        "concurrently": word(n.concurrently, "CONCURRENTLY"),
        "name": n.name,
        "table": w.qname(n.table),
        "index_am": n.method,
        "definition": definition_text(n),
    }
    if n.options is not None:
        fmt += " WITH (%{opts}s)"
        d["opts"] = n.options
    if n.tablespace is not None:
        fmt += " TABLESPACE %{tablespace}s"
        d["tablespace"] = n.tablespace
    if n.invisible:
        fmt += " INVISIBLE"
    if n.where is not None:
        fmt += " WHERE %{where}s"
        d["where"] = w.text(n.where)
    return fit(n.layout, fmt, d)
