"""Builders: the ALTER TABLE follow-up messages (reference §4.8, §5.3).

* ``ALTER TABLE %{only}s %{identity}D %{subcmds:, }s`` — SET DEFAULT of an added column, MODIFY
  COLUMN ... AUTO_INCREMENT, held-back ADD CONSTRAINT (subcommands read as in §5.2);
* ``ALTER TABLE %{only}s %{identity}D ALTER COLUMN %{name}I SET NOT NULL``;
* ``UPDATE %{identity}D SET %{name}I = %{default}s WHERE %{name}I IS NULL`` — DML carried as a DDL
  message, classified as :class:`~ddlc.ir.followup.BackfillUpdate` (DDLC-I201);
* ``DECLARE ...`` — the AUTO_INCREMENT back-fill block, :class:`~ddlc.ir.followup.AutoIncrementBackfill`
  (DDLC-I202).

Registered before every other family (FAMILIES order), with patterns that only these trees match.
"""

from __future__ import annotations

from ...diagnostics import Severity, register
from ...ir.alter import AlterObjType
from ...ir.alter_columns import SetNotNull
from ...ir.followup import AlterTableFollowup, AutoIncrementBackfill, BackfillUpdate
from ...ir.statement import Statement
from . import shape
from ._read import Obj

I_BACKFILL_UPDATE = register(
    "DDLC-I201", Severity.INFO, "UPDATE back-fill: DML carried as a DDL message",
    "After `ALTER TABLE ... ADD COLUMN c ... DEFAULT <non-constant>` the server writes "
    "`UPDATE t SET c = <default> WHERE c IS NULL` as a DDL follow-up message (jddl-shapes.md §5.3). "
    "It is data manipulation, not DDL: ddlc classifies it (a BackfillUpdate statement) and replays it "
    "as the server wrote it; it only makes sense right after the ADD COLUMN it belongs to.",
    '{"fmt": "UPDATE %{identity}D SET %{name}I = %{default}s WHERE %{name}I IS NULL", ...}',
)
I_BACKFILL_BLOCK = register(
    "DDLC-I202", Severity.INFO, "AUTO_INCREMENT back-fill block",
    "After adding or modifying a NOT NULL AUTO_INCREMENT column the server writes an anonymous "
    "PL/pgSQL block (`DECLARE ... END;`) that numbers the NULL rows through a temporary large "
    "sequence (jddl-shapes.md §5.3). ddlc classifies it (an AutoIncrementBackfill statement) and "
    "replays it as the server wrote it.",
)

_FOLLOWUP = "ALTER TABLE %{only}s %{identity}D %{subcmds:, }s"
_SET_NOT_NULL = "ALTER TABLE %{only}s %{identity}D ALTER COLUMN %{name}I SET NOT NULL"
_UPDATE = "UPDATE %{identity}D SET %{name}I = %{default}s WHERE %{name}I IS NULL"
_BLOCK_KEYS = {"typname", "identity", "colname", "seqname"}


@shape("alter-table-followup", r"ALTER TABLE %\{only\}s")
def build_alter_table_followup(o: Obj) -> Statement:
    from .alter import Unmodelled, opaque_statement, read_subcommands, word

    try:
        only = word(o, "only", "", "ONLY") == "ONLY"
    except Unmodelled as u:
        return opaque_statement(o, f"ALTER TABLE follow-up ({u.reason})")
    identity = o.qname("identity")
    kw = {"layout": o.fmt, "origin": o.path}
    if o.fmt == _FOLLOWUP:
        return AlterTableFollowup(AlterObjType.TABLE, identity, read_subcommands(o), only, **kw)
    if o.fmt == _SET_NOT_NULL:
        sub = SetNotNull(o.str("name"), origin=o.path)
        return AlterTableFollowup(AlterObjType.TABLE, identity, (sub,), only, **kw)
    return opaque_statement(o, "ALTER TABLE follow-up")


@shape("backfill-update", r"UPDATE ")
def build_backfill_update(o: Obj) -> Statement:
    from .alter import opaque_statement

    if o.fmt != _UPDATE:
        return opaque_statement(o, "UPDATE back-fill", "UPDATE")
    o.ctx.diag(I_BACKFILL_UPDATE, "UPDATE back-fill of an added column (DML carried as a DDL message)", ())
    return BackfillUpdate(o.qname("identity"), o.str("name"), o.expr("default"), layout=o.fmt, origin=o.path)


@shape("autoincrement-backfill", r"DECLARE")
def build_autoincrement_backfill(o: Obj) -> Statement:
    from .alter import opaque_statement, placeholders

    if placeholders(o.fmt) - _BLOCK_KEYS or "%{seqname}D" not in o.fmt:
        return opaque_statement(o, "DECLARE block", "DO")
    o.ctx.diag(I_BACKFILL_BLOCK, "AUTO_INCREMENT back-fill block (anonymous PL/pgSQL)", ())
    return AutoIncrementBackfill(o.str("typname"), o.qname("identity"), o.str("colname"), o.qname("seqname"),
                                 layout=o.fmt, origin=o.path)
