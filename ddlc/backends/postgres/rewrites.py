"""GaussDB/openGauss functions users write in defaults, checks, generated columns and views, with their
PostgreSQL form: exact (the same result and type, for every input) or close (documented difference).

Each :class:`Rewrite` builds a new pglast node from the call (arguments already rewritten); nothing is
parsed. Every entry is executed on a real PostgreSQL server by ``tests/test_pg_functions.py`` and listed
in ``docs/functions.md`` (``python -m tools.gen_docs``). Sources: openGauss's grammar (``NVL``,
``DECODE``, ``SYSDATE``) and catalog (``builtin_funcs.ini``: ``sysdate`` is ``SELECT
CURRENT_TIMESTAMP::timestamp(0)``, ``pg_systimestamp`` and ``statement_timestamp`` read the same
statement clock, ``instr(s, t)`` and ``lengthb(text)`` are PostgreSQL's ``strpos`` and
``octet_length``, ``add_months``/``last_day``/``trunc``/``to_date``/``text_date`` in
``timestamp.cpp``) and the GaussDB SQL reference.

Names and argument counts are matched as written (after pglast folded unquoted names to lower case);
a call qualified with ``pg_catalog`` is the same call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...records import record
from ... import lazyre


def _always(node: Any) -> bool:
    return True


@record(frozen=True, slots=True)
class Rewrite:
    name: str
    arities: tuple[int, ...] | int  # the argument counts it takes; an int n: n or more
    gauss: str  # the GaussDB call, as documented (docs/functions.md)
    postgres: str  # the PostgreSQL form
    exact: bool
    note: str
    build: Callable[[Any], Any]
    applies: Callable[[Any], bool] = _always  # a condition on the call's shape (its argument nodes)

    def takes(self, n: int) -> bool:
        return n >= self.arities if isinstance(self.arities, int) else n in self.arities


# ---- pglast node builders ---------------------------------------------------------------------------

_PGLAST: Any = None  # (pglast.ast, pglast.enums), imported on first use (start-up time) and kept: no import per node


def _ast() -> Any:
    return (_PGLAST or _load())[0]


def _enums() -> Any:
    return (_PGLAST or _load())[1]


def _load() -> Any:
    global _PGLAST
    from pglast import ast, enums

    _PGLAST = (ast, enums)
    return _PGLAST


def _args(node: Any) -> tuple:
    return tuple(getattr(node, "args", None) or ())


def fn(name: str, *args: Any) -> Any:
    ast = _ast()
    return ast.FuncCall(funcname=(ast.String(sval=name),), args=args or None, agg_within_group=False,
                        agg_star=False, agg_distinct=False, func_variadic=False, funcformat=_explicit())


def _explicit() -> Any:
    enums = _enums()
    return enums.CoercionForm.COERCE_EXPLICIT_CALL


def text(s: str) -> Any:
    ast = _ast()
    return ast.A_Const(isnull=False, val=ast.String(sval=s))


def integer(i: int) -> Any:
    ast = _ast()
    return ast.A_Const(isnull=False, val=ast.Integer(ival=i))


def cast(arg: Any, *names: str, typmods: tuple[int, ...] | None = None) -> Any:
    ast = _ast()
    mods = None if typmods is None else tuple(integer(i) for i in typmods)
    return ast.TypeCast(arg=arg, typeName=ast.TypeName(names=tuple(ast.String(sval=n) for n in names), setof=False,
                                                       pct_type=False, typmods=mods, typemod=-1))


def interval(s: str) -> Any:
    return cast(text(s), "pg_catalog", "interval")


def timestamp(arg: Any) -> Any:
    """``arg`` as a timestamp without time zone (unchanged when it is a cast to one already)."""
    if isinstance(arg, _ast().TypeCast) and _type_name(arg) == "timestamp":
        return arg
    return cast(arg, "pg_catalog", "timestamp")


def paren(node: Any) -> Any:
    """``node`` printed inside parentheses unless it is atomic: pglast's printer does not parenthesize an
    operator expression under ``IS [NOT] NULL`` / ``IS [NOT] DISTINCT FROM`` (``(a = b) IS NULL`` would
    come out as ``a = b IS NULL``). A one-element implicit row prints as ``(x)``, which PostgreSQL reads
    back as the parenthesized expression."""
    enums = _enums()
    ast = _ast()
    atomic = (ast.ColumnRef, ast.A_Const, ast.FuncCall, ast.TypeCast, ast.SQLValueFunction, ast.CoalesceExpr,
              ast.CaseExpr, ast.MinMaxExpr, ast.ParamRef, ast.RowExpr)
    if isinstance(node, atomic):
        return node
    return ast.RowExpr(args=(node,), row_format=enums.CoercionForm.COERCE_IMPLICIT_CAST)


def op(name: str, left: Any, right: Any) -> Any:
    enums = _enums()
    ast = _ast()
    return ast.A_Expr(kind=enums.A_Expr_Kind.AEXPR_OP, name=(ast.String(sval=name),), lexpr=paren(left),
                      rexpr=paren(right))


def case(whens: list[tuple[Any, Any]], default: Any = None) -> Any:
    ast = _ast()
    return ast.CaseExpr(args=tuple(ast.CaseWhen(expr=c, result=r) for c, r in whens), defresult=default)


def not_distinct(a: Any, b: Any) -> Any:
    enums = _enums()
    ast = _ast()
    return ast.A_Expr(kind=enums.A_Expr_Kind.AEXPR_NOT_DISTINCT, name=(ast.String(sval="="),), lexpr=paren(a),
                      rexpr=paren(b))


def is_not_null(a: Any) -> Any:
    enums = _enums()
    return _ast().NullTest(arg=paren(a), nulltesttype=enums.NullTestType.IS_NOT_NULL, argisrow=False)


def svf(name: str, typmod: int = -1) -> Any:
    enums = _enums()
    return _ast().SQLValueFunction(op=getattr(enums.SQLValueFunctionOp, name), typmod=typmod)


def aggregate(name: str, args: tuple, order: Any = None, within_group: bool = False) -> Any:
    ast = _ast()
    return ast.FuncCall(funcname=(ast.String(sval=name),), args=args, agg_order=order or None,
                        agg_within_group=within_group, agg_star=False, agg_distinct=False, func_variadic=False,
                        funcformat=_explicit())


# ---- argument shapes ----------------------------------------------------------------------------------

def string_const(node: Any) -> str | None:
    ast = _ast()
    if isinstance(node, ast.TypeCast) and _type_name(node) in ("text", "varchar", "unknown"):
        node = node.arg
    if isinstance(node, ast.A_Const) and isinstance(node.val, ast.String):
        return node.val.sval
    return None


def _type_name(node: Any) -> str:
    names = [n.sval for n in node.typeName.names or ()]
    return names[-1].lower() if names else ""


_TEMPORAL_TYPES = frozenset({"date", "timestamp", "timestamptz", "smalldatetime"})
_TEMPORAL_CALLS = frozenset({
    "sysdate", "to_date", "to_timestamp", "now", "statement_timestamp", "transaction_timestamp", "clock_timestamp",
    "pg_systimestamp", "add_months", "last_day", "date_trunc", "localtimestamp", "current_timestamp", "systimestamp",
    "text_date", "next_day",
})


def temporal(node: Any) -> bool:
    """Whether ``node`` is visibly a date or timestamp (a cast to one, a date/time function, CURRENT_DATE...):
    the shape that tells ``trunc(d)`` from PostgreSQL's numeric ``trunc``."""
    ast = _ast()
    if isinstance(node, ast.SQLValueFunction):
        return node.op.name.startswith(("SVFOP_CURRENT_DATE", "SVFOP_CURRENT_TIMESTAMP", "SVFOP_LOCALTIMESTAMP"))
    if isinstance(node, ast.TypeCast):
        return _type_name(node) in _TEMPORAL_TYPES
    if isinstance(node, ast.FuncCall):
        name = node.funcname[-1].sval
        return name in _TEMPORAL_CALLS or (name == "trunc" and _trunc_date(node))  # trunc(trunc(sysdate))
    if isinstance(node, ast.ColumnRef):
        f = node.fields or ()
        return len(f) == 1 and isinstance(f[0], ast.String) and f[0].sval == "sysdate"
    return False


