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
on with the next one.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from ..diagnostics import E_INPUT
from ..errors import DdlcError
from .streams_io import ByteSource

__all__ = ["Record", "sniff", "sniff_source", "iter_records", "stream_records"]


@dataclass(frozen=True, slots=True)
class Record:
    """One DDL message found in a decoding stream."""

    line: int  # 1-based line number (text streams), 0 for binary frames
    offset: int  # byte offset of the line or frame in the input
    payload: str  # JSON text (tree or JDDL/TDDL envelope), or plain TDDL SQL text
    kind: str  # "json" or "text"
    meta: Mapping[str, object]  # format, relid, cmdtype, lsn, xid, commit info, owner, ...


# ---------------------------------------------------------------------------------------------
# decoding text: regexes applied once per line, anchored at the start of the line

# contrib/test_decoding & sql_decoding: "message: prefix %s, relid %u, cmdtype: %s, sz: %lu content: %s"
_TD_MSG = re.compile(rb"message: prefix (.*?), relid (\d+), cmdtype: ([A-Za-z ]+?), sz: (\d+) content: ")
# contrib/mppdb_decoding: "prefix: %s, lsn: %lu, relid %u, cmdtype: %s, size: %lu, content: %s"
_MP_MSG = re.compile(
    rb"prefix: (.*?), lsn: (\d+), relid (\d+), cmdtype: ([A-Za-z ]+?), size: (\d+), content: ")
_BEGIN = re.compile(rb"BEGIN(?: (\d+))?(?: ORIGIN_ID (-?\d+))?(?:\s|$)")
_COMMIT = re.compile(rb"COMMIT(?: (\d+))?(?: \(at ([^)]*)\))?(?: CSN (\d+))?\s*$")
_ABORT = re.compile(rb"ABORT(?: (\d+))?(?: \(at ([^)]*)\))?\s*$")
# parallel decoding text ('t' and 'j' styles): BEGIN/commit rows are always text
_PBEGIN = re.compile(rb"BEGIN CSN: (\d+) first_lsn: ([0-9A-Fa-f]+/[0-9A-Fa-f]+)(?: xid: (\d+))?"
                     rb"(?: commit_time: (.*?))?(?: origin_id: (-?\d+))?\s*$")
_PCOMMIT = re.compile(rb"commit(?: xid: (\d+))?(?: \(at ([^)]*)\))?\s*$")
# line heads that identify decoding text (used by sniff only)
_HEADS = re.compile(
    rb"(?:BEGIN(?: \d+| CSN: |$)|COMMIT(?: \d+| \(at | CSN |$)|ABORT(?: \d+|$)"
    rb"|message: (?:prefix |transactional)|prefix: [^,]*, lsn: \d+|decode to ?: "
    rb"|table \S+: (?:INSERT|UPDATE|DELETE|TRUNCATE):)")
_OWNER_MARK = b", [owner "
_DDL_VERBS = (b"CREATE", b"ALTER", b"DROP", b"COMMENT", b"TRUNCATE", b"REINDEX", b"RENAME",
              b"REFRESH")


def _err(message: str, document: str, position: int) -> DdlcError:
    return DdlcError(message, code=E_INPUT, document=document, position=position)


def _decode(raw: bytes, document: str, position: int) -> str | DdlcError:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return _err(f"payload is not valid UTF-8 ({exc.reason} at byte {exc.start} of the payload)",
                    document, position + exc.start)


def _json_ddl(payload: bytes) -> bool | None:
    """Is this JSON payload a DDL document? True/False, or None when it is not valid JSON."""
    i = 1
    n = len(payload)
    while i < n and payload[i] in b" \t\r\n":
        i += 1
    key = payload[i:i + 12]
    if key.startswith((b'"JDDL"', b'"TDDL"', b'"fmt"')):
        return True
    if key == b'"table_name"':  # cJSON DML row (mppdb_decoding, parallel 'j')
        return False
    import orjson  # only for unusual payloads

    try:
        value = orjson.loads(payload)
    except orjson.JSONDecodeError:
        return None
    return isinstance(value, dict) and ("JDDL" in value or "TDDL" in value or "fmt" in value)


def _ddl_text(payload: bytes) -> bool:
    head = payload.lstrip()[:9].upper()
    return any(head.startswith(v) and (len(head) == len(v) or head[len(v)] in b" \t\r\n(")
               for v in _DDL_VERBS)


