"""Builders: CREATE VIEW (reference §5.7)."""

from __future__ import annotations

from operator import itemgetter
from typing import Any

from ...diagnostics import Severity, register
from ...errors import Path
from ...ir.names import QualifiedName
from ...ir.sqltree import index
from ...ir.view import CreateView
from ..sql.pgparse import pglast_ast
from . import shape
from ._read import Obj, read_qname
from .drop import keyword
from .sequence import persistence

N_VIEW_QUERY = register(
    "DDLC-N320", Severity.NOTE, "View query not parsed",
    "The query of a CREATE VIEW could not be parsed by pglast (PostgreSQL grammar), usually because it "
    "uses GaussDB-only syntax. It is kept as text: the GaussDB target prints it unchanged, but the "
    "relations it reads are not known to later passes and other targets cannot check or rewrite it.",
    '{"query": "SELECT t.a FROM public.t PARTITION (p1);"}',
)


_READS: dict[tuple[int, Path], tuple[Any, tuple[QualifiedName, ...]]] = {}
_READS_LIMIT = 1024
_LOCATION = itemgetter(0)  # (a RangeVar's location: the sort key, ties in walk order)


def query_references(tree: Any, origin: Path) -> tuple[QualifiedName, ...]:
    """The relations a parsed query reads (RangeVars in text order, without duplicates or CTE names). Worked
    out once per parsed query (the tree the SQL layer shares for a text, never modified) and origin: a stream
    that repeats a view reads it once."""
    key = (id(tree), origin)
    hit = _READS.get(key)
    if hit is not None and hit[0] is tree:
        return hit[1]
    out = _query_references(tree, origin)
    if len(_READS) >= _READS_LIMIT:
        _READS.clear()
    _READS[key] = (tree, out)  # (the tree held: its id is not reused while kept)
    return out


def _query_references(tree: Any, origin: Path) -> tuple[QualifiedName, ...]:
    ast = pglast_ast()  # (no import statement per view: ``from pglast import ast`` runs importlib's Python code)
    by = index(tree).groups()  # (one walk of the tree, shared with its other readers)
    nodes = by.get(ast.CommonTableExpr)
    ctes = {node.ctename for node in nodes} if nodes else ()  # (no comprehension's frame without a CTE)
    nodes = by.get(ast.RangeVar, ())
    if len(nodes) == 1:  # (one relation, the common query: nothing to sort or to tell apart)
        node = nodes[0]
        if node.schemaname is None and node.relname in ctes:
            return ()
        return (QualifiedName(node.relname, node.schemaname, origin=origin),)
    found = [(node.location if node.location is not None else -1, node.catalogname, node.schemaname, node.relname)
             for node in nodes]
    out: list[QualifiedName] = []
    seen: set[tuple[Any, ...]] = set()
    for _, catalog, schema, rel in sorted(found, key=_LOCATION):
        if schema is None and rel in ctes:
            continue
        key = (catalog, schema, rel)
        if key in seen:
            continue
        seen.add(key)
        out.append(QualifiedName(rel, schema, origin=origin))
    return tuple(out)


@shape("create_view", r"CREATE %\{or_replace\}s %\{persistence\}s VIEW ")
def build_create_view(o: Obj) -> CreateView:
    query = o.query("query")  # parsed once, by the SQL layer
    refs = None if query.tree is None else query_references(query.tree, o.at("query"))
    if refs is None:
        o.ctx.diag(N_VIEW_QUERY, "view query not parsed by pglast; kept as text", o.at("query"))
    return CreateView(
        identity=read_qname(o.obj("identity")),
        query=query,
        or_replace=keyword(o, "or_replace", "OR REPLACE"),
        persistence=persistence(o),
        parsed=refs is not None,
        references=refs or (),
        origin=o.path,
        layout=o.fmt,
    )
