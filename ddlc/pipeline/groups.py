"""Stage 2 in parallel and still exact: one target's documents cut into groups that share no object.

A document's translation depends on the stream's history only through the catalog
(:class:`ddlc.history.Catalog`), whose entries are keyed by (schema, name) and which a statement
reads and changes only at the names it carries (a table, its new name or schema) or, for a schema
statement, at every entry of a schema. So documents that name disjoint sets of objects cannot see
each other's history: each such group may be translated on its own, in log order, by another task,
and gives what one task translating everything in log order gives. The names are read from the
built statement (stage 1 builds every document once for this: :func:`links_of`), over-approximated
where in doubt: every name in the statement and in its parsed SQL counts, an unqualified name counts
in the default schema and under its mapped name, a rename or ``SET SCHEMA`` counts both names, a
schema statement counts the whole schema (every relation of it), ``DROP DATABASE`` everything. A
document that does not build links nothing (it fails without touching the catalog).

The driver then (:func:`plan_groups`) joins the links with union-find, packs the groups into as
many buckets as Spark has cores (largest first), and settles what must stay global: which
documents a ``--state`` has already seen and the stream position the run ends at (the replay of
:meth:`ddlc.state_file.History.seen`/``advance`` over all documents in log order). Each bucket's
task keeps a catalog of its own and hands back only the entries it owns (:func:`owned_catalog`);
:func:`merge_catalogs` puts the target's catalog back together.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from types import SimpleNamespace
from typing import Any

from ..records import record

__all__ = ["EVERYTHING", "GroupPlan", "links_of", "links_and_front", "rel", "sch", "plan_groups", "part_key", "owned_catalog", "merge_catalogs"]

EVERYTHING = "\0*"  # the link of a statement that may touch any schema (DROP DATABASE)


# ---- stage 1: the catalog names a document's statement may touch ----------------------------------
def rel(schema: str, name: str) -> str:
    """The link of a relation (any object named ``schema.name``)."""
    return f"r\0{schema}\0{name}"


def sch(schema: str) -> str:
    """The link of a whole schema (every relation in it, also those only the loaded state knows)."""
    return f"s\0{schema}"


def links_of(doc: Any, options: Any) -> list[str]:
    """The names ``doc``'s statement may touch in the catalog (see the module docstring), sorted; []
    when it does not build."""
    return links_and_front(doc, options)[0]


def links_and_front(doc: Any, options: Any) -> tuple[list[str], Any]:
    """:func:`links_of`, and the document as :func:`ddlc.compiler.front` built it with ``options``
    (stage 2 takes it instead of building again; None when it was built otherwise or does not build)."""
    from ..compiler import front

    fronted = None
    if getattr(options, "validate", False):  # the names are what matters here, not the grammar
        options = dataclasses.replace(options, validate=False)
        fronted = False  # (built without the validation stage 2 runs: not handed on)
    try:
        f = front(doc, options)
    except Exception:  # noqa: BLE001 - it fails in stage 2 too, where it is reported; no catalog change
        return [], None
    stmt = f.stmt
    fronted = f if fronted is None else None
    w = _Links(getattr(options, "default_schema", "public"), dict(getattr(options, "schema_map", ()) or ()))
    w.walk(stmt, 0)
    for name in ("identity", "name", "table", "relation"):  # a statement on a system schema's object itself
        q = getattr(stmt, name, None)
        if getattr(q, "schema", None) in _SYSTEM:
            w.found.add(EVERYTHING)
    return sorted(w.found), fronted


_TYPES: Any = None
_SYSTEM = frozenset({"pg_catalog", "information_schema"})  # DDL in a log never creates relations there
_SCHEMA_STATEMENT_NAMES = frozenset({"name", "identity", "new_name"})  # the schema names of a schema statement
_FIELDS: dict[type, tuple[tuple[str, ...], bool]] = {}


def _types() -> Any:
    global _TYPES
    if _TYPES is None:
        from ..ir.drop import SchemaName
        from ..ir.misc import DropDatabase
        from ..ir.names import Expr, NameRef, QualifiedName, TypeName
        from ..ir.base import Node, fields
        from ..ir.rename import SetSchema

        _TYPES = SimpleNamespace(SchemaName=SchemaName, DropDatabase=DropDatabase, Expr=Expr, NameRef=NameRef,
                                 QualifiedName=QualifiedName, TypeName=TypeName, SetSchema=SetSchema, Node=Node,
                                 fields=fields)
    return _TYPES


def _fields_of(cls: type) -> tuple[tuple[str, ...], bool]:
    """The field names of a node class, and whether it is a schema statement (its strings name schemas)."""
    hit = _FIELDS.get(cls)
    if hit is None:
        t = _types()
        names = t.fields(cls) if issubclass(cls, t.Node) else tuple(f.name for f in dataclasses.fields(cls))
        hit = _FIELDS[cls] = (names,
                              "Schema" in cls.__name__ and not issubclass(cls, t.SetSchema))
    return hit


class _Links:
    __slots__ = ("default", "mapping", "found", "t")

    def __init__(self, default: str, mapping: dict[str, str]) -> None:
        self.default, self.mapping, self.found, self.t = default, mapping, set(), _types()

    def _schemas(self, schema: str | None) -> tuple[str, ...]:
        s = schema if schema is not None else self.default
        m = self.mapping.get(s)
        return (s,) if m is None or m == s else (s, m)

    def rel(self, schema: str | None, name: str) -> None:
        if schema in _SYSTEM:  # a built-in (collation, operator class, type): never a catalog entry
            return
        for s in self._schemas(schema):
            self.found.add(rel(s, name))

    def sch(self, schema: str) -> None:
        for s in self._schemas(schema):
            self.found.add(sch(s))

    def walk(self, v: Any, depth: int) -> None:
        t = self.t
        if depth > 200:  # a pathological tree: assume the worst
            self.found.add(EVERYTHING)
            return
        if isinstance(v, t.QualifiedName | t.NameRef):
            self.rel(v.schema, v.name)
            return
        if isinstance(v, tuple | list | frozenset | set):
            for x in v:
                if x is not None and not isinstance(x, str | int | float | bytes):
                    self.walk(x, depth + 1)
            return
        if isinstance(v, t.SchemaName):
            self.sch(v.name)
            return
        if isinstance(v, t.TypeName):  # the catalog keeps types as values, never as keys
            return
        if isinstance(v, t.DropDatabase):
            self.found.add(EVERYTHING)
            return
        if isinstance(v, t.Expr):
            sql = v.sql
            for r in (sql.refs or ()) if sql is not None else ():
                self.rel(r.schema, r.name)
            return
        if isinstance(v, type) or not (isinstance(v, t.Node) or hasattr(v, "__dataclass_fields__")):
            return
        names, whole_schema = _fields_of(type(v))
        for name in names:
            x = getattr(v, name, None)
            if x is None or isinstance(x, int | float | bytes):
                continue
            if isinstance(x, str):
                if name in ("schema", "new_schema") or (whole_schema and name in _SCHEMA_STATEMENT_NAMES):
                    self.sch(x)
            else:
                self.walk(x, depth + 1)
        ident = getattr(v, "identity", None)
        if isinstance(ident, t.QualifiedName):  # where a rename or SET SCHEMA moves it to
            new_name = getattr(v, "new_name", None)
            if isinstance(new_name, str):
                self.rel(ident.schema, new_name)
            if isinstance(v, t.SetSchema):
                self.rel(v.new_schema, ident.name)


# ---- the driver: groups, buckets, and what stays global ------------------------------------------
@record(frozen=True, slots=True)
class GroupPlan:
    """Where each document goes: ``bucket[(piece, seq)]``; ``seen``: the documents a state had
    already seen; ``owned[b]``: the schemas bucket ``b`` owns; ``position``: the stream position
    (lsn, xid, at_lsn) after the run, None without a state."""

    buckets: int
    bucket: dict[tuple[int, int], int]
    seen: frozenset[tuple[int, int]]
    owned: tuple[frozenset[str], ...]
    groups: int
    position: tuple[Any, int | None] | None  # (Position, xid) after the run
    held: Any = None  # (xid, documents) of the transaction the run ended inside of (run._held_documents)
    folded: Any = None  # .positions.Folded


def plan_groups(keys: Iterable[dict[str, Any]], buckets: int, history: Any = None) -> GroupPlan:
    """``keys``: one row per document (piece, seq, file, lsn_hi, lsn_lo, lsn, xid, label, links)."""
    rows = sorted(keys, key=lambda r: (r["lsn_hi"], r["lsn_lo"], r["file"], r["piece"], r["seq"]))  # log order
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        root = x
        while parent.setdefault(root, root) != root:
            root = parent[root]
        while parent[x] != root:
            parent[x], x = root, parent[x]
        return root

    def union(x: str, y: str) -> None:
        a, b = find(x), find(y)
        if a != b:
            parent[max(a, b)] = min(a, b)

    everything = any(EVERYTHING in (r["links"] or ()) for r in rows)
    for r in rows:
        links = r["links"] or ()
        for x in links:
            find(x)
        for other in links[1:]:
            union(links[0], other)
    for x in list(parent):  # a whole schema joins every relation of it the run names
        if x.startswith("r\0"):
            s = sch(x.split("\0")[1])
            if s in parent:
                union(s, x)
    # a group: the root of its schemas, or the document itself when it names none
    weight: dict[Any, int] = {}
    first: dict[Any, int] = {}
    doc_group: list[Any] = []
    for i, r in enumerate(rows):
        links = r["links"] or ()
        g: Any = ("", "*") if everything else (("s", find(links[0])) if links else ("d", i))
        doc_group.append(g)
        weight[g] = weight.get(g, 0) + 1
        first.setdefault(g, i)
    n = max(1, min(buckets, len(weight)))
    load = [0] * n
    where: dict[Any, int] = {}
    for g in sorted(weight, key=lambda g: (-weight[g], first[g])):
        b = min(range(n), key=lambda k: (load[k], k))
        where[g] = b
        load[b] += weight[g]
    owned: list[set[str]] = [set() for _ in range(n)]
    if everything:
        owned[0].add(EVERYTHING)
    for x in parent:
        g = ("", "*") if everything else ("s", find(x))
        if g in where:
            owned[where[g]].add(x)
    bucket = {(r["piece"], r["seq"]): where[g] for r, g in zip(rows, doc_group)}
    seen: set[tuple[int, int]] = set()
    position = None
    if history is not None:
        for r in rows:  # (in decoding order: lsn_hi is the rank .positions gave)
            doc = SimpleNamespace(position=r.get("position"), xid=r["xid"], label=r["label"])
            if history.seen(doc):
                seen.add((r["piece"], r["seq"]))
            else:
                history.advance(doc)
        position = (history.last, history.xid)
    return GroupPlan(n, bucket, frozenset(seen), tuple(frozenset(o) for o in owned), len(weight), position)


def part_key(i: int, n: int) -> int:
    """The smallest int ``k`` that Spark's hash partitioning into ``n`` partitions sends to partition ``i``
    (``pmod(murmur3(k, 42), n)``: Spark's ``Murmur3_x86_32.hashInt`` is MurmurHash3 x86_32 of the int's
    four little-endian bytes, which the ``mmh3`` library computes), so that every (target, bucket) is a
    task of its own. A wrong guess would only put two of them in one task (still exact: the task
    switches catalogs between them); tests/test_pipeline_groups.py checks the keys on Spark itself."""
    import struct

    import mmh3

    k = 0
    while mmh3.hash(struct.pack("<i", k), 42) % n != i:
        k += 1
    return k


# ---- the catalog, cut by schema and put back together -------------------------------------------
def _owns(owned: frozenset[str], key: tuple[str | None, str], default: str) -> bool:
    schema = key[0] if key[0] is not None else default
    return EVERYTHING in owned or sch(schema) in owned or rel(schema, key[1]) in owned


def owned_catalog(catalog: Any, owned: frozenset[str], default: str) -> dict[str, Any]:
    """The part of ``catalog`` a bucket owns, as :func:`ddlc.state_file.dump_catalog` writes it."""
    from ..history import Catalog
    from ..state_file import dump_catalog

    part = Catalog()
    part.tables = {k: v for k, v in catalog.tables.items() if _owns(owned, k, default)}
    part.relations = {k: v for k, v in catalog.relations.items() if _owns(owned, k, default)}
    part.views.views = {k: v for k, v in catalog.views.views.items() if _owns(owned, k, default)}
    return dump_catalog(part)


def merge_catalogs(loaded: Any, parts: Iterable[tuple[frozenset[str], dict[str, Any]]], default: str) -> Any:
    """The target's catalog after the run: what was loaded, its owned schemas replaced by each bucket's part."""
    from ..history import Catalog
    from ..state_file import load_catalog

    parts = list(parts)
    owned = frozenset().union(*(o for o, _ in parts)) if parts else frozenset()
    tables: dict[Any, Any] = {}
    relations: dict[Any, Any] = {}
    views: dict[Any, Any] = {}
    if loaded is not None:
        tables = {k: v for k, v in loaded.tables.items() if not _owns(owned, k, default)}
        relations = {k: v for k, v in loaded.relations.items() if not _owns(owned, k, default)}
        views = {k: v for k, v in loaded.views.views.items() if not _owns(owned, k, default)}
    for _, dumped in parts:
        c = load_catalog(dumped)
        tables.update(c.tables)
        relations.update(c.relations)
        views.update(c.views.views)
    out = Catalog()  # in key order: the same state file at any parallelism
    out.tables = {k: tables[k] for k in sorted(tables, key=_sort_key)}
    out.relations = {k: relations[k] for k in sorted(relations, key=_sort_key)}
    for k in sorted(views, key=_sort_key):  # (a view's dependencies order it among the others: in_order)
        views[k].order = out.views.next_order()
        out.views.put(views[k])
    return out


def _sort_key(k: tuple[str | None, str]) -> tuple[bool, str, str]:
    return (k[0] is not None, k[0] or "", k[1])
