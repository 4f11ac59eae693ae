"""Column definitions (reference §3.3): CREATE TABLE elements, ADD COLUMN, type attributes."""

from __future__ import annotations

import enum

from .base import Node, layout_field, node
from .names import Expr, QualifiedName, TypeName


class GeneratedKind(str, enum.Enum):
    STORED = "stored"  # GENERATED ALWAYS AS (e) STORED
    PERSISTED = "persisted"  # D-compatibility AS (e) PERSISTED


@node
class ColumnDef(Node):
    name: str
    type: TypeName | None  # None only for the HEAD PERSISTED dummy type
    collation: QualifiedName | None = None
    auto_increment: bool = False
    default: Expr | None = None
    on_update: Expr | None = None  # B-compatibility ON UPDATE CURRENT_TIMESTAMP...
    not_null: bool = False
    generated: Expr | None = None
    generated_kind: GeneratedKind = GeneratedKind.STORED
    layout: str | None = layout_field()
