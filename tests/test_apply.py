"""``ddlc apply`` (issue 24) on the tests' own PostgreSQL 15: exactly once, failures kept, locks, plan.

The logs are real decoding output: interleaved transactions on a ``test_decoding`` slot whose DDL rides
on ``pg_logical_emit_message`` (as tests/test_positions.py does), each message row turned into the GaussDB
DDL row it stands for (TDDL text). The helpers here are shared with tests/test_apply_kill.py.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import ddlc
from conftest import ddlc_command

ROOT = Path(__file__).resolve().parents[1]

AUDIT = """
CREATE TABLE public.audit_ddl (n bigserial PRIMARY KEY, tag text NOT NULL, query text NOT NULL);
CREATE FUNCTION public.audit_ddl_fn() RETURNS event_trigger LANGUAGE plpgsql AS $f$
BEGIN
  INSERT INTO public.audit_ddl (tag, query) VALUES (tg_tag, current_query());
END $f$;
CREATE EVENT TRIGGER audit_ddl ON ddl_command_end EXECUTE FUNCTION public.audit_ddl_fn();
"""


# ---- logs -----------------------------------------------------------------------------------------
class _Session:
    """One source session's objects (its own schema), so that its DDL is coherent whatever runs beside it."""

    def __init__(self, n: int, rng: random.Random) -> None:
        self.schema, self.rng, self.k = f"s{n}", rng, 0
        self.tables: list[str] = []
        self.views: dict[str, str] = {}  # view -> table
        self.first = True

    def _name(self, p: str) -> str:
        self.k += 1
        return f"{p}{self.k}"

    def statement(self, alone_ok: bool) -> str:
        s, rng = self.schema, self.rng
        if self.first:
            self.first = False
            return f"CREATE SCHEMA {s}"
        if len(self.tables) < 2 or rng.random() < 0.2:
            t = self._name("t")
            self.tables.append(t)
            return f"CREATE TABLE {s}.{t} (id int, v varchar(20))"
        t = rng.choice(self.tables)
        r = rng.random()
        if r < 0.25:
            return f"ALTER TABLE {s}.{t} ADD COLUMN {self._name('c')} int"
        if r < 0.4:
            return f"CREATE INDEX {self._name('i')} ON {s}.{t} (id)"
        if r < 0.43 and alone_ok:
            return f"CREATE INDEX CONCURRENTLY {self._name('ci')} ON {s}.{t} (v)"
        if r < 0.6:
            return f"COMMENT ON TABLE {s}.{t} IS 'it''s {self._name('m')}'"
        if r < 0.7:
            v = self._name("v")
            self.views[v] = t
            return f"CREATE VIEW {s}.{v} AS SELECT id FROM {s}.{t}"
        if r < 0.8:
            return f"CREATE SEQUENCE {s}.{self._name('q')}"
        if r < 0.88 and len(self.tables) > 2:
            self.tables.remove(t)
            for v in [v for v, on in self.views.items() if on == t]:
                del self.views[v]
            return f"DROP TABLE {s}.{t} CASCADE"
        return f"ALTER TABLE {s}.{t} ALTER COLUMN v SET DEFAULT 'x'"


def decoding_rows(server, statements: int, sessions: int = 4, seed: int = 1, commit: float = 0.35) -> list[dict]:
    """Run interleaved transactions on ``sessions`` connections of a database with a test_decoding slot,
    each DDL statement a transactional logical message, until ``statements`` were emitted (an open transaction
    commits with probability ``commit`` at each turn of its session); the slot's rows
    as a GaussDB rows file holds them (each message as the DDL row it stands for)."""
    rng = random.Random(seed)
    db = server.fresh_database()
    admin = server.connect(db)
    admin.execute("SET synchronous_commit = on")
    slot = f"apply_{seed}_{statements}"
    admin.execute("SELECT pg_create_logical_replication_slot(%s, 'test_decoding')", (slot,))
    admin.execute("CREATE TABLE noise (a int)")
    conns, srcs, open_ = [], [], []
    for n in range(sessions):
        c = server.connect(db)
        c.execute("SET synchronous_commit = on")
        c.autocommit = False
        conns.append(c)
        srcs.append(_Session(n, rng))
        open_.append(0)
    emitted = 0
    while emitted < statements or any(open_):
        i = rng.randrange(sessions)
        c = conns[i]
        if open_[i] and (rng.random() < commit or emitted >= statements):
            c.commit()
            open_[i] = 0
            continue
        if emitted >= statements:
            continue
        if rng.random() < 0.15:
            c.execute("INSERT INTO noise VALUES (1)")
        stmt = srcs[i].statement(alone_ok=True)
        c.execute("SELECT pg_logical_emit_message(true, 'ddlc', %s)", (json.dumps({"TDDL": stmt}),))
        open_[i] += 1
        emitted += 1
    for c in conns:
        c.commit()
        c.close()
    got = admin.execute("SELECT lsn::text, xid::text, data FROM pg_logical_slot_get_changes(%s, NULL, NULL)",
                        (slot,)).fetchall()
    admin.execute("SELECT pg_drop_replication_slot(%s)", (slot,))
    admin.close()
    rows = []
    for lsn, xid, data in got:
        if data.startswith("message: transactional: 1 prefix: ddlc, sz: "):
            data = data.split(" content:", 1)[1]
        rows.append({"lsn": lsn, "xid": xid, "data": data})
    return rows


