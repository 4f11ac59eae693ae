"""A fast walk over pglast trees (the parsed SQL fragments the IR carries).

pglast's ``Visitor`` inspects the visitor class on every call and walks breadth-first with ancestor
chains; the IR only needs "every node of these types", so this is a plain depth-first walk over the
slots that can hold nodes (looked up once per pglast class).
"""

from __future__ import annotations

import threading
from types import FunctionType

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from typing import Any

from .sqltree_kids_generated import TEMPLATES

_SLOTS: dict[type, tuple[str, ...]] = {}


class _Trusted(threading.local):
    on = False  # a class default: read without getattr (pglast's per-attribute hook reads it)


# .on: this thread makes pglast nodes whose values have their final types already, so that pglast's checked
# ``Node.__setattr__`` may be skipped (the hook ``ddlc.frontend.sql.pgparse`` installs for the pglast release
# it compared; with another release, or before that hook is installed, every node is checked as usual)
TRUSTED = _Trusted()


def built_trusted(build: Callable[..., Any], *args: Any) -> Any:
    """``build(*args)``, its pglast nodes made without pglast's per-attribute check (:data:`TRUSTED`): for
    builders that give every attribute its final type (tuples, enum members, bools), which pglast's check would
    leave as it is (tests/test_throughput_views.py compares both ways for every rewrite of the PostgreSQL
    target)."""
    before = TRUSTED.on
    TRUSTED.on = True
    try:
        return build(*args)
    finally:
        TRUSTED.on = before


def _node_slots(cls: type) -> tuple[str, ...]:
    from pglast import ast

    out = []
    for name, info in getattr(cls, "__slots__", {}).items():
        types = info.py_type if isinstance(info.py_type, tuple) else (info.py_type,)
        if any(t in (list, tuple) or (isinstance(t, type) and issubclass(t, ast.Node)) for t in types):
            out.append(name)
    return tuple(out)


def node_slots(cls: type) -> tuple[str, ...]:
    """The slots of the pglast class ``cls`` that can hold a node or a sequence of them (in its order)."""
    slots = _SLOTS.get(cls)
    if slots is None:
        slots = _SLOTS[cls] = _node_slots(cls)
    return slots


_REVERSED: dict[type, tuple[str, ...] | None] = {}  # per class met: its node slots, last first; None: no node
_LEAVES: set[type] = set()  # the pglast classes met whose nodes hold no node (String, Integer, A_Star...)


def _reversed_slots(cls: type) -> tuple[str, ...] | None:
    from pglast import ast

    if not issubclass(cls, ast.Node):
        out = None
    else:
        slots = _SLOTS.get(cls)
        if slots is None:
            slots = _SLOTS[cls] = _node_slots(cls)
        out = tuple(reversed(slots))
        if not out:
            _LEAVES.add(cls)
    _REVERSED[cls] = out
    return out


def nodes(tree: Any) -> Iterator[Any]:
    """Every pglast node of ``tree`` (a node or a tuple of them), parents before their children.

    A caller may change the node it was just given: its children are read after it resumes.
    """
    known = _REVERSED
    stack = [tree]
    pop, push = stack.pop, stack.append
    while stack:
        n = pop()
        cls = type(n)
        if cls is tuple or cls is list:
            stack.extend(reversed(n))
            continue
        try:
            slots = known[cls]
        except KeyError:
            slots = _reversed_slots(cls)
        if slots is None:
            if isinstance(n, tuple | list):
                stack.extend(reversed(n))
            continue
        yield n
        for name in slots:
            v = getattr(n, name, None)
            if v is not None:
                push(v)


def visit(tree: Any, handlers: Mapping[type, Callable[[Any], None]]) -> None:
    """Call ``handlers[type(node)](node)`` for every node of ``tree`` whose class has a handler (in the order
    of :func:`nodes`, a handler's node's children read after it returns)."""
    known = _REVERSED
    get = handlers.get
    stack = [tree]
    pop, push = stack.pop, stack.append
    while stack:
        n = pop()
        cls = type(n)
        if cls is tuple or cls is list:
            stack.extend(reversed(n))
            continue
        try:
            slots = known[cls]
        except KeyError:
            slots = _reversed_slots(cls)
        if slots is None:
            if isinstance(n, tuple | list):
                stack.extend(reversed(n))
            continue
        fn = get(cls)
        if fn is not None:
            fn(n)
        for name in slots:
            v = getattr(n, name, None)
            if v is not None:
                push(v)


