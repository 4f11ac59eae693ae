"""A progress line on standard error that needs no library: one line redrawn in place (carriage return,
erase to the end of the line), cut to the terminal's width so that it never wraps.

Every other line the commands write to standard error goes through :func:`ddlc.cli.common._report`,
which takes the progress line away first (:func:`hide`): a diagnostic is never wrapped into the bar nor
written in the middle of it, and the bar is drawn again below it at its next update.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

__all__ = ["StatusLine", "hide"]

_SHOWN: StatusLine | None = None  # the line on the screen now (at most one)


class StatusLine:
    """``update(text)`` redraws the line (at most ``rate`` times a second unless ``force``); ``close()``
    erases it. Writes only to ``stream`` (standard error), and only when the caller chose to show it."""

    __slots__ = ("stream", "_last", "_every", "_drawn", "_width")

    def __init__(self, stream: TextIO | None = None, rate: float = 10.0) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self._last = 0.0
        self._every = 1.0 / rate
        self._drawn = False
        import shutil

        self._width = max(20, shutil.get_terminal_size((80, 24)).columns - 1)

    def update(self, text: str, force: bool = False) -> None:
        global _SHOWN
        now = time.monotonic()
        if not force and now - self._last < self._every:
            return
        self._last = now
        if len(text) > self._width:
            text = text[: self._width - 1] + "…"
        if _SHOWN is not None and _SHOWN is not self:
            _SHOWN._erase()
        self.stream.write("\r" + text + "\x1b[K")
        self.stream.flush()
        self._drawn = True
        _SHOWN = self

    def _erase(self) -> None:
        global _SHOWN
        if self._drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._drawn = False
        if _SHOWN is self:
            _SHOWN = None

    def close(self, keep: str | None = None) -> None:
        """Erase the line (``keep``: leave this text in its place, as a line of its own)."""
        self._erase()
        if keep is not None:
            self.stream.write(keep + "\n")
            self.stream.flush()


def hide() -> None:
    """Take the progress line off the screen before another line is written (it comes back at its next
    update)."""
    if _SHOWN is not None:
        _SHOWN._erase()
