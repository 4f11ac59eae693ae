"""Issue 22.5: ddlc format exits 0 after a rewrite (1 only for --check with changes, or a file it cannot read);
findings of JSON-lines files say file:line once; FORCE_COLOR is honoured (NO_COLOR wins); plurals are right;
a bare ``ddlc translate`` on a terminal says that it reads standard input."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "fixtures" / "cases"
COLUMN = json.loads((CASES / "create_table" / "storage-options" / "input.json").read_text())
SCHEMA = json.loads((CASES / "schema" / "create-if-not-exists-quoted" / "input.json").read_text())


def ddlc(*args: str, cwd: Path = ROOT, stdin: str = "", **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    return subprocess.run([sys.executable, "-m", "ddlc", *args], capture_output=True, text=True, cwd=cwd,
                          input=stdin, env={**base, **env})


def test_format_exits_0_after_a_rewrite(tmp_path):
    f = tmp_path / "t.json"
    f.write_text(json.dumps(SCHEMA, indent=7))
    p = ddlc("format", "--no-config", "--check", str(f))
    assert p.returncode == 1 and "would reformat" in p.stderr
    p = ddlc("format", "--no-config", str(f))
    assert p.returncode == 0 and f"reformatted {f}" in p.stderr
    p = ddlc("format", "--no-config", "--check", str(f))
    assert p.returncode == 0 and p.stderr == ""
    (tmp_path / "bad.json").write_text('{"fmt": "x", "fmt": "y"}')
    assert ddlc("format", "--no-config", str(tmp_path / "bad.json")).returncode == 1


def test_json_lines_findings_say_file_and_line_once(tmp_path):
    f = tmp_path / "log.jsonl"
    f.write_text(json.dumps(SCHEMA) + "\n" + json.dumps(COLUMN) + "\n")
    p = ddlc("check", "--no-config", "--targets", "postgres", "log.jsonl", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines and all(line.startswith("log.jsonl:2: warning[") for line in lines), lines
    assert all(line.count("log.jsonl") == 1 for line in lines), lines
    # a pretty-printed file's findings name the document only where it adds something (arrays: file[i])
    (tmp_path / "arr.json").write_text(json.dumps([SCHEMA, COLUMN], indent=2))
    p = ddlc("check", "--no-config", "--targets", "postgres", "arr.json", cwd=tmp_path)
    assert "arr.json[1] $." in p.stdout


def test_force_color_is_honoured_and_no_color_wins(tmp_path):
    doc = json.dumps(COLUMN)
    p = ddlc("translate", "--to", "postgres", stdin=doc, FORCE_COLOR="1")
    assert "\x1b[" in p.stderr and "warning:" in p.stderr
    p = ddlc("translate", "--to", "postgres", stdin=doc)
    assert "\x1b[" not in p.stderr
    p = ddlc("translate", "--to", "postgres", stdin=doc, FORCE_COLOR="1", NO_COLOR="1")
    assert "\x1b[" not in p.stderr
    p = ddlc("translate", "--to", "postgres", stdin=doc, FORCE_COLOR="0")
    assert "\x1b[" not in p.stderr
    (tmp_path / "t.json").write_text(doc)
    p = ddlc("check", "--no-config", "--targets", "postgres", "t.json", cwd=tmp_path, FORCE_COLOR="1")
    assert "\x1b[" in p.stdout


def test_plurals(tmp_path):
    one = json.dumps(SCHEMA)
    p = ddlc("validate", stdin=one)
    assert p.stderr.startswith("1 of 1 document valid, 0 lines not recognised"), p.stderr
    p = ddlc("validate", stdin=one + "\n" + one + "\n")
    assert p.stderr.startswith("2 of 2 documents valid"), p.stderr
    p = ddlc("translate", "--to", "postgres", stdin='{"fmt": 1}')
    assert "ddlc: 1 document, 0 statements written, 0 clauses dropped, 0 statements not translated, 1 error," in p.stderr
    p = ddlc("replay", "--to", "postgres", stdin=one)
    assert "ddlc replay: 1 document, 1 schema, 0 tables, 0 indexes, 0 views, 0 sequences, 1 statement written, " \
           "0 errors, 0 lines not recognised" in p.stderr, p.stderr
    assert "(s)" not in p.stderr


def test_bare_translate_on_a_terminal_says_it_reads_stdin():
    master, slave = pty.openpty()
    p = subprocess.Popen([sys.executable, "-m", "ddlc", "translate"], stdin=slave, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, cwd=ROOT, env={**os.environ, "NO_COLOR": "1"})
    os.close(slave)
    time.sleep(0.5)
    os.write(master, b"\x04")  # Ctrl-D: the end of the input
    try:
        out, err = p.communicate(timeout=60)
    finally:
        os.close(master)
    assert "note: reading standard input (type or paste the documents, then Ctrl-D" in err.decode(), err
    # not said when standard input is a file or a pipe
    p2 = ddlc("translate", stdin="")
    assert "reading standard input" not in p2.stderr
