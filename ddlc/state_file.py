"""The stream's history between runs: ``--state PATH`` (``ddlc translate``) and ``state=`` (library).

A CDC job translates each new batch of the log on its own, but some translations need the DDL of
earlier batches (an ADD PARTITION carries only its upper bound). :class:`History` loads the catalog
(:class:`ddlc.history.Catalog`) and the position the stream had reached from a JSON file at the
start of a run, and saves both at the end, atomically (a temporary file in the same directory,
flushed, then ``os.replace``): a run killed half-way leaves the previous state whole.

The format (``docs/state.md``) is versioned: ``{"format": "ddlc-state", "version": 1, ...}``. A
state written by a newer format version, or by a newer ddlc, is refused (:class:`StateError`,
``DDLC-E013``) rather than half understood.

Positions are transactional (:mod:`ddlc.frontend.txns`): the state keeps the position of the last
document it saw, the commit position of its transaction then its place in it. A document at or before
it (an input that overlaps what an earlier run translated) is already in the history: it is skipped,
and the run says so once. Documents without a position (plain JSON inputs) are never skipped. A
transaction the batch ended inside of is kept in the state (``held``) and translated by the batch that
holds its COMMIT.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import replace
from typing import Any

import orjson

from .version import __version__
from .diagnostics import E_STATE
from .errors import DdlcError
from .history import Catalog
from .frontend.streams_rows import format_lsn
from .frontend.txns import Position, Txns
from .history.state import PartitionState, RelationState, TableState
from .history.views import views_from_json, views_to_json
from .ir.alter_partitions import BoundText
from .ir.names import TypeName

FORMAT = "ddlc-state"
VERSION = 3

__all__ = ["History", "StateError", "FORMAT", "VERSION", "dump_catalog", "load_catalog"]


class StateError(DdlcError):
    """A state file that cannot be used (unreadable, not a ddlc state, or from a newer ddlc)."""

    def __init__(self, message: str, document: str | None = None) -> None:
        super().__init__(message, code=E_STATE, document=document)


def _version_tuple(v: str) -> tuple[int, ...]:
    out = []
    for part in v.split("."):
        digits = "".join(c for c in part if c.isdigit())
        if not digits:
            break
        out.append(int(digits))
    return tuple(out)


# ---- catalog <-> JSON ------------------------------------------------------------------------
def _bounds_out(texts: tuple[str, ...] | None) -> Any:
    if texts is None:
        return None
    # a text that carried its parsed value is re-parsed on load; a plain one stays plain
    return [str(t) if isinstance(t, BoundText) and t.parsed is not None else {"text": str(t)} for t in texts]


def _bounds_in(items: Any) -> tuple[str, ...] | None:
    if items is None:
        return None
    from .frontend.sql.partition import parse_bound_value

    out: list[str] = []
    for it in items:
        if isinstance(it, dict):
            out.append(str(it["text"]))
            continue
        try:
            out.append(BoundText(it, parse_bound_value(it)))
        except Exception:  # noqa: BLE001 - a text that no longer parses: kept as a plain text
            out.append(str(it))
    return tuple(out)


def _part_out(p: PartitionState) -> dict[str, Any]:
    return {"name": p.name, "upper": _bounds_out(p.upper), "values": _bounds_out(p.values),
            "home": list(p.home) if p.home is not None else None,
            "subpartitions": [_part_out(s) for s in p.subpartitions]}


def _part_in(d: dict[str, Any]) -> PartitionState:
    home = d.get("home")
    return PartitionState(d["name"], _bounds_in(d.get("upper")), _bounds_in(d.get("values")),
                          [_part_in(s) for s in d.get("subpartitions", ())],
                          (home[0], home[1]) if home is not None else None)


def _type_out(t: Any) -> dict[str, Any]:
    return {"name": t.name, "schema": t.schema, "typmod": t.typmod, "array": t.array}


def dump_catalog(cat: Catalog) -> dict[str, Any]:
    tables = [{"schema": k[0], "name": k[1], "strategy": t.strategy, "key": list(t.key),
               "sub_strategy": t.sub_strategy, "sub_key": list(t.sub_key),
               "partitions": [_part_out(p) for p in t.partitions]} for k, t in cat.tables.items()]
    relations = [{"schema": k[0], "name": k[1], "identity_column": r.identity_column,
                  "primary_key": r.primary_key, "columns": [[c, _type_out(t)] for c, t in r.columns.items()],
                  "created": r.created}
                 for k, r in cat.relations.items()]
    return {"tables": tables, "relations": relations, "views": views_to_json(cat.views)}


def load_catalog(d: dict[str, Any]) -> Catalog:
    cat = Catalog()
    for t in d.get("tables", ()):
        cat.tables[(t["schema"], t["name"])] = TableState(
            t["strategy"], tuple(t["key"]), [_part_in(p) for p in t["partitions"]], t.get("sub_strategy"),
            tuple(t.get("sub_key", ())))
    for r in d.get("relations", ()):
        rel = RelationState(r.get("identity_column"), r.get("primary_key"), created=bool(r.get("created")))
        for c, ty in r.get("columns", ()):
            rel.columns[c] = TypeName(ty["name"], ty.get("schema"), ty.get("typmod", ""), ty.get("array", False))
        cat.relations[(r["schema"], r["name"])] = rel
    if d.get("views"):
        from .frontend.sql.expr import make_query

        cat.views = views_from_json(d["views"], make_query)
    return cat


# ---- the run's history -------------------------------------------------------------------------
class History:
    """The catalog and the stream position a run starts from and saves at its end.

    ``last``: the position (:class:`~ddlc.frontend.txns.Position`, commit position then position in the
    transaction) of the last document the stream has been through; ``held``: the transaction the last
    batch ended inside of, ``(xid, documents)``, continued by the next batch (:meth:`txns`)."""

    __slots__ = ("catalog", "last", "xid", "held", "replayed", "migrated", "_start", "_start_xid")

    def __init__(self, catalog: Catalog | None = None, last: Position | None = None, xid: int | None = None,
                 held: tuple[int | None, list[Any]] | None = None) -> None:
        self.catalog = catalog if catalog is not None else Catalog()
        self.last, self.xid, self.held = last, xid, held
        self._start, self._start_xid = last, xid
        self.replayed = 0  # documents skipped as already seen
        self.migrated: str | None = None  # what loading an older state format did (said once by the run)

    # -- reading and writing --
    @classmethod
    def load(cls, path: str | os.PathLike[str], target: str | None = None) -> History:
        """The state saved at ``path``; an empty history when the file does not exist yet.

        ``target``: the catalog of that target when the state keeps one per target (``catalogs``,
        written by a run over several targets), else the state's one catalog."""
        name = os.fspath(path)
        try:
            with open(name, "rb") as fh:
                raw = fh.read()
        except FileNotFoundError:
            return cls()
        except OSError as exc:
            raise StateError(f"cannot read the state {name}: {exc.strerror or exc}", name) from None
        try:
            d = orjson.loads(raw)
        except orjson.JSONDecodeError as exc:
            raise StateError(f"the state {name} is not JSON: {exc}", name) from None
        return cls.from_json(d, name, target)

    @classmethod
    def from_json(cls, d: Any, name: str = "<state>", target: str | None = None) -> History:
        """The state a JSON value (as :meth:`to_json` gives it) holds; StateError when it cannot be used.
        A version 1 state (positions by change LSN) is migrated: its LSN becomes the commit position."""
        if not isinstance(d, dict) or d.get("format") != FORMAT or not isinstance(d.get("version"), int):
            raise StateError(f"{name} is not a ddlc state file (no \"format\": \"{FORMAT}\" with a version)", name)
        writer = str(d.get("ddlc", "0"))
        if d["version"] > VERSION or _version_tuple(writer) > _version_tuple(__version__):
            raise StateError(f"the state {name} was written by ddlc {writer} (state format {d['version']}); "
                             f"this is ddlc {__version__}, which reads state format {VERSION} at most: "
                             "upgrade ddlc to continue this stream", name)
        try:
            last = d.get("last") or {}
            per_target = d.get("catalogs") or {}
            catalog = per_target[target] if target in per_target else d.get("catalog", {})
            out = cls(load_catalog(catalog), None, last.get("xid"))
            if d["version"] == 1:
                lsn = _lsn_in(last.get("lsn"))
                if lsn is not None:
                    out.last = Position("lsn", lsn, max(int(last.get("at_lsn", 1)) - 1, 0))
                    out.migrated = (f"the state {name} is of format 1 (positions by change LSN): continued from LSN "
                                    f"{format_lsn(lsn)} as a commit position; it is saved in format {VERSION}")
            else:
                out.last = _position_in(last)
                out.held = _held_in(d.get("held"), name)
                if d["version"] == 2:
                    out.migrated = (f"the state {name} is of format 2 (no views): views are known from this run on, "
                                    f"tables created before it have none the history can name; it is saved in "
                                    f"format {VERSION}")
            out._start = out.last
            out._start_xid = out.xid
            return out
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise StateError(f"the state {name} is damaged: {type(exc).__name__}: {exc}", name) from None

    def to_json(self, catalogs: dict[str, Catalog] | None = None) -> dict[str, Any]:
        """The state as JSON; ``catalogs``: one catalog per target (a run over several targets, each
        of which records its own history), kept under ``"catalogs"`` besides the first as ``"catalog"``."""
        last = None
        if self.last is not None:
            p = self.last
            last = {"kind": p.kind, "commit": format_lsn(p.commit) if p.kind == "lsn" else p.commit, "seq": p.seq,
                    "xid": self.xid}
        out: dict[str, Any] = {"format": FORMAT, "version": VERSION, "ddlc": __version__, "last": last,
                               "held": _held_out(self.held), "catalog": dump_catalog(self.catalog)}
        if catalogs:
            out["catalogs"] = {t: dump_catalog(c) for t, c in sorted(catalogs.items())}
        return out

    def save(self, path: str | os.PathLike[str], catalogs: dict[str, Catalog] | None = None) -> None:
        """Write the state atomically: a temporary file next to ``path``, then ``os.replace``."""
        name = os.fspath(path)
        data = orjson.dumps(self.to_json(catalogs), option=orjson.OPT_INDENT_2) + b"\n"
        fd, tmp = tempfile.mkstemp(prefix=".ddlc-state-", dir=os.path.dirname(os.path.abspath(name)))
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, name)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise

    # -- the run --
    def txns(self) -> Txns:
        """The run's transactions: the one the state holds goes on, the one left open at the end is kept
        (:meth:`keep_open` after the run)."""
        return Txns(self.held, keep=True)

    def keep_open(self, txns: Txns) -> str | None:
        """After the run: keep the transaction it ended inside of (for the next batch); a note saying so."""
        self.held = txns.held
        if not self.held or not self.held[1]:
            return None
        xid, docs = self.held
        which = f"transaction {xid}" if xid is not None else "a transaction"
        n = len(docs)
        return (f"{which} has no COMMIT in this input: its {n} document{'s' if n != 1 else ''} "
                f"{'are' if n != 1 else 'is'} kept in the state and translated by the batch that holds its COMMIT")

    def seen(self, doc: Any) -> bool:
        """Is ``doc`` already in the history? Iff its position (commit position of its transaction, then
        its place in it) is at or before the one the state had reached."""
        pos, start = getattr(doc, "position", None), self._start
        if pos is None or start is None or pos.kind != start.kind or pos.key() > start.key():
            return False
        self.replayed += 1
        return True

    def replay_note(self, doc: Any) -> str:
        assert self._start is not None
        xid = f" (xid {self._start_xid})" if self._start_xid is not None else ""
        return (f"{doc.label}: replayed input: the state has seen the log up to commit {self._start.text()}{xid} "
                f"and this input starts at commit {doc.position.text()}; the documents the state has already "
                "seen are skipped")

    def advance(self, doc: Any) -> None:
        """Note that ``doc`` has been through the run (translated, failed or filtered)."""
        pos = getattr(doc, "position", None)
        if pos is None:
            return
        last = self.last
        if last is None or last.kind != pos.kind or pos.key() > last.key():
            self.last, self.xid = pos, getattr(doc, "xid", None)


