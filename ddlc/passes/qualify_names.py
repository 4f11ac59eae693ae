"""qualify_names: every object gets a schema.

From the tree when it has one, else ``--default-schema`` (default ``public``). Covers the names in
the IR (``QualifiedName``: tables, FK targets, index and trigger tables, OWNED BY, DROP/COMMENT
identities, which the builders parsed from their text) and the object references inside
pre-rendered SQL (relations in view queries and FK definitions, ``nextval('seq')`` literals),
rewritten at the positions the SQL layer found at build time (:meth:`ddlc.ir.names.Expr.renamed_text`,
the tree alike with :meth:`~ddlc.ir.names.Expr.renamed`) only when something is unqualified.

Parse once: nodes are rebuilt with :func:`ddlc.ir.base.replace` / :func:`~ddlc.ir.base.transform`,
which clear the source text a changed name was parsed from (identity texts of DROP/COMMENT/SET
SCHEMA, an index definition, a function's name as written; :func:`ddlc.ir.base.source_text`), so
the GaussDB target renders the new names instead of the old text without re-parsing anything.

Check first: a statement the server wrote has every name qualified, so the pass first asks, in one walk that
rebuilds nothing (:func:`_unchanged`), whether its function would change any node; only then does it rebuild.
That walk passes every fragment (``Expr``) of the statement and hands them on as the shared Expr plan's last
answer (:meth:`ddlc.ir.reach.Reach.remember`): the PostgreSQL rules and the compiler's deferred parses read them
without walking the statement again when no rule changed it.
"""

from __future__ import annotations

import importlib
import re
import threading
from operator import attrgetter
from typing import Any

from ..diagnostics import Diagnostic, Severity, register
from ..ir import base as _base
from ..ir.base import Node, replace, transform
from ..ir.partition import BoundValue
from ..ir.routine import FunctionArg
from ._sync import synced
from ..ir.names import Expr, QualifiedName
from ..ir.reach import Reach
from ..ir.sqltree import index
from .. import lazyre

N_UNPARSED_REF = register(
    "DDLC-N501", Severity.NOTE, "References inside SQL text not checked",
    "A pre-rendered SQL fragment (query, default, constraint) that may reference objects could not be "
    "parsed by pglast, so unqualified references inside it were not qualified or mapped. The text is "
    "kept as it is.",
)

# Catalog objects the server always qualifies and that are not user objects: never defaulted.
NOT_USER_OBJECTS = frozenset({("IndexKey", "opclass"), ("IndexKey", "collation"), ("ColumnDef", "collation"),
                              ("AlterColumnType", "collation"), ("ModifyColumn", "collation"),
                              ("ChangeColumn", "collation")})

# the classes fn below changes (it returns every other node as given): the walk enters only what can hold them
_REACH = Reach({FunctionArg, BoundValue, QualifiedName, Expr}, NOT_USER_OBJECTS)

_MAY_REFERENCE = lazyre.compile(r"\b(nextval|currval|setval|REFERENCES|SELECT|FROM|JOIN)\b", re.I)


def may_reference(text: str) -> bool:
    """``_MAY_REFERENCE.search(text)``, the search run only when an ASCII text holds one of its words: with
    IGNORECASE the pattern tries seven words at every position (~3 us for a 30-byte CHECK), and most fragments
    (defaults, CHECKs) hold none. In an ASCII text the pattern's ASCII words match exactly what ``str.lower``
    finds; a text with any other character (IGNORECASE matches ``ſ`` as ``s``, ``K`` as ``k``) is searched as
    before. The walks below write this test out in their loops."""
    low = text.lower() if text.isascii() else None
    return (low is None or "from" in low or "select" in low or "references" in low or "nextval" in low
            or "join" in low or "currval" in low or "setval" in low) and _MAY_REFERENCE.search(text) is not None


_EXPRS = Reach.shared({Expr})  # the plan whose last answer the PostgreSQL rules and the deferred parses read


