"""The pipeline's driver: plan the pieces, run the two stages on Spark, check the counts, commit.

Stage 1 reads the pieces, a run of them per task (DML is skipped where the bytes are, and each document's
object links are noted); stage 2 puts the documents in log order (LSN, then input and position) and
translates them in one task per target and bucket of documents sharing no object (:mod:`.groups`),
each with its own catalog, exactly as ``ddlc translate`` does. The driver then
checks that every record read is accounted for, writes the outputs to a staging directory and
commits them (:mod:`.outputs`), and saves ``--state`` last.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import asdict, replace
from typing import Any

import orjson

from ..version import __version__
from .plan import PIECE_SIZE, Piece, plan, with_lines

__all__ = ["run", "PipelineError", "CheckFailed", "SUMMARY_FORMAT"]

from .errors import SUMMARY_FORMAT, CheckFailed, PipelineError  # noqa: E402 - (re-exported)


from .spark_session import LOCAL_JAVA_OPTIONS, session  # noqa: E402,F401 - (re-exported)


def run(inputs: list[str] | tuple[str, ...], output: str, targets: list[str] | tuple[str, ...] = ("postgres",), *,
        master: str | None = None, input_format: str = "auto", state: str | None = None, progress: bool = False,
        piece_size: int = PIECE_SIZE, spark: Any = None, report: Any = None, options: Any = None,
        overwrite: bool = False, verbose: bool = False, **option_kw: Any) -> dict[str, Any]:
    """Translate decoding logs on Spark; returns the summary (also written as ``summary.json``).

    ``options``: a :class:`ddlc.Options` (or ``option_kw``, its fields). ``overwrite``: replace the
    outputs of a committed run in ``output`` (else a directory holding them is refused; see
    :mod:`.outputs`). ``verbose``: Spark's own logging as Spark has it (else errors only). Raises
    :class:`PipelineError` before any work when the inputs, targets, options, state or output directory
    cannot be used (a file, or under a file), and
    :class:`CheckFailed` (nothing committed) when the counts do not add up."""
    from ..api import Options
    from ..backends import get_backend
    from ..frontend.documents import FORMS
    from .plan import PipelineInputError

    t0 = time.perf_counter()
    say = report or (lambda text: sys.stderr.write(text + "\n"))
    try:
        opts = options if options is not None else Options.of(**option_kw)
        targets = list(dict.fromkeys(targets))
        if not targets:
            raise ValueError("no target given")
        for t in targets:
            get_backend(t)
        if input_format not in FORMS:
            raise ValueError(f"input format must be one of {', '.join(FORMS)}, not {input_format!r}")
        _libraries()
        from .fs import is_uri

        uri_in, uri_out = any(is_uri(p) for p in inputs), is_uri(output)
        # (URIs are listed through the session's filesystem layer: planned once it has started)
        pieces = plan(list(inputs), input_format, piece_size) if not uri_in else []
        state_bytes = _state(state, targets)
    except (ValueError, TypeError, PipelineInputError) as exc:
        raise PipelineError(str(exc)) from None
    from .outputs import check_output

    if not uri_out:
        check_output(output, overwrite)  # OutputRefused: a committed run (no overwrite), or files not ddlc's
        _creatable(output)
    if pieces:
        _small(pieces, master, say)
    spark = spark or session(master, ui=progress, verbose=verbose)
    sc = spark.sparkContext
    from .fs import HadoopFS
    from .progress import Progress

    # the executors read the pieces through Spark (never Python's open()) from a URI, or on a cluster
    through = uri_in or not _local(sc.master)
    hfs = HadoopFS(spark) if through or uri_out else None
    if uri_out:
        from .outputs_fs import check_output_fs

        check_output_fs(hfs, output, overwrite)
    if through:
        pieces = _plan(inputs, input_format, piece_size, hfs)
        if uri_in:
            _small(pieces, master, say)
    balanced = _balanced(pieces, piece_size, _TASKS_PER_CORE * sc.defaultParallelism)
    if balanced != piece_size:
        pieces = _plan(inputs, input_format, balanced, hfs) if through else plan(list(inputs), input_format, balanced)
    with Progress(sc, pieces, enabled=progress, say=say) as bar:
        side, results, groups = _stages(spark, pieces, targets, opts, state_bytes, state is not None, bar, hfs)
    summary = _summary(pieces, targets, side, results, inputs, groups.folded)
    from .outputs import render_outputs

    files = render_outputs(targets, results, side, summary)
    problems = _check(summary)
    if uri_out:
        from .outputs_fs import commit_uri, stage_uri

        if problems:
            raise CheckFailed("the counts do not add up (nothing committed; staged in "
                              + stage_uri(hfs, output, files) + "): " + "; ".join(problems))
        commit_uri(hfs, output, files, overwrite=overwrite)
    else:
        _commit_local(output, files, problems, overwrite)
    if state is not None:
        _save_state(state, targets, results, state_bytes, groups, opts)
    _tell(say, results, summary)
    held = summary["transactions"]["held_for_next_batch"]
    if held:
        say(f"note: {held} document{'s' if held != 1 else ''} of a transaction whose COMMIT is not in the input "
            f"{'are' if held != 1 else 'is'} kept in the state and translated by the batch that holds its COMMIT")
    seconds = time.perf_counter() - t0
    mb = sum(p.size for p in pieces) / 1e6
    records = summary["records"]
    say(f"ddlc pipeline: {records} record{'s' if records != 1 else ''} ({mb:.1f} MB) in {seconds:.1f} s: "
        f"{records / seconds:,.0f} records/s, "
        f"{mb / seconds:.1f} MB/s; " + "; ".join(
            f"{t}: {c['translated']} translated, {c['quarantined']} quarantined"
            for t, c in summary["targets"].items()))
    return summary


def _local(master: str) -> bool:
    """A master whose executors are this process's threads (their Python workers share its filesystem)."""
    return master == "local" or master.startswith("local[")


