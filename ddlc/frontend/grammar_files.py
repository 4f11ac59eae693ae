"""Where the JSON Schemas of ``grammars/`` live, and how they are read (by ``$id``).

Shared by :mod:`.schema` (``jsonschema``) and :mod:`.schema_fast` (the validity-only checker).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

__all__ = ["GRAMMARS", "ROOT_ID", "load_schemas"]

ROOT_ID = "https://ddlc.dev/grammars/v1/jddl.schema.json"


def _grammars_dir() -> Path:
    here = Path(__file__).resolve()
    repo = here.parents[2] / "grammars"  # source checkout / editable install
    if repo.is_dir():
        return repo
    return here.parents[1] / "grammars"  # a wheel that ships the schemas inside the package


GRAMMARS = _grammars_dir()


def load_schemas() -> dict[str, dict[str, Any]]:
    """Every ``*.schema.json`` under :data:`GRAMMARS`, by its ``$id``."""
    schemas: dict[str, dict[str, Any]] = {}
    for path in sorted(GRAMMARS.rglob("*.schema.json")):
        contents = json.loads(path.read_text(encoding="utf-8"))
        schemas[contents["$id"]] = contents
    if ROOT_ID not in schemas:
        raise FileNotFoundError(f"root schema {ROOT_ID} not found under {GRAMMARS}")
    return schemas
