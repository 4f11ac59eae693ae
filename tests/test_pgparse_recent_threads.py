"""``pgparse.Recent`` under threads: a result is registered as kept (``keep``) exactly while the cache keeps it.
Before, two threads parsing the same repeated text at once could both keep their parse; the second replaced
the first in the cache, and the first stayed registered for ever (``sqltree``'s registry of kept trees)."""

from __future__ import annotations

import random
import sys
import threading

from ddlc.frontend.sql.pgparse import Recent


def test_what_is_registered_is_what_is_kept():
    registered: dict[int, object] = {}
    lock = threading.Lock()

    def keep(out):
        with lock:
            assert id(out) not in registered
            registered[id(out)] = out

    def drop(out):
        with lock:
            assert registered.pop(id(out)) is out

    cache = Recent(lambda text: [text], recent=2, kept=8, seen=64, keep=keep, drop=drop)
    texts = [f"t{i}" for i in range(24)]
    start = threading.Barrier(8)

    def work(seed: int) -> None:
        rnd = random.Random(seed)
        start.wait()
        for _ in range(4000):
            t = rnd.choice(texts)
            assert cache(t) == [t]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # (threads switch often: the races happen)
    try:
        for th in threads:
            th.start()
        for th in threads:
            th.join()
    finally:
        sys.setswitchinterval(before)
    assert {id(v) for v in cache._kept.values()} == set(registered)
    assert len(cache._kept) <= 8
    cache.cache_clear()
    assert registered == {}
