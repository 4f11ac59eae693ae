"""A direct printer for the common pglast 8.8 nodes of queries and expressions (issue 26).

:class:`~.pgprint.FastRawStream` runs pglast's own printers (``pglast/printers/dml.py``): each node costs a
``print_node`` through the printers' registry, the ancestor chains they read (``sqltree.populate_ancestors``,
made for the whole tree first), context managers for parentheses and expression contexts, and the generic
precedence tests of ``pglast.precedence``. This module prints the same text for the node classes of
:data:`PRINTERS` with one function per class, which appends to a list and decides what pglast's printer
decides, in the same order, with the same spacing rule (``OutputStream.write`` / ``swrite`` /
``separator``: :class:`_Out`). It has no ancestor chains: a printer that depends on its parent's class is
given it by the printer calling it (a ``WindowDef`` under a ``FuncCall``, a ``SelectStmt`` under a
``RangeSubselect``).

Anything it does not cover (another node class, a field value outside what it mirrors, a special function
such as ``pg_catalog.extract`` in its SQL syntax) raises, and :func:`~.writer.pg_deparse` prints the whole
tree with ``FastRawStream`` instead: a text made here is always a complete one. Names and string literals
go through the same quoting functions as there (:func:`.pgprint.quote_name`; the literal function
:func:`~.writer.pg_deparse` hands in, ddlc's ``pg_literal``).

Only the pglast release of :data:`.pgprint.CHECKED_RELEASES` uses it, and only when the printers
registered for its classes are the ones it mirrors (:func:`ready`). ``tests/test_throughput_print2.py``
compares it with ``FastRawStream`` on every tree and node the fixtures print or parse, generated queries,
45 further forms and hostile names and literals. (Checked once by hand beyond the fixtures, not kept here: the
401,375 nodes of PostgreSQL's regression SQL files it prints, each the text ``FastRawStream`` prints.)

Besides the printing itself, no ancestor chains means no reference cycles on the IR's trees (a chain's
``Ancestor`` holds the parent, which holds the child): the collector walked those on every collection while the
SQL layer's caches kept the trees, ~140 of the ~455 µs of a view document to PostgreSQL (the family measured
with the collector off: 314 µs).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pglast import ast, enums
from pglast.printers import NODE_PRINTERS, dml

from . import pgdirect_exprs
from .pgprint import quote_name
from .pgdirect_base import (_K, BY_PARENT, PRINTERS, _list, _name, _names, _node, _Out, _paren_node, _sep, _sw,
                            _swrites, _symbol, _Unsure, _w, _writes)

_SETOP_NONE = enums.SetOperation.SETOP_NONE  # (read once: on Python 3.11 a read through an Enum class goes through a hook)


def _res_target(o: _Out, node: Any) -> None:
    if node.indirection:
        raise _Unsure("indirection")
    if node.val:
        _node(o, node.val, ast.ResTarget)
        name = node.name
        if name:
            if type(name) is not str:
                raise _Unsure("name")
            _w(o, " AS " + quote_name(name))  # (_w(" AS ") and _name at once: " AS " takes no space before it)
            if not o.lec.isspace():
                o.pend = True
    else:
        _name(o, node.name)


def _range_var(o: _Out, node: Any) -> None:
    if not node.inh:
        _w(o, "ONLY ")
    # print_name of each part, "." after each qualifier: written at once (a dot is never spaced, nor what follows it)
    name = _quoted(node.relname)
    if node.schemaname:
        name = _quoted(node.schemaname) + "." + name
    if node.catalogname:
        name = _quoted(node.catalogname) + "." + name
    _w(o, name)
    if not o.lec.isspace():  # (_sep)
        o.pend = True
    alias = node.alias
    if alias:
        _w(o, " AS ")
        _alias_name(o, alias)


def _quoted(name: Any) -> str:
    if type(name) is not str:
        raise _Unsure("name")
    return quote_name(name)


def _alias_name(o: _Out, alias: Any) -> None:
    """``print_name(alias)`` of an ``Alias`` node (``print_node(is_name=True)``, then a separator)."""
    if type(alias) is not ast.Alias:
        raise _Unsure("alias")
    _alias(o, alias)
    _sep(o)
    _sep(o)


def _alias(o: _Out, node: Any) -> None:
    _name(o, node.aliasname)
    if node.colnames:
        _w(o, " ")
        _w(o, "(")
        if type(node.colnames) is not tuple:
            raise _Unsure("colnames")
        _names(o, node.colnames, ",")
        _sep(o)
        _w(o, ")")


def _func_call_window_def(o: _Out, node: Any) -> None:
    if node.name:
        _name(o, node.name)
    else:
        _window_def(o, node)


_F = enums  # (the FRAMEOPTION_ bits)


def _window_def(o: _Out, node: Any) -> None:
    if node.name:
        _name(o, node.name)
        _w(o, " AS ")
    _w(o, "(")
    if node.refname:
        _name(o, node.refname)
    if node.partitionClause:
        _w(o, "PARTITION BY ")
        _list(o, node.partitionClause, ast.WindowDef)
    if node.orderClause:
        if node.partitionClause:
            _sep(o)
        _w(o, "ORDER BY ")
        _list(o, node.orderClause, ast.WindowDef)
    fo = node.frameOptions
    if fo & _F.FRAMEOPTION_NONDEFAULT:
        if node.partitionClause or node.orderClause:
            _sep(o)
        if fo & _F.FRAMEOPTION_RANGE:
            _writes(o, "RANGE")
        elif fo & _F.FRAMEOPTION_ROWS:
            _writes(o, "ROWS")
        elif fo & _F.FRAMEOPTION_GROUPS:
            _writes(o, "GROUPS")
        if fo & _F.FRAMEOPTION_BETWEEN:
            _writes(o, "BETWEEN")
        if fo & _F.FRAMEOPTION_START_UNBOUNDED_PRECEDING:
            _writes(o, "UNBOUNDED PRECEDING")
        elif fo & _F.FRAMEOPTION_START_UNBOUNDED_FOLLOWING:
            raise _Unsure("frame")
        elif fo & _F.FRAMEOPTION_START_CURRENT_ROW:
            _writes(o, "CURRENT ROW")
        elif fo & _F.FRAMEOPTION_START_OFFSET_PRECEDING:
            _node(o, node.startOffset, ast.WindowDef)
            _swrites(o, "PRECEDING")
        elif fo & _F.FRAMEOPTION_START_OFFSET_FOLLOWING:
            _node(o, node.startOffset, ast.WindowDef)
            _swrites(o, "FOLLOWING")
        if fo & _F.FRAMEOPTION_BETWEEN:
            _writes(o, "AND")
            if fo & _F.FRAMEOPTION_END_UNBOUNDED_PRECEDING:
                raise _Unsure("frame")
            elif fo & _F.FRAMEOPTION_END_UNBOUNDED_FOLLOWING:
                _writes(o, "UNBOUNDED FOLLOWING")
            elif fo & _F.FRAMEOPTION_END_CURRENT_ROW:
                _writes(o, "CURRENT ROW")
            elif fo & _F.FRAMEOPTION_END_OFFSET_PRECEDING:
                _node(o, node.endOffset, ast.WindowDef)
                _swrites(o, "PRECEDING")
            elif fo & _F.FRAMEOPTION_END_OFFSET_FOLLOWING:
                _node(o, node.endOffset, ast.WindowDef)
                _swrites(o, "FOLLOWING")
        if fo & _F.FRAMEOPTION_EXCLUDE_CURRENT_ROW:
            _sw(o, "EXCLUDE CURRENT ROW")
        elif fo & _F.FRAMEOPTION_EXCLUDE_GROUP:
            _sw(o, "EXCLUDE GROUP")
        elif fo & _F.FRAMEOPTION_EXCLUDE_TIES:
            _sw(o, "EXCLUDE TIES")
    _w(o, ")")


def _wrapped(node: Any) -> bool:
    """``_select_needs_to_be_wrapped_in_parens``."""
    return bool(node.sortClause or node.limitCount or node.limitOffset or node.lockingClause
                or node.withClause or node.op != _SETOP_NONE)


def _select_stmt(o: _Out, node: Any, in_range_subselect: bool = False) -> None:
    so = enums.SetOperation
    if node.withClause:
        _w(o, "WITH ")
        _node(o, node.withClause, ast.SelectStmt)
        if not o.lec.isspace():  # (_sep twice: once is the same)
            o.pend = True
    if node.valuesLists:
        if type(node.valuesLists) is not tuple:
            raise _Unsure("valuesLists")
        if in_range_subselect:
            _w(o, "(")
        _w(o, "VALUES ")
        _w(o, "(")  # print_lists
        first = True
        for lst in node.valuesLists:
            if first:
                first = False
            else:
                if not o.lec.isspace():  # (_sep)
                    o.pend = True
                _w(o, ",")
                _w(o, " ")
                _w(o, "(")
            _list(o, lst, ast.SelectStmt)
            _w(o, ")")
        if in_range_subselect:
            _w(o, ")")
    elif node.op != _SETOP_NONE and (node.larg or node.rarg):
        if node.larg:
            _maybe_paren_select(o, node.larg)
        if not o.lec.isspace():  # (_sep twice: once is the same)
            o.pend = True
        if node.op == so.SETOP_UNION:
            _w(o, "UNION")
        elif node.op == so.SETOP_INTERSECT:
            _w(o, "INTERSECT")
        elif node.op == so.SETOP_EXCEPT:
            _w(o, "EXCEPT")
        if node.all:
            _w(o, " ALL")
        if not o.lec.isspace():  # (_sep twice: once is the same)
            o.pend = True
        if node.rarg:
            _maybe_paren_select(o, node.rarg)
            if node.sortClause or node.limitCount or node.limitOffset or node.lockingClause:
                if not o.lec.isspace():  # (_sep)
                    o.pend = True
    else:
        _w(o, "SELECT")
        if node.distinctClause:
            _w(o, " DISTINCT")
            if node.distinctClause[0]:
                _w(o, " ON ")
                _w(o, "(")
                _list(o, node.distinctClause, ast.SelectStmt)
                _w(o, ")")
        if node.targetList:
            _w(o, " ")
            _list(o, node.targetList, ast.SelectStmt)
        if node.intoClause:
            raise _Unsure("intoClause")
        if node.fromClause:
            if not o.lec.isspace():  # (_sep)
                o.pend = True
            _w(o, "FROM ")
            _list(o, node.fromClause, ast.SelectStmt)
        if node.whereClause:
            if not o.lec.isspace():  # (_sep)
                o.pend = True
            _w(o, "WHERE ")
            _node(o, node.whereClause, ast.SelectStmt)
        if node.groupClause:
            if not o.lec.isspace():  # (_sep)
                o.pend = True
            _w(o, "GROUP BY ")
            if node.groupDistinct:
                _w(o, "DISTINCT ")
            _list(o, node.groupClause, ast.SelectStmt)
        if node.havingClause:
            if not o.lec.isspace():  # (_sep)
                o.pend = True
            _w(o, "HAVING ")
            _node(o, node.havingClause, ast.SelectStmt)
        if node.windowClause:
            if not o.lec.isspace():  # (_sep)
                o.pend = True
            _w(o, "WINDOW ")
            _list(o, node.windowClause, ast.SelectStmt)
    if node.sortClause:
        if not o.lec.isspace():  # (_sep)
            o.pend = True
        _w(o, "ORDER BY ")
        _list(o, node.sortClause, ast.SelectStmt)
    if node.limitCount:
        if not o.lec.isspace():  # (_sep)
            o.pend = True
        option = node.limitOption
        if option == enums.LimitOption.LIMIT_OPTION_COUNT:
            _w(o, "LIMIT ")
        elif option == enums.LimitOption.LIMIT_OPTION_WITH_TIES:
            _w(o, "FETCH FIRST ")
        count = node.limitCount
        if isinstance(count, ast.A_Const) and count.isnull:
            _w(o, "ALL")
        elif isinstance(count, ast.A_Expr) and count.kind == _K.AEXPR_OP:
            _paren_node(o, count, ast.SelectStmt)
        else:
            _node(o, count, ast.SelectStmt)
        if option == enums.LimitOption.LIMIT_OPTION_WITH_TIES:
            _w(o, " ROWS WITH TIES ")
    if node.limitOffset:
        if not o.lec.isspace():  # (_sep)
            o.pend = True
        _w(o, "OFFSET ")
        _node(o, node.limitOffset, ast.SelectStmt)
    if node.lockingClause:
        raise _Unsure("lockingClause")


def _maybe_paren_select(o: _Out, node: Any) -> None:
    if type(node) is not ast.SelectStmt:
        raise _Unsure("set operation")
    if _wrapped(node):
        _paren_node(o, node, ast.SelectStmt)
    else:
        _node(o, node, ast.SelectStmt)


def _join_expr(o: _Out, node: Any) -> None:
    jt = enums.JoinType
    alias = node.alias
    if alias:
        _w(o, "(")
    _node(o, node.larg, ast.JoinExpr)
    _sep(o)
    if node.isNatural:
        _w(o, "NATURAL ")
    kind = node.jointype
    if kind == jt.JOIN_INNER:
        _w(o, "CROSS" if not node.usingClause and not node.quals and not node.isNatural else "INNER")
    elif kind == jt.JOIN_LEFT:
        _w(o, "LEFT")
    elif kind == jt.JOIN_FULL:
        _w(o, "FULL")
    elif kind == jt.JOIN_RIGHT:
        _w(o, "RIGHT")
    else:
        raise _Unsure(str(kind))
    _sw(o, "JOIN ")
    rarg = node.rarg
    if isinstance(rarg, ast.JoinExpr):
        if not rarg.alias:
            _paren_node(o, rarg, ast.JoinExpr)
        else:
            _node(o, rarg, ast.JoinExpr)
        _sep(o)
    else:
        _node(o, rarg, ast.JoinExpr)
    if node.usingClause:
        _sw(o, "USING ")
        _w(o, "(")
        if type(node.usingClause) is not tuple:
            raise _Unsure("usingClause")
        _names(o, node.usingClause, ",")
        _sep(o)
        _w(o, ")")
        if node.join_using_alias:
            _w(o, " AS ")
            _node(o, node.join_using_alias, ast.JoinExpr)
    elif node.quals:
        _sw(o, "ON ")
        _node(o, node.quals, ast.JoinExpr)
    if alias:
        _w(o, ")")
        _writes(o, " AS ")
        _alias_name(o, alias)


def _range_subselect(o: _Out, node: Any) -> None:
    if node.lateral:
        _w(o, "LATERAL")
    lec = o.lec  # maybe_write_space()
    if not lec.isspace() and lec != "(":
        _w(o, " ")
    _paren_node(o, node.subquery, ast.RangeSubselect)
    if node.alias:
        _w(o, " AS ")
        _alias_name(o, node.alias)


def _range_function(o: _Out, node: Any) -> None:
    if node.lateral:
        _w(o, "LATERAL ")
    if node.is_rowsfrom:
        _w(o, "ROWS FROM ")
        _w(o, "(")
    if type(node.functions) is not tuple:
        raise _Unsure("functions")
    first = True
    for item in node.functions:
        if type(item) is not tuple or len(item) != 2 or item[1]:
            raise _Unsure("functions")
        if first:
            first = False
        else:
            _w(o, ", ")
        _node(o, item[0], ast.RangeFunction)
    if node.is_rowsfrom:
        _w(o, ")")
    if node.ordinality:
        _w(o, " WITH ORDINALITY")
    if node.alias:
        _w(o, " AS ")
        _node(o, node.alias, ast.RangeFunction)
    if node.coldeflist:
        raise _Unsure("coldeflist")


def _sort_by(o: _Out, node: Any) -> None:
    _node(o, node.node, ast.SortBy)
    d = node.sortby_dir
    if d == enums.SortByDir.SORTBY_ASC:
        _sw(o, "ASC")
    elif d == enums.SortByDir.SORTBY_DESC:
        _sw(o, "DESC")
    elif d == enums.SortByDir.SORTBY_USING:
        _sw(o, "USING ")
        _symbol(o, node.useOp)
    nulls = node.sortby_nulls
    if nulls != enums.SortByNulls.SORTBY_NULLS_DEFAULT:
        _sw(o, "NULLS ")
        _w(o, "FIRST" if nulls == enums.SortByNulls.SORTBY_NULLS_FIRST else "LAST")


def _with_clause(o: _Out, node: Any) -> None:
    if node.recursive:
        _w(o, "RECURSIVE")
        _sep(o)
        _sep(o)
    _list(o, node.ctes, ast.WithClause)


def _common_table_expr(o: _Out, node: Any) -> None:
    if node.search_clause or node.cycle_clause:
        raise _Unsure("CTE clause")
    _name(o, node.ctename)
    if node.aliascolnames:
        _w(o, "(")
        if len(node.aliascolnames) > 1:
            _sep(o)
        if type(node.aliascolnames) is not tuple:
            raise _Unsure("aliascolnames")
        _names(o, node.aliascolnames, ",")
        _sep(o)
        _w(o, ")")
    _sw(o, "AS")
    m = node.ctematerialized
    if type(m) is not enums.CTEMaterialize:  # (as in pgdirect_exprs._a_expr: pglast's IntEnumPrinter)
        raise _Unsure("ctematerialized")
    if m == enums.CTEMaterialize.CTEMaterializeAlways:
        _w(o, " MATERIALIZED")
    elif m == enums.CTEMaterialize.CTEMaterializeNever:
        _w(o, " NOT MATERIALIZED")
    elif m != enums.CTEMaterialize.CTEMaterializeDefault:
        raise _Unsure(str(m))
    _w(o, " ")
    _w(o, "(")
    _sep(o)
    _node(o, node.ctequery, ast.CommonTableExpr)
    _sep(o)
    _w(o, ")")


def _raw_stmt(o: _Out, node: Any) -> None:
    if node.stmt is not None:
        _node(o, node.stmt, ast.RawStmt)


# class -> (this module's printer, the pglast printer it mirrors)
_MIRRORS: dict[type, tuple[Callable[[_Out, Any], None], Any]] = {
    ast.CommonTableExpr: (_common_table_expr, dml.common_table_expr),
    ast.JoinExpr: (_join_expr, dml.join_expr),
    ast.RangeFunction: (_range_function, dml.range_function),
    ast.RangeSubselect: (_range_subselect, dml.range_subselect),
    ast.RangeVar: (_range_var, dml.range_var),
    ast.RawStmt: (_raw_stmt, dml.raw_stmt),
    ast.ResTarget: (_res_target, dml.res_target),
    ast.SelectStmt: (_select_stmt, dml.select_stmt),
    ast.SortBy: (_sort_by, dml.sort_by),
    ast.WindowDef: (_window_def, dml.window_def),
    ast.WithClause: (_with_clause, dml.with_clause),
    ast.Alias: (_alias, dml.alias),
}
_MIRRORS.update(pgdirect_exprs.MIRRORS)
PRINTERS.update({cls: mine for cls, (mine, _) in _MIRRORS.items()})
BY_PARENT[(ast.FuncCall, ast.WindowDef)] = _func_call_window_def
BY_PARENT[(ast.RangeSubselect, ast.SelectStmt)] = lambda o, node: _select_stmt(o, node, True)


def ready() -> bool:
    """Whether pglast's registry holds, for every class of :data:`PRINTERS`, the printer it mirrors, and no
    printer per parent for these classes but those :func:`_node` knows (``WindowDef`` under ``FuncCall``; the
    others under classes this module does not print)."""
    if any(NODE_PRINTERS.get(cls) is not theirs for cls, (_, theirs) in _MIRRORS.items()):
        return False
    if NODE_PRINTERS.get((ast.FuncCall, ast.WindowDef)) is not dml.func_call_window_def:
        return False
    return not any(type(k) is tuple and k[0] in PRINTERS and k[1] in PRINTERS and k != (ast.FuncCall, ast.WindowDef)
                   for k in NODE_PRINTERS)


def deparse(node: Any, literal: Callable[[str], str], types: Mapping[int, Any] | None = None) -> str:
    """The text pglast's ``RawStream`` (with ``literal`` as its ``write_quoted_string``) prints for the node
    ``node``; ``types``: ``id`` of a node of the tree (a ``TypeName``, a rewritten call) -> the node printed in
    its place (:func:`~.pgdirect_base._node`). Raises for
    anything not covered (the caller prints with pglast's printers then)."""
    o = _Out(literal, types)
    if type(node) is ast.RawStmt and node.stmt is None:
        return ""
    _node(o, node)
    return "".join(o.parts)


__all__ = ["PRINTERS", "deparse", "ready"]
