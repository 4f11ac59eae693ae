"""Values of a START/END/EVERY partition key: cast, compare, step and print them like openGauss.

One :class:`Domain` per supported key type (``parse_utilcmd.cpp`` accepts int2/int4/int8,
numeric, float4/float8, date, timestamp and timestamptz). Each mirrors the server's operators:

* ``cast`` -- a bound as written (:class:`~ddlc.ir.partition.BoundValue`) to the column type,
  typmod included (``GetPartitionValue``); EVERY of a date/time key becomes an interval;
* ``fits(cur, end, step)`` -- ``CheckStepInRange``: ``cur <= end - step`` when ``cur < 0 <= end``
  or for date/time keys, else ``step <= end - cur``, computed in the column type (so overflow
  errors come out as the server's);
* ``add`` -- ``cur + step`` cast back to the column type (``timestamp(p)`` rounding);
* ``ambiguous`` -- the first-step check of numeric/float keys (``START + EVERY`` with EVERY as
  written must equal the first bound);
* ``text`` -- the type's output function (``pg_partition.boundaries`` text).

Errors are :class:`KeyValueError` carrying the server's message (with ``DETAIL:``/``HINT:``).

Work is bounded by the server's own limits, checked before any arithmetic: a constant is read as
``numeric_in`` reads it (an exponent beyond +-1000 is a syntax error, a value whose base-10000 weight
or display scale overflows its field does not fit: at most ~147,000 digits), an integer key's value is
range-checked by its magnitude before it becomes a Python int, and ``at_least`` gives a lower bound of
the partitions an EVERY makes, so a list the server refuses as too many partitions is refused without
stepping through it.
"""

from __future__ import annotations

import math
import re
import struct
from decimal import ROUND_FLOOR, ROUND_HALF_UP, Context, Decimal

from ..records import record
from ..ir.partition import BoundKind, BoundValue
from . import pg_datetime as dt
from .pg_datetime_input import date_in, timestamp_in, timestamptz_in
from .pg_interval import interval_in
from .. import lazyre

# (enum members read once: on Python 3.11 a read through the class goes through the enum metaclass's __getattr__ hook)
_NUMBER, _MAXVALUE = BoundKind.NUMBER, BoundKind.MAXVALUE

__all__ = ["KeyType", "KeyValueError", "Domain", "domain_for", "literal"]


@record(frozen=True, slots=True)
class KeyType:
    """The partition key column's type as the catalog names it (``int4``, ``numeric`` +
    ``(15,4)``, ``TIMESTAMP`` + ``(0) without time zone``, ``timestamptz`` + ``(6)``...)."""

    typename: str
    typmod: str = ""


class KeyValueError(Exception):
    def __init__(self, message: str, *, hint: str | None = None, detail: str | None = None) -> None:
        text = message + (f" DETAIL: {detail}" if detail else "") + (f" HINT: {hint}" if hint else "")
        super().__init__(text)
        self.text = text


NOT_CONST = "partition key value must be const or const-evaluable expression"
# numeric's own limits (numeric.cpp): an exponent within +-NUMERIC_MAX_PRECISION, a weight (base 10000)
# that fits an int16 and a display scale that fits NUMERIC_DSCALE_MASK; so a value has at most
# 4 * 32768 integer and 16383 fractional digits, and arithmetic at this precision is exact
NUMERIC_MAX_PRECISION = 1000
_NUMERIC_WEIGHT_MAX, _NUMERIC_WEIGHT_MIN, _NUMERIC_DSCALE_MAX = 32767, -32768, 0x3FFF
_CTX = Context(prec=150_000, rounding=ROUND_HALF_UP, Emax=10**6, Emin=-(10**6))
_EST = Context(prec=30, rounding=ROUND_FLOOR, Emax=10**6, Emin=-(10**6))
_NUM_RE = lazyre.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
_INT_RE = lazyre.compile(r"[+-]?\d+")
_INT_DIGITS = 19  # no integer of more digits fits an int8
NAN = "NaN"  # numeric NaN (sorts above every number, equals itself)
_HINT = "{} can not appear in a (START, END, EVERY) clause."