def qualify_names(stmt, ctx):
    # (the check inlined: a statement met costs this frame and one _check per node entered; most are unchanged)
    if _STEPS_GENERATION[0] != _base.generation:
        _forget()
    step = _STEPS.get(type(stmt), _UNSEEN)
    if step is _UNSEEN:
        step = _step(type(stmt))
    if step is None:
        return stmt, []
    found: list[tuple[Any, Any, str]] = []
    unparsed: list[Any] = []
    # _check(stmt, step, True, found, unparsed), its loop written out here: most statements are a node or two, and
    # a call costs as much as the loop
    complete: bool | None = step[4]
    steps = _STEPS
    alsos = step[3]
    i = -1
    for v in (step[1](stmt),) if step[6] else step[1](stmt):  # (attrgetter of one name gives the value itself)
        i += 1
        if v is None:
            continue
        if type(v) is QualifiedName:  # (the most common value: no tuple of one made for it)
            if v.schema is None:
                complete = None
                break
            continue
        for x in (v if type(v) is tuple else (v,)):
            tx = type(x)
            if tx is QualifiedName:
                if x.schema is None:
                    complete = None
                    break
                continue
            if tx is Expr:
                if alsos[i]:
                    found.append((x, stmt, step[2][i]))
                t = x.text  # (may_reference(t), written out: as fn does)
                low = t.lower() if t.isascii() else None
                if (low is None or "from" in low or "select" in low or "references" in low or "nextval" in low
                        or "join" in low or "currval" in low or "setval" in low) and _MAY_REFERENCE.search(t):
                    s = x.sql
                    if s is not None and s._refs_later is not None and (
                            _qualified_query(s) if s.form == "query" else _qualified_sequence(s)):
                        continue  # (its references, worked out, would all have a schema)
                    refs = None if s is None else s.refs
                    if refs is None:
                        unparsed.append(x)
                    elif _unqualified_ref(refs, s):
                        complete = None
                        break
                continue
            go = steps.get(tx, _UNSEEN)
            if go is _UNSEEN:
                if tx is tuple:
                    complete = None  # (the rebuilding walk does not enter it, Reach.found does)
                    break
                go = _step(tx)
            if go is None:
                continue
            below = _check(x, go, alsos[i], found, unparsed)
            if below is None or (go[0] and synced(x) is not x):
                complete = None
                break
            if not below:
                complete = False
        if complete is None:
            break
    if complete is not None:  # (the common case: every name qualified, as the server writes them)
        if complete and step[5]:
            found.reverse()
            _EXPRS._last = (stmt, tuple(found))  # (_EXPRS.remember, inline; _forget made it current)
        if not unparsed:
            return stmt, []
        return stmt, [Diagnostic(N_UNPARSED_REF, "SQL text not parsed; references inside it left as written",
                                 e.origin, document=ctx.document, pass_name="qualify_names") for e in unparsed]
    fn = _QUALIFY.get(ctx.default_schema)
    if fn is None:
        fn = _qualifier(ctx.default_schema)
    _UNPARSED.found = None  # (a walk that raised may have left some)
    out = transform(stmt, fn, NOT_USER_OBJECTS, _REACH)
    unparsed = _UNPARSED.found
    if unparsed is None:
        return out, []
    _UNPARSED.found = None
    return out, [Diagnostic(N_UNPARSED_REF, "SQL text not parsed; references inside it left as written", e.origin,
                            document=ctx.document, pass_name="qualify_names") for e in unparsed]


def _may_change(cls: type, ctx: Any) -> bool:
    """Whether a statement of class ``cls`` can hold a node ``fn`` changes (else the walk returns it as given)."""
    return _REACH.current().enters(cls)


qualify_names.may_change = _may_change  # type: ignore[attr-defined]


# per class met: None (not entered: nothing fn changes can be at or below it), or (what fn does at it: 0 nothing,
# 1 a QualifiedName, 2 a FunctionArg or BoundValue, 3 an Expr; the fields to visit, read in one call (an attrgetter:
# a tuple of their values), their names, and whether _EXPRS's walk visits each too; whether that walk visits no
# other field of it; whether that walk enters the class at all; whether there is one field (its value, no tuple))
_Step = tuple[int, Any, tuple[str, ...], tuple[bool, ...], bool, bool, bool]
_STEPS: dict[type, _Step | None] = {}
_STEPS_GENERATION = [-1]
_KINDS = {QualifiedName: 1, FunctionArg: 2, BoundValue: 2, Expr: 3}
_UNSEEN: Any = object()  # (a class with no step yet)


def _forget() -> None:
    _STEPS.clear()
    _STEPS_GENERATION[0] = _base.generation
    _EXPRS.current()  # (its answers worked out again too: the steps read them)


def _step(cls: type) -> _Step | None:
    reach = _REACH.current()
    if not (isinstance(cls, type) and issubclass(cls, Node) and reach.enters(cls)):
        _STEPS[cls] = None
        return None
    exprs = _EXPRS.current()
    ours = reach.fields(cls)
    entered = exprs.enters(cls)
    theirs = exprs.fields(cls) if entered else ()
    get = attrgetter(*ours) if ours else _no_fields  # (a class entered as a target alone may have none to visit)
    out = _STEPS[cls] = (_KINDS.get(cls, 0) if cls in reach.targets else 0, get, ours,
                         tuple(f in theirs for f in ours), all(f in ours for f in theirs), entered, len(ours) == 1)
    return out


