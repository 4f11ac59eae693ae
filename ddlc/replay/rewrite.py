"""Names inside SQL fragments, changed for ``ddlc replay`` when the log renames what they name.

A column or table renamed by the log is still named the old way in the text of a constraint, a
default, an index key or a view query that was written before the rename. The database follows the
rename (it stores references, not names); a script that builds the objects again must name the new
ones. These helpers change the names in the fragment's parsed form (a copy of the pglast tree the
frontend made), print it (``pglast.stream.RawStream``) and read the new text back through the
frontend's SQL layer, so the new fragment carries a parsed form of its own exactly as if the log had
written it. A fragment that has no parsed form is returned as ``None`` (the caller says so).

Nothing here parses a fragment the frontend did not already read; pglast is imported lazily.
"""

from __future__ import annotations

import copy
from typing import Any

from ..ir.base import replace
from ..ir.names import Expr

_PREFIX = "ALTER TABLE x ADD CONSTRAINT c "


def column_refs(tree: Any, column: str, table: str | None = None) -> bool:
    """Whether a pglast tree names ``column`` (unqualified, or qualified by ``table``)."""
    from pglast import ast

    from ..ir.sqltree import nodes

    for n in nodes(tree):
        if isinstance(n, ast.ColumnRef):
            names = [getattr(f, "sval", None) for f in n.fields]
            if names and names[-1] == column and (len(names) == 1 or table is None or names[-2] == table):
                return True
    return False


def _rename_columns(tree: Any, old: str, new: str) -> bool:
    from pglast import ast

    from ..ir.sqltree import nodes

    changed = False
    for n in nodes(tree):
        if isinstance(n, ast.ColumnRef):
            f = n.fields
            if f and getattr(f[-1], "sval", None) == old:
                n.fields = (*f[:-1], ast.String(sval=new))
                changed = True
        elif isinstance(n, ast.Constraint):
            for slot in ("keys", "fk_attrs", "including"):
                names = getattr(n, slot, None)
                if names and any(getattr(s, "sval", None) == old for s in names):
                    setattr(n, slot, tuple(ast.String(sval=new) if getattr(s, "sval", None) == old else s
                                           for s in names))
                    changed = True
    return changed


def _rename_relation(tree: Any, old: tuple[str | None, str], new: tuple[str | None, str]) -> bool:
    """RangeVars naming ``old`` become ``new``; column references qualified by the old table name
    (without an alias) follow."""
    from pglast import ast

    from ..ir.sqltree import nodes

    changed = False
    bare = set()
    for n in nodes(tree):
        if isinstance(n, ast.RangeVar) and n.relname == old[1] and n.schemaname in (old[0], None):
            if n.alias is None:
                bare.add(n.relname)
            n.relname, n.schemaname = new[1], new[0] if n.schemaname is not None else None
            changed = True
    if changed and old[1] != new[1] and bare:
        for n in nodes(tree):
            if isinstance(n, ast.ColumnRef) and len(n.fields) >= 2 and getattr(n.fields[-2], "sval", None) == old[1]:
                n.fields = (*n.fields[:-2], ast.String(sval=new[1]), n.fields[-1])
    return changed


def _fk_target(tree: Any, old: tuple[str | None, str], new: tuple[str | None, str],
               column: tuple[str, str] | None) -> bool:
    """An FK's referenced table renamed, or (``column``) one of its referenced columns."""
    from pglast import ast

    from ..ir.sqltree import nodes

    changed = False
    for n in nodes(tree):
        if isinstance(n, ast.Constraint) and n.pktable is not None:
            pk = n.pktable
            if pk.relname != old[1] or pk.schemaname not in (old[0], None):
                continue
            if column is None:
                pk.relname = new[1]
                if pk.schemaname is not None:
                    pk.schemaname = new[0]
                changed = True
            elif n.pk_attrs and any(getattr(s, "sval", None) == column[0] for s in n.pk_attrs):
                n.pk_attrs = tuple(ast.String(sval=column[1]) if getattr(s, "sval", None) == column[0] else s
                                   for s in n.pk_attrs)
                changed = True
    return changed


def _print(tree: Any) -> str:
    from pglast.stream import RawStream

    return RawStream()(tree)


