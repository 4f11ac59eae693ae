"""GaussDB emitters: the TDDL-only statements of :mod:`ddlc.ir.misc` (reference §5.18).

Their TDDL text is the source of truth: the GaussDB target prints it as it came.
"""

from __future__ import annotations

from typing import Any

from ...ir.misc import TEXT_NODES
from .writer import Writer, emits


@emits(*TEXT_NODES)
def tddl_text(n: Any, w: Writer) -> dict[str, Any]:
    return {"fmt": "%{text}s", "text": n.text}
