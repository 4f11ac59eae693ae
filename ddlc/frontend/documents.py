"""Read documents from any input form, detected automatically.

Accepted forms: a single JSON document, a JSON array of documents, JSON lines (one document per
line), and real logical-decoding output (test_decoding / mppdb_decoding text, GaussDB parallel
batch framing; see :mod:`ddlc.frontend.streams`). A document is a bare JDDL tree
(``{"fmt": ...}``), a ``{"JDDL": tree}`` envelope or a ``{"TDDL": "text"}`` envelope.

A bad document becomes a :class:`Document` carrying its error; the others are never lost. What is
not JSON (``NaN``, invalid UTF-8, reported at its byte) and a string no target can write (NUL, a lone
surrogate; reported with its JSON path) fail their own document only. The readers return a
:class:`DocumentStream`, which also counts the lines of decoding output that were of no known kind.

Inputs are streamed (:func:`read_inputs`, :func:`read_source`): each document is yielded as soon
as it is complete and memory stays flat whatever the input's size. JSON lines and decoding text
are read a line at a time (a decoding transaction is held until its COMMIT), batch framing a frame
at a time; the form is told from the first line, or the first decoding row within 1 MiB. A first
non-blank line that is not a whole JSON value makes the input one JSON value (a pretty-printed
document): a syntax error in it is one error at its line and column (:func:`.jsonload.whole_value`).
A single JSON document or JSON array is one value and is read whole: it takes about 3 to 10 times its
size in memory (100 MB of small documents in one array: about 1 GB), so large inputs should be JSON
lines.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
import itertools
from typing import TYPE_CHECKING, Any

import msgspec
import orjson

from ..records import Struct, sealed
from ..diagnostics import E_INPUT, E_JSON, E_SHAPE
from ..errors import DdlcError
from .jsonload import InputError, loads, text_error
from .jsonload import load as _load
from .jsonload import _DECODE, _load_exact  # (load's two routes: as_document takes the first without a frame)
from .jsonload import NOT_ONE, Broken, whole_value
from .streams_io import ByteSource
from .txns import Position, TxnMark, Txns

__all__ = ["Document", "DocumentStream", "InputError", "loads", "text_error", "classify", "read_documents",
           "read_source", "read_inputs", "as_document", "FORMS"]

if TYPE_CHECKING:  # pragma: no cover
    from .streams_base import Skipped

_EMPTY: Mapping[str, object] = {}
_SHARED_EMPTY = itertools.repeat(_EMPTY).__next__  # (the one empty mapping every document shares, made in C)
_replace = msgspec.structs.replace


@sealed
class Document(Struct, frozen=True):
    """One input document: a JDDL tree, a TDDL text or its error, where it came from (made once per document: a
    record made in C, :class:`ddlc.records.Struct`)."""

    index: int  # position in the whole run, 0-based
    source: str  # file name, "<stdin>" or "<input>"
    label: str  # "file.jsonl:12", "file.json[3]", "file.json"
    line: int = 1  # 1-based line where the document starts
    tree: dict[str, Any] | None = None  # the JDDL tree (envelope removed)
    tddl: str | None = None  # TDDL text
    error: DdlcError | None = None
    meta: Mapping[str, object] = msgspec.field(default_factory=_SHARED_EMPTY)
    lsn: int | None = None  # the record's LSN (64-bit; decoding output and rows files), when the input has one
    xid: int | None = None  # its transaction id, when the input has one
    # (commit position of its transaction, position in it): decided by .txns.Txns, None when unknown
    position: Position | None = None


def classify(value: Any, *, index: int, source: str, label: str, line: int = 1,
             meta: Mapping[str, object] = _EMPTY, check: bool = True) -> Document:
    """Turn one parsed JSON value into a Document (tree, TDDL text, or error).

    ``check``: look for NUL and lone surrogates in its strings (the readers pass False when the
    bytes they parsed could hold neither)."""
    if check and (bad := text_error(value)) is not None:
        return Document(index, source, label, line, error=bad.with_document(label), meta=meta)
    if isinstance(value, dict):
        if "fmt" in value:
            return Document(index, source, label, line, tree=value, meta=meta)
        if "JDDL" in value:
            tree = value["JDDL"]
            if isinstance(tree, dict):
                return Document(index, source, label, line, tree=tree, meta=meta)
            err = DdlcError('"JDDL" must hold a JSON object (the tree)', code=E_SHAPE,
                            path=("JDDL",), document=label)
            return Document(index, source, label, line, error=err, meta=meta)
        if "TDDL" in value:
            text = value["TDDL"]
            if isinstance(text, str):
                return Document(index, source, label, line, tddl=text, meta=meta)
            err = DdlcError('"TDDL" must hold a string (the DDL text)', code=E_SHAPE,
                            path=("TDDL",), document=label)
            return Document(index, source, label, line, error=err, meta=meta)
        # the server's own words for an object without "fmt"
        msg = 'missing element "fmt" in JSON object'
    else:
        msg = f"not a JDDL document: expected a JSON object, got {_json_kind(value)}"
    return Document(index, source, label, line, error=DdlcError(msg, code=E_SHAPE, document=label),
                    meta=meta)


def _json_kind(v: Any) -> str:
    if isinstance(v, list):
        return "an array"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, bool):
        return "a boolean"
    if v is None:
        return "null"
    return "a number"


def _json_error(exc: Exception, label: str, offset: int = 0) -> DdlcError:
    msg = str(exc)
    if isinstance(exc, InputError):
        offset = exc.pos
        if msg.startswith("invalid UTF-8"):
            return DdlcError(msg, code=E_JSON, document=label, position=offset)
    return DdlcError(f"malformed JSON: {msg}", code=E_JSON, document=label, position=offset)


class DocumentStream(Iterator["Document"]):
    """The documents of one or more inputs, one at a time, and what the readers could not place.

    ``unrecognised`` counts the lines (or batch frames) of decoding output that are neither a row
    the reader knows nor part of one; the first :attr:`KEEP` of them are in ``skipped`` (each a
    :class:`~ddlc.frontend.streams_base.Skipped`: source, line, byte offset, escaped excerpt), and
    ``on_skip`` is called with every one as it is met. (A line that looks like DDL but cannot be
    read is not skipped: it is an error document.) To translate and still see them::

        docs = read_documents(data)
        results = list(ddlc.translate_many(docs, target="postgres"))
        docs.unrecognised, docs.skipped
    """

    KEEP = 100
    __slots__ = ("_it", "unrecognised", "skipped", "_on_skip", "dml", "rolled_back", "documents", "rows", "empty",
                 "txns", "_next")

    def __init__(self, make: Callable[[Callable[[Skipped], None]], Iterator[Document]],
                 on_skip: Callable[[Skipped], None] | None = None, txns: Txns | None = None,
                 start: int = 0) -> None:
        self.unrecognised = 0
        # rows that are DML, BEGIN/COMMIT/ABORT or a message that is no DDL (not documents, not unrecognised)
        self.dml = 0
        self.rolled_back = 0  # DDL messages of a transaction that ended in ABORT: they never happened
        self.documents = 0  # documents handed out (DDL and input errors)
        self.rows = 0  # rows of a rows file read, counted as read (blank lines aside)
        self.empty: list[str] = []  # the inputs that held nothing at all (no document, row or line)
        self.skipped: list[Skipped] = []
        self._on_skip = on_skip
        # transactions: documents held until their COMMIT and positioned (.txns: the one place)
        self.txns = txns if txns is not None else Txns()
        if self.txns.dropped is None:
            self.txns.dropped = lambda: self._skip(ROLLED_BACK)  # type: ignore[arg-type]
        self._it = self.txns.feed(make(self._skip))
        self._next = start

    @property
    def records(self) -> int:
        """The records read: rows of a rows file as counted when read; for the other forms, the
        documents, DML/transaction rows, rolled-back messages and unrecognised lines together."""
        return self.rows or (self.documents + self.dml + self.rolled_back + self.unrecognised)

    def __iter__(self) -> DocumentStream:
        return self

    def __next__(self) -> Document:
        doc = next(self._it)
        if type(doc) is TxnMark:  # (only when its Txns records, for the pipeline's driver)
            return doc  # type: ignore[return-value]
        self.documents += 1
        if doc.index != self._next:  # a transaction an earlier batch began (held in the state)
            doc = _replace(doc, index=self._next)
        self._next += 1
        return doc

    def _skip(self, item: Skipped | None | int | tuple[int | None, int]) -> None:
        """What a reader tells: a Skipped line; None: a DML or transaction row; ROLLED_BACK; or
        ``(ROW, n)`` / ``(None, n)``: n rows read / n DML rows, told in bulk."""
        if item is None:  # a DML or transaction row: counted, not a document
            self.dml += 1
            return
        if item is ROLLED_BACK:
            self.rolled_back += 1
            return
        if type(item) is tuple:
            what, n = item
            if what is EMPTY:
                self.empty.append(n)
                return
            if what is ROW:
                self.rows += n
            else:
                self.dml += n
            return
        assert not isinstance(item, int)
        self.unrecognised += 1
        if len(self.skipped) < self.KEEP:
            self.skipped.append(item)
        if self._on_skip is not None:
            self._on_skip(item)


def read_documents(data: bytes | str, source: str = "<input>", *, start: int = 0,
                   on_skip: Callable[[Skipped], None] | None = None, txns: Txns | None = None) -> DocumentStream:
    """The documents of one input held in memory, in order; ``start`` is the index of the first;
    ``txns``: the run's transactions (:class:`.txns.Txns`: one a state continues)."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    return read_source(ByteSource(bytes(data)), source, start=start, on_skip=on_skip, txns=txns)


