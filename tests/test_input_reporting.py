"""Nothing in an input is lost silently, and what cannot be a document is a clean error for that
document only (issue 8, items 3, 8 and 9's input parts)."""

from __future__ import annotations

import json
import subprocess

import orjson
import pytest

import ddlc
from conftest import ddlc_command
from ddlc.diagnostics import E_INPUT, E_JSON
from ddlc.errors import DdlcError
from ddlc.frontend.documents import as_document, read_documents
from ddlc.frontend.streams import Record, Skipped, iter_records, sniff
from test_frontend_streams import GEN, read

DROP = {"fmt": "DROP %{objtype}s %{concurrently}s %{if_exists}s %{objidentity}s %{cascade}s",
        "cascade": "CASCADE", "objtype": "table", "if_exists": "IF EXISTS",
        "objidentity": "public.orders", "concurrently": ""}


def ddlc_run(*args: str, stdin: bytes) -> subprocess.CompletedProcess:
    return subprocess.run(ddlc_command() + list(args), input=stdin, capture_output=True, timeout=60)


def summary(p: subprocess.CompletedProcess) -> str:
    return p.stderr.decode().splitlines()[-1]


def skips(data: bytes) -> tuple[list, list[Skipped]]:
    out: list[Skipped] = []
    return list(iter_records(data, "s", out.append)), out


# ---- decoding text: every line is placed, reported, or an error -------------------------------

def test_fixtures_have_no_unrecognised_line():
    for name in GEN.EXPECTED:
        got, skipped = skips(read(name))
        assert skipped == [] and all(isinstance(r, Record) for r in got), name


def test_a_long_preamble_is_counted_and_the_stream_still_read():
    preamble = b"".join(b"psql header line %d\n" % i for i in range(100))
    data = preamble + read("test_decoding.txt")
    assert sniff(data) == "decoding_text"
    docs = read_documents(data, "td.txt")
    got = list(docs)
    assert len(got) == 5 and all(d.error is None for d in got)
    assert docs.unrecognised == 100 and len(docs.skipped) == 100
    first = docs.skipped[0]
    assert (first.line, first.offset, first.excerpt) == (1, 0, '"psql header line 0"')
    assert str(docs.skipped[1]) == 'td.txt:2: line not recognised (byte 19): "psql header line 1"'


def test_a_stream_starting_with_a_dml_row():
    data = read("mppdb_decoding.txt")
    dml = next(l for l in data.split(b"\n") if l.startswith(b'{"table_name"'))
    text = dml + b"\n" + data
    assert sniff(text) == "decoding_text"
    docs = list(read_documents(text, "m.txt"))
    assert len(docs) == 8 and all(d.error is None for d in docs)
    # ... and one starting with a GaussDB serial DDL row, then decoding rows
    text = GEN._tddl("DROP TABLE public.t").encode() + b"\n" + data
    assert sniff(text) == "decoding_text"
    assert [d.tddl for d in read_documents(text)][0] == "DROP TABLE public.t"


def test_a_damaged_ddl_head_is_an_error_with_its_line():
    lines = read("test_decoding.txt").split(b"\n")
    for damage in (b" message", b"mesage", b"MESSAGE"):
        copy = list(lines)
        copy[8] = damage + copy[8][len(b"message"):]
        got = records_of(b"\n".join(copy))
        errs = [r for r in got if isinstance(r, DdlcError)]
        assert len(errs) == 1 and errs[0].document == "s:9" and errs[0].code == E_INPUT
        assert "line 9 looks like a DDL message" in errs[0].message
        assert len(got) == 5  # the other four documents, and the error in place of the fifth
    p = ddlc_run("translate", "-", stdin=b"\n".join(copy))
    assert p.returncode == 1 and "error: <stdin>:9: $: line 9 looks like a DDL message" in p.stderr.decode()


def records_of(data: bytes) -> list:
    return list(iter_records(data, "s"))


