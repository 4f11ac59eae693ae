"""GaussDB emitters: CREATE/ALTER/DROP EVENT (§5.16) and NEWPUB (§5.17).

NEWPUB is printed as the server expands it (lossless); it is a notice, not DDL (see
:class:`~ddlc.ir.event.NewPub`): a consumer that executes GaussDB output must skip it, as the
server's apply worker does.
"""

from __future__ import annotations

from typing import Any

from ...ir.event import AlterEvent, CreateEvent, DropEvent, NewPub
from .writer import Writer, emits


def _definer(d: str | None) -> str:
    return "" if d is None else f"DEFINER = {d}"


@emits(CreateEvent)
def create_event(n: CreateEvent, w: Writer) -> dict[str, Any]:
    fmt = "CREATE %{definer_opt}s EVENT %{if_not_exits}s %{schema}s.%{eventname}s ON SCHEDULE "
    if n.every is not None:
        fmt += "EVERY %{every_interval}s "
    fmt += "STARTS '%{start_expr}s'"
    if n.ends is not None:
        fmt += " ENDS '%{end_expr}s'"
    fmt += " %{event_body}s"
    d: dict[str, Any] = {
        "fmt": n.layout or fmt,
        "definer_opt": _definer(n.definer),
        "if_not_exits": "IF NOT EXISTS" if n.if_not_exists else "",
        "schema": n.schema,
        "eventname": n.name,
        "start_expr": n.starts,
        "event_body": {
            "fmt": "%{opt_ev_on_completion}s %{opt_ev_status}s COMMENT '%{comment_opt}s' DO %{ev_body}s",
            "opt_ev_on_completion": n.on_completion,
            "opt_ev_status": n.status or "",
            "comment_opt": n.comment or "",
            "ev_body": n.body,
        },
    }
    if n.every is not None:
        d["every_interval"] = n.every
    if n.ends is not None:
        d["end_expr"] = n.ends
    return d


@emits(AlterEvent)
def alter_event(n: AlterEvent, w: Writer) -> dict[str, Any]:
    fmt = "ALTER %{definer_opt}s EVENT %{schema}s.%{eventname}s "
    d: dict[str, Any] = {"definer_opt": _definer(n.definer), "schema": n.schema, "eventname": n.name}
    if n.schedule or n.every is not None or n.starts is not None or n.ends is not None:
        fmt += "ON SCHEDULE "
    if n.every is not None:
        fmt += "EVERY %{every_interval}s "
        d["every_interval"] = n.every
    if n.starts is not None:
        fmt += ("STARTS" if n.every is not None else "AT") + " '%{start_expr}s' "
        d["start_expr"] = n.starts
    if n.ends is not None:
        fmt += "ENDS '%{end_expr}s' "
        d["end_expr"] = n.ends
    if n.on_completion is not None:
        fmt += n.on_completion + " "
    if n.new_name is not None:
        fmt += "RENAME TO %{new_name}s "
        d["new_name"] = n.new_name
    if n.status is not None:
        fmt += n.status + " "
    if n.comment is not None:
        fmt += "COMMENT '%{comment}s' "
        d["comment"] = n.comment
    if n.body is not None:
        fmt += "DO %{action}s "
        d["action"] = n.body
    return {"fmt": n.layout or fmt, **d}


@emits(DropEvent)
def drop_event(n: DropEvent, w: Writer) -> dict[str, Any]:
    return {"fmt": n.layout or "DROP EVENT %{if_exists}s %{schema}s.%{eventname}s",
            "if_exists": "IF EXISTS" if n.if_exists else "", "schema": n.schema, "eventname": n.name}


@emits(NewPub)
def newpub(n: NewPub, w: Writer) -> dict[str, Any]:
    key = "object_type" if n.layout is not None and "%{object_type}" in n.layout else "objtype"
    return {"fmt": n.layout or "NEWPUB %{objtype}s %{identity}D", key: n.objtype, "identity": w.qname(n.identity)}