# ---------------------------------------------------------------------------------------------
# sniffing

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
    """:func:`sniff` on an input read on demand: only its first units or 64 KiB are looked at."""
    if not src.have(1):
        return None
    if _looks_batched(src):
        return "parallel_batch"
    h = src.skip_space(0, 4096)
    if h is not None and src.get(h, h + 1) in (b"{", b"["):
        return None
    seen = 0
    pos, stop = 0, 1 << 16
    while pos < stop and src.have(pos + 1):
        nl = src.find(b"\n", pos, stop)
        end = nl if nl >= 0 else min(stop, src.end)  # -1: stop reached, or the input's end
        line = src.get(pos, end).strip()
        pos = end + 1 if nl >= 0 else stop
        if not line:
            continue
        if _HEADS.match(line):
            return "decoding_text"
        seen += 1
        if seen >= 64:
            break
    return None


# ---------------------------------------------------------------------------------------------
# parallel batch framing (read through a ByteSource: every length is checked with have() first)

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


def _looks_batched(src: ByteSource) -> bool:
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


def _lsn_text(v: int) -> str:
    return f"{v >> 32:X}/{v & 0xFFFFFFFF:X}"


def _iter_batch(src: ByteSource, source: str) -> Iterator[Record | DdlcError]:
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
                    yield _err(f"truncated heartbeat message: {src.total() - p} of 25 bytes", doc, p)
                    return
                p = _skip_heartbeat(src, p)
            else:
                yield _err(f"unexpected byte 0x{b:02X} where a frame should start", doc, p)
                p = _resync(src, p + 1)
            continue
        if not src.have(p + 4):
            yield _err(f"truncated frame header: {src.total() - p} of 4 length bytes", doc, p)
            return
        length = src.u32(p)
        if length == 0:
            p += 4
            batch += 1
            continue
        if length < 8 or not src.have(p + 4 + length):
            what = ("too short to hold its LSN" if length < 8 else
                    f"truncated: the header announces {length} bytes, {src.total() - p - 4} remain")
            yield _err(f"malformed frame: {what}", doc, p)
            p = _resync(src, p + 1)
            continue
        start, end = p + 12, p + 4 + length
        if not _ends_well(src, end) and not src.get(end - 1, end) == b"}":
            # a JSON payload ending in "}" is whole: then the junk is after it, reported there
            yield _err("malformed frame: its length does not lead to the next frame", doc, p)
            p = _resync(src, p + 1)
            continue
        lsn = src.u64(p + 4)
        payload = src.get(start, end)
        rec = _batch_payload(payload, p, start, lsn, batch, txn, source)
        if rec is not None:
            yield rec
        p = end


def _batch_payload(payload: bytes, p: int, start: int, lsn: int, batch: int,
                   txn: dict[str, object], source: str) -> Record | DdlcError | None:
    doc = f"{source}@{p}"
    if not payload:
        return None
    c = payload[0]
    if c in b"BCIUD" and (len(payload) == 1 or payload[1] < 0x20
                          or (c == 0x43 and payload[1] in b"XTPF")):
        if c == 0x42:  # binary-style BEGIN: new transaction
            txn.clear()
            txn.update(_binary_begin(payload))
        return None  # decode-style 'b' has no DDL records
    if c == 0x7B:  # '{'
        is_ddl = _json_ddl(payload)
        if is_ddl is None:
            return _err("malformed JSON payload in frame", doc, start)
        if not is_ddl:
            return None
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
        return None
    elif payload.startswith((b"commit", b"table ")):
        return None
    elif _ddl_text(payload):
        kind = "text"
    else:
        return None
    text = _decode(payload, doc, start)
    if isinstance(text, DdlcError):
        return text
    meta: dict[str, object] = {"format": "parallel_batch", "lsn": lsn, "batch": batch}
    meta.update(txn)
    return Record(0, p, text.strip() if kind == "text" else text, kind, MappingProxyType(meta))


# ---------------------------------------------------------------------------------------------
# decoding text

class _Txn:
    """Records of the open transaction, held until COMMIT so they can carry its details."""

    __slots__ = ("items", "info")

    def __init__(self, info: dict[str, object]) -> None:
        self.items: list[list | DdlcError] = []  # [line, offset, payload, kind, meta] or error
        self.info = info


