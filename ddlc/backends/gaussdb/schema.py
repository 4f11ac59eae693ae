"""GaussDB emitters: CREATE SCHEMA / ALTER SCHEMA (§5.11)."""

from __future__ import annotations

from typing import Any

from ...ir.schema import AlterSchemaBlockchain, AlterSchemaCharset, CreateSchema
from .writer import Writer, emits


def _name_key(layout: str | None) -> str:
    """The spelling of the schema-name key the layout uses (GaussDB may write ``schema_name``)."""
    return "schema_name" if layout is not None and "%{schema_name}" in layout else "schemaname"


@emits(CreateSchema)
def create_schema(n: CreateSchema, w: Writer) -> dict[str, Any]:
    return {
        "fmt": n.layout or "CREATE SCHEMA %{if_not_exists}s %{name}I %{authorization}s %{blockchain}s",
        "if_not_exists": "IF NOT EXISTS" if n.if_not_exists else "",
        "name": n.name or "",
        "authorization": ({"fmt": "AUTHORIZATION %{authorization_role}I", "authorization_role": n.authorization}
                          if n.authorization is not None else w.absent("AUTHORIZATION %{authorization_role}I")),
        "blockchain": {"fmt": "WITH BLOCKCHAIN"} if n.blockchain else w.absent("WITH BLOCKCHAIN %{blockchain}s"),
    }


@emits(AlterSchemaBlockchain)
def alter_schema_blockchain(n: AlterSchemaBlockchain, w: Writer) -> dict[str, Any]:
    key = _name_key(n.layout)
    return {"fmt": n.layout or "ALTER SCHEMA %{schemaname}I %{with}s BLOCKCHAIN", key: n.name,
            "with": "WITH" if n.with_ else "WITHOUT"}


@emits(AlterSchemaCharset)
def alter_schema_charset(n: AlterSchemaCharset, w: Writer) -> dict[str, Any]:
    key = _name_key(n.layout)
    fmt = "ALTER SCHEMA %{schemaname}I"
    d: dict[str, Any] = {key: n.name}
    if n.charset is not None:
        fmt += " CHARACTER SET = %{charset}s"
        d["charset"] = n.charset
    if n.collate is not None:
        fmt += " COLLATE = %{collate}s"
        d["collate"] = n.collate
    return {"fmt": n.layout or fmt, **d}
