"""Stage 1 through Spark's filesystem layer: the executors read the pieces where they lie.

When an input is a URI (``hdfs://``, ``s3a://``, ``file://``, ...) or the master is not local, no
executor opens a path with Python: Spark reads the bytes and hands them to the Python workers.

* A piece read whole (CSV, decoding text, batch framing, one JSON document, a small file) comes from
  Spark's ``binaryFile`` source: the file's bytes, read by the JVM's ``FileSystem`` (up to 2 GB a file).
* A JSON lines file larger than a piece is read by Spark's text source (``lineSep`` ``\\n``: a ``\\r``
  stays in its line, and the bytes are taken as binary, never decoded) in byte ranges of the piece size
  planned on the driver from the file's size: ``spark.sql.files.maxPartitionBytes`` and
  ``openCostInBytes`` are the piece size while stage 1 runs, so that each of Spark's splits is one
  piece, and each line belongs to the range it starts in (Hadoop's rule). A task knows its piece from
  ``_metadata.file_block_start``; it reads the piece's lines from line 1 and offset 0, and the driver moves
  lines (:func:`.plan.with_lines`) and offsets (:func:`relocate_offsets`) by the pieces before it.

The rows out are :data:`.work.READ_SCHEMA`'s, exactly what :func:`.work.read_piece` gives for the
same bytes, so everything after stage 1 is the same whatever read the pieces.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Iterator
from typing import Any

from .plan import Piece

__all__ = ["frame", "reader", "splits", "complete_counts", "relocate_offsets", "GUARD"]

# tests: a directory the workers must never open a file under (an audit hook fails the task that does)
GUARD: str | None = os.environ.get("DDLC_PIPELINE_NO_OPEN_UNDER") or None


def frame(spark: Any, pieces: list[Piece]) -> Any:
    """A DataFrame ``(piece int, data binary)``: a whole piece's bytes in one row, a byte range's lines
    one row each, in order within each of Spark's partitions (one partition per piece)."""
    from pyspark.sql import functions as F

    frames = []
    first: dict[int, Piece] = {}
    for p in pieces:
        if p.whole:
            frames.append(spark.read.format("binaryFile").load(p.uri)
                          .select(F.lit(p.piece).cast("int").alias("piece"), F.col("content").alias("data")))
        elif p.file not in first:
            first[p.file] = p
            block = F.col("_metadata.file_block_start")
            piece = (F.lit(p.piece) + F.floor(block / F.lit(p.split))).cast("int")
            # a split Spark did not start at a multiple of the piece size: fail loudly, never misplace a line
            checked = F.when(block % F.lit(p.split) == 0, piece).otherwise(
                F.raise_error(F.concat(F.lit(f"ddlc: Spark split {p.uri} at "), block.cast("string"),
                                       F.lit(f", not at a multiple of {p.split}"))))
            frames.append(spark.read.option("lineSep", "\n").text(p.uri)
                          .select(checked.alias("piece"), F.col("value").cast("binary").alias("data")))
    out = frames[0]
    for f in frames[1:]:
        out = out.unionByName(f)
    return out


@contextlib.contextmanager
def splits(spark: Any, piece_size: int) -> Iterator[None]:
    """While stage 1 runs: Spark's file splits are the planned byte ranges, one per partition."""
    keys = ("spark.sql.files.maxPartitionBytes", "spark.sql.files.openCostInBytes")
    saved = {k: spark.conf.get(k, None) for k in keys}
    for k in keys:
        spark.conf.set(k, str(piece_size))
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                spark.conf.unset(k)
            else:
                spark.conf.set(k, v)


def reader(pieces: list[dict[str, Any]], options: Any = None, share: int | None = None) -> Any:
    """mapInArrow over :func:`frame`: each piece's bytes through :func:`.work.read_piece`, its
    :data:`.work.READ_SCHEMA` batches out (``share`` as in :func:`.work.piece_reader`)."""
    guard = GUARD

    def run(batches: Iterable[Any]) -> Iterator[Any]:
        from .work import READ_SCHEMA, _batched, _capped, read_piece

        if guard is not None:
            _forbid_open(guard)
        left = share
        for piece, data in _pieces(batches, pieces):
            rows = read_piece(piece, options, data)
            if left is not None:
                rows, spent = _capped(rows, left)
            yield from _batched(rows, READ_SCHEMA, 2048)
            if left is not None:
                left -= spent[0]

    return run


