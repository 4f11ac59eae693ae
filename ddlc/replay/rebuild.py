"""The replayed schema as IR statements: the CREATE script of ``ddlc replay``.

:func:`statements` turns a :class:`~.schema_model.SchemaModel` back into the node classes the
frontend builds (CreateSchema, CreateSequence, CreateTable, AlterRelation with AddConstraint,
CreateIndex, CreateView, Comment...), which then go through the one translation path
(:func:`ddlc.compiler.compile_statement`), so every target's rules and quoting apply. Order:
schemas; sequences (their OWNED BY after the tables); tables in creation order; constraints added
by ALTER TABLE (foreign keys last); indexes in creation order; views (creation order, a view after
the views it reads); comments.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..diagnostics import W_REPLAY_INEXACT, Diagnostic
from ..ir.alter import AlterObjType, AlterRelation
from ..ir.base import replace
from ..ir.comment import Comment
from ..ir.constraints import ConstraintKind
from ..ir.drop import PlainName, SchemaName
from ..ir.names import QualifiedName
from ..ir.partition import BoundKind, BoundValue, LessThan, ListValues, Partition
from ..ir.sequence import AlterSequence, SeqClause
from ..ir.table import PartitionClause
from .schema_model import SchemaModel, Table
from ..history.state import PartitionState, TableState

Item = tuple[str, Any]  # (label of the object, IR statement)


def statements(model: SchemaModel, diagnostics: list[Diagnostic] | None = None) -> Iterator[Item]:
    """The statements that build ``model`` on an empty database (see the module's docstring)."""
    diags = diagnostics if diagnostics is not None else []
    for s in sorted(model.schemas.values(), key=lambda s: s.order):
        yield f"schema {s.name}", s.node
    seqs = sorted(model.sequences.values(), key=lambda s: s.order)
    for sq in seqs:
        opts = tuple(o for o in sq.node.options if o.clause is not SeqClause.OWNED)
        yield f"sequence {_dotted(sq.node.identity)}", replace(sq.node, options=opts)
    tables = sorted(model.tables.values(), key=lambda t: t.order)
    for t in tables:
        yield f"table {t.schema}.{t.name}", create_table(t, diags)
    later = [(t, c) for t in tables for c in t.constraints if not c.inline]
    fks = [(t, c) for t, c in later if c.kind == ConstraintKind.FOREIGN_KEY.value]
    for t, c in [x for x in later if x not in fks] + fks:
        label = f"constraint {c.name} on {t.schema}.{t.name}"
        if c.using_index is not None:
            yield label, c.using_index
        yield label, AlterRelation(AlterObjType.TABLE, _qname(t.schema, t.name), (c.node,), origin=c.node.origin)
    for sq in seqs:
        owned = tuple(o for o in sq.node.options if o.clause is SeqClause.OWNED)
        if owned:
            yield f"sequence {_dotted(sq.node.identity)}", AlterSequence(sq.node.identity, owned, sq.node.large,
                                                                         origin=sq.node.origin)
    for idx in sorted(model.indexes.values(), key=lambda i: i.order):
        yield f"index {idx.node.table.schema}.{idx.node.name}", idx.node
    for v in _views_in_order(model):
        yield f"view {_dotted(v.node.identity)}", v.node
    yield from _comments(model)


def _dotted(q: QualifiedName) -> str:
    return q.dotted()


def _qname(schema: str | None, name: str, attr: str | None = None) -> QualifiedName:
    return QualifiedName(name, schema, attr)


def create_table(t: Table, diags: list[Diagnostic]) -> Any:
    c = t.create
    elements = tuple(replace(col.defn, layout=None) for col in t.columns) + tuple(
        con.node for con in t.constraints if con.inline)
    changes: dict[str, Any] = {"identity": _qname(t.schema, t.name), "if_not_exists": False, "elements": elements,
                               "layout": None, "elements_layout": None}
    if t.partitions is not None and c.partition is not None and c.partition.spec is not None:
        changes["partition"] = PartitionClause(None, _spec(t, c.partition.spec, t.partitions, diags),
                                               origin=c.partition.origin)
    return replace(c, **changes)


def _spec(t: Table, spec: Any, st: TableState, diags: list[Diagnostic]) -> Any:
    by_name = {p.name: p for p in spec.partitions}

    def part(p: PartitionState, sub: bool) -> Partition:
        orig = by_name.get(p.name) if not sub else None
        if p.upper is not None:
            bound: Any = LessThan(tuple(_bound(v, t, diags) for v in p.upper))
        elif p.values is not None:
            bound = ListValues(tuple(_bound(v, t, diags) for v in p.values))
        else:
            bound = None
        return Partition(p.name, bound, getattr(orig, "tablespace", None),
                         tuple(part(s, True) for s in p.subpartitions),
                         name_text=getattr(orig, "name_text", ""), tablespace_text=getattr(orig, "tablespace_text", ""))

    return replace(spec, partitions=tuple(part(p, False) for p in st.partitions))


def _bound(text: str, t: Table, diags: list[Diagnostic]) -> BoundValue:
    parsed = getattr(text, "parsed", None)
    if parsed is not None:
        return parsed
    word = str(text).strip().upper()
    if word == "MAXVALUE":
        return BoundValue.maxvalue()
    if word == "DEFAULT":
        return BoundValue(text="DEFAULT", kind=BoundKind.DEFAULT)
    diags.append(Diagnostic(W_REPLAY_INEXACT, f"table {t.schema}.{t.name}: partition bound {str(text)!r} was not "
                                              "parsed; written as text"))
    return BoundValue(text=str(text), kind=BoundKind.EXPR)


def _views_in_order(model: SchemaModel) -> list[Any]:
    """Creation order, each view after the views it reads (a view replaced later may read newer ones)."""
    views = sorted(model.views.values(), key=lambda v: v.order)
    done: list[Any] = []
    seen: set[Any] = set()

    def visit(v: Any, path: tuple[Any, ...]) -> None:
        if v.key in seen or v.key in path:
            return
        for r in v.node.references:
            dep = model.views.get((r.schema, r.name))
            if dep is not None and dep is not v:
                visit(dep, (*path, v.key))
        seen.add(v.key)
        done.append(v)

    for v in views:
        visit(v, ())
    return done


def _comment(objtype: str, identity: Any, text: str, **kw: Any) -> Comment:
    return Comment(objtype, None, identity, text, **kw)  # type: ignore[arg-type]  # no source text: rendered


def _comments(model: SchemaModel) -> Iterator[Item]:
    for s in sorted(model.schemas.values(), key=lambda s: s.order):
        if s.comment:
            yield f"schema {s.name}", _comment("SCHEMA", SchemaName(s.name), s.comment)
    for t in sorted(model.tables.values(), key=lambda t: t.order):
        label = f"table {t.schema}.{t.name}"
        if t.comment:
            yield label, _comment("TABLE", _qname(t.schema, t.name), t.comment)
        for col in t.columns:
            if col.comment:
                yield label, _comment("COLUMN", _qname(t.schema, t.name, col.name), col.comment)
        for con in t.constraints:
            if con.comment and con.name:
                yield label, _comment("CONSTRAINT", PlainName(con.name), con.comment, on_constraint=True,
                                      parent=_qname(t.schema, t.name))
    for word, objs in (("INDEX", model.indexes), ("VIEW", model.views), ("SEQUENCE", model.sequences)):
        for o in sorted(objs.values(), key=lambda o: o.order):
            q = _qname(o.key[0], o.key[1])
            if o.comment:
                yield f"{word.lower()} {q.dotted()}", _comment(word, q, o.comment)
            for col, text in getattr(o, "column_comments", {}).items():
                yield f"{word.lower()} {q.dotted()}", _comment("COLUMN", _qname(o.key[0], o.key[1], col), text)


__all__ = ["create_table", "statements"]
