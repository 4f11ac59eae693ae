"""A sequence option's value never takes the next option's keyword: ``CACHE 20 CYCLE`` is CACHE 20 then
CYCLE (it was read as the value '20 CYCLE', found by the history round 2 work: E007 on the text form)."""

from __future__ import annotations

import pytest

import ddlc

TEXTS = [
    "CREATE SEQUENCE s.q CACHE 20 CYCLE;",
    "CREATE SEQUENCE s.q START WITH 1 INCREMENT BY 1 CACHE 20 CYCLE;",
    "ALTER SEQUENCE s.q CACHE 5 CYCLE;",
    "ALTER SEQUENCE s.q RESTART 5 NO CYCLE;",
    "CREATE SEQUENCE s.q INCREMENT BY -1 MINVALUE -100 MAXVALUE -1 START WITH -1 CACHE 5 NO CYCLE;",
    "CREATE SEQUENCE s.q CACHE 1 CYCLE INCREMENT BY 1 MINVALUE 1 MAXVALUE 9 START WITH 1;",
]


@pytest.mark.parametrize("text", TEXTS)
def test_every_option_is_its_own(text):
    r = ddlc.translate({"TDDL": text}, target="postgres")
    assert r.error is None and r.sql == text + "\n" and not r.diagnostics, r.diagnostics
    tree = ddlc.translate({"TDDL": text}, target="gaussdb")
    assert tree.error is None and tree.sql == text + "\n"


def test_the_cache_value_is_the_number():
    from ddlc.frontend.text import read_tddl

    stmt = read_tddl("CREATE LARGE SEQUENCE s.q CACHE 20 CYCLE;")[0]
    cache, cycle = stmt.options
    assert (cache.clause.value, cache.value) == ("cache", "20") and (cycle.clause.value, cycle.no) == ("cycle", False)
