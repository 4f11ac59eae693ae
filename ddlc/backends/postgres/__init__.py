"""PostgreSQL (15+) target.

One emitter per IR statement class, tagged in the family modules (``table``, ``alter`` with
``alter_columns`` and ``alter_partitions``, ``objects`` with ``objects_more``, ``routines``,
``misc``) and collected here into :attr:`PostgresBackend.emitters`; each returns the PostgreSQL
statements for its node, written through :class:`~ddlc.backends.writer.SqlWriter`. What PostgreSQL
cannot take is declared in the family modules' ``UNSUPPORTED`` rules and ``REFUSED`` tables and
removed by the ``drop_unsupported`` pass before any emitter runs; emitters decide only what needs
the stream's history, and say how a form they write differs (docs/architecture.md lists both).
"""

from __future__ import annotations

from ...ir.base import Node
from ..base import Backend, EmitContext, Emitted, gather, merge, table_of
from . import alter, alter_columns, alter_partitions, functions, misc, objects, objects_more, routines, table
from .context import DIALECT, TARGET, Emit
from .owners import owner_statements

_new = object.__new__
_FAMILIES = (table, alter, alter_columns, alter_partitions, objects, objects_more, routines, misc, functions)


class PostgresBackend(Backend):
    """PostgreSQL 15+: every statement written from the IR with PostgreSQL's own quoting."""

    name = TARGET
    title = "PostgreSQL 15+"
    dialect = DIALECT
    emitters = table_of(*_FAMILIES)
    rules = gather(*_FAMILIES, name="UNSUPPORTED")
    refused = merge(alter.REFUSED, misc.REFUSED, what="refused")

    @staticmethod
    def prettify(sql: str) -> str:
        """--pretty: the statement as pglast prints it pretty (as it came when pglast cannot)."""
        try:
            import pglast

            return pglast.prettify(sql)
        except Exception:  # noqa: BLE001
            return sql

    def emit(self, stmt: Node, ctx: EmitContext) -> Emitted:
        emitters = self.emitters
        # Emit(ctx, ctx.catalog, emitters), without calling the class: EmitBase.__init__ is a Python __init__, which
        # CPython 3.11 runs through slot_tp_init and a C-level call of its own (tests/test_throughput_round13_glue.py
        # holds the two alike, slot for slot)
        e = _new(Emit)
        e.ctx, e.catalog, e.diagnostics, e.comments, e.emitters, e.owned = ctx, ctx.catalog, [], [], emitters, []
        fn = emitters.get(type(stmt))  # (the table at once; Emit.statements says what has no emitter)
        out = fn(stmt, e) if fn is not None else e.statements(stmt)
        # README "Owners": pg_dump's ALTER ... OWNER TO for what the statement created (e.owned; none, none to
        # write: e.owned tested first, an Options attribute read is dear, through its class's __getattr__ hook)
        if e.owned and ctx.options is not None and ctx.options.owners:
            out = [*out, *owner_statements(e, ctx.owner)]
        return Emitted(list(out), e.diagnostics, e.comments)


__all__ = ["PostgresBackend", "Emit"]
