"""The output state and the shared steps of :mod:`.pgdirect` (issue 26): pglast 8.8's ``OutputStream`` spacing
rule (``write``, ``swrite``, ``separator``), ``print_node`` / ``print_list`` / ``print_name`` / ``print_symbol``
for the printers of :mod:`.pgdirect_exprs` and :mod:`.pgdirect`, and ``print_operand`` with
``pglast.precedence``'s rules (pglast's own functions for what is not computed here). The printers register
themselves in :data:`PRINTERS` and :data:`BY_PARENT`; :mod:`.pgdirect` says what the whole is for."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pglast import ast, enums
from pglast.precedence import ExprPrec, expr_precedence, is_b_expr_rule
from pglast.printers import NODE_PRINTERS
from pglast.stream import RawStream

from .pgprint import _QUOTED_WORDS, quote_name

_SPECIAL = frozenset("""_*+/-"'=<>$@""")  # OutputStream.maybe_write_space's special characters


_ATOMS = (ast.A_Const, ast.ColumnRef, ast.SetToDefault, ast.RangeVar)  # RawStream.print_list's test
_PROXY = RawStream()  # (pglast's precedence functions ask a stream for its special functions: the default's)


class _Out:
    """pglast's ``OutputStream`` state: the text so far, its last character, a pending separator; and
    ``RawStream.expr_context``. ``literal`` writes a string constant (``write_quoted_string``); ``types``
    maps ``id`` of a node (a ``TypeName``, a rewritten call) to the node printed in its place."""

    __slots__ = ("parts", "lec", "pend", "ctx", "literal", "types")

    def __init__(self, literal: Callable[[str], str], types: Mapping[int, Any] | None) -> None:
        self.parts: list[str] = []
        self.lec = " "
        self.pend = False
        self.ctx = _A_EXPR
        self.literal = literal
        self.types = types


def _w(o: _Out, s: str) -> None:
    """``OutputStream.write``."""
    if s:
        if o.pend:
            o.pend = False
            if s != " ":
                lec = o.lec
                if lec != "(" and not lec.isspace():
                    c = s[0]
                    if c.isalnum() or c in _SPECIAL:
                        o.parts.append(" ")
        o.parts.append(s)
        o.lec = s[-1]


def _sw(o: _Out, s: str) -> None:
    """``OutputStream.swrite``: a space first where ``maybe_write_space`` writes one."""
    lec = o.lec
    if lec != "(" and not lec.isspace():
        c = s[0]
        if c.isalnum() or c in _SPECIAL:
            o.pend = False
            o.parts.append(" ")
            o.lec = " "
    _w(o, s)


def _sep(o: _Out) -> None:
    """``OutputStream.separator`` (and ``RawStream.newline`` / ``space``)."""
    if not o.lec.isspace():
        o.pend = True


def _writes(o: _Out, s: str) -> None:
    _w(o, s)
    _sep(o)


def _swrites(o: _Out, s: str) -> None:
    _sw(o, s)
    _sep(o)


class _Unsure(Exception):
    """A node class or value this module does not mirror: the tree is printed by pglast's printers."""


def _node(o: _Out, node: Any, parent: type | None = None) -> None:
    """``print_node``: ``parent`` is the class of the nearest node holding ``node``, for the printers that
    depend on it (:data:`BY_PARENT`; any other pair pglast registers a printer for is not covered)."""
    types = o.types
    if types is not None:  # (a node printed in the place of this one: a mapped type, a rewritten call)
        node = types.get(id(node), node)
    cls = type(node)
    fn = PRINTERS.get(cls)
    if fn is None:
        raise _Unsure(cls.__name__)
    if cls in _WATCH:
        special = BY_PARENT.get((parent, cls))
        if special is not None:
            fn = special
        elif (parent, cls) in NODE_PRINTERS:
            raise _Unsure(cls.__name__)
    fn(o, node)
    if not o.lec.isspace():
        o.pend = True


