"""Record classes: what each way of making them costs (issue 21: a library instead of hand-built classes).

    .venv/bin/python bench/bench_records.py [--classes 200] [--runs 7] [--n 100000]
    .venv/bin/python bench/bench_records.py --imports [--runs 21] [--tree OTHER_CHECKOUT]
    .venv/bin/python bench/bench_records.py --ir [--runs 5] [--tree OTHER_CHECKOUT]

Default mode, for each way of making frozen, slotted records (``dataclasses``, ``attrs``, ``msgspec.Struct``,
and ``ddlc/records.py`` where that module still builds classes by hand), in a fresh process per run, medians
of ``--runs`` (CPU time of the process, ``time.process_time``: a busy machine disturbs it less than wall time):

* ``lib ms``: importing the library in a bare interpreter (in ddlc, where ``typing``, ``enum``, ``re``... are
  already loaded, it costs less: ``import msgspec`` ~6-10 ms there);
* ``define ms``: executing one generated module of ``--classes`` classes shaped like ddlc's IR nodes (a
  base with a keyword-only ``origin`` default, each class 2 required and 2 defaulted fields, annotations as
  strings under ``from __future__ import annotations``);
* then, in one process, µs (CPU time) per operation on ``--n`` objects: construct, ``replace`` of one field, ``==`` of
  equal objects, ``hash``, and ``pickle`` round trip of a list of them (µs per object).

``--ir`` times (CPU time), in one process, on the IR of every fixture document (``fixtures/cases/**/input.json`` without
an expected error, and ``fixtures/sample/ddl.jsonl``; built once with ``ddlc.compiler.front``), best of
``--runs``: ``pickle.dumps`` + ``pickle.loads`` of every build (what stage 2 of the Spark pipeline does), a
no-op ``transform`` that rebuilds every node (``replace`` of each), and ``to_json``; ``--tree`` runs the same
in another checkout, so two implementations are compared on the same corpus and machine.

``--imports`` times (CPU time), in fresh processes, ``import ddlc.ir, ddlc.backends.postgres,
ddlc.backends.spark`` (every IR class and both backends' emitters) against the yardstick ``python -c "import
json"``, interleaved, medians; ``--tree DIR`` runs it on another checkout too (put first on ``PYTHONPATH``), e.g.
``git archive COMMIT | tar -x -C /tmp/old``, so two implementations are compared on the same machine.
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

# per library: (import line, base class source, decorator line or "", class header suffix, field default
# factory, replace expression)
KINDS: dict[str, dict[str, str]] = {
    "dataclasses": {
        "imports": "import dataclasses",
        "base": ("@dataclasses.dataclass(frozen=True, slots=True)\nclass Base:\n"
                 "    origin: tuple = dataclasses.field(default=(), kw_only=True)\n"),
        "deco": "@dataclasses.dataclass(frozen=True, slots=True)\n",
        "kw": "",
        "replace": "dataclasses.replace",
    },
    "attrs": {
        "imports": "import attrs",
        "base": "@attrs.frozen\nclass Base:\n    origin: tuple = attrs.field(default=(), kw_only=True)\n",
        "deco": "@attrs.frozen\n",
        "kw": "",
        "replace": "attrs.evolve",
    },
    "msgspec": {
        "imports": "import msgspec, msgspec.structs",
        "base": "class Base(msgspec.Struct, frozen=True, kw_only=True):\n    origin: tuple = ()\n",
        "deco": "",
        "kw": "",
        "replace": "msgspec.structs.replace",
    },
    "records.py": {  # the hand-built classes this issue replaces (present only in checkouts that have them)
        "imports": "import dataclasses\nfrom ddlc.records import record",
        "base": ("@record(frozen=True, slots=True)\nclass Base:\n"
                 "    origin: tuple = dataclasses.field(default=(), kw_only=True)\n"),
        "deco": "@record(frozen=True, slots=True)\n",
        "kw": "",
        "replace": "dataclasses.replace",
    },
}


def module_source(kind: str, classes: int) -> str:
    k = KINDS[kind]
    out = ["from __future__ import annotations", k["imports"], k["base"]]
    for i in range(classes):
        out.append(f'{k["deco"]}class C{i}(Base{k["kw"]}):\n    """C{i}."""\n\n'
                   f"    name: str\n    items: tuple[str, ...]\n    flag: bool = False\n    note: str | None = None\n")
    return "\n".join(out)


CHILD = r"""
import sys, time, pickle
kind, classes, n, src = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
t0 = time.process_time()
exec(compile(%(imports)r, "<imports>", "exec"), {})
t1 = time.process_time()
import types
mod = sys.modules["bench_records_mod"] = types.ModuleType("bench_records_mod")
ns = mod.__dict__
code = compile(open(src).read(), src, "exec")
t2 = time.process_time()
exec(code, ns)
t3 = time.process_time()
print("define", (t1 - t0) * 1e3, (t3 - t2) * 1e3)
if n:
    C = ns["C7"]
    replace = eval(%(replace)r, ns)
    def per(fn, count):
        best = float("inf")
        for _ in range(5):
            t = time.process_time(); fn(); best = min(best, time.process_time() - t)
        return best / count * 1e6
    objs = [C("a", ("x", "y"), origin=(1, "b")) for _ in range(n)]
    other = C("a", ("x", "y"), origin=(1, "b"))
    print("construct", per(lambda: [C("a", ("x", "y"), origin=(1, "b")) for _ in range(n)], n))
    print("replace", per(lambda: [replace(o, flag=True) for o in objs], n))
    print("eq", per(lambda: [o == other for o in objs], n))
    print("hash", per(lambda: [hash(o) for o in objs], n))
    print("pickle", per(lambda: pickle.loads(pickle.dumps(objs, 5)), n))
    assert pickle.loads(pickle.dumps(objs[0])) == objs[0]
