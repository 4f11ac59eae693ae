"""The partition clauses of the server's common form, read without the recursive-descent parser.

:func:`common_spec` makes, from the patterns' reading of a clause (:func:`~.partition_tokens.common_clause`),
the :class:`PartitionSpec` that :mod:`.partition`'s parser makes of the same text, or None for any other
text (the parser then reads it and says what is wrong). A partition key column's parsed form is made here
too (:func:`key_expr`, :func:`column_parts`): both readers use it. ``tests/test_throughput_table2.py``
checks the patterns' reading against the parser's, field by field.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ... import lazyre
from ...errors import Path
from ...ir.names import Expr, ParsedSql
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
from .expr import expr_parts, expr_tree, make_expr
from .fragment import check_fragment
from .partition_tokens import common_clause
from .pgparse import pglast_ast
from .refs import name_refs

__all__ = ["COLUMN", "bound_value", "column_parts", "common_spec", "key_expr"]

COLUMN = lazyre.compile(r"[a-z_][a-z0-9_$]{0,62}\Z")  # a bare lower-case name the server keeps as written


def key_expr(text: str, origin: Path) -> Expr:
    """:func:`make_expr` of a partition key; a key column's parsed form (read when a pass asks for it) made
    without PostgreSQL's grammar (:func:`column_parts`)."""
    if COLUMN.match(text) is None:
        return make_expr(text, origin)
    check_fragment(text, origin, "expression")
    return Expr(text, origin=origin, sql=ParsedSql.later("expr", text, column_tree, column_refs))


def column_parts(text: str) -> tuple[Any, Any, bool]:
    """:func:`~.expr.expr_parts` of a key: for a bare lower-case name that is no keyword, the ``ColumnRef``
    PostgreSQL's grammar reads in ``SELECT <name>``, no reference, as written."""
    if COLUMN.match(text) is None or text in _keywords():
        return expr_parts(text)
    ast = pglast_ast()
    return ast.ColumnRef(fields=(ast.String(sval=text),), location=7), (), True


def column_tree(text: str) -> tuple[Any, bool]:
    """``(tree, verbatim)`` of :func:`column_parts` (its references: :func:`column_refs`, when read)."""
    if COLUMN.match(text) is None or text in _keywords():
        return expr_tree(text)
    ast = pglast_ast()
    return ast.ColumnRef(fields=(ast.String(sval=text),), location=7), True


def column_refs(text: str) -> tuple[Any, ...] | None:
    """The references of :func:`column_parts`."""
    if COLUMN.match(text) is None or text in _keywords():
        return name_refs(text)
    return ()


@lru_cache(maxsize=1)
def _keywords() -> frozenset[str]:
    from pglast import keywords as pg

    return frozenset((*pg.RESERVED_KEYWORDS, *pg.COL_NAME_KEYWORDS, *pg.TYPE_FUNC_NAME_KEYWORDS,
                      *pg.UNRESERVED_KEYWORDS))


_BOUNDS = {"range": "less", "list": "list", "hash": ""}  # the bound each strategy's items have
_STRATEGIES = {"range": PartitionStrategy.RANGE, "list": PartitionStrategy.LIST, "hash": PartitionStrategy.HASH}
_BOUND_KINDS = {"number": BoundKind.NUMBER, "string": BoundKind.STRING, "maxvalue": BoundKind.MAXVALUE,
                "null": BoundKind.NULL}


def common_spec(text: str, path: Path) -> PartitionSpec | None:
    """What :class:`_Parser` makes of a clause of the common form (:func:`~.partition_tokens.common_clause`)
    whose items fit its strategies, made from the patterns' reading; None for any other text (the parser
    reads it, and says what is wrong)."""
    got = common_clause(text, True)
    if got is None:
        return None
    strategy, keys, interval, sub, items, movement = got
    bound, sub_bound = _BOUNDS[strategy], None
    if bound == "less" and items[0][2] == "range":  # range items (START/END/EVERY): the list's family, none mixed
        bound = "range"
    parts: dict[str, Any] = {}
    if interval is not None:
        if strategy != "range" or interval[0] == "default":
            return None
        parts["interval"] = bound_value(interval, path)
    if sub is not None:
        if len(sub[1]) != 1:
            return None
        sub_bound = _BOUNDS[sub[0]]
        parts["sub_strategy"] = _STRATEGIES[sub[0]]
        parts["sub_key"] = (truncate_identifier(sub[1][0][1]),)
        parts["sub_key_text"] = (sub[1][0][0],)
    partitions = []
    for item in items:
        if item[2] != bound:
            return None
        subs: tuple[Partition, ...] = ()
        if item[6] is not None:
            if sub_bound is None:
                return None
            made = []
            for s in item[6]:
                if s[2] != sub_bound:
                    return None
                p = _common_partition(s, (), path)
                if p is None:
                    return None
                made.append(p)
            subs = tuple(made)
        p = _common_partition(item, subs, path)
        if p is None:
            return None
        partitions.append(p)
    if movement is not None:
        parts["row_movement"] = movement == "enable"
    key_text = tuple(k[0] for k in keys)
    key_exprs = tuple(key_expr(t, path) for t in key_text)  # (the parser's order: a fragment's error first)
    if sub is not None:
        parts["sub_key_exprs"] = (key_expr(parts["sub_key_text"][0], path),)
    return PartitionSpec(
        strategy=_STRATEGIES[strategy],
        key=tuple(truncate_identifier(k[1]) for k in keys),
        key_text=key_text,
        key_exprs=key_exprs,
        partitions=tuple(partitions),
        has_list=True,
        origin=path,
        **parts,
    )


def bound_value(v: tuple[str, str, str], path: Path) -> BoundValue:
    kind, text, value = v
    if kind == "number" or kind == "string":
        return BoundValue(text=text, kind=_BOUND_KINDS[kind], value=value, origin=path)
    return BoundValue(text=text, kind=_BOUND_KINDS[kind], origin=path)


def _range_values(values: Any, path: Path) -> tuple[BoundValue, ...]:
    """A range item's value list (the parser's value_list); ``()`` when one of them is DEFAULT, which it refuses."""
    out = []
    for v in values:
        if v[0] == "default":
            return ()
        out.append(bound_value(v, path))
    return tuple(out)


def _common_partition(item: Any, subs: tuple[Partition, ...], path: Path) -> Partition | None:
    written, name, bound, values, space, space_text, _ = item
    if bound == "range":
        start, end, every = values
        made: Any = RangeItem(start=None if start is None else _range_values(start, path),
                              end=None if end is None else _range_values(end, path),
                              every=None if every is None else _range_values(every, path), origin=path)
        if made.start == () or made.end == () or made.every == ():
            return None  # (a DEFAULT among them: the parser refuses it)
    elif bound:
        out = []
        for kind, vtext, value in values:
            if kind == "default":
                if bound == "less" or len(values) != 1:
                    return None  # (the parser refuses DEFAULT there)
                out.append(BoundValue(text=vtext, kind=BoundKind.DEFAULT, origin=path, expr=make_expr(vtext, path)))
            else:
                out.append(bound_value((kind, vtext, value), path))
        made = LessThan(values=tuple(out), origin=path) if bound == "less" else ListValues(values=tuple(out), origin=path)
    else:
        made = None
    return Partition(
        name=truncate_identifier(name),
        bound=made,
        tablespace=None if space is None else truncate_identifier(space),
        subpartitions=subs,
        name_text=written,
        tablespace_text=space_text,
        origin=path,
    )
