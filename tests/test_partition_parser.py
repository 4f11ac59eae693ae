"""Partition clause parser and renderer: byte-exact round trips, canonical round trips, errors."""

from __future__ import annotations

import pytest

from ddlc.backends.partition_text import render_partition, render_partition_clause
from ddlc.errors import DdlcError
from ddlc.frontend.sql.partition import parse_bound_value, parse_partition_clause
from ddlc.ir.partition import (
    BoundKind,
    LessThan,
    ListValues,
    PartitionStrategy,
    RangeForm,
    RangeItem,
)
from ddlc.quoting import canonicalize


def og(head: str, *parts: str, tail: str = "\nENABLE ROW MOVEMENT") -> str:
    """A clause in ``pg_get_partkeydef`` layout: head line, partitions, row movement."""
    return "\n" + head + "\n( " + ",".join("\n    " + p for p in parts) + "\n)" + tail


def subs(*items: str) -> str:
    return "\n    (" + ",".join("\n        " + s for s in items) + "\n    )"


# Clauses exactly as openGauss prints them (jddl-shapes.md §5.1, function_get_table_def.out).
OPENGAUSS_CLAUSES = [
    # §5.1 example 2
    "\nPARTITION BY RANGE (id) SUBPARTITION BY LIST (region)\n( \n    PARTITION p1 VALUES LESS THAN (100)\n"
    "    (\n        SUBPARTITION p1_east VALUES ('east'),\n        SUBPARTITION p1_other VALUES (DEFAULT)\n    ),\n"
    "    PARTITION p2 VALUES LESS THAN (MAXVALUE)\n    (\n        SUBPARTITION p2_all VALUES (DEFAULT)\n    )\n)\n"
    "ENABLE ROW MOVEMENT",
    og("PARTITION BY RANGE (id)", "PARTITION table_range1_p1 VALUES LESS THAN (10)",
       "PARTITION table_range1_p2 VALUES LESS THAN (50)", "PARTITION table_range1_p4 VALUES LESS THAN (MAXVALUE)"),
    og("PARTITION BY RANGE (a)", "PARTITION table_range2_p1 VALUES LESS THAN ('2020-03-01')",
       "PARTITION table_range2_p4 VALUES LESS THAN (MAXVALUE)"),
    og("PARTITION BY RANGE (id, a)", "PARTITION table_range3_p1 VALUES LESS THAN (10, '2020-03-01')",
       "PARTITION table_range3_p4 VALUES LESS THAN (MAXVALUE, MAXVALUE)"),
    og("PARTITION BY RANGE (a)\nINTERVAL ('1 day')", "PARTITION table_interval1_p1 VALUES LESS THAN ('2020-03-01')",
       "PARTITION table_interval1_p4 VALUES LESS THAN (MAXVALUE)"),
    og("PARTITION BY LIST (id)", "PARTITION table_list1_p1 VALUES (1,2,3,4)", "PARTITION table_list1_p3 VALUES (9,10,11,12)"),
    og("PARTITION BY LIST (b)", "PARTITION table_list3_p1 VALUES ('1','2','3','4')", "PARTITION table_list3_p3 VALUES (DEFAULT)"),
    og("PARTITION BY HASH (id)", "PARTITION table_hash1_p1", "PARTITION table_hash1_p2", "PARTITION table_hash1_p3"),
    og("PARTITION BY LIST (col_1) SUBPARTITION BY RANGE (col_2)",
       "PARTITION p_list_1 VALUES (-1,-2,-3)" + subs("SUBPARTITION p_range_1_1 VALUES LESS THAN (-10)",
                                                      "SUBPARTITION p_range_1_2 VALUES LESS THAN (MAXVALUE)"),
       "PARTITION p_list_2 VALUES (1,2,3)"),
    og("PARTITION BY LIST (col_2) SUBPARTITION BY HASH (col_3)",
       "PARTITION p_list_1 VALUES (-1,-2)" + subs("SUBPARTITION p_hash_1_1", "SUBPARTITION p_hash_1_2"),
       "PARTITION p_list_7 VALUES (DEFAULT)"),
    og("PARTITION BY RANGE (month_code) SUBPARTITION BY LIST (dept_code)",
       "PARTITION p_201901 VALUES LESS THAN ('201903')" + subs("SUBPARTITION p_201901_a VALUES ('1')",
                                                              "SUBPARTITION p_201901_b VALUES ('2') TABLESPACE ts2")),
    og("PARTITION BY LIST (a, b)", "PARTITION p1 VALUES ((1,'a'),(2,'b'))", "PARTITION p2 VALUES ((3,NULL))",
       "PARTITION pd VALUES (DEFAULT)"),
    og("PARTITION BY RANGE (\"Key Col\")", "PARTITION \"P1\" VALUES LESS THAN (-5) TABLESPACE \"Fast Disk\"",
       "PARTITION \"Odd \"\"x\"\"\" VALUES LESS THAN (1.5e3)", "PARTITION \"select\" VALUES LESS THAN (MAXVALUE)",
       tail=""),
    og("PARTITION BY RANGE (c2)", "PARTITION p1_0 VALUES LESS THAN ('1')", "PARTITION p1_1 VALUES LESS THAN ('201')",
       "PARTITION p5_2 VALUES LESS THAN ('5000')", tail=""),
    og("PARTITION BY RANGE (ts)", "PARTITION p0 VALUES LESS THAN ('2012-12-02 04:13:14.999999+08')",
       "PARTITION p1 VALUES LESS THAN ('it''s')", "PARTITION p2 VALUES LESS THAN (MAXVALUE) TABLESPACE pg_default"),
    og("PARTITION BY RANGE ((a + b))", "PARTITION p1 VALUES LESS THAN (10)", tail=""),
    # bound strings are printed without doubling quotes (jddl-shapes.md §10 #12)
    og("PARTITION BY LIST (name)", "PARTITION p1 VALUES ('it's','o'brien')", "PARTITION p2 VALUES (DEFAULT)"),
    og("PARTITION BY HASH (id) SUBPARTITION BY RANGE (d)",
       "PARTITION h0 TABLESPACE t1" + subs("SUBPARTITION h0_a VALUES LESS THAN ('2020-01-01')",
                                          "SUBPARTITION h0_b VALUES LESS THAN (MAXVALUE) TABLESPACE t2")),
    og("PARTITION BY RANGE (c)", "PARTITION p1 START(1) END(1000) EVERY(200)", "PARTITION p2 END(2000)",
       "PARTITION p4 START(2500)", "PARTITION p5 START(3000) END(MAXVALUE)", tail="\nDISABLE ROW MOVEMENT"),
]


