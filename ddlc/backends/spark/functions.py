"""GaussDB/openGauss function calls in Spark SQL: the only calls ddlc writes for Spark, each with its exact
Spark form.

The Spark target does not trust a name: GaussDB's ``log(x)`` is base 10 where Spark's is natural,
``concat`` skips NULLs where Spark's returns NULL, ``trunc(d)`` truncates a date, ``to_date`` returns a
timestamp... So a call is written for Spark only when this table has a form for it (its name, its
argument count and, where the meaning depends on it, the shape of its arguments); any other call has no
Spark form and its clause is left out (``DDLC-W810``, the reason in the message), never guessed.

Every :class:`Form` builds a sqlglot node from the call's arguments (already translated), never from
text. Each is *exact*: the same value and type for every input where both are defined, under the
condition its note states (a UTF-8 database, a statement being a transaction on Delta...); a form that
would only be close is not in the table. Every row is evaluated on a real Spark 4 session by
``tests/test_spark_functions.py`` and listed in the Spark column of ``docs/functions.md``
(``python -m tools.gen_docs``). ``ddlc/data/spark_functions.txt`` is Spark's own list of built-ins
(``tools/gen_spark_functions.py``); every function a form writes is in it.

Names are matched as pglast folded them (unquoted names lower case); ``pg_catalog.f`` is ``f``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ...records import record


def _always(args: list[Any], node: Any) -> bool:
    return True


@record(frozen=True, slots=True)
class Form:
    name: str
    arities: tuple[int, ...] | int  # the argument counts it takes; an int n: n or more
    gauss: str  # the GaussDB call, as documented (docs/functions.md; the same text as the PostgreSQL table's)
    spark: str  # the Spark form, as documented
    note: str
    build: Callable[[list[Any], Any], Any]  # (translated arguments, the pglast call) -> sqlglot node
    applies: Callable[[list[Any], Any], bool] = _always  # a condition on the arguments' shape
    volatile: bool = False  # its value changes from statement to statement or row to row (no generated column)
    rewrite: bool = True  # False: the same function under the same name on Spark (no DDLC-I810)

    def takes(self, n: int) -> bool:
        return n >= self.arities if isinstance(self.arities, int) else n in self.arities


# ---- sqlglot node builders ---------------------------------------------------------------------------

def _exp() -> Any:
    from sqlglot import exp

    return exp


def call(name: str, *args: Any) -> Any:
    """A call of the Spark built-in ``name``, written as such (sqlglot does not rename it)."""
    return _exp().Anonymous(this=name, expressions=list(args))


def paren(node: Any) -> Any:
    exp = _exp()
    if isinstance(node, exp.Binary | exp.Not | exp.Neg | exp.Is | exp.In | exp.Between | exp.Connector | exp.Case):
        return exp.Paren(this=node)
    return node


def cast(node: Any, type_: str) -> Any:
    exp = _exp()
    return exp.Cast(this=paren(node), to=exp.DataType(this=getattr(exp.DataType.Type, type_)))


def ntz(node: Any) -> Any:
    """``node`` as a TIMESTAMP_NTZ (unchanged when it is one already: a cast to it, or a form giving it)."""
    exp = _exp()
    if isinstance(node, exp.Cast) and node.to.this == exp.DataType.Type.TIMESTAMPNTZ:
        return node
    return cast(node, "TIMESTAMPNTZ")


def string(s: str) -> Any:
    return _exp().Literal.string(s)


def number(i: int) -> Any:
    return _exp().Literal.number(str(i))


def month_interval(n: int) -> Any:
    exp = _exp()
    return exp.Interval(this=string(str(n)), unit=exp.Var(this="MONTH"))


def int_literal(node: Any) -> int | None:
    """The integer a translated argument is when it is an integer literal (``-3`` included), else None."""
    exp = _exp()
    sign = 1
    if isinstance(node, exp.Neg):
        node, sign = node.this, -1
    if isinstance(node, exp.Literal) and node.is_int:
        return sign * int(node.this)
    return None


def string_literal(node: Any) -> str | None:
    exp = _exp()
    return node.this if isinstance(node, exp.Literal) and node.is_string else None


# ---- the pglast side: what an argument visibly is -------------------------------------------------------

_LOCAL_TYPES = frozenset({"date", "timestamp", "smalldatetime"})
_LOCAL_CALLS = frozenset({"sysdate", "add_months", "trunc", "last_day", "curdate", "localtimestamp"})


def local_temporal(node: Any) -> bool:
    """Whether a pglast argument is visibly a date or a timestamp *without* time zone (a cast to one,
    ``sysdate``, ``CURRENT_DATE``, ``LOCALTIMESTAMP``, a function of this table giving one): the shape
    that tells GaussDB's ``trunc(d)`` from the numeric ``trunc`` and keeps Spark's result type the same."""
    from pglast import ast

    if isinstance(node, ast.SQLValueFunction):
        return node.op.name.startswith(("SVFOP_CURRENT_DATE", "SVFOP_LOCALTIMESTAMP"))
    if isinstance(node, ast.TypeCast):
        names = [n.sval for n in node.typeName.names or ()]
        return bool(names) and names[-1].lower() in _LOCAL_TYPES and not node.typeName.arrayBounds
    if isinstance(node, ast.FuncCall):
        return node.funcname[-1].sval in _LOCAL_CALLS
    if isinstance(node, ast.ColumnRef):
        f = node.fields or ()
        return len(f) == 1 and isinstance(f[0], ast.String) and f[0].sval == "sysdate"
    return False


_ZONED_TYPES = frozenset({"timestamptz"})
_ZONED_CALLS = frozenset({"now", "pg_systimestamp", "statement_timestamp", "transaction_timestamp"})


def temporal(node: Any) -> bool:
    """:func:`local_temporal`, or visibly a timestamp with time zone (a cast to one, ``now()``,
    ``CURRENT_TIMESTAMP``): a value both engines format in the session time zone."""
    from pglast import ast

    if local_temporal(node):
        return True
    if isinstance(node, ast.SQLValueFunction):
        return node.op.name.startswith("SVFOP_CURRENT_TIMESTAMP")
    if isinstance(node, ast.TypeCast):
        names = [n.sval for n in node.typeName.names or ()]
        return bool(names) and names[-1].lower() in _ZONED_TYPES and not node.typeName.arrayBounds
    return isinstance(node, ast.FuncCall) and node.funcname[-1].sval in _ZONED_CALLS


def _pg_args(node: Any) -> tuple:
    return tuple(getattr(node, "args", None) or ())


# ---- forms ----------------------------------------------------------------------------------------------

def rounded_clock(p: int) -> Any:
    """``current_timestamp()`` rounded to ``p`` (0-5) fractional digits, as timestamp(p) rounds (half up): on
    the instant, which every time zone's whole-second offset leaves the same when read locally. p = 0:
    ``timestamp_seconds(unix_seconds(current_timestamp() + INTERVAL '0.5' SECOND))`` (never NULL, as Spark's
    analyser sees it); else ``timestamp_micros((unix_micros(current_timestamp()) + h) DIV u * u)``."""
    exp = _exp()
    if p == 0:
        half = exp.Add(this=exp.CurrentTimestamp(),
                       expression=exp.Interval(this=string("0.5"), unit=exp.Var(this="SECOND")))
        return call("timestamp_seconds", call("unix_seconds", half))
    unit = 10 ** (6 - p)
    micros = exp.Add(this=call("unix_micros", exp.CurrentTimestamp()), expression=number(unit // 2))
    down = exp.Mul(this=exp.IntDiv(this=exp.Paren(this=micros), expression=number(unit)), expression=number(unit))
    return call("timestamp_micros", down)


def _sysdate(args: list[Any], node: Any) -> Any:
    """openGauss's ``CURRENT_TIMESTAMP::timestamp(0)``: the statement's time rounded to the second, read in the
    session time zone."""
    return cast(rounded_clock(0), "TIMESTAMPNTZ")


def _decode(args: list[Any], node: Any) -> Any:
    exp = _exp()
    x, *rest = args
    ifs = [exp.If(this=exp.NullSafeEQ(this=paren(x), expression=paren(rest[i])), true=rest[i + 1])
           for i in range(0, len(rest) - 1, 2)]
    return exp.Case(ifs=ifs, default=rest[-1] if len(rest) % 2 else None)


_DATE_UNITS = {  # PostgreSQL's date_trunc spellings (openGauss's trunc(d, unit)) -> Spark trunc(date, unit)
    **dict.fromkeys(("year", "years", "y", "yr", "yrs"), "YEAR"),
    **dict.fromkeys(("quarter", "qtr"), "QUARTER"),
    **dict.fromkeys(("month", "months", "mon", "mons"), "MONTH"),
    **dict.fromkeys(("week", "weeks", "w"), "WEEK"),
    **dict.fromkeys(("day", "days", "d"), "DAY"),
}


def _unit(args: list[Any]) -> str | None:
    s = string_literal(args[1]) if len(args) == 2 else "day"
    return None if s is None else _DATE_UNITS.get(s.strip().lower())


def _trunc_applies(args: list[Any], node: Any) -> bool:
    return local_temporal(_pg_args(node)[0]) and _unit(args) is not None


def _trunc(args: list[Any], node: Any) -> Any:
    unit = _unit(args)
    day = cast(args[0], "DATE")
    return ntz(day if unit == "DAY" else call("trunc", day, string(unit)))


def _add_months(args: list[Any], node: Any) -> Any:
    exp = _exp()
    return exp.Add(this=ntz(args[0]), expression=month_interval(int_literal(args[1])))


def _last_day(args: list[Any], node: Any) -> Any:
    exp = _exp()
    x = ntz(args[0])
    time_of_day = exp.Sub(this=x, expression=ntz(cast(x, "DATE")))
    return exp.Add(this=ntz(call("last_day", x)), expression=exp.Paren(this=time_of_day))


def _local_first(args: list[Any], node: Any) -> bool:
    return local_temporal(_pg_args(node)[0])


def _is_now(args: list[Any], node: Any) -> bool:
    s = string_literal(args[0])
    return s is not None and s.strip().lower() == "now"


# to_char's datetime fields with the same text in Spark's datetime patterns (checked on both engines by
# tests/test_spark_functions.py), longest first; a field GaussDB reads where one of these starts (SSSS, the
# seconds since midnight) is in _PG_LONGER, so that such a format has no form
_CHAR_FIELDS = (("HH24", "HH"), ("HH12", "hh"), ("YYYY", "yyyy"), ("DDD", "DDD"), ("Mon", "MMM"), ("YY", "yy"),
                ("MM", "MM"), ("DD", "dd"), ("HH", "hh"), ("MI", "mm"), ("SS", "ss"), ("MS", "SSS"),
                ("US", "SSSSSS"), ("AM", "a"), ("PM", "a"), ("Dy", "EEE"))
_PG_LONGER = ("SSSSS", "SSSS", "Month", "MONTH", "MON", "DAY", "Day", "DY", "YYYYY")
_CHAR_SEPARATORS = frozenset(" -/:.,;_")


def spark_pattern(fmt: str) -> str | None:
    """The Spark datetime pattern giving the same text as GaussDB's to_char format ``fmt``, or None when a
    part of it has no known equal (a field not in the table, a quoted text, a modifier such as FM or TH, two
    fields Spark would read as one)."""
    out, i = [], 0
    while i < len(fmt):
        if any(fmt.startswith(t, i) for t in _PG_LONGER):
            return None
        for field, pattern in _CHAR_FIELDS:
            if fmt.startswith(field, i):
                if out and out[-1][-1] == pattern[0]:  # MMMM, MSUS: one longer Spark field, not two
                    return None
                out.append(pattern)
                i += len(field)
                break
        else:
            if fmt[i] not in _CHAR_SEPARATORS:
                return None
            out.append(fmt[i])
            i += 1
    return "".join(out) if out else None


def _to_char_applies(args: list[Any], node: Any) -> bool:
    fmt = string_literal(args[1])
    return fmt is not None and temporal(_pg_args(node)[0]) and spark_pattern(fmt) is not None


def _to_char(args: list[Any], node: Any) -> Any:
    return call("date_format", args[0], string(spark_pattern(string_literal(args[1]))))


def _coalesce(args: list[Any], node: Any) -> Any:
    return _exp().Coalesce(this=args[0], expressions=args[1:])


def _current_timestamp(args: list[Any], node: Any) -> Any:
    return _exp().CurrentTimestamp()


def _current_date(args: list[Any], node: Any) -> Any:
    return _exp().CurrentDate()


def _same(spark_name: str) -> Callable[[list[Any], Any], Any]:
    return lambda args, node: call(spark_name, *args)


def _aggregate(cls: str) -> Callable[[list[Any], Any], Any]:
    return lambda args, node: getattr(_exp(), cls)(this=args[0])


_STATEMENT = ("the statement's start time; on Delta every statement is its own transaction, so GaussDB's "
              "transaction start time is the same")
_UTF8 = "counts the bytes of the UTF-8 encoding: exact for a UTF-8 database (GaussDB's default)"
_CASE = ("Spark changes the case of every letter (Unicode); GaussDB follows the database's LC_CTYPE: exact for "
         "ASCII text and for a UTF-8 LC_CTYPE, not for LC_CTYPE=C with non-ASCII letters")
_ORDER = ("Spark compares strings by their UTF-8 bytes, as GaussDB's C collation: under another collation the "
          "smallest/largest string may differ")

_FORMS: tuple[Form, ...] = (
    # -- current date and time (volatile: never in a generated column)
    Form("sysdate", (0,), "sysdate",
         "CAST(timestamp_seconds(unix_seconds(current_timestamp() + INTERVAL '0.5' SECOND)) AS TIMESTAMP_NTZ)",
         "openGauss's sysdate is CURRENT_TIMESTAMP::timestamp(0): the statement's time in the session time zone, "
         "rounded to the second (" + _STATEMENT + ")", _sysdate, volatile=True),
    Form("pg_systimestamp", (0,), "pg_systimestamp()", "current_timestamp()", _STATEMENT, _current_timestamp,
         volatile=True),
    Form("now", (0,), "now()", "current_timestamp()", _STATEMENT, _current_timestamp, volatile=True),
    Form("transaction_timestamp", (0,), "transaction_timestamp()", "current_timestamp()", _STATEMENT,
         _current_timestamp, volatile=True),
    Form("statement_timestamp", (0,), "statement_timestamp()", "current_timestamp()", _STATEMENT,
         _current_timestamp, volatile=True),
    Form("curdate", (0,), "curdate()", "current_date()", "the statement's date in the session time zone (a "
         "statement is a transaction on Delta)", _current_date, volatile=True),
    Form("text_date", (1,), "text_date('now')", "current_date()",
         "", _current_date, _is_now, volatile=True),
    Form("random", (0,), "random()", "rand()", "a double in [0, 1), a new value for every row",
         lambda args, node: _exp().Rand(), volatile=True),
    # -- NULL handling and conditionals
    Form("nvl", (2,), "nvl(a, b)", "COALESCE(a, b)", "", _coalesce),
    Form("ifnull", (2,), "ifnull(a, b)", "COALESCE(a, b)", "", _coalesce),
    Form("nvl2", (3,), "nvl2(a, b, c)", "CASE WHEN a IS NOT NULL THEN b ELSE c END", "",
         lambda args, node: _exp().Case(ifs=[_exp().If(this=_exp().Not(this=_exp().Is(
             this=paren(args[0]), expression=_exp().Null())), true=args[1])], default=args[2])),
    Form("decode", 3,
         "decode(x, s1, r1, ..., [default])", "CASE WHEN x IS NOT DISTINCT FROM s1 THEN r1 ... ELSE default END",
         "NULL matches NULL, as in DECODE; not decode(s, format) (two arguments)", _decode),
    Form("if", (3,), "if(c, a, b)", "IF(c, a, b)", "a NULL condition takes b in both",
         lambda args, node: _exp().If(this=args[0], true=args[1], false=args[2])),
    # -- strings
    Form("instr", (2,), "instr(s, t)", "instr(s, t)",
         "the 1-based position of the first t, 0 when absent, 1 for an empty t; not with a start position or "
         "an occurrence", _same("instr"), rewrite=False),
    Form("lengthb", (1,), "lengthb(s)", "octet_length(s)", _UTF8, _same("octet_length")),
    Form("octet_length", (1,), "octet_length(s)", "octet_length(s)", _UTF8, _same("octet_length"), rewrite=False),
    Form("lower", (1,), "lower(s)", "lower(s)", _CASE, _same("lower"), rewrite=False),
    Form("upper", (1,), "upper(s)", "upper(s)", _CASE, _same("upper"), rewrite=False),
    Form("md5", (1,), "md5(s)", "md5(s)", "32 lower-case hex digits of the UTF-8 bytes' MD5 (a UTF-8 database)",
         _same("md5"), rewrite=False),
    Form("btrim", (1,), "btrim(s) / TRIM(s)", "trim(s)", "spaces (U+0020) only, at both ends", _same("trim"),
         rewrite=False),
    Form("ltrim", (1,), "ltrim(s)", "ltrim(s)", "spaces (U+0020) only", _same("ltrim"), rewrite=False),
    Form("rtrim", (1,), "rtrim(s)", "rtrim(s)", "spaces (U+0020) only", _same("rtrim"), rewrite=False),
    Form("replace", (3,), "replace(s, from, to)", "replace(s, from, to)",
         "every occurrence; an empty 'from' leaves s as it is in both", _same("replace"), rewrite=False),
    Form("to_char", (2,), "to_char(d, fmt)", "date_format(d, pattern)",
         "only when d is visibly a date or a timestamp (a cast, sysdate, now(), CURRENT_TIMESTAMP, a date "
         "function) and fmt a literal of the fields YYYY YY MM DD DDD HH24 HH12 HH MI SS MS US AM PM Mon Dy "
         "and the separators - / : . , ; _ and space (the same text in both, English names)", _to_char,
         _to_char_applies),
    # -- numbers
    Form("abs", (1,), "abs(x)", "abs(x)", "same type; overflow of the smallest integer is an error in both "
         "(Spark's ANSI mode)", _same("abs"), rewrite=False),
    # -- date arithmetic (the argument visibly a date or a timestamp without time zone)
    Form("add_months", (2,), "add_months(d, n)", "CAST(d AS TIMESTAMP_NTZ) + INTERVAL 'n' MONTH",
         "n an integer literal; Spark clamps the end of a shorter month as openGauss does (2020-01-31 + 1 -> "
         "2020-02-29)",
         _add_months, lambda args, node: int_literal(args[1]) is not None),
    Form("trunc", (1, 2), "trunc(d [, unit])", "CAST(trunc(CAST(d AS DATE), unit) AS TIMESTAMP_NTZ)",
         "only when d is visibly a date or a timestamp without time zone (a cast, sysdate, CURRENT_DATE, "
         "LOCALTIMESTAMP, a date function) and unit a literal year, quarter, month, week or day (PostgreSQL's "
         "date_trunc spellings; day when absent): local calendar arithmetic, no time zone involved. The numeric "
         "trunc has no exact Spark form", _trunc, _trunc_applies),
    Form("last_day", (1,), "last_day(d)",
         "CAST(last_day(x) AS TIMESTAMP_NTZ) + (x - CAST(CAST(x AS DATE) AS TIMESTAMP_NTZ)) with x = "
         "CAST(d AS TIMESTAMP_NTZ)",
         "only when d is visibly a date or a timestamp without time zone; d is evaluated three times",
         _last_day, _local_first),
    # -- aggregates (view and CREATE TABLE AS queries; never with OVER, FILTER or ORDER BY)
    Form("count", (1,), "count(x)", "count(x)", "also count(*) and count(DISTINCT x)",
         lambda args, node: _exp().Count(this=args[0]), rewrite=False),
    Form("min", (1,), "min(x)", "min(x)", _ORDER, _aggregate("Min"), rewrite=False),
    Form("max", (1,), "max(x)", "max(x)", _ORDER, _aggregate("Max"), rewrite=False),
    Form("sum", (1,), "sum(x)", "sum(x)",
         "the same value; a sum of bigint is a bigint on Spark (numeric on GaussDB), which fails on overflow "
         "rather than differ", _aggregate("Sum"), rewrite=False),
)

FORMS: dict[str, tuple[Form, ...]] = {}
for _f in _FORMS:
    FORMS[_f.name] = FORMS.get(_f.name, ()) + (_f,)

# Why a call ddlc could be expected to write has no Spark form (the DDLC-W810 message)
NO_FORM: dict[str, str] = {
    "concat": "Spark's concat returns NULL when an argument is NULL, GaussDB's skips it",
    "log": "Spark's one-argument log is the natural logarithm, GaussDB's is base 10",
    "to_date": "GaussDB's to_date returns a timestamp(0) and reads its own formats; Spark's returns a DATE",
    "to_char": ("only to_char(d, fmt) with d visibly a date or a timestamp and fmt a literal of the fields "
                "docs/functions.md lists has one: GaussDB's other format models are not Spark's patterns"),
    "to_number": "GaussDB's to_number gives an unbounded numeric; Spark's decimals are bounded",
    "to_timestamp": "GaussDB's format models are not Spark's datetime patterns",
    "substr": "openGauss's substr is Oracle's (negative positions, an empty result), not Spark's",
    "substring": "GaussDB counts a start before 1 into the length, Spark does not",
    "length": "GaussDB does not count a char(n) value's trailing spaces, Spark counts its padding",
    "round": "GaussDB rounds a double half to even, Spark half up",
    "left": "a negative count keeps all but the last characters on GaussDB, none on Spark",
    "right": "a negative count keeps all but the first characters on GaussDB, none on Spark",
    "initcap": "GaussDB starts a word after any non-alphanumeric character, Spark after white space only",
    "regexp_replace": "GaussDB replaces the first match unless the 'g' flag, Spark every match",
    "to_hex": "GaussDB writes lower-case hex digits, Spark upper-case",
    "avg": "GaussDB averages integers as numeric, Spark as double",
    "sys_guid": "GaussDB's sys_guid is not a random UUID",
    "uuid": "GaussDB's uuid() is time-based, Spark's random",
    "systimestamp": "GaussDB's systimestamp is not documented as the statement's time",
    "clock_timestamp": "Spark has no clock read per row",
    # names of the table whose call does not have the shape a form needs
    "trunc": ("only trunc(d [, unit]) with d visibly a date or a timestamp without time zone and unit a literal "
              "year, quarter, month, week or day has one; the numeric trunc has none"),
    "add_months": "only add_months(d, n) with n an integer literal has one",
    "last_day": "only last_day(d) with d visibly a date or a timestamp without time zone has one",
    "text_date": "only text_date('now') has one: GaussDB's date input reads forms Spark's cast does not",
    "instr": "only instr(s, t) has one: GaussDB's start position and occurrence are not Spark's locate",
}


def form_for(name: str, args: list[Any], node: Any) -> Form | None:
    """The form of a call of ``name`` (lower case, unqualified or ``pg_catalog``) with these translated
    arguments, or None."""
    for f in FORMS.get(name, ()):
        if f.takes(len(args)) and f.applies(args, node):
            return f
    return None


def why_none(name: str, nargs: int) -> str:
    """Why a call has no Spark form (the DDLC-W810 message names GaussDB, whose call it is)."""
    if name in FORMS:
        return (f"{name}() with {nargs} argument{'' if nargs == 1 else 's'} or these arguments has no exact Spark "
                f"form: {NO_FORM.get(name, 'docs/functions.md lists the forms that have one')}")
    if name in NO_FORM:
        return f"{name}() has no exact Spark form: {NO_FORM[name]}"
    return f"{name}() is a GaussDB function with no exact Spark form in ddlc's table (docs/functions.md)"


@functools.cache
def spark_functions() -> frozenset[str]:
    """Spark 4's built-in functions (``SHOW SYSTEM FUNCTIONS``): ``ddlc/data/spark_functions.txt``."""
    from importlib import resources

    text = resources.files("ddlc.data").joinpath("spark_functions.txt").read_text("utf-8")
    return frozenset(ln for ln in text.splitlines() if ln and not ln.startswith("#"))


__all__ = ["FORMS", "Form", "NO_FORM", "form_for", "local_temporal", "spark_functions", "why_none"]