def _plan(inputs: Any, input_format: str, piece_size: int, hfs: Any) -> list[Piece]:
    from .plan import PipelineInputError

    try:
        return plan(list(inputs), input_format, piece_size, hfs, through_spark=True)
    except PipelineInputError as exc:
        raise PipelineError(str(exc)) from None


def _commit_local(output: str, files: list[tuple[str, bytes]], problems: list[str], overwrite: bool) -> None:
    from .outputs import commit, staging, write_outputs

    try:
        tmp = staging(output)
    except OSError as exc:  # the output directory went away or became a file meanwhile: nothing written
        raise PipelineError(f"output directory {output}: cannot be written: {exc.strerror or exc}; choose another "
                            "--output") from None
    names = write_outputs(tmp, files)
    if problems:
        raise CheckFailed("the counts do not add up (nothing committed; staged in " + tmp + "): "
                          + "; ".join(problems))
    commit(tmp, output, names, overwrite=overwrite)


def _creatable(output: str) -> None:
    """An output directory that does not exist must be one this run can create: its nearest existing
    ancestor a directory (``--output notes.txt/out`` is a usage error, not a failure after the work)."""
    here = os.path.abspath(output)
    while not os.path.lexists(here):
        up = os.path.dirname(here)
        if up == here:
            return
        here = up
    if here != os.path.abspath(output) and not os.path.isdir(here):
        raise PipelineError(f"output directory {output}: {here} is not a directory, so it cannot be created; "
                            "choose another --output")


SMALL_LOCAL = 1 << 30  # below this a local run costs more than ddlc translate (Spark's start-up: 15-30 s here)
SMALL_CLUSTER = 100 << 20


def _small(pieces: list[Piece], master: str | None, say: Any) -> None:
    """A note when the input is small enough for ``ddlc translate`` (docs/pipeline.md: when the pipeline pays)."""
    size = sum(p.size for p in pieces)
    local = master is None or master.startswith("local")
    if size < (SMALL_LOCAL if local else SMALL_CLUSTER):
        say(f"note: the input is {size / 1e6:,.1f} MB: `ddlc translate` reads it in one process without starting "
            "Spark (whose start-up alone takes 15-30 s); the pipeline pays off for logs of several GB, or on a "
            "cluster")


