"""``--progress``: a bar of the bytes read, with records/s and MB/s, and the Spark UI's address.

Tasks report what they read through two Spark accumulators (bytes and records of each piece, sent
when the piece is done); a thread on the driver redraws the bar from them twice a second.
"""

from __future__ import annotations

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
        from rich.console import Console
        from rich.progress import BarColumn, DownloadColumn, Progress as Bar, TextColumn, TimeElapsedColumn

        start = time.perf_counter()
        with Bar(TextColumn("reading"), BarColumn(), DownloadColumn(), TextColumn("{task.fields[rate]}"),
                 TimeElapsedColumn(), console=Console(stderr=True), transient=False) as bar:
            task = bar.add_task("read", total=self.total or 1, rate="")
            while True:
                done = self._stop.wait(0.5)
                seconds = max(time.perf_counter() - start, 1e-9)
                b, r = self.bytes.value, self.records.value
                bar.update(task, completed=b, rate=f"{r / seconds:,.0f} records/s, {b / seconds / 1e6:.1f} MB/s")
                if done:
                    return