# --input-format: auto (told from the input), or one form forced. "rows_json"/"rows_csv" and "jsonl"
# (JSON lines, each line on its own) are the exact forms the pipeline gives a piece of a file
FORMS = ("auto", "rows", "decoding", "batch", "json")
_EXACT_FORMS = ("rows_json", "rows_csv", "jsonl")
ROLLED_BACK, ROW, EMPTY = 1, 2, 3  # what a reader tells DocumentStream besides Skipped / None (a DML row)


def read_source(src: ByteSource, source: str, *, start: int = 0,
                on_skip: Callable[[Skipped], None] | None = None, form: str = "auto",
                line: int = 1, offset: int = 0, txns: Txns | None = None) -> DocumentStream:
    """The documents of one input read on demand, each as soon as it is complete.

    See the module's docstring: JSON lines, decoding text and batch framing stream; a single
    JSON document or array is read whole. ``form`` forces one input form (:data:`FORMS`) instead
    of telling it from the input. ``line``/``offset``: the line number and byte offset of the first
    byte of ``src`` in the file it is a piece of (the forms ``rows_json`` and ``jsonl`` only).
    """
    if form not in FORMS and form not in _EXACT_FORMS:
        raise ValueError(f"input format must be one of {', '.join(FORMS)}, not {form!r}")
    if (line, offset) != (1, 0) and form not in ("rows_json", "jsonl"):
        raise ValueError("a piece of a file (line/offset) is read only in the forms rows_json and jsonl")
    return DocumentStream(lambda skip: _read_source(src, source, start, skip, form, line, offset), on_skip,
                          txns, start)


