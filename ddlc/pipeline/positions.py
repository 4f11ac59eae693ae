"""The driver's fold of stage 1's transaction marks: positions, decoding order and held transactions.

Stage 1 reads each piece on its own (a transaction may start in one piece and commit in the next, or
in the next input), so its readers fold nothing (:class:`ddlc.frontend.txns.Txns` with ``record``):
they hand out each piece's documents and transaction marks in the order read. The driver puts every
piece's documents and marks back in input order and runs the one fold ``ddlc translate`` runs
(:meth:`~ddlc.frontend.txns.Txns.feed`) over their keys, with the transaction a ``--state`` holds
from the last batch. Out come, per document, its position (commit position, place in the transaction),
its rank in decoding order (a transaction's documents where its COMMIT is: the order the CLI prints
them in), the documents that fail (``DDLC-E015``: no COMMIT, without a state), those dropped (their
transaction ended in ABORT) and those held for the next batch.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..records import record

__all__ = ["Folded", "fold", "Key"]


@record(frozen=True, slots=True)
class Key:
    """A document as the fold sees it (the document itself stays where stage 1 left it)."""

    index: int
    label: str
    piece: int
    seq: int
    lsn: int | None = None
    xid: int | None = None
    position: Any = None
    error: Any = None  # DdlcError when the document failed to read, or the fold failed it
    tree: Any = None
    tddl: Any = None
    doc: Any = None  # a document the state held (it has no stage-1 row)


@record(slots=True)
class Folded:
    rank: dict[tuple[int, int], int]  # (piece, seq) -> place in decoding order
    position: dict[tuple[int, int], Any]
    failed: dict[tuple[int, int], Any]  # (piece, seq) -> the DdlcError the fold gave it (E015)
    dropped: int  # documents of transactions that ended in ABORT
    held: list[tuple[int, int]]  # documents kept for the next batch (a state continues them)
    held_xid: int | None
    injected: list[tuple[tuple[int, int], Any]]  # (key, Document) the state held, now committed
    open_at_end: bool = False  # the run ended inside a transaction (with or without DDL so far)


def fold(docs: Iterable[dict[str, Any]], marks: Iterable[dict[str, Any]], held: Any = None,
         keep: bool = False) -> Folded:
    """``docs``/``marks``: stage 1's rows (``piece``, ``seq``; marks with ``mark``, ``xid``, ``commit_kind``,
    ``commit``); ``held``: the state's ``(xid, documents)``; ``keep``: hold the transaction left open."""
    from ..frontend.txns import TxnMark, Txns

    items: list[tuple[tuple[int, int], Any]] = []
    for r in docs:
        lsn = (r["lsn_hi"] << 32 | r["lsn_lo"]) if r["lsn"] is not None else None  # (stage 1: the change LSN)
        items.append(((r["piece"], r["seq"]), Key(0, r["label"], r["piece"], r["seq"], lsn, r["xid"])))
    for r in marks:
        commit = (r["commit_kind"], r["commit"]) if r["commit_kind"] is not None else None
        items.append(((r["piece"], r["seq"]), TxnMark(r["mark"], r["xid"], commit)))
    items.sort(key=lambda kv: kv[0])
    state_docs = []
    if held is not None:
        xid, hdocs = held
        state_docs = [Key(0, d.label, -1, i, d.lsn, d.xid, error=d.error, doc=d) for i, d in enumerate(hdocs)]
        held = (xid, state_docs)
    dropped = [0]

    def drop() -> None:
        dropped[0] += 1

    txns = Txns(held, keep=keep, dropped=drop)
    out = Folded({}, {}, {}, 0, [], None, [])
    for rank, k in enumerate(txns.feed(v for _, v in items)):
        key = (k.piece, k.seq)
        out.rank[key] = rank
        out.position[key] = k.position
        if k.doc is None and k.error is not None and _ours(k.error):
            out.failed[key] = k.error
        if k.doc is not None:
            out.injected.append((key, _with(k.doc, k)))
    out.dropped = dropped[0]
    if txns.held is not None:
        out.held_xid, kept = txns.held
        out.held = [(k.piece, k.seq) for k in kept]
        out.open_at_end = True
    return out


def _ours(error: Any) -> bool:
    from ..diagnostics import E_UNCOMMITTED

    return getattr(error, "code", None) == E_UNCOMMITTED


def _with(doc: Any, k: Key) -> Any:
    """A document the state held, with what the fold decided (its position, or its error)."""
    from dataclasses import replace

    if k.error is not None and doc.error is None:
        return replace(doc, tree=None, tddl=None, error=k.error, position=k.position)
    return replace(doc, position=k.position, xid=k.xid if doc.xid is None else doc.xid)
