"""Throughput of full translation as a ratio to ``orjson.loads`` of the same bytes, paired so that it
holds on a loaded machine.

    .venv/bin/python bench/bench_ratio.py                       # ~2-3 min: 3 corpora x 3 targets, 20 chunks
    .venv/bin/python bench/bench_ratio.py --targets postgres --corpora unique --chunks 40
    .venv/bin/python bench/bench_ratio.py --json > run.json     # every per-chunk figure too
    .venv/bin/python bench/bench_ratio.py --show run.json       # its report
    .venv/bin/python bench/bench_ratio.py --check               # + is the unique corpus still valid (~10 s)
    .venv/bin/python bench/bench_ratio.py --profile postgres --corpora unique [--top 25]   # cProfile of
                                                    # translate_many over the --chunks chunks, one pass
    .venv/bin/python bench/bench_ratio.py --vs /tmp/ddlc-old --targets postgres   # A/B: this tree against
                                                    # another (a git archive export), interleaved

Corpora (bench/corpus.py): ``fixtures`` (every case that translates, the oracle inputs and
fixtures/sample/ddl.jsonl: 209 documents), ``varied`` (every statement family of fixtures/cases/ with
the same weight: 408 documents) and ``unique`` (the varied corpus with every identifier renamed per
document, and a new renaming each time a document is handed to ddlc, so that no cache keyed on a text,
a fragment or a name can hit; same chunks as ``varied``).

Method. Each corpus is cut into chunks of ``--chunk`` documents (50; the corpus shuffled with
``--seed``, again for each pass over it), ``--chunks`` of them (20) per corpus and target. Each chunk
has ``--repeat`` rounds (5); a round times, copy A first in even rounds and copy B first in odd ones:

    orjson.loads on copy A, ddlc on copy A, orjson.loads on copy B, ddlc on copy B

(copies A and B are the same bytes; for ``unique`` they are two fresh renamings of the same documents,
of the same length, and every round and target has its own). ddlc is
``ddlc.translate_many(chunk, target=...)`` fully consumed (``--api one``: ``ddlc.translate`` per
document instead). ``orjson.loads`` is timed as the fastest of 3 passes in a row over the chunk: its
steady speed, whatever ddlc left in the caches (the first pass after ddlc is 25-170 % slower, by an
amount that depends on ddlc). Times are this thread's CPU time (``time.thread_time``; ``--clock
wall``: ``time.perf_counter``): on a loaded machine the time spent waiting for a core does not
count, only what the other jobs do to the caches.
Per chunk, with the minimum over the rounds (the fastest of 5):

* the ratio: ddlc(A) / orjson(A);
* the self-vs-self noise: ddlc(A) / ddlc(B), and orjson(A) / orjson(B): what the same measurement of
  the same code gives twice, paired the same way. Its spread is the smallest change one run can show.

Printed per corpus and target: the median of the per-chunk ratios, their interquartile range and a
95 % confidence interval of that median (order statistics), and the same for both noises; µs per
document of each side (medians). The rounds are spread over the whole run: round r of every chunk,
corpus and target before round r+1, so a chunk's fastest round is not taken from one busy second of
the machine, and a change of load touches every corpus and target alike. ``gc.freeze()`` after the
untimed warm-up keeps the corpora out of the collector's way; the collector runs as usual.

A/B (``--vs TREE``): two worker processes, one importing ddlc from ``TREE`` (the baseline, e.g. ``git
archive <commit> | tar -x -C TREE``) and one from this tree, are handed the same chunks in turn (which goes
first alternates by round), each timing its own ``orjson.loads`` and ddlc as above; per chunk the figure is
the speed-up ratio(baseline) / ratio(this tree), and ddlc(baseline) / ddlc(this tree) by CPU time. ``--vs``
with this very tree gives the self-vs-self noise of the comparison.

Replaces the former options: ``--mb`` now sets ``--chunks`` (that many MB of distinct chunks per
corpus and target; the old one-corpus best-of-5 figure of a whole 4 MB pass is gone: it moved with
load by up to 2.7x). bench/bench_translate.py is left as it was (orjson vs the expander stages).
"""

from __future__ import annotations

