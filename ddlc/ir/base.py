"""Base of every IR node: frozen, slotted dataclasses with an origin.

Conventions (see docs/architecture.md):

* every node class is ``@node`` (a frozen, slotted, keyword-only-origin dataclass);
* closed vocabularies are :class:`enum.Enum` subclasses, collections are tuples;
* ``origin`` is the path of the JSON value the node was built from (``("table_elements",
  "elements", 1)``); a node made by a pass inherits the origin of what it replaces;
* :func:`to_json` writes ``"@"``-tagged dicts so pass goldens diff cleanly;
* *source text* (parse once): a node that keeps the text it was parsed from (for the GaussDB
  target to reproduce the input exactly) declares it with :func:`source_text`; :func:`replace`
  and :func:`transform`, which every pass rebuilds nodes with, set that text to None when they
  change a field it was parsed into. Emitters use the text while it is there and render from the
  parsed fields otherwise; they never parse.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterator
from typing import Any, TypeVar

from .. import records
from ..errors import Path

T = TypeVar("T")


N = TypeVar("N", bound="Node")


def node(cls: type[N]) -> type[N]:
    """Decorator: make ``cls`` a frozen, slotted dataclass node.

    The fields are processed by :mod:`dataclasses` (so ``fields``, ``replace`` and ``is_dataclass``
    work as usual), but of the methods only ``__init__`` is generated per class; equality, hashing,
    ``repr`` and the frozen ``__setattr__`` are shared functions keyed on the class's field names.
    That makes defining the ~170 node classes several times cheaper at start-up (one ``exec`` per
    class instead of six) with the same behaviour as ``dataclass(frozen=True, slots=True)``.
    """
    if cls.__doc__ is None:  # else dataclasses builds one from inspect.signature (slow at start-up)
        cls.__doc__ = cls.__name__
    cls = _slotted_dataclass(cls)
    fields = dataclasses.fields(cls)
    cls.__init__ = records.lazy_init(cls)
    compare = tuple(f.name for f in fields if f.compare)
    cls.__ddlc_key__ = staticmethod(records.key_of(compare))
    cls.__ddlc_repr__ = tuple(f.name for f in fields if f.repr)
    for name, fn in _SHARED.items():
        setattr(cls, name, fn)
    return cls


def _slotted_dataclass(cls: type[N]) -> type[N]:
    """What ``dataclasses.dataclass(init=False, repr=False, eq=False, slots=True)`` makes of ``cls``,
    without its general machinery (:func:`ddlc.records.with_fields`: the ``Field`` objects that
    ``dataclasses.fields``/``replace``/``is_dataclass`` read, and the class rebuilt with ``__slots__``).
    Anything unusual (no string annotations, slots of its own, ``InitVar``) goes to ``dataclasses``
    itself; tests/test_ir_base_fast.py proves both give the same classes."""
    own = cls.__dict__.get("__annotations__", {})
    if "__slots__" in cls.__dict__ or not all(isinstance(a, str) and "InitVar" not in a for a in own.values()):
        return dataclasses.dataclass(init=False, repr=False, eq=False, frozen=False, slots=True)(cls)
    return records.with_fields(cls, slots=True, params=records.params(init=False, repr=False, eq=False,
                                                                       frozen=False, slots=True))


_SHARED = {
    "__eq__": records.shared_eq, "__hash__": records.shared_hash, "__repr__": records.shared_repr,
    "__setattr__": records.frozen_setattr, "__delattr__": records.frozen_delattr,
    "__getstate__": records.getstate, "__setstate__": records.setstate,
}


@node
class Node:
    """Base of every IR node."""

    origin: Path = dataclasses.field(default=(), kw_only=True)


def layout_field() -> Any:
    """The ``layout`` field of nodes built from a JDDL object: that object's ``fmt``.

    Formatting only (which optional slots the server left blank); None for nodes made by passes,
    which are written in the deparser's default form.
    """
    return dataclasses.field(default=None, kw_only=True)


# class name -> ((text field, the parsed fields it stands for), ...); see source_text
_SOURCE_TEXT: dict[str, tuple[tuple[str, frozenset[str]], ...]] = {}


def source_text(cls_name: str, **fields: Any) -> None:
    """Declare that field ``text_field`` of node class ``cls_name`` is the source text of the
    parsed fields ``fields[text_field]`` (an iterable of field names).

    Registered by class name (IR class names are unique) so a family may declare it for a class
    defined elsewhere. :func:`replace` (and so :func:`transform`) clears the text — sets it to
    None — whenever one of those fields gets a different value, unless the text itself is given.
    """
    entries = dict(_SOURCE_TEXT.get(cls_name, ()))
    for text_field, parsed in fields.items():
        entries[text_field] = frozenset(parsed)
    _SOURCE_TEXT[cls_name] = tuple(entries.items())


def stale_texts(n: Node, changes: dict[str, Any]) -> tuple[str, ...]:
    """The source-text fields of ``n`` that ``changes`` would make stale."""
    spec = _SOURCE_TEXT.get(type(n).__name__)
    if spec is None:
        return ()
    out = []
    for text_field, parsed in spec:
        if text_field in changes or getattr(n, text_field) is None:
            continue
        for f in parsed:
            if f in changes:
                old, new = getattr(n, f), changes[f]
                if new is not old and new != old:
                    out.append(text_field)
                    break
    return tuple(out)


def replace(n: N, **changes: Any) -> N:
    """``dataclasses.replace``, clearing the source text of any parsed field that changes."""
    for text_field in stale_texts(n, changes):
        changes[text_field] = None
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
            if (f.name == "origin" and not with_origin) or f.metadata.get("json") is False:
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


def field_names(cls: type) -> tuple[str, ...]:
    """The fields of a node class that may hold nodes (looked up once per class, from the type hints).

    ``origin``/``layout`` and fields typed as scalars, enums or tuples of them are left out, so a pass
    visits only what can change; a hint that cannot be resolved keeps its field.
    """
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = _node_fields(cls)
    return names


def _node_fields(cls: type) -> tuple[str, ...]:
    import typing

    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # noqa: BLE001 - an unresolvable hint: keep every field
        hints = {}
    out = []
    for f in dataclasses.fields(cls):
        if f.name in ("origin", "layout"):
            continue
        h = hints.get(f.name, Any)
        if _may_hold_node(h):
            out.append(f.name)
    return tuple(out)


def _may_hold_node(h: Any) -> bool:
    import typing

    if h is Any or h is object or isinstance(h, typing.TypeVar | str | typing.ForwardRef):
        return True
    args = typing.get_args(h)
    if args:
        return any(_may_hold_node(a) for a in args if a is not Ellipsis)
    origin = typing.get_origin(h)
    if origin is not None:  # a bare generic (tuple, list): unknown items
        return True
    if not isinstance(h, type):
        return True
    if h in (str, int, bool, float, bytes, type(None)) or issubclass(h, enum.Enum):
        return False
    if h.__module__ in ("decimal", "datetime"):
        return False
    return True  # a node class, or something we cannot rule out


def transform(n: N, fn: Any, skip: frozenset[tuple[str, str]] = frozenset()) -> N:
    """Rebuild ``n`` bottom-up: children first, then ``fn(node) -> node`` on each node.

    Subtrees that ``fn`` leaves unchanged are shared, not copied (passes stay allocation-light).
    A node rebuilt because a child changed goes through :func:`replace`: its source text of that
    child is cleared.
    ``skip`` names ``(ClassName, field)`` pairs whose subtrees are left alone.
    """
    changes: dict[str, Any] = {}
    cls = type(n)
    for name in field_names(cls):
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
        n = replace(n, **changes)
    return fn(n)