@pytest.mark.parametrize("text", OPENGAUSS_CLAUSES, ids=range(len(OPENGAUSS_CLAUSES)))
def test_round_trip_is_byte_exact(text):
    spec = parse_partition_clause(text)
    assert render_partition_clause(spec) == text
    # parsing is deterministic (the GaussDB backend compares a re-parse with the spec)
    assert parse_partition_clause(text) == spec


# Hand-written clauses: the canonical form survives a round trip.
HAND_WRITTEN = [
    "PARTITION BY RANGE (id) ( PARTITION p1 VALUES LESS THAN (100), PARTITION p2 VALUES LESS THAN (MAXVALUE) )",
    "PARTITION BY RANGE (id)\n(\n\tPARTITION p1 VALUES LESS THAN (100)   TABLESPACE   ts1,\n"
    "PARTITION p2 VALUES LESS THAN (MAXVALUE)\n) ENABLE ROW MOVEMENT",
    "PARTITION BY LIST (region) ( PARTITION east VALUES ('east','north'), PARTITION other VALUES (DEFAULT) )",
    "PARTITION BY RANGE (d) INTERVAL ('1 month') ( PARTITION p0 VALUES LESS THAN (DATE '2024-01-01') )",
    "PARTITION BY RANGE (d) ( PARTITION p0 VALUES LESS THAN (TO_DATE('2024-01-01', 'YYYY-MM-DD')), "
    "PARTITION p1 VALUES LESS THAN ('2025-01-01'::date) )",
    "PARTITION BY RANGE (t) ( PARTITION p0 VALUES LESS THAN (TIMESTAMP(3) WITH TIME ZONE '2024-01-01 00:00:00+08') )",
    "PARTITION BY RANGE (n) ( PARTITION p0 VALUES LESS THAN (-1), PARTITION p1 VALUES LESS THAN (.5), "
    "PARTITION p2 VALUES LESS THAN (1e-3), PARTITION p3 VALUES LESS THAN (+7) )",
    "PARTITION BY RANGE (a, b) ( PARTITION p1 VALUES LESS THAN (1, 'x'), PARTITION p2 VALUES LESS THAN (MAXVALUE, MAXVALUE) )",
    "PARTITION BY HASH (id) ( PARTITION h0 TABLESPACE a, PARTITION h1 )",
    "PARTITION BY RANGE (c2) ( PARTITION p1 START(1) END(1000) EVERY(200), PARTITION p2 END(2000), "
    "PARTITION p4 START(2500) TABLESPACE ts )",
    "PARTITION BY RANGE (d) ( PARTITION p1 START('2024-01-01') END('2025-01-01') EVERY(INTERVAL '1' MONTH) )",
    "PARTITION BY RANGE (d) ( PARTITION p1 START('2024-01-01') END('2025-01-01') EVERY(interval '1 12' day to hour) )",
    "PARTITION BY RANGE (id) SUBPARTITION BY HASH (c) ( PARTITION p1 VALUES LESS THAN (10) "
    "( SUBPARTITION s1, SUBPARTITION s2 TABLESPACE x ) ) DISABLE ROW MOVEMENT",
    "PARTITION BY RANGE (id) ( PARTITION p1 VALUES LESS THAN (10 * 2), PARTITION p2 VALUES LESS THAN (\"MaxValue\") )",
]


