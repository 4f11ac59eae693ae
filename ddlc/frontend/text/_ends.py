"""Where a fragment may end, worked out from the whole statement's tokens once (``_match``): a chart
parse tries a fragment from every token, and walking from each to the end of the text costs the square
of its length. Each function is :meth:`_match.Frag.read` restricted to the ends that can matter, proven
equal to it on random texts (``tests/test_bounded_work.py``)."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Any

from ._lazy import Span


def reach(m: Any, i: int, want: int, empty: bool) -> dict[int, Any]:
    """:meth:`Frag.read` from ``i`` restricted to the end ``want``: the fragment ``toks[i:want]``
    never closes below its start and ends at its start's depth (depths counted once per end)."""
    if i >= want:
        return {i: ""} if empty and i == want else {}
    depths = m._depths.get(want)
    if depths is None:
        a = [0] * (want + 1)
        d = 0
        for k in range(want):
            t = m.toks[k]
            if t.kind == "punct" and t.text in "([":
                d += 1
            elif t.kind == "punct" and t.text in ")]":
                d -= 1
            a[k + 1] = d
        low = a[:]
        for k in range(want - 1, -1, -1):
            low[k] = min(low[k], low[k + 1])
        depths = m._depths[want] = (a, low)
    a, low = depths
    if a[want] == a[i] and low[i + 1] >= a[i]:
        return {want: Span(m.text, m.toks[i].start, m.toks[want - 1].end)}
    return {}


def frag_ends(m: Any, f: Any, i: int, before: tuple[str, str]) -> dict[int, Any]:
    """:meth:`Frag.read` from ``i`` restricted to the ends the next literal starts at (its first token
    means ``before``): found by bisection among those tokens at the fragment's depth, up to where the
    fragment must stop (a close below its start, a stop token at its depth, a token that is no word,
    its length), instead of by a walk to the end of the text from every start."""
    out: Results = {}
    if f.empty and m.norm(i) == before:
        out[i] = ""
    n = len(m.toks)
    if i >= n:
        return out
    ix = m._fragix
    if ix is None:
        a = [0] * (n + 1)
        d = 0
        for k, t in enumerate(m.toks):
            if t.kind == "punct" and t.text in "([":
                d += 1
            elif t.kind == "punct" and t.text in ")]":
                d -= 1
            a[k + 1] = d
        nse, stack = [n + 1] * (n + 1), []  # the first k > i with a[k] < a[i]
        for k in range(n, -1, -1):
            while stack and a[stack[-1]] >= a[k]:
                stack.pop()
            nse[k] = stack[-1] if stack else n + 1
            stack.append(k)
        ix = m._fragix = (a, nse, {})
    a, nse, cache = ix
    limit = min(nse[i] - 1, n)
    if f.stop:
        key = ("stop", f.stop)
        stops = cache.get(key)
        if stops is None:
            stops = cache[key] = {}
            for k, t in enumerate(m.toks):
                if t.text in f.stop and not (t.kind == "punct" and (t.text in "([" or t.text in ")]")):
                    stops.setdefault(a[k], []).append(k)
        at = stops.get(a[i], ())
        k = bisect_left(at, i)
        if k < len(at):
            limit = min(limit, at[k])
    if f.words:
        others = cache.get("words")
        if others is None:
            others = cache["words"] = [k for k, t in enumerate(m.toks) if t.kind not in ("word", "qident")]
        k = bisect_left(others, i)
        if k < len(others):
            limit = min(limit, others[k])
    if f.max_tokens:
        limit = min(limit, i + f.max_tokens)
    key2 = ("before", before)
    spots = cache.get(key2)
    if spots is None:
        spots = cache[key2] = {}
        for k in range(n):
            if m.norm(k) == before:
                spots.setdefault(a[k], []).append(k)
    at = spots.get(a[i], ())
    for e in at[bisect_right(at, i):bisect_right(at, limit)]:
        out[e] = Span(m.text, m.toks[i].start, m.toks[e - 1].end)
    return out


__all__ = ["reach", "frag_ends"]