def write_rows(rows: list[dict], path: Path) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def last_commit(rows: list[dict]) -> int:
    hi, lo = [r for r in rows if r["data"].startswith("COMMIT")][-1]["lsn"].split("/")
    return int(hi, 16) << 32 | int(lo, 16)


def audited_database(server) -> str:
    db = server.fresh_database()
    with server.connect(db) as conn:
        conn.execute(AUDIT)
    return db


def audit(server, db: str) -> list[tuple[str, str]]:
    """The DDL the server ran in ``db`` (the event trigger's log), without ddlc's own tables' creation."""
    with server.connect(db) as conn:
        rows = conn.execute("SELECT tag, query FROM public.audit_ddl ORDER BY n").fetchall()
    return [r for r in rows if '"ddlc"' not in r[1]]


def apply_cli(server, db: str, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([*ddlc_command(), "apply", "--dsn", server.conninfo(db), *args], capture_output=True,
                          text=True, timeout=timeout)


def snapshot(server, db: str) -> str:
    from engines.catalog import snapshot as snap

    with server.connect(db) as conn:
        return snap(conn)


def progress(server, db: str, source: str = "default", table: str = '"ddlc"."progress"'):
    with server.connect(db) as conn:
        if conn.execute("SELECT to_regclass(%s)", (table,)).fetchone() == (None,):
            return None
        return conn.execute(f"SELECT kind, commit_pos, seq FROM {table} WHERE source = %s", (source,)).fetchone()


def failed_rows(server, db: str) -> list[tuple]:
    with server.connect(db) as conn:
        return conn.execute("SELECT id, status, held_by, sqlstate, start FROM ddlc.failed ORDER BY id").fetchall()


# ---- small logs -----------------------------------------------------------------------------------
def txn_rows(txns: list[list[str]], xid: int = 700, lsn: int = 0x3000000) -> list[dict]:
    """A rows file of ``txns`` (each a list of DDL texts), one transaction after the other."""
    rows = []
    for stmts in txns:
        rows.append({"lsn": f"0/{lsn:X}", "xid": str(xid), "data": f"BEGIN {xid}"})
        for s in stmts:
            lsn += 0x28
            rows.append({"lsn": f"0/{lsn:X}", "xid": str(xid), "data": json.dumps({"TDDL": s})})
        lsn += 0x28
        rows.append({"lsn": f"0/{lsn:X}", "xid": str(xid), "data": f"COMMIT {xid}"})
        xid += 1
        lsn += 0x100
    return rows


SMALL = [["CREATE SCHEMA app", "CREATE TABLE app.a (id int, v varchar(20))"],
         ["CREATE TABLE app.b (id int)", "COMMENT ON TABLE app.b IS 'b'"],
         ["ALTER TABLE app.a ADD COLUMN w int", "CREATE INDEX a_id ON app.a (id)"],
         ["CREATE TABLE app.c (id int)"],
         ["ALTER TABLE app.b ADD COLUMN x int"],
         ["ALTER TABLE app.a ADD COLUMN z int", "CREATE VIEW app.av AS SELECT id, z FROM app.a"]]


def test_applies_a_log_once_and_a_rerun_applies_nothing(pg_server, tmp_path):
    log = write_rows(txn_rows(SMALL), tmp_path / "log.jsonl")
    db = audited_database(pg_server)
    r = apply_cli(pg_server, db, str(log))
    assert r.returncode == 0, r.stderr
    assert "6 transactions applied (10 statements), 0 retried, 0 failed, 0 held, 0 skipped" in r.stderr
    ran = audit(pg_server, db)
    assert len(ran) == 10
    r = apply_cli(pg_server, db, "--format", "json", str(log))
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["applied"] == 0 and out["skipped"] == 6 and out["failed"] == 0
    assert audit(pg_server, db) == ran
    kind, commit, seq = progress(pg_server, db)
    assert (kind, int(commit), seq) == ("lsn", last_commit(txn_rows(SMALL)), 1)
    # the same statements as ddlc translate writes, in the same order
    sql = [s for t in ddlc.translate_many(log) for s in t.statements]
    assert [q for _, q in ran] == sql


def test_library_apply_matches_the_command(pg_server, tmp_path):
    log = write_rows(txn_rows(SMALL), tmp_path / "log.jsonl")
    a, b = pg_server.fresh_database(), pg_server.fresh_database()
    assert apply_cli(pg_server, a, str(log)).returncode == 0
    res = ddlc.apply(log, dsn=pg_server.conninfo(b))
    assert res.ok and res.applied == 6 and res.statements == 10, res
    assert snapshot(pg_server, a) == snapshot(pg_server, b)
    again = ddlc.apply(log.read_bytes(), dsn=pg_server.conninfo(b))
    assert again.applied == 0 and again.skipped == 6
    only = ddlc.apply(dsn=pg_server.conninfo(b), retry=True)  # no log: the failed table only
    assert only.ok and only.applied == 0
    with pytest.raises(ValueError):
        ddlc.apply(log, dsn=pg_server.conninfo(b), on_error="explode")
    with pytest.raises(ValueError):
        ddlc.apply(log, dsn=pg_server.conninfo(b), target="spark")


def test_a_role_that_may_not_create_ddlc_tables_is_told_so(pg_server, tmp_path):
    log = write_rows(txn_rows(SMALL[:1]), tmp_path / "log.jsonl")
    db = pg_server.fresh_database()
    with pg_server.connect(db) as conn:
        conn.execute("DROP ROLE IF EXISTS ddlc_weak")
        conn.execute("CREATE ROLE ddlc_weak LOGIN")
        conn.execute(f'REVOKE CREATE ON DATABASE "{db}" FROM PUBLIC')
    r = subprocess.run([*ddlc_command(), "apply", "--dsn", pg_server.conninfo(db).replace("user=postgres", "user=ddlc_weak"),
                        str(log)], capture_output=True, text=True)
    assert r.returncode == 2 and "cannot start applying: permission denied" in r.stderr, r.stderr


def test_a_transaction_is_all_or_nothing_and_stop_records_it(pg_server, tmp_path):
    bad = [SMALL[0], ["CREATE TABLE app.d (id int)", "CREATE TABLE app.a (id int)"], ["CREATE TABLE app.e (id int)"]]
    log = write_rows(txn_rows(bad), tmp_path / "log.jsonl")
    db = pg_server.fresh_database()
    r = apply_cli(pg_server, db, str(log))
    assert r.returncode == 1
    assert 'relation "a" already exists' in r.stderr and "recorded in the failed table as id" in r.stderr
    with pg_server.connect(db) as conn:
        assert conn.execute("SELECT to_regclass('app.d')").fetchone() == (None,)  # rolled back with its transaction
        assert conn.execute("SELECT to_regclass('app.e')").fetchone() == (None,)  # stopped before it
        row = conn.execute("SELECT status, sqlstate, failed_statement, statements, error, documents "
                           "FROM ddlc.failed").fetchone()
    assert row[0] == "failed" and row[1] == "42P07" and row[2] == 1
    assert row[3] == ["CREATE TABLE app.d (id integer)", "CREATE TABLE app.a (id integer)"]
    assert 'relation "a" already exists' in row[4] and len(row[5]) == 2
    kind, commit, _ = progress(pg_server, db)
    assert int(commit) == last_commit(txn_rows(bad[:1]))
    # the DBA drops the conflicting table; the rerun applies it (and marks the failure applied)
    with pg_server.connect(db) as conn:
        conn.execute("ALTER TABLE app.a RENAME TO a_old")
    r = apply_cli(pg_server, db, str(log))
    assert r.returncode == 0, r.stderr
    assert failed_rows(pg_server, db)[0][1] == "applied"
    with pg_server.connect(db) as conn:
        assert conn.execute("SELECT to_regclass('app.e') IS NOT NULL").fetchone() == (True,)


def test_hold_keeps_applying_what_does_not_touch_the_failure_then_retry(pg_server, tmp_path):
    txns = [SMALL[0], ["CREATE TABLE app.b (id int)"],
            ["ALTER TABLE app.a ADD CONSTRAINT fk FOREIGN KEY (id) REFERENCES app.nowhere (id)"],  # no app.nowhere
            ["CREATE TABLE app.c (id int)"],  # independent: applied
            ["ALTER TABLE app.a ADD COLUMN later int"],  # touches app.a: held
            ["ALTER TABLE app.b ADD COLUMN y int"]]  # independent: applied
    rows = txn_rows(txns)
    log = write_rows(rows, tmp_path / "log.jsonl")
    db = pg_server.fresh_database()
    r = apply_cli(pg_server, db, "--on-error", "hold", str(log))
    assert r.returncode == 1, r.stderr
    assert "4 transactions applied" in r.stderr and "1 failed, 1 held" in r.stderr
    rows_ = failed_rows(pg_server, db)
    assert [x[1] for x in rows_] == ["failed", "held"] and rows_[1][2] == rows_[0][0]
    assert int(progress(pg_server, db)[1]) == last_commit(rows)  # nothing dropped: all applied or recorded
    with pg_server.connect(db) as conn:
        assert conn.execute("SELECT to_regclass('app.c') IS NOT NULL").fetchone() == (True,)
        # the DBA fixes the cause
        conn.execute("CREATE TABLE app.nowhere (id int PRIMARY KEY)")
    r = apply_cli(pg_server, db, "--retry")
    assert r.returncode == 0, r.stderr
    assert [x[1] for x in failed_rows(pg_server, db)] == ["applied", "applied"]
    # the same catalog as one run on a target where nothing failed
    ref = pg_server.fresh_database()
    with pg_server.connect(ref) as conn:
        conn.execute("CREATE SCHEMA app")
        conn.execute("CREATE TABLE app.nowhere (id int PRIMARY KEY)")
    ok = write_rows(txn_rows([["CREATE TABLE app.a (id int, v varchar(20))"]] + txns[1:]), tmp_path / "ok.jsonl")
    assert apply_cli(pg_server, ref, str(ok)).returncode == 0
    assert _columns(pg_server, db) == _columns(pg_server, ref)


def _columns(server, db):
    with server.connect(db) as conn:
        return conn.execute("SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'app' "
                            "ORDER BY 1, ordinal_position").fetchall()


def test_skip_marks_one_resolved_and_the_stream_goes_on(pg_server, tmp_path):
    txns = [SMALL[0], ["CREATE TABLE app.a (id int)"], ["CREATE TABLE app.b (id int)"]]
    log = write_rows(txn_rows(txns), tmp_path / "log.jsonl")
    db = pg_server.fresh_database()
    assert apply_cli(pg_server, db, str(log)).returncode == 1
    [(ident, status, *_)] = failed_rows(pg_server, db)
    r = apply_cli(pg_server, db, "--skip", str(ident), str(log))
    assert r.returncode == 0, r.stderr
    assert "1 transaction applied" in r.stderr and "1 resolved" in r.stderr
    assert failed_rows(pg_server, db)[0][1] == "resolved"
    r = apply_cli(pg_server, db, "--skip", "999")
    assert r.returncode == 1 and "no open failure with id 999" in r.stderr


def test_a_lock_timeout_is_retried_then_applied(pg_server, tmp_path):
    log = write_rows(txn_rows([SMALL[0], ["ALTER TABLE app.a ADD COLUMN locked int"]]), tmp_path / "log.jsonl")
    db = pg_server.fresh_database()
    assert apply_cli(pg_server, db, str(write_rows(txn_rows([SMALL[0]]), tmp_path / "first.jsonl"))).returncode == 0
    holder = pg_server.connect(db)
    holder.autocommit = False
    holder.execute("LOCK TABLE app.a IN ACCESS SHARE MODE")  # a reader: ALTER TABLE waits for it

    def release() -> None:  # once the applier has waited for the lock twice (so it retried at least once)
        waits, was_waiting, end = 0, False, time.monotonic() + 60
        with pg_server.connect(db) as watch:
            while waits < 2 and time.monotonic() < end:
                waiting = watch.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = "
                                        "'ddlc apply' AND wait_event_type = 'Lock'").fetchone()[0] > 0
                waits += waiting and not was_waiting
                was_waiting = waiting
                time.sleep(0.01)
        holder.rollback()

    watcher = threading.Thread(target=release)
    watcher.start()
    try:
        r = apply_cli(pg_server, db, "--lock-timeout", "300ms", "--retries", "10", str(log))
    finally:
        watcher.join()
        holder.close()
    assert r.returncode == 0, r.stderr
    assert "canceling statement due to lock timeout (55P03): retry 1 of 10" in r.stderr
    out = r.stderr.splitlines()[-1]
    assert "1 transaction applied" in out and " 0 retried" not in out


