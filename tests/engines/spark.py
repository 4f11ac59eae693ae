"""Spark 4 (local mode) and delta-rs for the Spark target's tests.

* :class:`SparkEngine` — one local SparkSession for the whole test session (``local[2]``, two
  shuffle partitions, no UI, a throw-away warehouse). :meth:`parse` runs Spark's own SQL parser
  (``sessionState().sqlParser().parsePlan``); :meth:`run` executes a statement.
* Delta's Spark jars cannot be installed here (no Maven access), so a small Python data source named
  ``delta`` stands in for it (:class:`DeltaStandIn`): ``CREATE TABLE ... USING DELTA`` then runs in
  Spark's in-memory session catalog, which checks everything Spark's analyser checks (columns,
  types, partition and clustering columns, properties, comments, ALTER TABLE on existing columns).
  It takes no rows: a ``CREATE TABLE ... AS SELECT`` runs (the table gets the query's columns) only
  when its query gives none, and fails otherwise.
  What only Delta's own catalog implements (identity and generated columns, table constraints,
  TRUNCATE, DELETE, UPDATE) fails with Spark's ``UNSUPPORTED_FEATURE.TABLE_OPERATION`` or "does not
  support" errors: :meth:`run` reports those as :class:`NeedsDelta`, never as success.
* :func:`delta_table` creates a real Delta table with ``deltalake`` (delta-rs) from a CREATE TABLE's
  parsed plan (Spark's schema, partition columns, properties and the CHECK constraints added after
  it), so its schema and protocol can be read back.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from dataclasses import dataclass, field
from typing import Any


class SparkSyntaxError(Exception):
    pass


class NeedsDelta(Exception):
    """Spark analysed the statement and stopped only because the table is not a real Delta table."""


_REFUSED_NAME = "INVALID_SCHEMA_OR_RELATION_NAME"
_NEEDS_DELTA = re.compile(r"UNSUPPORTED_FEATURE\.TABLE_OPERATION|does not support (deletes|truncates|updates)"
                          r"|Table does not support|Cannot change nullable column to non-nullable")


class SparkEngine:
    def __init__(self) -> None:
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # workers need this venv's pyarrow
        from pyspark.sql import SparkSession
        from pyspark.sql.datasource import DataSource, DataSourceWriter, WriterCommitMessage

        self.warehouse = tempfile.mkdtemp(prefix="ddlc-spark-")
        self.session = (SparkSession.builder.master("local[2]").appName("ddlc-tests")
                        .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "2")
                        .config("spark.sql.warehouse.dir", self.warehouse).getOrCreate())
        self.session.sparkContext.setLogLevel("OFF")

        class NoRows(DataSourceWriter):
            """What a CREATE TABLE ... AS writes into the stand-in: nothing, or the statement fails."""

            def write(self, iterator: Any) -> WriterCommitMessage:
                for row in iterator:
                    raise ValueError(f"the stand-in delta source takes no rows, got {row}")
                return WriterCommitMessage()

        class DeltaStandIn(DataSource):
            """``USING DELTA`` for Spark's analyser: a table provider with no data of its own (a CREATE TABLE
            ... AS SELECT runs when its query gives no rows)."""

            @classmethod
            def name(cls) -> str:
                return "delta"

            def schema(self) -> str:
                return "unused INT"

            def writer(self, schema: Any, overwrite: bool) -> DataSourceWriter:
                return NoRows()

        self.session.dataSource.register(DeltaStandIn)
        self._parser = self.session._jsparkSession.sessionState().sqlParser()

    def stop(self) -> None:
        self.session.stop()

    # -- parsing and running ------------------------------------------------------------------
    def parse(self, sql: str) -> Any:
        """Spark's parsed (unresolved) logical plan of ``sql``; SparkSyntaxError when it does not parse."""
        from py4j.protocol import Py4JJavaError
        from pyspark.errors import ParseException

        try:
            return self._parser.parsePlan(sql)
        except (ParseException, Py4JJavaError) as exc:
            raise SparkSyntaxError(f"{sql}\n  -> {str(exc).splitlines()[0]}") from None

    def run(self, sql: str) -> None:
        """Execute one statement. NeedsDelta when only Delta's catalog could run it."""
        from py4j.protocol import Py4JJavaError
        from pyspark.errors import PySparkException

        try:
            self.session.sql(sql).collect()
        except (PySparkException, Py4JJavaError) as exc:
            text = str(exc)
            if _NEEDS_DELTA.search(text):
                raise NeedsDelta(_first_line(text)) from None
            raise

    def reset(self) -> None:
        """Drop every schema but ``default`` (and what is in it)."""
        for row in self.session.sql("SHOW SCHEMAS").collect():
            if row[0] != "default":
                self.session.sql(f"DROP SCHEMA IF EXISTS `{row[0]}` CASCADE")
        for row in self.session.sql("SHOW TABLES IN default").collect():
            self.session.sql(f"DROP TABLE IF EXISTS default.`{row.tableName}`")

    # -- reading back ---------------------------------------------------------------------------
    def describe(self, schema: str, name: str) -> str:
        """The table or view as Spark's catalog holds it: ``DESCRIBE TABLE EXTENDED`` (columns, types,
        comments) and the session catalog's entry (nullability, partitioning, clustering, properties,
        comment, provider), as stable text."""
        ident = f"`{schema}`.`{name}`"
        rows = self.session.sql(f"DESCRIBE TABLE EXTENDED {ident}").collect()
        jvm = self.session._jvm
        meta = self.session._jsparkSession.sessionState().catalog().getTableMetadata(
            jvm.org.apache.spark.sql.catalyst.TableIdentifier.apply(name, jvm.scala.Some(schema)))
        nullable = {f["name"]: f["nullable"] for f in json.loads(meta.schema().json())["fields"]}
        out = [f"{meta.tableType().name().lower()} {schema}.{name}"]
        defaults: dict[str, str] = {}
        section = None
        for r in rows:
            if r[0].startswith("#"):
                section = r[0]
            elif section == "# Column Default Values" and r[0]:
                defaults[r[0]] = r[2]
        for r in rows:
            col, typ, comment = r[0], r[1], r[2]
            if not col or col.startswith("#"):
                break
            line = f"  {col} {typ}" + ("" if nullable.get(col, True) else " NOT NULL")
            line += f" DEFAULT {defaults[col]}" if col in defaults else ""
            out.append(line + (f" COMMENT {comment!r}" if comment else ""))
        if meta.comment().isDefined():
            out.append(f"  comment: {meta.comment().get()!r}")
        parts = list(_seq(meta.partitionColumnNames()))
        if parts:
            out.append("  partitioned by: " + ", ".join(parts))
        props = dict(_map(meta.properties()))
        clustering = props.pop("clusteringColumns", None)
        if clustering:
            out.append("  clustered by: " + ", ".join(".".join(c) for c in json.loads(clustering)))
        for k in ("owner", "provider", "transient_lastDdlTime", "view.catalogAndNamespace.numParts",
                  "view.catalogAndNamespace.part.0", "view.catalogAndNamespace.part.1", "view.sqlConfig",
                  "view.query.out.numCols", "view.referredTempViewNames", "view.referredTempFunctionsNames",
                  "view.referredTempVariableNames"):
            props.pop(k, None)
        props = {k: v for k, v in props.items() if not k.startswith(("view.query.out.col.", "view.sqlConfig."))}
        if props:
            out.append("  properties: " + ", ".join(f"{k}={v}" for k, v in sorted(props.items())))
        if meta.viewText().isDefined():
            out.append(f"  view: {meta.viewText().get()}")
        return "\n".join(out)

    def schema_comment(self, schema: str) -> str | None:
        for r in self.session.sql(f"DESCRIBE SCHEMA `{schema}`").collect():
            if r[0] == "Comment" and r[1]:
                return r[1]
        return None

    def relations(self, schema: str) -> list[str]:
        return sorted(r.tableName for r in self.session.sql(f"SHOW TABLES IN `{schema}`").collect()
                      if not r.isTemporary)

    def schemas(self) -> list[str]:
        return sorted(r[0] for r in self.session.sql("SHOW SCHEMAS").collect())


