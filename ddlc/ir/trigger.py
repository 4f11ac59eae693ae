"""CREATE TRIGGER (reference §5.10).

ALTER TRIGGER ... RENAME and ENABLE/DISABLE TRIGGER are not here (no message, and an ALTER TABLE
subcommand); DROP TRIGGER is a DROP (§5.4).
"""

from __future__ import annotations

import enum

from .base import Node, layout_field, node
from .names import Expr, QualifiedName
from .statement import Statement


class TriggerTiming(str, enum.Enum):
    BEFORE = "BEFORE"
    AFTER = "AFTER"
    INSTEAD_OF = "INSTEAD OF"


class TriggerEventKind(str, enum.Enum):
    INSERT = "INSERT"
    DELETE = "DELETE"
    TRUNCATE = "TRUNCATE"
    UPDATE = "UPDATE"


class TriggerLevel(str, enum.Enum):
    ROW = "ROW"
    STATEMENT = "STATEMENT"


@node
class TriggerEvent(Node):
    """An event; ``UPDATE OF a, b`` has ``columns`` (and the ``UPDATE OF`` object's fmt as layout).

    The server lists events in the order INSERT, DELETE, TRUNCATE, UPDATE whatever the user wrote.
    """

    kind: TriggerEventKind
    columns: tuple[str, ...] = ()
    layout: str | None = layout_field()


@node
class TriggerConstraintAttrs(Node):
    """Constraint triggers only: ``[NOT] DEFERRABLE INITIALLY {IMMEDIATE|DEFERRED}``."""

    deferrable: bool = False
    initially_deferred: bool = False


@node
class TriggerFunction(Node):
    """``EXECUTE PROCEDURE schema.fn ( 'arg', ... )``: the arguments are string constants."""

    name: QualifiedName
    args: tuple[str, ...] = ()
    layout: str | None = layout_field()


@node
class CreateTrigger(Statement):
    """``CREATE [DEFINER=u] [CONSTRAINT] TRIGGER [IF NOT EXISTS] name timing events ON relation
    [FROM table] [constraint attrs] FOR EACH ROW|STATEMENT [WHEN (cond)] EXECUTE PROCEDURE f(args)``.

    ``definer``, ``if_not_exists`` and the inline ``body`` are B-compatibility (dolphin) features:
    such triggers have ``body`` (``BEGIN ... END``, as the server wrote it, leading blanks
    included) and no ``function``. ``when`` is the condition text without its outer parentheses
    (as the server wrote it: usually itself parenthesized).
    """

    name: str
    timing: TriggerTiming
    events: tuple[TriggerEvent, ...]
    relation: QualifiedName
    for_each: TriggerLevel = TriggerLevel.ROW
    definer: str | None = None
    constraint: bool = False
    if_not_exists: bool = False
    from_table: QualifiedName | None = None
    constraint_attrs: TriggerConstraintAttrs | None = None
    when: Expr | None = None
    function: TriggerFunction | None = None
    body: str | None = None


__all__ = [
    "TriggerTiming", "TriggerEventKind", "TriggerLevel", "TriggerEvent", "TriggerConstraintAttrs",
    "TriggerFunction", "CreateTrigger",
]
