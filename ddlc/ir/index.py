"""CREATE INDEX (reference §5.5).

The server pre-renders the whole column list (``definition``: keys with collation, operator class
and ordering, ``INCLUDE``, ``GLOBAL`` and the ``LOCAL(PARTITION ...)`` list) in
``pg_get_indexdef_detailed``; the frontend's SQL layer reads it back into :class:`IndexKey` and
:class:`IndexPartition` nodes at build time (:func:`ddlc.frontend.sql.index.parse_definition`), and
``definition_text`` keeps the exact text.
"""

from __future__ import annotations

import enum

from .base import Node, node, source_text, to_json
from .names import Expr, QualifiedName
from .statement import Statement


class SortOrder(str, enum.Enum):
    ASC = "ASC"
    DESC = "DESC"


class NullsOrder(str, enum.Enum):
    FIRST = "FIRST"
    LAST = "LAST"


class PartitionScope(str, enum.Enum):
    NONE = "none"  # not a partitioned index
    LOCAL = "local"  # LOCAL(PARTITION ...) — one index partition per table partition
    GLOBAL = "global"  # GLOBAL (openGauss global partitioned index)


@node
class IndexKey(Node):
    """One key column: a column name or an expression (text as written: ``lower(note)`` or
    ``((a + b))``), then ``COLLATE``, the operator class and the ordering when written."""

    column: str | None = None
    expression: Expr | None = None
    collation: QualifiedName | None = None
    opclass: QualifiedName | None = None
    ordering: SortOrder | None = None  # None: not written (ascending)
    nulls: NullsOrder | None = None  # None: not written (the ordering's default)


@node
class IndexPartition(Node):
    """``PARTITION name [TABLESPACE ts]`` of a LOCAL list; on a subpartitioned table the
    ``PARTITION partition_name(SUBPARTITION ...)`` groups (the server prints that literal name)."""

    name: str
    tablespace: str | None = None
    subpartitions: tuple[IndexPartition, ...] = ()


@node
class IndexDefinition(Node):
    """The parsed ``definition`` member."""

    keys: tuple[IndexKey, ...]
    include: tuple[str, ...] = ()
    scope: PartitionScope = PartitionScope.NONE
    partitions: tuple[IndexPartition, ...] = ()
    subpartitioned: bool = False  # LOCAL list in the multi-line subpartition form


@node
class CreateIndex(Statement):
    """``CREATE [UNIQUE] INDEX [CONCURRENTLY] name ON table USING method (keys) ...``.

    ``keys`` is empty only when ``definition_text`` could not be parsed (reported); the GaussDB
    target then writes the text as it came. ``definition_text`` is the source text of the parsed
    definition (keys, INCLUDE, scope, partitions): a change to any of them clears it (None), and the
    GaussDB target renders the definition from the fields then. ``options`` is the reloption text
    (``k=v, k=v``), ``tablespace`` and ``method`` the pre-quoted text the server wrote.
    """

    name: str
    table: QualifiedName
    method: str
    definition_text: str | None
    keys: tuple[IndexKey, ...] = ()
    include: tuple[str, ...] = ()
    partition_scope: PartitionScope = PartitionScope.NONE
    partitions: tuple[IndexPartition, ...] = ()
    subpartitioned: bool = False
    unique: bool = False
    concurrently: bool = False
    options: str | None = None
    tablespace: str | None = None
    invisible: bool = False
    where: Expr | None = None

    def definition(self) -> IndexDefinition | None:
        if not self.keys:
            return None
        return IndexDefinition(self.keys, self.include, self.partition_scope, self.partitions,
                               self.subpartitioned, origin=self.origin)


source_text("CreateIndex", definition_text=("keys", "include", "partition_scope", "partitions", "subpartitioned"))


def same_definition(a: IndexDefinition | None, b: IndexDefinition | str | None) -> bool:
    return isinstance(b, IndexDefinition) and to_json(a) == to_json(b)


__all__ = [
    "SortOrder", "NullsOrder", "PartitionScope", "IndexKey", "IndexPartition", "IndexDefinition",
    "CreateIndex", "same_definition",
]