def _position_in(last: dict[str, Any]) -> Position | None:
    if not last:
        return None
    kind = last["kind"]
    if kind == "lsn":
        commit = _lsn_in(last["commit"])
    elif kind == "csn" and isinstance(last["commit"], int):
        commit = last["commit"]
    else:
        raise ValueError(f"last.kind {kind!r} with commit {last.get('commit')!r} is no position")
    return Position(kind, commit, int(last.get("seq", 0)))  # type: ignore[arg-type]


def _held_out(held: tuple[int | None, list[Any]] | None) -> Any:
    if held is None:
        return None
    xid, docs = held
    return {"xid": xid, "documents": [_doc_out(d) for d in docs]}


def _doc_out(d: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"source": d.source, "label": d.label, "line": d.line,
                           "lsn": format_lsn(d.lsn) if d.lsn is not None else None, "xid": d.xid,
                           "meta": {k: v for k, v in d.meta.items() if isinstance(v, str | int | float | bool)}}
    if d.error is not None:
        out["error"] = {"message": d.error.message, "code": d.error.code, "path": list(d.error.path)}
    elif d.tree is not None:
        out["json"] = orjson.dumps({"JDDL": d.tree}, default=_exact).decode()
    else:
        out["json"] = orjson.dumps({"TDDL": d.tddl}).decode()
    return out


