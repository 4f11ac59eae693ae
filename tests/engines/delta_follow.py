"""Real Delta tables (delta-rs) that follow a sequence of Spark statements (issue 23.10; see
:mod:`engines.spark_meaning` for the method): one per CREATE TABLE, then the ALTERs delta-rs has an operation for,
read back after each and compared with what the statements meant."""

from __future__ import annotations

import json
import re
from typing import Any

from .spark import _map, _opt, _seq, delta_field, expected_features, planned_table
from .spark_meaning import Key, Model, Rel, _cmp, _type


class DeltaTables:
    """One real Delta table (delta-rs) per CREATE TABLE, following the ALTERs delta-rs has an operation for."""

    def __init__(self, root: str) -> None:
        self.root = root
        self.tables: dict[Key, Any] = {}
        self.features: dict[Key, set[str]] = {}
        self.stopped: dict[Key, str] = {}  # table -> why delta-rs stopped following it
        # tables with identity columns: delta-rs writes nothing to a table that needs identityColumns, so the feature
        # is added when the following ends (finish)
        self.pending: set[Key] = set()
        self.count = 0

    def apply(self, plan: Any, keys: list[Key], model: Model) -> str | None:
        """Apply the statement to the Delta tables it touches; what was done (None: no Delta table concerned)."""
        kind = plan.getClass().getSimpleName()
        if kind == "CreateTable":
            k = keys[0]
            self.count += 1
            self.tables[k], self.features[k] = create_delta(f"{self.root}/d{self.count}", plan, identity=False)
            self.stopped.pop(k, None)
            if "identityColumns" in self.features[k]:
                self.pending.add(k)
            return "created"
        k = keys[0]
        if kind in ("DropTable", "DropNamespace"):
            for key in [key for key in self.tables if key == k or (kind == "DropNamespace" and key[0] == k[0])]:
                del self.tables[key]
            return None
        dt = self.tables.get(k)
        if dt is None:
            return None
        try:
            done = self._alter(kind, plan, dt, k, keys, model)
        except Exception as exc:  # noqa: BLE001 - delta-rs refuses: it cannot express this statement
            done = f"delta-rs refuses it: {str(exc).splitlines()[0][:120]}"
        if done.startswith(("delta-rs has no", "delta-rs refuses")):
            self.stopped[k] = done
            self.finish(model, [k])  # (the model is already past the statement: only the features are compared)
            del self.tables[k]
        return done

    def finish(self, model: Model, keys: list[Key] | None = None) -> list[str]:
        """Add the identityColumns feature to the tables still waiting for it; the differences then."""
        from deltalake import TableFeatures

        out: list[str] = []
        for k in [k for k in (keys or list(self.tables)) if k in self.pending and k in self.tables]:
            dt = self.tables[k]
            mapped = "columnMapping" in self.features[k] and dt.protocol().min_writer_version < 7
            # with column mapping in the same call: added alone to a 2/5 table, identityColumns leaves columnMapping
            # out of the 3/7 protocol's feature lists
            dt.alter.add_feature([TableFeatures.ColumnMapping, TableFeatures.IdentityColumns] if mapped
                                 else TableFeatures.IdentityColumns, allow_protocol_versions_increase=True)
            self.pending.discard(k)
            if keys is None:
                out += self.compare(k, model.rels.get(k))
        return out

    def _alter(self, kind: str, p: Any, dt: Any, k: Key, keys: list[Key], model: Model) -> str:
        if kind == "AddCheckConstraint":
            c = p.checkConstraint()
            dt.alter.add_constraint({c.userProvidedName(): c.condition()})
            self.features[k].add("checkConstraints")
            return "CHECK constraint added"
        if kind == "DropConstraint":
            if p.name() in model.rels[k].keys or p.name() not in self._checks(dt):
                return "no Delta table change (an informational key)"
            dt.alter.drop_constraint(p.name(), raise_if_not_exists=not p.ifExists())
            return "constraint dropped"
        if kind in ("AddConstraint", "TruncateTable", "UpdateTable", "DeleteFromTable"):
            return "no schema change"
        if kind == "CommentOnTable":
            dt.alter.set_table_description(p.comment())
            return "description set"
        if kind == "RenameTable":
            dt.alter.set_table_name(keys[1][1])
            self.tables[keys[1]] = self.tables.pop(k)
            self.features[keys[1]] = self.features.pop(k)
            return "renamed"
        if kind == "SetTableProperties":
            props = dict(_map(p.properties()))
            for key, v in props.items():
                if key.startswith("delta.feature.") and v == "supported":
                    self.features[k].add(key.removeprefix("delta.feature."))
            rest = {key: v for key, v in props.items() if not key.startswith("delta.feature.")}
            if rest:
                dt.alter.set_table_properties(rest)
            return "properties set"
        if kind == "AddColumns":
            from deltalake import Field

            fields = []
            for q in _seq(p.columnsToAdd()):
                if _opt(q.position()) is not None:
                    return "delta-rs has no operation for ADD COLUMNS ... FIRST/AFTER"
                typ, md = json.loads(q.dataType().json()), {}
                if "char(" in _type(typ):  # stored as a string, its declared type in the metadata (as Spark's Delta)
                    md["__CHAR_VARCHAR_TYPE_STRING"] = _type(typ)
                    typ = re.sub(r"(?:var)?char\(\d+\)", "string", json.dumps(typ))
                    typ = json.loads(typ)
                if _opt(q.comment()) is not None:
                    md["comment"] = _opt(q.comment())
                if _opt(q.default()) is not None:
                    md["CURRENT_DEFAULT"] = _opt(q.default()).originalSQL()
                fields.append(Field.from_json(json.dumps({"name": str(_seq(q.name())[-1]), "type": typ,
                                                          "nullable": q.nullable(), "metadata": md})))
            dt.alter.add_columns(fields)  # (delta-rs refuses it on a column-mapped table: then it stops here)
            return "columns added"
        if kind == "AlterColumns":
            for s in _seq(p.specs()):
                col = str(_seq(s.column().name())[-1])
                if any(x is not None for x in (_opt(s.newDataType()), _opt(s.newPosition()))) or s.dropDefault() \
                        or s.dropComment():
                    return "delta-rs has no operation for this ALTER COLUMN (type, position, DROP DEFAULT/COMMENT)"
                n, cm, d = _opt(s.newNullability()), _opt(s.newComment()), _opt(s.newDefaultExpression())
                if n is not None and not n:
                    return "delta-rs has no operation for SET NOT NULL"
                if n:
                    dt.alter.drop_column_not_null(col)
                md = {**({"comment": cm} if cm is not None else {}),
                      **({"CURRENT_DEFAULT": d.originalSQL()} if d is not None else {})}
                if md:
                    dt.alter.set_column_metadata(col, md)
            return "columns altered"
        return f"delta-rs has no operation for {kind}"

    @staticmethod
    def _checks(dt: Any) -> set[str]:
        return {k.removeprefix("delta.constraints.") for k in dt.metadata().configuration
                if k.startswith("delta.constraints.")}

    def compare(self, k: Key, want: Rel | None) -> list[str]:
        """Differences between the model (every statement) and the Delta table delta-rs holds for ``k``."""
        dt = self.tables.get(k)
        if dt is None or want is None:
            return []
        out: list[str] = []
        name = "delta " + ".".join(k)
        fields = json.loads(dt.schema().to_json())["fields"]
        _cmp(f"{name} columns", [c.name for c in want.columns], [f["name"] for f in fields], out)
        for c, f in zip(want.columns, fields, strict=False):
            md = f["metadata"]
            got_type = md.get("__CHAR_VARCHAR_TYPE_STRING") or _type(f["type"])
            _cmp(f"{name}.{c.name} type", c.type, got_type, out)
            _cmp(f"{name}.{c.name} nullable", c.nullable, f["nullable"], out)
            _cmp(f"{name}.{c.name} comment", c.comment, md.get("comment"), out)
            _cmp(f"{name}.{c.name} default", c.default, md.get("CURRENT_DEFAULT"), out)
            _cmp(f"{name}.{c.name} generation", c.generated, md.get("delta.generationExpression"), out)
            ident = None
            if "delta.identity.start" in md:
                ident = (int(md["delta.identity.start"]), int(md["delta.identity.step"]),
                         str(md["delta.identity.allowExplicitInsert"]).lower() == "true")
            _cmp(f"{name}.{c.name} identity", c.identity, ident, out)
        meta = dt.metadata()
        _cmp(f"{name} partition columns", want.partition, list(meta.partition_columns), out)
        _cmp(f"{name} description", want.comment, meta.description, out)
        conf = {k_: v for k_, v in meta.configuration.items() if k_ != "delta.columnMapping.maxColumnId"}
        want_conf = {k_: v for k_, v in want.properties.items()
                     if k_.startswith("delta.") and not k_.startswith("delta.feature.")}
        want_conf.update({f"delta.constraints.{n.lower()}": c for n, c in want.checks.items()})
        conf = {k_: _uncast(v) if k_.startswith("delta.constraints.") else v for k_, v in conf.items()}
        _cmp(f"{name} configuration", want_conf, conf, out)
        p = dt.protocol()
        have = set(p.writer_features or ()) | set(p.reader_features or ())
        implied = {2: {"appendOnly", "invariants"}, 3: {"checkConstraints"}, 4: {"generatedColumns"},
                   5: {"columnMapping"}}
        if p.min_writer_version < 7:
            have |= {f for v, fs in implied.items() if v <= p.min_writer_version for f in fs}
        if want.clustering:
            self.features[k].add("clustering")
        missing = self.features[k] - have - DELTA_RS_CANNOT - ({"identityColumns"} if k in self.pending else set())
        if missing:
            out.append(f"{name}: table features the statements imply are not in its protocol: {sorted(missing)}")
        return out


