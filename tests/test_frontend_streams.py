"""Reading DDL documents out of logical-decoding output (ddlc.frontend.streams)."""

from __future__ import annotations

import importlib.util
import json
import struct

import pytest

from conftest import FIXTURES, ROOT
from ddlc.diagnostics import E_INPUT
from ddlc.errors import DdlcError
from ddlc.frontend.documents import read_documents
from ddlc.frontend.streams import Record, iter_records, sniff

STREAMS = FIXTURES / "streams"


def _load_generator():
    spec = importlib.util.spec_from_file_location("make_stream_fixtures",
                                                  ROOT / "tools" / "make_stream_fixtures.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


GEN = _load_generator()
FILES = sorted(GEN.EXPECTED)


def read(name: str) -> bytes:
    return (STREAMS / name).read_bytes()


def records(data: bytes, source: str = "s") -> list[Record | DdlcError]:
    return list(iter_records(data, source))


def only_records(items):
    assert not [x for x in items if isinstance(x, DdlcError)], items
    return items


def value(rec: Record):
    return json.loads(rec.payload) if rec.kind == "json" else rec.payload


# ---- the fixtures -------------------------------------------------------------------------------

@pytest.mark.parametrize("name", FILES)
def test_fixture_is_reproducible(name):
    assert GEN.BUILDERS[name]() == read(name), "run: python tools/make_stream_fixtures.py"


@pytest.mark.parametrize("name", FILES)
def test_fixture_yields_exactly_the_expected_documents(name):
    got = only_records(records(read(name), name))
    want = GEN.EXPECTED[name]
    assert [(r.kind, value(r)) for r in got] == [(k, v) for k, v, _ in want]
    for rec, (_, _, meta) in zip(got, want):
        for key, expected in meta.items():
            assert rec.meta.get(key) == expected, (name, rec.line, key)


def test_fixture_sniffing():
    assert sniff(read("test_decoding.txt")) == "decoding_text"
    assert sniff(read("mppdb_decoding.txt")) == "decoding_text"
    assert sniff(read("parallel_batch_json.bin")) == "parallel_batch"
    assert sniff(read("parallel_batch_text.bin")) == "parallel_batch"


def test_lines_and_offsets_point_at_the_message_rows():
    data = read("test_decoding.txt")
    lines = data.split(b"\n")
    for rec in only_records(records(data)):
        assert lines[rec.line - 1].startswith(b"message: prefix deparse")
        assert data[rec.offset:].startswith(lines[rec.line - 1])
    data = read("parallel_batch_json.bin")
    for rec in only_records(records(data)):
        assert rec.line == 0
        (length,) = struct.unpack(">I", data[rec.offset:rec.offset + 4])
        assert data[rec.offset + 12:rec.offset + 4 + length].decode() == rec.payload


def test_owner_comes_from_the_decode_to_line():
    got = only_records(records(read("test_decoding.txt")))
    assert [r.meta.get("owner") for r in got] == ["alice", None, None, "alice", None]
    got = only_records(records(read("mppdb_decoding.txt")))
    assert [r.meta.get("owner") for r in got] == ["alice", "bob", None, None, None, "alice", None,
                                                  None]
    # owner is taken from the row, not from myowner: change the row and the meta follows
    data = read("test_decoding.txt").replace(b"[owner alice]", b"[owner carol]", 1)
    assert only_records(records(data))[0].meta["owner"] == "carol"


def test_multiline_decode_to_is_one_row():
    # the function body has "BEGIN" and "END;" lines inside the decode-to row: they must not
    # open a transaction (which would lose the COMMIT details of the real one)
    rec = only_records(records(read("test_decoding.txt")))[3]
    assert rec.meta["decode_to"].splitlines()[7] == "BEGIN"
    assert rec.meta["xid"] == 10215 and rec.meta["csn"] == 2103
    assert rec.meta["owner"] == "alice"


def test_drop_start_messages_are_skipped():
    for name in ("test_decoding.txt", "mppdb_decoding.txt"):
        got = only_records(records(read(name)))
        assert not any("command start" in r.payload for r in got)
        assert all(r.payload.startswith("{") for r in got)
        ends = [r for r in got if r.meta["cmdtype"].endswith("End")]
        assert ends and all(r.meta.get("drop_start") for r in ends)


def test_dml_rows_are_ignored():
    for name in FILES:
        for rec in only_records(records(read(name))):
            assert "table_name" not in rec.payload and not rec.payload.startswith("table ")
            assert "op_type" not in rec.payload


def test_crlf_line_ends():
    data = read("test_decoding.txt")
    plain = only_records(records(data))
    crlf = only_records(records(data.replace(b"\n", b"\r\n")))
    assert [(r.payload, r.meta.get("owner"), r.meta.get("decode_to")) for r in crlf] == \
           [(r.payload, r.meta.get("owner"), r.meta.get("decode_to")) for r in plain]


def test_records_are_immutable():
    rec = only_records(records(read("mppdb_decoding.txt")))[0]
    with pytest.raises(AttributeError):
        rec.payload = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        rec.meta["owner"] = "x"  # type: ignore[index]


# ---- damage: one error, the other documents still come out --------------------------------------

def _errors(items):
    return [x for x in items if isinstance(x, DdlcError)]


def test_truncated_message_line_in_the_middle():
    lines = read("test_decoding.txt").split(b"\n")
    assert lines[8].startswith(b"message: prefix deparse, relid 16412, cmdtype: Alter Table")
    lines[8] = lines[8][:-300]  # the line lost its end (sz no longer matches)
    got = records(b"\n".join(lines), "td.txt")
    errs = _errors(got)
    assert len(errs) == 1
    assert errs[0].code == E_INPUT and errs[0].document == "td.txt:9"
    assert errs[0].position == sum(len(x) + 1 for x in lines[:8])
    names = [json.loads(r.payload)["fmt"][:12] for r in got if isinstance(r, Record)]
    assert len(names) == 4  # CREATE, follow-up ALTER, FUNCTION, DROP
    assert got[1] is errs[0]  # reported in place


def test_malformed_header_and_non_json_content():
    data = read("mppdb_decoding.txt").replace(b"prefix: deparse, lsn: 33699300, relid",
                                              b"prefix: deparse, lsn: 3369X300, relid", 1)
    got = records(data, "m.txt")
    assert len(_errors(got)) == 1 and "header" in _errors(got)[0].message
    assert len([r for r in got if isinstance(r, Record)]) == 7
    bad = (b"BEGIN 7\nmessage: prefix deparse, relid 1, cmdtype: Simple, sz: 6 content: hello\n"
           b"COMMIT 7 CSN 9\n")
    got = records(bad)
    assert len(got) == 1 and isinstance(got[0], DdlcError) and got[0].document == "s:2"


def test_invalid_utf8_in_a_message():
    tree = b'{"fmt": "DROP %{objtype}s", "objtype": "t\xff"}'
    row = b"message: prefix deparse, relid 5, cmdtype: Drop Object, sz: %d content: " % (len(tree) + 1)
    data = b"BEGIN 1\n" + row + tree + b"\ndecode to : DROP t?, [owner none]\nCOMMIT 1 CSN 2\n"
    got = records(data + read("test_decoding.txt"))
    assert len(_errors(got)) == 1 and "UTF-8" in _errors(got)[0].message
    assert len(got) == 6


def _frames(data: bytes) -> list[int]:
    """Offsets of the frames of a j/t batch stream (heartbeats end with a zero length)."""
    out, p = [], 0
    while p < len(data):
        if data[p:p + 1] == b"h":
            p += 29
            continue
        (n,) = struct.unpack(">I", data[p:p + 4])
        if n == 0:
            p += 4
            continue
        out.append(p)
        p += 4 + n
    return out


def test_frame_with_damaged_length_in_the_middle():
    data = bytearray(read("parallel_batch_text.bin"))
    first = _frames(bytes(data))[1]  # the CREATE TABLE frame
    for damaged in (0x00FFFFFF, 20):  # far too long / too short (ends inside the payload)
        copy = bytearray(data)
        copy[first:first + 4] = struct.pack(">I", damaged)
        got = records(bytes(copy), "p.bin")
        errs = _errors(got)
        assert len(errs) == 1, got
        assert errs[0].code == E_INPUT and errs[0].position == first
        assert errs[0].document == f"p.bin@{first}"
        assert [r.payload for r in got if isinstance(r, Record)] == [
            GEN.GAUSS_ALTER_TEXT, GEN.GAUSS_COMMENT_TEXT, GEN.GAUSS_PACKAGE_TEXT]


def test_garbage_between_frames_and_bad_utf8_payload():
    data = read("parallel_batch_json.bin")
    cut = _frames(data)[2]  # after the JDDL frame: insert junk bytes
    junk = data[:cut] + b"\x07junk!" + data[cut:]
    got = records(junk)
    assert len(_errors(got)) == 1
    assert len([r for r in got if isinstance(r, Record)]) == 3
    bad = data.replace("公有变量".encode(), b"\xff" * 12, 1)  # same length
    got = records(bad)
    assert len(_errors(got)) == 1 and "UTF-8" in _errors(got)[0].message
    assert [r.meta["xid"] for r in got if isinstance(r, Record)] == [20481, 20490]


def test_truncated_last_frame():
    data = read("parallel_batch_json.bin")
    alter_at = data.index(b'{"TDDL":"ALTER')
    got = records(data[:alter_at + 20])
    assert len(_errors(got)) == 1 and "truncated" in _errors(got)[0].message
    assert [r.meta["xid"] for r in got if isinstance(r, Record)] == [20481, 20485]
    got = records(data[:-2])  # the batch terminator itself is cut
    assert len(_errors(got)) == 1 and len([r for r in got if isinstance(r, Record)]) == 3


# ---- other inputs -------------------------------------------------------------------------------

def test_binary_style_batches_with_separators_and_heartbeat():
    g = GEN
    batch = (g.binary_begin(0x700, 9, 0x700, 42) + b"P" + g.binary_insert(0x780, "public", "t", "a", 23, "1")
             + b"P" + g.binary_commit(0x800, 42) + b"F" + g.heartbeat(0x800, 0x800, 1) + b"F")
    data = batch + g.frame(0x900, g._tddl("DROP TABLE public.t")) + g.BATCH_END
    assert sniff(data) == "parallel_batch"
    got = only_records(records(data))
    assert [r.payload for r in got] == ['{"TDDL":"DROP TABLE public.t"}']
    assert got[0].meta["batch"] == 1  # one 'F' ended the first batch; the heartbeat's 'F' did not


def test_gaussdb_serial_rows():
    dml = GEN._cjson_dml("public.t", "INSERT", ["a"], ["integer"], ["1"])
    data = ("BEGIN 77\n" + GEN._tddl(GEN.GAUSS_CREATE_TEXT) + "\n" + dml + "\n"
            + GEN.GAUSS_JDDL + "\nCOMMIT 77 (at 2025-08-01 12:00:00+08) CSN 300\n").encode()
    assert sniff(data) == "decoding_text"
    got = only_records(records(data))
    assert [value(r) for r in got] == [{"TDDL": GEN.GAUSS_CREATE_TEXT}, json.loads(GEN.GAUSS_JDDL)]
    assert all(r.meta["xid"] == 77 and r.meta["csn"] == 300 for r in got)


def test_dml_continuation_lines_are_not_errors():
    data = (b"BEGIN 5\ntable public.t: INSERT: a[text]:'x\n{not json\n[neither\nBEGIN\n'\n"
            b"COMMIT 5 CSN 6\n")
    assert records(data) == []


def test_rows_without_begin_commit_are_kept():
    data = b"\n".join(l for l in read("mppdb_decoding.txt").split(b"\n")
                      if not l.startswith((b"BEGIN", b"COMMIT")))
    got = only_records(records(data))
    assert len(got) == 8 and got[1].meta["owner"] == "bob" and "xid" not in got[1].meta


def test_abort_marks_the_records():
    data = read("test_decoding.txt").replace(b"COMMIT 10216 (at 2025-08-01 10:00:05.000001+08) CSN 2104",
                                             b"ABORT 10216")
    got = only_records(records(data))
    assert got[-1].meta.get("aborted") is True and "csn" not in got[-1].meta


@pytest.mark.parametrize("data", [
    b'{"fmt": "DROP %{objtype}s", "objtype": "table"}',
    b'  [{"fmt": "x"}, {"TDDL": "CREATE TABLE t (a int)"}]',
    b'{"fmt": "x"}\n{"JDDL": {"fmt": "y"}}\n{"TDDL": "DROP TABLE t"}\n',
    b'{"TDDL":"CREATE TABLE t (a int)"}\n',
    b"",
    b"   \n\n",
    b"CREATE TABLE t (a int);\n",
    b"BEGIN;\nCREATE TABLE t (a int);\nCOMMIT;\n",
])
def test_sniff_other_inputs_is_none(data):
    assert sniff(data) is None


def test_read_documents_takes_streams():
    for name in FILES:
        docs = list(read_documents(read(name), name))
        assert docs and all(d.error is None for d in docs), [d.error for d in docs]
        assert len(docs) == len(GEN.EXPECTED[name])
    docs = list(read_documents(read("parallel_batch_json.bin"), "p.bin"))
    assert docs[0].tree["identity"]["object_name"] == "test_create_table_a"
    assert docs[1].tddl == GEN.GAUSS_PACKAGE_TEXT
    docs = list(read_documents(read("parallel_batch_text.bin"), "t.bin"))
    assert [d.tddl for d in docs][0] == GEN.GAUSS_CREATE_TEXT


def test_big_stream_is_linear():
    one = read("test_decoding.txt")
    big = one * 400  # ~3 MB, 2000 documents
    got = records(big)
    assert len(got) == 2000 and not _errors(got)
