"""Base of every IR node: frozen ``msgspec.Struct`` classes with an origin.

Conventions (see docs/architecture.md):

* every node class subclasses :class:`Node` (a frozen :class:`msgspec.Struct`: slots, ``__init__``,
  equality, hashing, ``repr`` and pickling are msgspec's, made in C) and is marked ``@node``;
* closed vocabularies are :class:`enum.Enum` subclasses, collections are tuples;
* ``origin`` is the path of the JSON value the node was built from (``("table_elements",
  "elements", 1)``); a node made by a pass inherits the origin of what it replaces;
* :func:`to_json` writes ``"@"``-tagged dicts so pass goldens diff cleanly;
* *source text* (parse once): a node that keeps the text it was parsed from (for the GaussDB
  target to reproduce the input exactly) declares it with :func:`source_text`; :func:`replace`
  and :func:`transform`, which every pass rebuilds nodes with, set that text to None when they
  change a field it was parsed into. Emitters use the text while it is there and render from the
  parsed fields otherwise; they never parse.

What msgspec has no per-field option for, a class declares in class attributes (a tuple of its own
field names each, inherited by subclasses), read by the helpers here:

* ``_not_compared``: fields left out of ``==`` and ``hash`` (:func:`node` gives such a class, and its
  subclasses, an ``__eq__``/``__hash__`` over the other fields);
* ``_hidden``: fields left out of :func:`to_json` and of the walks (:func:`children`,
  :func:`field_names`): what rides along with a node without being part of its tree;
* ``_reset_on_replace``: fields :func:`replace` sets to None unless given (a derived value that
  would no longer match the fields it was derived from).

Field order: msgspec puts keyword-only fields (``origin``, a statement's ``layout``) after the
others; :func:`fields` gives them in declaration order (base classes first), the order
:func:`to_json` writes and :func:`children` walks (:func:`shown_fields`), as ``dataclasses.fields``
did before.
"""

from __future__ import annotations

import enum
import operator
from collections.abc import Iterator
from typing import Any, TypeVar

import msgspec
from msgspec.structs import replace as _struct_replace

from ..errors import Path

T = TypeVar("T")


N = TypeVar("N", bound="Node")


class Node(msgspec.Struct, frozen=True, kw_only=True):
    """Base of every IR node."""

    origin: Path = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        global generation
        generation += 1  # plans made from the classes' type hints (ddlc.ir.reach) know to look again


generation = 0  # how many node classes have been defined (a family imported later adds subclasses)


def node(cls: type[N]) -> type[N]:
    """Decorator of every node class (the class is already a :class:`msgspec.Struct` by subclassing
    :class:`Node`): gives a class that declares ``_not_compared`` fields equality and hashing over
    its other fields."""
    if not (isinstance(cls, type) and issubclass(cls, Node)):
        raise TypeError(f"@node class {cls!r} must subclass Node")
    if "_not_compared" in cls.__dict__:
        cls.__eq__ = _eq_compared  # type: ignore[method-assign,assignment]
        cls.__hash__ = _hash_compared  # type: ignore[method-assign,assignment]
    return cls


def _inherited(cls: type, attr: str) -> frozenset[str]:
    out: set[str] = set()
    for c in cls.__mro__:
        out.update(c.__dict__.get(attr, ()))
    return frozenset(out)


_ORDER: dict[type, tuple[str, ...]] = {}
_KEYS: dict[type, Any] = {}
_JSON: dict[type, tuple[str, ...]] = {}


def fields(n: Node | type) -> tuple[str, ...]:
    """The field names of a node or node class, in declaration order (base classes' first)."""
    cls = n if isinstance(n, type) else type(n)
    names = _ORDER.get(cls)
    if names is None:
        declared = cls.__struct_fields__  # type: ignore[attr-defined]
        seen: dict[str, None] = {}
        for c in reversed(cls.__mro__):
            for name in c.__dict__.get("__annotations__", ()):
                if name in declared:
                    seen.setdefault(name, None)
        names = _ORDER[cls] = tuple(seen)
    return names


def _key(cls: type) -> Any:
    key = _KEYS.get(cls)
    if key is None:
        skip = _inherited(cls, "_not_compared")
        names = [f for f in cls.__struct_fields__ if f not in skip]  # type: ignore[attr-defined]
        key = _KEYS[cls] = operator.attrgetter(*names) if len(names) > 1 else (
            lambda self, _n=names[0]: (getattr(self, _n),))
    return key


