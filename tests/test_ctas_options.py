"""A recovered CREATE TABLE AS's ``WITH`` option holds its value and its kind (``ddlc.ir.misc.WithOption``), never
SQL text: each target writes it through its own quoting, so a string value of any text reaches the target as that
value (it was once quoted twice on PostgreSQL, ``'''true'''``).

Both outputs are read back with pglast (the GaussDB output of this statement is PostgreSQL SQL: its ``%L``
quoting writes ``'...'`` or a dollar-quoted string).
"""

from __future__ import annotations

from typing import Any

import pglast
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import ddlc
from ddlc.frontend.recover import recover_tddl
from ddlc.ir.misc import CreateTableAs, WithOption
from ddlc.ir.table import OptionValueKind

_PIECES = ["'", "''", "\\", "\\\\", "$$", "$", "$_XYZZYX_$", "$a$", "--", "/*", "*/", ";", " ", "\n", "\t", "é", "客",
           "😀", "E'", '"', "(", ")", ",", "="]
VALUES = st.lists(st.one_of(st.sampled_from(_PIECES),
                            st.characters(exclude_categories=("Cs",), exclude_characters="\x00")),
                  max_size=12).map("".join)


def _tddl(value: str) -> str:
    return "CREATE TABLE t WITH (fillfactor = '" + value.replace("'", "''") + "') AS SELECT 1 AS a;"


def _read_back(sql: str) -> str:
    """The value of the one option of the one CREATE TABLE AS in ``sql``, as the server reads it (a string's
    contents; a number or a word as written)."""
    (raw,) = pglast.parse_sql(sql)
    (option,) = raw.stmt.into.options
    arg = option.arg
    for attr in ("sval", "ival", "fval"):
        if getattr(arg, attr, None) is not None:
            return str(getattr(arg, attr))
    raise AssertionError(f"option value not a constant: {arg!r} in {sql!r}")


def _translated(value: str, target: str) -> str:
    return ddlc.translate({"TDDL": _tddl(value)}, target=target).sql


# values that once went wrong somewhere (a quote, a backslash, dollar quoting, a word or number written bare)
_EXAMPLES = ("", "true", "'true'", "70", "007", "row", "it's", "'", "C:\\x\\", "$$", "$_XYZZYX_$", "a$", "_$",
             "客 é 😀")


def _any_value(test: Any) -> Any:
    """300 generated values and every one of ``_EXAMPLES``."""
    for value in _EXAMPLES:
        test = example(value)(test)
    return settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))(given(VALUES)(test))


@_any_value
def test_recovered_option_holds_the_value(value: str) -> None:
    stmt, _ = recover_tddl(_tddl(value))
    assert isinstance(stmt, CreateTableAs)
    assert stmt.options == (WithOption("fillfactor", value, OptionValueKind.LITERAL),)


@_any_value
def test_string_option_round_trips_on_postgres(value: str) -> None:
    assert _read_back(_translated(value, "postgres")) == value


@_any_value
def test_string_option_round_trips_on_gaussdb(value: str) -> None:
    assert _read_back(_translated(value, "gaussdb")) == value


@pytest.mark.parametrize(("value", "want"), [("true", "true"), ("70", "70"), ("1.5", "1.5")])
def test_plain_string_values_written_bare_on_postgres(value: str, want: str) -> None:
    sql = _translated(value, "postgres")
    assert f"fillfactor = {want})" in sql, sql
    assert _read_back(sql) == value


@pytest.mark.parametrize("value", ["row", "Abc", "int", "007", "+5", "-0", "1.50", "text", "true", "-.5"])
def test_words_and_numbers_read_back_the_same(value: str) -> None:  # (pg_option_string)
    assert _read_back(_translated(value, "postgres")) == value


@pytest.mark.parametrize(("option", "kind", "value"), [
    ("fillfactor = 70", OptionValueKind.BARE, "70"),
    ("fillfactor = 1.5", OptionValueKind.BARE, "1.5"),
    ("fillfactor = -3", OptionValueKind.BARE, "-3"),
    ("autovacuum_enabled = true", OptionValueKind.LITERAL, "true"),  # a reserved word is a string to the grammar
    ("vacuum_index_cleanup = auto", OptionValueKind.BARE, "auto"),  # a plain word read as a type name: as written
    ('fillfactor = "Foo"', OptionValueKind.LITERAL, "Foo"),  # any other type name: the string the server makes of it
    ("fillfactor = varchar(3)", OptionValueKind.LITERAL, "pg_catalog.varchar"),
    ("fillfactor", OptionValueKind.NONE, None),
    ("fillfactor = =", OptionValueKind.LITERAL, "="),  # an operator: the string of its name to the server
])
def test_recovered_option_kinds(option: str, kind: OptionValueKind, value: str | None) -> None:
    for text in (f"CREATE TABLE t WITH ({option}) AS SELECT 1 AS a;",
                 f"CREATE MATERIALIZED VIEW v WITH ({option}) AS SELECT 1 AS a;"):
        stmt, _ = recover_tddl(text)
        (o,) = stmt.options
        assert (o.value_kind, o.value) == (kind, value), text