_LIBRARIES = ("pyspark", "pyarrow", "pandas", "mmh3")  # the extra ddlc[pipeline]


def _libraries() -> None:
    """A library of the extra ``ddlc[pipeline]`` that is missing: a ValueError saying what to install."""
    import importlib.util

    gone = []
    for m in _LIBRARIES:
        try:
            found = sys.modules[m] is not None if m in sys.modules else importlib.util.find_spec(m) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            gone.append(m)
    if gone:
        raise ValueError(f"the pipeline needs the Python {'library' if len(gone) == 1 else 'libraries'} "
                         f"{', '.join(gone)}, which {'is' if len(gone) == 1 else 'are'} not installed; install "
                         "ddlc with the extra: pip install 'ddlc[pipeline]' (and Java 17 for Spark)")


_SHOWN = 20  # error lines printed; the rest are in quarantine.parquet


def _tell(say: Any, results: list[dict[str, Any]], summary: dict[str, Any]) -> None:
    """The first errors (one line each, as ddlc translate prints them) and a replayed-input note."""
    seen: set[tuple[int, int]] = set()
    errors = []
    for r in results:
        if r["status"] == "failed":
            if r["input_error"]:
                if (r["piece"], r["seq"]) in seen:
                    continue
                seen.add((r["piece"], r["seq"]))
            errors.append(r["error"])
    for e in errors[:_SHOWN]:
        say(f"error: {e}")
    if len(errors) > _SHOWN:
        say(f"error: ... and {len(errors) - _SHOWN} more: see quarantine.parquet")
    again = max((c["already_seen"] for c in summary["targets"].values()), default=0)
    if again:
        say(f"note: replayed input: {again} document{'s' if again != 1 else ''} the state had already seen "
            f"{'were' if again != 1 else 'was'} skipped")


def _state(path: str | None, targets: list[str]) -> bytes | None:
    """The state file's bytes (checked: a newer or damaged state stops the run here), or an empty history."""
    if path is None:
        return None
    from ..state_file import History, StateError

    try:
        for t in targets:
            History.load(path, t)
        with open(path, "rb") as fh:
            return fh.read()
    except FileNotFoundError:
        return orjson.dumps(History().to_json())
    except StateError as exc:
        raise ValueError(f"{exc} [{exc.code}]") from None


