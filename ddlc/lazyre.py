"""Regular expressions compiled on first use.

Modules register many patterns at import (statement shapes, ALTER subcommand forms, constraint
heads...) and a short run (a pre-commit check of one file) uses a few of them; compiling all of them
up front was a tenth of ``ddlc check``'s cold start. :func:`compile` returns an object with the
``re.Pattern`` methods that compiles its pattern the first time one is called.

The compiled pattern's methods are then kept in the object's own slots, so that a later call finds
them as any attribute is found (no ``__getattr__`` per call: ~0.3 µs each on the hot path).
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["compile"]

_BOUND = ("match", "fullmatch", "search", "sub", "subn", "split", "findall", "finditer", "scanner")
_PLAIN = ("pattern", "flags", "groups", "groupindex")


class _Pattern:
    """A pattern compiled: its methods in its own slots, read as any slot is. This class has no
    ``__getattr__``: a class that has one makes CPython route every attribute read of its objects through
    a hook (``slot_tp_getattr_hook``) that the interpreter cannot specialize, ~300 instructions a read."""

    __slots__ = ("_args", "_rx", *_BOUND, *_PLAIN)

    def __repr__(self) -> str:
        return f"lazyre.compile({self._args[0]!r})"


class _LazyPattern(_Pattern):
    """A pattern not compiled yet. At its first use it compiles, fills its slots and becomes a
    :class:`_Pattern` (the same slots: ``__class__`` may be assigned), so that only the first read pays the
    ``__getattr__`` hook."""

    __slots__ = ()

    def __init__(self, pattern: str, flags: int) -> None:
        self._args, self._rx = (pattern, flags), None

    def __getattr__(self, name: str) -> Any:  # called only while a slot is unset: before the first use
        rx = self._rx
        if rx is None:
            rx = self._rx = re.compile(*self._args)
            for attr in _BOUND + _PLAIN:
                object.__setattr__(self, attr, getattr(rx, attr))
            object.__setattr__(self, "__class__", _Pattern)
        return getattr(rx, name)


def compile(pattern: str, flags: int = 0) -> re.Pattern[str]:  # noqa: A001 - re's name, on purpose
    return _LazyPattern(pattern, flags)  # type: ignore[return-value]
