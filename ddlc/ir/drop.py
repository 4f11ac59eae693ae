"""DROP (reference §4.6, §5.4) and the object identities that DROP, COMMENT and SET SCHEMA carry.

An *object identity* is the server's ``getObjectIdentity`` text, pre-quoted: ``public.orders``,
``"Sales"``, ``public.add1(integer,character varying)``, ``trg on public.orders``,
``public.orders.amount`` (a column) or the defective table-constraint drop
``public.pk on public.t``. :func:`parse_identity` reads it for real (quoted identifiers with dots
and doubled quotes inside, SQL-standard multi-word type names) into the nodes below; the text itself
is kept too (``identity_text``, ``parent_text``), so GaussDB output stays byte-exact while passes
work on the structure: a pass that changes the parsed identity clears its text (None, see
:func:`ddlc.ir.base.source_text`) and the GaussDB target renders the identity then.
"""

from __future__ import annotations

import enum

from ..errors import Path
from ._scan import ScanFail, Scanner, word_char, word_start
from .base import Node, node, source_text, to_json
from .names import QualifiedName, TypeName
from .statement import Statement


# ---- identities ----------------------------------------------------------------------------
@node
class SchemaName(Node):
    """A schema named by an identity (``DROP SCHEMA "Sales"``, ``COMMENT ON SCHEMA s``)."""

    name: str


@node
class PlainName(Node):
    """An unqualified name of a global object (a tablespace) or a bare constraint name."""

    name: str


@node
class FunctionSignature(Node):
    """``schema.name(argtype,...)``: input argument types only; ``star`` for ``agg(*)``."""

    name: QualifiedName
    args: tuple[TypeName, ...] = ()
    star: bool = False


@node
class TriggerIdentity(Node):
    """``trg on schema.table``."""

    name: str
    table: QualifiedName


@node
class ConstraintIdentity(Node):
    """``[schema.]con on schema.table``: a table constraint (the defective DROP of §10.18)."""

    name: str
    table: QualifiedName
    schema: str | None = None  # the schema prefix the DROP message glues on (unquoted by the server)


Identity = QualifiedName | SchemaName | PlainName | FunctionSignature | TriggerIdentity | ConstraintIdentity


class IdentityKind(str, enum.Enum):
    """How an identity text is read (decided by the object type of the statement)."""

    RELATION = "relation"  # [schema.]name
    TYPE = "type"  # [schema.]name (format_type_be_qualified of a user type)
    COLUMN = "column"  # [schema.]table.column -> QualifiedName(attr=column)
    SCHEMA = "schema"
    NAME = "name"  # a global object's single name (tablespace)
    FUNCTION = "function"
    TRIGGER = "trigger"
    CONSTRAINT = "constraint"


# ---- DROP ----------------------------------------------------------------------------------
class DropObjectType(str, enum.Enum):
    TABLE = "table"
    INDEX = "index"
    TYPE = "type"
    SCHEMA = "schema"
    SEQUENCE = "sequence"
    VIEW = "view"
    FUNCTION = "function"
    TRIGGER = "trigger"
    LARGE_SEQUENCE = "large sequence"
    OTHER = "other"  # any other word: kept as written in ``objtype_text``

    @classmethod
    def of(cls, text: str) -> DropObjectType:
        word = " ".join(text.split()).lower()
        for m in cls:
            if m is not cls.OTHER and m.value == word:
                return m
        return cls.OTHER

    @property
    def identity_kind(self) -> IdentityKind | None:
        return _DROP_KINDS.get(self)


_DROP_KINDS = {
    DropObjectType.TABLE: IdentityKind.RELATION,
    DropObjectType.INDEX: IdentityKind.RELATION,
    DropObjectType.SEQUENCE: IdentityKind.RELATION,
    DropObjectType.LARGE_SEQUENCE: IdentityKind.RELATION,
    DropObjectType.VIEW: IdentityKind.RELATION,
    DropObjectType.TYPE: IdentityKind.TYPE,
    DropObjectType.SCHEMA: IdentityKind.SCHEMA,
    DropObjectType.FUNCTION: IdentityKind.FUNCTION,
    DropObjectType.TRIGGER: IdentityKind.TRIGGER,
}


@node
class Drop(Statement):
    """``DROP <objtype> [CONCURRENTLY] [IF EXISTS] <identity> [CASCADE]`` (one object per message).

    ``identity`` is None when the text could not be read (reported); a
    :class:`ConstraintIdentity` on an ``index`` drop is the server's table-constraint defect.
    """

    objtype: DropObjectType
    identity_text: str | None  # None once a pass changed ``identity``
    identity: Identity | None = None
    concurrently: bool = False
    if_exists: bool = False
    cascade: bool = False
    objtype_text: str | None = None  # the object type word as written (needed for OTHER)


# The identity texts of DROP, COMMENT and SET SCHEMA (classes of ir/comment.py, ir/rename.py) are the
# source of their parsed identities: a pass that changes the identity clears the text.
source_text("Drop", identity_text=("identity",))
source_text("Comment", identity_text=("identity",), parent_text=("parent",))
source_text("SetSchema", identity_text=("identity",))


