"""One default target for every command and for the library (issue 22.9): ``postgres``; a command line
changes it with ``--to``, the environment with ``DDLC_TARGETS``, a repository with ``targets`` in its
``.ddlc.toml`` (flag over environment over file); a command taking one target uses the first."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import ddlc

ROOT = Path(__file__).resolve().parents[1]
DOC = '{"TDDL": "CREATE TABLE t (a int, b varchar(10));"}'
POSTGRES = "CREATE TABLE public.t (a integer, b varchar(10));\n"
SPARK = "CREATE TABLE public.t (a INT, b VARCHAR(10)) USING DELTA"
GAUSSDB = "CREATE TABLE t (a int, b varchar(10));\n"


def run(*args: str, cwd: Path, env: dict[str, str] | None = None, stdin: str = DOC) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k != "DDLC_TARGETS"}
    return subprocess.run([sys.executable, "-m", "ddlc", *args], input=stdin, capture_output=True, text=True,
                          cwd=cwd, env={**base, **(env or {})})


@pytest.fixture
def bare(tmp_path: Path) -> Path:
    """A directory with no configuration above it that names targets (a .ddlc.toml without them)."""
    (tmp_path / ".ddlc.toml").write_text("strict = false\n")
    return tmp_path


def test_every_command_defaults_to_postgres(bare):
    p = run("translate", cwd=bare)
    assert p.returncode == 0 and p.stdout == POSTGRES, p.stderr
    p = run("explain", "--format", "json", cwd=bare)
    assert p.returncode == 0 and p.stdout == run("explain", "--format", "json", "--to", "postgres", cwd=bare).stdout
    assert p.stdout != run("explain", "--format", "json", "--to", "gaussdb", cwd=bare).stdout
    p = run("replay", cwd=bare)
    assert p.returncode == 0 and POSTGRES.strip() in p.stdout, p.stderr
    (bare / "t.json").write_text(DOC)
    p = run("check", "--format", "json", "t.json", cwd=bare)
    assert p.returncode == 0 and json.loads(p.stdout)["targets"] == ["postgres"], p.stdout
    assert ddlc.translate(DOC).sql == POSTGRES and ddlc.DEFAULT_TARGET == "postgres"


def test_the_environment_sets_it_for_every_command(bare):
    env = {"DDLC_TARGETS": "spark,postgres"}
    p = run("translate", cwd=bare, env=env)
    assert p.returncode == 0 and p.stdout.startswith(SPARK), p.stdout  # one target: the first
    (bare / "t.json").write_text(DOC)
    p = run("check", "--format", "json", "t.json", cwd=bare, env=env)
    assert p.returncode == 0 and json.loads(p.stdout)["targets"] == ["spark", "postgres"], p.stdout
    p = run("translate", "--to", "gaussdb", cwd=bare, env=env)  # the flag over the environment
    assert p.returncode == 0 and p.stdout == GAUSSDB, p.stderr


def test_the_configuration_sets_it_and_the_environment_wins(bare):
    (bare / ".ddlc.toml").write_text('targets = ["gaussdb"]\n')
    sub = bare / "ddl"
    sub.mkdir()
    p = run("translate", cwd=sub)  # the nearest configuration, looking upwards
    assert p.returncode == 0 and p.stdout == GAUSSDB, p.stderr
    p = run("translate", cwd=sub, env={"DDLC_TARGETS": "postgres"})
    assert p.returncode == 0 and p.stdout == POSTGRES, p.stderr
    p = run("translate", cwd=sub, env={"DDLC_TARGETS": " "})  # blank: unset
    assert p.returncode == 0 and p.stdout == GAUSSDB, p.stderr


def test_a_target_that_cannot_be_used_is_a_usage_error(bare):
    p = run("translate", cwd=bare, env={"DDLC_TARGETS": "postgres,oracle"})
    assert p.returncode == 2 and "DDLC_TARGETS='postgres,oracle': unknown target 'oracle'" in p.stderr, p.stderr
    assert "Traceback" not in p.stderr
    (bare / ".ddlc.toml").write_text('targets = ["mysql"]\n')
    p = run("replay", cwd=bare)
    assert p.returncode == 2 and "unknown target 'mysql'" in p.stderr and "Traceback" not in p.stderr


def test_the_library_reads_no_environment(bare, monkeypatch):
    monkeypatch.setenv("DDLC_TARGETS", "gaussdb")
    assert ddlc.translate(DOC).sql == POSTGRES
    assert [t.target for t in ddlc.translate_many([DOC])] == ["postgres"]


def test_help_says_where_the_default_comes_from():
    from click.testing import CliRunner

    from ddlc.cli import cli

    for cmd in ("translate", "explain", "replay", "check"):
        out = CliRunner().invoke(cli, [cmd, "--help"], terminal_width=200).output
        assert "DDLC_TARGETS" in out and ".ddlc.toml" in out and "postgres" in out, cmd
