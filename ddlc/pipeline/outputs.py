"""What a pipeline run leaves under its output directory, written so that it is whole or absent.

``<target>.sql`` per target (the statements in log order, exactly what ``ddlc translate`` prints),
``results.parquet`` (one row per document and target), ``quarantine.parquet`` (every record that
failed, with its original payload and position, and every line of no known kind) and
``summary.json`` (counts, the check that every record is accounted for, and the list of the other
files: the committed set).

**Which directory a run may write into** (:func:`check_output`, before any Spark work, and again at
the commit): one that does not exist, is empty, or holds only an unfinished run's leftovers (ddlc's
``.ddlc-tmp-*`` staging directories, ddlc's output files without a ``summary.json``: a run killed
before its commit ended; running again completes it). A ``summary.json`` (a committed run) is
refused unless ``overwrite`` (``--overwrite``), as Spark's ``ErrorIfExists``; a file or directory
ddlc does not write is refused even with ``overwrite``: ddlc never removes what it did not write.

**The commit** (:func:`commit`): everything is first written to a fresh ``.ddlc-tmp-*`` directory
inside the output directory; the commit then removes the old ``summary.json``, moves each new file
into place (``os.replace``, atomic per file), removes the ddlc files of an earlier run that this run
does not write (``spark.sql`` when the new run is ``--to postgres``) and moves ``summary.json`` in
last, with the directory synced between those steps. A run killed at any point leaves either the
earlier committed set whole (killed before its first step) or no ``summary.json`` (an unfinished
run: run it again); since the outputs depend only on the inputs (and the state given), running
again gives the same bytes. After a commit the directory holds exactly the new run's files.
"""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
from typing import Any

import orjson

from ..backends import BACKENDS
from .errors import SUMMARY_FORMAT, PipelineError

__all__ = ["write_outputs", "render_outputs", "commit", "commit_steps", "check_output", "staging", "ddlc_files", "OutputRefused",
           "SUMMARY"]

SUMMARY = "summary.json"
RESULTS = "results.parquet"
QUARANTINE = "quarantine.parquet"
TMP_PREFIX = ".ddlc-tmp-"


class OutputRefused(PipelineError):
    """The output directory holds what this run must not replace (a committed run without ``overwrite``,
    or files ddlc did not write): nothing was written."""


def ddlc_files() -> frozenset[str]:
    """Every file name a run may write into its output directory."""
    return frozenset([f"{t}.sql" for t in BACKENDS] + [RESULTS, QUARANTINE, SUMMARY])


def _listed(names: list[str], most: int = 6) -> str:
    shown = ", ".join(names[:most])
    return shown + (f" and {len(names) - most} more" if len(names) > most else "")


def _is_summary(path: str) -> bool:
    """``path`` is a summary a ddlc pipeline run wrote (a file of ours, whatever its version)."""
    try:
        with open(path, "rb") as fh:
            doc = orjson.loads(fh.read())
    except (OSError, orjson.JSONDecodeError):
        return False
    return isinstance(doc, dict) and doc.get("format") == SUMMARY_FORMAT


def check_output(output: str, overwrite: bool = False, staging: str | None = None) -> None:
    """Raise :class:`OutputRefused` unless a run may commit into ``output`` (see the module's text).

    ``staging``: this run's own staging directory (at the commit), which is not a left-over."""
    if not os.path.lexists(output):
        return
    if not os.path.isdir(output):
        raise OutputRefused(f"output directory {output}: exists and is not a directory; choose another --output")
    ours = ddlc_files()
    committed: list[str] = []
    foreign: list[str] = []
    with os.scandir(output) as it:
        entries = sorted(it, key=lambda e: e.name)
    for e in entries:
        if staging is not None and os.path.abspath(e.path) == os.path.abspath(staging):
            continue
        if e.name.startswith(TMP_PREFIX) and e.is_dir(follow_symlinks=False):
            continue  # a staging directory of a killed run (removed by the next staging)
        if e.name in ours and e.is_file(follow_symlinks=False):
            if e.name == SUMMARY and not _is_summary(e.path):
                foreign.append(f"{SUMMARY} (not a ddlc pipeline summary)")
            else:
                committed.append(e.name)
        else:
            foreign.append(e.name + ("/" if e.is_dir(follow_symlinks=False) else ""))
    refuse(output, foreign, committed, overwrite)


