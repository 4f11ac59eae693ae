"""``--input`` and ``--output`` at URIs, through Spark's Hadoop filesystem layer (issue 23, item 1).

No HDFS or S3 here, so the proof uses what Hadoop has in the JVM without jars: ``viewfs://`` (Hadoop's
mount-table filesystem: a path Python's ``open()`` cannot even name, resolved by the JVM to a local
directory) and ``file://`` URIs. Every input form gives the same outputs through a URI as from a plain
path (the plain path's outputs are ``ddlc translate``'s: tests/test_pipeline.py), with the executors'
Python forbidden to open anything under the inputs' directory (an audit hook in each worker fails the
run if one does). The URI commit writes no file twice and renames nothing (object stores have no
atomic rename): ``summary.json`` is removed first and written last; killed after any step, the
directory holds the earlier run whole or no summary, and the same run again completes it.
"""

from __future__ import annotations

import re
import subprocess
import sys
import uuid
from pathlib import Path

import orjson
import pyarrow.parquet as pq
import pytest

from ddlc.pipeline import outputs_fs, remote
from ddlc.pipeline.fs import HadoopFS
from ddlc.pipeline.outputs import SUMMARY, OutputRefused
from ddlc.pipeline.run import PipelineError, SUMMARY_FORMAT, run
from test_pipeline import LOGS, TARGETS, corrupt_jsonl, log_rows, rows_csv, rows_jsonl

NAMES = ("postgres.sql", "spark.sql", "gaussdb.sql", "results.parquet", "quarantine.parquet", SUMMARY)


@pytest.fixture()
def viewfs(spark, tmp_path, monkeypatch):
    """``viewfs://<unique>/data`` mounted on ``tmp_path/root`` in the test session's Hadoop configuration;
    the executors' Python may open nothing under it."""
    root = tmp_path / "root"
    root.mkdir()
    auth = "ddlc" + uuid.uuid4().hex[:8]  # (Hadoop caches a filesystem per authority)
    spark.session.sparkContext._jsc.hadoopConfiguration().set(f"fs.viewfs.mounttable.{auth}.link./data",
                                                              root.as_uri())
    monkeypatch.setattr(remote, "GUARD", str(root))
    return root, f"viewfs://{auth}/data"


def local_view(d: Path) -> dict[str, object]:
    """A run's outputs as comparable values: the SQL's bytes, the Parquet files' rows, the summary."""
    out: dict[str, object] = {}
    for n in NAMES:
        p = d / n
        if not p.exists():
            continue
        if n.endswith(".parquet"):
            out[n] = pq.read_table(p).to_pylist()
        elif n == SUMMARY:
            out[n] = orjson.loads(p.read_bytes())
        else:
            out[n] = p.read_bytes()
    return out


def renamed(value: object, old: str, new: str) -> object:
    """``value`` with every string's ``old`` replaced by ``new`` (labels name the input as given)."""
    if isinstance(value, str):
        return value.replace(old, new)
    if isinstance(value, list):
        return [renamed(v, old, new) for v in value]
    if isinstance(value, dict):
        return {k: renamed(v, old, new) for k, v in value.items()}
    return value


def quiet(_: str) -> None:
    pass


@pytest.mark.parametrize("name", list(LOGS))
def test_every_form_through_a_uri_gives_the_plain_paths_outputs(spark, viewfs, tmp_path, name):
    root, uri = viewfs
    (root / name).write_bytes(LOGS[name]())
    run([str(root / name)], str(tmp_path / "plain"), TARGETS, spark=spark.session, piece_size=2048, report=quiet)
    run([f"{uri}/{name}"], f"{uri}/out", TARGETS, spark=spark.session, piece_size=2048, report=quiet)
    plain, via = local_view(tmp_path / "plain"), local_view(root / "out")
    assert sorted(plain) == sorted(via) == sorted(NAMES)
    for t in TARGETS:
        assert via[f"{t}.sql"] == plain[f"{t}.sql"]  # byte for byte
    assert renamed(via, f"{uri}/{name}", str(root / name)) == plain
    # Spark reads the Parquet outputs where they are
    assert spark.session.read.parquet(f"{uri}/out/results.parquet").count() == len(plain["results.parquet"])
    # only ddlc's files (and the checksum files Hadoop's local filesystem keeps beside them)
    assert {p.name for p in (root / "out").iterdir()} - {f".{n}.crc" for n in NAMES} == set(NAMES)


