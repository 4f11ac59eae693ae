"""drop_unsupported(target): decide once, from the target's capability tables, what stays.

The tables come with the pass context as data (``ctx.rules``, ``ctx.refused``; see
:mod:`ddlc.ir.rules`): the pass never imports a backend. A statement the target refuses becomes an
empty ``Opaque`` with the refusal's diagnostic; a clause a rule matches is removed or rewritten.
Every removal is a diagnostic with the JSON path of the clause and the removed node, whose text the
library renders only when a comment is asked for. ``--on-unsupported error`` turns it into a
document error. Emitters never see what their target cannot take.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ...diagnostics import E_UNSUPPORTED, Diagnostic
from ...errors import DdlcError
from ..base import Node, _field_names, replace, transform
from ..rules import Rule
from ..statement import Opaque, OpaqueReason

_BY_CLASS: dict[int, tuple[tuple[Rule, ...], dict[type, list[Rule]]]] = {}


def _by_class(rules: tuple[Rule, ...]) -> dict[type, list[Rule]]:
    hit = _BY_CLASS.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    out: dict[type, list[Rule]] = {}
    for r in rules:
        out.setdefault(r.node, []).append(r)
    _BY_CLASS[id(rules)] = (rules, out)
    return out


def drop_unsupported(stmt, ctx):
    diags: list[Diagnostic] = []

    def report(code: str, message: str, path: Any, node: Any, text: str | None) -> None:
        diags.append(Diagnostic(code, message, path, target=ctx.target, pass_name="drop_unsupported",
                                document=ctx.document, dropped_text=text, dropped_node=None if text else node))
        if ctx.on_unsupported == "error" and diags[-1].severity.value == "warning":
            raise DdlcError(f"{message} [{code}]", code=E_UNSUPPORTED, path=path, document=ctx.document)

    refusal = ctx.refused.get(type(stmt)) if ctx.refused else None
    if refusal is not None:
        report(refusal.code, refusal.message, stmt.origin, stmt, getattr(stmt, "text", None))
        return Opaque("", kind="dropped", reason=OpaqueReason.UNPARSED, origin=stmt.origin), diags
    by_class = _by_class(ctx.rules) if ctx.rules else None
    if not by_class:
        return stmt, diags

    pending = [0]  # _Dropped markers not yet removed from their parent's tuple

    def fn(node):
        rules = by_class.get(type(node))
        if rules:
            for rule in rules:
                if not rule.applies(node):
                    continue
                path = node.origin
                if rule.field is not None and isinstance(getattr(node, rule.field, None), str | bool | int):
                    path = path + (rule.field,)  # a scalar clause: point at its own key
                report(rule.code, rule.message, path, node, rule.text(node) if rule.text is not None else None)
                if rule.rewrite is not None:
                    node = rule.rewrite(node)
                elif rule.field is not None:
                    node = replace(node, **{rule.field: rule.absent})
                    if hasattr(node, "layout"):
                        node = replace(node, layout=None)
                else:
                    pending[0] += 1
                    return _Dropped(node)
        if not pending[0]:
            return node
        # markers sit in the tuples of their parent, which transform visits right after them
        changes = {}
        for name in _field_names(type(node)):
            v = getattr(node, name)
            if isinstance(v, _Dropped):  # a single child dropped: the node holding it goes with it
                return _Dropped(node)  # (the marker moves up: pending unchanged)
            if type(v) is tuple and any(isinstance(x, _Dropped) for x in v):
                kept = tuple(x for x in v if not isinstance(x, _Dropped))
                pending[0] -= len(v) - len(kept)
                changes[name] = kept
        if changes:
            node = replace(node, **changes)
            if hasattr(node, "layout"):
                node = replace(node, layout=None)
        return node

    out = transform(stmt, fn)
    if isinstance(out, _Dropped):
        out = Opaque("", kind="dropped", reason=OpaqueReason.UNPARSED, origin=stmt.origin)
    return out, diags


class _Dropped(Node):
    """Marker for a node removed by a rule (filtered out of its parent's tuple)."""

    __slots__ = ("node",)

    def __init__(self, node: Node) -> None:
        object.__setattr__(self, "node", node)
        object.__setattr__(self, "origin", node.origin)
