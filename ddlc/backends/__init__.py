"""Backends: one :class:`~ddlc.backends.base.Backend` subclass per target.

:data:`BACKENDS` is the one registry: the API, the CLI's ``--to`` choices and the support matrix
read it. Entries are import paths, so naming the targets imports no backend.
"""

from __future__ import annotations

import importlib
from typing import Any

BACKENDS: dict[str, str] = {
    "gaussdb": "ddlc.backends.gaussdb:GaussDBBackend",
    "postgres": "ddlc.backends.postgres:PostgresBackend",
    "spark": "ddlc.backends.spark:SparkBackend",
}
_INSTANCES: dict[str, Any] = {}


def backend_class(name: str) -> Any:
    try:
        path = BACKENDS[name]
    except KeyError:
        raise ValueError(f"unknown target {name!r}; choose one of {', '.join(BACKENDS)}") from None
    module, _, cls = path.partition(":")
    return getattr(importlib.import_module(module), cls)


def get_backend(name: str) -> Any:
    """The (stateless) backend instance of a target; ValueError for an unknown name."""
    b = _INSTANCES.get(name)
    if b is None:
        b = _INSTANCES[name] = backend_class(name)()
    return b


__all__ = ["BACKENDS", "backend_class", "get_backend"]
