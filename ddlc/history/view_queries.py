"""What a view's query reads, and the same query after a rename (:mod:`.views` keeps the views).

Each function works on the parsed query the IR holds (``Expr.tree``): it reads it, or changes a copy and
prints it (pglast's ``RawStream``); nothing is parsed here.
"""

from __future__ import annotations

import copy
from typing import Any

from ..ir.names import Expr, ParsedSql, rename_schemas
from ..ir.sqltree import index, remember

Key = tuple[str | None, str]
ALL = "*"  # a read of every column of a relation


# ---- what a query reads -------------------------------------------------------------------------
# (id(tree), references) -> (the tree, held: its id is not reused; the reads): the trees kept beyond a document
# (:func:`~ddlc.ir.sqltree.lasting`) in _READS_KEPT, any other in a short window (:func:`~ddlc.ir.sqltree.remember`)
_READS: dict[tuple[int, tuple[Key, ...]], tuple[Any, tuple[tuple[Key, str], ...]]] = {}
_READS_KEPT: dict[tuple[int, tuple[Key, ...]], tuple[Any, tuple[tuple[Key, str], ...]]] = {}


def columns_read(node: Any) -> tuple[tuple[Key, str], ...]:
    """The ``(relation key, column)`` pairs a CREATE VIEW reads (see the module's docstring). Worked out once
    per parsed query (the tree the SQL layer shares for a text, never modified) and references: a stream that
    repeats a view reads it once."""
    refs = []
    for r in node.references:  # (a loop: a comprehension is a frame of its own in 3.11)
        refs.append((r.schema, r.name))
    tree = node.query.tree
    if tree is None:
        return tuple((k, ALL) for k in dict.fromkeys(refs))
    key = (id(tree), tuple(refs))
    hit = _READS.get(key)
    if hit is None:
        hit = _READS_KEPT.get(key)
    if hit is not None and hit[0] is tree:
        return hit[1]
    out = _columns_read(tree, refs)
    remember(tree, key, out, _READS, _READS_KEPT)
    return out


_CLASSES: tuple[type, ...] = ()  # pglast's CommonTableExpr, RangeVar, ColumnRef, A_Star, once imported


def _classes() -> tuple[type, ...]:
    """pglast's classes :func:`_columns_read` reads, imported at its first call and kept (an import statement
    per call runs importlib's Python code: ~11k instructions each)."""
    global _CLASSES
    from pglast import ast

    _CLASSES = (ast.CommonTableExpr, ast.RangeVar, ast.ColumnRef, ast.A_Star, ast.String)
    return _CLASSES


def _columns_read(tree: Any, refs: list[Key]) -> tuple[tuple[Key, str], ...]:
    cte, range_var, column_ref, a_star, string = _CLASSES or _classes()
    by = index(tree).groups()  # (one walk of the tree, shared with its other readers; its nodes by class, once)
    found = by.get(cte)
    ctes = {n.ctename for n in found} if found else ()  # (no set's comprehension frame without a CTE)
    names: dict[str, Key] = {}  # alias or bare relation name -> relation
    rels: list[Key] = []
    for n in by.get(range_var, ()):
        schema, rel = n.schemaname, n.relname
        if schema is None and rel in ctes:
            continue
        key = (schema, rel) if schema is not None else _resolve(None, rel, refs)
        rels.append(key)
        alias = n.alias
        names[alias.aliasname if alias is not None else rel] = key
    if len(rels) > 1:
        rels = list(dict.fromkeys(rels))
    out: dict[tuple[Key, str], None] = {}
    for n in by.get(column_ref, ()):
        fields = n.fields
        far: Any = None  # (a third name from the end, or None: then no schema is tested)
        size = len(fields)
        # ``t.c`` and ``c``, the common references, read without the list of every field (issue 26)
        if size == 2 and type(fields[0]) is string and type(fields[1]) is string:
            qual, col = fields[0].sval, fields[1].sval
        elif size == 1 and type(fields[0]) is string:
            qual, col = None, fields[0].sval
        else:
            got = [ALL if isinstance(f, a_star) else getattr(f, "sval", None) for f in fields]
            if not got:
                continue
            col = got[-1]
            qual = got[-2] if len(got) >= 2 else None
            if len(got) >= 3:
                far = (got[-3],)
        if col is None:
            continue
        if qual is not None and qual in names and (far is None or _qualifies(far[0], names[qual])):
            out[(names[qual], col)] = None
        elif len(rels) == 1 and qual is None:
            out[(rels[0], col)] = None
        else:  # a subquery's or CTE's column, or an unqualified one beside other relations: any of them
            for k in rels:
                out[(k, col)] = None
    return tuple(out)


