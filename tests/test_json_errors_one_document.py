"""Issue 22.4: a file whose first non-blank line is not a whole JSON value is one document (a pretty-printed
one, as ``ddlc format`` writes them): a syntax error in it is one error at its true line and column, in the
text, JSON and SARIF reports, never one error per line read as JSON lines. JSON lines (a whole value on the
first line) still fail line by line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from ddlc.check.layout import format_text
from ddlc.frontend.documents import read_documents

ROOT = Path(__file__).resolve().parents[1]
CASE = ROOT / "fixtures" / "cases" / "schema" / "create-if-not-exists-quoted" / "input.json"


def ddlc(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ddlc", *args], capture_output=True, text=True, cwd=cwd,
                          env={**os.environ, "NO_COLOR": "1"})


def _broken(tmp_path: Path, how: str) -> tuple[Path, int, int]:
    """The case in ddlc format's layout, broken: a key missing its colon, or a trailing comma; with the line and
    column Python's json reports."""
    lines = format_text(CASE.read_text()).splitlines()
    i = next(n for n, line in enumerate(lines) if line.strip().startswith('"name"'))
    if how == "colon":
        lines[i] = lines[i].replace('"name": ', '"name" ', 1)
    else:  # a trailing comma after the last member
        last = max(n for n, line in enumerate(lines) if line.startswith('  "'))
        lines[last] += ","
    f = tmp_path / "ddl.json"
    f.write_text("\n".join(lines) + "\n")
    try:
        json.loads(f.read_text())
    except json.JSONDecodeError as exc:
        return f, exc.lineno, exc.colno
    raise AssertionError("not broken")


def test_a_missing_colon_is_one_error_at_its_line(tmp_path):
    f, line, _ = _broken(tmp_path, "colon")
    assert line > 2
    p = ddlc("translate", "--to", "postgres", f.name, cwd=tmp_path)
    assert p.returncode == 1
    errors = [x for x in p.stderr.splitlines() if x.startswith("error:")]
    assert len(errors) == 1, p.stderr
    assert "[DDLC-E001]" in errors[0] and f"line {line} column" in errors[0]
    assert "not a JDDL document" not in p.stderr and "1 document," in p.stderr
    docs = list(read_documents(f.read_bytes(), source="ddl.json"))
    assert len(docs) == 1 and docs[0].error is not None and docs[0].error.code == "DDLC-E001"


def test_check_places_the_error_in_text_json_and_sarif(tmp_path):
    for how in ("colon", "comma"):
        f, line, _ = _broken(tmp_path, how)
        p = ddlc("check", "--no-config", "--targets", "postgres", f.name, cwd=tmp_path)
        assert p.returncode == 1
        found = p.stdout.splitlines()
        assert len(found) == 1, p.stdout
        head, column = found[0].split(": error[DDLC-E001]")[0].rsplit(":", 1)
        assert head == f"ddl.json:{line}" or head == f"ddl.json:{line - 1}", found  # orjson: at the comma, json: after it
        at_line = int(head.rpartition(":")[2])
        assert f"line {at_line} column {column}" in found[0]  # where the message says
        if how == "comma":
            assert at_line > 1  # no longer the document's first line
        rep = json.loads(ddlc("check", "--no-config", "--targets", "postgres", "--format", "json", f.name,
                              cwd=tmp_path).stdout)
        assert [(x["line"], x["column"], x["code"]) for x in rep["findings"]] == [(at_line, int(column), "DDLC-E001")]
        sarif = json.loads(ddlc("check", "--no-config", "--targets", "postgres", "--format", "sarif", f.name,
                                cwd=tmp_path).stdout)
        results = sarif["runs"][0]["results"]
        assert len(results) == 1
        region = results[0]["locations"][0]["physicalLocation"]["region"]
        assert region == {"startLine": at_line, "startColumn": int(column)}
        # translate --sarif places it alike
        ddlc("translate", "--to", "postgres", "--sarif", "t.sarif", f.name, cwd=tmp_path)
        region = json.loads((tmp_path / "t.sarif").read_text())["runs"][0]["results"][0]["locations"][0]
        assert region["physicalLocation"]["region"]["startLine"] == at_line


def test_json_lines_still_fail_line_by_line(tmp_path):
    good = json.dumps(json.loads(CASE.read_text()))
    f = tmp_path / "log.jsonl"
    f.write_text(f"{good}\n{good[:-5]}\n{good}\n")
    p = ddlc("check", "--no-config", "--targets", "postgres", f.name, cwd=tmp_path)
    assert p.returncode == 1 and "3 documents" in p.stderr
    found = p.stdout.splitlines()
    assert len(found) == 1 and found[0].startswith("log.jsonl:2:") and "DDLC-E001" in found[0]
    # a first line that is not a whole value: the file is one document, one error
    f.write_text(f"{good[:-5]}\n{good}\n{good}\n")
    docs = list(read_documents(f.read_bytes(), source="log.jsonl"))
    assert len(docs) == 1 and docs[0].error is not None
