"""GaussDB emitters: column subcommands of ALTER (reference §5.2) and MODIFY COLUMN ... AUTO_INCREMENT
of the follow-up messages (§5.3)."""

from __future__ import annotations

from typing import Any

from ...ir.alter_columns import (
    AddColumn, AlterColumnType, ChangeColumn, ColumnKind, DropColumn, DropDefault, DropNotNull, ModifyColumn,
    ResetColumnOptions, SetColumnOptions, SetDefault, SetNotNull, SetStatistics, SetStorage,
)
from ...ir.columns import ColumnDef, GeneratedKind
from ...ir.followup import ModifyColumnAutoIncrement
from ...ir.names import Expr, QualifiedName
from .writer import Writer, emits
from ._columns import column_tree
from ._common import obj, word

_GENERATED = {GeneratedKind.STORED: "GENERATED ALWAYS AS (%{generation_expr}s) STORED",
              GeneratedKind.PERSISTED: "AS (%{generation_expr}s) PERSISTED"}


def collation_clause(c: QualifiedName | None, w: Writer) -> dict[str, Any]:
    if c is None:
        return w.absent("COLLATE %{name}D")
    return {"fmt": "COLLATE %{name}D", "name": w.qname(c)}


def cascade_clause(on: bool) -> dict[str, Any]:
    return {"fmt": "CASCADE", "present": on}


def alter_column_fmt(c: ColumnDef) -> str:
    """The deparser's fmt for an ADD COLUMN definition (``deparse_ColumnDef`` with ``is_alter``): no
    NOT NULL, and nothing after the collation for AUTO_INCREMENT columns."""
    if c.auto_increment:
        return "%{name}I %{coltype}T %{collation}s"
    on_update = " ON UPDATE %{on_update}s" if c.on_update is not None else ""
    return "%{name}I %{coltype}T %{collation}s %{default}s" + on_update + " %{generated_column}s"


@emits(AddColumn)
def add_column(n: AddColumn, w: Writer) -> dict[str, Any]:
    default = "ADD %{objtype}s %{if_not_exists}s %{definition}s %{cascade}s"
    definition = column_tree(n.column, w)
    if n.column.layout is None:
        definition["fmt"] = alter_column_fmt(n.column)
    d = obj(n, default, "add column", objtype=n.kind.value, if_not_exists=word(n.if_not_exists, "IF NOT EXISTS"),
            definition=definition, cascade=word(n.cascade, "CASCADE"))
    if n.first:
        d["add_first"] = {"fmt": "FIRST"}
        d["fmt"] = n.layout or default + " %{add_first}s"
    elif n.after is not None:
        d["add_after_name"] = {"fmt": "AFTER %{name}I", "name": n.after}
        d["fmt"] = n.layout or default + " %{add_after_name}s"
    return d


@emits(DropColumn)
def drop_column(n: DropColumn, w: Writer) -> dict[str, Any]:
    return obj(n, "DROP %{objtype}s %{if_exists}s %{column}I %{cascade}s", "drop column", objtype=n.kind.value,
               if_exists=word(n.if_exists, "IF EXISTS"), column=n.column, cascade=cascade_clause(n.cascade))


@emits(AlterColumnType)
def alter_column_type(n: AlterColumnType, w: Writer) -> dict[str, Any]:
    tail = " %{cascade}s" if n.kind is ColumnKind.ATTRIBUTE else " %{using}s"
    using = ({"fmt": "USING %{expression}s", "expression": n.using.text} if n.using is not None
             else w.absent("USING %{expression}s"))
    return obj(n, "ALTER %{objtype}s %{column}I SET DATA TYPE %{datatype}T %{collation}s" + tail,
               "alter column type", objtype=n.kind.value, column=n.column, datatype=w.type(n.type),
               collation=collation_clause(n.collation, w), using=using, cascade=cascade_clause(n.cascade))


@emits(SetDefault)
def set_default(n: SetDefault, w: Writer) -> dict[str, Any]:
    if n.layout is not None and "%{name}I" in n.layout:  # the follow-up form (§5.3): no type
        return {"fmt": n.layout, "name": n.column, "default": n.default.text if n.default else ""}
    if n.default is None:
        return obj(n, "ALTER COLUMN %{column}I SET DEFAULT", "set default", column=n.column)
    return obj(n, "ALTER COLUMN %{column}I SET DEFAULT %{definition}s", "set default", column=n.column,
               definition=n.default.text)


