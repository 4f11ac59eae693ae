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

from typing import Any

import msgspec.structs

from ..diagnostics import E_UNSUPPORTED, Diagnostic, refusal_message
from ..errors import DdlcError
from ..ir import base as _base
from ..ir.base import Node, field_names, replace
from ..ir.reach import Reach, child_classes
from ..ir.rules import Rule
from ..ir.rules import always  # (Rule's default predicate: always true)
from ..ir.statement import Opaque, OpaqueReason

_UNPARSED = OpaqueReason.UNPARSED  # (read once: on Python 3.11 a read through an Enum class goes through a hook)


class _Rules(tuple):
    """The rules of one class, in order, with :attr:`first`: a function made for them once, ``first(node,
    stack)``, the index of the first rule that applies to ``node`` under the enclosing nodes ``stack`` (its
    ``applies``, then its ``within``), -1 when none does. Most nodes meet no rule: the walk asks ``first``,
    one call in which each predicate is a local name, instead of looping over the rules' fields in Python."""

    first: Any
    after: Any

    def __new__(cls, rules: tuple[Rule, ...]) -> _Rules:
        out = super().__new__(cls, rules)
        out.first = _first_later(out) if rules else None
        out.after = _after_later(out) if rules else None
        return out


def _first_later(rules: _Rules) -> Any:
    """A ``first`` that makes the real one at its first call and puts it in its place: a plan holds the rules of
    every class the target has rules for, and a run meets few of them (a short run, ``ddlc check`` of one file,
    would otherwise compile ~130 functions it never calls)."""

    def first(node: Any, stack: Any) -> int:
        made = rules.first = _first_of(tuple(rules))
        return made(node, stack)

    return first


def _after_later(rules: _Rules) -> Any:
    """``after(node, stack, k)``, made at its first call like ``first``: the index of the first rule from ``k``
    on that applies to ``node`` (-1 when none does). Once a rule has applied, the walk asks it for the next one
    of the changed node: the same tests as ``first``'s, the ``needs`` fields included, in one call."""

    def after(node: Any, stack: Any, k: int) -> int:
        made = rules.after = _first_of(tuple(rules), True)
        return made(node, stack, k)

    return after


def _first_of(rules: tuple[Rule, ...], from_k: bool = False) -> Any:
    """``first`` of ``rules`` (all of one class), or with ``from_k`` ``after``, which skips the rules before its
    argument ``k``. A predicate may say, by its attribute ``needs`` (field names),
    that it is false whenever one of those fields of the node is false (None, False, empty): ``first`` tests the
    fields before calling it, most columns having no DEFAULT, COLLATE, ON UPDATE or AUTO_INCREMENT."""
    env: dict[str, Any] = {}
    lines = ["def first(node, stack, k):" if from_k else "def first(node, stack):"]
    node_cls = rules[0].node if rules else None
    # (every field of the class: ``node.f`` reads any of them; not ``field_names``, which resolves type hints)
    fields = set(getattr(node_cls, "__struct_fields__", None) or getattr(node_cls, "__dataclass_fields__", ()))
    for i, r in enumerate(rules):
        env[f"a{i}"] = r.applies
        needs = getattr(r.applies, "needs", ())
        cond = "True" if r.applies is always else f"a{i}(node)"  # (a rule decided by its ``within`` alone)
        if needs and all(f in fields and f.isidentifier() for f in needs):
            cond = " and ".join((*(f"node.{f}" for f in needs), cond))
        if r.within is not None:
            env[f"w{i}"] = r.within
            cond += f" and w{i}(node, tuple(stack))"  # (a new tuple per ask, as the walk gave it)
        if from_k:
            cond = f"k <= {i} and {cond}"
        lines.append(f"    if {cond}:\n        return {i}")
    lines.append("    return -1")
    exec(compile("\n".join(lines), "<drop_unsupported rules>", "exec"), env)
    return env["first"]


