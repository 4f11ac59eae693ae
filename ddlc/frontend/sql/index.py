"""Index definitions (the ``definition`` member of CREATE INDEX, reference §5.5) -> IndexDefinition, once,
at build time.

The server pre-renders the column list with ``pg_get_indexdef_detailed``: keys (a column or an
expression, ``COLLATE``, the operator class, the ordering), ``INCLUDE``, ``GLOBAL`` and the
``LOCAL(PARTITION ...)`` list, the subpartitioned form on several lines. The layout's spacing is
fixed and matched exactly; names, words and parenthesized expressions are tokens of the SQL layer's
lexer (:class:`ddlc.frontend.sql.lexer.Cursor`). Expression keys are parsed by the SQL layer too
(:func:`~ddlc.frontend.sql.expr.make_expr`).
"""

from __future__ import annotations

from ...errors import Path
from ...ir.index import IndexDefinition, IndexKey, IndexPartition, NullsOrder, PartitionScope, SortOrder
from ...ir.names import Expr, QualifiedName
from .expr import make_expr
from .fragment import check_fragment
from .lexer import Cursor, ScanFail

_KEYWORDS = frozenset({"asc", "desc", "nulls", "collate"})


class _P(Cursor):
    __slots__ = ("origin",)

    def __init__(self, s: str, origin: Path) -> None:
        super().__init__(s)
        self.origin = origin

    def ident(self) -> str:
        return self.ident_token()[0]

    def qname(self) -> QualifiedName:
        a = self.ident()
        if self.eat("."):
            return QualifiedName(self.ident(), a, origin=self.origin)
        return QualifiedName(a, origin=self.origin)

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
            expression = make_expr(self.s[start:self.i], self.origin)
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
                self.word(w)
            elif w == "nulls" and nulls is None:
                self.word(w)
                self.blanks()
                w2 = self.peek_word()
                if w2 not in ("first", "last"):
                    raise self.fail("FIRST or LAST expected")
                nulls = NullsOrder(w2.upper())
                self.word(w2)
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
    """The parsed ``definition`` (expression keys parsed too), or a message saying where it stops making sense.
    ``DDLC-E011`` when the text is not one fragment (:mod:`.fragment`), whether or not it parses."""
    check_fragment(text, origin, "index definition")
    try:
        return _P(text, origin).definition()
    except ScanFail as e:
        return str(e)


__all__ = ["parse_definition"]