def _forced(src: ByteSource, source: str, index: int, skip: Callable[[Skipped], None], form: str,
            line: int, offset: int) -> Iterator[Document]:
    at = src.skip_space(0)
    if form in ("rows", "rows_json", "rows_csv"):
        kind = form
        if form == "rows":
            from .streams_rows import rows_kind

            first = b"" if at is None else src.get(at, src.line_end(at))
            kind = rows_kind(first) or ("rows_json" if first.lstrip().startswith(b"{") else "rows_csv")
        yield from _rows(src, source, index, kind, skip, line, offset)
    elif form == "jsonl":
        yield from _json_lines(src, source, index, line)
    elif form == "json":
        yield from _value_or_lines(src, source, index, NOT_ONE if at is None else whole_value(src, at))
    else:
        from . import streams

        src.skip_bom()
        kind = "parallel_batch" if form == "batch" else "decoding_text"
        yield from _decoded(streams.forced_records(src, source, kind, skip, lambda: skip(None)), source, index, skip)  # type: ignore[arg-type]


def _read_source(src: ByteSource, source: str, start: int,
                 skip: Callable[[Skipped], None], form: str = "auto", line: int = 1,
                 offset: int = 0) -> Iterator[Document]:
    src.skip_bom()
    index = start
    if form != "auto":
        yield from _forced(src, source, index, skip, form, line, offset)
        return
    at = src.skip_space(0)
    head = b"" if at is None else src.get(at, at + 1)
    whole: Any = NOT_ONE
    if head == b"{" or head.lower() in (b"l", b"x", b"d", b'"'):  # maybe a rows file: its first line tells
        from .streams_rows import rows_kind

        kind = rows_kind(src.get(at, src.line_end(at)))  # type: ignore[arg-type]
        if kind is not None:
            yield from _rows(src, source, index, kind, skip)
            return
    if head in (b"{", b"["):
        whole = whole_value(src, at)  # type: ignore[arg-type]
    if (whole is NOT_ONE or type(whole) is Broken) and head != b"":
        from . import streams  # decoding output: only imported when needed

        bom = src.skip_bom()  # a second one: the decoding readers skip it too
        records = streams.stream_records(src, source, skip, lambda: skip(None))  # type: ignore[arg-type]
        if records is not None:
            yield from _decoded(records, source, index, skip)
            return
        if bom:
            src.shift(-3)
        if head not in (b"{", b"["):  # no decoding output: JSON after all (a first line that is no JSON: one error)
            whole = whole_value(src, at)  # type: ignore[arg-type]
    yield from _value_or_lines(src, source, index, whole)


