"""DDL statements per second applied to a local PostgreSQL: ``ddlc apply`` against ``ddlc translate | psql -f``.

    .venv/bin/python bench/bench_apply.py                      # ~1-2 min: 5 paired rounds over a 1 MB log
    .venv/bin/python bench/bench_apply.py --size 2MB --rounds 7 --json

The log is ``bench/gen_log.py --ddl-ratio 1``: only DDL (the sample's history, fixtures/sample/ddl.jsonl,
replayed under a new schema each round: partitioned tables, indexes, views, functions, triggers, comments),
in transactions of 1 to 8 statements, as rows of ``pg_logical_slot_get_changes``. A throwaway server
(tests/engines/postgres.py: its own cluster in a temporary directory, with fsync and synchronous_commit
off, as the tests run it) gets a fresh database per measurement. (On a durable server each COMMIT waits for
the disk: psql commits once per statement, ddlc apply once per source transaction.)

Each round times, in alternating order, two whole processes over the same log, each into a fresh database:

* ``ddlc apply --dsn DB LOG`` (one target transaction per source transaction, with the progress row);
* ``ddlc translate LOG | psql -X -q -v ON_ERROR_STOP=1 -f -`` (autocommit: one transaction per statement).

Wall clock, start to exit. Printed: statements per second of each (median over the rounds), the per-round
ratio apply/psql (median, min-max), and whether both databases ended with the same catalog.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", default="1MB", help="size of the generated log (gen_log.py --size)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    a = ap.parse_args()

    from engines.catalog import snapshot
    from engines.postgres import PostgresServer
    from gen_log import generate, parse_size

    work = Path(tempfile.mkdtemp(prefix="ddlc-bench-apply-"))
    log = work / "log.jsonl"
    with open(log, "wb") as fh:
        counts = generate(fh, parse_size(a.size), "rows-json", ddl_ratio=1.0, seed=1)
    ddlc = str(Path(sys.executable).with_name("ddlc"))
    t = subprocess.run([ddlc, "translate", "-q", str(log)], capture_output=True, text=True, check=True)
    statements = sum(1 for line in t.stdout.splitlines() if line.endswith(";"))

    server = PostgresServer()
    server.start()
    try:
        psql = str(Path(server.bindir) / "psql")
        rounds = []
        same = True
        for r in range(a.rounds):
            times: dict[str, float] = {}
            dbs: dict[str, str] = {}
            for which in (("apply", "psql") if r % 2 == 0 else ("psql", "apply")):
                db = dbs[which] = server.fresh_database()
                dsn = server.conninfo(db)
                t0 = time.perf_counter()
                if which == "apply":
                    p = subprocess.run([ddlc, "apply", "-q", "--dsn", dsn, str(log)], capture_output=True, text=True)
                else:
                    p = subprocess.run(f"'{ddlc}' translate -q '{log}' | '{psql}' -X -q -v ON_ERROR_STOP=1 "
                                       f"-d '{dsn}' -f - >/dev/null", shell=True, capture_output=True, text=True)
                times[which] = time.perf_counter() - t0
                if p.returncode != 0:
                    raise SystemExit(f"{which} failed (exit {p.returncode}): {p.stderr[-2000:]}")
            with server.connect(dbs["apply"]) as c1, server.connect(dbs["psql"]) as c2:
                same = same and _user(snapshot(c1)) == _user(snapshot(c2))
            rounds.append(times)
            if not a.json:
                print(f"round {r + 1}: apply {times['apply']:.2f} s, psql {times['psql']:.2f} s, "
                      f"ratio {times['apply'] / times['psql']:.2f}", file=sys.stderr)
    finally:
        server.stop()
    ratios = [x["apply"] / x["psql"] for x in rounds]
    out = {"statements": statements, "documents": counts["ddl"], "transactions": counts["transaction"] // 2,
           "rounds": a.rounds,
           "apply_seconds": statistics.median(x["apply"] for x in rounds),
           "psql_seconds": statistics.median(x["psql"] for x in rounds),
           "ratio_median": statistics.median(ratios), "ratio_min": min(ratios), "ratio_max": max(ratios),
           "same_catalog": same}
    out["apply_per_second"] = statements / out["apply_seconds"]
    out["psql_per_second"] = statements / out["psql_seconds"]
    if a.json:
        print(json.dumps(out, indent=2))
    else:
        print(f"{statements} statements ({counts['ddl']} documents, {out['transactions']} transactions), "
              f"{a.rounds} paired rounds:\n"
              f"  ddlc apply:              {out['apply_per_second']:.0f} statements/s ({out['apply_seconds']:.2f} s)\n"
              f"  ddlc translate | psql -f: {out['psql_per_second']:.0f} statements/s ({out['psql_seconds']:.2f} s)\n"
              f"  apply / psql: {out['ratio_median']:.2f}x (median; {out['ratio_min']:.2f}-{out['ratio_max']:.2f})"
              f"; same catalog: {same}")


def _user(snap: str) -> str:
    """The snapshot without ddlc's own tables."""
    return "\n".join(line for line in snap.splitlines() if "ddlc" not in line)


if __name__ == "__main__":
    main()