@pytest.mark.parametrize("text", HAND_WRITTEN, ids=range(len(HAND_WRITTEN)))
def test_round_trip_keeps_canonical_form(text):
    rendered = render_partition_clause(parse_partition_clause(text))
    assert rendered.startswith("\nPARTITION BY ")
    assert canonicalize(rendered) == canonicalize(text)


def test_keywords_are_case_insensitive_and_names_folded():
    spec = parse_partition_clause(
        'partition by range (ID) (partition P1 values less than (maxvalue) tablespace "TS", partition "P2" end(5))'
        .replace('partition "P2" end(5)', 'partition "P2" values less than (MaxValue)')
    )
    assert spec.strategy is PartitionStrategy.RANGE
    assert spec.key == ("id",) and spec.key_text == ("ID",)
    p1, p2 = spec.partitions
    assert (p1.name, p1.name_text, p1.tablespace, p1.tablespace_text) == ("p1", "P1", "TS", '"TS"')
    assert (p2.name, p2.name_text) == ("P2", '"P2"')
    assert p1.bound.values[0].kind is BoundKind.MAXVALUE and p1.bound.values[0].text == "maxvalue"
    assert p2.bound.values[0].kind is BoundKind.MAXVALUE


def test_ir_shapes():
    spec = parse_partition_clause(
        "PARTITION BY RANGE (c) SUBPARTITION BY LIST (r) ( PARTITION p1 VALUES LESS THAN (10) "
        "( SUBPARTITION s1 VALUES ('a', 'b'), SUBPARTITION s2 VALUES (DEFAULT) ) ) ENABLE ROW MOVEMENT"
    )
    assert spec.sub_strategy is PartitionStrategy.LIST and spec.sub_key == ("r",)
    assert spec.row_movement is True
    (p1,) = spec.partitions
    assert isinstance(p1.bound, LessThan) and p1.bound.values[0].value == "10"
    s1, s2 = p1.subpartitions
    assert isinstance(s1.bound, ListValues) and [v.value for v in s1.bound.values] == ["a", "b"]
    assert s2.bound.is_default


