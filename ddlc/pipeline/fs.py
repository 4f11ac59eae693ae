"""Inputs and outputs at a URI: Spark's Hadoop filesystem layer, seen from the driver.

``--input`` and ``--output`` may be any URI the user's Spark reads (``file://``, ``hdfs://``, ``s3a://``,
``abfss://``, ``viewfs://``, ...: whatever jars and ``spark.hadoop.*`` settings it has). The driver
reaches the filesystem through the JVM's ``org.apache.hadoop.fs.FileSystem`` (py4j): it lists the
inputs and takes their sizes from it (the pieces are planned from them), reads the first bytes of each
to tell its form, and writes the outputs with it. The executors read the pieces through Spark itself
(:mod:`.remote`), never with Python's ``open()``.

A plain path (no scheme) is a path on the driver's own filesystem, as before; :func:`to_uri` gives Spark
its ``file:`` URI when the pieces are read through Spark.
"""

from __future__ import annotations

import os
import re
from typing import Any
from .. import lazyre

__all__ = ["is_uri", "to_uri", "HadoopFS", "Stat"]

_SCHEME = lazyre.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:/")
_CHUNK = 8 << 20  # bytes per py4j call when reading or writing


def is_uri(path: str) -> bool:
    """``path`` names a filesystem by its scheme (``hdfs://nn/logs``, ``file:///tmp/x``), not a plain path."""
    return bool(_SCHEME.match(path)) and not re.match(r"^[A-Za-z]:[\\/]", path)  # (not a Windows drive)


def to_uri(path: str) -> str:
    """The URI Spark reads for an input: a URI as given, a plain path as the driver's ``file:`` URI."""
    if is_uri(path):
        return path
    # (not pathlib's as_uri: Hadoop's Path takes the text as it is, and would read "%20" as three characters)
    return "file://" + os.path.abspath(path).replace(os.sep, "/")


class Stat:
    __slots__ = ("path", "is_dir", "size")

    def __init__(self, path: str, is_dir: bool, size: int) -> None:
        self.path, self.is_dir, self.size = path, is_dir, size


class HadoopFS:
    """The Hadoop filesystem of a SparkSession's JVM (the one ``spark.hadoop.*`` configures)."""

    def __init__(self, spark: Any) -> None:
        self.jvm = spark.sparkContext._jvm
        self.conf = spark.sparkContext._jsc.hadoopConfiguration()

    def _fs(self, uri: str) -> tuple[Any, Any]:
        p = self.jvm.org.apache.hadoop.fs.Path(uri)
        return p.getFileSystem(self.conf), p

    def stat(self, uri: str) -> Stat | None:
        """What is at ``uri``, or None when nothing is."""
        fs, p = self._fs(uri)
        try:
            st = fs.getFileStatus(p)
        except Exception as exc:  # noqa: BLE001 - py4j: java.io.FileNotFoundException
            if "FileNotFoundException" in str(exc) or "No such file" in str(exc):
                return None
            raise
        return Stat(str(st.getPath()), bool(st.isDirectory()), int(st.getLen()))

    def listdir(self, uri: str) -> list[Stat]:
        """The entries of a directory, by name."""
        fs, p = self._fs(uri)
        out = [Stat(str(s.getPath()), bool(s.isDirectory()), int(s.getLen())) for s in fs.listStatus(p)]
        return sorted(out, key=lambda s: name_of(s.path))

    def files(self, uri: str) -> list[Stat]:
        """The files under a directory, recursively, in name order (hidden ones, ``.x`` and ``_x``, left
        out, as Spark's own sources do)."""
        found: list[Stat] = []
        for s in self.listdir(uri):
            if name_of(s.path).startswith((".", "_")):
                continue
            found.extend(self.files(s.path) if s.is_dir else [s])
        return sorted(found, key=lambda s: s.path)

    def read(self, uri: str, start: int = 0, n: int = -1) -> bytes:
        """Bytes ``[start, start + n)`` of a file (``n`` -1: to its end)."""
        fs, p = self._fs(uri)
        stream = fs.open(p)
        try:
            if start:
                stream.seek(start)
            parts, left = [], n
            while left != 0:
                chunk = bytes(stream.readNBytes(_CHUNK if left < 0 else min(left, _CHUNK)))
                if not chunk:
                    break
                parts.append(chunk)
                if left > 0:
                    left -= len(chunk)
            return b"".join(parts)
        finally:
            stream.close()

    def reader(self, uri: str) -> _Reader:
        """A file object reading ``uri`` from its start (for :class:`ddlc.frontend.streams_io.ByteSource`)."""
        fs, p = self._fs(uri)
        return _Reader(fs.open(p))

    def write(self, uri: str, data: bytes) -> None:
        """Create (or replace) the file ``uri`` holding ``data``; visible whole once closed on an object
        store, and never read by ddlc before the summary that lists it is written."""
        fs, p = self._fs(uri)
        stream = fs.create(p, True)
        try:
            for at in range(0, len(data), _CHUNK):
                stream.write(data[at:at + _CHUNK])
        finally:
            stream.close()

    def delete(self, uri: str, recursive: bool = False) -> None:
        fs, p = self._fs(uri)
        fs.delete(p, recursive)

    def mkdirs(self, uri: str) -> None:
        fs, p = self._fs(uri)
        fs.mkdirs(p)


def name_of(uri: str) -> str:
    return uri.rstrip("/").rpartition("/")[2]


def join(uri: str, name: str) -> str:
    return uri.rstrip("/") + "/" + name


class _Reader:
    """A Hadoop input stream as a Python file object (read only, forward)."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream

    def read(self, n: int = -1) -> bytes:
        n = _CHUNK if n is None or n < 0 else min(n, _CHUNK)
        return bytes(self.stream.readNBytes(n)) if n else b""

    def close(self) -> None:
        self.stream.close()

    def __enter__(self) -> _Reader:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
