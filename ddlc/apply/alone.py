"""Statements PostgreSQL refuses inside a transaction block, and how each is checked against the catalog.

Such a statement cannot share a transaction with the progress row, so ``ddlc apply`` writes an intent row
first (:mod:`.tables`), runs the statement alone, and, after a crash, asks the catalog whether it ran
before anything else runs (docs/apply.md, "Statements that run alone"):

========================================  ====================================================================
statement                                 done when
========================================  ====================================================================
``CREATE [UNIQUE] INDEX CONCURRENTLY``    the index exists and is valid; an invalid one (a build the crash
                                          cut) is dropped (``DROP INDEX CONCURRENTLY``) and built again
``DROP INDEX CONCURRENTLY``               none of the indexes exists any more
``REINDEX ... CONCURRENTLY``, ``VACUUM``  never "done": run again (running them twice changes nothing)
``CREATE DATABASE`` / ``DROP DATABASE``   the database exists / does not
``CREATE TABLESPACE`` / ``DROP ...``      the tablespace exists / does not
``ALTER TABLE ... DETACH PARTITION ...    the partition is no longer attached to the table
CONCURRENTLY``
``ALTER SYSTEM``                          never "done": run again (idempotent)
========================================  ====================================================================

``ALTER TYPE ... ADD VALUE`` runs inside a transaction on PostgreSQL 12 and later (the targets ddlc
writes for), so it is applied like any other statement.
"""

from __future__ import annotations

import re
from typing import Any
from .. import lazyre

__all__ = ["alone_kind", "is_done", "prepare"]

_KINDS = (
    ("create_index_concurrently", re.compile(r"CREATE\s+(UNIQUE\s+)?INDEX\s+CONCURRENTLY\b", re.I)),
    ("drop_index_concurrently", re.compile(r"DROP\s+INDEX\s+CONCURRENTLY\b", re.I)),
    ("rerun", re.compile(r"(REINDEX\b[^;]*\bCONCURRENTLY\b|VACUUM\b|ALTER\s+SYSTEM\b)", re.I)),
    ("create_database", re.compile(r"CREATE\s+DATABASE\b", re.I)),
    ("drop_database", re.compile(r"DROP\s+DATABASE\b", re.I)),
    ("create_tablespace", re.compile(r"CREATE\s+TABLESPACE\b", re.I)),
    ("drop_tablespace", re.compile(r"DROP\s+TABLESPACE\b", re.I)),
    ("detach_concurrently", re.compile(r"ALTER\s+TABLE\b.*\bDETACH\s+PARTITION\b.*\bCONCURRENTLY\b", re.I | re.S)),
)
_LEAD = lazyre.compile(r"\A(\s+|--[^\n]*\n|/\*.*?\*/)*", re.S)


def alone_kind(statement: str) -> str | None:
    """The kind of a statement that must run outside a transaction block, or None."""
    text = statement[_LEAD.match(statement).end():]  # type: ignore[union-attr]
    for kind, pattern in _KINDS:
        if pattern.match(text):
            return kind
    return None


def _parsed(statement: str) -> Any:
    import pglast

    return pglast.parse_sql(statement)[0].stmt


def _names(statement: str, kind: str) -> list[tuple[str | None, str]]:
    """The (schema, name) pairs the check looks at."""
    stmt = _parsed(statement)
    if kind == "create_index_concurrently":
        return [(stmt.relation.schemaname, stmt.idxname)]
    if kind == "drop_index_concurrently":
        out = []
        for obj in stmt.objects:
            parts = [p.sval for p in obj]
            out.append((parts[-2] if len(parts) > 1 else None, parts[-1]))
        return out
    if kind in ("create_database", "drop_database"):
        return [(None, stmt.dbname)]
    if kind in ("create_tablespace", "drop_tablespace"):
        return [(None, stmt.tablespacename)]
    if kind == "detach_concurrently":
        cmd = stmt.cmds[0]
        part = cmd.def_.name
        return [(stmt.relation.schemaname, stmt.relation.relname), (part.schemaname, part.relname)]
    return []


def _regclass(conn: Any, schema: str | None, name: str) -> Any:
    from psycopg import sql

    ident = sql.Identifier(schema, name) if schema else sql.Identifier(name)
    text = ident.as_string(conn)
    return conn.execute("SELECT to_regclass(%s)::oid", (text,)).fetchone()[0]


def is_done(conn: Any, statement: str, kind: str) -> bool:
    """Has ``statement`` (of ``kind``) already run on the server? Read from the catalog."""
    if kind == "rerun":
        return False
    names = _names(statement, kind)
    if kind == "create_index_concurrently":
        schema, name = names[0]
        oid = _regclass(conn, schema, name) if name else None
        if oid is None:
            return False
        valid = conn.execute("SELECT indisvalid AND indisready FROM pg_index WHERE indexrelid = %s", (oid,)).fetchone()
        return bool(valid and valid[0])
    if kind == "drop_index_concurrently":
        return all(_regclass(conn, s, n) is None for s, n in names)
    if kind in ("create_database", "drop_database"):
        there = conn.execute("SELECT count(*) FROM pg_database WHERE datname = %s", (names[0][1],)).fetchone()[0] > 0
        return there if kind == "create_database" else not there
    if kind in ("create_tablespace", "drop_tablespace"):
        there = conn.execute("SELECT count(*) FROM pg_tablespace WHERE spcname = %s", (names[0][1],)).fetchone()[0] > 0
        return there if kind == "create_tablespace" else not there
    if kind == "detach_concurrently":
        (ps, pn), (cs, cn) = names
        parent, child = _regclass(conn, ps, pn), _regclass(conn, cs, cn)
        if parent is None or child is None:
            return True
        n = conn.execute("SELECT count(*) FROM pg_inherits WHERE inhparent = %s AND inhrelid = %s AND NOT "
                         "inhdetachpending", (parent, child)).fetchone()[0]
        return n == 0
    return False


def prepare(conn: Any, statement: str, kind: str) -> None:
    """Before running ``statement`` again after a crash: clear what an interrupted run left (an invalid index
    from a cut ``CREATE INDEX CONCURRENTLY`` is dropped)."""
    if kind != "create_index_concurrently":
        return
    from psycopg import sql

    schema, name = _names(statement, kind)[0]
    if name and _regclass(conn, schema, name) is not None:
        ident = sql.Identifier(schema, name) if schema else sql.Identifier(name)
        conn.execute(sql.SQL("DROP INDEX CONCURRENTLY IF EXISTS {}").format(ident))
