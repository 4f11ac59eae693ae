"""Normalizing passes: pure functions ``(statement, ctx) -> (statement, diagnostics)``.

The order is the one :data:`PIPELINE` tuple. Every pass is idempotent (running it twice changes
nothing) and never mutates its input (IR nodes are frozen).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

import msgspec

from ..diagnostics import Diagnostic
from ..ir import base as _ir_base
from ..ir.rules import Refusal, Rule
from ..ir.statement import Statement


class PassOptions(Protocol):
    """What the passes read of the run's options (``ddlc.api.Options`` has these, typed)."""

    default_schema: str
    schema_map: tuple[tuple[str, str], ...]
    role_map: tuple[tuple[str, str], ...]
    no_owner: bool
    on_unsupported: str


class PassContext(msgspec.Struct, frozen=True, kw_only=True):
    """What the passes read of the run (one per document and target: a ``msgspec.Struct``, made in C)."""

    target: str = "gaussdb"
    default_schema: str = "public"
    schema_map: Mapping[str, str] = msgspec.field(default_factory=dict)
    role_map: Mapping[str, str] = msgspec.field(default_factory=dict)  # --role-map (map_roles)
    no_owner: bool = False  # --no-owner: AUTHORIZATION, OWNER TO and DEFINER removed (map_roles)
    on_unsupported: str = "warn"
    document: str | None = None
    catalog: Any = None  # ddlc.history.Catalog built by replaying the stream, when available
    # The target's capability tables, as data (ddlc.ir.rules): what drop_unsupported removes.
    rules: tuple[Rule, ...] = ()
    refused: Mapping[type, Refusal] = msgspec.field(default_factory=dict)

    @classmethod
    def of(cls, options: PassOptions, *, target: str, document: str | None = None, catalog: Any = None,
           rules: tuple[Rule, ...] = (), refused: Mapping[type, Refusal] | None = None) -> PassContext:
        return cls(
            target=target,
            default_schema=options.default_schema,
            schema_map=dict(options.schema_map),
            role_map=dict(options.role_map),
            no_owner=options.no_owner,
            on_unsupported=options.on_unsupported,
            document=document,
            catalog=catalog,
            rules=tuple(rules),
            refused=refused or {},
        )


Pass = Callable[[Statement, PassContext], tuple[Statement, list[Diagnostic]]]


from .drop_unsupported import drop_unsupported  # noqa: E402


def expand_partitions(stmt: Statement, ctx: PassContext) -> tuple[Statement, list[Diagnostic]]:
    """START/END/EVERY range partitions expanded exactly as the database does
    (:mod:`.expand_partitions`, with its ~1,600 lines of openGauss value emulation, is imported only
    when a statement has such partitions)."""
    spec = getattr(getattr(stmt, "partition", None), "spec", None)
    if spec is None or not spec.has_range_items:
        return stmt, []
    from .expand_partitions import expand_partitions as expand

    return expand(stmt, ctx)


from .map_roles import map_roles  # noqa: E402
from .map_schemas import map_schemas  # noqa: E402
from .qualify_names import qualify_names  # noqa: E402

PIPELINE: tuple[Pass, ...] = (expand_partitions, qualify_names, map_schemas, map_roles, drop_unsupported)
# The passes before this index read nothing of the target (its name, rules, refusals or catalog): a
# document built once runs them once for all its targets (tests/test_passes_shared.py checks their code).
SHARED = PIPELINE.index(drop_unsupported)


def _may_expand(cls: type, ctx: PassContext) -> bool:
    return hasattr(cls, "partition")  # (the pass reads the statement's ``partition``, absent: nothing to do)


expand_partitions.may_change = _may_expand  # type: ignore[attr-defined]


class Plans:
    """Which passes of :data:`PIPELINE` can change a statement of a given class under one context's options,
    decided once per class (a run meets a few dozen): every pass declares it (``may_change(cls, ctx)``: False
    only when the pass returns any statement of ``cls`` as given and says nothing), and :func:`run_pipeline`
    calls only those. The answers read the IR classes' type hints (:class:`~ddlc.ir.reach.Reach`): they are
    worked out again once a node class was defined since. Made from a context without its document: what the
    answers read (options, target tables) is the same for every document of a run and target."""

    __slots__ = ("ctx", "by_class", "generation")

    def __init__(self, ctx: PassContext) -> None:
        self.ctx = ctx
        self.by_class: dict[type, tuple[int, ...]] = {}  # the indexes in PIPELINE of the passes to call
        self.generation = _ir_base.generation

    def of(self, cls: type) -> tuple[int, ...]:
        if self.generation != _ir_base.generation:
            self.by_class.clear()
            self.generation = _ir_base.generation
        out = self.by_class.get(cls)
        if out is None:
            ctx = self.ctx
            out = self.by_class[cls] = tuple(i for i, p in enumerate(PIPELINE) if p.may_change(cls, ctx))
        return out


def run_pipeline(stmt: Statement, ctx: PassContext, start: int = 0, stop: int | None = None,
                 plans: Plans | None = None) -> tuple[Statement, list[Diagnostic]]:
    """``PIPELINE[start:stop]`` over ``stmt``: the statement they make and what they said. ``plans``: the run's
    :class:`Plans` for ``ctx`` (made here when not given); the passes that cannot change a statement of its
    class are not called (a pass that makes a statement of another class: the rest planned for that class)."""
    if plans is None:
        plans = Plans(ctx)
    diags: list[Diagnostic] = []
    todo = plans.by_class.get(type(stmt)) if plans.generation == _ir_base.generation else None  # (of's fast path)
    if todo is None:
        todo = plans.of(type(stmt))
    if start or stop is not None:
        lo, hi, _ = slice(start, stop).indices(len(PIPELINE))
        todo = tuple(i for i in todo if lo <= i < hi)
    for i in todo:
        cls = type(stmt)
        stmt, more = PIPELINE[i](stmt, ctx)
        if more:
            diags.extend(more)
        if type(stmt) is not cls:  # the passes after this one as planned for its class
            stmt, more = run_pipeline(stmt, ctx, i + 1, stop, plans)
            diags.extend(more)
            break
    return stmt, diags
