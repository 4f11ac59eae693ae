"""The tables ``ddlc apply`` keeps in the target database (docs/apply.md), and every statement it writes there.

Three tables in one schema (``ddlc`` unless ``--progress-table`` names another):

* ``progress``: one row per source (``--source``): the commit position of the last source transaction
  applied (``kind``, ``commit_pos``, ``seq``: :class:`ddlc.frontend.txns.Position`), its xid, the ddlc version
  and the time. Written in the same transaction as the statements it stands for.
* ``failed``: the transactions that failed (the server's error and SQLSTATE, the statement that failed)
  and those held behind them (``held_by``), with their SQL, the objects they touch (``links``) and where
  to start again (``start``); ``status``: ``failed``, ``held``, ``applied`` (by a retry) or ``resolved``
  (``--skip``). Nothing in it is ever deleted by ddlc.
* ``intent``: the statement that must run outside a transaction block (``CREATE INDEX CONCURRENTLY``...),
  written before it runs, with the rest of its transaction: after a crash it is checked against the
  catalog before anything else runs.

Every name and value here goes through psycopg: :class:`psycopg.sql.Identifier` for the names, parameters
for the values; never string formatting.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Tables", "parse_table_name", "links_in", "links_out"]


def links_out(links: Any) -> list[str]:
    """The objects a transaction touches (:func:`ddlc.pipeline.groups.links_of`) as the tables keep them (a
    text cannot hold NUL): each a JSON array of its parts, ``["r", schema, name]`` or ``["s", schema]``."""
    import json

    return sorted(json.dumps(x.split("\0")) for x in links)


def links_in(stored: Any) -> set[str]:
    import json

    return {"\0".join(json.loads(x)) for x in stored or ()}


def parse_table_name(text: str) -> tuple[str, str]:
    """``[schema.]name`` (each part may be double-quoted) -> (schema, name); schema ``ddlc`` by default."""
    parts: list[str] = []
    buf, quoted, i = [], False, 0
    while i < len(text):
        c = text[i]
        if quoted:
            if c == '"':
                if text[i + 1:i + 2] == '"':
                    buf.append('"')
                    i += 1
                else:
                    quoted = False
            else:
                buf.append(c)
        elif c == '"':
            quoted = True
        elif c == ".":
            parts.append("".join(buf))
            buf = []
        else:
            buf.append(c.lower())
        i += 1
    parts.append("".join(buf))
    if quoted or len(parts) > 2 or any(not p for p in parts):
        raise ValueError(f"--progress-table {text!r} is not [SCHEMA.]NAME")
    return (parts[0], parts[1]) if len(parts) == 2 else ("ddlc", parts[0])


class Tables:
    """The SQL of apply's tables, for one schema and progress table name."""

    def __init__(self, schema: str, progress: str) -> None:
        from psycopg import sql

        self.sql = sql
        self.schema = schema
        self.names = {"progress": progress, "failed": "failed", "intent": "intent"}
        if progress in ("failed", "intent"):
            raise ValueError(f"--progress-table cannot be named {progress!r}: ddlc apply keeps a table of that name")
        self.progress = sql.Identifier(schema, progress)
        self.failed = sql.Identifier(schema, "failed")
        self.intent = sql.Identifier(schema, "intent")

    # -- creation ----------------------------------------------------------------------------------
    def missing(self, conn: Any) -> list[str]:
        names = list(self.names.values())
        rows = conn.execute(
            "SELECT t FROM unnest(%s::text[]) AS t WHERE to_regclass(format('%%I.%%I', %s::text, t)) IS NULL",
            (names, self.schema)).fetchall()
        return [r[0] for r in rows]

    def create(self, conn: Any) -> None:
        """Create what is missing (each statement only when its table is: a restart runs no DDL)."""
        if not self.missing(conn):
            return
        s = self.sql
        with conn.transaction():
            conn.execute(s.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(s.Identifier(self.schema)))
            conn.execute(s.SQL(
                "CREATE TABLE IF NOT EXISTS {} (source text PRIMARY KEY, kind text NOT NULL, "
                "commit_pos numeric(20) NOT NULL, seq integer NOT NULL, xid bigint, position text NOT NULL, "
                "ddlc_version text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())").format(self.progress))
            conn.execute(s.SQL(
                "CREATE TABLE IF NOT EXISTS {} (id bigserial PRIMARY KEY, source text NOT NULL, kind text NOT NULL, "
                "commit_pos numeric(20) NOT NULL, seq integer NOT NULL, xid bigint, position text NOT NULL, "
                "documents text[] NOT NULL, statements text[] NOT NULL, start integer NOT NULL DEFAULT 0, "
                "links text[] NOT NULL, status text NOT NULL CHECK (status IN ('failed', 'held', 'applied', "
                "'resolved')), retryable boolean NOT NULL DEFAULT true, held_by bigint, failed_statement integer, "
                "sqlstate text, error text, attempts integer NOT NULL DEFAULT 1, ddlc_version text NOT NULL, "
                "created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now(), "
                "UNIQUE (source, kind, commit_pos))").format(self.failed))
            conn.execute(s.SQL(
                "CREATE TABLE IF NOT EXISTS {} (source text PRIMARY KEY, kind text NOT NULL, "
                "commit_pos numeric(20) NOT NULL, seq integer NOT NULL, xid bigint, position text NOT NULL, "
                "failed_id bigint, statements text[] NOT NULL, statement_no integer NOT NULL, "
                "check_kind text NOT NULL, links text[] NOT NULL, ddlc_version text NOT NULL, "
                "created_at timestamptz NOT NULL DEFAULT now())").format(self.intent))

    # -- progress ----------------------------------------------------------------------------------
    def read_progress(self, conn: Any, source: str) -> Any:
        from ..frontend.txns import Position

        row = conn.execute(self.sql.SQL("SELECT kind, commit_pos, seq, xid FROM {} WHERE source = %s")
                           .format(self.progress), (source,)).fetchone()
        return None if row is None else (Position(row[0], int(row[1]), int(row[2])), row[3])

    def write_progress(self, conn: Any, source: str, txn: Any, text: str) -> None:
        from ..version import __version__

        p = txn.position
        conn.execute(self.sql.SQL(
            "INSERT INTO {} (source, kind, commit_pos, seq, xid, position, ddlc_version, applied_at) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s, now()) ON CONFLICT (source) DO UPDATE SET kind = excluded.kind, "
            "commit_pos = excluded.commit_pos, seq = excluded.seq, xid = excluded.xid, position = excluded.position, "
            "ddlc_version = excluded.ddlc_version, applied_at = excluded.applied_at").format(self.progress),
            (source, p.kind, p.commit, p.seq, txn.xid, text, __version__))

    # -- failures ----------------------------------------------------------------------------------
    def open_failures(self, conn: Any, source: str) -> list[dict[str, Any]]:
        cur = conn.execute(self.sql.SQL(
            "SELECT id, kind, commit_pos, seq, xid, position, documents, statements, start, links, status, "
            "retryable, held_by, error FROM {} WHERE source = %s AND status IN ('failed', 'held') ORDER BY id")
            .format(self.failed), (source,))
        names = [d.name for d in cur.description]
        return [dict(zip(names, r)) for r in cur.fetchall()]

    def record_failure(self, conn: Any, source: str, txn: Any, text: str, *, status: str, start: int,
                       failed_statement: int | None, sqlstate: str | None, error: str | None,
                       held_by: int | None, retryable: bool) -> int:
        """Insert (or, for a transaction already in the table, update) its row; its id."""
        from ..version import __version__

        row = conn.execute(self.sql.SQL(
            "INSERT INTO {} (source, kind, commit_pos, seq, xid, position, documents, statements, start, links, "
            "status, retryable, held_by, failed_statement, sqlstate, error, ddlc_version) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) "
            "ON CONFLICT (source, kind, commit_pos) DO UPDATE SET status = excluded.status, start = excluded.start, "
            "held_by = excluded.held_by, failed_statement = excluded.failed_statement, sqlstate = excluded.sqlstate, "
            "error = excluded.error, attempts = {}.attempts + 1, updated_at = now() RETURNING id")
            .format(self.failed, self.sql.Identifier("failed")),
            (source, txn.kind, txn.commit, txn.seq, txn.xid, text, list(txn.labels), list(txn.statements), start,
             links_out(txn.links), status, retryable, held_by, failed_statement, sqlstate, error,
             __version__)).fetchone()
        return int(row[0])

    def set_status(self, conn: Any, source: str, ident: int, status: str) -> int:
        cur = conn.execute(self.sql.SQL(
            "UPDATE {} SET status = %s, updated_at = now() WHERE source = %s AND id = %s "
            "AND status IN ('failed', 'held')").format(self.failed), (status, source, ident))
        return cur.rowcount

    def failure_row(self, conn: Any, source: str, ident: int) -> dict[str, Any] | None:
        cur = conn.execute(self.sql.SQL(
            "SELECT id, kind, commit_pos, seq, xid, position, documents, statements, start, links, status, "
            "retryable FROM {} WHERE source = %s AND id = %s").format(self.failed), (source, ident))
        r = cur.fetchone()
        return None if r is None else dict(zip([d.name for d in cur.description], r))

    # -- intents -----------------------------------------------------------------------------------
    def write_intent(self, conn: Any, source: str, txn: Any, text: str, statement_no: int, check: str,
                     failed_id: int | None) -> None:
        from ..version import __version__

        conn.execute(self.sql.SQL(
            "INSERT INTO {} (source, kind, commit_pos, seq, xid, position, failed_id, statements, statement_no, "
            "check_kind, links, ddlc_version) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) "
            "ON CONFLICT (source) DO UPDATE SET kind = excluded.kind, commit_pos = excluded.commit_pos, "
            "seq = excluded.seq, xid = excluded.xid, position = excluded.position, failed_id = excluded.failed_id, "
            "statements = excluded.statements, statement_no = excluded.statement_no, "
            "check_kind = excluded.check_kind, links = excluded.links, created_at = now()").format(self.intent),
            (source, txn.kind, txn.commit, txn.seq, txn.xid, text, failed_id, list(txn.statements), statement_no,
             check, links_out(txn.links), __version__))

    def read_intent(self, conn: Any, source: str) -> dict[str, Any] | None:
        cur = conn.execute(self.sql.SQL(
            "SELECT kind, commit_pos, seq, xid, position, failed_id, statements, statement_no, check_kind, links "
            "FROM {} WHERE source = %s").format(self.intent), (source,))
        r = cur.fetchone()
        return None if r is None else dict(zip([d.name for d in cur.description], r))

    def drop_intent(self, conn: Any, source: str) -> None:
        conn.execute(self.sql.SQL("DELETE FROM {} WHERE source = %s").format(self.intent), (source,))
