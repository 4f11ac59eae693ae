"""START/END/EVERY expansion: every worked example of partition-start-end-every.md, the
openGauss regression file hw_partition_start_end (HSE), and the GaussDB documentation oracle.

Rows: ``(id, key type, items, expected)`` with items written like the reference
(``p1 start(1) end(100) every(30), p2 end(200)``) and ``expected`` either the partitions as
``name<bound`` (bounds of numeric keys bare, of date/time keys quoted, ``[ts]`` for a tablespace)
or ``"ERR: <exact message>"``. ADD/SPLIT rows carry the keyword arguments of
:func:`expand_range_items`.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ddlc.backends.partition_text import render_partition
from ddlc.errors import DdlcError
from ddlc.frontend.sql.partition import parse_bound_value, parse_partition_clause
from ddlc.values import pg_datetime as dt
from ddlc.values.pg_datetime_input import timestamp_in, timestamptz_in
from ddlc.values.pg_interval import interval_in
from ddlc.passes.expand_partitions import (
    MAX_PARTITION_NUM,
    KeyType,
    expand_range_items,
    expand_spec,
)

ORACLE = Path("/work/shared/fixtures/oracle/gaussdb-doc-partition-every.md")

KEYS = {
    "int2": KeyType("int2"),
    "int4": KeyType("int4"),
    "int8": KeyType("int8"),
    "numeric": KeyType("numeric"),
    "numeric(15,4)": KeyType("numeric", "(15,4)"),
    "float4": KeyType("float4"),
    "float8": KeyType("float8"),
    "date": KeyType("date"),  # a true date (not A compatibility)
    "adate": KeyType("TIMESTAMP", "(0) without time zone"),  # DATE in A compatibility
    "timestamp": KeyType("timestamp"),
    "timestamp(6)": KeyType("timestamp", "(6)"),
    "timestamptz(6)": KeyType("TIMESTAMP", "(6) with time zone"),
    "varchar": KeyType("varchar", "(20)"),
    "time": KeyType("time"),
    "interval": KeyType("interval"),
}
TIME_KEYS = {"date", "adate", "timestamp", "timestamp(6)", "timestamptz(6)"}

GAP = " HINT: partition gap or overlapping is not allowed."
INF = " HINT: INF can not appear in a (START, END, EVERY) clause."
NAN = " HINT: NaN can not appear in a (START, END, EVERY) clause."
MAXV = " HINT: MAXVALUE can not appear in a (START, END, EVERY) clause."
DUP = (' HINT: partitions defined by (START, END, EVERY) are named as "partitionName_x" where x is an '
       "integer and starts from 0 or 1.")
TOO_MANY = (f" HINT: number of partitions can not be more than {MAX_PARTITION_NUM}, MINVALUE will be "
            "auto-included if not assigned.")
NULL = (" DETAIL: partition bound element must be one of: string, datetime or interval literal, number, "
        "or MAXVALUE, and not null")
UNSUPPORTED = (" HINT: Valid datatypes are: smallint, int, bigint, float4/real, float8/double, numeric, date "
               "and timestamp [with time zone].")


def seq(prefix: str, values, start: int = 1, quote: bool = False) -> str:
    """``p_1<v1, p_2<v2, ...``."""
    q = "'" if quote else ""
    return ", ".join(f"{prefix}_{k}<{q}{v}{q}" for k, v in enumerate(values, start))


MONTHLY_2019 = seq("p3", [f"2019-{m:02d}-03 00:00:00" for m in range(1, 13)], quote=True)
R22_ITEMS = (
    "p1 start('12-01-2012 12:13:14.999999') end('12-01-2012 12:23:15.888888') every('0:01:14.333333'), "
    "p2 end('12-03-2018'), p3 start('12-03-2018') end('12-04-2019') every('1 month'), "
    "p4 start('12-04-2019') end('12-05-2022 12:13:14') every(interval '1 year'), p5 start('{p5}'), "
    "p6 start('11-04-2032 12:11:10.333333') end('12-01-2032 12:13:14.999999') "
    "every(interval '3 11:12:13.222222' day to second), p7 end(MAXVALUE)"
)
R22_OUT = (
    "p1_0<'2012-12-01 12:13:14.999999', "
    + seq("p1", ["2012-12-01 12:14:29.333332", "2012-12-01 12:15:43.666665", "2012-12-01 12:16:57.999998",
                 "2012-12-01 12:18:12.333331", "2012-12-01 12:19:26.666664", "2012-12-01 12:20:40.999997",
                 "2012-12-01 12:21:55.33333", "2012-12-01 12:23:09.666663", "2012-12-01 12:23:15.888888"], quote=True)
    + ", p2<'2018-12-03 00:00:00', " + MONTHLY_2019 + ", p3_13<'2019-12-04 00:00:00', "
    + seq("p4", ["2020-12-04 00:00:00", "2021-12-04 00:00:00", "2022-12-04 00:00:00", "2022-12-05 12:13:14"], quote=True)
    + ", p5<'2032-11-04 12:11:10.333333', "
    + seq("p6", ["2032-11-07 23:23:23.555555", "2032-11-11 10:35:36.777777", "2032-11-14 21:47:49.999999",
                 "2032-11-18 09:00:03.222221", "2032-11-21 20:12:16.444443", "2032-11-25 07:24:29.666665",
                 "2032-11-28 18:36:42.888887", "2032-12-01 12:13:14.999999"], quote=True)
    + ", p7<MAXVALUE"
)
PST_START = "'12-01-2012 12:13:14.999999 pst'"
TZ_MINUTES = ["2012-12-02 04:14:29.333332+08", "2012-12-02 04:15:43.666665+08", "2012-12-02 04:16:57.999998+08",
              "2012-12-02 04:18:12.333331+08", "2012-12-02 04:19:26.666664+08", "2012-12-02 04:20:40.999997+08",
              "2012-12-02 04:21:55.33333+08", "2012-12-02 04:23:09.666663+08", "2012-12-02 04:23:15.888888+08"]
LONG = "p12345678901234567890123456789012345678901234567890123456789012345"
PREFIX55 = LONG[:55]
K1 = ("p1 START(1) END(1000) EVERY(200), p2 END(2000), p3 START(2000) END(2500), p4 START(2500), "
      "p5 START(3000) END(5000) EVERY(1000)")
R4 = "p1 start(1) end(100) every(30), "
R4_OUT = "p1_0<1, p1_1<31, p1_2<61, p1_3<91, p1_4<100"
R10 = ("p1 end({lo}), p2 end(0), p3 end(100), p4 start(100), p5 start(200), p6 start(400) end(1000) every(499), "
       "p7 start(1000) end(10000) every(5001), p8 start(10000) end({hi}), p9 end(MAXVALUE)")
R10_OUT = ("p1<{lo}, p2<0, p3<100, p4<200, p5<400, p6_1<899, p6_2<1000, p7_1<6001, p7_2<10000, p8<{hi}, "
           "p9<MAXVALUE")
R15 = "p1 start(1.00001) end(5.00007) every(1), p2 end(8.1), p3 start(8.1) end(20.03) every(4.009), p4 start(20.03)"
R15_OUT = ("p1_0<1.00001, p1_1<2.00001, p1_2<3.00001, p1_3<4.00001, p1_4<5.00001, p1_5<5.00007, p2<8.1, "
           "p3_1<12.109, p3_2<16.118, p3_3<20.03, p4<MAXVALUE")
ADD_300 = {"mode": "add", "low_bound": "300", "existing_names": ("p1", "p2"), "existing_count": 2}

ROWS = [
    # ---- K1 and the reference's regression examples (R) -------------------------------------
    ("K1", "int4", K1, "p1_0<1, p1_1<201, p1_2<401, p1_3<601, p1_4<801, p1_5<1000, p2<2000, p3<2500, "
                       "p4<3000, p5_1<4000, p5_2<5000"),
    ("R1", "int4", "p1 start(1)", "p1_0<1, p1_1<MAXVALUE"),
    ("R2-end", "int4", "p1 end(1)", "p1<1"),
    ("R2-max", "int4", "p1 end(MAXVALUE)", "p1<MAXVALUE"),
    ("R3", "int4", "p1 start(1) end(100) every(30)", R4_OUT),
    ("R4-start", "int4", R4 + "p2 start(100)", R4_OUT + ", p2<MAXVALUE"),
    ("R4-end", "int4", R4 + "p2 end(200)", R4_OUT + ", p2<200"),
    ("R4-se", "int4", R4 + "p2 start(100) end(200)", R4_OUT + ", p2<200"),
    ("R4-low", "int4", R4 + "p2 start(40)", 'ERR: start value of partition "p2" is too low.' + GAP),
    ("R4-high", "int4", R4 + "p2 start(200)", 'ERR: start value of partition "p2" is too high.' + GAP),
    ("R5", "int4", "p1 start(1), p2 start(100), p3 start(200)", "p1_0<1, p1_1<100, p2<200, p3<MAXVALUE"),
    ("R6", "int4", "p1 start(1) end(200), p2 end(300)", "p1_0<1, p1_1<200, p2<300"),
    ("R7", "int4", "p1 end(1), p2 end(100), p3 end(200)", "p1<1, p2<100, p3<200"),
    ("R8", "int4", "p1 end(1), p2 start(1), p3 start(100) end(200) every(50), p4 start(200) end(1000) every(500), "
                   "p5 start(1000) end(MAXVALUE)", "p1<1, p2<100, p3_1<150, p3_2<200, p4_1<700, p4_2<1000, p5<MAXVALUE"),
    ("R9", "int4", "p1 start(1) end(200) every(50), p2 start(200) end(1000), p3 start(1000) end(2000)",
     "p1_0<1, p1_1<51, p1_2<101, p1_3<151, p1_4<200, p2<1000, p3<2000"),
    ("R10-int2", "int2", R10.format(lo=-32768, hi=32767), R10_OUT.format(lo=-32768, hi=32767)),
    ("R10-int4", "int4", R10.format(lo=-2147483648, hi=2147483647), R10_OUT.format(lo=-2147483648, hi=2147483647)),
    ("R10-int8", "int8", R10.format(lo=-9223372036854775808, hi=9223372036854775807),
     R10_OUT.format(lo=-9223372036854775808, hi=9223372036854775807)),
    ("R11-int2", "int2", "p1 start(-1.0) end(10) every(5.0)", "p1_0<-1, p1_1<4, p1_2<9, p1_3<10"),
    ("R11-int4", "int4", "p1 start(-1.0) end(10) every(5.0)", "p1_0<-1, p1_1<4, p1_2<9, p1_3<10"),
    ("R11-int8", "int8", "p1 start(-1.0) end(10) every(5.0)", "p1_0<-1, p1_1<4, p1_2<9, p1_3<10"),
    ("R12", "int4", "p1 start(2147483641) end(2147483647) every(3), p2 end(MAXVALUE)",
     "p1_0<2147483641, p1_1<2147483644, p1_2<2147483647, p2<MAXVALUE"),
    ("R13", "float4", "p1 start(0) end(3.14) every(1), p2 end('infinity')",
     "p1_0<0, p1_1<1, p1_2<2, p1_3<3, p1_4<3.14, p2<Infinity"),
    ("R14", "float4", "p1 start(1.00001) end(10.00001) every(1)",
     "p1_0<1.00001, " + seq("p1", [f"{k}.00001" for k in range(2, 10)]) + ", p1_9<10"),
    ("R15-float8", "float8", R15, R15_OUT),
    ("R15-numeric", "numeric", R15, R15_OUT),
    ("R16", "numeric(15,4)", R15, "p1_0<1.0000, p1_1<2.0000, p1_2<3.0000, p1_3<4.0000, p1_4<5.0000, p1_5<5.0001, "
                                  "p2<8.1000, p3_1<12.1090, p3_2<16.1180, p3_3<20.0300, p4<MAXVALUE"),
    ("R17", "numeric(15,4)", "p1 start(99999999993.0001) end(99999999999.0006) every(3.0002)",
     "p1_0<99999999993.0001, p1_1<99999999996.0003, p1_2<99999999999.0005, p1_3<99999999999.0006"),
    ("R18-big", "float8", "p1 start(0) end(1e308) every(6e307)", "p1_0<0, p1_1<6e+307, p1_2<1e+308"),
    ("R18-fine", "float8", "p1 start(1) end(1.00000000000007) every(0.00000000000001)",
     "p1_0<1, " + seq("p1", [f"1.0000000000000{k}" for k in range(1, 8)])),
    ("R19", "adate", "p1 start('12-01-2012') end('12-01-2013') every('1 month'), p3 end(MAXVALUE)",
     "p1_0<'2012-12-01 00:00:00', "
     + seq("p1", ["2013-%02d-01 00:00:00" % m for m in range(1, 13)], quote=True)
     + ", p3<MAXVALUE"),
    ("R20", "adate", "p1 start('12-01-2012 12:13:14') end('12-01-2012 12:13:18') every('1.599999 second'), "
                     "p2 end(MAXVALUE)",
     "p1_0<'2012-12-01 12:13:14', p1_1<'2012-12-01 12:13:16', p1_2<'2012-12-01 12:13:18', p2<MAXVALUE"),
    ("R21-qualified", "adate", "p1 start('12-01-2012 12:13:14') end('12-03-2012 12:13:18') "
                               "every(interval '1 12' day to hour), p2 end(MAXVALUE)",
     "p1_0<'2012-12-01 12:13:14', p1_1<'2012-12-03 00:13:14', p1_2<'2012-12-03 12:13:18', p2<MAXVALUE"),
    ("R21-string", "adate", "p1 start('12-01-2012 12:13:14') end('12-03-2012 12:13:18') every('1 12:'), "
                            "p2 end(MAXVALUE)",
     "p1_0<'2012-12-01 12:13:14', p1_1<'2012-12-03 00:13:14', p1_2<'2012-12-03 12:13:18', p2<MAXVALUE"),
    ("R21-h:m", "adate", "p1 start('12-01-2012 12:13:14') end('12-01-2012 18:13:18') every('1:12')",
     "p1_0<'2012-12-01 12:13:14', " + seq("p1", ["2012-12-01 13:25:14", "2012-12-01 14:37:14", "2012-12-01 15:49:14",
                                                  "2012-12-01 17:01:14", "2012-12-01 18:13:14",
                                                  "2012-12-01 18:13:18"], quote=True)),
    ("R22", "timestamp(6)", R22_ITEMS.format(p5="12-05-2022 12:13:14"), R22_OUT),
    ("R22-gap", "timestamp(6)", R22_ITEMS.format(p5="12-05-2022 12:13:14.000001"),
     'ERR: start value of partition "p5" is too high.' + GAP),
    ("R23", "timestamptz(6)", f"p1 start({PST_START}) end('12-02-2018 12:13:15.888888 pst') every('1 year')",
     "p1_0<'2012-12-02 04:13:14.999999+08', "
     + seq("p1", [f"{y}-12-02 04:13:14.999999+08" for y in range(2013, 2019)], quote=True)
     + ", p1_7<'2018-12-03 04:13:15.888888+08'", {"timezone": "PRC"}),
    ("R24", "timestamp(6)", "p1 start('293400-12-01 12:13:14') end('294000-12-01 12:13:14') every('600 year')",
     "p1_0<'293400-12-01 12:13:14', p1_1<'294000-12-01 12:13:14'"),
    ("R24-big", "timestamp(6)", "p1 start('293400-12-01 12:13:14') end('294000-12-01 12:13:14') every('700 year')",
     'ERR: partition step is too big for partition "p1".'),
    ("R25", "int4", "p1 start(0) end(100), p2 end(200), p3 start(200) end(400) every(40), p4 start(400)",
     "p1_0<0, p1_1<100, p2<200, p3_1<240, p3_2<280, p3_3<320, p3_4<360, p3_5<400, p4<MAXVALUE"),
    ("R26", "int4", "p1 start(0) tablespace A, p2 start(10) end(100) every(20) tablespace B, "
                    "p3 end(400) tablespace C, p4 start(400) end(600) tablespace D",
     "p1_0<0 [A], p1_1<10 [A], p2_1<30 [B], p2_2<50 [B], p2_3<70 [B], p2_4<90 [B], p2_5<100 [B], p3<400 [C], "
     "p4<600 [D]"),
    ("R27", "int4", f"{LONG} start(1) end(100) every(20)",
     f"{PREFIX55}_0<1, " + seq(PREFIX55, [21, 41, 61, 81, 100])),
    ("R27-bare", "int4", f"{LONG} end(MAXVALUE)", f"{LONG[:63]}<MAXVALUE"),
    ("R28-every", "int4", "p3 start(300) end(500) every(50)", "p3_1<350, p3_2<400, p3_3<450, p3_4<500", ADD_300),
    ("R28-start", "int4", "p3 start(300)", "p3<MAXVALUE", ADD_300),
    ("R28-not-equal", "int4", "p2 start(999)",
     'ERR: start value of partition "p2" NOT EQUAL up-boundary of last partition.',
     {"mode": "add", "low_bound": "1000", "existing_count": 5}),
    ("R29", "int4", "s3 start(-1000), s4 start(-500) end(-10) every(300), s5 start(-10)",
     "s3_0<-1000, s3_1<-500, s4_1<-200, s4_2<-10, s5<0", {"mode": "split", "split_upper": "0"}),
    ("R30", "int4", "table_range4_p1 start(10) end(40) every(10), table_range4_p2 end(70), table_range4_p3 start(70), "
                    "table_range4_p4 start(100) end(150) every(20)",
     "table_range4_p1_0<10, table_range4_p1_1<20, table_range4_p1_2<30, table_range4_p1_3<40, table_range4_p2<70, "
     "table_range4_p3<100, table_range4_p4_1<120, table_range4_p4_2<140, table_range4_p4_3<150"),
    ("R31", "int4", "pass START(60) END(90), excellent START(90) END(MAXVALUE)", "pass_0<60, pass_1<90, excellent<MAXVALUE"),
    # ---- the reference's error table ------------------------------------------------------------
    ("E-small", "int4", "p1 start(1) end(100) every(-30)", 'ERR: partition step is too small for partition "p1".'),
    ("E-big", "int4", "p1 start(1) end(100) every(101)", 'ERR: partition step is too big for partition "p1".'),
    ("E-zero", "float8", "p1 start(0) end(1) every(0)", 'ERR: partition step is too small for partition "p1".'),
    ("E-order", "int4", "p1 start(1) end(-100)", 'ERR: start value must be less than end value for partition "p1".'),
    ("E-dup-gen", "int4", "p1 start(1) end(100) every(30), p1_1 end(500)", 'ERR: duplicate partition name: "p1_1".' + DUP),
    ("E-end-after-start", "int4", "p1 start(1) end(100), p2 start(100), p3 end(200)",
     'ERR: partition "p3" is an invalid definition clause. HINT: Do not use a single END after a single START.'),
    ("E-behind-max", "int4", "p1 end(1), p2 end(MAXVALUE), p3 end(200)",
     'ERR: partition "p3" is not allowed behind MAXVALUE.'),
    ("E-low", "int4", "p1 start(100), p2 start(20)", 'ERR: start value of partition "p2" is too low.' + GAP),
    ("E-amb-float4", "float4", "p1 start(1) end(1.00007) every(0.00001)",
     'ERR: ambiguous partition rule is raised by EVERY parameter in partition "p1".'),
    ("E-amb-numeric", "numeric(15,4)", "p1 start(10000000000.0001) end(10000000000.0007) every(0.00001)",
     'ERR: ambiguous partition rule is raised by EVERY parameter in partition "p1".'),
    ("E-date-big", "adate", "p1 start('12-01-2012') end('12-01-2014') every('3 year')",
     'ERR: partition step is too big for partition "p1".'),
    ("E-date-small", "adate", "p1 start('12-01-2012') end('12-01-2014') every('0 year')",
     'ERR: partition step is too small for partition "p1".'),
    ("E-date-inf", "adate", "p1 start('now') end('infinity') every('1 year')", 'ERR: partition "p1" is invalid.' + INF),
    ("E-varchar", "varchar", "p1 start('a') end('b')",
     'ERR: datatype of column "c" is unsupported for partition key in start/end clause.' + UNSUPPORTED),
    # ---- derived examples (D) -----------------------------------------------------------------
    ("D1", "int4", "p1 start(1), p2 start(100) end(200) every(50)", "p1_0<1, p1_1<100, p2_1<150, p2_2<200"),
    ("D2", "int4", "p1 start(0) end(100) every(100)", "p1_0<0, p1_1<100"),
    ("D3", "int4", "p0 end(0), p1 start(0) end(100) every(100), p2 start(100)", "p0<0, p1_1<100, p2<MAXVALUE"),
    ("D4", "int4", "p1 end(10), p2 start(10), p3 start(50) end(80), p4 end(90)", "p1<10, p2<50, p3<80, p4<90"),
    ("D5", "int8", "a start(-100) end(0), b start(0) end(1000) every(300)",
     "a_0<-100, a_1<0, b_1<300, b_2<600, b_3<900, b_4<1000"),
    ("D6", "int2", "p1 start(-32768) end(32767) every(32767), p2 end(MAXVALUE)",
     "p1_0<-32768, p1_1<-1, p1_2<32766, p1_3<32767, p2<MAXVALUE"),
    ("D7", "adate", "p1 start('2024-01-31') end('2024-05-31') every('1 month')",
     "p1_0<'2024-01-31 00:00:00', p1_1<'2024-02-29 00:00:00', p1_2<'2024-03-29 00:00:00', "
     "p1_3<'2024-04-29 00:00:00', p1_4<'2024-05-29 00:00:00', p1_5<'2024-05-31 00:00:00'"),
    ("D7-date", "date", "p1 start('2024-01-31') end('2024-05-31') every('1 month')",
     "p1_0<'2024-01-31', p1_1<'2024-02-29', p1_2<'2024-03-29', p1_3<'2024-04-29', p1_4<'2024-05-29', "
     "p1_5<'2024-05-31'"),
    ("D8", "adate", "q start('2024-01-01') end('2024-11-15') every('3 months'), qmax end(MAXVALUE)",
     "q_0<'2024-01-01 00:00:00', q_1<'2024-04-01 00:00:00', q_2<'2024-07-01 00:00:00', q_3<'2024-10-01 00:00:00', "
     "q_4<'2024-11-15 00:00:00', qmax<MAXVALUE"),
    ("D9", "timestamp(6)", "d start('2024-02-27 06:00:00') end('2024-03-02') every('1 day')",
     "d_0<'2024-02-27 06:00:00', d_1<'2024-02-28 06:00:00', d_2<'2024-02-29 06:00:00', d_3<'2024-03-01 06:00:00', "
     "d_4<'2024-03-02 00:00:00'"),
    ("D10", "numeric", "n start(0) end(1) every(0.3)", "n_0<0, n_1<0.3, n_2<0.6, n_3<0.9, n_4<1"),
    ("D11", "int4", "p1 start(100) end(MAXVALUE)", "p1_0<100, p1_1<MAXVALUE"),
    ("D12", "int4", "p1 start(1) end(100), p2 start(200) end(300)",
     'ERR: start value of partition "p2" is too high.' + GAP),
    ("D13-over", "int4", "p1 start(0) end(1048575) every(1)", 'ERR: too many partitions after split partition "p1".' + TOO_MANY),
    ("D13-next", "int4", "p1 start(0) end(1048574) every(1), p2 end(2000000)",
     'ERR: too many partitions after split partition "p1".' + TOO_MANY),
    # ---- more of hw_partition_start_end (HSE) --------------------------------------------------------
    ("HSE-null-end", "int4", "p1 start (1) end ('')", "ERR: Partition key value can not be null" + NULL),
    ("HSE-null-every", "int4", "p1 start(0) end (10) every('')", "ERR: Partition key value can not be null" + NULL),
    ("HSE-null-keyword", "int4", "p1 start(0) end (NULL)", "ERR: Partition key value can not be null" + NULL),
    ("HSE-minvalue", "int4", "p1 start (MINVALUE) end (MAXVALUE)", 'ERR: column "minvalue" does not exist'),
    ("HSE-dup-items", "int4", "p1 start (1) end (100) every (30), p1 end (MAXVALUE)",
     'ERR: duplicate partition name: "p1"'),
    ("HSE-end-low", "int4", "p1 end (100), p2 end(20)", 'ERR: end value of partition "p2" is too low.' + GAP),
    ("HSE-keys", "int4", "p1 start(1, 2)",
     'ERR: too many partition keys for partition "p1". HINT: only one partition key is allowed in start/end clause.'),
    ("HSE-chain-low", "int4", "p1 start (1), p2 start (200), p3 start(100)",
     'ERR: start value of partition "p3" is too low.' + GAP),
    ("HSE-start-max", "int4", "p1 start (MAXVALUE), p2 start (100)",
     'ERR: start value can not be MAXVALUE for partition "p1".'),
    ("HSE-se-start-max", "int4", "p1 start (MAXVALUE) end (200), p2 end(300)",
     'ERR: start value can not be MAXVALUE for partition "p1".'),
    ("HSE-se-end-low", "int4", "p1 start (1) end (200), p2 end(100)",
     'ERR: end value of partition "p2" is too low.' + GAP),
    ("HSE-int2-range", "int2", "p1 end (-32769), p2 end (MAXVALUE)", "ERR: smallint out of range"),
    ("HSE-int2-every", "int2", "p1 start (-32768) end (32767) every (65535), p2 end (MAXVALUE)",
     "ERR: smallint out of range"),
    ("HSE-int2-small", "int2", "p1 start (0) end (32767) every (-1), p2 end (MAXVALUE)",
     'ERR: partition step is too small for partition "p1".'),
    ("HSE-int2-ok", "int2", "p1 start (32761) end (32767) every (3), p2 end (MAXVALUE)",
     "p1_0<32761, p1_1<32764, p1_2<32767, p2<MAXVALUE"),
    ("HSE-int4-full", "int4", "p1 start (-2147483648) end (2147483647) every (1), p2 end (MAXVALUE)",
     'ERR: too many partitions after split partition "p1".' + TOO_MANY),
    ("HSE-int8-full", "int8", "p1 start (-9223372036854775808) end (9223372036854775807) every (1), p2 end (MAXVALUE)",
     'ERR: too many partitions after split partition "p1".' + TOO_MANY),
    ("HSE-int2-half", "int2", "p1 start(0.5) end (10) every(5)",
     'ERR: start/end/every value must be an const-integer for partition "p1"'),
    ("HSE-int4-end", "int4", "p1 start(1) end (10.1) every(5)",
     'ERR: start/end/every value must be an const-integer for partition "p1"'),
    ("HSE-int8-fraction", "int8", "p1 start(-1) end (10) every(5.01)",
     'ERR: start/end/every value must be an const-integer for partition "p1"'),
    ("HSE-int4-range", "int4", "p1 end (-2147483649), p2 end (MAXVALUE)", "ERR: integer out of range"),
    ("HSE-int4-every", "int4", "p1 start (-2147483648) end (2147483647) every (4294967295), p2 end (MAXVALUE)",
     "ERR: integer out of range"),
    ("HSE-int4-max", "int4", "p1 start (-2147483648) end (2147483647) every (2147483647), p2 end (MAXVALUE)",
     "p1_0<-2147483648, p1_1<-1, p1_2<2147483646, p1_3<2147483647, p2<MAXVALUE"),
    ("HSE-int8-range", "int8", "p1 end (-9223372036854775809), p2 end (MAXVALUE)", "ERR: bigint out of range"),
    ("HSE-int8-every", "int8", "p1 start (-9223372036854775808) end (9223372036854775807) "
                               "every (18446744073709551615), p2 end (MAXVALUE)", "ERR: bigint out of range"),
    ("HSE-int8-top", "int8", "p1 start (9223372036854775801) end (9223372036854775807) every (3), p2 end (MAXVALUE)",
     "p1_0<9223372036854775801, p1_1<9223372036854775804, p1_2<9223372036854775807, p2<MAXVALUE"),
    ("HSE-float4-over", "float4", "p1 start(1e39)", "ERR: value out of range: overflow"),
    ("HSE-float4-every-over", "float4", "p1 start(0) end (1) every(1e39)", "ERR: value out of range: overflow"),
    ("HSE-float4-small", "float4", "p1 start(0) end (10.001) every(-1)",
     'ERR: partition step is too small for partition "p1".'),
    ("HSE-float4-amb", "float4", "p1 start(0) end (2e38) every(1e38)",
     'ERR: ambiguous partition rule is raised by EVERY parameter in partition "p1".'),
    ("HSE-float4-inf-end", "float4", "p1 start(0) end ('infinity') every(1)", 'ERR: partition "p1" is invalid.' + INF),
    ("HSE-float4-inf-every", "float4", "p1 start(0) end (3.14) every('infinity')", 'ERR: partition "p1" is invalid.' + INF),
    ("HSE-float4-inf-start", "float4", "p1 start('infinity'), p2 start (0) end (3.14) every(1)",
     'ERR: start value of partition "p2" is too low.' + GAP),
    ("HSE-float4-inf-end-low", "float4", "p1 start(-1), p2 start (0) end (3.14) every(1), p3 end ('infinity'), "
                                         "p4 end (20.01)", 'ERR: end value of partition "p4" is too low.' + GAP),
    ("HSE-float4-start-inf", "float4", "p1 start('infinity')", "p1_0<Infinity, p1_1<MAXVALUE"),
    ("HSE-float4-mixed", "float4", "p1 start(1.00001) end (5.00007) every(1), p2 end (8.1), "
                                   "p3 start(8.1) end (20.03) every(4), p4 start(20.03)",
     "p1_0<1.00001, p1_1<2.00001, p1_2<3.00001, p1_3<4.00001, p1_4<5.00001, p1_5<5.00007, p2<8.1, p3_1<12.1, "
     "p3_2<16.1, p3_3<20.03, p4<MAXVALUE"),
    ("HSE-float8-over", "float8", "p1 start(1e309)",
     'ERR: "1' + "0" * 309 + '" is out of range for type double precision'),
    ("HSE-float8-big", "float8", "p1 start(0) end (1) every(1e39)", 'ERR: partition step is too big for partition "p1".'),
    ("HSE-float8-amb", "float8", "p1 start(1) end (1.000000000000007) every(0.000000000000001)",
     'ERR: ambiguous partition rule is raised by EVERY parameter in partition "p1".'),
    ("HSE-float8-fine", "float8", "p1 start(1) end (1.00007) every(0.00001)",
     "p1_0<1, " + seq("p1", [f"1.0000{k}" for k in range(1, 8)])),
    ("HSE-float8-int-every", "float8", "p1 start(1.00001) end (10.00001) every(1)",
     "p1_0<1.00001, " + seq("p1", [f"{k}.00001" for k in range(2, 11)])),
    ("HSE-float8-9e307", "float8", "p1 start(0) end (1e308) every(9e307)",
     "p1_0<0, p1_1<9e+307, p1_2<1e+308"),
    ("HSE-numeric-nan-start", "numeric", "p1 start('nan') end (123.456) every (2.11)",
     'ERR: start value must be less than end value for partition "p1".'),
    ("HSE-numeric-nan-end", "numeric", "p1 start(123.456) end ('nan') every (2.11)", 'ERR: partition "p1" is invalid.' + NAN),
    ("HSE-numeric-nan-every", "numeric(15,4)", "p1 start(123.456) end (345.1) every ('nan')",
     'ERR: partition "p1" is invalid.' + NAN),
    ("HSE-numeric-tiny-big", "numeric", "p1 start(1.00000000000000000000000000000000000000001) "
                                        "end (1.00000000000000000000000000000000000000007) "
                                        "every (0.00000000000000000000000000000000000000007)",
     'ERR: partition step is too big for partition "p1".'),
    ("HSE-numeric-tiny", "numeric", "p1 start(1.00000000000000000000000000000000000000001) "
                                    "end (1.00000000000000000000000000000000000000007) "
                                    "every (0.00000000000000000000000000000000000000001)",
     "p1_0<1.00000000000000000000000000000000000000001, "
     + seq("p1", [f"1.0000000000000000000000000000000000000000{k}" for k in range(2, 8)])),
    ("HSE-numeric-rounded-equal", "numeric(15,4)", "p1 start (10000000000.00001) end (10000000000.00003)",
     'ERR: start value must be less than end value for partition "p1".'),
    ("HSE-numeric-amb", "numeric(15,4)", "p1 start (10000000000.00001) end (10000000000.00007) every (0.00001)",
     'ERR: ambiguous partition rule is raised by EVERY parameter in partition "p1".'),
    ("HSE-numeric-overflow", "numeric(15,4)", "p1 start (100000000000.0001) end (10000000000.0006) every (0.0002)",
     "ERR: numeric field overflow DETAIL: A field with precision 15, scale 4 must round to an absolute value "
     "less than 10^11."),
    ("HSE-numeric-step", "numeric(15,4)", "p1 start (10000000000.0001) end (10000000000.0007) every (0.0001)",
     "p1_0<10000000000.0001, " + seq("p1", [f"10000000000.000{k}" for k in range(2, 8)])),
    ("HSE-date-order", "adate", "p1 start('12-01-2015') end ('12-01-2014') every ('1 year')",
     'ERR: start value must be less than end value for partition "p1".'),
    ("HSE-date-low", "adate", "p1 start ('12-01-2019'), p2 start('12-01-2012') end ('12-01-2014') every ('1 year'), "
                              "p3 end (MAXVALUE)", 'ERR: start value of partition "p2" is too low.' + GAP),
    ("HSE-date-end-low", "adate", "p1 start ('12-01-2009'), p2 start('12-01-2012') end ('12-01-2014') every ('1 year'), "
                                  "p3 end ('12-01-2013')", 'ERR: end value of partition "p3" is too low.' + GAP),
    ("HSE-date-year", "adate", "p1 start('12-01-2012') end ('12-01-2014') every ('1 year'), p3 end (MAXVALUE)",
     "p1_0<'2012-12-01 00:00:00', p1_1<'2013-12-01 00:00:00', p1_2<'2014-12-01 00:00:00', p3<MAXVALUE"),
    ("HSE-date-minute", "adate", "p1 start ('12-01-2012 12:13:14') end ('12-01-2012 12:15:15') every ('1 minute'), "
                                 "p2 end (MAXVALUE)",
     "p1_0<'2012-12-01 12:13:14', p1_1<'2012-12-01 12:14:14', p1_2<'2012-12-01 12:15:14', "
     "p1_3<'2012-12-01 12:15:15', p2<MAXVALUE"),
    ("HSE-date-d2m", "adate", "p1 start ('12-01-2012 12:13:14') end ('12-03-2012 12:13:18') "
                              "every (interval '1 12:12' day to minute)",
     "p1_0<'2012-12-01 12:13:14', p1_1<'2012-12-03 00:25:14', p1_2<'2012-12-03 12:13:18'"),
    ("HSE-date-d2s", "adate", "p1 start ('12-01-2012 12:13:14') end ('12-03-2012 12:13:18') every ('1 12:12:12')",
     "p1_0<'2012-12-01 12:13:14', p1_1<'2012-12-03 00:25:26', p1_2<'2012-12-03 12:13:18'"),
    ("HSE-date-h2s", "adate", "p1 start ('12-01-2012 12:13:14') end ('12-01-2012 18:13:18') "
                              "every (interval '1:12:12' hour to second)",
     "p1_0<'2012-12-01 12:13:14', " + seq("p1", ["2012-12-01 13:25:26", "2012-12-01 14:37:38", "2012-12-01 15:49:50",
                                                  "2012-12-01 17:02:02", "2012-12-01 18:13:18"], quote=True)),
    ("HSE-date-m2s", "adate", "p1 start ('12-01-2012 12:13:14') end ('12-01-2012 12:23:18') "
                              "every (interval '1:12' minute to second)",
     "p1_0<'2012-12-01 12:13:14', " + seq("p1", ["2012-12-01 12:14:26", "2012-12-01 12:15:38", "2012-12-01 12:16:50",
                                                  "2012-12-01 12:18:02", "2012-12-01 12:19:14", "2012-12-01 12:20:26",
                                                  "2012-12-01 12:21:38", "2012-12-01 12:22:50",
                                                  "2012-12-01 12:23:18"], quote=True)),
    ("HSE-tz-day", "timestamptz(6)", f"p1 start ({PST_START}) end ('12-08-2012 12:13:15.888888 pst') every ('1 day')",
     "p1_0<'2012-12-02 04:13:14.999999+08', "
     + seq("p1", [f"2012-12-{d:02d} 04:13:14.999999+08" for d in range(3, 10)], quote=True)
     + ", p1_8<'2012-12-09 04:13:15.888888+08'", {"timezone": "PRC"}),
    ("HSE-tz-d2h", "timestamptz(6)", f"p1 start ({PST_START}) end ('12-08-2012 12:13:15.888888 pst') "
                                     "every (interval '1 12' day to hour)",
     "p1_0<'2012-12-02 04:13:14.999999+08', " + seq("p1", ["2012-12-03 16:13:14.999999+08", "2012-12-05 04:13:14.999999+08",
                                                            "2012-12-06 16:13:14.999999+08", "2012-12-08 04:13:14.999999+08",
                                                            "2012-12-09 04:13:15.888888+08"], quote=True),
     {"timezone": "PRC"}),
    ("HSE-tz-d2s", "timestamptz(6)", f"p1 start ({PST_START}) end ('12-08-2012 12:13:15.888888 pst') "
                                     "every ('1 12:13:14.333333')",
     "p1_0<'2012-12-02 04:13:14.999999+08', " + seq("p1", ["2012-12-03 16:26:29.333332+08", "2012-12-05 04:39:43.666665+08",
                                                            "2012-12-06 16:52:57.999998+08", "2012-12-08 05:06:12.333331+08",
                                                            "2012-12-09 04:13:15.888888+08"], quote=True),
     {"timezone": "PRC"}),
    ("HSE-tz-m2s", "timestamptz(6)", f"p1 start ({PST_START}) end ('12-01-2012 12:23:15.888888 pst') "
                                     "every (interval '1:14.333333' minute to second)",
     "p1_0<'2012-12-02 04:13:14.999999+08', " + seq("p1", TZ_MINUTES, quote=True), {"timezone": "PRC"}),
    ("HSE-tz-general", "timestamptz(6)", f"p1 start ({PST_START}) end ('12-01-2012 12:23:15.888888 pst') "
                                         "every ('0:01:14.333333'), p2 end ('12-03-2018'), "
                                         "p3 start ('12-03-2018') end ('12-04-2019') every ('1 month'), p4 end (MAXVALUE)",
     "p1_0<'2012-12-02 04:13:14.999999+08', " + seq("p1", TZ_MINUTES, quote=True) + ", p2<'2018-12-03 00:00:00+08', "
     + MONTHLY_2019.replace(":00'", ":00+08'") + ", p3_13<'2019-12-04 00:00:00+08', p4<MAXVALUE", {"timezone": "PRC"}),
    ("HSE-tz-end-low", "timestamptz(6)", f"p1 start ({PST_START}) end ('12-01-2012 12:23:15.888888 pst') "
                                         "every ('0:01:14.333333'), p2 end ('12-03-2011')",
     'ERR: end value of partition "p2" is too low.' + GAP, {"timezone": "PRC"}),
    ("HSE-ts-inf-start", "timestamp(6)", "p1 start('-infinity') end ('now') every ('1 year')",
     'ERR: partition "p1" is invalid.' + INF),
    ("HSE-ts-inf-every", "timestamp(6)", "p1 start('now') end ('tomorrow') every ('infinity')",
     'ERR: invalid input syntax for type interval: "infinity"'),
    ("HSE-tz-inf", "timestamptz(6)", "p1 start('now') end ('infinity') every ('1 year')",
     'ERR: partition "p1" is invalid.' + INF, {"timezone": "PRC"}),
    ("HSE-ts-out-of-range", "timestamp(6)", "p1 start('293400-12-01 12:13:14') end ('294400-12-01 12:13:14') "
                                            "every ('1000 year')",
     'ERR: timestamp out of range: "294400-12-01 12:13:14"'),
    ("HSE-ts-1000-years", "timestamp(6)", "p1 start('293400-12-01 12:13:14') end ('294000-12-01 12:13:14') "
                                          "every ('1000 year')", 'ERR: partition step is too big for partition "p1".'),
    ("HSE-part7", "int4", "p1 start(0) end(100), p2 end (200), p3 start(200) end (400) every (40), p4 start(400)",
     "p1_0<0, p1_1<100, p2<200, p3_1<240, p3_2<280, p3_3<320, p3_4<360, p3_5<400, p4<MAXVALUE"),
    ("HSE-col", "int4", "p1 start(1), p2 start(100) end(300), p3 start(300)", "p1_0<1, p1_1<100, p2<300, p3<MAXVALUE"),
    ("HSE-unsupported-time", "time", "p1 end (maxvalue)",
     'ERR: datatype of column "c" is unsupported for partition key in start/end clause.' + UNSUPPORTED),
    ("HSE-unsupported-interval", "interval", "p1 end (maxvalue)",
     'ERR: datatype of column "c" is unsupported for partition key in start/end clause.' + UNSUPPORTED),
    # ADD PARTITION (Part-5)
    ("HSE-add-name", "int4", "p1_2 start(1000)",
     'ERR: The partition name "p1_2" is duplicated with existing partition name',
     {"mode": "add", "low_bound": "1000", "existing_names": ("p1_0", "p1_1", "p1_2", "p1_3", "p1_4")}),
    ("HSE-add-max-end", "int4", "p2 start(1000) end (maxvalue) every(1000)", 'ERR: partition "p2" is invalid.' + MAXV,
     {"mode": "add", "low_bound": "1000"}),
    ("HSE-add-max-every", "int4", "p2 start(1000) end (2000) every(maxvalue)", 'ERR: partition "p2" is invalid.' + MAXV,
     {"mode": "add", "low_bound": "1000"}),
    ("HSE-add-end", "int4", "p3 end (1500)", "p3<1500", {"mode": "add", "low_bound": "1000"}),
    ("HSE-add-end-low", "int4", "p3 end (900)",
     'ERR: end value of partition "p3" MUST be greater than up-boundary of last partition.',
     {"mode": "add", "low_bound": "1000"}),
    ("HSE-add-gap", "int4", "p3 start(350) end (500) every (50)",
     'ERR: start value of partition "p3" NOT EQUAL up-boundary of last partition.', ADD_300),
    ("HSE-add-end-max", "int4", "p5 end (maxvalue)", "p5<MAXVALUE", {"mode": "add", "low_bound": "800"}),
    ("HSE-add-se", "int4", "p5 start(500) end(600)", "p5<600", {"mode": "add", "low_bound": "500"}),
    ("HSE-add-after-max", "int4", "p4 start(500)",
     "ERR: upper boundary of adding partition MUST overtop last existing partition", {"mode": "add", "low_bound": "MAXVALUE"}),
    ("HSE-add-ts-gap", "timestamp", "p3 start ('2014-12-01 12:13:15.11110')",
     'ERR: start value of partition "p3" NOT EQUAL up-boundary of last partition.',
     {"mode": "add", "low_bound": "'2014-12-01 12:13:15.11111'"}),
    ("HSE-add-ts", "timestamp", "p3 start ('2014-12-01 12:13:15.11111') end ('2014-12-08 11:12:13') every ('2 day')",
     "p3_1<'2014-12-03 12:13:15.11111', p3_2<'2014-12-05 12:13:15.11111', p3_3<'2014-12-07 12:13:15.11111', "
     "p3_4<'2014-12-08 11:12:13'", {"mode": "add", "low_bound": "'2014-12-01 12:13:15.11111'"}),
    ("HSE-add-ts-d2s", "timestamp", "p4 start ('2014-12-08 11:12:13.000000') end ('2015-02-08 11:14:13') "
                                    "every (interval '20 3:4:5.00010' day to second)",
     "p4_1<'2014-12-28 14:16:18.0001', p4_2<'2015-01-17 17:20:23.0002', p4_3<'2015-02-06 20:24:28.0003', "
     "p4_4<'2015-02-08 11:14:13'", {"mode": "add", "low_bound": "'2014-12-08 11:12:13'"}),
    ("ADD-full", "int4", "p9 start(10)", "ERR: the current relation have already reached max number of partitions",
     {"mode": "add", "low_bound": "10", "existing_count": MAX_PARTITION_NUM}),
    # SPLIT PARTITION (Part-6)
    ("HSE-split-left-upper", "int4", "s3 start(-1000), s4 start(-500) end (0) every(30), s5 start(0)",
     'ERR: start value of partition "s5" MUST be less than up-boundary of the partition to be splitted.',
     {"mode": "split", "split_upper": "0"}),
    ("HSE-split-left-ends", "int4", "s6 end(-2000), s7 end(-1000)", "s6<-2000, s7<-1000",
     {"mode": "split", "split_upper": "-1000"}),
    ("HSE-split-mid-low", "int4", "y1 end(-500), y2 start(500) end (1000)",
     'ERR: end value of partition "y1" MUST be greater than up-boundary of last partition.',
     {"mode": "split", "low_bound": "0", "split_upper": "1500"}),
    ("HSE-split-mid-end", "int4", "y1 end(500), y2 start(500) end (1000)",
     'ERR: end value of partition "y2" NOT EQUAL up-boundary of the partition to be splitted.',
     {"mode": "split", "low_bound": "0", "split_upper": "1500"}),
    ("HSE-split-mid-start", "int4", "y1 start(500), y2 start(700) end (1000)",
     'ERR: start value of partition "y1" NOT EQUAL up-boundary of last partition.',
     {"mode": "split", "low_bound": "0", "split_upper": "1500"}),
    ("HSE-split-mid-def", "int4", "y1 start(0), y2 start(500), y3 end(1500)",
     'ERR: partition "y3" is an invalid definition clause. HINT: Do not use a single END after a single START.',
     {"mode": "split", "low_bound": "0", "split_upper": "1500"}),
    ("HSE-split-mid", "int4", "y1 start(0), y2 start(500), y3 start(800) end (1500) every(300)",
     "y1<500, y2<800, y3_1<1100, y3_2<1400, y3_3<1500", {"mode": "split", "low_bound": "0", "split_upper": "1500"}),
    ("HSE-split-right", "int4", "q3 start(1500), q4 start(1600) end (2000) every(300), q5 end(2200), q6 start(2200)",
     "q3<1600, q4_1<1900, q4_2<2000, q5<2200, q6<3000", {"mode": "split", "low_bound": "1500", "split_upper": "3000"}),
    ("HSE-split-max", "int4", "q91 start(4000) end (4500) every(200), q92 end(maxvalue)",
     "q91_1<4200, q91_2<4400, q91_3<4500, q92<MAXVALUE",
     {"mode": "split", "low_bound": "4000", "split_upper": "MAXVALUE"}),
    ("HSE-split-max-end", "int4", "q91 start(4000) end (4500) every(200), q92 end(5000)",
     'ERR: end value of partition "q92" NOT EQUAL up-boundary of the partition to be splitted.',
     {"mode": "split", "low_bound": "4000", "split_upper": "MAXVALUE"}),
    # ---- more corners ---------------------------------------------------------------------------
    ("typed-literals", "adate", "p1 start(DATE '2024-01-01') end(TIMESTAMP '2024-01-03 10:00:00.6') "
                                "every(INTERVAL '1' DAY)",
     "p1_0<'2024-01-01 00:00:00', p1_1<'2024-01-02 00:00:00', p1_2<'2024-01-03 00:00:00', p1_3<'2024-01-03 10:00:01'"),
    ("bare-number-interval", "adate", "p1 start('2024-01-01') end('2024-01-05') every('2')",
     "p1_0<'2024-01-01 00:00:00', p1_1<'2024-01-03 00:00:00', p1_2<'2024-01-05 00:00:00'"),
    ("number-every-time-key", "adate", "p1 start('2024-01-01') end('2024-01-05') every(1)",
     "ERR: partition key value must be const or const-evaluable expression"),
    ("date-hours", "date", "p1 start('2024-01-01') end('2024-01-03') every('12 hours')",
     'ERR: partition step is too small for partition "p1".'),
    ("string-int", "int4", "p1 start('10') end(' 30 ') every('10')", "p1_0<10, p1_1<20, p1_2<30"),
    ("string-int-bad", "int4", "p1 start('1.5')", 'ERR: invalid input syntax for integer: "1.5"'),
    ("string-int2-range", "int2", "p1 start('40000')", 'ERR: value "40000" is out of range for type smallint'),
    ("bad-date", "adate", "p1 start('2024-02-30')", 'ERR: date/time field value out of range: "2024-02-30"'),
    ("bad-md", "adate", "p1 start('13-01-2024')",
     'ERR: date/time field value out of range: "13-01-2024" HINT: Perhaps you need a different "datestyle" setting.'),
    ("clock", "adate", "p1 start('today') end('2030-01-01') every('1 year')",
     'ERR: ddlc cannot evaluate "today": it depends on the current time'),
    ("expr", "int4", "p1 start(abs(-5))",
     "ERR: ddlc cannot evaluate the partition bound expression abs(-5); write the value as a literal"),
    ("tz-fixed-offset", "timestamptz(6)", "p1 start('2024-01-01 00:00:00+00') end('2024-01-01 12:00:00+00') "
                                          "every('6 hours')",
     "p1_0<'2024-01-01 05:30:00+05:30', p1_1<'2024-01-01 11:30:00+05:30', p1_2<'2024-01-01 17:30:00+05:30'",
     {"timezone": "+05:30"}),
    ("tz-dst", "timestamptz(6)", "p1 start('2024-03-09 12:00') end('2024-03-12 12:00') every('1 day')",
     "p1_0<'2024-03-09 12:00:00-05', p1_1<'2024-03-10 12:00:00-04', p1_2<'2024-03-11 12:00:00-04', "
     "p1_3<'2024-03-12 12:00:00-04'", {"timezone": "America/New_York"}),
    ("tz-unknown", "timestamptz(6)", "p1 start('2024-01-01') end('2024-02-01') every('1 day')",
     'ERR: time zone "Mars/Olympus" not recognized', {"timezone": "Mars/Olympus"}),
    ("tablespace-pending", "int4", "p1 end(0) tablespace t0, p2 start(0) tablespace t1, p3 start(5) end(9) tablespace t2",
     "p1<0 [t0], p2<5 [t1], p3<9 [t2]"),
    ("utf8-prefix", "int4", '"' + "分区" * 10 + '" start(1) end(3) every(1)',
     "分区分区分区分区分区分区分区分区分区_0<1, 分区分区分区分区分区分区分区分区分区_1<2, 分区分区分区分区分区分区分区分区分区_2<3"),
]


def clause(items: str) -> str:
    """``p1 start(1), p2 end(5)`` -> ``PARTITION BY RANGE (c) (PARTITION p1 start(1), PARTITION p2 end(5))``."""
    body = re.sub(r"(^|,\s*)(?=(\"[^\"]*\"|\w+)\s+(start|end)\b)", r"\1PARTITION ", items, flags=re.I)
    return f"PARTITION BY RANGE (c) ({body})"


def show(parts, key: str) -> str:
    out = []
    for p in parts:
        (bv,) = p.bound.values
        if bv.is_maxvalue:
            text = "MAXVALUE"
        elif key in TIME_KEYS:
            text = bv.text
        else:
            text = bv.value
        ts = f" [{p.tablespace_text or p.tablespace}]" if p.tablespace else ""
        out.append(f"{p.name}<{text}{ts}")
    return ", ".join(out)


def run(key: str, items: str, options: dict) -> str:
    spec = parse_partition_clause(clause(items))
    kwargs = dict(options)
    for name in ("low_bound", "split_upper"):
        if name in kwargs:
            kwargs[name] = parse_bound_value(kwargs[name])
    try:
        if kwargs.get("mode") in ("add", "split") or "timezone" in kwargs:
            parts = expand_range_items(spec.partitions, KEYS[key], column="c", path=("partition_by",), **kwargs)
        else:
            parts = expand_spec(spec, {"c": KEYS[key]}, path=("partition_by",)).partitions
    except DdlcError as err:
        assert err.code == "DDLC-E008", err
        assert err.path == ("partition_by",)
        return "ERR: " + err.message
    assert all(p.name_text == "" for p in parts)  # generated names are rendered with quote_ident
    return show(parts, key)


@pytest.mark.parametrize("row", ROWS, ids=[r[0] for r in ROWS])
def test_expand(row):
    _id, key, items, expected, *rest = row
    assert run(key, items, rest[0] if rest else {}) == expected


def test_rows_are_unique():
    ids = [r[0] for r in ROWS]
    assert len(ids) == len(set(ids))


def test_gaussdb_documentation_oracle():
    text = ORACLE.read_text()
    statement = text.split("Source statement:")[1].split("Deparsed")[0]
    statement = " ".join(line.strip() for line in statement.splitlines() if line.strip())
    columns = dict(re.findall(r"(\w+) (INT)\b", statement.split("PARTITION BY")[0]))
    clause_text = "PARTITION BY" + statement.split("PARTITION BY", 1)[1].rstrip(";").rstrip()
    spec = parse_partition_clause(clause_text)
    types = {name.lower(): KeyType({"INT": "int4"}[t]) for name, t in columns.items()}
    out = expand_spec(spec, types)
    expected = text.split("in order:")[1].split("The full rules")[0]
    expected = " ".join(expected.split())
    assert ", ".join(render_partition(p) for p in out.partitions) == expected


def test_partition_limit_is_reached_exactly():
    spec = parse_partition_clause(clause("p1 start(0) end(1048574) every(1)"))
    parts = expand_spec(spec, {"c": KeyType("int4")}).partitions
    assert len(parts) == MAX_PARTITION_NUM
    assert [render_partition(p) for p in (parts[0], parts[1], parts[-1])] == [
        "PARTITION p1_0 VALUES LESS THAN ('0')",
        "PARTITION p1_1 VALUES LESS THAN ('1')",
        "PARTITION p1_1048574 VALUES LESS THAN ('1048574')",
    ]


def test_full_smallint_range_fits_under_the_head_limit():
    # hw_partition_start_end expects an error here: its limit (32767) is older than HEAD's
    spec = parse_partition_clause(clause("p1 start (-32768) end (32767) every (1), p2 end (MAXVALUE)"))
    parts = expand_spec(spec, {"c": KeyType("int2")}).partitions
    assert len(parts) == 65537
    assert show(parts[-3:], "int2") == "p1_65534<32766, p1_65535<32767, p2<MAXVALUE"


def test_a_trailing_start_beyond_the_limit_fails():
    spec = parse_partition_clause(clause("p1 start(0) end(1048573) every(1), p2 start(1048573), p3 start(1048574)"))
    with pytest.raises(DdlcError) as info:
        expand_spec(spec, {"c": KeyType("int4")})
    assert info.value.message == 'too many partitions after split partition "p3".' + TOO_MANY


def test_spec_level_checks():
    two_keys = parse_partition_clause("PARTITION BY RANGE (c1, c2) (PARTITION p1 START(1))")
    with pytest.raises(DdlcError) as info:
        expand_spec(two_keys, {"c1": KeyType("int4"), "c2": KeyType("int4")})
    assert info.value.message == ("partitioned table has too many partition keys. HINT: start/end syntax requires "
                                  "a partitioned table with only one partition key.")
    missing = parse_partition_clause("PARTITION BY RANGE (zz) (PARTITION p1 START(1))")
    with pytest.raises(DdlcError, match='column "zz" named in partition key does not exist'):
        expand_spec(missing, {"c": KeyType("int4")})


def test_less_than_lists_are_untouched():
    spec = parse_partition_clause("PARTITION BY RANGE (c) (PARTITION p1 VALUES LESS THAN (10))")
    assert expand_spec(spec, {}) is spec
    assert expand_range_items(spec.partitions, KeyType("int4")) == spec.partitions


def test_expansion_keeps_the_rest_of_the_spec_and_origins():
    spec = parse_partition_clause(
        "PARTITION BY RANGE (c) (PARTITION p1 START(1) END(3) EVERY(1) TABLESPACE ts) ENABLE ROW MOVEMENT",
        path=("partition_by",),
    )
    out = expand_spec(spec, {"c": KeyType("int8")})
    assert out.row_movement is True and out.key == ("c",)
    assert [p.origin for p in out.partitions] == [("partition_by",)] * 3
    assert [p.tablespace for p in out.partitions] == ["ts"] * 3
    assert expand_spec(out, {"c": KeyType("int8")}) is out  # idempotent


# ---- the value arithmetic underneath (each expected value checked against PostgreSQL 15) ----------

INTERVALS = [  # (text, PostgreSQL's (months, days, micros)); compat="PG" reads like PostgreSQL
    ("1.5 months", (1, 15, 0)), ("2 weeks 1.5 days", (0, 15, 43_200_000_000)), ("1-2", (14, 0, 0)),
    ("@ 1 hour 30 min", (0, 0, 5_400_000_000)), ("1 day ago", (0, -1, 0)), ("-1 day +2 hours", (0, -1, 7_200_000_000)),
    ("1:12", (0, 0, 4_320_000_000)), ("0:01:14.333333", (0, 0, 74_333_333)), ("1.25 years", (15, 0, 0)),
    ("3 11:12:13.222222", (0, 3, 40_333_222_222)), ("100 milliseconds", (0, 0, 100_000)), ("5", (0, 0, 5_000_000)),
    ("1 2:03:04.5", (0, 1, 7_384_500_000)), ("-1 1:00:00", (0, -1, 3_600_000_000)), ("0.5 decade", (60, 0, 0)),
    ("-2:30", (0, 0, -9_000_000_000)), ("1.001 seconds ago", (0, 0, -1_001_000)),
]


@pytest.mark.parametrize("text, expected", INTERVALS)
def test_interval_input_like_postgresql(text, expected):
    assert tuple(interval_in(text, compat="PG")) == expected


@pytest.mark.parametrize(
    "text, qualifier, expected",
    [
        ("5", "", (0, 5, 0)),  # A compatibility: a bare number is days
        ("-1 1:00:00", "", (0, -1, -3_600_000_000)),  # A compatibility: the leading sign applies to all
        ("1 12", "day to hour", (0, 1, 43_200_000_000)),
        ("1:12", "minute to second", (0, 0, 72_000_000)),
        ("1 12:12:12", "day to hour", (0, 1, 43_200_000_000)),  # fields right of HOUR are dropped
        ("30:00", "hour to minute", (0, 1, 21_600_000_000)),  # whole days move out of the time part
        ("1.23456", "second(2)", (0, 0, 1_230_000)),
        ("25", "year", (300, 0, 0)),
    ],
)
def test_interval_input_a_compatibility(text, qualifier, expected):
    assert tuple(interval_in(text, qualifier=qualifier)) == expected


TIMESTAMPS = [  # DateStyle ISO, MDY
    ("12-01-2012", "2012-12-01 00:00:00"), ("1/2/2012 10:00 PM", "2012-01-02 22:00:00"),
    ("2012.336", "2012-12-01 00:00:00"), ("20121201 101112", "2012-12-01 10:11:12"),
    ("2012-12-01T10:11:12.5", "2012-12-01 10:11:12.5"), ("Dec 1, 2012", "2012-12-01 00:00:00"),
    ("1 Dec 2012 12:00 am", "2012-12-01 00:00:00"), ("2012-12-01 24:00:00", "2012-12-02 00:00:00"),
    ("12/31/99", "1999-12-31 00:00:00"), ("2012-12-01 10:11:12 BC", "2012-12-01 10:11:12 BC"),
    ("Sat Dec 01 2012 10:11:12", "2012-12-01 10:11:12"), ("epoch", "1970-01-01 00:00:00"),
]


@pytest.mark.parametrize("text, expected", TIMESTAMPS)
def test_timestamp_input_like_postgresql(text, expected):
    assert dt.timestamp_out(timestamp_in(text, None)) == expected


def test_timestamptz_arithmetic_in_the_session_zone():
    zone = dt.Zone("America/New_York")

    def plus(text, iv):
        return dt.timestamptz_out(dt.timestamp_pl_interval(timestamptz_in(text, None, zone), interval_in(iv), zone), zone)

    assert plus("2024-03-09 12:00", "1 day") == "2024-03-10 12:00:00-04"
    assert plus("2024-03-09 02:30", "1 day") == "2024-03-10 03:30:00-04"  # in the DST gap: standard time
    assert plus("2024-10-03 01:30", "1 month") == "2024-11-03 01:30:00-05"  # ambiguous hour: standard time


def test_postgresql_compatibility_readings():
    spec = parse_partition_clause(clause("p1 start('2024-01-01') end('2024-01-01 00:00:10') every('5')"))
    parts = expand_spec(spec, {"c": KEYS["timestamp"]}, compat="PG").partitions
    assert show(parts, "timestamp") == ("p1_0<'2024-01-01 00:00:00', p1_1<'2024-01-01 00:00:05', "
                                        "p1_2<'2024-01-01 00:00:10'")
    spec = parse_partition_clause(clause("p1 start('') end(10)"))
    with pytest.raises(DdlcError, match='invalid input syntax for integer: ""'):
        expand_spec(spec, {"c": KeyType("int4")}, compat="PG")
