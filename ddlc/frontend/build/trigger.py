"""Builders: CREATE TRIGGER (reference §5.10)."""

from __future__ import annotations


from ...ir.statement import Statement
from ...ir.trigger import (
    CreateTrigger, TriggerConstraintAttrs, TriggerEvent, TriggerEventKind, TriggerFunction, TriggerLevel,
    TriggerTiming,
)
from . import shape
from ._read import Obj, member
from .routine import Unrecognized, exact, keep_as_text, sub
from ... import lazyre

_FMT = lazyre.compile(
    r"CREATE %\{definer\}s %\{constraint\}s TRIGGER %\{if_not_exists\}s %\{name\}I %\{time\}s "
    r"%\{events: OR \}s ON %\{relation\}D %\{from_table\}s(?P<attrs> %\{constraint_attrs: \}s)? "
    r"FOR EACH %\{for_each\}s %\{when\}s(?P<function> EXECUTE PROCEDURE %\{function\}s)? %\{bodysrc\}s\Z"
)
_ATTRS = {
    ("NOT", "DEFERRABLE INITIALLY", "IMMEDIATE"): TriggerConstraintAttrs(False, False),
    ("NOT", "DEFERRABLE INITIALLY", "DEFERRED"): TriggerConstraintAttrs(False, True),
    ("DEFERRABLE INITIALLY", "IMMEDIATE"): TriggerConstraintAttrs(True, False),
    ("DEFERRABLE INITIALLY", "DEFERRED"): TriggerConstraintAttrs(True, True),
}
FUNCTION_FMTS = ("%{funcname}D ( %{args:, }L )", "%{funcname}D ( )")
_TIMINGS = tuple(t.value for t in TriggerTiming)  # (the enum's values once, not per document)
# an event word -> its member: the names that are their member's value (what ``in __members__`` and then
# ``member(TriggerEventKind, e)`` give for them, without the mapping proxy and the call)
_EVENT_KINDS = {name: m for name, m in TriggerEventKind.__members__.items() if m.value == name}


def _events(o: Obj) -> tuple[TriggerEvent, ...]:
    raw = o.raw("events")
    if not isinstance(raw, list) or not raw:
        raise Unrecognized("events is not a non-empty array", o.at("events"))
    out = []
    base = o.at("events")
    for i, e in enumerate(raw):
        path = base + (i,)
        if e.__class__ is str:  # the common event, its member found by one lookup
            kind = _EVENT_KINDS.get(e)
            if kind is not None:
                out.append(TriggerEvent(kind, origin=path))
                continue
        if isinstance(e, str):
            if e not in TriggerEventKind.__members__:
                raise Unrecognized(f"unknown trigger event {e!r}", path)
            out.append(TriggerEvent(member(TriggerEventKind, e), origin=path))
        elif isinstance(e, dict) and e.get("fmt") == "UPDATE OF %{columns:, }I" and e.get("present", True) is True:
            eo = Obj(e, path, o.ctx)
            cols = eo.strings("columns")
            out.append(TriggerEvent(TriggerEventKind.UPDATE, cols, layout=eo.fmt, origin=path))
        else:
            raise Unrecognized("unknown trigger event element", path)
    return tuple(out)


@shape("create_trigger", r"CREATE %\{definer\}s %\{constraint\}s TRIGGER ")
@keep_as_text("CREATE TRIGGER")
def build_create_trigger(o: Obj) -> Statement:
    m = _FMT.match(o.fmt)
    if m is None:
        raise Unrecognized(f"unexpected fmt {o.fmt!r}", o.at("fmt"))
    d = sub(o, "definer", "DEFINER =%{definer}s")
    frm = sub(o, "from_table", "FROM %{relation}D")
    when = sub(o, "when", "WHEN (%{clause}s)")
    body = sub(o, "bodysrc", "%{bodysrc}s")
    attrs = None
    if m.group("attrs"):
        words = o.strings("constraint_attrs")
        if words not in _ATTRS:
            raise Unrecognized(f"unknown constraint attributes {list(words)!r}", o.at("constraint_attrs"))
        attrs = _ATTRS[words]
    constraint = exact(o, "constraint", "", "CONSTRAINT") == "CONSTRAINT"
    timing = member(TriggerTiming, exact(o, "time", *_TIMINGS))
    level = member(TriggerLevel, exact(o, "for_each", "ROW", "STATEMENT"))
    # the two forms of the grammar (PostgreSQL's and openGauss's alike): only a constraint trigger has a FROM
    # table and constraint attributes, and it is AFTER ... FOR EACH ROW; a tree mixing them is no statement the
    # server writes, and neither target could run its text
    if not constraint and (frm is not None or attrs is not None):
        raise Unrecognized("FROM and constraint attributes without CONSTRAINT", o.at("constraint"))
    if constraint and (timing is not TriggerTiming.AFTER or level is not TriggerLevel.ROW):
        raise Unrecognized("a CONSTRAINT TRIGGER that is not AFTER ... FOR EACH ROW", o.at("constraint"))
    function = None
    if m.group("function"):
        fo = sub(o, "function", *FUNCTION_FMTS)
        if fo is None:
            raise Unrecognized("function not present", o.at("function"))
        args = fo.strings("args") if "%{args" in fo.fmt else ()
        function = TriggerFunction(fo.qname("funcname"), args, layout=fo.fmt, origin=fo.path)
    return CreateTrigger(
        o.str("name"),
        timing,
        _events(o),
        o.qname("relation"),
        for_each=level,
        definer=None if d is None else d.str("definer"),
        constraint=constraint,
        if_not_exists=exact(o, "if_not_exists", "", "IF NOT EXISTS") == "IF NOT EXISTS",
        from_table=None if frm is None else frm.qname("relation"),
        constraint_attrs=attrs,
        when=None if when is None else when.expr("clause"),
        function=function,
        body=None if body is None else body.str("bodysrc"),
        layout=o.fmt,
        origin=o.path,
    )


__all__ = ["build_create_trigger"]
