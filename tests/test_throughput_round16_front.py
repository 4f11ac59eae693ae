"""Issue 26, round 16 (front): the faster readers give what the former ones gave.

* A partition clause whose items are range items (``PARTITION p START (1) END (100) EVERY (10)``, ``END (..)``,
  ``START (..)``) is read by the common clause's patterns (:func:`partition_common.common_spec`) instead of the
  recursive-descent parser (:class:`partition._Parser`): the same :class:`PartitionSpec`, every field compared, or
  the same error, on every fixture's clause, hand-written forms, clauses made from the grammar with random
  spellings, blanks, names and values (DEFAULT, casts, expressions, quotes, comments, non-ASCII), and mutations.
* A PRIMARY KEY / UNIQUE body with ``WITH (name=integer)`` or DEFERRABLE is read by a pattern
  (:func:`constraint_keys.key_list_json`) instead of pglast's JSON parse, and the parse known to fail is not tried
  (an ASC / DESC key, ``CHECK (...) DISABLE``: :func:`constraint_keys.unparsable`): the pattern's node reads as the
  parse's, a body called doomed does not parse, and ``table_reading`` / ``read_definition`` / ``parse_constraint``
  give what they gave with every body sent to the parser, on fixture definitions and generated hostile bodies.
* CREATE TABLE's column elements and WITH options read from their dicts (``_columns.read_column_of``,
  ``table.read_with_options``) are compared with the former readers by tests/test_throughput_build*.py and
  tests/test_throughput_round14_front.py (same values, same errors).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddlc.frontend.sql import partition
from ddlc.frontend.sql.partition_tokens import common_clause

from test_throughput_table import PARTITION_TEXTS
from test_throughput_table2 import _same


# -- range items read by the patterns -----------------------------------------------------------------

def test_fixture_clauses_read_the_same() -> None:
    assert sum(_same(t) for t in PARTITION_TEXTS if "START" in t.upper() or "END" in t.upper()) > 0
    for t in PARTITION_TEXTS:
        _same(t)
        _same(t.replace("START", "start").replace("END", "End"))
        _same(t.replace("p1", '"P1 é"'))


@pytest.mark.parametrize("text, read", [
    ("PARTITION BY RANGE (c2) (\nPARTITION p1 START(1) END(1000) EVERY(200) ,\nPARTITION p2 END(2000),\n"
     "PARTITION p3 START(2000) END(2500),\nPARTITION p4 START(2500),\nPARTITION p5 START(3000) END(5000) EVERY(1000)\n)",
     True),
    ("PARTITION BY RANGE (a) (PARTITION p START (1) END (2))", True),
    ("partition by range (a) (partition p start('a') end('b') every(1) tablespace t)", True),
    ("PARTITION BY RANGE (a, b) (PARTITION p START (1, 2) END (MAXVALUE, NULL))", True),
    ("PARTITION BY RANGE (a) (PARTITION p END (- 5), PARTITION q START (+5.e3))", True),
    ('PARTITION BY RANGE (a) (PARTITION "P q" START (1) END (2) TABLESPACE "T s")', True),
    ("PARTITION BY RANGE (a) INTERVAL ('1 day') (PARTITION p START (1) END (2))", True),
    ("PARTITION BY RANGE (a) SUBPARTITION BY LIST (b) (PARTITION p START (1) END (2))", True),
    ("PARTITION BY RANGE (a) (PARTITION p START (1) END (2)) ENABLE ROW MOVEMENT", True),
    ("PARTITION BY RANGE (a) (PARTITION start START (1) END (2), PARTITION end END (3))", True),
    ("PARTITION BY RANGE (a) (PARTITION every START (1) END (9) EVERY (2))", True),
    # refused by the parser, or not read by the patterns: the parser says what it says
    ("PARTITION BY RANGE (a) SUBPARTITION BY LIST (b) (PARTITION p START (1) END (2) (SUBPARTITION s VALUES (1)))",
     False),
    ("PARTITION BY RANGE (a) (PARTITION p END (2) EVERY (1))", False),
    ("PARTITION BY RANGE (a) (PARTITION p START (1) EVERY (1))", False),
    ("PARTITION BY RANGE (a) (PARTITION p EVERY (1))", False),
    ("PARTITION BY RANGE (a) (PARTITION p START (DEFAULT) END (2))", False),
    ("PARTITION BY RANGE (a) (PARTITION p START (1) END (default))", False),
    ("PARTITION BY RANGE (a) (PARTITION p START (1) END (9) EVERY (DEFAULT))", False),
    ("PARTITION BY RANGE (a) (PARTITION p START (1) END (2), PARTITION q VALUES LESS THAN (3))", False),
    ("PARTITION BY RANGE (a) (PARTITION q VALUES LESS THAN (3), PARTITION p START (3) END (4))", False),
    ("PARTITION BY LIST (a) (PARTITION p START (1) END (2))", False),
    ("PARTITION BY HASH (a) (PARTITION p START (1) END (2))", False),
    ("PARTITION BY HASH (a) (PARTITION p0, PARTITION p1 END (2))", False),
    ("PARTITION BY RANGE (a) (PARTITION p START /* c */ (1) END (2))", False),
    ("PARTITION BY RANGE (a) (PARTITION p START (1) -- c\n END (2))", False),
    ("PARTITION BY RANGE (a) (PARTITION p START (1::int) END (2))", False),
    ("PARTITION BY RANGE (a) (PARTITION p START ('it''s') END (2))", False),
    ("PARTITION BY RANGE (a) (PARTITION p START (date '2024-01-01') END (2))", False),
    ("PARTITION BY RANGE (a) (PARTITION p START (1) END)", False),
    ("PARTITION BY RANGE (a) (PARTITION p START (1) END x)", False),
    ("PARTITION BY RANGE (a) (PARTITION p STARTx (1) END (2))", False),
    ("PARTITION BY RANGE (a) (PARTITION p START (1) ENDé (2))", False),
    ("PARTITION BY RANGE (a) (PARTITION pSTART (1) END (2))", False),
    ("PARTITION BY RANGE (a) (PARTITION p START (1) END (2) START (3))", False),
    ("PARTITION BY RANGE (a) (PARTITION p START () END (2))", False),
    ("PARTITION BY RANGE (a) (PARTITION p START (1,) END (2))", False),
])
def test_forms(text: str, read: bool) -> None:
    assert _same(text) is read


def test_common_clause_reads_range_items_only_when_asked() -> None:
    text = "PARTITION BY RANGE (a) (PARTITION p START (1) END (2))"
    assert common_clause(text) is None
    assert common_clause(text, True) is not None


_BLANK = st.sampled_from(["", " ", "  ", "\n", "\t", " \n    ", "\x0b", "\x0c", "\r\n"])
_SEP = st.sampled_from([" ", "\n", "  ", "\t", " \n "])
_PLAIN = st.from_regex(r"[A-Za-z_][A-Za-z0-9_$]{0,8}", fullmatch=True)
_NAME = st.one_of(
    _PLAIN, _PLAIN, _PLAIN,
    st.sampled_from(["start", "END", "every", "values", "partition", "tablespace", "default", "e", "x",
                     "a" * 64, "é", "p_é客"]),
    st.from_regex(r'"[^"\x00]{1,6}"', fullmatch=True),
    st.just('"a""b"'), st.just('""'),
)
_VALUE = st.one_of(
    st.sampled_from(["0", "1", "100", "-1", "- 5", "+5", "1.5", "1.", ".5", "1e5", "1E-3", "007", "1..2", "1e",
                     "--1", "MAXVALUE", "maxvalue", "NULL", "Null", "DEFAULT", "default", "''", "'it''s'", "'a' 'b'",
                     "e'x'", "x'1F'", "date '2024-01-01'", "1::int", "a", "(1)", "1 + 2", "to_date('1')", "$1",
                     "/* c */ 1", "1 -- c\n", "'é'", "'$$'", "'\\'"]),
    st.from_regex(r"'[^'\x00]{0,6}'", fullmatch=True),
)


def _word(w: str) -> st.SearchStrategy[str]:
    return st.sampled_from([w.upper(), w.lower(), w.capitalize(), w[:1].lower() + w[1:].upper()])


@st.composite
def _values(draw: Any) -> str:
    vals = draw(st.lists(_VALUE, min_size=1, max_size=3))
    return "(" + draw(_BLANK) + (draw(_BLANK) + "," + draw(_BLANK)).join(vals) + draw(_BLANK) + ")"


@st.composite
def _range_bound(draw: Any) -> str:
    out = ""
    for w in draw(st.sampled_from([("start", "end", "every"), ("start", "end"), ("start",), ("end",),
                                   ("end", "every"), ("start", "every"), ("every",), ("start", "end", "every"),
                                   ("start", "end", "start")])):
        out += draw(_SEP) + draw(_word(w)) + draw(_BLANK) + draw(_values())
    if draw(st.integers(0, 6)) == 0:
        out += draw(_SEP) + draw(_word("values")) + draw(_SEP) + "LESS THAN" + draw(_values())
    return out


@st.composite
def _item(draw: Any) -> str:
    out = draw(_SEP) + draw(_word("partition")) + draw(_SEP) + draw(_NAME)
    if draw(st.integers(0, 4)) == 0:
        out += draw(_SEP) + draw(_word("values")) + draw(_SEP) + "LESS THAN" + draw(_values())
    else:
        out += draw(_range_bound())
    if draw(st.booleans()):
        out += draw(_SEP) + draw(_word("tablespace")) + draw(_SEP) + draw(_NAME)
    if draw(st.integers(0, 5)) == 0:
        out += draw(_BLANK) + "(SUBPARTITION s VALUES (1))"
    return out


@st.composite
def _clause(draw: Any) -> str:
    strategy = draw(st.sampled_from(["range"] * 6 + ["list", "hash"]))
    keys = draw(st.lists(_NAME, min_size=1, max_size=2))
    out = (draw(_BLANK) + draw(_word("partition")) + draw(_SEP) + draw(_word("by")) + draw(_SEP)
           + draw(_word(strategy)) + draw(_BLANK) + "(" + ", ".join(keys) + ")")
    if draw(st.integers(0, 4)) == 0:
        out += draw(_SEP) + draw(_word("interval")) + draw(_BLANK) + "(" + draw(_VALUE) + ")"
    if draw(st.integers(0, 3)) == 0:
        out += draw(_SEP) + "SUBPARTITION BY " + draw(st.sampled_from(["LIST", "RANGE", "HASH"])) + " (" + draw(_NAME) + ")"
    items = draw(st.lists(_item(), min_size=1, max_size=4))
    out += draw(_SEP) + "(" + ",".join(items) + draw(_BLANK) + ")"
    return out + draw(st.sampled_from(["", " ENABLE ROW MOVEMENT", "\ndisable row movement", "  \n", " x", " -- c"]))


@settings(max_examples=4000, deadline=None)
@given(_clause())
def test_grammar_clauses_read_the_same(text: str) -> None:
    _same(text)


@settings(max_examples=3000, deadline=None)
@given(_clause(), st.integers(0, 10_000),
       st.sampled_from(["", "(", ")", ",", "'", '"', " ", "x", "-", "1", "é", "$", "\\", "/*", "--", "\n"]))
def test_mutated_clauses_read_the_same(text: str, at: int, piece: str) -> None:
    i = at % (len(text) + 1)
    _same(text[:i] + piece + text[i + 1:])
    _same(text[:i] + piece + text[i:])


def test_parser_entry_unchanged() -> None:
    """What the patterns do not read still reaches the parser (the same object the former entry made)."""
    text = "PARTITION BY RANGE (a) (PARTITION p START (1::int) END (2))"
    assert partition._common_spec(text, ()) is None
    assert partition.parse_partition_clause(text) == partition._Parser(text, ()).clause()


# -- key lists with options, DEFERRABLE or ASC / DESC read without the grammar -----------------------------------

from ddlc.frontend.sql import constraints  # noqa: E402
from ddlc.frontend.sql.constraint_keys import disabled_check, key_list_json, sorted_key_list, unparsable  # noqa: E402

from test_throughput_table import _fixture_strings  # noqa: E402

_BLANKS = ["", " ", "  ", "\n", "\t", "\x0b", "\x0c", "\r\n", "\x1c", "\xa0"]


def _info(node: Any, body: str) -> Any:
    return None if node is None else constraints._info(node, body, ("d",), (), False, False, False)


def _check_body(body: str) -> None:
    """The patterns' node reads as the parser's (None where they give none); a sorted key list never parses."""
    mine = key_list_json(body)
    parsed = constraints._parsed_json(body)
    if mine is not None:
        assert parsed is not None, body
        assert _info(mine, body) == _info(parsed, body), body
        assert mine["_sql"] == parsed["_sql"] == body
    if sorted_key_list(body) or disabled_check(body) or unparsable(body):
        assert parsed is None, body


def _readings(text: str) -> Any:
    constraints._parse.cache_clear()
    out = []
    for fn in (lambda t: constraints.table_reading(t, ("d",)), lambda t: constraints.read_definition(t, ("d",)),
               lambda t: constraints.parse_constraint(t, ("d",))):
        try:
            got = fn(text)
        except Exception as e:  # noqa: BLE001 - the same error either way
            out.append(("error", type(e), str(e)))
            continue
        if isinstance(got, tuple):  # table_reading: the ParsedSql compared by what it gives
            parsed, informational, verbatim, sql = got
            got = (parsed, informational, verbatim, sql.form, sql.verbatim)
        out.append(got)
    return out


def _same_readings(text: str, monkeypatch: Any) -> None:
    new = _readings(text)
    with monkeypatch.context() as m:  # the former reading: every body to the parser
        m.setattr(constraints, "key_list_json", lambda body: None)
        m.setattr(constraints, "unparsable", lambda body: False)
        old = _readings(text)
    constraints._parse.cache_clear()
    assert new == old, text


_CONSTRAINT_TEXTS = sorted({*_fixture_strings("definition"), "PRIMARY KEY (id) WITH (fillfactor=80)",
                            "CHECK ((qty >= 0)) DISABLE", "CHECK ((balance >= (0)::numeric)) NO INHERIT",
                            "UNIQUE (email) DEFERRABLE INITIALLY DEFERRED", "UNIQUE (sku DESC)",
                            "enable optimization Informational Constraint UNIQUE (qty)",
                            "PRIMARY KEY (id) USING INDEX TABLESPACE ts1", "UNIQUE (code) INCLUDE (email)"})


def test_fixture_definitions_read_the_same(monkeypatch: Any) -> None:
    assert len(_CONSTRAINT_TEXTS) > 10
    for t in _CONSTRAINT_TEXTS:
        _check_body(t.strip())
        _same_readings(t, monkeypatch)
        _same_readings(t.lower(), monkeypatch)


@pytest.mark.parametrize("body, read", [
    ("PRIMARY KEY (id) WITH (fillfactor=80)", True),
    ("UNIQUE (a, b) INCLUDE (c) WITH (fillfactor = 0, x=7) USING INDEX TABLESPACE t DEFERRABLE INITIALLY IMMEDIATE",
     True),
    ("unique(a)with(fillfactor=080)deferrable", False),  # (no blank before DEFERRABLE: left to the parser)
    ("unique(a)with(fillfactor=080) deferrable", True),
    ("UNIQUE (a) DEFERRABLE", True),
    ("UNIQUE (a) DEFERRABLE INITIALLY DEFERRED", True),
    ("UNIQUE (a)", False),  # (the plain key list: constraints._key_list_json)
    ("UNIQUE (a) NOT DEFERRABLE", False),
    ("UNIQUE (a) INITIALLY DEFERRED", False),
    ("UNIQUE (a) DEFERRABLE NOT VALID", False),
    ("UNIQUE (a) WITH (fillfactor=1234567890)", False),
    ("UNIQUE (a) WITH (fillfactor=-1)", False),
    ("UNIQUE (a) WITH (fillfactor=1.5)", False),
    ("UNIQUE (a) WITH (fillfactor=1e5)", False),
    ("UNIQUE (a) WITH (fillfactor='1')", False),
    ("UNIQUE (a) WITH (fillfactor)", False),
    ("UNIQUE (a) WITH (toast.fillfactor=1)", False),
    ("UNIQUE (a) WITH (select=1)", False),
    ("UNIQUE (select) DEFERRABLE", False),
    ("UNIQUE (json) DEFERRABLE", False),
    ("UNIQUE (a) WITH (" + "f" * 64 + "=1)", False),
    ("UNIQUE (aé) DEFERRABLE", False),
    ('UNIQUE ("a") DEFERRABLE', False),
    ("UNIQUE (a) DEFERRABLE -- c", False),
    ("UNIQUE (a) /* c */ DEFERRABLE", False),
    ("UNIQUE (a) DEFERRABLEé", False),
    ("UNIQUE (a) WITH (x=1)é", False),
])
def test_key_list_forms(body: str, read: bool) -> None:
    assert (key_list_json(body) is not None) is read
    _check_body(body)


@pytest.mark.parametrize("body, sorted_", [
    ("UNIQUE (sku DESC)", True), ("PRIMARY KEY (a ASC, b)", True), ("unique (a, b desc, c asc)", True),
    ("UNIQUE (a DESCé)", False), ("UNIQUE (a DESC_x)", False), ("UNIQUE (a DESC1)", False), ("UNIQUE (a)", False),
    ('UNIQUE ("a" DESC)', False), ("UNIQUE (a /* c */ DESC)", False), ("UNIQUE (desc)", False),
    ("UNIQUE (select DESC)", True), ("UNIQUE (a\x0bDESC)", True), ("UNIQUE (a DESC", True),
])
def test_sorted_forms(body: str, sorted_: bool) -> None:
    assert sorted_key_list(body) is sorted_
    _check_body(body)


_KW = st.sampled_from(["", "enable optimization Informational Constraint ", "disable optimization informational "
                       "constraint "])
_KNAME = st.one_of(_PLAIN, _PLAIN, st.sampled_from(["select", "json", "desc", "asc", "key", "with", "a" * 63, "a" * 64,
                                                    "é", "a$b", '"q"', "_", "isnull"]))
_KB = st.sampled_from(_BLANKS)


def _kword(w: str) -> st.SearchStrategy[str]:
    return st.sampled_from([w.upper(), w.lower(), w.capitalize()])


@st.composite
def _key_body(draw: Any) -> str:
    b = draw(_KB)
    out = draw(st.sampled_from(["PRIMARY KEY", "primary  key", "UNIQUE", "Unique", "PRIMARY\nKEY"])) + b + "("
    keys = draw(st.lists(st.tuples(_KNAME, st.sampled_from(["", " DESC", " ASC", " desc", "\tDESC", " DESCx"])),
                         min_size=1, max_size=3))
    if draw(st.integers(0, 2)):
        keys = [(k, "") for k, _ in keys]
    out += draw(_KB) + (draw(_KB) + "," + draw(_KB)).join(k + s for k, s in keys) + draw(_KB) + ")"
    if draw(st.integers(0, 4)) == 0:
        out += draw(_KB) + draw(_kword("include")) + draw(_KB) + "(" + draw(_KNAME) + ")"
    if draw(st.booleans()):
        opts = draw(st.lists(st.tuples(_KNAME, st.sampled_from(["80", "0", "007", "123456789", "1234567890", "-1",
                                                                "1.5", "'x'", "on", "80a", ""])),
                             min_size=1, max_size=3))
        out += (draw(_KB) + draw(_kword("with")) + draw(_KB) + "("
                + ",".join(draw(_KB) + k + draw(_KB) + ("=" + draw(_KB) + v if v else "") for k, v in opts) + ")")
    if draw(st.integers(0, 3)) == 0:
        out += draw(_KB) + "USING INDEX TABLESPACE" + draw(_KB) + draw(_KNAME)
    out += draw(st.sampled_from(["", " DEFERRABLE", " deferrable initially deferred", " DEFERRABLE INITIALLY IMMEDIATE",
                                 " NOT DEFERRABLE", " INITIALLY DEFERRED", " DEFERRABLE NOT VALID", " NO INHERIT",
                                 " -- c", " /* c */", "é", "\\", "$$", "'", ";"]))
    return out + draw(_KB)


@settings(max_examples=3000, deadline=None)
@given(_key_body())
def test_generated_bodies(body: str) -> None:
    _check_body(body)
    _check_body(body.strip(" \t\n\r\f\v"))


@settings(max_examples=600, deadline=None)
@given(_KW, _key_body())
def test_generated_definitions_read_the_same(prefix: str, body: str) -> None:
    from _pytest.monkeypatch import MonkeyPatch

    with MonkeyPatch.context() as m:
        _same_readings(prefix + body, m)


@pytest.mark.parametrize("body, doomed", [
    ("CHECK ((qty >= 0)) DISABLE", True), ("check(a>0)disable", True), ("CHECK (f(a) > (1)) \n DISABLE  ", True),
    ("CHECK (a > 0) NOT VALID DISABLE", False), ("CHECK (a DISABLE)", False), ("CHECK (a) DISABLEd", False),
    ("CHECK (a) -- c\n DISABLE", False), ("CHECK (a) /* ) */ DISABLE", False), ("CHECK (a = ')') DISABLE", False),
    ('CHECK ("a)") DISABLE', False), ("CHECK (a = $$)$$) DISABLE", False), ("CHECK (a) \\ DISABLE", False),
    ("CHECK (a) DISABLE é", False), ("CHECK (a) é DISABLE", False), ("CHECKa (a) DISABLE", False),
    ("FOREIGN KEY (a) REFERENCES disable", False), ("PRIMARY KEY (a) USING INDEX TABLESPACE disable", False),
    ("CHECK (a) DISABLE; CHECK (b)", False), ("CHECK (a); SELECT (1) DISABLE", True),
])
def test_disabled_check_forms(body: str, doomed: bool) -> None:
    assert disabled_check(body) is doomed
    _check_body(body)


_CHECK_PIECES = ["CHECK", "check", " ", "(", ")", "a", "0", ">", "DISABLE", "disable", "'", '"', "$$", "--", "/*",
                 "*/", "\n", "\\", "é", ";", "NOT VALID", "NO INHERIT", "::int", "f(", "x)"]


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(_CHECK_PIECES), max_size=10))
def test_generated_checks(pieces: list[str]) -> None:
    body = "CHECK (" + "".join(pieces) + ") DISABLE"
    _check_body(body)
    _check_body("".join(pieces))
