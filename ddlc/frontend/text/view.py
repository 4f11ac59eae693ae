"""CREATE VIEW read from GaussDB text (reference §5.7): the query as the server prints it, with its ``;``."""

from __future__ import annotations

from ._match import Custom, Matcher, Results, Shape, Words


def _query(m: Matcher, i: int) -> Results:
    """The rest of the statement, with the ``;`` the view query ends with (the caller cut it off)."""
    t = m.tok(i)
    if t is None:
        return {}
    end = len(m.text.rstrip())
    return {len(m.toks): m.text[t.start:end]}


CREATE_VIEW = Shape(
    "CREATE %{or_replace}s %{persistence}s VIEW %{identity}D AS %{query}s",
    {"or_replace": Words(("OR REPLACE", "")), "persistence": Words(("TEMPORARY", "")), "query": Custom(_query)},
)

SHAPES = {r"CREATE (?:OR REPLACE )?(?:TEMPORARY )?VIEW ": CREATE_VIEW}
