"""The JSON lines rows reader's fast path (DML and BEGIN/COMMIT rows passed over without building
anything) gives exactly what the full path gives: the same documents, errors and counts."""

from __future__ import annotations

import orjson
from hypothesis import given, settings, strategies as st

from ddlc.frontend import streams_rows
from ddlc.frontend.documents import read_documents
from ddlc.frontend.streams_rows import _DML, _TXN, is_dml_text

HEADS = ["BEGIN", "COMMIT", "ABORT", "table ", "table s.t: INSERT:", "table s.t: UPDATE: ", "table  x: DELETE:",
         "table s.t:\nINSERT:", "BEGIN\n", "COMMITx", " table s.t: INSERT:", '{"JDDL": {"fmt": "DROP TABLE t"}}',
         "message: prefix deparse", "table s.t: TRUNCATE:", "\ttable a: INSERT:"]
text = st.builds(lambda h, t: h + t, st.sampled_from(HEADS),
                 st.text(alphabet=st.sampled_from(list("ab :\n\t'\"INSERTUPDAT\u2028\x1c")), max_size=30))


@given(text)
@settings(max_examples=500)
def test_dml_test_is_the_regular_expressions(t):
    assert is_dml_text(t) == bool(_TXN.match(t) or _DML.match(t))


lsns = st.one_of(st.sampled_from(["0/1A", " 1/FF ", "", None, "zz", "0/123456789", 16, -1, True, "12"]),
                 st.text(max_size=5))
xids = st.one_of(st.sampled_from([None, "", 5, -3, "7", " 8 ", "x", 2.5, True]), st.text(max_size=3))
datas = st.one_of(text, st.sampled_from([5, None, {"table_name": "t", "op_type": "INSERT"}]))
rows = st.lists(st.one_of(
    st.fixed_dictionaries({"location": lsns, "xid": xids, "data": datas}),
    st.fixed_dictionaries({"lsn": lsns, "data": datas}),
    st.fixed_dictionaries({"location": lsns, "xid": xids}),
), min_size=1, max_size=12)


def _read(data: bytes):
    docs = read_documents(data, "r")
    got = [(d.label, d.lsn, d.xid, d.error.message if d.error else None, d.tree) for d in docs]
    return got, (docs.dml, docs.unrecognised, docs.rows, docs.records)


@given(rows)
@settings(max_examples=300)
def test_fast_path_equals_full_path(rs):
    head = orjson.dumps({"location": "0/1", "xid": 1, "data": "BEGIN 1"}) + b"\n"  # a rows file
    data = head + b"".join(orjson.dumps(r) + b"\n" for r in rs)
    fast = _read(data)
    keep = streams_rows._plain_row
    streams_rows._plain_row = lambda row: False
    try:
        full = _read(data)
    finally:
        streams_rows._plain_row = keep
    assert fast == full