@emits(DropDefault, SetNotNull, DropNotNull)
def column_only(n: DropDefault | SetNotNull | DropNotNull, w: Writer) -> dict[str, Any]:
    words = {DropDefault: "DROP DEFAULT", SetNotNull: "SET NOT NULL", DropNotNull: "DROP NOT NULL"}[type(n)]
    return obj(n, f"ALTER COLUMN %{{column}}I {words}", words.lower(), column=n.column)


@emits(SetStatistics)
def set_statistics(n: SetStatistics, w: Writer) -> dict[str, Any]:
    default = ("ALTER COLUMN %{column}n SET STATISTICS PERCENT %{statistics}n" if n.percent
               else "ALTER COLUMN %{column}I SET STATISTICS %{statistics}n")
    return obj(n, default, "set statistics", column=n.column, statistics=n.value)


@emits(SetColumnOptions, ResetColumnOptions)
def column_options(n: SetColumnOptions | ResetColumnOptions, w: Writer) -> dict[str, Any]:
    return obj(n, "ALTER COLUMN %{column}I %{option}s (%{options:, }s)", None, column=n.column,
               option="RESET" if isinstance(n, ResetColumnOptions) else "SET",
               options=[w.tree(o) for o in n.options])


@emits(SetStorage)
def set_storage(n: SetStorage, w: Writer) -> dict[str, Any]:
    return obj(n, "ALTER COLUMN %{column}I SET STORAGE %{storage}s", "set storage", column=n.column,
               storage=n.storage.value)


def _redefinition(n: ModifyColumn | ChangeColumn, w: Writer, head: str, d: dict[str, Any]) -> dict[str, Any]:
    """The parts MODIFY and CHANGE share, in ``deparse_ColumnDef_constraints`` order."""
    parts = [head, "%{datatype}T"]
    d["datatype"] = w.type(n.type)
    if n.charset is not None:
        parts.append("CHARACTER SET %{charset}s")
        d["charset"] = n.charset
    if n.on_update is not None:
        parts.append("ON UPDATE %{on_update}s")
        d["on_update"] = n.on_update.text
    if n.nullability is not None:
        parts.append("%{not_null}s")
        d["not_null"] = n.nullability.value
    if not n.auto_increment:
        parts += ["%{generated_column}s", "%{default}s"]
        gen = _GENERATED[n.generated_kind]
        d["generated_column"] = (_expr_clause(gen, "generation_expr", n.generated) if n.generated is not None
                                 else w.absent(_GENERATED[GeneratedKind.STORED]))
        d["default"] = (_expr_clause("DEFAULT %{default}s", "default", n.default) if n.default is not None
                        else w.absent("DEFAULT %{default}s"))
    if n.collation is not None:
        parts.append("COLLATE %{name}D")
        d["name"] = w.qname(n.collation)
    if n.first:
        parts.append("FIRST")
    elif n.after is not None:
        parts.append("AFTER %{col}I")
        d["col"] = n.after
    d["fmt"] = n.layout or " ".join(parts)
    return d


def _expr_clause(fmt: str, key: str, e: Expr) -> dict[str, Any]:
    return {"fmt": fmt, key: e.text}


@emits(ModifyColumn)
def modify_column(n: ModifyColumn, w: Writer) -> dict[str, Any]:
    return _redefinition(n, w, "MODIFY COLUMN %{column}I", {"type": "modify column", "column": n.column})


@emits(ChangeColumn)
def change_column(n: ChangeColumn, w: Writer) -> dict[str, Any]:
    return _redefinition(n, w, "CHANGE %{ori_column}I %{column}I",
                         {"type": "change coulumn", "column": n.column, "ori_column": n.old_column})


@emits(ModifyColumnAutoIncrement)
def modify_column_auto_increment(n: ModifyColumnAutoIncrement, w: Writer) -> dict[str, Any]:
    default = "MODIFY COLUMN %{colname}I %{coltype}T AUTO_INCREMENT" + (" NULL" if n.null else "")
    return obj(n, default, None, colname=n.column, coltype=w.type(n.type))
