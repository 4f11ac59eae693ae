"""ddlc check and ddlc format: configuration, findings at the right file/line/path, the three report
formats, exit codes, the canonical layout (idempotent, lossless)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings, strategies as st

from ddlc.check.config import CheckConfig, ConfigError, find_config, glob_regex, load_config
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
    p = ddlc("check", "ddl", cwd=r)
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
    assert p.returncode == 1 and "reformatted" in p.stderr
    assert json.loads(messy.read_text()) == json.loads(COLUMN_STORE)
    assert messy.read_text().startswith('{\n  "fmt": ')
    assert ddlc("format", "--check", str(messy), cwd=r).returncode == 0
    lines = tmp_path / "log.jsonl"
    lines.write_text('{"b": 1.50, "fmt": "x"}\n\n{"JDDL": {"a": "é", "fmt": "y"}}\n')
    assert ddlc("format", str(lines), cwd=r).returncode == 1
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
    assert glob_regex("**/*.json").fullmatch("a/b/c.json") and glob_regex("**/*.json").fullmatch("c.json")
    assert not glob_regex("ddl/*.json").fullmatch("ddl/x/c.json")
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
