"""Hand-written DDL text read by PostgreSQL's grammar: the fallback of the text frontend.

A ``{"TDDL": ...}`` document is normally GaussDB's canonical text, read back through the deparser's
templates (:mod:`ddlc.frontend.text`). A person writes DDL differently (``create table x(a int)``):
when the templates and the TDDL recovery do not read a statement, :func:`read_sql` parses it with
PostgreSQL's grammar (pglast, through the SQL layer, :mod:`ddlc.frontend.sql.pgparse`) and, for the
statement kinds that grammar shares with GaussDB, makes the JDDL tree the database would have decoded
for it (reference §3, §5): type keywords as pglast resolves them (``int`` is ``pg_catalog.int4``,
``varchar(20)`` is ``pg_catalog.varchar`` with typmod ``(20)``), other names as written (an unqualified
name has no schema, so ``--default-schema`` applies), DEFAULT, CHECK and query texts as pglast writes
them back. The tree then goes to the family's builder like any other, so the IR is exactly what a tree
gives. Where the database's messages differ from the statement's own form, the tree keeps what the
statement says: a FOREIGN KEY stays in its CREATE TABLE, a column's NOT NULL and DEFAULT stay in its
ADD COLUMN, a CREATE SEQUENCE holds the options written (the target's defaults stand for the others),
an unnamed constraint has no name (the target names it, as the database does).

Anything else (a statement kind or clause not listed here, several statements, a name only the
database could supply) raises :class:`~._pgtree.Declined`: the caller keeps the text with DDLC-N404.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from ...diagnostics import Severity, register
from ..sql.pgparse import parse_statements
from ..sql.pgwords import requote, to_source
from ._pgtree import Declined, column_tree, constraint_element, deparse, identity, name_list, qname, strings, type_tree

I_HANDWRITTEN = register(
    "DDLC-I406", Severity.INFO, "TDDL read as hand-written SQL",
    "The TDDL text is not in the database's canonical form (not the expansion of a JDDL tree), so it was "
    "read by PostgreSQL's grammar (pglast) as hand-written SQL, and the tree the database would have "
    "decoded was made from it: type keywords resolved as PostgreSQL resolves them, DEFAULT, CHECK and "
    "query texts as PostgreSQL writes them back, unqualified names left to --default-schema. Check the "
    "output when the text was meant for a GaussDB-only reading of the same words.",
    '{"TDDL": "create table x(a int primary key, b varchar(20) not null default \'n/a\')"}',
)

Tree = dict[str, Any]


def _option(d: Any) -> Tree:
    """A WITH option element (§3.5)."""
    from pglast import ast

    label: Tree = {"fmt": "%{label}I", "label": d.defname}
    if d.defnamespace:
        label = {"fmt": "%{schema}I. %{label}I", "schema": d.defnamespace, "label": d.defname}
    arg = d.arg
    if arg is None:
        return {"fmt": "%{label}s = %{value}s", "label": label, "value": "TRUE"}
    if isinstance(arg, ast.String):
        return {"fmt": "%{label}s = %{value}L", "label": label, "value": arg.sval}
    if isinstance(arg, (ast.Integer, ast.Float, ast.Boolean)):
        return {"fmt": "%{label}s = %{value}s", "label": label, "value": _number(arg)}
    if isinstance(arg, ast.TypeName) and len(arg.names) == 1 and not arg.typmods and not arg.arrayBounds:
        return {"fmt": "%{label}s = %{value}s", "label": label, "value": strings(arg.names)[0]}
    raise Declined(f"option {d.defname} has a value not read", d)


def _number(arg: Any) -> str:
    from pglast import ast

    if isinstance(arg, ast.Integer):
        return str(arg.ival)
    if isinstance(arg, ast.Float):
        return arg.fval
    if isinstance(arg, ast.Boolean):
        return "TRUE" if arg.boolval else "FALSE"
    raise Declined(f"{type(arg).__name__} where a number was expected", arg)


def _check(n: Any, *fields: str) -> None:
    for f in fields:
        v = getattr(n, f, None)
        if v:
            at = v[0] if isinstance(v, tuple) else v
            raise Declined(f"{type(n).__name__}.{f} not read from hand-written text",
                           at if getattr(at, "location", None) is not None else n)


# ---- CREATE TABLE (§5.1) ------------------------------------------------------------------------------
_PERSISTENCE = {"p": "", "u": "UNLOGGED"}


def create_table(n: Any) -> Tree:
    from pglast import ast

    _check(n, "partbound", "partspec", "ofTypename", "constraints", "nnconstraints", "accessMethod")
    if n.oncommit is not None and n.oncommit.name != "ONCOMMIT_NOOP":
        raise Declined("ON COMMIT (temporary tables are not replicated)", n.relation)
    persistence = _PERSISTENCE.get(n.relation.relpersistence)
    if persistence is None:
        raise Declined("a temporary table (not replicated)", n.relation)
    columns: list[Tree] = []
    constraints: list[Tree] = []
    for e in n.tableElts or ():
        if isinstance(e, ast.ColumnDef):
            col, more = column_tree(e, in_create=True)
            columns.append(col)
            constraints.extend(more)
        elif isinstance(e, ast.Constraint):
            constraints.append(constraint_element(e))
        else:
            raise Declined(f"{type(e).__name__} in CREATE TABLE", e)
    elements = columns + constraints
    tree: Tree = {
        "fmt": "CREATE %{persistence}s TABLE %{if_not_exists}s %{identity}D %{table_elements}s %{inherits}s",
        "persistence": persistence, "if_not_exists": "IF NOT EXISTS" if n.if_not_exists else "",
        "identity": qname(n.relation),
        "table_elements": {"fmt": "(%{elements:, }s)", "elements": elements} if elements else {"fmt": "()"},
        "inherits": ({"fmt": "INHERITS (%{parents:, }D)", "parents": [qname(p) for p in n.inhRelations]}
                     if n.inhRelations else {"fmt": "INHERITS (%{parents:, }D)", "present": False}),
    }
    if n.options:
        tree["fmt"] += " WITH (%{with:, }s)"
        tree["with"] = [_option(d) for d in n.options]
    if n.tablespacename:
        tree["fmt"] += " TABLESPACE %{tablespace}I"
        tree["tablespace"] = n.tablespacename
    return tree


# ---- ALTER TABLE (§5.2): ADD / DROP COLUMN, ADD CONSTRAINT ----------------------------------------------
def alter_table(n: Any) -> Tree:
    from pglast import ast

    if n.objtype.name != "OBJECT_TABLE":
        raise Declined(f"ALTER {n.objtype.name[7:]} not read from hand-written text", n.relation)
    if n.missing_ok:
        raise Declined("ALTER TABLE IF EXISTS (the database's tree has no such clause)", n.relation)
    subcmds: list[Tree] = []
    for c in n.cmds:
        kind = c.subtype.name
        if kind == "AT_AddColumn" and isinstance(c.def_, ast.ColumnDef):
            col, _ = column_tree(c.def_, in_create=False)
            subcmds.append({"fmt": "ADD %{objtype}s %{if_not_exists}s %{definition}s %{cascade}s",
                            "type": "add column", "objtype": "COLUMN",
                            "if_not_exists": "IF NOT EXISTS" if c.missing_ok else "", "definition": col,
                            "cascade": ""})
        elif kind == "AT_DropColumn":
            cascade = c.behavior is not None and c.behavior.name == "DROP_CASCADE"
            subcmds.append({"fmt": "DROP %{objtype}s %{if_exists}s %{column}I %{cascade}s", "type": "drop column",
                            "objtype": "COLUMN", "if_exists": "IF EXISTS" if c.missing_ok else "",
                            "column": c.name, "cascade": {"fmt": "CASCADE", "present": cascade}})
        elif kind == "AT_AddConstraint" and isinstance(c.def_, ast.Constraint) and c.def_.conname:
            el = constraint_element(c.def_)
            subcmds.append({"fmt": "ADD CONSTRAINT %{name}I %{definition}s", "type": "add constraint",
                            "name": el["name"], "definition": el["definition"]})
        elif kind == "AT_AddConstraint":
            raise Declined("ADD of an unnamed constraint (only the database knows the name it chose)", c.def_)
        else:
            raise Declined(f"ALTER TABLE subcommand {kind[3:]} not read from hand-written text", c)
    return {"fmt": "ALTER %{objtype}s %{only}s %{identity}D %{subcmds:, }s", "objtype": "TABLE",
            "only": "" if n.relation.inh else "ONLY", "identity": qname(n.relation), "subcmds": subcmds}


# ---- CREATE INDEX (§5.5) -----------------------------------------------------------------------------------
def _index_key(elem: Any) -> str:
    """A key as ``pg_get_indexdef`` writes it: a column, a bare function call, or ``(expression)``."""
    from pglast import ast

    text = deparse(elem)
    if isinstance(elem.expr, ast.FuncCall):
        call = deparse(elem.expr)
        if text.startswith(f"({call})"):
            text = call + text[len(call) + 2:]
    return text


def create_index(n: Any) -> Tree:
    from ...quoting import quote_ident

    _check(n, "if_not_exists", "nulls_not_distinct", "excludeOpNames", "primary", "isconstraint", "deferrable",
           "initdeferred", "iswithoutoverlaps")
    if not n.idxname:
        raise Declined("an index without a name (only the database knows the name it chose)", n.relation)
    if not n.relation.inh:
        raise Declined("CREATE INDEX ON ONLY", n.relation)
    definition = "(" + ", ".join(_index_key(p) for p in n.indexParams) + ")"
    if n.indexIncludingParams:
        definition += " INCLUDE (" + ", ".join(deparse(p) for p in n.indexIncludingParams) + ")"
    tree: Tree = {"fmt": "CREATE %{unique}s INDEX %{concurrently}s %{name}I ON %{table}D USING %{index_am}s "
                         "%{definition}s",
                  "unique": "UNIQUE" if n.unique else "", "concurrently": "CONCURRENTLY" if n.concurrent else "",
                  "name": n.idxname, "table": qname(n.relation), "index_am": quote_ident(n.accessMethod),
                  "definition": definition}
    if n.options:
        opts = []
        for d in n.options:
            v = _option(d)
            if d.defnamespace or "value" not in v or not str(v["value"]).replace("_", "").replace(".", "").isalnum():
                raise Declined(f"index option {d.defname} not read", d)
            opts.append(f"{d.defname}={v['value']}")
        tree["fmt"] += " WITH (%{opts}s)"
        tree["opts"] = ", ".join(opts)
    if n.tableSpace:
        tree["fmt"] += " TABLESPACE %{tablespace}s"
        tree["tablespace"] = quote_ident(n.tableSpace)
    if n.whereClause is not None:
        tree["fmt"] += " WHERE %{where}s"
        tree["where"] = deparse(n.whereClause)
    return tree


# ---- CREATE VIEW (§5.7) ----------------------------------------------------------------------------------------
def create_view(n: Any) -> Tree:
    from pglast import ast

    _check(n, "options")
    if n.withCheckOption is not None and n.withCheckOption.name != "NO_CHECK_OPTION":
        raise Declined("WITH CHECK OPTION (the database's tree has no such clause)", n.view)
    if n.view.relpersistence != "p":
        raise Declined("a temporary view (not replicated)", n.view)
    query = n.query
    if n.aliases:  # the database writes a column list as aliases inside the query
        names = strings(n.aliases)
        if not isinstance(query, ast.SelectStmt) or not query.targetList or len(names) > len(query.targetList):
            raise Declined("a view column list over a query whose columns are not listed", n.view)
        query = copy.deepcopy(query)
        targets = list(query.targetList)
        for i, name in enumerate(names):
            val = targets[i].val
            if isinstance(val, ast.ColumnRef) and any(isinstance(f, ast.A_Star) for f in val.fields):
                raise Declined("a view column list over *", val)
            targets[i].name = name
        query.targetList = tuple(targets)
    return {"fmt": "CREATE %{or_replace}s %{persistence}s VIEW %{identity}D AS %{query}s",
            "or_replace": "OR REPLACE" if n.replace else "", "persistence": "", "identity": qname(n.view),
            "query": deparse(query) + ";"}


# ---- CREATE SEQUENCE (§5.6, §3.7) -----------------------------------------------------------------------------
_SEQ_VALUES = {"cache": ("CACHE %{value}s", "cache"), "increment": ("INCREMENT BY %{value}s", "seqincrement"),
               "minvalue": ("MINVALUE %{value}s", "minvalue"), "maxvalue": ("MAXVALUE %{value}s", "maxvalue"),
               "start": ("START WITH %{value}s", "start")}


def _seq_option(d: Any) -> Tree | None:
    from pglast import ast

    if d.defname in _SEQ_VALUES:
        fmt, clause = _SEQ_VALUES[d.defname]
        if d.arg is None:  # NO MINVALUE / NO MAXVALUE: the default, as if not written
            return None
        value = _number(d.arg)
        if not value.lstrip("-").isdigit():
            raise Declined(f"sequence option {d.defname} is not an integer", d)
        return {"fmt": fmt, "value": value, "clause": clause}
    if d.defname == "cycle":
        on = isinstance(d.arg, ast.Boolean) and d.arg.boolval
        return {"no": "" if on else "NO", "fmt": "%{no}s CYCLE", "clause": "cycle"}
    if d.defname == "owned_by":
        names = strings(d.arg)
        if [x.lower() for x in names] == ["none"]:
            return {"fmt": "OWNED BY %{owner}D", "owner": None, "clause": "owned", "present": False}
        if not 2 <= len(names) <= 3:
            raise Declined("OWNED BY names no column", d)
        owner = {"objname": names[-2], "attrname": names[-1]}
        if len(names) == 3:
            owner["schemaname"] = names[0]
        return {"fmt": "OWNED BY %{owner}D", "owner": owner, "clause": "owned"}
    if d.defname == "as" and isinstance(d.arg, ast.TypeName) and not d.arg.typmods and not d.arg.arrayBounds:
        return {"fmt": "AS %{identity}D", "identity": name_list(strings(d.arg.names), d.arg)}
    raise Declined(f"sequence option {d.defname} not read from hand-written text", d)


def create_sequence(n: Any) -> Tree:
    _check(n, "if_not_exists", "for_identity")
    persistence = _PERSISTENCE.get(n.sequence.relpersistence)
    if persistence is None:
        raise Declined("a temporary sequence (not replicated)", n.sequence)
    options = [o for o in (_seq_option(d) for d in n.options or ()) if o is not None]
    return {"fmt": "CREATE %{persistence}s %{large}s SEQUENCE %{identity}D %{definition: }s",
            "persistence": persistence, "large": "", "identity": qname(n.sequence), "definition": options}


# ---- DROP (§5.4) -------------------------------------------------------------------------------------------------
_DROP = {"OBJECT_TABLE": "table", "OBJECT_INDEX": "index", "OBJECT_VIEW": "view", "OBJECT_SEQUENCE": "sequence",
         "OBJECT_SCHEMA": "schema"}


def drop(n: Any) -> Tree:
    from pglast import ast

    objtype = _DROP.get(n.removeType.name)
    if objtype is None:
        raise Declined(f"DROP {n.removeType.name[7:]} not read from hand-written text", n)
    if len(n.objects) != 1:
        raise Declined("a DROP of several objects (the database sends one DROP per object)", n)
    obj = n.objects[0]
    names = [obj.sval] if isinstance(obj, ast.String) else strings(obj)
    if not 1 <= len(names) <= (1 if objtype == "schema" else 2):
        raise Declined(f"a {objtype} name of {len(names)} parts", n)
    return {"fmt": "DROP %{objtype}s %{concurrently}s %{if_exists}s %{objidentity}s %{cascade}s",
            "objtype": objtype, "concurrently": "CONCURRENTLY" if n.concurrent else "",
            "if_exists": "IF EXISTS" if n.missing_ok else "", "objidentity": identity(names),
            "cascade": "CASCADE" if n.behavior is not None and n.behavior.name == "DROP_CASCADE" else ""}


# ---- CREATE SCHEMA (§5.11) ---------------------------------------------------------------------------------
def create_schema(n: Any) -> Tree:
    _check(n, "schemaElts")
    auth: Tree = {"fmt": "AUTHORIZATION %{authorization_role}I", "present": False}
    if n.authrole is not None:
        if n.authrole.roletype.name != "ROLESPEC_CSTRING":
            raise Declined("AUTHORIZATION names no role by name", n.authrole)
        auth = {"fmt": "AUTHORIZATION %{authorization_role}I", "authorization_role": n.authrole.rolename}
    return {"fmt": "CREATE SCHEMA %{if_not_exists}s %{name}I %{authorization}s %{blockchain}s",
            "if_not_exists": "IF NOT EXISTS" if n.if_not_exists else "", "name": n.schemaname or "",
            "authorization": auth, "blockchain": {"fmt": "WITH BLOCKCHAIN %{blockchain}s", "present": False}}


# ---- RENAME (§5.13) ------------------------------------------------------------------------------------------
_RELATIONS = {"OBJECT_TABLE": "TABLE", "OBJECT_INDEX": "INDEX", "OBJECT_SEQUENCE": "SEQUENCE", "OBJECT_VIEW": "VIEW"}


def rename(n: Any) -> Tree:
    kind = n.renameType.name
    if kind in _RELATIONS:
        return {"fmt": "ALTER %{objtype}s %{if_exists}s %{identity}D RENAME TO %{newname}I",
                "objtype": _RELATIONS[kind], "if_exists": "IF EXISTS" if n.missing_ok else "",
                "identity": qname(n.relation), "newname": n.newname}
    if kind == "OBJECT_COLUMN" and n.relationType.name in _RELATIONS:
        tree: Tree = {"fmt": "ALTER %{objtype}s %{identity}D RENAME COLUMN %{colname}I TO %{newname}I",
                      "objtype": _RELATIONS[n.relationType.name], "identity": qname(n.relation),
                      "colname": n.subname, "newname": n.newname}
        if n.missing_ok:
            tree["fmt"] = tree["fmt"].replace("ALTER %{objtype}s", "ALTER %{objtype}s %{if_exists}s")
            tree["if_exists"] = "IF EXISTS"
        return tree
    if kind == "OBJECT_TABCONSTRAINT" and not n.missing_ok:
        return {"fmt": "ALTER TABLE %{identity}D RENAME CONSTRAINT %{oldname}I TO %{newname}I",
                "identity": qname(n.relation), "oldname": n.subname, "newname": n.newname}
    if kind == "OBJECT_SCHEMA":
        return {"fmt": "ALTER SCHEMA %{identity}I RENAME TO %{newname}I", "identity": n.subname,
                "newname": n.newname}
    raise Declined(f"RENAME of {kind[7:]} not read from hand-written text", n)


# ---- COMMENT ON (§5.12) -------------------------------------------------------------------------------------
_COMMENT = {"OBJECT_TABLE": ("TABLE", 2), "OBJECT_COLUMN": ("COLUMN", 3), "OBJECT_INDEX": ("INDEX", 2),
            "OBJECT_SEQUENCE": ("SEQUENCE", 2), "OBJECT_VIEW": ("VIEW", 2), "OBJECT_SCHEMA": ("SCHEMA", 1)}


def comment(n: Any) -> Tree:
    from pglast import ast

    spec = _COMMENT.get(n.objtype.name)
    if spec is None:
        raise Declined(f"COMMENT ON {n.objtype.name[7:]} not read from hand-written text", n)
    word, parts = spec
    names = [n.object.sval] if isinstance(n.object, ast.String) else strings(n.object)
    if not (2 if word == "COLUMN" else 1) <= len(names) <= parts:
        raise Declined(f"a {word.lower()} name of {len(names)} parts", n)
    if n.comment is None or n.comment == "":  # an empty comment removes it, as NULL does
        value: Tree = {"fmt": "%{null}s %{literal}s", "null": {"fmt": "NULL", "present": True},
                       "literal": {"fmt": "", "present": False}}
    else:
        value = {"fmt": "%{null}s %{literal}s", "null": {"fmt": "NULL", "present": False},
                 "literal": {"fmt": "%{value}L", "value": n.comment, "present": True}}
    return {"fmt": "COMMENT ON %{objtype}s %{identity}s IS %{comment}s", "objtype": word,
            "identity": identity(names), "comment": value}


READERS: dict[str, tuple[str, Callable[[Any], Tree]]] = {
    "CreateStmt": ("CREATE TABLE", create_table), "AlterTableStmt": ("ALTER TABLE", alter_table),
    "IndexStmt": ("CREATE INDEX", create_index), "ViewStmt": ("CREATE VIEW", create_view),
    "CreateSeqStmt": ("CREATE SEQUENCE", create_sequence), "DropStmt": ("DROP", drop),
    "CreateSchemaStmt": ("CREATE SCHEMA", create_schema), "RenameStmt": ("RENAME", rename),
    "CommentStmt": ("COMMENT", comment),
}


def _offset(text: str, location: int | None) -> int:
    """The offset in ``text`` of pglast's ``location`` (a byte offset in the requoted text)."""
    if location is None:
        return 0
    quoted, marks = requote(text)
    pos = len(quoted.encode()[:location].decode(errors="ignore"))
    return to_source(marks, pos)


class NotRead(Exception):
    """Why a text is not read as hand-written SQL; ``message`` is empty when PostgreSQL's grammar does not
    read it at all, ``pos`` the offset in the text of what stopped the reading."""

    def __init__(self, message: str = "", pos: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.pos = pos


def read_sql(text: str) -> tuple[Tree, str]:
    """The JDDL tree the database would have decoded for hand-written ``text`` and the statement's kind
    (``CREATE TABLE``...), or :class:`NotRead`."""
    stmts = parse_statements(text)
    if not stmts:
        raise NotRead()
    if len(stmts) != 1:
        raise NotRead("several statements in one text", _offset(text, stmts[1].stmt_location))
    node = stmts[0].stmt
    kind, fn = READERS.get(type(node).__name__, (type(node).__name__, None))
    try:
        if fn is None:
            raise Declined(f"{kind} is not read from hand-written text")
        return fn(node), kind
    except Declined as d:
        raise NotRead(d.message, _offset(text, d.location)) from None
    except RecursionError:
        raise NotRead("statement nested too deeply") from None


__all__ = ["I_HANDWRITTEN", "NotRead", "READERS", "read_sql"]
