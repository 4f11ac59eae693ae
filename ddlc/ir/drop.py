"""DROP (reference §4.6, §5.4) and the object identities that DROP, COMMENT and SET SCHEMA carry.

An *object identity* is the server's ``getObjectIdentity`` text, pre-quoted: ``public.orders``,
``"Sales"``, ``public.add1(integer,character varying)``, ``trg on public.orders``,
``public.orders.amount`` (a column) or the defective table-constraint drop
``public.pk on public.t``. The frontend's SQL layer reads it for real at build time
(:func:`ddlc.frontend.sql.identity.parse_identity`: quoted identifiers with dots and doubled quotes
inside, SQL-standard multi-word type names) into the nodes below; the text itself
is kept too (``identity_text``, ``parent_text``), so GaussDB output stays byte-exact while passes
work on the structure: a pass that changes the parsed identity clears its text (None, see
:func:`ddlc.ir.base.source_text`) and the GaussDB target renders the identity then.
"""

from __future__ import annotations

import enum

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
        return _DROP_WORDS.get(word, cls.OTHER)

    @property
    def identity_kind(self) -> IdentityKind | None:
        return _DROP_KINDS.get(self)


_DROP_WORDS = {m.value: m for m in DropObjectType if m is not DropObjectType.OTHER}  # the words `of` knows

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


def same_identity(a: Identity | None, b: Identity | None) -> bool:
    """Structural equality, origins ignored."""
    return to_json(a) == to_json(b)


__all__ = [
    "SchemaName", "PlainName", "FunctionSignature", "TriggerIdentity", "ConstraintIdentity", "Identity",
    "IdentityKind", "DropObjectType", "Drop", "COMMENT_KINDS", "kind_of_objtype", "same_identity",
]
