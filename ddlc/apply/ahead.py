"""The source transactions translated ahead while the server applies the ones before them.

``ddlc translate | psql -f`` overlaps translating (ddlc's Python) and applying (psql and the server) as two
processes. ``ddlc apply`` does the same: :class:`AheadThread` translates in a thread (the library: no
process is started inside a caller's program), :class:`AheadProcess` in a forked process of its own (the
command line, where the process is ddlc's: translating then takes a core of its own instead of sharing the
interpreter's lock with the applying thread). Either hands the transactions out in order, raises an
exception of the translation where the transaction it stopped at would have come, and at the end closes
the run driver's session (the ``--state`` saved) only when the applier took the whole input.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["AheadThread", "AheadProcess", "ahead"]

_END = "end"


class AheadThread:
    def __init__(self, make: Callable[[], Iterator[Any]], finish: Callable[[], Any], size: int = 64) -> None:
        self._q: Any = queue.Queue(maxsize=size)
        self._stop = threading.Event()
        self._make, self._finish = make, finish
        self._thread = threading.Thread(target=self._fill, name="ddlc-apply-translate", daemon=True)
        self._thread.start()

    def _fill(self) -> None:
        try:
            for item in self._make():
                while not self._stop.is_set():
                    try:
                        self._q.put((item, None), timeout=0.1)
                        break
                    except queue.Full:
                        continue
                if self._stop.is_set():
                    return
            self._put((_END, None))
        except BaseException as exc:  # noqa: BLE001 - handed to the reader
            self._put((_END, exc))

    def _put(self, item: Any) -> None:
        while not self._stop.is_set():
            try:
                self._q.put(item, timeout=0.1)
                return
            except queue.Full:
                continue

    def __iter__(self) -> Iterator[Any]:
        while True:
            item, exc = self._q.get()
            if item is _END:
                if exc is not None:
                    raise exc
                return
            yield item

    def close(self, completed: bool) -> Any:
        """End the translation; ``completed``: the applier took everything (then the session is closed:
        what closing it says, or None)."""
        self._stop.set()
        if not completed:  # (it may wait on its input, standard input say: a daemon thread, left behind)
            return None
        self._thread.join()
        return self._finish()


class AheadProcess:
    """The same in a forked process; the transactions come over a pipe, pickled."""

    def __init__(self, make: Callable[[], Iterator[Any]], finish: Callable[[], Any], counts: Callable[[], Any],
                 absorb: Callable[[Any], None], fds: tuple[int, ...] = ()) -> None:
        import multiprocessing

        ctx = multiprocessing.get_context("fork")
        self._conn, child = ctx.Pipe()
        self._absorb = absorb
        # the child closes what it inherits of the applier: its end of the pipe (else, the applier killed, the
        # child's sends and reads never end) and ``fds``, the server connection's socket (else the killed
        # applier's server session, and its lock, lives on as long as the child)
        self._proc = ctx.Process(target=_child, args=(make, finish, counts, child, self._conn, fds),
                                 name="ddlc-apply-translate", daemon=True)
        self._proc.start()
        child.close()
        self._ended = False

    def __iter__(self) -> Iterator[Any]:
        while True:
            try:
                kind, value = self._conn.recv()
            except EOFError:
                raise RuntimeError("the translating process ended without a word") from None
            if kind == "txn":
                yield value
            elif kind == "end":
                self._ended = True
                self._absorb(value)
                return
            else:  # "error": the exception, or its text when it did not pickle
                self._ended = True
                raise value if isinstance(value, BaseException) else RuntimeError(value)

    def close(self, completed: bool) -> Any:
        note = None
        try:
            if completed and self._ended:
                self._conn.send("close")
                kind, value = self._conn.recv()
                if kind == "error":
                    raise value if isinstance(value, BaseException) else RuntimeError(value)
                note = value
            else:  # nothing to save: it may be reading its input still
                self._proc.kill()
        except (BrokenPipeError, EOFError, OSError):
            pass
        finally:
            self._conn.close()
            self._proc.join(timeout=10)
            if self._proc.is_alive():
                self._proc.kill()
                self._proc.join()
        return note


def _child(make: Callable[[], Iterator[Any]], finish: Callable[[], Any], counts: Callable[[], Any], conn: Any,
           applier_end: Any = None, fds: tuple[int, ...] = ()) -> None:
    import os

    if applier_end is not None:
        applier_end.close()
    for fd in fds:
        try:
            os.close(fd)  # the fd only: no message to the server (the applier's session is the applier's)
        except OSError:
            pass
    try:
        try:
            for txn in make():
                conn.send(("txn", txn))
            conn.send(("end", counts()))
        except (BrokenPipeError, EOFError):
            os._exit(0)  # the applier is gone (killed): nothing to hand on
        except BaseException as exc:  # noqa: BLE001 - handed to the applier
            _send_error(conn, exc)
            os._exit(0)
        if conn.recv() == "close":
            try:
                conn.send(("closed", finish()))
            except BaseException as exc:  # noqa: BLE001
                _send_error(conn, exc)
    except (BrokenPipeError, EOFError, OSError):
        pass
    os._exit(0)  # (never this process's parent's atexit handlers)


def _send_error(conn: Any, exc: BaseException) -> None:
    import pickle

    try:
        pickle.dumps(exc)
        conn.send(("error", exc))
    except Exception:  # noqa: BLE001 - an exception that does not pickle: its text
        conn.send(("error", f"{type(exc).__name__}: {exc}"))


def ahead(make: Callable[[], Iterator[Any]], finish: Callable[[], Any], process: bool,
          counts: Callable[[], Any] = lambda: None, absorb: Callable[[Any], None] = lambda v: None,
          fds: tuple[int, ...] = ()) -> Any:
    """:class:`AheadProcess` when ``process`` (and ``fork`` is there), else :class:`AheadThread`."""
    if process:
        import multiprocessing

        if "fork" in multiprocessing.get_all_start_methods():
            return AheadProcess(make, finish, counts, absorb, fds)
    return AheadThread(make, finish)
