"""Round 12: attribute reads without CPython's ``__getattr__`` hook, and no import statement per document.

A class that defines ``__getattr__`` (or whose metaclass does: every Enum on Python 3.11) has every attribute
read routed through ``slot_tp_getattr_hook``, which the interpreter cannot specialize. ``lazyre`` patterns now
become a class without the hook once compiled; hot enum members are read from module names. The compiler
binds the text frontend's readers once instead of importing them in each TDDL document's call.
"""

from __future__ import annotations

import re
import subprocess
import sys
import threading

from hypothesis import given, settings
from hypothesis import strategies as st

from ddlc import lazyre

_METHODS = ("match", "fullmatch", "search", "findall", "split", "sub", "subn", "finditer")


def _apply(rx, name: str, text: str):
    if name in ("sub", "subn"):
        return getattr(rx, name)("<\\g<0>>", text)
    got = getattr(rx, name)(text)
    if name == "finditer":
        return [m.span() for m in got]
    if isinstance(got, re.Match):
        return got.span(), got.groups()
    return got


_PATTERNS = (r"a(b)?", r"(?i)select\s+(\w+)", r"\$(\w*)\$", r"'(?:[^']|'')*'", r"--[^\n]*", r"/\*.*?\*/", r"\s+", "")


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(_PATTERNS), st.text(alphabet="ab'$-/*\n \tSELECTselect_xé\\;", max_size=40),
       st.sampled_from(_METHODS), st.sampled_from(_METHODS))
def test_a_lazy_pattern_answers_as_re_does_before_and_after_its_first_use(pattern, text, first, second):
    lazy, real = lazyre.compile(pattern), re.compile(pattern)
    assert _apply(lazy, first, text) == _apply(real, first, text)  # the first use: through __getattr__
    assert _apply(lazy, second, text) == _apply(real, second, text)  # after it: the slots
    assert (lazy.pattern, lazy.flags, lazy.groups, lazy.groupindex) == (
        real.pattern, real.flags, real.groups, real.groupindex)
    assert repr(lazy) == f"lazyre.compile({pattern!r})"


def test_a_compiled_pattern_has_no_getattr_hook():
    rx = lazyre.compile(r"x(\d+)")
    assert hasattr(type(rx), "__getattr__")  # not compiled yet: its first read compiles it
    assert rx.match("x12")[1] == "12"
    assert not any("__getattr__" in vars(k) for k in type(rx).__mro__)
    assert rx.search("ax3")[1] == "3" and rx.pattern == r"x(\d+)"
    try:
        rx.no_such_method  # noqa: B018 - an attribute re.Pattern does not have either
    except AttributeError:
        pass
    else:
        raise AssertionError("an unknown attribute was found")