class _Plan(Reach):
    """For one rules table: the rules of each node class (:attr:`by_class`, the last ones after the others)
    and, as a :class:`~ddlc.ir.reach.Reach` of the classes they target, the fields worth visiting per
    class: a class is worth entering when a targeted class, or a field of unknown type, can be reached
    from it through its fields' types. :attr:`steps` holds, per class met (node or not), what the walk does
    at a value of that class, found in one lookup (:meth:`step`)."""

    __slots__ = ("by_class", "steps")

    def __init__(self, rules: tuple[Rule, ...]) -> None:
        by_class: dict[type, tuple[Rule, ...]] = {}
        for r in (*(r for r in rules if not r.last), *(r for r in rules if r.last)):
            by_class[r.node] = (*by_class.get(r.node, ()), r)
        by_class = {cls: _Rules(rs) for cls, rs in by_class.items()}
        super().__init__(by_class)
        self.by_class = by_class
        self.steps: dict[type, tuple[tuple[str, ...], tuple[Rule, ...]] | None] = {}

    def current(self) -> _Plan:
        if self._generation != _base.generation:
            self.steps.clear()
            super().current()
        return self

    def step(self, cls: type) -> tuple[tuple[str, ...], tuple[Rule, ...]] | None:
        """What the walk does at a value of class ``cls``: None when no rule's class can be at or below it
        (not a node class, or none reachable), else (its fields worth visiting, its rules)."""
        out = None
        if issubclass(cls, Node) and self.enters(cls):
            out = (self.fields(cls), self.by_class.get(cls, _NO_RULES))
        self.steps[cls] = out
        return out


_NO_RULES = _Rules(())
_SCALARS = (str, bool, int)  # (a field's value of these kinds is a scalar clause; the tuple made once)
_UNSEEN: Any = object()  # (a class the plan has no step for yet)
_child_classes = child_classes  # (its former name)


_PLANS: dict[int, tuple[tuple[Rule, ...], _Plan]] = {}


def _plan(rules: tuple[Rule, ...]) -> _Plan:
    hit = _PLANS.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    plan = _Plan(rules)
    _PLANS[id(rules)] = (rules, plan)
    return plan


def drop_unsupported(stmt, ctx):
    refused = ctx.refused
    if refused:
        refusal = refused.get(type(stmt))
        if refusal is not None:
            walk = _Walk(ctx, None)
            walk.report(refusal.code, refusal.message, stmt.origin, stmt, getattr(stmt, "text", None))
            return Opaque("", kind="dropped", reason=_UNPARSED, origin=stmt.origin), walk.diags
    rules = ctx.rules
    if not rules:
        return stmt, []
    hit = _PLANS.get(id(rules))  # (_plan(rules).current(), without their calls when the plan is made and current)
    plan = hit[1] if hit is not None and hit[0] is rules else _plan(rules)
    if plan._generation != _base.generation:
        plan.current()
    first = plan.steps.get(type(stmt), _UNSEEN)
    if first is _UNSEEN:
        first = plan.step(type(stmt))
    if first is None:  # no rule's class can be in it
        return stmt, []
    if not first[0]:  # nothing below it to visit: when none of its own rules applies, nothing changes
        screen = first[1].first
        at = -1 if screen is None else screen(stmt, ())
        if at < 0:
            return stmt, []
        walk = _Walk(ctx, plan)
        out = walk.apply(stmt, first[1], stmt, False, at)
    else:
        walk = _Walk(ctx, plan)
        out = walk.visit(stmt)
    if type(out) is _Dropped:
        out = Opaque("", kind="dropped", reason=_UNPARSED, origin=stmt.origin)
    return out, walk.diags


def _may_change(cls: type, ctx: Any) -> bool:
    """Whether the target refuses statements of class ``cls`` or a rule's class can be in one."""
    if ctx.refused and cls in ctx.refused:
        return True
    if not ctx.rules:
        return False
    plan = _plan(ctx.rules).current()
    step = plan.steps.get(cls, 0)
    return (plan.step(cls) if step == 0 else step) is not None


drop_unsupported.may_change = _may_change  # type: ignore[attr-defined]


