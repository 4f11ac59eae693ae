"""Function calls in SQL fragments, for PostgreSQL: which are known, which GaussDB ones are rewritten, and
what happens to the others.

Data:

* ``ddlc/data/pg_functions.txt``: the built-in functions of PostgreSQL 15 (``pg_catalog``), with the
  argument counts a call may have (``tools/gen_pg_functions.py``, from a real server);
* ``ddlc/data/gauss_functions.txt``: the GaussDB/openGauss built-ins PostgreSQL lacks for some
  argument count (``tools/gen_gauss_functions.py``, from openGauss's catalog source and GaussDB's
  documentation);
* :data:`REWRITES` (:mod:`.rewrites`): GaussDB functions with an exact or a documented-close
  PostgreSQL form, each checked on a real server by ``tests/test_pg_functions.py``.

Both files are read on first use. A call (a pglast ``FuncCall``, or the bare keyword ``sysdate``) is:

* *rewritten* when the rewrite table has a form for it (name, argument count, argument shape);
* *known* when PostgreSQL 15 has a ``pg_catalog`` function of that name taking that many arguments;
* *unknown* when it is schema-qualified with ``pg_catalog`` (or a GaussDB built-in schema such as
  ``dbe_perf``, ``pkg_service``, ``dbe_*``/``dbms_*``) and not known, or unqualified and a GaussDB
  built-in of that name and argument count (GaussDB resolves ``pg_catalog`` first, so such a call
  is the built-in, whatever the user created);
* a *user* function otherwise: qualified with another schema, or an unqualified name that is no
  GaussDB built-in. It is assumed to be created by the same stream (or on the target) and left as
  written; ddlc does not second-guess a user's schema.

An unknown call is never emitted: in a column DEFAULT (CREATE TABLE, ADD COLUMN, SET DEFAULT, MODIFY /
CHANGE) the default is dropped (``DDLC-W603``); anywhere else (CHECK, generation expression, index
key or predicate, view or CREATE TABLE AS query, trigger WHEN, routine argument default, partition
key or bound, USING, the UPDATE of a backfill) the statement is not translated (``DDLC-W604``): the
document fails unless ``--on-unsupported comment`` or ``skip``. Both are :data:`UNSUPPORTED` rules,
applied by the ``drop_unsupported`` pass. Limits: argument *types* are not known (a known name with
the right argument count passes even when PostgreSQL has no overload for the types, e.g.
``trunc(a_timestamp_column)``; the rewrites catch the forms whose shape shows the type).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

from ...records import record
from ...diagnostics import Severity, register
from ...ir.alter import AlterRelation
from ...ir.alter_columns import ChangeColumn, ModifyColumn, SetDefault
from ...ir.base import Node, replace
from ...ir.columns import ColumnDef
from ...ir.followup import AlterTableFollowup, BackfillUpdate
from ...ir.index import CreateIndex
from ...ir.misc import CreateMatView, CreateTableAs
from ...ir.names import Expr
from ...ir.reach import Reach
from ...ir.routine import CreateFunction
from ...ir.sqltree import index, remember
from ...ir.rules import Rule
from ...ir.table import CreateTable
from ...ir.trigger import CreateTrigger
from ...ir.typedef import CreateCompositeType
from ...ir.view import CreateView
from .rewrites import REWRITES, Rewrite

W_DEFAULT_UNKNOWN = register(
    "DDLC-W603", Severity.WARNING, "GaussDB-only function in an expression",
    "A column DEFAULT calls a GaussDB/openGauss built-in function PostgreSQL 15 does not have, and ddlc "
    "knows no PostgreSQL form for it (the rewrite table, docs/functions.md). The default is dropped (the "
    "column has none on PostgreSQL); with --on-unsupported comment it is kept as a comment. Create the "
    "function on PostgreSQL and add the default by hand if it matters.",
    "hired timestamp(0) DEFAULT months_between(sysdate, start_date)",
)
W_EXPR_UNKNOWN = register(
    "DDLC-W604", Severity.WARNING, "Expression calls a function PostgreSQL does not have: statement not translated",
    "A CHECK constraint, generation expression, index key or predicate, view or CREATE TABLE AS query, "
    "trigger WHEN, routine argument default, partition key or bound, ALTER COLUMN ... USING or backfill "
    "UPDATE calls a GaussDB/openGauss built-in function PostgreSQL 15 does not have and ddlc knows no "
    "PostgreSQL form for (docs/functions.md). Writing the statement without the call would change its "
    "meaning, so nothing is emitted: the document fails with DDLC-E010 unless --on-unsupported comment "
    "(kept as a comment) or skip.",
    "CHECK (months_between(end_date, start_date) >= 0)",
)

W_EXPR_UNPARSED = register(
    "DDLC-W605", Severity.WARNING, "Expression not in PostgreSQL's grammar",
    "A fragment the server rendered (a DEFAULT, CHECK, generation expression, index key or predicate, "
    "partition key, trigger WHEN...) does not parse with PostgreSQL's grammar (GaussDB-only syntax), so "
    "ddlc cannot write it from its parse and never pastes it. In a column DEFAULT the default is dropped; "
    "anywhere else the statement is not translated (DDLC-E010 unless --on-unsupported comment or skip).",
    "DEFAULT (a ** b)",
)

# ---- the catalogs ---------------------------------------------------------------------------------

Arity = tuple[tuple[int, int | None], ...]  # ranges (least, most); most None: any number more


def _read(name: str) -> dict[str, Arity]:
    out: dict[str, Arity] = {}
    from importlib import resources  # lazily: start-up time

    for line in resources.files("ddlc.data").joinpath(name).read_text("utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        fname, spec, _kinds = line.split("\t")
        ranges = []
        for part in spec.split(","):
            if part.endswith("+"):
                ranges.append((int(part[:-1]), None))
            elif "-" in part:
                lo, hi = part.split("-")
                ranges.append((int(lo), int(hi)))
            else:
                ranges.append((int(part), int(part)))
        out[fname] = tuple(ranges)
    return out


@functools.cache
def pg_functions() -> dict[str, Arity]:
    """PostgreSQL 15's ``pg_catalog`` functions, aggregates and window functions: name -> argument counts."""
    return _read("pg_functions.txt")


