"""Read documents from any input form, detected automatically.

Accepted forms: a single JSON document, a JSON array of documents, JSON lines (one document per
line), and real logical-decoding output (test_decoding / mppdb_decoding text, GaussDB parallel
batch framing; see :mod:`ddlc.frontend.streams`). A document is a bare JDDL tree
(``{"fmt": ...}``), a ``{"JDDL": tree}`` envelope or a ``{"TDDL": "text"}`` envelope.

A bad document becomes a :class:`Document` carrying its error; the others are never lost.

Inputs are streamed (:func:`read_inputs`, :func:`read_source`): each document is yielded as soon
as it is complete and memory stays flat whatever the input's size. JSON lines and decoding text
are read a line at a time (a decoding transaction is held until its COMMIT), batch framing a frame
at a time; the form is told from the first line or the first 64 KiB. A single JSON document or
JSON array is one value and is read whole: it takes about 3 to 10 times its size in memory (100 MB
of small documents in one array: about 1 GB), so large inputs should be JSON lines.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import json
import re
from decimal import Decimal

import orjson

from ..diagnostics import E_INPUT, E_JSON, E_SHAPE
from ..errors import DdlcError
from .streams_io import ByteSource

_EMPTY: Mapping[str, object] = {}

# A JSON number whose text a float would not keep (``2.50``, ``1e3``): such documents are parsed
# with Decimal so that ``%n`` prints the server's digits. Strings may match too; that only costs speed.
# (One leading class, so that the scan only stops at digits: six times faster on long strings.)
_INEXACT = re.compile(rb"[0-9](?:\.[0-9]*0(?![0-9])|[eE][-+]?[0-9]|[0-9]{18})")


def loads(data: bytes) -> Any:
    """Parse one JSON text; numbers keep their exact digits when a float would lose them."""
    if _INEXACT.search(data) is None:
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError:
            pass  # maybe only an integer beyond 64 bits, which the standard parser takes
    try:
        return json.loads(data, parse_float=Decimal)
    except (ValueError, RecursionError):
        return orjson.loads(data)  # raises orjson.JSONDecodeError with its precise message


@dataclass(frozen=True, slots=True)
class Document:
    index: int  # position in the whole run, 0-based
    source: str  # file name, "<stdin>" or "<input>"
    label: str  # "file.jsonl:12", "file.json[3]", "file.json"
    line: int = 1  # 1-based line where the document starts
    tree: dict[str, Any] | None = None  # the JDDL tree (envelope removed)
    tddl: str | None = None  # TDDL text
    error: DdlcError | None = None
    meta: Mapping[str, object] = field(default_factory=lambda: _EMPTY)


def classify(value: Any, *, index: int, source: str, label: str, line: int = 1,
             meta: Mapping[str, object] = _EMPTY) -> Document:
    """Turn one parsed JSON value into a Document (tree, TDDL text, or error)."""
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
    return DdlcError(f"malformed JSON: {msg}", code=E_JSON, document=label, position=offset)


def read_documents(data: bytes | str, source: str = "<input>", *, start: int = 0) -> Iterator[Document]:
    """Yield the documents of one input held in memory, in order; ``start`` is the index of the
    first one."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    return read_source(ByteSource(bytes(data)), source, start=start)


def read_source(src: ByteSource, source: str, *, start: int = 0) -> Iterator[Document]:
    """Yield the documents of one input read on demand, each as soon as it is complete.

    See the module's docstring: JSON lines, decoding text and batch framing stream; a single
    JSON document or array is read whole.
    """
    src.skip_bom()
    index = start
    at = src.skip_space(0)
    head = b"" if at is None else src.get(at, at + 1)
    whole: Any = _NOT_ONE
    if head in (b"{", b"["):
        whole = _whole_value(src, at)  # type: ignore[arg-type]
    if whole is _NOT_ONE and head != b"":
        from . import streams  # decoding output: only imported when needed

        bom = src.skip_bom()  # a second one: the decoding readers skip it too
        records = streams.stream_records(src, source)
        if records is not None:
            for rec in records:
                if isinstance(rec, DdlcError):
                    yield Document(index, source, rec.document or source, error=rec)
                elif rec.meta.get("aborted"):
                    continue  # the transaction rolled back: its DDL never happened
                else:
                    label = f"{source}:{rec.line}" if rec.line else f"{source}@{rec.offset}"
                    yield _from_payload(rec.payload, rec.kind, index, source, label, rec.line,
                                        rec.meta)
                index += 1
            return
        if bom:
            src.shift(-3)
    if whole is not _NOT_ONE:
        if isinstance(whole, list):
            for i, item in enumerate(whole):
                yield classify(item, index=index, source=source, label=f"{source}[{i}]")
                index += 1
        else:
            yield classify(whole, index=index, source=source, label=source)
        return
    yield from _json_lines(src, source, index)


