"""Stream history: the state earlier DDL of the same stream left behind (see :mod:`.catalog`)."""

from .catalog import Catalog
from .state import (
    PartitionState, RelationState, TableState, apply_partition_change, lower_bound, remaining_values,
    working_copy,
)

__all__ = [
    "Catalog", "PartitionState", "RelationState", "TableState", "apply_partition_change", "lower_bound",
    "remaining_values", "working_copy",
]