def _int_digits(text: str) -> int:
    """The number of significant digits of an integer's text (sign and leading zeros aside)."""
    return len(text.strip(" \t\n\r\f\v").lstrip("+-").lstrip("0"))


def numeric_fits(d: Decimal) -> Decimal:
    """``make_result``'s check: ``d`` when its weight and display scale fit numeric's fields."""
    if d.is_finite() and d:
        weight = d.adjusted() // 4  # base-10000 weight of the leading digit
        if not _NUMERIC_WEIGHT_MIN <= weight <= _NUMERIC_WEIGHT_MAX:
            raise KeyValueError("value overflows numeric format")
    exponent = d.as_tuple().exponent
    if isinstance(exponent, int) and -exponent > _NUMERIC_DSCALE_MAX:
        raise KeyValueError("value overflows numeric format")
    return d


def numeric_in(text: str, shown: str | None = None) -> Decimal:
    """``numeric_in`` of a number's text (no NaN): the exponent is range-checked as the server does
    (+-1000, before anything is built from it), then the value's size."""
    body = text.strip(" \t\n\r\f\v")
    bad = f'invalid input syntax for type numeric: "{text if shown is None else shown}"'
    if not _NUM_RE.fullmatch(body):
        raise KeyValueError(bad)
    exponent = body.lower().partition("e")[2]
    if exponent:
        digits = exponent.lstrip("+-").lstrip("0")
        if len(digits) > 4 or int(digits or "0") > NUMERIC_MAX_PRECISION:
            raise KeyValueError(bad)
    return numeric_fits(Decimal(body))


def literal(bv: BoundValue) -> tuple[str, object]:
    """The type the server gives a constant as written: ``int4``/``int8`` (an int), ``numeric``
    (a Decimal), ``unknown`` (a quoted string), ``typed`` (the BoundValue)."""
    if bv.kind is _NUMBER:
        text = bv.value or bv.text
        if _INT_RE.fullmatch(text) and _int_digits(text) <= _INT_DIGITS:
            n = int(text)
            if -(2**31) <= n < 2**31:
                return "int4", n
            if -(2**63) <= n < 2**63:
                return "int8", n
        return "numeric", numeric_in(text)
    if bv.kind is BoundKind.STRING:
        return "unknown", bv.value or ""
    return "typed", bv


def _numeric_text(d: Decimal) -> str:
    """``numeric_out``: plain notation, scale as written, no negative zero."""
    if d == 0:
        d = abs(d)
    return format(d, "f")


class Domain:
    """Interface (see module doc). ``integer``: integral keys get the const-integer precheck."""

    integer = False
    checks_ambiguity = False

    def cast(self, bv: BoundValue, *, every: bool = False):
        raise NotImplementedError

    def cmp(self, a, b) -> int:
        return (a > b) - (a < b)

    def check_invalid(self, s, e, d, name: str) -> None:
        pass

    def ambiguous(self, start, first, every: BoundValue) -> bool:
        return False

    def precheck(self, bv: BoundValue, name: str) -> None:
        pass

    def at_least(self, cur, end, step) -> int:
        """A lower bound of the whole steps from ``cur`` that stay at or below ``end`` (0: unknown)."""
        return 0