class Index:
    """Every pglast node of one tree, found by one walk (:func:`index`): ``order`` holds them in the order of
    :func:`nodes` (parents before their children), :meth:`of` those of one class in that order."""

    __slots__ = ("order", "_by")

    def __init__(self, order: list[Any], by: dict[type, list[Any]] | None = None) -> None:
        self.order = order
        self._by = by  # the nodes by class (made by the walk, or at the first :meth:`of`)

    def of(self, cls: type) -> Sequence[Any]:
        """The nodes of class ``cls`` (exactly), in walk order."""
        by = self._by
        if by is None:
            by = self.groups()
        return by.get(cls, ())

    def groups(self) -> dict[type, list[Any]]:
        """The nodes by class (exactly), each class's in walk order: what :meth:`of` reads (a reader of several
        classes looks each up without a call). Never modify it."""
        by = self._by
        if by is None:
            by = {}
            for n in self.order:  # (every class at once: one pass for all the readers of the tree)
                same = by.get(type(n))
                if same is None:
                    by[type(n)] = [n]
                else:
                    same.append(n)
            self._by = by
        return by

    def among(self, classes: Collection[type]) -> list[Any]:
        """The nodes of the classes ``classes`` (exactly; a set or a short tuple), in walk order."""
        return [n for n in self.order if type(n) in classes]


# ---- trees kept beyond a document ---------------------------------------------------------------------
# The SQL layer's parse cache keeps a text's parse for later documents only when the text comes back
# (``ddlc.frontend.sql.pgparse.Recent``); it registers the nodes its readers are handed (each statement,
# and the expression of a bare ``SELECT <expression>``) here while it keeps them. What is worked out per
# tree (its index, its calls, what a view reads) is remembered as long for those, and for any other tree
# only within a short window: the readers of one fragment ask one after the other, and a tree held past
# them is dozens of objects the garbage collector walks in every full collection (issue 26).
_LASTING: dict[int, Any] = {}  # id(node) -> node (held: its id is not reused while registered)
WINDOW = 256  # the per-tree results remembered for trees not kept beyond a document
KEPT = 8192  # the per-tree results remembered for the trees kept beyond a document


def keep_lasting(found: Iterable[Any]) -> None:
    """Register the nodes ``found`` as kept beyond a document (by the cache that keeps them)."""
    for n in found:
        _LASTING[id(n)] = n


def drop_lasting(found: Iterable[Any]) -> None:
    """The nodes ``found`` are no longer kept by their cache."""
    for n in found:
        if _LASTING.get(id(n)) is n:
            del _LASTING[id(n)]


def lasting(tree: Any) -> bool:
    """Whether ``tree`` is registered as kept beyond a document (:func:`keep_lasting`)."""
    return _LASTING.get(id(tree)) is tree


def remember(tree: Any, key: Any, value: Any, window: dict[Any, Any], kept: dict[Any, Any],
             limits: tuple[int, int] = (WINDOW, KEPT)) -> None:
    """Store ``(tree, value)`` at ``key`` in ``kept`` when ``tree`` is kept beyond a document, else in
    ``window``; a full store is emptied first (``limits``: the window's size, the other's)."""
    if _LASTING.get(id(tree)) is tree:
        store, limit = kept, limits[1]
    else:
        store, limit = window, limits[0]
    if len(store) >= limit:
        store.clear()
    store[key] = (tree, value)


_KIDS: dict[type, Any] = {}  # per class met: the function pushing a node's children (_NO_KIDS: none); None: no node
_NO_KIDS: Any = object()


def _kids_of(cls: type) -> Any:
    """The function ``kids(node, push)`` that pushes the children of a node of class ``cls`` as :func:`index`'s walk
    pushes them (its node slots, last first, those not None), made from the template of its size
    (:mod:`.sqltree_kids_generated`, with the class's slot names: nothing is compiled at run time); it returns
    False, having pushed nothing, when a slot is not set. ``_NO_KIDS`` for a class whose nodes hold no node, None
    for a class that is no pglast node's; a class with more slots than any template gets a loop over them."""
    slots = _REVERSED.get(cls, _NO_KIDS)
    if slots is _NO_KIDS:
        slots = _reversed_slots(cls)
    if slots is None:
        out = None
    elif not slots:
        out = _NO_KIDS
    else:
        template = TEMPLATES.get(len(slots))
        code = getattr(template, "__code__", None)
        if code is not None and code.co_names == (*(f"_s{i}" for i in range(len(slots))), "AttributeError"):
            made = code.replace(co_names=(*slots, "AttributeError"), co_name=f"kids_{cls.__name__}",
                                co_qualname=f"kids_{cls.__name__}")
            out = FunctionType(made, template.__globals__, made.co_name)
        else:  # (more slots than a template has)
            def out(n: Any, push: Callable[[Any], None]) -> bool:
                return False
    _KIDS[cls] = out
    return out


