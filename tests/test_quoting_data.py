"""Data generated from the libraries that own it stays equal to them."""

from pglast import keywords

from ddlc.backends.pg_keywords import FORCED


def test_postgres_forced_keywords_are_pglasts():
    assert FORCED == keywords.RESERVED_KEYWORDS | keywords.COL_NAME_KEYWORDS | keywords.TYPE_FUNC_NAME_KEYWORDS