@pytest.mark.parametrize(
    "items, form",
    [
        ("START(1) END(2) EVERY(1)", RangeForm.START_END_EVERY),
        ("START (1) END (2)", RangeForm.START_END),
        ("start(1)", RangeForm.START),
        ("END(MAXVALUE)", RangeForm.END),
    ],
)
def test_range_item_forms(items, form):
    spec = parse_partition_clause(f"PARTITION BY RANGE (c) (PARTITION p {items})")
    bound = spec.partitions[0].bound
    assert isinstance(bound, RangeItem) and bound.form is form
    assert spec.has_range_items


@pytest.mark.parametrize(
    "text, kind, value, extra",
    [
        ("'it''s'", BoundKind.STRING, "it's", {}),
        ("-12.5", BoundKind.NUMBER, "-12.5", {}),
        ("- 3", BoundKind.NUMBER, "-3", {}),
        ("MAXVALUE", BoundKind.MAXVALUE, None, {}),
        ("NULL", BoundKind.NULL, None, {}),
        ("DATE '2024-01-01'", BoundKind.TYPED, "2024-01-01", {"type_name": "date"}),
        ("timestamp without time zone '2024-01-01 10:00'", BoundKind.TYPED, "2024-01-01 10:00",
         {"type_name": "timestamp without time zone"}),
        ("INTERVAL '1' DAY", BoundKind.TYPED, "1", {"type_name": "interval", "qualifier": "day"}),
        ("interval '3 11:12:13.2' day to second(3)", BoundKind.TYPED, "3 11:12:13.2",
         {"type_name": "interval", "qualifier": "day to second(3)"}),
        ("INTERVAL(2) '1.234'", BoundKind.TYPED, "1.234", {"type_name": "interval(2)"}),
        ("'1 month'", BoundKind.STRING, "1 month", {}),
        ("TO_DATE('01-02-2024','MM-DD-YYYY')", BoundKind.EXPR, None, {}),
        ("minvalue", BoundKind.EXPR, None, {}),
        ("E'a\\'b'", BoundKind.STRING, "a'b", {}),
    ],
)
def test_bound_values(text, kind, value, extra):
    bv = parse_bound_value(text)
    assert bv.kind is kind and bv.value == value and bv.text == text
    for attr, want in extra.items():
        assert getattr(bv, attr) == want


def test_unescaped_quotes_as_openGauss_prints_them():
    spec = parse_partition_clause("PARTITION BY LIST (n) (PARTITION p1 VALUES ('it's','don't stop'))")
    assert [v.value for v in spec.partitions[0].bound.values] == ["it's", "don't stop"]


def test_tuple_values():
    bv = parse_bound_value("(1, 'a')")
    assert bv.kind is BoundKind.TUPLE and [i.value for i in bv.items] == ["1", "a"]


def test_long_identifier_is_cut_to_63_bytes_keeping_its_spelling():
    name = "p12345678901234567890123456789012345678901234567890123456789012345"
    spec = parse_partition_clause(f"PARTITION BY RANGE (c) (PARTITION {name} START(1) END(100) EVERY(20))")
    part = spec.partitions[0]
    assert part.name == name[:63] and part.name_text == name
    multibyte = "分区" * 30  # 180 bytes: cut on a character boundary
    spec = parse_partition_clause(f'PARTITION BY RANGE (c) (PARTITION "{multibyte}" VALUES LESS THAN (1))')
    assert spec.partitions[0].name == "分区" * 10 + "分"  # 63 bytes


