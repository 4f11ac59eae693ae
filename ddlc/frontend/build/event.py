"""Builders: CREATE/ALTER/DROP EVENT (reference §5.16) and NEWPUB (§5.17)."""

from __future__ import annotations

import re

from ...diagnostics import Severity, register
from ...ir.event import AlterEvent, CreateEvent, DropEvent, NewPub
from ...ir.statement import Statement
from ...quoting import ident_is_bare
from . import shape
from ._read import Obj
from .routine import Unrecognized, exact, keep_as_text, sub
from ... import lazyre

W_UNQUOTED = register(
    "DDLC-W401", Severity.WARNING, "Event name printed unquoted",
    "Event statements carry their schema and event names as raw strings that the server prints without "
    "quotes (reference §10 items 11 and 21). This name needs quotes (upper case, a keyword, special "
    "characters), so the server's own text names a different object or does not parse. ddlc prints it as "
    "the server does; review the statement.",
    '{"fmt": "DROP EVENT %{if_exists}s %{schema}s.%{eventname}s", "eventname": "Ev", ...}',
)
W_UNESCAPED = register(
    "DDLC-W402", Severity.WARNING, "Event comment not escaped",
    "The event comment is printed between quotes without escaping (reference §8). This comment contains "
    "a quote, so the server's text is broken; ddlc prints it as the server does.",
)
I_NEWPUB = register(
    "DDLC-I401", Severity.INFO, "NEWPUB notice, never executed",
    "`NEWPUB table schema.name` is logged by a cascading subscriber after it creates a replicated table, "
    "so that its own subscribers add the table to their subscription. It is not DDL: the apply side "
    "skips it. The GaussDB target prints it as the server expands it; other targets skip it.",
    '{"fmt": "NEWPUB %{objtype}s %{identity}D", "objtype": "table", "identity": {...}}',
)

_DEFINER = lazyre.compile(r"DEFINER = (?P<u>.*)\Z", re.S)
_NAME = r"%\{schema\}s\.%\{eventname\}s"
_CREATE = lazyre.compile(
    r"CREATE %\{definer_opt\}s EVENT %\{if_not_exits\}s " + _NAME + r" ON SCHEDULE "
    r"(?P<every>EVERY %\{every_interval\}s )?STARTS '%\{start_expr\}s'(?P<ends> ENDS '%\{end_expr\}s')? %\{event_body\}s\Z"
)
_BODY_FMT = "%{opt_ev_on_completion}s %{opt_ev_status}s COMMENT '%{comment_opt}s' DO %{ev_body}s"
_ALTER = lazyre.compile(
    r"ALTER %\{definer_opt\}s EVENT " + _NAME + r" "
    r"(?P<schedule>ON SCHEDULE (?P<every>EVERY %\{every_interval\}s )?(?:(?P<startkw>STARTS|AT) '%\{start_expr\}s' )?"
    r"(?P<ends>ENDS '%\{end_expr\}s' )?)?"
    r"(?:ON COMPLETION (?P<preserve>NOT PRESERVE|PRESERVE) )?(?P<rename>RENAME TO %\{new_name\}s )?"
    r"(?P<status>ENABLE |DISABLE ON SLAVE |DISABLE )?(?P<comment>COMMENT '%\{comment\}s' )?(?P<action>DO %\{action\}s )?\Z"
)


def _definer(o: Obj) -> str | None:
    v = o.str("definer_opt")
    if v == "":
        return None
    m = _DEFINER.match(v)
    if m is None:
        raise Unrecognized(f"definer_opt {v!r} is not 'DEFINER = user'", o.at("definer_opt"))
    return m.group("u")


def _names(o: Obj) -> tuple[str, str]:
    schema, name = o.str("schema"), o.str("eventname")
    for key, v in (("schema", schema), ("eventname", name)):
        if not ident_is_bare(v):
            o.ctx.diag(W_UNQUOTED, f"{key} {v!r} needs quotes but is printed unquoted", o.at(key))
    return schema, name


