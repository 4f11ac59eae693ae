"""Decoding text: the rows of openGauss's ``test_decoding`` / ``sql_decoding`` and ``mppdb_decoding``
slots (and GaussDB serial decoding's JSON rows), read a line at a time.

The unit is the *row*, not the line. A row of ordinary data may hold newlines, and an ordinary
database user writes it: a ``test_decoding`` DML row quotes text values (``note[text]:'a`` ...
``b'``, ``''`` for a quote) and names (``"..."``, ``""``); a logical message's content is ``sz``
bytes; a ``decode to`` row carries the expanded SQL, whose literals, comments and function bodies
are the user's. Each of these is followed to its end, and every line inside it belongs to it: only a
line at a row boundary is ever read as a DDL message, a BEGIN or a COMMIT. That is what keeps a
value such as ``'x\\nmessage: prefix deparse, ... content: {"fmt": "DROP ..."}\\ny'`` data.

A ``decode to`` row spans exactly as many lines as the expansion of its message has newlines, and
that is how it is read (the expansion is only computed when the message holds an escaped newline;
otherwise the row is one line). A row that never ends (an unclosed quote at the end of the input)
is an error: the lines after its start were all read as its data.

Every line that is neither a known row nor part of one is passed to ``skip``; a line that looks like
a DDL message but does not start like one (a damaged head) is an error in place, not a skip.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Iterator
from types import MappingProxyType

import orjson

from ..errors import DdlcError
from ..jddl.expand import expand, owner_of
from .streams_base import Record, Skipped, SkipFn, decode, err, excerpt, json_ddl, no_count
from .txns import ABORT, BEGIN, COMMIT, TxnMark
from .. import lazyre

__all__ = ["iter_text"]

# contrib/test_decoding & sql_decoding: "message: prefix %s, relid %u, cmdtype: %s, sz: %lu content: %s"
_TD_MSG = lazyre.compile(rb"message: prefix (.*?), relid (\d+), cmdtype: ([A-Za-z ]+?), sz: (\d+) content: ")
# contrib/mppdb_decoding: "prefix: %s, lsn: %lu, relid %u, cmdtype: %s, size: %lu, content: %s"
_MP_MSG = lazyre.compile(
    rb"prefix: (.*?), lsn: (\d+), relid (\d+), cmdtype: ([A-Za-z ]+?), size: (\d+), content: ")
# pg_logical_emit_message rows: "message: transactional: %d prefix: %s, sz: %zu content:" + sz bytes
_LOGICAL = lazyre.compile(rb"message: transactional: [01] prefix: .*?, sz: (\d+) content:")
_BEGIN = lazyre.compile(rb"BEGIN(?: (\d+))?(?: ORIGIN_ID (-?\d+))?(?:\s|$)")
_COMMIT = re.compile(rb"COMMIT(?: (\d+))?(?: \(at ([^)]*)\))?(?: CSN (\d+))?\s*$")
_ABORT = re.compile(rb"ABORT(?: (\d+))?(?: \(at ([^)]*)\))?\s*$")
# what a DDL message carries whatever damage its head took
_DAMAGED = lazyre.compile(rb"relid \d+, cmdtype: |\"[JT]DDL\"\s*:")
_OWNER_MARK = b", [owner "

# A test_decoding DML row: text outside quotes, '...' literals and "..." names (a doubled quote
# inside either is two quoted runs back to back: the same state). Each pattern is an unrolled loop (a plain run,
# then quoted pieces each followed by a plain run): no two pieces can start at the same character, so no
# backtracking finds another cut, in one atomic group. As fast as the possessive form was on Python 3.11.5+
# (callgrind, 3,000 log lines: 34.5M against 33.7M; nested atomic groups: 44.4M), which 3.11.0-3.11.4 match wrongly.
_TD_RUN = lazyre.compile(rb"""(?>[^'"]*(?:(?:'[^']*'|"[^"]*")[^'"]*)*)""")
# A cJSON row: text outside strings and "..." strings with backslash escapes.
_JS_RUN = lazyre.compile(rb'(?>[^"]*(?:"[^"\\]*(?:\\.[^"\\]*)*"[^"]*)*)')
_JS_REST = lazyre.compile(rb'(?>[^"\\]*(?:\\.[^"\\]*)*)')  # the rest of a string already open
_TD, _JS, _BYTES = 0, 1, 2


def _td_state(line: bytes, quote: bytes | None) -> bytes | None:
    """The quote still open at the end of ``line`` of a test_decoding row (None: the row ends)."""
    if quote != b'"' and b'"' not in line:  # one kind of quote only: its count tells (C speed)
        odd = line.count(b"'") & 1
        return (b"'" if odd else None) if quote is None else (None if odd else quote)
    pos = 0
    while True:
        if quote is not None:
            pos = line.find(quote, pos)
            if pos < 0:
                return quote
            pos += 1
        pos = _TD_RUN.match(line, pos).end()  # type: ignore[union-attr]
        if pos >= len(line):
            return None
        quote = line[pos:pos + 1]
        pos += 1


def _js_state(line: bytes, in_string: bool) -> bool:
    """Is a JSON string still open at the end of ``line``? (A trailing backslash escapes the newline.)"""
    if b"\\" not in line:  # no escapes: every quote opens or closes a string
        return bool(line.count(b'"') & 1) != in_string
    pos = 0
    while True:
        if in_string:
            pos = _JS_REST.match(line, pos).end()  # type: ignore[union-attr]
            if pos >= len(line) or line[pos] == 0x5C:
                return True
            pos += 1
        pos = _JS_RUN.match(line, pos).end()  # type: ignore[union-attr]
        if pos >= len(line):
            return False
        in_string = True
        pos += 1


class _Row:
    """A row of data still open at the end of its line: the lines that follow are part of it."""

    __slots__ = ("kind", "line", "offset", "state")

    def __init__(self, kind: int, line: int, offset: int, state: object) -> None:
        self.kind = kind
        self.line = line
        self.offset = offset
        self.state = state  # the open quote (test_decoding), True (JSON), or bytes still to come

    def more(self, raw: bytes) -> bool:
        """Take the next line; does the row go on after it?"""
        if self.kind == _TD:
            self.state = _td_state(raw, self.state)  # type: ignore[arg-type]
            return self.state is not None
        if self.kind == _JS:
            return _js_state(raw, True)
        left = self.state - len(raw)  # type: ignore[operator]
        if left <= 1:  # the content ends on this line (or with its newline)
            return False
        self.state = left - 1  # the newline is content too
        return True


class _Txn:
    """Records of the open transaction, held until COMMIT so they can carry its details."""

    __slots__ = ("items", "info", "begun")

    def __init__(self, info: dict[str, object], begun: bool = False) -> None:
        self.items: list[list | DdlcError] = []  # [line, offset, payload, kind, meta] or error
        self.info = info
        self.begun = begun  # opened by a BEGIN row (else: lines outside any transaction)


def _flush(txn: _Txn, end: dict[str, object] | None) -> Iterator[Record | DdlcError | TxnMark]:
    """The transaction's records, between its marks (:mod:`.txns`): BEGIN when it had one, then
    COMMIT (its CSN as the commit position) or ABORT when ``end`` is its last row (None: no end yet)."""
    if txn.begun:
        xid = txn.info.get("xid")
        yield TxnMark(BEGIN, xid if isinstance(xid, int) else None)
    end = end or {}
    for item in txn.items:
        if isinstance(item, DdlcError):
            yield item
            continue
        line, offset, payload, kind, meta = item
        for k, v in txn.info.items():
            meta.setdefault(k, v)
        for k, v in end.items():
            if k != "end":
                meta.setdefault(k, v)
        yield Record(line, offset, payload, kind, MappingProxyType(meta))
    if "end" in end:
        xid = end.get("xid", txn.info.get("xid"))
        csn = end.get("csn")
        yield TxnMark(ABORT if end.get("aborted") else COMMIT, xid if isinstance(xid, int) else None,
                      ("csn", csn) if isinstance(csn, int) else None)


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


def iter_text(lines: Iterator[bytes], source: str, skip: SkipFn, dml: Callable[[], None] = no_count
              ) -> Iterator[Record | DdlcError]:
    """The records of decoding text; ``dml`` is called for each DML, BEGIN/COMMIT/ABORT or non-DDL message row."""
    feed = _Lines(lines)
    txn = _Txn({})  # outside any BEGIN: items are flushed line by line
    in_txn = False
    pending: list | bool | None = None  # the last DDL item, until its "decode to" line is seen
    drop_starts: set[int] = set()
    row: _Row | None = None  # a row of data whose end is still to come
    offset = 0
    lineno = 0
    next_line = feed.next
    while (raw := next_line()) is not None:
        lineno += 1
        line_off = offset
        offset += len(raw) + 1
        if row is not None:
            if not row.more(raw):
                row = None
            continue
        c = raw[0] if raw else 0
        if c == 0x74 and raw.startswith(b"table "):  # test_decoding DML row (the common case)
            if b'"' in raw:
                quote = _td_state(raw, None)
            else:  # only '...' literals: an odd count leaves one open (as _td_state finds, faster)
                quote = b"'" if raw.count(b"'") & 1 else None
            if quote is not None:
                row = _Row(_TD, lineno, line_off, quote)
            pending = None
            dml()  # a DML row: counted, never a document
            continue
        line = raw[:-1] if raw.endswith(b"\r") else raw
        expecting = pending
        pending = None
        if not line:
            continue
        doc = f"{source}:{lineno}"
        if c == 0x6D and line.startswith(b"message: "):
            m = _TD_MSG.match(line)
            if m is not None:
                meta = {"format": "test_decoding", "prefix": m[1].decode("utf-8", "replace"),
                        "relid": int(m[2]), "cmdtype": m[3].decode("ascii"), "size": int(m[4])}
                pending = _message(line[m.end():], meta, lineno, line_off, m.end(), doc, txn,
                                   drop_starts)
            elif (m := _LOGICAL.match(line)) is not None:  # pg_logical_emit_message: not DDL
                dml()
                left = int(m[1]) - (len(raw) - m.end())  # its content: sz bytes, newlines too
                if left > 1:
                    row = _Row(_BYTES, lineno, line_off, left - 1)
            else:
                txn.items.append(err("malformed DDL message line: cannot read its header", doc,
                                     line_off))
        elif c == 0x70 and line.startswith(b"prefix: "):
            m = _MP_MSG.match(line)
            if m is None:
                txn.items.append(err("malformed DDL message line: cannot read its header", doc,
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
        elif c == 0x7B:  # '{': cJSON DML row, or GaussDB serial DDL row {"TDDL": ...} / {"JDDL": ...}
            is_ddl = False if line.startswith(b'{"table_name"') else json_ddl(line)
            if is_ddl is False and b'"op_type"' in line:
                dml()
                if _js_state(line, False):  # a printer that left a newline in a value
                    row = _Row(_JS, lineno, line_off, True)
            elif is_ddl:  # (a broken DDL row still starts with {"JDDL" / {"TDDL")
                text = decode(line, doc, line_off)
                if isinstance(text, DdlcError):
                    txn.items.append(text)
                else:
                    item = [lineno, line_off, text, "json", {"format": "mppdb_decoding"}]
                    txn.items.append(item)
                    pending = item
            else:
                _unknown(line, lineno, line_off, source, txn, skip)
        elif c == 0x42 and (m := _BEGIN.match(line)):
            yield from _flush(txn, None)
            info: dict[str, object] = {}
            if m[1]:
                info["xid"] = int(m[1])
            if m[2]:
                info["origin_id"] = int(m[2])
            txn, in_txn = _Txn(info, True), True
            drop_starts.clear()
            dml()
            continue
        elif c in b"CA" and (m := (_COMMIT if c == 0x43 else _ABORT).match(line)):
            end: dict[str, object] = {"end": True}
            if m[1]:
                end["xid"] = int(m[1])
                if c == 0x41 and in_txn and txn.info.get("xid", end["xid"]) != end["xid"]:
                    dml()
                    continue  # the ABORT of another transaction (a subtransaction): not this one
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
            dml()
            continue
        else:
            _unknown(line, lineno, line_off, source, txn, skip)
        if not in_txn and txn.items and pending is None:
            yield from _flush(txn, None)
            txn = _Txn({})
    if row is not None:
        what = "its content is shorter than its size" if row.kind == _BYTES else "a quoted value is not closed"
        txn.items.append(err(
            f"the row at line {row.line} never ends ({what}): the {lineno - row.line} lines after it "
            "were read as its data", f"{source}:{row.line}", row.offset))
    yield from _flush(txn, None)


def _unknown(line: bytes, lineno: int, line_off: int, source: str, txn: _Txn, skip: SkipFn) -> None:
    """A line that is no row the reader knows: an error when it looks like DDL, else skipped."""
    if _DAMAGED.search(line):
        txn.items.append(err(
            f"line {lineno} looks like a DDL message but does not start like one (its head is "
            f"damaged): {excerpt(line)}", f"{source}:{lineno}", line_off))
    else:
        skip(Skipped(source, lineno, line_off, excerpt(line)))


def _message(content: bytes, meta: dict[str, object], lineno: int, line_off: int, content_at: int,
             doc: str, txn: _Txn, drop_starts: set[int]) -> list | bool | None:
    """Handle one DDL message line; returns what a following "decode to" line belongs to."""
    relid = meta["relid"]
    if content[:1] != b"{":
        if content.startswith(b"Drop ") and content.endswith(b" command start"):
            drop_starts.add(relid)  # type: ignore[arg-type]
            return True  # test_decoding may still print a "decode to" line after it
        txn.items.append(err("DDL message content is neither JSON nor a DROP start message", doc,
                             line_off + content_at))
        return None
    size = meta["size"]
    if len(content) + 1 != size:
        txn.items.append(err(
            f"DDL message content is {len(content)} bytes but its header says {size} - 1: "
            "the line is truncated or was altered", doc, line_off))
        return True
    text = decode(content, doc, line_off + content_at)
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
    if not isinstance(expecting, list) or not _escaped_newlines(expecting[2]):
        # the message's JSON holds no newline escape: nor does its expansion, one line
        found = _owner_at(first)
        if found is not None:
            return 0, found[1], _text(first[start:found[0]])
        return 0, None, _text(first[start:])
    n = _newlines(expecting[2])
    if n is not None:  # exactly n more lines (or the input ends first)
        rows = [first]
        for j in range(n):
            nxt = feed.peek(j)
            if nxt is None:
                break
            rows.append(nxt[:-1] if nxt.endswith(b"\r") else nxt)
        body = b"\n".join(rows)
        found = _owner_at(body)
        if found is not None:
            return len(rows) - 1, found[1], _text(body[start:found[0]])
    # not expandable (the document will fail anyway): the first owner suffix within reach
    for j in range(_escaped_newlines(expecting[2])):
        nxt = feed.peek(j)
        if nxt is None:
            break
        if nxt.endswith(b"\r"):
            nxt = nxt[:-1]
        found = _owner_at(nxt)
        if found is not None:
            body = b"\n".join([first[start:], *(feed.peek(k) for k in range(j)), nxt[:found[0]]])
            return j + 1, found[1], _text(body.replace(b"\r\n", b"\n"))
    found = _owner_at(first)
    if found is not None:
        return 0, found[1], _text(first[start:found[0]])
    return 0, None, _text(first[start:])


def _escaped_newlines(payload: str) -> int:
    """An upper bound of the newlines in the strings of a JSON text (``\\n`` and ``\\u000a``)."""
    n = payload.count("\\n")
    if "\\u000" in payload:
        n += payload.count("\\u000a") + payload.count("\\u000A")
    return n


def _newlines(payload: str) -> int | None:
    """How many newlines the server's "decode to" row for this message holds (None: unknown)."""
    try:
        tree = orjson.loads(payload)
        if not isinstance(tree, dict):
            return None
        text = expand(tree)
    except (orjson.JSONDecodeError, DdlcError, RecursionError):
        return None
    return text.count("\n") + (owner_of(tree) or "").count("\n")


