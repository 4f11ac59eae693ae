"""The PostgreSQL harness itself: a real server starts, takes DDL and stops cleanly."""

from __future__ import annotations

import os

import psycopg
import pytest

from .postgres import PostgresServer


# pg_server: the session-wide server fixture of tests/conftest.py

def test_server_is_recent_enough(pg_server):
    assert pg_server.version() >= 150000


def test_range_partitions_round_trip(pg_server):
    db = pg_server.fresh_database()
    assert db.startswith("ddlc_")
    with pg_server.connect(db) as conn:
        conn.execute("CREATE SCHEMA s")
        conn.execute("CREATE TABLE s.m (k int NOT NULL, v text) PARTITION BY RANGE (k)")
        conn.execute("CREATE TABLE s.p_low PARTITION OF s.m FOR VALUES FROM (MINVALUE) TO (10)")
        conn.execute("CREATE TABLE s.p_mid PARTITION OF s.m FOR VALUES FROM (10) TO (100)")
        rows = conn.execute(
            """
            SELECT c.relname, pg_get_expr(c.relpartbound, c.oid)
            FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
            WHERE i.inhparent = 's.m'::regclass
            ORDER BY c.relname
            """
        ).fetchall()
        keydef = conn.execute("SELECT pg_get_partkeydef('s.m'::regclass)").fetchone()[0]
    assert rows == [
        ("p_low", "FOR VALUES FROM (MINVALUE) TO (10)"),
        ("p_mid", "FOR VALUES FROM (10) TO (100)"),
    ]
    assert keydef == "RANGE (k)"


def test_fresh_databases_are_distinct(pg_server):
    a, b = pg_server.fresh_database(), pg_server.fresh_database()
    assert a != b
    with pg_server.connect(a) as conn:
        conn.execute("CREATE TABLE only_in_a (x int)")
    with pg_server.connect(b) as conn:
        assert conn.execute("SELECT to_regclass('only_in_a')").fetchone()[0] is None


def test_stop_is_idempotent_and_removes_the_directory():
    server = PostgresServer()
    server.stop()  # never started: nothing to do
    server.start()
    directory, port = server.dir, server.port
    assert directory is not None and directory.is_dir()
    with server.connect() as conn:
        assert conn.execute("SELECT 1").fetchone() == (1,)
    server.stop()
    server.stop()
    assert server.dir is None and not server.running
    assert not os.path.exists(directory)
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(f"host=127.0.0.1 port={port} user=postgres connect_timeout=2").close()
    with pytest.raises(RuntimeError):
        server.connect()
