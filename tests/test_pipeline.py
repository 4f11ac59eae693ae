"""The PySpark pipeline (``ddlc pipeline run``) on a real local Spark (local[2], the test session's).

* Logs of every input form (rows as JSON lines and CSV, decoding text, batch framing) with DML in
  between, multi-line DML values, corrupt lines, unknown lines, a truncated frame: each target's
  ``.sql`` is byte for byte what ``ddlc translate`` prints for the same log, and the quarantine and
  the counts are exactly what the CLI reports (its summary line).
* The same input gives byte-identical outputs whatever the pieces and the parallelism (local[1] in a
  subprocess against local[2] here).
* A run killed mid-way (during the Spark stages, and half way through the commit) and started again
  gives the same outputs; two batches with ``--state`` give what one run over the whole log gives.
"""

from __future__ import annotations

import csv
import io
import json
import os
import pickle
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import orjson
import pyarrow.parquet as pq
import pytest

from ddlc.pipeline.run import PipelineError, run

ROOT = Path(__file__).resolve().parents[1]
STREAMS = ROOT / "fixtures" / "streams"
DDL = [json.loads(line) for line in (ROOT / "fixtures" / "sample" / "ddl.jsonl").read_text().splitlines() if line]
TARGETS = ("postgres", "spark", "gaussdb")
OUTPUTS = ("postgres.sql", "spark.sql", "gaussdb.sql", "results.parquet", "quarantine.parquet", "summary.json")
KILL_OUTPUTS = ("postgres.sql", "gaussdb.sql", "results.parquet", "quarantine.parquet", "summary.json")


def lsn(n: int) -> str:
    return f"{n >> 32:X}/{n & 0xFFFFFFFF:X}"


def log_rows(repeat: int = 3) -> list[tuple[str, int, str]]:
    """A coherent log as rows: the sample's DDL, each in its own transaction between DML rows."""
    rows, at, xid = [], 0x1000000, 700
    for r in range(repeat):
        for i, tree in enumerate(DDL):
            xid += 1
            rows.append((lsn(at), xid, f"BEGIN {xid}"))
            rows.append((lsn(at + 8), xid, json.dumps({"JDDL": tree})))
            rows.append((lsn(at + 16), xid, f"table sales.orders: INSERT: id[integer]:{i} "
                                             f"note[text]:'multi\nline {r}\nCOMMIT 5\n{{\"TDDL\": \"DROP TABLE x\"}}'"))
            rows.append((lsn(at + 24), xid, json.dumps({"table_name": "sales.orders", "op_type": "DELETE",
                                                        "columns_val": ['{"TDDL": "DROP TABLE y"}']})))
            rows.append((lsn(at + 32), xid, f"COMMIT {xid}"))
            at += 0x100
        rows.append((lsn(at), xid, "something no reader knows"))
        rows.append((lsn(at + 8), xid, json.dumps({"JDDL": {"fmt": "CREATE GADGET %{name}I", "name": f"g{r}"}})))
        at += 0x100
    return rows


def rows_jsonl(rows) -> bytes:
    return b"".join(orjson.dumps({"location": a, "xid": x, "data": d}) + b"\n" for a, x, d in rows)


def rows_csv(rows) -> bytes:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["location", "xid", "data"])
    w.writerows(rows)
    return out.getvalue().encode()


def corrupt_jsonl(data: bytes) -> bytes:
    lines = data.split(b"\n")
    lines.insert(7, b'{"location": "0/1000010", "xid": 9, "data": ')  # a broken row
    lines.insert(12, b'{"location": "0/1000020", "xid": 9, "data": "{\\"JDDL\\": {\\"fmt\\": "}')  # a broken document
    return b"\n".join(lines)


def decoding_text() -> bytes:
    td = (STREAMS / "test_decoding.txt").read_bytes()
    return (b"psql banner line\n" + td + b"message: prefix deparse, relid 1, cmdtype: Create, sz: 99 content: {\"x\n"
            + (STREAMS / "mppdb_decoding.txt").read_bytes())


