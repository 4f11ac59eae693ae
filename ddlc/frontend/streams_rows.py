"""Rows of the decoding functions, saved as JSON lines or CSV.

``pg_logical_slot_peek_changes`` / ``pg_logical_slot_get_changes`` / ``pg_logical_get_area_changes``
return rows ``(location, xid, data)``; users save them with ``\\copy (...) TO 'f.csv' CSV HEADER``
or as JSON lines (``row_to_json``). The LSN column is ``location`` (openGauss, GaussDB) or ``lsn``
(PostgreSQL 10+), written ``X/Y`` in hexadecimal (an integer is taken too). Each row's ``data`` is
one decoding message:

* ``{"JDDL": tree}``, ``{"TDDL": "text"}`` (or a bare tree with ``"fmt"``): a DDL document, which
  carries the row's LSN, xid and position (:class:`RowInfo`);
* ``BEGIN ...``, ``COMMIT ...``, a DML row (``table s.t: INSERT: ...``, a JSON DML object): counted
  by the ``dml`` callback, never a document: only a row's own data column is a message, so a value
  inside a DML row that looks like DDL is never taken for one;
* anything else goes to the ``skip`` callback (counted as not recognised).

A row that cannot be read (broken JSON line, missing column, bad LSN, a DDL envelope that is not
JSON) is an error document of its own; reading goes on with the next row.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import orjson

from ..records import record
from ..diagnostics import E_INPUT, E_JSON
from ..errors import DdlcError
from .streams_base import Skipped, SkipFn, excerpt
from .streams_io import ByteSource
from .txns import ABORT, BEGIN, COMMIT, TxnMark
from .. import lazyre

__all__ = ["RowInfo", "parse_lsn", "format_lsn", "rows_kind", "iter_rows"]

LSN_COLUMNS = ("location", "lsn")
_LSN = lazyre.compile(r"\s*([0-9A-Fa-f]{1,8})/([0-9A-Fa-f]{1,8})\s*\Z")
_TXN = lazyre.compile(r"(?:BEGIN|COMMIT|ABORT)(?:\s|\Z)")
_DML = lazyre.compile(r"table \S.*: (?:INSERT|UPDATE|DELETE|TRUNCATE):")
_DDL_KEYS = ("JDDL", "TDDL", "fmt")


@record(frozen=True, slots=True)
class RowInfo:
    """Where a DDL row came from: its LSN (64-bit integer), xid and 1-based line."""

    lsn: int | None
    xid: int | None
    line: int


def parse_lsn(v: Any) -> int | None:
    """``"0/16B3748"`` (or an integer) as a 64-bit integer; None when it is no LSN."""
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v if 0 <= v < 1 << 64 else None
    if isinstance(v, str):
        m = _LSN.match(v)
        if m:
            return int(m[1], 16) << 32 | int(m[2], 16)
        if v.strip().isdigit() and v.isascii():  # ("²" is a digit int() refuses)
            return parse_lsn(int(v))
    return None


def format_lsn(v: int) -> str:
    """An LSN as the server prints it: ``16/B374D848``."""
    return f"{v >> 32:X}/{v & 0xFFFFFFFF:X}"


def _xid(v: Any) -> int | None | bool:
    """The xid as an integer, None when absent/empty, False when it is not one."""
    if v is None or v == "":
        return None
    if isinstance(v, int) and not isinstance(v, bool) and v >= 0:
        return v
    if isinstance(v, str) and v.strip().isdigit() and v.isascii():
        return int(v)
    return False


def rows_kind(first_line: bytes) -> str | None:
    """``"rows_json"`` / ``"rows_csv"`` when the input's first line starts a rows file, else None."""
    line = first_line.strip()
    if b"data" not in line.lower():
        return None
    if line.startswith(b"{"):
        try:
            value = orjson.loads(line)
        except orjson.JSONDecodeError:
            return None
        if isinstance(value, dict) and "data" in value and any(k in value for k in LSN_COLUMNS):
            return "rows_json"
        return None
    import csv  # (lazily: start-up)

    try:
        header = next(csv.reader([line.decode("utf-8")]))
    except (UnicodeDecodeError, csv.Error, StopIteration):
        return None
    names = [h.strip().lower() for h in header]
    if "data" in names and any(k in names for k in LSN_COLUMNS) and len(set(names)) == len(names):
        return "rows_csv"
    return None


