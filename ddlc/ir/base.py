"""Base of every IR node: frozen, slotted dataclasses with an origin.

Conventions (see docs/architecture.md):

* every node class is ``@node`` (a frozen, slotted, keyword-only-origin dataclass);
* closed vocabularies are :class:`enum.Enum` subclasses, collections are tuples;
* ``origin`` is the path of the JSON value the node was built from (``("table_elements",
  "elements", 1)``); a node made by a pass inherits the origin of what it replaces;
* :func:`to_json` writes ``"@"``-tagged dicts so pass goldens diff cleanly.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterator
from typing import Any, TypeVar

from ..errors import Path

T = TypeVar("T")


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Node:
    origin: Path = ()


N = TypeVar("N", bound=Node)


def node(cls: type[N]) -> type[N]:
    """Decorator: make ``cls`` a frozen, slotted dataclass node."""
    return dataclasses.dataclass(frozen=True, slots=True)(cls)


def layout_field() -> Any:
    """The ``layout`` field of nodes built from a JDDL object: that object's ``fmt``.

    Formatting only (which optional slots the server left blank); None for nodes made by passes,
    which are written in the deparser's default form.
    """
    return dataclasses.field(default=None, kw_only=True)


def replace(n: N, **changes: Any) -> N:
    return dataclasses.replace(n, **changes)


def children(n: Node) -> Iterator[Node]:
    for f in dataclasses.fields(n):
        v = getattr(n, f.name)
        if isinstance(v, Node):
            yield v
        elif isinstance(v, tuple):
            for item in v:
                if isinstance(item, Node):
                    yield item


def walk(n: Node) -> Iterator[Node]:
    """Pre-order traversal of ``n`` and every node below it."""
    stack = [n]
    while stack:
        cur = stack.pop()
        yield cur
        stack.extend(reversed(list(children(cur))))


def to_json(v: Any, *, with_origin: bool = False) -> Any:
    """JSON-ready form of a node tree: dicts tagged with ``"@": ClassName``."""
    if isinstance(v, Node):
        out: dict[str, Any] = {"@": type(v).__name__}
        for f in dataclasses.fields(v):
            if f.name == "origin" and not with_origin:
                continue
            val = getattr(v, f.name)
            if f.name == "origin":
                out["origin"] = list(val)
                continue
            out[f.name] = to_json(val, with_origin=with_origin)
        return out
    if isinstance(v, enum.Enum):
        return v.value
    if isinstance(v, tuple | list):
        return [to_json(x, with_origin=with_origin) for x in v]
    if isinstance(v, dict):
        return {k: to_json(x, with_origin=with_origin) for k, x in v.items()}
    return v


_FIELDS: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    """Field names of a node class, minus ``origin``/``layout`` (looked up once per class)."""
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls) if f.name not in ("origin", "layout"))
    return names


def transform(n: N, fn: Any, skip: frozenset[tuple[str, str]] = frozenset()) -> N:
    """Rebuild ``n`` bottom-up: children first, then ``fn(node) -> node`` on each node.

    Subtrees that ``fn`` leaves unchanged are shared, not copied (passes stay allocation-light).
    ``skip`` names ``(ClassName, field)`` pairs whose subtrees are left alone.
    """
    changes: dict[str, Any] = {}
    cls = type(n)
    for name in _field_names(cls):
        if skip and (cls.__name__, name) in skip:
            continue
        v = getattr(n, name)
        if isinstance(v, Node):
            nv = transform(v, fn, skip)
            if nv is not v:
                changes[name] = nv
        elif type(v) is tuple and v and any(isinstance(x, Node) for x in v):
            items = tuple(transform(x, fn, skip) if isinstance(x, Node) else x for x in v)
            if any(a is not b for a, b in zip(items, v, strict=True)):
                changes[name] = items
    if changes:
        n = dataclasses.replace(n, **changes)
    return fn(n)