def test_render_partition_single_line():
    spec = parse_partition_clause(OPENGAUSS_CLAUSES[0])
    assert render_partition(spec.partitions[0]) == (
        "PARTITION p1 VALUES LESS THAN (100) ( SUBPARTITION p1_east VALUES ('east'), "
        "SUBPARTITION p1_other VALUES (DEFAULT) )"
    )


# (clause, message, position)
ERRORS = [
    ("PARTITION BY RANGE (a) (PARTITION p1 VALUES LESS THAN (10), PARTITION p2 START(10) END(20))",
     'START/END items cannot be mixed with VALUES LESS THAN items at position 73 near "START(10) END(20))"', 73),
    ("PARTITION BY RANGE (a) (PARTITION p1 START(1), PARTITION p2 VALUES LESS THAN (20))",
     "START/END items cannot be mixed", 60),
    ("PARTITION BY RANGE (a) (PARTITION p1 VALUES LESS THAN (10)", 'expected ")" at position 58 (end of input)', 58),
    ("PARTITION BY RANGE (a) (PARTITION p1 VALUES LESS THEN (10))", 'expected THAN at position 49 near "THEN (10))"', 49),
    ("PARTITION BY RANGES (a) ()", "expected RANGE, LIST or HASH at position 13", 13),
    ("PARTITION BY RANGE (a) (PARTITION p1 START(1) EVERY(5))", "EVERY needs both START and END at position 46", 46),
    ("PARTITION BY RANGE (a) (PARTITION p1 END(10) EVERY(5))", "EVERY needs both START and END", 45),
    ("PARTITION BY LIST (a) (PARTITION p1 VALUES LESS THAN (10))", "LIST partition p1 needs VALUES (...)", 36),
    ("PARTITION BY LIST (a) (PARTITION p1 START(10))", "LIST partition p1 needs VALUES (...)", 36),
    ("PARTITION BY RANGE (a) (PARTITION p1)", "RANGE partition p1 needs VALUES LESS THAN (...)", 36),
    ("PARTITION BY HASH (a) (PARTITION p1 VALUES (1))", "HASH partition p1 needs no bound", 36),
    ("PARTITION BY RANGE (a) (PARTITION p1 VALUES LESS THAN ('abc))", "unterminated quoted string at position 55", 55),
    ("PARTITION BY RANGE (a) (PARTITION p1 VALUES LESS THAN (DEFAULT))",
     "DEFAULT is only allowed as VALUES (DEFAULT)", 55),
    ("PARTITION BY RANGE (a) (PARTITION p1 VALUES LESS THAN (1)) ENABLE ROW", "expected MOVEMENT", 69),
    ("PARTITION BY RANGE (a) (PARTITION p1 VALUES LESS THAN (1)) extra", "expected end of partition clause", 59),
    ("PARTITION BY RANGE (a) SUBPARTITION BY LIST (b) (PARTITION p1 VALUES LESS THAN (1) "
     "(SUBPARTITION s1 VALUES LESS THAN (5)))", "subpartition s1 does not match SUBPARTITION BY LIST", 100),
    ("PARTITION BY RANGE (a) (PARTITION p1 VALUES LESS THAN (1) (SUBPARTITION s1))", 'expected ")"', 58),
    ('PARTITION BY RANGE (a) (PARTITION "" VALUES LESS THAN (1))', "zero-length delimited identifier", 34),
    ("PARTITION BY RANGE (a) (PARTITION p1 VALUES LESS THAN (1) ? )", "unexpected character '?'", 58),
]


@pytest.mark.parametrize("text, message, position", ERRORS, ids=range(len(ERRORS)))
def test_errors_carry_positions(text, message, position):
    with pytest.raises(DdlcError) as info:
        parse_partition_clause(text, path=("partition_by",))
    err = info.value
    assert err.code == "DDLC-E007"
    assert message in err.message
    assert err.position == position
    assert f"at position {position}" in err.message
    assert err.path == ("partition_by",)