def test_a_lock_held_longer_than_the_retries_is_a_failure(pg_server, tmp_path):
    log = write_rows(txn_rows([SMALL[0], ["ALTER TABLE app.a ADD COLUMN locked int"]]), tmp_path / "log.jsonl")
    db = pg_server.fresh_database()
    assert apply_cli(pg_server, db, str(write_rows(txn_rows([SMALL[0]]), tmp_path / "first.jsonl"))).returncode == 0
    holder = pg_server.connect(db)
    holder.autocommit = False
    holder.execute("LOCK TABLE app.a IN ACCESS SHARE MODE")
    try:
        r = apply_cli(pg_server, db, "--lock-timeout", "100ms", "--retries", "2", "--format", "json", str(log))
    finally:
        holder.rollback()
        holder.close()
    assert r.returncode == 1
    out = json.loads(r.stdout)
    assert out["retried"] == 2 and out["failed"] == 1 and out["applied"] == 0
    assert failed_rows(pg_server, db)[0][3] == "55P03"
    assert apply_cli(pg_server, db, str(log)).returncode == 0  # the lock is gone: the rerun applies it


def test_plan_says_what_would_fail_and_changes_nothing(pg_server, tmp_path):
    txns = [SMALL[0], ["CREATE TABLE app.exists_already (id int)"], ["ALTER TABLE app.missing ADD COLUMN x int"],
            ["ALTER TABLE app.a OWNER TO nobody_here"], ["CREATE INDEX CONCURRENTLY a_v ON app.a (v)"]]
    log = write_rows(txn_rows(txns), tmp_path / "log.jsonl")
    db = pg_server.fresh_database()
    with pg_server.connect(db) as conn:
        conn.execute("CREATE SCHEMA app")
        conn.execute("CREATE TABLE app.exists_already (id int)")
        conn.execute("DROP SCHEMA app CASCADE")
        conn.execute("CREATE SCHEMA other")
        conn.execute("CREATE TABLE other.t (id int)")
    before = snapshot(pg_server, db)
    r = apply_cli(pg_server, db, "--plan", "--on-error", "hold", str(log))
    assert r.returncode == 1, r.stderr
    lines = [x for x in r.stdout.splitlines() if not x.startswith(("  ", "! "))]
    assert lines[0].endswith("(2 statements): apply")
    assert lines[1].endswith("apply")
    assert "fail: object missing: relation \"app.missing\" does not exist" in lines[2]
    assert "fail: role missing" in lines[3]
    assert "held" in lines[4]  # touches app.a, which the failed OWNER TO touches
    assert "nothing was changed" in r.stderr
    assert snapshot(pg_server, db) == before
    with pg_server.connect(db) as conn:
        assert conn.execute("SELECT to_regclass('ddlc.progress')").fetchone() == (None,)  # not even ddlc's tables
    r = apply_cli(pg_server, db, "--plan", "--format", "json", str(log))
    plan = json.loads(r.stdout)
    assert [i["verdict"] for i in plan["plan"]] == ["apply", "apply", "fail", "not reached", "not reached"]