def iter_rows(src: ByteSource, source: str, kind: str, skip: SkipFn, dml: Callable[[], None],
              row: Callable[[int], None] = lambda n: None, line: int = 1, offset: int = 0,
              dml_rows: Callable[[int], None] | None = None) -> Iterator[tuple[RowInfo, Any] | DdlcError]:
    """The DDL rows of a rows file as ``(RowInfo, parsed JSON value)``, and errors in place.

    ``row(n)`` is told of the rows read (blank lines aside), counted before they are looked at.
    ``dml_rows(n)`` (default: ``dml`` n times) of DML and BEGIN/COMMIT rows the JSON lines reader
    passed over on its fast path. ``line`` and ``offset``: where ``src`` starts in the file it is a
    piece of (JSON lines rows only)."""
    txn = _TxnRows()
    if kind == "rows_json":
        fast = _Fast(row, dml_rows or (lambda n: [dml() for _ in range(n)]), txn)
        rows = _json_rows(src, source, line, offset, fast)
    elif (line, offset) == (1, 0):
        rows = _csv_rows(src, source)
    else:
        raise ValueError("a CSV rows file is read whole (a quoted value may hold newlines)")
    for item in rows:
        row(1)
        if isinstance(item, DdlcError):
            yield item
            continue
        line, offset, lsn, xid, data = item
        if isinstance(data, str) and data.startswith(_TXN_HEADS) and _TXN.match(data):
            dml()
            mark = txn.row(data[0], lsn, xid)
            if mark is not None:
                yield mark
            continue
        label = f"{source}:{line}"
        info = RowInfo(lsn, xid, line)
        if isinstance(data, dict):
            got = _message(data, info, dml)
        elif isinstance(data, str):
            got = _text_message(data, info, label, offset, skip, source, dml)
        else:
            got = DdlcError(f'row {line}: "data" must be a string, not {type(data).__name__}', code=E_INPUT,
                            document=label)
        if got is not None:
            if txn.begun and not txn.docs:  # the first DDL of a transaction: its BEGIN mark first
                txn.docs = txn.want_commit = True
                yield TxnMark(BEGIN, txn.xid)
            yield got
    if txn.begun and not txn.docs:  # the input ends inside a transaction: its DDL may be in the next one
        yield TxnMark(BEGIN, txn.xid)


def _message(value: dict, info: RowInfo, dml: Callable[[], None]) -> tuple[RowInfo, Any] | None:
    if any(k in value for k in _DDL_KEYS):
        return info, value
    dml()  # a JSON DML row (mppdb_decoding, GaussDB JSON decoding)
    return None


def _text_message(data: str, info: RowInfo, label: str, offset: int, skip: SkipFn, source: str,
                  dml: Callable[[], None]) -> tuple[RowInfo, Any] | DdlcError | None:
    text = data.lstrip()
    if text.startswith("{"):
        try:
            value = orjson.loads(text.encode("utf-8", "surrogatepass"))
        except orjson.JSONDecodeError as exc:
            if text[1:].lstrip().startswith(tuple(f'"{k}"' for k in _DDL_KEYS)):
                return DdlcError(f"malformed JSON in the data column: {exc}", code=E_JSON, document=label)
            skip(Skipped(source, info.line, offset, excerpt(data)))
            return None
        if isinstance(value, dict):
            if any(k in value for k in _DDL_KEYS):
                return info, text  # parsed again by the document reader (exact numbers, checks)
            dml()
            return None
    if _TXN.match(text) or _DML.match(text) or text.startswith("decode to"):
        dml()  # ("decode to": the SQL a message row expands to, printed by test_decoding after it)
        return None
    if text.startswith(("message: ", "prefix: ")):
        from .streams_text import message_row

        got = message_row(text.encode("utf-8", "surrogateescape"), label, offset)
        if isinstance(got, DdlcError):
            return got
        if got is None:  # a logical message or a DROP start message: no DDL document
            dml()
            return None
        if got is not False:
            payload, meta = got
            lsn = meta.get("lsn")
            return RowInfo(info.lsn if info.lsn is not None else lsn, info.xid, info.line), payload
    skip(Skipped(source, info.line, offset, excerpt(data)))
    return None


