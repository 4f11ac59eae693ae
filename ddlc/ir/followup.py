"""ALTER TABLE follow-up messages (reference §4.8, §5.3).

After the main ALTER TABLE message the server writes separate messages for added columns with
defaults, added NOT NULL columns with defaults and AUTO_INCREMENT columns:

* :class:`AlterTableFollowup` — ``ALTER TABLE [ONLY] t <subcmds>`` (SET DEFAULT, MODIFY COLUMN ...
  AUTO_INCREMENT, held-back ADD CONSTRAINT) or ``ALTER TABLE [ONLY] t ALTER COLUMN c SET NOT NULL``;
* :class:`BackfillUpdate` — ``UPDATE t SET c = <default> WHERE c IS NULL``: DML carried as a DDL
  message (DDLC-I201);
* :class:`AutoIncrementBackfill` — an anonymous PL/pgSQL block filling an AUTO_INCREMENT column
  through a temporary large sequence (DDLC-I202).
"""

from __future__ import annotations

from .alter import AlterRelation, AlterSubcommand
from .base import node
from .names import Expr, QualifiedName, TypeName
from .statement import Statement


@node
class AlterTableFollowup(AlterRelation):
    """A follow-up ALTER TABLE (objtype is always TABLE; the tree has no ``objtype`` key).

    The ``... ALTER COLUMN %{name}I SET NOT NULL`` form is one :class:`~ddlc.ir.alter_columns.SetNotNull`
    subcommand; the layout tells the two forms apart.
    """


@node
class ModifyColumnAutoIncrement(AlterSubcommand):
    """``MODIFY COLUMN c <type> AUTO_INCREMENT [NULL]`` (follow-up subcommand, no ``type`` key)."""

    column: str
    type: TypeName
    null: bool = False  # a literal `` NULL`` (column not declared NOT NULL / NULL written)


@node
class BackfillUpdate(Statement):
    """``UPDATE t SET c = <default> WHERE c IS NULL`` for a column added with a non-constant default.

    DML, not DDL: it rewrites existing rows on the subscriber, exactly as the publisher's ALTER did.
    """

    identity: QualifiedName
    column: str
    value: Expr


@node
class AutoIncrementBackfill(Statement):
    """The ``DECLARE ... BEGIN ... END;`` block that numbers the NULL rows of an added or modified
    NOT NULL AUTO_INCREMENT column (creates and drops the large sequence ``seqname``)."""

    typname: str  # bool, int1, int2, int4, int8 or int16 (pg_catalog)
    identity: QualifiedName  # the table
    colname: str
    seqname: QualifiedName