class _Walk:
    """One statement's walk: bottom-up, children first, entering only what the plan says (a node is rebuilt
    only when a child changed); the diagnostics it makes, and the nodes enclosing the one visited (for rules
    that read them)."""

    __slots__ = ("ctx", "diags", "stack", "steps", "plan")

    def __init__(self, ctx: Any, plan: _Plan | None) -> None:
        self.ctx, self.plan = ctx, plan
        self.diags: list[Diagnostic] = []
        self.stack: list[Node] = []
        self.steps = plan.steps if plan is not None else None

    def report(self, code: str, message: str, path: Any, node: Any, text: str | None, prefix: str = "",
               show: bool = True, after: Any = None, within: tuple[Any, ...] = ()) -> None:
        ctx = self.ctx
        keep = show and not text  # the library renders the node(s) only for a comment, and only then
        d = Diagnostic(code, message, path, target=ctx.target, pass_name="drop_unsupported",
                       document=ctx.document, dropped_text=text, dropped_node=node if keep else None,
                       dropped_prefix=prefix, dropped_after=after if keep else None,
                       dropped_within=within if keep else ())
        self.diags.append(d)
        if ctx.on_unsupported == "error" and d.severity.value == "warning":
            raise DdlcError(refusal_message(message, code), code=E_UNSUPPORTED, path=path, document=ctx.document)

    def apply(self, node: Any, rules: _Rules, original: Any, marked: bool, at: int) -> Any:
        """``node`` after its rules; ``original``: the node as its parent (``stack[-1]``) holds it;
        ``marked``: ``node`` holds the markers of dropped children; ``at``: the first rule that applies to
        ``node`` (``rules.first``'s answer: the rules before it do not). After each rule that applies, the next
        one is found by ``rules.after`` on the node the rule left."""
        stack = self.stack
        k, last = at, len(rules) - 1
        while k >= 0:
            rule = rules[k]
            field, rewrite = rule.field, rule.rewrite
            drops = field is None and rewrite is None  # (Rule.drops, without its property's call)
            if rule.path is not None:
                path = rule.path(node)
            else:
                path = node.origin
                if field is not None and isinstance(getattr(node, field, None), _SCALARS):
                    path = path + (field,)  # a scalar clause: point at its own key
            prefix = rule.prefix(tuple(stack)) if rule.prefix is not None else ""
            text = rule.text(node) if rule.text is not None else None
            before = node
            if rewrite is not None:
                node = rewrite(node)
            elif field is not None:
                node = replace(node, **{field: rule.absent})
                if hasattr(node, "layout"):
                    node = replace(node, layout=None)
            shown, after, within = before, None if drops else node, ()
            if rule.comment and text is None:  # what the library renders for a comment, without markers
                within = (*stack, original)
                if marked:  # (a node dropped whole has no text once its reported children are gone)
                    shown = None if after is None else _without_markers(before)
                    after = None if after is None else _without_markers(after)
                    if type(shown) is _Dropped or type(after) is _Dropped:
                        shown = after = None
            m = rule.message
            self.report(rule.code, m if type(m) is str else rule.message_for(before), path, shown, text, prefix,
                        rule.comment, after, within)
            if drops:
                return _Dropped(before)
            k = rules.after(node, stack, k + 1) if k < last else -1
        return node

    def visit(self, node: Any) -> Any:
        """``node`` after the rules of it and of what is below it (its step known to be one to take). A child
        with nothing below it to visit is judged here, by its rules' ``first``, without a visit of its own:
        most are columns, options, constraints... that no rule meets."""
        original = node
        steps = self.steps
        names, rules = steps.get(type(node)) or self.plan.step(type(node))
        marked = False  # a child was dropped: its marker sits in this node
        stack = self.stack
        if names:
            changes: dict[str, Any] | None = None
            stack.append(node)
            for name in names:
                v = getattr(node, name)
                if v is None:
                    continue
                t = type(v)
                if t is tuple:
                    items: list[Any] | None = None
                    for i, x in enumerate(v):
                        tx = type(x)
                        go = steps.get(tx, _UNSEEN)
                        if go is _UNSEEN:
                            go = self.plan.step(tx)
                        if go is None:
                            continue
                        if go[0]:
                            nx = self.visit(x)
                        else:  # (a leaf: what its visit would do, its rules alone)
                            first = go[1].first
                            at = -1 if first is None else first(x, stack)
                            if at < 0:
                                continue
                            nx = self.apply(x, go[1], x, False, at)
                        if nx is not x:
                            if items is None:
                                items = list(v)
                            items[i] = nx
                            marked = marked or type(nx) is _Dropped
                    if items is not None:
                        if changes is None:
                            changes = {}
                        changes[name] = tuple(items)
                    continue
                go = steps.get(t, _UNSEEN)
                if go is _UNSEEN:
                    go = self.plan.step(t)
                if go is not None:
                    nv = self.visit(v)
                    if nv is not v:
                        if changes is None:
                            changes = {}
                        changes[name] = nv
                        marked = marked or type(nv) is _Dropped
            stack.pop()
            if changes is not None:
                node = replace(node, **changes)
        first = rules.first
        if first is not None:  # (the rules see the markers of dropped children, as before their removal)
            at = first(node, stack)
            if at >= 0:
                node = self.apply(node, rules, original, marked, at)
                if type(node) is _Dropped:
                    return node
        if marked:
            node = _without_markers(node)
        return node


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