def _no_fields(n: Any) -> tuple[()]:
    return ()


def _unchanged(stmt: Any, unqualified: Any = None) -> list[Any] | None:
    """None when the walk would change ``stmt`` (or may); else the fragments that do not parse, in the walk's order
    (what :func:`qualify_names` works out first; ``unqualified``: not read, the default schema is never None)."""
    if _STEPS_GENERATION[0] != _base.generation:
        _forget()
    step = _STEPS.get(type(stmt), _UNSEEN)
    if step is _UNSEEN:
        step = _step(type(stmt))
    if step is None:
        return []
    unparsed: list[Any] = []
    return None if _check(stmt, step, True, [], unparsed) is None else unparsed


def _check(cur: Any, step: _Step, theirs: bool, found: list[Any], unparsed: list[Any]) -> bool | None:
    """Whether the walk would change nothing at or below ``cur`` (its step given; ``theirs``: :data:`_EXPRS`'s walk
    reaches it): None when something changes, else whether ``found`` holds every fragment that walk finds below
    ``cur`` (the same nodes, held by the same nodes and fields; that walk takes a node's fields and a tuple's items
    from the last, so its order is the reverse of this one's), and the fragments that do not parse added to
    ``unparsed`` in the walk's order. The leaves (names, fragments) are judged where they are held. ``fn`` returns
    every node as it is exactly when no name is unqualified, no text twin is out of step and no fragment's
    references are unqualified (a fragment that does not parse is kept as it is, with its note): a reference is
    rewritten when its schema is absent and its place in the text known (:meth:`~ddlc.ir.names.Expr.renamed_text`
    with a default schema)."""
    complete = step[4] or not theirs
    steps = _STEPS
    alsos = step[3]
    i = -1
    for v in (step[1](cur),) if step[6] else step[1](cur):  # (attrgetter of one name gives the value itself)
        i += 1
        if v is None:
            continue
        if type(v) is QualifiedName:  # (the most common value: no tuple of one made for it)
            if v.schema is None:
                return None
            continue
        for x in (v if type(v) is tuple else (v,)):
            tx = type(x)
            if tx is QualifiedName:
                if x.schema is None:
                    return None
                continue
            if tx is Expr:
                if theirs and alsos[i]:
                    found.append((x, cur, step[2][i]))
                t = x.text  # (may_reference(t), written out: as fn does)
                low = t.lower() if t.isascii() else None
                if (low is None or "from" in low or "select" in low or "references" in low or "nextval" in low
                        or "join" in low or "currval" in low or "setval" in low) and _MAY_REFERENCE.search(t):
                    s = x.sql
                    if s is not None and s._refs_later is not None and (
                            _qualified_query(s) if s.form == "query" else _qualified_sequence(s)):
                        continue  # (its references, worked out, would all have a schema)
                    refs = None if s is None else s.refs
                    if refs is None:
                        unparsed.append(x)
                    elif _unqualified_ref(refs, s):
                        return None
                continue
            go = steps.get(tx, _UNSEEN)
            if go is _UNSEEN:
                if tx is tuple:
                    return None  # (the rebuilding walk does not enter it, Reach.found does)
                go = _step(tx)
            if go is None:
                continue
            below = _check(x, go, theirs and alsos[i], found, unparsed)
            if below is None or (go[0] and synced(x) is not x):
                return None
            if not below:
                complete = False
    return complete


def _unqualified_ref(refs: Any, sql: Any) -> bool:
    """Whether ``fn`` rewrites a fragment with these references (``sql``: its parsed form): one has no schema and a
    known place in the text (what :meth:`~ddlc.ir.names.Expr.renamed_text` edits, given a default schema). The tree
    is made now, as ``renamed_text`` makes it (it reads the references twice): a target that prints the text may
    still print a fragment from its tree (GaussDB's SELECT INTO), and no emitter parses
    (tests/test_emit_parses_nothing.py)."""
    sql.resolve()
    for r in refs:
        if r.schema is None and r.start >= 0:
            return True
    return False


_SELECT_SPACE = ("SELECT ", "select ")
_SEQUENCE_CALLS = frozenset({"nextval", "currval", "setval"})
_QUERY_CLASSES: tuple[type, type, type, type] | None = None  # pglast's RangeVar, FuncCall, String and SelectStmt


