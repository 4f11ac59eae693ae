"""Decoding logs, one run: the CLI, the Spark pipeline on local[1] and local[2], and orjson.loads of the same bytes.

    python bench/bench_pipeline.py [--size 200MB] [--format rows-json|decoding] [--ddl-ratio 0.01]

Reports MB/s and records/s of (a) ``ddlc translate --to postgres LOG`` (whole process), (a') the same
on a log with no DDL (the DML-skip rate alone), (b) the pipeline on local[1] and local[2] (the run
timed inside a warm session: JVM start-up and first-job warm-up excluded, and also whole-process),
(c) ``orjson.loads`` of every line of the same bytes (what any reader must at least do), and the
ratios. Figures go to docs/performance.md ("Decoding logs").
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import gen_log  # noqa: E402


def _cli(log: str) -> float:
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "ddlc", "translate", "--to", "postgres", log], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - t


def _orjson(log: str) -> float:
    import orjson

    data = Path(log).read_bytes()
    t = time.perf_counter()
    for line in data.split(b"\n"):
        if line:
            try:
                orjson.loads(line)
            except orjson.JSONDecodeError:
                pass
    return time.perf_counter() - t


def _pipeline(log: str, cores: int, repeat: int = 3) -> dict[str, float]:
    """One subprocess: a warm local[cores] session, then the run timed on its own ``repeat`` times (the
    median is reported: one run on this shared machine varies by ±0.3 s)."""
    code = f"""
import json, sys, tempfile, time
t0 = time.perf_counter()
from ddlc.pipeline.run import run, session
spark = session("local[{cores}]")
# warm-up: a first run on a small log starts the Python workers and the JVM's code paths once
warm = tempfile.mktemp()
with open({log!r}, "rb") as src, open(warm, "wb") as dst:
    dst.write(b"".join(src.readline() for _ in range(20000)))
run([warm], tempfile.mkdtemp(), ["postgres"], spark=spark, report=lambda s: None, piece_size=1 << 20)
t1 = time.perf_counter()
runs = []
for _ in range({repeat}):
    t = time.perf_counter()
    run([{log!r}], tempfile.mkdtemp(), ["postgres"], spark=spark, report=lambda s: None)
    runs.append(time.perf_counter() - t)
print(json.dumps({{"run": sorted(runs)[len(runs) // 2], "runs": runs, "startup": t1 - t0}}))
"""
    t = time.perf_counter()
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    whole = time.perf_counter() - t
    if p.returncode != 0:
        raise SystemExit(f"pipeline run failed: {p.stderr[-2000:]}")
    out = json.loads(p.stdout.strip().splitlines()[-1])
    out["whole"] = whole
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", default="200MB")
    ap.add_argument("--format", choices=["rows-json", "decoding"], default="rows-json")
    ap.add_argument("--ddl-ratio", type=float, default=0.01)
    ap.add_argument("--repeat", type=int, default=3, help="warm pipeline runs per parallelism (median)")
    ap.add_argument("--keep", help="directory for the generated logs (default: a temporary one)")
    a = ap.parse_args()
    d = a.keep or tempfile.mkdtemp(prefix="ddlc-bench-")
    os.makedirs(d, exist_ok=True)
    log, dml = os.path.join(d, "log"), os.path.join(d, "dml-only")
    with open(log, "wb") as fh:
        c = gen_log.generate(fh, gen_log.parse_size(a.size), a.format, a.ddl_ratio)
    with open(dml, "wb") as fh:
        c0 = gen_log.generate(fh, gen_log.parse_size(a.size), a.format, 0.0)
    mb, recs = c["bytes"] / 1e6, c["records"]
    rows = []

    def row(name: str, seconds: float, size_mb: float = mb, n: int = recs) -> None:
        rows.append((name, seconds, size_mb / seconds, n / seconds))

    o = _orjson(log)
    row("orjson.loads per line", o)
    row("CLI translate --to postgres", _cli(log))
    row("CLI, DML only (skip rate)", _cli(dml), c0["bytes"] / 1e6, c0["records"])
    p1, p2 = _pipeline(log, 1, a.repeat), _pipeline(log, 2, a.repeat)
    row("pipeline local[1] (warm run)", p1["run"])
    row("pipeline local[2] (warm run)", p2["run"])
    row("pipeline local[1] (whole process)", p1["whole"])
    row("pipeline local[2] (whole process)", p2["whole"])
    print(f"log: {a.format}, {mb:.1f} MB, {recs} records ({c['ddl']} DDL, {c['dml']} DML, "
          f"{c['transaction']} BEGIN/COMMIT); machine: {os.cpu_count()} cores")
    print(f"{'':36} {'seconds':>8} {'MB/s':>8} {'records/s':>11} {'x orjson':>9}")
    for name, s, rate, rps in rows:
        print(f"{name:36} {s:8.2f} {rate:8.1f} {rps:11,.0f} {s / o:9.1f}")
    print(f"warm runs local[1]: {', '.join(f'{x:.2f}' for x in p1['runs'])} s; "
          f"local[2]: {', '.join(f'{x:.2f}' for x in p2['runs'])} s")
    print(f"local[2] / local[1] speed-up (medians of the warm runs): {p1['run'] / p2['run']:.2f}x; "
          f"Spark start-up {p1['startup']:.1f} s / {p2['startup']:.1f} s")


if __name__ == "__main__":
    main()
