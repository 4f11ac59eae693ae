"""Issue 22.2: progress works with the base install (no ``rich``: a line of its own drawn in place), and
diagnostics are never wrapped into it nor written in the middle of it. Standard error is a real terminal
(a pty), standard output a pipe, ``rich`` made unimportable in the child."""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "fixtures" / "cases" / "create_table" / "storage-options" / "input.json"


def _on_a_terminal(args: list[str], cwd: Path, columns: int = 60) -> tuple[int, str, str]:
    master, slave = pty.openpty()
    code = ("import sys\nsys.modules['rich'] = None\n"  # the base install: no rich
            f"sys.argv = ['ddlc', *{args!r}]\nfrom ddlc.console import main\nmain()\n")
    out_file = open(cwd / "stdout.txt", "w+b")  # a file, not a pipe: nothing blocks while the terminal is read
    p = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.DEVNULL, stdout=out_file,
                         stderr=slave, cwd=cwd, env={**os.environ, "COLUMNS": str(columns), "NO_COLOR": "1",
                                                     "PYTHONPATH": str(ROOT)})
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    rc = p.wait()
    out_file.seek(0)
    out = out_file.read().decode()
    out_file.close()
    os.close(master)
    return rc, out, b"".join(chunks).decode("utf-8", "replace")


def _screen(raw: str) -> list[str]:
    """What the terminal shows, line by line: a carriage return goes back to the line's start, ESC[K erases
    from the cursor to its end, other text overwrites."""
    lines = []
    for line in raw.replace("\r\n", "\n").split("\n"):
        buf, at = "", 0
        for token in re.split(r"(\r|\x1b\[K)", line):
            if token == "\r":
                at = 0
            elif token == "\x1b[K":
                buf = buf[:at]
            else:
                buf = buf[:at] + token + buf[at + len(token):]
                at += len(token)
        lines.append(buf)
    return lines


def test_translate_shows_progress_without_rich_and_keeps_diagnostics_whole(tmp_path):
    doc = json.dumps(json.loads(DOC.read_text()))
    big = tmp_path / "many.jsonl"
    big.write_text((doc + "\n") * 6000)
    rc, out, err = _on_a_terminal(["translate", "--to", "postgres", str(big)], tmp_path, columns=60)
    assert rc == 0, err
    assert out.count("CREATE TABLE") == 6000
    assert "Traceback" not in err and "rich" not in err
    assert re.search(r"translating: [\d,]+ documents", err), err[-2000:]  # the progress line was drawn
    screen = [line for line in _screen(err) if line]
    warnings = [line for line in screen if "warning:" in line]
    assert len(warnings) == 3 * 6000  # three clauses dropped a document
    for line in warnings:  # each whole on its own line: never cut, wrapped or mixed with the bar
        assert line.startswith("warning: ") and line.endswith("]") and "translating" not in line, line
    assert screen[-1].startswith("ddlc: 6000 documents"), screen[-3:]  # the bar is gone at the end
    assert not any(line.startswith("translating") for line in screen), "the progress line is left on screen"


def test_check_progress_without_rich(tmp_path):
    d = tmp_path / "ddl"
    d.mkdir()
    for i in range(25):
        (d / f"t{i:02}.json").write_text(DOC.read_text())
    rc, out, err = _on_a_terminal(["check", "--no-config", "--targets", "postgres", str(d)], tmp_path)
    assert rc == 0, err
    assert "Traceback" not in err and "checking: " in err
    screen = [line for line in _screen(err) if line]
    assert screen[-1].startswith("ddlc check: passed: 25 files"), screen[-3:]


def test_pipeline_progress_draws_without_rich(monkeypatch, capsys):
    """The pipeline's bar (a thread of the driver) needs no library: never a thread traceback."""
    import threading
    import time

    monkeypatch.setitem(sys.modules, "rich", None)
    from ddlc.pipeline.progress import Progress

    class Acc:
        def __init__(self, v: int) -> None:
            self.value = v

    class Piece:
        size = 4_000_000

    class SC:
        uiWebUrl = None

        def accumulator(self, v: int) -> Acc:
            return Acc(v)

    failures: list[object] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: failures.append(args.exc_value))
    with Progress(SC(), [Piece()], enabled=True, say=lambda s: None) as bar:
        bar.bytes.value, bar.records.value = 2_000_000, 1000
        time.sleep(0.7)
    err = capsys.readouterr().err
    assert failures == []
    assert "reading [##########..........] 2.0/4.0 MB" in err
