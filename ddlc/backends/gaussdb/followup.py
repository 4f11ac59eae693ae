"""GaussDB emitters: the ALTER TABLE follow-up messages (reference §5.3).

Their subcommands (SET DEFAULT, MODIFY COLUMN ... AUTO_INCREMENT, ADD CONSTRAINT) are written by the
ALTER emitters; the layout of each says which key spelling it uses.
"""

from __future__ import annotations

from typing import Any

from ...ir.alter_columns import SetNotNull
from ...ir.followup import AlterTableFollowup, AutoIncrementBackfill, BackfillUpdate
from ...jddl.formats import BACKFILL_BLOCK, BACKFILL_UPDATE
from .writer import Writer, emits

FOLLOWUP = "ALTER TABLE %{only}s %{identity}D %{subcmds:, }s"
SET_NOT_NULL = "ALTER TABLE %{only}s %{identity}D ALTER COLUMN %{name}I SET NOT NULL"
UPDATE = BACKFILL_UPDATE


@emits(AlterTableFollowup)
def alter_table_followup(n: AlterTableFollowup, w: Writer) -> dict[str, Any]:
    single_not_null = len(n.subcommands) == 1 and isinstance(n.subcommands[0], SetNotNull)
    d: dict[str, Any] = {"only": "ONLY" if n.only else "", "identity": w.qname(n.identity)}
    fmt = n.layout or (SET_NOT_NULL if single_not_null else FOLLOWUP)
    if fmt == SET_NOT_NULL and single_not_null:
        d["name"] = n.subcommands[0].column  # type: ignore[attr-defined]
    else:
        if fmt == SET_NOT_NULL:  # a pass changed the subcommands: use the general form
            fmt = FOLLOWUP
        d["subcmds"] = [w.tree(s) for s in n.subcommands]
    return {"fmt": fmt, **d}


@emits(BackfillUpdate)
def backfill_update(n: BackfillUpdate, w: Writer) -> dict[str, Any]:
    return {"fmt": n.layout or UPDATE, "name": n.column, "default": n.value.text, "identity": w.qname(n.identity)}


@emits(AutoIncrementBackfill)
def autoincrement_backfill(n: AutoIncrementBackfill, w: Writer) -> dict[str, Any]:
    return {"fmt": n.layout or BACKFILL_BLOCK, "colname": n.colname, "seqname": w.qname(n.seqname),
            "typname": n.typname, "identity": w.qname(n.identity)}