def _first_line(text: str) -> str:
    """The error's class and first sentence."""
    line = text.strip().splitlines()[0]
    end = line.find(". ")
    return (line if end < 0 else line[:end + 1])[:240]


def _seq(s: Any) -> list[Any]:
    return [s.apply(i) for i in range(s.size())]


def _map(m: Any) -> list[tuple[Any, Any]]:
    it = m.iterator()
    out = []
    while it.hasNext():
        kv = it.next()
        out.append((kv._1(), kv._2()))
    return out


# ---- the parsed plan of a CREATE TABLE --------------------------------------------------------------
@dataclass
class Column:
    name: str
    type: dict | str  # Spark's data type JSON
    nullable: bool
    comment: str | None = None
    default: str | None = None
    generated: str | None = None
    identity: tuple[int, int, bool] | None = None  # start, step, allow explicit inserts


@dataclass
class PlannedTable:
    name: list[str]
    columns: list[Column]
    partition_columns: list[str] = field(default_factory=list)
    clustering_columns: list[str] = field(default_factory=list)
    properties: dict[str, str] = field(default_factory=dict)
    comment: str | None = None
    provider: str | None = None


def _opt(o: Any) -> Any:
    return o.get() if o.isDefined() else None


def _sql_text(x: Any) -> str | None:
    """The SQL a parsed-plan expression holder was written with (a plain string passes through)."""
    if x is None or isinstance(x, str):
        return x
    for attr in ("originalSQL", "sql"):
        try:
            return getattr(x, attr)()
        except Exception:  # noqa: BLE001 - not this holder's method
            continue
    return x.toString()


