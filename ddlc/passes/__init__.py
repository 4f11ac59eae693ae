"""Normalizing passes: pure functions ``(statement, ctx) -> (statement, diagnostics)``.

The order is the one :data:`PIPELINE` tuple. Every pass is idempotent (running it twice changes
nothing) and never mutates its input (IR nodes are frozen).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

import msgspec

from ..diagnostics import Diagnostic
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


def run_pipeline(stmt: Statement, ctx: PassContext, start: int = 0,
                 stop: int | None = None) -> tuple[Statement, list[Diagnostic]]:
    """``PIPELINE[start:stop]`` over ``stmt``: the statement they make and what they said."""
    diags: list[Diagnostic] = []
    for p in PIPELINE[start:stop]:
        stmt, more = p(stmt, ctx)
        diags.extend(more)
    return stmt, diags
