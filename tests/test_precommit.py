"""The hooks of .pre-commit-hooks.yaml under the real pre-commit framework: a temporary git repository whose
.pre-commit-config.yaml points at this checkout (its HEAD commit: pre-commit installs ddlc from it into a
hook environment of its own) commits a good document, then a malformed one, then under --strict a
column-store table; ddlc-format rewrites a file in the canonical layout. Never skipped: without git or
pre-commit the test fails."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "fixtures" / "cases"


def _git(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True)


def test_hooks_under_pre_commit(tmp_path):
    from ddlc.check.layout import format_text

    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True)
    rev = head.stdout.strip()
    home = Path(os.environ.get("DDLC_PRE_COMMIT_HOME", tmp_path / "pre-commit-home"))
    env = {**os.environ, "PRE_COMMIT_HOME": str(home), "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com", "NO_COLOR": "1",
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    env.pop("PYTHONPATH", None)
    repo = tmp_path / "schema-repo"
    repo.mkdir()
    assert _git("init", "-q", cwd=repo, env=env).returncode == 0

    def config(check_args: str = "") -> None:
        (repo / ".pre-commit-config.yaml").write_text(
            f"repos:\n  - repo: {ROOT}\n    rev: {rev}\n    hooks:\n      - id: ddlc-format\n"
            f"      - id: ddlc-check\n        args: [--targets, 'postgres,spark'{check_args}]\n")

    def commit(name: str, text: str) -> subprocess.CompletedProcess[str]:
        (repo / "ddl").mkdir(exist_ok=True)
        (repo / "ddl" / name).write_text(text)
        _git("add", "-A", cwd=repo, env=env)
        p = _git("commit", "-q", "-m", name, cwd=repo, env=env)
        p.stdout += p.stderr  # pre-commit reports on stderr under git commit
        return p

    config()
    p = subprocess.run([sys.executable, "-m", "pre_commit", "install"], cwd=repo, env=env, capture_output=True,
                       text=True)
    assert p.returncode == 0, p.stdout + p.stderr

    good = format_text((CASES / "schema" / "create-if-not-exists-quoted" / "input.json").read_text())
    p = commit("good.json", good)
    assert p.returncode == 0, p.stdout
    assert "ddlc check" in p.stdout and "Passed" in p.stdout

    p = commit("broken.json", '{"fmt": "CREATE SCHEMA %{name}I",\n  "name": \n')
    assert p.returncode != 0
    assert "ddl/broken.json" in p.stdout and "DDLC-E001" in p.stdout, p.stdout
    _git("rm", "-q", "--cached", "ddl/broken.json", cwd=repo, env=env)
    (repo / "ddl" / "broken.json").unlink()

    column = format_text((CASES / "create_table" / "plain-a-mode" / "input.json").read_text()
                         .replace('"row"', '"column"'))
    config(", --strict")
    p = commit("facts.json", column)
    assert p.returncode != 0
    assert "ddl/facts.json" in p.stdout and "warning(fails)[DDLC-W610] postgres: $.with[0]" in p.stdout, p.stdout

    # ddlc-format: a file in another layout is rewritten (the commit stops), then goes in as it is
    config()
    messy = (CASES / "create_table" / "plain-a-mode" / "input.json").read_text()
    p = commit("orders.json", messy)
    assert p.returncode != 0 and "files were modified by this hook" in p.stdout, p.stdout
    assert (repo / "ddl" / "orders.json").read_text() == format_text(messy)
    _git("add", "-A", cwd=repo, env=env)
    p = _git("commit", "-q", "-m", "orders", cwd=repo, env=env)
    assert p.returncode == 0, p.stdout + p.stderr

    # issue 22.3: a JSON file with no JDDL shape at all (package.json, keys in no canonical order) is left
    # alone by both hooks: not re-sorted by ddlc-format, not rejected by ddlc-check
    pkg = '{\n  "version": "1.0.0",\n  "name": "schema-repo",\n  "scripts": {"lint": "ddlc check"}\n}\n'
    (repo / "package.json").write_text(pkg)
    (repo / "tsconfig.json").write_text('{"compilerOptions": {"strict": true}}')
    _git("add", "-A", cwd=repo, env=env)
    p = _git("commit", "-q", "-m", "package.json", cwd=repo, env=env)
    assert p.returncode == 0, p.stdout + p.stderr
    assert (repo / "package.json").read_text() == pkg
    assert _git("status", "--porcelain", cwd=repo, env=env).stdout == ""
