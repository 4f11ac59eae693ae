"""What the pipeline reads: its inputs cut into pieces that Spark tasks read on their own.

A piece is a byte range of one input file. Only a form whose every newline ends a record can be
cut anywhere: the rows of a rows file saved as JSON lines (``rows_json``) and JSON lines of
documents (``jsonl``). Such a file is cut at the first newline after every ``piece_size`` bytes,
and each piece is read with the exact form from line 1, counting its newlines; the driver then moves
its rows and documents by the lines of the pieces before it (:func:`with_lines`), so that they carry
exactly the labels and lines the whole file gives. Every other form is one piece: CSV (a quoted value may hold newlines),
decoding text (a transaction is held until its COMMIT; a row's data may hold newlines), batch
framing, and a single JSON document or array.

A file small enough to be one piece is read with the form the user asked for (``auto`` by default),
exactly as ``ddlc translate`` reads it.
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import Any

from ..records import record
from ..frontend.streams_io import ByteSource

__all__ = ["Piece", "PIECE_SIZE", "plan", "detect_form", "expand_inputs", "PipelineInputError"]

PIECE_SIZE = 32 << 20  # bytes per piece of a JSON lines file
_SPLITTABLE = ("rows_json", "jsonl")


class PipelineInputError(Exception):
    """An input the pipeline cannot plan (missing, unreadable): a usage error, reported before any work."""


@record(frozen=True, slots=True)
class Piece:
    piece: int  # its number in the run (the order of inputs, then of pieces in a file)
    file: int  # the number of its input
    path: str  # the input as given (documents are labelled with it, as the CLI does)
    form: str  # the form it is read with (ddlc.frontend.documents.read_source's form)
    start: int  # byte range [start, end) of the file; end -1: to its end
    end: int
    line: int = 1  # the line number of its first byte
    size: int = 0  # its length in bytes (for progress and MB/s)
    kind: str = ""  # the file's form as detected (rows_json, rows_csv, jsonl, json, decoding, batch)
    uri: str = ""  # read through Spark's filesystem layer at this URI (.remote), else with Python on the driver's machine
    split: int = 0  # (through Spark) the bytes of each byte range of its file: Spark's text source hands each
    # line to the range it starts in, and the driver moves lines and offsets after (with_lines, .remote)
    bom: int = 0  # (a byte range) the bytes of the file's UTF-8 byte order mark: offsets count after it, as
    # ddlc translate counts them

    @property
    def whole(self) -> bool:
        return self.start == 0 and self.end == -1


def expand_inputs(paths: list[str] | tuple[str, ...]) -> list[str]:
    """Files as given; a directory stands for the files under it, in name order (hidden ones left out)."""
    out: list[str] = []
    for p in paths:
        if os.path.isdir(p):
            found = []
            for root, dirs, files in os.walk(p):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                found.extend(os.path.join(root, f) for f in files if not f.startswith((".", "_")))
            out.extend(sorted(found))
        elif os.path.isfile(p):
            out.append(p)
        elif os.path.exists(p):
            raise PipelineInputError(f"{p}: not a regular file or directory")
        else:
            raise PipelineInputError(f"{p}: no such file or directory")
    if not out:
        raise PipelineInputError(_NONE)
    return out


_NONE = "no input files"


def detect_form(path: str, forced: str = "auto", opener: Any = None) -> str:
    """The exact form of a file: ``rows_json``, ``rows_csv``, ``jsonl``, ``json``, ``decoding`` or ``batch``
    (``opener``: a function giving the file's reader, :meth:`.fs.HadoopFS.reader` for a URI)."""
    if forced in ("decoding", "batch"):
        return forced
    with (opener or _open)(path) as fh:
        src = ByteSource(fh=fh)
        src.skip_bom()
        at = src.skip_space(0)
        if at is None:
            return "jsonl"
        first = src.get(at, src.line_end(at))
        from ..frontend.streams_rows import rows_kind

        kind = rows_kind(first)
        if forced == "rows":
            return kind or ("rows_json" if first.lstrip().startswith(b"{") else "rows_csv")
        if kind is not None and forced == "auto":
            return kind
        head = first[:1]
        if forced == "auto" and head not in (b"{", b"["):
            from ..frontend import streams

            sniffed = streams.sniff_source(src)
            if sniffed is not None:
                return "batch" if sniffed == "parallel_batch" else "decoding"
        if head in (b"{", b"["):
            from ..frontend.documents import NOT_ONE, whole_value

            if whole_value(src, at) is not NOT_ONE:
                return "json"
            if forced == "auto":
                from ..frontend import streams

                sniffed = streams.sniff_source(src)
                if sniffed is not None:
                    return "batch" if sniffed == "parallel_batch" else "decoding"
        return "jsonl"


def _open(path: str) -> Any:
    return open(path, "rb")


def _head(path: str) -> bytes:
    with open(path, "rb") as fh:
        return fh.read(3)


def plan(paths: list[str] | tuple[str, ...], forced: str = "auto", piece_size: int = PIECE_SIZE,
         hfs: Any = None, through_spark: bool = False) -> list[Piece]:
    """The pieces of the inputs, in order (line numbers of later pieces still 1: see :func:`with_lines`).

    ``through_spark``: the pieces are read by Spark (:mod:`.remote`): a splittable file is cut into byte
    ranges of ``piece_size`` (no newline looked for: Spark's text source gives each line to the range it
    starts in). ``hfs`` (a :class:`.fs.HadoopFS`): the inputs that are URIs are listed, sized and told
    from Spark's filesystem layer (a plain path is the driver's own file)."""
    pieces: list[Piece] = []
    for n, (path, size, uri) in enumerate(_files(paths, hfs, through_spark)):
        try:
            form = detect_form(path, forced, hfs.reader if uri and hfs is not None and uri == path else None)
        except OSError as exc:
            raise PipelineInputError(f"{path}: cannot read: {exc.strerror or exc}") from None
        except Exception as exc:  # noqa: BLE001 - py4j: the filesystem's own error
            raise PipelineInputError(f"{path}: cannot read: {_java_message(exc)}") from None
        if form not in _SPLITTABLE or size <= piece_size:
            # read whole, with the form the user asked for: exactly what the CLI reads
            pieces.append(Piece(len(pieces), n, path, forced, 0, -1, 1, size, form, uri))
            continue
        if through_spark:
            cuts = list(range(0, size, piece_size)) + [size]
        else:
            cuts = _cuts(path, size, piece_size)
        head = hfs.read(uri, 0, 3) if uri and uri == path and hfs is not None else _head(path)
        bom = 3 if head == b"\xef\xbb\xbf" else 0
        for a, b in zip(cuts, cuts[1:], strict=False):
            pieces.append(Piece(len(pieces), n, path, form, a, b, 1, b - a, form, uri,
                                piece_size if through_spark else 0, bom))
    return pieces


def _files(paths: list[str] | tuple[str, ...], hfs: Any, through_spark: bool) -> list[tuple[str, int, str]]:
    """(label path, size, URI Spark reads or "") of every input file, in order."""
    from .fs import is_uri, to_uri

    out: list[tuple[str, int, str]] = []
    for p in paths:
        if not is_uri(p):
            try:
                files = expand_inputs([p])
            except PipelineInputError as exc:
                if str(exc) != _NONE:
                    raise
                files = []  # an empty directory among others
            for f in files:
                try:
                    size = os.path.getsize(f)
                except OSError as exc:
                    raise PipelineInputError(f"{f}: cannot read: {exc.strerror or exc}") from None
                out.append((f, size, to_uri(f) if through_spark else ""))
            continue
        if hfs is None:
            raise PipelineInputError(f"{p}: a URI is read through Spark's filesystem layer (no session given)")
        try:
            st = hfs.stat(p)
            if st is None:
                raise PipelineInputError(f"{p}: no such file or directory")
            found = hfs.files(p) if st.is_dir else [st]
        except PipelineInputError:
            raise
        except Exception as exc:  # noqa: BLE001 - py4j: no filesystem for the scheme, refused, ...
            raise PipelineInputError(f"{p}: cannot read: {_java_message(exc)}") from None
        for f in found:
            name = p if not st.is_dir else f.path  # a file given: labelled as given
            out.append((name, f.size, name))
    if not out:
        raise PipelineInputError(_NONE)
    return out


def _java_message(exc: BaseException) -> str:
    """The first line of a JVM exception's message, without py4j's wrapping."""
    text = str(exc).strip()
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith(("An error occurred", "py4j", "Traceback")):
            return line[:300]
    return text[:300]


def _cuts(path: str, size: int, piece_size: int) -> list[int]:
    """0, the offsets just past the first newline after each multiple of ``piece_size``, and ``size``."""
    cuts = [0]
    with open(path, "rb") as fh:
        target = piece_size
        while target < size:
            fh.seek(target)
            at = target
            while True:
                block = fh.read(1 << 16)
                if not block:
                    at = size
                    break
                i = block.find(b"\n")
                if i >= 0:
                    at += i + 1
                    break
                at += len(block)
            if at >= size:
                break
            if at > cuts[-1]:
                cuts.append(at)
            target = max(at, target) + piece_size
    cuts.append(size)
    return cuts


def with_lines(pieces: list[Piece], newlines: dict[int, int]) -> list[Piece]:
    """The pieces with the line number of their first byte, from the newlines counted in each piece."""
    out, line, last_file = [], 1, -1
    for p in pieces:
        if p.file != last_file:
            line, last_file = 1, p.file
        out.append(replace(p, line=line) if p.line != line else p)
        line += newlines.get(p.piece, 0)
    return out