_INTEGER_TEXT = lazyre.compile(r"\s*[+-]?\d+\s*\Z")


def _date_format(node: Any) -> bool:
    """``trunc(x, 'MM')``: the second argument is a string that is no integer (PostgreSQL's
    ``trunc(numeric, int)`` takes ``'2'``)."""
    a = _args(node)
    s = string_const(a[1]) if len(a) == 2 else None
    return s is not None and _INTEGER_TEXT.match(s) is None


def _trunc_date(node: Any) -> bool:
    a = _args(node)
    return _date_format(node) if len(a) == 2 else len(a) == 1 and temporal(a[0])


def _no_over(node: Any) -> bool:
    return getattr(node, "over", None) is None and not getattr(node, "agg_distinct", False)


def _is_now(node: Any) -> bool:
    s = string_const(_args(node)[0])
    return s is not None and s.strip().lower() == "now"


_DS_UNITS = {"day": "1 day", "hour": "1 hour", "minute": "1 minute", "second": "1 second"}
_YM_UNITS = {"year": "1 year", "month": "1 month"}


def _unit(table: dict[str, str]) -> Callable[[Any], bool]:
    def ok(node: Any) -> bool:
        s = string_const(_args(node)[1])
        return s is not None and s.strip().lower() in table
    return ok