def test_abort_of_another_xid_leaves_the_transaction_alone():
    data = read("test_decoding.txt")
    inner = data.replace(b"COMMIT 10216", b"ABORT 99999\nCOMMIT 10216")  # a subtransaction's abort
    got = records_of(inner)
    assert [r.meta.get("aborted") for r in got] == [None] * 5 and got[-1].meta["csn"] == 2104
    docs = list(read_documents(inner))
    assert len(docs) == 5
    own = data.replace(b"COMMIT 10216 (at 2025-08-01 10:00:05.000001+08) CSN 2104", b"ABORT 10216")
    assert len(list(read_documents(own))) == 4  # its own ABORT still rolls it back


def test_unrecognised_batch_frames_are_counted():
    data = read("parallel_batch_json.bin")
    extra = GEN.frame(0x5A0B6A5, b"something new")
    cut = data.index(b'{"TDDL"') - 12
    got, skipped = skips(data[:cut] + extra + data[cut:])
    assert len([r for r in got if isinstance(r, Record)]) == 3
    assert [(s.line, s.offset, s.excerpt) for s in skipped] == [(0, cut, '"something new"')]
    assert str(skipped[0]) == f's@{cut}: frame not recognised: "something new"'


def test_the_cli_counts_and_with_v_reports_each_line():
    data = b"junk \x1b[2J\xff\xe2\x80\xae\n" + read("test_decoding.txt") + b"trailing\n"
    p = ddlc_run("translate", "--to", "postgres", "-", stdin=data)
    assert p.returncode == 0
    assert summary(p).endswith(", 0 errors, 2 lines not recognised, 13 DML/transaction rows skipped")
    assert "note:" not in p.stderr.decode()
    p = ddlc_run("translate", "-v", "--to", "postgres", "-", stdin=data)
    last, at = data.count(b"\n"), data.rindex(b"trailing")
    notes = [l for l in p.stderr.decode().splitlines() if l.startswith("note:")]
    assert notes == ['note: <stdin>:1: line not recognised (byte 0): "junk \\x1b[2J\\xff\\u202e"',
                     f'note: <stdin>:{last}: line not recognised (byte {at}): "trailing"']
    assert b"\x1b" not in p.stderr
    p = ddlc_run("validate", "-v", "-", stdin=data)
    assert summary(p) == "5 of 5 documents valid, 2 lines not recognised"
    p = ddlc_run("translate", "-", stdin=orjson.dumps(DROP))
    assert summary(p).endswith(", 0 errors, 0 lines not recognised")


def test_the_library_sees_the_same():
    data = b"junk\n" + read("test_decoding.txt")
    seen: list[Skipped] = []
    docs = read_documents(data, "in", on_skip=seen.append)
    results = list(ddlc.translate_many(docs, target="postgres"))
    assert len(results) == 5 and all(r.error is None for r in results)
    assert docs.unrecognised == 1 and seen == docs.skipped and seen[0].line == 1


# ---- JSON input: NaN, UTF-8, NUL, lone surrogates -------------------------------------------

@pytest.mark.parametrize("const", ["NaN", "Infinity", "-Infinity"])
def test_non_finite_numbers_are_input_errors(const):
    lines = [orjson.dumps(DROP), b'{"fmt": "DROP TABLE x %{n}n", "n": ' + const.encode() + b"}",
             orjson.dumps({"TDDL": "DROP TABLE t"})]
    docs = list(read_documents(b"\n".join(lines)))
    assert [d.error is None for d in docs] == [True, False, True]
    assert docs[1].error.code == E_JSON and f"{const.lstrip('-')} is not valid JSON" in docs[1].error.message
    with pytest.raises(DdlcError, match="not valid JSON"):
        ddlc.translate(lines[1], target="gaussdb")


