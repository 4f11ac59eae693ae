"""Every Spark statement ddlc writes for the fixture corpus is executed, and what the engines then hold is
compared with what the statement meant (issue 23.10; the method: tests/engines/spark_meaning.py,
delta_follow.py, spark_execute.py).

The corpus: each Spark golden case (after its schemas and its ``setup.spark.sql``), each decoded history of
fixtures/histories in both input forms (translated as one stream, so that the history decides what ALTER
can do) and once more under other options (no column mapping, PARTITIONED BY, VARCHAR as STRING, keys
dropped), the ``ddlc replay --to spark`` script of each history, and the sample and example logs. For each
statement, in order:

1. Spark 4 parses it; the parsed plan is applied to a model of the catalog (what the statement means:
   columns, types, nullability, defaults, comments, generation, identity, partitioning, clustering,
   properties, constraints, views, schemas);
2. it runs in Spark's session catalog with the stand-in ``delta`` source, and the table, view or schema it
   touched is read back and compared with the model (a CREATE TABLE with identity or generated columns runs
   there without those clauses; CHECK and key constraints, SET NOT NULL, TRUNCATE/UPDATE/DELETE need Delta's
   own catalog and are counted as such);
3. every CREATE TABLE is also a real Delta table (delta-rs), which follows the ALTERs delta-rs has an
   operation for; after each, its schema, identity and generation metadata, configuration (properties and
   CHECK constraints) and protocol features are compared with the model.

Any difference fails the test, as does a statement the stand-in refuses for another reason than needing
Delta — except a statement on a relation no statement of the sequence made, after a statement ddlc could not
write for Spark (SET SCHEMA, RENAME SCHEMA: the relation is not where the source says), and the statements
of :data:`KNOWN`, ddlc bugs this test found, each of which must still fail — or a statement kind the model
does not know.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import ddlc
from conftest import CASES, case_id
from engines.spark_execute import execute, missing_schemas
from test_spark_golden import SPARK_CASES, _input_schemas

ROOT = Path(__file__).resolve().parent.parent
HISTORIES = sorted((ROOT / "fixtures" / "histories").glob("*.jsonl"))
LOGS = [ROOT / "fixtures" / "sample" / "ddl.jsonl", *sorted((ROOT / "examples" / "ddl").glob("*.json"))]
TOTALS: dict[str, int] = {}
# Statements ddlc writes that Spark refuses, found by this test: ddlc bugs to fix (then take them out; the test
# fails when a listed statement runs)
KNOWN: dict[str, str] = {}


def _check(run, what: str, results, refused_names: bool = False) -> None:
    for k, v in run.counts.items():
        TOTALS[k] = TOTALS.get(k, 0) + v
    if run.counts.get("refused: relation unknown"):  # only after a statement Spark could not be given, or of a
        # name Spark's catalog refuses (DDLC-W803: its CREATE could not run either)
        assert refused_names or any(t.untranslated for t in results), "\n".join(run.lines)
    assert not run.differences, f"{what}:\n" + "\n".join(run.differences) + "\n\n" + "\n".join(run.lines)


def _statements(results) -> list[str]:
    results = list(results)
    for t in results:
        assert t.error is None, t.error
    return [s for t in results for s in t.statements]


@pytest.mark.parametrize("case", SPARK_CASES, ids=case_id)
def test_golden_statements_mean_what_the_engines_hold(case, spark, tmp_path):
    pre = [f"CREATE SCHEMA IF NOT EXISTS `{s}`" for s in sorted(_input_schemas(case))]
    setup = case / "setup.spark.sql"
    if setup.exists():
        pre += [s for s in setup.read_text("utf-8").split(";\n") if s.strip()]
    results = list(ddlc.translate_many((case / "input.json").read_bytes(), target="spark", on_unsupported="skip"))
    if not _statements(results):
        return  # nothing written (every statement untranslated): nothing to run
    codes = {d.code for t in results for d in t.diagnostics}
    spark.reset()
    run = execute(spark, pre + _statements(results), str(tmp_path), refused_names="DDLC-W803" in codes)
    _check(run, case_id(case), results, "DDLC-W803" in codes)


@pytest.mark.parametrize("log", HISTORIES + LOGS, ids=lambda p: p.name)
def test_history_statements_mean_what_the_engines_hold(log, spark, tmp_path):
    spark.reset()
    results = list(ddlc.translate_many(log.read_bytes(), target="spark", on_unsupported="skip"))
    statements = _statements(results)
    assert statements
    _check(execute(spark, missing_schemas(spark, statements) + statements, str(tmp_path), known=KNOWN), log.name,
           results)


@pytest.mark.parametrize("log", [h for h in HISTORIES if ".jddl." in h.name], ids=lambda p: p.name)
def test_history_statements_under_other_options(log, spark, tmp_path):
    """The same histories without column mapping (so delta-rs follows ADD COLUMNS too), LIST/RANGE partitioning
    both written as PARTITIONED BY, VARCHAR as STRING, and the keys dropped."""
    spark.reset()
    results = list(ddlc.translate_many(log.read_bytes(), target="spark", on_unsupported="skip",
                                       spark_column_mapping="none", spark_partitioning="partition",
                                       spark_varchar="string", spark_constraints="drop"))
    statements = _statements(results)
    assert statements
    _check(execute(spark, missing_schemas(spark, statements) + statements, str(tmp_path), known=KNOWN),
           f"{log.name} (options)", results)


@pytest.mark.parametrize("log", [h for h in HISTORIES if ".jddl." in h.name], ids=lambda p: p.name)
def test_replay_script_means_what_the_engines_hold(log, spark, tmp_path):
    from ddlc.api import Options
    from ddlc.frontend.documents import read_inputs
    from ddlc.replay import fold_log, script

    spark.reset()
    options = Options.of(on_unsupported="skip")
    result = fold_log(read_inputs([str(log)], stdin=sys.stdin), options)
    statements = [s for p in script(result, "spark", options) for s in p.result.statements]
    assert statements
    _check(execute(spark, statements, str(tmp_path)), f"replay {log.name}", [])


def test_report_what_was_checked_how(spark):
    """Printed with -s: how many statements each engine ran, and how many needed Delta's own catalog. (It asks for
    the session so that, on pytest-xdist workers, it runs with the tests above, after them: TOTALS is theirs.)"""
    print("\n" + json.dumps(dict(sorted(TOTALS.items())), indent=1))
    assert CASES.is_dir()
