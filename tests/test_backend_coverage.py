"""Node-level coverage (ddlc/backends/coverage.py): every ALTER subcommand class, on every target, is handled
by the subcommand table of the statement holding it or declared unsupported, never both, never neither.

The check runs on the three backends as they are, and is shown to fail, naming the classes, on backends
broken in each way it looks for. Spark's ALTER runner has no fallback: a subcommand class its table lacks
is an internal error, and the refusals declared in the table are reported in the order of the subcommands.
"""

from __future__ import annotations

import pytest

import ddlc
from ddlc.backends import backend_class
from ddlc.backends.coverage import check_nodes, dispatches, dropped_whole, holders, subcommand_table
from ddlc.backends.gaussdb import GaussDBBackend
from ddlc.backends.postgres import PostgresBackend
from ddlc.backends.spark import SparkBackend
from ddlc.ir.alter import AddConstraint, AlterRelation, AlterSubcommand, ChangeOwner, RelOption, RowMovement
from ddlc.ir.alter_columns import AddColumn
from ddlc.ir.alter_partitions import ExchangePartition, TruncateSubpartition
from ddlc.ir.followup import AlterTableFollowup, ModifyColumnAutoIncrement
from ddlc.ir.rules import Refusal, Rule

TARGETS = ("gaussdb", "postgres", "spark")


@pytest.mark.parametrize("target", TARGETS)
def test_every_subcommand_is_handled_or_declared(target):
    check_nodes(backend_class(target))


def test_the_subcommand_classes_come_from_the_ir():
    held = holders()
    assert set(held) == {AlterRelation, AlterTableFollowup}  # the statements typed to hold subcommands
    subs = held[AlterRelation]
    assert AlterSubcommand not in subs  # the base class is abstract
    assert {AddColumn, ExchangePartition, ModifyColumnAutoIncrement, ChangeOwner} <= subs
    assert RelOption not in subs and all(issubclass(c, AlterSubcommand) for c in subs)
    assert len(subs) == len({c.__name__ for c in subs}) > 60  # one class per name: no undecorated leftover


@pytest.mark.parametrize("target", TARGETS)
def test_each_class_is_in_the_table_or_dropped_never_both(target):
    cls = backend_class(target)
    dropped = dropped_whole(cls)
    for stmt, subs in holders().items():
        table = subcommand_table(cls, stmt)
        assert all((c in table) != (c in dropped) for c in subs), stmt


def test_which_table_each_target_dispatches_through():
    from ddlc.backends.postgres import alter as pg_alter
    from ddlc.backends.spark import alter as spark_alter

    assert subcommand_table(GaussDBBackend, AlterRelation) is GaussDBBackend.emitters  # the writer's one table
    assert subcommand_table(PostgresBackend, AlterTableFollowup) is pg_alter.SUB
    assert subcommand_table(SparkBackend, AlterRelation) is spark_alter.SUB
    assert isinstance(spark_alter.SUB[ExchangePartition], Refusal)  # refused in the table, in order


# ---- backends broken on purpose ---------------------------------------------------------------------
def _backend(base, *, rules=None, table=None):
    """A stand-in for a backend class (what check_nodes reads), with other rules or another ALTER table."""
    emitters = dict(base.emitters)
    if table is not None:
        fn = dispatches(lambda: table)(lambda n, e: [])
        emitters[AlterRelation] = emitters[AlterTableFollowup] = fn
    return type("Broken", (), {"name": "broken", "emitters": emitters,
                               "rules": base.rules if rules is None else rules})


def _error(cls) -> str:
    with pytest.raises(TypeError) as exc:
        check_nodes(cls)
    return str(exc.value)


def test_a_class_neither_handled_nor_dropped_is_named():
    from ddlc.backends.spark.alter import SUB

    msg = _error(_backend(SparkBackend, table={c: f for c, f in SUB.items() if c is not AddColumn}))
    assert "neither handled nor dropped" in msg and "AddColumn (in AlterRelation, AlterTableFollowup)" in msg
    # a rule dropping the class only in some forms does not declare it unsupported
    rules = tuple(r for r in SparkBackend.rules if r.node is not ChangeOwner)
    msg = _error(_backend(SparkBackend, rules=(*rules, Rule(ChangeOwner, "DDLC-W840", "m", applies=lambda n: True))))
    assert "ChangeOwner" in msg
    assert "ChangeOwner" in _error(_backend(SparkBackend, rules=rules))
    # GaussDB: the node table itself
    gauss = {c: f for c, f in GaussDBBackend.emitters.items() if c is not RowMovement}
    msg = _error(type("Broken", (), {"name": "broken", "emitters": gauss, "rules": ()}))
    assert "RowMovement" in msg and "AddColumn" not in msg


