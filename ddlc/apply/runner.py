"""Applying source transactions to a live PostgreSQL, exactly once (docs/apply.md).

Each source transaction runs in **one** target transaction together with the update of the progress row
(:mod:`.tables`): a kill at any moment leaves the target before or after the whole source transaction. A
statement that must run alone (:mod:`.alone`) splits its transaction: what comes before it commits with an
intent row, the statement runs alone, what comes after commits with the progress row; after a crash the
intent is checked against the catalog before anything else runs.

One applier per source at a time: a session advisory lock, which also waits for the server session of an
applier that was killed to end (its last statement finishes or rolls back first).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from ..frontend.txns import Position
from ..state_file import History
from .alone import alone_kind, is_done, prepare
from .source import overlaps
from .tables import links_in

__all__ = ["Applier", "Tally", "Fatal", "RETRYABLE"]

# lock_not_available (lock_timeout), deadlock_detected, serialization_failure: retried with backoff
RETRYABLE = frozenset({"55P03", "40P01", "40001"})


class Fatal(Exception):
    """The run cannot go on (the connection is lost, ddlc's own tables cannot be written)."""


class Tally:
    """What a run did: the summary line and ``--format json``."""

    FIELDS = ("applied", "statements", "retried", "failed", "held", "skipped", "state_seen", "resolved")

    def __init__(self) -> None:
        for f in self.FIELDS:
            setattr(self, f, 0)
        self.position: str | None = None
        self.stopped: str | None = None  # why the run stopped early (--on-error stop, an incomplete transaction)
        self.notes: list[str] = []

    def to_dict(self) -> dict[str, Any]:
        return {f: getattr(self, f) for f in self.FIELDS} | {"position": self.position, "stopped": self.stopped}


class _Failure:
    __slots__ = ("start", "statement", "sqlstate", "message", "retryable")

    def __init__(self, start: int, statement: int | None, sqlstate: str | None, message: str,
                 retryable: bool = True) -> None:
        self.start, self.statement, self.sqlstate, self.message, self.retryable = (
            start, statement, sqlstate, message, retryable)


class _Txn:
    """A transaction rebuilt from a row of the failed or intent table."""

    __slots__ = ("kind", "commit", "seq", "xid", "labels", "statements", "links", "text_")

    def __init__(self, row: dict[str, Any]) -> None:
        self.kind, self.commit, self.seq, self.xid = row["kind"], int(row["commit_pos"]), int(row["seq"]), row["xid"]
        self.labels = list(row.get("documents") or ())
        self.statements = list(row["statements"])
        self.links = links_in(row["links"])
        self.text_ = row["position"]

    @property
    def position(self) -> Position:
        return Position(self.kind, self.commit, self.seq)

    def text(self) -> str:
        return self.text_

    def key(self) -> tuple[str, int]:
        return (self.kind, self.commit)


class Applier:
    """Apply source transactions over one connection (autocommit: each transaction is explicit)."""

    def __init__(self, conn: Any, tables: Any, source: str, *, on_error: str = "stop", retries: int = 5,
                 backoff: float = 0.1, lock_timeout: str = "5s", statement_timeout: str = "0",
                 say: Callable[[str, str], None] | None = None) -> None:
        self.conn, self.tables, self.source = conn, tables, source
        self.on_error, self.retries, self.backoff = on_error, retries, backoff
        self.lock_timeout, self.statement_timeout = lock_timeout, statement_timeout
        self.say = say or (lambda kind, text: None)
        self.tally = Tally()
        self.history: History | None = None  # the progress row, as the "already seen" comparison takes it
        self.progress: Position | None = None  # the position applied so far (moves on as the run applies)
        self.open: dict[tuple[str, int], dict[str, Any]] = {}  # open failures by transaction
        self.blocked: list[tuple[int, set[str]]] = []  # (failed id, links) of the open failures
        self.intent = True  # an intent row may exist (known not to once a transaction that deleted it committed)
        self._dropped = False

    # -- start --------------------------------------------------------------------------------------
    def start(self) -> None:
        conn = self.conn
        key = ("ddlc apply", self.source)
        got = conn.execute("SELECT pg_try_advisory_lock(hashtext(%s), hashtext(%s))", key).fetchone()[0]
        if not got:
            self.say("note", f"waiting for another ddlc apply of source {self.source!r} to end (or the server "
                             "session of one that was killed: its last statement ends first)")
            conn.execute("SELECT pg_advisory_lock(hashtext(%s), hashtext(%s))", key)
        conn.execute("SELECT set_config('lock_timeout', %s, false), set_config('statement_timeout', %s, false)",
                     (self.lock_timeout, self.statement_timeout))
        self.tables.create(conn)
        self._load()
        if self._recover_intent():
            self._load()  # (the progress row moved on)

    def _load(self) -> None:
        got = self.tables.read_progress(self.conn, self.source)
        if got is not None:
            self.progress = got[0]
            self.history = History(last=got[0], xid=got[1])
            self.tally.position = self._text(got[0])
        self.open = {}
        self.blocked = []
        for row in self.tables.open_failures(self.conn, self.source):
            self.open[(row["kind"], int(row["commit_pos"]))] = row
            self.blocked.append((int(row["id"]), links_in(row["links"])))

    @staticmethod
    def _text(p: Position) -> str:
        if p.kind == "order":
            return f"document {p.commit} of the input"
        return p.text().rsplit(" #", 1)[0]

    def _recover_intent(self) -> bool:
        """A statement that runs alone was about to run, or ran, when the last run ended: the catalog says
        which; then the rest of its transaction is applied, before anything else."""
        row = self.tables.read_intent(self.conn, self.source)
        if row is None:
            return False
        txn = _Txn(row)
        k, kind = int(row["statement_no"]), row["check_kind"]
        stmt = txn.statements[k]
        done = is_done(self.conn, stmt, kind)
        self.say("note", f"{txn.text()}: the last run ended at a statement that runs alone ({kind}): "
                         + ("the catalog shows it ran" if done else "the catalog shows it did not run: it runs now"))
        failed_id = row["failed_id"]
        fail = None if done else self._alone(stmt, kind, k)
        if fail is None:
            fail = self._run(txn, k + 1, failed_id)
        if fail is None:
            self._applied(txn)
            return True
        self._failed(txn, fail, failed_id)
        if self.on_error == "stop":
            raise _Stop()
        return True

    # -- the log --------------------------------------------------------------------------------------
    def seen(self, txn: Any) -> bool:
        """Already applied (at or before the progress row): the one comparison, History.seen."""
        return self.history is not None and self.history.seen(txn.first)

    def apply(self, txn: Any) -> bool:
        """Apply one source transaction of the log; False when the run must stop."""
        t = self.tally
        if self.seen(txn):
            t.skipped += 1
            return True
        if getattr(txn, "state_seen", False):  # never applied, yet the --state would leave it out: no
            t.stopped = (f"{txn.text()}: the --state has seen it but the target has not applied it (progress: "
                         f"{t.position or 'none'}); run without --state, or with the state of this target")
            self.say("error", t.stopped)
            return False
        for n in txn.notes:
            self.say("note", n)
        if txn.incomplete:
            t.stopped = f"{txn.text()}: its COMMIT is not in the input: not applied (nor anything after it)"
            self.say("note", t.stopped)
            return False
        row = self.open.get(txn.key())
        if row is not None and row["status"] == "failed" and row["retryable"]:  # a failure a rerun tries again
            return self._retry_row(row, from_log=True)
        if row is not None:
            t.held += 1  # already recorded: held behind another one, or not retryable (--skip it)
            self.say("note", f"{txn.text()}: already in the failed table (id {row['id']}, {row['status']}): not applied")
            return self.on_error != "stop" or row["status"] == "held"
        if txn.error is not None:
            return self._fail_whole(txn, _Failure(0, None, None, f"not translated: {txn.error}", retryable=False))
        blocker = self._blocker(txn.links)
        if blocker is not None:
            self._hold(txn, blocker)
            return True
        fail = self._run(txn, 0, None)
        if fail is None:
            self._applied(txn)
            return True
        return self._fail_whole(txn, fail)

    def _blocker(self, links: set[str]) -> int | None:
        for ident, blocked in self.blocked:
            if overlaps(links, blocked):
                return ident
        return None

    def _applied(self, txn: Any, failed_id: int | None = None) -> None:
        self.tally.applied += 1
        self.tally.statements += len(txn.statements)

    def _fail_whole(self, txn: Any, fail: _Failure) -> bool:
        ident = self._failed(txn, fail, None)
        self.say("error", f"{txn.text()}: {fail.message} (recorded in the failed table as id {ident})")
        return self.on_error != "stop"

    def _failed(self, txn: Any, fail: _Failure, failed_id: int | None) -> int:
        """Record a failure (and, with --on-error hold, move the progress row past it), in one transaction."""
        self.tally.failed += 1
        hold = self.on_error == "hold" and self._newer(txn)
        with self._own() as conn:
            with conn.transaction():
                ident = self.tables.record_failure(
                    conn, self.source, txn, txn.text(), status="failed", start=fail.start,
                    failed_statement=fail.statement, sqlstate=fail.sqlstate, error=fail.message, held_by=None,
                    retryable=fail.retryable)
                self._drop_intent(conn)
                if hold:
                    self.tables.write_progress(conn, self.source, txn, txn.text())
        self._committed()
        if hold:
            self._moved(txn)
        if self.on_error == "stop":
            self.tally.stopped = f"{txn.text()} failed (--on-error stop)"
        self.blocked.append((ident, set(txn.links)))
        return ident

    def _hold(self, txn: Any, blocker: int) -> None:
        self.tally.held += 1
        why = f"held: it touches an object failed transaction id {blocker} touches"
        with self._own() as conn:
            with conn.transaction():
                ident = self.tables.record_failure(
                    conn, self.source, txn, txn.text(), status="held", start=0, failed_statement=None,
                    sqlstate=None, error=why, held_by=blocker, retryable=True)
                if self._newer(txn):
                    self.tables.write_progress(conn, self.source, txn, txn.text())
        if self._newer(txn):
            self._moved(txn)
        self.blocked.append((ident, set(txn.links)))
        self.say("warning", f"{txn.text()}: {why} (id {ident})")

    def _newer(self, txn: Any) -> bool:
        """Is ``txn`` after the position applied so far (the progress row moves only forward)? The same
        comparison as "already applied": History.seen."""
        if self.progress is None:
            return True
        return not History(last=self.progress).seen(SimpleNamespace(position=txn.position))

    def _moved(self, txn: Any) -> None:
        self.progress = txn.position
        self.tally.position = txn.text()

    def _own(self) -> Any:
        import contextlib

        return contextlib.nullcontext(self.conn)

    def _drop_intent(self, conn: Any) -> None:
        """(In the transaction that finishes a source transaction.) Once the table holds no intent row, a
        transaction that wrote none has none to drop: no statement for it."""
        if self.intent:
            self.tables.drop_intent(conn, self.source)
            self._dropped = True  # (known gone once that transaction commits: _committed)

    def _committed(self) -> None:
        if self._dropped:
            self.intent = self._dropped = False

    # -- running a transaction ----------------------------------------------------------------------
    def _run(self, txn: Any, start: int, failed_id: int | None) -> _Failure | None:
        """Run ``txn``'s statements from ``start``; the last part commits with the progress row (and, for a
        failure retried, the row marked applied)."""
        stmts = txn.statements
        i = start
        while True:
            j = i
            while j < len(stmts) and alone_kind(stmts[j]) is None:
                j += 1
            if j < len(stmts):
                kind = alone_kind(stmts[j])
                assert kind is not None

                def intent(conn: Any, j: int = j, kind: str = kind) -> None:
                    self.tables.write_intent(conn, self.source, txn, txn.text(), j, kind, failed_id)
                    self.intent = True

                fail = self._segment(stmts, i, j, intent)
                if fail is not None:
                    return fail
                fail = self._alone(stmts[j], kind, j)
                if fail is not None:
                    return fail
                i = j + 1
                continue

            def finish(conn: Any) -> None:
                self._drop_intent(conn)
                if failed_id is not None:
                    self.tables.set_status(conn, self.source, failed_id, "applied")
                if self._newer(txn):
                    self.tables.write_progress(conn, self.source, txn, txn.text())

            fail = self._segment(stmts, i, len(stmts), finish)
            if fail is None and self._newer(txn):
                self._moved(txn)
            return fail

    def _segment(self, stmts: list[str], i: int, j: int, tail: Callable[[Any], None]) -> _Failure | None:
        """Statements ``i:j`` and ``tail`` (ddlc's own rows) in one transaction; lock timeouts retried.

        The first try sends the whole transaction at once (psycopg's pipeline mode: one round trip, the
        statements still run one after the other in one transaction); when it fails it is rolled back and
        tried again statement by statement, which tells the statement that fails."""
        import psycopg

        conn = self.conn
        attempt = 0
        if j > i:  # first the whole transaction in one round trip; on an error, statement by statement
            self._dropped = False
            try:
                with conn.pipeline(), conn.transaction():
                    for k in range(i, j):
                        conn.execute(stmts[k])
                    tail(conn)
                self._committed()
                return None
            except psycopg.OperationalError as exc:
                if exc.sqlstate is None or conn.closed:
                    raise Fatal(f"the connection to the server was lost: {exc}") from None
                if exc.sqlstate in RETRYABLE and self.retries:  # (a lock timeout: that was the first try)
                    self._retry_or_fail(exc, i, None, 0)
                    attempt = 1
            except psycopg.Error:
                pass  # (rolled back: the next try says which statement fails)
        while True:
            at: int | None = None
            self._dropped = False
            try:
                with conn.transaction():
                    for k in range(i, j):
                        at = k
                        conn.execute(stmts[k])
                    at = None
                    tail(conn)
                self._committed()
                return None
            except psycopg.OperationalError as exc:
                if exc.sqlstate is None or conn.closed:
                    raise Fatal(f"the connection to the server was lost: {exc}") from None
                fail = self._retry_or_fail(exc, i, at, attempt)
            except psycopg.Error as exc:
                if at is None:
                    raise Fatal(f"cannot write ddlc's own tables: {exc}") from None
                fail = self._retry_or_fail(exc, i, at, attempt)
            if fail is not None:
                if at is None:
                    raise Fatal(f"cannot write ddlc's own tables: {fail.message}")
                return fail
            attempt += 1

    def _retry_or_fail(self, exc: Any, start: int, at: int | None, attempt: int) -> _Failure | None:
        state = getattr(exc, "sqlstate", None)
        if state in RETRYABLE and attempt < self.retries:
            self.tally.retried += 1
            delay = min(self.backoff * (2 ** attempt), 30.0)
            self.say("note", f"{_first_line(exc)} ({state}): retry {attempt + 1} of {self.retries} in {delay:.1f}s")
            time.sleep(delay)
            return None
        return _Failure(start, at, state, _first_line(exc) + (f" (after {attempt} retries)" if attempt else ""))

    def _alone(self, stmt: str, kind: str, at: int) -> _Failure | None:
        """A statement that runs outside a transaction block (its intent row is written)."""
        import psycopg

        attempt = 0
        while True:
            try:
                if is_done(self.conn, stmt, kind):
                    return None
                prepare(self.conn, stmt, kind)
                self.conn.execute(stmt)
                return None
            except psycopg.OperationalError as exc:
                if exc.sqlstate is None or self.conn.closed:
                    raise Fatal(f"the connection to the server was lost: {exc}") from None
                fail = self._retry_or_fail(exc, at, at, attempt)
            except psycopg.Error as exc:
                fail = self._retry_or_fail(exc, at, at, attempt)
            if fail is not None:
                return fail
            attempt += 1

    # -- the failed table ---------------------------------------------------------------------------
    def _retry_row(self, row: dict[str, Any], from_log: bool = False) -> bool:
        txn = _Txn(row)
        ident = int(row["id"])
        self.blocked = [(i, l) for i, l in self.blocked if i != ident]
        blocker = self._blocker(txn.links)
        if blocker is not None and blocker < ident:
            self.blocked.append((ident, txn.links))
            self.tally.held += 1
            return True
        fail = self._run(txn, int(row["start"]), ident)
        if fail is None:
            self._applied(txn)
            self.open.pop(txn.key(), None)
            self.say("note", f"{txn.text()}: applied (failed table id {ident})")
            return True
        self.tally.failed += 1
        hold = self.on_error == "hold" and self._newer(txn)
        with self.conn.transaction():
            self.tables.record_failure(
                self.conn, self.source, txn, txn.text(), status="failed", start=fail.start,
                failed_statement=fail.statement, sqlstate=fail.sqlstate, error=fail.message, held_by=None,
                retryable=True)
            self._drop_intent(self.conn)
            if hold:
                self.tables.write_progress(self.conn, self.source, txn, txn.text())
        self._committed()
        if hold:
            self._moved(txn)
        self.blocked.append((ident, txn.links))
        self.say("error", f"{txn.text()}: {fail.message} (failed table id {ident})")
        if self.on_error == "stop":
            self.tally.stopped = f"{txn.text()} failed again (--on-error stop)"
            return False
        return True

    def retry(self) -> bool:
        """Run the held and failed transactions again, in order; False when one failed with --on-error stop."""
        rows = self.tables.open_failures(self.conn, self.source)
        for row in rows:
            if not row["retryable"]:
                self.tally.held += 1
                self.say("warning", f"{row['position']}: id {row['id']} did not translate: it cannot be retried "
                                    "(apply it by hand, then --skip it)")
                continue
            if not self._retry_row(row):
                return False
        self._load()
        return True

    def skip(self, ident: int) -> bool:
        """Mark one failure resolved (as pgl_ddl_deploy's resolve_exception); the progress row moves past it."""
        row = self.tables.failure_row(self.conn, self.source, ident)
        if row is None or row["status"] not in ("failed", "held"):
            self.say("error", f"no open failure with id {ident} for source {self.source!r}")
            return False
        txn = _Txn(row)
        with self.conn.transaction():
            self.tables.set_status(self.conn, self.source, ident, "resolved")
            if self._newer(txn):
                self.tables.write_progress(self.conn, self.source, txn, txn.text())
        if self._newer(txn):
            self._moved(txn)
        self.tally.resolved += 1
        self.say("note", f"{txn.text()}: id {ident} marked resolved: not applied by ddlc")
        self._load()
        return True


class _Stop(Exception):
    """A failure at recovery with --on-error stop."""


def _first_line(exc: Any) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


Stop = _Stop
