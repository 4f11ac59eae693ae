"""Functions, triggers, schemas, events, NEWPUB (reference §5.8-5.11, §5.16, §5.17) and the TDDL
recovery of the statement kinds with no tree (§5.18): IR fields, function-text parsing, lossless
GaussDB round trips."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ddlc
from ddlc.backends.gaussdb import emit, to_jddl
from ddlc.backends.gaussdb.routine import function_text, render_function
from ddlc.errors import DdlcError
from ddlc.frontend.build import build
from ddlc.frontend.sql.functext import FunctionTextError, crosscheck, parse_function_text
from ddlc.jddl.expand import expand
from ddlc.frontend.recover import recover_tddl, statement_kind
from ddlc.ir.base import Node, replace, to_json, transform
from ddlc.ir.event import AlterEvent, CreateEvent, DropEvent, NewPub
from ddlc.ir.misc import (
    AlterDatabase, AlterMatView, CreateDatabase, CreateMatView, CreateTableAs, DdlAction, DropDatabase, DropMatView,
    DropRoutine, Grant, GrantRole, Package, Reindex, ReindexKind, RefreshMatView, Truncate,
)
from ddlc.ir.names import Expr, QualifiedName, TypeName
from ddlc.ir.routine import (
    AlterFunction, ArgMode, CreateFunction, FunctionActionKind, FunctionStyle, NullInput, RoutineKind, Security,
    Volatility,
)
from ddlc.ir.schema import AlterSchemaBlockchain, AlterSchemaCharset, CreateSchema
from ddlc.ir.statement import Opaque, OpaqueReason
from ddlc.ir.trigger import CreateTrigger, TriggerEventKind, TriggerLevel, TriggerTiming

PG = QualifiedName
INT4 = {"typmod": "", "typarray": False, "typename": "int4", "schemaname": "pg_catalog"}

# ---- the reference's example trees (§5.8-5.11, §5.16, §5.17) and more of the same shapes --------
ADD1_TEXT = ("CREATE OR REPLACE FUNCTION public.add1(a integer)\n RETURNS integer\n LANGUAGE plpgsql\n"
             " NOT FENCED NOT SHIPPABLE\nAS $function$ begin return a + 1; end $function$;\n")
CREATE_FUNCTION = {"fmt": "%{function}s", "myowner": "alice", "function": ADD1_TEXT}
ALTER_FUNCTION = {
    "fmt": "ALTER FUNCTION %{signature}s %{definition: }s",
    "signature": {"fmt": "%{identity}D (%{arguments:, }s)", "identity": {"objname": "add1", "schemaname": "public"},
                  "arguments": [{"fmt": "%{type}T", "type": INT4}]},
    "definition": [{"fmt": "immutable"}, {"fmt": "COST %{cost}n", "cost": 10},
                   {"fmt": "SET %{set_name}I TO %{set_value}L", "set_name": "work_mem", "set_value": "64MB"},
                   {"fmt": "ROWS %{rows}n", "present": False}],
}
ALTER_PROCEDURE = {"fmt": "ALTER PROCEDURE %{signature}s %{definition: }s",
                   "signature": {"fmt": "%{identity}D ()", "identity": {"objname": "p_cleanup", "schemaname": "public"}},
                   "definition": [{"fmt": "SECURITY DEFINER"}]}
ALTER_FUNCTION_ALL = {
    "fmt": "ALTER FUNCTION %{signature}s %{definition: }s",
    "signature": {"fmt": "%{identity}D (%{arguments:, }s)", "identity": {"objname": "f", "schemaname": "s"},
                  "arguments": [{"fmt": "%{type}T", "type": INT4},
                                {"fmt": "%{type}T", "type": {"typmod": "(10)", "typarray": True, "typename": "varchar",
                                                             "schemaname": "pg_catalog"}}]},
    "definition": [{"fmt": "stable"}, {"fmt": "RETURNS NULL ON NULL INPUT"}, {"fmt": "CALLED ON NULL INPUT"},
                   {"fmt": "AUTHID CURRENT_USER"}, {"fmt": "NOT LEAKPROOF"}, {"fmt": "ROWS %{rows}n", "rows": 50},
                   {"fmt": "COST %{cost}n", "cost": 0.5},
                   {"fmt": "SET %{set_name}I TO %{set_value}s", "set_name": "search_path", "set_value": '"$user", public'},
                   {"fmt": "RESET %{set_name}I", "set_name": "work_mem"}, {"fmt": "RESET ALL"},
                   {"fmt": "PARALLEL %{value}s", "value": "safe"}],
}
_TRG = ("CREATE %{definer}s %{constraint}s TRIGGER %{if_not_exists}s %{name}I %{time}s %{events: OR }s ON %{relation}D "
        "%{from_table}s")
TRIGGER_ROW = {
    "fmt": _TRG + " FOR EACH %{for_each}s %{when}s EXECUTE PROCEDURE %{function}s %{bodysrc}s",
    "name": "trg_orders", "time": "BEFORE",
    "when": {"fmt": "WHEN (%{clause}s)", "clause": "(new.amount > (0)::numeric)"},
    "events": ["INSERT", {"fmt": "UPDATE OF %{columns:, }I", "kind": "update_of", "columns": ["amount", "note"]}],
    "bodysrc": {"fmt": "", "present": False}, "definer": {"fmt": "DEFINER =%{definer}s", "present": False},
    "myowner": "alice", "for_each": "ROW",
    "function": {"fmt": "%{funcname}D ( %{args:, }L )", "args": ["it's", "x"],
                 "funcname": {"objname": "trg_fn", "schemaname": "public"}},
    "relation": {"objname": "orders", "schemaname": "public"}, "constraint": "",
    "from_table": {"fmt": "FROM %{relation}D", "present": False}, "if_not_exists": "",
}
TRIGGER_CONSTRAINT = {
    "fmt": _TRG + " %{constraint_attrs: }s FOR EACH %{for_each}s %{when}s EXECUTE PROCEDURE %{function}s %{bodysrc}s",
    "name": "ctrg", "time": "AFTER", "when": {"fmt": "WHEN %{clause}s", "present": False}, "events": ["DELETE"],
    "bodysrc": {"fmt": "", "present": False}, "definer": {"fmt": "DEFINER =%{definer}s", "present": False},
    "myowner": "alice", "for_each": "ROW",
    "function": {"fmt": "%{funcname}D ( )", "funcname": {"objname": "trg_fn", "schemaname": "public"}},
    "relation": {"objname": "orders", "schemaname": "public"}, "constraint": "CONSTRAINT",
    "from_table": {"fmt": "FROM %{relation}D", "relation": {"objname": "customers", "schemaname": "public"}},
    "if_not_exists": "", "constraint_attrs": ["DEFERRABLE INITIALLY", "DEFERRED"],
}
TRIGGER_B = {
    "fmt": _TRG + " FOR EACH %{for_each}s %{when}s %{bodysrc}s",
    "name": "trg_b", "time": "AFTER", "when": {"fmt": "WHEN %{clause}s", "present": False}, "events": ["INSERT"],
    "bodysrc": {"fmt": "%{bodysrc}s", "bodysrc": "    BEGIN     insert into db1.log values (new.id); END"},
    "definer": {"fmt": "DEFINER =%{definer}s", "definer": "bob"}, "myowner": "bob", "for_each": "ROW",
    "relation": {"objname": "t_b", "schemaname": "db1"}, "constraint": "",
    "from_table": {"fmt": "FROM %{relation}D", "present": False}, "if_not_exists": "IF NOT EXISTS",
}
TRIGGER_STATEMENT = {
    **TRIGGER_CONSTRAINT, "name": "Big", "time": "INSTEAD OF", "for_each": "STATEMENT", "constraint": "",
    "events": ["INSERT", "DELETE", "TRUNCATE", "UPDATE"], "from_table": {"fmt": "FROM %{relation}D", "present": False},
    "fmt": _TRG + " FOR EACH %{for_each}s %{when}s EXECUTE PROCEDURE %{function}s %{bodysrc}s",
}
del TRIGGER_STATEMENT["constraint_attrs"]
TRIGGER_NOT_DEFERRABLE = {**TRIGGER_CONSTRAINT, "constraint_attrs": ["NOT", "DEFERRABLE INITIALLY", "IMMEDIATE"]}
SCHEMA_QUOTED = {"fmt": "CREATE SCHEMA %{if_not_exists}s %{name}I %{authorization}s %{blockchain}s", "name": "Sales",
                 "myowner": "alice", "blockchain": {"fmt": "WITH BLOCKCHAIN %{blockchain}s", "present": False},
                 "authorization": {"fmt": "AUTHORIZATION %{authorization_role}I", "present": False},
                 "if_not_exists": "IF NOT EXISTS"}
SCHEMA_LEDGER = {"fmt": "CREATE SCHEMA %{if_not_exists}s %{name}I %{authorization}s %{blockchain}s", "name": "ledger",
                 "blockchain": {"fmt": "WITH BLOCKCHAIN"},
                 "authorization": {"fmt": "AUTHORIZATION %{authorization_role}I", "authorization_role": "bob"},
                 "if_not_exists": ""}
SCHEMA_AUTH_ONLY = {**SCHEMA_LEDGER, "name": "", "blockchain": {"fmt": "WITH BLOCKCHAIN %{blockchain}s", "present": False}}
ALTER_SCHEMA_WITHOUT = {"fmt": "ALTER SCHEMA %{schemaname}I %{with}s BLOCKCHAIN", "with": "WITHOUT", "schemaname": "ledger"}
ALTER_SCHEMA_WITH_GAUSS = {"fmt": "ALTER SCHEMA %{schema_name}I %{with}s BLOCKCHAIN", "with": "WITH", "schema_name": "L"}
ALTER_SCHEMA_CHARSET = {"fmt": "ALTER SCHEMA %{schemaname}I CHARACTER SET = %{charset}s COLLATE = %{collate}s",
                        "charset": "UTF8", "collate": "utf8mb4_bin", "schemaname": "db1"}
ALTER_SCHEMA_COLLATE = {"fmt": "ALTER SCHEMA %{schemaname}I COLLATE = %{collate}s", "collate": "utf8mb4_bin",
                        "schemaname": "db1"}
_EV_BODY = {"fmt": "%{opt_ev_on_completion}s %{opt_ev_status}s COMMENT '%{comment_opt}s' DO %{ev_body}s",
            "ev_body": "delete from db1.log", "comment_opt": "", "opt_ev_status": "",
            "opt_ev_on_completion": "ON COMPLETION NOT PRESERVE"}
CREATE_EVENT = {
    "fmt": "CREATE %{definer_opt}s EVENT %{if_not_exits}s %{schema}s.%{eventname}s ON SCHEDULE EVERY %{every_interval}s "
           "STARTS '%{start_expr}s' ENDS '%{end_expr}s' %{event_body}s",
    "schema": "db1", "myowner": "bob", "end_expr": "2025-12-31 00:00:00", "eventname": "ev_purge", "event_body": _EV_BODY,
    "start_expr": "2025-01-01 00:00:00", "definer_opt": "DEFINER = bob", "if_not_exits": "IF NOT EXISTS",
    "every_interval": " '1'  day",
}
CREATE_EVENT_AT = {
    "fmt": "CREATE %{definer_opt}s EVENT %{if_not_exits}s %{schema}s.%{eventname}s ON SCHEDULE STARTS '%{start_expr}s' "
           "%{event_body}s",
    "schema": "db1", "eventname": "Once", "start_expr": "2025-01-01 00:00:00", "definer_opt": "", "if_not_exits": "",
    "event_body": {**_EV_BODY, "opt_ev_status": "DISABLE ON SLAVE", "comment_opt": "it's",
                   "opt_ev_on_completion": "ON COMPLETION PRESERVE"},
}
ALTER_EVENT = {"fmt": "ALTER %{definer_opt}s EVENT %{schema}s.%{eventname}s ON SCHEDULE EVERY %{every_interval}s DISABLE "
                      "COMMENT '%{comment}s' ",
               "schema": "db1", "comment": "paused", "myowner": "bob", "eventname": "ev_purge", "definer_opt": "",
               "every_interval": " '2'  hour"}
ALTER_EVENT_ALL = {"fmt": "ALTER %{definer_opt}s EVENT %{schema}s.%{eventname}s ON SCHEDULE AT '%{start_expr}s' "
                          "ENDS '%{end_expr}s' ON COMPLETION PRESERVE RENAME TO %{new_name}s ENABLE DO %{action}s ",
                   "schema": "db1", "eventname": "e", "definer_opt": "DEFINER = root", "start_expr": "2025-02-01 00:00:00",
                   "end_expr": "2025-03-01 00:00:00", "new_name": "e2", "action": "select 1"}
DROP_EVENT = {"fmt": "DROP EVENT %{if_exists}s %{schema}s.%{eventname}s", "schema": "db1", "myowner": "bob",
              "eventname": "ev_purge", "if_exists": "IF EXISTS"}
NEWPUB = {"fmt": "NEWPUB %{objtype}s %{identity}D", "objtype": "table", "identity": {"objname": "orders", "schemaname": "public"}}
NEWPUB_GAUSS = {"fmt": "NEWPUB %{object_type}s %{identity}D", "object_type": "table",
                "identity": {"object_name": "orders", "schema_name": "public"}}

REFERENCE = {  # the reference's examples with their documented expansions
    "5.8": (CREATE_FUNCTION, ADD1_TEXT),
    "5.9a": (ALTER_FUNCTION, "ALTER FUNCTION public.add1 (pg_catalog.int4) immutable COST 10 SET work_mem TO '64MB'"),
    "5.9b": (ALTER_PROCEDURE, "ALTER PROCEDURE public.p_cleanup () SECURITY DEFINER"),
    "5.10a": (TRIGGER_ROW, "CREATE   TRIGGER  trg_orders BEFORE INSERT OR UPDATE OF amount, note ON public.orders  FOR EACH "
                           "ROW WHEN ((new.amount > (0)::numeric)) EXECUTE PROCEDURE public.trg_fn ( $$it's$$, 'x' ) "),
    "5.10b": (TRIGGER_CONSTRAINT, "CREATE  CONSTRAINT TRIGGER  ctrg AFTER DELETE ON public.orders FROM public.customers "
                                  "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW  EXECUTE PROCEDURE public.trg_fn ( ) "),
    "5.10c": (TRIGGER_B, "CREATE DEFINER =bob  TRIGGER IF NOT EXISTS trg_b AFTER INSERT ON db1.t_b  FOR EACH ROW      BEGIN"
                         "     insert into db1.log values (new.id); END"),
    "5.11a": (SCHEMA_QUOTED, 'CREATE SCHEMA IF NOT EXISTS "Sales"  '),
    "5.11b": (SCHEMA_LEDGER, "CREATE SCHEMA  ledger AUTHORIZATION bob WITH BLOCKCHAIN"),
    "5.11c": (ALTER_SCHEMA_WITHOUT, "ALTER SCHEMA ledger WITHOUT BLOCKCHAIN"),
    "5.11d": (ALTER_SCHEMA_CHARSET, "ALTER SCHEMA db1 CHARACTER SET = UTF8 COLLATE = utf8mb4_bin"),
    "5.16a": (CREATE_EVENT, "CREATE DEFINER = bob EVENT IF NOT EXISTS db1.ev_purge ON SCHEDULE EVERY  '1'  day STARTS "
                            "'2025-01-01 00:00:00' ENDS '2025-12-31 00:00:00' ON COMPLETION NOT PRESERVE  COMMENT '' DO "
                            "delete from db1.log"),
    "5.16b": (ALTER_EVENT, "ALTER  EVENT db1.ev_purge ON SCHEDULE EVERY  '2'  hour DISABLE COMMENT 'paused' "),
    "5.16c": (DROP_EVENT, "DROP EVENT IF EXISTS db1.ev_purge"),
    "5.17": (NEWPUB, "NEWPUB table public.orders"),
}
EXTRA = {
    "alter-function-all-actions": ALTER_FUNCTION_ALL, "trigger-statement": TRIGGER_STATEMENT,
    "trigger-not-deferrable": TRIGGER_NOT_DEFERRABLE, "schema-authorization-only": SCHEMA_AUTH_ONLY,
    "alter-schema-with-gaussdb-keys": ALTER_SCHEMA_WITH_GAUSS, "alter-schema-collate": ALTER_SCHEMA_COLLATE,
    "create-event-at": CREATE_EVENT_AT, "alter-event-all": ALTER_EVENT_ALL, "newpub-gaussdb-keys": NEWPUB_GAUSS,
}
ALL_TREES = {**{k: v[0] for k, v in REFERENCE.items()}, **EXTRA}


def _build(tree):
    stmt, diags = build(tree)
    return stmt, [d.code for d in diags]


@pytest.mark.parametrize("section", sorted(REFERENCE))
def test_reference_expansion(section):
    tree, text = REFERENCE[section]
    assert expand(tree) == text


@pytest.mark.parametrize("name", sorted(ALL_TREES))
def test_lossless_round_trip(name):
    tree = ALL_TREES[name]
    stmt, _ = build(tree)
    assert not isinstance(stmt, Opaque)
    assert emit(stmt, mode="raw") == expand(tree)


def _strip_layouts(n):
    def fn(x):
        return replace(x, layout=None) if hasattr(x, "layout") else x

    return transform(n, fn)


@pytest.mark.parametrize("name", sorted(ALL_TREES))
def test_default_layout_is_the_deparsers(name):
    """Without any recorded fmt (a node made by a pass), the emitters write the deparser's own shape."""
    tree = ALL_TREES[name]
    if name == "alter-schema-with-gaussdb-keys" or name == "newpub-gaussdb-keys":
        pytest.skip("GaussDB key spellings are kept only through the layout")
    stmt, _ = build(tree)
    assert expand(to_jddl(_strip_layouts(stmt))) == expand(tree)


