"""drop_unsupported(target): decide once, from the target's capability tables, what stays.

The tables come with the pass context as data (``ctx.rules``, ``ctx.refused``; see
:mod:`ddlc.ir.rules`): the pass never imports a backend. A statement the target refuses becomes an
empty ``Opaque`` with the refusal's diagnostic; a clause a rule matches is removed or rewritten.
Every removal is a diagnostic with the JSON path of the clause and the removed node (for a field or a
rewrite, the node before and after the rule, with the nodes enclosing it), whose text the library renders
through the GaussDB backend only when a comment is asked for. ``--on-unsupported error`` turns it into a
document error. Emitters never see what their target cannot take.

The walk is bottom-up, children first, like :func:`~ddlc.ir.base.transform`, but it enters only the
subtrees that can hold a class some rule targets: a :class:`_Plan`, computed once per rules table
from the IR classes' field type hints, says which fields of each class to visit. A node is rebuilt
only when a child changed.
"""

from __future__ import annotations

import enum
import typing
from typing import Any

import msgspec.structs

from ...diagnostics import E_UNSUPPORTED, Diagnostic, refusal_message
from ...errors import DdlcError
from ..base import Node, field_names, replace
from ..rules import Rule
from ..statement import Opaque, OpaqueReason


class _Plan:
    """For one rules table: the rules of each node class and the fields worth visiting per class.

    Worked out on demand, per class met (a short run meets a few dozen of the ~300 node classes, and
    reading every class's type hints up front cost tens of milliseconds of start-up): a class is worth
    entering when a targeted class, or a field of unknown type, can be reached from it through its
    fields' types (the least fixed point the rules need, found by a walk from the class)."""

    __slots__ = ("by_class", "_edges", "_fields", "enter")

    def __init__(self, rules: tuple[Rule, ...]) -> None:
        self.by_class: dict[type, tuple[Rule, ...]] = {}
        for r in (*(r for r in rules if not r.last), *(r for r in rules if r.last)):
            self.by_class[r.node] = (*self.by_class.get(r.node, ()), r)
        self._edges: dict[type, dict[str, frozenset[type] | None]] = {}
        self._fields: dict[type, tuple[str, ...]] = {}
        self.enter: dict[type, bool] = {}  # worth visiting, by class

    def _kids(self, cls: type) -> dict[str, frozenset[type] | None]:
        out = self._edges.get(cls)
        if out is None:
            out = self._edges[cls] = _child_classes(cls)
        return out

    def fields(self, cls: type) -> tuple[str, ...]:
        """The fields of ``cls`` that may lead to a targeted node."""
        out = self._fields.get(cls)
        if out is None:
            out = self._fields[cls] = tuple(
                f for f, kids in self._kids(cls).items() if kids is None or any(self.enters(k) for k in kids))
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
            if c in self.by_class:
                return True
            for kids in self._kids(c).values():
                if kids is None:
                    return True
                for k in kids:
                    if k not in seen:
                        seen.add(k)
                        todo.append(k)
        return False


def _child_classes(cls: type) -> dict[str, frozenset[type] | None]:
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


_PLANS: dict[int, tuple[tuple[Rule, ...], _Plan]] = {}


def _plan(rules: tuple[Rule, ...]) -> _Plan:
    hit = _PLANS.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    plan = _Plan(rules)
    _PLANS[id(rules)] = (rules, plan)
    return plan