def expr_renamed(e: Expr | None, *, column: tuple[str, str] | None = None,
                 relation: tuple[tuple[str | None, str], tuple[str | None, str]] | None = None) -> Expr | None:
    """``e`` with a column (old, new) or a relation (old key, new key) renamed in it: the same object
    when it does not name it, None when it has no parsed form to rename in."""
    if e is None:
        return None
    sql = e.sql
    if sql is None or sql.node is None:
        return None
    tree = copy.deepcopy(sql.node)
    if column is not None:
        changed = _rename_columns(tree, *column)
    else:
        assert relation is not None
        changed = _rename_relation(tree, *relation)
    if not changed:
        return e
    from ..frontend.sql.expr import make_expr, make_query

    text = _print(tree)
    if sql.form == "query":
        return make_query(text + (";" if e.text.rstrip().endswith(";") else ""), e.origin)
    return make_expr(text, e.origin)


def constraint_renamed(node: Any, *, column: tuple[str, str] | None = None, own: bool = True,
                       relation: tuple[tuple[str | None, str], tuple[str | None, str]] | None = None) -> Any:
    """A constraint node (TableConstraint or AddConstraint) with a name changed in its definition:
    ``column`` of its own table (``own``) or of the table its FOREIGN KEY references (not ``own``), or the
    referenced ``relation``. The same node when nothing changes; None when its text cannot be rewritten
    (not PostgreSQL syntax as written)."""
    info = getattr(node, "parsed", None)
    if info is None:
        return None
    if not _names_it(info, column, own, relation):
        return node
    if not getattr(node, "verbatim", False):
        return None
    from ..frontend.sql.pgparse import parse_statements

    stmts = parse_statements(_PREFIX + node.definition.text)
    if stmts is None or len(stmts) != 1:
        return None
    tree = copy.deepcopy(stmts[0].stmt)  # parse_statements' trees are cached: never change them
    if relation is not None:
        changed = _fk_target(tree, *relation, None)
    elif own:
        changed = _rename_columns(tree, *column)  # type: ignore[misc]
    else:
        ref = (info.references.schema, info.references.name)
        changed = _fk_target(tree, ref, ref, column)
    if not changed:
        return node
    text = _print(tree)
    if not text.startswith(_PREFIX):
        return None
    body = text[len(_PREFIX):]
    from ..frontend.sql.constraints import read_definition

    read = read_definition(body, node.definition.origin)
    if read.parsed is None:
        return None
    from ..frontend.sql.expr import make_expr

    definition = make_expr(body, node.definition.origin)  # as the builders read a definition
    return replace(node, definition=definition, parsed=read.parsed, verbatim=read.verbatim, layout=None)


def _names_it(info: Any, column: tuple[str, str] | None, own: bool,
              relation: tuple[tuple[str | None, str], tuple[str | None, str]] | None) -> bool:
    if relation is not None:
        ref = info.references
        return ref is not None and (ref.schema, ref.name) == relation[0]
    assert column is not None
    if not own:
        return column[0] in info.ref_columns
    if column[0] in (*info.columns, *info.include):
        return True
    return info.check is not None and info.check.tree is not None and column_refs(info.check.tree, column[0])


__all__ = ["column_refs", "constraint_renamed", "expr_renamed"]


def view_column_renamed(e: Any, table: tuple[str | None, str], old: str, new: str) -> Any:
    """A view query with column ``old`` of ``table`` renamed, as the history's views follow it
    (:func:`ddlc.history.view_queries.column_renamed`: references by the table's name or alias, an output
    column that took the old name keeps it), read again by the SQL layer so that its references are known.
    The same Expr when it does not name the column, None when that cannot be told."""
    from ..history.view_queries import column_renamed

    return _reparsed(e, column_renamed(e, table, old, new))


def _regclass_key(value: str) -> tuple[str | None, str] | None:
    """The (schema or None, name) a ``nextval('x')``-style literal names, read as PostgreSQL's regclass input
    reads it (double quotes keep the case, bare names fold to lower case); None when it is not a name."""
    parts: list[str] = []
    i, n = 0, len(value)
    while i < n:
        if value[i] == '"':
            j, buf = i + 1, []
            while j < n:
                if value[j] == '"':
                    if j + 1 < n and value[j + 1] == '"':
                        buf.append('"')
                        j += 2
                        continue
                    break
                buf.append(value[j])
                j += 1
            if j >= n:
                return None
            parts.append("".join(buf))
            i = j + 1
        else:
            j = value.find(".", i)
            j = n if j < 0 else j
            word = value[i:j].strip()
            if not word:
                return None
            parts.append(word.lower())
            i = j
        if i < n:
            if value[i] != ".":
                return None
            i += 1
    if len(parts) == 1:
        return (None, parts[0])
    if len(parts) == 2:
        return (parts[0], parts[1])
    return None


