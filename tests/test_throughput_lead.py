"""Issue 26, round 5: the lead's small levers against the former code, kept beside them.

- ``DropObjectType.of``: a dict of the known words instead of a loop over the enum;
- ``filters.object_of``: the fields a statement class has, found once per class, instead of four
  ``getattr`` with a default on every statement.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, strategies as st

from ddlc.filters import object_of
from ddlc.ir.drop import DropObjectType, SchemaName
from ddlc.ir.names import QualifiedName
from ddlc.filters import relations_of

from test_throughput_passes import STATEMENTS


def _former_of(text: str) -> DropObjectType:
    word = " ".join(text.split()).lower()
    for m in DropObjectType:
        if m is not DropObjectType.OTHER and m.value == word:
            return m
    return DropObjectType.OTHER


def _former_object_of(stmt: Any) -> str | None:
    for f in ("identity", "name", "table", "relation"):
        v = getattr(stmt, f, None)
        if isinstance(v, QualifiedName):
            return f"{v.schema}.{v.name}" if v.schema else v.name
        if isinstance(v, SchemaName):
            return v.name
        if isinstance(v, str) and v and f in ("identity", "name"):
            return v
    rels = relations_of(stmt)
    if rels:
        return f"{rels[0].schema}.{rels[0].name}" if rels[0].schema else rels[0].name
    return None


_WORDS = [m.value for m in DropObjectType] + ["TABLE", " large\tSEQUENCE ", "Other", "materialized view", ""]


def test_drop_words_as_before() -> None:
    for w in _WORDS:
        assert DropObjectType.of(w) is _former_of(w), w


@given(st.text(alphabet=st.sampled_from(list("tablesquncviwfrg ATBLE\t\n")), max_size=20))
def test_drop_words_hypothesis(text: str) -> None:
    assert DropObjectType.of(text) is _former_of(text)


def test_object_of_as_before_on_every_fixture_statement() -> None:
    assert len(STATEMENTS) > 100
    for stmt in STATEMENTS:
        assert object_of(stmt) == _former_object_of(stmt), type(stmt).__name__


_SELECT_INTOS = [
    "SELECT a, b INTO public.t_into FROM public.t_src WHERE a > 1;",
    "SELECT a, b INTO TEMP t_into2 FROM public.t_src ORDER BY a LIMIT 2",
    'SELECT x."é客", count(*) AS "n;" INTO UNLOGGED s."T 1" FROM s.x GROUP BY 1 HAVING count(*) > 0',
    "SELECT DISTINCT a INTO public.y FROM public.q WHERE b IN (SELECT b FROM public.r)",
]


def test_select_into_query_printed_from_a_copy_as_before() -> None:
    """The GaussDB CTAS emitter prints a SELECT INTO's query without its INTO clause from a shallow copy
    (``sqltree.copied_with``) instead of a deep copy of the parse; the parse itself is left as it was."""
    import copy

    from ddlc.backends.gaussdb import misc
    from ddlc.backends.writer import pg_deparse
    from ddlc.frontend.text import read_tddl
    from ddlc.ir.misc import CreateTableAs

    for text in _SELECT_INTOS:
        stmt, _ = read_tddl(text)
        assert isinstance(stmt, CreateTableAs) and stmt.select_into, text
        tree = stmt.query.tree
        former = copy.deepcopy(tree)
        former.intoClause = None
        assert misc._query(stmt, None) == pg_deparse(former)  # type: ignore[arg-type]
        assert tree.intoClause is not None
    import ddlc

    for text in _SELECT_INTOS:
        t = ddlc.translate({"TDDL": text}, target="gaussdb")
        assert t.error is None and len(t.statements) == 1 and " INTO " not in t.statements[0], t.statements


@given(st.text(alphabet=st.sampled_from(list("jsonisultracxe_ ()'.,ABJ")), max_size=40))
def test_requote_word_check_as_before(text: str) -> None:
    """``pgwords.requote``'s "nothing to do" check: one pattern instead of a loop over the words."""
    from ddlc.frontend.sql.pgwords import _any_word, words

    assert (_any_word().search(text) is not None) == any(w in text for w in words())
    for w in words():
        assert _any_word().search(f"x{w}y") is not None


_KEYWORDS = ["CHECK", "check", "Primary", "UNIQUE", "foreign"]
_TAILS = ["", " ", "(", " ((a > 0))", " KEY (id)", "_x", "$", "x", "é", "\xa0(1)", " (a, b)", "1", ".x", "::int",
          "(a) REFERENCES s.t(b)", " KEY", "/* c */ (x)", "--\n(1)", '"q"', "'s'", "[1]", " IS NULL", "()"]


@given(st.sampled_from(_KEYWORDS), st.lists(st.sampled_from(_TAILS), max_size=4))
def test_a_constraint_start_is_never_an_expression(word: str, tails: list[str]) -> None:
    """``refs.CONSTRAINT_START``: the texts it takes are ones ``SELECT <text>`` never parses (so the attempt is
    left out), and the texts it leaves are tried as before."""
    from ddlc.frontend.sql.pgparse import parse_statements
    from ddlc.frontend.sql.refs import CONSTRAINT_START

    text = word + "".join(tails)
    if CONSTRAINT_START.match(text) is not None:
        assert parse_statements("SELECT " + text) is None, text


def test_constraint_start_leaves_identifiers() -> None:
    from ddlc.frontend.sql.refs import CONSTRAINT_START

    for text in ("check_x > 0", "checké(1)", "CHECK$1", "uniquely", "CHEC\u212a (a)", "primary_key", "foreign1",
                 '"check"(a)', " CHECK (a)"):
        assert CONSTRAINT_START.match(text) is None, text
    for text in ("CHECK (a > 0)", "check((a))", "PRIMARY KEY (id)", "UNIQUE(a)", "FOREIGN KEY (a) REFERENCES t",
                 "CHECK\xa0(a)"):
        assert (CONSTRAINT_START.match(text) is not None) == (not text.startswith("CHECK\xa0")), text
