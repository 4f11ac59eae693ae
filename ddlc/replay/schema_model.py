"""The schema a log leaves behind: the pure-data model ``ddlc replay`` folds a log's DDL into.

The model holds what a target needs to build the objects again: schemas, tables (columns with their
type, nullability, default, identity and comment; constraints; the partitioning and its partitions,
as :class:`~ddlc.history.state.TableState`), indexes, views and sequences, each in creation order.
Its leaves are the IR's own values (:class:`~ddlc.ir.names.TypeName`, :class:`~ddlc.ir.names.Expr`
with the parsed form the frontend made, the statement nodes objects were created by), so turning the
model back into IR statements (:mod:`.rebuild`) loses nothing the frontend read.

Keys are ``(schema, name)`` as the statements name the objects after the passes (``qualify_names``
and ``map_schemas`` ran). :meth:`SchemaModel.to_json` is the stable JSON layout (docs/replay.md).
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from ..records import record
from ..ir.names import Expr, QualifiedName, TypeName
from ..history.state import PartitionState, TableState

Key = tuple[str | None, str]

JSON_FORMAT = "ddlc-replay"
JSON_VERSION = 1


@record(slots=True)
class Column:
    """One column: ``defn`` is the IR column definition (a :class:`~ddlc.ir.columns.ColumnDef`) as the
    log last left it (name, type, NOT NULL, default, AUTO_INCREMENT, collation, generated expression)."""

    defn: Any
    comment: str | None = None

    @property
    def name(self) -> str:
        return self.defn.name


@record(slots=True)
class Constraint:
    """A table constraint: ``node`` is a :class:`~ddlc.ir.table.TableConstraint` (``inline``: written
    in the CREATE TABLE) or an :class:`~ddlc.ir.alter.AddConstraint` (added by ALTER TABLE, written
    after every table); ``using_index`` is the CREATE INDEX an ``ADD CONSTRAINT ... USING INDEX``
    turned into this constraint (``node`` is then the :class:`~ddlc.ir.alter.AddConstraintUsingIndex`)."""

    node: Any
    inline: bool
    using_index: Any = None
    comment: str | None = None

    @property
    def name(self) -> str | None:
        return self.node.name

    @property
    def kind(self) -> str | None:
        k = getattr(self.node, "kind", None)
        if k is None:
            ct = getattr(self.node, "constraint_type", None)
            return None if ct is None else ct.value.lower()
        return k.value

    @property
    def info(self) -> Any:
        return getattr(self.node, "parsed", None)


@record(slots=True)
class Table:
    schema: str | None
    name: str
    create: Any  # the CreateTable the log made it with (options, persistence, partition key...)
    columns: list[Column] = field(default_factory=list)
    constraints: list[Constraint] = field(default_factory=list)
    partitions: TableState | None = None
    comment: str | None = None
    order: int = 0

    @property
    def key(self) -> Key:
        return (self.schema, self.name)

    def column(self, name: str) -> Column | None:
        return next((c for c in self.columns if c.name == name), None)

    def constraint(self, name: str) -> Constraint | None:
        return next((c for c in self.constraints if c.name == name), None)


@record(slots=True)
class Index:
    node: Any  # CreateIndex, its name and table kept current
    comment: str | None = None
    order: int = 0

    @property
    def key(self) -> Key:
        return (self.node.table.schema, self.node.name)


@record(slots=True)
class View:
    node: Any  # CreateView
    comment: str | None = None
    order: int = 0
    # COMMENT ON COLUMN view.col: output column name -> comment
    column_comments: dict[str, str] = field(default_factory=dict)

    @property
    def key(self) -> Key:
        return (self.node.identity.schema, self.node.identity.name)


@record(slots=True)
class Sequence:
    node: Any  # CreateSequence, ALTER SEQUENCE options merged in
    comment: str | None = None
    order: int = 0

    @property
    def key(self) -> Key:
        return (self.node.identity.schema, self.node.identity.name)


@record(slots=True)
class Schema:
    name: str
    node: Any  # CreateSchema
    comment: str | None = None
    order: int = 0


@record(slots=True)
class SchemaModel:
    """Every object the log created and did not drop, keyed by (schema, name), in creation order."""

    schemas: dict[str, Schema] = field(default_factory=dict)
    tables: dict[Key, Table] = field(default_factory=dict)
    indexes: dict[Key, Index] = field(default_factory=dict)
    views: dict[Key, View] = field(default_factory=dict)
    sequences: dict[Key, Sequence] = field(default_factory=dict)
    counter: int = 0

    def next_order(self) -> int:
        self.counter += 1
        return self.counter

    def relation_kind(self, key: Key) -> str | None:
        for kind, d in (("table", self.tables), ("view", self.views), ("index", self.indexes),
                        ("sequence", self.sequences)):
            if key in d:
                return kind
        return None

    def indexes_of(self, table: Key) -> list[Index]:
        return [i for i in self.indexes.values() if (i.node.table.schema, i.node.table.name) == table]

    def to_json(self) -> dict[str, Any]:
        """The stable JSON layout (docs/replay.md): objects sorted by (schema, name); columns in table
        order; constraints, partitions and subpartitions in their order on the table."""
        return {
            "format": JSON_FORMAT,
            "version": JSON_VERSION,
            "schemas": [_schema_json(s) for s in sorted(self.schemas.values(), key=lambda s: s.name)],
            "tables": [_table_json(t) for t in _sorted(self.tables)],
            "indexes": [_index_json(i) for i in _sorted(self.indexes)],
            "views": [_view_json(v) for v in _sorted(self.views)],
            "sequences": [_sequence_json(s) for s in _sorted(self.sequences)],
        }


def _sorted(d: dict[Key, Any]) -> list[Any]:
    return [d[k] for k in sorted(d, key=lambda k: (k[0] or "", k[1]))]


# ---- JSON ------------------------------------------------------------------------------------
def type_json(t: TypeName | None) -> dict[str, Any] | None:
    if t is None:
        return None
    return {"schema": t.schema, "name": t.name, "typmod": t.typmod, "array": t.array}


def name_json(q: QualifiedName | None) -> dict[str, Any] | None:
    return None if q is None else {"schema": q.schema, "name": q.name}


def _text(e: Expr | None) -> str | None:
    return None if e is None else e.text


def _schema_json(s: Schema) -> dict[str, Any]:
    return {"name": s.name, "authorization": getattr(s.node, "authorization", None), "comment": s.comment}


def _column_json(c: Column) -> dict[str, Any]:
    d = c.defn
    return {
        "name": d.name,
        "type": type_json(d.type),
        "not_null": d.not_null,
        "default": _text(d.default),
        "identity": d.auto_increment,
        "generated": _text(d.generated),
        "collation": name_json(d.collation),
        "on_update": _text(d.on_update),
        "comment": c.comment,
    }


def _constraint_json(c: Constraint) -> dict[str, Any]:
    info = c.info
    definition = getattr(c.node, "definition", None)
    return {
        "name": c.name,
        "kind": c.kind,
        "definition": _text(definition) if definition is not None else None,
        "columns": list(info.columns) if info is not None else None,
        "references": name_json(info.references) if info is not None else None,
        "ref_columns": list(info.ref_columns) if info is not None and info.references is not None else None,
        "using_index": c.using_index.name if c.using_index is not None else None,
        "inline": c.inline,
    }


def _partition_json(p: PartitionState) -> dict[str, Any]:
    return {
        "name": p.name,
        "upper": None if p.upper is None else [str(v) for v in p.upper],
        "values": None if p.values is None else [str(v) for v in p.values],
        "subpartitions": [_partition_json(s) for s in p.subpartitions],
    }


def partitioning_json(st: TableState | None) -> dict[str, Any] | None:
    if st is None:
        return None
    return {
        "strategy": st.strategy,
        "key": list(st.key),
        "sub_strategy": st.sub_strategy,
        "sub_key": list(st.sub_key),
        "partitions": [_partition_json(p) for p in st.partitions],
    }


def _table_json(t: Table) -> dict[str, Any]:
    return {
        "schema": t.schema,
        "name": t.name,
        "persistence": getattr(getattr(t.create, "persistence", None), "value", "") or "permanent",
        "columns": [_column_json(c) for c in t.columns],
        "constraints": [_constraint_json(c) for c in t.constraints],
        "partitioning": partitioning_json(t.partitions),
        "comment": t.comment,
    }


def _index_json(i: Index) -> dict[str, Any]:
    n = i.node
    return {
        "schema": n.table.schema,
        "name": n.name,
        "table": name_json(n.table),
        "unique": n.unique,
        "method": n.method,
        "keys": [k.column if k.column is not None else _text(k.expression) for k in n.keys]
        if n.keys else None,
        "definition": n.definition_text,
        "include": list(n.include),
        "where": _text(n.where),
        "comment": i.comment,
    }


def _view_json(v: View) -> dict[str, Any]:
    n = v.node
    return {"schema": n.identity.schema, "name": n.identity.name, "query": n.query.text, "comment": v.comment,
            "column_comments": dict(sorted(v.column_comments.items()))}


def _sequence_json(s: Sequence) -> dict[str, Any]:
    n = s.node
    opts = []
    for o in n.options:
        opts.append({"clause": o.clause.value, "value": o.value, "no": o.no,
                     "owned_by": None if o.owner is None else o.owner.dotted(),
                     "type": name_json(o.type)})
    return {"schema": n.identity.schema, "name": n.identity.name, "large": n.large, "options": opts,
            "comment": s.comment}


__all__ = ["Column", "Constraint", "Index", "Key", "Schema", "SchemaModel", "Sequence", "Table", "View",
           "partitioning_json", "type_json"]
