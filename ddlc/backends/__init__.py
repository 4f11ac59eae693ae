"""Backends: one :class:`~ddlc.backends.base.Backend` subclass per target.

:data:`BACKENDS` is the one registry: the API, the CLI's ``--to`` choices, the target options (library
keywords and flags) and the support matrix read it. Built-in entries are import paths, so naming the
targets imports no backend; :func:`register` adds a target from outside the package (a class), and it
is then a CLI ``--to`` choice, a library target and a support-matrix column like the built-in ones.
"""

from __future__ import annotations

import importlib
from typing import Any

BACKENDS: dict[str, Any] = {  # name -> "module:Class", or the class itself (register)
    "gaussdb": "ddlc.backends.gaussdb:GaussDBBackend",
    "postgres": "ddlc.backends.postgres:PostgresBackend",
    "spark": "ddlc.backends.spark:SparkBackend",
}
_INSTANCES: dict[str, Any] = {}


def register(cls: Any) -> Any:
    """Add the target ``cls`` (a :class:`~ddlc.backends.base.Backend` subclass with a ``name``) to the
    registry; its coverage was checked when the class was built. A name taken by another class is
    refused. Returns ``cls`` (usable as a class decorator)."""
    from .base import Backend

    if not (isinstance(cls, type) and issubclass(cls, Backend) and cls.name):
        raise TypeError(f"register() takes a Backend subclass with a name, not {cls!r}")
    old = BACKENDS.get(cls.name)
    if old is not None and old is not cls:
        raise ValueError(f"target {cls.name!r} is already registered")
    BACKENDS[cls.name] = cls
    _INSTANCES.pop(cls.name, None)
    return cls


def unregister(name: str) -> None:
    """Remove a target :func:`register` added (the built-in ones stay)."""
    if not isinstance(BACKENDS.get(name), str):
        BACKENDS.pop(name, None)
        _INSTANCES.pop(name, None)


def target_names() -> list[str]:
    """Every registered target's name, in registration order."""
    return list(BACKENDS)


def backend_class(name: str) -> Any:
    try:
        entry = BACKENDS[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown target {name!r}; choose one of {', '.join(BACKENDS)}") from None
    if not isinstance(entry, str):
        return entry
    module, _, cls = entry.partition(":")
    return getattr(importlib.import_module(module), cls)


def get_backend(name: str) -> Any:
    """The (stateless) backend instance of a target; ValueError for an unknown name."""
    b = _INSTANCES.get(name)
    if b is None:
        b = _INSTANCES[name] = backend_class(name)()
    return b


def target_of_keyword(keyword: str) -> str | None:
    """The target whose options a library keyword (``spark_varchar``) would belong to, by its prefix
    (the longest registered name followed by ``_``), without importing any backend."""
    best = None
    for name in BACKENDS:
        if keyword.startswith(name + "_") and (best is None or len(name) > len(best)):
            best = name
    return best


def find_option(keyword: str) -> tuple[Any, Any] | None:
    """``(backend class, TargetOption)`` of a library keyword (``spark_varchar``), or None. Imports only
    the backend the keyword names."""
    name = target_of_keyword(keyword)
    if name is None:
        return None
    cls = backend_class(name)
    opt = cls.option_keywords().get(keyword)
    return None if opt is None else (cls, opt)


__all__ = ["BACKENDS", "backend_class", "find_option", "get_backend", "register", "target_names",
           "target_of_keyword", "unregister"]