def _pieces(batches: Iterable[Any], pieces: list[dict[str, Any]]) -> Iterator[tuple[Piece, bytes]]:
    """(piece, its bytes) from the rows of one partition: a whole piece's one row, a range's lines joined."""
    at: int | None = None
    parts: list[bytes] = []
    for batch in batches:
        ids = batch.column(0).to_pylist()
        values = batch.column(1).to_pylist()
        for i, v in zip(ids, values, strict=True):
            if i != at:
                if at is not None:
                    yield _joined(pieces[at], parts)
                at, parts = i, []
            parts.append(v)
    if at is not None:
        yield _joined(pieces[at], parts)


def _joined(row: dict[str, Any], parts: list[bytes]) -> tuple[Piece, bytes]:
    piece = Piece(**row)
    if piece.whole:
        return piece, parts[0] if len(parts) == 1 else b"".join(parts)
    parts.append(b"")
    return piece, b"\n".join(parts)  # every line with its newline (the file's last one may have had none)


def _forbid_open(guard: str) -> None:
    """A worker that opens a file under ``guard`` with Python fails (tests: the pieces come from Spark)."""
    import sys

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if event == "open" and args and isinstance(args[0], str) and args[0].startswith(guard):
            raise RuntimeError(f"ddlc pipeline: an executor opened {args[0]} with Python")

    sys.addaudithook(hook)


def complete_counts(rows: list[dict[str, Any]], pieces: list[Piece]) -> list[dict[str, Any]]:
    """A count row for every piece: a byte range in which no line starts gives Spark no row at all."""
    from .work import READ_SCHEMA

    have = {r["piece"] for r in rows if r["kind"] == "count"}
    blank = dict.fromkeys(part.partition(" ")[0] for part in READ_SCHEMA.split(", "))
    for p in pieces:
        if p.piece not in have:
            rows.append(blank | {"kind": "count", "piece": p.piece, "seq": -1, "file": p.file, "lsn_hi": 0, "lsn_lo": 0,
                         "records": 0, "documents": 0, "dml": 0, "rolled_back": 0, "unrecognised": 0,
                         "bytes": p.size, "lines": 0, "span": 0})
    return rows


def first_offsets(pieces: list[Piece], counts: dict[int, int]) -> dict[int, int]:
    """The byte offset in its file of each byte range's first line: the bytes of the ranges before it."""
    out: dict[int, int] = {}
    file, at = -1, 0
    for p in pieces:
        if p.file != file:
            file, at = p.file, 0  # (after a UTF-8 byte order mark, which Hadoop's line reader skips, as ddlc
            # translate counts offsets)
        if not p.whole and p.uri:
            out[p.piece] = at
            at += counts.get(p.piece, 0)
    return out


def relocate_offsets(side: list[dict[str, Any]], offsets: dict[int, int]) -> list[dict[str, Any]]:
    """Stage 1's unrecognised lines, at their offsets in their files."""
    out = []
    for r in side:
        first = offsets.get(r["piece"], 0)
        if first and r["kind"] == "unrecognised" and r.get("offset") is not None:
            label = r["label"]
            prefix = f"{r['source']}:{r['line']}: line not recognised (byte {r['offset']}):"
            if label.startswith(prefix):  # the label names the offset too (ddlc translate's text)
                label = prefix.replace(f"(byte {r['offset']})", f"(byte {r['offset'] + first})") + label[len(prefix):]
            r = r | {"offset": r["offset"] + first, "label": label}
        out.append(r)
    return out


def piece_bytes(hfs: Any, piece: Piece, offsets: dict[int, int], spans: dict[int, int]) -> bytes:
    """The bytes a piece was read as, read again on the driver (the rare shuffle path holding a
    transaction open at the end of the run)."""
    if piece.whole:
        return hfs.read(piece.uri)
    return hfs.read(piece.uri, offsets.get(piece.piece, 0), spans.get(piece.piece, 0))
