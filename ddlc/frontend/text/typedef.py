"""CREATE TYPE (enum, composite) read from GaussDB text (reference §5.15)."""

from __future__ import annotations

from ._common import COLLATION
from ._match import Shape

CREATE_ENUM = Shape("CREATE TYPE %{identity}D AS ENUM (%{values:, }L)")
CREATE_COMPOSITE = Shape("CREATE TYPE %{identity}D AS (%{columns:, }s)",
                         {"columns": Shape("%{name}I %{coltype}T %{collation}s", {"collation": COLLATION})})

SHAPES = {r"CREATE TYPE .* AS ENUM ": CREATE_ENUM, r"CREATE TYPE .* AS \(": CREATE_COMPOSITE}
