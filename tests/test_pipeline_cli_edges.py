"""Issue 22.8 and 22.10 (first part): ``ddlc pipeline run --output`` at a file (or under one) is a usage error
(exit 2) before any work, never DDLC-E900; Spark's own logging is quiet unless ``-v``; a run says when its
input is small enough for ``ddlc translate``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "fixtures" / "sample" / "ddl.jsonl"


def ddlc(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ddlc", *args], capture_output=True, text=True, cwd=cwd,
                          env={**os.environ, "NO_COLOR": "1"}, timeout=600)


def test_output_at_or_under_a_file_is_a_usage_error(tmp_path):
    f = tmp_path / "notes.txt"
    f.write_text("mine\n")
    for out in (f, f / "out"):
        p = ddlc("pipeline", "run", "--input", str(SAMPLE), "--output", str(out), cwd=tmp_path)
        assert p.returncode == 2, p.stderr
        assert "DDLC-E900" not in p.stderr and "Traceback" not in p.stderr
        assert "is not a directory" in p.stderr and "choose another --output" in p.stderr
        assert "ddlc pipeline:" not in p.stderr  # refused before Spark started
    assert f.read_text() == "mine\n"


def test_the_library_refuses_alike(tmp_path):
    import pytest

    from ddlc.pipeline.run import PipelineError, run

    (tmp_path / "f").write_text("x")
    with pytest.raises(PipelineError, match="is not a directory"):
        run([str(SAMPLE)], str(tmp_path / "f" / "out"), spark=object())


def test_spark_logging_is_quiet_and_a_small_input_is_said(tmp_path):
    p = ddlc("pipeline", "run", "--input", str(SAMPLE), "--to", "postgres", "--output", str(tmp_path / "out"),
             cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    lines = p.stderr.splitlines()
    assert lines[0].startswith("note: the input is 0.0 MB: `ddlc translate` reads it in one process"), lines
    assert lines[-1].startswith("ddlc pipeline: 12 records"), lines
    assert len(lines) == 2, lines  # nothing of Spark's own: no log4j profile, WARN lines, JVM notices
    assert (tmp_path / "out" / "postgres.sql").exists()


def test_verbose_reaches_spark(monkeypatch):
    from click.testing import CliRunner

    import ddlc.pipeline.run as pipeline_run
    from ddlc.cli import cli

    seen = {}

    def fake_run(*args, **kw):
        seen.update(kw)
        return {"targets": {}}

    monkeypatch.setattr(pipeline_run, "run", fake_run)
    r = CliRunner().invoke(cli, ["pipeline", "run", "-v", "--input", str(SAMPLE), "--output", "out"])
    assert r.exit_code == 0, r.output
    assert seen["verbose"] is True
    CliRunner().invoke(cli, ["pipeline", "run", "--input", str(SAMPLE), "--output", "out"])
    assert seen["verbose"] is False


def test_the_jvm_stderr_filter_keeps_what_is_not_noise(capfd):
    from ddlc.pipeline.spark_session import _QuietJvm

    with _QuietJvm(True):
        os.write(2, b"WARNING: Using incubator modules: jdk.incubator.vector\nreal error line\n")
        os.write(2, b"Setting Spark log level to \"ERROR\".\n")
    import time

    time.sleep(0.3)
    err = capfd.readouterr().err
    assert "real error line" in err and "incubator" not in err and "Setting Spark log level" not in err
