"""Text input of openGauss date/time values: ``ParseDateTime``, ``DecodeDateTime``,
``DecodeInterval`` and the type input functions built on them (``datetime.cpp``).

Session settings assumed: ``DateStyle`` ISO, MDY and ``timezone_abbreviations`` 'Default'.
Not supported (rejected as invalid input): the ``y2001m02d04``/julian-day formats and ISO 8601
interval syntax (``P1Y2M``).
"""

from __future__ import annotations

from .pg_datetime import (
    DAY_TAB,
    EPOCH_TS,
    NOBEGIN,
    NOEND,
    POSTGRES_EPOCH_JDATE,
    TZ_ABBREVS,
    UNIX_EPOCH_JDATE,
    US_SEC,
    Current,
    DateTimeError,
    Tm,
    Zone,
    adjust_timestamp,
    date2j,
    isleap,
    j2date,
    tm2timestamp,
    valid_julian,
)

# field-mask bits (DTK_M): plain strings
_DATE_M = frozenset({"year", "month", "day"})
_ALL_SECS_M = frozenset({"second", "millisecond", "microsecond"})
_TIME_M = frozenset({"hour", "minute"}) | _ALL_SECS_M
BAD, OVERFLOW, MD_OVERFLOW, INTERVAL_OVERFLOW, TZ_OVERFLOW = range(5)


class _Fail(Exception):  # a DTERR code, turned into a message by the caller
    def __init__(self, code: int) -> None:
        self.code = code


def _parse_error(code: int, text: str, type_name: str) -> DateTimeError:
    if code in (OVERFLOW, MD_OVERFLOW):
        hint = 'Perhaps you need a different "datestyle" setting.' if code == MD_OVERFLOW else None
        return DateTimeError(f'date/time field value out of range: "{text}"', hint)
    if code == INTERVAL_OVERFLOW:
        return DateTimeError(f'interval field value out of range: "{text}"')
    if code == TZ_OVERFLOW:
        return DateTimeError(f'time zone displacement out of range: "{text}"')
    return DateTimeError(f'invalid input syntax for type {type_name}: "{text}"')


# ---- lexical analysis (ParseDateTime) --------------------------------------------------------
def _isdigit(c: str) -> bool:
    return "0" <= c <= "9"


def _isalpha(c: str) -> bool:
    return "a" <= c.lower() <= "z"


_DATETK = {
    "-infinity": ("RESERV", "early"), "ad": ("ADBC", False), "allballs": ("RESERV", "zulu"),
    "am": ("AMPM", "am"), "at": ("IGNORE", 0), "bc": ("ADBC", True), "current": ("RESERV", "current"),
    "d": ("UNITS", "day"), "dow": ("UNITS", "dow"), "doy": ("UNITS", "doy"), "dst": ("DTZMOD", 3600),
    "epoch": ("RESERV", "epoch"), "h": ("UNITS", "hour"), "infinity": ("RESERV", "late"),
    "invalid": ("RESERV", "invalid"), "isodow": ("UNITS", "isodow"), "isoyear": ("UNITS", "isoyear"),
    "j": ("UNITS", "julian"), "jd": ("UNITS", "julian"), "julian": ("UNITS", "julian"),
    "m": ("UNITS", "month"), "mm": ("UNITS", "minute"), "now": ("RESERV", "now"), "on": ("IGNORE", 0),
    "pm": ("AMPM", "pm"), "s": ("UNITS", "second"), "t": ("ISOTIME", "time"),
    "today": ("RESERV", "today"), "tomorrow": ("RESERV", "tomorrow"),
    "undefined": ("RESERV", "invalid"), "y": ("UNITS", "year"), "yesterday": ("RESERV", "yesterday"),
}
for _i, _m in enumerate("jan feb mar apr may jun jul aug sep oct nov dec".split(), 1):
    _DATETK[_m] = ("MONTH", _i)
for _w, _i in (("january", 1), ("february", 2), ("march", 3), ("april", 4), ("june", 6), ("july", 7),
               ("august", 8), ("sept", 9), ("september", 9), ("october", 10), ("november", 11),
               ("december", 12)):
    _DATETK[_w] = ("MONTH", _i)
for _w in ("sun sunday mon monday tue tues tuesday wed weds wednesday thu thur thurs thursday fri "
           "friday sat saturday").split():
    _DATETK[_w] = ("DOW", 0)


