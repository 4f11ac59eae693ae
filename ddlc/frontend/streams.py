"""Pull DDL documents out of real logical-decoding output.

Two input families are understood (see ``fixtures/streams/README.md`` for samples):

* **Decoding text** (``"decoding_text"``): the rows printed by openGauss's ``test_decoding`` /
  ``sql_decoding`` (``message: prefix deparse, relid N, cmdtype: X, sz: N content: {...}``) and
  ``mppdb_decoding`` (``prefix: deparse, lsn: N, relid N, cmdtype: X, size: N, content: {...}``),
  each followed by its ``decode to`` line, between ``BEGIN``/``COMMIT`` rows and DML rows. GaussDB
  serial decoding prints DDL rows as bare ``{"TDDL": "..."}`` / ``{"JDDL": {...}}`` objects; those
  are picked up too, while mppdb_decoding's cJSON DML rows are skipped.
* **Parallel batch framing** (``"parallel_batch"``): the byte stream of GaussDB/openGauss parallel
  decoding with ``sending-batch`` on, as written by ``pg_recvlogical --raw`` or a JDBC client.
  Each statement is ``uint32 N`` (big-endian, the bytes that follow it: 8 + payload) ``uint64 LSN``
  then the payload; ``N = 0`` ends a batch. decode-style ``'b'`` adds a ``P`` (more) / ``F`` (batch
  end) byte after each statement; GaussDB heartbeats are ``'h'`` + three 8-byte integers.

Everything works on ``bytes`` read on demand through a :class:`~.streams_io.ByteSource`: a text
stream a line at a time, a batch stream a frame at a time, so a file of any size is read in flat
memory (an open transaction is held until its COMMIT). Each payload is decoded as UTF-8 on its
own. A bad line or frame becomes a :class:`~ddlc.errors.DdlcError` in the output and reading goes
on with the next one; a line or frame of no known kind is handed to the ``skip`` callback as a
:class:`Skipped` (nothing is dropped without a trace).

The readers themselves are :mod:`.streams_text` (rows followed to their end: data never becomes
DDL) and :mod:`.streams_batch`; this module tells the forms apart and is the entry point.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..errors import DdlcError
from collections.abc import Callable

from .streams_base import Record, Skipped, SkipFn, no_count, no_skip
from .streams_batch import iter_batch, looks_batched
from .streams_io import ByteSource
from .streams_text import iter_text
from .txns import TxnMark
from .. import lazyre

__all__ = ["Record", "Skipped", "sniff", "sniff_source", "iter_records", "stream_records", "forced_records"]

# line heads that identify decoding text (used by sniff only)
_HEADS = lazyre.compile(
    rb"(?:BEGIN(?: \d+| CSN: |$)|COMMIT(?: \d+| \(at | CSN |$)|ABORT(?: \d+|$)"
    rb"|message: (?:prefix |transactional)|prefix: [^,]*, lsn: \d+|decode to ?: "
    rb"|table \S+: (?:INSERT|UPDATE|DELETE|TRUNCATE):)")
_DML_JSON = b'{"table_name"'  # a cJSON DML row (mppdb_decoding): never a document of its own
_LOOK = 1 << 20  # bytes of preamble looked through for a decoding row (JSON input: 64 KiB)


def sniff(data: bytes | ByteSource) -> str | None:
    """``"parallel_batch"``, ``"decoding_text"``, or None for anything else (JSON, JSON lines)."""
    src = _source(data)
    src.skip_bom()
    return sniff_source(src)


def _source(data: bytes | ByteSource) -> ByteSource:
    if isinstance(data, ByteSource):
        return data
    return ByteSource(data if isinstance(data, bytes) else bytes(data))


def sniff_source(src: ByteSource) -> str | None:
    """:func:`sniff` on an input read on demand: it reads until a line tells (a decoding row), at
    most 1 MiB of other lines (when the input starts like JSON, only the lines already read, so that
    JSON lines on a pipe are not held up)."""
    if not src.have(1):
        return None
    if looks_batched(src):
        return "parallel_batch"
    h = src.skip_space(0, 4096)
    stop = _LOOK
    if h is not None:
        head = src.get(h, h + len(_DML_JSON))
        if head.startswith(b"["):
            return None
        if head == _DML_JSON:
            return "decoding_text"
        if head.startswith(b"{"):  # JSON lines, most likely: only what was read already
            stop = min(1 << 16, src.end)
    pos = 0
    while pos < stop and src.have(pos + 1):
        nl = src.find(b"\n", pos, stop)
        end = nl if nl >= 0 else min(stop, src.end)  # -1: stop reached, or the input's end
        line = src.get(pos, end).strip()
        pos = end + 1 if nl >= 0 else stop
        if line and (_HEADS.match(line) or line.startswith(_DML_JSON)):
            return "decoding_text"
    return None


def iter_records(data: bytes | ByteSource, source: str, skip: SkipFn | None = None
                 ) -> Iterator[Record | DdlcError]:
    """Yield one :class:`Record` per DDL message in ``data`` (errors in place, never raised).

    ``data`` may be a :class:`ByteSource` reading a file: it is then read as the records are
    asked for, a line (text) or a frame (batch framing) at a time, an open transaction held.
    ``skip`` is called with each line or frame that is of no known kind."""
    src = _source(data)
    src.skip_bom()
    for rec in _records(src, source, sniff_source(src), skip or no_skip):
        if type(rec) is not TxnMark:  # (the transaction marks are for the document reader: .txns)
            yield rec


def stream_records(src: ByteSource, source: str, skip: SkipFn | None = None,
                   dml: Callable[[], None] = no_count) -> Iterator[Record | DdlcError] | None:
    """The records of ``src`` when it is decoding output (its BOM already skipped), else None; with them,
    the transaction marks (:class:`.txns.TxnMark`) the document reader folds."""
    kind = sniff_source(src)
    return None if kind is None else _records(src, source, kind, skip or no_skip, dml)


def forced_records(src: ByteSource, source: str, kind: str, skip: SkipFn | None = None,
                   dml: Callable[[], None] = no_count) -> Iterator[Record | DdlcError]:
    """The records of ``src`` read as ``kind`` (``"decoding_text"`` or ``"parallel_batch"``),
    whatever its start looks like (``--input-format decoding|batch``)."""
    return _records(src, source, kind, skip or no_skip, dml)


def _records(src: ByteSource, source: str, kind: str | None, skip: SkipFn,
             dml: Callable[[], None] = no_count) -> Iterator[Record | DdlcError]:
    if kind == "parallel_batch":
        return iter_batch(src, source, skip, dml)
    return iter_text(src.lines(0), source, skip, dml)