# ---- the object-type words of COMMENT ON / SET SCHEMA (§5.12 mapping) --------------------------
COMMENT_KINDS: dict[str, IdentityKind] = {
    "COLUMN": IdentityKind.COLUMN,
    "DOMAIN": IdentityKind.TYPE,
    "FUNCTION": IdentityKind.FUNCTION,
    "INDEX": IdentityKind.RELATION,
    "SCHEMA": IdentityKind.SCHEMA,
    "SEQUENCE": IdentityKind.RELATION,
    "LARGE SEQUENCE": IdentityKind.RELATION,
    "TABLE": IdentityKind.RELATION,
    "TABLESPACE": IdentityKind.NAME,
    "TRIGGER": IdentityKind.TRIGGER,
    "TYPE": IdentityKind.TYPE,
    "VIEW": IdentityKind.RELATION,
}


def kind_of_objtype(objtype: str) -> IdentityKind | None:
    """The identity kind of a §5.12 object-type word (None for ``???`` and unknown words)."""
    return COMMENT_KINDS.get(" ".join(objtype.split()).upper())


# ---- identity text parser -------------------------------------------------------------------
class _Scan(Scanner):
    __slots__ = ()

    def ident(self) -> tuple[str, bool]:
        return self.ident_token()

    def qname(self, lo: int, hi: int) -> list[str]:
        parts = [self.ident()[0]]
        while self.at("."):
            self.i += 1
            parts.append(self.ident()[0])
        if not lo <= len(parts) <= hi:
            raise ScanFail("wrong number of name parts")
        return parts

    def word(self, w: str) -> None:
        name, quoted = self.ident()
        if quoted or name.lower() != w:
            raise ScanFail(w)

    def balanced(self) -> str:
        """``( ... )`` with nesting, quotes respected; returns the text including the parens."""
        s, start = self.s, self.i
        depth = 0
        i = start
        while i < len(s):
            c = s[i]
            if c in "'\"":
                k = s.find(c, i + 1)
                while k >= 0 and s.startswith(c, k + 1):
                    k = s.find(c, k + 2)
                if k < 0:
                    raise ScanFail("unterminated quote")
                i = k + 1
                continue
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
                if depth == 0:
                    self.i = i + 1
                    return s[start:i + 1]
            i += 1
        raise ScanFail("unbalanced parentheses")


def _qn(parts: list[str], origin: Path) -> QualifiedName:
    if len(parts) == 1:
        return QualifiedName(parts[0], origin=origin)
    return QualifiedName(parts[-1], parts[-2], origin=origin)


def _type(sc: _Scan, origin: Path) -> TypeName:
    """One ``format_type_be`` type: ``integer``, ``character varying(10)[]``, ``"char"``,
    ``public."MyType"``, ``timestamp(6) without time zone``."""
    start = sc.i
    name, quoted = sc.ident()
    schema: str | None
    if sc.at("."):
        sc.i += 1
        schema, name = name, sc.ident()[0]
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
            if sc.blanks() and not sc.eof() and word_start(sc.s[sc.i]):
                sc.ident()
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


def _function(sc: _Scan, origin: Path) -> FunctionSignature:
    name = _qn(sc.qname(1, 2), origin)
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


def _on(sc: _Scan) -> None:
    if not sc.blanks():
        raise ScanFail("blank expected")
    sc.word("on")
    if not sc.blanks():
        raise ScanFail("blank expected")


def parse_identity(kind: IdentityKind, text: str, origin: Path = ()) -> Identity | None:
    """Read an identity text as ``kind``; None when it is not of that form."""
    sc = _Scan(text)
    try:
        out: Identity
        if kind is IdentityKind.RELATION or kind is IdentityKind.TYPE:
            out = _qn(sc.qname(1, 2), origin)
        elif kind is IdentityKind.COLUMN:
            parts = sc.qname(2, 3)
            out = QualifiedName(parts[-2], parts[0] if len(parts) == 3 else None, parts[-1], origin=origin)
        elif kind is IdentityKind.SCHEMA:
            out = SchemaName(sc.ident()[0], origin=origin)
        elif kind is IdentityKind.NAME:
            out = PlainName(sc.ident()[0], origin=origin)
        elif kind is IdentityKind.FUNCTION:
            out = _function(sc, origin)
        elif kind is IdentityKind.TRIGGER:
            name = sc.ident()[0]
            _on(sc)
            out = TriggerIdentity(name, _qn(sc.qname(1, 2), origin), origin=origin)
        else:  # CONSTRAINT
            parts = sc.qname(1, 2)
            _on(sc)
            out = ConstraintIdentity(parts[-1], _qn(sc.qname(1, 2), origin),
                                     parts[0] if len(parts) == 2 else None, origin=origin)
        if not sc.eof():
            return None
        return out
    except ScanFail:
        return None


def same_identity(a: Identity | None, b: Identity | None) -> bool:
    """Structural equality, origins ignored."""
    return to_json(a) == to_json(b)


__all__ = [
    "SchemaName", "PlainName", "FunctionSignature", "TriggerIdentity", "ConstraintIdentity", "Identity",
    "IdentityKind", "DropObjectType", "Drop", "COMMENT_KINDS", "kind_of_objtype", "parse_identity",
    "same_identity",
]
