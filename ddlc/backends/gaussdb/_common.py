"""Helpers every GaussDB ALTER emitter module shares."""

from __future__ import annotations

from typing import Any

OWNER_DEFECT = "subcmd->newowner"  # what the deparser writes for every OWNER TO (§10.1)


def obj(n: Any, default: str, type_: str | None = None, **members: Any) -> dict[str, Any]:
    """A subcommand object: ``fmt`` (the node's layout, else ``default``), ``type``, members."""
    d: dict[str, Any] = {"fmt": n.layout or default}
    if type_ is not None:
        d["type"] = type_
    d.update(members)
    return d


def word(on: bool, w: str) -> str:
    return w if on else ""