def _value_or_lines(src: ByteSource, source: str, index: int, whole: Any) -> Iterator[Document]:
    """What :func:`.jsonload.whole_value` told: one value, one value that does not parse (one error, at its line
    and column), or JSON lines."""
    if type(whole) is Broken:
        yield Document(index, source, source, 1, error=_json_error(whole.error, source, whole.error.pos))
    elif whole is not NOT_ONE:
        yield from _one_value(whole, source, index)
    else:
        yield from _json_lines(src, source, index)


def _one_value(whole: Any, source: str, index: int) -> Iterator[Document]:
    value, suspect = whole
    if isinstance(value, list):
        for i, item in enumerate(value):
            yield classify(item, index=index, source=source, label=f"{source}[{i}]", check=suspect)
            index += 1
    else:
        yield classify(value, index=index, source=source, label=source, check=suspect)


def _decoded(records: Iterator[Any], source: str, index: int, skip: Callable[[Skipped], None]
             ) -> Iterator[Document]:
    """The documents of decoding output's records (a rolled-back transaction's DDL counted, not kept)."""
    for rec in records:
        if type(rec) is TxnMark:
            yield rec  # type: ignore[misc]  # (folded by DocumentStream: .txns)
            continue
        if isinstance(rec, DdlcError):
            label = rec.document or source
            line = label.rpartition(":")[2]
            yield Document(index, source, label, int(line) if line.isdigit() else 1, error=rec)
        elif rec.meta.get("aborted"):
            skip(ROLLED_BACK)  # type: ignore[arg-type]  # the transaction rolled back: its DDL never happened
            continue
        else:
            label = f"{source}:{rec.line}" if rec.line else f"{source}@{rec.offset}"
            doc = _from_payload(rec.payload, rec.kind, index, source, label, rec.line, rec.meta)
            lsn, xid = rec.meta.get("lsn"), rec.meta.get("xid")
            if isinstance(lsn, int) or isinstance(xid, int):
                doc = _replace(doc, lsn=lsn if isinstance(lsn, int) else None,
                              xid=xid if isinstance(xid, int) else None)
            yield doc
        index += 1