import argparse
import collections
import gc
import json
import math
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(os.environ.get("DDLC_BENCH_ROOT") or Path(__file__).resolve().parents[1]).resolve()
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus as corpora  # noqa: E402
import ddlc  # noqa: E402

TARGETS = ("postgres", "gaussdb", "spark")
CORPORA = ("fixtures", "varied", "unique")


# --- what is timed -----------------------------------------------------------------------------------

def loads_all(lines: list[bytes]) -> None:
    loads = orjson.loads
    for line in lines:
        loads(line)


def translator(target: str, api: str):
    if api == "many":
        def run(lines: list[bytes]) -> None:
            collections.deque(ddlc.translate_many(lines, target=target), maxlen=0)
    else:
        translate, error = ddlc.translate, ddlc.DdlcError

        def run(lines: list[bytes]) -> None:
            for line in lines:
                try:
                    translate(line, target)
                except error:
                    pass
    return run


CLOCKS = {"cpu": time.thread_time, "wall": time.perf_counter}
clock = CLOCKS["cpu"]


def timed(fn, lines: list[bytes]) -> float:
    t0 = clock()
    fn(lines)
    return clock() - t0


def timed_loads(lines: list[bytes], passes: int = 3) -> float:
    """``orjson.loads`` of every line: the fastest of ``passes`` passes in a row, i.e. orjson's own steady
    speed, not what the ddlc run before it left in the caches (its first pass after ddlc is 25-170 % slower,
    and by how much depends on ddlc: the yardstick must not)."""
    return min(timed(loads_all, lines) for _ in range(passes))


def measure_round(ddlc_fn, r: int, a: list[bytes], b: list[bytes], t: dict[str, list[float]]) -> None:
    """Round ``r`` of one chunk: its copies A and B, each timed with both (appended to ``t``)."""
    # A then B, B then A: every orjson pass follows a ddlc run and every ddlc run the orjson pass on
    # its own bytes (a reversed order would put orjson after orjson at the seam of two rounds: ~15 %
    # faster, a bias of the noise figure)
    pairs = [("o", None, a), ("d", ddlc_fn, a)], [("o2", None, b), ("d2", ddlc_fn, b)]
    for key, fn, lines in (pairs[0] + pairs[1] if r % 2 == 0 else pairs[1] + pairs[0]):
        t[key].append(timed_loads(lines) if fn is None else timed(fn, lines))


def chunk_figures(t: dict[str, list[float]], n: int) -> dict[str, float]:
    """One chunk's figures from its rounds' times: the fastest round of each of the four."""
    o, d, o2, d2 = (min(t[k]) for k in ("o", "d", "o2", "d2"))
    return {"ratio": d / o, "noise_ddlc": d / d2, "noise_orjson": o / o2,
            "ddlc_us": d / n * 1e6, "orjson_us": o / n * 1e6}


# --- statistics --------------------------------------------------------------------------------------

def summary(xs: list[float]) -> dict[str, float]:
    """Median, quartiles and a distribution-free 95 % confidence interval of the median."""
    s = sorted(xs)
    n = len(s)
    q1, _, q3 = statistics.quantiles(s, n=4, method="inclusive") if n > 1 else (s[0], s[0], s[0])
    half = 1.96 * math.sqrt(n) / 2  # ranks n/2 -/+ 0.98 sqrt(n) (normal approximation to the binomial)
    lo, hi = max(0, math.floor(n / 2 - half)), min(n - 1, math.ceil(n / 2 + half) - 1)
    return {"median": statistics.median(s), "q1": q1, "q3": q3, "ci_lo": s[lo], "ci_hi": s[hi], "n": n}


# --- the run -----------------------------------------------------------------------------------------

