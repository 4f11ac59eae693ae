"""Which statements create an object that has an owner (``--owners``, README "Owners").

Tables (and CREATE TABLE AS), views, materialized views, sequences, functions and procedures, types,
schemas (and the M-compatibility databases written as schemas). Indexes and triggers belong to their
table. A CREATE SCHEMA with AUTHORIZATION names its owner itself (:func:`creates_owned`).
"""

from __future__ import annotations

from typing import Any

from .misc import CreateDatabase, CreateMatView, CreateTableAs
from .routine import CreateFunction
from .schema import CreateSchema
from .sequence import CreateSequence
from .table import CreateTable
from .typedef import CreateCompositeType, CreateEnumType
from .view import CreateView

OWNED: tuple[type, ...] = (CreateTable, CreateTableAs, CreateView, CreateMatView, CreateSequence, CreateFunction,
                           CreateCompositeType, CreateEnumType, CreateSchema, CreateDatabase)


def creates_owned(stmt: Any) -> bool:
    """Whether ``stmt`` creates an object whose owner the statement does not name."""
    return isinstance(stmt, OWNED) and not (type(stmt) is CreateSchema and stmt.authorization is not None)


__all__ = ["OWNED", "creates_owned"]