def batch_framing() -> bytes:
    data = (STREAMS / "parallel_batch_json.bin").read_bytes()
    return data + b"\x00\x00\x01\x00\x00\x00"  # a frame cut short


def cli(target: str, path: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ddlc", "translate", "--to", target, *extra, str(path)],
                          capture_output=True)


def summary_line(p: subprocess.CompletedProcess) -> dict[str, int]:
    line = p.stderr.decode().rstrip().splitlines()[-1]
    # "1 error" / "2 errors": keys in the singular
    return {re.sub(r"s\b", "", m[2], count=1): int(m[1]) for m in re.finditer(r"(\d+) ([a-zA-Z/ -]+?)(?:,|$)", line)}


def outputs(d: Path, names: tuple[str, ...] = OUTPUTS) -> dict[str, bytes]:
    return {n: (d / n).read_bytes() for n in names}


LOGS = {
    "rows.jsonl": lambda: corrupt_jsonl(rows_jsonl(log_rows())),
    "rows.csv": lambda: rows_csv(log_rows()),
    "decoding.txt": decoding_text,
    "batch.bin": batch_framing,
}


@pytest.mark.parametrize("name", list(LOGS))
def test_outputs_equal_the_cli_and_every_record_is_counted(spark, tmp_path, name):
    log = tmp_path / name
    log.write_bytes(LOGS[name]())
    out = tmp_path / "out"
    summary = run([str(log)], str(out), TARGETS, spark=spark.session, piece_size=2048, report=lambda s: None)
    assert json.loads((out / "summary.json").read_text()) == summary
    quarantine = pq.read_table(out / "quarantine.parquet").to_pylist()
    results = pq.read_table(out / "results.parquet").to_pylist()
    for t in TARGETS:
        p = cli(t, log)
        assert (out / f"{t}.sql").read_bytes() == p.stdout, t  # byte for byte
        said = summary_line(p)
        c = summary["targets"][t]
        assert said["document"] == c["documents"] == summary["documents"]
        assert said["error"] == c["quarantined"] == sum(1 for r in results if r["target"] == t
                                                         and r["status"] == "failed")
        assert said["statement written"] == c["statements"]
        assert said["line not recognised"] == summary["unrecognised"]
        assert said.get("DML/transaction row skipped", 0) == summary["skipped"]["dml_and_transaction_rows"]
        errors = [line for line in p.stderr.decode().splitlines() if line.startswith("error:")]
        got = sorted(r["error"] for r in quarantine if r["reason"] == "error" and r["target"] in (t, None))
        assert got == sorted(line[len("error: "):] for line in errors), t
        assert c["check"].startswith(f"{summary['records']} records = ")
    assert sum(1 for r in quarantine if r["reason"] == "unrecognised") == summary["unrecognised"]
    for r in quarantine:  # every quarantined record carries where it was and what it was
        assert r["source"] == str(log) and (r["line"] or r["document"]) and r["payload"], r


def test_the_count_check_matches_the_log_built(spark, tmp_path):
    rows = log_rows()
    log = tmp_path / "rows.jsonl"
    log.write_bytes(corrupt_jsonl(rows_jsonl(rows)))
    s = run([str(log)], str(tmp_path / "o"), ("postgres",), spark=spark.session, piece_size=1024,
            report=lambda s: None)
    assert s["records"] == len(rows) + 2  # every row, the two corrupt ones too
    assert s["documents"] == 3 * len(DDL) + 3 + 2  # the sample's DDL, a shape no version has, the corrupt rows
    assert s["skipped"]["dml_and_transaction_rows"] == 4 * 3 * len(DDL)
    assert s["unrecognised"] == 3 and s["input_errors"] == 2
    assert s["inputs"][0]["form"] == "rows_json"
    q = pq.read_table(tmp_path / "o" / "quarantine.parquet").to_pylist()
    broken = [r for r in q if r["reason"] == "error" and r["target"] is None]
    assert [r["line"] for r in broken] == [8, 13]
    unknown = [r for r in q if r["reason"] == "error" and r["target"] == "postgres"]
    assert len(unknown) == 3 and all(b'CREATE GADGET' in r["payload"] for r in unknown)
    assert broken[0]["payload"] == b'{"location": "0/1000010", "xid": 9, "data": '
    assert broken[0]["target"] is None  # an input error: once, whatever the targets


