"""CREATE INDEX (reference §5.5).

The server pre-renders the whole column list (``definition``: keys with collation, operator class
and ordering, ``INCLUDE``, ``GLOBAL`` and the ``LOCAL(PARTITION ...)`` list) in
``pg_get_indexdef_detailed``; :func:`parse_definition` reads it back into :class:`IndexKey` and
:class:`IndexPartition` nodes, and ``definition_text`` keeps the exact text.
"""

from __future__ import annotations

import enum

from ..errors import Path
from ._scan import ScanFail, Scanner
from .base import Node, node, source_text, to_json
from .names import Expr, QualifiedName
from .statement import Statement


class SortOrder(str, enum.Enum):
    ASC = "ASC"
    DESC = "DESC"


class NullsOrder(str, enum.Enum):
    FIRST = "FIRST"
    LAST = "LAST"


class PartitionScope(str, enum.Enum):
    NONE = "none"  # not a partitioned index
    LOCAL = "local"  # LOCAL(PARTITION ...) — one index partition per table partition
    GLOBAL = "global"  # GLOBAL (openGauss global partitioned index)


@node
class IndexKey(Node):
    """One key column: a column name or an expression (text as written: ``lower(note)`` or
    ``((a + b))``), then ``COLLATE``, the operator class and the ordering when written."""

    column: str | None = None
    expression: Expr | None = None
    collation: QualifiedName | None = None
    opclass: QualifiedName | None = None
    ordering: SortOrder | None = None  # None: not written (ascending)
    nulls: NullsOrder | None = None  # None: not written (the ordering's default)


@node
class IndexPartition(Node):
    """``PARTITION name [TABLESPACE ts]`` of a LOCAL list; on a subpartitioned table the
    ``PARTITION partition_name(SUBPARTITION ...)`` groups (the server prints that literal name)."""

    name: str
    tablespace: str | None = None
    subpartitions: tuple[IndexPartition, ...] = ()


@node
class IndexDefinition(Node):
    """The parsed ``definition`` member."""

    keys: tuple[IndexKey, ...]
    include: tuple[str, ...] = ()
    scope: PartitionScope = PartitionScope.NONE
    partitions: tuple[IndexPartition, ...] = ()
    subpartitioned: bool = False  # LOCAL list in the multi-line subpartition form


@node
class CreateIndex(Statement):
    """``CREATE [UNIQUE] INDEX [CONCURRENTLY] name ON table USING method (keys) ...``.

    ``keys`` is empty only when ``definition_text`` could not be parsed (reported); the GaussDB
    target then writes the text as it came. ``definition_text`` is the source text of the parsed
    definition (keys, INCLUDE, scope, partitions): a change to any of them clears it (None), and the
    GaussDB target renders the definition from the fields then. ``options`` is the reloption text
    (``k=v, k=v``), ``tablespace`` and ``method`` the pre-quoted text the server wrote.
    """

    name: str
    table: QualifiedName
    method: str
    definition_text: str | None
    keys: tuple[IndexKey, ...] = ()
    include: tuple[str, ...] = ()
    partition_scope: PartitionScope = PartitionScope.NONE
    partitions: tuple[IndexPartition, ...] = ()
    subpartitioned: bool = False
    unique: bool = False
    concurrently: bool = False
    options: str | None = None
    tablespace: str | None = None
    invisible: bool = False
    where: Expr | None = None

    def definition(self) -> IndexDefinition | None:
        if not self.keys:
            return None
        return IndexDefinition(self.keys, self.include, self.partition_scope, self.partitions,
                               self.subpartitioned, origin=self.origin)


source_text("CreateIndex", definition_text=("keys", "include", "partition_scope", "partitions", "subpartitioned"))


# ---- definition parser ----------------------------------------------------------------------


_KEYWORDS = frozenset({"asc", "desc", "nulls", "collate"})


