"""Which fields of a node class can lead to nodes of some given classes: the plan of a pruned walk.

A pass whose function changes only nodes of a few classes (``drop_unsupported``: the classes its rules
target; ``qualify_names``: names and SQL fragments) need not enter a subtree that cannot hold one.
:class:`Reach` works that out from the IR classes' field type hints (a field typed by a base class may
hold any of its subclasses; a hint that does not say, such as ``Any`` or a bare ``tuple``, may hold
anything), per class met and once: a short run meets a few dozen of the ~300 node classes, and reading
every class's hints up front cost tens of milliseconds of start-up. It is an over-approximation: a
field is left out only when no node of the target classes can be below it.
"""

from __future__ import annotations

import enum
import typing
from typing import Any

from . import base
from .base import Node, field_names

__all__ = ["Reach", "child_classes"]


class Reach:
    """For a set of target classes (exact classes, not their subclasses): the fields worth visiting per
    class (:meth:`fields`) and whether a class is worth entering at all (:meth:`enters`; :attr:`enter`
    holds the answers found so far, for a walk's fast path). ``skip``: ``(ClassName, field)`` pairs never
    visited (:func:`ddlc.ir.base.transform`'s). A walk starts with :meth:`current`: the answers are
    worked out again once a node class was defined since (a family imported later may add a subclass
    that a field's type admits)."""

    __slots__ = ("targets", "skip", "_edges", "_fields", "enter", "_generation", "_last", "_steps")

    def __init__(self, targets: Any, skip: frozenset[tuple[str, str]] = frozenset()) -> None:
        self.targets = frozenset(targets)
        self.skip = skip
        self._edges: dict[type, dict[str, frozenset[type] | None]] = {}
        self._fields: dict[type, tuple[str, ...]] = {}
        self.enter: dict[type, bool] = {}  # worth visiting, by class
        self._generation = base.generation
        self._last: tuple[Any, tuple[tuple[Any, Any, str], ...]] = (None, ())  # found's last node and answer
        self._steps: dict[type, tuple[bool, tuple[str, ...]]] = {}  # found's per class: (a target, fields to visit)

    @classmethod
    def shared(cls, targets: Any, skip: frozenset[tuple[str, str]] = frozenset()) -> Reach:
        """The one plan of ``targets`` and ``skip`` for every module that asks (so that :meth:`found`'s last
        answer serves them all: the PostgreSQL rules and the compiler's deferred parses ask it of one statement)."""
        key = (frozenset(targets), skip)
        out = _SHARED.get(key)
        if out is None:
            out = _SHARED.setdefault(key, cls(targets, skip))
        return out

    def current(self) -> Reach:
        """This plan, its answers forgotten when node classes were defined since they were found."""
        if self._generation != base.generation:
            self._edges.clear()
            self._fields.clear()
            self.enter.clear()
            self._steps.clear()
            self._last = (None, ())
            self._generation = base.generation
        return self

    def found(self, n: Any) -> tuple[tuple[Any, Any, str], ...]:
        """Every node of the target classes at or below ``n``, each with the node and field holding it (None and
        ``""`` for ``n`` itself; a tuple's items are held by the tuple's node and field), in the order of a
        depth-first walk (a node's fields and a tuple's items taken from the last). Nodes are frozen: the answer
        for the last ``n`` is kept (one walk for several askers of the same statement). Call :meth:`current`
        first."""
        last = self._last  # (one read: another thread may replace it)
        if last[0] is n:
            return last[1]
        steps = self._steps.get
        out: list[tuple[Any, Any, str]] = []
        stack: list[tuple[Any, Any, str]] = [(n, None, "")]
        pop, push = stack.pop, stack.append
        add = out.append
        while stack:
            cur, holder, name = pop()
            cls = type(cur)
            step = steps(cls)
            if step is None:
                if cls is tuple:  # (a tuple inside a tuple)
                    for x in cur:
                        push((x, holder, name))
                    continue
                step = self._step(cls)
            if step[0]:
                add((cur, holder, name))
            for f in step[1]:
                v = getattr(cur, f)
                if v is None:
                    continue
                if type(v) is tuple:  # its items where the tuple would be (the same order)
                    for x in v:
                        push((x, cur, f))
                else:
                    push((v, cur, f))
        found = tuple(out)
        self._last = (n, found)
        return found

    def remember(self, n: Any, found: tuple[tuple[Any, Any, str], ...]) -> None:
        """Keep ``found`` as :meth:`found`'s answer for ``n``: what a walk of ``n`` met that pushes and pops as
        :meth:`found` does, over the same fields or more (``qualify_names``'s check walk, which passes every
        fragment of a statement on its way). Call :meth:`current` first."""
        self._last = (n, found)

    def _step(self, cls: type) -> tuple[bool, tuple[str, ...]]:
        """What :meth:`found` does at a value of class ``cls`` (not a tuple): whether it is a target, and the fields
        to visit (none when nothing targeted can be below it, or it is not a node)."""
        visit = self.fields(cls) if isinstance(cls, type) and issubclass(cls, Node) and self.enters(cls) else ()
        out = self._steps[cls] = (cls in self.targets, visit)
        return out

    def _kids(self, cls: type) -> dict[str, frozenset[type] | None]:
        out = self._edges.get(cls)
        if out is None:
            out = self._edges[cls] = _shared_child_classes(cls)
        return out

    def fields(self, cls: type) -> tuple[str, ...]:
        """The fields of ``cls`` that may lead to a targeted node."""
        out = self._fields.get(cls)
        if out is None:
            out = self._fields[cls] = tuple(
                f for f, kids in self._kids(cls).items()
                if (cls.__name__, f) not in self.skip and (kids is None or any(self.enters(k) for k in kids)))
        return out

    def enters(self, cls: type) -> bool:
        hit = self.enter.get(cls)
        if hit is None:
            hit = self.enter[cls] = self._reaches(cls)
        return hit

    def _reaches(self, start: type) -> bool:
        seen, todo = {start}, [start]
        while todo:
            c = todo.pop()
            known = self.enter.get(c)
            if known is not None and c is not start:
                if known:
                    return True
                continue  # nothing targeted below it
            if c in self.targets:
                return True
            for kids in self._kids(c).values():
                if kids is None:
                    return True
                for k in kids:
                    if k not in seen:
                        seen.add(k)
                        todo.append(k)
        return False


