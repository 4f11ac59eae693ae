"""openGauss date/time semantics, ported from ``datetime.cpp``/``timestamp.cpp``/``date.cpp``.

Only what the START/END/EVERY expander needs, but exactly: input of ``date``,
``timestamp[(p)]`` and ``timestamp[(p)] with time zone`` values (session ``DateStyle`` ISO, MDY),
input of ``interval`` values (with the A-compatibility rules of openGauss: a bare number means
days, a leading ``-`` negates every field, ``HOUR``/``MINUTE``/``SECOND`` ranges move whole days
out of the time part), ``timestamp + interval`` (months first with end-of-month clamping, then
days, then time), typmod rounding and ISO output.

Values: a ``timestamp``/``timestamptz`` is an int of microseconds since 2000-01-01 00:00 (UTC for
``timestamptz``), a ``date`` an int of days since 2000-01-01; ``-inf``/``inf`` (floats) are
``-infinity``/``infinity``; :class:`Current` stands for ``now``/``today``/... which depend on the
clock and cannot be evaluated. An interval is ``Interval(months, days, micros)``.

Errors are :class:`DateTimeError` with the server's message (and hint, if any).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from datetime import timezone as _utc_tz
from typing import NamedTuple
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from ..records import record

US_SEC = 1_000_000
US_MIN = 60 * US_SEC
US_HOUR = 60 * US_MIN
US_DAY = 24 * US_HOUR
POSTGRES_EPOCH_JDATE = 2451545
UNIX_EPOCH_JDATE = 2440588
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
NOBEGIN, NOEND = float("-inf"), float("inf")
EPOCH_TS = (UNIX_EPOCH_JDATE - POSTGRES_EPOCH_JDATE) * US_DAY
DAY_TAB = ((31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31), (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31))

class DateTimeError(Exception):
    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message, self.hint = message, hint


@record(frozen=True)
class Current:
    """``now``, ``today``, ``tomorrow``, ``yesterday``: values that depend on the clock."""

    word: str


class Interval(NamedTuple):
    months: int
    days: int
    micros: int

    def __neg__(self) -> Interval:
        return Interval(-self.months, -self.days, -self.micros)


# ---- calendar ------------------------------------------------------------------------------
def isleap(y: int) -> bool:
    return y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)


def date2j(y: int, m: int, d: int) -> int:
    if m > 2:
        m, y = m + 1, y + 4800
    else:
        m, y = m + 13, y + 4799
    century = y // 100
    return y * 365 - 32167 + y // 4 - century + century // 4 + 7834 * m // 256 + d


def j2date(jd: int) -> tuple[int, int, int]:
    julian = jd + 32044
    quad = julian // 146097
    extra = (julian - quad * 146097) * 4 + 3
    julian += 60 + quad * 3 + extra // 146097
    quad = julian // 1461
    julian -= quad * 1461
    y = julian * 4 // 1461
    julian = ((julian + 305) % 365 if y != 0 else (julian + 306) % 366) + 123
    y += quad * 4
    quad = julian * 2141 // 65536
    return y - 4800, (quad + 10) % 12 + 1, julian - 7834 * quad // 256


def valid_julian(y: int, m: int, d: int) -> bool:
    return (y > -4713 or (y == -4713 and (m > 11 or (m == 11 and d >= 24)))) and y < 5874898


@record
class Tm:
    year: int = 0
    mon: int = 0
    mday: int = 0
    hour: int = 0
    min: int = 0
    sec: int = 0
    fsec: int = 0
    yday: int = 0


def timestamp2tm(ts: int) -> Tm:
    date, time = divmod(ts, US_DAY)
    date += POSTGRES_EPOCH_JDATE
    if date < 0 or date > 2**31 - 1:
        raise DateTimeError("timestamp out of range")
    y, m, d = j2date(date)
    hour, time = divmod(time, US_HOUR)
    minute, time = divmod(time, US_MIN)
    sec, fsec = divmod(time, US_SEC)
    return Tm(y, m, d, hour, minute, sec, fsec)


def tm2timestamp(tm: Tm, gmtoff: int = 0) -> int | None:
    """Local fields (minus ``gmtoff`` seconds east) to a timestamp; None when out of range."""
    if not valid_julian(tm.year, tm.mon, tm.mday):
        return None
    date = date2j(tm.year, tm.mon, tm.mday) - POSTGRES_EPOCH_JDATE
    time = ((tm.hour * 60 + tm.min) * 60 + tm.sec) * US_SEC + tm.fsec
    result = date * US_DAY + time
    if not INT64_MIN <= result <= INT64_MAX or (result < 0 < date) or (result > 0 and date < -1):
        return None
    return result - gmtoff * US_SEC


def adjust_timestamp(ts, precision: int | None):
    """``AdjustTimestampForTypmod``: round to ``precision`` fractional digits (half away from 0)."""
    if precision is None or precision >= 6 or not isinstance(ts, int):
        return ts
    scale = 10 ** (6 - precision)
    if ts >= 0:
        return (ts + scale // 2) // scale * scale
    return -((-ts + scale // 2) // scale * scale)


# ---- time zones -----------------------------------------------------------------------------
_ABBREVS_TEXT = (
    "eat=10800 wat=3600 act=-18000 acst=-14400D akdt=-28800D akst=-32400 art=-10800 arst=-7200D "
    "bot=-14400 bra=-10800 brst=-7200D brt=-10800 cot=-18000 cdt=-18000D clst=-10800D clt=-14400 "
    "cst=-21600 edt=-14400D egst=0D egt=-3600 est=-18000 fnt=-7200 fnst=-3600D gft=-10800 gyt=-14400 "
    "mdt=-21600D mst=-25200 ndt=-9000D nst=-12600 pet=-18000 pdt=-25200D pmdt=-7200D pmst=-10800 "
    "pst=-28800 pyst=-10800D pyt=-14400 uyst=-7200D uyt=-10800 vet=-16200 wgst=-7200D wgt=-10800 "
    "davt=25200 ddut=36000 mawt=18000 aft=16200 almt=21600 almst=25200D amst=18000D amt=14400 "
    "anast=46800D anat=43200 azst=18000D azt=14400 bdt=21600 bnt=28800 bort=28800 btt=21600 "
    "cct=28800 gest=14400D get=14400 hkt=28800 ict=25200 idt=10800D irkst=32400D irkt=32400 "
    "irt=12600 ist=7200 jayt=32400 jst=32400 kdt=36000D kgst=21600D kgt=21600 krast=28800D "
    "krat=28800 kst=32400 lkt=21600 magst=43200D magt=43200 mmt=23400 myt=28800 novst=25200D "
    "novt=25200 npt=20700 omsst=25200D omst=25200 petst=46800D pett=43200 pht=28800 pkt=18000 "
    "pkst=21600D sgt=28800 tjt=18000 tmt=18000 ulast=32400D ulat=28800 uzst=21600D uzt=18000 "
    "vlast=39600D vlat=39600 yakst=36000D yakt=36000 yekst=21600D yekt=21600 adt=-10800D ast=-14400 "
    "azost=0D azot=-3600 fkst=-10800D fkt=-14400 acsst=37800D aesst=39600D aest=36000 awsst=32400D "
    "awst=28800 cadt=37800D cast=34200 lhdt=39600D lhst=37800 ligt=36000 nzt=43200 sadt=37800D "
    "sast=34200 wadt=28800D wast=25200 wdt=32400D gmt=0 uct=0 ut=0 utc=0 z=0 zulu=0 bst=3600D "
    "bdst=7200D cest=7200D cet=3600 cetdst=7200D eest=10800D eet=7200 eetdst=10800D fet=10800 "
    "mest=7200D met=3600 metdst=7200D mez=3600 msd=14400D msk=14400 volt=14400 wet=0 wetdst=3600D "
    "cxt=25200 iot=21600 mut=14400 must=18000D mvt=18000 ret=14400 sct=14400 tft=18000 chadt=49500D "
    "chast=45900 chut=36000 ckt=43200 easst=-18000D east=-21600 fjst=-46800D fjt=-43200 galt=-21600 "
    "gamt=-32400 gilt=43200 hst=-36000 kost=39600 lint=50400 mart=-34200 mht=43200 mpt=36000 "
    "nft=-12600 nut=-39600 nzdt=46800D nzst=43200 pgt=36000 phot=46800 pont=39600 pwt=32400 "
    "taht=-36000 tkt=46800 tot=46800 trut=36000 tvt=43200 vut=39600 wakt=43200 wft=43200 yapt=36000"
)
# The session's timezone_abbreviations = 'Default' set: abbreviation -> (seconds east, is DST)
TZ_ABBREVS = {
    k: (int(v.rstrip("D")), v.endswith("D"))
    for k, v in (item.split("=") for item in _ABBREVS_TEXT.split())
}


class Zone:
    """A session time zone: a fixed offset, or a tz database zone (through :mod:`zoneinfo`)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.fixed = _fixed_offset(name)
        self.info: ZoneInfo | None = None
        if self.fixed is None:
            real = _zone_names().get(name.lower())
            try:
                self.info = ZoneInfo(real) if real else None
            except (ZoneInfoNotFoundError, ValueError, OSError):
                self.info = None
            if self.info is None:
                raise DateTimeError(f'time zone "{name}" not recognized')

    def _check_year(self, year: int) -> None:
        if not 1 <= year <= 9999:
            raise DateTimeError(
                f'ddlc cannot compute the offset of time zone "{self.name}" in year {year}; '
                "use a fixed-offset session time zone"
            )

    def gmtoff_at(self, utc_us: int) -> int:
        """Seconds east of UTC in effect at the instant ``utc_us``."""
        if self.fixed is not None:
            return self.fixed
        secs = utc_us // US_SEC + (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * 86400
        year = 1970 + secs // 31_556_952
        self._check_year(year)
        try:
            inst = datetime(1970, 1, 1, tzinfo=_utc_tz.utc) + timedelta(seconds=secs)
            return int(inst.astimezone(self.info).utcoffset().total_seconds())
        except (OverflowError, ValueError):
            raise DateTimeError(f'ddlc cannot compute the offset of time zone "{self.name}" so far from 1970') from None

    def gmtoff_for_local(self, tm: Tm) -> int:
        """``DetermineTimeZoneOffset``: the offset of a local time; in a DST gap or overlap the
        standard-time reading wins."""
        if self.fixed is not None:
            return self.fixed
        self._check_year(tm.year)
        day = datetime(tm.year, tm.mon, tm.mday) + timedelta(hours=tm.hour, minutes=tm.min, seconds=tm.sec)
        a = day.replace(tzinfo=self.info, fold=0)
        b = day.replace(tzinfo=self.info, fold=1)
        if a.utcoffset() == b.utcoffset():
            return int(a.utcoffset().total_seconds())
        pick = a if a.dst() == timedelta(0) else b
        return int(pick.utcoffset().total_seconds())


