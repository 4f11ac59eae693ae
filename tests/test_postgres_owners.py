"""Owners on the real server (README "Owners"): the roles the translated log gives its objects are the
owners PostgreSQL's catalog shows (pg_namespace.nspowner, pg_class.relowner, pg_proc.proowner,
pg_type.typowner, read with pg_get_userbyid).

Roles are cluster-wide: each test creates its own (``ddlc_own_*``, hostile names included) in a
database of its own, and drops the database and then the roles when it ends, whatever happened.
"""

from __future__ import annotations

import dataclasses
import json

import pytest
from psycopg import sql

import ddlc
from conftest import CASES
from ddlc.frontend.documents import as_document
from test_owners import case, table
from test_postgres_alter import alter, sub
from test_postgres_routines import schema

APP, HR = "ddlc_own_app", "ddlc_own_hr"
HOSTILE = ['ddlc own "odd"; DROP TABLE public.sentinel; --', "ddlc_own_x'; --", "ddlc_ünï\u200bcode", "ddlc_Select",
           "ddlc_own_$$"]


@pytest.fixture()
def owned_db(pg_server):
    """(database name, connection) with the roles APP, HR and HOSTILE; everything dropped afterwards."""
    roles = [APP, HR, *HOSTILE]
    with pg_server.connect() as admin:
        for r in roles:
            admin.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(r)))
            admin.execute(sql.SQL("CREATE ROLE {}").format(sql.Identifier(r)))
    name = pg_server.fresh_database()
    conn = pg_server.connect(name)
    try:
        yield name, conn
    finally:
        conn.close()
        pg_server.drop_database(name)  # (before the roles: they own objects there)
        with pg_server.connect() as admin:
            for r in roles:
                admin.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(r)))


def tddl(text: str, owner: str = "alice"):
    return dataclasses.replace(as_document({"TDDL": text}), meta={"owner": owner})


def log() -> list:
    """A log run by alice (and one ALTER TABLE ... OWNER TO bob): every kind of object that has an owner."""
    return [
        schema("hr", authorization="hr_admin") | {"myowner": "alice"},
        table("emp", "hr"),
        alter(sub("OWNER TO %{owner}I", "change owner", owner="bob"), table="emp", schema="hr"),
        schema("sales") | {"myowner": "alice"},
        case("create_table/range-list-subpartitions"),
        case("sequence/create"),
        case("function/create-function"),
        case("type/composite"),
        case("type/enum"),
        case("view/create-or-replace"),
        tddl("CREATE MATERIALIZED VIEW public.v46_4 AS SELECT a, b FROM public.t46;"),
        tddl("CREATE PROCEDURE public.p_log ( IN a pg_catalog.int4, IN note pg_catalog.varchar ) LANGUAGE plpgsql "
             "AS ' BEGIN INSERT INTO public.t_log VALUES (a, note, ''x''); END; ';"),
    ]


SETUP = [CASES / "view/create-or-replace/setup.postgres.sql", CASES / "tddl/matview/setup.postgres.sql",
         CASES / "tddl/procedure/setup.postgres.sql"]

OWNERS = """
    SELECT 'schema ' || nspname, pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname IN ('hr', 'sales')
    UNION ALL
    SELECT 'relation ' || c.relnamespace::regnamespace || '.' || c.relname, pg_get_userbyid(c.relowner)
      FROM pg_class c WHERE c.relnamespace::regnamespace::text IN ('hr', 'sales', 'public') AND c.relkind <> 't'
    UNION ALL
    SELECT 'routine ' || p.oid::regprocedure, pg_get_userbyid(p.proowner)
      FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace
    UNION ALL
    SELECT 'type ' || t.oid::regtype, pg_get_userbyid(t.typowner)
      FROM pg_type t WHERE t.typnamespace = 'public'::regnamespace AND t.typtype IN ('c', 'e')
       AND NOT EXISTS (SELECT FROM pg_class c WHERE c.oid = t.typrelid AND c.relkind <> 'c')
    ORDER BY 1"""