_SHARED: dict[tuple[frozenset[type], frozenset[tuple[str, str]]], Reach] = {}


_CHILDREN: dict[type, dict[str, frozenset[type] | None]] = {}  # child_classes per class, for every plan
_CHILDREN_GENERATION = [base.generation]


def _shared_child_classes(cls: type) -> dict[str, frozenset[type] | None]:
    """:func:`child_classes` of ``cls``, worked out once for all the plans (each reads the same type hints: the
    passes', the rules', the deferred parses'), again once a node class was defined since."""
    if _CHILDREN_GENERATION[0] != base.generation:
        _CHILDREN.clear()
        _CHILDREN_GENERATION[0] = base.generation
    out = _CHILDREN.get(cls)
    if out is None:
        out = _CHILDREN[cls] = child_classes(cls)
    return out


def child_classes(cls: type) -> dict[str, frozenset[type] | None]:
    """For each node-holding field of ``cls``: the node classes it may hold (with their subclasses),
    or None when its type hint does not say."""
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # noqa: BLE001 - an unresolvable hint: every field unknown
        hints = {}
    out: dict[str, frozenset[type] | None] = {}
    for name in field_names(cls):
        kids: set[type] | None = set()
        for t in _leaves(hints.get(name, Any)):
            if isinstance(t, type) and t is not Any and issubclass(t, Node):
                kids.update(_node_subclasses(t))  # a field typed by a base class holds its subclasses
            elif not _scalar(t):  # Any, object, a bare tuple, a type variable...: unknown
                kids = None
                break
        out[name] = None if kids is None else frozenset(kids)
    return out


def _scalar(t: Any) -> bool:
    return t is type(None) or (isinstance(t, type) and t is not Any and (
        t in (str, int, bool, float, bytes) or issubclass(t, enum.Enum) or t.__module__ in ("decimal", "datetime")))


def _leaves(h: Any) -> list[Any]:
    args = typing.get_args(h)
    if not args:
        return [h]
    out: list[Any] = []
    for a in args:
        if a is not Ellipsis:
            out.extend(_leaves(a))
    return out


def _node_subclasses(cls: type) -> list[type]:
    out, todo = [], [cls]
    while todo:
        c = todo.pop()
        out.append(c)
        todo.extend(c.__subclasses__())
    return out
