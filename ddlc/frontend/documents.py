"""Read documents from any input form, detected automatically.

Accepted forms: a single JSON document, a JSON array of documents, JSON lines (one document per
line), and real logical-decoding output (test_decoding / mppdb_decoding text, GaussDB parallel
batch framing; see :mod:`ddlc.frontend.streams`). A document is a bare JDDL tree
(``{"fmt": ...}``), a ``{"JDDL": tree}`` envelope or a ``{"TDDL": "text"}`` envelope.

A bad document becomes a :class:`Document` carrying its error; the others are never lost.
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

_EMPTY: Mapping[str, object] = {}

# A JSON number whose text a float would not keep (``2.50``, ``1e3``): such documents are parsed
# with Decimal so that ``%n`` prints the server's digits. Strings may match too; that only costs speed.
_INEXACT = re.compile(rb"[0-9]\.[0-9]*0(?![0-9])|[0-9][eE][-+]?[0-9]|[0-9]{19}")


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
    """Yield the documents of one input, in order; ``start`` is the index of the first one."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    index = start
    head = data.lstrip()[:1]
    whole: Any = _NOT_ONE
    if head in (b"{", b"["):
        try:
            whole = loads(data)
        except orjson.JSONDecodeError:
            whole = _NOT_ONE
    if whole is _NOT_ONE and head != b"":
        from . import streams  # decoding output: only imported when needed

        if streams.sniff(data) is not None:
            for rec in streams.iter_records(data, source):
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
    if whole is not _NOT_ONE:
        if isinstance(whole, list):
            for i, item in enumerate(whole):
                yield classify(item, index=index, source=source, label=f"{source}[{i}]")
                index += 1
        else:
            yield classify(whole, index=index, source=source, label=source)
        return
    # JSON lines: one document per line, each broken line reported on its own
    parsed: list[tuple[int, Any, Exception | None]] = []
    any_ok = False
    for lineno, raw in enumerate(data.split(b"\n"), 1):
        if not raw.strip():
            continue
        try:
            parsed.append((lineno, loads(raw), None))
            any_ok = True
        except orjson.JSONDecodeError as exc:
            parsed.append((lineno, None, exc))
    if not any_ok and len(parsed) > 1:
        # nothing parses line by line: one malformed (multi-line) document, one error
        try:
            orjson.loads(data)
        except orjson.JSONDecodeError as exc:
            yield Document(index, source, source, error=_json_error(exc, source, exc.pos))
        return
    for lineno, value, exc in parsed:
        label = f"{source}:{lineno}"
        if exc is not None:
            yield Document(index, source, label, lineno, error=_json_error(exc, label))
        else:
            yield classify(value, index=index, source=source, label=label, line=lineno)
        index += 1


_NOT_ONE = object()


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
    """Read several files (``-`` = stdin) in order, numbering documents across all of them."""
    index = 0
    for path in paths:
        if path == "-":
            stream = stdin.buffer if hasattr(stdin, "buffer") else stdin
            data, source = stream.read(), "<stdin>"
        else:
            source = path
            try:
                with open(path, "rb") as fh:
                    data = fh.read()
            except OSError as exc:
                err = DdlcError(f"cannot read input: {exc.strerror or exc}", code=E_INPUT, document=path)
                yield Document(index, path, path, error=err)
                index += 1
                continue
        for doc in read_documents(data, source, start=index):
            yield doc
            index = doc.index + 1


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
