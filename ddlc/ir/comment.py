"""COMMENT ON (reference §3.6, §5.12).

Two shapes: ``COMMENT ON <objtype> <identity> IS ...`` and ``COMMENT ON CONSTRAINT <name> ON
[DOMAIN] <parent> IS ...``. ``objtype`` is the server's word (``TABLE``, ``COLUMN``, ... or the
defect ``???``; ``CONSTRAINT`` for the second shape); identities are parsed as for DROP
(a column is ``QualifiedName(table, schema, attr=column)``).
"""

from __future__ import annotations

from .base import layout_field, node
from .drop import Identity
from .names import QualifiedName
from .statement import Statement


@node
class Comment(Statement):
    """``comment`` None is ``IS NULL``; ``""`` is ``IS ''``, which the server writes as nothing."""

    objtype: str
    identity_text: str
    identity: Identity | None = None
    comment: str | None = None
    on_constraint: bool = False
    domain: bool = False  # COMMENT ON CONSTRAINT c ON DOMAIN d
    parent_text: str | None = None  # the table or domain of a constraint, pre-quoted
    parent: QualifiedName | None = None
    domain_word: str | None = layout_field()  # the ``domain`` member as written (formatting only)


__all__ = ["Comment"]