def _items(o: _Out, items: Any, sep: str, parent: type, newline: bool = False,
           parens: Callable[[Any], bool] | None = None) -> None:
    """``RawStream._print_items`` of nodes (not names): ``newline`` the list's ``standalone_items``."""
    if type(items) is not tuple:  # (a node where a list is: pglast's len() fails, iterating a node gives its slots)
        raise _Unsure("list")
    first = True
    for item in items:
        if first:
            first = False
        else:
            if newline and not o.lec.isspace():
                o.pend = True
            if sep == ",":
                _w(o, ", ")  # (swrite(","): never a space before a comma; then the space)
            elif sep:
                _sw(o, sep)
                if sep != ".":
                    _w(o, " ")
        if item is None:
            raise _Unsure("None")
        if parens is not None and parens(item):
            _w(o, "(")
            _node(o, item, parent)
            _w(o, ")")
        else:
            _node(o, item, parent)


def _list(o: _Out, items: Any, parent: type, sep: str = ",") -> None:
    """``print_list(items, sep)``: whether each item stands alone only matters without a separator."""
    _items(o, items, sep, parent, not sep and not all(isinstance(n, _ATOMS) for n in items))


def _name(o: _Out, value: Any, nodes: bool = False) -> None:
    """``print_name`` of a string, or (``nodes``: the value of a slot that holds nodes) of a tuple of ``String``
    nodes (dotted); then a separator. (A node in a slot that holds a string is not printed here: pglast's
    printers read its ancestors, which ddlc's walk, ``sqltree.populate_ancestors``, sets only in node slots.)"""
    if type(value) is str:
        _w(o, quote_name(value))
    elif nodes and type(value) is tuple:
        _w(o, _dotted(value))
    else:
        raise _Unsure("name")
    _sep(o)


def _dotted(items: tuple, symbol: bool = False) -> str:
    """What ``print_list(items, ".", are_names=True, is_symbol=symbol)`` writes for ``String`` nodes (and
    ``A_Star``): each name quoted (an operator's last part as it is), joined by dots. (A dot is never
    spaced, and a name after it never either: the text is the same written at once, and so is what is
    last written.)"""
    if type(items) is not tuple:  # (a string: pglast's print_name quotes it whole, ``""`` for an empty one)
        raise _Unsure("name")
    if len(items) == 2 and not symbol:  # (the common ``a.b``: the loop's steps at once, quote_name's test inline)
        a, b = items
        if type(a) is ast.String and type(b) is ast.String:
            a, b = a.sval, b.sval
            if type(a) is str and type(b) is str:
                if not (a.isascii() and a.islower() and a.isidentifier()) or a in _QUOTED_WORDS:
                    a = quote_name(a)
                if not (b.isascii() and b.islower() and b.isidentifier()) or b in _QUOTED_WORDS:
                    b = quote_name(b)
                return a + "." + b
    parts = []
    last = len(items) - 1
    for i, item in enumerate(items):
        cls = type(item)
        if cls is ast.String and type(item.sval) is str:
            parts.append(item.sval if symbol and i == last else quote_name(item.sval))
        elif cls is ast.A_Star:
            parts.append("*")
        else:
            raise _Unsure("name")
    return ".".join(parts)


def _names(o: _Out, items: tuple, sep: str) -> None:
    """``print_list(items, sep, are_names=True)`` of ``String`` nodes (a list of names: ``a, b``)."""
    first = True
    for item in items:
        if first:
            first = False
        else:
            _w(o, sep + " ")  # (as in _items: a comma is never spaced)
        if type(item) is not ast.String or type(item.sval) is not str:
            raise _Unsure("name")
        _w(o, quote_name(item.sval))
        if not o.lec.isspace():
            o.pend = True


def _symbol(o: _Out, name: Any) -> None:
    """``print_symbol`` of an operator's name (a tuple of ``String``)."""
    if type(name) is not tuple:
        raise _Unsure("symbol")
    _w(o, _dotted(name, True))
    _sep(o)


def _paren_node(o: _Out, node: Any, parent: type) -> None:
    _w(o, "(")
    _node(o, node, parent)
    _w(o, ")")