class Corpus:
    """A corpus's documents and, per chunk, its copies (fresh renamings for ``unique``)."""

    def __init__(self, name: str, docs: list[corpora.Doc], renamer: corpora.Renamer | None) -> None:
        self.name, self.docs, self.renamer = name, docs, renamer

    def copies(self, chunk: list[corpora.Doc], rounds: int) -> list[tuple[list[bytes], list[bytes]]]:
        lines = [line for _, line in chunk]
        if self.renamer is None:
            return [(lines, lines)] * rounds
        v = self.renamer.variant
        return [([v(x) for x in lines], [v(x) for x in lines]) for _ in range(rounds)]

    def whole(self) -> list[bytes]:
        """Every document once (renamed afresh for ``unique``): the warm-up and the failure count."""
        if self.renamer is None:
            return [line for _, line in self.docs]
        return [self.renamer.variant(line) for _, line in self.docs]


def build(names: list[str], per_family: int) -> dict[str, Corpus]:
    renamer = corpora.Renamer()
    varied = corpora.varied_corpus(per_family)
    docs = {"fixtures": corpora.fixtures_corpus(), "varied": varied, "unique": varied}
    return {n: Corpus(n, docs[n], renamer if n == "unique" else None) for n in names}


def run(args: argparse.Namespace) -> dict[str, Any]:
    cs = build(args.corpora, args.per_family)
    fns = {t: translator(t, args.api) for t in args.targets}
    info: dict[str, Any] = {"corpora": {}, "failed": {}, "load": [os.getloadavg()[0]], "cores": os.cpu_count()}
    for c in cs.values():
        whole = c.whole()
        info["corpora"][c.name] = {"documents": len(c.docs), "distinct": len(set(x for _, x in c.docs)),
                                   "families": len(corpora.families(c.docs)),
                                   "bytes_per_doc": sum(map(len, whole)) / len(whole)}
        loads_all(whole)
        for t in args.targets:  # warm-up (imports, lazy tables) and the failure count, untimed
            results = list(ddlc.translate_many(whole, target=t))
            info["failed"][f"{c.name}/{t}"] = sum(r.error is not None for r in results)
    if args.check and "unique" in cs:
        info["check"] = {t: corpora.check(cs["unique"].docs, t, cs["unique"].renamer) for t in args.targets}
    # the same seed, so the same chunks, for varied and unique (paired); another for the fixtures
    streams = {n: corpora.chunks(c.docs, args.chunk, args.seed + (n == "fixtures")) for n, c in cs.items()}
    gc.collect()
    gc.freeze()
    plan = [{n: next(st) for n, st in streams.items()} for _ in range(args.chunks)]
    times = {(k, n, t): {"o": [], "d": [], "o2": [], "d2": []}
             for k in range(args.chunks) for n in cs for t in args.targets}
    t0 = time.perf_counter()
    # round by round over every chunk, corpus and target: a chunk's rounds are spread over the whole run,
    # so that its fastest round is not taken from one busy second of the machine
    for r in range(args.repeat):
        for k, chunk_of in enumerate(plan):
            for n, c in cs.items():
                for t in args.targets:
                    (a, b), = c.copies(chunk_of[n], 1)  # unique: fresh for every target too
                    measure_round(fns[t], r, a, b, times[k, n, t])
        if args.progress:
            print(f"\rround {r + 1}/{args.repeat} ({time.perf_counter() - t0:.0f} s)", end="", file=sys.stderr)
    if args.progress:
        print(file=sys.stderr)
    gc.unfreeze()
    info["load"].append(os.getloadavg()[0])
    rows = {f"{n}/{t}": [chunk_figures(times[k, n, t], len(plan[k][n])) for k in range(args.chunks)]
            for n in cs for t in args.targets}
    figures = {key: {f: summary([r[f] for r in rs]) for f in rs[0]} for key, rs in rows.items()}
    return {"info": info, "figures": figures, "chunks": rows, "timed_seconds": time.perf_counter() - t0}


def profile(args: argparse.Namespace) -> None:
    import cProfile
    import pstats

    (c,) = build(args.corpora[:1], args.per_family).values()
    target = args.profile
    collections.deque(ddlc.translate_many(c.whole(), target=target), maxlen=0)  # imports outside
    stream = corpora.chunks(c.docs, args.chunk, args.seed + (c.name == "fixtures"))
    lines = [x for _ in range(args.chunks) for x in c.copies(next(stream), 1)[0][0]]  # the timed chunks
    print(f"corpus {c.name}: {len(lines)} documents, {sum(map(len, lines)) / 1e6:.2f} MB")
    pr = cProfile.Profile()
    pr.enable()
    collections.deque(ddlc.translate_many(lines, target=target), maxlen=0)
    pr.disable()
    for key in ("tottime", "cumtime"):
        print(f"\n==== translate_many -> {target}: top {args.top} by {key} ====")
        pstats.Stats(pr, stream=sys.stdout).strip_dirs().sort_stats(key).print_stats(args.top)