def _rows(src: ByteSource, source: str, index: int, kind: str,
          skip: Callable[[Skipped | None], None], line: int = 1, offset: int = 0) -> Iterator[Document]:
    """The DDL documents of a rows file (:mod:`.streams_rows`), each with its row's LSN and xid."""
    from .streams_rows import iter_rows

    def rows(n: int) -> None:
        skip((ROW, n))  # type: ignore[arg-type]

    def dml_rows(n: int) -> None:
        skip((None, n))  # type: ignore[arg-type]

    for item in iter_rows(src, source, kind, skip, lambda: skip(None), rows, line, offset, dml_rows):  # type: ignore[arg-type]
        if type(item) is TxnMark:
            yield item  # type: ignore[misc]
            continue
        if isinstance(item, DdlcError):
            label = item.document or source
            line = label.rpartition(":")[2]
            yield Document(index, source, label, int(line) if line.isdigit() else 1, error=item)
        else:
            info, value = item
            label = f"{source}:{info.line}"
            meta = {"format": kind, "line": info.line}
            if isinstance(value, str):
                doc = _from_payload(value, "json", index, source, label, info.line, meta)
            else:
                doc = classify(value, index=index, source=source, label=label, line=info.line, meta=meta)
            yield _replace(doc, lsn=info.lsn, xid=info.xid)
        index += 1


def _json_lines(src: ByteSource, source: str, index: int, line1: int = 1) -> Iterator[Document]:
    """JSON lines: one document per line (the input's first line, or the piece's, line ``line1``), each broken
    line reported on its own. (An input whose first non-blank line is not a whole JSON value is one document:
    :func:`.jsonload.whole_value`.)"""
    lineno = line1 - 1
    for line in src.lines(0):
        lineno += 1
        if not line.strip():
            continue
        label = f"{source}:{lineno}"
        try:
            value, suspect = _load(line)
        except orjson.JSONDecodeError as exc:
            yield Document(index, source, label, lineno, error=_json_error(exc, label))
        else:
            yield classify(value, index=index, source=source, label=label, line=lineno, check=suspect)
        index += 1


def _from_payload(payload: str, kind: str, index: int, source: str, label: str, line: int,
                  meta: Mapping[str, object]) -> Document:
    if kind == "text":
        return Document(index, source, label, line, tddl=payload, meta=meta)
    try:
        value, suspect = _load(payload.encode("utf-8"))
    except orjson.JSONDecodeError as exc:
        return Document(index, source, label, line, error=_json_error(exc, label), meta=meta)
    return classify(value, index=index, source=source, label=label, line=line, meta=meta,
                    check=suspect)


def read_inputs(paths: Iterable[str], stdin: Any = None,
                on_skip: Callable[[Skipped], None] | None = None, form: str = "auto",
                txns: Txns | None = None) -> DocumentStream:
    """Read several files (``-`` = stdin) in order, numbering documents across all of them.

    Each input is read as its documents are asked for (see :func:`read_source`): the first
    document comes out before the input is read to its end, and memory stays flat. ``form``: see
    :data:`FORMS` (``--input-format``). A transaction may go on from one input into the next
    (``txns``: the run's transactions, :class:`.txns.Txns`)."""
    if form not in FORMS:
        raise ValueError(f"input format must be one of {', '.join(FORMS)}, not {form!r}")
    return DocumentStream(lambda skip: _read_inputs(paths, stdin, skip, form), on_skip, txns)