def refuse(output: str, foreign: list[str], committed: list[str], overwrite: bool) -> None:
    """Refuse an output directory (a local one or one at a URI) that holds what no run of the pipeline wrote,
    or a committed run's outputs without ``--overwrite``."""
    if foreign:
        raise OutputRefused(f"output directory {output}: holds files that are not a pipeline run's outputs "
                            f"({_listed(foreign)}); choose another --output (ddlc never removes files it did "
                            "not write, not even with --overwrite)")
    if SUMMARY in committed and not overwrite:
        committed.remove(SUMMARY)
        raise OutputRefused(f"output directory {output}: holds the outputs of a committed run "
                            f"({_listed([SUMMARY, *committed])}); pass --overwrite to replace them, "
                            "or choose another --output")


def staging(output: str) -> str:
    """A fresh staging directory inside ``output`` (left-overs of killed runs removed first)."""
    os.makedirs(output, exist_ok=True)
    for name in os.listdir(output):
        if name.startswith(TMP_PREFIX):
            shutil.rmtree(os.path.join(output, name), ignore_errors=True)
    return tempfile.mkdtemp(prefix=TMP_PREFIX, dir=output)


def _diagnostics(text: str | None) -> list[dict[str, Any]]:
    if not text:
        return []
    return [{"code": d.get("code"), "severity": d.get("severity"), "message": d.get("message"),
             "path": d.get("path")} for d in orjson.loads(text)]


def write_outputs(tmp: str, files: list[tuple[str, bytes]]) -> list[str]:
    """Write the files :func:`render_outputs` made into ``tmp``; returns their names, ``summary.json`` last."""
    for name, data in files:
        with open(os.path.join(tmp, name), "wb") as fh:
            fh.write(data)
    return [name for name, _ in files]


