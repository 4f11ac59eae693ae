"""Builders: DROP (reference §4.6, §5.4), plus helpers the identity-carrying families share."""

from __future__ import annotations

from ...diagnostics import Severity, register
from ...ir.drop import ConstraintIdentity, Drop, DropObjectType, Identity, IdentityKind
from ..sql.identity import parse_identity
from . import shape
from ._read import Obj

W_DROP_CONSTRAINT = register(
    "DDLC-W301", Severity.WARNING, "Table-constraint DROP emitted as an index drop",
    "When a table constraint is dropped (ALTER TABLE ... DROP CONSTRAINT, or as part of a DROP), the "
    "server writes it as `DROP index <schema>.<constraint> on <schema>.<table>`, which is not a "
    "meaningful statement (reference §10.18). ddlc reads the constraint and its table; the GaussDB "
    "target reproduces the text, which the database rejects. Replay the constraint change by hand or "
    "from the ALTER TABLE message that carried it.",
    '{"fmt": "DROP %{objtype}s ...", "objtype": "index", "objidentity": "public.pk on public.t", ...}',
)
N_IDENTITY = register(
    "DDLC-N301", Severity.NOTE, "Object identity not parsed",
    "The pre-quoted object identity (DROP `objidentity`, COMMENT or SET SCHEMA `identity`, COMMENT ON "
    "CONSTRAINT `parentobj`) does not have the form its object type implies (for example a function "
    "without an argument list). It is kept as text: the GaussDB target prints it unchanged, but passes "
    "cannot qualify or map the names inside it.",
    '{"objtype": "function", "objidentity": "public.add1"}',
)
N_DROP_KIND = register(
    "DDLC-N302", Severity.NOTE, "DROP of an unmodelled object type",
    "The DROP message names an object type outside the ones the server emits (table, index, type, "
    "schema, sequence, view, function, trigger, large sequence). The statement is kept with its identity "
    "as text.",
    '{"objtype": "procedure", "objidentity": "public.p(integer)"}',
)

W_UNKNOWN_OBJTYPE = register(
    "DDLC-W310", Severity.WARNING, "COMMENT / SET SCHEMA on an object type the server writes as ???",
    "The server maps only a few object kinds to words (COLUMN, DOMAIN, FUNCTION, INDEX, SCHEMA, SEQUENCE, "
    "LARGE SEQUENCE, TABLE, TABLESPACE, TRIGGER, TYPE, VIEW); every other kind (materialized view, "
    "aggregate, database, role, operator...) is written as `???` (reference §10.16). The statement is "
    "not valid SQL and cannot be replayed; the GaussDB target reproduces the text.",
    '{"fmt": "COMMENT ON %{objtype}s %{identity}s IS %{comment}s", "objtype": "???", ...}',
)


def keyword(o: Obj, name: str, word: str) -> bool:
    """A fixed keyword member: ``""`` (False) or exactly ``word`` (True); absent counts as ``""``."""
    v = o.d.get(name)
    if v.__class__ is str:  # the common case, read at once (a keyword member has one spelling)
        if v == "":
            return False
        if v == word:
            return True
    v = o.raw(name, "")
    if isinstance(v, dict) and v.get("present", True) is False:
        v = ""  # prints nothing
    if not isinstance(v, str):
        raise o.ctx.error(f'element "{name}" must be a string', o.at(name))
    if v == "":
        return False
    if v == word:
        return True
    raise o.ctx.error(f'element "{name}" must be "" or "{word}", not {v!r}', o.at(name))


def read_identity(o: Obj, name: str, kind: IdentityKind | None) -> tuple[str, Identity | None]:
    """The identity text of member ``name`` and its parse (None + a note when it does not parse)."""
    text = o.str(name)
    if kind is None:
        return text, None
    ident = parse_identity(kind, text, o.at(name))
    if ident is None:
        o.ctx.diag(N_IDENTITY, f"{kind.value} identity {text!r} not parsed; kept as text", o.at(name))
    return text, ident


# an object type word as written -> its DropObjectType and the identity kind it reads (a stream repeats a few)
_OBJTYPES: dict[str, tuple[DropObjectType, IdentityKind | None]] = {}
_INDEX = DropObjectType.INDEX
_CONSTRAINT = IdentityKind.CONSTRAINT


def _objtype(text: str) -> tuple[DropObjectType, IdentityKind | None]:
    hit = _OBJTYPES.get(text)
    if hit is None:
        objtype = DropObjectType.of(text)
        hit = objtype, objtype.identity_kind
        if len(_OBJTYPES) < 256:
            _OBJTYPES[text] = hit
    return hit


@shape("drop", r"DROP %\{(?:objtype|object_type)\}s ")
def build_drop(o: Obj) -> Drop:
    objtype_text = o.str("objtype")
    objtype, kind = _objtype(objtype_text)
    text = o.str("objidentity")
    path = o.at("objidentity")
    ident: Identity | None = None
    if kind is None:
        o.ctx.diag(N_DROP_KIND, f"DROP of object type {objtype_text!r} not modelled; identity kept as text",
                   o.at("objtype"))
    else:
        ident = parse_identity(kind, text, path)
        if ident is None and objtype is _INDEX:
            ident = parse_identity(_CONSTRAINT, text, path)
        if ident is None:
            o.ctx.diag(N_IDENTITY, f"{kind.value} identity {text!r} not parsed; kept as text", path)
        elif isinstance(ident, ConstraintIdentity):
            o.ctx.diag(W_DROP_CONSTRAINT,
                       f"'DROP index {text}' is the server's rendering of a table-constraint drop, "
                       "not a meaningful statement", path)
    return Drop(
        objtype=objtype,
        objtype_text=objtype_text,
        identity_text=text,
        identity=ident,
        concurrently=keyword(o, "concurrently", "CONCURRENTLY"),
        if_exists=keyword(o, "if_exists", "IF EXISTS"),
        cascade=keyword(o, "cascade", "CASCADE"),
        origin=o.path,
        layout=o.fmt,
    )
