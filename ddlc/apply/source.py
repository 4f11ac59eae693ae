"""The log as source transactions: the documents of the run driver grouped by the transaction they came in.

``ddlc apply`` translates through :class:`ddlc.session.Session`, exactly as ``ddlc translate`` does (the
reading, the filters, the stream's history, ``--state``), and groups the documents by their transaction:
documents with a position (:class:`ddlc.frontend.txns.Position`) belong to the transaction of their commit
position; a document without one (a plain JSON input) is a transaction of its own, at its place in the
input (kind ``"order"``: resuming such an input needs the same input again).

Each :class:`SourceTxn` carries the statements to run, the documents it came from, and the objects its
statements touch: :func:`ddlc.pipeline.groups.links_and_front`, the names the pipeline's grouping reads
from each built statement (one build per document: the driver is handed it).
"""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

from ..diagnostics import E_UNCOMMITTED
from ..frontend.txns import Position
from ..pipeline.groups import EVERYTHING, links_and_front, sch

__all__ = ["SourceTxn", "source_txns", "position_of", "overlaps", "ORDER"]

ORDER = "order"  # the position kind of a document without one: its place in the run's input


class SourceTxn:
    """One source transaction: its position, statements, documents and the objects it touches."""

    __slots__ = ("kind", "commit", "seq", "xid", "labels", "statements", "links", "error", "notes",
                 "incomplete", "first", "state_seen")

    def __init__(self, kind: str, commit: int, xid: int | None) -> None:
        self.kind, self.commit, self.seq, self.xid = kind, commit, 0, xid
        self.labels: list[str] = []
        self.statements: list[str] = []
        self.links: set[str] = set()
        self.error: str | None = None  # a document that did not translate (the whole transaction fails)
        self.notes: list[str] = []  # statements not translated (--on-unsupported comment/skip), filtered ones
        self.incomplete = False  # its COMMIT is not in the input: not applied by this run
        self.state_seen = False  # the --state had already seen (some of) its documents: not translated
        self.first: Any = None  # a document of it, for History.seen

    @property
    def position(self) -> Position:
        """The position of its last document (what the progress row records)."""
        return Position(self.kind, self.commit, self.seq)

    def text(self) -> str:
        if self.kind == ORDER:
            return f"document {self.commit} of the input"
        return Position(self.kind, self.commit, 0).text().rsplit(" #", 1)[0]

    def key(self) -> tuple[str, int]:
        return (self.kind, self.commit)


def position_of(doc: Any) -> Position:
    """A document's position, or its place in the input when it has none (kind ``"order"``)."""
    pos = getattr(doc, "position", None)
    return pos if pos is not None else Position(ORDER, doc.index, 0)


def source_txns(session: Any, docs: Any, options: Any, tally: Any = None) -> Iterator[SourceTxn]:
    """The source transactions of ``docs`` (a DocumentStream), in commit order, translated by ``session``.

    A document the ``--state`` had already seen is counted (``tally.state_seen``) and left out."""
    from ..api import translation

    backend = session.backends[0]
    cur: SourceTxn | None = None
    for doc in docs:
        pos = position_of(doc)
        if cur is not None and (cur.kind, cur.commit) != (pos.kind, pos.commit):
            yield cur
            cur = None
        if cur is None:
            cur = SourceTxn(pos.kind, pos.commit, getattr(doc, "xid", None))
            cur.first = SimpleNamespace(position=pos, xid=getattr(doc, "xid", None), label=doc.label)
        cur.seq = max(cur.seq, pos.seq)
        cur.labels.append(doc.label)
        if doc.error is not None and doc.error.code == E_UNCOMMITTED:
            cur.incomplete = True
            continue
        links, fronted = links_and_front(doc, options)
        results = session.translate(doc, fronted)
        if results is None:  # the --state had already seen it
            if tally is not None:
                tally.state_seen += 1
            cur.state_seen = True
            continue
        t = translation(doc, backend, results[0])
        cur.links.update(links)
        if t.error is not None:
            cur.error = str(t.error) if cur.error is None else cur.error
            continue
        if t.filtered is not None:
            continue
        if t.untranslated:
            cur.notes.append(f"{doc.label}: statement not translated to {backend.name}: not applied")
        cur.statements.extend(t.statements)
    if cur is not None:
        yield cur


def overlaps(a: Any, b: Any) -> bool:
    """Do two sets of links (:func:`ddlc.pipeline.groups.links_of`) name a common object? A whole schema
    names every relation in it; ``EVERYTHING`` (DROP DATABASE) names all."""
    if not a or not b:
        return False
    if EVERYTHING in a or EVERYTHING in b:
        return True
    if not a.isdisjoint(b):
        return True
    for x, other in ((a, b), (b, a)):
        for link in x:
            if link.startswith("r\0") and sch(link.split("\0")[1]) in other:
                return True
    return False