# ---- IR fields per example ---------------------------------------------------------------------------
def test_create_function_reference():
    stmt, codes = _build(CREATE_FUNCTION)
    assert codes == []
    assert isinstance(stmt, CreateFunction)
    assert stmt.text == ADD1_TEXT and stmt.layout == "%{function}s"
    assert stmt.name == PG("add1", "public", origin=("function",)) and stmt.package is None
    assert stmt.or_replace and stmt.definer is None and not stmt.is_procedure
    [a] = stmt.arguments
    assert (a.mode, a.name, a.type, a.default) == (None, "a", "integer", None)
    assert stmt.returns.type == "integer" and not stmt.returns.setof and stmt.returns.table == ()
    assert stmt.style is FunctionStyle.POSTGRES and stmt.language == "plpgsql"
    assert stmt.options.fenced is False and stmt.options.shippable is False and stmt.options.volatility is None
    assert stmt.set_options == () and stmt.probin is None
    assert stmt.body == " begin return a + 1; end " and stmt.body_tag == "$function$"


def test_alter_function_reference():
    stmt, codes = _build(ALTER_FUNCTION)
    assert isinstance(stmt, AlterFunction) and codes == []
    assert stmt.kind is RoutineKind.FUNCTION
    assert stmt.signature.name.dotted() == "public.add1"
    assert stmt.signature.arguments == (TypeName("int4", "pg_catalog", origin=("signature", "arguments", 0, "type")),)
    kinds = [(a.kind, a.volatility, a.number, a.name, a.value, a.list_form) for a in stmt.actions]
    assert kinds == [
        (FunctionActionKind.VOLATILITY, Volatility.IMMUTABLE, None, None, None, False),
        (FunctionActionKind.COST, None, 10, None, None, False),
        (FunctionActionKind.SET, None, None, "work_mem", "64MB", False),
        (FunctionActionKind.ROWS, None, None, None, None, False),  # ROWS 0: the not-present element
    ]
    proc, _ = _build(ALTER_PROCEDURE)
    assert proc.kind is RoutineKind.PROCEDURE and proc.signature.arguments == ()
    assert proc.actions[0].security is Security.DEFINER and proc.actions[0].security.definer


