"""What Spark's Python workers run: plain functions over Arrow record batches, calling the library.

* :func:`piece_reader` (stage 1, a run of pieces per task): the library's readers
  (:func:`ddlc.frontend.documents.read_source`) over a piece; out come its DDL documents (each
  pickled whole, with its order key and original payload), its unrecognised lines and one row of
  counts. DML is skipped here, where the bytes are: this is the stage that scales with cores.
* :func:`translate_ordered` (stage 2, one task per target and bucket of objects: :mod:`.groups`):
  the documents in log order (LSN, then input and position), each through
  the compiler (with the build stage 1 made of it) with the catalog of its schemas, exactly as ``ddlc translate``
  does; out comes one row per document and target, and a last row holding the bucket's part of the
  target's catalog for ``--state``.

Nothing here imports Spark; the same functions are what the tests call without it.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import Any

import orjson

from .plan import Piece

__all__ = ["READ_SCHEMA", "TRANSLATE_SCHEMA", "read_piece", "piece_reader", "translate_rows", "translate_ordered",
           "order_key"]

# stage 1 rows: kind "doc" (a document: DDL or an input error), "mark" (a transaction mark: .positions folds
# them on the driver), "unrecognised" (a line of no known kind) or "count" (one per piece: what the reader read);
# a document's lsn_hi/lsn_lo are its change LSN in stage 1, its rank in decoding order after the driver's fold
READ_SCHEMA = ("kind string, piece int, seq long, file int, lsn_hi long, lsn_lo long, lsn string, xid long, "
               "source string, line long, label string, offset long, doc binary, payload binary, "
               "links array<string>, records long, documents long, dml long, rolled_back long, unrecognised long, bytes long, "
               "lines long, mark int, commit_kind string, commit long, ir binary, span long")
# stage 2 rows: status translated | failed | filtered | replayed, or "state" (the target's history at the end)
TRANSLATE_SCHEMA = ("target string, status string, piece int, seq long, file int, lsn_hi long, lsn_lo long, "
                    "lsn string, xid long, source string, line long, label string, input_error boolean, "
                    "kind string, object string, owner string, sql string, statements array<string>, "
                    "diagnostics string, error_code string, error string, untranslated int, filtered string, "
                    "payload binary, state binary")
_PAYLOAD_CAP = 1 << 20  # bytes of an original payload kept in the quarantine


def order_key(row: dict[str, Any]) -> tuple[int, int, int, int, int]:
    """Log order: LSN (records without one as 0/0), then input, piece and position."""
    return (row["lsn_hi"], row["lsn_lo"], row["file"], row["piece"], row["seq"])


def relocated_label(label: str, source: str, line: int, first: int) -> str:
    """The label of a record read at ``line`` of a piece, for the piece starting at line ``first`` of
    its file: stage 1 reads every piece from line 1 (no task waits for the newlines of the pieces
    before its own) and the driver, which learns them from stage 1, moves the lines after."""
    if first == 1 or line < 1:
        return label
    if label == f"{source}:{line}":
        return f"{source}:{line + first - 1}"
    prefix = f"{source}:{line}:"  # an unrecognised line's "file:12: line not recognised ..."
    return f"{source}:{line + first - 1}:" + label[len(prefix):] if label.startswith(prefix) else label


def relocate_row(row: dict[str, Any], first: int) -> dict[str, Any]:
    """A stage-1 row with the line and label it has in its file (see :func:`relocated_label`)."""
    line = row.get("line")
    if first == 1 or line is None or line < 1:
        return row
    return row | {"line": line + first - 1, "label": relocated_label(row["label"], row["source"], line, first)}


def relocate_doc(doc: Any, first: int) -> Any:
    """A document read in stage 1 with the line, label and error label it has in its file."""
    if first == 1 or doc.line < 1:
        return doc
    label = relocated_label(doc.label, doc.source, doc.line, first)
    if label == doc.label:
        return doc
    error = doc.error
    if error is not None and error.document == doc.label:
        import copy

        error = copy.copy(error)
        error.document = label
    return replace(doc, line=doc.line + first - 1, label=label, error=error)


# ---- stage 1: read a piece -------------------------------------------------------------------
def read_piece(piece: Piece, options: Any = None, data: bytes | None = None) -> Iterator[dict[str, Any]]:
    """The rows of one piece (see :data:`READ_SCHEMA`), documents in the order the reader gives them;
    with ``options``, each document's ``links`` (the schemas it names: :func:`.groups.links_of`).

    ``data``: the piece's bytes as Spark read them (:mod:`.remote`: nothing is opened here); its lines
    and offsets are counted from 1 and 0, and the driver moves them (a byte range's first line is
    where Spark's text source put it)."""
    from .groups import links_and_front

    from ..frontend.documents import read_source
    from ..frontend.streams_io import ByteSource
    from ..frontend.streams_rows import format_lsn
    from ..frontend.txns import TxnMark, Txns

    skipped: list[Any] = []
    record = Txns(record=True)  # marks handed out: the driver folds the pieces' transactions (.positions)
    if data is not None:
        fh = None
        docs = read_source(ByteSource(data), piece.path, form=piece.form, on_skip=skipped.append,
                           txns=record)
    elif piece.whole:
        fh = open(piece.path, "rb")
        src = ByteSource(fh=fh)
        docs = read_source(src, piece.path, form=piece.form, on_skip=skipped.append, txns=record)
        data = None
    else:
        with open(piece.path, "rb") as fh:
            fh.seek(piece.start)
            data = fh.read(piece.end - piece.start)
        fh = None
        # (a later piece of a file with a byte order mark: offsets after it, as the piece holding it counts)
        docs = read_source(ByteSource(data), piece.path, form=piece.form, on_skip=skipped.append,
                           line=piece.line, offset=piece.start - piece.bom if piece.start else 0, txns=record)
    payloads = _Payloads(piece, data)
    out: list[dict[str, Any]] = []
    try:
        for seq, doc in enumerate(docs):
            while skipped:
                out.append(_unrecognised(piece, skipped.pop(0)))
            if type(doc) is TxnMark:
                out.append({"kind": "mark", "piece": piece.piece, "seq": seq, "file": piece.file, "lsn_hi": 0,
                            "lsn_lo": 0, "xid": doc.xid, "mark": doc.kind,
                            "commit_kind": doc.commit[0] if doc.commit else None,
                            "commit": doc.commit[1] if doc.commit else None})
                continue
            lsn = doc.lsn
            links, fronted = links_and_front(doc, options) if options is not None else (None, None)
            out.append({
                "kind": "doc", "piece": piece.piece, "seq": seq, "file": piece.file,
                "lsn_hi": (lsn >> 32) if lsn is not None else 0, "lsn_lo": (lsn & 0xFFFFFFFF) if lsn is not None else 0,
                "lsn": format_lsn(lsn) if lsn is not None else None, "xid": doc.xid, "source": doc.source,
                "line": doc.line, "label": doc.label, "offset": None,
                "doc": pickle.dumps(portable(doc), protocol=pickle.HIGHEST_PROTOCOL),
                "payload": payloads.want(doc, len(out)),
                "links": links, "ir": pickle.dumps(fronted, protocol=pickle.HIGHEST_PROTOCOL) if fronted else None,
            })
            if len(out) >= 4096 and data is None:  # a streamed file: hand rows out as they come
                payloads.fill(out)
                yield from out
                out = []
        while skipped:
            out.append(_unrecognised(piece, skipped.pop(0)))
        payloads.fill(out)
        yield from out
    finally:
        payloads.close()
        if fh is not None:
            fh.close()
    yield {"kind": "count", "piece": piece.piece, "seq": -1, "file": piece.file, "lsn_hi": 0, "lsn_lo": 0,
           "records": docs.records, "documents": docs.documents, "dml": docs.dml, "rolled_back": docs.rolled_back,
           "unrecognised": docs.unrecognised, "bytes": piece.size, "lines": data.count(b"\n") if data is not None else None,
           "span": len(data) if data is not None else None}


def portable(doc: Any) -> Any:
    """``doc`` as pickle takes it (the decoding readers' metadata is a read-only mapping proxy)."""
    return doc if isinstance(doc.meta, dict) else replace(doc, meta=dict(doc.meta))


def _unrecognised(piece: Piece, s: Any) -> dict[str, Any]:
    return {"kind": "unrecognised", "piece": piece.piece, "seq": -1, "file": piece.file, "lsn_hi": 0, "lsn_lo": 0,
            "source": s.source, "line": s.line, "label": str(s), "offset": s.offset,
            "payload": s.excerpt.encode("utf-8", "surrogateescape")}


class _Payloads:
    """The original bytes of each document: the line it starts on (a rows file's row, a decoding
    message, a JSON line), the frame (batch framing), else the document as JSON."""

    def __init__(self, piece: Piece, data: bytes | None) -> None:
        self.piece, self.data = piece, data
        self.lines: dict[int, list[int]] = {}  # line -> indexes of rows waiting for it
        self.frames: dict[int, list[int]] = {}
        self._at = (piece.line, 0)  # (line, offset in data) reached so far, for pieces in memory
        self._file: _LineCursor | None = None  # the file, for a piece read streaming

    def want(self, doc: Any, i: int) -> bytes | None:
        label, source = doc.label, doc.source
        if doc.line >= 1 and label == f"{source}:{doc.line}":
            if self.data is not None:
                return self._line_in_data(doc.line)
            self.lines.setdefault(doc.line, []).append(i)
            return None
        at = label.rpartition("@")[2]
        if label.startswith(source + "@") and at.isdigit():
            self.frames.setdefault(int(at), []).append(i)
            return None
        if doc.tree is not None:
            return orjson.dumps({"JDDL": doc.tree}, default=str)[:_PAYLOAD_CAP]
        if doc.tddl is not None:
            return orjson.dumps({"TDDL": doc.tddl})[:_PAYLOAD_CAP]
        return None

    def _line_in_data(self, line: int) -> bytes:
        data = self.data
        assert data is not None
        n, off = self._at
        if line < n:
            n, off = self.piece.line, 0
        while n < line:
            nl = data.find(b"\n", off)
            if nl < 0:
                return b""
            n, off = n + 1, nl + 1
        self._at = (n, off)
        end = data.find(b"\n", off)
        return data[off:end if end >= 0 else len(data)][:_PAYLOAD_CAP]

    def fill(self, rows: list[dict[str, Any]]) -> None:
        """Read the lines and frames still wanted from the file into ``rows``: lines by a cursor that
        only moves forward (documents come in line order), frames by seeking."""
        if not self.lines and not self.frames:
            return
        if self._file is None:
            import io

            self._file = _LineCursor(io.BytesIO(self.data) if self.data is not None else open(self.piece.path, "rb"),
                                     self.piece.line if self.data is not None else 1)
        for line in sorted(self.lines):
            raw = self._file.line(line)
            for i in self.lines[line]:
                rows[i]["payload"] = raw
        for at, idx in self.frames.items():
            raw = self._file.frame(at)
            for i in idx:
                rows[i]["payload"] = raw
        self.lines, self.frames = {}, {}

    def close(self) -> None:
        if self._file is not None:
            self._file.fh.close()


class _LineCursor:
    """Lines of a file by number, read forward in blocks (back to the start only when asked for an earlier one)."""

    def __init__(self, fh: Any, first: int = 1) -> None:
        self.fh, self.first = fh, first
        self._reset()

    def _reset(self) -> None:
        self.fh.seek(0)
        self.n, self.buf, self.eof = self.first, b"", False  # buf starts at the start of line n

    def _more(self) -> bool:
        if self.eof:
            return False
        block = self.fh.read(8 << 20)
        if not block:
            self.eof = True
            return False
        self.buf += block
        return True

    def line(self, want: int) -> bytes:
        if want < self.n:
            self._reset()
        while self.n < want:
            nl = self.buf.find(b"\n")
            if nl < 0:
                self.buf = b""  # a line longer than a block: skip what is read of it
                if not self._more():
                    return b""
                continue
            self.buf = self.buf[nl + 1:]
            self.n += 1
            if not self.buf and not self._more():
                return b""
        while (nl := self.buf.find(b"\n", 0, _PAYLOAD_CAP)) < 0 and len(self.buf) < _PAYLOAD_CAP and self._more():
            pass
        nl = self.buf.find(b"\n", 0, _PAYLOAD_CAP)
        return self.buf[:nl if nl >= 0 else _PAYLOAD_CAP]

    def frame(self, at: int) -> bytes:
        pos = self.fh.tell()
        self.fh.seek(at)
        head = self.fh.read(4)
        n = int.from_bytes(head, "big") if len(head) == 4 else 0
        self.fh.seek(at + 12)
        raw = self.fh.read(min(max(n - 8, 0), _PAYLOAD_CAP))
        if len(raw) < min(max(n - 8, 0), _PAYLOAD_CAP) or n < 8:  # a damaged frame: its bytes as they are
            self.fh.seek(at)
            raw = self.fh.read(min(max(n + 4, 64), _PAYLOAD_CAP))
        self.fh.seek(pos)
        return raw


def piece_reader(pieces: list[dict[str, Any]], options: Any = None, share: int | None = None) -> Any:
    """mapInArrow over ``spark.range(len(pieces))``: each id read as ``pieces[id]`` (the pieces travel
    with the function), :data:`READ_SCHEMA` batches out. A task reads several pieces one after the
    other: Spark's cost per task (~0.1 s here) is paid per task, not per 32 MB piece.

    ``share``: the pickled bytes of documents the task hands out; the documents past it come out with
    ``doc`` null (the driver then takes the documents through a shuffle instead: ``run._shuffled``)."""

    def run(batches: Iterable[Any]) -> Iterator[Any]:
        left = share
        for batch in batches:
            for i in batch.column(0).to_pylist():
                rows = read_piece(Piece(**pieces[i]), options)
                if left is not None:
                    rows, spent = _capped(rows, left)
                yield from _batched(rows, READ_SCHEMA, 2048)
                if left is not None:
                    left -= spent[0]

    return run


def _capped(rows: Iterator[dict[str, Any]], left: int) -> tuple[Iterator[dict[str, Any]], list[int]]:
    spent = [0]

    def gen() -> Iterator[dict[str, Any]]:
        for row in rows:
            doc = row.get("doc")
            if doc is not None:
                size = len(doc) + len(row.get("ir") or b"")
                if spent[0] + size > left:
                    row = row | {"doc": None, "ir": None}
                spent[0] += size
            yield row

    return gen(), spent


def _batched(rows: Iterable[dict[str, Any]], ddl: str, size: int) -> Iterator[Any]:
    """Rows as Arrow record batches of ``size`` rows (the last one shorter) with the schema ``ddl``."""
    import pyarrow as pa

    schema = arrow_schema(ddl)
    out: list[dict[str, Any]] = []
    for row in rows:
        out.append(row)
        if len(out) >= size:
            yield pa.RecordBatch.from_pylist(out, schema=schema)
            out = []
    if out:
        yield pa.RecordBatch.from_pylist(out, schema=schema)


# ---- stage 2: translate in log order, one target and bucket of objects at a time ---------------------
def translate_rows(rows: Iterable[dict[str, Any]], options: Any, state: bytes | None = None,
                   want_state: bool = False, owned: tuple[frozenset[str], ...] | None = None,
                   first_lines: dict[int, int] | None = None) -> Iterator[dict[str, Any]]:
    """Stage 2 over plain rows, already in (target, bucket, log) order: what :func:`translate_ordered` runs.

    Rows of a bucket (``bucket``, ``seen``: :func:`.groups.plan_groups` decided both) get a catalog of
    their own, and their last row is that catalog's ``owned`` part; rows without them are one
    stream per target whose last row is the target's whole history."""
    from ..api import translation, unwritable
    from ..history import Catalog
    from ..session import Session

    key: Any = None
    target = backend = catalog = history = session = None
    bucket = None
    for row in rows:
        if (row["target"], row.get("bucket")) != key:
            if key is not None:
                yield _state_row(target, history, catalog, want_state, bucket, owned, options)
            key = (row["target"], row.get("bucket"))
            target, bucket = key
            history = _history(state, target)
            catalog = history.catalog if history is not None else Catalog()
            # one run per target (or per bucket: documents whose history is theirs alone, "seen" decided
            # by the driver for the whole log)
            session = Session([target], options, history if bucket is None else None, catalogs=[catalog])
            backend = session.backends[0]
        doc = pickle.loads(row["doc"])
        if row.get("fail") is not None:  # its transaction has no COMMIT (.positions)
            doc = replace(doc, tree=None, tddl=None, error=pickle.loads(row["fail"]))
        # (stage 1 built the document with the same options: its build is taken, not made again)
        fronted = pickle.loads(row["ir"]) if row.get("ir") and doc.error is None else None
        first = first_lines.get(row["piece"], 1) if first_lines else 1
        if first != 1:  # stage 1 read the piece from line 1
            read_as = doc.label
            doc, row = relocate_doc(doc, first), relocate_row(row, first)
            if fronted is not None and doc.label != read_as:
                fronted = relabelled(fronted, read_as, doc.label)
        base = {k: row[k] for k in ("target", "piece", "seq", "file", "lsn_hi", "lsn_lo", "lsn", "xid", "source",
                                    "line", "label")}
        base["input_error"] = doc.error is not None
        results = session.translate(doc, fronted, seen=bool(row["seen"]) if bucket is not None else None)
        if results is None:
            yield base | {"status": "replayed"}
            continue
        result = translation(doc, backend, results[0])
        out = base | {"kind": result.kind, "object": result.object, "owner": result.owner}
        if result.filtered is not None:
            yield out | {"status": "filtered", "filtered": result.filtered}
            continue
        try:  # what the CLI writes for the document, to the byte
            sql = result.sql
            diagnostics = orjson.dumps([d.to_dict() for d in result.diagnostics]).decode()
        except Exception as exc:  # noqa: BLE001 - a bug: this document fails, the others go on
            result = unwritable(result, exc)
            sql, diagnostics = "", "[]"
        failed = result.error is not None
        yield out | {"status": "failed" if failed else "translated", "sql": sql, "statements": list(result.statements),
                     "diagnostics": diagnostics, "error_code": result.error.code if failed else None,
                     "error": str(result.error) if failed else None, "untranslated": result.untranslated,
                     "payload": row.get("payload") if failed else None}
    if key is not None:
        yield _state_row(target, history, catalog, want_state, bucket, owned, options)


def relabelled(fronted: Any, old: str, new: str) -> Any:
    """A build from stage 1 whose diagnostics name the document as the piece read it (``old``), named as
    in its file (``new``)."""
    diags = tuple(replace(d, document=new) if d.document == old else d for d in fronted.diagnostics)
    return replace(fronted, diagnostics=diags)


def _history(state: bytes | None, target: str) -> Any:
    if state is None:
        return None
    from ..state_file import History

    return History.from_json(orjson.loads(state), "<state>", target)


def _state_row(target: str, history: Any, catalog: Any, want: bool, bucket: int | None = None,
               owned: tuple[frozenset[str], ...] | None = None, options: Any = None) -> dict[str, Any]:
    from ..state_file import History, dump_catalog
    from .groups import owned_catalog

    if not want:
        data: dict[str, Any] = {}
    elif bucket is not None:
        assert owned is not None
        data = {"bucket": bucket, "catalog": owned_catalog(catalog, owned[bucket],
                                                           getattr(options, "default_schema", "public"))}
    else:
        h = history if history is not None else History(catalog)
        data = {"history": h.to_json(), "catalog": dump_catalog(catalog), "replayed": h.replayed}
    return {"target": target, "status": "state", "piece": -1, "seq": -1, "file": -1, "lsn_hi": -1, "lsn_lo": -1,
            "state": orjson.dumps(data)}


def translate_ordered(options: Any, state: bytes | None, want_state: bool,
                      owned: tuple[frozenset[str], ...] | None = None, first_lines: dict[int, int] | None = None):
    """mapInArrow: documents crossed with targets, sorted by target, bucket, then log order, in; one
    :data:`TRANSLATE_SCHEMA` row per document and target out, and each bucket's catalog last."""

    def run(batches: Iterable[Any]) -> Iterator[Any]:
        def rows() -> Iterator[dict[str, Any]]:
            for batch in batches:
                yield from batch.to_pylist()

        yield from _batched(translate_rows(rows(), options, state, want_state, owned, first_lines), TRANSLATE_SCHEMA,
                            1024)

    return run


def arrow_schema(ddl: str) -> Any:
    import pyarrow as pa

    kinds = {"string": pa.string(), "int": pa.int32(), "long": pa.int64(), "binary": pa.binary(),
             "boolean": pa.bool_(), "array<string>": pa.list_(pa.string())}
    fields = []
    for part in ddl.split(", "):
        name, _, kind = part.partition(" ")
        fields.append(pa.field(name, kinds[kind]))
    return pa.schema(fields)
