"""GaussDB emitters: CREATE TRIGGER (§5.10)."""

from __future__ import annotations

from typing import Any

from ...ir.trigger import CreateTrigger, TriggerEvent, TriggerEventKind, TriggerFunction
from .writer import Writer, emits


def default_fmt(n: CreateTrigger) -> str:
    fmt = ("CREATE %{definer}s %{constraint}s TRIGGER %{if_not_exists}s %{name}I %{time}s %{events: OR }s "
           "ON %{relation}D %{from_table}s")
    if n.constraint_attrs is not None:
        fmt += " %{constraint_attrs: }s"
    fmt += " FOR EACH %{for_each}s %{when}s"
    if n.function is not None:
        fmt += " EXECUTE PROCEDURE %{function}s"
    return fmt + " %{bodysrc}s"


def _event(e: TriggerEvent) -> Any:
    if e.kind is TriggerEventKind.UPDATE and e.columns:
        return {"fmt": e.layout or "UPDATE OF %{columns:, }I", "kind": "update_of", "columns": list(e.columns)}
    return e.kind.value


@emits(TriggerFunction)
def trigger_function(n: TriggerFunction, w: Writer) -> dict[str, Any]:
    fmt = n.layout or ("%{funcname}D ( %{args:, }L )" if n.args else "%{funcname}D ( )")
    d: dict[str, Any] = {"fmt": fmt, "funcname": w.qname(n.name)}
    if "%{args" in fmt:
        d["args"] = list(n.args)
    return d


@emits(CreateTrigger)
def create_trigger(n: CreateTrigger, w: Writer) -> dict[str, Any]:
    d: dict[str, Any] = {
        "fmt": n.layout or default_fmt(n),
        "name": n.name,
        "time": n.timing.value,
        "events": [_event(e) for e in n.events],
        "definer": ({"fmt": "DEFINER =%{definer}s", "definer": n.definer} if n.definer is not None
                    else w.absent("DEFINER =%{definer}s")),
        "relation": w.qname(n.relation),
        "for_each": n.for_each.value,
        "constraint": "CONSTRAINT" if n.constraint else "",
        "if_not_exists": "IF NOT EXISTS" if n.if_not_exists else "",
        "from_table": ({"fmt": "FROM %{relation}D", "relation": w.qname(n.from_table)} if n.from_table is not None
                       else w.absent("FROM %{relation}D")),
        "when": ({"fmt": "WHEN (%{clause}s)", "clause": w.text(n.when)} if n.when is not None
                 else w.absent("WHEN %{clause}s")),
        "bodysrc": ({"fmt": "%{bodysrc}s", "bodysrc": n.body} if n.body is not None else w.absent("")),
    }
    a = n.constraint_attrs
    if a is not None:
        d["constraint_attrs"] = (([] if a.deferrable else ["NOT"]) + ["DEFERRABLE INITIALLY"]
                                 + ["DEFERRED" if a.initially_deferred else "IMMEDIATE"])
    if n.function is not None:
        d["function"] = w.tree(n.function)
    return d
