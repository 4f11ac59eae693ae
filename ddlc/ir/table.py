"""CREATE TABLE (reference §5.1, GaussDB variant §9, pre-release shape §11) and its parts:
table constraint elements (§3.4), WITH options (§3.5), partitioning, B-compatibility options.

Formatting-only facts (the ``fmt`` of the statement and of its sub-objects) are ``layout``
fields; everything else is a precise field. A pass that changes a clause may leave a layout in
place: the GaussDB emitter checks that a layout still fits the node and otherwise writes the
deparser's default form.
"""

from __future__ import annotations

import enum
from functools import lru_cache
from typing import Union

from .base import Node, layout_field, node
from .columns import ColumnDef
from .names import Expr, QualifiedName, TypeName
from .partition import PartitionSpec
from .statement import Statement
from .. import lazyre


_SLOT = lazyre.compile(r"%%|%\{([^}:]*)(:[^}]*)?\}([IDTLsn])")


@lru_cache(maxsize=512)
def layout_slots(layout: str) -> dict[str, tuple[str, bool]]:
    """The placeholders of a ``fmt``: name -> (conversion, is an array with a separator)."""
    out: dict[str, tuple[str, bool]] = {}
    for m in _SLOT.finditer(layout):
        if m.group(1) is not None:
            out[m.group(1)] = (m.group(3), m.group(2) is not None)
    return out


class Persistence(str, enum.Enum):
    PERMANENT = ""
    UNLOGGED = "UNLOGGED"
    GLOBAL_TEMPORARY = "GLOBAL TEMPORARY"
    TEMPORARY = "TEMPORARY"  # exists in the deparser; temporary tables are never replicated


class ElementsStyle(str, enum.Enum):
    OBJECT = "object"  # {"fmt": "(%{elements:, }s)", "elements": [...]} (every release)
    ARRAY = "array"  # pre-release 2023-11: "(%{table_elements:, }s)" with an array (§11)


class WithStyle(str, enum.Enum):
    ARRAY = "array"  # openGauss: "WITH (%{with:, }s)" in the statement's own fmt
    OBJECT = "object"  # GaussDB: "%{with_clause}s" -> {"fmt": "WITH (%{with:, }s)", "with": [...]}


class OptionValueKind(str, enum.Enum):
    LITERAL = "literal"  # "%{label}s = %{value}L": the option was given as a string
    BARE = "bare"  # "%{label}s = %{value}s": a number, a bare word, TRUE/FALSE
    NONE = "none"  # "%{label}s": no value (RESET lists, options whose value is '')


class Compression(str, enum.Enum):
    """GaussDB's top-level ``compression`` key (openGauss folds it into the reloption)."""

    COMPRESS = "COMPRESS"
    NOCOMPRESS = "NOCOMPRESS"


class OnCommitAction(str, enum.Enum):
    DROP = "DROP"
    DELETE_ROWS = "DELETE ROWS"
    PRESERVE_ROWS = "PRESERVE ROWS"


class ConstraintKind(str, enum.Enum):
    """The ``contype`` vocabulary of constraint elements (foreign keys only via ALTER TABLE)."""

    CHECK = "check"
    PRIMARY_KEY = "primary key"
    UNIQUE = "unique"
    TRIGGER = "trigger"
    EXCLUSION = "exclusion"
    FOREIGN_KEY = "foreign key"


class FkMatch(str, enum.Enum):
    SIMPLE = "simple"
    FULL = "full"
    PARTIAL = "partial"


class FkAction(str, enum.Enum):
    NO_ACTION = "no action"
    RESTRICT = "restrict"
    CASCADE = "cascade"
    SET_NULL = "set null"
    SET_DEFAULT = "set default"


@node
class WithOption(Node):
    """One reloption: ``label = 'value'`` / ``label = value`` / ``label`` (§3.5).

    ``namespace`` is the option namespace (``toast``), rendered by the server as ``toast. label``.
    ``label_layout`` is the fmt of the label object (``%{label}I`` or ``%{schema}I. %{label}I``).
    """

    label: str
    namespace: str | None = None
    value: str | None = None
    value_kind: OptionValueKind = OptionValueKind.LITERAL
    layout: str | None = layout_field()
    label_layout: str | None = layout_field()


@node
class ConstraintInfo(Node):
    """What a constraint definition says, parsed from its text at build time (frontend/sql/constraints.py).

    Derived data: the GaussDB target writes the definition text; other targets read this.
    ``columns`` are the key columns (PRIMARY KEY / UNIQUE / local FOREIGN KEY columns / simple
    EXCLUDE elements); ``descending`` lists key columns written ``DESC`` (openGauss syntax).
    ``informational`` marks openGauss informational constraints (``enable optimization
    Informational Constraint ...``; ``optimization`` is the enable/disable word).
    """

    kind: ConstraintKind
    columns: tuple[str, ...] = ()
    descending: tuple[str, ...] = ()
    include: tuple[str, ...] = ()
    check: Expr | None = None
    references: QualifiedName | None = None
    ref_columns: tuple[str, ...] = ()
    match: FkMatch = FkMatch.SIMPLE
    on_delete: FkAction = FkAction.NO_ACTION
    on_update: FkAction = FkAction.NO_ACTION
    deferrable: bool = False
    initially_deferred: bool = False
    not_valid: bool = False
    no_inherit: bool = False
    disabled: bool = False  # CHECK (...) DISABLE (openGauss)
    index_options: tuple[WithOption, ...] = ()  # WITH (fillfactor=80) of the backing index
    index_tablespace: str | None = None  # USING INDEX TABLESPACE inside the definition
    using_index: str | None = None  # ADD CONSTRAINT ... USING INDEX idx
    access_method: str | None = None  # EXCLUDE USING gist
    exclusion_operators: tuple[str, ...] = ()  # one per EXCLUDE element
    where: Expr | None = None  # EXCLUDE ... WHERE (predicate)
    informational: bool = False
    optimization: bool = False


