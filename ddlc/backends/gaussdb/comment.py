"""GaussDB emitters: COMMENT ON (both shapes) and the literal-or-null object."""

from __future__ import annotations

from typing import Any

from ...ir.comment import Comment
from ...ir.drop import PlainName
from .writer import Writer, emits
from .drop import fit, identity_text, render_qname, word

COMMENT_FMT = "COMMENT ON %{objtype}s %{identity}s IS %{comment}s"
CONSTRAINT_FMT = "COMMENT ON CONSTRAINT %{identity}s ON %{domain}s %{parentobj}s IS %{comment}s"


def literal_or_null(value: str | None) -> dict[str, Any]:
    """``append_literal_or_null``: ``NULL``, ``'text'``, or nothing at all for ``''``."""
    literal: dict[str, Any]
    if value is None:
        literal = {"fmt": "", "present": False}
    elif value == "":
        literal = {"fmt": "", "present": True}
    else:
        literal = {"fmt": "%{value}L", "value": value, "present": True}
    return {"fmt": "%{null}s %{literal}s", "null": {"fmt": "NULL", "present": value is None}, "literal": literal}


@emits(Comment)
def comment(n: Comment, w: Writer) -> dict[str, Any]:
    if not n.on_constraint:
        return fit(n.layout, COMMENT_FMT, {
            "objtype": n.objtype,
            "identity": identity_text(n.identity, n.identity_text),
            "comment": literal_or_null(n.comment),
        })
    name = n.identity_text
    if isinstance(n.identity, PlainName) and n.identity.name != name:
        name = n.identity.name  # the server writes the constraint name unquoted (%s)
    if name is None:
        raise ValueError("COMMENT ON CONSTRAINT without a constraint name")
    dword = n.domain_word
    if dword is None or (dword.strip().upper() == "DOMAIN") != n.domain:
        dword = word(n.domain, "DOMAIN")
    if n.parent_text is None:
        if n.parent is None:
            raise ValueError("COMMENT ON CONSTRAINT without a parent")
        parent = render_qname(n.parent)
    else:
        parent = n.parent_text
    return fit(n.layout, CONSTRAINT_FMT, {
        "identity": name,
        "domain": dword,
        "parentobj": parent,
        "comment": literal_or_null(n.comment),
    })
