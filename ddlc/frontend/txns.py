"""Stream positions by commit: the one place that decides where a document sits in its stream.

Logical decoding emits transactions whole and in commit order, and a row's LSN is the LSN of *its
own change*: a transaction that started first and committed last carries change LSNs below those of
transactions emitted before it (``../shared/reference/decoding-positions.md``). So a document's
position is the pair **(commit position of its transaction, position in the transaction)**
(:class:`Position`), as PostgreSQL's replication origins and Debezium's offsets keep it.

The decoding readers hand out, in input order, documents and transaction marks (:class:`TxnMark`:
BEGIN, COMMIT with the commit position its reader found, ABORT). :class:`Txns` folds them:

* a document inside a transaction is held until its COMMIT; then each one gets
  ``Position(kind, commit, i)`` (``kind``: ``"lsn"`` for rows files and batch framing, whose COMMIT
  carries the commit LSN; ``"csn"`` for decoding text, whose COMMIT line carries the CSN; no position
  when the COMMIT carries neither);
* a document outside any transaction (an input without framing: JDDL files, JSON lines, rows whose
  BEGIN/COMMIT rows were filtered out) is handed out at once; with an LSN it counts as a transaction
  of its own at that LSN (the best such an input allows), else it has no position;
* a transaction whose COMMIT is not in the input is **held**: not handed out. With a state
  (``--state``) it is kept there (:attr:`Txns.held`) and the next batch, which starts with the rest of
  that transaction and its COMMIT, continues it; without one, each of its documents is an error
  (``DDLC-E015``): it is not translated, and the run says so.

Nothing else in ddlc decides what a position is; :meth:`ddlc.state_file.History.seen` compares them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import Any

from ..records import record

__all__ = ["Position", "TxnMark", "Txns", "BEGIN", "COMMIT", "ABORT"]

BEGIN, COMMIT, ABORT = 1, 2, 3


@record(frozen=True, slots=True)
class Position:
    """Where a document sits in its stream: its transaction's commit position, then its place in it."""

    kind: str  # "lsn" (a commit LSN) or "csn" (a commit sequence number)
    commit: int
    seq: int = 0  # 0-based position of the document among its transaction's documents

    def key(self) -> tuple[int, int]:
        return (self.commit, self.seq)

    def text(self) -> str:
        c = self.commit
        at = f"{c >> 32:X}/{c & 0xFFFFFFFF:X}" if self.kind == "lsn" else f"CSN {c}"
        return f"{at} #{self.seq}"


@record(frozen=True, slots=True)
class TxnMark:
    """A transaction boundary a decoding reader met (never a document)."""

    kind: int  # BEGIN, COMMIT or ABORT
    xid: int | None = None
    commit: tuple[str, int] | None = None  # COMMIT: ("lsn", commit LSN) or ("csn", CSN), when the row has one


class Txns:
    """The fold of documents and marks into positioned documents (see the module's docstring).

    ``held``: a transaction an earlier batch left open, as ``(xid, documents)``; ``keep``: keep the
    transaction left open at the end in :attr:`held` (a state will save it) instead of failing its
    documents. ``dropped`` is told of each document of a transaction that ended in ABORT."""

    __slots__ = ("open", "xid", "keep", "held", "dropped", "record", "_lsn", "_at")

    def __init__(self, held: tuple[int | None, list[Any]] | None = None, keep: bool = False,
                 dropped: Callable[[], None] | None = None, record: bool = False) -> None:
        # (a held transaction may have no document yet: its DDL may come in this batch, before its COMMIT)
        self.open: list[Any] | None = list(held[1]) if held is not None else None
        self.xid: int | None = held[0] if held is not None else None
        self.keep = keep
        self.held: tuple[int | None, list[Any]] | None = None  # at the end: the transaction left open
        self.dropped = dropped
        # record: hand out documents and marks as read, folding nothing (a piece of a file, which the
        # pipeline's driver folds with the pieces around it)
        self.record = record
        self._lsn, self._at = -1, 0  # unframed documents: the last LSN and how many were at it

    def feed(self, items: Iterable[Any], is_mark: Callable[[Any], bool] | None = None) -> Iterator[Any]:
        """The documents of ``items`` (documents and :class:`TxnMark`), positioned, as they are ready;
        at the end, the documents of a transaction left open (see ``keep``)."""
        if self.record:
            yield from items
            return
        mark = TxnMark
        for item in items:
            if type(item) is mark:
                yield from self._mark(item)
            elif self.open is not None:
                self.open.append(item)
            else:
                yield self._unframed(item)
        yield from self.finish()

    def _mark(self, m: TxnMark) -> Iterator[Any]:
        if m.kind == COMMIT:
            if self.open is None:
                return  # a transaction with no document (or one an earlier batch handed out unframed)
            docs, xid = self.open, self.xid
            self.open, self.xid = None, None
            if m.xid is not None and xid is not None and m.xid != xid:
                yield from _uncommitted(docs, xid, f"the next COMMIT is that of transaction {m.xid}")
                return
            for i, d in enumerate(docs):
                yield _at(d, Position(m.commit[0], m.commit[1], i) if m.commit is not None else None, m.xid)
        elif m.kind == BEGIN:
            if self.open:
                docs, xid = self.open, self.xid
                yield from _uncommitted(docs, xid, "the next transaction begins before its COMMIT"
                                        + (f" (xid {m.xid})" if m.xid is not None else ""))
            self.open, self.xid = [], m.xid
        else:  # ABORT: the transaction never happened
            if self.open and self.dropped is not None:
                for _ in self.open:
                    self.dropped()
            self.open, self.xid = None, None

    def _unframed(self, doc: Any) -> Any:
        lsn = getattr(doc, "lsn", None)
        if lsn is None:
            return doc
        if lsn == self._lsn:
            self._at += 1
        else:
            self._lsn, self._at = lsn, 0
        return replace(doc, position=Position("lsn", lsn, self._at))

    def finish(self) -> Iterator[Any]:
        """The end of the run: the transaction still open is held (``keep``) or its documents fail."""
        docs, xid = self.open, self.xid
        self.open, self.xid = None, None
        if docs is None:
            return
        if self.keep:
            self.held = (xid, docs)
            return
        yield from _uncommitted(docs, xid, "its COMMIT is not in the input (with --state it is kept, and "
                                "the batch that holds its COMMIT translates it)")


def _at(doc: Any, position: Position | None, xid: int | None) -> Any:
    if doc.error is not None and doc.position is None and position is None:
        return doc
    changes: dict[str, Any] = {"position": position}
    if doc.xid is None and xid is not None:
        changes["xid"] = xid
    return replace(doc, **changes)


def _uncommitted(docs: list[Any], xid: int | None, why: str) -> Iterator[Any]:
    from ..diagnostics import E_UNCOMMITTED
    from ..errors import DdlcError

    which = f"transaction {xid}" if xid is not None else "its transaction"
    for d in docs:
        if d.error is not None:
            yield d
            continue
        err = DdlcError(f"not translated: {which} has no COMMIT: {why}", code=E_UNCOMMITTED, document=d.label)
        yield replace(d, tree=None, tddl=None, error=err)