def test_alter_function_all_actions():
    stmt, _ = _build(ALTER_FUNCTION_ALL)
    a = stmt.actions
    assert stmt.signature.arguments[1] == TypeName("varchar", "pg_catalog", "(10)", True,
                                                   origin=("signature", "arguments", 1, "type"))
    assert a[0].volatility is Volatility.STABLE
    assert a[1].null_input is NullInput.RETURNS_NULL and a[2].null_input is NullInput.CALLED
    assert a[3].security is Security.AUTHID_CURRENT_USER and not a[3].security.definer
    assert a[4].kind is FunctionActionKind.LEAKPROOF and a[4].on is False
    assert (a[5].kind, a[5].number) == (FunctionActionKind.ROWS, 50)
    assert (a[6].kind, a[6].number) == (FunctionActionKind.COST, 0.5)
    assert (a[7].name, a[7].value, a[7].list_form) == ("search_path", '"$user", public', True)
    assert (a[8].kind, a[8].name) == (FunctionActionKind.RESET, "work_mem")
    assert a[9].kind is FunctionActionKind.RESET_ALL
    assert (a[10].kind, a[10].value) == (FunctionActionKind.PARALLEL, "safe")
    assert "FROM CURRENT" in AlterFunction.__doc__  # the §10.4 defect is documented


