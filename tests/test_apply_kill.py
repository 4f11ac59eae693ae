"""The property that matters (issue 24, item 5): ``ddlc apply`` killed with SIGKILL at random moments and
restarted each time ends with the catalog of one uninterrupted run, the progress row at the log's last
commit position, and every DDL statement executed by the server **exactly once**, as an event trigger
(``ddl_command_end``, logging each statement the server ran into a table, in the transaction of the
statement) shows.

The log is real decoding output: interleaved transactions of four sessions on a ``test_decoding`` slot
(tests/test_apply.py ``decoding_rows``), with ``CREATE INDEX CONCURRENTLY`` among them (statements that
run alone, with their intent rows).

Each run is a process of its own, killed with ``kill -9``. To spend the time on applying rather than on
starting Python, the test forks a process that has imported ddlc already and runs what ``ddlc apply`` runs
(:func:`ddlc.apply.run.run`); it writes a byte on a pipe after each source transaction it applied, so that
the kills can be aimed: a quarter at a random moment of the start (reading, translating what was applied
before, the lock, the recovery), the others a random few milliseconds after a random number of applied
transactions (as many as leave the wanted number of kills for the log): inside a statement, between two,
inside a COMMIT, between a COMMIT and the next transaction. ``test_the_console_script_killed`` does the
same with the real ``ddlc`` script a few times (each start costs a second).

``DDLC_APPLY_KILLS`` (120 unless set) kills over a log of 600 statements in about 350 interleaved
transactions; about 30 s of killing on the 2-core test machine (docs/apply.md).
"""

from __future__ import annotations

import os
import random
import select
import signal
import subprocess
import sys
import time

from test_apply import (apply_cli, audit, audited_database, decoding_rows, last_commit, progress, snapshot,
                        write_rows)

from conftest import ddlc_command

STATEMENTS = 600
KILLS = int(os.environ.get("DDLC_APPLY_KILLS", "120"))


def _commits(rows: list[dict]) -> list[int]:
    out = []
    for r in rows:
        if r["data"].startswith("COMMIT"):
            hi, lo = r["lsn"].split("/")
            out.append(int(hi, 16) << 32 | int(lo, 16))
    return out


def _interleaved(rows: list[dict]) -> int:
    """How many transactions have a change below the commit LSN of the transaction emitted before them."""
    def lsn(text: str) -> int:
        hi, lo = text.split("/")
        return int(hi, 16) << 32 | int(lo, 16)

    out, prev_commit, first = 0, -1, None
    for r in rows:
        if r["data"].startswith("BEGIN"):
            first = None
        elif r["data"].startswith("COMMIT"):
            out += first is not None and first < prev_commit
            prev_commit = lsn(r["lsn"])
        elif first is None:
            first = lsn(r["lsn"])
    return out


def _forked_apply(dsn: str, log: str, notes: str) -> tuple[int, int]:
    """A process applying ``log`` to ``dsn`` (:func:`ddlc.apply.run.run`, what ``ddlc apply`` runs, in a child
    of this interpreter, which has imported everything already), and the read end of a pipe on which it
    writes one byte after each source transaction it applied; (pid, fd). Its notes go to the file ``notes``."""
    sys.stdout.flush()
    sys.stderr.flush()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns, never runs this process's atexit handlers
        code = 1
        try:
            os.close(r)
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)
            os.dup2(null, 2)
            from ddlc.api import Options
            from ddlc.apply.run import ApplySettings, documents, run
            from ddlc.backends import get_backend
            from pathlib import Path

            applied = [0]

            def tick(t) -> None:  # after each source transaction: a byte for each one applied (not skipped)
                if t.applied > applied[0]:
                    os.write(w, b"." * (t.applied - applied[0]))
                    applied[0] = t.applied

            def say(kind: str, text: str) -> None:
                with open(notes, "a") as fh:
                    fh.write(f"{kind}: {text}\n")

            t = run(ApplySettings(dsn, lock_timeout="30s"), get_backend("postgres"), Options.of(), None,
                    lambda txns: documents(Path(log), txns), say=say, tick=tick)
            code = 0 if t.failed == 0 and t.held == 0 and t.stopped is None else 1
        except BaseException:  # noqa: BLE001
            import traceback

            with open(os.environ.get("DDLC_APPLY_KILL_LOG", os.devnull), "a") as fh:
                traceback.print_exc(file=fh)
            code = 3
        os._exit(code)
    os.close(w)
    return pid, r


def _warm() -> None:
    """Import in this process what a run imports (the children inherit it)."""
    import psycopg  # noqa: F401

    import ddlc
    import ddlc.apply.run  # noqa: F401
    import ddlc.apply.plan  # noqa: F401
    import ddlc.apply.runner  # noqa: F401

    list(ddlc.translate_many('{"TDDL": "CREATE TABLE s.t (a int)"}'))


def _applied(server, db: str, commits: list[int]) -> int:
    got = progress(server, db)
    if got is None:
        return 0
    return sum(1 for c in commits if c <= int(got[1]))


