"""Rows of pg_logical_slot_peek_changes / get_changes / pg_logical_get_area_changes saved as JSON lines or
CSV: each DDL row is a document carrying its LSN, xid and line; DML and BEGIN/COMMIT rows are counted and
never documents (a DDL-looking value inside a DML row stays data); a bad row fails only itself."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys

from hypothesis import given, settings, strategies as st

import ddlc
from ddlc.frontend.documents import read_documents
from ddlc.frontend.streams_rows import format_lsn, parse_lsn

SCHEMA = {"fmt": "CREATE SCHEMA %{if_not_exists}s %{name}I %{authorization}s %{blockchain}s", "if_not_exists": "",
          "name": "s1", "authorization": {"fmt": "AUTHORIZATION %{authorization_role}I", "present": False},
          "blockchain": {"fmt": "WITH BLOCKCHAIN %{blockchain}s", "present": False}}
DROP = {"fmt": "DROP %{objtype}s %{concurrently}s %{if_exists}s %{objidentity}s %{cascade}s", "cascade": "",
        "objtype": "table", "if_exists": "", "objidentity": "s1.t1", "concurrently": ""}
ROWS = [
    ("0/3F6A0A8", 1001, "BEGIN 1001"),
    ("0/3F6A0B0", 1001, json.dumps({"JDDL": SCHEMA})),
    ("0/3F6A0C0", 1001, "table s1.t1: INSERT: a[integer]:1 note[text]:'line one\n{\"TDDL\":\"DROP TABLE x\"}'"),
    ("0/3F6A0C8", 1001, '{"table_name": "s1.t1", "op_type": "INSERT", "columns_val": ["{\\"TDDL\\": 1}"]}'),
    ("0/3F6A0D0", 1001, "COMMIT 1001"),
    ("1/A0", 1002, json.dumps({"JDDL": DROP})),
    ("1/B0", 1002, "something unknown"),
]


def jsonl(rows, key="location") -> bytes:
    return b"".join(json.dumps({key: lsn, "xid": xid, "data": data}).encode() + b"\n" for lsn, xid, data in rows)


def as_csv(rows, key="location") -> bytes:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow([key, "xid", "data"])
    w.writerows(rows)
    return out.getvalue().encode()


def _docs(data: bytes):
    docs = read_documents(data, "rows")
    return [(d.label, d.line, d.lsn, d.xid, d.tree is not None, d.error is None) for d in docs], docs


def test_json_lines_rows():
    got, docs = _docs(jsonl(ROWS))
    assert got == [("rows:2", 2, 0x3F6A0B0, 1001, True, True), ("rows:6", 6, (1 << 32) | 0xA0, 1002, True, True)]
    assert (docs.dml, docs.unrecognised) == (4, 1)
    at = len(jsonl(ROWS[:6]))
    assert str(docs.skipped[0]) == f'rows:7: line not recognised (byte {at}): "something unknown"'


def test_csv_rows_with_multi_line_values():
    got, docs = _docs(as_csv(ROWS, key="lsn"))
    # the DML value spans two lines: the DROP row starts on line 8
    assert got == [("rows:3", 3, 0x3F6A0B0, 1001, True, True), ("rows:8", 8, (1 << 32) | 0xA0, 1002, True, True)]
    assert (docs.dml, docs.unrecognised) == (4, 1)


def test_translate_rows_end_to_end():
    out = [t.statements for t in ddlc.translate_many(jsonl(ROWS), target="postgres")]
    assert out == [("CREATE SCHEMA s1",), ("DROP TABLE s1.t1",)]


def test_bad_rows_fail_alone():
    data = jsonl([ROWS[1]]) + b"not json\n" + b'{"location": "zz", "xid": 1, "data": "BEGIN"}\n' \
        + b'{"location": "0/1", "xid": "x", "data": "BEGIN"}\n' + b'{"location": "0/2", "xid": 2}\n' \
        + b'{"location": "0/3", "xid": 3, "data": "{\\"TDDL\\": broken"}\n' + jsonl([ROWS[5]])
    docs = list(read_documents(data, "rows"))
    assert [(d.label, d.line, d.error.code if d.error else None) for d in docs] == [
        ("rows:1", 1, None), ("rows:2", 2, "DDLC-E001"), ("rows:3", 3, "DDLC-E006"), ("rows:4", 4, "DDLC-E006"),
        ("rows:5", 5, "DDLC-E006"), ("rows:6", 6, "DDLC-E001"), ("rows:7", 7, None)]
    assert "location 'zz' is not an LSN" in str(docs[2].error)


def test_csv_row_with_wrong_field_count():
    data = (b"location,xid,data\n0/1,1,BEGIN\n0/2,1\n" + as_csv([ROWS[1]]).split(b"\n", 1)[1]
            + b"0/3,1,COMMIT\n")  # (a transaction is translated once its COMMIT is read)
    docs = list(read_documents(data, "rows"))
    assert [(d.label, d.error is None) for d in docs] == [("rows:3", False), ("rows:4", True)]
    assert "2 fields, the header has 3" in str(docs[0].error)


def test_other_inputs_are_not_rows():
    # a JSON lines document whose tree happens to have a "data" key is still a document
    tree = dict(SCHEMA, data="x")
    docs = list(read_documents(json.dumps(tree) + "\n" + json.dumps(SCHEMA) + "\n"))
    assert [d.tree is not None for d in docs] == [True, True] and docs[0].lsn is None


def test_decoding_text_documents_carry_their_lsn():
    docs = list(read_documents(open("fixtures/streams/mppdb_decoding.txt", "rb").read()))
    assert docs and all(d.lsn is not None and d.lsn == d.meta["lsn"] for d in docs if d.error is None)


def test_cli_counts_dml_rows(tmp_path):
    p = tmp_path / "rows.csv"
    p.write_bytes(as_csv(ROWS))
    r = subprocess.run([sys.executable, "-m", "ddlc", "translate", "--to", "postgres", str(p)], capture_output=True,
                       text=True)
    assert r.stdout == "CREATE SCHEMA s1;\nDROP TABLE s1.t1;\n"
    assert r.stderr.splitlines()[-1] == ("ddlc: 2 documents, 2 statements written, 0 clauses dropped, "
                                         "0 statements not translated, 0 errors, 1 line not recognised, "
                                         "4 DML/transaction rows skipped")


@given(st.integers(0, (1 << 64) - 1))
@settings(max_examples=200)
def test_lsn_round_trip(v):
    assert parse_lsn(format_lsn(v)) == v


@given(st.lists(st.sampled_from(ROWS), max_size=12), st.sampled_from(["jsonl", "csv"]))
@settings(max_examples=60, deadline=None)
def test_every_row_is_accounted_for(rows, form):
    data = jsonl(rows) if form == "jsonl" else as_csv(rows)
    docs = read_documents(data, "rows")
    n = len(list(docs))
    ddl = sum(1 for r in rows if r[2].startswith('{"JDDL"'))
    assert n == ddl and docs.dml + docs.unrecognised + n == len(rows)
