"""The bytes of one input, read on demand: what lets the readers stream.

:class:`ByteSource` wraps a binary file object (or bytes already in memory) and hands out bytes
by offset from the start of the input, reading as far as it is asked to and no further. Bytes
before the :meth:`~ByteSource.release` mark are dropped at the next read, so a reader that
releases what it has used holds only the unit it is working on (a line, a frame, a transaction).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from typing import Any
from .. import lazyre

__all__ = ["ByteSource", "CHUNK"]

CHUNK = 1 << 20  # bytes asked of the file object at a time (at least)

_NONSPACE = lazyre.compile(rb"[^ \t\n\r\x0b\x0c]")  # what bytes.strip() keeps


class ByteSource:
    """Offsets are counted from the start of the input (after :meth:`shift`)."""

    __slots__ = ("buf", "base", "eof", "_read", "_keep", "_size")

    def __init__(self, data: bytes | None = None, fh: Any = None) -> None:
        self.buf = b"" if data is None else data  # the bytes held, buf[0] being at offset base
        self.base = 0
        self._keep = 0  # bytes before this offset may be dropped
        self._size: int | None = None  # total length, when the file's size tells it in advance
        if fh is None:
            self.eof = True
            self._read = None
            return
        self.eof = False
        self._read = getattr(fh, "read1", None) or fh.read  # read1: what is there, no waiting
        try:
            st = os.fstat(fh.fileno())
            if stat.S_ISREG(st.st_mode):
                self._size = st.st_size - fh.tell()
        except (AttributeError, OSError, ValueError):
            pass

    @property
    def end(self) -> int:
        """Offset just past the bytes read so far (the input's length once ``eof`` is set)."""
        return self.base + len(self.buf)

    def shift(self, n: int) -> None:
        """Move the start of the input ``n`` bytes on (negative: back); nothing may be released yet."""
        self.base -= n
        self._keep -= n
        if self._size is not None:
            self._size -= n

    def skip_bom(self) -> bool:
        if self.get(0, 3) == b"\xef\xbb\xbf":
            self.shift(3)
            return True
        return False

    def release(self, offset: int) -> None:
        """Bytes before ``offset`` will not be asked for again."""
        if offset > self._keep and self._read is not None:
            self._keep = offset

    def _append(self, parts: list[bytes]) -> None:
        drop = self._keep - self.base
        if drop > 0:
            self.base += drop
            parts.insert(0, self.buf[drop:])
        else:
            parts.insert(0, self.buf)
        self.buf = b"".join(parts)

    def _chunk(self, n: int) -> bytes:
        chunk = self._read(n)  # type: ignore[misc]
        if isinstance(chunk, str):  # a text stream without .buffer
            chunk = chunk.encode("utf-8")
        if not chunk:
            self.eof = True
        return chunk or b""

    def fill(self, end: int) -> int:
        """Read until ``end`` is reached or the input ends; returns the offset read up to."""
        have = self.base + len(self.buf)
        if end <= have or self.eof:
            return have
        parts = []
        need = end - have
        while need > 0:
            chunk = self._chunk(max(need, CHUNK))
            if not chunk:
                break
            parts.append(chunk)
            need -= len(chunk)
        if parts:
            self._append(parts)
        return self.base + len(self.buf)

    def more(self, line: bool = False) -> bool:
        """Read what comes next (``line``: up to a newline at least); False at the end."""
        if self.eof:
            return False
        parts = []
        got = 0
        while True:
            chunk = self._chunk(max(CHUNK, got))
            if not chunk:
                break
            parts.append(chunk)
            got += len(chunk)
            if not line or b"\n" in chunk:
                break
        if parts:
            self._append(parts)
        return bool(parts)

    def have(self, end: int) -> bool:
        """Does the input reach ``end`` (are the bytes before it all there)?"""
        if end <= self.base + len(self.buf):
            return True
        if self._size is not None and end > self._size and not self.eof:
            return False
        return self.fill(end) >= end

    def total(self) -> int:
        """The input's length (known in advance for a file; otherwise read to the end)."""
        if not self.eof and self._size is not None:
            return self._size
        while not self.eof:
            self.fill(self.end + CHUNK)
        return self.end

    def get(self, start: int, stop: int) -> bytes:
        self.fill(stop)
        return self.buf[start - self.base:stop - self.base]

    def byte(self, p: int) -> int:
        """The byte at ``p``; the caller has checked ``have(p + 1)``."""
        return self.buf[p - self.base]

    def u32(self, p: int) -> int:
        q = p - self.base
        return int.from_bytes(self.buf[q:q + 4], "big")

    def u64(self, p: int) -> int:
        q = p - self.base
        return int.from_bytes(self.buf[q:q + 8], "big")

    def find(self, sub: bytes, start: int, stop: int | None = None, *, drop: bool = False) -> int:
        """Offset of ``sub`` at or after ``start`` (ending before ``stop``), or -1.
        ``drop``: the bytes searched through are released."""
        p = start
        while True:
            limit = None if stop is None else stop - self.base
            i = self.buf.find(sub, p - self.base, limit)
            if i >= 0:
                return self.base + i
            if stop is not None and self.end >= stop:
                return -1
            p = max(start, self.end - len(sub) + 1)
            if drop:
                self.release(p)
            if not self.more(sub == b"\n"):
                return -1

    def skip_space(self, p: int, stop: int | None = None) -> int | None:
        """Offset of the first byte at or after ``p`` (and before ``stop``) that is not ASCII
        whitespace, or None."""
        while True:
            limit = len(self.buf) if stop is None else min(len(self.buf), stop - self.base)
            m = _NONSPACE.search(self.buf, max(p - self.base, 0), max(limit, 0))
            if m is not None:
                return self.base + m.start()
            p = max(p, self.end)
            if (stop is not None and p >= stop) or not self.more():
                return None

    def line_end(self, p: int) -> int:
        """Offset just past the first newline at or after ``p``, or the end of the input."""
        i = self.find(b"\n", p)
        return i + 1 if i >= 0 else self.total()

    def lines(self, start: int = 0) -> Iterator[bytes]:
        """The lines from ``start`` on, as ``data[start:].split(b"\\n")`` has them (the last one
        possibly empty); the bytes are released as the lines are handed out."""
        pos = start
        while True:
            rel = pos - self.base
            cut = self.buf.rfind(b"\n", rel, rel + CHUNK)  # in pieces, even when all is in memory
            if cut < 0:
                cut = self.buf.find(b"\n", rel + CHUNK)
            if cut >= 0:
                chunk = self.buf[rel:cut]
                pos = self.base + cut + 1
                self.release(pos)
                yield from chunk.split(b"\n")
            elif self.eof:
                yield self.buf[rel:]
                return
            else:
                self.release(pos)
                self.more(True)