def test_a_pattern_first_used_by_many_threads_at_once():
    rx = lazyre.compile(r"(\w+)@(\w+)")
    out: list = []
    start = threading.Barrier(8)

    def use():
        start.wait()
        out.append(rx.fullmatch("a@b").groups())

    threads = [threading.Thread(target=use) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert out == [("a", "b")] * 8


def test_enum_members_read_once_are_the_members():
    from ddlc.backends.postgres import alter, alter_columns, routines
    from ddlc.frontend.sql import index
    from ddlc.ir.alter_columns import ColumnKind
    from ddlc.ir.index import PartitionScope
    from ddlc.ir.partition import BoundKind
    from ddlc.ir.routine import FunctionActionKind, FunctionStyle, RoutineKind
    from ddlc.ir.alter import AlterObjType
    import importlib

    from ddlc.passes import _sync
    from ddlc.values import partition_values

    assert routines._ORACLE is FunctionStyle.ORACLE and routines._PROCEDURE is RoutineKind.PROCEDURE
    for name, member in FunctionActionKind.__members__.items():
        alias = getattr(routines, "_A_" + name, None)
        assert alias is None or alias is member, name
    assert alter._LARGE_SEQUENCE is AlterObjType.LARGE_SEQUENCE
    assert (alter_columns._COLUMN, alter_columns._ATTRIBUTE) == (ColumnKind.COLUMN, ColumnKind.ATTRIBUTE)
    assert (index._NONE, index._GLOBAL, index._LOCAL) == (
        PartitionScope.NONE, PartitionScope.GLOBAL, PartitionScope.LOCAL)
    assert _sync._EXPR is BoundKind.EXPR
    expand_partitions = importlib.import_module("ddlc.passes.expand_partitions")  # (the package's name is its function)
    assert (expand_partitions._STRING, expand_partitions._NULL, expand_partitions._EXPR,
            expand_partitions._MAXVALUE) == (BoundKind.STRING, BoundKind.NULL, BoundKind.EXPR, BoundKind.MAXVALUE)
    assert (partition_values._NUMBER, partition_values._MAXVALUE) == (BoundKind.NUMBER, BoundKind.MAXVALUE)


def test_the_compiler_imports_no_text_reader_at_start_up():
    code = ("import sys, ddlc.compiler as c, ddlc.compiler_checks as k; "  # (_recover moved to compiler_checks)
            "print(any(m in sys.modules for m in ('ddlc.frontend.recover', 'ddlc.frontend.text')), "
            "c._read_tddl is None and k._recover is None)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "True"]


def test_tddl_documents_through_the_bound_readers():
    import ddlc

    docs = ['{"TDDL": "CREATE TABLE public.t (a int)"}', '{"TDDL": "DROP TABLE public.t"}',
            '{"TDDL": "CREATE TABLE public.t (a int); DROP TABLE x"}']
    for target in ("gaussdb", "postgres"):
        got = list(ddlc.translate_many(docs, target=target))
        assert got[0].statements and got[1].statements
        assert got[2].error is not None  # two statements in one TDDL text: refused on both targets


def test_more_enum_members_read_once_are_the_members():
    from pglast import enums
    from pglast.precedence import ExprPrec

    from ddlc.backends import pgdirect, pgdirect_base, pgdirect_exprs
    from ddlc.backends.postgres import objects_more
    from ddlc.ir.index import PartitionScope
    from ddlc.ir.sequence import SeqClause
    from ddlc.ir.statement import OpaqueReason

    import importlib

    du = importlib.import_module("ddlc.passes.drop_unsupported")
    assert du._UNPARSED is OpaqueReason.UNPARSED
    for name in ("START", "RESTART", "AS", "CYCLE", "OWNED", "ORDER"):
        assert getattr(objects_more, "_" + name) is SeqClause[name]
    for name in ("TEMPORARY", "UNLOGGED", "GLOBAL_TEMPORARY"):
        assert getattr(objects_more, "_" + name) is objects_more.Persistence[name]
    assert objects_more._GLOBAL is PartitionScope.GLOBAL
    assert (pgdirect_base._ATOM, pgdirect_base._OP, pgdirect_base._ADD, pgdirect_base._UMINUS) == (
        ExprPrec.ATOM, ExprPrec.OP, ExprPrec.ADD, ExprPrec.UMINUS)
    assert pgdirect_base._AEXPR_OP is enums.A_Expr_Kind.AEXPR_OP is pgdirect_exprs._AEXPR_OP
    assert pgdirect._SETOP_NONE is enums.SetOperation.SETOP_NONE


def test_front_enum_members_read_once_are_the_members():
    from ddlc.frontend import slots
    from ddlc.frontend.build import table
    from ddlc.frontend.sql import constraints
    from ddlc.ir.table import ConstraintKind, FkAction, FkMatch, OptionValueKind

    assert (slots._NUMBER, slots._IDENTIFIER) == (slots.Kind.NUMBER, slots.Kind.IDENTIFIER)
    assert table._NO_VALUE is OptionValueKind.NONE
    assert (constraints._EXCLUSION, constraints._PRIMARY_KEY, constraints._UNIQUE, constraints._FOREIGN_KEY) == (
        ConstraintKind.EXCLUSION, ConstraintKind.PRIMARY_KEY, ConstraintKind.UNIQUE, ConstraintKind.FOREIGN_KEY)
    assert constraints._SIMPLE is FkMatch.SIMPLE and constraints._NO_ACTION is FkAction.NO_ACTION
