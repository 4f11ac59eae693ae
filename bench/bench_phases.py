"""Where translation time goes, phase by phase: each named function wrapped with a CPU-time counter
(``time.thread_time``), the fastest of ``--repeat`` passes over a corpus of bench/corpus.py.

    .venv/bin/python bench/bench_phases.py                         # postgres, unique, the default phases
    .venv/bin/python bench/bench_phases.py --target gaussdb --corpus varied
    .venv/bin/python bench/bench_phases.py ddlc.compiler:normalize pglast:parse_sql   # any MODULE:ATTR[.ATTR]

A phase is counted inclusive of what it calls (phases nest: ``front`` holds ``build`` and ``expand``),
once per outer call (a recursive function is counted at its outermost call only). The wrappers cost
about 1 µs per call; the shares are what to read, not the totals (bench/bench_ratio.py gives those).
"""

from __future__ import annotations

import argparse
import collections
import importlib
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus as corpora  # noqa: E402
import ddlc  # noqa: E402

DEFAULT = (
    "ddlc.compiler:front", "ddlc.compiler:build_source", "ddlc.compiler:build", "ddlc.frontend.build:_lazy.check_tree",
    "ddlc.frontend.build:_lazy.check_both", "ddlc.frontend.build:_lazy.expand_both",
    "ddlc.frontend.build:_build", "ddlc.frontend.text:read_tddl", "pglast:parse_sql", "ddlc.compiler:compile_statement",
    "ddlc.compiler:normalize", "ddlc.history.catalog:Catalog.record",
)
EMIT = {"postgres": "ddlc.backends.postgres:PostgresBackend.emit", "gaussdb": "ddlc.backends.gaussdb:GaussDBBackend.emit",
        "spark": "ddlc.backends.spark:SparkBackend.emit"}


def wrap(spec: str, times: collections.Counter, calls: collections.Counter) -> None:
    module, attr = spec.split(":")
    owner: Any = importlib.import_module(module)
    parts = attr.split(".")
    for p in parts[:-1]:
        owner = getattr(owner, p)
    fn = getattr(owner, parts[-1])
    active = [0]

    def counted(*a: Any, **k: Any) -> Any:
        if active[0]:
            return fn(*a, **k)
        active[0] = 1
        t0 = time.thread_time()
        try:
            return fn(*a, **k)
        finally:
            times[spec] += time.thread_time() - t0
            calls[spec] += 1
            active[0] = 0

    setattr(owner, parts[-1], counted)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("phases", nargs="*", help="MODULE:ATTR[.ATTR] to time (default: the main phases)")
    ap.add_argument("--target", default="postgres", choices=sorted(EMIT))
    ap.add_argument("--corpus", default="unique", choices=("fixtures", "varied", "unique"))
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    docs = corpora.fixtures_corpus() if args.corpus == "fixtures" else corpora.varied_corpus(24)
    renamer = corpora.Renamer() if args.corpus == "unique" else None

    def lines() -> list[bytes]:
        return [renamer.variant(x) for _, x in docs] if renamer else [x for _, x in docs]

    collections.deque(ddlc.translate_many(lines(), target=args.target), maxlen=0)  # imports, lazy tables
    times: collections.Counter = collections.Counter()
    calls: collections.Counter = collections.Counter()
    for spec in args.phases or (*DEFAULT, EMIT[args.target]):
        wrap(spec, times, calls)
    best: tuple[float, dict, dict] | None = None
    for _ in range(args.repeat):
        batch = lines()
        times.clear()
        calls.clear()
        t0 = time.thread_time()
        collections.deque(ddlc.translate_many(batch, target=args.target), maxlen=0)
        total = time.thread_time() - t0
        if best is None or total < best[0]:
            best = (total, dict(times), dict(calls))
    assert best is not None
    total, t, c = best
    n = len(docs)
    print(f"{args.corpus} corpus, {n} documents -> {args.target}: {total / n * 1e6:.0f} µs per document "
          f"(fastest of {args.repeat}, cpu)")
    for spec, v in sorted(t.items(), key=lambda kv: -kv[1]):
        print(f"  {spec:<48} {v / total * 100:5.1f} %  {v / n * 1e6:7.1f} µs/doc  {c[spec]:>6} calls")


if __name__ == "__main__":
    main()