def test_a_directory_at_a_file_uri_in_pieces_cut_by_spark(spark, tmp_path, monkeypatch):
    """A directory of inputs at a ``file://`` URI: a JSON lines file cut into byte ranges (lines moved to
    their place in the file), a CSV read whole; the same outputs as the plain directory, at any piece size."""
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "a.jsonl").write_bytes(corrupt_jsonl(rows_jsonl(log_rows(3))))
    (logs / "b.csv").write_bytes(rows_csv(log_rows(1)))
    (logs / "c.jsonl").write_bytes(b"\xef\xbb\xbf" + rows_jsonl(log_rows(2)))  # (Hadoop skips the BOM)
    (logs / ".hidden").write_bytes(b"not an input")
    monkeypatch.setattr(remote, "GUARD", str(logs))
    run([str(logs)], str(tmp_path / "plain"), TARGETS, spark=spark.session, piece_size=1500, report=quiet)
    plain = local_view(tmp_path / "plain")
    for size in (700, 1500, 1 << 20):
        out = tmp_path / f"uri{size}"
        s = run([logs.as_uri()], out.as_uri(), TARGETS, spark=spark.session, piece_size=size, report=quiet)
        via = local_view(out)
        assert s["inputs"] == [{"path": (logs / n).as_uri().replace("file:///", "file:/"), "form": form,
                                "bytes": (logs / n).stat().st_size}
                               for n, form in (("a.jsonl", "rows_json"), ("b.csv", "rows_csv"), ("c.jsonl", "rows_json"))]
        for n in ("a.jsonl", "b.csv", "c.jsonl"):
            via = renamed(via, (logs / n).as_uri().replace("file:///", "file:/"), str(logs / n))
        assert via == plain, size
    q = pq.read_table(tmp_path / "uri700" / "quarantine.parquet").to_pylist()
    assert [r["line"] for r in q if r["reason"] == "error" and r["target"] is None] == [8, 13]
    unknown = [r for r in q if r["reason"] == "unrecognised"]
    plain_q = pq.read_table(tmp_path / "plain" / "quarantine.parquet").to_pylist()
    assert [r["offset"] for r in unknown] == [r["offset"] for r in plain_q if r["reason"] == "unrecognised"]
    # the byte offsets are ddlc translate's (counted after a byte order mark), in every piece
    said = subprocess.run([sys.executable, "-m", "ddlc", "translate", "-v", "--to", "postgres",
                           *(str(logs / n) for n in ("a.jsonl", "b.csv", "c.jsonl"))], capture_output=True, text=True)
    assert sorted(re.findall(r"line not recognised \(byte (\d+)\)", said.stderr)) == \
        sorted(str(r["offset"]) for r in unknown)


def test_the_guard_fails_a_worker_that_opens_an_input(spark, tmp_path):
    """The audit hook the tests above rely on does fail a Python worker opening a file under the directory."""
    d = tmp_path / "guarded"
    d.mkdir()
    (d / "log").write_bytes(b"x")
    guard, path = str(d), str(d / "log")

    def task(_):
        remote._forbid_open(guard)
        with open(path, "rb") as fh:
            yield fh.read()

    with pytest.raises(Exception, match="an executor opened"):
        spark.session.sparkContext.parallelize([0], 1).mapPartitions(task).collect()


def test_missing_and_unreachable_uris_are_usage_errors(spark, viewfs, tmp_path):
    root, uri = viewfs
    with pytest.raises(PipelineError, match="no such file or directory"):
        run([f"{uri}/nothing.jsonl"], str(tmp_path / "o"), ["postgres"], spark=spark.session, report=quiet)
    with pytest.raises(PipelineError, match="nosuchscheme"):
        run(["nosuchscheme://x/log"], str(tmp_path / "o"), ["postgres"], spark=spark.session, report=quiet)
    (root / "log.jsonl").write_bytes(rows_jsonl(log_rows(1)))
    (root / "out").mkdir()
    (root / "out" / "notes.txt").write_text("mine")
    with pytest.raises(OutputRefused, match="notes.txt"):
        run([f"{uri}/log.jsonl"], f"{uri}/out", ["postgres"], spark=spark.session, report=quiet, overwrite=True)
    assert (root / "out" / "notes.txt").read_text() == "mine"
    run([f"{uri}/log.jsonl"], f"{uri}/done", ["postgres"], spark=spark.session, report=quiet)
    with pytest.raises(OutputRefused, match="committed run"):
        run([f"{uri}/log.jsonl"], f"{uri}/done", ["postgres"], spark=spark.session, report=quiet)