def test_kill_9_at_random_moments_applies_every_statement_exactly_once(pg_server, tmp_path):
    rows = decoding_rows(pg_server, STATEMENTS, sessions=4, seed=7, commit=0.6)
    log = write_rows(rows, tmp_path / "log.jsonl")
    commits = _commits(rows)
    assert len(commits) > 300
    assert _interleaved(rows) > 50  # transactions that began before the one emitted before them committed
    # one uninterrupted run: the reference
    ref = audited_database(pg_server)
    r = apply_cli(pg_server, ref, str(log))
    assert r.returncode == 0, r.stderr
    expected = audit(pg_server, ref)
    assert len(expected) == STATEMENTS
    assert sum(1 for tag, _ in expected if tag == "CREATE INDEX" and "CONCURRENTLY" in _) >= 3

    _warm()
    db = audited_database(pg_server)
    notes = tmp_path / "notes.txt"
    rng = random.Random(24)
    kills = moved = early = 0
    reach = 0.5  # seconds from a start until the run finishes its first transaction (measured as it goes)
    started = time.monotonic()
    finished = None
    while finished is None:
        before = _applied(pg_server, db, commits)
        t0 = time.monotonic()
        pid, fd = _forked_apply(pg_server.conninfo(db), str(log), str(notes))
        if kills >= KILLS:  # enough kills: the last run goes to the end
            _, status = os.waitpid(pid, 0)
            os.close(fd)
            finished = os.waitstatus_to_exitcode(status)
            break
        # a moment at random: while the run starts, translates what was applied, waits for the lock of the
        # killed one and recovers (a quarter of the kills), or while it applies (the others): after a few
        # transactions (about as many as leave KILLS kills for the log), at a random time into the next one
        want = (len(commits) - before) / max(1.0, 1.3 * KILLS - kills)
        early_kill = rng.random() < 0.25
        ticks = 0 if early_kill else max(1, round(want * rng.uniform(0.3, 1.2)))
        deadline = t0 + rng.uniform(0, reach) if early_kill else None
        seen = 0
        while deadline is None or time.monotonic() < deadline:
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([fd], [], [], wait)
            if not ready:
                continue
            got = os.read(fd, 4096)
            if not got:  # the run ended by itself
                break
            if seen == 0 and not early_kill:
                reach = 0.7 * reach + 0.3 * (time.monotonic() - t0)
            seen += len(got)
            if deadline is None and seen >= ticks:
                deadline = time.monotonic() + rng.uniform(0, 0.006)
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            finished = os.waitstatus_to_exitcode(status)
            assert finished == 0, f"a run ended with exit {finished}"
        else:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            kills += 1
            early += early_kill
        os.close(fd)
        moved += _applied(pg_server, db, commits) > before
    elapsed = time.monotonic() - started
    assert finished == 0
    r = apply_cli(pg_server, db, "--format", "json", str(log))  # and one more run applies nothing
    assert r.returncode == 0 and '"applied":0' in r.stdout, r.stderr
    said = notes.read_text() if notes.exists() else ""
    alone = said.count("the last run ended at a statement that runs alone")
    waited = said.count("waiting for another ddlc apply")
    print(f"\n{kills} kills ({early} while starting or recovering; {moved} runs moved the progress on; "
          f"{alone} restarts found an intent row; {waited} waited for the killed run's server session) over "
          f"{STATEMENTS} statements in {len(commits)} transactions: {elapsed:.0f} s")
    assert "error:" not in said, said
    assert kills >= min(KILLS, 100)  # (aimed at KILLS; the log may end a little before)

    assert snapshot(pg_server, db) == snapshot(pg_server, ref)
    kind, commit, _ = progress(pg_server, db)
    assert (kind, int(commit)) == ("lsn", last_commit(rows))
    got = audit(pg_server, db)
    assert got == expected  # every statement executed exactly once, in the log's order
    with pg_server.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM ddlc.failed").fetchone() == (0,)
        assert conn.execute("SELECT count(*) FROM ddlc.intent").fetchone() == (0,)


def test_the_console_script_killed(pg_server, tmp_path):
    """The same with the real ``ddlc`` script (a handful of kills: each start costs a second)."""
    rows = decoding_rows(pg_server, 120, sessions=3, seed=11)
    log = write_rows(rows, tmp_path / "log.jsonl")
    ref = audited_database(pg_server)
    assert apply_cli(pg_server, ref, str(log)).returncode == 0
    db = audited_database(pg_server)
    rng = random.Random(5)
    for _ in range(6):
        p = subprocess.Popen([*ddlc_command(), "apply", "--dsn", pg_server.conninfo(db), str(log)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.8, 2.0))
        p.send_signal(signal.SIGKILL)
        p.wait()
    r = apply_cli(pg_server, db, str(log))
    assert r.returncode == 0, r.stderr
    assert audit(pg_server, db) == audit(pg_server, ref)
    assert snapshot(pg_server, db) == snapshot(pg_server, ref)
    assert int(progress(pg_server, db)[1]) == last_commit(rows)