def test_invalid_utf8_names_its_byte():
    bad = b'{"TDDL": "DROP TABLE t\xff"}'
    docs = list(read_documents(orjson.dumps(DROP) + b"\n" + bad + b"\n"))
    assert docs[0].error is None
    assert docs[1].error.message == "invalid UTF-8 at byte 22: invalid start byte"
    assert docs[1].error.position == 22 and docs[1].error.code == E_JSON
    whole = b'{\n  "TDDL": "x\xc3"\n}\n'  # one document over several lines
    (doc,) = read_documents(whole)
    assert doc.error.message == "invalid UTF-8 at byte 14: invalid continuation byte"


BAD_STRINGS = [
    ({"TDDL": "DROP TABLE bad\ud800"}, "$.TDDL", "lone surrogate", '"DROP TABLE bad\\ud800"'),
    ({**DROP, "objidentity": "public.n\x00x"}, "$.objidentity", "NUL character", '"public.n\\x00x"'),
    ({"JDDL": {**DROP, "cascade": "\udfff"}}, "$.JDDL.cascade", "lone surrogate", '"\\udfff"'),
    ({"fmt": "COMMENT ON TABLE t IS %{c}L", "c": ["a", {"k\x00": 1}]}, "$.c[1]", "NUL character", '"k\\x00"'),
]


@pytest.mark.parametrize("value,path,problem,shown", BAD_STRINGS)
def test_nul_and_lone_surrogates_fail_their_document_only(value, path, problem, shown):
    text = json.dumps(value)  # \u escapes, as a JSON writer puts them
    assert "\\u" in text
    good = json.dumps(DROP)
    for fmt in ("sql", "json"):
        p = ddlc_run("translate", "--to", "postgres", "--format", fmt, "-",
                     stdin=f"{good}\n{text}\n{good}\n".encode())
        assert p.returncode == 1, p.stderr
        assert "E900" not in p.stderr.decode()
        if fmt == "json":
            rows = [json.loads(l) for l in p.stdout.decode().splitlines()]
            assert [r["error"] is None for r in rows] == [True, False, True]
            assert rows[1]["error"]["code"] == E_INPUT and rows[1]["error"]["path"] == path
            assert problem in rows[1]["error"]["message"] and shown in rows[1]["error"]["message"]
        else:
            assert p.stdout.decode() == "DROP TABLE IF EXISTS public.orders CASCADE;\n" * 2
    # in a JSON array, and as a mapping handed to the library
    docs = list(read_documents(f"[{good}, {text}, {good}]"))
    assert [d.error is None for d in docs] == [True, False, True]
    results = list(ddlc.translate_many([DROP, value, DROP], target="postgres"))
    assert [r.error is None for r in results] == [True, False, True]
    assert results[1].error.code == E_INPUT and results[1].error.jsonpath == path
    assert orjson.dumps(results[1].to_dict())  # writable
    with pytest.raises(DdlcError) as exc:
        ddlc.translate(value, target="gaussdb")
    assert exc.value.code == E_INPUT


def test_nul_in_a_text_frame_is_an_error():
    data = read("parallel_batch_text.bin")
    text = GEN.GAUSS_COMMENT_TEXT.encode()
    bad = data.replace(text, text[:-3] + b"\0" + text[-2:], 1)
    got = records_of(bad)
    errs = [r for r in got if isinstance(r, DdlcError)]
    assert len(errs) == 1 and "NUL" in errs[0].message
    assert len(got) == len(GEN.EXPECTED["parallel_batch_text.bin"])


def test_as_document_checks_what_it_is_given():
    assert as_document({"TDDL": "a\x00"}).error.code == E_INPUT
    assert as_document('{"TDDL": "a\\u0000"}').error.code == E_INPUT
    assert as_document('{"TDDL": "a\\\\u0000"}').error is None  # a backslash, then "u0000"
    assert as_document({"TDDL": "\U0001F600"}).tddl == "\U0001F600"  # a pair is fine
    assert as_document('{"TDDL": "\\ud83d\\ude00"}').tddl == "\U0001F600"
