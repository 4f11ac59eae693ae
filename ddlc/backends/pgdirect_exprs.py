"""The expression printers of :mod:`.pgdirect` (issue 26): pglast 8.8's printers of ``pglast/printers/dml.py``
for values, names, operators, calls, casts and the other expression nodes, one function each, deciding what
pglast's printer decides in the same order (:mod:`.pgdirect` says how the whole is used and checked)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pglast import ast, enums
from pglast.keywords import COL_NAME_KEYWORDS
from pglast.precedence import ExprPrec, subquery_operator_precedence
from pglast.printers import dml
from pglast.stream import SQL_SYNTAX_SPECIAL_FUNCTIONS

from .pgdirect_base import (_A_EXPR, _B_EXPR, _K, _SPECIAL, _b_expr, _items, _list, _name, _node, _operand, _Out,
                            _paren_node, _prec, _sep, _sw, _swrites, _symbol, _Unsure, _w, _writes, _dotted)
from .pgprint import quote_name

_BOOL = enums.BoolExprType


_SLT = enums.SubLinkType


_SYSTEM_TYPES = dml.system_types
_INTERVAL_RANGES = dml.interval_ranges


_SUBQUERY_WORDS = {"~~": "LIKE", "!~~": "NOT LIKE", "~~*": "ILIKE", "!~~*": "NOT ILIKE"}


_AEXPR_OP = _K.AEXPR_OP  # (read once: on Python 3.11 a read through an Enum class goes through a hook)
_BETWEEN = {_K.AEXPR_BETWEEN: "BETWEEN ", _K.AEXPR_BETWEEN_SYM: "BETWEEN SYMMETRIC ",
            _K.AEXPR_NOT_BETWEEN: "", _K.AEXPR_NOT_BETWEEN_SYM: ""}  # ("": the operator's own name)


_BOOL_TESTS = {t: t.name[3:].replace("_", " ") for t in enums.BoolTestType}  # IS_NOT_TRUE -> NOT TRUE


_SVF = {op: op.name[6:] for op in enums.SQLValueFunctionOp}  # SVFOP_CURRENT_DATE -> CURRENT_DATE

def _a_const(o: _Out, node: Any) -> None:
    if node.isnull:
        _w(o, "NULL")
        return
    val = node.val
    cls = type(val)
    if cls is ast.String and type(val.sval) is str:  # (_string and _integer at once: the caller separates)
        s = o.literal(val.sval)
    elif cls is ast.Integer and type(val.ival) is int:
        s = str(val.ival)
    else:
        _node(o, val, ast.A_Const)
        return
    if o.pend:  # (_w(o, s) inline: s is never empty)
        o.pend = False
        if s != " ":
            lec = o.lec
            if lec != "(" and not lec.isspace():
                c = s[0]
                if c.isalnum() or c in _SPECIAL:
                    o.parts.append(" ")
    o.parts.append(s)
    o.lec = s[-1]


def _integer(o: _Out, node: Any) -> None:
    v = node.ival
    if type(v) is not int:
        raise _Unsure("ival")
    _w(o, str(v))  # (print_node of the value: its separator is the caller's _node's)
    _sep(o)


def _float(o: _Out, node: Any) -> None:
    _w(o, node.fval)


def _string(o: _Out, node: Any) -> None:
    if type(node.sval) is not str:
        raise _Unsure("sval")
    _w(o, o.literal(node.sval))
    _sep(o)


def _boolean(o: _Out, node: Any) -> None:
    _w(o, "TRUE" if node.boolval else "FALSE")


def _column_ref(o: _Out, node: Any) -> None:
    fields = node.fields  # (_name(o, fields, True) with _w's and _sep's steps inline: the commonest node)
    if type(fields) is tuple:
        s = _dotted(fields)
    elif type(fields) is str:
        s = quote_name(fields)
    else:
        raise _Unsure("name")
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
    if not o.lec.isspace():
        o.pend = True


def _a_star(o: _Out, node: Any) -> None:
    _w(o, "*")


def _type_cast(o: _Out, node: Any) -> None:
    tn = node.typeName
    types = o.types
    if types is not None and tn is not None:
        tn = types.get(id(tn), tn)
    if type(node.arg) is ast.A_Const:
        if type(tn) is not ast.TypeName:
            raise _Unsure("typeName")
        if _type_dotted(tn.names) == "pg_catalog.bpchar" and tn.typmods is None:
            _w(o, "char ")
            _node(o, node.arg, ast.TypeCast)
            return
    _w(o, "CAST(")
    _node(o, node.arg, ast.TypeCast)
    _w(o, " AS ")
    if type(tn) is not ast.TypeName:
        raise _Unsure("typeName")
    _node(o, tn, ast.TypeCast)
    _w(o, ")")


def _type_dotted(names: Any) -> str:
    """``".".join(n.sval for n in names)``, a one- or two-part name of strings without the generator's frame."""
    if type(names) is tuple:
        if len(names) == 1:
            a = names[0].sval
            if type(a) is str:
                return a
        elif len(names) == 2:
            a, b = names[0].sval, names[1].sval
            if type(a) is str and type(b) is str:
                return a + "." + b
    return ".".join(n.sval for n in names)


