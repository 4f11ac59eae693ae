"""ALTER TABLE / INDEX / VIEW / SEQUENCE (owner) / TYPE (attributes): reference §5.2.

One statement, :class:`AlterRelation`, holding typed subcommands (``subcmds``, in the server's
*execution* order, §4.8). This module has the statement, the subcommand base class and the
relation-level subcommands (constraints, settings, triggers and rules, inheritance, replica
identity, row security, B-compatibility character sets, index maintenance, dolphin drops).
Column subcommands are in :mod:`ddlc.ir.alter_columns`, partition subcommands in
:mod:`ddlc.ir.alter_partitions`, the follow-up messages of §5.3 in :mod:`ddlc.ir.followup`.

Every subcommand keeps the ``fmt`` it was built from as ``layout`` (formatting only).
"""

from __future__ import annotations

import enum

from .base import Node, layout_field, node
from .names import Expr, QualifiedName, TypeName
from .statement import Statement
from .table import ConstraintInfo, ConstraintKind


class AlterObjType(str, enum.Enum):
    """``objtype`` of the statement, chosen by the relation kind."""

    TABLE = "TABLE"
    INDEX = "INDEX"
    VIEW = "VIEW"
    TYPE = "TYPE"  # composite type (ADD/DROP/ALTER ATTRIBUTE)
    SEQUENCE = "SEQUENCE"
    LARGE_SEQUENCE = "LARGE SEQUENCE"
    FOREIGN_TABLE = "FOREIGN TABLE"
    MATERIALIZED_VIEW = "MATERIALIZED VIEW"


@node
class AlterSubcommand(Node, kw_only=True):
    """Base of every element of ``subcmds``."""

    layout: str | None = layout_field()


@node
class AlterRelation(Statement):
    """``ALTER %{objtype}s %{only}s %{identity}D %{subcmds:, }s``; GaussDB's deparser also writes
    ``ALTER %{objtype}s %{if_exists}s %{only}s ...`` for ``ALTER TABLE IF EXISTS`` (``if_exists``)."""

    objtype: AlterObjType
    identity: QualifiedName
    subcommands: tuple[AlterSubcommand, ...]
    only: bool = False
    if_exists: bool = False


@node
class OpaqueSubcommand(AlterSubcommand):
    """A subcommand ddlc does not model (unknown ``type`` or an unexpected ``fmt`` variant), kept
    as the server's text (with a DDLC-N201 note): never dropped, still lossless."""

    text: str
    type: str | None = None  # the ``type`` metadata it arrived with, if any


# ---- constraints --------------------------------------------------------------------------
class IndexConstraintType(str, enum.Enum):
    PRIMARY_KEY = "PRIMARY KEY"
    UNIQUE = "UNIQUE"


@node
class AddConstraint(AlterSubcommand):
    """``ADD CONSTRAINT name <definition>`` (CHECK, FOREIGN KEY, PRIMARY KEY/UNIQUE with index).

    ``definition`` is the server's text and the authority (the GaussDB target writes it). The rest is
    what the frontend's SQL layer read from it at build time, as for a CREATE TABLE constraint element
    (:class:`ddlc.ir.table.TableConstraint`): ``parsed`` (None when the text does not parse; no
    diagnostic here, a target that needs it reports it), ``kind`` (the kind the text starts with),
    ``informational`` (the openGauss informational prefix), ``disabled`` (``CHECK (...) DISABLE``),
    ``match_partial`` (``MATCH PARTIAL``, which PostgreSQL's grammar refuses, so such a text never
    parses) and ``verbatim`` (the text is PostgreSQL syntax as written and ``parsed`` says exactly what
    it says; a rewrite that changes ``parsed`` alone sets it to False).
    """

    name: str
    definition: Expr  # server SQL (§3.4), e.g. ``FOREIGN KEY (cid) REFERENCES public.c(id)``
    parsed: ConstraintInfo | None = None
    kind: ConstraintKind | None = None
    informational: bool = False
    disabled: bool = False
    match_partial: bool = False
    verbatim: bool = False


@node
class AddConstraintUsingIndex(AlterSubcommand):
    name: str
    constraint_type: IndexConstraintType
    index: str
    deferrable: bool = False  # DEFERRABLE / NOT DEFERRABLE
    initially_deferred: bool = False  # INITIALLY DEFERRED / INITIALLY IMMEDIATE


@node
class ValidateConstraint(AlterSubcommand):
    name: str


@node
class DropConstraint(AlterSubcommand):
    name: str
    if_exists: bool = False
    cascade: bool = False


@node
class DropPrimaryKey(AlterSubcommand):
    """Dolphin ``DROP PRIMARY KEY``."""


# ---- relation-level settings ----------------------------------------------------------------
class Compression(str, enum.Enum):
    COMPRESS = "COMPRESS"
    NOCOMPRESS = "NOCOMPRESS"


@node
class SetCompression(AlterSubcommand):
    compression: Compression


@node
class RowMovement(AlterSubcommand):
    enable: bool


@node
class AutoIncrement(AlterSubcommand):
    """B-compatibility ``AUTO_INCREMENT [=] n``: a JSON number (``%n``), or a string (``%s``) for
    literals that do not fit int32."""

    start: int | float | str


