"""History between runs: ``--state`` / ``state=`` carry the catalog from one batch of a log to the next,
so that a log translated in two batches gives the statements one run over the whole log gives."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

import ddlc
from ddlc.frontend.streams_rows import format_lsn
from ddlc.state_file import VERSION, History, StateError


def _col(name: str, typename: str) -> dict:
    return {"fmt": "%{name}I %{coltype}T", "name": name, "type": "column",
            "coltype": {"typmod": "", "typarray": False, "typename": typename, "schemaname": "pg_catalog"}}


def _alter(table: str, sub: dict) -> dict:
    return {"fmt": "ALTER %{objtype}s %{only}s %{identity}D %{subcmds:, }s", "only": "", "objtype": "TABLE",
            "identity": {"objname": table, "schemaname": "hist"}, "subcmds": [sub]}


def _add(table: str, name: str, bound: str) -> dict:
    return _alter(table, {"fmt": "ADD PARTITION %{name}I VALUES LESS THAN (%{maxvalues:, }s)", "name": name,
                          "type": "add partition", "maxvalues": [bound]})


def _drop(table: str, name: str) -> dict:
    return _alter(table, {"fmt": "DROP PARTITION %{name}I", "type": "drop partition", "name": name})


def _create(table: str, cols: list, key: str, parts: list[tuple[str, str]]) -> dict:
    body = ",\n".join(f"    PARTITION {n} VALUES LESS THAN ({b})" for n, b in parts)
    return {"fmt": "CREATE %{persistence}s TABLE %{if_not_exists}s %{identity}D %{table_elements}s %{partition_by}s",
            "persistence": "", "if_not_exists": "", "identity": {"objname": table, "schemaname": "hist"},
            "table_elements": {"fmt": "(%{elements:, }s)", "elements": cols},
            "partition_by": f"\nPARTITION BY RANGE ({key})\n(\n{body}\n)"}


SCHEMA = {"fmt": "CREATE SCHEMA %{if_not_exists}s %{name}I %{authorization}s %{blockchain}s", "if_not_exists": "",
          "name": "hist", "authorization": {"fmt": "AUTHORIZATION %{authorization_role}I", "present": False},
          "blockchain": {"fmt": "WITH BLOCKCHAIN %{blockchain}s", "present": False}}
LOG = [
    SCHEMA,
    _create("readings", [_col("k", "int4"), _col("v", "text")], "k", [("p1", "100"), ("p2", "200")]),
    _create("events", [_col("d", "date"), _col("v", "text")], "d",
            [("e1", "'2024-01-01'"), ("e2", "'2024-02-01'")]),
    _add("readings", "p3", "300"),
    _drop("readings", "p2"),
    _add("events", "e3", "'2024-03-01'"),
    _add("readings", "p4", "400"),
    _drop("events", "e2"),
    _drop("readings", "p3"),
]


def rows(docs: list[dict], start: int = 0) -> bytes:
    """The log as pg_logical_slot_get_changes rows: one transaction per DDL, with a DML row in each."""
    out = []
    for i, d in enumerate(docs, start):
        base = 0x3000000 + i * 0x100
        xid = 1000 + i
        out.append({"location": format_lsn(base), "xid": xid, "data": f"BEGIN {xid}"})
        out.append({"location": format_lsn(base + 8), "xid": xid, "data": json.dumps({"JDDL": d})})
        out.append({"location": format_lsn(base + 16), "xid": xid, "data": "table hist.x: INSERT: a[integer]:1"})
        out.append({"location": format_lsn(base + 24), "xid": xid, "data": f"COMMIT {xid}"})
    return b"".join(json.dumps(r).encode() + b"\n" for r in out)


def statements(data: bytes, target: str, state=None) -> list[str]:
    out = []
    for t in ddlc.translate_many(data, target=target, state=state):
        assert t.error is None, t.error
        out.extend(t.statements)
    return out


WHOLE = {t: statements(rows(LOG), t) for t in ("postgres", "spark")}


def test_the_log_needs_history():
    # without the CREATE TABLE, the lower bound of an added partition is unknown
    assert "CREATE TABLE hist.readings_p3 PARTITION OF hist.readings FOR VALUES FROM (200) TO (300)" \
        in WHOLE["postgres"]
    assert "DELETE FROM hist.events WHERE d >= '2024-01-01' AND d < '2024-02-01'" in WHOLE["spark"]
    alone = list(ddlc.translate_many(rows(LOG[3:4]), target="postgres"))
    assert alone[0].statements != ("CREATE TABLE hist.readings_p3 PARTITION OF hist.readings "
                                   "FOR VALUES FROM (200) TO (300)",)


@pytest.mark.parametrize("target", ["postgres", "spark"])
@given(cut=st.integers(1, len(LOG) - 1))
@settings(max_examples=len(LOG), deadline=None)
def test_two_batches_with_state_equal_one_run(target, cut, tmp_path_factory):
    path = tmp_path_factory.mktemp("state") / "state.json"
    first = statements(rows(LOG[:cut]), target, state=path)
    second = statements(rows(LOG[cut:], start=cut), target, state=path)
    assert first + second == WHOLE[target]


def test_replayed_input_is_skipped(tmp_path):
    path = tmp_path / "state.json"
    statements(rows(LOG[:5]), "postgres", state=path)
    saved = json.loads(path.read_text())
    assert saved["format"] == "ddlc-state" and saved["version"] == VERSION
    # the position is the commit LSN of the last transaction (its COMMIT row), then the place in it
    assert saved["last"] == {"kind": "lsn", "commit": format_lsn(0x3000000 + 4 * 0x100 + 24), "seq": 0, "xid": 1004}
    assert saved["held"] is None
    # the next batch overlaps the first: documents 3 and 4 again, then the new ones
    got = list(ddlc.translate_many(rows(LOG[3:], start=3), target="postgres", state=path))
    assert [t.replayed for t in got] == [True, True] + [False] * (len(LOG) - 5)
    assert [s for t in got for s in t.statements] == statements(rows(LOG), "postgres")[-len(
        [s for t in list(ddlc.translate_many(rows(LOG), target="postgres"))[5:] for s in t.statements]):]


def test_state_round_trip_keeps_parsed_bounds(tmp_path):
    path = tmp_path / "state.json"
    statements(rows(LOG[:3]), "spark", state=path)
    h = History.load(path)
    st_ = h.catalog.tables[("hist", "events")]
    assert [p.upper for p in st_.partitions] == [("'2024-01-01'",), ("'2024-02-01'",)]
    assert all(type(b).__name__ == "BoundText" and b.parsed is not None for p in st_.partitions for b in p.upper)
    h.save(path)
    assert History.load(path).to_json() == h.to_json()
    assert not [f for f in os.listdir(tmp_path) if f != "state.json"]  # no temporary file left behind


def test_newer_state_is_refused(tmp_path):
    path = tmp_path / "state.json"
    path.write_text(json.dumps({"format": "ddlc-state", "version": VERSION + 1, "ddlc": "99.0.0", "catalog": {}}))
    with pytest.raises(StateError, match="written by ddlc 99.0.0 .*upgrade ddlc") as err:
        ddlc.translate_many(rows(LOG), target="postgres", state=path)
    assert err.value.code == "DDLC-E013"
    path.write_text('{"not": "a state"}')
    with pytest.raises(StateError, match="not a ddlc state file"):
        ddlc.translate_many(rows(LOG), target="postgres", state=path)


def _cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ddlc", "translate", *args], capture_output=True, input=stdin)


def test_cli_two_batches(tmp_path):
    state = tmp_path / "s.json"
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_bytes(rows(LOG[:4]))
    b.write_bytes(rows(LOG[2:], start=2))  # overlaps: two documents replayed
    r1 = _cli("--to", "postgres", "--state", str(state), str(a))
    r2 = _cli("--to", "postgres", "--state", str(state), str(b))
    assert r1.returncode == r2.returncode == 0, (r1.stderr, r2.stderr)
    assert (r1.stdout + r2.stdout).decode().splitlines() == [s + ";" for s in WHOLE["postgres"]]
    err = r2.stderr.decode().splitlines()
    assert err[0] == (f"note: {b}:2: replayed input: the state has seen the log up to commit 0/3000318 #0 (xid 1003) "
                      "and this input starts at commit 0/3000218 #0; the documents the state has already seen are "
                      "skipped")
    assert err[-1].endswith(", 2 already seen") and err[-1].startswith("ddlc: 7 documents,")


def test_cli_refuses_a_newer_state(tmp_path):
    state = tmp_path / "s.json"
    state.write_text(json.dumps({"format": "ddlc-state", "version": VERSION + 1, "ddlc": "0.1.0"}))
    r = _cli("--state", str(state), "-", stdin=rows(LOG[:1]))
    assert r.returncode == 2 and r.stdout == b""
    assert f"state format {VERSION + 1}".encode() in r.stderr and b"[DDLC-E013]" in r.stderr
    assert json.loads(state.read_text())["version"] == VERSION + 1  # left as it was
