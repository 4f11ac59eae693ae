"""``--input-format`` forces one input form; every reader counts what it read (records = documents + DML/
transaction rows + rolled-back DDL + unrecognised lines; rows files count their rows as read); a piece of a
JSON lines file read on its own gives exactly the documents (labels, lines) of the whole file; test_decoding
and mppdb_decoding message rows saved in a rows file's data column are DDL documents."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ddlc.frontend.txns import Txns
from ddlc.frontend.documents import read_documents, read_inputs, read_source
from ddlc.frontend.streams_io import ByteSource

from test_rows_input import DROP, ROWS, SCHEMA, jsonl

STREAMS = Path(__file__).resolve().parents[1] / "fixtures" / "streams"


def summary(docs):
    return (docs.documents, docs.dml, docs.rolled_back, docs.unrecognised, docs.records)


def test_every_reader_accounts_for_every_record():
    for name in ("test_decoding.txt", "mppdb_decoding.txt", "parallel_batch_json.bin", "parallel_batch_text.bin"):
        docs = read_documents((STREAMS / name).read_bytes(), name)
        got = list(docs)
        assert docs.documents == len(got) > 0, name
        assert docs.dml > 0, name
        assert docs.records == docs.documents + docs.dml + docs.rolled_back + docs.unrecognised
    docs = read_documents(jsonl(ROWS), "rows")
    list(docs)
    assert summary(docs) == (2, 4, 0, 1, 7)  # seven rows, each in one place


def test_rolled_back_ddl_is_counted_not_kept():
    body = json.dumps({"JDDL": DROP})
    text = (f"BEGIN 5\nmessage: prefix deparse, relid 1, cmdtype: Drop, sz: {len(body) + 1} content: {body}\n"
            "ABORT 5\n").encode()
    docs = read_documents(text, "t")
    assert list(docs) == []
    assert (docs.rolled_back, docs.dml, docs.records) == (1, 2, 3)
    p = subprocess.run([sys.executable, "-m", "ddlc", "translate", "--to", "postgres", "-"], input=text,
                       capture_output=True)
    assert p.returncode == 0 and p.stdout == b""
    assert p.stderr.decode().rstrip().endswith(", 2 DML/transaction rows skipped, 1 rolled-back DDL message skipped")


def test_forced_forms():
    data = jsonl(ROWS)
    for form in ("auto", "rows"):
        assert [d.label for d in read_documents_form(data, form)] == ["x:2", "x:6"]
    # forced JSON: each row is a JSON object that is no document
    got = read_documents_form(data, "json")
    assert [d.error.message for d in got][0] == 'missing element "fmt" in JSON object'
    # a rows file whose first row is broken is still a rows file when forced
    broken = b'{"location": "0/1", "xid": 1, "data": \n' + data
    auto = read_documents_form(broken, "auto")
    forced = read_documents_form(broken, "rows")
    assert [d.label for d in forced] == ["x:1", "x:3", "x:7"] and forced[0].error is not None
    assert [d.label for d in auto] != [d.label for d in forced]
    td = (STREAMS / "test_decoding.txt").read_bytes()
    assert [d.label for d in read_documents_form(td, "decoding")] == [d.label for d in read_documents_form(td, "auto")]
    with pytest.raises(ValueError, match="input format"):
        read_inputs(["-"], form="xml")


def read_documents_form(data: bytes, form: str):
    return list(read_source(ByteSource(data), "x", form=form))


def test_cli_input_format_option(tmp_path):
    f = tmp_path / "rows.jsonl"
    f.write_bytes(b'{"location": "0/1", "xid": 1, "data": \n' + jsonl(ROWS))
    p = subprocess.run([sys.executable, "-m", "ddlc", "translate", "--to", "postgres", "--input-format", "rows",
                        str(f)], capture_output=True)
    assert p.returncode == 1  # the broken row fails, alone
    assert p.stdout.decode() == "CREATE SCHEMA s1;\nDROP TABLE s1.t1;\n"
    assert f"{f}:1" in p.stderr.decode()


@pytest.mark.parametrize("form", ["rows_json", "jsonl"])
def test_a_piece_of_a_file_reads_as_in_the_whole(form):
    if form == "rows_json":
        data = jsonl(ROWS * 5)
    else:
        data = b"".join(json.dumps({"JDDL": t}).encode() + b"\n" for t in (SCHEMA, DROP) * 5) + b"not json\n"
    whole = [(d.label, d.line, d.lsn, d.error is None) for d in read_documents(data, "f")]
    lines = data.split(b"\n")
    for cut in range(1, len(lines) - 1):
        at = len(b"\n".join(lines[:cut])) + 1
        # each piece read on its own, its transactions folded with the other pieces' (the pipeline's driver)
        first = list(read_source(ByteSource(data[:at]), "f", form=form, txns=Txns(record=True)))
        second = list(read_source(ByteSource(data[at:]), "f", form=form, line=cut + 1, offset=at,
                                  txns=Txns(record=True)))
        folded = list(Txns().feed(first + second))
        assert [(d.label, d.line, d.lsn, d.error is None) for d in folded] == whole, cut


def test_message_rows_in_a_rows_file():
    body = json.dumps({"JDDL": SCHEMA})
    rows = [("0/10", 7, "BEGIN 7"),
            ("0/18", 7, f"message: prefix deparse, relid 0, cmdtype: Create, sz: {len(body) + 1} content: {body}"),
            ("0/20", 7, "decode to : CREATE SCHEMA s1, [owner u]"),
            ("0/28", 7, f"prefix: deparse, lsn: 40, relid 0, cmdtype: Create, size: {len(body) + 1}, content: {body}"),
            ("0/30", 7, "message: prefix deparse, relid 5, cmdtype: Drop, sz: 30 content: Drop table command start"),
            ("0/38", 7, "message: prefix deparse, relid 0, cmdtype: Create, sz: 9 content: {\"JDDL\"}"),
            ("0/40", 7, "COMMIT 7")]
    docs = read_documents(jsonl(rows), "r")
    got = list(docs)
    assert [(d.label, d.lsn, d.tree is not None) for d in got] == [("r:2", 0x18, True), ("r:4", 0x28, True),
                                                                  ("r:6", 0x38, False)]
    assert got[2].error.message.startswith("malformed JSON")
    assert (docs.dml, docs.unrecognised, docs.records) == (4, 0, 7)
