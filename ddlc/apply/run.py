"""One ``ddlc apply`` run: connect, take the source's lock, recover, then skip / retry / apply the log / plan.

Shared by the command (:mod:`ddlc.cli.apply`) and the library (:func:`ddlc.apply`). The log is translated by
the run driver, :class:`ddlc.session.Session`, exactly as ``ddlc translate`` translates it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import Any

__all__ = ["ApplyError", "ApplySettings", "run", "documents", "connect"]


class ApplyError(ValueError):
    """A run that cannot start: a bad setting, a server that cannot be reached (exit 2 on the command line)."""


class ApplySettings:
    """What a run does besides translating (the flags of ``ddlc apply``)."""

    __slots__ = ("dsn", "source", "progress_table", "lock_timeout", "statement_timeout", "retries", "backoff",
                 "on_error", "retry", "skip", "plan", "process")

    def __init__(self, dsn: str, *, source: str = "default", progress_table: str = "ddlc.progress",
                 lock_timeout: str = "5s", statement_timeout: str = "0", retries: int = 5, backoff: float = 0.1,
                 on_error: str = "stop", retry: bool = False, skip: Iterable[int] = (), plan: bool = False,
                 process: bool = False) -> None:
        if on_error not in ("stop", "hold"):
            raise ApplyError(f"on_error must be 'stop' or 'hold', not {on_error!r}")
        if not isinstance(retries, int) or retries < 0:
            raise ApplyError(f"retries must be a whole number >= 0, not {retries!r}")
        if not isinstance(source, str) or not source:
            raise ApplyError("the source id must be a non-empty string")
        from .tables import parse_table_name

        try:
            parse_table_name(progress_table)
        except ValueError as exc:
            raise ApplyError(str(exc)) from None
        self.dsn, self.source, self.progress_table = dsn, source, progress_table
        self.lock_timeout, self.statement_timeout = str(lock_timeout), str(statement_timeout)
        self.retries, self.backoff, self.on_error = retries, backoff, on_error
        self.retry, self.skip, self.plan = retry, tuple(int(i) for i in skip), plan
        self.process = process  # translate in a forked process (the command line), else in a thread


def connect(dsn: str) -> Any:
    import psycopg

    try:
        return psycopg.connect(dsn, autocommit=True, application_name="ddlc apply")
    except psycopg.Error as exc:
        raise ApplyError(f"cannot connect to the server: {str(exc).strip().splitlines()[0] if str(exc).strip() else exc}") from None


def documents(docs: Any, txns: Any) -> Any:
    """The documents of ``docs``: an ``os.PathLike``/a list of paths (read as ``ddlc translate`` reads files),
    bytes or a str holding a log, or an iterable of single documents."""
    from ..frontend.documents import as_document, read_documents, read_inputs

    if isinstance(docs, os.PathLike):
        return read_inputs([os.fspath(docs)], txns=txns)
    if isinstance(docs, str | bytes):
        return read_documents(docs, txns=txns)
    return (as_document(item, index=i, source=f"<input {i}>") for i, item in enumerate(docs))


def run(settings: ApplySettings, backend: Any, options: Any, state: Any = None,
        read: Callable[[Any], Any] | None = None, say: Callable[[str, str], None] | None = None,
        tick: Callable[[Any], None] | None = None) -> Any:
    """Apply (or plan) one run; the :class:`~.runner.Tally` (or the plan's report).

    ``read(txns)``: the log's documents (None: no log, ``--retry``/``--skip`` only); ``say(kind, text)``:
    notes, warnings and errors as they happen; ``tick(tally)``: after each source transaction."""
    import psycopg

    from ..session import Session
    from .ahead import ahead
    from .runner import Applier, Fatal, Stop
    from .source import source_txns
    from .tables import Tables, parse_table_name

    say = say or (lambda kind, text: None)
    schema, table = parse_table_name(settings.progress_table)
    session = Session([backend], options, state)
    conn = connect(settings.dsn)
    try:
        tables = Tables(schema, table)
        if settings.plan:
            from .plan import plan

            return plan(conn, tables, settings, session, read, options, say)
        applier = Applier(conn, tables, settings.source, on_error=settings.on_error, retries=settings.retries,
                          backoff=settings.backoff, lock_timeout=settings.lock_timeout,
                          statement_timeout=settings.statement_timeout, say=say)
        t = applier.tally
        try:
            _start(applier)
            ok = True
            for ident in settings.skip:
                ok = applier.skip(ident) and ok
            if settings.retry and ok:
                ok = applier.retry()
            if read is not None and ok and t.stopped is None:
                made: dict[str, Any] = {}

                def make() -> Any:  # (in the translating thread or process)
                    made["stream"] = stream = read(session.txns())
                    return source_txns(session, stream, options, t)

                def finish() -> Any:  # the state moves on only when the log was taken whole
                    stream = made.get("stream")
                    return session.close(stream if hasattr(stream, "txns") else None)

                def absorb(seen: Any) -> None:
                    if seen:
                        t.state_seen = seen

                translating = ahead(make, finish, settings.process, lambda: t.state_seen, absorb, fds=(conn.fileno(),))
                completed = False
                try:
                    for txn in translating:
                        if not applier.apply(txn):
                            break
                        if tick is not None:
                            tick(t)
                    else:
                        completed = True
                finally:
                    held = translating.close(completed and t.stopped is None)
                if held:
                    say("note", held)
            elif not ok and t.stopped is None:
                t.stopped = "a --skip or --retry failed"
        except Stop:
            pass
        except Fatal as exc:
            t.stopped = str(exc)
            say("error", str(exc))
            t.failed += 1
        except psycopg.Error as exc:  # the server went away, or refused ddlc's own rows
            lost = isinstance(exc, psycopg.OperationalError) and getattr(exc, "sqlstate", None) is None
            t.stopped = f"{'the connection to the server was lost' if lost else 'the server refused it'}: {_line(exc)}"
            say("error", t.stopped)
            t.failed += 1
        return t
    finally:
        conn.close()


def _line(exc: Any) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _start(applier: Any) -> None:
    import psycopg

    try:
        applier.start()
    except psycopg.Error as exc:
        text = _line(exc)
        if getattr(exc, "sqlstate", None) in ("22023", "42704"):  # a bad timeout value
            raise ApplyError(f"the server refused a setting: {text}") from None
        # no right to create ddlc's schema, a server that went away...: nothing was applied
        raise ApplyError(f"cannot start applying: {text}") from None
