"""Spark SQL / Delta Lake target (Spark 4 SQL, Delta tables).

One emitter per IR statement class, tagged in the family modules (``table``, ``ctas``, ``alter`` with
``alter_partitions``, ``objects``) and collected here into :attr:`SparkBackend.emitters`; each
returns Spark SQL statements written through :class:`~ddlc.backends.writer.SqlWriter` with Spark's
quoting (:mod:`.quoting`). Expressions and view queries are translated from their parsed form
through sqlglot (:mod:`.exprs`), which is imported only when a statement has one. What Spark or
Delta cannot take is declared in the family modules' ``UNSUPPORTED`` rules and ``REFUSED`` table
and removed by the ``drop_unsupported`` pass before any emitter runs. The mapping and its reasons:
``docs/spark-mapping.md``.

Every statement is one line (:mod:`.quoting`: literals escape every line break and control character;
a name spark-sql cannot read safely refuses the whole statement, DDLC-W804), so what spark-sql's
file reader and splitter see is exactly the statements ddlc reports; :meth:`SparkBackend.emit` checks it.
"""

from __future__ import annotations


from ...diagnostics import E_NOT_TRANSLATED
from ...errors import DdlcError, InternalError
from ...ir.base import Node
from ...ir.owners import creates_owned
from ..base import Backend, EmitContext, Emitted, gather, merge, table_of
from . import alter, alter_partitions, ctas, objects, table
from .context import DIALECT, OPTIONS, TARGET, Emit
from .quoting import W_UNSAFE_NAME, UnsafeName
from ... import lazyre

_FAMILIES = (table, ctas, alter, alter_partitions, objects)


class SparkBackend(Backend):
    """Spark SQL 4 on Delta Lake tables."""

    name = TARGET
    title = "Spark SQL / Delta Lake"
    dialect = DIALECT
    emitters = table_of(*_FAMILIES)
    rules = gather(*_FAMILIES, name="UNSUPPORTED")
    refused = merge(objects.REFUSED, what="refused")
    options = OPTIONS  # library keywords spark_<name>, flags --spark-<name> (context.py: the declarations)

    def emit(self, stmt: Node, ctx: EmitContext) -> Emitted:
        e = Emit(ctx, ctx.catalog, self.emitters)
        try:
            out = e.statements(stmt)
        except UnsafeName as unsafe:
            return _refuse_name(stmt, ctx, unsafe)
        for s in out:
            if _SPANS_LINES.search(s):  # a writer bypassed quoting.py: never hand it to spark-sql
                raise InternalError(f"a Spark statement holds a line break or control character: {s[:80]!r}",
                                    path=stmt.origin, document=ctx.document)
        if ctx.owner is not None and out and creates_owned(stmt):  # --owners: Spark SQL has no owners
            e.diag(objects.W_OWNER, f"OWNER TO {ctx.owner} not written (Spark SQL objects have no owner)", stmt.origin)
        return Emitted(list(out), e.diagnostics, e.comments)


# what would let spark-sql's file reader cut a statement into lines (and drop one starting with --)
_SPANS_LINES = lazyre.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def _refuse_name(stmt: Node, ctx: EmitContext, unsafe: UnsafeName) -> Emitted:
    """The whole statement refused for a name no Spark script can hold (DDLC-W804): by default the
    document fails (DDLC-E010, naming the name and why, whatever else the passes dropped); under
    ``--on-unsupported comment``/``skip`` the warning only (the compiler keeps the statement's GaussDB
    text as a comment, or leaves it out); under ``error`` DDLC-E009. Nothing of the statement is written."""
    if ctx.on_unsupported not in ("comment", "skip", "error"):
        raise DdlcError(f"statement not translated to {TARGET}: {unsafe.message} ({W_UNSAFE_NAME})",
                        code=E_NOT_TRANSLATED, path=stmt.origin, document=ctx.document)
    e = Emit(ctx, ctx.catalog)  # the partial statement's own diagnostics are moot: it is not written
    e.diag(W_UNSAFE_NAME, f"{unsafe.message}; not translated", stmt.origin, dropped_node=stmt)
    return Emitted([], e.diagnostics, [])


__all__ = ["SparkBackend", "Emit"]