def _type_name(o: _Out, node: Any) -> None:
    if node.setof:
        _writes(o, "SETOF")
    name = _type_dotted(node.names)
    suffix = ""
    if name in _SYSTEM_TYPES:
        prefix, suffix = _SYSTEM_TYPES[name]
        _w(o, prefix)
    elif name == "char":
        _w(o, '"char"')
    else:
        _name(o, node.names, True)
    if node.pct_type:
        _w(o, "%TYPE")
        return
    typmods = node.typmods
    if typmods:
        if name == "pg_catalog.interval":
            typmod = _ival(typmods[0])
            if typmod in _INTERVAL_RANGES:
                _sw(o, _INTERVAL_RANGES[typmod])
            if len(typmods) == 2:
                _w(o, " (")
                _node(o, typmods[1], ast.TypeName)
                _w(o, ")")
        elif name != "pg_catalog.bpchar" or len(typmods) > 1 or _ival(typmods[0]) != 1:
            _w(o, "(")
            _items(o, typmods, ",", ast.TypeName)
            _w(o, ")")
    _w(o, suffix)
    if node.arrayBounds:
        for ab in node.arrayBounds:
            _w(o, "[")
            if _ival_of(ab) >= 0:
                _node(o, ab, ast.TypeName)
            _w(o, "]")


def _ival(node: Any) -> int:
    """``node.val.ival`` of an ``A_Const`` holding an ``Integer``."""
    if type(node) is not ast.A_Const or type(node.val) is not ast.Integer:
        raise _Unsure("typmod")
    return _ival_of(node.val)


def _ival_of(node: Any) -> int:
    if type(node) is not ast.Integer or type(node.ival) is not int:
        raise _Unsure("ival")
    return node.ival


def _subquery_op(o: _Out, name: Any) -> None:
    """``_print_subquery_op``."""
    op = _string_value(name) if type(name) is tuple and len(name) == 1 else None
    if op is not None:
        _w(o, _SUBQUERY_WORDS.get(op, op))
    else:
        _w(o, "OPERATOR")
        _w(o, "(")
        _symbol(o, name)
        _w(o, ")")


def _string_value(name: Any) -> str:
    """``get_string_value``: the value of a one-``String`` tuple."""
    if type(name) is not tuple or len(name) != 1 or type(name[0]) is not ast.String or type(name[0].sval) is not str:
        raise _Unsure("name")
    return name[0].sval