def parse_fields(text: str) -> list[tuple[str, str]]:
    """``ParseDateTime``: split into (type, lower-cased field) pairs; raises :class:`_Fail`."""
    out: list[tuple[str, str]] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
            continue
        start = i
        if _isdigit(c):
            while i < n and _isdigit(text[i]):
                i += 1
            if i < n and text[i] == ":":
                kind = "TIME"
                i += 1
                while i < n and (_isdigit(text[i]) or text[i] in ":."):
                    i += 1
            elif i < n and text[i] in "-/.":
                delim = text[i]
                i += 1
                if i < n and _isdigit(text[i]):
                    kind = "NUMBER" if delim == "." else "DATE"
                    while i < n and _isdigit(text[i]):
                        i += 1
                    if i < n and text[i] == delim:
                        kind = "DATE"
                        i += 1
                        while i < n and (_isdigit(text[i]) or text[i] == delim):
                            i += 1
                else:
                    kind = "DATE"
                    while i < n and (_isdigit(text[i]) or _isalpha(text[i]) or text[i] == delim):
                        i += 1
            else:
                kind = "NUMBER"
        elif c == ".":
            i += 1
            while i < n and _isdigit(text[i]):
                i += 1
            kind = "NUMBER"
        elif _isalpha(c):
            kind = "STRING"
            while i < n and _isalpha(text[i]):
                i += 1
            word = text[start:i].lower()
            if i < n and (text[i] in "-/." or ((text[i] == "+" or _isdigit(text[i])) and word[:10] not in _DATETK)):
                kind = "DATE"
                i += 1
                while i < n and (text[i] in "+-/_.:" or _isdigit(text[i]) or _isalpha(text[i])):
                    i += 1
        elif c in "+-":
            i += 1
            while i < n and text[i].isspace():
                i += 1
            if i < n and _isdigit(text[i]):
                kind = "TZ"
                while i < n and (_isdigit(text[i]) or text[i] in ":.-"):
                    i += 1
            elif i < n and _isalpha(text[i]):
                kind = "SPECIAL"
                while i < n and _isalpha(text[i]):
                    i += 1
            else:
                raise _Fail(BAD)
            out.append((kind, (c + text[start + 1 : i].strip()).lower()))
            continue
        elif c.isascii() and not c.isalnum():
            i += 1
            continue
        else:
            raise _Fail(BAD)
        out.append((kind, text[start:i].lower()))
        if len(out) > 25:
            raise _Fail(BAD)
    return out


def _strtoi(s: str, i: int = 0) -> tuple[int, int]:
    """C ``strtol``: optional sign and digits from ``i``; returns (value, end); (0, i) if none."""
    j = i
    if j < len(s) and s[j] in "+-":
        j += 1
    k = j
    while k < len(s) and _isdigit(s[k]):
        k += 1
    if k == j:
        return 0, i
    if k - j > 18 and len(s[j:k].lstrip("0")) > 18:  # past a C long (ERANGE): refused before it is built
        val = int(s[i:k]) if len(s[j:k].lstrip("0")) == 19 else None
        if val is None or not -(2**63) <= val < 2**63:
            raise _Fail(OVERFLOW)
    return int(s[i:k]), k


def _frac_seconds(s: str) -> int:
    """``ParseFractionalSecond``: '.5' -> 500000."""
    try:
        return round(float(s) * US_SEC)
    except ValueError:
        raise _Fail(BAD) from None


# ---- date/time decoding (DecodeDateTime and helpers) -------------------------------------------
def _decode_time(s: str, rng: frozenset | None, tm: Tm) -> None:
    tm.hour, i = _strtoi(s)
    if i >= len(s) or s[i] != ":":
        raise _Fail(BAD)
    tm.min, i = _strtoi(s, i + 1)
    mmss = rng == frozenset({"minute", "second"})
    if i == len(s):
        tm.sec, tm.fsec = 0, 0
        if mmss:
            tm.sec, tm.min = tm.min, tm.hour
            tm.hour, tm.min = divmod(tm.min, 60)
    elif s[i] == ".":
        tm.fsec = _frac_seconds(s[i:])
        tm.sec, tm.min = tm.min, tm.hour
        tm.hour, tm.min = divmod(tm.min, 60)
    elif s[i] == ":":
        tm.sec, i = _strtoi(s, i + 1)
        if i == len(s):
            tm.fsec = 0
        elif s[i] == ".":
            tm.fsec = _frac_seconds(s[i:])
        else:
            raise _Fail(BAD)
    else:
        raise _Fail(BAD)
    if tm.hour < 0 or not 0 <= tm.min <= 59 or not 0 <= tm.sec <= 60 or not 0 <= tm.fsec <= US_SEC:
        raise _Fail(OVERFLOW)