"""


def child_run(kind: str, classes: int, n: int, src: Path, env: dict[str, str]) -> dict[str, list[float]]:
    code = CHILD % {"imports": KINDS[kind]["imports"], "replace": KINDS[kind]["replace"]}
    p = subprocess.run([sys.executable, "-c", code, kind, str(classes), str(n), str(src)],
                       capture_output=True, text=True, env=env)
    if p.returncode != 0:
        raise RuntimeError(p.stderr[-1500:])
    out: dict[str, list[float]] = {}
    for line in p.stdout.splitlines():
        name, *vals = line.split()
        out[name] = [float(v) for v in vals]
    return out


def available(kind: str, env: dict[str, str]) -> bool:
    p = subprocess.run([sys.executable, "-c", KINDS[kind]["imports"]], capture_output=True, env=env)
    return p.returncode == 0


def classes_mode(args: argparse.Namespace, env: dict[str, str]) -> None:
    import tempfile

    print(f"{args.classes} frozen slotted classes (4 fields + inherited keyword-only origin); fresh process "
          f"per run, medians of {args.runs}; operations: µs each, best of 5 over {args.n} objects")
    print(f"{'kind':<12} {'lib ms':>7} {'define ms':>10} {'per class µs':>13} {'construct':>10} {'replace':>8} "
          f"{'eq':>6} {'hash':>6} {'pickle':>7}")
    with tempfile.TemporaryDirectory() as tmp:
        for kind in KINDS:
            if not available(kind, env):
                print(f"{kind:<12} (not importable here)")
                continue
            src = Path(tmp) / f"{kind.replace('.', '_')}.py"
            src.write_text(module_source(kind, args.classes))
            lib, define = [], []
            for _ in range(args.runs):
                r = child_run(kind, args.classes, 0, src, env)
                lib.append(r["define"][0])
                define.append(r["define"][1])
            ops = child_run(kind, args.classes, args.n, src, env)
            d = statistics.median(define)
            print(f"{kind:<12} {statistics.median(lib):>7.1f} {d:>10.1f} {d / args.classes * 1e3:>13.0f} "
                  f"{ops['construct'][0]:>10.2f} {ops['replace'][0]:>8.2f} {ops['eq'][0]:>6.2f} "
                  f"{ops['hash'][0]:>6.2f} {ops['pickle'][0]:>7.2f}")


def cpu(cmd: list[str], env: dict[str, str]) -> float:
    """CPU seconds (user + system) of one whole process (less disturbed than wall time on a busy machine)."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        raise RuntimeError(p.stderr.decode(errors="replace")[-1500:])
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def imports_mode(args: argparse.Namespace, env: dict[str, str]) -> None:
    stmt = "import ddlc.ir, ddlc.backends.postgres, ddlc.backends.spark"
    trees = [("this checkout", ROOT)] + ([("--tree", args.tree.resolve())] if args.tree else [])
    envs = [dict(env, PYTHONPATH=str(tree) + os.pathsep + env.get("PYTHONPATH", "")) for _, tree in trees]
    cmd, yard = [sys.executable, "-c", stmt], [sys.executable, "-c", "import json"]
    for e in envs:  # warm-up: bytecode caches
        cpu(cmd, e)
    times: list[list[float]] = [[] for _ in trees]
    base: list[float] = []
    for _ in range(args.runs):  # interleaved: yardstick, tree 1, tree 2, ...
        base.append(cpu(yard, envs[0]))
        for i, e in enumerate(envs):
            times[i].append(cpu(cmd, e))
    print(f"python -c '{stmt}', CPU time, {args.runs} interleaved runs, medians; yardstick python -c 'import json' "
          f"{statistics.median(base) * 1e3:.1f} ms")
    for (label, tree), ts in zip(trees, times, strict=True):
        ratio = statistics.median(t / b for t, b in zip(ts, base, strict=True))
        print(f"{label:<14} {statistics.median(ts) * 1e3:7.1f} ms (min {min(ts) * 1e3:6.1f})  {ratio:5.2f}× import json"
              f"  [{tree}]")
    if len(times) == 2:
        pair = statistics.median(a / b for a, b in zip(times[0], times[1], strict=True))
        print(f"this checkout / --tree, paired: {pair:.3f}")