def planned_table(plan: Any) -> PlannedTable:
    """The table a ``CreateTable`` plan describes, read through py4j (names, types, nullability,
    comments, defaults, generation and identity, partitioning, clustering, properties)."""
    assert plan.getClass().getSimpleName() == "CreateTable", plan.getClass().getSimpleName()
    name = list(_seq(plan.name().nameParts()))
    cols = []
    for c in _seq(plan.columns()):
        dt = json.loads(c.dataType().json())
        default = _opt(c.defaultValue())
        ident = _opt(c.identityColumnSpec())
        cols.append(Column(
            c.name(), dt, c.nullable(), _opt(c.comment()),
            default.originalSQL() if default is not None else None,
            _sql_text(_opt(c.generationExpression())),
            (ident.getStart(), ident.getStep(), ident.isAllowExplicitInsert()) if ident is not None else None))
    parts, clustering = [], []
    for t in _seq(plan.partitioning()):
        kind = t.getClass().getSimpleName()
        refs = [".".join(r.fieldNames()) for r in t.references()]
        if kind == "ClusterByTransform":
            clustering += refs
        else:
            parts += refs
    spec = plan.tableSpec()
    return PlannedTable(name, cols, parts, clustering, dict(_map(spec.properties())), _opt(spec.comment()),
                        _opt(spec.provider()))


def planned_check(plan: Any) -> tuple[list[str], str, str] | None:
    """(table name parts, constraint name, condition SQL) of an ``ALTER TABLE ... ADD CONSTRAINT ... CHECK``
    plan, or None for any other plan."""
    if plan.getClass().getSimpleName() != "AddCheckConstraint":
        return None
    c = plan.checkConstraint()
    rel = plan.child()
    while rel.getClass().getSimpleName() != "UnresolvedRelation":
        rel = rel.child()
    return list(_seq(rel.multipartIdentifier())), c.userProvidedName(), c.condition()


# ---- delta-rs ---------------------------------------------------------------------------------------
def arrow_type(t: dict | str) -> Any:
    import pyarrow as pa

    if isinstance(t, dict):
        if t["type"] == "array":
            return pa.list_(pa.field("element", arrow_type(t["elementType"]), nullable=t["containsNull"]))
        raise ValueError(f"type {t}")
    simple = {"integer": pa.int32(), "long": pa.int64(), "short": pa.int16(), "byte": pa.int8(),
              "float": pa.float32(), "double": pa.float64(), "string": pa.string(), "binary": pa.binary(),
              "boolean": pa.bool_(), "date": pa.date32(), "timestamp": pa.timestamp("us", tz="UTC"),
              "timestamp_ntz": pa.timestamp("us")}
    if t in simple:
        return simple[t]
    m = re.fullmatch(r"decimal\((\d+),(\d+)\)", t)
    if m:
        return pa.decimal128(int(m.group(1)), int(m.group(2)))
    if re.fullmatch(r"(var)?char\(\d+\)", t):
        return pa.string()  # Delta keeps CHAR/VARCHAR as strings (Spark notes the length in metadata)
    raise ValueError(f"type {t}")