def test_an_emitter_that_declares_no_table_is_checked_against_the_node_table():
    from ddlc.backends.postgres.alter import alter_relation

    emitters = dict(PostgresBackend.emitters)
    emitters[AlterRelation] = lambda n, e: alter_relation(n, e)  # the same dispatch, undeclared
    msg = _error(type("Broken", (), {"name": "broken", "emitters": emitters, "rules": PostgresBackend.rules}))
    assert "AddColumn" in msg and "(in AlterRelation)" in msg


def test_a_table_entry_a_rule_always_removes_is_refused():
    rules = (*SparkBackend.rules, Rule(AddConstraint, "DDLC-W823", "always"))
    msg = _error(_backend(SparkBackend, rules=rules))
    assert "also dropped by a rule that always applies" in msg and "AddConstraint" in msg


def test_a_handler_for_a_class_no_statement_holds_is_refused():
    from ddlc.backends.spark.alter import SUB

    msg = _error(_backend(SparkBackend, table={**SUB, RelOption: lambda n, a: None}))
    assert "handlers for classes no statement holds: RelOption" in msg


# ---- Spark's ALTER runner -----------------------------------------------------------------------------
def _alter(*subs):
    return {"fmt": "ALTER %{objtype}s %{only}s %{identity}D %{subcmds:, }s", "only": "", "objtype": "TABLE",
            "subcmds": list(subs), "identity": {"objname": "t", "schemaname": "public"}}


TRUNCATE_SUB = {"fmt": "TRUNCATE SUBPARTITION %{partition}s %{gpi}s", "type": "truncate subpartition",
                "partition": "s1", "gpi": ""}
DROP_PK = {"fmt": "DROP PRIMARY KEY", "type": "drop primary key"}


def test_the_runner_has_no_fallback():
    from ddlc.backends.base import EmitContext
    from ddlc.backends.spark.alter_base import Alter
    from ddlc.backends.spark.context import Emit
    from ddlc.errors import InternalError
    from ddlc.ir.alter import AlterObjType, TableComment
    from ddlc.ir.names import QualifiedName

    n = AlterRelation(AlterObjType.TABLE, QualifiedName("t", "public"), (TableComment("c", origin=("subcmds", 0)),))
    with pytest.raises(InternalError, match="spark: no ALTER handler for TableComment"):
        Alter(n, Emit(EmitContext()), {}).run()


def test_refusals_of_the_table_are_reported_in_the_order_of_the_subcommands():
    t = ddlc.translate(_alter(DROP_PK, TRUNCATE_SUB), target="spark", on_unsupported="comment")
    assert [(d.code, d.message, d.path, d.pass_name) for d in t.diagnostics] == [
        ("DDLC-W840", "DROP PRIMARY KEY: the key's name is not in the history; not translated", ("subcmds", 0), None),
        ("DDLC-W850", "TRUNCATE SUBPARTITION has no exact Delta statement; not translated", ("subcmds", 1), None)]
    assert t.comments == ("-- ddlc DDLC-W840: not translated: DROP PRIMARY KEY",
                          "-- ddlc DDLC-W850: not translated: TRUNCATE SUBPARTITION s1")
    assert TruncateSubpartition not in {r.node for r in SparkBackend.rules}


def test_an_emitter_that_writes_the_statement_whole_declares_it():
    from ddlc.backends.coverage import writes_whole

    emitters = dict(SparkBackend.emitters)
    emitters[AlterRelation] = emitters[AlterTableFollowup] = writes_whole(lambda n, e: [])
    whole = type("Whole", (), {"name": "whole", "emitters": emitters, "rules": ()})
    check_nodes(whole)  # nothing is dispatched: nothing to cover
    assert subcommand_table(whole, AlterRelation) is None
    del emitters[AlterTableFollowup]  # (a statement the backend does not emit is check_coverage's business)
    check_nodes(whole)
