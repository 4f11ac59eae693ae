"""Builders: COMMENT ON (reference §3.6, §5.12)."""

from __future__ import annotations

from ...diagnostics import Severity, register
from ...ir.comment import Comment
from ...ir.drop import IdentityKind, PlainName, kind_of_objtype
from ..sql.identity import parse_identity
from . import shape
from ._read import Obj
from .drop import N_IDENTITY, W_UNKNOWN_OBJTYPE, read_identity

W_EMPTY_COMMENT = register(
    "DDLC-W311", Severity.WARNING, "COMMENT ... IS '' written without a literal",
    "A comment set to the empty string (which removes the comment, like IS NULL) is written by the "
    "server as `IS` followed by nothing (reference §10.15), which is not valid SQL. The GaussDB target "
    "reproduces the text; the intent is `IS NULL`.",
    '"literal": {"fmt": "", "present": true}',
)
W_DOMAIN_WORD = register(
    "DDLC-W312", Severity.WARNING, "Unexpected word in COMMENT ON CONSTRAINT",
    'The `domain` member of COMMENT ON CONSTRAINT must be "" or "DOMAIN". Another value is kept as '
    "written for the GaussDB target and read as not-a-domain.",
    '{"domain": "TABLE"}',
)


def read_literal_or_null(o: Obj) -> str | None:
    """The §3.6 object: None for NULL, else the literal ('' for the empty-literal defect)."""
    d = o.d
    null, lit = d.get("null"), d.get("literal")
    if (null.__class__ is dict and lit.__class__ is dict and d.get("fmt") == "%{null}s %{literal}s"
            and null.get("fmt") == "NULL"):  # the server's two forms, read at once
        null_present, lit_present = null.get("present", True), lit.get("present", True)
        if null_present is True and lit_present is False:
            return None
        if null_present is False and lit_present is True:
            lit_fmt = lit.get("fmt")
            if lit_fmt == "%{value}L":
                value = lit.get("value")
                if value.__class__ is str:
                    return value
            elif lit_fmt == "":
                return ""
    return _read_literal_or_null(o)


def _read_literal_or_null(o: Obj) -> str | None:
    """:func:`read_literal_or_null` of any object (its errors)."""
    if o.fmt != "%{null}s %{literal}s":
        raise o.ctx.error('a literal-or-null object must have fmt "%{null}s %{literal}s"', o.at("fmt"))
    null = o.obj("null")
    lit = o.obj("literal")
    if null.fmt != "NULL":
        raise o.ctx.error('the "null" part must have fmt "NULL"', null.at("fmt"))
    for part in (null, lit):
        if not isinstance(part.d.get("present", True), bool):
            raise o.ctx.error('element "present" is not of type boolean', part.at("present"))
    if null.present and not lit.present:
        return None
    if not null.present and lit.present:
        if lit.fmt == "":
            return ""
        if lit.fmt == "%{value}L":
            return lit.str("value")
        raise o.ctx.error('the "literal" part must have fmt "%{value}L" or ""', lit.at("fmt"))
    raise o.ctx.error('exactly one of "null" and "literal" must be present', o.path)


def _comment(o: Obj) -> str | None:
    c = o.obj("comment")
    text = read_literal_or_null(c)
    if text == "":
        o.ctx.diag(W_EMPTY_COMMENT, "COMMENT ... IS '' is written as 'IS' with nothing after it", c.path)
    return text


@shape("comment_constraint", r"COMMENT\s+ON\s+CONSTRAINT\s+%\{identity\}s")
def build_comment_constraint(o: Obj) -> Comment:
    name = o.str("identity")
    domain_word = o.str("domain", "")
    domain = domain_word.strip().upper() == "DOMAIN"
    if domain_word not in ("", "DOMAIN"):
        o.ctx.diag(W_DOMAIN_WORD, f"domain word {domain_word!r} kept as written", o.at("domain"))
    parent_text = o.str("parentobj")
    parent = parse_identity(IdentityKind.TYPE if domain else IdentityKind.RELATION, parent_text, o.at("parentobj"))
    if parent is None:
        o.ctx.diag(N_IDENTITY, f"parent identity {parent_text!r} not parsed; kept as text", o.at("parentobj"))
    return Comment(
        objtype="CONSTRAINT",
        identity_text=name,
        identity=PlainName(name, origin=o.at("identity")),
        comment=_comment(o),
        on_constraint=True,
        domain=domain,
        parent_text=parent_text,
        parent=parent,  # type: ignore[arg-type]  # RELATION/TYPE parse to QualifiedName
        domain_word=domain_word,
        origin=o.path,
        layout=o.fmt,
    )


@shape("comment", r"COMMENT\s+ON\s+%\{(?:objtype|object_type)\}s")
def build_comment(o: Obj) -> Comment:
    objtype = o.str("objtype")
    kind = kind_of_objtype(objtype)
    if kind is None:
        o.ctx.diag(W_UNKNOWN_OBJTYPE, f"COMMENT ON {objtype} is not valid SQL (object kind unknown to the server)",
                   o.at("objtype"))
    text, ident = read_identity(o, "identity", kind)
    return Comment(
        objtype=objtype,
        identity_text=text,
        identity=ident,
        comment=_comment(o),
        origin=o.path,
        layout=o.fmt,
    )