def delta_table(path: str, t: PlannedTable, checks: dict[str, str]) -> Any:
    """A real Delta table made by delta-rs from the plan of a CREATE TABLE and its CHECK constraints.

    The table features the DDL implies and delta-rs does not derive itself are added explicitly
    (identity columns; column mapping, which delta-rs leaves out of a 3/7 protocol); features delta-rs
    does not know (allowColumnDefaults) are returned by :func:`delta_report` as expected-but-absent.
    """
    import pyarrow as pa
    from deltalake import DeltaTable, TableFeatures

    fields = [delta_field(c, c.type if isinstance(c.type, str) and re.fullmatch(r"(var)?char\(\d+\)", c.type)
                          else None) for c in t.columns]
    config = {k: v for k, v in t.properties.items() if k.startswith("delta.") and not k.startswith("delta.feature.")}
    dt = DeltaTable.create(path, schema=pa.schema(fields), mode="error", partition_by=t.partition_columns or None,
                           name=t.name[-1], description=t.comment, configuration=config or None)
    if checks:
        dt.alter.add_constraint(checks)
    if config.get("delta.columnMapping.mode", "none") != "none" and dt.protocol().min_writer_version >= 7:
        dt.alter.add_feature(TableFeatures.ColumnMapping, allow_protocol_versions_increase=True)
    if any(c.identity is not None for c in t.columns):  # last: delta-rs writes no table that needs it
        dt.alter.add_feature(TableFeatures.IdentityColumns, allow_protocol_versions_increase=True)
    return dt


def delta_field(c: Any, char_type: str | None) -> Any:
    """The pyarrow field of a planned column for a Delta table, with the metadata Spark's Delta writes: its
    comment, default, generation expression, identity and (``char_type``) CHAR/VARCHAR spelling."""
    import pyarrow as pa

    meta: dict[str, str] = {}
    if c.comment is not None:
        meta["comment"] = c.comment
    if c.default is not None:
        meta["CURRENT_DEFAULT"] = c.default
    if c.generated is not None:
        meta["delta.generationExpression"] = c.generated
    if c.identity is not None:
        meta.update({"delta.identity.start": str(c.identity[0]), "delta.identity.step": str(c.identity[1]),
                     "delta.identity.allowExplicitInsert": str(c.identity[2]).lower()})
    if char_type is not None:
        meta["__CHAR_VARCHAR_TYPE_STRING"] = char_type  # as Spark's Delta records it
    return pa.field(c.name, arrow_type(c.type), nullable=c.nullable, metadata=meta or None)


def expected_features(t: PlannedTable, checks: dict[str, str]) -> set[str]:
    """The Delta table features a table made by this DDL needs (Delta's protocol rules)."""
    want = set()
    if t.properties.get("delta.columnMapping.mode", "none") != "none":
        want.add("columnMapping")
    if any("timestamp_ntz" in json.dumps(c.type) for c in t.columns):
        want.add("timestampNtz")
    if any(c.generated is not None for c in t.columns):
        want.add("generatedColumns")
    if any(c.identity is not None for c in t.columns):
        want.add("identityColumns")
    if checks:
        want.add("checkConstraints")
    if t.clustering_columns:
        want.add("clustering")
    want |= {k.removeprefix("delta.feature.") for k, v in t.properties.items()
             if k.startswith("delta.feature.") and v == "supported"}
    return want


def delta_report(dt: Any, t: PlannedTable, checks: dict[str, str]) -> str:
    """The Delta table delta-rs wrote, as stable text: schema (names, types, nullability, the metadata
    Spark gave), partition columns, configuration, constraints and protocol."""
    p = dt.protocol()
    meta = dt.metadata()
    schema = json.loads(dt.schema().to_json())
    out = [f"delta {'.'.join(t.name)}"]
    for f in schema["fields"]:
        md = {k: v for k, v in f["metadata"].items() if not k.startswith("delta.columnMapping.")}
        typ = f["type"] if isinstance(f["type"], str) else json.dumps(f["type"], sort_keys=True)
        out.append(f"  {f['name']} {typ}" + ("" if f["nullable"] else " NOT NULL")
                   + (" " + json.dumps(md, sort_keys=True) if md else ""))
    if meta.description:
        out.append(f"  description: {meta.description!r}")
    if meta.partition_columns:
        out.append("  partition columns: " + ", ".join(meta.partition_columns))
    conf = {k: v for k, v in meta.configuration.items() if k != "delta.columnMapping.maxColumnId"}
    if conf:
        out.append("  configuration: " + ", ".join(f"{k}={v}" for k, v in sorted(conf.items())))
    features = set(p.writer_features or ()) | set(p.reader_features or ())
    out.append(f"  protocol: reader {p.min_reader_version}, writer {p.min_writer_version}; features: "
               + (", ".join(sorted(features)) or "-"))
    missing = expected_features(t, checks) - features
    if p.min_writer_version < 7:
        implied = {2: {"appendOnly", "invariants"}, 3: {"checkConstraints"}, 4: {"generatedColumns"},
                   5: {"columnMapping"}}
        missing -= {f for v, fs in implied.items() if v <= p.min_writer_version for f in fs}
    if missing:
        out.append("  needs (not written by delta-rs): " + ", ".join(sorted(missing)))
    return "\n".join(out)
