"""Spark SQL / Delta Lake target (Spark 4 SQL, Delta tables).

One emitter per IR statement class, tagged in the family modules (``table``, ``ctas``, ``alter`` with
``alter_partitions``, ``objects``) and collected here into :attr:`SparkBackend.emitters`; each
returns Spark SQL statements written through :class:`~ddlc.backends.writer.SqlWriter` with Spark's
quoting (:mod:`.quoting`). Expressions and view queries are translated from their parsed form
through sqlglot (:mod:`.exprs`), which is imported only when a statement has one. What Spark or
Delta cannot take is declared in the family modules' ``UNSUPPORTED`` rules and ``REFUSED`` table
and removed by the ``drop_unsupported`` pass before any emitter runs. The mapping and its reasons:
``docs/spark-mapping.md``.
"""

from __future__ import annotations

from ...ir.base import Node
from ...ir.owners import creates_owned
from ..base import Backend, EmitContext, Emitted, gather, merge, table_of
from . import alter, alter_partitions, ctas, objects, table
from .context import DIALECT, TARGET, Emit

_FAMILIES = (table, ctas, alter, alter_partitions, objects)


class SparkBackend(Backend):
    """Spark SQL 4 on Delta Lake tables."""

    name = TARGET
    title = "Spark SQL / Delta Lake"
    dialect = DIALECT
    emitters = table_of(*_FAMILIES)
    rules = gather(*_FAMILIES, name="UNSUPPORTED")
    refused = merge(objects.REFUSED, what="refused")

    def emit(self, stmt: Node, ctx: EmitContext) -> Emitted:
        e = Emit(ctx, ctx.catalog, self.emitters)
        out = e.statements(stmt)
        if ctx.owner is not None and out and creates_owned(stmt):  # --owners: Spark SQL has no owners
            e.diag(objects.W_OWNER, f"OWNER TO {ctx.owner} not written (Spark SQL objects have no owner)", stmt.origin)
        return Emitted(list(out), e.diagnostics, e.comments)


__all__ = ["SparkBackend", "Emit"]
