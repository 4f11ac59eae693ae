"""Text input of openGauss intervals: ``DecodeInterval``, ``interval_in`` and
``AdjustIntervalForTypmod`` (``datetime.cpp``, ``timestamp.cpp``).

A-compatibility rules (openGauss's default): a bare number means days, a leading ``-`` negates
every field when no other field has a sign, and the ``HOUR``/``MINUTE``/``SECOND`` ranges move
whole days out of the time part (``interval_format_adjust``). ``compat="PG"`` gives PostgreSQL's
readings (bare number = seconds, signs left alone).
"""

from __future__ import annotations

from .pg_datetime import US_DAY, US_HOUR, US_MIN, US_SEC, DateTimeError, Interval, Tm
from .pg_datetime_input import (
    _ALL_SECS_M,
    _DATE_M,
    _TIME_M,
    BAD,
    INTERVAL_OVERFLOW,
    OVERFLOW,
    _decode_time,
    _Fail,
    _parse_error,
    _strtoi,
    parse_fields,
)

# ---- intervals (DecodeInterval, interval_in) ---------------------------------------------------
_UNIT_WORDS = {
    "microsecond": "microsecon us usec usecs useconds",
    "millisecond": "millisecon ms msec msecs mseconds",
    "second": "s sec secs second seconds",
    "minute": "m mi min mins minute minutes",
    "hour": "h hh hr hrs hour hours",
    "day": "d dd ddd j day days",
    "week": "w week weeks",
    "month": "mm mon mons month months",
    "year": "y yr yrs yyyy year years",
    "decade": "dec decs decade decades",
    "century": "c cc cent century centuries",
    "millennium": "mil mils millennia millennium",
    "quarter": "q qtr quarter",
    "tz": "timezone timezone_h timezone_m",
}
_DELTATK = {w: ("UNITS", unit) for unit, words in _UNIT_WORDS.items() for w in words.split()}
_DELTATK.update({"@": ("IGNORE", None), "ago": ("AGO", None), "invalid": ("RESERV", None),
                 "undefined": ("RESERV", None)})
_FIELD_ORDER = ("year", "month", "day", "hour", "minute", "second")


def interval_fields(qualifier: str) -> tuple[frozenset | None, int | None]:
    """``day to second(3)`` -> ({day, hour, minute, second}, 3); ``""`` -> (None, None)."""
    if not qualifier:
        return None, None
    precision = None
    if "(" in qualifier:
        qualifier, _, rest = qualifier.partition("(")
        precision = int(rest.rstrip(")"))
    words = qualifier.split()
    first, last = words[0], words[-1]
    return frozenset(_FIELD_ORDER[_FIELD_ORDER.index(first) : _FIELD_ORDER.index(last) + 1]), precision


def _adjust_fract_seconds(frac: float, tm: Tm, scale: int) -> None:
    if frac == 0:
        return
    frac *= scale
    sec = int(frac)
    tm.sec += sec
    tm.fsec += round((frac - sec) * US_SEC)


def _adjust_fract_days(frac: float, tm: Tm, scale: int) -> None:
    if frac == 0:
        return
    frac *= scale
    extra = int(frac)
    tm.mday += extra
    _adjust_fract_seconds(frac - extra, tm, 86400)


_DEFAULT_TYPE = {
    frozenset({"year"}): "year", frozenset({"month"}): "month", frozenset({"year", "month"}): "month",
    frozenset({"day"}): "day", frozenset({"hour"}): "hour", frozenset({"day", "hour"}): "hour",
    frozenset({"minute"}): "minute", frozenset({"hour", "minute"}): "minute",
    frozenset({"day", "hour", "minute"}): "minute", frozenset({"second"}): "second",
    frozenset({"minute", "second"}): "second", frozenset({"hour", "minute", "second"}): "second",
    frozenset({"day", "hour", "minute", "second"}): "second",
}