def _by_unit(table: dict[str, str]) -> Callable[[Any], Any]:
    def build(node: Any) -> Any:
        a = _args(node)
        return op("*", a[0], interval(table[string_const(a[1]).strip().lower()]))
    return build


# ---- builders -----------------------------------------------------------------------------------------

_STATEMENT_CLOCK = ("the statement's start time, as PostgreSQL's statement_timestamp() (PostgreSQL's CURRENT_TIMESTAMP "
                    "and LOCALTIMESTAMP are the transaction's)")


def _decode(node: Any) -> Any:
    x, *rest = _args(node)
    pairs = [(not_distinct(x, rest[i]), rest[i + 1]) for i in range(0, len(rest) - 1, 2)]
    return case(pairs, rest[-1] if len(rest) % 2 else None)


def _last_day(node: Any) -> Any:
    x = timestamp(_args(node)[0])
    month_end = op("+", fn("date_trunc", text("month"), x), interval("1 month -1 day"))
    return op("+", month_end, op("-", x, fn("date_trunc", text("day"), x)))


def _listagg(node: Any) -> Any:
    a = _args(node)
    sep = a[1] if len(a) > 1 else text("")
    return aggregate("string_agg", (cast(a[0], "text"), sep), order=node.agg_order)


def _median(node: Any) -> Any:
    ast = _ast()
    enums = _enums()
    key = ast.SortBy(node=_args(node)[0], sortby_dir=enums.SortByDir.SORTBY_DEFAULT,
                     sortby_nulls=enums.SortByNulls.SORTBY_NULLS_DEFAULT)
    return aggregate("percentile_cont", (cast(text("0.5"), "pg_catalog", "float8"),), order=(key,),
                     within_group=True)


def _a(i: int) -> Callable[[Any], Any]:
    return lambda node: _args(node)[i]