def _columns(row: dict, label: str, line: int) -> tuple[int | None, int | None, Any] | DdlcError:
    key = next((k for k in LSN_COLUMNS if k in row), None)
    if key is None or "data" not in row:
        return DdlcError(f"row {line}: expected the columns location (or lsn), xid and data", code=E_INPUT,
                         document=label)
    lsn = parse_lsn(row[key])
    if lsn is None and row[key] not in (None, ""):
        return DdlcError(f"row {line}: {key} {row[key]!r} is not an LSN (X/Y)", code=E_INPUT, document=label)
    xid = _xid(row.get("xid"))
    if xid is False:
        return DdlcError(f"row {line}: xid {row.get('xid')!r} is not a transaction id", code=E_INPUT,
                         document=label)
    return lsn, xid, row["data"]  # type: ignore[return-value]


class _TxnRows:
    """The transaction framing of a rows file, told to :mod:`.txns` as marks, lazily: a BEGIN mark
    only before a transaction's first DDL row or at the end of the input (or piece) inside it, a COMMIT (with the COMMIT row's LSN, the commit LSN) or
    ABORT mark only for a transaction that had one, or for the first of the input (it may end a
    transaction an earlier batch began). A DML-only transaction costs no mark."""

    __slots__ = ("begun", "xid", "docs", "want_commit")

    def __init__(self) -> None:
        self.begun = False  # inside a BEGIN ... COMMIT
        self.xid: int | None = None
        self.docs = False  # a BEGIN mark was handed out for it (it has DDL)
        self.want_commit = True  # the next COMMIT/ABORT row is told (the first one of the input always is)

    def row(self, head: str, lsn: int | None, xid: int | None) -> TxnMark | None:
        if head == "B":
            self.begun, self.xid, self.docs = True, xid, False
            return None
        told = self.want_commit
        kind = COMMIT if head == "C" else ABORT
        self.begun = self.docs = self.want_commit = False
        if not told:
            return None
        return TxnMark(kind, xid if xid is not None else self.xid,
                       ("lsn", lsn) if lsn is not None and kind == COMMIT else None)


class _Fast:
    """What the JSON lines reader passed over without a word: DML and BEGIN/COMMIT rows whose columns
    are well formed, counted here and told to the callbacks in bulk (every 4096 rows and at the end).
    A BEGIN row is noted (``txn``); a COMMIT row the framing must tell takes the slow path."""

    __slots__ = ("n", "row", "dml", "txn")

    def __init__(self, row: Callable[[int], None], dml: Callable[[int], None], txn: _TxnRows) -> None:
        self.n, self.row, self.dml, self.txn = 0, row, dml, txn

    def flush(self) -> None:
        if self.n:
            self.row(self.n)
            self.dml(self.n)
            self.n = 0


_TXN_HEADS = ("BEGIN", "COMMIT", "ABORT")
_DML_OPS = (": INSERT:", ": UPDATE:", ": DELETE:", ": TRUNCATE:")


def is_dml_text(text: str) -> bool:
    """``_TXN.match(text) or _DML.match(text)``, without regular expressions (the common row's test)."""
    if text.startswith(_TXN_HEADS):
        k = 5 if text[0] in "BA" else 6
        return len(text) == k or text[k].isspace()
    if not text.startswith("table ") or len(text) < 8 or text[6].isspace():
        return False
    nl = text.find("\n", 7)
    first = text if nl < 0 else text[:nl]  # "." stops at a newline
    return any(first.find(op, 7) >= 0 for op in _DML_OPS)