def _exact(v: Any) -> Any:
    from decimal import Decimal

    if isinstance(v, Decimal):
        return orjson.Fragment(str(v))
    raise TypeError(type(v).__name__)


def _held_in(held: Any, name: str) -> tuple[int | None, list[Any]] | None:
    if held is None:
        return None
    from .frontend.documents import Document, classify
    from .frontend.jsonload import load

    docs = []
    for i, d in enumerate(held["documents"]):
        meta = dict(d.get("meta") or {})
        lsn = _lsn_in(d.get("lsn"))
        if "error" in d:
            e = d["error"]
            err = DdlcError(str(e["message"]), code=str(e["code"]), path=tuple(e.get("path") or ()),
                            document=d["label"])
            doc = Document(i, d["source"], d["label"], int(d["line"]), error=err, meta=meta)
        else:
            value, suspect = load(str(d["json"]).encode("utf-8", "surrogatepass"))
            doc = classify(value, index=i, source=d["source"], label=d["label"], line=int(d["line"]), meta=meta,
                           check=suspect)
        docs.append(replace(doc, lsn=lsn, xid=d.get("xid")))
    return held.get("xid"), docs


def _lsn_in(v: Any) -> int | None:
    if v is None:
        return None
    from .frontend.streams_rows import parse_lsn

    lsn = parse_lsn(v)
    if lsn is None:
        raise ValueError(f"last.lsn {v!r} is not an LSN")
    return lsn