# --- A/B: this tree against another, in two worker processes ------------------------------------------

def _send(stream: Any, obj: Any) -> None:
    import pickle

    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(len(data).to_bytes(8, "little") + data)
    stream.flush()


def _recv(stream: Any) -> Any:
    import pickle

    head = stream.read(8)
    if len(head) < 8:
        raise EOFError
    return pickle.loads(stream.read(int.from_bytes(head, "little")))


def worker(args: argparse.Namespace) -> None:
    """``--worker``: time what the parent hands in (stdin/stdout, length-prefixed pickles), with the ddlc
    of ``DDLC_BENCH_ROOT``."""
    inp, out = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing else may write to the pipe
    fns: dict[str, Any] = {}
    _send(out, {"root": os.path.dirname(os.path.dirname(os.path.abspath(ddlc.__file__)))})
    while True:
        try:
            msg = _recv(inp)
        except EOFError:
            return
        kind = msg[0]
        if kind == "warm":  # untimed: imports, lazy tables; then the collector set as in run()
            _, target, lines = msg
            list(ddlc.translate_many(lines, target=target))
            _send(out, None)
        elif kind == "freeze":
            gc.collect()
            gc.freeze()
            _send(out, None)
        else:
            _, target, r, a, b = msg
            fn = fns.get(target) or fns.setdefault(target, translator(target, args.api))
            t: dict[str, list[float]] = {"o": [], "d": [], "o2": [], "d2": []}
            measure_round(fn, r, a, b, t)
            _send(out, {k: v[0] for k, v in t.items()})


class _Worker:
    def __init__(self, root: Path, args: argparse.Namespace) -> None:
        import subprocess

        env = dict(os.environ, DDLC_BENCH_ROOT=str(root))
        cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", "--api", args.api, "--clock", args.clock]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        self.root = _recv(self.proc.stdout)["root"]

    def ask(self, *msg: Any) -> Any:
        _send(self.proc.stdin, msg)
        return _recv(self.proc.stdout)

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


def run_ab(args: argparse.Namespace) -> dict[str, Any]:
    """Per chunk, corpus and target: round r is timed by both workers in turn (the baseline first in even
    rounds), each its own orjson and ddlc passes; the fastest round per chunk and side counts."""
    cs = build(args.corpora, args.per_family)
    sides = {"old": _Worker(Path(args.vs), args), "new": _Worker(ROOT, args)}
    info: dict[str, Any] = {"roots": {k: w.root for k, w in sides.items()}, "load": [os.getloadavg()[0]],
                            "cores": os.cpu_count(), "corpora": {}}
    for c in cs.values():
        whole = c.whole()
        info["corpora"][c.name] = {"documents": len(c.docs), "bytes_per_doc": sum(map(len, whole)) / len(whole)}
        for t in args.targets:
            for w in sides.values():
                w.ask("warm", t, whole)
    for w in sides.values():
        w.ask("freeze")
    streams = {n: corpora.chunks(c.docs, args.chunk, args.seed + (n == "fixtures")) for n, c in cs.items()}
    plan = [{n: next(st) for n, st in streams.items()} for _ in range(args.chunks)]
    times = {(k, n, t, s): {"o": [], "d": [], "o2": [], "d2": []}
             for k in range(args.chunks) for n in cs for t in args.targets for s in sides}
    t0 = time.perf_counter()
    for r in range(args.repeat):
        order = ("old", "new") if r % 2 == 0 else ("new", "old")
        for k, chunk_of in enumerate(plan):
            for n, c in cs.items():
                for t in args.targets:
                    (a, b), = c.copies(chunk_of[n], 1)
                    for s in order:
                        for key, v in sides[s].ask("round", t, r, a, b).items():
                            times[k, n, t, s][key].append(v)
        if args.progress:
            print(f"\rround {r + 1}/{args.repeat} ({time.perf_counter() - t0:.0f} s)", end="", file=sys.stderr)
    if args.progress:
        print(file=sys.stderr)
    for w in sides.values():
        w.close()
    info["load"].append(os.getloadavg()[0])
    rows: dict[str, list[dict[str, float]]] = {}
    for n in cs:
        for t in args.targets:
            out = []
            for k in range(args.chunks):
                size = len(plan[k][n])
                old, new = (chunk_figures(times[k, n, t, s], size) for s in ("old", "new"))
                do, dn = (min(times[k, n, t, s]["d"]) for s in ("old", "new"))
                out.append({"speedup_ratio": old["ratio"] / new["ratio"], "speedup_cpu": do / dn,
                            "ratio_old": old["ratio"], "ratio_new": new["ratio"],
                            "noise_old": old["noise_ddlc"], "noise_new": new["noise_ddlc"]})
            rows[f"{n}/{t}"] = out
    figures = {key: {f: summary([r[f] for r in rs]) for f in rs[0]} for key, rs in rows.items()}
    return {"info": info, "figures": figures, "chunks": rows, "timed_seconds": time.perf_counter() - t0}


