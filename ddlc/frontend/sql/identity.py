"""Object identities (``getObjectIdentity`` texts of DROP, COMMENT and SET SCHEMA) -> IR nodes, once, at
build time.

An identity is pre-quoted by the server: ``public.orders``, ``"Sales"``,
``public.add1(integer,character varying)``, ``trg on public.orders``, ``public.orders.amount`` or
the defective table-constraint drop ``public.pk on public.t`` (see :mod:`ddlc.ir.drop` for the
nodes). Names, words and type modifiers are tokens of the SQL layer's lexer
(:class:`ddlc.frontend.sql.lexer.Cursor`); bare names are kept as written, quoted ones unescaped.
"""

from __future__ import annotations

import re

from ...errors import Path
from ...ir.drop import (
    ConstraintIdentity, FunctionSignature, Identity, IdentityKind, PlainName, SchemaName, TriggerIdentity,
)
from ...ir.names import QualifiedName, TypeName
from .lexer import Cursor, ScanFail


def _qname_parts(sc: Cursor, lo: int, hi: int) -> list[str]:
    parts = [sc.ident_token()[0]]
    while sc.eat("."):
        parts.append(sc.ident_token()[0])
    if not lo <= len(parts) <= hi:
        raise ScanFail("wrong number of name parts")
    return parts


def _qn(parts: list[str], origin: Path) -> QualifiedName:
    if len(parts) == 1:
        return QualifiedName(parts[0], origin=origin)
    return QualifiedName(parts[-1], parts[-2], origin=origin)


def _next_is_word(sc: Cursor) -> bool:
    t = sc.peek()
    return t is not None and t.kind == "word"


def _type(sc: Cursor, origin: Path) -> TypeName:
    """One ``format_type_be`` type: ``integer``, ``character varying(10)[]``, ``"char"``,
    ``public."MyType"``, ``timestamp(6) without time zone``."""
    start = sc.i
    name, quoted = sc.ident_token()
    schema: str | None
    if sc.eat("."):
        schema, name = name, sc.ident_token()[0]
        typmod_start = sc.i
        if sc.at("("):
            sc.balanced()
    elif quoted:
        schema = None
        typmod_start = sc.i
        if sc.at("("):
            sc.balanced()
    else:
        schema = ""  # SQL-standard spelling, written verbatim
        words_end = sc.i
        typmod_start = -1
        while True:
            save = sc.i
            if sc.at("("):
                if typmod_start < 0:
                    typmod_start = sc.i
                sc.balanced()
                continue
            if sc.blanks() and _next_is_word(sc):
                sc.ident_token()
                if typmod_start < 0:
                    words_end = sc.i
                continue
            sc.i = save
            break
        if typmod_start < 0:
            typmod_start = words_end = sc.i
        name = sc.s[start:words_end]
    typmod = sc.s[typmod_start:sc.i]
    array = sc.eat("[]")
    return TypeName(name, schema, typmod, array, origin=origin)


def _function(sc: Cursor, origin: Path) -> FunctionSignature:
    name = _qn(_qname_parts(sc, 1, 2), origin)
    sc.need("(")
    args: list[TypeName] = []
    star = False
    sc.blanks()
    if sc.eat("*"):
        star = True
        sc.blanks()
    elif not sc.at(")"):
        while True:
            args.append(_type(sc, origin))
            sc.blanks()
            if not sc.eat(","):
                break
            sc.blanks()
    sc.need(")")
    return FunctionSignature(name, tuple(args), star, origin=origin)


def _on(sc: Cursor) -> None:
    """`` on `` between a trigger or constraint name and its table."""
    if not sc.blanks():
        raise ScanFail("blank expected")
    name, quoted = sc.ident_token()
    if quoted or name.lower() != "on":
        raise ScanFail("on")
    if not sc.blanks():
        raise ScanFail("blank expected")


# bare ASCII names separated by dots, nothing else: each name is one word token of the lexer (the common
# identity: ``public.orders``), read without it
_PLAIN_NAMES = re.compile(r"[A-Za-z_][A-Za-z0-9_$]*(?:\.[A-Za-z_][A-Za-z0-9_$]*)*\Z")
_PARTS = {IdentityKind.RELATION: (1, 2), IdentityKind.TYPE: (1, 2), IdentityKind.COLUMN: (2, 3),
          IdentityKind.SCHEMA: (1, 1), IdentityKind.NAME: (1, 1)}


def parse_identity(kind: IdentityKind, text: str, origin: Path = ()) -> Identity | None:
    """Read an identity text as ``kind``; None when it is not of that form."""
    bounds = _PARTS.get(kind)
    if bounds is not None and _PLAIN_NAMES.match(text):
        parts = text.split(".")
        if not bounds[0] <= len(parts) <= bounds[1]:
            return None
        if kind is IdentityKind.COLUMN:
            return QualifiedName(parts[-2], parts[0] if len(parts) == 3 else None, parts[-1], origin=origin)
        if kind is IdentityKind.SCHEMA:
            return SchemaName(parts[0], origin=origin)
        if kind is IdentityKind.NAME:
            return PlainName(parts[0], origin=origin)
        return _qn(parts, origin)
    sc = Cursor(text)
    try:
        out: Identity
        if kind is IdentityKind.RELATION or kind is IdentityKind.TYPE:
            out = _qn(_qname_parts(sc, 1, 2), origin)
        elif kind is IdentityKind.COLUMN:
            parts = _qname_parts(sc, 2, 3)
            out = QualifiedName(parts[-2], parts[0] if len(parts) == 3 else None, parts[-1], origin=origin)
        elif kind is IdentityKind.SCHEMA:
            out = SchemaName(sc.ident_token()[0], origin=origin)
        elif kind is IdentityKind.NAME:
            out = PlainName(sc.ident_token()[0], origin=origin)
        elif kind is IdentityKind.FUNCTION:
            out = _function(sc, origin)
        elif kind is IdentityKind.TRIGGER:
            name = sc.ident_token()[0]
            _on(sc)
            out = TriggerIdentity(name, _qn(_qname_parts(sc, 1, 2), origin), origin=origin)
        else:  # CONSTRAINT
            parts = _qname_parts(sc, 1, 2)
            _on(sc)
            out = ConstraintIdentity(parts[-1], _qn(_qname_parts(sc, 1, 2), origin),
                                     parts[0] if len(parts) == 2 else None, origin=origin)
        if not sc.eof():
            return None
        return out
    except ScanFail:
        return None


__all__ = ["parse_identity"]