@functools.cache
def gauss_functions() -> dict[str, Arity]:
    """GaussDB/openGauss built-ins PostgreSQL 15 lacks for some argument count: name -> argument counts."""
    return _read("gauss_functions.txt")


def _takes(arity: Arity | None, n: int) -> bool:
    return arity is not None and any(lo <= n and (hi is None or n <= hi) for lo, hi in arity)


def pg_takes(name: str, nargs: int) -> bool:
    """Whether PostgreSQL 15 has a built-in ``name`` callable with ``nargs`` arguments."""
    return _takes(pg_functions().get(name), nargs)


def gauss_takes(name: str, nargs: int) -> bool:
    """Whether ``name`` with ``nargs`` arguments is a GaussDB built-in PostgreSQL 15 has no form of."""
    return _takes(gauss_functions().get(name), nargs) and not pg_takes(name, nargs)


# schemas of GaussDB/openGauss built-in functions and packages other than pg_catalog
_GAUSS_SCHEMAS = frozenset({"dbe_perf", "dbe_pldebugger", "dbe_pldeveloper", "dbe_sql_util", "pkg_service",
                            "pkg_util", "sqladvisor", "db4ai"})


def gauss_schema(schema: str) -> bool:
    """A schema of GaussDB built-ins (openGauss's ``builtin_funcs.ini`` namespaces, the DBE_ packages and
    their Oracle-style DBMS_ synonyms): a call into it is a built-in, never a user's function."""
    s = schema.lower()
    return s in _GAUSS_SCHEMAS or s.startswith(("dbe_", "dbms_"))


# ---- calls ----------------------------------------------------------------------------------------
KNOWN, REWRITE, UNKNOWN, USER = "known", "rewrite", "unknown", "user"
BARE = frozenset({"sysdate"})  # GaussDB keywords that are calls; pglast reads them as column references


@record(frozen=True, slots=True)
class Call:
    """One call in a pglast tree: ``node`` (a ``FuncCall``, or the ``ColumnRef`` of a bare keyword)."""

    name: str
    schema: str | None
    nargs: int  # arguments written (an ordered-set aggregate's WITHIN GROUP keys not counted)
    pg_nargs: int  # as PostgreSQL counts them (WITHIN GROUP keys counted)
    node: Any

    @property
    def label(self) -> str:
        return (f"{self.schema}." if self.schema else "") + self.name + ("" if self.node_is_bare else "()")

    @property
    def node_is_bare(self) -> bool:
        return type(self.node).__name__ == "ColumnRef"


_AST: Any = None  # pglast.ast, imported on first use (not at start-up), then kept


def _load_ast() -> Any:
    global _AST
    from pglast import ast

    _AST = ast
    return ast