def _owner_at(line: bytes) -> tuple[int, str] | None:
    if not line.endswith(b"]"):
        return None
    k = line.rfind(_OWNER_MARK)
    if k < 0:
        return None
    return k, line[k + len(_OWNER_MARK):-1].decode("utf-8", "replace")


def _text(raw: bytes) -> str:
    return raw.decode("utf-8", "replace")


def message_row(line: bytes, doc: str, position: int) -> tuple[str, dict[str, object]] | DdlcError | None | bool:
    """One decoding message printed as a row of its own (the ``data`` column of a rows file):
    ``(payload, meta)`` for a DDL message, None for a message that is no DDL (a logical message, a
    DROP start message), an error for a damaged one, False when the line is no message row."""
    m = _TD_MSG.match(line)
    if m is not None:
        meta: dict[str, object] = {"format": "test_decoding", "prefix": m[1].decode("utf-8", "replace"),
                                   "relid": int(m[2]), "cmdtype": m[3].decode("ascii"), "size": int(m[4])}
    elif (m := _MP_MSG.match(line)) is not None:
        meta = {"format": "mppdb_decoding", "prefix": m[1].decode("utf-8", "replace"), "lsn": int(m[2]),
                "relid": int(m[3]), "cmdtype": m[4].decode("ascii"), "size": int(m[5])}
    elif _LOGICAL.match(line) is not None:
        return None
    else:
        return err("malformed DDL message row: cannot read its header", doc, position) \
            if _DAMAGED.search(line) else False
    content = line[m.end():].rstrip(b"\r\n")
    if content[:1] != b"{":
        if content.startswith(b"Drop ") and content.endswith(b" command start"):
            return None
        return err("DDL message content is neither JSON nor a DROP start message", doc, position + m.end())
    if len(content) + 1 != meta["size"]:
        return err(f"DDL message content is {len(content)} bytes but its header says {meta['size']} - 1: "
                   "the row is truncated or was altered", doc, position)
    text = decode(content, doc, position + m.end())
    return text if isinstance(text, DdlcError) else (text, meta)
