"""Throughput of the hot path (JSON -> text) and CLI start-up. Not part of the timed tests.

    .venv/bin/python bench/bench_translate.py [--n 20000]

Prints documents/second for: orjson parse only, expand (raw), expand + canonicalize, the whole
library call (translate_many over JSON lines), and the wall time of `ddlc --version`.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import ddlc  # noqa: E402
from ddlc.jddl.expand import expand  # noqa: E402
from ddlc.quoting import canonicalize  # noqa: E402


def corpus() -> list[bytes]:
    docs = []
    for p in sorted((ROOT / "fixtures" / "cases").rglob("input.json")):
        if (p.parent / "expected.error.json").exists():
            continue
        docs.append(orjson.dumps(orjson.loads(p.read_bytes())))
    return docs


def rate(label: str, n: int, fn) -> None:
    t0 = time.perf_counter()
    fn()
    dt = time.perf_counter() - t0
    print(f"{label:<42} {n / dt:>12,.0f} docs/s  ({dt * 1e6 / n:7.1f} µs/doc)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=20000)
    args = ap.parse_args()
    docs = corpus()
    reps = max(1, args.n // len(docs))
    stream = b"\n".join(docs * reps)
    n = len(docs) * reps
    trees = [orjson.loads(d) for d in docs] * reps
    trees = [t for t in (t.get("JDDL", t) for t in trees) if "fmt" in t]
    print(f"corpus: {len(docs)} reference documents x {reps} = {n} documents, {len(stream) / 1e6:.1f} MB")
    rate("orjson.loads only", n, lambda: [orjson.loads(d) for d in docs * reps])
    rate("expand (raw)", n, lambda: [expand(t) for t in trees])
    rate("expand + canonicalize", n, lambda: [canonicalize(expand(t)) for t in trees])
    rate("translate_many(JSON lines) -> gaussdb", n, lambda: sum(1 for _ in ddlc.translate_many(stream)))
    rate("translate_many(JSON lines) -> postgres", n,
         lambda: sum(1 for _ in ddlc.translate_many(stream, target="postgres")))
    exe = Path(sys.executable).with_name("ddlc")
    best = min(_time([str(exe), "--version"]) for _ in range(5))
    print(f"{'ddlc --version (best of 5)':<42} {best * 1000:>9.1f} ms")


def _time(cmd: list[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True)
    return time.perf_counter() - t0


if __name__ == "__main__":
    main()
