"""GaussDB emitters: DROP, plus the helpers the identity-carrying families share.

* :func:`fit` puts a node's ``layout`` (the ``fmt`` it came with) on the emitted object when that
  layout still fits the node — same words and placeholders apart from slots holding ``""`` — and
  renames keys to the spelling the layout uses (``object_identity`` ...); otherwise the default fmt.
* :func:`identity_text` writes an identity: the text as it came while it is there (byte-exact; a
  pass that changes the parsed identity clears it), else the structure rendered as
  ``getObjectIdentity`` does. Nothing here parses text.
"""

from __future__ import annotations

from typing import Any

from ...errors import InternalError
from ...jddl.keys import ALIASES
from ...ir.drop import (
    ConstraintIdentity, Drop, DropObjectType, FunctionSignature, Identity, PlainName, SchemaName,
    TriggerIdentity,
)
from ...ir.names import QualifiedName, TypeName
from ...quoting import quote_ident
from .writer import Writer, emits
from ... import lazyre

_CANON = {spelling: canon for canon, spellings in ALIASES.items() for spelling in spellings}
_TOKEN = lazyre.compile(r"%\{([^}:]*)(:[^}]*)?\}(.?)|%%|[^\s%]+|%")
_MISSING = object()


def _skeleton(fmt: str, d: dict[str, Any]) -> tuple[Any, ...] | None:
    out: list[Any] = []
    for m in _TOKEN.finditer(fmt):
        name = m.group(1)
        if name is None:
            out.append(m.group(0))
            continue
        key = _CANON.get(name, name)
        v = d.get(key, _MISSING)
        if v is _MISSING:
            return None
        if v == "":
            continue
        out.append((key, m.group(2), m.group(3)))
    return tuple(out)


def fit(layout: str | None, default: str, d: dict[str, Any]) -> dict[str, Any]:
    """``d`` with its ``fmt``: ``layout`` when it fits ``d``, else ``default``."""
    fmt = default
    if layout is not None and layout != default:
        sk = _skeleton(layout, d)
        if sk is not None and sk == _skeleton(default, d):
            fmt = layout
            for m in _TOKEN.finditer(layout):
                name = m.group(1)
                if name is not None and name not in d and _CANON.get(name) in d:
                    d[name] = d.pop(_CANON[name])
    return {"fmt": fmt, **d}


def word(flag: bool, w: str) -> str:
    return w if flag else ""


# ---- identities ---------------------------------------------------------------------------
def render_type(t: TypeName) -> str:
    if t.schema is None:
        text = quote_ident(t.name)
    elif t.schema == "":
        text = t.name
    else:
        text = quote_ident(t.schema) + "." + quote_ident(t.name)
    return text + t.typmod + ("[]" if t.array else "")


def render_qname(q: QualifiedName) -> str:
    return ".".join(quote_ident(p) for p in (q.schema, q.name, q.attr) if p is not None)


def render_identity(ident: Identity) -> str:
    """The text ``getObjectIdentity`` would print for ``ident``."""
    if isinstance(ident, QualifiedName):
        return render_qname(ident)
    if isinstance(ident, SchemaName | PlainName):
        return quote_ident(ident.name)
    if isinstance(ident, FunctionSignature):
        args = "*" if ident.star else ",".join(render_type(t) for t in ident.args)
        return f"{render_qname(ident.name)}({args})"
    if isinstance(ident, TriggerIdentity):
        return f"{quote_ident(ident.name)} on {render_qname(ident.table)}"
    if isinstance(ident, ConstraintIdentity):
        prefix = "" if ident.schema is None else ident.schema + "."
        return f"{prefix}{quote_ident(ident.name)} on {render_qname(ident.table)}"
    raise TypeError(f"not an identity: {type(ident).__name__}")


def identity_text(ident: Identity | None, text: str | None) -> str:
    """``text`` while it is there (the identity unchanged), else ``ident`` rendered."""
    if text is not None:
        return text
    if ident is None:
        raise InternalError("gaussdb: identity with neither text nor structure")
    return render_identity(ident)


# ---- DROP ---------------------------------------------------------------------------------
DROP_FMT = "DROP %{objtype}s %{concurrently}s %{if_exists}s %{objidentity}s %{cascade}s"


@emits(Drop)
def drop(n: Drop, w: Writer) -> dict[str, Any]:
    objtype = n.objtype_text
    if objtype is None or DropObjectType.of(objtype) is not n.objtype:
        if n.objtype is DropObjectType.OTHER:
            raise ValueError("Drop: objtype OTHER needs objtype_text")
        objtype = n.objtype.value
    return fit(n.layout, DROP_FMT, {
        "objtype": objtype,
        "concurrently": word(n.concurrently, "CONCURRENTLY"),
        "if_exists": word(n.if_exists, "IF EXISTS"),
        "objidentity": identity_text(n.identity, n.identity_text),
        "cascade": word(n.cascade, "CASCADE"),
    })
