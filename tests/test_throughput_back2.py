"""Issue 26, round 7 (the back half's fixed cost): work skipped must be work that did nothing.

* :class:`ddlc.passes.Plans`: a pass is called only when its ``may_change(cls, ctx)`` says it can change a
  statement of that class. For every fixture statement (as built, and as the passes before leave it), every
  target and several option sets: a pass that says no returns the very statement and no diagnostic, and the
  planned pipeline gives what calling every pass gave (the former ``run_pipeline``, copied here), in both of
  the compiler's splits (one target; several targets sharing the target-free passes);
* :func:`ddlc.compiler.parse_pending` skips a class that cannot hold a fragment: it has none to parse.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ddlc.backends import get_backend
from ddlc.errors import DdlcError
from ddlc.ir import base
from ddlc.ir.names import Expr
from ddlc.ir.reach import Reach
from ddlc.options import Options
from ddlc.passes import PIPELINE, SHARED, PassContext, Plans, run_pipeline

from test_throughput_passes import STATEMENTS

OPTION_SETS = {
    "defaults": Options.of(),
    "maps": Options.of(schema_map={"public": "p2", "sales": "s2"}, role_map={"hr_admin": "r2"},
                       default_schema="dflt"),
    "no-owner": Options.of(no_owner=True, on_unsupported="comment"),
    "error": Options.of(on_unsupported="error"),
}


def _former_run_pipeline(stmt: Any, ctx: Any, start: int = 0, stop: int | None = None) -> Any:
    """run_pipeline as it was: every pass called."""
    diags: list[Any] = []
    for p in PIPELINE[start:stop]:
        stmt, more = p(stmt, ctx)
        diags.extend(more)
    return stmt, diags


def _outcome(fn: Any, *args: Any, **kw: Any) -> Any:
    try:
        out, diags = fn(*args, **kw)
    except DdlcError as exc:
        return ("error", exc.code, str(exc), exc.path)
    return base.to_json(out, with_origin=True), type(out), [d.to_dict() for d in diags]


def _ctx(options: Options, target: str) -> PassContext:
    b = get_backend(target)
    return PassContext.of(options, target=target, rules=b.rules, refused=b.refused, document="doc")


def test_every_pass_says_what_it_may_change():
    for p in PIPELINE:
        assert callable(getattr(p, "may_change", None)), p.__name__


@pytest.mark.parametrize("target", ["postgres", "gaussdb", "spark"])
@pytest.mark.parametrize("opts", sorted(OPTION_SETS))
def test_a_pass_that_may_not_change_a_class_changes_nothing(target, opts):
    ctx = _ctx(OPTION_SETS[opts], target)
    skipped = 0
    for label, stmt in STATEMENTS:
        s = stmt
        for p in PIPELINE:
            try:
                out, diags = p(s, ctx)
            except DdlcError:
                assert p.may_change(type(s), ctx), (label, p.__name__)
                break
            if not p.may_change(type(s), ctx):
                assert out is s and diags == [], (label, p.__name__)
                skipped += 1
            s = out
    assert skipped > len(STATEMENTS)


@pytest.mark.parametrize("target", ["postgres", "gaussdb", "spark"])
@pytest.mark.parametrize("opts", sorted(OPTION_SETS))
def test_the_planned_pipeline_gives_what_every_pass_gave(target, opts):
    ctx = _ctx(OPTION_SETS[opts], target)
    plans = Plans(ctx)
    for label, stmt in STATEMENTS:
        want = _outcome(_former_run_pipeline, stmt, ctx)
        assert _outcome(run_pipeline, stmt, ctx, plans=plans) == want, label
        assert _outcome(run_pipeline, stmt, ctx) == want, label  # (a plan made for the call)
        # the compiler's split for several targets: the target-free passes, then the others
        first = _outcome(_former_run_pipeline, stmt, ctx, stop=SHARED)
        assert _outcome(run_pipeline, stmt, ctx, stop=SHARED, plans=plans) == first, label
        if first[0] != "error":
            common, _ = _former_run_pipeline(stmt, ctx, stop=SHARED)
            assert _outcome(run_pipeline, common, ctx, start=SHARED, plans=plans) == \
                _outcome(_former_run_pipeline, common, ctx, start=SHARED), label


def test_a_plan_follows_a_statement_that_changes_class():
    """--no-owner makes an ALTER that only changed its owner an Opaque: the passes after it are planned for
    an Opaque (the former pipeline called them all: the same outcome)."""
    from ddlc.ir.alter import AlterRelation
    from ddlc.ir.statement import Opaque

    ctx = _ctx(OPTION_SETS["no-owner"], "postgres")
    changed = 0
    for label, stmt in STATEMENTS:
        if type(stmt) is AlterRelation:
            out, _ = run_pipeline(stmt, ctx, plans=Plans(ctx))
            if type(out) is Opaque:
                changed += 1
                assert _outcome(run_pipeline, stmt, ctx) == _outcome(_former_run_pipeline, stmt, ctx), label
    assert changed >= 1  # (alter_table/owner-to-defect)


def test_parse_pending_skips_only_classes_without_fragments():
    from ddlc.compiler import parse_pending

    reach = Reach.shared({Expr}).current()
    skipped = 0
    for label, stmt in STATEMENTS:
        if not reach.enters(type(stmt)):
            reach._last = (None, ())
            assert reach.found(stmt) == (), label
            skipped += 1
        parse_pending(stmt)
    assert skipped > 20


def _former_record(cat: Any, stmt: Any) -> None:
    """Catalog.record as it was (the recorder, the views and the materialized view looked up per statement)."""
    from ddlc.history.recorders import RECORDERS

    handler = RECORDERS.get(type(stmt))
    if handler is not None:
        handler(cat, stmt)
    try:
        cat.views.record(stmt)
    except Exception:  # noqa: BLE001
        cat._views_unknown(stmt)
    if type(stmt).__name__ == "CreateMatView":
        cat._matview_reads(stmt)


@pytest.mark.parametrize("target", ["postgres", "gaussdb"])
def test_the_history_records_what_it_recorded(target):
    """Every fixture statement, in order and in reverse, into two catalogs: the same state after each."""
    from ddlc.compiler import normalize
    from ddlc.history import Catalog
    from ddlc.state_file import dump_catalog

    b, opts = get_backend(target), Options.of()
    stmts = []
    for label, stmt in STATEMENTS:
        try:
            stmts.append((label, normalize(stmt, b, opts)[0]))
        except DdlcError:
            continue
    for order in (stmts, stmts[::-1], stmts + stmts):
        new, old = Catalog(), Catalog()
        for label, s in order:
            new.record(s)
            _former_record(old, s)
            assert dump_catalog(new) == dump_catalog(old), label


@given(st.lists(st.one_of(st.text(max_size=6), st.sampled_from(["", ")", ",", "(", ") x", ", y", "integer",
                                                                  "character varying(10)", '"a("', "numeric[]"]))))
def test_a_function_signature_list_is_the_writers(args):
    from ddlc.backends.postgres.objects import _paren_list
    from ddlc.backends.writer import SqlWriter

    assert _paren_list(list(args)) == SqlWriter().paren_list(args, SqlWriter.raw).text()
    assert SqlWriter().open().kw("*").close().text() == "(*)"


def test_a_trigger_identity_is_the_writers():
    from ddlc.backends.postgres.context import DIALECT, Emit
    from ddlc.backends.postgres.objects import identity_sql
    from ddlc.backends.writer import SqlWriter
    from ddlc.ir.drop import TriggerIdentity
    from ddlc.ir.names import QualifiedName

    e = Emit(None)
    for name in ("trg", "Trg", "a b", "x( ", ") y", "on", "select"):
        for table in (QualifiedName("t", "s"), QualifiedName("T ( ,", None), QualifiedName("t", "S )")):
            ident = TriggerIdentity(name, table)
            want = SqlWriter(DIALECT).ident(name).kw("ON").raw(e.qname(table)).text()
            assert identity_sql(ident, e) == want


def test_a_statement_is_stripped_as_before():
    """compile_statement strips a statement's terminator only when its last character is ``;`` or what
    ``str.rstrip`` strips (``_ENDS``: the same set), else takes it as it is."""
    from ddlc.compiler import _ENDS, _strip_terminator

    assert _ENDS - {";", ""} == {chr(c) for c in range(0x110000) if chr(c).isspace()}
    for s in ("", ";", "DROP TABLE t", "DROP TABLE t;", "x; ", "x;\u3000", "x\u3000", "x;\n-- c", "CREATE f AS $$ $$;"):
        got = s if s[-1:] not in _ENDS else _strip_terminator(s)
        assert got == _strip_terminator(s)


def _former_relations_of(stmt: Any) -> list[Any]:
    """filters.relations_of as it was (an isinstance chain per statement)."""
    from ddlc.filters import _q
    from ddlc.ir.alter import AlterObjType, AlterRelation
    from ddlc.ir.comment import Comment
    from ddlc.ir.drop import Drop, DropObjectType
    from ddlc.ir.followup import AlterTableFollowup, AutoIncrementBackfill, BackfillUpdate
    from ddlc.ir.index import CreateIndex
    from ddlc.ir.misc import CreateTableAs, Truncate
    from ddlc.ir.names import QualifiedName
    from ddlc.ir.rename import RenameColumn, RenameConstraint, RenameRelation, RenameTables, SetSchema
    from ddlc.ir.table import CreateTable
    from ddlc.ir.trigger import CreateTrigger

    if isinstance(stmt, CreateTable | CreateTableAs | AlterTableFollowup | AutoIncrementBackfill | BackfillUpdate):
        return [stmt.identity]
    if isinstance(stmt, AlterRelation):
        return [stmt.identity] if stmt.objtype is AlterObjType.TABLE else []
    if isinstance(stmt, CreateIndex):
        return [stmt.table]
    if isinstance(stmt, Drop):
        return [q] if stmt.objtype is DropObjectType.TABLE and (q := _q(stmt.identity)) else []
    if isinstance(stmt, Comment):
        if str(stmt.objtype).lower() in ("table", "column"):
            q = _q(stmt.identity)
            return [QualifiedName(q.name, q.schema)] if q is not None else []
        return []
    if isinstance(stmt, RenameColumn | RenameConstraint | RenameRelation | SetSchema):
        objtype = str(getattr(stmt, "objtype", "table")).lower()
        return [q] if objtype in ("table", "alterobjtype.table") and (q := _q(stmt.identity)) else []
    if isinstance(stmt, RenameTables):
        return [p.old for p in stmt.pairs]
    if isinstance(stmt, Truncate):
        return [q for t in stmt.relations if (q := _q(getattr(t, "name", None)))]
    if isinstance(stmt, CreateTrigger):
        return [stmt.relation]
    return []


def test_relations_of_as_before_on_every_fixture_statement():
    from ddlc.filters import object_of, relations_of

    from test_throughput_lead import _former_object_of

    seen = 0
    for label, stmt in STATEMENTS:
        for s in (stmt, run_pipeline(stmt, _ctx(OPTION_SETS["maps"], "postgres"))[0]):
            got = relations_of(s)
            assert base.to_json(got, with_origin=True) == base.to_json(_former_relations_of(s), with_origin=True), label
            assert object_of(s) == _former_object_of(s), label
            seen += bool(got)
    assert seen > 50
