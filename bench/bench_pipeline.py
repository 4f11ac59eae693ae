"""Decoding logs, one run: the CLI, the Spark pipeline on local[1] and local[2], and orjson.loads of the same bytes.

    python bench/bench_pipeline.py [--size 200MB] [--format rows-json|decoding] [--ddl-ratio 0.01]
    python bench/bench_pipeline.py --cluster [--size 400MB | --log LOG] [--repeat 3]

Reports MB/s and records/s of (a) ``ddlc translate --to postgres LOG`` (whole process), (a') the same
on a log with no DDL (the DML-skip rate alone), (b) the pipeline on local[1] and local[2] (the run
timed inside a warm session: JVM start-up and first-job warm-up excluded, and also whole-process),
(c) ``orjson.loads`` of every line of the same bytes (what any reader must at least do), and the
ratios. Figures go to docs/performance.md ("Decoding logs").

``--cluster``: the same log on a real standalone cluster on this machine (a master and 1, then 2,
workers of 1 core each: tests/engines/spark_cluster.py), the driver in its own process with a warm
session, the pieces read through Spark's filesystem layer; medians of warm runs, stage 2's share, and
an estimate for 16 executors (docs/pipeline.md, "On a cluster").
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


_CLUSTER_RUN = """
import json, sys, tempfile, time
t0 = time.perf_counter()
import ddlc.pipeline.run as R
spark = R.session({url!r})
spent = {{"stages": [], "stage2": [], "fold": [], "groups": []}}
def timed(name, fn):
    def wrapped(*a, **k):
        t = time.perf_counter()
        try:
            return fn(*a, **k)
        finally:
            spent[name].append(time.perf_counter() - t)
    return wrapped
R._stages, R._direct = timed("stages", R._stages), timed("stage2", R._direct)
import ddlc.pipeline.groups as G, ddlc.pipeline.positions as P  # (the driver's part between the stages)
G.plan_groups, P.fold = timed("groups", G.plan_groups), timed("fold", P.fold)
warm = tempfile.mktemp()
with open({log!r}, "rb") as src, open(warm, "wb") as dst:
    dst.write(b"".join(src.readline() for _ in range(20000)))
R.run([warm], tempfile.mkdtemp(), ["postgres"], spark=spark, report=lambda s: None, piece_size=1 << 20)
t1 = time.perf_counter()
runs = []
for k in spent:
    spent[k].clear()
for _ in range({repeat}):
    t = time.perf_counter()
    R.run([{log!r}], tempfile.mkdtemp(), ["postgres"], spark=spark, report=lambda s: None)
    runs.append(time.perf_counter() - t)
print(json.dumps({{"runs": runs, "stages": spent["stages"], "stage2": spent["stage2"],
                  "between": [a + b for a, b in zip(spent["fold"], spent["groups"])], "startup": t1 - t0,
                  "cores": spark.sparkContext.defaultParallelism}}))
"""


def _cluster(log: str, workers: int, repeat: int) -> dict[str, object]:
    """A standalone master and ``workers`` workers of 1 core each (tests/engines/spark_cluster.py), a driver
    in its own process with a warm session on it: ``repeat`` timed runs of ``--to postgres``."""
    sys.path.insert(0, str(HERE.parent / "tests"))
    from engines.spark_cluster import SparkCluster, spark_env

    with SparkCluster(workers=workers, cores=1, memory="2g") as c:
        p = subprocess.run([sys.executable, "-c", _CLUSTER_RUN.format(url=c.url, log=log, repeat=repeat)],
                           capture_output=True, text=True, env=spark_env())
    if p.returncode != 0:
        raise SystemExit(f"cluster run failed: {p.stderr[-2000:]}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def _stage1(g: dict[str, object]) -> list[float]:
    """Stage 1 of each run: the stages less stage 2 and the driver's fold and grouping between them."""
    return [a - b - c for a, b, c in zip(g["stages"], g["stage2"], g["between"])]


def _median(xs: list[float]) -> float:
    return sorted(xs)[len(xs) // 2]


def cluster_main(log: str, repeat: int) -> None:
    """Issue 23.4: 1 worker against 2 workers (1 core each) on the same log, medians of warm runs; stage 2's
    share, and what a run would take on 16 executors if both stages kept scaling with cores (an estimate:
    stage 1 by its pieces, stage 2 by its buckets; the driver's part stays)."""
    mb = os.path.getsize(log) / 1e6
    got = {n: _cluster(log, n, repeat) for n in (1, 2)}
    local = _pipeline(log, 2, repeat)  # the same log and machine load, local[2] (pieces read by Python)
    print(f"log: {mb:.1f} MB; standalone cluster on this machine ({os.cpu_count()} cores), 1-core workers")
    print(f"{'workers':>8} {'run s':>7} {'MB/s':>7} {'stage 1 s':>9} {'stage 2 s':>10} {'stage 2 %':>10}  warm runs")
    for n, g in got.items():
        run, s1, s2 = _median(g["runs"]), _median(_stage1(g)), _median(g["stage2"])
        print(f"{n:>8} {run:7.2f} {mb / run:7.1f} {s1:9.2f} {s2:10.2f} {100 * s2 / run:9.0f}%  "
              + ", ".join(f"{x:.2f}" for x in g["runs"]) + f" (start-up {g['startup']:.1f} s)")
    print(f"{'local[2]':>8} {local['run']:7.2f} {mb / local['run']:7.1f}  (the same log in a local[2] session: "
          + ", ".join(f"{x:.2f}" for x in local["runs"]) + ")")
    g = got[2]
    run, s1, s2 = _median(g["runs"]), _median(_stage1(g)), _median(g["stage2"])
    fixed = run - s1 - s2  # the driver's: planning, the fold and grouping between the stages, the outputs
    est = fixed + (s1 + s2) * 2 / 16
    print(f"speed-up 2 workers / 1 worker: {_median(got[1]['runs']) / run:.2f}x")
    print(f"16 executors (estimate from 2): stage 1 {s1 * 2 / 16:.2f} s + stage 2 {s2 * 2 / 16:.2f} s + driver "
          f"{fixed:.2f} s = {est:.2f} s ({mb / est:.0f} MB/s); stage 2 {100 * s2 * 2 / 16 / est:.0f}% of it")


def main() -> None:
    if "--cluster" in sys.argv:
        ap = argparse.ArgumentParser()
        ap.add_argument("--cluster", action="store_true")
        ap.add_argument("--log", help="an existing log (else one of --size is generated)")
        ap.add_argument("--size", default="400MB")
        ap.add_argument("--repeat", type=int, default=3)
        a = ap.parse_args()
        log = a.log
        if log is None:
            log = os.path.join(tempfile.mkdtemp(prefix="ddlc-bench-"), "log")
            with open(log, "wb") as fh:
                gen_log.generate(fh, gen_log.parse_size(a.size), "rows-json", 0.01)
        cluster_main(log, a.repeat)
        return
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