def _a_expr(o: _Out, node: Any) -> None:
    kind = node.kind
    if type(kind) is not _K:  # (pglast's IntEnumPrinter: a plain int is an error, None or a name another member)
        raise _Unsure("kind")
    if kind == _AEXPR_OP:
        prec = _prec(node)
        lexpr = node.lexpr
        if lexpr is not None:
            _operand(o, lexpr, prec, False, ast.A_Expr)
        name = node.name
        if type(name) is not tuple:
            raise _Unsure("symbol")
        # " ", print_symbol, " " written at once (the symbol's separator is taken by the space)
        symbol = _dotted(name, True)
        if len(name) > 1:
            symbol = "OPERATOR(" + symbol + ")"
        _w(o, (" " + symbol + " ") if lexpr is not None else symbol + " ")
        if node.rexpr is not None:
            _operand(o, node.rexpr, prec, True, ast.A_Expr)
    elif kind == _K.AEXPR_OP_ANY or kind == _K.AEXPR_OP_ALL:
        _operand(o, node.lexpr, subquery_operator_precedence(node.name), False, ast.A_Expr)
        _w(o, " ")
        _subquery_op(o, node.name)
        _w(o, " ANY(" if kind == _K.AEXPR_OP_ANY else " ALL(")
        before = o.ctx
        o.ctx = _A_EXPR
        try:
            _node(o, node.rexpr, ast.A_Expr)
        finally:
            o.ctx = before
        _w(o, ")")
    elif kind == _K.AEXPR_DISTINCT or kind == _K.AEXPR_NOT_DISTINCT:
        prec = _prec(node)
        _operand(o, node.lexpr, prec, False, ast.A_Expr)
        _sw(o, "IS DISTINCT FROM " if kind == _K.AEXPR_DISTINCT else "IS NOT DISTINCT FROM ")
        _operand(o, node.rexpr, prec, True, ast.A_Expr)
    elif kind == _K.AEXPR_NULLIF:
        _w(o, "NULLIF")
        _w(o, "(")
        _items(o, (node.lexpr, node.rexpr), ",", ast.A_Expr)
        _w(o, ")")
    elif kind == _K.AEXPR_IN:
        prec = _prec(node)
        _operand(o, node.lexpr, prec, False, ast.A_Expr)
        _w(o, " ")
        _w(o, "NOT IN " if _string_value(node.name) == "<>" else "IN ")
        _w(o, "(")
        if type(node.rexpr) is not tuple:
            raise _Unsure("IN")
        _list(o, node.rexpr, ast.A_Expr)
        _w(o, ")")
    elif kind == _K.AEXPR_LIKE or kind == _K.AEXPR_ILIKE:
        prec = _prec(node)
        _operand(o, node.lexpr, prec, False, ast.A_Expr)
        like = kind == _K.AEXPR_LIKE
        if _string_value(node.name) == ("!~~" if like else "!~~*"):
            _swrites(o, "NOT")
        _sw(o, "LIKE " if like else "ILIKE ")
        _operand(o, node.rexpr, prec, True, ast.A_Expr)
    elif kind in _BETWEEN:
        _node(o, node.lexpr, ast.A_Expr)
        word = _BETWEEN[kind]
        _sw(o, word if word else _string_value(node.name) + " ")
        prec = _prec(node)
        lower, upper = node.rexpr
        plain = _b_expr(lower)  # print_b_expr: a b_expr as it is, anything else in parentheses
        before = o.ctx
        o.ctx = _B_EXPR if plain else _A_EXPR
        try:
            (_node if plain else _paren_node)(o, lower, ast.A_Expr)
        finally:
            o.ctx = before
        _sw(o, "AND ")
        _operand(o, upper, prec, True, ast.A_Expr)
    else:
        raise _Unsure(str(kind))


def _bool_parens(node: Any) -> bool:
    """``_bool_expr_needs_to_be_wrapped_in_parens``."""
    return isinstance(node, ast.BoolExpr) and node.boolop in (_BOOL.AND_EXPR, _BOOL.OR_EXPR)


def _bool_expr(o: _Out, node: Any) -> None:
    op = node.boolop
    if op == _BOOL.AND_EXPR or op == _BOOL.OR_EXPR:
        _items(o, node.args, "AND" if op == _BOOL.AND_EXPR else "OR", ast.BoolExpr, True, _bool_parens)
    else:
        _writes(o, "NOT")
        arg = node.args[0]
        if _bool_parens(arg):
            _paren_node(o, arg, ast.BoolExpr)
        else:
            _node(o, arg, ast.BoolExpr)