# ---- precedence (pglast.precedence, for a stream without special functions) ---------------------------
_A_EXPR, _B_EXPR = 0, 1  # ExprContext.A_EXPR, B_EXPR (values)
_K = enums.A_Expr_Kind
_OPP = {"+": ExprPrec.ADD, "-": ExprPrec.ADD, "*": ExprPrec.MUL, "/": ExprPrec.MUL, "%": ExprPrec.MUL,
        "^": ExprPrec.EXP, "<": ExprPrec.COMPARISON, ">": ExprPrec.COMPARISON, "=": ExprPrec.COMPARISON,
        "<=": ExprPrec.COMPARISON, ">=": ExprPrec.COMPARISON, "<>": ExprPrec.COMPARISON,
        "!=": ExprPrec.COMPARISON}
# (enum members read once: on Python 3.11 a read through an Enum class goes through a hook, ~800 instructions)
_ATOM, _OP, _ADD, _UMINUS = ExprPrec.ATOM, ExprPrec.OP, ExprPrec.ADD, ExprPrec.UMINUS
_AEXPR_OP = _K.AEXPR_OP


_ATOMIC = frozenset({ast.A_Const, ast.ColumnRef, ast.TypeCast, ast.FuncCall, ast.CaseExpr, ast.CoalesceExpr,
                     ast.MinMaxExpr, ast.RowExpr, ast.A_ArrayExpr, ast.ParamRef, ast.SQLValueFunction,
                     ast.SetToDefault, ast.Integer, ast.Float, ast.String, ast.Boolean})


def _prec(node: Any) -> int:
    """``expr_precedence`` (pglast's own for what it does not cover)."""
    cls = type(node)
    if cls in _ATOMIC:
        return _ATOM
    if cls is ast.A_Expr and node.kind == _AEXPR_OP:
        name = node.name
        op = name[0].sval if type(name) is tuple and len(name) == 1 and type(name[0]) is ast.String else None
        p = _OP if op is None else _OPP.get(op, _OP)
        if node.lexpr is None:
            return _UMINUS if p == _ADD else _OP
        return p
    return expr_precedence(node, _PROXY)


def _b_expr(node: Any) -> bool:
    """``is_b_expr_rule``."""
    if type(node) in _ATOMIC:
        return True
    return is_b_expr_rule(node, _PROXY)


def _comparison_form(node: Any) -> bool:
    """``is_subquery_comparison_form``."""
    cls = type(node)
    if cls is ast.A_Expr:
        return node.kind in (_K.AEXPR_OP_ANY, _K.AEXPR_OP_ALL, _K.AEXPR_IN)
    if cls is ast.SubLink:
        return node.subLinkType in (enums.SubLinkType.ANY_SUBLINK, enums.SubLinkType.ALL_SUBLINK)
    return False


def _operand(o: _Out, node: Any, parent_prec: int, right: bool, parent: type, ctx: int | None = None) -> None:
    """``print_operand``: parentheses when precedence and position (or a ``b_expr`` context) ask for them."""
    if ctx is None:
        ctx = o.ctx
    prec = _prec(node)
    if not right and prec == parent_prec and _comparison_form(node):
        parens = False
    elif prec != parent_prec:
        parens = prec < parent_prec
    elif parent_prec in (ExprPrec.IS, ExprPrec.COMPARISON, ExprPrec.BETWEEN):
        parens = True
    elif parent_prec in (ExprPrec.NOT, ExprPrec.UMINUS):
        parens = False
    else:
        parens = right
    if not parens and ctx != _A_EXPR and not _b_expr(node):
        parens = True
    before = o.ctx
    o.ctx = _A_EXPR if parens else ctx
    try:
        if parens:
            _paren_node(o, node, parent)
        else:
            _node(o, node, parent)
    finally:
        o.ctx = before


# class -> its printer here; (parent class, class) -> the printer pglast uses under that parent (or this
# module's own for a printer that reads its parent), filled by the printers' modules
PRINTERS: dict[type, Callable[[_Out, Any], None]] = {}
BY_PARENT: dict[tuple[type, type], Callable[[_Out, Any], None]] = {}
_WATCH = frozenset(k[1] for k in NODE_PRINTERS if type(k) is tuple) | {ast.SelectStmt}
