"""Cold start of the CLI, as a ratio to ``python -c "import json"`` (whole processes, paired).

    .venv/bin/python bench/bench_startup.py [--runs 20] [--file FILE] [--tree DIR] [--stages]

``--check`` adds ``ddlc check --targets postgres,spark`` of one small file (what the pre-commit hook
runs). For each target (postgres, gaussdb) it runs ``ddlc translate --to TARGET FILE`` (the console script
next to this interpreter; FILE defaults to a one-statement DROP TABLE document) and the yardstick
``python -c "import json"`` in turn, A B A B ..., ``--runs`` times each after one warm-up pair, and
prints the median wall time of each and the median of the per-pair ratios A/B (pairing keeps the
ratio meaningful when the machine's speed drifts). ``--stages`` also times, against the same
yardstick, the pieces of the start-up: ``import click``, ``import pglast``, ``import ddlc.cli``.

``--tree DIR`` measures another checkout of the package (it is put first on PYTHONPATH), e.g. a
``git archive`` export of an older commit, with this environment's interpreter and dependencies.

The same pair can be timed with any whole-process timer, e.g. hyperfine:

    hyperfine -N -w 3 '.venv/bin/python -c "import json"' \\
        '.venv/bin/ddlc translate --to postgres fixtures/cases/drop/table-if-exists-cascade/input.json'

The package's bytecode is compiled first (``compileall``), as an installed package's is.

Where the time goes: ``.venv/bin/python -X importtime -m ddlc translate --to postgres FILE 2>imports.txt``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_FILE = ROOT / "fixtures" / "cases" / "drop" / "table-if-exists-cascade" / "input.json"


def wall(cmd: list[str], env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE)
    dt = time.perf_counter() - t0
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} exited {proc.returncode}: {proc.stderr.decode(errors='replace')[-500:]}")
    return dt


def paired(a: list[str], b: list[str], runs: int, env: dict[str, str]) -> tuple[float, float, float, float, float]:
    wall(a, env), wall(b, env)  # warm-up pair: file-system caches, .pyc files
    ta, tb, ratios = [], [], []
    for _ in range(runs):
        x, y = wall(a, env), wall(b, env)
        ta.append(x)
        tb.append(y)
        ratios.append(x / y)
    return (statistics.median(ta), statistics.median(tb), statistics.median(ratios), min(ratios), max(ratios))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--file", type=Path, default=DEFAULT_FILE)
    ap.add_argument("--tree", type=Path, help="checkout whose ddlc package to measure (PYTHONPATH)")
    ap.add_argument("--stages", action="store_true", help="also time import click / pglast / ddlc.cli")
    ap.add_argument("--targets", default="postgres,gaussdb")
    ap.add_argument("--check", action="store_true",
                    help="also time ddlc check --targets postgres,spark of one small file (the pre-commit hook)")
    args = ap.parse_args()

    py = sys.executable
    exe = str(Path(py).with_name("ddlc"))
    env = dict(os.environ)
    if args.tree:
        env["PYTHONPATH"] = str(args.tree.resolve()) + os.pathsep + env.get("PYTHONPATH", "")
    # An installed package has its bytecode (pip compiles it); an editable checkout in an environment with
    # PYTHONDONTWRITEBYTECODE=1 (this machine's) never gets any, and every run would compile ~270 modules
    # again (~0.3 s: the "15x" of docs/performance.md's round 3 was that). Compile the tree measured first.
    import compileall
    import ddlc

    package = (args.tree.resolve() / "ddlc") if args.tree else Path(ddlc.__file__).resolve().parent
    compileall.compile_dir(str(package), quiet=1, workers=0)
    yard = [py, "-c", "import json"]
    cases = [(f"ddlc translate --to {t}", [exe, "translate", "--to", t, str(args.file)])
             for t in args.targets.split(",")]
    if args.check:
        small = ROOT / "examples" / "ddl" / "sales_schema.json"
        cases.append(("ddlc check (postgres,spark)", [exe, "check", "--no-config", "--targets", "postgres,spark",
                                                      str(small)]))
    if args.stages:
        cases += [(f"python -c 'import {m}'", [py, "-c", f"import {m}"]) for m in ("click", "pglast", "ddlc.cli")]
    print(f"yardstick B = python -c 'import json'; {args.runs} pairs each (A B A B ...), medians; "
          f"file {args.file.name if args.file != DEFAULT_FILE else 'drop/table-if-exists-cascade'}")
    print(f"{'A':<34} {'A ms':>8} {'B ms':>7} {'A/B':>7}  {'(min-max A/B)':>14}")
    for label, cmd in cases:
        ma, mb, r, lo, hi = paired(cmd, yard, args.runs, env)
        print(f"{label:<34} {ma * 1e3:>8.1f} {mb * 1e3:>7.1f} {r:>6.1f}×  ({lo:.1f}-{hi:.1f})")


if __name__ == "__main__":
    main()