_NOT_ONE = object()


def _whole_value(src: ByteSource, at: int) -> Any:
    """The one JSON value the whole input is, or ``_NOT_ONE``, reading no more than it takes to
    tell: JSON lines are told by their first line (and the start of the second)."""
    end = src.line_end(at)
    while True:
        if not src.have(end + 1):  # all of it is in hand
            try:
                return loads(src.get(0, end))
            except orjson.JSONDecodeError:
                return _NOT_ONE
        state = _prefix_state(src.get(0, end))
        if state is False:
            return _NOT_ONE
        if state is True:  # a whole value, then only whitespace so far: the rest decides
            if src.skip_space(end) is not None:
                return _NOT_ONE
            try:
                return loads(src.get(0, src.end))
            except orjson.JSONDecodeError:
                return _NOT_ONE
        # still the start of one value: past 1 MiB it is no JSON lines, read it whole
        end = src.line_end(max(2 * end, 1 << 16)) if end < 1 << 20 else src.total()


def _prefix_state(data: bytes) -> bool | None:
    """Is ``data`` (whole lines of a longer input) a complete JSON value (True), the start of one
    (None), or neither (False)? An error past the last non-blank byte only means "more to come"."""
    try:
        orjson.loads(data)
        return True
    except orjson.JSONDecodeError as exc:
        if exc.pos >= len(data.rstrip()):
            return None
    # orjson's verdict is not the last word: loads() also takes what the standard parser takes
    try:
        text = data.decode(json.detect_encoding(data), "surrogatepass")
    except UnicodeDecodeError:
        return False if json.detect_encoding(data) == "utf-8" else None
    try:
        json.loads(text, parse_float=Decimal)
        return True
    except json.JSONDecodeError as exc:
        return None if exc.pos >= len(text.rstrip()) else False
    except (ValueError, RecursionError):
        return False


def _json_lines(src: ByteSource, source: str, index: int) -> Iterator[Document]:
    """JSON lines: one document per line, each broken line reported on its own; but when no line
    parses, the input is one malformed (multi-line) document and gets one error."""
    lines = src.lines(0)
    held: list[tuple[int, Exception]] = []  # the broken lines before the first good one
    raw: list[bytes] | None = []  # and all their bytes, for that one error (while short enough)
    first: Exception | None = None  # its error, once a prefix tells it
    utf8_bad: bytes | None = None  # a later line that is not UTF-8 (then the error is about that)
    size, check_at = 0, 1 << 20
    lineno = 0
    for line in lines:
        lineno += 1
        if raw is not None:
            raw.append(line)
            size += len(line) + 1
        if not line.strip():
            continue
        try:
            value = loads(line)
        except orjson.JSONDecodeError as exc:
            held.append((lineno, exc))
            if raw is not None and size >= check_at:
                first = _definite_error(b"\n".join(raw))
                check_at *= 2
                if first is not None:
                    raw = None
            elif raw is None and utf8_bad is None and not _is_utf8(line):
                utf8_bad = line
            continue
        for n, exc in held:
            label = f"{source}:{n}"
            yield Document(index, source, label, n, error=_json_error(exc, label))
            index += 1
        held = []
        yield classify(value, index=index, source=source, label=f"{source}:{lineno}", line=lineno)
        index += 1
        break
    else:  # no line parses
        if len(held) > 1:
            exc = _whole_error(b"\n".join(raw) if raw is not None else utf8_bad, first)
            if exc is not None:
                yield Document(index, source, source, error=_json_error(exc, source, exc.pos))
        elif held:
            n, exc = held[0]
            label = f"{source}:{n}"
            yield Document(index, source, label, n, error=_json_error(exc, label))
        return
    for line in lines:
        lineno += 1
        if not line.strip():
            continue
        label = f"{source}:{lineno}"
        try:
            value = loads(line)
        except orjson.JSONDecodeError as exc:
            yield Document(index, source, label, lineno, error=_json_error(exc, label))
        else:
            yield classify(value, index=index, source=source, label=label, line=lineno)
        index += 1