def _stages(spark: Any, pieces: list[Piece], targets: list[str], opts: Any, state: bytes | None, want_state: bool,
            bar: Any, hfs: Any = None) -> tuple[list[dict[str, Any]], list[dict[str, Any]], Any]:
    from .groups import plan_groups
    from .positions import fold
    from .work import READ_SCHEMA, order_key, piece_reader, relocate_row, translate_ordered

    sc = spark.sparkContext
    rows = [asdict(p) for p in pieces]
    # a few tasks per core, each reading a run of pieces: Spark's cost per task is paid per task
    tasks = max(1, min(len(rows), _TASKS_PER_CORE * sc.defaultParallelism))
    # one job: the counts, the lines of no kind, and the documents themselves while they are few (each task
    # hands out up to its share of _DIRECT_BYTES; past it, documents come out without their bytes)
    through = any(p.uri for p in pieces)  # read by Spark (.remote): one task per piece
    split = max((p.split for p in pieces), default=0) or PIECE_SIZE
    if through:
        from . import remote

        tasks = len(rows)
    share = _DIRECT_BYTES // tasks if _DIRECT_BYTES >= 0 else -1
    sc.setJobDescription("ddlc pipeline: stage 1, read")  # (the Spark UI's name for the job)
    if through:
        with remote.splits(spark, split):
            meta = remote.frame(spark, pieces).mapInArrow(bar.reader(remote.reader(rows, opts, share)),
                                                          READ_SCHEMA).toArrow().to_pylist()
        meta = remote.complete_counts(meta, pieces)
    else:
        meta = _read(sc, len(rows), tasks, bar.reader(piece_reader(rows, opts, share)))
    side = [r for r in meta if r["kind"] not in ("doc", "mark")]
    keyed = [r for r in meta if r["kind"] == "doc"]
    marks = [r for r in meta if r["kind"] == "mark"]
    del meta
    # stage 1 read every piece from line 1: each piece's first line, from the newlines of those before it
    lined = with_lines(pieces, {r["piece"]: r["lines"] for r in side if r["kind"] == "count" and r["lines"]})
    first_lines = {p.piece: p.line for p in lined if p.line != 1}
    side = [relocate_row(r, first_lines.get(r["piece"], 1)) for r in side]
    spans = {r["piece"]: r["span"] or 0 for r in side if r["kind"] == "count"}
    offsets = remote.first_offsets(pieces, spans) if through else {}
    if offsets:
        side = remote.relocate_offsets(side, offsets)
    history = _history_of(state, targets[0]) if state is not None else None
    # transactions across pieces and inputs: positions, decoding order, documents held (the CLI's fold)
    folded = fold(keyed, marks, history.held if history is not None else None, keep=want_state)
    reread = (lambda p: remote.piece_bytes(hfs, p, offsets, spans)) if through else None
    held = _held_documents(keyed, folded, rows, opts, reread)
    keyed = _ranked(keyed, folded, opts)
    groups = plan_groups([relocate_row(r, first_lines.get(r["piece"], 1)) for r in keyed], sc.defaultParallelism,
                         history)  # (keyed stays as stage 1 read it: stage 2 moves the lines of what it reads)
    groups = replace(groups, held=held, folded=folded)
    translate = translate_ordered(opts, state, want_state, groups.owned, first_lines)
    sc.setJobDescription("ddlc pipeline: stage 2, translate")
    if all(r["doc"] is not None for r in keyed):
        results = _direct(sc, keyed, targets, groups, translate)
    else:  # too many to pass through the driver: stage 1 again, its documents shuffled to their tasks
        injected = [r for r in keyed if r["piece"] < 0]
        del keyed
        if through:
            with remote.splits(spark, split):
                read = remote.frame(spark, pieces).mapInArrow(remote.reader(rows, opts), READ_SCHEMA)
                results = _shuffled(spark, read, targets, groups, translate, folded, injected)
        else:
            read = spark.range(len(rows), numPartitions=tasks).mapInArrow(piece_reader(rows, opts), READ_SCHEMA)
            results = _shuffled(spark, read, targets, groups, translate, folded, injected)
    sc.setJobDescription(None)
    rank = {t: i for i, t in enumerate(targets)}
    results.sort(key=lambda r: (rank[r["target"]], r["status"] == "state", *order_key(r)))
    side.sort(key=lambda r: (r["piece"], r["kind"] != "count", r["line"] or 0, r["offset"] or 0))
    return side, results, groups


def _read(sc: Any, n: int, tasks: int, reader: Any) -> list[dict[str, Any]]:
    """Stage 1: pieces ``0..n-1`` in ``tasks`` runs, each task's :data:`.work.READ_SCHEMA` batches from
    ``reader`` (a mapInArrow function over the pieces' ids) collected as one Arrow table.

    An RDD of Arrow tables rather than mapInArrow over ``spark.range``: the JVM only passes the tables'
    bytes along, where mapInArrow had it turn every batch into Spark rows and back (~0.4 CPU-s of a
    400 MB run, taken from the Python workers' cores)."""
    import pyarrow as pa

    from .work import READ_SCHEMA, arrow_schema

    schema = arrow_schema(READ_SCHEMA)

    def task(ids: Any) -> Any:
        import pyarrow as pa

        batch = pa.RecordBatch.from_pydict({"id": pa.array(list(ids), pa.int64())})
        yield pa.Table.from_batches(list(reader([batch])), schema=schema)

    parts = sc.parallelize(range(n), tasks).mapPartitions(task).collect()
    return pa.concat_tables(parts).to_pylist() if parts else []


