"""The history of one stream: what earlier DDL left behind, for translations that need it.

Some translations need what came before: a partition added later carries only its upper bound,
and its lower bound is the previous partition's. The library keeps one :class:`Catalog` per run
and records every statement after it is emitted (:mod:`.recorders`); backends read it through
their emit context and say so in a diagnostic when it has nothing.
"""

from __future__ import annotations

from typing import Any

from .recorders import RECORDERS
from .state import RelationState, TableState
from .views import ViewState, Views, effect_of


_NOTHING = (None, None, False)
_STEPS: dict[type, tuple[Any, Any, bool]] = {}  # per statement class: (its recorder, its views' effect, a matview)


def _steps_of(cls: type) -> tuple[Any, Any, bool]:
    """What :meth:`Catalog.record` does with a statement of class ``cls``."""
    out = (RECORDERS.get(cls), effect_of(cls), cls.__name__ == "CreateMatView")
    return _NOTHING if out == _NOTHING else out


class Catalog:
    """Tables seen so far, keyed by (schema, table); views, what they read and what recreates them
    (:mod:`.views`: :meth:`dependent_views`)."""

    __slots__ = ("tables", "relations", "views")

    def __init__(self) -> None:
        self.tables: dict[tuple[str | None, str], TableState] = {}  # partitioned tables
        self.relations: dict[tuple[str | None, str], RelationState] = {}
        self.views = Views()  # views, what they read, and what recreates them (:mod:`.views`)

    @staticmethod
    def key(q: Any) -> tuple[str | None, str]:
        return (q.schema, q.name)

    def table(self, q: Any) -> TableState | None:
        return self.tables.get(self.key(q))

    def relation(self, q: Any) -> RelationState | None:
        return self.relations.get(self.key(q))

    def identity_column(self, q: Any) -> str | None:
        r = self.relations.get(self.key(q))
        return None if r is None else r.identity_column

    def column_type(self, q: Any, column: str) -> Any:
        """The type (an IR ``TypeName``) the stream last gave ``column`` of table ``q``, or None."""
        r = self.relations.get(self.key(q))
        return None if r is None else r.columns.get(column)

    def primary_key(self, q: Any) -> str | None:
        r = self.relations.get(self.key(q))
        return None if r is None else r.primary_key

    def dependent_views(self, q: Any, column: Any = None, *, renamed_to: str | None = None) -> list[ViewState]:
        """The views that read ``column`` of table (or view) ``q`` (a QualifiedName or a (schema, name) key;
        any column when None; several: an iterable of names, the views of any of them) and every view that reads one of them, transitively, in dependency order:
        creation order, each after the views it reads. Drop them in the reverse order (each with
        :meth:`ViewState.drop_statement`), change the column, then create them in this order
        (:meth:`ViewState.create_statements`). Empty when the history knows of none: see
        :meth:`knows_views_of`.

        ``renamed_to``: the statement also renames the column (B-compatibility ``CHANGE old new type``): the
        views are given as they must be created after it, naming the new column (their output names kept
        with ``AS``), on copies: the history itself changes when the statement is recorded."""
        key = q if isinstance(q, tuple) else self.key(q)
        if column is not None and not isinstance(column, str):  # several columns: the union, in order
            found = self.views.in_order({v.key: v for c in column for v in self.views.dependents(key, c)}.values())
            return found
        found = self.views.dependents(key, column)
        if renamed_to is None or column is None or renamed_to == column:
            return found
        return self.views.copies(found).renamed_column(key, column, renamed_to)

    def knows_views_of(self, q: Any) -> bool:
        """Whether the history can know every view on table ``q``: it saw the table created (a view on it
        can only come later, and was recorded). False for a table the stream never created (the log starts
        later, or no ``--state`` carried the history over): an empty :meth:`dependent_views` then proves
        nothing, and a target that would refuse a change under a view should say so."""
        r = self.relations.get(q if isinstance(q, tuple) else self.key(q))
        return r is not None and r.created

    def view(self, q: Any) -> ViewState | None:
        return self.views.views.get(q if isinstance(q, tuple) else self.key(q))

    def record(self, stmt: Any) -> None:
        """Replay one (translated) statement into the state (what a statement of its class changes, decided
        once per class: most classes change nothing the history keeps)."""
        cls = type(stmt)
        steps = _STEPS.get(cls)
        if steps is None:
            steps = _STEPS[cls] = _steps_of(cls)
        if steps is _NOTHING:
            return
        handler, effect, matview = steps
        if handler is not None:
            handler(self, stmt)
        if effect is not None:
            try:
                effect(self.views, stmt)
            except Exception:  # noqa: BLE001 - a query the view bookkeeping cannot follow: the history says it
                self._views_unknown(stmt)  # does not know the views of what the statement names, never a wrong answer
        if matview:
            self._matview_reads(stmt)

    def _matview_reads(self, stmt: Any) -> None:
        """A materialized view blocks a change of a column's type as a view does, and the history does not
        follow what it reads: the relations its query names are marked as not known (:meth:`knows_views_of`
        False: the change is written with a warning, never silently refused by the target)."""
        sql = getattr(stmt.query, "sql", None)
        refs = sql.refs if sql is not None else None
        if refs is None:  # what it reads is not known at all: every relation
            for r in self.relations.values():
                r.created = False
            return
        for ref in refs:
            if ref.kind.value != "relation":
                continue
            if ref.schema is not None:  # (one relation: looked up, not searched for among all of them)
                r = self.relations.get((ref.schema, ref.name))
                if r is not None:
                    r.created = False
                continue
            for key, r in self.relations.items():  # an unqualified name: that name in any schema
                if key[1] == ref.name:
                    r.created = False

    def _views_unknown(self, stmt: Any) -> None:
        names = [*getattr(stmt, "references", ()), getattr(stmt, "identity", None)]
        for q in names:
            if hasattr(q, "name") and hasattr(q, "schema"):
                r = self.relations.get(self.key(q))
                if r is not None:
                    r.created = False
                for v in self.views.dependents(self.key(q)):
                    for k in v.relations:
                        if k in self.relations:
                            self.relations[k].created = False

    # helpers for recorders ------------------------------------------------------------------
    def _rel(self, key: tuple[str | None, str]) -> RelationState:
        r = self.relations.get(key)
        if r is None:
            r = self.relations[key] = RelationState()
        return r

    def move(self, old: tuple[str | None, str], new: tuple[str | None, str]) -> None:
        """A table renamed or moved to another schema."""
        if old == new:
            return
        for d in (self.tables, self.relations):
            if old in d:
                d[new] = d.pop(old)

    def forget(self, key: tuple[str | None, str]) -> None:
        self.tables.pop(key, None)
        self.relations.pop(key, None)