def _definite_error(data: bytes) -> orjson.JSONDecodeError | None:
    """orjson's error on whole lines ``data``, when no more input could change it."""
    try:
        orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        if exc.pos < len(data.rstrip()):
            return exc
    return None


def _whole_error(data: bytes | None, first: Exception | None) -> orjson.JSONDecodeError | None:
    """orjson's error on the whole input (its bytes, or a line of it that is not UTF-8, which
    orjson reports first), or the error its start already told."""
    if data is not None:
        try:
            orjson.loads(data)
        except orjson.JSONDecodeError as exc:
            return exc
        return None
    return first  # type: ignore[return-value]


def _is_utf8(line: bytes) -> bool:
    try:
        line.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _from_payload(payload: str, kind: str, index: int, source: str, label: str, line: int,
                  meta: Mapping[str, object]) -> Document:
    if kind == "text":
        return Document(index, source, label, line, tddl=payload, meta=meta)
    try:
        value = loads(payload.encode("utf-8"))
    except orjson.JSONDecodeError as exc:
        return Document(index, source, label, line, error=_json_error(exc, label), meta=meta)
    return classify(value, index=index, source=source, label=label, line=line, meta=meta)


def read_inputs(paths: Iterable[str], stdin: Any = None) -> Iterator[Document]:
    """Read several files (``-`` = stdin) in order, numbering documents across all of them.

    Each input is read as its documents are asked for (see :func:`read_source`): the first
    document comes out before the input is read to its end, and memory stays flat."""
    index = 0
    for path in paths:
        if path == "-":
            stream = stdin.buffer if hasattr(stdin, "buffer") else stdin
            for doc in read_source(ByteSource(fh=stream), "<stdin>", start=index):
                yield doc
                index = doc.index + 1
            continue
        try:
            fh = open(path, "rb")
        except OSError as exc:
            yield _unreadable(exc, path, index)
            index += 1
            continue
        with fh:
            try:
                for doc in read_source(ByteSource(fh=fh), path, start=index):
                    yield doc
                    index = doc.index + 1
            except OSError as exc:  # a read failing half way: what was read is kept
                yield _unreadable(exc, path, index)
                index += 1


def _unreadable(exc: OSError, path: str, index: int) -> Document:
    err = DdlcError(f"cannot read input: {exc.strerror or exc}", code=E_INPUT, document=path)
    return Document(index, path, path, error=err)


def as_document(doc: Any, *, index: int = 0, source: str = "<input>") -> Document:
    """Library entry: a str/bytes (any input form with exactly one document) or a parsed mapping."""
    if isinstance(doc, Document):
        return doc
    if isinstance(doc, Mapping):
        return classify(dict(doc) if not isinstance(doc, dict) else doc, index=index, source=source,
                        label=source)
    if isinstance(doc, str | bytes | bytearray):
        docs = list(read_documents(bytes(doc) if isinstance(doc, bytearray) else doc, source, start=index))
        if len(docs) == 1:
            return docs[0]
        err = DdlcError(f"expected exactly one document, found {len(docs)} (use translate_many)",
                        code=E_SHAPE, document=source)
        return Document(index, source, source, error=err)
    err = DdlcError(f"cannot read a document from {type(doc).__name__}", code=E_SHAPE, document=source)
    return Document(index, source, source, error=err)
