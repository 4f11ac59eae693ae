"""What a new user meets first (issue: the rough edges found when tried as a new user would): empty inputs,
directories and missing files under one rule, messages that say what they mean in the input's own terms,
help that shows real examples, completion, --quiet."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "fixtures" / "cases"


def ddlc(*args: str, stdin: str = "", cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ddlc", *args], input=stdin, capture_output=True, text=True,
                          cwd=cwd, env={**os.environ, "COLUMNS": "100"})


def test_empty_inputs_are_said_and_the_exit_code_is_chosen(tmp_path):
    empty = tmp_path / "empty.json"
    empty.write_text("\n  \n")
    p = ddlc("translate", "--to", "postgres", str(empty))
    assert p.returncode == 0 and f"note: {empty}: no documents: the input is empty" in p.stderr
    p = ddlc("translate", "--to", "postgres")  # stdin, empty
    assert p.returncode == 0 and "note: standard input: no documents: the input is empty" in p.stderr
    p = ddlc("validate", str(empty), str(CASES / "drop" / "function" / "input.json"))
    assert p.returncode == 1 and "[DDLC-E014]" in p.stderr and "1 of 1 document valid" in p.stderr
    p = ddlc("explain", str(empty))
    assert p.returncode == 0 and "no documents" in p.stderr


def test_directories_and_missing_files_follow_one_rule(tmp_path):
    d = tmp_path / "ddl"
    (d / "sub").mkdir(parents=True)
    (d / "b.json").write_text((CASES / "drop" / "function" / "input.json").read_text())
    (d / "sub" / "a.jsonl").write_text((CASES / "rename" / "schema" / "input.json").read_text())
    (d / "notes.txt").write_text("not an input")
    p = ddlc("translate", "--to", "postgres", str(d))
    assert p.returncode == 0, p.stderr
    assert p.stdout == "DROP ROUTINE public.add1(integer);\nALTER SCHEMA sales RENAME TO sales_old;\n"
    (tmp_path / "none").mkdir()
    for cmd in ("translate", "validate", "explain"):
        p = ddlc(cmd, str(tmp_path / "none"), str(tmp_path / "missing.json"))
        out = p.stdout + p.stderr  # explain reports in its output
        assert p.returncode == 1, (cmd, out)
        assert "a directory with no .json, .jsonl or .ndjson file under it [DDLC-E006]" in out
        assert "cannot read input: No such file or directory [DDLC-E006]" in out


def test_on_unsupported_error_says_refused_under_one_code():
    doc = str(CASES / "create_table" / "storage-options" / "input.json")
    p = ddlc("translate", "--to", "postgres", "--on-unsupported", "error", doc)
    assert p.returncode == 1
    err = [line for line in p.stderr.splitlines() if line.startswith("error:")][0]
    assert "refused by --on-unsupported error:" in err and "dropped" not in err
    assert err.endswith("[DDLC-E009]") and err.count("[DDLC-") == 1
    p = ddlc("translate", "--to", "postgres", stdin='{"TDDL": "CREATE PACKAGE p AS x int; END"}')
    assert "left out (--on-unsupported skip)" not in p.stderr  # warn mode: the document fails, said once
    err = [line for line in p.stderr.splitlines() if line.startswith("error:")][0]
    assert err.count("[DDLC-") == 1 and "(DDLC-W753)" in err


def test_errors_speak_the_inputs_dialect_and_json_terms():
    gauss = {"fmt": "DROP TABLE %{identity}D", "identity": {"schema_name": "s"}}
    p = ddlc("translate", stdin=json.dumps(gauss))
    assert 'missing element "object_name" in JSON object' in p.stderr
    p = ddlc("validate", stdin=json.dumps({"JDDL": {"fmt": "ALTER TABLE %{identity}D RENAME TO %{newname}I",
                                                     "identity": {"schema_name": "s"}, "newname": "t"}}))
    assert 'missing member "object_name"' in p.stderr
    p = ddlc("translate", stdin=json.dumps({"fmt": "CREATE SCHEMA %{name}I", "name": 1}))
    assert "got 2 (the value is the number 1; 2 is the server's code for its type)" in p.stderr


def test_help_shows_examples_defaults_and_completion():
    top = " ".join(ddlc("--help").stdout.split())
    assert "Check documents against the JSON Schemas in grammars/." in top  # not cut
    assert "standard input" in top and "ddlc completion bash" in top
    tr = ddlc("translate", "--help").stdout
    # the choices, not a TARGET metavar (the help names the DDLC_TARGETS variable since issue 22.9)
    assert "--to TARGET" not in tr and "--to [" in tr and "Examples:" in tr
    assert "ddlc translate --to postgres orders.json" in tr
    assert "text: an indented tree" in ddlc("explain", "--help").stdout
    assert "Examples:" in ddlc("validate", "--help").stdout and "Examples:" in ddlc("check", "--help").stdout
    comp = ddlc("completion", "bash")
    assert comp.returncode == 0 and "_DDLC_COMPLETE" in comp.stdout


def test_quiet_prints_only_errors():
    doc = str(CASES / "create_table" / "storage-options" / "input.json")
    p = ddlc("translate", "--to", "postgres", "-q", doc)
    assert p.returncode == 0 and p.stdout and p.stderr == ""


def test_a_tree_no_builder_takes_is_read_back_from_its_text():
    """Issue 12: before giving up on a tree of an unknown form, its expansion goes through the text frontend."""
    tree = {"fmt": "CREATE TABLE %{identity}D (%{table_elements:, }s) %{tail}s",
            "identity": {"objname": "x", "schemaname": "public"},
            "table_elements": [{"fmt": "%{name}I %{coltype}T", "name": "a",
                                "coltype": {"typename": "int4", "schemaname": "pg_catalog", "typmod": "",
                                            "typarray": False}}],
            "tail": "WITH (orientation = row)"}
    p = ddlc("translate", "--to", "postgres", "--format", "json", stdin=json.dumps(tree))
    out = json.loads(p.stdout)
    assert p.returncode == 0 and out["sql"] == ["CREATE TABLE public.x (a integer)"]
    codes = [d["code"] for d in out["diagnostics"]]
    assert "DDLC-N003" in codes and "DDLC-I004" in codes and "DDLC-N001" not in codes
    n003 = next(d for d in out["diagnostics"] if d["code"] == "DDLC-N003")
    assert "tail" in n003["message"] and n003["message"].endswith("read from its text")
