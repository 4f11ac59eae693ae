"""Inputs are read as a stream: documents come out before the input ends, memory stays flat."""

from __future__ import annotations

import json
import os
import random
import select
import struct
import subprocess
import sys

import pytest

from conftest import FIXTURES, ddlc_command
from ddlc.frontend import streams_io
from ddlc.frontend.documents import read_documents, read_inputs, read_source
from ddlc.frontend.streams_io import ByteSource

STREAMS = FIXTURES / "streams"
DROP = {"fmt": "DROP TABLE %{identity}D", "identity": {"objname": "t", "schemaname": "s"}}
DROP_LINE = json.dumps(DROP).encode()


class Gate:
    """A file object that hands out its bytes up to ``limit`` and fails a read beyond it: the
    reader must produce what it can from what a pipe has delivered so far, without waiting."""

    def __init__(self, data: bytes, limit: int) -> None:
        self.data, self.limit, self.pos = data, limit, 0

    def read1(self, n: int = -1) -> bytes:
        if self.limit < len(self.data) and (n < 0 or self.pos >= self.limit):
            raise AssertionError(f"read past byte {self.limit} before the document was yielded")
        end = self.limit if n < 0 else min(self.pos + n, self.limit)
        out = self.data[self.pos:end]
        self.pos += len(out)
        return out

    read = read1


class Trickle:
    """A pipe that delivers a few bytes at a time."""

    def __init__(self, data: bytes, seed: int = 0) -> None:
        self.data, self.pos, self.rng = data, 0, random.Random(seed)

    def read1(self, n: int = -1) -> bytes:
        k = self.rng.choice([1, 2, 5, 13, 200, 4000])
        out = self.data[self.pos:self.pos + (k if n < 0 else min(k, n))]
        self.pos += len(out)
        return out

    read = read1


def sig(doc):
    e = doc.error
    return (doc.index, doc.label, doc.line, doc.tree, doc.tddl, dict(doc.meta),
            None if e is None else (str(e), e.code, e.position, e.document))


# ---- documents come out before the input ends ---------------------------------------------------

def test_json_lines_first_document_needs_only_the_first_line():
    data = b"".join(DROP_LINE + b"\n" for _ in range(50))
    gate = Gate(data, len(DROP_LINE) + 2)  # line 1 and one byte of line 2: not one big document
    docs = read_inputs(["-"], stdin=gate)
    first = next(docs)
    assert first.label == "<stdin>:1" and first.tree == DROP and first.error is None
    gate.limit = len(data)
    rest = list(docs)
    assert [d.index for d in rest] == list(range(1, 50))
    assert rest[-1].label == "<stdin>:50"


def test_decoding_text_yields_each_transaction_at_its_commit():
    data = (STREAMS / "test_decoding.txt").read_bytes()
    end = data.index(b"\n", data.index(b"COMMIT 10213")) + 1
    gate = Gate(data, end)
    docs = read_inputs(["-"], stdin=gate)
    first = next(docs)
    assert first.label == "<stdin>:2" and first.meta["owner"] == "alice"
    assert first.meta["csn"] == 2101  # from the COMMIT row: the transaction was held until it
    gate.limit = len(data)
    assert len(list(docs)) == 4


def test_batch_framing_yields_frame_by_frame():
    data = (STREAMS / "parallel_batch_json.bin").read_bytes()
    jddl = data.index(b'{"JDDL"') - 12
    commit = data.index(b"commit xid", jddl) - 12  # a document is handed out once its transaction commits
    (length,) = struct.unpack(">I", data[commit:commit + 4])
    gate = Gate(data, commit + 4 + length + 12)  # the COMMIT frame and the next frame's header
    docs = read_inputs(["-"], stdin=gate)
    first = next(docs)
    assert first.label == f"<stdin>@{jddl}" and first.tree is not None
    gate.limit = len(data)
    assert len(list(docs)) == 2