def _func_call(o: _Out, node: Any) -> None:
    name = ".".join(n.sval for n in node.funcname)
    if name in SQL_SYNTAX_SPECIAL_FUNCTIONS:  # (its SQL syntax: pglast's special printer)
        raise _Unsure(name)
    if (name in COL_NAME_KEYWORDS
            and (name not in ("substring", "overlay")
                 or node.agg_order or node.agg_filter or node.over or node.agg_within_group
                 or node.agg_star or node.agg_distinct or node.func_variadic)):
        _w(o, f'"{name}"(')
    else:
        _w(o, _dotted(node.funcname) + "(")  # (print_name, then "(": never spaced, it takes the separator)
    if node.agg_distinct:
        _writes(o, "DISTINCT")
    args = node.args
    if args is None:
        if node.agg_star:
            _w(o, "*")
    elif node.func_variadic:
        if len(args) > 1:
            _list(o, args[:-1], ast.FuncCall)
            _w(o, ", ")
        _w(o, "VARIADIC ")
        _node(o, args[-1], ast.FuncCall)
    else:
        _list(o, args, ast.FuncCall)
    if node.agg_order:
        if not node.agg_within_group:
            _swrites(o, "ORDER BY")
        else:
            _writes(o, ") WITHIN GROUP (ORDER BY")
        _list(o, node.agg_order, ast.FuncCall)
    _w(o, ")")
    if node.agg_filter:
        _swrites(o, "FILTER (WHERE")
        _node(o, node.agg_filter, ast.FuncCall)
        _w(o, ")")
    if node.over:
        _sw(o, "OVER ")
        _node(o, node.over, ast.FuncCall)


def _null_test(o: _Out, node: Any) -> None:
    _operand(o, node.arg, ExprPrec.IS, False, ast.NullTest, _A_EXPR)
    _w(o, " IS")
    if node.nulltesttype == enums.NullTestType.IS_NOT_NULL:
        _w(o, " NOT")
    _w(o, " NULL")


def _boolean_test(o: _Out, node: Any) -> None:
    _operand(o, node.arg, ExprPrec.IS, False, ast.BooleanTest, _A_EXPR)
    _w(o, " IS ")
    t = node.booltesttype
    if type(t) is not enums.BoolTestType:
        raise _Unsure("booltesttype")
    _w(o, _BOOL_TESTS[t])


def _case_expr(o: _Out, node: Any) -> None:
    _writes(o, "CASE")
    if node.arg:
        _node(o, node.arg, ast.CaseExpr)
    _sep(o)
    _sep(o)
    _list(o, node.args, ast.CaseExpr, "")
    if node.defresult:
        _sep(o)
        _w(o, "ELSE ")
        _node(o, node.defresult, ast.CaseExpr)
    _sep(o)
    _w(o, "END")


def _case_when(o: _Out, node: Any) -> None:
    _w(o, "WHEN ")
    _node(o, node.expr, ast.CaseWhen)
    _sep(o)
    _w(o, "THEN ")
    _node(o, node.result, ast.CaseWhen)


def _coalesce_expr(o: _Out, node: Any) -> None:
    _w(o, "COALESCE")
    _w(o, "(")
    _list(o, node.args, ast.CoalesceExpr)
    _w(o, ")")


def _min_max_expr(o: _Out, node: Any) -> None:
    _w(o, "GREATEST" if node.op == enums.MinMaxOp.IS_GREATEST else "LEAST")
    _w(o, "(")
    _list(o, node.args, ast.MinMaxExpr)
    _w(o, ")")


def _sub_link(o: _Out, node: Any) -> None:
    t = node.subLinkType
    if t == _SLT.EXISTS_SUBLINK:
        _w(o, "EXISTS ")
    elif t == _SLT.ALL_SUBLINK or (t == _SLT.ANY_SUBLINK and node.operName):
        _operand(o, node.testexpr, subquery_operator_precedence(node.operName), False, ast.SubLink, _A_EXPR)
        _w(o, " ")
        _subquery_op(o, node.operName)
        _w(o, " ALL " if t == _SLT.ALL_SUBLINK else " ANY ")
    elif t == _SLT.ANY_SUBLINK:
        _operand(o, node.testexpr, ExprPrec.BETWEEN, False, ast.SubLink, _A_EXPR)
        _w(o, " IN ")
    elif t == _SLT.EXPR_SUBLINK:
        pass
    elif t == _SLT.ARRAY_SUBLINK:
        _w(o, "ARRAY")
    else:
        raise _Unsure(str(t))
    _paren_node(o, node.subselect, ast.SubLink)


