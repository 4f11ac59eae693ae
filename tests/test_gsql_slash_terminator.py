"""A statement the GaussDB target writes as it came is written without its own ``;``: a ``/`` alone before
that ``;`` (``/;``, ``x\\r/;``) becomes a line holding only ``/``, where gsql ends a block and sends what came
before. ``statement_problem`` refuses it as it refuses any ``/`` line (found by the hypothesis test of
``tests/test_opaque_one_statement.py``: ``{"fmt": "%{x}s", "x": "/;"}`` was written as ``/``)."""

from __future__ import annotations

import pytest

import ddlc
from ddlc.frontend.sql.fragment import statement_problem


@pytest.mark.parametrize("text", ["/;", "/ ;", "x\n/;", "CREATE FOO \r/;", "x\n/ \t;  "])
def test_a_slash_before_the_statements_own_semicolon_is_a_slash_line(text):
    assert "a line holding only /" in statement_problem(text)


@pytest.mark.parametrize("text", ["x /;", "SELECT 1 / 2;", "x\n/2;"])
def test_a_slash_inside_a_line_is_not(text):
    assert statement_problem(text) is None


def test_a_block_may_end_with_its_slash():
    assert statement_problem("BEGIN NULL; END;\n/;", block=True) is None


@pytest.mark.parametrize("doc", [{"fmt": "%{x}s", "x": "/;"}, {"fmt": "CREATE FOO %{x}s", "x": "\r/;"},
                                 {"TDDL": "CREATE FOO\n/;"}])
@pytest.mark.parametrize("mode", ["raw", "canonical"])
def test_the_gaussdb_target_refuses_it(doc, mode):
    with pytest.raises(ddlc.DdlcError) as e:
        ddlc.translate(doc, target="gaussdb", mode=mode)
    assert e.value.code == "DDLC-E011" and "a line holding only /" in str(e.value)
