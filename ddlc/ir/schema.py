"""CREATE SCHEMA and ALTER SCHEMA (reference §5.11). RENAME is §5.13, DROP is §5.4."""

from __future__ import annotations

from .base import node
from .statement import Statement


@node
class CreateSchema(Statement):
    """``CREATE SCHEMA [IF NOT EXISTS] name [AUTHORIZATION role] [WITH BLOCKCHAIN]``.

    ``name`` None: the statement gave only ``AUTHORIZATION role`` (the schema is named after the
    role; the server prints ``""`` for the name, which does not replay). ``blockchain``: a
    ledger schema (openGauss only; its tables get a hidden ``hash`` column). B-compatible
    CHARACTER SET / COLLATE options are not in the tree.
    """

    name: str | None
    if_not_exists: bool = False
    authorization: str | None = None
    blockchain: bool = False


@node
class AlterSchemaBlockchain(Statement):
    """``ALTER SCHEMA name {WITH|WITHOUT} BLOCKCHAIN`` (openGauss ledger databases)."""

    name: str
    with_: bool


@node
class AlterSchemaCharset(Statement):
    """B-compatibility ``ALTER SCHEMA name [CHARACTER SET = cs] [COLLATE = c]`` (at least one)."""

    name: str
    charset: str | None = None
    collate: str | None = None


__all__ = ["CreateSchema", "AlterSchemaBlockchain", "AlterSchemaCharset"]