def _qualified_query(s: Any) -> bool:
    """Whether the references of a view's query (``s``: its parsed form, the references not worked out yet) would
    all have a schema, decided from its tree, without working them out (issue 26: the references are a parse of
    their own, only the tree is needed by the targets). True only when it is sure: the references are worked out
    by ``frontend.sql.refs.name_refs`` from the text, which reads a text starting with ``SELECT `` as the one
    query :func:`~ddlc.frontend.sql.expr.parse_query` reads too when the text has no blanks around it nor
    before a final ``;`` (the same string parsed: the same nodes). A reference without a schema is a
    ``RangeVar`` without one (a CTE's name too) or the literal of a sequence function's call; a function's and a
    type's always have one. Anything else (another reader, a tree of another kind, such a node): False, and the
    references are worked out as before (tests/test_throughput_round13_passes.py compares the two)."""
    later = s._refs_later
    refs, text = later
    if getattr(refs, "__module__", None) != _NAME_REFS[0] or getattr(refs, "__qualname__", None) != _NAME_REFS[1]:
        return False
    if not text.startswith(_SELECT_SPACE) or text[-1:].isspace():
        return False
    if text.endswith(";") and text[-2:-1].isspace():
        return False
    tree = s.node  # (made now, as _unqualified_ref makes it)
    if tree is None:
        return False
    classes = _QUERY_CLASSES or _query_classes()
    if type(tree) is not classes[3]:
        return False
    by = index(tree).groups()
    for n in by.get(classes[0], ()):
        if n.schemaname is None:
            return False
    string = classes[2]
    for n in by.get(classes[1], ()):
        name = n.funcname[-1] if n.funcname else None
        if type(name) is not string or name.sval in _SEQUENCE_CALLS:
            return False
    return True


_NAME_REFS = ("ddlc.frontend.sql.refs", "name_refs")

# a column default as the server writes a serial's: a schema-qualified sequence of plain lower-case names, nothing else
_QUALIFIED_NEXTVAL = re.compile(r"nextval\('[a-z_][a-z0-9_]*\.[a-z_][a-z0-9_]*'::regclass\)")


def _qualified_sequence(s: Any) -> bool:
    """Whether an expression's references (``s``: its parsed form, the references not worked out yet) would all have
    a schema, seen from its text alone when that is exactly ``nextval('schema.name'::regclass)`` with plain
    lower-case names (issue 26: a serial column's default, its references a parse of their own in name_refs). Its
    one reference is the literal's, whose schema ``split_regclass`` reads as the part before the dot (the call's
    name and the cast's type have one part: no reference). True only then (the reader name_refs, the whole text
    matched); anything else (quotes, capitals, blanks, comments, another call or reader): False, and the references
    are worked out as before (tests/test_throughput_round16_passes2.py compares the two). The tree is not made: a
    target that prints fragments from their trees has them made by the compiler (parse_pending), and GaussDB's
    prints a column default as its text."""
    refs, text = s._refs_later
    if _QUALIFIED_NEXTVAL.fullmatch(text) is None:
        return False
    if getattr(refs, "__module__", None) != _NAME_REFS[0] or getattr(refs, "__qualname__", None) != _NAME_REFS[1]:
        return False
    return True  # the reader of a query's references (not imported: a layer up)


def _query_classes() -> tuple[type, type, type, type]:
    global _QUERY_CLASSES
    ast = importlib.import_module("pglast.ast")  # (once: pglast is imported when a fragment is first parsed)
    _QUERY_CLASSES = (ast.RangeVar, ast.FuncCall, ast.String, ast.SelectStmt)
    return _QUERY_CLASSES


_QUALIFY: dict[str, Any] = {}  # default schema -> the walk's function (made once per schema)
_UNPARSED = threading.local()  # (found) the fragments of the statement walked that did not parse, in walk order


def _qualifier(default: str) -> Any:
    def unqualified(schema: str | None, name: str) -> str | None:
        return default if schema is None else None

    def fn(node):
        t = type(node)
        if t is QualifiedName:
            return node if node.schema is not None else replace(node, schema=default)
        if t is FunctionArg or t is BoundValue:
            return synced(node)  # its parsed Expr (a child) was rewritten already: the text follows
        if t is Expr and may_reference(node.text):
            new = node.renamed_text(unqualified)
            if new is None:
                found = getattr(_UNPARSED, "found", None)
                if found is None:
                    found = _UNPARSED.found = []
                found.append(node)
            elif new is not node.text:
                return node.renamed(new, unqualified)
        return node

    fn.unqualified = unqualified  # (for _unchanged)
    if len(_QUALIFY) > 64:
        _QUALIFY.clear()
    _QUALIFY[default] = fn
    return fn
