"""Stream positions by commit, proven on a real PostgreSQL 15 logical slot.

PostgreSQL does not decode DDL, but ``pg_logical_emit_message(true, ...)`` is decoded inside its
transaction, in commit order, with the server's own LSNs and xids. Each test runs interleaved
transactions whose DDL documents ride on such messages, reads the slot's rows
(``pg_logical_slot_peek_changes``: lsn, xid, data) and turns each message row into the GaussDB DDL row
it stands for (data = the JDDL document), keeping everything else as the server printed it.

The property: a log cut into batches at any row and translated batch by batch with ``--state`` gives
exactly what one run over the whole log gives: nothing lost (a transaction that committed after
another one emitted first has lower change LSNs), nothing doubled (a batch that overlaps the last one).
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import ddlc
from ddlc.frontend.documents import read_documents

from test_state import LOG  # partition DDL whose translation needs the stream's history


def _table(name: str) -> dict:
    return {"fmt": "CREATE %{persistence}s TABLE %{if_not_exists}s %{identity}D %{table_elements}s",
            "persistence": "", "if_not_exists": "", "identity": {"objname": name, "schemaname": "hist"},
            "table_elements": {"fmt": "(%{elements:, }s)", "elements": [
                {"fmt": "%{name}I %{coltype}T", "name": "a", "type": "column",
                 "coltype": {"typmod": "", "typarray": False, "typename": "int4", "schemaname": "pg_catalog"}}]}}


@pytest.fixture(scope="module")
def slot_db(pg_server):
    """A database with a test_decoding slot; each use drains the slot first."""
    name = pg_server.fresh_database()
    admin = pg_server.connect(name)
    admin.execute("SET synchronous_commit = on")  # (the slot reads only flushed WAL)
    admin.execute("SELECT pg_create_logical_replication_slot('ddlc_positions', 'test_decoding')")
    admin.execute("CREATE TABLE noise(a int)")
    yield pg_server, name, admin
    admin.execute("SELECT pg_drop_replication_slot('ddlc_positions')")
    admin.close()
    pg_server.drop_database(name)


def _log(slot_db, schedule: list[tuple[int, str, dict | None]]) -> list[dict]:
    """Run ``schedule`` (session, "ddl" | "dml" | "commit", document) over as many connections and read
    the slot: the rows as a GaussDB rows file would hold them."""
    server, name, admin = slot_db
    admin.execute("SELECT count(*) FROM pg_logical_slot_get_changes('ddlc_positions', NULL, NULL)")  # drain
    conns: dict[int, object] = {}
    try:
        for who, what, doc in schedule:
            conn = conns.get(who)
            if conn is None:
                conn = conns[who] = server.connect(name)
                conn.execute("SET synchronous_commit = on")  # (the slot reads only flushed WAL)
                conn.autocommit = False
            if what == "ddl":
                conn.execute("SELECT pg_logical_emit_message(true, 'ddlc', %s)", (json.dumps({"JDDL": doc}),))
            elif what == "dml":
                conn.execute("INSERT INTO noise VALUES (1)")
            else:
                conn.commit()
        for conn in conns.values():
            conn.commit()
    finally:
        for conn in conns.values():
            conn.close()
    got = admin.execute("SELECT lsn::text, xid::text, data FROM pg_logical_slot_get_changes("
                        "'ddlc_positions', NULL, NULL)").fetchall()
    rows = []
    for lsn, xid, data in got:
        if data.startswith("message: transactional: 1 prefix: ddlc, sz: "):
            data = data.split(" content:", 1)[1]  # the DDL row the message stands for
        rows.append({"lsn": lsn, "xid": xid, "data": data})
    return rows


def _bytes(rows: list[dict]) -> bytes:
    return b"".join(json.dumps(r).encode() + b"\n" for r in rows)


def _translate(rows: list[dict], target: str, state=None, strict: bool = True) -> list[str]:
    """The statements of the log, in order (``strict=False``: a failed document as its error code)."""
    out = []
    for t in ddlc.translate_many(_bytes(rows), target=target, state=state):
        if strict:
            assert t.error is None, t.error
        elif t.error is not None:
            out.append(t.error.code)
        out.extend(t.statements)
    return out


def test_a_transaction_that_commits_last_is_not_lost(slot_db, tmp_path):
    # T1 runs its DDL first and commits after T2: its DDL's change LSN is below T2's
    rows = _log(slot_db, [(1, "ddl", _table("t_long")), (2, "dml", None), (2, "ddl", _table("t_short")),
                          (2, "commit", None), (1, "dml", None), (1, "commit", None)])
    lsns = {r["data"]: r["lsn"] for r in rows}
    first_ddl = [r for r in rows if "t_long" in r["data"]][0]
    second_ddl = [r for r in rows if "t_short" in r["data"]][0]

    def lsn(text: str) -> int:
        hi, lo = text.split("/")
        return int(hi, 16) << 32 | int(lo, 16)

    assert lsn(first_ddl["lsn"]) < lsn(second_ddl["lsn"]), lsns  # the shape the issue reproduced
    assert rows.index(second_ddl) < rows.index(first_ddl)  # emitted in commit order
    cut = next(i for i, r in enumerate(rows) if r["data"].startswith("COMMIT")) + 1  # batch 1 = T2
    state = tmp_path / "s.json"
    one = _translate(rows[:cut], "postgres", state)
    two = _translate(rows[cut:], "postgres", state)
    assert one == ["CREATE TABLE hist.t_short (a integer)"]
    assert two == ["CREATE TABLE hist.t_long (a integer)"]
    assert one + two == _translate(rows, "postgres")
    # the same through the command line
    cstate = tmp_path / "c.json"
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_bytes(_bytes(rows[:cut]))
    b.write_bytes(_bytes(rows[cut:]))
    out = ""
    for f in (a, b):
        r = subprocess.run([sys.executable, "-m", "ddlc", "translate", "--to", "postgres", "--state", str(cstate),
                            str(f)], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        out += r.stdout
    assert out == "CREATE TABLE hist.t_short (a integer);\nCREATE TABLE hist.t_long (a integer);\n"


def test_positions_are_the_commit_lsn_then_the_place_in_the_transaction(slot_db):
    rows = _log(slot_db, [(1, "ddl", _table("a1")), (2, "ddl", _table("b1")), (1, "ddl", _table("a2")),
                          (2, "commit", None), (1, "commit", None)])
    commits = [r["lsn"] for r in rows if r["data"].startswith("COMMIT")]
    docs = list(read_documents(_bytes(rows)))
    assert [d.tree["identity"]["objname"] for d in docs] == ["b1", "a1", "a2"]
    assert [(d.position.text()) for d in docs] == [f"{commits[0]} #0", f"{commits[1]} #0", f"{commits[1]} #1"]


def _schedule(draw_order: list[int], sessions: int) -> list[tuple[int, str, dict | None]]:
    """Each session runs its share of LOG's documents (and a row of DML) in one transaction, in the
    interleaving ``draw_order`` gives; a session commits after its last step."""
    steps: dict[int, list] = {s: [] for s in range(sessions)}
    for i, doc in enumerate(LOG):
        steps[i % sessions].append(("ddl", doc))
    for s in steps:
        steps[s].insert(len(steps[s]) // 2, ("dml", None))
        steps[s].append(("commit", None))
    out, at = [], {s: 0 for s in steps}
    for s in draw_order:
        if at[s] < len(steps[s]):
            what, doc = steps[s][at[s]]
            out.append((s, what, doc))
            at[s] += 1
    for s in steps:  # what the order left out, in session order
        for what, doc in steps[s][at[s]:]:
            out.append((s, what, doc))
    return out


@given(order=st.lists(st.integers(0, 2), min_size=6, max_size=30), cuts=st.lists(st.integers(0, 60), max_size=3))
@settings(max_examples=12, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_any_interleaving_cut_anywhere_translates_as_the_whole_log(slot_db, tmp_path_factory, order, cuts):
    rows = _log(slot_db, _schedule(order, 3))
    bounds = sorted({min(c, len(rows)) for c in cuts} | {0, len(rows)})
    for target in ("postgres", "spark"):
        # (an interleaving may put an ADD PARTITION before its table: that document fails the same way)
        whole = _translate(rows, target, strict=False)
        assert len([s for s in whole if not s.startswith("DDLC-")]) >= 3
        state = tmp_path_factory.mktemp("state") / "s.json"
        got: list[str] = []
        for lo, hi in itertools.pairwise(bounds):
            got += _translate(rows[lo:hi], target, state, strict=False)
        assert got == whole, (target, bounds)
        # and a batch that overlaps what the state has seen adds nothing
        assert _translate(rows, target, state) == []


# ---- the pipeline: the same fold on the driver, over pieces cut anywhere ---------------------------------
def _pipeline_sql(spark, paths: list, out, state=None, piece_size: int = 1, overwrite: bool = False) -> str:
    from ddlc.pipeline.run import run

    run([str(p) for p in paths], str(out), ("postgres",), spark=spark.session, piece_size=piece_size,
        state=str(state) if state else None, report=lambda _: None, overwrite=overwrite)
    return (out / "postgres.sql").read_text()


def test_the_pipeline_orders_and_continues_by_commit(slot_db, spark, tmp_path):
    """Pieces of one byte (every row its own piece: transactions cut everywhere), local[2] here and
    local[1] through the command line, batches with --state: all equal to ddlc translate."""
    rows = _log(slot_db, _schedule([0, 1, 2, 0, 0, 1, 1, 2, 2, 0, 1, 2, 2, 1], 3))
    log = tmp_path / "log.jsonl"
    log.write_bytes(_bytes(rows))
    cli = subprocess.run([sys.executable, "-m", "ddlc", "translate", "--to", "postgres", str(log)],
                         capture_output=True, text=True)
    assert cli.returncode == 0 and cli.stdout.count(";\n") >= 5, cli.stderr
    assert _pipeline_sql(spark, [log], tmp_path / "whole") == cli.stdout
    one = subprocess.run([sys.executable, "-m", "ddlc", "pipeline", "run", "--input", str(log), "--to", "postgres",
                          "--output", str(tmp_path / "local1"), "--master", "local[1]", "--piece-size", "1"],
                         capture_output=True, text=True)
    assert one.returncode == 0, one.stderr
    assert (tmp_path / "local1" / "postgres.sql").read_text() == cli.stdout
    # batches cut inside transactions, with a state: the pipeline and the CLI give the whole log's statements
    begins = [i for i, r in enumerate(rows) if r["data"].startswith("BEGIN")]
    cuts = [0, begins[1] + 2, begins[2] + 1, len(rows)]  # each cut just inside a transaction
    state, cstate = tmp_path / "p.json", tmp_path / "c.json"
    got = cgot = ""
    for i, (lo, hi) in enumerate(itertools.pairwise(cuts)):
        part = tmp_path / f"b{i}.jsonl"
        part.write_bytes(_bytes(rows[lo:hi]))
        got += _pipeline_sql(spark, [part], tmp_path / f"out{i}", state)
        r = subprocess.run([sys.executable, "-m", "ddlc", "translate", "--to", "postgres", "--state", str(cstate),
                            str(part)], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        cgot += r.stdout
    assert got == cgot == cli.stdout
    assert json.loads(state.read_text())["last"] == json.loads(cstate.read_text())["last"]


# ---- decoding text: positions by the COMMIT line's CSN, transactions cut anywhere ---------------------------
@pytest.mark.parametrize("name", ["test_decoding.txt", "mppdb_decoding.txt"])
def test_decoding_text_cut_at_any_row_translates_as_the_whole(name, tmp_path):
    import re

    from conftest import FIXTURES

    data = (FIXTURES / "streams" / name).read_bytes()
    lines = data.split(b"\n")
    starts = [i for i, line in enumerate(lines) if re.match(rb"(BEGIN \d|COMMIT \d|message: |prefix: )", line)]

    def run(chunk: bytes, state=None) -> list:
        out = []
        for t in ddlc.translate_many(chunk, target="postgres", state=state):
            out.append(t.error.code if t.error is not None else t.statements)
        return out

    whole = run(data)
    assert len(whole) >= 5 and not [x for x in whole if isinstance(x, str)], whole
    docs = list(read_documents(data))
    assert all(d.position is not None and d.position.kind == "csn" for d in docs)
    assert [d.position.commit for d in docs] == sorted(d.position.commit for d in docs)
    for cut in starts[1:]:
        state = tmp_path / f"s{cut}.json"
        first, second = b"\n".join(lines[:cut]) + b"\n", b"\n".join(lines[cut:])
        got = run(first, state) + run(second, state)
        assert got == whole, cut
        # without a state, a transaction cut in two fails loudly (DDLC-E015) instead of being half translated
        alone = run(first)
        assert all(x == whole[i] or x == "DDLC-E015" for i, x in enumerate(alone)), cut


@given(order=st.lists(st.integers(0, 2), min_size=6, max_size=24), cuts=st.lists(st.integers(1, 50), min_size=1,
                                                                                     max_size=2))
@settings(max_examples=3, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_the_pipeline_in_batches_equals_translate_over_any_interleaving(slot_db, spark, tmp_path_factory, order,
                                                                       cuts):
    rows = _log(slot_db, _schedule(order, 3))
    d = tmp_path_factory.mktemp("p")
    whole = d / "whole.jsonl"
    whole.write_bytes(_bytes(rows))
    cli = subprocess.run([sys.executable, "-m", "ddlc", "translate", "--to", "postgres", str(whole)],
                         capture_output=True, text=True)
    bounds = sorted({min(c, len(rows)) for c in cuts} | {0, len(rows)})
    got = ""
    for i, (lo, hi) in enumerate(itertools.pairwise(bounds)):
        part = d / f"b{i}.jsonl"
        part.write_bytes(_bytes(rows[lo:hi]))
        got += _pipeline_sql(spark, [part], d / f"out{i}", d / "state.json", piece_size=200)
    assert got == cli.stdout, bounds
