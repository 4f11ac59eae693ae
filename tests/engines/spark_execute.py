"""Run a sequence of Spark statements on the stand-in and on delta-rs, comparing after each statement what the
engines hold with what the statement meant (issue 23.10; the method: :mod:`engines.spark_meaning`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .delta_follow import DeltaTables
from .spark import NeedsDelta, planned_table
from .spark_meaning import (Model, Unknown, _cmp, _ident, catalog_rel, catalog_schemas, compare_catalog,
                            without_delta_only)


def missing_schemas(engine: Any, statements: list[str]) -> list[str]:
    """``CREATE SCHEMA IF NOT EXISTS`` for each schema the statements create relations in and never create
    (a log that starts after its schemas were made)."""
    used, made = [], set()
    for sql in statements:
        p = engine.parse(sql)
        kind = p.getClass().getSimpleName()
        if kind == "CreateNamespace":
            made.add(_ident(p)[-1].lower())
        elif kind in ("CreateTable", "CreateTableAsSelect", "CreateView"):
            parts = planned_table(p).name if kind == "CreateTable" else _ident(p.name() if kind != "CreateView"
                                                                                else p.child())
            if len(parts) >= 2 and parts[-2].lower() not in used:
                used.append(parts[-2].lower())
    return [f"CREATE SCHEMA IF NOT EXISTS `{s}`" for s in used if s not in made]


# ---- one sequence of statements ----------------------------------------------------------------------------------
NEEDS_DELTA_OK = {"AddCheckConstraint", "AddConstraint", "DropConstraint", "TruncateTable", "UpdateTable",
                  "DeleteFromTable", "AlterColumns"}


@dataclass
class Run:
    """What happened to each statement (for the report) and every difference found (must be none)."""

    lines: list[str] = field(default_factory=list)
    differences: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    model: Any = None  # the model of every statement (engines.spark_meaning.Model), at the end

    def count(self, what: str) -> None:
        self.counts[what] = self.counts.get(what, 0) + 1


def execute(engine: Any, statements: list[str], root: str, refused_names: bool = False,
            known: dict[str, str] | None = None) -> Run:
    """Parse, model and execute ``statements`` in order on the stand-in and on delta-rs; compare after each.

    ``known``: statements known to fail on Spark (statement -> the reason, a ddlc bug to fix): each must still
    fail, with its reason in the report; one that runs is a difference (take it out of the list)."""
    conf = engine.session.conf
    allowed = conf.get("spark.sql.defaultColumn.allowedProviders")
    # Delta keeps column defaults itself (allowColumnDefaults); Spark's own check would refuse an ADD COLUMNS on a
    # stand-in table that has defaults
    conf.set("spark.sql.defaultColumn.allowedProviders", allowed + ",delta")
    try:
        return _execute(engine, statements, root, refused_names, known or {})
    finally:
        conf.set("spark.sql.defaultColumn.allowedProviders", allowed)


def _execute(engine: Any, statements: list[str], root: str, refused_names: bool, known: dict[str, str]) -> Run:
    run = Run()
    full, stand_in = Model(), Model()
    full.schemas = catalog_schemas(engine)  # what was there before (default)
    stand_in.schemas = dict(full.schemas)
    delta = DeltaTables(root)
    for sql in statements:
        plan = engine.parse(sql)
        kind = plan.getClass().getSimpleName()
        try:
            keys = full.apply(plan, engine)
        except Unknown as exc:  # a relation no statement of the sequence made: the engine must refuse it too
            try:
                engine.run(sql)
            except Exception as refused:  # noqa: BLE001
                run.count("refused: relation unknown")
                run.lines.append(f"{kind}: refused, {exc} ({str(refused).splitlines()[0][:120]})\n  {sql[:150]}")
                continue
            raise AssertionError(f"{sql}\n  ran on a relation no statement made") from None
        ran = sql
        try:
            engine.run(sql)
            how = "ran"
            if sql in known:
                run.differences.append(f"{sql}\n  ran; it is listed as known to fail ({known[sql]}): take it out")
        except NeedsDelta as why:
            if kind == "CreateTable" and without_delta_only(sql) != sql:
                ran = without_delta_only(sql)
                engine.run(ran)
                how = "ran without identity/generation (checked on delta-rs)"
            elif kind in NEEDS_DELTA_OK:
                ran, how = None, f"needs Delta ({why})"
            else:
                raise AssertionError(f"{sql}\n  needs Delta: {why}") from None
        except Exception as exc:  # noqa: BLE001
            text = str(exc).splitlines()[0]
            gone = any(k not in stand_in.rels and k[1] for k in keys[:1]) and kind != "CreateTable"
            if sql in known:
                ran, how = None, f"known to fail: {known[sql]} ({text[:100]})"
            elif refused_names and ("INVALID_SCHEMA_OR_RELATION_NAME" in text or "TABLE_OR_VIEW_NOT_FOUND" in text):
                ran, how = None, "refused by the session catalog (name; DDLC-W803)"
            elif gone:
                ran, how = None, "its relation is not in the stand-in"
            else:
                raise AssertionError(f"{sql}\n  -> {text[:300]}") from None
        if ran is not None:
            stand_in.apply(engine.parse(ran) if ran != sql else plan, engine)
        run.count(how.split(" (")[0])
        for k in keys:
            if k[1] == "":
                got = catalog_schemas(engine)
                _cmp(f"schema {k[0]}", stand_in.schemas.get(k[0], "<none>"), got.get(k[0], "<none>"),
                     run.differences)
                continue
            if ran is not None:
                run.differences += compare_catalog(k, stand_in.rels.get(k), catalog_rel(engine, k))
        done = delta.apply(plan, keys, full)
        if done is not None:
            run.count("delta-rs: " + ("stopped: " + done.removeprefix("delta-rs ")[:60] if done.startswith("delta-rs")
                                      else "applied"))
            for k in keys:
                run.differences += delta.compare(k, full.rels.get(k))
        run.lines.append(f"{kind}: {how}" + (f"; delta-rs: {done}" if done else "") + f"\n  {sql[:150]}")
    run.model = full
    run.differences += delta.finish(full)
    _cmp("schemas", {k: v for k, v in stand_in.schemas.items()}, catalog_schemas(engine), run.differences)
    return run


__all__ = ["NEEDS_DELTA_OK", "Run", "execute", "missing_schemas"]