def _flush(txn: _Txn, end: dict[str, object]) -> Iterator[Record | DdlcError]:
    for item in txn.items:
        if isinstance(item, DdlcError):
            yield item
            continue
        line, offset, payload, kind, meta = item
        for k, v in txn.info.items():
            meta.setdefault(k, v)
        for k, v in end.items():
            meta.setdefault(k, v)
        yield Record(line, offset, payload, kind, MappingProxyType(meta))


class _Lines:
    """The lines of a decoding text, one at a time, with a look-ahead for multi-line rows."""

    __slots__ = ("_it", "_ahead")

    def __init__(self, lines: Iterator[bytes]) -> None:
        self._it = lines
        self._ahead: deque[bytes] = deque()

    def next(self) -> bytes | None:
        if self._ahead:
            return self._ahead.popleft()
        return next(self._it, None)

    def peek(self, j: int) -> bytes | None:
        """The ``j``-th line after the current one (0: the next), or None past the end."""
        while len(self._ahead) <= j:
            line = next(self._it, None)
            if line is None:
                return None
            self._ahead.append(line)
        return self._ahead[j]


def _iter_text(lines: Iterator[bytes], source: str) -> Iterator[Record | DdlcError]:
    feed = _Lines(lines)
    txn = _Txn({})  # outside any BEGIN: items are flushed line by line
    in_txn = False
    pending: list | None = None  # the last DDL item, until its "decode to" line is seen
    drop_starts: set[int] = set()
    offset = 0
    lineno = 0
    while (raw := feed.next()) is not None:
        lineno += 1
        line_off = offset
        offset += len(raw) + 1
        line = raw[:-1] if raw.endswith(b"\r") else raw
        expecting = pending
        pending = None
        if not line:
            continue
        c = line[0]
        if c == 0x74 and line.startswith(b"table "):  # DML row (the common case)
            continue
        doc = f"{source}:{lineno}"
        if c == 0x6D and line.startswith(b"message: "):
            m = _TD_MSG.match(line)
            if m is None:
                if line.startswith(b"message: transactional"):
                    continue  # a plain logical message (pg_logical_emit_message), not DDL
                txn.items.append(_err("malformed DDL message line: cannot read its header", doc,
                                      line_off))
            else:
                meta = {"format": "test_decoding", "prefix": m[1].decode("utf-8", "replace"),
                        "relid": int(m[2]), "cmdtype": m[3].decode("ascii"), "size": int(m[4])}
                pending = _message(line[m.end():], meta, lineno, line_off, m.end(), doc, txn,
                                   drop_starts)
        elif c == 0x70 and line.startswith(b"prefix: "):
            m = _MP_MSG.match(line)
            if m is None:
                txn.items.append(_err("malformed DDL message line: cannot read its header", doc,
                                      line_off))
            else:
                meta = {"format": "mppdb_decoding", "prefix": m[1].decode("utf-8", "replace"),
                        "lsn": int(m[2]), "relid": int(m[3]), "cmdtype": m[4].decode("ascii"),
                        "size": int(m[5])}
                pending = _message(line[m.end():], meta, lineno, line_off, m.end(), doc, txn,
                                   drop_starts)
        elif c == 0x64 and line.startswith(b"decode to"):
            extra, owner, text = _decode_to(feed, line, expecting)
            for _ in range(extra):
                offset += len(feed.next() or b"") + 1
            lineno += extra
            if isinstance(expecting, list):
                meta = expecting[4]
                meta["decode_to"] = text
                if owner is not None and owner != "none":
                    meta["owner"] = owner
        elif c == 0x7B:  # GaussDB serial DDL row {"TDDL": ...} / {"JDDL": ...}, or cJSON DML
            # (a line that does not parse is left alone: it may continue a multi-line DML value;
            # a broken DDL row still starts with {"JDDL"/{"TDDL" and is passed on as one)
            if _json_ddl(line):
                text = _decode(line, doc, line_off)
                if isinstance(text, DdlcError):
                    txn.items.append(text)
                else:
                    item = [lineno, line_off, text, "json", {"format": "mppdb_decoding"}]
                    txn.items.append(item)
                    pending = item
        elif c == 0x42 and (m := _BEGIN.match(line)):
            yield from _flush(txn, {})
            info: dict[str, object] = {}
            if m[1]:
                info["xid"] = int(m[1])
            if m[2]:
                info["origin_id"] = int(m[2])
            txn, in_txn = _Txn(info), True
            drop_starts.clear()
            continue
        elif c in b"CA" and (m := (_COMMIT if c == 0x43 else _ABORT).match(line)):
            end: dict[str, object] = {}
            if m[1]:
                end["xid"] = int(m[1])
            if m[2]:
                end["commit_time"] = m[2].decode("utf-8", "replace")
            if c == 0x43:
                if m[3]:
                    end["csn"] = int(m[3])
            else:
                end["aborted"] = True
            yield from _flush(txn, end)
            txn, in_txn = _Txn({}), False
            drop_starts.clear()
            continue
        if not in_txn and txn.items and pending is None:
            yield from _flush(txn, {})
            txn = _Txn({})
    yield from _flush(txn, {})