class _P(Scanner):
    __slots__ = ("origin",)

    def __init__(self, s: str, origin: Path) -> None:
        super().__init__(s)
        self.origin = origin

    def peek_word(self) -> str | None:
        """The next bare word (lower case), without consuming it."""
        j = self.i
        s = self.s
        if j < len(s) and (s[j].isalpha() or s[j] == "_"):
            k = j + 1
            while k < len(s) and (s[k].isalnum() or s[k] in "_$"):
                k += 1
            return s[j:k].lower()
        return None

    def word(self, w: str) -> bool:
        """Consume the bare keyword ``w`` (case-insensitive) if it is next."""
        if self.peek_word() == w.lower():
            self.i += len(w)
            return True
        return False

    def ident(self) -> str:
        return self.ident_token()[0]

    def qname(self) -> QualifiedName:
        a = self.ident()
        if self.eat("."):
            return QualifiedName(self.ident(), a, origin=self.origin)
        return QualifiedName(a, origin=self.origin)

    def balanced(self) -> None:
        s = self.s
        depth = 0
        i = self.i
        while i < len(s):
            c = s[i]
            if c == "'" or c == '"':
                escapes = c == "'" and i > 0 and s[i - 1] in "eE"
                j = i + 1
                while True:
                    if j >= len(s):
                        raise self.fail("unterminated literal")
                    if escapes and s[j] == "\\":
                        j += 2
                        continue
                    if s[j] == c:
                        if s.startswith(c, j + 1):
                            j += 2
                            continue
                        break
                    j += 1
                i = j + 1
                continue
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
                if depth == 0:
                    self.i = i + 1
                    return
            i += 1
        raise self.fail("unbalanced parentheses")

    # -- grammar ---------------------------------------------------------------------------
    def key(self) -> IndexKey:
        start = self.i
        column: str | None = None
        expression: Expr | None = None
        if self.at("("):
            self.balanced()
        else:
            name = self.ident()
            dotted = False
            while self.eat("."):  # a qualified function name
                self.ident()
                dotted = True
            if self.at("("):
                self.balanced()
            elif dotted:
                raise self.fail("qualified column")
            else:
                column = name
        if column is None:
            expression = Expr(self.s[start:self.i], origin=self.origin)
        collation = opclass = None
        ordering = nulls = None
        while True:
            save = self.i
            self.blanks()
            if self.i == save or self.at(")") or self.at(","):
                self.i = save
                break
            w = self.peek_word()
            if w == "collate" and collation is None and opclass is None and ordering is None:
                self.word("COLLATE")
                self.blanks()
                collation = self.qname()
            elif w in ("asc", "desc") and ordering is None and nulls is None:
                ordering = SortOrder(w.upper())
                self.i += len(w)
            elif w == "nulls" and nulls is None:
                self.i += 5
                self.blanks()
                w2 = self.peek_word()
                if w2 not in ("first", "last"):
                    raise self.fail("FIRST or LAST expected")
                nulls = NullsOrder(w2.upper())
                self.i += len(w2)
            elif opclass is None and ordering is None and nulls is None and w not in _KEYWORDS:
                opclass = self.qname()
            else:
                raise self.fail("unexpected key option")
        return IndexKey(column, expression, collation, opclass, ordering, nulls, origin=self.origin)

    def partition(self, sub: bool) -> IndexPartition:
        if not self.word("SUBPARTITION" if sub else "PARTITION"):
            raise self.fail("PARTITION expected")
        self.need(" ")
        name = self.ident()
        tablespace = None
        if self.at(" TABLESPACE "):
            self.i += len(" TABLESPACE ")
            tablespace = self.ident()
        return IndexPartition(name, tablespace, origin=self.origin)

    def local(self) -> tuple[tuple[IndexPartition, ...], bool]:
        self.need("(")
        parts: list[IndexPartition] = []
        if self.eat("\n"):  # subpartitioned: groups of SUBPARTITION lists
            while True:
                self.need("    ")
                group = self.partition(False)
                if group.tablespace is not None:
                    raise self.fail("TABLESPACE on a partition group")
                self.need("(")
                subs = []
                while True:
                    self.need("\n        ")
                    subs.append(self.partition(True))
                    if not self.eat(", "):
                        break
                self.need("\n    )")
                parts.append(IndexPartition(group.name, None, tuple(subs), origin=self.origin))
                if not self.eat(",\n"):
                    break
            self.need("\n")
            self.need(") ")
            return tuple(parts), True
        if not self.at(")"):
            while True:
                parts.append(self.partition(False))
                if not self.eat(", "):
                    break
        self.need(") ")
        return tuple(parts), False

    def definition(self) -> IndexDefinition:
        self.need("(")
        keys = [self.key()]
        while self.eat(", "):
            keys.append(self.key())
        include: list[str] = []
        scope = PartitionScope.NONE
        if self.at(") GLOBAL INCLUDE (") or self.at(") INCLUDE ("):
            if self.at(") GLOBAL"):
                scope = PartitionScope.GLOBAL
                self.i += len(") GLOBAL")
            else:
                self.i += 1
            self.need(" INCLUDE (")
            include.append(self.ident())
            while self.eat(", "):
                include.append(self.ident())
        self.need(")")
        partitions: tuple[IndexPartition, ...] = ()
        sub = False
        if scope is PartitionScope.NONE and self.eat("GLOBAL"):
            scope = PartitionScope.GLOBAL
        elif scope is PartitionScope.NONE and self.eat(" LOCAL"):
            scope = PartitionScope.LOCAL
            if not self.at("("):  # \d-style LOCAL without its list
                raise self.fail("LOCAL without a partition list")
            partitions, sub = self.local()
        if self.i != len(self.s):
            raise self.fail("trailing text")
        return IndexDefinition(tuple(keys), tuple(include), scope, partitions, sub, origin=self.origin)


def parse_definition(text: str, origin: Path = ()) -> IndexDefinition | str:
    """The parsed ``definition``, or a message saying where it stops making sense."""
    try:
        return _P(text, origin).definition()
    except ScanFail as e:
        return str(e)


def same_definition(a: IndexDefinition | None, b: IndexDefinition | str | None) -> bool:
    return isinstance(b, IndexDefinition) and to_json(a) == to_json(b)


__all__ = [
    "SortOrder", "NullsOrder", "PartitionScope", "IndexKey", "IndexPartition", "IndexDefinition",
    "CreateIndex", "parse_definition", "same_definition",
]
