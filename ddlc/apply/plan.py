"""``ddlc apply --plan``: what a run would apply and what would fail, without changing anything.

The plan reads the progress row and the failed table (it creates nothing: a target that never saw ddlc
has neither), then runs each pending source transaction inside **one** transaction that is always rolled
back, each under a savepoint: the server itself says what fails and why, seeing the effect of every earlier
statement, as the real run would. The reason is read from the server's SQLSTATE: the object exists, it is
missing, a role is missing, a lock could not be had. A statement that runs alone (:mod:`.alone`) is not run:
the catalog says whether it is done already. The plan takes the locks its DDL takes while it runs (under
``--lock-timeout``) and consumes no sequence value ddlc writes; nothing is committed.
"""

from __future__ import annotations

from typing import Any

from ..state_file import History
from .alone import alone_kind, is_done
from .source import overlaps, source_txns

__all__ = ["PlanItem", "PlanReport", "plan", "reason_of"]

_EXISTS = {"42P07", "42710", "42P06", "42723", "42701", "42P04", "42P16"}
_MISSING = {"42P01", "42703", "42883", "3F000", "42704", "3D000"}


def reason_of(sqlstate: str | None, message: str) -> str:
    if sqlstate == "42704" and message.lstrip().startswith("role "):
        return "role missing"
    if sqlstate in _EXISTS:
        return "object exists"
    if sqlstate in _MISSING:
        return "object missing"
    if sqlstate == "55P03":
        return "lock not available"
    return "refused"


class PlanItem:
    __slots__ = ("position", "documents", "statements", "verdict", "reason", "error", "statement")

    def __init__(self, position: str, documents: list[str], statements: list[str], verdict: str,
                 reason: str | None = None, error: str | None = None, statement: int | None = None) -> None:
        self.position, self.documents, self.statements = position, documents, statements
        self.verdict, self.reason, self.error, self.statement = verdict, reason, error, statement

    def to_dict(self) -> dict[str, Any]:
        return {"position": self.position, "documents": self.documents, "statements": self.statements,
                "verdict": self.verdict, "reason": self.reason, "error": self.error, "statement": self.statement}


class PlanReport:
    """``items``: one per source transaction of the log (``verdict``: ``apply``, ``fail``, ``held``,
    ``not reached``, ``already applied``); ``ok``: nothing would fail."""

    def __init__(self) -> None:
        self.items: list[PlanItem] = []
        self.position: str | None = None
        self.open_failures = 0

    @property
    def ok(self) -> bool:
        return all(i.verdict in ("apply", "already applied") for i in self.items)

    def count(self, verdict: str) -> int:
        return sum(1 for i in self.items if i.verdict == verdict)

    def to_dict(self) -> dict[str, Any]:
        return {"plan": [i.to_dict() for i in self.items], "position": self.position,
                "open_failures": self.open_failures,
                "counts": {v: self.count(v) for v in ("apply", "fail", "held", "not reached", "already applied")}}


def plan(conn: Any, tables: Any, settings: Any, session: Any, read: Any, options: Any, say: Any) -> PlanReport:
    import psycopg

    from .tables import links_in

    report = PlanReport()
    history = None
    blocked: list[set[str]] = []
    if not tables.missing(conn):
        got = tables.read_progress(conn, settings.source)
        if got is not None:
            history = History(last=got[0], xid=got[1])
            report.position = got[0].text()
        for row in tables.open_failures(conn, settings.source):
            report.open_failures += 1
            blocked.append(links_in(row["links"]))
    if read is None:
        return report
    stopped = False
    conn.execute("BEGIN")
    try:
        conn.execute("SELECT set_config('lock_timeout', %s, true), set_config('statement_timeout', %s, true)",
                     (settings.lock_timeout, settings.statement_timeout))
        for txn in source_txns(session, read(session.txns()), options):
            item = PlanItem(txn.text(), list(txn.labels), list(txn.statements), "apply")
            report.items.append(item)
            if history is not None and history.seen(txn.first):
                item.verdict = "already applied"
                continue
            if stopped or txn.incomplete:
                item.verdict, item.reason = "not reached", ("its COMMIT is not in the input" if txn.incomplete
                                                            else "the run stops at a failure above (--on-error stop)")
                continue
            if txn.error is not None:
                item.verdict, item.reason, item.error = "fail", "not translated", txn.error
            elif any(overlaps(txn.links, b) for b in blocked):
                item.verdict, item.reason = "held", "touches an object a failed transaction touches"
                blocked.append(set(txn.links))
                continue
            else:
                conn.execute("SAVEPOINT ddlc_plan")
                for k, stmt in enumerate(txn.statements):
                    kind = alone_kind(stmt)
                    try:
                        if kind is not None:
                            if is_done(conn, stmt, kind):
                                item.reason = f"statement {k + 1} runs alone ({kind}): already done"
                            else:
                                item.reason = f"statement {k + 1} runs alone ({kind})"
                            continue
                        conn.execute(stmt)
                    except psycopg.Error as exc:
                        text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
                        item.verdict, item.error, item.statement = "fail", text, k
                        item.reason = reason_of(getattr(exc, "sqlstate", None), text)
                        conn.execute("ROLLBACK TO SAVEPOINT ddlc_plan")
                        break
            if item.verdict == "fail":
                blocked.append(set(txn.links))
                stopped = settings.on_error == "stop"
    finally:
        conn.execute("ROLLBACK")
    return report
