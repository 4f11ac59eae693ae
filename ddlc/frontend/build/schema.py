"""Builders: CREATE SCHEMA / ALTER SCHEMA (reference §5.11)."""

from __future__ import annotations

import re

from ...ir.schema import AlterSchemaBlockchain, AlterSchemaCharset, CreateSchema
from ...ir.statement import Statement
from . import shape
from ._read import Obj
from .routine import Unrecognized, exact, keep_as_text, sub
from ... import lazyre


@shape("create_schema", r"CREATE SCHEMA ")
@keep_as_text("CREATE SCHEMA")
def build_create_schema(o: Obj) -> Statement:
    if o.fmt != "CREATE SCHEMA %{if_not_exists}s %{name}I %{authorization}s %{blockchain}s":
        raise Unrecognized(f"unexpected fmt {o.fmt!r}", o.at("fmt"))
    auth = sub(o, "authorization", "AUTHORIZATION %{authorization_role}I")
    chain = sub(o, "blockchain", "WITH BLOCKCHAIN")
    name = o.str("name")
    return CreateSchema(
        name or None,
        if_not_exists=exact(o, "if_not_exists", "", "IF NOT EXISTS") == "IF NOT EXISTS",
        authorization=None if auth is None else auth.str("authorization_role"),
        blockchain=chain is not None,
        layout=o.fmt,
        origin=o.path,
    )


_CHARSET = lazyre.compile(
    r"ALTER SCHEMA %\{(?P<key>schema_?name)\}I(?P<cs> CHARACTER SET = %\{charset\}s)?(?P<co> COLLATE = %\{collate\}s)?\Z"
)


@shape("alter_schema", r"ALTER SCHEMA %\{schema_?name\}I")
@keep_as_text("ALTER SCHEMA")
def build_alter_schema(o: Obj) -> Statement:
    chain = re.fullmatch(r"ALTER SCHEMA %\{(schema_?name)\}I %\{with\}s BLOCKCHAIN", o.fmt)
    if chain is not None:
        name = o.str(chain.group(1))
        with_ = exact(o, "with", "WITH", "WITHOUT") == "WITH"
        return AlterSchemaBlockchain(name, with_, layout=o.fmt, origin=o.path)
    m = _CHARSET.match(o.fmt)
    if m is None or not (m.group("cs") or m.group("co")):
        raise Unrecognized(f"unexpected fmt {o.fmt!r}", o.at("fmt"))
    return AlterSchemaCharset(
        o.str(m.group("key")),
        charset=o.str("charset") if m.group("cs") else None,
        collate=o.str("collate") if m.group("co") else None,
        layout=o.fmt,
        origin=o.path,
    )


__all__ = ["build_create_schema", "build_alter_schema"]
