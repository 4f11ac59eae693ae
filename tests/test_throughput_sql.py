"""Issue 26, round 8: the SQL layer keeps a fragment's parse past its readers only when the text comes back.

``pgparse.Recent`` (the parse caches) against a plain function call: the same answers for any sequence of
texts, shared while the text is in the window or kept; the nodes a kept parse hands its readers registered
with ``ir.sqltree`` while it is kept (so what is worked out per tree is kept as long), and a stream of new
fragments leaving no pglast tree behind beyond the windows.
"""

from __future__ import annotations

import collections
import gc
import json

from hypothesis import given, settings
from hypothesis import strategies as st

import ddlc
from ddlc.frontend.sql import pgparse
from ddlc.frontend.sql.expr import parse_expr, parse_query
from ddlc.frontend.sql.pgparse import Recent
from ddlc.ir import sqltree


class _Counted:
    def __init__(self) -> None:
        self.calls: list[str] = []

    def __call__(self, text: str) -> tuple[str, int]:
        self.calls.append(text)
        return (text, len(self.calls))  # a new object per call: tells a shared result from a new one


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([f"t{i}" for i in range(12)]), max_size=80),
       st.integers(1, 4), st.integers(1, 4), st.integers(1, 6))
def test_recent_gives_the_function_answers_and_keeps_what_comes_back(texts, window, kept, seen) -> None:
    fn = _Counted()
    cache = Recent(fn, window, kept, seen)
    held: dict[str, object] = {}  # what the cache answered last per text
    for t in texts:
        before = len(fn.calls)
        out = cache(t)
        assert out[0] == t  # the function's answer for that text
        if len(fn.calls) == before:  # a hit: the very object answered before
            assert out is held[t]
        held[t] = out
        assert len(cache._recent) <= window and len(cache._kept) <= kept and len(cache._seen) <= seen
        assert not (cache._recent.keys() & cache._kept.keys())
    cache.cache_clear()
    assert not cache._recent and not cache._kept and not cache._seen


def test_a_text_met_once_is_not_kept_past_the_window() -> None:
    fn = _Counted()
    cache = Recent(fn, 2, 8, 100)
    first = cache("a")
    assert cache("a") is first  # its readers, one after the other: parsed once
    cache("b"), cache("c")  # "a" leaves the window
    assert "a" not in cache._recent and "a" not in cache._kept
    again = cache("a")  # back: parsed once more, then kept
    assert again is not first and cache._kept["a"] is again
    cache("d"), cache("e"), cache("f")
    assert cache("a") is again and fn.calls.count("a") == 2


def test_a_kept_parse_registers_the_nodes_its_readers_are_handed() -> None:
    for cache in (pgparse.parse_statements, parse_expr, parse_query):
        cache.cache_clear()
    text = "lasting_probe_col + 1"
    first = parse_expr(text)
    assert first is not None and not sqltree.lasting(first)
    for i in range(80):  # the windows (64) move on
        parse_expr(f"filler_{i}")
    node = parse_expr(text)  # back: parsed again and kept
    assert node is not first and sqltree.lasting(node)
    (raw,) = pgparse.parse_statements("SELECT " + text)
    assert sqltree.lasting(raw.stmt) and raw.stmt.targetList[0].val is node
    assert sqltree.index(node) is sqltree._INDEX_KEPT[id(node)][1]  # its index kept with it
    query = "SELECT a FROM lasting_probe_t"
    parse_query(query)
    for i in range(80):
        parse_query(f"SELECT filler2_{i}")
    assert sqltree.lasting(parse_query(query))
    pgparse.parse_statements.cache_clear()
    assert not sqltree.lasting(node)


def test_the_same_tree_while_the_text_is_shared() -> None:
    for cache in (pgparse.parse_statements, parse_expr, parse_query):
        cache.cache_clear()
    text = "SELECT x, y FROM shared_probe"
    assert parse_query(text) is parse_query(text + ";") is parse_query("  " + text + " ;")
    assert parse_expr("a + 1") is parse_expr(" a + 1 ")


def _views(n: int, tag: str) -> list[bytes]:
    return [json.dumps({
        "fmt": "CREATE %{or_replace}s %{persistence}s VIEW %{identity}D AS %{query}s",
        "query": f"SELECT t{tag}{i}.a{i}, nvl(t{tag}{i}.b, 'x'::text) AS b FROM s{tag}.t{tag}{i} WHERE t{tag}{i}.a{i} > {i};",
        "identity": {"objname": f"v{tag}{i}", "schemaname": "public"}, "or_replace": "", "persistence": "",
    }).encode() for i in range(n)]


def _live_selects() -> int:
    from pglast import ast

    gc.collect()
    return sum(1 for o in gc.get_objects() if type(o) is ast.SelectStmt)


def test_a_stream_of_new_fragments_leaves_no_tree_behind() -> None:
    """Every view new: the trees held afterwards are bounded by the windows (the SQL layer's and the
    emitters' own), not by the stream's length."""
    for target in ("postgres", "gaussdb"):
        collections.deque(ddlc.translate_many(_views(50, "w" + target), target=target), maxlen=0)
        before = _live_selects()
        collections.deque(ddlc.translate_many(_views(3000, "n" + target), target=target), maxlen=0)
        after = _live_selects()
        assert after - before < 1500, (target, before, after)


def test_a_repeated_stream_is_parsed_twice_at_most() -> None:
    import pglast

    docs = _views(300, "r")
    real, seen = pglast.parse_sql, collections.Counter()

    def counted(q: str):
        seen[q] += 1
        return real(q)

    pglast.parse_sql = counted
    try:
        for _ in range(4):
            out = [r.statements for r in ddlc.translate_many(docs, target="postgres")]
    finally:
        pglast.parse_sql = real
    assert seen and max(seen.values()) <= 2
    assert out == [r.statements for r in ddlc.translate_many(docs, target="postgres")]


def test_recent_shared_between_threads() -> None:
    import threading

    cache = Recent(lambda t: (t,), 4, 8, 16)
    texts = [f"t{i % 37}" for i in range(4000)]
    wrong: list[str] = []

    def run(shift: int) -> None:
        for t in texts[shift:] + texts[:shift]:
            if cache(t)[0] != t:
                wrong.append(t)

    threads = [threading.Thread(target=run, args=(k * 7,)) for k in range(6)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not wrong