@node
class TableConstraint(Node):
    """A table constraint element (§3.4): ``CONSTRAINT name definition``.

    ``definition`` is the server's text and the authority; ``parsed`` is its parsed form, made at
    build time by the frontend's SQL layer, None when it does not parse (GaussDB-only syntax;
    reported as DDLC-N101). ``tablespace`` is the element's own ``USING INDEX TABLESPACE
    %{tblspc}s`` (the server prints it a second time after the definition).

    Facts the SQL layer read from the text at build time (they hold whether or not it parsed):
    ``informational`` (the openGauss informational-constraint prefix) and ``verbatim``: the text is
    PostgreSQL syntax as written and ``parsed`` says exactly what it says, so a target may write the
    text as it is. Passes that rewrite names inside the text keep both true (they rewrite the text
    and the names in ``parsed`` alike); a rewrite that changes ``parsed`` alone (a clause removed by
    a target's rule) sets ``verbatim`` to False.
    """

    name: str | None
    kind: ConstraintKind
    definition: Expr
    parsed: ConstraintInfo | None = None
    tablespace: str | None = None
    informational: bool = False
    verbatim: bool = False
    layout: str | None = layout_field()


@node
class OnCommit(Node):
    """``ON COMMIT action`` of a (global) temporary table.

    ``text`` is the value as written in the tree; ``action`` is None when the text is none of the
    three actions (it is then written back verbatim).
    """

    action: OnCommitAction | None
    text: str = ""
    layout: str | None = layout_field()

    @property
    def value(self) -> str:
        if self.action is None or " ".join(self.text.split()).upper() == self.action.value:
            return self.text
        return self.action.value


@node
class TableComment(Node):
    """B-compatibility table option ``COMMENT='...'`` (an element of ``options``)."""

    comment: str
    layout: str | None = layout_field()


@node
class PartitionClause(Node):
    """The partitioning clause of CREATE TABLE.

    ``text`` is the server's pre-rendered clause (it starts with ``\\n``); None for a clause made
    by a pass, which is rendered from ``spec``. ``spec`` is None when the text did not parse.
    The GaussDB target writes ``text`` back unless a pass changed ``spec``.
    """

    text: str | None
    spec: PartitionSpec | None = None


Element = Union[ColumnDef, TableConstraint]


@node
class CreateTable(Statement):
    """CREATE TABLE, every shape.

    ``elements`` keeps columns and constraints in input order (``columns`` / ``constraints``
    give each kind). A typed table (``OF type``) has ``of_type`` and no elements.
    ``autoinc_start`` is the B-compatibility ``AUTO_INCREMENT = n`` table option as text;
    ``autoinc_numeric`` says whether it came as a JSON number (``%n``) or a string (``%s``).
    """

    identity: QualifiedName
    persistence: Persistence = Persistence.PERMANENT
    if_not_exists: bool = False
    elements: tuple[Element, ...] = ()
    of_type: TypeName | None = None
    inherits: tuple[QualifiedName, ...] = ()
    autoinc_start: str | None = None
    autoinc_numeric: bool = True
    with_options: tuple[WithOption, ...] = ()
    with_style: WithStyle = WithStyle.ARRAY
    compression: Compression | None = None
    on_commit: OnCommit | None = None
    tablespace: str | None = None
    comments: tuple[TableComment, ...] = ()
    partition: PartitionClause | None = None
    # GaussDB's distribution clause as it prints it (``DISTRIBUTE BY HASH (a)``, ``DISTRIBUTE BY
    # REPLICATION``): read only in those word-and-name forms (frontend/build/table.py), so it holds
    # no literal, operator or statement end; no other target has distribution
    distribute_by: str | None = None
    elements_style: ElementsStyle = ElementsStyle.OBJECT
    elements_layout: str | None = layout_field()  # fmt of the table_elements object
    inherits_layout: str | None = layout_field()  # fmt of the inherits object
    with_layout: str | None = layout_field()  # fmt of GaussDB's with_clause object

    @property
    def columns(self) -> tuple[ColumnDef, ...]:
        return tuple(e for e in self.elements if isinstance(e, ColumnDef))

    @property
    def constraints(self) -> tuple[TableConstraint, ...]:
        return tuple(e for e in self.elements if isinstance(e, TableConstraint))
