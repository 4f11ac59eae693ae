"""Issue 22.3: what the hooks and ``ddlc check`` act on. The configuration's include/exclude globs choose among
files named on the command line (as pre-commit names them) as among a directory's, for check and format; a
JSON file with no "fmt", "JDDL" or "TDDL" key anywhere (package.json, tsconfig.json) is left alone by both
with a note, unless ``require-jddl = true``; ``ddlc check`` with no path lists files as git does (.gitignore
honoured), and walks outside a repository. The last test runs the real pre-commit framework on a throwaway
repository holding a package.json."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from ddlc.check.layout import format_text

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "fixtures" / "cases"
GOOD = format_text((CASES / "schema" / "create-if-not-exists-quoted" / "input.json").read_text())
PACKAGE = '{"name": "schema-repo", "version": "1.0.0", "scripts": {"test": "true"}, "dependencies": {}}\n'
TSCONFIG = '{\n  // comments, as tsconfig allows\n  "compilerOptions": {"strict": true},\n}\n'


def ddlc(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ddlc", *args], capture_output=True, text=True, cwd=cwd,
                          env={**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(ROOT)})


def _repo(tmp_path: Path) -> Path:
    r = tmp_path / "repo"
    (r / "ddl").mkdir(parents=True)
    (r / "ddl" / "good.json").write_text(GOOD)
    (r / "package.json").write_text(PACKAGE)
    (r / "tsconfig.json").write_text(TSCONFIG)
    return r


def test_named_files_are_chosen_by_the_globs_for_check_and_format(tmp_path):
    r = _repo(tmp_path)
    (r / ".ddlc.toml").write_text('targets = ["postgres"]\ninclude = ["ddl/**/*.json"]\n')
    messy = json.dumps(json.loads(GOOD), indent=4)
    (r / "ddl" / "legacy.json").write_text(messy)
    p = ddlc("check", "package.json", "tsconfig.json", "ddl/good.json", cwd=r)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "passed: 1 file, 1 document" in p.stderr and "missing element" not in p.stdout
    p = ddlc("format", "package.json", "ddl/legacy.json", cwd=r)
    assert (r / "package.json").read_text() == PACKAGE  # not re-sorted
    assert (r / "ddl" / "legacy.json").read_text() == format_text(messy)
    (r / ".ddlc.toml").write_text('targets = ["postgres"]\nexclude = ["ddl/legacy.json"]\n')
    (r / "ddl" / "legacy.json").write_text(messy)
    p = ddlc("format", "--check", "ddl/legacy.json", cwd=r)
    assert p.returncode == 0 and (r / "ddl" / "legacy.json").read_text() == messy
    p = ddlc("format", "--no-config", "--check", "ddl/legacy.json", cwd=r)
    assert p.returncode == 1 and "would reformat ddl/legacy.json" in p.stderr


def test_json_without_jddl_is_left_alone_with_a_note(tmp_path):
    r = _repo(tmp_path)
    p = ddlc("check", "--targets", "postgres", "package.json", "tsconfig.json", "ddl/good.json", cwd=r)
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout == ""
    assert 'note: package.json: not JDDL (no "fmt", "JDDL" or "TDDL" key anywhere): left alone' in p.stderr
    assert "note: tsconfig.json: not JDDL" in p.stderr
    assert "passed: 1 file, 1 document" in p.stderr and "2 JSON files without JDDL left alone" in p.stderr
    p = ddlc("format", "package.json", "tsconfig.json", cwd=r)
    assert p.returncode == 0, p.stderr
    assert "note: package.json: not JDDL" in p.stderr and "error" not in p.stderr
    assert (r / "package.json").read_text() == PACKAGE and (r / "tsconfig.json").read_text() == TSCONFIG
    # unless the configuration says every selected file is JDDL
    (r / ".ddlc.toml").write_text('targets = ["postgres"]\nrequire-jddl = true\n')
    p = ddlc("check", "package.json", cwd=r)
    assert p.returncode == 1 and 'missing element "fmt"' in p.stdout
    p = ddlc("format", "--check", "package.json", cwd=r)
    assert p.returncode == 1 and "would reformat package.json" in p.stderr
    # a document that is JDDL but broken is still checked (its keys say what it is)
    (r / ".ddlc.toml").unlink()
    (r / "ddl" / "broken.json").write_text('{"fmt": "CREATE SCHEMA %{name}I",\n  "name": \n')
    p = ddlc("check", "--targets", "postgres", "ddl/broken.json", cwd=r)
    assert p.returncode == 1 and "DDLC-E001" in p.stdout


def test_check_without_paths_lists_files_as_git_does(tmp_path):
    r = _repo(tmp_path)
    (r / ".ddlc.toml").write_text('targets = ["postgres"]\n')
    bad = r / "node_modules" / "pkg" / "bad.json"
    bad.parent.mkdir(parents=True)
    bad.write_text('{"fmt": "CREATE SCHEMA %{name}I"}\n')  # JDDL-shaped and invalid: read, it would fail
    (r / "out").mkdir()
    (r / "out" / "also.json").write_text('{"fmt": 1}\n')
    # outside a repository: the walk (node_modules read)
    p = ddlc("check", cwd=r)
    assert p.returncode == 1 and "node_modules/pkg/bad.json" in p.stdout
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com"}
    assert subprocess.run(["git", "init", "-q"], cwd=r, env=env).returncode == 0
    (r / ".gitignore").write_text("node_modules/\n/out/\n")
    p = ddlc("check", cwd=r)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "node_modules" not in p.stdout + p.stderr and "also.json" not in p.stdout + p.stderr
    assert "passed: 1 file, 1 document" in p.stderr  # ddl/good.json, untracked but not ignored
    subprocess.run(["git", "add", "ddl/good.json"], cwd=r, env=env, check=True)
    (r / "ddl" / "good.json").unlink()  # tracked, deleted in the work tree: not a file to read
    (r / "ddl" / "new.json").write_text(GOOD)
    p = ddlc("check", cwd=r)
    assert p.returncode == 0 and "passed: 1 file" in p.stderr, p.stdout + p.stderr


def test_readme_hook_snippet_names_files():
    readme = (ROOT / "README.md").read_text()
    snippet = readme[readme.index("**pre-commit.**"):]
    snippet = snippet[snippet.index("```yaml"):]
    snippet = snippet[:snippet.index("```\n", 4)]
    assert snippet.count("files: ^ddl/") == 2 and "ddlc-format" in snippet and "ddlc-check" in snippet


def test_hooks_leave_package_json_alone_under_pre_commit(tmp_path):
    """The real pre-commit framework, hooks as the README shows them but without files: (every JSON file)."""
    rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout.strip()
    home = Path(os.environ.get("DDLC_PRE_COMMIT_HOME", tmp_path / "pre-commit-home"))
    env = {**os.environ, "PRE_COMMIT_HOME": str(home), "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com", "NO_COLOR": "1",
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    env.pop("PYTHONPATH", None)
    r = _repo(tmp_path)
    (r / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {ROOT}\n    rev: {rev}\n    hooks:\n      - id: ddlc-format\n"
        "      - id: ddlc-check\n        args: [--targets, postgres]\n")

    def git(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["git", *args], cwd=r, env=env, capture_output=True, text=True)

    assert git("init", "-q").returncode == 0
    p = subprocess.run([sys.executable, "-m", "pre_commit", "install"], cwd=r, env=env, capture_output=True,
                       text=True)
    assert p.returncode == 0, p.stdout + p.stderr
    git("add", "-A")
    p = git("commit", "-q", "-m", "schema repo with a package.json")
    out = p.stdout + p.stderr
    assert p.returncode == 0, out
    assert (r / "package.json").read_text() == PACKAGE and (r / "tsconfig.json").read_text() == TSCONFIG
    # with include globs, a JDDL-looking file outside them is not the hooks' business either
    (r / ".ddlc.toml").write_text('include = ["ddl/**/*.json"]\n')
    (r / "fixtures.json").write_text('{"fmt": 1}\n')
    git("add", "-A")
    p = git("commit", "-q", "-m", "fixtures outside ddl/")
    assert p.returncode == 0, p.stdout + p.stderr
    (r / "ddl" / "bad.json").write_text('{"fmt": 1}\n')
    git("add", "-A")
    p = git("commit", "-q", "-m", "a bad document")
    assert p.returncode != 0 and "ddl/bad.json" in p.stdout + p.stderr
