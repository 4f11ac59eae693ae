"""Issue 26, CREATE TABLE and ALTER TABLE (round 7): the faster readers give what the former ones gave.

* a partition clause of the server's common form read by patterns (:func:`partition._common_spec`) against the
  recursive-descent parser (:class:`partition._Parser`): the same :class:`PartitionSpec`, every field compared
  (the parsed forms of keys and DEFAULT bounds too, which node equality leaves out), or the same error, on every
  fixture's clause, the parser tests' clauses, and clauses made from the grammar with random spellings, blanks,
  names and values, mutated.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddlc.errors import DdlcError
from ddlc.frontend.sql import partition
from ddlc.frontend.sql.partition_tokens import common_clause
from ddlc.ir.names import Expr

from test_throughput_table import PARTITION_TEXTS


def deep(a: Any, b: Any, where: str = "") -> None:
    """``a`` and ``b`` equal field for field, the fields equality leaves out included (an Expr's parsed form)."""
    assert type(a) is type(b), where
    if isinstance(a, Expr):
        assert (a.text, a.origin) == (b.text, b.origin), where
        assert (a.sql is None) == (b.sql is None), where
        if a.sql is not None:
            assert (a.sql.form, a.sql.node, a.sql.refs, a.sql.verbatim) == (b.sql.form, b.sql.node, b.sql.refs,
                                                                                 b.sql.verbatim), where
        return
    if isinstance(a, msgspec.Struct):
        for f in a.__struct_fields__:
            deep(getattr(a, f), getattr(b, f), f"{where}.{f}")
        return
    if isinstance(a, tuple | list):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            deep(x, y, f"{where}[{i}]")
        return
    assert a == b, where


def _outcome(fn: Any, text: str) -> Any:
    try:
        return "ok", fn(text)
    except DdlcError as e:
        return "error", (e.message, e.position, e.code)


def _same(text: str) -> bool:
    """The parse of ``text`` equals the parser's; whether the patterns read it."""
    path = ("partition_by",)
    new = _outcome(lambda t: partition.parse_partition_clause(t, path=path), text)
    old = _outcome(lambda t: partition._Parser(t, path).clause(), text)
    assert new[0] == old[0], text
    if new[0] == "ok":
        deep(new[1], old[1], text)
    else:
        assert new[1] == old[1], text
    return partition._common_spec(text, path) is not None


def test_fixture_clauses_read_the_same() -> None:
    read = sum(_same(t) for t in PARTITION_TEXTS)
    assert read > 20  # most are of the common form
    for t in PARTITION_TEXTS:
        _same(t.replace("p1", "p1_é客ü"))
        _same(t.replace("p1", '"P1 x"'))
        _same(t.lower())
        _same(t.upper())


@pytest.mark.parametrize("text, read", [
    ("PARTITION BY HASH (a) (PARTITION p0, PARTITION p1)", True),
    ("partition by list(a)(partition p values(default))", True),
    ('PARTITION BY RANGE ("A b", c) (PARTITION "p""" VALUES LESS THAN (1, 2))', False),
    ("PARTITION BY RANGE (a) (PARTITION p VALUES LESS THAN (- 5), PARTITION q VALUES LESS THAN (+5.e3))", True),
    ("PARTITION BY RANGE (a) INTERVAL ('1 month') (PARTITION p VALUES LESS THAN ('2024-01-01'))", True),
    ("PARTITION BY RANGE (a) INTERVAL ('1 month') STORE IN (t1) (PARTITION p VALUES LESS THAN (1))", False),
    ("PARTITION BY LIST (a) INTERVAL ('1') (PARTITION p VALUES (1))", False),
    ("PARTITION BY LIST (a) (PARTITION p VALUES (DEFAULT, 1))", False),
    ("PARTITION BY RANGE (a) (PARTITION p VALUES LESS THAN (DEFAULT))", False),
    ("PARTITION BY RANGE (a) (PARTITION p VALUES (1))", False),
    ("PARTITION BY HASH (a) (PARTITION p VALUES (1))", False),
    ("PARTITION BY RANGE (a) (PARTITION p VALUES LESS THAN (1) (SUBPARTITION s VALUES (1)))", False),
    ("PARTITION BY RANGE (a) SUBPARTITION BY LIST (b, c) (PARTITION p VALUES LESS THAN (1))", False),
    ("PARTITION BY RANGE (a) SUBPARTITION BY HASH (b) (PARTITION p VALUES LESS THAN (1) (SUBPARTITION s "
     "TABLESPACE t, SUBPARTITION s2)) DISABLE ROW MOVEMENT", True),
    ("PARTITION BY RANGE (a) (PARTITION p VALUES LESS THAN (1)) -- c", False),
    ("PARTITION BY RANGE (a) (PARTITION p1VALUES LESS THAN (1))", False),
    ("PARTITION BY RANGE (a) (PARTITION p VALUES LESS THAN (1e))", False),
    ("PARTITION BY RANGE (a) (PARTITION p VALUES LESS THAN ('a' 'b'))", False),
    ("PARTITION BY RANGE (a) (PARTITION p VALUES LESS THAN ('it''s'))", False),
    ("PARTITION BY LIST (a) (PARTITION p VALUES (e'x'))", False),
    ("PARTITION BY RANGE (a) (PARTITION " + "x" * 70 + " VALUES LESS THAN (1) TABLESPACE " + "é" * 40 + ")", False),
    ('PARTITION BY RANGE (a) (PARTITION "' + "é" * 40 + '" VALUES LESS THAN (1) TABLESPACE "t\x00")', True),
])
def test_forms(text: str, read: bool) -> None:
    assert _same(text) is read


# -- clauses made from the grammar -------------------------------------------------------------------

_BLANK = st.sampled_from(["", " ", "  ", "\n", "\t", " \n    ", "\x0b", "\x0c", "\r\n"])
_SEP = st.sampled_from([" ", "\n", "  ", "\t", " \n "])


def _word(w: str) -> st.SearchStrategy[str]:
    return st.sampled_from([w.upper(), w.lower(), w.capitalize(), w[:1].lower() + w[1:].upper()])


_PLAIN = st.from_regex(r"[A-Za-z_][A-Za-z0-9_$]{0,8}", fullmatch=True)
_NAME = st.one_of(
    _PLAIN, _PLAIN, _PLAIN, _PLAIN,
    st.sampled_from(["values", "partition", "tablespace", "less", "maxvalue", "default", "e", "x", "B", "n",
                     "interval", "subpartition", "a" * 64, "é", "p_é客", "row"]),
    st.from_regex(r'"[^"\x00]{1,6}"', fullmatch=True),
    st.just('"a""b"'), st.just('""'), st.just('"' + "é" * 40 + '"'),
)
_NUMBER = st.sampled_from(["0", "1", "100", "-1", "- 5", "+5", "1.5", "1.", ".5", "1e5", "1E-3", "1.e2", "007",
                           "1..2", "1e", "--1"])
_STRING = st.from_regex(r"'[^'\x00]{0,6}'", fullmatch=True)
_VALUE = st.one_of(
    _NUMBER, _NUMBER, _STRING, _STRING, _STRING,
    st.sampled_from(["MAXVALUE", "maxvalue", "NULL", "Null", "DEFAULT", "default", "''", "'it''s'", "'a' 'b'",
                     "e'x'", "x'1F'", "date '2024-01-01'", "1::int", "a", "(1)", "1 + 2", "to_date('1')"]),
)


# the pools of clauses of the common form (the patterns read most of them)
_CLEAN_NAME = st.one_of(_PLAIN, st.from_regex(r'"[A-Za-z0-9 _é客]{1,6}"', fullmatch=True))
_CLEAN_VALUE = st.one_of(st.sampled_from(["0", "1", "-1", "- 5", "+5", "1.5", "1.", ".5", "1e5", "1E-3", "MAXVALUE",
                                          "maxvalue", "NULL"]), st.from_regex(r"'[^'\x00]{0,6}'", fullmatch=True))


@st.composite
def _values(draw: Any, clean: bool = False) -> str:
    if draw(st.integers(0, 5)) == 0:
        return "(" + draw(_BLANK) + draw(st.sampled_from(["DEFAULT", "default"])) + draw(_BLANK) + ")"
    vals = draw(st.lists(_CLEAN_VALUE if clean else _VALUE, min_size=1, max_size=3))
    return "(" + draw(_BLANK) + (draw(_BLANK) + "," + draw(_BLANK)).join(vals) + draw(_BLANK) + ")"


@st.composite
def _bound(draw: Any, strategy: str, clean: bool) -> str:
    form = strategy if clean else draw(st.sampled_from([strategy] * 12 + ["range", "list", "hash", "start"]))
    s = draw(_SEP)
    values = draw(_values(clean))
    if form == "range":
        return s + draw(_word("values")) + s + draw(_word("less")) + s + draw(_word("than")) + draw(_BLANK) + values
    if form == "list":
        return s + draw(_word("values")) + draw(_BLANK) + values
    if form == "start":
        return s + "START" + draw(_values()) + s + "END" + draw(_values())
    return ""


@st.composite
def _item(draw: Any, kw: str, strategy: str, sub: str | None, clean: bool) -> str:
    name = _CLEAN_NAME if clean else _NAME
    out = draw(_SEP) + draw(_word(kw)) + draw(_SEP) + draw(name) + draw(_bound(strategy, clean))
    if draw(st.booleans()):
        out += draw(_SEP) + draw(_word("tablespace")) + draw(_SEP) + draw(name)
    if sub is not None and draw(st.booleans()):
        subs = draw(st.lists(_item("subpartition", sub, None, clean), min_size=1, max_size=3))
        out += draw(_BLANK) + "(" + ",".join(subs) + draw(_BLANK) + ")"
    return out


@st.composite
def _clause(draw: Any, clean: bool = False) -> str:
    name = _CLEAN_NAME if clean else _NAME
    strategy = draw(st.sampled_from(["range", "list", "hash"]))
    keys = draw(st.lists(name, min_size=1, max_size=2))
    out = (draw(_BLANK) + draw(_word("partition")) + draw(_SEP) + draw(_word("by")) + draw(_SEP)
           + draw(_word(strategy)) + draw(_BLANK) + "(" + ", ".join(keys) + ")")
    if draw(st.integers(0, 4)) == 0:
        out += draw(_SEP) + draw(_word("interval")) + draw(_BLANK) + "(" + draw(_CLEAN_VALUE if clean else _VALUE) + ")"
        if not clean and draw(st.booleans()):
            out += draw(_SEP) + "STORE IN (" + draw(_NAME) + ")"
    sub = None
    if draw(st.booleans()):
        sub = draw(st.sampled_from(["range", "list", "hash"]))
        subkeys = draw(st.lists(name, min_size=1, max_size=1 if clean else 2))
        out += (draw(_SEP) + draw(_word("subpartition")) + draw(_SEP) + draw(_word("by")) + draw(_SEP)
                + draw(_word(sub)) + draw(_BLANK) + "(" + ", ".join(subkeys) + ")")
    items = draw(st.lists(_item("partition", strategy, sub, clean), min_size=1, max_size=3))
    out += draw(_SEP) + "(" + ",".join(items) + draw(_BLANK) + ")"
    tails = ["", " ENABLE ROW MOVEMENT", "\ndisable row movement", "  \n"]
    tail = draw(st.sampled_from(tails if clean else [*tails, " ENABLE ROW", " x", " -- c", " /* c */"]))
    return out + tail


@settings(max_examples=3000, deadline=None)
@given(st.one_of(_clause(), _clause(clean=True)))
def test_grammar_clauses_read_the_same(text: str) -> None:
    _same(text)


@settings(max_examples=3000, deadline=None)
@given(_clause(clean=True), st.integers(0, 10_000), st.sampled_from(["", "(", ")", ",", "'", '"', " ", "x", "-", "1", "é"]))
def test_mutated_clauses_read_the_same(text: str, at: int, piece: str) -> None:
    i = at % (len(text) + 1)
    _same(text[:i] + piece + text[i + 1:])
    _same(text[:i] + piece + text[i:])


def test_common_clause_refuses_what_it_does_not_read() -> None:
    assert common_clause("PARTITION BY RANGE (a) (PARTITION p START (1) END (2))") is None
    assert common_clause("PARTITION BY HASH (a) PARTITIONS 4") is None
    assert common_clause("PARTITION BY RANGE ((a + 1)) (PARTITION p VALUES LESS THAN (1))") is None


# -- PostgreSQL types: map_type's memo ----------------------------------------------------------------

class _Diags:
    def __init__(self) -> None:
        self.got: list[tuple[Any, ...]] = []

    def diag(self, *args: Any, **kw: Any) -> None:
        self.got.append((args, tuple(sorted(kw.items()))))


_TYPE_NAMES = st.one_of(st.sampled_from(sorted(__import__("ddlc.backends.postgres.types", fromlist=["x"]).TYPE_MAP)),
                        st.sampled_from(["Foo", "my type", "timestamp", "character varying", "bit"]))


@settings(max_examples=1500, deadline=None)
@given(_TYPE_NAMES, st.sampled_from([None, "pg_catalog", "", "s", "S x"]),
       st.sampled_from(["", "(10)", "(0)", "(12,4)", "(3) with time zone", "(7)", "(99999999999)", "(1001)",
                        "(10485761)", " day to second(3)", "(" + "9" * 200 + ")"]),
       st.booleans())
def test_map_type_memo_gives_what_the_mapping_gives(name: str, schema: str | None, typmod: str, array: bool) -> None:
    from ddlc.backends.postgres import types
    from ddlc.ir.names import TypeName

    t = TypeName(name, schema, typmod, array, origin=("coltype",))

    def outcome() -> Any:
        d = _Diags()
        try:
            return "ok", types.map_type(t, d), d.got
        except DdlcError as e:
            return "error", e.message, e.path
    first, second = outcome(), outcome()  # (the second from the memo when the first was kept)
    try:
        text, code, message = types._mapped(t)
        made: Any = ("ok", text, [((code, message, t.origin), ())] if code is not None else [])
    except DdlcError as e:
        made = ("error", e.message, e.path)
    assert first == second == made


# -- PostgreSQL partition bounds: written without a writer ---------------------------------------------

def _old_range_bound(lower: Any, upper: Any) -> str:
    from ddlc.backends.writer import SqlWriter

    w = SqlWriter().kw("FOR", "VALUES", "FROM").paren_list(lower, SqlWriter.raw)
    return w.kw("TO").paren_list(upper, SqlWriter.raw).text()


def _old_list_bound(values: Any) -> str:
    from ddlc.backends.writer import SqlWriter

    return SqlWriter().kw("FOR", "VALUES", "IN").paren_list(values, SqlWriter.raw).text()


_BOUND_TEXTS = st.lists(st.one_of(
    st.sampled_from(["", ",", ")", ")x", "(", "f(", " 5", "5 ", "'a ( b'", "'a , b'", "MAXVALUE", "MINVALUE", "NULL",
                     "-1", "'2024-01-01'", "E'\\\\x'", "( )", "a )", ", x"]),
    st.text(alphabet="(), 'ab1", max_size=5)), max_size=4)


@settings(max_examples=3000, deadline=None)
@given(_BOUND_TEXTS, _BOUND_TEXTS)
def test_bounds_written_as_the_writer_wrote_them(lower: list[str], upper: list[str]) -> None:
    from ddlc.backends.postgres import partitions

    assert partitions.range_bound(None, iter(lower), upper) == _old_range_bound(lower, upper)
    assert partitions.list_bound(None, iter(lower)) == _old_list_bound(lower)


# -- one bound value (ALTER TABLE ... ADD / SPLIT PARTITION, the slot check) -------------------------------

def _old_bound_value(text: str) -> Any:
    parser = partition._Parser(text, ("bounds", 0))
    value = parser.value(tuples=True)
    if parser.peek().kind != "eof":
        parser.fail("expected end of value")
    return value


@settings(max_examples=4000, deadline=None)
@given(st.one_of(_VALUE, _CLEAN_VALUE, _CLEAN_VALUE), _BLANK, _BLANK,
       st.sampled_from(["", "", "", " x", ",", ")", " -- c", "'", "::int", "e5"]))
def test_one_bound_value_reads_the_same(value: str, before: str, after: str, tail: str) -> None:
    text = before + value + after + tail
    new = _outcome(lambda t: partition.parse_bound_value(t, path=("bounds", 0)), text)
    old = _outcome(_old_bound_value, text)
    assert new[0] == old[0], text
    if new[0] == "ok":
        deep(new[1], old[1], text)
    else:
        assert new[1] == old[1], text