_REWRITES: tuple[Rewrite, ...] = (
    # -- current date and time
    Rewrite("sysdate", (0,), "sysdate", "CAST(statement_timestamp() AS timestamp(0))", True,
            "openGauss defines sysdate as CURRENT_TIMESTAMP::timestamp(0), and its CURRENT_TIMESTAMP "
            "(pg_systimestamp()) is " + _STATEMENT_CLOCK,
            lambda n: cast(fn("statement_timestamp"), "pg_catalog", "timestamp", typmods=(0,))),
    Rewrite("pg_systimestamp", (0,), "pg_systimestamp()", "statement_timestamp()", True,
            "what openGauss stores for CURRENT_TIMESTAMP: " + _STATEMENT_CLOCK,
            lambda n: fn("statement_timestamp")),
    Rewrite("systimestamp", (0,), "systimestamp()", "statement_timestamp()", False,
            "GaussDB documents the current timestamp with time zone; ddlc takes the statement's start time, "
            "as its pg_systimestamp()", lambda n: fn("statement_timestamp")),
    Rewrite("curdate", (0,), "curdate()", "CURRENT_DATE", False,
            "B compatibility; PostgreSQL's CURRENT_DATE is the transaction's start date",
            lambda n: svf("SVFOP_CURRENT_DATE")),
    Rewrite("text_date", (1,), "text_date('now')", "CURRENT_DATE", True,
            "the date of 'now' (a cast of 'now' would be evaluated once, when the DEFAULT is created)",
            lambda n: svf("SVFOP_CURRENT_DATE"), _is_now),
    Rewrite("text_date", (1,), "text_date(s)", "CAST(s AS date)", True, "openGauss's text_date is date's input",
            lambda n: cast(_args(n)[0], "date")),
    # -- NULL handling and conditionals
    Rewrite("nvl", (2,), "nvl(a, b)", "COALESCE(a, b)", True, "openGauss's grammar makes NVL a COALESCE",
            lambda n: _ast().CoalesceExpr(args=_args(n))),
    Rewrite("ifnull", (2,), "ifnull(a, b)", "COALESCE(a, b)", True, "B compatibility",
            lambda n: _ast().CoalesceExpr(args=_args(n))),
    Rewrite("nvl2", (3,), "nvl2(a, b, c)", "CASE WHEN a IS NOT NULL THEN b ELSE c END", True, "",
            lambda n: case([(is_not_null(_args(n)[0]), _args(n)[1])], _args(n)[2])),
    Rewrite("decode", 3, "decode(x, s1, r1, ..., [default])",
            "CASE WHEN x IS NOT DISTINCT FROM s1 THEN r1 ... ELSE default END", True,
            "openGauss's grammar makes DECODE this CASE (NULL matches NULL); decode(s, format) with two "
            "arguments is PostgreSQL's", _decode),
    Rewrite("if", (3,), "if(c, a, b)", "CASE WHEN c THEN a ELSE b END", True, "B compatibility",
            lambda n: case([(_args(n)[0], _args(n)[1])], _args(n)[2])),
    # -- strings
    Rewrite("instr", (2,), "instr(s, t)", "strpos(s, t)", True, "the same C function (textpos)",
            lambda n: fn("strpos", *_args(n))),
    Rewrite("lengthb", (1,), "lengthb(s)", "octet_length(s)", True,
            "the same C function for text (textoctetlen); char(n) values count their padding in both",
            lambda n: fn("octet_length", *_args(n))),
    Rewrite("sys_guid", (0,), "sys_guid()", "upper(replace(CAST(gen_random_uuid() AS text), '-', ''))", False,
            "GaussDB returns 16 raw bytes from the host, the time and a random number, shown as 32 upper-case "
            "hex digits; this is the same text from a random (version 4) UUID. A RAW (bytea) column needs "
            "decode(..., 'hex')",
            lambda n: fn("upper", fn("replace", cast(fn("gen_random_uuid"), "text"), text("-"), text("")))),
    Rewrite("uuid", (0,), "uuid()", "CAST(gen_random_uuid() AS varchar)", False,
            "B compatibility: GaussDB returns a time-based UUID as varchar; this one is random (version 4)",
            lambda n: cast(fn("gen_random_uuid"), "pg_catalog", "varchar")),
    # -- date arithmetic
    Rewrite("add_months", (2,), "add_months(d, n)",
            "CAST(d AS timestamp) + CAST(n AS integer) * CAST('1 month' AS interval)", True,
            "openGauss adds an interval of n months (the end of a shorter month is clamped, as in "
            "PostgreSQL) unless behavior_compat_options has end_month_calculate",
            lambda n: op("+", timestamp(_args(n)[0]), op("*", cast(_args(n)[1], "pg_catalog", "int4"),
                                                          interval("1 month")))),
    Rewrite("last_day", (1,), "last_day(d)",
            "date_trunc('month', x) + CAST('1 month -1 day' AS interval) + (x - date_trunc('day', x)) "
            "with x = CAST(d AS timestamp)", True,
            "the time of day is kept, as in openGauss; d is evaluated three times", _last_day),
    Rewrite("trunc", (1, 2), "trunc(d [, unit])", "date_trunc(unit, d); date_trunc('day', CAST(d AS timestamp))",
            True, "only when the call shows a date: a date/time argument (a cast, sysdate, a date function) or a "
            "unit that is a string literal; openGauss's trunc(timestamp, text) is date_trunc with its "
            "arguments swapped",
            lambda n: (fn("date_trunc", _args(n)[1], _args(n)[0]) if len(_args(n)) == 2
                       else fn("date_trunc", text("day"), timestamp(_args(n)[0]))), _trunc_date),
    Rewrite("numtodsinterval", (2,), "numtodsinterval(n, 'DAY')", "n * CAST('1 day' AS interval)", True,
            "units DAY, HOUR, MINUTE, SECOND (a literal)", _by_unit(_DS_UNITS), _unit(_DS_UNITS)),
    Rewrite("numtoyminterval", (2,), "numtoyminterval(n, 'YEAR')", "n * CAST('1 year' AS interval)", True,
            "units YEAR, MONTH (a literal)", _by_unit(_YM_UNITS), _unit(_YM_UNITS)),
    Rewrite("sys_extract_utc", (1,), "sys_extract_utc(t)", "t AT TIME ZONE 'UTC'", False,
            "GaussDB: the UTC time of a timestamp with time zone (a timestamp without one is read in the "
            "session time zone in both)",
            lambda n: fn("timezone", text("UTC"), _args(n)[0])),
    # -- conversions
    Rewrite("to_date", (1,), "to_date(s)", "CAST(s AS timestamp(0))", False,
            "openGauss reads 'yyyy-mm-dd hh24:mi:ss' and 'yyyymmdd' forms (fractions dropped); PostgreSQL's "
            "timestamp input reads more and rounds fractions",
            lambda n: cast(_args(n)[0], "pg_catalog", "timestamp", typmods=(0,))),
    Rewrite("to_date", (2,), "to_date(s, fmt)", "CAST(to_timestamp(s, fmt) AS timestamp)", False,
            "openGauss returns a timestamp (the time of day kept), PostgreSQL's to_date a date; a local time "
            "that a daylight-saving change skips in the session time zone moves by the gap",
            lambda n: timestamp(fn("to_timestamp", *_args(n)))),
    Rewrite("to_number", (1,), "to_number(s)", "CAST(s AS numeric)", False,
            "GaussDB reads the text with the default format; PostgreSQL's numeric input takes the same "
            "digits, sign, point and exponent, not group separators",
            lambda n: cast(_args(n)[0], "pg_catalog", "numeric")),
    Rewrite("to_clob", (1,), "to_clob(s)", "CAST(s AS text)", True, "clob is text on PostgreSQL",
            lambda n: cast(_args(n)[0], "text")),
    Rewrite("empty_blob", (0,), "empty_blob()", "CAST('' AS bytea)", True, "blob is bytea on PostgreSQL",
            lambda n: cast(text(""), "bytea")),
    Rewrite("empty_clob", (0,), "empty_clob()", "CAST('' AS text)", True, "clob is text on PostgreSQL",
            lambda n: cast(text(""), "text")),
    Rewrite("hextoraw", (1,), "hextoraw(s)", "decode(s, 'hex')", False,
            "raw is bytea on PostgreSQL; an odd number of digits is an error there",
            lambda n: fn("decode", _args(n)[0], text("hex"))),
    # -- aggregates (not as window functions: PostgreSQL has no ordered aggregate over a window)
    Rewrite("listagg", (1, 2), "listagg(x, sep) WITHIN GROUP (ORDER BY k)",
            "string_agg(CAST(x AS text), sep ORDER BY k)", True,
            "without a separator the values are concatenated (''); not with OVER (...)", _listagg, _no_over),
    Rewrite("median", (1,), "median(x)", "percentile_cont(0.5) WITHIN GROUP (ORDER BY x)", True,
            "double precision (or interval) result in both; not with OVER (...) or DISTINCT", _median, _no_over),
    Rewrite("wm_concat", (1,), "wm_concat(x)", "string_agg(CAST(x AS text), ',')", False,
            "the order of the values is unspecified in both", lambda n: aggregate(
                "string_agg", (cast(_args(n)[0], "text"), text(",")), order=n.agg_order), _no_over),
)

REWRITES: dict[str, tuple[Rewrite, ...]] = {}
for _rw in _REWRITES:
    REWRITES[_rw.name] = REWRITES.get(_rw.name, ()) + (_rw,)

__all__ = ["REWRITES", "Rewrite", "temporal"]
