"""The object references inside an SQL fragment (:class:`ddlc.ir.names.NameRef`), found once, at build time.

The passes that qualify and map schema names rewrite a fragment's text at these positions
(:meth:`ddlc.ir.names.Expr.renamed_text`), so everything else in the text keeps its exact spelling,
and rewrite its tree alike; they never parse. The fragment is read as a query (when it starts like
one), else as an expression (``SELECT <text>``), else as a table constraint (``ALTER TABLE x ADD
CONSTRAINT c <text>``: REFERENCES targets); pglast reports each reference's position. pglast is
imported lazily (start-up time).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from ... import lazyre
from ...ir.names import NameRef, RefKind
from ...ir.sqltree import index, node_slots
from .pgparse import parse_json, parse_statements, pglast_ast
from .lexer import BLANK, ScanError, token_at
from .pgwords import requote, to_source

_QUERY_START = lazyre.compile(r"\s*(\(\s*)*(SELECT|WITH|VALUES|TABLE)\b", re.I)
_CONSTRAINT = "ALTER TABLE x ADD CONSTRAINT c "
_SELECT_SPACE = ("SELECT ", "select ")  # (a body starting so: _QUERY_START matches it, CONSTRAINT_START does not)
# a text starting with one of these reserved words (the keyword itself: no identifier character of PostgreSQL's
# lexer after it, ASCII case only) is no expression: ``SELECT <text>`` fails in PostgreSQL's grammar, untried
CONSTRAINT_START = lazyre.compile(r"(?:CHECK|PRIMARY|UNIQUE|FOREIGN)(?![A-Za-z0-9_$]|[^\x00-\x7f])", re.I | re.A)


def _parse(body: str) -> tuple[str, Any, bool] | None:
    """``(prefix, statements, json)`` of the first reading of ``body`` that parses, or None. The constraint
    reading (the last one tried) gives the JSON form of pglast's parse (:func:`_constraint_json`, ``json``
    true) when that form is one ``ALTER TABLE`` and the text is ASCII, else pglast's nodes, as the others.

    ASCII only: the JSON form's locations count the UTF-8 bytes of the text, pglast's nodes' count its
    characters (pglast maps them), and every position found here is a character offset. A location read
    in bytes after a non-ASCII character would put a rewritten name in the wrong place (a quote of the
    text could be cut).

    A body that starts with the keyword ``SELECT`` and a space (the openGauss deparser's query) is read as a
    query only: ``SELECT SELECT ...`` is no expression (a target cannot start with a reserved keyword, nor
    follow an empty target list) and ``ADD CONSTRAINT c SELECT ...`` no constraint (issue 26: a view query
    that PostgreSQL's grammar refuses was parsed twice more to fail; tests/test_throughput_round12_sqlrefs.py
    tries both readings on every such text of the fixtures and on generated ones)."""
    if body.startswith(_SELECT_SPACE):
        stmts = parse_statements(body)
        return None if stmts is None else ("", stmts, False)
    attempts: list[str] = []
    if _QUERY_START.match(body):
        attempts.append("")
    if CONSTRAINT_START.match(body) is None:
        attempts.append("SELECT ")
    for prefix in attempts:
        stmts = parse_statements(prefix + body)
        if stmts is not None:
            return prefix, stmts, False
    if body.isascii():
        doc = _constraint_json(_CONSTRAINT + body)
        if doc is None:
            return None
        if len(doc) == 1 and "AlterTableStmt" in (doc[0].get("stmt") or {}):
            return _CONSTRAINT, doc, True
    stmts = parse_statements(_CONSTRAINT + body)
    return None if stmts is None else (_CONSTRAINT, stmts, False)


def _constraint_json(sql: str) -> Any:
    """The statements of ``sql`` in the JSON form of pglast's parse (:func:`~.pgparse.parse_json`: the same
    parser as :func:`~.pgparse.parse_statements`, read the same way, without pglast's Python nodes; a
    constraint definition's own reading shares it), or None when it does not parse."""
    doc = parse_json(sql)
    return None if doc is None else doc.get("stmts") or []


@lru_cache(maxsize=4096)
def name_refs(text: str) -> tuple[NameRef, ...] | None:
    """The object references in ``text`` (positions in ``text``), or None when it does not parse."""
    body = text.strip(BLANK)
    if body.endswith(";"):
        body = body[:-1]
    parsed = _parse(body)
    if parsed is None:
        return None
    prefix, stmts, in_json = parsed
    lead = len(text) - len(text.lstrip(BLANK))
    marks = requote(prefix + body)[1]  # names quoted for PostgreSQL's grammar shift pglast's locations
    if in_json:
        refs: list[NameRef] = []

        def at(location: int) -> int:  # pglast's locations count characters of prefix + body (requoted)
            return lead + (to_source(marks, location) if marks else location) - len(prefix)

        def schema_ref(kind: RefKind, schema: str | None, name: str, location: int) -> None:
            start = at(location)
            end = _ident_end(text, start) if schema is not None else start
            refs.append(NameRef(kind, schema, name, start, end))

        _json_refs(stmts, text, at, schema_ref, refs, set())
        return tuple(refs)
    return _node_refs(text, prefix, stmts, lead, marks)


_new_ref = tuple.__new__  # (a NameRef made from its six values in C: its generated __new__ is a Python frame)
_RELATION, _FUNCTION, _TYPE, _REGCLASS = RefKind.RELATION, RefKind.FUNCTION, RefKind.TYPE, RefKind.REGCLASS
_SEQUENCE_CALLS = ("nextval", "currval", "setval")
_AST: Any = None  # pglast.ast, once imported (no import statement per call)
_CLASSES: tuple[type, ...] = ()  # pglast's RangeVar, FuncCall, TypeName, CommonTableExpr, TypeCast, A_Const, String


def _node_refs(text: str, prefix: str, stmts: Any, lead: int, marks: tuple[tuple[int, int], ...]) -> tuple[NameRef, ...]:
    """What :func:`name_refs` finds in pglast's nodes: the references of the ``RangeVar``, ``FuncCall`` and
    ``TypeName`` nodes of each statement in walk order (CTE names excluded), read from each statement's index
    by class (:meth:`~ddlc.ir.sqltree.Index.groups`: the tree's one walk, grouped once for all its readers) in
    one frame. A reference's place in the walk orders them when more than one class gives references (issue 26:
    a view's query costs a third of the former per-node dispatch, closures and ``NameRef`` calls)."""
    ast = _AST or _load_ast()
    range_var, func_call, type_name, cte, type_cast, a_const, string = _CLASSES
    shift = len(prefix) - lead  # (a location counts characters of prefix + body, requoted)
    indexes = [index(_within(s.stmt, ast)) for s in stmts if s.stmt is not None]
    groups = [idx.groups() for idx in indexes]
    ctes: set[str] = set()
    for by in groups:
        for node in by.get(cte, ()):
            ctes.add(node.ctename)
    dummy = stmts[0].stmt.relation if prefix == _CONSTRAINT else None  # ALTER TABLE x: not a reference
    found: list[tuple[int, Any, NameRef]] = []  # (statement, node, reference): the node's walk order needed only
    kinds = 0  # the classes that gave a reference (bits): more than one, the walk order sorts them
    for k, by in enumerate(groups):
        for node in by.get(range_var, ()):
            schema = node.schemaname
            location = node.location
            if node is dummy or (schema is None and node.relname in ctes) or location < 0:
                continue
            start = (to_source(marks, location) if marks else location) - shift
            end = start if schema is None else _schema_end(text, schema, start)
            found.append((k, node, _new_ref(NameRef, (_RELATION, schema, node.relname, start, end, None))))
            kinds |= 1
        for node in by.get(func_call, ()):
            names = [n.sval for n in node.funcname]
            location = node.location
            if len(names) == 2 and location >= 0:
                start = (to_source(marks, location) if marks else location) - shift
                found.append((k, node, _new_ref(NameRef, (_FUNCTION, names[0], names[1], start,
                                                          _schema_end(text, names[0], start), None))))
                kinds |= 2
            if names[-1] in _SEQUENCE_CALLS and node.args:
                arg = node.args[0]
                const = arg.arg if isinstance(arg, type_cast) else arg
                if isinstance(const, a_const) and isinstance(const.val, string):
                    sval = const.val.sval
                    qual = split_regclass(sval)
                    if qual is not None:
                        span = None
                        if location >= 0:
                            span = _literal_after_paren(text, (to_source(marks, location) if marks else location) - shift)
                        start, end = span if span is not None else (-1, -1)
                        found.append((k, node, _new_ref(NameRef, (_REGCLASS, qual[0], qual[1], start, end, sval))))
                        kinds |= 2
        for node in by.get(type_name, ()):
            names = [n.sval for n in node.names]
            location = node.location
            if len(names) == 2 and names[0] != "pg_catalog" and location >= 0:
                start = (to_source(marks, location) if marks else location) - shift
                found.append((k, node, _new_ref(NameRef, (_TYPE, names[0], names[1], start,
                                                          _schema_end(text, names[0], start), None))))
                kinds |= 4
    if not found:
        return ()
    if kinds & (kinds - 1):  # references of more than one class: in walk order (a node's own ones in turn)
        where = [{id(n): i for i, n in enumerate(idx.order)} for idx in indexes]
        found.sort(key=lambda f: (f[0], where[f[0]][id(f[1])]))
    if len(found) == 1:
        return (found[0][2],)
    return tuple([f[2] for f in found])


def _load_ast() -> Any:
    global _AST, _CLASSES
    ast = pglast_ast()
    _CLASSES = (ast.RangeVar, ast.FuncCall, ast.TypeName, ast.CommonTableExpr, ast.TypeCast, ast.A_Const, ast.String)
    _AST = ast
    return ast


_OTHER_CLAUSES: tuple[str, ...] = ()  # SelectStmt's node slots other than its target list


def _within(stmt: Any, ast: Any) -> Any:
    """The part of a parsed statement that holds every node :func:`name_refs` reads: the expression of a bare
    ``SELECT <expression>`` (the reading of an expression: the same node :func:`~.expr.parse_expr` gives,
    whose index the rules and emitters read too: one walk), else the statement."""
    global _OTHER_CLAUSES
    if type(stmt) is not ast.SelectStmt:
        return stmt
    targets = stmt.targetList
    if not targets or len(targets) != 1:
        return stmt
    target = targets[0]
    if type(target) is not ast.ResTarget or target.indirection or target.val is None:
        return stmt
    if not _OTHER_CLAUSES:
        _OTHER_CLAUSES = tuple(s for s in node_slots(ast.SelectStmt) if s != "targetList")
    if any(getattr(stmt, s) for s in _OTHER_CLAUSES):
        return stmt
    return target.val


def _json_refs(stmts: list[Any], text: str, at: Callable[[int], int],
               schema_ref: Callable[[RefKind, str | None, str, int], None], refs: list[NameRef], ctes: set[str]) -> None:
    """What :func:`name_refs` finds in pglast's nodes, found in the JSON form of the same parse (the
    constraint reading): its nodes in the same order (parents first, children in field order), a node
    wrapped by its type's name or, in a field of one node type, not (a ``RangeVar`` has ``relname``, a
    ``TypeName`` ``names`` and ``typemod``, a ``FuncCall`` ``funcname``, a ``CommonTableExpr``
    ``ctename``: no other raw parse node has those fields)."""
    dummy: Any = None  # ALTER TABLE x: not a reference
    if stmts:
        dummy = ((stmts[0].get("stmt") or {}).get("AlterTableStmt") or {}).get("relation")
    found: list[tuple[str, dict[str, Any]]] = []
    stack: list[Any] = [stmts]
    pop, push = stack.pop, stack.append
    while stack:
        n = pop()
        if type(n) is list:
            stack.extend(reversed(n))
            continue
        if "relname" in n:
            found.append(("relation", n))
        elif "funcname" in n:
            found.append(("function", n))
        elif "typemod" in n and "names" in n:
            found.append(("type", n))
        elif "ctename" in n:
            ctes.add(n["ctename"])
        for v in reversed(n.values()):
            if type(v) is dict or type(v) is list:
                push(v)
    for what, n in found:
        location = n.get("location", 0)
        if what == "relation":
            schema = n.get("schemaname")
            if n is dummy or (schema is None and n["relname"] in ctes) or location < 0:
                continue
            schema_ref(RefKind.RELATION, schema, n["relname"], location)
        elif what == "function":
            names = [s["String"].get("sval", "") for s in n["funcname"]]
            if len(names) == 2 and location >= 0:
                schema_ref(RefKind.FUNCTION, names[0], names[1], location)
            args = n.get("args")
            if names[-1] in ("nextval", "currval", "setval") and args:
                arg = args[0]
                const = arg["TypeCast"].get("arg") or {} if "TypeCast" in arg else arg
                val = (const.get("A_Const") or {}).get("sval")
                if val is not None:
                    sval = val.get("sval", "")
                    qual = split_regclass(sval)
                    if qual is not None:
                        span = _literal_after_paren(text, at(location)) if location >= 0 else None
                        start, end = span if span is not None else (-1, -1)
                        refs.append(NameRef(RefKind.REGCLASS, qual[0], qual[1], start, end, sval))
        else:
            names = [s["String"].get("sval", "") for s in n["names"]]
            if len(names) == 2 and names[0] != "pg_catalog" and location >= 0:
                schema_ref(RefKind.TYPE, names[0], names[1], location)


def _schema_end(text: str, schema: str, i: int) -> int:
    """:func:`_ident_end` of the schema ``schema`` of a qualified name at ``i``: the end of its bare spelling
    found at once when the text has it there followed by the ``.`` (an ASCII identifier is one word of the
    lexer, which stops at the dot), else read by the lexer."""
    if i >= 0 and schema.isascii() and schema.isidentifier() and text.startswith(schema, i) \
            and text.startswith(".", i + len(schema)):
        return i + len(schema)
    return _ident_end(text, i)


def _ident_end(text: str, i: int) -> int:
    """End of the identifier (bare or quoted) starting at ``i``."""
    try:
        t = token_at(text, i)
    except ScanError:  # an unterminated quoted identifier: to the end
        return len(text)
    except IndexError:
        return i
    return t.end if t.kind in ("word", "qident") else i


def _literal_after_paren(text: str, loc: int) -> tuple[int, int] | None:
    """(start, end) of the ``'...'`` literal that is the first argument of the call at ``loc``."""
    i = text.find("(", loc)
    if i < 0:
        return None
    i += 1
    while i < len(text) and text[i] in " \t\r\n":
        i += 1
    if not text.startswith("'", i):
        return None
    try:
        t = token_at(text, i)
    except ScanError:
        return None
    return t.start, t.end


def split_regclass(s: str) -> tuple[str | None, str] | None:
    """``'public.seq'`` / ``'seq'`` / ``'"S".x'`` -> (schema, name) with identifier folding."""
    parts: list[str] = []
    i, n = 0, len(s)
    while i < n:
        if s[i] == '"':
            j = i + 1
            buf = []
            while j < n:
                if s[j] == '"':
                    if j + 1 < n and s[j + 1] == '"':
                        buf.append('"')
                        j += 2
                        continue
                    break
                buf.append(s[j])
                j += 1
            parts.append("".join(buf))
            i = j + 1
        else:
            j = s.find(".", i)
            j = n if j < 0 else j
            parts.append(s[i:j].strip().lower())
            i = j
        if i < n and s[i] == ".":
            i += 1
        elif i < n:
            return None
    if len(parts) == 1:
        return None, parts[0]
    if len(parts) == 2:
        return parts[0], parts[1]
    return None


__all__ = ["name_refs", "split_regclass"]