# ---- integers -----------------------------------------------------------------------------------
class IntDomain(Domain):
    integer = True

    def __init__(self, bits: int) -> None:
        self.lo, self.hi = -(2 ** (bits - 1)), 2 ** (bits - 1) - 1
        self.label = {16: "smallint", 32: "integer", 64: "bigint"}[bits]

    def _checked(self, v: int) -> int:
        if not self.lo <= v <= self.hi:
            raise KeyValueError(f"{self.label} out of range")
        return v

    def cast(self, bv: BoundValue, *, every: bool = False) -> int:
        kind, lit = literal(bv)
        if kind in ("int4", "int8"):
            return self._checked(lit)
        if kind == "numeric":  # numeric_int*: rounds half away from zero
            if lit.adjusted() >= _INT_DIGITS:  # range-checked by its size before it becomes an int
                raise KeyValueError(f"{self.label} out of range")
            return self._checked(int(lit.to_integral_value(rounding=ROUND_HALF_UP)))
        if kind == "unknown":
            text = lit.strip(" \t\n\r\f\v")
            syntax = "type bigint" if self.label == "bigint" else "integer"
            if not _INT_RE.fullmatch(text):
                raise KeyValueError(f'invalid input syntax for {syntax}: "{lit}"')
            if _int_digits(text) > _INT_DIGITS or not self.lo <= int(text) <= self.hi:
                raise KeyValueError(f'value "{lit}" is out of range for type {self.label}')
            return int(text)
        raise KeyValueError(NOT_CONST)

    def precheck(self, bv: BoundValue, name: str) -> None:
        if bv.kind is _MAXVALUE:
            return
        value = self.cast(bv)
        kind, lit = literal(bv)
        if kind == "numeric" and Decimal(value) != lit:
            raise KeyValueError(f'start/end/every value must be an const-integer for partition "{name}"')

    def fits(self, cur: int, end: int, step: int) -> bool:
        if cur < 0 <= end:
            return cur <= self._checked(end - step)
        return step <= self._checked(end - cur)

    def add(self, cur: int, step: int) -> int:
        return self._checked(cur + step)

    def at_least(self, cur: int, end: int, step: int) -> int:
        return (end - cur) // step if step > 0 else 0

    def text(self, v: int) -> str:
        return str(v)


# ---- numeric ------------------------------------------------------------------------------------
class NumericDomain(Domain):
    checks_ambiguity = True

    def __init__(self, precision: int | None, scale: int | None) -> None:
        self.precision, self.scale = precision, scale

    @staticmethod
    def parse(text: str):
        body = text.strip(" \t\n\r\f\v")
        if body.lower() == "nan":
            return NAN
        return numeric_in(body, text)

    def typmod(self, v):
        if v == NAN or self.precision is None:
            return v
        scale = self.scale or 0
        if v and v.adjusted() > self.precision - scale:  # clearly too big: refused before it is rounded
            raise KeyValueError(
                "numeric field overflow",
                detail=f"A field with precision {self.precision}, scale {scale} must round to an "
                f"absolute value less than {f'10^{self.precision - scale}' if self.precision - scale else '1'}.",
            )
        q = v.quantize(Decimal(1).scaleb(-scale), rounding=ROUND_HALF_UP, context=_CTX)
        limit = self.precision - scale
        if q != 0 and q.adjusted() >= limit:
            less = f"10^{limit}" if limit else "1"
            raise KeyValueError(
                "numeric field overflow",
                detail=f"A field with precision {self.precision}, scale {scale} must round to an "
                f"absolute value less than {less}.",
            )
        return q

    def raw(self, bv: BoundValue):
        kind, lit = literal(bv)
        if kind in ("int4", "int8", "numeric"):
            return Decimal(lit)
        if kind == "unknown":
            return self.parse(lit)
        raise KeyValueError(NOT_CONST)

    def cast(self, bv: BoundValue, *, every: bool = False):
        return self.typmod(self.raw(bv))

    def cmp(self, a, b) -> int:
        if a == NAN or b == NAN:
            return (a == NAN) - (b == NAN)
        return (a > b) - (a < b)

    @staticmethod
    def _op(a, b, sign: int):
        if a == NAN or b == NAN:
            return NAN
        return numeric_fits(_CTX.add(a, b) if sign > 0 else _CTX.subtract(a, b))

    def fits(self, cur, end, step) -> bool:
        if self.cmp(cur, Decimal(0)) < 0 <= self.cmp(end, Decimal(0)):
            return self.cmp(cur, self._op(end, step, -1)) <= 0
        return self.cmp(step, self._op(end, cur, -1)) <= 0

    def add(self, cur, step):
        return self._op(cur, step, 1)

    def at_least(self, cur, end, step) -> int:
        if NAN in (cur, end, step) or step <= 0:
            return 0
        steps = _EST.divide(_EST.subtract(end, cur), step)
        if steps.adjusted() > 18:  # more than any list can hold: no int is built from it
            return 2**62
        return int(steps.to_integral_value(rounding=ROUND_FLOOR))

    def check_invalid(self, s, e, d, name: str) -> None:
        if NAN in (s, e, d):
            raise KeyValueError(f'partition "{name}" is invalid.', hint=_HINT.format("NaN"))

    def ambiguous(self, start, first, every: BoundValue) -> bool:
        return self.cmp(first, self._op(start, self.raw(every), 1)) != 0

    def text(self, v) -> str:
        return NAN if v == NAN else _numeric_text(v)