def report_ab(res: dict[str, Any], args: argparse.Namespace) -> None:
    info = res["info"]
    load = "-".join(f"{x:.1f}" for x in info.get("load", ()))
    print(f"A/B: old = ddlc from {info['roots']['old']}, new = ddlc from {info['roots']['new']}; "
          f"load average {load} on {info.get('cores', '?')} cores")
    print(f"{args.chunks} chunks of {args.chunk} documents per corpus and target, fastest of {args.repeat}, "
          f"{args.clock} clock; timed {res['timed_seconds']:.0f} s")
    print("\nmedian [interquartile range] (95% confidence interval of the median) over the chunks")
    print(f"{'corpus/target':<18} {'× orjson old':>12} {'× orjson new':>12}  {'speed-up (ratio old/new)':<28} "
          f"{'speed-up (cpu old/new)':<28} {'noise ddlc/ddlc old':<22} {'new':<22}")
    for key, f in res["figures"].items():
        print(f"{key:<18} {f['ratio_old']['median']:>12.0f} {f['ratio_new']['median']:>12.0f}  "
              f"{fmt(f['speedup_ratio'], '.3f'):<28} {fmt(f['speedup_cpu'], '.3f'):<28} "
              f"{fmt(f['noise_old'], '', True)[:21]:<22} {fmt(f['noise_new'], '', True)[:21]:<22}")


def fmt(s: dict[str, float], spec: str, pct: bool = False) -> str:
    if pct:
        return (f"{(s['median'] - 1) * 100:+5.1f}% [{(s['q1'] - 1) * 100:+.1f}, {(s['q3'] - 1) * 100:+.1f}]"
                f" ({(s['ci_lo'] - 1) * 100:+.1f}, {(s['ci_hi'] - 1) * 100:+.1f})")
    return f"{s['median']:{spec}} [{s['q1']:{spec}}-{s['q3']:{spec}}] ({s['ci_lo']:{spec}}-{s['ci_hi']:{spec}})"