def test_same_bytes_at_any_parallelism_and_any_pieces(spark, tmp_path):
    log = tmp_path / "rows.jsonl"
    log.write_bytes(corrupt_jsonl(rows_jsonl(log_rows(4))))
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    run([str(log)], str(a), TARGETS, spark=spark.session, piece_size=1500, report=lambda s: None)
    run([str(log)], str(b), TARGETS, spark=spark.session, report=lambda s: None)  # one piece
    # local[1], through spark-submit (what a cluster runs): the master is spark-submit's
    script = subprocess.run([sys.executable, "-m", "ddlc", "pipeline", "script"], capture_output=True,
                            text=True).stdout.strip()
    submit = Path(sys.executable).parent / "spark-submit"
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable, "PYSPARK_DRIVER_PYTHON": sys.executable}
    p = subprocess.run([str(submit), "--master", "local[1]", script, "run", "--input", str(log), "--to",
                        ",".join(TARGETS), "--output", str(c), "--piece-size", "1"],
                       capture_output=True, cwd=tmp_path, env=env)
    assert p.returncode == 1, p.stderr.decode()[-2000:]  # the corrupt rows are quarantined
    assert outputs(a) == outputs(b) == outputs(c)


def test_stage_two_through_the_driver_or_a_shuffle_gives_the_same_bytes(spark, tmp_path, monkeypatch):
    """Few documents go to stage 2 through the driver (no join, shuffle or sort in Spark); many go through a
    shuffle: both give the same outputs, with buckets (two cores) and with --state."""
    import ddlc.pipeline.run as pipeline_run

    log = tmp_path / "rows.jsonl"
    log.write_bytes(corrupt_jsonl(rows_jsonl(log_rows(3))))
    got = []
    for limit in (pipeline_run._DIRECT_BYTES, -1):
        monkeypatch.setattr(pipeline_run, "_DIRECT_BYTES", limit)
        out, state = tmp_path / f"o{limit}", tmp_path / f"s{limit}.json"
        run([str(log)], str(out), TARGETS, spark=spark.session, piece_size=1500, state=str(state),
            report=lambda s: None)
        got.append((outputs(out), state.read_bytes()))
    assert got[0] == got[1]


