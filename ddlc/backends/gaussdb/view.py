"""GaussDB emitters: CREATE VIEW."""

from __future__ import annotations

from typing import Any

from ...ir.view import CreateView
from .writer import Writer, emits
from .drop import fit, word

VIEW_FMT = "CREATE %{or_replace}s %{persistence}s VIEW %{identity}D AS %{query}s"


@emits(CreateView)
def create_view(n: CreateView, w: Writer) -> dict[str, Any]:
    return fit(n.layout, VIEW_FMT, {
        "or_replace": word(n.or_replace, "OR REPLACE"),
        "persistence": n.persistence.value,
        "identity": w.qname(n.identity),
        "query": w.text(n.query),
    })