def _decode_timezone(s: str) -> int:
    """``DecodeTimezone``: '+08', '-05:30', '+0530' -> seconds east."""
    if s[:1] not in "+-" or not s:
        raise _Fail(BAD)
    hr, i = _strtoi(s, 1)
    minute = sec = 0
    if i < len(s) and s[i] == ":":
        minute, i = _strtoi(s, i + 1)
        if i < len(s) and s[i] == ":":
            sec, i = _strtoi(s, i + 1)
    elif i == len(s) and len(s) > 3:
        hr, minute = divmod(hr, 100)
    if not 0 <= hr <= 15 or not 0 <= minute < 60 or not 0 <= sec < 60:
        raise _Fail(TZ_OVERFLOW)
    if i != len(s):
        raise _Fail(BAD)
    off = (hr * 60 + minute) * 60 + sec
    return off if s[0] == "+" else -off


def _decode_number_field(s: str, fmask: set, tm: Tm, st: dict) -> set:
    if "." in s:
        cut = s.index(".")
        try:
            tm.fsec = round(float(s[cut:]) * US_SEC)
        except ValueError:
            raise _Fail(BAD) from None
        s = s[:cut]
    elif not _DATE_M <= fmask:
        if len(s) == 8:
            tm.year, tm.mon, tm.mday = int(s[:4]), int(s[4:6]), int(s[6:])
            return set(_DATE_M)
        if len(s) == 6:
            tm.year, tm.mon, tm.mday = int(s[:2]), int(s[2:4]), int(s[4:])
            st["is2digits"] = True
            return set(_DATE_M)
    if not _TIME_M <= fmask:
        if len(s) == 6:
            tm.hour, tm.min, tm.sec = int(s[:2]), int(s[2:4]), int(s[4:])
            return set(_TIME_M)
        if len(s) == 4:
            tm.hour, tm.min, tm.sec = int(s[:2]), int(s[2:]), 0
            return set(_TIME_M)
    raise _Fail(BAD)


def _decode_number(s: str, text_month: bool, fmask: set, tm: Tm, st: dict) -> set:
    val, i = _strtoi(s)
    if i == 0:
        raise _Fail(BAD)
    if i < len(s) and s[i] == ".":
        if i > 2:
            return _decode_number_field(s, fmask | _DATE_M, tm, st)
        tm.fsec = _frac_seconds(s[i:])
    elif i != len(s):
        raise _Fail(BAD)
    flen = len(s)
    have = fmask & _DATE_M
    if flen == 3 and have == {"year"} and 1 <= val <= 366:
        tm.yday = val
        return {"doy", "month", "day"}
    if not have:
        if flen >= 3:
            tm.year, mask = val, {"year"}
        else:  # DateOrder MDY
            tm.mon, mask = val, {"month"}
    elif have == {"year"}:
        tm.mon, mask = val, {"month"}
    elif have == {"month"}:
        if text_month and flen >= 3:
            tm.year, mask = val, {"year"}
        else:
            tm.mday, mask = val, {"day"}
    elif have == {"year", "month"}:
        if text_month and flen >= 3 and st.get("is2digits"):
            tm.mday, tm.year, mask = tm.year, val, {"day"}
            st["is2digits"] = False
        else:
            tm.mday, mask = val, {"day"}
    elif have == {"day"}:
        tm.mon, mask = val, {"month"}
    elif have == {"month", "day"}:
        tm.year, mask = val, {"year"}
    elif have == _DATE_M:
        return _decode_number_field(s, fmask, tm, st)
    else:
        raise _Fail(BAD)
    if mask == {"year"}:
        st["is2digits"] = flen <= 2
    return mask


