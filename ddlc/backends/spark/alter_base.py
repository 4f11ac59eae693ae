"""The ALTER TABLE translation state shared by :mod:`.alter` and :mod:`.alter_partitions`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ...diagnostics import Severity, register
from ...history import working_copy
from ...ir.alter import AlterRelation
from ...ir.names import TypeName
from ...ir.rules import Refusal
from ..writer import SqlWriter
from .context import Emit

W_ALTER = register(
    "DDLC-W840", Severity.WARNING, "ALTER TABLE clause Delta does not have",
    "The subcommand has no Delta Lake form and is dropped: OWNER TO (Spark tables have no GaussDB "
    "owner), triggers, rules, row-level security, inheritance, OF type, REPLICA IDENTITY, character sets, "
    "storage parameters and column options, statistics targets, CLUSTER ON, index states, AUTO_INCREMENT "
    "restarts, ADD CONSTRAINT ... USING INDEX (the index's columns are unknown), AUTO_INCREMENT on an "
    "existing column (Delta cannot make a column an identity column later), IF NOT EXISTS / CASCADE of "
    "column subcommands.",
    "ALTER TABLE t OWNER TO alice",
)

I_NO_EFFECT = register(
    "DDLC-I840", Severity.INFO, "ALTER TABLE clause with nothing to do on Delta",
    "The subcommand asks for what a Delta table already does or is: ENABLE ROW MOVEMENT, VALIDATE "
    "CONSTRAINT (Delta checks constraints when they are added), SET WITHOUT OIDS, a type change to the "
    "column's current type, DROP INDEX (Spark has no indexes).",
)


Handler = Callable[[Any, "Alter"], None]


def handles(*classes: type) -> Callable[[Callable], Callable]:
    """Mark a function as the handler of ALTER subcommand classes (a tag only)."""

    def deco(fn: Callable) -> Callable:
        fn.__handles__ = getattr(fn, "__handles__", ()) + classes  # type: ignore[attr-defined]
        return fn

    return deco


class Alter:
    """One ALTER statement being translated: the table's name, the statements so far, the history."""

    __slots__ = ("n", "e", "table", "out", "_state", "handlers", "retyped", "renamed")

    def __init__(self, n: AlterRelation, e: Emit, handlers: Mapping[type, Handler | Refusal]) -> None:
        self.n, self.e, self.handlers = n, e, handlers
        self.table = e.qname(n.identity)
        self.out: list[str] = []
        self._state: Any = None
        # (column before, column after) of each column whose type was written (widened): the views that read
        # it are created again after the statement (:mod:`.dependent_views`)
        self.retyped: list[tuple[str, str]] = []
        # (column before, column after) of each column it renamed (CHANGE old new): the views that name it are
        # created again after the statement, naming it anew
        self.renamed: list[tuple[str, str]] = []

    def alter(self) -> SqlWriter:
        return self.e.w().kw("ALTER", "TABLE").raw(self.table)

    def add(self, w: SqlWriter | str) -> None:
        self.out.append(w if isinstance(w, str) else w.text())

    def column(self, name: str) -> SqlWriter:
        return self.alter().kw("ALTER", "COLUMN").ident(name)

    @property
    def state(self) -> Any:
        """A working copy of the table's partition state from the history (None when unknown)."""
        if self._state is None:
            cat = self.e.catalog
            st = cat.table(self.n.identity) if cat is not None else None
            self._state = working_copy(st) if st is not None else False
        return self._state or None

    def column_type(self, name: str) -> TypeName | None:
        cat = self.e.catalog
        get = getattr(cat, "column_type", None)
        return get(self.n.identity, name) if get is not None else None

    def run(self) -> list[str]:
        for sub in self.n.subcommands:
            try:  # every subcommand class is handled, refused here or removed by a rule (ddlc.backends.coverage)
                fn = self.handlers[type(sub)]
            except KeyError:
                from ...errors import InternalError

                raise InternalError(f"spark: no ALTER handler for {type(sub).__name__}", path=sub.origin) from None
            if isinstance(fn, Refusal):  # declared with the table: reported in the order of the subcommands
                self.e.diag(fn.code, fn.message, sub.origin, dropped_node=sub)
                continue
            fn(sub, self)
        return self.out


__all__ = ["Alter", "handles", "W_ALTER", "I_NO_EFFECT"]