def _resolve(schema: str | None, name: str, refs: list[Key]) -> Key:
    if schema is not None:
        return (schema, name)
    found = [k for k in refs if k[1] == name]
    return found[0] if len(found) == 1 else (None, name)


def _qualifies(schema: str | None, key: Key) -> bool:
    return schema is None or key[0] is None or schema == key[0]


# ---- renames in a stored query --------------------------------------------------------------------
def _query(e: Expr, tree: Any) -> Expr:
    """``e`` as the changed ``tree`` prints (the tree kept as its parsed form; its references unknown)."""
    from pglast.stream import RawStream

    text = RawStream()(tree) + (";" if e.text.rstrip().endswith(";") else "")
    return Expr(text, origin=e.origin, sql=ParsedSql("query", tree, None, False))


def relation_renamed(e: Expr, old: Key, new: Key) -> Expr | None:
    """The query with relation ``old`` named ``new`` (its references qualified by the bare old name follow);
    the same Expr when it does not name it, None when it has no tree."""
    from pglast import ast

    from ..ir.sqltree import nodes

    if e.tree is None:
        return None
    tree = copy.deepcopy(e.tree)
    changed, bare = False, False
    for n in nodes(tree):
        if isinstance(n, ast.RangeVar) and n.relname == old[1] and n.schemaname in (old[0], None):
            bare = bare or n.alias is None
            n.relname = new[1]
            if n.schemaname is not None:
                n.schemaname = new[0]
            changed = True
    if not changed:
        return e
    if bare and old[1] != new[1]:
        for n in nodes(tree):
            if isinstance(n, ast.ColumnRef) and len(n.fields) >= 2 and getattr(n.fields[-2], "sval", None) == old[1]:
                n.fields = (*n.fields[:-2], ast.String(sval=new[1]), n.fields[-1])
    return _query(e, tree)


def schema_renamed(e: Expr, old: str, new: str) -> Expr | None:
    """The query with schema ``old`` named ``new`` (relations, functions and types it names)."""
    if e.tree is None:
        return None
    text = e.renamed_text(lambda schema, name: new if schema == old else None)
    if text is not None:  # the references are known: the text edited in place, the tree alike
        return e if text is e.text else e.renamed(text, lambda schema, name: new if schema == old else None)
    tree = rename_schemas(copy.deepcopy(e.tree), lambda schema, name: new if schema == old else None, {})
    return _query(e, tree)


def column_renamed(e: Expr, relation: Key, old: str, new: str) -> Expr | None:
    """The query with column ``old`` of ``relation`` named ``new``: references qualified by the relation's
    name or alias, or unqualified when it reads that relation alone; an output column that took the old name
    keeps it (``AS old``), as the database's view does. The same Expr when it does not name the column; None
    when that cannot be told (no tree, an unqualified reference beside other relations)."""
    from pglast import ast

    from ..ir.sqltree import nodes

    if e.tree is None:
        return None
    tree = copy.deepcopy(e.tree)
    rels = [n for n in nodes(tree) if isinstance(n, ast.RangeVar)]
    mine = [r for r in rels if r.relname == relation[1] and r.schemaname in (relation[0], None)]
    if not mine:
        return e
    names = {r.alias.aliasname if r.alias is not None else r.relname for r in mine}

    def ours(ref: Any) -> bool | None:
        f = [getattr(x, "sval", None) for x in ref.fields]
        if not f or f[-1] != old:
            return False
        if len(f) >= 2:
            return f[-2] in names
        return True if len(rels) == 1 else None

    for n in nodes(tree):
        if isinstance(n, ast.ResTarget) and n.name is None and isinstance(n.val, ast.ColumnRef) and ours(n.val):
            n.name = old
    changed = False
    for n in nodes(tree):
        if isinstance(n, ast.ColumnRef):
            hit = ours(n)
            if hit is None:
                return None
            if hit:
                n.fields = (*n.fields[:-1], ast.String(sval=new))
                changed = True
    return _query(e, tree) if changed else e


def output_renamed(e: Expr, old: str, new: str) -> Expr | None:
    """The query whose output column ``old`` is called ``new`` (``ALTER VIEW ... RENAME COLUMN``); None when
    it has no tree or no such output column."""
    from pglast import ast

    if e.tree is None:
        return None
    tree = copy.deepcopy(e.tree)
    select = tree
    while isinstance(select, ast.SelectStmt) and select.larg is not None:
        select = select.larg
    for t in getattr(select, "targetList", None) or ():
        if not isinstance(t, ast.ResTarget):
            continue
        name = t.name
        if name is None and isinstance(t.val, ast.ColumnRef) and isinstance(t.val.fields[-1], ast.String):
            name = t.val.fields[-1].sval
        if name == old:
            t.name = new
            return _query(e, tree)
    return None




# ---- the views of a catalog ---------------------------------------------------------------------------