def render_outputs(targets: list[str], results: list[dict[str, Any]], side: list[dict[str, Any]],
                   summary: dict[str, Any]) -> list[tuple[str, bytes]]:
    """Every output file as (name, bytes), ``summary.json`` last."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    files: list[tuple[str, bytes]] = []
    for t in targets:
        sql = "".join(r["sql"] or "" for r in results
                      if r["target"] == t and r["status"] in ("translated", "failed"))
        files.append((f"{t}.sql", sql.encode("utf-8")))
    diag = pa.struct([("code", pa.string()), ("severity", pa.string()), ("message", pa.string()),
                      ("path", pa.string())])
    schema = pa.schema([("lsn", pa.string()), ("xid", pa.int64()), ("source", pa.string()), ("line", pa.int64()),
                        ("document", pa.string()), ("target", pa.string()), ("status", pa.string()),
                        ("object", pa.string()), ("kind", pa.string()), ("owner", pa.string()),
                        ("sql", pa.string()), ("statements", pa.list_(pa.string())),
                        ("diagnostics", pa.list_(diag)), ("error_code", pa.string()), ("error", pa.string()),
                        ("filtered", pa.string())])
    rows = [{"lsn": r["lsn"], "xid": r["xid"], "source": r["source"], "line": r["line"], "document": r["label"],
             "target": r["target"], "status": r["status"], "object": r.get("object"), "kind": r.get("kind"),
             "owner": r.get("owner"), "sql": r.get("sql"), "statements": r.get("statements"),
             "diagnostics": _diagnostics(r.get("diagnostics")), "error_code": r.get("error_code"),
             "error": r.get("error"), "filtered": r.get("filtered")} for r in results if r["status"] != "state"]
    files.append((RESULTS, _parquet(pa, pq, pa.Table.from_pylist(rows, schema=schema))))
    qschema = pa.schema([("reason", pa.string()), ("target", pa.string()), ("source", pa.string()),
                         ("line", pa.int64()), ("offset", pa.int64()), ("document", pa.string()), ("lsn", pa.string()),
                         ("xid", pa.int64()), ("code", pa.string()), ("error", pa.string()), ("payload", pa.binary())])
    quarantine = []
    seen_input_errors: set[tuple[int, int]] = set()
    for r in results:
        if r["status"] != "failed":
            continue
        if r["input_error"]:  # the document itself is bad: one row, whatever the targets
            if (r["piece"], r["seq"]) in seen_input_errors:
                continue
            seen_input_errors.add((r["piece"], r["seq"]))
        quarantine.append({"reason": "error", "target": None if r["input_error"] else r["target"],
                           "source": r["source"], "line": r["line"], "offset": None, "document": r["label"],
                           "lsn": r["lsn"], "xid": r["xid"], "code": r.get("error_code"), "error": r.get("error"),
                           "payload": r.get("payload")})
    for s in side:
        if s["kind"] == "unrecognised":
            quarantine.append({"reason": "unrecognised", "target": None, "source": s["source"], "line": s["line"],
                               "offset": s["offset"], "document": s["label"], "lsn": None, "xid": None,
                               "code": None, "error": "line not recognised", "payload": s["payload"]})
    files.append((QUARANTINE, _parquet(pa, pq, pa.Table.from_pylist(quarantine, schema=qschema))))
    files.append((SUMMARY, orjson.dumps(summary, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n"))
    return files


def _parquet(pa: Any, pq: Any, table: Any) -> bytes:
    # one file, no statistics that depend on anything but the rows: the same rows give the same bytes
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression="zstd", write_statistics=False, use_dictionary=False)
    return sink.getvalue().to_pybytes()


def commit_steps(output: str, names: list[str]) -> list[tuple[str, str]]:
    """The commit's steps in order, each ``("unlink", name)`` in ``output`` or ``("move", name)`` from the
    staging directory: the old summary goes first, the new files come in, the ddlc files this run does
    not write go, the new summary comes last."""
    if not names or names[-1] != SUMMARY:
        raise ValueError(f"the staged files must end with {SUMMARY}: {names}")
    steps = []
    if os.path.lexists(os.path.join(output, SUMMARY)):
        steps.append(("unlink", SUMMARY))
    steps += [("move", n) for n in names[:-1]]
    steps += [("unlink", n) for n in sorted(ddlc_files() - set(names))
              if os.path.isfile(os.path.join(output, n)) and not os.path.islink(os.path.join(output, n))]
    steps.append(("move", SUMMARY))
    return steps


def commit(tmp: str, output: str, names: list[str], overwrite: bool = False) -> None:
    """Move the staged files in ``tmp`` into ``output`` (:func:`commit_steps`), after checking again
    that ``output`` may be written (another run may have committed there meanwhile: then the staged
    files are removed and :class:`OutputRefused` is raised, nothing in ``output`` touched)."""
    try:
        check_output(output, overwrite, staging=tmp)
    except OutputRefused:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    steps = commit_steps(output, names)
    for name in names:  # the staged bytes on disk before any of them is in place
        with open(os.path.join(tmp, name), "rb") as fh:
            os.fsync(fh.fileno())
    _after_step(0)
    for n, (op, name) in enumerate(steps, 1):
        if op == "unlink":
            os.unlink(os.path.join(output, name))
        else:
            os.replace(os.path.join(tmp, name), os.path.join(output, name))
        if n == 1 or n >= len(steps) - 1:
            # the old summary's removal is durable before any new file lands, every file before the
            # new summary, and the new summary before the run reports success
            _sync_dir(output)
        _after_step(n)
    shutil.rmtree(tmp, ignore_errors=True)


def _sync_dir(path: str) -> None:
    if not hasattr(os, "O_DIRECTORY"):  # (Windows: directories cannot be opened for fsync)
        return
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _after_step(done: int) -> None:
    """Fault injection for the kill tests: ``DDLC_PIPELINE_CRASH_AFTER=n`` kills the process (SIGKILL)
    once the commit has done its first ``n`` steps (0: before any)."""
    crash = os.environ.get("DDLC_PIPELINE_CRASH_AFTER")
    if crash is not None and done == int(crash):
        os.kill(os.getpid(), signal.SIGKILL)
