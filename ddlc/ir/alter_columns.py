"""Column (and composite-type attribute) subcommands of ALTER (reference §5.2)."""

from __future__ import annotations

import enum

from .alter import AlterSubcommand, RelOption
from .base import node
from .columns import ColumnDef, GeneratedKind
from .names import Expr, QualifiedName, TypeName


class ColumnKind(str, enum.Enum):
    """``objtype`` of the column subcommands: tables say COLUMN, composite types ATTRIBUTE."""

    COLUMN = "COLUMN"
    ATTRIBUTE = "ATTRIBUTE"


@node
class AddColumn(AlterSubcommand):
    """``ADD [COLUMN|ATTRIBUTE] [IF NOT EXISTS] <definition> [CASCADE] [FIRST|AFTER c]``.

    The definition is the column's ALTER form (§3.3): it never carries NOT NULL, a default only
    when constant, and nothing after the collation for AUTO_INCREMENT columns (those arrive in
    follow-up messages, §5.3). ``ADD COLUMN c t NOT NULL`` *without* a default gets no follow-up at
    all, so its NOT NULL is lost by the server (defect §10.17) — this cannot be detected from the
    tree and is not reported.
    """

    column: ColumnDef
    kind: ColumnKind = ColumnKind.COLUMN
    if_not_exists: bool = False
    cascade: bool = False
    first: bool = False
    after: str | None = None


@node
class DropColumn(AlterSubcommand):
    column: str
    kind: ColumnKind = ColumnKind.COLUMN
    if_exists: bool = False
    cascade: bool = False


@node
class AlterColumnType(AlterSubcommand):
    """``ALTER COLUMN c SET DATA TYPE t [COLLATE x] [USING e]`` or, for composite types,
    ``ALTER ATTRIBUTE a SET DATA TYPE t [COLLATE x] [CASCADE]``."""

    column: str
    type: TypeName
    kind: ColumnKind = ColumnKind.COLUMN
    collation: QualifiedName | None = None
    using: Expr | None = None
    cascade: bool = False


@node
class SetDefault(AlterSubcommand):
    """``ALTER COLUMN c SET DEFAULT e``: a subcommand of the main message (keys ``column`` and
    ``definition``, type ``set default``) or of a follow-up message (keys ``name`` and ``default``,
    no type); the layout tells which."""

    column: str
    default: Expr


@node
class DropDefault(AlterSubcommand):
    column: str


@node
class SetNotNull(AlterSubcommand):
    column: str


@node
class DropNotNull(AlterSubcommand):
    column: str


@node
class SetStatistics(AlterSubcommand):
    """``ALTER COLUMN c SET STATISTICS n``. The PERCENT form is never seen: its fmt applies ``%n``
    to the column name, so expansion fails on the server and the ALTER fails with it (§10.2)."""

    column: str
    value: int | float
    percent: bool = False


@node
class SetColumnOptions(AlterSubcommand):
    column: str
    options: tuple[RelOption, ...]


@node
class ResetColumnOptions(AlterSubcommand):
    column: str
    options: tuple[RelOption, ...]


class StorageMode(str, enum.Enum):
    PLAIN = "plain"
    EXTERNAL = "external"
    EXTENDED = "extended"
    MAIN = "main"


@node
class SetStorage(AlterSubcommand):
    column: str
    storage: StorageMode


class Nullability(str, enum.Enum):
    NOT_NULL = "NOT NULL"
    NULL = "NULL"


@node
class ModifyColumn(AlterSubcommand):
    """B-compatibility ``MODIFY [COLUMN] c type ...``.

    ``auto_increment``: the element stops after the type/charset (no default and generated
    parts) because the column is AUTO_INCREMENT; the follow-up message carries AUTO_INCREMENT.
    """

    column: str
    type: TypeName
    charset: str | None = None
    on_update: Expr | None = None
    nullability: Nullability | None = None
    default: Expr | None = None
    generated: Expr | None = None
    generated_kind: GeneratedKind = GeneratedKind.STORED
    auto_increment: bool = False
    collation: QualifiedName | None = None
    first: bool = False
    after: str | None = None


@node
class ChangeColumn(AlterSubcommand):
    """B-compatibility ``CHANGE [COLUMN] old new type ...`` (type metadata ``change coulumn``,
    sic); the same optional parts as :class:`ModifyColumn`."""

    old_column: str
    column: str
    type: TypeName
    charset: str | None = None
    on_update: Expr | None = None
    nullability: Nullability | None = None
    default: Expr | None = None
    generated: Expr | None = None
    generated_kind: GeneratedKind = GeneratedKind.STORED
    auto_increment: bool = False
    collation: QualifiedName | None = None
    first: bool = False
    after: str | None = None
