"""Sequences (reference §3.7, §5.6): CREATE SEQUENCE and ALTER SEQUENCE with their options.

Values stay decimal strings: LARGE sequences go up to 2^127 - 1.
"""

from __future__ import annotations

import enum

from .base import Node, layout_field, node
from .names import QualifiedName
from .statement import Statement


class Persistence(str, enum.Enum):
    """The ``persistence`` word of CREATE SEQUENCE / CREATE VIEW (``get_persistence_str``)."""

    PERMANENT = ""
    UNLOGGED = "UNLOGGED"
    TEMPORARY = "TEMPORARY"
    GLOBAL_TEMPORARY = "GLOBAL TEMPORARY"


class SeqClause(str, enum.Enum):
    CACHE = "cache"
    CYCLE = "cycle"  # ``no``: NO CYCLE
    INCREMENT = "increment"  # JDDL clause tag "seqincrement"
    MINVALUE = "minvalue"
    MAXVALUE = "maxvalue"
    START = "start"
    RESTART = "restart"
    OWNED = "owned"  # ``owner`` None: OWNED BY NONE (a not-present element on the wire)
    ORDER = "order"  # ``no``: NOORDER
    AS = "as"  # ``type``: the data type; no clause tag on the wire


@node
class SeqOption(Node):
    clause: SeqClause
    value: str | None = None  # decimal string (CACHE, INCREMENT, MIN/MAXVALUE, START, RESTART)
    no: bool = False  # NO CYCLE / NOORDER
    owner: QualifiedName | None = None  # OWNED BY schema.table.column (attr = column)
    type: QualifiedName | None = None  # AS schema.type
    layout: str | None = layout_field()


@node
class CreateSequence(Statement):
    identity: QualifiedName
    options: tuple[SeqOption, ...] = ()
    persistence: Persistence = Persistence.PERMANENT
    large: bool = False


@node
class AlterSequence(Statement):
    identity: QualifiedName
    options: tuple[SeqOption, ...] = ()
    large: bool = False


__all__ = ["Persistence", "SeqClause", "SeqOption", "CreateSequence", "AlterSequence"]