# ---- float4 / float8 ----------------------------------------------------------------------------
def _f32(x: float) -> float:
    """C ``(float) x``: nearest float32 (as a Python float); overflow gives an infinity."""
    try:
        return struct.unpack("f", struct.pack("f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


_FLOAT_RE = lazyre.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|[+-]?(inf|infinity|nan)", re.I)


class FloatDomain(Domain):
    checks_ambiguity = True

    def __init__(self, bits: int) -> None:
        self.single = bits == 32
        self.label = "real" if self.single else "double precision"

    def _round(self, x: float) -> float:
        return _f32(x) if self.single else x

    def _from_text(self, text: str, shown: str) -> float:
        """``float4in``/``float8in``: strtod, then the range checks of each type."""
        body = text.strip(" \t\n\r\f\v")
        if not _FLOAT_RE.fullmatch(body):
            raise KeyValueError(f'invalid input syntax for type {self.label}: "{shown}"')
        val = float(body)
        mantissa = re.split("[eE]", body)[0]
        if (math.isinf(val) and "inf" not in body.lower()) or (val == 0 and re.search("[1-9]", mantissa)):
            raise KeyValueError(f'"{shown}" is out of range for type {self.label}')
        if self.single:
            single = _f32(val)
            if math.isinf(single) and not math.isinf(val):
                raise KeyValueError("value out of range: overflow")
            if single == 0 and val != 0:
                raise KeyValueError("value out of range: underflow")
            return single
        return val

    def cast(self, bv: BoundValue, *, every: bool = False) -> float:
        kind, lit = literal(bv)
        if kind in ("int4", "int8"):
            return self._round(float(lit))
        if kind == "numeric":  # numeric_float*: the input function on numeric_out's text
            text = _numeric_text(lit)
            return self._from_text(text, text)
        if kind == "unknown":
            return self._from_text(lit, lit)
        raise KeyValueError(NOT_CONST)

    def cmp(self, a: float, b: float) -> int:
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) - math.isnan(b)
        return (a > b) - (a < b)

    def _op(self, a: float, b: float) -> float:
        res = self._round(a + b)
        if math.isinf(res) and not (math.isinf(a) or math.isinf(b)):
            raise KeyValueError("value out of range: overflow")
        return res

    def fits(self, cur: float, end: float, step: float) -> bool:
        if self.cmp(cur, 0.0) < 0 <= self.cmp(end, 0.0):
            return self.cmp(cur, self._op(end, -step)) <= 0
        return self.cmp(step, self._op(end, -cur)) <= 0

    def add(self, cur: float, step: float) -> float:
        return self._op(cur, step)

    def at_least(self, cur: float, end: float, step: float) -> int:
        if not step > 0 or not math.isfinite(cur) or not math.isfinite(end):
            return 0
        steps = (end - cur) / step * (1 - 1e-9)  # a little less than the quotient: rounding aside
        return int(min(steps, 2.0**62)) if steps > 1 else 0

    def check_invalid(self, s, e, d, name: str) -> None:
        if any(math.isinf(x) for x in (s, e, d)):
            raise KeyValueError(f'partition "{name}" is invalid.', hint=_HINT.format("INF"))

    def ambiguous(self, start: float, first: float, every: BoundValue) -> bool:
        kind, lit = literal(every)
        if kind == "numeric":
            step = float(_numeric_text(lit))
        elif kind in ("int4", "int8") and self.single:
            step = float(lit)
        else:  # float8 + int and float + unknown are computed in the column type: always equal
            return False
        total = start + step  # float8 arithmetic (float48pl / float8pl)
        if math.isinf(total):
            raise KeyValueError("value out of range: overflow")
        if not self.single:  # the sum goes through numeric: 15 significant digits
            total = float(f"{total:.15g}")
        return self.cmp(first, total) != 0

    def text(self, v: float) -> str:
        if math.isnan(v):
            return "NaN"
        if math.isinf(v):
            return "Infinity" if v > 0 else "-Infinity"
        return f"{v:.6g}" if self.single else f"{v:.15g}"


# ---- date / timestamp / timestamptz -------------------------------------------------------------
def _precision(digits: str) -> int:
    """A typed literal's ``(p)``: an Iconst (a longer number is not one: the grammar refuses it)."""
    if _int_digits(digits) > 10 or int(digits) >= 2**31:
        raise KeyValueError(f'syntax error at or near "{digits}"')
    return int(digits)


class TimeDomain(Domain):
    def __init__(self, kind: str, precision: int | None, zone: str, compat: str) -> None:
        self.kind, self.precision, self.compat = kind, precision, compat
        self._zone_name = zone
        self._zone: dt.Zone | None = None

    @property
    def zone(self) -> dt.Zone:
        if self._zone is None:
            self._zone = dt.Zone(self._zone_name)
        return self._zone

    def _convert(self, v, src: str):
        """A value of type ``src`` cast to the key type (with its precision)."""
        if isinstance(v, dt.Current) or src == self.kind == "date":
            return v
        if src == "date":
            v, src = dt.date_to_timestamp(v), "timestamp"
        if self.kind == "date":
            return dt.timestamp_to_date(dt.tz_to_timestamp(v, self.zone) if src == "timestamptz" else v)
        if src != self.kind:
            v = dt.timestamp_to_tz(v, self.zone) if self.kind == "timestamptz" else dt.tz_to_timestamp(v, self.zone)
        return dt.adjust_timestamp(v, self.precision)

    def _input(self, text: str, kind: str, precision: int | None):
        if kind == "date":
            return date_in(text)
        if kind == "timestamp":
            return timestamp_in(text, precision)
        return timestamptz_in(text, precision, self.zone)

    def cast(self, bv: BoundValue, *, every: bool = False):
        try:
            return self._cast(bv, every)
        except dt.DateTimeError as exc:
            raise KeyValueError(exc.message, hint=exc.hint) from None

    def _cast(self, bv: BoundValue, every: bool):
        typed = bv.type_name.split("(")[0].split()[0] if bv.kind is BoundKind.TYPED else ""
        if every:
            if bv.kind is BoundKind.STRING:
                return interval_in(bv.value or "", compat=self.compat)
            if typed == "interval":  # INTERVAL[(p)] '...' [fields]
                m = re.search(r"\((\d+)\)", bv.type_name)
                return interval_in(bv.value or "", qualifier=bv.qualifier,
                                   precision=_precision(m.group(1)) if m else None, compat=self.compat)
            raise KeyValueError(NOT_CONST)
        if bv.kind is BoundKind.STRING:
            return self._input(bv.value or "", self.kind, self.precision)
        if typed in ("date", "timestamp", "timestamptz"):
            m = re.search(r"\((\d+)\)", bv.type_name)
            precision = _precision(m.group(1)) if m else None
            if typed == "date":
                src = "timestamp" if self.compat == "A" else "date"
                precision = 0
            else:
                src = "timestamptz" if typed == "timestamptz" or "with time zone" in bv.type_name else "timestamp"
            return self._convert(self._input(bv.value or "", src, precision), src)
        raise KeyValueError(NOT_CONST)

    def cmp(self, a, b) -> int:
        for x, y, sign in ((a, b, 1), (b, a, -1)):
            if isinstance(x, dt.Current):
                if isinstance(y, float):  # +-infinity
                    return -sign if y > 0 else sign
                raise KeyValueError(f'ddlc cannot evaluate "{x.word}": it depends on the current time')
        return (a > b) - (a < b)

    def _plus(self, v, step: dt.Interval):
        try:
            if isinstance(v, dt.Current):
                raise KeyValueError(f'ddlc cannot evaluate "{v.word}": it depends on the current time')
            if self.kind == "date":
                return dt.timestamp_to_date(dt.timestamp_pl_interval(dt.date_to_timestamp(v), step))
            return dt.timestamp_pl_interval(v, step, self.zone if self.kind == "timestamptz" else None)
        except dt.DateTimeError as exc:
            raise KeyValueError(exc.message, hint=exc.hint) from None

    def fits(self, cur, end, step: dt.Interval) -> bool:
        return self.cmp(cur, self._plus(end, -step)) <= 0

    def add(self, cur, step: dt.Interval):
        return dt.adjust_timestamp(self._plus(cur, step), None if self.kind == "date" else self.precision)

    def at_least(self, cur, end, step: dt.Interval) -> int:
        """Whole steps that surely fit: the longest a step can be is 31 days a month and 25 hours a
        day (a DST change), whatever the month and zone it starts in."""
        if not isinstance(cur, int) or not isinstance(end, int):
            return 0
        longest = max(step.months, 0) * 31 * dt.US_DAY + max(step.days, 0) * 25 * dt.US_HOUR + max(step.micros, 0)
        if longest <= 0:
            return 0
        span = (end - cur) * (dt.US_DAY if self.kind == "date" else 1)
        return max(span // longest, 0)

    def check_invalid(self, s, e, d, name: str) -> None:
        if any(isinstance(x, float) for x in (s, e)):
            raise KeyValueError(f'partition "{name}" is invalid.', hint=_HINT.format("INF"))

    def text(self, v) -> str:
        try:
            if self.kind == "date":
                return dt.date_out(v)
            if self.kind == "timestamp":
                return dt.timestamp_out(v)
            return dt.timestamptz_out(v, self.zone)
        except dt.DateTimeError as exc:
            raise KeyValueError(exc.message, hint=exc.hint) from None


# ---- key type -> domain ---------------------------------------------------------------------
_UNSUPPORTED_HINT = (
    "Valid datatypes are: smallint, int, bigint, float4/real, float8/double, numeric, date and "
    "timestamp [with time zone]."
)
_INTS = {"int2": 16, "smallint": 16, "int4": 32, "int": 32, "integer": 32, "int8": 64, "bigint": 64}


def _typmod_int(text: str) -> int:
    """A typmod number (an int4 in the catalog): anything longer is refused before it is built."""
    if _int_digits(text) > 10 or not -(2**31) <= int(text) < 2**31:
        raise KeyValueError(f'value "{text}" is out of range for type integer')
    return int(text)


def domain_for(key: KeyType, *, column: str = "", timezone: str = "UTC", compat: str = "A") -> Domain:
    """The domain of a key column; raises the server's unsupported-datatype error otherwise."""
    name = " ".join(key.typename.lower().split())
    mod = " ".join(key.typmod.lower().split())
    nums = [_typmod_int(x) for x in re.findall(r"-?\d+", mod.split(")")[0])] if mod.startswith("(") else []
    with_tz = "with time zone" in mod and "without" not in mod
    if name in _INTS:
        return IntDomain(_INTS[name])
    if name in ("numeric", "decimal"):
        if nums and not 1 <= nums[0] <= NUMERIC_MAX_PRECISION:
            raise KeyValueError(f"NUMERIC precision {nums[0]} must be between 1 and {NUMERIC_MAX_PRECISION}")
        if len(nums) > 1 and not 0 <= nums[1] <= nums[0]:
            raise KeyValueError(f"NUMERIC scale {nums[1]} must be between 0 and precision {nums[0]}")
        return NumericDomain(nums[0] if nums else None, nums[1] if len(nums) > 1 else (0 if nums else None))
    if name in ("float4", "real") or (name == "float" and nums and nums[0] <= 24):
        return FloatDomain(32)
    if name in ("float8", "double precision", "float"):
        return FloatDomain(64)
    if name == "date":
        return TimeDomain("date", None, timezone, compat)
    if name in ("timestamp", "timestamp without time zone", "timestamptz", "timestamp with time zone"):
        kind = "timestamptz" if name in ("timestamptz", "timestamp with time zone") or with_tz else "timestamp"
        return TimeDomain(kind, nums[0] if nums else None, timezone, compat)
    raise KeyValueError(
        f'datatype of column "{column}" is unsupported for partition key in start/end clause.',
        hint=_UNSUPPORTED_HINT,
    )


__all__ += ["IntDomain", "NumericDomain", "FloatDomain", "TimeDomain", "NOT_CONST"]
