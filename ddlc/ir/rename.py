"""RENAME (reference §5.13) and ALTER ... SET SCHEMA (§5.14).

``objtype`` members are the server's words (``TABLE``, ``INDEX``, ``SEQUENCE``, ``LARGE SEQUENCE``,
``VIEW``, ... or ``???``), kept as written.
"""

from __future__ import annotations

from .base import Node, layout_field, node
from .drop import Identity
from .names import QualifiedName
from .statement import Statement


@node
class RenameRelation(Statement):
    """``ALTER {TABLE|INDEX|SEQUENCE|VIEW} [IF EXISTS] x RENAME TO y``."""

    objtype: str
    identity: QualifiedName
    new_name: str
    if_exists: bool = False


@node
class RenameColumn(Statement):
    """``ALTER <objtype> [IF EXISTS] x RENAME COLUMN a TO b`` (the IF EXISTS slot exists only when
    it was written)."""

    objtype: str
    identity: QualifiedName
    column: str
    new_name: str
    if_exists: bool = False


@node
class RenameAttribute(Statement):
    """``ALTER TYPE t RENAME ATTRIBUTE a TO b [CASCADE]``."""

    identity: QualifiedName
    attribute: str
    new_name: str
    cascade: bool = False


@node
class RenameConstraint(Statement):
    """``ALTER TABLE t RENAME CONSTRAINT a TO b``."""

    identity: QualifiedName
    constraint: str
    new_name: str


@node
class RenameSchema(Statement):
    """``ALTER SCHEMA s RENAME TO s2`` (``identity`` is a plain name)."""

    identity: str
    new_name: str


@node
class RenameType(Statement):
    """``ALTER TYPE t RENAME TO t2``."""

    identity: QualifiedName
    new_name: str


@node
class RenamePair(Node):
    old: QualifiedName
    new: QualifiedName
    layout: str | None = layout_field()


@node
class RenameTables(Statement):
    """B-compatibility ``RENAME TABLE a TO b [, c TO d ...]``."""

    pairs: tuple[RenamePair, ...]


@node
class SetSchema(Statement):
    """``ALTER <objtype> <identity> SET SCHEMA <new_schema>``; ``identity`` parsed as for COMMENT
    (None when it could not be read or the object type is ``???``)."""

    objtype: str
    identity_text: str
    new_schema: str
    identity: Identity | None = None


__all__ = [
    "RenameRelation", "RenameColumn", "RenameAttribute", "RenameConstraint", "RenameSchema",
    "RenameType", "RenamePair", "RenameTables", "SetSchema",
]
