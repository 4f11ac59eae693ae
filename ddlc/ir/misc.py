"""Statement kinds with no JDDL shape (reference §5.18), recovered from GaussDB TDDL text.

GaussDB decodes more statement kinds than openGauss deparses into trees, and sends them as TDDL
text: CREATE TABLE AS / SELECT INTO, materialized views, procedures, packages, TRUNCATE, REINDEX,
LARGE SEQUENCE commands, M-compatible database statements, GRANT/REVOKE.
:func:`ddlc.frontend.recover.recover_tddl` parses that text into the nodes below. Every node
keeps the canonical ``text``: it is the source of truth, and what the GaussDB target prints.
Packages are never parsed beyond their name (PL/SQL bodies).
"""

from __future__ import annotations

import enum

from .base import Node, node
from .names import Expr, QualifiedName, TypeName
from .statement import Statement
from .table import OptionValueKind


@node
class WithOption(Node):
    """One ``WITH ([namespace.]name = value)`` storage option of a CREATE TABLE AS or a materialized view, as parsed.

    ``value`` is the option's value, never SQL text: a string constant's contents (``value_kind`` LITERAL; a
    reserved word such as ``true`` reaches the grammar as a string too, and a word read as a type name that
    would not print back as itself, ``"Foo"`` or ``varchar(3)``, is the string the server makes of it), a
    number or a plain word read as a type name as written (BARE), or None with no value (NONE). ``namespace``
    is the option's namespace (``toast`` of ``toast.autovacuum_enabled``), None without one. Emitters write
    it through their dialect's quoting. (Not :class:`ddlc.ir.table.WithOption`, a reloption of the JDDL tree:
    that one carries the deparser's layouts, and the targets' rules for a table's options and for these,
    declared per class, differ.)
    """

    name: str
    value: str | None = None
    value_kind: OptionValueKind = OptionValueKind.NONE
    namespace: str | None = None

    def label(self) -> str:  # for messages only
        """``name`` or ``namespace.name``."""
        return self.name if self.namespace is None else f"{self.namespace}.{self.name}"

    def shown(self) -> str:  # for messages only; emitters quote through their writer
        """``name``, ``name = 'value'`` (a string, its quotes doubled) or ``name = value`` (``namespace.name``
        with a namespace)."""
        if self.value is None or self.value_kind is OptionValueKind.NONE:
            return self.label()
        if self.value_kind is OptionValueKind.LITERAL:
            return f"{self.label()} = '" + self.value.replace("'", "''") + "'"
        return f"{self.label()} = {self.value}"


class DdlAction(str, enum.Enum):
    CREATE = "CREATE"
    ALTER = "ALTER"
    DROP = "DROP"


# ---- tables and materialized views -----------------------------------------------------------
@node
class CreateTableAs(Statement):
    """``CREATE [UNLOGGED|TEMP] TABLE [IF NOT EXISTS] t [(cols)] [WITH (...)] [TABLESPACE ts] AS
    query [WITH [NO] DATA]``, or ``SELECT ... INTO t FROM ...`` (``select_into``; ``query`` is
    then the whole SELECT with its INTO clause).

    GaussDB decodes a CTAS as the plain CREATE TABLE of the new table (its rows come as DML), so
    this node appears only when the TDDL text itself is a CTAS.
    """

    text: str
    identity: QualifiedName
    query: Expr
    with_data: bool = True
    columns: tuple[str, ...] = ()
    options: tuple[WithOption, ...] = ()
    tablespace: str | None = None
    if_not_exists: bool = False
    persistence: str = ""  # "", "UNLOGGED", "TEMPORARY"
    select_into: bool = False


@node
class CreateMatView(Statement):
    """``CREATE [INCREMENTAL] MATERIALIZED VIEW v [(cols)] [WITH (...)] [TABLESPACE ts] AS query
    [WITH [NO] DATA]``. INCREMENTAL is openGauss/GaussDB only."""

    text: str
    identity: QualifiedName
    query: Expr
    incremental: bool = False
    with_data: bool = True
    columns: tuple[str, ...] = ()
    options: tuple[WithOption, ...] = ()
    tablespace: str | None = None


@node
class RefreshMatView(Statement):
    """``REFRESH [INCREMENTAL] MATERIALIZED VIEW [CONCURRENTLY] v [WITH [NO] DATA]``."""

    text: str
    identity: QualifiedName
    incremental: bool = False
    concurrently: bool = False
    with_data: bool = True


@node
class AlterMatView(Statement):
    """``ALTER MATERIALIZED VIEW [IF EXISTS] v <action>``; ``action`` is the SQL text after the name.
    ``pg_grammar``: the statement parses with PostgreSQL's grammar (decided at build time; GaussDB-only
    actions such as ENABLE QUERY REWRITE do not)."""

    text: str
    identity: QualifiedName
    action: str
    if_exists: bool = False
    pg_grammar: bool = True


@node
class DropMatView(Statement):
    text: str
    names: tuple[QualifiedName, ...]
    if_exists: bool = False
    cascade: bool = False


# ---- maintenance -----------------------------------------------------------------------------
@node
class TruncateTarget(Node):
    name: QualifiedName
    only: bool = False