_INDEX: dict[int, tuple[Any, Index]] = {}  # id(tree) -> (the tree, held: its id is not reused; its index)
_INDEX_LIMIT = WINDOW
_INDEX_KEPT: dict[int, tuple[Any, Index]] = {}  # the same, for the trees kept beyond a document


def index(tree: Any) -> Index:
    """The :class:`Index` of ``tree`` (a pglast node or a tuple of them): one walk, remembered per tree (the
    trees the SQL layer makes are shared and never modified: the build, the rules, the emitters and the
    catalog all read the same one). Not for a tree that will still be changed in place.

    The walk is :func:`nodes`' (the same nodes in the same order), each node's children pushed by its class's
    function (:func:`_kids_of`), and the nodes grouped by class as they are met (:meth:`Index.groups`: what
    nearly every reader asks for, without a second pass over them; issue 26)."""
    key = id(tree)
    hit = _INDEX.get(key)
    if hit is None:
        hit = _INDEX_KEPT.get(key)
    if hit is not None and hit[0] is tree:
        return hit[1]
    known = _KIDS
    order: list[Any] = []
    by: dict[type, list[Any]] = {}
    add, group = order.append, by.get
    stack = [tree]
    pop, push = stack.pop, stack.append
    while stack:
        n = pop()
        cls = type(n)
        if cls is tuple:  # (a slice and an in-place add: no ``reversed`` object, no method call; issue 26)
            stack += n[::-1]
            continue
        if cls is list:
            stack.extend(reversed(n))
            continue
        try:
            kids = known[cls]
        except KeyError:
            kids = _kids_of(cls)
        if kids is None:
            if isinstance(n, tuple | list):
                stack.extend(reversed(n))
            continue
        add(n)
        same = group(cls)
        if same is None:
            by[cls] = [n]
        else:
            same.append(n)
        if kids is not _NO_KIDS and not kids(n, push):  # (a slot not set: read with getattr's default)
            for name in _REVERSED[cls]:
                v = getattr(n, name, None)
                if v is not None:
                    push(v)
    out = Index(order, by)
    remember(tree, key, out, _INDEX, _INDEX_KEPT, (_INDEX_LIMIT, KEPT))
    return out


_ALL: dict[type, tuple[str, ...]] = {}  # per pglast class: every slot, its own and Node's ("ancestors")


def copied_with(node: Any, changes: Mapping[str, Any]) -> Any:
    """A shallow copy of the pglast ``node`` with ``changes`` made: the original is never modified, and the
    copy shares every child it does not change (the values were checked when the tree was made, so they are
    set as they are)."""
    cls = type(node)
    names = _ALL.get(cls)
    if names is None:
        names = _ALL[cls] = tuple(dict.fromkeys(s for c in cls.__mro__ for s in getattr(c, "__slots__", ())))
    new = object.__new__(cls)
    put = object.__setattr__
    for name in names:
        v = changes[name] if name in changes else getattr(node, name, _UNSET)
        if v is not _UNSET:
            put(new, name, v)
    return new


_UNSET = object()