def test_two_batches_with_state_equal_one_run(spark, tmp_path):
    rows = log_rows(2)
    half = len(rows) // 2 + 1
    one, two = tmp_path / "1.jsonl", tmp_path / "2.jsonl"
    one.write_bytes(rows_jsonl(rows[:half]))
    two.write_bytes(rows_jsonl(rows[half:]))
    whole = tmp_path / "whole.jsonl"
    whole.write_bytes(rows_jsonl(rows))
    state = tmp_path / "state.json"
    kw = {"spark": spark.session, "report": lambda s: None}
    run([str(whole)], str(tmp_path / "w"), TARGETS, **kw)
    run([str(one)], str(tmp_path / "b1"), TARGETS, state=str(state), **kw)
    run([str(two)], str(tmp_path / "b2"), TARGETS, state=str(state), **kw)
    for t in TARGETS:
        both = (tmp_path / "b1" / f"{t}.sql").read_bytes() + (tmp_path / "b2" / f"{t}.sql").read_bytes()
        assert both == (tmp_path / "w" / f"{t}.sql").read_bytes(), t
        # and the CLI's --state gives the same two halves
        cstate = tmp_path / f"cli-{t}.json"
        got = cli(t, one, "--state", str(cstate)).stdout + cli(t, two, "--state", str(cstate)).stdout
        assert got == both, t
    saved = json.loads(state.read_text())
    last_ddl = [i for i, (_, _, d) in enumerate(rows) if d.startswith('{"JDDL"')][-1]
    # positions are by commit: the last document is outside any transaction (no BEGIN after the last
    # COMMIT), so it counts as a transaction of its own at its own LSN
    heads = [d.split(" ")[0] for _, _, d in rows[:last_ddl] if d.startswith(("BEGIN", "COMMIT"))]
    assert heads[-1] == "COMMIT"
    assert sorted(saved["catalogs"]) == sorted(TARGETS) and saved["last"]["commit"] == rows[last_ddl][0]
    # the second batch again: everything already seen, nothing written, nothing doubled
    s = run([str(two)], str(tmp_path / "again"), TARGETS, state=str(state), **kw)
    assert all(c["already_seen"] == c["documents"] > 0 and c["translated"] == 0 for c in s["targets"].values())
    assert all((tmp_path / "again" / f"{t}.sql").read_bytes() == b"" for t in TARGETS)


def test_a_newer_state_or_a_missing_input_stops_the_run_before_any_work(spark, tmp_path):
    state = tmp_path / "s.json"
    state.write_text(json.dumps({"format": "ddlc-state", "version": 99, "ddlc": "99.0", "catalog": {}}))
    log = tmp_path / "l.jsonl"
    log.write_bytes(rows_jsonl(log_rows(1)))
    with pytest.raises(PipelineError, match="DDLC-E013"):
        run([str(log)], str(tmp_path / "o"), ("postgres",), state=str(state), spark=spark.session)
    with pytest.raises(PipelineError, match="no such file"):
        run([str(tmp_path / "nope")], str(tmp_path / "o"), ("postgres",), spark=spark.session)
    assert not (tmp_path / "o").exists()


def _pipeline(log: Path, out: Path, env: dict[str, str] | None = None) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "ddlc", "pipeline", "run", "--input", str(log), "--to",
                             "postgres,gaussdb", "--output", str(out), "--master", "local[1]", "--piece-size", "1"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env={**os.environ, **(env or {})},
                            cwd=out.parent)


def _descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as fh:
                    ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(d))
    out, todo = [], [pid]
    while todo:
        kids = children.get(todo.pop(), [])
        out += kids
        todo += kids
    return out


