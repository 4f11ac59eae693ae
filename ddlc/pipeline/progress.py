"""``--progress``: a bar of the bytes read, with records/s and MB/s, and the Spark UI's address.

Tasks report what they read through two Spark accumulators (bytes and records of each piece, sent
when the piece is done); a thread on the driver redraws the bar from them twice a second: one line on
standard error, redrawn in place on a terminal (cut to its width: it never wraps) and a line every ten
seconds elsewhere (a log). It needs no library; the last state stays on the screen when the stages end.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

__all__ = ["Progress"]


class Progress:
    def __init__(self, sc: Any, pieces: list[Any], *, enabled: bool, say: Callable[[str], None]) -> None:
        self.enabled = enabled
        self.sc, self.say = sc, say
        self.total = sum(p.size for p in pieces)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        if enabled:
            self.bytes = sc.accumulator(0)
            self.records = sc.accumulator(0)

    def reader(self, fn: Callable[[Iterable[Any]], Iterator[Any]]) -> Callable[[Iterable[Any]], Iterator[Any]]:
        """``fn`` (stage 1's mapInArrow function), counting what each piece read when progress is shown."""
        if not self.enabled:
            return fn
        acc_bytes, acc_records = self.bytes, self.records

        def counted(batches: Iterable[Any]) -> Iterator[Any]:
            import pyarrow.compute as pc

            for out in fn(batches):
                counts = out.filter(pc.equal(out.column("kind"), "count"))
                if counts.num_rows:
                    acc_bytes.add(int(pc.sum(counts.column("bytes")).as_py() or 0))
                    acc_records.add(int(pc.sum(counts.column("records")).as_py() or 0))
                yield out

        return counted

    def __enter__(self) -> Progress:
        if self.enabled:
            url = self.sc.uiWebUrl
            if url:
                self.say(f"ddlc pipeline: Spark UI at {url}")
            self._thread = threading.Thread(target=self._draw, name="ddlc-progress", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def _draw(self) -> None:
        import shutil

        err = sys.stderr
        live = err.isatty()
        width = max(20, shutil.get_terminal_size((80, 24)).columns - 1)
        start = last = time.perf_counter()
        total = self.total or 1
        text = ""
        while True:
            done = self._stop.wait(0.5)
            now = time.perf_counter()
            seconds = max(now - start, 1e-9)
            b, r = self.bytes.value, self.records.value
            filled = min(20, int(20 * b / total))
            m, sec = divmod(int(seconds), 60)
            text = (f"reading [{'#' * filled}{'.' * (20 - filled)}] {b / 1e6:,.1f}/{total / 1e6:,.1f} MB  "
                    f"{r / seconds:,.0f} records/s, {b / seconds / 1e6:.1f} MB/s  {m}:{sec:02d}")
            if live:
                err.write("\r" + text[:width] + "\x1b[K" + ("\n" if done else ""))
                err.flush()
            elif done or now - last >= 10:
                last = now
                err.write(text + "\n")
                err.flush()
            if done:
                return
