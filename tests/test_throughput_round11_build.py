"""Round 11 of issue 26, the build: what changed there gives what it gave before.

* :func:`ddlc.frontend.sql.pgwords.requote` asks whether one of the openGauss words is in a text by ``in`` tests of
  the words that hold no other one (``_has_word``), not by the pattern of all of them (``_any_word``): the same
  answer for every string of the fixtures and for generated texts holding the words, cut, glued and cased.
* :func:`ddlc.frontend.sql.expr.query_tree` looks for those words in the text the parse read (without its blanks
  and one final ``;``), not in the text again: the same ``verbatim`` as ``_verbatim(text)``.
* :func:`ddlc.frontend.build.view._query_references` without an import statement per view: the same relations as
  the former code (kept here) for every view query of the fixtures and the benchmark corpus.
"""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ddlc.frontend.sql import expr, pgwords
from ddlc.frontend.build import view
from fixture_strings import json_strings

TEXTS = sorted(json_strings(2000))
WORDS = sorted(pgwords.words())


def _former_has_word(text: str) -> bool:
    return pgwords._any_word().search(text) is not None


def test_needles_are_the_words_holding_no_other() -> None:
    needles = pgwords._needles()
    assert set(needles) <= set(WORDS)
    for w in WORDS:  # every word holds a needle: a text holding a word holds a needle
        assert any(n in w for n in needles)


def test_has_word_fixture_strings() -> None:
    for t in TEXTS:
        assert pgwords._has_word(t) == _former_has_word(t), t


_PIECES = st.sampled_from([*WORDS, *(w[:-1] for w in WORDS), *(w.upper() for w in WORDS), "xml", "json_", "_",
                           " ", ";", "\n", "'", '"', "--", "/*", "*/", "$$", ".", "(", ")", "a", "SELECT ", "é"])
_TEXT = st.lists(st.one_of(_PIECES, st.text(max_size=4)), max_size=12).map("".join)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_TEXT)
def test_has_word_generated(text: str) -> None:
    assert pgwords._has_word(text) == _former_has_word(text)
    pgwords.requote.cache_clear()
    got = pgwords.requote(text)
    assert got == pgwords.requote.__wrapped__(text)


def _former_verbatim(text: str) -> bool:
    return expr._verbatim(text)


def _new_verbatim(text: str) -> bool:
    return expr.query_tree(text)[1]


def test_query_verbatim_fixture_strings() -> None:
    for t in TEXTS:
        assert _new_verbatim(t) == _former_verbatim(t), t
        assert expr.query_tree(t)[0] is expr.parse_query(t)


_QUERY = st.tuples(st.sampled_from(["", " ", "\n\t "]), _TEXT,
                   st.sampled_from(["", ";", " ;", ";\n", " ; ", ";;", "-- c;", "'x;"])).map("".join)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_QUERY)
def test_query_verbatim_generated(text: str) -> None:
    assert _new_verbatim(text) == _former_verbatim(text)


def _former_query_references(tree, origin):  # the former code, as it was
    from pglast import ast

    from ddlc.ir.names import QualifiedName
    from ddlc.ir.sqltree import index

    idx = index(tree)
    ctes = {node.ctename for node in idx.of(ast.CommonTableExpr)}
    found = [(node.location if node.location is not None else -1, node.catalogname, node.schemaname, node.relname)
             for node in idx.of(ast.RangeVar)]
    out = []
    seen = set()
    for _, catalog, schema, rel in sorted(found, key=lambda f: f[0]):
        if schema is None and rel in ctes:
            continue
        key = (catalog, schema, rel)
        if key in seen:
            continue
        seen.add(key)
        out.append(QualifiedName(rel, schema, origin=origin))
    return tuple(out)


def _queries() -> list[str]:
    import orjson

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
    import corpus

    out = [t for t in TEXTS if t.lstrip()[:6].upper() in ("SELECT", "WITH (", "WITH R") or t.lstrip()[:4].upper() == "WITH"]
    for _, line in corpus.varied_corpus():
        tree = orjson.loads(line)
        if isinstance(tree, dict) and isinstance(tree.get("query"), str):
            out.append(tree["query"])
    return out


def test_query_references_as_before() -> None:
    seen = 0
    for q in _queries():
        tree = expr.parse_query(q)
        if tree is None:
            continue
        seen += 1
        new = view._query_references(tree, ("query",))
        old = _former_query_references(tree, ("query",))
        assert new == old and [r.origin for r in new] == [r.origin for r in old], q
    assert seen >= 20