_DIRECT_BYTES = 64 << 20  # documents of up to this many (pickled) bytes go through the driver to stage 2
# (-1: never, which the tests use to run the shuffle)


def _direct(sc: Any, keyed: list[dict[str, Any]], targets: list[str], groups: Any,
            translate: Any) -> list[dict[str, Any]]:
    """Stage 2 when the documents are few enough to pass through the driver (a log's DDL is ~1 % of
    it): stage 1 handed them out with its counts; they are put in log order per (target, bucket) here,
    and each bucket is one task of an RDD of Arrow tables, translated by the same function as
    :func:`_shuffled`'s. No cache, join, shuffle or sort in Spark (~0.5 s of a run on two cores)."""
    import pyarrow as pa

    from .work import TRANSLATE_SCHEMA, arrow_schema, order_key

    keyed = sorted(keyed, key=order_key)
    columns = ("piece", "seq", "file", "lsn_hi", "lsn_lo", "lsn", "xid", "source", "line", "label", "payload", "doc",
               "fail", "ir")
    per: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for ti, t in enumerate(targets):
        for r in keyed:
            key = (r["piece"], r["seq"])
            b = groups.bucket[key]
            row = {c: r[c] for c in columns}
            row.update(target=t, bucket=b, seen=key in groups.seen)
            per.setdefault((ti, b), []).append(row)
    schema = arrow_schema(_BUCKET_SCHEMA)
    tables = [pa.Table.from_pylist(per[k], schema=schema) for k in sorted(per)]
    if not tables:
        return []
    out_schema = arrow_schema(TRANSLATE_SCHEMA)

    def run(items: Any) -> Any:
        for table in items:
            yield from (pa.Table.from_batches([b], schema=out_schema) for b in translate(table.to_batches()))

    parts = sc.parallelize(tables, len(tables)).mapPartitions(run).collect()
    return pa.concat_tables(parts).to_pylist() if parts else []


_BUCKET_SCHEMA = ("piece int, seq long, file int, lsn_hi long, lsn_lo long, lsn string, xid long, source string, "
                  "line long, label string, payload binary, target string, bucket int, seen boolean, doc binary, "
                  "fail binary, ir binary")