def apply(conn, **options) -> tuple[dict[str, str], str]:
    """Run the setup and the translated log; the owners the catalog shows, and the script."""
    results = list(ddlc.translate_many(log(), target="postgres", **options))
    assert [r.error for r in results] == [None] * len(results)
    script = "".join(r.sql for r in results)
    with conn.cursor() as cur:
        for s in SETUP:
            cur.execute(s.read_text("utf-8"))
        cur.execute(script)
    return dict(conn.execute(OWNERS).fetchall()), script


SALES = ["sales.orders", "sales.orders_p2023", "sales.orders_p2023_web", "sales.orders_p2023_other",
         "sales.orders_p2024", "sales.orders_p2024_web", "sales.orders_p2024_shop", "sales.orders_p2024_other"]
CREATED = {  # what the log creates (the setup's tables are the applying user's in every run)
    "relation public.s1", "relation public.v_orders", "relation public.v46_4",
    "routine add1(integer)", "routine p_log(integer,character varying)", "type pt", "type color",
    *(f"relation {t}" for t in SALES), "relation sales.orders_pkey",
}


def test_owners_role_map_on_the_server(owned_db):
    _name, conn = owned_db
    owners, script = apply(conn, owners=True, role_map={"alice": APP, "hr_admin": HR, "bob": HR})
    assert f"CREATE SCHEMA hr AUTHORIZATION {HR};\n" in script
    assert owners["schema hr"] == HR  # AUTHORIZATION, mapped
    assert owners["relation hr.emp"] == HR  # the log's own ALTER TABLE ... OWNER TO bob, mapped
    assert owners["schema sales"] == APP  # --owners: ALTER SCHEMA ... OWNER TO
    for obj in CREATED:  # every partition too; an index follows its table
        assert owners[obj] == APP, obj
    for obj in ("relation public.orders", "relation public.t46", "relation public.t_log"):
        assert owners[obj] == "postgres", obj


def test_default_keeps_what_the_statements_say(owned_db):
    _name, conn = owned_db
    owners, script = apply(conn, role_map={"hr_admin": HR, "bob": HR})
    assert owners["schema hr"] == HR and owners["relation hr.emp"] == HR
    assert owners["schema sales"] == "postgres"
    assert {owners[o] for o in CREATED} == {"postgres"}
    assert script.count("OWNER TO") == 1  # only the log's own


def test_no_owner_on_the_server(owned_db):
    _name, conn = owned_db
    owners, script = apply(conn, no_owner=True, role_map={"alice": APP})
    assert "AUTHORIZATION" not in script and "OWNER TO" not in script
    assert set(owners.values()) == {"postgres"}
    assert "schema hr" in owners and "relation hr.emp" in owners


def test_hostile_role_names_on_the_server(owned_db, pg_server, tmp_path):
    name, conn = owned_db
    conn.execute("CREATE TABLE public.sentinel (id int)")
    for i, role in enumerate(HOSTILE):
        docs = [schema(f"s{i}", authorization="hr_admin"), table(f"t{i}", f"s{i}"),
                alter(sub("OWNER TO %{owner}I", "change owner", owner="alice"), table=f"t{i}", schema=f"s{i}")]
        results = list(ddlc.translate_many([json.dumps(d) for d in docs], target="postgres", owners=True,
                                           role_map={"alice": role, "hr_admin": role}))
        script = tmp_path / f"owners{i}.sql"
        script.write_text("".join(r.sql for r in results), "utf-8")
        p = pg_server.psql_file(name, str(script), options="-c standard_conforming_strings=off")
        assert p.returncode == 0, p.stderr
        got = conn.execute("SELECT pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = %s", (f"s{i}",))
        assert got.fetchone() == (role,)
        got = conn.execute("SELECT pg_get_userbyid(relowner) FROM pg_class WHERE oid = %s::regclass",
                           (f"s{i}.t{i}",))
        assert got.fetchone() == (role,)
    assert conn.execute("SELECT to_regclass('public.sentinel') IS NOT NULL").fetchone() == (True,)