def _decode_interval(fields: list[tuple[str, str]], rng: frozenset | None, compat: str) -> tuple[Tm, bool]:
    tm = Tm()
    fmask: set = set()
    typ: str | None = None
    is_before = invalid = False
    for ftype, f in reversed(fields):
        if ftype == "TIME":
            _decode_time(f, rng, tm)
            tmask, typ = set(_TIME_M), "day"
        elif ftype in ("TZ", "DATE", "NUMBER"):
            if ftype == "TZ" and ":" in f[1:]:
                probe = Tm(**vars(tm))
                try:
                    _decode_time(f[1:], rng, probe)
                except _Fail:
                    probe = None
                if probe is not None:
                    if f[0] == "-":
                        probe.hour, probe.min, probe.sec, probe.fsec = -probe.hour, -probe.min, -probe.sec, -probe.fsec
                    tm, tmask, typ = probe, set(_TIME_M), "day"
                    if tmask & fmask:
                        raise _Fail(BAD)
                    fmask |= tmask
                    continue
            if typ is None:
                typ = _DEFAULT_TYPE.get(rng, "second" if compat == "PG" else "day") if rng else (
                    "second" if compat == "PG" else "day")
            val, j = _strtoi(f)
            if j < len(f) and f[j] == "-":  # SQL "years-months"
                val2, k = _strtoi(f, j + 1)
                if not 0 <= val2 < 12:
                    raise _Fail(OVERFLOW)
                if k != len(f):
                    raise _Fail(BAD)
                typ, fval = "month", 0.0
                val = val * 12 + (-val2 if f[0] == "-" else val2)
            elif j < len(f) and f[j] == ".":
                try:
                    fval = float(f[j:])
                except ValueError:
                    raise _Fail(BAD) from None
                fval = -fval if f[0] == "-" else fval
            elif j == len(f):
                fval = 0.0
            else:
                raise _Fail(BAD)
            tmask = _apply_unit(typ, val, fval, tm)
            if typ == "hour":
                typ = "day"
        elif ftype in ("STRING", "SPECIAL"):
            kind, unit = _DELTATK.get(f[:10], ("UNKNOWN", None))
            if kind == "IGNORE":
                continue
            tmask = set()
            if kind == "UNITS":
                typ = unit
            elif kind == "AGO":
                is_before, typ = True, "after-ago"
            elif kind == "RESERV":
                tmask, invalid = set(_DATE_M | _TIME_M), True
            else:
                raise _Fail(BAD)
        else:
            raise _Fail(BAD)
        if tmask & fmask:
            raise _Fail(BAD)
        fmask |= tmask
    if not fmask:
        raise _Fail(BAD)
    if tm.fsec:
        sec = abs(tm.fsec) // US_SEC * (1 if tm.fsec > 0 else -1)
        tm.fsec -= sec * US_SEC
        tm.sec += sec
    if compat != "PG" and fields[0][1][:1] == "-" and not any(f[:1] in "+-" for _, f in fields[1:]):
        for attr in ("fsec", "sec", "min", "hour", "mday", "mon", "year"):
            if getattr(tm, attr) > 0:
                setattr(tm, attr, -getattr(tm, attr))
    if is_before:
        for attr in ("fsec", "sec", "min", "hour", "mday", "mon", "year"):
            setattr(tm, attr, -getattr(tm, attr))
    return tm, invalid


def _apply_unit(typ: str, val: int, fval: float, tm: Tm) -> set:
    if typ == "microsecond":
        tm.fsec += round(val + fval)
    elif typ == "millisecond":
        sec = abs(val) // 1000 * (1 if val >= 0 else -1)
        tm.sec += sec
        tm.fsec += round((val - sec * 1000 + fval) * 1000)
    elif typ == "second":
        tm.sec += val
        tm.fsec += round(fval * US_SEC)
        return {"second"} if fval == 0 else set(_ALL_SECS_M)
    elif typ == "minute":
        tm.min += val
        _adjust_fract_seconds(fval, tm, 60)
    elif typ == "hour":
        tm.hour += val
        _adjust_fract_seconds(fval, tm, 3600)
    elif typ == "day":
        tm.mday += val
        _adjust_fract_seconds(fval, tm, 86400)
    elif typ == "week":
        tm.mday += val * 7
        _adjust_fract_days(fval, tm, 7)
    elif typ == "month":
        tm.mon += val
        _adjust_fract_days(fval, tm, 30)
    elif typ in ("year", "decade", "century", "millennium"):
        years = {"year": 1, "decade": 10, "century": 100, "millennium": 1000}[typ]
        tm.year += val * years
        if fval:
            tm.mon += int(fval * 12 * years)
    else:
        raise _Fail(BAD)
    return {typ}


def adjust_interval(iv: Interval, rng: frozenset | None, precision: int | None) -> Interval:
    """``AdjustIntervalForTypmod`` with openGauss's ``interval_format_adjust``."""
    months, days, micros = iv
    if rng is not None:
        smallest = next(f for f in reversed(_FIELD_ORDER) if f in rng)
        if smallest == "year":
            months, days, micros = months - months % 12 if months >= 0 else -((-months) // 12 * 12), 0, 0
        elif smallest == "month":
            days, micros = 0, 0
        elif smallest == "day":
            micros = 0
        else:
            unit = {"hour": US_HOUR, "minute": US_MIN, "second": 1}[smallest]
            extra = abs(micros) // US_DAY * (1 if micros >= 0 else -1)
            days += extra
            trunc = abs(micros) // unit * unit * (1 if micros >= 0 else -1)
            micros = trunc - extra * US_DAY
    if precision is not None and precision < 6:
        scale = 10 ** (6 - precision)
        sign = 1 if micros >= 0 else -1
        micros = sign * ((abs(micros) + scale // 2) // scale * scale)
    return Interval(months, days, micros)


def interval_in(text: str, *, qualifier: str = "", precision: int | None = None, compat: str = "A") -> Interval:
    """``interval_in`` for a string, or for a typed ``INTERVAL[(p)] '...' <qualifier>`` literal."""
    rng, field_precision = interval_fields(qualifier)
    precision = field_precision if field_precision is not None else precision
    try:
        tm, invalid = _decode_interval(parse_fields(text), rng, compat)
    except _Fail as exc:
        shown = text
        if exc.code == BAD:  # the ISO 8601 retry strips leading blanks and one '-'
            shown = text.lstrip(" ")
            shown = shown[1:] if shown.startswith("-") else shown
        raise _parse_error(INTERVAL_OVERFLOW if exc.code == OVERFLOW else exc.code, shown, "interval") from None
    if invalid:
        raise DateTimeError(f'date/time value "{text}" is no longer supported')
    iv = Interval(tm.year * 12 + tm.mon, tm.mday, ((tm.hour * 60 + tm.min) * 60 + tm.sec) * US_SEC + tm.fsec)
    return adjust_interval(iv, rng, precision)