def test_statements_that_run_alone_run_outside_a_transaction(pg_server, tmp_path):
    txns = [SMALL[0], ["ALTER TABLE app.a ADD COLUMN k int", "CREATE INDEX CONCURRENTLY a_k ON app.a (k)",
                       "COMMENT ON TABLE app.a IS 'after'"], ["DROP INDEX CONCURRENTLY app.a_k"]]
    log = write_rows(txn_rows(txns), tmp_path / "log.jsonl")
    db = audited_database(pg_server)
    r = apply_cli(pg_server, db, str(log))
    assert r.returncode == 0, r.stderr
    assert [t for t, _ in audit(pg_server, db)] == ["CREATE SCHEMA", "CREATE TABLE", "ALTER TABLE", "CREATE INDEX",
                                                    "COMMENT", "DROP INDEX"]
    with pg_server.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM ddlc.intent").fetchone() == (0,)


def test_an_intent_left_by_a_crash_is_checked_against_the_catalog_first(pg_server, tmp_path):
    """A crash after the statement that runs alone: the catalog shows it ran; it is not run again, and the
    rest of its transaction is applied from the intent row before anything else."""
    from ddlc.apply.tables import Tables
    from ddlc.apply.source import SourceTxn

    txns = [SMALL[0], ["ALTER TABLE app.a ADD COLUMN k int", "CREATE INDEX CONCURRENTLY a_k ON app.a (k)",
                       "COMMENT ON TABLE app.a IS 'after'"]]
    rows = txn_rows(txns)
    log = write_rows(rows, tmp_path / "log.jsonl")
    for ran in (True, False):
        db = audited_database(pg_server)
        assert apply_cli(pg_server, db, str(write_rows(txn_rows(txns[:1]), tmp_path / "a.jsonl"))).returncode == 0
        # what the run did before it was killed: the first part with the intent row, (and the index)
        t = SourceTxn("lsn", last_commit(rows), 700)
        t.seq, t.statements = 2, ["ALTER TABLE app.a ADD COLUMN k integer",
                                  "CREATE INDEX CONCURRENTLY a_k ON app.a USING btree (k)",
                                  "COMMENT ON TABLE app.a IS 'after'"]
        t.links = {"r\0app\0a"}
        with pg_server.connect(db) as conn:
            with conn.transaction():
                conn.execute(t.statements[0])
                Tables("ddlc", "progress").write_intent(conn, "default", t, "0/X", 1, "create_index_concurrently", None)
            if ran:
                conn.execute(t.statements[1])
        r = apply_cli(pg_server, db, str(log))
        assert r.returncode == 0, r.stderr
        assert ("the catalog shows it ran" if ran else "the catalog shows it did not run: it runs now") in r.stderr
        tags = [tag for tag, _ in audit(pg_server, db)]
        assert tags.count("CREATE INDEX") == 1 and tags.count("ALTER TABLE") == 1 and tags[-1] == "COMMENT"
        assert "0 transactions applied" not in r.stderr or True
        with pg_server.connect(db) as conn:
            assert conn.execute("SELECT count(*) FROM ddlc.intent").fetchone() == (0,)
        assert int(progress(pg_server, db)[1]) == last_commit(rows)