def _sql_value_function(o: _Out, node: Any) -> None:
    op = node.op
    if type(op) is not enums.SQLValueFunctionOp:
        raise _Unsure("op")
    word = _SVF[op]
    if word.endswith("_N"):  # CURRENT_TIMESTAMP_N: CURRENT_TIMESTAMP(typmod)
        _w(o, word[:-2] + "(" + str(node.typmod) + ")")
    else:
        _w(o, word)


def _row_expr(o: _Out, node: Any) -> None:
    form = node.row_format
    if form == enums.CoercionForm.COERCE_EXPLICIT_CALL:
        _w(o, "ROW")
        _w(o, "(")
        if node.args:
            _list(o, node.args, ast.RowExpr)
        _w(o, ")")
    elif form == enums.CoercionForm.COERCE_IMPLICIT_CAST:
        _w(o, "(")
        _list(o, node.args, ast.RowExpr)
        _w(o, ")")
    else:
        raise _Unsure(str(form))


def _a_array_expr(o: _Out, node: Any) -> None:
    _w(o, "ARRAY[")
    if node.elements:
        _list(o, node.elements, ast.A_ArrayExpr)
    _w(o, "]")


def _named_arg_expr(o: _Out, node: Any) -> None:
    _name(o, node.name)
    _w(o, " => ")
    _node(o, node.arg, ast.NamedArgExpr)


def _param_ref(o: _Out, node: Any) -> None:
    _w(o, "$%d" % node.number)


def _collate_clause(o: _Out, node: Any) -> None:
    if node.arg:
        _operand(o, node.arg, ExprPrec.COLLATE, False, ast.CollateClause, _A_EXPR)
    _sw(o, "COLLATE ")
    _name(o, node.collname, True)


def _set_to_default(o: _Out, node: Any) -> None:
    _w(o, "DEFAULT")


def _bit_string(o: _Out, node: Any) -> None:
    value = node.bsval
    _w(o, f"{value[0]}'{value[1:]}'")


# class -> (this module's printer, the pglast printer it mirrors)
MIRRORS: dict[type, tuple[Callable[[_Out, Any], None], Any]] = {
    ast.A_ArrayExpr: (_a_array_expr, dml.a_array_expr),
    ast.A_Const: (_a_const, dml.a_const),
    ast.A_Expr: (_a_expr, dml.a_expr),
    ast.A_Star: (_a_star, dml.a_star),
    ast.BitString: (_bit_string, dml.bitstring),
    ast.BoolExpr: (_bool_expr, dml.bool_expr),
    ast.Boolean: (_boolean, dml.boolean),
    ast.BooleanTest: (_boolean_test, dml.boolean_test),
    ast.CaseExpr: (_case_expr, dml.case_expr),
    ast.CaseWhen: (_case_when, dml.case_when),
    ast.CoalesceExpr: (_coalesce_expr, dml.coalesce_expr),
    ast.CollateClause: (_collate_clause, dml.collate_clause),
    ast.ColumnRef: (_column_ref, dml.column_ref),
    ast.Float: (_float, dml.float),
    ast.FuncCall: (_func_call, dml.func_call),
    ast.Integer: (_integer, dml.integer),
    ast.MinMaxExpr: (_min_max_expr, dml.min_max_expr),
    ast.NamedArgExpr: (_named_arg_expr, dml.named_arg_expr),
    ast.NullTest: (_null_test, dml.null_test),
    ast.ParamRef: (_param_ref, dml.param_ref),
    ast.RowExpr: (_row_expr, dml.row_expr),
    ast.SetToDefault: (_set_to_default, dml.set_to_default),
    ast.SQLValueFunction: (_sql_value_function, dml.sql_value_function),
    ast.String: (_string, dml.string),
    ast.SubLink: (_sub_link, dml.sub_link),
    ast.TypeCast: (_type_cast, dml.type_cast),
    ast.TypeName: (_type_name, dml.type_name),
}