def _decode_date(s: str, fmask: set, tm: Tm, st: dict) -> set:
    fields, i = [], 0
    while i < len(s):
        while i < len(s) and not (_isdigit(s[i]) or _isalpha(s[i])):
            i += 1
        if i >= len(s):
            raise _Fail(BAD)
        j = i
        test = _isdigit if _isdigit(s[i]) else _isalpha
        while j < len(s) and test(s[j]):
            j += 1
        fields.append(s[i:j])
        i = j + 1 if j < len(s) else j
    tmask: set = set()
    text_month = False
    for f in [f for f in fields if _isalpha(f[0])]:
        kind, val = _special(f)
        if kind == "IGNORE":
            continue
        if kind != "MONTH" or "month" in fmask:
            raise _Fail(BAD)
        tm.mon, text_month = val, True
        fmask, tmask = fmask | {"month"}, tmask | {"month"}
    for f in [f for f in fields if not _isalpha(f[0])]:
        dmask = _decode_number(f, text_month, fmask, tm, st)
        if dmask & fmask:
            raise _Fail(BAD)
        fmask, tmask = fmask | dmask, tmask | dmask
    if fmask - {"doy", "tz"} != _DATE_M:
        raise _Fail(BAD)
    return tmask


def _special(word: str) -> tuple[str, object]:
    key = word[:10]
    if key in TZ_ABBREVS:
        off, dst = TZ_ABBREVS[key]
        return ("DTZ" if dst else "TZ"), off
    return _DATETK.get(key, ("UNKNOWN", None))


def decode_datetime(text: str, type_name: str):
    """``ParseDateTime`` + ``DecodeDateTime``: returns ``(kind, tm, gmtoff_or_zone_or_None)``.

    ``kind`` is "date", "epoch", "late", "early" or a :class:`Current`.
    """
    try:
        return _decode_datetime(parse_fields(text))
    except _Fail as exc:
        raise _parse_error(exc.code, text, type_name) from None


def _decode_datetime(fields: list[tuple[str, str]]):
    tm, st = Tm(), {"is2digits": False}
    fmask: set = set()
    tz: object = None  # seconds east, or a Zone
    kind: object = "date"
    mer, bc, text_month, ptype = None, False, False, None
    for idx, (ftype, f) in enumerate(fields):
        if ftype == "DATE":
            if ptype is not None or {"month", "day"} <= fmask:
                if _isdigit(f[0]) or ptype is not None:
                    if (ptype is not None and ptype != "time") or _TIME_M <= fmask or "-" not in f:
                        raise _Fail(BAD)
                    ptype = None
                    cut = f.index("-")
                    tz = _decode_timezone(f[cut:])
                    tmask = _decode_number_field(f[:cut], fmask, tm, st) | {"tz"}
                else:
                    try:
                        tz = Zone(f)
                    except DateTimeError:
                        raise DateTimeError(f'time zone "{f}" not recognized') from None
                    tmask = {"tz"}
            else:
                tmask = _decode_date(f, fmask, tm, st)
        elif ftype == "TIME":
            _decode_time(f, None, tm)
            tmask = set(_TIME_M)
            if tm.hour > 24 or (tm.hour == 24 and (tm.min or tm.sec or tm.fsec)):
                raise _Fail(OVERFLOW)
        elif ftype == "TZ":
            tz, tmask = _decode_timezone(f), {"tz"}
        elif ftype == "NUMBER":
            if ptype is not None:
                if ptype != "time":
                    raise _Fail(BAD)
                tmask = _decode_number_field(f, fmask | _DATE_M, tm, st)
                if tmask != _TIME_M:
                    raise _Fail(BAD)
                ptype = None
            elif "." in f and not fmask & _DATE_M:
                tmask = _decode_date(f, fmask, tm, st)
            elif ("." in f and f.index(".") > 2) or len(f) > 4:
                tmask = _decode_number_field(f, fmask, tm, st)
            else:
                tmask = _decode_number(f, text_month, fmask, tm, st)
        else:  # STRING / SPECIAL
            typ, val = _special(f)
            if typ == "IGNORE":
                continue
            tmask = {typ.lower()}
            if typ == "RESERV":
                if val == "current":
                    raise DateTimeError('date/time value "current" is no longer supported')
                if val in ("now", "today", "tomorrow", "yesterday"):
                    kind = Current(val)
                    tmask = set(_DATE_M) | ({"tz"} | _TIME_M if val == "now" else set())
                elif val == "zulu":
                    tmask, tm.hour, tm.min, tm.sec, tz = _TIME_M | {"tz"}, 0, 0, 0, 0
                else:
                    kind = val
            elif typ == "MONTH":
                if "month" in fmask and not text_month and "day" not in fmask and 1 <= tm.mon <= 31:
                    tm.mday, tmask = tm.mon, {"day"}
                text_month, tm.mon = True, val
            elif typ == "DTZMOD":
                tmask = {"dtzmod", "dtz"}
                tz = (tz if isinstance(tz, int) else 0) + val
            elif typ in ("DTZ", "TZ"):
                tmask, tz = tmask | {"tz"}, val
            elif typ == "AMPM":
                mer = val
            elif typ == "ADBC":
                bc = val
            elif typ == "DOW":
                pass
            elif typ == "ISOTIME":
                tmask = set()
                nxt = fields[idx + 1][0] if idx + 1 < len(fields) else ""
                if not _DATE_M <= fmask or nxt not in ("NUMBER", "TIME", "DATE"):
                    raise _Fail(BAD)
                ptype = "time"
            elif typ == "UNKNOWN":
                try:
                    tz = Zone(f)
                except DateTimeError:
                    raise _Fail(BAD) from None
                tmask = {"tz"}
            else:  # UNITS (y2001m02d04 style) is not supported
                raise _Fail(BAD)
        if tmask & fmask:
            raise _Fail(BAD)
        fmask |= tmask
    if isinstance(kind, Current):
        return kind, tm, None
    _validate_date(fmask, st["is2digits"], bc, tm)
    if mer is not None and tm.hour > 12:
        raise _Fail(OVERFLOW)
    if mer == "am" and tm.hour == 12:
        tm.hour = 0
    elif mer == "pm" and tm.hour != 12:
        tm.hour += 12
    if kind == "date" and not _DATE_M <= fmask:
        raise _Fail(BAD)
    if isinstance(tz, Zone):
        tz = tz.gmtoff_for_local(tm)
    return kind, tm, tz


