"""Builders: CREATE SEQUENCE and ALTER SEQUENCE (reference §3.7, §5.6)."""

from __future__ import annotations


from ...ir.sequence import AlterSequence, CreateSequence, Persistence, SeqClause, SeqOption
from . import shape
from ._read import Obj, member, read_qname
from .drop import keyword
from ... import lazyre

_TAGS = {
    "cache": SeqClause.CACHE,
    "cycle": SeqClause.CYCLE,
    "seqincrement": SeqClause.INCREMENT,
    "increment": SeqClause.INCREMENT,
    "minvalue": SeqClause.MINVALUE,
    "maxvalue": SeqClause.MAXVALUE,
    "start": SeqClause.START,
    "restart": SeqClause.RESTART,
    "owned": SeqClause.OWNED,
    "order": SeqClause.ORDER,
    "as": SeqClause.AS,
}
_VALUED = frozenset({SeqClause.CACHE, SeqClause.INCREMENT, SeqClause.MINVALUE, SeqClause.MAXVALUE,
                     SeqClause.START, SeqClause.RESTART})
_DECIMAL = lazyre.compile(r"-?[0-9]+\Z")
# the clauses of a value, by their tags (a str's hash: a SeqClause member's is a Python call, Enum.__hash__)
_VALUED_TAGS = frozenset(tag for tag, clause in _TAGS.items() if clause in _VALUED)
_AS = lazyre.compile(r"\s*AS\s")


def persistence(o: Obj) -> Persistence:
    v = o.str("persistence", "")
    try:
        return member(Persistence, v)
    except ValueError:
        words = ", ".join(repr(p.value) for p in Persistence)
        raise o.ctx.error(f'element "persistence" must be one of {words}, not {v!r}', o.at("persistence")) from None


def _option(o: Obj) -> SeqOption:
    tag = o.raw("clause", None)
    if tag is None:
        if not _AS.match(o.fmt):
            raise o.ctx.error('sequence option without "clause" (only the AS element has none)', o.path)
        clause = SeqClause.AS
    else:
        if not isinstance(tag, str) or tag not in _TAGS:
            raise o.ctx.error(f"unknown sequence option clause {tag!r}", o.at("clause"))
        clause = _TAGS[tag]
    value: str | None = None
    no = False
    owner = type_ = None
    if clause in _VALUED:
        value = o.str("value")
        if not _DECIMAL.match(value):
            raise o.ctx.error(f"sequence option value {value!r} is not a decimal integer", o.at("value"))
        if len(value.lstrip("-").lstrip("0")) > 39:  # past a LARGE SEQUENCE's int16: no catalog value, no int built
            raise o.ctx.error(f"sequence option value {value[:40]!r}... ({len(value)} characters) is out of range "
                              "for type int16", o.at("value"))
    elif clause is SeqClause.CYCLE:
        no = keyword(o, "no", "NO")
    elif clause is SeqClause.ORDER:
        v = o.str("order")
        if v not in ("ORDER", "NOORDER"):
            raise o.ctx.error(f'element "order" must be "ORDER" or "NOORDER", not {v!r}', o.at("order"))
        no = v == "NOORDER"
    elif clause is SeqClause.OWNED:
        if o.present:
            owner = o.qname("owner")
        elif o.raw("owner", None) is not None:
            raise o.ctx.error('a not-present OWNED BY element must have "owner": null', o.at("owner"))
    else:
        type_ = o.qname("identity")
    return SeqOption(clause, value, no, owner, type_, origin=o.path, layout=o.fmt)


def _options(o: Obj) -> tuple[SeqOption, ...]:
    raw = o.raw("definition")
    if not isinstance(raw, list):
        raise o.ctx.error('element "definition" must be an array', o.at("definition"))
    out = []
    base = o.at("definition")
    for i, e in enumerate(raw):
        if not isinstance(e, dict):
            raise o.ctx.error("sequence options must be objects", base + (i,))
        tag = e.get("clause")
        if tag.__class__ is str and tag in _VALUED_TAGS and e.get("present", True) is not False:
            # the common option, read here as _option reads it: a clause of a decimal value
            value = e.get("value")
            if value.__class__ is str:
                digits = value[1:] if value[:1] == "-" else value
                if digits.isdigit() and digits.isascii() and len(digits.lstrip("0")) <= 39:  # (_DECIMAL's texts)
                    f = e.get("fmt")
                    out.append(SeqOption(_TAGS[tag], value, False, None, None, origin=base + (i,),
                                         layout=f if isinstance(f, str) else ""))
                    continue
        el = Obj(e, base + (i,), o.ctx)
        if not el.present and e.get("clause") != "owned":
            raise o.ctx.error("only the OWNED BY element may be not present", el.path)
        out.append(_option(el))
    return tuple(out)


@shape("create_sequence", r"CREATE %\{persistence\}s %\{large\}s SEQUENCE ")
def build_create_sequence(o: Obj) -> CreateSequence:
    return CreateSequence(
        identity=read_qname(o.obj("identity")),
        options=_options(o),
        persistence=persistence(o),
        large=keyword(o, "large", "LARGE"),
        origin=o.path,
        layout=o.fmt,
    )


@shape("alter_sequence", r"ALTER %\{large\}s SEQUENCE ")
def build_alter_sequence(o: Obj) -> AlterSequence:
    return AlterSequence(
        identity=read_qname(o.obj("identity")),
        options=_options(o),
        large=keyword(o, "large", "LARGE"),
        origin=o.path,
        layout=o.fmt,
    )
