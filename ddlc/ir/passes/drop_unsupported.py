"""drop_unsupported(target): decide once, from the target's capability table, what stays.

Each backend declares ``UNSUPPORTED``: a tuple of :class:`Rule` (IR node class, a test, what to
remove, a stable code and a message). Every removal is a diagnostic with the JSON path of the
clause; ``--on-unsupported error`` turns it into a document error, ``comment`` keeps the removed
text as an SQL comment next to the statement. Emitters never see what their target cannot take.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ...diagnostics import E_UNSUPPORTED, Diagnostic
from ...errors import DdlcError
from ..base import Node, transform


@dataclass(frozen=True, slots=True)
class Rule:
    node: type[Node]
    code: str
    message: str
    applies: Callable[[Any], bool] = lambda n: True
    # How to remove: a field set to its "absent" value, or None = drop the node itself (it must
    # sit in a tuple, e.g. a column or a constraint) or, for a statement, replace it.
    field: str | None = None
    absent: Any = None
    rewrite: Callable[[Any], Any] | None = None  # a lossless-enough rewrite instead of a drop
    text: Callable[[Any], str] | None = None  # the dropped clause's text, for comments


@lru_cache(maxsize=None)
def _by_class(target: str) -> dict[type, list[Rule]]:
    out: dict[type, list[Rule]] = {}
    for r in rules_for(target):
        out.setdefault(r.node, []).append(r)
    return out


@lru_cache(maxsize=None)
def rules_for(target: str) -> tuple[Rule, ...]:
    try:
        mod = importlib.import_module(f"ddlc.backends.{target}.capabilities")
    except ModuleNotFoundError:
        return ()
    return tuple(getattr(mod, "UNSUPPORTED", ()))


def drop_unsupported(stmt, ctx):
    by_class = _by_class(ctx.target)
    if not by_class:
        return stmt, []
    diags: list[Diagnostic] = []

    def report(rule: Rule, node: Any) -> None:
        dropped = rule.text(node) if rule.text is not None else None
        path = node.origin
        if rule.field is not None and isinstance(getattr(node, rule.field, None), str | bool | int):
            path = path + (rule.field,)  # a scalar clause: point at its own key
        diags.append(Diagnostic(rule.code, rule.message, path, target=ctx.target,
                                pass_name="drop_unsupported", document=ctx.document, dropped_text=dropped))
        if ctx.on_unsupported == "error" and diags[-1].severity.value == "warning":
            raise DdlcError(f"{rule.message} [{rule.code}]", code=E_UNSUPPORTED, path=path,
                            document=ctx.document)

    def fn(node):
        if isinstance(node, Node):
            for rule in by_class.get(type(node), ()):
                if not rule.applies(node):
                    continue
                report(rule, node)
                if rule.rewrite is not None:
                    node = rule.rewrite(node)
                elif rule.field is not None:
                    node = dataclasses.replace(node, **{rule.field: rule.absent})
                    if hasattr(node, "layout"):
                        node = dataclasses.replace(node, layout=None)
                else:
                    return _Dropped(node)
        # remove dropped children from tuples
        changes = {}
        for f in dataclasses.fields(node):
            v = getattr(node, f.name)
            if isinstance(v, tuple) and any(isinstance(x, _Dropped) for x in v):
                changes[f.name] = tuple(x for x in v if not isinstance(x, _Dropped))
        if changes:
            node = dataclasses.replace(node, **changes)
            if hasattr(node, "layout"):
                node = dataclasses.replace(node, layout=None)
        return node

    out = transform(stmt, fn)
    if isinstance(out, _Dropped):
        from ..statement import Opaque, OpaqueReason

        out = Opaque("", kind="dropped", reason=OpaqueReason.UNPARSED, origin=stmt.origin)
    return out, diags


class _Dropped(Node):
    """Marker for a node removed by a rule (filtered out of its parent's tuple)."""

    __slots__ = ("node",)

    def __init__(self, node: Node) -> None:
        object.__setattr__(self, "node", node)
        object.__setattr__(self, "origin", node.origin)