def _shuffled(spark: Any, read: Any, targets: list[str], groups: Any, translate: Any, folded: Any,
              injected: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Stage 2 for documents too many to pass through the driver: the (target, bucket) of each joined
    to it in Spark with its rank in decoding order, one partition per (target, bucket), sorted there."""
    import pickle

    from pyspark.sql import functions as F

    from .groups import part_key
    from .work import TRANSLATE_SCHEMA

    n = len(targets) * groups.buckets
    keys = [part_key(i, n) for i in range(n)]
    fails = {k: pickle.dumps(e) for k, e in folded.failed.items()}
    assign = [(t, piece, seq, b, keys[ti * groups.buckets + b], (piece, seq) in groups.seen,
               folded.rank[(piece, seq)], fails.get((piece, seq)))
              for ti, t in enumerate(targets) for (piece, seq), b in groups.bucket.items()]
    adf = spark.createDataFrame(assign, "target string, piece int, seq long, bucket int, part int, seen boolean, "
                                        "lsn_hi long, fail binary")
    cols = ("piece", "seq", "file", "lsn", "xid", "source", "line", "label", "doc", "payload", "ir")
    docs = read.filter(F.col("kind") == "doc").select(*cols)
    if injected:  # the documents of a transaction the state held: no stage-1 row of their own
        docs = docs.unionByName(spark.createDataFrame([{c: r[c] for c in cols} for r in injected],
                                                      docs.schema))
    ordered = (docs.join(F.broadcast(adf), ["piece", "seq"]).withColumn("lsn_lo", F.lit(0).cast("long"))
               .repartition(n, "part").sortWithinPartitions("part", "lsn_hi", "lsn_lo", "file", "piece", "seq"))
    return ordered.mapInArrow(translate, TRANSLATE_SCHEMA).toArrow().to_pylist()


def _ranked(keyed: list[dict[str, Any]], folded: Any, opts: Any) -> list[dict[str, Any]]:
    """The documents the fold handed out, each with its rank in decoding order (as ``lsn_hi``: the order
    key), its position, and the error the fold gave it; and the state's held ones, now committed."""
    import pickle

    from ..frontend.streams_rows import format_lsn
    from .groups import links_of
    from .work import portable

    out = []
    for r in keyed:
        key = (r["piece"], r["seq"])
        rank = folded.rank.get(key)
        if rank is None:  # held for the next batch, or its transaction ended in ABORT
            continue
        fail = folded.failed.get(key)
        out.append(r | {"lsn_hi": rank, "lsn_lo": 0, "position": folded.position[key],
                        "fail": pickle.dumps(fail) if fail is not None else None})
    for (piece, seq), doc in folded.injected:
        rank = folded.rank[(piece, seq)]
        out.append({"kind": "doc", "piece": piece, "seq": seq, "file": -1, "lsn_hi": rank, "lsn_lo": 0,
                    "lsn": format_lsn(doc.lsn) if doc.lsn is not None else None, "xid": doc.xid,
                    "source": doc.source, "line": doc.line, "label": doc.label, "offset": None,
                    "doc": pickle.dumps(portable(doc)), "payload": None, "links": links_of(doc, opts),
                    "position": doc.position, "fail": None, "ir": None})
    return out


def _held_documents(keyed: list[dict[str, Any]], folded: Any, rows: list[dict[str, Any]], opts: Any,
                    reread: Any = None) -> Any:
    """The documents of the transaction the run ended inside of, for the state: ``(xid, documents)``."""
    if not folded.open_at_end:
        return None
    import pickle

    from .work import read_piece

    want = set(folded.held)
    got = {(r["piece"], r["seq"]): r["doc"] for r in keyed if (r["piece"], r["seq"]) in want}
    missing = {p for (p, s), d in got.items() if d is None}
    for p in sorted(missing):  # (the shuffle path: stage 1 handed these out without their bytes)
        piece = Piece(**rows[p])
        for r in read_piece(piece, None, reread(piece) if reread is not None else None):
            if r["kind"] == "doc" and (p, r["seq"]) in want:
                got[(p, r["seq"])] = r["doc"]
    return folded.held_xid, [pickle.loads(got[k]) for k in folded.held]


def _balanced(pieces: list[Piece], piece_size: int, tasks: int) -> int:
    """A piece size no larger than ``piece_size`` that cuts the inputs into a multiple of ``tasks``
    pieces of near-equal size, so that stage 1's tasks read equal shares (13 pieces over 4 tasks left
    one core reading 7 while the other read 6). Where pieces end changes no output: records are
    ordered by file, then offset."""
    cut = sum(p.size for p in pieces if not p.whole)
    if not cut or tasks <= 1:
        return piece_size
    rounds = -(-cut // (tasks * piece_size))
    return min(piece_size, -(-cut // (tasks * rounds)) + 1)


_TASKS_PER_CORE = 2  # stage 1: enough tasks to even out pieces of unequal cost, few enough to pay little per task


def _history_of(state: bytes, target: str) -> Any:
    from ..state_file import History

    return History.from_json(orjson.loads(state), "<state>", target)


def _summary(pieces: list[Piece], targets: list[str], side: list[dict[str, Any]], results: list[dict[str, Any]],
             inputs: Any, folded: Any = None) -> dict[str, Any]:
    counts = [s for s in side if s["kind"] == "count"]
    total = {k: sum(c[k] for c in counts) for k in ("records", "documents", "dml", "rolled_back", "unrecognised",
                                                       "bytes")}
    # transactions (.positions): documents held for the next batch, dropped with their ABORT, or taken
    # from the state (read by an earlier batch, committed in this one)
    held, injected = len(folded.held) if folded else 0, len(folded.injected) if folded else 0
    total["rolled_back"] += folded.dropped if folded else 0
    total["documents"] += injected - held - (folded.dropped if folded else 0)
    files: dict[str, dict[str, Any]] = {}
    for p in pieces:
        f = files.setdefault(p.path, {"path": p.path, "form": p.kind, "bytes": 0})
        f["bytes"] += p.size
    per: dict[str, dict[str, Any]] = {}
    input_errors = {(r["piece"], r["seq"]) for r in results if r["status"] == "failed" and r["input_error"]}
    for t in targets:
        rs = [r for r in results if r["target"] == t and r["status"] != "state"]
        c = {s: sum(1 for r in rs if r["status"] == s) for s in ("translated", "failed", "filtered", "replayed")}
        per[t] = {
            "documents": len(rs), "translated": c["translated"], "quarantined": c["failed"],
            "filtered": c["filtered"], "already_seen": c["replayed"],
            "statements": sum(len(r["statements"] or ()) for r in rs if r["status"] == "translated"),
            "not_translated": sum(r["untranslated"] or 0 for r in rs),
            "check": (f"{total['records']} records = {c['translated']} translated + {c['failed']} quarantined + "
                      f"{c['filtered']} filtered + {c['replayed'] + total['dml'] + total['rolled_back']} skipped + "
                      f"{total['unrecognised']} unrecognised + {held} held - {injected} from the state"),
        }
    return {
        "format": SUMMARY_FORMAT, "version": 1, "ddlc": __version__,
        "inputs": list(files.values()), "targets": per,
        "records": total["records"], "bytes": total["bytes"], "documents": total["documents"],
        "input_errors": len(input_errors),
        "skipped": {"dml_and_transaction_rows": total["dml"], "rolled_back_ddl": total["rolled_back"]},
        "transactions": {"held_for_next_batch": held, "from_state": injected},
        "unrecognised": total["unrecognised"], "outputs": [f"{t}.sql" for t in targets] + [
            "results.parquet", "quarantine.parquet"],
    }


def _check(summary: dict[str, Any]) -> list[str]:
    """Every record read is in exactly one place, for every target."""
    problems = []
    n = summary["records"]
    sk = summary["skipped"]
    for t, c in summary["targets"].items():
        if c["documents"] != summary["documents"]:
            problems.append(f"{t}: {c['documents']} documents translated, {summary['documents']} read")
        tx = summary["transactions"]
        got = (c["translated"] + c["quarantined"] + c["filtered"] + c["already_seen"] + sk["dml_and_transaction_rows"]
               + sk["rolled_back_ddl"] + summary["unrecognised"] + tx["held_for_next_batch"] - tx["from_state"])
        if got != n:
            problems.append(f"{t}: {n} records read but {got} accounted for ({c['check']})")
    return problems


def _save_state(path: str, targets: list[str], results: list[dict[str, Any]], state: bytes | None, groups: Any,
                opts: Any) -> None:
    """The history after the run: the position :func:`.groups.plan_groups` replayed, and per target the
    catalog loaded with each bucket's schemas replaced by what its task left."""
    from .groups import merge_catalogs

    default = getattr(opts, "default_schema", "public")
    parts: dict[str, list[Any]] = {t: [] for t in targets}
    for r in results:
        if r["status"] == "state":
            d = orjson.loads(r["state"])
            parts[r["target"]].append((groups.owned[d["bucket"]], d["catalog"]))
    catalogs = {}
    for t in targets:
        loaded = _history_of(state, t).catalog if state else None
        catalogs[t] = merge_catalogs(loaded, parts[t], default)
    history = _history_of(state, targets[0]) if state else None
    from ..state_file import History

    history = history or History()
    if groups.position is not None:
        history.last, history.xid = groups.position
    history.held = groups.held
    history.save(path, catalogs)
