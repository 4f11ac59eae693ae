"""ddlc check and ddlc format: configuration, findings at the right file/line/path, the three report
formats, exit codes, the canonical layout (idempotent, lossless)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings, strategies as st

from ddlc.check.config import CheckConfig, ConfigError, find_config, glob_spec, load_config
from ddlc.check.layout import LayoutError, format_text
from ddlc.check.positions import Locator

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "fixtures" / "cases"
COLUMN_STORE = (CASES / "create_table" / "plain-a-mode" / "input.json").read_text().replace('"row"', '"column"')
GOOD = (CASES / "schema" / "create-if-not-exists-quoted" / "input.json").read_text()


def ddlc(*args: str, cwd: Path, stdin: bytes = b"") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    return subprocess.run([sys.executable, "-m", "ddlc", *args], cwd=cwd, input=stdin.decode(), capture_output=True,
                          text=True, env=env)


def repo(tmp_path: Path) -> Path:
    (tmp_path / "ddl").mkdir()
    (tmp_path / "ddl" / "good.json").write_text(format_text(GOOD))
    (tmp_path / "ddl" / "column.json").write_text(format_text(COLUMN_STORE))
    return tmp_path


def test_text_findings_name_file_line_document_path_code(tmp_path):
    r = repo(tmp_path)
    (r / "ddl" / "broken.json").write_text('{"fmt": "CREATE SCHEMA %{name}I",\n "name": ')
    p = ddlc("check", "--targets", "postgres,spark", "ddl", cwd=r)
    assert p.returncode == 1, p.stderr
    lines = p.stdout.splitlines()
    assert any(line.startswith("ddl/broken.json:") and "error[DDLC-E001]" in line for line in lines)
    column = [line for line in lines if line.startswith("ddl/column.json:")]
    with_line = json.loads(COLUMN_STORE)["with"]
    assert with_line  # the WITH clause is where the finding points, on its own line of the formatted file
    text = (r / "ddl" / "column.json").read_text().splitlines()
    w610 = next(line for line in column if "DDLC-W610" in line)
    n = int(w610.split(":")[1])
    assert text[n - 1].strip() == "{" and '"orientation"' in "".join(text[n - 1:n + 8]) and "postgres: $.with[0]:" in w610
    assert "ddlc check: failed: 3 files, 3 documents, targets postgres, spark: 1 error" in p.stderr


def test_strict_fails_on_warnings_allow_and_deny(tmp_path):
    r = repo(tmp_path)
    assert ddlc("check", "ddl/column.json", cwd=r).returncode == 0
    p = ddlc("check", "--strict", "ddl/column.json", cwd=r)
    assert p.returncode == 1 and "warning(fails)[DDLC-W610]" in p.stdout
    p = ddlc("check", "--strict", "--targets", "postgres", "--allow", "W610", "ddl/column.json", cwd=r)
    assert p.returncode == 0, p.stdout
    assert "warning(allowed)[DDLC-W610]" in p.stdout and "(1 allowed)" in p.stderr
    p = ddlc("check", "--targets", "postgres", "--deny", "DDLC-W610", "ddl/column.json", cwd=r)
    assert p.returncode == 1 and "warning(fails)[DDLC-W610]" in p.stdout


def test_configuration_from_pyproject_and_ddlc_toml_flags_win(tmp_path):
    r = repo(tmp_path)
    (r / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.ddlc]\ntargets = ["postgres"]\nstrict = true\n'
                                      'include = ["ddl/**/*.json"]\nexclude = ["ddl/good.json"]\n')
    p = ddlc("check", cwd=r)  # no path: the configuration's directory, its globs
    assert p.returncode == 1 and "1 file, 1 document, targets postgres:" in p.stderr
    assert ddlc("check", "--no-strict", cwd=r).returncode == 0
    (r / ".ddlc.toml").write_text('targets = "spark"\nallow = ["DDLC-W820", "W812"]\nstrict = true\n')
    p = ddlc("check", cwd=r / "ddl")  # found upwards; .ddlc.toml before pyproject.toml
    assert p.returncode == 0 and "targets spark:" in p.stderr, p.stderr
    (r / ".ddlc.toml").write_text('targest = ["spark"]\n')
    p = ddlc("check", cwd=r)
    assert p.returncode == 2 and "unknown key 'targest'" in p.stderr and ".ddlc.toml" in p.stderr
    assert ddlc("check", "--no-config", "--targets", "postgres", "ddl/good.json", cwd=r).returncode == 0
    (r / ".ddlc.toml").write_text('targets = ["mysql"]\n')
    assert "unknown target 'mysql'" in ddlc("check", cwd=r).stderr


def test_json_and_sarif_reports(tmp_path):
    r = repo(tmp_path)
    p = ddlc("check", "--format", "json", "ddl", cwd=r)
    rep = json.loads(p.stdout)
    assert rep["passed"] is True and rep["files"] == 2 and rep["documents"] == 2
    f = next(x for x in rep["findings"] if x["code"] == "DDLC-W610")
    assert f == {"file": "ddl/column.json", "line": f["line"], "document": "ddl/column.json", "path": "$.with[0]",
                 "code": "DDLC-W610", "severity": "warning", "message": f["message"], "target": "postgres",
                 "fails": False, "allowed": False} and f["line"] > 1
    out = r / "out.sarif"
    p = ddlc("check", "--strict", "--format", "sarif", "-o", str(out), "ddl", cwd=r)
    assert p.returncode == 1 and p.stdout == ""
    sarif = json.loads(out.read_text())
    _check_sarif(sarif)
    run = sarif["runs"][0]
    res = next(x for x in run["results"] if x["ruleId"] == "DDLC-W610")
    loc = res["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "ddl/column.json" and loc["region"]["startLine"] == f["line"]
    assert res["level"] == "error"  # it fails under --strict
    assert run["tool"]["driver"]["rules"][res["ruleIndex"]]["id"] == "DDLC-W610"


def _check_sarif(s: dict) -> None:
    """The properties SARIF 2.1.0 requires (sarif-schema-2.1.0.json: sarifLog, run, tool, toolComponent,
    result, message, location, physicalLocation, artifactLocation, region, reportingDescriptor)."""
    assert s["version"] == "2.1.0" and isinstance(s["runs"], list)
    for run in s["runs"]:
        driver = run["tool"]["driver"]
        assert isinstance(driver["name"], str)
        ids = [rule["id"] for rule in driver.get("rules", [])]
        assert len(ids) == len(set(ids))
        for res in run["results"]:
            assert isinstance(res["message"]["text"], str) and res["message"]["text"]
            assert res["level"] in ("none", "note", "warning", "error")
            assert ids[res["ruleIndex"]] == res["ruleId"]
            for loc in res["locations"]:
                pl = loc["physicalLocation"]
                assert isinstance(pl["artifactLocation"]["uri"], str)
                assert isinstance(pl["region"]["startLine"], int) and pl["region"]["startLine"] >= 1


def test_empty_missing_and_directory_inputs(tmp_path):
    r = repo(tmp_path)
    (r / "ddl" / "empty.json").write_text("\n")
    p = ddlc("check", "ddl/empty.json", "ddl/missing.json", cwd=r)
    assert p.returncode == 1
    assert "ddl/empty.json:1: error[DDLC-E014] $: no documents: the input is empty" in p.stdout
    assert "ddl/missing.json:1: error[DDLC-E006] $: cannot read ddl/missing.json: no such file or directory" in p.stdout
    (r / "nothing").mkdir()
    p = ddlc("check", "nothing", cwd=r)
    assert p.returncode == 0 and "nothing: nothing to check" in p.stderr


def test_format_is_canonical_idempotent_and_lossless(tmp_path):
    r = repo(tmp_path)
    messy = tmp_path / "messy.json"
    messy.write_text(json.dumps(json.loads(COLUMN_STORE), indent=7, ensure_ascii=True))
    p = ddlc("format", str(messy), cwd=r)
    assert p.returncode == 0 and "reformatted" in p.stderr  # a rewrite done is a success (issue 22.5)
    assert json.loads(messy.read_text()) == json.loads(COLUMN_STORE)
    assert messy.read_text().startswith('{\n  "fmt": ')
    assert ddlc("format", "--check", str(messy), cwd=r).returncode == 0
    lines = tmp_path / "log.jsonl"
    lines.write_text('{"b": 1.50, "fmt": "x"}\n\n{"JDDL": {"a": "é", "fmt": "y"}}\n')
    assert ddlc("format", str(lines), cwd=r).returncode == 0
    assert lines.read_text() == '{"fmt": "x", "b": 1.50}\n{"JDDL": {"fmt": "y", "a": "é"}}\n'
    bad = tmp_path / "bad.json"
    bad.write_text('{"fmt": "x", "fmt": "y"}')
    p = ddlc("format", str(bad), cwd=r)
    assert p.returncode == 1 and "appears twice" in p.stderr and bad.read_text() == '{"fmt": "x", "fmt": "y"}'


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20)


@settings(max_examples=200)
@given(json_values)
def test_layout_round_trips_any_json(value):
    text = json.dumps(value)
    out = format_text(text)
    assert json.loads(out) == value
    assert format_text(out) == out


@settings(max_examples=200)
@given(st.dictionaries(st.text(max_size=8), json_values, max_size=5))
def test_locator_finds_every_member(value):
    text = format_text(json.dumps(value))
    loc = Locator(text)
    lines = text.split("\n")
    for k in value:
        n = loc.line(0, (k,))
        assert n is not None and lines[n - 1].lstrip().startswith(json.dumps(k, ensure_ascii=False) + ":")


def test_globs_and_discovery(tmp_path):
    assert glob_spec(("**/*.json",)).match_file("a/b/c.json") and glob_spec(("**/*.json",)).match_file("c.json")
    assert not glob_spec(("ddl/*.json",)).match_file("ddl/x/c.json")
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    assert find_config(tmp_path / "a" / "b") is None
    (tmp_path / "pyproject.toml").write_text("[tool.ddlc]\nstrict = true\n")
    c = load_config(find_config(tmp_path / "a" / "b"))
    assert c.strict and c.root == str(tmp_path)
    for bad, words in (("strict = 1", "strict must be true or false"), ("allow = ['X1']", "not a diagnostic code"),
                       ("schema-map = 3", "schema-map must be a table")):
        (tmp_path / "pyproject.toml").write_text(f"[tool.ddlc]\n{bad}\n")
        try:
            load_config(tmp_path / "pyproject.toml")
        except ConfigError as exc:
            assert words in str(exc)
        else:
            raise AssertionError(bad)
    assert CheckConfig().with_flags(strict=None, targets=("spark",)).targets == ("spark",)
    try:
        format_text("  ")
    except LayoutError as exc:
        assert "empty" in str(exc)


def test_translate_writes_sarif_too(tmp_path):
    r = repo(tmp_path)
    out = tmp_path / "t.sarif"
    p = ddlc("translate", "--to", "postgres", "--sarif", str(out), "ddl/column.json", cwd=r)
    assert p.returncode == 0 and p.stdout.startswith("CREATE TABLE")
    sarif = json.loads(out.read_text())
    _check_sarif(sarif)
    res = sarif["runs"][0]["results"]
    assert [(x["ruleId"], x["level"]) for x in res] == [("DDLC-W610", "warning")]
    assert res[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "ddl/column.json"


def test_lines_in_arrays_and_json_lines(tmp_path):
    col = json.loads(COLUMN_STORE)
    arr = tmp_path / "two.json"
    arr.write_text(format_text(json.dumps([json.loads(GOOD), col])))
    lines = tmp_path / "two.jsonl"
    lines.write_text(GOOD.strip() + "\n\n" + json.dumps(col) + "\n")
    rep = json.loads(ddlc("check", "--format", "json", "--targets", "postgres", str(arr), str(lines),
                          cwd=tmp_path).stdout)
    found = {(f["file"].rsplit("/", 1)[-1], f["document"].rsplit("/", 1)[-1], f["line"]) for f in rep["findings"]
             if f["code"] == "DDLC-W610"}
    text = arr.read_text().split("\n")
    (_, doc, n), = [x for x in found if x[0] == "two.json"]
    assert doc == "two.json[1]" and text[n - 1].strip() == "{" and '"orientation"' in "".join(text[n:n + 8])
    assert ("two.jsonl", "two.jsonl:3", 3) in found


# issue 20 item 6: a check that checks nothing does not pass


def test_empty_targets_refused_from_the_configuration_as_from_the_command_line(tmp_path):
    r = repo(tmp_path)
    (r / "ddl" / "bad.json").write_text('{"fmt": "CREATE SCHEMA %{name}I",\n "name": ')
    p = ddlc("check", "--targets", "", "ddl/bad.json", cwd=r)
    assert p.returncode == 2 and "Invalid value for '--targets': no target given (known: gaussdb, postgres, spark)" \
        in p.stderr and p.stdout == ""
    for text in ("targets = []\n", 'targets = ""\n', 'targets = " , "\n'):
        (r / ".ddlc.toml").write_text(text)
        p = ddlc("check", "ddl/bad.json", cwd=r)
        assert p.returncode == 2 and p.stdout == "", (text, p.stdout, p.stderr)
        assert p.stderr == f"error: {r / '.ddlc.toml'}: targets is empty: name at least one target " \
                           "(known: gaussdb, postgres, spark)\n", p.stderr
        # the file is refused as it is, whatever the flags (as an unknown key or target is)
        p = ddlc("check", "--targets", "postgres", "ddl/bad.json", cwd=r)
        assert p.returncode == 2 and "targets is empty" in p.stderr and p.stdout == ""
    (r / ".ddlc.toml").unlink()
    (r / "pyproject.toml").write_text("[tool.ddlc]\ntargets = []\n")
    p = ddlc("check", "ddl/bad.json", cwd=r)
    assert p.returncode == 2 and f"{r / 'pyproject.toml'} [tool.ddlc]: targets is empty" in p.stderr
    (r / "pyproject.toml").write_text("[tool.ddlc]\ninclude = []\n")
    p = ddlc("check", cwd=r)
    assert p.returncode == 2 and "[tool.ddlc]: include is empty: name at least one glob" in p.stderr
    from ddlc.check.run import check_paths

    try:
        check_paths([str(r / "ddl" / "bad.json")], CheckConfig(targets=()))
    except ValueError as exc:
        assert "no target" in str(exc)
    else:
        raise AssertionError("a check without targets ran")


def _tree(root: Path, *names: str) -> Path:
    for n in names:
        (root / n).parent.mkdir(parents=True, exist_ok=True)
        (root / n).write_text(format_text(GOOD))
    return root


def _selected(root: Path, include: tuple[str, ...] | None = None, exclude: tuple[str, ...] = (),
              paths: tuple[str, ...] = ()) -> list[str]:
    from ddlc.check.run import expand_paths

    c = CheckConfig(root=str(root), exclude=exclude, **({"include": include} if include else {}))
    return [os.path.relpath(f, root).replace(os.sep, "/")
            for f in expand_paths([str(root / p) for p in paths] or [str(root)], c)]


def test_include_and_exclude_are_gitignore_patterns(tmp_path):
    r = _tree(tmp_path, "ddl/a.json", "ddl/ab.json", "ddl/b.json", "ddl/x/a.json", "ddl/legacy/l.json",
              "ddl/legacy/deep/m.jsonl", "top.ndjson", "notes.txt", "ddl/keep/k.json")
    assert _selected(r) == ["ddl/a.json", "ddl/ab.json", "ddl/b.json", "ddl/keep/k.json", "ddl/legacy/deep/m.jsonl",
                            "ddl/legacy/l.json", "ddl/x/a.json", "top.ndjson"]
    assert _selected(r, ("ddl/[a]*.json",)) == ["ddl/a.json", "ddl/ab.json"]  # a character class
    assert _selected(r, ("ddl/[!a]*.json",)) == ["ddl/b.json"]
    assert _selected(r, ("ddl/?.json",)) == ["ddl/a.json", "ddl/b.json"]
    assert _selected(r, ("ddl/*.json",)) == ["ddl/a.json", "ddl/ab.json", "ddl/b.json"]  # * stays in its directory
    assert _selected(r, ("ddl/**/*.json",)) == ["ddl/a.json", "ddl/ab.json", "ddl/b.json", "ddl/keep/k.json",
                                                "ddl/legacy/l.json", "ddl/x/a.json"]  # ** also none
    assert _selected(r, ("**/a.json",)) == ["ddl/a.json", "ddl/x/a.json"]
    assert _selected(r, ("/top.ndjson",)) == ["top.ndjson"]
    # a directory's pattern stands for what is under it; ! takes a file back
    assert _selected(r, ("ddl/**/*.json", "ddl/**/*.jsonl"), ("ddl/legacy", "ddl/x/**")) == [
        "ddl/a.json", "ddl/ab.json", "ddl/b.json", "ddl/keep/k.json"]
    assert _selected(r, ("ddl/**/*.json",), ("ddl/legacy/**", "ddl/keep/", "!ddl/legacy/l.json")) == [
        "ddl/a.json", "ddl/ab.json", "ddl/b.json", "ddl/legacy/l.json", "ddl/x/a.json"]
    # named files (as pre-commit names them): chosen by the same globs as a directory's (issue 22.3)
    assert _selected(r, ("ddl/[a]*.json",), ("ddl/legacy/**",), ("notes.txt", "ddl/legacy/l.json", "ddl/b.json",
                                                                 "ddl/ab.json")) == ["ddl/ab.json"]
    (r / ".ddlc.toml").write_text('targets = ["postgres"]\ninclude = ["ddl/[a]*.json"]\n')
    p = ddlc("check", cwd=r)
    assert p.returncode == 0 and p.stderr == "ddlc check: passed: 2 files, 2 documents, targets postgres: 0 errors, " \
                                             "0 warnings, 0 notes\n", p.stderr


def test_an_include_that_selects_nothing_fails_without_paths(tmp_path):
    r = _tree(tmp_path, "ddl/a.json")
    toml = r / ".ddlc.toml"
    toml.write_text('include = ["ddl/[b]*.json", "migrations/**/*.json"]\n')
    p = ddlc("check", cwd=r)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr == (f"error: {toml}: nothing to check: no file under {r} selected by the include globs "
                        "ddl/[b]*.json, migrations/**/*.json (name the files or directories to check, or fix the "
                        "globs: gitignore syntax)\n"), p.stderr
    assert ddlc("check", "-q", cwd=r).returncode == 2  # quiet does not make it pass
    toml.write_text('exclude = ["ddl/"]\n')
    p = ddlc("check", cwd=r / "ddl")
    assert p.returncode == 2 and "selected by the include globs **/*.json, **/*.jsonl, **/*.ndjson less exclude ddl/" \
        in p.stderr
    # what pre-commit does: the staged files by name; none of them selected is no failure
    p = ddlc("check", "--targets", "postgres,spark", "ddl/a.json", cwd=r)
    assert p.returncode == 0 and "note: ddl/a.json: nothing to check" in p.stderr
    assert "passed: 0 files" in p.stderr
    toml.unlink()
    empty = tmp_path / "empty"
    empty.mkdir()
    p = ddlc("check", cwd=empty)  # no configuration: the default globs select nothing either
    assert p.returncode == 2 and p.stderr.startswith("error: nothing to check: no file under . selected by the "
                                                     "include globs **/*.json, **/*.jsonl, **/*.ndjson")


def test_a_glob_that_is_not_one_is_one_error(tmp_path):
    r = _tree(tmp_path, "ddl/a.json")
    toml = r / ".ddlc.toml"
    for text, words in (('include = ["ddl/["]\n', "include: 'ddl/[' can select no file"),
                        ('include = ["#ddl"]\n', "include: '#ddl' can select no file"),
                        ('exclude = ["!"]\n', "exclude: '!' is not a glob"),
                        ('exclude = ["ddl\\\\"]\n', "exclude: 'ddl\\\\' is not a glob")):
        toml.write_text(text)
        p = ddlc("check", cwd=r)
        assert p.returncode == 2 and p.stderr.startswith(f"error: {toml}: {words}") and "Traceback" not in p.stderr, \
            (text, p.stderr)
    p = ddlc("check", "ddl/a.json", cwd=r)  # used for a named file too
    assert p.returncode == 2 and f"error: {toml}: exclude: 'ddl\\\\' is not a glob" in p.stderr


def test_named_files_without_exclude_do_not_import_the_glob_library(tmp_path):
    r = _tree(tmp_path, "ddl/a.json")
    code = ("import sys\nfrom ddlc.cli import main\nsys.argv = ['ddlc', 'check', '--no-config', 'ddl/a.json']\n"
            "try:\n    main()\nexcept SystemExit as e:\n    sys.stderr.write(f'rc={e.code} pathspec={\"pathspec\" in sys.modules}')")
    p = subprocess.run([sys.executable, "-c", code], cwd=r, capture_output=True, text=True)
    assert p.stderr.endswith("rc=0 pathspec=False"), p.stderr
    p = subprocess.run([sys.executable, "-c", code.replace("'ddl/a.json'", "'ddl'")], cwd=r, capture_output=True,
                       text=True)
    assert p.stderr.endswith("rc=0 pathspec=False"), p.stderr  # the default globs select by suffix
    (r / ".ddlc.toml").write_text('include = ["ddl/*.json"]\n')
    p = subprocess.run([sys.executable, "-c", code.replace("'--no-config', ", "")], cwd=r, capture_output=True,
                       text=True)
    assert p.stderr.endswith("rc=0 pathspec=True"), p.stderr