@lru_cache(maxsize=1)
def _zone_names() -> dict[str, str]:
    """tz database names by lower-cased name (the server looks zones up case-insensitively)."""
    return {n.lower(): n for n in available_timezones()}


def _fixed_offset(name: str) -> int | None:
    low = name.strip().lower()
    if low in ("utc", "gmt", "z", "zulu", "uct", "etc/utc", "etc/gmt", "universal"):
        return 0
    sign = {"+": 1, "-": -1}.get(low[:1])
    if sign is None:
        return None
    body = low[1:]
    hh, _, mm = body.partition(":")
    if not hh.isdigit() or (mm and not mm.isdigit()):
        return None
    return sign * (int(hh) * 3600 + int(mm or 0) * 60)


def local_tm(ts: int, zone: Zone) -> tuple[Tm, int]:
    """``timestamp2tm`` with a time zone: local fields of a timestamptz and the offset used."""
    off = zone.gmtoff_at(ts)
    return timestamp2tm(ts + off * US_SEC), off




# ---- arithmetic and conversions ---------------------------------------------------------------
def _out_of_range() -> DateTimeError:
    return DateTimeError("timestamp out of range")


def _ctrunc_div(a: int, b: int) -> int:
    """C integer division (truncates toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def timestamp_pl_interval(ts, iv: Interval, zone: Zone | None = None):
    """``timestamp_pl_interval`` (``zone`` None) / ``timestamptz_pl_interval`` (session ``zone``):
    months first (day of month clamped to the month's end), then days, then the time part."""
    if not isinstance(ts, int):
        return ts  # +-infinity stay as they are
    for unit in ("months", "days"):
        amount = getattr(iv, unit)
        if not amount:
            continue
        tm = local_tm(ts, zone)[0] if zone is not None else timestamp2tm(ts)
        if unit == "months":
            tm.mon += amount
            if tm.mon > 12:
                tm.year += (tm.mon - 1) // 12
                tm.mon = (tm.mon - 1) % 12 + 1
            elif tm.mon < 1:
                tm.year += _ctrunc_div(tm.mon, 12) - 1
                tm.mon = tm.mon - _ctrunc_div(tm.mon, 12) * 12 + 12
            tm.mday = min(tm.mday, DAY_TAB[isleap(tm.year)][tm.mon - 1])
        else:
            tm.year, tm.mon, tm.mday = j2date(date2j(tm.year, tm.mon, tm.mday) + amount)
        off = zone.gmtoff_for_local(tm) if zone is not None else 0
        ts = tm2timestamp(tm, off)
        if ts is None:
            raise _out_of_range()
    ts += iv.micros
    if not INT64_MIN <= ts <= INT64_MAX:
        raise _out_of_range()
    return ts


def date_to_timestamp(d):
    return d * US_DAY if isinstance(d, int) else d


def timestamp_to_date(ts):
    """``timestamp_date``: the date part (also of a local timestamptz)."""
    if not isinstance(ts, int):
        return ts
    tm = timestamp2tm(ts)
    return date2j(tm.year, tm.mon, tm.mday) - POSTGRES_EPOCH_JDATE


def timestamp_to_tz(ts, zone: Zone):
    """``timestamp2timestamptz``: read the local time in the session zone."""
    if not isinstance(ts, int):
        return ts
    tm = timestamp2tm(ts)
    out = tm2timestamp(tm, zone.gmtoff_for_local(tm))
    if out is None:
        raise _out_of_range()
    return out


def tz_to_timestamp(ts, zone: Zone):
    """``timestamptz_timestamp``: the local time in the session zone."""
    if not isinstance(ts, int):
        return ts
    out = tm2timestamp(local_tm(ts, zone)[0])
    if out is None:
        raise _out_of_range()
    return out


# ---- output (DateStyle ISO) -----------------------------------------------------------------
def _ymd(tm: Tm) -> str:
    year = tm.year if tm.year > 0 else -(tm.year - 1)
    return f"{year:04d}-{tm.mon:02d}-{tm.mday:02d}"


def _hms(tm: Tm) -> str:
    out = f" {tm.hour:02d}:{tm.min:02d}:{tm.sec:02d}"
    if tm.fsec:
        out += "." + f"{abs(tm.fsec):06d}".rstrip("0")
    return out


def _special_text(value) -> str:
    if isinstance(value, Current):
        raise DateTimeError(f'ddlc cannot evaluate "{value.word}": it depends on the current time')
    return "infinity" if value > 0 else "-infinity"


def encode_timezone(gmtoff: int) -> str:
    """``EncodeTimezone``: +08, -05:30, +05:45:30."""
    sign = "+" if gmtoff >= 0 else "-"
    minutes, sec = divmod(abs(gmtoff), 60)
    hour, minute = divmod(minutes, 60)
    if sec:
        return f"{sign}{hour:02d}:{minute:02d}:{sec:02d}"
    if minute:
        return f"{sign}{hour:02d}:{minute:02d}"
    return f"{sign}{hour:02d}"


def timestamp_out(ts) -> str:
    if not isinstance(ts, int):
        return _special_text(ts)
    tm = timestamp2tm(ts)
    return _ymd(tm) + _hms(tm) + (" BC" if tm.year <= 0 else "")


def timestamptz_out(ts, zone: Zone) -> str:
    if not isinstance(ts, int):
        return _special_text(ts)
    tm, off = local_tm(ts, zone)
    return _ymd(tm) + _hms(tm) + encode_timezone(off) + (" BC" if tm.year <= 0 else "")


def date_out(d) -> str:
    if not isinstance(d, int):
        return _special_text(d)
    y, m, day = j2date(d + POSTGRES_EPOCH_JDATE)
    return _ymd(Tm(y, m, day)) + (" BC" if y <= 0 else "")
