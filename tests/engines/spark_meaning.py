"""What a Spark statement means, and whether an engine that ran it agrees (issue 23.10).

Every statement is parsed by Spark 4's own parser; :class:`Model` applies the parsed plan to a model of the
catalog (schemas, tables, views: columns with their types, nullability, defaults, comments, generation
and identity; partitioning, clustering, properties, comment; CHECK constraints and informational keys).
That model is *what the statement meant*. Then the statement is executed and the result read back:

* **Spark's session catalog with the stand-in ``delta`` source** (:class:`engines.spark.SparkEngine`): the
  table, view or schema the statement touched is read from the catalog (``getTableMetadata``: the stored
  schema with its field metadata, partition columns, clustering, properties, comment; view text) and
  compared with the model of the statements the stand-in ran. What only Delta's catalog implements fails
  there (:class:`NeedsDelta`): a CREATE TABLE with identity or generated columns then runs without those
  two clauses (:func:`without_delta_only`, so the table and the statements after it are still checked),
  its identity and generation being checked on the real Delta table below; CHECK and key constraints,
  ``SET NOT NULL``, TRUNCATE, UPDATE and DELETE are recorded as needing Delta.
* **A real Delta table written by delta-rs** (:class:`DeltaTables`) for every CREATE TABLE, followed by the
  ALTERs delta-rs has an operation for (CHECK constraints, comments, defaults, DROP NOT NULL, table
  properties it knows, table description, the table's name); after each, its schema (types, nullability,
  comment, default, generation expression, identity), partition columns, configuration (properties and
  CHECK constraints) and protocol features are read back and compared with the model of every statement.
  An ALTER delta-rs has no operation for (ADD COLUMNS on a column-mapped table, RENAME/DROP COLUMN, type
  widening, SET NOT NULL, column positions) ends the following of that table, with the reason.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass, field
from typing import Any

from .spark import _map, _opt, _seq, planned_table

Key = tuple[str, str]


class Unmodelled(Exception):
    """A statement of a kind the model does not know yet: the test fails, the model must grow."""


class KeyNullable(AssertionError):
    """A PRIMARY KEY added on a column that may hold NULLs."""


class Unknown(Unmodelled):
    """A statement on a relation no statement of the sequence created."""


@dataclass
class Col:
    name: str
    type: str  # Spark's JSON of the type (VARCHAR/CHAR as written)
    nullable: bool = True
    comment: str | None = None
    default: str | None = None
    generated: str | None = None
    identity: tuple[int, int, bool] | None = None


@dataclass
class Rel:
    kind: str  # table | view
    columns: list[Col] = field(default_factory=list)
    partition: list[str] = field(default_factory=list)
    clustering: list[str] = field(default_factory=list)
    properties: dict[str, str] = field(default_factory=dict)
    comment: str | None = None
    view_text: str | None = None
    checks: dict[str, str] = field(default_factory=dict)
    keys: dict[str, str] = field(default_factory=dict)  # informational: no engine here keeps them

    def col(self, name: str) -> Col:
        for c in self.columns:
            if c.name.lower() == name.lower():
                return c
        raise Unmodelled(f"no column {name}")


def _type(t: Any) -> str:
    """A data type (py4j DataType, or Spark's JSON of it) as Spark's DDL spelling: the JSON
    names (``integer``, ``long``, ``varchar(10)``), ``array<...>``, ``map<...,...>``, ``struct<a:...>``."""
    j = json.loads(t.json()) if not isinstance(t, str | dict) else t
    if isinstance(j, str):
        return j
    if j["type"] == "array":
        return f"array<{_type(j['elementType'])}>"
    if j["type"] == "map":
        return f"map<{_type(j['keyType'])},{_type(j['valueType'])}>"
    if j["type"] == "struct":
        return "struct<" + ",".join(f"{f['name']}:{_type(f['type'])}" for f in j["fields"]) + ">"
    return json.dumps(j, sort_keys=True)


def _key(parts: list[str]) -> Key:
    return (parts[-2].lower(), parts[-1].lower()) if len(parts) >= 2 else ("default", parts[-1].lower())


def _ident(node: Any) -> list[str]:
    """The name parts of the first unresolved identifier in a parsed plan (table, view, namespace)."""
    for attr in ("multipartIdentifier", "nameParts"):
        try:
            return [str(x) for x in _seq(getattr(node, attr)())]
        except Exception:  # noqa: BLE001 - not this node's accessor
            continue
    for attr in ("table", "child", "name", "namespace"):
        try:
            return _ident(getattr(node, attr)())
        except Exception:  # noqa: BLE001
            continue
    raise Unmodelled(f"no identifier in {node.getClass().getSimpleName()}")


def _position(cols: list[Col], col: Col, pos: Any) -> None:
    """Put ``col`` (already removed from ``cols``) FIRST, AFTER x, or last (pos None)."""
    text = pos.position().toString() if pos is not None else ""
    if text == "FIRST":
        cols.insert(0, col)
    elif text.startswith("AFTER "):
        after = text[6:].strip("`").lower()
        i = next(i for i, c in enumerate(cols) if c.name.lower() == after)
        cols.insert(i + 1, col)
    else:
        cols.append(col)


class Model:
    """The catalog the statements describe, built from their parsed plans alone."""

    def __init__(self) -> None:
        self.schemas: dict[str, str | None] = {"default": None}
        self.rels: dict[Key, Rel] = {}

    def copy(self) -> Model:
        return copy.deepcopy(self)

    def apply(self, plan: Any, engine: Any) -> list[Key]:
        """Apply one parsed statement; the relations it touched (schemas as (name, ""))."""
        kind = plan.getClass().getSimpleName()
        fn = getattr(self, "_" + kind, None)
        if fn is None:
            raise Unmodelled(f"statement class {kind}")
        return fn(plan, engine)

    # schemas
    def _CreateNamespace(self, p: Any, engine: Any) -> list[Key]:
        name = _ident(p)[-1].lower()
        props = dict(_map(p.properties()))
        if name not in self.schemas or not p.ifNotExists():
            self.schemas[name] = props.get("comment")
        return [(name, "")]

    def _CommentOnNamespace(self, p: Any, engine: Any) -> list[Key]:
        name = _ident(p)[-1].lower()
        self.schemas[name] = p.comment()
        return [(name, "")]

    def _DropNamespace(self, p: Any, engine: Any) -> list[Key]:
        name = _ident(p)[-1].lower()
        self.schemas.pop(name, None)
        for k in [k for k in self.rels if k[0] == name]:
            del self.rels[k]
        return [(name, "")]

    # tables
    def _CreateTable(self, p: Any, engine: Any) -> list[Key]:
        t = planned_table(p)
        k = _key(t.name)
        if k in self.rels and p.ignoreIfExists():
            return [k]
        cols = [Col(c.name, _type(c.type), c.nullable, c.comment, c.default, c.generated, c.identity)
                for c in t.columns]
        self.rels[k] = Rel("table", cols, t.partition_columns, t.clustering_columns, dict(t.properties), t.comment)
        return [k]

    def _CreateTableAsSelect(self, p: Any, engine: Any) -> list[Key]:
        k = _key(_ident(p.name()))
        schema = json.loads(engine.session._jsparkSession.sessionState().analyzer().execute(p.query()).schema().json())
        spec = p.tableSpec()
        # a table made by CREATE TABLE ... AS takes the query's columns, every one nullable (Spark's rule)
        cols = [Col(f["name"], _type(f["metadata"].get("__CHAR_VARCHAR_TYPE_STRING") or f["type"]), True)
                for f in schema["fields"]]
        self.rels[k] = Rel("table", cols, [], [], dict(_map(spec.properties())), _opt(spec.comment()))
        return [k]

    def _DropTable(self, p: Any, engine: Any) -> list[Key]:
        k = _key(_ident(p))
        self.rels.pop(k, None)
        return [k]

    _DropView = _DropTable

    def _RenameTable(self, p: Any, engine: Any) -> list[Key]:
        old, new = _key(_ident(p.child())), _key([str(x) for x in _seq(p.newName())])
        if old not in self.rels:
            raise Unknown(f"{'.'.join(old)} was made by no statement")
        self.rels[new] = self.rels.pop(old)
        return [old, new]

    def _rel(self, p: Any) -> tuple[Key, Rel]:
        k = _key(_ident(p))
        if k not in self.rels:
            raise Unknown(f"{'.'.join(k)} was made by no statement")
        return k, self.rels[k]

    def _AddColumns(self, p: Any, engine: Any) -> list[Key]:
        k, r = self._rel(p)
        for q in _seq(p.columnsToAdd()):
            d = _opt(q.default())
            col = Col(str(_seq(q.name())[-1]), _type(q.dataType()), q.nullable(), _opt(q.comment()),
                      d.originalSQL() if d is not None else None)
            _position(r.columns, col, _opt(q.position()))
        return [k]

    def _DropColumns(self, p: Any, engine: Any) -> list[Key]:
        k, r = self._rel(p)
        for f in _seq(p.columnsToDrop()):
            name = str(_seq(f.name())[-1]).lower()
            if not any(c.name.lower() == name for c in r.columns) and p.ifExists():
                continue
            r.columns = [c for c in r.columns if c.name.lower() != name]
        return [k]

    def _RenameColumn(self, p: Any, engine: Any) -> list[Key]:
        k, r = self._rel(p)
        r.col(str(_seq(p.column().name())[-1])).name = p.newName()
        return [k]

    def _AlterColumns(self, p: Any, engine: Any) -> list[Key]:
        k, r = self._rel(p)
        for s in _seq(p.specs()):
            c = r.col(str(_seq(s.column().name())[-1]))
            t, n, cm, pos, d = (_opt(s.newDataType()), _opt(s.newNullability()), _opt(s.newComment()),
                                _opt(s.newPosition()), _opt(s.newDefaultExpression()))
            if t is not None:
                c.type = _type(t)
            if n is not None:
                c.nullable = bool(n)
            if cm is not None:
                c.comment = cm
            if s.dropComment():
                c.comment = None
            if d is not None:
                c.default = d.originalSQL()
            if s.dropDefault():
                c.default = None
            if pos is not None:
                r.columns.remove(c)
                _position(r.columns, c, pos)
        return [k]

    def _SetTableProperties(self, p: Any, engine: Any) -> list[Key]:
        k, r = self._rel(p)
        r.properties.update(dict(_map(p.properties())))
        return [k]

    _SetViewProperties = _SetTableProperties

    def _UnsetTableProperties(self, p: Any, engine: Any) -> list[Key]:
        k, r = self._rel(p)
        for key in _seq(p.propertyKeys()):
            r.properties.pop(key, None)
        return [k]

    def _CommentOnTable(self, p: Any, engine: Any) -> list[Key]:
        k, r = self._rel(p)
        r.comment = p.comment()
        return [k]

    def _AlterTableClusterBy(self, p: Any, engine: Any) -> list[Key]:
        k, r = self._rel(p)
        spec = _opt(p.clusterBySpec())
        r.clustering = [] if spec is None else [".".join(_seq(c.fieldNames())) for c in _seq(spec.columnNames())]
        return [k]

    def _AddCheckConstraint(self, p: Any, engine: Any) -> list[Key]:
        k, r = self._rel(p)
        c = p.checkConstraint()
        r.checks[c.userProvidedName()] = c.condition()
        return [k]

    def _AddConstraint(self, p: Any, engine: Any) -> list[Key]:
        k, r = self._rel(p)
        c = p.tableConstraint()
        r.keys[c.userProvidedName()] = c.toString()
        if c.getClass().getSimpleName() == "PrimaryKeyConstraint":  # key columns NOT NULL, as PostgreSQL makes
            # them and Databricks requires (issue 23.7)
            nullable = [n for n in _seq(c.columns()) if r.col(n).nullable]
            if nullable:
                raise KeyNullable(f"{'.'.join(k)}: PRIMARY KEY {c.userProvidedName()} on nullable column(s) "
                                  + ", ".join(nullable))
        return [k]

    def _DropConstraint(self, p: Any, engine: Any) -> list[Key]:
        k, r = self._rel(p)
        name = p.name()  # (one no statement of the sequence made, e.g. before the log starts: nothing to drop)
        r.checks.pop(name, None)
        r.keys.pop(name, None)
        return [k]

    def _TruncateTable(self, p: Any, engine: Any) -> list[Key]:  # rows only: no schema change
        return [self._rel(p)[0]]

    _UpdateTable = _DeleteFromTable = _TruncateTable

    # views
    def _CreateView(self, p: Any, engine: Any) -> list[Key]:
        k = _key(_ident(p.child()))
        text = _opt(p.originalText())
        schema = json.loads(engine.session.sql(text).schema.json())  # the query as Spark analyses it now
        names = [(str(c._1()), _opt(c._2())) for c in _seq(p.userSpecifiedColumns())]
        cols = []
        for i, f in enumerate(schema["fields"]):
            # a view column takes the comment of the column it selects (Spark keeps the query's field metadata)
            name, comment = names[i] if names else (f["name"], None)
            comment = comment if comment is not None else f["metadata"].get("comment")
            cols.append(Col(name, _type(f["metadata"].get("__CHAR_VARCHAR_TYPE_STRING") or f["type"]),
                            f["nullable"], comment))
        props = dict(_map(p.properties()))
        if k in self.rels and not p.replace() and p.allowExisting():
            return [k]
        self.rels[k] = Rel("view", cols, properties=props, comment=_opt(p.comment()), view_text=text)
        return [k]


# ---- what Spark's session catalog holds ------------------------------------------------------------------------
_INTERNAL = {"owner", "provider", "transient_lastDdlTime", "clusteringColumns"}


def catalog_rel(engine: Any, k: Key) -> Rel | None:
    """The relation ``k`` as Spark's session catalog holds it, or None."""
    jvm = engine.session._jvm
    cat = engine.session._jsparkSession.sessionState().catalog()
    ident = jvm.org.apache.spark.sql.catalyst.TableIdentifier.apply(k[1], jvm.scala.Some(k[0]))
    if not cat.tableExists(ident):
        return None
    meta = cat.getTableMetadata(ident)
    view = meta.tableType().name() == "VIEW"
    cols = []
    for f in json.loads(meta.schema().json())["fields"]:
        md = f["metadata"]
        cols.append(Col(f["name"], _type(md.get("__CHAR_VARCHAR_TYPE_STRING") or f["type"]), f["nullable"],
                        md.get("comment"), md.get("CURRENT_DEFAULT")))
    props = dict(_map(meta.properties()))
    clustering = props.get("clusteringColumns")
    props = {k_: v for k_, v in props.items() if k_ not in _INTERNAL and not k_.startswith("view.")}
    return Rel("view" if view else "table", cols, list(_seq(meta.partitionColumnNames())),
               [".".join(c) for c in json.loads(clustering)] if clustering else [], props, _opt(meta.comment()),
               _opt(meta.viewText()) if view else None)


def catalog_schemas(engine: Any) -> dict[str, str | None]:
    cat = engine.session._jsparkSession.sessionState().catalog()
    out = {}
    for r in engine.session.sql("SHOW SCHEMAS").collect():
        d = cat.getDatabaseMetadata(r[0]).description()
        out[r[0].lower()] = d or None
    return out


def _cmp(what: str, want: Any, got: Any, out: list[str]) -> None:
    if want != got:
        out.append(f"{what}: the statement means {want!r}, the engine holds {got!r}")


def compare_catalog(k: Key, want: Rel | None, got: Rel | None) -> list[str]:
    """Differences between the model (identity, generation, constraints aside: Delta's own) and the catalog."""
    out: list[str] = []
    name = ".".join(k)
    if want is None or got is None:
        _cmp(f"{name} exists", want is not None, got is not None, out)
        return out
    _cmp(f"{name} kind", want.kind, got.kind, out)
    _cmp(f"{name} columns", [c.name for c in want.columns], [c.name for c in got.columns], out)
    for a, b in zip(want.columns, got.columns, strict=False):
        for attr in ("type", "nullable", "comment", "default"):
            _cmp(f"{name}.{a.name} {attr}", getattr(a, attr), getattr(b, attr), out)
    if want.kind == "table":
        _cmp(f"{name} partition columns", want.partition, got.partition, out)
        _cmp(f"{name} clustering columns", want.clustering, got.clustering, out)
    props = {k_: v for k_, v in want.properties.items() if not (want.kind == "view" and k_ == "comment")}
    _cmp(f"{name} properties", props, got.properties, out)
    comment = want.comment if want.kind == "table" else want.comment or want.properties.get("comment")
    _cmp(f"{name} comment", comment, got.comment, out)
    if want.kind == "view":
        _cmp(f"{name} view text", want.view_text, got.view_text, out)
    return out


# ---- the stand-in runs what it can of a CREATE TABLE -------------------------------------------------------------
_GENERATED = re.compile(r" GENERATED (?:(?:BY DEFAULT|ALWAYS) AS IDENTITY|ALWAYS AS)")


def without_delta_only(sql: str) -> str:
    """``sql`` less its identity and generation clauses (outside quotes), for the stand-in to run."""
    out, i, quote = [], 0, None
    while i < len(sql):
        ch = sql[i]
        if quote:
            out.append(ch)
            if ch == "\\" and quote == "'":
                out.append(sql[i + 1])
                i += 1
            elif ch == quote:
                quote = None
            i += 1
            continue
        m = _GENERATED.match(sql, i)
        if m is None:
            if ch in "'`":
                quote = ch
            out.append(ch)
            i += 1
            continue
        i = m.end()
        if sql.startswith(" (", i):  # the identity's options or the generation expression
            depth, i, q = 0, i + 1, None
            while True:
                c = sql[i]
                if q:
                    if c == "\\" and q == "'":
                        i += 1
                    elif c == q:
                        q = None
                elif c in "'`":
                    q = c
                elif c == "(":
                    depth += 1
                elif c == ")":
                    depth -= 1
                    if depth == 0:
                        i += 1
                        break
                i += 1
    return "".join(out)


__all__ = ["Col", "Key", "KeyNullable", "Model", "Rel", "Unknown", "Unmodelled", "catalog_rel", "catalog_schemas",
           "compare_catalog",
           "without_delta_only"]