def _message(content: bytes, meta: dict[str, object], lineno: int, line_off: int, content_at: int,
             doc: str, txn: _Txn, drop_starts: set[int]) -> list | bool | None:
    """Handle one DDL message line; returns what a following "decode to" line belongs to."""
    relid = meta["relid"]
    if content[:1] != b"{":
        if content.startswith(b"Drop ") and content.endswith(b" command start"):
            drop_starts.add(relid)  # type: ignore[arg-type]
            return True  # test_decoding may still print a "decode to" line after it
        txn.items.append(_err("DDL message content is neither JSON nor a DROP start message", doc,
                              line_off + content_at))
        return None
    size = meta["size"]
    if len(content) + 1 != size:
        txn.items.append(_err(
            f"DDL message content is {len(content)} bytes but its header says {size} - 1: "
            "the line is truncated or was altered", doc, line_off))
        return True
    text = _decode(content, doc, line_off + content_at)
    if isinstance(text, DdlcError):
        txn.items.append(text)
        return True
    if relid in drop_starts:
        meta["drop_start"] = True
    item = [lineno, line_off, text, "json", meta]
    txn.items.append(item)
    return item


def _decode_to(feed: _Lines, first: bytes, expecting: list | bool | None
               ) -> tuple[int, str | None, str | None]:
    """Read a "decode to" row, which may span lines; returns (extra lines used, owner, text)."""
    start = first.find(b":") + 1
    if first[start:start + 1] == b" ":
        start += 1
    found = _owner_at(first)
    if found is not None:
        return 0, found[1], _text(first[start:found[0]])
    # the expanded SQL holds newlines: at most as many as "\n" escapes in the JSON payload
    limit = expecting[2].count("\\n") if isinstance(expecting, list) else 0
    for j in range(limit):
        nxt = feed.peek(j)
        if nxt is None:
            break
        if nxt.endswith(b"\r"):
            nxt = nxt[:-1]
        found = _owner_at(nxt)
        if found is not None:
            body = b"\n".join([first[start:], *(feed.peek(k) for k in range(j)), nxt[:found[0]]])
            return j + 1, found[1], _text(body.replace(b"\r\n", b"\n"))
    return 0, None, _text(first[start:])


def _owner_at(line: bytes) -> tuple[int, str] | None:
    if not line.endswith(b"]"):
        return None
    k = line.rfind(_OWNER_MARK)
    if k < 0:
        return None
    return k, line[k + len(_OWNER_MARK):-1].decode("utf-8", "replace")


def _text(raw: bytes) -> str:
    return raw.decode("utf-8", "replace")


# ---------------------------------------------------------------------------------------------

def iter_records(data: bytes | ByteSource, source: str) -> Iterator[Record | DdlcError]:
    """Yield one :class:`Record` per DDL message in ``data`` (errors in place, never raised).

    ``data`` may be a :class:`ByteSource` reading a file: it is then read as the records are
    asked for, a line (text) or a frame (batch framing) at a time, an open transaction held."""
    src = _source(data)
    src.skip_bom()
    yield from _records(src, source, sniff_source(src))


def stream_records(src: ByteSource, source: str) -> Iterator[Record | DdlcError] | None:
    """The records of ``src`` when it is decoding output (its BOM already skipped), else None."""
    kind = sniff_source(src)
    return None if kind is None else _records(src, source, kind)


def _records(src: ByteSource, source: str, kind: str | None) -> Iterator[Record | DdlcError]:
    if kind == "parallel_batch":
        return _iter_batch(src, source)
    return _iter_text(src.lines(0), source)