def sequence_names(e: Expr | None) -> list[tuple[str | None, str]]:
    """The sequences a fragment names by a ``nextval('x')``-style literal (the references the SQL layer found)."""
    sql = getattr(e, "sql", None)
    if sql is None or not sql.refs:
        return []
    from ..ir.names import RefKind

    out = []
    for r in sql.refs:
        if r.kind is RefKind.REGCLASS:
            key = _regclass_key(r.value) if r.value is not None else (r.schema, r.name)
            out.append(key if key is not None else (r.schema, r.name))
    return out


def names_sequence(e: Expr | None, key: tuple[str | None, str], default_schema: str | None = "public") -> bool:
    """Whether a fragment names sequence ``key`` by a literal (an unqualified literal names it when it lives
    in ``default_schema``, the schema an unqualified name resolves to)."""
    return any(_same_relation(k, key, default_schema) for k in sequence_names(e))


def _same_relation(ref: tuple[str | None, str], key: tuple[str | None, str], default_schema: str | None) -> bool:
    if ref[1] != key[1]:
        return False
    return ref[0] == key[0] or (ref[0] is None and key[0] in (None, default_schema))


def sequence_renamed(e: Expr | None, old: tuple[str | None, str], new: tuple[str | None, str],
                     default_schema: str | None = "public") -> Expr | None:
    """``e`` with the ``nextval('old')``-style literals that name sequence ``old`` naming ``new`` instead
    (PostgreSQL stores the sequence's OID: a default follows a renamed or moved sequence). The same Expr
    when it does not name it; None when it has no parsed form to change."""
    if e is None:
        return None
    sql = e.sql
    if sql is None or sql.node is None:
        return None
    if not names_sequence(e, old, default_schema):
        return e
    from pglast import ast

    from ..ir.sqltree import nodes
    from ..quoting import quote_ident

    tree = copy.deepcopy(sql.node)
    changed = False
    for n in nodes(tree):
        if not isinstance(n, ast.FuncCall):
            continue
        names = [getattr(s, "sval", None) for s in n.funcname]
        if names[-1] not in ("nextval", "currval", "setval") or not n.args:
            continue
        arg = n.args[0]
        const = arg.arg if isinstance(arg, ast.TypeCast) else arg
        if not (isinstance(const, ast.A_Const) and isinstance(const.val, ast.String)):
            continue
        ref = _regclass_key(const.val.sval)
        if ref is None or not _same_relation(ref, old, default_schema):
            continue
        if ref[0] is None and new[0] == old[0]:
            text = quote_ident(new[1])
        else:
            text = (quote_ident(new[0]) + "." if new[0] is not None else "") + quote_ident(new[1])
        const.val = ast.String(sval=text)
        changed = True
    if not changed:
        return e
    from ..frontend.sql.expr import make_expr, make_query

    printed = _print(tree)
    if sql.form == "query":
        return make_query(printed + (";" if e.text.rstrip().endswith(";") else ""), e.origin)
    return make_expr(printed, e.origin)


def output_column_renamed(e: Any, old: str, new: str) -> Any:
    """A view query whose output column ``old`` is called ``new`` (``ALTER VIEW ... RENAME COLUMN``), as the
    history's views follow it (:func:`ddlc.history.view_queries.output_renamed`), read again by the SQL
    layer. None when the query has no parsed form or no such output column."""
    from ..history.view_queries import output_renamed

    return _reparsed(e, output_renamed(e, old, new))


def _reparsed(e: Any, out: Any) -> Any:
    """``out`` (a changed copy of ``e``, or ``e``, or None) with its references: its text parsed again."""
    if out is None or out is e:
        return out
    from ..frontend.sql.expr import make_query

    return make_query(out.text, e.origin)