def _wait_for_python_workers(p: subprocess.Popen, timeout: float = 120) -> None:
    """Until Spark runs the run's first task (its Python workers, under the JVM, exist)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        assert p.poll() is None, "the run ended before Spark started its tasks"
        for pid in _descendants(p.pid):
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as fh:
                    cmdline = fh.read()
            except OSError:
                continue
            if b"pyspark.daemon" in cmdline or b"pyspark.worker" in cmdline:
                return
        time.sleep(0.05)
    raise AssertionError("Spark started no Python worker in time")


def test_killed_and_started_again_gives_the_same_outputs(tmp_path):
    log = tmp_path / "rows.jsonl"
    log.write_bytes(rows_jsonl(log_rows(400)))  # ~ 3 MB, several pieces
    ref = tmp_path / "ref"
    assert _pipeline(log, ref).wait(timeout=300) == 1  # the shapes no version has are quarantined
    expected = outputs(ref, KILL_OUTPUTS)
    # killed while Spark works: no summary, nothing half written in place
    out = tmp_path / "out"
    p = _pipeline(log, out)
    _wait_for_python_workers(p)
    p.send_signal(signal.SIGKILL)
    p.wait()
    assert not (out / "summary.json").exists()
    # killed half way through the commit: some files new, no summary
    p = _pipeline(log, out, {"DDLC_PIPELINE_CRASH_AFTER": "2"})
    assert p.wait(timeout=300) == -signal.SIGKILL
    assert not (out / "summary.json").exists() and (out / "postgres.sql").exists()
    # started again: the same bytes, and no staging directory left
    assert _pipeline(log, out).wait(timeout=300) == 1
    assert outputs(out, KILL_OUTPUTS) == expected
    assert sorted(os.listdir(out)) == sorted(KILL_OUTPUTS)


def test_pieces_read_from_line_one_are_moved_to_their_lines_in_the_file(tmp_path):
    """Stage 1 reads each piece from line 1 (no newline count before it); rows and documents moved by the
    piece's first line equal what reading the piece at its true line gives (labels, errors, unrecognised lines)."""
    from dataclasses import replace as dc_replace

    from ddlc.pipeline.plan import plan, with_lines
    from ddlc.pipeline.work import read_piece, relocate_doc, relocate_row

    log = tmp_path / "rows.jsonl"
    log.write_bytes(corrupt_jsonl(rows_jsonl(log_rows(2))) + b"not a row at all\n")
    pieces = plan([str(log)], "auto", 700)
    assert len(pieces) > 3
    rows = {p.piece: list(read_piece(p)) for p in pieces}
    counts = {p.piece: next(r["lines"] for r in rows[p.piece] if r["kind"] == "count") for p in pieces}
    lined = with_lines(pieces, counts)
    moved = checked = 0
    for p in lined:
        truth = list(read_piece(dc_replace(p, line=p.line)))
        for got, want in zip(rows[p.piece], truth, strict=True):
            got = relocate_row(got, p.line)
            if got["kind"] == "doc":
                a, b = pickle.loads(got["doc"]), pickle.loads(want["doc"])
                a = relocate_doc(a, p.line)
                assert (a.line, a.label, str(a.error)) == (b.line, b.label, str(b.error))
                moved += a.line != pickle.loads(got["doc"]).line
                got, want = {**got, "doc": None}, {**want, "doc": None}
            checked += 1
            assert got == want
    assert moved and checked


@pytest.mark.parametrize(("master", "env", "quick"), [
    ("local[2]", {}, True), (None, {}, True), ("spark://host:7077", {}, False),
    ("local[2]", {"PYSPARK_SUBMIT_ARGS": "--driver-java-options -Xmx2g pyspark-shell"}, False),
    (None, {"PYSPARK_GATEWAY_PORT": "1"}, False),
])
def test_a_local_session_started_here_gets_the_quick_compiler_only(monkeypatch, master, env, quick):
    """Where the pipeline starts the JVM for a local session, the JVM compiles with C1 only; a cluster,
    spark-submit or options of the user's own are left alone (the JVM is not started here)."""
    from pyspark.sql import SparkSession

    from ddlc.pipeline import run as run_module

    for k in ("PYSPARK_SUBMIT_ARGS", "PYSPARK_GATEWAY_PORT", "PYSPARK_PYTHON", "PYSPARK_DRIVER_PYTHON"):
        monkeypatch.delenv(k, raising=False)
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    seen = {}

    class Fake:
        class sparkContext:  # noqa: N801
            @staticmethod
            def setLogLevel(level):
                seen["level"] = level

    def get_or_create(builder):
        seen.update(builder._options)
        return Fake

    monkeypatch.setattr(SparkSession.Builder, "getOrCreate", get_or_create)
    run_module.session(master)
    java = (seen.get("spark.driver.extraJavaOptions") or "").split()
    assert (run_module.LOCAL_JAVA_OPTIONS in java) is quick
    # Spark's own logging: errors only where this process starts the JVM (issue 22.10), never the user's own
    assert any(o.startswith("-Dlog4j2.configurationFile=") for o in java) is (
        "PYSPARK_GATEWAY_PORT" not in env and "PYSPARK_SUBMIT_ARGS" not in env)
    assert seen.get("spark.master") == (master or ("local[*]" if "PYSPARK_GATEWAY_PORT" not in env else None))