def test_triggers():
    t, codes = _build(TRIGGER_ROW)
    assert isinstance(t, CreateTrigger) and codes == []
    assert (t.name, t.timing, t.for_each) == ("trg_orders", TriggerTiming.BEFORE, TriggerLevel.ROW)
    assert [(e.kind, e.columns) for e in t.events] == [(TriggerEventKind.INSERT, ()),
                                                       (TriggerEventKind.UPDATE, ("amount", "note"))]
    assert t.relation.dotted() == "public.orders" and t.from_table is None and t.constraint_attrs is None
    assert t.when == Expr("(new.amount > (0)::numeric)", origin=("when", "clause"))
    assert t.function.name.dotted() == "public.trg_fn" and t.function.args == ("it's", "x")
    assert t.definer is None and t.body is None and not t.constraint and not t.if_not_exists

    c, _ = _build(TRIGGER_CONSTRAINT)
    assert c.constraint and c.from_table.dotted() == "public.customers"
    assert (c.constraint_attrs.deferrable, c.constraint_attrs.initially_deferred) == (True, True)
    assert c.function.args == () and c.when is None
    n, _ = _build(TRIGGER_NOT_DEFERRABLE)
    assert (n.constraint_attrs.deferrable, n.constraint_attrs.initially_deferred) == (False, False)

    b, _ = _build(TRIGGER_B)
    assert b.definer == "bob" and b.if_not_exists and b.function is None
    assert b.body == "    BEGIN     insert into db1.log values (new.id); END"

    s, _ = _build(TRIGGER_STATEMENT)
    assert s.timing is TriggerTiming.INSTEAD_OF and s.for_each is TriggerLevel.STATEMENT
    assert [e.kind for e in s.events] == list(TriggerEventKind)


def test_schemas():
    s, _ = _build(SCHEMA_QUOTED)
    assert s == CreateSchema("Sales", True, None, False, layout=SCHEMA_QUOTED["fmt"])
    l_, _ = _build(SCHEMA_LEDGER)
    assert (l_.name, l_.if_not_exists, l_.authorization, l_.blockchain) == ("ledger", False, "bob", True)
    a, _ = _build(SCHEMA_AUTH_ONLY)
    assert a.name is None and a.authorization == "bob"
    w, _ = _build(ALTER_SCHEMA_WITHOUT)
    assert isinstance(w, AlterSchemaBlockchain) and (w.name, w.with_) == ("ledger", False)
    g, _ = _build(ALTER_SCHEMA_WITH_GAUSS)
    assert (g.name, g.with_) == ("L", True)
    c, _ = _build(ALTER_SCHEMA_CHARSET)
    assert isinstance(c, AlterSchemaCharset) and (c.name, c.charset, c.collate) == ("db1", "UTF8", "utf8mb4_bin")
    o, _ = _build(ALTER_SCHEMA_COLLATE)
    assert (o.charset, o.collate) == (None, "utf8mb4_bin")


def test_events_and_newpub():
    e, codes = _build(CREATE_EVENT)
    assert isinstance(e, CreateEvent) and codes == []
    assert (e.schema, e.name, e.definer, e.if_not_exists) == ("db1", "ev_purge", "bob", True)
    assert (e.every, e.starts, e.ends) == (" '1'  day", "2025-01-01 00:00:00", "2025-12-31 00:00:00")
    assert (e.on_completion, e.status, e.comment, e.body) == ("ON COMPLETION NOT PRESERVE", None, None,
                                                               "delete from db1.log")
    at, codes = _build(CREATE_EVENT_AT)
    assert at.every is None and at.ends is None and at.definer is None and not at.if_not_exists
    assert (at.status, at.comment, at.on_completion) == ("DISABLE ON SLAVE", "it's", "ON COMPLETION PRESERVE")
    assert codes == ["DDLC-W401", "DDLC-W402"]  # "Once" printed unquoted; the quote in the comment

    a, _ = _build(ALTER_EVENT)
    assert isinstance(a, AlterEvent) and a.schedule
    assert (a.every, a.starts, a.status, a.comment, a.body, a.definer) == (" '2'  hour", None, "DISABLE", "paused", None, None)
    b, _ = _build(ALTER_EVENT_ALL)
    assert (b.definer, b.every, b.starts, b.ends) == ("root", None, "2025-02-01 00:00:00", "2025-03-01 00:00:00")
    assert (b.on_completion, b.new_name, b.status, b.body) == ("ON COMPLETION PRESERVE", "e2", "ENABLE", "select 1")

    d, _ = _build(DROP_EVENT)
    assert d == DropEvent("db1", "ev_purge", True, layout=DROP_EVENT["fmt"])

    n, codes = _build(NEWPUB)
    assert isinstance(n, NewPub) and n.objtype == "table" and n.identity.dotted() == "public.orders"
    assert codes == ["DDLC-I401"] and NewPub.replayable is False
    g, _ = _build(NEWPUB_GAUSS)
    assert g.identity.dotted() == "public.orders"