def _read_inputs(paths: Iterable[str], stdin: Any, skip: Callable[[Skipped], None],
                 form: str = "auto") -> Iterator[Document]:
    index = 0
    told = [0]

    def counted(item: Any) -> None:
        told[0] += 1
        skip(item)

    for path in paths:
        start, told[0] = index, 0
        name = "<stdin>" if path == "-" else path
        if path == "-":
            stream = stdin.buffer if hasattr(stdin, "buffer") else stdin
            for doc in _read_source(ByteSource(fh=stream), "<stdin>", index, counted, form):
                yield doc
                if type(doc) is not TxnMark:
                    index = doc.index + 1
        else:
            try:
                fh = open(path, "rb")
            except OSError as exc:
                yield _unreadable(exc, path, index)
                index += 1
                continue
            with fh:
                try:
                    for doc in _read_source(ByteSource(fh=fh), path, index, counted, form):
                        yield doc
                        if type(doc) is not TxnMark:
                            index = doc.index + 1
                except OSError as exc:  # a read failing half way: what was read is kept
                    yield _unreadable(exc, path, index)
                    index += 1
        if index == start and told[0] == 0:  # nothing at all in it: said, never silent
            skip((EMPTY, name))  # type: ignore[arg-type]


def _unreadable(exc: OSError, path: str, index: int) -> Document:
    why = ("a directory with no .json, .jsonl or .ndjson file under it" if isinstance(exc, IsADirectoryError)
           else exc.strerror or str(exc))
    err = DdlcError(f"cannot read input: {why}", code=E_INPUT, document=path)
    return Document(index, path, path, error=err)


def as_document(doc: Any, *, index: int = 0, source: str = "<input>") -> Document:
    """Library entry: a str/bytes (any input form with exactly one document) or a parsed mapping."""
    cls = type(doc)
    if cls is bytes or cls is str or cls is bytearray:  # (no such object is a Document or a Mapping)
        data = doc.encode("utf-8", "surrogatepass") if cls is str else doc if cls is bytes else bytes(doc)
        if data.startswith(b"{"):  # the common case, one JSON object: what read_source would give
            # (_load written out: its first pass here, without its frame; anything else by its other route)
            try:
                value = _DECODE(data)
            except Exception:  # noqa: BLE001 - a float, or anything msgspec refuses
                try:
                    value, suspect = _load_exact(data)
                except orjson.JSONDecodeError:
                    value = None
            else:
                # (92, the backslash's byte: a bytes membership test of an int is one memchr; of a bytes
                # object it first tries the argument as an int, and formats and clears that TypeError)
                suspect = 92 in data and b"\\u0000" in data
            if type(value) is dict and not suspect and "fmt" in value:  # classify's first case, at once
                return Document(index, source, source, 1, value)
            if isinstance(value, dict):
                return classify(value, index=index, source=source, label=source, check=suspect)
        return _read_one(data, index, source)
    if isinstance(doc, Document):
        return doc
    if isinstance(doc, Mapping):  # built by the caller: its strings are checked (one C pass)
        return classify(dict(doc) if not isinstance(doc, dict) else doc, index=index, source=source,
                        label=source)
    if isinstance(doc, str | bytes | bytearray):
        data = doc.encode("utf-8", "surrogatepass") if isinstance(doc, str) else bytes(doc)
        if data[:1] == b"{":  # the common case, one JSON object: what read_source would give
            try:
                value, suspect = _load(data)
            except orjson.JSONDecodeError:
                pass
            else:
                if isinstance(value, dict):
                    return classify(value, index=index, source=source, label=source, check=suspect)
        return _read_one(data, index, source)
    err = DdlcError(f"cannot read a document from {type(doc).__name__}", code=E_SHAPE, document=source)
    return Document(index, source, source, error=err)


def _read_one(data: bytes, index: int, source: str) -> Document:
    """The one document of ``data`` in any input form (an error document when it holds another number)."""
    docs = list(read_documents(data, source, start=index))
    if len(docs) == 1:
        return docs[0]
    err = DdlcError(f"expected exactly one document, found {len(docs)} (use translate_many)",
                    code=E_SHAPE, document=source)
    return Document(index, source, source, error=err)