def drop_unsupported(stmt, ctx):
    diags: list[Diagnostic] = []

    def report(code: str, message: str, path: Any, node: Any, text: str | None, prefix: str = "",
               show: bool = True, after: Any = None, within: tuple[Any, ...] = ()) -> None:
        keep = show and not text  # the library renders the node(s) only for a comment, and only then
        diags.append(Diagnostic(code, message, path, target=ctx.target, pass_name="drop_unsupported",
                                document=ctx.document, dropped_text=text, dropped_node=node if keep else None,
                                dropped_prefix=prefix, dropped_after=after if keep else None,
                                dropped_within=within if keep else ()))
        if ctx.on_unsupported == "error" and diags[-1].severity.value == "warning":
            raise DdlcError(refusal_message(message, code), code=E_UNSUPPORTED, path=path, document=ctx.document)

    refusal = ctx.refused.get(type(stmt)) if ctx.refused else None
    if refusal is not None:
        report(refusal.code, refusal.message, stmt.origin, stmt, getattr(stmt, "text", None))
        return Opaque("", kind="dropped", reason=OpaqueReason.UNPARSED, origin=stmt.origin), diags
    if not ctx.rules:
        return stmt, diags
    plan = _plan(ctx.rules)
    if not plan.enters(type(stmt)):
        return stmt, diags
    by_class = plan.by_class
    enter, fields_of = plan.enter.get, plan._fields.get
    stack: list[Node] = []  # the nodes enclosing the one visited (for rules that read them)

    def apply(node: Any, rules: tuple[Rule, ...], original: Any, marked: bool) -> Any:
        """``node`` after its rules; ``original``: the node as its parent (``stack[-1]``) holds it;
        ``marked``: ``node`` holds the markers of dropped children."""
        for rule in rules:
            if not rule.applies(node) or (rule.within is not None and not rule.within(node, tuple(stack))):
                continue
            if rule.path is not None:
                path = rule.path(node)
            else:
                path = node.origin
                if rule.field is not None and isinstance(getattr(node, rule.field, None), str | bool | int):
                    path = path + (rule.field,)  # a scalar clause: point at its own key
            prefix = rule.prefix(tuple(stack)) if rule.prefix is not None else ""
            text = rule.text(node) if rule.text is not None else None
            before = node
            if rule.rewrite is not None:
                node = rule.rewrite(node)
            elif rule.field is not None:
                node = replace(node, **{rule.field: rule.absent})
                if hasattr(node, "layout"):
                    node = replace(node, layout=None)
            shown, after, within = before, None if rule.drops else node, ()
            if rule.comment and text is None:  # what the library renders for a comment, without markers
                within = (*stack, original)
                if marked:  # (a node dropped whole has no text once its reported children are gone)
                    shown = None if after is None else _without_markers(before)
                    after = None if after is None else _without_markers(after)
                    if type(shown) is _Dropped or type(after) is _Dropped:
                        shown = after = None
            report(rule.code, rule.message_for(before), path, shown, text, prefix, rule.comment, after, within)
            if rule.drops:
                return _Dropped(before)
        return node

    def visit(node: Any) -> Any:
        original = node
        cls = type(node)
        names = fields_of(cls)
        if names is None:
            names = plan.fields(cls)
        marked = False  # a child was dropped: its marker sits in this node
        if names:
            changes: dict[str, Any] = {}
            stack.append(node)
            for name in names:
                v = getattr(node, name)
                if isinstance(v, Node):
                    if enter(type(v), True):
                        nv = visit(v)
                        if nv is not v:
                            changes[name] = nv
                            marked = marked or type(nv) is _Dropped
                elif type(v) is tuple and v:
                    items: list[Any] | None = None
                    for i, x in enumerate(v):
                        if isinstance(x, Node) and enter(type(x), True):
                            nx = visit(x)
                            if nx is not x:
                                if items is None:
                                    items = list(v)
                                items[i] = nx
                                marked = marked or type(nx) is _Dropped
                    if items is not None:
                        changes[name] = tuple(items)
            stack.pop()
            if changes:
                node = replace(node, **changes)
        rules = by_class.get(cls)
        if rules:  # (the rules see the markers of dropped children, as before their removal)
            node = apply(node, rules, original, marked)
            if type(node) is _Dropped:
                return node
        if marked:
            node = _without_markers(node)
        return node

    out = visit(stmt)
    if type(out) is _Dropped:
        out = Opaque("", kind="dropped", reason=OpaqueReason.UNPARSED, origin=stmt.origin)
    return out, diags


def _without_markers(node: Any) -> Any:
    """``node`` without the markers of its dropped children; a node whose single child (not one of a
    tuple) was dropped goes with it."""
    changes = {}
    for name in field_names(type(node)):
        v = getattr(node, name)
        if type(v) is _Dropped:
            return _Dropped(node)  # the marker moves up
        if type(v) is tuple and any(type(x) is _Dropped for x in v):
            changes[name] = tuple(x for x in v if type(x) is not _Dropped)
    if changes:
        node = replace(node, **changes)
        if hasattr(node, "layout"):
            node = replace(node, layout=None)
    return node


class _Dropped(Node):
    """Marker for a node removed by a rule (filtered out of its parent's tuple)."""

    node: Node

    _hidden = ("node",)  # not walked: the rules looking below the marker's parent do not see it

    def __post_init__(self) -> None:
        msgspec.structs.force_setattr(self, "origin", self.node.origin)  # where the dropped node was