@pytest.mark.parametrize("tree, path, value", [
    (TRIGGER_ROW, ("time",), "SOMETIMES"),
    (TRIGGER_ROW, ("events", 0), "SELECT"),
    (TRIGGER_CONSTRAINT, ("constraint_attrs", 0), "MAYBE"),
    (CREATE_EVENT, ("definer_opt",), "OWNER bob"),
    (ALTER_SCHEMA_WITHOUT, ("with",), "WITHIN"),
])
def test_raw_slot_values_outside_their_class_fail(tree, path, value):
    """issue 20.3: a keyword slot holds a phrase of its closed set (a definer, DEFINER = name); anything else
    fails its document on every target, where it used to be kept as text for the GaussDB target."""
    tree = copy.deepcopy(tree)
    parent = tree
    for p in path[:-1]:
        parent = parent[p]
    parent[path[-1]] = value
    with pytest.raises(DdlcError) as e:
        build(tree)
    assert e.value.code == "DDLC-E011" and e.value.path == path
    for target in ("gaussdb", "postgres", "spark"):
        [t] = ddlc.translate_many([json.dumps(tree)], target=target)
        assert t.error is not None and t.error.code == "DDLC-E011"


@pytest.mark.parametrize("tree, path, value", [
    (TRIGGER_ROW, ("when", "fmt"), "IF (%{clause}s)"),
    (CREATE_EVENT, ("if_not_exits",), "if not exists"),
    (ALTER_FUNCTION, ("definition", 0, "fmt"), "FENCED"),
    (SCHEMA_LEDGER, ("blockchain", "fmt"), "WITH LEDGER"),
])
def test_unrecognized_values_are_kept_as_text(tree, path, value):
    tree = copy.deepcopy(tree)
    parent = tree
    for p in path[:-1]:
        parent = parent[p]
    parent[path[-1]] = value
    stmt, codes = _build(tree)
    assert isinstance(stmt, Opaque) and stmt.reason is OpaqueReason.UNPARSED
    assert "DDLC-N403" in codes
    assert emit(stmt, mode="raw") == expand(tree)


# ---- CREATE FUNCTION text ---------------------------------------------------------------------------------
def _fn(text):
    stmt, spans = parse_function_text(text)
    assert crosscheck(stmt, spans) == []
    return stmt


def test_function_text_dollar_tags():
    # the body holds "$function$", so pg_get_functiondef grew the tag
    text = ("CREATE OR REPLACE FUNCTION public.q()\n RETURNS text\n LANGUAGE sql\n NOT FENCED NOT SHIPPABLE\n"
            "AS $functionx$ select '$function$' || $x$ ) ; $x$ $functionx$;\n")
    f = _fn(text)
    assert f.body == " select '$function$' || $x$ ) ; $x$ " and f.body_tag == "$functionx$" and f.arguments == ()
    assert render_function(f) == text
    # "$function" without a closing "$" also makes the tag grow; $functionx$ inside $function$ is just text
    g = _fn("CREATE OR REPLACE FUNCTION s.g(a text DEFAULT 'a,b)')\n RETURNS text\n LANGUAGE plpgsql\n NOT FENCED NOT "
            "SHIPPABLE\nAS $function$ begin return '$functionx$'; end $function$;\n")
    assert g.body == " begin return '$functionx$'; end " and g.arguments[0].default == "'a,b)'"


def test_function_text_oracle_style():
    text = ("CREATE OR REPLACE FUNCTION public.f(a int, b OUT varchar2 default 'x', c IN OUT number)\n RETURN integer"
            " NOT FENCED NOT SHIPPABLE\nAS DECLARE\n  s text := 'it''s; /';\nbegin\n return 1;\nend;\n")
    f = _fn(text)
    assert f.style is FunctionStyle.ORACLE and f.language is None and f.body_tag is None
    assert f.returns.type == "integer" and f.options.fenced is False
    assert [(a.name, a.mode, a.type, a.default) for a in f.arguments] == [
        ("a", None, "int", None), ("b", ArgMode.OUT, "varchar2", "'x'"), ("c", ArgMode.INOUT, "number", None)]
    assert f.body == "DECLARE\n  s text := 'it''s; /';\nbegin\n return 1;\nend"
    r = _fn("CREATE OR REPLACE FUNCTION public.r(a int) RETURN int IS\nBEGIN RETURN a; END;\n/")  # TDDL-like
    assert r.style is FunctionStyle.ORACLE and r.body == "BEGIN RETURN a; END"
    bare = _fn("CREATE OR REPLACE PROCEDURE p IS BEGIN NULL; END;")
    assert bare.arguments == () and bare.body == "BEGIN NULL; END" and bare.is_procedure
    p = _fn("CREATE OR REPLACE PROCEDURE public.p(a integer)\nAS DECLARE\nbegin\n null;\nend;\n")
    assert p.is_procedure and p.returns is None and p.style is FunctionStyle.ORACLE
    assert render_function(p) == "CREATE OR REPLACE PROCEDURE public.p(a integer)\nAS DECLARE\nbegin\n null;\nend;\n"


def test_function_text_b_compat_definer_and_options():
    text = ("CREATE DEFINER = bob FUNCTION db1.f(\"Weird\" character varying, double precision, "
            "INOUT c integer[] DEFAULT ARRAY[1, 2], VARIADIC d text[])\n RETURNS SETOF integer\n LANGUAGE sql\n"
            " WINDOW IMMUTABLE STRICT SECURITY DEFINER LEAKPROOF FENCED SHIPPABLE PACKAGE COST 5 ROWS 7\n"
            " SET search_path TO \"$user\", public\n SET work_mem TO '64MB'\nAS $function$ select 1 $function$;\n")
    f = _fn(text)
    assert f.definer == "bob" and not f.or_replace and f.name.dotted() == "db1.f"
    assert [(a.name, a.mode, a.type) for a in f.arguments] == [
        ("Weird", None, "character varying"), (None, None, "double precision"), ("c", ArgMode.INOUT, "integer[]"),
        ("d", ArgMode.VARIADIC, "text[]")]
    assert f.arguments[2].default == "ARRAY[1, 2]"
    assert f.returns.setof and f.returns.type == "integer"
    o = f.options
    assert (o.window, o.volatility, o.null_input, o.security, o.leakproof) == (
        True, Volatility.IMMUTABLE, NullInput.STRICT, Security.DEFINER, True)
    assert (o.fenced, o.shippable, o.package, o.cost, o.rows) == (True, True, True, "5", "7")
    assert [(s.name, s.value) for s in f.set_options] == [("search_path", '"$user", public'), ("work_mem", "'64MB'")]
    assert render_function(f) == text


