"""What a target cannot take, as data: the backends declare it, the ``drop_unsupported`` pass applies it.

* :class:`Rule` — a clause (or a child node) the target cannot express: which node class, when it
  applies, how to remove or rewrite it, the stable code and message of its diagnostic.
* :class:`Refusal` — a whole statement class the target has no form for. ``absent=True`` means
  the target has no such object at all (a GaussDB package, an event); ``absent=False`` means ddlc
  does not translate it yet. The support matrix tells the two apart.

Nothing here imports a backend: backends import these classes, the pass receives the tables
through its context.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .base import Node


def _always(n: Any) -> bool:
    return True


@dataclass(frozen=True, slots=True)
class Rule:
    node: type[Node]
    code: str
    message: str
    applies: Callable[[Any], bool] = _always
    # How to remove: a field set to its "absent" value, or None = drop the node itself (it must
    # sit in a tuple, e.g. a column or a constraint) or, for a statement, replace it.
    field: str | None = None
    absent: Any = None
    rewrite: Callable[[Any], Any] | None = None  # a lossless-enough rewrite instead of a drop
    text: Callable[[Any], str] | None = None  # the dropped clause's text, for comments (else derived)


@dataclass(frozen=True, slots=True)
class Refusal:
    """A statement class with no form on a target."""

    code: str
    message: str
    absent: bool = True  # True: the target has no such object; False: not implemented (yet)
