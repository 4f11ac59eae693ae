"""Builders: CREATE INDEX (reference §5.5)."""

from __future__ import annotations


from ...diagnostics import Severity, register
from ...ir.index import CreateIndex, IndexDefinition
from ..sql.index import parse_definition
from . import shape
from ._read import Obj
from .drop import keyword
from ... import lazyre

N_INDEX_DEFINITION = register(
    "DDLC-N310", Severity.NOTE, "Index definition not parsed",
    "The pre-rendered `definition` of a CREATE INDEX (key columns, operator classes, INCLUDE, "
    "GLOBAL/LOCAL partition list) is not in the form `pg_get_indexdef_detailed` prints. It is kept as "
    "text: the GaussDB target prints it unchanged, other targets cannot translate the key list.",
    '{"definition": "(a int4_ops"}',
)

_INVISIBLE = lazyre.compile(r"(?:^|\s)INVISIBLE(?:\s|$)")


def _opt(o: Obj, name: str) -> str | None:
    """An optional tail member (absent = not written); a present value is kept even when empty."""
    if not o.has(name):
        return None
    return o.str(name)


@shape("create_index", r"CREATE %\{unique\}s INDEX ")
def build_create_index(o: Obj) -> CreateIndex:
    text = o.str("definition")
    parsed = parse_definition(text, o.at("definition"))
    if not isinstance(parsed, IndexDefinition):
        o.ctx.diag(N_INDEX_DEFINITION, f"index definition not parsed ({parsed}); kept as text",
                   o.at("definition"))
        parsed = IndexDefinition(())
    where = o.expr("where") if o.has("where") else None
    fmt = o.fmt
    return CreateIndex(
        name=o.str("name"),
        table=o.qname("table"),
        method=o.str("index_am"),
        definition_text=text,
        keys=parsed.keys,
        include=parsed.include,
        partition_scope=parsed.scope,
        partitions=parsed.partitions,
        subpartitioned=parsed.subpartitioned,
        unique=keyword(o, "unique", "UNIQUE"),
        concurrently=keyword(o, "concurrently", "CONCURRENTLY"),
        options=_opt(o, "opts"),
        tablespace=_opt(o, "tablespace"),
        invisible="INVISIBLE" in fmt and _INVISIBLE.search(fmt) is not None,  # (the pattern needs the word)
        where=where,
        origin=o.path,
        layout=fmt,
    )