def test_function_text_package_member_table_and_c():
    f = _fn("CREATE OR REPLACE FUNCTION public.pkg.fn(a integer)\n RETURNS TABLE(x integer, \"Y\" text)\n LANGUAGE "
            "plpgsql\n STABLE NOT FENCED NOT SHIPPABLE PACKAGE AUTHID DEFINER\nAS $function$ begin end $function$;\n")
    assert (f.name.schema, f.package, f.name.name) == ("public", "pkg", "fn")
    assert f.returns.setof and [(a.name, a.type) for a in f.returns.table] == [("x", "integer"), ("Y", "text")]
    assert f.options.security is Security.AUTHID_DEFINER
    c = _fn("CREATE OR REPLACE FUNCTION public.cf(integer)\n RETURNS integer\n LANGUAGE c\n IMMUTABLE STRICT NOT FENCED "
            "NOT SHIPPABLE\nAS '$libdir/x', $function$cf$function$;\n")
    assert (c.probin, c.body, c.language) == ("$libdir/x", "cf", "c")
    e = _fn("CREATE OR REPLACE FUNCTION public.pe(c refcursor)\n RETURN setof integer PIPELINED NOT FENCED NOT SHIPPABLE "
            "PARALLEL_ENABLE (PARTITION c BY HASH(a,b))\nAS BEGIN NULL; END;\n")
    assert e.options.parallel_enable == "(PARTITION c BY HASH(a,b))" and e.options.pipelined and e.returns.setof


def test_function_text_gaussdb_tddl_style():
    # seed 000, example 1: GaussDB's deparse of a $$ function
    text = ("CREATE FUNCTION public.func ( IN a pg_catalog.int4 ) RETURNS pg_catalog.int4 LANGUAGE plpgsql VOLATILE "
            "CALLED ON NULL INPUT SECURITY INVOKER COST 100 AS ' BEGIN a:= a+1; CREATE TABLE test(col1 INT); INSERT "
            "INTO test VALUES(1); DROP TABLE test; RETURN a; END; ';")
    f = _fn(text)
    assert [(a.mode, a.name, a.type) for a in f.arguments] == [(ArgMode.IN, "a", "pg_catalog.int4")]
    assert f.options.volatility is Volatility.VOLATILE and f.options.null_input is NullInput.CALLED
    assert f.options.security is Security.INVOKER and f.options.cost == "100" and f.body_tag == "'"
    assert f.body.startswith(" BEGIN a:= a+1;") and f.style is FunctionStyle.POSTGRES
    q = _fn("create function f(x text) returns text as 'select ''it''''s'' ' language sql immutable;")
    assert q.body == "select 'it''s' " and q.language == "sql" and q.options.volatility is Volatility.IMMUTABLE


@pytest.mark.parametrize("text", [
    "CREATE OR REPLACE FUNCTION public.f()\n RETURNS int\n LANGUAGE sql\nAS $function$ x", "DROP FUNCTION f",
    "CREATE FUNCTION f() RETURNS int LANGUAGE sql AS $$ select 1 $$; DROP TABLE victim",
    "CREATE FUNCTION f() RETURNS int LANGUAGE sql AS $$ select 1 $$ -- note",
    "CREATE FUNCTION f() RETURN int IS BEGIN RETURN 1; END;\n/\nDROP TABLE victim",
])
def test_function_texts_that_are_not_one_create_fail(text):
    """issue 20.3: a function text kept as text is written by the GaussDB target as it came, so one that is not
    one CREATE statement (an unterminated dollar quote, another statement, a trailing line comment, a gsql
    ``/`` line) fails its document on every target."""
    with pytest.raises(DdlcError) as e:
        _build({"fmt": "%{function}s", "function": text})
    assert e.value.code == "DDLC-E011" and e.value.path == ("function",)


@pytest.mark.parametrize("text", [
    "CREATE FUNCTION broken(", "CREATE FUNCTION f() RETURNS int LANGUAGE sql", "",
    "CREATE FUNCTION a.b.c.d() AS 'x'",
])
def test_function_text_errors(text):
    with pytest.raises(FunctionTextError):
        parse_function_text(text)
    tree = {"fmt": "%{function}s", "function": text}
    stmt, codes = _build(tree)
    assert isinstance(stmt, Opaque) and codes == ["DDLC-N401"]
    assert emit(stmt, mode="raw") == expand(tree)


def test_rendered_bodies_keep_their_quotes():
    f = _fn("CREATE FUNCTION f() RETURNS text LANGUAGE sql AS $$select 'x$'$$;")
    assert f.body_tag == "$$" and f.body == "select 'x$'"
    assert render_function(f).endswith("AS $$select 'x$'$$;\n")
    e = replace(f, body="select 1 --x$")  # "$$" right after the body would close early at "x$$"
    text = render_function(e)
    assert text.endswith("AS $function$select 1 --x$$function$;\n")
    assert parse_function_text(text)[0].body == e.body
    g = replace(f, body="select '$function$'", body_tag="$function$")
    assert parse_function_text(render_function(g))[0].body == g.body
    q = replace(f, body="it's", body_tag="'")
    assert render_function(q).endswith("AS 'it''s';\n") and parse_function_text(render_function(q))[0].body == "it's"


def test_crosscheck_finds_disagreements():
    f, spans = parse_function_text(ADD1_TEXT)
    assert crosscheck(replace(f, language="sql"), spans) == ["language"]
    assert crosscheck(replace(f, body="x"), spans) == ["body"]


def test_renamed_function_text():
    f, _ = build(CREATE_FUNCTION)
    moved = replace(f, name=replace(f.name, schema="App"))
    assert function_text(moved) == ADD1_TEXT.replace("public.add1", '"App".add1')
    changed = replace(moved, body=" begin return a + 2; end ")
    assert function_text(changed) == ADD1_TEXT.replace("public.add1", '"App".add1').replace("+ 1", "+ 2")


def test_schema_map_through_the_api():
    docs = [CREATE_FUNCTION, SCHEMA_LEDGER, CREATE_EVENT, TRIGGER_ROW, NEWPUB]
    out = [ddlc.translate(json.dumps(d), schema_map={"public": "app", "ledger": "l2", "db1": "d2"}, target="gaussdb").sql for d in docs]
    assert out[0].startswith("CREATE OR REPLACE FUNCTION app.add1(a integer) RETURNS integer")
    assert out[1] == "CREATE SCHEMA l2 AUTHORIZATION bob WITH BLOCKCHAIN;\n"
    assert " d2.ev_purge " in out[2]
    assert "ON app.orders" in out[3] and "app.trg_fn" in out[3]
    assert out[4] == "NEWPUB table app.orders;\n"


# ---- TDDL recovery ---------------------------------------------------------------------------------------
SEED_PACKAGE = ("CREATE OR REPLACE PACKAGE public.ldp_pkg1 AUTHID CURRENT_USER IS var1 int:=1; --公有变量\n var2 int:=2;\n"
                " PROCEDURE testpro1(var3 int); --公有存储过程,可以被外部调用\nEND ldp_pkg1; \n /")
