"""Where the JSON Schemas of ``grammars/`` live, and how they are read (by ``$id``).

Read by :mod:`.schema` (``jsonschema``, for an invalid document) and by ``tools/gen_validators.py``
(which compiles them into :mod:`._validators_generated`, the fast path for a valid one).
"""

from __future__ import annotations

import os
from typing import Any

__all__ = ["GRAMMARS", "ROOT_ID", "load_schemas"]

ROOT_ID = "https://ddlc.dev/grammars/v1/jddl.schema.json"


def _grammars_dir() -> str:
    package = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    repo = os.path.join(os.path.dirname(package), "grammars")  # source checkout / editable install
    if os.path.isdir(repo):
        return repo
    return os.path.join(package, "grammars")  # a wheel that ships the schemas inside the package


GRAMMARS = _grammars_dir()  # a str (os.path, not pathlib: start-up)


def schema_paths() -> list[str]:
    """The ``*.schema.json`` files under :data:`GRAMMARS`, sorted as ``pathlib``'s ``rglob`` would be."""
    found = []
    for d, dirs, files in os.walk(GRAMMARS):
        dirs.sort()
        found.extend(os.path.join(d, f) for f in files if f.endswith(".schema.json"))
    return sorted(found, key=lambda p: os.path.relpath(p, GRAMMARS).split(os.sep))


def load_schemas() -> dict[str, dict[str, Any]]:
    """Every ``*.schema.json`` under :data:`GRAMMARS`, by its ``$id``."""
    import orjson

    schemas: dict[str, dict[str, Any]] = {}
    for path in schema_paths():
        with open(path, "rb") as fh:
            contents = orjson.loads(fh.read())
        schemas[contents["$id"]] = contents
    if ROOT_ID not in schemas:
        raise FileNotFoundError(f"root schema {ROOT_ID} not found under {GRAMMARS}")
    return schemas