def _eq_compared(self: Any, other: Any) -> Any:
    if other.__class__ is not self.__class__:
        return NotImplemented
    key = _key(self.__class__)
    return key(self) == key(other)


def _hash_compared(self: Any) -> int:
    return hash(_key(self.__class__)(self))


def shown_fields(cls: type) -> tuple[str, ...]:
    """The fields :func:`to_json` writes and :func:`children` walks (``origin`` included): all but the
    ``_hidden`` ones, in declaration order."""
    names = _JSON.get(cls)
    if names is None:
        skip = _inherited(cls, "_hidden")
        names = _JSON[cls] = tuple(f for f in fields(cls) if f not in skip)
    return names


def layout_field() -> Any:
    """The ``layout`` field of nodes built from a JDDL object: that object's ``fmt``.

    Formatting only (which optional slots the server left blank); None for nodes made by passes,
    which are written in the deparser's default form. Builders give it by keyword (it is
    keyword-only in a ``kw_only`` class such as :class:`~ddlc.ir.statement.Statement`).
    """
    return None


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
    """``n`` with ``changes`` (``msgspec.structs.replace``), clearing the source text of any parsed
    field that changes and every ``_reset_on_replace`` field not given."""
    for text_field in stale_texts(n, changes):
        changes[text_field] = None
    for name in getattr(n, "_reset_on_replace", ()):
        changes.setdefault(name, None)
    return _struct_replace(n, **changes)


def children(n: Node) -> Iterator[Node]:
    for name in shown_fields(type(n)):
        v = getattr(n, name)
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
        for name in shown_fields(type(v)):
            if name == "origin":
                if with_origin:
                    out["origin"] = list(v.origin)
                continue
            out[name] = to_json(getattr(v, name), with_origin=with_origin)
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

    ``origin``/``layout``, ``_hidden`` fields and fields typed as scalars, enums or tuples of them
    are left out, so a pass visits only what can change; a hint that cannot be resolved keeps its field.
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
    for name in shown_fields(cls):
        if name in ("origin", "layout"):
            continue
        h = hints.get(name, Any)
        if _may_hold_node(h):
            out.append(name)
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


def transform(n: N, fn: Any, skip: frozenset[tuple[str, str]] = frozenset(), reach: Any = None) -> N:
    """Rebuild ``n`` bottom-up: children first, then ``fn(node) -> node`` on each node.

    Subtrees that ``fn`` leaves unchanged are shared, not copied (passes stay allocation-light).
    A node rebuilt because a child changed goes through :func:`replace`: its source text of that
    child is cleared.
    ``skip`` names ``(ClassName, field)`` pairs whose subtrees are left alone.
    ``reach`` (a :class:`ddlc.ir.reach.Reach`, made with the same ``skip``): ``fn`` changes nodes of its
    target classes only and returns every other node as it is given; the walk then enters only the
    fields that can lead to a target and calls ``fn`` on the targets alone (the same result).
    """
    if reach is not None:
        return _pruned(n, fn, reach.current())
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


def _pruned(n: Any, fn: Any, reach: Any) -> Any:
    """:func:`transform` of ``n`` with ``reach``: fields that cannot lead to a target class left alone.
    (``reach.enter`` holds node classes only: a class it knows is a node class; anything else is tested.)"""
    cls = type(n)
    names = reach._fields.get(cls)
    if names is None:
        names = reach.fields(cls)
    changes = None
    enter = reach.enter.get
    for name in names:
        v = getattr(n, name)
        if v is None:
            continue
        t = type(v)
        if t is tuple:
            items = None
            for i, x in enumerate(v):
                tx = type(x)
                go = enter(tx)
                if go is None:
                    go = isinstance(x, Node) and reach.enters(tx)
                if go:
                    nx = _pruned(x, fn, reach)
                    if nx is not x:
                        if items is None:
                            items = list(v)
                        items[i] = nx
            if items is not None:
                if changes is None:
                    changes = {}
                changes[name] = tuple(items)
            continue
        go = enter(t)
        if go is None:
            go = isinstance(v, Node) and reach.enters(t)
        if go:
            nv = _pruned(v, fn, reach)
            if nv is not v:
                if changes is None:
                    changes = {}
                changes[name] = nv
    if changes is not None:
        n = replace(n, **changes)
    return fn(n) if cls in reach.targets else n