SEED_MATVIEW = "CREATE MATERIALIZED VIEW public.v46_4 AS SELECT a, b FROM public.t46 ORDER BY a OFFSET 10 LIMIT 3"
SEED_REINDEX = 'REINDEX INDEX public."Alter_Index_Index" PARTITION "CA_ADDRESS_SK_index2"'


def _recover(text, cls):
    stmt, diags = recover_tddl(text)
    assert isinstance(stmt, cls), (stmt, diags)
    assert diags == []
    if hasattr(stmt, "text") and not isinstance(stmt, CreateTableAs):  # a CTAS is written from its IR
        assert emit(stmt, mode="raw") == text  # the TDDL text is what GaussDB prints
    return stmt


def test_recover_seed_examples():
    p = _recover(SEED_PACKAGE, Package)
    assert (p.name.dotted(), p.is_body, p.action, p.or_replace) == ("public.ldp_pkg1", False, DdlAction.CREATE, True)
    m = _recover(SEED_MATVIEW, CreateMatView)
    assert m.identity.dotted() == "public.v46_4" and not m.incremental and m.with_data
    assert m.query.text == "SELECT a, b FROM public.t46 ORDER BY a OFFSET 10 LIMIT 3"
    r = _recover(SEED_REINDEX, Reindex)
    assert (r.kind, r.name, r.partition) == (ReindexKind.INDEX, PG("Alter_Index_Index", "public"), "CA_ADDRESS_SK_index2")
    f = _recover("CREATE FUNCTION public.func ( IN a pg_catalog.int4 ) RETURNS pg_catalog.int4 LANGUAGE plpgsql VOLATILE "
                 "CALLED ON NULL INPUT SECURITY INVOKER COST 100 AS ' BEGIN RETURN a; END; ';", CreateFunction)
    assert f.name.dotted() == "public.func"
    # CTAS is decoded by GaussDB as the plain CREATE TABLE: the table family's, not recovered here
    stmt, diags = recover_tddl("CREATE TABLE public.tb35_1 (c1 pg_catalog.int4) WITH (storage_type = 'ustore', "
                               "orientation = 'row', compression = 'no') NOCOMPRESS;")
    assert isinstance(stmt, Opaque) and stmt.reason is OpaqueReason.NO_SHAPE and stmt.kind == "CREATE TABLE"
    assert [d.code for d in diags] == ["DDLC-N405"]
    assert emit(stmt, mode="raw").startswith("CREATE TABLE public.tb35_1")


def test_recover_tables_and_matviews():
    c = _recover("CREATE UNLOGGED TABLE IF NOT EXISTS public.x (a, b) WITH (fillfactor=70) AS SELECT 1, (2) WITH NO DATA;",
                 CreateTableAs)
    assert (c.identity.dotted(), c.columns, c.with_data, c.if_not_exists, c.persistence) == (
        "public.x", ("a", "b"), False, True, "UNLOGGED")
    assert c.query.text == "SELECT 1, (2)" and [(o.name, o.value) for o in c.options] == [("fillfactor", "70")]
    assert emit(c) == "CREATE UNLOGGED TABLE IF NOT EXISTS public.x (a, b) WITH (fillfactor = 70) AS SELECT 1, (2) WITH NO DATA"
    s = _recover("SELECT a INTO public.y FROM public.z;", CreateTableAs)
    assert s.select_into and s.identity.dotted() == "public.y" and s.query.text == "SELECT a INTO public.y FROM public.z"
    assert emit(s) == "CREATE TABLE public.y AS SELECT a FROM public.z"  # with_data: the rule's decision, not the IR's
    i = _recover("CREATE INCREMENTAL MATERIALIZED VIEW public.mv TABLESPACE ts AS SELECT a FROM public.t", CreateMatView)
    assert i.incremental and i.tablespace == "ts" and i.query.text == "SELECT a FROM public.t"
    r = _recover("REFRESH INCREMENTAL MATERIALIZED VIEW public.mv", RefreshMatView)
    assert r.incremental and not r.concurrently
    r2 = _recover("REFRESH MATERIALIZED VIEW CONCURRENTLY public.mv WITH NO DATA", RefreshMatView)
    assert r2.concurrently and not r2.with_data and not r2.incremental
    a = _recover('ALTER MATERIALIZED VIEW IF EXISTS public."Mv" RENAME TO mv2;', AlterMatView)
    assert (a.identity, a.action, a.if_exists) == (PG("Mv", "public"), "RENAME TO mv2", True)
    d = _recover("DROP MATERIALIZED VIEW IF EXISTS public.a, b CASCADE", DropMatView)
    assert d.names == (PG("a", "public"), PG("b")) and d.if_exists and d.cascade


def test_recover_maintenance():
    t = _recover("TRUNCATE TABLE ONLY public.t, u RESTART IDENTITY CASCADE", Truncate)
    assert [(r.name.dotted(), r.only) for r in t.relations] == [("public.t", True), ("u", False)]
    assert t.restart_identity and t.cascade
    r = _recover("REINDEX TABLE public.t PARTITION p1 FORCE", Reindex)
    assert (r.kind, r.partition, r.force) == (ReindexKind.TABLE, "p1", True)
    s = _recover("REINDEX SCHEMA sales", Reindex)
    assert (s.kind, s.name) == (ReindexKind.SCHEMA, "sales")


def test_recover_routines_and_packages():
    p = _recover("CREATE OR REPLACE PROCEDURE public.p(a int)\nAS DECLARE\nbegin\n null;\nend;\n/", CreateFunction)
    assert p.is_procedure and p.body == "DECLARE\nbegin\n null;\nend"
    a, diags = recover_tddl("ALTER PROCEDURE public.p(integer) SECURITY DEFINER SET search_path TO a, \"$user\" "
                            "SET x FROM CURRENT RESET ALL ROWS 0")
    assert isinstance(a, AlterFunction) and a.kind is RoutineKind.PROCEDURE and diags == []
    assert a.signature.arguments == (TypeName("int4", "pg_catalog"),)
    assert [x.kind for x in a.actions] == [FunctionActionKind.SECURITY, FunctionActionKind.SET,
                                          FunctionActionKind.SET_FROM_CURRENT, FunctionActionKind.RESET_ALL,
                                          FunctionActionKind.ROWS]
    assert (a.actions[1].value, a.actions[1].list_form) == ('a, "$user"', True) and a.actions[4].number is None
    assert emit(a) == 'ALTER PROCEDURE public.p (pg_catalog.int4) SECURITY DEFINER SET search_path TO a, "$user" ' \
                      "SET x FROM CURRENT RESET ALL"
    u, _ = recover_tddl("ALTER FUNCTION f IMMUTABLE")
    assert u.signature.arguments is None and emit(u) == "ALTER FUNCTION f immutable"
    d = _recover("DROP PROCEDURE IF EXISTS public.p(integer), q", DropRoutine)
    assert d.kind == "PROCEDURE" and d.if_exists and d.routines[1].arguments is None
    assert d.routines[0].arguments == (TypeName("int4", "pg_catalog"),)
    body = _recover("CREATE OR REPLACE PACKAGE BODY ldp_pkg1 IS PROCEDURE testpro1(var3 int) IS BEGIN NULL; END;\nEND "
                    "ldp_pkg1;\n/", Package)
    assert body.is_body and body.name == PG("ldp_pkg1")
    assert _recover("DROP PACKAGE BODY IF EXISTS public.p", Package).action is DdlAction.DROP
    assert _recover("ALTER PACKAGE public.p OWNER TO bob", Package).action is DdlAction.ALTER