@node
class TableComment(AlterSubcommand):
    """B-compatibility ``COMMENT [=] 'x'``."""

    comment: str


@node
class ChangeOwner(AlterSubcommand):
    """``OWNER TO r``. The deparser writes the literal ``subcmd->newowner`` instead of the role
    (defect §10.1): then ``owner`` is None (unknown) and DDLC-W201 is reported."""

    owner: str | None


@node
class ClusterOn(AlterSubcommand):
    index: str


@node
class SetWithoutCluster(AlterSubcommand):
    pass


@node
class SetWithoutOids(AlterSubcommand):
    pass


@node
class SetTablespace(AlterSubcommand):
    tablespace: str


@node
class RelOption(Node):
    """A ``SET (...)``/``RESET (...)`` element (§3.5). ``value`` None = no ``= value`` part;
    ``quoted``: written as a literal (``%L``) rather than verbatim. ``namespace`` is the option
    namespace (``toast``), rendered by the server as ``toast. fillfactor`` (valid, if odd)."""

    name: str
    value: str | None = None
    namespace: str | None = None
    quoted: bool = False
    layout: str | None = layout_field()
    label_layout: str | None = layout_field()


@node
class SetRelOptions(AlterSubcommand):
    options: tuple[RelOption, ...]


@node
class ResetRelOptions(AlterSubcommand):
    options: tuple[RelOption, ...]


# ---- triggers and rules ---------------------------------------------------------------------
class FireMode(str, enum.Enum):
    ENABLE = "ENABLE"
    ENABLE_ALWAYS = "ENABLE ALWAYS"
    ENABLE_REPLICA = "ENABLE REPLICA"
    DISABLE = "DISABLE"


class TriggerTarget(str, enum.Enum):
    NAMED = "named"
    ALL = "ALL"
    USER = "USER"


@node
class TriggerState(AlterSubcommand):
    """``{ENABLE [ALWAYS|REPLICA]|DISABLE} TRIGGER {name|ALL|USER}``."""

    mode: FireMode
    trigger: str | None = None  # set iff target is NAMED
    target: TriggerTarget = TriggerTarget.NAMED


@node
class RuleState(AlterSubcommand):
    mode: FireMode
    rule: str


# ---- inheritance, typing, replica identity, row security --------------------------------------
@node
class Inherit(AlterSubcommand):
    parent: QualifiedName


@node
class NoInherit(AlterSubcommand):
    parent: QualifiedName


@node
class AddOf(AlterSubcommand):
    type: TypeName


@node
class NotOf(AlterSubcommand):
    pass


class ReplicaIdentityKind(str, enum.Enum):
    DEFAULT = "DEFAULT"
    FULL = "FULL"
    NOTHING = "NOTHING"
    INDEX = "USING INDEX"


@node
class ReplicaIdentity(AlterSubcommand):
    kind: ReplicaIdentityKind
    index: str | None = None  # set iff kind is INDEX


class RowSecurityAction(str, enum.Enum):
    ENABLE = "ENABLE"
    DISABLE = "DISABLE"
    FORCE = "FORCE"
    NO_FORCE = "NO FORCE"


@node
class RowSecurity(AlterSubcommand):
    """``[ENABLE|DISABLE|FORCE|NO FORCE] ROW LEVEL SECURITY``. The ``type`` metadata says
    ``disable row security`` for FORCE and NO FORCE (§10.20); the fmt decides."""

    action: RowSecurityAction


# ---- B-compatibility --------------------------------------------------------------------------
@node
class IndexVisibility(AlterSubcommand):
    """``ALTER INDEX i [IN]VISIBLE`` inside ALTER TABLE."""

    index: str
    visible: bool


@node
class DefaultCharset(AlterSubcommand):
    charset: str  # encoding name as the server wrote it (UTF8, GBK...)


@node
class Collate(AlterSubcommand):
    """``COLLATE = x``: a separate element after DEFAULT CHARACTER SET / CONVERT TO."""

    collation: str


@node
class ConvertCharset(AlterSubcommand):
    charset: str


# ---- index maintenance (ALTER INDEX, and MODIFY PARTITION ... REBUILD) ---------------------------
@node
class Unusable(AlterSubcommand):
    pass


@node
class UnusablePartition(AlterSubcommand):
    partition: str


@node
class Rebuild(AlterSubcommand):
    pass


@node
class RebuildPartition(AlterSubcommand):
    """``ALTER INDEX i REBUILD PARTITION p``."""

    partition: str


@node
class RebuildPartitionAllIndex(AlterSubcommand):
    """``MODIFY PARTITION p REBUILD UNUSABLE LOCAL INDEXES``, which the deparser writes as
    ``MODIFY PARTITION p REBUILD ALL INDEX`` (not openGauss grammar, defect §10.6, DDLC-W202)."""

    partition: str


# ---- dolphin drops -----------------------------------------------------------------------------
@node
class DropIndex(AlterSubcommand):
    """Dolphin ``DROP INDEX i`` / ``DROP KEY i`` inside ALTER TABLE."""

    index: str
    cascade: bool = False


@node
class DropForeignKey(AlterSubcommand):
    name: str
    cascade: bool = False