def call_of(node: Any, quoted_bare: frozenset[str] = frozenset()) -> Call | None:
    """The :class:`Call` a pglast node is, or None. ``quoted_bare``: the BARE words the fragment's text
    writes quoted (a column named ``"sysdate"``), which are then never read as the keyword."""
    ast = _AST or _load_ast()
    if isinstance(node, ast.FuncCall):
        parts = [p.sval for p in node.funcname or () if isinstance(p, ast.String)]
        if not parts:
            return None
        n = len(node.args or ())
        extra = len(node.agg_order or ()) if node.agg_within_group else 0
        return Call(parts[-1], parts[-2] if len(parts) > 1 else None, n, n + extra, node)
    if isinstance(node, ast.ColumnRef):
        f = node.fields or ()
        if len(f) == 1 and isinstance(f[0], ast.String) and f[0].sval in BARE and f[0].sval not in quoted_bare:
            return Call(f[0].sval, None, 0, 0, node)
    return None


def rewrite_for(call: Call) -> Rewrite | None:
    """The rewrite of ``call``, or None."""
    if call.schema not in (None, "pg_catalog"):
        return None
    for rw in REWRITES.get(call.name, ()):
        if rw.takes(call.nargs) and rw.applies(call.node):
            return rw
    return None


def verdict(call: Call) -> str:
    """KNOWN, REWRITE, UNKNOWN or USER (see the module's documentation)."""
    if call.schema is not None and call.schema != "pg_catalog":
        return UNKNOWN if gauss_schema(call.schema) else USER
    if rewrite_for(call) is not None:
        return REWRITE
    if pg_takes(call.name, call.pg_nargs):
        return KNOWN
    if call.node_is_bare:
        return USER  # a column that happens to be named like the keyword
    if call.schema == "pg_catalog" or gauss_takes(call.name, call.nargs):
        return UNKNOWN
    return USER


def _quoted_bare(text: str) -> frozenset[str]:
    low = text.lower()
    return frozenset(w for w in BARE if f'"{w}"' in low)


# id(tree) -> (the tree, held: its id is not reused; its calls): the trees kept beyond a document
# (:func:`~ddlc.ir.sqltree.lasting`) in _SCAN_KEPT, any other in a short window (:func:`~ddlc.ir.sqltree.remember`)
_SCAN: dict[int, tuple[Any, tuple[tuple[Call, str], ...]]] = {}
_SCAN_KEPT: dict[int, tuple[Any, tuple[tuple[Call, str], ...]]] = {}


def calls(tree: Any, text: str = "") -> tuple[tuple[Call, str], ...]:
    """Every call of a pglast tree with its verdict, in tree order (memoized per tree; trees are shared and
    never modified)."""
    if tree is None:
        return ()
    key = id(tree)
    hit = _SCAN.get(key)
    if hit is None:
        hit = _SCAN_KEPT.get(key)
    if hit is not None and hit[0] is tree:
        return hit[1]
    quoted = _quoted_bare(text) if text else frozenset()
    ast = _AST or _load_ast()
    out = []
    for n in index(tree).among((ast.FuncCall, ast.ColumnRef)):  # the only nodes call_of makes a Call of
        c = call_of(n, quoted)
        if c is not None:
            out.append((c, verdict(c)))
    found = tuple(out)
    remember(tree, key, found, _SCAN, _SCAN_KEPT)
    return found


def unknown_calls(e: Expr | None) -> list[str]:
    """The labels of the unknown calls of ``e`` (empty when it did not parse: nothing is known of it)."""
    if e is None or e.tree is None:
        return []
    return [c.label for c, v in calls(e.tree, e.text) if v == UNKNOWN]


# ---- the rules ------------------------------------------------------------------------------------

_EXPR_REACH = Reach.shared({Expr})
_LAST: tuple[Any, tuple[tuple[Expr, bool], ...]] = (None, ())  # the last node walked and what it holds
_TWINNED: dict[type, bool] = {}  # node classes with a parsed form and its text twin (``definition``)


def _exprs_of(n: Node) -> tuple[tuple[Expr, bool], ...]:
    """Every Expr below ``n`` (its own fields included), each with whether it is a constraint's
    ``definition``, the text twin of its parsed form. One walk of the fields that can lead to an Expr
    (:meth:`~ddlc.ir.reach.Reach.found`, shared with the compiler's deferred parses), kept for the node's next
    rule (a statement is judged by several)."""
    global _LAST
    last = _LAST  # (one read: another thread may replace it)
    if last[0] is n:
        return last[1]
    out = []
    for e, holder, name in _EXPR_REACH.current().found(n):
        twin = False
        if name == "definition":
            cls = type(holder)
            twin = _TWINNED.get(cls)
            if twin is None:
                twin = _TWINNED[cls] = hasattr(holder, "parsed") and hasattr(holder, "definition")
        out.append((e, twin))
    found = tuple(out)
    _LAST = (n, found)
    return found