def replaced(tree: Any, fn: Callable[[Any, Any], Any], kinds: Collection[type] | None = None,
             gather: tuple[type, list[Any]] | None = None) -> Any:
    """``tree`` (a pglast node or a tuple of them) rebuilt bottom-up: ``fn(original, node)`` is called for every
    node, ``original`` as the tree has it and ``node`` the same with its changed children (itself when none
    changed); it returns ``node`` or what takes its place. Only the nodes on a path to a change are copied
    (:func:`copied_with`): ``tree`` is never modified, and an unchanged tree is returned itself. ``kinds``: the
    node classes ``fn`` is called for, when it returns ``node`` for any other (a call less per node; and a node
    without children of another class, a name's ``String`` or a number, is not visited at all).

    ``gather``: ``(cls, found)``, a class that holds nodes (never a leaf) and a list, to which every node of
    class ``cls`` in the result is added (as many times as the result holds it, in no set order): what a walk
    of the result would find, without that second walk (issue 26: a view's types, read after its rewrite)."""
    known = _REVERSED
    # (with kinds) the classes met so far whose nodes hold no node and are not of kinds: never visited
    skip = frozenset() if kinds is None else _LEAVES.difference(kinds)
    want, found = gather if gather is not None else (None, None)

    def walk(tree: Any) -> Any:
        cls = type(tree)
        if cls is tuple or cls is list:
            items = None
            for i, x in enumerate(tree):
                if type(x) in skip:
                    continue
                nx = walk(x)
                if nx is not x:
                    if items is None:
                        items = list(tree)
                    items[i] = nx
            if items is None:
                return tree
            return tuple(items) if cls is tuple else items
        try:
            slots = known[cls]
        except KeyError:
            slots = _reversed_slots(cls)
        if slots is None:
            return tree
        mark = len(found) if found is not None else 0
        changes = None
        for name in slots:
            v = getattr(tree, name, None)
            if v is not None and type(v) not in skip:
                nv = walk(v)
                if nv is not v:
                    if changes is None:
                        changes = {}
                    changes[name] = nv
        node = tree if changes is None else copied_with(tree, changes)
        out = fn(tree, node) if kinds is None or cls in kinds else node
        if found is not None:
            if out is not node:  # what takes its place holds what it holds: the nodes gathered below it go
                del found[mark:]
                found.extend(n for n in nodes(out) if type(n) is want)
            elif cls is want:
                found.append(node)
        return out

    return walk(tree)


_MEMBERS: dict[type, tuple[str, ...]] = {}  # per pglast class: its slots that can hold a node or a tuple, in order


def _members(cls: type) -> tuple[str, ...]:
    """The slots of ``cls`` in pglast's order (``Node.__iter__``) whose declared type can hold a node or a
    sequence: the others (names, numbers, flags, enums, locations) never hold what the walk below descends
    into (a value is set through pglast's checked ``__setattr__``, by its parser, or copied from one)."""
    slots = _SLOTS.get(cls)
    if slots is None:
        slots = _SLOTS[cls] = _node_slots(cls)
    names = _MEMBERS[cls] = tuple(n for n in cls.__slots__ if n in slots)
    return names


def populate_ancestors(tree: Any) -> None:
    """Set the ``ancestors`` of every node of ``tree`` (a pglast node or a tuple of them) exactly as
    ``pglast.visitors.populate_ancestors`` does, which pglast's printers read: the same
    :class:`pglast.visitors.Ancestor` chains, made in the same breadth-first order (a node shared by two
    parents keeps the last one, as there), without pglast's visitor machinery (its generator protocol and
    per-call method lookup cost more than the walk: issue 26), reading only the slots that can hold a node."""
    from pglast import ast
    from pglast.visitors import Ancestor

    node_cls = ast.Node
    put = object.__setattr__
    members = _MEMBERS
    todo: list[tuple[Any, Any]] = [(Ancestor(), tree)]
    push = todo.append
    i = 0
    while i < len(todo):  # (first in, first out: todo[i] is the next one)
        ancestors, node = todo[i]
        i += 1
        if isinstance(node, tuple):
            for index, sub in enumerate(node):
                sub_ancestors = Ancestor(ancestors, node, index)
                if isinstance(sub, node_cls):
                    put(sub, "ancestors", sub_ancestors)
                    cls = type(sub)
                    names = members.get(cls)
                    if names is None:
                        names = _members(cls)
                    for member in names:
                        value = getattr(sub, member)
                        if isinstance(value, (tuple, node_cls)):
                            push((Ancestor(sub_ancestors, sub, member), value))
                elif isinstance(sub, tuple):
                    for sub_index, value in enumerate(sub):
                        if isinstance(value, (tuple, node_cls)):
                            push((Ancestor(sub_ancestors, sub, sub_index), value))
        elif isinstance(node, node_cls):
            put(node, "ancestors", ancestors)
            cls = type(node)
            names = members.get(cls)
            if names is None:
                names = _members(cls)
            for member in names:
                value = getattr(node, member)
                if isinstance(value, (tuple, node_cls)):
                    push((Ancestor(ancestors, node, member), value))