def _validate_date(fmask: set, is2digits: bool, bc: bool, tm: Tm) -> None:
    if "year" in fmask:
        if bc:
            if tm.year <= 0:
                raise _Fail(OVERFLOW)
            tm.year = -(tm.year - 1)
        elif is2digits:
            if tm.year < 70:
                tm.year += 2000
            elif tm.year < 100:
                tm.year += 1900
        elif tm.year <= 0:
            raise _Fail(OVERFLOW)
    if "doy" in fmask:
        tm.year, tm.mon, tm.mday = j2date(date2j(tm.year, 1, 1) + tm.yday - 1)
    if "month" in fmask and not 1 <= tm.mon <= 12:
        raise _Fail(MD_OVERFLOW)
    if "day" in fmask and not 1 <= tm.mday <= 31:
        raise _Fail(MD_OVERFLOW)
    if _DATE_M <= fmask and tm.mday > DAY_TAB[isleap(tm.year)][tm.mon - 1]:
        raise _Fail(OVERFLOW)


# ---- typed input --------------------------------------------------------------------------


def _special_value(kind, text: str, epoch):
    if isinstance(kind, Current):
        return kind
    if kind == "invalid":
        raise DateTimeError(f'date/time value "{text}" is no longer supported')
    return {"epoch": epoch, "late": NOEND, "early": NOBEGIN}[kind]


def timestamp_in(text: str, precision: int | None):
    kind, tm, _tz = decode_datetime(text, "timestamp")
    if kind != "date":
        return _special_value(kind, text, EPOCH_TS)
    ts = tm2timestamp(tm)
    if ts is None:
        raise DateTimeError(f'timestamp out of range: "{text}"')
    return adjust_timestamp(ts, precision)


def timestamptz_in(text: str, precision: int | None, zone: Zone):
    kind, tm, tz = decode_datetime(text, "timestamp with time zone")
    if kind != "date":
        return _special_value(kind, text, EPOCH_TS)
    ts = tm2timestamp(tm, zone.gmtoff_for_local(tm) if tz is None else tz)
    if ts is None:
        raise DateTimeError(f'timestamp out of range: "{text}"')
    return adjust_timestamp(ts, precision)


def date_in(text: str):
    kind, tm, _tz = decode_datetime(text, "date")
    if kind != "date":
        return _special_value(kind, text, UNIX_EPOCH_JDATE - POSTGRES_EPOCH_JDATE)
    if not valid_julian(tm.year, tm.mon, tm.mday):
        raise DateTimeError(f'date out of range: "{text}"')
    return date2j(tm.year, tm.mon, tm.mday) - POSTGRES_EPOCH_JDATE
