"""Issue 22.1: the base install translates to every target (sqlglot is a core dependency); the pipeline's
libraries are the extra ``ddlc[pipeline]`` (``[spark]`` its old name); a missing library is a usage error
(exit 2) that says what to install, never an internal error (DDLC-E900). A missing module is simulated
with a ``None`` entry in ``sys.modules`` in a child process (an import of it then fails as when absent)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]


def _without(modules: list[str], *args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    code = ("import sys\n"
            f"for m in {modules!r}: sys.modules[m] = None\n"
            f"sys.argv = ['ddlc', *{list(args)!r}]\n"
            "from ddlc.console import main\nmain()\n")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=cwd,
                          env={**os.environ, "NO_COLOR": "1"})


def test_the_extras_are_split_as_documented():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    base = " ".join(project["dependencies"])
    extras = project["optional-dependencies"]
    assert "sqlglot" in base  # the spark target needs nothing more than the base install
    assert "pyspark" not in base and "pyarrow" not in base and "pandas" not in base
    pipeline = " ".join(extras["pipeline"])
    for lib in ("pyspark", "pyarrow", "pandas", "mmh3"):
        assert lib in pipeline
    assert extras["spark"] == ["ddlc[pipeline]"]  # the old name still installs the same
    dev = " ".join(extras["dev"])
    ci = (ROOT / ".ci" / "test").read_text()
    assert '-e ".[dev]"' in ci
    for lib in ("pytest", "hypothesis", "psycopg", "pyspark", "pyarrow", "pandas", "deltalake", "pre-commit"):
        assert lib in dev, lib


def test_spark_target_without_sqlglot_is_a_usage_error_not_e900():
    p = _without(["sqlglot"], "translate", "--to", "spark", "fixtures/sample/ddl.jsonl")
    assert p.returncode == 2, p.stderr
    assert "DDLC-E900" not in p.stderr and "internal error" not in p.stderr
    assert "the spark target needs the Python library sqlglot, which is not installed" in p.stderr
    assert p.stdout == ""
    # ddlc check with spark among its targets (DDLC_TARGETS, or targets in .ddlc.toml, or --targets)
    p = _without(["sqlglot"], "check", "--targets", "postgres,spark", "examples/ddl")
    assert p.returncode == 2 and "sqlglot" in p.stderr and "E900" not in p.stdout + p.stderr
    # a target that needs nothing more still works
    p = _without(["sqlglot"], "translate", "--to", "postgres", "fixtures/sample/ddl.jsonl")
    assert p.returncode == 0, p.stderr
    p = _without(["sqlglot"], "explain", "--to", "spark", "fixtures/sample/ddl.jsonl")
    assert p.returncode == 2 and "sqlglot" in p.stderr


@pytest.mark.parametrize("lib", ["pyspark", "pyarrow", "pandas", "mmh3"])
def test_pipeline_without_its_libraries_names_the_extra(tmp_path, lib):
    p = _without([lib], "pipeline", "run", "--input", "fixtures/sample/ddl.jsonl", "--output", str(tmp_path / "out"))
    assert p.returncode == 2, p.stderr
    assert "DDLC-E900" not in p.stderr and "Traceback" not in p.stderr
    assert f"needs the Python library {lib}, which is not installed" in p.stderr
    assert "pip install 'ddlc[pipeline]'" in p.stderr
    assert not (tmp_path / "out").exists()


def test_pipeline_library_call_without_pyspark_raises_pipeline_error(tmp_path):
    code = ("import sys\nsys.modules['pyspark'] = None\n"
            "from ddlc.pipeline.run import PipelineError, run\n"
            "try:\n"
            f"    run(['fixtures/sample/ddl.jsonl'], {str(tmp_path / 'out')!r})\n"
            "except PipelineError as exc:\n    print('refused:', exc)\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert "refused: the pipeline needs the Python library pyspark" in p.stdout, p.stdout + p.stderr
    assert "ddlc[pipeline]" in p.stdout


def test_a_missing_library_met_late_is_still_a_usage_error():
    """The console script's last resort: a ModuleNotFoundError of a library ddlc knows, wherever it is met."""
    code = ("import sys\nsys.modules['sqlglot'] = None\n"
            "import ddlc.cli\n"
            "@ddlc.cli.cli.command('boom')\n"
            "def boom():\n    import sqlglot\n"
            "sys.argv = ['ddlc', 'boom']\nddlc.cli.main()\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                       env={**os.environ, "NO_COLOR": "1"})
    assert p.returncode == 2 and "sqlglot, which is not installed" in p.stderr and "E900" not in p.stderr