def _comment(o: Obj, key: str) -> str:
    v = o.str(key)
    if "'" in v:
        o.ctx.diag(W_UNESCAPED, "the comment contains a quote and is printed unescaped", o.at(key))
    return v


@shape("create_event", r"CREATE %\{definer_opt\}s EVENT ")
@keep_as_text("CREATE EVENT")
def build_create_event(o: Obj) -> Statement:
    m = _CREATE.match(o.fmt)
    if m is None:
        raise Unrecognized(f"unexpected fmt {o.fmt!r}", o.at("fmt"))
    b = sub(o, "event_body", _BODY_FMT)
    if b is None:
        raise Unrecognized("event_body not present", o.at("event_body"))
    definer = _definer(o)
    if_not_exists = exact(o, "if_not_exits", "", "IF NOT EXISTS") == "IF NOT EXISTS"
    on_completion = exact(b, "opt_ev_on_completion", "ON COMPLETION NOT PRESERVE", "ON COMPLETION PRESERVE")
    status = exact(b, "opt_ev_status", "", "DISABLE", "DISABLE ON SLAVE") or None
    schema, name = _names(o)  # warnings only once the tree is known to be well formed
    return CreateEvent(
        schema, name, o.str("start_expr"), b.str("ev_body"),
        every=o.str("every_interval") if m.group("every") else None,
        ends=o.str("end_expr") if m.group("ends") else None,
        definer=definer,
        if_not_exists=if_not_exists,
        on_completion=on_completion,
        status=status,
        comment=_comment(b, "comment_opt") or None,
        layout=o.fmt,
        origin=o.path,
    )


@shape("alter_event", r"ALTER %\{definer_opt\}s EVENT ")
@keep_as_text("ALTER EVENT")
def build_alter_event(o: Obj) -> Statement:
    m = _ALTER.match(o.fmt)
    if m is None:
        raise Unrecognized(f"unexpected fmt {o.fmt!r}", o.at("fmt"))
    if m.group("startkw") and (m.group("startkw") == "STARTS") != bool(m.group("every")):
        raise Unrecognized("STARTS/AT does not agree with EVERY", o.at("fmt"))
    definer = _definer(o)
    schema, name = _names(o)
    g = m.group
    return AlterEvent(
        schema, name,
        definer=definer,
        every=o.str("every_interval") if g("every") else None,
        starts=o.str("start_expr") if g("startkw") else None,
        ends=o.str("end_expr") if g("ends") else None,
        schedule=bool(g("schedule")),
        on_completion=f"ON COMPLETION {g('preserve')}" if g("preserve") else None,
        new_name=o.str("new_name") if g("rename") else None,
        status=g("status").strip() if g("status") else None,
        comment=_comment(o, "comment") if g("comment") else None,
        body=o.str("action") if g("action") else None,
        layout=o.fmt,
        origin=o.path,
    )


@shape("drop_event", r"DROP EVENT ")
@keep_as_text("DROP EVENT")
def build_drop_event(o: Obj) -> Statement:
    if o.fmt != "DROP EVENT %{if_exists}s %{schema}s.%{eventname}s":
        raise Unrecognized(f"unexpected fmt {o.fmt!r}", o.at("fmt"))
    if_exists = exact(o, "if_exists", "", "IF EXISTS") == "IF EXISTS"
    schema, name = _names(o)
    return DropEvent(schema, name, if_exists, layout=o.fmt, origin=o.path)


@shape("newpub", r"NEWPUB ")
@keep_as_text("NEWPUB")
def build_newpub(o: Obj) -> Statement:
    m = re.fullmatch(r"NEWPUB %\{(objtype|object_type)\}s %\{identity\}D", o.fmt)
    if m is None:
        raise Unrecognized(f"unexpected fmt {o.fmt!r}", o.at("fmt"))
    o.ctx.diag(I_NEWPUB, "NEWPUB is a cascading-replication notice, not DDL; subscribers never execute it", ())
    return NewPub(o.str(m.group(1)), o.qname("identity"), layout=o.fmt, origin=o.path)


__all__ = ["build_create_event", "build_alter_event", "build_drop_event", "build_newpub"]