def _plain_row(row: dict) -> bool:
    """Are the row's columns what _columns accepts, its data a DML or transaction row (no DDL)?"""
    data = row.get("data")
    if type(data) is not str or not data or data[0].isspace() or not is_dml_text(data):
        return False
    v = row["location"] if "location" in row else row.get("lsn", _MISSING)
    if v is _MISSING or not (v is None or v == "" or (type(v) is str and _LSN.match(v))):
        return False
    x = row.get("xid")
    return x is None or x == "" or (type(x) is int and x >= 0) or (type(x) is str and x.strip().isdigit() and x.isascii())


_MISSING = object()


def _passed(row: dict, txn: _TxnRows) -> bool:
    """May the fast path pass over this plain row? A BEGIN row is noted on the way; a COMMIT/ABORT row
    whose mark is wanted is not passed over."""
    head = row["data"][0]
    if head == "B" and row["data"].startswith("BEGIN"):
        x = _xid(row.get("xid"))
        txn.begun, txn.xid, txn.docs = True, x if x is not False else None, False
        return True
    if head in "CA" and row["data"].startswith(("COMMIT", "ABORT")):
        if txn.want_commit:
            return False
        txn.begun = txn.docs = False
    return True


def _json_rows(src: ByteSource, source: str, line1: int = 1, offset: int = 0, fast: _Fast | None = None
               ) -> Iterator[tuple[int, int, int | None, int | None, Any] | DdlcError]:
    try:
        yield from _json_rows_in(src, source, line1, offset, fast)
    finally:
        if fast is not None:
            fast.flush()


def _json_rows_in(src: ByteSource, source: str, line1: int, offset: int, fast: _Fast | None
                  ) -> Iterator[tuple[int, int, int | None, int | None, Any] | DdlcError]:
    loads = orjson.loads
    for n, line in enumerate(src.lines(0), line1):
        at, offset = offset, offset + len(line) + 1
        if not line or line.isspace():
            continue
        if fast is not None:
            try:
                row = loads(line)
            except orjson.JSONDecodeError:
                pass
            else:
                if type(row) is dict and _plain_row(row) and _passed(row, fast.txn):
                    fast.n += 1
                    if fast.n >= 4096:
                        fast.flush()
                    continue
            fast.flush()  # the counts stay in the order of the rows
        label = f"{source}:{n}"
        try:
            row = loads(line)
        except orjson.JSONDecodeError as exc:
            yield DdlcError(f"malformed JSON row: {exc}", code=E_JSON, document=label, position=at)
            continue
        if not isinstance(row, dict):
            yield DdlcError(f"row {n}: expected a JSON object", code=E_INPUT, document=label, position=at)
            continue
        cols = _columns(row, label, n)
        if isinstance(cols, DdlcError):
            yield cols
            continue
        yield (n, at, *cols)


def _csv_rows(src: ByteSource, source: str) -> Iterator[tuple[int, int, int | None, int | None, Any] | DdlcError]:
    import csv

    lines = src.lines(0)
    text = (line.decode("utf-8", "surrogateescape") + "\n" for line in lines)
    reader = csv.reader(text)
    try:
        header = [h.strip().lower() for h in next(reader)]
    except (StopIteration, csv.Error):
        return
    start = reader.line_num + 1
    while True:
        try:
            values = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            label = f"{source}:{start}"
            yield DdlcError(f"malformed CSV row: {exc}", code=E_INPUT, document=label)
            start = reader.line_num + 1
            continue
        line, start = start, reader.line_num + 1
        if not values or values == [""]:
            continue
        label = f"{source}:{line}"
        if len(values) != len(header):
            yield DdlcError(f"row {line}: {len(values)} fields, the header has {len(header)}", code=E_INPUT,
                            document=label)
            continue
        row = dict(zip(header, values, strict=True))
        data = row.get("data")
        if isinstance(data, str) and "\udc80" <= max(data, default="\0") and _bad_utf8(data):
            yield DdlcError(f"row {line}: the data column is not valid UTF-8", code=E_INPUT, document=label)
            continue
        cols = _columns(row, label, line)
        if isinstance(cols, DdlcError):
            yield cols
            continue
        yield (line, 0, *cols)


def _bad_utf8(s: str) -> bool:
    return any(0xDC80 <= ord(c) <= 0xDCFF for c in s)
