"""Parallel batch framing: the byte stream of GaussDB/openGauss parallel decoding with
``sending-batch`` on, as written by ``pg_recvlogical --raw`` or a JDBC client.

Each statement is ``uint32 N`` (big-endian, the bytes that follow it: 8 + payload) ``uint64 LSN``
then the payload; ``N = 0`` ends a batch. decode-style ``'b'`` adds a ``P`` (more) / ``F`` (batch
end) byte after each statement; GaussDB heartbeats are ``'h'`` + three 8-byte integers. A frame is
one unit whatever its payload holds (a DML value with newlines cannot reach the next frame), and
is read through a :class:`~.streams_io.ByteSource`, every length checked with ``have()`` first.
A payload that is neither a transaction row, a DML row nor DDL is passed to ``skip``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from types import MappingProxyType

from ..errors import DdlcError
from .streams_base import Record, Skipped, SkipFn, ddl_text, decode, err, excerpt, json_ddl, no_count
from .streams_io import ByteSource
from .txns import BEGIN, COMMIT, TxnMark
from .. import lazyre

__all__ = ["looks_batched", "iter_batch"]

# parallel decoding text ('t' and 'j' styles): BEGIN/commit rows are always text
_PBEGIN = lazyre.compile(rb"BEGIN CSN: (\d+) first_lsn: ([0-9A-Fa-f]+/[0-9A-Fa-f]+)(?: xid: (\d+))?"
                     rb"(?: commit_time: (.*?))?(?: origin_id: (-?\d+))?\s*$")
_PCOMMIT = lazyre.compile(rb"commit xid: (\d+)")
_UNKNOWN = object()  # a payload of no kind the reader knows
_MAX_LEN = 0x3000_0000  # a length field never starts with a byte >= '0': those bytes are markers
_LSN_MAX = 1 << 48  # a WAL position beyond 256 TiB is not one (text read as a number is >= 2**61)
_START = frozenset(b"{BCIUDtcART ")  # first payload bytes of 'j'/'t'/'b' statements


def _u64(data: bytes, p: int) -> int:
    return int.from_bytes(data[p:p + 8], "big")


def _frame_ok(src: ByteSource, p: int, depth: int) -> bool:
    """Does a plausible frame start at ``p`` (and, ``depth`` deep, the units after it)?"""
    if not src.have(p + 4):
        return False
    length = src.u32(p)
    if length < 8 or length >= _MAX_LEN:
        return False
    if not src.have(p + 12) or src.u64(p + 4) >= _LSN_MAX:
        return False
    # the cheap checks first: only a plausible frame is read to its end
    if length > 8 and (not src.have(p + 13) or src.byte(p + 12) not in _START):
        return False
    if not src.have(p + 4 + length):
        return False
    return _boundary_ok(src, p + 4 + length, depth - 1)


def _boundary_ok(src: ByteSource, p: int, depth: int) -> bool:
    """Can a unit (frame, batch end, marker, heartbeat) or the end of data start at ``p``?"""
    if depth <= 0 or not src.have(p + 1):
        return src.have(p)
    b = src.byte(p)
    if b == 0x50:  # 'P': a frame must follow
        return _frame_ok(src, p + 1, depth - 1)
    if b == 0x46:  # 'F': end of data, or anything that may start a batch
        return _boundary_ok(src, p + 1, depth - 1)
    if b == 0x68:  # heartbeat
        return src.have(p + 25)
    if not src.have(p + 4):
        return False
    return src.u32(p) == 0 or _frame_ok(src, p, depth)


def _ends_well(src: ByteSource, q: int) -> bool:
    """Structural check of what follows a frame ending at ``q`` (LSNs are not looked at).

    A length field damaged into a smaller value makes the frame end inside a payload; this
    catches most of those, so the damage is reported once, on the frame that carries it.
    """
    if not src.have(q + 1):
        return True
    b = src.byte(q)
    if b < 0x30:  # the high byte of a length: 0 ends a batch, otherwise an LSN must follow
        if not src.have(q + 4) or src.u32(q) == 0:
            return True
        return src.u32(q) >= 8 and (not src.have(q + 12) or src.u64(q + 4) < _LSN_MAX)
    if b == 0x50:  # 'P': a frame follows
        return not src.have(q + 2) or src.byte(q + 1) < 0x30
    if b == 0x46:  # 'F': end of data, a heartbeat or the next batch
        return not src.have(q + 2) or src.byte(q + 1) < 0x30 or src.byte(q + 1) == 0x68
    return b == 0x68


def _skip_heartbeat(src: ByteSource, p: int) -> int:
    """Offset after a heartbeat at ``p`` ('h', three 8-byte integers, then its terminator:
    'F' in decode-style 'b', a zero length in batched text/JSON; a bare '0' is accepted too)."""
    q = p + 25
    if src.get(q, q + 1) in (b"F", b"0"):
        return q + 1
    if src.get(q, q + 4) == b"\0\0\0\0":
        return q + 4
    return q


def looks_batched(src: ByteSource) -> bool:
    if src.get(0, 1) == b"\0":  # no text input starts with NUL: a length field does
        return True
    p = 0
    for _ in range(4):  # leading batch terminators or heartbeats
        if src.get(p, p + 4) == b"\0\0\0\0":
            p += 4
        elif src.get(p, p + 1) == b"h" and src.have(p + 25):
            p = _skip_heartbeat(src, p)
        else:
            break
    return _frame_ok(src, p, 1) and _ends_well(src, p + 4 + src.u32(p))


def _resync(src: ByteSource, start: int) -> int:
    """Offset of the next plausible frame after a damaged one (the input's end when there is none)."""
    q = start
    while True:
        src.release(q)
        q = src.find(b"\0", q, drop=True)  # frames shorter than 16 MiB have a zero high byte
        if q < 0 or not src.have(q + 12):
            return src.total()
        if _frame_ok(src, q, 2):
            return q
        q += 1


def _binary_begin(payload: bytes) -> dict[str, object]:
    info: dict[str, object] = {}
    if len(payload) >= 17:
        info["csn"] = _u64(payload, 1)
        info["first_lsn"] = _lsn_text(_u64(payload, 9))
        if payload[17:18] == b"X" and len(payload) >= 26:
            info["xid"] = _u64(payload, 18)
    return info


def _begin(txn: dict[str, object]) -> TxnMark:
    xid = txn.get("xid")
    return TxnMark(BEGIN, xid if isinstance(xid, int) else None)


def _commit(txn: dict[str, object], xid: object, lsn: int) -> TxnMark:
    """A commit frame: its LSN (end_lsn) is the transaction's commit position."""
    txn.clear()
    return TxnMark(COMMIT, xid if isinstance(xid, int) else None, ("lsn", lsn))


def _lsn_text(v: int) -> str:
    return f"{v >> 32:X}/{v & 0xFFFFFFFF:X}"


def iter_batch(src: ByteSource, source: str, skip: SkipFn, dml: Callable[[], None] = no_count
               ) -> Iterator[Record | DdlcError]:
    """The records of batch framing; ``dml`` is called for each DML or transaction frame."""
    p = 0
    batch = 0
    txn: dict[str, object] = {}
    while src.have(p + 1):
        src.release(p)
        b = src.byte(p)
        doc = source + "@" + str(p)
        if b >= 0x30:  # a marker byte, not the high byte of a length
            if b == 0x50:  # 'P': more statements follow (decode-style 'b')
                p += 1
            elif b == 0x46:  # 'F': batch end (decode-style 'b')
                p += 1
                batch += 1
            elif b == 0x68:  # 'h' heartbeat
                if not src.have(p + 25):
                    yield err(f"truncated heartbeat message: {src.total() - p} of 25 bytes", doc, p)
                    return
                p = _skip_heartbeat(src, p)
            else:
                yield err(f"unexpected byte 0x{b:02X} where a frame should start", doc, p)
                p = _resync(src, p + 1)
            continue
        if not src.have(p + 4):
            yield err(f"truncated frame header: {src.total() - p} of 4 length bytes", doc, p)
            return
        length = src.u32(p)
        if length == 0:
            p += 4
            batch += 1
            continue
        if length < 8 or not src.have(p + 4 + length):
            what = ("too short to hold its LSN" if length < 8 else
                    f"truncated: the header announces {length} bytes, {src.total() - p - 4} remain")
            yield err(f"malformed frame: {what}", doc, p)
            p = _resync(src, p + 1)
            continue
        start, end = p + 12, p + 4 + length
        if not _ends_well(src, end) and not src.get(end - 1, end) == b"}":
            # a JSON payload ending in "}" is whole: then the junk is after it, reported there
            yield err("malformed frame: its length does not lead to the next frame", doc, p)
            p = _resync(src, p + 1)
            continue
        lsn = src.u64(p + 4)
        payload = src.get(start, end)
        rec = _batch_payload(payload, p, start, lsn, batch, txn, source)
        if rec is _UNKNOWN:
            skip(Skipped(source, 0, p, excerpt(payload)))
        elif rec is None:
            dml()  # a DML or transaction frame: counted, never a document
        elif type(rec) is TxnMark:
            dml()
            yield rec  # type: ignore[misc]
        else:
            yield rec  # type: ignore[misc]
        p = end


def _batch_payload(payload: bytes, p: int, start: int, lsn: int, batch: int,
                   txn: dict[str, object], source: str) -> Record | DdlcError | object | None:
    doc = f"{source}@{p}"
    if not payload:
        return None
    c = payload[0]
    if c in b"BCIUD" and (len(payload) == 1 or payload[1] < 0x20
                          or (c == 0x43 and payload[1] in b"XTPF")):
        if c == 0x42:  # binary-style BEGIN: new transaction
            txn.clear()
            txn.update(_binary_begin(payload))
            return _begin(txn)
        if c == 0x43:  # binary-style COMMIT: the frame's LSN is the transaction's end LSN
            xid = _u64(payload, 2) if payload[1:2] == b"X" and len(payload) >= 10 else txn.get("xid")
            return _commit(txn, xid, lsn)
        return None  # decode-style 'b' has no DDL records
    if c == 0x7B:  # '{'
        is_ddl = json_ddl(payload)
        if is_ddl is None:
            return err("malformed JSON payload in frame", doc, start)
        if not is_ddl:
            return None if b'"op_type"' in payload else _UNKNOWN  # DML, or what?
        kind = "json"
    elif payload.startswith(b"BEGIN"):
        m = _PBEGIN.match(payload)
        txn.clear()
        if m:
            txn["csn"] = int(m[1])
            txn["first_lsn"] = m[2].decode("ascii")
            if m[3]:
                txn["xid"] = int(m[3])
            if m[4]:
                txn["commit_time"] = m[4].decode("utf-8", "replace")
        return _begin(txn)
    elif payload.startswith(b"commit"):
        m = _PCOMMIT.match(payload)
        return _commit(txn, int(m[1]) if m else txn.get("xid"), lsn)
    elif payload.startswith(b"table "):
        return None
    elif ddl_text(payload):
        kind = "text"
    else:
        return _UNKNOWN
    text = decode(payload, doc, start)
    if isinstance(text, DdlcError):
        return text
    meta: dict[str, object] = {"format": "parallel_batch", "lsn": lsn, "batch": batch}
    meta.update(txn)
    return Record(0, p, text.strip() if kind == "text" else text, kind, MappingProxyType(meta))