_CAST = re.compile(r"'(-?[0-9.]+)'::\w+(?:\(\d+(?:, \d+)?\))?")


def _uncast(condition: str) -> str:
    """A CHECK condition as delta-rs stores it, its literals' casts taken off (``amount > '0'::decimal(10, 2)``
    -> ``amount > 0``): delta-rs writes the condition it analysed."""
    return _CAST.sub(r"\1", condition)


def create_delta(path: str, plan: Any, identity: bool = True) -> tuple[Any, set[str]]:
    """A real Delta table for a CREATE TABLE plan, as :func:`engines.spark.delta_table` makes it but with the
    ``__CHAR_VARCHAR_TYPE_STRING`` metadata Spark's Delta writes also on a nested VARCHAR/CHAR
    (``array<varchar(10)>``); and the table features the statement implies. ``identity=False`` leaves the
    identityColumns feature out (:meth:`DeltaTables.finish` adds it)."""
    import pyarrow as pa
    from deltalake import DeltaTable, TableFeatures

    t = planned_table(plan)
    fields = [delta_field(c, _type(c.type) if "char(" in _type(c.type) else None) for c in t.columns]
    config = {k: v for k, v in t.properties.items() if k.startswith("delta.") and not k.startswith("delta.feature.")}
    dt = DeltaTable.create(path, schema=pa.schema(fields), mode="error", partition_by=t.partition_columns or None,
                           name=t.name[-1], description=t.comment, configuration=config or None)
    mapped = config.get("delta.columnMapping.mode", "none") != "none"
    if identity and any(c.identity is not None for c in t.columns):
        # last (delta-rs writes no table that needs it), and with column mapping in the same call: added alone to a
        # 2/5 table it leaves columnMapping out of the 3/7 protocol's feature lists
        dt.alter.add_feature([TableFeatures.ColumnMapping, TableFeatures.IdentityColumns] if mapped
                             else TableFeatures.IdentityColumns, allow_protocol_versions_increase=True)
    elif mapped and dt.protocol().min_writer_version >= 7:
        dt.alter.add_feature(TableFeatures.ColumnMapping, allow_protocol_versions_increase=True)
    return dt, expected_features(t, {})


# Table features the DDL implies that delta-rs 1.x cannot write (it refuses to create or enable them):
# compared in the stand-in (the property) and reported, not failed
DELTA_RS_CANNOT = {"allowColumnDefaults", "clustering"}




__all__ = ["DELTA_RS_CANNOT", "DeltaTables", "create_delta"]
