"""The stream's history between runs: ``--state PATH`` (``ddlc translate``) and ``state=`` (library).

A CDC job translates each new batch of the log on its own, but some translations need the DDL of
earlier batches (an ADD PARTITION carries only its upper bound). :class:`History` loads the catalog
(:class:`ddlc.history.Catalog`) and the position the stream had reached from a JSON file at the
start of a run, and saves both at the end, atomically (a temporary file in the same directory,
flushed, then ``os.replace``): a run killed half-way leaves the previous state whole.

The format (``docs/state.md``) is versioned: ``{"format": "ddlc-state", "version": 1, ...}``. A
state written by a newer format version, or by a newer ddlc, is refused (:class:`StateError`,
``DDLC-E013``) rather than half understood.

Replayed input: the state keeps the LSN of the last document it saw (and how many documents at
that LSN). A document at or before it (an input that overlaps what an earlier run translated) is
already in the history: it is skipped, and the run says so once. Documents without an LSN (plain
JSON inputs) are never skipped.
"""

from __future__ import annotations

import os
import tempfile
from typing import Any

import orjson

from .version import __version__
from .diagnostics import E_STATE
from .errors import DdlcError
from .history import Catalog
from .history.state import PartitionState, RelationState, TableState
from .ir.alter_partitions import BoundText
from .ir.names import TypeName

FORMAT = "ddlc-state"
VERSION = 1

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
                  "primary_key": r.primary_key, "columns": [[c, _type_out(t)] for c, t in r.columns.items()]}
                 for k, r in cat.relations.items()]
    return {"tables": tables, "relations": relations}


def load_catalog(d: dict[str, Any]) -> Catalog:
    cat = Catalog()
    for t in d.get("tables", ()):
        cat.tables[(t["schema"], t["name"])] = TableState(
            t["strategy"], tuple(t["key"]), [_part_in(p) for p in t["partitions"]], t.get("sub_strategy"),
            tuple(t.get("sub_key", ())))
    for r in d.get("relations", ()):
        rel = RelationState(r.get("identity_column"), r.get("primary_key"))
        for c, ty in r.get("columns", ()):
            rel.columns[c] = TypeName(ty["name"], ty.get("schema"), ty.get("typmod", ""), ty.get("array", False))
        cat.relations[(r["schema"], r["name"])] = rel
    return cat


# ---- the run's history -------------------------------------------------------------------------
class History:
    """The catalog and the stream position a run starts from and saves at its end."""

    __slots__ = ("catalog", "lsn", "xid", "at_lsn", "replayed", "_skip_at_lsn", "_start_lsn", "_start_xid")

    def __init__(self, catalog: Catalog | None = None, lsn: int | None = None, xid: int | None = None,
                 at_lsn: int = 0) -> None:
        self.catalog = catalog if catalog is not None else Catalog()
        self.lsn, self.xid, self.at_lsn = lsn, xid, at_lsn
        self._start_lsn, self._start_xid = lsn, xid
        self._skip_at_lsn = at_lsn  # documents at exactly the saved LSN still to skip
        self.replayed = 0  # documents skipped as already seen

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
        """The state a JSON value (as :meth:`to_json` gives it) holds; StateError when it cannot be used."""
        if not isinstance(d, dict) or d.get("format") != FORMAT or not isinstance(d.get("version"), int):
            raise StateError(f"{name} is not a ddlc state file (no \"format\": \"{FORMAT}\" with a version)", name)
        writer = str(d.get("ddlc", "0"))
        if d["version"] > VERSION or _version_tuple(writer) > _version_tuple(__version__):
            raise StateError(f"the state {name} was written by ddlc {writer} (state format {d['version']}); "
                             f"this is ddlc {__version__}, which reads state format {VERSION} at most: "
                             "upgrade ddlc to continue this stream", name)
        try:
            last = d.get("last") or {}
            lsn = last.get("lsn")
            per_target = d.get("catalogs") or {}
            catalog = per_target[target] if target in per_target else d.get("catalog", {})
            return cls(load_catalog(catalog), _lsn_in(lsn), last.get("xid"), int(last.get("at_lsn", 0)))
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise StateError(f"the state {name} is damaged: {type(exc).__name__}: {exc}", name) from None

    def to_json(self, catalogs: dict[str, Catalog] | None = None) -> dict[str, Any]:
        """The state as JSON; ``catalogs``: one catalog per target (a run over several targets, each
        of which records its own history), kept under ``"catalogs"`` besides the first as ``"catalog"``."""
        from .frontend.streams_rows import format_lsn

        last = None if self.lsn is None else {"lsn": format_lsn(self.lsn), "xid": self.xid, "at_lsn": self.at_lsn}
        out = {"format": FORMAT, "version": VERSION, "ddlc": __version__, "last": last,
               "catalog": dump_catalog(self.catalog)}
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
    def seen(self, doc: Any) -> bool:
        """Is ``doc`` already in the history (at or before the LSN the state had reached)?"""
        lsn = getattr(doc, "lsn", None)
        if lsn is None or self._start_lsn is None or lsn > self._start_lsn:
            return False
        if lsn == self._start_lsn:
            if self._skip_at_lsn <= 0:
                return False
            self._skip_at_lsn -= 1
        self.replayed += 1
        return True

    def replay_note(self, doc: Any) -> str:
        from .frontend.streams_rows import format_lsn

        assert self._start_lsn is not None
        xid = f" (xid {self._start_xid})" if self._start_xid is not None else ""
        return (f"{doc.label}: replayed input: the state has seen the log up to LSN {format_lsn(self._start_lsn)}"
                f"{xid} and this input starts at LSN {format_lsn(doc.lsn)}; the documents the state has already "
                "seen are skipped")

    def advance(self, doc: Any) -> None:
        """Note that ``doc`` has been through the run (translated, failed or filtered)."""
        lsn = getattr(doc, "lsn", None)
        if lsn is None:
            return
        if self.lsn is None or lsn > self.lsn:
            self.lsn, self.at_lsn = lsn, 1
        elif lsn == self.lsn:
            self.at_lsn += 1
        else:
            return
        self.xid = getattr(doc, "xid", None)


def _lsn_in(v: Any) -> int | None:
    if v is None:
        return None
    from .frontend.streams_rows import parse_lsn

    lsn = parse_lsn(v)
    if lsn is None:
        raise ValueError(f"last.lsn {v!r} is not an LSN")
    return lsn
