"""Schema validation per document: the generated validator against the hand-written checker it replaced,
jsonschema, and orjson.loads of the same bytes.

    .venv/bin/python bench/bench_validate.py [--rounds 15] [--old REV]

Documents: every fixture tree that jsonschema finds valid (fixtures/cases, fixtures/oracle, the sample
and stream fixtures, tests/data). Each round times every contender over all of them, in turn, in CPU time
of this process (``time.process_time``: the machine is shared); the figures are the min and median over
rounds, per document. The old checker (``frontend/schema_fast.py``) is read from git at REV (default: the
last commit that had it).
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ddlc.frontend import schema  # noqa: E402
from ddlc.frontend import _validators_generated as generated  # noqa: E402
from ddlc.frontend.documents import read_documents  # noqa: E402

OLD = "ddlc/frontend/schema_fast.py"


def corpus() -> list[Any]:
    trees: list[Any] = []
    for path in sorted((ROOT / "fixtures" / "cases").rglob("input.json")):
        trees.append(orjson.loads(path.read_bytes()))
    for path in sorted((ROOT / "fixtures" / "oracle").glob("*.json")):
        trees.append(orjson.loads(path.read_bytes()))
    for path in sorted((ROOT / "tests" / "data").rglob("*.json")):
        trees.append(orjson.loads(path.read_bytes()))
    for line in (ROOT / "tests" / "data" / "reference_trees.jsonl").read_bytes().splitlines():
        if line.strip():
            trees.append(orjson.loads(line)["tree"])
    streams = [ROOT / "fixtures" / "sample" / "ddl.jsonl"]
    streams += sorted(p for p in (ROOT / "fixtures" / "streams").iterdir() if p.suffix != ".md")
    for path in streams:
        trees += [doc.tree for doc in read_documents(path.read_bytes(), source=path.name) if doc.tree is not None]
    reference = schema.validator()
    return [t for t in trees if reference.is_valid(t)]


def old_checker(rev: str | None) -> Callable[[Any], bool] | None:
    if rev is None:
        gone = subprocess.run(["git", "rev-list", "-n", "1", "HEAD", "--", OLD], cwd=ROOT, capture_output=True,
                              text=True).stdout.strip()
        if not gone:
            return None
        present = subprocess.run(["git", "cat-file", "-e", f"{gone}:{OLD}"], cwd=ROOT,
                                 capture_output=True).returncode == 0
        rev = gone if present else f"{gone}^"
    source = subprocess.run(["git", "show", f"{rev}:{OLD}"], cwd=ROOT, capture_output=True, text=True)
    if source.returncode != 0:
        return None
    spec = importlib.util.spec_from_loader("ddlc.frontend._schema_fast_old", loader=None)
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "ddlc.frontend"
    exec(compile(source.stdout, f"{rev}:{OLD}", "exec"), module.__dict__)
    print(f"old checker: {OLD} at {rev}")
    return module.is_valid


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--old", help="git revision holding frontend/schema_fast.py")
    args = parser.parse_args()

    trees = corpus()
    blobs = [orjson.dumps(t) for t in trees]

    def fast(tree: Any) -> bool:
        try:
            generated.validate(tree)
        except generated.INVALID:
            return False
        return True

    contenders: dict[str, Callable[[Any], Any]] = {
        "generated validator (fastjsonschema)": fast,
        "schema.validate() (depth walk + generated)": schema.validate,
    }
    old = old_checker(args.old)
    if old is not None:
        contenders["old schema_fast.is_valid"] = old
    contenders["jsonschema is_valid"] = schema.validator().is_valid
    for name, fn in contenders.items():  # warm: every check built, every answer right
        assert all(fn(t) in (True, []) for t in trees), name
    times: dict[str, list[float]] = {name: [] for name in contenders}
    times["orjson.loads (same bytes)"] = []
    for _ in range(args.rounds):
        for name, fn in contenders.items():
            start = time.process_time()
            for tree in trees:
                fn(tree)
            times[name].append(time.process_time() - start)
        start = time.process_time()
        for blob in blobs:
            orjson.loads(blob)
        times["orjson.loads (same bytes)"].append(time.process_time() - start)
    n = len(trees)
    print(f"{n} valid documents, {sum(map(len, blobs)) / n:.0f} bytes each on average, {args.rounds} rounds, "
          "CPU time per document:")
    print(f"{'':46} {'min µs':>9} {'median µs':>10}")
    for name, values in times.items():
        print(f"{name:46} {min(values) / n * 1e6:9.1f} {statistics.median(values) / n * 1e6:10.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
