"""Recursive-descent parser for GaussDB/openGauss partition clauses (``grammars/partition-clause.ebnf``).

Input is the ``partition_by`` text of a CREATE TABLE tree (openGauss's ``pg_get_partkeydef``
layout, jddl-shapes.md §5.1) or the same clause written by hand::

    PARTITION BY RANGE (c2) ( PARTITION p1 START(1) END(1000) EVERY(200), PARTITION p2 END(2000) )

Tokens come from the SQL layer's lexer (:func:`ddlc.frontend.sql.lexer.scan`, with openGauss's
undoubled quotes in bound strings, ``'it's'``) and keep their source offsets, so errors say where
they are (``expected ")" at position 57 near "TABLESPACE x"``) and every name and value keeps the
exact text it was written with. Keywords are case-insensitive; unquoted names are folded to lower
case (ASCII only) and quoted names unescaped, both cut to 63 bytes like the server's lexer.

Entry points: :func:`parse_partition_clause`, :func:`parse_bound_value`. A clause of the server's common form
is read by :mod:`.partition_common`'s patterns first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NoReturn

from ...diagnostics import E_BUILD
from ...errors import DdlcError, PathPart
from ...ir.partition import (
    BoundKind,
    BoundValue,
    LessThan,
    ListValues,
    Partition,
    PartitionSpec,
    PartitionStrategy,
    RangeItem,
    truncate_identifier,
)
from .expr import make_expr
from .partition_common import COLUMN as _COLUMN, column_parts  # noqa: F401 - (read here by the tests)
from .partition_common import bound_value as _bound_value, common_spec as _common_spec, key_expr as _key_expr
from .partition_tokens import Tok, common_value, tokens as _tokens

__all__ = ["parse_partition_clause", "parse_bound_value"]

_OPERATORS = ("+", "-", "*", "/", "%", "||")
_TYPED_HEADS = {"date", "timestamp", "timestamptz", "time", "timetz", "interval"}
_INTERVAL_FIELDS = ("year", "month", "day", "hour", "minute", "second")


MAX_PARTITION_NUM = 1048575  # the server's limit on a table's partitions (pg_partition_fn.h)


def _expr_bound(text: str, origin: Sequence[PathPart]) -> BoundValue:
    """An expression bound (``TO_DATE(...)``): its parsed form is made here, once, by the SQL layer."""
    return BoundValue(text=text, kind=BoundKind.EXPR, origin=tuple(origin), expr=make_expr(text, tuple(origin)))


class _Parser:
    def __init__(self, text: str, path: Sequence[PathPart]) -> None:
        self.src = text
        self.path = tuple(path)
        self.toks = toks = _tokens(text, self._fail_at)
        # what is_kw / is_punct compare: a word's folded value, a punctuation, None for any other token
        self.keys = [t[3] if t[0] == "ident" or t[0] == "punct" else None for t in toks]
        self.last = len(toks) - 1  # the eof token
        self.i = 0

    # ---- token helpers -------------------------------------------------------------------
    def _fail_at(self, what: str, pos: int) -> NoReturn:
        if pos >= len(self.src):
            where = f"at position {pos} (end of input)"
        else:
            near = self.src[pos : pos + 24].split("\n")[0]
            where = f'at position {pos} near "{near}"'
        raise DdlcError(f"{what} {where}", code=E_BUILD, path=self.path, position=pos)

    def fail(self, what: str, tok: Tok | None = None):
        self._fail_at(what, (tok or self.peek()).pos)

    def peek(self, k: int = 0) -> Tok:
        j = self.i + k
        return self.toks[j] if j < self.last else self.toks[self.last]

    def take(self) -> Tok:
        i = self.i
        if i < self.last:
            self.i = i + 1
            return self.toks[i]
        return self.toks[self.last]

    def is_kw(self, word: str, k: int = 0) -> bool:
        j = self.i + k
        return self.keys[j if j < self.last else self.last] == word  # (no punctuation is a word)

    def is_punct(self, ch: str, k: int = 0) -> bool:
        j = self.i + k
        return self.keys[j if j < self.last else self.last] == ch  # (no word is a punctuation)

    def kw(self, *words: str) -> Tok:
        first = self.peek()
        for word in words:
            if not self.is_kw(word):
                self.fail(f"expected {word.upper()}")
            self.take()
        return first

    def punct(self, ch: str) -> Tok:
        if not self.is_punct(ch):
            self.fail(f'expected "{ch}"')
        return self.take()

    def slice(self, first: Tok, last: Tok) -> str:
        return self.src[first.pos : last.end]

    # ---- clause -------------------------------------------------------------------------
    def clause(self) -> PartitionSpec:
        self.kw("partition", "by")
        strategy = self.strategy()
        key, key_text = self.key_list()
        parts: dict = {}
        if self.is_kw("interval") and self.is_punct("(", 1):
            if strategy is not PartitionStrategy.RANGE:
                self.fail("INTERVAL partitioning needs PARTITION BY RANGE")
            self.take()
            self.punct("(")
            parts["interval"] = self.value()
            self.punct(")")
            if self.is_kw("store"):
                self.kw("store", "in")
                self.punct("(")
                names = [self.name()[1]]
                while self.is_punct(","):
                    self.take()
                    names.append(self.name()[1])
                self.punct(")")
                parts["store_in"] = tuple(names)
        if self.is_kw("partitions"):
            self.take()
            parts["partitions_num"] = self.count()
        if self.is_kw("subpartition"):
            self.kw("subpartition", "by")
            parts["sub_strategy"] = self.strategy()
            parts["sub_key"], parts["sub_key_text"] = self.key_list()
            if len(parts["sub_key"]) != 1:
                self.fail("SUBPARTITION BY takes exactly one column", self.toks[self.i - 1])
            if self.is_kw("subpartitions"):
                self.take()
                parts["subpartitions_num"] = self.count()
        partitions: list[Partition] = []
        has_list = self.is_punct("(")
        if has_list:
            self.take()
            family = [None]  # the item family of the list, set by its first item
            partitions.append(self.partition(strategy, parts.get("sub_strategy"), family))
            while self.is_punct(","):
                self.take()
                partitions.append(self.partition(strategy, parts.get("sub_strategy"), family))
            self.punct(")")
        elif strategy is not PartitionStrategy.HASH or "partitions_num" not in parts:
            self.fail('expected "("')
        if self.is_kw("enable") or self.is_kw("disable"):
            parts["row_movement"] = self.take().value == "enable"
            self.kw("row", "movement")
        if self.peek().kind != "eof":
            self.fail("expected end of partition clause")
        here = tuple(self.path)
        return PartitionSpec(
            strategy=strategy,
            key=key,
            key_text=key_text,
            key_exprs=tuple(_key_expr(t, here) for t in key_text),
            sub_key_exprs=tuple(_key_expr(t, here) for t in parts.get("sub_key_text", ())),
            partitions=tuple(partitions),
            has_list=has_list,
            origin=self.path,
            **parts,
        )

    def strategy(self) -> PartitionStrategy:
        tok = self.peek()
        if tok.kind == "ident" and tok.value in ("range", "list", "hash"):
            self.take()
            return PartitionStrategy(tok.value.upper())
        self.fail("expected RANGE, LIST or HASH")

    def count(self) -> int:
        tok = self.peek()
        if tok.kind != "number" or not tok.text.isdigit() or not tok.text.strip("0"):
            self.fail("expected a positive integer")
        if len(tok.text.lstrip("0")) > 7 or int(tok.text) > MAX_PARTITION_NUM:  # checked before it is built
            self.fail(f"a table has at most {MAX_PARTITION_NUM} partitions (MAX_PARTITION_NUM)")
        self.take()
        return int(tok.text)

    def key_list(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        self.punct("(")
        names, texts = [], []
        while True:
            first = self.peek()
            if first.kind in ("ident", "qident") and (self.is_punct(",", 1) or self.is_punct(")", 1)):
                value, text = self.name()
            else:  # an expression key: kept as raw text
                last = self.balanced_until(",", ")")
                value = text = self.slice(first, last)
            names.append(value)
            texts.append(text)
            if not self.is_punct(","):
                break
            self.take()
        self.punct(")")
        return tuple(names), tuple(texts)

    def balanced_until(self, *stops: str) -> Tok:
        """Consume tokens up to (not including) a depth-0 stop punctuation; return the last one."""
        depth, last = 0, None
        while True:
            tok = self.peek()
            if tok.kind == "eof":
                self.fail('expected ")"')
            if tok.kind == "punct" and depth == 0 and tok.value in stops:
                if last is None:
                    self.fail("expected a value")
                return last
            if self.is_punct("("):
                depth += 1
            elif self.is_punct(")"):
                depth -= 1
            last = self.take()

    def name(self) -> tuple[str, str]:
        tok = self.peek()
        if tok.kind == "ident":
            self.take()
            return truncate_identifier(tok.value), tok.text
        if tok.kind == "qident":
            self.take()
            return truncate_identifier(tok.value), tok.text
        self.fail("expected a name")

    # ---- partitions ---------------------------------------------------------------------
    def partition(self, strategy: PartitionStrategy, sub: PartitionStrategy | None, family: list) -> Partition:
        self.kw("partition")
        name, name_text = self.name()
        body_tok = self.peek()
        bound = self.bound(allow_range_items=strategy is PartitionStrategy.RANGE)
        kind = "start/end" if isinstance(bound, RangeItem) else type(bound).__name__
        expected = {PartitionStrategy.RANGE: ("LessThan", "start/end"), PartitionStrategy.LIST: ("ListValues",),
                    PartitionStrategy.HASH: ("NoneType",)}[strategy]
        if kind not in expected:
            want = {"LessThan": "VALUES LESS THAN (...)", "ListValues": "VALUES (...)", "NoneType": "no bound"}
            self.fail(f"{strategy.value} partition {name_text} needs {want[expected[0]]}", body_tok)
        if family[0] is None:
            family[0] = kind
        elif family[0] != kind:
            self.fail("START/END items cannot be mixed with VALUES LESS THAN items", body_tok)
        tablespace, tablespace_text = self.tablespace()
        subs: list[Partition] = []
        if self.is_punct("(") and sub is not None and kind != "start/end":
            self.take()
            subs.append(self.subpartition(sub))
            while self.is_punct(","):
                self.take()
                subs.append(self.subpartition(sub))
            self.punct(")")
        return Partition(
            name=name,
            bound=bound,
            tablespace=tablespace,
            subpartitions=tuple(subs),
            name_text=name_text,
            tablespace_text=tablespace_text,
            origin=self.path,
        )

    def subpartition(self, sub: PartitionStrategy) -> Partition:
        self.kw("subpartition")
        name, name_text = self.name()
        body_tok = self.peek()
        bound = self.bound(allow_range_items=False)
        want = {PartitionStrategy.RANGE: LessThan, PartitionStrategy.LIST: ListValues,
                PartitionStrategy.HASH: type(None)}[sub]
        if not isinstance(bound, want):
            self.fail(f"subpartition {name_text} does not match SUBPARTITION BY {sub.value}", body_tok)
        tablespace, tablespace_text = self.tablespace()
        return Partition(name=name, bound=bound, tablespace=tablespace, name_text=name_text,
                         tablespace_text=tablespace_text, origin=self.path)

    def tablespace(self) -> tuple[str | None, str]:
        if not self.is_kw("tablespace"):
            return None, ""
        self.take()
        return self.name()

    def bound(self, *, allow_range_items: bool):
        if self.is_kw("values"):
            self.take()
            if self.is_kw("less"):
                self.kw("less", "than")
                return LessThan(values=self.value_list(), origin=self.path)
            return ListValues(values=self.list_values(), origin=self.path)
        if allow_range_items and (self.is_kw("start") or self.is_kw("end")) and self.is_punct("(", 1):
            start = end = every = None
            if self.is_kw("start"):
                self.take()
                start = self.value_list()
            if self.is_kw("end") and self.is_punct("(", 1):
                self.take()
                end = self.value_list()
            if self.is_kw("every") and self.is_punct("(", 1):
                if start is None or end is None:
                    self.fail("EVERY needs both START and END")
                self.take()
                every = self.value_list()
            return RangeItem(start=start, end=end, every=every, origin=self.path)
        return None

    def value_list(self) -> tuple[BoundValue, ...]:
        self.punct("(")
        values = [self.value()]
        while self.is_punct(","):
            self.take()
            values.append(self.value())
        self.punct(")")
        return tuple(values)

    def list_values(self) -> tuple[BoundValue, ...]:
        self.punct("(")
        if self.is_kw("default") and self.is_punct(")", 1):
            tok = self.take()
            self.punct(")")
            return (BoundValue(text=tok.text, kind=BoundKind.DEFAULT, origin=self.path,
                               expr=make_expr(tok.text, tuple(self.path))),)
        values = [self.value(tuples=True)]
        while self.is_punct(","):
            self.take()
            values.append(self.value(tuples=True))
        self.punct(")")
        return tuple(values)

    # ---- values -------------------------------------------------------------------------
    def value(self, *, tuples: bool = False) -> BoundValue:
        first = self.peek()
        if self.is_kw("default"):
            self.fail("DEFAULT is only allowed as VALUES (DEFAULT)")
        val = self.primary(tuples)
        # a cast or an operator turns the value into an expression kept as raw text (parsed once, whole:
        # not again at each operator of a chain)
        last = None
        while self.is_punct("::") or (self.peek().kind == "punct" and self.peek().value in _OPERATORS):
            if self.take().value == "::":
                last = self.type_name()
            else:
                self.primary(False)
                last = self.toks[self.i - 1]
        if last is not None:
            val = _expr_bound(self.slice(first, last), self.path)
        return val

    def primary(self, tuples: bool) -> BoundValue:
        tok = self.peek()
        origin = self.path
        if tok.kind == "punct" and tok.value in ("-", "+") and self.peek(1).kind == "number":
            self.take()
            num = self.take()
            sign = "-" if tok.value == "-" else ""
            return BoundValue(text=self.slice(tok, num), kind=BoundKind.NUMBER, value=sign + num.text, origin=origin)
        if tok.kind == "number":
            self.take()
            return BoundValue(text=tok.text, kind=BoundKind.NUMBER, value=tok.text, origin=origin)
        if tok.kind == "string":
            self.take()
            return BoundValue(text=tok.text, kind=BoundKind.STRING, value=tok.value, origin=origin)
        if tok.kind == "punct" and tok.value == "(":
            if tuples:
                self.take()
                items = [self.value()]
                while self.is_punct(","):
                    self.take()
                    items.append(self.value())
                last = self.punct(")")
                text = self.slice(tok, last)
                return BoundValue(text=text, kind=BoundKind.TUPLE, items=tuple(items), origin=origin,
                                  expr=make_expr(text, tuple(origin)))
            self.take()
            last = self.balanced_until(")")
            last = self.punct(")")
            return _expr_bound(self.slice(tok, last), origin)
        if tok.kind == "ident":
            word = tok.value
            if word == "maxvalue":
                self.take()
                return BoundValue(text=tok.text, kind=BoundKind.MAXVALUE, origin=origin)
            if word == "null":
                self.take()
                return BoundValue(text=tok.text, kind=BoundKind.NULL, origin=origin)
            if word in _TYPED_HEADS:
                typed = self.typed_literal()
                if typed is not None:
                    return typed
            self.take()
            if self.is_punct("("):  # function call
                self.take()
                if not self.is_punct(")"):
                    self.balanced_until(")")
                last = self.punct(")")
                return _expr_bound(self.slice(tok, last), origin)
            return _expr_bound(tok.text, origin)
        if tok.kind == "qident":
            self.take()
            return _expr_bound(tok.text, origin)
        self.fail("expected a value")

    def typed_literal(self) -> BoundValue | None:
        """``DATE '...'``, ``TIMESTAMP[(p)] [WITH[OUT] TIME ZONE] '...'``, ``INTERVAL[(p)] '...' [fields]``.

        Returns None (consuming nothing) when the words are not followed by a string.
        """
        save = self.i
        first = self.take()
        words = [first.value]
        if self.is_punct("(") and self.peek(1).kind == "number" and self.is_punct(")", 2):
            self.take()
            words[0] += f"({self.take().text})"
            self.take()
        if first.value in ("timestamp", "time") and (self.is_kw("with") or self.is_kw("without")):
            words.append(self.take().value)
            if not (self.is_kw("time") and self.is_kw("zone", 1)):
                self.i = save
                return None
            self.take()
            self.take()
            words.append("time zone")
        lit = self.peek()
        if lit.kind != "string":
            self.i = save
            return None
        self.take()
        last, qualifier = lit, ""
        if first.value == "interval":
            qualifier, last = self.interval_qualifier(lit)
        return BoundValue(text=self.slice(first, last), kind=BoundKind.TYPED, value=lit.value,
                          type_name=" ".join(words), qualifier=qualifier, origin=self.path)

    def interval_qualifier(self, last: Tok) -> tuple[str, Tok]:
        parts: list[str] = []
        if self.peek().kind == "ident" and self.peek().value in _INTERVAL_FIELDS:
            parts.append(self.take().value)
            if self.is_kw("to"):
                self.take()
                if not (self.peek().kind == "ident" and self.peek().value in _INTERVAL_FIELDS):
                    self.fail("expected an interval field")
                parts += ["to", self.take().value]
            if parts[-1] == "second" and self.is_punct("(") and self.peek(1).kind == "number":
                self.take()
                parts[-1] += f"({self.take().text})"
                self.punct(")")
            last = self.toks[self.i - 1]
        return " ".join(parts), last

    def type_name(self) -> Tok:
        """The type after ``::``: words, an optional ``(typmod)`` and ``[]``; returns the last token."""
        if self.peek().kind not in ("ident", "qident"):
            self.fail("expected a type name")
        last = self.take()
        while self.peek().kind == "ident" and self.peek().value in (
            "precision", "varying", "with", "without", "time", "zone"
        ):
            last = self.take()
        if self.is_punct("("):
            self.take()
            self.balanced_until(")")
            last = self.punct(")")
        while self.is_punct("[") and self.is_punct("]", 1):
            self.take()
            last = self.take()
        return last


def parse_partition_clause(text: str, *, path: Sequence[PathPart] = ()) -> PartitionSpec:
    """Parse a whole partition clause into a :class:`PartitionSpec`.

    Raises :class:`DdlcError` (code ``E_BUILD``) with ``position`` = 0-based offset of the
    offending character.
    """
    spec = _common_spec(text, tuple(path))
    return spec if spec is not None else _Parser(text, path).clause()


def parse_bound_value(text: str, *, path: Sequence[PathPart] = ()) -> BoundValue:
    """Parse one bound value (``'2024-01-01'``, ``-5``, ``MAXVALUE``, ``INTERVAL '1' DAY`` ...)."""
    common = common_value(text)  # (a number, a plain string, MAXVALUE or NULL by one pattern)
    if common is not None:
        return _bound_value(common, tuple(path))
    parser = _Parser(text, path)
    value = parser.value(tuples=True)
    if parser.peek().kind != "eof":
        parser.fail("expected end of value")
    return value