def test_recover_large_sequences_databases_grants():
    from ddlc.ir.drop import Drop
    from ddlc.ir.sequence import AlterSequence, CreateSequence, SeqClause

    c, _ = recover_tddl("CREATE LARGE SEQUENCE public.s INCREMENT BY 2 MAXVALUE 170141183460469231731687303715884105727 CYCLE")
    assert isinstance(c, CreateSequence) and c.large
    assert [(o.clause, o.value, o.no) for o in c.options] == [
        (SeqClause.INCREMENT, "2", False), (SeqClause.MAXVALUE, "170141183460469231731687303715884105727", False),
        (SeqClause.CYCLE, None, False)]
    a, _ = recover_tddl("ALTER LARGE SEQUENCE public.s OWNED BY public.t.c")
    assert isinstance(a, AlterSequence) and a.options[0].owner == PG("t", "public", "c")
    d, _ = recover_tddl("DROP LARGE SEQUENCE IF EXISTS public.s CASCADE")
    assert isinstance(d, Drop) and d.if_exists and d.cascade and d.identity == PG("s", "public")
    cd = _recover("CREATE DATABASE IF NOT EXISTS db1 CHARACTER SET utf8mb4;", CreateDatabase)
    assert (cd.name, cd.if_not_exists, cd.options) == ("db1", True, "CHARACTER SET utf8mb4")
    assert _recover("ALTER DATABASE db1 CHARACTER SET = gbk", AlterDatabase).action == "CHARACTER SET = gbk"
    assert _recover('DROP DATABASE IF EXISTS "Db"', DropDatabase).name == "Db"
    g = _recover("GRANT SELECT (a, b), UPDATE ON TABLE public.t TO alice, PUBLIC WITH GRANT OPTION", Grant)
    assert (g.revoke, g.privileges, g.objtype, g.relations, g.grantees, g.grant_option) == (
        False, ("SELECT (a, b)", "UPDATE"), "TABLE", (PG("t", "public"),), ("alice", "PUBLIC"), True)
    rv = _recover("REVOKE ALL ON ALL TABLES IN SCHEMA s FROM bob CASCADE", Grant)
    assert rv.revoke and rv.all_in_schema and rv.objects == ("s",) and rv.privileges == () and rv.cascade
    gf = _recover("GRANT EXECUTE ON FUNCTION public.f(integer) TO x", Grant)
    assert gf.objtype == "FUNCTION" and gf.objects == ("public.f (integer)",)
    gr = _recover("GRANT r1, r2 TO u WITH ADMIN OPTION", GrantRole)
    assert (gr.roles, gr.grantees, gr.admin_option) == (("r1", "r2"), ("u",), True)


@pytest.mark.parametrize("text, kind, reason", [
    ("TRUNCATE TABLE public.t PARTITION (p1)", "TRUNCATE", OpaqueReason.UNPARSED),
    ("ALTER FUNCTION public.f(integer) NOT FENCED", "ALTER FUNCTION", OpaqueReason.UNPARSED),
    ("CREATE OR REPLACE FUNCTION public.f(", "CREATE FUNCTION", OpaqueReason.UNPARSED),
    ("ALTER FUNCTION public.f(integer) RENAME TO g", "ALTER FUNCTION", OpaqueReason.NO_SHAPE),
    ("CREATE ROLE r", "CREATE ROLE", OpaqueReason.NO_SHAPE),
    ("SELECT 1", "SELECT", OpaqueReason.NO_SHAPE),
    ("", "", OpaqueReason.NO_SHAPE),
    ("'unterminated", "'UNTERMINATED", OpaqueReason.NO_SHAPE),
])
def test_recover_keeps_what_it_cannot_read(text, kind, reason):
    stmt, diags = recover_tddl(text)
    assert isinstance(stmt, Opaque) and stmt.reason is reason and stmt.text == text
    assert statement_kind(text) == kind or not text.strip() or text.startswith("'")
    assert len(diags) == 1 and diags[0].code in ("DDLC-N404", "DDLC-N405")


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["CREATE MATERIALIZED VIEW v AS ", "REINDEX INDEX ", "TRUNCATE ", "CREATE PACKAGE ",
                        "CREATE FUNCTION f(", "GRANT ", "DROP DATABASE ", "ALTER LARGE SEQUENCE ", ""]),
       st.text(max_size=40))
def test_recover_never_raises(prefix, tail):
    stmt, _ = recover_tddl(prefix + tail)
    assert stmt is not None


# ---- fuzzed lossless round trips over this module's trees -----------------------------------------------
def _string_paths(v, path=()):
    if isinstance(v, dict):
        for k, x in v.items():
            if k not in ("fmt", "present"):
                yield from _string_paths(x, path + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from _string_paths(x, path + (i,))
    elif isinstance(v, str):
        yield path


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_lossless_with_any_strings(data):
    """Every string (vocabulary words included) may change: the result is typed or Opaque, never lossy."""
    tree = copy.deepcopy(data.draw(st.sampled_from(sorted(ALL_TREES.items())))[1])
    for path in list(_string_paths(tree)):
        if data.draw(st.booleans()):
            parent = tree
            for p in path[:-1]:
                parent = parent[p]
            parent[path[-1]] = data.draw(st.text(max_size=12) | st.sampled_from(["", "ROW", "IF EXISTS", "NOT"]))
    try:
        stmt, _ = build(tree)
    except DdlcError as exc:  # a fragment that is not one part of its kind: a clean input error
        assert exc.code == "DDLC-E011", exc  # a fuzzed fragment (type modifier, expression...) that is not one
        return
    assert isinstance(stmt, Node)
    assert emit(stmt, mode="raw") == expand(tree)
    json.dumps(to_json(stmt))
