"""What a new user meets after the README's install line, through the installed console script of a fresh
virtual environment with no extras (issue 22: "the CLI ones through the installed console script in a fresh
venv without extras"). The environment is built once per run from this checkout with pip (PyPI is reachable
here); when it cannot be built the tests fail, they are never skipped."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "fixtures" / "sample" / "ddl.jsonl"


def _install_line() -> str:
    """The README's install line: the first ``bash`` block after its "Install" heading."""
    text = (ROOT / "README.md").read_text("utf-8")
    return re.search(r"^## Install.*?```bash\n(.*?)```", text, re.S | re.M).group(1).strip()


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """A clone of this checkout's HEAD where the README's install line was run verbatim."""
    d = tmp_path_factory.mktemp("fresh") / "ddlc"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(d)], check=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DDLC_", "PYTHON", "VIRTUAL_ENV"))}
    p = subprocess.run(["bash", "-c", _install_line()], cwd=d, capture_output=True, text=True, env=env)
    assert (d / ".venv" / "bin" / "ddlc").exists(), f"the README's install line failed:\n{p.stdout}\n{p.stderr}"
    return d, p


@pytest.fixture(scope="module")
def venv(clone) -> Path:
    return clone[0] / ".venv"


def test_the_readme_install_line_works_verbatim(clone):
    d, p = clone
    assert p.returncode == 0, p.stderr
    readme = (ROOT / "README.md").read_text("utf-8")
    first = _install_line().rsplit("&& ", 1)[1].replace(".venv/bin/", "")
    block = readme.split(f"```console\n$ {first}\n", 1)[1].split("```", 1)[0]
    shown = [line for line in block.splitlines() if not line.startswith(("warning:", "ddlc:", "note:"))]
    assert p.stdout.splitlines() == shown  # what the README shows is what the fresh install prints
    assert p.stdout.startswith("CREATE SCHEMA IF NOT EXISTS sales;")


def ddlc(venv: Path, *args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DDLC_", "PYTHON", "VIRTUAL_ENV"))}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run([str(venv / "bin" / "ddlc"), *args], input=stdin, capture_output=True, text=True,
                          cwd=cwd, env=env)


def test_the_base_install_has_no_extras(venv):
    code = "import importlib.util as u; print([m for m in ('pyspark', 'pyarrow', 'rich', 'pandas') if u.find_spec(m)])"
    p = subprocess.run([str(venv / "bin" / "python"), "-c", code], capture_output=True, text=True, cwd="/")
    assert p.stdout.strip() == "[]", p.stdout + p.stderr


def test_the_default_target_translates(venv, tmp_path):
    p = ddlc(venv, "translate", str(SAMPLE), cwd=tmp_path)  # issue 22.9: the first command shows a translation
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("CREATE SCHEMA IF NOT EXISTS sales;\nCREATE TABLE public.orders (id integer NOT NULL")
    assert p.stdout == ddlc(venv, "translate", "--to", "postgres", str(SAMPLE), cwd=tmp_path).stdout


def test_every_target_works_and_the_pipeline_names_its_extra(venv, tmp_path):
    for target in ("gaussdb", "postgres", "spark"):  # issue 22.1: sqlglot is in the base install
        p = ddlc(venv, "translate", "--to", target, str(SAMPLE), cwd=tmp_path)
        # the sample holds statements spark has no form for (exit 1, the others written): never E900
        assert p.returncode in (0, 1) and p.stdout and "E900" not in p.stderr, (target, p.stderr)
        assert "internal error" not in p.stderr and "Traceback" not in p.stderr
    p = ddlc(venv, "pipeline", "run", "--input", str(SAMPLE), "--output", str(tmp_path / "out"), cwd=tmp_path)
    assert p.returncode == 2 and "ddlc[pipeline]" in p.stderr and "E900" not in p.stderr, p.stderr
    assert not (tmp_path / "out").exists()


def test_a_broken_pretty_json_file_is_one_error_at_its_line_and_column(venv, tmp_path):
    f = tmp_path / "t.json"  # issue 22.4: the layout ddlc format writes, a key missing its colon
    f.write_text('{\n  "fmt": "DROP SCHEMA %{name}I",\n  "name": "s",\n  "objtype"\n}\n')
    p = ddlc(venv, "check", "--format", "json", str(f), cwd=tmp_path)
    assert p.returncode == 1
    errors = [d for d in json.loads(p.stdout)["findings"] if d["severity"] == "error"]
    assert len(errors) == 1 and errors[0]["line"] == 5 and errors[0]["column"] == 1, errors


def test_format_exits_0_after_a_rewrite_and_counts_in_words(venv, tmp_path):
    f = tmp_path / "t.json"  # issue 22.5
    f.write_text('{"name": "s", "fmt": "DROP SCHEMA %{name}I"}')
    p = ddlc(venv, "format", str(f), cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert ddlc(venv, "format", "--check", str(f), cwd=tmp_path).returncode == 0
    p = ddlc(venv, "validate", str(f), cwd=tmp_path)
    assert p.returncode == 0 and "document(s)" not in p.stderr + p.stdout


def test_mapping_flags_take_lists_and_refuse_what_is_malformed(venv, tmp_path):
    doc = '{"TDDL": "CREATE TABLE sales.t (a int); "}'  # issue 22.6: one parser for every mapping
    p = ddlc(venv, "translate", "--schema-map", "sales=s2,public=p2", cwd=tmp_path, stdin=doc)
    assert p.returncode == 0 and p.stdout == "CREATE TABLE s2.t (a integer);\n", p.stderr
    for bad in ("sales=s2=x", "sales=a,sales=b", "nonsense"):
        p = ddlc(venv, "translate", "--schema-map", bad, cwd=tmp_path, stdin=doc)
        assert p.returncode == 2 and p.stdout == "" and "Traceback" not in p.stderr, (bad, p.stderr)


def test_the_readmes_commands_work_in_the_fresh_install(clone):
    """Every console example of the README, run in the fresh clone with its .venv first on PATH; the
    pipeline's need the extra (Use 4 says so) and are run by tests/test_readme.py with the dev install."""
    import test_readme

    d, _ = clone
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DDLC_", "PYTHON", "VIRTUAL_ENV"))}
    env["PATH"] = f"{d / '.venv' / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    examples = [(cmd, out) for name, cmd, out in test_readme.EXAMPLES if name == "README.md"]
    assert len(examples) >= 3
    ran = 0
    for cmd, expected in examples:
        if "pipeline run" in cmd:
            continue
        p = subprocess.run(cmd, shell=True, cwd=d, env=env, capture_output=True, text=True, timeout=120)
        lines = [x for x in (p.stdout + p.stderr).splitlines() if not x.startswith(("note:", "info:"))]
        assert "\n".join(lines) == expected, cmd
        ran += 1
    assert ran >= 3
