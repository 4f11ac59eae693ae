"""ALTER ... SET SCHEMA read from GaussDB text (reference §5.14)."""

from __future__ import annotations

from ._match import Frag, Shape

SET_SCHEMA = Shape("ALTER %{objtype}s %{identity}s SET SCHEMA %{newschema}I",
                   {"objtype": Frag(words=True, max_tokens=2), "identity": Frag()})

SHAPES = {r"ALTER .* SET SCHEMA ": SET_SCHEMA}