@node
class Truncate(Statement):
    """``TRUNCATE [TABLE] [ONLY] t [, ...] [RESTART IDENTITY] [CASCADE]`` (decoded by GaussDB as
    TDDL; openGauss sends it as a DML-level TRUNCATE line instead)."""

    text: str
    relations: tuple[TruncateTarget, ...]
    restart_identity: bool = False
    cascade: bool = False


class ReindexKind(str, enum.Enum):
    INDEX = "INDEX"
    TABLE = "TABLE"
    SCHEMA = "SCHEMA"
    DATABASE = "DATABASE"
    SYSTEM = "SYSTEM"


@node
class Reindex(Statement):
    """``REINDEX kind name [PARTITION p] [FORCE]``. GaussDB prints ``ALTER INDEX i REBUILD
    PARTITION p`` as ``REINDEX INDEX i PARTITION p`` (``partition``, openGauss only)."""

    text: str
    kind: ReindexKind
    name: QualifiedName | str  # str: the schema/database name of SCHEMA, DATABASE, SYSTEM
    partition: str | None = None
    concurrently: bool = False
    verbose: bool = False
    force: bool = False


# ---- routines, packages ------------------------------------------------------------------------
@node
class RoutineRef(Node):
    """``schema.name[(argtype, ...)]`` in DROP FUNCTION/PROCEDURE; ``arguments`` None: no list."""

    name: QualifiedName
    arguments: tuple[TypeName, ...] | None = None


@node
class DropRoutine(Statement):
    """``DROP FUNCTION|PROCEDURE [IF EXISTS] f(types) [, ...] [CASCADE]`` (kind: the keyword)."""

    text: str
    kind: str  # "FUNCTION" or "PROCEDURE"
    routines: tuple[RoutineRef, ...]
    if_exists: bool = False
    cascade: bool = False


@node
class Package(Statement):
    """``CREATE [OR REPLACE] PACKAGE [BODY] name ...``, ``ALTER PACKAGE name ...`` or ``DROP
    PACKAGE [BODY] [IF EXISTS] name``: an Oracle-style package, kept as text (never parsed beyond
    the header). Other targets have no packages."""

    text: str
    name: QualifiedName
    is_body: bool = False
    action: DdlAction = DdlAction.CREATE
    or_replace: bool = False


# ---- databases (M-compatibility), privileges ----------------------------------------------------
@node
class CreateDatabase(Statement):
    """``CREATE DATABASE [IF NOT EXISTS] name [options]``. In an M-compatible GaussDB database a
    database is a schema (this is CREATE SCHEMA there); ``options`` keep the option text."""

    text: str
    name: str
    if_not_exists: bool = False
    options: str = ""


@node
class AlterDatabase(Statement):
    """``ALTER DATABASE name <action>`` (``action``: the text after the name)."""

    text: str
    name: str
    action: str


@node
class DropDatabase(Statement):
    text: str
    name: str
    if_exists: bool = False


@node
class Grant(Statement):
    """``GRANT|REVOKE privileges ON objtype objects TO|FROM grantees``.

    ``privileges`` empty: ALL. ``objtype`` is the SQL keyword (``TABLE``, ``SEQUENCE``,
    ``FUNCTION``, ``SCHEMA``, ``DATABASE``...); relation-like objects are in ``relations``
    (qualified names), the others (schemas, databases, functions with signatures...) are SQL
    text in ``objects``. ``all_in_schema``: ``ON ALL TABLES IN SCHEMA s`` (schemas in
    ``objects``). Grantees are role names, or ``PUBLIC``. ``pg_grammar``: the statement written from
    these fields parses with PostgreSQL's grammar (decided at build time; False for GaussDB-only
    object kinds the recovery cannot write back).
    """

    text: str
    revoke: bool
    privileges: tuple[str, ...]
    objtype: str
    relations: tuple[QualifiedName, ...] = ()
    objects: tuple[str, ...] = ()
    all_in_schema: bool = False
    grantees: tuple[str, ...] = ()
    grant_option: bool = False
    cascade: bool = False
    pg_grammar: bool = True


@node
class GrantRole(Statement):
    """``GRANT role [, ...] TO grantee [, ...] [WITH ADMIN OPTION]`` / ``REVOKE ... FROM ...``."""

    text: str
    revoke: bool
    roles: tuple[str, ...]
    grantees: tuple[str, ...]
    admin_option: bool = False
    cascade: bool = False


TEXT_NODES: tuple[type[Statement], ...] = (
    CreateTableAs, CreateMatView, RefreshMatView, AlterMatView, DropMatView, Truncate, Reindex, DropRoutine,
    Package, CreateDatabase, AlterDatabase, DropDatabase, Grant, GrantRole,
)

__all__ = [
    "WithOption", "DdlAction", "CreateTableAs", "CreateMatView", "RefreshMatView", "AlterMatView", "DropMatView",
    "TruncateTarget", "Truncate", "ReindexKind", "Reindex", "RoutineRef", "DropRoutine", "Package",
    "CreateDatabase", "AlterDatabase", "DropDatabase", "Grant", "GrantRole", "TEXT_NODES",
]
