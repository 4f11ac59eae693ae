"""CREATE TYPE (reference §5.15): composite and enum types.

Base, range, shell and set types are not deparsed by the server; ALTER TYPE goes through the
ALTER family, RENAME / SET SCHEMA through theirs.
"""

from __future__ import annotations

from .base import node
from .columns import ColumnDef
from .names import QualifiedName
from .statement import Statement


@node
class CreateCompositeType(Statement):
    """``CREATE TYPE name AS (attr type [COLLATE c], ...)``; attributes are column definitions."""

    identity: QualifiedName
    attributes: tuple[ColumnDef, ...] = ()


@node
class CreateEnumType(Statement):
    """``CREATE TYPE name AS ENUM ('label', ...)``; ``labels`` in declaration order."""

    identity: QualifiedName
    labels: tuple[str, ...] = ()