def _exprs(n: Node, *, twins: bool = True) -> Iterator[Expr]:
    """Every Expr below ``n`` (its own fields included); ``twins=False`` leaves out a constraint's
    ``definition``, the text twin of its parsed form."""
    return (e for e, twin in _exprs_of(n) if twins or not twin)


def has_unknown_call(n: Node) -> bool:
    """Whether an Expr below ``n`` calls an unknown function (a yes or no: no label made)."""
    for e, _twin in _exprs_of(n):
        s = e.sql
        tree = None if s is None else s.node
        if tree is not None:
            for _c, v in calls(tree, e.text):
                if v == UNKNOWN:
                    return True
    return False


def _default_unknown(n: Any) -> bool:
    return bool(unknown_calls(n.default))


_default_unknown.needs = ("default",)  # type: ignore[attr-defined]  # (false without a default: drop_unsupported tests it first)


def _unparsed(e: Expr | None) -> bool:
    s = None if e is None else e.sql
    return s is not None and s.node is None


def has_unparsed(n: Node) -> bool:
    """Whether an Expr below ``n`` was read by the SQL layer and is not PostgreSQL grammar. A constraint's
    ``definition`` is the text twin of its own parsed form (``parsed``; an unparsed constraint has its
    own rule), not an expression."""
    for e, twin in _exprs_of(n):
        if not twin:
            s = e.sql
            if s is not None and s.node is None:
                return True
    return False


def _default_unparsed(n: Any) -> bool:
    return _unparsed(n.default)


_default_unparsed.needs = ("default",)  # type: ignore[attr-defined]


_UNPARSED_DEFAULT = "column default is not PostgreSQL grammar; default dropped"
_UNPARSED_STATEMENT = "an expression is not PostgreSQL grammar; statement not translated"


_DEFAULT_MESSAGE = "column default calls a function PostgreSQL does not have; default dropped"
_STATEMENT_MESSAGE = "an expression calls a GaussDB function PostgreSQL does not have; statement not translated"

# statement classes whose IR can hold an Expr (tests/test_pg_functions.py keeps the list complete)
EXPR_STATEMENTS: tuple[type, ...] = (
    AlterRelation, AlterTableFollowup, BackfillUpdate, CreateCompositeType, CreateFunction, CreateIndex,
    CreateMatView, CreateTable, CreateTableAs, CreateTrigger, CreateView,
)

def _default_rules(code: str, message: str, applies: Any) -> tuple[Rule, ...]:
    """The rules that drop a column DEFAULT ``applies`` says PostgreSQL cannot take, wherever a default is
    written (CREATE TABLE / ADD COLUMN, MODIFY / CHANGE COLUMN, SET DEFAULT)."""
    return (
        Rule(ColumnDef, code, message, applies=applies, field="default"),
        *(Rule(cls, code, message, applies=applies, rewrite=lambda n: replace(n, default=None, layout=None))
          for cls in (ModifyColumn, ChangeColumn)),
        Rule(SetDefault, code, message, applies=applies),
    )


UNSUPPORTED: tuple[Rule, ...] = (
    *_default_rules(W_DEFAULT_UNKNOWN, _DEFAULT_MESSAGE, _default_unknown),
    *(Rule(cls, W_EXPR_UNKNOWN, _STATEMENT_MESSAGE, applies=has_unknown_call) for cls in EXPR_STATEMENTS),
    *_default_rules(W_EXPR_UNPARSED, _UNPARSED_DEFAULT, _default_unparsed),
    *(Rule(cls, W_EXPR_UNPARSED, _UNPARSED_STATEMENT, applies=has_unparsed, last=True) for cls in EXPR_STATEMENTS),
)

__all__ = [
    "REWRITES", "UNSUPPORTED", "EXPR_STATEMENTS", "W_DEFAULT_UNKNOWN", "W_EXPR_UNKNOWN", "W_EXPR_UNPARSED", "Call", "calls",
    "call_of", "gauss_functions", "gauss_schema", "gauss_takes", "has_unknown_call", "pg_functions", "pg_takes",
    "rewrite_for", "unknown_calls", "verdict",
]
