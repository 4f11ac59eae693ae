"""Issue 22.8: ``ddlc pipeline run --output`` at a file (or under one) is a usage error (exit 2) before any
work, never DDLC-E900."""

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
