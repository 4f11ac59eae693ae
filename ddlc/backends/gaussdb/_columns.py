"""Writing column definitions back as JDDL (reference §3.3)."""

from __future__ import annotations

from typing import Any

from ...ir.columns import ColumnDef, GeneratedKind

_GEN = {GeneratedKind.STORED: "GENERATED ALWAYS AS (%{generation_expr}s) STORED",
        GeneratedKind.PERSISTED: "AS (%{generation_expr}s) PERSISTED"}


def default_column_fmt(c: ColumnDef) -> str:
    """The deparser's own fmt for a CREATE TABLE column with these clauses (§2 rule 2)."""
    parts = ["%{name}I %{coltype}T %{collation}s"]
    if c.auto_increment:
        parts.append("%{auto_increment}s")
    parts.append("%{default}s")
    if c.on_update is not None:
        parts.append("ON UPDATE %{on_update}s")
    if c.not_null:
        parts.append("%{not_null}s")
    parts.append("%{generated_column}s")
    return " ".join(parts)


def column_tree(c: ColumnDef, w: Any) -> dict[str, Any]:
    d: dict[str, Any] = {"fmt": c.layout if c.layout is not None else default_column_fmt(c),
                         "name": c.name, "type": "column"}
    if c.type is not None:
        d["coltype"] = d["column_type"] = w.type(c.type)
    else:
        d["coltype"] = {"typmod": "", "present": False, "typename": "", "schemaname": ""}
    if c.collation is not None:
        d["collation"] = {"fmt": "COLLATE %{name}D", "name": w.qname(c.collation)}
        d["collate"] = w.qname(c.collation)
    else:
        d["collation"] = w.absent("COLLATE %{name}D")
    d["auto_increment"] = "AUTO_INCREMENT" if c.auto_increment else ""
    d["default"] = ({"fmt": "DEFAULT %{default}s", "default": c.default.text} if c.default is not None
                    else w.absent("DEFAULT %{default}s"))
    d["on_update"] = c.on_update.text if c.on_update is not None else ""
    d["not_null"] = "NOT NULL" if c.not_null else ""
    gen_fmt = _GEN[c.generated_kind]
    d["generated_column"] = ({"fmt": gen_fmt, "generation_expr": c.generated.text}
                             if c.generated is not None else w.absent(gen_fmt))
    return d