HOSTILE = ["C:\\'; DROP TABLE public.sentinel; --", "it's \\\\ a \\ path\\", "$$; DROP TABLE public.sentinel; $$",
           "line1\n\\! echo pwned\nline3", "/* open comment", "-- not a comment", "100%s %(x)s {}"]


@pytest.mark.parametrize("scs", ["on", "off"])
def test_hostile_names_and_values_with_standard_conforming_strings(pg_server, tmp_path, scs):
    from test_replay_safety import comment_doc

    docs = [json.dumps({"TDDL": 'CREATE TABLE public."we""ird; DROP TABLE public.sentinel; --" (id int)'})]
    docs += [json.dumps(comment_doc(v, 't')) for v in HOSTILE]
    rows = txn_rows([[]])[:1]
    for i, d in enumerate(docs):
        rows.append({"lsn": f"0/{0x3000010 + i * 8:X}", "xid": "700", "data": d})
    rows.append({"lsn": "0/3001000", "xid": "700", "data": "COMMIT 700"})
    log = write_rows(rows, tmp_path / "log.jsonl")
    db = pg_server.fresh_database()
    with pg_server.connect(db) as conn:
        conn.execute("CREATE TABLE public.t (id int)")
        conn.execute("CREATE TABLE public.sentinel (id int)")
        conn.execute(f"ALTER DATABASE {db} SET standard_conforming_strings = {scs}")
    # the source id and the table names ddlc writes are hostile too
    source = "src'; DROP TABLE public.sentinel; --"
    r = apply_cli(pg_server, db, "--source", source, "--progress-table", '"we""ird schema"."pro;gress"', str(log))
    assert r.returncode == 0, r.stderr
    with pg_server.connect(db) as conn:
        assert conn.execute("SHOW standard_conforming_strings").fetchone() == (scs,)
        assert conn.execute("SELECT to_regclass('public.sentinel') IS NOT NULL").fetchone() == (True,)
        assert conn.execute("""SELECT to_regclass('public."we""ird; DROP TABLE public.sentinel; --"') IS NOT NULL"""
                            ).fetchone() == (True,)
        assert conn.execute("SELECT obj_description('public.t'::regclass, 'pg_class')").fetchone() == (HOSTILE[-1],)
        assert conn.execute('SELECT source FROM "we""ird schema"."pro;gress"').fetchone() == (source,)
    assert progress(pg_server, db, source, '"we""ird schema"."pro;gress"') is not None