# ---- the commit without rename ---------------------------------------------------------------------------------
class Recorder:
    """A :class:`HadoopFS` that records the operations asked of it."""

    def __init__(self, fs: HadoopFS) -> None:
        self.fs, self.ops = fs, []

    def __getattr__(self, name):
        method = getattr(self.fs, name)

        def call(*args, **kw):
            self.ops.append((name, *(a.rpartition("/")[2] for a in args if isinstance(a, str))))
            return method(*args, **kw)

        return call


def files_of(tag: str, targets: list[str]) -> list[tuple[str, bytes]]:
    names = [f"{t}.sql" for t in targets] + ["results.parquet", "quarantine.parquet"]
    summary = orjson.dumps({"format": SUMMARY_FORMAT, "version": 1, "outputs": names, "tag": tag})
    return [(n, f"{tag}:{n}\n".encode()) for n in names] + [(SUMMARY, summary)]


def whole_or_unfinished(out: Path) -> str | None:
    """The tag of the committed set in ``out`` (checked whole), or None: no summary (an unfinished run)."""
    if not (out / SUMMARY).exists():
        return None
    summary = orjson.loads((out / SUMMARY).read_bytes())
    present = {p.name for p in out.iterdir() if not p.name.startswith(".")}
    assert present == {*summary["outputs"], SUMMARY}
    for n in summary["outputs"]:
        assert (out / n).read_bytes() == f"{summary['tag']}:{n}\n".encode()
    return summary["tag"]


def test_the_uri_commit_writes_the_summary_last_and_renames_nothing(spark, viewfs):
    root, uri = viewfs
    fs = Recorder(HadoopFS(spark.session))
    outputs_fs.commit_uri(fs, f"{uri}/out", files_of("a", ["postgres", "spark"]))
    writes = [op for op in fs.ops if op[0] in ("write", "delete", "rename")]
    assert writes == [("write", "postgres.sql"), ("write", "spark.sql"), ("write", "results.parquet"),
                      ("write", "quarantine.parquet"), ("write", SUMMARY)]
    fs.ops.clear()
    outputs_fs.commit_uri(fs, f"{uri}/out", files_of("b", ["postgres"]), overwrite=True)
    writes = [op for op in fs.ops if op[0] in ("write", "delete", "rename")]
    assert writes == [("delete", SUMMARY), ("write", "postgres.sql"), ("write", "results.parquet"),
                      ("write", "quarantine.parquet"), ("delete", "spark.sql"), ("write", SUMMARY)]
    assert whole_or_unfinished(root / "out") == "b"


class Killed(Exception):
    pass


def test_killed_after_any_step_of_the_uri_commit_the_old_set_is_whole_or_a_rerun_completes(spark, viewfs,
                                                                                           monkeypatch):
    root, uri = viewfs
    fs = HadoopFS(spark.session)
    old, new = files_of("old", ["postgres", "spark"]), files_of("new", ["postgres"])
    outputs_fs.commit_uri(fs, f"{uri}/ref", old)
    steps = len(outputs_fs.commit_steps_uri(fs, f"{uri}/ref", [n for n, _ in new]))
    assert steps == 6  # old summary, three new files, the old spark.sql, the new summary
    for n in range(steps + 1):
        out = f"{uri}/out{n}"
        outputs_fs.commit_uri(fs, out, old)

        def crash(done: int, n: int = n) -> None:
            if done == n:
                raise Killed

        monkeypatch.setattr(outputs_fs, "_after_step", crash)
        try:
            outputs_fs.commit_uri(fs, out, new, overwrite=True)
        except Killed:
            pass
        monkeypatch.undo()
        monkeypatch.setattr(remote, "GUARD", str(root))
        tag = whole_or_unfinished(root / f"out{n}")
        assert tag == ("old" if n == 0 else "new" if n == steps else None), n
        if tag is None:  # an unfinished run: the same run again, without --overwrite, completes it
            outputs_fs.commit_uri(fs, out, new)
            assert whole_or_unfinished(root / f"out{n}") == "new"