def test_cli_prints_before_stdin_is_closed():
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(ddlc_command() + ["translate", "-"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    try:
        proc.stdin.write(DROP_LINE + b"\n" + DROP_LINE + b"\n")
        proc.stdin.flush()
        ready, _, _ = select.select([proc.stdout], [], [], 30)
        assert ready, "nothing printed while stdin is still open"
        assert proc.stdout.readline() == b"DROP TABLE s.t;\n"
        proc.stdin.close()
        assert proc.stdout.read() == b"DROP TABLE s.t;\n"
        assert proc.wait(30) == 0
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()


# ---- read in small pieces, the documents (and every offset) are the same -----------------------

def _damaged() -> list[tuple[str, bytes]]:
    out = []
    for path in sorted(STREAMS.glob("*.*")):
        if path.suffix not in (".txt", ".bin"):
            continue
        data = path.read_bytes()
        out.append((path.name, data))
        out.append((path.name + " cut", data[:len(data) * 2 // 3]))
        out.append((path.name + " crlf", data.replace(b"\n", b"\r\n")))
    text = (STREAMS / "test_decoding.txt").read_bytes().split(b"\n")
    text[8] = text[8][:-300]  # a truncated message row
    out.append(("truncated row", b"\n".join(text)))
    batch = bytearray((STREAMS / "parallel_batch_text.bin").read_bytes())
    batch[59:63] = struct.pack(">I", 0x00FFFFFF)  # a damaged length
    out.append(("damaged length", bytes(batch)))
    lines = [DROP_LINE, b'{"fmt": "DROP', b"", b'{"TDDL": "DROP TABLE t"}', b"[1]", b"\xff"]
    out.append(("json lines", b"\n".join(lines * 3)))
    out.append(("bom json lines", b"\xef\xbb\xbf" + b"\n".join(lines)))
    out.append(("pretty", json.dumps([DROP, DROP], indent=2).encode()))
    out.append(("pretty broken", json.dumps(DROP, indent=2).encode()[:-3] + b"\n" + DROP_LINE))
    out.append(("no line parses", b"CREATE TABLE t (a int);\nDROP TABLE t;\n"))
    return out


@pytest.mark.parametrize("name,data", _damaged(), ids=[n for n, _ in _damaged()])
def test_small_reads_give_the_same_documents(name, data, monkeypatch):
    whole = [sig(d) for d in read_documents(data, "in")]
    assert whole
    monkeypatch.setattr(streams_io, "CHUNK", 16)
    for seed in range(3):
        assert [sig(d) for d in read_source(ByteSource(fh=Trickle(data, seed)), "in")] == whole


@pytest.mark.parametrize("tail", [b"", b"\xff\n"])
def test_no_line_parses_one_error_over_a_long_input(tail, monkeypatch):
    # the broken lines are not all kept: the error orjson gives the whole is known from its start
    # (or from a line that is not UTF-8, which orjson reports first)
    import orjson

    data = (b"x" * 99 + b"\n") * 15000 + tail
    with pytest.raises(orjson.JSONDecodeError) as want:
        orjson.loads(data)
    monkeypatch.setattr(streams_io, "CHUNK", 4096)
    docs = list(read_source(ByteSource(fh=Trickle(data)), "in"))
    assert len(docs) == 1 and docs[0].label == "in"
    if tail:  # invalid UTF-8: where it is, in bytes (orjson says "surrogates ... column 1")
        assert docs[0].error.message == "invalid UTF-8 at byte 1500000: invalid start byte"
        assert docs[0].error.position == 1500000
        return
    assert docs[0].error.message == f"malformed JSON: {want.value}"
    assert docs[0].error.position == want.value.pos


def test_unreadable_file_is_one_error(tmp_path):
    docs = list(read_inputs([str(tmp_path / "missing.jsonl"), "-"],
                            stdin=Gate(DROP_LINE, len(DROP_LINE))))
    assert docs[0].error is not None and "cannot read input" in docs[0].error.message
    assert docs[1].index == 1 and docs[1].label == "<stdin>" and docs[1].tree == DROP


# ---- peak memory stays flat ----------------------------------------------------------------------

# Translation costs per document and reading per byte: large documents (a padding key the
# translator ignores) keep these runs short while the inputs are big. The bound is below the input's
# size, so a reader that holds the whole input fails it whatever it does with it (before streaming,
# 100 MiB in: about 330 MiB peak for JSON lines, 230 for decoding text, 125 for batch framing);
# streaming stays near the interpreter's own ~30 MiB.
SIZE = 100 << 20
LIMIT_KB = 90 << 10
PAD = "x" * 16000


# A child's peak RSS counts the memory of the process it was forked from (Linux carries the old
# address space's high-water mark over exec), and pytest may have grown large by now: so a small
# fresh interpreter starts ddlc and reports the peak of that one child.
_MEASURE = """import resource, subprocess, sys
with open(sys.argv[1], "wb") as out, open(sys.argv[2], "wb") as err:
    rc = subprocess.run(sys.argv[3:], stdout=out, stderr=err).returncode
print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def _peak_rss_kb(path) -> tuple[int, bytes]:
    """Run `ddlc translate path` and return its peak RSS (KiB) and its output."""
    out, err = path.with_suffix(".out"), path.with_suffix(".err")
    p = subprocess.run([sys.executable, "-c", _MEASURE, str(out), str(err), *ddlc_command(),
                        "translate", str(path)], capture_output=True, timeout=300)
    assert p.returncode == 0, p.stderr
    rc, peak = p.stdout.split()
    assert rc == b"0", err.read_bytes()[-2000:]
    return int(peak), out.read_bytes()


def _write_repeated(path, head: bytes, unit: bytes) -> int:
    """Write ``head`` then ``unit`` repeated up to SIZE bytes; returns the number of units."""
    count = max(1, (SIZE - len(head)) // len(unit))
    with open(path, "wb") as fh:
        fh.write(head)
        for done in range(0, count, 500):
            fh.write(unit * min(500, count - done))
    return count


def _check_flat(path, expected_docs: int) -> None:
    try:
        peak, out = _peak_rss_kb(path)
        assert out.count(b"DROP TABLE s.t;\n") == expected_docs
        assert peak < LIMIT_KB, f"peak RSS {peak // 1024} MiB for a {SIZE >> 20} MiB input"
    finally:
        for p in (path, path.with_suffix(".out"), path.with_suffix(".err")):
            p.unlink(missing_ok=True)


def test_json_lines_peak_memory_is_flat(tmp_path):
    line = json.dumps(dict(DROP, pad=PAD)).encode() + b"\n"
    path = tmp_path / "big.jsonl"
    n = _write_repeated(path, b"", line)
    _check_flat(path, n)


def test_decoding_text_peak_memory_is_flat(tmp_path):
    content = json.dumps(dict(DROP, pad=PAD)).encode()
    txn = (b"BEGIN 7001\nmessage: prefix deparse, relid 16412, cmdtype: Drop Table, sz: %d content: "
           b"%s\ndecode to : DROP TABLE s.t, [owner alice]\n"
           b"table s.u: INSERT: id[integer]:1\nCOMMIT 7001 (at 2025-08-01 10:00:00+08) CSN 9001\n"
           % (len(content) + 1, content))
    path = tmp_path / "big.txt"
    n = _write_repeated(path, (STREAMS / "test_decoding.txt").read_bytes(), txn)
    _check_flat(path, n)


def test_batch_framing_peak_memory_is_flat(tmp_path):
    def frame(lsn: int, payload: bytes) -> bytes:
        return struct.pack(">IQ", 8 + len(payload), lsn) + payload

    batch = (frame(0x5A0B1C8, b"BEGIN CSN: 3001 first_lsn: 0/5A0B1C8 xid: 20481")
             + frame(0x5A0B1D0, json.dumps({"JDDL": dict(DROP, pad=PAD)}).encode())
             + frame(0x5A0B1D8, b"commit xid: 20481") + struct.pack(">I", 0))
    path = tmp_path / "big.bin"
    n = _write_repeated(path, b"", batch)
    _check_flat(path, n)