def report(res: dict[str, Any], args: argparse.Namespace) -> None:
    info = res["info"]
    load = "-".join(f"{x:.1f}" for x in info.get("load", ()))
    print(f"Python {res.get('python', platform.python_version())}, "
          f"orjson {res.get('orjson', orjson.__version__)}, ddlc from {res.get('root', ROOT)}; "
          f"load average {load or '?'} on {info.get('cores', '?')} cores")
    print(f"{args.chunks} chunks of {args.chunk} documents per corpus and target, fastest of {args.repeat}, "
          f"{args.clock} clock, api {args.api}, seed {args.seed}; timed {res['timed_seconds']:.0f} s")
    for n, c in info["corpora"].items():
        print(f"  {n:<9} {c['documents']} documents ({c['distinct']} distinct, {c['families']} families), "
              f"{c['bytes_per_doc']:.0f} bytes each on average")
    print("\nmedian [interquartile range] (95% confidence interval of the median) over the chunks")
    print(f"{'corpus/target':<18} {'failed':>7} {'ddlc µs':>8} {'orjson µs':>9}  {'× orjson.loads':<26} "
          f"{'noise ddlc/ddlc':<30} {'noise orjson/orjson':<30}")
    for key, f in res["figures"].items():
        docs = info["corpora"][key.split("/")[0]]["documents"]
        print(f"{key:<18} {info['failed'][key]:>3}/{docs:<3} {f['ddlc_us']['median']:>8.0f} "
              f"{f['orjson_us']['median']:>9.2f}  {fmt(f['ratio'], '.0f'):<26} "
              f"{fmt(f['noise_ddlc'], '', True):<30} {fmt(f['noise_orjson'], '', True):<30}")
    for t, c in info.get("check", {}).items():
        bad = len(c["status"]) + len(c["differs"])
        print(f"check unique/{t}: {c['renamed']}/{c['documents']} documents renamed; translated as the "
              f"originals: {c['same']} ({len(c['status'])} change of success, {len(c['differs'])} other output)"
              + ("" if not bad else f": {(c['status'] + c['differs'])[:5]}"))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--targets", default="postgres,gaussdb,spark", help="comma-separated (default: all three)")
    ap.add_argument("--corpora", default=",".join(CORPORA), help="comma-separated: fixtures,varied,unique")
    ap.add_argument("--chunks", type=int, default=20, help="chunks per corpus and target (default 20)")
    ap.add_argument("--mb", type=float, help="instead of --chunks: about this many MB of chunks per corpus")
    ap.add_argument("--chunk", type=int, default=50, help="documents per chunk (default 50)")
    ap.add_argument("--repeat", type=int, default=5, help="rounds per chunk, the fastest counts (default 5)")
    ap.add_argument("--per-family", type=int, default=24, help="documents per family, varied corpus (24)")
    ap.add_argument("--api", choices=("many", "one"), default="many",
                    help="ddlc.translate_many per chunk (default) or ddlc.translate per document")
    ap.add_argument("--seed", type=int, default=26)
    ap.add_argument("--clock", choices=tuple(CLOCKS), default="cpu",
                    help="cpu: this thread's CPU time (default; a loaded machine's waits do not count); wall")
    ap.add_argument("--check", action="store_true",
                    help="also check that the unique corpus translates as the varied one (per document)")
    ap.add_argument("--json", action="store_true", help="print the figures (and every chunk's) as JSON")
    ap.add_argument("--show", metavar="FILE", help="print the report of a run saved with --json")
    ap.add_argument("--quiet", dest="progress", action="store_false", help="no progress on stderr")
    ap.add_argument("--profile", choices=TARGETS, help="cProfile one target on the first corpus instead")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--vs", metavar="TREE", help="A/B: this tree against the ddlc of TREE (a git archive export)")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    global clock
    clock = CLOCKS[args.clock]
    args.targets = [t for t in args.targets.split(",") if t]
    args.corpora = [c for c in args.corpora.split(",") if c]
    for c in args.corpora:
        if c not in CORPORA:
            ap.error(f"unknown corpus {c!r} (one of {', '.join(CORPORA)})")
    if args.mb is not None:
        sizes = [len(b) for _, b in corpora.varied_corpus(args.per_family) + corpora.fixtures_corpus()]
        args.chunks = max(1, round(args.mb * 1e6 / (statistics.mean(sizes) * args.chunk)))
    if args.worker:
        worker(args)
        return
    if args.show:
        res = json.loads(Path(args.show).read_text("utf-8"))
        (report_ab if res["args"].get("vs") else report)(res, argparse.Namespace(**res["args"]))
        return
    if args.profile:
        profile(args)
        return
    res = run_ab(args) if args.vs else run(args)
    res["args"] = {k: v for k, v in vars(args).items()}
    res["python"], res["orjson"], res["root"] = platform.python_version(), orjson.__version__, str(ROOT)
    if args.json:
        print(json.dumps(res, indent=1))
        return
    (report_ab if args.vs else report)(res, args)


if __name__ == "__main__":
    main()
