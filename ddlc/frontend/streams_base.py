"""What the decoding readers hand out (:class:`Record`, :class:`Skipped`) and the helpers they share.

:mod:`.streams_text` reads decoding text, :mod:`.streams_batch` parallel batch framing; both yield
a :class:`Record` per DDL message and an error in place of a damaged one, and pass every line or
frame they cannot place to a ``skip`` callback as a :class:`Skipped`, so that nothing is dropped
without a trace (the CLI counts them in its summary line and prints them with ``-v``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..records import record
from ..diagnostics import E_INPUT
from ..errors import DdlcError

__all__ = ["Record", "Skipped", "SkipFn", "excerpt", "no_count", "no_skip"]


@record(frozen=True, slots=True)
class Record:
    """One DDL message found in a decoding stream."""

    line: int  # 1-based line number (text streams), 0 for binary frames
    offset: int  # byte offset of the line or frame in the input
    payload: str  # JSON text (tree or JDDL/TDDL envelope), or plain TDDL SQL text
    kind: str  # "json" or "text"
    meta: Mapping[str, object]  # format, relid, cmdtype, lsn, xid, commit info, owner, ...


@record(frozen=True, slots=True)
class Skipped:
    """A line (or batch frame) that is neither a row the reader knows nor part of one."""

    source: str
    line: int  # 1-based line number; 0 for a batch frame
    offset: int  # byte offset in the input
    excerpt: str  # its first characters, quoted and escaped (see :func:`excerpt`)

    def __str__(self) -> str:
        if self.line:
            return f"{self.source}:{self.line}: line not recognised (byte {self.offset}): {self.excerpt}"
        return f"{self.source}@{self.offset}: frame not recognised: {self.excerpt}"


SkipFn = Callable[[Skipped], None]


def no_skip(_: Skipped) -> None:
    """The default ``skip`` callback: the line is left as it is."""


def no_count() -> None:
    """The default ``dml`` callback of the readers: DML and transaction rows are not counted."""


def excerpt(raw: bytes | str, limit: int = 60) -> str:
    """The start of ``raw`` as a one-line, double-quoted string that is safe to print anywhere.

    Invalid UTF-8 becomes ``\\xNN``; every character a terminal could act on (controls, escape
    sequences, bidirectional and zero-width formatting characters, lone surrogates) is written as
    an escape."""
    raw_bytes = not isinstance(raw, str)
    text = raw[:limit * 4].decode("utf-8", "surrogateescape") if raw_bytes else raw[:limit * 4]  # type: ignore[union-attr]
    out = []
    for ch in text[:limit]:
        o = ord(ch)
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif ch.isprintable():
            out.append(ch)
        elif raw_bytes and 0xDC80 <= o <= 0xDCFF:  # a byte that is not UTF-8
            out.append(f"\\x{o - 0xDC00:02x}")
        else:
            out.append(f"\\x{o:02x}" if o < 0x100 else f"\\u{o:04x}" if o < 0x10000 else f"\\U{o:08x}")
    more = "..." if len(text) > limit or len(raw) > limit * 4 else ""
    return '"' + "".join(out) + '"' + more


def err(message: str, document: str, position: int) -> DdlcError:
    return DdlcError(message, code=E_INPUT, document=document, position=position)


def decode(raw: bytes, document: str, position: int) -> str | DdlcError:
    """``raw`` as text; invalid UTF-8 and NUL (which no target can write) are errors."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return err(f"payload is not valid UTF-8 ({exc.reason} at byte {exc.start} of the payload)",
                   document, position + exc.start)
    nul = text.find("\0")
    if nul >= 0:
        at = len(text[:nul].encode("utf-8"))
        return err(f"payload holds a NUL byte (at byte {at} of the payload)", document, position + at)
    return text


def json_ddl(payload: bytes) -> bool | None:
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


DDL_VERBS = (b"CREATE", b"ALTER", b"DROP", b"COMMENT", b"TRUNCATE", b"REINDEX", b"RENAME", b"REFRESH")


def ddl_text(payload: bytes) -> bool:
    head = payload.lstrip()[:9].upper()
    return any(head.startswith(v) and (len(head) == len(v) or head[len(v)] in b" \t\r\n(")
               for v in DDL_VERBS)