IR_CHILD = r"""
import gc, pickle, sys, time
from pathlib import Path
import orjson
root, runs = Path(sys.argv[1]), int(sys.argv[2])
from ddlc.api import Options
from ddlc.compiler import front
from ddlc.frontend.documents import as_document
from ddlc.ir.base import replace, to_json, transform
lines = [p.read_bytes() for p in sorted((root / "fixtures" / "cases").rglob("input.json"))
         if not (p.parent / "expected.error.json").exists()]
lines += [x for x in (root / "fixtures" / "sample" / "ddl.jsonl").read_bytes().splitlines() if x.strip()]
opts = Options.of() if hasattr(Options, "of") else Options()
fronts = []
for x in lines:
    try:
        fronts.append(front(as_document(orjson.loads(x)), opts))
    except Exception:
        pass
stmts = [f.stmt for f in fronts]
def best(fn):
    out = float("inf")
    for _ in range(runs):
        gc.collect(); t = time.process_time(); fn(); out = min(out, time.process_time() - t)
    return out / len(fronts) * 1e6
blob = [pickle.dumps(f, 5) for f in fronts]
print("docs", len(fronts), sum(map(len, blob)))
print("pickle", best(lambda: [pickle.loads(pickle.dumps(f, 5)) for f in fronts]))
print("unpickle", best(lambda: [pickle.loads(b) for b in blob]))
touch = lambda n: replace(n, origin=n.origin)
print("transform", best(lambda: [transform(s, touch) for s in stmts]))
print("to_json", best(lambda: [to_json(s, with_origin=True) for s in stmts]))
"""


def ir_mode(args: argparse.Namespace) -> None:
    trees = [("this checkout", ROOT)] + ([("--tree", args.tree.resolve())] if args.tree else [])
    print(f"IR of the fixture corpus, µs per document, best of {args.runs}")
    for label, tree in trees:
        env = dict(os.environ, PYTHONPATH=str(tree) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        p = subprocess.run([sys.executable, "-c", IR_CHILD, str(tree), str(args.runs)], capture_output=True,
                           text=True, env=env)
        if p.returncode != 0:
            raise RuntimeError(p.stderr[-1500:])
        vals = dict(line.split(maxsplit=1) for line in p.stdout.splitlines())
        print(f"{label:<14} {vals.pop('docs')} (documents, pickled bytes)  " +
              "  ".join(f"{k} {float(v):.1f}" for k, v in vals.items()) + f"  [{tree}]")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--classes", type=int, default=200)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--imports", action="store_true", help="time importing ddlc's IR and backends instead")
    ap.add_argument("--ir", action="store_true", help="time pickling, transform and to_json of the fixtures' IR")
    ap.add_argument("--tree", type=Path, help="with --imports or --ir: another checkout to compare")
    args = ap.parse_args()
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    if args.imports:
        imports_mode(args, dict(os.environ))
    elif args.ir:
        ir_mode(args)
    else:
        classes_mode(args, env)


if __name__ == "__main__":
    main()