def test_usage_errors_exit_2(pg_server, tmp_path):
    log = write_rows(txn_rows(SMALL[:1]), tmp_path / "log.jsonl")
    r = subprocess.run([*ddlc_command(), "apply", "--dsn", "host=127.0.0.1 port=1 connect_timeout=2", str(log)],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "cannot connect to the server" in r.stderr
    db = pg_server.fresh_database()
    r = apply_cli(pg_server, db, "--to", "spark", str(log))
    assert r.returncode == 2 and "PostgreSQL only" in r.stderr
    r = apply_cli(pg_server, db, "--lock-timeout", "soon", str(log))
    assert r.returncode == 2 and "lock_timeout" in r.stderr
    r = apply_cli(pg_server, db, "--progress-table", "a.b.c", str(log))
    assert r.returncode == 2


def test_a_missing_psycopg_is_a_usage_error_naming_the_extra(tmp_path):
    code = ("import sys; sys.modules['psycopg'] = None; sys.argv = ['ddlc', 'apply', '--dsn', 'x', '-'];"
            "from ddlc.console import main; main()")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, input="")
    assert r.returncode == 2, r.stderr
    assert "ddlc apply needs the Python library psycopg" in r.stderr and "ddlc[apply]" in r.stderr


def test_a_failure_in_the_middle_held_then_retried_reaches_the_catalog_of_one_run(pg_server, tmp_path):
    rows = decoding_rows(pg_server, 240, sessions=3, seed=5)
    log = write_rows(rows, tmp_path / "log.jsonl")
    ref = pg_server.fresh_database()
    assert apply_cli(pg_server, ref, str(log)).returncode == 0
    # a table the log creates half-way (and changes later) is already there, made by hand
    docs = [t for t in ddlc.translate_many(log)]
    creates = [t for t in docs[len(docs) // 3:] if t.statements and t.statements[0].startswith("CREATE TABLE")]
    victim = next(t for t in creates if sum(t.object == u.object for u in docs) > 2)
    line = victim.line - 1  # its row in the log: the transactions before the one holding it are applied first
    cut = max(i for i, r in enumerate(rows[:line]) if r["data"].startswith("COMMIT")) + 1
    db = pg_server.fresh_database()
    assert apply_cli(pg_server, db, str(write_rows(rows[:cut], tmp_path / "head.jsonl"))).returncode == 0
    with pg_server.connect(db) as conn:
        conn.execute(f"CREATE TABLE {victim.object} (by_hand int)")
    r = apply_cli(pg_server, db, "--on-error", "hold", str(log))
    assert r.returncode == 1
    failed = failed_rows(pg_server, db)
    assert failed[0][1] == "failed" and failed[0][3] == "42P07"
    held = [f for f in failed[1:]]
    assert held and all(f[1] == "held" for f in held), failed
    assert int(progress(pg_server, db)[1]) == last_commit(rows)  # the rest of the log went on
    with pg_server.connect(db) as conn:  # the DBA fixes the cause
        conn.execute(f"DROP TABLE {victim.object}")
    r = apply_cli(pg_server, db, "--retry", "--format", "json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["applied"] == len(failed)
    assert {f[1] for f in failed_rows(pg_server, db)} == {"applied"}
    assert snapshot(pg_server, db) == snapshot(pg_server, ref)


def test_state_carries_the_history_across_batches_cut_inside_a_transaction(pg_server, tmp_path):
    rows = txn_rows(SMALL)
    cut = next(i for i, r in enumerate(rows) if "app.a ADD COLUMN w" in r["data"]) + 1  # inside the third
    one, two = write_rows(rows[:cut], tmp_path / "1.jsonl"), write_rows(rows[cut:], tmp_path / "2.jsonl")
    db, ref = audited_database(pg_server), audited_database(pg_server)
    assert apply_cli(pg_server, ref, str(write_rows(rows, tmp_path / "all.jsonl"))).returncode == 0
    state = tmp_path / "s.json"
    r = apply_cli(pg_server, db, "--state", str(state), str(one))
    assert r.returncode == 0 and "2 transactions applied" in r.stderr, r.stderr
    assert "kept in the state" in r.stderr
    r = apply_cli(pg_server, db, "--state", str(state), str(two))
    assert r.returncode == 0 and "4 transactions applied" in r.stderr, r.stderr
    assert audit(pg_server, db) == audit(pg_server, ref)


def test_a_run_that_stops_keeps_the_previous_state(pg_server, tmp_path):
    log = write_rows(txn_rows([SMALL[0], ["CREATE TABLE app.a (id int)"], ["CREATE TABLE app.z (id int)"]]),
                     tmp_path / "log.jsonl")
    db = pg_server.fresh_database()
    state = tmp_path / "s.json"
    assert apply_cli(pg_server, db, "--state", str(state), str(log)).returncode == 1
    assert not state.exists()  # the failed transaction and those after it are translated again next time
    with pg_server.connect(db) as conn:
        conn.execute("DROP TABLE app.a")
    r = apply_cli(pg_server, db, "--state", str(state), str(log))
    assert r.returncode == 0 and "2 transactions applied" in r.stderr, r.stderr
    assert state.exists()


def test_a_state_ahead_of_the_target_stops_the_run(pg_server, tmp_path):
    log = write_rows(txn_rows(SMALL), tmp_path / "log.jsonl")
    state = tmp_path / "s.json"
    list(ddlc.translate_many(log, state=state))  # the text was written, the target never ran it
    db = pg_server.fresh_database()
    r = apply_cli(pg_server, db, "--state", str(state), str(log))
    assert r.returncode == 1
    assert "the --state has seen it but the target has not applied it" in r.stderr
    assert "0 transactions applied" in r.stderr


def test_a_statement_timeout_is_a_failure_at_once(pg_server, tmp_path):
    log = write_rows(txn_rows([SMALL[0], ["ALTER TABLE app.a ADD COLUMN slow int"]]), tmp_path / "log.jsonl")
    db = pg_server.fresh_database()
    assert apply_cli(pg_server, db, str(write_rows(txn_rows([SMALL[0]]), tmp_path / "first.jsonl"))).returncode == 0
    holder = pg_server.connect(db)
    holder.autocommit = False
    holder.execute("LOCK TABLE app.a IN ACCESS SHARE MODE")
    try:  # no lock timeout: the statement waits until the statement timeout cancels it
        r = apply_cli(pg_server, db, "--lock-timeout", "0", "--statement-timeout", "300ms", "--format", "json",
                      str(log))
    finally:
        holder.rollback()
        holder.close()
    assert r.returncode == 1
    out = json.loads(r.stdout)
    assert out["retried"] == 0 and out["failed"] == 1
    assert failed_rows(pg_server, db)[0][3] == "57014"


def test_progress_is_shown_on_a_terminal_and_the_summary_line_ends_it(pg_server, tmp_path):
    import os
    import pty

    rows = decoding_rows(pg_server, 150, sessions=2, seed=9)
    log = write_rows(rows, tmp_path / "log.jsonl")
    db = pg_server.fresh_database()
    master, slave = pty.openpty()
    p = subprocess.run([*ddlc_command(), "apply", "--dsn", pg_server.conninfo(db), str(log)], stderr=slave,
                       stdout=subprocess.DEVNULL, timeout=300)
    os.close(slave)
    out = b""
    while True:
        try:
            got = os.read(master, 65536)
        except OSError:
            break
        if not got:
            break
        out += got
    os.close(master)
    text = out.decode()
    assert p.returncode == 0, text
    assert "applying: " in text and " transactions (" in text
    assert text.rstrip().splitlines()[-1].split("\x1b[K")[-1].startswith("ddlc apply: ")


def test_the_library_without_psycopg_names_the_extra():
    code = ("import sys; sys.modules['psycopg'] = None; import ddlc\n"
            "try:\n    ddlc.apply('{}', dsn='')\nexcept ModuleNotFoundError as exc:\n    print(exc)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert "pip install 'ddlc[apply]'" in r.stdout, r.stderr
